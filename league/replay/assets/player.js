// The replay player: frames, controls, pacing by tension, the tension curve, each move's details.
// The page embeds the data (script#replay-data) and the game's viewer (window.LeagueViewer), which
// draws one frame: LeagueViewer.render(element, frame, previousFrame, reel, options).
// window.replayPlayer is the player's state and controls, for people at the console and for tests.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const viewer = window.LeagueViewer;
  const FASTEST_MS = 60;
  const SLOWEST_MS = 1500;
  const SVG = "http://www.w3.org/2000/svg";

  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, text) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  };

  const player = {
    reel: 0,
    index: 0,
    playing: false,
    speed: "auto",
    timer: null,
    paced: [],
    options: {},
    reels: data.reels,
  };
  window.replayPlayer = player;

  // Auto pacing: a calm frame shows for FASTEST_MS, the tensest for SLOWEST_MS, on the square of
  // the tension between, so calm and middling stretches race and only the tense ones slow down.
  player.delayFor = function (tension) {
    if (player.speed !== "auto") return 1000 / Number(player.speed);
    const t = Math.min(1, Math.max(0, tension));
    return FASTEST_MS + (SLOWEST_MS - FASTEST_MS) * t * t;
  };

  // A reply as the bot sent it: stored bytes as Latin-1 characters, shown as UTF-8 where they are.
  function asSent(text) {
    const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch (error) {
      return text;
    }
  }

  function frames() {
    return player.reels[player.reel].frames;
  }

  function bounds() {
    const reel = player.reels[player.reel];
    return [reel.start || 0, reel.end === undefined ? reel.frames.length - 1 : reel.end];
  }

  player.show = function (index) {
    const [first, last] = bounds();
    player.index = Math.min(last, Math.max(first, index));
    const list = frames();
    const frame = list[player.index];
    const previous = player.index > 0 ? list[player.index - 1] : null;
    const reel = player.reels[player.reel];
    viewer.render($("board"), frame.view, previous ? previous.view : null, reel, player.options);
    $("scrub").value = String(player.index);
    $("position").textContent = `frame ${player.index + 1} of ${list.length} · ply ${frame.view.plies} · tension ${frame.tension.toFixed(2)}`;
    showMoves(frame, reel);
    markCurve();
  };

  function showMoves(frame, reel) {
    const box = $("moves");
    box.replaceChildren();
    if (frame.opening_end) box.append(el("p", { class: "quiet" }, "the opening ends here: from this position the bots play"));
    if (!frame.moves.length) {
      box.append(el("p", { class: "quiet" }, player.index === 0 ? "the start" : "no reply in this step"));
      return;
    }
    const table = el("table");
    const head = el("tr");
    for (const name of ["seat", "bot", "role", "reply", "time", "fault"]) head.append(el("th", {}, name));
    table.append(head);
    for (const move of frame.moves) {
      const row = el("tr", move.fault ? { class: "fault" } : {});
      const reply = viewer.moveText ? viewer.moveText(move, player.options) : move.reply;
      const sent = move.event && move.event !== "line" ? `(${move.event})` : asSent(reply);
      const what = move.opening ? `${sent} (the opening's, played by the referee)` : sent;
      row.append(el("td", {}, String(move.seat)));
      row.append(el("td", {}, reel.seats[move.seat] || ""));
      row.append(el("td", {}, move.role));
      row.append(el("td", { class: "reply" }, what));
      row.append(el("td", {}, `${move.ms} ms`));
      row.append(el("td", {}, move.fault || ""));
      table.append(row);
    }
    box.append(table);
  }

  // -- the tension curve ------------------------------------------------------------------------
  function drawCurve() {
    const svg = $("tension");
    svg.replaceChildren();
    const list = frames();
    const width = 1000;
    const height = 100;
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("preserveAspectRatio", "none");
    const x = (i) => (list.length > 1 ? (i / (list.length - 1)) * width : 0);
    const [first, last] = bounds();
    if (first > 0 || last < list.length - 1) {
      const band = document.createElementNS(SVG, "rect");
      svg.append(band);
      band.setAttribute("x", x(first));
      band.setAttribute("width", Math.max(2, x(last) - x(first)));
      band.setAttribute("y", 0);
      band.setAttribute("height", height);
      band.setAttribute("class", "stretch");
    }
    const line = document.createElementNS(SVG, "polyline");
    line.setAttribute("points", list.map((f, i) => `${x(i).toFixed(1)},${(height - f.tension * (height - 4) - 2).toFixed(1)}`).join(" "));
    line.setAttribute("class", "curve");
    svg.append(line);
    const marker = document.createElementNS(SVG, "line");
    marker.setAttribute("id", "marker");
    marker.setAttribute("y1", 0);
    marker.setAttribute("y2", height);
    svg.append(marker);
    svg.onclick = (event) => {
      const box = svg.getBoundingClientRect();
      const share = (event.clientX - box.left) / box.width;
      player.pause();
      player.show(Math.min(list.length - 1, Math.max(0, Math.floor(share * list.length))));  // a bin a frame, however many
    };
  }

  function markCurve() {
    const list = frames();
    const marker = $("marker");
    if (!marker) return;
    const x = list.length > 1 ? (player.index / (list.length - 1)) * 1000 : 0;
    marker.setAttribute("x1", x);
    marker.setAttribute("x2", x);
  }

  // -- playing ----------------------------------------------------------------------------------
  function tick() {
    const [, last] = bounds();
    if (player.index >= last) {
      player.pause();
      return;
    }
    player.show(player.index + 1);
    schedule();
  }

  function schedule() {
    const frame = frames()[player.index];
    const delay = player.delayFor(frame.tension);
    player.paced.push([player.index, frame.tension, delay]);
    player.timer = setTimeout(tick, delay);
  }

  player.play = function () {
    if (player.playing) return;
    const [, last] = bounds();
    if (player.index >= last) player.show(bounds()[0]);
    player.playing = true;
    $("play").textContent = "pause";
    schedule();
  };

  player.pause = function () {
    player.playing = false;
    clearTimeout(player.timer);
    $("play").textContent = "play";
  };

  player.step = function (by) {
    player.pause();
    player.show(player.index + by);
  };

  player.setSpeed = function (speed) {
    player.speed = speed;
    $("speed").value = speed;
  };

  player.selectReel = function (number) {
    player.pause();
    player.reel = number;
    const reel = player.reels[number];
    $("scrub").max = String(reel.frames.length - 1);
    showHeader(reel);
    drawCurve();
    player.show(bounds()[0]);
    for (const item of document.querySelectorAll("#reels li")) item.classList.toggle("current", Number(item.dataset.reel) === number);
  };

  function showHeader(reel) {
    $("title").textContent = reel.title;
    $("result").textContent = reel.summary;
    $("diverged").textContent = reel.diverged || "";
    $("diverged").hidden = !reel.diverged;
    $("tension-text").textContent = reel.tension_text;
    const tails = $("stderr");
    const kept = reel.stderr.filter((tail) => !viewer.showsStderrOf || viewer.showsStderrOf(tail.seat, player.options));
    tails.replaceChildren(el("summary", {}, kept.length ? `stderr of ${kept.length} process(es)` : "no stderr shown"));
    for (const tail of kept) {
      tails.append(el("h4", {}, `seat ${tail.seat} (${reel.seats[tail.seat] || ""}), ${tail.role}, process ${tail.epoch + 1}`));
      tails.append(el("pre", {}, tail.text));
    }
  }

  function buildReels() {
    const list = $("reels");
    if (player.reels.length < 2) {
      list.hidden = true;
      return;
    }
    list.hidden = false;
    player.reels.forEach((reel, number) => {
      const item = el("li", { "data-reel": String(number) });
      const link = el("a", { href: "#" }, reel.title);
      link.onclick = (event) => {
        event.preventDefault();
        player.selectReel(number);
      };
      item.append(link, el("span", { class: "quiet" }, ` peak tension ${reel.peak.toFixed(2)}`));
      list.append(item);
    });
  }

  function buildOptions() {
    const box = $("view-options");
    for (const option of viewer.options || []) {
      player.options[option.name] = option.values[0];
      const label = el("label", {}, `${option.label || option.name} `);
      const select = el("select", { id: `option-${option.name}` });
      for (const value of option.values) select.append(el("option", { value }, value));
      select.onchange = () => {
        player.options[option.name] = select.value;
        select.blur(); // the arrow keys step again, not change the option
        showHeader(player.reels[player.reel]);
        player.show(player.index);
      };
      label.append(select);
      box.append(label);
    }
  }

  $("play").onclick = () => (player.playing ? player.pause() : player.play());
  $("back").onclick = () => player.step(-1);
  $("forward").onclick = () => player.step(1);
  $("first").onclick = () => player.step(-1e9);
  $("last").onclick = () => player.step(1e9);
  $("scrub").oninput = () => {
    player.pause();
    player.show(Number($("scrub").value));
  };
  $("scrub").onchange = () => $("scrub").blur(); // space plays again, the arrows step
  $("speed").onchange = () => {
    player.setSpeed($("speed").value);
    $("speed").blur();
  };
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
    if (event.key === " ") {
      event.preventDefault();
      player.playing ? player.pause() : player.play();
    } else if (event.key === "ArrowRight") player.step(1);
    else if (event.key === "ArrowLeft") player.step(-1);
  });

  buildOptions();
  buildReels();
  player.selectReel(0);
})();
