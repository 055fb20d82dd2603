"""Replays of finished games: every logged move, every hand, each round's scores, in the
reader's language; only for a finished game named by a genuine reference; names as
stored now (a forgotten player is "a former player"), and gone with their game."""

import json
import time

from bot import present, retention
from bot.authority import Press
from bot.i18n import t
from bot.privacy import FORGET, PRIVACY_REF
from bot.replay import Refused, Replays, replay_path, replay_url
from bot.tables import Actor
from db.repository import FINISHED
from tests.bot.conftest import BOB, CAROL, CHANNEL, Harness

QUOKKA = Actor("u7", "Quokkazyx Vandermeer")
DAY = 86400.0


async def play_to_the_end(tables, table_id, people=(QUOKKA, BOB, CAROL)):
    """Everyone plays their first legal move until the game is over."""
    for _ in range(500):
        await tables.settle()
        live = await tables.live_table(table_id)
        if live.row.status == FINISHED:
            return live
        seat = live.game.to_act(live.state)[0]
        player = next(a for a in people if a.user_id == live.seats[seat].user_id)
        move = live.game.legal_moves(live.state, seat)[0]
        assert (await tables.play(player, CHANNEL, str(move))).ok
    raise AssertionError("the game did not end")


async def finished_ochs(tables, rounds=2):
    await tables.new_game(QUOKKA, CHANNEL, "ochs-esel", [f"rounds={rounds}", "deadline=off"])
    await tables.join(BOB, CHANNEL)
    await tables.join(CAROL, CHANNEL)
    table_id = (await tables.start_game(QUOKKA, CHANNEL)).table_id
    return await play_to_the_end(tables, table_id)


def replays_of(tables):
    return Replays(tables.repo, tables.ref)


async def test_a_finished_game_replays_every_logged_move_with_every_hand(any_harness):
    tables = any_harness.tables
    live = await finished_ochs(tables)
    game = live.game

    drawn = await replays_of(tables).replay(live.ref, "en")

    moves = await tables.repo.moves(live.id)
    steps = drawn["steps"]
    assert len(steps) == len(moves) + 1 == live.row.version + 1
    # The deal: three full hands, each as its player was dealt it.
    dealt = game.new_game(3, live.row.options, live.row.seed)
    assert steps[0]["hands"] == [game.view(dealt, s)["hand"] for s in range(3)]
    assert all(steps[0]["hands"]) and steps[0]["seat"] is None
    # Each move: who made it, as logged, and what the table said of it.
    assert [(s["seat"], s["move"]) for s in steps[1:]] == [(m.seat, m.move) for m in moves]
    assert all(s["lines"] for s in steps[1:])
    # The end: what the finished table holds, every hand included.
    final = json.loads(json.dumps(live.public_view()))
    assert steps[-1]["view"] == final
    assert steps[-1]["hands"] == [game.view(live.state, s)["hand"] for s in range(3)]
    # A hand shrinks as its player plays: the cards a move played leave its hand.
    sizes = [sum(map(len, s["hands"])) for s in steps]
    assert sizes[0] > sizes[len(sizes) // 3]


async def test_scores_after_each_round_and_the_final_ranking(harness):
    tables = harness.tables
    live = await finished_ochs(tables, rounds=2)
    result = live.game.outcome(live.state)

    drawn = await replays_of(tables).replay(live.ref, "en")

    rounds = drawn["rounds"]
    assert [r["round"] for r in rounds] == [1, 2]
    # After the last round, the totals are the game's scores; each round's points add up.
    assert rounds[-1]["totals"] == list(result.scores)
    assert [a + b for a, b in zip(rounds[0]["points"], rounds[1]["points"], strict=True)] \
        == rounds[1]["totals"]
    # A round is marked on the step that ended it, whose table shows those totals.
    for r in rounds:
        step = drawn["steps"][r["step"]]
        assert step["round_ended"] == rounds.index(r)
        assert step["view"]["scores"] == r["totals"]
    assert rounds[0]["step"] < rounds[1]["step"] == len(drawn["steps"]) - 1
    assert drawn["outcome"]["lines"] == present.final_ranking(live, result, "en")


async def test_the_narration_is_in_the_readers_language(harness):
    tables = harness.tables
    live = await finished_ochs(tables, rounds=1)
    replays = replays_of(tables)

    english = await replays.replay(live.ref, "en")
    german = await replays.replay(live.ref, "de")

    assert english["steps"][1]["lines"] != german["steps"][1]["lines"]
    assert german["outcome"]["lines"][0] == present.final_ranking(
        live, live.game.outcome(live.state), "de")[0]
    assert german["lang"] == "de"


async def test_a_forged_or_altered_reference_shows_nothing(harness):
    tables = harness.tables
    live = await finished_ochs(tables, rounds=1)
    replays = replays_of(tables)
    table_id, tag = live.ref.split("_", 1)
    other = ("A" if tag[0] != "A" else "B") + tag[1:]

    for forged in (f"{table_id}_{other}", f"{int(table_id) + 1}_{tag}", "1_AAAAAAAAAA",
                   "", "../etc", table_id, "9" * 40, f"{table_id}_{tag}x"):
        answer = await replays.replay(forged, "en")
        assert answer == Refused("forged"), forged
    assert Refused("forged").text("fr") == t("fr", "web_replay_refused_forged")


async def test_a_game_in_play_and_a_cancelled_game_keep_their_hands_hidden(harness):
    tables = harness.tables
    await tables.new_game(QUOKKA, CHANNEL, "ochs-esel", ["rounds=1", "deadline=off"])
    lobby = await tables.table_for_channel(CHANNEL)
    replays = replays_of(tables)
    ref = await tables.ref(lobby.id)
    assert await replays.replay(ref, "en") == Refused("unfinished")

    await tables.join(BOB, CHANNEL)
    await tables.start_game(QUOKKA, CHANNEL)
    await tables.settle()
    assert await replays.replay(ref, "en") == Refused("unfinished")

    assert (await tables.cancel(QUOKKA, CHANNEL)).ok
    await tables.settle()
    answer = await replays.replay(ref, "en")
    assert answer == Refused("cancelled")
    assert "cancelled" in answer.text("en")


async def test_a_forgotten_player_is_a_former_player_in_the_replay(harness):
    tables = harness.tables
    live = await finished_ochs(tables, rounds=1)
    replays = replays_of(tables)
    before = json.dumps(await replays.replay(live.ref, "en"), ensure_ascii=False)
    assert QUOKKA.name in before

    prompt = await tables.privacy.forget_prompt(QUOKKA)
    reply = await tables.press(QUOKKA, Press(f"{PRIVACY_REF}.{prompt.version}.{FORGET}", None))
    assert reply.ok, reply.text

    for lang in ("en", "de"):
        drawn = await replays.replay(live.ref, lang)
        text = json.dumps(drawn, ensure_ascii=False)
        assert QUOKKA.name not in text and "Quokkazyx" not in text
        names = [s["name"] for s in drawn["seats"]]
        assert t(lang, "former_player") in names and "Bob" in names
        # The lines of the moves she made name her so too.
        seat = names.index(t(lang, "former_player"))
        hers = next(s for s in drawn["steps"][1:] if s["seat"] == seat)
        assert any(t(lang, "former_player") in line for line in hers["lines"]), hers


async def test_retention_deletes_the_replay_with_its_game(any_harness):
    tables = any_harness.tables
    live = await finished_ochs(tables, rounds=1)
    replays = replays_of(tables)
    assert not isinstance(await replays.replay(live.ref, "en"), Refused)

    assert await retention.sweep(tables.repo, 30, now=time.time() + 20 * DAY) == 0
    assert not isinstance(await replays.replay(live.ref, "en"), Refused)
    assert await retention.sweep(tables.repo, 30, now=time.time() + 31 * DAY) >= 1

    # The reference is still genuine, so the reader is told the game is gone, not that
    # the link is wrong; and nothing of it is shown, kept drawings included.
    answer = await replays.replay(live.ref, "en")
    assert answer == Refused("removed")
    assert await tables.repo.moves(live.id) == []


def test_the_replays_address_is_under_web_url_and_absent_without_it():
    assert replay_url(None, "12_abcdefghij") is None
    assert replay_url("", "12_abcdefghij") is None
    assert replay_url("https://tapis.example/", "12_abc-_ABCde") == \
        "https://tapis.example/r/12_abc-_ABCde"
    assert replay_path("1_a/b?c") == "/r/1_a%2Fb%3Fc"


async def test_the_final_ranking_in_chat_links_to_the_replay_when_the_page_is_offered(
        tmp_path, settings):
    offered = Harness(tmp_path / "web.db",
                      settings.model_copy(update={"web_url": "https://tapis.example/"}))
    await offered.open()
    try:
        live = await finished_ochs(offered.tables)
        url = "https://tapis.example" + replay_path(live.ref)
        assert offered.sink.said(t("en", "replay_link", url=url))
    finally:
        await offered.close()


async def test_without_web_url_the_final_ranking_links_nowhere(harness):
    live = await finished_ochs(harness.tables)
    assert harness.sink.said(present.final_ranking(
        live, live.game.outcome(live.state), "en")[0])
    assert not harness.sink.said(replay_path(live.ref))
