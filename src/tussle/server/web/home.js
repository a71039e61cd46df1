// The home page: make a game (against the computer, a friend at this screen, a friend online, or
// anyone from the lobby), list the lobby and the games this browser holds seats of.
import { html } from "/web/board.js";

let catalog = [];

function $(id) { return document.getElementById(id); }

function keep(gameId, seat, token) {
  // A browser keeps the seat tokens it holds: the way back to each game ("Your games").
  const seats = JSON.parse(localStorage.getItem("tussle-seats") || "[]");
  seats.push({ game: gameId, seat, token });
  localStorage.setItem("tussle-seats", JSON.stringify(seats.slice(-200)));
}

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
  const players = game.players[0];
  const others = [];
  for (let seat = 1; seat < players; seat++) {
    if (opponent === "computer") others.push({ kind: "computer", agent: form.get("level") });
    else if (opponent === "hotseat") others.push({ kind: "person", name: `player ${seat + 1}` });
    else others.push({ kind: "open" });
  }
  const first = { kind: "person", name: "player 1" };
  try {
    const body = { game: game.id, options: options(), seats: [first, ...others] };
    const clock = form.get("clock");
    if (clock) {
      const [minutes, increment] = clock.split("+").map(Number);
      body.clock = { minutes, increment };
    }
    const made = await post("/api/games", body);
    const mine = made.seats.filter((s) => s.token);
    for (const seat of mine) keep(made.id, seat.seat, seat.token);
    if (opponent === "hotseat") {
      const secret = game.information !== "perfect";
      location.href = `/play/${made.id}?hotseat=1&seat=0${secret ? "&pass=1" : ""}#${mine.map((s) => s.token).join(",")}`;
    } else {
      location.href = `/play/${made.id}${opponent === "friend" ? "?invite=1" : ""}#${mine[0].token}`;
    }
  } catch (error) {
    say(error.message);
  }
}

async function join(gameId) {
  try {
    const joined = await post(`/api/games/${gameId}/join`, { name: "friend" });
    keep(joined.id, joined.seat, joined.token);
    location.href = joined.link;
  } catch (error) {
    $("created").textContent = `Could not join: ${error.message}`;
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
  if (!data.games.length) list.append(html("li", { text: "No game is waiting. Make one above and pick \u201canyone, from the lobby\u201d." }));
  for (const game of data.games) {
    list.append(html("li", {}, html("button", { type: "button", text: `Join ${gameName(game.game)}`, onclick: () => join(game.id) }),
      ` ${game.seats.filter((s) => s.kind !== "open").map((s) => s.name || "someone").join(", ")} waiting`));
  }
}

async function mine() {
  const seats = JSON.parse(localStorage.getItem("tussle-seats") || "[]");
  if (!seats.length) return;
  const answer = await fetch("/api/my-games", {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ tokens: seats.slice(-50).map((s) => s.token) }),
  });
  if (!answer.ok) return;
  const data = await answer.json();
  const tokenOf = new Map(seats.map((s) => [`${s.game}/${s.seat}`, s.token]));
  const list = $("mine");
  list.replaceChildren();
  const seen = new Set();
  for (const game of data.games.slice(0, 20)) {
    if (seen.has(game.id)) continue;  // a hot seat game: one line
    seen.add(game.id);
    const state = game.status === "finished" ? "finished" : game.your_turn ? "your move" : game.status;
    const href = game.status === "finished" ? `/replay/${game.id}` : `/play/${game.id}#${tokenOf.get(`${game.id}/${game.seat}`)}`;
    list.append(html("li", {}, html("a", { href, text: `${gameName(game.game)} (${state})` })));
  }
  $("mine-box").hidden = !list.children.length;
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
  const invited = new URLSearchParams(location.search).get("join");
  if (invited) join(invited);  // a friend's invite link: take the open seat at once
  else { lobby(); mine(); }
}
start();
