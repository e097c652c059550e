"""Fault-injection campaigns on the simulated pka_top (pka.analysis.fault, doc/fault.md): RSA_CRT on
hscm (512-bit key, 2 PEs) and ECC_MUL on rns (P-256), each with the result check off (--no-check:
the evidence that the flips are real) and on (where pka_top has the EnResultCheck parameter; without
it, one campaign on the RTL as it is). Prints a table, writes bench/results/fault.json.

    python bench/fault.py              # 2,000 RSA_CRT and 1,000 ECC_MUL injections per setting
    python bench/fault.py --quick      # 200 and 100
    python bench/fault.py --only rsa --check on --logs build/fault   # one campaign, its injections logged

A partial run (--quick, --only, --check, --rsa, --ecc) writes build/bench/fault-partial.json instead.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from pka.analysis.fault import CHECK_PARAM, OUTCOMES, campaign
from pka.analysis.state import has_top_param

OUT = Path(__file__).resolve().parent / "results" / "fault.json"
PARTIAL = Path(__file__).resolve().parents[1] / "build" / "bench" / "fault-partial.json"   # not committed


def run(op: str, engine: str, n: int, seed: int, check: bool, logs: Path | None = None, **kw: Any) -> dict[str, Any]:
    label = f"{op} {engine} {kw.get('bits') or kw.get('curve')} check={'on' if check else 'off'}"
    t0 = time.monotonic()
    log = None
    if logs is not None:
        logs.mkdir(parents=True, exist_ok=True)
        log = logs / f"{op}-{engine}-{kw.get('bits') or kw.get('curve')}-check-{'on' if check else 'off'}.jsonl"
    try:
        c = campaign(op, engine, n, seed, check=check, progress=lambda m: print(f"  {label}: {m}", file=sys.stderr),
                     log=log, **kw)
    except Exception as exc:   # a build or a fault-free run that fails: recorded, the others still run
        print(f"  {label}: FAILED: {type(exc).__name__}: {exc}", file=sys.stderr)
        return {"op": op, "engine": engine, "check_requested": check, **{k: v for k, v in kw.items()},
                "error": f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}",
                "seconds": round(time.monotonic() - t0, 1)}
    d = c.as_json()
    d["check_requested"] = check
    d["rtl_revision"] = rtl_revision()
    return d


def rtl_revision() -> str | None:
    """The commit the RTL comes from (+ "-dirty" when rtl/ or the driver differ from it), None outside git."""
    import subprocess

    root = Path(__file__).resolve().parents[1]
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True,
                             check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "rtl", "src/pka/driver.py", "tb"], cwd=root,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return rev + ("-dirty" if dirty else "")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="200 RSA_CRT and 100 ECC_MUL injections per setting")
    ap.add_argument("--rsa", type=int, default=None, help="RSA_CRT injections per setting (default 2000)")
    ap.add_argument("--ecc", type=int, default=None, help="ECC_MUL injections per setting (default 1000)")
    ap.add_argument("--bits", type=int, default=512)
    ap.add_argument("--pes", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--only", choices=["rsa", "ecc"], default=None)
    ap.add_argument("--check", choices=["off", "on"], default=None, help="one setting only")
    ap.add_argument("--logs", type=Path, default=None, help="one JSON line per injection, a file per campaign here")
    args = ap.parse_args()
    n_rsa = args.rsa or (200 if args.quick else 2000)
    n_ecc = args.ecc or (100 if args.quick else 1000)
    settings = [False, True] if has_top_param(CHECK_PARAM) else [False]
    if args.check:
        settings = [args.check == "on"]
    rows = []
    for check in settings:
        if args.only in (None, "rsa"):
            rows.append(run("rsa-crt", "hscm", n_rsa, args.seed, check, args.logs, bits=args.bits,
                            params={"pes": args.pes}))
        if args.only in (None, "ecc"):
            rows.append(run("ecc-mul", "rns", n_ecc, args.seed, check, args.logs, curve="P-256"))
    note = ("one bit flip per run at a random cycle between the CMD write and the interrupt, into a random "
            "entry of a random group (pe, eram, eng, seq, ram: the words the operation has used, ctrl); "
            "detected = ERR_FAULT, masked = right result, released_wrong = wrong result with status OK, "
            "hangs = no done within twice the operation's cycles, other = another status (other_codes; HOST_<code>: "
            "the hardware said OK, the driver refused to go on, e.g. a command dropped while busy; BUS_ERROR: SLVERR "
            "on the driver's reads). released_wrong_by_element: where the escapes were injected. "
            f"result_check: true/false = the build's {CHECK_PARAM} on/off, null = pka_top has no such "
            "parameter yet (the RTL as it is).")
    partial = bool(args.only or args.check or args.quick or args.rsa or args.ecc)
    out = PARTIAL if partial else OUT
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"campaigns": rows, "note": note}, indent=2) + "\n")
    head = f"{'op':8} {'engine':6} {'size':9} {'check':5} {'inj':>5} " + " ".join(f"{k:>14}" for k in OUTCOMES) \
        + f" {'inj/min':>8}"
    print(head)
    for r in rows:
        if "error" in r:
            print(f"{r['op']:8} {r['engine']:6} error: {r['error']}")
            continue
        chk = {True: "on", False: "off", None: "rtl"}[r["result_check"]]
        print(f"{r['op']:8} {r['engine']:6} {r['size']:9} {chk:5} {r['injections']:5} "
              + " ".join(f"{r[k]:14}" for k in OUTCOMES) + f" {r['injections_per_minute']:8}")
        for g, c in sorted(r["by_target"].items()):
            print(f"{'':8} {'':6} {g:>9} {'':5} {c['injections']:5} " + " ".join(f"{c[k]:14}" for k in OUTCOMES))
        if r["other_codes"]:
            print(f"{'':8} {'':6} other: " + ", ".join(f"{k} {v}" for k, v in r["other_codes"].items()))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
