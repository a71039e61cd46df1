// @ts-check
// The seats this browser holds, kept in localStorage under one key: the way back to each game
// ("Your games" on the home page) and what an export carries to another browser. An entry is
//   {game, seat, token}   a seat of one's own (with `invites`, the invitation links it made), or
//   {game, table}         a game at one screen: its handle opens only the cover and then the seat
//                         to act, so it may stay here; it never goes into an address.
// Nothing of a game's view is ever stored: only these handles.

/**
 * An invitation link this browser made, to the seat it keeps: `/play/<game>#invite=<secret>`.
 * @typedef {{seat: number, link: string}} Invite
 */
/**
 * A seat of one's own: its number is null until its page opens a seat pasted as a bare link.
 * @typedef {{game: string, seat: number | null, token: string, invites?: Invite[]}} SeatEntry
 */
/**
 * A game at one screen: the handle of its table.
 * @typedef {{game: string, table: string}} TableEntry
 */
/** @typedef {SeatEntry | TableEntry} Entry */

const KEY = "tussle-seats";
const MOST = 200; // what POST /api/my-games reads at once
const GAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SECRET = /^[A-Za-z0-9_-]{8,100}$/;

/**
 * An entry as it is kept, from whatever storage or an import holds (anything at all), or null when
 * it is none.
 * @param {any} entry
 * @returns {Entry | null}
 */
function valid(entry) {
  if (!entry || typeof entry !== "object" || typeof entry.game !== "string" || !GAME.test(entry.game)) return null;
  if (typeof entry.table === "string" && SECRET.test(entry.table)) return { game: entry.game, table: entry.table };
  if (typeof entry.token !== "string" || !SECRET.test(entry.token)) return null;
  // A seat pasted as a bare link has no number until its page opens it (null till then).
  const seat = entry.seat === null || entry.seat === undefined ? null : entry.seat;
  if (seat !== null && (!Number.isInteger(seat) || seat < 0)) return null;
  /** @type {SeatEntry} */
  const out = { game: entry.game, seat, token: entry.token };
  /** @type {Invite[]} */
  const invites = Array.isArray(entry.invites)
    ? entry.invites.filter((/** @type {any} */ i) => i && Number.isInteger(i.seat) && typeof i.link === "string"
      && i.link.startsWith(`/play/${entry.game}#invite=`))
      .map((/** @type {Invite} */ i) => ({ seat: i.seat, link: i.link }))
    : [];
  if (invites.length) out.invites = invites;
  return out;
}

/**
 * Every entry this browser holds, oldest first.
 * @returns {Entry[]}
 */
export function held() {
  let stored;
  try {
    stored = JSON.parse(localStorage.getItem(KEY) || "[]");
  } catch {
    stored = [];
  }
  return Array.isArray(stored) ? kept(stored.map(valid)) : [];
}

/**
 * @param {(Entry | null)[]} entries
 * @returns {Entry[]}
 */
function kept(entries) {
  return entries.filter((e) => e !== null);
}

/**
 * An entry's secret: a seat's token or a table's handle (what POST /api/my-games reads).
 * @param {Entry} entry
 * @returns {string}
 */
export function secretOf(entry) {
  return "table" in entry ? entry.table : entry.token;
}

/**
 * Keep an entry (a seat or a table); one already held is not kept twice, but learns what it lacked
 * (its seat's number, its invitations). Says whether it is new.
 * @param {Entry} entry
 * @returns {boolean}
 */
export function keep(entry) {
  const good = valid(entry);
  if (!good) return false;
  const all = held();
  const at = all.findIndex((e) => secretOf(e) === secretOf(good));
  if (at >= 0) {
    const old = all[at];
    // A table's secret is no seat's: the same secret is the same kind of entry.
    if (!("token" in old) || !("token" in good)) return false;
    const seat = old.seat === null ? good.seat : old.seat;
    const invites = old.invites || good.invites;
    if (seat === old.seat && invites === old.invites) return false;
    all[at] = { ...old, seat, ...(invites ? { invites } : {}) };
  } else {
    all.push(good);
  }
  localStorage.setItem(KEY, JSON.stringify(all.slice(-MOST)));
  return at < 0;
}

/**
 * The table handle of a game at one screen this browser made, or null.
 * @param {string} gameId
 * @returns {string | null}
 */
export function tableOf(gameId) {
  for (const e of held()) if (e.game === gameId && "table" in e) return e.table;
  return null;
}

/**
 * The seats of a game this browser holds.
 * @param {string} gameId
 * @returns {SeatEntry[]}
 */
export function seatsOf(gameId) {
  return held().filter((e) => "token" in e).filter((e) => e.game === gameId);
}

/**
 * The invitation links this browser made for a game.
 * @param {string} gameId
 * @returns {Invite[]}
 */
export function invitesOf(gameId) {
  return seatsOf(gameId).flatMap((e) => e.invites || []);
}

/**
 * Everything held, as one JSON text to copy or download; `origin` makes each seat's link whole.
 * @param {string} origin
 * @returns {string}
 */
export function exported(origin) {
  const seats = held().map((e) => ("token" in e ? { ...e, link: `${origin}/play/${e.game}#${e.token}` } : e));
  return JSON.stringify({ tussle: "seats", server: origin, seats }, null, 2);
}

/**
 * Keep what an export holds (its JSON), or every seat link found in a text (`/play/GAME#TOKEN`,
 * one per line or anywhere). Answers how many entries were new; throws when the text holds none.
 * @param {string} text
 * @returns {number}
 */
export function imported(text) {
  /** @type {unknown[] | null} */
  let entries = null;
  try {
    const data = JSON.parse(text);
    entries = Array.isArray(data) ? data : data && Array.isArray(data.seats) ? data.seats : null;
  } catch {
    entries = null;
  }
  if (entries === null) {
    entries = [...text.matchAll(/\/play\/([0-9a-f-]{36})#(?!invite=)([A-Za-z0-9_-]{8,100})/g)]
      .map((m) => ({ game: m[1], seat: null, token: m[2] }));
  }
  const good = kept(entries.map(valid));
  if (!good.length) throw new Error("no seat found in it: paste an export of your seats, or seat links (/play/GAME#TOKEN)");
  return good.filter((e) => keep(e)).length;
}
