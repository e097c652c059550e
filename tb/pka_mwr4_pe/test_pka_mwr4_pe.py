"""cocotb test of one processing element (pka_mwr4_pe) against the model's pe_digit, word by word.

* the Booth recoder (Table 1 / radix-8 Booth) and the Montgomery recoder (Table 2 / radix-8) are
  checked exhaustively through the PE's recoder instances (EN/SEL codes as pka.model.mwr4 encodes);
* random carry-save S, B, M and digits go through the PE, digits back to back (the next digit's word 0
  in the cycle the top word is emitted) and with idle gaps; every output word (SS, SC) and the carry
  cl must equal pka.model.mwr4.pe_digit.
Run from pytest (test_pka_mwr4_pe) for radix 4 and radix 8 with W = 8.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge, Timer

from pka.model import mwr4 as model

RADIX = int(os.environ.get("MWR4_RADIX", "4"))
W = int(os.environ.get("MWR4_W", "8"))
K = model.RADIX_K[RADIX]

INPUTS = ("in_valid_i", "in_first_i", "in_last_i", "in_ss_i", "in_sc_i", "in_cl_i", "in_b_i", "in_m_i",
          "digit_i", "freeze_en_i", "coding_en_i", "wipe_i")   # wipe_i stays 0 (the wipe: tb/pka_mwr4_core)


async def start(dut) -> None:
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    for name in INPUTS:
        getattr(dut, name).value = 0
    dut.rst_ni.value = 0
    for _ in range(2):
        await RisingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    await FallingEdge(dut.clk_i)


@cocotb.test()
async def recoders_exhaustive(dut):
    await start(dut)
    dut.in_valid_i.value = 1
    dut.in_first_i.value = 1
    # Booth: every window, both SEL_PP codings
    for coding in (0, 1):
        dut.coding_en_i.value = coding
        for win in range(1 << (K + 1)):
            dut.digit_i.value = win
            await Timer(1, unit="ns")
            qa = model.booth_digit(win, K)
            assert int(dut.u_booth.en_o.value) == (qa != 0), (win, qa)
            if qa != 0:
                assert int(dut.u_booth.sel_o.value) == model.sel_pp_code(qa, K, bool(coding)), (win, coding)
    # Montgomery recoder: every SP (PP = 0: window 0, SC = 0, cl = 0) and every odd M mod 2^K
    dut.digit_i.value = 0
    dut.in_sc_i.value = 0
    dut.in_cl_i.value = 0
    for sp in range(1 << K):
        for m_low in range(1, 1 << K, 2):
            dut.in_ss_i.value = sp
            dut.in_m_i.value = m_low
            await Timer(1, unit="ns")
            qm = model.mont_digit(sp, m_low, K)
            assert (sp + qm * m_low) % (1 << K) == 0
            assert int(dut.u_mrec.en_o.value) == (qm != 0), (sp, m_low)
            assert int(dut.u_mrec.sel_o.value) == model.sel_pm_code(qm, K), (sp, m_low, qm)
    dut.in_valid_i.value = 0
    dut.in_first_i.value = 0
    await FallingEdge(dut.clk_i)


def _random_s(rng: random.Random, m: int, e: int) -> model.CarrySave:
    """A carry-save S of value in (-M, 4M/3) with random SC words and carry."""
    v = rng.randrange(-m + 1, 4 * m // 3)
    sc = [rng.getrandbits(W) for _ in range(e - 1)] + [0]
    cl = rng.getrandbits(1)
    rest = v - cl - sum(x << (W * i) for i, x in enumerate(sc))
    ss = model.to_words(rest, e, W)
    s = model.CarrySave(ss, tuple(sc), cl, W)
    assert s.value() == v
    return s


@cocotb.test()
async def pe_words_vs_model(dut):
    await start(dut)
    rng = random.Random(RADIX * 1000 + W)
    dut.freeze_en_i.value = 1
    dut.coding_en_i.value = 1
    for trial in range(int(os.environ.get("PKA_VECTORS", "20"))):
        e = rng.randrange(2, 7)
        m = rng.getrandbits(W * e - K - 4) | 1 | (1 << (W * e - K - 5))
        jobs = []
        for _ in range(rng.randrange(1, 4)):
            s = _random_s(rng, m, e)
            b = rng.randrange(m)
            win = rng.getrandbits(K + 1)
            qa = model.booth_digit(win, K) if K > 1 else (win >> 1) & 1
            out, qm = model.pe_digit(s, qa, b, m, K)
            jobs.append((s, b, win, out))
        gap = trial % 3  # 0: back to back (word 0 meets the previous top word's flush)
        got: list[tuple[int, int, int]] = []
        mw, cycles = model.to_words(m, e, W), 0
        for s, b, win, _ in jobs:
            bw = model.to_words(b, e, W)
            for i in range(e):
                dut.in_valid_i.value = 1
                dut.in_first_i.value = int(i == 0)
                dut.in_last_i.value = int(i == e - 1)
                dut.in_ss_i.value = s.ss[i]
                dut.in_sc_i.value = s.sc[i]
                dut.in_cl_i.value = s.cl if i == 0 else rng.getrandbits(1)
                dut.in_b_i.value = bw[i]
                dut.in_m_i.value = mw[i]
                dut.digit_i.value = win if i == 0 else rng.getrandbits(K + 1)
                await RisingEdge(dut.clk_i)
                await ReadOnly()
                if int(dut.out_valid_o.value):
                    got.append((int(dut.out_ss_o.value), int(dut.out_sc_o.value), int(dut.out_cl_o.value)))
                await FallingEdge(dut.clk_i)
                cycles += 1
            for _ in range(gap):
                dut.in_valid_i.value = 0
                dut.in_first_i.value = 0
                dut.in_last_i.value = 0
                await RisingEdge(dut.clk_i)
                await ReadOnly()
                if int(dut.out_valid_o.value):
                    got.append((int(dut.out_ss_o.value), int(dut.out_sc_o.value), int(dut.out_cl_o.value)))
                await FallingEdge(dut.clk_i)
        dut.in_valid_i.value = 0
        dut.in_first_i.value = 0
        dut.in_last_i.value = 0
        for _ in range(3):
            await RisingEdge(dut.clk_i)
            await ReadOnly()
            if int(dut.out_valid_o.value):
                got.append((int(dut.out_ss_o.value), int(dut.out_sc_o.value), int(dut.out_cl_o.value)))
            await FallingEdge(dut.clk_i)
        want = []
        for _, _, _, out in jobs:
            for i in range(e):
                want.append((out.ss[i], out.sc[i], out.cl if i == 0 else None))
        assert len(got) == len(want), (len(got), len(want))
        for j, (g, w_) in enumerate(zip(got, want)):
            assert g[0] == w_[0] and g[1] == w_[1], (trial, j, g, w_)
            if w_[2] is not None:
                assert g[2] == w_[2], (trial, j, "cl")


@pytest.mark.rtl
@pytest.mark.parametrize("radix", [4, 8])
def test_pka_mwr4_pe(radix: int) -> None:
    from pka.sim import REPO, run_cocotb
    src = REPO / "rtl" / "engines" / "mwr4"
    sources = [src / f"pka_mwr4_{u}.sv" for u in ("booth", "mrec", "ppgen", "pmgen", "pe")]
    run_cocotb("pka_mwr4_pe", sources, "test_pka_mwr4_pe", Path(__file__).parent,
               params={"Radix": radix, "W": 8}, extra_env={"MWR4_RADIX": str(radix), "MWR4_W": "8"})
