// 2048 boards for replay viewers (versus2048, pk2048, attack2048): a grid of tiles coloured by
// exponent. window.Tiles2048.board(cells, columns, marks, size) returns the grid element; marks maps
// a cell index to a CSS class ("attack", "spawn", "bomb", ...), drawn as an outline; size is a
// tile's side in px (52 unless given).
(function () {
  "use strict";
  const COLOURS = ["#cdc1b4", "#eee4da", "#ede0c8", "#f2b179", "#f59563", "#f67c5f", "#f65e3b", "#edcf72",
    "#edcc61", "#edc850", "#edc53f", "#edc22e", "#3c3a32"];
  const style = document.createElement("style");
  style.textContent = `
    .t2048 { display: inline-grid; gap: 4px; padding: 4px; background: #bbada0; border-radius: 6px; }
    .t2048 div { width: 52px; height: 52px; border-radius: 4px; display: flex; align-items: center;
      justify-content: center; font: bold 15px system-ui, sans-serif; color: #776e65; box-sizing: border-box; }
    .t2048 div.light { color: #f9f6f2; }
    .t2048 div.attack { outline: 3px solid #c0392b; outline-offset: -3px; }
    .t2048 div.spawn { outline: 3px dashed #2471a3; outline-offset: -3px; }
    .t2048 div.bomb { outline: 3px solid #111; outline-offset: -3px; }
    .t2048 div.blocked { background: repeating-linear-gradient(45deg, #8e8e8e, #8e8e8e 4px, #6e6e6e 4px, #6e6e6e 8px); }
  `;
  document.head.append(style);

  function label(exponent) {
    if (exponent <= 0) return "";
    return exponent < 17 ? String(2 ** exponent) : `2^${exponent}`;
  }

  window.Tiles2048 = {
    label,
    board(cells, columns, marks, size) {
      const side = size || 52;
      const grid = document.createElement("div");
      grid.className = "t2048";
      grid.style.gridTemplateColumns = `repeat(${columns}, ${side}px)`;
      cells.forEach((exponent, index) => {
        const tile = document.createElement("div");
        tile.textContent = label(exponent);
        tile.style.background = exponent < 0 ? "" : COLOURS[Math.min(exponent, COLOURS.length - 1)];
        if (exponent >= 3) tile.classList.add("light");
        if (exponent < 0) tile.classList.add("blocked");
        const mark = marks && marks[index];
        if (mark) tile.classList.add(mark);
        tile.dataset.cell = String(index);
        if (side !== 52) {
          tile.style.width = tile.style.height = `${side}px`;
          tile.style.fontSize = `${Math.max(9, Math.round(side * 0.29))}px`;
        }
        grid.append(tile);
      });
      return grid;
    },
  };
})();
