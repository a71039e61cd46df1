// @ts-check
// The tournaments page (/tournaments): those open for registration, being played and finished
// (read again every 10 s while the page is shown), and, for a signed-in account, a form to make one:
// the game, single elimination or Swiss, the clock its games start with, rated or casual, the most
// entrants, computer entrants (a level each, and a power in FITE), and a start time or a start by
// its maker. The tournament's own page (tournament.js) is where entrants register.
import { html } from "/web/board.js";
import { getJson, postJson } from "/web/api.js";
import { onAccount } from "/web/account.js";

/** @typedef {import("/web/tourney-types.js").TournamentSummary} TournamentSummary */
/** @typedef {import("/web/tourney-types.js").TournamentList} TournamentList */
/** @typedef {import("/web/types.js").Catalog} Catalog */
/** @typedef {import("/web/types.js").CatalogGame} CatalogGame */

/** How often the lists are read again, in ms (a tournament's own page is livelier). */
const EVERY = 10000;

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
function $(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`no element #${id}`);
  return element;
}

/**
 * @param {string} id
 * @returns {HTMLInputElement}
 */
function input(id) {
  return /** @type {HTMLInputElement} */ ($(id));
}

/**
 * @param {string} id
 * @returns {HTMLSelectElement}
 */
function select(id) {
  return /** @type {HTMLSelectElement} */ ($(id));
}

/** @type {Catalog} */
let catalog = { games: [] };

/**
 * What a tournament is, in a line: its game, kind, clock, and where it stands.
 * @param {TournamentSummary} t
 * @returns {string}
 */
export function describe(t) {
  const game = t.game_name;
  const kind = t.kind === "swiss" ? `Swiss${t.rounds ? ` of ${t.rounds} rounds` : ""}` : "single elimination";
  const clock = `${t.clock.minutes} min + ${t.clock.increment} s`;
  let where = "";
  if (t.status === "registering") {
    where = `${t.entrants ?? 0} of ${t.max_entrants} registered; ` +
      (t.starts_at ? `starts ${new Date(t.starts_at * 1000).toLocaleString()}` : `${t.maker} starts it`);
  } else if (t.status === "playing") {
    where = `round ${t.round}${t.rounds ? ` of ${t.rounds}` : ""}`;
  } else {
    where = `finished ${t.finished ? new Date(t.finished * 1000).toLocaleDateString() : ""}`;
  }
  return `${game}, ${kind}, ${clock}, ${t.rated ? "rated" : "casual"}: ${where}`;
}

async function refresh() {
  try {
    /** @type {TournamentList} */
    const list = await getJson("/api/tournaments");
    for (const status of /** @type {const} */ (["registering", "playing", "finished"])) {
      const items = list[status].map((t) => html("li", null,
        html("a", { href: `/tournaments/${t.id}`, text: t.name }), ": ", describe(t)));
      $(status).replaceChildren(...(items.length ? items : [html("li", { class: "small", text: "none" })]));
    }
    $("error").textContent = "";
  } catch (error) {
    $("error").textContent = `The tournaments could not be read: ${error instanceof Error ? error.message : error}`;
  }
}

/** @returns {CatalogGame | undefined} */
function chosenGame() {
  return catalog.games.find((g) => g.id === select("t-game").value);
}

/** @returns {string[]} the powers of the chosen game (FITE's), else none */
function powers() {
  const option = chosenGame()?.options.find((o) => o.name === "power_a");
  return option ? option.choices : [];
}

function addComputer() {
  const game = chosenGame();
  const levels = /** @type {{agents?: string[]}} */ (game || {}).agents || ["random"];
  const n = $("t-computers").children.length + 1;
  /** @type {HTMLParagraphElement} */
  const row = html("p", { class: "computer-entrant" },
    html("label", null, `Computer ${n} plays `,
      html("select", { class: "c-level" }, ...levels.map((l) => html("option", { value: l, text: l })))),
    powers().length ? html("label", null, "power ",
      html("select", { class: "c-power" }, ...powers().map((p) => html("option", { value: p, text: p })))) : null,
    html("button", { type: "button", class: "quiet", text: "Remove", onclick: () => { row.remove(); } }));
  $("t-computers").append(row);
}

/** @param {SubmitEvent} event */
async function make(event) {
  event.preventDefault();
  const said = $("make-said");
  said.textContent = "";
  const kind = select("t-kind").value;
  const computers = [...$("t-computers").querySelectorAll(".computer-entrant")].map((row) => {
    const level = /** @type {HTMLSelectElement} */ (row.querySelector(".c-level")).value;
    const power = /** @type {HTMLSelectElement | null} */ (row.querySelector(".c-power"));
    return power && power.value !== "none" ? { level, power: power.value } : { level };
  });
  /** @type {{[key: string]: unknown}} */
  const body = {
    game: select("t-game").value,
    kind,
    name: input("t-name").value,
    clock: { minutes: Number(input("t-minutes").value), increment: Number(input("t-increment").value) },
    rated: input("t-rated").checked,
    max_entrants: Number(input("t-max").value),
    computers,
  };
  if (kind === "swiss" && input("t-rounds").value) body.rounds = Number(input("t-rounds").value);
  if (select("t-start").value === "at") {
    const at = Date.parse(input("t-at").value);
    if (Number.isNaN(at)) {
      said.textContent = "Choose the start time.";
      return;
    }
    body.starts_at = at / 1000;
  }
  try {
    const made = await postJson("/api/tournaments", body);
    location.assign(`/tournaments/${made.id}`);
  } catch (error) {
    said.textContent = error instanceof Error ? error.message : String(error);
  }
}

function kindChanged() {
  $("t-rounds-label").hidden = select("t-kind").value !== "swiss";
}

async function main() {
  onAccount((account) => {
    $("make").hidden = !account;
    $("make-signin").hidden = Boolean(account);
  });
  try {
    catalog = await getJson("/api/catalog");
  } catch {
    catalog = { games: [] };
  }
  select("t-game").replaceChildren(...catalog.games
    .filter((g) => g.players[0] <= 2 && g.players[1] >= 2)
    .map((g) => html("option", { value: g.id, text: g.name, selected: g.id === "fite" })));
  select("t-game").addEventListener("change", () => $("t-computers").replaceChildren());
  select("t-kind").addEventListener("change", kindChanged);
  select("t-start").addEventListener("change", () => { $("t-at-label").hidden = select("t-start").value !== "at"; });
  $("t-add-computer").addEventListener("click", addComputer);
  /** @type {HTMLFormElement} */ ($("make")).addEventListener("submit", make);
  kindChanged();
  await refresh();
  setInterval(() => { if (!document.hidden) refresh(); }, EVERY);
}

main();
