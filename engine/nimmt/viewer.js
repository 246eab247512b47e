// nimmt replay viewer: the four rows (five places and the sixth that takes), the round's cards revealed
// together and where each went (the rows taken, with their bullheads), then every seat's total and hand.
// Cards are coloured by bullheads (1 ivory, 2 blue, 3 yellow, 5 red, 7 purple); each seat has a colour.
// In a public frame (a spectator's, engine/nimmt/view.py public_view) a hand is only its size: it is
// drawn as that many face-down cards, and the "hands" option, which it cannot serve, is hidden.
window.LeagueViewer = (function () {
  "use strict";
  const SEAT_COLOURS = ["#1f77b4", "#e8710a", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#5f6b7a", "#b5b82a", "#17becf"];
  const CARD_COLOURS = { 1: "#fbfaf3", 2: "#cfe6fb", 3: "#fff0a0", 5: "#ffb4a6", 7: "#d8b9f4" };
  const ROW_LIMIT = 5;

  function bullheads(card, table) {
    if (card === 55) return 7;
    if (card % 11 === 0) return 5;
    if (card % 10 === 0) return 3;
    if (card % 5 === 0) return table === "classic" ? 2 : 1;
    return 1;
  }

  function el(tag, style, text) {
    const node = document.createElement(tag);
    if (style) Object.assign(node.style, style);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function seatColour(seat) {
    return SEAT_COLOURS[seat % SEAT_COLOURS.length];
  }

  function plural(n, word) {
    return `${n} ${word}${n === 1 ? "" : "s"}`;
  }

  // One card: its number, its bullheads as pips, its colour; `mark` outlines it in a seat's colour.
  function card(value, table, size, mark) {
    const heads = bullheads(value, table);
    const big = size === "big";
    const box = el("div", {
      width: big ? "46px" : "30px",
      height: big ? "62px" : "38px",
      borderRadius: big ? "7px" : "5px",
      background: CARD_COLOURS[heads],
      border: mark === undefined ? "1px solid #a9a9a0" : `3px solid ${seatColour(mark)}`,
      boxSizing: "border-box",
      display: "flex",
      flexDirection: "column",
      alignItems: "center",
      justifyContent: "center",
      fontWeight: "bold",
      fontSize: big ? "20px" : "13px",
      color: "#222",
      boxShadow: mark === undefined ? "none" : "0 0 6px rgba(0,0,0,0.35)",
      flex: "0 0 auto",
    });
    box.className = "card";
    if (big) box.append(el("div", { fontSize: "8px", letterSpacing: "1px", color: "#7a3b12", lineHeight: "9px" }, "●".repeat(heads)));
    box.append(el("div", {}, String(value)));
    box.title = `${value}: ${plural(heads, "bullhead")}`;
    return box;
  }

  // A face-down card: a hand's card a spectator may not see.
  function back() {
    const box = el("div", {
      width: "30px",
      height: "38px",
      borderRadius: "5px",
      border: "1px solid #5f6b7a",
      boxSizing: "border-box",
      background: "repeating-linear-gradient(45deg, #8fa3b8, #8fa3b8 4px, #a9bacb 4px, #a9bacb 8px)",
      flex: "0 0 auto",
    });
    box.className = "card back";
    box.title = "a card not shown";
    return box;
  }

  // Whether a reel is a spectator's: its hands are sizes, not cards.
  function isPublic(reel) {
    return reel.frames.some((f) => f.view.hands.some((hand) => typeof hand === "number"));
  }

  function slot(sixth) {
    const box = el("div", {
      width: "46px",
      height: "62px",
      borderRadius: "7px",
      border: sixth ? "2px dashed #d65a4a" : "1px dashed #c8c8c0",
      background: sixth ? "#fdecea" : "transparent",
      boxSizing: "border-box",
      fontSize: "10px",
      color: "#c0392b",
      display: "flex",
      alignItems: "center",
      justifyContent: "center",
      textAlign: "center",
      flex: "0 0 auto",
    }, sixth ? "6th takes" : "");
    return box;
  }

  function seatTag(seat, reel) {
    const tag = el("span", { color: seatColour(seat), fontWeight: "bold" }, `seat ${seat}`);
    const name = el("span", {}, ` ${reel.seats[seat] || ""}`);
    const both = el("span");
    both.append(tag, name);
    return both;
  }

  function rowsPanel(frame, reel) {
    const last = frame.last;
    const sameDeal = last && last.resolved && last.deal === frame.deal;
    const placedBy = {};
    const takes = [[], [], [], []];
    if (sameDeal) {
      for (const step of last.placed) {
        placedBy[step.card] = step.seat;
        if (step.took) takes[step.row].push(step);
      }
    }
    const panel = el("div", { display: "flex", flexDirection: "column", gap: "10px" });
    frame.rows.forEach((row, k) => {
      const line = el("div", { display: "flex", alignItems: "center", gap: "6px" });
      line.className = "row";
      const label = el("div", { width: "84px", flex: "0 0 auto", lineHeight: "1.2" });
      label.append(el("div", { fontWeight: "bold" }, `row ${k}`));
      label.append(el("div", { fontSize: "12px", color: "#666" }, plural(frame.costs[k], "bullhead")));
      line.append(label);
      for (let i = 0; i < ROW_LIMIT + 1; i++) {
        if (i < row.length) line.append(card(row[i], frame.table, "big", placedBy[row[i]]));
        else line.append(slot(i === ROW_LIMIT));
      }
      const notes = el("div", { fontSize: "12px", marginLeft: "6px", lineHeight: "1.3", width: "180px" });
      if (row.length === ROW_LIMIT) notes.append(el("div", { color: "#c0392b", fontWeight: "bold" }, "full: the next card here takes it"));
      for (const step of takes[k]) {
        const note = el("div");
        note.append(el("span", { color: "#c0392b" }, "taken by "));
        note.append(el("span", { color: seatColour(step.seat), fontWeight: "bold" }, reel.seats[step.seat] || `seat ${step.seat}`));
        note.append(el("span", { color: "#c0392b", fontWeight: "bold" }, `: ${plural(step.bullheads, "bullhead")}`));
        notes.append(note);
      }
      line.append(notes);
      panel.append(line);
    });
    return panel;
  }

  function revealPanel(frame, reel) {
    const panel = el("div", { minWidth: "300px", flex: "1 1 320px" });
    const last = frame.last;
    if (!last) {
      panel.append(el("div", { color: "#666" }, frame.over ? "no round was revealed" : "the cards are dealt; every seat chooses a card at once"));
      return panel;
    }
    const head = frame.take ? "revealed together: a low card" : last.resolved ? "revealed together, placed lowest first" : "revealed together";
    panel.append(el("div", { fontWeight: "bold", marginBottom: "4px" }, `Deal ${last.deal}, round ${last.round}: ${head}`));
    const cards = el("div", { display: "flex", flexWrap: "wrap", gap: "8px", marginBottom: "6px" });
    cards.className = "reveal";
    last.cards.forEach((value, seat) => {
      const cell = el("div", { display: "flex", flexDirection: "column", alignItems: "center", width: "64px" });
      const low = frame.take && frame.take.seat === seat;
      cell.append(card(value, frame.table, "big", seat));
      const name = el("div", { fontSize: "11px", textAlign: "center", overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap", width: "64px", color: seatColour(seat), fontWeight: low ? "bold" : "normal" }, reel.seats[seat] || `seat ${seat}`);
      cell.append(name);
      cards.append(cell);
    });
    panel.append(cards);
    if (frame.take) {
      const note = el("div", { background: "#fff3cd", border: "1px solid #e0c36a", padding: "4px 8px", borderRadius: "4px" });
      note.append(seatTag(frame.take.seat, reel));
      note.append(el("span", {}, ` played ${frame.take.card}, below every row: it must take a row of its choice`));
      panel.append(note);
    } else if (!last.resolved) {
      panel.append(el("div", { color: "#666" }, "not placed: the game stopped before this round was settled"));
    } else if (last.deal !== frame.deal) {
      panel.append(el("div", { color: "#1f4e79", fontWeight: "bold" }, `deal ${last.deal} is over: deal ${frame.deal} brings fresh hands and rows`));
    }
    const list = el("ol", { margin: "4px 0 0 0", paddingLeft: "22px", fontSize: "14px", lineHeight: "1.45" });
    for (const step of last.placed) {
      const item = el("li");
      item.append(el("b", {}, String(step.card)), el("span", {}, " "));
      item.append(seatTag(step.seat, reel));
      const taken = step.took ? `, ${step.chose ? "chose to take" : "6th card, takes"} ${step.took.join(" ")}: ${plural(step.bullheads, "bullhead")}` : "";
      item.append(el("span", { color: step.took ? "#c0392b" : "#333" }, ` → row ${step.row}${taken}`));
      list.append(item);
    }
    panel.append(list);
    return panel;
  }

  function seatsPanel(frame, reel, options) {
    const table = el("table", { borderCollapse: "collapse", marginTop: "12px", fontSize: "14px" });
    const head = el("tr");
    for (const name of ["seat", "bot", "bullheads", frame.over ? "rank" : "", "hand"]) head.append(el("th", { textAlign: "left", padding: "2px 10px 2px 0", borderBottom: "1px solid #ccc" }, name));
    table.append(head);
    const best = Math.min(...frame.totals);
    frame.hands.forEach((hand, seat) => {
      const line = el("tr");
      line.className = "seat";
      line.dataset.seat = String(seat);
      const acting = frame.to_move.includes(seat);
      const cell = (child, style) => {
        const td = el("td", Object.assign({ padding: "3px 10px 3px 0", borderBottom: "1px solid #eee", verticalAlign: "middle" }, style || {}));
        if (typeof child === "string") td.textContent = child;
        else if (child) td.append(child);
        return td;
      };
      line.append(cell(el("span", { color: seatColour(seat), fontWeight: "bold" }, String(seat))));
      const who = el("span", { fontWeight: acting ? "bold" : "normal" }, reel.seats[seat] || "");
      const bot = el("span");
      bot.append(who);
      if (frame.faults[seat]) bot.append(el("span", { color: "#c0392b", fontSize: "12px" }, ` fallback after ${frame.faults[seat]}`));
      else if (acting) bot.append(el("span", { color: "#666", fontSize: "12px" }, frame.phase === "take" ? " choosing a row" : " choosing"));
      line.append(cell(bot));
      line.append(cell(String(frame.totals[seat]), { fontWeight: "bold", fontSize: "16px", color: frame.totals[seat] === best ? "#1e8449" : "#222" }));
      line.append(cell(frame.over ? String(frame.end.ranks[seat]) : ""));
      const cards = el("div", { display: "flex", gap: "3px", flexWrap: "wrap" });
      if (typeof hand === "number") {
        for (let i = 0; i < hand; i++) cards.append(back());
        cards.title = plural(hand, "card");
        if (!hand) cards.append(el("span", { color: "#999" }, "no cards"));
      } else if (options.hands === "hidden") cards.append(el("span", { color: "#999" }, plural(hand.length, "card")));
      else for (const value of hand) cards.append(card(value, frame.table, "small"));
      line.append(cell(cards));
      table.append(line);
    });
    return table;
  }

  function status(frame, reel) {
    const deals = frame.target > 0 ? `until a total reaches ${frame.target}` : `of ${frame.deals}`;
    let text = `Deal ${frame.deal} ${deals} · round ${frame.round} of 10`;
    if (frame.over) {
      const why = frame.end.reason === "early_stop" ? "stopped early: fewer than two bots still playing" : "the game is complete";
      const order = frame.end.ranks.map((rank, seat) => [rank, seat]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      text += ` · over: ${why} · winner ${reel.seats[order[0][1]] || "seat " + order[0][1]} (${frame.totals[order[0][1]]} bullheads)`;
    } else if (frame.phase === "take") text += " · a row is being chosen";
    else text += " · every seat chooses a card at once";
    return el("p", { fontSize: "16px", margin: "0 0 10px 0", fontWeight: "bold" }, text);
  }

  return {
    options: [{ name: "hands", label: "hands", values: ["shown", "hidden"] }],
    render(element, frame, previous, reel, options) {
      const choice = document.getElementById("option-hands");
      if (choice && choice.parentElement) choice.parentElement.hidden = isPublic(reel);
      element.replaceChildren();
      element.append(status(frame, reel));
      const top = el("div", { display: "flex", gap: "28px", flexWrap: "wrap", alignItems: "flex-start" });
      top.append(rowsPanel(frame, reel), revealPanel(frame, reel));
      element.append(top, seatsPanel(frame, reel, options || {}));
    },
    moveText(move) {
      return move.hidden ? "(hidden from spectators)" : move.reply;
    },
  };
})();
