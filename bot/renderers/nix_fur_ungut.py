"""How a Nix für Ungut table reads in chat: the board first (eight rows of three cells,
whose chips are pushed along by every new one), then what was laid this round, since
cards laid "ne sont pas remplacées" and everyone counts them."""

from typing import Any

from bot.i18n import count, number, t
from bot.render import Button
from bot.renderers import generic
from bot.renderers.generic import cards_text
from engine.core.types import Move
from engine.nix_fur_ungut import JOKER, ROWS, SUPER_LAST_TURN, TURNS, Play

MAX_BUTTONS = 24  # 5 rows of 5 on Discord, one place kept free
PERSONNE = "Monsieur Personne"
SUPER = "★"


def _name(seat: int, names: list[str], seats: int | None = None) -> str:
    """Monsieur Personne scores after the seats (`seat == seats`) and has no seat name."""
    if seats is not None and seat >= seats:
        return PERSONNE
    return names[seat] if 0 <= seat < len(names) else PERSONNE


def _row_word(row: str, lang: str) -> str:
    return t(lang, f"nix.row.{row}")




def _combination(row: str, cards: list[str] | tuple[str, ...], super_chip: bool,
                 lang: str) -> str:
    """`pair 5 5`, `run3 2 3 4 ★`: the words a player would type for the same move."""
    return " ".join([_row_word(row, lang), *cards, *([SUPER] if super_chip else [])])


def public_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    seats = len(view["hand_sizes"])
    lines = [t(lang, "nix.header", round=view["round"], rounds=view["rounds"],
               turn=view["turn"], turns=TURNS)]
    for row in ROWS:
        cells = []
        for value, chip in zip(view["board_values"][row], view["board"][row], strict=True):
            holder = "—" if chip is None else (
                _name(chip["seat"], names, seats) + (SUPER if chip["super"] else ""))
            cells.append(f"{number(value, lang=lang)} {holder}")
        lines.append(t(lang, "nix.board_row", row=_row_word(row, lang), cells=" · ".join(cells)))
    by_turn: dict[int, list[str]] = {}
    for placed in view["placed"]:
        by_turn.setdefault(placed["turn"], []).append(
            f"{_name(placed['seat'], names, seats)} "
            + _combination(placed["row"], placed["cards"], placed["super"], lang))
    for turn, plays in sorted(by_turn.items()):
        lines.append(t(lang, "nix.turn_placed", turn=turn, plays=" · ".join(plays)))
    to_act = set(view["to_act"])
    super_open = view["turn"] <= SUPER_LAST_TURN and not view["over"]
    for seat, size in enumerate(view["hand_sizes"]):
        ready = super_open and not view["super_used"][seat]
        lines.append(t(lang, "nix.seat", marker="▶ " if seat in to_act else "   ",
                       name=_name(seat, names, seats),
                       cards=count(lang, "card", size), score=view["scores"][seat],
                       board=_on_board(view, seat, lang),
                       super=t(lang, "nix.seat_super") if ready else ""))
    if view.get("personne"):
        seat = view.get("personne_seat", seats)
        shown = view.get("personne_cards") or []
        lines.append(t(lang, "nix.personne", name=PERSONNE, score=view["scores"][seat],
                       board=_on_board(view, seat, lang),
                       revealed=t(lang, "nix.personne_revealed", cards=cards_text(shown))
                       if shown else ""))
    return lines


def _on_board(view: dict[str, Any], seat: int, lang: str) -> str:
    """Chips on the board score at the round's end; once the game is over they are in the
    score already, and none on the board needs no mention."""
    points = view["board_points"][seat]
    return "" if view["over"] or not points else t(lang, "nix.on_board", points=points)


def hand_lines(view: dict[str, Any], lang: str) -> list[str]:
    hand = view.get("hand", [])
    lines = [t(lang, "hand_cards", cards=cards_text(hand)) if hand else t(lang, "hand_empty")]
    seat = view.get("seat")
    # Turn and super chip only on one's turn: the message is not edited on others' turns.
    if seat is not None and not view["over"] and seat in view.get("to_act", []):
        lines.append(t(lang, "nix.hand_turn", round=view["round"], rounds=view["rounds"],
                       turn=view["turn"], turns=TURNS))
        ready = not view["super_used"][seat] and view["turn"] <= SUPER_LAST_TURN
        lines.append(t(lang, "nix.hand_super_ready" if ready else "nix.hand_super_used"))
    return lines


def _strength(move: Play) -> tuple[bool, list[int]]:
    """Joker-free first, then the highest numbers: the combination one usually means."""
    numbers = sorted((int(c) for c in move.cards if c != JOKER), reverse=True)
    return JOKER not in move.cards, numbers


def move_label(view: dict[str, Any], move: Move, lang: str) -> str:
    if isinstance(move, Play):
        return _combination(move.row, move.cards, move.super_chip, lang)
    return str(move)


def move_buttons(view: dict[str, Any], moves: list[Move], lang: str) -> tuple[list[Button], int]:
    """Per row, its best combination (and the same with the super chip), top row first;
    room left goes to the row's other joker-free combinations, which keep other cards."""
    plays = [m for m in moves if isinstance(m, Play)]
    legal = set(plays)
    chosen: list[Play] = []
    for row in ROWS:
        plain = sorted((m for m in plays if m.row == row and not m.super_chip),
                       key=_strength, reverse=True)
        if not plain:
            continue
        chosen.append(plain[0])
        with_super = Play(row, plain[0].cards, True)
        if with_super in legal:
            chosen.append(with_super)
    for row in ROWS:
        for move in sorted((m for m in plays if m.row == row and not m.super_chip
                            and JOKER not in m.cards), key=_strength, reverse=True):
            if len(chosen) >= MAX_BUTTONS:
                break
            if move not in chosen:
                chosen.append(move)
    chosen = chosen[:MAX_BUTTONS]
    # Back in board order, so a row's buttons sit together.
    chosen.sort(key=lambda m: (ROWS.index(m.row), not _strength(m)[0],
                               [-n for n in _strength(m)[1]], m.super_chip))
    buttons = [Button(_combination(m.row, m.cards, m.super_chip, lang), f"m:{m}",
                      "success" if m.super_chip else "primary") for m in chosen]
    return buttons, len(moves) - len(buttons)


_NARRATED = {"played", "pushed_off", "personne_revealed", "super_as_normal", "turn_started",
             "round_over", "round_started"}


def describe(game_id: str, ev: dict[str, Any], names: list[str], lang: str) -> str | None:
    kind = ev.get("type")
    if kind not in _NARRATED:
        return generic.describe(game_id, ev, names, lang)
    params: dict[str, Any] = dict(ev)
    if "seat" in ev and isinstance(ev["seat"], int):
        params["seat"] = _name(ev["seat"], names)
    if "row" in ev:
        params["row"] = _row_word(ev["row"], lang)
    key = kind
    if kind == "played":
        params["cards"] = cards_text(ev.get("cards", []))
        key = "played_none" if not ev.get("cards") else (
            "played_super" if ev.get("super") else "played")
    elif kind == "pushed_off" and ev.get("super"):
        key = "pushed_off_super"
    elif kind == "personne_revealed":
        params["name"] = PERSONNE
    elif kind == "turn_started":
        params["turns"] = TURNS
    elif kind == "round_over":
        # "+0" too: a round's points are what each seat gained, nothing taken away.
        params["points"] = " · ".join(
            f"{_name(seat, names)} {'+' if points >= 0 else ''}{number(points, lang=lang)}"
            for seat, points in enumerate(ev.get("points", [])))
    elif kind == "round_started":
        params["first"] = _name(ev.get("first", 0), names)
    return t(lang, f"event.{game_id}.{key}", **params)


def round_points(ev: dict[str, Any]) -> list[int] | None:
    """Each competitor's points for the round just scored, Monsieur Personne last."""
    points = ev.get("points")
    return list(points) if ev.get("type") == "round_over" and isinstance(points, list) else None


def extra_names(lang: str) -> list[str]:
    # The rules' own name for the automatic player, the same in every language.
    return ["Monsieur Personne"]
