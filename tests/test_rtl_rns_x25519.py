"""X25519 on the rns RTL (pka_rns_core, ECC_MUL with ARG[2]): u and cycles equal to the model and to
`cryptography` on random vectors, the random Z, low-order u, and another modulus refused."""

from __future__ import annotations

import random

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from conftest import SEED, vectors
from pka.errors import Status
from pka.model import rns as model
from pka.proto import x25519
from pka.rtl import rns as rtl
from test_model_rns_x25519 import LOW_ORDER_U, X25519_CYCLES, X25519_RZ_CYCLES, _other_prime

P = {"w": 32}


def _ref(k: int, u: int) -> int:
    out = X25519PrivateKey.from_private_bytes(k.to_bytes(32, "little")).exchange(
        X25519PublicKey.from_public_bytes(u.to_bytes(32, "little")))
    return int.from_bytes(out, "little")


def test_random_vectors_equal_the_model_and_cryptography() -> None:
    rng = random.Random(SEED + 2561)
    for i in range(vectors(3)):
        k = x25519.decode_scalar(rng.randbytes(32))
        u = rng.randrange(2, model.X25519_P) if i % 2 else 9
        got = rtl.x25519_mul(k, u, P)
        want = model.x25519_mul(k, u, P)
        assert got.result == want.result == _ref(k, u)
        assert got.cycles == want.cycles == X25519_CYCLES


def test_random_z() -> None:
    rng = random.Random(SEED + 2562)
    k, u = x25519.decode_scalar(rng.randbytes(32)), rng.randrange(2, model.X25519_P)
    z = [rng.getrandbits(32) for _ in range(model.rz_words(model.mm_context(model.X25519_P, 32)))]
    got = rtl.x25519_mul(k, u, P, z_words=z)
    assert got.result == _ref(k, u) and got.cycles == X25519_RZ_CYCLES


def test_low_order_u_ends_at_infinity_with_zeros() -> None:
    k = x25519.decode_scalar(random.Random(SEED + 2563).randbytes(32))
    for u in (LOW_ORDER_U[0], LOW_ORDER_U[2]):
        _, res, r = rtl.x25519_raw(k, u, 32)
        assert res.status == Status.ERR_INFINITY and r == 0


def test_another_modulus_is_refused() -> None:
    """The inversion chain serves 2^255 - 19 only; the engine checks its inverse (ERR_UNSUPPORTED,
    zeros) as the model does (tests/test_model_rns_x25519.py shows the wrong u released without it)."""
    p = _other_prime()
    k = x25519.decode_scalar(random.Random(SEED + 2564).randbytes(32))
    _, res, r = rtl.x25519_raw(k, 9, 32, p=p)
    _, mach = model.x25519_machine(k, 9, 32, p=p)
    assert res.status == mach.status == Status.ERR_UNSUPPORTED and r == 0
    assert res.cycles == mach.cycles


def test_zero_scalar_is_refused_as_the_model_does() -> None:
    """k = 0: the engine's load ends with ERR_OPERAND_RANGE; the model and the backends refuse it."""
    _, res, r = rtl.x25519_raw(0, 9, 32)
    assert res.status == Status.ERR_OPERAND_RANGE and r == 0
