// @ts-check
// The clocks on the game page. The server is the authority: each view says how much time every
// seat has left and whose clock runs, and that resets what is shown. Between views the page counts
// the running clocks down itself, from the moment the view arrived, so that a clock is seen to
// move (a view comes only when something happens, which may be a minute or a day away).
// Below a threshold a seat's clock takes the warning colour, and the player's own clock sounds
// once each time it crosses it (sound.js: only if the player turned sound on).
import { beep } from "/web/sound.js";

/** @typedef {import("/web/types.js").ViewMessage} ViewMessage */
/** @typedef {import("/web/types.js").TimeControl} TimeControl */

const DAY = 86400;
const HOUR = 3600;
// Often enough for tenths of a second to look alive, seldom enough to cost nothing.
const TICK_MS = 200;

/** @type {{seat: number, remaining: number, running: boolean}[]} */
let rows = [];
/** @type {TimeControl | null} */
let control = null;
let arrived = 0;
/** @type {number | null} */
let own = null;
/** @type {ReturnType<typeof setInterval> | null} */
let timer = null;
// Whether each seat's clock was below the threshold when last shown: a sound marks a crossing.
/** @type {Map<number, boolean>} */
const wasLow = new Map();

/**
 * A clock's time as a player reads it: tenths under 10 s, m:ss under an hour, h:mm:ss above; a
 * correspondence clock in days and hours (or hours and minutes).
 * @param {number} seconds
 * @param {boolean} [perMove]
 * @returns {string}
 */
export function formatClock(seconds, perMove = false) {
  const s = Math.max(0, seconds);
  if (s < 10) return `0:0${(Math.floor(s * 10) / 10).toFixed(1)}`;
  const whole = Math.floor(s);
  if (perMove && whole >= DAY) return `${Math.floor(whole / DAY)} d ${Math.floor((whole % DAY) / HOUR)} h`;
  if (perMove && whole >= HOUR) return `${Math.floor(whole / HOUR)} h ${Math.floor((whole % HOUR) / 60)} min`;
  const ss = String(whole % 60).padStart(2, "0");
  if (whole >= HOUR) return `${Math.floor(whole / HOUR)}:${String(Math.floor((whole % HOUR) / 60)).padStart(2, "0")}:${ss}`;
  return `${Math.floor(whole / 60)}:${ss}`;
}

/**
 * The time control in words: "3 days a move", "5 min + 3 s a move".
 * @param {TimeControl} clock
 * @returns {string}
 */
export function controlText(clock) {
  if (clock.per_move) {
    const days = clock.base / DAY;
    if (!Number.isInteger(days)) return `${formatClock(clock.base, true)} a move`;  // not from the home page
    return `${days} ${days === 1 ? "day" : "days"} a move`;
  }
  const each = clock.base < 60 ? `${Number(clock.base.toFixed(1))} s` : `${Number((clock.base / 60).toFixed(2))} min`;
  return clock.increment ? `${each} + ${Number(clock.increment.toFixed(2))} s a move` : each;
}

/**
 * Below this many seconds a clock warns: an hour for a correspondence game; for a live one, 20 s
 * or a tenth of the base, whichever is smaller, but never under 5 s.
 * @param {TimeControl} clock
 * @returns {number}
 */
export function lowTime(clock) {
  if (clock.per_move) return HOUR;
  return Math.max(5, Math.min(20, clock.base / 10));
}

/**
 * What the home page's time control choice asks the server for: "5+3" (minutes + seconds a move)
 * or "3d" (days a move, a correspondence game); "" for none.
 * @param {string} choice
 * @returns {{minutes: number, increment: number} | {days: number} | null}
 */
export function clockRequest(choice) {
  if (!choice) return null;
  if (choice.endsWith("d")) return { days: Number(choice.slice(0, -1)) };
  const [minutes, increment] = choice.split("+").map(Number);
  return { minutes, increment };
}

function render() {
  if (!control) return;
  const elapsed = (performance.now() - arrived) / 1000;
  const threshold = lowTime(control);
  for (const row of rows) {
    const left = Math.max(0, row.running ? row.remaining - elapsed : row.remaining);
    const low = left < threshold;
    if (low && wasLow.get(row.seat) === false && row.seat === own) beep("low-time");
    wasLow.set(row.seat, low);
    const shown = document.querySelector(`[data-clock-seat="${row.seat}"]`);
    if (!shown) continue;
    shown.textContent = ` ${formatClock(left, control.per_move)}`;
    shown.classList.toggle("low", low);
    shown.classList.toggle("running", row.running);
  }
}

/** Stop counting (the game ended, or the screen of a game at one screen was covered). */
export function stopClocks() {
  if (timer !== null) clearInterval(timer);
  timer = null;
}

/**
 * Show a view's clocks (in the elements marked data-clock-seat) and count the running ones down
 * until the next view. The view's own seat is the one whose clock sounds (a spectator's: none).
 * @param {ViewMessage} view
 */
export function followClocks(view) {
  const box = document.getElementById("time-control");
  control = view.clock || null;
  if (box) {
    box.hidden = !control;
    box.textContent = control ? `Time control: ${controlText(control)}` : "";
  }
  rows = (view.clocks || []).map((c) => ({ ...c, running: c.running && !view.result }));
  arrived = performance.now();
  own = view.seat;
  render();
  if (!control || !rows.some((r) => r.running)) stopClocks();
  else if (timer === null) timer = setInterval(render, TICK_MS);
}
