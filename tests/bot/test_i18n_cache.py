"""The parsed sentence files are kept in the user's cache between starts: a start reads
the files as they are now, edited or not, and a cache it cannot use never stops it."""

import pickle
import shutil
from pathlib import Path

import pytest

from bot import i18n


def texts(parsed: i18n._Parsed) -> dict[str, dict[str, str]]:
    """What each language says, as the catalogues would offer it."""
    return {lang: {m.id.name: i18n.flatten(m)[i18n.key_of(m.id.name)]
                   for m in i18n.messages_of(resources)}
            for lang, (resources, _variables) in parsed.items()}


@pytest.fixture
def locales(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    copy = tmp_path / "locales"
    shutil.copytree(i18n.LOCALES, copy)
    monkeypatch.setattr(i18n, "LOCALES", copy)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return copy


def test_a_second_start_reads_the_cache_and_says_the_same(locales: Path,
                                                          tmp_path: Path) -> None:
    first = i18n._parsed(i18n.LANGS)
    cached = list((tmp_path / "cache" / "tapis").glob("locales-*.pickle"))
    assert len(cached) == 1
    again = i18n._parsed(i18n.LANGS)
    assert texts(again) == texts(first) == texts(i18n._parse(i18n.LANGS))
    assert {lang: v for lang, (_r, v) in again.items()} == {
        lang: v for lang, (_r, v) in first.items()}
    assert "n--card" in texts(again)["fr"]


def test_an_edited_file_is_read_at_the_next_start_and_the_old_cache_goes(
        locales: Path, tmp_path: Path) -> None:
    i18n._parsed(i18n.LANGS)
    (locales / "en" / "tapis.ftl").write_text(
        "edited-sentence = A translator's new sentence\n", encoding="utf-8")
    edited = texts(i18n._parsed(i18n.LANGS))
    assert edited["en"]["edited-sentence"] == "A translator's new sentence"
    assert "n--card" not in edited["en"]
    assert len(list((tmp_path / "cache" / "tapis").glob("locales-*.pickle"))) == 1


def test_a_corrupt_or_foreign_cache_file_is_parsed_over(locales: Path,
                                                        tmp_path: Path) -> None:
    want = texts(i18n._parse(i18n.LANGS))
    i18n._parsed(i18n.LANGS)
    (cached,) = (tmp_path / "cache" / "tapis").glob("locales-*.pickle")
    cached.write_bytes(b"not a pickle")
    assert texts(i18n._parsed(i18n.LANGS)) == want
    # A file anyone could have written is never loaded (a pickle runs code as it loads).
    cached.write_bytes(pickle.dumps({lang: ([], {}) for lang in i18n.LANGS}))
    cached.chmod(0o666)
    assert texts(i18n._parsed(i18n.LANGS)) == want


def test_without_a_usable_cache_folder_the_files_are_parsed(
        locales: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    assert texts(i18n._parsed(i18n.LANGS)) == texts(i18n._parse(i18n.LANGS))
