"""tussle's files: JSON read within bounds, text written whole or not at all, with one-line errors."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from tussle.errors import TussleError, shorten
from tussle.game import MAX_DIGITS


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number of {len(text.lstrip('-')):,} digits (at most {MAX_DIGITS})")
    return int(text)


def _no_constant(text: str) -> Any:
    raise ValueError(f"{text} is not a number JSON allows")


def parse_json(text: str, error: type[TussleError] = TussleError) -> Any:
    """The data of a JSON text, or a one-line ``error`` saying why it is none.

    Numbers of more than :data:`~tussle.game.MAX_DIGITS` digits, NaN and
    Infinity, and nesting deeper than Python can follow are refused with the
    reason, never a traceback.

    >>> parse_json('{"a": [1, 2.5]}')
    {'a': [1, 2.5]}
    >>> parse_json('{"a": ' + "9" * 40 + '}')
    Traceback (most recent call last):
    tussle.errors.TussleError: not valid JSON: a number of 40 digits (at most 18)
    >>> parse_json("[" * 100000)
    Traceback (most recent call last):
    tussle.errors.TussleError: not valid JSON: nested too deeply
    """
    try:
        return json.loads(text, parse_int=_parse_int, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise error(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise error("not valid JSON: nested too deeply") from None
    except ValueError as exc:
        raise error(f"not valid JSON: {exc}") from None


def write_text(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all, or raise a one-line :class:`TussleError`.

    The text goes to a file beside it that is then renamed, so a run stopped while
    writing never leaves half a file where a whole one is expected.
    """
    target = Path(path)
    partial = target.with_name(target.name + ".partial")
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, target)
    except OSError as exc:
        raise TussleError(f"cannot write {path}: {exc.strerror or exc}") from None


#: The largest file tussle reads (a record, a ladder, a deck, a setup): far above any real one.
MAX_FILE_BYTES = 64 * 1024 * 1024


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
