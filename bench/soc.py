"""Benchmark of the RISC-V SoC (soc/): what a CPU pays to drive pka_top through the C driver.

Per configuration, the firmware's operations (soc/fw/main.c: RSA without and with CRT on hscm, MODADD,
P-256 ECDH on rns) with the CPU's cycles for the whole
driver call (rdcycle around it: operand writes, command, wait, counters, result read) beside pka_top's
CYCLES (CMD write to done) and COMPUTE (the engine's own count), and the CPU cycles per 32-bit word
the driver and a plain MMIO loop take. Every result is verified on the host. Writes
bench/results/soc.json.

    python bench/soc.py              # RSA-512 (hscm, 2 PEs; waitirq and polling) and RSA-2048 (16 PEs)
    python bench/soc.py --quick      # RSA-512 only
--merge keeps the rows of bench/results/soc.json that this run does not repeat.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parents[1]
OUT = Path(__file__).resolve().parent / "results" / "soc.json"


def _load_soc() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pka_soc_run", REPO / "soc" / "run.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


# (modulus bits, hscm PEs, driver waits by polling)
CONFIGS = [(512, 2, False), (512, 2, True), (2048, 16, False)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="RSA-512 only")
    ap.add_argument("--merge", action="store_true", help="keep the output's rows this run does not repeat")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    soc = _load_soc()
    rows: list[dict[str, Any]] = []
    for bits, pes, poll in CONFIGS:
        if args.quick and bits > 512:
            continue
        print(f"== RSA-{bits}, hscm {pes} PEs, driver {'polls' if poll else 'waits in waitirq'}", flush=True)
        run, verified, job = soc.demo(bits, pes, window=4, poll=poll, echo=False)
        print(soc.table(run))
        for line in verified:
            print(line)
        print()
        rows.append({"bits": bits, "pes": pes, "window": job.window, "engine": "hscm",
                     "ecc": {"curve": "p256", "engine": "rns", "build": "hscm+rns", "rns_max_len": 256},
                     "verified": verified, **soc.summary(run)})
    if args.merge and args.out.exists():
        def key(r: dict[str, Any]) -> tuple[Any, ...]:
            return (r["bits"], r["pes"], r.get("wait"), r["engine"])
        new = {key(r) for r in rows}
        rows = [r for r in json.loads(args.out.read_text())["soc"] if key(r) not in new] + rows
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"soc": rows}, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
