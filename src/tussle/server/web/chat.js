// @ts-check
// The game page's chat, and what tells a player that something happened while they looked away:
// a sign in the tab's title (your move, unread messages), a sound (sound.js, off until turned on)
// and a browser notification (off until turned on, and only while the tab is hidden).
//
// Players talk among themselves and spectators among themselves (the server keeps the rooms
// apart); a game at one screen has no chat. A message holds only what a person typed, and is
// shown with textContent alone: whatever it holds (markup, a script) is text on the screen.
// Muting is kept in this browser: the whole chat (hidden, and silent), or one opponent's seat.
import { byId as $ } from "/web/board.js";
import { beep, setSound, soundOn } from "/web/sound.js";

/** @typedef {import("/web/types.js").ViewMessage} ViewMessage */
/** @typedef {import("/web/types.js").ChatMessage} ChatMessage */
/** @typedef {import("/web/types.js").ChatLine} ChatLine */

const gameId = location.pathname.split("/").filter(Boolean).pop() || "";
const atTable = decodeURIComponent(location.hash.slice(1)) === "table";
const MUTE_ALL = "tussle.chat.mute";
const MUTED = `tussle.chat.muted.${gameId}`;
const NOTIFY = "tussle.notify";
// The sign before the page's own title while something waits for the player.
const SIGN = "\u25cf ";
// The most lines a page keeps (the server keeps 200 a room; a long game's page stays small).
const MOST_LINES = 300;

/** @type {(message: {type: string, [key: string]: unknown}) => void} */
let sendMessage = () => {};
/** @type {ViewMessage | null} */
let view = null;
/** @type {boolean | null} null until the first view: a page opened on its turn makes no sound */
let myTurn = null;
let unread = 0;
let notified = 0;
/** @type {Map<number, ChatLine>} every line received, by id (a line that came twice is one) */
const lines = new Map();
// What this page sent and has not seen come back: a line that comes back is the page's own
// (a spectator's has no seat to tell it by), and makes no sound.
/** @type {string[]} */
const pending = [];

/**
 * @param {string} key
 * @returns {string | null}
 */
function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * @param {string} key
 * @param {string} value
 */
function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage refused (a private window's quota): the choice lasts as long as the page.
  }
}

function chatMuted() {
  return stored(MUTE_ALL) === "1";
}

/** @returns {Set<number>} the seats muted in this game, in this browser */
function mutedSeats() {
  try {
    const seats = JSON.parse(stored(MUTED) || "[]");
    return new Set(Array.isArray(seats) ? seats.filter((s) => Number.isInteger(s)) : []);
  } catch {
    return new Set();
  }
}

/** @param {ChatLine} line */
function silenced(line) {
  return chatMuted() || (line.seat !== null && mutedSeats().has(line.seat));
}

function notificationsOn() {
  return stored(NOTIFY) === "on" && "Notification" in window && Notification.permission === "granted";
}

function hidden() {
  return document.visibilityState === "hidden";
}

/** @returns {string} the page's own title, without the sign this module puts before it */
function baseTitle() {
  const title = document.title;
  return title.startsWith(SIGN) ? title.slice(title.indexOf(" \u00b7 ") + 3) : title;
}

/** The tab's title: the page's own, after a sign while it is this seat's move or messages are unread. */
function retitle() {
  const base = baseTitle();
  /** @type {string[]} */
  const news = [];
  if (myTurn) news.push("Your move");
  if (unread) news.push(unread === 1 ? "1 new message" : `${unread} new messages`);
  document.title = news.length ? `${SIGN}${news.join(", ")} \u00b7 ${base}` : base;
}

/**
 * A browser notification, if the player turned them on and the tab is hidden; counted on the page
 * (data-notifications) once the browser has shown it.
 * @param {string} title
 * @param {string} body
 */
function notify(title, body) {
  if (!notificationsOn() || !hidden()) return;
  try {
    const shown = new Notification(title, { body, tag: `tussle-${gameId}-${title}` });
    shown.addEventListener("show", () => {
      notified += 1;
      document.documentElement.dataset.notifications = String(notified);
    });
    shown.addEventListener("click", () => {
      window.focus();
      shown.close();
    });
  } catch {
    // A browser that shows notifications only from a service worker: the title and sound remain.
  }
}

/**
 * @param {ChatLine} line
 * @returns {string}
 */
function who(line) {
  if (line.seat === null) return line.name;
  const mine = view && view.seat === line.seat;
  return mine ? `${line.name} (you)` : line.name;
}

/**
 * @param {number} at  seconds since 1970
 * @returns {string}  hours:minutes in this browser's time
 */
function clockTime(at) {
  const date = new Date(at * 1000);
  return `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;
}

/** The log, from the lines kept, without those muted. */
function showLog() {
  const log = $("chat-log");
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  log.replaceChildren();
  for (const line of [...lines.values()].sort((a, b) => a.id - b.id)) {
    if (silenced(line)) continue;
    const item = document.createElement("li");
    item.dataset.seat = line.seat === null ? "spectator" : String(line.seat);
    const time = document.createElement("time");
    time.dateTime = new Date(line.at * 1000).toISOString();
    time.textContent = clockTime(line.at);
    const name = document.createElement("span");
    name.className = "chat-who";
    name.textContent = who(line);
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = line.text;
    item.append(time, " ", name, ": ", text);
    log.append(item);
  }
  if (atEnd) log.scrollTop = log.scrollHeight;
}

/** The mute buttons of the other seats (players' room only: spectators have no seat to mute). */
function showMutes() {
  const box = $("chat-mutes");
  box.replaceChildren();
  if (!view || view.seat === null || chatMuted()) return;
  const muted = mutedSeats();
  for (const seat of view.seats) {
    if (seat.seat === view.seat || seat.kind !== "person") continue;  // a computer, or nobody yet
    const name = seat.name || `seat ${seat.seat}`;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "link";
    button.dataset.muteSeat = String(seat.seat);
    button.setAttribute("aria-pressed", String(muted.has(seat.seat)));
    button.textContent = muted.has(seat.seat) ? `Unmute ${name}` : `Mute ${name}`;
    button.addEventListener("click", () => {
      const now = mutedSeats();
      if (now.has(seat.seat)) now.delete(seat.seat);
      else now.add(seat.seat);
      store(MUTED, JSON.stringify([...now]));
      showMutes();
      showLog();
    });
    box.append(button, " ");
  }
}

function showMuted() {
  const muted = chatMuted();
  $("chat-mute", HTMLInputElement).checked = muted;
  $("chat-body").hidden = muted;
  if (muted) {
    unread = 0;
    retitle();
  }
  showMutes();
  showLog();
}

/**
 * A view arrived (play.js shows it first): the chat's room, and the signs of this seat's turn.
 * @param {ViewMessage} latest
 */
export function chatView(latest) {
  view = latest;
  if (!atTable) {
    $("chat").hidden = false;
    $("chat-title").textContent = latest.seat === null ? "Spectators' chat" : "Players' chat";
    showMutes();
  }
  const turn = !!latest.your_turn && !latest.result && latest.seat !== null;
  if (turn && myTurn === false) {
    beep("turn");
    notify("Your move", `${baseTitle()}: it is your turn.`);
  }
  myTurn = turn;
  retitle();
}

/**
 * Chat messages arrived: the room's stored ones (on connecting), or a new one.
 * @param {ChatMessage} message
 */
export function chatMessage(message) {
  let heard = null;
  for (const line of message.messages) {
    if (lines.has(line.id)) continue;  // sent live and in the history both: shown once
    lines.set(line.id, line);
    const own = pending.indexOf(line.text);
    const mine = own >= 0 && (line.seat === (view ? view.seat : null));
    if (mine) pending.splice(own, 1);
    if (!message.history && !mine && !silenced(line)) heard = line;
  }
  while (lines.size > MOST_LINES) lines.delete(Math.min(...lines.keys()));
  showLog();
  if (!heard) return;
  beep("message");
  if (hidden()) {
    unread += 1;
    retitle();
    notify(`${heard.name}: a message`, heard.text);
  }
}

/**
 * Hook the chat's controls to the page's connection.
 * @param {(message: {type: string, [key: string]: unknown}) => void} send
 */
export function startChat(send) {
  sendMessage = send;
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("chat-text", HTMLInputElement);
    const text = input.value.trim();
    $("chat-error").textContent = "";
    if (!text) return;
    pending.push(text);
    if (pending.length > 20) pending.shift();
    sendMessage({ type: "chat", text });
    input.value = "";
  });
  $("chat-mute").addEventListener("change", () => {
    store(MUTE_ALL, $("chat-mute", HTMLInputElement).checked ? "1" : "0");
    showMuted();
  });
  const sound = $("sound-on", HTMLInputElement);
  sound.checked = soundOn();
  sound.addEventListener("change", () => {
    setSound(sound.checked);
    if (sound.checked) beep("message");  // what it sounds like (and the click lets audio start)
  });
  const notifications = $("notify-on", HTMLInputElement);
  $("notify-box").hidden = atTable;
  notifications.checked = notificationsOn();
  notifications.addEventListener("change", async () => {
    $("notify-note").textContent = "";
    if (!notifications.checked) {
      store(NOTIFY, "off");
      return;
    }
    if (!("Notification" in window)) {
      notifications.checked = false;
      $("notify-note").textContent = "This browser shows no notifications.";
      return;
    }
    const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
    notifications.checked = answer === "granted";
    store(NOTIFY, notifications.checked ? "on" : "off");
    if (answer !== "granted") $("notify-note").textContent = "Notifications are not allowed for this site in this browser.";
  });
  document.addEventListener("visibilitychange", () => {
    if (hidden()) return;
    unread = 0;  // seen
    retitle();
  });
  showMuted();
}

/**
 * A chat message the server refused (too long, too many): said under the chat's input.
 * @param {string} error
 * @returns {boolean} whether it was the chat's
 */
export function chatRefused(error) {
  const chats = /^(too many chat messages|a chat message|an empty chat message|a game at one screen has no chat|send \{"type": "chat")/;
  if (!chats.test(error)) return false;
  $("chat-error").textContent = error;
  return true;
}
