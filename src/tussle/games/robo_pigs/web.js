// @ts-check
// Robo Battle Pigs in the browser: the board with both pigs (square, facing, damage), the editor of
// the secret five-command program, and the reveal of the round just played, step by step.
//
// The observation holds everything drawn here: the pigs, this seat's own sent program and the last
// round's programs and steps once both were revealed. Nothing else is guessed or shown. A program is
// read and built in its structured form, {commands: [five symbols]} (my_move, last_round.moves,
// view.moves), never parsed from its notation.
import { canvas, html, svg } from "/web/board.js";

// What the server sends, as the game declares it in Python (observation.py: RoboPigsObservation;
// actions.py: ProgramJSON): a drawing that reads a field the game does not send fails here.
/** @typedef {{commands: string[]}} Program  a program: its five commands by symbol, in step order */
/** @typedef {{name: string, square: string, facing: string, damage: number}} Pig  facing: N, E, S or W */
/**
 * program_length and damage_limit come only in the variants (5 and 5 otherwise).
 * @typedef {{repair_at: string, extra_x: boolean, round_limit: number, program_length?: number, damage_limit?: number}} Options
 */
/**
 * One step of a revealed round, both pigs' parts index for index (pig A first).
 * @typedef {{
 *   commands: string[], squares: string[], facings: string[], damage: number[], hit: boolean[],
 *   moved: boolean[], blocked: (string | null)[],
 * }} Step
 */
/**
 * The round just played, public once both programs are revealed.
 * @typedef {{
 *   round: number, programs: string[], moves: Program[], damage_before: number[], repaired: boolean[],
 *   steps: Step[],
 * }} LastRound
 */
/**
 * Everything public, and the seat's own program once sent (never the other pig's).
 * @typedef {{
 *   game: string, player: number, round: number, options: Options, pigs: Pig[],
 *   my_program: string | null, my_move: Program | null, last_round: LastRound | null,
 *   result: import("/web/types.js").ResultJSON | null, board?: BoardShape,
 * }} RoboPigsObservation
 */
/** @typedef {{width: number, height: number, walls: string[]}} BoardShape  a board other than the rules' 8x8 */
/** @typedef {import("/web/types.js").View<RoboPigsObservation, Program>} View */
/** @typedef {import("/web/types.js").UI<Program>} UI */
/** @typedef {{symbol: string, name: string, does: string}} Command */

const FILES = "abcdefgh";
const SIZE = 60; // one square of the board, in the drawing's units
const EDGE = 26; // the margin that holds the coordinates
const WIDE = EDGE * 2 + SIZE * 8;
// The commands of a program and the damage that ends the game: the rules' 5, or a variant's, set by draw.
let STEPS = 5;
let LETHAL = 5;
const FACINGS = "NESW";
/** @type {Record<string, string>} */
const FACING_NAMES = { N: "north", E: "east", S: "south", W: "west" };
/** @type {[number, number][]} */
const DELTA = [[0, 1], [1, 0], [0, -1], [-1, 0]]; // N E S W as (file, rank)
const MOVES = ["^", "v", "\\", "/"];

/**
 * The commands a program may use: symbol, short name, what it does.
 * @type {Command[]}
 */
const COMMANDS = [
  { symbol: "^", name: "forward", does: "move one square ahead" },
  { symbol: "v", name: "back", does: "move one square back, still facing the same way" },
  { symbol: "\\", name: "forward left", does: "move one square diagonally ahead and to the left; the facing stays" },
  { symbol: "/", name: "forward right", does: "move one square diagonally ahead and to the right; the facing stays" },
  { symbol: "TL", name: "turn left", does: "a quarter turn counter-clockwise, on the spot" },
  { symbol: "TR", name: "turn right", does: "a quarter turn clockwise, on the spot" },
  { symbol: "F", name: "fire", does: "the laser hits the other pig anywhere straight ahead" },
  { symbol: "H", name: "hit", does: "the fist hits the other pig on the three squares in front" },
  { symbol: "X", name: "damage", does: "does nothing: one per point of damage" },
  { symbol: "R", name: "repair", does: "the whole program R R R R R takes off one point of damage" },
];
/** @type {{[symbol: string]: Command | undefined}} */
const BY_SYMBOL = Object.fromEntries(COMMANDS.map((c) => [c.symbol, c]));
/**
 * Keys that write a command in the editor.
 * @type {{[key: string]: string | undefined}}
 */
const KEYS = { "^": "^", w: "^", v: "v", s: "v", "\\": "\\", q: "\\", "/": "/", e: "/", l: "TL", a: "TL", r: "TR", d: "TR", f: "F", h: "H", x: "X" };

// Kept across draws on purpose: in a simultaneous game a new view can come while the program is
// half written (the other seat submits, a clock is armed), and the half-written program must survive
// it. Both are keyed by the game, the seat and the round, so nothing outlives its round.
/**
 * The program being written: its steps (null: empty), which are damage X, the chosen step, whether
 * it is the repair program (and the program written before it), whether it was just sent.
 * @typedef {{
 *   key: string, slots: (string | null)[], locked: boolean[], cursor: number, repair: boolean,
 *   sent: boolean, saved?: {slots: (string | null)[], locked: boolean[]},
 * }} Draft
 */
/** @type {Draft | null} */
let draft = null;
/**
 * The reveal under way (`start`: when it began) or a step chosen by hand (`at`; null: the end).
 * @type {{key: string, start?: number, at?: number | null} | null}
 */
let reveal = null;

const STYLE = `
.rp { --pig-a: #f48fb1; --pig-a-ink: #6d0f35; --pig-b: #81c7f5; --pig-b-ink: #0b3a66; --laser: #d50000; --lock: #5b5b5b; }
.rp-main { display: grid; grid-template-columns: minmax(0, 1.15fr) minmax(17rem, 1fr); grid-template-areas: "board side" "reveal side"; gap: .75rem 1.25rem; align-items: start; }
.rp-board { grid-area: board; }
.rp-side { grid-area: side; }
.rp-main > .rp-reveal { grid-area: reveal; }
.rp-keys { font-size: .88rem; color: #333; margin-top: .4rem; }
.rp-keys summary { cursor: pointer; }
.rp-board svg.drawing { max-height: 80vh; }
.rp-side > * + * { margin-top: .75rem; }
.rp-pigs { display: flex; flex-wrap: wrap; gap: .4rem .75rem; margin: 0 0 .5rem; padding: 0; list-style: none; }
.rp-pigs li { display: flex; align-items: center; gap: .4rem; border: 2px solid #333; border-radius: .4rem; padding: .2rem .5rem; background: #fff; }
.rp-pigs li.a { border-color: var(--pig-a-ink); background: #fde7ef; }
.rp-pigs li.b { border-color: var(--pig-b-ink); background: #e3f1fc; }
.rp-pips { letter-spacing: .05em; font-size: 1.05rem; }
.rp-pip { display: inline-block; width: .8rem; height: .8rem; border-radius: 50%; border: 2px solid #7a1010; margin-right: .12rem; vertical-align: -.1rem; background: #fff; }
.rp-pip.on { background: #c62828; }
.rp h3 { font-size: 1.05rem; margin: 0 0 .4rem; }
.rp-panel { border: 1px solid #999; border-radius: .5rem; padding: .5rem .65rem; background: #fafafa; }
.rp-slots { display: grid; grid-template-columns: repeat(5, minmax(0, 1fr)); gap: .35rem; margin: .3rem 0 .5rem; }
.rp .rp-slot { display: flex; flex-direction: column; align-items: center; justify-content: center; min-height: 4.1rem; padding: .2rem .1rem; background: #fff; color: #111; border: 2px dashed #777; border-radius: .45rem; line-height: 1.1; }
.rp .rp-slot .n { font-size: .72rem; color: #444; }
.rp .rp-slot .sym { font-family: ui-monospace, monospace; font-size: 1.45rem; font-weight: 700; min-height: 1.6rem; }
.rp .rp-slot .what { font-size: .72rem; color: #333; }
.rp .rp-slot.filled { border-style: solid; border-color: #0b4f9c; background: #e8eef7; }
.rp .rp-slot.locked { border-style: solid; border-color: var(--lock); background: repeating-linear-gradient(45deg, #ececec, #ececec 6px, #dcdcdc 6px, #dcdcdc 12px); cursor: default; }
.rp .rp-slot.locked .sym { color: #7a1010; }
.rp .rp-slot.current { box-shadow: 0 0 0 3px #c25e00; }
.rp-palette { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: .35rem; }
.rp button.rp-cmd { display: flex; flex-direction: column; align-items: center; padding: .3rem .15rem; background: #0b4f9c; color: #fff; border-radius: .4rem; line-height: 1.15; }
.rp button.rp-cmd .sym { font-family: ui-monospace, monospace; font-size: 1.25rem; font-weight: 700; }
.rp button.rp-cmd .what { font-size: .78rem; }
.rp button.rp-cmd.repair { grid-column: span 2; background: #2e5e2e; }
.rp button.rp-cmd.extra { background: #5b5b5b; }
.rp-tools { display: flex; flex-wrap: wrap; gap: .35rem; margin: .5rem 0 0; }
.rp button.rp-tool { background: #fff; color: #0b2a4a; border: 1px solid #0b4f9c; padding: .3rem .55rem; font-size: .92rem; min-height: 2.25rem; }
.rp button:disabled, .rp button.rp-send:disabled { opacity: 1; background: #d6d6d6; color: #444; border-color: #aaa; cursor: not-allowed; }
.rp button.rp-send { font-size: 1.1rem; font-weight: 700; padding: .5rem 1rem; background: #0a6b26; }
.rp-send-row { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; margin-top: .6rem; }
.rp-note { font-size: .9rem; color: #333; margin: .25rem 0; }
.rp-note.bad { color: #a00000; }
.rp-prog { width: 100%; border-collapse: collapse; font-size: .95rem; }
.rp-prog th, .rp-prog td { border: 1px solid #bbb; padding: .2rem .25rem; text-align: center; }
.rp-prog th[scope=row] { text-align: left; white-space: nowrap; }
.rp-prog td { font-family: ui-monospace, monospace; font-weight: 700; font-size: 1.05rem; }
.rp-prog td.hit { background: #ffe08a; }
.rp-prog .now td, .rp-prog td.now, .rp-prog th.now { background: #fff2b3; outline: 2px solid #c25e00; outline-offset: -2px; }
.rp-caption { min-height: 3.2em; margin: .4rem 0; font-size: .95rem; }
.rp-caption p { margin: .1rem 0; }
.rp-controls { display: flex; flex-wrap: wrap; gap: .35rem; }
.rp svg .pig { transition: transform .45s ease-in-out; }
.rp svg .pig .turn { transition: transform .35s ease-in-out; }
@media (prefers-reduced-motion: reduce) { .rp svg .pig, .rp svg .pig .turn { transition: none; } }
@media (max-width: 44rem) {
  .rp-main { grid-template-columns: minmax(0, 1fr); grid-template-areas: "board" "side" "reveal"; }
  .rp .rp-slot { min-height: 3.6rem; }
  .rp .rp-slot .what { display: none; }
}
`;

// --- geometry -----------------------------------------------------------------------------------

/**
 * @param {string} square
 * @returns {[number, number]}
 */
function parse(square) {
  return [FILES.indexOf(square[0]), Number(square.slice(1)) - 1];
}

/**
 * @param {number} file
 * @param {number} rank
 */
function name(file, rank) {
  return FILES[file] + String(rank + 1);
}

/**
 * @param {string} square
 * @returns {[number, number]}
 */
function centre(square) {
  const [f, r] = parse(square);
  return [EDGE + f * SIZE + SIZE / 2, EDGE + (7 - r) * SIZE + SIZE / 2];
}

/**
 * @param {number} f
 * @param {number} r
 */
function onBoard(f, r) {
  return f >= 0 && f < shape.width && r >= 0 && r < shape.height && !shape.walls.includes(name(f, r));
}

/**
 * The board drawn: the rules' 8x8, or the one the view gives (the board option), which keeps the
 * squares' names and places: its squares run from a1 up, the rest of the 8x8 frame stays dark.
 * @type {BoardShape}
 */
let shape = { width: 8, height: 8, walls: [] };

/**
 * The (file, rank) change of a move for a pig facing `facing` (0..3), or null for no move.
 * @param {string} command
 * @param {number} facing
 * @returns {[number, number] | null}
 */
function moveDelta(command, facing) {
  const [fx, fy] = DELTA[facing];
  const [lx, ly] = DELTA[(facing + 3) % 4];
  const [rx, ry] = DELTA[(facing + 1) % 4];
  if (command === "^") return [fx, fy];
  if (command === "v") return [-fx, -fy];
  if (command === "\\") return [fx + lx, fy + ly];
  if (command === "/") return [fx + rx, fy + ry];
  return null;
}

/**
 * The change of a command that the steps say moved (or was blocked moving): a move's, never null.
 * @param {string} command
 * @param {number} facing
 * @returns {[number, number]}
 */
function moveStep(command, facing) {
  const delta = moveDelta(command, facing);
  if (!delta) throw new Error(`${command} is not a move`);
  return delta;
}

/**
 * @param {number} facing
 * @param {string} command
 */
function turned(facing, command) {
  if (command === "TL") return (facing + 3) % 4;
  if (command === "TR") return (facing + 1) % 4;
  return facing;
}

// --- the round just played, frame by frame ---------------------------------------------------------

/**
 * The frames of the last round: frame 0 is the start of the round, frame i the end of step i. Where the
 * pigs started is worked back from the steps (a move keeps the facing; a turn keeps the square).
 * @param {LastRound} round
 * @param {Options} options
 * @returns {Frame[]}
 */
function roundFrames(round, options) {
  const steps = round.steps;
  const squares = [[...steps[steps.length - 1].squares]];
  const facings = [steps[steps.length - 1].facings.map((f) => FACINGS.indexOf(f))];
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i];
    const sq = [...step.squares];
    const fc = step.facings.map((f) => FACINGS.indexOf(f));
    for (const p of [0, 1]) {
      const command = step.commands[p];
      if (step.moved[p]) {
        const [dx, dy] = moveStep(command, fc[p]);
        const [f, r] = parse(sq[p]);
        sq[p] = name(f - dx, r - dy);
      } else if (command === "TL") fc[p] = (fc[p] + 1) % 4;
      else if (command === "TR") fc[p] = (fc[p] + 3) % 4;
    }
    squares.unshift(sq);
    facings.unshift(fc);
  }
  const atStart = options && options.repair_at === "start";
  const damage0 = round.damage_before.map((d, p) => d - (atStart && round.repaired[p] ? 1 : 0));
  /** @type {Frame[]} */
  const frames = [{ index: 0, squares: squares[0], facings: facings[0], damage: damage0, step: null }];
  steps.forEach((step, i) => {
    frames.push({ index: i + 1, squares: squares[i + 1], facings: facings[i + 1], damage: step.damage, step, before: squares[i], facingsBefore: facings[i] });
  });
  return frames;
}
/**
 * A moment of the round: where the pigs are and their damage; after a step, the step and where they
 * were before it.
 * @typedef {{index: number, squares: string[], facings: number[], damage: number[]}} Moment
 * @typedef {Moment & {step: null}} Start
 * @typedef {Moment & {step: Step, before: string[], facingsBefore: number[]}} AfterStep
 * @typedef {Start | AfterStep} Frame
 */

/**
 * What happened in one step, in words, one line a pig.
 * @param {Frame} frame
 * @param {string[]} names
 */
function stepWords(frame, names) {
  const step = frame.step;
  if (!step) return [`Round start: pig A on ${frame.squares[0]}, pig B on ${frame.squares[1]}.`];
  /** @type {string[]} */
  const lines = [];
  for (const p of [0, 1]) {
    const command = step.commands[p];
    const info = BY_SYMBOL[command];
    const who = names[p];
    const other = names[1 - p];
    /** @type {string} */
    let what;
    if (MOVES.includes(command)) {
      if (step.moved[p]) what = `moves to ${step.squares[p]}`;
      else if (step.blocked[p] === "edge") what = "is blocked by the edge and stays";
      else if (step.blocked[p] === "wall") what = "is blocked by a wall and stays";
      else what = `is blocked by ${other} and stays`;
    } else if (command === "TL" || command === "TR") {
      what = `turns to face ${FACING_NAMES[step.facings[p]]}`;
    } else if (command === "F") {
      what = step.hit[1 - p] ? `the laser hits ${other}` : "the laser misses";
    } else if (command === "H") {
      what = step.hit[1 - p] ? `the fist hits ${other}` : "the fist misses";
    } else if (command === "X") {
      what = "does nothing (damage)";
    } else {
      what = "repairs";
    }
    lines.push(`${who}: ${command} (${info ? info.name : command}): ${what}.`);
  }
  return lines;
}

// --- drawing the board ------------------------------------------------------------------------------

/**
 * @param {number} p
 * @returns {SVGElement[]}
 */
function pigShape(p) {
  const fill = p === 0 ? "#f48fb1" : "#81c7f5";
  const ink = p === 0 ? "#6d0f35" : "#0b3a66";
  const snout = p === 0 ? "#f8bbd0" : "#bfe3fb";
  return [
    svg("path", { d: "M -17 -8 L -21 -22 L -7 -16 Z", fill, stroke: ink, "stroke-width": 2, "stroke-linejoin": "round" }),
    svg("path", { d: "M 17 -8 L 21 -22 L 7 -16 Z", fill, stroke: ink, "stroke-width": 2, "stroke-linejoin": "round" }),
    svg("circle", { r: 19, fill, stroke: ink, "stroke-width": 2.5 }),
    svg("rect", { x: -8, y: -10, width: 16, height: 3, rx: 1.5, fill: ink, opacity: 0.55 }),
    svg("ellipse", { cx: 0, cy: -20, rx: 9.5, ry: 6.5, fill: snout, stroke: ink, "stroke-width": 2.5 }),
    svg("ellipse", { cx: -3.5, cy: -20, rx: 1.7, ry: 2.4, fill: ink }),
    svg("ellipse", { cx: 3.5, cy: -20, rx: 1.7, ry: 2.4, fill: ink }),
  ];
}

/**
 * A pig's drawing, and the parts that placing it changes.
 * @typedef {{group: SVGGElement, turn: SVGGElement, badge: SVGGElement, count: SVGTextElement, title: SVGTitleElement}} PigDrawing
 */

/**
 * @param {number} p
 * @param {boolean} you
 * @returns {PigDrawing}
 */
function makePig(p, you) {
  const ink = p === 0 ? "#6d0f35" : "#0b3a66";
  const turn = svg("g", { class: "turn" }, pigShape(p));
  const count = svg("text", { "text-anchor": "middle", y: 5, "font-size": 14, "font-weight": 700, fill: "#fff" });
  const badge = svg("g", { class: "badge", transform: "translate(19 17)" },
    svg("circle", { r: 10, fill: "#c62828", stroke: "#fff", "stroke-width": 2 }),
    count);
  const label = svg("text", { "text-anchor": "middle", y: 7, "font-size": 19, "font-weight": 800, fill: ink }, p === 0 ? "A" : "B");
  const title = svg("title");
  const group = svg("g", { class: `pig pig-${p === 0 ? "a" : "b"}`, role: "img", "data-pig": p === 0 ? "A" : "B" },
    title, you ? svg("circle", { r: 27, fill: "none", stroke: ink, "stroke-width": 2, "stroke-dasharray": "4 3" }) : null,
    turn, label, badge);
  group.dataset.angle = "";
  return { group, turn, badge, count, title };
}

/**
 * Put a pig where a frame says: square, facing (the snout turns the short way), damage.
 * @param {PigDrawing} pig
 * @param {number} p
 * @param {string} square
 * @param {number} facing
 * @param {number} damage
 * @param {boolean} you
 */
function placePig(pig, p, square, facing, damage, you) {
  const { group, turn, badge, count, title } = pig;
  const [x, y] = centre(square);
  group.style.transform = `translate(${x}px, ${y}px)`;
  const old = group.dataset.angle === "" ? null : Number(group.dataset.angle);
  let angle = facing * 90;
  if (old !== null) {
    let delta = ((angle - old) % 360 + 540) % 360 - 180;
    angle = old + delta;
  }
  group.dataset.angle = String(angle);
  turn.style.transform = `rotate(${angle}deg)`;
  badge.style.display = damage > 0 ? "" : "none";
  count.textContent = String(damage);
  const text = `pig ${p === 0 ? "A" : "B"}${you ? " (you)" : ""}: ${square}, facing ${FACING_NAMES[FACINGS[facing]]}, damage ${damage} of ${LETHAL}`;
  group.setAttribute("aria-label", text);
  title.textContent = text;
  group.dataset.square = square;
  group.dataset.facing = FACINGS[facing];
  group.dataset.damage = String(damage);
}

function boardBase() {
  /** @type {SVGElement[]} */
  const parts = [svg("rect", { x: 0, y: 0, width: WIDE, height: WIDE, fill: "#2c3440", rx: 8 })];
  for (let f = 0; f < shape.width; f++) {
    for (let r = 0; r < shape.height; r++) {
      const light = (f + r) % 2 === 1;
      const wall = shape.walls.includes(name(f, r));
      parts.push(svg("rect", {
        x: EDGE + f * SIZE, y: EDGE + (7 - r) * SIZE, width: SIZE, height: SIZE,
        fill: wall ? "#7a5230" : light ? "#eef1f5" : "#c9d3df", "data-square": name(f, r), "data-wall": wall ? "" : null,
      }, wall ? svg("title", {}, `wall on ${name(f, r)}`) : null));
    }
  }
  for (let i = 0; i < 8; i++) {
    const at = EDGE + i * SIZE + SIZE / 2;
    if (i < shape.width) for (const y of [EDGE / 2 + 5, WIDE - EDGE / 2 + 5]) parts.push(svg("text", { x: at, y, "text-anchor": "middle", "font-size": 15, fill: "#fff", "font-weight": 600 }, FILES[i]));
    if (i < shape.height) for (const x of [EDGE / 2, WIDE - EDGE / 2]) parts.push(svg("text", { x, y: EDGE + (7 - i) * SIZE + SIZE / 2 + 5, "text-anchor": "middle", "font-size": 15, fill: "#fff", "font-weight": 600 }, String(i + 1)));
  }
  return parts;
}

/**
 * @param {string} from
 * @param {string} to
 * @param {string} colour
 * @param {number} width
 * @param {boolean} dashed
 */
function arrowLine(from, to, colour, width, dashed) {
  const [x1, y1] = centre(from);
  const [x2, y2] = centre(to);
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const ux = (x2 - x1) / len;
  const uy = (y2 - y1) / len;
  const ex = x2 - ux * 22;
  const ey = y2 - uy * 22;
  const head = `M ${ex + ux * 10} ${ey + uy * 10} L ${ex - uy * 7} ${ey + ux * 7} L ${ex + uy * 7} ${ey - ux * 7} Z`;
  return svg("g", { class: "move-arrow" },
    svg("line", { x1: x1 + ux * 14, y1: y1 + uy * 14, x2: ex, y2: ey, stroke: colour, "stroke-width": width, "stroke-linecap": "round", "stroke-dasharray": dashed ? "6 6" : null }),
    svg("path", { d: head, fill: colour }));
}

/**
 * @param {string} square
 * @param {string} label
 */
function burst(square, label) {
  const [x, y] = centre(square);
  /** @type {string[]} */
  const points = [];
  for (let i = 0; i < 16; i++) {
    const radius = i % 2 === 0 ? 27 : 13;
    const a = (Math.PI * i) / 8;
    points.push(`${(x + radius * Math.sin(a)).toFixed(1)},${(y - radius * Math.cos(a)).toFixed(1)}`);
  }
  return svg("g", { class: "hit-mark", role: "img", "aria-label": label },
    svg("polygon", { points: points.join(" "), fill: "#ffd600", stroke: "#b71c1c", "stroke-width": 2.5, opacity: 0.92 }),
    svg("text", { x, y: y + 6, "text-anchor": "middle", "font-size": 16, "font-weight": 800, fill: "#7a0000" }, "−1"));
}

/**
 * Lasers, fists, blocked moves and the moves' arrows of one step.
 * @param {Frame} frame
 */
function stepMarks(frame) {
  /** @type {SVGElement[]} */
  const marks = [];
  if (!frame.step) return marks;
  const step = frame.step;
  const inks = ["#6d0f35", "#0b3a66"];
  for (const p of [0, 1]) {
    const command = step.commands[p];
    if (step.moved[p]) marks.push(arrowLine(frame.before[p], step.squares[p], inks[p], 4, false));
    if (step.blocked[p]) {
      const [dx, dy] = moveStep(command, frame.facingsBefore[p]);
      const [x, y] = centre(step.squares[p]);
      const bx = x + (dx * SIZE) / 2;
      const by = y - (dy * SIZE) / 2;
      const px = -dy;
      const py = -dx;
      marks.push(svg("g", { class: "block-mark", role: "img", "aria-label": `pig ${p ? "B" : "A"} blocked by ${step.blocked[p] === "edge" ? "the edge" : step.blocked[p] === "wall" ? "a wall" : "the other pig"}` },
        svg("line", { x1: bx + px * 14, y1: by + py * 14, x2: bx - px * 14, y2: by - py * 14, stroke: "#111", "stroke-width": 7, "stroke-linecap": "round" }),
        svg("line", { x1: bx + px * 14, y1: by + py * 14, x2: bx - px * 14, y2: by - py * 14, stroke: "#ffd600", "stroke-width": 3, "stroke-linecap": "round", "stroke-dasharray": "4 4" })));
    }
  }
  for (const p of [0, 1]) {
    const command = step.commands[p];
    const facing = FACINGS.indexOf(step.facings[p]);
    const [f, r] = parse(step.squares[p]);
    const target = step.squares[1 - p];
    if (command === "F") {
      const [dx, dy] = DELTA[facing];
      let [tf, tr] = [f, r];
      /** @type {string | null} */
      let end = null;
      while (onBoard(tf + dx, tr + dy)) {
        tf += dx; tr += dy;
        end = name(tf, tr);
        if (end === target) break;
      }
      const [x1, y1] = centre(step.squares[p]);
      /** @type {number} */
      let x2;
      /** @type {number} */
      let y2;
      if (end === null) { x2 = x1 + dx * SIZE * 0.5; y2 = y1 - dy * SIZE * 0.5; } else if (end === target) { [x2, y2] = centre(end); } else {
        [x2, y2] = centre(end);
        x2 += dx * SIZE * 0.5; y2 -= dy * SIZE * 0.5;
      }
      marks.push(svg("g", { class: "laser", role: "img", "aria-label": `pig ${p ? "B" : "A"}'s laser ${step.hit[1 - p] ? "hits" : "misses"}` },
        svg("line", { x1, y1, x2, y2, stroke: "#fff", "stroke-width": 10, "stroke-linecap": "round", opacity: 0.85 }),
        svg("line", { x1, y1, x2, y2, stroke: "#d50000", "stroke-width": 5, "stroke-linecap": "round", "stroke-dasharray": step.hit[1 - p] ? null : "10 7" })));
    } else if (command === "H") {
      for (const c of ["^", "\\", "/"]) {
        const [dx, dy] = moveStep(c, facing);
        if (!onBoard(f + dx, r + dy)) continue;
        const [x, y] = centre(name(f + dx, r + dy));
        marks.push(svg("rect", { class: "fist", x: x - SIZE / 2 + 4, y: y - SIZE / 2 + 4, width: SIZE - 8, height: SIZE - 8, rx: 6, fill: "#ff6d00", "fill-opacity": 0.18, stroke: "#bf360c", "stroke-width": 3, "stroke-dasharray": "7 4" }));
      }
    }
  }
  for (const p of [0, 1]) {
    if (step.hit[p]) marks.push(burst(step.squares[p], `pig ${p ? "B" : "A"} is hit`));
  }
  return marks;
}

/**
 * The faint paths both pigs took during the last round (shown once the reveal has ended).
 * @param {Frame[]} frames
 */
function roundTrails(frames) {
  /** @type {SVGElement[]} */
  const marks = [];
  const inks = ["#6d0f35", "#0b3a66"];
  for (const p of [0, 1]) {
    /** @type {[number, number][]} */
    const points = [];
    for (const frame of frames) {
      const at = centre(frame.squares[p]);
      const last = points[points.length - 1];
      if (!last || last[0] !== at[0] || last[1] !== at[1]) points.push(at);
    }
    if (points.length < 2) continue;
    marks.push(svg("polyline", { class: "trail", points: points.map((pt) => pt.join(",")).join(" "), fill: "none", stroke: inks[p], "stroke-width": 3, "stroke-dasharray": "2 7", "stroke-linecap": "round", opacity: 0.75 }));
    for (const pt of points.slice(0, -1)) marks.push(svg("circle", { cx: pt[0], cy: pt[1], r: 4, fill: inks[p], opacity: 0.55 }));
  }
  return marks;
}

/**
 * Where the program being written would take this pig if nothing stood in its way.
 * @param {Pig} pig
 * @param {number} p
 * @param {(string | null)[]} slots
 */
function previewMarks(pig, p, slots) {
  let square = pig.square;
  let facing = FACINGS.indexOf(pig.facing);
  /** @type {SVGElement[]} */
  const marks = [];
  /** @type {Map<string, number[]>} the steps that end on each square */
  const where = new Map();
  const ink = p === 0 ? "#6d0f35" : "#0b3a66";
  slots.forEach((command, i) => {
    if (!command) return;
    const delta = moveDelta(command, facing);
    if (delta) {
      const [f, r] = parse(square);
      if (onBoard(f + delta[0], r + delta[1])) {
        const next = name(f + delta[0], r + delta[1]);
        marks.push(arrowLine(square, next, ink, 3, true));
        square = next;
      }
    }
    facing = turned(facing, command);
    const steps = where.get(square);
    if (steps) steps.push(i + 1);
    else where.set(square, [i + 1]);
  });
  for (const [sq, steps] of where) {
    const [x, y] = centre(sq);
    const text = steps.join(",");
    const width = 6 + text.length * 6.2;
    marks.push(svg("g", { class: "preview-step", "aria-hidden": "true" },
      svg("rect", { x: x - SIZE / 2 + 2, y: y + SIZE / 2 - 16, width, height: 14, rx: 4, fill: "#fff", stroke: ink, "stroke-width": 1.5 }),
      svg("text", { x: x - SIZE / 2 + 2 + width / 2, y: y + SIZE / 2 - 5, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: ink }, text)));
  }
  if (square !== pig.square || facing !== FACINGS.indexOf(pig.facing)) {
    const [x, y] = centre(square);
    marks.unshift(svg("g", { class: "ghost", transform: `translate(${x} ${y}) rotate(${facing * 90})`, opacity: 0.4, "aria-hidden": "true" }, pigShape(p)));
  }
  return marks;
}

// --- the side: pigs, programs, the editor -------------------------------------------------------------

/**
 * @param {RoboPigsObservation} obs
 * @param {number | null} seat
 */
function pigList(obs, seat) {
  return html("ul", { class: "rp-pigs", "aria-label": "the pigs" },
    obs.pigs.map((pig, p) => {
      /** @type {HTMLSpanElement[]} */
      const pips = [];
      for (let i = 0; i < LETHAL; i++) pips.push(html("span", { class: `rp-pip${i < pig.damage ? " on" : ""}`, "aria-hidden": "true" }));
      return html("li", { class: p === 0 ? "a" : "b", "data-pig": pig.name, "aria-label": `pig ${pig.name}${seat === p ? " (you)" : ""}: ${pig.square}, facing ${FACING_NAMES[pig.facing]}, damage ${pig.damage} of ${LETHAL}` },
        html("strong", { text: `Pig ${pig.name}${seat === p ? " (you)" : ""}` }),
        html("span", { text: `${pig.square} ${FACING_NAMES[pig.facing]}, damage` }),
        html("span", { class: "rp-pips", title: `damage ${pig.damage} of ${LETHAL}` }, pips, html("span", { class: "visually-hidden", text: `damage ${pig.damage} of ${LETHAL}` })));
    }));
}

/**
 * @param {Program} move
 * @param {string} label
 */
function programTiles(move, label) {
  const commands = move.commands;
  return html("div", { class: "rp-slots", role: "list", "aria-label": label },
    commands.map((c, i) => html("div", { role: "listitem", class: `rp-slot ${c === "X" ? "locked" : "filled"}`, "aria-label": `step ${i + 1}: ${c} ${BY_SYMBOL[c]?.name || ""}` },
      html("span", { class: "n", text: `step ${i + 1}` }),
      html("span", { class: "sym", text: c }),
      html("span", { class: "what", text: BY_SYMBOL[c]?.name || "" }))));
}

/**
 * Whether two programs' commands are the same, step by step.
 * @param {string[]} a
 * @param {string[]} b
 */
function sameCommands(a, b) {
  return a.length === b.length && a.every((c, i) => c === b[i]);
}

/**
 * Why a program is not legal for a pig with `damage` (null: it is), for the note under the editor
 * and, when the server lists no programs, for the send button; the server's rules judge what is sent.
 * @param {(string | null)[]} slots
 * @param {number} damage
 * @param {boolean} extraX
 */
function programProblem(slots, damage, extraX) {
  if (slots.some((c) => !c)) return `fill all ${STEPS} steps`;
  if (slots.every((c) => c === "R")) return damage > 0 ? null : "only a damaged pig may repair";
  if (slots.includes("R")) return `repair is ${Array(STEPS).fill("R").join(" ")}, the whole program`;
  const xs = slots.filter((c) => c === "X").length;
  const owed = Math.min(damage, STEPS); // a short program (a variant) owes as many X as fit
  if (xs === owed || (extraX && xs > owed)) return null;
  return `a pig with ${damage} damage must play ${extraX ? "at least" : "exactly"} ${owed} X`;
}

/**
 * Whether a step of the editor holds a command.
 * @param {string | null} c
 * @returns {c is string}
 */
const written = (c) => !!c;

/**
 * The program editor, and what brings it up to date with its draft (once it is in the page).
 * @param {View} view
 * @param {UI} ui
 * @param {RoboPigsObservation} obs
 * @param {number} seat
 * @param {(slots: (string | null)[]) => void} onChange  told the program at every change
 * @returns {{box: HTMLElement, refresh: () => void}}
 */
function editor(view, ui, obs, seat, onChange) {
  const pig = obs.pigs[seat];
  const damage = pig.damage;
  const extraX = !!(obs.options && obs.options.extra_x);
  const key = `${location.pathname}|${seat}|${obs.round}|${damage}`;
  if (!draft || draft.key !== key) {
    const slots = Array(STEPS).fill(null);
    const locked = Array(STEPS).fill(false);
    // The damage's X go in the last steps first; the player may move them (the rules allow any step).
    for (let i = 0; i < Math.min(damage, STEPS); i++) {
      slots[STEPS - 1 - i] = "X";
      locked[STEPS - 1 - i] = true;
    }
    draft = { key, slots, locked, cursor: slots.indexOf(null) === -1 ? 0 : slots.indexOf(null), repair: false, sent: false };
  }
  const d = draft;

  /** @type {{button: HTMLButtonElement, sym: HTMLSpanElement, what: HTMLSpanElement}[]} each step's button and its two lines */
  const slotButtons = [];
  const slotRow = html("div", { class: "rp-slots", role: "group", "aria-label": `your program, ${STEPS === 5 ? "five" : STEPS} steps` });
  for (let i = 0; i < STEPS; i++) {
    const sym = html("span", { class: "sym" });
    const what = html("span", { class: "what" });
    const button = html("button", { type: "button", class: "rp-slot", "data-slot": String(i + 1), onclick: () => { d.cursor = i; refresh(); } },
      html("span", { class: "n", text: `step ${i + 1}` }), sym, what);
    slotButtons.push({ button, sym, what });
    slotRow.append(button);
  }

  /** Back from the repair program to the program written before it. */
  function leaveRepair() {
    d.repair = false;
    if (d.saved) {
      d.slots = d.saved.slots;
      d.locked = d.saved.locked;
    }
  }

  /** @param {string} symbol */
  function put(symbol) {
    if (d.repair) leaveRepair();
    let at = d.cursor;
    if (d.locked[at]) {
      const free = d.slots.findIndex((c, i) => !c && !d.locked[i]);
      at = free === -1 ? d.locked.findIndex((l) => !l) : free;
      if (at === -1) return;
    }
    d.slots[at] = symbol;
    // On to the next empty step, so five presses write a program.
    let next = -1;
    for (let k = 1; k <= STEPS; k++) {
      const j = (at + k) % STEPS;
      if (!d.slots[j] && !d.locked[j]) { next = j; break; }
    }
    d.cursor = next === -1 ? at : next;
    refresh();
  }

  function clearSlot() {
    if (d.repair) { clearAll(); return; }
    if (d.locked[d.cursor]) { note.textContent = "A damage X cannot be cleared: move it with ◀ and ▶."; return; }
    d.slots[d.cursor] = null;
    refresh();
  }

  function clearAll() {
    if (d.repair) leaveRepair();
    d.slots = d.slots.map((c, i) => (d.locked[i] ? c : null));
    const first = d.slots.findIndex((c, i) => !c && !d.locked[i]);
    d.cursor = first === -1 ? 0 : first;
    refresh();
  }

  /** @param {number} by */
  function shift(by) {
    if (d.repair) return;
    const j = d.cursor + by;
    if (j < 0 || j >= STEPS) return;
    const i = d.cursor;
    [d.slots[i], d.slots[j]] = [d.slots[j], d.slots[i]];
    [d.locked[i], d.locked[j]] = [d.locked[j], d.locked[i]];
    d.cursor = j;
    refresh();
  }

  function repair() {
    if (!d.repair) d.saved = { slots: [...d.slots], locked: [...d.locked] };
    d.repair = true;
    refresh();
  }

  const palette = html("div", { class: "rp-palette", role: "group", "aria-label": "commands" });
  for (const c of COMMANDS.slice(0, 8)) {
    palette.append(html("button", { type: "button", class: "rp-cmd", "data-command": c.symbol, title: `${c.symbol} ${c.name}: ${c.does}`, "aria-label": `${c.name} (${c.symbol}): ${c.does}`, onclick: () => put(c.symbol) },
      html("span", { class: "sym", "aria-hidden": "true", text: c.symbol }), html("span", { class: "what", "aria-hidden": "true", text: c.name })));
  }
  if (extraX) {
    palette.append(html("button", { type: "button", class: "rp-cmd extra", "data-command": "X", title: "X: do nothing (an extra X)", "aria-label": "an extra X: do nothing", onclick: () => put("X") },
      html("span", { class: "sym", "aria-hidden": "true", text: "X" }), html("span", { class: "what", "aria-hidden": "true", text: "nothing" })));
  }
  if (damage > 0) {
    const rs = Array(STEPS).fill("R").join(" ");
    palette.append(html("button", { type: "button", class: "rp-cmd repair", "data-command": "R", title: `${rs}: do nothing all round and lose one point of damage`, "aria-label": `repair: the whole program ${rs}, loses one point of damage`, onclick: repair },
      html("span", { class: "sym", "aria-hidden": "true", text: rs }), html("span", { class: "what", "aria-hidden": "true", text: "repair all round" })));
  }

  const left = html("button", { type: "button", class: "rp-tool", "data-tool": "left", title: "move this step's command one step earlier", "aria-label": "move the chosen step's command one step earlier", onclick: () => shift(-1) }, "◀ move");
  const right = html("button", { type: "button", class: "rp-tool", "data-tool": "right", title: "move this step's command one step later", "aria-label": "move the chosen step's command one step later", onclick: () => shift(1) }, "move ▶");
  const clear = html("button", { type: "button", class: "rp-tool", "data-tool": "clear", title: "clear the chosen step", onclick: clearSlot }, "Clear step");
  const clearEvery = html("button", { type: "button", class: "rp-tool", "data-tool": "clear-all", title: "clear every step that is not a damage X", onclick: clearAll }, "Clear all");
  /** @type {HTMLButtonElement} */
  const send = html("button", { type: "button", class: "rp-send", "data-commit": "", onclick: () => {
    const move = legalMove();
    if (move === null || d.sent) return;
    d.sent = true;
    send.disabled = true;
    ui.act(move);
    // The view that follows removes the editor; if none comes (no connection), sending works again.
    setTimeout(() => { d.sent = false; if (box.isConnected) refresh(); }, 4000);
  } }, "Send program");
  const note = html("p", { class: "rp-note", "aria-live": "polite" });

  /** @returns {(string | null)[]} */
  function current() {
    return d.repair ? Array(STEPS).fill("R") : d.slots;
  }

  /**
   * The program's structured form, or null while it is not legal: one of the server's moves where it
   * lists them, else built here (too many to list: the server judges it).
   * @returns {Program | null}
   */
  function legalMove() {
    const slots = current();
    if (!slots.every(written)) return null;
    if (Array.isArray(view.moves)) return view.moves.find((m) => sameCommands(m.commands, slots)) || null;
    return programProblem(slots, damage, extraX) === null ? { commands: [...slots] } : null;
  }

  function refresh() {
    const slots = current();
    slots.forEach((c, i) => {
      const { button, sym, what } = slotButtons[i];
      const locked = d.repair || d.locked[i];
      button.classList.toggle("filled", !!c && !locked);
      button.classList.toggle("locked", locked);
      button.classList.toggle("current", i === d.cursor && !d.repair);
      sym.textContent = c || "·";
      const info = c ? BY_SYMBOL[c] : null;
      what.textContent = info ? info.name : "empty";
      const lockWords = d.locked[i] && !d.repair ? ", locked: a damage X, it may be moved but not cleared" : "";
      button.setAttribute("aria-label", `step ${i + 1}: ${info ? `${c} ${info.name}` : "empty"}${lockWords}${i === d.cursor ? ", chosen" : ""}`);
      button.setAttribute("title", d.locked[i] && !d.repair ? "X: damage forces this pig to do nothing here (locked; ◀ ▶ move it)" : info ? `${c} ${info.name}: ${info.does}` : "empty: choose a command below");
      if (d.locked[i] && !d.repair) button.dataset.locked = ""; else delete button.dataset.locked;
      button.dataset.command = c || "";
      button.setAttribute("aria-pressed", i === d.cursor ? "true" : "false");
    });
    left.disabled = d.repair || d.cursor === 0;
    right.disabled = d.repair || d.cursor === STEPS - 1;
    clear.disabled = !d.repair && (d.locked[d.cursor] || !d.slots[d.cursor]);
    const move = legalMove();
    send.disabled = move === null || d.sent;
    send.dataset.move = move ? JSON.stringify(move) : "";
    const problem = programProblem(slots, damage, extraX);
    note.classList.toggle("bad", false);
    if (d.repair) note.textContent = "Repair: your pig does nothing this round and loses one point of damage (it can still be hit).";
    else if (problem && slots.some((c) => !c)) note.textContent = `Program: ${slots.map((c) => c || "_").join(" ")} (choose a step, then a command).`;
    else if (problem || move === null) { note.textContent = problem || "This program is not legal now."; note.classList.add("bad"); } else note.textContent = `Ready to send: ${slots.join(" ")}`;
    onChange(slots);
  }

  const box = html("section", { class: "rp-panel rp-editor", "aria-label": "write your program" },
    html("h3", { text: `Your program for round ${obs.round}` }),
    damage > 0 ? html("p", { class: "rp-note", text: `Your pig has ${damage} damage: ${damage} step${damage > 1 ? "s" : ""} must be X (do nothing), shown locked. ◀ and ▶ move an X to another step.` }) : null,
    slotRow,
    palette,
    html("div", { class: "rp-tools" }, left, right, clear, clearEvery),
    html("div", { class: "rp-send-row" }, send),
    note,
    html("details", { class: "rp-keys" }, html("summary", { text: "Keyboard" }),
      html("p", { text: "1–5 or ←/→ choose a step; W or ^ forward, S or v back, Q or \\ forward left, E or / forward right, A or L turn left, D or R turn right, F fire, H hit; Delete clears the step; Shift+←/→ moves its command; Enter sends." })));
  box.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const k = event.key;
    const command = KEYS[k.toLowerCase()];
    let done = true;
    if (k >= "1" && k <= "5") { d.cursor = Number(k) - 1; refresh(); } else if (k === "ArrowLeft" && event.shiftKey) shift(-1);
    else if (k === "ArrowRight" && event.shiftKey) shift(1);
    else if (k === "ArrowLeft") { d.cursor = Math.max(0, d.cursor - 1); refresh(); } else if (k === "ArrowRight") { d.cursor = Math.min(STEPS - 1, d.cursor + 1); refresh(); } else if (k === "Delete" || k === "Backspace") clearSlot();
    else if (k === "Enter" && !(event.target instanceof HTMLButtonElement)) send.click();
    else if (command && (command !== "X" || extraX)) put(command);
    else done = false;
    if (done) {
      event.preventDefault();
      if (event.target instanceof Element && event.target.classList.contains("rp-slot")) slotButtons[d.cursor].button.focus();
    }
  });
  return { box, refresh };
}

// --- the reveal ------------------------------------------------------------------------------------------

/**
 * @param {LastRound} round
 * @param {number} player  the seat shown
 */
function programTable(round, player) {
  const names = ["A", "B"];
  const head = html("tr", {}, html("th", { scope: "col", text: "pig" }),
    [1, 2, 3, 4, 5].map((n) => html("th", { scope: "col", "data-step": String(n), text: String(n) })));
  const rows = [0, 1].map((p) => {
    const commands = round.moves[p].commands;
    return html("tr", { "data-pig": names[p] }, html("th", { scope: "row", text: `Pig ${names[p]}${player === p ? " (you)" : ""}` }),
      commands.map((c, i) => {
        const step = round.steps[i];
        const hitOther = step && step.hit[1 - p] && (c === "F" || c === "H");
        return html("td", { "data-step": String(i + 1), class: hitOther ? "hit" : "", title: `${c} ${BY_SYMBOL[c]?.name || ""}${step ? "" : " (not played: the game ended)"}`, text: step ? c : `(${c})` });
      }));
  });
  return html("table", { class: "rp-prog", "aria-label": `the programs of round ${round.round}` },
    html("caption", { class: "visually-hidden", text: `Round ${round.round}: both programs, step by step` }),
    html("thead", {}, head), html("tbody", {}, rows));
}

// --- draw ---------------------------------------------------------------------------------------------------

/**
 * @param {View} view
 * @param {UI} ui
 * @returns {HTMLDivElement}
 */
export function draw(view, ui) {
  const obs = view.observation;
  shape = obs.board || { width: 8, height: 8, walls: [] };
  STEPS = (obs.options && obs.options.program_length) || 5;
  LETHAL = (obs.options && obs.options.damage_limit) || 5;
  const seat = view.seat === 0 || view.seat === 1 ? view.seat : null;
  const names = ["A", "B"];
  const root = html("div", { class: "rp" }, html("style", { text: STYLE }));

  // The board: squares, then what the steps did, then a preview of the program being written, then the pigs.
  const marks = svg("g", { class: "marks" });
  const preview = svg("g", { class: "preview" });
  const pigs = [makePig(0, seat === 0), makePig(1, seat === 1)];
  const board = canvas(WIDE, WIDE, `Robo Battle Pigs, round ${obs.round}: pig A on ${obs.pigs[0].square} facing ${FACING_NAMES[obs.pigs[0].facing]}, damage ${obs.pigs[0].damage}; pig B on ${obs.pigs[1].square} facing ${FACING_NAMES[obs.pigs[1].facing]}, damage ${obs.pigs[1].damage}`,
    boardBase(), marks, preview, pigs.map((pig) => pig.group));
  board.setAttribute("role", "group");
  const showNow = () => {
    obs.pigs.forEach((pig, p) => placePig(pigs[p], p, pig.square, FACINGS.indexOf(pig.facing), pig.damage, seat === p));
  };
  showNow();

  const side = html("div", { class: "rp-side" });
  const limit = obs.options && obs.options.round_limit ? ` of ${obs.options.round_limit}` : "";
  const heading = obs.result ? `Game over after round ${obs.round - 1}` : `Round ${obs.round}${limit}`;
  side.append(html("h3", { class: "rp-round", text: heading }), pigList(obs, seat));

  const playing = seat !== null && !view.replay && !obs.result;
  /** @type {(() => void) | null} brings the editor, if any, up to date once it is in the page */
  let refreshEditor = null;
  if (playing && obs.my_move) {
    side.append(html("section", { class: "rp-panel rp-sent", "aria-label": "your sent program" },
      html("h3", { text: `Your program for round ${obs.round} is sent` }),
      programTiles(obs.my_move, "your sent program"),
      html("p", { class: "rp-note", text: `Waiting for pig ${names[1 - seat]}'s program: the round is revealed when both are in.` })));
  } else if (playing && view.your_turn) {
    const program = editor(view, ui, obs, seat, (slots) => {
      preview.replaceChildren(...previewMarks(obs.pigs[seat], seat, slots));
    });
    side.append(program.box);
    refreshEditor = program.refresh;
  } else if (view.replay && obs.my_move && seat !== null) {
    side.append(html("section", { class: "rp-panel rp-sent", "aria-label": "the sent program" },
      html("h3", { text: `Pig ${names[seat]}'s program for round ${obs.round} (sent, still secret)` }),
      programTiles(obs.my_move, "the sent program")));
  } else if (!obs.result && seat === null) {
    side.append(html("p", { class: "rp-note", text: "Both programs stay secret until the round is revealed." }));
  }

  /** @type {HTMLElement | null} */
  let revealBox = null;
  const round = obs.last_round;
  if (round) {
    const frames = roundFrames(round, obs.options);
    const last = frames.length - 1;
    const table = programTable(round, obs.player);
    const caption = html("div", { class: "rp-caption", "aria-live": "polite", "data-at": "end" });
    const where = html("span", { class: "rp-where" });
    /** @type {number | null} */
    let at = null; // null: the end of the round (the position now)
    /** @type {number | null} */
    let timer = null;

    /** @param {number | null} index */
    const show = (index) => {
      at = index;
      for (const cell of /** @type {NodeListOf<HTMLElement>} */ (table.querySelectorAll("[data-step]"))) cell.classList.toggle("now", index !== null && Number(cell.dataset.step) === index);
      preview.style.display = index === null ? "" : "none"; // the program being written starts from now
      if (index === null) {
        showNow();
        marks.replaceChildren(...roundTrails(frames));
        caption.dataset.at = "end";
        /** @type {string[]} */
        const hits = [];
        frames.forEach((frame) => { if (frame.step) for (const p of [0, 1]) if (frame.step.hit[p]) hits.push(`step ${frame.index}: ${names[p]} hit`); });
        const repaired = round.repaired.map((r, p) => (r ? `Pig ${names[p]} repaired one point.` : null)).filter(Boolean);
        const lines = [`Round ${round.round} revealed: ${hits.length ? hits.join(", ") : "no hits"}.`, ...repaired];
        if (frames.length - 1 < STEPS) lines.push(`The game ended at step ${frames.length - 1}.`);
        caption.replaceChildren(...lines.map((t) => html("p", { text: t })));
        where.textContent = "the end of the round";
      } else {
        const frame = frames[index];
        frame.squares.forEach((sq, p) => placePig(pigs[p], p, sq, frame.facings[p], frame.damage[p], seat === p));
        marks.replaceChildren(...stepMarks(frame));
        caption.dataset.at = String(index);
        const lines = index === 0
          ? [`Round ${round.round}: the start.`, `Pig A on ${frame.squares[0]}, pig B on ${frame.squares[1]}.`]
          : [`Step ${index} of ${last}:`, ...stepWords(frame, names)];
        caption.replaceChildren(...lines.map((t) => html("p", { text: t })));
        where.textContent = index === 0 ? "the start" : `step ${index} of ${last}`;
      }
      back.disabled = index === 0;
      forward.disabled = index === null;
    };

    const stop = () => { if (timer) { clearTimeout(timer); timer = null; } };
    const reduced = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    const FIRST = 700;
    const EACH = 1300;
    const total = FIRST + EACH * last;
    const drawnAt = performance.now();
    let attached = false;
    /** @param {number} start */
    const run = (start) => {
      stop();
      const tick = () => {
        timer = null;
        // The page puts the drawing in place right after draw returns; once it is gone, stop.
        if (root.isConnected) attached = true;
        else if (attached || performance.now() - drawnAt > 3000) return;
        const elapsed = performance.now() - start;
        if (elapsed >= total + EACH) { show(null); reveal = null; return; }
        const index = elapsed < FIRST ? 0 : Math.min(last, 1 + Math.floor((elapsed - FIRST) / EACH));
        if (index !== at) show(index);
        timer = setTimeout(tick, 100);
      };
      tick();
    };
    const replay = () => {
      if (reduced()) { show(0); return; }
      const start = performance.now();
      reveal = { key: revealKey, start };
      run(start);
    };

    // A step chosen by hand stays chosen when the next view comes (the other pig's program, say).
    /** @param {number | null} index */
    const goTo = (index) => { stop(); reveal = { key: revealKey, at: index }; show(index); };
    const back = html("button", { type: "button", class: "rp-tool", "data-reveal": "back", "aria-label": "the step before", onclick: () => goTo(at === null ? last : Math.max(0, at - 1)) }, "◀ step");
    const forward = html("button", { type: "button", class: "rp-tool", "data-reveal": "forward", "aria-label": "the next step", onclick: () => goTo(at === null || at >= last ? null : at + 1) }, "step ▶");
    const again = html("button", { type: "button", class: "rp-tool", "data-reveal": "replay", onclick: replay }, "▶ Replay the reveal");
    const end = html("button", { type: "button", class: "rp-tool", "data-reveal": "end", "aria-label": "skip to the end of the round", onclick: () => goTo(null) }, "end »");

    revealBox = html("section", { class: "rp-panel rp-reveal", "aria-label": `round ${round.round} revealed` },
      html("h3", { text: `Round ${round.round}: the programs` }),
      table,
      caption,
      html("div", { class: "rp-controls" }, back, forward, end, again, html("span", { class: "rp-note rp-where-box" }, " ", where)));

    // Animate when this round is new to the page; a view that comes in the middle of it goes on with it.
    const revealKey = `${location.pathname}|${view.seat}|${view.replay ? "r" : "p"}|${JSON.stringify(round)}`;
    const changed = view.previous && JSON.stringify(view.previous.last_round || null) !== JSON.stringify(round);
    if (changed && !reduced()) {
      const start = performance.now();
      reveal = { key: revealKey, start };
      run(start);
    } else if (reveal && reveal.key === revealKey && reveal.start !== undefined && performance.now() - reveal.start < total + EACH) {
      run(reveal.start);
    } else if (reveal && reveal.key === revealKey && reveal.at !== undefined) {
      show(reveal.at);
    } else {
      show(null);
    }
  }

  if (obs.result) {
    const r = obs.result;
    const winner = r.winner === null || r.winner === undefined ? null : r.winner;
    side.insertBefore(html("p", { class: "rp-panel rp-result", role: "status", style: "font-weight:700;background:#fff2b3", text: `${winner === null ? "A draw" : `Pig ${names[winner]} wins`}${r.reason ? `: ${r.reason}` : ""}.` }), side.children[2] || null);
  }

  root.append(html("div", { class: "rp-main" }, html("div", { class: "rp-board" }, board), side, revealBox));
  if (refreshEditor) refreshEditor();
  return root;
}
