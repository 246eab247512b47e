// attack2048 replay viewer: the two halves side by side. In half 1 seat 0 attacks (places tiles)
// and seat 1 defends (slides); in half 2 the roles swap on a fresh board. The half being played is
// framed, with the attacker's last tile outlined red; the finished half keeps the board it ended
// on and its score, the score to beat; a half still to come is a faded empty board. Above: each
// bot's score as defender and who must act; below: the last ply, or how the match ended.
(function () {
  "use strict";
  const style = document.createElement("style");
  style.textContent = `
    .a2048 .scoreline { display: flex; gap: 2em; flex-wrap: wrap; font-size: 1.15em; margin-bottom: 0.8em; }
    .a2048 .scoreline b { font-size: 1.3em; }
    .a2048 .halves { display: flex; gap: 2.5em; flex-wrap: wrap; align-items: flex-start; }
    .a2048 .half { margin: 0; padding: 0.6em 0.8em; border: 2px solid #e2e2e2; border-radius: 8px; min-width: 24em; }
    .a2048 .half.live { border-color: #333; }
    .a2048 .half.done { background: #fafafa; }
    .a2048 .half.later .t2048 { opacity: 0.3; }
    .a2048 .half .t2048 { zoom: 1.3; }
    .a2048 .title { font-weight: bold; font-size: 1.1em; }
    .a2048 .roles { margin: 0.2em 0 0.5em; }
    .a2048 .role { display: inline-block; border-radius: 4px; padding: 0.05em 0.5em; margin-right: 0.3em;
      font-size: 0.85em; color: #fff; }
    .a2048 .role.attack { background: #c0392b; }
    .a2048 .role.defend { background: #2471a3; }
    .a2048 .acting { font-weight: bold; }
    .a2048 .foot { margin-top: 0.5em; }
    .a2048 .foot b { font-size: 1.2em; }
    .a2048 .quiet { color: #666; font-size: 0.9em; }
    .a2048 .what { font-size: 1.05em; margin-top: 0.9em; }
  `;
  document.head.append(style);

  const { el } = window.ReplayDom;
  const EMPTY = new Array(16).fill(0);
  const cellName = (index) => `(${index % 4},${Math.floor(index / 4)})`;

  // Cells holding a tile now that were empty before: the attacker's placement.
  function placed(board, before) {
    const marks = {};
    if (!before) return marks;
    board.forEach((value, index) => {
      if (value && !before[index]) marks[index] = "attack";
    });
    return marks;
  }

  function roleLine(half, frame, reel, live) {
    const attacker = half === 1 ? 0 : 1;
    const line = el("div", "roles");
    for (const [role, seat, word] of [["attack", attacker, "attacks"], ["defend", 1 - attacker, "defends"]]) {
      const who = el("span", live && frame.to_move.includes(seat) ? "acting" : "", `${reel.seats[seat]} (seat ${seat}) `);
      line.append(el("span", `role ${role}`, word), who);
    }
    return line;
  }

  function halfPanel(half, frame, previous, reel) {
    const record = frame.halves.find((h) => h.half === half);
    const current = frame.half === half;
    const live = frame.half === half && !frame.over;
    const panel = el("figure", "half");
    panel.dataset.half = String(half);
    let board = EMPTY;
    let marks = {};
    let state = "later";
    if (frame.half === half) {
      board = frame.board;
      state = live ? "live" : "done";
      if (frame.last && frame.last.kind === "place") marks = { [frame.last.cell]: "attack" };
    } else if (half === 1 && frame.first_half_board) {
      board = frame.first_half_board;
      state = "done";
      // The frame where half 1 just ended: its last placement is the tile that is new since the previous frame.
      if (previous && previous.half === 1) marks = placed(board, previous.board);
    }
    panel.classList.add(state);
    const title = el("div", "title", `half ${half}`);
    if (state === "live") title.textContent += " · playing";
    if (state === "later") title.textContent += frame.over ? " · not played" : " · roles swap";
    panel.append(title, roleLine(half, frame, reel, live), window.Tiles2048.board(board, 4, marks));
    const foot = el("div", "foot");
    const defender = half === 1 ? 1 : 0;
    if (record) {
      foot.append(el("span", "", `${reel.seats[defender]} scored `), el("b", "", String(record.score)));
      foot.append(el("span", "quiet", ` · ${record.plies} plies · ended ${record.end}`));
    } else if (current) {
      foot.append(el("span", "", `${reel.seats[defender]} has `), el("b", "", String(frame.score)), el("span", "", " points"));
      const cap = frame.cap ? ` (cap ${frame.cap})` : "";
      const counters = `2s placed ${frame.twos} · 4s placed ${frame.fours}` + (frame.credits !== undefined ? ` · 4-credits ${frame.credits}` : "");
      foot.append(el("span", "quiet", ` · ply ${frame.half_plies}${cap}`), el("div", "quiet", counters));
    } else {
      foot.append(el("span", "quiet", frame.over ? "a fault ended the match first" : `${reel.seats[defender]} will defend`));
    }
    panel.append(foot);
    return panel;
  }

  function story(frame, previous, reel) {
    if (frame.over) {
      const end = frame.end;
      const who = end.winner === null ? "a draw" : `${reel.seats[end.winner]} (seat ${end.winner}) wins`;
      return `over: ${who} · ${end.termination} · ${end.detail}`;
    }
    if (frame.half === 2 && frame.half_plies === 0 && frame.halves.length) {
      const h = frame.halves[0];
      return `half 1 over (${h.end} after ${h.plies} plies): ${reel.seats[1]} scored ${h.score} as defender. `
        + `Half 2: the roles swap, ${reel.seats[0]} must beat ${h.score}.`;
    }
    const last = frame.last;
    if (!last) return "the half begins: the attacker places the first tile";
    if (last.kind === "place") return `${reel.seats[last.seat]} placed a ${last.value} at ${cellName(last.cell)}`;
    return `${reel.seats[last.seat]} slid ${last.direction}: +${last.gain}`;
  }

  window.LeagueViewer = {
    render(element, frame, previous, reel) {
      element.replaceChildren();
      const root = el("div", "a2048");
      const scoreline = el("div", "scoreline");
      for (const seat of [0, 1]) {
        const item = el("span", "", `${reel.seats[seat]} (seat ${seat}) as defender: `);
        item.append(el("b", "", String(frame.scores[seat])));
        scoreline.append(item);
      }
      if (frame.to_move.length) {
        const seat = frame.to_move[0];
        scoreline.append(el("span", "quiet", `to act: ${reel.seats[seat]}, the ${frame.role === "attack" ? "attacker" : "defender"}`));
      }
      const halves = el("div", "halves");
      halves.append(halfPanel(1, frame, previous, reel), halfPanel(2, frame, previous, reel));
      root.append(scoreline, halves, el("div", "what status", story(frame, previous, reel)));
      element.append(root);
    },
  };
})();
