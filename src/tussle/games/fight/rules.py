"""Fight!: the rules, the notation and the hidden-information bookkeeping.

Each of 7 Fights: the 1st player and then each player clockwise plays a Main
Warrior face up and a Boost Warrior face down, of a family other than the
last Main Warrior played when they can; then in the same order each player
activates or scores their Boost; the Arena's condition picks the winner (ties
to the player closest to the 1st player; nobody wins if no Main Warrior is
left that the condition accepts). Played Warriors go to the Graveyard, each
player draws two, the 1st player card passes on. At the end a player's score is
the Glory of the Arenas they won plus one per Warrior in their scored pile;
ties go to the most scored Warriors.

Cards are numbers: Warriors ``0..W-1`` and Arenas ``0..A-1`` in deck order.
Chance is lazy: the Reserves are an unordered set and every draw is a chance
event picking one of them uniformly, so a record needs no seed. The back of a
Warrior shows its family, so before a player decides, the family of the top
card of the Reserves is revealed by its own chance event; the next draw is then
uniform among the Reserves' Warriors of that family.

Who knows which card is kept as a bit mask per Warrior (``known``); a player
sees the family of every Warrior and the name of those whose bit it has. A card
shown to everybody has every bit (``-1``), so :data:`EVERYBODY`, a bit of no
seat, picks out the public ones: the public view names those alone.

What happens in a Fight is logged (``log``: Boosts scored and activated, and
what each activation did) and summed up, once the Fight is scored, in a
:class:`FightReport` (``last_fight``) that the views show until the next Fight
is scored. Neither holds a hidden card by its number: a face-down Boost is
named by its place in a scored pile, so :meth:`FightState.resample` needs not
touch them and each viewer sees of it what it sees of the pile.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Mapping
from typing import Final, Literal, NamedTuple, TypeAlias, cast

from tussle.errors import ActionError, OptionError
from tussle.game import (
    CHANCE,
    JSON,
    NOT_ACTIONS,
    PUBLIC,
    Actions,
    ChanceMode,
    Dynamics,
    Game,
    GameInfo,
    Hooks,
    Information,
    ListActions,
    Option,
    Result,
    State,
    document_hint,
)
from tussle.games.fight.actions import (
    ACTIVATE,
    SCORE,
    Activate,
    Draw,
    FightAction,
    Move,
    MoveJSON,
    NextArena,
    Play,
    PlayAction,
    Score,
    Top,
    a_move,
)
from tussle.games.fight.cards import CARD_OPS, FAMILIES, Deck, Effect, default_deck, load_deck
from tussle.games.fight.observation import (
    ArenaJSON,
    CardJSON,
    EffectJSON,
    FightObservation,
    FoughtBoostJSON,
    FoughtMainJSON,
    FoughtSeatJSON,
    LastFightJSON,
    SeatJSON,
)

FIGHTS = 7
HAND_SIZE = 5
GRAVEYARD_START = 3
DRAWS_PER_FIGHT = 2

#: A bit of the ``known`` masks that no seat has: only a card known to everybody (``-1``)
#: has it. The public view (PUBLIC) and its resample see through it.
EVERYBODY = 1 << 16

# Chance steps waiting in the queue: a seat number draws into that hand.
STEP_GRAVE = -1  # a Warrior from the Reserves onto the Graveyard
STEP_BUFFER = -2  # a Warrior drawn by an ability, shown to all
STEP_ARENA = -3  # the next Arena is revealed
STEP_TOP = -4  # the family on the back of the Reserves' top card is revealed

# What the state is doing when no chance step is waiting.
ST_SETUP, ST_PLAY, ST_RESOLVE, ST_ABILITY, ST_DRAW, ST_OVER = range(6)
STAGE_NAMES = ("setup", "play", "resolve", "ability", "draw", "over")

# The log of the current Fight: one tuple per event, kind first (plain tuples: they are made
# at every effect). A reader tests ``entry[0]`` against a kind, which tells mypy its shape.
LOG_SCORE: Final = "score"
LOG_ACTIVATE: Final = "activate"
LOG_POWER: Final = "power"
LOG_KILL: Final = "kill"
LOG_DRAW: Final = "draw"
LOG_STEAL: Final = "steal"
#: (kind, seat, index of the Boost in its scored pile)
ScoreEntry: TypeAlias = tuple[Literal["score"], int, int]
#: (kind, seat, Boost, opponent chosen or -1)
ActivateEntry: TypeAlias = tuple[Literal["activate"], int, int, int]
#: (kind, seat, power before, power after)
PowerEntry: TypeAlias = tuple[Literal["power"], int, int, int]
#: (kind, seat, Main Warrior, the power it fell to)
KillEntry: TypeAlias = tuple[Literal["kill"], int, int, int]
#: (kind, seat, Warriors scored, Warriors onto the Graveyard)
DrawEntry: TypeAlias = tuple[Literal["draw"], int, tuple[int, ...], tuple[int, ...]]
#: (kind, thief, victim, index in the thief's scored pile, whether it was face up)
StealEntry: TypeAlias = tuple[Literal["steal"], int, int, int, bool]
LogEntry: TypeAlias = ScoreEntry | ActivateEntry | PowerEntry | KillEntry | DrawEntry | StealEntry


class SeatReport(NamedTuple):
    """How one seat's Fight ended."""

    main: int  # the Main Warrior played, -1 for none
    power: int  # its final power, or the power it fell to when killed
    killed: bool
    boost: int  # the activated Boost when it went on to the Graveyard, else -1
    pile: int  # the seat whose scored pile holds the Boost now, else -1
    place: int  # the Boost's place in that pile
    activated: bool
    target: int  # the opponent chosen when activating, -1 for none
    effects: tuple[LogEntry, ...]  # what activating it did, in order


class FightReport(NamedTuple):
    """How the last Fight ended: the table when it was scored and the Fight's log.

    Kept as it was taken, cheaply, once per Fight; :meth:`FightState.seat_reports`
    reads it seat by seat when a view asks.
    """

    fight: int  # 1 to 7
    arena: int
    winner: int  # -1: nobody
    mains: tuple[int, ...]  # the Main Warriors still in the Fight
    powers: tuple[int, ...]
    boosts: tuple[int, ...]  # the Boosts still on the table: activated ones
    log: tuple[LogEntry, ...]


class Fight(Game):
    """Fight! for 2 to 6 arena managers.

    >>> game = Fight(players=3)
    >>> len(game.deck.warriors), game.num_players
    (60, 3)
    """

    info = GameInfo(
        id="fight",
        name="Fight!",
        description=(
            "Arena managers send Warriors into 7 Arenas: a Main Warrior face up, a Boost face down "
            "whose ability rewrites the powers, or which is scored for a point."
        ),
        min_players=2,
        max_players=6,
        dynamics=Dynamics.SEQUENTIAL,
        chance=ChanceMode.EXPLICIT,
        information=Information.IMPERFECT,
        options=(
            Option(
                "deck",
                "document",
                "",
                "the deck to play with, in the deck format (TOML or JSON); empty: the built-in deck",
            ),
            Option(
                "family_rule",
                "choice",
                "both",
                "which Warriors must avoid the family of the last Main Warrior: both, or the Main only",
                choices=("both", "main"),
            ),
            Option(
                "family_first",
                "choice",
                "previous",
                "the 1st player of a Fight is bound by the previous Fight's last Main Warrior, or is free",
                choices=("previous", "free"),
            ),
            Option(
                "arenas",
                "choice",
                "next",
                "which of the 7 Arenas are visible: the current and the next (top of the face-up pile), "
                "all from the start, or only the current",
                choices=("next", "all", "current"),
            ),
            Option(
                "rounding",
                "choice",
                "down",
                "how percentages such as +50% round a fraction",
                choices=("down", "up"),
            ),
            Option(
                "one_digit_switch",
                "choice",
                "keep",
                "switching the digits of a one-digit power keeps it (7) or reads it as 07 (70)",
                choices=("keep", "pad"),
            ),
        ),
        notation=(
            "play two Warriors from your hand by name, the Main face up and the Boost face down: "
            "main Grizzle boost Blip (with one Warrior left: main Tin Titan); after the Fight, for "
            "your Boost: activate (its ability; activate p2 when it chooses an opponent) or score "
            "(keep it face down for a point of Glory). A Warrior of your hand may also be named by its "
            "place in the hand as listed or by the start of its name: main 1 boost 3, main griz boost bl. "
            "Case and extra spaces do not matter"
        ),
        hooks=Hooks(
            style=".style:style",
            rule_agent=".rule_agent:FightRuleAgent",
            search=".search:FightPolicy",
            encoding=".encoding:encoding",
            rules="rules.md",
            balance=".balance:measures",
            web="web.js",
            story=".story:story",
            # Chosen by measurement: docs/strength.md has the ladders.
            levels=(
                ("easy", "ismcts:iterations=60"),
                ("medium", "ismcts:iterations=500"),
                ("hard", "ismcts:iterations=2000"),
            ),
            bench_target=4.0,
        ),
    )

    deck: Deck
    # By card number, what the rules read of a Warrior at every draw or play: its family,
    # whether its ability chooses an opponent, its printed power (quicker than the Warrior).
    families: tuple[int, ...]
    chooses: tuple[bool, ...]
    base_powers: tuple[int, ...]
    #: Each family's run of card numbers, where the deck lists each family together.
    family_spans: tuple[tuple[int, int], ...] | None
    # The options as the rules read them, at every Fight or effect.
    arena_view: str
    free_first: bool
    main_rule: bool
    round_up: bool
    pad: bool
    #: turn_orders[first]: the seats in turn order when ``first`` holds the 1st player card.
    turn_orders: tuple[tuple[int, ...], ...]
    #: draw_orders[first]: the hands drawn into after a Fight, in the queue's order.
    draw_orders: tuple[tuple[int, ...], ...]
    arena_numbers: tuple[int, ...]
    #: What every game starts with: the backs of the whole deck, and the deal's chance steps.
    start_backs: tuple[int, ...]
    start_queue: tuple[int, ...]
    #: uniform_totals[k]: the running totals of k equal chances (see _uniform_totals), for every pool.
    uniform_totals: tuple[list[float], ...]
    #: arena_keys[a]: the Arena's condition's key by (family, power), filled in as the Fights ask.
    arena_keys: list[dict[tuple[int, int], int | None]]
    #: The structured forms of the chance outcomes by number, of a Boost activated on each
    #: seat, and of the plays written so far (FightState.move).
    draw_moves: tuple[Draw, ...]
    top_moves: tuple[Top, ...]
    arena_moves: tuple[NextArena, ...]
    activate_moves: tuple[Activate, ...]
    play_moves: dict[PlayAction, Move]

    def _check_options(self) -> None:
        text = self.str_option("deck")
        try:
            self.deck = load_deck(text, "option deck") if text else default_deck()
        except OptionError as exc:
            raise OptionError(f"{exc}{document_hint(self.id, 'deck', text)}") from None
        self.families = tuple(w.family for w in self.deck.warriors)
        self.chooses = tuple(w.chooses_opponent for w in self.deck.warriors)
        self.base_powers = tuple(w.power for w in self.deck.warriors)
        self.family_spans = _family_spans(self.families)
        self.arena_view = str(self.options["arenas"])
        self.free_first = self.options["family_first"] == "free"
        self.main_rule = self.options["family_rule"] == "main"
        self.round_up = self.options["rounding"] == "up"
        self.pad = self.options["one_digit_switch"] == "pad"
        n = self.num_players
        self.turn_orders = tuple(tuple((first + i) % n for i in range(n)) for first in range(n))
        self.draw_orders = tuple(
            tuple(q for q in order for _ in range(DRAWS_PER_FIGHT)) for order in self.turn_orders
        )
        self.arena_numbers = tuple(range(len(self.deck.arenas)))
        self.arena_keys = [{} for _ in self.deck.arenas]
        self.draw_moves = tuple(Draw(w.name) for w in self.deck.warriors)
        self.top_moves = tuple(Top(family) for family in FAMILIES)
        self.arena_moves = tuple(NextArena(a.name) for a in self.deck.arenas)
        self.activate_moves = tuple(Activate(q) for q in range(n))
        self.play_moves = {}
        most = max(len(self.deck.warriors), len(self.deck.arenas))
        self.start_backs = tuple(self.families.count(family) for family in range(len(FAMILIES)))
        arenas = FIGHTS if self.arena_view == "all" else 2 if self.arena_view == "next" else 1
        self.start_queue = (
            *(p for _ in range(HAND_SIZE) for p in range(n)),
            *[STEP_GRAVE] * GRAVEYARD_START,
            *[STEP_ARENA] * arenas,
        )
        self.uniform_totals = tuple(_uniform_totals(count) if count else [] for count in range(most + 1))
        need = HAND_SIZE * self.num_players + GRAVEYARD_START
        if len(self.deck.warriors) < need:
            raise OptionError(
                f"{self.deck.source}: it has {len(self.deck.warriors)} Warriors; "
                f"{self.num_players} players need at least {need}"
            )
        if len(self.deck.arenas) < FIGHTS:
            raise OptionError(
                f"{self.deck.source}: it has {len(self.deck.arenas)} Arenas; a game needs {FIGHTS}"
            )

    def length_bound(self) -> tuple[int, int] | None:
        # Seven Fights, each a play and a Boost decision per player; chance:
        # the deal, Arenas, backs of the top card, draws, abilities' draws, refills.
        n = self.num_players
        return 14 * n, 5 * n + 11 + 7 * (10 * n + 20)

    def new_initial_state(self) -> FightState:
        return FightState(self)


class FightState(State[FightAction]):
    """One moment of a game of Fight!."""

    game: Fight

    __slots__ = (
        "_ability",
        "_final",
        "_legal",
        "_legal_seat",
        "_outcomes",
        "arena_seq",
        "backs",
        "boost_up",
        "boosts",
        "buffer",
        "card_epoch",
        "cursor",
        "deck",
        "epoch",
        "fight",
        "first",
        "game",
        "graveyard",
        "hands",
        "killed",
        "known",
        "last_family",
        "last_fight",
        "log",
        "mains",
        "powers",
        "queue",
        "reserves",
        "scored",
        "stage",
        "top",
        "won",
    )

    def __init__(self, game: Fight) -> None:
        self.game = game
        self.deck = game.deck
        n = game.num_players
        w = len(self.deck.warriors)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        # The Reserves in card order (draws list them so; every change keeps it).
        self.reserves: list[int] = list(range(w))
        # What the backs of the Reserves show, kept up to date at every draw: the top family's
        # reveal and its checks read it at once.
        self.backs: list[int] = list(game.start_backs)
        self.graveyard: list[int] = []
        self.buffer: list[int] = []
        self.scored: list[list[int]] = [[] for _ in range(n)]
        self.won: list[list[int]] = [[] for _ in range(n)]
        self.mains: list[int] = [-1] * n
        self.powers: list[int] = [0] * n
        self.boosts: list[int] = [-1] * n
        self.boost_up: list[bool] = [False] * n
        self.killed: list[int] = []
        self.known: list[int] = [0] * w
        self.card_epoch: list[int] = [0] * w
        self.epoch = 0
        self.top = -1
        self.arena_seq: list[int] = []
        self.fight = 0  # index of the current Fight, 0..6
        self.first = 0  # the oldest player holds the 1st player card first
        self.last_family = -1
        self.cursor = 0
        self.stage = ST_SETUP
        self._ability: tuple[int, int, int, int] | None = None
        self._final: Result | None = None
        self.last_fight: FightReport | None = None
        self.log: tuple[LogEntry, ...] = ()  # never changed in place: shared by clones
        self._legal: Actions[FightAction] | None = None
        self._legal_seat = -1  # whose actions _legal holds, when it holds any
        self._outcomes: list[tuple[FightAction, float]] | None = None
        self.queue: list[int] = list(game.start_queue)
        self._advance()

    # --- small helpers ------------------------------------------------------

    @property
    def arena(self) -> int:
        """The current Arena, or -1 before it is revealed."""
        return self.arena_seq[self.fight] if self.fight < len(self.arena_seq) else -1

    def family(self, card: int) -> int:
        return self.deck.warriors[card].family

    # --- turn structure -----------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        if self.queue:
            return _CHANCE_ONLY
        stage = self.stage
        if stage in (ST_PLAY, ST_RESOLVE):
            return _SEATS[(self.first + self.cursor) % self.game.num_players]
        return ()

    def player_name(self, player: int) -> str:
        return f"p{player}" if 0 <= player < self.game.num_players else super().player_name(player)

    def _advance(self) -> None:
        """Run the deterministic parts of the game up to the next decision or chance event."""
        n = self.game.num_players
        while True:
            queue = self.queue
            if queue:
                if queue[0] >= STEP_BUFFER and not self.reserves:
                    if self.graveyard:
                        self._reshuffle()
                    else:
                        queue.pop(0)  # nothing left anywhere to draw: the draw is lost
                    continue
                return
            stage = self.stage
            if stage == ST_PLAY:
                hands, first, cursor = self.hands, self.first, self.cursor
                while cursor < n and not hands[(first + cursor) % n]:
                    cursor += 1
                self.cursor = cursor
                if cursor < n:
                    if self.top < 0 and self.reserves:  # the top card's back shows before a decision
                        queue.append(STEP_TOP)
                    return
                self.stage = ST_RESOLVE
                self.cursor = 0
                continue
            if stage == ST_RESOLVE:
                boosts, up, first, cursor = self.boosts, self.boost_up, self.first, self.cursor
                while cursor < n and (boosts[(first + cursor) % n] < 0 or up[(first + cursor) % n]):
                    cursor += 1  # no Boost waiting to be resolved
                self.cursor = cursor
                if cursor < n:
                    if self.top < 0 and self.reserves:  # the top card's back shows before a decision
                        queue.append(STEP_TOP)
                    return
                self._end_fight()
                continue
            if stage == ST_ABILITY:
                self._finish_draw_score()
                continue
            if stage == ST_DRAW:
                self.first = (self.first + 1) % n
                self.fight += 1
                self._start_fight()
                continue
            if stage == ST_SETUP:
                self._start_fight()
                continue
            return

    def _start_fight(self) -> None:
        game = self.game
        view = game.arena_view
        if self.fight > 0 and (view == "current" or (view == "next" and self.fight + 1 < FIGHTS)):
            self.queue.append(STEP_ARENA)
        if game.free_first:
            self.last_family = -1
        self.killed = []
        self.stage = ST_PLAY
        self.cursor = 0

    def _reshuffle(self) -> None:
        """The Graveyard becomes the new Reserves; three of them refill the Graveyard."""
        # In card order, the order draws list them in: any order would do, this one sorts quickest.
        self.reserves = sorted(self.graveyard)
        self.graveyard = []
        for c in self.reserves:
            self.known[c] = 0
        self.backs = self._backs()
        self.epoch += 1
        self.top = -1
        # With three or fewer Warriors the refill would empty the new Reserves at
        # once and loop forever, so it is skipped (ruling).
        if len(self.reserves) > GRAVEYARD_START:
            self.queue[0:0] = [STEP_GRAVE] * GRAVEYARD_START

    # --- legal actions ------------------------------------------------------

    def legal_actions(self, player: int) -> Actions[FightAction]:
        legal = self._legal
        if legal is not None and player == self._legal_seat:
            return legal  # asked again (apply checks what was sampled from it): nothing has changed
        stage = self.stage
        if (
            self.queue
            or stage not in (ST_PLAY, ST_RESOLVE)
            or player != (self.first + self.cursor) % self.game.num_players  # the seat to_act() names
        ):
            return _NONE
        legal = self._play_actions(player) if stage == ST_PLAY else self._resolve_actions(player)
        self._legal = legal
        self._legal_seat = player
        return legal

    def _play_actions(self, p: int) -> Actions[FightAction]:
        hand = self.hands[p]
        if len(hand) == 1:
            return ListActions([(hand[0], -1)])
        cards = tuple(hand)
        banned = self.last_family
        if banned < 0:
            return Pairs(cards, cards)
        families = self.game.families
        off = tuple([c for c in cards if families[c] != banned])
        if len(off) == len(cards) or not off:
            return Pairs(cards, cards)
        if self.game.main_rule:
            return Pairs(off, cards)
        if len(off) >= 2:
            return Pairs(off, off)
        # One Warrior of another family: it must be played, as Main or as Boost.
        only = off[0]
        return ListActions([(only, b) for b in hand if b != only] + [(m, only) for m in hand if m != only])

    def _resolve_actions(self, p: int) -> Actions[FightAction]:
        boost = self.boosts[p]
        if not self.game.chooses[boost]:
            return _ACTIVATE_OR_SCORE
        targets = self.targets(p, self.deck.warriors[boost].ability)
        return ListActions([*targets, SCORE]) if targets else _ACTIVATE_OR_SCORE

    def targets(self, p: int, ability: tuple[Effect, ...]) -> list[int]:
        """The opponents that activating ``ability`` for ``p`` may choose, clockwise from ``p``."""
        n = self.game.num_players
        out = []
        for i in range(1, n):
            q = (p + i) % n
            for e in ability:
                if e.chooses_opponent and self._affects(p, q, e):
                    out.append(q)
                    break
        return out

    def _affects(self, p: int, q: int, e: Effect) -> bool:
        if e.op == "steal_boost":
            b = self.boosts[q]
            return b >= 0 and bool(e.families >> self.family(b) & 1)
        m = self.mains[q]
        if m < 0:
            return False
        if e.op == "swap":
            return self.mains[p] >= 0
        return e.selects(self.family(m), self.powers[q])

    def _why_illegal(self, player: int, action: FightAction) -> str:
        if self.stage == ST_PLAY and isinstance(action, tuple):
            hand = self.hands[player]
            for c in action:
                if c >= 0 and c not in hand:
                    return f": {self.deck.warriors[c].name} is not in your hand"
            if len(hand) >= 2 and action[1] < 0:
                return ": play a Main Warrior and a Boost Warrior"
            if action[0] == action[1]:
                return ": the Main and the Boost must be two different Warriors"
            banned = self.last_family
            if banned >= 0:
                fam = FAMILIES[banned]
                article = "an" if fam[0] in "AEIOU" else "a"
                return (
                    f": the last Main Warrior played was {article} {fam}; play Warriors of other families "
                    f"while you can (option family_rule={self.game.options['family_rule']})"
                )
        if self.stage == ST_RESOLVE and isinstance(action, int):
            if action >= 0:
                return f": p{action} is not an opponent this ability can choose"
            if action == ACTIVATE:
                return ": this ability needs an opponent: activate pN"
        return ""

    # --- chance -------------------------------------------------------------

    def chance_outcomes(self) -> list[tuple[FightAction, float]]:
        if not self.queue:
            return []
        return list(self._chance_table())

    def sample_chance(self, rng: random.Random) -> FightAction:
        """One chance outcome drawn by its probability, exactly as :meth:`State.sample_chance`
        draws it from :meth:`chance_outcomes`, without making that table.
        """
        queue = self.queue
        if not queue:
            raise ActionError("no chance event is pending")
        step = queue[0]
        if step >= STEP_BUFFER:
            # Equal chances in the table's order: the pick is found among the running totals
            # that the table's loop would add up. The pool is a stretch of the Reserves.
            pool = self.reserves
            start = 0
            top = self.top
            if top < 0:
                count = len(pool)
            else:
                spans = self.game.family_spans
                if spans is None:
                    pool = self._draw_pool()
                    count = len(pool)
                else:
                    start = bisect_left(pool, spans[top][0])
                    count = self.backs[top]
            totals = self.game.uniform_totals[count]
            index = bisect_right(totals, rng.random())
            return pool[start + (index if index < count else count - 1)]
        if step != STEP_TOP:
            # The index-th Arena of _arenas_left(), found past the few Arenas seen (each once)
            # without listing those left.
            seen = self.arena_seq
            count = len(self.deck.arenas) - len(seen)
            index = bisect_right(self.game.uniform_totals[count], rng.random())
            arena = index if index < count else count - 1
            for a in sorted(seen):
                if a > arena:
                    break
                arena += 1
            return arena
        pick = rng.random()
        size = len(self.reserves)
        total = 0.0
        last = -1
        for family, count in enumerate(self.backs):
            if count:
                total += count / size
                if pick < total:
                    return family
                last = family
        return last

    def _chance_table(self) -> list[tuple[FightAction, float]]:
        if self._outcomes is None:
            step = self.queue[0]
            if step == STEP_TOP:
                total = len(self.reserves)
                self._outcomes = [(f, k / total) for f, k in enumerate(self.backs) if k]
            else:
                pool = self._draw_pool() if step >= STEP_BUFFER else self._arenas_left()
                prob = 1.0 / len(pool)
                self._outcomes = [(c, prob) for c in pool]  # in card order, as the Reserves are
        return self._outcomes

    def _backs(self) -> list[int]:
        """How many Warriors of each family the Reserves hold (what the backs show)."""
        reserves = self.reserves
        spans = self.game.family_spans
        if spans is not None:  # each family a run of card numbers: counted by bisection
            return [bisect_left(reserves, end) - bisect_left(reserves, start) for start, end in spans]
        families = self.game.families
        backs = bytes([families[c] for c in reserves])  # counted in C
        return [backs.count(f) for f in range(len(FAMILIES))]

    def _draw_pool(self) -> list[int]:
        """The Warriors a draw may bring, in card order: the Reserves, or those of the family on top."""
        top = self.top
        reserves = self.reserves
        if top < 0:
            return reserves
        spans = self.game.family_spans
        if spans is not None:
            start, end = spans[top]
            return reserves[bisect_left(reserves, start) : bisect_left(reserves, end)]
        families = self.game.families
        return [c for c in reserves if families[c] == top]

    def _arenas_left(self) -> list[int]:
        seen = self.arena_seq
        return [a for a in self.game.arena_numbers if a not in seen]

    def is_legal(self, player: int, action: FightAction) -> bool:
        queue = self.queue
        if player == CHANCE:
            if not queue or type(action) is not int:
                return False
            # Whether the outcome is in the table (see _chance_table), read off directly.
            step = queue[0]
            if step >= STEP_BUFFER:
                reserves = self.reserves
                index = bisect_left(reserves, action)  # the Reserves are in card order
                top = self.top
                return (
                    index < len(reserves)
                    and reserves[index] == action
                    and (top < 0 or self.game.families[action] == top)
                )
            if step == STEP_ARENA:
                return 0 <= action < len(self.deck.arenas) and action not in self.arena_seq
            return 0 <= action < len(FAMILIES) and self.backs[action] > 0
        # True and 1.0 equal 1 (an activation's target), but are no seat's action.
        if queue or player < 0 or isinstance(action, NOT_ACTIONS):
            return False
        # The seat's actions, as legal_actions gives them: none when it is not to act.
        legal = self._legal
        if legal is None or player != self._legal_seat:
            legal = self.legal_actions(player)
        try:
            return action in legal
        except TypeError:  # unhashable: no action
            return False

    # --- applying -----------------------------------------------------------

    def _apply(self, player: int, action: FightAction) -> None:
        self._legal = None
        self._outcomes = None
        if player == CHANCE:  # half of all events are draws: this path is written flat
            queue = self.queue
            step = queue.pop(0)
            if step == STEP_TOP:
                self.top = action  # type: ignore[assignment]  # a chance outcome is an int
                return  # _advance would return at once: the decision it stopped at still waits
            if step == STEP_ARENA:
                self.arena_seq.append(action)  # type: ignore[arg-type]
            else:  # a Warrior drawn from the Reserves, for a hand, the Graveyard or the buffer
                card: int = action  # type: ignore[assignment]
                reserves = self.reserves
                del reserves[bisect_left(reserves, card)]  # the Reserves are in card order
                self.backs[self.game.families[card]] -= 1
                self.top = -1
                self.card_epoch[card] = self.epoch
                if step >= 0:
                    self.hands[step].append(card)
                    self.known[card] = 1 << step
                elif step == STEP_GRAVE:
                    self.graveyard.append(card)
                    self.known[card] = -1
                else:
                    self.buffer.append(card)
                    self.known[card] = -1
                if not reserves and self.graveyard:
                    self._reshuffle()  # "if the Reserves are ever depleted": at once
            # _advance would return at once with a chance step next that can be drawn.
            if not queue or (queue[0] >= STEP_BUFFER and not self.reserves):
                self._advance()
            return
        if isinstance(action, tuple):  # a play (a seat's pair of Warriors)
            self._play(player, action)
        elif action == SCORE:  # a Boost's fate
            self._score_boost(player)
        else:
            self._activate(player, action)
        self._advance()

    def _play(self, p: int, action: PlayAction) -> None:
        main, boost = action
        hand = self.hands[p]
        hand.remove(main)
        game = self.game
        self.mains[p] = main
        self.powers[p] = game.base_powers[main]
        self.known[main] = -1
        self.last_family = game.families[main]
        if boost >= 0:
            hand.remove(boost)
            self.boosts[p] = boost
        self.cursor += 1

    def _score_boost(self, p: int) -> None:
        self.scored[p].append(self.boosts[p])
        self.log += ((LOG_SCORE, p, len(self.scored[p]) - 1),)
        self.boosts[p] = -1
        self.cursor += 1

    def _activate(self, p: int, target: int) -> None:
        card = self.boosts[p]
        self.boost_up[p] = True
        self.known[card] = -1
        self.cursor += 1
        if target < 0:
            target = -1
        self.log += ((LOG_ACTIVATE, p, card, target),)
        self._run_effects(p, card, target, 0)

    def _run_effects(self, p: int, card: int, target: int, start: int) -> None:
        effects = self.deck.warriors[card].ability
        for i in range(start, len(effects)):
            e = effects[i]
            if e.op == "draw_score":
                self.queue.extend([STEP_BUFFER] * e.count)
                self._ability = (p, card, target, i)
                self.stage = ST_ABILITY
                return
            self._effect(p, e, target)

    def _finish_draw_score(self) -> None:
        assert self._ability is not None
        p, card, target, i = self._ability
        e = self.deck.warriors[card].ability[i]
        kept = tuple(c for c in self.buffer if e.families >> self.family(c) & 1)
        for c in self.buffer:
            if e.families >> self.family(c) & 1:
                self.scored[p].append(c)
            else:
                self.graveyard.append(c)
        self.log += ((LOG_DRAW, p, kept, tuple(c for c in self.buffer if c not in kept)),)
        self.buffer = []
        self._ability = None
        self.stage = ST_RESOLVE
        self._run_effects(p, card, target, i + 1)

    def _effect(self, p: int, e: Effect, target: int) -> None:
        op = e.op
        if op == "steal_boost":
            if target >= 0 and self._affects(p, target, e):
                c = self.boosts[target]
                up = self.boost_up[target]
                # A face-down Boost stays face down: its owner and the thief know it.
                self.known[c] = -1 if up else (1 << p) | (1 << target)
                self.boosts[target] = -1
                self.boost_up[target] = False
                self.scored[p].append(c)
                self.log += ((LOG_STEAL, p, target, len(self.scored[p]) - 1, up),)
            return
        if op == "swap":
            if target >= 0 and self._affects(p, target, e):
                mine, theirs = self.powers[p], self.powers[target]
                self.powers[p], self.powers[target] = theirs, mine
                if mine != theirs:
                    self.log += ((LOG_POWER, p, mine, theirs), (LOG_POWER, target, theirs, mine))
            return
        game = self.game
        n = game.num_players
        where = e.target
        if where == "all":
            seats: tuple[int, ...] = game.turn_orders[0]
        elif where == "own":
            seats = (p,)
        elif where == "opponent":
            seats = (target,) if target >= 0 else ()
        else:
            seats = tuple(q for q in range(n) if q != p)
        families = game.families
        mains, powers = self.mains, self.powers
        # Effect.selects, inline: a Boost's effect goes through here once per Main Warrior.
        chosen, low, high = e.families, e.min_power, e.max_power
        for q in seats:
            m = mains[q]
            if m < 0 or not chosen >> families[m] & 1:
                continue
            before = powers[q]
            if (low is not None and before < low) or (high is not None and before > high):
                continue
            powers[q] = after = before + e.amount if op == "add" else e.apply(before, game.round_up, game.pad)
            if after != before:
                self.log += ((LOG_POWER, q, before, after),)
        for q in range(n):
            if mains[q] >= 0 and powers[q] < 1:
                # Killed: removed from the Fight, onto the Graveyard.
                self.log += ((LOG_KILL, q, mains[q], powers[q]),)
                self.graveyard.append(mains[q])
                self.killed.append(mains[q])
                mains[q] = -1
                powers[q] = 0

    def leader(self) -> int:
        """The seat that would take the Arena if the Fight ended now, or -1 for nobody.

        Ties go to the player closest to the 1st player, clockwise.
        """
        seq = self.arena_seq
        if self.fight >= len(seq):
            return -1  # no Arena yet
        game = self.game
        arena = seq[self.fight]
        # The condition's key is pure and few (family, power) pairs come up: each is worked out once.
        keys = game.arena_keys[arena]
        families, mains, powers = game.families, self.mains, self.powers
        best: int | None = None
        who = -1
        for q in game.turn_orders[self.first]:
            m = mains[q]
            if m < 0:
                continue
            pair = (families[m], powers[q])
            try:
                key = keys[pair]
            except KeyError:
                key = keys[pair] = self.deck.arenas[arena].condition.key(*pair)
            if key is not None and (best is None or key > best):
                best, who = key, q
        return who

    def _end_fight(self) -> None:
        game = self.game
        n = game.num_players
        winner = self.leader()
        seq = self.arena_seq
        fight = self.fight
        arena = seq[fight] if fight < len(seq) else -1  # self.arena
        if winner >= 0:
            self.won[winner].append(arena)
        mains, boosts, graveyard = self.mains, self.boosts, self.graveyard
        # tuple.__new__ makes the very NamedTuple that FightReport(...) makes, minus a Python-level call.
        self.last_fight = _new_tuple(
            FightReport, (fight + 1, arena, winner, tuple(mains), tuple(self.powers), tuple(boosts), self.log)
        )
        self.log = ()
        # Everything still on the table goes to the Graveyard (ruling), in turn order.
        first = self.first
        for q in game.turn_orders[first]:
            m = mains[q]
            if m >= 0:
                graveyard.append(m)
            b = boosts[q]
            if b >= 0:
                graveyard.append(b)
        self.mains = [-1] * n
        self.powers = [0] * n
        self.boosts = [-1] * n
        self.boost_up = [False] * n
        if fight + 1 >= FIGHTS:
            self.stage = ST_OVER
            return
        self.queue += game.draw_orders[first]
        self.stage = ST_DRAW

    @staticmethod
    def seat_reports(report: FightReport) -> list[SeatReport]:
        """How each seat's part of the Fight of ``report`` ended, from the table and the Fight's log."""
        n = len(report.mains)
        mains = list(report.mains)
        powers = list(report.powers)
        killed = [False] * n
        boosts = list(report.boosts)  # the Boosts still on the table were activated
        piles = [-1] * n
        places = [-1] * n
        activated = [False] * n
        targets = [-1] * n
        effects: list[list[LogEntry]] = [[] for _ in range(n)]
        acting = -1  # whose activation the entries describe
        for entry in report.log:
            if entry[0] == LOG_ACTIVATE:
                acting = entry[1]
                activated[acting] = True
                boosts[acting] = entry[2]
                targets[acting] = entry[3]
                continue
            if entry[0] == LOG_SCORE:
                q = entry[1]
                boosts[q], piles[q], places[q] = -1, q, entry[2]
                acting = -1
                continue
            if entry[0] == LOG_KILL:
                q = entry[1]
                mains[q], powers[q], killed[q] = entry[2], entry[3], True
            elif entry[0] == LOG_STEAL:
                q = entry[2]
                boosts[q], piles[q], places[q] = -1, entry[1], entry[3]
            if acting >= 0:
                effects[acting].append(entry)
        return [
            SeatReport(
                mains[q],
                powers[q],
                killed[q],
                boosts[q],
                piles[q],
                places[q],
                activated[q],
                targets[q],
                tuple(effects[q]),
            )
            for q in range(n)
        ]

    def resolve_again(self, report: FightReport, first: int, without: int = -1) -> FightState:
        """The Fight of ``report`` resolved again by the rules' own effects, its ``without``-th
        activation (counting the Fight's activations in order from 0) left out; -1 leaves none out.

        Returns a scratch copy of this state holding that Fight's table at its end: ``mains`` and
        ``powers`` (a killed Main Warrior at -1 and 0, as :meth:`_effect` leaves it) and
        ``leader()``, the Fight's winner then. ``first`` is the Fight's 1st player, for ties. Every
        other activation runs as it ran, on the opponent it chose; effects that only move cards
        (``draw_score``, ``steal_boost``) change no power and are skipped. With nothing left out
        this gives the Fight's own end: ``report.mains``, ``report.powers`` and ``report.winner``.
        """
        n = self.game.num_players
        scratch = self.clone()
        scratch.mains = [seat.main for seat in self.seat_reports(report)]
        scratch.powers = [self.deck.warriors[m].power if m >= 0 else 0 for m in scratch.mains]
        scratch.boosts = [-1] * n
        scratch.boost_up = [False] * n
        scratch.killed = []
        scratch.log = ()
        scratch.queue = []
        scratch.arena_seq = [report.arena]
        scratch.fight = 0
        scratch.first = first
        scratch.stage = ST_RESOLVE
        scratch._ability = None
        scratch._final = None
        scratch._legal = None
        scratch._outcomes = None
        activations = [entry for entry in report.log if entry[0] == LOG_ACTIVATE]
        for i, (_, p, card, target) in enumerate(activations):
            if i == without:
                continue
            for e in self.deck.warriors[card].ability:
                if e.op not in CARD_OPS:
                    scratch._effect(p, e, target)
        return scratch

    # --- outcome ------------------------------------------------------------

    def glory(self, p: int) -> int:
        """Glory from won Arenas plus one per scored Warrior."""
        return sum(self.deck.arenas[a].glory for a in self.won[p]) + len(self.scored[p])

    def result(self) -> Result | None:
        if self.stage != ST_OVER:
            return None
        # Nothing changes once the game is over: the result is worked out once (searches ask
        # for it at the end of every playout), and a clone shares it.
        if self._final is None:
            self._final = self._final_result()
        return self._final

    def _final_result(self) -> Result:
        n = self.game.num_players
        keys = [(self.glory(p), len(self.scored[p])) for p in range(n)]
        ranking = tuple(1 + sum(k > keys[p] for k in keys) for p in range(n))
        firsts = [p for p in range(n) if ranking[p] == 1]
        top, count = keys[firsts[0]]
        if len(firsts) == 1:
            w = firsts[0]
            tied = [p for p in range(n) if keys[p][0] == top and p != w]
            extra = f" (tie on Glory broken by {count} scored Warriors)" if tied else ""
            reason = f"p{w} has the most Glory: {top}{extra}"
        elif len(firsts) == n:
            reason = f"everybody ties with {top} Glory and {count} scored Warriors"
        else:
            names = ", ".join(f"p{p}" for p in firsts)
            reason = f"{names} tie with {top} Glory and {count} scored Warriors"
        return Result.shared(firsts, n, reason, ranking=ranking)

    # --- notation -----------------------------------------------------------

    def move(self, player: int, action: FightAction) -> Move:
        """``action`` by ``player`` (or CHANCE) in its structured form, read in this state (the
        moment before the action): a chance outcome's number means a Warrior, a family or an
        Arena by the step pending.
        """
        game = self.game
        if isinstance(action, tuple):
            # Moves are values, each made once a game: every event of a record is written through one.
            plays = game.play_moves
            move: Move | None = plays.get(action)
            if move is None:
                if len(plays) > 100_000:  # bounded, whatever the deck's size
                    plays.clear()
                move = plays[action] = Play.of(self.deck, action)
            return move
        if player == CHANCE:
            step = self.queue[0] if self.queue else None
            if step == STEP_TOP:
                return game.top_moves[action]
            if step == STEP_ARENA:
                return game.arena_moves[action]
            return game.draw_moves[action]
        if action == SCORE:
            return _SCORE
        if action == ACTIVATE:
            return _ACTIVATE
        return game.activate_moves[action]

    def action_to_str(self, player: int, action: FightAction) -> str:
        return self.move(player, action).notation()

    def action_to_json(self, player: int, action: FightAction) -> MoveJSON:
        return self.move(player, action).to_json()

    def _action_from_json(self, player: int, data: dict[str, object]) -> FightAction:
        move = Move.from_json(data)
        if player == CHANCE:
            step = self.queue[0]
            if step == STEP_TOP:
                if isinstance(move, Top):
                    return move.to_action()
                expected = "top"
            elif step == STEP_ARENA:
                if isinstance(move, NextArena):
                    return move.to_action(self.deck)
                expected = "arena"
            else:
                if isinstance(move, Draw):
                    return move.to_action(self.deck)
                expected = "draw"
            raise ActionError(f"{a_move(move.kind)}: the chance event now is {a_move(expected)}")
        if self.stage == ST_PLAY:
            if isinstance(move, Play):
                return move.to_action(self.deck)
            raise ActionError(f"{a_move(move.kind)}: play a Main and a Boost now (kind play)")
        if isinstance(move, Activate):
            return move.to_action(self.game.num_players)
        if isinstance(move, Score):
            return SCORE
        raise ActionError(f"{a_move(move.kind)}: activate or score your Boost now (kind activate or score)")

    def _parse_action(self, player: int, text: str) -> FightAction:
        if not isinstance(text, str):
            raise ActionError(f"{text!r} is not an action")
        words = text.split()
        low = [w.lower() for w in words]
        if player == CHANCE:
            return self._parse_chance(text, low)
        if self.stage == ST_PLAY:
            if not low or low[0] != "main" or len(low) < 2:
                raise ActionError(f"{text!r}: play as 'main <Warrior> boost <Warrior>'")
            rest = low[1:]
            splits = [i for i, w in enumerate(rest) if w == "boost"]
            if not splits:
                return (self._warrior_in_hand(text, player, " ".join(rest)), -1)
            for i in splits:
                try:
                    return (
                        self._warrior_in_hand(text, player, " ".join(rest[:i])),
                        self._warrior_in_hand(text, player, " ".join(rest[i + 1 :])),
                    )
                except ActionError:
                    continue
            # No split names two Warriors: report the first unknown name.
            i = splits[0]
            return (
                self._warrior_in_hand(text, player, " ".join(rest[:i])),
                self._warrior_in_hand(text, player, " ".join(rest[i + 1 :])),
            )
        if low == ["score"]:
            return SCORE
        if low == ["activate"]:
            return ACTIVATE
        if low and low[0] == "activate":
            who = "".join(low[1:])
            who = who.removeprefix("player").removeprefix("p")
            if who.isascii() and who.isdigit() and int(who) < self.game.num_players:
                return int(who)
            raise ActionError(f"{text!r}: the opponent must be a seat such as p1")
        raise ActionError(f"{text!r}: resolve your Boost with 'activate', 'activate pN' or 'score'")

    def _warrior_in_hand(self, text: str, player: int, name: str) -> int:
        """The Warrior ``name`` (lower case) means: a Warrior's whole name, or, in ``player``'s own
        hand, its place as the view lists it (``1`` the first) or the start of one card's name
        (``cham``); ActionError naming the candidates when the start fits several.
        """
        if name in self.deck.warrior_ids or not name:
            return self._warrior_id(text, name)
        hand = self.hands[player]
        if name.isascii() and name.isdigit():
            place = int(name)
            if 1 <= place <= len(hand):
                return hand[place - 1]
            raise ActionError(f"{text!r}: your hand holds Warriors 1 to {len(hand)}, not {name}")
        warriors = self.deck.warriors
        fits = [card for card in hand if warriors[card].name.lower().startswith(name)]
        if len(fits) == 1:
            return fits[0]
        if fits:
            names = " or ".join(warriors[card].name for card in fits)
            raise ActionError(f"{text!r}: {name!r} could be {names}; type more of the name")
        return self._warrior_id(text, name)

    def _warrior_id(self, text: str, name: str) -> int:
        try:
            return self.deck.warrior_ids[name]
        except KeyError:
            raise ActionError(f"{text!r}: no Warrior is called {name!r}") from None

    def _parse_chance(self, text: str, low: list[str]) -> int:
        step = self.queue[0] if self.queue else None
        verb = "top" if step == STEP_TOP else "arena" if step == STEP_ARENA else "draw"
        if low and low[0] == verb:
            low = low[1:]
        name = " ".join(low)
        if step == STEP_TOP:
            if name.capitalize() in FAMILIES:
                return FAMILIES.index(name.capitalize())
            raise ActionError(f"{text!r}: expected 'top <family>' ({', '.join(FAMILIES)})")
        if step == STEP_ARENA:
            if name in self.deck.arena_ids:
                return self.deck.arena_ids[name]
            raise ActionError(f"{text!r}: no Arena is called {name!r}")
        return self._warrior_id(text, name)

    # --- copies and views ---------------------------------------------------

    def clone(self) -> FightState:
        other = FightState.__new__(FightState)
        other.game = self.game
        other.deck = self.deck
        other.hands = [h[:] for h in self.hands]
        other.reserves = self.reserves[:]
        other.backs = self.backs[:]
        other.graveyard = self.graveyard[:]
        other.buffer = self.buffer[:]
        other.scored = [s[:] for s in self.scored]
        other.won = [w[:] for w in self.won]
        other.mains = self.mains[:]
        other.powers = self.powers[:]
        other.boosts = self.boosts[:]
        other.boost_up = self.boost_up[:]
        other.killed = self.killed[:]
        other.known = self.known[:]
        other.card_epoch = self.card_epoch[:]
        other.epoch = self.epoch
        other.top = self.top
        other.arena_seq = self.arena_seq[:]
        other.fight = self.fight
        other.first = self.first
        other.last_family = self.last_family
        other.cursor = self.cursor
        other.stage = self.stage
        other._ability = self._ability
        other._final = self._final
        other.last_fight = self.last_fight
        other.log = self.log
        other._legal = self._legal
        other._legal_seat = self._legal_seat
        other._outcomes = self._outcomes
        other.queue = self.queue[:]
        return other

    def resample(self, player: int, rng: random.Random) -> FightState:
        """A state that ``player`` cannot tell from this one, its hidden Warriors redrawn.

        Every Warrior ``player`` cannot name is swapped at random with another of
        the same family that it cannot name either and that came from the same
        Reserves (the first, or the Graveyard reshuffled into it), so families,
        hand sizes and what ``player`` saw stay the same. For :data:`PUBLIC`
        every Warrior not shown to everybody is redrawn so.
        """
        other = self.clone()
        bit = self._mask(player)
        if not bit:
            return other
        in_reserves = set(self.reserves)
        groups: dict[tuple[int, int], list[int]] = {}
        known, card_epoch, epoch, families = self.known, self.card_epoch, self.epoch, self.game.families
        for c in range(len(known)):
            if known[c] & bit:
                continue
            key = (epoch if c in in_reserves else card_epoch[c], families[c])
            group = groups.get(key)
            if group is None:
                groups[key] = [c]
            else:
                group.append(c)
        mapping = list(range(len(known)))
        other_known, other_epoch = other.known, other.card_epoch
        for (era, _), cards in groups.items():
            if len(cards) < 2:
                continue
            shuffled = cards[:]
            rng.shuffle(shuffled)
            for old, new in zip(cards, shuffled, strict=True):
                mapping[old] = new
                other_known[new] = known[old]
                other_epoch[new] = era
        other.hands = [[mapping[c] for c in h] for h in self.hands]
        other.scored = [[mapping[c] for c in s] for s in self.scored]
        other.boosts = [mapping[c] if c >= 0 else -1 for c in self.boosts]
        other.reserves = sorted(mapping[c] for c in self.reserves)
        other._legal = None
        other._outcomes = None
        return other

    def _mask(self, player: int) -> int:
        """The bit of ``known`` that ``player`` reads: its seat's, EVERYBODY's for PUBLIC, else none."""
        if 0 <= player < self.game.num_players:
            return 1 << player
        return EVERYBODY if player == PUBLIC else 0

    def observation(self, player: int) -> FightObservation:
        """What ``player`` sees: its own hand, everybody's families, the table.

        The public view (:data:`PUBLIC`) names only the Warriors shown to
        everybody: Main Warriors, activated Boosts, the Graveyard, Warriors
        drawn by abilities; every hand and face-down card shows its family.

        >>> state = Fight().new_initial_state()
        >>> _ = state.apply_str(-1, "draw Grizzle")  # dealt to p0
        >>> state.observation(0)["seats"][0]["hand"][0]["name"]
        'Grizzle'
        >>> state.observation(1)["seats"][0]["hand"]
        [{'family': 'Animal'}]
        >>> state.observation(PUBLIC)["seats"][0]["hand"]
        [{'family': 'Animal'}]
        """
        return self._observe(player, self._mask(player))

    def _card(self, c: int, mask: int) -> CardJSON:
        w = self.deck.warriors[c]
        if self.known[c] & mask:
            return {"name": w.name, "family": FAMILIES[w.family], "power": w.power, "ability": w.text}
        return {"family": FAMILIES[w.family]}

    def _hand(self, q: int, player: int, mask: int) -> list[CardJSON]:
        """Seat ``q``'s hand as ``player`` sees it: its own in hand order, another's in one canonical order.

        Another player's hand is sorted by what the viewer sees of each card
        (family in the text's order, then name if known), never by position:
        the position of a back would tell which card left the hand.
        """
        cards = [self._card(c, mask) for c in self.hands[q]]
        if q != player:
            cards.sort(key=_back_order)
        return cards

    def _arena_json(self, a: int) -> ArenaJSON:
        arena = self.deck.arenas[a]
        return {
            "name": arena.name,
            "glory": arena.glory,
            "condition": arena.text,
            "rule": arena.condition.to_json(),
        }

    def _observe(self, player: int, mask: int) -> FightObservation:
        n = self.game.num_players
        warriors = self.deck.warriors
        seats: list[SeatJSON] = []
        for q in range(n):
            main = self.mains[q]
            boost = self.boosts[q]
            seats.append(
                {
                    "seat": q,
                    "hand": self._hand(q, player, mask),
                    "main": (
                        {**self._card(main, mask), "current_power": self.powers[q]} if main >= 0 else None
                    ),
                    "boost": (
                        {"activated": self.boost_up[q], **self._card(boost, mask)} if boost >= 0 else None
                    ),
                    "scored": [self._card(c, mask) for c in self.scored[q]],
                    "arenas": [self._arena_json(a) for a in self.won[q]],
                    "glory": self.glory(q),
                }
            )
        arena = self.arena
        upcoming = [self._arena_json(a) for a in self.arena_seq[self.fight + 1 :]]
        over = self.stage == ST_OVER
        result = self.result()
        return {
            "game": "fight",
            "player": player,
            "num_players": n,
            "fight": min(self.fight + 1, FIGHTS),
            "fights": FIGHTS,
            "first_player": self.first,
            "stage": STAGE_NAMES[self.stage],
            "to_act": list(self.to_act()),
            "arena": self._arena_json(arena) if arena >= 0 and not over else None,
            "upcoming_arenas": upcoming,
            "last_main_family": FAMILIES[self.last_family] if self.last_family >= 0 else None,
            "leader": (lead if (lead := self.leader()) >= 0 else None) if not over else None,
            "reserves": {
                "count": len(self.reserves),
                "top_family": FAMILIES[self.top] if self.top >= 0 else None,
            },
            "graveyard": [self._card(c, mask) for c in self.graveyard],
            "drawn": [self._card(c, mask) for c in self.buffer],
            "killed": [warriors[c].name for c in self.killed],
            "seats": seats,
            "last_fight": self._last_fight_json(mask),
            "result": result.to_json() if result is not None else None,
        }

    def _public_card(self, c: int) -> CardJSON:
        w = self.deck.warriors[c]
        return {"name": w.name, "family": FAMILIES[w.family], "power": w.power, "ability": w.text}

    def _last_fight_json(self, mask: int) -> LastFightJSON | None:
        """How the last Fight ended, as the viewer with ``mask`` may see it (a fresh copy)."""
        report = self.last_fight
        if report is None:
            return None
        seats: list[FoughtSeatJSON] = []
        for q, seat in enumerate(self.seat_reports(report)):
            main: FoughtMainJSON | None = None
            if seat.main >= 0:
                main = {**self._public_card(seat.main), "final_power": seat.power, "killed": seat.killed}
            card: CardJSON | None = None
            if seat.pile >= 0:
                # Still face down unless it was activated: only those who know it read its name.
                card = self._card(self.scored[seat.pile][seat.place], mask)
            elif seat.boost >= 0:
                card = self._public_card(seat.boost)
            boost: FoughtBoostJSON | None = None
            scored_by = seat.pile if seat.pile >= 0 else None
            if card is not None and seat.activated:
                boost = {
                    **card,
                    "activated": True,
                    "scored_by": scored_by,
                    "target": seat.target if seat.target >= 0 else None,
                    "effects": [self._effect_json(e) for e in seat.effects],
                }
            elif card is not None:
                # A CardJSON has no target or effects, which mypy cannot tell from its ** alone.
                boost = cast(FoughtBoostJSON, {**card, "activated": False, "scored_by": scored_by})
            seats.append({"seat": q, "main": main, "boost": boost})
        arena = self._arena_json(report.arena)
        return {
            "fight": report.fight,
            "arena": arena,
            "winner": report.winner if report.winner >= 0 else None,
            "glory": arena["glory"] if report.winner >= 0 else 0,
            "seats": seats,
        }

    def _effect_json(self, entry: LogEntry) -> EffectJSON:
        warriors = self.deck.warriors
        if entry[0] == LOG_POWER:
            return {"kind": "power", "seat": entry[1], "from": entry[2], "to": entry[3]}
        if entry[0] == LOG_KILL:
            return {"kind": "killed", "seat": entry[1], "warrior": warriors[entry[2]].name, "power": entry[3]}
        if entry[0] == LOG_DRAW:
            return {
                "kind": "drew",
                "scored": [warriors[c].name for c in entry[2]],
                "graveyard": [warriors[c].name for c in entry[3]],
            }
        # An activation's effects are these four kinds (seat_reports keeps no other).
        assert entry[0] == LOG_STEAL, entry
        # The stolen Boost itself is shown, as the viewer may see it, in its owner's seat.
        return {"kind": "stole", "seat": entry[2], "face_up": entry[4]}

    def observation_to_text(self, observation: Mapping[str, JSON], player: int) -> str:
        from tussle.games.fight.render import render_observation

        return render_observation(cast(FightObservation, observation))  # a view this game made

    def render(self) -> str:
        from tussle.games.fight.render import render_observation

        return render_observation(self._observe(PUBLIC, -1))  # nobody's seat, every card named


class Pairs(Actions[FightAction]):
    """Every (Main, Boost) of two different Warriors, the Main from ``mains``, the Boost from ``boosts``.

    In the order of ``[(m, b) for m in mains for b in boosts if m != b]``, each
    Main a member of ``boosts``, without building those pairs: a pair is made
    when drawn or read, and one is checked by looking its two Warriors up.

    >>> plays = Pairs((4, 7), (4, 7, 9))
    >>> list(plays), plays[3], len(plays)
    ([(4, 7), (4, 9), (7, 4), (7, 9)], (7, 9), 4)
    >>> (7, 4) in plays, (9, 4) in plays, (4, 4) in plays, [4, 7] in plays
    (True, False, False, False)
    """

    __slots__ = ("_boosts", "_items", "_last", "_mains", "_size", "_width")

    def __init__(self, mains: tuple[int, ...], boosts: tuple[int, ...]) -> None:
        self._mains = mains
        self._boosts = boosts
        self._width = width = len(boosts) - 1  # the Boosts that go with each Main
        self._size = len(mains) * width
        self._items: tuple[PlayAction, ...] | None = None
        self._last: PlayAction | None = None

    def __len__(self) -> int:
        return self._size

    @property
    def mains(self) -> tuple[int, ...]:
        """The Warriors that may be the Main (each one of :attr:`boosts` too)."""
        return self._mains

    @property
    def boosts(self) -> tuple[int, ...]:
        """The Warriors that may be the Boost."""
        return self._boosts

    def _at(self, index: int) -> PlayAction:
        row, rest = divmod(index, self._width)
        main = self._mains[row]
        boosts = self._boosts
        # The Main's own place among the Boosts is skipped (the row, where both are the hand).
        skip = row if boosts is self._mains else boosts.index(main)
        return (main, boosts[rest if rest < skip else rest + 1])

    def _all(self) -> tuple[PlayAction, ...]:
        if self._items is None:
            self._items = tuple((m, b) for m in self._mains for b in self._boosts if m != b)
        return self._items

    def __getitem__(self, index: int) -> PlayAction:  # type: ignore[override]
        if type(index) is int and 0 <= index < self._size:
            return self._at(index)
        return self._all()[index]

    def __iter__(self) -> Iterator[PlayAction]:
        return iter(self._all())

    def __contains__(self, item: object) -> bool:
        if item is self._last and item is not None:
            return True  # what sample() drew, checked as a random playout applies it
        if type(item) is tuple and len(item) == 2:
            main, boost = item
            if type(main) is int and type(boost) is int:
                return main != boost and main in self._mains and boost in self._boosts
        try:  # anything else is answered as a set of the pairs answers it
            return item in frozenset(self._all())
        except TypeError:  # unhashable, so not one of ours
            return False

    def sample(self, rng: random.Random) -> PlayAction:
        # _at, inline: every play of a random playout is drawn here.
        row, rest = divmod(rng.randrange(self._size), self._width)
        mains = self._mains
        main = mains[row]
        boosts = self._boosts
        skip = row if boosts is mains else boosts.index(main)
        drawn = self._last = (main, boosts[rest if rest < skip else rest + 1])
        return drawn

    def __repr__(self) -> str:
        return f"Pairs({list(self._mains)!r}, {list(self._boosts)!r})"


def _family_spans(families: tuple[int, ...]) -> tuple[tuple[int, int], ...] | None:
    """For each family, the run of card numbers ``(start, end)`` its Warriors hold; None if one has gaps.

    A deck that lists each family's Warriors together (the built-in one does) has
    each family's Reserves in one stretch of the sorted Reserves.

    >>> _family_spans((0, 0, 1, 1, 1, 3))
    ((0, 2), (2, 5), (0, 0), (5, 6), (0, 0))
    >>> _family_spans((0, 1, 0)) is None
    True
    """
    spans = []
    for family in range(len(FAMILIES)):
        cards = [c for c, f in enumerate(families) if f == family]
        if not cards:
            spans.append((0, 0))
        elif cards[-1] - cards[0] + 1 != len(cards):
            return None
        else:
            spans.append((cards[0], cards[-1] + 1))
    return tuple(spans)


def _uniform_totals(count: int) -> list[float]:
    """The running totals that :meth:`State.sample_chance` adds up over ``count`` equal chances.

    Summed the same way, one ``1.0 / count`` at a time, so that looking a draw
    up among them picks what that loop picks, rounding and all.
    """
    totals = _TOTALS.get(count)
    if totals is None:
        prob = 1.0 / count
        total = 0.0
        totals = []
        for _ in range(count):
            total += prob
            totals.append(total)
        _TOTALS[count] = totals
    return totals


_TOTALS: dict[int, list[float]] = {}
_new_tuple = tuple.__new__
#: The choices for a Boost whose ability chooses no opponent (or finds none), shared by every state.
_ACTIVATE_OR_SCORE: ListActions[FightAction] = ListActions([ACTIVATE, SCORE])
_NONE: ListActions[FightAction] = ListActions(())
_CHANCE_ONLY = (CHANCE,)
#: _SEATS[p]: the players to act when seat p decides.
_SEATS = tuple((p,) for p in range(8))
_SCORE = Score()
_ACTIVATE = Activate(None)
_FAMILY_RANK = {name: i for i, name in enumerate(FAMILIES)}


def _back_order(card: CardJSON) -> tuple[int, str]:
    """The canonical order of cards in another player's hand: family, then name where it shows."""
    return _FAMILY_RANK[card["family"]], card.get("name", "")
