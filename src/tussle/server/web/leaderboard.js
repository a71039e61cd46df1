// @ts-check
// A game's leaderboard (/leaderboard/<game>): the accounts with a rated game, highest rating first,
// and the computer levels in their places among them, on the same scale. A bot is marked; every
// name leads to its profile.
import { byId as $, html } from "/web/board.js";
import { getJson } from "/web/api.js";

/** @typedef {import("/web/types.js").Leaderboard} Leaderboard */

const game = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");

/**
 * The rows: players by rating, each level just above the first player rated below it.
 * @param {Leaderboard} board
 * @returns {HTMLTableRowElement[]}
 */
function rows(board) {
  const levels = [...board.levels].sort((a, b) => b.rating - a.rating);
  /** @type {HTMLTableRowElement[]} */
  const out = [];
  let next = 0;
  const levelRow = (/** @type {import("/web/types.js").LevelRating} */ l) => html("tr", { class: "level-row", "data-level": l.level },
    html("td", { text: "\u2014" }),
    html("th", { scope: "row" }, html("span", { class: "badge computer", text: "computer" }), ` ${l.level}`),
    html("td", { class: "rating", text: String(l.rating) }),
    html("td", { text: "" }), html("td", { text: "" }));
  for (const player of board.players) {
    while (next < levels.length && levels[next].rating > player.rating) out.push(levelRow(levels[next++]));
    out.push(html("tr", { "data-player": player.name },
      html("td", { text: String(player.place) }),
      html("th", { scope: "row" },
        html("a", { href: `/players/${encodeURIComponent(player.name)}`, text: player.name }),
        player.bot ? [" ", html("span", { class: "badge bot", title: "a program's account", text: "BOT" })] : null),
      html("td", { class: "rating", text: player.shown }),
      html("td", { text: String(player.games) }),
      html("td", { text: player.about ? `about ${player.about}` : "" })));
  }
  while (next < levels.length) out.push(levelRow(levels[next++]));
  return out;
}

async function start() {
  try {
    /** @type {[Leaderboard, import("/web/types.js").Catalog]} */
    const [board, catalog] = await Promise.all([getJson(`/api/leaderboard/${encodeURIComponent(game)}`), getJson("/api/catalog")]);
    const select = $("board-game", HTMLSelectElement);
    select.replaceChildren(...catalog.games.map((g) => html("option", { value: g.id, text: g.name })));
    select.value = board.game;
    select.addEventListener("change", () => { location.href = `/leaderboard/${select.value}`; });
    const name = (catalog.games.find((g) => g.id === board.game) || { name: board.game }).name;
    $("title").textContent = `Leaderboard: ${name}`;
    document.title = `tussle: ${name} leaderboard`;
    $("board-rows").replaceChildren(...rows(board));
    $("no-players").hidden = board.players.length > 0;
  } catch (error) {
    $("title").textContent = "No such leaderboard";
    $("error").textContent = error instanceof Error ? error.message : String(error);
  }
}
start();
