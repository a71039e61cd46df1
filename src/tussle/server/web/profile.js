// @ts-check
// A player's profile (/players/<name>): its ratings per game, each with a plot of the rating game
// after game and the computer levels drawn across it as the scale to read it against; its record
// against each computer level; its games (a finished one replayed or downloaded, all of them as one
// zip). Its owner also changes the password here and makes an API token for a program.
// Everything a person typed (a name) is shown as text.
import { byId as $, html, svg } from "/web/board.js";
import { getJson, postJson } from "/web/api.js";
import { onAccount } from "/web/account.js";
import { keep } from "/web/seats.js";

/** @typedef {import("/web/types.js").Profile} Profile */
/** @typedef {import("/web/types.js").Rating} Rating */
/** @typedef {import("/web/types.js").LevelRating} LevelRating */
/** @typedef {import("/web/types.js").ProfileGame} ProfileGame */
/** @typedef {import("/web/types.js").ProfileSeat} ProfileSeat */

const wanted = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
/** @type {Profile | null} */
let profile = null;
/** @type {Map<string, string>} each game's name by its id */
const names = new Map();
/** @type {number | null} the `before` of the next, older page of games */
let older = null;
/** whether the signed-in account is this profile's */
let owner = false;
/** how many times the games were asked for: only the latest answer is drawn */
let listed = 0;

/**
 * @param {string} id
 * @returns {string}
 */
function gameName(id) {
  return names.get(id) || id;
}

/**
 * @param {number} seconds  since the epoch
 * @returns {string}
 */
function when(seconds) {
  return new Date(seconds * 1000).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" });
}

/** @returns {HTMLSpanElement} */
function botBadge() {
  return html("span", { class: "badge bot", title: "a program's account", text: "BOT" });
}

// --- the plot ---------------------------------------------------------------------------

const WIDTH = 640;
const HEIGHT = 280;
const LEFT = 56;
const RIGHT = 96;
const TOP = 14;
const BOTTOM = 44;

/**
 * Round numbers for an axis between `low` and `high`: about five of them.
 * @param {number} low
 * @param {number} high
 * @returns {number[]}
 */
function ticks(low, high) {
  const raw = (high - low) / 5;
  const power = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1))));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) || 10 * power;
  const out = [];
  for (let t = Math.ceil(low / step) * step; t <= high; t += step) out.push(t);
  return out;
}

/**
 * The rating after each rated game of one game, from the start, with the computer levels as
 * labelled lines across it.
 * @param {Rating} rating
 * @param {LevelRating[]} levels
 * @param {number} base  every account's rating before its first rated game
 * @returns {SVGSVGElement}
 */
function plot(rating, levels, base) {
  const points = [base, ...(rating.history || []).map((p) => p.rating)];
  const values = [...points, ...levels.map((l) => l.rating)];
  const low = Math.floor((Math.min(...values) - 50) / 100) * 100;
  const high = Math.ceil((Math.max(...values) + 50) / 100) * 100;
  const games = points.length - 1;
  const x = (/** @type {number} */ n) => LEFT + (games ? (n / games) : 0.5) * (WIDTH - LEFT - RIGHT);
  const y = (/** @type {number} */ r) => TOP + (1 - (r - low) / (high - low)) * (HEIGHT - TOP - BOTTOM);
  const name = gameName(rating.game);
  const nearest = levels.length ? ` Computer levels: ${levels.map((l) => `${l.level} ${l.rating}`).join(", ")}.` : "";
  const label = `${name}: rating after each of ${games} rated game${games === 1 ? "" : "s"}, from ${base} to ${points[points.length - 1]}.${nearest}`;
  const xTicks = games <= 10 ? Array.from({ length: games + 1 }, (_, i) => i) : ticks(0, games);
  return svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "plot", role: "img", "aria-label": label, "data-game": rating.game },
    // The axes, their numbers and their names.
    ticks(low, high).map((t) => [
      svg("line", { x1: LEFT, y1: y(t), x2: WIDTH - RIGHT, y2: y(t), class: "grid" }),
      svg("text", { x: LEFT - 6, y: y(t) + 4, "text-anchor": "end", class: "tick", text: String(t) })]),
    svg("line", { x1: LEFT, y1: TOP, x2: LEFT, y2: HEIGHT - BOTTOM, class: "axis" }),
    svg("line", { x1: LEFT, y1: HEIGHT - BOTTOM, x2: WIDTH - RIGHT, y2: HEIGHT - BOTTOM, class: "axis" }),
    xTicks.map((n) => svg("text", { x: x(n), y: HEIGHT - BOTTOM + 16, "text-anchor": "middle", class: "tick", text: String(n) })),
    svg("text", { x: (LEFT + WIDTH - RIGHT) / 2, y: HEIGHT - 6, "text-anchor": "middle", class: "axis-name", text: "rated games played" }),
    svg("text", { x: 14, y: (TOP + HEIGHT - BOTTOM) / 2, "text-anchor": "middle", class: "axis-name",
      transform: `rotate(-90 14 ${(TOP + HEIGHT - BOTTOM) / 2})`, text: "rating" }),
    // The computer levels: the scale the rating reads against.
    levels.map((l) => svg("g", { class: "level", "data-level": l.level },
      svg("line", { x1: LEFT, y1: y(l.rating), x2: WIDTH - RIGHT, y2: y(l.rating) }),
      svg("text", { x: WIDTH - RIGHT + 6, y: y(l.rating) + 4, text: `${l.level} ${l.rating}` }))),
    // The rating, game after game.
    svg("polyline", { class: "rating-line", points: points.map((r, n) => `${x(n)},${y(r)}`).join(" ") }),
    points.map((r, n) => svg("circle", { class: "rating-point", cx: x(n), cy: y(r), r: 3.5 },
      svg("title", { text: n ? `after game ${n}: ${r}` : `start: ${r}` }))));
}

// --- the profile ---------------------------------------------------------------------------

/**
 * @param {Profile} data
 * @param {import("/web/types.js").Levels} levels
 */
function showProfile(data, levels) {
  document.title = `tussle: ${data.name}`;
  $("title").replaceChildren(data.name, ...(data.bot ? [" ", botBadge()] : []));
  const counts = data.games;
  const rated = data.ratings.reduce((sum, r) => sum + r.games, 0);
  $("about").replaceChildren(
    data.bot ? "A program's account (a bot). " : "",
    `Playing since ${when(data.created)}: ${counts.total} game${counts.total === 1 ? "" : "s"}, ${rated} rated`,
    counts.playing ? `, ${counts.playing} being played` : "", ".");
  $("provisional-games").textContent = String(levels.scale.provisional_games);
  const rows = $("ratings").querySelector("tbody");
  if (rows) {
    rows.replaceChildren(...data.ratings.map((r) => html("tr", { "data-game": r.game },
      html("th", { scope: "row", text: gameName(r.game) }),
      html("td", { class: "rating", text: r.shown }),
      html("td", { text: r.about ? `about ${r.about}` : "" }),
      html("td", { text: String(r.games) }),
      html("td", {}, html("a", { href: `/leaderboard/${r.game}`, text: "leaderboard" })))));
  }
  $("no-ratings").hidden = data.ratings.length > 0;
  $("ratings-box").hidden = !data.ratings.length;
  $("plots").replaceChildren(...data.ratings.map((r) => {
    const own = levels.games.find((g) => g.game === r.game);
    return html("figure", { class: "plot-box" },
      html("figcaption", { text: `${gameName(r.game)}: ${r.shown}${r.about ? `, about ${r.about}` : ""}` }),
      plot(r, own ? own.levels : [], levels.scale.base));
  }));
  const record = $("record").querySelector("tbody");
  if (record) {
    record.replaceChildren(...data.record.map((r) => html("tr", {},
      html("th", { scope: "row", text: gameName(r.game) }),
      html("td", { text: r.level }),
      html("td", { text: r.level_rating === null ? "not rated" : String(r.level_rating) }),
      html("td", { text: String(r.won) }), html("td", { text: String(r.drawn) }), html("td", { text: String(r.lost) }))));
  }
  $("no-record").hidden = data.record.length > 0;
  $("record-box").hidden = !data.record.length;
  $("archive", HTMLAnchorElement).href = data.links.archive;
  $("profile").hidden = false;
}

/**
 * Who sat where, in words: accounts by name (a bot marked), the computer by its level.
 * @param {ProfileSeat[]} seats
 * @returns {(string | Node)[]}
 */
function seatsOf(seats) {
  /** @type {(string | Node)[]} */
  const out = [];
  seats.forEach((s, i) => {
    if (i) out.push(" vs ");
    if (s.player) {
      out.push(html("a", { href: `/players/${encodeURIComponent(s.player)}`, text: s.player }));
      if (s.bot) out.push(" ", botBadge());
    } else if (s.kind === "computer") out.push(`computer (${s.agent || s.name})`);
    else if (s.kind === "open") out.push("open seat");
    else out.push(s.name || "a guest");
  });
  return out;
}

/** @param {ProfileGame} game */
function gameLine(game) {
  const state = game.status === "finished" ? game.outcome || "finished" : game.status;
  return html("li", { "data-game": game.id },
    html("strong", { text: gameName(game.game) }),
    game.rated ? [" ", html("span", { class: "badge rated", text: "Rated" })] : null,
    ` \u00b7 ${state} \u00b7 `, ...seatsOf(game.seats),
    html("span", { class: "small", text: ` \u00b7 ${when(game.created)}` }), " ",
    game.replay ? [html("a", { href: game.replay, class: "replay-link", text: "replay" }), " "] : null,
    game.record ? html("a", { href: game.record, class: "record-link", download: `${game.game}-${game.id}.json`, text: "record" }) : null,
    game.status !== "finished" ? html("a", { href: `/play/${game.id}`, class: "watch-link", text: "watch" }) : null,
    game.status !== "finished" && owner && game.seat !== null
      ? [" ", html("button", { type: "button", class: "link open-seat", text: "play your seat here", onclick: () => openSeat(game.id) })]
      : null);
}

/**
 * Open the owner's seat of a game in this browser: a fresh token for it (the one kept elsewhere
 * stops opening it), kept here as any seat is.
 * @param {string} id
 */
async function openSeat(id) {
  try {
    /** @type {import("/web/types.js").JoinedSeat} */
    const seat = await postJson(`/api/games/${id}/seat`);
    keep({ game: seat.id, seat: seat.seat, token: seat.token });
    location.href = seat.link;
  } catch (error) {
    $("error").textContent = `Could not open your seat: ${error instanceof Error ? error.message : error}`;
  }
}

/** @param {boolean} more  the next, older page (else the newest) */
async function showGames(more) {
  if (!profile) return;
  const query = more && older !== null ? `?before=${older}` : "";
  const asked = ++listed;
  try {
    /** @type {import("/web/types.js").ProfileGames} */
    const page = await getJson(`${profile.links.games}${query}`);
    if (asked !== listed) return;  // asked again meanwhile (signed in or out): that answer draws
    const list = $("games");
    if (!more) list.replaceChildren();
    list.append(...page.games.map(gameLine));
    if (!list.children.length) list.append(html("li", { text: "No game yet." }));
    older = page.next;
    $("more").hidden = older === null;
  } catch (error) {
    $("error").textContent = `The games could not be read: ${error instanceof Error ? error.message : error}`;
  }
}

// --- the owner's tools ---------------------------------------------------------------------

/** @param {import("/web/types.js").Me | null} account */
function showOwner(account) {
  const mine = !!account && !!profile && account.name.toLowerCase() === profile.name.toLowerCase();
  if (mine !== owner) {
    owner = mine;
    showGames(false);  // the owner's games offer to play its seats here
  }
  $("owner").hidden = !mine;
  $("owner-email").textContent = mine && account ? `Signed in with ${account.email} (seen by nobody else).` : "";
  if (!mine) {
    $("token", HTMLInputElement).value = "";
    $("token-box").hidden = true;
  }
}

/** @param {SubmitEvent} event */
async function changePassword(event) {
  event.preventDefault();
  const current = $("password-current", HTMLInputElement);
  const fresh = $("password-new", HTMLInputElement);
  const again = $("password-again", HTMLInputElement);
  const said = $("password-said");
  said.className = "error";
  if (!current.value || !fresh.value) {
    said.textContent = "Both the current and the new password are needed.";
    return;
  }
  if (fresh.value !== again.value) {
    said.textContent = "The new password and its repetition differ.";
    again.focus();
    return;
  }
  const body = { current: current.value, new: fresh.value };
  for (const box of [current, fresh, again]) box.value = "";
  try {
    await postJson("/api/account/password", body);
    said.className = "";
    said.textContent = "Password changed; every other browser signed in to this account is signed out.";
  } catch (error) {
    said.textContent = error instanceof Error ? error.message : String(error);
    current.focus();
  }
}

async function makeToken() {
  $("token-error").textContent = "";
  try {
    /** @type {{token: string}} */
    const made = await postJson("/api/account/tokens");
    const box = $("token", HTMLInputElement);
    box.value = made.token;
    $("token-box").hidden = false;
    $("token-said").textContent = "";
    box.focus();
    box.select();
  } catch (error) {
    $("token-error").textContent = error instanceof Error ? error.message : String(error);
  }
}

async function copyToken() {
  const box = $("token", HTMLInputElement);
  box.select();
  try {
    await navigator.clipboard.writeText(box.value);
    $("token-said").textContent = "Copied.";
  } catch {
    // Without the clipboard (a page not served over HTTPS), the text is selected for Ctrl+C.
    $("token-said").textContent = "Selected: copy it with Ctrl+C (\u2318C).";
  }
}

async function start() {
  try {
    /** @type {[Profile, import("/web/types.js").Levels, import("/web/types.js").Catalog]} */
    const [data, levels, catalog] = await Promise.all([
      getJson(`/api/players/${encodeURIComponent(wanted)}`), getJson("/api/levels"), getJson("/api/catalog")]);
    for (const game of catalog.games) names.set(game.id, game.name);
    profile = data;
    showProfile(data, levels);
  } catch (error) {
    $("title").textContent = "No such player";
    $("error").textContent = error instanceof Error ? error.message : String(error);
    return;
  }
  await showGames(false);
  onAccount(showOwner);
}

$("more").addEventListener("click", () => showGames(true));
$("password-form").addEventListener("submit", changePassword);
$("make-token").addEventListener("click", makeToken);
$("copy-token").addEventListener("click", copyToken);
start();
