"""RSA signatures on a pka engine: keys from `cryptography`, PKCS#1 v1.5 signing with our
arithmetic, verification with `cryptography`.

With CRT, an engine that has its own CRT path (`rsa_crt(m, key, params)`, e.g. hscm) runs it;
any other engine runs the two half-size exponentiations with its `modexp` and the host recombines
them (Garner); the cycles are then the sum of the two exponentiations (one engine, sequential).
"""

from __future__ import annotations

import hashlib
import inspect
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from pka.model.common import CrtKey, OpResult, crt_garner

# DER prefix of DigestInfo for SHA-256 (RFC 8017, section 9.2, note 1).
SHA256_DIGESTINFO = bytes.fromhex("3031300d060960864801650304020105000420")


def generate_key(bits: int, e: int = 65537) -> rsa.RSAPrivateKey:
    """An RSA key of `bits` bits. `cryptography` generates keys of 1024 bits and more; below that
    (512..1022 bits, for quick runs on small engine builds) two random primes of bits/2 bits each
    (top two bits set, so p*q has exactly `bits` bits, and gcd(e, p-1) = gcd(e, q-1) = 1) are drawn
    here and handed to `cryptography` as RSAPrivateNumbers, which then signs and verifies as usual."""
    if bits >= 1024:
        return rsa.generate_private_key(public_exponent=e, key_size=bits)
    import secrets

    import gmpy2

    def prime(nbits: int) -> int:
        while True:
            c = secrets.randbits(nbits) | (3 << (nbits - 2)) | 1
            if gmpy2.is_prime(c, 40) and gmpy2.gcd(e, c - 1) == 1:
                return c

    half = bits // 2
    p = prime(half)
    q = prime(half)
    while q == p:
        q = prime(half)
    d = int(gmpy2.invert(e, (p - 1) * (q - 1)))
    pub = rsa.RSAPublicNumbers(e, p * q)
    return rsa.RSAPrivateNumbers(p, q, d, d % (p - 1), d % (q - 1), int(gmpy2.invert(q, p)), pub).private_key()


def crt_key(key: rsa.RSAPrivateKey) -> CrtKey:
    nums = key.private_numbers()
    return CrtKey.from_pq(nums.p, nums.q, nums.public_numbers.e)


def emsa_pkcs1_v15(message: bytes, k: int) -> int:
    """EMSA-PKCS1-v1_5 encoding of SHA-256(message) into a k-byte integer (RFC 8017, 9.2)."""
    t = SHA256_DIGESTINFO + hashlib.sha256(message).digest()
    if k < len(t) + 11:
        raise ValueError("modulus too short for PKCS#1 v1.5 with SHA-256")
    em = b"\x00\x01" + b"\xff" * (k - len(t) - 3) + b"\x00" + t
    return int.from_bytes(em, "big")


def call(fn: Callable[..., Any], *args: Any, progress: Callable[[int], None] | None = None) -> Any:
    """Call an engine function, passing `progress` only to functions that take it."""
    if progress is not None and "progress" in inspect.signature(fn).parameters:
        return fn(*args, progress=progress)
    return fn(*args)


@dataclass(frozen=True)
class Signature:
    signature: bytes
    verified: bool
    cycles: int | None
    detail: dict[str, Any]


def sign(key: rsa.RSAPrivateKey, message: bytes, backend: ModuleType, params: dict[str, Any], crt: bool,
         progress: Callable[[int], None] | None = None) -> Signature:
    ck = crt_key(key)
    k = (ck.n.bit_length() + 7) // 8
    m = emsa_pkcs1_v15(message, k)
    detail: dict[str, Any] = {}
    if crt and hasattr(backend, "rsa_crt"):
        res: OpResult = call(backend.rsa_crt, m, ck, params, progress=progress)
        s, cycles = res.result, res.cycles
        detail.update(res.detail, path="engine CRT")
    elif crt:
        rp = call(backend.modexp, m % ck.p, ck.dp, ck.p, params, progress=progress)
        rq = call(backend.modexp, m % ck.q, ck.dq, ck.q, params, progress=progress)
        s = crt_garner(rp.result, rq.result, ck)
        cycles = None if rp.cycles is None or rq.cycles is None else rp.cycles + rq.cycles
        detail.update(path="two modexp + host Garner", cycles_p=rp.cycles, cycles_q=rq.cycles)
    else:
        res = call(backend.modexp, m, ck.d, ck.n, params, progress=progress)
        s, cycles = res.result, res.cycles
        detail.update(res.detail, path="modexp mod n")
    sig = s.to_bytes(k, "big")
    try:
        key.public_key().verify(sig, message, padding.PKCS1v15(), hashes.SHA256())
        verified = True
    except InvalidSignature:
        verified = False
    return Signature(sig, verified, cycles, detail)
