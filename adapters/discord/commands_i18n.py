"""Slash commands in the player's Discord language: names, descriptions, options and
choices localized from the catalogue (`discord.cmd.*`, `discord.choice.*` in
`bot/locales/<lang>/discord.ftl`, a game's name from `game.<id>`).

discord.py asks a `Translator` for every string of every command, once per Discord
locale, when the commands are synced. The key is derived from where the string sits
(`discord.cmd.newgame.game.desc` is the `game` option's description of `/newgame`), so
the command code keeps its plain English strings; a string without a sentence in a
language is left to Discord's English default rather than guessed.
"""

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot import i18n
from engine import games


def lang_of_locale(locale: Locale) -> str | None:
    """`de` and `fr` for Discord's `de` and `fr`; `es-ES` would be `es`. English locales
    give None: English is the commands' own text."""
    code = locale.value.split("-")[0].lower()
    return code if code in i18n.LANGS and code != "en" else None


def key_for(string: app_commands.locale_str,
            context: app_commands.TranslationContextTypes) -> str | None:
    """The catalogue key of one string of a command, from its place in the command."""
    explicit = string.extras.get("key")
    if isinstance(explicit, str):
        return explicit
    data = context.data
    if context.location in (Where.command_name, Where.command_description):
        name = getattr(data, "qualified_name", None)
        if not isinstance(name, str):
            return None
        name = name.replace(" ", ".")
        return f"discord.cmd.{name}" if context.location is Where.command_name \
            else f"discord.cmd.{name}.desc"
    if context.location in (Where.parameter_name, Where.parameter_description):
        command = getattr(data, "command", None)
        param = getattr(data, "name", None)
        if command is None or not isinstance(param, str):
            return None
        key = f"discord.cmd.{command.qualified_name.replace(' ', '.')}.{param}"
        return key if context.location is Where.parameter_name else f"{key}.desc"
    if context.location is Where.choice_name:
        value = getattr(data, "value", None)
        if not isinstance(value, str):
            return None
        return f"game.{value}" if value in games.ids() else f"discord.choice.{value}"
    return None


class CatalogueTranslator(app_commands.Translator):
    """Localizations for every language of the catalogue but English."""

    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        lang = lang_of_locale(locale)
        key = key_for(string, context)
        if lang is None or key is None or not i18n.has(lang, key):
            return None
        return i18n.t(lang, key)
