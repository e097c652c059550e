"""victor RTL (rtl/engines/victor) against the golden model: results AND cycles, stalls, error codes,
MODEXP_CT (vs the model, one cycle count over 100 exponents of one length) and the wipe.

Two Verilator builds: MaxLen = 128 with k = 4 and k = 5 (delta = 10, eps = 11). n = 64 runs
left-aligned in the 128-bit datapath (s = 64), n = 128 fills it (s = 0); other n in between.
"""

from __future__ import annotations

import random

import pytest
from conftest import SEED, vectors

from pka.errors import PkaError, Status
from pka.model import victor as model
from pka.rtl import victor as rtl
from pka.sim import Op, Slot, fileset, lint

pytestmark = pytest.mark.rtl

PARAMS = {4: {"k": 4, "delta": 10, "eps": 11}, 5: {"k": 5, "delta": 10, "eps": 11}}


def _modulus(rng: random.Random, n: int) -> int:
    return max(3, rng.getrandbits(n) | 1 | (1 << (n - 1)))


def _check_exp(x: int, e: int, mod: int, params: dict[str, int], io: bool = False) -> None:
    got = rtl.modexp(x, e, mod, params)
    want = model.modexp(x, e, mod, params)
    assert got.result == want.result == pow(x, e, mod), (hex(mod), x, e)
    assert got.cycles == want.cycles, (hex(mod), x, e, got.cycles, want.cycles)
    if io:
        assert got.io_cycles == want.io_cycles


def _check_mul(a: int, b: int, mod: int, params: dict[str, int], io: bool = False) -> None:
    got = rtl.modmul(a, b, mod, params)
    want = model.modmul(a, b, mod, params)
    assert got.result == want.result == a * b % mod, (hex(mod), a, b)
    assert got.cycles == want.cycles == model.step_cycles(mod.bit_length(), params["k"])
    assert got.detail["total_cycles"] == want.detail["total_cycles"]
    if io:
        assert got.io_cycles == want.io_cycles


@pytest.mark.parametrize("k", [4, 5])
def test_random_vs_model(k: int) -> None:
    """n in {64, 128} and random n <= 128, random exponents up to n bits, with and without stalls."""
    params = PARAMS[k]
    rng = random.Random(SEED + k)
    h = rtl.harness(128, model.config_from_params(params))
    try:
        for i in range(vectors(10)):
            stall = (0, 300, 700)[i % 3]
            h.stall(stall, seed=i + 1)
            n = (64, 128)[i % 2] if i < 4 else rng.randrange(2, 129)
            mod = _modulus(rng, n)
            e = rng.getrandbits(rng.randrange(0, n + 1)) if i % 4 else (1 << n) - 1
            _check_exp(rng.randrange(mod), e, mod, params, io=stall == 0)
            _check_mul(rng.randrange(mod), rng.randrange(mod), mod, params, io=stall == 0)
    finally:
        h.stall(0)


@pytest.mark.parametrize("n", [64, 128])
def test_edge_vectors(n: int) -> None:
    """Smallest and largest modulus of the size; operands 0, 1, N-1; exponents 0, 1, all ones."""
    params = PARAMS[5 if n == 64 else 4]
    for mod in ((1 << (n - 1)) + 1, (1 << n) - 1):
        for x in (0, 1, mod - 1):
            for e in (0, 1, (1 << n) - 1):
                _check_exp(x, e, mod, params, io=True)
            _check_mul(x, mod - 1, mod, params, io=True)
    _check_exp(2, 5, 3, params)   # the smallest modulus the engine takes (n = 2)
    _check_mul(2, 2, 3, params)


@pytest.mark.parametrize("k", [4, 5])
def test_merged_start_edges(k: int) -> None:
    """The merged first iteration at sizes with (n+1) mod k = 0 (the top digit has all k bits, the
    tightest case of its precondition) and the largest operands: N = 2^n - 1, base and factors
    N-1, N-2, exponents all ones (results up to 1.27 N feed back as A and B)."""
    params = PARAMS[k]
    rng = random.Random(SEED + 10 * k)
    for n in [m for m in range(8, 129) if (m + 1) % k == 0][-2:] + [k * 4 - 1]:
        for mod in ((1 << n) - 1, (1 << n) - 3, _modulus(rng, n)):
            for x in (mod - 1, mod - 2):
                _check_exp(x, (1 << n) - 1, mod, params)
                _check_mul(x, mod - 1, mod, params)
            _check_exp(rng.randrange(mod), rng.getrandbits(n), mod, params)


def _raw(op: int, length: int, elen: int, slots: dict[Slot, int], k: int = 5) -> int:
    res, _ = rtl.command(op, length, elen, slots, 128, model.config_from_params(PARAMS[k]))
    return res.status


def test_error_codes_and_return_to_idle() -> None:
    """Every status the engine produces, each followed by a good operation (back to idle)."""
    mod = (1 << 100) - 15  # odd, 100 bits
    good = {Slot.N: mod, Slot.A: 12345, Slot.B: 999, Slot.E: 65537}
    cases = [
        (Op.MONTMUL, 100, 17, good, Status.ERR_OPCODE),
        (Op.NOP, 100, 17, good, Status.ERR_OPCODE),
        (200, 100, 17, good, Status.ERR_OPCODE),
        (Op.MODEXP, 0, 17, good, Status.ERR_LENGTH),
        (Op.MODEXP, 1, 17, {**good, Slot.N: 1}, Status.ERR_LENGTH),
        (Op.MODEXP, 129, 17, good, Status.ERR_LENGTH),                       # above MaxLen
        (Op.MODEXP, 100, 129, good, Status.ERR_LENGTH),                      # exponent above MaxLen
        (Op.MODEXP, 101, 17, good, Status.ERR_LENGTH),                       # N shorter than len
        (Op.MODEXP, 99, 17, good, Status.ERR_LENGTH),                        # N longer than len
        (Op.MODMUL, 100, 0, {**good, Slot.N: mod + 1}, Status.ERR_EVEN_MODULUS),
        (Op.MODEXP, 100, 17, {**good, Slot.N: mod - 1}, Status.ERR_EVEN_MODULUS),
        (Op.MODEXP, 100, 17, {**good, Slot.A: mod}, Status.ERR_OPERAND_RANGE),
        (Op.MODEXP, 100, 17, {**good, Slot.A: 1 << 101}, Status.ERR_OPERAND_RANGE),  # bits above n
        (Op.MODMUL, 100, 0, {**good, Slot.A: mod + 5}, Status.ERR_OPERAND_RANGE),
        (Op.MODMUL, 100, 0, {**good, Slot.B: mod}, Status.ERR_OPERAND_RANGE),
        (Op.MODMUL, 100, 0, {**good, Slot.B: (1 << 127) | 3}, Status.ERR_OPERAND_RANGE),
    ]
    h = rtl.harness(128, model.config_from_params(PARAMS[5]))
    for stall in (0, 500):
        h.stall(stall, seed=3)
        for op, length, elen, slots, status in cases:
            assert _raw(op, length, elen, slots) == status, (op, length, elen, status)
            assert _raw(Op.MODEXP, 100, 17, good) == Status.OK
            assert h.read_slot(Slot.R, 4) == pow(12345, 65537, mod)
            assert _raw(Op.MODMUL, 100, 0, good) == Status.OK
            assert h.read_slot(Slot.R, 4) == 12345 * 999 % mod
    h.stall(0)


def test_driver_errors_match_model() -> None:
    """Same bad input, same status from the model and from the RTL driver."""
    bad = [
        ("modexp", (2, 3, 10)), ("modexp", (7, 3, 7)), ("modexp", (0, 3, 1)), ("modexp", (2, -1, 7)),
        ("modexp", (1 << 80, 3, (1 << 61) - 1)), ("modmul", (5, 9, 9)), ("modmul", (3, 4, 8)),
        ("modmul", (-1, 4, 9)),
    ]
    for fn, args in bad:
        with pytest.raises(PkaError) as want:
            getattr(model, fn)(*args, PARAMS[5])
        with pytest.raises(PkaError) as got:
            getattr(rtl, fn)(*args, PARAMS[5])
        assert got.value.status == want.value.status, (fn, args)
    with pytest.raises(PkaError) as e:
        rtl.modexp(2, 3, 7, {"k": 5, "delta": 10, "eps": 10})   # q_max 43.4: beyond Table 2
    assert e.value.status == Status.ERR_PARAM


@pytest.mark.parametrize("k,delta,eps", [(5, 10, 11), (5, 10, 10), (5, 9, 9), (4, 8, 8), (4, 7, 20),
                                         (3, 7, 11), (3, 6, 11), (4, 9, 5), (5, 32, 32), (3, 8, 4)])
def test_parameter_legality_matches_model(k: int, delta: int, eps: int) -> None:
    """The RTL's elaboration-time checks accept exactly the combinations the model accepts."""
    try:
        model.make_config(k, delta, eps)
        legal = True
    except PkaError:
        legal = False
    proc = lint(fileset("victor"), "pka_victor_core", {"MaxLen": 64, "MemAw": 6, "K": k, "Delta": delta, "Eps": eps})
    assert (proc.returncode == 0) == legal, proc.stdout + proc.stderr
    if not legal:
        assert "USERFATAL" in proc.stdout + proc.stderr


# ---- OP_MODEXP_CT and OP_ZEROIZE -----------------------------------------------------------------

def _check_ct(x: int, e: int, mod: int, elen: int, params: dict[str, int], io: bool = False) -> tuple[int, int]:
    got = rtl.modexp_ct(x, e, mod, params, elen)
    want = model.modexp_ct(x, e, mod, params, elen)
    assert got.result == want.result == pow(x, e, mod), (hex(mod), x, e, elen)
    assert got.cycles == want.cycles, (hex(mod), x, e, elen, got.cycles, want.cycles)
    if io:
        assert got.io_cycles == want.io_cycles
    return got.cycles, got.io_cycles


@pytest.mark.parametrize("k", [4, 5])
def test_modexp_ct_vs_model(k: int) -> None:
    """n in {64, 128} and random n <= 128; elen = n, 128, 0 or random; stalls 0/30/70 %."""
    params = PARAMS[k]
    rng = random.Random(SEED + 20 + k)
    h = rtl.harness(128, model.config_from_params(params))
    try:
        for i in range(vectors(10)):
            stall = (0, 300, 700)[i % 3]
            h.stall(stall, seed=i + 9)
            n = (64, 128)[i % 2] if i < 4 else rng.randrange(2, 129)
            mod = _modulus(rng, n)
            elen = (n, 128, 0, rng.randrange(0, 129))[i % 4]
            _check_ct(rng.randrange(mod), rng.getrandbits(elen), mod, elen, params, io=stall == 0)
    finally:
        h.stall(0)


@pytest.mark.parametrize("k", [4, 5])
def test_modexp_ct_edges(k: int) -> None:
    """Exponents 0, 1, all ones, a single top bit, all ones but the last (every swap path: the
    last bit 0 swaps before the final subtraction); the merged-start sizes ((n+1) mod k = 0) with
    N = 2^n - 1 and bases N-1, N-2; bases 0, 1; n = 2."""
    params = PARAMS[k]
    sizes = [m for m in range(8, 129) if (m + 1) % k == 0][-1:] + [64]
    for n in sizes:
        for mod in ((1 << n) - 1, (1 << (n - 1)) + 1):
            for x in (0, 1, mod - 1, mod - 2):
                for e in (0, 1, (1 << n) - 1, 1 << (n - 1), (1 << n) - 2):
                    _check_ct(x, e, mod, n, params, io=True)
    _check_ct(2, 1, 3, 2, params)
    _check_ct(2, 3, 3, 5, params)


@pytest.mark.parametrize("k", [4, 5])
def test_modexp_ct_one_cycle_count(k: int) -> None:
    """100 random exponents of one length (elen = n = 128) give exactly one (cycles, io_cycles) on
    the RTL; the control: plain MODEXP on the same exponents (h = their bit length) varies."""
    params = PARAMS[k]
    rng = random.Random(SEED + 30 + k)
    mod = _modulus(rng, 128)
    x = rng.randrange(mod)
    exps = [rng.getrandbits(128) for _ in range(100)]
    counts = {_check_ct(x, e, mod, 128, params) for e in exps}
    cfg = model.config_from_params(params)
    assert counts == {(model.exp_cycles(128, 128, cfg), model.exp_io_cycles(128, 128))}
    plain = {rtl.modexp(x, e, mod, params).cycles for e in exps}
    assert len(plain) > 1, "MODEXP's count must vary over these exponents (else the test cannot fail)"


def test_wipe() -> None:
    """OP_ZEROIZE: ST_OK, cycles = the model's, io 0; after a MODEXP_CT, twice in a row, and
    operations right after it are right (cocotb tb/pka_victor_core checks the registers)."""
    params = PARAMS[5]
    mod = (1 << 100) - 15
    _check_ct(12345, (1 << 99) + 12345, mod, 100, params)
    for _ in range(2):
        w = rtl.wipe(params)
        assert (w.cycles, w.io_cycles) == (model.wipe_cycles(), 0)
    _check_ct(777, 65537, mod, 100, params, io=True)
    _check_exp(777, 65537, mod, params, io=True)
    _check_mul(777, 65537, mod, params, io=True)


def test_modexp_ct_driver_errors_match_model() -> None:
    cases = [(2, 16, 13, 4), (2, 3, 10, 4), (13, 3, 13, 4), (2, 3, 13, 4097), (0, 1, 1, 1), (2, -1, 13, 4)]
    for x, e, mod, elen in cases:
        with pytest.raises(PkaError) as want:
            model.modexp_ct(x, e, mod, PARAMS[5], elen)
        with pytest.raises(PkaError) as got:
            rtl.modexp_ct(x, e, mod, PARAMS[5], elen)
        assert got.value.status == want.value.status, (x, e, mod, elen)
