#!/usr/bin/env python3
"""Generate the SBMM-friendly curves sbmm192, sbmm384, sbmm512 of the RNS engine (issue 7, item 3).

A generation tool, not a runtime or CI dependency: it needs cypari2 (PyPI, PARI's SEA point counting),
which neither the model nor the tests import. Its output is written by hand into SBMM_CURVES in
src/pka/model/rns.py; tests/test_model_rns_curves.py checks those constants without PARI (prime P,
non-singular, G on the curve, order prime, order * G = O, hence #E = order) and reproduces b and G
from the seed with the functions below.

The procedure, for each l in {192, 384, 512} (channel width w = 16, 32, 32):
  p    = gen_sbmm_prime(l, w).p, the seeded P = Ma^2 - 2 of the model (SBMM_SEED = 20150913);
  a    = -3 (p - 3);
  rng  = random.Random(SBMM_SEED + l);
  b    : draw b = rng.randrange(1, p) in turn; skip a singular curve (4a^3 + 27b^2 = 0 mod p);
         count #E(F_p) with PARI's ellsea(E, 1), which gives up (returns 0) as soon as it finds a
         small prime factor of #E; accept the first b whose #E is prime (PARI isprime, a proof);
  G    : continue with the same rng: x = rng.randrange(1, p) until x^3 + a x + b is a non-zero square;
         y is the smaller of its two square roots; with a prime order any point but O generates E;
  order = #E, cofactor = 1.
`tries` is the number of b values drawn (the accepted one included).

Rerun (a scratch venv keeps PARI out of the project's):
  python3 -m venv /tmp/pari && /tmp/pari/bin/pip install cypari2==2.2.4 gmpy2==2.3.2
  /tmp/pari/bin/python tools/gen_sbmm_curves.py           # prints the SBMM_CURVES table for rns.py
  /tmp/pari/bin/python tools/gen_sbmm_curves.py --check   # regenerates and compares with rns.SBMM_CURVES
Options: -j N (N PARI processes, same result), -v (log every candidate), --sizes 384 (one size),
--first-try T (resume a logged search at candidate T). Cost: most candidates fall to ellsea's early
abort in well under a second; the survivors (about 1 in 15) need a full SEA count, of which only a few
per cent are prime: sbmm192 took 30 candidates, under a minute; a 384-bit count takes about a CPU
minute, a 512-bit one several, and tens of them are expected for a prime order.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from pka.model import rns  # noqa: E402

SIZES = ((192, 16), (384, 32), (512, 32))


def curve_seed(bits: int) -> int:
    return rns.SBMM_SEED + bits


def b_candidates(p: int, bits: int) -> Iterator[tuple[int, random.Random]]:
    """The seeded b sequence (singular values skipped); yields (b, rng) with rng positioned after b."""
    rng = random.Random(curve_seed(bits))
    a = p - 3
    while True:
        b = rng.randrange(1, p)
        if (4 * pow(a, 3, p) + 27 * b * b) % p == 0:
            continue
        yield b, rng


def seeded_point(p: int, a: int, b: int, rng: random.Random) -> tuple[int, int]:
    """G: x = rng.randrange(1, p) until x^3 + a x + b is a non-zero square; y the smaller root."""
    while True:
        x = rng.randrange(1, p)
        y = rns._sqrt_mod((x * x * x + a * x + b) % p, p)
        if y is not None and y != 0:
            return x, min(y, p - y)


def reproduce(p: int, bits: int, tries: int) -> tuple[int, int, int]:
    """b and G of the `tries`-th candidate (1-based), without PARI: (b, gx, gy)."""
    for i, (b, rng) in enumerate(b_candidates(p, bits), 1):
        if i == tries:
            gx, gy = seeded_point(p, p - 3, b, rng)
            return b, gx, gy
    raise AssertionError("unreachable")


_PARI: Any = None


def _pari() -> Any:
    """This process's PARI (cypari2 is imported here only: the rest of the file runs without it)."""
    global _PARI
    if _PARI is None:
        import cypari2

        _PARI = cypari2.Pari()
        _PARI.allocatemem(1 << 30, silent=True)
    return _PARI


def _count(job: tuple[int, int]) -> tuple[int, float]:
    """(#E if it is prime, else 0; seconds). ellsea(E, 1) returns 0 at the first small factor of #E."""
    p, b = job
    t = time.perf_counter()
    pari = _pari()
    n = int(pari.ellsea(pari.ellinit([p - 3, b], p), 1))
    if n and not bool(pari.isprime(n)):
        n = -1                       # counted, composite
    return n, time.perf_counter() - t


def search(p: int, bits: int, workers: int, first: int, log: Callable[[str], None],
           verbose: bool = False) -> dict[str, int]:
    """The first seeded b with #E prime and its seeded generator.

    Candidates go to `workers` processes in batches and are judged in sequence order, so the answer
    does not depend on the number of workers. `first` > 1 resumes a search whose candidates
    1 .. first - 1 are already known to fail (a run's -v log); a complete run starts at 1.
    """
    t0 = time.perf_counter()
    cands = ((i, b) for i, (b, _) in enumerate(b_candidates(p, bits), 1) if i >= first)
    with multiprocessing.Pool(workers) as pool:
        while True:
            batch = list(itertools.islice(cands, 2 * workers))
            for (tries, b), (n, secs) in zip(batch, pool.imap(_count, [(p, b) for _, b in batch])):
                if verbose:
                    what = {0: "small factor", -1: "counted, composite"}.get(n, "counted, prime")
                    log(f"sbmm{bits} try {tries}: {what} ({secs:.1f} s)")
                if n <= 0:
                    continue
                pool.terminate()
                rb, gx, gy = reproduce(p, bits, tries)
                pari = _pari()
                e = pari.ellinit([p - 3, b], p)
                assert rb == b and n == int(pari.ellcard(e))
                assert bool(pari.ellisoncurve(e, [gx, gy])) and int(pari.ellorder(e, [gx, gy], n)) == n
                log(f"sbmm{bits}: b found at try {tries} ({time.perf_counter() - t0:.1f} s), #E prime")
                return {"bits": bits, "p": p, "b": b, "gx": gx, "gy": gy, "order": n, "cofactor": 1,
                        "tries": tries}


def table(rows: list[dict[str, int]]) -> str:
    out = ["SBMM_CURVES: dict[int, SbmmCurveConst] = {"]
    for r in rows:
        out.append(f"    {r['bits']}: SbmmCurveConst(")
        for k in ("p", "b", "gx", "gy", "order"):
            out.append(f"        {k}={r[k]:#x},")
        out.append(f"        cofactor={r['cofactor']}, tries={r['tries']}),")
    out.append("}")
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with rns.SBMM_CURVES instead of printing")
    ap.add_argument("--sizes", default="192,384,512", help="comma-separated subset of 192,384,512")
    ap.add_argument("-v", "--verbose", action="store_true", help="log every candidate to stderr")
    ap.add_argument("-j", "--workers", type=int, default=1, help="PARI processes (same result for any number)")
    ap.add_argument("--first-try", type=int, default=1,
                    help="resume at this candidate (those before it known to fail); one size only")
    args = ap.parse_args()
    want = {int(s) for s in args.sizes.split(",")}
    rows = []
    for bits, w in SIZES:
        if bits not in want:
            continue
        p = rns.gen_sbmm_prime(bits, w).p
        rows.append(search(p, bits, args.workers, args.first_try, lambda s: print(s, file=sys.stderr, flush=True),
                           args.verbose))
    if not args.check:
        print(table(rows))
        return 0
    bad = 0
    for r in rows:
        have = rns.SBMM_CURVES[r["bits"]]
        same = all(getattr(have, k) == r[k] for k in ("p", "b", "gx", "gy", "order", "cofactor", "tries"))
        print(f"sbmm{r['bits']}: {'matches' if same else 'DIFFERS from'} rns.SBMM_CURVES")
        bad += not same
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
