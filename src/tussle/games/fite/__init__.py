"""FITE (Catzeyes Entertainment): hidden placement and dice splits, rolls, super powers, FINISH HIM."""

from tussle.games.fite.rules import Fite, FiteState

__all__ = ["Fite", "FiteState"]
