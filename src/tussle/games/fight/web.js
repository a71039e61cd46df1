// @ts-check
// Fight! in the browser: the Arena and what comes next, every seat's Main and Boost, the hand as cards
// with their abilities, the scores, the last Fight's outcome and the Graveyard. Drawn from the
// observation alone: another seat's hand and face-down Boost show only their family, as the
// observation does.
//
// Pointing: in the play step, a card of the hand picks the Main Warrior, then another card is the
// Boost (one card left: it is played at once). In the resolve step, the face-down Boost opens a small
// menu of its choices (activate, activate on an opponent, score); the same choices are buttons too,
// and an opponent's Main is a target when the Boost chooses an opponent.
import { chooseAmong, html, pointable } from "/web/board.js";

// What the server sends, as the game declares it in Python (observation.py: FightObservation;
// actions.py: MoveJSON): a drawing that reads a field the game does not send fails here.
/**
 * A Warrior as the viewer sees it: its back's family, the rest only where it knows the card.
 * @typedef {{family: string, name?: string, power?: number, ability?: string}} Card
 */
/** @typedef {Card & {current_power: number}} MainCard */
/** @typedef {Card & {activated: boolean}} BoostCard */
/** @typedef {{name: string, glory: number, condition: string, rule: import("/web/types.js").JSONObject}} Arena */
/**
 * @typedef {{
 *   seat: number, hand: Card[], main: MainCard | null, boost: BoostCard | null, scored: Card[],
 *   arenas: Arena[], glory: number,
 * }} SeatData
 */
/**
 * What activating a Boost did.
 * @typedef {{kind: "power", seat: number, from: number, to: number}
 *   | {kind: "killed", seat: number, warrior: string, power: number}
 *   | {kind: "drew", scored: string[], graveyard: string[]}
 *   | {kind: "stole", seat: number, face_up: boolean}} Effect
 */
/** @typedef {Card & {final_power: number, killed: boolean}} FoughtMain */
/** @typedef {Card & {activated: boolean, scored_by: number | null, target?: number | null, effects?: Effect[]}} FoughtBoost */
/** @typedef {{seat: number, main: FoughtMain | null, boost: FoughtBoost | null}} FoughtSeat */
/** @typedef {{fight: number, arena: Arena, winner: number | null, glory: number, seats: FoughtSeat[]}} LastFight */
/**
 * @typedef {{
 *   game: string, player: number, num_players: number, fight: number, fights: number,
 *   first_player: number, stage: string, to_act: number[], arena: Arena | null,
 *   upcoming_arenas: Arena[], last_main_family: string | null, leader: number | null,
 *   reserves: {count: number, top_family: string | null}, graveyard: Card[], drawn: Card[],
 *   killed: string[], seats: SeatData[], last_fight: LastFight | null,
 *   result: import("/web/types.js").ResultJSON | null,
 * }} FightObservation
 */
/** @typedef {{kind: "play", main: string, boost: string | null}} PlayMove  a Main and a Boost by name; no Boost with one Warrior left */
/** @typedef {{kind: "activate", target: number | null}} ActivateMove  the Boost's ability, on the opponent chosen where it chooses one */
/** @typedef {{kind: "score"}} ScoreMove */
/** @typedef {PlayMove | ActivateMove | ScoreMove} FightMove */
/** @typedef {import("/web/types.js").View<FightObservation, FightMove>} View */
/** @typedef {import("/web/types.js").UI<FightMove>} UI */
/** @typedef {{move: PlayMove, main: string, boost: string | null, notation: string}} Play */
/** @typedef {{move: ActivateMove | ScoreMove, notation: string}} Fate  a Boost's fate */
/**
 * A seat's name for the viewer: "You", or the player's name and seat; `mid` inside a sentence,
 * `own` the possessive.
 * @typedef {((q: number) => string) & {mid: (q: number) => string, own: (q: number) => string}} Who
 */

const FAMILIES = ["Human", "Animal", "Robot", "Demon", "Alien"];

// Each family has a colour (white text on it, contrast at least 7:1) and always its word too.
const STYLE = `
.fight { display: grid; gap: .6rem; --human: #8a4500; --animal: #16602a; --robot: #35506b; --demon: #a3121d; --alien: #5c2a91; }
.fight h3 { font-size: 1rem; margin: 0 0 .35rem; }
.fight .row { display: flex; flex-wrap: wrap; gap: .6rem; align-items: stretch; }
.fight .arena { flex: 3 1 17rem; background: #1f2a44; color: #fff; border-radius: .6rem; padding: .6rem .8rem; }
.fight .arena .label { font-size: .8rem; text-transform: uppercase; letter-spacing: .06em; color: #dfe6f5; }
.fight .arena .title { font-size: 1.35rem; font-weight: 700; display: flex; justify-content: space-between; gap: .5rem; align-items: baseline; flex-wrap: wrap; }
.fight .arena .condition { font-size: 1.15rem; margin-top: .2rem; }
.fight .glory { display: inline-block; background: #f2c230; color: #111; border-radius: 1rem; padding: 0 .55rem; font-weight: 700; font-size: .95rem; white-space: nowrap; }
.fight .next { flex: 2 1 12rem; border: 2px dashed #555; border-radius: .6rem; padding: .5rem .7rem; }
.fight .next .title { font-weight: 700; }
.fight .piles { flex: 1 1 10rem; border: 1px solid #bbb; border-radius: .6rem; padding: .5rem .7rem; }
.fight .piles .count { font-size: 1.5rem; font-weight: 700; }
.fight .status { margin: 0; font-size: 1rem; }
.fight .seats { display: flex; flex-wrap: wrap; gap: .6rem; }
.fight .seat { flex: 1.3 1 19rem; border: 2px solid #bbb; border-radius: .6rem; padding: .5rem .6rem; }
.fight .seat.you { border-color: #0b4f9c; flex: 1 1 19.5rem; }
.fight .seat.leads { box-shadow: 0 0 0 3px #f2c230; }
.fight .seat header { display: flex; justify-content: space-between; align-items: baseline; gap: .4rem; flex-wrap: wrap; }
.fight .seat .who { font-weight: 700; font-size: 1.05rem; }
.fight .seat .score { font-size: 1.05rem; }
.fight .seat .score b { font-size: 1.35rem; }
.fight .tag { display: inline-block; font-size: .78rem; font-weight: 700; border-radius: .3rem; padding: 0 .35rem; background: #111; color: #fff; margin-left: .3rem; }
.fight .tag.lead { background: #f2c230; color: #111; }
.fight .facts { font-size: .9rem; margin: .25rem 0; }
.fight .played { display: flex; flex-wrap: wrap; gap: .5rem .6rem; margin: .35rem 0 0; }
.fight .played .side { flex: 1 1 11rem; min-width: 0; }
.fight .slot { font-size: .78rem; font-weight: 700; text-transform: uppercase; letter-spacing: .05em; color: #333; margin-bottom: .15rem; }
.fight .empty { width: 8.5rem; min-height: 5.5rem; border: 2px dashed #aaa; border-radius: .5rem; display: flex; align-items: center; justify-content: center; color: #444; font-size: .85rem; text-align: center; padding: .3rem; }
.fight .card { position: relative; padding: 0; overflow: hidden; background: #fff; display: flex; flex-direction: column; }
.fight .card.small { width: 8.5rem; font-size: .8rem; }
.fight .card .band { color: #fff; padding: .15rem .45rem; display: flex; justify-content: space-between; align-items: baseline; font-weight: 700; letter-spacing: .02em; }
.fight .card .band .power { float: none; font-size: 1.15rem; }
.fight .card .name { font-weight: 700; padding: .25rem .45rem 0; font-size: 1rem; }
.fight .card.small .name { font-size: .9rem; }
.fight .card .ability { padding: .15rem .45rem .4rem; color: #222; }
.fight .card .note { padding: 0 .45rem .35rem; font-size: .8rem; font-weight: 700; color: #333; }
.fight .card .now { padding: 0 .45rem .35rem; font-weight: 700; }
.fight .card.killed { opacity: .75; }
.fight .card.killed .name { text-decoration: line-through; }
.fight .fam-Human { border-color: var(--human); } .fight .fam-Human .band, .fight .back.fam-Human { background-color: var(--human); }
.fight .fam-Animal { border-color: var(--animal); } .fight .fam-Animal .band, .fight .back.fam-Animal { background-color: var(--animal); }
.fight .fam-Robot { border-color: var(--robot); } .fight .fam-Robot .band, .fight .back.fam-Robot { background-color: var(--robot); }
.fight .fam-Demon { border-color: var(--demon); } .fight .fam-Demon .band, .fight .back.fam-Demon { background-color: var(--demon); }
.fight .fam-Alien { border-color: var(--alien); } .fight .fam-Alien .band, .fight .back.fam-Alien { background-color: var(--alien); }
.fight .back { color: #fff; border: 2px solid #111; border-radius: .45rem; display: flex; flex-direction: column; align-items: center; justify-content: center; text-align: center; font-weight: 700;
  background-image: repeating-linear-gradient(45deg, rgba(255,255,255,.13) 0 6px, transparent 6px 12px); }
.fight .back.mini { width: 3rem; height: 4rem; font-size: .68rem; }
.fight .back.big { width: 8.5rem; min-height: 5.5rem; font-size: .95rem; }
.fight .back .mark { font-size: .68rem; font-weight: 400; opacity: .95; }
.fight .minis { display: flex; flex-wrap: wrap; gap: .25rem; align-items: center; margin-bottom: .3rem; }
.fight .chip { font-family: inherit; font-size: .85rem; cursor: default; }
.fight .chip.fam-Human, .fight .chip.fam-Animal, .fight .chip.fam-Robot, .fight .chip.fam-Demon, .fight .chip.fam-Alien { color: #fff; border: 0; }
.fight .chip.fam-Human { background: var(--human); } .fight .chip.fam-Animal { background: var(--animal); } .fight .chip.fam-Robot { background: var(--robot); } .fight .chip.fam-Demon { background: var(--demon); } .fight .chip.fam-Alien { background: var(--alien); }
.fight .hand { border: 2px solid #0b4f9c; border-radius: .6rem; padding: .5rem .6rem; background: #f5f8fc; }
.fight .prompt { font-weight: 600; margin: 0 0 .45rem; }
.fight .choices { display: flex; flex-wrap: wrap; gap: .4rem; margin: .2rem 0 .5rem; }
.fight .choices button { text-align: left; min-height: 2.25rem; }
.fight .choices button.plain { background: #555; }
.fight .hand .cards .card { min-height: 8rem; }
.fight .card.pick, .fight .card.target, .fight .seat .target { cursor: pointer; }
.fight .card.pick { border-color: #1d6fd6; box-shadow: 0 0 0 2px #1d6fd6; }
.fight .card.pick:hover, .fight .card.target:hover { transform: translateY(-2px); }
.fight .card.target { box-shadow: 0 0 0 3px #0a7d2c; }
.fight .card.chosen { box-shadow: 0 0 0 4px #c25e00; transform: translateY(-4px); }
.fight .card.chosen .note { color: #8a3b00; }
.fight .card.unused { border-style: dashed; }
.fight .card.unused .note { color: #444; font-weight: 400; }
.fight .card.fresh { animation: fight-in .35s ease-out; }
@keyframes fight-in { from { transform: translateY(-10px); opacity: .2; } to { transform: none; opacity: 1; } }
@media (prefers-reduced-motion: reduce) { .fight .card.fresh { animation: none; } .fight .card:hover { transform: none; } }
.fight .last { border: 1px solid #bbb; border-radius: .6rem; padding: .5rem .7rem; }
.fight .last ul { margin: .3rem 0 0; padding-left: 1.1rem; }
.fight .last li { margin: .2rem 0; }
.fight .outcome { font-weight: 700; }
.fight details { border: 1px solid #bbb; border-radius: .6rem; padding: .4rem .7rem; }
.fight summary { cursor: pointer; font-weight: 700; }
.fight details ul { margin: .3rem 0; padding-left: 1.1rem; }
.fight .result { background: #fff2b3; border: 2px solid #111; border-radius: .6rem; padding: .5rem .7rem; font-weight: 700; }
@media (max-width: 40rem) {
  .fight > .hand { order: 1; } .fight > .seats { order: 2; } .fight > .last, .fight > details { order: 3; }
  .fight .card.small, .fight .empty, .fight .back.big { width: 9.5rem; }
  .fight .arena .title { font-size: 1.2rem; }
}
`;

/** @param {Card} card */
function fam(card) {
  return FAMILIES.includes(card.family) ? card.family : "Human";
}

/** @param {Card} card */
function cardWords(card) {
  return "name" in card ? `${card.name} (${card.family}, power ${card.power}): ${card.ability}` : `a face-down ${card.family}`;
}

/**
 * A Warrior face up: family by colour and by word, power, name, ability.
 * @param {Card} card
 * @param {{small?: boolean, note?: string | null, now?: HTMLElement | null, killed?: boolean}} [options]
 */
function front(card, { small = false, note = null, now = null, killed = false } = {}) {
  return html("div", { class: `card fam-${fam(card)}${small ? " small" : ""}${killed ? " killed" : ""}` },
    html("div", { class: "band" }, html("span", { text: card.family }), html("span", { class: "power", text: String(card.power) })),
    html("div", { class: "name", text: card.name }),
    now,
    html("div", { class: "ability", text: card.ability }),
    note ? html("div", { class: "note", text: note }) : null);
}

/**
 * A Warrior face down: only its back, which shows its family (as the observation does).
 * @param {Card} card
 * @param {"mini" | "big"} size
 * @param {string} [mark]
 */
function back(card, size, mark) {
  return html("div", { class: `back ${size} fam-${fam(card)}`, "aria-label": `face-down card, ${card.family} back` },
    html("span", { text: card.family }), mark ? html("span", { class: "mark", text: mark }) : null);
}

/** @param {Arena} arena */
function arenaText(arena) {
  return `${arena.name} (${arena.glory} Glory): ${arena.condition}`;
}

/**
 * The legal actions by what they do, read from their structured forms (`view.moves`, index for
 * index with `view.legal`, whose notation is only shown): plays {move, main, boost, notation}, and
 * the Boost's fates {move, notation}, a move of kind activate (target: a seat or null) or score.
 * @param {View} view
 * @returns {{plays: Play[], resolve: Fate[]}}
 */
function legalMoves(view) {
  /** @type {Play[]} */
  const plays = [];
  /** @type {Fate[]} */
  const resolve = [];
  const legal = view.legal || [];
  (view.moves || []).forEach((move, i) => {
    const notation = legal[i];
    if (move.kind === "play") plays.push({ move, main: move.main, boost: move.boost, notation });
    else resolve.push({ move, notation });
  });
  return { plays, resolve };
}

/**
 * @param {View} view
 * @param {UI} ui
 * @returns {HTMLElement}
 */
export function draw(view, ui) {
  const root = html("div", { class: "fight" });
  /** @type {string | null} */
  let chosenMain = null; // the Main picked in this view, waiting for its Boost
  const render = () => root.replaceChildren(...board(view, ui, chosenMain, (name) => { chosenMain = name; render(); }));
  render();
  return root;
}

/**
 * @param {View} view
 * @param {UI} ui
 * @param {string | null} chosenMain
 * @param {(name: string | null) => void} setMain
 * @returns {Element[]}
 */
function board(view, ui, chosenMain, setMain) {
  const obs = view.observation;
  const me = typeof view.seat === "number" ? view.seat : null;
  // A seat of Fight! never has more than 20 legal actions, so the server always lists them.
  const pointing = !view.replay && me !== null && Array.isArray(view.moves) && view.moves.length > 0;
  const { plays, resolve } = pointing ? legalMoves(view) : { plays: [], resolve: [] };
  const names = new Map((view.seats || []).map((s) => [s.seat, s.name]));
  /** @type {Who} */
  const who = (q) => {
    if (q === me) return "You";
    const name = names.get(q);
    return name ? `${name} (p${q})` : `p${q}`;
  };
  who.mid = (q) => (q === me ? "you" : who(q)); // inside a sentence
  who.own = (q) => (q === me ? "your" : `${who(q)}'s`);
  const prev = view.previous;

  /** @type {Element[]} */
  const out = [html("style", { text: STYLE })];

  // The Arena, the next one, the piles.
  const top = html("div", { class: "row" });
  if (obs.arena) {
    top.append(html("section", { class: "arena", "aria-label": `Arena: ${arenaText(obs.arena)}` },
      html("div", { class: "label", text: `Fight ${obs.fight} of ${obs.fights} \u00b7 the Arena` }),
      html("div", { class: "title" }, html("span", { text: obs.arena.name }), html("span", { class: "glory", text: `${obs.arena.glory} Glory` })),
      html("div", { class: "condition", text: obs.arena.condition })));
  } else {
    top.append(html("section", { class: "arena" },
      html("div", { class: "label", text: `${obs.fights} Fights` }),
      html("div", { class: "title", text: obs.result ? "The game is over" : "The Arenas are being revealed" })));
  }
  if (obs.upcoming_arenas && obs.upcoming_arenas.length) {
    const [first, ...rest] = obs.upcoming_arenas;
    top.append(html("section", { class: "next", "aria-label": `next Arena: ${arenaText(first)}` },
      html("div", { class: "slot", text: "Next Arena" }),
      html("div", { class: "title" }, `${first.name} `, html("span", { class: "glory", text: `${first.glory} Glory` })),
      html("div", { text: first.condition }),
      rest.length ? html("div", { class: "small", text: `then: ${rest.map((a) => `${a.name} (${a.glory}): ${a.condition}`).join("; ")}` }) : null));
  }
  const reserves = obs.reserves || { count: 0, top_family: null };
  top.append(html("section", { class: "piles", "aria-label": `Reserves: ${reserves.count} Warriors` },
    html("div", { class: "slot", text: "Reserves" }),
    html("div", { class: "minis" },
      reserves.top_family ? back({ family: reserves.top_family }, "mini", "top") : null,
      html("div", {}, html("div", { class: "count", text: String(reserves.count) }), html("div", { class: "small", text: "Warriors" }))),
    html("div", { class: "small", text: `Graveyard: ${obs.graveyard.length}` })));
  out.push(top);

  // One line of where the Fight stands.
  const facts = [`1st player: ${who.mid(obs.first_player)}`];
  if (obs.last_main_family) facts.push(`last Main's family: ${obs.last_main_family} (play another if you can)`);
  if (obs.leader !== null && obs.leader !== undefined) facts.push(`taking the Arena now: ${who.mid(obs.leader)}`);
  if (obs.killed && obs.killed.length) facts.push(`killed this Fight: ${obs.killed.join(", ")}`);
  out.push(html("p", { class: "status", text: facts.join(" \u00b7 ") }));

  if (obs.result) out.push(resultPanel(obs, obs.result, who));

  // The seats: the viewer's first, then clockwise.
  const order = obs.seats.map((s) => s.seat);
  if (me !== null) order.sort((a, b) => ((a - me + obs.num_players) % obs.num_players) - ((b - me + obs.num_players) % obs.num_players));
  const seats = html("div", { class: "seats" });
  for (const q of order) seats.append(seatPanel(obs.seats[q], { obs, me, who, prev, resolve, ui }));
  out.push(seats);

  if (obs.drawn && obs.drawn.length) {
    out.push(html("section", { class: "panel" }, html("h3", { text: "Drawn by an ability" }),
      html("div", { class: "cards" }, obs.drawn.map((c) => ("name" in c ? front(c, { small: true }) : back(c, "big"))))));
  }

  if (me !== null && obs.seats[me]) out.push(handPanel(obs.seats[me], { pointing, plays, resolve, chosenMain, setMain, ui, prev, who, lastFamily: obs.last_main_family }));

  if (obs.last_fight) out.push(lastFight(obs.last_fight, who));

  out.push(html("details", {},
    html("summary", { text: `Graveyard (${obs.graveyard.length} Warriors, face up)` }),
    obs.graveyard.length
      ? html("ul", {}, obs.graveyard.map((c) => html("li", { text: cardWords(c) })))
      : html("p", { text: "empty" })));
  return out;
}

/**
 * @param {FightObservation} obs
 * @param {import("/web/types.js").ResultJSON} result
 * @param {Who} who
 */
function resultPanel(obs, result, who) {
  const ranked = [...obs.seats].sort((a, b) => b.glory - a.glory || b.scored.length - a.scored.length);
  const winner = result.winner;
  const head = winner === null || winner === undefined ? "A draw." : `${who(winner)} ${winner === obs.player ? "win" : "wins"}.`;
  return html("section", { class: "result", "aria-label": "result" },
    html("div", { text: `${head} ${result.reason || ""}` }),
    html("div", { text: ranked.map((s) => `${who(s.seat)}: ${s.glory} Glory`).join(" \u00b7 ") }));
}

/**
 * @param {SeatData} seat
 * @param {{obs: FightObservation, me: number | null, who: Who, prev: FightObservation | null, resolve: Fate[], ui: UI}} context
 */
function seatPanel(seat, { obs, me, who, prev, resolve, ui }) {
  const q = seat.seat;
  const leads = obs.leader === q;
  const acting = obs.to_act.includes(q);
  const arenaGlory = seat.arenas.reduce((sum, a) => sum + a.glory, 0);
  const box = html("section", { class: `seat${q === me ? " you" : ""}${leads ? " leads" : ""}`, "aria-label": `${who(q)}: ${seat.glory} Glory` });
  box.append(html("header", {},
    html("span", { class: "who" }, who(q),
      q === obs.first_player ? html("span", { class: "tag", text: "1st" }) : null,
      acting ? html("span", { class: "tag", text: "to act" }) : null,
      leads ? html("span", { class: "tag lead", text: "taking the Arena" }) : null),
    html("span", { class: "score" }, html("b", { text: String(seat.glory) }), " Glory")));
  box.append(html("div", { class: "facts", text:
    `Arenas won: ${seat.arenas.length ? seat.arenas.map((a) => `${a.name} (${a.glory})`).join(", ") : "none"} \u00b7 `
    + `${arenaGlory} + ${seat.scored.length} scored` }));

  // The Fight: the Main face up, the Boost face down (its name only where the observation holds it).
  const played = html("div", { class: "played" });
  const wasMain = prev && prev.seats && prev.seats[q] && prev.seats[q].main;
  const mainCol = html("div", {}, html("div", { class: "slot", text: "Main" }));
  if (seat.main) {
    const killed = obs.killed && obs.killed.includes(seat.main.name || "");
    const changed = seat.main.current_power !== seat.main.power;
    const now = changed || killed
      ? html("div", { class: "now", text: killed ? `killed (power ${seat.main.current_power})` : `power now ${seat.main.current_power}` })
      : null;
    const card = front(seat.main, { small: true, now, killed });
    card.setAttribute("aria-label", `Main: ${cardWords(seat.main)}${changed ? `, power now ${seat.main.current_power}` : ""}`);
    if (!wasMain) card.classList.add("fresh");
    const on = resolve.find((r) => r.move.kind === "activate" && r.move.target === q);
    if (q !== me && on) {
      pointable(card, "target", `activate your Boost on ${who.own(q)} ${seat.main.name} (${on.notation})`, () => ui.act(on.move));
    }
    mainCol.append(card);
  } else {
    mainCol.append(html("div", { class: "empty", text: obs.result ? "no Main" : "no Main yet" }));
  }
  const boostCol = html("div", {}, html("div", { class: "slot", text: "Boost" }));
  const boost = seat.boost;
  if (!boost) {
    boostCol.append(html("div", { class: "empty", text: seat.main || obs.result ? "no Boost" : "no Boost yet" }));
  } else if (!("name" in boost)) {
    boostCol.append(back(boost, "big", "face down"));
  } else {
    const card = front(boost, { small: true, note: boost.activated ? "activated" : "face down (only you see it)" });
    card.setAttribute("aria-label", `Boost ${boost.activated ? "activated" : "face down"}: ${cardWords(boost)}`);
    if (q === me && !boost.activated && resolve.length) {
      pointable(card, "pick", `your Boost ${boost.name}: activate or score`, () => {
        // The menu's items carry the notation (shown, never read); the choice is played as its move.
        const items = resolve.map((r) => ({ label: resolveLabel(r, boost, who), action: r.notation }));
        chooseAmong(card, items, (notation) => {
          const fate = resolve.find((r) => r.notation === notation);
          if (fate) ui.act(fate.move);
        });
      });
    }
    boostCol.append(card);
  }
  const piles = html("div", { class: "side" });
  if (q !== me) {
    piles.append(html("div", { class: "slot", text: `Hand: ${seat.hand.length}` }),
      html("div", { class: "minis" }, seat.hand.map((c) => ("name" in c
        ? html("span", { class: `chip fam-${fam(c)}`, title: c.ability, text: `${c.name} (${c.family} ${c.power})` })
        : back(c, "mini")))));
  }
  piles.append(html("div", { class: "slot", text: `Scored: ${seat.scored.length}` }),
    seat.scored.length
      ? html("div", { class: "minis" }, seat.scored.map((c) => ("name" in c
        ? html("span", { class: `chip fam-${fam(c)}`, title: c.ability, text: `${c.name} (${c.family} ${c.power})` })
        : back(c, "mini"))))
      : html("div", { class: "small", text: "none" }));
  played.append(mainCol, boostCol, piles);
  box.append(played);
  return box;
}

/**
 * @param {Fate} fate
 * @param {Card | null} boost
 * @param {Who} who
 */
function resolveLabel({ move, notation }, boost, who) {
  if (move.kind === "score") return `Score it: keep it face down for 1 Glory (${notation})`;
  if (move.target === null) return `Activate: ${boost ? boost.ability : "its ability"} (${notation})`;
  return `Activate on ${who(move.target)} (${notation})`;
}

/**
 * @param {SeatData} seat
 * @param {{
 *   pointing: boolean, plays: Play[], resolve: Fate[], chosenMain: string | null,
 *   setMain: (name: string | null) => void, ui: UI, prev: FightObservation | null, who: Who,
 *   lastFamily: string | null,
 * }} context
 */
function handPanel(seat, { pointing, plays, resolve, chosenMain, setMain, ui, prev, who, lastFamily }) {
  const box = html("section", { class: "hand", "aria-label": "your hand" });
  /** @type {Map<string, Play[]>} */
  const byMain = new Map();
  for (const play of plays) {
    const uses = byMain.get(play.main);
    if (uses) uses.push(play);
    else byMain.set(play.main, [play]);
  }
  const boosts = ((chosenMain && byMain.get(chosenMain)) || []).filter((p) => p.boost);
  const choices = html("div", { class: "choices" });
  let prompt = `Your hand (${seat.hand.length})`;
  if (pointing && plays.length) {
    if (chosenMain && boosts.length) {
      prompt = `Main: ${chosenMain}. Now choose your Boost (face down: its ability, or 1 Glory if you score it).`;
      choices.append(html("button", { type: "button", class: "plain", text: "Choose another Main", onclick: () => setMain(null) }));
    } else if (plays.length === 1 && !plays[0].boost) {
      prompt = `Your last Warrior: play it as your Main.`;
    } else {
      prompt = "Choose your Main Warrior (face up, its power fights), then your Boost.";
    }
  } else if (pointing && resolve.length) {
    const boost = seat.boost;
    prompt = `Your Boost${boost && boost.name ? ` ${boost.name}` : ""}: activate it now, or score it for 1 Glory.`;
    for (const fate of resolve) {
      pointable(choices.appendChild(html("button", { type: "button", text: resolveLabel(fate, boost, who) })),
        "target", resolveLabel(fate, boost, who), () => ui.act(fate.move));
    }
  }
  box.append(html("p", { class: "prompt", text: prompt }));
  if (choices.childNodes.length) box.append(choices);

  const before = new Set(prev && prev.seats && prev.seats[seat.seat] ? prev.seats[seat.seat].hand.map((c) => c.name) : []);
  const cards = html("div", { class: "cards" });
  for (const card of seat.hand) {
    const element = "name" in card ? front(card) : back(card, "big");
    element.setAttribute("aria-label", cardWords(card));
    if (prev && "name" in card && !before.has(card.name)) element.classList.add("fresh");
    const name = card.name;
    if (pointing && plays.length && name !== undefined) {
      if (chosenMain) {
        const play = boosts.find((p) => p.boost === name);
        if (name === chosenMain) {
          element.classList.add("chosen");
          element.append(html("div", { class: "note", text: "your Main: point again to undo" }));
          pointable(element, "pick", `${name} is your Main; choose it again to undo`, () => setMain(null));
        } else if (play) {
          pointable(element, "target", `${name} as your Boost, with ${chosenMain} as Main (${play.notation})`, () => ui.act(play.move));
        } else {
          element.classList.add("unused");
          element.append(html("div", { class: "note", text: `not with ${chosenMain}` }));
        }
      } else if (byMain.has(name)) {
        const uses = byMain.get(name) || [];
        if (uses.length === 1 && !uses[0].boost) {
          pointable(element, "target", `play ${name} as your Main (${uses[0].notation})`, () => ui.act(uses[0].move));
        } else {
          pointable(element, "pick", `${name} as your Main, then choose the Boost`, () => setMain(name));
        }
      } else {
        element.classList.add("unused");
        const why = plays.some((p) => p.boost === name) ? "only as a Boost now"
          : lastFamily && card.family === lastFamily ? `not now: the last Main was a ${lastFamily}` : "not playable now";
        element.append(html("div", { class: "note", text: why }));
      }
    }
    cards.append(element);
  }
  box.append(cards);
  return box;
}

/**
 * @param {LastFight} last
 * @param {Who} who
 */
function lastFight(last, who) {
  const took = last.winner === null || last.winner === undefined
    ? "nobody took it"
    : `${who(last.winner)} took ${last.glory} Glory`;
  const items = last.seats.map((seat) => {
    const main = seat.main;
    const mtext = !main ? "no Main"
      : `Main ${main.name} (${main.family} ${main.power}) ${main.killed ? `killed at ${main.final_power}` : `final power ${main.final_power}`}`;
    const boost = seat.boost;
    let btext = "no Boost";
    if (boost) {
      const name = "name" in boost ? `${boost.name} (${boost.family})` : `a face-down ${boost.family}`;
      if (boost.activated) {
        const on = boost.target !== null && boost.target !== undefined ? ` on ${who.mid(boost.target)}` : "";
        const did = (boost.effects || []).map((e) => effectText(e, who, last.seats)).join("; ") || "nothing changed";
        btext = `Boost ${name} activated${on} (${boost.ability}): ${did}`;
        if (boost.scored_by !== null && boost.scored_by !== undefined) btext += `; then scored by ${who.mid(boost.scored_by)}`;
      } else if (boost.scored_by === seat.seat) {
        btext = `Boost ${name} scored`;
      } else if (boost.scored_by !== null) {
        btext = `Boost ${name} taken by ${who.mid(boost.scored_by)}`;
      }
    }
    return html("li", {}, html("b", { text: `${who(seat.seat)}: ` }), `${mtext}; ${btext}`);
  });
  return html("section", { class: "last", "aria-label": "the last Fight" },
    html("h3", { text: `Fight ${last.fight} ended: ${last.arena.name} (${last.arena.glory} Glory), ${last.arena.condition}` }),
    html("div", { class: "outcome", text: took }),
    html("ul", {}, items));
}

/**
 * @param {Effect} effect
 * @param {Who} who
 * @param {FoughtSeat[]} seats
 */
function effectText(effect, who, seats) {
  if (effect.kind === "power") return `${who.own(effect.seat)} Main ${effect.from} \u2192 ${effect.to}`;
  if (effect.kind === "killed") return `${who.own(effect.seat)} ${effect.warrior} killed`;
  if (effect.kind === "drew") {
    const drawn = [...effect.scored, ...effect.graveyard];
    return `drew ${drawn.join(", ") || "nothing"}, scored ${effect.scored.join(", ") || "none"}`;
  }
  const boost = seats[effect.seat] && seats[effect.seat].boost;
  const name = boost && "name" in boost ? boost.name : boost ? `a face-down ${boost.family}` : "";
  return `took ${who.own(effect.seat)} Boost ${name}`.trim();
}
