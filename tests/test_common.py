"""Shared model helpers: Montgomery constants, recodings, CRT, RSA encoding."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pka.errors import PkaError, Status
from pka.model.common import (CrtKey, OpResult, crt_garner, exp_bits_lsb_first, exp_bits_msb_first, inv_mod,
                              neg_inv_pow2, powmod, r2_mod, sliding_windows)


@given(st.integers(min_value=1, max_value=2**300).map(lambda x: 2 * x + 1), st.integers(1, 70))
def test_neg_inv_pow2(m: int, bits: int) -> None:
    mu = neg_inv_pow2(m, bits)
    assert 0 <= mu < 2**bits and (m * mu + 1) % 2**bits == 0


def test_errors() -> None:
    with pytest.raises(PkaError) as e:
        neg_inv_pow2(10, 8)
    assert e.value.status == Status.ERR_EVEN_MODULUS
    with pytest.raises(PkaError) as e:
        inv_mod(6, 9)
    assert e.value.status == Status.ERR_NO_INVERSE


def test_r2() -> None:
    assert r2_mod(101, 10) == (2**20) % 101


@given(st.integers(0, 2**200), st.integers(1, 7))
@settings(max_examples=300)
def test_sliding_windows_reconstruct(e: int, k: int) -> None:
    acc = 0
    for squarings, value in sliding_windows(e, k):
        assert value == 0 or (value % 2 == 1 and value < 2**k)
        acc = (acc << squarings) + value
    assert acc == e


def test_exp_bits() -> None:
    assert list(exp_bits_lsb_first(0b1101, 5)) == [1, 0, 1, 1, 0]
    assert list(exp_bits_msb_first(0b1101)) == [1, 1, 0, 1]
    assert list(exp_bits_msb_first(0)) == []


def test_crt_key_and_garner() -> None:
    rng = random.Random(1)
    p, q = 1000003, 999983
    key = CrtKey.from_pq(p, q)
    for _ in range(50):
        m = rng.randrange(key.n)
        s = crt_garner(powmod(m, key.dp, p), powmod(m, key.dq, q), key)
        assert s == powmod(m, key.d, key.n)
    assert (key.qinv * q) % p == 1 and (key.pinv * p) % q == 1


def test_rsa_sign_with_reference_backend() -> None:
    """pka.rsa encodes, signs and verifies correctly with a plain-pow backend, with and without CRT."""
    from pka import rsa

    calls: list[int] = []

    def modexp(b: int, e: int, m: int, params: dict[str, object]) -> OpResult:
        calls.append(m)
        return OpResult(powmod(b, e, m), 1)

    backend = SimpleNamespace(modexp=modexp)
    key = rsa.generate_key(1024)
    for crt in (False, True):
        sig = rsa.sign(key, b"hello", backend, {}, crt)  # type: ignore[arg-type]
        assert sig.verified
    assert len(calls) == 3  # one mod n, two mod p/q
    bad = SimpleNamespace(modexp=lambda b, e, m, p: OpResult(powmod(b, e, m) ^ 1, 1))
    assert not rsa.sign(key, b"hello", bad, {}, False).verified  # type: ignore[arg-type]
