"""cocotb test of the Cox unit: its carries against the golden model's Kawamura fraction (cox_k)."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge, Timer

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
from pka.model.rns import COX_Q, cox_k  # noqa: E402

W = int(os.environ.get("PKA_COX_W", "32"))


@cocotb.test()
async def cox_matches_the_model(dut):
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    dut.rst_ni.value = 0
    dut.clr_i.value = 0
    dut.en_i.value = 0
    dut.half_i.value = 0
    dut.xi_i.value = 0
    await RisingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    rng = random.Random(1)
    for trial in range(int(os.environ.get("PKA_VECTORS", "40"))):
        half = trial % 2 == 1
        xis = [rng.getrandbits(W) for _ in range(rng.randrange(1, 20))]
        if trial % 5 == 0:
            xis = [(1 << W) - 1] * len(xis)           # every step carries
        await FallingEdge(dut.clk_i)
        dut.clr_i.value = 1
        dut.half_i.value = int(half)
        await FallingEdge(dut.clk_i)
        dut.clr_i.value = 0
        bits = []
        for xi in xis:
            dut.en_i.value = 1
            dut.xi_i.value = xi
            await Timer(1, unit="ns")         # the combinational carry of this step, before the edge
            bits.append(int(dut.k_o.value))
            await FallingEdge(dut.clk_i)
        dut.en_i.value = 0
        k, want = cox_k(xis, W, half, COX_Q)
        assert bits == want and sum(bits) == k, (bits, want)


@pytest.mark.rtl
def test_pka_rns_cox() -> None:
    from pka.sim import REPO, run_cocotb
    src = [REPO / "rtl/engines/rns/pka_rns_cox.sv"]
    w = 16   # one build (CI budget); the core's lint and RTL tests cover W = 32
    run_cocotb("pka_rns_cox", src, "test_pka_rns_cox", Path(__file__).parent, params={"W": w, "Q": COX_Q},
               extra_env={"PKA_COX_W": str(w)})
