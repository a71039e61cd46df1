"""Errors raised by tussle.

Every error carries a one-line message meant for a person: it names what was
wrong and why. The CLI prints ``str(error)`` and exits non-zero; it never shows a
traceback for a :class:`TussleError`.
"""

from __future__ import annotations


class TussleError(Exception):
    """Base class of every error tussle raises on bad input."""


class UnknownGameError(TussleError):
    """A game id that is not registered."""


class OptionError(TussleError):
    """An unknown game option or a bad option value."""


class ActionError(TussleError):
    """An action that is unknown, garbled, out of turn or illegal.

    Raising it never changes the state the action was meant for.
    """


class PositionError(TussleError):
    """A position string or setup that cannot be read or is not a legal position."""


class RecordError(TussleError):
    """A game record that cannot be read or does not replay."""


class AgentError(TussleError):
    """An unknown or badly written agent spec."""
