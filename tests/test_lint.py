"""Verilator -Wall lint of every design unit, warnings fatal (waivers only in lint/).

Every fileset (*.f under rtl/ and tb/common/) names its top with a `// top: NAME` line and may add
`// lint-params: NAME=VALUE ...` lines; each line of lint-params is one configuration to lint.

The lines cover the configurations the README names and those issue 17 found simulated but never
linted (test_the_known_gaps_are_linted). pka.sim.unlinted names the line a configuration would need;
a unit of rtl/ simulated on its own (a PE's cocotb test) is linted by pka.sim.run_cocotb itself.
Every other parameter set a test simulates (about 30, most differing from a listed line only in
MemAw or in the engines a pka_top build holds) is linted by tests/conftest.py after the test that
simulates it (`_simulated_configurations_are_linted`, the same strict lint, a pass cached per
configuration), so the suite fails on a simulated configuration that does not lint. pka_top's lines
are TOP_LINT of src/pka/rtl/top.py (written into rtl/top/top.f by `python -m pka.rtl.top gen`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pka.sim import REPO, LintTarget, fileset, lint, lint_targets, param_defaults, unlinted

TARGETS = lint_targets()
CASES = [(t, p) for t in TARGETS.values() for p in t.configs]


@pytest.mark.rtl
@pytest.mark.parametrize("target,params", CASES,
                         ids=[f"{t.top}-{'-'.join(f'{k}{v}' for k, v in p.items())}" for t, p in CASES])
def test_lint(target: LintTarget, params: dict[str, int]) -> None:
    proc = lint(list(target.sources), target.top, params)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_every_rtl_file_is_in_a_fileset() -> None:
    listed = {s.resolve() for t in TARGETS.values() for s in t.sources}
    rtl = {p.resolve() for p in (REPO / "rtl").rglob("*.sv")}
    missing = sorted(str(p.relative_to(REPO)) for p in rtl - listed)
    assert not missing, f"RTL files in no fileset (so never linted): {missing}"


def test_lint_lines_are_distinct_configurations() -> None:
    """No line lints the same elaboration twice (parameters equal to the top's defaults removed)."""
    from pka.sim import canonical
    for t in TARGETS.values():
        defaults = param_defaults(t.sources, t.top)
        seen = [canonical(c, defaults) for c in t.configs]
        assert len(seen) == len(set(seen)), (t.path, t.configs)
        for c in t.configs:
            assert set(c) <= set(defaults) | {"NumRowers"}, (t.path, c)   # no misspelt parameter


def test_an_unlinted_configuration_is_named() -> None:
    """The guard's rule (pka.sim.unlinted): a listed configuration passes, also when it spells out a
    default; another fails with the line to add; a test's variant of the sources (a mutant) and a
    top without a fileset are not the guard's."""
    csa2 = fileset("csa2")
    listed = TARGETS["pka_csa2_core"].configs[0]
    assert unlinted("pka_csa2_core", listed, csa2) is None
    defaults = param_defaults(csa2, "pka_csa2_core")
    assert unlinted("pka_csa2_core", {**defaults, **listed}, csa2) is None
    odd = dict(listed, MaxLen=2048)
    why = unlinted("pka_csa2_core", odd, csa2)
    assert why is not None and "rtl/engines/csa2/csa2.f" in why and "MaxLen=2048" in why
    assert unlinted("pka_csa2_core", odd, [*csa2[:-1], Path("/tmp/mutant/pka_csa2_core.sv")]) is None
    assert unlinted("pka_hscm_pe", {"W": 16}, [REPO / "rtl/engines/hscm/pka_hscm_pe.sv"]) is None


def test_the_known_gaps_are_linted() -> None:
    """The configurations issue 17 found simulated but never linted: hscm with 8, 16 and 32 PEs and
    victor at 512 bits (the drivers' designs of the tests that run them)."""
    from pka.model import victor as vm
    from pka.rtl import hscm, victor
    for d in (hscm.design(512, 16, 8, 6), hscm.design(1024, 16, 16, 6), hscm.design(2048, 16, 32, 6),
              victor.design(512, vm.config_from_params({"k": 5, "delta": 10, "eps": 11}))):
        assert unlinted(d.top, d.params, d.sources) is None, d.params
