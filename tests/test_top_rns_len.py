"""pka_top's RnsMaxLen: rns built shorter than the build's MaxLen (a P-256 rns beside a 2048-bit
hscm, in small): ENGCFG reports it (and hscm's w), rns and ECDSA_SIGN serve up to it (results checked against the
model's affine reference arithmetic, counts against the models), hscm serves up to MaxLen, and a longer rns operation ends
with ERR_LENGTH before anything runs (COMPUTE 0: without the sequencer's check ECDSA_SIGN would
first spend hscm's k^-1 and only then hear rns refuse)."""

from __future__ import annotations

import random

import pytest

from conftest import SEED
from pka.driver import Pka
from pka.errors import Status
from pka.model import rns
from pka.regs import Engine
from pka.model import hscm
from pka.rtl.top import TopConfig, TopSim, ecc_compute, ecdsa_compute
from pka.sim import Op

pytestmark = pytest.mark.rtl

RNS = {"w": 16, "alg": "mm"}
HSCM = {"pes": 2, "w": 16}
SHORT = TopConfig(max_len=128, engines=("hscm", "rns"),
                  params=(("HscmMaxWindow", 6), ("HscmPes", 2), ("HscmW", 16), ("MinSlotAw", 7),
                          ("RnsMaxLen", 64), ("RnsW", 16)))


@pytest.fixture(scope="module")
def pka() -> Pka:
    sim = TopSim(SHORT)
    yield Pka(sim, blinding=False)
    sim.close()


def test_engcfg_reports_rns_length_and_hscm_word(pka: Pka) -> None:
    assert (pka.cfg.max_len, pka.cfg.rns_max_len, pka.cfg.hscm_w) == (128, 64, 16)


def test_each_engine_serves_its_own_length(pka: Pka) -> None:
    rng = random.Random(SEED)
    c = rns.CURVES["small"]
    k = rng.randrange(1, c.order)
    res = pka.ecc_mul_rns("small", k, RNS)
    ref = rns.affine_mul(c, k, (c.gx, c.gy))
    assert ref is not None and res.result == ref[0]
    assert res.cycles == ecc_compute("small", 16, False)
    # ECDSA_SIGN on the 64-bit curve of prime order: the signature verifies
    e = rns.CURVES["small_ecdsa"]
    d, h = rng.randrange(1, e.order), rng.randrange(e.order)
    sig = pka.ecdsa_sign("small_ecdsa", d, h, RNS)
    r, s = sig.result, sig.detail["s"]
    w = pow(s, -1, e.order)
    q = rns.affine_mul(e, d, (e.gx, e.gy))
    pt = rns.affine_add(e, rns.affine_mul(e, h * w % e.order, (e.gx, e.gy)), rns.affine_mul(e, r * w % e.order, q))
    assert pt is not None and pt[0] % e.order == r
    assert sig.cycles == ecdsa_compute("small_ecdsa", 16, HSCM, False, True)
    # hscm up to MaxLen
    n = rng.getrandbits(128) | 1 << 127 | 1
    a, x = rng.randrange(n), rng.getrandbits(128)
    got, want = pka.modexp(a, x, n, "hscm", params=HSCM), hscm.modexp(a, x, n, {**HSCM, "window": 0, "ladder": 0})
    assert (got.result, got.cycles) == (pow(a, x, n), want.cycles)


@pytest.mark.parametrize("op, engine", [(Op.ECC_MUL, 0), (Op.ECDSA_SIGN, 0), (Op.MODMUL, int(Engine.RNS))])
def test_longer_rns_operation_refused_before_it_runs(pka: Pka, op: Op, engine: int) -> None:
    # 96 bits: beyond rns's 64, within MaxLen 128 (the length check comes before any operand is read)
    res = pka.command(op, 96, 96, 0, engine)
    assert res.status == Status.ERR_LENGTH and res.compute == 0
