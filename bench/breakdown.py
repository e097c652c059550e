"""Per-module area of the engine cores (issue 15 item 5, issue 16 item 1): where the LUTs go.

    python bench/breakdown.py [--ids hscm-1024-16pe,rns-192-mm,...] [--force]

Each configuration is synthesised by Yosys with its hierarchy kept (`pka synth --breakdown`,
pka.synth.breakdown: the core alone, no shell, no place and route, LUT4 before packing); the
results are cached by design key, so a re-run after an unrelated change costs nothing. Writes
bench/results/breakdown.json and prints one table per configuration.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from pka import synth as S
from pka.errors import PkaError

RESULTS = Path(__file__).resolve().parent / "results"
CONFIGS: list[dict[str, Any]] = [
    # the hscm core of the area goal (issue 15: <= 9,000 LUT4 at 1024 bits, 16 PEs)
    {"id": "hscm-1024-16pe", "engine": "hscm", "bits": 1024, "params": {"pes": 16, "w": 16, "window": 0, "ladder": 0}},
    # the hscm of ECDSA_SIGN's build (pka.rtl.top.ECDSA_HSCM) against 16 PEs of 16 bits at the same
    # size: the area price of its latency (doc/top.md)
    {"id": "hscm-256-8pe-w32", "engine": "hscm", "bits": 256, "params": {"pes": 8, "w": 32, "window": 0, "ladder": 0}},
    {"id": "hscm-256-16pe-w16", "engine": "hscm", "bits": 256, "params": {"pes": 16, "w": 16, "window": 0, "ladder": 0}},
    # rns MM against SBMM at the slides' sizes (issue 16 item 1: SBMM <= 0.6x MM's LUT4)
    {"id": "rns-192-mm", "engine": "rns", "bits": 192, "params": {"w": 16, "alg": "mm"}},
    {"id": "rns-192-sbmm", "engine": "rns", "bits": 192, "params": {"w": 16, "alg": "sbmm"}},
    # the README's mwr4 point
    {"id": "mwr4-256-r4-ns16-w8", "engine": "mwr4", "bits": 256, "params": {"radix": 4, "ns": 16, "w": 8}},
    # csa2 (fast variant) at 256 bits: the 1024-bit core with its hierarchy kept stops Yosys 0.70
    # (a wasm exception in ABC9 after the slices); the array is L + 4 identical slices, so the
    # per-module split scales; and the README's victor point (bench/synth.py's victor-512-k5)
    {"id": "csa2-256-fast", "engine": "csa2", "bits": 256, "params": {"variant": "fast", "l": 0}},
    {"id": "victor-512-k5", "engine": "victor", "bits": 512, "params": {"k": 5, "delta": 10, "eps": 11}},
]


def design(cfg: dict[str, Any]) -> S.SynDesign:
    return S.design_for(cfg["engine"], S.engine_params(cfg["engine"], cfg["params"]), cfg["bits"])


def current(row: dict[str, Any]) -> bool | None:
    """Whether a breakdown.json row is of the sources as they are now (None: not a configuration here)."""
    cfg = next((c for c in CONFIGS if c["id"] == row["id"]), None)
    if cfg is None:
        return None
    try:
        return S.breakdown_key(design(cfg)) == row.get("key")
    except PkaError:
        return False


def run(cfg: dict[str, Any], force: bool) -> dict[str, Any]:
    res = S.breakdown(design(cfg), force=force)
    return {"id": cfg["id"], **{k: v for k, v in res.items() if k != "cached"},
            "rows": [{"module": r["module"], "depth": r["depth"], "count": r["count"], "each": r["each"],
                      "all": r["all"]} for r in S.breakdown_rows(res["tree"])]}


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--ids", default="", help="comma-separated configuration ids (default: all)")
    ap.add_argument("--force", action="store_true", help="re-run Yosys even when cached")
    ap.add_argument("--out", type=Path, default=RESULTS / "breakdown.json")
    args = ap.parse_args()
    ids = {i for i in args.ids.split(",") if i}
    old = json.loads(args.out.read_text()) if args.out.exists() else {"rows": []}
    done = {r["id"]: r for r in old.get("rows", [])}
    for cfg in CONFIGS:
        if ids and cfg["id"] not in ids:
            continue
        t0 = time.perf_counter()
        print(f"bench/breakdown: {cfg['id']} ...", file=sys.stderr, flush=True)
        r = run(cfg, args.force)
        done[cfg["id"]] = r
        print(f"bench/breakdown: {cfg['id']}: {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        for line in S.breakdown_lines(r):
            print(line)
        print()
    order = [c["id"] for c in CONFIGS]
    rows = sorted(done.values(), key=lambda r: order.index(r["id"]) if r["id"] in order else len(order))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"what": "per-module area after Yosys, hierarchy kept (pka synth --breakdown)",
                                    "rows": rows}, indent=1) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
