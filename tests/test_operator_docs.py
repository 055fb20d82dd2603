"""What an operator reads matches what the bot does: every setting is in .env.example and
the operators' guide, every language is offered for DEFAULT_LANG, every command is in the
README's list, and the README starts with the quick start for one group or server."""

import itertools
import re
from pathlib import Path

from bot.i18n import LANGS
from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
OPERATORS = (ROOT / "docs" / "operators.md").read_text(encoding="utf-8")
EXAMPLE = (ROOT / ".env.example").read_text(encoding="utf-8")


def test_every_setting_is_in_env_example_and_the_operators_guide():
    for name in Settings.model_fields:
        assert re.search(rf"^{name.upper()}=", EXAMPLE, re.M), f"{name.upper()} not in .env.example"
        assert f"`{name.upper()}`" in OPERATORS, f"{name.upper()} not in docs/operators.md"


def test_default_lang_is_documented_with_every_language():
    row = next(line for line in OPERATORS.splitlines() if line.startswith("| `DEFAULT_LANG`"))
    comment = EXAMPLE.split("DEFAULT_LANG=")[0].rstrip().splitlines()[-1]
    for lang in LANGS:
        assert f"`{lang}`" in row, (lang, row)
        assert re.search(rf"\b{lang}\b", comment), (lang, comment)


def test_the_readme_lists_every_command():
    commands = set()
    for ftl in (ROOT / "bot" / "locales" / "en").glob("*.ftl"):
        commands |= set(re.findall(r"^cmd--([a-z]+) =", ftl.read_text(encoding="utf-8"), re.M))
    assert "mentions" in commands
    listed = README.split("The commands:", 1)[1].split("\n\n", 1)[0]
    missing = sorted(c for c in commands if f"`/{c}" not in listed)
    assert not missing, f"commands missing from the README's list: {missing}"


def test_the_readme_starts_small():
    headings = re.findall(r"^##+ (.+)$", README, re.M)
    quick = headings.index("Quick start: one Telegram group or one Discord server")
    assert quick == 0
    for later in ("Running at scale", "Who may do what, and what to keep secret"):
        assert headings.index(later) > headings.index("As a service") > quick
    # Every paragraph or bullet of the secrets section begins as one: no stray line.
    section = README.split("### Who may do what, and what to keep secret", 1)[1].split("\n## ")[0]
    for block in section.strip().split("\n\n"):
        lines = block.splitlines()
        for before, line in itertools.pairwise(lines):
            if line.startswith("  ") and not line.startswith("   "):
                assert before.startswith(("- ", "  ")), f"a stray indented line: {line!r}"


def test_bench_results_is_one_page_naming_every_bench_script():
    results = (ROOT / "bench" / "RESULTS.md").read_text(encoding="utf-8")
    assert len(results.splitlines()) <= 200, "bench/RESULTS.md is the current figures only"
    for script in sorted((ROOT / "bench").glob("*.py")):
        assert f"bench/{script.name}" in results, f"no figure of bench/{script.name}"
    # Each figure says what it is held against: no table without its target column.
    for header in re.findall(r"^\| (?:figure|game|players) \|.*$", results, re.M):
        assert re.search(r"target|anchor|goal|fair share", header), header
