// What every game's drawing shares: building SVG and HTML, things to point at, and the small menu
// that chooses between actions with the same target. A game's module (src/tussle/games/<game>/web.js)
// imports these; docs/web.md describes the contract.

const SVG = "http://www.w3.org/2000/svg";

function build(element, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") element.textContent = value;
    else if (key.startsWith("on") && typeof value === "function") element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** An SVG element: svg("rect", {x: 0, y: 0, width: 10, height: 10, class: "square"}, ...children). */
export function svg(tag, attrs, ...children) {
  return build(document.createElementNS(SVG, tag), attrs, children);
}

/** An HTML element: html("button", {type: "button", onclick: f, text: "Go"}). */
export function html(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/**
 * A drawing that fills the width it is given and keeps its proportions (laptop or phone). It is a
 * labelled group, not an image, since it may hold things to point at that a screen reader must reach.
 */
export function canvas(width, height, label, ...children) {
  return svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "drawing", role: "group", "aria-label": label }, ...children);
}

/**
 * Make an element something to point at: a click, or Enter or Space when it has the focus, calls
 * `then`. `kind` is "pick" (a piece whose moves it shows) or "target" (where a picked piece may go);
 * the browser tests and the stylesheet find them by that class.
 */
export function pointable(element, kind, label, then) {
  element.classList.add(kind);
  element.setAttribute("tabindex", "0");
  element.setAttribute("role", "button");
  element.setAttribute("aria-label", label);
  element.setAttribute(`data-${kind}`, label);
  element.addEventListener("click", (event) => { event.stopPropagation(); then(event); });
  element.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); then(event); }
  });
  return element;
}

/**
 * Put the game's drawing of `view` into `container`; should the drawing fail, the observation's
 * text stands in, so that the page stays playable (the error goes to the console).
 */
export function drawInto(container, drawing, view, ui) {
  try {
    container.replaceChildren(drawing.draw(view, ui));
  } catch (error) {
    console.error(error);
    container.replaceChildren(html("pre", { text: view.text }));
  }
}

let openMenu = null;

/** Close the menu of actions, if one is open. */
export function closeMenu() {
  if (openMenu) { openMenu.remove(); openMenu = null; }
}

/**
 * Several actions share the target just pointed at: a small menu chooses one. `items` are
 * {label, action}; `choose(action)` is called with the chosen one. The first item takes the focus,
 * so the keyboard works too, and Escape closes the menu.
 */
export function menu(anchor, items, choose) {
  closeMenu();
  const box = html("div", { class: "menu", role: "menu", "aria-label": "choose one" });
  for (const item of items) {
    box.append(html("button", {
      type: "button", role: "menuitem", "data-action": item.action, text: item.label,
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
  box.querySelector("button").focus();
  return box;
}

/** Choose among actions: at once when there is one, with a menu when there are several. */
export function chooseAmong(anchor, items, choose) {
  if (items.length === 1) choose(items[0].action);
  else if (items.length > 1) menu(anchor, items, choose);
}

/** "a1".."h8" style square names on a board of `size` files: [file index, rank index] or null. */
export function parseSquare(name) {
  const match = /^([a-z])(\d{1,2})$/.exec(name);
  return match ? [match[1].charCodeAt(0) - 97, Number(match[2]) - 1] : null;
}

export function squareName(file, rank) {
  return String.fromCharCode(97 + file) + String(rank + 1);
}

/** Wait `ms` milliseconds (for animations); resolves at once when the user prefers less motion. */
export function pause(ms) {
  const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  return new Promise((resolve) => setTimeout(resolve, reduced ? 0 : ms));
}
