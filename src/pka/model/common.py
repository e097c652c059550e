"""Helpers shared by the golden models: the result type, Montgomery constants, exponent recodings, CRT.

Everything here is plain integer arithmetic with no engine-specific behaviour; an engine's own
loop, representation and bounds live in its module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

import gmpy2

from pka.errors import PkaError, Status, check_odd_modulus


@dataclass(frozen=True)
class OpResult:
    """What every model and RTL driver returns.

    cycles:    compute cycles as the paper counts them (None where an engine has no cycle model);
    io_cycles: cycles spent loading operands and storing the result through the word port;
    detail:    engine-specific extras (cycles per product, number of products, EMMs, ...).
    """

    result: int
    cycles: int | None
    io_cycles: int | None = None
    detail: dict[str, Any] = field(default_factory=dict)


def bit_length(x: int) -> int:
    return int(x).bit_length()


def inv_mod(a: int, m: int) -> int:
    """a^-1 mod m; ERR_NO_INVERSE when gcd(a, m) != 1."""
    try:
        return int(gmpy2.invert(a, m))
    except ZeroDivisionError:
        raise PkaError(Status.ERR_NO_INVERSE, "no inverse: operands not coprime") from None


def neg_inv_pow2(m: int, bits: int) -> int:
    """mu = -m^-1 mod 2^bits (m odd): the Montgomery constant of radix 2^bits."""
    check_odd_modulus(m)
    return (-inv_mod(m, 1 << bits)) % (1 << bits)


def r2_mod(m: int, r_bits: int) -> int:
    """(2^r_bits)^2 mod m: the factor that converts into the Montgomery domain with R = 2^r_bits."""
    return int(gmpy2.powmod(2, 2 * r_bits, m))


def powmod(base: int, exp: int, mod: int) -> int:
    return int(gmpy2.powmod(base, exp, mod))


def exp_bits_lsb_first(e: int, h: int) -> Iterator[int]:
    """Bits e_0 .. e_{h-1} of the exponent (right-to-left methods)."""
    for j in range(h):
        yield (e >> j) & 1


def exp_bits_msb_first(e: int) -> Iterator[int]:
    """Bits from the top set bit down to bit 0 (left-to-right methods); nothing for e = 0."""
    for j in range(e.bit_length() - 1, -1, -1):
        yield (e >> j) & 1


def sliding_windows(e: int, k: int) -> list[tuple[int, int]]:
    """Left-to-right sliding-window recoding of e with window size k.

    Returns a list of (squarings, odd window value or 0) steps from the top: process as
    S := S^(2^squarings); if value: S := S * C^value. Window values are odd and < 2^k.
    The first step of a non-zero e has squarings = 0 (S starts at 1 in the caller's convention).
    """
    if k < 1:
        raise ValueError("window size must be >= 1")
    steps: list[tuple[int, int]] = []
    i = e.bit_length() - 1
    pending = 0
    while i >= 0:
        if (e >> i) & 1 == 0:
            pending += 1
            i -= 1
            continue
        lo = max(i - k + 1, 0)
        while (e >> lo) & 1 == 0:
            lo += 1
        value = (e >> lo) & ((1 << (i - lo + 1)) - 1)
        steps.append((pending + (i - lo + 1), value))
        pending = 0
        i = lo - 1
    if pending:
        steps.append((pending, 0))
    return steps


@dataclass(frozen=True)
class CrtKey:
    """An RSA private key in CRT form, with both inverses (the paper's eq. (4) uses u and v)."""

    n: int
    e: int
    d: int
    p: int
    q: int
    dp: int
    dq: int
    qinv: int  # q^-1 mod p (u in paper 004)
    pinv: int  # p^-1 mod q (v in paper 004)

    @staticmethod
    def from_pq(p: int, q: int, e: int = 65537) -> "CrtKey":
        check_odd_modulus(p, "p")
        check_odd_modulus(q, "q")
        if p == q:
            raise PkaError(Status.ERR_NO_INVERSE, "p and q must differ")
        n = p * q
        lam = (p - 1) * (q - 1)
        d = inv_mod(e, lam)
        return CrtKey(n, e, d, p, q, d % (p - 1), d % (q - 1), inv_mod(q, p), inv_mod(p, q))


def crt_garner(sp: int, sq: int, key: CrtKey) -> int:
    """Garner recombination: S = sq + q * ((sp - sq) * qinv mod p)."""
    h = ((sp - sq) * key.qinv) % key.p
    return sq + key.q * h
