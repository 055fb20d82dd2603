"""Turning a table into renderings and sentences, in one language, for any game."""

import marshal
from typing import Any

from bot import clean, ratings_commands, renderers
from bot.i18n import count, has, known, number, t
from bot.live import Live, Told
from bot.options import TABLE_SETTINGS, opened, resolve_game, stored
from bot.render import Button, Rendering, encode_payload, rows
from db.repository import CANCELLED, CLOSED, FINISHED, LOBBY
from engine import BadOptions, IllegalMove, Outcome, bots
from engine.core.protocol import Game
from engine.core.visible import fit_for


def names(live: Live, lang: str = "en") -> list[str]:
    """Seat names, plus any automatic competitor the engine scores after the seats."""
    return live.names() + list(renderers.for_game(live.row.game).extra_names(lang))


def table(live: Live, lang: str) -> Rendering:
    if live.row.status == LOBBY:
        return lobby(live, lang)
    game = live.game
    status = t(lang, f"status_{live.row.status}")
    title = t(lang, "table_title", game=game.NAME, status=status)
    if live.state is None:
        lines = [t(lang, "table_cancelled" if live.row.status == CANCELLED else "table_closed")]
        return Rendering(title, lines, [], live.row.version, live.ref)
    view = live.public_view()
    renderer = renderers.for_game(live.row.game)
    seat_names = names(live, lang)
    lines = list(renderer.public_lines(view, seat_names, lang))
    to_act = view.get("to_act", [])
    if to_act and live.row.status not in {FINISHED, CANCELLED, CLOSED}:
        lines.append(t(lang, "table_turn", names=", ".join(live.seats[s].name for s in to_act)))
    narration = (0, 0)
    last, newest = live.last_lines()
    if last:
        lines.append(t(lang, "table_last"))
        narration = (len(lines), len(lines) + len(last) - newest)
        lines.extend(f"· {line}" for line in last)
    buttons: list[Button] = []
    if live.row.status == FINISHED:
        lines.append(t(lang, "table_over"))
        buttons.append(Button(t(lang, "btn_rematch"), "rematch", "primary"))
    elif live.row.status == CANCELLED:
        lines.append(t(lang, "table_cancelled"))
    elif live.row.status == CLOSED:
        lines.append(t(lang, "table_closed"))
    else:
        buttons.append(Button(t(lang, "btn_hand"), "hand"))
    return Rendering(title, lines, rows(buttons), live.row.version, live.ref,
                     narration=narration, names=tuple(seat_names))


def lobby(live: Live, lang: str) -> Rendering:
    game = live.game
    low, high = game.SEATS.start, game.SEATS.stop - 1
    lines = [t(lang, "lobby_players", count=len(live.seats), low=low, high=high)]
    for seat in live.seats:
        host = f" ({t(lang, 'lobby_host')})" if seat.user_id == live.row.host else ""
        lines.append(f"{seat.seat + 1}. {seat.name}{host}")
    lines.append(t(lang, "lobby_options", options=options_line(live, lang)))
    lines.append(t(lang, "lobby_hint"))
    buttons = [Button(t(lang, "btn_join"), "join", "success"),
               Button(t(lang, "btn_leave"), "leave"),
               Button(t(lang, "btn_addbot"), "addbot"),
               Button(t(lang, "btn_options"), "options")]
    if any(seat.is_bot for seat in live.seats):
        buttons.append(Button(t(lang, "btn_removebot"), "removebot"))
    if len(live.seats) in game.SEATS:
        buttons.append(Button(t(lang, "btn_start"), "start", "primary"))
    return Rendering(t(lang, "lobby_title", game=game.NAME), lines, rows(buttons),
                     live.row.version, live.ref, names=tuple(live.names()))


def hand(live: Live, seat_no: int, lang: str, *, every_move: bool = False,
         kicked: bool = False) -> Rendering:
    """A seat's hand and its move buttons. Chat platforms fit a few rows of buttons, so
    the renderer picks the useful ones; `every_move` (a terminal, with no such limit)
    adds every other legal move after them, so none is out of reach. `kicked`: the last
    drawing of the hand message of a player kicked from that seat, without the cards,
    which are a bot's now."""
    game = live.game
    title = t(lang, "hand_title", game=game.NAME, title=live.row.settings.get("title", ""))
    if kicked:
        return Rendering(title, [t(lang, "kicked_out")], [], live.row.version, live.ref)
    seat = live.seats[seat_no]
    view = live.seat_view(seat_no)  # the table's public view, drawn once per state
    renderer = renderers.for_game(live.row.game)
    lines = list(renderer.hand_lines(view, lang))
    buttons: list[Button] = []
    if seat.is_bot:
        lines.append(t(lang, "hand_bot"))
    elif live.row.status == FINISHED:
        lines.append(t(lang, "table_over"))
    elif live.row.status == CANCELLED:
        lines.append(t(lang, "table_cancelled"))
    elif seat_no in view.get("to_act", []):
        lines.append(t(lang, "hand_your_turn"))
        moves = list(game.legal_moves(live.state, seat_no))
        shown, left = renderer.move_buttons(view, moves, lang)
        if every_move:
            chosen = {b.action for b in shown}
            shown = shown + [Button(renderer.move_label(view, m, lang), f"m:{m}", "primary")
                             for m in moves if f"m:{m}" not in chosen]
            left = 0
        buttons = [b for b in shown if _fits(live, b)]
        left += len(shown) - len(buttons)
        if left > 0:
            lines.append(t(lang, "hand_more", count=count(lang, "move", left)))
    else:
        # Not "waiting for X": this message is edited only when this seat's hand changes,
        # so it must not say whose turn it is (the table message does).
        lines.append(t(lang, "hand_not_your_turn"))
    talk: list[Button] = []
    if not seat.is_bot and live.row.status not in {FINISHED, CANCELLED}:
        talk = [b for b in renderer.talk_buttons(view, lang) if _fits(live, b)]
    # Every move on one row where the client lays them out itself (the console); else 5
    # rows of 5, what a phone shows. What a seat may say at any time gets a row of its own.
    per_row, max_rows = (len(buttons) or 1, 1) if every_move else (5, 4 if talk else 5)
    return Rendering(title, lines, rows(buttons, per_row, max_rows) + ([talk] if talk else []),
                     live.row.version, live.ref)


def _fits(live: Live, button: Button) -> bool:
    try:
        encode_payload(live.ref, live.row.version, button.action)
    except ValueError:
        return False
    return True


def told(live: Live, events: list[dict[str, Any]], lang: str, *,
         new_round: bool = False) -> Told:
    """A move's lines, said when the table is drawn: with the seat names of now (a seat
    taken over later must not rename who made this move).

    The events wait packed by `marshal` (exact for the dicts, lists, tuples, strings and
    numbers the engine's events are made of; 0.2 us a move): bytes, which the cycle
    collector does not walk, where the dicts and lists themselves would be walked at
    every pass for as long as the move is kept. Kept and said as the public may see them:
    the lines go to the whole table.

    The seat names and the people at the seats rarely change from one move to the next:
    a move told with the same ones as the table's last told move shares its tuples, so
    the moves an idle table keeps cost their events and little more."""
    events = fit_for(events, None)
    try:
        kept: bytes | list[dict[str, Any]] = marshal.dumps(events)
    except ValueError:  # a value marshal does not know: kept as it is
        kept = events
    seat_names = tuple(names(live, lang))
    who = tuple(seat.user_id for seat in live.seats)
    if live.told:
        last = live.told[-1]
        who = last.who if last.who == who else who
        if len(last.args) > 2 and last.args[2] == seat_names:
            seat_names = last.args[2]
    return Told(_narrate, (live.row.game, kept, seat_names, lang), who, new_round=new_round)


def _narrate(game_id: str, events: bytes | list[dict[str, Any]], seat_names: tuple[str, ...],
             lang: str) -> list[str]:
    said: list[dict[str, Any]] = marshal.loads(events) if isinstance(events, bytes) \
        else events
    return renderers.for_game(game_id).describe_events(game_id, said, list(seat_names), lang)


# Refusal parameters that are a number of cards, said with their noun ("1 card").
_COUNTED_CARDS = {"must_match_count": ("count",), "below_minimum": ("needed",),
                  "none_needs_empty_hand": ("hand_size",)}


# Input that could not be read as a move: the refusal goes on with how to write one
# (`{hint}`, empty for a game without one).
_UNREAD = {"bad_notation", "unknown_card"}


def refusal(live: Live, exc: IllegalMove, lang: str) -> str:
    key = f"refusal.{exc.code}"
    # The engine quotes what the player typed (a word, a card code): quoted back short
    # and printable, whatever it was.
    params: dict[str, Any] = {
        name: clean.echo(value) if isinstance(value, str) else
        [clean.echo(v) if isinstance(v, str) else v for v in value]
        if isinstance(value, list | tuple) else value
        for name, value in exc.params.items()}
    params = renderers.for_game(live.row.game).refusal_params(params, lang)
    if "card" in params and "cards" not in params:
        params["cards"] = params["card"]
    reason = params.get("reason")
    if reason and known(lang, f"{key}.{reason}"):
        key = f"{key}.{reason}"
    for name in _COUNTED_CARDS.get(exc.code, ()):
        if isinstance(params.get(name), int):
            params[name] = count(lang, "card", params[name])
    for name in ("held", "wanted"):  # "you hold only one 13"
        if isinstance(params.get(name), int) and known(lang, f"word.{params[name]}"):
            params[name] = t(lang, f"word.{params[name]}")
    for name in ("animal",):
        if name in params:
            params[name] = t(lang, f"animal.{params[name]}") if has(
                lang, f"animal.{params[name]}") else params[name]
    if exc.code == "not_your_turn" and live.state is not None:
        params["names"] = ", ".join(live.seats[s].name for s in live.game.to_act(live.state)
                                    if s < len(live.seats))
    if exc.code in _UNREAD:
        hint = f"hint.{live.row.game}"
        params["hint"] = f" {t(lang, hint)}" if known(lang, hint) else ""
    if known(lang, key):
        return t(lang, key, **params)
    return t(lang, "refusal.generic", code=exc.code)


def game_key(key: str, game_id: str, lang: str = "en") -> str:
    """`key.<game>` where the game has a sentence of its own (Michigan's rounds are deals),
    else `key`."""
    own = f"{key}.{game_id}"
    return own if known(lang, own) else key


def round_summary(live: Live, ev: dict[str, Any], lang: str, *,
                  last: bool = False) -> list[str]:
    """A round's points and totals; `last`: the game's last round, with no next one (a
    game whose sentence speaks of the next round says so in a `.last` variant)."""
    [ev] = fit_for([ev], None)  # announced to the whole table
    points = renderers.for_game(live.row.game).round_points(ev)
    totals = ev.get("scores") or ev.get("chips")
    if points is None:
        return []
    seat_names = names(live, lang)
    key = game_key("round_over", live.row.game, lang)
    if last and known(lang, f"{key}.last"):
        key = f"{key}.last"
    lines = [t(lang, key, round=ev.get("round", ev.get("deal", "?")))]
    # Gains and losses (Michigan's chips) read as such, as the narration writes them.
    signed = any(isinstance(v, int) and v < 0 for v in points)
    for seat, value in enumerate(points):
        total = totals[seat] if isinstance(totals, list) and seat < len(totals) else "?"
        shown = value
        if signed and isinstance(value, int):
            shown = number(value, signed=True, lang=lang)
            total = number(total, lang=lang) if isinstance(total, int) else total
        lines.append(t(lang, "round_line", name=seat_names[seat] if seat < len(seat_names)
                       else f"#{seat + 1}", points=shown, total=total))
    return lines


def round_was_whole_game(live: Live, ev: dict[str, Any]) -> bool:
    """A round whose points are the totals (a one-round game): the final ranking says it."""
    points = renderers.for_game(live.row.game).round_points(ev)
    return points is not None and points == (ev.get("scores") or ev.get("chips"))


def score_text(live: Live, score: Any, lang: str) -> str:
    """A score in its game's unit, `12 penalty points`, `3 chips`; a bare number otherwise."""
    unit = f"score.{live.row.game}"
    if isinstance(score, int) and known(lang, f"n.{unit}"):
        return count(lang, unit, score)
    return number(score, lang=lang) if isinstance(score, int | float) else str(score)


def final_ranking(live: Live, result: Outcome, lang: str) -> list[str]:
    own = renderers.for_game(live.row.game).final_lines(list(result.scores), lang)
    if own is not None:
        return own
    seat_names = names(live, lang)
    order = sorted(range(len(result.scores)), key=lambda s: (result.ranking[s], s))
    lines = [t(lang, "final_title", game=live.game.NAME)]
    for seat in order:
        name = seat_names[seat] if seat < len(seat_names) else f"#{seat + 1}"
        lines.append(t(lang, "final_line", rank=result.ranking[seat], name=name,
                       score=score_text(live, result.scores[seat], lang)))
    # An automatic competitor (Monsieur Personne) placed above every person: who among
    # the people won, since a place of "2." alone would not say it.
    people = range(min(len(live.seats), len(result.ranking)))
    best = min((result.ranking[s] for s in people), default=0)
    ahead = [seat_names[s] for s in range(len(live.seats), len(result.ranking))
             if s < len(seat_names) and result.ranking[s] < best]
    if ahead:
        winners = [seat_names[s] for s in people if result.ranking[s] == best]
        lines.append(t(lang, "final_extra_ahead", extra=", ".join(ahead),
                       names=", ".join(winners)))
    return lines


def score_lines(live: Live, lang: str) -> list[str]:
    view = live.public_view()
    seat_names = names(live, lang)
    lines = [t(lang, "scores_title", game=live.game.NAME)]
    for seat, score in enumerate(view.get("scores", [])):
        name = seat_names[seat] if seat < len(seat_names) else f"#{seat + 1}"
        lines.append(t(lang, "scores_line", name=name, score=score_text(live, score, lang)))
    return lines


def help_text(lang: str) -> str:
    from engine import games

    return "\n".join([t(lang, "help", games=", ".join(games.ids())),
                      ratings_commands.help_text(lang), t(lang, "help_privacy")])


def rules_text(game_text: str, lang: str) -> str:
    from engine import games

    game_id = resolve_game(game_text) if game_text else None
    if game_id is None:
        return t(lang, "rules_pick", games=", ".join(games.ids()))
    key = f"rules.{game_id}"
    text = t(lang, key) if known(lang, key) else games.get(game_id).NAME
    return "\n".join([text, t(lang, "rules_options"),
                      *option_help(games.get(game_id), lang)])


def option_value(value: Any, lang: str, *, custom: bool = False) -> str:
    """An option's value as the lobby, /rules and /newgame show it, in the reader's words."""
    from pydantic_core import PydanticUndefined

    if value is None:
        return t(lang, "opt_random")
    if isinstance(value, bool):
        return t(lang, "opt_yes" if value else "opt_no")
    if value is PydanticUndefined or isinstance(value, dict | list):
        return t(lang, "opt_custom" if custom else "opt_default")
    return str(value)


def default_options(game: Game, lang: str) -> str:
    """The game's options at their defaults, as a player would type them (`rounds=4
    personne=no`): the example a question about options gives for the game chosen. An
    option written as a whole structure (Nix für Ungut's board) is left out."""
    return " ".join(f"{name}={option_value(field.default, lang)}"
                    for name, field in game.Options.model_fields.items()
                    if field.default is None or isinstance(field.default, bool | int | str))


def option_help(game: Game, lang: str) -> list[str]:
    """One line per option: how to write it, its default, what it does; the table's own
    settings (deadline, bot delay) last, since every game has them."""
    lines = []
    for name, field in game.Options.model_fields.items():
        lines.append(f"· {name}={option_value(field.default, lang)} — "
                     f"{t(lang, f'optdesc.{name}')}")
    lines.extend(f"· {name} — {t(lang, f'optdesc.{name}')}" for name in TABLE_SETTINGS)
    return lines


def round_ended(live: Live, ev: dict[str, Any]) -> bool:
    round_end = live.game.CAPABILITIES.round_end
    return round_end is not None and ev.get("type") == round_end


def has_rounds(live: Live) -> bool:
    """Whether the game ends rounds (Michigan: deals) before it ends, the moments a person
    may take a bot's seat over."""
    return live.game.CAPABILITIES.round_end is not None


def in_last_round(live: Live) -> bool:
    """Whether the round under way is the game's last (Michigan: its last deal): the game
    ends with it, so no round ends at which a person could take a bot's seat over."""
    view = live.public_view()
    rounds = view.get("rounds", view.get("deals"))
    played = view.get("round")
    return isinstance(rounds, int) and isinstance(played, int) and played >= rounds


def games_overview(lang: str) -> str:
    """`/newgame` without a game: every game, its player counts and options with defaults."""
    from pydantic_core import PydanticUndefined

    from engine import games

    lines = [t(lang, "newgame_usage")]
    for game_id in games.ids():
        game = games.get(game_id)
        options = []
        for name, field in game.Options.model_fields.items():
            default = field.default
            options.append(name if default is PydanticUndefined
                           else f"{name}={option_value(default, lang)}")
        lines.append(t(lang, "newgame_game", id=game_id, name=game.NAME, low=game.SEATS.start,
                       high=game.SEATS.stop - 1, options=", ".join(options)))
    lines.append(t(lang, "newgame_table_options"))
    return "\n".join(lines)


def option_problems(exc: BadOptions, game: Game, lang: str) -> str:
    """Each refused option in the reader's language; the engine's own text only for a
    refusal that lists no problem (a `setup`, which no player types)."""
    if not exc.problems:
        return str(exc)
    known = ", ".join([*game.Options.model_fields, *TABLE_SETTINGS])
    # Each distinct problem once: 24 board values over the bound are one thing to fix.
    return " ".join(dict.fromkeys(
        t(lang, f"option.{p['kind']}", **p, game=game.NAME, options=known)
        for p in exc.problems))


def options_line(live: Live, lang: str) -> str:
    """Every option of the table with its value, the defaults included, then its clock."""
    from pydantic_core import PydanticUndefined

    parts = []
    # A board every table now stores in full is "default" while it is today's default.
    options, defaults = stored(live.game, live.row.options), opened(live.game, {})
    for name, field in live.game.Options.model_fields.items():
        value = options.get(name, field.default)
        if value is PydanticUndefined:
            continue
        custom = name in options and (name not in defaults or value != defaults[name])
        parts.append(f"{name}={option_value(value, lang, custom=custom)}")
    deadline = live.row.settings.get("deadline")
    if deadline is not None:
        parts.append(f"deadline={int(deadline)}s" if deadline else f"deadline={t(lang, 'opt_off')}")
    delay = live.row.settings.get("bot_delay")
    if delay is not None:
        parts.append(f"bot_delay={float(delay):g}s")
    parts.append(f"bots={t(lang, 'bots.' + bot_level(live))}")
    parts.append(f"rated={option_value(is_rated(live), lang)}")
    return ", ".join(parts)


def is_rated(live: Live) -> bool:
    """Whether the table's games count for ratings: unless its host said `rated=no`."""
    return live.row.settings.get("rated", True) is not False


def bot_level(live: Live) -> str:
    """The table's bot level; tables opened before levels existed play the default."""
    level = live.row.settings.get("bots")
    return level if level in bots.LEVELS else bots.DEFAULT_LEVEL
