"""Benchmark of csa2 (paper 000): RTL cycles of a full-length modexp, K = H in {256, 512, 1024},
for the paper and fast variants, against the paper's formula (2K+14)(H+2) + K + 7.

    python bench/csa2.py [--sizes 256 512 1024] [--backend rtl|model]

Prints a table and writes bench/results/csa2.json. The RTL runs on Verilator (L = K); each result is
checked against gmpy2 and each cycle count against the golden model's cycle model.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import gmpy2

from pka.model import csa2 as model

OUT = Path(__file__).resolve().parent / "results" / "csa2.json"
PAPER_CLOCK_NS = 12.88  # the paper's Virtex-E implementation, L = 1024


def paper_formula(k: int, h: int) -> int:
    return (2 * k + 14) * (h + 2) + k + 7


def run(sizes: list[int], variants: list[str], backend: str, seed: int) -> list[dict[str, object]]:
    impl = model
    if backend == "rtl":
        from pka.rtl import csa2 as rtl
        impl = rtl  # type: ignore[assignment]
    rows: list[dict[str, object]] = []
    for k in sizes:
        rng = random.Random(seed + k)  # one vector per size, independent of the other sizes
        n = rng.getrandbits(k) | 1 | (1 << (k - 1))
        x = rng.randrange(n)
        e = rng.getrandbits(k) | (1 << (k - 1))  # full length: H = K
        for variant in variants:
            t0 = time.perf_counter()
            res = impl.modexp(x, e, n, {"variant": variant})
            wall = time.perf_counter() - t0
            assert res.result == int(gmpy2.powmod(x, e, n)), (k, variant)
            assert res.cycles == model.exp_cycles(k, k, variant), (k, variant, res.cycles)
            paper = paper_formula(k, k)
            rows.append({"k": k, "h": k, "variant": variant, "backend": backend, "cycles": res.cycles,
                         "io_cycles": res.io_cycles, "paper_cycles": paper,
                         "ratio_to_paper": round(res.cycles / paper, 4),
                         "product_cycles": model.product_cycles(k, variant),
                         "sim_seconds": round(wall, 2)})
            print(f"  K=H={k:5d} {variant:5s}: {res.cycles:>10,} cycles ({wall:.1f} s)", file=sys.stderr)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[256, 512, 1024])
    ap.add_argument("--variants", nargs="+", choices=("paper", "fast"), default=["paper", "fast"])
    ap.add_argument("--merge", action="store_true", help="keep rows of other sizes/variants already in --out")
    ap.add_argument("--backend", choices=("rtl", "model"), default="rtl")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    rows = run(args.sizes, args.variants, args.backend, args.seed)
    if args.merge and args.out.exists():
        new = {(r["k"], r["variant"]) for r in rows}
        old = [r for r in json.loads(args.out.read_text())["rows"] if (r["k"], r["variant"]) not in new]
        rows = sorted(old + rows, key=lambda r: (int(r["k"]), str(r["variant"]) != "paper"))
    print(f"{'K=H':>6} {'variant':>7} {'paper formula':>14} {'ours':>12} {'ratio':>7} {'io':>6} "
          f"{'per product':>12}")
    for r in rows:
        print(f"{r['k']:>6} {r['variant']:>7} {r['paper_cycles']:>14,} {r['cycles']:>12,} "
              f"{r['ratio_to_paper']:>7.3f} {r['io_cycles'] if r['io_cycles'] is not None else '-':>6} "
              f"{r['product_cycles']:>12,}")
    paper_1024 = paper_formula(1024, 1024)
    doc = {"engine": "csa2", "paper": "000", "backend": args.backend,
           "paper_formula": "(2K+14)(H+2) + K + 7",
           "fast_formula": "(Nc+1) + (H+2)(K+5+Nc), Nc = ceil((K+4)/32)",
           "paper_1024_ms_at_12.88ns": round(paper_1024 * PAPER_CLOCK_NS * 1e-6, 2),
           "rows": rows}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=2) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
