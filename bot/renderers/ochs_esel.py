"""How an Ochs & Esel table reads in chat."""

from typing import Any

from bot.i18n import count, t
from bot.render import Button
from bot.renderers.generic import MAX_MOVE_BUTTONS, cards_text, player_name
from engine.core.types import Move
from engine.ochs_esel import LONE_JOKER_VALUE


def _animal(code: str, lang: str) -> str:
    return t(lang, f"animal.{code}")


def _trick_lines(trick: dict[str, Any], names: list[str], lang: str) -> list[str]:
    lines = []
    if trick["plays"] and trick["kind"] != "normal":
        lines.append(t(lang, "oe.trick", number=trick["number"],
                       kind=t(lang, f"oe.kind.{trick['kind']}")))
    elif trick["plays"]:
        best: list[str] = next((p["cards"] for p in reversed(trick["plays"]) if p["cards"]), [])
        lines.append(t(lang, "oe.trick", number=trick["number"],
                       kind=t(lang, "oe.trick_normal", count=count(lang, "card", trick["count"]),
                              best=cards_text(best))))
    else:
        lines.append(t(lang, "oe.trick", number=trick["number"], kind=t(lang, "oe.trick_lead")))
    for play in trick["plays"]:
        name = player_name(play["seat"], names)
        lines.append("   " + (t(lang, "oe.play", name=name, cards=cards_text(play["cards"]))
                              if play["cards"] else t(lang, "oe.pass", name=name)))
    return lines


def public_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    lines = [t(lang, "table_round", round=view["round"], rounds=view["rounds"])]
    if view["to_act"]:  # once the game is over, no trick waits for anyone
        lines.extend(_trick_lines(view["trick"], names, lang))
    # Both animals in one place are said once: "In the middle: the donkey and the ox".
    groups: dict[tuple[str, Any], list[str]] = {}
    for code, where in view["animals"].items():
        key = {"hand": "oe.animal_hand", "middle": "oe.animal_middle",
               "trick": "oe.animal_trick", "pile": "oe.animal_pile"}.get(where["place"])
        if key:
            groups.setdefault((key, where["seat"]), []).append(_animal(code, lang))
    places = []
    for (key, seat), animals in groups.items():
        animal = animals[0] if len(animals) == 1 else t(lang, "oe.both", first=animals[0],
                                                         second=animals[1])
        places.append(t(lang, key, animal=animal,
                        name=player_name(seat, names) if seat is not None else ""))
    if places:
        lines.append(" · ".join(places))
    to_act = set(view["to_act"])
    for seat, size in enumerate(view["hand_sizes"]):
        pile = view["ox_pile_sizes"][seat]
        lines.append(t(lang, "oe.seat", marker="▶ " if seat in to_act else "   ",
                       name=player_name(seat, names), cards=count(lang, "card", size),
                       score=view["scores"][seat],
                       pile=t(lang, "oe.pile", size=count(lang, "card", pile)) if pile
                       else ""))
    return lines


def hand_lines(view: dict[str, Any], lang: str) -> list[str]:
    hand = view.get("hand", [])
    lines = [t(lang, "hand_cards", cards=cards_text(hand)) if hand else t(lang, "hand_empty")]
    for code in ("D", "O"):
        if code in hand:  # with what it will cost: the reason to get rid of it
            lines.append(t(lang, f"oe.holding.{code}"))
    if view.get("ox_pile"):
        lines.append(t(lang, "oe.own_pile", cards=cards_text(view["ox_pile"]),
                       points=count(lang, "score.ochs-esel", view.get("ox_pile_points", 0))))
    if view.get("seat") in view.get("to_act", []) and hand:
        # Edited on this seat's turns: what to beat is decided from this message.
        lines.append(_task(view["trick"], lang))
    return lines


def _task(trick: dict[str, Any], lang: str) -> str:
    if trick["kind"] != "normal":
        return t(lang, "oe.hand_animal", kind=t(lang, f"oe.hand_kind.{trick['kind']}"))
    best: list[str] = next((p["cards"] for p in reversed(trick["plays"]) if p["cards"]), [])
    if not best:
        return t(lang, "oe.hand_lead")
    if (trick.get("best_value") or 0) >= LONE_JOKER_VALUE:  # jokers alone: nothing beats them
        return t(lang, "oe.hand_beat_unbeatable", best=cards_text(best))
    return t(lang, "oe.hand_beat", best=cards_text(best),
             count=count(lang, "card", trick["count"]))


def move_buttons(view: dict[str, Any], moves: list[Move], lang: str) -> tuple[list[Button], int]:
    """Passing first, then sets without jokers (what one usually plays), then joker sets."""
    passes = [m for m in moves if str(m) == "pass"]
    plays = [m for m in moves if str(m) != "pass"]
    plain = [m for m in plays if "J" not in str(m).split()]
    jokers = [m for m in plays if m not in plain]
    ordered = plain + jokers
    room = MAX_MOVE_BUTTONS - len(passes)
    buttons = [Button(t(lang, "btn_pass"), "m:pass", "danger") for _ in passes]
    buttons += [Button(str(m)[5:], f"m:{m}", "primary") for m in ordered[:room]]
    return buttons, max(0, len(ordered) - room)


def describe(game_id: str, ev: dict[str, Any], names: list[str], lang: str) -> str | None:
    from bot.renderers import generic

    if ev.get("type") == "took_ox_trick" and isinstance(ev.get("penalty"), int):
        ev = {**ev, "penalty": count(lang, "score.ochs-esel", ev["penalty"])}
    if "animal" in ev:
        ev = {**ev, "animal": _animal(ev["animal"], lang)}
    if ev.get("type") == "led_animal":
        ev = {**ev, "animal": _animal(ev["cards"][0], lang)}
    return generic.describe(game_id, ev, names, lang)
