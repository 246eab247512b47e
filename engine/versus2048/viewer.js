// versus2048 replay viewer: both 5x5 boards side by side, the mover's framed, and the tiles an
// attack (or a pre-game placement) just put on a board outlined in red. In a public frame (a
// spectator's, engine/versus2048/view.py public_view) a board not shown is null: drawn empty and greyed,
// its caption saying why.
window.LeagueViewer = {
  render(element, frame, previous, reel) {
    element.replaceChildren();
    const mover = previous && previous.to_move.length ? previous.to_move[0] : null;
    const row = document.createElement("div");
    row.style.display = "flex";
    row.style.gap = "2em";
    row.style.flexWrap = "wrap";
    frame.boards.forEach((shown, seat) => {
      const marks = {};
      const cells = shown || new Array(frame.size * frame.size).fill(0);
      const before = previous && previous.boards[seat];
      if (shown && before && mover !== null && seat !== mover) {
        cells.forEach((value, index) => {
          if (value && !before[index]) marks[index] = "attack";
        });
      }
      const box = document.createElement("figure");
      box.style.margin = "0";
      const caption = document.createElement("figcaption");
      const acting = frame.to_move.includes(seat) ? " · to move" : "";
      const unseen = shown ? "" : " · not shown: its 2 is placed where this seat is not told yet";
      caption.textContent = `seat ${seat}: ${reel.seats[seat]} · score ${frame.scores[seat]} · ${frame.used_ms[seat]} ms used${acting}${unseen}`;
      caption.style.marginBottom = "0.3em";
      caption.style.fontWeight = frame.to_move.includes(seat) ? "bold" : "normal";
      // Both boards side by side on the page, up to 10 x 10 and beyond.
      const side = Math.min(52, Math.floor(500 / frame.size) - 4);
      const grid = window.Tiles2048.board(cells, frame.size, marks, side);
      if (!shown) grid.style.opacity = "0.45";
      box.append(caption, grid);
      box.dataset.seat = String(seat);
      row.append(box);
    });
    const status = document.createElement("p");
    status.className = "status";
    status.textContent = frame.phase === "pregame" ? "pre-game: each seat puts a 2 on the other's board"
      : frame.over ? `over: ${frame.end.detail} (${frame.end.reason})` : `turn ${frame.turn} of ${frame.turns}`;
    element.append(row, status);
  },
  moveText(move) {
    return move.hidden ? "(hidden from spectators)" : move.reply;
  },
};
