"""Monte Carlo tree search: UCT, and the engine the other tree searches share.

Each iteration takes a full state (for hidden information a fresh one drawn
from the player's view, see :mod:`tussle.search.ismcts`), walks down the
tree choosing at each node with a bandit per acting player, adds one node,
scores it with a playout of ``depth`` moves and the game's evaluation, and
backs the value up. At a simultaneous step every acting player chooses from
its own bandit without seeing the others' choices (decoupled search). Chance
events are drawn as they come and are not branched on ("open loop"): a node
stands for the moves that led to it, whatever the dice said.

The ``mcts`` agent is plain UCT for sequential games of perfect information
(Fightopia, Tank Chess); the search plays a winning move at once when it has one.
A tree agent whose budget runs out before its first iteration plays a uniformly
random legal action (:class:`TreeAgent`).

>>> from tussle import load_game
>>> from tussle.agents.base import PlayerView
>>> game = load_game("fightopia")
>>> state = game.state_from_position("vppggppv/v1pggp1v/2pppp2/8/8/2PPPP2/V1PGGP1V/VPPGGPPV w 0")
>>> agent = MctsAgent(game, 0, seed=1, params={"iterations": "50"})
>>> agent.act(PlayerView(state, 0)) in state.legal_actions(0)
True
>>> int(agent.last_stats["iterations"])
50
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from tussle.agents.base import PlayerView
from tussle.agents.params import Param
from tussle.errors import AgentError
from tussle.game import CHANCE, ChanceMode, Dynamics, Game, Information, State
from tussle.search.bandits import PrefixBandit, RegretBandit, UcbBandit
from tussle.search.common import BUDGET_PARAMS, SearchAgent
from tussle.search.policy import GamePolicy

#: Action sets larger than this are never listed whole by the tree: they are
#: widened with random draws (or built piece by piece, if the game's policy can).
LARGE = 2048

Bandit = UcbBandit | RegretBandit | PrefixBandit


class Node:
    """A node of the tree: one bandit per acting player and the children by joint move."""

    __slots__ = ("bandits", "children")

    def __init__(self) -> None:
        self.bandits: dict[int, Bandit] = {}
        self.children: dict[tuple[Any, ...], Node] = {}


class Mcts:
    """The tree search itself, for one root player; the agents configure it.

    ``c`` is the UCB exploration constant (values are scaled to [0, 1]);
    ``rollout`` is ``random`` or ``rule`` (the policy's playout moves); ``depth``
    is the playout length in player moves before the evaluation scores the
    state; ``widen`` turns on progressive widening (0: every legal action is a
    candidate at once, unless the set is larger than :data:`LARGE`);
    ``select`` is ``ucb`` or ``rm`` (regret matching) at simultaneous steps;
    ``resample`` draws a fresh full state from the view each iteration.
    """

    def __init__(
        self,
        policy: GamePolicy,
        player: int,
        rng: random.Random,
        *,
        c: float,
        rollout: str,
        depth: int,
        widen: float,
        select: str = "ucb",
        gamma: float = 0.1,
        resample: bool = False,
    ) -> None:
        self.policy = policy
        self.player = player
        self.rng = rng
        self.c = c
        self.rollout_rule = rollout == "rule"
        self.depth = depth
        self.widen = widen
        self.select_rm = select == "rm"
        self.gamma = gamma
        # Whether the legal actions at a node can differ between iterations.
        self.check = resample or policy.game.info.chance == ChanceMode.EXPLICIT
        # Whether the tree keys other players' moves by what the root player sees of them.
        self.hidden = resample
        self.root = Node()
        self.iterations = 0
        self.max_depth = 0

    # --- one iteration ---------------------------------------------------------

    def iterate(self, state: State[Any]) -> None:
        """One descent, expansion, playout and backup, on ``state`` (changed in place)."""
        rng = self.rng
        policy = self.policy
        node = self.root
        path: list[list[tuple[int, Bandit, Any]]] = []
        depth = 0
        hidden = self.hidden
        seen = policy.seen
        me = self.player
        while True:
            acting = state.to_act()
            if not acting:
                break
            if acting[0] == CHANCE:
                state.apply_unchecked(CHANCE, state.sample_chance(rng))
                continue
            chosen: list[tuple[int, Bandit, Any]] = []
            moves: list[Any] = []
            fixed_moves = policy.tree_actions(state, acting, rng)
            for i, p in enumerate(acting):
                # The root player's own choice is always searched.
                searched = fixed_moves is None or (node is self.root and p == self.player)
                fixed = None if searched or fixed_moves is None else fixed_moves[i]
                if fixed is not None:
                    moves.append(fixed)
                    continue
                bandit, key, action = self._choose(node, state, p, len(acting) > 1)
                chosen.append((p, bandit, key))
                moves.append(action)
            for p, action in zip(acting, moves, strict=True):
                state.apply_unchecked(p, action)
            path.append(chosen)
            depth += 1
            if hidden:
                joint = tuple(seen(p, a, me) for p, a in zip(acting, moves, strict=True))
            else:
                joint = tuple(moves)
            child = node.children.get(joint)
            if child is None:
                node.children[joint] = Node()
                break
            node = child
        self.max_depth = max(self.max_depth, depth)
        values = self.playout(state)
        for chosen in path:
            for p, bandit, key in chosen:
                bandit.update(key, (values[p] + 1.0) * 0.5)
        self.iterations += 1

    def _choose(
        self, node: Node, state: State[Any], player: int, simultaneous: bool
    ) -> tuple[Bandit, Any, Any]:
        """``player``'s bandit at ``node``, the key of its choice and the action."""
        bandit = node.bandits.get(player)
        policy = self.policy
        if bandit is None:
            if policy.factored(state, player):
                bandit = PrefixBandit()
            elif simultaneous and self.select_rm:
                bandit = RegretBandit(self.gamma)
            else:
                bandit = UcbBandit()
            node.bandits[player] = bandit
        if isinstance(bandit, PrefixBandit):
            pieces = bandit.select(
                policy.piece_source(state, player),
                lambda prefix: policy.assemble(state, player, prefix),
                self.c,
                self.rng,
            )
            return bandit, pieces, bandit.action(pieces)
        legal = state.legal_actions(player)
        if isinstance(bandit, RegretBandit):
            key = bandit.select(legal if len(legal) <= LARGE else [legal.sample(self.rng)], self.rng)
            return bandit, key, key[0]
        candidates: Sequence[Any] = legal
        if self.widen > 0 or len(legal) > LARGE:
            order: Callable[[], list[Any]] | None = None
            if len(legal) <= LARGE:

                def order() -> list[Any]:
                    return policy.order(state, player, legal)

            candidates = bandit.widened(legal, self.widen or 2.0, order, self.rng, self.check)
        action = bandit.select(candidates, self.c, self.rng)
        return bandit, action, action

    def playout(self, state: State[Any]) -> list[float]:
        """Play ``depth`` player moves by the playout policy, then score the state."""
        rng = self.rng
        policy = self.policy
        rule = self.rollout_rule
        moves = 0
        while moves < self.depth:
            acting = state.to_act()
            if not acting:
                break
            if acting[0] == CHANCE:
                state.apply_unchecked(CHANCE, state.sample_chance(rng))
                continue
            if rule:
                chosen = policy.rollout_actions(state, acting, rng)
            else:
                chosen = [state.legal_actions(p).sample(rng) for p in acting]
            for p, action in zip(acting, chosen, strict=True):
                state.apply_unchecked(p, action)
            moves += 1
        return policy.values(state)

    # --- the answer ------------------------------------------------------------

    def has_choice(self) -> bool:
        """Whether an iteration has been through the root player's choice (:meth:`best` needs one)."""
        return self.iterations > 0 and self.player in self.root.bandits

    def best(self, mix: bool = False) -> Any:
        """The root player's choice: the most visited action, or a draw from the average strategy.

        Only after an iteration (:meth:`has_choice`): an empty tree has no choice to give.
        """
        bandit = self.root.bandits[self.player]
        if mix and isinstance(bandit, RegretBandit):
            average = bandit.average()
            actions = list(average)
            return self.rng.choices(actions, [average[a] for a in actions])[0]
        if isinstance(bandit, PrefixBandit):
            return bandit.best()
        return bandit.best()


def winning_move(view: PlayerView, rng: random.Random, limit: int = 4096) -> Any | None:
    """An action that wins at once in a sequential perfect-information game, if one exists."""
    legal = view.legal_actions()
    if len(legal) > limit:
        return None
    root = view.sample_state(rng)
    me = view.player
    for action in legal:
        child = root.clone()
        child.apply_unchecked(me, action)
        result = child.result()
        if result is not None and result.winner == me:
            return action
    return None


#: The parameters of the tree searches (with the game's own defaults where None).
TREE_PARAMS: dict[str, Param] = {
    "c": Param("float", None, "UCB exploration constant (values are scaled to 0..1)", minimum=0, maximum=100),
    "rollout": Param(
        "choice",
        None,
        "playout moves: random, or rule (the game's playout policy)",
        choices=("random", "rule"),
    ),
    "depth": Param(
        "int",
        None,
        "playout length in moves before the evaluation scores the state (0: at once)",
        minimum=0,
        maximum=100_000,
    ),
    "widen": Param(
        "float",
        None,
        "progressive widening: about widen*sqrt(visits) actions per node (0: off)",
        minimum=0,
        maximum=1000,
    ),
}


class TreeAgent(SearchAgent):
    """A search agent built on :class:`Mcts`; subclasses choose how it is set up.

    If the budget runs out before the first iteration (a time budget spent at
    once), the tree knows nothing: the agent plays a uniformly random legal
    action, drawn with its own seeded random numbers, which is cheap even for a
    huge action set and as sound as a search with no information can be.
    """

    PARAMS: ClassVar[dict[str, Param]] = {**BUDGET_PARAMS, **TREE_PARAMS}
    #: Whether each iteration draws a fresh state from the view (hidden information).
    resample_each = False
    select = "ucb"

    def make_search(self, view: PlayerView) -> Mcts:
        p = self.params
        policy = self.policy
        return Mcts(
            policy,
            view.player,
            self.rng,
            c=policy.default_c if p["c"] is None else p["c"],
            rollout=p["rollout"] or policy.default_rollout,
            depth=policy.default_depth if p["depth"] is None else p["depth"],
            widen=policy.default_widen if p["widen"] is None else p["widen"],
            select=p.get("select", self.select),
            gamma=p.get("gamma", 0.1),
            resample=self.resample_each,
        )

    def search(self, view: PlayerView) -> tuple[Any, dict[str, float]]:
        sequential_perfect = (
            view.info.dynamics == Dynamics.SEQUENTIAL and view.info.information == Information.PERFECT
        )
        if sequential_perfect:
            win = winning_move(view, self.rng)
            if win is not None:
                return win, {"iterations": 0.0, "won": 1.0}
        tree = self.make_search(view)
        budget = self.budget
        started = time.perf_counter()
        base = None if self.resample_each else view.sample_state(self.rng)
        while not budget.spent(tree.iterations):
            state = view.sample_state(self.rng) if base is None else base.clone()
            tree.iterate(state)
        if tree.has_choice():
            action = tree.best(mix=self.params.get("final") == "mix")
        else:
            action = view.legal_actions().sample(self.rng)
        seconds = time.perf_counter() - started
        stats = {
            "iterations": float(tree.iterations),
            "iterations_per_second": tree.iterations / seconds if seconds > 0 else 0.0,
            "tree_depth": float(tree.max_depth),
            "nodes": float(tree.iterations + 1),
        }
        return action, stats


class MctsAgent(TreeAgent):
    """UCT for sequential games of perfect information (spec ``mcts:time=0.5,c=0.7``)."""

    def _check_game(self, game: Game) -> None:
        info = game.info
        if info.dynamics != Dynamics.SEQUENTIAL or info.information != Information.PERFECT:
            raise AgentError(
                f"agent {self.spec!r}: mcts is for sequential games of perfect information; "
                f"{info.id} has hidden or simultaneous choices (use ismcts or smmcts)"
            )
