"""csa2 RTL (rtl/engines/csa2) against the golden model: results AND cycles, stalls, error codes,
MODEXP_CT (the ladder: vs the model, one cycle count over 100 exponents of one length) and the wipe.

One Verilator build per (L, variant): L in {32, 64, 128}, paper (ChunkW = 1) and fast (ChunkW = 32);
L = 128 paper is in the slow tier.
"""

from __future__ import annotations

import random

import pytest
from conftest import SEED, vectors

from pka.errors import PkaError, Status
from pka.model import csa2 as model
from pka.rtl import csa2 as rtl
from pka.sim import Op, Slot

pytestmark = pytest.mark.rtl

# L = 128 paper is a 40 s build: kept out of CI (`-m slow`), L = 128 fast covers the wide array.
CONFIGS = [(32, "paper"), (32, "fast"), (64, "paper"), (64, "fast"), (128, "fast"),
           pytest.param(128, "paper", marks=pytest.mark.slow)]


def _modulus(rng: random.Random, k: int) -> int:
    return rng.getrandbits(k) | 1 | (1 << (k - 1))


def _check_exp(x: int, e: int, n: int, params: dict[str, object]) -> None:
    got = rtl.modexp(x, e, n, params)
    want = model.modexp(x, e, n, params)
    assert got.result == want.result == pow(x, e, n), (hex(n), x, e)
    assert got.cycles == want.cycles, (hex(n), x, e, got.cycles, want.cycles)


def _check_mul(a: int, b: int, n: int, params: dict[str, object]) -> None:
    got = rtl.modmul(a, b, n, params)
    want = model.modmul(a, b, n, params)
    assert got.result == want.result == a * b % n, (hex(n), a, b)
    assert got.cycles == want.cycles
    assert got.detail["total_cycles"] == want.detail["total_cycles"]


@pytest.mark.parametrize("l,variant", CONFIGS)
def test_random_vs_model(l: int, variant: str) -> None:
    """Random K <= L (incl. K < L and K = L), random exponents, with and without memory stalls."""
    rng = random.Random(SEED + l + (1 if variant == "fast" else 0))
    params = {"variant": variant, "l": l}
    h = rtl.harness(l, variant)
    try:
        for i in range(vectors(8)):
            h.stall(0 if i % 2 == 0 else 400, seed=i + 1)
            k = l if i == 0 else rng.randrange(3, l + 1)
            n = _modulus(rng, k)
            _check_exp(rng.randrange(n), rng.getrandbits(rng.randrange(0, l + 1)), n, params)
            _check_mul(rng.randrange(n), rng.randrange(n), n, params)
    finally:
        h.stall(0)


@pytest.mark.parametrize("l,variant", [(32, "paper"), (64, "fast"), (128, "fast")])
def test_edge_vectors(l: int, variant: str) -> None:
    params = {"variant": variant, "l": l}
    for k in (3, 4, 31, l):
        for n in ((1 << (k - 1)) + 1, (1 << k) - 1):
            for x in (0, 1, n - 1):
                for e in (0, 1, (1 << k) - 1):
                    _check_exp(x, e, n, params)
            _check_mul(n - 1, n - 1, n, params)
            _check_mul(0, n - 1, n, params)


def test_result_equal_to_n_is_stored_as_zero() -> None:
    """Walter's bound is <= N: with X^E = 0 mod N (non-square-free N) MonProd(P, 1) = N -> 0."""
    for variant in ("paper", "fast"):
        for n, x, e in ((9, 3, 2), (27, 6, 5), (125, 25, 3), (3 ** 15, 3 ** 5, 7)):
            _check_exp(x, e, n, {"variant": variant, "l": 32})
        _check_mul(3, 6, 9, {"variant": variant, "l": 32})


@pytest.mark.parametrize("variant", ["paper", "fast"])
def test_multiword_store_compare(variant: str) -> None:
    """The store shifts A^P and N a word per stored word and compares them word by word: a result
    of N over two and four words is stored as 0; results equal to N in one word only are kept
    (with and without grant stalls: back-to-back grants read word 1 while the shift is under way)."""
    for l in ((64, 128) if variant == "fast" else (64,)):   # (L = 128 paper: the slow tier)
        params = {"variant": variant, "l": l}
        h = rtl.harness(l, variant)
        try:
            for stall in (0, 400):
                h.stall(stall, seed=7)
                _check_exp(3 ** 20, 2, 3 ** 40, params)               # 64 bits: X^E = 0 mod N
                if l == 128:
                    _check_exp(3 ** 40, 2, 3 ** 80, params)           # 127 bits
                n = (1 << (l - 1)) + (1 << 40) + 1
                _check_exp(n - (1 << 32), 1, n, params)               # word 0 equals N's
                _check_exp(n - 1, 1, n, params)                       # the top word equals N's
        finally:
            h.stall(0)


def test_cycles_follow_the_paper_formula() -> None:
    """The paper variant takes exactly (2K+14)(H+2) + K + 7 cycles for several K and H."""
    rng = random.Random(SEED)
    for k, hb in ((3, 1), (17, 5), (32, 32), (29, 0)):
        n = _modulus(rng, k)
        e = (1 << hb) - 1 if hb else 0
        got = rtl.modexp(2, e, n, {"variant": "paper", "l": 32})
        assert got.cycles == (2 * k + 14) * (hb + 2) + k + 7
        fast = rtl.modexp(2, e, n, {"variant": "fast", "l": 32})
        nc = -(-(k + 4) // 32)
        assert fast.cycles == nc + 1 + (hb + 2) * (k + 5 + nc)


@pytest.mark.parametrize("variant", ["paper", "fast"])
def test_error_codes_and_return_to_idle(variant: str) -> None:
    l = 32
    h = rtl.harness(l, variant)
    h.stall(0)
    n = 0xC000_0001
    w = pow(2, 2 * (32 + 2), n)

    def load(nv: int, a: int = 5, b: int = 7, wv: int = w, e: int = 3) -> None:
        for slot, value in ((Slot.N, nv), (Slot.A, a), (Slot.B, b), (Slot.W, wv), (Slot.E, e)):
            h.write_slot(slot, value)

    def status(op: int, k: int, elen: int = 2, bound: int = 16) -> int:
        res = h.command(op, k, elen, 0, max_cycles=bound)  # SimTimeout if the core hangs
        assert res.wall <= bound
        assert h.command(Op.NOP, 32, 0, 0, max_cycles=4).wait == 0  # back in idle at once
        return res.status

    load(n)
    assert status(Op.NOP, 32) == Status.ERR_OPCODE
    assert status(Op.MONTMUL, 32) == Status.ERR_OPCODE
    assert status(Op.RSA_CRT, 32) == Status.ERR_OPCODE
    assert status(Op.MODEXP, 2) == Status.ERR_LENGTH        # K < 3
    assert status(Op.MODEXP, 0) == Status.ERR_LENGTH
    assert status(Op.MODMUL, 33) == Status.ERR_LENGTH       # K > L
    assert status(Op.MODEXP, 32, elen=33) == Status.ERR_LENGTH  # H > L
    load(n - 1)
    assert status(Op.MODEXP, 32) == Status.ERR_EVEN_MODULUS
    assert status(Op.MODMUL, 32) == Status.ERR_EVEN_MODULUS
    load(n)
    assert status(Op.MODEXP, 31) == Status.ERR_OPERAND_RANGE  # N >= 2^K
    load(n, a=n)
    assert status(Op.MODEXP, 32) == Status.ERR_OPERAND_RANGE  # A = N
    load(n, b=n + 1)
    assert status(Op.MODMUL, 32) == Status.ERR_OPERAND_RANGE  # B > N
    load(n, wv=n)
    assert status(Op.MODMUL, 32) == Status.ERR_OPERAND_RANGE  # W = N
    # and a good operation right after the errors
    load(n, a=5, e=3)
    res = h.command(Op.MODEXP, 32, 2, 0, max_cycles=100_000)
    assert res.status == 0 and h.read_slot(Slot.R, 1) == 125
    assert res.cycles == model.exp_cycles(32, 2, variant)


def test_driver_errors_match_model() -> None:
    cases = [(3, 5, 10), (1, 1, 3), (13, 1, 13), (14, 1, 13), (1, 1, (1 << 40) + 1)]
    for x, e, n in cases:
        for fn_m, fn_r in ((model.modexp, rtl.modexp), (model.modmul, rtl.modmul)):
            with pytest.raises(PkaError) as em:
                fn_m(x, e, n, {"l": 32})
            with pytest.raises(PkaError) as er:
                fn_r(x, e, n, {"l": 32})
            assert em.value.status == er.value.status, (x, e, n)
    with pytest.raises(PkaError) as exc:
        rtl.modexp(2, -1, 13, {})
    assert exc.value.status == Status.ERR_OPERAND_RANGE


# ---- OP_MODEXP_CT and OP_ZEROIZE -----------------------------------------------------------------

def _check_ct(x: int, e: int, n: int, elen: int, params: dict[str, object]) -> tuple[int, int]:
    got = rtl.modexp_ct(x, e, n, params, elen)
    want = model.modexp_ct(x, e, n, params, elen)
    assert got.result == want.result == pow(x, e, n), (hex(n), x, e, elen)
    assert got.cycles == want.cycles, (hex(n), x, e, elen, got.cycles, want.cycles)
    return got.cycles, got.io_cycles


@pytest.mark.parametrize("l,variant", [(32, "paper"), (32, "fast"), (64, "fast")])
def test_modexp_ct_vs_model(l: int, variant: str) -> None:
    """Random K <= L and elen <= L (above, at and below e's length), half with grant stalls."""
    rng = random.Random(SEED + 3 * l + (1 if variant == "fast" else 0))
    params = {"variant": variant, "l": l}
    h = rtl.harness(l, variant)
    try:
        for i in range(vectors(10)):
            h.stall(0 if i % 2 == 0 else 400, seed=i + 5)
            k = l if i == 0 else rng.randrange(3, l + 1)
            n = _modulus(rng, k)
            elen = (k, l, 0, rng.randrange(0, l + 1))[i % 4]
            _check_ct(rng.randrange(n), rng.getrandbits(elen), n, elen, params)
    finally:
        h.stall(0)


@pytest.mark.parametrize("l,variant", [(32, "paper"), (64, "fast")])
def test_modexp_ct_edges(l: int, variant: str) -> None:
    """Exponents 0, 1, all ones, one set bit at the top / bottom (every ladder path), elen = K
    and elen = L; smallest and largest modulus; bases 0, 1, N-1; the result = N case."""
    params = {"variant": variant, "l": l}
    for k in (3, 31, l):
        for n in ((1 << (k - 1)) + 1, (1 << k) - 1):
            for x in (0, 1, n - 1):
                for e in (0, 1, (1 << k) - 1, 1 << (k - 1), (1 << k) - 2):
                    _check_ct(x, e, n, k, params)
            _check_ct(n - 1, (1 << k) - 1, n, l, params)
    for n, x, e in ((9, 3, 2), (27, 6, 5), (125, 25, 3), (3 ** 15, 3 ** 5, 7)):
        _check_ct(x, e, n, 8, params)


@pytest.mark.parametrize("variant", ["paper", "fast"])
def test_modexp_ct_one_cycle_count(variant: str) -> None:
    """100 random exponents of one length (elen = K = 32) give exactly one (cycles, io_cycles) on
    the RTL; the control: plain MODEXP on the same exponents (H = their bit length) varies."""
    rng = random.Random(SEED + 77)
    params = {"variant": variant, "l": 32}
    n = _modulus(rng, 32)
    x = rng.randrange(n)
    exps = [rng.getrandbits(32) for _ in range(100)]
    ct = {_check_ct(x, e, n, 32, params) for e in exps}
    assert len(ct) == 1 and next(iter(ct))[0] == model.exp_cycles(32, 32, variant), ct
    plain = {rtl.modexp(x, e, n, params).cycles for e in exps}
    assert len(plain) > 1, "MODEXP's count must vary over these exponents (else the test cannot fail)"
    # the result = N case costs no extra pass either: same counts as any other result
    assert _check_ct(3, 2, 9, 32, params) == _check_ct(2, 3, 9, 32, params)


@pytest.mark.parametrize("variant", ["paper", "fast"])
def test_wipe(variant: str) -> None:
    """OP_ZEROIZE: ST_OK, cycles = the model's, io 0; right after a MODEXP_CT, twice in a row, and
    an operation right after it is right (cocotb tb/pka_csa2_core checks the registers)."""
    params = {"variant": variant, "l": 32}
    n = (1 << 31) + 11
    _check_ct(5, 0xDEADBEEF, n, 32, params)
    for _ in range(2):
        w = rtl.wipe(params, 32)
        assert (w.cycles, w.io_cycles) == (model.wipe_cycles(), 0)
    _check_ct(7, 0x12345, n, 32, params)
    _check_exp(7, 0x12345, n, params)


def test_modexp_ct_driver_errors_match_model() -> None:
    cases = [(2, 16, 13, 4), (2, 3, 12, 4), (13, 3, 13, 4), (2, 3, 13, 33), (1, 1, 3, 2), (2, -1, 13, 4)]
    for x, e, n, elen in cases:
        with pytest.raises(PkaError) as em:
            model.modexp_ct(x, e, n, {"l": 32}, elen)
        with pytest.raises(PkaError) as er:
            rtl.modexp_ct(x, e, n, {"l": 32}, elen)
        assert em.value.status == er.value.status, (x, e, n, elen)
