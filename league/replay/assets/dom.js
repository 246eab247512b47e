// Small DOM helpers every replay viewer may use (loaded before the game's viewer.js).
// el(tag, className, text): an HTML element; svg(tag, attrs, parent): an SVG element, appended to parent if given.
// Both set text with textContent only: what bots printed never becomes markup.
(function () {
  "use strict";
  const SVG = "http://www.w3.org/2000/svg";
  window.ReplayDom = {
    el(tag, className, text) {
      const node = document.createElement(tag);
      if (className) node.className = className;
      if (text !== undefined) node.textContent = text;
      return node;
    },
    svg(tag, attrs, parent) {
      const node = document.createElementNS(SVG, tag);
      for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
      if (parent) parent.append(node);
      return node;
    },
  };
})();
