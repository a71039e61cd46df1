// @ts-check
// Fightopia in the browser: an 8x8 plain with Pawns, 1x2 Tanks and 2x2 Giants, each drawn as one
// shape over all its squares. Point at one of your pieces to see where it may go (green squares,
// with a ghost of the piece in its new place) and what it may destroy (red cross-hairs); point at a
// target to play it, or choose in a small menu when several actions share that square (a Tank's
// one- and two-square moves, a Giant's steps). The last move is marked, and animated when the
// previous view is one ply back. White is at the bottom, except on Black's seat.
import { canvas, chooseAmong, closeMenu, parseSquare, pointable, squareName, svg } from "/web/board.js";

// What the server sends, as the game declares it in Python (notation.py: FightopiaObservation,
// MoveJSON, FirstJSON): a drawing that reads a field the game does not send fails here.
/** @typedef {"white" | "black"} Color */
/** @typedef {"pawn" | "tank" | "giant"} Kind */
/** @typedef {{kind: "pawn step", from: string, to: string}} PawnStep */
/** @typedef {{kind: "giant step", from: string, to: string}} GiantStep  corner to corner */
/** @typedef {{kind: "giant kill", from: string, kill: string[]}} GiantKill  the corner, the Tank's squares */
/** @typedef {{kind: "tank move", from: string[], to: string[]}} TankMove */
/** @typedef {{kind: "tank shot", from: string[], kill: string}} TankShot */
/** @typedef {PawnStep | GiantStep | GiantKill | TankMove | TankShot} FightopiaMove  a player's action */
/** @typedef {{kind: "first", color: Color}} First  the chance outcome: who moves first */
/** @typedef {{color: Color, kind: Kind, squares: string[]}} Piece  its squares nearest a1 first */
/** @typedef {{player: Color | "chance", action: string, move: FightopiaMove | First}} Last */
/**
 * @typedef {{
 *   game: "fightopia", player: number, colors: Color[], to_move: Color | null, to_act: number[],
 *   ply: number, ply_limit: number, limit_result: string, position: string, pieces: Piece[],
 *   last: Last | null, result: import("/web/types.js").ResultJSON | null,
 * }} FightopiaObservation
 */
/** @typedef {import("/web/types.js").View<FightopiaObservation, FightopiaMove>} View */
/** @typedef {import("/web/types.js").UI<FightopiaMove>} UI */
/** @typedef {import("/web/board.js").Attributes} Attributes */
/** @typedef {{fill: string, stroke: string, detail: string, tread: string, eye: string}} Palette */

const S = 100; // a square, in the drawing's units
const LEFT = 44; // room for the rank numbers
const TOP = 14;
const RIGHT = 14;
const BOTTOM = 44; // room for the file letters
const CAPTION = 50; // a line of text under the board
const WIDTH = LEFT + 8 * S + RIGHT;
const HEIGHT = TOP + 8 * S + BOTTOM + CAPTION;

const LIGHT = "#d9dfc6";
const DARK = "#a5b08c";
const INK = "#111";
const PICK = "#1d6fd6";
const TARGET = "#0a7d2c";
const HIT = "#c0102a";
const LAST = "rgba(242, 194, 48, 0.62)";
/** @type {Record<Color, Palette>} */
const COLORS = {
  white: { fill: "#fbfaf4", stroke: "#161616", detail: "#c8c2ae", tread: "#3a3a3a", eye: "#1457b8" },
  black: { fill: "#25252d", stroke: "#050505", detail: "#5b5b70", tread: "#0c0c0c", eye: "#ffc21a" },
};
/** @type {Record<Kind, string>} */
const NAMES = { pawn: "Pawn", tank: "Tank", giant: "Giant" };

const STYLE = `
.fightopia .pick:hover > .body .outline, .fightopia .picked > .body .outline { stroke: ${PICK}; stroke-width: 7; }
.fightopia .target:hover > .spot, .fightopia .target:focus > .spot { fill-opacity: 0.45; }
.fightopia .previewing .move-target > .spot { fill-opacity: 0.12; stroke-width: 4; }
.fightopia .target:hover .dot { r: 19px; }
.fightopia .ghost, .fightopia .marks, .fightopia .coords { pointer-events: none; }
.fightopia .leaving > .body { opacity: 0.4; }
`;

// ---- squares and where they are drawn -------------------------------------------------------

/**
 * @param {string} name
 * @returns {{file: number, rank: number}}
 */
const square = (name) => {
  const indices = parseSquare(name);
  if (!indices) throw new Error(`not a square: ${name}`);
  const [file, rank] = indices;
  return { file, rank };
};
/** @type {(a: string, b: string) => number} */
const byPlace = (a, b) => square(a).rank - square(b).rank || square(a).file - square(b).file;
/** @type {(squares: string[]) => string} */
const keyOf = (squares) => [...squares].sort(byPlace).join(",");

/** @param {string[]} list */
function spaced(list) {
  return list.length < 2 ? list.join("") : `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
}

/** @param {string} corner */
function giantSquares(corner) {
  const { file, rank } = square(corner);
  return [squareName(file, rank), squareName(file + 1, rank), squareName(file, rank + 1), squareName(file + 1, rank + 1)];
}

/**
 * A rectangle of the drawing, and its centre.
 * @typedef {{x: number, y: number, w: number, h: number, cx: number, cy: number}} Box
 */

/**
 * Where things are drawn: White at the bottom, or Black at the bottom when `flipped`.
 * @param {boolean} flipped
 */
function layout(flipped) {
  /** @param {string} name */
  const cell = (name) => {
    const { file, rank } = square(name);
    const col = flipped ? 7 - file : file;
    const row = flipped ? rank : 7 - rank;
    return { col, row, x: LEFT + col * S, y: TOP + row * S };
  };
  /**
   * @param {string[]} squares
   * @returns {Box}
   */
  const box = (squares) => {
    const cells = squares.map(cell);
    const x = Math.min(...cells.map((c) => c.x));
    const y = Math.min(...cells.map((c) => c.y));
    const w = Math.max(...cells.map((c) => c.x)) + S - x;
    const h = Math.max(...cells.map((c) => c.y)) + S - y;
    return { x, y, w, h, cx: x + w / 2, cy: y + h / 2 };
  };
  return { cell, box, flipped };
}
/** @typedef {ReturnType<typeof layout>} Layout */

/**
 * @param {Box} from
 * @param {Box} to
 */
function where(from, to) {
  // In words, as the player sees the board: "up", "down-left", ...
  const v = to.y < from.y ? "up" : to.y > from.y ? "down" : "";
  const h = to.x < from.x ? "left" : to.x > from.x ? "right" : "";
  return [v, h].filter(Boolean).join("-");
}

/** @param {string[]} squares */
const span = (squares) => {
  const sorted = [...squares].sort(byPlace);
  return `${sorted[0]}–${sorted[sorted.length - 1]}`;
};

// ---- actions: what each structured move does ----------------------------------------------

/**
 * One action, read from its structured form (`view.moves`, `obs.last.move`; docs/games/fightopia.md),
 * as {move (that form, what `ui.act` plays), action (its notation, shown to people), piece (key of
 * the acting piece's squares), kind ("pawn", "tank", "giant"), from, to (its squares after: for a
 * shot or a kill, the same), victim (squares destroyed, or null), targets (the squares pointed at
 * to play it)}; null for what is not a move of a piece.
 * @param {FightopiaMove | First} move
 * @param {string} action
 * @returns {Play | null}
 */
function read(move, action) {
  switch (move.kind) {
    case "pawn step": return shift(move, action, "pawn", [move.from], [move.to]);
    case "giant step": return shift(move, action, "giant", giantSquares(move.from), giantSquares(move.to));
    case "giant kill": return destroy(move, action, "giant", giantSquares(move.from), move.kill);
    case "tank move": return shift(move, action, "tank", move.from, move.to);
    case "tank shot": return destroy(move, action, "tank", move.from, [move.kill]);
    default: return null;
  }
}

/**
 * @typedef {{
 *   move: FightopiaMove, action: string, kind: Kind, piece: string, from: string[], to: string[],
 *   victim: string[] | null, targets: string[],
 * }} Play
 */

/**
 * @param {FightopiaMove} move
 * @param {string} action
 * @param {Kind} kind
 * @param {string[]} from
 * @param {string[]} to
 * @returns {Play}
 */
function shift(move, action, kind, from, to) {
  const targets = to.filter((s) => !from.includes(s));
  return { move, action, kind, piece: keyOf(from), from, to, victim: null, targets };
}

/**
 * @param {FightopiaMove} move
 * @param {string} action
 * @param {Kind} kind
 * @param {string[]} from
 * @param {string[]} victim
 * @returns {Play}
 */
function destroy(move, action, kind, from, victim) {
  return { move, action, kind, piece: keyOf(from), from, to: from, victim, targets: victim };
}

/**
 * The action in words, for a menu item or a screen reader.
 * @param {Play} p
 * @param {Layout} at
 */
function describe(p, at) {
  const way = where(at.box(p.from), at.box(p.to));
  if (p.kind === "pawn") return p.victim ? "" : `step ${way} to ${p.to[0]}`;
  if (p.kind === "giant") return p.victim ? `destroy the Tank on ${span(p.victim)}` : `step ${way} to ${span(p.to)}`;
  if (p.victim) return `shoot the Pawn on ${p.victim[0]}`;
  const pivot = p.to.find((s) => p.from.includes(s));
  const turned = at.box(p.from).w !== at.box(p.to).w;
  if (turned) return `turn on ${pivot} to ${span(p.to)}`;
  const squares = Math.abs(square(p.to[0]).file - square(p.from[0]).file) + Math.abs(square(p.to[0]).rank - square(p.from[0]).rank);
  return `move ${squares} ${way} to ${span(p.to)}`;
}

/** @param {string} text */
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
/** @type {(p: Play, at: Layout) => string} */
const itemLabel = (p, at) => `${capital(describe(p, at))} (${p.action})`;

/** @param {Piece} piece */
function pieceName(piece) {
  const color = capital(piece.color);
  return `${color} ${NAMES[piece.kind]} on ${spaced([...piece.squares].sort(byPlace))}`;
}

// ---- the pieces -----------------------------------------------------------------------------

/**
 * One piece as a group: a clear rectangle over its squares (the focus ring), then its body.
 * @param {Piece} piece
 * @param {Layout} at
 * @param {Attributes} extra
 */
function drawPiece(piece, at, extra) {
  const b = at.box(piece.squares);
  const c = COLORS[piece.color] || COLORS.white;
  const group = svg("g", { class: `piece ${piece.kind} ${piece.color}`, "data-squares": keyOf(piece.squares), ...extra });
  group.append(svg("rect", { x: b.x + 2, y: b.y + 2, width: b.w - 4, height: b.h - 4, rx: 10, fill: "transparent" }));
  group.append(svg("g", { class: "body" }, body(piece.kind, b, c)));
  return group;
}

/**
 * @param {Kind} kind
 * @param {Box} b
 * @param {Palette} c
 * @returns {SVGElement[]}
 */
function body(kind, b, c) {
  const sw = 4;
  if (kind === "pawn") {
    return [
      svg("circle", { class: "outline", cx: b.cx, cy: b.cy + 3, r: 31, fill: c.fill, stroke: c.stroke, "stroke-width": sw }),
      svg("path", { d: `M ${b.cx - 19} ${b.cy + 3} a 19 17 0 0 1 38 0 z`, fill: c.detail, stroke: c.stroke, "stroke-width": 3 }),
      svg("line", { x1: b.cx - 24, y1: b.cy + 3, x2: b.cx + 24, y2: b.cy + 3, stroke: c.stroke, "stroke-width": 3, "stroke-linecap": "round" }),
    ];
  }
  if (kind === "tank") {
    const along = b.w > b.h; // lying along a rank
    const long = (along ? b.w : b.h) - 26;
    const wide = S - 30;
    /** @type {(u: number, v: number, lu: number, lv: number, attrs: Attributes) => SVGRectElement} */
    const rect = (u, v, lu, lv, attrs) => svg("rect", along
      ? { x: b.cx + u - lu / 2, y: b.cy + v - lv / 2, width: lu, height: lv, ...attrs }
      : { x: b.cx + v - lv / 2, y: b.cy + u - lu / 2, width: lv, height: lu, ...attrs });
    /** @param {number} sign */
    const barrel = (sign) => svg("line", along
      ? { x1: b.cx, y1: b.cy, x2: b.cx + sign * (long / 2 + 6), y2: b.cy }
      : { x1: b.cx, y1: b.cy, x2: b.cx, y2: b.cy + sign * (long / 2 + 6) });
    return [
      rect(0, 0, long, wide, { class: "outline", rx: 14, fill: c.fill, stroke: c.stroke, "stroke-width": sw }),
      rect(0, -wide / 2 + 9, long - 14, 11, { rx: 4, fill: c.tread }),
      rect(0, wide / 2 - 9, long - 14, 11, { rx: 4, fill: c.tread }),
      svg("g", { stroke: c.stroke, "stroke-width": 9, "stroke-linecap": "round" }, barrel(1), barrel(-1)),
      svg("g", { stroke: c.detail, "stroke-width": 4, "stroke-linecap": "round" }, barrel(1), barrel(-1)),
      svg("circle", { cx: b.cx, cy: b.cy, r: 21, fill: c.detail, stroke: c.stroke, "stroke-width": sw }),
      svg("circle", { cx: b.cx, cy: b.cy, r: 7, fill: c.stroke }),
    ];
  }
  // The Giant: a robot seen from above, its visor and eyes, shoulders and fists.
  const x = b.x + 16;
  const y = b.y + 16;
  const w = b.w - 32;
  const h = b.h - 32;
  return [
    svg("rect", { class: "outline", x, y, width: w, height: h, rx: 30, fill: c.fill, stroke: c.stroke, "stroke-width": sw + 1 }),
    svg("rect", { x: b.x + 4, y: b.cy - 30, width: 22, height: 60, rx: 8, fill: c.detail, stroke: c.stroke, "stroke-width": 3 }),
    svg("rect", { x: b.x + b.w - 26, y: b.cy - 30, width: 22, height: 60, rx: 8, fill: c.detail, stroke: c.stroke, "stroke-width": 3 }),
    svg("rect", { x: b.cx - 48, y: b.cy - 48, width: 96, height: 50, rx: 16, fill: c.detail, stroke: c.stroke, "stroke-width": 3 }),
    svg("circle", { cx: b.cx - 22, cy: b.cy - 23, r: 11, fill: c.eye, stroke: c.stroke, "stroke-width": 2 }),
    svg("circle", { cx: b.cx + 22, cy: b.cy - 23, r: 11, fill: c.eye, stroke: c.stroke, "stroke-width": 2 }),
    svg("rect", { x: b.cx - 40, y: b.cy + 18, width: 80, height: 10, rx: 5, fill: c.detail }),
    svg("rect", { x: b.cx - 40, y: b.cy + 36, width: 80, height: 10, rx: 5, fill: c.detail }),
  ];
}

// ---- the board ------------------------------------------------------------------------------

/**
 * @param {Layout} at
 * @param {() => void} unpick
 * @returns {[SVGGElement, SVGGElement]}
 */
function drawBoard(at, unpick) {
  const layer = svg("g", { class: "squares" });
  for (let file = 0; file < 8; file++) {
    for (let rank = 0; rank < 8; rank++) {
      const { x, y } = at.cell(squareName(file, rank));
      layer.append(svg("rect", { x, y, width: S, height: S, fill: (file + rank) % 2 ? LIGHT : DARK }));
    }
  }
  layer.append(svg("rect", { x: LEFT, y: TOP, width: 8 * S, height: 8 * S, fill: "none", stroke: INK, "stroke-width": 3 }));
  layer.addEventListener("click", unpick);
  const coords = svg("g", { class: "coords", fill: INK, "font-size": 32, "font-weight": 600, "text-anchor": "middle" });
  for (let i = 0; i < 8; i++) {
    const file = at.cell(squareName(i, 0));
    const rank = at.cell(squareName(0, i));
    coords.append(svg("text", { x: file.x + S / 2, y: TOP + 8 * S + 35, text: String.fromCharCode(97 + i) }));
    coords.append(svg("text", { x: LEFT / 2, y: rank.y + S / 2 + 11, text: String(i + 1) }));
  }
  return [layer, coords];
}

/**
 * The last move: its squares before and after in yellow, and what it destroyed crossed out.
 * @param {Last | null} last
 * @param {Layout} at
 * @returns {{under: SVGGElement, over: SVGGElement, move: Play | null}}
 */
function drawLast(last, at) {
  const under = svg("g", { class: "marks last" });
  const over = svg("g", { class: "marks last" });
  if (!last || last.player === "chance") return { under, over, move: null };
  const p = read(last.move, last.action);
  if (!p) return { under, over, move: null };
  const squares = new Set([...p.from, ...p.to]);
  for (const s of squares) {
    const { x, y } = at.cell(s);
    under.append(svg("rect", { x, y, width: S, height: S, fill: LAST }));
  }
  if (p.victim) {
    const v = at.box(p.victim);
    if (p.kind === "tank") {
      // The shot: from the end nearer the victim, straight along the Tank.
      const end = at.box([nearest(p.from, p.victim[0])]);
      over.append(svg("line", {
        class: "shot", x1: end.cx, y1: end.cy, x2: v.cx, y2: v.cy,
        stroke: HIT, "stroke-width": 5, "stroke-dasharray": "14 9", "stroke-linecap": "round", opacity: 0.85,
      }));
    }
    over.append(svg("g", { class: "wreck", stroke: HIT, "stroke-width": 8, "stroke-linecap": "round" },
      svg("line", { x1: v.x + 26, y1: v.y + 26, x2: v.x + v.w - 26, y2: v.y + v.h - 26 }),
      svg("line", { x1: v.x + v.w - 26, y1: v.y + 26, x2: v.x + 26, y2: v.y + v.h - 26 })));
  }
  return { under, over, move: p };
}

/**
 * @param {string[]} squares
 * @param {string} to
 */
function nearest(squares, to) {
  const t = square(to);
  /** @param {string} s */
  const distance = (s) => Math.abs(square(s).file - t.file) + Math.abs(square(s).rank - t.rank);
  return [...squares].sort((a, b) => distance(a) - distance(b))[0];
}

// ---- animation of the last move -------------------------------------------------------------

function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/**
 * @param {Play | null} p
 * @param {Layout} at
 * @param {Map<string, SVGGElement>} groups  each piece's drawing by its key
 * @param {SVGGElement} over
 * @param {FightopiaObservation} previous
 */
function animate(p, at, groups, over, previous) {
  if (!p || reducedMotion() || typeof Element.prototype.animate !== "function") return;
  /** @type {KeyframeAnimationOptions} */
  const timing = { duration: 380, easing: "cubic-bezier(.25,.8,.35,1)", fill: "backwards" };
  const victim = p.victim;
  if (victim) {
    const old = (previous.pieces || []).find((piece) => keyOf(piece.squares) === keyOf(victim));
    if (old) {
      const wreck = drawPiece(old, at, { class: "ghost" });
      over.prepend(wreck);
      wreck.animate([{ opacity: 1 }, { opacity: 1, offset: 0.45 }, { opacity: 0 }], { duration: 900, fill: "forwards" });
    }
    for (const element of over.querySelectorAll(".shot, .wreck")) {
      element.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 300, delay: 120, fill: "backwards" });
    }
    return;
  }
  const group = groups.get(keyOf(p.to));
  if (!group) return;
  const a = at.box(p.from);
  const b = at.box(p.to);
  if (p.kind === "tank" && a.w !== b.w) {
    // A pivot: the Tank swings a quarter turn about the square it keeps.
    const kept = p.to.find((s) => p.from.includes(s));
    if (kept === undefined) return;
    const pivot = at.box([kept]);
    /** @param {Box} u */
    const angle = (u) => Math.atan2(u.cy - pivot.cy, u.cx - pivot.cx);
    let turn = angle(b) - angle(a);
    if (turn > Math.PI) turn -= 2 * Math.PI;
    if (turn < -Math.PI) turn += 2 * Math.PI;
    group.style.transformBox = "view-box";
    group.style.transformOrigin = `${pivot.cx}px ${pivot.cy}px`;
    group.animate([{ transform: `rotate(${-turn}rad)` }, { transform: "rotate(0rad)" }], timing);
  } else {
    group.animate([{ transform: `translate(${a.x - b.x}px, ${a.y - b.y}px)` }, { transform: "translate(0px, 0px)" }], timing);
  }
}

// ---- the drawing ----------------------------------------------------------------------------

// The page may keep one side down for every seat (`view.bottom`: a game at one screen).
export const orientable = true;

/**
 * @param {View} view
 * @param {UI} ui
 * @returns {SVGSVGElement}
 */
export function draw(view, ui) {
  const obs = view.observation;
  const flipped = (view.bottom ?? view.seat) === 1;
  const at = layout(flipped);
  const pieces = obs.pieces || [];
  const mine = view.seat === 1 ? "black" : "white";

  // What each of this seat's pieces may do, and on which squares it is pointed at.
  /** @type {Map<string, Play[]>} */
  const actions = new Map();
  const legal = view.legal;
  if (view.moves && legal && !view.replay && view.seat !== null) {
    view.moves.forEach((move, i) => {
      const p = read(move, legal[i]);
      if (!p) return;
      const list = actions.get(p.piece);
      if (list) list.push(p);
      else actions.set(p.piece, [p]);
    });
  }

  /** @type {string | null} */
  let picked = null;
  const targetLayer = svg("g", { class: "targets" });
  const ghostLayer = svg("g", { class: "ghost", opacity: 0.7 });
  const pickLayer = svg("g", { class: "marks picked-ring" });
  /** @type {Map<string, SVGGElement>} */
  const groups = new Map();

  /** @param {Play[]} list */
  function showGhosts(list) {
    // Where the picked piece would land, and the piece itself faded where it stands.
    ghostLayer.replaceChildren();
    const piece = pieces.find((x) => keyOf(x.squares) === picked);
    const moving = piece ? list.filter((p) => !p.victim) : [];
    const leaving = picked === null ? undefined : groups.get(picked);
    if (leaving) leaving.classList.toggle("leaving", moving.length > 0);
    targetLayer.classList.toggle("previewing", moving.length > 0);
    if (!piece) return;
    for (const p of moving) {
      const ghost = drawPiece({ ...piece, squares: p.to }, at, {});
      ghost.append(svg("rect", {
        x: at.box(p.to).x + 5, y: at.box(p.to).y + 5, width: at.box(p.to).w - 10, height: at.box(p.to).h - 10,
        rx: 12, fill: "none", stroke: TARGET, "stroke-width": 5, "stroke-dasharray": "12 8",
      }));
      ghostLayer.append(ghost);
    }
  }

  function unpick() {
    if (picked === null) return;
    picked = null;
    closeMenu();
    render();
  }

  /**
   * @param {string} key
   * @param {Event} event
   */
  function pick(key, event) {
    closeMenu();
    picked = picked === key ? null : key;
    render();
    if (picked && event && event.type === "keydown") {
      const first = /** @type {SVGGElement | null} */ (targetLayer.querySelector(".target"));
      if (first) first.focus();
    }
  }

  function render() {
    targetLayer.replaceChildren();
    ghostLayer.replaceChildren();
    pickLayer.replaceChildren();
    for (const [key, group] of groups) {
      group.classList.toggle("picked", key === picked);
      group.classList.remove("leaving");
    }
    if (picked === null) return;
    const list = actions.get(picked) || [];
    if (!list.length) return; // only a piece with moves is picked
    const b = at.box(list[0].from);
    pickLayer.append(svg("rect", {
      x: b.x + 3, y: b.y + 3, width: b.w - 6, height: b.h - 6, rx: 10,
      fill: "rgba(29, 111, 214, 0.18)", stroke: PICK, "stroke-width": 6,
    }));
    // Squares a move lands on (new squares only), each with every move that covers it.
    /** @type {Map<string, Play[]>} */
    const onSquare = new Map();
    for (const p of list) {
      if (p.victim) continue;
      for (const s of p.targets) {
        const here = onSquare.get(s);
        if (here) here.push(p);
        else onSquare.set(s, [p]);
      }
    }
    for (const [s, here] of onSquare) targetLayer.append(moveTarget(s, here));
    for (const p of list) if (p.victim) targetLayer.append(hitTarget(p, p.victim));
  }

  /**
   * @param {SVGGElement} group
   * @param {Play[]} here
   */
  function choose(group, here) {
    // A menu item carries the notation (people read it); the structured move is what is played.
    const items = here.map((p) => ({ label: itemLabel(p, at), action: p.action }));
    /** @param {string} action */
    const play = (action) => {
      closeMenu();
      const chosen = here.find((p) => p.action === action);
      if (chosen) ui.act(chosen.move);
    };
    chooseAmong(group, items, play);
    const box = document.querySelector(".menu");
    if (!box || here.length < 2) return;
    for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (box.querySelectorAll("button[data-action]"))) {
      const p = here.find((x) => x.action === button.dataset.action);
      if (!p) continue;
      const preview = () => showGhosts([p]);
      button.addEventListener("mouseenter", preview);
      button.addEventListener("focus", preview);
    }
    const cancel = box.querySelector("button.cancel");
    if (cancel) cancel.addEventListener("click", () => showGhosts([]));
    if (here.length) showGhosts([here[0]]);
  }

  /**
   * @param {string} s
   * @param {Play[]} here
   */
  function moveTarget(s, here) {
    const { x, y } = at.cell(s);
    const words = here.map((p) => describe(p, at));
    const label = here.length > 1 ? `${s}: ${words.join(", or ")} (a menu chooses)` : `${s}: ${words[0]}`;
    const group = svg("g", { class: "move-target", "data-square": s },
      svg("rect", { class: "spot", x: x + 3, y: y + 3, width: S - 6, height: S - 6, rx: 8, fill: TARGET, "fill-opacity": 0.3, stroke: TARGET, "stroke-width": 3 }),
      svg("circle", { class: "dot", cx: x + S / 2, cy: y + S / 2, r: 15, fill: TARGET, stroke: "#fff", "stroke-width": 3 }));
    if (here.length > 1) {
      group.append(svg("circle", { cx: x + S - 20, cy: y + 20, r: 15, fill: "#fff", stroke: TARGET, "stroke-width": 3 }));
      group.append(svg("text", { x: x + S - 20, y: y + 27, "text-anchor": "middle", "font-size": 21, "font-weight": 700, fill: TARGET, text: String(here.length) }));
    }
    group.addEventListener("mouseenter", () => showGhosts(here));
    group.addEventListener("focus", () => showGhosts(here));
    group.addEventListener("mouseleave", () => { if (!document.querySelector(".menu")) showGhosts([]); });
    return pointable(group, "target", label, () => choose(group, here));
  }

  /**
   * @param {Play} p
   * @param {string[]} victim  its squares (`p.victim`)
   */
  function hitTarget(p, victim) {
    const b = at.box(victim);
    const r = Math.min(b.w, b.h) / 2 - 10;
    /** @type {(x1: number, y1: number, x2: number, y2: number) => SVGLineElement} */
    const hair = (x1, y1, x2, y2) => svg("line", { x1, y1, x2, y2 });
    const group = svg("g", { class: "hit-target", "data-square": [...victim].sort(byPlace).join(" ") },
      svg("rect", { class: "spot", x: b.x + 3, y: b.y + 3, width: b.w - 6, height: b.h - 6, rx: 10, fill: HIT, "fill-opacity": 0.28, stroke: HIT, "stroke-width": 4 }),
      svg("g", { stroke: HIT, "stroke-width": 6, fill: "none", "stroke-linecap": "round" },
        svg("circle", { cx: b.cx, cy: b.cy, r }),
        hair(b.cx - r - 12, b.cy, b.cx - r + 16, b.cy), hair(b.cx + r - 16, b.cy, b.cx + r + 12, b.cy),
        hair(b.cx, b.cy - r - 12, b.cx, b.cy - r + 16), hair(b.cx, b.cy + r - 16, b.cx, b.cy + r + 12)));
    return pointable(group, "target", `${victim.join(" and ")}: ${describe(p, at)}`, () => choose(group, [p]));
  }

  // The layers, bottom to top: squares and the last move, the pieces and what the last move
  // destroyed, the picked piece's ring, the ghosts of where it would land, its targets.
  const [squares, coords] = drawBoard(at, unpick);
  const last = drawLast(obs.last, at);
  const pieceLayer = svg("g", { class: "pieces" });
  const order = [...pieces].sort((a, b) => Number(a.color === mine) - Number(b.color === mine));
  for (const piece of order) {
    const key = keyOf(piece.squares);
    const group = drawPiece(piece, at, {});
    groups.set(key, group);
    if (actions.has(key) && piece.color === mine) {
      pointable(group, "pick", pieceName(piece), (event) => pick(key, event));
    } else {
      group.append(svg("title", { text: pieceName(piece) }));
      group.addEventListener("click", unpick);
    }
    pieceLayer.append(group);
  }

  const caption = svg("g", { class: "coords", fill: INK, "font-size": 30 });
  const y = TOP + 8 * S + BOTTOM + 32;
  caption.append(svg("text", { x: LEFT, y, "font-weight": 700, text: statusText(obs) }));
  if (obs.last && obs.last.player !== "chance" && !obs.result) {
    caption.append(svg("text", { x: LEFT + 8 * S, y, "text-anchor": "end", text: `last: ${capital(obs.last.player)} ${obs.last.action}` }));
  }

  const label = `Fightopia board, ${flipped ? "Black" : "White"} at the bottom. ${statusText(obs)}.`;
  const drawing = canvas(WIDTH, HEIGHT, label,
    svg("style", { text: STYLE }), squares, last.under, coords, pieceLayer, last.over, pickLayer, ghostLayer, targetLayer, caption);
  drawing.classList.add("fightopia");

  const previous = view.previous;
  if (previous && obs.last && previous.ply === obs.ply - 1 && previous.position !== obs.position) {
    animate(last.move, at, groups, last.over, previous);
  }
  return drawing;
}

/** @param {FightopiaObservation} obs */
function statusText(obs) {
  if (obs.result) {
    const r = obs.result;
    const who = r.winner === 0 ? "White wins" : r.winner === 1 ? "Black wins" : "A draw";
    return r.reason ? `${who}: ${r.reason}` : who;
  }
  const limit = obs.ply_limit ? ` of ${obs.ply_limit}` : "";
  if (!obs.to_move) return `Ply ${obs.ply}${limit}`;
  return `${capital(obs.to_move)} to move · ply ${obs.ply}${limit}`;
}
