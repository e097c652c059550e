"""Golden model of rns: the checked ECC_MUL (input point on the curve, y recovery, output check),
the x-only ECC_MUL, MODEXP_CT (constant time) and the wipe's cycle count (issue 13 items 3 and 6,
issue 14 item 1). Bit-faithful microprogram runs; the RTL is held to the same in tests/test_rtl_rns.py.
"""

from __future__ import annotations

import random

import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from conftest import SEED, vectors
from pka.errors import PkaError, Status
from pka.model import rns

SMALL = rns.CURVES["small"]
MM16 = {"w": 16, "alg": "mm"}
MM32 = {"w": 32, "alg": "mm"}
P256_CHECKED_CYCLES = 136_244     # checked P-256 k*G (was 135,480 for x and Z, unchecked)
P256_XONLY_CYCLES = 135_448       # ECC_MUL ARG[0] = 1 (x only, Z no longer written)


def _point(c: rns.Curve, k: int) -> tuple[int, int]:
    pt = rns.affine_mul(c, k, (c.gx, c.gy))
    assert pt is not None
    return pt


def test_checked_ecc_small_curve_point_and_constant_time() -> None:
    rng = random.Random(SEED)
    cycles = set()
    for k in [1, 2, 3, SMALL.order - 2, SMALL.order - 1] + [rng.randrange(1, SMALL.order) for _ in range(vectors(8))]:
        r = rns.ecc_mul("small", k, MM16)
        assert (r.result, r.detail["y"]) == _point(SMALL, k)
        cycles.add(r.cycles)
    assert len(cycles) == 1


def test_checked_p256_against_cryptography() -> None:
    rng = random.Random(SEED + 13)
    for k in [1, rns.P256.order - 1, rng.randrange(1, rns.P256.order)]:
        r = rns.ecc_mul("p256", k, MM32)
        pub = ec.derive_private_key(k, ec.SECP256R1()).public_key().public_numbers()
        assert (r.result, r.detail["y"]) == (pub.x, pub.y)
        assert r.cycles == P256_CHECKED_CYCLES <= 150_000
    # a peer's point (ECDH): the whole shared point
    peer = ec.derive_private_key(rng.randrange(1, rns.P256.order), ec.SECP256R1()).public_key().public_numbers()
    k = rng.randrange(1, rns.P256.order)
    r = rns.ecc_mul("p256", k, MM32, (peer.x, peer.y))
    assert (r.result, r.detail["y"]) == rns.affine_mul(rns.P256, k, (peer.x, peer.y))


def test_wrong_y_is_refused_by_the_engine_before_the_ladder() -> None:
    ctx, good = rns.ecc_machine(SMALL, 5, SMALL.gx, SMALL.gy, 16)
    for y in ((SMALL.gy + 1) % SMALL.p, 0, SMALL.p - 1):
        ctx, m = rns.ecc_machine(SMALL, 5, SMALL.gx, y, 16)
        assert m.status == Status.ERR_NOT_ON_CURVE
        assert m.cycles < 300 < good.cycles and m.out() == (((0,) * ctx.n,) * 2,) * 2
        assert m.counts.get("LOOP", 0) == 0          # no ladder step ran
    with pytest.raises(PkaError) as exc:
        rns.ecc_mul("small", 5, MM16, (SMALL.gx, (SMALL.gy + 1) % SMALL.p))
    assert exc.value.status == Status.ERR_NOT_ON_CURVE
    with pytest.raises(PkaError) as exc:          # out of range: refused on the host
        rns.ecc_mul("small", 5, MM16, (SMALL.gx, SMALL.gy + SMALL.p))
    assert exc.value.status == Status.ERR_NOT_ON_CURVE


def test_infinity_and_the_minus_p_case() -> None:
    """P of order 7 (SMALL's order is 7 * ...): 7 P = O ends with ERR_INFINITY and zeros; 6 P = -P
    is the case (k+1) P = O, where D = 0 and the CMOVs select (x, -y)."""
    p7 = _point(SMALL, SMALL.order // 7)
    assert rns.affine_mul(SMALL, 7, p7) is None
    ctx, m = rns.ecc_machine(SMALL, 7, p7[0], p7[1], 16)
    assert m.status == Status.ERR_INFINITY and m.out()[0] == ((0,) * ctx.n,) * 2
    with pytest.raises(PkaError) as exc:
        rns.ecc_mul("small", 7, MM16, p7)
    assert exc.value.status == Status.ERR_INFINITY
    for k in (1, 6, 8, 13):
        r = rns.ecc_mul("small", k, MM16, p7)
        assert (r.result, r.detail["y"]) == rns.affine_mul(SMALL, k, p7)
    assert rns.ecc_mul("small", 6, MM16, p7).detail["y"] == (SMALL.p - p7[1]) % SMALL.p


def test_point_with_y_zero_on_wei25519() -> None:
    """Wei25519 (cofactor 8) has the point of order 2 (A/3, 0) (Curve25519's u = 0): odd k give it
    back (x, 0) through the (k+1) P = O path, even k the point at infinity."""
    c = rns.WEI25519
    t = (rns.X25519_A3, 0)
    assert (t[0] ** 3 + c.a * t[0] + c.b) % c.p == 0
    r = rns.ecc_mul("wei25519", 3, MM32, t)
    assert (r.result, r.detail["y"]) == t
    with pytest.raises(PkaError) as exc:
        rns.ecc_mul("wei25519", 2, MM32, t)
    assert exc.value.status == Status.ERR_INFINITY


def test_y_recovery_formula_on_random_points() -> None:
    """Okeya-Sakurai / Brier-Joye in the projective form of the microprogram, on affine values."""
    rng = random.Random(SEED + 3)
    c = SMALL
    for _ in range(20):
        k = rng.randrange(2, c.order - 2)
        q0, q1, (x, y) = _point(c, k), _point(c, k + 1), (c.gx, c.gy)
        z0, z1 = rng.randrange(1, c.p), rng.randrange(1, c.p)
        X0, X1 = q0[0] * z0 % c.p, q1[0] * z1 % c.p
        n = (2 * c.b * z0 * z0 * z1 + z1 * (c.a * z0 + x * X0) * (X0 + x * z0) - X1 * (X0 - x * z0) ** 2) % c.p
        d = 2 * y * z0 * z0 * z1 % c.p
        inv = pow(d, -1, c.p)
        assert (X0 * 2 * y * z0 * z1 * inv % c.p, n * inv % c.p) == q0


def test_fault_in_the_ladder_is_caught_by_the_output_check() -> None:
    """A corrupted ladder register (the model with one wrong intermediate) ends with ERR_FAULT and
    zeros; the same fault with the output check removed releases a wrong point."""
    c, k = SMALL, 0x1234567
    ctx, good = rns.ecc_machine(c, k, c.gx, c.gy, 16)
    step = good.steps // 2                             # inside the ladder
    fault = rns.value_fault(step, rns.L1X, 12345)
    ctx, bad = rns.ecc_machine(c, k, c.gx, c.gy, 16, fault=fault)
    assert bad.status == Status.ERR_FAULT and bad.cycles == good.cycles
    assert bad.out() == (((0,) * ctx.n,) * 2,) * 2
    with pytest.raises(PkaError) as exc:
        rns.ecc_mul_mm(c, k, c.gx, c.gy, 16, fault=fault)
    assert exc.value.status == Status.ERR_FAULT
    ctx, m = rns.ecc_machine(c, k, c.gx, c.gy, 16, fault=fault, fault_check=False)   # RTL FaultCheck = 0
    assert m.status == Status.OK and m.cycles == good.cycles
    x, y = (ctx.from_rns(v) % c.p for v in m.out())
    assert (x, y) != _point(c, k) and (y * y - x ** 3 - c.a * x - c.b) % c.p != 0   # released, wrong


def test_fault_campaign_releases_no_wrong_point() -> None:
    """Random value faults (seeded) anywhere in the program: each is masked (right point, OK) or
    detected (ERR_FAULT, or ERR_INFINITY / ERR_NOT_ON_CURVE if it hits the early checks' inputs);
    none releases a wrong point with OK."""
    c, k = SMALL, 0xBEEF
    ctx, good = rns.ecc_machine(c, k, c.gx, c.gy, 16)
    rng = random.Random(SEED + 99)
    seen = {"masked": 0, "detected": 0}
    for _ in range(vectors(30)):
        fault = rns.value_fault(rng.randrange(good.steps), rng.randrange(1, rns.NUM_REGS), rng.randrange(1, c.p))
        ctx, m = rns.ecc_machine(c, k, c.gx, c.gy, 16, fault=fault)
        if m.status == Status.OK:
            assert m.out() == good.out(), "a wrong point was released"
            seen["masked"] += 1
        else:
            assert m.out() == (((0,) * ctx.n,) * 2,) * 2
            seen["detected"] += 1
    assert seen["detected"] > 0 and seen["masked"] > 0


def test_x_only_entry() -> None:
    rng = random.Random(SEED + 5)
    for k in [1, SMALL.order - 1, rng.randrange(1, SMALL.order)]:
        r = rns.ecc_mul_x("small", k, SMALL.gx, MM16, SMALL.order.bit_length())
        assert r.result == _point(SMALL, k)[0] and not r.detail["infinity"]
    ctx, m = rns.ecc_machine(SMALL, 3, SMALL.gx, None, 16)
    assert m.status == Status.OK and m.out()[1] == ((0,) * ctx.n,) * 2          # R_HI = 0, not Z
    p7 = _point(SMALL, SMALL.order // 7)
    r = rns.ecc_mul_x("small", 14, p7[0], MM16, 8)
    assert r.result == 0 and r.detail["infinity"] and r.detail["status"] == Status.ERR_INFINITY
    k = rng.randrange(1, rns.P256.order)
    r = rns.ecc_mul_x("p256", k, rns.P256.gx, MM32, 256)
    assert r.result == _point(rns.P256, k)[0] and r.cycles == P256_XONLY_CYCLES


@pytest.mark.parametrize("alg,w,bits", [("mm", 16, 64), ("mm", 32, 256), ("sbmm", 16, 64)])
def test_modexp_ct_one_cycle_count_and_plain_modexp_varies(alg: str, w: int, bits: int) -> None:
    """MODEXP_CT over >= 100 random exponents of one length: one cycle count (the closed form on the
    MM build); plain MODEXP over the same exponents: several (the test can fail)."""
    rng = random.Random(SEED + bits)
    mod = rns.gen_sbmm_prime(64, 16).p if alg == "sbmm" else rng.getrandbits(bits) | 1 | (1 << (bits - 1))
    elen = 64 if bits == 64 else 48
    base = rng.randrange(mod)
    ct, plain = set(), set()
    for i in range(100 if bits == 64 else 12):
        e = rng.getrandbits(elen)
        r = rns.modexp_ct(base, e, mod, {"w": w, "alg": alg}, elen)
        assert r.result == pow(base, e, mod)
        ct.add(r.cycles)
        if i < 12:
            plain.add(rns.modexp(base, e, mod, {"w": w, "alg": alg}).cycles)
    assert len(ct) == 1 and len(plain) > 1
    if alg == "mm":
        assert ct == {rns.modexp_ct_cycles(rns.mm_context(mod, w).n, elen)}
    for e in (0, 1, (1 << elen) - 1):                      # edge exponents, same count
        r = rns.modexp_ct(base, e, mod, {"w": w, "alg": alg}, elen)
        assert r.result == pow(base, e, mod) and r.cycles in ct
    with pytest.raises(PkaError) as exc:
        rns.modexp_ct(base, 1 << elen, mod, {"w": w, "alg": alg}, elen)
    assert exc.value.status == Status.ERR_OPERAND_RANGE


def test_wipe_cycles() -> None:
    assert rns.wipe_cycles(64, 16) == rns.wipe_cycles(256, 32) == 32          # 5 / 9 rowers: 32 RF words
    assert rns.wipe_cycles(512, 32) == 12 + 2 * 17                            # 17 rowers: the constants
    assert rns.wipe_cycles(64, 16, sbmm=True) == rns.wipe_cycles(512, 32, sbmm=True) == 64
