"""cocotb test of the example engine: checks the boundary helpers (memory with stalls, commands)."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import cocotb
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common.cocotb_env import EngineEnv  # noqa: E402

from pka.regs import Op, Slot, Status  # noqa: E402  (generated from data/pka.rdl)

OP_MODADD, OP_MODEXP = Op.MODADD, Op.MODEXP
SLOT_N, SLOT_A, SLOT_B, SLOT_R = Slot.N, Slot.A, Slot.B, Slot.R


@cocotb.test()
async def modadd_random_with_stalls(dut):
    rng = random.Random(1)
    for stall in (0, 400):
        env = EngineEnv(dut, mem_aw=8, stall_permille=stall, seed=stall + 1)
        await env.start()
        for _ in range(int(os.environ.get("PKA_VECTORS", "8"))):
            n = rng.getrandbits(96) | 1 | (1 << 95)
            a, b = rng.randrange(n), rng.randrange(n)
            env.write_int(env.slot_addr(SLOT_N), n, 3)
            env.write_int(env.slot_addr(SLOT_A), a, 3)
            env.write_int(env.slot_addr(SLOT_B), b, 3)
            st, cyc, io, wall = await env.command(OP_MODADD, 96)
            assert st == 0 and cyc == 2
            assert env.read_int(env.slot_addr(SLOT_R), 3) == (a + b) % n
        st, *_ = await env.command(OP_MODEXP, 96)
        assert st == Status.ERR_OPCODE


@cocotb.test()
async def cycle_check_fails_on_a_wrong_relation(dut):
    """EngineEnv's independent count: with the true relation (pka.sim.example_overhead) every command
    passes and wall = cycles + io + 1 for MODADD; with a relation one cycle off the same command
    raises CycleCountError, so a counter that skipped (or added) a cycle cannot pass unseen."""
    from pka.sim import CycleCountError, example_overhead
    env = EngineEnv(dut, mem_aw=8)
    await env.start()
    n, a, b = (1 << 95) | 12345, 7, 9
    for slot, v in ((SLOT_N, n), (SLOT_A, a), (SLOT_B, b)):
        env.write_int(env.slot_addr(slot), v, 3)
    st, cyc, io, wall = await env.command(OP_MODADD, 96)
    assert (st, cyc, wall) == (0, 2, cyc + io + 1)
    for off in (1, -1):
        env.overhead = lambda *args, off=off: example_overhead(*args) + off
        try:
            await env.command(OP_MODADD, 96)
        except CycleCountError as exc:
            assert f"off by {-off}" in str(exc)
        else:
            raise AssertionError(f"a relation {off:+} cycle off passed")


@pytest.mark.rtl
def test_pka_example_engine() -> None:
    from pka.sim import fileset, run_cocotb
    run_cocotb("pka_example_engine", fileset("example"), "test_pka_example_engine", Path(__file__).parent, params={"MaxLen": 128, "MemAw": 8}, engine=True)
