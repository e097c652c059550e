"""X25519 (RFC 7748) on the rns engine: ECC_MUL with ARG[2], the engine's Montgomery ladder.

The engine runs RFC 7748's x-only ladder on Curve25519 itself (pka.model.rns `ecc_m`: 10 MRs a
step, then u = X Z^(p-2) by the addition chain of the reference code), for points on the curve
and on its twist alike. The scalar is decoded and clamped as the RFC says (bit 254 set, so the
ladder runs 255 steps whatever the value: constant time), u is decoded with its top bit masked
and reduced mod p; the result is 0 (all-zero bytes) when k P is the point at infinity (the RFC's
X25519 returns 0 there as well). (Until issue 18's rework the same ran as the short Weierstrass
curve Wei25519 on the generic (X,Z) ladder, x = u + A/3: 139,312 cycles against 101,515 now.)

Byte strings in and out as the RFC writes them: 32 bytes, little-endian.
"""

from __future__ import annotations

from typing import Any, Callable

from pka.errors import PkaError, Status
from pka.model.common import OpResult
from pka.proto.backend import Backend

CURVE = "curve25519"
LADDER_STEPS = 255
BASE_U = (9).to_bytes(32, "little")


class LowOrderError(PkaError):
    """An all-zero X25519 output: the peer's u is of small order (RFC 7748, section 6.1)."""

    code = "ERR_LOW_ORDER"

    def __init__(self, message: str) -> None:
        super().__init__(Status.ERR_NO_INVERSE, message)


def _prime() -> int:
    from pka.model import rns
    return rns.X25519_P


def parse32(text: str, what: str) -> bytes:
    """32 bytes from the RFC's hex (64 hex digits, no 0x)."""
    t = text.strip().lower()
    if t.startswith("0x"):
        t = t[2:]
    try:
        b = bytes.fromhex(t)
    except ValueError:
        raise PkaError(Status.ERR_OPERAND_RANGE, f"{what}: not hex: {text!r}") from None
    if len(b) != 32:
        raise PkaError(Status.ERR_LENGTH, f"{what}: {len(b)} bytes, X25519 takes 32 (64 hex digits, little-endian)")
    return b


def decode_scalar(k: bytes) -> int:
    """decodeScalar25519: clear bits 0-2 and 255, set bit 254."""
    b = bytearray(k)
    b[0] &= 248
    b[31] &= 127
    b[31] |= 64
    return int.from_bytes(b, "little")


def decode_u(u: bytes) -> int:
    """decodeUCoordinate: the top bit masked, non-canonical values reduced mod p."""
    return (int.from_bytes(u, "little") & ((1 << 255) - 1)) % _prime()


def encode_u(u: int) -> bytes:
    return u.to_bytes(32, "little")


def x25519(be: Backend, scalar: bytes, u: bytes, params: dict[str, Any],
           progress: Callable[[int], None] | None = None) -> tuple[bytes, OpResult]:
    """X25519(scalar, u) on the backend: the output bytes (all zero for a low-order u) and the
    engine's result (cycles)."""
    if be.engine != "rns":
        raise PkaError(Status.ERR_UNSUPPORTED, f"X25519 runs on the rns engine, not {be.engine}")
    k = decode_scalar(scalar)
    res = be.x25519_mul(k, decode_u(u), params, LADDER_STEPS, progress=progress)
    out = 0 if res.detail.get("infinity") else res.result
    return encode_u(out), res


def check_shared(out: bytes) -> None:
    """RFC 7748 section 6.1: an all-zero shared secret is refused (the peer sent a low-order u)."""
    if not any(out):
        raise LowOrderError("X25519 result is all zero: the peer's u is a low-order point (RFC 7748, 6.1)")
