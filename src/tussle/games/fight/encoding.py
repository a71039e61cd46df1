"""Fight!'s integer action space and observation arrays, for the RL adapters (docs/ecosystem.md)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any, NamedTuple, cast

import numpy as np

from tussle.adapters.encoding import (
    ActionCodec,
    EncodingError,
    Features,
    FloatArray,
    GameEncoding,
    LegalMap,
    find,
    frac,
    hot,
)
from tussle.game import CHANCE, Game, State
from tussle.games.fight.actions import Activate, Draw, Move, NextArena, Play, PlayAction, Score, Top
from tussle.games.fight.cards import FAMILIES as CARD_FAMILIES
from tussle.games.fight.cards import Deck
from tussle.games.fight.rules import FIGHTS, ST_OVER, STAGE_NAMES, STEP_ARENA, STEP_TOP, FightState, Pairs


class FightCodec(ActionCodec):
    """Fight!'s actions and chance outcomes by the names of its cards (read from the deck in play).

    Numbers are read off an action's structured form (:class:`~tussle.games.fight.actions.Move`),
    and a number's label is its move's notation; a text is numbered by looking it up among the
    labels, never parsed.

    >>> codec = FightCodec(["Grizzle", "Blip", "Imp"], ["Sunset Pit"], players=3)
    >>> [codec.encode(t) for t in ("main Grizzle boost Blip", "main Imp", "activate", "activate p2", "score")]
    [1, 11, 12, 15, 16]
    >>> [codec.encode_chance(t) for t in ("draw Imp", "top Alien", "arena Sunset Pit")]
    [2, 7, 8]
    >>> codec.label(1), codec.chance_label(7)
    ('main Grizzle boost Blip', 'top Alien')
    """

    FAMILIES = ("Human", "Animal", "Robot", "Demon", "Alien")

    def __init__(self, warriors: Sequence[str], arenas: Sequence[str], players: int) -> None:
        super().__init__()
        self.warriors = tuple(warriors)
        self.arenas = tuple(arenas)
        self.players = players
        self._warrior = {name: i for i, name in enumerate(self.warriors)}
        self._arena = {name: i for i, name in enumerate(self.arenas)}
        n = len(self.warriors)
        self._single = n * n
        self._activate = n * n + n
        self._score = self._activate + 1 + players
        self.num_actions = self._score + 1
        self.num_chance = n + len(self.FAMILIES) + len(self.arenas)
        # An action, (main, boost) or an int, is written from itself and the deck's names alone.
        self.numbered_by = "action"
        # For chance_numbers: the tables of the deck last seen, and of every deck seen by id
        # (the deck kept with them, so that its id is not reused).
        self._deck: Deck | None = None
        self._tables = _ChanceTables((), (), ())
        self._decks: dict[int, tuple[Deck, _ChanceTables]] = {}
        # Every label by its number, for reading a text back: made when a text is first numbered.
        self._by_label: dict[str, int] | None = None
        self._by_chance_label: dict[str, int] | None = None

    def chance_numbers(self, state: State[Any]) -> tuple[int, ...] | None:
        """The numbers of the pending chance event's outcomes by outcome, or None if not known here.

        An outcome is a Warrior's number for a draw, a family's for ``top`` and
        an Arena's for ``arena``, by the step pending, as
        :meth:`FightState.action_to_str` reads it; its number is what
        :meth:`encode_chance` gives its text (-1: a card this codec has no name for).
        """
        if not isinstance(state, FightState) or not state.queue:
            return None
        deck = state.deck
        if deck is not self._deck:
            self._use(deck)
        step = state.queue[0]
        if step == STEP_TOP:
            return self._tables.families
        if step == STEP_ARENA:
            return self._tables.arenas
        return self._tables.warriors  # a draw, whatever it is drawn into

    def chance_index(self, state: State[Any], outcome: Any) -> int:
        """The number of a chance outcome read off the card (or family) number: the notation's.

        A draw has as many outcomes as the Reserves have Warriors (some 28 on
        average), and writing each one's text at every chance node cost about a
        quarter of an OpenSpiel environment's time. Anything but a card number
        this codec has a name for goes through the text.
        """
        numbers = self.chance_numbers(state)
        if numbers is not None and type(outcome) is int and 0 <= outcome < len(numbers):
            index = numbers[outcome]
            if index >= 0:
                return index
        return super().chance_index(state, outcome)

    def _use(self, deck: Deck) -> None:
        """Make ``deck``'s tables the ones :meth:`chance_numbers` reads (worked out once a deck)."""
        entry = self._decks.get(id(deck))
        if entry is None or entry[0] is not deck:
            if len(self._decks) > 64:  # bounded: a few decks at a time, in practice one
                self._decks.clear()
            n, f = len(self.warriors), len(self.FAMILIES)
            tables = _ChanceTables(
                tuple(self._warrior.get(w.name, -1) for w in deck.warriors),
                tuple(
                    n + self.FAMILIES.index(name) if name in self.FAMILIES else -1 for name in CARD_FAMILIES
                ),
                tuple(n + f + self._arena[a.name] if a.name in self._arena else -1 for a in deck.arenas),
            )
            entry = self._decks[id(deck)] = (deck, tables)
        self._deck, self._tables = entry

    def action_index(self, state: State[Any], player: int, action: Any) -> int:
        """The number of a seat's action, read off its structured form (kept by action, as the base's)."""
        if not isinstance(state, FightState):
            return super().action_index(state, player, action)
        numbers = self.kept_numbers(player)
        try:
            index = numbers.get(action)
        except TypeError:  # unhashable: no Fight! action, and its text says what it is
            return super().action_index(state, player, action)
        if index is None:
            try:
                move = state.move(player, action)
            except (IndexError, TypeError) as exc:  # not one of this deck's actions
                raise EncodingError(f"{type(self).__name__}: {action!r} is no action ({exc})") from None
            index = self.number(move)
            if len(numbers) > 100_000:  # bounded, as the base's numbers are
                numbers.clear()
            numbers[action] = index
        return index

    def number(self, move: Move) -> int:
        """The number of a seat's move: a play by its two Warriors, then Boosts' fates."""
        n = len(self.warriors)
        try:
            if isinstance(move, Play):
                main = self._warrior[move.main]
                return self._single + main if move.boost is None else main * n + self._warrior[move.boost]
        except KeyError as exc:
            raise EncodingError(f"{type(self).__name__}: {move.notation()!r} has no index ({exc})") from None
        if isinstance(move, Activate):
            if move.target is None:
                return self._activate
            if move.target < self.players:
                return self._activate + 1 + move.target
        if isinstance(move, Score):
            return self._score
        raise EncodingError(f"{type(self).__name__}: {move!r} has no index")

    def move(self, index: int) -> Move:
        """The seat's move numbered ``index``."""
        n = len(self.warriors)
        if index < self._single:
            main, boost = divmod(index, n)
            return Play(self.warriors[main], self.warriors[boost])
        if index < self._activate:
            return Play(self.warriors[index - self._single], None)
        if index == self._activate:
            return Activate(None)
        if index < self._score:
            return Activate(index - self._activate - 1)
        return Score()

    def chance_move(self, index: int) -> Move:
        """The chance outcome numbered ``index``."""
        n = len(self.warriors)
        if index < n:
            return Draw(self.warriors[index])
        if index < n + len(self.FAMILIES):
            return Top(self.FAMILIES[index - n])
        return NextArena(self.arenas[index - n - len(self.FAMILIES)])

    def _encode(self, text: str) -> int:
        if self._by_label is None:
            self._by_label = {self.label(i): i for i in range(self.num_actions)}
        return self._by_label[text]

    def _encode_chance(self, text: str) -> int:
        if self._by_chance_label is None:
            self._by_chance_label = {self.chance_label(i): i for i in range(self.num_chance)}
        return self._by_chance_label[text]

    def label(self, index: int) -> str:
        return self.move(index).notation()

    def decode(self, index: int) -> str | None:
        return self.label(index)

    def chance_label(self, index: int) -> str:
        return self.chance_move(index).notation()


class _ChanceTables(NamedTuple):
    """The chance numbers of one deck's outcomes, by card (or family) number; -1 where there is none."""

    warriors: tuple[int, ...]
    families: tuple[int, ...]
    arenas: tuple[int, ...]


def fight_cards(game: Game, limit: int = 10_000) -> tuple[list[str], list[str]]:
    """The Warriors and Arenas of the deck a Fight! game plays with, read through the core API.

    The deal draws from the whole deck and the first Arena from all Arenas, so
    the chance outcomes of the first events name every card. Events are
    applied (first outcome, first legal action) until an Arena is drawn.

    >>> from tussle import load_game
    >>> warriors, arenas = fight_cards(load_game("fight"))
    >>> len(warriors), len(arenas), warriors[0], arenas[0]
    (60, 12, 'Stray Cadet', 'Sunset Pit')
    """
    state = game.new_initial_state()
    warriors: dict[str, None] = {}
    for _ in range(limit):
        acting = state.to_act()
        if not acting:
            break
        if acting == (CHANCE,):
            outcomes = state.chance_outcomes()
            moves = [state.action_to_json(CHANCE, o) for o, _ in outcomes]
            arenas = [str(m["arena"]) for m in moves if m["kind"] == "arena"]
            if arenas:
                return list(warriors), arenas
            for m in moves:
                if m["kind"] == "draw":
                    warriors.setdefault(str(m["warrior"]))
            state.apply(CHANCE, outcomes[0][0])
        else:
            for p in acting:
                state.apply(p, state.legal_actions(p)[0])
    raise EncodingError("fight: no Arena was drawn in the first events, so the deck's cards are unknown")


class FightFeatures(Features):
    """Fight! from one seat: own hand by name, every seat (from the own one on) by what is public.

    Per seat: the families in hand, the Main Warrior and its power, the Boost
    (family, and name when known), the scored Warriors, Arenas and Glory.
    Then the Graveyard, the Warriors drawn and killed, the Arenas, the
    Reserves, the stage, the 1st player and the leader.
    """

    FAMILIES = FightCodec.FAMILIES
    STAGES = ("setup", "play", "resolve", "ability", "draw", "over")

    def __init__(self, warriors: Sequence[str], arenas: Sequence[str], players: int) -> None:
        self.warrior = {name: i for i, name in enumerate(warriors)}
        self.arena = {name: i for i, name in enumerate(arenas)}
        self.players = players
        n, a = len(warriors), len(arenas)
        self.n, self.a = n, a
        self.seat_size = 3 * n + 23
        self.tail = 3 * n + 2 * a + 5 + 1 + 5 + len(self.STAGES) + 1 + players + (players + 1) + 1
        self.size = n + players * self.seat_size + self.tail
        # The hidden block: the Reserves, then per seat its hand, face-down Boost and scored pile,
        # each Warrior by name.
        self.hidden_size = n * (1 + 3 * players)
        # For write_state: the deck in play's tables, and where the rules' families and stages stand.
        self._tables: _DeckTables | None = None
        self._family_at = _positions(self.FAMILIES, CARD_FAMILIES)
        self._stage_at = _positions(self.STAGES, STAGE_NAMES)
        self._tenths = _piled(10)
        # For each viewer, the seats from its own on: (seat, where its block, Boost and scored pile begin).
        self._seats = tuple(
            tuple(
                (q, base, base + 8 + n, base + 15 + 2 * n)
                for k in range(players)
                for q, base in [((me + k) % players, n + k * self.seat_size)]
            )
            for me in range(players)
        )

    def _cards(self, out: FloatArray, offset: int, cards: Iterable[Any]) -> None:
        for card in cards:
            name = card.get("name") if isinstance(card, dict) else card
            hot(out, offset, self.warrior.get(name) if isinstance(name, str) else None, self.n)

    def _families(self, out: FloatArray, offset: int, cards: Iterable[Any], scale: float) -> None:
        for card in cards:
            family = find(self.FAMILIES, card.get("family")) if isinstance(card, dict) else None
            if family is not None:
                out[offset + family] = min(1.0, out[offset + family] + 1.0 / scale)

    def write(self, obs: Mapping[str, Any], player: int, out: FloatArray) -> None:
        n, players = self.n, self.players
        me = player if 0 <= player < players else 0
        seats = obs.get("seats") or []
        if me < len(seats):
            self._cards(out, 0, seats[me].get("hand") or [])
        for k in range(players):
            q = (me + k) % players
            if q >= len(seats):
                continue
            seat, base = seats[q], n + k * self.seat_size
            hand = seat.get("hand") or []
            self._families(out, base, hand, 10)
            out[base + 5] = frac(len(hand), 10)
            main = seat.get("main")
            if main:
                out[base + 6] = 1.0
                self._cards(out, base + 7, [main])
                out[base + 7 + n] = frac(main.get("current_power"), 60)
            boost = seat.get("boost")
            b = base + 8 + n
            if boost:
                out[b] = 1.0
                out[b + 1] = 1.0 if boost.get("activated") else 0.0
                self._families(out, b + 2, [boost], 1)
                self._cards(out, b + 7, [boost])
            s = b + 7 + n
            scored = seat.get("scored") or []
            out[s] = frac(len(scored), 20)
            self._families(out, s + 1, scored, 10)
            self._cards(out, s + 6, scored)
            out[s + 6 + n] = frac(len(seat.get("arenas") or []), 7)
            out[s + 7 + n] = frac(seat.get("glory"), 60)
        t = n + players * self.seat_size
        self._cards(out, t, obs.get("graveyard") or [])
        self._cards(out, t + n, obs.get("drawn") or [])
        self._cards(out, t + 2 * n, obs.get("killed") or [])
        t += 3 * n
        arena = obs.get("arena")
        if arena:
            hot(out, t, self.arena.get(arena.get("name")), self.a)
        for upcoming in obs.get("upcoming_arenas") or []:
            hot(out, t + self.a, self.arena.get(upcoming.get("name")), self.a)
        t += 2 * self.a
        hot(out, t, find(self.FAMILIES, obs.get("last_main_family")), 5)
        reserves = obs.get("reserves") or {}
        out[t + 5] = frac(reserves.get("count"), max(1, n))
        hot(out, t + 6, find(self.FAMILIES, reserves.get("top_family")), 5)
        t += 11
        hot(out, t, find(self.STAGES, obs.get("stage")), len(self.STAGES))
        t += len(self.STAGES)
        out[t] = frac(obs.get("fight"), 7)
        t += 1
        first = obs.get("first_player")
        if isinstance(first, int):
            hot(out, t, (first - me) % players, players)
        t += players
        leader = obs.get("leader")
        hot(out, t, (leader - me) % players if isinstance(leader, int) else players, players + 1)
        t += players + 1
        out[t] = 1.0 if me in (obs.get("to_act") or []) else 0.0

    def write_hidden(self, state: State[Any], codec: ActionCodec, out: FloatArray) -> None:
        """Where every Warrior nobody else may see lies: what the Reserves hold (no player sees
        them: the draws are chance events among them), every hand, face-down Boost and scored pile.
        """
        assert isinstance(state, FightState)
        n = self.n
        names = tuple(self.warrior.get(w.name, -1) for w in state.deck.warriors)

        def mark(offset: int, cards: Iterable[int]) -> None:
            for card in cards:
                if names[card] >= 0:
                    out[offset + names[card]] = 1.0

        mark(0, state.reserves)
        for p in range(self.players):
            base = n + 3 * n * p
            mark(base, state.hands[p])
            if state.boosts[p] >= 0 and not state.boost_up[p]:
                mark(base + n, [state.boosts[p]])
            mark(base + 2 * n, state.scored[p])

    def write_state(self, state: State[Any], player: int, out: FloatArray) -> None:
        """``player``'s array written straight from a Fight! state: exactly :meth:`write`'s, quicker.

        Making the observation's dict and reading it back took about half of an
        environment's step; this reads the same fields of the state, and the
        tests check at every step of random games that the array is the same.
        It writes through a memoryview (an item there costs about half of
        numpy's item assignment) and each pile's families as one block.
        """
        players = self.players
        m = cast("memoryview[float]", out.data)
        if (
            not isinstance(state, FightState)
            or state.game.num_players != players
            or m.format != "f"
            or m.ndim != 1
        ):
            super().write_state(state, player, out)
            return
        tables = self._tables
        if tables is None or tables.deck is not state.deck:
            tables = self._tables = _DeckTables(self, state.deck)
        if not tables.complete:
            # A card, family, Arena or stage with no place here: the observation's way, which
            # skips it, rather than a check at every write below.
            super().write_state(state, player, out)
            return
        names, families, arena_names = tables.names, tables.families, tables.arenas
        weight, glory_of = tables.weights.__getitem__, tables.glory.__getitem__
        hand_blocks, scored_blocks = tables.hands, tables.scored
        n, a = self.n, self.a
        mask = state._mask(player)
        known = state.known
        me = player if 0 <= player < players else 0
        for c in state.hands[me]:
            if known[c] & mask:
                m[names[c]] = 1.0
        hands, mains, boosts, scored, won = state.hands, state.mains, state.boosts, state.scored, state.won
        powers, boost_up = state.powers, state.boost_up
        # Each seat from the own one on, and where its block, its Boost's and its scored pile's begin.
        for q, base, b, s in self._seats[me]:
            hand = hands[q]
            if hand:
                total = sum(map(weight, hand))
                block = hand_blocks.get(total)
                m[base : base + 6] = tables.hand_block(hand, total) if block is None else block
            main = mains[q]
            if main >= 0:
                m[base + 6] = 1.0
                if known[main] & mask:
                    m[base + 7 + names[main]] = 1.0
                power = powers[q]
                if power > 0:  # frac(power, 60), without its calls
                    m[base + 7 + n] = power / 60 if power < 60 else 1.0
            boost = boosts[q]
            if boost >= 0:
                m[b] = 1.0
                if boost_up[q]:
                    m[b + 1] = 1.0
                m[b + 2 + families[boost]] = 1.0
                if known[boost] & mask:
                    m[b + 7 + names[boost]] = 1.0
            pile = scored[q]
            glory = len(pile)
            if pile:
                total = sum(map(weight, pile))
                block = scored_blocks.get(total)
                m[s : s + 6] = tables.scored_block(pile, total) if block is None else block
                named = s + 6
                for c in pile:
                    if known[c] & mask:
                        m[named + names[c]] = 1.0
            arenas = won[q]
            if arenas:
                m[s + 6 + n] = len(arenas) / 7 if len(arenas) < 7 else 1.0
                # state.glory(q), from the Arenas' glory read once per deck.
                glory += sum(map(glory_of, arenas))
            if glory:
                m[s + 7 + n] = glory / 60 if glory < 60 else 1.0
        t = n + players * self.seat_size
        for c in state.graveyard:
            if known[c] & mask:
                m[t + names[c]] = 1.0
        t += n
        for c in state.buffer:
            if known[c] & mask:
                m[t + names[c]] = 1.0
        t += n
        for c in state.killed:  # named to every viewer
            m[t + names[c]] = 1.0
        t += n
        over = state.stage == ST_OVER
        arena = state.arena
        if arena >= 0 and not over:
            m[t + arena_names[arena]] = 1.0
        for upcoming in state.arena_seq[state.fight + 1 :]:
            m[t + a + arena_names[upcoming]] = 1.0
        t += 2 * a
        family_at = self._family_at
        if state.last_family >= 0:
            m[t + family_at[state.last_family]] = 1.0
        m[t + 5] = min(1.0, len(state.reserves) / max(1, n))
        if state.top >= 0:
            m[t + 6 + family_at[state.top]] = 1.0
        t += 11
        m[t + self._stage_at[state.stage]] = 1.0
        t += len(self.STAGES)
        m[t] = min(1.0, min(state.fight + 1, FIGHTS) / 7)
        t += 1
        m[t + (state.first - me) % players] = 1.0
        t += players
        leader = -1 if over else state.leader()
        m[t + ((leader - me) % players if leader >= 0 else players)] = 1.0
        t += players + 1
        if me in state.to_act():
            m[t] = 1.0


class _DeckTables:
    """What :meth:`FightFeatures.write_state` reads of one deck, by card number, worked out once."""

    def __init__(self, features: FightFeatures, deck: Deck) -> None:
        self.deck = deck
        #: Each Warrior's place among the features' names (-1: none), its family's, its weight (see pile).
        self.names = tuple(features.warrior.get(w.name, -1) for w in deck.warriors)
        self.families = tuple(features._family_at[w.family] for w in deck.warriors)
        # Wide enough that a family's count, at most the whole deck, never carries into the next.
        self.shift = len(deck.warriors).bit_length()
        self.weights = tuple(1 << (self.shift * family) for family in self.families)
        #: Each Arena's place among the features' Arenas (-1: none).
        self.arenas = tuple(features.arena.get(arena.name, -1) for arena in deck.arenas)
        #: Whether every card, family, Arena and stage has its place (else write_state goes the slow way).
        places = (*self.names, *self.arenas, *features._family_at, *features._stage_at)
        self.complete = min(places, default=0) >= 0
        #: Each Arena's glory, as FightState.glory adds it up.
        self.glory = tuple(arena.glory for arena in deck.arenas)
        self.tenths = features._tenths
        #: The blocks of hands and of scored piles met so far, by the total of their cards' weights.
        self.hands: dict[int, memoryview[float]] = {}
        self.scored: dict[int, memoryview[float]] = {}

    def hand_block(self, cards: list[int], total: int) -> memoryview[float]:
        """A hand's six places as :meth:`FightFeatures.write` writes them: its families, then its size.

        ``total`` is the sum of the cards' weights, which says how many of each family there are
        (so the size too): the block is kept by it.
        """
        values = np.zeros(6, dtype=np.float32)
        values[:5] = self._spread(total)
        values[5] = min(1.0, len(cards) / 10)  # frac() of a count
        return self._keep(self.hands, total, values)

    def scored_block(self, cards: list[int], total: int) -> memoryview[float]:
        """A scored pile's six places as :meth:`FightFeatures.write` writes them: its size, then families."""
        values = np.zeros(6, dtype=np.float32)
        values[0] = min(1.0, len(cards) / 20)
        values[1:] = self._spread(total)
        return self._keep(self.scored, total, values)

    @staticmethod
    def _keep(blocks: dict[int, memoryview[float]], total: int, values: FloatArray) -> memoryview[float]:
        if len(blocks) > 100_000:  # bounded, as the codec's caches are
            blocks.clear()
        block = blocks[total] = cast("memoryview[float]", values.data)
        return block

    def _spread(self, total: int) -> list[float]:
        """What :meth:`FightFeatures._families` leaves in each family's place (scale 10) for ``total``.

        The cards' weights add up to the count of each family, a field of bits
        each, so one number stands for the whole pile's families.
        """
        field, last = (1 << self.shift) - 1, len(self.tenths) - 1
        counts = [(total >> (self.shift * family)) & field for family in range(len(FightCodec.FAMILIES))]
        return [self.tenths[min(count, last)] for count in counts]


_first = itemgetter(0)


def _positions(names: Sequence[str], of: Sequence[str]) -> tuple[int, ...]:
    """Where each of ``of`` stands in ``names`` (-1: nowhere)."""
    return tuple(names.index(name) if name in names else -1 for name in of)


def _piled(scale: int) -> tuple[float, ...]:
    """What :meth:`FightFeatures._families` leaves after 0, 1, 2... cards of one family, up to 1.0 (and on).

    Worked out by the same float32 sums it does, so the values are the same bit for bit.
    """
    cell = np.zeros(1, dtype=np.float32)
    values = [0.0]
    while values[-1] < 1.0:
        cell[0] = min(1.0, cell[0] + 1.0 / scale)
        values.append(float(cell[0]))
    return tuple(values)


class FightEncoding(GameEncoding):
    """Fight!'s encoding: a chance event's outcomes numbered from one table (see FightCodec.chance_numbers).

    Numbering each of a draw's some 28 outcomes by a call of its own cost about
    as much as writing its text; the table, read for all of them in one pass,
    gives the same numbers (a test compares them at every chance node of random games).
    """

    def __init__(self, game: Game, codec: FightCodec, features: FightFeatures) -> None:
        super().__init__(game, codec, features)
        self.fight_codec = codec
        # For legal: each deck's play numbers by id (the deck kept with them, so that its id is not reused).
        self._plays: dict[int, tuple[Deck, _PlayTables | None]] = {}

    def legal(self, state: State[Any], player: int) -> LegalMap:
        """The seat's legal actions by number; plays numbered from the deck's table, without listing them.

        Listing a seat's plays (some 8 to 60 pairs of Warriors), numbering each
        and keeping them by number cost about a fifth of a Gymnasium step; the
        numbers come from the two Warriors' alone, and the pair is made only
        when one is chosen. A test compares the map with the general one at every
        decision of random games.
        """
        if isinstance(state, FightState):
            plays = state.legal_actions(player)
            if type(plays) is Pairs:
                tables = self._play_tables(state.deck)
                if tables is not None:
                    rows, columns = tables.rows, tables.columns
                    numbers = [rows[m] + columns[b] for m in plays.mains for b in plays.boosts if m != b]
                    numbers.sort()
                    return _PlaysMap(numbers, player, plays, tables)
        return super().legal(state, player)

    def _play_tables(self, deck: Deck) -> _PlayTables | None:
        """How ``deck``'s plays are numbered; None where a Warrior has no number or shares one."""
        entry = self._plays.get(id(deck))
        if entry is None or entry[0] is not deck:
            if len(self._plays) > 64:  # bounded: a few decks at a time, in practice one
                self._plays.clear()
            codec = self.fight_codec
            width = len(codec.warriors)
            numbers = [codec._warrior.get(w.name, -1) for w in deck.warriors]
            tables = None
            if min(numbers, default=0) >= 0 and len(set(numbers)) == len(numbers):
                cards = [-1] * width
                for card, number in enumerate(numbers):
                    cards[number] = card
                tables = _PlayTables(tuple(i * width for i in numbers), tuple(numbers), tuple(cards), width)
            entry = self._plays[id(deck)] = (deck, tables)
        return entry[1]

    def chance_outcomes(self, state: State[Any]) -> list[tuple[int, float, Any]]:
        numbers = self.fight_codec.chance_numbers(state)
        if numbers is not None:
            try:  # a Fight! state's outcomes are card (or family) numbers, never negative
                out = [(numbers[o], prob, o) for o, prob in state.chance_outcomes() if prob > 0]
            except (IndexError, TypeError):  # not a card number: the codec's own way
                return super().chance_outcomes(state)
            out.sort(key=_first)
            if not out or out[0][0] >= 0:  # every card named (-1, no name, would sort first)
                return out
        return super().chance_outcomes(state)


class _PlayTables(NamedTuple):
    """The numbers of one deck's plays (:meth:`FightCodec.number`): a Main's row, a Boost's column."""

    rows: tuple[int, ...]  # by card: its Warrior's number times width
    columns: tuple[int, ...]  # by card: its Warrior's number
    cards: tuple[int, ...]  # by Warrior number: the deck's card of that name (-1: none)
    width: int  # the codec's Warriors


class _PlaysMap(LegalMap):
    """A seat's legal plays (a :class:`Pairs`) by number: a pair is made from its number when asked for."""

    __slots__ = ("_plays", "_tables")

    def __init__(self, indices: list[int], player: int, plays: Pairs, tables: _PlayTables) -> None:
        super().__init__(indices, player)
        self._plays = plays
        self._tables = tables

    def _pair(self, index: int) -> PlayAction | None:
        """The legal play numbered ``index``, or None."""
        width = self._tables.width
        if 0 <= index < width * width:
            main, boost = divmod(index, width)
            cards = self._tables.cards
            pair = (cards[main], cards[boost])
            if pair in self._plays:
                return pair
        return None

    def action(self, state: State[Any], index: int) -> Any:
        pair = self._pair(int(index))
        return pair if pair is not None else super().action(state, index)  # the base's error

    def text(self, state: State[Any], index: int) -> str | None:
        pair = self._pair(int(index)) if index in self else None
        return None if pair is None else state.action_to_str(self._player, pair)


def encoding(game: Game) -> GameEncoding:
    """The encoding of a Fight! game (its ``GameInfo.hooks.encoding``)."""
    warriors, arenas = fight_cards(game)
    return FightEncoding(
        game,
        FightCodec(warriors, arenas, game.num_players),
        FightFeatures(warriors, arenas, game.num_players),
    )
