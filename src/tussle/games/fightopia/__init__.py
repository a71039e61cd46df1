"""Fightopia (James Ernest and Mike Selinker, Cheapass Games): Pawns, Tanks and Giants on a chessboard."""

from tussle.games.fightopia.rules import START, Fightopia, FightopiaState

__all__ = ["START", "Fightopia", "FightopiaState"]
