// geister replay viewer: the 6x6 board in seat 0's frame (seat 0 at the bottom, its ghosts upright;
// seat 1 at the top, its ghosts upside down), each seat's exits marked in its colour, the ghosts
// red or blue as the chosen view knows them ("all", or what seat 0 / seat 1 knows: its own colours
// and the captured ones; everything once the game is over), the last move traced, and beside the
// board each seat's captures. Every text a bot could have chosen goes through textContent.
// A public frame (a spectator's, engine/geister/view.py public_view) has red: null for every
// colour still secret: such ghosts are drawn grey, and the "colours known to" option, which
// it cannot serve, is hidden; a hidden setup line reads as such.
(function () {
  "use strict";
  const CELL = 70;
  const PAD = 26;
  const SIDE = 6 * CELL;
  const SEAT_TONES = ["#b9770e", "#5b2c6f"];
  const COLOURS = { red: "#d64541", blue: "#2e6fd6", hidden: "#9aa0a6" };
  const EXITS = [[[0, 0], [5, 0]], [[0, 5], [5, 5]]];

  const style = document.createElement("style");
  style.textContent = `
    .geister { display: flex; gap: 1.6em; align-items: flex-start; }
    .geister svg.board { flex: none; }
    .geister .seats { display: flex; flex-direction: column; gap: 1em; flex: 1 1 280px; min-width: 0; }
    .geister .card { border: 2px solid #ddd; border-radius: 8px; padding: 0.6em 0.8em; }
    .geister .card.acting { border-color: #2c3e50; box-shadow: 0 0 0 2px #2c3e5033; }
    .geister .card.winner { background: #eafaf1; border-color: #27ae60; }
    .geister .card h4 { margin: 0 0 0.3em; font-size: 1.05em; display: flex; align-items: center; gap: 0.4em; }
    .geister .card .line { margin: 0.25em 0; display: flex; align-items: center; gap: 0.3em; flex-wrap: wrap; }
    .geister .card .quiet { color: #777; }
    .geister .tone { display: inline-block; width: 0.9em; height: 0.9em; border-radius: 50%; }
    .geister .status { font-size: 1.1em; margin: 0.5em 0 0; }
    .geister .status.over { font-weight: bold; }
  `;
  document.head.append(style);

  const { svg } = window.ReplayDom;

  function centre(x, y) {
    return [PAD + x * CELL + CELL / 2, PAD + y * CELL + CELL / 2];
  }

  // Whether a reel is a spectator's: some frame of it keeps a colour secret (red: null).
  function isPublic(reel) {
    return reel.frames.some((f) => f.view.pieces.some((pieces) => pieces.some((piece) => piece.red === null)));
  }

  // Whether the chosen view knows this piece's colour.
  function known(view, frame, seat, piece) {
    if (!frame.set[seat] || piece.red === null) return false;
    if (view === "all" || frame.over) return true;
    if (view === `seat ${seat}`) return true;
    return piece.at === "captured" || piece.at === "escaped";
  }

  function tint(view, frame, seat, piece) {
    if (!known(view, frame, seat, piece)) return "hidden";
    return piece.red ? "red" : "blue";
  }

  // A ghost: a dome with a wavy hem and two eyes, upright for seat 0, upside down for seat 1.
  function ghost(parent, cx, cy, size, seat, colour, label, faded) {
    const group = svg("g", { transform: `translate(${cx} ${cy}) rotate(${seat === 0 ? 0 : 180}) scale(${size / 60})` }, parent);
    if (faded) group.setAttribute("opacity", "0.35");
    const body = "M -22 24 L -22 -4 A 22 22 0 0 1 22 -4 L 22 24 L 14.7 17 L 7.3 24 L 0 17 L -7.3 24 L -14.7 17 Z";
    svg("path", { d: body, fill: COLOURS[colour], stroke: SEAT_TONES[seat], "stroke-width": 4, "stroke-linejoin": "round" }, group);
    for (const ex of [-8, 8]) {
      svg("ellipse", { cx: ex, cy: -6, rx: 4.2, ry: 5.2, fill: "#fff" }, group);
      svg("circle", { cx: ex, cy: -5, r: 2.2, fill: "#1b1b1b" }, group);
    }
    const text = svg("text", {
      x: 0, y: 12, "text-anchor": "middle", "dominant-baseline": "middle",
      "font-size": 15, "font-weight": "bold", fill: "#fff", "font-family": "system-ui, sans-serif",
      transform: seat === 0 ? "" : "rotate(180 0 12)",
    }, group);
    text.textContent = colour === "hidden" ? `${label}?` : label;
    return group;
  }

  function drawBoard(frame, previous, view, reel) {
    const width = SIDE + 2 * PAD;
    const root = svg("svg", { class: "board", width, height: width, viewBox: `0 0 ${width} ${width}`, role: "img" });
    svg("rect", { x: 0, y: 0, width, height: width, rx: 10, fill: "#3b3024" }, root);
    for (let y = 0; y < 6; y++) {
      for (let x = 0; x < 6; x++) {
        svg("rect", { x: PAD + x * CELL, y: PAD + y * CELL, width: CELL, height: CELL, fill: (x + y) % 2 ? "#e8dcc3" : "#f5ecd9" }, root);
      }
    }
    // Exits: seat 0 leaves through the top corners, seat 1 through the bottom ones.
    EXITS.forEach((squares, seat) => {
      for (const [x, y] of squares) {
        const [cx, cy] = centre(x, y);
        svg("rect", { x: PAD + x * CELL + 3, y: PAD + y * CELL + 3, width: CELL - 6, height: CELL - 6, rx: 6,
          fill: "none", stroke: SEAT_TONES[seat], "stroke-width": 4, "stroke-dasharray": "8 5" }, root);
        const out = seat === 0 ? -1 : 1;
        const tip = cy + out * (CELL / 2 + PAD / 2 + 2);
        svg("path", { d: `M ${cx - 9} ${tip - out * 9} L ${cx} ${tip} L ${cx + 9} ${tip - out * 9}`, fill: "none",
          stroke: SEAT_TONES[seat], "stroke-width": 4, "stroke-linecap": "round" }, root);
        const side = x === 0 ? 1 : -1;
        const word = svg("text", { x: cx + side * 16, y: tip - out * 4, "text-anchor": x === 0 ? "start" : "end",
          "dominant-baseline": "middle", "font-size": 13, fill: "#f5ecd9", "font-family": "system-ui, sans-serif" }, root);
        word.textContent = `seat ${seat}'s exit`;
      }
    });
    // The last move: where the moved ghost came from, and where a ghost was captured.
    if (previous) {
      frame.pieces.forEach((pieces, seat) => {
        pieces.forEach((piece, index) => {
          const before = previous.pieces[seat][index].at;
          if (!Array.isArray(before) || JSON.stringify(before) === JSON.stringify(piece.at)) return;
          const [bx, by] = centre(before[0], before[1]);
          if (Array.isArray(piece.at)) {
            const [ax, ay] = centre(piece.at[0], piece.at[1]);
            svg("rect", { x: PAD + before[0] * CELL + 2, y: PAD + before[1] * CELL + 2, width: CELL - 4, height: CELL - 4,
              rx: 8, fill: "#f7dc6f", opacity: 0.7 }, root);
            svg("line", { x1: bx, y1: by, x2: ax, y2: ay, stroke: "#d4ac0d", "stroke-width": 6, "stroke-linecap": "round", opacity: 0.8 }, root);
          } else if (piece.at === "captured") {
            svg("rect", { x: PAD + before[0] * CELL + 2, y: PAD + before[1] * CELL + 2, width: CELL - 4, height: CELL - 4,
              rx: 8, fill: "none", stroke: "#c0392b", "stroke-width": 4 }, root);
          } else if (piece.at === "escaped") {
            svg("rect", { x: PAD + before[0] * CELL + 2, y: PAD + before[1] * CELL + 2, width: CELL - 4, height: CELL - 4,
              rx: 8, fill: "#abebc6", stroke: "#27ae60", "stroke-width": 4 }, root);
            ghost(root, bx, by, CELL * 0.82, seat, tint(view, frame, seat, piece), seat === 0 ? piece.id : piece.id.toLowerCase(), true);
            const word = svg("text", { x: bx, y: by + CELL / 2 - 10, "text-anchor": "middle", "dominant-baseline": "middle", "font-size": 12,
              "font-weight": "bold", fill: "#145a32", "font-family": "system-ui, sans-serif" }, root);
            word.textContent = "escaped";
          }
        });
      });
    }
    frame.pieces.forEach((pieces, seat) => {
      pieces.forEach((piece) => {
        if (!Array.isArray(piece.at)) return;
        const [cx, cy] = centre(piece.at[0], piece.at[1]);
        const colour = tint(view, frame, seat, piece);
        // A blue the view can see one step from its exit, or on it, glows: it is about to escape.
        if (colour === "blue" && EXITS[seat].some(([ex, ey]) => Math.abs(ex - piece.at[0]) + Math.abs(ey - piece.at[1]) <= 1)) {
          svg("circle", { cx, cy, r: CELL * 0.47, fill: "#58d68d", opacity: 0.55 }, root);
        }
        const label = seat === 0 ? piece.id : piece.id.toLowerCase();
        ghost(root, cx, cy, CELL * 0.82, seat, colour, label, false).dataset.piece = `${seat}${piece.id}`;
      });
    });
    return root;
  }

  function card(frame, seat, view, reel) {
    const box = document.createElement("div");
    box.className = "card";
    if (frame.to_move.includes(seat)) box.classList.add("acting");
    if (frame.over && frame.end.winner === seat) box.classList.add("winner");
    const head = document.createElement("h4");
    const tone = document.createElement("span");
    tone.className = "tone";
    tone.style.background = SEAT_TONES[seat];
    const name = document.createElement("span");
    name.textContent = `seat ${seat}: ${reel.seats[seat]}`;
    const where = document.createElement("span");
    where.className = "quiet";
    where.textContent = seat === 0 ? "(bottom, ghosts upright)" : "(top, ghosts upside down)";
    head.append(tone, name, where);
    box.append(head);

    const other = 1 - seat;
    const taken = frame.pieces[other].filter((piece) => piece.at === "captured");
    const line = document.createElement("div");
    line.className = "line";
    const words = document.createElement("span");
    const reds = taken.filter((piece) => piece.red).length;
    words.textContent = `captured ${taken.length}: ${reds} red, ${taken.length - reds} blue`;
    line.append(words);
    for (const piece of taken) {
      const icon = svg("svg", { width: 28, height: 28, viewBox: "0 0 28 28" });
      ghost(icon, 14, 14, 24, other, piece.red ? "red" : "blue", "", false);
      line.append(icon);
    }
    box.append(line);

    const own = frame.pieces[seat];
    const status = document.createElement("div");
    status.className = "line quiet";
    const parts = [];
    if (!frame.set[seat]) parts.push(frame.phase === "setup" && !frame.over ? "choosing its reds" : "no setup");
    else if (view === "all" || view === `seat ${seat}` || frame.over) {
      const left = (red) => own.filter((piece) => piece.red === red && Array.isArray(piece.at)).length;
      parts.push(`on the board: ${left(false)} blue, ${left(true)} red`);
    } else parts.push(`on the board: ${own.filter((piece) => Array.isArray(piece.at)).length} ghosts, colours hidden`);
    if (own.some((piece) => piece.at === "escaped")) parts.push("a blue escaped");
    if (frame.remaining_ms && frame.phase !== "setup") {
      const left = frame.remaining_ms[seat];
      parts.push(left > 0 ? `${(left / 1000).toFixed(1)} s of its budget left` : "budget spent: a move's time only");
    }
    if (frame.to_move.includes(seat)) parts.push(frame.phase === "setup" ? "setting up" : "to move");
    status.textContent = parts.join(" · ");
    box.append(status);
    return box;
  }

  const REASONS = {
    escape: "escaped with a blue ghost",
    all_blue_captured: "captured all four blue ghosts",
    all_red_captured: "had all four red ghosts captured",
    max_plies: "ply limit reached: a draw",
    double_fault: "both setups failed: a draw",
  };

  window.LeagueViewer = {
    options: [{ name: "view", label: "colours known to", values: ["all", "seat 0", "seat 1"] }],
    render(element, frame, previous, reel, options) {
      const spectator = isPublic(reel);
      const choice = document.getElementById("option-view");
      if (choice && choice.parentElement) choice.parentElement.hidden = spectator;
      const view = spectator ? "public" : (options && options.view) || "all";
      element.replaceChildren();
      const row = document.createElement("div");
      row.className = "geister";
      const seats = document.createElement("div");
      seats.className = "seats";
      seats.append(card(frame, 1, view, reel), card(frame, 0, view, reel));
      row.append(drawBoard(frame, previous, view, reel), seats);
      const status = document.createElement("p");
      status.className = "status";
      if (frame.over) {
        status.classList.add("over");
        const who = frame.end.winner === null ? "draw" : `seat ${frame.end.winner} (${reel.seats[frame.end.winner]}) wins`;
        const why = REASONS[frame.end.reason] || frame.end.reason;
        status.textContent = `${who}: ${frame.end.detail} [${why}]`;
      } else if (frame.phase === "setup") {
        status.textContent = "setup: both seats choose their four red ghosts at once";
      } else {
        const seat = frame.to_move[0];
        status.textContent = `ply ${frame.plies} of at most ${frame.max_plies} · seat ${seat} (${reel.seats[seat]}) to move · escape rule: ${frame.escape}`;
      }
      seats.append(status);
      element.append(row);
    },
    // Seen from one seat, the other seat's setup line (which names its red ghosts) is hidden too.
    moveText(move, options) {
      if (move.hidden) return "(hidden from spectators)";
      const view = (options && options.view) || "all";
      const hidden = view !== "all" && move.seat !== Number(view.split(" ")[1]);
      return hidden && move.reply.startsWith("SET:") ? "SET:???? (hidden from this seat)" : move.reply;
    },
    showsStderrOf(seat, options) {
      const view = (options && options.view) || "all";
      return view === "all" || seat === Number(view.split(" ")[1]);
    },
  };
})();
