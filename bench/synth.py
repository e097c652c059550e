"""Benchmark of the open FPGA flow: every engine at the papers' sizes on ECP5-85 (speed grade 6).

    python bench/synth.py [--engines csa2,hscm] [--target ecp5-85k] [--no-tmdriv] [--cached-only]

For each configuration: cycles of the operation from the engine's golden model (exact: the RTL
tests assert cycles_o == the model's count), synthesis and place and route of the engine in its
narrow-I/O shell (pka.synth), time per operation = cycles / routed fmax, and time x area. The
papers' own figures sit in separate columns with their device and tools named: they are NOT our
measurements and were made on other silicon with other tools.

Big runs are slow (a 1024-bit datapath ~10 min or more on 2 shared cores): the script runs one
configuration at a time, caches every result (pka.synth), and merges its rows into
bench/results/synth.json, so it can be re-run as engines land. Engines that have not landed
(no RTL fileset or mapping yet) are recorded as such. Nothing here asserts wall-clock times.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

from pka.errors import PkaError
from pka.explore import op_cycles
from pka.synth import (REPO, FlowOptions, cached_result, design_for, design_key, get_target, lut_mul_pre,
                       measured_on_current_rtl, synth_design)

OUT = Path(__file__).resolve().parent / "results" / "synth.json"
NOT_CACHED = "no routed run"   # the status of a --cached-only row whose design is not in the cache
# (no run of it finished: a run stopped before routing ends caches and records nothing)

# The papers' implementation figures (their devices and tools; quoted, never measured here).
PAPER = {
    "000": {"ref": "Cilardo et al. (paper 000), Sec. 4",
            "dev": "Virtex-E XCV2000E-8 (hand-placed)", "device": "Xilinx Virtex-E XCV2000E-8 (Synplify Pro 7.1 + ISE 4.1, hand-placed serpentine floorplan)",
            "fmax_mhz": 77.6, "time": "27.25 ms", "time_us": 27250.0,
            "area": "6,651 CLBs (24,837 LUT4, 13,500 FF), L = 1024", "cycles": 2_116_643,
            "cycles_note": "(2K+14)(H+2)+K+7, K = H = 1024"},
    "001": {"ref": "Ibrahim et al. (paper 001), Table 3 and Sec. 6",
            "dev": "Spartan-3E XC3S1600E-5", "device": "Xilinx Spartan-3E XC3S1600E-5 (Leonardo, FPGA Advantage 5.0)",
            "fmax_mhz": None, "time": "2.56 us per 256-bit MM at 95 CLB slices (radix 4); no 1024-bit figure in "
                                      "the text (the plots are missing)", "time_us": 2.56,
            "area": "95 CLB slices (256-bit, radix 4); 8 slices per PE at w = 8", "cycles": None},
    "002": {"ref": "Bigou, Tisserand (paper 002), FPGA tables (with DSP blocks)",
            "dev": "Kintex-7 (with DSP blocks)", "device": "Xilinx Kintex-7 (K7)",
            "fmax_mhz": None, "time": "MM: l=192 192 ns (50 cycles, 260 MHz), l=384 292 ns (50 cycles, 171 MHz); "
                                      "SBMM: l=192 213 ns (58 cycles, 272 MHz), l=384 324 ns (58 cycles, 179 MHz)",
            "time_us": None, "area": "MM l=192: 1,732 slices (2,759 FF / 5,075 LUT6), 36 DSP; "
                                     "SBMM l=192: 999 slices (1,867 FF / 3,599 LUT6), 18 DSP", "cycles": None},
    "003": {"ref": "Orup et al. (paper 003), Sec. 4",
            "dev": "2 um CMOS ASIC (simulated)", "device": "2 um CMOS (ASIC, simulated critical path), > 20 MHz, ~100 mm^2",
            "fmax_mhz": 20.0, "time": "n = 512: 4.8 bits per 1000 cycles (k = 5), 97 kbit/s at 20 MHz "
                                      "(= 5.3 ms per 512-bit exponentiation); no 1024-bit figure",
            "time_us": None, "area": "~100 mm^2 (2 um)", "cycles": None},
    "004": {"ref": "Wu, Li, Liu (paper 004), Table 3 (L-to-R binary, E = (2/3)(2^n - 1))",
            "device": "Xilinx Virtex-II XC2V1000-6 (16 PEs) / XC2V2000-6 (32 PEs) (Synplify Pro 9.6.2 + ISE 10.1)",
            "fmax_mhz": None, "time": "", "time_us": None, "area": "", "cycles": None},
}
HSCM_PAPER = {
    16: {"dev": "Virtex-II XC2V1000-6", "device": "Xilinx Virtex-II XC2V1000-6 (Synplify Pro 9.6.2 + ISE 10.1)",
         "fmax_mhz": 195.0, "time": "2.80 ms (XC2V1000-6); 3.45 ms at 158 MHz on XC3S1400A-5", "time_us": 2800.0,
         "area": "2,635 slices / 2,551 LUT4 / 32 MULT18X18 (XC2V1000-6)", "cycles": 546_000,
         "cycles_note": "(derived: 2.80 ms x 195 MHz; not stated)"},
    32: {"dev": "Virtex-II XC2V2000-6", "device": "Xilinx Virtex-II XC2V2000-6 (Synplify Pro 9.6.2 + ISE 10.1)",
         "fmax_mhz": 196.0, "time": "1.70 ms (XC2V2000-6); 1.19 ms at 280 MHz on XC4VSX25-12", "time_us": 1700.0,
         "area": "4,404 slices / 3,900 LUT4 / 64 MULT18X18 (XC2V2000-6)", "cycles": 333_200,
         "cycles_note": "(derived: 1.70 ms x 196 MHz; not stated)"},
}

# paper 001's radix-2 figure (Table 3), for the radix-2 rows compared with the radix-4 one
MWR4_R2_PAPER = {"time": "4.68 us per 256-bit MM at 95 CLB slices (radix 2, Table 3)", "time_us": 4.68,
                 "area": "95 CLB slices (256-bit, radix 2); 6 slices per PE at w = 8"}

CONFIGS: list[dict[str, Any]] = [
    {"id": "csa2-1024-paper", "engine": "csa2", "params": {"variant": "paper", "l": 0}, "bits": 1024,
     "op": "modexp", "paper": "000"},
    {"id": "csa2-1024-fast", "engine": "csa2", "params": {"variant": "fast", "l": 0}, "bits": 1024,
     "op": "modexp", "paper": "000", "note": "our chunked carry-propagate variant (not in the paper)"},
    {"id": "mwr4-1024-r4-ns16-w8", "engine": "mwr4", "params": {"radix": 4, "ns": 16, "w": 8}, "bits": 1024,
     "op": "modexp", "paper": "001", "note": "NS = 16, w = 8: the paper's fastest point (Sec. 6.2)"},
    {"id": "mwr4-256-r4-ns16-w8-mm", "engine": "mwr4", "params": {"radix": 4, "ns": 16, "w": 8}, "bits": 256,
     "op": "modmul", "paper": "001", "note": "the size of the paper's Table 3"},
    # radix 2 against the radix-4 point above, as the paper's Table 3 compares them (bench/mwr4.py
    # --only equal-area): at the same NS and w, and at about the same LUT4 (more stages or wider words)
    {"id": "mwr4-256-r2-ns16-w8-mm", "engine": "mwr4", "params": {"radix": 2, "ns": 16, "w": 8}, "bits": 256,
     "op": "modmul", "paper": "001", "paper_over": MWR4_R2_PAPER, "note": "radix 2 at the radix-4 point's NS and w"},
    {"id": "mwr4-256-r2-ns16-w16-mm", "engine": "mwr4", "params": {"radix": 2, "ns": 16, "w": 16}, "bits": 256,
     "op": "modmul", "paper": "001", "paper_over": MWR4_R2_PAPER,
     "note": "radix 2 at about the radix-4 point's LUT4 (Yosys estimate: 1.5 % below)"},
    {"id": "mwr4-256-r2-ns32-w8-mm", "engine": "mwr4", "params": {"radix": 2, "ns": 32, "w": 8}, "bits": 256,
     "op": "modmul", "paper": "001", "paper_over": MWR4_R2_PAPER,
     "note": "radix 2 at about the radix-4 point's LUT4 (Yosys estimate: 2.8 % above)"},
    {"id": "victor-1024-k5", "engine": "victor", "params": {"k": 5, "delta": 10, "eps": 11}, "bits": 1024,
     "op": "modexp", "paper": "003"},
    {"id": "victor-512-k5", "engine": "victor", "params": {"k": 5, "delta": 10, "eps": 11}, "bits": 512,
     "op": "modexp", "paper": "003", "paper_over": {
         "time": "5.3 ms per 512-bit exponentiation (97 kbit/s at 20 MHz, k = 5; Sec. 4)", "time_us": 5300.0},
     "note": "the paper's own size (n = 512); also the size that fits if 1024 bits does not place"},
    {"id": "hscm-1024-16pe", "engine": "hscm", "params": {"pes": 16, "w": 16, "window": 0, "ladder": 0},
     "bits": 1024, "op": "modexp", "paper": "004", "pes": 16, "freq": 200.0,
     "note": "constraint 200 MHz: the question is whether the PE pipeline reaches 150 MHz"},
    {"id": "hscm-1024-32pe", "engine": "hscm", "params": {"pes": 32, "w": 16, "window": 0, "ladder": 0},
     "bits": 1024, "op": "modexp", "paper": "004", "pes": 32, "freq": 200.0},
    {"id": "hscm-1024-16pe-k32", "engine": "hscm", "params": {"pes": 16, "w": 16, "k": 32, "window": 0, "ladder": 0},
     "bits": 1024, "op": "modexp", "paper": "004", "pes": 16, "freq": 200.0,
     "note": "digits of k = 32 bits on the 16-bit PEs (the `k` parameter, issue 16): the same PEs, two passes a digit"},
    {"id": "rns-256-w32-mm", "engine": "rns", "params": {"w": 32, "alg": "mm"}, "bits": 256, "op": "modmul",
     "paper": "002"},
    {"id": "rns-256-w32-sbmm", "engine": "rns", "params": {"w": 32, "alg": "sbmm"}, "bits": 256, "op": "modmul",
     "paper": "002"},
]


# Issue 15's clock goals (ECP5-85, the rows it lists): doc/results.md shows each measured fmax as a
# share of its goal
GOALS_MHZ: dict[str, float] = {
    "csa2-1024-paper": 120.0, "csa2-1024-fast": 120.0, "mwr4-256-r4-ns16-w8-mm": 130.0, "victor-512-k5": 60.0,
    "hscm-1024-16pe": 125.0, "hscm-1024-32pe": 110.0, "rns-256-w32-mm": 100.0, "rns-256-w32-sbmm": 100.0,
}


def _goal(r: dict[str, Any]) -> str:
    """The row's issue-15 clock goal and the measured fmax's share of it ("-" for a row it does not list)."""
    goal = GOALS_MHZ.get(r["id"])
    if goal is None:
        return "-"
    if r.get("status") == "ok" and r.get("fmax_mhz"):
        return f"{goal:g} ({100 * r['fmax_mhz'] / goal:.0f} %{', earlier RTL' if r.get('stale') else ''})"
    return f"{goal:g} (not routed)"


# Issue 15's goals, every one of them (clock, area, time per operation), measured against the JSON
# rows: (goal, row id or "breakdown:<id>" for bench/breakdown.py's per-module area, what is measured,
# the bound, the unit). doc/results.md's table "Issue 15's goals" is made from this list; what each
# unmet goal would take is the doc's prose below that table.
ISSUE_GOALS: list[tuple[str, str, str, float, str]] = [
    ("clock: csa2 1024, `paper`", "csa2-1024-paper", "fmax", GOALS_MHZ["csa2-1024-paper"], "MHz"),
    ("clock: csa2 1024, `fast`", "csa2-1024-fast", "fmax", GOALS_MHZ["csa2-1024-fast"], "MHz"),
    ("clock: mwr4 256, radix 4, NS = 16, w = 8", "mwr4-256-r4-ns16-w8-mm", "fmax",
     GOALS_MHZ["mwr4-256-r4-ns16-w8-mm"], "MHz"),
    ("clock: victor 512, k = 5", "victor-512-k5", "fmax", GOALS_MHZ["victor-512-k5"], "MHz"),
    ("clock: hscm 1024, 16 PEs", "hscm-1024-16pe", "fmax", GOALS_MHZ["hscm-1024-16pe"], "MHz"),
    ("clock: hscm 1024, 32 PEs", "hscm-1024-32pe", "fmax", GOALS_MHZ["hscm-1024-32pe"], "MHz"),
    ("clock: rns MM, l = 256, w = 32", "rns-256-w32-mm", "fmax", GOALS_MHZ["rns-256-w32-mm"], "MHz"),
    ("clock: rns SBMM, l = 256, w = 32", "rns-256-w32-sbmm", "fmax", GOALS_MHZ["rns-256-w32-sbmm"], "MHz"),
    ("clock: `make demo`'s RSA build (pka_top)", "top-demo-rsa", "fmax", 100.0, "MHz"),
    ("clock: `make demo`'s ECC build (pka_top)", "top-demo-ecc", "fmax", 100.0, "MHz"),
    ("clock: hscm and rns in one pka_top (routed on the ECP5-85)", "top-both", "fmax", 100.0, "MHz"),
    ("area: hscm core, 1024 bits, 16 PEs (Yosys)", "breakdown:hscm-1024-16pe", "lut4", 9000.0, "LUT4"),
    ("area: `make demo`'s RSA build (pka_top)", "top-demo-rsa", "lut4", 20000.0, "LUT4"),
    ("time: RSA-2048 CRT sign on `make demo`'s RSA build", "top-demo-rsa", "time:rsa2048", 4000.0, "us"),
    ("time: P-256 k*G on `make demo`'s ECC build", "top-demo-ecc", "time:p256", 1500.0, "us"),
    ("time: 1024-bit modexp on hscm, 16 PEs", "hscm-1024-16pe", "time", 3600.0, "us"),
]


def _goal_value(src: str, what: str, rows: dict[str, dict[str, Any]],
                breakdowns: dict[str, dict[str, Any]]) -> tuple[float | None, bool, str]:
    """(the measured value or None, whether it is of an earlier RTL, why there is none)."""
    if src.startswith("breakdown:"):
        b = breakdowns.get(src.split(":", 1)[1])
        if not b:
            return None, False, "not synthesised"
        stale = b.get("current") is False
        return float(b["rows"][0]["all"]["lut4"]), stale, ""
    r = rows.get(src)
    if r is None or r.get("status") != "ok" or not r.get("fmax_mhz"):
        return None, False, "no routed run" if r is None or "P&R" not in str(r.get("status")) else "P&R failed"
    stale = bool(r.get("stale")) if "stale" in r else not measured_on_current_rtl(r)
    if what == "fmax":
        return float(r["fmax_mhz"]), stale, ""
    if what == "lut4":
        lut4 = (r.get("area") or {}).get("lut4")
        return (float(lut4), stale, "") if lut4 is not None else (None, False, "no area recorded")
    if what == "time":
        return float(r["time_us"]), stale, ""
    op = what.split(":", 1)[1]
    return float(r["time_us"][op]["off"]), stale, ""


def _goal_fmt(x: float, unit: str) -> str:
    if unit == "us":
        return fmt_time(x)
    return f"{x:,.1f} {unit}" if unit == "MHz" else f"{x:,.0f} {unit}"


def goals_markdown(rows: list[dict[str, Any]], breakdowns: list[dict[str, Any]]) -> str:
    """doc/results.md's table of issue 15's goals: each goal, its bound, the measured value (from
    bench/results/synth.json and bench/results/breakdown.json, marked when of an earlier RTL), and
    whether it is met."""
    by_id = {r["id"]: r for r in rows}
    by_bd = {b["id"]: b for b in breakdowns}
    out = ["| goal | bound | now | met |", "|---|---:|---:|---|"]
    for goal, src, what, bound, unit in ISSUE_GOALS:
        v, stale, why = _goal_value(src, what, by_id, by_bd)
        up = what == "fmax"                       # a clock is a lower bound, area and time upper bounds
        sign = ">=" if up else "<="
        b_txt, v_txt = _goal_fmt(bound, unit), (_goal_fmt(v, unit) if v is not None else why)
        if v is None:
            met = "no"
        else:
            ok = v >= bound if up else v <= bound
            share = f"{100 * v / bound:.0f} %" if up else f"{v / bound:.2f}x the bound"
            met = ("**yes**" if ok else f"no ({share})") + (", earlier RTL" if stale else "")
            v_txt += " (earlier RTL)" if stale else ""
        out.append(f"| {goal} | {sign} {b_txt} | {v_txt} | {met} |")
    return "\n".join(out) + "\n"


# Small builds (issue 15, deliverable 4): fewer words, the same PE / rower width and the same
# microprogram, so the worst path is the full-size one's in minutes of tools instead of an hour; each
# names the full-size row it stands for, and the doc shows the two worst paths side by side.
SMALL: list[dict[str, Any]] = [
    {"id": "rns-64-w32-mm", "engine": "rns", "params": {"w": 32, "alg": "mm"}, "bits": 64, "op": "modmul",
     "paper": "002", "small_for": "rns-256-w32-mm",
     "note": "l = 64: 3 rowers of the same w = 32 and the same microprogram as l = 256's 9"},
    {"id": "rns-128-w32-sbmm", "engine": "rns", "params": {"w": 32, "alg": "sbmm"}, "bits": 128, "op": "modmul",
     "paper": "002", "small_for": "rns-256-w32-sbmm",
     "note": "the smallest SBMM build of w = 32 (MaxLen 128): SBMM rowers of the same w = 32 and the same "
             "microprogram as l = 256's (MaxLen 384)"},
]


# Design units alone (pka synth --unit): the datapath without controller, memory interface or shell,
# for the issue's two questions: does the HSCM PE pipeline reach 150 MHz, and does the csa2
# bit-slice array reach the paper's 77.6 MHz at L = 1024; and pka_top's sequencer alone.
UNITS: list[dict[str, Any]] = [
    {"id": "unit-hscm-pe-w16", "unit": "pka_hscm_pe", "fileset": "hscm", "rtl": {"W": 16, "TagW": 9},
     "freq": 200.0, "note": "one HSCM PE (two 16x16 multipliers), paper 004 Fig. 2"},
    {"id": "unit-csa2-slice", "unit": "pka_csa2_slice", "fileset": "csa2", "rtl": {"ChunkW": 1},
     "note": "one csa2 bit-slice (paper 000 Fig. 2: 24 LUTs, 12 FFs, 5.25 ns alone on Virtex-E -8)"},
    {"id": "unit-csa2-array-1024", "unit": "pka_csa2_array", "fileset": "csa2",
     "rtl": {"MaxLen": 1024, "ChunkW": 1}, "note": "the L + 4 = 1028 bit-slices, paper 000 Fig. 1"},
    # pka_top's sequencer with the RSA build's parameters (top-demo-rsa's): the small build for the
    # sequencer's own paths, 1.5 min of tools against 30-50 for the whole top (doc/results.md)
    {"id": "unit-top-seq-rsa", "unit": "pka_top_seq", "fileset": "top",
     "rtl": {"MaxLen": 2048, "SlotAw": 7, "EngMask": 32, "MontK": 16, "InvWindow": 4, "CrtBlind": 1},
     "note": "pka_top's sequencer alone, top-demo-rsa's parameters (hscm only)"},
]


# pka_top as a user builds it (issue 15): the bus, register block, sequencer, operand RAM and the
# engines, in the scan wrapper of `pka synth --unit` (its ports behind shift registers), with the RTL
# parameters the builds themselves use; router2 (router1 takes hours on designs this congested).
# Time per operation = pka_top's COMPUTE cycles (pka.rtl.top's models, asserted equal to the RTL by
# the top tests) / fmax: an RSA-2048 CRT signature with the key set up (the engine's RSA_CRT and
# the check s^e mod N), a P-256 k*G (ECC_MUL, the result checked on the curve), blinding off and on.
def top_builds() -> list[dict[str, Any]]:
    from pka.rtl.top import engine_config, hscm_rns_config
    return [
        {"id": "top-demo-rsa", "what": "`make demo`'s RSA build: hscm, 32 PEs (2 x 16), window 6",
         "cfg": engine_config("hscm", {"pes": 32, "window": 6}, 2048), "ops": ("rsa2048",)},
        {"id": "top-demo-ecc", "what": "`make demo`'s ECC build: rns, w = 32",
         "cfg": engine_config("rns", {}, 256), "ops": ("p256",)},
        {"id": "top-both", "what": "hscm (16 PEs, RSA-2048) and rns (RnsMaxLen 256) in one pka_top: "
                                   "`make soc-demo`'s build, the rns rowers' fold products in LUTs as in "
                                   "the board's `both` bitstream",
         "cfg": hscm_rns_config(2048, 16), "ops": ("rsa2048", "p256"),
         # the rowers' fold products in LUTs, as the SoC's `both` build (router2 stalled with them in
         # the DSP rows, doc/results.md)
         "lut_muls": ("rns-fold",)},
    ]


def top_op_cycles(op: str, params: dict[str, int]) -> dict[str, int]:
    """pka_top COMPUTE cycles of one operation on a build with these RTL parameters, blinding off/on."""
    from pka.rtl.top import crt_compute, ecc_compute
    if op == "p256":
        w = int(params.get("RnsW", 32))
        return {"off": ecc_compute("p256", w, False), "on": ecc_compute("p256", w, True)}
    from pka.proto.keys import rsa_key
    from pka.proto.rsa import crt_key
    key = crt_key(rsa_key(2048, seed=1))    # constant time: the count depends on the lengths only
    hp = {"pes": int(params["HscmPes"]), "w": int(params.get("HscmW", 16)), "window": int(params["HscmMaxWindow"])}
    m = 0x1234567 % key.n
    return {"off": crt_compute(m, key, hp, False, False), "on": crt_compute(m, key, hp, False, False, blind=True)}


OP_NAMES = {"rsa2048": "RSA-2048 CRT sign", "p256": "P-256 k*G"}


def _unit_row(row: dict[str, Any], module: str, fileset: str, rtl: dict[str, Any], target: str,
              opts: FlowOptions, cached_only: bool, lut_muls: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """Synthesise (or look up) one design unit for a row: sets the row's design key, or its status
    when the flow fails or (cached_only) nothing is cached; returns the flow's result or None."""
    from pka.synth import unit_design
    try:
        d = unit_design(module, fileset, rtl)
        if lut_muls:
            d = dataclasses.replace(d, yosys_pre=d.yosys_pre + lut_mul_pre(lut_muls))
            row["lut_muls"] = list(lut_muls)
        row["design_key"] = design_key(d, get_target(target), opts)
        res = cached_result(d, target, opts) if cached_only else synth_design(d, target, opts)
    except PkaError as exc:
        row["status"] = f"error: {exc}"
        return None
    except Exception as exc:
        row["status"] = f"error: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        return None
    if res is None:
        row["status"] = NOT_CACHED
        return None
    row.update(status="ok" if not res.get("pnr_error") else f"synthesis only (P&R failed: {res['pnr_error']})",
               fmax_mhz=res["fmax_mhz"], area={k: v for k, v in res["area"].items() if not k.endswith("_avail")},
               wrapper_area=res.get("shell_area"), critical_path=res.get("critical_path"), flow=res["flow"],
               tools=res["tools"], tool_time_s=res["time"])
    return dict(res)


def run_top(cfg: dict[str, Any], target: str, opts: FlowOptions, cached_only: bool,
            router: str = "router2") -> dict[str, Any]:
    params = cfg["cfg"].verilog_params()
    row: dict[str, Any] = {"id": cfg["id"], "kind": "top", "what": cfg["what"], "rtl_params": params,
                           "target": target}
    row["cycles"] = {op: top_op_cycles(op, params) for op in cfg["ops"]}
    opts = FlowOptions(freq=opts.freq, seed=opts.seed, no_tmdriv=opts.no_tmdriv, timeout=opts.timeout,
                       router=router)
    res = _unit_row(row, "pka_top", "top", params, target, opts, cached_only, tuple(cfg.get("lut_muls", ())))
    if res is not None and res["fmax_mhz"]:
        row["time_us"] = {op: {b: c / res["fmax_mhz"] for b, c in cyc.items()} for op, cyc in row["cycles"].items()}
    return row


def run_unit(cfg: dict[str, Any], target: str, opts: FlowOptions, cached_only: bool) -> dict[str, Any]:
    row: dict[str, Any] = {"id": cfg["id"], "unit": cfg["unit"], "fileset": cfg["fileset"], "rtl_params": cfg["rtl"],
                           "target": target, "note": cfg.get("note", ""), "kind": "unit"}
    if landed(cfg["fileset"]):
        row["status"] = landed(cfg["fileset"])
        return row
    if cfg.get("freq"):
        opts = dataclasses.replace(opts, freq=cfg["freq"])
    _unit_row(row, cfg["unit"], cfg["fileset"], cfg["rtl"], target, opts, cached_only)
    return row


def paper_cols(cfg: dict[str, Any]) -> dict[str, Any]:
    p = dict(PAPER[cfg["paper"]])
    if cfg["engine"] == "hscm":
        p.update(HSCM_PAPER.get(int(cfg.get("pes", 0)), {}))
    p.update(cfg.get("paper_over", {}))
    return p


def landed(engine: str) -> str | None:
    """None if the engine (or `top`, pka_top's own fileset) can be synthesised, else why not."""
    if engine == "top":
        return None if (REPO / "rtl" / "top" / "top.f").exists() else "RTL not landed"
    if not (REPO / "rtl" / "engines" / engine / f"{engine}.f").exists():
        return "RTL not landed"
    if not (REPO / "src" / "pka" / "model" / f"{engine}.py").exists():
        return "model not landed"
    return None


def run_small(cfg: dict[str, Any], target: str, opts: FlowOptions, cached_only: bool) -> dict[str, Any]:
    """A small build (SMALL): an engine row of its own kind, naming the full-size row it stands for."""
    return dict(run_one(cfg, target, opts, cached_only), kind="small", small_for=cfg["small_for"])


def run_one(cfg: dict[str, Any], target: str, opts: FlowOptions, cached_only: bool) -> dict[str, Any]:
    row: dict[str, Any] = {k: cfg[k] for k in ("id", "engine", "params", "bits", "op")}
    row["target"] = target
    row["note"] = cfg.get("note", "")
    row["paper"] = paper_cols(cfg)
    why = landed(cfg["engine"])
    if why:
        row["status"] = why
        return row
    try:
        cyc = op_cycles(cfg["engine"], cfg["params"], cfg["bits"], cfg["op"], "model")
        row.update(cycles=cyc["cycles"], cycles_source=cyc["source"], cycles_detail=cyc.get("detail", {}))
        d = design_for(cfg["engine"], cfg["params"], cfg["bits"])
        if cfg.get("freq"):
            opts = dataclasses.replace(opts, freq=cfg["freq"])
        row["design_key"] = design_key(d, get_target(target), opts)
        res = cached_result(d, target, opts) if cached_only else synth_design(d, target, opts)
        if res is None:
            row["status"] = NOT_CACHED
            return row
    except PkaError as exc:
        row["status"] = f"error: {exc}"
        return row
    except Exception as exc:  # a tool failure: record it, go on with the next configuration
        row["status"] = f"error: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        return row
    row["status"] = "ok" if not res.get("pnr_error") else f"synthesis only (P&R failed: {res['pnr_error']})"
    row["fmax_mhz"] = res["fmax_mhz"]
    row["area"] = {k: v for k, v in res["area"].items() if not k.endswith("_avail")}
    row["shell_area"] = res.get("shell_area")
    row["rtl"] = res["rtl"]
    row["critical_path"] = res.get("critical_path")
    row["flow"] = res["flow"]
    row["tools"] = res["tools"]
    row["tool_time_s"] = res["time"]
    if res["fmax_mhz"]:
        row["time_us"] = cyc["cycles"] / res["fmax_mhz"]
        lut = row["area"].get("lut4", row["area"].get("lut"))
        if lut:
            row["time_x_klut4_ms"] = row["time_us"] / 1000 * lut / 1000
    return row


def keep_old(row: dict[str, Any], prev: dict[str, Any] | None) -> bool:
    """Keep an earlier successful row instead of a failed rerun of the same design (same cache key:
    sources, RTL parameters, flow options, tools), and always instead of a --cached-only row that
    found nothing cached: a measurement of an earlier RTL stays on record (the doc marks it
    'earlier RTL') until a run of the current RTL replaces it."""
    if prev is None or prev.get("status") != "ok" or row.get("status") == "ok":
        return False
    if row.get("status") == NOT_CACHED:
        return True
    return row.get("design_key") is not None and prev.get("design_key") == row.get("design_key")


def fmt_time(us: float | None) -> str:
    if us is None:
        return "-"
    return f"{us / 1000:.3f} ms" if us >= 1000 else f"{us:.3f} us"


def print_table(rows: list[dict[str, Any]]) -> None:
    rows = [r for r in rows if r.get("kind") not in ("unit", "top")]       # engines and small builds
    head = ["config", "cycles", "fmax MHz", "time/op", "LUT4", "FF", "DSP", "EBR", "time x kLUT4 (ms)",
            "| paper fmax", "paper time"]
    out = []
    for r in rows:
        if r.get("status") != "ok" or not r.get("fmax_mhz"):
            out.append([r["id"], r.get("status", "?"), "", "", "", "", "", "", "", "", ""])
            continue
        a = r["area"]
        p = r["paper"]
        out.append([r["id"], f"{r['cycles']:,}", f"{r['fmax_mhz']:.1f}" if r.get("fmax_mhz") else "-",
                    fmt_time(r.get("time_us")), str(a.get("lut4", a.get("lut", "-"))), str(a.get("ff", "-")),
                    str(a.get("dsp", a.get("dsp48e1", "-"))), str(a.get("ebr", a.get("ramb18", "-"))),
                    f"{r['time_x_klut4_ms']:.3g}" if r.get("time_x_klut4_ms") else "-",
                    f"| {p['fmax_mhz']}" if p.get("fmax_mhz") else "| -", fmt_time(p.get("time_us"))])
    widths = [max(len(str(x)) for x in col) for col in zip(head, *out)]
    print("  ".join(h.ljust(w) for h, w in zip(head, widths)))
    for row in out:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)))


DOC = REPO / "doc" / "results.md"
BEGIN, END = "<!-- BEGIN bench/synth.py tables -->", "<!-- END bench/synth.py tables -->"
GOALS_BEGIN, GOALS_END = "<!-- BEGIN bench/synth.py goals -->", "<!-- END bench/synth.py goals -->"


def _n(x: Any) -> str:
    """A count with thousands separators, or '-'."""
    return f"{x:,}" if isinstance(x, (int, float)) and not isinstance(x, bool) else "-"


def _cfg(r: dict[str, Any]) -> str:
    return f"{r['engine']} " + ", ".join(f"{k}={v}" for k, v in r["params"].items())


def _path(cp: dict[str, Any] | None) -> str:
    if not cp:
        return "-"
    return (f"{cp.get('delay_ns', '-')} ns = {cp.get('logic_ns', '-')} logic + {cp.get('routing_ns', '-')} routing, "
            f"{cp.get('logic_levels', '-')} levels, in {cp.get('in', '-')}: `{cp.get('from_net', '-')}` -> "
            f"`{cp.get('to_cell', '-')}`")


def markdown(all_rows: list[dict[str, Any]]) -> str:
    """The tables of doc/results.md from the JSON rows: ours with the papers' figures in adjacent
    columns, where the clock goes, the design units alone, the papers' references in full."""
    rows = [r for r in all_rows if r.get("kind") not in ("unit", "top", "small")]
    out = ["**Ours**: the engine in the narrow-I/O shell (doc/synth.md), Yosys + nextpnr, **Lattice ECP5 "
           "LFE5U-85F speed grade 6, CABGA381**, one seed; cycles from the golden models (exact, equal to the "
           "RTL's `cycles_o`); time = cycles / fmax; area = nextpnr's counts of the whole design, shell included "
           "(~475 LUT4, ~345 FF, 1 EBR per 512 operand words). **Paper**: the paper's own figure on its own "
           "device (quoted, not measured here; full references below).", "",
           "| configuration | op | bits | cycles | fmax (MHz) | time per op | LUT4 | FF | DSP | EBR | "
           "time x area (ms x kLUT4) | paper: device | paper fmax (MHz) | paper time per op | paper area |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        p = r["paper"]
        pcols = (f"{p.get('dev') or p['device']} | {p.get('fmax_mhz') or '-'} | {p.get('time') or '-'} | "
                 f"{p.get('area') or '-'} |")
        cyc = _n(r.get("cycles"))
        a = r.get("area") or {}
        if r.get("status") == "ok" and r.get("fmax_mhz") and r.get("stale"):
            out.append(f"| {_cfg(r)} | {r['op']} | {r['bits']} | {cyc} | {r['fmax_mhz']:.1f} (earlier RTL) | "
                       f"{fmt_time(r.get('time_us'))} (earlier RTL's fmax) | {_n(a.get('lut4'))} | {_n(a.get('ff'))} | "
                       f"{_n(a.get('dsp'))} | {_n(a.get('ebr'))} | {r['time_x_klut4_ms']:.3g} | {pcols}")
        elif r.get("status") == "ok" and r.get("fmax_mhz"):
            out.append(f"| {_cfg(r)} | {r['op']} | {r['bits']} | {cyc} | **{r['fmax_mhz']:.1f}** | "
                       f"**{fmt_time(r.get('time_us'))}** | {_n(a.get('lut4'))} | {_n(a.get('ff'))} | "
                       f"{_n(a.get('dsp'))} | {_n(a.get('ebr'))} | {r['time_x_klut4_ms']:.3g} | {pcols}")
        elif a:
            out.append(f"| {_cfg(r)} | {r['op']} | {r['bits']} | {cyc} | - (P&R failed, see below) | - | "
                       f"{_n(a.get('lut4'))} (Yosys) | {_n(a.get('ff'))} (Yosys) | {_n(a.get('dsp'))} | "
                       f"{_n(a.get('ebr'))} | - | {pcols}")
        else:
            out.append(f"| {_cfg(r)} | {r['op']} | {r['bits']} | {cyc} | {r.get('status')} | | | | | | | {pcols}")
    out += ["", "Where the clock goes: the worst register-to-register path nextpnr reports (RTL names; cells "
            "named after one of their fanouts, since synthesis merges logic across instances), utilisation of "
            "the 83,640 LUT4 sites, the flow of each row, and issue 15's clock goal for the rows it lists with "
            "the measured fmax as a share of it.", "",
            "| configuration | bits | fmax (MHz) | worst path | LUT4 use | flow | tool time | goal (MHz) |",
            "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        flow = r.get("flow") or {}
        tt = r.get("tool_time_s") or {}
        ftext = (f"{flow.get('freq', '-'):g} MHz constraint, seed {flow.get('seed', '-')}"
                 f"{', no-tmdriv' if flow.get('no_tmdriv') else ''}"
                 f"{', ' + flow['router'] if flow.get('router', 'router1') != 'router1' else ''}") if flow else "-"
        ttext = (f"Yosys {tt.get('yosys_s', 0) / 60:.0f} min, nextpnr {tt.get('nextpnr_s', 0) / 60:.0f} min"
                 if tt else "-")
        a = r.get("area") or {}
        use = f"{100 * a['lut4'] / 83640:.0f} %" if isinstance(a.get("lut4"), int) else "-"
        if r.get("status") == "ok" and r.get("fmax_mhz"):
            stale = " (earlier RTL)" if r.get("stale") else ""
            out.append(f"| {_cfg(r)} | {r['bits']} | {r['fmax_mhz']:.1f}{stale} | {_path(r.get('critical_path'))} | {use} | "
                       f"{ftext} | {ttext} | {_goal(r)} |")
        else:
            out.append(f"| {_cfg(r)} | {r['bits']} | - | {r.get('status')} | {use} | {ftext} | {ttext} | {_goal(r)} |")
    smalls = [r for r in all_rows if r.get("kind") == "small"]
    if smalls:
        full = {r["id"]: r for r in rows}
        out += ["", "Small builds: fewer words, the same PE / rower width and microprogram, minutes of tools "
                "instead of an hour; the timing work iterates on these and is confirmed once at full size. Each "
                "stands for the full-size row named, its worst path beside the small build's: on the same RTL they "
                "should be the same path (a full-size row on an earlier RTL is marked so).", "",
                "| small build | bits | fmax (MHz) | LUT4 | worst path | stands for | its fmax (MHz) | its worst path |",
                "|---|---|---|---|---|---|---|---|"]
        for r in smalls:
            f = full.get(r["small_for"]) or {}
            a = r.get("area") or {}
            fmax = (f"**{r['fmax_mhz']:.1f}**{' (earlier RTL)' if r.get('stale') else ''}"
                    if r.get("status") == "ok" and r.get("fmax_mhz") else str(r.get("status")))
            ffmax = (f"{f['fmax_mhz']:.1f}{' (earlier RTL)' if f.get('stale') else ''}"
                     if f.get("status") == "ok" and f.get("fmax_mhz") else str(f.get("status", "-")))
            out.append(f"| {_cfg(r)} | {r['bits']} | {fmax} | {_n(a.get('lut4'))} | {_path(r.get('critical_path'))} | "
                       f"{_cfg(f) if f else r['small_for']}, {f.get('bits', '-')} bits | {ffmax} | "
                       f"{_path(f.get('critical_path'))} |")
    tops = [r for r in all_rows if r.get("kind") == "top"]
    if tops:
        out += ["", "pka_top as a user builds it (`pka synth --unit pka_top`: the whole accelerator - AXI4-Lite "
                "bus, register block, sequencer, operand RAM, engines - with its ports behind scan registers; "
                "same device and flow; nextpnr's router in the tool-time column). Time = pka_top's COMPUTE cycles (with the key or curve set up; "
                "blinding off / on; bus transfers excluded) / fmax.", "",
                "| build | RTL parameters | fmax (MHz) | LUT4 | FF | DSP | EBR | time per operation | worst path "
                "| tool time |",
                "|---|---|---|---|---|---|---|---|---|---|"]
        for r in tops:
            rp = ", ".join(f"{k}={v}" for k, v in r["rtl_params"].items() if not (k.startswith("En") and not v))
            cyc = r.get("cycles") or {}
            a = r.get("area") or {}
            tt = r.get("tool_time_s") or {}
            router = (r.get("flow") or {}).get("router", "router1")
            ttext = (f"Yosys {tt.get('yosys_s', 0) / 60:.0f} min, nextpnr {tt.get('nextpnr_s', 0) / 60:.0f} min "
                     f"({router})" if tt else "-")
            if r.get("status") == "ok" and r.get("fmax_mhz"):
                stale = " (earlier RTL)" if r.get("design_key") and not measured_on_current_rtl(r) else ""
                times = "; ".join(f"{OP_NAMES[op]}: **{fmt_time(t['off'])}** / {fmt_time(t['on'])} "
                                  f"({_n(cyc[op]['off'])} / {_n(cyc[op]['on'])} cycles)"
                                  for op, t in r["time_us"].items())
                out.append(f"| {r['what']} | {rp} | **{r['fmax_mhz']:.1f}**{stale} | {_n(a.get('lut4'))} | "
                           f"{_n(a.get('ff'))} | {_n(a.get('dsp'))} | {_n(a.get('ebr'))} | {times} | "
                           f"{_path(r.get('critical_path'))} | {ttext} |")
            else:
                times = "; ".join(f"{OP_NAMES[op]}: {_n(c['off'])} / {_n(c['on'])} cycles" for op, c in cyc.items())
                out.append(f"| {r['what']} | {rp} | {r.get('status')} | {_n(a.get('lut4'))} | {_n(a.get('ff'))} | "
                           f"{_n(a.get('dsp'))} | {_n(a.get('ebr'))} | {times} | - | {ttext} |")
    units = [r for r in all_rows if r.get("kind") == "unit"]
    if units:
        out += ["", "Design units alone (`pka synth --unit`: every port behind scan registers, no shell, no "
                "controller; same device and flow). `top` in the path = the scan wrapper's registers.", "",
                "| unit | RTL parameters | fmax (MHz) | LUT4 | FF | DSP | wrapper FF | worst path | flow | note |",
                "|---|---|---|---|---|---|---|---|---|---|"]
        for r in units:
            rp = ", ".join(f"{k}={v}" for k, v in r["rtl_params"].items())
            if r.get("status") != "ok":
                out.append(f"| {r['unit']} | {rp} | {r.get('status')} | | | | | | | {r.get('note', '')} |")
                continue
            a, flow = r["area"], r.get("flow", {})
            stale = " (earlier RTL)" if not measured_on_current_rtl(r) else ""
            out.append(f"| {r['unit']} | {rp} | **{r['fmax_mhz']:.1f}**{stale} | {_n(a.get('lut4'))} | {_n(a.get('ff'))} | "
                       f"{_n(a.get('dsp'))} | {(r.get('wrapper_area') or {}).get('ff', '-')} | "
                       f"{_path(r.get('critical_path'))} | "
                       f"{flow.get('freq', '-'):g} MHz, seed {flow.get('seed', '-')} | {r.get('note', '')} |")
    out += ["", "The papers' figures in full (quoted; their devices and tools, **not** measured here):", "",
            "| configuration | paper | device and tools | fmax (MHz) | time | area | cycles |",
            "|---|---|---|---|---|---|---|"]
    for r in rows:
        p = r["paper"]
        cyc = f"{p['cycles']:,} {p.get('cycles_note', '')}" if p.get("cycles") else "-"
        out.append(f"| {_cfg(r)}, {r['bits']} bits | {p['ref']} | {p['device']} | {p.get('fmax_mhz') or '-'} | "
                   f"{p.get('time') or '-'} | {p.get('area') or '-'} | {cyc} |")
    return "\n".join(out) + "\n"


def refresh(rows: list[dict[str, Any]], target: str) -> list[dict[str, Any]]:
    """For the doc: each engine row against the RTL and models as they are now. The cycles are
    recomputed from the current golden model (they are facts of the current RTL); a row whose stored
    design key differs from the current design's key was measured on an earlier revision of the RTL:
    it is marked `stale` (its fmax and area are shown as such; the time per operation uses the
    current cycles with that fmax)."""
    cfgs = {c["id"]: c for c in CONFIGS + SMALL}
    out = []
    for r in rows:
        r = dict(r)
        cfg = cfgs.get(r["id"])
        if r.get("kind") in ("unit", "top") or cfg is None or landed(cfg["engine"]) or r.get("target") != target:
            out.append(r)
            continue
        try:
            cyc = op_cycles(cfg["engine"], cfg["params"], cfg["bits"], cfg["op"], "model")
            r["cycles"] = cyc["cycles"]
        except PkaError:
            out.append(r)
            continue
        r["stale"] = r.get("status") == "ok" and r.get("design_key") is not None and not measured_on_current_rtl(r)
        if r.get("status") == "ok" and r.get("fmax_mhz"):
            r["time_us"] = r["cycles"] / r["fmax_mhz"]
            lut = (r.get("area") or {}).get("lut4")
            if lut:
                r["time_x_klut4_ms"] = r["time_us"] / 1000 * lut / 1000
        out.append(r)
    return out


def breakdowns() -> list[dict[str, Any]]:
    """bench/results/breakdown.json's rows, each marked `current` (bench/breakdown.py's test: its
    design key is that of the sources as they are now)."""
    path = OUT.parent / "breakdown.json"
    if not path.exists():
        return []
    import importlib.util
    spec = importlib.util.spec_from_file_location("pka_bench_breakdown", Path(__file__).with_name("breakdown.py"))
    assert spec is not None and spec.loader is not None
    bd = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bd)
    return [dict(b, current=bd.current(b)) for b in json.loads(path.read_text()).get("rows", [])]


def _splice(text: str, begin: str, end: str, body: str) -> str:
    if begin not in text or end not in text:
        raise SystemExit(f"{DOC} has no {begin} ... {end} section")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{begin}\n{body}{end}{tail}"


def write_doc(rows: list[dict[str, Any]], target: str) -> None:
    rows = [r for r in refresh(rows, target) if r["target"] == target]
    text = _splice(DOC.read_text(), BEGIN, END, markdown(rows))
    text = _splice(text, GOALS_BEGIN, GOALS_END, goals_markdown(rows, breakdowns()))
    DOC.write_text(text)


def merge_rows(out: Path, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Merge this run's rows into the JSON file as it is NOW (another bench run may have written it
    since this one started: only this run's rows are replaced), written atomically."""
    old: dict[str, Any] = {}
    if out.exists():
        old = {r["id"] + "@" + r["target"]: r for r in json.loads(out.read_text()).get("rows", [])}
    for row in rows:
        key = row["id"] + "@" + row["target"]
        if not keep_old(row, old.get(key)):
            old[key] = row
    order = {c["id"]: i for i, c in enumerate(CONFIGS + SMALL + top_builds() + UNITS)}
    merged = sorted(old.values(), key=lambda r: (r["target"], order.get(r["id"], 99)))
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + f".tmp{os.getpid()}")
    tmp.write_text(json.dumps({
        "what": "area, routed fmax and time per operation of each engine in its narrow-I/O shell "
                "(pka.synth); cycles from the golden models; paper columns quoted from the papers",
        "date": time.strftime("%Y-%m-%d"), "rows": merged}, indent=1, default=str))
    tmp.replace(out)
    return merged


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engines", default="",
                    help="comma-separated engines, `top` for the pka_top builds (default: all)")
    ap.add_argument("--ids", default="", help="comma-separated configuration ids (default: all)")
    ap.add_argument("--target", default="ecp5-85k")
    ap.add_argument("--no-tmdriv", action="store_true", help="nextpnr --no-tmdriv (faster, lower fmax)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--top-router", choices=("router1", "router2"), default="router2",
                    help="nextpnr's router for the pka_top rows (router2: faster; router1 when router2 "
                         "does not converge; the row records which)")
    ap.add_argument("--router", choices=("router1", "router2"), default="router1",
                    help="nextpnr's router for the engine, small-build and unit rows (the row records it)")
    ap.add_argument("--cached-only", action="store_true", help="run no tool: report what is cached")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--doc", action="store_true", help="rewrite the tables in doc/results.md from the JSON")
    args = ap.parse_args(argv)
    engines = {e for e in args.engines.split(",") if e}
    ids = {i for i in args.ids.split(",") if i}
    opts = FlowOptions(seed=args.seed, no_tmdriv=args.no_tmdriv, router=args.router)
    # (configuration, runner, its group for --engines) in the JSON's order: engines, small builds, pka_top builds, units
    plan = ([(c, run_one, c["engine"]) for c in CONFIGS] + [(c, run_small, c["engine"]) for c in SMALL]
            + [(c, partial(run_top, router=args.top_router), "top") for c in top_builds()]
            + [(c, run_unit, c["fileset"]) for c in UNITS])
    rows = []
    for cfg, runner, group in plan:
        if (engines and group not in engines) or (ids and cfg["id"] not in ids):
            continue
        t0 = time.perf_counter()
        print(f"bench/synth: {cfg['id']} ...", file=sys.stderr, flush=True)
        row = runner(cfg, args.target, opts, args.cached_only)
        row["wall_s"] = round(time.perf_counter() - t0, 1)
        rows.append(row)
        print(f"bench/synth: {cfg['id']}: {row.get('status')} ({row['wall_s']} s)", file=sys.stderr, flush=True)
    merged = merge_rows(args.out, rows)
    print_table(rows)
    print(f"wrote {args.out}", file=sys.stderr)
    if args.doc:
        write_doc(merged, args.target)
        print(f"wrote {DOC}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
