// synthetic replay viewer: each seat's stated strength (Elo and style), seat 0's chances as one bar
// (win, draw, loss), and the outcome the model drew. In a public frame (a spectator's,
// engine/synthetic/view.py public_view) a strength stated in secret is shown as stated, not its value.
window.LeagueViewer = {
  render(element, frame, previous, reel) {
    element.replaceChildren();
    const stated = (seat) => {
      const elo = frame.elos[seat];
      if (frame.hidden && frame.hidden[seat]) return "stated (shown when the game is over)";
      if (elo === null) return "not stated yet";
      return String(elo) + (frame.styles[seat] ? ` ${frame.styles[seat]}` : "");
    };
    const seats = document.createElement("div");
    seats.style.display = "flex";
    seats.style.gap = "2em";
    seats.style.flexWrap = "wrap";
    [0, 1].forEach((seat) => {
      const box = document.createElement("figure");
      box.style.margin = "0";
      box.dataset.seat = String(seat);
      const caption = document.createElement("figcaption");
      caption.textContent = `seat ${seat}: ${reel.seats[seat]}${frame.to_move.includes(seat) ? " · to move" : ""}`;
      caption.style.fontWeight = frame.to_move.includes(seat) ? "bold" : "normal";
      const value = document.createElement("div");
      value.style.fontSize = "1.6em";
      value.textContent = stated(seat);
      box.append(caption, value);
      seats.append(box);
    });
    element.append(seats);
    if (frame.probabilities) {
      const bar = document.createElement("div");
      bar.style.display = "flex";
      bar.style.width = "420px";
      bar.style.height = "24px";
      bar.style.margin = "0.8em 0";
      const parts = [["win", "#2ca02c"], ["draw", "#b0b0b0"], ["loss", "#d62728"]];
      parts.forEach(([name, colour], index) => {
        const share = frame.probabilities[index];
        const part = document.createElement("div");
        part.style.width = `${(100 * share).toFixed(2)}%`;
        part.style.background = colour;
        part.title = `seat 0 ${name}: ${share.toFixed(3)}`;
        bar.append(part);
      });
      const [win, draw, loss] = frame.probabilities;
      const chances = document.createElement("p");
      chances.textContent = `d = ${Number(frame.elo_difference.toFixed(6))} Elo · seat 0 wins ${win.toFixed(3)}, draws ${draw.toFixed(3)}, loses ${loss.toFixed(3)}`;
      element.append(bar, chances);
    }
    const status = document.createElement("p");
    status.className = "status";
    status.textContent = frame.over ? `over: ${frame.end.detail} (${frame.end.reason})` : "waiting for the strengths";
    element.append(status);
  },
  moveText(move) {
    return move.hidden ? "(hidden from spectators)" : move.reply;
  },
};
