"""hscm inside pka_top, through the bus: every hscm opcode against pka.model.hscm (results and
cycles), RSA_CRT with its constants made in hardware, and hscm's status codes through the top.
One small build (MaxLen 512, 2 PEs, w = 16) for CI."""

from __future__ import annotations

import os
import random

import gmpy2
import pytest
from conftest import SEED

from pka.driver import Pka, backend, close_all, session
from pka.errors import PkaError, Status
from pka.model import hscm as model
from pka.model.common import CrtKey
from pka.rtl.top import crt_compute
from pka.sim import Op, Slot

pytestmark = pytest.mark.rtl

VECTORS = int(os.environ.get("PKA_VECTORS", "20"))
PARAMS = {"pes": 2, "w": 16, "window": 0, "ladder": 0}


def _p() -> Pka:
    return session("hscm", PARAMS, 512)


def _mod(rng: random.Random, bits: int) -> int:
    return rng.getrandbits(bits) | 1 | (1 << (bits - 1))


def _prime(rng: random.Random, bits: int) -> int:
    return int(gmpy2.next_prime(rng.getrandbits(bits) | 1 << (bits - 1)))


@pytest.mark.parametrize("bits", [64, 255, 512])
def test_modexp_modmul_montmul_mul(bits: int) -> None:
    p = _p()
    rng = random.Random(bits)
    for i in range(max(1, VECTORS // 10)):
        n = _mod(rng, bits)
        a, b, e = rng.randrange(n), rng.randrange(n), rng.getrandbits(bits)
        for window in (0, 4):
            prm = dict(PARAMS, window=window)
            r, m = p.modexp(a, e, n, "hscm", params=prm), model.modexp(a, e, n, prm)
            assert (r.result, r.cycles) == (pow(a, e, n), m.cycles)
        prm = dict(PARAMS, ladder=1)
        r, m = p.modexp(a, e, n, "hscm", ct=True, params=prm), model.modexp(a, e, n, prm)
        assert (r.result, r.cycles) == (pow(a, e, n), m.cycles)
        r, m = p.modmul(a, b, n, "hscm", params=PARAMS), model.modmul(a, b, n, PARAMS)
        assert r.result == a * b % n and r.cycles == m.detail["total_cycles"]
        r, m = p.montmul(a, b, n, "hscm", params=PARAMS), model.montmul_op(a, b, n, PARAMS)
        assert (r.result, r.cycles) == (m.result, m.cycles)
        r, m = p.mul(a, b, bits, "hscm"), model.mul(a, b, bits, PARAMS)
        assert (r.result, r.cycles) == (a * b, m.cycles)


def test_modred() -> None:
    p = _p()
    rng = random.Random(3)
    for bits in (100, 500):
        n = _mod(rng, bits)
        for omega in (0, 5, n, rng.getrandbits(2 * bits - 1), (1 << (2 * bits)) - 1):
            r, m = p.modred(omega, n, "hscm", params=PARAMS), model.modred(omega, n, PARAMS)
            assert (r.result, r.cycles) == (omega % n, m.cycles)


def test_rsa_crt() -> None:
    """RSA_CRT with the key's constants made inside the accelerator (once per key) and the result
    checked with e before release, blinded (exponents + 64 random bits, the message by the key's
    blinding pair, from the entropy port) and not: results and exact COMPUTE against the model of the
    sequencer's programs (pka.rtl.top.crt_compute)."""
    rng = random.Random(5)
    be = backend("hscm")
    p = _p()
    p.bus.entropy(rng.getrandbits(64))
    for blind in (True, False):
        p.set_blinding(blind)
        key = CrtKey.from_pq(_prime(rng, 256), _prime(rng, 256))
        m = rng.randrange(key.n)
        r = be.rsa_crt(m, key, PARAMS)
        assert r.result == pow(m, key.d, key.n) and r.detail["key_setup"]
        assert r.cycles == crt_compute(m, key, PARAMS, key_setup=True, n_setup=True, blind=blind, blind_setup=blind)
        for _ in range(2):
            m2 = rng.randrange(key.n)
            r2 = be.rsa_crt(m2, key, PARAMS)               # the key's constants are kept
            assert r2.result == pow(m2, key.d, key.n) and not r2.detail["key_setup"]
            assert r2.cycles == crt_compute(m2, key, PARAMS, key_setup=False, n_setup=False, blind=blind)
    # the sequencer's own length checks on bits(p), bits(q): both > 0, the same word count, <= MaxLen / 2
    nb, bp, bq = key.n.bit_length(), key.p.bit_length(), key.q.bit_length()
    for lp, lq in ((0, bq), (bp, 0), (bp, 200), (257, 257)):
        assert p.command(Op.RSA_CRT, nb, lp, lq).status == Status.ERR_LENGTH, (lp, lq)
    p.set_blinding(True)
    for s in (Slot.P, Slot.Q, Slot.DP, Slot.DQ, Slot.QINV):
        assert p.read_slot(s, 8) == 0                      # secrets are write-only
    bad = CrtKey(key.n, key.e, key.d, key.p, key.q, key.dp, key.dq, (key.qinv + 1) % key.p, key.pinv)
    with pytest.raises(PkaError) as err:
        be.rsa_crt(m, bad, PARAMS)
    assert err.value.status == Status.ERR_NO_INVERSE


def test_status_codes_through_the_top() -> None:
    p = _p()
    with pytest.raises(PkaError) as err:
        p.modexp(3, 5, 1 << 100, "hscm", params=PARAMS)     # even N: MONT_PARAMS in the sequencer
    assert err.value.status == Status.ERR_EVEN_MODULUS
    with pytest.raises(PkaError) as err:
        p.modexp(3, 5, 23, "hscm", params=PARAMS)           # below hscm's minimum length: the engine's
    assert err.value.status == Status.ERR_LENGTH            # length check, as the model's
    with pytest.raises(PkaError) as err:
        model.modexp(3, 5, 23, PARAMS)
    assert err.value.status == Status.ERR_LENGTH
    n = _mod(random.Random(1), 300)
    with pytest.raises(PkaError) as err:
        p.modmul(n, 1, n, "hscm", params=PARAMS)
    assert err.value.status == Status.ERR_OPERAND_RANGE
    assert p.modexp(2, 10, n, "hscm", params=PARAMS).result == 1024


def test_random_bus_traffic_on_the_hscm_build() -> None:
    """Random addresses, data and commands (random opcodes, lengths and engine fields, so real hscm
    operations start and are interrupted by ERR_BUSY traffic) with a watchdog on every transaction;
    afterwards hscm results and cycles still equal the model's."""
    p = _p()
    sim = p.bus
    n_tx = int(os.environ.get("PKA_FUZZ", "30000")) // 3
    res = sim.fuzz(n_tx, seed=SEED, watchdog=2000)
    # every transaction completed (a command is two writes: LEN and CMD), about 8 % were commands
    assert res.reads + res.writes == n_tx + res.commands and res.max_latency < 2000
    assert 0.05 * n_tx < res.commands < 0.11 * n_tx, res
    q = Pka(sim)                     # checks the ID register; waits for whatever the fuzz started
    rng = random.Random(33)
    for bits in (64, 255):
        n = _mod(rng, bits)
        a, b, e = rng.randrange(n), rng.randrange(n), rng.getrandbits(bits)
        r = q.modexp(a, e, n, "hscm", params=PARAMS)
        m = model.modexp(a, e, n, PARAMS)
        assert r.result == m.result == pow(a, e, n) and r.cycles == m.cycles
        assert q.modmul(a, b, n, "hscm", params=PARAMS).result == a * b % n
    close_all()   # the cached session's driver state (SLOT_W, CRT constants) predates the fuzz
