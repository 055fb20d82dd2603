"""Telegram in German: a whole game read by German players, /lang de, language_code for
hands, and a command menu per language."""

from adapters.telegram.app import GROUP_COMMANDS, PRIVATE_COMMANDS
from bot import i18n
from db.repository import FINISHED
from tests.adapters.telegram_rig import GROUP, Rig, hand_messages, play_moves, start_with
from tests.english import english_sentences
from tests.fakes.telegram_api import FakeTelegram


def everything_read(fake: FakeTelegram, chats: list[int]) -> str:
    """Every text the bot showed in these chats, every version of every edited message."""
    texts = []
    for chat in chats:
        for message in fake.chat(chat).messages:
            if message.from_bot:
                texts += [v.text for v in message.history] + [message.text]
    return "\n".join(texts)


async def test_a_whole_game_in_german_shows_no_english_sentence(fake, tmp_path):
    players = (fake.user(21, "Anna", language_code="de"),
               fake.user(22, "Ben", language_code="de-AT"),
               fake.user(23, "Clara", language_code="de"))
    rig = Rig(fake, tmp_path / "tapis.db", default_lang="de")
    await rig.start()
    try:
        table_id = await start_with(rig, players, "/start")
        fake.send_command(GROUP, players[1], "/play quatsch")
        fake.send_command(GROUP, players[0], "/rules ochs")
        fake.send_command(GROUP, players[0], "/help")
        moves = await play_moves(rig, table_id, players, limit=400)
        assert 0 < moves < 400
        await fake.wait_for(lambda: fake.find(GROUP, contains="Endstand"))
        await rig.tables.outbox.flush()
        assert (await rig.tables.live_table(table_id)).row.status == FINISHED
        read = everything_read(fake, [GROUP, *[p.id for p in players]])
        assert "Du bist dran" in read or "du bist dran" in read
        assert "Deine Hand" in read and "Ochs und Esel (3–12 Spieler)" in read
        assert "nicht dran" in read or "verstehe ich nicht als Zug" in read
        assert english_sentences(read) == []
        for player in players:
            [hand] = hand_messages(fake, player)
            assert "Spiel vorbei" in hand.text
    finally:
        await rig.stop()


async def test_language_code_picks_german_hands_in_an_english_group_and_lang_de_works(
        fake, tmp_path):
    anna = fake.user(21, "Anna", language_code="de")
    ben, clara = fake.user(22, "Ben", language_code="en"), fake.user(23, "Clara")
    rig = Rig(fake, tmp_path / "tapis.db")
    await rig.start()
    try:
        await start_with(rig, (anna, ben, clara), "/start")
        assert "Deine Hand" in hand_messages(fake, anna)[0].text
        assert "Your hand" in hand_messages(fake, ben)[0].text
        fake.send_command(clara.id, clara, "/lang de")
        await fake.wait_for(lambda: fake.find(clara.id, contains="Deutsch mit dir"))
        fake.send_command(clara.id, clara, "/lang xx")
        refusal = await fake.wait_for(lambda: fake.find(clara.id, contains="Sprachen"))
        assert "de, en, fr" in refusal[0].text or "en, de, fr" in refusal[0].text
    finally:
        await rig.stop()


async def test_the_command_menu_is_set_for_every_language_in_both_scopes(rig, fake):
    await fake.wait_for(lambda: len(fake.commands) >= 2 * (len(i18n.LANGS) + 1))
    for lang in i18n.LANGS:
        for scope, commands in (("all_group_chats", GROUP_COMMANDS),
                                ("all_private_chats", PRIVATE_COMMANDS)):
            [menu] = [c for (s, code), c in fake.commands.items()
                      if scope in s and code == lang]
            assert [c["command"] for c in menu] == [name for name, _key in commands]
            assert [c["description"] for c in menu] == [i18n.t(lang, key)
                                                       for _name, key in commands]
    german = {c["command"]: c["description"] for (s, code), menu in fake.commands.items()
              if code == "de" and "group" in s for c in menu}
    assert german["join"] == "Am Tisch Platz nehmen"
    default = [c for (s, code), c in fake.commands.items() if code == "" and "group" in s]
    assert default and default[0][0]["description"] == i18n.t("en", GROUP_COMMANDS[0][1])


async def test_the_fake_refuses_a_language_code_telegram_would_refuse(rig, fake):
    from telegram import BotCommand
    from telegram.error import BadRequest
    try:
        await rig.bot.app.bot.set_my_commands([BotCommand("join", "x")], language_code="de-DE")
    except BadRequest as exc:
        assert "LANG_CODE_INVALID" in str(exc).upper().replace(" ", "_")
    else:
        raise AssertionError("the fake took a language code Telegram refuses")
