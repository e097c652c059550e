"""The RTL flow itself: build cache, harness protocol, stalls, errors, timeouts."""

from __future__ import annotations

import random
import time

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
    assert build(_design(64)) != exe  # other parameters: another binary


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
