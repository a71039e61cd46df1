"""Errors raised by tussle.

Every error carries a one-line message meant for a person: it names what was
wrong and why. The CLI prints ``str(error)`` and exits non-zero; it never shows a
traceback for a :class:`TussleError`.
"""

from __future__ import annotations

from typing import Any


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


def shorten(value: Any, limit: int = 60) -> str:
    """``value`` for a message: text quoted, anything else as its repr, cut after ``limit`` characters.

    A message names what was wrong without repeating a huge input whole.

    >>> shorten("F ^ TR v H"), shorten(3)
    ("'F ^ TR v H'", '3')
    >>> shorten("x" * 1000, 5)
    "'xxxxx'... (1,000 characters)"
    """
    if not isinstance(value, str):
        text = repr(value)
        return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit]!r}... ({len(value):,} characters)"
