// @ts-check
// The home page: make a game (against the computer, a friend at this screen, a friend online, or
// anyone from the lobby), list the lobby and the games this browser holds seats of, and move those
// seats to another browser (export, import).
import { byId as $, html } from "/web/board.js";
import { exported, held, imported, keep, secretOf, seatsOf } from "/web/seats.js";
import { myName, nameInput } from "/web/name.js";
import { labelSeats, seatsAsked, showChoices, showSeats } from "/web/seating.js";
import { clockRequest, controlText } from "/web/clock.js";
import { startLobby } from "/web/lobby.js";
import { post, postJson } from "/web/api.js";
import { onAccount } from "/web/account.js";

/** @typedef {import("/web/types.js").CatalogGame} CatalogGame */
/** @typedef {import("/web/types.js").GameOption} GameOption */

/** @type {CatalogGame[]} */
let catalog = [];

/** @returns {CatalogGame} */
function chosenGame() {
  const id = $("game", HTMLSelectElement).value;
  const game = catalog.find((g) => g.id === id);
  if (!game) throw new Error(`no game ${id} in the catalog`);
  return game;
}

// The choice of a document option that stands for the text below it; no name can be it (names
// start with a letter or a digit).
const CUSTOM = "*custom";

/** @param {string} text */
function say(text) {
  $("created").textContent = text;
}

/**
 * @param {HTMLInputElement} input
 * @param {HTMLTextAreaElement} area
 * @param {GameOption & {max_length: number}} option
 */
function readInto(input, area, option) {
  // The file is read here, in the browser: the request carries the text, as pasted text would.
  const file = input.files && input.files[0];
  if (!file) return;
  // A character is at most 4 bytes: a larger file cannot hold a document the server takes.
  if (file.size > 4 * option.max_length) {
    say(`${file.name} is too large for a ${option.name} (at most ${option.max_length.toLocaleString("en")} characters)`);
    input.value = "";
    return;
  }
  const reader = new FileReader();
  reader.addEventListener("load", () => {
    const text = String(reader.result);
    if (text.length > option.max_length) {
      say(`${file.name} is too long for a ${option.name}: ${text.length.toLocaleString("en")} characters, at most ${option.max_length.toLocaleString("en")}`);
      input.value = "";
      return;
    }
    area.value = text;
    say("");
  });
  reader.addEventListener("error", () => say(`Could not read ${file.name}`));
  reader.readAsText(file);
}

/**
 * @param {GameOption & {max_length: number}} option
 * @param {string} id
 * @returns {HTMLElement[]}
 */
function documentField(option, id) {
  // One of the names the server offers, or a document of one's own: pasted, or read from a file.
  // No maxlength: a browser would cut a long paste short without a word; options() says it.
  const area = html("textarea", { id: `${id}-text`, name: `${option.name}-text`, rows: 8, spellcheck: "false", autocomplete: "off" });
  /** @type {HTMLInputElement} */
  const file = html("input", { type: "file", id: `${id}-file`, onchange: () => readInto(file, area, option) });
  const own = html("div", { id: `${id}-custom`, class: "document", hidden: true },
    html("p", {}, html("label", { for: area.id, text: `Your ${option.name}: paste it here, or choose a file` })),
    area,
    html("p", {}, html("label", { for: file.id, text: "File" }), " ", file));
  const names = [...option.documents];
  // A document option's default is the name of one (or empty: the game's own).
  const preset = typeof option.default === "string" ? option.default : "";
  if (preset && !names.includes(preset)) names.unshift(preset);
  const select = html("select", { id, name: option.name },
    preset ? null : html("option", { value: "", text: "default", selected: true }),
    names.map((n) => html("option", { value: n, text: n, selected: n === preset })),
    html("option", { value: CUSTOM, text: "custom: paste it or choose a file" }));
  select.addEventListener("change", () => {
    own.hidden = select.value !== CUSTOM;
    area.required = !own.hidden;
  });
  return [html("p", {}, html("label", { for: id, text: `${option.name}: ${option.help}` }), " ", select), own];
}

function showGame() {
  const game = chosenGame();
  $("description").textContent = game.description;
  const [fewest, most] = game.players;
  const count = $("player-count", HTMLSelectElement);
  const had = Number(count.value) || fewest;
  const numbers = Array.from({ length: most - fewest + 1 }, (_, i) => fewest + i);
  count.replaceChildren(...numbers.map((n) => html("option", { value: n, text: String(n) })));
  count.value = String(Math.min(most, Math.max(fewest, had)));
  $("players-box").hidden = fewest === most;
  showSeats(game, Number(count.value));
  const level = $("level", HTMLSelectElement);
  const was = level.value || "medium";
  level.replaceChildren(...game.levels.map((l) => html("option", { value: l, text: l })));
  level.value = game.levels.includes(was) ? was : game.levels[Math.floor(game.levels.length / 2)] || "";
  const box = $("options");
  box.replaceChildren();
  for (const option of game.options) {
    const id = `option-${option.name}`;
    if (option.kind === "document") {
      box.append(...documentField({ ...option, max_length: option.max_length || 0 }, id));
      continue;
    }
    /** @type {HTMLElement} */
    let input;
    if (option.kind === "bool") {
      input = html("input", { type: "checkbox", id, name: option.name, checked: option.default === true });
    } else if (option.kind === "choice") {
      input = html("select", { id, name: option.name },
        option.choices.map((c) => html("option", { value: c, text: c, selected: c === option.default })));
    } else if (option.kind === "int") {
      input = html("input", { type: "number", id, name: option.name, value: option.default, min: option.minimum, max: option.maximum });
    } else {
      // Text with suggested values (FITE's powers: a powers document may name others).
      const list = option.choices.length ? `${id}-values` : null;
      input = html("input", { type: "text", id, name: option.name, value: option.default, list });
      if (list) input = html("span", {}, input, html("datalist", { id: list }, option.choices.map((c) => html("option", { value: c }))));
    }
    box.append(html("p", {}, html("label", { for: id, text: `${option.name}: ${option.help}` }), " ", input));
  }
}

/**
 * The options chosen in the form that differ from their defaults.
 * @returns {{[name: string]: string | number | boolean}}
 */
function options() {
  /** @type {{[name: string]: string | number | boolean}} */
  const out = {};
  for (const option of chosenGame().options) {
    const input = /** @type {HTMLInputElement | HTMLSelectElement} */ ($(`option-${option.name}`));
    /** @type {string | number | boolean} */
    let value = input instanceof HTMLInputElement && option.kind === "bool" ? input.checked
      : option.kind === "int" ? Number(input.value) : input.value;
    if (option.kind === "document" && value === CUSTOM) {
      value = $(`option-${option.name}-text`, HTMLTextAreaElement).value;
      if (option.max_length !== null && value.length > option.max_length) {
        throw new Error(`the ${option.name} is too long: ${value.length.toLocaleString("en")} characters, at most ${option.max_length.toLocaleString("en")}`);
      }
    }
    if (value !== option.default) out[option.name] = value;
  }
  return out;
}

/** @param {SubmitEvent} event */
async function create(event) {
  event.preventDefault();
  const form = new FormData($("create", HTMLFormElement));
  const opponent = form.get("opponent");
  const game = chosenGame();
  const players = Number(form.get("players")) || game.players[0];
  const { seats, shuffle } = seatsAsked(String(opponent), String(form.get("level")), players, myName());
  try {
    /** @type {{game: string, options: object, seats: object[], shuffle?: boolean, table?: boolean, clock?: object, rated?: boolean}} */
    const body = { game: game.id, options: options(), seats, ...(shuffle ? { shuffle } : {}) };
    if (opponent === "hotseat") body.table = true;
    if (!$("rated-box").hidden && $("rated", HTMLInputElement).checked) body.rated = true;
    const clock = clockRequest(String(form.get("clock") || ""));
    if (clock) body.clock = clock;
    /** @type {import("/web/types.js").MadeGame} */
    const made = await postJson("/api/games", body);
    if (made.table) {
      // One handle for the one screen, kept here; the address only says "at this screen".
      keep({ game: made.id, table: made.table });
      location.href = `/play/${made.id}#table`;
      return;
    }
    const mine = made.seats.find((s) => s.token);
    if (!mine || !mine.token || !mine.link) throw new Error("the server made the game without a seat for you");
    const invites = made.seats.flatMap((s) => (s.invite_link ? [{ seat: s.seat, link: s.invite_link }] : []));
    keep({ game: made.id, seat: mine.seat, token: mine.token, invites });
    location.href = mine.link;
  } catch (error) {
    say(messageOf(error));
  }
}

/**
 * @param {unknown} error
 * @returns {string}
 */
function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

/** @param {string} gameId */
async function join(gameId) {
  try {
    /** @type {import("/web/types.js").JoinedSeat} */
    const joined = await postJson(`/api/games/${gameId}/join`, { name: myName() });
    keep({ game: joined.id, seat: joined.seat, token: joined.token });
    location.href = joined.link;
  } catch (error) {
    // The live lobby lists the game no longer once it is taken: nothing to reload.
    say(`Could not join: ${messageOf(error)}`);
  }
}

/**
 * @param {string} id
 * @returns {string}
 */
function gameName(id) {
  const game = catalog.find((g) => g.id === id);
  return game ? game.name : id;
}

/**
 * @param {import("/web/types.js").MyGame} game
 * @returns {string}
 */
function hrefOf(game) {
  if (game.status === "finished") return `/replay/${game.id}`;
  // A game at one screen opens covered, with the handle this browser keeps: none in the link.
  if (game.table) return `/play/${game.id}#table`;
  const seats = seatsOf(game.id);
  const seat = seats.find((s) => s.seat === game.seat) || seats.find((s) => s.seat === null) || seats[0];
  // The server listed the game for a token of this browser's, which another tab may have dropped since.
  return seat ? `/play/${game.id}#${seat.token}` : `/play/${game.id}`;
}

async function mine() {
  const entries = held();
  const list = $("mine");
  if (!entries.length) {
    list.replaceChildren(html("li", { text: "None yet in this browser." }));
    return;
  }
  const answer = await post("/api/my-games", { tokens: entries.map(secretOf) });
  if (!answer.ok) return;
  /** @type {{games: import("/web/types.js").MyGame[]}} */
  const data = await answer.json();
  list.replaceChildren();
  for (const game of data.games) {
    const state = game.status === "finished" ? "finished" : game.your_turn ? (game.table ? "to play" : "your move") : game.status;
    const where = game.table || game.seat === null ? "at this screen" : `seat ${game.seat + 1}`;
    const control = game.clock ? `, ${controlText(game.clock)}` : "";
    list.append(html("li", {}, html("a", { href: hrefOf(game), text: `${gameName(game.game)}, ${where}${control} (${state})` })));
  }
  if (!list.children.length) list.append(html("li", { text: "None of the seats kept here opens a game on this server." }));
}

function showExport() {
  const text = exported(location.origin);
  $("export-text", HTMLTextAreaElement).value = text;
  $("export-box").hidden = false;
  $("export-download").hidden = false;
  $("export-copy").hidden = false;
  $("export-text", HTMLTextAreaElement).select();
}

function download() {
  const blob = new Blob([$("export-text", HTMLTextAreaElement).value], { type: "application/json" });
  const link = html("a", { href: URL.createObjectURL(blob), download: "tussle-seats.json" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

async function copy() {
  const text = $("export-text", HTMLTextAreaElement);
  text.select();
  try {
    await navigator.clipboard.writeText(text.value);
    $("import-said").textContent = "Copied.";
  } catch {
    // Without the clipboard (a page not served over HTTPS), the text is selected for Ctrl+C.
    $("import-said").textContent = "Selected: copy it with Ctrl+C (\u2318C).";
  }
}

/**
 * @param {string} text
 * @param {string} from  where it came from: "Pasted", or the file's name
 */
function importText(text, from) {
  try {
    const added = imported(text);
    $("import-said").textContent = `${from}: ${added} new seat${added === 1 ? "" : "s"} kept.`;
    $("import-text", HTMLTextAreaElement).value = "";
    mine();
  } catch (error) {
    $("import-said").textContent = `${from}: ${messageOf(error)}`;
  }
}

/** @returns {boolean} whether a file was chosen */
function importFile() {
  const input = $("import-file", HTMLInputElement);
  const file = input.files && input.files[0];
  if (!file) return false;
  if (file.size > 1024 * 1024) {
    $("import-said").textContent = `${file.name} is too large for an export of seats`;
    return true;
  }
  file.text().then((text) => importText(text, file.name), () => { $("import-said").textContent = `Could not read ${file.name}`; });
  input.value = "";
  return true;
}

async function start() {
  /** @type {import("/web/types.js").Catalog} */
  const answer = await fetch("/api/catalog").then((r) => r.json());
  catalog = answer.games;
  const select = $("game", HTMLSelectElement);
  select.replaceChildren(...catalog.map((g) => html("option", { value: g.id, text: g.name })));
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && catalog.some((g) => g.id === wanted)) select.value = wanted;
  select.addEventListener("change", showGame);
  nameInput($("name", HTMLInputElement), $("name-said"));
  $("player-count").addEventListener("change", () => showSeats(chosenGame(), Number($("player-count", HTMLSelectElement).value)));
  $("my-seat").addEventListener("change", () => labelSeats(chosenGame()));
  for (const radio of document.querySelectorAll("input[name=opponent]")) {
    radio.addEventListener("change", () => showChoices(/** @type {HTMLInputElement} */ (radio).value));
  }
  showGame();
  $("create").addEventListener("submit", create);
  $("export").addEventListener("click", showExport);
  $("export-download").addEventListener("click", download);
  $("export-copy").addEventListener("click", copy);
  $("import").addEventListener("click", () => {
    if (importFile()) return;
    const text = $("import-text", HTMLTextAreaElement).value.trim();
    if (text) importText(text, "Pasted");
    else $("import-said").textContent = "Paste an export or seat links, or choose a file first.";
  });
  $("import-file").addEventListener("change", importFile);
  startLobby(catalog, join, myName);
  $("leaderboards").replaceChildren(...catalog.map((g) => html("li", {},
    html("a", { href: `/leaderboard/${g.id}`, text: g.name }))));
  onAccount(signedIn);
  mine();
}

/**
 * What the page offers depends on an account: rated games, and the name (an account plays under
 * its own, so the name field shows it and is not asked).
 * @param {import("/web/types.js").Me | null} account
 */
function signedIn(account) {
  const person = !!account;
  $("rated-box").hidden = !person;
  $("seek-rated-box").hidden = !person;
  $("seek-rated-what").hidden = !person;
  if (!person) {
    $("rated", HTMLInputElement).checked = false;
    $("seek-rated", HTMLInputElement).checked = false;
  }
  const name = $("name", HTMLInputElement);
  if (account) name.value = account.name;
  else if (name.disabled) name.value = myName();  // back from the account's name; a guest's typing is left alone
  name.disabled = person;
  $("name-account").hidden = !person;
  if (person) $("name-said").textContent = "";
}
start();
