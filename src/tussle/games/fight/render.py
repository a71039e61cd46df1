"""Text rendering of Fight! from an observation (plain data in, text out)."""

from __future__ import annotations

from typing import Any


def card_text(card: dict[str, Any]) -> str:
    """A Warrior as its name, family and power, or as its back (family only).

    >>> card_text({"name": "Grizzle", "family": "Animal", "power": 20, "ability": "x"})
    'Grizzle (Animal 20)'
    >>> card_text({"family": "Robot"})
    '[Robot]'
    """
    if "name" not in card:
        return f"[{card['family']}]"
    return f"{card['name']} ({card['family']} {card['power']})"


def _arena_text(arena: dict[str, Any]) -> str:
    return f"{arena['name']} ({arena['glory']} Glory): {arena['condition']}"


def _cards(cards: list[dict[str, Any]]) -> str:
    return ", ".join(card_text(c) for c in cards) if cards else "-"


def render_observation(obs: dict[str, Any]) -> str:
    """A readable view of the table, with the hands the viewer may see.

    >>> from tussle.games.fight.rules import Fight
    >>> print(render_observation(Fight().new_initial_state().observation(0)).splitlines()[0])
    Fight 1 of 7    1st player: p0    (chance to act)
    """
    lines = []
    to_act = obs["to_act"]
    who = "chance" if to_act == [-1] else ", ".join(f"p{p}" for p in to_act) or "nobody"
    lines.append(
        f"Fight {obs['fight']} of {obs['fights']}    1st player: p{obs['first_player']}    ({who} to act)"
    )
    if obs["arena"]:
        lines.append("Arena: " + _arena_text(obs["arena"]))
    for arena in obs["upcoming_arenas"]:
        lines.append("  then: " + _arena_text(arena))
    reserves = obs["reserves"]
    top = f", top card's back: {reserves['top_family']}" if reserves["top_family"] else ""
    lines.append(f"Reserves: {reserves['count']} Warriors{top}")
    lines.append(f"Graveyard: {_cards(obs['graveyard'])}")
    if obs["last_main_family"]:
        lines.append(f"Family of the last Main Warrior played: {obs['last_main_family']}")
    if obs["drawn"]:
        lines.append(f"Drawn by an ability: {_cards(obs['drawn'])}")
    for seat in obs["seats"]:
        q = seat["seat"]
        me = " (you)" if q == obs["player"] else ""
        won = len(seat["arenas"])
        lines.append(f"p{q}{me}: {seat['glory']} Glory, Arenas won: {won}, scored: {_cards(seat['scored'])}")
        known = [c for c in seat["hand"] if "name" in c]
        if known:
            # Cards the viewer may read are listed with their abilities, to choose a Boost.
            lines.append("    hand:")
            lines += [f"      {card_text(c)}: {c['ability']}" for c in known]
        else:
            lines.append(f"    hand: {_cards(seat['hand'])}")
        main = seat["main"]
        if main is not None:
            text = card_text(main)
            if main["current_power"] != main["power"]:
                text += f", power now {main['current_power']}"
            boost = seat["boost"]
            if boost is None:
                btext = "none"
            elif boost["activated"]:
                btext = f"{card_text(boost)} activated: {boost['ability']}"
            elif "name" in boost:
                btext = f"face down {card_text(boost)}: {boost['ability']}"
            else:
                btext = f"face down {card_text(boost)}"
            lines.append(f"    Main: {text}    Boost: {btext}")
    if obs["killed"]:
        lines.append("Killed this Fight: " + ", ".join(obs["killed"]))
    if obs["leader"] is not None:
        lines.append(f"Taking the Arena now: p{obs['leader']}")
    last = obs["last_fight"]
    if last:
        winner = "nobody" if last["winner"] is None else f"p{last['winner']}"
        lines.append(f"Last Fight ({last['fight']}, {last['arena']}): won by {winner}")
    result = obs["result"]
    if result:
        lines.append(("Draw: " if result["winner"] is None else "Game over: ") + result["reason"])
    return "\n".join(lines)
