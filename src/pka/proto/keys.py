"""Key files in and out (PEM or DER, through `cryptography`), curve names, seeded keys.

Reading tries PEM then DER, private then public (PKCS#8, SEC1/"EC PRIVATE KEY", PKCS#1/"RSA
PRIVATE KEY", SubjectPublicKeyInfo). Writing: PKCS#8 private keys, SubjectPublicKeyInfo public
keys, PEM unless the format or the file's extension (.der) says DER.

Seeded keys are reproducible: RSA primes from random.Random(seed) and gmpy2.next_prime (top two
bits set so that p q has exactly `bits` bits, gcd(e, p - 1) = 1), EC private scalars
random.Random(seed).randrange(1, order). They are for tests and benchmarks, not for use.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Union

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from pka.errors import PkaError, Status

PrivateKey = Union[rsa.RSAPrivateKey, ec.EllipticCurvePrivateKey]
PublicKey = Union[rsa.RSAPublicKey, ec.EllipticCurvePublicKey]
AnyKey = Union[PrivateKey, PublicKey]


class KeyFileError(PkaError):
    """A key file that cannot be read or a key of the wrong kind (JSON code ERR_KEY, exit 2)."""

    code = "ERR_KEY"

    def __init__(self, message: str) -> None:
        super().__init__(Status.ERR_PARAM, message)


# ---- curve names ---------------------------------------------------------------------------------

CURVE_ALIASES: dict[str, str] = {}
for _name, _aliases in {
    "p256": ("p256", "p-256", "secp256r1", "prime256v1", "nistp256", "nist-p256"),
    "p384": ("p384", "p-384", "secp384r1", "nistp384", "nist-p384"),
    "sbmm192": ("sbmm192",), "sbmm384": ("sbmm384",), "sbmm512": ("sbmm512",),
}.items():
    for _a in _aliases:
        CURVE_ALIASES[_a] = _name
CURVE_SPELLINGS = "P-256 (p256, secp256r1, prime256v1), P-384 (p384, secp384r1), sbmm192, sbmm384, sbmm512"

# curves `cryptography` knows (keys, checks); the SBMM curves are the rns engine's own
CRYPTO_CURVES: dict[str, type[ec.EllipticCurve]] = {"p256": ec.SECP256R1, "p384": ec.SECP384R1}
CRYPTO_NAMES = {"secp256r1": "p256", "secp384r1": "p384"}


def curve_name(text: str) -> str:
    """Our name of a curve from any usual spelling (case-insensitive, '_' as '-')."""
    key = text.strip().lower().replace("_", "-")
    name = CURVE_ALIASES.get(key) or CURVE_ALIASES.get(key.replace("-", ""))
    if name is None:
        raise PkaError(Status.ERR_PARAM, f"unknown curve {text!r}: {CURVE_SPELLINGS}")
    return name


def crypto_curve(name: str) -> ec.EllipticCurve:
    try:
        return CRYPTO_CURVES[name]()
    except KeyError:
        raise PkaError(Status.ERR_UNSUPPORTED, f"curve {name} has no standard key format (P-256, P-384)") from None


def key_curve(key: ec.EllipticCurvePrivateKey | ec.EllipticCurvePublicKey) -> str:
    name = CRYPTO_NAMES.get(key.curve.name)
    if name is None:
        raise KeyFileError(f"EC key on {key.curve.name}: pka serves P-256 and P-384")
    return name


# ---- files ---------------------------------------------------------------------------------------

def load_key(path: str | Path) -> AnyKey:
    """A private or public RSA/EC key from a PEM or DER file."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise KeyFileError(f"cannot read key file {path}: {exc.strerror or exc}") from None
    return parse_key(data, str(path))


def parse_key(data: bytes, what: str = "key") -> AnyKey:
    loaders: list[Any] = []
    if b"-----BEGIN" in data:
        loaders = [lambda d: serialization.load_pem_private_key(d, password=None),
                   serialization.load_pem_public_key]
    else:
        loaders = [lambda d: serialization.load_der_private_key(d, password=None),
                   serialization.load_der_public_key]
    for load in loaders:
        try:
            key = load(data)
        except (ValueError, TypeError):
            continue
        except Exception:  # cryptography raises UnsupportedAlgorithm for unknown key types
            continue
        if not isinstance(key, (rsa.RSAPrivateKey, rsa.RSAPublicKey, ec.EllipticCurvePrivateKey,
                                ec.EllipticCurvePublicKey)):
            raise KeyFileError(f"{what}: not an RSA or EC key")
        return key
    raise KeyFileError(f"{what}: not a PEM or DER key (unencrypted PKCS#8, PKCS#1, SEC1 or SubjectPublicKeyInfo)")


def key_format(path: str | Path, fmt: str | None = None) -> str:
    if fmt:
        return fmt.lower()
    return "der" if str(path).lower().endswith(".der") else "pem"


def private_bytes(key: PrivateKey, fmt: str = "pem") -> bytes:
    enc = serialization.Encoding.DER if fmt == "der" else serialization.Encoding.PEM
    return key.private_bytes(enc, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())


def public_bytes(key: PublicKey, fmt: str = "pem") -> bytes:
    enc = serialization.Encoding.DER if fmt == "der" else serialization.Encoding.PEM
    return key.public_bytes(enc, serialization.PublicFormat.SubjectPublicKeyInfo)


def save_key(key: AnyKey, path: str | Path, fmt: str | None = None) -> str:
    """Write a key (private: PKCS#8, public: SubjectPublicKeyInfo); returns the format used."""
    f = key_format(path, fmt)
    if isinstance(key, (rsa.RSAPrivateKey, ec.EllipticCurvePrivateKey)):
        data = private_bytes(key, f)
    else:
        data = public_bytes(key, f)
    try:
        Path(path).write_bytes(data)
    except OSError as exc:
        raise KeyFileError(f"cannot write {path}: {exc.strerror or exc}") from None
    return f


def public_of(key: AnyKey) -> PublicKey:
    if isinstance(key, (rsa.RSAPrivateKey, ec.EllipticCurvePrivateKey)):
        return key.public_key()
    return key


def public_json(key: AnyKey) -> dict[str, Any]:
    """The public key as JSON (0x-hex): {"n", "e"} or {"curve", "x", "y"}, enough to verify elsewhere."""
    pub = public_of(key)
    if isinstance(pub, rsa.RSAPublicKey):
        nums = pub.public_numbers()
        return {"type": "rsa", "bits": pub.key_size, "n": hex(nums.n), "e": hex(nums.e)}
    pn = pub.public_numbers()
    return {"type": "ec", "curve": key_curve(pub), "x": hex(pn.x), "y": hex(pn.y)}


# ---- seeded keys ---------------------------------------------------------------------------------

def seeded_prime(rng: random.Random, nbits: int, e: int) -> int:
    """next_prime of a random nbits-bit number with its top two bits set; gcd(e, p - 1) = 1."""
    import gmpy2

    while True:
        c = rng.getrandbits(nbits) | (3 << (nbits - 2)) | 1
        p = int(gmpy2.next_prime(c))
        if p.bit_length() == nbits and gmpy2.gcd(e, p - 1) == 1:
            return p


def rsa_from_primes(p: int, q: int, e: int = 65537) -> rsa.RSAPrivateKey:
    import gmpy2

    if p < q:
        p, q = q, p   # cryptography's iqmp = q^-1 mod p either way; keep p > q as OpenSSL does
    d = int(gmpy2.invert(e, (p - 1) * (q - 1)))
    pub = rsa.RSAPublicNumbers(e, p * q)
    return rsa.RSAPrivateNumbers(p, q, d, d % (p - 1), d % (q - 1), int(gmpy2.invert(q, p)), pub).private_key()


def rsa_key(bits: int, seed: int | None = None, e: int = 65537) -> rsa.RSAPrivateKey:
    """An RSA key of `bits` bits (even, 512..8192): reproducible from `seed`, else fresh
    (`cryptography` from 1024 bits, below that our own primes from the OS generator)."""
    if bits < 512 or bits > 8192 or bits % 2:
        raise PkaError(Status.ERR_LENGTH, "RSA size must be even, 512..8192 bits")
    if seed is None and bits >= 1024:
        return rsa.generate_private_key(public_exponent=e, key_size=bits)
    rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
    half = bits // 2
    p = seeded_prime(rng, half, e)
    q = seeded_prime(rng, half, e)
    while q == p:
        q = seeded_prime(rng, half, e)
    return rsa_from_primes(p, q, e)


def ec_key(curve: str, seed: int | None = None) -> ec.EllipticCurvePrivateKey:
    """An EC private key on P-256/P-384: d = random.Random(seed).randrange(1, n), or fresh."""
    from pka.model import rns

    cc = crypto_curve(curve)
    if seed is None:
        return ec.generate_private_key(cc)
    d = random.Random(seed).randrange(1, rns.CURVES[curve].order)
    return ec.derive_private_key(d, cc)
