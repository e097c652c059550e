"""The golden models are typed: mypy --strict on src/pka/model (STYLE.md)."""

from __future__ import annotations

import subprocess
import sys

from pka.sim import REPO


def test_mypy_strict_models() -> None:
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "src/pka/model"],
                          cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
