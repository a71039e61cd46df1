"""Errors raised by tussle.

Every error carries a one-line message meant for a person: it names what was
wrong and why. The CLI prints ``str(error)`` and exits non-zero; it never shows a
traceback for a :class:`TussleError`.
"""

from __future__ import annotations

from pathlib import Path


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


def read_text(path: str | Path, error: type[TussleError] = TussleError) -> str:
    """The UTF-8 text of the file at ``path``, or a one-line ``error`` naming it.

    >>> read_text("no-such-file.json")
    Traceback (most recent call last):
    tussle.errors.TussleError: cannot read no-such-file.json: No such file or directory
    """
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise error(f"cannot read {path}: not UTF-8 text") from None
