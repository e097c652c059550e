"""How well scalar blinding k + r n masks the bits of k (issue 14: the ECC_MUL TVLA finding).

With r uniform of R bits, every bit of the blinded scalar k + r n should be 0 or 1 with probability
1/2 whatever k is; then the ladder's per-step work (which depends on the blinded scalar's bits)
says nothing about k. For a group order of special form this fails when R is small: the NIST orders
are n = 2^L - c 2^M ... - delta with delta much shorter than n, so r n has long runs of bits that do
not depend on r, and where they are, the bits of k + r n are k's bits plus a carry that is nearly
constant. P-256's order is 2^256 - 2^224 + 2^192 - delta (delta about 2^126): with R = 64 the
bits 190 and 191 of k + r n are biased by about 0.25 towards a value set by k (the TVLA's two
confirmed cycles are the ladder steps of exactly these bits). P-384's order is 2^384 - delta (delta
about 2^190): with R = 64 the bits 256 to 383 of k + r n are k's bits minus a borrow, not masked
at all. The same holds for any r short of the length of the order's structured part (Schindler and
Wiemers, "Efficient Side-Channel Attacks on Scalar Blinding on Elliptic Curves with Special
Structure", NIST Workshop on ECC Standards, 2015).

`bit_bias` measures the masking empirically (seeded); `min_blind_bits` finds the smallest R (a
multiple of 32) whose worst bias over all bits stays below a bound for a few random k.
"""

from __future__ import annotations

import random


def bit_bias(order: int, r_bits: int, k: int, samples: int, rng: random.Random) -> list[float]:
    """|P(bit i of k + r n = 1) - 1/2| for every bit i of the blinded scalar, r uniform of r_bits
    bits, estimated from `samples` draws of r."""
    width = order.bit_length() + r_bits
    ones = [0] * width
    for _ in range(samples):
        v = k + rng.getrandbits(r_bits) * order
        i = 0
        while v:
            if v & 1:
                ones[i] += 1
            v >>= 1
            i += 1
    return [abs(c / samples - 0.5) for c in ones]


def worst_bias(order: int, r_bits: int, keys: int = 3, samples: int = 4000, seed: int = 1,
               skip_top: int = 2) -> tuple[float, int]:
    """(the largest bias, its bit) over `keys` random k in [1, n), leaving out the blinded scalar's
    top `skip_top` bits (their bias is the length of k + r n, the same for every k)."""
    rng = random.Random(f"blinding {order} {r_bits} {seed}")
    worst = (0.0, -1)
    for _ in range(keys):
        k = rng.randrange(1, order)
        b = bit_bias(order, r_bits, k, samples, rng)
        for i, x in enumerate(b[:len(b) - skip_top]):
            if x > worst[0]:
                worst = (x, i)
    return worst


def min_blind_bits(order: int, bound: float = 0.05, step: int = 32, limit: int = 512, **kw: int) -> int:
    """The smallest blinding width (a multiple of `step`) whose worst bias is under `bound`."""
    r = step
    while r <= limit:
        if worst_bias(order, r, **kw)[0] < bound:
            return r
        r += step
    raise ValueError(f"no blinding width up to {limit} bits masks this order")
