// @ts-check
// The game's story on the game page: every event in plain words as this seat (or a spectator) may
// know it, numbered by the page itself (a game runs past 99 events, and a list's own markers are
// cut off there), and each line a button that looks back at the position after it.
//
// The server writes the lines (a game's own hook decides what a seat may read of an opponent's
// move) and sends them with each view: the whole story on connecting, the latest events after.
// Looking back asks the server ({"type": "look", "at": n}), which answers with what this seat was
// shown then; the page draws it in place of the board until "Back to the game". A move made
// meanwhile does not pull the player away: the bar says "New move" and the story grows below.
import { byId as $, html } from "/web/board.js";

/** @typedef {import("/web/types.js").StoryEntry} StoryEntry */
/** @typedef {import("/web/types.js").LookMessage} LookMessage */

/**
 * What the game page lends the story: a way to send, and to draw a past position or the present.
 * @typedef {{send: (message: {type: string, [key: string]: unknown}) => void, drawPast: (look: LookMessage) => void, drawPresent: () => void}} StoryHooks
 */

/** @type {Map<number, StoryEntry>} */
const told = new Map();
/** @type {Map<number, HTMLLIElement>} */
const items = new Map();
/** @type {number | null} the event looked back at, while the page shows the past */
let looking = null;
/** @type {number | null} the event asked for, until the answer comes */
let asked = null;
let events = 0;
/** @type {StoryHooks | null} */
let hooks = null;

/** @param {StoryHooks} lent */
export function startStory(lent) {
  hooks = lent;
  $("story-back").addEventListener("click", backToGame);
  // Escape, the key that leaves what is shown over the game, brings the present back too.
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && looking !== null) backToGame();
  });
}

/** Whether the page shows a past position now (the board is then not redrawn with each view). */
export function lookingBack() {
  return looking !== null;
}

/**
 * Take the story lines of a view, and the number of events it counts.
 * @param {{story?: StoryEntry[], events: number}} view
 */
export function tellStory(view) {
  const list = $("moves");
  const entries = view.story || [];
  const newest = items.size ? Math.max(...items.keys()) : -1;
  // Lines arrive in order; a reconnection may send the whole story again, merged the same way.
  const inOrder = entries.every((e) => e.number > newest || items.has(e.number));
  for (const entry of entries) told.set(entry.number, entry);
  if (!inOrder) {
    list.replaceChildren();
    items.clear();
  }
  for (const entry of [...told.values()].sort((a, b) => a.number - b.number)) {
    const old = items.get(entry.number);
    if (old && old.dataset.lines === JSON.stringify(entry.lines)) continue;
    const item = line(entry);
    if (old) old.replaceWith(item);
    else list.append(item);
    items.set(entry.number, item);
  }
  if (looking !== null && view.events > events) $("story-new").hidden = false;
  events = view.events;
  if (looking === null) list.scrollTop = list.scrollHeight;
}

/**
 * One event's line: its number (counted from 1), its words, and a button to look back at it.
 * @param {StoryEntry} entry
 */
function line(entry) {
  const item = html("li", { "data-number": entry.number, "data-lines": JSON.stringify(entry.lines) });
  if (entry.number === looking) item.classList.add("current");
  item.append(html("button", {
    type: "button", class: "story-line", title: "Look back at the position after this",
    onclick: () => lookAt(entry.number),
  }, html("span", { class: "story-number", text: `${entry.number + 1}.` }),
  html("span", {}, ...entry.lines.map((words) => html("span", { class: "story-words", text: words })))));
  return item;
}

/** @param {number} number */
function lookAt(number) {
  if (!hooks) return;
  asked = number;
  hooks.send({ type: "look", at: number });
}

/**
 * The server's answer to a look: what this seat saw after that event, drawn in place of the board.
 * @param {LookMessage} look
 */
export function looked(look) {
  if (!hooks || asked === null) return;  // back to the game already: a late answer is dropped
  asked = null;
  looking = look.at;
  for (const [number, item] of items) item.classList.toggle("current", number === look.at);
  $("story-at").textContent = `Looking back at move ${look.at + 1} of ${look.events}.`;
  $("story-new").hidden = look.events >= events;
  const bar = $("story-bar");
  bar.hidden = false;
  hooks.drawPast(look);
  // On a phone the story is far below the board: the past position is brought into view.
  const box = bar.getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) bar.scrollIntoView({ block: "start" });
}

export function backToGame() {
  const was = lookingBack();
  looking = null;
  asked = null;
  $("story-bar").hidden = true;
  $("story-new").hidden = true;
  for (const item of items.values()) item.classList.remove("current");
  if (was && hooks) hooks.drawPresent();
  const list = $("moves");
  list.scrollTop = list.scrollHeight;
}

/** Forget the story (a table's screen is covered for the next player: nothing of the last one's stays). */
export function forgetStory() {
  told.clear();
  items.clear();
  looking = null;
  asked = null;
  events = 0;
  $("moves").replaceChildren();
  $("story-bar").hidden = true;
}
