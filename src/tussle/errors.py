"""Errors raised by tussle.

Every error carries a one-line message meant for a person: it names what was
wrong and why. The CLI prints ``str(error)`` and exits non-zero; it never shows a
traceback for a :class:`TussleError`.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

#: The largest file tussle reads (a record, a ladder, a deck, a setup): far above any real one.
MAX_FILE_BYTES = 64 * 1024 * 1024


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


# Not yet with the rest of the file handling in tussle.files: tussle.server.documents imports it from here.
def read_text(path: str | Path, error: type[TussleError] = TussleError, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of the regular file at ``path``, or a one-line ``error`` naming it.

    Anything but a regular file (a device such as /dev/zero, a FIFO, a folder)
    and a file over ``limit`` bytes are refused before reading, so that a
    mistaken path can neither exhaust memory nor block.

    >>> read_text("no-such-file.json")
    Traceback (most recent call last):
    tussle.errors.TussleError: cannot read no-such-file.json: No such file or directory
    >>> read_text("/dev/null")
    Traceback (most recent call last):
    tussle.errors.TussleError: cannot read /dev/null: not a regular file
    """
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise error(f"cannot read {path}: not a regular file")
        if info.st_size > limit:
            raise error(f"cannot read {path}: {info.st_size:,} bytes, more than the {limit:,} allowed")
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise error(f"cannot read {path}: not UTF-8 text") from None
    except (UnicodeEncodeError, ValueError) as exc:  # a NUL or a lone surrogate in the name
        raise error(f"cannot read {shorten(str(path))}: not a file name ({exc})") from None
