"""Scalar multiplication and ECDH on the rns engine's curves, through a backend (pka.proto.backend).

The engine's ECC_MUL returns x(k P) only ((X,Z) ladder). Where a protocol needs the whole point
(ECDSA keys, verification), `point_mul` recovers y on the host from two ladders, x(k P) and
x((k+1) P), with the Okeya-Sakurai formula for short Weierstrass curves:

    y(kP) = (2b + (a + x x1)(x + x1) - x2 (x - x1)^2) / (2 y)      P = (x, y), x1 = x(kP), x2 = x((k+1)P)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from pka.errors import PkaError, Status
from pka.model.common import OpResult
from pka.proto.backend import Backend, call

Point = tuple[int, int]


def curve(name: str) -> Any:
    from pka.model import rns

    c = rns.CURVES.get(name)
    if c is None:
        raise PkaError(Status.ERR_PARAM, f"unknown curve {name!r}")
    return c


def check_engine(be: Backend) -> None:
    if be.engine != "rns":
        raise PkaError(Status.ERR_UNSUPPORTED, f"elliptic curves run on the rns engine, not {be.engine}")


def check_point(name: str, pt: Point) -> None:
    """Coordinates in [0, p), on the curve, not (0, 0) (ERR_NOT_ON_CURVE otherwise)."""
    from pka.model import rns

    rns.check_point(name, pt[0], pt[1])


def scalar_mult(be: Backend, name: str, k: int, params: dict[str, Any], point: Point | None = None,
                progress: Callable[[int], None] | None = None) -> OpResult:
    """x(k P) (P = G by default) on the backend; 1 <= k < order, P checked."""
    check_engine(be)
    return call(be.ecc_mul, name, k, params, point, progress=progress)  # type: ignore[no-any-return]


def ecdh(be: Backend, name: str, k: int, peer: Point, params: dict[str, Any],
         progress: Callable[[int], None] | None = None) -> OpResult:
    """The shared x = x(k * peer), the peer's point validated first (on the curve, in range)."""
    check_point(name, peer)
    return scalar_mult(be, name, k, params, peer, progress)


def reference_x(name: str, k: int, peer: Point | None = None) -> int | None:
    """x(k P) by `cryptography` (P-256, P-384: k*G is the public key, k*peer the ECDH secret), or
    None for a curve `cryptography` does not know."""
    from cryptography.hazmat.primitives.asymmetric import ec

    from pka.proto.keys import CRYPTO_CURVES

    if name not in CRYPTO_CURVES:
        return None
    cc = CRYPTO_CURVES[name]()
    priv = ec.derive_private_key(k, cc)
    if peer is None:
        return int(priv.public_key().public_numbers().x)
    peer_key = ec.EllipticCurvePublicNumbers(peer[0], peer[1], cc).public_key()
    return int.from_bytes(priv.exchange(ec.ECDH(), peer_key), "big")


def recover_y(c: Any, p: Point, x1: int, x2: int) -> int:
    """y of k P from P, x(k P), x((k+1) P) (Okeya-Sakurai); needs x(kP) != x(P) and y(P) != 0."""
    q = c.p
    x, y = p
    num = (2 * c.b + (c.a + x * x1) * (x + x1) - x2 * (x - x1) ** 2) % q
    return num * pow(2 * y, -1, q) % q


@dataclass
class PointResult:
    point: Point | None     # None: the point at infinity
    cycles: int | None
    ladders: int
    detail: dict[str, Any] = field(default_factory=dict)


def point_mul(be: Backend, name: str, k: int, params: dict[str, Any], point: Point | None = None,
              progress: Callable[[int], None] | None = None) -> PointResult:
    """The whole point k P: one checked ECC_MUL when the backend returns y (the rns MM build), else
    x(k P) and x((k+1) P) on the backend and y on the host (module doc).
    k = +-1 mod order need no ladder for y; k = 0 gives the point at infinity."""
    c = curve(name)
    p = point if point is not None else (c.gx, c.gy)
    k %= c.order
    if k == 0:
        return PointResult(None, 0, 0)
    if k == 1:
        return PointResult(p, 0, 0)
    if k == c.order - 1:
        return PointResult((p[0], (-p[1]) % c.p), 0, 0)
    r1 = scalar_mult(be, name, k, params, point, progress)
    if "y" in r1.detail:
        # the checked ECC_MUL returns y (recovered and checked on the curve in the engine): one ladder
        return PointResult((r1.result, int(r1.detail["y"])), r1.cycles, 1, {"cycles_k": r1.cycles})
    r2 = scalar_mult(be, name, k + 1, params, point, progress)
    y = recover_y(c, p, r1.result, r2.result)
    assert (y * y - (r1.result ** 3 + c.a * r1.result + c.b)) % c.p == 0, "y recovery left the curve"
    cyc = None if r1.cycles is None or r2.cycles is None else r1.cycles + r2.cycles
    return PointResult((r1.result, y), cyc, 2, {"cycles_k": r1.cycles, "cycles_k1": r2.cycles})
