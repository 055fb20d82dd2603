"""docs/tapis.service, the README's way of running the bot as a service, is a unit systemd
accepts: `systemd-analyze verify` finds nothing to say about it."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "docs" / "tapis.service"
INSTALLED = "/opt/tapis"  # where the unit expects the checkout


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed here")
def test_the_service_unit_passes_systemd_analyze_verify(tmp_path):
    # verify checks that ExecStart's program exists: the unit as it would be with the
    # checkout (and its Python) installed where the unit expects them.
    text = UNIT.read_text(encoding="utf-8")
    assert f"ExecStart={INSTALLED}/.venv/bin/python -m bot" in text
    text = text.replace(f"{INSTALLED}/.venv/bin/python", sys.executable)
    unit = tmp_path / "tapis.service"
    unit.write_text(text.replace(INSTALLED, str(ROOT)), encoding="utf-8")
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert not done.stderr.strip() and not done.stdout.strip(), done.stderr + done.stdout
