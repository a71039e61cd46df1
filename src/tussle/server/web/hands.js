// @ts-check
// Hands and eyes on the game page: a confirm step before a secret choice leaves the browser (a
// choice the rules hide cannot be taken back, and one click on a phone is easily a slip), and a
// running count of the seconds a computer seat has been thinking. The page (play.js) calls these;
// the keyboard on the board is board.js's.
import { byId as $, html } from "/web/board.js";

/** @typedef {import("/web/types.js").ViewMessage} ViewMessage */
/** @typedef {import("/web/types.js").Move} Move */

const CONFIRM_KEY = "tussle-confirm-secret";

/** Whether this browser asks before sending a secret choice (off unless the player turns it on). */
export function confirmsSecrets() {
  return localStorage.getItem(CONFIRM_KEY) === "1";
}

/**
 * Show the toggle in a game with secrets (only there: a game of perfect information has no
 * secret choice to take back) and keep what the player sets in this browser.
 * @param {boolean} secrets
 */
export function offerConfirm(secrets) {
  const box = $("confirm-toggle");
  box.hidden = !secrets;
  const check = $("confirm-secret", HTMLInputElement);
  check.checked = confirmsSecrets();
  if (check.dataset.wired) return;
  check.dataset.wired = "1";
  check.addEventListener("change", () => {
    localStorage.setItem(CONFIRM_KEY, check.checked ? "1" : "0");
    if (!check.checked) dropChoice();
  });
}

/**
 * What the player chose, in words: its notation when it is one of the legal actions, else the
 * values of its structured form (a Robo Battle Pigs program: its commands).
 * @param {Move | string} action
 * @param {ViewMessage | null} view
 * @returns {string}
 */
export function describe(action, view) {
  if (typeof action === "string") return action;
  const legal = view && view.legal;
  if (legal && legal.moves && legal.actions) {
    const wanted = JSON.stringify(action);
    const at = legal.moves.findIndex((move) => JSON.stringify(move) === wanted);
    if (at >= 0) return legal.actions[at];
  }
  /** @type {string[]} */
  const words = [];
  /** @param {unknown} value */
  const walk = (value) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") Object.entries(value).forEach(([k, v]) => { if (k !== "kind") walk(v); });
    else if (value !== null && value !== undefined) words.push(String(value));
  };
  walk(action);
  return words.join(" ") || JSON.stringify(action);
}

/**
 * Hold a chosen action until the player confirms it: "You chose X: Confirm / Change". Change
 * drops it and nothing is sent; a new view (the game went on) drops it too.
 * @param {Move | string} action
 * @param {ViewMessage | null} view
 * @param {() => void} send  sends it
 */
export function holdChoice(action, view, send) {
  const box = $("confirm-choice");
  const confirmButton = html("button", { type: "button", id: "confirm-send", text: "Confirm", onclick: () => { dropChoice(); send(); } });
  box.replaceChildren(
    html("span", { id: "confirm-text", text: `You chose ${describe(action, view)}.` }), " ",
    confirmButton, " ",
    html("button", { type: "button", id: "confirm-change", class: "quiet", text: "Change", onclick: () => {
      dropChoice();
      $("board").focus({ preventScroll: true });
    } }));
  box.hidden = false;
  confirmButton.focus({ preventScroll: true });
  box.scrollIntoView({ block: "nearest" });
}

/** Forget a choice held for confirmation. */
export function dropChoice() {
  const box = $("confirm-choice");
  box.hidden = true;
  box.replaceChildren();
}

/** @type {ReturnType<typeof setInterval> | null} */
let ticking = null;

/**
 * "hard is thinking… 4 s": a line for the computer seats to act, counting on from the seconds the
 * view says each had thought when it was made (this browser's clock only measures from then).
 * @param {ViewMessage} view
 * @param {(seat: number) => string} nameOf
 */
export function showThinking(view, nameOf) {
  const line = $("thinking");
  if (ticking !== null) clearInterval(ticking);
  ticking = null;
  const thinking = !view.result && view.thinking ? view.thinking : [];
  if (!thinking.length) {
    line.hidden = true;
    line.textContent = "";
    return;
  }
  const start = performance.now();
  const names = thinking.map((t) => nameOf(t.seat)).join(" and ");
  const base = Math.max(...thinking.map((t) => t.seconds));
  const tick = () => {
    const seconds = Math.floor(base + (performance.now() - start) / 1000);
    line.textContent = `${names} ${thinking.length > 1 ? "are" : "is"} thinking… ${seconds} s`;
  };
  tick();
  line.hidden = false;
  ticking = setInterval(tick, 1000);
}
