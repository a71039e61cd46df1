"""Single-elimination tournaments between computer agents of one two-player game.

As FITE's rules describe it: the names of all fighters go into a bag and are
drawn in pairs; each pair plays one game and the winner advances; a fighter
left without a partner wins the round by a bye; the winners are drawn anew
each round until one is left, the champion. A drawn game is replayed (seats
swapped each time) until it has a winner.

The draw is seeded, so a seed gives the same bracket and games every time. The draw itself
(:mod:`tussle.pairing`) is the one the server's tournaments use too.
An entrant is ``NAME=AGENT`` or ``NAME=AGENT:POWER``: an agent spec (which may
itself hold ``:``, as in ``mcts:time=0.5``) and, for games with per-seat
powers (FITE's ``power_a`` and ``power_b`` options), the entrant's super power,
which follows it to whichever seat it gets.

>>> import tempfile
>>> fighters = [parse_entrant("ann=rule:cunning", ("cunning",)), parse_entrant("bob=random")]
>>> with tempfile.TemporaryDirectory() as where:
...     t = run_tournament("fite", fighters, seed=1, record_dir=where)
>>> t.champion in ("ann", "bob"), len(t.rounds)
(True, 1)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tussle.agents import make_agent, parse_spec, power_elsewhere
from tussle.errors import AgentError, OptionError, TussleError
from tussle.pairing import elimination_round, replay_seats
from tussle.registry import game_info, load_game, simulation_options
from tussle.runner import play_game

#: Per-seat options are named this, then ``_a``, ``_b``, ... for the seats.
SEAT_OPTION = "power"
#: A pairing that draws this many games in a row stops the tournament with an error.
MAX_REPLAYS = 100


def seat_option(seat: int) -> str:
    """The game option that holds seat ``seat``'s power.

    >>> seat_option(1)
    'power_b'
    """
    return f"{SEAT_OPTION}_{chr(ord('a') + seat)}"


def known_powers(game_id: str) -> tuple[str, ...]:
    """The powers an entrant may bring to ``game_id`` (none for a game without per-seat powers).

    >>> known_powers("fite")[:3]
    ('none', 'swift', 'cunning')
    """
    for opt in game_info(game_id).options:
        # FITE's is text (a powers document may name more): its choices are the standard powers.
        if opt.name == seat_option(0) and opt.choices:
            return opt.choices
    return ()


def _is_agent(spec: str) -> bool:
    """Whether ``spec`` reads whole as an agent spec (``fite:solved`` has a colon of its own)."""
    try:
        parse_spec(spec)
    except AgentError:
        return False
    return True


@dataclass(frozen=True)
class Entrant:
    """One fighter of a tournament: its name, its agent spec and its power (or None)."""

    name: str
    agent: str
    power: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "agent": self.agent, "power": self.power}

    def __str__(self) -> str:
        return f"{self.name} ({self.agent}{', ' + self.power if self.power else ''})"


def parse_entrant(text: str, powers: Sequence[str] = ()) -> Entrant:
    """Read ``NAME=AGENT[:POWER]``; the last ``:`` part is a power only if it names one of ``powers``.

    >>> parse_entrant("ann=rule:brutal", ("none", "brutal"))
    Entrant(name='ann', agent='rule', power='brutal')
    >>> parse_entrant("bob=mcts:time=0.5", ("none", "brutal"))
    Entrant(name='bob', agent='mcts:time=0.5', power=None)
    """
    name, eq, spec = text.partition("=")
    name, spec = name.strip(), spec.strip()
    if not eq or not name or not spec:
        raise AgentError(f"entrant {text!r} is not NAME=AGENT or NAME=AGENT:POWER (e.g. ann=rule:brutal)")
    power = None
    head, colon, last = spec.rpartition(":")
    if colon and last.strip().lower() in powers:
        spec, power = head.strip(), last.strip().lower()
        if not spec:
            raise AgentError(f"entrant {text!r} has a power but no agent")
        if power == "none":
            power = None
    return Entrant(name, spec, power)


@dataclass(frozen=True)
class PlayedGame:
    """One game of a match: who sat where, how it ended and where its record is."""

    attempt: int
    seats: tuple[str, str]
    winner: str | None
    reason: str
    events: int
    record: str | None
    """Where the game's record was saved (None when the tournament keeps no records)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "attempt": self.attempt,
            "seats": list(self.seats),
            "winner": self.winner,
            "reason": self.reason,
            "events": self.events,
            "record": self.record,
        }


@dataclass
class Match:
    """A pairing of one round, decided by its last game."""

    round: int
    index: int
    a: str
    b: str
    winner: str = ""
    games: list[PlayedGame] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "match": self.index,
            "a": self.a,
            "b": self.b,
            "winner": self.winner,
            "games": [g.to_json() for g in self.games],
        }


@dataclass
class Round:
    number: int
    matches: list[Match] = field(default_factory=list)
    bye: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"round": self.number, "matches": [m.to_json() for m in self.matches], "bye": self.bye}


@dataclass
class Tournament:
    """The whole bracket, round by round, and the champion."""

    game: str
    seed: int
    options: dict[str, Any]
    entrants: list[Entrant]
    record_dir: str | None
    rounds: list[Round] = field(default_factory=list)
    champion: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seed": self.seed,
            "options": self.options,
            "entrants": [e.to_json() for e in self.entrants],
            "record_dir": self.record_dir,
            "rounds": [r.to_json() for r in self.rounds],
            "champion": self.champion,
        }


#: What a tournament reports as it goes: ("round", Round) when a round is drawn,
#: ("match", Match) when a match is decided, ("champion", Tournament) at the end.
TournamentHook = Callable[[str, Any], None]


def _seed(*parts: object) -> int:
    # Derived per game, so that one game's seeds do not depend on how many came before.
    return random.Random("/".join(map(str, parts))).getrandbits(63)


def check_entrants(game_id: str, entrants: Sequence[Entrant], options: dict[str, Any]) -> None:
    """Every entrant, agent and power checked before the first game, with one-line errors."""
    if len(entrants) < 2:
        raise TussleError(f"a tournament needs at least 2 entrants, not {len(entrants)}")
    names = [e.name for e in entrants]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise TussleError(f"entrant name {twice[0]!r} is used twice; names must differ")
    info = game_info(game_id)
    if info.min_players > 2 or info.max_players < 2:
        raise TussleError(f"tournaments are for two-player games; {game_id} is not one")
    powers = known_powers(game_id)
    for name in options:
        info.option(name)
        if name.startswith(SEAT_OPTION + "_") and powers:
            raise OptionError(f"option {name} is set per entrant (NAME=AGENT:POWER), not for the tournament")
    game = load_game(game_id, players=2, **options)
    for e in entrants:
        tail = e.agent.rpartition(":")[2]
        if powers and ":" in e.agent and "=" not in tail and not _is_agent(e.agent):
            if tail.strip().lower() in powers:
                raise OptionError(
                    f"entrant {e.name}: two powers ({tail.strip()!r} and {e.power!r}); one at most"
                )
            raise OptionError(
                f"entrant {e.name}: {tail!r} is not a power of {game_id} (powers: {', '.join(powers)})"
            )
        if e.power is not None and e.power not in powers:
            known = f" (powers: {', '.join(powers)})" if powers else ""
            raise OptionError(f"entrant {e.name}: {e.power!r} is not a power of {game_id}{known}")
        if not powers and ":" in e.agent and "=" not in tail and not _is_agent(e.agent):
            # NAME=AGENT:POWER written for a game whose entrants bring none.
            whose = power_elsewhere(tail.strip(), game_id).removeprefix("; ")
            if whose:
                raise OptionError(
                    f"entrant {e.name}: {whose}; {info.name} entrants are NAME=AGENT, with no power"
                )
        try:
            agent = make_agent(e.agent, game, 0, seed=0)
        except AgentError as exc:
            raise AgentError(f"entrant {e.name}: {exc}") from None
        if agent.interactive:
            raise AgentError(
                f"entrant {e.name}: {e.agent!r} needs a person; tournaments are for computer agents"
            )


def run_tournament(
    game_id: str,
    entrants: Sequence[Entrant],
    *,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    record_dir: str | None = None,
    on_event: TournamentHook | None = None,
) -> Tournament:
    """Play a single-elimination tournament and return its bracket.

    Every game's record is saved under ``record_dir``; with None, no record
    is written and nothing is left behind.
    """
    options = dict(options or {})
    check_entrants(game_id, entrants, options)
    # Games between programs take the game's simulation defaults (a turn limit, say) so that they end.
    options = simulation_options(game_id, options)
    if record_dir is not None:
        Path(record_dir).mkdir(parents=True, exist_ok=True)
    by_name = {e.name: e for e in entrants}
    t = Tournament(game_id, seed, options, list(entrants), record_dir)
    bag = random.Random(f"tournament/{seed}")
    alive = [e.name for e in entrants]
    while len(alive) > 1:
        pairs, bye = elimination_round(alive, bag)
        rnd = Round(len(t.rounds) + 1, bye=bye)
        rnd.matches = [Match(rnd.number, i + 1, a, b) for i, (a, b) in enumerate(pairs)]
        t.rounds.append(rnd)
        if on_event:
            on_event("round", rnd)
        for match in rnd.matches:
            _play_match(t, match, by_name)
            if on_event:
                on_event("match", match)
        alive = [m.winner for m in rnd.matches] + ([rnd.bye] if rnd.bye else [])
    t.champion = alive[0]
    if on_event:
        on_event("champion", t)
    return t


def _play_match(t: Tournament, match: Match, by_name: dict[str, Entrant]) -> None:
    """Play the match's game, and replay it while drawn."""
    for attempt in range(1, MAX_REPLAYS + 1):
        seated = [by_name[name] for name in replay_seats(match.a, match.b, attempt)]
        options = dict(t.options)
        for seat, e in enumerate(seated):
            if e.power is not None:
                options[seat_option(seat)] = e.power
        game = load_game(t.game, players=2, **options)
        key = (t.seed, match.round, match.index, attempt)
        agents = [make_agent(e.agent, game, s, seed=_seed(*key, s + 1)) for s, e in enumerate(seated)]
        state, record = play_game(
            game, agents, seed=_seed(*key, 0), names=[f"{e.name}={e.agent}" for e in seated]
        )
        result = state.result()
        assert result is not None
        path = None
        if t.record_dir is not None:
            path = str(Path(t.record_dir) / f"round{match.round}-match{match.index}-game{attempt}.json")
            record.save(path)
        winner = seated[result.winner].name if result.winner is not None else None
        match.games.append(
            PlayedGame(
                attempt, (seated[0].name, seated[1].name), winner, result.reason, len(record.events), path
            )
        )
        if winner is not None:
            match.winner = winner
            return
    raise TussleError(
        f"round {match.round}: {match.a} and {match.b} drew {MAX_REPLAYS} games in a row; no winner"
    )


def match_line(match: Match) -> str:
    """One line for a decided match: who met, the winner, the deciding game's seats and how it ended.

    >>> m = Match(1, 1, "ann", "bob", "bob", [PlayedGame(1, ("ann", "bob"), None, "a draw", 40, "r.json"),
    ...     PlayedGame(2, ("bob", "ann"), "bob", "fighter B is taken out", 30, "s.json")])
    >>> match_line(m)
    'ann vs bob: bob wins after 1 drawn game (seats bob, ann: fighter B is taken out)'
    """
    last = match.games[-1]
    draws = len(match.games) - 1
    replayed = f" after {draws} drawn game{'s' if draws != 1 else ''}" if draws else ""
    why = f": {last.reason}" if last.reason else ""
    return f"{match.a} vs {match.b}: {match.winner} wins{replayed} (seats {', '.join(last.seats)}{why})"
