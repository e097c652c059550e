"""cocotb test of pka_victor_qest (section 3.3) against pka.model.victor.estimate, bit for bit.

Random top fields of S_a and S_c, every wrapped case (the field sum is all ones), random Y of
eps+1 bits with the top bit set, and the extremes of both.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import Timer

K, DELTA, EPS = 5, 10, 11


@cocotb.test()
async def estimate_matches_model(dut):
    from pka.model import victor as v
    cfg = v.make_config(K, DELTA, EPS)
    rng = random.Random(int(os.environ.get("PKA_SEED", "1")))
    top = (1 << DELTA) - 1
    cases = [(0, 0, 1 << EPS), (top, 0, (2 << EPS) - 1), (top, top, (2 << EPS) - 1), (top, 1, 1 << EPS)]
    cases += [(x, top - x, rng.randrange(1 << EPS, 2 << EPS)) for x in range(0, top + 1, 7)]   # wrapped
    n = 100 * max(20, int(os.environ.get("PKA_VECTORS", "") or "20"))
    cases += [(rng.getrandbits(DELTA), rng.getrandbits(DELTA), rng.randrange(1 << EPS, 2 << EPS)) for _ in range(n)]
    for sa, sc, y in cases:
        dut.sa_top_i.value = sa
        dut.sc_top_i.value = sc
        dut.y_i.value = y
        await Timer(1, unit="ns")
        want, t = v.estimate(sa, sc, DELTA, y, cfg)
        assert int(dut.q_o.value) == want, (sa, sc, y, t)


@pytest.mark.rtl
def test_pka_victor_qest() -> None:
    from pka.sim import REPO, run_cocotb
    run_cocotb("pka_victor_qest", [REPO / "rtl/engines/victor/pka_victor_qest.sv"], "test_pka_victor_qest",
               Path(__file__).parent, params={"K": K, "Delta": DELTA, "Eps": EPS})
