"""Reading the content documents of the games (FITE's powers, Robo Battle Pigs' boards): TOML or JSON.

A content document is a game option's value (a ``document`` option): the text
itself, never a file's name, checked whole when the game is made. Every problem
is one :class:`~tussle.errors.OptionError` line that starts with where the
document came from (``option powers``) and names the key that is wrong.

>>> data = read_document('{"power": {"huge": {"attack": 2}}}', "option powers")
>>> table(data, "option powers", ("power",))["power"]
{'huge': {'attack': 2}}
>>> integer({"attack": 9}, "attack", "option powers: power huge", (-3, 3))
Traceback (most recent call last):
...
tussle.errors.OptionError: option powers: power huge: attack is 9, not -3 to 3
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Mapping
from typing import Any

from tussle.errors import OptionError, shorten

#: How deep a content document may nest its tables and lists (the real ones: 3).
MAX_NESTING = 8


def read_document(text: str, where: str) -> dict[str, Any]:
    """The table a document's text holds: JSON when it starts with ``{`` (no TOML does), else TOML."""
    try:
        if text.lstrip().startswith("{"):
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise OptionError(
                    f"{where}: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
                ) from None
        else:
            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError as exc:
                raise OptionError(f"{where}: not valid TOML: {exc}") from None
            except ValueError as exc:  # an integer of thousands of digits
                raise OptionError(f"{where}: not valid TOML: {shorten(str(exc))}") from None
    except RecursionError:
        raise OptionError(f"{where}: nested too deeply") from None
    if not isinstance(data, dict):
        raise OptionError(f"{where}: the document must hold a table (TOML, or a JSON object)")
    if _depth(data) > MAX_NESTING:
        raise OptionError(f"{where}: nested more than {MAX_NESTING} levels deep (the limit)")
    return data


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def table(value: Any, where: str, allowed: Iterable[str]) -> dict[str, Any]:
    """``value`` as a table whose keys are all ``allowed`` (a one-line error naming the first other)."""
    if not isinstance(value, dict):
        raise OptionError(f"{where}: {shorten(value)} is not a table")
    known = tuple(allowed)
    for key in value:
        if key not in known:
            raise OptionError(f"{where}: unknown key {shorten(key)} (keys: {', '.join(known)})")
    return value


def integer(data: Mapping[str, Any], key: str, where: str, span: tuple[int, int], default: int = 0) -> int:
    """``data[key]``, an integer from ``span[0]`` to ``span[1]`` (``default`` when it is not given)."""
    value: object = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(f"{where}: {key} is {shorten(value)}, not an integer")
    low, high = span
    if not low <= value <= high:
        raise OptionError(f"{where}: {key} is {value}, not {low} to {high}")
    return value


def boolean(data: Mapping[str, Any], key: str, where: str, default: bool) -> bool:
    """``data[key]``, true or false (``default`` when it is not given)."""
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise OptionError(f"{where}: {key} is {shorten(value)}, not true or false")
    return value
