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


@pytest.mark.rtl
def test_pka_example_engine() -> None:
    from pka.sim import fileset, run_cocotb
    run_cocotb("pka_example_engine", fileset("example"), "test_pka_example_engine", Path(__file__).parent, params={"MaxLen": 128, "MemAw": 8}, engine=True)
