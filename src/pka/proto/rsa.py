"""RSA signatures on a pka backend: keys from files or seeds (pka.proto.keys), PKCS#1 v1.5 or PSS
encoding (RFC 8017) on the host, the private-key operation on the backend, every signature checked
by `cryptography`; verification s^e mod n on the backend and the encoding checked on the host.

With CRT, a backend that has its own CRT path (`rsa_crt(m, key, params)`: hscm, and every engine
through pka.driver) runs it; a backend without one runs the two half-size exponentiations with its
`modexp` and the host recombines them (Garner); the cycles are then the sum of the two.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import Any, Callable

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from pka.errors import PkaError, Status
from pka.model.common import CrtKey, OpResult, crt_garner
from pka.proto.backend import call
from pka.proto.keys import rsa_key

# DER prefixes of DigestInfo (RFC 8017, section 9.2, note 1)
DIGESTINFO = {
    "sha256": bytes.fromhex("3031300d060960864801650304020105000420"),
    "sha384": bytes.fromhex("3041300d060960864801650304020205000430"),
    "sha512": bytes.fromhex("3051300d060960864801650304020305000440"),
}
SHA256_DIGESTINFO = DIGESTINFO["sha256"]
HASHES = tuple(DIGESTINFO)
CRYPTO_HASH: dict[str, type[hashes.HashAlgorithm]] = {"sha256": hashes.SHA256, "sha384": hashes.SHA384,
                                                      "sha512": hashes.SHA512}


def check_hash(name: str) -> str:
    h = name.lower().replace("-", "")
    if h not in DIGESTINFO:
        raise PkaError(Status.ERR_PARAM, f"hash {name!r} not supported ({', '.join(HASHES)})")
    return h


def generate_key(bits: int, e: int = 65537, seed: int | None = None) -> rsa.RSAPrivateKey:
    """An RSA key of `bits` bits, reproducible with `seed` (pka.proto.keys.rsa_key)."""
    return rsa_key(bits, seed, e)


def crt_key(key: rsa.RSAPrivateKey) -> CrtKey:
    nums = key.private_numbers()
    return CrtKey.from_pq(nums.p, nums.q, nums.public_numbers.e)


def emsa_pkcs1_v15(message: bytes, k: int, hash_name: str = "sha256") -> int:
    """EMSA-PKCS1-v1_5 encoding of H(message) into a k-byte integer (RFC 8017, 9.2)."""
    t = DIGESTINFO[hash_name] + hashlib.new(hash_name, message).digest()
    if k < len(t) + 11:
        raise PkaError(Status.ERR_LENGTH, f"modulus too short for PKCS#1 v1.5 with {hash_name}")
    em = b"\x00\x01" + b"\xff" * (k - len(t) - 3) + b"\x00" + t
    return int.from_bytes(em, "big")


def mgf1(seed: bytes, length: int, hash_name: str) -> bytes:
    out = b""
    counter = 0
    while len(out) < length:
        out += hashlib.new(hash_name, seed + counter.to_bytes(4, "big")).digest()
        counter += 1
    return out[:length]


def emsa_pss_encode(message: bytes, embits: int, salt: bytes, hash_name: str = "sha256") -> bytes:
    """EMSA-PSS-ENCODE (RFC 8017, 9.1.1) with MGF1 of the same hash."""
    mhash = hashlib.new(hash_name, message).digest()
    hlen = len(mhash)
    emlen = (embits + 7) // 8
    if emlen < hlen + len(salt) + 2:
        raise PkaError(Status.ERR_LENGTH, "modulus too short for PSS with this hash and salt")
    h = hashlib.new(hash_name, b"\x00" * 8 + mhash + salt).digest()
    db = b"\x00" * (emlen - len(salt) - hlen - 2) + b"\x01" + salt
    masked = bytearray(x ^ y for x, y in zip(db, mgf1(h, emlen - hlen - 1, hash_name)))
    masked[0] &= 0xFF >> (8 * emlen - embits)
    return bytes(masked) + h + b"\xbc"


def emsa_pss_verify(message: bytes, em: bytes, embits: int, hash_name: str = "sha256") -> bool:
    """EMSA-PSS-VERIFY (RFC 8017, 9.1.2), any salt length."""
    mhash = hashlib.new(hash_name, message).digest()
    hlen = len(mhash)
    emlen = (embits + 7) // 8
    if len(em) != emlen or emlen < hlen + 2 or em[-1] != 0xBC:
        return False
    masked, h = em[:emlen - hlen - 1], em[emlen - hlen - 1:-1]
    top = 0xFF >> (8 * emlen - embits)
    if masked[0] & ~top & 0xFF:
        return False
    db = bytearray(x ^ y for x, y in zip(masked, mgf1(h, emlen - hlen - 1, hash_name)))
    db[0] &= top
    i = 0
    while i < len(db) and db[i] == 0:
        i += 1
    if i == len(db) or db[i] != 1:
        return False
    salt = bytes(db[i + 1:])
    return hashlib.new(hash_name, b"\x00" * 8 + mhash + salt).digest() == h


@dataclass(frozen=True)
class Signature:
    signature: bytes
    verified: bool          # checked by `cryptography`
    cycles: int | None
    detail: dict[str, Any]


def encode(key_bits: int, message: bytes, pss: bool, hash_name: str, salt: bytes | None) -> int:
    k = (key_bits + 7) // 8
    if pss:
        s = salt if salt is not None else os.urandom(hashlib.new(hash_name).digest_size)
        return int.from_bytes(emsa_pss_encode(message, key_bits - 1, s, hash_name), "big")
    return emsa_pkcs1_v15(message, k, hash_name)


def sign(key: rsa.RSAPrivateKey, message: bytes, backend: Any, params: dict[str, Any], crt: bool,
         progress: Callable[[int], None] | None = None, *, pss: bool = False, hash_name: str = "sha256",
         salt: bytes | None = None) -> Signature:
    """Sign `message` (PKCS#1 v1.5, or PSS with a salt of the hash's length: `salt`, else random).
    The private-key operation runs on `backend`; `cryptography` checks the result."""
    hash_name = check_hash(hash_name)
    ck = crt_key(key)
    k = (ck.n.bit_length() + 7) // 8
    m = encode(ck.n.bit_length(), message, pss, hash_name, salt)
    detail: dict[str, Any] = {}
    if crt and hasattr(backend, "rsa_crt"):
        res: OpResult = call(backend.rsa_crt, m, ck, params, progress=progress)
        s, cycles = res.result, res.cycles
        detail.update(res.detail)
        detail.setdefault("path", "engine CRT")
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
    pad = (padding.PSS(padding.MGF1(CRYPTO_HASH[hash_name]()), padding.PSS.AUTO) if pss else padding.PKCS1v15())
    try:
        key.public_key().verify(sig, message, pad, CRYPTO_HASH[hash_name]())
        verified = True
    except InvalidSignature:
        verified = False
    return Signature(sig, verified, cycles, detail)


@dataclass(frozen=True)
class Verification:
    valid: bool             # our check: s^e mod n on the backend, the encoding on the host
    cryptography: bool      # `cryptography`'s verdict on the same input
    cycles: int | None
    detail: dict[str, Any]


def verify(pub: rsa.RSAPublicKey, message: bytes, sig: bytes, backend: Any, params: dict[str, Any],
           pss: bool = False, hash_name: str = "sha256",
           progress: Callable[[int], None] | None = None) -> Verification:
    """RSASSA-PKCS1-v1_5-VERIFY or RSASSA-PSS-VERIFY (RFC 8017 8.2.2 / 8.1.2): a signature of the
    wrong length or >= n is invalid (not an error); s^e mod n runs on the backend."""
    hash_name = check_hash(hash_name)
    nums = pub.public_numbers()
    n, e = nums.n, nums.e
    k = (n.bit_length() + 7) // 8
    pad = (padding.PSS(padding.MGF1(CRYPTO_HASH[hash_name]()), padding.PSS.AUTO) if pss else padding.PKCS1v15())
    try:
        pub.verify(sig, message, pad, CRYPTO_HASH[hash_name]())
        theirs = True
    except (InvalidSignature, ValueError):
        theirs = False
    s = int.from_bytes(sig, "big")
    if len(sig) != k or s >= n:
        return Verification(False, theirs, None, {"reason": "signature length or value out of range"})
    res: OpResult = call(backend.modexp, s, e, n, params, progress=progress)
    em = res.result.to_bytes(k, "big")
    if pss:
        embits = n.bit_length() - 1
        emlen = (embits + 7) // 8
        ok = em[:k - emlen] == b"\x00" * (k - emlen) and emsa_pss_verify(message, em[k - emlen:], embits, hash_name)
    else:
        ok = res.result == emsa_pkcs1_v15(message, k, hash_name)
    return Verification(ok, theirs, res.cycles, {"path": "modexp s^e mod n", **res.detail})
