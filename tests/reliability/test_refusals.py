"""Every class of bad input is refused with its own sentence, in the person's language,
and changes nothing; input that is only odd (a name with a lone surrogate or control
characters) is cleaned, never a reason for a traceback."""

import sqlite3

import pytest

from bot import clean
from bot.i18n import LANGS, t
from bot.options import MAX_WORDS
from bot.tables import MAX_MOVE_CHARS, Actor
from tests.reliability.checks import row_state
from tests.reliability.conftest import PLAYERS, Service

ALICE, BOB = PLAYERS[0], PLAYERS[1]
DEEP = "[" * 1500 + "]" * 1500  # RecursionError in json.loads, before the caps
NESTED = "[" * (clean.MAX_JSON_DEPTH + 1) + "]" * (clean.MAX_JSON_DEPTH + 1)
HUGE = "9" * 5000


@pytest.fixture(params=["en", "fr"])
async def lang(request, service) -> str:
    for actor in PLAYERS:
        assert (await service.tables.set_lang(actor, "lobby", request.param,
                                              personal=True)).ok
    return request.param


async def refused(service: Service, call, expected: str) -> None:
    before = row_state(service.path)
    reply = await call
    await service.tables.settle()
    assert (reply.ok, reply.text) == (False, expected)
    assert row_state(service.path) == before


@pytest.mark.parametrize("where", ["newgame", "options"])
async def test_json_too_long_too_deep_or_with_a_huge_number_is_refused_before_parsing(
        service, lang, where):
    tables = service.tables
    assert (await tables.new_game(ALICE, "lobby", "nix")).ok

    def call(value: str):
        if where == "newgame":
            return tables.new_game(ALICE, "other", "nix", [f"board={value}"])
        return tables.set_options(ALICE, "lobby", [f"board={value}"])

    await refused(service, call(DEEP), t(lang, "option_value_too_long", key="board",
                                         max=clean.MAX_JSON_CHARS))
    await refused(service, call(NESTED), t(lang, "option_value_too_deep", key="board",
                                           max=clean.MAX_JSON_DEPTH))
    await refused(service, call('{"quad":[' + "9" * 40 + ",0,0]}"),
                  t(lang, "option_number_too_long", key="board", max=clean.MAX_DIGITS))
    await refused(service, call('{"quad":[' + HUGE + ",0,0]}"),
                  t(lang, "option_value_too_long", key="board", max=clean.MAX_JSON_CHARS))


async def test_a_number_of_five_thousand_digits_is_refused_as_too_long(service, lang):
    await refused(service, service.tables.new_game(ALICE, "lobby", "ochs", [f"rounds={HUGE}"]),
                  t(lang, "option_number_too_long", key="rounds", max=clean.MAX_DIGITS))


async def test_too_many_option_words_are_refused(service, lang):
    words = ["ox"] * (MAX_WORDS + 1)
    await refused(service, service.tables.new_game(ALICE, "lobby", "ochs", words),
                  t(lang, "too_many_options", max=MAX_WORDS))


@pytest.mark.parametrize("digit", ["²", "¹", "³", "⁴", "①", "٣", "1" * 5000])
async def test_kick_with_a_digit_int_cannot_read_names_nobody(service, lang, digit):
    table_id = await service.table("lobby", "ochs-esel", 3, [])
    assert table_id
    await refused(service, service.tables.kick(ALICE, "lobby", digit),
                  t(lang, "no_such_player", name=clean.echo(digit)))


async def test_kick_by_place_number_still_works(service, lang):
    await service.table("lobby", "ochs-esel", 3, [])
    reply = await service.tables.kick(ALICE, "lobby", "2")
    assert reply.ok, reply.text


async def test_a_move_too_long_to_read_is_refused(service, lang):
    await service.table("lobby", "ochs-esel", 3, [])
    await refused(service, service.tables.play(ALICE, "lobby", "7 " * MAX_MOVE_CHARS),
                  t(lang, "move_too_long", max=MAX_MOVE_CHARS))


async def test_echoed_text_is_clipped_and_without_control_characters(service, lang):
    typed = "\u202eevil\x1b[31m\x00 game" + "x" * 500
    before = row_state(service.path)
    reply = await service.tables.new_game(ALICE, "lobby", typed)
    assert not reply.ok
    assert row_state(service.path) == before
    quoted = clean.echo(typed)
    assert quoted in reply.text and len(quoted) <= clean.MAX_ECHO
    assert not any(c in reply.text for c in "\u202e\x1b\x00")
    assert "x" * 100 not in reply.text


@pytest.mark.parametrize("name", ["Bob\udc80", "\ud800", "Bo\u202eb\x07", "\x00\x01",
                                  "B" * 500])
async def test_a_name_with_a_lone_surrogate_or_control_characters_is_cleaned(
        service, lang, name):
    tables = service.tables
    assert (await tables.new_game(ALICE, "lobby", "ochs")).ok
    odd = Actor("odd", name)
    reply = await tables.join(odd, "lobby")
    assert reply.ok, reply.text
    await tables.settle()
    live = await tables.table_for_channel("lobby")
    seats = await service.repo.get_seats(live.id)
    stored = seats[-1].name
    stored.encode("utf-8")  # valid text
    assert stored == clean.name(name) and stored.isprintable()
    assert len(stored) <= clean.MAX_NAME
    assert (await tables.add_bot(ALICE, "lobby")).ok
    assert (await tables.start_game(ALICE, "lobby")).ok  # and the game shows it


async def test_a_damaged_page_answers_the_storage_sentence(tmp_path):
    path = tmp_path / "tapis.db"
    service = Service(path)
    await service.open()
    assert (await service.tables.set_mentions(BOB, True)).ok
    await service.close()
    with sqlite3.connect(path) as db:
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'user_settings'"
                             ).fetchone()
        (size,) = db.execute("PRAGMA page_size").fetchone()
    with open(path, "r+b") as file:
        file.seek((root - 1) * size)
        file.write(b"\xff" * size)
    service = Service(path)
    await service.open()
    try:
        # Every command reads the person's settings first: a read that fails is answered
        # in the bot's default language, the only one it can know then.
        for call in (service.tables.set_mentions(BOB, False),
                     service.tables.set_lang(BOB, "lobby", "xx", personal=True),
                     service.tables.stats(BOB, "lobby"),
                     service.tables.new_game(BOB, "lobby", "ochs")):
            reply = await call
            assert (reply.ok, reply.text) == (False, t("en", "storage_unavailable"))
    finally:
        await service.close()


async def test_a_full_disk_under_a_preference_answers_the_storage_sentence(service, lang):
    repo = service.repo
    admin = Actor("admin", "Admin", is_admin=True)
    assert (await service.tables.set_lang(admin, "lobby", lang, personal=False)).ok

    def fill(db: sqlite3.Connection) -> None:
        (pages,) = db.execute("PRAGMA page_count").fetchone()
        db.execute(f"PRAGMA max_page_count = {pages}")
        for i in range(1, 1_000_000):  # the smallest rows there are, until the page is full
            try:
                db.execute("INSERT INTO user_settings (platform, user_id) VALUES ('', ?)",
                           (chr(i),))
            except sqlite3.OperationalError:
                return

    assert repo._db is not None
    await repo._job(repo._db, fill)
    stranger = Actor("stranger-with-a-long-id", "Zed")  # no settings row yet: it needs room
    await refused(service, service.tables.set_lang(stranger, "lobby", "xx", personal=True),
                  t(lang, "lang_unknown", langs=", ".join(LANGS)))
    await refused(service, service.tables.set_lang(stranger, "lobby", "fr", personal=True),
                  t(lang, "storage_failed"))
    # In private, before any language is known: the bot's default one.
    await refused(service, service.tables.set_mentions(stranger, False),
                  t("en", "storage_failed"))
