// versus2048 replay viewer: both 5x5 boards side by side, the mover's framed, and the tiles an
// attack (or a pre-game placement) just put on a board outlined in red.
window.LeagueViewer = {
  render(element, frame, previous, reel) {
    element.replaceChildren();
    const mover = previous && previous.to_move.length ? previous.to_move[0] : null;
    const row = document.createElement("div");
    row.style.display = "flex";
    row.style.gap = "2em";
    row.style.flexWrap = "wrap";
    frame.boards.forEach((cells, seat) => {
      const marks = {};
      if (previous && mover !== null && seat !== mover) {
        cells.forEach((value, index) => {
          if (value && !previous.boards[seat][index]) marks[index] = "attack";
        });
      }
      const box = document.createElement("figure");
      box.style.margin = "0";
      const caption = document.createElement("figcaption");
      const acting = frame.to_move.includes(seat) ? " · to move" : "";
      caption.textContent = `seat ${seat}: ${reel.seats[seat]} · score ${frame.scores[seat]} · ${frame.used_ms[seat]} ms used${acting}`;
      caption.style.marginBottom = "0.3em";
      caption.style.fontWeight = frame.to_move.includes(seat) ? "bold" : "normal";
      // Both boards side by side on the page, up to 10 x 10 and beyond.
      const side = Math.min(52, Math.floor(500 / frame.size) - 4);
      box.append(caption, window.Tiles2048.board(cells, frame.size, marks, side));
      box.dataset.seat = String(seat);
      row.append(box);
    });
    const status = document.createElement("p");
    status.className = "status";
    status.textContent = frame.phase === "pregame" ? "pre-game: each seat puts a 2 on the other's board"
      : frame.over ? `over: ${frame.end.detail} (${frame.end.reason})` : `turn ${frame.turn} of ${frame.turns}`;
    element.append(row, status);
  },
};
