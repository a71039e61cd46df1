"""Random-play conformance: every registered game keeps the core API's promises.

Each variant of each game (every player count, and up to four non-default values
of its boolean and choice options) is played out at random from a few seeds.
Along the way the test checks, at every event, that the chosen action is legal
and round-trips through its notation and its structured form, and at a sample of
moments the costlier promises: observations are plain JSON data (and their text
is theirs alone: another state renders it the same), clones are
independent, resampling keeps what a player has seen (the no-leak check), a
simultaneous submission is invisible to the other players, illegal or
out-of-turn actions are refused without changing anything, and the game's fast
``is_legal`` agrees with the core's list-reading one (the oracle) on legal,
foreign and junk actions. The public view (``observation(PUBLIC)``, what a
spectator sees) is checked as one more seat: plain data, kept by every player's
resample (what is public, everybody knows, so no resample may change it: the
no-leak check of the public view), unchanged by a secret submission. At the
end the game's record must replay, also after a trip through JSON, to the same
states.

New games are covered as soon as they are registered.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

import toy_game
import tussle
from tussle import CHANCE, PUBLIC, ActionError, Dynamics, Game, Record, State, TussleError
from tussle.game import Actions

#: A random playout that has not ended after this many events is a failure.
MAX_EVENTS = 5_000
#: Action sets up to this size are checked member by member; larger ones by sampling.
SMALL = 300
SAMPLES = 12


@dataclass(frozen=True)
class Variant:
    game_id: str
    players: int
    options: tuple[tuple[str, Any], ...]
    seeds: tuple[int, ...]

    def load(self) -> Game:
        # Random play must end: take the game's simulation defaults (a ply limit, say).
        options = tussle.simulation_options(self.game_id, dict(self.options))
        return tussle.load_game(self.game_id, players=self.players, **options)

    @property
    def label(self) -> str:
        opts = "".join(f",{k}={v}" for k, v in self.options)
        return f"{self.game_id}[{self.players}p{opts}]"


def variants(game_id: str) -> Iterator[Variant]:
    """Default options at every player count, and each non-default bool or choice option."""
    info = tussle.game_info(game_id)
    yield Variant(game_id, info.min_players, (), (1, 2, 3))
    for players in range(info.min_players + 1, info.max_players + 1):
        yield Variant(game_id, players, (), (4,))
    flips: list[tuple[str, Any]] = []
    for opt in info.options:
        if opt.kind == "bool":
            flips.append((opt.name, not opt.default))
        elif opt.choices:  # a choice, or text with suggested values (FITE's powers)
            flips += [(opt.name, c) for c in opt.choices if c != opt.default]
    for name, value in flips[:4]:
        yield Variant(game_id, info.min_players, ((name, value),), (5,))


VARIANTS = [v for game_id in tussle.game_ids() for v in variants(game_id)]
CASES = [(v, seed) for v in VARIANTS for seed in v.seeds]


def seats(state: State[Any]) -> tuple[int, ...]:
    """Every seat that observes: the players, then PUBLIC (the public view, a spectator's)."""
    return (*range(state.num_players), PUBLIC)


def snapshot(state: State[Any]) -> tuple[Any, ...]:
    """Everything anybody can read off a state, spectators included, to tell whether it changed."""
    return (
        state.render(),
        state.to_act(),
        [state.observation(p) for p in seats(state)],
        [state.observation_text(p) for p in seats(state)],
        state.result(),
    )


def is_plain_json(value: Any) -> bool:
    """Only what JSON itself holds: dicts with str keys, lists, str, finite numbers, bool, None."""
    if value is None or isinstance(value, bool | str | int):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(is_plain_json(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and is_plain_json(v) for k, v in value.items())
    return False


def assert_round_trip(state: State[Any], player: int, action: Any, text: str, where: str) -> None:
    """The notation ``text`` of ``action`` parses back to it."""
    try:
        back = state.parse_action(player, text)
    except TussleError as exc:
        raise AssertionError(f"{where}: the notation {text!r} of {action!r} does not parse: {exc}") from None
    assert back == action, f"{where}: {text!r} parses to {back!r}, not {action!r}"


def assert_structured_round_trip(state: State[Any], player: int, action: Any, where: str) -> None:
    """The structured form of ``action`` is plain JSON data that reads back, through JSON, to it."""
    form = state.action_to_json(player, action)
    assert isinstance(form, dict) and is_plain_json(form), (
        f"{where}: the structured form of {action!r} is not plain JSON data: {form!r}"
    )
    try:
        back = state.action_from_json(player, json.loads(json.dumps(form)))
    except TussleError as exc:
        raise AssertionError(f"{where}: the structured form {form!r} of {action!r} fails: {exc}") from None
    assert back == action, f"{where}: {form!r} reads as {back!r}, not {action!r}"


def members(actions: Actions[Any], rng: random.Random) -> list[Any]:
    """All of a small action set, or a sample (with both ends) of a large one."""
    if len(actions) <= SMALL:
        return list(actions)
    picks = {0, len(actions) - 1} | {rng.randrange(len(actions)) for _ in range(SAMPLES)}
    return [actions[i] for i in sorted(picks)]


def step_random(state: State[Any], rng: random.Random) -> tuple[int, Any, str]:
    """Apply one random event (a chance outcome or one acting player's action)."""
    acting = state.to_act()
    player = rng.choice(acting)
    action = state.sample_chance(rng) if player == CHANCE else state.legal_actions(player).sample(rng)
    text = state.action_to_str(player, action)
    state.apply(player, action)
    return player, action, text


@dataclass
class Playout:
    variant: Variant
    seed: int
    game: Game = field(init=False)
    rng: random.Random = field(init=False)
    state: State[Any] = field(init=False)
    blank: State[Any] = field(init=False)
    # Actions seen earlier, by player: tried later as likely-illegal actions.
    seen: dict[int, list[tuple[Any, str]]] = field(default_factory=dict)
    held: tuple[State[Any], tuple[Any, ...]] | None = None

    def __post_init__(self) -> None:
        self.game = self.variant.load()
        self.rng = random.Random(f"{self.variant.label}/{self.seed}")
        self.state = self.game.new_initial_state()
        self.blank = self.game.new_initial_state()  # renders other states' observations

    def where(self, events: int) -> str:
        return f"{self.variant.label} seed {self.seed}, after {events} events"

    # --- checks at every event ---------------------------------------------

    def check_turn(self, where: str) -> tuple[int, ...]:
        state = self.state
        acting = state.to_act()
        n = state.num_players
        assert acting, where
        assert state.result() is None, f"{where}: a result before the game is over"
        assert not state.is_terminal(), where
        assert len(set(acting)) == len(acting), f"{where}: to_act repeats a player: {acting}"
        if CHANCE in acting:
            assert acting == (CHANCE,), f"{where}: chance acts together with players: {acting}"
            assert state.is_chance()
        else:
            assert all(0 <= p < n for p in acting), f"{where}: to_act {acting} is not players 0..{n - 1}"
            if len(acting) > 1:
                assert self.game.info.dynamics == Dynamics.SIMULTANEOUS, (
                    f"{where}: several players act at once in a sequential game"
                )
        for p in range(n):
            if p not in acting:
                assert len(state.legal_actions(p)) == 0, f"{where}: player {p} has actions out of turn"
        assert len(state.legal_actions(PUBLIC)) == 0, f"{where}: the public (a spectator) has actions"
        return acting

    def check_chance(self, where: str, every: bool) -> None:
        """Probabilities positive and summing to 1; notation round-trips (all, or a sample)."""
        state = self.state
        outcomes = state.chance_outcomes()
        assert outcomes, f"{where}: a chance event without outcomes"
        assert all(prob > 0 for _, prob in outcomes), f"{where}: a chance outcome is impossible: {outcomes}"
        total = math.fsum(prob for _, prob in outcomes)
        assert math.isclose(total, 1.0, abs_tol=1e-9), f"{where}: chance probabilities sum to {total}"
        if not every and len(outcomes) > SAMPLES:
            outcomes = self.rng.sample(outcomes, SAMPLES)
        texts = set()
        forms = set()
        for outcome, _ in outcomes:
            text = state.action_to_str(CHANCE, outcome)
            texts.add(text)
            assert_round_trip(state, CHANCE, outcome, text, where)
            assert_structured_round_trip(state, CHANCE, outcome, where)
            forms.add(json.dumps(state.action_to_json(CHANCE, outcome), sort_keys=True))
        assert len(texts) == len(outcomes), f"{where}: two chance outcomes share a notation"
        assert len(forms) == len(outcomes), f"{where}: two chance outcomes share a structured form"

    def check_action(self, player: int, action: Any, where: str) -> str:
        state = self.state
        legal = state.legal_actions(player)
        assert action in legal, f"{where}: sampled action {action!r} is not in legal_actions"
        text = state.action_to_str(player, action)
        assert isinstance(text, str) and text, f"{where}: empty notation for {action!r}"
        assert_round_trip(state, player, action, text, where)
        assert_structured_round_trip(state, player, action, where)
        return text

    # --- costly checks at some moments --------------------------------------

    def check_actions_collection(self, player: int, where: str) -> None:
        state = self.state
        legal = state.legal_actions(player)
        size = len(legal)
        assert size > 0, f"{where}: player {player} must act but has no legal action"
        assert legal[-1] == legal[size - 1], where
        with pytest.raises(IndexError):
            legal[size]
        picked = members(legal, self.rng)
        texts = set()
        forms = set()
        for action in picked:
            assert action in legal, f"{where}: {action!r} is listed but not 'in' the legal actions"
            text = state.action_to_str(player, action)
            texts.add(text)
            assert_round_trip(state, player, action, text, where)
            assert_structured_round_trip(state, player, action, where)
            forms.add(json.dumps(state.action_to_json(player, action), sort_keys=True))
            self.seen.setdefault(player, []).append((action, text))
        if size <= SMALL:
            assert len(set(picked)) == size, f"{where}: legal actions repeat or miscount ({size})"
        assert len(texts) == len(set(picked)), f"{where}: two legal actions share a notation"
        assert len(forms) == len(set(picked)), f"{where}: two legal actions share a structured form"

    def check_observations(self, where: str) -> None:
        """Every seat's observation, the public view's too, is plain JSON data; its text a string."""
        state = self.state
        for p in seats(state):
            obs = state.observation(p)
            assert isinstance(obs, dict), where
            assert is_plain_json(obs), f"{where}: observation({p}) is not plain JSON data: {obs!r}"
            assert json.loads(json.dumps(obs)) == obs, f"{where}: observation({p}) changes through JSON"
            text = state.observation_text(p)
            assert isinstance(text, str), f"{where}: observation_text({p}) is not text"
            # One definition of a view: the text is the observation's, whichever state renders it.
            assert self.blank.observation_to_text(obs, p) == text, (
                f"{where}: observation_text({p}) reads the state, not only its observation"
            )
        assert state.public_observation() == state.observation(PUBLIC), where
        assert isinstance(state.render(), str), where

    def check_clone(self, where: str) -> None:
        state = self.state
        before = snapshot(state)
        copy = state.clone()
        assert copy is not state
        assert snapshot(copy) == before, f"{where}: a clone differs from its original"
        for _ in range(4):
            if copy.is_terminal():
                break
            step_random(copy, self.rng)
        assert snapshot(state) == before, f"{where}: playing on a clone changed the original"
        # And the other way round: checked at the next costly moment, after the
        # original has been played on.
        if self.held is not None:
            old, old_snap = self.held
            assert snapshot(old) == old_snap, f"{where}: playing on the original changed an earlier clone"
        kept = state.clone()
        self.held = (kept, snapshot(kept))
        # apply_unchecked plays what the state offered exactly as apply does.
        if not state.is_terminal():
            checked, unchecked = state.clone(), state.clone()
            player = state.to_act()[0]
            if player == CHANCE:
                action = state.sample_chance(self.rng)
            else:
                action = state.legal_actions(player).sample(self.rng)
            checked.apply(player, action)
            unchecked.apply_unchecked(player, action)
            assert snapshot(unchecked) == snapshot(checked), f"{where}: apply_unchecked differs from apply"

    def check_resample(self, where: str) -> None:
        """Resampling for a seat keeps what it sees; for every seat, it keeps the public view.

        The public view is what every player knows, so a state resampled for any
        player (or for PUBLIC itself) shows it unchanged: a difference means the
        public view shows something that player could not see (a leak).
        """
        state = self.state
        before = snapshot(state)
        public, public_text = state.observation(PUBLIC), state.observation_text(PUBLIC)
        leak = "it shows what the player cannot see, or the resample redrew something public"
        for p in seats(state):
            other = state.resample(p, self.rng)
            assert other is not state
            here = f"{where}, resample({p})"
            assert other.to_act() == state.to_act(), f"{here}: to_act differs"
            assert other.observation(p) == state.observation(p), f"{here}: observation({p}) differs (a leak?)"
            assert other.observation_text(p) == state.observation_text(p), (
                f"{here}: observation_text({p}) differs (a leak?)"
            )
            assert other.observation(PUBLIC) == public, f"{here}: the public view differs ({leak})"
            assert other.observation_text(PUBLIC) == public_text, (
                f"{here}: the public view's text differs ({leak})"
            )
            mine, theirs = state.legal_actions(p), other.legal_actions(p)
            assert len(mine) == len(theirs), f"{here}: {len(mine)} legal actions became {len(theirs)}"
            if len(mine) <= SMALL:
                assert set(mine) == set(theirs), f"{here}: legal actions differ"
            else:
                assert all(a in theirs for a in members(mine, self.rng)), f"{here}: legal actions differ"
                assert all(a in mine for a in members(theirs, self.rng)), f"{here}: legal actions differ"
            if not other.is_terminal():
                step_random(other, self.rng)  # a resampled state must be playable
        assert snapshot(state) == before, f"{where}: resample changed the original"

    def check_secret_submissions(self, acting: tuple[int, ...], where: str) -> None:
        """At a simultaneous step, no player's submission reaches the others or the public view."""
        if len(acting) < 2 or CHANCE in acting:
            return
        state = self.state
        for p in acting:
            copy = state.clone()
            others = [q for q in seats(state) if q != p]
            before = {q: (copy.observation(q), copy.observation_text(q)) for q in others}
            copy.apply(p, copy.legal_actions(p).sample(self.rng))
            for q in others:
                assert copy.observation(q) == before[q][0], (
                    f"{where}: player {p}'s submission changed observation({q})"
                )
                assert copy.observation_text(q) == before[q][1], (
                    f"{where}: player {p}'s submission changed observation_text({q})"
                )

    def check_refusals(self, acting: tuple[int, ...], where: str) -> None:
        """Illegal and out-of-turn actions raise ActionError and change nothing."""
        state = self.state
        before = snapshot(state)
        junk: list[Any] = [None, object(), [1, 2], "\x00not an action\x00", -98765, ("x", 3.5)]

        def refused(player: int, action: Any) -> None:
            assert not state.is_legal(player, action), f"{where}: is_legal({player}, {action!r}) is true"
            with pytest.raises(ActionError):
                state.apply(player, action)
            assert snapshot(state) == before, f"{where}: a refused action by {player} changed the state"

        def refused_text(player: int, text: str) -> None:
            with pytest.raises(ActionError):
                state.parse_action(player, text)
            with pytest.raises(ActionError):
                state.apply_str(player, text)
            assert snapshot(state) == before, f"{where}: a refused text by {player} changed the state"

        some_legal: list[tuple[Any, str]] = []
        for p in acting:
            if p == CHANCE:
                outcome = state.sample_chance(self.rng)
                some_legal.append((outcome, state.action_to_str(CHANCE, outcome)))
            else:
                action = state.legal_actions(p).sample(self.rng)
                some_legal.append((action, state.action_to_str(p, action)))
        for p in (CHANCE, *range(state.num_players)):
            if p in acting:
                for action in junk:
                    refused(p, action)
                legal = state.legal_actions(p)
                foreign = [
                    (a, t)
                    for a, t in self.seen.get(p, [])[-40:]
                    if (a not in {o for o, _ in state.chance_outcomes()} if p == CHANCE else a not in legal)
                ]
                for action, text in self.rng.sample(foreign, min(4, len(foreign))):
                    refused(p, action)
                    refused_text(p, text)
            else:
                # Out of turn: even an action that is legal for whoever acts now,
                # or one this player made before.
                for action, text in some_legal + self.seen.get(p, [])[-2:]:
                    refused(p, action)
                    refused_text(p, text)
        # The public (a spectator) never acts.
        for action, text in some_legal:
            refused(PUBLIC, action)
            refused_text(PUBLIC, text)

    def check_is_legal(self, acting: tuple[int, ...], where: str) -> None:
        """The game's fast ``is_legal`` agrees with the core's, which reads the lists (the oracle),
        on the legal actions, actions legal at other moments or for other players, and junk."""
        state = self.state
        before = snapshot(state)
        junk: list[Any] = [
            None,
            object(),
            [1, 2],
            "\x00not an action\x00",
            -98765,
            ("x", 3.5),
            True,
            1.5,
            1.0,
            0.0,
        ]
        candidates: list[Any] = list(junk)
        for p in acting:
            if p == CHANCE:
                candidates += [o for o, _ in state.chance_outcomes()][:SMALL]
            else:
                candidates += members(state.legal_actions(p), self.rng)
        for earlier in self.seen.values():
            candidates += [a for a, _ in earlier[-20:]]
        for p in (CHANCE, *range(state.num_players), PUBLIC):
            for action in candidates:
                fast = state.is_legal(p, action)
                oracle = State.is_legal(state, p, action)
                assert fast == oracle, f"{where}: is_legal({p}, {action!r}) is {fast}, the lists say {oracle}"
        assert snapshot(state) == before, f"{where}: is_legal changed the state"

    # --- the playout ----------------------------------------------------------

    def run(self) -> Record:
        state = self.state
        record = Record.start(self.game, ["random"] * self.game.num_players)
        renders = [state.render()]
        events = 0
        while not state.is_terminal():
            assert events < MAX_EVENTS, f"{self.where(events)}: no end after {MAX_EVENTS} events"
            where = self.where(events)
            acting = self.check_turn(where)
            heavy = self._heavy(events)
            if heavy:
                self.check_observations(where)
                self.check_clone(where)
                self.check_resample(where)
                self.check_secret_submissions(acting, where)
                self.check_refusals(acting, where)
                self.check_is_legal(acting, where)
                for p in acting:
                    if p != CHANCE:
                        self.check_actions_collection(p, where)
            player = self.rng.choice(acting)
            if player == CHANCE:
                self.check_chance(where, every=heavy)
                action = state.sample_chance(self.rng)
                text = state.action_to_str(CHANCE, action)
                assert_round_trip(state, CHANCE, action, text, where)
            else:
                action = state.legal_actions(player).sample(self.rng)
                text = self.check_action(player, action, where)
            self.seen.setdefault(player, []).append((action, text))
            state.apply(player, action)
            record.add(player, text)
            renders.append(state.render())
            events += 1
        self.check_end(events)
        result = state.result()
        assert result is not None
        record.finish(result)
        self.check_record(record, renders)
        return record

    def _heavy(self, events: int) -> bool:
        # The first moments always, then ever more sparsely: about 4 + 4 ln(n / 4)
        # moments in a game of n events, so long games stay quick but are checked
        # to their end.
        return events < 4 or self.rng.random() < 4 / (events + 1)

    def check_end(self, events: int) -> None:
        state = self.state
        where = self.where(events) + " (the end)"
        n = state.num_players
        result = state.result()
        assert result is not None, f"{where}: no result at the end"
        assert state.to_act() == () and state.is_terminal(), where
        assert len(result.returns) == n and len(result.ranking) == n, f"{where}: {result}"
        assert all(math.isfinite(r) for r in result.returns), f"{where}: {result}"
        assert all(1 <= place <= n for place in result.ranking) and min(result.ranking) == 1, (
            f"{where}: {result}"
        )
        if result.winner is not None:
            assert result.ranking[result.winner] == 1 and result.ranking.count(1) == 1, where
        assert is_plain_json(result.to_json()), where
        assert state.chance_outcomes() == [], f"{where}: chance outcomes after the end"
        for p in range(n):
            assert len(state.legal_actions(p)) == 0, f"{where}: player {p} has actions after the end"
        self.check_observations(where)
        self.check_clone(where)
        self.check_resample(where)
        self.check_refusals((), where)

    def check_record(self, record: Record, renders: list[str]) -> None:
        state = self.state
        where = f"{self.variant.label} seed {self.seed}, record"
        for rec in (record, Record.loads(record.dumps())):
            states = rec.replay()
            assert [s.render() for s in states] == renders, f"{where}: the replay differs from the game"
            final = states[-1]
            assert final.result() == state.result(), f"{where}: the replay ends with another result"
            for p in seats(state):
                assert final.observation(p) == state.observation(p), f"{where}: observation({p}) differs"
                assert final.observation_text(p) == state.observation_text(p), where
        assert Record.loads(record.dumps()).to_json() == record.to_json(), f"{where}: JSON round trip"


def test_every_game_is_covered() -> None:
    assert {v.game_id for v in VARIANTS} == set(tussle.game_ids())


@pytest.mark.parametrize(("variant", "seed"), CASES, ids=[f"{v.label}-s{s}" for v, s in CASES])
def test_random_play(variant: Variant, seed: int) -> None:
    record = Playout(variant, seed).run()
    assert record.result is not None


# --- the checks themselves ------------------------------------------------------


def test_a_game_with_chance_and_turns_passes() -> None:
    with toy_game.registered() as game_id:
        for variant in variants(game_id):
            for seed in variant.seeds:
                Playout(variant, seed).run()


@pytest.mark.parametrize("broken", toy_game.BROKEN, ids=lambda cls: cls.__name__)
def test_the_checks_catch_a_broken_game(broken: type[Game]) -> None:
    with toy_game.registered(broken) as game_id, pytest.raises(AssertionError):
        for seed in (1, 2, 3):
            Playout(Variant(game_id, 2, (), (seed,)), seed).run()
