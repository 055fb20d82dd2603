"""The lobby's rules: who may change a table's seats, options and status, and to what.

Each decision is a function of the table as this process holds it (`Live`), the person
acting and what they ask. It returns a `Refusal` (a catalogue key and its parameters,
nothing to write) or a `Change`: what to store, then what to show, in order, and what
to tell the person. Nothing here reads the clock, the database or the platform: the
table (`bot.lobby`) stores a change with a conditional write and, when the stored table
moved on meanwhile, asks the same question again of the table as stored now.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot import clean, present
from bot import options as table_options
from bot.live import Actor, Live
from db.repository import CANCELLED, FINISHED, LOBBY, PLAYING, SeatRow
from engine import BadOptions
from engine.core.options import parse_options

BOT_NAMES = ["Ada", "Boole", "Curie", "Dijkstra", "Euler", "Fermat", "Gauss", "Hopper",
             "Ising", "Jacobi", "Knuth", "Lovelace"]
# What a game leaves in its settings for itself: a rematch starts without it.
PER_GAME_SETTINGS = frozenset({"takeovers", "kicked", "unreachable"})


@dataclass(frozen=True, slots=True)
class Said:
    """A catalogue line with its parameters: the answer to the person who acted, or,
    among a change's steps, an announcement in the table's channel (in its language)."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Refusal:
    """Nothing changes; the person reads why. `problems`: options the engine refused,
    each said in the person's language (`key` is then "bad_options")."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    problems: BadOptions | None = None


@dataclass(frozen=True, slots=True)
class ShowTable:
    """The table message is drawn again."""


@dataclass(frozen=True, slots=True)
class ShowHand:
    """A seat's hand message is drawn again: `to_former` tells the person a bot just took
    their seat, `kicked` tells the person kicked from it (see `Showing.show_hand`)."""

    seat: int
    to_former: bool = False
    kicked: str | None = None


@dataclass(frozen=True, slots=True)
class Arrange:
    """The game's next turn is arranged and shown, as after a move with no events."""

    notify_turn: bool = False


Step = Said | ShowTable | ShowHand | Arrange


@dataclass(frozen=True, slots=True)
class Change:
    """What a lobby action stores, then shows. A field left None is not written; a change
    with nothing to write (a join already queued) only answers. A change of `options` is
    answered with the options as they now are (`options_changed`). `dealt`: the new
    game's state when it starts; the seats it was dealt for must still be the stored
    ones (every change is written only onto the table it was decided on)."""

    answer: Said
    seats: list[SeatRow] | None = None
    host: str | None = None
    settings: dict[str, Any] | None = None
    status: str | None = None
    options: dict[str, Any] | None = None
    dealt: Any = None
    then: tuple[Step, ...] = ()

    @property
    def writes(self) -> bool:
        return any(value is not None for value in (
            self.seats, self.host, self.settings, self.status, self.options, self.dealt))


@dataclass(frozen=True, slots=True)
class Rematch:
    """A new table for the same game in the same channel, opened by the person who asked
    (its host) and started at once."""

    seats: list[SeatRow]
    options: dict[str, Any]
    settings: dict[str, Any]


def said(key: str, /, **params: Any) -> Said:
    return Said(key, params)


def refused(key: str, /, **params: Any) -> Refusal:
    return Refusal(key, params)


# --- who may do what ----------------------------------------------------------------------


def may_manage(live: Live, actor: Actor) -> bool:
    return actor.is_admin or live.row.host == actor.user_id


def lobby_refusal(live: Live, actor: Actor) -> Refusal | None:
    """Seats and options change only in the lobby, and only by the host or an admin."""
    if live.row.status != LOBBY:
        return refused("not_in_lobby")
    if not may_manage(live, actor):
        return refused("host_only")
    return None


def unseated(live: Live, actor: Actor) -> str:
    """Why a person with no seat here cannot play: a bot took theirs (and /join gives it
    back), they were kicked (and it does not), or they never sat here."""
    if actor.user_id in live.row.settings.get("kicked", []):
        return "kicked_out"
    if any(s.is_bot and s.former_user_id == actor.user_id for s in live.seats):
        return "seat_taken_by_bot"
    return "not_seated"


# --- seats --------------------------------------------------------------------------------


def most_seats(live: Live) -> int:
    return live.game.SEATS.stop - 1


def bot_name(seats: list[SeatRow], index: int) -> str:
    """A bot's name no other seat has, the one for its place when free."""
    taken = {s.name for s in seats}
    for name in BOT_NAMES[index % len(BOT_NAMES):] + BOT_NAMES:
        label = f"🤖 {name}"
        if label not in taken:
            return label
    return f"🤖 Bot {index + 1}"


def without(seats: list[SeatRow], seat_no: int) -> list[SeatRow]:
    """The lobby's seats less one, renumbered: seat numbers are places at the table."""
    return [SeatRow(seat=i, user_id=s.user_id, name=s.name, is_bot=s.is_bot)
            for i, s in enumerate(x for x in seats if x.seat != seat_no)]


def replaced(seats: list[SeatRow], seat: SeatRow) -> list[SeatRow]:
    """The seats with one of them changed (a bot takes it, its player comes back)."""
    return [seat if s.seat == seat.seat else s for s in seats]


def find_seat(seats: list[SeatRow], target: str) -> SeatRow | None:
    """A person's seat by user id, name (as the table shows it) or place number from 1."""
    target = target.strip().lstrip("@")
    shown = clean.name(target, fallback="")
    for seat in seats:
        if seat.is_bot:
            continue
        if target == seat.user_id or shown.lower() == seat.name.lower():
            return seat
    try:
        place = clean.number(target, max_digits=3)
    except clean.NumberTooLong:
        return None
    if place is not None and 1 <= place <= len(seats):
        seat = seats[place - 1]
        return None if seat.is_bot else seat
    return None


# --- the decisions ------------------------------------------------------------------------


def set_options(live: Live, actor: Actor, words: list[str]) -> Change | Refusal:
    """`/options key=value …`: the host changes options before the game starts; the
    engine validates the result exactly as it did at /newgame."""
    refusal = lobby_refusal(live, actor)
    if refusal is not None:
        return refusal
    try:
        game_opts, table_settings = table_options.parse(words)
        # The stored options as played (a lobby opened before a default changed keeps
        # it), then the host's changes, written out for good.
        merged = table_options.opened(live.game, {
            **table_options.stored(live.game, live.row.options), **game_opts})
        parse_options(live.game.Options, merged)
    except table_options.OptionsError as exc:
        return Refusal(exc.code, exc.params)
    except BadOptions as exc:
        return Refusal("bad_options", problems=exc)
    return Change(said("options_changed"), options=merged,
                  settings={**live.row.settings, **table_settings}, then=(ShowTable(),))


def join(live: Live, actor: Actor) -> Change | Refusal:
    if actor.user_id in live.row.settings.get("kicked", []):
        return refused("kicked_out")
    if live.row.status == PLAYING:
        return _join_playing(live, actor)
    if live.row.status != LOBBY:
        return refused("no_table")
    if live.seat_of(actor.user_id):
        return refused("already_seated")
    if len(live.seats) >= most_seats(live):
        return refused("table_full", max=most_seats(live))
    seats = [*live.seats, SeatRow(seat=len(live.seats), user_id=actor.user_id,
                                  name=actor.name)]
    return Change(said("joined", game=live.game.NAME), seats=seats, then=(ShowTable(),))


def _join_playing(live: Live, actor: Actor) -> Change | Refusal:
    """'A human may take over a bot seat between rounds': queued until the round ends."""
    mine = next((s for s in live.seats if s.former_user_id == actor.user_id), None)
    if mine is not None and mine.is_bot:
        # A player whose seat a bot took (AFK or leaving) takes it straight back; the
        # bot played on, so their cards changed.
        seat = SeatRow(seat=mine.seat, user_id=actor.user_id, name=actor.name)
        return Change(said("reclaimed"), seats=replaced(live.seats, seat),
                      then=(said("seat_reclaimed", name=actor.name), ShowHand(mine.seat),
                            Arrange(notify_turn=True)))
    if live.seat_of(actor.user_id):
        return refused("already_seated")
    if not any(s.is_bot for s in live.seats):
        return refused("game_running")
    if not present.has_rounds(live):
        return refused("takeover_no_rounds", game=live.game.NAME)
    if present.in_last_round(live):
        # Not queued: the game would seat them only once it is over.
        return refused(present.game_key("takeover_last_round", live.row.game),
                       game=live.game.NAME)
    waiting = list(live.row.settings.get("takeovers", []))
    if actor.user_id in [w[0] for w in waiting]:
        return Change(said("takeover_queued"))  # queued already: nothing to store
    if len(waiting) >= sum(s.is_bot for s in live.seats):
        # Not queued: every bot seat is promised, they would wait for the game's end.
        return refused("takeover_full", game=live.game.NAME)
    return Change(said("takeover_queued"), settings={
        **live.row.settings, "takeovers": [*waiting, [actor.user_id, actor.name]]})


def leave(live: Live, actor: Actor, *, forgotten: bool = False) -> Change | Refusal:
    """/leave; `forgotten`: for /forgetme, whose channel hears that a player left, not
    who (nor that they can come back: the seat no longer remembers them)."""
    seat = live.seat_of(actor.user_id)
    if seat is None:
        waiting = live.row.settings.get("takeovers", [])
        if any(w[0] == actor.user_id for w in waiting):
            rest = [w for w in waiting if w[0] != actor.user_id]
            return Change(said("left"), settings={**live.row.settings, "takeovers": rest})
        return refused("not_seated")
    if live.row.status == LOBBY:
        return _leave_lobby(live, actor, seat)
    if live.row.status != PLAYING:
        return refused("no_table")
    bot = SeatRow(seat=seat.seat, user_id=None, name=bot_name(live.seats, seat.seat),
                  is_bot=True, former_user_id=actor.user_id)
    seats = replaced(live.seats, bot)
    heir = next((s for s in seats if not s.is_bot), None)
    new_host = heir if live.row.host == actor.user_id else None
    news = said("seat_to_bot_forgotten", bot=bot.name) if forgotten \
        else said("seat_to_bot_left", name=seat.name, bot=bot.name)
    moved = (said("host_moved", name=new_host.name),) if new_host is not None else ()
    return Change(said("left_game"), seats=seats,
                  host=new_host.user_id if new_host is not None else None,
                  then=(news, ShowHand(seat.seat, to_former=True), *moved, Arrange()))


def _leave_lobby(live: Live, actor: Actor, seat: SeatRow) -> Change:
    humans = [s for s in live.seats if s.seat != seat.seat and not s.is_bot]
    if not humans:
        # The last human leaving closes the lobby: a table of bots alone is pointless.
        return Change(said("left_closed"), status=CANCELLED, then=(ShowTable(),))
    was_host = live.row.host == actor.user_id
    # The host left: the longest-seated human hosts from now on.
    host = (humans[0].user_id or live.row.host) if was_host else live.row.host
    moved = (said("host_moved", name=humans[0].name),) if was_host else ()
    return Change(said("left"), seats=without(live.seats, seat.seat), host=host,
                  then=(ShowTable(), *moved))


def add_bot(live: Live, actor: Actor) -> Change | Refusal:
    refusal = lobby_refusal(live, actor)
    if refusal is not None:
        return refusal
    if len(live.seats) >= most_seats(live):
        return refused("table_full", max=most_seats(live))
    index = len(live.seats)
    bot = SeatRow(seat=index, user_id=None, name=bot_name(live.seats, index), is_bot=True)
    return Change(said("bot_added"), seats=[*live.seats, bot], then=(ShowTable(),))


def remove_bot(live: Live, actor: Actor) -> Change | Refusal:
    refusal = lobby_refusal(live, actor)
    if refusal is not None:
        return refusal
    bots = [s for s in live.seats if s.is_bot]
    if not bots:
        return refused("no_bot")
    return Change(said("bot_removed"), seats=without(live.seats, bots[-1].seat),
                  then=(ShowTable(),))


def start(live: Live, actor: Actor) -> Change | Refusal:
    if live.row.status == PLAYING:
        return refused("already_started")
    if live.row.status != LOBBY:
        return refused("no_table")
    if not may_manage(live, actor):
        return refused("host_only")
    count, seats_range = len(live.seats), live.game.SEATS
    if count not in seats_range:
        # One message whose plural variant follows `count` (CLDR rules per language).
        return refused("player_count", count=count, low=seats_range.start,
                       high=seats_range.stop - 1)
    try:
        state = live.game.new_game(
            count, table_options.stored(live.game, live.row.options), live.row.seed)
    except BadOptions as exc:
        return Refusal("bad_options", problems=exc)
    # Bots have no hand message: showing theirs does nothing.
    hands = tuple(ShowHand(seat.seat) for seat in live.seats)
    return Change(said("started", game=live.game.NAME), status=PLAYING, dealt=state,
                  then=(ShowTable(), *hands, Arrange(notify_turn=True)))


def cancel(live: Live, actor: Actor) -> Change | Refusal:
    if not may_manage(live, actor):
        return refused("host_or_admin_only")
    # No hand goes on inviting its player to play.
    hands = tuple(ShowHand(seat.seat) for seat in live.seats)
    return Change(said("cancelled"), status=CANCELLED,
                  then=(ShowTable(), *hands, said("cancelled_by", name=actor.name)))


def kick(live: Live, actor: Actor, target: str) -> Change | Refusal:
    if not may_manage(live, actor):
        return refused("host_or_admin_only")
    victim = find_seat(live.seats, target)
    if victim is None:
        return refused("no_such_player", name=clean.echo(target))
    if victim.user_id == actor.user_id:
        return refused("cannot_kick_self")
    if live.row.status not in (LOBBY, PLAYING):
        return refused("no_table")
    # A kicked player does not come back by /join, and does not keep hosting.
    kicked = sorted({*live.row.settings.get("kicked", []), victim.user_id or ""})
    heir = next((s for s in live.seats if not s.is_bot and s.seat != victim.seat), None)
    heir = heir if live.row.host == victim.user_id else None
    news = (said("kicked", name=victim.name),
            *((said("host_moved", name=heir.name),) if heir is not None else ()))
    settings = {**live.row.settings, "kicked": kicked}
    host = heir.user_id if heir is not None else None
    answer = said("kick_done", name=victim.name)
    if live.row.status == LOBBY:
        return Change(answer, seats=without(live.seats, victim.seat), host=host,
                      settings=settings, then=(*news, ShowTable()))
    bot = SeatRow(seat=victim.seat, user_id=None, name=bot_name(live.seats, victim.seat),
                  is_bot=True)
    # Their hand message stops offering moves; /join does not bring them back.
    return Change(answer, seats=replaced(live.seats, bot), host=host, settings=settings,
                  then=(*news, ShowHand(victim.seat, kicked=victim.user_id), Arrange()))


def rematch_refusal(live: Live, actor: Actor) -> Refusal | None:
    """Only a finished game is played again, and only by one of its players (asked before
    the platform is asked who is still in the chat)."""
    if live.row.status != FINISHED:
        return refused("out_of_date")
    if live.seat_of(actor.user_id) is None:
        return refused("not_seated")
    return None


def rematch(live: Live, actor: Actor, stays: Mapping[str, bool]) -> Rematch | Refusal:
    """Same options, same seats: the people still seated play again, bots the rest.

    Someone who left or whose seat a bot kept is not pulled back into a new game; they
    can take a bot's seat between rounds with /join like anyone else. Nor is someone the
    platform says has left the table's chat since the game began (`stays` says, for each
    person seated, whether they are still in it).
    """
    refusal = rematch_refusal(live, actor)
    if refusal is not None:
        return refusal
    if not stays.get(actor.user_id):
        return refused("not_a_member")
    # Bots keep their seats and their names: the same table, played again; a person no
    # longer in the chat is replaced by a bot.
    seats = [SeatRow(seat=s.seat, user_id=s.user_id, name=s.name)
             if not s.is_bot and stays.get(s.user_id or "")
             else SeatRow(seat=s.seat, user_id=None,
                          name=s.name if s.is_bot else bot_name(live.seats, s.seat),
                          is_bot=True)
             for s in live.seats]
    return Rematch(seats=seats, options=table_options.opened(live.game, live.row.options),
                   settings={k: v for k, v in live.row.settings.items()
                             if k not in PER_GAME_SETTINGS})
