"""Leakage assessment (TVLA) benchmark on the simulated pka_top (pka.analysis.tvla, issue 14 item 3):
the fixed-versus-random Welch t-test of `pka tvla` for the issue's settings, each with blinding off
(the evidence that the test finds a leak) and on:

    modexp-ct on hscm, 512-bit prime modulus, fixed vs random exponent     goal 2 x 1,000 traces
    rsa-crt   on hscm, 512-bit key, fixed vs random message                goal 2 x 1,000 traces
    ecc-mul   on rns,  P-256, fixed vs random scalar                       goal 2 x   500 traces

Prints a table, writes the JSON and one PNG of t against the cycle per setting.

    python bench/tvla.py                              # the goals above (hours on one core)
    python bench/tvla.py --quick                      # 20 traces a set, 128-bit modexp-ct / 256-bit rsa-crt
    python bench/tvla.py --only modexp-ct --bits 256 --traces 60 --record
    python bench/tvla.py --traces modexp-ct=60,ecc-mul=10 --bits modexp-ct=256 --record --merge

Where results go: the full run (the goals' sizes and trace counts) writes bench/results/tvla.json
and its PNGs bench/results/tvla-*.png; a partial run (--quick, --only, --blinding, --bits, --traces
other than the goals) writes build/bench/tvla-partial.json and its PNGs under build/bench/tvla/
(not committed), unless --record: then it writes bench/results/tvla.json and PNGs there too, the
JSON recording exactly what ran ("goal_met" per setting says whether the issue's goal was run).
--merge keeps the settings of the existing output file that this run does not repeat (a setting is
its operation, blinding and seed: a run with another --seed is kept beside the first, a replication).
Replications (ISO 17825's two independent data sets): settings of the same operation, size and
blinding with different seeds are listed under "replications" with the cycles over 4.5 of each and
those over 4.5 in every one of them (a leak shows in all; chance exceedances do not repeat).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from pka.analysis.tvla import THRESHOLD, tvla

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
OUT = RESULTS / "tvla.json"
PARTIAL = ROOT / "build" / "bench" / "tvla-partial.json"     # not committed
PARTIAL_PNG = ROOT / "build" / "bench" / "tvla"

OPS = ("modexp-ct", "rsa-crt", "ecc-mul")
ENGINE = {"modexp-ct": "hscm", "rsa-crt": "hscm", "ecc-mul": "rns"}
GOAL_TRACES = {"modexp-ct": 1000, "rsa-crt": 1000, "ecc-mul": 500}
GOAL_SIZE: dict[str, Any] = {"modexp-ct": 512, "rsa-crt": 512, "ecc-mul": "P-256"}
QUICK_TRACES = 20
QUICK_BITS = {"modexp-ct": 128, "rsa-crt": 256}
# hscm with 4 PEs, as `pka tvla` runs it by default (the bench's --pes); rns at its defaults
HSCM_PES = 4


def per_op(text: str | None, cast: Any, what: str) -> dict[str, Any]:
    """`N` (every operation) or `op=N,op=M` into {op: value}."""
    if text is None:
        return {}
    if "=" not in text:
        v = cast(text)
        return {op: v for op in OPS}
    out: dict[str, Any] = {}
    for part in text.split(","):
        op, _, v = part.partition("=")
        if op.strip() not in OPS:
            raise SystemExit(f"{what}: unknown operation {op!r} ({', '.join(OPS)})")
        out[op.strip()] = cast(v)
    return out


def rtl_revision() -> str | None:
    """The commit the RTL comes from (+ "-dirty" when rtl/, the driver or tb/ differ from it)."""
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "rtl", "src/pka/driver.py", "tb"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return rev + ("-dirty" if dirty else "")


def shrink(png: Path) -> None:
    """The plot as a 64-colour palette PNG (about a third of matplotlib's RGBA file: committed figures
    stay small)."""
    from PIL import Image

    with Image.open(png) as im:
        small = im.convert("RGB").quantize(colors=64)
    small.save(png, optimize=True)


def where(res: Any) -> tuple[dict[str, int], dict[str, int] | None]:
    """The window's cycles over 4.5 counted by the engine's state, all of them and those over 4.5 in
    both halves (where a leak is, without the PNG)."""
    import numpy as np

    lay = res.layout
    by_state = Counter(s for _, _, s in res.over(lay.first, lay.last))
    if res.halves is None:
        return dict(by_state), None
    lo, hi = lay.first - lay.load, lay.last - lay.load + 1
    h0, h1 = (np.abs(h[lo:hi]) for h in res.halves)
    both = np.nonzero((h0 > THRESHOLD) & (h1 > THRESHOLD))[0]
    confirmed = Counter(lay.phases.name(lay.state_at(lay.first + int(i))) for i in both)
    return dict(by_state), dict(confirmed)


def run(op: str, size: Any, traces: int, blinding: bool, seed: int, pes: int, png_dir: Path) -> dict[str, Any]:
    engine = ENGINE[op]
    kw: dict[str, Any] = {"curve": size} if op == "ecc-mul" else {"bits": size}
    params = {"pes": pes} if engine == "hscm" else {}
    label = f"{op} {engine} {size} blinding={'on' if blinding else 'off'} {traces}x2"
    tag = re.sub(r"[^A-Za-z0-9]+", "", str(size))
    seed_tag = "" if seed == 1 else f"-seed{seed}"          # a replication keeps its own plot
    png = png_dir / f"tvla-{op}-{engine}-{tag}-blinding-{'on' if blinding else 'off'}{seed_tag}.png"
    marks: dict[str, float] = {}
    t0 = time.monotonic()

    def progress(msg: str) -> None:
        if msg.startswith("window:"):
            marks["setup"] = time.monotonic() - t0      # build, warm-up and the reference runs
        print(f"  {label}: {msg}", file=sys.stderr)

    try:
        res = tvla(op, engine, traces, seed, blinding, params=params, png=png, progress=progress, **kw)
    except Exception as exc:   # recorded; the other settings still run
        print(f"  {label}: FAILED: {type(exc).__name__}: {exc}", file=sys.stderr)
        return {"op": op, "engine": engine, "size": str(size), "blinding": "on" if blinding else "off",
                "traces": traces, "error": f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}",
                "seconds": round(time.monotonic() - t0, 1)}
    if res.png:
        shrink(Path(res.png))
    d = res.as_json()
    by_state, confirmed = where(res)
    setup = marks.get("setup", 0.0)
    h = d["halves"]
    return {
        "op": op, "engine": engine, "size": d["size"], "params": d["params"], "blinding": d["blinding"],
        "seed": d["seed"], "traces": d["traces"], "goal_traces": GOAL_TRACES[op],
        "goal_met": d["traces"] >= GOAL_TRACES[op] and str(size) == str(GOAL_SIZE[op]),
        "samples": d["samples"], "window": d["window"], "ladder": d["ladder"],
        "max_abs_t": d["max_abs_t"], "max_abs_t_at": d["max_abs_t_at"],
        "cycles_over_4_5": d["cycles_over_4_5"],
        "expected_over_4_5_if_no_leak": d["expected_over_4_5_if_no_leak"], "varying_samples": d["varying_samples"],
        "halves": None if h is None else {k: h[k] for k in ("traces_per_set", "max_abs_t", "cycles_over_4_5_in_both")}
        | {"first_cycles": h["cycles"][:10]},
        "over_4_5_first": d["over_4_5"][:10],
        "over_4_5_by_state": by_state, "confirmed_by_state": confirmed,
        "degenerate_samples": d["degenerate_samples"],
        "excluded": [{k: e[k] for k in ("name", "cycles", "max_abs_t", "cycles_over_4_5") if k in e}
                     for e in d["excluded"]],
        "result_tail_max_abs_t": d["result_tail_max_abs_t"],
        "registers": d["registers"], "command": d["command"], "info": d["info"],
        "seconds": d["seconds"], "setup_seconds": round(setup, 1),
        "seconds_per_trace": round((d["seconds"] - setup) / (2 * traces), 2),
        "png": str(Path(d["png"]).resolve().relative_to(ROOT)) if d["png"] else None,
    }


def replications(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Settings run again with another seed (same operation, size, parameters, blinding): the cycles
    over 4.5 of each run and those in all of them. `complete` is False when a run has more cycles
    over 4.5 than the JSON lists (over_4_5_first keeps 10), so the intersection is not known."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for r in rows:
        if "error" in r:
            continue
        key = (r["op"], r["size"], json.dumps(r.get("params"), sort_keys=True), r["blinding"])
        groups.setdefault(key, []).append(r)
    out = []
    for (op, size, _, blinding), rs in groups.items():
        if len({r["seed"] for r in rs}) < 2:
            continue
        cyc = [sorted(x["cycle"] for x in r["over_4_5_first"]) for r in rs]
        complete = all(r["cycles_over_4_5"] <= len(r["over_4_5_first"]) for r in rs)
        common = sorted(set.intersection(*(set(c) for c in cyc)))
        out.append({"op": op, "size": size, "blinding": blinding, "seeds": [r["seed"] for r in rs],
                    "traces": [r["traces"] for r in rs], "max_abs_t": [r["max_abs_t"] for r in rs],
                    "cycles_over_4_5": cyc, "complete": complete, "in_all": common})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help=f"{QUICK_TRACES} traces a set, modexp-ct at {QUICK_BITS['modexp-ct']} bits, "
                         f"rsa-crt at {QUICK_BITS['rsa-crt']} bits")
    ap.add_argument("--only", default=None, help="comma-separated operations: " + ", ".join(OPS))
    ap.add_argument("--blinding", choices=["off", "on"], default=None, help="one setting only")
    ap.add_argument("--traces", default=None,
                    help="traces per set: N for every operation or op=N,... (default: the goals "
                         + ", ".join(f"{k} {v}" for k, v in GOAL_TRACES.items()) + ")")
    ap.add_argument("--bits", default=None, help="modulus bits of modexp-ct and rsa-crt: N or op=N,... (default 512)")
    ap.add_argument("--curve", default="P-256", help="ecc-mul's curve")
    ap.add_argument("--pes", type=int, default=HSCM_PES, help="hscm's PEs")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--record", action="store_true",
                    help="write bench/results/tvla.json (and its PNGs) even for a partial run")
    ap.add_argument("--merge", action="store_true", help="keep the output file's settings this run does not repeat")
    args = ap.parse_args()

    ops = OPS if args.only is None else tuple(x.strip() for x in args.only.split(","))
    if any(op not in OPS for op in ops):
        raise SystemExit(f"--only: operations are {', '.join(OPS)}")
    traces = dict(GOAL_TRACES)
    size: dict[str, Any] = dict(GOAL_SIZE)
    if args.quick:
        traces = {op: QUICK_TRACES for op in OPS}
        size.update(QUICK_BITS)
    traces.update(per_op(args.traces, int, "--traces"))
    size.update(per_op(args.bits, int, "--bits"))
    size["ecc-mul"] = args.curve
    blindings = [False, True] if args.blinding is None else [args.blinding == "on"]

    full = set(ops) == set(OPS) and len(blindings) == 2 and traces == GOAL_TRACES and size == GOAL_SIZE \
        and args.pes == HSCM_PES
    out = OUT if full or args.record else PARTIAL
    png_dir = RESULTS if out == OUT else PARTIAL_PNG

    rows = []
    for op in ops:
        for blinding in blindings:
            rows.append(run(op, size[op], traces[op], blinding, args.seed, args.pes, png_dir))
    done = {(r["op"], r["blinding"], r.get("seed")) for r in rows}
    if args.merge and out.exists():
        old = [r for r in json.loads(out.read_text())["settings"]
               if (r["op"], r["blinding"], r.get("seed")) not in done]
        rows = sorted(old + rows, key=lambda r: (OPS.index(r["op"]), r["blinding"], r.get("seed") or 0))
    reps = replications(rows)
    note = ("Fixed-versus-random Welch t per clock cycle (pka tvla, pka.analysis.tvla): the power model is the "
            "Hamming distance between consecutive states of every register and memory of the engine; the window "
            "is the engine command's computation up to the end of its ladder (excluded parts named, with their "
            f"own max |t|). |t| > {THRESHOLD} at a cycle: leakage; 'halves': the same test on two independent "
            "halves of the traces, a cycle over 4.5 in both is confirmed. expected_over_4_5_if_no_leak: the "
            "window's varying samples times P(|t| > 4.5) for Student's t with 2N - 2 degrees of freedom. "
            "goal_met: the issue's size and trace count were run (2 x 1,000 for modexp-ct and rsa-crt at 512 "
            "bits, 2 x 500 for ecc-mul on P-256); seconds_per_trace excludes the set-up (build, warm-up, "
            "reference runs).")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"settings": rows, "replications": reps, "rtl_revision": rtl_revision(), "note": note},
                              indent=2) + "\n")

    print(f"{'op':9} {'engine':6} {'size':8} {'blind':5} {'traces':>11} {'samples':>8} {'max|t|':>8} "
          f"{'>4.5':>6} {'chance':>6} {'both halves':>11} {'s/trace':>7} {'seconds':>8}")
    for r in rows:
        if "error" in r:
            print(f"{r['op']:9} {r['engine']:6} {r['size']:8} {r['blinding']:5} error: {r['error']}")
            continue
        both = "-" if r["halves"] is None else str(r["halves"]["cycles_over_4_5_in_both"])
        print(f"{r['op']:9} {r['engine']:6} {r['size']:8} {r['blinding']:5} {r['traces']:>4} x 2 ({'goal' if r['goal_met'] else 'part'})"
              f" {r['samples']:8} {r['max_abs_t']:8.2f} {r['cycles_over_4_5']:6} {r['expected_over_4_5_if_no_leak']:6}"
              f" {both:>11} {r['seconds_per_trace']:7} {r['seconds']:8}")
    for g in reps:
        print(f"replication {g['op']} {g['size']} blinding={g['blinding']}: seeds {g['seeds']}, cycles over 4.5 "
              f"{[len(c) for c in g['cycles_over_4_5']]}, in all of them: {g['in_all'] if g['complete'] else '?'}")
    print(f"wrote {out.relative_to(ROOT)} (PNGs in {png_dir.relative_to(ROOT)})")


if __name__ == "__main__":
    main()
