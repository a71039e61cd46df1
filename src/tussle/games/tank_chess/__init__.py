"""Tank Chess: tanks with speed, turret and directional armour on a 16x16 or 20x20 board.

``board`` holds the geometry and piece codes, ``rules`` the tanks, turns and
the game, ``notation`` the move and position notation (and the built-in setup
files under ``setups/``), ``render`` the text view.
"""

from tussle.games.tank_chess.rules import TankChess, TankChessState

__all__ = ["TankChess", "TankChessState"]
