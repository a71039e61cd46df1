// @ts-check
// Tank Chess in the browser: the 16x16 or 20x20 board with its obstacles, wrecks and tanks (type,
// facing, armour), the last move, Check and Escape, each tank's lines of fire when it is hovered or
// focused, and turns played by pointing: pick a tank, then a highlighted square (a small menu
// chooses the facing or the shot where several turns end there). The lines of fire, the armour and
// the gun come from the observation (the engine computes them); nothing here re-implements a rule.
import { svg, html, canvas, pointable, chooseAmong, closeMenu, menuButton, parseSquare, scrollable, showMenu } from "/web/board.js";

// What the server sends, as the game declares it in Python (observation.py: TankChessObservation;
// notation.py: TurnJSON): a drawing that reads a field the game does not send fails here.
/** @typedef {"white" | "black"} Side */
/** @typedef {{square: string, side: Side, type: string}} Piece  `type`: the type letter, L M H C D R */
/** @typedef {Piece & {facing: string}} TankData  `facing`: N NE E SE S SW W NW */
/** @typedef {{front: number, side: number, rear: number}} Armour */
/** @typedef {{direction: string, squares: string[], hits: string[]}} FireLine  squares nearest first; hits: the enemy tanks it would destroy */
/** @typedef {TankData & {gun: number, speed: number, armour: Armour, fire: FireLine[]}} TankView */
/**
 * The turn just played: `move` in notation, `to` and `facing` null when a Command tank drove off.
 * @typedef {{
 *   by: Side, move: string, type: string, from: string, to: string | null, facing: string | null,
 *   destroyed: Piece | null,
 * }} LastMove
 */
/**
 * @typedef {{
 *   by: Side, check: boolean, escape: boolean, threats: TankData[], target: TankData | null,
 *   escaping: TankData | null,
 * }} Announced
 */
/**
 * @typedef {{
 *   game: string, player: number, size: number, ply: number, ply_limit: number, to_move: Side | null,
 *   obstacles: string[], wrecks: string[], tanks: TankView[], last_move: LastMove | null,
 *   announced: Announced | null, result: import("/web/types.js").ResultJSON | null,
 * }} TankChessObservation
 */
/** @typedef {{kind: "move", tank: string, from: string, to: string, facing: string, target: string | null}} MoveTurn  a move, which may end with a shot */
/** @typedef {{kind: "escape", tank: string, from: string}} EscapeTurn  a Command tank driving off */
/** @typedef {MoveTurn | EscapeTurn} TankChessMove */
/** @typedef {import("/web/types.js").View<TankChessObservation, TankChessMove>} View */
/** @typedef {import("/web/types.js").UI<TankChessMove>} UI */

const CELL = 40;
const MARGIN = 30;
// The fewest screen pixels per board unit: a square's target (CELL - 3 units) stays at least 32 px
// wide for a finger; a board that would be smaller (16x16 or 20x20 on a phone) scrolls instead.
const FINGER = 0.9;
// Where each facing's button sits in the compass (row, column of a 3x3 grid), by its screen angle.
const COMPASS = [[1, 2], [1, 3], [2, 3], [3, 3], [3, 2], [3, 1], [2, 1], [1, 1]];
const FACINGS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
/** @type {Record<string, string>} */
const TYPE_NAMES = { L: "Light", M: "Medium", H: "Heavy", C: "Command", D: "Tank Destroyer", R: "Heavy Mortar" };
const ROMAN = ["0", "I", "II", "III", "IV", "V"];
/** @type {Record<Side, string>} */
const SIDE_NAMES = { white: "White", black: "Black" };
const COLOURS = {
  light: "#d9d0b0", dark: "#c8bd96", line: "#a99d76", coordinate: "#2b2b2b",
  obstacle: "#5c5a55", obstacleTop: "#807d76", obstacleEdge: "#3a3936",
  wreck: "#7b6f66", wreckMark: "#2a1f1a",
  last: "#f2c230", arrow: "#8a4b00",
  pick: "#1d6fd6", move: "#0a7d2c", shot: "#c0161b",
  fire: "#e0471b", hit: "#c0161b",
  check: "#c0161b",
};
/** @type {Record<Side, {hull: string, tread: string, edge: string, plate: string, turret: string, letter: string}>} */
const TANK_COLOURS = {
  white: { hull: "#fbfbf7", tread: "#7d7d76", edge: "#1b1b1b", plate: "#8f8f88", turret: "#ffffff", letter: "#111111" },
  black: { hull: "#262626", tread: "#0d0d0d", edge: "#000000", plate: "#8a8a8a", turret: "#262626", letter: "#ffffff" },
};

/** @param {Piece} tank */
function tankName(tank) {
  const type = TYPE_NAMES[tank.type] || tank.type;
  const noun = tank.type === "D" || tank.type === "R" ? type : `${type} tank`;
  return `${SIDE_NAMES[tank.side] || tank.side} ${noun}`;
}

/** @param {TankData} tank */
function tankLabel(tank) {
  return `${tankName(tank)} on ${tank.square}, facing ${tank.facing}`;
}

/** @param {TankView} tank */
function tankDetails(tank) {
  const parts = [tankLabel(tank)];
  if (tank.speed !== undefined) parts.push(`speed ${tank.speed}`);
  if (tank.gun !== undefined) parts.push(`gun ${ROMAN[tank.gun]}`);
  if (tank.armour) {
    const a = tank.armour;
    parts.push(`armour front ${ROMAN[a.front]}, side ${ROMAN[a.side]}, rear ${ROMAN[a.rear]}`);
  }
  let text = parts.join("; ");
  if (tank.fire) {
    const hits = tank.fire.flatMap((line) => line.hits);
    text += hits.length ? `. Its lines of fire reach ${hits.join(", ")}, which it would destroy.`
      : ". Nothing it could destroy is on its lines of fire.";
  }
  return text;
}

/**
 * The legal turns from their structured forms (`view.moves`): {move, from, to, facing, off, victim},
 * where `to` and `facing` are null for a Command tank's escape and `move` is what is played.
 * @param {TankChessMove[] | null} moves
 * @returns {Turn[]}
 */
function legalTurns(moves) {
  return (moves || []).map((move) => {
    const off = move.kind === "escape";
    return { move, from: move.from, to: off ? null : move.to, facing: off ? null : move.facing, off, victim: off ? null : move.target };
  });
}
/**
 * @typedef {{
 *   move: TankChessMove, from: string, to: string | null, facing: string | null, off: boolean,
 *   victim: string | null,
 * }} Turn
 */

/**
 * @param {Turn} turn
 * @param {Map<string, TankView>} tanksAt
 */
function turnLabel(turn, tanksAt) {
  if (turn.off) return "drive off the board: escape";
  let text = turn.to === turn.from ? `turn to face ${turn.facing}` : `drive to ${turn.to}, face ${turn.facing}`;
  if (turn.victim) {
    const victim = tanksAt.get(turn.victim);
    text += `, destroy ${victim ? `the ${tankName(victim)} on ` : ""}${turn.victim}`;
  }
  return text;
}

/**
 * @param {Turn} a
 * @param {Turn} b
 */
function byFacingThenShot(a, b) {
  if (!!a.victim !== !!b.victim) return a.victim ? 1 : -1;
  // Only an escape has no `to` (nor a facing), and escapes share one target: "" is never compared.
  if (a.to !== b.to) return (a.to ?? "") < (b.to ?? "") ? -1 : 1;
  return FACINGS.indexOf(a.facing ?? "") - FACINGS.indexOf(b.facing ?? "");
}

// The page may keep one side down for every seat (`view.bottom`: a game at one screen).
export const orientable = true;

/**
 * @param {View} view
 * @param {UI} ui
 * @returns {HTMLDivElement}
 */
export function draw(view, ui) {
  const obs = view.observation;
  const size = obs.size;
  const flip = (view.bottom ?? view.seat) === 1;
  const width = size * CELL + 2 * MARGIN;
  const interactive = !view.replay && view.seat !== null && view.seat !== undefined && Array.isArray(view.moves);
  const turns = interactive ? legalTurns(view.moves) : [];
  const tanksAt = new Map(obs.tanks.map((t) => [t.square, t]));

  // Board coordinates of a square's top left corner, White at the bottom unless Black's seat.
  /**
   * @param {string} name
   * @returns {[number, number]}
   */
  function corner(name) {
    const indices = parseSquare(name);
    if (!indices) throw new Error(`not a square: ${name}`);
    const [file, rank] = indices;
    const col = flip ? size - 1 - file : file;
    const row = flip ? rank : size - 1 - rank;
    return [MARGIN + col * CELL, MARGIN + row * CELL];
  }
  /**
   * @param {string} name
   * @returns {[number, number]}
   */
  function centre(name) {
    const [x, y] = corner(name);
    return [x + CELL / 2, y + CELL / 2];
  }
  // The screen angle of a facing (0 is up the screen), so that Black's view turns everything round.
  /** @param {string} facing */
  function angle(facing) {
    return FACINGS.indexOf(facing) * 45 + (flip ? 180 : 0);
  }

  const whiteDown = flip ? "Black at the bottom" : "White at the bottom";
  const board = canvas(width, width, `Tank Chess board, ${size} by ${size}, ${whiteDown}`);
  board.classList.add("tank-chess");
  board.setAttribute("data-size", String(size));
  board.append(svg("style", {
    text: `.tank-chess .tc-tank { cursor: default; }
.tank-chess .tc-tank.pick { cursor: pointer; }
.tank-chess .tc-tank:hover .tc-hull, .tank-chess .tc-tank:focus .tc-hull { filter: drop-shadow(0 0 3px #c25e00); }
.tank-chess .tc-overlay { pointer-events: none; }
.tank-chess .target:hover > *:first-child { stroke: #c25e00; stroke-width: 3; }
.menu.tc-compass { position: fixed; left: 50%; top: auto; bottom: .5rem; transform: translateX(-50%); display: grid;
  grid-template-columns: repeat(3, minmax(4.5rem, 7.5rem)); gap: .3rem; max-width: calc(100vw - 1rem); }
.tc-compass button { min-height: 3.2rem; font-family: system-ui, sans-serif; font-size: .8rem; line-height: 1.15; padding: .2rem; }
.tc-compass .tc-facing::before { content: "↑"; display: block; width: 1.5rem; margin: 0 auto; font-size: 1.3rem; transform: rotate(var(--angle)); pointer-events: none; }
.tc-compass .tc-shot { grid-column: 1 / -1; min-height: 2.5rem; }`,
  }));

  // --- the squares and coordinates -----------------------------------------------------------
  const squares = svg("g", { class: "tc-squares" });
  squares.append(svg("rect", { x: MARGIN - 2, y: MARGIN - 2, width: size * CELL + 4, height: size * CELL + 4, fill: COLOURS.line, rx: 3 }));
  for (let file = 0; file < size; file++) {
    for (let rank = 0; rank < size; rank++) {
      const name = String.fromCharCode(97 + file) + String(rank + 1);
      const [x, y] = corner(name);
      squares.append(svg("rect", { x, y, width: CELL, height: CELL, fill: (file + rank) % 2 ? COLOURS.light : COLOURS.dark, "data-square": name }));
    }
  }
  squares.addEventListener("click", () => { closeMenu(); pick(null); pinned = null; inspect(null); });
  board.append(squares);

  const coordinates = svg("g", { class: "tc-coordinates", "aria-hidden": "true", fill: COLOURS.coordinate, "font-size": 17, "font-weight": 600, "text-anchor": "middle" });
  for (let i = 0; i < size; i++) {
    const letter = String.fromCharCode(97 + i);
    const [x] = centre(`${letter}1`);
    coordinates.append(svg("text", { x, y: MARGIN - 10, text: letter }), svg("text", { x, y: width - MARGIN + 23, text: letter }));
    const [, y] = centre(`a${i + 1}`);
    coordinates.append(svg("text", { x: MARGIN / 2, y: y + 6, text: i + 1 }), svg("text", { x: width - MARGIN / 2, y: y + 6, text: i + 1 }));
  }
  board.append(coordinates);

  // --- the last move: its squares tinted, and an arrow drawn over the tanks later --------------
  // The observation tells it in parts, not only its notation: `to` is null when a Command tank drove off.
  const last = obs.last_move;
  const lastLayer = svg("g", { class: "tc-last tc-overlay" });
  if (last) {
    for (const name of [last.from, last.to]) {
      if (!name) continue;
      const [x, y] = corner(name);
      lastLayer.append(svg("rect", { x, y, width: CELL, height: CELL, fill: COLOURS.last, "fill-opacity": 0.6, "data-last": name }));
    }
  }
  board.append(lastLayer);

  // --- obstacles and wrecks ----------------------------------------------------------------------
  const terrain = svg("g", { class: "tc-terrain" });
  for (const name of obs.obstacles) {
    const [x, y] = corner(name);
    terrain.append(svg("g", { class: "tc-obstacle", "data-square": name },
      svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 4, fill: COLOURS.obstacle, stroke: COLOURS.obstacleEdge, "stroke-width": 1.5 }),
      svg("path", { d: `M${x + 6} ${y + 15} h28 M${x + 6} ${y + 26} h28 M${x + 17} ${y + 4} v11 M${x + 24} ${y + 15} v11 M${x + 13} ${y + 26} v10`, stroke: COLOURS.obstacleTop, "stroke-width": 2, fill: "none" }),
      svg("title", { text: `obstacle on ${name}` })));
  }
  for (const name of obs.wrecks) {
    const [cx, cy] = centre(name);
    terrain.append(svg("g", { class: "tc-wreck", "data-square": name },
      svg("rect", { x: cx - 13, y: cy - 14, width: 26, height: 28, rx: 4, fill: COLOURS.wreck, stroke: COLOURS.wreckMark, "stroke-width": 2, transform: `rotate(17 ${cx} ${cy})` }),
      svg("path", { d: `M${cx - 10} ${cy - 10} L${cx + 10} ${cy + 10} M${cx + 10} ${cy - 10} L${cx - 10} ${cy + 10}`, stroke: COLOURS.wreckMark, "stroke-width": 4, "stroke-linecap": "round" }),
      svg("title", { text: `wreck on ${name}` })));
  }
  board.append(terrain);

  // --- Check and Escape: rings around the threatened Command tank and the tanks that threaten it --
  const announced = obs.announced;
  const announceLayer = svg("g", { class: "tc-announced tc-overlay" });
  if (announced && (announced.check || announced.escape)) {
    /** @type {(name: string, colour: string, dash?: string) => void} */
    const ring = (name, colour, dash) => {
      const [cx, cy] = centre(name);
      announceLayer.append(svg("circle", { cx, cy, r: CELL / 2 - 1, fill: "none", stroke: colour, "stroke-width": 3, "stroke-dasharray": dash || null, "data-announced": name }));
    };
    if (announced.target) ring(announced.target.square, COLOURS.check);
    for (const tank of announced.threats || []) ring(tank.square, COLOURS.check, "6 4");
    if (announced.escaping) ring(announced.escaping.square, COLOURS.pick, "6 4");
  }

  // --- tanks -------------------------------------------------------------------------------------
  const fromSquares = new Set(turns.map((t) => t.from));
  const tankLayer = svg("g", { class: "tc-tanks" });
  /** @type {Map<string, SVGGElement>} */
  const tankElements = new Map();
  for (const tank of obs.tanks) {
    const element = drawTank(tank);
    tankElements.set(tank.square, element);
    tankLayer.append(element);
  }
  board.append(tankLayer, announceLayer);

  /** @param {TankView} tank */
  function drawTank(tank) {
    const [cx, cy] = centre(tank.square);
    const colours = TANK_COLOURS[tank.side] || TANK_COLOURS.white;
    const armour = tank.armour || { front: 0, side: 0, rear: 0 };
    /** @param {number} value */
    const plate = (value) => (value ? 1.2 + 1.8 * value : 0);
    const body = svg("g", { transform: `rotate(${angle(tank.facing)})` });
    // Treads, hull, armour plates (thicker for more armour: front, sides, rear), then the gun.
    body.append(
      svg("rect", { x: -17, y: -17, width: 7, height: 34, rx: 2, fill: colours.tread, stroke: colours.edge, "stroke-width": 1 }),
      svg("rect", { x: 10, y: -17, width: 7, height: 34, rx: 2, fill: colours.tread, stroke: colours.edge, "stroke-width": 1 }),
      svg("rect", { class: "tc-hull", x: -12, y: -16, width: 24, height: 32, rx: 3, fill: colours.hull, stroke: colours.edge, "stroke-width": 1.8 }),
    );
    const front = plate(armour.front);
    const side = plate(armour.side);
    const rear = plate(armour.rear);
    if (front) body.append(svg("rect", { class: "tc-plate", x: -11, y: -15, width: 22, height: front, rx: 1, fill: colours.plate }));
    if (rear) body.append(svg("rect", { class: "tc-plate", x: -11, y: 15 - rear, width: 22, height: rear, rx: 1, fill: colours.plate }));
    if (side) {
      body.append(svg("rect", { class: "tc-plate", x: -11, y: -15, width: side * 0.7, height: 30, fill: colours.plate }));
      body.append(svg("rect", { class: "tc-plate", x: 11 - side * 0.7, y: -15, width: side * 0.7, height: 30, fill: colours.plate }));
    }
    if (tank.type === "R") {
      body.append(svg("rect", { x: -5, y: -22, width: 10, height: 12, rx: 2, fill: colours.hull, stroke: colours.edge, "stroke-width": 1.6 }));
    } else {
      const long = tank.type === "D" ? 23 : 21;
      const thick = tank.type === "D" || tank.type === "H" ? 5.5 : 4.5;
      body.append(svg("rect", { x: -thick / 2, y: -long, width: thick, height: long - 8, rx: 1, fill: colours.hull, stroke: colours.edge, "stroke-width": 1.4 }));
    }
    // The Command tank's turret has a gold ring, so that it stands out among the Lights.
    const command = tank.type === "C";
    const turret = svg("circle", { cx: 0, cy: 0, r: 9.5, fill: colours.turret, stroke: command ? "#c99700" : colours.edge, "stroke-width": command ? 3.5 : 1.6 });
    const letter = svg("text", { x: 0, y: 6, "text-anchor": "middle", "font-size": 17, "font-weight": 700, fill: colours.letter, text: tank.type });
    // The first child is the square itself, outlined when the tank has the keyboard's focus.
    const area = svg("rect", { x: cx - CELL / 2 + 1.5, y: cy - CELL / 2 + 1.5, width: CELL - 3, height: CELL - 3, fill: "transparent", stroke: "none", rx: 3 });
    const inner = svg("g", { transform: `translate(${cx} ${cy})` }, body, turret, letter);
    const element = svg("g", { class: `tc-tank tc-${tank.side}`, "data-square": tank.square, "data-type": tank.type, "data-facing": tank.facing }, area, inner);
    const label = tankLabel(tank);
    if (fromSquares.has(tank.square)) {
      pointable(element, "pick", label, () => {
        closeMenu();
        if (pinned) { pinned = null; inspect(tank); }
        pick(picked === tank.square ? null : tank.square);
      });
    } else {
      element.setAttribute("tabindex", "0");
      element.setAttribute("role", "img");
      element.setAttribute("aria-label", label);
      element.addEventListener("click", (event) => { event.stopPropagation(); closeMenu(); pick(null); inspect(tank, true); });
    }
    element.addEventListener("pointerenter", () => inspect(tank));
    element.addEventListener("pointerleave", () => inspect(null));
    element.addEventListener("focus", () => inspect(tank));
    element.addEventListener("blur", () => inspect(null));
    return element;
  }

  // --- lines of fire: drawn for the tank hovered, focused or tapped --------------------------------
  const fireLayer = svg("g", { class: "tc-fire tc-overlay" });
  board.append(fireLayer);
  /** @type {TankView | null} */
  let inspected = null;
  /** @type {TankView | null} */
  let pinned = null;

  /**
   * @param {TankView | null} tank
   * @param {boolean} [pin]  a tap: keep it shown until the next tap
   */
  function inspect(tank, pin = false) {
    if (pin) pinned = pinned && tank && pinned.square === tank.square ? null : tank;
    const shown = tank || pinned;
    if (shown === inspected) return;
    inspected = shown;
    fireLayer.replaceChildren();
    fireLayer.removeAttribute("data-tank");
    details.textContent = shown ? tankDetails(shown) : hint;
    if (!shown || !shown.fire) return;
    fireLayer.setAttribute("data-tank", shown.square);
    const [sx, sy] = centre(shown.square);
    for (const line of shown.fire) {
      if (!line.squares.length) continue;
      for (const name of line.squares) {
        const [x, y] = corner(name);
        fireLayer.append(svg("rect", { class: "tc-fire-square", "data-square": name, "data-direction": line.direction, x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 4, fill: COLOURS.fire, "fill-opacity": 0.3, stroke: COLOURS.fire, "stroke-opacity": 0.7, "stroke-width": 1.5 }));
      }
      const far = line.squares[line.squares.length - 1];
      const near = line.squares[0];
      const [ex, ey] = centre(far);
      // From the edge of the tank's square (the Heavy Mortar's: from its nearest square) to the end.
      const [fx, fy] = centre(near);
      const [nx, ny] = shown.type === "R" ? [fx, fy] : [(sx + fx) / 2, (sy + fy) / 2];
      fireLayer.append(svg("line", { class: "tc-fire-line", x1: nx, y1: ny, x2: ex, y2: ey, stroke: COLOURS.fire, "stroke-width": 3, "stroke-dasharray": "8 5", "stroke-linecap": "round" }));
      for (const name of line.hits) {
        const [hx, hy] = centre(name);
        fireLayer.append(svg("g", { class: "tc-fire-hit", "data-square": name },
          svg("circle", { cx: hx, cy: hy, r: 17, fill: "none", stroke: COLOURS.hit, "stroke-width": 3.5 }),
          svg("path", { d: `M${hx - 21} ${hy} h9 M${hx + 12} ${hy} h9 M${hx} ${hy - 21} v9 M${hx} ${hy + 12} v9`, stroke: COLOURS.hit, "stroke-width": 3.5 })));
      }
    }
  }

  // --- the last move's arrow (and the shot, when it destroyed a tank), over the tanks ---------------
  const arrowLayer = svg("g", { class: "tc-arrow tc-overlay" });
  const marker = `tc-head-${size}-${flip ? "b" : "w"}`;
  board.append(svg("defs", {}, svg("marker", { id: marker, viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 3.2, markerHeight: 3.2, orient: "auto-start-reverse" },
    svg("path", { d: "M0 0 L10 5 L0 10 Z", fill: COLOURS.arrow }))));
  if (last) {
    const [fx, fy] = centre(last.from);
    /** @type {[number, number] | null} */
    let end = null;
    if (last.to && last.to !== last.from) end = centre(last.to);
    else if (!last.to) {
      // Off the board: the Command tank drove over the far edge.
      const beyond = last.by === "white" ? -1 : 1;
      end = [fx, fy + (flip ? -beyond : beyond) * CELL * 0.95];
    }
    if (end) {
      const [tx, ty] = end;
      const length = Math.hypot(tx - fx, ty - fy);
      // The head stops at the edge of the square, so the tank that moved stays in sight.
      const shorten = Math.min(CELL / 2 + 6, length - 10);
      const ux = (tx - fx) / length;
      const uy = (ty - fy) / length;
      arrowLayer.append(svg("line", { x1: fx, y1: fy, x2: tx - ux * shorten, y2: ty - uy * shorten, stroke: COLOURS.arrow, "stroke-width": 5, "stroke-opacity": 0.85, "stroke-linecap": "round", "marker-end": `url(#${marker})` }));
    }
    if (last.destroyed && last.to) {
      const [sx, sy] = centre(last.to);
      const [vx, vy] = centre(last.destroyed.square);
      const edge = Math.max(Math.abs(vx - sx), Math.abs(vy - sy)) || 1;
      const [ax, ay] = [sx + ((vx - sx) * CELL) / 2 / edge, sy + ((vy - sy) * CELL) / 2 / edge];
      arrowLayer.append(
        svg("line", { class: "tc-shot", x1: ax, y1: ay, x2: vx, y2: vy, stroke: COLOURS.shot, "stroke-width": 3, "stroke-dasharray": "2 6", "stroke-linecap": "round" }),
        svg("path", { d: burst(vx, vy), fill: "#f08a24", "fill-opacity": 0.75, stroke: COLOURS.shot, "stroke-width": 2 }));
    }
  }
  board.append(arrowLayer);

  // --- picking a tank and its turns --------------------------------------------------------------
  const moveLayer = svg("g", { class: "tc-moves" });
  board.append(moveLayer);
  /** @type {string | null} */
  let picked = null;

  /** @param {string | null} square */
  function pick(square) {
    picked = square;
    moveLayer.replaceChildren();
    for (const [name, element] of tankElements) element.classList.toggle("tc-picked", name === square);
    if (!square) return;
    const mine = turns.filter((t) => t.from === square);
    const [px, py] = corner(square);
    moveLayer.append(svg("rect", { class: "tc-overlay", x: px + 1.5, y: py + 1.5, width: CELL - 3, height: CELL - 3, rx: 4, fill: "none", stroke: COLOURS.pick, "stroke-width": 4 }));
    /** @type {Map<string, Turn[]>} */
    const byDestination = new Map();
    /** @type {Map<string, Turn[]>} */
    const byVictim = new Map();
    /** @type {(groups: Map<string, Turn[]>, key: string, turn: Turn) => void} */
    const file = (groups, key, turn) => {
      const list = groups.get(key);
      if (list) list.push(turn);
      else groups.set(key, [turn]);
    };
    for (const turn of mine) {
      // Only an escape has no `to`: "off" is its target.
      file(byDestination, turn.off || turn.to === null ? "off" : turn.to, turn);
      if (turn.victim) file(byVictim, turn.victim, turn);
    }
    /** @param {Turn[]} list */
    const items = (list) => list.slice().sort(byFacingThenShot).map((t) => ({ label: turnLabel(t, tanksAt), action: t.move }));
    /** @param {TankChessMove} move */
    const play = (move) => ui.act(move);
    // The turns that end on one square: a compass of facings, fixed on the screen (a menu under
    // the square would run off a phone's screen), and each shot in words under it.
    /**
     * @param {Element} anchor
     * @param {Turn[]} list
     */
    const chooseFacing = (anchor, list) => {
      const sorted = list.slice().sort(byFacingThenShot);
      if (sorted.length === 1 || sorted.some((t) => !t.facing)) { chooseAmong(anchor, items(list), play); return; }
      const box = html("div", { class: "tc-compass", role: "menu", "aria-label": "choose the facing" });
      for (const turn of sorted) {
        const item = { label: turnLabel(turn, tanksAt), action: turn.move };
        if (turn.victim) { box.append(menuButton(item, play, { class: "tc-shot" })); continue; }
        const screen = ((angle(turn.facing || "N") % 360) + 360) % 360;
        const [row, col] = COMPASS[Math.round(screen / 45) % 8];
        box.append(menuButton(item, play, { class: "tc-facing", style: `grid-area: ${row} / ${col}; --angle: ${screen}deg` }));
      }
      box.append(html("button", { type: "button", class: "cancel", text: "cancel", style: "grid-area: 2 / 2", onclick: closeMenu }));
      showMenu(anchor, box);
    };
    for (const [key, list] of byDestination) {
      const shots = list.some((t) => t.victim);
      /** @type {SVGGElement} */
      let element;
      if (key === "off") {
        const [cx] = centre(square);
        const up = (tanksAt.get(square)?.side === "white") !== flip;
        const y = up ? MARGIN - CELL / 2 - 6 : width - MARGIN + CELL / 2 - 22;
        element = svg("g", { "data-square": "off" },
          svg("rect", { x: cx - 24, y: Math.max(0, y), width: 48, height: 26, rx: 5, fill: COLOURS.move, stroke: "#ffffff", "stroke-width": 1.5 }),
          svg("text", { x: cx, y: Math.max(0, y) + 18, "text-anchor": "middle", "font-size": 15, "font-weight": 700, fill: "#ffffff", text: "exit" }));
      } else {
        const [x, y] = corner(key);
        const [cx, cy] = centre(key);
        element = svg("g", { "data-square": key },
          svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 4, fill: "transparent", stroke: key === square ? COLOURS.pick : "none", "stroke-width": 0 }),
          key === square
            ? svg("path", { d: `M${cx - 14} ${cy - 14} a20 20 0 0 1 28 0 M${cx + 14} ${cy + 14} a20 20 0 0 1 -28 0`, fill: "none", stroke: COLOURS.move, "stroke-width": 3.5, "stroke-linecap": "round" })
            : svg("circle", { cx, cy, r: 8, fill: COLOURS.move, stroke: shots ? COLOURS.shot : "#ffffff", "stroke-width": shots ? 3.5 : 2 }));
      }
      const label = list.length === 1 ? turnLabel(list[0], tanksAt)
        : key === "off" ? "drive off the board" : key === square ? `turn on ${key}: ${list.length} choices` : `drive to ${key}: ${list.length} choices`;
      pointable(element, "target", label, () => chooseFacing(element, list));
      moveLayer.append(element);
    }
    for (const [victim, list] of byVictim) {
      const [x, y] = corner(victim);
      const [cx, cy] = centre(victim);
      const element = svg("g", { "data-square": victim, "data-victim": victim },
        svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 4, fill: COLOURS.shot, "fill-opacity": 0.15, stroke: "none", "stroke-width": 0 }),
        svg("circle", { cx, cy, r: 16, fill: "none", stroke: COLOURS.shot, "stroke-width": 3.5 }),
        svg("path", { d: `M${cx - 20} ${cy} h8 M${cx + 12} ${cy} h8 M${cx} ${cy - 20} v8 M${cx} ${cy + 12} v8`, stroke: COLOURS.shot, "stroke-width": 3.5 }));
      const victimTank = tanksAt.get(victim);
      const label = `destroy the ${victimTank ? tankName(victimTank) : "tank"} on ${victim}` + (list.length > 1 ? `: ${list.length} ways` : "");
      pointable(element, "target", label, () => chooseAmong(element, items(list), play));
      moveLayer.append(element);
    }
  }

  // --- the words under the board -----------------------------------------------------------------
  /** @type {string[]} */
  const lines = [];
  if (last) lines.push(`Last move: ${SIDE_NAMES[last.by]} ${last.move}${last.destroyed ? `, destroying the ${tankName(last.destroyed)} on ${last.destroyed.square}` : ""}.`);
  if (announced && announced.check && announced.target) {
    const by = (announced.threats || []).map((t) => `${t.type}${t.square}`).join(", ");
    lines.push(`Check! ${SIDE_NAMES[announced.by]} (${by}) can destroy the ${tankName(announced.target)} on ${announced.target.square}.`);
  }
  if (announced && announced.escape && announced.escaping) {
    lines.push(`Escape! The ${tankName(announced.escaping)} on ${announced.escaping.square} can drive off the far edge.`);
  }
  let hint = "Point at a tank to see its lines of fire.";
  if (view.your_turn && !interactive && !view.replay) hint = "Too many turns to point at here: type yours below. " + hint;
  else if (interactive) hint = "Pick one of your tanks, then where it goes. " + hint;
  const summary = html("p", { class: "tc-summary", style: "margin: .35rem 0 0; font-size: .95rem; font-weight: 600;", text: lines.join(" ") });
  const details = html("p", { class: "tc-info", "aria-live": "polite", style: "min-height: 2.8em; margin: .2rem 0; font-size: .95rem;", text: hint });
  const legend = html("p", { class: "small tc-legend", style: "margin: 0;",
    text: "L Light · M Medium · H Heavy · C Command (gold ring) · D Tank Destroyer · R Heavy Mortar · grey plates: armour (thicker, stronger) · walls: obstacles · crossed hulls: wrecks" });

  animateLastMove();

  function animateLastMove() {
    const before = view.previous;
    if (!before || !last || !last.to || before.ply !== obs.ply - 1 || last.to === last.from) return;
    const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    const element = tankElements.get(last.to);
    if (reduced || !element || !element.animate) return;
    const [fx, fy] = centre(last.from);
    const [tx, ty] = centre(last.to);
    element.animate([{ transform: `translate(${fx - tx}px, ${fy - ty}px)` }, { transform: "translate(0px, 0px)" }], { duration: 320, easing: "ease-out" });
  }

  return html("div", { class: "tank-chess-view" }, scrollable(board, width * FINGER), lines.length ? summary : null, details, legend);
}

/**
 * @param {number} x
 * @param {number} y
 */
function burst(x, y) {
  /** @type {string[]} */
  const points = [];
  for (let i = 0; i < 16; i++) {
    const r = i % 2 ? 7 : 15;
    const a = (i * Math.PI) / 8;
    points.push(`${(x + r * Math.cos(a)).toFixed(1)} ${(y + r * Math.sin(a)).toFixed(1)}`);
  }
  return `M${points.join(" L")} Z`;
}
