// @ts-check
// The drawing of a game whose folder declares none: its observation's text, and a button per
// legal action. Every game's own drawing (src/tussle/games/<game>/web.js) exports the same draw().
import { html, pointable } from "/web/board.js";

/**
 * @param {import("/web/types.js").View} view
 * @param {import("/web/types.js").UI} ui
 * @returns {HTMLElement}
 */
export function draw(view, ui) {
  const box = html("div", { class: "text-board" }, html("pre", { text: view.text }));
  if (view.legal) {
    const list = html("div", { class: "choices", "aria-label": "legal actions" });
    for (const action of view.legal.slice(0, 300)) {
      list.append(pointable(html("span", { class: "chip", text: action }), "target", action, () => ui.act(action)));
    }
    box.append(list);
  }
  return box;
}
