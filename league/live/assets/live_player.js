// The live player: a game's frames shown as they are played, every one in order, paced by tension.
// The page embeds what it follows (script#live-data: the game, its seats, its stream's address) and the
// game's viewer (window.LeagueViewer), which draws one frame as in a replay. Frames come as server-sent
// events (event "frame", its id the frame's index); the event "end" says the game is over and how it ended.
// window.livePlayer is the player's state, for people at the console and for tests: shown lists every
// frame index drawn, in the order drawn.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("live-data").textContent);
  const viewer = window.LeagueViewer;
  const FASTEST_MS = 60;
  const SLOWEST_MS = 1500;
  const LEAST_MS = 10;
  const $ = (id) => document.getElementById(id);

  const player = {
    frames: [],
    index: -1,
    shown: [],
    ended: false,
    summary: null,
    timer: null,
    options: {},
    reel: { title: data.title, seats: data.seats, frames: [] },
  };
  window.livePlayer = player;
  for (const option of viewer.options || []) player.options[option.name] = option.values[0];

  // A calm frame shows for FASTEST_MS, the tensest for SLOWEST_MS (as the replays pace them); behind the
  // game by many frames, the player hurries in proportion, never skipping one.
  player.delayFor = function (tension, behind) {
    const t = Math.min(1, Math.max(0, tension));
    const paced = FASTEST_MS + (SLOWEST_MS - FASTEST_MS) * t * t;
    return Math.max(LEAST_MS, paced / Math.max(1, behind / 4));
  };

  function draw(index) {
    const frame = player.frames[index];
    const previous = index > 0 ? player.frames[index - 1] : null;
    player.reel.frames = player.frames;
    viewer.render($("board"), frame.view, previous ? previous.view : null, player.reel, player.options);
    player.index = index;
    player.shown.push(index);
    $("position").textContent = `frame ${index + 1} · ply ${frame.view.plies} · tension ${frame.tension.toFixed(2)}`;
    const moves = $("moves");
    moves.replaceChildren();
    for (const move of frame.moves) {
      const line = document.createElement("li");
      const reply = move.hidden ? "(hidden until the rules reveal it)" : move.event && move.event !== "line" ? `(${move.event})` : move.reply;
      line.textContent = `seat ${move.seat} (${data.seats[move.seat] || ""}) ${move.role}: ${reply} · ${move.ms} ms${move.fault ? " · " + move.fault : ""}`;
      moves.append(line);
    }
  }

  function tick() {
    player.timer = null;
    const next = player.index + 1;
    if (next >= player.frames.length) {
      if (player.ended) finish();
      return;
    }
    draw(next);
    const behind = player.frames.length - 1 - next;
    player.timer = setTimeout(tick, player.delayFor(player.frames[next].tension, behind));
  }

  function wake() {
    if (player.timer === null) tick();
  }

  function finish() {
    const summary = player.summary || {};
    const result = summary.result;
    let said = "the game is over";
    if (summary.dropped) said = "the game stopped before its end (it is played again)";
    else if (result) said = `over: ${result.termination} · scores ${result.scores.join(" : ")}${result.detail ? " · " + result.detail : ""}`;
    $("status").textContent = said;
    player.done = true;
  }

  const stream = new EventSource(data.stream);
  stream.addEventListener("frame", (event) => {
    player.frames[Number(event.lastEventId)] = JSON.parse(event.data);
    wake();
  });
  // After "end" the server ends the stream; the browser would connect again, so the player closes it then
  // (closing it at "end" would abort a response the server is still finishing).
  stream.addEventListener("end", (event) => {
    player.summary = JSON.parse(event.data);
    player.ended = true;
    wake();
  });
  stream.onerror = () => {
    if (player.ended) stream.close();
    else $("status").textContent = "the stream was interrupted; reconnecting";
  };
})();
