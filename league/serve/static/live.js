// The leaderboard's live updates: each board the server sends (GET /live/board) replaces the page's own.
// The page reads without this script; it only saves a reload.
(function () {
  "use strict";
  var section = document.getElementById("board");
  if (!section || !window.EventSource) return;
  var source = new EventSource("/live/board?after=" + encodeURIComponent(section.dataset.serial || "-1"));
  source.addEventListener("board", function (event) {
    section.innerHTML = event.data;
    section.dataset.serial = event.lastEventId;
  });
})();
