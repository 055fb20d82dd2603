"""Michigan's deal summary says its totals come before the next deal's antes (the table
then shows fewer chips); after the last deal there is no next one, and no antes."""

import random

from bot import i18n, present
from db.repository import FINISHED
from tests.bot.conftest import ALICE, CHANNEL
from tests.botplay import bot_move

# How each language's deal summary speaks of the next deal's antes.
ANTES = {"en": "next deal's antes", "fr": "donne suivante", "de": "nächsten Runde"}


async def _play_michigan_to_its_end(harness):
    tables = harness.tables
    await tables.new_game(ALICE, CHANNEL, "michigan", ["deadline=off"])
    await tables.add_bot(ALICE, CHANNEL)
    await tables.add_bot(ALICE, CHANNEL)
    live = await tables.live_table((await tables.start_game(ALICE, CHANNEL)).table_id)
    await tables.settle()
    rng = random.Random(7)
    for _ in range(3000):
        if live.row.status == FINISHED:
            break
        seat = live.game.to_act(live.state)[0]
        move = bot_move(live.game, live.state, seat, rng)
        assert (await tables.play(ALICE, CHANNEL, str(move))).ok
        await tables.settle()
    assert live.row.status == FINISHED
    return live


async def test_the_last_deals_summary_does_not_speak_of_a_next_deal(harness):
    live = await _play_michigan_to_its_end(harness)
    results = [a.text for a in harness.sink.announcements if a.kind == "result"]
    deals = live.game.view(live.state)["deals"]
    assert len(results) == deals  # a summary per deal, the last one with the ranking
    assert all("Deal" in text and ANTES["en"] in text for text in results[:-1])
    last = results[-1]
    assert f"The last deal ({deals}) is over" in last and ANTES["en"] not in last, last
    assert "Michigan is over. Final ranking" in last


def test_in_every_language_the_last_deal_is_summed_up_without_the_next_antes():
    from tests.bot.test_playtest import fake_live

    live = fake_live("michigan", ["Alice", "Bob", "Carol"])
    over = {"type": "deal_over", "deal": 3, "round": 3, "chips": [40, 55, 55],
            "payments": [-10, 5, 5]}
    assert set(ANTES) == set(i18n.LANGS)
    for lang, antes in ANTES.items():
        assert antes in present.round_summary(live, over, lang)[0]
        last = present.round_summary(live, over, lang, last=True)
        assert antes not in last[0], last[0]
        assert "3" in last[0] and len(last) == 4
        assert last[0] != present.round_summary(live, over, lang)[0]
