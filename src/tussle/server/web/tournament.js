// @ts-check
// A tournament's page (/tournaments/<id>): its bracket (single elimination) or its standings and
// rounds (Swiss), live: read again every few seconds until it is over. A signed-in account may
// register (with a power in FITE) or withdraw while it registers, its maker may start it, and an
// entrant whose game is being played gets "Play your game": the server gives the account a fresh
// token for its seat (POST /api/games/<id>/seat) and the game's page opens on it.
import { html } from "/web/board.js";
import { getJson, postJson } from "/web/api.js";
import { onAccount } from "/web/account.js";

/** @typedef {import("/web/tourney-types.js").Tournament} Tournament */
/** @typedef {import("/web/tourney-types.js").TournamentBoard} TournamentBoard */
/** @typedef {import("/web/tourney-types.js").TournamentEntrant} TournamentEntrant */

/** How often the page reads the tournament again while it is on, in ms. */
const EVERY = 3000;

const id = decodeURIComponent(location.pathname.split("/").pop() || "");

/**
 * @param {string} name
 * @returns {HTMLElement}
 */
function $(name) {
  const element = document.getElementById(name);
  if (!element) throw new Error(`no element #${name}`);
  return element;
}

/** @type {Tournament | null} */
let shown = null;
/** @type {ReturnType<typeof setInterval> | null} */
let timer = null;

/**
 * An entrant's name as the page shows it: a bot marked, a computer's level, a power.
 * @param {Tournament} t
 * @param {number} number
 * @returns {HTMLElement}
 */
function who(t, number) {
  const e = t.entrants.find((x) => x.number === number);
  if (!e) return html("span", { text: `entrant ${number}` });
  return html("span", { class: "entrant" },
    e.computer === null ? html("a", { href: `/players/${encodeURIComponent(e.name)}`, text: e.name }) : e.name,
    e.bot ? [" ", html("span", { class: "badge bot", text: "BOT" })] : null,
    e.power ? html("span", { class: "small", text: ` (${e.power})` }) : null);
}

/**
 * The games of a pairing, as links to watch or replay them: "game 1: drawn, game 2".
 * @param {TournamentBoard} board
 * @returns {HTMLElement}
 */
function games(board) {
  return html("span", { class: "small" }, ...board.games.map((g, i) => [
    i ? ", " : "",
    html("a", { href: g.status === "finished" ? `/replay/${g.id}` : `/play/${g.id}`,
      text: board.games.length > 1 ? `game ${g.attempt}` : "the game" }),
    g.status !== "finished" ? " (playing)" : g.points && !g.points.includes(1) ? " (drawn)" : "",
  ]));
}

/** @param {Tournament} t */
function bracket(t) {
  const rounds = t.rounds || t.rounds_played.length;
  const columns = [];
  for (let r = 1; r <= Math.max(rounds, t.rounds_played.length); r++) {
    const played = t.rounds_played.find((x) => x.round === r);
    const boards = played ? played.boards.map((b) => html("li", { class: `match${b.bye ? " bye" : ""}` },
      ...b.entrants.map((n) => html("div", { class: b.winner === n ? "won" : b.winner !== null ? "lost" : "" },
        who(t, n), b.winner === n ? html("span", { class: "tick", "aria-label": "goes on", text: " \u2713" }) : null)),
      b.bye ? html("div", { class: "small", text: "a bye: goes on without a fight" }) : games(b)))
      : [html("li", { class: "match small", text: "to be drawn" })];
    columns.push(html("section", { class: "bracket-round", "aria-label": `round ${r}` },
      html("h3", { text: r === rounds && t.kind === "elimination" ? `Round ${r} (the final)` : `Round ${r}` }),
      html("ol", { class: "bracket-matches" }, ...boards)));
  }
  if (t.champion !== null) {
    columns.push(html("section", { class: "bracket-round champion", "aria-label": "the champion" },
      html("h3", { text: "Champion" }), html("p", { class: "champion-name" }, who(t, t.champion))));
  }
  $("bracket").replaceChildren(...columns);
}

/**
 * @param {number} x
 * @returns {string}
 */
function points(x) {
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}

/** @param {Tournament} t */
function standings(t) {
  $("standings-rows").replaceChildren(...(t.standings || []).map((s) => html("tr",
    { class: s.entrant === t.champion ? "champion" : "" },
    html("td", { text: s.rank }), html("td", null, who(t, s.entrant)), html("td", { text: points(s.points) }),
    html("td", { text: points(s.buchholz) }), html("td", { text: s.wins }), html("td", { text: s.byes }))));
  $("tiebreak").textContent = `Ties are broken by ${t.tiebreak || "buchholz"}. A win scores 1, a draw 1/2, a bye 1.`;
  $("swiss-rounds").replaceChildren(...t.rounds_played.map((r) => html("section", { "aria-label": `round ${r.round}` },
    html("h3", { text: `Round ${r.round}` }),
    html("ul", null, ...r.boards.map((b) => {
      if (b.bye) return html("li", null, who(t, b.entrants[0]), ": a bye (1 point)");
      const g = b.games[b.games.length - 1];
      const score = g.points ? ` ${points(g.points[0])}\u2013${points(g.points[1])} ` : " vs ";
      return html("li", null, who(t, b.entrants[0]), score, who(t, b.entrants[1]), " ", games(b));
    })))));
}

/**
 * @param {string} path
 * @param {unknown} [body]
 */
async function act(path, body = {}) {
  $("error").textContent = "";
  try {
    render(await postJson(`/api/tournaments/${encodeURIComponent(id)}/${path}`, body));
  } catch (error) {
    $("error").textContent = error instanceof Error ? error.message : String(error);
  }
}

/** @param {string} game */
async function play(game) {
  try {
    const seat = await postJson(`/api/games/${game}/seat`);
    location.assign(seat.link);
  } catch (error) {
    $("error").textContent = error instanceof Error ? error.message : String(error);
  }
}

/** @param {Tournament} t */
function actions(t) {
  const you = t.you;
  const out = [];
  if (t.status === "registering") {
    if (!you) {
      out.push(html("span", { class: "small", text: "Sign in (at the top of the page) to register." }));
    } else if (you.entrant === null) {
      /** @type {HTMLSelectElement | null} */
      const power = t.powers.length
        ? html("select", { id: "power", "aria-label": "your power" }, ...t.powers.map((p) => html("option", { value: p, text: p })))
        : null;
      if (power) out.push(html("label", { for: "power", text: "Your power" }), power);
      out.push(html("button", { type: "button", id: "register", text: "Register",
        onclick: () => act("join", power && power.value !== "none" ? { power: power.value } : {}) }));
    } else {
      out.push(html("span", { text: "You are registered." }),
        html("button", { type: "button", id: "withdraw", class: "quiet", text: "Withdraw", onclick: () => act("leave") }));
    }
    if (you && you.maker) {
      out.push(html("button", { type: "button", id: "start", text: "Start the tournament now", onclick: () => act("start") }));
    }
  } else if (t.status === "playing" && you && you.game) {
    const game = you.game;
    out.push(html("button", { type: "button", id: "play-your-game", text: "Play your game", onclick: () => play(game) }));
  } else if (t.status === "playing" && you && you.entrant !== null) {
    out.push(html("span", { class: "small", text: "Your next game starts once this round is over (if you are still in)." }));
  }
  $("actions").replaceChildren(...out);
}

/** @param {Tournament} t */
function render(t) {
  shown = t;
  document.title = `tussle: ${t.name}`;
  $("title").textContent = t.name;
  const kind = t.kind === "swiss" ? "Swiss" : "single elimination";
  $("summary").textContent = `${t.game_name}, ${kind}, ${t.clock.minutes} min + ${t.clock.increment} s a move, ` +
    `${t.rated ? "rated" : "casual"}; made by ${t.maker}.`;
  let status = "";
  if (t.status === "registering") {
    status = `Registering: ${t.entrants.length} of ${t.max_entrants}. ` +
      (t.starts_at ? `Starts ${new Date(t.starts_at * 1000).toLocaleString()}.` : `Starts when ${t.maker} starts it.`);
  } else if (t.status === "playing") {
    status = `Round ${t.round}${t.rounds ? ` of ${t.rounds}` : ""} is being played.`;
  } else if (t.cancelled) {
    status = "Cancelled: fewer than two entrants when it was to start.";
  } else {
    const champion = t.entrants.find((e) => e.number === t.champion);
    status = `Finished. ${t.kind === "swiss" ? "Winner" : "Champion"}: ${champion ? champion.name : "none"}.`;
  }
  $("status").textContent = status;
  actions(t);
  $("entrants").replaceChildren(...t.entrants.map((e) => html("li", null, who(t, e.number))));
  $("bracket-section").hidden = t.kind !== "elimination";
  $("standings-section").hidden = t.kind !== "swiss";
  if (t.kind === "elimination") bracket(t);
  else standings(t);
  if (t.status === "finished" && timer !== null) {
    clearInterval(timer);
    timer = null;
  }
}

async function refresh() {
  try {
    render(await getJson(`/api/tournaments/${encodeURIComponent(id)}`));
    if ($("error").textContent?.startsWith("The tournament")) $("error").textContent = "";
  } catch (error) {
    $("error").textContent = `The tournament could not be read: ${error instanceof Error ? error.message : error}`;
  }
}

onAccount(() => { refresh(); });
refresh();
timer = setInterval(() => {
  if (!document.hidden && (!shown || shown.status !== "finished")) refresh();
}, EVERY);
