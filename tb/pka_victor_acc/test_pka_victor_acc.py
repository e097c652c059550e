"""cocotb test of pka_victor_acc (Figure 5 with both Figure-6 generators) against the model, bit for bit.

Every (a_i, q) pair of the hardware's range (a_i in [0, 31], q in [0, 42]) with random carry-save
words S_a, S_c, multiplicand B < 2N and modulus N: the two output words must equal
pka.model.victor.accumulate exactly (not only their sum), and the sum must be 2^K S + a B - 2^2K q N.
The merged first iteration (first_i = 1): every digit pair (a_(n'-1), a_(n'-2)), with a random q
on q_i (ignored) and random S words (the core drives 0; the adder rows must not care): the words
must equal pka.model.victor.accumulate_first, the sum 2^K S + 2^K a_hi B + a_lo B.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import Timer

K, NW = 5, 40
WIDTH = NW + 2 * K + 1


@cocotb.test()
async def accumulate_every_digit_pair(dut):
    from pka.model import victor as v
    cfg = v.make_config(K, 10, 11)
    mask = (1 << WIDTH) - 1
    rng = random.Random(int(os.environ.get("PKA_SEED", "1")))
    rounds = max(1, int(os.environ.get("PKA_VECTORS", "") or "20") // 20)  # 1376 pairs per round
    for _ in range(rounds):
        for a in range(1 << K):
            for q in range(43):
                n = rng.getrandbits(NW) | 1 | (1 << (NW - 1))
                b = rng.randrange(2 * n)
                sa, sc = rng.getrandbits(WIDTH), rng.getrandbits(WIDTH)
                dut.sa_i.value = sa
                dut.sc_i.value = sc
                dut.a_i.value = a
                dut.q_i.value = q
                dut.first_i.value = 0
                dut.alo_i.value = rng.getrandbits(K)
                dut.b_i.value = b
                dut.n_i.value = n
                await Timer(1, unit="ns")
                got = (int(dut.sa_o.value), int(dut.sc_o.value))
                want = v.accumulate(sa, sc, a, q, b, n, cfg, WIDTH)
                assert got == want, (a, q, hex(sa), hex(sc), hex(b), hex(n))
                assert (got[0] + got[1]) & mask == ((sa + sc << K) + a * b - (q * n << 2 * K)) & mask


@cocotb.test()
async def merged_first_iteration_every_digit_pair(dut):
    from pka.model import victor as v
    cfg = v.make_config(K, 10, 11)
    mask = (1 << WIDTH) - 1
    rng = random.Random(int(os.environ.get("PKA_SEED", "1")) + 7)
    for hi in range(1 << K):
        for lo in range(1 << K):
            n = rng.getrandbits(NW) | 1 | (1 << (NW - 1))
            b = rng.randrange(2 * n)
            sa, sc = (0, 0) if lo % 4 == 0 else (rng.getrandbits(WIDTH), rng.getrandbits(WIDTH))
            dut.sa_i.value = sa
            dut.sc_i.value = sc
            dut.a_i.value = hi
            dut.alo_i.value = lo
            dut.q_i.value = rng.randrange(43)
            dut.first_i.value = 1
            dut.b_i.value = b
            dut.n_i.value = n
            await Timer(1, unit="ns")
            got = (int(dut.sa_o.value), int(dut.sc_o.value))
            assert got == v.accumulate_first(sa, sc, hi, lo, b, cfg, WIDTH), (hi, lo, hex(sa), hex(sc), hex(b))
            assert (got[0] + got[1]) & mask == ((sa + sc << K) + (hi << K) * b + lo * b) & mask


@pytest.mark.rtl
def test_pka_victor_acc() -> None:
    from pka.sim import REPO, run_cocotb
    srcs = [REPO / "rtl/engines/victor" / f for f in
            ("pka_victor_fa_row.sv", "pka_victor_sdgen.sv", "pka_victor_acc.sv")]
    run_cocotb("pka_victor_acc", srcs, "test_pka_victor_acc", Path(__file__).parent,
               params={"K": K, "NW": NW, "Width": WIDTH})
