"""Shared test settings: the number of random vectors and the fixed seed."""

from __future__ import annotations

import os
import sys
from pathlib import Path

# tb/common is importable as `common` for the cocotb environment and shared vector helpers.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tb"))


def vectors(default: int = 20) -> int:
    """Random vectors per test: PKA_VECTORS overrides (a long run can use thousands)."""
    text = os.environ.get("PKA_VECTORS", "")
    return int(text) if text else default


SEED = int(os.environ.get("PKA_SEED", "20261122"))
