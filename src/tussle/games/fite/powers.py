"""FITE's super powers as data: each power a combination of the effects the rules know.

The ``powers`` option takes a document (TOML, or JSON) that lists the powers a
fighter may bring, by name, each as the effects it is made of; the fighters'
``power_a`` and ``power_b`` then name one of them. The standard six are the
shipped document ``standard`` (``powers.toml`` here), which is also what a game
without the option plays. docs/games/fite.md ("Custom super powers") has the
format and its rulings.

>>> table = load_powers('[power.juggernaut]\\nattack = 1\\ndefence = 1', "option powers")
>>> table["juggernaut"].effects()
{'attack': 1, 'defence': 1}
>>> load_powers('[power.brutal]\\nattack = 1\\nreroll = 2', "option powers")
Traceback (most recent call last):
...
tussle.errors.OptionError: option powers: power brutal: unknown key 'reroll' (keys: attack, defence, \
opponent_attack, opponent_defence, tactical, swift)
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any

from tussle.errors import OptionError, shorten
from tussle.game import document_bool, document_int, document_table, read_document

#: The most powers one document lists: each is a line of the options' help and of a report's matrix.
MAX_POWERS = 24
#: The largest modifier a power adds to (or takes from) every die of a pool: faces are 1 to 6.
MAX_MODIFIER = 3
#: What a power's name may be: a word of lower-case letters, as the split's ``+name`` is written.
POWER_NAME = re.compile(r"[a-z]{1,20}")
#: Words that name no power: ``none`` is the option's value for no power; ``+power`` and ``+super``
#: declare whatever power the fighter has.
RESERVED = ("none", "power", "super")
#: The keys of a power's table, in the order the document's comments give them.
EFFECTS = ("attack", "defence", "opponent_attack", "opponent_defence", "tactical", "swift")


@dataclass(frozen=True)
class Power:
    """One super power: the effects it has in the turn it is used."""

    name: str
    attack: int = 0
    """Added to each of the fighter's own offensive dice (Brutal: +1)."""
    defence: int = 0
    """Added to each of the fighter's own defensive dice (Tough: +1)."""
    opponent_attack: int = 0
    """Added to each of the opponent's offensive dice (Aggressive: -1)."""
    opponent_defence: int = 0
    """Added to each of the opponent's defensive dice (Fast: -1)."""
    tactical: bool = False
    """One more tactical option that turn: one anywhere, both at the tactical location (Cunning)."""
    swift: bool = False
    """Used after the placement is revealed, to move to another location, not with the split (Swift)."""

    def effects(self) -> dict[str, int | bool]:
        """The effects that are not nothing, as the document writes them."""
        return {key: getattr(self, key) for key in EFFECTS if getattr(self, key)}


def load_powers(text: str, where: str) -> MappingProxyType[str, Power]:
    """The powers a document's text lists, by name, in its order.

    Raises a one-line OptionError that starts with ``where``.
    """
    return _load(text, where)


@functools.lru_cache(maxsize=16)
def _load(text: str, where: str) -> MappingProxyType[str, Power]:
    # A server or a pool of workers builds the game anew for every computer move: the last
    # documents read are kept.
    data = document_table(read_document(text, where), where, ("power",))
    listed = data.get("power")
    if not isinstance(listed, dict) or not listed:
        raise OptionError(f"{where}: it lists no powers (a [power.NAME] table for each)")
    if len(listed) > MAX_POWERS:
        raise OptionError(f"{where}: {len(listed)} powers, more than the {MAX_POWERS} a document may list")
    powers: dict[str, Power] = {}
    for name, raw in listed.items():
        powers[name] = _power(name, raw, where)
    return MappingProxyType(powers)


def _power(name: str, raw: Any, where: str) -> Power:
    if not POWER_NAME.fullmatch(name) or name in RESERVED:
        raise OptionError(
            f"{where}: {shorten(name)} is not a power's name (1 to 20 lower-case letters, "
            f"not {', '.join(RESERVED)})"
        )
    here = f"{where}: power {name}"
    data = document_table(raw, here, EFFECTS)
    span = (-MAX_MODIFIER, MAX_MODIFIER)
    power = Power(
        name,
        attack=document_int(data, "attack", here, span),
        defence=document_int(data, "defence", here, span),
        opponent_attack=document_int(data, "opponent_attack", here, span),
        opponent_defence=document_int(data, "opponent_defence", here, span),
        tactical=document_bool(data, "tactical", here, False),
        swift=document_bool(data, "swift", here, False),
    )
    if not power.effects():
        raise OptionError(f"{here}: it has no effect (give one of {', '.join(EFFECTS)})")
    return power


def standard_text() -> str:
    """The shipped ``standard`` document: the six powers of the rules."""
    return resources.files("tussle.games.fite").joinpath("powers.toml").read_text(encoding="utf-8")


#: The six powers of the rules, as the rules applied them before powers were data.
STANDARD_POWERS: MappingProxyType[str, Power] = MappingProxyType(
    {
        "swift": Power("swift", swift=True),
        "cunning": Power("cunning", tactical=True),
        "aggressive": Power("aggressive", opponent_attack=-1),
        "brutal": Power("brutal", attack=1),
        "fast": Power("fast", opponent_defence=-1),
        "tough": Power("tough", defence=1),
    }
)
