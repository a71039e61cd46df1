"""Robo Battle Pigs (Randy Cox, 2001): secret five-command programs on an 8x8 board."""

from tussle.games.robo_pigs.rules import RoboPigs, RoboPigsState

__all__ = ["RoboPigs", "RoboPigsState"]
