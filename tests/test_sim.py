"""The RTL flow itself: build cache, harness protocol, stalls, errors, timeouts."""

from __future__ import annotations

import random
import time
from typing import Mapping

import pytest

from pka.sim import Design, Harness, Op, Slot, build, fileset

pytestmark = pytest.mark.rtl


def _design(max_len: int = 128) -> Design:
    return Design("pka_example_engine", fileset("example"), {"MaxLen": max_len, "MemAw": 8}, mem_aw=8)


def test_build_is_cached() -> None:
    d = _design()
    exe = build(d)
    t = time.perf_counter()
    assert build(d) == exe  # second call: no recompilation
    assert time.perf_counter() - t < 1.0
    from pka.sim import _build_key, wrapped
    # other parameters: another binary (its key; not built: MaxLen 64 is not a linted configuration)
    assert _build_key(wrapped(_design(64)), False) != _build_key(wrapped(d), False)
    assert exe.parent.name.endswith(_build_key(wrapped(d), False))


@pytest.mark.parametrize("stall", [0, 250, 700])
def test_modadd_with_stalls(stall: int) -> None:
    rng = random.Random(stall)
    with Harness(_design()) as h:
        h.stall(stall, seed=7)
        for _ in range(20):
            n = rng.getrandbits(100) | 1 | (1 << 99)
            a, b = rng.randrange(n), rng.randrange(n)
            h.write_slot(Slot.N, n)
            h.write_slot(Slot.A, a)
            h.write_slot(Slot.B, b)
            r = h.command(Op.MODADD, 100)
            assert (r.status, r.cycles) == (0, 2)
            assert h.read_slot(Slot.R, 4) == (a + b) % n
            if stall == 0:
                assert r.io_cycles == 3 * 4 + 1 + 4 + 2  # 12 reads, 1 latency, 4 writes, entry/exit


def test_error_codes_return_to_idle() -> None:
    with Harness(_design()) as h:
        h.write_slot(Slot.N, 10)
        assert h.command(Op.MODADD, 100, max_cycles=100).status == 1  # even modulus
        assert h.command(Op.MODEXP, 100, max_cycles=100).status == 4  # unknown op for this engine
        assert h.command(Op.MODADD, 0, max_cycles=100).status == 2    # zero length
        assert h.command(Op.MODADD, 129, max_cycles=100).status == 2  # above the build maximum
        h.write_slot(Slot.N, 11)
        h.write_slot(Slot.A, 12)
        assert h.command(Op.MODADD, 8, max_cycles=100).status == 3    # operand out of range
        h.write_slot(Slot.A, 5)
        h.write_slot(Slot.B, 9)
        assert h.command(Op.MODADD, 8, max_cycles=100).status == 0
        assert h.read_slot(Slot.R, 1) == 3


# ---- the independent cycle count (pka.sim.Harness.command) ---------------------------------------

def _modadd(h: Harness, bits: int = 100) -> None:
    n = (1 << (bits - 1)) | 12345
    h.write_slot(Slot.N, n)
    h.write_slot(Slot.A, 5)
    h.write_slot(Slot.B, n - 1)


@pytest.mark.parametrize("off", [1, -1])
def test_cycle_check_fails_on_a_relation_one_cycle_off(off: int) -> None:
    """Every command checks wall = cycles + io + overhead; a relation one cycle off raises."""
    from pka.sim import CycleCountError, example_overhead

    def wrong(op: int, length: int, elen: int, arg: int, status: int, params: Mapping[str, int]) -> int:
        return example_overhead(op, length, elen, arg, status, params) + off

    d = _design()
    with Harness(d) as h:
        _modadd(h)
        r = h.command(Op.MODADD, 100)
        assert (r.status, r.cycles, r.wall) == (0, 2, r.cycles + r.io_cycles + 1)
    with Harness(Design(d.top, d.sources, d.params, d.mem_aw, overhead=wrong)) as h:
        _modadd(h)
        with pytest.raises(CycleCountError, match=f"off by {-off}"):
            h.command(Op.MODADD, 100)


# The example engine with its Sub state no longer counted (a counter that skips a state) and one
# width warning: one small build for both the cycle check and the build's warnings.
SUB_COUNT = "      Sub: begin\n        if (s_q >= {1'b0, n_q}) s_d = s_q - {1'b0, n_q};\n        cyc_d = cyc_q + 1;\n"
WARNING = "  logic [3:0] mutant_w;\n  assign mutant_w = 8'hA5;   // WIDTHTRUNC\n"


def _mutant(tmp_path_factory: pytest.TempPathFactory) -> Design:
    from pka.sim import REPO
    src = (REPO / "tb" / "common" / "pka_example_engine.sv").read_text()
    assert src.count(SUB_COUNT) == 1 and src.count("  always_comb begin\n") >= 1
    text = src.replace(SUB_COUNT, SUB_COUNT.replace("        cyc_d = cyc_q + 1;\n", ""))
    text = text.replace("  always_comb begin\n", WARNING + "  always_comb begin\n", 1)
    path = tmp_path_factory.mktemp("mutant") / "pka_example_engine.sv"
    path.write_text(text)
    return Design("pka_example_engine", [REPO / "rtl" / "common" / "pka_pkg.sv", path],
                  {"MaxLen": 128, "MemAw": 8}, mem_aw=8)


def test_cycle_check_catches_a_counter_that_skips_a_state(tmp_path_factory: pytest.TempPathFactory) -> None:
    """A mutant whose cycle counter skips the Sub state still adds correctly and reports one cycle;
    only the harness's own count sees the missing cycle: the command raises CycleCountError. Its
    build's width warning is in the build log and reported (SimBuildWarning)."""
    from pka.sim import CycleCountError, SimBuildWarning, build_warnings
    d = _mutant(tmp_path_factory)
    with pytest.warns(SimBuildWarning, match="WIDTHTRUNC"):
        exe = build(d)
    assert [w for w in build_warnings(d) if "WIDTHTRUNC" in w], (exe.parent / "build.log").read_text()[-2000:]
    with Harness(d) as h:
        _modadd(h)
        with pytest.raises(CycleCountError, match="cycles 1 .*off by 1"):
            h.command(Op.MODADD, 100)
        assert h.read_slot(Slot.R, 4) == (5 + (1 << 99 | 12345) - 1) % (1 << 99 | 12345)


# ---- simulation builds show Verilator's warnings -------------------------------------------------

def test_build_flags_show_warnings() -> None:
    from pka.sim import BUILD_FLAGS, LINT_WAIVERS, WARN_FLAGS
    assert "-Wno-fatal" in BUILD_FLAGS and not any(f.startswith("-Wno-") and f != "-Wno-fatal" for f in BUILD_FLAGS)
    assert WARN_FLAGS == [str(LINT_WAIVERS)]


def test_lint_clean_designs_build_without_warnings() -> None:
    """The smallest CI build of each engine (the ones the RTL tests simulate) and the example engine:
    lint-clean at -Wall, so their simulation builds have no Verilator warning either."""
    from pka.model import mwr4 as mm
    from pka.model import victor as vm
    from pka.rtl import csa2, hscm, mwr4, rns, victor
    from pka.sim import build_warnings
    for d in (_design(), csa2.design(32, "paper"), victor.design(128, vm.config_from_params({})),
              mwr4.design(mm.config({"radix": 4, "ns": 2, "w": 8}), 64), hscm.design(512, 16, 2, 6),
              rns.design(16, 64)):
        assert build_warnings(d) == [], (d.top, d.params)
