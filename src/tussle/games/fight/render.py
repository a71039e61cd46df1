"""Text rendering of Fight! from an observation (plain data in, text out)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tussle.games.fight.observation import FightObservation


def card_text(card: Mapping[str, Any]) -> str:
    """A Warrior as its name, family and power, or as its back (family only).

    >>> card_text({"name": "Grizzle", "family": "Animal", "power": 20, "ability": "x"})
    'Grizzle (Animal 20)'
    >>> card_text({"family": "Robot"})
    '[Robot]'
    """
    if "name" not in card:
        return f"[{card['family']}]"
    return f"{card['name']} ({card['family']} {card['power']})"


def _arena_text(arena: Mapping[str, Any]) -> str:
    return f"{arena['name']} ({arena['glory']} Glory): {arena['condition']}"


def _cards(cards: Sequence[Mapping[str, Any]]) -> str:
    return ", ".join(card_text(c) for c in cards) if cards else "-"


def _effect_text(effect: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]) -> str:
    kind = effect["kind"]
    if kind == "power":
        return f"p{effect['seat']} {effect['from']} -> {effect['to']}"
    if kind == "killed":
        return f"p{effect['seat']}'s {effect['warrior']} killed"
    if kind == "drew":
        drawn = effect["scored"] + effect["graveyard"]
        kept = ", ".join(effect["scored"]) or "none"
        return f"drew {', '.join(drawn) or 'nothing'}, scored {kept}"
    victim = effect["seat"]
    boost = seats[victim]["boost"]
    return f"took p{victim}'s Boost {card_text(boost)}" if boost else f"took p{victim}'s Boost"


def last_fight_lines(last: Mapping[str, Any]) -> list[str]:
    """How the last Fight ended: each Main's final power, what each Boost did, who took the Arena.

    >>> last = {
    ...     "fight": 2, "arena": {"name": "Pit", "glory": 7, "condition": "Closest to 25 wins"},
    ...     "winner": 1, "glory": 7,
    ...     "seats": [
    ...         {"seat": 0, "main": {"name": "Tiger", "family": "Animal", "power": 20, "final_power": 10,
    ...                              "killed": False},
    ...          "boost": {"family": "Human", "activated": False, "scored_by": 0}},
    ...         {"seat": 1, "main": {"name": "Bot", "family": "Robot", "power": 29, "final_power": 24,
    ...                              "killed": False},
    ...          "boost": {"name": "Imp", "family": "Demon", "power": 2, "ability": "-5 to all",
    ...                    "activated": True, "scored_by": None, "target": None,
    ...                    "effects": [{"kind": "power", "seat": 1, "from": 29, "to": 24}]}},
    ...     ],
    ... }
    >>> print("\\n".join(last_fight_lines(last)))
    Fight 2 ended: Pit (7 Glory): Closest to 25 wins; p1 took 7 Glory
      p0: Main Tiger (Animal 20), final power 10; Boost [Human] scored
      p1: Main Bot (Robot 29), final power 24; Boost Imp (Demon 2) activated (-5 to all): p1 29 -> 24
    """
    took = "nobody took it" if last["winner"] is None else f"p{last['winner']} took {last['glory']} Glory"
    lines = [f"Fight {last['fight']} ended: {_arena_text(last['arena'])}; {took}"]
    for seat in last["seats"]:
        q = seat["seat"]
        main = seat["main"]
        if main is None:
            mtext = "no Main Warrior"
        elif main["killed"]:
            mtext = f"Main {card_text(main)}, killed at {main['final_power']}"
        else:
            mtext = f"Main {card_text(main)}, final power {main['final_power']}"
        boost = seat["boost"]
        if boost is None:
            btext = "no Boost"
        elif boost["activated"]:
            on = f" on p{boost['target']}" if boost["target"] is not None else ""
            did = "; ".join(_effect_text(e, last["seats"]) for e in boost["effects"]) or "nothing changed"
            btext = f"Boost {card_text(boost)} activated{on} ({boost['ability']}): {did}"
            if boost["scored_by"] is not None:
                btext += f"; then scored by p{boost['scored_by']}"
        elif boost["scored_by"] == q:
            btext = f"Boost {card_text(boost)} scored"
        else:
            btext = f"Boost {card_text(boost)} taken by p{boost['scored_by']}"
        lines.append(f"  p{q}: {mtext}; {btext}")
    return lines


def render_observation(obs: FightObservation) -> str:
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
    if obs["last_fight"]:
        lines += last_fight_lines(obs["last_fight"])
    result = obs["result"]
    if result:
        lines.append(("Draw: " if result["winner"] is None else "Game over: ") + result["reason"])
    return "\n".join(lines)
