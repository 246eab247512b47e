// pk2048 replay viewer: the one shared 4x4 board, big, with the last operation marked (the spawn
// dashed blue, an interference's 2 outlined red; a bomb is shown on a small board of the position
// before it), and beside it the best of three (games won, each finished game's winner and how),
// each seat's score in this game and the special operations it has left. Right after a game
// ends, its final board and end are shown before the next game's fresh board takes over.
(function () {
  "use strict";
  const DIRECTIONS = { 1: "up", 2: "right", 3: "down", 4: "left" };
  const style = document.createElement("style");
  style.textContent = `
    .pk { display: flex; gap: 2.5em; flex-wrap: wrap; align-items: flex-start; }
    .pk .main .t2048 { zoom: 1.45; }
    .pk .caption { font-weight: bold; margin-bottom: 0.4em; }
    .pk .legend { color: #666; font-size: 0.85em; margin-top: 0.5em; }
    .pk .side { display: flex; flex-direction: column; gap: 0.8em; min-width: 22em; max-width: 34em; }
    .pk .match { font-size: 1.15em; }
    .pk .games { display: flex; gap: 0.4em; flex-wrap: wrap; margin-top: 0.3em; }
    .pk .chip { border: 1px solid #bbb; border-radius: 1em; padding: 0.1em 0.7em; font-size: 0.85em; background: #fff; }
    .pk .chip.now { border-color: #333; font-weight: bold; }
    .pk .seat { border: 2px solid #ddd; border-radius: 8px; padding: 0.5em 0.8em; background: #fafafa; }
    .pk .seat.moving { border-color: #333; background: #fff; }
    .pk .seat.won { border-color: #2e7d32; }
    .pk .seat .name { font-weight: bold; }
    .pk .seat .score { font-size: 1.6em; font-weight: bold; margin: 0.1em 0; }
    .pk .badge { display: inline-block; border-radius: 4px; padding: 0.05em 0.5em; margin-right: 0.4em;
      font-size: 0.85em; color: #fff; }
    .pk .badge.interference { background: #c0392b; }
    .pk .badge.bomb { background: #222; }
    .pk .badge.used { background: #ccc; color: #777; text-decoration: line-through; }
    .pk .tag { font-size: 0.85em; color: #555; margin-left: 0.4em; }
    .pk .what { font-size: 1.05em; }
    .pk .ended { border-left: 4px solid #2e7d32; padding: 0.3em 0.8em; background: #f1f8f1; }
    .pk .before .t2048 { zoom: 0.7; }
  `;
  document.head.append(style);

  const { el } = window.ReplayDom;

  function operation(answer) {
    const [interference, bomb, direction] = answer;
    if (interference) return `interference: a 2 on cell ${interference}`;
    const slide = DIRECTIONS[direction] || String(direction);
    return bomb ? `bomb on cell ${bomb}, then slide ${slide}` : `slide ${slide}`;
  }

  function seatCard(frame, seat, reel, scores, ended) {
    const card = el("div", "seat");
    card.dataset.seat = String(seat);
    if (frame.to_move.includes(seat)) card.classList.add("moving");
    if (ended && ended.winner === seat) card.classList.add("won");
    const name = el("div");
    name.append(el("span", "name", `seat ${seat}: ${reel.seats[seat]}`));
    if (ended) {
      if (ended.winner === seat) name.append(el("span", "tag", `won game ${ended.game}`));
    } else {
      if (frame.first === seat) name.append(el("span", "tag", "first in this game"));
      if (frame.to_move.includes(seat)) name.append(el("span", "tag", "· to move"));
    }
    card.append(name, el("div", "score", `${scores[seat]} points`));
    if (!ended) {
      const specials = el("div");
      for (const [kind, used] of [["interference", frame.interference_used[seat]], ["bomb", frame.bomb_used[seat]]]) {
        const badge = el("span", `badge ${kind}${used ? " used" : ""}`, kind);
        badge.title = used ? `${kind} used in this game` : `${kind} still available`;
        specials.append(badge);
      }
      card.append(specials);
    }
    return card;
  }

  function gameChips(frame, reel) {
    const box = el("div", "games");
    for (let game = 1; game <= frame.games; game++) {
      const result = frame.results[game - 1];
      let text = `game ${game}`;
      if (result) {
        const [winner, reason, decidedBy] = result;
        text += `: ${reel.seats[winner]} (${decidedBy === "fault" ? `fault, ${reason}` : reason.toLowerCase().replaceAll("_", " ")})`;
      } else if (game === frame.game && !frame.over) text += ": playing";
      else continue;
      box.append(el("span", `chip${game === frame.game && !result ? " now" : ""}`, text));
    }
    return box;
  }

  window.LeagueViewer = {
    render(element, frame, previous, reel) {
      element.replaceChildren();
      const root = el("div", "pk");
      const ended = frame.ended || null;
      const main = el("figure", "main");
      main.style.margin = "0";
      const marks = {};
      let board = frame.board;
      let caption = `game ${frame.game} of ${frame.games}: the shared board`;
      if (ended) {
        board = ended.board;
        caption = `game ${ended.game}: final board`;
      } else if (frame.last) {
        const [interference] = frame.last.answer;
        const [spawnCell] = frame.last.spawn;
        if (interference) marks[interference - 1] = "attack";
        if (spawnCell) marks[spawnCell - 1] = "spawn";
      }
      main.append(el("div", "caption", caption), window.Tiles2048.board(board, 4, marks));
      main.append(el("div", "legend", "dashed blue: the tile that just spawned · red: an interference's 2"));
      root.append(main);

      const side = el("div", "side");
      const wins = frame.wins;
      const match = el("div", "match");
      match.append(el("div", "", `best of ${frame.games} · games won ${wins[0]} : ${wins[1]}`), gameChips(frame, reel));
      side.append(match);
      const scores = ended ? ended.scores : frame.scores;
      side.append(seatCard(frame, 0, reel, scores, ended), seatCard(frame, 1, reel, scores, ended));

      const what = el("div", "what");
      what.className = "what status";
      if (ended) {
        const box = el("div", "ended");
        box.append(el("div", "", `game ${ended.game} to ${reel.seats[ended.winner]} (seat ${ended.winner}) · ${ended.reason} · decided by ${ended.decided_by}`));
        box.append(el("div", "legend", ended.detail));
        side.append(box);
        const champion = wins[0] > wins[1] ? 0 : 1;
        what.textContent = frame.over ? `the match is over: ${reel.seats[champion]} wins it ${wins[champion]}-${wins[1 - champion]}` : `next: game ${frame.game}, fresh processes, seat ${frame.first} (${reel.seats[frame.first]}) moves first`;
      } else if (frame.last) {
        const { seat, answer, spawn } = frame.last;
        const gained = previous && !previous.ended && previous.game === frame.game ? frame.scores[seat] - previous.scores[seat] : 0;
        const points = gained ? `, +${gained}` : "";
        const spawned = spawn[0] ? `; a ${spawn[1]} spawned on cell ${spawn[0]}` : "; no spawn after an interference";
        what.textContent = `${reel.seats[seat]} (seat ${seat}): ${operation(answer)}${points}${spawned}`;
        if (answer[1] && previous && !previous.ended && previous.game === frame.game) {
          const before = el("figure", "before");
          before.style.margin = "0";
          before.append(el("div", "legend", `before the bomb: cell ${answer[1]} (black) was emptied`));
          before.append(window.Tiles2048.board(previous.board, 4, { [answer[1] - 1]: "bomb" }));
          side.append(what, before);
        }
      } else {
        what.textContent = `game ${frame.game} starts: seat ${frame.first} (${reel.seats[frame.first]}) moves first`;
      }
      if (!what.parentNode) side.append(what);
      root.append(side);
      element.append(root);
    },
  };
})();
