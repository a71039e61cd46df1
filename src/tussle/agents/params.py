"""An agent's parameters: declared as :class:`Param`, read from a spec with :func:`parse_params`.

An agent spec such as ``mcts:iterations=2000,c=1.4`` gives parameters as text;
each agent declares the ones it takes (its ``PARAMS``), and the agent base
class reads and checks them for every agent the same way, with the same
one-line errors.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from tussle.errors import AgentError


@dataclass(frozen=True)
class Param:
    """One agent parameter: its kind (``int``, ``float``, ``choice`` or ``text``), default and help."""

    kind: str
    default: Any
    help: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()

    def parse(self, spec: str, key: str, text: str) -> Any:
        """``text`` converted and checked, or a one-line :class:`AgentError` naming ``key``."""
        where = f"agent {spec!r}: {key}={text!r}"
        if self.kind == "text":
            return text
        if self.kind == "choice":
            if text not in self.choices:
                raise AgentError(f"{where} is not one of {', '.join(self.choices)}")
            return text
        value: float
        try:
            value = int(text) if self.kind == "int" else float(text)
        except ValueError:
            kind = "a whole number" if self.kind == "int" else "a number"
            raise AgentError(f"{where} is not {kind}") from None
        if not math.isfinite(value):
            raise AgentError(f"{where} is not a finite number")
        if self.minimum is not None and value < self.minimum:
            raise AgentError(f"agent {spec!r}: {key}={text} is below the minimum {_num(self.minimum)}")
        if self.maximum is not None and value > self.maximum:
            raise AgentError(f"agent {spec!r}: {key}={text} is above the maximum {_num(self.maximum)}")
        return value


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def parse_params(spec: str, known: dict[str, Param], given: dict[str, str] | None) -> dict[str, Any]:
    """Every parameter in ``known`` with its value: from ``given`` if there, else its default.

    >>> parse_params("x", {"c": Param("float", 1.0, "exploration")}, {"c": "2"})
    {'c': 2.0}
    >>> parse_params("x", {"c": Param("float", 1.0, "exploration")}, {"k": "2"})
    Traceback (most recent call last):
    tussle.errors.AgentError: agent 'x': unknown parameter 'k' (x takes only c)
    """
    values = {key: param.default for key, param in known.items()}
    for key, text in (given or {}).items():
        if key not in known:
            raise AgentError(unknown_parameter(spec, known, key))
        values[key] = known[key].parse(spec, key, text)
    return values


def unknown_parameter(spec: str, known: dict[str, Param], key: str, name: str = "") -> str:
    """Why ``key`` is refused by an agent that takes the parameters ``known``, naming them.

    ``name`` is the agent's name in ``spec`` (``spec`` itself when not given).

    >>> unknown_parameter("random:x=1", {}, "x", "random")
    "agent 'random:x=1': random takes no parameters (got 'x')"
    >>> unknown_parameter("human:colour=red", {"name": Param("text", None, "")}, "colour", "human")
    "agent 'human:colour=red': unknown parameter 'colour' (human takes only name)"
    """
    name = name or spec
    if not known:
        return f"agent {spec!r}: {name} takes no parameters (got {key!r})"
    if len(known) == 1:
        return f"agent {spec!r}: unknown parameter {key!r} ({name} takes only {next(iter(known))})"
    return f"agent {spec!r}: unknown parameter {key!r} (parameters: {', '.join(known)})"
