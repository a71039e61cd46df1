// @ts-check
// The game page: one seat's view (or a spectator's), drawn by the game's own module, played by
// pointing or by typing notation. The page reconnects by itself and the server sends the whole view
// again. What follows '#' in the address (never sent to the server's log) says who is looking:
//   #<token>          a seat's secret token: the WebSocket's hello sends it, and nothing else does;
//   #invite=<secret>  an invitation: traded at once for a seat (POST join), whose page replaces it;
//   #table            a game at one screen (hot seat): its handle stays in this browser's storage;
//   nothing           a spectator.
//
// At one screen the server sends a seat's view only while that seat is to act, and covers the
// table the moment it is done. In a game with secrets the page then drops everything of that view
// (the board, the moves, the typed text, even the drawing module, which may keep a half-made
// move) and shows the cover until the next player presses it; a game of perfect information has
// nothing to hide, so the next player is seated at once and the board keeps one orientation.
import { byId as $, closeMenu, drawInto, html } from "/web/board.js";
import { invitesOf, keep, seatsOf, tableOf } from "/web/seats.js";
import { forgetStory, lookingBack, looked, startStory, tellStory } from "/web/story.js";
import { askName, inTheirNames } from "/web/name.js";
import { confirmsSecrets, dropChoice, holdChoice, offerConfirm, showThinking } from "/web/hands.js";
import { followClocks, stopClocks } from "/web/clock.js";
import { showEndings } from "/web/endings.js";
import { chatMessage, chatRefused, chatView, startChat } from "/web/chat.js";
import { post } from "/web/api.js";

/** @typedef {import("/web/types.js").ViewMessage} ViewMessage */
/** @typedef {import("/web/types.js").CoverMessage} CoverMessage */
/** @typedef {import("/web/types.js").ServerMessage} ServerMessage */
/** @typedef {import("/web/types.js").Move} Move */
/** @typedef {import("/web/types.js").Player} Player */
/** @typedef {import("/web/types.js").Refusal} Refusal */

const gameId = location.pathname.split("/").filter(Boolean).pop() || "";
const hash = decodeURIComponent(location.hash.slice(1));
const SECRET = /^[A-Za-z0-9_-]{8,100}$/;
const invitation = hash.startsWith("invite=") ? hash.slice("invite=".length) : null;
const atTable = hash === "table";
const table = atTable ? tableOf(gameId) : null;
let token = SECRET.test(hash) ? hash : null;

/** @type {WebSocket | null} */
let socket = null;
let tries = 0;
/** @type {import("/web/types.js").Drawing | null} */
let drawing = null;
/** @type {import("/web/types.js").CatalogGame | null} */
let info = null;
/** @type {string | null} the game's id, for the drawing's module */
let kind = null;
/** @type {ViewMessage | null} */
let lastView = null;
/** @type {import("/web/types.js").JSONObject | null} */
let previous = null;
let leaving = false;
let kept = false;
// At a table: the seat the page asked to sit (null while covered); views of any other are dropped.
/** @type {number | null} */
let sitting = null;
let perfect = false;
let fresh = 0;

function gameName() {
  return info ? info.name : kind || "a game";
}

/**
 * What a seat is called: its player's name, or its number.
 * @param {{seat: number | null, seats: import("/web/types.js").Seat[]}} view  a view, or a cover
 * @param {Player} seat
 * @returns {string}
 */
function seatName(view, seat) {
  if (seat === "chance") return "chance";
  const row = view.seats.find((s) => s.seat === seat);
  const name = row && row.name ? row.name : `seat ${seat}`;
  return seat === view.seat && !atTable ? `${name} (you)` : name;
}

/**
 * @param {{seat: number | null, seats: import("/web/types.js").Seat[], result: import("/web/types.js").Result}} view
 * @returns {string}
 */
function resultLine(view) {
  const { winner, ranking } = view.result;
  // No lone winner is a draw for the rules, but where some seats share the first place and others
  // do not (a Fight! player out of time), the page says who shares it.
  const first = (ranking || []).flatMap((place, seat) => (place === 1 ? [seat] : []));
  const who = winner !== null && winner !== undefined ? `${seatName(view, winner)} wins`
    : first.length && first.length < ranking.length ? `${first.map((s) => seatName(view, s)).join(" and ")} share the win`
      : "a draw";
  // The reason is the game's own words: each seat's person is named beside the game's name for it.
  const reason = view.result.reason ? inTheirNames(view.result.reason, info ? info.seat_names : [], view.seats) : "";
  return `Game over: ${reason ? reason + "; " : ""}${who}.`;
}

/**
 * @param {ViewMessage} view
 * @returns {string}
 */
function statusLine(view) {
  if (view.result) return resultLine({ ...view, result: view.result });
  if (view.status === "waiting") {
    if (view.seats.some((s) => s.kind === "invite")) return "Waiting for your friend to open the invitation.";
    if (view.seats.some((s) => s.kind === "reserved")) return "Waiting for the rematch to be accepted.";
    return "Waiting for a player to take the open seat.";
  }
  if (view.your_turn) return atTable && view.seat !== null ? `${seatName(view, view.seat)}: your move.` : "Your move.";
  const acting = view.to_act.filter((p) => p !== "chance").map((p) => seatName(view, p));
  return acting.length ? `Waiting for ${acting.join(" and ")}.` : "Waiting for the others.";
}

/** @type {Partial<Record<import("/web/types.js").SeatKind, string>>} */
const WAITING_SEAT = { open: "open seat", invite: "invited", reserved: "rematch not accepted yet" };

/** @param {ViewMessage} view */
function showPlayers(view) {
  const list = $("players");
  list.replaceChildren();
  for (const seat of view.seats) {
    const row = (view.clocks || []).find((c) => c.seat === seat.seat);
    const acting = view.to_act.includes(seat.seat);
    const here = WAITING_SEAT[seat.kind]
      || (seat.connected ? "connected" : "not connected");
    // An account's name leads to its profile; a program's account is marked wherever it plays.
    const name = seatName(view, seat.seat);
    list.append(html("li", { class: acting ? "acting" : "" },
      html("span", { class: `dot ${seat.connected ? "on" : "off"}`, "aria-hidden": "true" }),
      seat.account && seat.name ? html("a", { href: `/players/${encodeURIComponent(seat.name)}`, text: name }) : name,
      seat.bot ? [" ", html("span", { class: "badge bot", title: "a program's account", text: "BOT" })] : null,
      `${seat.kind === "computer" ? " (computer)" : ""}: ${here}`,
      row ? html("span", { class: "clock", "data-clock-seat": seat.seat }) : null,  // clock.js fills it
      acting && !view.result ? html("span", { class: "to-act", text: " \u2014 to act" }) : null));
  }
}

/** @param {ViewMessage} view */
function showMoves(view) {
  // The lines are the game's own words: each seat's person is named beside the game's name for it.
  const names = info ? info.seat_names : [];
  const story = view.story && view.story.map((e) => ({ ...e, lines: e.lines.map((w) => inTheirNames(w, names, view.seats)) }));
  tellStory({ ...view, story });  // story.js: the plain-words lines, numbered, each a look back
}

function turnsBoard() {
  return localStorage.getItem("tussle-turn-board") === "1";
}

/** @param {ViewMessage} view */
function draw(view) {
  if (!drawing || lookingBack()) return;  // a past position stays drawn until "Back to the game"
  // The legal actions twice, index for index: their notation (to show and send) and their
  // structured form (to draw them: a game's drawing never parses notation).
  const legal = view.your_turn && view.legal && view.legal.actions ? view.legal.actions : null;
  const moves = view.your_turn && view.legal && view.legal.moves ? view.legal.moves : null;
  // At one screen the board keeps one side down, unless the players ask it to turn to each.
  const bottom = atTable && perfect && !turnsBoard() ? 0 : view.seat;
  /** @type {import("/web/types.js").View} */
  const context = {
    observation: view.observation, text: view.text, seat: view.seat, bottom, legal, moves, your_turn: !!view.your_turn,
    legal_count: view.your_turn && view.legal ? view.legal.count : 0,
    previous, result: view.result, seats: view.seats, replay: false,
  };
  closeMenu();
  drawInto($("board"), drawing, context, { act: choose });
  previous = view.observation;
}

/**
 * A past position, as the server says this seat saw it then: drawn with nothing to play.
 * @param {import("/web/types.js").LookMessage} look
 */
function drawLook(look) {
  if (!drawing || !lastView) return;
  const bottom = atTable && perfect && !turnsBoard() ? 0 : look.seat;
  closeMenu();
  drawInto($("board"), drawing, {
    observation: look.observation, text: look.text, seat: look.seat, bottom, legal: null, moves: null,
    your_turn: false, legal_count: 0, previous: null, result: null, seats: lastView.seats, replay: false,
  }, { act: () => {} });
  $("board-text").textContent = look.text;
}

/** @param {ViewMessage} view */
function showInvites(view) {
  // The invitations this browser made, while their seats wait: apart from the watch link.
  const waiting = new Set(view.seats.filter((s) => s.kind === "invite").map((s) => s.seat));
  const invites = view.seat === null ? [] : invitesOf(gameId).filter((i) => waiting.has(i.seat));
  const box = $("invites");
  box.replaceChildren();
  for (const invite of invites) {
    const id = `invite-${invite.seat}`;
    const name = seatName(view, invite.seat);
    const input = html("input", { id, class: "invite", readonly: true, value: `${location.origin}${invite.link}` });
    box.append(html("p", { class: "invite-row" },
      html("label", { for: id, text: `The invitation to ${name}'s seat:` }), input,
      html("button", { type: "button", text: "Copy", onclick: () => copy(input) })));
  }
  $("share").hidden = !invites.length;
}

/** @param {HTMLInputElement} input */
async function copy(input) {
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    // No clipboard for a page served over plain HTTP: the text stays selected for Ctrl+C.
  }
}

/** @param {ViewMessage} view */
function show(view) {
  if (view.rematch && !token && !atTable && !invitation && followRematch(view.rematch, !!lastView && !lastView.result)) return;
  lastView = view;
  if (token && view.seat !== null && !kept) {
    keep({ game: gameId, seat: view.seat, token });  // a seat opened from a link is kept too
    kept = true;
  }
  const who = view.seat === null ? (atTable ? "game over" : "watching") : seatName(view, view.seat);
  $("title").textContent = `${gameName()}${atTable ? " at one screen" : ""}: ${who}`;
  document.title = `tussle: ${gameName()}`;
  chatView(view);  // the chat's room, and the title's sign of a move to make
  $("status").textContent = statusLine(view);
  showThinking(view, (seat) => seatName(view, seat));
  if (!view.your_turn) dropChoice();  // a choice held for confirming stays while it may still be sent
  offerConfirm(!!info && info.information !== "perfect" && view.seat !== null && !view.result);
  if (!lookingBack()) $("board-text").textContent = view.text;
  showPlayers(view);
  $("rated-line").hidden = !view.rated;
  if (view.rated && view.result && view.result.termination !== "aborted") showRatingChanges(view);
  followClocks(view);
  showMoves(view);
  showInvites(view);
  draw(view);
  const move = $("move");
  move.hidden = !view.your_turn;
  const legal = $("legal");
  const options = $("legal-list");
  legal.replaceChildren();
  options.replaceChildren();
  if (view.your_turn && view.legal) {
    if (view.legal.actions) {
      for (const action of view.legal.actions.slice(0, 300)) {
        legal.append(html("button", { type: "button", text: action, onclick: () => choose(action) }));
        options.append(html("option", { value: action }));
      }
    } else {
      legal.textContent = `${view.legal.count} legal actions: write yours in the game's notation.`;
    }
  }
  // A seat ends the game itself: abort or resign, a draw offer or its answer, a claim.
  showEndings(view, send, (seat) => seatName(view, seat));
  $("after").hidden = !view.result || (view.seat === null && !atTable);
  if (view.result) {
    $("replay-link", HTMLAnchorElement).href = `/replay/${gameId}`;
    $("record-link", HTMLAnchorElement).href = `/api/games/${gameId}/record`;
  }
  if (atTable) {
    $("hide").hidden = perfect || view.seat === null;
    $("turn-box").hidden = !perfect || !(drawing && drawing.orientable);
    $("table-tools").hidden = $("hide").hidden && $("turn-box").hidden;
  }
}

// --- a rated game's ratings ------------------------------------------------------------

let ratingsAsked = false;

/**
 * Each account's rating before and after this game, read from its profile's history (the server
 * rates the game in the transaction that stores its result, so the profile has it by now); null
 * while it does not have it.
 * @param {string} name
 * @param {number} base  the rating of an account's first game before it
 * @returns {Promise<{before: number, after: number, shown: string} | null>}
 */
async function ratingChange(name, base) {
  /** @type {import("/web/types.js").Profile} */
  const profile = await getJSON(`/api/players/${encodeURIComponent(name)}`);
  const rating = profile.ratings.find((r) => r.game === kind);
  const history = rating && rating.history ? rating.history : [];
  const at = history.findIndex((p) => p.game_id === gameId);
  if (!rating || at < 0) return null;
  const after = history[at].rating;
  return { before: at > 0 ? history[at - 1].rating : base, after, shown: at === history.length - 1 ? rating.shown : String(after) };
}

/**
 * Under the players, once a rated game is over: how each account's rating changed.
 * @param {ViewMessage} view
 */
async function showRatingChanges(view) {
  if (ratingsAsked) return;
  ratingsAsked = true;
  const accounts = view.seats.filter((s) => s.account && s.name);
  if (!accounts.length) return;
  const list = $("rating-changes");
  list.hidden = false;
  list.replaceChildren(html("li", { text: "Ratings: being updated\u2026" }));
  /** @type {import("/web/types.js").Levels | null} */
  const levels = await getJSON("/api/levels").catch(() => null);
  const base = levels ? levels.scale.base : 1500;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const changes = await Promise.all(accounts.map((s) => ratingChange(s.name || "", base)));
      if (changes.every((c) => c !== null)) {
        list.replaceChildren(...accounts.map((seat, i) => {
          const change = /** @type {{before: number, after: number, shown: string}} */ (changes[i]);
          const gained = change.after - change.before;
          return html("li", { "data-player": seat.name },
            html("a", { href: `/players/${encodeURIComponent(seat.name || "")}`, text: seatName(view, seat.seat) }),
            `: ${change.before} \u2192 `, html("strong", { class: "rating-after", text: change.shown }),
            ` (${gained >= 0 ? "+" : "\u2212"}${Math.abs(gained)})`);
        }));
        return;
      }
    } catch {
      // A profile not read this time: asked again below.
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  list.replaceChildren(html("li", { text: "The new ratings are not known yet: see the players' profiles." }));
}

// --- a game at one screen ------------------------------------------------------------

// Everything of the last seat's view leaves the page: what is drawn, listed, typed and kept.
function wipe() {
  closeMenu();
  stopClocks();
  dropChoice();
  lastView = null;
  previous = null;
  forgetStory();
  for (const id of ["board", "moves", "players", "legal", "legal-list", "board-text", "status", "error", "invites"]) {
    $(id).replaceChildren();
  }
  $("action", HTMLInputElement).value = "";
  $("move").hidden = true;
  $("after").hidden = true;
  $("table-tools").hidden = true;
  $("game").hidden = true;
  drawing = null;  // a new instance of the module for the next player: nothing the last one kept
}

/**
 * @param {CoverMessage} cover
 * @param {number} seat
 * @returns {string}
 */
function coverName(cover, seat) {
  const row = cover.seats.find((s) => s.seat === seat);
  return row && row.name ? row.name : `seat ${seat}`;
}

/** @param {CoverMessage} cover */
function covered(cover) {
  sitting = null;
  perfect = cover.perfect;
  $("title").textContent = `${gameName()} at one screen`;
  if (cover.result) {
    ended({ ...cover, result: cover.result });
    return;
  }
  if (perfect && lastView !== null) {
    // Nothing is hidden: the board stays, and the player to act sits down at once.
    if (cover.to_act.length) sit(cover.to_act[0]);
    else $("status").textContent = "Waiting.";
    return;
  }
  wipe();
  if (perfect && cover.to_act.length) {
    $("game").hidden = false;
    sit(cover.to_act[0]);
    return;
  }
  showCover(cover);
}

/** @param {CoverMessage} cover */
function showCover(cover) {
  $("pass").hidden = false;
  $("pass-error").textContent = "";
  const buttons = $("pass-buttons");
  buttons.replaceChildren();
  const names = cover.to_act.map((seat) => coverName(cover, seat));
  if (!names.length) {
    $("pass-title").textContent = "The screen is covered";
    $("pass-text").textContent = "Nobody at this screen is to act yet: waiting for the game to go on.";
    return;
  }
  $("pass-title").textContent = `Pass to ${names[0]}: press when only ${names[0]} is looking`;
  $("pass-text").textContent = "Nothing of anyone's game is on the screen until then.";
  cover.to_act.forEach((seat, i) => {
    const label = i === 0 ? `I am ${names[0]}: show my view` : `or show ${names[i]}'s view first`;
    buttons.append(html("button", { type: "button", id: i === 0 ? "pass-go" : null, class: i === 0 ? null : "link", text: label, onclick: () => sit(seat) }), " ");
  });
  $("pass-go").focus();
}

/** @param {number} seat */
async function sit(seat) {
  sitting = seat;
  if (!drawing) drawing = await import(`/draw/${kind}.js?sitting=${++fresh}`);
  send({ type: "sit", seat });
}

function hide() {
  sitting = null;
  wipe();
  $("pass").hidden = false;
  $("pass-title").textContent = "The screen is covered";
  $("pass-text").textContent = "";
  $("pass-buttons").replaceChildren();
  send({ type: "cover" });
}

/** @param {CoverMessage & {result: import("/web/types.js").Result}} cover */
async function ended(cover) {
  // The game is over: the board as a spectator sees it, and what comes after.
  wipe();
  $("pass").hidden = true;
  const answer = await fetch(`/api/games/${gameId}`);
  /** @type {ViewMessage} */
  const view = await answer.json();
  if (!answer.ok) {
    $("pass").hidden = false;
    $("pass-text").textContent = resultLine({ ...cover, seat: null });
    return;
  }
  drawing = await import(`/draw/${kind}.js?sitting=${++fresh}`);
  $("game").hidden = false;
  show(view);
}

/** @param {ViewMessage} view */
function seated(view) {
  if (view.seat !== sitting) return;  // a view sent before the screen was covered: not shown
  $("pass").hidden = true;
  $("game").hidden = false;
  show(view);
}

// --- the connection ------------------------------------------------------------------

/** Resign, or abort while every player has not moved yet, once the player confirms it. */
function endGame() {
  const abort = !!(lastView && lastView.abortable);
  const question = abort
    ? "Abort the game? It ends now and counts for nobody."
    : "Resign? You lose the game now.";
  if (!confirm(question)) return;
  send({ type: abort ? "abort" : "resign" });
}

/** @param {{type: string, [key: string]: unknown}} message */
function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  else say("Not connected: reconnecting, try again in a moment.");
}

/** @param {string} text */
function say(text) {
  if (atTable && !$("pass").hidden) $("pass-error").textContent = text;
  else $("error").textContent = text;
}

/**
 * An action chosen by pointing (on the board, or among all legal actions): held for the player to
 * confirm first in a game with secrets, when the player asks for that (hands.js).
 * @param {Move | string} action
 */
function choose(action) {
  if (confirmsSecrets() && info && info.information !== "perfect" && lastView && lastView.seat !== null) {
    holdChoice(action, lastView, () => act(action));
  } else act(action);
}

/**
 * Send an action: its notation (a string), or its structured form (an object from `moves`).
 * @param {Move | string} action
 */
function act(action) {
  $("error").textContent = "";
  closeMenu();
  send(typeof action === "string" ? { type: "action", action } : { type: "action", move: action });
}

function hello() {
  if (table) return { type: "hello", table };
  return token ? { type: "hello", token } : { type: "hello" };
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const opened = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}`);
  socket = opened;
  opened.addEventListener("open", () => {
    tries = 0;
    opened.send(JSON.stringify(hello()));
  });
  opened.addEventListener("message", (event) => {
    /** @type {ServerMessage} */
    const message = JSON.parse(event.data);
    if (message.type === "view") {
      if (atTable) seated(message);
      else show(message);
    } else if (message.type === "cover" && atTable) covered(message);
    else if (message.type === "error" && !chatRefused(message.error)) say(message.error);
    else if (message.type === "rematch" && !token && !atTable && !invitation) followRematch(message.game, true);
    else if (message.type === "rematch") offerRematch();
    else if (message.type === "look") looked(message);
    else if (message.type === "chat") chatMessage(message);
  });
  opened.addEventListener("close", () => {
    if (leaving) return;
    if (atTable && !perfect) {
      // Whoever sat here may have gone: the screen is covered until the server says who is to act.
      sitting = null;
      wipe();
      $("pass").hidden = false;
      $("pass-buttons").replaceChildren();
      $("pass-title").textContent = "The screen is covered";
      $("pass-text").textContent = "Connection lost: reconnecting…";
    } else {
      $("status").textContent = "Connection lost: reconnecting…";
      for (const dot of document.querySelectorAll("#players .dot")) dot.setAttribute("class", "dot off");
    }
    if (tries++ < 60) setTimeout(connect, Math.min(5000, 500 * tries));
    else (atTable && !perfect ? $("pass-text") : $("status")).textContent = "The connection is lost; reload the page to try again.";
  });
}

/**
 * A spectator who watched the game go to its end follows it to its rematch; one who came later is
 * offered a link to it.
 * @param {string} id  the rematch's
 * @param {boolean} watched
 * @returns {boolean} whether the page leaves
 */
function followRematch(id, watched) {
  if (watched) {
    leaving = true;
    if (socket) socket.close();
    location.href = `/play/${id}`;
    return true;
  }
  if (!document.getElementById("rematch-link")) {
    $("status").after(html("p", { id: "rematch-link" }, html("a", { href: `/play/${id}`, text: "Watch the rematch" })));
  }
  return false;
}

function offerRematch() {
  $("after").hidden = false;
  // At one screen the rematch is made once, by this table: it waits in "Your games".
  if (atTable) $("rematch").textContent = "The rematch is made: open it from Your games";
  else $("rematch").textContent = "Accept the rematch";
}

async function rematch() {
  if (atTable && $("rematch").textContent !== "Rematch") {
    location.href = "/";
    return;
  }
  const answer = await post(`/api/games/${gameId}/rematch`, { token: table || token });
  const data = await answer.json();
  if (!answer.ok) {
    $("after").append(html("p", { class: "error", text: /** @type {Refusal} */ (data).error || answer.statusText }));
    return;
  }
  /** @type {import("/web/types.js").Rematch} */
  const made = data;
  // The new seat (or table) is kept before the page leaves: closing the tab must not lose it.
  if ("table" in made) keep({ game: made.id, table: made.table });
  else keep({ game: made.id, seat: made.seat, token: made.token });
  leaving = true;
  if (socket) socket.close();
  location.href = "table" in made ? `/play/${made.id}#table` : made.link;
}

/**
 * Trade the invitation in the address for its seat.
 * @param {string} invitation
 * @returns {Promise<string | null>}  why it opens no seat, or null when it did
 */
async function acceptInvitation(invitation) {
  const name = await askName(gameId);  // asked first: a reload meanwhile still holds the invitation
  // The secret leaves the address at once, whatever the answer: a reload must not use it again.
  history.replaceState(null, "", `/play/${gameId}`);
  if (!SECRET.test(invitation)) return "this invitation link is cut short: ask for it again";
  const answer = await post(`/api/games/${gameId}/join`, { invite: invitation, name });
  const data = await answer.json();
  if (!answer.ok) return /** @type {Refusal} */ (data).error || answer.statusText;
  /** @type {import("/web/types.js").JoinedSeat} */
  const joined = data;
  keep({ game: joined.id, seat: joined.seat, token: joined.token });
  kept = true;
  token = joined.token;
  history.replaceState(null, "", `/play/${gameId}#${joined.token}`);
  return null;
}

/**
 * GET a JSON answer; a refusal throws its one line.
 * @param {string} path
 * @returns {Promise<any>}
 */
async function getJSON(path) {
  const answer = await fetch(path);
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Error(/** @type {Refusal} */ (data).error || answer.statusText);
  return data;
}

/** @param {string} text */
function notice(text) {
  $("notice").textContent = text;
  $("notice").hidden = false;
}

async function start() {
  if (invitation !== null) {
    const held = seatsOf(gameId);
    let why = null;
    if (held.length) {
      // This browser plays here already (its maker opened the link to try it?): the invitation
      // stays for the friend, and the page opens the seat held.
      history.replaceState(null, "", `/play/${gameId}#${held[0].token}`);
      token = held[0].token;
      notice("You hold a seat of this game already: the invitation is left for your friend.");
    } else {
      why = await acceptInvitation(invitation);
    }
    if (why) notice(`The invitation opens no seat: ${why}. You are watching.`);
  }
  /** @type {import("/web/types.js").Catalog} */
  let catalog;
  /** @type {ViewMessage} */
  let module;
  try {
    [catalog, module] = await Promise.all([getJSON("/api/catalog"), getJSON(`/api/games/${gameId}`)]);
  } catch (error) {
    $("title").textContent = "The game could not be opened";
    notice(`${error instanceof Error ? error.message : error}: reload the page to try again.`);
    return;
  }
  const game = module.game_id;
  kind = game;
  info = catalog.games.find((g) => g.id === game) || null;
  $("rules-link", HTMLAnchorElement).href = `/api/rules/${kind}`;
  $("watch-link", HTMLAnchorElement).href = `/play/${gameId}`;
  $("share-watch", HTMLAnchorElement).href = `/play/${gameId}`;
  if (atTable && !table) {
    $("title").textContent = `${gameName()} at one screen`;
    $("game").hidden = true;
    notice("This browser holds no handle for this game at one screen: it stays in the browser that made the game. "
      + "Import your seats on the home page to play here, or watch.");
    $("notice").append(" ", html("a", { href: `/play/${gameId}`, text: "Watch it" }));
    return;
  }
  if (atTable) {
    // Covered until the server says who is to act; nothing is drawn before a player sits.
    $("game").hidden = true;
    $("pass").hidden = false;
    $("title").textContent = `${gameName()} at one screen`;
  } else {
    drawing = await import(`/draw/${kind}.js`);
  }
  document.title = `tussle: ${gameName()}`;
  connect();
}

$("act").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("action", HTMLInputElement);
  if (input.value.trim()) act(input.value.trim());
  input.value = "";
});
$("rematch").addEventListener("click", rematch);
$("end-game").addEventListener("click", endGame);
$("hide").addEventListener("click", hide);
const turnBoard = $("turn-board", HTMLInputElement);
turnBoard.checked = turnsBoard();
turnBoard.addEventListener("change", () => {
  localStorage.setItem("tussle-turn-board", turnBoard.checked ? "1" : "0");
  if (lastView) {
    previous = null;
    draw(lastView);
  }
});
document.addEventListener("click", (event) => { if (!(event.target instanceof Element && event.target.closest(".menu"))) closeMenu(); });
// Another link of this game pasted into the address changes only what follows '#': open it afresh.
window.addEventListener("hashchange", () => location.reload());
if (atTable) {
  // A page left for another may be kept whole in the browser's back-forward cache: it keeps
  // nothing of the seated player's view, and comes back covered.
  window.addEventListener("pagehide", () => {
    sitting = null;
    wipe();
    $("pass").hidden = false;
    $("pass-buttons").replaceChildren();
  });
  window.addEventListener("pageshow", (event) => { if (event.persisted) location.reload(); });
}
startStory({ send, drawPast: drawLook, drawPresent: () => {
  previous = null;
  if (lastView) {
    draw(lastView);
    $("board-text").textContent = lastView.text;
  }
} });
startChat(send);
start();
