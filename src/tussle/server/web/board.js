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
 * A drawing that must not shrink below `minWidth` pixels, so that what it holds to point at stays
 * large enough for a finger (a big board on a phone): on a narrower screen it scrolls sideways
 * inside this box (and the page pinch-zooms as ever); the page keeps where it was scrolled.
 * @param {SVGSVGElement} drawing  from canvas()
 * @param {number} minWidth
 * @returns {HTMLDivElement}
 */
export function scrollable(drawing, minWidth) {
  const width = Math.round(minWidth);
  const box = drawing.viewBox.baseVal;
  const height = box && box.width ? Math.ceil((width * box.height) / box.width) : width;
  // Never capped shorter than that width makes it: a cap would shrink the drawing inside its box.
  drawing.setAttribute("style", `min-width: ${width}px; max-height: max(82vh, ${height}px)`);
  return html("div", { class: "board-scroll" }, drawing);
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
  steer(container);
  const focused = focusOnBoard(container);
  const scrolled = [...container.querySelectorAll(".board-scroll")].map((box) => [box.scrollLeft, box.scrollTop]);
  try {
    container.replaceChildren(drawing.draw(view, ui));
  } catch (error) {
    console.error(error);
    container.replaceChildren(html("pre", { text: view.text }));
  }
  // A board larger than the screen stays where the player scrolled it; at first, its middle shows.
  container.querySelectorAll(".board-scroll").forEach((box, i) => {
    const [left, top] = scrolled[i] || [(box.scrollWidth - box.clientWidth) / 2, 0];
    box.scrollLeft = left;
    box.scrollTop = top;
  });
  rove(container, focused);
  // The keyboard's place survives the new drawing: on the same thing if it is still there to
  // point at, else on the board itself, whose arrow keys lead back in (never the page's start).
  if (focused !== null) {
    const same = pointables(container).find((item) => itemName(item) === focused) || sameControl(container, focused);
    /** @type {HTMLElement | SVGElement} */ (same || container).focus({ preventScroll: true });
  }
}

// A board's own controls (a program editor's buttons): known by their kind and place among them.
const CONTROLS = "button, input, select, textarea, [tabindex]";

/**
 * @param {Element} container
 * @param {Element} control
 * @returns {string}
 */
function controlName(container, control) {
  const index = [...container.querySelectorAll(CONTROLS)].indexOf(control);
  return `control:${control.tagName}:${index}`;
}

/**
 * The control of the same kind at the same place in the new drawing, if there is one.
 * @param {Element} container
 * @param {string} name
 * @returns {Element | undefined}
 */
function sameControl(container, name) {
  const match = /^control:([^:]+):(\d+)$/.exec(name);
  if (!match) return undefined;
  const control = container.querySelectorAll(CONTROLS)[Number(match[2])];
  return control && control.tagName === match[1] && !control.matches(":disabled") && control.getClientRects().length ? control : undefined;
}

// --- the keyboard on a board: one tab stop, arrow keys between the things to point at -------------

const POINTABLE = ".pick, .target";
/** @type {string | null} what was last focused on a board (or in its menu), while the focus is there */
let boardFocus = null;

/**
 * What a thing to point at is known by across drawings: its kind and label.
 * @param {Element} item
 * @returns {string}
 */
function itemName(item) {
  return `${item.classList.contains("pick") ? "pick" : "target"}:${item.getAttribute("aria-label") || ""}`;
}

/**
 * The things to point at on a board, as shown (a hidden one is skipped).
 * @param {Element} container
 * @returns {HTMLElement[]}
 */
function pointables(container) {
  return /** @type {HTMLElement[]} */ ([...container.querySelectorAll(POINTABLE)]).filter((item) => item.getClientRects().length > 0);
}

/**
 * Where the keyboard was on the board before it is drawn again: the name of the thing focused
 * (`""` for the board itself), or null when the focus is elsewhere. A move chosen from a menu
 * leaves the focus nowhere (the menu is gone): the board had it last, so it counts.
 * @param {Element} container
 * @returns {string | null}
 */
function focusOnBoard(container) {
  const active = document.activeElement;
  if (active && active !== document.body && container.contains(active)) {
    return active.matches(POINTABLE) ? itemName(active) : active === container ? "" : controlName(container, active);
  }
  if ((!active || active === document.body) && boardFocus !== null) return boardFocus;
  return null;
}

/**
 * One tab stop for the whole board (a roving tabindex): the thing focused last, else the one
 * named, else the first in reading order; every other thing to point at is reached by arrow keys.
 * @param {Element} container
 * @param {string | null} [wanted]
 */
function rove(container, wanted) {
  const items = pointables(container);
  if (!items.length) return;
  const active = document.activeElement;
  const current = items.find((item) => item === active)
    || items.find((item) => item.getAttribute("tabindex") === "0" && item.dataset.rove === "current")
    || (wanted ? items.find((item) => itemName(item) === wanted) : undefined)
    || readingOrder(items)[0];
  for (const item of container.querySelectorAll(POINTABLE)) {
    const here = item === current;
    item.setAttribute("tabindex", here ? "0" : "-1");
    if (here) /** @type {HTMLElement} */ (item).dataset.rove = "current";
    else delete /** @type {HTMLElement} */ (item).dataset.rove;
  }
}

/**
 * @param {HTMLElement[]} items
 * @returns {HTMLElement[]}  top to bottom, then left to right
 */
function readingOrder(items) {
  const at = new Map(items.map((item) => [item, item.getBoundingClientRect()]));
  return items.slice().sort((a, b) => {
    const ra = /** @type {DOMRect} */ (at.get(a));
    const rb = /** @type {DOMRect} */ (at.get(b));
    return Math.abs(ra.top - rb.top) > Math.min(ra.height, rb.height) / 2 ? ra.top - rb.top : ra.left - rb.left;
  });
}

/** @type {Record<string, [number, number]>} */
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * The nearest thing to point at from `from` in the arrow's direction, as they are on the screen
 * (whatever the drawing: a board turned round, cards in a row), or null when there is none.
 * @param {HTMLElement} from
 * @param {HTMLElement[]} items
 * @param {[number, number]} direction
 * @returns {HTMLElement | null}
 */
function nextInDirection(from, items, [dx, dy]) {
  const centre = (/** @type {Element} */ element) => {
    const r = element.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  };
  const [fx, fy] = centre(from);
  let best = null;
  let bestScore = Infinity;
  for (const item of items) {
    if (item === from) continue;
    const [x, y] = centre(item);
    const along = (x - fx) * dx + (y - fy) * dy;
    const across = Math.abs((x - fx) * dy) + Math.abs((y - fy) * dx);
    if (along < 1) continue;
    // Straight ahead is nearer than aside: a step to the right goes along the row first.
    const score = along + 2.5 * across;
    if (score < bestScore) { best = item; bestScore = score; }
  }
  return best;
}

/**
 * Give a board its keyboard once: arrow keys between the things to point at, the tab stop kept
 * on the one last focused, also when a drawing adds some (the targets of a piece just picked).
 * @param {Element} container
 */
function steer(container) {
  if (!(container instanceof HTMLElement) || container.dataset.steered) return;
  container.dataset.steered = "1";
  container.setAttribute("tabindex", "-1");
  container.addEventListener("keydown", (event) => {
    const direction = ARROWS[event.key];
    if (!direction || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const from = /** @type {Element} */ (event.target);
    const items = pointables(container);
    if (!items.length) return;  // nothing to point at (a replay): the key is the page's
    let next = null;
    if (from === container) next = items.find((item) => item.dataset.rove === "current") || readingOrder(items)[0] || null;
    else if (from instanceof HTMLElement || from instanceof SVGElement) {
      if (!from.matches(POINTABLE)) return;
      next = nextInDirection(/** @type {HTMLElement} */ (from), items, direction);
    }
    event.preventDefault();
    if (next) next.focus();
  });
  container.addEventListener("focusin", (event) => {
    if (event.target instanceof Element && event.target.matches(POINTABLE)) rove(container);
  });
  new MutationObserver(() => rove(container)).observe(container, { childList: true, subtree: true });
}

document.addEventListener("focusin", (event) => {
  const target = event.target instanceof Element ? event.target : null;
  const board = target && target.closest("[data-steered]");
  if (board && target) boardFocus = target.matches(POINTABLE) ? itemName(target) : target === board ? "" : controlName(board, target);
  else if (!(target && target.closest(".menu"))) boardFocus = null;
});

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
/** @type {Element | null} what the open menu was opened from */
let menuAnchor = null;

/** Close the menu of actions, if one is open; the keyboard goes back to what opened it. */
export function closeMenu() {
  if (!openMenu) return;
  const hadFocus = openMenu.contains(document.activeElement);
  openMenu.remove();
  openMenu = null;
  if (hadFocus && (menuAnchor instanceof HTMLElement || menuAnchor instanceof SVGElement) && menuAnchor.isConnected) {
    menuAnchor.focus({ preventScroll: true });
  }
  menuAnchor = null;
}

/**
 * Show `box` as the open menu, under `anchor` and inside the screen's width (a phone's too), or
 * where its own class puts it (a fixed box stays where it is); its first button takes the focus,
 * the arrow keys move between its buttons and Escape closes it.
 * @param {Element} anchor
 * @param {HTMLElement} box
 * @returns {HTMLElement}
 */
export function showMenu(anchor, box) {
  closeMenu();
  box.classList.add("menu");
  box.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { closeMenu(); return; }
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (!step) return;
    const buttons = [...box.querySelectorAll("button")];
    const active = /** @type {HTMLButtonElement} */ (document.activeElement);
    const here = buttons.indexOf(active);
    event.preventDefault();
    // The arrow's way on the screen (up on a compass is its top button), else the next in turn.
    const next = here >= 0 ? nextInDirection(active, buttons, ARROWS[event.key]) : null;
    (next || buttons[(here + step + buttons.length) % buttons.length]).focus();
  });
  document.body.append(box);
  if (getComputedStyle(box).position === "absolute") {
    const rect = anchor.getBoundingClientRect();
    const room = document.documentElement.clientWidth - box.offsetWidth - 4;
    box.style.left = `${Math.max(4, Math.min(rect.left, room)) + window.scrollX}px`;
    box.style.top = `${rect.bottom + window.scrollY + 4}px`;
  }
  openMenu = box;
  menuAnchor = anchor;
  box.querySelector("button")?.focus({ preventScroll: getComputedStyle(box).position === "fixed" });
  return box;
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
  const box = html("div", { class: "menu", role: "menu", "aria-label": "choose one" });
  for (const item of items) box.append(menuButton(item, choose));
  box.append(html("button", { type: "button", class: "cancel", text: "cancel", onclick: closeMenu }));
  return showMenu(anchor, box);
}

/**
 * A menu's button for one action (what `menu` holds, and what a game's own menu may hold).
 * @template A
 * @param {MenuItem<A>} item
 * @param {(action: A) => void} choose
 * @param {Attributes} [attrs]  more attributes (a class, a title)
 * @returns {HTMLButtonElement}
 */
export function menuButton(item, choose, attrs) {
  return html("button", {
    type: "button", role: "menuitem", ...attrs, "data-action": actionName(item.action), text: item.label,
    onclick: () => { closeMenu(); choose(item.action); },
  });
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
