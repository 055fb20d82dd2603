"""Presentation from the contract's view keys only: any game, no special knowledge."""

from typing import Any

from bot.i18n import count, has, t
from bot.render import Button
from engine.core.types import Move

MAX_MOVE_BUTTONS = 20  # 4 rows of 5 (Discord's limit is 5 rows; one row stays for extras)


def cards_text(cards: list[str]) -> str:
    return " ".join(cards) if cards else "—"


def public_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    lines = []
    if "round" in view:
        if view.get("rounds"):
            lines.append(t(lang, "table_round", round=view["round"], rounds=view["rounds"]))
        else:
            lines.append(t(lang, "table_round_open", round=view["round"]))
    to_act = set(view.get("to_act", []))
    scores = view.get("scores", [])
    for seat, size in enumerate(view.get("hand_sizes", [])):
        marker = "▶ " if seat in to_act else "   "
        name = names[seat] if seat < len(names) else f"#{seat + 1}"
        if seat < len(scores):
            lines.append(t(lang, "table_seat", marker=marker, name=name,
                           cards=count(lang, "card", size),
                           score=scores[seat]))
        else:
            lines.append(t(lang, "table_seat_noscore", marker=marker, name=name,
                           cards=count(lang, "card", size)))
    return lines


def hand_lines(view: dict[str, Any], lang: str) -> list[str]:
    hand = view.get("hand", [])
    return [t(lang, "hand_cards", cards=cards_text(hand)) if hand else t(lang, "hand_empty")]


def button_label(move: Move, lang: str) -> str:
    text = str(move)
    return text[5:] if text.startswith("play ") else text


def move_label(view: dict[str, Any], move: Move, lang: str) -> str:
    """A move's label where every legal move gets a button (the console): the same words
    as the game's own buttons, so a list does not mix two spellings."""
    return button_label(move, lang)


def move_buttons(view: dict[str, Any], moves: list[Move], lang: str) -> tuple[list[Button], int]:
    """Buttons for the legal moves (as many as fit) and how many moves were left out."""
    shown = moves[:MAX_MOVE_BUTTONS]
    buttons = [Button(button_label(m, lang), f"m:{m}", "primary") for m in shown]
    return buttons, len(moves) - len(shown)


def talk_buttons(view: dict[str, Any], lang: str) -> list[Button]:
    """Buttons for what a seat may say at any time (The Game's signals); most games: none."""
    return []


def refusal_params(params: dict[str, Any], lang: str) -> dict[str, Any]:
    """A refusal's parameters as the game's table writes them (a suit as the table names
    it); a game without its own way of writing cards says them as the engine does."""
    return params


def player_name(seat: int, names: list[str]) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def describe(game_id: str, ev: dict[str, Any], names: list[str], lang: str) -> str | None:
    """A sentence for an event: `event.<game>.<type>`, else `event.<type>`, else nothing."""
    kind = ev.get("type", "")
    key = f"event.{game_id}.{kind}"
    if not has(lang, key) and not has("en", key):
        key = f"event.{kind}"
        if not has(lang, key) and not has("en", key):
            return None
    params: dict[str, Any] = {}
    for name, value in ev.items():
        if name in {"seat", "winner", "first", "leader", "dealer", "by"} and isinstance(value, int):
            params[name] = player_name(value, names)
        else:
            params[name] = value
    return t(lang, key, **params)


def round_points(ev: dict[str, Any]) -> list[int] | None:
    for key in ("penalties", "points", "round_scores"):
        if isinstance(ev.get(key), list):
            return ev[key]
    return None


def final_lines(scores: list[Any], lang: str) -> list[str] | None:
    """A game's own end-of-game lines instead of the ranking (a cooperative game has no
    ranking to show); None keeps the ranking."""
    return None


def extra_names(lang: str) -> list[str]:
    """Names of automatic competitors the engine scores after the seats (none by default)."""
    return []
