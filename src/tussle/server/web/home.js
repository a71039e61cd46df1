// The home page: make a game (against the computer, a friend at this screen, a friend online, or
// anyone from the lobby), list the lobby and the games this browser holds seats of, and move those
// seats to another browser (export, import).
import { html } from "/web/board.js";
import { exported, held, imported, keep, seatsOf } from "/web/seats.js";

let catalog = [];

function $(id) { return document.getElementById(id); }

async function post(path, body) {
  const answer = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await answer.json();
  if (!answer.ok) throw new Error(data.error || answer.statusText);
  return data;
}

function chosenGame() {
  return catalog.find((g) => g.id === $("game").value);
}

// The choice of a document option that stands for the text below it; no name can be it (names
// start with a letter or a digit).
const CUSTOM = "*custom";

function say(text) {
  $("created").textContent = text;
}

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

function documentField(option, id) {
  // One of the names the server offers, or a document of one's own: pasted, or read from a file.
  // No maxlength: a browser would cut a long paste short without a word; options() says it.
  const area = html("textarea", { id: `${id}-text`, name: `${option.name}-text`, rows: 8, spellcheck: "false", autocomplete: "off" });
  const file = html("input", { type: "file", id: `${id}-file`, onchange: () => readInto(file, area, option) });
  const own = html("div", { id: `${id}-custom`, class: "document", hidden: true },
    html("p", {}, html("label", { for: area.id, text: `Your ${option.name}: paste it here, or choose a file` })),
    area,
    html("p", {}, html("label", { for: file.id, text: "File" }), " ", file));
  const names = [...option.documents];
  if (option.default && !names.includes(option.default)) names.unshift(option.default);
  const select = html("select", { id, name: option.name },
    option.default ? null : html("option", { value: "", text: "default", selected: true }),
    names.map((n) => html("option", { value: n, text: n, selected: n === option.default })),
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
  const count = $("player-count");
  const had = Number(count.value) || fewest;
  const numbers = Array.from({ length: most - fewest + 1 }, (_, i) => fewest + i);
  count.replaceChildren(...numbers.map((n) => html("option", { value: n, text: String(n) })));
  count.value = String(Math.min(most, Math.max(fewest, had)));
  $("players-box").hidden = fewest === most;
  const level = $("level");
  const was = level.value || "medium";
  level.replaceChildren(...game.levels.map((l) => html("option", { value: l, text: l })));
  level.value = game.levels.includes(was) ? was : game.levels[Math.floor(game.levels.length / 2)] || "";
  const box = $("options");
  box.replaceChildren();
  for (const option of game.options) {
    const id = `option-${option.name}`;
    if (option.kind === "document") {
      box.append(...documentField(option, id));
      continue;
    }
    let input;
    if (option.kind === "bool") {
      input = html("input", { type: "checkbox", id, name: option.name, checked: option.default === true });
    } else if (option.kind === "choice") {
      input = html("select", { id, name: option.name },
        option.choices.map((c) => html("option", { value: c, text: c, selected: c === option.default })));
    } else if (option.kind === "int") {
      input = html("input", { type: "number", id, name: option.name, value: option.default, min: option.minimum, max: option.maximum });
    } else {
      input = html("input", { type: "text", id, name: option.name, value: option.default });
    }
    box.append(html("p", {}, html("label", { for: id, text: `${option.name}: ${option.help}` }), " ", input));
  }
}

function options() {
  const out = {};
  for (const option of chosenGame().options) {
    const input = $(`option-${option.name}`);
    let value = option.kind === "bool" ? input.checked : option.kind === "int" ? Number(input.value) : input.value;
    if (option.kind === "document" && value === CUSTOM) {
      value = $(`option-${option.name}-text`).value;
      if (value.length > option.max_length) {
        throw new Error(`the ${option.name} is too long: ${value.length.toLocaleString("en")} characters, at most ${option.max_length.toLocaleString("en")}`);
      }
    }
    if (value !== option.default) out[option.name] = value;
  }
  return out;
}

async function create(event) {
  event.preventDefault();
  const form = new FormData(event.target);
  const opponent = form.get("opponent");
  const game = chosenGame();
  const players = Number(form.get("players")) || game.players[0];
  const others = [];
  for (let seat = 1; seat < players; seat++) {
    if (opponent === "computer") others.push({ kind: "computer", agent: form.get("level") });
    else if (opponent === "hotseat") others.push({ kind: "person", name: `player ${seat + 1}` });
    // A friend's seat is kept for whoever holds its invitation's secret, and never listed.
    else if (opponent === "friend") others.push({ kind: "invite", name: players > 2 ? `friend ${seat}` : "friend" });
    else others.push({ kind: "open" });
  }
  const first = { kind: "person", name: "player 1" };
  try {
    const body = { game: game.id, options: options(), seats: [first, ...others] };
    if (opponent === "hotseat") body.table = true;
    const clock = form.get("clock");
    if (clock) {
      const [minutes, increment] = clock.split("+").map(Number);
      body.clock = { minutes, increment };
    }
    const made = await post("/api/games", body);
    if (made.table) {
      // One handle for the one screen, kept here; the address only says "at this screen".
      keep({ game: made.id, table: made.table });
      location.href = `/play/${made.id}#table`;
      return;
    }
    const mine = made.seats.find((s) => s.token);
    const invites = made.seats.filter((s) => s.invite_link).map((s) => ({ seat: s.seat, link: s.invite_link }));
    keep({ game: made.id, seat: mine.seat, token: mine.token, invites });
    location.href = mine.link;
  } catch (error) {
    say(error.message);
  }
}

async function join(gameId) {
  try {
    const joined = await post(`/api/games/${gameId}/join`, { name: "friend" });
    keep({ game: joined.id, seat: joined.seat, token: joined.token });
    location.href = joined.link;
  } catch (error) {
    say(`Could not join: ${error.message}`);
    lobby();
  }
}

function gameName(id) {
  const game = catalog.find((g) => g.id === id);
  return game ? game.name : id;
}

async function lobby() {
  const list = $("lobby");
  const data = await fetch("/api/lobby").then((r) => r.json());
  list.replaceChildren();
  if (!data.games.length) list.append(html("li", { text: "No game is waiting. Make one above and pick \u201canyone in the lobby\u201d." }));
  for (const game of data.games) {
    list.append(html("li", {}, html("button", { type: "button", "data-game": game.id, text: `Join ${gameName(game.game)}`, onclick: () => join(game.id) }),
      ` ${game.seats.filter((s) => s.kind !== "open").map((s) => s.name || "someone").join(", ")} waiting`));
  }
}

function hrefOf(game) {
  if (game.status === "finished") return `/replay/${game.id}`;
  // A game at one screen opens covered, with the handle this browser keeps: none in the link.
  if (game.table) return `/play/${game.id}#table`;
  const seats = seatsOf(game.id);
  const seat = seats.find((s) => s.seat === game.seat) || seats.find((s) => s.seat === null) || seats[0];
  return `/play/${game.id}#${seat.token}`;
}

async function mine() {
  const entries = held();
  const list = $("mine");
  if (!entries.length) {
    list.replaceChildren(html("li", { text: "None yet in this browser." }));
    return;
  }
  const answer = await fetch("/api/my-games", {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ tokens: entries.map((e) => e.table || e.token) }),
  });
  if (!answer.ok) return;
  const data = await answer.json();
  list.replaceChildren();
  for (const game of data.games) {
    const state = game.status === "finished" ? "finished" : game.your_turn ? (game.table ? "to play" : "your move") : game.status;
    const where = game.table ? "at this screen" : `seat ${game.seat + 1}`;
    list.append(html("li", {}, html("a", { href: hrefOf(game), text: `${gameName(game.game)}, ${where} (${state})` })));
  }
  if (!list.children.length) list.append(html("li", { text: "None of the seats kept here opens a game on this server." }));
}

function showExport() {
  const text = exported(location.origin);
  $("export-text").value = text;
  $("export-box").hidden = false;
  $("export-download").hidden = false;
  $("export-copy").hidden = false;
  $("export-text").select();
}

function download() {
  const blob = new Blob([$("export-text").value], { type: "application/json" });
  const link = html("a", { href: URL.createObjectURL(blob), download: "tussle-seats.json" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

async function copy() {
  $("export-text").select();
  try {
    await navigator.clipboard.writeText($("export-text").value);
    $("import-said").textContent = "Copied.";
  } catch {
    // Without the clipboard (a page not served over HTTPS), the text is selected for Ctrl+C.
    $("import-said").textContent = "Selected: copy it with Ctrl+C (\u2318C).";
  }
}

function importText(text, from) {
  try {
    const added = imported(text);
    $("import-said").textContent = `${from}: ${added} new seat${added === 1 ? "" : "s"} kept.`;
    $("import-text").value = "";
    mine();
  } catch (error) {
    $("import-said").textContent = `${from}: ${error.message}`;
  }
}

function importFile() {
  const input = $("import-file");
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
  catalog = (await fetch("/api/catalog").then((r) => r.json())).games;
  const select = $("game");
  select.replaceChildren(...catalog.map((g) => html("option", { value: g.id, text: g.name })));
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && catalog.some((g) => g.id === wanted)) select.value = wanted;
  select.addEventListener("change", showGame);
  showGame();
  $("create").addEventListener("submit", create);
  $("export").addEventListener("click", showExport);
  $("export-download").addEventListener("click", download);
  $("export-copy").addEventListener("click", copy);
  $("import").addEventListener("click", () => {
    if (importFile()) return;
    const text = $("import-text").value.trim();
    if (text) importText(text, "Pasted");
    else $("import-said").textContent = "Paste an export or seat links, or choose a file first.";
  });
  $("import-file").addEventListener("change", importFile);
  lobby();
  mine();
}
start();
