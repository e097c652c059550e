"""cocotb test of pka_victor_core through the common boundary (memory with random stalls).

MODEXP and MODMUL against the golden model (results and cycles, and io cycles without stalls),
a wrong opcode and an even modulus, at MaxLen = 64 (n = 64 fills the datapath, n = 40 is aligned).
"""

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
SLOT_N, SLOT_A, SLOT_B, SLOT_E, SLOT_R = Slot.N, Slot.A, Slot.B, Slot.E, Slot.R
PARAMS = {"k": 5, "delta": 10, "eps": 11}
MEM_AW = 6


@cocotb.test()
async def modexp_modmul_with_stalls(dut):
    from pka.model import victor as v
    rng = random.Random(int(os.environ.get("PKA_SEED", "5")))
    for stall in (0, 400):
        env = EngineEnv(dut, mem_aw=MEM_AW, stall_permille=stall, seed=stall + 3)
        await env.start()
        for i in range(max(3, int(os.environ.get("PKA_VECTORS", "") or "3") // 5)):
            nbits = (64, 40, 33)[i % 3]
            n = rng.getrandbits(nbits) | 1 | (1 << (nbits - 1))
            x, y, e = rng.randrange(n), rng.randrange(n), rng.getrandbits(rng.randrange(1, 40))
            env.write_int(env.slot_addr(SLOT_N), n, 2)
            env.write_int(env.slot_addr(SLOT_A), x, 2)
            env.write_int(env.slot_addr(SLOT_B), y, 2)
            env.write_int(env.slot_addr(SLOT_E), e, 2)
            st, cyc, io, _ = await env.command(OP_MODEXP, nbits, e.bit_length())
            want = v.modexp(x, e, n, PARAMS)
            assert st == 0 and env.read_int(env.slot_addr(SLOT_R), 2) == want.result == pow(x, e, n)
            assert cyc == want.cycles
            assert stall or io == want.io_cycles
            st, cyc, io, _ = await env.command(OP_MODMUL, nbits)
            want = v.modmul(x, y, n, PARAMS)
            assert st == 0 and env.read_int(env.slot_addr(SLOT_R), 2) == want.result == x * y % n
            assert cyc == want.detail["total_cycles"]
            assert stall or io == want.io_cycles
        st, *_ = await env.command(OP_MONTMUL, 64)
        assert st == 4  # ST_ERR_OPCODE
        env.write_int(env.slot_addr(SLOT_N), (1 << 63) + 2, 2)
        st, *_ = await env.command(OP_MODMUL, 64)
        assert st == 1  # ST_ERR_EVEN_MODULUS


@pytest.mark.rtl
@pytest.mark.slow  # a third cocotb build; the core is covered in CI by tests/test_rtl_victor.py
def test_pka_victor_core() -> None:
    from pka.sim import fileset, run_cocotb
    run_cocotb("pka_victor_core", fileset("victor"), "test_pka_victor_core", Path(__file__).parent,
               params={"MaxLen": 64, "MemAw": MEM_AW, "K": 5, "Delta": 10, "Eps": 11}, engine=True)
