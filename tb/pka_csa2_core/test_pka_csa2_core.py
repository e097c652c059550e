"""cocotb test of pka_csa2_core (MaxLen = 32) with the common memory environment and random stalls:
modexp and modmul against the golden model (results and cycle counts), and an error status."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import cocotb
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common.cocotb_env import EngineEnv  # noqa: E402

from pka.regs import Op, Slot  # noqa: E402  (generated from data/pka.rdl)

OP_MODMUL, OP_MODEXP, OP_MONTMUL = Op.MODMUL, Op.MODEXP, Op.MONTMUL
SLOT_N, SLOT_A, SLOT_B, SLOT_E, SLOT_R, SLOT_W = Slot.N, Slot.A, Slot.B, Slot.E, Slot.R, Slot.W
MAX_LEN, MEM_AW = 32, 8


@cocotb.test()
async def modexp_modmul_with_stalls(dut):
    from pka.model import csa2 as model

    variant = "paper" if int(dut.u_core.ChunkW.value) == 1 else "fast"
    rng = random.Random(5)
    for stall in (0, 300):
        env = EngineEnv(dut, mem_aw=MEM_AW, stall_permille=stall, seed=stall + 3)
        await env.start()
        for _ in range(int(os.environ.get("PKA_VECTORS", "4"))):
            k = rng.randrange(3, MAX_LEN + 1)
            n = rng.getrandbits(k) | 1 | (1 << (k - 1))
            x, e, b = rng.randrange(n), rng.getrandbits(rng.randrange(0, 12)), rng.randrange(n)
            for slot, value in ((SLOT_N, n), (SLOT_A, x), (SLOT_B, b), (SLOT_E, e),
                                (SLOT_W, pow(2, 2 * (k + 2), n))):
                env.write_int(env.slot_addr(slot), value, 1)
            st, cyc, io, wall = await env.command(OP_MODEXP, k, e.bit_length())
            assert st == 0
            assert env.read_int(env.slot_addr(SLOT_R), 1) == pow(x, e, n)
            assert cyc == model.exp_cycles(k, e.bit_length(), variant)
            assert wall >= cyc + io - 2
            st, cyc, io, wall = await env.command(OP_MODMUL, k)
            assert st == 0
            assert env.read_int(env.slot_addr(SLOT_R), 1) == x * b % n
            assert cyc == model.exp_cycles(k, 1, variant)
        st, *_ = await env.command(OP_MONTMUL, 16)
        assert st == 4  # ST_ERR_OPCODE


@pytest.mark.rtl
@pytest.mark.parametrize("chunk_w", [32])  # one build keeps CI short; tests/ cover ChunkW = 1
def test_pka_csa2_core(chunk_w: int) -> None:
    from pka.sim import fileset, run_cocotb
    run_cocotb("pka_csa2_core", fileset("csa2"), "test_pka_csa2_core", Path(__file__).parent,
               params={"MaxLen": MAX_LEN, "MemAw": MEM_AW, "ChunkW": chunk_w}, engine=True)
