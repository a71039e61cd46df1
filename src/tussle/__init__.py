"""tussle: play, study and build AI for five fighting tabletop games.

>>> import tussle
>>> game = tussle.load_game("robo-pigs")
>>> state = game.new_initial_state()
>>> state.to_act()
(0, 1)
"""

from tussle.errors import (
    ActionError,
    AgentError,
    OptionError,
    PositionError,
    RecordError,
    TussleError,
    UnknownGameError,
)
from tussle.game import (
    CHANCE,
    PUBLIC,
    Actions,
    AgentHook,
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
    Termination,
)
from tussle.record import Record
from tussle.registry import game_ids, game_info, load_game, simulation_options

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "PUBLIC",
    "ActionError",
    "Actions",
    "AgentError",
    "AgentHook",
    "ChanceMode",
    "Dynamics",
    "Game",
    "GameInfo",
    "Hooks",
    "Information",
    "ListActions",
    "Option",
    "OptionError",
    "PositionError",
    "Record",
    "RecordError",
    "Result",
    "State",
    "Termination",
    "TussleError",
    "UnknownGameError",
    "__version__",
    "game_ids",
    "game_info",
    "load_game",
    "simulation_options",
]
