"""The RISC-V SoC (soc/, soc/README.md): a PicoRV32 runs C firmware that drives pka_top through the
unchanged C driver (sw/), simulated with Verilator.

The small demo (RSA-512 without CRT on hscm with 2 PEs, binary and window 4, and a MODADD) must be
verified on the host (the signature by `cryptography`), and the engine's counters seen by the CPU
must equal the golden model's cycle counts. The SoC RTL is linted with -Wall, warnings fatal.
First run: the Verilator build of the SoC (about a minute of CPU) and the firmware (seconds).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.rtl


def _load_soc() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pka_soc_run", REPO / "soc" / "run.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod   # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


soc = _load_soc()


@pytest.fixture(scope="module")
def demo() -> Any:
    return soc.demo(echo=False)


def test_soc_demo_verified(demo: Any) -> None:
    run, verified, job = demo
    assert run.exit_code == 0, run.console
    assert verified == ["RSA-512 signature (m^d mod n, no CRT, modexp): verified",
                        "RSA-512 signature (m^d mod n, no CRT, modexp, operands by plain MMIO): verified",
                        "RSA-512 signature (m^d mod n, no CRT, modexp window 4): verified",
                        "MODADD 512 bits: verified"]
    assert run.info["wait"] == "irq" and run.info["max_len"] == "512"
    assert int(run.info["engines"], 16) == 1 << 5   # hscm only


def test_soc_counters_equal_the_models(demo: Any) -> None:
    """COMPUTE as the CPU read it = the golden model's count (hscm) or the sequencer's formula."""
    from pka.model import hscm
    from pka.rtl.top import seq_cycles

    run, _, job = demo
    key = job.key
    for name, window in (("modexp", 0), ("modexp_mmio", 0), ("modexp_window", job.window)):
        model = hscm.modexp(job.m, key.d, key.n, {"pes": 2, "w": 16, "window": window})
        assert run.ops[name].compute == model.cycles, name
        # dispatch (about 6) + the SLOT_EPUB scan (2 W) + the clean-up after an operation that read
        # the secret E, whose largest part is the engine's wipe (doc/security.md)
        dispatch = run.ops[name].cycles - model.cycles - run.ops[name].io
        w = (key.bits + 31) // 32
        assert hscm.wipe_cycles(512, 16, 6) < dispatch <= 16 + 2 * w + 8 + hscm.wipe_cycles(512, 16, 6), (name, dispatch)
    assert (run.ops["modadd"].compute, run.ops["modadd"].cycles) == seq_cycles(8, key.bits)
    mp = run.ops["mont_params"]
    assert (mp.compute, mp.cycles) in {seq_cycles(13, key.bits, key.n, job.r_bits, fix) for fix in (False, True)}
    assert run.ops["zeroize"].compute == 32 * 32   # the whole RAM: 32 slots of 2^MinSlotAw = 32 words


def test_soc_overhead(demo: Any) -> None:
    """The CPU's cycles for a driver call include the command (CYCLES), which includes COMPUTE; for an
    exponentiation the driver and bus add about 1 %, for a word-serial op they dominate."""
    run, _, _ = demo
    for name, op in run.ops.items():
        assert op.cpu >= op.cycles >= op.compute, name
    for name in ("modexp", "modexp_window"):
        assert run.ops[name].overhead < 0.02 * run.ops[name].cpu, name
    words, cpu = run.bench["mmio_store"]
    assert words == 16 and cpu < run.bench["driver_write"][1]
    assert run.ops["modexp_mmio"].overhead < run.ops["modexp"].overhead


def test_soc_poll(demo: Any) -> None:
    """The same job with the driver polling INTR_STATE instead of sleeping in waitirq."""
    run0, _, job0 = demo
    cfg = soc.small_config()
    job = soc.make_job(job0.key, poll=True)
    run = soc.run_soc(soc.build_soc(cfg), soc.ram_image(soc.build_firmware(), job))
    assert len(soc.check(run, job)) == 4
    assert run.info["wait"] == "poll"
    assert run.ops["modexp"].compute == run0.ops["modexp"].compute


def test_soc_no_job() -> None:
    """Firmware without a job block stops with a non-zero exit code (the simulator's status 125)."""
    cfg = soc.small_config()
    image = soc.ram_image(soc.build_firmware(), soc.make_job(soc.make_key(512)))
    image[soc.JOB_ADDR // 4] = 0   # no magic
    run = soc.run_soc(soc.build_soc(cfg), image)
    assert run.exit_code == 1000 and "no job block" in run.console


def test_soc_lint() -> None:
    """verilator --lint-only -Wall on pka_soc, warnings fatal, with every engine in pka_top (as
    rtl/top/top.f lints it); waivers: lint/verilator_waivers.vlt and soc/lint/soc_waivers.vlt
    (third-party picorv32.v only)."""
    from pka.rtl.top import TopConfig
    from pka.sim import LINT_WAIVERS, verilator_bin

    cfg = TopConfig(max_len=256, engines=("example", "csa2", "mwr4", "victor", "rns", "hscm"),
                    params=(("Csa2ChunkW", 1), ("MinSlotAw", 9)))
    design = soc.soc_design(cfg)
    cmd = [verilator_bin(), "--lint-only", "-Wall", "--top-module", "pka_soc", str(LINT_WAIVERS),
           str(REPO / "soc" / "lint" / "soc_waivers.vlt")]
    cmd += [f"-G{k}={v}" for k, v in sorted(design.params.items())]
    cmd += [str(s) for s in design.sources]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_soc_bus_cocotb() -> None:
    """The bus alone (decoder, RAM, sysctl) under a cocotbext-axi master with random pauses on every
    channel: soc/tb/test_pka_soc_bus.py."""
    from pka.sim import run_cocotb

    run_cocotb("pka_soc_bus_tb", [*soc.SOC_RTL[:-1], REPO / "soc" / "tb" / "pka_soc_bus_tb.sv"],
               "test_pka_soc_bus", REPO / "soc" / "tb")
