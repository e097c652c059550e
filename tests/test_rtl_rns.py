"""RTL of rns against the golden model: results AND cycles, random stalls, every error code.

Builds: MM w = 16 MaxLen = 64 (the small curve, 64-bit moduli), MM w = 32 MaxLen = 256
(P-256), SBMM w = 16 MaxLen = 64 (the 64-bit P = Ma^2 - 2), SBMM w = 32 MaxLen = 128.
"""

from __future__ import annotations

import random

import gmpy2
import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from conftest import SEED, vectors
from pka.errors import PkaError, Status
from pka.model import rns as model
from pka.rtl import rns as rtl
from pka.sim import Op, Slot
from test_model_rns_checked import P256_CHECKED_CYCLES, P256_XONLY_CYCLES

pytestmark = pytest.mark.rtl
SMALL = model.CURVES["small"]


@pytest.fixture(scope="module", autouse=True)
def _close() -> object:
    yield None
    rtl.close_all()


def _mod(rng: random.Random, bits: int) -> int:
    return rng.getrandbits(bits) | 1 | (1 << (bits - 1))


@pytest.mark.parametrize("w,bits", [(16, 64), (16, 33), (32, 256), (32, 130)])
@pytest.mark.parametrize("stall", [0, 300])
def test_modmul_montmul_linops(w: int, bits: int, stall: int) -> None:
    rng = random.Random(SEED + bits + stall)
    h = rtl.harness(w, rtl.build_for(bits, w))
    h.stall(stall, seed=5)
    for _ in range(max(2, vectors() // 4)):
        n = _mod(rng, bits)
        a, b = rng.randrange(n), rng.randrange(n)
        got, want = rtl.modmul(a, b, n, {"w": w}), model.modmul(a, b, n, {"w": w})
        assert got.result == want.result == a * b % n
        assert got.cycles == want.cycles and got.detail["total_cycles"] == want.detail["total_cycles"]
        assert got.cycles == model.instr_cycles(model.Instr(model.UOp.MR, pairs=((1, 2),)), model.mm_context(n, w).n)
        ctx = model.mm_context(n, w)
        raw, res = rtl.montmul(a, b, n, w)
        mach = model.run_machine(ctx, model.PROGRAMS["montmul"], {model.IN_A: a, model.IN_B: b})
        assert raw == ctx.from_rns(mach.regs[model.RES]) and raw < 2 * n      # bit-exact residues
        assert res.cycles == mach.cycles == 2 * ctx.n + 17
        for op in ("modadd", "modsub"):
            r = rtl.linop(op, a, b, n, w)
            assert r.result == ((a + b) if op == "modadd" else (a - b)) % n and r.cycles == 1
    h.stall(0)


@pytest.mark.parametrize("w,bits", [(16, 64), (32, 200)])
def test_modexp(w: int, bits: int) -> None:
    rng = random.Random(SEED + 7)
    for e in [0, 1, (1 << 20) - 1, rng.getrandbits(bits)]:
        n = _mod(rng, bits)
        a = rng.randrange(n)
        got, want = rtl.modexp(a, e, n, {"w": w}), model.modexp(a, e, n, {"w": w})
        assert got.result == want.result == pow(a, e, n) and got.cycles == want.cycles


def test_ecc_small_curve_constant_time_with_stalls() -> None:
    c = model.CURVES["small"]
    rng = random.Random(SEED)
    h = rtl.harness(16, 64)
    h.stall(250, seed=3)
    cycles = set()
    for k in [1, 2, c.order - 1] + [rng.randrange(1, c.order) for _ in range(max(1, vectors() // 10))]:
        got, want = rtl.ecc_mul("small", k, {"w": 16}), model.ecc_mul("small", k, {"w": 16})
        ref = model.affine_mul(c, k, (c.gx, c.gy))
        assert ref is not None and got.result == want.result == ref[0]
        assert got.cycles == want.cycles
        cycles.add(got.cycles)
    assert len(cycles) == 1
    h.stall(0)


def test_p256_in_rtl_against_cryptography() -> None:
    k = random.Random(SEED).randrange(1, model.P256.order)
    got = rtl.ecc_mul("p256", k, {"w": 32})
    pub = ec.derive_private_key(k, ec.SECP256R1()).public_key().public_numbers()
    assert (got.result, got.detail["y"]) == (pub.x, pub.y)
    assert got.cycles == model.ecc_mul("p256", k, {"w": 32}).cycles == P256_CHECKED_CYCLES <= 150_000


def test_error_codes_and_return_to_idle() -> None:
    n = int(gmpy2.next_prime(1 << 60))
    ctx = model.mm_context(n, 16)
    h = rtl.harness(16, 64)
    rtl.write_context(h, ctx, {model.IN_A: 3, model.IN_B: 5})
    assert h.command(Op.MODINV, 61, max_cycles=1000).status == Status.ERR_OPCODE
    assert h.command(Op.MODMUL, 0, max_cycles=1000).status == Status.ERR_LENGTH
    assert h.command(Op.MODMUL, 15, max_cycles=1000).status == Status.ERR_LENGTH
    assert h.command(Op.MODMUL, 65, max_cycles=1000).status == Status.ERR_LENGTH
    assert h.command(Op.MODEXP, 61, 65, max_cycles=1000).status == Status.ERR_LENGTH
    assert h.command(Op.ECC_MUL, 61, 0, max_cycles=1000).status == Status.ERR_LENGTH
    h.write(h.design.slot_addr(Slot.N), [n - 1])                       # even modulus
    assert h.command(Op.MODMUL, 61, max_cycles=10000).status == Status.ERR_EVEN_MODULUS
    h.write(h.design.slot_addr(Slot.N), [n & 0xFFFFFFFF])
    h.write(h.design.slot_addr(Slot.A) + 1, [ctx.b[1]])                 # residue = its modulus
    assert h.command(Op.MODMUL, 61, max_cycles=10000).status == Status.ERR_OPERAND_RANGE
    h.write(h.design.slot_addr(Slot.A) + 1, [1 << 16])                  # bits above w
    assert h.command(Op.MODMUL, 61, max_cycles=10000).status == Status.ERR_OPERAND_RANGE
    rtl.write_context(h, ctx, {model.IN_A: 3, model.IN_B: 5}, scalar=0)
    assert h.command(Op.ECC_MUL, 61, 4, max_cycles=10000).status == Status.ERR_OPERAND_RANGE
    # idle again: a good command after the errors
    assert rtl.modmul(3, 5, n, {"w": 16}).result == 15


@pytest.mark.parametrize("stall", [0, 300])
def test_sbmm_build_results_and_cycles(stall: int) -> None:
    """SBMM + Compress on n_a + 1 rowers (64-bit P = Ma^2 - 2, w = 16): residues, results, cycles."""
    ctx = model.gen_sbmm_prime(64, 16)
    rng = random.Random(SEED + stall)
    h = rtl.harness(16, 64, 1)
    h.stall(stall, seed=9)
    small = [(rng.randrange(1 << 12), rng.randrange(1 << 12)) for _ in range(max(4, vectors() // 2))]
    vals = [(rng.randrange(ctx.p), rng.randrange(ctx.p)) for _ in range(max(2, vectors() // 4))]
    cnt = model.SbmmCount()
    for a, b in vals + small + [(0, 0), (1, 1), (ctx.p - 1, ctx.p - 1)]:
        got = rtl.modmul(a, b, ctx.p, {"w": 16, "alg": "sbmm"})
        want = model.modmul(a, b, ctx.p, {"w": 16, "alg": "sbmm"})
        z = model.compress(ctx, model.sbmm(ctx, [(model.sbmm_to(ctx, a), model.sbmm_to(ctx, b))], cnt), cnt)
        assert got.detail["residues"] == z                       # bit-exact K and R residues
        assert got.result == want.result == a * b % ctx.p
        assert got.cycles == want.cycles == model.sb_times(ctx.na, ctx.nb)["total"]
    assert cnt.split_fix > 0 and cnt.compress_fix > 0     # the RTL's K = -1 and Q = -1 paths were taken
    # K = -1 in V's Split alone: a = 1 (K = 0, R = 1), b = Ma (K = 1, R = 0) make U = 0 and V = 1, which
    # the alpha = 0 base extension lifts to 1 + Ma (the gamma channel's and rowers' fix_v path)
    for a, b in ((1, ctx.ma), (ctx.ma, 1)):
        one = model.SbmmCount()
        z = model.compress(ctx, model.sbmm(ctx, [(model.sbmm_to(ctx, a), model.sbmm_to(ctx, b))], one), one)
        assert one.split_fix == 1
        got = rtl.modmul(a, b, ctx.p, {"w": 16, "alg": "sbmm"})
        assert got.detail["residues"] == z and got.result == a * b % ctx.p
        assert got.cycles == model.sb_times(ctx.na, ctx.nb)["total"]
    for e in (0, 1, rng.getrandbits(64)):
        a = rng.randrange(ctx.p)
        got, want = rtl.modexp(a, e, ctx.p, {"w": 16, "alg": "sbmm"}), model.modexp(a, e, ctx.p, {"w": 16, "alg": "sbmm"})
        assert got.result == want.result == pow(a, e, ctx.p) and got.cycles == want.cycles
    h.stall(0)


@pytest.mark.parametrize("bits,w", [(64, 16), (128, 32)])
def test_sbmm_chains_overlap_compress(bits: int, w: int) -> None:
    """Chained SBMM products on the RTL, per product, equal to the model: a run of squarings (each
    reads the last, so it waits for the Compress tail) takes sb_times' total (T4 + 8: the slides'
    58 / 66 at n_a = 6 / 8); a ladder step (no product reads the one before it) overlaps every
    Compress with the next instruction. Measured as differences of whole runs."""
    ctx = model.gen_sbmm_prime(bits, w)
    t = model.sb_times(ctx.na, ctx.nb)
    a = random.Random(SEED + bits).randrange(ctx.p)
    sq = [rtl.sb_modexp(a, 1 << e, ctx).cycles for e in (8, 24)]          # 16 more squarings
    assert sq == [model.modexp(a, 1 << e, ctx.p, {"w": w, "alg": "sbmm"}).cycles for e in (8, 24)]
    assert (sq[1] - sq[0]) == 16 * t["total"]
    c = model.CURVES["small"] if w == 16 else None
    if c is None:
        return
    inputs = model.sb_ecc_inputs(c, c.gx)
    lad = []
    for elen in (8, 16):
        _, res = rtl.sb_run(Op.ECC_MUL, ctx, inputs, 0x5A, elen, expo=c.p - 2)
        lad.append(res.cycles)
        mach = model.run_sb_machine(ctx, model.PROGRAMS["sb_ecc"], inputs, 0x5A, elen, c.p - 2, c.p.bit_length())
        assert res.cycles == mach.cycles
    sbs = [it for it in model._sb_ladder_body() if it.op == model.UOp.SB]
    issue = sum(model.sb_issue_cycles(it, ctx.na, ctx.nb) for it in sbs)
    assert (lad[1] - lad[0]) // 8 == issue + 10 * 6 + 2 and (lad[1] - lad[0]) % 8 == 0


def test_sbmm_build_w32() -> None:
    """The SBMM build at W = 32 (128-bit P = Ma^2 - 2, n_a = 2): residues, results and cycles."""
    ctx = model.gen_sbmm_prime(128, 32)
    rng = random.Random(SEED + 32)
    cnt = model.SbmmCount()
    for a, b in [(rng.randrange(ctx.p), rng.randrange(ctx.p)) for _ in range(3)] + [(0, 1), (ctx.p - 1, ctx.p - 1)]:
        got = rtl.modmul(a, b, ctx.p, {"w": 32, "alg": "sbmm"})
        z = model.compress(ctx, model.sbmm(ctx, [(model.sbmm_to(ctx, a), model.sbmm_to(ctx, b))], cnt), cnt)
        assert got.detail["residues"] == z and got.result == a * b % ctx.p
        assert got.cycles == model.sb_times(ctx.na, ctx.nb)["total"]
    e = rng.getrandbits(128)
    got, want = rtl.modexp(a, e, ctx.p, {"w": 32, "alg": "sbmm"}), model.modexp(a, e, ctx.p, {"w": 32, "alg": "sbmm"})
    assert got.result == want.result == pow(a, e, ctx.p) and got.cycles == want.cycles


def test_sbmm_build_error_codes() -> None:
    ctx = model.gen_sbmm_prime(64, 16)
    h = rtl.harness(16, 64, 1)
    rtl.sb_run(Op.MODMUL, ctx, {model.IN_A: 3, model.IN_B: 5})
    assert h.command(Op.MODADD, 64, max_cycles=1000).status == Status.ERR_OPCODE
    assert h.command(Op.MONTMUL, 64, max_cycles=1000).status == Status.ERR_OPCODE
    assert h.command(Op.ECC_MUL, 64, 0, max_cycles=1000).status == Status.ERR_LENGTH
    assert h.command(Op.MODMUL, 48, max_cycles=1000).status == Status.ERR_LENGTH   # not 2 n_a w
    assert h.command(Op.MODMUL, 96, max_cycles=1000).status == Status.ERR_LENGTH   # above MaxLen
    assert h.command(Op.MODEXP, 64, 65, max_cycles=1000).status == Status.ERR_LENGTH
    h.write(h.design.slot_addr(Slot.N), [(ctx.p & 0xFFFFFFFF) - 1])
    assert h.command(Op.MODMUL, 64, max_cycles=10000).status == Status.ERR_EVEN_MODULUS
    h.write(h.design.slot_addr(Slot.N), [ctx.p & 0xFFFFFFFF])
    h.write(h.design.slot_addr(Slot.A), [ctx.a[0]])                      # K_a residue = its modulus
    assert h.command(Op.MODMUL, 64, max_cycles=10000).status == Status.ERR_OPERAND_RANGE
    h.write(h.design.slot_addr(Slot.A), [0])
    h.write(h.design.slot_addr(Slot.A) + ctx.na + ctx.nb, [64])          # gamma residue >= 64
    assert h.command(Op.MODMUL, 64, max_cycles=10000).status == Status.ERR_OPERAND_RANGE
    h.write(h.design.slot_addr(Slot.A) + ctx.na + ctx.nb, [0])
    h.write_int(h.design.slot_addr(Slot.E), 0, 4)                        # ECC scalar 0
    assert h.command(Op.ECC_MUL, 64, 8, max_cycles=10000).status == Status.ERR_OPERAND_RANGE
    assert rtl.modmul(3, 5, ctx.p, {"w": 16, "alg": "sbmm"}).result == 15


def test_ecc_on_the_sbmm_build_constant_time_with_stalls() -> None:
    c = model.CURVES["small"]
    rng = random.Random(SEED + 5)
    h = rtl.harness(16, 64, 1)
    h.stall(200, seed=4)
    cycles = set()
    for k in [1, c.order - 1] + [rng.randrange(1, c.order) for _ in range(max(1, vectors() // 10))]:
        got, want = rtl.ecc_mul("small", k, {"w": 16, "alg": "sbmm"}), model.ecc_mul("small", k, {"w": 16, "alg": "sbmm"})
        ref = model.affine_mul(c, k, (c.gx, c.gy))
        assert ref is not None and got.result == want.result == ref[0] and got.cycles == want.cycles
        cycles.add(got.cycles)
    assert len(cycles) == 1
    h.stall(0)


def test_driver_errors_match_the_model() -> None:
    for fn in (rtl.modmul, model.modmul):
        with pytest.raises(PkaError) as exc:
            fn(1, 2, 1 << 40, {"w": 32})
        assert exc.value.status == Status.ERR_EVEN_MODULUS
        with pytest.raises(PkaError) as exc:
            fn(1, 2, 65537, {"w": 16, "alg": "sbmm"})
        assert exc.value.status == Status.ERR_UNSUPPORTED
    with pytest.raises(PkaError) as exc:
        rtl.ecc_mul("small", 5, {"w": 32, "alg": "sbmm"})       # the small curve's P is a w = 16 SBMM prime
    assert exc.value.status == Status.ERR_UNSUPPORTED
    with pytest.raises(PkaError) as exc:
        rtl.modmul(1, 2, (1 << 513) + 1, {"w": 32})
    assert exc.value.status == Status.ERR_LENGTH


# ---- checked ECC_MUL, the x-only entry, MODEXP_CT, the wipe (issues 13 and 14) ------------------------

def _ecc_vs_model(c: model.Curve, k: int, x: int, y: int | None, w: int, elen: int | None = None,
                  h: object = None, z_words: list[int] | None = None) -> tuple[int, tuple[int, int]]:
    """ECC_MUL on the RTL and the model's microprogram: same status, cycles and raw R, R_HI words
    (bit-exact residues of values < 2P; zeros after a failure). R and R_HI are filled with junk
    first, so a failure is seen to overwrite them."""
    hh = rtl.harness(w, rtl.build_for(c.p.bit_length(), w))
    ctx = model.mm_context(c.p, w)
    for slot in (Slot.R, Slot.R_HI):
        hh.write(hh.design.slot_addr(slot), [0x1234 + i for i in range(2 * ctx.n)])
    _, res, raw = rtl.ecc_raw(c, k, x, y, w, elen, hh, z_words=z_words)
    ctx, mach = model.ecc_machine(c, k, x, y, w, elen, z_words=z_words)
    assert res.status == mach.status and res.cycles == mach.cycles
    assert raw == tuple(ctx.from_rns(v) for v in mach.out())
    return res.status, raw


def test_checked_ecc_small_curve_with_stalls() -> None:
    """The checked ECC_MUL on the RTL = the model: (x, y), cycles (one count for every k), and the
    failure paths (wrong y, infinity) with their status, cycles and zeros in R and R_HI."""
    c = SMALL
    rng = random.Random(SEED + 13)
    h = rtl.harness(16, 64)
    h.stall(250, seed=7)
    cycles = set()
    for k in [1, 2, c.order - 1] + [rng.randrange(1, c.order) for _ in range(max(1, vectors() // 10))]:
        got, want = rtl.ecc_mul("small", k, {"w": 16}), model.ecc_mul("small", k, {"w": 16})
        assert (got.result, got.detail["y"]) == (want.result, want.detail["y"]) == model.affine_mul(c, k, (c.gx, c.gy))
        assert got.cycles == want.cycles
        cycles.add(got.cycles)
    assert len(cycles) == 1
    st, raw = _ecc_vs_model(c, 5, c.gx, (c.gy + 1) % c.p, 16)                  # a wrong y
    assert st == Status.ERR_NOT_ON_CURVE and raw == (0, 0)
    p7 = model.affine_mul(c, c.order // 7, (c.gx, c.gy))
    assert p7 is not None
    st, raw = _ecc_vs_model(c, 7, p7[0], p7[1], 16)                            # 7 P = O
    assert st == Status.ERR_INFINITY and raw == (0, 0)
    st, raw = _ecc_vs_model(c, 6, p7[0], p7[1], 16)                            # 6 P = -P: (k+1) P = O
    assert st == Status.OK and (raw[0] % c.p, raw[1] % c.p) == (p7[0], c.p - p7[1])
    h.stall(0)
    with pytest.raises(PkaError) as exc:
        rtl.ecc_mul("small", 5, {"w": 16}, (c.gx, (c.gy + 1) % c.p))
    assert exc.value.status == Status.ERR_NOT_ON_CURVE


def test_x_only_entry_and_y_zero_point_on_the_256_bit_build() -> None:
    """ECC_MUL with ARG[0] = 1 (x only: R_HI = 0, infinity -> ERR_INFINITY); Wei25519's point of
    order 2 (A/3, 0) through the checked entry; P-256 x-only cycles."""
    c = SMALL
    k = random.Random(SEED + 6).randrange(1, c.order)
    st, raw = _ecc_vs_model(c, k, c.gx, None, 16)
    ref = model.affine_mul(c, k, (c.gx, c.gy))
    assert ref is not None and st == Status.OK and raw[0] % c.p == ref[0] and raw[1] == 0
    p7 = model.affine_mul(c, c.order // 7, (c.gx, c.gy))
    assert p7 is not None
    st, raw = _ecc_vs_model(c, 14, p7[0], None, 16, elen=8)
    assert st == Status.ERR_INFINITY and raw == (0, 0)
    got = rtl.ecc_mul_x("small", 14, p7[0], {"w": 16}, 8)
    assert got.result == 0 and got.detail["infinity"]
    t = (model.X25519_A3, 0)
    st, raw = _ecc_vs_model(model.WEI25519, 3, t[0], t[1], 32)
    assert st == Status.OK and (raw[0] % model.X25519_P, raw[1] % model.X25519_P) == t
    st, raw = _ecc_vs_model(model.WEI25519, 2, t[0], t[1], 32)
    assert st == Status.ERR_INFINITY and raw == (0, 0)
    k = random.Random(SEED + 7).randrange(1, model.P256.order)
    got = rtl.ecc_mul_x("p256", k, model.P256.gx, {"w": 32}, 256)
    ref = model.affine_mul(model.P256, k, (model.P256.gx, model.P256.gy))
    assert ref is not None and got.result == ref[0] and got.cycles == P256_XONLY_CYCLES


def test_modexp_ct_one_cycle_count_over_100_exponents() -> None:
    """MODEXP_CT on the RTL: 100 random 64-bit exponents (and 0, 1, all ones), one cycle count, equal
    to the model's closed form; plain MODEXP over the same exponents takes several counts."""
    rng = random.Random(SEED + 64)
    n = _mod(rng, 64)
    base = rng.randrange(n)
    ct, plain = set(), set()
    exps = [0, 1, (1 << 64) - 1] + [rng.getrandbits(64) for _ in range(100)]
    for i, e in enumerate(exps):
        got = rtl.modexp_ct(base, e, n, {"w": 16}, 64)
        assert got.result == pow(base, e, n)
        ct.add(got.cycles)
        if i < 12:
            plain.add(rtl.modexp(base, e, n, {"w": 16}).cycles)
    assert ct == {model.modexp_ct_cycles(model.mm_context(n, 16).n, 64)}
    assert ct == {model.modexp_ct(base, exps[-1], n, {"w": 16}, 64).cycles}
    assert len(plain) > 1


def test_modexp_ct_on_the_sbmm_build() -> None:
    ctx = model.gen_sbmm_prime(64, 16)
    rng = random.Random(SEED + 65)
    base = rng.randrange(ctx.p)
    cycles = set()
    for e in [0, (1 << 64) - 1] + [rng.getrandbits(64) for _ in range(10)]:
        got = rtl.modexp_ct(base, e, ctx.p, {"w": 16, "alg": "sbmm"}, 64)
        want = model.modexp_ct(base, e, ctx.p, {"w": 16, "alg": "sbmm"}, 64)
        assert got.result == want.result == pow(base, e, ctx.p) and got.cycles == want.cycles
        cycles.add(got.cycles)
    assert len(cycles) == 1


@pytest.mark.parametrize("w,max_len,sbmm", [(16, 64, 0), (32, 256, 0), (16, 64, 1)])
def test_zeroize_command(w: int, max_len: int, sbmm: int) -> None:
    """OP_ZEROIZE: ST_OK, cycles = the model's wipe_cycles, no port access (io_cycles 0; the RAM is
    untouched), and the engine serves the next command."""
    h = rtl.harness(w, max_len, sbmm)
    before = h.read(0, 1 << rtl.MEM_AW)
    res = rtl.zeroize(h)
    assert (res.status, res.cycles, res.io_cycles) == (0, model.wipe_cycles(max_len, w, bool(sbmm)), 0)
    assert h.read(0, 1 << rtl.MEM_AW) == before
    if sbmm:
        p = model.gen_sbmm_prime(64, 16).p
        assert rtl.modmul(3, 5, p, {"w": 16, "alg": "sbmm"}).result == 15
    else:
        n = (1 << (max_len - 10)) + 1          # a modulus this build serves (no other build is made)
        assert rtl.modmul(3, 5, n, {"w": w}).result == 15


# ---- ECC_MUL blinding: k + r n (ELEN up to MaxLen + 64) and the random projective Z (issue 14) -------

def _zw(rng: random.Random, ctx: model.MmCtx) -> list[int]:
    return [rng.getrandbits(32) for _ in range(model.rz_words(ctx))]


def test_blinded_random_z_one_cycle_count_over_100_secrets() -> None:
    """The checked ECC_MUL on the 64-bit build with k + r n (128 ladder steps, twice MaxLen) and a
    random Z: >= 100 random (k, r, lambda words) and the edges r = 0, 2^64 - 1, k = 1, n - 1 give
    the unblinded point and exactly one cycle count, the model's; the first ones (and some under
    random stalls) bit-exact against the model's microprogram, R and R_HI included."""
    c = SMALL
    ctx = model.mm_context(c.p, 16)
    rng = random.Random(SEED + 300)
    h = rtl.harness(16, 64)
    cases = [(1, 0), (c.order - 1, (1 << 64) - 1), (2, (1 << 63) | 1)]
    cases += [(rng.randrange(1, c.order), rng.getrandbits(64)) for _ in range(max(100, vectors()))]
    cycles = set()
    for i, (k, r) in enumerate(cases):
        z = _zw(rng, ctx)
        if i == 20:
            h.stall(250, seed=11)
        if i < 8 or 20 <= i < 24:
            kb, elen = model.blind_scalar(c, k, r)
            st, raw = _ecc_vs_model(c, kb, c.gx, c.gy, 16, elen, z_words=z)
            assert st == Status.OK and (raw[0] % c.p, raw[1] % c.p) == model.affine_mul(c, k, (c.gx, c.gy))
        got = rtl.ecc_mul("small", k, {"w": 16}, r=r, z_words=z)
        assert (got.result, got.detail["y"]) == model.affine_mul(c, k, (c.gx, c.gy))
        cycles.add(got.cycles)
        if i == 23:
            h.stall(0)
    assert cycles == {model.ecc_cycles(c, 16, 128, checked=True, random_z=True)}


def test_random_z_on_the_x_only_entry_and_extreme_words() -> None:
    """x-only entry (ARG = 3) with random Z, and lambda words above the channel moduli (2^32 - 1,
    m + 1, bits above w = 16): R, R_HI, status and cycles bit-exact against the model; all-zero
    words (lambda = 0) end with ERR_INFINITY and zeros on both entries."""
    c = SMALL
    ctx = model.mm_context(c.p, 16)
    rng = random.Random(SEED + 301)
    mods = ctx.b + ctx.bp
    k = rng.randrange(1, c.order)
    ref = model.affine_mul(c, k, (c.gx, c.gy))
    assert ref is not None
    for z in (_zw(rng, ctx), [0xFFFFFFFF] * len(mods), [m + 1 for m in mods],
              [(rng.getrandbits(16) << 16) | (m - 1) for m in mods]):
        st, raw = _ecc_vs_model(c, k, c.gx, None, 16, 64, z_words=z)
        assert st == Status.OK and raw[0] % c.p == ref[0] and raw[1] == 0
        st, raw = _ecc_vs_model(c, k, c.gx, c.gy, 16, z_words=z)
        assert st == Status.OK and (raw[0] % c.p, raw[1] % c.p) == ref
    for y in (c.gy, None):
        st, raw = _ecc_vs_model(c, k, c.gx, y, 16, 64, z_words=[0] * len(mods))
        assert st == Status.ERR_INFINITY and raw == (0, 0)
    got = rtl.ecc_mul_x("small", k, c.gx, {"w": 16}, 64, z_words=_zw(rng, ctx))
    assert got.result == ref[0] and got.cycles == model.ecc_cycles(c, 16, 64, checked=False, random_z=True)


def test_blinded_elen_limits() -> None:
    """ECC_MUL takes ELEN up to MaxLen + 256 (a 128-bit and a 320-bit scalar on the 64-bit build, top
    bit set); MaxLen + 257 is ST_ERR_LENGTH; the other opcodes keep ELEN <= MaxLen. The SBMM build refuses
    the random Z (ARG[1]) with ST_ERR_UNSUPPORTED."""
    c = SMALL
    h = rtl.harness(16, 64)
    kb = 5 + ((1 << 64) - 1) * c.order                # k + r n with r = 2^64 - 1: 128 bits
    assert kb.bit_length() == 128
    st, raw = _ecc_vs_model(c, kb, c.gx, c.gy, 16, 128)
    assert st == Status.OK and (raw[0] % c.p, raw[1] % c.p) == model.affine_mul(c, 5, (c.gx, c.gy))
    kb = 5 + ((1 << 256) - 1) * c.order               # r of 256 bits: 320 bits
    assert kb.bit_length() == model.ecc_max_elen(64) == 320
    st, raw = _ecc_vs_model(c, kb, c.gx, c.gy, 16, 320)
    assert st == Status.OK and (raw[0] % c.p, raw[1] % c.p) == model.affine_mul(c, 5, (c.gx, c.gy))
    for arg in (0, 1, 2, 3):
        assert h.command(Op.ECC_MUL, 64, 321, arg, max_cycles=1000).status == Status.ERR_LENGTH
    for op in (Op.MODEXP, Op.MODEXP_CT):
        assert h.command(op, 64, 65, max_cycles=1000).status == Status.ERR_LENGTH
    assert rtl.modmul(3, 5, c.p, {"w": 16}).result == 15          # idle again
    sctx = model.gen_sbmm_prime(64, 16)
    hs = rtl.harness(16, 64, 1)
    rtl.sb_run(Op.MODMUL, sctx, {model.IN_A: 3, model.IN_B: 5})
    assert hs.command(Op.ECC_MUL, 64, 8, model.ECC_RZ_ARG, max_cycles=1000).status == Status.ERR_UNSUPPORTED
    assert hs.command(Op.ECC_MUL, 64, 8, model.ECC_M_ARG, max_cycles=1000).status == Status.ERR_UNSUPPORTED
    assert rtl.modmul(3, 5, sctx.p, {"w": 16, "alg": "sbmm"}).result == 15


def test_p256_blinded_with_random_z_and_x25519_random_z() -> None:
    """P-256 k*G with k + r n (r of 128 bits: 384 steps) and a random Z on the 256-bit build:
    `cryptography`'s public key, cycles = the model's 197,020 (unblinded 136,244); the generic x-only ladder on
    Wei25519 (255 steps) with a random Z: the model's 139,416."""
    from test_model_rns_blind import P256_BLIND_CYCLES, WEI25519_RZ_CYCLES

    rng = random.Random(SEED + 302)
    k, r = rng.randrange(1, model.P256.order), rng.getrandbits(128)
    got = rtl.ecc_mul("p256", k, {"w": 32}, r=r, z_words=_zw(rng, model.mm_context(model.P256.p, 32)))
    pub = ec.derive_private_key(k, ec.SECP256R1()).public_key().public_numbers()
    assert (got.result, got.detail["y"]) == (pub.x, pub.y)
    assert got.cycles == P256_BLIND_CYCLES == model.ecc_cycles("p256", 32, 384, random_z=True)
    u = 9 + model.X25519_A3
    z = _zw(rng, model.mm_context(model.X25519_P, 32))
    x = rtl.ecc_mul_x("wei25519", 0x5DEECE66D, u, {"w": 32}, 255, z_words=z)
    assert x.result == model.ecc_mul_x("wei25519", 0x5DEECE66D, u, {"w": 32}, 255).result
    assert x.cycles == WEI25519_RZ_CYCLES
