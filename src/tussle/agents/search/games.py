"""The search policies of the five games: evaluation, playout moves, move order.

Each policy reads states only through the core API (observation, position
notation, legal actions and their notation) and scores unfinished states from
-1 (lost) to 1 (won) for every player.

>>> from tussle import load_game
>>> policy = FightopiaPolicy(load_game("fightopia"))
>>> policy.evaluate(load_game("fightopia").new_initial_state())
[0.0, -0.0]
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from tussle.agents import fightopia as fightopia_rule
from tussle.agents import fite as fite_rule
from tussle.agents.search.policy import GamePolicy
from tussle.errors import PositionError
from tussle.game import Actions, Game, State

# --- Robo Battle Pigs ---------------------------------------------------------------

_PIG_FREE = ("^", "v", "\\", "/", "TL", "TR", "F", "H")
_PIG_COST = (0.0, 1.0, 2.2, 3.6, 5.2)
_PIG_DELTA = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}


def _pig_in_line(x: int, y: int, facing: str, tx: int, ty: int) -> bool:
    dx, dy = _PIG_DELTA[facing]
    if dx:
        return ty == y and (tx - x) * dx > 0
    return tx == x and (ty - y) * dy > 0


class RoboPigsPolicy(GamePolicy):
    """Programs built command by command; a round's outcome scored by damage and aim."""

    default_depth = 0
    default_rollout = "rule"
    # A round changes the score by little (a hit is about 0.16 on the 0..1
    # scale): exploration must be gentle or every program looks alike.
    default_c = 0.1

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.extra_x = bool(game.options["extra_x"])
        self._parsed: dict[str, Any] = {}

    @staticmethod
    def pigs(state: State) -> list[tuple[int, int, str, int]]:
        """Each pig's file, rank, facing and damage, read from the position (``d8S0 e1N0 1``)."""
        try:
            words = state.position().split()
        except PositionError:  # a program is pending: positions are written between rounds
            obs = state.observation(-2)
            words = [f"{p['square']}{p['facing']}{p['damage']}" for p in obs["pigs"]]
        return [("abcdefgh".index(w[0]), int(w[1]) - 1, w[2], int(w[3:])) for w in words[:2]]

    def _damage(self, state: State, player: int) -> int:
        # The number of legal programs tells the damage without building an observation.
        damage = _DAMAGE_BY_COUNT[self.extra_x].get(len(state.legal_actions(player)))
        if damage is None:
            damage = int(state.observation(player)["pigs"][player]["damage"])
        return damage

    def factored(self, state: State, player: int) -> bool:
        return True

    def tokens(self, state: State, player: int, prefix: tuple[str, ...]) -> Sequence[str] | None:
        return self._pieces(self._damage(state, player), prefix)

    def piece_source(self, state: State, player: int) -> Callable[[tuple[str, ...]], Sequence[str] | None]:
        damage = self._damage(state, player)
        return lambda prefix: self._pieces(damage, prefix)

    def _pieces(self, damage: int, prefix: tuple[str, ...]) -> Sequence[str] | None:
        """The commands that may follow ``prefix`` in the program of a pig with ``damage``."""
        size = len(prefix)
        if size == 5:
            return None
        if prefix[:1] == ("R",):
            return ("R",)
        x_left = damage - prefix.count("X")
        if x_left >= 5 - size:
            return ("X",)
        options: tuple[str, ...] = _PIG_FREE
        if x_left > 0 or self.extra_x:
            options += ("X",)
        if size == 0 and damage > 0:
            options += ("R",)
        return options

    def assemble(self, state: State, player: int, prefix: tuple[str, ...]) -> Any:
        text = " ".join(prefix)
        action = self._parsed.get(text)
        if action is None:
            action = self._parsed[text] = state.parse_action(player, text)
        return action

    def program(self, state: State, player: int, rng: random.Random) -> Any:
        """A program weighted towards attacks, as the playout move."""
        damage = self._damage(state, player)
        if damage and rng.random() < 0.1 * damage:
            return self.assemble(state, player, ("R",) * 5)
        commands = rng.choices(_PIG_FREE, (3, 2, 2, 2, 2, 2, 6, 3), k=5 - damage)
        for _ in range(damage):
            commands.insert(rng.randrange(len(commands) + 1), "X")
        return self.assemble(state, player, tuple(commands))

    def rollout_action(self, state: State, player: int, rng: random.Random) -> Any:
        return self.program(state, player, rng)

    def evaluate(self, state: State) -> list[float]:
        pigs = self.pigs(state)
        (ax, ay, af, ad), (bx, by, bf, bd) = pigs
        value = _PIG_COST[min(bd, 4)] - _PIG_COST[min(ad, 4)]
        if _pig_in_line(ax, ay, af, bx, by):
            value += 0.25
        if _pig_in_line(bx, by, bf, ax, ay):
            value -= 0.25
        v = math.tanh(value / 3.0)
        return [v, -v]


def _damage_table(extra_x: bool) -> dict[int, int]:
    """Damage by the number of legal programs (the counts in docs/games/robo-pigs.md).

    A damaged pig has the repair program too; with ``extra_x`` any number of X
    from the damage up is allowed.
    """
    table = {}
    for damage in range(5):
        xs = range(damage, 6) if extra_x else (damage,)
        count = sum(math.comb(5, x) * 8 ** (5 - x) for x in xs)
        table[count + (damage > 0)] = damage
    return table


_DAMAGE_BY_COUNT = {False: _damage_table(False), True: _damage_table(True)}


# --- FITE -------------------------------------------------------------------------------


def _fite_strength(dice: int) -> float:
    return float(dice) if dice >= 2 else 0.0


class FitePolicy(GamePolicy):
    """Splits searched, tactical options played greedily, positions scored by the dice left.

    The playout policy is the rule-of-thumb agent's: the tactical location,
    Swift to it, the rule's equilibrium split of the dice, the greedy tactical
    option. The step is told by the notation of the first legal action, so that
    an observation (costly here) is built only where its data is needed.
    """

    default_depth = 12
    default_rollout = "rule"

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self._parsed: dict[tuple[int, str], Any] = {}
        self._tactics: dict[
            tuple[tuple[int, ...], tuple[int, ...], int], list[tuple[list[int], list[int]]]
        ] = {}

    def _parse(self, state: State, player: int, text: str) -> Any:
        # Placement and split actions are plain values, the same in every state.
        key = (player, text)
        action = self._parsed.get(key)
        if action is None:
            action = self._parsed[key] = state.parse_action(player, text)
        return action

    @staticmethod
    def step(state: State, player: int) -> str:
        """``place``, ``swift``, ``split`` or ``tactical``, from the legal actions' notation."""
        first = state.action_to_str(player, state.legal_actions(player)[0])
        if first[0].isdigit():
            return "split"
        if first in ("stay",) or first.startswith("swift"):
            return "swift"
        if first.startswith(("off", "def", "tac")):
            return "place"
        return "tactical"

    def evaluate(self, state: State) -> list[float]:
        fighters = state.observation(-2)["fighters"]
        diff = _fite_strength(fighters[0]["dice"]) - _fite_strength(fighters[1]["dice"])
        v = math.tanh(diff / 3.0)
        return [v, -v]

    def tree_actions(self, state: State, acting: tuple[int, ...], rng: random.Random) -> list[Any] | None:
        if self.step(state, acting[0]) != "tactical":
            return None
        obs = state.observation(-2)
        return [self._tactic(state, p, obs) for p in acting]

    def rollout_actions(self, state: State, acting: tuple[int, ...], rng: random.Random) -> list[Any]:
        step = self.step(state, acting[0])
        if step == "place":
            return [self._parse(state, p, "tac 5") for p in acting]
        if step == "swift":
            out = []
            for p in acting:
                texts = [state.action_to_str(p, a) for a in state.legal_actions(p)]
                out.append(self._parse(state, p, "swift tac" if "swift tac" in texts else "stay"))
            return out
        if step == "split" and len(acting) == 2:
            return [self._split(state, p, rng) for p in acting]
        obs = state.observation(-2)
        if step == "split":
            return [self._observed_split(state, p, obs, rng) for p in acting]
        return [self._tactic(state, p, obs) for p in acting]

    def rollout_action(self, state: State, player: int, rng: random.Random) -> Any:
        return self.rollout_actions(state, (player,), rng)[0]

    def _split(self, state: State, player: int, rng: random.Random) -> Any:
        """The rule's split, both fighters splitting (each one's dice read from its split's notation).

        Playouts place at the tactical location, so no location bonus is assumed.
        """
        dice = [self._dice(state, p) for p in (0, 1)]
        offs, weights, _ = fite_rule.split_strategy(dice[player], dice[1 - player], (0, 0), (0, 0))
        off = rng.choices(offs, weights)[0]
        return self._parse(state, player, f"{off}/{dice[player] - off}")

    @staticmethod
    def _dice(state: State, player: int) -> int:
        off, _, dfn = state.action_to_str(player, state.legal_actions(player)[0]).partition("/")
        return int(off) + int(dfn.split()[0])

    def _observed_split(self, state: State, player: int, obs: dict[str, Any], rng: random.Random) -> Any:
        me, them = obs["fighters"][player], obs["fighters"][1 - player]
        mine = (int(me["location"] == "off"), int(me["location"] == "def"))
        theirs = (int(them["location"] == "off"), int(them["location"] == "def"))
        offs, weights, _ = fite_rule.split_strategy(me["dice"], them["dice"], mine, theirs)
        off = rng.choices(offs, weights)[0]
        return self._parse(state, player, f"{off}/{me['dice'] - off}")

    def _tactic(self, state: State, player: int, obs: dict[str, Any]) -> Any:
        """The tactical option that leaves the most hits dealt minus taken against the rolls as they are."""
        other = 1 - player
        fight = obs["fight"]
        mods = fight["modifiers"]
        rolls = fight["rolls"]
        their_off = [v + mods[other]["off"] for v in rolls[other]["off"]]
        their_def = [v + mods[other]["def"] for v in rolls[other]["def"]]
        legal = state.legal_actions(player)
        my_off, my_def = mods[player]["off"], mods[player]["def"]
        best_index, best = 0, None
        for i, (off, dfn) in enumerate(self._outcomes(state, player, rolls[player], legal)):
            dealt = fite_rule.uncancelled([v + my_off for v in off], their_def)
            taken = fite_rule.uncancelled(their_off, [v + my_def for v in dfn])
            score = (dealt - taken, -taken)
            if best is None or score > best:
                best_index, best = i, score
        return legal[best_index]

    def _outcomes(
        self, state: State, player: int, roll: dict[str, list[int]], legal: Sequence[Any]
    ) -> list[tuple[list[int], list[int]]]:
        """The pools each legal tactical option leaves, in the order of ``legal``.

        The options depend only on the dice rolled and the fighter's entitlement
        (which the number of options tells), so they are worked out once for each.
        """
        key = (tuple(roll["off"]), tuple(roll["def"]), len(legal))
        outcomes = self._tactics.get(key)
        if outcomes is None:
            pools = (list(roll["off"]), list(roll["def"]))
            outcomes = [fite_after_tactic(pools, state.action_to_str(player, a)) for a in legal]
            if len(self._tactics) > 50_000:
                self._tactics.clear()
            self._tactics[key] = outcomes
        return outcomes


_FITE_POOLS = {"off": 0, "def": 1}


def fite_after_tactic(pools: tuple[list[int], list[int]], text: str) -> tuple[list[int], list[int]]:
    """A fighter's (offensive, defensive) faces after the tactical choice written ``text``.

    >>> fite_after_tactic(([6, 5, 1], [2]), "move off>def 6 and turn off 1")
    ([5, 6], [2, 6])
    >>> fite_after_tactic(([3], [2, 1]), "turn off 3 def 1")
    ([4], [2, 6])
    """
    lists = [list(pools[0]), list(pools[1])]
    for part in text.split(" and "):
        words = part.split()
        if words[0] == "move":
            source, target = (_FITE_POOLS[w] for w in words[1].split(">"))
            for face in words[2].split(","):
                lists[source].remove(int(face))
                lists[target].append(int(face))
        elif words[0] == "turn":
            pool = 0
            for word in words[1:]:
                if word in _FITE_POOLS:
                    pool = _FITE_POOLS[word]
                    continue
                for face in word.split(","):
                    lists[pool].remove(int(face))
                    lists[pool].append(7 - int(face))
    return lists[0], lists[1]


# --- Fightopia ------------------------------------------------------------------------------


_FO = fightopia_rule
_FO_KIND = {"P": "pawn", "G": "giant", "V": "tank", "H": "tank"}


# A rank of a position as it is written -> its pieces as (file, color, letter, kind).
_FO_RANKS: dict[str, tuple[tuple[int, int, str, str], ...]] = {}


_FILE_BITS = tuple(sum(1 << (8 * r + f) for r in range(8)) for f in range(8))
_RANK_BITS = tuple(0xFF << (8 * r) for r in range(8))


def _fo_rank(row: str) -> tuple[tuple[int, int, str, str], ...]:
    # Searches score many positions and a board has few distinct ranks: read each once.
    out = []
    f = 0
    for ch in row:
        if ch.isdigit():
            f += int(ch)
            continue
        letter = ch.upper()
        out.append((f, 0 if ch.isupper() else 1, letter, _FO_KIND[letter]))
        f += 1
    if len(_FO_RANKS) > 100_000:
        _FO_RANKS.clear()
    pieces = _FO_RANKS[row] = tuple(out)
    return pieces


def fightopia_score(
    position: str, pawn: float = _FO.PAWN, lines: float = 0.0, pressure: float = 0.0
) -> float:
    """The rule-of-thumb agent's evaluation for White, read from a position (much faster).

    Same weights and terms as :func:`tussle.agents.fightopia.evaluate` on the
    observation, scored for the player who has just moved (the one not to
    move) and negated when that is Black; the tests check it. Whoever moves
    next strikes first, so their threats weigh more. The search scores with two
    changes: ``pawn`` (the weight of a Pawn, the rule agent's by default),
    ``lines`` (per clear square out of either end of a Tank, 0 by default) and
    ``pressure`` (per enemy Pawn anywhere on a Tank's line of fire, whatever
    stands between, 0 by default).

    >>> fightopia_score("vppggppv/v1pggp1v/2pppp2/8/8/2PPPP2/V1PGGP1V/VPPGGPPV w 0")
    0.0
    """
    at: dict[tuple[int, int], tuple[int, str]] = {}
    giants: list[list[tuple[int, int]]] = [[], []]
    pawn_bits = [0, 0]  # by color, bit 8 * rank + file: whole files and ranks count at once
    standing: list[list[tuple[int, int]]] = [[], []]
    lying: list[list[tuple[int, int]]] = [[], []]
    rank = 7
    board, _, rest = position.partition(" ")
    # The player who has just moved (White before the first move is drawn).
    moved = 1 if rest.startswith("w") else 0
    for row in board.split("/"):
        pieces = _FO_RANKS.get(row)
        if pieces is None:
            pieces = _fo_rank(row)
        for f, color, letter, kind in pieces:
            square = (f, rank)
            at[square] = (color, kind)
            if letter == "P":
                pawn_bits[color] |= 1 << (8 * rank + f)
            elif letter == "G":
                giants[color].append(square)
            elif letter == "V":
                standing[color].append(square)
            else:
                lying[color].append(square)
        rank -= 1
    tanks: list[list[list[tuple[int, int]]]] = [[], []]
    for color in (0, 1):
        # Halves pair up from the lowest (leftmost) square of each run.
        for halves, step in ((standing[color], (0, 1)), (lying[color], (1, 0))):
            left = set(halves)
            for sq in sorted(halves, key=lambda s: (s[0], s[1]) if step == (0, 1) else (s[1], s[0])):
                if sq not in left:
                    continue
                other = (sq[0] + step[0], sq[1] + step[1])
                left.discard(sq)
                left.discard(other)
                tanks[color].append([sq, other])
    score = _FO.TANK * (len(tanks[0]) - len(tanks[1])) + pawn * (
        pawn_bits[0].bit_count() - pawn_bits[1].bit_count()
    )
    for color, sign in ((0, 1.0), (1, -1.0)):
        giant = giants[color]
        ranks = [r for _, r in giant]
        low = min(ranks)
        if color == 0:
            score += sign * _FO.ADVANCE * low
            front, behind = max(ranks) + 1, max(ranks)
        else:
            score += sign * _FO.ADVANCE * (6 - low)
            front, behind = low - 1, low
        if 0 <= front < 8:
            score += sign * _FO.OPEN_ROAD * sum(1 for f, r in giant if r == behind and (f, front) not in at)
        enemy = tanks[1 - color]
        if enemy:
            # Distances from a square to the Giant's 2x2 block: the nearest of its squares
            # is the nearest file and the nearest rank of the block, chosen independently.
            gf = min(f for f, _ in giant)
            gap = 99
            for tank in enemy:
                touch = False
                for tf, tr in tank:
                    dx = gf - tf if tf < gf else (tf - gf - 1 if tf > gf + 1 else 0)
                    dy = low - tr if tr < low else (tr - low - 1 if tr > low + 1 else 0)
                    if dx + dy == 1:
                        touch = True
                    gap = min(gap, max(dx, dy))
                if touch:
                    score += sign * (_FO.THREAT if color == moved else _FO.TANK_IN_REACH)
            score -= sign * _FO.HUNT * gap
        clear = 0  # squares out of the ends of color's Tanks, counted whole so that even sides sum to 0
        for tank in tanks[color]:
            (af, ar), (bf, br) = tank
            df, dr = bf - af, br - ar
            for (f, r), (sf, sr) in (((bf, br), (df, dr)), ((af, ar), (-df, -dr))):
                f, r = f + sf, r + sr
                while 0 <= f < 8 and 0 <= r < 8:
                    hit = at.get((f, r))
                    if hit is not None:
                        if hit[1] == "pawn" and hit[0] != color:
                            score += sign * (_FO.TARGET if color == moved else _FO.IN_SIGHT)
                        break
                    clear += 1
                    f, r = f + sf, r + sr
        score += sign * lines * clear
        if pressure:
            # A Tank lined up on Pawns behind others keeps shooting as the line clears, and
            # walls of Pawns have to step out of it: this is what makes a search press on.
            enemy_pawns = pawn_bits[1 - color]
            aimed = 0
            for (af, ar), (bf, _) in tanks[color]:
                aimed += (enemy_pawns & (_FILE_BITS[af] if af == bf else _RANK_BITS[ar])).bit_count()
            score += sign * pressure * aimed
    return score


class FightopiaPolicy(GamePolicy):
    """The rule-of-thumb agent's evaluation tuned for progress, in -1..1; captures and Giant moves first.

    With the rule agent's own weights, searches of every depth built Pawn walls
    and drew every game at the ply limit. Pawns weigh three times as much here
    (a Tank's shot is worth taking), a Tank gains for each clear square out of
    its ends (Tanks leave their corners and open lines of fire) and for each
    enemy Pawn anywhere on its line (``pressure``: the Tank aims at a wall,
    and the wall has to give), and a position met before scores a little below
    a draw (see ``default_contempt``).
    """

    default_depth = 0
    scale = 60.0
    # Without contempt both sides shuffle a Pawn back and forth behind their walls to the ply limit.
    default_contempt = 0.05
    # Measured, medium against hard, 6 games from 3 random opening moves a side: pawn 2 and no
    # lines drew all 6; pawn 6 with lines 0.3 gave hard 3 wins and 3 draws; pawn 10, lines 0.5: 6 draws.
    pawn = 6.0
    lines = 0.3
    # Without pressure a search a few Pawns up shuffled behind its wall to the limit; with
    # 6 (3 per half of a Tank in the trial), hard against medium went from 1 win and 9 draws
    # to 5 wins, 4 draws and a loss (docs/strength.md).
    pressure = 6.0

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self._cache: dict[str, float] = {}

    @staticmethod
    def _board(state: State) -> str:
        # The board and the side to move: the position without its ply count.
        return state.position().rsplit(" ", 1)[0]

    def repetition_key(self, state: State) -> str | None:
        return self._board(state)

    def evaluate(self, state: State) -> list[float]:
        return self.evaluate_keyed(state, None)

    def evaluate_keyed(self, state: State, key: str | None) -> list[float]:
        # The repetition key is the board: alpha-beta's leaves need not build it twice.
        board = self._board(state) if key is None else key
        v = self._cache.get(board)
        if v is None:
            if len(self._cache) > 200_000:
                self._cache.clear()
            v = self._cache[board] = math.tanh(
                fightopia_score(board, self.pawn, self.lines, self.pressure) / self.scale
            )
        return [v, -v]

    def order(self, state: State, player: int, actions: Actions[Any], root: bool = True) -> list[Any]:
        scored = []
        for i, action in enumerate(actions):
            text = state.action_to_str(player, action)
            rank = 3
            if "x" in text:
                rank = 0 if text[0] == "G" else 1
            elif text[0] == "G":
                rank = 2
            scored.append((rank, i, action))
        scored.sort()
        return [a for _, _, a in scored]


# --- Tank Chess -------------------------------------------------------------------------------

_TANK_VALUE = {"L": 3.0, "M": 5.0, "H": 8.0, "C": 0.0, "D": 7.0, "R": 6.0}
_FACINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
_FACING_INDEX = {name: i for i, name in enumerate(_FACINGS)}
_TANK_DELTAS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
_FILES = "abcdefghijklmnopqrst"
#: A Command tank's speed: steps in one turn.
_COMMAND_SPEED = 5
_UNREACHABLE = 999


def escape_steps(size: int, obstacles: frozenset[tuple[int, int]], side: int) -> list[int]:
    """For every (square, facing) of a Command tank, the fewest steps to drive off the far edge.

    ``side`` 0 is White (the far edge is beyond the last rank), 1 is Black.
    Only the obstacles count (tanks and wrecks move or are few); a step is a
    45 degree turn or one square forward, and the last step leaves the board,
    never diagonally through a corner. Index: ``(rank * size + file) * 8 + facing``.

    >>> steps = escape_steps(16, frozenset(), 0)
    >>> steps[(15 * 16 + 3) * 8 + 0], steps[(14 * 16 + 3) * 8 + 0], steps[(15 * 16 + 3) * 8 + 4]
    (1, 2, 4)
    """
    total = size * size * 8
    dist = [_UNREACHABLE] * total
    edge = size - 1 if side == 0 else 0
    out = 1 if side == 0 else -1
    frontier = []
    for file in range(size):
        for facing, (df, dr) in enumerate(_TANK_DELTAS):
            if dr == out and 0 <= file + df < size and (file, edge) not in obstacles:
                st = (edge * size + file) * 8 + facing
                dist[st] = 1
                frontier.append(st)
    # Backwards from the exits: a state one step before a reached state.
    steps = 1
    while frontier:
        steps += 1
        nxt = []
        for st in frontier:
            square, facing = divmod(st, 8)
            rank, file = divmod(square, size)
            for turned in ((facing + 1) & 7, (facing - 1) & 7):
                prev = square * 8 + turned
                if dist[prev] == _UNREACHABLE:
                    dist[prev] = steps
                    nxt.append(prev)
            df, dr = _TANK_DELTAS[facing]
            f, r = file - df, rank - dr
            if 0 <= f < size and 0 <= r < size and (f, r) not in obstacles:
                prev = (r * size + f) * 8 + facing
                if dist[prev] == _UNREACHABLE:
                    dist[prev] = steps
                    nxt.append(prev)
        frontier = nxt
    return dist


def escape_distance(
    size: int, table: list[int], blocked: set[tuple[int, int]], command: tuple[int, int, int]
) -> int:
    """The fewest steps for the Command tank at ``command`` (file, rank, facing) to escape.

    Like :func:`escape_steps`, but other tanks and wrecks (in ``blocked``) are
    in the way too; ``table`` (the obstacles-only distances) guides the search
    and is the answer when the search gives up.

    >>> table = escape_steps(16, frozenset(), 0)
    >>> escape_distance(16, table, set(), (3, 14, 0)), escape_distance(16, table, {(3, 15)}, (3, 14, 0))
    (2, 3)
    """
    import heapq

    file, rank, facing = command
    start = (rank * size + file) * 8 + facing
    if table[start] >= _UNREACHABLE:
        return _UNREACHABLE
    best = {start: 0}
    heap = [(table[start], 0, start)]
    expanded = 0
    while heap and expanded < 600:
        _, cost, st = heapq.heappop(heap)
        if cost > best.get(st, _UNREACHABLE):
            continue
        if table[st] == 1:
            return cost + 1
        expanded += 1
        square, f = divmod(st, 8)
        r, c = divmod(square, size)
        df, dr = _TANK_DELTAS[f]
        options = [square * 8 + ((f + 1) & 7), square * 8 + ((f - 1) & 7)]
        nf, nr = c + df, r + dr
        if 0 <= nf < size and 0 <= nr < size and (nf, nr) not in blocked:
            options.append((nr * size + nf) * 8 + f)
        for nxt in options:
            if table[nxt] >= _UNREACHABLE:
                continue
            if cost + 1 < best.get(nxt, _UNREACHABLE):
                best[nxt] = cost + 1
                heapq.heappush(heap, (cost + 1 + table[nxt], cost + 1, nxt))
    return table[start] + (0 if not heap else 6)


def _tank_square(text: str) -> tuple[int, int]:
    return _FILES.index(text[0]), int(text[1:]) - 1


class TankChessPolicy(GamePolicy):
    """A race of the Command tanks (turns each needs to escape), material, tempo."""

    default_depth = 0
    default_widen = 1.0
    race = 10.0
    step = 0.5
    scale = 25.0
    escape_threat = 12.0
    check_threat = 6.0

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self._tables: dict[tuple[int, str], tuple[list[int], list[int]]] = {}
        self._cache: dict[str, float] = {}
        self._orders: dict[str, list[Any]] = {}

    def _escape_tables(self, size: int, obstacles: str) -> tuple[list[int], list[int]]:
        key = (size, obstacles)
        tables = self._tables.get(key)
        if tables is None:
            blocked = frozenset(_tank_square(sq) for sq in obstacles.split(",") if sq and sq != "-")
            tables = self._tables[key] = (escape_steps(size, blocked, 0), escape_steps(size, blocked, 1))
        return tables

    def score(self, obs: dict[str, Any]) -> float:
        """The evaluation for White of an observation (unbounded; :meth:`evaluate` squashes it)."""
        size = int(obs["size"])
        obstacles = ",".join(obs["obstacles"])
        tables = self._escape_tables(size, obstacles)
        blocked = {_tank_square(sq) for sq in obs["obstacles"]}
        blocked.update(_tank_square(sq) for sq in obs["wrecks"])
        commands: list[tuple[int, int, int] | None] = [None, None]
        score = 0.0
        for tank in obs["tanks"]:
            square = _tank_square(tank["square"])
            blocked.add(square)
            side = 0 if tank["side"] == "white" else 1
            if tank["type"] == "C":
                commands[side] = (square[0], square[1], _FACING_INDEX[tank["facing"]])
            else:
                score += (1.0 if side == 0 else -1.0) * _TANK_VALUE[tank["type"]]
        steps = [_UNREACHABLE, _UNREACHABLE]
        for side in (0, 1):
            command = commands[side]
            if command is not None:
                steps[side] = escape_distance(size, tables[side], blocked, command)
        turns = [-(-n // _COMMAND_SPEED) for n in steps]
        white_to_move = obs["to_move"] == "white"
        # The side to move is half a turn ahead in the race; steps break ties between equal turns.
        margin = max(-4.0, min(4.0, turns[1] - turns[0] + (0.5 if white_to_move else -0.5)))
        score += self.race * margin + self.step * max(-20, min(20, steps[1] - steps[0]))
        announced = obs["announced"]
        if announced:
            sign = 1.0 if announced["by"] == "white" else -1.0
            if announced["escape"]:
                score += sign * self.escape_threat
            if announced["check"]:
                score += sign * self.check_threat
        return score

    def evaluate(self, state: State) -> list[float]:
        v = math.tanh(self.score(state.observation(0)) / self.scale)
        return [v, -v]

    def order(self, state: State, player: int, actions: Actions[Any], root: bool = True) -> list[Any]:
        position = state.position()
        cached = self._orders.get(position)
        if cached is not None:
            return cached
        fields = dict(field.split("=", 1) for field in position.split())
        size = int(fields["size"])
        table = self._escape_tables(size, fields.get("obstacles", "-"))[player]
        enemy = "black" if player == 0 else "white"
        enemy_command = next(t[1:].rstrip("NESW") for t in fields[enemy].split(",") if t[0] == "C")
        values = {t[1:].rstrip("NESW"): _TANK_VALUE[t[0]] for t in fields[enemy].split(",")}
        scored = []
        to_str = state.action_to_str
        rest = (3, 0.0)
        for i, action in enumerate(actions):
            text = to_str(player, action)
            # Most turns move a tank other than the Command tank and shoot nothing: test that first.
            if text[0] != "C" and " x" not in text:
                scored.append((rest, i, action))
                continue
            move, _, target = text.partition(" x")
            if move.endswith("-off") or target == enemy_command:
                key = (0, 0.0)
            elif target:
                key = (1, -values.get(target, 0.0))
            elif text[0] == "C":
                dest = move.partition("-")[2]
                j = 1
                while j < len(dest) and dest[j].isdigit():
                    j += 1
                file, rank = _tank_square(dest[:j])
                key = (2, float(table[(rank * size + file) * 8 + _FACING_INDEX[dest[j:]]]))
            else:
                key = (3, 0.0)
            scored.append((key, i, action))
        scored.sort(key=lambda item: (item[0], item[1]))
        ordered = [a for _, _, a in scored]
        if len(self._orders) > 20_000:
            self._orders.clear()
        self._orders[position] = ordered
        return ordered


# --- Fight! -----------------------------------------------------------------------------------


class FightPolicy(GamePolicy):
    """Playouts a few moves deep, scored by the Glory margin; in the tree, opponents play by a rule.

    A finished game is scored by its Glory margin too, with a bonus for the
    winner: a close win and a wide win both win, but the margin tells apart
    the many playouts that end the same way and makes the averages steadier.

    In the search tree every play of Warriors but the searching player's first
    is :meth:`opponent_play`. Searched, an opponent's play met a different
    hand in almost every sampled state (hundreds of plays, each tried once),
    so the tree faced an opponent playing at random and a longer search only
    sharpened the answer to that. The tree also tells an opponent's plays
    apart by the Main alone (:meth:`seen`), since the Boost goes down face down.
    """

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        # Arena name -> its rule's key function; action -> its Main Warrior's name.
        self._keys: dict[str, Callable[[str, int], float | None]] = {}
        self._mains: dict[Any, str] = {}

    # Thirty moves reach the end of most games from anywhere: measured against `rule`, 1000
    # iterations won 28 of 40 games with depth 30 and with depth 100, but 21 of 40 with depth 6,
    # whose playouts mostly stop before a Fight is decided.
    default_depth = 30
    default_rollout = "random"
    scale = 8.0

    def _margins(self, state: State) -> list[float]:
        seats = state.observation(-2)["seats"]
        glory = [float(seat["glory"]) for seat in seats]
        out = []
        for p in range(len(glory)):
            best_other = max(g for q, g in enumerate(glory) if q != p)
            out.append(math.tanh((glory[p] - best_other) / self.scale))
        return out

    def evaluate(self, state: State) -> list[float]:
        return self._margins(state)

    def values(self, state: State) -> list[float]:
        margins = self._margins(state)
        result = state.result()
        if result is None:
            return margins
        return [0.5 * r + 0.5 * m for r, m in zip(result.returns, margins, strict=True)]

    def tree_actions(self, state: State, acting: tuple[int, ...], rng: random.Random) -> list[Any] | None:
        p = acting[0]
        legal = state.legal_actions(p)
        if len(legal) < 2 or not isinstance(legal[0], tuple):
            return None
        # The search fixes only the opponents' plays (its own stay searched, see Mcts.iterate).
        return [self.opponent_play(state, p, legal, rng)]

    def rollout_action(self, state: State, player: int, rng: random.Random) -> Any:
        legal = state.legal_actions(player)
        if len(legal) > 1 and isinstance(legal[0], tuple):
            return self.opponent_play(state, player, legal, rng)
        return legal.sample(rng)

    def seen(self, player: int, action: Any, observer: int) -> Any:
        # An opponent's Boost goes down face down: the observer's tree tells plays apart by the Main.
        if player != observer and isinstance(action, tuple):
            return action[0]
        return action

    def _key(self, arena: dict[str, Any]) -> Callable[[str, int], float | None]:
        # A deck's Arena names are unique, so the name stands for the rule.
        key = self._keys.get(arena["name"])
        if key is None:
            key = self._keys[arena["name"]] = _arena_key(arena["rule"])
        return key

    def opponent_play(self, state: State, player: int, legal: Actions[Any], rng: random.Random) -> Any:
        """A plausible play of ``player``: a Main that takes the Arena if one can, else the weakest.

        The Main that wins by the widest margin under the Arena's rule (ties go
        to whoever played first, so it must beat every Main on the table); with
        none, the Main that scores worst here, kept back from the Arenas to
        come. The Boost is drawn at random among the rest.
        """
        obs = state.observation(player)
        key = self._key(obs["arena"])
        seats = obs["seats"]
        table = [key(s["main"]["family"], s["main"]["current_power"]) for s in seats if s["main"] is not None]
        bar = max((k for k in table if k is not None), default=None)
        cards = {c["name"]: key(c["family"], c["power"]) for c in seats[player]["hand"]}
        mains = self._mains
        scores: dict[str, float] = {}
        for action in legal:
            name = mains.get(action)
            if name is None:
                name = mains[action] = state.action_to_str(player, action).split(" boost ")[0][5:]
            if name not in scores:
                k = cards[name]
                scores[name] = -1000.0 if k is None else k
        wins = [n for n, k in scores.items() if k > -1000.0 and (bar is None or k > bar)]
        choice = max(wins, key=scores.__getitem__) if wins else min(scores, key=scores.__getitem__)
        options = [a for a in legal if mains[a] == choice]
        return options[rng.randrange(len(options))]


def _arena_key(rule: dict[str, Any]) -> Callable[[str, int], float | None]:
    """How good a Main Warrior (family, power) is under an Arena's rule: higher is better, None cannot win."""
    goal = rule["goal"]
    value = rule.get("value", 0)
    measure = rule.get("measure", "power")
    parity = rule.get("parity", "")
    families = rule.get("family")
    lo = rule.get("min_power")
    hi = rule.get("max_power")

    def key(family: str, power: int) -> float | None:
        if power < 1 or (families is not None and family not in families):
            return None
        if (lo is not None and power < lo) or (hi is not None and power > hi):
            return None
        if parity and (power % 2 == 1) != (parity == "odd"):
            return None
        m = power
        if measure == "digit_sum":
            m = sum(int(d) for d in str(power))
        elif measure == "last_digit":
            m = power % 10
        if goal == "highest":
            return float(m)
        if goal == "lowest":
            return float(-m)
        return float(-abs(m - value))

    return key
