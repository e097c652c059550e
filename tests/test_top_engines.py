"""Engine opcodes through pka_top and its bus, against the engines' golden models (results and
compute cycles), plus the sequencer's composite operations on an engine: MODINV (Fermat, checked)
and ECC_CHECK (y^2 = x^3 + ax + b with the engine's MODMUL), and their error codes.

CI runs the composite operations on the hscm build of tests/test_top_hscm.py (MaxLen 512, 2 PEs);
the other engines' builds through the top run in the slow tier (and in bench/top.py)."""

from __future__ import annotations

import os
import random

import pytest

from conftest import SEED
from pka.driver import Pka, session
from pka.errors import PkaError, Status
from pka.model.common import OpResult
from pka.proto.ops import ecc_check_compute, modinv_compute
from pka.sim import Op, Slot

pytestmark = pytest.mark.rtl

VECTORS = int(os.environ.get("PKA_VECTORS", "20"))
VICTOR = {"k": 5, "delta": 10, "eps": 11}
# P-256 and a 127-bit prime field curve (secp128-like shape, y^2 = x^3 - 3x + b)
P256 = (0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF, -3,
        0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B,
        0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
        0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5)


HSCM = {"pes": 2, "w": 16, "window": 0, "ladder": 0}


def _victor() -> Pka:
    return session("victor", VICTOR, 256)


def _hscm() -> Pka:
    return session("hscm", HSCM, 512)


def _mod(rng: random.Random, bits: int) -> int:
    return rng.getrandbits(bits) | 1 | (1 << (bits - 1))


def _same(r: OpResult, m: OpResult) -> None:
    assert r.result == m.result
    assert r.cycles == m.cycles, (r.cycles, m.cycles)


@pytest.mark.slow
@pytest.mark.parametrize("bits", [8, 64, 129, 256])
def test_victor_modexp_modmul_vs_model(bits: int) -> None:
    from pka.model import victor as model
    p = _victor()
    rng = random.Random(bits)
    for i in range(max(2, VECTORS // 5)):
        n = _mod(rng, bits)
        a, e = rng.randrange(n), rng.getrandbits(bits) if i else (1 << bits) - 1
        _same(p.modexp(a, e, n, "victor", params=VICTOR), model.modexp(a, e, n, VICTOR))
        b = rng.randrange(n)
        r = p.modmul(a, b, n, "victor", params=VICTOR)
        m = model.modmul(a, b, n, VICTOR)
        assert r.result == a * b % n and r.cycles == m.detail.get("total_cycles", m.cycles)
    for a, e in ((0, 5), (1, 0), (n - 1, 2)):
        _same(p.modexp(a, e, n, "victor", params=VICTOR), model.modexp(a, e, n, VICTOR))


@pytest.mark.slow
def test_engine_status_comes_through() -> None:
    p = _victor()
    with pytest.raises(PkaError) as e:
        p.modexp(3, 5, 1000, "victor", params=VICTOR)
    assert e.value.status == Status.ERR_EVEN_MODULUS
    with pytest.raises(PkaError) as e:
        p.modmul(1001, 5, 1001, "victor", params=VICTOR)
    assert e.value.status == Status.ERR_OPERAND_RANGE
    assert p.modadd(5, 9, 11).result == 3          # and the block is fine afterwards


@pytest.mark.parametrize("prime", [(1 << 61) - 1, (1 << 127) - 1, P256[0]])
def test_modinv(prime: int) -> None:
    p = _hscm()
    rng = random.Random(SEED + prime)
    for a in [1, 2, prime - 1] + [rng.randrange(1, prime) for _ in range(2)]:
        r = p.modinv(a, prime, "hscm", params=HSCM)
        assert r.result == pow(a, -1, prime)
        assert r.cycles == modinv_compute(a, prime, "hscm", HSCM), a


def test_modinv_errors() -> None:
    p = _hscm()
    q = (1 << 61) - 1
    for a, n, st in ((0, q, Status.ERR_NO_INVERSE), (5, 1 << 64, Status.ERR_EVEN_MODULUS),
                     (q, q, Status.ERR_OPERAND_RANGE), (3, 3 * q, Status.ERR_NO_INVERSE),       # gcd 3
                     (5, 4294967291 * 4294967279, Status.ERR_NO_INVERSE)):   # composite: Fermat fails
        with pytest.raises(PkaError) as e:
            p.modinv(a, n, "hscm", params=HSCM)
        assert e.value.status == st, (a, n)
    # a Carmichael number (Chernick: 5851 * 11701 * 17551), where Fermat works: the checked result is right
    carmichael = 5851 * 11701 * 17551
    assert p.modinv(2, carmichael, "hscm", params=HSCM).result == pow(2, -1, carmichael)


def test_ecc_check() -> None:
    from cryptography.hazmat.primitives.asymmetric import ec

    p = _hscm()
    prime, a, b, gx, gy = P256
    assert p.ecc_check(gx, gy, a, b, prime, "hscm", params=HSCM).cycles == ecc_check_compute(prime, "hscm", HSCM)
    pub = ec.derive_private_key(random.Random(SEED).randrange(1, 1 << 255), ec.SECP256R1()).public_key().public_numbers()
    r = p.ecc_check(pub.x, pub.y, a, b, prime, "hscm", params=HSCM)
    assert r.cycles == ecc_check_compute(prime, "hscm", HSCM)
    assert p.read_slot(Slot.A, 8) == pub.x
    for x, y, st in ((gx, gy + 1, Status.ERR_NOT_ON_CURVE), (gx ^ 1, gy, Status.ERR_NOT_ON_CURVE),
                     (gx, prime, Status.ERR_OPERAND_RANGE), (prime + 1, gy, Status.ERR_OPERAND_RANGE)):
        with pytest.raises(PkaError) as e:
            p.ecc_check(x, y, a, b, prime, "hscm", params=HSCM)
        assert e.value.status == st


def test_ecc_check_coefficients_out_of_range() -> None:
    """The coefficient checks on a point that is on the curve (x, y < p), so only the coefficient can
    be the error: a = p (X0) or b = p (X1) -> ERR_OPERAND_RANGE, each with its own register write,
    and the same point with both coefficients in range passes (the control)."""
    p = _hscm()
    prime, a, b, gx, gy = P256
    p.ecc_check(gx, gy, a, b, prime, "hscm", params=HSCM)             # the control: on the curve
    for slot in (Slot.X0, Slot.X1):
        p.write_slot(Slot.A, gx, 8)
        p.write_slot(Slot.B, gy, 8)
        p.write_slot(Slot.X0, a % prime, 8)
        p.write_slot(Slot.X1, b, 8)
        p.write_slot(slot, prime, 8)                                   # the one coefficient out of range
        with pytest.raises(PkaError) as e:
            p.run(Op.ECC_CHECK, 256)
        assert e.value.status == Status.ERR_OPERAND_RANGE, slot
    p.ecc_check(gx, gy, a, b, prime, "hscm", params=HSCM)             # and nothing stuck


@pytest.mark.slow
def test_modinv_and_ecc_check_on_victor() -> None:
    p = _victor()
    for prime in (251, 65521, (1 << 127) - 1):
        assert p.modinv(123 % prime, prime, "victor", params=VICTOR).result == pow(123 % prime, -1, prime)
    for a, n, st in ((0, 251, Status.ERR_NO_INVERSE), (5, 250, Status.ERR_EVEN_MODULUS), (5, 91, Status.ERR_NO_INVERSE)):
        with pytest.raises(PkaError) as e:
            p.modinv(a, n, "victor", params=VICTOR)
        assert e.value.status == st
    assert p.modinv(2, 561, "victor", params=VICTOR).result == pow(2, -1, 561)   # Carmichael: checked, right
    prime, a, b, gx, gy = P256
    p.ecc_check(gx, gy, a, b, prime, "victor", params=VICTOR)
    with pytest.raises(PkaError) as e:
        p.ecc_check(gx, gy + 1, a, b, prime, "victor", params=VICTOR)
    assert e.value.status == Status.ERR_NOT_ON_CURVE


@pytest.mark.slow
def test_rsa_2048_crt_through_the_bus_victor() -> None:
    """pka.rsa.sign with the bus backend (two MODEXP through pka_top + host Garner), verified by
    cryptography: what `pka rsa --backend rtl` does once wired to pka.driver."""
    from pka import rsa
    from pka.driver import backend
    key = rsa.generate_key(2048, seed=SEED)
    sig = rsa.sign(key, b"pka_top", backend("victor"), VICTOR, crt=True)
    assert sig.verified
    assert sig.cycles == checked_modexp_compute(key, b"pka_top", VICTOR)


def checked_modexp_compute(key: object, message: bytes, params: dict) -> int:
    """COMPUTE of the signature on an engine without RSA_CRT (pka.driver.Backend.rsa_crt): MODEXP
    with d, checked with e before release (pka_top_seq KExp: the engine's MODEXP m^d, its MODEXP
    s^e over bits(e), the compare pass, 3W; the scan of SLOT_EPUB is overhead)."""
    from pka.model import victor as model
    from pka.proto import rsa as prsa
    ck = prsa.crt_key(key)                                                  # type: ignore[arg-type]
    nb = ck.n.bit_length()
    m = prsa.encode(nb, message, False, "sha256", None)
    s = pow(m, ck.d, ck.n)
    return (model.modexp(m, ck.d, ck.n, params).cycles + model.modexp(s, ck.e, ck.n, params).cycles
            + 3 * -(-nb // 32))


@pytest.mark.slow
def test_checked_modexp_signature_on_victor_512() -> None:
    """The path of the RSA-2048 test above on a 512-bit key: its COMPUTE as checked_modexp_compute."""
    from pka import rsa
    from pka.driver import backend
    key = rsa.generate_key(512, seed=SEED)
    sig = rsa.sign(key, b"pka_top", backend("victor"), VICTOR, crt=True)
    assert sig.verified
    assert sig.cycles == checked_modexp_compute(key, b"pka_top", VICTOR)


RNS = {"w": 16, "alg": "mm"}


def test_rns_through_the_bus_small(monkeypatch: pytest.MonkeyPatch) -> None:
    """rns in pka_top (64-bit build, w = 16): MODEXP and MODMUL with the operands written as residue
    vectors by the driver (the engine's layout), and ECC_MUL on the small curve, each against the
    rns model (results and compute cycles, blinding off: the model's unblinded ladder); an SBMM
    request is refused with ERR_UNSUPPORTED. (Blinded ECC_MUL through the top: tests/test_top_ct.py.)"""
    from pka import driver
    from pka.driver import backend
    from pka.model import rns as model
    monkeypatch.setattr(driver, "DEFAULT_BLINDING", False)
    p = session("rns", RNS, 64)
    rng = random.Random(64)
    for _ in range(max(2, VECTORS // 10)):
        n = _mod(rng, rng.choice((40, 64)))
        a, b, e = rng.randrange(n), rng.randrange(n), rng.getrandbits(rng.choice((1, 20, 64)))
        _same(p.modexp(a, e, n, "rns", params=RNS), model.modexp(a, e, n, RNS))
        r = p.modmul(a, b, n, "rns", params=RNS)
        m = model.modmul(a, b, n, RNS)
        assert r.result == a * b % n and r.cycles == m.detail["total_cycles"]
    assert p.modadd(5, 9, 11).result == 3          # the sequencer's own op after rns
    c = model.CURVES["small"]
    for k in (1, 2, rng.randrange(1, c.order), c.order - 1):
        r = backend("rns").ecc_mul("small", k, RNS)
        _same(r, model.ecc_mul("small", k, RNS))
    with pytest.raises(PkaError) as exc:
        p.modmul(3, 5, 101, "rns", params={"w": 16, "alg": "sbmm"})
    assert exc.value.status == Status.ERR_UNSUPPORTED


@pytest.mark.slow
def test_p256_ecdh_through_the_bus_rns() -> None:
    from cryptography.hazmat.primitives.asymmetric import ec
    from pka.driver import backend
    k = 0x1234_5678_9ABC_DEF0_1122_3344_5566_7788
    peer = ec.derive_private_key(987654321, ec.SECP256R1()).public_key().public_numbers()
    r = backend("rns").ecc_mul("p256", k, {"w": 32, "alg": "mm"}, (peer.x, peer.y))
    mine = ec.derive_private_key(k, ec.SECP256R1())
    peer_key = ec.EllipticCurvePublicNumbers(peer.x, peer.y, ec.SECP256R1()).public_key()
    assert int.from_bytes(mine.exchange(ec.ECDH(), peer_key), "big") == r.result


@pytest.mark.slow
@pytest.mark.parametrize("engine,params", [("csa2", {"variant": "fast", "l": 0}), ("csa2", {"variant": "paper", "l": 0}),
                                           ("mwr4", {"radix": 4, "ns": 8, "w": 16}), ("mwr4", {"radix": 2, "ns": 4, "w": 8})])
def test_montgomery_engines_vs_model(engine: str, params: dict) -> None:
    """csa2 and mwr4 through the top: SLOT_W made by MONT_PARAMS in hardware, results and cycles
    equal to the engines' models; MODINV and ECC_CHECK on them; mwr4's MONTMUL."""
    import importlib
    model = importlib.import_module(f"pka.model.{engine}")
    rng = random.Random(7)
    for bits in (64, 200, 256):
        p = session(engine, params, bits)
        n = _mod(rng, bits)
        a, b, e = rng.randrange(n), rng.randrange(n), rng.getrandbits(bits)
        _same(p.modexp(a, e, n, engine, params=params), model.modexp(a, e, n, params))
        r, m = p.modmul(a, b, n, engine, params=params), model.modmul(a, b, n, params)
        assert r.result == a * b % n and r.cycles == m.detail.get("total_cycles", m.cycles)
        if engine == "mwr4":
            _same(p.montmul(a, b, n, engine), model.montmul(a, b, n, params))
    prime = P256[0]
    p = session(engine, params, 256)
    assert p.modinv(12345, prime, engine, params=params).result == pow(12345, -1, prime)
    _, a, b, gx, gy = P256
    p.ecc_check(gx, gy, a, b, prime, engine, params=params)
    with pytest.raises(PkaError) as err:
        p.ecc_check(gx, gy ^ 2, a, b, prime, engine, params=params)
    assert err.value.status == Status.ERR_NOT_ON_CURVE


MONT_BUILD = (("Csa2ChunkW", 32), ("Mwr4Ns", 4), ("Mwr4Radix", 4), ("Mwr4W", 16))


def test_mont_params_with_the_engines_own_r() -> None:
    """MONT_PARAMS with ELEN = 0xFFFF: the hardware knows each engine's Montgomery exponent (csa2
    n + 2, mwr4 k D), so W = 2^(2r) mod N needs no r from the host; without CMD.ENGINE, the r of the
    engine MODMUL's dispatch picks (mwr4 before csa2). hscm and rns: tests/test_top_ecdsa.py."""
    from pka.driver import profile
    from pka.rtl.top import TopConfig, TopSim
    mw = {"radix": 4, "ns": 4, "w": 16}
    with TopSim(TopConfig(256, ("csa2", "mwr4"), MONT_BUILD)) as sim:
        p = Pka(sim)
        rng = random.Random(SEED)
        for bits in (33, 61, 200, 256):
            n = _mod(rng, bits)
            for name, params in (("csa2", {"variant": "fast", "l": 0}), ("mwr4", mw)):
                r = profile(name).r(bits, params)     # type: ignore[misc]
                assert p.mont_params_engine(n, bits, name).result == pow(2, 2 * r, n), (name, bits)
            assert p.mont_params_engine(n, bits).result == pow(2, 2 * profile("mwr4").r(bits, mw), n)  # type: ignore[misc]
            a, b = rng.randrange(n), rng.randrange(n)
            assert p.modmul(a, b, n, "mwr4", params=mw).result == a * b % n
