"""Benchmark of pka_top through its AXI4-Lite bus: cycles per opcode (CYCLES from CMD to done,
COMPUTE, engine IO) and the bus overhead (cycles of the AXI transactions that load the operands,
start the command and read the result), per operand size. Writes bench/results/top.json.

    python bench/top.py            # the default sizes (a few minutes: Verilator builds are cached)
    python bench/top.py --quick    # 256 bits only
    python bench/top.py --doc      # doc/top.md's table from bench/results/top.json (no simulation)
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

from pka.driver import OP_ZEROIZE, Pka, backend, session, words_for
from pka.model.common import r2_mod
from pka.rtl.top import TopConfig, TopSim
from pka.sim import Op

OUT = Path(__file__).resolve().parent / "results" / "top.json"


def _mod(rng: random.Random, bits: int) -> int:
    return rng.getrandbits(bits) | 1 | (1 << (bits - 1))


def own_ops(sizes: list[int]) -> list[dict[str, Any]]:
    rows = []
    rng = random.Random(1)
    for bits in sizes:
        with TopSim(TopConfig(max(256, bits), ("example",))) as sim:
            p = Pka(sim)
            n = _mod(rng, bits)
            a, b = rng.randrange(n), rng.randrange(n)
            for name, fn in (("MODADD", lambda: p.modadd(a, b, n)), ("MODSUB", lambda: p.modsub(a, b, n)),
                             ("MONT_PARAMS", lambda: p.mont_params(n))):
                r = fn()
                rows.append({"op": name, "bits": bits, "engine": "sequencer", "cycles": r.detail["wall_cycles"],
                             "compute": r.cycles, "io": r.io_cycles, "bus_cycles": r.detail["bus_cycles"]})
            b0 = sim.bus_cycles
            c = p.zeroize()
            rows.append({"op": "ZEROIZE", "bits": bits, "engine": "sequencer", "cycles": c.cycles,
                         "compute": c.compute, "io": 0, "bus_cycles": sim.bus_cycles - b0,
                         "ram_words": 16 * p.cfg.slot_words})
            assert p.mont_params(n).result == r2_mod(n, 32 * words_for(bits))
    return rows


def engine_ops(sizes: list[int], engines: list[str]) -> list[dict[str, Any]]:
    rows = []
    rng = random.Random(2)
    defaults = {"victor": {"k": 5, "delta": 10, "eps": 11}, "csa2": {"variant": "fast", "l": 0},
                "mwr4": {"radix": 4, "ns": 8, "w": 16}, "rns": {"w": 32, "alg": "mm"}}
    for engine in engines:
        be = backend(engine)
        params = defaults[engine]
        for bits in sizes:
            n = _mod(rng, bits)
            a, e = rng.randrange(n), rng.getrandbits(bits)
            t = time.perf_counter()
            r = be.modexp(a, e, n, params)
            assert r.result == pow(a, e, n)
            rows.append({"op": "MODEXP", "bits": bits, "engine": engine, "cycles": r.detail["wall_cycles"],
                         "compute": r.cycles, "io": r.io_cycles, "bus_cycles": r.detail["bus_cycles"],
                         "mont_params_compute": r.detail.get("mont_params_cycles", 0),
                         "wall_s": round(time.perf_counter() - t, 2)})
            r = be.modmul(a, e % n, n, params)
            assert r.result == a * (e % n) % n
            rows.append({"op": "MODMUL", "bits": bits, "engine": engine, "cycles": r.detail["wall_cycles"],
                         "compute": r.cycles, "io": r.io_cycles, "bus_cycles": r.detail["bus_cycles"]})
            p = session(engine, params, bits)
            prime = (1 << 127) - 1 if bits >= 127 else 251
            r = p.modinv(12345, prime, engine, params=params)
            assert r.result == pow(12345, -1, prime)
            rows.append({"op": "MODINV", "bits": prime.bit_length(), "engine": engine,
                         "cycles": r.detail["wall_cycles"], "compute": r.cycles, "io": r.io_cycles,
                         "bus_cycles": r.detail["bus_cycles"]})
    return rows


def hscm_ops(quick: bool) -> list[dict[str, Any]]:
    """hscm through the top: MODEXP at 512 bits (2 PEs) and an RSA-2048 CRT signature (16 PEs, the
    engine registry's defaults) with its key setup (R^3 constants by MONT_PARAMS)."""
    from pka import rsa
    from pka.model import hscm
    rows = []
    rng = random.Random(3)
    small = {"pes": 2, "w": 16, "window": 0, "ladder": 0}
    n = _mod(rng, 512)
    a, e = rng.randrange(n), rng.getrandbits(512)
    for prm, op in ((small, "MODEXP"), (dict(small, window=4), "MODEXP w=4"), (dict(small, ladder=1), "MODEXP_CT")):
        r = backend("hscm").modexp(a, e, n, prm)
        # MODEXP_CT goes in with the modulus length as its exponent length (pka.driver: the count
        # reveals no more), so the ladder runs 512 steps whatever e's leading zeros
        elen = max(n.bit_length(), e.bit_length()) if prm["ladder"] else None
        assert r.result == pow(a, e, n) and r.cycles == hscm.modexp(a, e, n, prm, elen=elen).cycles
        rows.append({"op": op, "bits": 512, "engine": "hscm pes=2", "cycles": r.detail["wall_cycles"],
                     "compute": r.cycles, "io": r.io_cycles, "bus_cycles": r.detail["bus_cycles"],
                     "mont_params_compute": r.detail.get("mont_params_cycles", 0)})
    if not quick:
        params = {"pes": 16, "w": 16, "window": 0, "ladder": 0}
        key = rsa.crt_key(rsa.generate_key(2048))
        m = rng.randrange(key.n)
        # the first signature with a key makes its constants inside the accelerator; the second is
        # the signature alone: the key setup is the difference
        first = backend("hscm").rsa_crt(m, key, params)
        r = backend("hscm").rsa_crt(m, key, params)
        assert first.result == r.result == pow(m, key.d, key.n)
        assert first.detail["key_setup"] and not r.detail["key_setup"]
        rows.append({"op": "RSA_CRT", "bits": 2048, "engine": "hscm pes=16", "cycles": r.detail["wall_cycles"],
                     "compute": r.cycles, "io": r.io_cycles, "bus_cycles": r.detail["bus_cycles"],
                     "key_setup_compute": first.cycles - r.cycles})
    return rows


def ecc_ops() -> list[dict[str, Any]]:
    r = backend("rns").ecc_mul("p256", 0xC0FFEE_1234_5678_9ABC_DEF0, {"w": 32, "alg": "mm"})
    return [{"op": "ECC_MUL", "bits": 256, "engine": "rns", "curve": "p256", "cycles": r.detail["wall_cycles"],
             "compute": r.cycles, "io": r.io_cycles, "bus_cycles": r.detail["bus_cycles"]}]


DOC = Path(__file__).resolve().parents[1] / "doc" / "top.md"
BEGIN = "<!-- BEGIN GENERATED by `python bench/top.py --doc` from bench/results/top.json: do not edit -->"
END = "<!-- END GENERATED by bench/top.py -->"


def doc_region(data: dict[str, Any]) -> str:
    """doc/top.md's table of cycles through the bus (markers included), from the JSON."""
    out = [BEGIN, "| op | bits | engine | CYCLES | COMPUTE | engine IO | bus cycles of the op |",
           "|---|---|---|---|---|---|---|"]
    for r in data["rows"]:
        compute = f"{r['compute']:,}"
        if r.get("key_setup_compute"):
            compute += f" (key setup {r['key_setup_compute']:,})"
        out.append(f"| {r['op']} | {r['bits']} | {r['engine']} | {r['cycles']:,} | {compute} | {r['io'] or 0:,} "
                   f"| {r['bus_cycles']:,} |")
    out.append(END)
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--doc", action="store_true", help="rewrite doc/top.md's table from the JSON (no simulation)")
    args = ap.parse_args()
    if args.doc:
        from pka.docregion import replace_region
        replace_region(DOC, BEGIN, END, doc_region(json.loads(OUT.read_text())))
        print(f"wrote {DOC}")
        return
    sizes = [256] if args.quick else [256, 1024, 2048, 4096]
    rows = own_ops(sizes)
    rows += engine_ops([256] if args.quick else [256, 512], ["victor"])
    rows += hscm_ops(args.quick)
    rows += ecc_ops()
    print(f"{'op':12s} {'bits':>5s} {'engine':12s} {'CYCLES':>10s} {'COMPUTE':>10s} {'IO':>7s} {'bus':>7s} {'bus/CYCLES':>10s}")
    for r in rows:
        print(f"{r['op']:12s} {r['bits']:5d} {r['engine']:12s} {r['cycles']:10d} {r['compute']:10d} "
              f"{r['io'] or 0:7d} {r['bus_cycles']:7d} {r['bus_cycles'] / max(1, r['cycles']):10.3f}")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"rows": rows, "note": "cycles = CYCLES register (command to done); compute = "
                               "COMPUTE; io = engine operand I/O; bus_cycles = AXI4-Lite transactions of the "
                               "operation (operands in, LEN/ARG/CMD, status/counters, result out)"}, indent=2))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
