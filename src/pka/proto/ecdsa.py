"""ECDSA on P-256 and P-384 (FIPS 186-5 / SEC 1) with the scalar multiplications on a backend.

Nonces
    "rfc6979"  deterministic, RFC 6979 section 3.2 (HMAC with the message's hash), implemented here
               with hmac/hashlib and checked against the RFC's A.2.5 vectors;
    "random"   HMAC-DRBG (SP 800-90A, SHA-256) seeded from the OS entropy source, or from `seed`
               (reproducible runs and tests only: whoever knows the seed knows the key).

Signing on the RTL backend: the accelerator's ECDSA_SIGN (one command on a build holding rns and
hscm, doc/top.md). With nonce "random" the nonce comes from its entropy port (in simulation a seeded
source: `seed`); with "rfc6979" the host makes the nonce (an HMAC of d and the hash) and writes it to
the write-only SLOT_P (ARG[8]). Either way k is never readable and k^-1 and s are made inside.
On the model backend the signature is host-composed (k G on the rns model's ECC_MUL, x only:
r = x mod n; s = k^-1 (e + r d) mod n on the host) and its cycles are the count the accelerator's
ECDSA_SIGN takes (pka.rtl.top.ecdsa_compute, first signature of a session, blinding off), so that
both backends report the same figure; the result's detail names the path.

Verification (host-composed from the backend's ladders, exact): with w = s^-1, u1 = e w, u2 = r w,
    R = u1 G + u2 Q = u1 (G + c Q),  c = u2 / u1 mod n
c Q as a whole point from one checked ECC_MUL (x and y; two ladders and host y recovery on a
backend without y: pka.proto.ecdh), T = G + c Q by the affine group law on the host, then x(u1 T) on
the backend: two ladders (u1 = 0: R = u2 Q, one ladder). Invalid input (r or s outside [1, n), Q off the curve, R at
infinity) gives valid = False, never an error.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import dataclass, field
from typing import Any, Callable

from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature

from pka.errors import PkaError, Status
from pka.proto.backend import Backend
from pka.proto.ecdh import Point, curve, point_mul, scalar_mult

CURVES = ("p256", "p384")
DEFAULT_HASH = {"p256": "sha256", "p384": "sha384"}
HASHES = ("sha256", "sha384", "sha512")
RTL_SIGN_PATH = "ECDSA_SIGN: k^-1 and s inside the accelerator (rns k*G, hscm mod n)"


def check_curve(name: str) -> Any:
    if name not in CURVES:
        raise PkaError(Status.ERR_UNSUPPORTED, f"ECDSA serves P-256 and P-384, not {name}")
    return curve(name)


def check_hash(name: str) -> str:
    h = name.lower().replace("-", "")
    if h not in HASHES:
        raise PkaError(Status.ERR_PARAM, f"hash {name!r} not supported ({', '.join(HASHES)})")
    return h


# ---- RFC 6979 -----------------------------------------------------------------------------------

def bits2int(b: bytes, qlen: int) -> int:
    x = int.from_bytes(b, "big")
    blen = 8 * len(b)
    return x >> (blen - qlen) if blen > qlen else x


def int2octets(x: int, qlen: int) -> bytes:
    return x.to_bytes((qlen + 7) // 8, "big")


def bits2octets(b: bytes, q: int) -> bytes:
    qlen = q.bit_length()
    z = bits2int(b, qlen)
    return int2octets(z - q if z >= q else z, qlen)


def rfc6979_nonces(x: int, h1: bytes, q: int, hash_name: str) -> Any:
    """The candidates k of RFC 6979 section 3.2 for private key x and hash h1 (a generator: the
    next value is the one the RFC takes when k is rejected, e.g. r = 0 or s = 0)."""
    qlen = q.bit_length()

    def mac(key: bytes, data: bytes) -> bytes:
        return hmac.new(key, data, hash_name).digest()

    hlen = hashlib.new(hash_name).digest_size
    v = b"\x01" * hlen
    k = b"\x00" * hlen
    seed = int2octets(x, qlen) + bits2octets(h1, q)
    k = mac(k, v + b"\x00" + seed)
    v = mac(k, v)
    k = mac(k, v + b"\x01" + seed)
    v = mac(k, v)
    while True:
        t = b""
        while 8 * len(t) < qlen:
            v = mac(k, v)
            t += v
        cand = bits2int(t, qlen)
        if 1 <= cand < q:
            yield cand
        k = mac(k, v + b"\x00")
        v = mac(k, v)


class HmacDrbg:
    """HMAC-DRBG (NIST SP 800-90A rev. 1, 10.1.2) with SHA-256, no reseeding, no personalisation."""

    def __init__(self, entropy: bytes) -> None:
        self.k = b"\x00" * 32
        self.v = b"\x01" * 32
        self._update(entropy)

    def _mac(self, data: bytes) -> bytes:
        return hmac.new(self.k, data, "sha256").digest()

    def _update(self, data: bytes = b"") -> None:
        self.k = self._mac(self.v + b"\x00" + data)
        self.v = self._mac(self.v)
        if data:
            self.k = self._mac(self.v + b"\x01" + data)
            self.v = self._mac(self.v)

    def generate(self, n: int) -> bytes:
        out = b""
        while len(out) < n:
            self.v = self._mac(self.v)
            out += self.v
        self._update()
        return out[:n]


def drbg_entropy(seed: int | None) -> bytes:
    if seed is None:
        return os.urandom(48)
    return b"pka-ecdsa-seed" + seed.to_bytes((max(seed.bit_length(), 1) + 7) // 8 + 1, "big", signed=True)


def random_nonces(drbg: HmacDrbg, q: int) -> Any:
    """Nonces in [1, q) from the DRBG by rejection sampling on qlen-bit candidates."""
    qlen = q.bit_length()
    while True:
        cand = bits2int(drbg.generate((qlen + 7) // 8), qlen)
        if 1 <= cand < q:
            yield cand


# ---- messages and signatures ----------------------------------------------------------------------

def digest(message: bytes, hash_name: str) -> bytes:
    return hashlib.new(hash_name, message).digest()


def der_encode(r: int, s: int) -> bytes:
    return bytes(encode_dss_signature(r, s))


def der_decode(der: bytes) -> tuple[int, int] | None:
    """(r, s) of a strict DER ECDSA-Sig-Value, or None when the encoding is malformed (BER
    variants, trailing bytes, negative integers included)."""
    try:
        r, s = decode_dss_signature(der)
    except ValueError:
        return None
    if r < 0 or s < 0 or der_encode(r, s) != der:
        return None
    return r, s


@dataclass
class SignResult:
    r: int
    s: int
    cycles: int | None
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def der(self) -> bytes:
        return der_encode(self.r, self.s)


def sign_digest(be: Backend, name: str, d: int, h: bytes, params: dict[str, Any], nonce: str = "rfc6979",
                seed: int | None = None, hash_name: str = "sha256",
                progress: Callable[[int], None] | None = None) -> SignResult:
    """ECDSA signature of the hash h with private key d: k G on the backend, s on the host."""
    c = check_curve(name)
    n = c.order
    if not 1 <= d < n:
        raise PkaError(Status.ERR_OPERAND_RANGE, "private key out of range [1, n)")
    if nonce == "rfc6979":
        nonces = rfc6979_nonces(d, h, n, hash_name)
    elif nonce == "random":
        nonces = random_nonces(HmacDrbg(drbg_entropy(seed)), n)
    else:
        raise PkaError(Status.ERR_PARAM, f"nonce {nonce!r}: rfc6979 or random")
    e = bits2int(h, n.bit_length())
    if be.kind == "rtl":
        return _sign_rtl(name, d, e, params, nonce, nonces, seed, progress)
    from pka.rtl.top import ECDSA_HSCM, ecdsa_compute
    cycles: int | None = 0
    tries = 0
    while True:
        k = next(nonces)
        tries += 1
        res = scalar_mult(be, name, k, params, None, progress)
        cycles = None if cycles is None or res.cycles is None else cycles + res.cycles
        r = res.result % n
        if r == 0:
            continue
        s = pow(k, -1, n) * (e + r * d) % n
        if s != 0:
            break
    if cycles is not None:
        # the accelerator's count of the signature that succeeded (a nonce giving r = 0 or s = 0,
        # probability about 2/n, would be one more command)
        cycles = ecdsa_compute(name, int(params.get("w", 32)), ECDSA_HSCM, False, True, given_k=nonce != "random")
    return SignResult(r, s, cycles, {"path": "host-composed: k*G on the rns model, s on the host", "nonce": nonce,
                                     "tries": tries, "kG_cycles": res.cycles, "kG_detail": res.detail})


def _sign_rtl(name: str, d: int, e: int, params: dict[str, Any], nonce: str, nonces: Any, seed: int | None,
              progress: Callable[[int], None] | None) -> SignResult:
    """ECDSA_SIGN on the accelerator: the entropy port's nonce (random) or the host's (RFC 6979: the
    next one when r or s would be 0, which the hardware reports as ERR_OPERAND_RANGE)."""
    from pka.driver import ecdsa_session
    pka = ecdsa_session(check_curve(name).p.bit_length())
    prm = dict(params, w=32)
    if nonce == "random":
        if seed is not None:
            pka.bus.entropy(seed)   # type: ignore[attr-defined]
        hw = pka.ecdsa_sign(name, d, e, prm, progress=progress)
        tries = 1
    else:
        tries = 0
        while True:
            tries += 1
            try:
                hw = pka.ecdsa_sign(name, d, e, prm, k=next(nonces), progress=progress)
                break
            except PkaError as exc:
                if exc.status != Status.ERR_OPERAND_RANGE or tries > 16:
                    raise
    return SignResult(hw.result, hw.detail["s"], hw.cycles,
                      {"path": RTL_SIGN_PATH, "nonce": nonce if nonce != "random" else
                       "random (the accelerator's entropy port)", "tries": tries,
                       "wall_cycles": hw.detail["wall_cycles"]})


def sign(be: Backend, name: str, d: int, message: bytes, params: dict[str, Any], nonce: str = "rfc6979",
         seed: int | None = None, hash_name: str | None = None,
         progress: Callable[[int], None] | None = None) -> SignResult:
    h = check_hash(hash_name or DEFAULT_HASH[name])
    return sign_digest(be, name, d, digest(message, h), params, nonce, seed, h, progress)


@dataclass
class VerifyResult:
    valid: bool
    cycles: int | None
    reason: str = ""
    detail: dict[str, Any] = field(default_factory=dict)


def _add_cycles(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


def verify_digest(be: Backend, name: str, q: Point, h: bytes, r: int, s: int, params: dict[str, Any],
                  progress: Callable[[int], None] | None = None) -> VerifyResult:
    """Whether (r, s) is a signature of hash h under public key Q (module doc for the composition)."""
    from pka.model import rns

    c = check_curve(name)
    n = c.order
    if not (1 <= r < n and 1 <= s < n):
        return VerifyResult(False, 0, "r or s outside [1, n)")
    try:
        rns.check_point(name, q[0], q[1])
    except PkaError as exc:
        return VerifyResult(False, 0, f"public key: {exc}")
    e = bits2int(h, n.bit_length())
    w = pow(s, -1, n)
    u1, u2 = e * w % n, r * w % n
    if u1 == 0:
        res = scalar_mult(be, name, u2, params, q, progress)
        x_r, cycles, ladders = res.result, res.cycles, 1
    else:
        cq = point_mul(be, name, u2 * pow(u1, -1, n) % n, params, q, progress)
        t = rns.affine_add(c, (c.gx, c.gy), cq.point)
        if t is None:
            return VerifyResult(False, cq.cycles, "R is the point at infinity", {"ladders": cq.ladders})
        res = scalar_mult(be, name, u1, params, t, progress)
        x_r, cycles, ladders = res.result, _add_cycles(cq.cycles, res.cycles), cq.ladders + 1
    valid = x_r % n == r
    return VerifyResult(valid, cycles, "" if valid else "x(R) mod n != r",
                        {"ladders": ladders, "path": "u1 (G + (u2/u1) Q): ladders on the backend, "
                                                     "y recovery and one point addition on the host"})


def verify(be: Backend, name: str, q: Point, message: bytes, r: int, s: int, params: dict[str, Any],
           hash_name: str | None = None, progress: Callable[[int], None] | None = None) -> VerifyResult:
    h = check_hash(hash_name or DEFAULT_HASH[name])
    return verify_digest(be, name, q, digest(message, h), r, s, params, progress)


@dataclass
class KeyPair:
    d: int
    q: Point
    cycles: int | None
    detail: dict[str, Any] = field(default_factory=dict)


def keygen(be: Backend, name: str, params: dict[str, Any], seed: int | None = None,
           progress: Callable[[int], None] | None = None) -> KeyPair:
    """d from random.Random(seed) (reproducible) or the OS generator, Q = d G on the backend (two
    ladders and y recovery); `cryptography` checks Q."""
    import random
    import secrets

    from cryptography.hazmat.primitives.asymmetric import ec

    from pka.proto.keys import crypto_curve

    c = check_curve(name)
    d = random.Random(seed).randrange(1, c.order) if seed is not None else 1 + secrets.randbelow(c.order - 1)
    pm = point_mul(be, name, d, params, None, progress)
    assert pm.point is not None
    ref = ec.derive_private_key(d, crypto_curve(name)).public_key().public_numbers()
    if (ref.x, ref.y) != pm.point:
        raise RuntimeError("the backend's public key differs from cryptography's")
    return KeyPair(d, pm.point, pm.cycles, {"ladders": pm.ladders})
