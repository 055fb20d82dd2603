"""`python -m bot invite`: the link that adds the bot to a Discord server with the rights it
uses, and no others."""

import base64
import binascii

import discord

# Everything the bot does in a server's channels: see them, and post its tables, turn calls
# and results, in threads too (editing its own messages needs nothing more). Answers to
# slash commands and buttons, and hands sent privately, need no right in the server.
# `can_post` in app.py checks the same three before a table is opened.
NEEDED = discord.Permissions(view_channel=True, send_messages=True,
                             send_messages_in_threads=True)
# `bot` adds the bot user, `applications.commands` its slash commands.
SCOPES = ("bot", "applications.commands")


def application_id(token: str) -> int | None:
    """The application id a bot token carries: its first part is the bot user's id in
    base64, and a bot's user id is its application's id. None if the token has no such part."""
    first = token.split(".", 1)[0]
    try:
        text = base64.b64decode(first + "=" * (-len(first) % 4), altchars=b"-_",
                                validate=True).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(text) if text.isascii() and text.isdecimal() and 0 < int(text) < 2**63 else None


def invite_url(app_id: int) -> str:
    return discord.utils.oauth_url(app_id, permissions=NEEDED, scopes=SCOPES)
