// The seats this browser holds, kept in localStorage under one key: the way back to each game
// ("Your games" on the home page) and what an export carries to another browser. An entry is
//   {game, seat, token}   a seat of one's own (with `invites`, the invitation links it made), or
//   {game, table}         a game at one screen: its handle opens only the cover and then the seat
//                         to act, so it may stay here; it never goes into an address.
// Nothing of a game's view is ever stored: only these handles.

const KEY = "tussle-seats";
const MOST = 200; // what POST /api/my-games reads at once
const GAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SECRET = /^[A-Za-z0-9_-]{8,100}$/;

function valid(entry) {
  if (!entry || typeof entry !== "object" || typeof entry.game !== "string" || !GAME.test(entry.game)) return null;
  if (typeof entry.table === "string" && SECRET.test(entry.table)) return { game: entry.game, table: entry.table };
  if (typeof entry.token !== "string" || !SECRET.test(entry.token)) return null;
  // A seat pasted as a bare link has no number until its page opens it (null till then).
  const seat = entry.seat === null || entry.seat === undefined ? null : entry.seat;
  if (seat !== null && (!Number.isInteger(seat) || seat < 0)) return null;
  const out = { game: entry.game, seat, token: entry.token };
  const invites = Array.isArray(entry.invites)
    ? entry.invites.filter((i) => i && Number.isInteger(i.seat) && typeof i.link === "string"
      && i.link.startsWith(`/play/${entry.game}#invite=`))
      .map((i) => ({ seat: i.seat, link: i.link }))
    : [];
  if (invites.length) out.invites = invites;
  return out;
}

/** Every entry this browser holds, oldest first. */
export function held() {
  let stored;
  try {
    stored = JSON.parse(localStorage.getItem(KEY) || "[]");
  } catch {
    stored = [];
  }
  return Array.isArray(stored) ? stored.map(valid).filter(Boolean) : [];
}

function secretOf(entry) {
  return entry.table || entry.token;
}

/** Keep an entry (a seat or a table); one already held is not kept twice. Says whether it is new. */
export function keep(entry) {
  const good = valid(entry);
  if (!good) return false;
  const all = held();
  const at = all.findIndex((e) => secretOf(e) === secretOf(good));
  if (at >= 0) {
    const old = all[at];
    const seat = old.token && old.seat === null ? good.seat : old.seat;
    const invites = old.invites || good.invites;
    if (seat === old.seat && invites === old.invites) return false;
    all[at] = { ...old, ...(old.token ? { seat } : {}), ...(invites ? { invites } : {}) };
  } else {
    all.push(good);
  }
  localStorage.setItem(KEY, JSON.stringify(all.slice(-MOST)));
  return at < 0;
}

/** The table handle of a game at one screen this browser made, or null. */
export function tableOf(gameId) {
  const entry = held().find((e) => e.game === gameId && e.table);
  return entry ? entry.table : null;
}

/** The seats of a game this browser holds. */
export function seatsOf(gameId) {
  return held().filter((e) => e.game === gameId && e.token);
}

/** The invitation links this browser made for a game: [{seat, link}]. */
export function invitesOf(gameId) {
  return seatsOf(gameId).flatMap((e) => e.invites || []);
}

/** Everything held, as one JSON text to copy or download; `origin` makes each seat's link whole. */
export function exported(origin) {
  const seats = held().map((e) => (e.token ? { ...e, link: `${origin}/play/${e.game}#${e.token}` } : e));
  return JSON.stringify({ tussle: "seats", server: origin, seats }, null, 2);
}

/**
 * Keep what an export holds (its JSON), or every seat link found in a text (`/play/GAME#TOKEN`,
 * one per line or anywhere). Answers how many entries were new; throws when the text holds none.
 */
export function imported(text) {
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
  const good = entries.map(valid).filter(Boolean);
  if (!good.length) throw new Error("no seat found in it: paste an export of your seats, or seat links (/play/GAME#TOKEN)");
  return good.filter((e) => keep(e)).length;
}
