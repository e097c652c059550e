"""cocotb test of one HSCM processing element (rtl/engines/hscm/pka_hscm_pe.sv).

Whole Algorithm 3 products are run through the single PE, iteration by iteration: two
independent products alternate so that a new iteration often starts in the very cycle the PE
becomes free (back to back, overlapping the previous iteration's last stage-2 word), and random
idle gaps are inserted otherwise.  Every output word is compared with the golden model's PE
(pka.model.hscm.hscm_iteration): the carry-save words S'_j and S''_j exactly, q_i, the index,
the "last" flag, B shifted down one digit, A and N; the last iteration's words must appear on
the result port and are not passed on; in the cycle after each result word the output carries
the injection word offered in that result word's cycle (random words, valid or not) with S = 0,
q = 0, index 0 and no "last" flag.  An iteration after a last one starts one cycle after the PE
is free at the earliest (as in the ring: the next product's round trip), often exactly then.
The final 2^k S_(f+2) + q_(f+1) is the model's Montgomery product.

Dq = 2 (digits of k = 2w bits, pka.model.hscm.hscm_kw): the products are streamed as the w-bit
passes of k = 2w (A and N one word up, B's w-bit words as digits), the PE must multiply N by the
quotient from two passes back (in_q2_i) and pass the one it received on (out_q2_o); the result
2^k S + q_(f+1) (the last two passes' quotients) is again the model's Montgomery product.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

from pka.model import hscm as M

W = 16
TAGW = 8
DQ = int(os.environ.get("PKA_HSCM_PE_DQ", "1"))   # quotient delay k / w of the build (1 or 2)
K = DQ * W


@dataclass
class Product:
    mod: M.Modulus
    a: int
    b: int
    s1: list[int] = field(default_factory=list)
    s2: list[int] = field(default_factory=list)
    q_prev: int = 0
    q_prev2: int = 0
    expect: list[dict[str, object]] = field(default_factory=list)

    def __post_init__(self) -> None:
        e = self.mod.g.words
        self.s1, self.s2 = [0] * e, [0] * e

    def stream(self, i: int) -> tuple[list[tuple[int, ...]], tuple[int, int, int, int]]:
        """Input words of pass i and the model's expected output (appended to expect)."""
        g = self.mod.g
        e, sh, last = g.words, W * (DQ - 1), g.passes - 1
        aw = M.to_words(self.a << sh, W, e)
        bw = M.to_words(self.b >> (W * i), W, e)      # B shifted: word 0 is the digit b_i
        nw = M.to_words(self.mod.nt << sh, W, e)
        words = [(self.s1[x], self.s2[x], aw[x], bw[x], nw[x]) for x in range(e)]
        side = (self.q_prev, self.q_prev2, i, int(i == last))
        qn = self.q_prev2 if DQ == 2 else self.q_prev  # the quotient this pass multiplies N by
        o1, o2, q = M._pe_pass(W, e, self.s1, self.s2, qn, bw[0], aw, nw)
        self.expect.append({"s1": o1, "s2": o2, "a": aw, "b": bw[1:] + [0], "n": nw, "q": q,
                            "q2": self.q_prev if DQ == 2 else 0,
                            "tag": i + 1, "olast": int(i + 1 == last), "res": i == last})
        self.s1, self.s2, self.q_prev, self.q_prev2 = o1, o2, q, self.q_prev
        return words, side


INJ = ("valid", "a", "b", "n")


async def injector(dut, rng: random.Random) -> None:
    """Random injection words every cycle (what the ring's sequencer would offer)."""
    while True:
        await RisingEdge(dut.clk_i)
        dut.inj_valid_i.value = rng.getrandbits(1)
        for f in INJ[1:]:
            getattr(dut, f"inj_{f}_i").value = rng.getrandbits(W)


async def monitor(dut, got: list[dict[str, object]], injected: list[int]) -> None:
    cur: dict[str, object] | None = None
    prev: dict[str, int] = {f: 0 for f in INJ}
    prev_rv = 0
    while True:
        await RisingEdge(dut.clk_i)
        await ReadOnly()
        ov, rv = int(dut.out_valid_o.value), int(dut.res_valid_o.value)
        first = int(dut.out_first_o.value)
        inj = prev_rv   # a result word last cycle: the output carries that cycle's injection word
        if inj:
            assert ov == prev["valid"], "injected word's valid"
            if ov:
                for f in INJ[1:]:
                    assert int(getattr(dut, f"out_{f}_o").value) == prev[f], f"injected {f}"
                for f in ("s1", "s2", "q", "q2", "tag", "last"):
                    assert int(getattr(dut, f"out_{f}_o").value) == 0, f"injected word's {f}"
                assert first == (prev["first"] and prev["valid"]), "injected word's first flag"
                injected.append(1)
        else:
            assert not (ov and rv), "a result word is not passed on"
        prev = {f: int(getattr(dut, f"inj_{f}_i").value) for f in INJ}
        prev["first"] = int(rv and not prev_rv)   # the injection word taken with result word 0
        prev_rv = rv
        if rv:
            word = {"s1": int(dut.res_s1_o.value), "s2": int(dut.res_s2_o.value), "a": 0, "b": 0, "n": 0}
        elif ov and not inj:
            word = {f: int(getattr(dut, f"out_{f}_o").value) for f in ("s1", "s2", "a", "b", "n")}
        else:
            continue
        full = cur is not None and len(cur["s1"]) == int(dut.em1_i.value) + 1  # type: ignore[arg-type]
        if cur is None or full or bool(rv) != cur["res"] or (first and not rv):
            cur = {k: [] for k in ("s1", "s2", "a", "b", "n")}
            if rv:   # q_(f+1) and the index from the q port (the stream's q and index are 0)
                cur.update(q=int(dut.q_o.value), q2=None, tag=int(dut.tag_o.value) + 1, olast=0, res=True,
                           first=1)
            else:
                cur.update(q=int(dut.out_q_o.value), q2=int(dut.out_q2_o.value), tag=int(dut.out_tag_o.value),
                           olast=int(dut.out_last_o.value), res=False, first=first)
            got.append(cur)
        for f, v in word.items():
            cur[f].append(v)  # type: ignore[union-attr]


@cocotb.test()
async def products_through_one_pe(dut):
    rng = random.Random(int(os.environ.get("PKA_SEED", "1")))
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    dut.rst_ni.value = 0
    dut.wipe_i.value = 0          # OP_ZEROIZE's clear (tested on the whole core in tb/pka_hscm_core)
    dut.in_valid_i.value = 0
    dut.in_first_i.value = 0
    dut.inj_valid_i.value = 0
    for _ in range(3):
        await RisingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    got: list[dict[str, object]] = []
    injected: list[int] = []
    cocotb.start_soon(monitor(dut, got, injected))
    cocotb.start_soon(injector(dut, random.Random(rng.getrandbits(32))))

    for n in ((40, 64, 79) if DQ == 1 else (68, 95, 130)):
        g = M.Geometry(n, K, W)
        dut.em1_i.value = g.words - 1
        dut.fp1_i.value = g.passes - 1
        prods = []
        for _ in range(2):
            m = M.modulus(rng.getrandbits(n) | 1 | (1 << (n - 1)), K, w=W)
            top = 1 << (n + 2 * K + 1)
            prods.append(Product(m, rng.randrange(top), rng.randrange(top)))
        start = len(got)
        order: list[Product] = []
        after_last = False
        for i in range(g.passes):
            for p in prods:
                words, (q, q2, tag, last) = p.stream(i)
                order.append(p)
                gap = rng.choice([0, 0, 0, 1, 3])                  # mostly back to back
                for _ in range(max(gap, int(after_last))):        # after a last iteration: >= 1
                    await RisingEdge(dut.clk_i)
                    dut.in_valid_i.value = 0
                    dut.in_first_i.value = 0
                after_last = bool(last)
                for x, (s1, s2, a, b, nn) in enumerate(words):
                    await RisingEdge(dut.clk_i)
                    dut.in_valid_i.value = 1
                    dut.in_first_i.value = int(x == 0)
                    dut.in_s1_i.value = s1
                    dut.in_s2_i.value = s2
                    dut.in_a_i.value = a
                    dut.in_b_i.value = b
                    dut.in_n_i.value = nn
                    dut.in_q_i.value = q
                    dut.in_q2_i.value = q2
                    dut.in_tag_i.value = tag
                    dut.in_last_i.value = last
        await RisingEdge(dut.clk_i)
        dut.in_valid_i.value = 0
        dut.in_first_i.value = 0
        for _ in range(g.words + 4):
            await RisingEdge(dut.clk_i)
        outs = got[start:]
        assert len(outs) == len(order), (len(outs), len(order))
        for p in prods:
            exp = iter(p.expect)
            for o, owner in zip(outs, order):
                if owner is not p:
                    continue
                e = next(exp)
                for f in ("s1", "s2", "q", "tag", "res") + (() if e["res"] else ("a", "b", "n", "q2")):
                    assert o[f] == e[f], (n, f, o[f], e[f])
                if not e["res"]:
                    assert o["olast"] == e["olast"] and o["first"] == 1
            q_last = p.q_prev if DQ == 1 else p.q_prev2 + (p.q_prev << W)   # q_(f+1)
            s = (M.from_words(p.s1, W) + M.from_words(p.s2, W) << K) + q_last
            assert s == M.montmul(p.a, p.b, p.mod)
    assert len(injected) >= 10, "the injection path was exercised"


@pytest.mark.rtl
@pytest.mark.parametrize("dq", [1, 2])
def test_pka_hscm_pe(dq: int) -> None:
    from pka.sim import REPO, run_cocotb
    src = [REPO / "rtl" / "engines" / "hscm" / "pka_hscm_pe.sv"]
    run_cocotb("pka_hscm_pe", src, "test_pka_hscm_pe", Path(__file__).parent,
               params={"W": W, "TagW": TAGW, "Dq": dq}, extra_env={"PKA_HSCM_PE_DQ": str(dq)})
