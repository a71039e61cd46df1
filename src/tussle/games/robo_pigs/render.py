"""Text rendering of Robo Battle Pigs, built only from observation data (plain data in, text out).

A pig on the board is its letter and an arrow for its facing (``^`` north,
``>`` east, ``v`` south, ``<`` west); rank 8 is at the top, as in the rule text.
"""

from __future__ import annotations

from collections.abc import Sequence

from tussle.games.robo_pigs.observation import (
    BoardJSON,
    LastRoundJSON,
    PigJSON,
    RoboPigsObservation,
    StepJSON,
)

ARROWS = {"N": "^", "E": ">", "S": "v", "W": "<"}
FILES = "abcdefgh"
_WEAPON = {"F": "laser", "H": "fist"}


def render_board(pigs: Sequence[PigJSON], board: BoardJSON | None = None) -> list[str]:
    """The board with coordinates on all four sides; ``board`` gives another size and walls (``#``).

    >>> board = render_board([{"name": "A", "square": "d8", "facing": "S"},
    ...                       {"name": "B", "square": "e1", "facing": "N"}])
    >>> print("\\n".join(board[:2] + board[-2:]))
         a  b  c  d  e  f  g  h
      8  .  .  .  Av .  .  .  .   8
      1  .  .  .  .  B^ .  .  .   1
         a  b  c  d  e  f  g  h
    """
    cells = {pig["square"]: " " + pig["name"] + ARROWS[pig["facing"]] for pig in pigs}
    files, ranks = FILES, 8
    if board is not None:
        files, ranks = FILES[: board["width"]], board["height"]
        cells.update((wall, " # ") for wall in board["walls"])
    header = ("    " + "".join(f" {f} " for f in files)).rstrip()
    lines = [header]
    for rank in range(ranks, 0, -1):
        row = "".join(cells.get(f"{f}{rank}", " . ") for f in files)
        lines.append(f"  {rank} {row}  {rank}")
    lines.append(header)
    return lines


def render_step(number: int, step: StepJSON, names: list[str]) -> str:
    """One step of a revealed round: both commands, where the pigs ended, what happened.

    >>> step = {"commands": ["F", "\\\\"], "squares": ["d8", "d2"], "facings": ["S", "N"],
    ...         "damage": [0, 1], "hit": [False, True], "moved": [False, True], "blocked": [None, None]}
    >>> render_step(1, step, ["A", "B"])
    'step 1   A: F     B: \\\\     A d8 S   B d2 N   B hit by laser, damage 1'
    """
    commands = "   ".join(f"{name}: {cmd:<3}" for name, cmd in zip(names, step["commands"], strict=True))
    where = "   ".join(
        f"{name} {sq} {facing}"
        for name, sq, facing in zip(names, step["squares"], step["facings"], strict=True)
    )
    events = []
    for p, name in enumerate(names):
        other = names[1 - p]
        blocked = step["blocked"][p]
        if blocked == "edge":
            events.append(f"{name} blocked by the edge")
        elif blocked == "wall":
            events.append(f"{name} blocked by a wall")
        elif blocked == "pig":
            events.append(f"{name} blocked by {other}")
    for p, name in enumerate(names):
        weapon = _WEAPON.get(step["commands"][1 - p])
        if step["hit"][p]:
            events.append(f"{name} hit by {_WEAPON[step['commands'][1 - p]]}, damage {step['damage'][p]}")
        elif weapon:
            events.append(f"{names[1 - p]}'s {weapon} misses")
    note = "   " + ", ".join(events) if events else ""
    return f"step {number}   {commands}   {where}{note}"


def render_last_round(last: LastRoundJSON, pigs: Sequence[PigJSON]) -> list[str]:
    """The programs of the round just played and its steps, one line each."""
    names = [p["name"] for p in pigs]
    programs = "    ".join(f"{name}: {prog}" for name, prog in zip(names, last["programs"], strict=True))
    lines = [f"Round {last['round']} revealed    {programs}"]
    lines += ["  " + render_step(i, step, names) for i, step in enumerate(last["steps"], 1)]
    for p, name in enumerate(names):
        if last["repaired"][p]:
            lines.append(
                f"  {name} repaired one point: damage {last['damage_before'][p]} before the round,"
                f" {pigs[p]['damage']} now"
            )
    return lines


def _program_hint(obs: RoboPigsObservation, damage: int) -> str:
    """What the player may write now, for a person at the terminal."""
    extra_x = obs["options"]["extra_x"]
    steps = obs["options"].get("program_length", 5)
    damage = min(damage, steps)  # the X owed fill a short program at most
    if damage == 0:
        xs = "any number of X" if extra_x else "no X"
    elif extra_x:
        xs = f"at least {damage} X"
    else:
        xs = f"exactly {damage} X"
    repair = f", or {' '.join('R' * steps)} to repair one point" if damage > 0 else ""
    return f"Your move: write {steps} commands from ^ v \\ / TL TR F H with {xs}{repair}."


def render_observation(obs: RoboPigsObservation, pending: Sequence[str | None] | None = None) -> str:
    """A readable view: round, the pigs, the board, the last round step by step, and what is pending.

    ``pending`` is both pigs' sent programs (None: still writing), for the view of
    :meth:`RoboPigsState.render`, which shows every secret; a seat's view has none.

    >>> from tussle import load_game
    >>> print(render_observation(load_game("robo-pigs").new_initial_state().observation(0)))
    ... # doctest: +ELLIPSIS
    Robo Battle Pigs, round 1
      pig A   d8 facing S   damage 0   (you)
      pig B   e1 facing N   damage 0
    ...
    Your move: write 5 commands from ^ v \\ / TL TR F H with no X.
    """
    pigs = obs["pigs"]
    names = [p["name"] for p in pigs]
    player = obs["player"]
    last = obs["last_round"]
    result = obs["result"]
    if not result:
        lines = [f"Robo Battle Pigs, round {obs['round']}"]
    else:
        lines = ["Robo Battle Pigs, game over" + (f" in round {last['round']}" if last else "")]
    for p, pig in enumerate(pigs):
        you = "   (you)" if p == player else ""
        lines.append(
            f"  pig {pig['name']}   {pig['square']} facing {pig['facing']}   damage {pig['damage']}{you}"
        )
    lines.append("")
    lines += render_board(pigs, obs.get("board"))
    lines.append("  (^ north, > east, v south, < west)")
    if last:
        lines.append("")
        lines += render_last_round(last, pigs)
        if result and len(last["steps"]) < obs["options"].get("program_length", 5):
            lines.append(
                f"  The game ended at step {len(last['steps'])}; the rest of the round was not played."
            )
    lines.append("")
    if result:
        if result["winner"] is None:
            lines.append(f"Game over: a draw ({result['reason']}).")
        else:
            lines.append(f"Game over: pig {names[result['winner']]} wins ({result['reason']}).")
    elif pending is not None:
        shown = "    ".join(
            f"{name}: {prog or '(writing)'}" for name, prog in zip(names, pending, strict=True)
        )
        lines.append(f"Programs so far: {shown}")
    elif obs["my_program"]:
        lines.append(f"Your program: {obs['my_program']}   (waiting for the other pig)")
    elif player in (0, 1):
        lines.append(_program_hint(obs, pigs[player]["damage"]))
    return "\n".join(lines)
