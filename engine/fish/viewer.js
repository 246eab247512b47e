// fish replay viewer: the honeycomb of 60 ice floes on the sea (1-3 fish drawn on each, melted
// floes gone), the penguins in their seat's colour, the plays since the previous frame traced (a
// placement ringed, a slide drawn as an arrow from the floe that melted), penguins about to be cut
// off ringed in red and stuck ones greyed, and a score table: fish, floes, moves left, faults.
(function () {
  "use strict";
  const W = 64; // a hexagon's width (pointy top)
  const R = W / Math.sqrt(3); // its circumradius
  const ROW = 1.5 * R; // the distance between rows
  const PAD = 16;
  const LENGTHS = [7, 8, 7, 8, 7, 8, 7, 8];
  const STARTS = LENGTHS.map((_, r) => LENGTHS.slice(0, r).reduce((a, b) => a + b, 0));
  const SEATS = ["#e74c3c", "#f1c40f", "#2ecc71", "#af7ac5"];
  const NAMES = ["red", "yellow", "green", "violet"];
  const ICE = ["#1f5f8b", "#eef7fc", "#d6ecf8", "#b9dcf2"];

  const style = document.createElement("style");
  style.textContent = `
    .fish { display: flex; gap: 1.6em; align-items: flex-start; }
    .fish svg.board { flex: none; }
    .fish .side { flex: 1 1 300px; min-width: 0; }
    .fish table.scores { border-collapse: collapse; width: 100%; font-size: 1.05em; }
    .fish table.scores th, .fish table.scores td { padding: 0.35em 0.5em; border-bottom: 1px solid #ddd; text-align: left; }
    .fish table.scores td.num { text-align: right; font-variant-numeric: tabular-nums; }
    .fish table.scores tr.acting td { background: #eaf2f8; font-weight: bold; }
    .fish table.scores tr.faulted td { color: #a04000; }
    .fish .swatch { display: inline-block; width: 0.9em; height: 0.9em; border-radius: 50%; border: 1px solid #333; vertical-align: -0.1em; margin-right: 0.3em; }
    .fish .status { font-size: 1.1em; margin: 0.7em 0 0.3em; }
    .fish .status.over { font-weight: bold; }
    .fish .key { color: #777; font-size: 0.9em; margin: 0.3em 0; }
  `;
  document.head.append(style);

  const { svg } = window.ReplayDom;

  function rowOf(cell) {
    let r = 0;
    while (r + 1 < STARTS.length && STARTS[r + 1] <= cell) r++;
    return r;
  }

  // A cell's centre: doubled column x = 2c + 1 in even rows (the rows of 7 sit half a floe right), 2c in odd rows.
  function centre(cell) {
    const r = rowOf(cell);
    const c = cell - STARTS[r];
    const x = 2 * c + (r % 2 === 0 ? 1 : 0);
    return [PAD + W / 2 + (x * W) / 2, PAD + R + r * ROW];
  }

  function hexagon(cx, cy, radius) {
    const points = [];
    for (let k = 0; k < 6; k++) {
      const angle = (Math.PI / 180) * (60 * k - 90);
      points.push(`${(cx + radius * Math.cos(angle)).toFixed(1)},${(cy + radius * Math.sin(angle)).toFixed(1)}`);
    }
    return points.join(" ");
  }

  function fishIcon(parent, cx, cy) {
    const group = svg("g", { transform: `translate(${cx} ${cy}) scale(1.25)` }, parent);
    svg("path", { d: "M -9 0 Q -2 -7 6 0 Q -2 7 -9 0 Z", fill: "#e67e22" }, group);
    svg("path", { d: "M 5 0 L 11 -5 L 11 5 Z", fill: "#e67e22" }, group);
    svg("circle", { cx: -5, cy: -1, r: 1.3, fill: "#222" }, group);
  }

  function penguin(parent, cx, cy, seat, stuck) {
    const group = svg("g", { transform: `translate(${cx} ${cy})` }, parent);
    if (stuck) group.setAttribute("opacity", "0.45");
    svg("circle", { cx: 0, cy: 0, r: R * 0.72, fill: SEATS[seat], stroke: "#222", "stroke-width": 2 }, group);
    svg("ellipse", { cx: 0, cy: 1, rx: R * 0.42, ry: R * 0.56, fill: "#1b2631" }, group);
    svg("ellipse", { cx: 0, cy: 5, rx: R * 0.27, ry: R * 0.38, fill: "#fdfefe" }, group);
    for (const ex of [-4, 4]) svg("circle", { cx: ex, cy: -8, r: 2, fill: "#fdfefe" }, group);
    svg("path", { d: "M -3 -4 L 3 -4 L 0 0 Z", fill: "#f39c12" }, group);
    if (stuck) {
      svg("path", { d: `M ${-R * 0.5} ${-R * 0.5} L ${R * 0.5} ${R * 0.5} M ${R * 0.5} ${-R * 0.5} L ${-R * 0.5} ${R * 0.5}`,
        stroke: "#222", "stroke-width": 4, "stroke-linecap": "round" }, group);
    }
    return group;
  }

  // What happened since the previous frame: [turn, seat, r, c] placements and [turn, seat, r1, c1, r2, c2] slides.
  function plays(frame, previous) {
    const since = previous ? previous.plies : 0;
    return frame.recent.filter((entry) => entry[0] > since);
  }

  function cellAt(r, c) {
    return STARTS[r] + c;
  }

  function drawBoard(frame, previous) {
    const width = PAD * 2 + 8 * W;
    const height = PAD * 2 + 2 * R + 7 * ROW;
    const root = svg("svg", { class: "board", width, height, viewBox: `0 0 ${width} ${height}`, role: "img" });
    svg("rect", { x: 0, y: 0, width, height, rx: 12, fill: ICE[0] }, root);
    const fresh = plays(frame, previous);
    const melted = new Set(fresh.filter((entry) => entry.length === 6).map((entry) => cellAt(entry[2], entry[3])));
    frame.fish.forEach((fish, cell) => {
      const [cx, cy] = centre(cell);
      if (!fish) {
        if (melted.has(cell)) {
          svg("polygon", { points: hexagon(cx, cy, R - 3), fill: "none", stroke: "#aed6f1", "stroke-width": 2, "stroke-dasharray": "5 4" }, root);
        }
        return;
      }
      svg("polygon", { points: hexagon(cx, cy, R - 2), fill: ICE[fish], stroke: "#85c1e9", "stroke-width": 2 }, root);
      const spots = { 1: [[0, 0]], 2: [[-3, -9], [3, 9]], 3: [[0, -15], [-9, 3], [9, 15]] }[fish] || [];
      for (const [dx, dy] of spots) fishIcon(root, cx + dx, cy + dy);
    });
    // The slides since the previous frame, as arrows in the mover's colour.
    for (const entry of fresh) {
      if (entry.length !== 6) continue;
      const [, seat, r1, c1, r2, c2] = entry;
      const [x1, y1] = centre(cellAt(r1, c1));
      const [x2, y2] = centre(cellAt(r2, c2));
      svg("line", { x1, y1, x2, y2, stroke: "#1b2631", "stroke-width": 9, "stroke-linecap": "round", opacity: 0.5 }, root);
      svg("line", { x1, y1, x2, y2, stroke: SEATS[seat], "stroke-width": 5, "stroke-linecap": "round" }, root);
      svg("circle", { cx: x1, cy: y1, r: 6, fill: SEATS[seat], stroke: "#1b2631", "stroke-width": 2 }, root);
    }
    const placed = new Set(fresh.filter((entry) => entry.length === 4).map((entry) => cellAt(entry[2], entry[3])));
    frame.penguins.forEach((cells, seat) => {
      cells.forEach((cell, index) => {
        const [cx, cy] = centre(cell);
        const room = frame.room[seat][index];
        if (placed.has(cell)) svg("circle", { cx, cy, r: R * 0.92, fill: "none", stroke: "#fdfefe", "stroke-width": 4 }, root);
        if (frame.phase === "move" && !frame.over && room > 0 && room <= 2) {
          svg("circle", { cx, cy, r: R * 0.9, fill: "none", stroke: "#c0392b", "stroke-width": 4, "stroke-dasharray": "6 4" }, root);
        }
        penguin(root, cx, cy, seat, frame.phase === "move" && room === 0 && !frame.over).dataset.penguin = `${seat}:${cell}`;
      });
    });
    return root;
  }

  function scoreTable(frame, reel) {
    const table = document.createElement("table");
    table.className = "scores";
    const head = document.createElement("tr");
    for (const name of ["seat", "bot", "fish", "floes", "moves", ""]) {
      const th = document.createElement("th");
      th.textContent = name;
      if (name === "moves") th.title = "how many floes its penguins can slide to now";
      head.append(th);
    }
    table.append(head);
    for (let seat = 0; seat < frame.players; seat++) {
      const row = document.createElement("tr");
      if (frame.to_move.includes(seat)) row.classList.add("acting");
      const fault = frame.faults.find((record) => record.seat === seat);
      if (fault) row.classList.add("faulted");
      const moves = frame.room[seat].reduce((a, b) => a + b, 0);
      const notes = [];
      if (frame.over) notes.push(`rank ${frame.end.ranks[seat]}`);
      else if (frame.to_move.includes(seat)) notes.push(frame.phase === "place" ? "to place" : "to move");
      if (frame.skipped.includes(seat)) notes.push("skipped");
      if (fault) notes.push(`${fault.kind} at turn ${fault.turn}${frame.over ? "" : ": the fallback plays"}`);
      else if (frame.phase === "move" && moves === 0 && !frame.over) notes.push("cut off");
      const cells = [
        [`${seat}`, ""],
        [reel.seats[seat] || "", ""],
        [String(frame.scores[seat]), "num"],
        [String(frame.tiles[seat]), "num"],
        [frame.phase === "move" ? String(moves) : "", "num"],
        [notes.join(" · "), ""],
      ];
      cells.forEach(([text, kind], index) => {
        const td = document.createElement("td");
        if (kind) td.className = kind;
        if (index === 0) {
          const swatch = document.createElement("span");
          swatch.className = "swatch";
          swatch.style.background = SEATS[seat];
          swatch.title = NAMES[seat];
          td.append(swatch);
        }
        td.append(document.createTextNode(text));
        row.append(td);
      });
      table.append(row);
    }
    return table;
  }

  window.LeagueViewer = {
    render(element, frame, previous, reel) {
      element.replaceChildren();
      const row = document.createElement("div");
      row.className = "fish";
      const side = document.createElement("div");
      side.className = "side";
      side.append(scoreTable(frame, reel));
      const status = document.createElement("p");
      status.className = "status";
      const left = frame.fish.filter((fish) => fish > 0).length;
      if (frame.over) {
        status.classList.add("over");
        const winners = frame.end.ranks.map((rank, seat) => [rank, seat]).filter(([rank]) => rank === 1).map(([, seat]) => `seat ${seat} (${reel.seats[seat]})`);
        const why = frame.end.reason === "no_move" ? "no penguin can move: each keeps the floe it stands on" : "fewer than two seats were left in play";
        status.textContent = `over after turn ${frame.plies}: ${why}. Winner: ${winners.join(", ")}`;
      } else if (frame.phase === "place") {
        const seat = frame.to_move[0];
        status.textContent = `placing penguins (${frame.per_player} each, on 1-fish floes) · turn ${frame.plies + 1} · seat ${seat} (${reel.seats[seat]}) places`;
      } else {
        const seat = frame.to_move[0];
        status.textContent = `turn ${frame.plies + 1} · seat ${seat} (${reel.seats[seat]}) to move · ${left} floes left`;
      }
      const key = document.createElement("p");
      key.className = "key";
      key.textContent = "red dashed ring: a penguin with only 1 or 2 floes left to slide to; greyed with a cross: cut off (stuck). Arrows: the slides since the previous frame; the dashed outline is the floe that melted.";
      side.append(status, key);
      row.append(drawBoard(frame, previous), side);
      element.append(row);
    },
  };
})();
