"""Discord in German: slash commands localized for de and fr within Discord's rules, a
whole game read by German players, and the locale picking German hands."""

import re

import aiohttp
import pytest

from bot import i18n
from tests.adapters.test_discord import (
    Harness,
    button,
    hand_of,
    nobody_was_told_something_went_wrong,
    open_table,
    play_until,
    table_messages,
)
from tests.english import english_sentences

NAME = re.compile(r"[-_\w]{1,32}")
# German players in the guild, for the `fake` of tests/adapters/conftest.py.
GUILD_MEMBERS = dict.fromkeys(("anna", "ben", "clara", "dora"), "de")


def localized(item: dict, field: str) -> dict[str, str]:
    return item.get(f"{field}_localizations") or {}


async def test_every_command_option_and_choice_is_localized_in_german_and_french(h, fake):
    commands = fake.commands(fake.guild)
    assert len(commands) >= 18
    for lang in ("de", "fr"):
        names = []
        for cmd in commands:
            name = localized(cmd, "name").get(lang)
            description = localized(cmd, "description").get(lang)
            assert name and NAME.fullmatch(name) and name == name.lower(), (lang, cmd["name"])
            assert description and len(description) <= 100, (lang, cmd["name"])
            names.append(name)
            for option in cmd.get("options", []):
                option_name = localized(option, "name").get(lang)
                assert option_name and NAME.fullmatch(option_name), (lang, option["name"])
                assert option_name == option_name.lower()
                assert 1 <= len(localized(option, "description").get(lang, "")) <= 100
        assert len(names) == len(set(names)), lang
    by_name = {c["name"]: c for c in commands}
    assert localized(by_name["newgame"], "name") == {"de": "neues-spiel", "fr": "nouvelle-partie"}
    assert localized(by_name["rules"], "name")["fr"] == "règles"
    assert localized(by_name["join"], "description")["de"] == "Am Tisch dieses Kanals Platz nehmen"
    [game] = [o for o in by_name["newgame"]["options"] if o["name"] == "game"]
    assert localized(game, "name") == {"de": "spiel", "fr": "jeu"}
    ochs = next(c for c in game["choices"] if c["value"] == "ochs-esel")
    assert ochs["name_localizations"]["de"] == "Ochs und Esel"
    [where] = [o for o in by_name["lang"]["options"] if o["name"] == "where"]
    assert [c["name_localizations"]["de"] for c in where["choices"]] == ["ich", "kanal"]
    [language] = [o for o in by_name["lang"]["options"] if o["name"] == "language"]
    assert "Deutsch" in [c["name"] for c in language["choices"]]


async def test_the_english_command_texts_are_the_english_catalogue(h, fake):
    """Two places name each command in English; they must not drift apart."""
    for cmd in fake.commands(fake.guild):
        assert i18n.t("en", f"discord.cmd.{cmd['name']}") == cmd["name"]
        assert i18n.t("en", f"discord.cmd.{cmd['name']}.desc") == cmd["description"]
        for option in cmd.get("options", []):
            key = f"discord.cmd.{cmd['name']}.{option['name']}"
            assert i18n.t("en", f"{key}.desc") == option["description"], key


@pytest.mark.parametrize(("change", "code"), [
    ({"name_localizations": {"de": "Neues Spiel"}}, "APPLICATION_COMMAND_INVALID_NAME"),
    ({"name_localizations": {"de": "x" * 33}}, "APPLICATION_COMMAND_INVALID_NAME"),
    ({"name_localizations": {"de": "Großbuchstabe".upper()}}, "APPLICATION_COMMAND_INVALID_NAME"),
    ({"name_localizations": {"de-DE": "spiel"}}, "LOCALE_INVALID"),
    ({"description_localizations": {"fr": "x" * 101}}, "BASE_TYPE_BAD_LENGTH"),
    ({"name_localizations": {"de": "hilfe"}}, "APPLICATION_COMMANDS_DUPLICATE_NAME"),
])
async def test_the_fake_refuses_localizations_discord_refuses(fake, change, code):
    body = [{"name": "newgame", "description": "Open a table", "type": 1, **change},
            {"name": "help", "description": "Help", "type": 1,
             "name_localizations": {"de": "hilfe"}}]
    url = f"{fake.base_url}/applications/{fake.application_id}/commands"
    async with aiohttp.ClientSession() as session, session.put(
            url, json=body, headers={"Authorization": f"Bot {fake.token}"}) as response:
        assert response.status == 400
        assert code in await response.text()
    assert fake.commands() == []


async def test_a_whole_game_in_german_shows_no_english_sentence(fake, tmp_path):
    harness = Harness(fake, tmp_path / "tapis.db")
    harness.settings.default_lang = "de"
    await harness.open()
    try:
        players = ["anna", "ben", "clara", "dora"]
        table_id = await open_table(harness, players, options="runden=1 ochs=ja")
        await harness.slash("play", "ben", move="quatsch")
        await harness.slash("rules", "anna")
        await harness.slash("help", "anna")
        [table] = table_messages(fake, fake.channel)
        await harness.click(table, button(table, "hand"), "clara")
        await play_until(harness, table_id, players)
        live = await harness.tables.live_table(table_id)
        assert live.row.status == "finished" and live.row.options.get("ox") is True
        texts = []
        for message in fake.messages.values():
            texts += [version.get("content") or "" for version in message.history]
            texts.append(message.content)
        read = "\n".join(texts)
        assert "Endstand" in read and "Deine Hand" in read and "Ochs und Esel (3–12" in read
        assert "Befehle:" in read
        assert english_sentences(read) == []
        assert "Spiel vorbei" in hand_of(harness, "anna").content
        assert nobody_was_told_something_went_wrong(fake)
    finally:
        await harness.close()


async def test_a_german_discord_locale_picks_german_hands_at_an_english_table(h, fake):
    erin = fake.add_user("erin")  # en-US
    fake.guild.members[erin.id] = []
    await open_table(h, ["erin", "anna", "ben"])
    assert "Deine Hand" in hand_of(h, "anna").content
    assert "Your hand" in hand_of(h, "erin").content
    [table] = table_messages(fake, fake.channel)
    assert "Players" in table.content or "Last moves" in table.content or "To play" in \
        table.content
