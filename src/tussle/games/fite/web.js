// @ts-check
// FITE in the browser: the two fighters (dice left, super power), the arena's three locations with
// their die faces and each fighter's token, the split of the dice chosen by pointing between them,
// the rolled pools, and the last fight with which defensive die cancelled which offensive die (the
// observation's `cancellations`, computed by the rules) and the hits that got through.
// Legal actions are read in their structured form (`view.moves`, docs/games/fite.md), never from
// their notation, which is only shown.
import { canvas, chooseAmong, html, pointable, svg } from "/web/board.js";

// What the server sends, as the game declares it in Python (rules.py: FiteObservation; notation.py:
// the structured forms): a drawing that reads a field the game does not send fails here.
/** @typedef {{kind: "place", location: string, face: number}} Placement */
/** @typedef {{kind: "stay"}} Stay */
/** @typedef {{kind: "swift", to: string}} Swift */
/** @typedef {{kind: "split", off: number, def: number, power: string | null}} Split */
/** @typedef {{fighter: string, pool: string, face: number}} DieToTurn  whose ("A" or "B"), which pool, which face */
/**
 * A tactical choice: a move of dice `from` one pool `to` the other, a turn of dice, both, or a pass.
 * @typedef {{
 *   kind: "pass" | "move" | "turn" | "move and turn", from?: string, to?: string, dice?: number[],
 *   turn?: DieToTurn[],
 * }} Tactic
 */
/** @typedef {Placement | Stay | Swift | Split | Tactic} FiteMove  a fighter's action (a roll is chance's) */
/** @typedef {{off: number[], def: number[]}} PoolFaces  a fighter's two pools, highest first */
/** @typedef {{off: number[] | null, def: number[] | null}} PoolRolls  as far as rolled (null: not yet) */
/** @typedef {{off: number, def: number}} PoolModifiers */
/**
 * @typedef {{
 *   name: string, dice: number, power: string | null, power_used: boolean, location: string | null,
 *   face: number | null,
 * }} Fighter
 */
/** @typedef {{entitled: string[], choices: (string | null)[]}} Tactical  per fighter; choices in notation once revealed */
/**
 * The public part of the turn so far.
 * @typedef {{
 *   turn: number, locations: string[], swift: (string | null)[], split: (number[] | null)[],
 *   powers: (string | null)[], modifiers: PoolModifiers[] | null, rolls: PoolRolls[],
 *   tactical: Tactical | null,
 * }} TurnView
 */
/**
 * The whole of a scored fight; `cancellations`: per defender, [defensive index, offensive index] pairs.
 * @typedef {{
 *   turn: number, locations: string[], swift: (string | null)[], split: number[][],
 *   powers: (string | null)[], modifiers: PoolModifiers[], rolls: PoolFaces[], tactical: Tactical,
 *   pools: PoolFaces[], values: PoolFaces[], cancelled: number[], cancellations: number[][][],
 *   hits: number[], dice: number[],
 * }} FightRecord
 */
/** @typedef {{fighter: string, pool: string, dice: number}} Rolling */
/**
 * @typedef {{
 *   game: string, player: number, turn: number, phase: string, turn_dice: string, to_move: boolean,
 *   fighters: Fighter[], mine: string | null, fight: TurnView | null, rolling: Rolling | null,
 *   last_fight: FightRecord | null, result: import("/web/types.js").ResultJSON | null,
 * }} FiteObservation
 */
/** @typedef {import("/web/types.js").View<FiteObservation, FiteMove>} View */
/** @typedef {import("/web/types.js").UI<FiteMove>} UI */
/** @typedef {import("/web/board.js").Attributes} Attributes */
/**
 * A legal action: its structured form and its notation (to show).
 * @template {FiteMove} [M=FiteMove]
 * @typedef {{move: M, text: string}} Choice
 */
/** @typedef {{name: string, fill: string, ink: string}} PoolStyle */
/** @typedef {{fill?: string, ink?: string, width?: number, dashed?: boolean, cls?: string}} DieStyle */

const LOCATIONS = [
  { key: "off", name: "Offensive", hint: "+1 on offense dice", faces: [1, 2], fill: "#fbe4e1", ink: "#a3221a" },
  { key: "def", name: "Defensive", hint: "+1 on defense dice", faces: [3, 4], fill: "#e1ecfb", ink: "#17529a" },
  { key: "tac", name: "Tactical", hint: "move or turn 2 dice", faces: [5, 6], fill: "#e2f1e3", ink: "#23662a" },
];
/** @type {{[key: string]: (typeof LOCATIONS)[number]}} */
const LOCATION = Object.fromEntries(LOCATIONS.map((l) => [l.key, l]));
/** @type {Record<string, PoolStyle>} */
const POOL = {
  off: { name: "offense", fill: "#fde3df", ink: "#a3221a" },
  def: { name: "defense", fill: "#dfeafb", ink: "#17529a" },
};
const FIGHTER = [{ fill: "#4a2378", text: "#fff" }, { fill: "#f0b21c", text: "#111" }];
const TARGET = "#0a7d2c";
const HIT = "#c40d0d";
/** @type {Record<number, [number, number][]>} */
const PIPS = {
  1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

const STYLE = `
.fite-board { display: flex; flex-direction: column; gap: .6rem; }
.fite-board h3 { margin: .2rem 0; font-size: 1.1rem; }
.fite-board p { margin: .15rem 0; }
.fite-step { border: 2px solid #0b4f9c; border-radius: .4rem; padding: .4rem .7rem; background: #f3f7fd; }
.fite-step.yours { border-color: #0a7d2c; background: #eef8ef; }
.fite-fight { border: 1px solid #999; border-radius: .4rem; padding: .4rem .7rem; }
.fite-outcome { font-weight: 600; }
.fite-outcome .lost { color: #a00000; }
.fite-key { font-size: .9rem; color: #333; }
.fite-board .chip { font-size: 1rem; }
.fite-board .chip.target { display: inline-flex; align-items: center; min-height: 2.25rem; min-width: 2.25rem; }
.fite-fighters { display: grid; grid-template-columns: 1fr 1fr; gap: .5rem; }
.fite-fighter { display: flex; gap: .5rem; align-items: center; border: 2px solid #555; border-radius: .5rem; padding: .35rem .5rem; background: #fafafa; }
.fite-fighter p { margin: 0; }
.fite-fighter .name { font-weight: 700; font-size: 1.15rem; }
.fite-fighter .dice { font-weight: 700; font-size: 1.1rem; display: flex; flex-wrap: wrap; align-items: center; gap: .2rem .4rem; }
.fite-fighter .fite-dice-row { height: 1.1rem; width: auto; max-width: 100%; }
.fite-fighter .fite-token { width: 3.2rem; height: 3.2rem; flex: none; }
.fite-fighter .power { font-size: .95rem; }
.fite-fighter .power.none { color: #444; }
.fite-fighter .coin { display: inline-block; width: .9rem; height: .9rem; border-radius: 50%; border: 1.5px solid #111; background: #f2c230; margin-right: .3rem; vertical-align: -.1rem; }
.fite-fighter .power.used .coin { background: #bbb; }
.fite-exchange-title { font-weight: 600; }
@media (max-width: 40rem) { .fite-fighter .fite-token { width: 2.4rem; height: 2.4rem; } .fite-fighter .name { font-size: 1rem; } }
.fite-board svg .target:hover > :first-child { stroke-width: 5; }
.fite-board svg.fite-split { max-width: 46rem; }
.fite-board svg.fite-exchange { max-width: 44rem; }
@keyframes fite-roll { from { transform: rotate(-90deg) scale(.4); opacity: 0; } to { transform: none; opacity: 1; } }
.fite-board .fresh { animation: fite-roll .45s ease-out; transform-box: fill-box; transform-origin: center; }
@media (prefers-reduced-motion: reduce) { .fite-board .fresh { animation: none; } }
`;

// --- small pieces -------------------------------------------------------------

/**
 * A die showing `face` (1-6; null: not rolled yet), centred on (cx, cy).
 * @param {number} cx
 * @param {number} cy
 * @param {number} size
 * @param {number | null} face
 * @param {DieStyle} [style]
 */
function die(cx, cy, size, face, { fill = "#fff", ink = "#111", width = 2, dashed = false, cls = "" } = {}) {
  const g = svg("g", { class: `die ${cls}`.trim(), "data-face": face ?? "" });
  g.append(svg("rect", {
    x: cx - size / 2, y: cy - size / 2, width: size, height: size, rx: size * 0.18,
    fill, stroke: ink, "stroke-width": width, "stroke-dasharray": dashed ? "6 4" : null,
  }));
  if (face !== null && face >= 1 && face <= 6) {
    for (const [dx, dy] of PIPS[face]) {
      g.append(svg("circle", { cx: cx + dx * size * 0.27, cy: cy + dy * size * 0.27, r: size * 0.095, fill: "#111" }));
    }
  } else if (face === null) {
    g.append(svg("text", { x: cx, y: cy + size * 0.16, "text-anchor": "middle", "font-size": size * 0.45, fill: ink, text: "?" }));
  }
  return g;
}

/**
 * @param {number} cx
 * @param {number} cy
 * @param {number} r
 * @param {number} p
 */
function token(cx, cy, r, p) {
  return svg("g", { class: `token fighter-${"AB"[p]}` },
    svg("circle", { cx, cy, r, fill: FIGHTER[p].fill, stroke: "#111", "stroke-width": 2 }),
    svg("text", { x: cx, y: cy + r * 0.36, "text-anchor": "middle", "font-size": r * 1.05, "font-weight": 700, fill: FIGHTER[p].text, text: "AB"[p] }));
}

/**
 * @param {number} x
 * @param {number} y
 * @param {string} content
 * @param {Attributes} [attrs]
 */
function text(x, y, content, attrs = {}) {
  return svg("text", { x, y, "font-size": 20, fill: "#111", ...attrs, text: content });
}

/**
 * @param {number} n
 * @param {string} word
 */
function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** @param {string} word */
function title(word) {
  return word ? word[0].toUpperCase() + word.slice(1) : word;
}

/**
 * @param {FiteObservation} obs
 * @param {number} p
 */
function who(obs, p) {
  return obs.player === p ? `You (${"AB"[p]})` : `Fighter ${"AB"[p]}`;
}

/**
 * The legal actions, each as {move, text}: its structured form and its notation (to show).
 * @param {View} view
 * @returns {Choice[]}
 */
function choices(view) {
  const moves = view.moves || [];
  const legal = view.legal || [];
  return moves.map((move, i) => ({ move, text: legal[i] }));
}

/**
 * The legal actions of one kind, each typed as that kind's structured form.
 * @template {"place" | "swift" | "split"} K
 * @param {Choice[]} legal
 * @param {K} kind
 * @returns {Choice<Extract<FiteMove, {kind: K}>>[]}
 */
function ofKind(legal, kind) {
  return legal.filter(/** @returns {c is Choice<Extract<FiteMove, {kind: K}>>} */ (c) => c.move.kind === kind);
}

// --- the fighters and the arena -------------------------------------------------

/**
 * @param {FiteObservation} obs
 * @param {number} p
 */
function fighterCard(obs, p) {
  const f = obs.fighters[p];
  const name = `Fighter ${"AB"[p]}${obs.player === p ? " (you)" : ""}`;
  const dice = svg("svg", { viewBox: `0 0 ${Math.max(1, f.dice) * 22} 20`, class: "fite-dice-row", "aria-hidden": "true" });
  for (let i = 0; i < f.dice; i++) {
    dice.append(svg("rect", { x: i * 22 + 1.5, y: 1.5, width: 17, height: 17, rx: 3, fill: "#fff", stroke: "#111", "stroke-width": 1.5 }));
  }
  const power = f.power
    ? html("p", { class: `power ${f.power_used ? "used" : "unused"}` },
      html("span", { class: "coin", "aria-hidden": "true" }),
      `${title(f.power)}: ${f.power_used ? "used" : "not used yet"}`)
    : html("p", { class: "power none", text: "no super power" });
  return html("div", { class: `fite-fighter fighter-${"AB"[p]}`, "aria-label": `${name}: ${f.dice} dice, ${f.power ? `super power ${f.power}, ${f.power_used ? "used" : "not used yet"}` : "no super power"}` },
    svg("svg", { viewBox: "0 0 64 64", class: "fite-token", "aria-hidden": "true" }, token(32, 32, 29, p)),
    html("div", {},
      html("p", { class: "name", text: name }),
      html("p", { class: "dice" }, html("span", { class: "dice-count", text: `${f.dice} ${f.dice === 1 ? "die" : "dice"}` }), " ", dice),
      power));
}

/** @param {FiteObservation} obs */
function fighters(obs) {
  return html("div", { class: "fite-fighters" }, fighterCard(obs, 0), fighterCard(obs, 1));
}

/**
 * @param {View} view
 * @param {UI} ui
 */
function arenaCanvas(view, ui) {
  const obs = view.observation;
  const legal = choices(view);
  const placements = ofKind(legal, "place");
  const swift = ofKind(legal, "swift");
  const placing = placements.length > 0;
  const where = obs.fighters.map((f) => f.location);
  /** @type {SVGElement[]} */
  const kids = [];
  LOCATIONS.forEach((loc, i) => {
    const x = 6 + i * 266;
    const area = svg("g", { class: `location location-${loc.key}` });
    const frame = svg("rect", { x, y: 4, width: 256, height: 226, rx: 14, fill: loc.fill, stroke: loc.ink, "stroke-width": 3 });
    area.append(frame);
    area.append(text(x + 128, 34, loc.name, { "text-anchor": "middle", "font-size": 28, "font-weight": 700, fill: loc.ink }));
    area.append(text(x + 128, 62, loc.hint, { "text-anchor": "middle", "font-size": 22 }));
    const move = swift.find((c) => c.move.to === loc.key);
    if (move) {
      frame.setAttribute("stroke", TARGET);
      frame.setAttribute("stroke-dasharray", "10 6");
      pointable(area, "target", `Swift: move to the ${loc.name.toLowerCase()} location (${move.text})`, () => ui.act(move.move));
    }
    kids.push(area);
    loc.faces.forEach((face, j) => {
      const cx = x + 78 + j * 100;
      const place = placements.find((c) => c.move.face === face);
      /** @type {DieStyle} */
      const style = placing ? { ink: TARGET, width: 4, dashed: true } : { ink: "#333", width: 2 };
      // 72 units: at least 32 px on a 390-pixel phone, where the arena is drawn 800 units wide.
      const faceDie = die(cx, 112, 72, face, { ...style, cls: "place-face" });
      if (place) {
        pointable(faceDie, "target", `stand at the ${loc.name.toLowerCase()} location: die face ${face} (${place.text})`, () => ui.act(place.move));
      }
      kids.push(faceDie);
    });
    // The fighters standing here, each with the face its placement die shows.
    const here = [0, 1].filter((p) => where[p] === loc.key);
    here.forEach((p, k) => {
      const cx = x + (here.length === 1 ? 112 : 62 + k * 120);
      kids.push(token(cx, 196, 24, p));
      const face = obs.fighters[p].face;
      if (face) kids.push(die(cx + 44, 196, 30, face, { cls: `placed-${"AB"[p]}` }));
    });
  });
  const label = `the arena: ${[0, 1].map((p) => `fighter ${"AB"[p]} ${where[p] ? `at the ${LOCATION[where[p]].name.toLowerCase()} location (die face ${obs.fighters[p].face})` : "not placed yet"}`).join(", ")}`;
  return canvas(800, 236, label, ...kids);
}

// --- the split ---------------------------------------------------------------------

/**
 * @param {number} off
 * @param {number} def
 */
function splitLabel(off, def) {
  return `${off} offense / ${def} defense`;
}

/**
 * A row of the seat's dice with a handle in each gap: pointing at one splits the dice there.
 * @param {FiteObservation} obs
 * @param {Choice<Split>[]} legal  the legal splits
 * @param {UI} ui
 */
function splitCanvas(obs, legal, ui) {
  const n = obs.fighters[obs.player].dice;
  const pitch = 78;
  const width = Math.max(420, n * pitch + 40);
  const left = (width - n * pitch) / 2 + pitch / 2;
  /** @type {Map<number, import("/web/board.js").MenuItem<Split>[]>} the splits by the number of offense dice */
  const choices = new Map();
  for (const { move: s } of legal) {
    const item = {
      label: s.power ? `${splitLabel(s.off, s.def)}, and use ${title(s.power)}` : splitLabel(s.off, s.def),
      action: s,
    };
    const items = choices.get(s.off);
    if (items) items.push(item);
    else choices.set(s.off, [item]);
  }
  /** @type {SVGGElement[]} */
  const dice = [];
  /** @type {SVGRectElement[]} each die's face, painted with its pool's colours */
  const faces = [];
  const hint = "← offense | defense →";
  const caption = text(width / 2, 30, hint, { "text-anchor": "middle", "font-size": 28, "font-weight": 700 });
  /** @param {number | null} off */
  const paint = (off) => {
    faces.forEach((rect, i) => {
      const pool = off === null ? null : i < off ? POOL.off : POOL.def;
      rect.setAttribute("fill", pool ? pool.fill : "#fff");
      rect.setAttribute("stroke", pool ? pool.ink : "#333");
    });
    caption.textContent = off === null ? hint : splitLabel(off, n - off);
  };
  for (let i = 0; i < n; i++) {
    const face = svg("rect", { x: left + i * pitch - 30, y: 48, width: 60, height: 60, rx: 11, fill: "#fff", stroke: "#333", "stroke-width": 3 });
    dice.push(svg("g", { class: "split-die" }, face));
    faces.push(face);
  }
  /** @type {SVGGElement[]} */
  const handles = [];
  for (const [off, items] of [...choices.entries()].sort((a, b) => a[0] - b[0])) {
    const cx = left + (off - 0.5) * pitch;
    const handle = svg("g", { class: "split-handle" },
      svg("circle", { cx, cy: 150, r: 36, fill: "#fff", stroke: TARGET, "stroke-width": 3 }),
      svg("rect", { x: cx - pitch / 2 + 2, y: 40, width: pitch - 4, height: 146, fill: "transparent" }),
      svg("line", { x1: cx, y1: 44, x2: cx, y2: 118, stroke: TARGET, "stroke-width": 3, "stroke-dasharray": "5 4" }),
      text(cx, 159, `${off}/${n - off}`, { "text-anchor": "middle", "font-size": 25, "font-weight": 700 }));
    handle.addEventListener("mouseenter", () => paint(off));
    handle.addEventListener("focus", () => paint(off));
    handle.addEventListener("mouseleave", () => paint(null));
    handle.addEventListener("blur", () => paint(null));
    const power = items.some((it) => it.action.power);
    pointable(handle, "target", power ? `${splitLabel(off, n - off)} (with or without the super power)` : splitLabel(off, n - off),
      () => chooseAmong(handle, items, ui.act));
    handles.push(handle);
  }
  const label = `split your ${n} dice into offense and defense`;
  const drawing = canvas(width, 192, label, caption, ...dice, ...handles);
  drawing.classList.add("fite-split");
  return drawing;
}

// --- pools, rolls and the cancellation ------------------------------------------------

/**
 * The dice a tactical choice (its structured form) touches: [{fighter, pool, face}], fighter 0 or 1.
 * @param {Tactic} move
 * @param {number} me
 * @returns {{fighter: number, pool: string | undefined, face: number}[]}
 */
function touched(move, me) {
  const out = (move.dice || []).map((face) => ({ fighter: me, pool: move.from, face }));
  for (const d of move.turn || []) out.push({ fighter: "AB".indexOf(d.fighter), pool: d.pool, face: d.face });
  return out;
}

/**
 * A tactical choice in words, for a menu: "move 6,5 from offense to defense", "turn over B's defense 6".
 * @param {Tactic} move
 * @param {number} me
 */
function describeTactic(move, me) {
  if (move.kind === "pass") return "pass: change nothing";
  const parts = [];
  // A move names its pools and its dice together.
  const { from, to, dice } = move;
  if (from && to && dice) parts.push(`move ${dice.join(",")} from ${POOL[from].name} to ${POOL[to].name}`);
  if (move.turn) {
    const dice = move.turn.map((d) => `${d.fighter === "AB"[me] ? "" : `${d.fighter}'s `}${POOL[d.pool].name} ${d.face}`);
    parts.push(`turn over ${dice.join(", ")}`);
  }
  return parts.join(" and ");
}

/**
 * The single tactical options that use the die of `fighter`'s `pool` showing `face`, built from the
 * observation when the legal actions are too many to list (Cunning at the tactical location): the
 * server judges them.
 * @param {TurnView} fight
 * @param {string} turnDice  the observation's `turn_dice`: "any" when a fighter may turn the other's dice
 * @param {number} me
 * @param {number} fighter
 * @param {"off" | "def"} pool
 * @param {number} face
 * @returns {Tactic[]}
 */
function builtOptions(fight, turnDice, me, fighter, pool, face) {
  const letter = "AB"[fighter];
  /** @type {Tactic} */
  const turn = { kind: "turn", turn: [{ fighter: letter, pool, face }] };
  if (fighter !== me) return turnDice === "any" ? [turn] : [];
  const other = pool === "off" ? "def" : "off";
  const here = fight.rolls[me][pool] || [];
  /** @type {Tactic} */
  const move = { kind: "move", from: pool, to: other, dice: [face] };
  return here.length > 1 ? [move, turn] : [turn];
}

/**
 * One exchange: the attacker's offensive dice above, the defender's defensive dice below.
 * `pairs` ([defence index, offence index]) draws which die cancelled which; offensive dice left
 * over are hits. `point.options(fighter, pool, face)` gives the actions for a die the seat may point at.
 * @param {Exchange} exchange
 */
function exchange({ obs, attacker, offFaces, offCount, defFaces, defCount, offValues, defValues, pairs, point, previous }) {
  const defender = 1 - attacker;
  const pitch = 70;
  const size = 56;
  const left = 160;
  const width = 730;
  const topY = 46;
  const bottomY = 190;
  /** @type {SVGElement[]} */
  const kids = [];
  /** @param {number} i */
  const xAt = (i) => left + pitch / 2 + i * pitch;
  /** @type {{p: number, pool: "off" | "def", faces: number[] | null, count: number | undefined, values: number[] | null, y: number, prev: number[] | null | undefined}[]} */
  const rows = [
    { p: attacker, pool: "off", faces: offFaces, count: offCount, values: offValues, y: topY, prev: previous ? previous.off : undefined },
    { p: defender, pool: "def", faces: defFaces, count: defCount, values: defValues, y: bottomY, prev: previous ? previous.def : undefined },
  ];
  const cancelledOff = new Set((pairs || []).map(([, o]) => o));
  const cancelling = new Set((pairs || []).map(([d]) => d));
  // Where each die is drawn. With the cancellation known, each cancelled attacking die stands right
  // above the defense die that cancelled it, the hits after them; otherwise highest first.
  /** @type {Record<"off" | "def", (row: number[]) => number[]>} */
  const columns = { off: (row) => row.map((_, i) => i), def: (row) => row.map((_, i) => i) };
  if (pairs) {
    const ordered = [...pairs].sort((a, b) => a[1] - b[1]);
    columns.off = (row) => {
      /** @type {number[]} */
      const at = new Array(row.length);
      ordered.forEach(([, o], k) => { at[o] = k; });
      let next = ordered.length;
      row.forEach((_, i) => { if (at[i] === undefined) at[i] = next++; });
      return at;
    };
    columns.def = (row) => {
      /** @type {number[]} */
      const at = new Array(row.length);
      ordered.forEach(([d], k) => { at[d] = k; });
      let next = ordered.length;
      row.forEach((_, i) => { if (at[i] === undefined) at[i] = next++; });
      return at;
    };
    ordered.forEach(([d, o], k) => {
      kids.push(svg("line", {
        class: "cancel-line", "data-def": d, "data-off": o,
        x1: xAt(k), y1: topY + size / 2 + 4, x2: xAt(k), y2: bottomY - size / 2 - 4,
        stroke: "#222", "stroke-width": 4,
      }));
    });
  }
  for (const row of rows) {
    const colour = POOL[row.pool];
    kids.push(token(28, row.y, 20, row.p));
    kids.push(text(54, row.y - 2, title(colour.name), { "font-size": 23, "font-weight": 700, fill: colour.ink }));
    const mod = row.values && row.faces && row.faces.length ? row.values[0] - row.faces[0] : null;
    if (mod) kids.push(text(54, row.y + 24, `${mod > 0 ? "+" : ""}${mod} each`, { "font-size": 21 }));
    const n = row.faces ? row.faces.length : row.count || 0;
    const column = columns[row.pool](new Array(n).fill(0));
    for (let i = 0; i < n; i++) {
      const face = row.faces ? row.faces[i] : null;
      const cx = xAt(column[i]);
      let cls = `pool-die ${row.pool} fighter-${"AB"[row.p]}`;
      /** @type {DieStyle} */
      let style = { fill: colour.fill, ink: colour.ink, width: 3 };
      if (pairs && row.pool === "off") {
        if (cancelledOff.has(i)) { cls += " cancelled"; style = { fill: "#e6e6e6", ink: "#555", width: 2 }; }
        else { cls += " hit"; style = { fill: "#fff", ink: HIT, width: 6 }; }
      }
      if (pairs && row.pool === "def") {
        cls += cancelling.has(i) ? " cancelling" : " idle";
        if (!cancelling.has(i)) style = { fill: "#fff", ink: "#6b7f99", width: 2, dashed: true };
      }
      if (face !== null && row.prev === null) cls += " fresh";
      const d = die(cx, row.y, size, face, { ...style, cls });
      const actions = face !== null && point ? point.options(row.p, row.pool, face) : [];
      if (point && actions.length) {
        const { me, act } = point;
        const rect = d.querySelector("rect");
        if (rect) {
          rect.setAttribute("stroke", TARGET);
          rect.setAttribute("stroke-dasharray", "7 4");
        }
        const whose = row.p === obs.player ? "your" : `${"AB"[row.p]}'s`;
        pointable(d, "target", `${whose} ${colour.name} die showing ${face}: move or turn it`,
          () => chooseAmong(d, actions.map((a) => ({ label: describeTactic(a, me), action: a })), act));
        // A finger's target larger than the die drawn: at least 32 px on a 390-pixel phone.
        d.append(svg("rect", { class: "hit-area", x: cx - 35, y: row.y - 35, width: 70, height: 70, fill: "transparent" }));
      }
      kids.push(d);
      if (row.values && mod) {
        const by = row.pool === "off" ? row.y - size / 2 - 4 : row.y + size / 2 + 22;
        kids.push(text(cx, by, `=${row.values[i]}`, { "text-anchor": "middle", "font-size": 21, "font-weight": 700, class: "value" }));
      }
      if (pairs && row.pool === "off" && !cancelledOff.has(i)) {
        kids.push(svg("path", { class: "hit-arrow", d: `M ${cx} ${row.y + size / 2 + 4} L ${cx} ${row.y + size / 2 + 44}`, stroke: HIT, "stroke-width": 4, fill: "none" }));
        kids.push(svg("path", { d: `M ${cx - 9} ${row.y + size / 2 + 34} L ${cx} ${row.y + size / 2 + 48} L ${cx + 9} ${row.y + size / 2 + 34} Z`, fill: HIT }));
        kids.push(text(cx, row.y + size / 2 + 68, "HIT", { "text-anchor": "middle", "font-size": 21, "font-weight": 800, fill: HIT }));
      }
    }
  }
  const a = "AB"[attacker];
  const b = "AB"[defender];
  let label = `${a} attacks with ${offFaces ? offFaces.join(", ") || "nothing" : `${offCount} dice`}; ${b} defends with ${defFaces ? defFaces.join(", ") || "nothing" : `${defCount} dice`}`;
  if (pairs) label += `; ${b}'s defense cancels ${pairs.length}, ${(offFaces || []).length - pairs.length} hits on ${b}`;
  const drawing = canvas(width, 250, label, ...kids);
  drawing.classList.add("fite-exchange");
  return drawing;
}

/**
 * One exchange's dice, and what to draw of them: `offCount` and `defCount` stand in for dice not
 * rolled yet (null faces); `pairs`, once known, which die cancelled which; `point`, on the seat's
 * tactical choice; `previous`, the same pools a view ago (a die rolled since is animated).
 * @typedef {{
 *   obs: FiteObservation, attacker: number, offFaces: number[] | null, offCount?: number,
 *   defFaces: number[] | null, defCount?: number, offValues: number[] | null, defValues: number[] | null,
 *   pairs: number[][] | null, point?: Pointing | null, previous?: PoolRolls | null,
 * }} Exchange
 */
/**
 * What the seat may do with a die it points at in its tactical choice.
 * @typedef {{
 *   options: (fighter: number, pool: "off" | "def", face: number) => Tactic[], act: (move: Tactic) => void,
 *   me: number,
 * }} Pointing
 */

/**
 * @param {FiteObservation} obs
 * @param {FightRecord} fight  the observation's `last_fight`
 */
function lastFightSection(obs, fight) {
  const box = html("section", { class: "fite-fight last-fight", "aria-label": "the last fight" });
  box.append(html("h3", { text: `The last fight (turn ${fight.turn})` }));
  const outcome = html("p", { class: "fite-outcome" });
  [0, 1].forEach((p) => {
    const before = fight.split[p][0] + fight.split[p][1];
    const lost = before - fight.dice[p];
    if (p) outcome.append(" ");
    outcome.append(`${who(obs, p)} `,
      html("span", { class: lost ? "lost" : "", text: lost ? `lost ${plural(lost, "die").replace("dies", "dice")}` : "lost no dice" }),
      ` (${before} → ${fight.dice[p]}).`);
  });
  box.append(outcome);
  /** @type {string[]} */
  const notes = [];
  [0, 1].forEach((p) => {
    const n = "AB"[p];
    notes.push(`${n} at the ${LOCATION[fight.locations[p]].name.toLowerCase()} location, split ${fight.split[p].join("/")}` +
      (fight.powers[p] ? `, used ${title(fight.powers[p])}` : "") +
      (fight.tactical && fight.tactical.choices[p] && fight.tactical.choices[p] !== "pass" ? `, then ${fight.tactical.choices[p]}` : ""));
  });
  box.append(html("p", { class: "fite-key", text: `${notes.join("; ")}. Lines join each defense die to the attacking die it cancelled (a defense die cancels one die of at most its value); red dice got through.` }));
  const pairs = fight.cancellations || null;
  for (const attacker of [0, 1]) {
    const defender = 1 - attacker;
    box.append(html("p", { class: "fite-exchange-title", text: `${"AB"[attacker]} attacks ${"AB"[defender]}: ${"AB"[defender]} cancels ${fight.cancelled[defender]} of ${fight.values[attacker].off.length}, ${plural(fight.hits[defender], "hit")}` }));
    box.append(exchange({
      obs, attacker,
      offFaces: fight.pools[attacker].off, defFaces: fight.pools[defender].def,
      offValues: fight.values[attacker].off, defValues: fight.values[defender].def,
      pairs: pairs ? pairs[defender] : [],
    }));
  }
  return box;
}

/**
 * Whether a legal action is a tactical choice of one option (a move or a turn of dice, or a pass).
 * @param {FiteMove} move
 * @returns {move is Tactic}
 */
function singleTactic(move) {
  return move.kind === "pass" || move.kind === "move" || move.kind === "turn";
}

/**
 * @param {View} view
 * @param {UI} ui
 * @param {TurnView} fight  the observation's `fight`, both splits made
 */
function currentFightSection(view, ui, fight) {
  const obs = view.observation;
  const box = html("section", { class: "fite-fight this-fight", "aria-label": "this turn's fight" });
  /** @type {Pointing | null} */
  let point = null;
  if (view.your_turn && obs.phase === "tactical") {
    const me = obs.player;
    // A die's menu holds the single options that use it (a move, or a turn), fewest dice first; the
    // two options at once (Cunning at the tactical location) are typed, as they run to hundreds.
    const single = view.moves ? view.moves.filter(singleTactic) : null;
    point = {
      options: (p, pool, face) => single
        ? single
          .map((m) => ({ move: m, dice: touched(m, me) }))
          .filter(({ dice }) => dice.some((t) => t.fighter === p && t.pool === pool && t.face === face))
          .sort((x, y) => x.dice.length - y.dice.length)
          .map(({ move }) => move)
        : builtOptions(fight, obs.turn_dice, me, p, pool, face),
      act: ui.act,
      me,
    };
  }
  const prev = view.previous && view.previous.fight && view.previous.fight.turn === fight.turn ? view.previous.fight.rolls : null;
  box.append(html("h3", { text: `This turn's fight (turn ${fight.turn})` }));
  for (const attacker of [0, 1]) {
    const defender = 1 - attacker;
    const mods = fight.modifiers || [{ off: 0, def: 0 }, { off: 0, def: 0 }];
    const offFaces = fight.rolls[attacker].off;
    const defFaces = fight.rolls[defender].def;
    box.append(html("p", { class: "fite-exchange-title", text: `${"AB"[attacker]} attacks ${"AB"[defender]}` }));
    box.append(exchange({
      obs, attacker,
      offFaces, offCount: fight.split[attacker]?.[0], defFaces, defCount: fight.split[defender]?.[1],
      offValues: offFaces ? offFaces.map((f) => f + mods[attacker].off) : null,
      defValues: defFaces ? defFaces.map((f) => f + mods[defender].def) : null,
      pairs: null, point,
      previous: prev ? { off: prev[attacker].off, def: prev[defender].def } : null,
    }));
  }
  return box;
}

// --- what this step asks ---------------------------------------------------------------

/**
 * @param {View} view
 * @param {UI} ui
 */
function stepSection(view, ui) {
  const obs = view.observation;
  const me = obs.player === 0 || obs.player === 1 ? obs.player : null;
  const acting = !!view.your_turn;
  const legal = choices(view);
  const box = html("section", { class: `fite-step${acting ? " yours" : ""}`, "aria-label": "this step" });
  /** @param {string} line */
  const say = (line) => box.append(html("p", { text: line }));
  const phase = obs.phase;
  const turn = phase === "setup" ? "SETUP" : `Turn ${obs.turn}`;
  if (obs.result) {
    const r = obs.result;
    const winner = r.winner === null || r.winner === undefined ? "A draw" : `${who(obs, r.winner)} ${obs.player === r.winner ? "win" : "wins"}`;
    box.append(html("h3", { text: `${winner}.` }));
    if (r.reason) say(title(r.reason) + ".");
    return box;
  }
  if (phase === "setup" || phase === "place") {
    box.append(html("h3", { text: `${turn}: placement` }));
    if (acting) say("Choose in secret where to stand: point at a die face in the arena (1-2 offensive, 3-4 defensive, 5-6 tactical).");
    else if (obs.mine) say(`You chose ${obs.mine}; waiting for the other fighter. Both placements are revealed at once.`);
    else say("Both fighters choose in secret where to stand.");
  } else if (phase === "swift") {
    box.append(html("h3", { text: `${turn}: Swift` }));
    if (acting) {
      say("Swift: point at another location to move there (and use the power), or stay.");
      const stay = legal.find((c) => c.move.kind === "stay");
      if (stay) box.append(pointable(html("span", { class: "chip", text: "stay where I am" }), "target", "stay: keep the location and the power", () => ui.act(stay.move)));
    } else if (obs.mine) say(`You chose ${obs.mine}; waiting.`);
    else say("A fighter with Swift may move to another location.");
  } else if (phase === "split") {
    box.append(html("h3", { text: `${turn}: split the dice` }));
    if (acting) {
      say("Split your dice in secret into offense (attack) and defense: point at a handle between two dice.");
      box.append(splitCanvas(obs, ofKind(legal, "split"), ui));
    } else if (obs.mine && me !== null) {
      say(`You chose ${obs.mine}, secret until both have chosen; waiting for the other fighter.`);
    } else say("Both fighters split their dice in secret into offense and defense.");
  } else if (phase === "roll") {
    box.append(html("h3", { text: `${turn}: the roll` }));
    const r = obs.rolling;
    if (r) say(`Rolling ${r.fighter}'s ${POOL[r.pool].name} (${plural(r.dice, "die").replace("dies", "dice")}).`);
  } else if (phase === "tactical") {
    box.append(html("h3", { text: `${turn}: tactical choices` }));
    if (acting) {
      say("Point at one of your dice to move it to your other pool or turn it over (7 minus its face), or pass.");
      const both = view.moves ? legal.some((c) => c.move.kind === "move and turn") : view.legal_count > 0;
      if (both) say("Both options at once (Cunning at the tactical location): type them below, like 'move def>off 6 and turn off 1'.");
      // Pass is always a choice here, listed or not.
      box.append(pointable(html("span", { class: "chip", text: "pass" }), "target", "pass: change nothing", () => ui.act({ kind: "pass" })));
    } else if (obs.mine) say(`You chose ${obs.mine}; waiting.`);
    else say("The fighters at the tactical location choose in secret.");
  }
  return box;
}

/**
 * @param {View} view
 * @param {UI} ui
 * @returns {HTMLDivElement}
 */
export function draw(view, ui) {
  const obs = view.observation;
  const root = html("div", { class: "fite-board" }, html("style", { text: STYLE }));
  root.append(fighters(obs));
  root.append(stepSection(view, ui));
  root.append(arenaCanvas(view, ui));
  const fight = obs.fight;
  if (fight && fight.split && fight.split[0] && fight.split[1] && (obs.phase === "roll" || obs.phase === "tactical")) {
    root.append(currentFightSection(view, ui, fight));
  }
  if (obs.last_fight) root.append(lastFightSection(obs, obs.last_fight));
  // A drawing with things to point at is a group of controls for assistive technologies, not a picture.
  for (const drawing of root.querySelectorAll("svg.drawing")) {
    if (drawing.querySelector(".target")) drawing.setAttribute("role", "group");
  }
  return root;
}
