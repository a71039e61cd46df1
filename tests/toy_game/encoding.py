"""The dice race's integer actions (roll 0, hold 1; die faces 0..5) and observation arrays."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toy_game.rules import HOLD, ROLL
from tussle.adapters.encoding import ActionCodec, Features, FloatArray, GameEncoding, frac, hot
from tussle.game import Game


class DiceRaceCodec(ActionCodec):
    """``roll`` and ``hold``; a chance outcome is its face less one.

    >>> codec = DiceRaceCodec()
    >>> codec.encode("hold"), codec.encode_chance("6"), codec.label(0)
    (1, 5, 'roll')
    """

    num_actions = 2
    num_chance = 6
    WORDS = (ROLL, HOLD)

    def _encode(self, text: str) -> int:
        return self.WORDS.index(text)

    def _encode_chance(self, text: str) -> int:
        return int(text) - 1

    def label(self, index: int) -> str:
        return self.WORDS[index]

    def chance_label(self, index: int) -> str:
        return str(index + 1)


class DiceRaceFeatures(Features):
    """Per player (own first): the score as a fraction of the target; then whose turn, the pot, rolling."""

    def __init__(self, players: int, target: int) -> None:
        self.players = players
        self.target = target
        self.size = 2 * players + 2

    def write(self, obs: Mapping[str, Any], player: int, out: FloatArray) -> None:
        n = self.players
        for k in range(n):
            out[k] = frac(obs["scores"][(player + k) % n], self.target)
        hot(out, n, (obs["turn"] - player) % n, n)
        out[2 * n] = frac(obs["pot"], self.target)
        out[2 * n + 1] = float(bool(obs["rolling"]))


def encoding(game: Game) -> GameEncoding:
    """The dice race's encoding (its ``GameInfo.hooks.encoding``)."""
    return GameEncoding(
        game, DiceRaceCodec(), DiceRaceFeatures(game.num_players, int(game.options["target"]))
    )
