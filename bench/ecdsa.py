"""Benchmark of ECDSA_SIGN through pka_top (a build holding rns and hscm): P-256 and P-384, blinding
off (the papers' way of counting) and on, each signature verified with `cryptography`; COMPUTE beside
pka.rtl.top.ecdsa_compute's formula and its parts. Writes bench/results/ecdsa.json and prints a
table; --doc rewrites doc/top.md's table of ECDSA_SIGN from the JSON (tests/test_docs.py checks it).

    python bench/ecdsa.py          # both curves (Verilator builds about 1 min each, then seconds)
    python bench/ecdsa.py --quick  # P-256 only
    python bench/ecdsa.py --doc    # doc/top.md from bench/results/ecdsa.json, no simulation
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, utils

from pka.driver import Pka
from pka.rtl.defs import _replace_region
from pka.rtl.top import ECDSA_HSCM, TopSim, ecdsa_compute, ecdsa_config, ecdsa_parts

OUT = Path(__file__).resolve().parent / "results" / "ecdsa.json"
DOC = Path(__file__).resolve().parents[1] / "doc" / "top.md"
TAG = ":ecdsa"
GOAL = {"p256": 150_000}   # issue 18's goal for P-256 sign
CURVES = {"p256": (ec.SECP256R1(), hashes.SHA256(), 256), "p384": (ec.SECP384R1(), hashes.SHA384(), 384)}


def measure(name: str) -> list[dict[str, Any]]:
    crv, hsh, bits = CURVES[name]
    key = ec.derive_private_key(0x5EED_0000_1234_5678_9ABC_DEF0, crv)
    msg = b"pka bench/ecdsa.py"
    dg = hashes.Hash(hsh)
    dg.update(msg)
    h = int.from_bytes(dg.finalize(), "big")
    cfg = ecdsa_config(bits)
    rows = []
    with TopSim(cfg) as sim:
        pka = Pka(sim, blinding=False)
        # the first signature makes W_n = R^2 mod n (kept while A_HI holds n), the others reuse it
        for first, blind in ((True, False), (False, False), (False, True)):
            pka.set_blinding(blind)
            t0 = time.time()
            res = pka.ecdsa_sign(name, key.private_numbers().private_value, h, {"w": 32})
            key.public_key().verify(utils.encode_dss_signature(res.result, res.detail["s"]), msg, ec.ECDSA(hsh))
            rows.append({"curve": name, "blind": blind, "w_setup": first, "cycles": res.cycles, "wall_cycles": res.detail["wall_cycles"],
                         "formula": ecdsa_compute(name, 32, ECDSA_HSCM, blind, first),
                         "parts": ecdsa_parts(name, 32, ECDSA_HSCM, blind, first),
                         "build": {"max_len": cfg.max_len, "params": dict(cfg.params)},
                         "sim_seconds": round(time.time() - t0, 2), "verified": True})
    return rows


def doc_region(data: dict[str, Any]) -> str:
    """doc/top.md's measured ECDSA_SIGN section, from the JSON (markers included)."""
    rows = data["rows"]

    def one(curve: str, blind: bool, setup: bool) -> dict[str, Any]:
        [r] = [r for r in rows if (r["curve"], r["blind"], r["w_setup"]) == (curve, blind, setup)]
        return r

    curves = [c for c in ("p256", "p384") if any(r["curve"] == c for r in rows)]
    name = {"p256": "P-256", "p384": "P-384"}
    setup = ", ".join(f"{one(c, False, True)['cycles'] - one(c, False, False)['cycles']:,} cycles for {name[c]}"
                      for c in curves)
    out = [f"<!-- BEGIN GENERATED{TAG} by `python bench/ecdsa.py --doc` from bench/results/ecdsa.json: do not edit -->",
           "Measured (bench/ecdsa.py, bench/results/ecdsa.json; the build of `pka.rtl.top.ecdsa_config`: rns",
           f"w = 32, hscm {data['hscm']['pes']} PEs, w = {data['hscm']['w']}), COMPUTE per signature with W_n already made (the first",
           f"signature after A_HI is written adds the MONT program: {setup}):", "",
           "| curve | blinding off | blinding on | goal (issue 18) | ladder | k^-1 | conversion of x | fault checks | rest |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for c in curves:
        off, on = one(c, False, False), one(c, True, False)
        p = off["parts"]
        goal = f"{GOAL[c]:,}" if c in GOAL else ""
        out.append(f"| {name[c]} | {off['cycles']:,} | {on['cycles']:,} | {goal} | {p['ladder']:,} | {p['inverse']:,} "
                   f"| {p['conversion']:,} | {p['checks']:,} | {p['rest']:,} |")
    out += ["", "The parts (blinding off) are `pka.rtl.top.ecdsa_parts`, whose sum the measured COMPUTE equals: the",
            "checked ladder, k^-1 by Fermat on hscm (window 4), one RNS -> binary conversion of x with x mod p,",
            "what the fault checks add (the second conversion and its compare, r d again, d's check word), and",
            "the rest (input checks, the nonce, r mod n, t, u, s, k s).",
            f"<!-- END GENERATED{TAG} -->"]
    return "\n".join(out)


def write_doc(data: dict[str, Any]) -> None:
    DOC.write_text(_replace_region(DOC.read_text(), doc_region(data), DOC, TAG))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="P-256 only")
    ap.add_argument("--doc", action="store_true", help="rewrite doc/top.md's table from the JSON (no simulation)")
    args = ap.parse_args()
    if args.doc:
        write_doc(json.loads(OUT.read_text()))
        return
    rows = []
    for name in (("p256",) if args.quick else ("p256", "p384")):
        rows += measure(name)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"hscm": ECDSA_HSCM, "rows": rows}, indent=1) + "\n")
    print(f"{'curve':6} {'blinding':8} {'W_n made':8} {'COMPUTE':>9} {'CYCLES':>9} {'formula':>9}")
    for r in rows:
        print(f"{r['curve']:6} {'on' if r['blind'] else 'off':8} {'yes' if r['w_setup'] else 'no':8} "
              f"{r['cycles']:>9,} {r['wall_cycles']:>9,} {r['formula']:>9,}")


if __name__ == "__main__":
    main()
