"""The longest tables each game can have still show their newest move, on both platforms.

Worst cases: every seat taken, names as long as the platform allows and full of what each
platform's markup treats specially. The fakes refuse text over the limit as the platforms
count it (Telegram after entity parsing, Discord its 2,000 characters of content), so a
table that is not fitted is not shown at all.
"""

import re
from pathlib import Path

import pytest

from adapters.discord.sink import content_of
from bot import present
from bot.i18n import t
from tests.adapters.telegram_rig import GROUP, Rig, open_table, play_moves, table_messages
from tests.adapters.test_discord import Harness, play_turn
from tests.adapters.test_discord import open_table as discord_open_table
from tests.adapters.test_discord import table_messages as discord_table_messages
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.telegram_api import FakeTelegram

pytestmark = pytest.mark.timeout(120)

# game id, its /newgame words, its most seats
GAMES = [("ochs-esel", "ochs-esel rounds=1", 12), ("the-game", "the-game", 5),
         ("nix-fur-ungut", "nix rounds=1", 5), ("michigan", "michigan", 8)]
MOVES = 14  # enough for the narration to hold more than one move


def hostile(i: int, length: int, filler: str) -> str:
    """A name of exactly `length` characters, distinct by its number."""
    head = f"{i:02d} "
    return head + (filler * length)[: length - len(head)]


def name_pattern(name: str) -> str:
    """A name as shown, whole or shortened with an ellipsis."""
    prefixes = [re.escape(name[:k]) + "…" for k in range(len(name))]
    return "(?:" + "|".join([re.escape(name), *prefixes]) + ")"


def shown(line: str, names: list[str], text: str) -> bool:
    """Whether `line` appears as a whole line of `text`, its names possibly shortened."""
    ordered = sorted(set(names), key=len, reverse=True)
    parts = re.split("(" + "|".join(re.escape(n) for n in ordered) + ")", line)
    pattern = "".join(name_pattern(p) if p in ordered else re.escape(p) for p in parts)
    return re.search(f"^{pattern}$", text, re.MULTILINE) is not None


async def check_table(live, text: str, lang: str = "en") -> None:
    names = live.names()
    to_act = live.game.to_act(live.state)
    turn = t(lang, "table_turn", names=", ".join(names[s] for s in to_act))
    assert shown(turn, names, text), f"no turn line {turn!r} in\n{text}"
    last, newest = live.last_lines()
    assert newest >= 1
    for line in last[-newest:]:
        assert shown(f"· {line}", names, text), f"newest move {line!r} missing from\n{text}"
    for name in names:  # every seat has its line
        assert re.search(name_pattern(name), text), f"{name!r} has no seat line in\n{text}"


@pytest.mark.parametrize(("game", "command", "seats"), GAMES)
async def test_a_full_telegram_table_of_long_html_names_shows_its_newest_move(
        tmp_path: Path, game: str, command: str, seats: int) -> None:
    # Telegram's flood rules 20 times faster, the limiter scaled alike: a table of up to
    # twelve seats plays many moves, each minutes long at Telegram's own pace.
    async with FakeTelegram(pace=0.05) as fake:
        rig = Rig(fake, tmp_path / "t.db")
        await rig.start()
        try:
            # 64 characters is what the adapter keeps of a Telegram name; each ' & < > "
            # is five or six characters once escaped, one for Telegram.
            users = [fake.user(700 + i, hostile(i, 64, "O'Brien & <Sons> \"Ltd\" ''' "))
                     for i in range(seats)]
            table_id = await open_table(rig, GROUP, users[0], users[1:], command)
            fake.send_command(GROUP, users[0], "/start")
            await fake.wait_for(lambda: any(m.buttons for u in users for m in fake.find(u.id)))
            await play_moves(rig, table_id, users, MOVES)
            await rig.tables.settle()
            live = await rig.tables.live_table(table_id)
            assert live is not None and live.row.status == "playing"
            refused = [c for c in fake.calls
                       if c.status == 400 and "too long" in (c.description or "")]
            assert refused == []
            text = table_messages(fake, GROUP)[-1].text
            await check_table(live, text)
        finally:
            await rig.stop()


@pytest.mark.parametrize(("game", "command", "seats"), GAMES)
async def test_a_full_discord_table_of_markdown_names_shows_its_newest_move_unstyled(
        tmp_path: Path, game: str, command: str, seats: int) -> None:
    async with FakeDiscord(pace=0.05) as fake:  # Discord's limits, 20 times faster, as above
        players = []
        for i in range(seats):
            user = fake.add_user(f"player{i}",
                                 global_name=hostile(i, 32, "**_x_** ||y|| ~~z~~ `c` \\ "))
            fake.guild.members[user.id] = []
            players.append(user.name)
        h = Harness(fake, tmp_path / "d.db")
        await h.open()
        try:
            words = command.split()
            table_id = await discord_open_table(h, players, options=" ".join(words[1:]),
                                                game=game)
            for _ in range(MOVES):
                assert await play_turn(h, table_id, players)
            await h.quiet()
            live = await h.tables.live_table(table_id)
            assert live is not None and live.row.status == "playing"
            content = discord_table_messages(fake, fake.channel)[-1].content
            assert len(content) <= 2000
            # The table carries the last deal's result, fitted with it.
            drawn = present.table(live, "en")
            assert content == h.app.sink.table_content(table_id, drawn)
            _title, _, body = content.partition("\n")
            # Every Markdown character of the names is escaped: nothing restyles the table.
            assert re.search(r"(?<!\\)[*_~|`]", body) is None, body
            await check_table(live, re.sub(r"\\(.)", r"\1", body))
            # /table answers with the same drawing, fitted the same way.
            await h.slash("table", players[0])
            answer = h.said_to(players[0])[-1]
            assert answer == content_of(drawn)
        finally:
            await h.close()
