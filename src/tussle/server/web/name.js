// @ts-check
// The name a person plays under: chosen once, kept in this browser's localStorage, and sent as their
// seat's name when they make or join a game (the home page, an invitation on the game page). The
// server checks every name again (docs/server.md); the check here only says what is wrong sooner.
// Others see the name in the players list and the status and result lines, always as text.
import { html } from "/web/board.js";

const KEY = "tussle-name";
/** The most characters a name may have here (the server takes up to 60, for other clients). */
export const MOST = 30;
// What the server refuses in a name: control characters, line separators, and the bidirectional
// overrides that would turn the text after a name around.
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/**
 * What is wrong with a name, or "" when it is a good one.
 * @param {string} text
 * @returns {string}
 */
export function nameProblem(text) {
  if (CONTROL.test(text)) return "A name may not hold control characters.";
  const name = text.trim();
  if (!name) return "A name needs a visible character.";
  if ([...name].length > MOST) return `A name has at most ${MOST} characters.`;
  return "";
}

/**
 * The name this browser keeps, or "" when none was chosen (the server then names the seat).
 * @returns {string}
 */
export function myName() {
  let kept = "";
  try {
    kept = localStorage.getItem(KEY) || "";
  } catch {
    // Storage turned off: no name is kept, and none is sent.
  }
  return kept && !nameProblem(kept) ? kept.trim() : "";
}

/**
 * Keep what is typed in `input` as the name once it is a good one (emptied: no name), and say in
 * `said` what is wrong with it meanwhile; a form holding the input will not submit a bad one.
 * @param {HTMLInputElement} input
 * @param {HTMLElement} said
 */
export function nameInput(input, said) {
  input.value = myName();
  input.maxLength = 4 * MOST;  // pasted text is not cut silently: the check says what is too long
  const check = () => {
    const problem = input.value.trim() ? nameProblem(input.value) : "";
    input.setCustomValidity(problem);
    said.textContent = problem;
    if (problem) return;
    try {
      if (input.value.trim()) localStorage.setItem(KEY, input.value.trim());
      else localStorage.removeItem(KEY);
    } catch {
      said.textContent = "This browser keeps nothing: the name is used for this game only.";
    }
  };
  input.addEventListener("input", check);
  input.addEventListener("change", () => { if (!nameProblem(input.value)) input.value = input.value.trim(); });
}

/**
 * The name to take an invitation's seat of `gameId` under: the one kept, or, when there is none,
 * the one the person types in a small form shown at the top of the page (empty: the server names
 * the seat). Nobody is asked when no seat of the game waits for an invitation any more (the join
 * is then refused, and says why).
 * @param {string} gameId
 * @returns {Promise<string>}
 */
export async function askName(gameId) {
  const kept = myName();
  if (kept) return kept;
  const answer = await fetch(`/api/games/${gameId}`).catch(() => null);
  /** @type {{seats?: {kind: string}[]}} */
  const view = answer && answer.ok ? await answer.json() : {};
  if (!(view.seats || []).some((s) => s.kind === "invite")) return "";
  /** @type {HTMLInputElement} */
  const input = html("input", { id: "invite-name", type: "text", autocomplete: "nickname", spellcheck: "false" });
  const said = html("span", { id: "invite-name-said", class: "error", role: "status" });
  nameInput(input, said);
  /** @type {HTMLFormElement} */
  const form = html("form", { id: "name-form", class: "name-form" },
    html("p", { text: "You are invited to play. Others will see you by the name you choose here; this browser keeps it." }),
    html("p", {}, html("label", { for: input.id, text: "Your name" }), " ", input, " ",
      html("button", { type: "submit", text: "Take the seat" }), " ", said));
  const main = document.querySelector("main");
  if (main) main.prepend(form);
  else document.body.append(form);
  input.focus();
  return new Promise((resolve) => {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (input.value.trim() && nameProblem(input.value)) return;
      form.remove();
      resolve(input.value.trim());
    });
  });
}

/**
 * A line in the game's own words (a result's reason: "p1 has the most Glory") with each seat's
 * person named beside the game's name for the seat ("Ada (p1) has the most Glory"). Whole words
 * only, in one pass, so that a name is never replaced inside another or twice.
 * @param {string} text
 * @param {string[]} gameNames  the game's name of each seat (the catalog's seat_names)
 * @param {{seat: number, name: string | null}[]} seats  who sits where (a view's seats)
 * @returns {string}
 */
export function inTheirNames(text, gameNames, seats) {
  /** @type {Map<string, string>} */
  const named = new Map();
  for (const row of seats) {
    const own = gameNames[row.seat];
    if (own && row.name && row.name !== own) named.set(own, `${row.name} (${own})`);
  }
  if (!named.size) return text;
  const words = [...named.keys()].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.join("|")})(?![\\p{L}\\p{N}])`, "gu");
  return text.replace(pattern, (word) => named.get(word) || word);
}
