// @ts-check
// What every game's drawing shares: building SVG and HTML, things to point at, and the small menu
// that chooses between actions with the same target. A game's module (src/tussle/games/<game>/web.js)
// imports these; docs/web.md describes the contract.

/** @typedef {import("/web/types.js").View} View */
/** @typedef {import("/web/types.js").UI} UI */
/** @typedef {import("/web/types.js").Drawing} Drawing */
/** @typedef {import("/web/types.js").Move} Move */

/**
 * An attribute's value: a string or a number is set as text, `true` as present, and null, undefined
 * or false leave it out; a function under an `on...` key listens to that event; `text` sets the text.
 * @typedef {string | number | boolean | null | undefined | ((event: Event) => unknown)} Attribute
 */
/** @typedef {{[name: string]: Attribute}} Attributes */
/**
 * A child: an element, text (a number is written as text), or nothing (null, undefined, false), or
 * lists of these, flattened.
 * @typedef {Node | string | number | null | undefined | false | ChildList} Child
 */
/** @typedef {Child[]} ChildList */

/**
 * An action of a menu: what it says, and the action played when it is chosen.
 * @template [A=Move | string]
 * @typedef {{label: string, action: A}} MenuItem
 */

const SVG = "http://www.w3.org/2000/svg";

/**
 * @template {Element} E
 * @param {E} element
 * @param {Attributes | null | undefined} attrs
 * @param {Child[]} children
 * @returns {E}
 */
function build(element, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") element.textContent = String(value);
    else if (key.startsWith("on") && typeof value === "function") element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of /** @type {unknown[]} */ (children).flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/**
 * An SVG element: svg("rect", {x: 0, y: 0, width: 10, height: 10, class: "square"}, ...children).
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Attributes | null} [attrs]
 * @param {...Child} children
 * @returns {SVGElementTagNameMap[K]}
 */
export function svg(tag, attrs, ...children) {
  return build(document.createElementNS(SVG, tag), attrs, children);
}

/**
 * An HTML element: html("button", {type: "button", onclick: f, text: "Go"}).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attributes | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function html(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/**
 * A drawing that fills the width it is given and keeps its proportions (laptop or phone). It is a
 * labelled group, not an image, since it may hold things to point at that a screen reader must reach.
 * @param {number} width
 * @param {number} height
 * @param {string} label  what a screen reader says of it
 * @param {...Child} children
 * @returns {SVGSVGElement}
 */
export function canvas(width, height, label, ...children) {
  return svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "drawing", role: "group", "aria-label": label }, ...children);
}

/**
 * Make an element something to point at: a click, or Enter or Space when it has the focus, calls
 * `then`. `kind` is "pick" (a piece whose moves it shows) or "target" (where a picked piece may go);
 * the browser tests and the stylesheet find them by that class.
 * @template {Element} E
 * @param {E} element
 * @param {"pick" | "target"} kind
 * @param {string} label
 * @param {(event: Event) => void} then
 * @returns {E}
 */
export function pointable(element, kind, label, then) {
  element.classList.add(kind);
  element.setAttribute("tabindex", "0");
  element.setAttribute("role", "button");
  element.setAttribute("aria-label", label);
  element.setAttribute(`data-${kind}`, label);
  element.addEventListener("click", (event) => { event.stopPropagation(); then(event); });
  element.addEventListener("keydown", (event) => {
    const key = /** @type {KeyboardEvent} */ (event).key;
    if (key === "Enter" || key === " ") { event.preventDefault(); then(event); }
  });
  return element;
}

/**
 * Put the game's drawing of `view` into `container`; should the drawing fail, the observation's
 * text stands in, so that the page stays playable (the error goes to the console).
 * @param {Element} container
 * @param {Drawing} drawing
 * @param {View} view
 * @param {UI} ui
 */
export function drawInto(container, drawing, view, ui) {
  try {
    container.replaceChildren(drawing.draw(view, ui));
  } catch (error) {
    console.error(error);
    container.replaceChildren(html("pre", { text: view.text }));
  }
}

/**
 * The page's element of that id, checked to be a `type` (an HTMLElement unless told): the pages'
 * own elements, so that one missing, or of another kind, is the page's bug, named at once.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {{new (): T, name: string}} [type]
 * @returns {T}
 */
export function byId(id, type) {
  const element = document.getElementById(id);
  if (!(element instanceof (type || HTMLElement))) throw new Error(`the page has no ${type ? type.name : "element"} #${id}`);
  return /** @type {T} */ (element);
}

/** @type {HTMLElement | null} */
let openMenu = null;

/** Close the menu of actions, if one is open. */
export function closeMenu() {
  if (openMenu) { openMenu.remove(); openMenu = null; }
}

/**
 * Several actions share the target just pointed at: a small menu chooses one. `items` are
 * {label, action}; `choose(action)` is called with the chosen one. The first item takes the focus,
 * so the keyboard works too, and Escape closes the menu.
 * @template A
 * @param {Element} anchor
 * @param {MenuItem<A>[]} items
 * @param {(action: A) => void} choose
 * @returns {HTMLElement}
 */
export function menu(anchor, items, choose) {
  closeMenu();
  const box = html("div", { class: "menu", role: "menu", "aria-label": "choose one" });
  for (const item of items) {
    box.append(html("button", {
      type: "button", role: "menuitem", "data-action": actionName(item.action), text: item.label,
      onclick: () => { closeMenu(); choose(item.action); },
    }));
  }
  box.append(html("button", { type: "button", class: "cancel", text: "cancel", onclick: closeMenu }));
  box.addEventListener("keydown", (event) => { if (event.key === "Escape") closeMenu(); });
  const rect = anchor.getBoundingClientRect();
  box.style.left = `${Math.max(4, rect.left + window.scrollX)}px`;
  box.style.top = `${rect.bottom + window.scrollY + 4}px`;
  document.body.append(box);
  openMenu = box;
  box.querySelector("button")?.focus();
  return box;
}

/**
 * What a menu's button names its action by (its `data-action`): the notation, or the structured form
 * as JSON, which an attribute holds whole (a bare object would read "[object Object]").
 * @param {unknown} action
 * @returns {string}
 */
function actionName(action) {
  return typeof action === "string" ? action : JSON.stringify(action);
}

/**
 * Choose among actions: at once when there is one, with a menu when there are several.
 * @template A
 * @param {Element} anchor
 * @param {MenuItem<A>[]} items
 * @param {(action: A) => void} choose
 */
export function chooseAmong(anchor, items, choose) {
  if (items.length === 1) choose(items[0].action);
  else if (items.length > 1) menu(anchor, items, choose);
}

/**
 * A square's name, "a1" to "t20": [file index, rank index], or null for anything else.
 * @param {string} name
 * @returns {[number, number] | null}
 */
export function parseSquare(name) {
  const match = /^([a-z])(\d{1,2})$/.exec(name);
  return match ? [match[1].charCodeAt(0) - 97, Number(match[2]) - 1] : null;
}

/**
 * The name of a square from its indices: squareName(2, 6) is "c7".
 * @param {number} file
 * @param {number} rank
 * @returns {string}
 */
export function squareName(file, rank) {
  return String.fromCharCode(97 + file) + String(rank + 1);
}

/**
 * Wait `ms` milliseconds (for animations); resolves at once when the user prefers less motion.
 * @param {number} ms
 * @returns {Promise<void>}
 */
export function pause(ms) {
  const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  return new Promise((resolve) => setTimeout(resolve, reduced ? 0 : ms));
}
