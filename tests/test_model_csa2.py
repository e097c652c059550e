"""Golden model of csa2 (paper 000): Algorithm 2 and 3 against gmpy2, bounds, look-ahead, cycle counts."""

from __future__ import annotations

import itertools
import random

import gmpy2
import pytest
from conftest import SEED, vectors

from pka.errors import PkaError, Status
from pka.model import csa2 as m


def _modulus(rng: random.Random, k: int) -> int:
    return rng.getrandbits(k) | 1 | (1 << (k - 1))


def _edge_moduli(k: int) -> list[int]:
    """Smallest and largest odd modulus of k bits."""
    return [(1 << (k - 1)) + 1, (1 << k) - 1]


# ---- Algorithm 2 --------------------------------------------------------------------------------

def test_q_lookahead_exhaustive() -> None:
    """f(S2,S1,C1,C0,N1) predicts the LSB of the next U for every low-bit state and pending V.

    The pending V = A*4B + q_prev*N has bit 0 = q_prev and bit 1 = q_prev*N1, where q_prev = S1^C0
    (the invariant that keeps S even). Enumerate all low bits of S, C and the choice of q_prev.
    """
    for s2, s1, c1, c0, n1, a_bit, b2 in itertools.product((0, 1), repeat=7):
        q_prev = s1 ^ c0
        s = (s2 << 2) | (s1 << 1)
        c = (c1 << 1) | c0
        v = q_prev * (1 | (n1 << 1)) + a_bit * (b2 << 2)
        s_new, c_new = m.csa(s >> 1, c, v)
        assert s_new & 1 == 0
        assert m.q_lookahead(s2, s1, c1, c0, n1) == ((s_new >> 1) ^ c_new) & 1


@pytest.mark.parametrize("k", [3, 4, 5, 8, 31, 64, 100, 256])
def test_monprod_random(k: int) -> None:
    rng = random.Random(SEED + k)
    for _ in range(vectors(30)):
        n = _modulus(rng, k)
        a, b = rng.randrange(2 * n), rng.randrange(2 * n)
        u = m.monprod(a, b, n, k)
        assert 0 <= u < 2 * n
        assert u % n == a * b * int(gmpy2.invert(1 << (k + 2), n)) % n
        assert u == m.monprod_ref(a, b, n, k)


@pytest.mark.parametrize("k", [3, 7, 64, 129])
def test_monprod_edges(k: int) -> None:
    for n in _edge_moduli(k):
        rinv = int(gmpy2.invert(1 << (k + 2), n))
        for a, b in itertools.product((0, 1, n - 1, n, 2 * n - 1), repeat=2):
            u = m.monprod(a, b, n, k)
            assert u < 2 * n and u % n == a * b * rinv % n


def test_monprod_rejects_out_of_range() -> None:
    with pytest.raises(AssertionError):
        m.monprod(2 * 11, 1, 11, 4)  # A = 2N violates the paper's precondition
    with pytest.raises(AssertionError):
        m.monprod(1, 2 * 11, 11, 4)


def test_monprod_worst_case_bounds_are_tight_enough() -> None:
    """A = B = 2N-1 with the largest modulus: every asserted bound holds on the extreme input."""
    for k in (3, 16, 200):
        n = (1 << k) - 1
        u = m.monprod(2 * n - 1, 2 * n - 1, n, k)
        assert u < 2 * n


# ---- Algorithm 3 and the surface ----------------------------------------------------------------

@pytest.mark.parametrize("k", [64, 128, 256, 512, 1024])
@pytest.mark.parametrize("variant", ["paper", "fast"])
def test_modexp_random(k: int, variant: str) -> None:
    rng = random.Random(SEED * 3 + k)
    count = vectors(6) if k <= 256 else max(1, vectors(6) // 6)
    for _ in range(count):
        n = _modulus(rng, k)
        x, e = rng.randrange(n), rng.getrandbits(rng.randrange(1, k + 1))
        res = m.modexp(x, e, n, {"variant": variant})
        assert res.result == int(gmpy2.powmod(x, e, n))
        h = e.bit_length()
        assert res.cycles == m.exp_cycles(k, h, variant)
        assert res.detail["total_cycles"] == res.cycles
        assert res.detail["products"] == 2 + h + bin(e).count("1") + 1


@pytest.mark.parametrize("k", [3, 4, 33, 64])
def test_modexp_edges(k: int) -> None:
    for n in _edge_moduli(k):
        for x in (0, 1, 2, n - 1):
            for e in (0, 1, 2, (1 << k) - 1, n - 1):
                assert m.modexp(x, e, n, {}).result == pow(x, e, n)


def test_modexp_walter_equality_case() -> None:
    """Non-square-free N with X^E = 0 mod N: P reaches N, MonProd(P, 1) = N, mapped to 0."""
    for n in (9, 25, 27, 45, 49, 63, 75, 81, 99, 121, 125, 243):
        for x in range(n):
            for e in range(6):
                assert m.modexp(x, e, n, {}).result == pow(x, e, n)
    k = 4
    assert m.monprod(9, 1, 9, k) == 9  # the case exists: MonProd(N, 1) = N
    assert m.final_conversion(9, 9, k) == 0


@pytest.mark.parametrize("k", [3, 5, 64, 127, 512])
def test_modmul(k: int) -> None:
    rng = random.Random(SEED + 7 * k)
    for n in _edge_moduli(k) + [_modulus(rng, k) for _ in range(vectors(10))]:
        pairs = [(0, 0), (1, n - 1), (n - 1, n - 1)] + [(rng.randrange(n), rng.randrange(n)) for _ in range(4)]
        for a, b in pairs:
            for variant in ("paper", "fast"):
                res = m.modmul(a, b, n, {"variant": variant})
                assert res.result == a * b % n
                assert res.cycles == m.product_cycles(k, variant)
                assert res.detail["total_cycles"] == m.exp_cycles(k, 1, variant)


def test_real_rsa_key() -> None:
    from cryptography.hazmat.primitives.asymmetric import rsa
    key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    nums = key.private_numbers()
    n = nums.public_numbers.n
    msg = 0x1234567890ABCDEF
    sig = m.modexp(msg, nums.d, n, {}).result
    assert m.modexp(sig, 65537, n, {"variant": "fast"}).result == msg


# ---- cycle model -------------------------------------------------------------------------------

def test_paper_cycle_formula() -> None:
    for k, h in itertools.product((3, 8, 100, 256, 1024), (0, 1, 17, 1024)):
        assert m.exp_cycles(k, h, "paper") == (2 * k + 14) * (h + 2) + k + 7


def test_fast_cycle_formula() -> None:
    for k, h in itertools.product((3, 28, 29, 100, 1024, 4096), (0, 1, 1024)):
        nc = -(-(k + 4) // 32)
        assert m.exp_cycles(k, h, "fast") == nc + 1 + (h + 2) * (k + 5 + nc)
    # the target: at most 0.6x the paper's count at K = H = 1024
    assert m.exp_cycles(1024, 1024, "fast") <= 0.6 * m.exp_cycles(1024, 1024, "paper")


# ---- errors --------------------------------------------------------------------------------------

@pytest.mark.parametrize("fn", [m.modexp, m.modmul])
def test_errors(fn: object) -> None:
    call = m.modexp if fn is m.modexp else m.modmul
    cases = [
        ((3, 5, 10, {}), Status.ERR_EVEN_MODULUS),
        ((1, 1, 3, {}), Status.ERR_LENGTH),             # K = 2 < 3
        ((1, 1, (1 << 40) + 1, {"l": 32}), Status.ERR_LENGTH),  # K > L
        ((1 << 5000, 1, (1 << 5000) + 1, {}), Status.ERR_LENGTH),  # K > 4096
        ((13, 1, 13, {}), Status.ERR_OPERAND_RANGE),   # operand = N
        ((-1, 1, 13, {}), Status.ERR_OPERAND_RANGE),
        ((1, 1, 13, {"l": 48}), Status.ERR_PARAM),     # L not a multiple of 32
        ((1, 1, 13, {"variant": "slow"}), Status.ERR_PARAM),
    ]
    if call is m.modexp:
        cases += [((2, -1, 13, {}), Status.ERR_OPERAND_RANGE),
                  ((2, 1 << 40, 13, {"l": 32}), Status.ERR_LENGTH),  # H > L
                  ((2, 1 << 5000, 13, {}), Status.ERR_LENGTH)]  # H > 4096
    for args, status in cases:
        with pytest.raises(PkaError) as exc:
            call(*args)  # type: ignore[operator]
        assert exc.value.status == status, (args, exc.value)


def test_array_len() -> None:
    assert m.array_len(3, 0, 0) == 32
    assert m.array_len(33, 0, 0) == 64
    assert m.array_len(64, 100, 0) == 128
    assert m.array_len(1024, 1024, 0) == 1024
    assert m.array_len(100, 0, 96) == 96


# ---- OP_MODEXP_CT (the ladder) and the wipe ------------------------------------------------------

@pytest.mark.parametrize("k", [3, 5, 32, 64, 256])
@pytest.mark.parametrize("variant", ["paper", "fast"])
def test_modexp_ct_random(k: int, variant: str) -> None:
    """The ladder over exactly elen bits: results against gmpy2, cycles exp_cycles(K, elen) and
    2 elen + 4 MonProds whatever e's bits, elen above, at and below e's bit length."""
    rng = random.Random(SEED * 5 + k)
    for _ in range(vectors(6)):
        n = _modulus(rng, k)
        x = rng.randrange(n)
        elen = rng.choice([k, rng.randrange(0, k + 8)])
        e = rng.getrandbits(elen)
        res = m.modexp_ct(x, e, n, {"variant": variant}, elen)
        assert res.result == int(gmpy2.powmod(x, e, n))
        assert res.cycles == res.detail["total_cycles"] == m.exp_cycles(k, elen, variant)
        assert res.cycles == m.modexp(x, (1 << elen) - 1, n, {"variant": variant}).cycles  # as MODEXP at H = elen
        assert res.detail["products"] == 2 * elen + 4
    assert m.modexp_ct(3, 5, 13, {}).detail["elen"] == 4      # default: the modulus' length


@pytest.mark.parametrize("k", [3, 4, 33, 64])
def test_modexp_ct_edges(k: int) -> None:
    for n in _edge_moduli(k):
        for x in (0, 1, 2, n - 1):
            for e in (0, 1, 2, (1 << k) - 1, n - 1, 1 << (k - 1)):
                for elen in {k, k + 3, max(e.bit_length(), 0)}:
                    res = m.modexp_ct(x, e, n, {}, elen)
                    assert res.result == pow(x, e, n), (x, e, n, elen)
                    assert res.cycles == m.exp_cycles(k, elen, "paper")


def test_modexp_ct_cycles_do_not_depend_on_e() -> None:
    rng = random.Random(SEED + 99)
    n = _modulus(rng, 48)
    counts = {m.modexp_ct(5, rng.getrandbits(48), n, {"variant": "fast"}, 48).cycles for _ in range(100)}
    assert counts == {m.exp_cycles(48, 48, "fast")}
    # the control: MODEXP takes H = e's bit length, so its count varies over the same exponents
    rng = random.Random(SEED + 99)
    n = _modulus(rng, 48)
    assert len({m.modexp(5, rng.getrandbits(48), n, {"variant": "fast"}).cycles for _ in range(100)}) > 1


def test_modexp_ct_walter_equality_case() -> None:
    """X^E = 0 mod N (non-square-free N): R0 reaches N in the ladder too, stored as 0."""
    for n in (9, 25, 27, 45, 125):
        for x in range(n):
            for e in range(6):
                assert m.modexp_ct(x, e, n, {}, 3).result == pow(x, e, n)


def test_ladder_state() -> None:
    """The ladder's invariant R1 = R0 X (asserted each round in exp_ladder) on a real key size."""
    rng = random.Random(SEED + 5)
    n = _modulus(rng, 512)
    x, e = rng.randrange(n), rng.getrandbits(512)
    r, products = m.exp_ladder(x, e, n, 512, 512)
    assert r == pow(x, e, n) and products == 2 * 512 + 4


def test_modexp_ct_errors() -> None:
    cases = [
        ((2, 1 << 4, 13, {}, 4), Status.ERR_OPERAND_RANGE),       # e >= 2^elen
        ((2, 3, 13, {}, 1), Status.ERR_OPERAND_RANGE),
        ((2, -1, 13, {}, 4), Status.ERR_OPERAND_RANGE),
        ((2, 3, 13, {"l": 32}, 33), Status.ERR_LENGTH),         # elen > L
        ((2, 3, 13, {}, 5000), Status.ERR_LENGTH),
        ((2, 3, 12, {}, 4), Status.ERR_EVEN_MODULUS),
        ((13, 3, 13, {}, 4), Status.ERR_OPERAND_RANGE),          # base = N
        ((1, 1, 3, {}, 2), Status.ERR_LENGTH),                   # K = 2 < 3
        ((1, 1, 13, {"variant": "slow"}, 4), Status.ERR_PARAM),
    ]
    for args, status in cases:
        with pytest.raises(PkaError) as exc:
            m.modexp_ct(*args)
        assert exc.value.status == status, (args, exc.value)


def test_wipe_cycles() -> None:
    assert m.wipe_cycles() == m.WIPE_CYCLES == 1
