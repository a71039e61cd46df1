"""An agent's parameters: declared as :class:`Param`, read from a spec with :func:`parse_params`.

An agent spec such as ``mcts:iterations=2000,c=1.4`` gives parameters as text;
each agent declares the ones it takes, and every agent reads and checks them
the same way, with the same one-line errors.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from tussle.errors import AgentError


@dataclass(frozen=True)
class Param:
    """One agent parameter: its kind (``int``, ``float`` or ``choice``), default and help."""

    kind: str
    default: Any
    help: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()

    def parse(self, spec: str, key: str, text: str) -> Any:
        """``text`` converted and checked, or a one-line :class:`AgentError` naming ``key``."""
        where = f"agent {spec!r}: {key}={text!r}"
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
    tussle.errors.AgentError: agent 'x': unknown parameter 'k' (parameters: c)
    """
    values = {key: param.default for key, param in known.items()}
    for key, text in (given or {}).items():
        if key not in known:
            raise AgentError(f"agent {spec!r}: unknown parameter {key!r} (parameters: {', '.join(known)})")
        values[key] = known[key].parse(spec, key, text)
    return values
