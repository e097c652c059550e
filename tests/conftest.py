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


# Hypothesis: derandomized by default so a CI run is reproducible (its examples follow from the test
# itself); PKA_HYPOTHESIS=explore draws fresh random examples for a bug hunt.
from hypothesis import settings as _hyp_settings  # noqa: E402

_hyp_settings.register_profile("ci", derandomize=True, print_blob=True)
_hyp_settings.register_profile("explore", derandomize=False, print_blob=True)
_hyp_settings.load_profile("explore" if os.environ.get("PKA_HYPOTHESIS") == "explore" else "ci")
