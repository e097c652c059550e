"""`make test-full` / `python -m pka.testfull`: the README's cycle figures on the simulated RTL.

    python -m pka.testfull --list                  # the cases, their README figure and estimate
    python -m pka.testfull                         # all of them (hours: csa2's 1024-bit modexp ~1 h)
    python -m pka.testfull -k rns-mm-192,hscm-mm   # a subset: names or parts of names, comma-separated
    python -m pka.testfull --model                 # the golden models only (checks the registry)

One case at a time (one simulator process at a time besides the cached pka_top sessions); each
case's status, seconds, cycles and figure go to build/test-full/summary.json (rewritten after
every case, so an interrupted run keeps what it did), and a table is printed. Exit 1 if a case
failed.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
import traceback
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pka.testfull.cases import CASES, Case, select

REPO = Path(__file__).resolve().parents[3]
OUT = REPO / "build" / "test-full" / "summary.json"


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _revision() -> str:
    try:
        rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True).stdout
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "rtl", "src"], cwd=REPO,
                               capture_output=True, text=True, check=True).stdout
        return rev.strip() + (" (rtl/ or src/ modified)" if dirty.strip() else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _fmt_est(s: float | None) -> str:
    return "-" if s is None else f"{s:,.0f} s" if s >= 1 else f"{s:.2f} s"


def run_case(case: Case, backend: str) -> dict[str, Any]:
    t0 = time.perf_counter()
    row: dict[str, Any] = {"case": case.name, "figure": case.figure, "rows": list(case.rows), "path": case.path,
                           "backend": backend, "started": _now()}
    try:
        out = case.run(backend)
        row.update(cycles=out.cycles, model_cycles=out.model, detail=out.detail)
        case.check(out)
        row["status"] = "pass"
    except Exception as exc:          # a failed case is recorded and the run goes on
        row.update(status="fail", error=f"{type(exc).__name__}: {exc}",
                   traceback=traceback.format_exc(limit=8))
    row["seconds"] = round(time.perf_counter() - t0, 2)
    row["finished"] = _now()
    return row


def table(rows: list[dict[str, Any]]) -> str:
    out = [f"{'case':28s} {'status':6s} {'seconds':>9s} {'cycles':>11s} {'model':>11s} {'README':>11s}  path"]
    for r in rows:
        cyc = f"{r['cycles']:,}" if isinstance(r.get("cycles"), int) else "-"
        mdl = f"{r['model_cycles']:,}" if isinstance(r.get("model_cycles"), int) else "-"
        out.append(f"{r['case']:28s} {r['status']:6s} {r['seconds']:9.1f} {cyc:>11s} {mdl:>11s} {r['figure']:>11s}  {r['path']}")
        if r["status"] != "pass":
            out.append(f"    {r['error']}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pka.testfull", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("-k", "--only", default=None, help="comma-separated case names (or parts of names)")
    ap.add_argument("--model", action="store_true", help="golden models only, no simulation")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    try:
        cases = select(args.only)
    except KeyError as exc:
        print(exc.args[0], file=sys.stderr)
        return 2
    if args.list:
        print(f"{'case':28s} {'README':>11s} {'estimate':>9s}  {'path':17s} rows")
        for c in cases:
            print(f"{c.name:28s} {c.figure:>11s} {_fmt_est(c.seconds):>9s}  {c.path:17s} {'; '.join(c.rows)}")
        print(f"{len(cases)} of {len(CASES)} cases")
        return 0
    backend = "model" if args.model else "rtl"
    summary: dict[str, Any] = {"backend": backend, "selection": args.only or "all", "revision": _revision(),
                               "host": platform.node(), "started": _now(), "cases": []}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    for c in cases:
        print(f"[{_now()}] {c.name} ({c.figure}, {c.path}, estimate {_fmt_est(c.seconds)}) ...", file=sys.stderr, flush=True)
        row = run_case(c, backend)
        summary["cases"].append(row)
        summary["seconds"] = round(time.perf_counter() - t0, 2)
        summary["finished"] = _now()
        summary["passed"] = sum(r["status"] == "pass" for r in summary["cases"])
        summary["failed"] = sum(r["status"] != "pass" for r in summary["cases"])
        args.out.write_text(json.dumps(summary, indent=1) + "\n")
        print(f"    {row['status']} in {row['seconds']:.1f} s" + (f": {row['error']}" if row["status"] != "pass" else ""),
              file=sys.stderr, flush=True)
    print(table(summary["cases"]))
    print(f"{summary['passed']} passed, {summary['failed']} failed, {summary['seconds']:.0f} s ({backend}); "
          f"wrote {args.out}")
    return 1 if summary["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
