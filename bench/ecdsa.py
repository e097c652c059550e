"""Benchmark of ECDSA_SIGN through pka_top (a build holding rns and hscm): P-256 and P-384, blinding
off (the papers' way of counting) and on, each signature verified with `cryptography`; COMPUTE beside
pka.rtl.top.ecdsa_compute's formula. Writes bench/results/ecdsa.json and prints a table.

    python bench/ecdsa.py          # both curves (Verilator builds about 1 min each, then seconds)
    python bench/ecdsa.py --quick  # P-256 only
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
from pka.rtl.top import TopSim, ecdsa_compute, ecdsa_config

OUT = Path(__file__).resolve().parent / "results" / "ecdsa.json"
CURVES = {"p256": (ec.SECP256R1(), hashes.SHA256(), 256), "p384": (ec.SECP384R1(), hashes.SHA384(), 384)}
PES = 16


def measure(name: str) -> list[dict[str, Any]]:
    crv, hsh, bits = CURVES[name]
    key = ec.derive_private_key(0x5EED_0000_1234_5678_9ABC_DEF0, crv)
    msg = b"pka bench/ecdsa.py"
    dg = hashes.Hash(hsh)
    dg.update(msg)
    h = int.from_bytes(dg.finalize(), "big")
    cfg = ecdsa_config(bits, PES)
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
                         "formula": ecdsa_compute(name, 32, {"pes": PES, "w": 16}, blind, first),
                         "build": {"max_len": cfg.max_len, "params": dict(cfg.params)},
                         "sim_seconds": round(time.time() - t0, 2), "verified": True})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="P-256 only")
    args = ap.parse_args()
    rows = []
    for name in (("p256",) if args.quick else ("p256", "p384")):
        rows += measure(name)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"pes": PES, "rows": rows}, indent=1) + "\n")
    print(f"{'curve':6} {'blinding':8} {'W_n made':8} {'COMPUTE':>9} {'CYCLES':>9} {'formula':>9}")
    for r in rows:
        print(f"{r['curve']:6} {'on' if r['blind'] else 'off':8} {'yes' if r['w_setup'] else 'no':8} "
              f"{r['cycles']:>9,} {r['wall_cycles']:>9,} {r['formula']:>9,}")


if __name__ == "__main__":
    main()
