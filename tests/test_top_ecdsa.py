"""ECDSA_SIGN through pka_top (a build with rns and hscm): the nonce, its inverse and the private
key stay in the accelerator; every signature is checked by an independent verification (the
reference affine arithmetic of pka.model.rns on the 64-bit test curve, `cryptography` on P-256 in
the slow tier), and COMPUTE against pka.rtl.top.ecdsa_compute; the error codes; the key handling
(d, k never readable, the scratch zeroed)."""

from __future__ import annotations

import os
import random
from typing import Any, Callable

import pytest

from conftest import SEED
from pka.driver import ECDSA_NONCE_GIVEN, INTR_TAINT, Pka, slot_addr
from pka.errors import PkaError, Status
from pka.model import rns
from pka.rtl.top import ECDSA_HSCM, TopConfig, TopSim, ecdsa_compute, ecdsa_config
from pka.regs import Reg
from pka.sim import Op, Slot

pytestmark = pytest.mark.rtl

VECTORS = int(os.environ.get("PKA_VECTORS", "20"))
HSCM = {"pes": 2, "w": 16}
RNS = {"w": 16, "alg": "mm"}
CURVE = "small_ecdsa"
SMALL = TopConfig(max_len=64, engines=("hscm", "rns"),
                  params=(("HscmMaxWindow", 6), ("HscmPes", 2), ("HscmW", 16), ("MinSlotAw", 7), ("RnsW", 16)))


def verify(curve: str, q: tuple[int, int], h: int, r: int, s: int) -> bool:
    """ECDSA verification with the model's affine reference arithmetic (not the engine)."""
    c = rns.CURVES[curve]
    n = c.order
    if not (0 < r < n and 0 < s < n):
        return False
    sinv = pow(s, -1, n)
    u1, u2 = h % n * sinv % n, r * sinv % n
    pt = rns.affine_add(c, rns.affine_mul(c, u1, (c.gx, c.gy)), rns.affine_mul(c, u2, q))
    return pt is not None and pt[0] % n == r


@pytest.fixture
def pka() -> Pka:
    """A fresh pka_top per test (the build is cached): the counts depend on what ECDSA commands ran
    before on the same accelerator (W_n made on the first after A_HI changed), and pytest-xdist
    splits a module's tests between workers."""
    sim = TopSim(SMALL)
    yield Pka(sim, blinding=False)
    sim.close()


def test_ecdsa_sign_small_curve(pka: Pka) -> None:
    c = rns.CURVES[CURVE]
    rng = random.Random(SEED)
    first = True
    for i in range(max(3, VECTORS // 4)):
        blind = i % 2 == 1
        pka.set_blinding(blind)
        d = (1, c.order - 1)[i] if i < 2 else rng.randrange(1, c.order)
        h = (0, c.order, (1 << 64) - 1)[i] if i < 3 else rng.getrandbits(64)
        res = pka.ecdsa_sign(CURVE, d, h, RNS)
        q = rns.affine_mul(c, d, (c.gx, c.gy))
        assert q is not None
        assert verify(CURVE, q, h, res.result, res.detail["s"]), (d, h)
        assert res.cycles == ecdsa_compute(CURVE, 16, HSCM, blind, first), (i, res.cycles)
        first = False


def test_ecdsa_sign_given_nonce(pka: Pka) -> None:
    """ARG[8]: the host's nonce (an RFC 6979 nonce, say) in the write-only SLOT_P: r and s are then
    exactly x(k G) mod n and k^-1 (h + r d) mod n; a nonce of 0 or >= n is ERR_OPERAND_RANGE."""
    c = rns.CURVES[CURVE]
    n = c.order
    rng = random.Random(SEED + 1)
    pka.set_blinding(False)
    # the curve's W_n is made inside on the first ECDSA command of this (fresh) pka_top: one
    # signature first, checked but its count not compared here (test_ecdsa_sign_small_curve
    # compares that case); every signature below keeps W_n (w_setup = False)
    r0 = pka.ecdsa_sign(CURVE, 2, 3, RNS, k=5)
    assert (r0.result, r0.detail["s"]) == (rns.affine_mul(c, 5, (c.gx, c.gy))[0] % n,  # type: ignore[index]
                                           pow(5, -1, n) * (3 + r0.result * 2) % n)
    for k in (1, n - 1, *(rng.randrange(1, n) for _ in range(max(2, VECTORS // 8)))):
        d, h = rng.randrange(1, n), rng.getrandbits(64)
        res = pka.ecdsa_sign(CURVE, d, h, RNS, k=k)
        pt = rns.affine_mul(c, k, (c.gx, c.gy))
        assert pt is not None
        r = pt[0] % n
        assert (res.result, res.detail["s"]) == (r, pow(k, -1, n) * (h + r * d) % n), k
        assert res.cycles == ecdsa_compute(CURVE, 16, HSCM, False, False, given_k=True)
    for k in (0, n, n + 5):
        _load(pka, 7, 5)
        pka.write_slot(Slot.P, k, 2)
        pka.write_slot(Slot.E, 7, 2)
        res = pka.command(Op.ECDSA_SIGN, 64, 64, rns.blind_arg(c) | ECDSA_NONCE_GIVEN)
        assert res.status == Status.ERR_OPERAND_RANGE, k


def test_mont_params_with_hscms_own_r(pka: Pka) -> None:
    """MONT_PARAMS with ELEN = 0xFFFF on this build: hscm's r = k ceil((n + 2k + 2)/k) made by the
    hardware, for the engine named and for the automatic pick; rns takes no W (ERR_UNSUPPORTED)."""
    from pka.rtl.top import hscm_r
    n = rns.CURVES[CURVE].order
    for bits, mod in ((64, n), (40, (1 << 39) | 0x12345)):
        want = pow(2, 2 * hscm_r(bits, 16), mod)
        assert pka.mont_params_engine(mod, bits, "hscm").result == want
        assert pka.mont_params_engine(mod, bits).result == want
    with pytest.raises(PkaError) as exc:
        pka.mont_params_engine(n, 64, "rns")
    assert exc.value.status == Status.ERR_UNSUPPORTED
    pka._forget()


def _load(pka: Pka, d: int, h: int, order: int | None = None, p: int | None = None) -> None:
    """The slots of ECDSA_SIGN as the driver writes them, with any n, p, d and h (no host checks)."""
    c = rns.CURVES[CURVE]
    ctx = rns.mm_context(c.p, 16)
    pka._rns_load(ctx, rns.ecc_inputs(c, c.gx, ctx.m, c.gy), 0, 64, c.p - 2, c.order if order is None else order,
                  whole_p=True)
    if p is not None:
        pka.write_slot(Slot.N, p, 2)
    pka.write_slot(Slot.E, d, 2)
    pka.write_slot(Slot.EPUB, h, 2)


def test_ecdsa_sign_errors(pka: Pka) -> None:
    """Bad input ends with a status, never a wrong signature; a good command works afterwards."""
    c = rns.CURVES[CURVE]
    n = c.order
    for d, h, order, elen, want in ((0, 5, None, 64, Status.ERR_OPERAND_RANGE),        # d = 0
                                    (n, 5, None, 64, Status.ERR_OPERAND_RANGE),        # d = n
                                    (7, n, None, 64, Status.ERR_OPERAND_RANGE),        # h = n (not reduced)
                                    (7, 5, n + 1, 64, Status.ERR_EVEN_MODULUS),        # an even order
                                    (7, 5, None, 63, Status.ERR_LENGTH)):              # ELEN != LEN
        _load(pka, d, h, order)
        before = pka.read_slot(Slot.R, 2), pka.read_slot(Slot.R_HI, 2)
        res = pka.command(Op.ECDSA_SIGN, 64, elen, rns.blind_arg(c))
        assert res.status == want, (d, h, order, elen, Status(res.status))
        assert (pka.read_slot(Slot.R, 2), pka.read_slot(Slot.R_HI, 2)) == before   # checked before any write
    res = pka.command(Op.ECDSA_SIGN, 64, 64, engine=5)          # CMD.ENGINE names one engine: no such op
    assert res.status == Status.ERR_UNSUPPORTED
    with pytest.raises(PkaError) as exc:
        pka.ecdsa_sign("p256", 1, 1, RNS)                          # P-256 does not fit this 64-bit build
    assert exc.value.status == Status.ERR_LENGTH
    d = 0x1234_5678_9ABC_DEF1
    res_ok = pka.ecdsa_sign(CURVE, d, 99, RNS)
    q = rns.affine_mul(c, d, (c.gx, c.gy))
    assert q is not None and verify(CURVE, q, 99, res_ok.result, res_ok.detail["s"])


def test_ecdsa_sign_keeps_the_nonce_inside(pka: Pka) -> None:
    """The attack the operation prevents: the nonce k of one signature gives the private key,
    d = (s k - h) / r mod n. With a host-composed signature k passes the bus; with ECDSA_SIGN no
    bus-readable word holds k, k^-1 or d afterwards (the test knows d, so it can compute k and
    k^-1 and search every slot window for them), the private key's slot reads 0, and two
    signatures of one hash use two nonces."""
    c = rns.CURVES[CURVE]
    n = c.order
    d, h = 0x0FED_CBA9_8765_4321, 0x5555_AAAA_5555_AAAA
    sig = pka.ecdsa_sign(CURVE, d, h, RNS)
    r, s = sig.result, sig.detail["s"]
    k = pow(s, -1, n) * (h + r * d) % n
    assert (s * k - h) * pow(r, -1, n) % n == d                   # k leaked would give d
    secrets = {k, pow(k, -1, n), d}
    seen: set[int] = set()
    for slot in Slot:
        vals = pka.bus.read_words(slot_addr(slot), pka.cfg.slot_words)      # raw: a tainted slot reads 0
        seen.update(vals[i] | vals[i + 1] << 32 for i in range(len(vals) - 1))
    pka.bus.write32(Reg.INTR_STATE, INTR_TAINT)
    assert not secrets & seen
    assert pka.read_slot(Slot.R, 2) == r and pka.read_slot(Slot.R_HI, 2) == s
    again = pka.ecdsa_sign(CURVE, d, h, RNS)
    assert again.result != r                                      # a fresh nonce


def test_ecdsa_sign_p256_cryptography() -> None:
    """P-256 on the build bench/ecdsa.py measures (rns w = 32, hscm 8 PEs of w = 32; about 30 s to build):
    a key and a message hashed by `cryptography`, signed with blinding off and on, each signature
    verified by `cryptography`, COMPUTE as ecdsa_compute says."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, utils
    key = ec.derive_private_key(0xC0FFEE_1234_5678_9ABC_DEF0_1122_3344, ec.SECP256R1())
    msg = b"pka_top ECDSA_SIGN"
    dg = hashes.Hash(hashes.SHA256())
    dg.update(msg)
    h = int.from_bytes(dg.finalize(), "big")
    with TopSim(ecdsa_config(256)) as sim:
        pka = Pka(sim, blinding=False)
        for first, blind in ((True, False), (False, True)):
            pka.set_blinding(blind)
            res = pka.ecdsa_sign("p256", key.private_numbers().private_value, h, {"w": 32})
            der = utils.encode_dss_signature(res.result, res.detail["s"])
            key.public_key().verify(der, msg, ec.ECDSA(hashes.SHA256()))
            assert res.cycles == ecdsa_compute("p256", 32, ECDSA_HSCM, blind, first)


def _faulty_pair(check: bool, d: int, h: int, k: int,
                 inject: Callable[[Any, Pka, int], None]) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """One message signed twice with the given nonce k on a build with its state public, the second
    time with `inject(sim, pka, wall_cycles)` run right after the CMD write. check: ECDSA_SIGN's
    checks on (the second signature must end with ERR_FAULT: returns None), else the evidence build
    (EnResultCheck = 0): returns ((r, s), (r', s'))."""
    from pka.analysis.state import CmdHookBus, StateSim
    cfg = TopConfig(SMALL.max_len, SMALL.engines, (*SMALL.params, ("EnResultCheck", int(check))))
    with StateSim(cfg) as sim:
        bus = CmdHookBus(sim, opcode=Op.ECDSA_SIGN)
        p = Pka(bus, blinding=False)
        good = p.ecdsa_sign(CURVE, d, h, RNS, k=k)
        bus.on_cmd = lambda: inject(sim, p, good.detail["wall_cycles"])
        if check:
            with pytest.raises(PkaError) as exc:
                p.ecdsa_sign(CURVE, d, h, RNS, k=k)
            assert exc.value.status == Status.ERR_FAULT
            return None
        bad = p.ecdsa_sign(CURVE, d, h, RNS, k=k)
    return (good.result, good.detail["s"]), (bad.result, bad.detail["s"])


@pytest.mark.parametrize("check", [True, False], ids=["checked", "evidence-build"])
def test_ecdsa_fault_attack_on_a_given_nonce(check: bool) -> None:
    """The fault attack on deterministic ECDSA: one message signed twice with the same (given) nonce,
    the second time with one bit of d flipped in the RAM while the ladder runs. On the evidence build
    (EnResultCheck = 0: none of ECDSA_SIGN's checks) the faulty signature is released, and with the
    correct one it gives d: s' - s = k^-1 r delta, delta = +-2^i, so k = r delta / (s' - s) and
    d = (s k - h) / r. With the checks (d's check word at the start and after its last use): ERR_FAULT,
    nothing released."""
    from pka.analysis.state import RAM
    n = rns.CURVES[CURVE].order
    d, h, k, bit = 0x2468_ACE0_1357_9BDF, 0x0F0F_1234_5678_9ABC, 0x1357_2468_0000_FFFF, 9

    def flip_d(sim: Any, p: Pka, wall: int) -> None:
        sim.idle(wall // 3)                                        # inside the ladder, after d's range check
        sim.flip(RAM, bit, int(Slot.E) * p.cfg.slot_words)

    pair = _faulty_pair(check, d, h, k, flip_d)
    if pair is None:
        return
    (r, s), (r2, s2) = pair
    assert r2 == r and s2 != s                                     # the same k, another s
    found = {(s * (r * delta * pow(s2 - s, -1, n)) - h) * pow(r, -1, n) % n for delta in (1 << bit, -(1 << bit))}
    assert d in found


@pytest.mark.parametrize("check", [True, False], ids=["checked", "evidence-build"])
def test_ecdsa_fault_attack_on_the_conversion_of_x(check: bool) -> None:
    """A fault in the RNS -> binary conversion of x makes another r, used consistently: with a given
    nonce, the correct (r, s) and the faulty (r', s') of one message are two equations s k = h + r d
    and s' k = h + r' d, so d = h (s - s') / (s' r - s r'). The conversion runs twice and the results
    are compared: a bit of its accumulator flipped during the second run gives ERR_FAULT; on the
    evidence build (whose two runs are not compared) the faulty signature is released and gives d."""
    from pka.analysis.state import RAM
    n = rns.CURVES[CURVE].order
    d, h, k = 0x1122_3344_5566_7788, 0x0A0B_0C0D_0E0F_1011, 0x0FED_CBA9_8765_4321

    def flip_accumulator(sim: Any, p: Pka, wall: int) -> None:
        sim.idle(wall // 2)
        # KEcd's channel loop (step 14: a load of m'_j) in the second conversion (cv2 = 1: the
        # evidence build releases its x; the checked build compares it with the first's)
        for _ in range(wall):
            if (sim.peek("pka_top.u_seq.kind_q"), sim.peek("pka_top.u_seq.step_q"),
                    sim.peek("pka_top.u_seq.cv2_q")) == (16, 14, 1):
                break
            sim.idle(1)
        sim.flip(RAM, 7, 23 * p.cfg.slot_words + 1)                 # HsT0 (slot 23), word 1

    pair = _faulty_pair(check, d, h, k, flip_accumulator)
    if pair is None:
        return
    (r, s), (r2, s2) = pair
    assert r2 != r
    assert h * (s - s2) * pow(s2 * r - s * r2, -1, n) % n == d
