"""Text rendering of Robo Battle Pigs from an observation (plain data in, text out)."""

from __future__ import annotations

from typing import Any

_ARROW = {"N": "^", "E": ">", "S": "v", "W": "<"}


def render_board(pigs: list[dict[str, Any]]) -> list[str]:
    """The board with coordinates; each pig is its letter and an arrow for its facing."""
    cells = {pig["square"]: pig["name"] + _ARROW[pig["facing"]] for pig in pigs}
    files = "abcdefgh"
    lines = ["    " + "  ".join(files)]
    for rank in range(8, 0, -1):
        row = " ".join(cells.get(f"{f}{rank}", " .") for f in files)
        lines.append(f" {rank} {row}  {rank}")
    lines.append("    " + "  ".join(files))
    return lines


def render_observation(obs: dict[str, Any]) -> str:
    """A readable view: round, damage, the board, and the last round's programs."""
    pigs = obs["pigs"]
    lines = [
        f"Round {obs['round']}    "
        + "    ".join(f"{p['name']}: {p['damage']} damage" for p in pigs)
    ]
    lines += render_board(pigs)
    last = obs.get("last_round")
    if last:
        lines.append(
            "Last round: " + "   ".join(f"{p['name']}: {prog}" for p, prog in zip(pigs, last["programs"], strict=True))
        )
        for i, step in enumerate(last["steps"], 1):
            hits = [pigs[p]["name"] for p in (0, 1) if step["hit"][p]]
            note = f"  hit: {', '.join(hits)}" if hits else ""
            lines.append(f"  step {i}: {' / '.join(step['commands'])}{note}")
    if obs.get("my_program"):
        lines.append(f"Your program: {obs['my_program']} (waiting for the other pig)")
    pending = obs.get("pending")
    if pending:
        lines.append("Pending: " + "   ".join(f"{p['name']}: {prog or '-'}" for p, prog in zip(pigs, pending, strict=True)))
    result = obs.get("result")
    if result:
        if result["winner"] is None:
            lines.append(f"Draw: {result['reason']}")
        else:
            lines.append(f"Pig {pigs[result['winner']]['name']} wins: {result['reason']}")
    return "\n".join(lines)
