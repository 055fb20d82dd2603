"""How a table of The Game reads in chat: the four piles come first, since every
decision is about their tops ("supérieure à celle au sommet ... ou exactement
inférieure de 10"), then the turn's minimum and the draw pile that sets it."""

from typing import Any

from bot.i18n import count, t
from bot.render import Button
from bot.renderers import generic
from bot.renderers.generic import player_name
from engine.core.types import Move
from engine.the_game import ASCENDING, PILES, SMALL, STOP, Plays, Signal

MAX_BUTTONS = 20  # 4 rows of 5 on Discord; the fifth row holds the signal buttons
# Each pile's signal button offers the next step: ask "don't play", then "no big jump",
# then withdraw. The marks are the same on the table, with a legend under the hand.
SIGNAL_MARKS = {STOP: "✋", SMALL: "⚠"}
WITHDRAW_MARK = "↩"


def _ascending(pile: str) -> bool:
    return ASCENDING[PILES.index(pile)]


def piles_text(piles: dict[str, int]) -> str:
    """`A1 ↑ 37 · A2 ↑ 12 · D1 ↓ 88 · D2 ↓ 100`: the arrow is the way cards must go."""
    return " · ".join(f"{pile} {'↑' if _ascending(pile) else '↓'} {piles[pile]}"
                      for pile in PILES if pile in piles)


def public_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    lines = [piles_text(view["piles"])]
    if view["draw_size"]:
        lines.append(t(lang, "tg.draw", size=count(lang, "card", view["draw_size"]),
                       turn=view["turn"]))
    else:
        lines.append(t(lang, "tg.draw_empty", turn=view["turn"]))
    if view["over"]:
        lines.append(t(lang, "tg.won") if view["won"] else
                     t(lang, "tg.lost", score=count(lang, "card",
                                                  view["scores"][0] if view["scores"] else 0)))
    elif view.get("minimum") is not None:
        lines.append(t(lang, "tg.need", minimum=view["minimum"], played=view["played"]))
    to_act = set(view["to_act"])
    for seat, size in enumerate(view["hand_sizes"]):
        lines.append(t(lang, "tg.seat", marker="▶ " if seat in to_act else "   ",
                       name=player_name(seat, names), cards=count(lang, "card", size)))
    if not view["over"]:
        lines += signal_lines(view, names, lang)
    return lines


def signal_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """Who asked what on which pile: one line per pile and kind of request."""
    lines = []
    for pile in PILES:
        said = view.get("signals", {}).get(pile, [])
        for kind in (STOP, SMALL):
            who = [player_name(seat, names) for seat, k in enumerate(said) if k == kind]
            if who:
                lines.append(t(lang, f"tg.signal.{kind}", pile=pile, names=", ".join(who)))
    return lines


def hand_lines(view: dict[str, Any], lang: str) -> list[str]:
    """The hand, and on one's turn the piles again: the player decides from this message.

    The piles only while it is this seat's turn: the message is edited on its turns and
    when its hand changes, so piles shown at other times would go stale.
    """
    hand = sorted(view.get("hand", []), key=int)
    lines = [t(lang, "hand_cards", cards=" ".join(hand)) if hand else t(lang, "hand_empty")]
    if view.get("seat") in view.get("to_act", []):
        lines.append(piles_text(view["piles"]))
        if view.get("minimum") is not None:
            lines.append(t(lang, "tg.your_turn", played=view["played"],
                           minimum=view["minimum"]))
    if not view.get("over"):
        lines.append(t(lang, "tg.signal_legend"))
    return lines


def talk_buttons(view: dict[str, Any], lang: str) -> list[Button]:
    """One button per pile, the next step of this seat's signal there (none → ✋ → ⚠ → ↩).

    Its action is `s:` (say), not `m:`: a signal means the same whatever happened since
    the hand was drawn, so an older hand message's signal buttons keep working.
    """
    if view.get("over") or "seat" not in view:
        return []
    seat = view["seat"]
    buttons = []
    for pile in PILES:
        said = view.get("signals", {}).get(pile, [])
        mine = said[seat] if seat < len(said) else None
        following = {None: STOP, STOP: SMALL, SMALL: None}[mine]
        mark = SIGNAL_MARKS[following] if following else WITHDRAW_MARK
        style = "secondary" if following else "danger"
        buttons.append(Button(f"{mark} {pile}", f"s:{Signal(pile, following)}", style))
    return buttons


def _gap(card: int, pile: str, top: int) -> int:
    """How much of the pile's range the play uses up; a jump gives 10 back (negative)."""
    return card - top if _ascending(pile) else top - card


def move_label(view: dict[str, Any], move: Move, lang: str) -> str:
    if not isinstance(move, Plays):
        return t(lang, "tg.btn_end")
    card, pile = move.plays[0]
    return f"{card}→{pile}" + (" ↺" if _gap(card, pile, view["piles"][pile]) < 0 else "")


def move_buttons(view: dict[str, Any], moves: list[Move], lang: str) -> tuple[list[Button], int]:
    """Backward jumps first (they give a pile range back), then the smallest gaps."""
    piles = view["piles"]
    ends = [m for m in moves if not isinstance(m, Plays)]
    plays: list[tuple[int, int, Move, str]] = []
    for move in moves:
        if not isinstance(move, Plays):
            continue
        card, pile = move.plays[0]
        plays.append((_gap(card, pile, piles[pile]), card, move, move_label(view, move, lang)))
    plays.sort(key=lambda p: (p[0], p[1]))
    room = MAX_BUTTONS - len(ends)
    buttons = [Button(label, f"m:{move}", "success" if gap < 0 else "primary")
               for gap, _, move, label in plays[:room]]
    buttons += [Button(t(lang, "tg.btn_end"), f"m:{move}", "danger") for move in ends]
    return buttons, max(0, len(plays) - room)


def describe(game_id: str, ev: dict[str, Any], names: list[str], lang: str) -> str | None:
    kind = ev.get("type")
    if kind == "signalled":
        ev = {**ev, "type": f"signalled.{ev.get('signal') or 'off'}"}
    elif kind == "played" and ev.get("jump"):
        ev = {**ev, "type": "played_jump"}
    elif kind == "game_lost" and ev.get("seat") is None:
        ev = {**ev, "type": "game_lost_end"}
    for key in ("score", "drawn", "draw_size"):  # "1 carte", "3 cartes"
        if isinstance(ev.get(key), int):
            ev = {**ev, key: count(lang, "card", ev[key])}
    return generic.describe(game_id, ev, names, lang)


def final_lines(scores: list[Any], lang: str) -> list[str]:
    """Cooperative: one team score, the cards left ("un score inférieur à 10 est un
    excellent score"), not a ranking of players who all placed first."""
    left = scores[0] if scores else 0
    if not left:
        return [t(lang, "tg.final_won")]
    return [t(lang, "tg.final_lost", left=count(lang, "score.the-game", left))]
