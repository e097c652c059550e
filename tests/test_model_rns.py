"""Golden model of rns (paper 002): bases, rower reduction, Cox/Kawamura base extension, MM, Split,
SBMM, Compress, P = Ma^2 - 2 primes, curves, the (X,Z) ladder, the microprogram and its cycle model."""

from __future__ import annotations

import os
import random
from pathlib import Path

import gmpy2
import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from conftest import SEED, vectors
from pka.errors import PkaError, Status
from pka.model import rns

REPO = Path(__file__).resolve().parents[1]
MM = {"w": 32, "alg": "mm"}


def rand_mod(rng: random.Random, bits: int) -> int:
    return rng.getrandbits(bits) | 1 | (1 << (bits - 1))


# ---- bases, rower, Cox ---------------------------------------------------------------------------

@pytest.mark.parametrize("w,bits", [(16, 192), (16, 256), (32, 256), (32, 1024)])
def test_bases_are_pairwise_coprime_of_the_cheap_form(w: int, bits: int) -> None:
    ctx = rns.mm_context((1 << bits) - 1 if bits % 2 == 0 else (1 << bits) - 3, w)
    mods = ctx.b + ctx.bp
    assert ctx.n == -(-(bits + rns.GUARD_BITS) // w) and len(set(mods)) == 2 * ctx.n
    assert all(gmpy2.gcd(x, y) == 1 for i, x in enumerate(mods) for y in mods[i + 1:])
    assert all(0 < (1 << w) - m < rns.C_LIMIT[w] and m % 2 for m in mods)
    assert rns.mm_context(ctx.p, w) == ctx   # deterministic
    assert ctx.err < rns.Fraction(1, 2)
    assert ctx.m > 2 ** (bits + 7) and ctx.mp > 4 * ctx.p


def test_paper_channel_counts() -> None:
    """n = l/w + 1 for the slides' three sizes (w = 16 at 192 bits, 32 at 384 and 512)."""
    assert [rns.channels_mm(l, w) for l, w in ((192, 16), (384, 32), (512, 32))] == [13, 13, 17]


@pytest.mark.parametrize("w", [16, 32])
def test_rower_reduce(w: int) -> None:
    rng = random.Random(SEED)
    for m in rns.candidate_moduli(w)[:: max(1, len(rns.candidate_moduli(w)) // 16)]:
        top = (1 << (2 * w + rns.ACC_EXTRA[w])) - 1
        for x in [0, 1, m - 1, m, 2 * m - 1, top, *(rng.randrange(top) for _ in range(200))]:
            assert rns.rower_reduce(x, m, w) == x % m
    with pytest.raises(AssertionError):
        rns.rower_reduce(1 << (2 * w + rns.ACC_EXTRA[w]), rns.candidate_moduli(w)[0], w)


def test_cox_k_is_the_floor_of_the_truncated_sum() -> None:
    rng = random.Random(SEED)
    for w in (16, 32):
        for _ in range(200):
            xis = [rng.getrandbits(w) for _ in range(rng.randrange(1, 20))]
            for half in (False, True):
                k, bits = rns.cox_k(xis, w, half)
                q = rns.COX_Q
                assert k == ((1 << (q - 1) if half else 0) + sum(x >> (w - q) for x in xis)) >> q
                assert sum(bits) == k and set(bits) <= {0, 1}


@pytest.mark.parametrize("w", [16, 32])
def test_base_extension_exact_and_approximate(w: int) -> None:
    rng = random.Random(SEED + w)
    mods = rns.pick_coprime(rns.candidate_moduli(w), 16)
    src, dst = mods[:8], mods[8:]
    msrc = rns.prod(src)
    plus_m = 0
    for i in range(vectors(200)):
        x = rng.randrange(msrc // 2) if i % 4 else rng.randrange(msrc // 1000)   # small x: Q < err M
        res = [x % m for m in src]
        out, _ = rns.base_extend(res, src, dst, w, alpha_half=True)
        assert out == [x % m for m in dst]                       # alpha = 1/2, x < M/2: exact
        out0, _ = rns.base_extend(res, src, dst, w, alpha_half=False)
        assert out0 in ([x % m for m in dst], [(x + msrc) % m for m in dst])   # alpha = 0: x or x + M
        plus_m += out0 != [x % m for m in dst]
    assert plus_m > 0, "the approximate extension never erred: the test does not exercise it"


# ---- MM -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("w,bits", [(16, 64), (16, 192), (32, 256), (32, 512)])
def test_mr_bounds_and_emm_count(w: int, bits: int) -> None:
    rng = random.Random(SEED + bits)
    p = int(gmpy2.next_prime(rng.getrandbits(bits) | (1 << (bits - 1))))
    ctx = rns.mm_context(p, w)
    for k in (1, 2, 3):
        for _ in range(vectors(10)):
            pairs = [(rng.randrange(2 * p), rng.randrange(2 * p)) for _ in range(k)]
            tr = rns.MrTrace()
            out = rns.mr(ctx, [(ctx.to_rns(a), ctx.to_rns(b)) for a, b in pairs], tr)
            omega = ctx.from_rns(out)
            assert omega < 2 * p
            assert omega % p == sum(a * b for a, b in pairs) * rns.inv(ctx.m, p) % p
            assert tr.emm == rns.emm_mm(ctx.n, k)
    assert rns.emm_mm(ctx.n) == 2 * ctx.n ** 2 + 4 * ctx.n      # the slides' MM row


def test_mr_output_bound_holds_when_be1_adds_m() -> None:
    """Q^ = Q + M happens (Q < err*M); the output is still < 2P (asserted inside mr)."""
    rng = random.Random(SEED)
    p = int(gmpy2.next_prime(1 << 63))
    ctx = rns.mm_context(p, 16)
    seen = 0
    for _ in range(3000):
        a = rng.randrange(p)
        tr = rns.MrTrace()
        rns.mr(ctx, [(ctx.to_rns(a), ctx.to_rns(1))], tr)
        seen += tr.q_plus_m
    assert seen > 0


@pytest.mark.parametrize("w", [16, 32])
def test_modmul_modexp_random(w: int) -> None:
    rng = random.Random(SEED + w)
    for bits in (16, 17, 64, 100, 192, 256) + ((512, 1024) if w == 32 else ()):
        for _ in range(max(1, vectors() // 4)):
            n = rand_mod(rng, bits)
            a, b = rng.randrange(n), rng.randrange(n)
            assert rns.modmul(a, b, n, {"w": w, "alg": "mm"}).result == a * b % n
            e = rng.getrandbits(min(bits, 64))
            assert rns.modexp(a, e, n, {"w": w, "alg": "mm"}).result == pow(a, e, n)


@pytest.mark.parametrize("w", [16, 32])
def test_edge_cases(w: int) -> None:
    top = rns.MAX_BITS[w]
    for n in ((1 << 15) + 1, (1 << 16) - 1, (1 << top) - 1, (1 << (top - 1)) + 1):
        for a in (0, 1, n - 1):
            for b in (0, 1, n - 1):
                assert rns.modmul(a, b, n, {"w": w}).result == a * b % n
        for e in (0, 1, (1 << 16) - 1):
            assert rns.modexp(n - 1, e, n, {"w": w}).result == pow(n - 1, e, n)
            assert rns.modexp(0, e, n, {"w": w}).result == pow(0, e, n)


def test_errors() -> None:
    cases = [
        (lambda: rns.modmul(1, 2, 1 << 20, MM), Status.ERR_EVEN_MODULUS),
        (lambda: rns.modmul(1, 2, (1 << 14) + 1, MM), Status.ERR_LENGTH),
        (lambda: rns.modmul(1, 2, (1 << 257) + 1, {"w": 16}), Status.ERR_LENGTH),
        (lambda: rns.modmul(1, 2, (1 << 2049) + 1, MM), Status.ERR_LENGTH),
        (lambda: rns.modmul(70000, 2, 65537, MM), Status.ERR_OPERAND_RANGE),
        (lambda: rns.modexp(65537, 2, 65537, MM), Status.ERR_OPERAND_RANGE),
        (lambda: rns.modexp(3, -1, 65537, MM), Status.ERR_OPERAND_RANGE),
        (lambda: rns.modmul(1, 2, 65537, {"w": 8}), Status.ERR_PARAM),
        (lambda: rns.modmul(1, 2, 65537, {"alg": "x"}), Status.ERR_PARAM),
        (lambda: rns.modmul(1, 2, 65537, {"w": 16, "alg": "sbmm"}), Status.ERR_UNSUPPORTED),
        (lambda: rns.ecc_mul("p256", 0, MM), Status.ERR_OPERAND_RANGE),
        (lambda: rns.ecc_mul("p256", rns.P256.order, MM), Status.ERR_OPERAND_RANGE),
        (lambda: rns.ecc_mul("nope", 1, MM), Status.ERR_PARAM),
    ]
    for fn, st in cases:
        with pytest.raises(PkaError) as exc:
            fn()
        assert exc.value.status == st


def test_cycle_model_meets_the_slides() -> None:
    """One MM on n rowers: 2n + 17 cycles; the slides' 50 (n = 13) and 58 (n = 17)."""
    for n, paper in ((13, 50), (13, 50), (17, 58)):
        assert rns.instr_cycles(rns.Instr(rns.UOp.MR, pairs=((1, 2),)), n) == 2 * n + 17 <= paper
    p = int(gmpy2.next_prime(1 << 383))
    r = rns.modmul(3, 5, p, MM)
    assert r.cycles == 2 * 13 + 17 and r.detail["total_cycles"] == 2 * r.cycles


# ---- SBMM --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("bits,w", [(64, 16), (128, 16), (192, 16), (384, 32), (512, 32)])
def test_sbmm_primes(bits: int, w: int) -> None:
    ctx = rns.gen_sbmm_prime(bits, w)
    assert ctx.p == ctx.ma ** 2 - 2 and ctx.p.bit_length() == bits and gmpy2.is_prime(ctx.p)
    assert ctx.ma % 2 == 1 and ctx.mb > 6 * ctx.ma and ctx.nb == ctx.na + 1
    assert rns.gen_sbmm_prime(bits, w) == ctx and rns.sbmm_context(ctx.p, w) == ctx


@pytest.mark.parametrize("bits,w", [(64, 16), (128, 16), (192, 16), (384, 32)])
def test_sbmm_compress_random(bits: int, w: int) -> None:
    rng = random.Random(SEED + bits)
    ctx = rns.gen_sbmm_prime(bits, w)
    p, ma = ctx.p, ctx.ma
    for _ in range(vectors(10)):
        a, b = rng.randrange(p), rng.randrange(p)
        cnt = rns.SbmmCount()
        z = rns.sbmm(ctx, [(rns.sbmm_to(ctx, a), rns.sbmm_to(ctx, b))], cnt)
        kz, rz = rns.sbmm_value(ctx, z)
        assert kz < 5 * ma and rz < 6 * ma                       # the slides' output bounds
        assert (kz * ma + rz) % p == a * b % p
        assert cnt.emm == rns.emm_sbmm(ctx.na, ctx.nb)
        c = rns.compress(ctx, z, cnt)
        kc, rc = rns.sbmm_value(ctx, c)
        assert kc < 3 * ma and rc < 3 * ma and (kc * ma + rc) % p == a * b % p
        assert rns.modmul(a, b, p, {"w": w, "alg": "sbmm"}).result == a * b % p
    e = rng.getrandbits(40)
    assert rns.modexp(a, e, p, {"w": w, "alg": "sbmm"}).result == pow(a, e, p)
    n = ctx.na + ctx.nb
    # n = 2 n_a + 1 (n_b = n_a + 1): exactly the slides' n^2 + 5n plus one EMM per channel (doc/rns.md)
    assert rns.emm_sbmm(ctx.na, ctx.nb) == n * n + 5 * n + n
    assert rns.emm_compress(ctx.na, ctx.nb) == (2 * n, 2 * ctx.na + 2)


def test_sbmm_corrections_are_exercised() -> None:
    """Small operands make Split's K = -1 and Compress's Q = 63 corrections fire (results still
    right); tests/test_rtl_rns.py runs such operands through the RTL, bit-exact."""
    ctx = rns.gen_sbmm_prime(64, 16)
    rng = random.Random(SEED)
    cnt = rns.SbmmCount()
    for _ in range(200):
        a, b = rng.randrange(1 << 12), rng.randrange(1 << 12)
        z = rns.compress(ctx, rns.sbmm(ctx, [(rns.sbmm_to(ctx, a), rns.sbmm_to(ctx, b))], cnt), cnt)
        assert rns.sbmm_from(ctx, z) == a * b % ctx.p
    assert cnt.split_fix > 0 and cnt.compress_fix > 0


def test_sbmm_ladder_program_matches_the_field_ladder() -> None:
    """The SBMM-build microprogram (run_sb_machine) against the independent SbmmField ladder."""
    c = rns.CURVES["small"]
    rng = random.Random(SEED + 3)
    ctx = rns.sbmm_context(c.p, 16)
    cycles = set()
    for k in (1, 2, rng.randrange(1, c.order)):
        r = rns.ecc_mul("small", k, {"w": 16, "alg": "sbmm"})
        f = rns.SbmmField(ctx)
        xx, zz = rns.ladder_xz(f, c, k, c.order.bit_length(), c.gx)
        assert r.result == f.value(xx) * rns.inv(f.value(zz), c.p) % c.p
        cycles.add(r.cycles)
    assert len(cycles) == 1


def test_sb_cycle_model() -> None:
    """SB = SBMM + Compress: T4 + 2 cycles on the sequencer, the Compress tail 6 more beside the
    next instruction; one SB alone (latency) is the slides' 58 / 66 at n_a = 6 / 8."""
    t = rns.sb_times(6, 7)
    assert t["sbmm"] == 51 and t["issue"] == 52 and t["total"] == t["issue"] + rns.SB_TAIL == 58
    t = rns.sb_times(8, 9)
    assert t["sbmm"] == 59 and t["issue"] == 60 and t["total"] == 66
    assert rns.sb_times(6, 7, 3)["issue"] == 52 + 12 and rns.sb_lin_cycles(6) == 3 + rns.SB_TAIL
    ctx = rns.gen_sbmm_prime(64, 16)
    r = rns.modmul(3, 5, ctx.p, {"w": 16, "alg": "sbmm"})
    assert r.cycles == rns.sb_times(2, 3)["total"]


def _sb_chain(prog: list[rns.Instr], na: int, reps: int = 1) -> rns.SbTiming:
    tm = rns.SbTiming()
    for _ in range(reps):
        for it in prog:
            if it.op in (rns.UOp.SB, rns.UOp.ADD, rns.UOp.SUB):
                tm.issue(it.d, [r for pr in it.pairs for r in pr], rns.sb_issue_cycles(it, na, na + 1))
            else:
                tm.step()
    return tm


@pytest.mark.parametrize("na,goal", [(6, 58), (8, 66)])
def test_sb_chains_meet_the_slides(na: int, goal: int) -> None:
    """Chained SBMM products (each with its Compress), per product: a run of squarings (each reads
    the last: it waits for the tail) takes exactly the slides' 58 / 66; independent products overlap
    each Compress with the next SBMM (T4 + 2); the ladder step has no RAW wait left."""
    t = rns.sb_times(na, na + 1)
    sq = _sb_chain([rns._sb(rns.RES, rns.RES, rns.RES), rns.Instr(rns.UOp.IFBIT), rns.Instr(rns.UOp.ENDLOOP)], na, 40)
    assert (sq.halt() - t["total"]) % 39 == 0 and (sq.halt() - t["total"]) // 39 == t["total"] == goal
    ind = _sb_chain([rns._sb(rns.TA + i % 8, rns.IN_A, rns.IN_B) for i in range(40)], na)
    assert ind.halt() == 40 * t["issue"] + rns.SB_TAIL and t["issue"] < goal
    body = rns._sb_ladder_body()
    steps = [_sb_chain(body + [rns.Instr(rns.UOp.ENDLOOP)], na, r) for r in (7, 8)]
    assert steps[1].stall_raw == 0
    sbs = [it for it in body if it.op == rns.UOp.SB]
    lins = [it for it in body if it.op in (rns.UOp.ADD, rns.UOp.SUB)]
    issue = sum(rns.sb_issue_cycles(it, na, na + 1) for it in sbs + lins)
    # every ADD/SUB waits 3 cycles for the tail before it (its own issue is 3, the tail 6); MAP, ENDLOOP
    assert steps[1].halt() - steps[0].halt() == issue + 3 * len(lins) + 2 == {6: 780, 8: 884}[na]


def test_split_kawamura_correction() -> None:
    """X < Ma (K = 0) with the approximate BE giving R + Ma: K = -1 is corrected to 0."""
    ctx = rns.gen_sbmm_prime(64, 16)
    rng = random.Random(SEED)
    fixed = 0
    for _ in range(4000):
        x = rng.randrange(ctx.ma >> 8)
        cnt = rns.SbmmCount()
        k, r = rns._split(ctx, [x % m for m in ctx.chans], cnt)
        assert rns.crt(k, ctx.chans) * ctx.ma + rns.crt(r, ctx.chans) == x
        fixed += rns.crt(k, ctx.chans) == 0 and x < ctx.ma
    assert fixed > 0


# ---- curves and the ladder ---------------------------------------------------------------------------

def test_curves() -> None:
    assert set(rns.CURVES) >= {"p256", "sbmm192", "sbmm384", "sbmm512", "small"}
    for c in rns.CURVES.values():
        assert (c.gy ** 2 - c.gx ** 3 - c.a * c.gx - c.b) % c.p == 0
        assert (4 * c.a ** 3 + 27 * c.b ** 2) % c.p != 0
        rns.check_point(c.name, c.gx, c.gy)
        if c.name.startswith("sbmm"):
            ctx = rns.sbmm_context(c.p, c.w)
            assert ctx.p.bit_length() == int(c.name[4:])  # orders: tests/test_model_rns_curves.py


def test_small_curve_order_counted_exactly() -> None:
    c = rns.CURVES["small"]
    assert rns.bsgs_order(c) == c.order == rns.SMALL_ORDER
    assert rns.affine_mul(c, c.order, (c.gx, c.gy)) is None
    assert c.cofactor == 1   # order of G > 4 sqrt(p), its only multiple in the Hasse interval


def test_small_ecdsa_curve_order() -> None:
    """The ECDSA test curve: G of prime order n with bits(n) = bits(p) (ECDSA_SIGN's requirement)."""
    import gmpy2
    c = rns.CURVES["small_ecdsa"]
    assert rns.bsgs_order(c) == c.order and gmpy2.is_prime(c.order)
    assert c.order.bit_length() == c.p.bit_length() == 64
    assert rns.affine_mul(c, c.order, (c.gx, c.gy)) is None


def test_check_point() -> None:
    c = rns.P256
    for (x, y), why in (((c.p, c.gy), "coordinate out of range"), ((c.gx, c.gy + 1), "point not on curve"),
                        ((0, 0), "point at infinity"), ((-1, 0), "coordinate out of range")):
        with pytest.raises(PkaError) as exc:
            rns.check_point("p256", x, y)
        assert exc.value.status == Status.ERR_NOT_ON_CURVE and str(exc.value) == why


def test_slides_add_formula_reconstruction() -> None:
    """x(P1+P2) = (BA + CD)/Z3 - x_G; the extracted '+ 2X_G Z3' does not give it."""
    c = rns.CURVES["small"]
    p, g = c.p, (c.gx, c.gy)
    p1, p2 = rns.affine_mul(c, 5, g), rns.affine_mul(c, 6, g)
    assert p1 is not None and p2 is not None
    (x1, _), (x2, _) = p1, p2
    z1, z2 = 3, 7
    X1, X2 = x1 * z1 % p, x2 * z2 % p
    A, B, C = (z1 * X2 + z2 * X1) % p, 2 * X1 * X2 % p, 2 * z1 * z2 % p
    D = (c.a * A + c.b * C) % p
    Z3 = (A * A - B * C) % p
    ref = rns.affine_mul(c, 11, g)
    assert ref is not None
    assert (B * A + C * D - c.gx * Z3) * rns.inv(Z3, p) % p == ref[0]
    assert (B * A + C * D + 2 * c.gx * Z3) * rns.inv(Z3, p) % p != ref[0]


def test_p256_against_cryptography() -> None:
    rng = random.Random(SEED)
    for k in [1, 2, rns.P256.order - 1] + [rng.randrange(1, rns.P256.order) for _ in range(max(1, vectors(3) // 3))]:
        x = rns.ecc_mul("p256", k, MM).result
        assert x == ec.derive_private_key(k, ec.SECP256R1()).public_key().public_numbers().x


def test_p256_ecdh_against_cryptography() -> None:
    rng = random.Random(SEED + 1)
    peer = ec.derive_private_key(rng.randrange(1, rns.P256.order), ec.SECP256R1())
    pn = peer.public_key().public_numbers()
    k = rng.randrange(1, rns.P256.order)
    ours = rns.ecc_mul("p256", k, MM, (pn.x, pn.y)).result
    mine = ec.derive_private_key(k, ec.SECP256R1())
    assert ours == int.from_bytes(mine.exchange(ec.ECDH(), peer.public_key()), "big")


def test_ladder_constant_time_and_against_double_and_add() -> None:
    c = rns.CURVES["small"]
    rng = random.Random(SEED)
    cycles = set()
    for k in [1, 2, 3, c.order - 1] + [rng.randrange(1, c.order) for _ in range(vectors(6))]:
        ref = rns.affine_mul(c, k, (c.gx, c.gy))
        assert ref is not None
        r = rns.ecc_mul("small", k, {"w": 16, "alg": "mm"})
        assert r.result == ref[0]
        cycles.add(r.cycles)
    assert len(cycles) == 1   # one cycle count for every scalar on the curve


def test_sbmm_curves_mm_and_sbmm_paths() -> None:
    rng = random.Random(SEED)
    c = rns.CURVES["small"]
    k = rng.randrange(1, c.order)
    ref = rns.affine_mul(c, k, (c.gx, c.gy))
    assert ref is not None and rns.ecc_mul("small", k, {"w": 16, "alg": "sbmm"}).result == ref[0]
    c = rns.CURVES["sbmm192"]
    k = rng.getrandbits(64)
    ref = rns.affine_mul(c, k, (c.gx, c.gy))
    assert ref is not None
    assert rns.ecc_mul("sbmm192", k, {"w": 16, "alg": "mm"}).result == ref[0]


SLOW = pytest.mark.skipif(not os.environ.get("PKA_SLOW"), reason="slow tier: set PKA_SLOW=1 (or run -m slow)")


@pytest.mark.slow
@SLOW
def test_sbmm_curves_slow() -> None:
    rng = random.Random(SEED)
    for name in ("sbmm192", "sbmm384", "sbmm512"):
        c = rns.CURVES[name]
        k = rng.randrange(1, c.p)
        ref = rns.affine_mul(c, k, (c.gx, c.gy))
        assert ref is not None
        assert rns.ecc_mul(name, k, {"w": c.w, "alg": "sbmm"}).result == ref[0]
        assert rns.ecc_mul(name, k, {"w": 32, "alg": "mm"}).result == ref[0]


# ---- the microprogram ----------------------------------------------------------------------------------

def test_ucode_rom_is_generated_from_the_model() -> None:
    assert (REPO / "rtl/engines/rns/pka_rns_ucode.sv").read_text() == rns.ucode_sv()


def test_static_bounds_of_the_programs() -> None:
    """The ladder's largest MR input is 36 P^2 (run_machine tracks the static bound of every register
    and asserts each linear op under its annotation); M leaves room for it at both widths."""
    for prog in rns.PROGRAMS.values():
        for it in prog:
            if it.op in (rns.UOp.MR, rns.UOp.SB):
                assert 1 <= len(it.pairs) <= 3
    c = rns.CURVES["small"]
    ctx = rns.mm_context(c.p, 16)
    for prog, y in (("ecc", c.gy), ("ecc_x", None)):
        inputs = {r: 0 for r in rns.LOADED_REGS}
        inputs.update({rns.ONE: 1, rns.RW: ctx.m * ctx.m % c.p})
        inputs.update(rns.ecc_inputs(c, c.gx, ctx.m, y))
        mach = rns.run_machine(ctx, rns.PROGRAMS[prog], inputs, 5, 8, c.p - 2, c.p.bit_length())
        assert mach.status == 0 and mach.worst_mr_bound == 36
    for p, w in ((rns.P256.p, 32), (c.p, 16)):
        assert rns.mm_context(p, w).max_k_bound() > mach.worst_mr_bound
