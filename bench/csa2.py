"""Benchmark of csa2 (paper 000): RTL cycles of a full-length modexp, K = H in {256, 512, 1024},
for the paper and fast variants, against the paper's formula (2K+14)(H+2) + K + 7; MODEXP_CT (the
ladder, elen = K) beside MODEXP on two exponents (a random full-length one and one with a single
set bit: one count for MODEXP_CT whatever the bits, MODEXP's H is the exponent's bit length); the
wipe's cycles.

    python bench/csa2.py [--sizes 256 512 1024] [--ct-sizes 256] [--backend rtl|model] [--merge]

Prints tables and writes bench/results/csa2.json. The RTL runs on Verilator (L = K); each result is
checked against gmpy2 and each cycle count against the golden model's cycle model. --ct-backend
chooses the backend of the MODEXP_CT rows separately (the K = 1024 paper variant takes about an
hour of simulation per operation on the shared machine).
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
            if backend == "rtl":
                rtl.harness(model.array_len(k, k, 0), variant)   # build outside the timed run
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


def ct_rows(sizes: list[int], variants: list[str], backend: str, seed: int) -> list[dict[str, object]]:
    """MODEXP_CT (elen = K) and MODEXP on a random full-length exponent and on 2^(K-1)."""
    impl = model
    if backend == "rtl":
        from pka.rtl import csa2 as rtl
        impl = rtl  # type: ignore[assignment]
    rows: list[dict[str, object]] = []
    for k in sizes:
        rng = random.Random(seed + k)
        n = rng.getrandbits(k) | 1 | (1 << (k - 1))
        x = rng.randrange(n)
        exps = (rng.getrandbits(k) | (1 << (k - 1)), 1 << (k - 1), rng.getrandbits(k // 2))
        for variant in variants:
            params = {"variant": variant}
            if backend == "rtl":
                rtl.harness(model.array_len(k, k, 0), variant)   # build outside the timed runs
            cts, plain = [], []
            t0 = time.perf_counter()
            for e in exps:
                res = impl.modexp_ct(x, e, n, params, k)
                assert res.result == int(gmpy2.powmod(x, e, n)), (k, variant)
                cts.append(res.cycles)
                plain.append(model.modexp(x, e, n, params).cycles)
            wall = time.perf_counter() - t0
            assert len(set(cts)) == 1 and cts[0] == model.exp_cycles(k, k, variant), (k, variant, cts)
            rows.append({"k": k, "elen": k, "variant": variant, "backend": backend, "ct_cycles": cts[0],
                         "ct_products": 2 * k + 4, "modexp_cycles_same_exponents": plain,
                         "modexp_products_same_exponents": [2 + e.bit_length() + bin(e).count("1") + 1
                                                            for e in exps],
                         "sim_seconds": round(wall, 2)})
            print(f"  CT K={k:5d} {variant:5s}: {cts[0]:>10,} cycles; MODEXP {plain} ({wall:.1f} s)",
                  file=sys.stderr)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[256, 512, 1024])
    ap.add_argument("--variants", nargs="+", choices=("paper", "fast"), default=["paper", "fast"])
    ap.add_argument("--merge", action="store_true", help="keep rows of other sizes/variants already in --out")
    ap.add_argument("--backend", choices=("rtl", "model"), default="rtl")
    ap.add_argument("--ct-sizes", type=int, nargs="*", default=None, help="MODEXP_CT sizes (default: --sizes)")
    ap.add_argument("--ct-backend", choices=("rtl", "model"), default=None, help="default: --backend")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    rows = run(args.sizes, args.variants, args.backend, args.seed)
    ct_backend = args.ct_backend or args.backend
    cts = ct_rows(args.sizes if args.ct_sizes is None else args.ct_sizes, args.variants, ct_backend, args.seed)
    if ct_backend == "rtl":
        from pka.rtl import csa2 as rtl
        wipe = {v: rtl.wipe({"variant": v}, 32).cycles for v in args.variants}
        assert set(wipe.values()) == {model.wipe_cycles()}
    if args.merge and args.out.exists():
        prev = json.loads(args.out.read_text())
        new = {(r["k"], r["variant"]) for r in rows}
        old = [r for r in prev["rows"] if (r["k"], r["variant"]) not in new]
        rows = sorted(old + rows, key=lambda r: (int(r["k"]), str(r["variant"]) != "paper"))
        new_ct = {(r["k"], r["variant"]) for r in cts}
        old_ct = [r for r in prev.get("ct_rows", []) if (r["k"], r["variant"]) not in new_ct]
        cts = sorted(old_ct + cts, key=lambda r: (int(r["k"]), str(r["variant"]) != "paper"))
    print(f"{'K=H':>6} {'variant':>7} {'paper formula':>14} {'ours':>12} {'ratio':>7} {'io':>6} "
          f"{'per product':>12}")
    for r in rows:
        print(f"{r['k']:>6} {r['variant']:>7} {r['paper_cycles']:>14,} {r['cycles']:>12,} "
              f"{r['ratio_to_paper']:>7.3f} {r['io_cycles'] if r['io_cycles'] is not None else '-':>6} "
              f"{r['product_cycles']:>12,}")
    print(f"\n{'K':>6} {'variant':>7} {'backend':>7} {'MODEXP_CT':>12} {'MODEXP on the same exponents':>40}")
    for r in cts:
        print(f"{r['k']:>6} {r['variant']:>7} {r['backend']:>7} {r['ct_cycles']:>12,} "
              f"{', '.join(f'{c:,}' for c in r['modexp_cycles_same_exponents']):>40}")
    print(f"wipe (OP_ZEROIZE): {model.wipe_cycles()} cycle(s), any L and variant")
    paper_1024 = paper_formula(1024, 1024)
    doc = {"engine": "csa2", "paper": "000", "backend": args.backend,
           "paper_formula": "(2K+14)(H+2) + K + 7",
           "fast_formula": "(Nc+1) + (H+2)(K+5+Nc), Nc = ceil((K+4)/32)",
           "ct_formula": "as MODEXP with H = elen: the ladder runs H + 2 rounds of both products",
           "paper_1024_ms_at_12.88ns": round(paper_1024 * PAPER_CLOCK_NS * 1e-6, 2),
           "wipe_cycles": model.wipe_cycles(),
           "rows": rows, "ct_rows": cts}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=2) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
