"""The code type-checks, so an annotation that lies fails CI rather than a game in play."""

from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).resolve().parents[1]


def test_bot_engine_db_and_adapters_pass_mypy(monkeypatch: pytest.MonkeyPatch):
    # Relative paths, so the report names files as a developer running `mypy` sees them.
    monkeypatch.chdir(ROOT)
    report, errors, status = api.run([
        "--config-file", "pyproject.toml", "--cache-dir", ".mypy_cache",
        "bot", "engine", "db", "adapters",
    ])
    assert status == 0, report + errors
