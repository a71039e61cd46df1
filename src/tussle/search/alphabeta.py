"""Alpha-beta search with iterative deepening, for two-player sequential games.

The search looks ``1, 2, 3, ...`` moves ahead (plies) while the budget lasts,
and plays the best move of the deepest search it finished (or of the one it was
in, if that one had already found a better move). Leaves are scored by the
game's evaluation (the ``search.py`` of its folder); a won game scores more
than any evaluation, and sooner more than later. Moves are tried in the order
of the game's policy, the previous iteration's best first at the root, and the
moves that caused cut-offs at the same depth before others ("killers"). Chance
events are averaged over their outcomes. In games whose positions recur (the
policy's ``repetition_key``), a position met before in the game, or earlier on
the line being searched, scores as a draw less the ``contempt``: the searching
side looks for progress instead of moving back and forth. ``iterations`` counts the states the
search visits, so a budget of iterations gives the same move every time. A budget
spent before any move is searched leaves the first move of the policy's order.

>>> from tussle import load_game
>>> from tussle.agents.base import PlayerView
>>> game = load_game("fightopia")
>>> # White to move wins at once by killing Black's second Tank.
>>> state = game.state_from_position("8/gg6/gg6/2GGv3/2GGv3/8/8/HH6 w 40")
>>> agent = AlphaBetaAgent(game, 0, seed=1, params={"depth": "2"})
>>> state.action_to_str(0, agent.act(PlayerView(state, 0)))
'Gc4xTe4e5'
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from typing import Any, ClassVar

from tussle.agents.base import PlayerView
from tussle.agents.params import Param
from tussle.errors import AgentError
from tussle.game import CHANCE, Dynamics, Game, Information, State
from tussle.search.common import BUDGET_PARAMS, SearchAgent

#: The deepest search, in plies, when no ``depth`` is given.
MAX_DEPTH = 64
#: A won game's score before the distance to it is taken off; evaluations lie in -1..1.
WIN = 100.0


class _BudgetSpentError(Exception):
    """Raised inside the search when the budget runs out."""


class AlphaBetaAgent(SearchAgent):
    """Iterative-deepening alpha-beta (spec ``alphabeta:time=0.5`` or ``alphabeta:depth=3``).

    If the budget runs out before the first move has been searched even one
    ply deep (``iterations=1``, or time spent at once), the agent plays the
    first move of the game policy's order: the policy's best guess, which the
    search has already listed, so the fallback costs nothing more.
    """

    PARAMS: ClassVar[dict[str, Param]] = {
        **BUDGET_PARAMS,
        # No default, so that setup sees whether a depth was given.
        "depth": Param(
            "int", None, f"the deepest search, in plies (default {MAX_DEPTH})", minimum=1, maximum=MAX_DEPTH
        ),
        "width": Param(
            "int",
            0,
            "from the agent's second move on, search only this many of the most promising moves (0: all)",
            minimum=0,
            maximum=10**6,
        ),
        "contempt": Param(
            "float",
            None,
            "how much worse than a draw a repeated position is to the searching player, "
            "from 0 to 1 (default: the game's)",
            minimum=0,
            maximum=1,
        ),
    }

    def setup(self) -> None:
        super().setup()
        # A fixed depth alone is a budget too: no time limit then.
        if (
            self.params["depth"] is not None
            and self.params["time"] is None
            and self.params["iterations"] is None
        ):
            self.budget.seconds = None
        self.max_depth: int = self.params["depth"] or MAX_DEPTH
        self.nodes = 0
        self.width = int(self.params["width"])
        given = self.params["contempt"]
        self.contempt = self.policy.default_contempt if given is None else float(given)
        self._killers: dict[int, list[Any]] = {}
        # The positions of this game the agent has seen (an agent plays one game), and those
        # on the line being searched: meeting one again scores as a draw.
        self._seen: set[Hashable] = set()
        self._line: set[Hashable] = set()

    def _check_game(self, game: Game) -> None:
        info = game.info
        if game.num_players != 2 or info.dynamics != Dynamics.SEQUENTIAL:
            raise AgentError(
                f"agent {self.spec!r}: alphabeta is for two-player sequential games, not {info.id} "
                f"(use ismcts or smmcts)"
            )
        if info.information != Information.PERFECT:
            raise AgentError(
                f"agent {self.spec!r}: alphabeta needs perfect information; {info.id} has hidden "
                f"information (use ismcts)"
            )

    def search(self, view: PlayerView) -> tuple[Any, dict[str, float]]:
        root = view.sample_state(self.rng)
        me = view.player
        key = self.policy.repetition_key(root)
        if key is not None:
            self._seen.add(key)
        self.nodes = 0
        self._killers = {}
        budget = self.budget
        moves = self.policy.order(root, me, root.legal_actions(me))
        best = moves[0]
        best_value = -WIN * 2
        reached = 0
        started = time.perf_counter()
        for depth in range(1, self.max_depth + 1):
            try:
                value, move, ordered = self._root(root, me, depth, moves, best)
            except _BudgetSpentError as stop:
                # Moves are searched best first: once the previous best is searched at
                # this depth, the best of the moves searched so far is the better guess,
                # unless all of them lose, when the next unsearched one is.
                partial = stop.args[0] if stop.args else None
                if partial is not None:
                    best_value, best = partial[0], partial[1]
                    if best_value <= -WIN / 2 and partial[2] is not None:
                        best = partial[2]
                break
            best, best_value, moves = move, value, ordered
            reached = depth
            if abs(value) >= WIN - 64 or budget.spent(self.nodes):
                break  # a forced result is known, or nothing is left for a deeper look
        seconds = time.perf_counter() - started
        if key is not None:
            after = root.clone()
            after.apply_unchecked(me, best)
            after_key = self.policy.repetition_key(after)
            if after_key is not None:
                self._seen.add(after_key)
        return best, {
            "iterations": float(self.nodes),
            "iterations_per_second": self.nodes / seconds if seconds > 0 else 0.0,
            "depth": float(reached),
            "value": float(best_value),
        }

    def _root(
        self, root: State[Any], me: int, depth: int, moves: list[Any], first: Any
    ) -> tuple[float, Any, list[Any]]:
        """Search every root move to ``depth``; returns the best value and move, and the moves by value."""
        order = [first] + [m for m in moves if m != first]
        alpha = -WIN * 2
        best: Any = first
        scored: list[tuple[float, int, Any]] = []
        self._line = set()  # a search cut short by the budget leaves it unfinished
        for i, move in enumerate(order):
            child = root.clone()
            child.apply_unchecked(me, move)
            try:
                value = self._value(child, me, depth - 1, 1, (alpha, WIN * 2))
            except _BudgetSpentError:
                raise _BudgetSpentError((alpha, best, move) if i > 0 else None) from None
            scored.append((-value, i, move))
            if value > alpha:
                alpha, best = value, move
        scored.sort()
        return alpha, best, [m for _, _, m in scored]

    def _value(self, state: State[Any], me: int, depth: int, ply: int, window: tuple[float, float]) -> float:
        """The minimax value of ``state`` for ``me``, searched ``depth`` plies deeper.

        ``window`` is (alpha, beta): values outside it need not be exact.
        """
        alpha, beta = window
        self.nodes += 1
        if self.nodes & 15 == 0 and self.budget.spent(self.nodes):
            raise _BudgetSpentError
        if self.budget.iterations is not None and self.nodes >= self.budget.iterations:
            raise _BudgetSpentError
        result = state.result()
        if result is not None:
            score = result.returns[me]
            return score * (WIN - ply) if score else 0.0
        acting = state.to_act()
        if acting == (CHANCE,):
            total = 0.0
            for outcome, prob in state.chance_outcomes():
                child = state.clone()
                child.apply_unchecked(CHANCE, outcome)
                total += prob * self._value(child, me, depth, ply, (-WIN * 2, WIN * 2))
            return total
        key = self.policy.repetition_key(state)
        if key is not None and (key in self._seen or key in self._line):
            return -self.contempt
        if depth <= 0:
            return self.policy.evaluate_keyed(state, key)[me]
        player = acting[0]
        legal = state.legal_actions(player)
        if not len(legal):
            return self.policy.values(state)[me]
        moves = self.policy.order(state, player, legal, root=False)
        killers = self._killers.get(ply)
        if killers:
            front = [k for k in killers if k in legal]
            if front:
                moves = front + [m for m in moves if m not in front]
        if self.width and ply >= 2:
            # Forward pruning buys depth: the agent's first move and every reply to it are
            # searched in full, so no threat one move away is missed.
            moves = moves[: self.width]
        maximise = player == me
        best = -WIN * 2 if maximise else WIN * 2
        if key is not None:
            self._line.add(key)
        for move in moves:
            child = state.clone()
            child.apply_unchecked(player, move)
            value = self._value(child, me, depth - 1, ply + 1, (alpha, beta))
            if maximise:
                if value > best:
                    best = value
                    alpha = max(alpha, value)
            elif value < best:
                best = value
                beta = min(beta, value)
            if alpha >= beta:
                slot = self._killers.setdefault(ply, [])
                if move not in slot:
                    slot.insert(0, move)
                    del slot[2:]
                break
        if key is not None:
            self._line.discard(key)
        return best
