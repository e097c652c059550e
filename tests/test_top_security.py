"""Key handling of pka_top (issue 13, doc/security.md): every protection with a test that shows the
attack succeeding without it.

Two hscm builds (MaxLen 512, 2 PEs): the product build, and an "unprotected" build with the test-only
parameters EnKeyBinding=0, EnResultCheck=0 and TestExposeInternals=1 (the key's constants in bus
slots, no taint), on which the same attacks succeed. The example-engine build serves the watchdog
test (its MODADD with a test argument never ends).
"""

from __future__ import annotations

import math
import os
import random
from typing import Iterator

import gmpy2
import pytest
from conftest import readable_slots

from pka.driver import INTR_DONE, INTR_REJECT, INTR_TAINT, Pka, slot_addr, words_for
from pka.errors import PkaError, Status
from pka.model.common import CrtKey
from pka.regs import Reg
from pka.rtl.top import TopConfig, TopSim, hscm_r
from pka.sim import Op, Slot

pytestmark = pytest.mark.rtl

SEED = int(os.environ.get("PKA_SEED", "13"))
HSCM = (("HscmMaxWindow", 6), ("HscmPes", 2), ("HscmW", 16), ("MinSlotAw", 5))
UNPROTECTED = (("EnKeyBinding", 0), ("EnResultCheck", 0), ("TestExposeInternals", 1))


@pytest.fixture(scope="module")
def hscm_top() -> Iterator[Pka]:
    with TopSim(TopConfig(512, ("hscm",), HSCM)) as sim:
        yield Pka(sim)


@pytest.fixture(scope="module")
def open_top() -> Iterator[Pka]:
    with TopSim(TopConfig(512, ("hscm",), HSCM + UNPROTECTED)) as sim:
        yield Pka(sim)


def _prime(rng: random.Random, bits: int) -> int:
    return int(gmpy2.next_prime(rng.getrandbits(bits) | 1 << (bits - 1)))


def _key(rng: random.Random, bits: int = 256) -> CrtKey:
    while True:
        p, q = _prime(rng, bits), _prime(rng, bits)
        if p != q and math.gcd(65537, (p - 1) * (q - 1)) == 1:
            return CrtKey.from_pq(p, q)


def _readable(pka: Pka) -> dict[Slot, int]:
    """Every slot the bus can read, over the whole backed slot (conftest.readable_slots)."""
    return readable_slots(pka)


def _factor_from(values: dict[Slot, int], key: CrtKey, w: int = 16) -> list[Slot]:
    """The slots from which one gcd with N gives a prime factor: gcd(v - c, N) for v in the slot and
    c among what an attacker knows (0, the message-independent Montgomery constants R^k = 2^(k r) of
    hscm for the lengths of N, p and q, k = 1..3)."""
    known = [0]
    for bits in (key.n.bit_length(), key.p.bit_length(), key.q.bit_length()):
        r = hscm_r(bits, w)
        known += [pow(2, k * r, key.n) for k in (1, 2, 3)] + [pow(2, k * (r // 2), key.n) for k in (1, 2, 3)]
    leaks = []
    for s, v in values.items():
        if v == 0 or v >= 1 << (32 * 40):
            continue
        for c in known:
            g = math.gcd((v - c) % key.n, key.n)
            if g not in (1, key.n):
                leaks.append(s)
                break
    return leaks


# ---- secret-derived values never leave ------------------------------------------------------------

def test_no_readable_slot_factors_n_after_rsa_crt(hscm_top: Pka, open_top: Pka) -> None:
    rng = random.Random(SEED)
    key = _key(rng)
    params = {"w": 16, "window": 0}
    for pka, protected in ((hscm_top, True), (open_top, False)):
        for _ in range(2):
            m = rng.randrange(key.n)
            r = pka.rsa_crt(m, key, "hscm", params=params)
            assert r.result == pow(m, key.d, key.n)
            leaks = _factor_from(_readable(pka), key)
            if protected:
                assert leaks == [], f"readable slots give a factor of N: {leaks}"
            else:
                # the attack of issue 13: the key's Montgomery constants in readable slots factor N
                assert set(leaks) & {Slot.X0, Slot.X1, Slot.W, Slot.B}, leaks


def test_result_check_and_taint(hscm_top: Pka, open_top: Pka) -> None:
    """RSA_CRT checks s^e == m before release: a wrong e in SLOT_EPUB makes the check fail (so it can
    fail): ERR_FAULT, R zeroed and tainted (reads 0, INTR_STATE.TAINT) until the host writes it.
    Without the check the unverified result is released."""
    rng = random.Random(SEED + 1)
    key = _key(rng)
    m = rng.randrange(key.n)
    nw = words_for(key.n.bit_length())
    for pka, protected in ((hscm_top, True), (open_top, False)):
        pka.rsa_crt(m, key, "hscm", params={"w": 16})
        pka.set_epub(3, nw)                                   # not the key's e
        c = pka.command(Op.RSA_CRT, key.n.bit_length(), key.p.bit_length(), key.q.bit_length())
        if protected:
            assert c.status == Status.ERR_FAULT
            assert pka.bus.read_words(slot_addr(Slot.R), nw) == [0] * nw
            assert pka.bus.read32(Reg.INTR_STATE) & INTR_TAINT
            assert pka.bus.read32(Reg.STATUS) >> 3 & 1          # STATUS.TAINT
            with pytest.raises(PkaError, match="tainted"):
                pka.read_slot(Slot.R, nw)
            pka.write_slot(Slot.R, 5, nw)                       # a host write untaints the slot
            assert pka.read_slot(Slot.R, nw) == 5
        else:
            assert c.status == Status.OK
            assert pka.read_slot(Slot.R, nw) == pow(m, key.d, key.n)
        pka.set_epub(key.e, nw)
    # MODEXP with a secret exponent is checked when a public exponent is given
    r = hscm_top.modexp(m, key.d, key.n, "hscm", params={"w": 16}, e_pub=key.e)
    assert r.result == pow(m, key.d, key.n)
    with pytest.raises(PkaError) as err:
        hscm_top.modexp(m, key.d, key.n, "hscm", params={"w": 16}, e_pub=5)
    assert err.value.status == Status.ERR_FAULT
    hscm_top.set_epub(0, nw)


# ---- key binding: the Pohlig-Hellman attempt ----------------------------------------------------------

def _smooth_prime(rng: random.Random, bits: int) -> tuple[int, list[int]]:
    """A prime p whose p - 1 is a product of small primes (and 2)."""
    small = [int(x) for x in (gmpy2.next_prime(1000 + 97 * i) for i in range(40))]
    while True:
        fs, x = [2], 2
        while x.bit_length() < bits - 12:
            f = rng.choice(small)
            fs.append(f)
            x *= f
        for f in small[:8]:
            if gmpy2.is_prime(x * f + 1) and (x * f + 1).bit_length() <= bits:
                return x * f + 1, fs + [f]


def _pohlig_hellman(g: int, h: int, p: int, factors: list[int]) -> int:
    """log_g h mod p - 1 for p - 1 = prod(factors) (small, squarefree apart from 2s: brute force)."""
    order = p - 1
    res, mod = 0, 1
    for f in sorted(set(factors)):
        e = factors.count(f)
        pe = f ** e
        gi, hi = pow(g, order // pe, p), pow(h, order // pe, p)
        x = next(k for k in range(pe) if pow(gi, k, p) == hi)
        # CRT of res mod `mod` and x mod pe
        res = res + mod * ((x - res) * pow(mod, -1, pe) % pe)
        mod *= pe
    return res % order


def test_pohlig_hellman_attempt_fails(hscm_top: Pka, open_top: Pka) -> None:
    """A secret exponent E written under one N; a bus master then writes a smooth prime of its own as
    N and runs MODEXP: with key binding the modulus write zeroized E (the result is g^0); without it
    the result gives E by Pohlig-Hellman."""
    rng = random.Random(SEED + 2)
    secret = rng.getrandbits(90) | 1 << 89
    smooth, factors = _smooth_prime(rng, 128)
    for pka, protected in ((hscm_top, True), (open_top, False)):
        n1 = rng.getrandbits(256) | 1 << 255 | 1
        pka.write_slot(Slot.N, n1, 8)
        pka.write_slot(Slot.E, secret, 3)                     # the owner's secret, bound to n1
        assert pka.bus.read32(Reg.STATUS) >> 2 & 1 == int(True)
        # the attacker: its own modulus, a generator, W for hscm, MODEXP with E's length
        g = next(x for x in range(2, 100) if all(pow(x, (smooth - 1) // f, smooth) != 1 for f in set(factors)))
        pka.mont_params(smooth, smooth.bit_length(), hscm_r(smooth.bit_length(), 16))
        pka.write_slot(Slot.A, g, 4)
        pka.set_epub(0, 4)
        c = pka.command(Op.MODEXP, smooth.bit_length(), 90)
        assert c.status == Status.OK
        h = pka.read_slot(Slot.R, 4)
        found = _pohlig_hellman(g, h, smooth, factors)
        if protected:
            assert h == 1 and found != secret
        else:
            assert found == secret                            # the attack works without binding
        pka.zeroize()


# ---- abort and watchdog ---------------------------------------------------------------------------------

def test_abort(hscm_top: Pka) -> None:
    """CTRL.ABORT stops a running MODEXP, zeroizes (readable slots read 0), ends with ERR_ABORTED;
    the block works afterwards."""
    rng = random.Random(SEED + 3)
    pka = hscm_top
    n = rng.getrandbits(512) | 1 << 511 | 1
    a, e = rng.randrange(n), rng.getrandbits(512)
    pka.ensure_w(n, 512, hscm_r(512, 16))
    pka.write_slot(Slot.A, a, 16)
    pka.write_slot(Slot.E, e, 16)
    pka.set_epub(0, 16)
    pka.start(Op.MODEXP, 512, 512)
    pka.bus.idle(2000)                                         # well inside the exponentiation
    assert pka.bus.read32(Reg.STATUS) & 1
    c = pka.abort()
    assert c.status == Status.ERR_ABORTED
    # stop (4 cycles of engine reset) + zeroize (every RAM word) + wipes: bounded, far below the rest
    # of the exponentiation
    assert c.cycles < 2000 + 32 * pka.cfg.slot_words + 40_000
    values = _readable(pka)
    assert all(v == 0 for v in values.values()), {s: hex(v) for s, v in values.items() if v}
    assert not pka.bus.read32(Reg.STATUS) >> 2 & 1             # nothing bound any more
    r = pka.modexp(a, 65537, n, "hscm", params={"w": 16})
    assert r.result == pow(a, 65537, n)


def test_watchdog_ends_a_hung_engine() -> None:
    """The example engine's test hook (MODADD with ARG = 0xDEADBEEF) never finishes: the watchdog ends
    it at ((elen + 8)(W + 4)^2 << 5) + 2^16 cycles with ERR_TIMEOUT, resets and wipes the engine, and
    the next command works."""
    with TopSim(TopConfig(256, ("example",))) as sim:
        pka = Pka(sim)
        n = (1 << 255) + 95
        pka.write_slot(Slot.N, n, 8)
        pka.write_slot(Slot.A, 3, 8)
        pka.write_slot(Slot.B, 4, 8)
        c = pka.command(Op.MODADD, 256, 0, 0xDEADBEEF, engine=7)
        assert c.status == Status.ERR_TIMEOUT
        bound = ((0 + 8) * (8 + 4) ** 2 << 5) + (1 << 16)
        assert bound <= c.cycles < bound + 1000
        assert pka.modadd(3, 4, n, engine=7).result == 7
        sim.write32(Reg.INTR_STATE, INTR_DONE | INTR_REJECT | INTR_TAINT)
