// @ts-check
// The replay page: a finished game (/replay/<game>) or an uploaded record (/replay), drawn step by step
// with the game's own drawing, forward and back with the buttons, the move list or the arrow keys, or
// played by itself at a chosen speed. "Seen by" shows everything as one seat (or a spectator) saw
// it: the drawing, the text and each step's words (the game's story lines as that seat knew them),
// never the notation of a move that seat did not see.
import { byId as $, drawInto, html } from "/web/board.js";
import { post } from "/web/api.js";

/** @typedef {import("/web/types.js").Replay} Replay */
/** @typedef {import("/web/types.js").Drawing} Drawing */

const parts = location.pathname.split("/").filter(Boolean);
const gameId = parts.length > 1 ? parts[parts.length - 1] : null;
/** @type {Replay | null} */
let data = null;
/** @type {Drawing | null} */
let drawing = null;
/** @type {unknown} the uploaded record, sent back to be replayed as another seat saw it */
let record = null;
let at = 0;
const seenBy = $("seen-by", HTMLSelectElement);
const speed = $("speed", HTMLSelectElement);
const playButton = $("play", HTMLButtonElement);
/** @type {ReturnType<typeof setInterval> | null} */
let playing = null;

/**
 * @param {import("/web/types.js").Player | null} player
 * @returns {string}
 */
function who(player) {
  if (player === "chance") return "chance";
  const name = data && player !== null && data.players && data.players[player];
  return name ? `${name} (seat ${player})` : `seat ${player}`;
}

/**
 * A step in words as the chosen seat saw it.
 * @param {import("/web/types.js").ReplayStep} step
 * @returns {string}
 */
function told(step) {
  return step.told.join("; ");
}

function show() {
  if (!data || !drawing) return;
  const step = data.steps[at];
  $("where").textContent = `step ${at} of ${data.steps.length - 1}`;
  $("event").textContent = step.action === null ? "The start." : told(step);
  $("board-text").textContent = step.text;
  /** @type {import("/web/types.js").View} */
  const view = {
    observation: step.observation, text: step.text, seat: data.seat, legal: null, moves: null, legal_count: 0, your_turn: false,
    previous: at > 0 ? data.steps[at - 1].observation : null, result: at === data.steps.length - 1 ? data.result : null,
    seats: [], replay: true,
  };
  drawInto($("board"), drawing, view, { act() {} });
  const list = $("moves");
  for (const item of list.children) {
    const current = Number(item.getAttribute("data-step")) === at;
    item.classList.toggle("current", current);
    if (current) item.setAttribute("aria-current", "step");
    else item.removeAttribute("aria-current");
    if (current && item instanceof HTMLElement) follow(list, item);
  }
}

/**
 * Scroll the step list (never the page) so that the current step is in it.
 * @param {HTMLElement} list
 * @param {HTMLElement} item
 */
function follow(list, item) {
  const top = item.offsetTop - list.offsetTop;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + item.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + item.offsetHeight - list.clientHeight;
}

/** @param {boolean} on  play the steps one after another (from the start, if at the end) */
function autoplay(on) {
  if (playing !== null) clearInterval(playing);
  playing = null;
  playButton.textContent = on ? "Pause" : "Play";
  playButton.setAttribute("aria-pressed", String(on));
  if (!on || !data) return;
  if (at >= data.steps.length - 1) go(0);
  playing = setInterval(() => {
    if (!data || at >= data.steps.length - 1) autoplay(false);
    else go(at + 1);
  }, Number(speed.value));
}

/** @param {number} to */
function go(to) {
  if (!data) return;
  at = Math.max(0, Math.min(data.steps.length - 1, to));
  show();
}

/**
 * @param {Promise<Response>} asked
 * @param {boolean} keepAt  stay at the step shown (another seat's view of the same game)
 */
async function open(asked, keepAt) {
  const answer = await asked;
  const got = await answer.json();
  if (!answer.ok) {
    $("error").textContent = /** @type {import("/web/types.js").Refusal} */ (got).error || answer.statusText;
    return;
  }
  $("error").textContent = "";
  /** @type {Replay} */
  const replay = got;
  drawing = await import(`/draw/${replay.game}.js`);
  data = replay;
  $("title").textContent = `${data.game}: a replay`;
  $("result").textContent = data.result ? `Result: ${data.result.reason || "over"}` : "The record stops before the end.";
  seenBy.replaceChildren(
    ...Array.from({ length: data.num_players }, (_, p) => html("option", { value: String(p), text: who(p) })),
    html("option", { value: "public", text: "a spectator" }));
  seenBy.value = data.seat === null ? "public" : String(data.seat);
  const list = $("moves");
  list.replaceChildren();
  data.steps.forEach((step, i) => {
    if (i === 0) return;
    list.append(html("li", { "data-step": i },
      html("button", { type: "button", class: "link", text: told(step), onclick: () => go(i) })));
  });
  const link = $("record", HTMLAnchorElement);
  if (gameId) link.href = `/api/games/${gameId}/record`;
  else link.href = URL.createObjectURL(new Blob([JSON.stringify(data.record, null, 1)], { type: "application/json" }));
  link.download = `${data.game}-${gameId || "record"}.json`;
  $("viewer").hidden = false;
  at = keepAt ? Math.min(at, data.steps.length - 1) : 0;
  show();
}

/**
 * @param {string} seat  a seat's number, or "public"
 * @param {boolean} keepAt
 */
function load(seat, keepAt) {
  if (gameId) return open(fetch(`/api/games/${gameId}/replay?seat=${seat}`), keepAt).catch(fail);
  return open(post("/api/replay", { record, seat }), keepAt).catch(fail);
}

/** @param {unknown} error */
function fail(error) { $("error").textContent = error instanceof Error ? error.message : String(error); }

$("first").addEventListener("click", () => go(0));
$("back").addEventListener("click", () => go(at - 1));
$("forward").addEventListener("click", () => go(at + 1));
$("last").addEventListener("click", () => go(data ? data.steps.length - 1 : 0));
seenBy.addEventListener("change", () => load(seenBy.value, true));
playButton.addEventListener("click", () => autoplay(playing === null));
speed.addEventListener("change", () => { if (playing !== null) autoplay(true); });
document.addEventListener("keydown", (event) => {
  if (event.target instanceof Element && event.target.closest("input, select, textarea")) return;
  if (event.key === "ArrowRight") go(at + 1);
  else if (event.key === "ArrowLeft") go(at - 1);
  else if (event.key === "Home") go(0);
  else if (event.key === "End") go(data ? data.steps.length - 1 : 0);
});
const upload = $("file", HTMLInputElement);
upload.addEventListener("change", async () => {
  const file = upload.files && upload.files[0];
  if (!file) return;
  if (file.size > 1024 * 1024) { $("error").textContent = "That file is over 1 MiB: not a record this page replays."; return; }
  try {
    record = JSON.parse(await file.text());
  } catch (error) {
    $("error").textContent = `Not JSON: ${error instanceof Error ? error.message : error}`;
    $("viewer").hidden = true;
    return;
  }
  load("0", false);
});
if (gameId) load("0", false);
else { $("upload").hidden = false; $("title").textContent = "Replay a record"; }
