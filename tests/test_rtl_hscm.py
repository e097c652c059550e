"""RTL of hscm (rtl/engines/hscm) against the golden model pka.model.hscm: results AND cycles for
every operation (HSCM product, modmul, A1/binary/ladder modexp, MRDC, MULT, CRT-RSA), random
memory stalls, every error code and the return to idle; constant time of RSA_CRT and MODEXP_CT
over 100 random secrets each (and the sliding window's varying count as the control); RSA_CRT
with blinded exponents (X extra exponent bits); the wipe (OP_ZEROIZE).  Small sizes in CI (n in
{64, 100, 128, 255, 256}, L in {2, 4, 8}, w = 16, one build per L; MaxLen 96 once for the
exponent registers); w = 32/64 and the big sizes are slow tests."""

from __future__ import annotations

import hashlib
import random

import gmpy2
import pytest

from conftest import SEED, vectors
from pka.errors import PkaError, Status
from pka.model import hscm as M
from pka.model.common import CrtKey
from pka.rtl import hscm as R
from pka.sim import Op, Slot

pytestmark = pytest.mark.rtl
W = 16   # the PE word size w (k = w unless a test says k)


def params(pes: int, window: int = 0, ladder: int = 0, w: int = W) -> dict[str, int]:
    return {"pes": pes, "w": w, "window": window, "ladder": ladder}


def rand_mod(rng: random.Random, n: int) -> int:
    return rng.getrandbits(n) | 1 | (1 << (n - 1))


def prime(rng: random.Random, bits: int) -> int:
    while True:
        x = rng.getrandbits(bits) | (3 << (bits - 2)) | 1
        if gmpy2.is_prime(x):
            return x


def crt_key(rng: random.Random, bits: int) -> CrtKey:
    while True:
        p, q = prime(rng, bits // 2), prime(rng, bits // 2)
        if p != q and gmpy2.gcd(65537, (p - 1) * (q - 1)) == 1:
            return CrtKey.from_pq(p, q)


def same(rtl: object, mdl: object) -> None:
    assert rtl.result == mdl.result, f"result {hex(rtl.result)} != model {hex(mdl.result)}"  # type: ignore[attr-defined]
    assert rtl.cycles == mdl.cycles, f"cycles {rtl.cycles} != model {mdl.cycles}"  # type: ignore[attr-defined]


@pytest.mark.parametrize("pes", [2, 4, 8])
@pytest.mark.parametrize("n", [64, 100, 255])
def test_products(pes: int, n: int) -> None:
    """OP_MONTMUL (HSCM output range), OP_MODMUL, OP_MUL (MULT mode), OP_MODRED (MRDC)."""
    rng = random.Random(SEED + n + pes)
    p = params(pes)
    mods = [(1 << (n - 1)) + 1, (1 << n) - 1] + [rand_mod(rng, n) for _ in range(vectors(2))]
    for m in mods:
        pairs = [(0, 0), (1, m - 1), (m - 1, m - 1), (rng.randrange(m), rng.randrange(m))]
        for a, b in pairs:
            same(R.montmul(a, b, m, p), M.montmul_op(a, b, m, p))
        a, b = pairs[-1]
        r, e = R.modmul(a, b, m, p), M.modmul(a, b, m, p)
        same(r, e)
        assert r.detail["total_cycles"] == e.detail["total_cycles"]
        x, y = (1 << n) - 1, rng.getrandbits(n)
        same(R.mul(x, y, n, p), M.mul(x, y, n, p))
        for w in (0, m, (1 << (2 * n)) - 1, rng.getrandbits(2 * n)):
            same(R.modred(w, m, p), M.modred(w, m, p))


def test_each_op_first_after_reset() -> None:
    """Every operation as the first command of a fresh engine (nothing left in the RAMs by an
    earlier one), then after the RAMs were filled with other data."""
    rng = random.Random(SEED + 99)
    pes, n = 2, 100
    p = params(pes, 3)
    m = rand_mod(rng, n)
    key = crt_key(rng, 128)
    a, b, e, w = rng.randrange(m), rng.randrange(m), rng.getrandbits(n), rng.getrandbits(2 * n)
    runs = [
        (lambda: R.montmul(a, b, m, p), lambda: M.montmul_op(a, b, m, p)),
        (lambda: R.modmul(a, b, m, p), lambda: M.modmul(a, b, m, p)),
        (lambda: R.modexp(a, e, m, p), lambda: M.modexp(a, e, m, p)),
        (lambda: R.modexp(a, e, m, {**p, "ladder": 1}), lambda: M.modexp(a, e, m, {**p, "ladder": 1})),
        (lambda: R.modred(w, m, p), lambda: M.modred(w, m, p)),
        (lambda: R.mul(a, b, n, p), lambda: M.mul(a, b, n, p)),
        (lambda: R.rsa_crt(a % key.n, key, p), lambda: M.rsa_crt(a % key.n, key, p)),
    ]
    for rtl, mdl in runs:
        R.close_all()                      # a new simulator process: RAMs as after reset
        same(rtl(), mdl())
    for rtl, mdl in reversed(runs):        # and after the others left their data
        same(rtl(), mdl())


@pytest.mark.parametrize("pes,n,window", [(2, 64, 0), (4, 100, 2), (8, 128, 3), (4, 256, 4),
                                          (8, 255, 5), (2, 128, 6)])
def test_modexp_window(pes: int, n: int, window: int) -> None:
    """Algorithm A1 (window k, odd powers in RAM) and left-to-right binary (window 0)."""
    rng = random.Random(SEED + 7 * n + window)
    p = params(pes, window)
    m = rand_mod(rng, n)
    cases = [(0, 0), (5, 0), (m - 1, 1), (2, (1 << n) - 1), (m - 1, (1 << n) - 1), (3, 1 << (n - 1))]
    cases += [(rng.randrange(m), rng.getrandbits(n)) for _ in range(vectors(3))]
    for base, e in cases:
        r = R.modexp(base, e, m, p)
        same(r, M.modexp(base, e, m, p))
        assert r.result == pow(base, e, m)


@pytest.mark.parametrize("pes", [2, 8])
def test_ladder_constant_time(pes: int) -> None:
    """Montgomery ladder on two HSCMs: one cycle count for every exponent of one length."""
    rng = random.Random(SEED + pes)
    n = 100
    m = rand_mod(rng, n)
    p = params(pes, ladder=1)
    cycles = set()
    exps = [(1 << (n - 1)), (1 << n) - 1, (1 << (n - 1)) | 1] + \
        [rng.getrandbits(n) | (1 << (n - 1)) for _ in range(vectors(6))]
    for e in exps:
        base = rng.randrange(m)
        r = R.modexp(base, e, m, p)
        same(r, M.modexp(base, e, m, p))
        assert r.result == pow(base, e, m)
        cycles.add(r.cycles)
    assert len(cycles) == 1


SECRETS = 100   # random secrets per constant-time test (at least 100, whatever PKA_VECTORS says)


def test_rsa_crt_constant_time() -> None:
    """RSA_CRT: 100 random keys of one size (p, q of 64 bits) and edge exponents (d_p, d_q = 0, 1,
    all ones, a lone top bit) give exactly one (cycles, io_cycles): the fixed window processes
    all bits(p) / bits(q) bits, multiplies on every digit and has no data-dependent step."""
    rng = random.Random(SEED + 14)
    prm = params(2, 4)
    seen: set[tuple[int, int]] = set()
    keys = [crt_key(rng, 128) for _ in range(max(SECRETS, vectors(SECRETS)))]
    k0 = keys[0]
    bp, bq = k0.p.bit_length(), k0.q.bit_length()
    for dp, dq in ((0, 0), (1, 1), ((1 << bp) - 1, (1 << bq) - 1), (1 << (bp - 1), 1 << (bq - 1)),
                   (0, (1 << bq) - 1)):
        keys.append(CrtKey(k0.n, k0.e, k0.d, k0.p, k0.q, dp, dq, k0.qinv, k0.pinv))
    for key in keys:
        msg = rng.randrange(key.n)
        r = R.rsa_crt(msg, key, prm)
        same(r, M.rsa_crt(msg, key, prm))
        assert r.result % key.p == pow(msg, key.dp, key.p) and r.result % key.q == pow(msg, key.dq, key.q)
        seen.add((r.cycles, r.io_cycles))  # type: ignore[arg-type]
    assert len(seen) == 1, f"RSA_CRT cycles depend on the key: {sorted(seen)}"


# ---- exponent blinding: X extra exponent bits (arg[31:24]) --------------------------------------

def blind(key: CrtKey, rp: int, rq: int) -> CrtKey:
    """The key with blinded exponents d_p + r_p (p - 1), d_q + r_q (q - 1) (same signatures)."""
    return CrtKey(key.n, key.e, key.d, key.p, key.q, key.dp + rp * (key.p - 1),
                  key.dq + rq * (key.q - 1), key.qinv, key.pinv)


def test_rsa_crt_blinded_constant_time() -> None:
    """X = 64 (the sequencer's r of 64 bits): 100 random keys of one size, each with random
    r_p, r_q < 2^64, and the edges r = 0, 2^64 - 1 (also on d_p, d_q = 0 and all ones): the
    unblinded signature, cycles = the model's, exactly one (cycles, io_cycles); X = 0 keeps the
    unblinded count."""
    rng = random.Random(SEED + 41)
    prm = params(2, 4)
    x, top = 64, (1 << 64) - 1
    keys = [crt_key(rng, 128) for _ in range(max(SECRETS, vectors(SECRETS)))]
    runs = [(blind(k, rng.getrandbits(x), rng.getrandbits(x)), k) for k in keys]
    k0 = keys[0]
    bp, bq = k0.p.bit_length(), k0.q.bit_length()
    for rp, rq in ((0, 0), (top, top), (0, top), (top, 0)):
        runs.append((blind(k0, rp, rq), k0))
    for dp, dq in ((0, 0), ((1 << bp) - 1, (1 << bq) - 1)):
        raw = CrtKey(k0.n, k0.e, k0.d, k0.p, k0.q, dp, dq, k0.qinv, k0.pinv)
        runs += [(blind(raw, top, top), raw), (blind(raw, 0, top), raw)]
    seen: set[tuple[int, int]] = set()
    for bk, key in runs:
        msg = rng.randrange(key.n)
        r = R.rsa_crt(msg, bk, prm, xbits=x)
        same(r, M.rsa_crt(msg, bk, prm, xbits=x))
        assert r.result % key.p == pow(msg, key.dp, key.p) and r.result % key.q == pow(msg, key.dq, key.q)
        seen.add((r.cycles, r.io_cycles))  # type: ignore[arg-type]
    assert len(seen) == 1, f"blinded RSA_CRT cycles depend on the key or r: {sorted(seen)}"
    msg = rng.randrange(k0.n)
    plain = R.rsa_crt(msg, k0, prm)
    same(plain, M.rsa_crt(msg, k0, prm))
    assert R.rsa_crt(msg, k0, prm, xbits=0).cycles == plain.cycles < next(iter(seen))[0]


@pytest.mark.parametrize("pes,window,bp,bq,x", [(4, 6, 100, 100, 17), (8, 2, 64, 64, 33),
                                                (4, 3, 100, 112, 64), (2, 6, 256, 256, 64)])
def test_rsa_crt_blinded(pes: int, window: int, bp: int, bq: int, x: int) -> None:
    """Other rings, windows and X (not multiples of 16), unequal primes (f_p != f_q), and the
    largest primes of the build (MaxLen/2 = 256 bits, exponents of 320 bits): the blinded
    signature is the unblinded one, cycles = the model's, one (cycles, io_cycles) per (size, X)."""
    rng = random.Random(SEED + 43 + bp + x)
    prm = params(pes, window)
    seen: set[tuple[int, int]] = set()
    for i in range(3):
        while True:
            p, q = prime(rng, bp), prime(rng, bq)
            if p != q and gmpy2.gcd(65537, (p - 1) * (q - 1)) == 1:
                break
        key = CrtKey.from_pq(p, q)
        top = (1 << x) - 1
        rp, rq = ((top, top), (0, rng.getrandbits(x)), (rng.getrandbits(x), rng.getrandbits(x)))[i]
        bk = blind(key, rp, rq)
        msg = rng.randrange(key.n)
        r = R.rsa_crt(msg, bk, prm, xbits=x)
        same(r, M.rsa_crt(msg, bk, prm, xbits=x))
        assert r.result == pow(msg, key.d, key.n)
        seen.add((r.cycles, r.io_cycles))  # type: ignore[arg-type]
    assert len(seen) == 1


def test_rsa_crt_blinded_exponent_register_above_max_len() -> None:
    """MaxLen 96, the one build in which a blinded exponent is longer than MaxLen (primes of
    48 bits + X = 64: 112 bits; the exponent registers hold max(MaxLen, MaxLen/2 + 64 rounded
    up to 32) = 128 bits): results and cycles = the model's."""
    rng = random.Random(SEED + 44)
    pes, window, x = 2, 3, 64
    prm = params(pes, window)
    h = R.harness(96, W, pes, window)
    for rp, rq in (((1 << x) - 1, (1 << x) - 1), (rng.getrandbits(x), 0)):
        key = crt_key(rng, 96)
        bk = blind(key, rp, rq)
        msg = rng.randrange(key.n)
        for slot, v in ((Slot.N, key.n), (Slot.A, msg), (Slot.P, key.p), (Slot.Q, key.q),
                        (Slot.DP, bk.dp), (Slot.DQ, bk.dq), (Slot.QINV, key.qinv), (Slot.X2, key.pinv),
                        (Slot.X0, M.r3(key.p, W)), (Slot.X1, M.r3(key.q, W))):
            h.write_slot(slot, v)
        res = h.command(Op.RSA_CRT, key.n.bit_length(), key.p.bit_length(),
                        key.q.bit_length() | (window << 16) | (x << 24), max_cycles=2_000_000)
        ref = M.rsa_crt(msg, bk, prm, xbits=x)
        assert res.status == Status.OK
        assert (h.read_slot(Slot.R, 3), res.cycles) == (ref.result, ref.cycles)
        assert ref.result == pow(msg, key.d, key.n)


def test_modexp_ct_constant_time() -> None:
    """MODEXP_CT (ladder) with elen = the modulus length: 100 random secret exponents (leading
    zeros included) and 0, 1, all ones, a lone top bit give exactly one (cycles, io_cycles)."""
    rng = random.Random(SEED + 15)
    n = 100
    m = rand_mod(rng, n)
    prm = params(2, ladder=1)
    exps = [0, 1, (1 << n) - 1, 1 << (n - 1)] + [rng.getrandbits(n) for _ in range(max(SECRETS, vectors(SECRETS)))]
    seen: set[tuple[int, int]] = set()
    for e in exps:
        base = rng.randrange(m)
        r = R.modexp(base, e, m, prm, elen=n)
        same(r, M.modexp(base, e, m, prm, elen=n))
        assert r.result == pow(base, e, m)
        seen.add((r.cycles, r.io_cycles))  # type: ignore[arg-type]
    assert len(seen) == 1, f"MODEXP_CT cycles depend on the exponent: {sorted(seen)}"


def test_sliding_window_modexp_varies() -> None:
    """The control: MODEXP (public exponent, the paper's sliding window, fast) over the same kind
    of exponents takes many cycle counts, so the constant-time tests above can fail."""
    rng = random.Random(SEED + 16)
    n = 100
    m = rand_mod(rng, n)
    prm = params(2, 4)
    seen = set()
    for e in [rng.getrandbits(n) for _ in range(20)]:
        base = rng.randrange(m)
        r = R.modexp(base, e, m, prm, elen=n)
        same(r, M.modexp(base, e, m, prm, elen=n))
        seen.add(r.cycles)
    assert len(seen) > 5


@pytest.mark.parametrize("pes", [2, 4])
def test_wipe(pes: int) -> None:
    """OP_ZEROIZE after a secret operation: ST_OK, cycles = the model's (a build constant),
    io_cycles = 0; every operation still right afterwards (the register and memory check itself
    is tb/pka_hscm_core)."""
    rng = random.Random(SEED + 17 + pes)
    prm = params(pes, 3)
    key = crt_key(rng, 128)
    msg = rng.randrange(key.n)
    ref = R.rsa_crt(msg, key, prm)
    w = R.wipe(512, prm)
    assert (w.cycles, w.io_cycles) == (M.wipe_cycles(512, W, 6), 0)
    assert R.wipe(512, prm).cycles == w.cycles           # a wipe of a wiped engine
    r = R.rsa_crt(msg, key, prm)
    assert (r.result, r.cycles, r.io_cycles) == (ref.result, ref.cycles, ref.io_cycles)
    m = rand_mod(rng, 100)
    a, b, e = rng.randrange(m), rng.randrange(m), rng.getrandbits(100)
    for rtl, mdl in ((lambda: R.modexp(a, e, m, prm), lambda: M.modexp(a, e, m, prm)),
                     (lambda: R.modexp(a, e, m, {**prm, "ladder": 1}), lambda: M.modexp(a, e, m, {**prm, "ladder": 1})),
                     (lambda: R.modmul(a, b, m, prm), lambda: M.modmul(a, b, m, prm)),
                     (lambda: R.mul(a, b, 100, prm), lambda: M.mul(a, b, 100, prm))):
        R.wipe(512, prm)
        same(rtl(), mdl())


@pytest.mark.parametrize("pes,window", [(2, 0), (4, 3), (8, 4)])
def test_rsa_crt_small(pes: int, window: int) -> None:
    rng = random.Random(SEED + pes * 10 + window)
    for bits in (128, 200):
        key = crt_key(rng, bits)
        for msg in (0, 1, key.n - 1, rng.randrange(key.n)):
            p = params(pes, window)
            r = R.rsa_crt(msg, key, p)
            same(r, M.rsa_crt(msg, key, p))
            assert r.result == pow(msg, key.d, key.n)


def test_rsa_crt_unequal_primes() -> None:
    """p and q of different lengths: the two HSCMs run different geometries (f_p != f_q)."""
    rng = random.Random(SEED + 5)
    for bp, bq in ((100, 112), (130, 98)):
        while True:
            p, q = prime(rng, bp), prime(rng, bq)
            if gmpy2.gcd(65537, (p - 1) * (q - 1)) == 1:
                break
        key = CrtKey.from_pq(p, q)
        msg = rng.randrange(key.n)
        prm = params(4, 2)
        r = R.rsa_crt(msg, key, prm)
        same(r, M.rsa_crt(msg, key, prm))
        assert r.result == pow(msg, key.d, key.n)


def test_rsa_crt_512_cryptography() -> None:
    """Sign through the CRT path with a 512-bit key, verify with `cryptography` (which no longer
    generates keys below 1024 bits: the key is built from our primes by RSAPrivateNumbers)."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding, rsa

    rng = random.Random(SEED)
    key = crt_key(rng, 512)
    pub = rsa.RSAPublicNumbers(key.e, key.n)
    priv = rsa.RSAPrivateNumbers(key.p, key.q, key.d, key.dp, key.dq, key.qinv, pub).private_key()
    msg = b"pka: hscm CRT-RSA on the RTL"
    t = bytes.fromhex("3031300d060960864801650304020105000420") + hashlib.sha256(msg).digest()
    k = (key.n.bit_length() + 7) // 8
    em = b"\x00\x01" + b"\xff" * (k - len(t) - 3) + b"\x00" + t
    p = params(8, 4)
    r = R.rsa_crt(int.from_bytes(em, "big"), key, p)
    same(r, M.rsa_crt(int.from_bytes(em, "big"), key, p))
    priv.public_key().verify(r.result.to_bytes(k, "big"), msg, padding.PKCS1v15(), hashes.SHA256())


@pytest.mark.parametrize("stall", [300, 700])
def test_random_stalls(stall: int) -> None:
    """Grants withheld at random: same results and compute cycles, more io cycles."""
    rng = random.Random(SEED + stall)
    pes = 4
    p = params(pes, 2)
    n = 100
    m = rand_mod(rng, n)
    h = R.harness(R.max_len_for(n), W, pes)
    key = crt_key(rng, 128)
    base, e = rng.randrange(m), rng.getrandbits(n)
    msg = rng.randrange(key.n)
    bk = blind(key, rng.getrandbits(64), rng.getrandbits(64))
    ref = [R.modexp(base, e, m, p), R.rsa_crt(msg, key, p), R.mul(base, e, n, p),
           R.rsa_crt(msg, bk, p, xbits=64)]
    h.stall(stall, seed=stall)
    try:
        got = [R.modexp(base, e, m, p), R.rsa_crt(msg, key, p), R.mul(base, e, n, p),
               R.rsa_crt(msg, bk, p, xbits=64)]
    finally:
        h.stall(0)
    for a, b in zip(got, ref):
        assert (a.result, a.cycles) == (b.result, b.cycles)
        assert a.io_cycles is not None and b.io_cycles is not None and a.io_cycles > b.io_cycles


def status(h: object, op: int, length: int, elen: int = 0, arg: int = 0) -> int:
    return h.command(op, length, elen, arg, max_cycles=200_000).status  # type: ignore[attr-defined]


def test_error_codes_and_return_to_idle() -> None:
    rng = random.Random(SEED)
    pes = 4
    h = R.harness(512, W, pes)
    n = 64
    m = rand_mod(rng, n)

    def ok_after() -> None:
        a, b = rng.randrange(m), rng.randrange(m)
        assert R.modmul(a, b, m, params(pes)).result == a * b % m

    h.write_slot(Slot.N, m)
    h.write_slot(Slot.A, 3)
    h.write_slot(Slot.B, 5)
    h.write_slot(Slot.W, M.r2(m, W))
    assert status(h, Op.MODADD, n) == Status.ERR_OPCODE
    assert status(h, 99, n) == Status.ERR_OPCODE
    assert status(h, Op.MODMUL, 0) == Status.ERR_LENGTH              # zero length
    assert status(h, Op.MODMUL, 513) == Status.ERR_LENGTH            # above the build maximum
    assert status(h, Op.MODMUL, 2 * W + 3) == Status.ERR_LENGTH      # below 2w + 4
    assert status(h, Op.MODMUL, n + 1) == Status.ERR_LENGTH          # N has not len bits
    assert status(h, Op.MODEXP, n, 513) == Status.ERR_LENGTH         # exponent too long
    assert status(h, Op.MODEXP, n, 8, 7) == Status.ERR_UNSUPPORTED   # window above MaxWindow
    ok_after()
    h.write_slot(Slot.N, m + 1)
    assert status(h, Op.MODMUL, n) == Status.ERR_EVEN_MODULUS
    h.write_slot(Slot.N, m)
    h.write_slot(Slot.A, m)
    assert status(h, Op.MODMUL, n) == Status.ERR_OPERAND_RANGE        # A = N
    assert status(h, Op.MODEXP, n, 8) == Status.ERR_OPERAND_RANGE
    h.write_slot(Slot.A, 1 << 60)
    assert status(h, Op.MUL, 60) == Status.ERR_OPERAND_RANGE          # MUL operand >= 2^n
    h.write_slot(Slot.A, 0)
    h.write_slot(Slot.A_HI, 1 << 63)  # A_HI:A = A_HI 2^64 + A: < 2^128 for n = 64
    assert status(h, Op.MODRED, n) == Status.OK
    h.write_slot(Slot.N, rand_mod(rng, 60))
    assert status(h, Op.MODRED, 60) == Status.ERR_OPERAND_RANGE       # >= 2^120 for n = 60
    h.write_slot(Slot.N, m)
    ok_after()
    # model and driver raise the same statuses
    for fn in (lambda: R.modmul(m, 1, m, params(pes)), lambda: M.modmul(m, 1, m, params(pes))):
        with pytest.raises(PkaError) as exc:
            fn()
        assert exc.value.status == Status.ERR_OPERAND_RANGE
    for fn in (lambda: R.modexp(2, 5, m + 1, params(pes)), lambda: M.modexp(2, 5, m + 1, params(pes))):
        with pytest.raises(PkaError) as exc:
            fn()
        assert exc.value.status == Status.ERR_EVEN_MODULUS
    for fn in (lambda: R.modexp(2, 5, 1 << 20 | 1, params(pes)),
               lambda: M.modexp(2, 5, 1 << 20 | 1, params(pes))):
        with pytest.raises(PkaError) as exc:
            fn()
        assert exc.value.status == Status.ERR_LENGTH

    # CRT: p or q even, not coprime / wrong inverses, message out of range, lengths
    key = crt_key(rng, 128)
    bad = [
        (CrtKey(key.n, key.e, key.d, key.p + 1, key.q, key.dp, key.dq, key.qinv, key.pinv),
         Status.ERR_EVEN_MODULUS),
        (CrtKey(key.n, key.e, key.d, key.p, key.q + 1, key.dp, key.dq, key.qinv, key.pinv),
         Status.ERR_EVEN_MODULUS),
        (CrtKey(key.n, key.e, key.d, key.p, key.q, key.dp, key.dq, key.qinv, key.pinv ^ 2),
         Status.ERR_NO_INVERSE),
        (CrtKey(key.n + 2, key.e, key.d, key.p, key.q, key.dp, key.dq, key.qinv, key.pinv),
         Status.ERR_NO_INVERSE),
    ]
    q2 = key.p * 3  # shares the factor p with p: not coprime
    while q2.bit_length() > key.p.bit_length() + W:
        q2 //= 2
    q2 |= 1
    bad.append((CrtKey(key.p * q2, 3, 1, key.p, q2, 1, 1, 1, 1), Status.ERR_NO_INVERSE))
    for k, st in bad:
        for fn in (R.rsa_crt, M.rsa_crt):
            with pytest.raises(PkaError) as exc:
                fn(5, k, params(pes))
            assert exc.value.status == st, (fn, st)
    long_dp = CrtKey(key.n, key.e, key.d, key.p, key.q, key.dp | (1 << key.p.bit_length()), key.dq,
                     key.qinv, key.pinv)
    for k, msg in ((key, key.n), (long_dp, 5)):
        for fn in (R.rsa_crt, M.rsa_crt):
            with pytest.raises(PkaError) as exc:
                fn(msg, k, params(pes))
            assert exc.value.status == Status.ERR_OPERAND_RANGE
    for msg in (0, key.n - 1):
        assert R.rsa_crt(msg, key, params(pes)).result == pow(msg, key.d, key.n)
    # lengths of p and q checked at command decode
    h.write_slot(Slot.P, key.p)
    h.write_slot(Slot.Q, key.q)
    assert status(h, Op.RSA_CRT, key.n.bit_length(), 300, key.q.bit_length()) == Status.ERR_LENGTH
    assert status(h, Op.RSA_CRT, key.n.bit_length(), key.p.bit_length(), 2 * W) == Status.ERR_LENGTH
    ok_after()
    # blinding: X > 64 unsupported (at command decode, before the lengths); DP, DQ of more than
    # bits + X bits out of range (while loading); the same statuses from driver and model
    nb, bp, bq = key.n.bit_length(), key.p.bit_length(), key.q.bit_length()
    for x in (65, 128, 255):
        assert status(h, Op.RSA_CRT, nb, bp, bq | (x << 24)) == Status.ERR_UNSUPPORTED
    assert status(h, Op.RSA_CRT, nb, 300, bq | (65 << 24)) == Status.ERR_UNSUPPORTED
    for fn in (R.rsa_crt, M.rsa_crt):
        with pytest.raises(PkaError) as exc:
            fn(5, key, params(pes), xbits=65)
        assert exc.value.status == Status.ERR_UNSUPPORTED
    for x in (0, 16, 64):
        for dp, dq in ((1 << (bp + x), key.dq), (key.dp, 1 << (bq + x)), ((1 << (bp + x + 1)) - 1, key.dq)):
            kx = CrtKey(key.n, key.e, key.d, key.p, key.q, dp, dq, key.qinv, key.pinv)
            for fn in (R.rsa_crt, M.rsa_crt):
                with pytest.raises(PkaError) as exc:
                    fn(5, kx, params(pes), xbits=x)
                assert exc.value.status == Status.ERR_OPERAND_RANGE, (fn, x, dp, dq)
        full = CrtKey(key.n, key.e, key.d, key.p, key.q, (1 << (bp + x)) - 1, (1 << (bq + x)) - 1,
                      key.qinv, key.pinv)
        same(R.rsa_crt(9, full, params(pes), xbits=x), M.rsa_crt(9, full, params(pes), xbits=x))
    ok_after()


def test_odd_pes_two_hscm_ops_unsupported() -> None:
    """pes = 3: the ladder and CRT need two rings of pes/2 (model and driver, before the RTL)."""
    for mod in (M, R):
        with pytest.raises(PkaError) as exc:
            mod.modexp(2, 5, (1 << 63) + 1, params(3, ladder=1))
        assert exc.value.status == Status.ERR_UNSUPPORTED


@pytest.mark.slow
@pytest.mark.parametrize("w", [32, 64])
def test_wide_words(w: int) -> None:
    rng = random.Random(SEED + w)
    n = 300
    m = rand_mod(rng, n)
    p = params(4, 3, w=w)
    for _ in range(3):
        a, e = rng.randrange(m), rng.getrandbits(n)
        same(R.modexp(a, e, m, p), M.modexp(a, e, m, p))
        same(R.montmul(a, e % m, m, p), M.montmul_op(a, e % m, m, p))
    key = crt_key(rng, 2 * (2 * w + 40))
    msg = rng.randrange(key.n)
    same(R.rsa_crt(msg, key, p), M.rsa_crt(msg, key, p))


@pytest.mark.slow
@pytest.mark.parametrize("n,pes,paper", [(1024, 16, 354), (1024, 32, 218), (2048, 32, 674)])
def test_paper_product_cycles(n: int, pes: int, paper: int) -> None:
    rng = random.Random(SEED + n)
    m = rand_mod(rng, n)
    a, b = rng.randrange(m), rng.randrange(m)
    r = R.montmul(a, b, m, params(pes))
    same(r, M.montmul_op(a, b, m, params(pes)))
    assert r.cycles <= paper


@pytest.mark.slow
@pytest.mark.parametrize("k", [W, 2 * W])
@pytest.mark.parametrize("pes", [3, 16])
def test_ring_longer_than_a_product(pes: int, k: int) -> None:
    """pes = 16 with n = 64 (f + 2 = 9 iterations; with k = 2w, n = 68: 2 (f + 2) = 14 passes):
    two products share the ring at once, the next one's passes starting while the last one's
    result words are collected; pes = 3: an odd joined ring (the ladder and CRT are then
    unsupported)."""
    rng = random.Random(SEED + pes + (k - W))

    def p(window: int = 0, ladder: int = 0) -> dict[str, int]:
        return {**params(pes, window, ladder), "k": k}

    for n in (max(64, 2 * k + 4), 100, 200):
        m = rand_mod(rng, n)
        a, b, e = rng.randrange(m), rng.randrange(m), rng.getrandbits(n)
        for window in (0, 3):
            same(R.modexp(a, e, m, p(window)), M.modexp(a, e, m, p(window)))
        same(R.montmul(a, b, m, p()), M.montmul_op(a, b, m, p()))
        same(R.mul(a, b, n, p()), M.mul(a, b, n, p()))
        w = rng.getrandbits(2 * n)
        same(R.modred(w, m, p()), M.modred(w, m, p()))
        if pes % 2 == 0:
            same(R.modexp(a, e, m, p(ladder=1)), M.modexp(a, e, m, p(ladder=1)))
            key = crt_key(rng, 2 * n)
            msg = rng.randrange(key.n)
            same(R.rsa_crt(msg, key, p(2)), M.rsa_crt(msg, key, p(2)))
        else:
            with pytest.raises(PkaError) as exc:
                R.modexp(a, e, m, p(ladder=1))
            assert exc.value.status == Status.ERR_UNSUPPORTED


# ---- digits of k = 2w bits on w-bit PEs (issue 16 item 4; doc/hscm.md) --------------------------


def params_kw(pes: int, window: int = 0, ladder: int = 0, w: int = W, k: int = 2 * W) -> dict[str, int]:
    return {**params(pes, window, ladder, w), "k": k}


@pytest.mark.parametrize("pes", [2, 4])
@pytest.mark.parametrize("n", [68, 95, 200])
def test_k_2w_every_op(pes: int, n: int) -> None:
    """k = 32 on 16-bit PEs, every operation, results and cycles against the model (whose
    `hscm_kw` runs the same w-bit steps and asserts them equal to the k-bit algorithm's digits):
    n = 2k + 4 (the minimum), n = -1 mod k (one more digit), and a ring shorter and longer than a
    digit's two passes."""
    rng = random.Random(SEED + 7 * n + pes)
    p, pw = params_kw(pes), params_kw(pes, 3)
    mods = [(1 << (n - 1)) + 1, (1 << n) - 1] + [rand_mod(rng, n) for _ in range(vectors(1))]
    for m in mods:
        for a, b in ((0, 0), (1, m - 1), (m - 1, m - 1), (rng.randrange(m), rng.randrange(m))):
            same(R.montmul(a, b, m, p), M.montmul_op(a, b, m, p))
        a, b, e = rng.randrange(m), rng.randrange(m), rng.getrandbits(n)
        r, x = R.modmul(a, b, m, p), M.modmul(a, b, m, p)
        same(r, x)
        assert r.detail["total_cycles"] == x.detail["total_cycles"]
        same(R.mul((1 << n) - 1, b, n, p), M.mul((1 << n) - 1, b, n, p))
        for w in (0, (1 << (2 * n)) - 1, rng.getrandbits(2 * n)):
            same(R.modred(w, m, p), M.modred(w, m, p))
        same(R.modexp(a, e, m, p), M.modexp(a, e, m, p))
        same(R.modexp(a, e, m, pw), M.modexp(a, e, m, pw))
        same(R.modexp(a, e, m, params_kw(pes, ladder=1), elen=n), M.modexp(a, e, m, params_kw(pes, ladder=1), elen=n))
    key = crt_key(rng, 2 * n)
    msg = rng.randrange(key.n)
    for window, x in ((2, 0), (4, 16)):
        bk = blind(key, rng.getrandbits(x), rng.getrandbits(x)) if x else key
        r = R.rsa_crt(msg, bk, params_kw(pes, window), xbits=x)
        same(r, M.rsa_crt(msg, bk, params_kw(pes, window), xbits=x))
        assert r.result == pow(msg, key.d, key.n)


def test_k_2w_sizes_errors_and_wipe() -> None:
    """k = 2w: the engine's minimum length is 2k + 4 (not 2w + 4), CRT's p and q may differ by 2k
    bits, a product costs 2 (f + 2) passes (more cycles than k = w on the same PEs: the PE still
    retires w bits of B per pass), k other than w and 2w is ERR_UNSUPPORTED in model and driver,
    and the wipe clears the larger entries (m (f_max + 2) - 1 words) in the model's cycles."""
    rng = random.Random(SEED + 99)
    pes = 4
    h = R.harness(512, W, pes, k=2 * W)
    m = rand_mod(rng, 80)
    h.write_slot(Slot.N, m)
    h.write_slot(Slot.A, 3)
    h.write_slot(Slot.B, 5)
    h.write_slot(Slot.W, M.r2(m, 2 * W))
    assert status(h, Op.MODMUL, 80) == Status.OK
    assert status(h, Op.MODMUL, 4 * W + 3) == Status.ERR_LENGTH      # below 2k + 4
    h.write_slot(Slot.N, rand_mod(rng, 4 * W + 4))
    assert status(h, Op.MODMUL, 4 * W + 4) == Status.OK
    for fn in (R.modmul, M.modmul):
        with pytest.raises(PkaError) as exc:
            fn(3, 5, rand_mod(rng, 4 * W + 3), params_kw(pes))
        assert exc.value.status == Status.ERR_LENGTH
        for k in (3 * W, 4 * W, 8):
            with pytest.raises(PkaError) as exc:
                fn(3, 5, m, params_kw(pes, k=k))
            assert exc.value.status in (Status.ERR_UNSUPPORTED, Status.ERR_PARAM), k
    # p and q: 2k bits apart is legal, 2k + 1 is not (at command decode)
    p1, q1 = prime(rng, 100), prime(rng, 100 + 4 * W)
    key = CrtKey.from_pq(p1, q1)
    msg = rng.randrange(key.n)
    same(R.rsa_crt(msg, key, params_kw(pes)), M.rsa_crt(msg, key, params_kw(pes)))
    h.write_slot(Slot.P, p1)
    h.write_slot(Slot.Q, q1)
    assert status(h, Op.RSA_CRT, key.n.bit_length(), 99, q1.bit_length()) == Status.ERR_LENGTH
    # cycles: k = 2w on the same 4 PEs costs more than k = w (a prediction the doc makes)
    a, b = rng.randrange(m), rng.randrange(m)
    assert R.montmul(a, b, m, params_kw(pes)).cycles > R.montmul(a, b, m, params(pes)).cycles
    wp = params_kw(pes)
    R.rsa_crt(msg, key, wp)
    wr = R.wipe(512, wp)
    assert (wr.cycles, wr.io_cycles) == (M.wipe_cycles(512, W, 6, 2 * W), 0)
    assert wr.cycles > M.wipe_cycles(512, W, 6)
    assert R.modmul(a, b, m, wp).result == a * b % m
    # pka_top builds hscm with k = w: a top for k = 2w is refused, not built with the wrong digits
    from pka.driver import profile
    with pytest.raises(PkaError) as exc:
        profile("hscm").top_params(params_kw(16), 2048)
    assert exc.value.status == Status.ERR_UNSUPPORTED
    assert profile("hscm").top_params(params(16), 2048)["HscmW"] == W


@pytest.mark.slow
def test_k_2w_wide_and_full_size() -> None:
    """w = 32, k = 64 (the other legal pair), and one 1024-bit product on 16 PEs with k = 32,
    w = 16: 383 cycles against 350 for k = w (doc/hscm.md)."""
    rng = random.Random(SEED + 64)
    p = params_kw(4, 3, w=32, k=64)
    for n in (132, 300):
        m = rand_mod(rng, n)
        a, e = rng.randrange(m), rng.getrandbits(n)
        same(R.modexp(a, e, m, p), M.modexp(a, e, m, p))
        same(R.mul(a, e, n, p), M.mul(a, e, n, p))
    m = rand_mod(rng, 1024)
    a, b = rng.randrange(m), rng.randrange(m)
    r = R.montmul(a, b, m, params_kw(16))
    same(r, M.montmul_op(a, b, m, params_kw(16)))
    assert (r.cycles, R.montmul(a, b, m, params(16)).cycles) == (383, 350)
