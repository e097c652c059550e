"""Golden model of victor (paper 003): Algorithm 4, Table 2, the estimator, Table 3, Algorithm 1."""

from __future__ import annotations

import os
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pka.errors import PkaError, Status
from pka.model import victor as v
from pka.model.common import powmod

VECTORS = int(os.environ.get("PKA_VECTORS", "20"))
DEFAULT = {"k": 5, "delta": 10, "eps": 11}
CONFIGS = [(5, 10, 11), (4, 10, 11), (4, 9, 9), (4, 8, 8), (3, 10, 11)]


def rand_mod(rng: random.Random, n: int) -> int:
    return rng.getrandbits(n) | 1 | (1 << (n - 1))


def edge_mods(n: int) -> list[int]:
    """The smallest and largest odd moduli of n bits, and ones near the ends of 1/N's range."""
    return [(1 << (n - 1)) + 1, (1 << n) - 1, (1 << (n - 1)) + 3, (1 << n) - 3]


# ---- Table 2 ------------------------------------------------------------------------------------

def min_signed_weight(x: int) -> int:
    """Fewest signed powers of two summing to x (the non-adjacent form's weight)."""
    w = 0
    while x:
        if x & 1:
            x -= 2 - (x & 3)  # digit +1 if x = 1 mod 4, -1 if x = 3 mod 4
            w += 1
        x >>= 1
    return w


def test_table2_every_entry_sums_to_minus_q() -> None:
    assert sorted(v.TABLE2) == list(range(43))
    for q, (al, be, ga) in v.TABLE2.items():
        assert al + be + ga == -q, q
        assert al in v.ALPHAS and be in v.BETAS and ga in v.GAMMAS, q


def test_table2_range_is_the_three_term_limit() -> None:
    """Every q <= 42 needs at most three signed powers of two; 43 is the first that needs four."""
    assert all(min_signed_weight(q) <= 3 for q in range(43))
    assert min_signed_weight(43) == 4
    with pytest.raises(AssertionError):
        v.table2(43)


@pytest.mark.parametrize("q", range(43))
def test_multiple_generators(q: int) -> None:
    """Figure 6: the two words of -qN (and of a_i B) plus the pending +1's are the multiple."""
    rng = random.Random(q)
    width = 90
    for _ in range(8):
        x = rng.getrandbits(70)
        s, c, neg = v.multiple(v.table2(q), x, 10, width)
        assert (s + c + neg) % (1 << width) == (-q * x << 10) % (1 << width)
        s, c, neg = v.multiple(v.ab_coefs(q), x, 0, width)
        assert (s + c + neg) % (1 << width) == (q * x) % (1 << width)
        assert neg <= 3


# ---- Table 3 and the bounds ---------------------------------------------------------------------

def test_qmax_formula_against_table3() -> None:
    """The formula reproduces 6 of the 8 printed rows; the two k=5, delta=9 rows differ (see doc)."""
    differ = {}
    for (k, d, e), printed in v.TABLE3.items():
        f = int(v.qmax_bound(k, d, e))
        if f != printed:
            differ[(k, d, e)] = (printed, f)
    assert differ == {(5, 9, 9): (51, 53), (5, 9, 10): (50, 51)}
    assert v.qmax_bound(5, 10, 11) == Fraction(128, 3)


def test_parameter_legality() -> None:
    assert v.make_config(5, 10, 11).qmax < 43
    with pytest.raises(PkaError) as e:
        v.make_config(5, 10, 10)  # q_max 43.35: 43 is outside Table 2
    assert e.value.status == Status.ERR_PARAM
    v.make_config(5, 10, 10, hw=False)  # allowed for the Table-3 exploration
    for bad in [(6, 10, 11), (4, 7, 11), (5, 10, 5), (3, 6, 11)]:
        with pytest.raises(PkaError):
            v.make_config(*bad)
    with pytest.raises(PkaError):
        v.modexp(2, 3, 7, {"k": 5, "delta": 9, "eps": 9})


@pytest.mark.parametrize("cfg", CONFIGS)
def test_result_bound_below_2n(cfg: tuple[int, int, int]) -> None:
    c = v.make_config(*cfg)
    assert v.result_bound(c) < 2


@pytest.mark.parametrize("eps", [6, 9, 11, 16])
def test_reciprocal_hardware_division(eps: int) -> None:
    rng = random.Random(eps)
    for n in (2, 3, 17, 64, 130):
        for mod in edge_mods(n) + [rand_mod(rng, n) for _ in range(5)]:
            if mod < 3 or mod.bit_length() != n:
                continue
            y, steps = v.reciprocal_restoring(mod, n, eps)
            assert y == v.reciprocal(mod, n, eps) == (1 << (n + eps)) // mod
            assert steps == v.recip_cycles(eps)


def test_estimator_wrap_detection() -> None:
    """S_a + S_c wrapped mod 2^W with a zero top field: the field sum reads all ones -> T = 0."""
    cfg = v.make_config(5, 10, 11)
    width = 40
    sa = (1 << width) - 1          # all ones
    sc = 1                         # S = 0 (mod 2^W)
    q, t = v.estimate(sa, sc, width, 1 << 11, cfg)
    assert (t, q) == (0, 0)


def test_model_catches_a_broken_estimator(monkeypatch: pytest.MonkeyPatch) -> None:
    """An estimator that overshoots by one breaks the invariants; the model's asserts notice."""
    real = v.estimate
    monkeypatch.setattr(v, "estimate", lambda *a: (real(*a)[0] + 1, real(*a)[1]))
    with pytest.raises(AssertionError):
        v.multiply(12345, 54321, 65537, v.make_config(5, 10, 11))


# ---- Algorithm 4 ----------------------------------------------------------------------------------

@pytest.mark.parametrize("cfg", CONFIGS)
def test_multiply_random_and_edges(cfg: tuple[int, int, int]) -> None:
    """Sizes include (n+1) mod k = 0 for every k (2, 8: k=3; 31: k=4; 64: k=5): the top digit full."""
    c = v.make_config(*cfg)
    rng = random.Random(hash(cfg) & 0xFFFF)
    rho = v.result_bound(c)
    for n in (2, 3, 8, 31, 64, 100, 128):
        mods = [m for m in edge_mods(n) if m >= 3 and m.bit_length() == n] + [rand_mod(rng, n) for _ in range(2)]
        for mod in mods:
            big = -(-rho * mod // 1) - 1                  # the largest result the engine produces
            ops = [0, 1, mod - 1, mod, big, 2 * mod - 1] + [rng.randrange(2 * mod) for _ in range(max(2, VECTORS // 5))]
            for a in ops[:6]:
                for b in ops:
                    for shift in (0, v.build_len(n) - n):
                        if not v.merged_start_ok(a, b, mod, c):
                            assert a * b * 2 ** (c.k - 1) >= c.qmax * mod * mod   # only beyond the sufficient bound
                            with pytest.raises(AssertionError, match="merged first iteration"):
                                v.multiply(a, b, mod, c, shift)
                            continue
                        tr = v.multiply(a, b, mod, c, shift)
                        assert 0 <= tr.result < 2 * mod and (tr.result - a * b) % mod == 0
                        assert tr.iterations == v.digits(n, c.k) + 1
                        assert len(tr.qs) == tr.iterations and tr.qs[0] == 0


@settings(max_examples=max(50, VECTORS * 5), deadline=None)
@given(n=st.integers(2, 300), seed=st.integers(0, 2**32), cfg=st.sampled_from(CONFIGS), shift=st.integers(0, 80))
def test_multiply_property(n: int, seed: int, cfg: tuple[int, int, int], shift: int) -> None:
    """Operands up to the engine's result bound (and up to 2N when the merged start allows it)."""
    rng = random.Random(seed)
    mod = rand_mod(rng, n)
    if mod < 3:
        mod = 3
    c = v.make_config(*cfg)
    lim = int(v.result_bound(c) * mod) + 1
    a, b = rng.randrange(lim), rng.randrange(lim)
    assert v.merged_start_ok(a, b, mod, c)
    tr = v.multiply(a, b, mod, c, shift)
    assert tr.result < 2 * mod and (tr.result - a * b) % mod == 0
    a2 = rng.randrange(2 * mod)
    if v.merged_start_ok(a2, b, mod, c):
        assert (v.multiply(a2, b, mod, c, shift).result - a2 * b) % mod == 0


# ---- the merged first iteration -------------------------------------------------------------------

@pytest.mark.parametrize("k", [3, 4, 5])
def test_merged_start_precondition(k: int) -> None:
    """A = B = 2N-1 breaks the merged start when (n+1) mod k = 0 and N is near 2^n (it really
    breaks the invariant: q would leave Table 2); the engine's largest operands never do."""
    c = v.make_config(k, 10, 11)
    rho = v.result_bound(c)
    for n in (4 * k - 1, 13 * k - 1, 103 * k - 1):   # (n+1) mod k = 0 (for tiny n, N < 2^n is loose)
        mod = (1 << n) - 1
        assert not v.merged_start_ok(2 * mod - 1, 2 * mod - 1, mod, c)
        big = -(-rho * mod // 1) - 1
        assert v.merged_start_ok(big, big, mod, c) and v.merged_start_ok(mod - 1, 2 * mod - 1, mod, c)
        assert (v.multiply(big, big, mod, c).result - big * big) % mod == 0
        # the sufficient bound A B < q_max 2^(1-k) N^2: its edge passes
        a = int(c.qmax * mod / 2 ** (k - 1) / (2 * mod - 1) * mod) - 1
        assert a * (2 * mod - 1) * 2 ** (k - 1) < c.qmax * mod * mod and v.merged_start_ok(a, 2 * mod - 1, mod, c)
        v.multiply(a, 2 * mod - 1, mod, c)
    # (n+1) mod k != 0: the top digit has < k bits and 2N-1 is fine
    mod = (1 << 64) - 1 if k != 5 else (1 << 63) - 1
    assert v.merged_start_ok(2 * mod - 1, 2 * mod - 1, mod, c)
    v.multiply(2 * mod - 1, 2 * mod - 1, mod, c)


def test_merged_start_failure_is_real(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the precondition, A = 2N-1 at n = 64, k = 5 drives S above q_max 2^k N."""
    monkeypatch.setattr(v, "merged_start_ok", lambda *a: True)
    mod = (1 << 64) - 1
    with pytest.raises(AssertionError, match="q_max"):
        v.multiply(2 * mod - 1, 2 * mod - 1, mod, v.make_config(5, 10, 11))


def test_operands_fit_merge_everywhere_legal() -> None:
    """result_bound^2 2^(k-1) < q_max for every legal (k, delta, eps) with delta, eps <= 32: the
    merge never restricts a parameter the RTL accepts (so the RTL needs no extra elaboration check)."""
    legal = 0
    for k in v.K_CHOICES:
        for d in range(4, 33):
            for e in range(4, 33):
                try:
                    c = v.make_config(k, d, e)
                except PkaError:
                    continue
                legal += 1
                assert v.operands_fit_merge(c), (k, d, e)
    assert legal > 1000
    for cfg in CONFIGS:
        c = v.make_config(*cfg)
        assert v.result_bound(c) ** 2 * 2 ** (c.k - 1) < c.qmax


def test_modexp_operands_meet_the_merged_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every product modexp runs (at (n+1) mod k = 0 sizes, N = 2^n - 1) has A, B < result_bound N
    and meets the merged start; some operands are results above N (fed back unreduced)."""
    seen: list[tuple[int, int, int]] = []
    real = v.multiply

    def spy(a: int, b: int, mod: int, cfg: v.Config, shift: int = 0) -> v.MulTrace:
        seen.append((a, b, mod))
        return real(a, b, mod, cfg, shift)

    monkeypatch.setattr(v, "multiply", spy)
    rng = random.Random(11)
    above = 0
    for k, n in ((3, 98), (4, 127), (5, 129)):
        c = v.make_config(k, 10, 11)
        mod = (1 << n) - 1
        for _ in range(3):
            seen.clear()
            base = rng.randrange(mod)
            assert v.modexp(base, (1 << n) - 1, mod, DEFAULT | {"k": k}).result == powmod(base, (1 << n) - 1, mod)
            for a, b, m in seen:
                assert max(a, b) < v.result_bound(c) * m and v.merged_start_ok(a, b, m, c)
                above += max(a, b) >= m
    assert above > 0


def test_accumulate_first_words() -> None:
    """The merged iteration's words: 2^k S + 2^k a_hi B + a_lo B for every digit pair."""
    c = v.make_config(5, 10, 11)
    rng = random.Random(9)
    width = 60
    mask = (1 << width) - 1
    for hi in range(32):
        for lo in range(32):
            b, sa, sc = rng.getrandbits(48), rng.getrandbits(width), rng.getrandbits(width)
            x, y = v.accumulate_first(sa, sc, hi, lo, b, c, width)
            assert (x + y) & mask == ((sa + sc << 5) + (hi << 5) * b + lo * b) & mask


def test_multiply_is_not_montgomery() -> None:
    """No 2^-r factor: small products come out exactly."""
    c = v.make_config(5, 10, 11)
    mod = (1 << 127) - 1
    assert v.multiply(3, 5, mod, c).result == 15
    assert v.multiply(1 << 64, 1 << 64, mod, c).result % mod == 2  # 2^128 = 2 mod 2^127-1


# ---- Algorithm 1 and the surface ----------------------------------------------------------------

@pytest.mark.parametrize("cfg", CONFIGS)
def test_modexp_random(cfg: tuple[int, int, int]) -> None:
    params = dict(zip(("k", "delta", "eps"), cfg))
    rng = random.Random(7 + cfg[0])
    for _ in range(VECTORS):
        n = rng.choice([2, 5, 32, 64, 65, 128, 200])
        mod = max(3, rand_mod(rng, n))
        base = rng.randrange(mod)
        exp = rng.getrandbits(rng.randrange(0, 2 * n + 2))
        r = v.modexp(base, exp, mod, params)
        assert r.result == powmod(base, exp, mod)
        assert r.cycles == v.exp_cycles(mod.bit_length(), exp.bit_length(), v.make_config(*cfg))


@pytest.mark.parametrize("n", [2, 3, 64, 128])
def test_modexp_edges(n: int) -> None:
    for mod in edge_mods(n):
        if mod < 3 or mod.bit_length() != n:
            continue
        for base in (0, 1, 2, mod - 1):
            exps = (0, 1, 2, (1 << n) - 1, mod - 1) + (((1 << (n + 3)) - 1,) if n < 64 else ())
            for exp in exps:
                r = v.modexp(base, exp, mod, DEFAULT)
                assert r.result == powmod(base, exp, mod), (base, exp, mod)


def test_modmul() -> None:
    rng = random.Random(3)
    for n in (2, 17, 64, 128, 511):
        for mod in edge_mods(n) + [rand_mod(rng, n) for _ in range(VECTORS // 4 + 1)]:
            if mod < 3 or mod.bit_length() != n:
                continue
            for a, b in [(0, 0), (1, mod - 1), (mod - 1, mod - 1), (rng.randrange(mod), rng.randrange(mod))]:
                for k in (3, 4, 5):
                    r = v.modmul(a, b, mod, {"k": k, "delta": 10, "eps": 11})
                    assert r.result == a * b % mod
                    assert r.cycles == v.step_cycles(n, k) == 2 * (-(-(n + 1) // k) + 1)
                    assert r.detail["total_cycles"] == v.mul_cycles(n, v.make_config(k, 10, 11))


def test_errors() -> None:
    cases = [
        (lambda: v.modexp(2, 3, 10, DEFAULT), Status.ERR_EVEN_MODULUS),
        (lambda: v.modexp(0, 3, 1, DEFAULT), Status.ERR_LENGTH),
        (lambda: v.modexp(0, 3, 0, DEFAULT), Status.ERR_LENGTH),
        (lambda: v.modexp(0, 3, -7, DEFAULT), Status.ERR_OPERAND_RANGE),
        (lambda: v.modexp(7, 3, 7, DEFAULT), Status.ERR_OPERAND_RANGE),
        (lambda: v.modexp(-1, 3, 7, DEFAULT), Status.ERR_OPERAND_RANGE),
        (lambda: v.modexp(2, -1, 7, DEFAULT), Status.ERR_OPERAND_RANGE),
        (lambda: v.modexp(2, 3, (1 << 4097) - 1, DEFAULT), Status.ERR_LENGTH),
        (lambda: v.modexp(2, 1 << 4096, 7, DEFAULT), Status.ERR_LENGTH),
        (lambda: v.modexp(8, 3, 8, DEFAULT), Status.ERR_EVEN_MODULUS),  # even before range
        (lambda: v.modmul(7, 1, 7, DEFAULT), Status.ERR_OPERAND_RANGE),
        (lambda: v.modmul(1, 7, 7, DEFAULT), Status.ERR_OPERAND_RANGE),
        (lambda: v.modmul(1, 1, 6, DEFAULT), Status.ERR_EVEN_MODULUS),
        (lambda: v.modexp(2, 3, 7, {"k": 6, "delta": 10, "eps": 11}), Status.ERR_PARAM),
    ]
    for fn, status in cases:
        with pytest.raises(PkaError) as e:
            fn()
        assert e.value.status == status


# ---- the cycle model ------------------------------------------------------------------------------

def test_cycle_formulas() -> None:
    c5, c4 = v.make_config(5, 10, 11), v.make_config(4, 10, 11)
    assert v.digits(512, 5) == 103 and v.digits(512, 4) == 129
    assert v.step_cycles(512, 5) == 208 and v.step_cycles(512, 4) == 260   # n'+1 iterations of 2
    assert v.paper_exp_cycles(512, 5) == 512 * 210
    assert v.exp_cycles(512, 512, c5) == 1 + 12 + 512 * 208 + 2 == 106_511
    assert v.exp_cycles(512, 0, c5) == 15
    assert v.mul_cycles(512, c5) == 2 + 12 + 208 + 1
    assert v.efficiency(512, v.exp_cycles(512, 512, c4)) >= 3.8   # the 3.8 for k = 4
    e5 = v.efficiency(512, v.exp_cycles(512, 512, c5))
    assert e5 >= 4.8                                                # the 4.8 for k = 5: 4.807
    assert e5 > v.efficiency(512, v.paper_exp_cycles(512, 5))      # above the paper's formula (4.762)


def test_cycles_and_io_in_results() -> None:
    r = v.modexp(5, (1 << 100) + 3, (1 << 127) - 1, DEFAULT)
    assert r.cycles == r.detail["total_cycles"] == 1 + 12 + 101 * v.step_cycles(127, 5) + 2
    assert r.io_cycles == v.exp_io_cycles(127, 101) == 3 * 4 + 2 + 4 + 1
    assert r.detail["q_max_seen"] <= 42


def test_build_len() -> None:
    assert v.build_len(64) == 128 and v.build_len(128) == 128 and v.build_len(129) == 256
    assert v.build_len(100, 300) == 512 and v.build_len(2048) == 2048


# ---- OP_MODEXP_CT (square-and-always-multiply) and the wipe ---------------------------------------

@pytest.mark.parametrize("cfg", CONFIGS)
def test_modexp_ct_random(cfg: tuple[int, int, int]) -> None:
    """Over exactly elen bits: results, cycles exp_cycles(n, elen) and io whatever e's bits, 2 elen
    products (context 1 always runs; no copy for X = 1)."""
    params = dict(zip(("k", "delta", "eps"), cfg))
    c = v.make_config(*cfg)
    rng = random.Random(11 + cfg[0])
    for _ in range(VECTORS):
        n = rng.choice([2, 5, 32, 64, 65, 128, 200])
        mod = max(3, rand_mod(rng, n))
        base = rng.randrange(mod)
        elen = rng.choice([n, rng.randrange(0, 2 * n + 2)])
        exp = rng.getrandbits(elen)
        r = v.modexp_ct(base, exp, mod, params, elen)
        nb = mod.bit_length()
        assert r.result == powmod(base, exp, mod)
        assert r.cycles == v.exp_cycles(nb, elen, c) == v.modexp(base, (1 << elen) - 1, mod, params).cycles
        assert r.io_cycles == v.exp_io_cycles(nb, elen)
        assert r.detail["products"] == 2 * elen
    assert v.modexp_ct(3, 5, 13, DEFAULT).detail["elen"] == 4       # default: the modulus' length


@pytest.mark.parametrize("n", [2, 3, 64, 128])
def test_modexp_ct_edges(n: int) -> None:
    for mod in edge_mods(n):
        if mod < 3 or mod.bit_length() != n:
            continue
        for base in ((0, 1, 2, mod - 1) if n < 128 else (2, mod - 1)):
            for exp in (0, 1, 2, (1 << n) - 1, mod - 1, 1 << (n - 1)):
                for elen in ({n, n + 3, exp.bit_length()} if n < 64 else {n}):
                    r = v.modexp_ct(base, exp, mod, DEFAULT, elen)
                    assert r.result == powmod(base, exp, mod), (base, exp, mod, elen)


def test_modexp_ct_cycles_do_not_depend_on_e() -> None:
    rng = random.Random(5)
    mod = rand_mod(rng, 40)
    exps = [rng.getrandbits(40) for _ in range(100)]
    assert {(r.cycles, r.io_cycles) for r in (v.modexp_ct(7, e, mod, DEFAULT, 40) for e in exps)} \
        == {(v.exp_cycles(40, 40, v.make_config(5, 10, 11)), v.exp_io_cycles(40, 40))}
    assert len({v.modexp(7, e, mod, DEFAULT).cycles for e in exps}) > 1     # the control


def test_modexp_ct_operands_meet_the_merged_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every product of the CT schedule (1 X_b, M X_b, M M) meets the merged first iteration's
    precondition and A, B < 2N (multiply asserts both)."""
    seen: list[tuple[int, int, int]] = []
    real = v.multiply

    def spy(a: int, b: int, mod: int, cfg: v.Config, shift: int = 0) -> v.MulTrace:
        seen.append((a, b, mod))
        return real(a, b, mod, cfg, shift)

    monkeypatch.setattr(v, "multiply", spy)
    mod = (1 << 124) - 59          # (n+1) mod 5 = 0: the tightest merged start
    v.modexp_ct(mod - 1, (1 << 124) - 1, mod, DEFAULT, 124)
    v.modexp_ct(mod - 2, 0, mod, DEFAULT, 124)
    assert len(seen) == 4 * 124
    assert any(a == 1 for a, _, _ in seen) and max(max(a, b) for a, b, _ in seen) >= mod


def test_modexp_ct_errors() -> None:
    cases = [
        (lambda: v.modexp_ct(2, 16, 13, DEFAULT, 4), Status.ERR_OPERAND_RANGE),     # e >= 2^elen
        (lambda: v.modexp_ct(2, -1, 13, DEFAULT, 4), Status.ERR_OPERAND_RANGE),
        (lambda: v.modexp_ct(2, 3, 13, DEFAULT, 4097), Status.ERR_LENGTH),
        (lambda: v.modexp_ct(2, 3, 10, DEFAULT, 4), Status.ERR_EVEN_MODULUS),
        (lambda: v.modexp_ct(13, 3, 13, DEFAULT, 4), Status.ERR_OPERAND_RANGE),
        (lambda: v.modexp_ct(0, 1, 1, DEFAULT, 1), Status.ERR_LENGTH),
        (lambda: v.modexp_ct(2, 3, 7, {"k": 6, "delta": 10, "eps": 11}), Status.ERR_PARAM),
    ]
    for fn, status in cases:
        with pytest.raises(PkaError) as e:
            fn()
        assert e.value.status == status


def test_wipe_cycles() -> None:
    assert v.wipe_cycles() == v.WIPE_CYCLES == 1
