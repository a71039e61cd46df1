// @ts-check
// The home page's live lobby: the games waiting for anyone and the games being played, pushed by
// the server over one WebSocket whenever they change (the page never reloads or polls), and "play
// anyone now", which joins the oldest game waiting with the same game and time control or makes one
// and waits on its page. Everything a person typed (a name) is shown as text.
import { byId as $, html } from "/web/board.js";
import { controlText, clockRequest } from "/web/clock.js";
import { keep } from "/web/seats.js";
import { postJson } from "/web/api.js";

/** @typedef {import("/web/types.js").LobbyGame} LobbyGame */
/** @typedef {import("/web/types.js").PlayingGame} PlayingGame */
/** @typedef {import("/web/types.js").LobbySeat} LobbySeat */
/** @typedef {import("/web/types.js").LobbyMessage} LobbyMessage */
/** @typedef {import("/web/types.js").CatalogGame} CatalogGame */
/** @typedef {import("/web/types.js").TimeControl} TimeControl */

/** The time controls "play anyone now" offers, as clock.js's clockRequest reads them. */
const SEEK_CLOCKS = [
  ["3+2", "3 min + 2 s"], ["1+0", "1 min"], ["5+3", "5 min + 3 s"], ["10+5", "10 min + 5 s"],
  ["30+0", "30 min"], ["1d", "1 day a move"], ["3d", "3 days a move"], ["", "no clock"],
];
/** Where this browser remembers the game its last seek made and waits in (localStorage). */
const SEEKING = "tussle-seeking";
/** Seconds between two redrawings of the ages ("2 min ago"): made here, no request. */
const AGE_EVERY = 15;

/** @type {CatalogGame[]} */
let catalog = [];
/** @type {(gameId: string) => void} */
let joinGame = () => {};
/** @type {() => string} */
let nameOf = () => "";
/** @type {{open: LobbyGame[], playing: PlayingGame[], now: number} | null} */
let latest = null;
/** When the latest lists arrived (performance.now()), to age them without asking again. */
let arrived = 0;
let tries = 0;

/**
 * @param {string} id
 * @returns {string}
 */
function gameName(id) {
  const game = catalog.find((g) => g.id === id);
  return game ? game.name : id;
}

/**
 * How long ago, in words.
 * @param {number} seconds
 * @returns {string}
 */
export function ago(seconds) {
  const s = Math.max(0, seconds);
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  const days = Math.floor(s / 86400);
  return `${days} ${days === 1 ? "day" : "days"} ago`;
}

/**
 * @param {TimeControl | null} clock
 * @returns {string}
 */
function clockText(clock) {
  return clock ? controlText(clock) : "no clock";
}

/**
 * Who sits where: names, computer levels, open seats.
 * @param {LobbySeat[]} seats
 * @returns {string}
 */
function seatsText(seats) {
  return seats.map((s) => {
    if (s.kind === "open") return "open seat";
    if (s.kind === "computer") return `computer (${s.agent || s.name})`;
    if (s.kind === "invite") return "invited";
    if (s.kind === "reserved") return "rematch seat";
    return s.name || "someone";
  }).join(" vs ");
}

/**
 * The options that differ from the defaults this server offers (the catalog's: a server may set a
 * default of its own, such as a ply limit online), in words; "" when there are none.
 * @param {LobbyGame | PlayingGame} game
 * @returns {string}
 */
function optionsText(game) {
  const offered = catalog.find((g) => g.id === game.game);
  return Object.entries(game.options)
    .filter(([name, value]) => !offered || offered.options.every((o) => o.name !== name || o.default !== value))
    .map(([name, value]) => `${name} ${typeof value === "string" ? value : JSON.stringify(value)}`).join(", ");
}

/** Draw the lists as the server last sent them, their ages counted on from then. */
function render() {
  if (!latest) return;
  const now = latest.now + (performance.now() - arrived) / 1000;
  const open = $("lobby");
  open.replaceChildren(...latest.open.map((game) => {
    const options = optionsText(game);
    return html("li", { "data-game": game.id },
      html("button", { type: "button", "data-game": game.id, text: `Join ${gameName(game.game)}`, onclick: () => joinGame(game.id) }),
      " ", html("span", { class: "lobby-what", text: `${clockText(game.clock)}${options ? ` \u00b7 ${options}` : ""}` }),
      " \u00b7 ", html("span", { class: "lobby-who", text: seatsText(game.seats) }),
      " \u00b7 ", html("span", { class: "small", text: `made ${ago(now - game.created)}` }));
  }));
  if (!latest.open.length) open.append(html("li", { text: "No game is waiting. Press \u201cPlay anyone now\u201d, or make one above and pick \u201canyone in the lobby\u201d." }));
  const playing = $("playing");
  playing.replaceChildren(...latest.playing.map((game) => {
    const options = optionsText(game);
    const watching = game.spectators === 1 ? "1 watching" : `${game.spectators} watching`;
    return html("li", { "data-game": game.id },
      html("a", { href: `/play/${game.id}`, text: `${gameName(game.game)}: ${seatsText(game.seats)}` }),
      " ", html("span", { class: "lobby-what", text: `${clockText(game.clock)}${options ? ` \u00b7 ${options}` : ""}` }),
      " \u00b7 ", html("span", { class: "spectators", text: watching }),
      " \u00b7 ", html("span", { class: "small", text: `began ${ago(now - game.started)}` }));
  }));
  if (!latest.playing.length) playing.append(html("li", { text: "No game made for the lobby is being played now." }));
}

let leaving = false;
window.addEventListener("pagehide", () => {
  leaving = true;
});
window.addEventListener("pageshow", (event) => {
  // Back from the browser's page cache: the socket was closed meanwhile; open it again.
  if (leaving && event.persisted) {
    leaving = false;
    connect();
  }
});

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
  let refused = "";
  socket.addEventListener("message", (event) => {
    if (!document.getElementById("lobby-said")) {
      // The page holds no lobby any more (a script replaced it): stop listening, for good.
      leaving = true;
      socket.close();
      return;
    }
    /** @type {LobbyMessage} */
    const message = JSON.parse(event.data);
    if (message.type === "lobby") {
      tries = 0;
      latest = message;
      arrived = performance.now();
      $("lobby-said").textContent = "";
      render();
    } else if (message.type === "error") {
      refused = message.error;
      $("lobby-said").textContent = message.error;
    }
  });
  socket.addEventListener("close", () => {
    // Leaving the page closes the socket too: nothing to say, nothing to try again.
    if (leaving || !document.getElementById("lobby-said")) return;
    // Lost, or refused (too many lobby tabs): the lists stay as they were, and the page tries again.
    tries += 1;
    if (!refused) $("lobby-said").textContent = "Connection lost: the lists may be out of date; reconnecting\u2026";
    setTimeout(connect, Math.min(30000, 1000 * tries * (refused ? 5 : 1)));
  });
}

/**
 * The link of this browser's game made for the seek `key`, if the lobby still lists it as waiting.
 * @param {string} key
 * @returns {string | null}
 */
function waitingFor(key) {
  try {
    /** @type {{key: string, game: string, link: string}} */
    const kept = JSON.parse(localStorage.getItem(SEEKING) || "null");
    if (kept && kept.key === key && latest && latest.open.some((g) => g.id === kept.game)) return kept.link;
  } catch {
    // Nothing kept, or storage turned off: ask the server.
  }
  return null;
}

/** @param {{key: string, game: string, link: string}} seeking */
function remember(seeking) {
  try {
    localStorage.setItem(SEEKING, JSON.stringify(seeking));
  } catch {
    // Storage turned off: a second press may pair this browser with itself.
  }
}

/** @param {SubmitEvent} event */
async function seek(event) {
  event.preventDefault();
  const button = $("seek-button", HTMLButtonElement);
  button.disabled = true;
  $("seek-said").textContent = "";
  try {
    const clock = clockRequest($("seek-clock", HTMLSelectElement).value);
    const rated = !$("seek-rated-box").hidden && $("seek-rated", HTMLInputElement).checked;
    const asked = { game: $("seek-game", HTMLSelectElement).value, ...(clock ? { clock } : {}), ...(rated ? { rated } : {}) };
    // The same asked again while this browser's game for it still waits: back to it, rather than
    // being paired with oneself.
    const key = JSON.stringify(asked);
    const waiting = waitingFor(key);
    if (waiting) {
      location.href = waiting;
      return;
    }
    const body = { ...asked, name: nameOf() };
    /** @type {import("/web/types.js").SoughtSeat} */
    const seat = await postJson("/api/seek", body);
    // The seat is kept before the page leaves: closing the tab must not lose it.
    keep({ game: seat.id, seat: seat.seat, token: seat.token });
    if (!seat.paired) remember({ key, game: seat.id, link: seat.link });
    location.href = seat.link;
  } catch (error) {
    $("seek-said").textContent = `Could not play: ${error instanceof Error ? error.message : String(error)}`;
    button.disabled = false;
  }
}

/**
 * Start the live lobby on the home page.
 * @param {CatalogGame[]} games  the catalog
 * @param {(gameId: string) => void} join  takes an open seat of a listed game
 * @param {() => string} [name]  the name this browser plays under ("": the server names the seat)
 */
export function startLobby(games, join, name) {
  catalog = games;
  joinGame = join;
  if (name) nameOf = name;
  const select = $("seek-game", HTMLSelectElement);
  select.replaceChildren(...catalog.map((g) => html("option", { value: g.id, text: g.name })));
  $("seek-clock", HTMLSelectElement).replaceChildren(...SEEK_CLOCKS.map(([value, text]) => html("option", { value, text })));
  $("seek").addEventListener("submit", seek);
  connect();
  setInterval(render, AGE_EVERY * 1000);
}
