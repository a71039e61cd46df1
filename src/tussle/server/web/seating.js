// @ts-check
// The home page's seats of a new game: which seat the maker takes (by its number and the game's name
// for it, a colour say; or "random", which the server draws: the request only asks for a shuffle), and, for "each seat as I choose", who sits in each other seat: a friend (an invitation
// link), an open seat (listed in the lobby), or the computer at one of the game's levels. The common
// cases (against the computer, a friend, anyone) fill every other seat alike, as one choice.
import { byId as $, html } from "/web/board.js";

/** @typedef {import("/web/types.js").CatalogGame} CatalogGame */
/** @typedef {{kind: "person" | "computer" | "invite" | "open", name?: string, agent?: string}} SeatAsked */

const RANDOM = "random";

/**
 * What a seat is called in the form: its number from 1, and the game's own name for it where the
 * game has one (White, Black; p0 in Fight!, as its messages say).
 * @param {CatalogGame} game
 * @param {number} seat
 * @returns {string}
 */
function seatLabel(game, seat) {
  const name = (game.seat_names || [])[seat];
  return name && name !== `player ${seat}` ? `${name} (seat ${seat + 1})` : `Seat ${seat + 1}`;
}

/**
 * Fill the seat choices for `game` with `players` players, keeping the choices made where they fit.
 * @param {CatalogGame} game
 * @param {number} players
 */
export function showSeats(game, players) {
  const mine = $("my-seat", HTMLSelectElement);
  const was = mine.value;
  mine.replaceChildren(
    ...Array.from({ length: players }, (_, seat) => html("option", { value: String(seat), text: seatLabel(game, seat) })),
    html("option", { value: RANDOM, text: "random (drawn by the server)" }));
  mine.value = was === RANDOM || Number(was) < players ? was || "0" : "0";
  const list = $("seat-list");
  const before = [...list.querySelectorAll("select")].map((s) => /** @type {HTMLSelectElement} */ (s).value);
  const level = game.levels[Math.floor(game.levels.length / 2)] || "";
  list.replaceChildren();
  for (let other = 0; other < players - 1; other++) {
    const id = `seat-${other}`;
    /** @type {HTMLSelectElement} */
    const select = html("select", { id, name: id },
      game.levels.map((l) => html("option", { value: `computer:${l}`, text: `the computer, ${l}` })),
      html("option", { value: "invite", text: "a friend (an invitation link)" }),
      html("option", { value: "open", text: "an open seat (in the lobby)" }));
    const kept = before[other];
    select.value = kept && [...select.options].some((o) => o.value === kept) ? kept : `computer:${level}`;
    list.append(html("p", {}, html("label", { for: id, id: `${id}-label` }), " ", select));
  }
  labelSeats(game);
  // A form the browser restored (back, then forward) may come back with "each seat" chosen.
  const checked = document.querySelector("input[name=opponent]:checked");
  showChoices(checked instanceof HTMLInputElement ? checked.value : "computer");
}

/**
 * Name each other seat's choice by the seat it fills, now that the maker's seat is known.
 * @param {CatalogGame} game
 */
export function labelSeats(game) {
  const mine = $("my-seat", HTMLSelectElement).value;
  const at = mine === RANDOM ? null : Number(mine);
  for (const label of $("seat-list").querySelectorAll("label")) {
    const other = Number(label.id.split("-")[1]);
    label.textContent = at === null ? `Another player ${other + 1}` : seatLabel(game, other < at ? other : other + 1);
  }
}

/**
 * Show the choices that apply to `opponent`: each seat's own (for "mixed"), the maker's seat (not
 * at one screen, where the players take turns at it).
 * @param {string} opponent
 */
export function showChoices(opponent) {
  $("seats-box").hidden = opponent !== "mixed";
  $("my-seat-box").hidden = opponent === "hotseat";
}

/**
 * The seats to ask the server for, in order, and whether it should deal them at random.
 * @param {string} opponent  the form's choice: computer, hotseat, friend, lobby or mixed
 * @param {string} level  the computer's level, for "computer"
 * @param {number} players
 * @param {string} name  the maker's name ("" for none: the server names the seat)
 * @returns {{seats: SeatAsked[], shuffle: boolean}}
 */
export function seatsAsked(opponent, level, players, name) {
  /** @type {SeatAsked[]} */
  const others = [];
  const friends = opponent === "friend" ? players - 1
    : opponent === "mixed" ? [...$("seat-list").querySelectorAll("select")].filter((s) => /** @type {HTMLSelectElement} */ (s).value === "invite").length
      : 0;
  for (let other = 0; other < players - 1; other++) {
    const choice = opponent === "mixed" ? $(`seat-${other}`, HTMLSelectElement).value
      : opponent === "computer" ? `computer:${level}`
        : opponent === "friend" ? "invite" : opponent === "lobby" ? "open" : "person";
    if (choice.startsWith("computer:")) others.push({ kind: "computer", agent: choice.slice("computer:".length) });
    // A friend's seat is kept for whoever holds its invitation's secret, and never listed; the
    // friend's own name replaces this one when they take it.
    else if (choice === "invite") {
      const number = others.filter((s) => s.kind === "invite").length + 1;
      others.push({ kind: "invite", name: friends > 1 ? `friend ${number}` : "friend" });
    } else if (choice === "open") others.push({ kind: "open" });
    else others.push({ kind: "person", name: `player ${other + 2}` });
  }
  if (opponent === "hotseat") return { seats: [{ kind: "person", name: name || "player 1" }, ...others], shuffle: false };
  /** @type {SeatAsked} */
  const me = name ? { kind: "person", name } : { kind: "person" };
  const mine = $("my-seat", HTMLSelectElement).value;
  if (mine === RANDOM) return { seats: [me, ...others], shuffle: true };
  const at = Math.min(Number(mine) || 0, others.length);
  return { seats: [...others.slice(0, at), me, ...others.slice(at)], shuffle: false };
}
