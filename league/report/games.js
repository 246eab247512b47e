// The report's games list (league/report/games.py): renders the rows embedded as JSON in
// script#games-data a page at a time, with filters, each game's replay command on a line of its own
// with a copy button. It only ever sets text (textContent), never markup.
(function () {
  var data = JSON.parse(document.getElementById("games-data").textContent);
  var pageRows = data.page_rows, rows = data.rows, shown = rows, page = 0;
  var byId = function (id) { return document.getElementById(id); };
  var body = byId("games-rows"), bot = byId("games-bot"), variant = byId("games-variant");
  var termination = byId("games-termination");
  var columns = document.querySelectorAll("#games-table thead th").length;
  function cell(tr, lines, className) {
    var td = document.createElement("td");
    if (className) td.className = className;
    lines.forEach(function (line) {
      var span = document.createElement("span");
      span.textContent = line[0];
      span.className = line[1] || "";
      if (lines.length > 1) span.style.display = "block";
      td.appendChild(span);
    });
    tr.appendChild(td);
    return td;
  }
  function copyCommand(code, button) {  // select the whole command, then copy it where the browser lets us
    var range = document.createRange();
    range.selectNodeContents(code);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    var copied = false;
    try { copied = document.execCommand("copy"); } catch (error) { copied = false; }
    button.textContent = copied ? "copied" : "selected: press Ctrl+C";
  }
  function replayRow(id, command) {
    var tr = document.createElement("tr");
    tr.className = "games-replay-row";
    tr.dataset.gameId = id;
    var td = document.createElement("td");
    td.colSpan = columns;
    var label = document.createElement("span");
    label.className = "games-replay-label";
    label.textContent = "replay:";
    var code = document.createElement("code");
    code.className = "games-replay";
    code.textContent = command;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "games-copy";
    button.textContent = "copy";
    button.addEventListener("click", function () { copyCommand(code, button); });
    var line = document.createElement("div");
    line.className = "games-replay-line";
    line.appendChild(label);
    line.appendChild(code);
    line.appendChild(button);
    td.appendChild(line);
    tr.appendChild(td);
    return tr;
  }
  function render() {
    var pages = Math.max(1, Math.ceil(shown.length / pageRows));
    page = Math.min(Math.max(page, 0), pages - 1);
    body.textContent = "";
    shown.slice(page * pageRows, (page + 1) * pageRows).forEach(function (row) {
      var index = row[0], id = row[1], name = row[2], seats = row[3], scores = row[4], ranks = row[5];
      var winner = row[6], ending = row[7], reason = row[8], detail = row[9], offenders = row[10];
      var tr = document.createElement("tr");
      tr.className = "games-row";
      tr.dataset.gameId = id;
      cell(tr, [[String(index)]], "games-number");
      cell(tr, [[id]]).firstChild.className = "games-id";
      cell(tr, [[name]]);
      cell(tr, seats.map(function (seat, i) {
        return offenders.indexOf(i) < 0 ? [seat] : [seat + " (faulted)", "games-faulted"];
      }), "games-seats");
      cell(tr, scores.map(function (score) { return [score]; }), "games-number");
      cell(tr, ranks.map(function (rank) { return [String(rank)]; }), "games-number");
      cell(tr, [[winner]], "games-winner");
      var end = [[ending, ending === "NORMAL" ? "" : "games-faulted"]];
      if (reason) end.push([reason, "games-small"]);
      if (detail) end.push([detail, "games-small"]);
      cell(tr, end, "games-termination");
      cell(tr, [[String(row[11])]], "games-number");
      cell(tr, [[row[12]]], "games-number");
      if (data.watch) {
        var watch = cell(tr, []);
        if (row[14]) {
          var link = document.createElement("a");
          link.href = "replays/" + encodeURIComponent(id) + ".html";
          link.textContent = "watch";
          link.className = "games-watch";
          watch.appendChild(link);
        }
      }
      body.appendChild(tr);
      if (data.replay) {
        tr.className += " games-with-replay";
        body.appendChild(replayRow(id, row[13]));
      }
    });
    byId("games-count").textContent = "showing " + shown.length + " of " + rows.length + " games";
    byId("games-page").textContent = "page " + (page + 1) + " of " + pages;
    byId("games-previous").disabled = page === 0;
    byId("games-next").disabled = page >= pages - 1;
  }
  function filter() {
    shown = rows.filter(function (row) {
      return (!bot.value || row[3].indexOf(bot.value) >= 0) && (!variant.value || row[2] === variant.value) &&
        (!termination.value || row[7] === termination.value);
    });
    page = 0;
    render();
  }
  [bot, variant, termination].forEach(function (select) { select.addEventListener("change", filter); });
  byId("games-previous").addEventListener("click", function () { page -= 1; render(); });
  byId("games-next").addEventListener("click", function () { page += 1; render(); });
  render();
})();
