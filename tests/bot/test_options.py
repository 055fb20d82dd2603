"""How `/newgame` and `/options` read what people type."""

import pytest

from bot.options import OptionsError, parse, resolve_game


@pytest.mark.parametrize(("text", "game"), [
    ("ochs", "ochs-esel"), ("Ochs-Esel", "ochs-esel"), ("âne", "ochs-esel"),
    ("thegame", "the-game"), ("The Game", "the-game"), ("nix", "nix-fur-ungut"),
    ("Nix für Ungut", "nix-fur-ungut"), ("michigan", "michigan"), ("poker", None), ("", None),
])
def test_games_are_found_by_id_name_or_nickname(text, game):
    assert resolve_game(text) == game


def test_game_options_and_table_settings_are_told_apart():
    game, table = parse(["rounds=3", "ox", "deadline=2m", "bot_delay=0.5"])
    assert game == {"rounds": 3, "ox": True}
    assert table == {"deadline": 120, "bot_delay": 0.5}


@pytest.mark.parametrize(("word", "seconds"), [
    ("deadline=90", 90), ("deadline=90s", 90), ("deadline=5min", 300), ("deadline=off", 0),
    ("deadline=0", 0), ("delai=non", 0), ("delai=1,5m", 90),
])
def test_deadlines_read_as_seconds_minutes_or_off(word, seconds):
    assert parse([word])[1] == {"deadline": seconds}


def test_french_option_words_mean_the_same():
    assert parse(["manches=2", "boeuf=oui", "jetons=20"])[0] == {"rounds": 2, "ox": True,
                                                                "chips": 20}


@pytest.mark.parametrize("word", ["deadline=5", "deadline=2d", "deadline=forever",
                                  "bot_delay=60", "bot_delay=-1", "x y=1", "=3"])
def test_impossible_table_settings_are_refused_with_the_word(word):
    with pytest.raises(OptionsError) as refused:
        parse([word])
    assert refused.value.code in {"bad_table_setting", "bad_option_word", "bad_deadline_range",
                                  "bad_bot_delay_range"}
