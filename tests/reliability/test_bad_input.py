"""Whatever people type or a forged button sends, bot/ answers with a sentence and keeps
its tables as they were: no exception escapes, a refusal changes nothing.

Inputs are hypothesis-made: command text, /newgame option words and button payloads,
overlong, binary, naming other tables, negative and huge numbers, another game's moves.
"""

import itertools
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.authority import Press
from bot.tables import Actor, Reply
from engine import games
from tests.reliability.checks import is_catalogue_sentence, row_state
from tests.reliability.conftest import GAMES, PLAYERS, Service

OUTSIDER = Actor("stranger", "Stranger")
FUZZ = settings(max_examples=75, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])

# Every game's notation, so each table also gets the moves of the other games.
NOTATION = ["play 7 7 J", "pass", "play single 7", "play run3 4 5 6 super", "23 A1, 77 D2",
            "end", "lead H", "keep", "swap", "bid 3", "play", "play 99 A9", "7H", "JK"]
NUMBERS = st.sampled_from([-1, 0, 1, 2, 3, 2**31, 2**62, 2**63, 2**64, 10**30, -(2**63)])
# What once raised instead of being refused: digits int() cannot read, JSON deep enough to
# exhaust the parser's recursion, thousands of digits, a lone surrogate, bidi controls.
HOSTILE = st.sampled_from(["²", "¹", "③", "①", "٣", "[" * 1500 + "]" * 1500, "9" * 5000,
                           '{"quad":[9223372036854775808,0,0]}', "Bob\udc80", "\u202e1"])
TEXT = st.one_of(
    HOSTILE,
    st.text(max_size=80),
    st.text(min_size=200, max_size=2000),
    st.binary(max_size=120).map(lambda b: b.decode("latin-1")),
    st.binary(max_size=120).map(lambda b: b.decode("utf-8", "surrogateescape")),
    st.sampled_from(NOTATION),
    st.builds(lambda a, b: f"{a} {b}", st.sampled_from(NOTATION), NUMBERS),
)


async def started(service: Service) -> dict[str, int]:
    if not service.tables._loaded:  # first example of this test: set the tables up once
        for index, (game, seats, words) in enumerate(GAMES):
            await service.table(f"chan-{index}", game, seats, words)
    return {f"chan-{index}": index + 1 for index in range(len(GAMES))}


async def check(service: Service, call: Any) -> Reply:
    before = row_state(service.path)
    reply = await call
    await service.tables.settle()
    assert isinstance(reply, Reply)
    assert reply.text.strip()
    if not reply.ok:
        assert row_state(service.path) == before, f"refused ({reply.text}) but changed"
        assert is_catalogue_sentence(reply.text), reply.text
    return reply


@FUZZ
@given(text=TEXT, channel=st.integers(0, len(GAMES)), who=st.integers(0, 3))
async def test_any_move_text_is_played_or_refused_in_words_without_a_change(
    service, text, channel, who,
):
    await started(service)
    actor = [*PLAYERS[:3], OUTSIDER][who]
    await check(service, service.tables.play(actor, f"chan-{channel}", text))


_channels = itertools.count()


@FUZZ
@given(game=st.one_of(TEXT, st.sampled_from([*games.ids(), "ochs", "mi", "nix"])),
       words=st.lists(st.one_of(
           TEXT,
           st.builds(lambda k, v: f"{k}={v}",
                     st.sampled_from(["rounds", "manches", "chips", "deadline", "bot_delay",
                                      "ox", "min_play", "board", "hands_per_player", "x"]),
                     st.one_of(NUMBERS, TEXT, st.sampled_from(["{", "[1,2", "{\"pair\":9}",
                                                               "off", "5m", "nan", "1e999"]))),
       ), max_size=6),
       fresh=st.booleans())
async def test_any_new_game_text_and_option_words_open_a_table_or_are_refused_in_words(
    service, game, words, fresh,
):
    await started(service)
    channel = f"new-{next(_channels)}" if fresh else "chan-0"
    await check(service, service.tables.new_game(PLAYERS[0], channel, game, words))


def payloads(refs: list[str]) -> st.SearchStrategy[str]:
    """Payloads naming the real tables (by their genuine references), forged references
    and plain numbers, with any version and action."""
    forged_ref = st.builds(lambda n, tag: f"{n}_{tag}", NUMBERS, st.one_of(
        st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-",
                min_size=10, max_size=10), TEXT))
    table = st.one_of(st.sampled_from(refs), forged_ref, NUMBERS, st.just(99))
    version = st.one_of(NUMBERS, st.integers(0, 40))
    action = st.one_of(
        st.sampled_from(["join", "leave", "start", "rematch", "hand", "addbot", "removebot",
                         "options", "m:", "x"]),
        st.builds(lambda n: f"m:{n}", st.one_of(st.sampled_from(NOTATION), TEXT)),
        TEXT,
    )
    structured = st.builds(lambda t, v, a: f"{t}.{v}.{a}", table, version, action)
    return st.one_of(structured, TEXT, st.builds(lambda p, n: p * n, structured,
                                                 st.integers(2, 20)))


@FUZZ
@given(data=st.data(), who=st.integers(0, 3), where=st.integers(-1, len(GAMES)),
       admin=st.booleans())
async def test_any_button_payload_is_obeyed_or_refused_in_words_without_a_change(
    service, data, who, where, admin,
):
    ids = await started(service)
    refs = [await service.tables.ref(table_id) for table_id in ids.values()]
    actor = [*PLAYERS[:3], OUTSIDER][who]
    payload = data.draw(payloads(refs))
    message = data.draw(st.one_of(st.none(), st.integers(0, 50).map(str)))

    async def is_admin() -> bool:
        return admin

    # Pressed in one of the tables' channels, an unknown one, or a private chat (None).
    channel = None if where < 0 else f"chan-{where}"
    await check(service, service.tables.press(actor, Press(payload, channel, message,
                                                           is_admin)))


@FUZZ
@given(target=TEXT, lang=TEXT, channel=st.integers(0, len(GAMES)))
async def test_kick_and_lang_words_are_obeyed_or_refused_in_words(service, target, lang,
                                                                   channel):
    await started(service)
    await check(service, service.tables.kick(PLAYERS[1], f"chan-{channel}", target))
    await check(service, service.tables.set_lang(OUTSIDER, f"chan-{channel}", lang,
                                                 personal=False))
