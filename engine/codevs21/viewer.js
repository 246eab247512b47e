// codevs21 replay viewer: each seat's well (two side by side in versus) with the pack it drops next,
// and the turn just played as a strip: the drop (the landed blocks outlined), then every chain step
// with the cells it erases highlighted, then the well after the turn. Scores are strings (past 2^53).
window.LeagueViewer = (function () {
  "use strict";
  const SVG = "http://www.w3.org/2000/svg";
  const SEAT_COLOURS = ["#1f77b4", "#e8710a"];

  function el(tag, style, text) {
    const node = document.createElement(tag);
    if (style) Object.assign(node.style, style);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function big(digits) {
    try {
      return BigInt(digits).toLocaleString("en-US");
    } catch (error) {
      return String(digits);
    }
  }

  // A number block's colour: neighbouring values far apart on the colour wheel (the golden angle), so
  // the blocks of a run are told apart at a glance; obstruction is slate.
  function colour(value, S) {
    if (value > S) return "#4a5260";
    return `hsl(${Math.round((value * 137.508 + 20) % 360)}, 68%, ${value % 2 ? 70 : 62}%)`;
  }

  // One well as SVG: `columns` bottom first; `marks` maps "x,y" to "drop" or "erase".
  function well(frame, columns, cell, marks, options) {
    const W = frame.W;
    const tallest = Math.max(0, ...columns.map((column) => column.length));
    const rows = Math.max(frame.H, tallest);
    const pad = 2;
    const width = W * cell + 2 * pad;
    const height = rows * cell + 2 * pad;
    const root = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}` });
    root.classList.add("well");
    root.append(svg("rect", { x: 0, y: 0, width, height, rx: 4, fill: "#eef0f3", stroke: "#9aa3ad" }));
    const top = pad + (rows - frame.H) * cell;
    if (rows > frame.H) root.append(svg("rect", { x: pad, y: pad, width: W * cell, height: top - pad, fill: "#f7d4cf" }));
    const showNumbers = cell >= 13;
    columns.forEach((column, x) => {
      column.forEach((value, y) => {
        if (!value) return;
        const cx = pad + x * cell;
        const cy = pad + (rows - 1 - y) * cell;
        const mark = marks[`${x},${y}`];
        root.append(svg("rect", { x: cx + 0.5, y: cy + 0.5, width: cell - 1, height: cell - 1, rx: cell > 8 ? 2 : 0, fill: colour(value, frame.S) }));
        if (value > frame.S && cell >= 8) {
          root.append(svg("path", { d: `M${cx + 3} ${cy + 3}L${cx + cell - 3} ${cy + cell - 3}M${cx + cell - 3} ${cy + 3}L${cx + 3} ${cy + cell - 3}`, stroke: "#8c96a3", "stroke-width": 1 }));
        } else if (showNumbers) {
          root.append(svg("text", { x: cx + cell / 2, y: cy + cell / 2 + cell * 0.18, "text-anchor": "middle", "font-size": Math.round(cell * 0.55), "font-weight": "bold", fill: "#1d232b", "font-family": "system-ui, sans-serif" }, String(value)));
        }
        if (mark === "erase") {
          root.append(svg("rect", { x: cx + 1, y: cy + 1, width: cell - 2, height: cell - 2, fill: "rgba(255,255,255,0.35)", stroke: "#e0102f", "stroke-width": Math.max(1.5, cell / 7) }));
        } else if (mark === "drop") {
          root.append(svg("rect", { x: cx + 1, y: cy + 1, width: cell - 2, height: cell - 2, fill: "none", stroke: "#0b3d91", "stroke-width": Math.max(1.5, cell / 8), "stroke-dasharray": cell > 8 ? "3 2" : "" }));
        }
      });
    });
    root.append(svg("line", { x1: pad, x2: pad + W * cell, y1: top, y2: top, stroke: "#c0392b", "stroke-width": 1.5, "stroke-dasharray": "5 3" }));
    return root;
  }

  function pack(frame, cells, cell) {
    const T = frame.T;
    const root = svg("svg", { width: T * cell + 2, height: T * cell + 2 });
    root.append(svg("rect", { x: 0, y: 0, width: T * cell + 2, height: T * cell + 2, fill: "#fff", stroke: "#ccc" }));
    cells.forEach((value, index) => {
      if (!value) return;
      const cx = 1 + (index % T) * cell;
      const cy = 1 + Math.floor(index / T) * cell;
      root.append(svg("rect", { x: cx + 0.5, y: cy + 0.5, width: cell - 1, height: cell - 1, rx: 2, fill: colour(value, frame.S) }));
      if (value <= frame.S && cell >= 12) root.append(svg("text", { x: cx + cell / 2, y: cy + cell / 2 + cell * 0.18, "text-anchor": "middle", "font-size": Math.round(cell * 0.55), "font-weight": "bold", fill: "#1d232b", "font-family": "system-ui, sans-serif" }, String(value)));
    });
    return root;
  }

  function marksOf(cells, kind) {
    const marks = {};
    for (const [x, y] of cells || []) marks[`${x},${y}`] = kind;
    return marks;
  }

  // The turn just played: the drop, each chain step (erased cells highlighted), the well after.
  // `room` is the width the strip may take: the small wells shrink to fit a long chain on one line.
  function chainStrip(frame, info, room) {
    const last = info.last;
    const box = el("div", { marginTop: "8px" });
    box.className = "chain";
    if (!last) return box;
    if (last.fault) {
      box.append(el("div", { color: "#c0392b", fontWeight: "bold" }, `no move: fault ${last.fault}`));
      return box;
    }
    const steps = last.steps;
    const sent = frame.mode === "versus" && last.attack ? ` · sends ${last.attack} obstruction` : "";
    const fired = last.fired ? " · fire +1" : "";
    const headline = steps.length ? `chain of ${steps.length} · +${big(last.points)} points${sent}${fired}` : "nothing erased";
    box.append(el("div", { fontSize: "14px", marginBottom: "4px" }, `last move X=${last.move[0]} R=${last.move[1]}: ${headline}`));
    if (!steps.length) return box;
    const stages = steps.length + 2;
    const tallest = Math.max(frame.H, ...steps[0].field.map((column) => column.length));
    const mini = Math.max(3, Math.min(14, Math.floor(170 / tallest), Math.floor((room / stages - 10) / frame.W)));
    const strip = el("div", { display: "flex", flexWrap: "wrap", gap: "6px", alignItems: "flex-start" });
    const stage = (lines, columns, marks, colourText) => {
      const figure = el("figure", { margin: "0", display: "flex", flexDirection: "column", alignItems: "center" });
      figure.append(well(frame, columns, mini, marks));
      const caption = el("figcaption", { fontSize: "11px", color: colourText || "#555", textAlign: "center", lineHeight: "1.25" });
      lines.forEach((line, index) => caption.append(el("div", { fontWeight: index ? "normal" : "bold", whiteSpace: "nowrap" }, line)));
      figure.append(caption);
      strip.append(figure);
    };
    stage(["drop", `${last.dropped.length} blocks`], steps[0].field, marksOf(last.dropped, "drop"), "#0b3d91");
    steps.forEach((step) => {
      const lines = [`step ${step.chain}`, `${step.count} erased`];
      if (frame.mode === "versus" && step.attack) lines.push(`${step.attack} sent`);
      stage(lines, step.field, marksOf(step.erased, "erase"), "#c0392b");
    });
    stage(["after"], info.field, {});
    box.append(strip);
    return box;
  }

  function seatPanel(frame, seat, info, reel, main, options) {
    const versus = frame.mode === "versus";
    const panel = el("div", { flex: "1 1 0", minWidth: "0" });
    panel.dataset.seat = String(seat);
    const title = el("div", { fontSize: "17px", fontWeight: "bold", marginBottom: "2px" });
    title.append(el("span", { color: versus ? SEAT_COLOURS[seat] : "#222" }, `seat ${seat}: `));
    title.append(el("span", {}, reel.seats[seat] || ""));
    panel.append(title);
    const facts = [`score ${big(info.score)}`, `fire ${info.fire}`, `max chain ${info.max_chain}`];
    if (versus) facts.push(`stock ${info.stock}`);
    facts.push(`${info.used_ms} ms used`);
    panel.append(el("div", { fontSize: "14px", marginBottom: "6px" }, facts.join(" · ")));
    if (info.end) {
      const bad = info.end.startsWith("fault") || info.end === "overflow";
      panel.append(el("div", { fontSize: "14px", fontWeight: "bold", color: bad ? "#c0392b" : "#1e8449", marginBottom: "4px" }, `end: ${info.end}${info.fault ? " · " + info.fault : ""}`));
    }
    const row = el("div", { display: "flex", gap: "16px", alignItems: "flex-start" });
    const calm = info.last && !info.last.fault && !(info.last.steps || []).length;
    row.append(well(frame, info.field, main, calm ? marksOf(info.last.dropped, "drop") : {}));
    const side = el("div", { fontSize: "12px", color: "#555", flex: "1 1 0", minWidth: "0" });
    if (info.pack) {
      side.append(el("div", { marginBottom: "3px" }, "next pack"));
      side.append(pack(frame, info.pack, Math.max(10, Math.min(20, main))));
    }
    row.append(side);
    panel.append(row);
    const wellWidth = frame.W * main + 4;
    if (options.steps !== "hidden") {
      if (versus) panel.append(chainStrip(frame, info, 520));
      else side.append(chainStrip(frame, info, 1040 - wellWidth - 16));
    }
    return panel;
  }

  return {
    options: [{ name: "steps", label: "chain steps", values: ["shown", "hidden"] }],
    render(element, frame, previous, reel, options) {
      element.replaceChildren();
      const versus = frame.mode === "versus";
      // Big enough for the block numbers (13 px and up) on the Large well too (20 x 36), both wells side by side.
      const main = Math.max(7, Math.min(26, Math.floor(720 / frame.H), Math.floor((versus ? 520 : 760) / frame.W)));
      const turn = frame.over ? `over after ${frame.turn} turns` : `turn ${frame.turn + 1} of ${frame.N}`;
      const head = `${versus ? "versus" : "solo"} · well ${frame.W}×${frame.H}, runs summing to ${frame.S} erase · ${turn}`;
      element.append(el("p", { fontSize: "16px", fontWeight: "bold", margin: "0 0 8px 0" }, head));
      const row = el("div", { display: "flex", gap: "28px", alignItems: "flex-start" });
      frame.seats.forEach((info, seat) => row.append(seatPanel(frame, seat, info, reel, main, options || {})));
      element.append(row);
    },
  };
})();
