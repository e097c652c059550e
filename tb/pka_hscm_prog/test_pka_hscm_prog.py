"""pka_hscm_prog (the exponent in a word-addressed memory, issue 15) against the register version
it replaced (pka_hscm_prog_ref.sv, kept here as the reference), cycle for cycle: the descriptors,
align_done, the decoded digit registers and the top exponent bits agree in every cycle of random
load / align / program episodes (pka_hscm_prog_eq_tb.sv).  Verilator --binary, a few seconds per
configuration: EBits 64 (2 words), 160 (5, not a power of 2), 1024 (the MaxLen-1024 build)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
RTL = HERE.parents[1] / "rtl" / "engines" / "hscm"

pytestmark = pytest.mark.rtl


def _verilator() -> str:
    exe = shutil.which("verilator")
    if exe is None:
        pytest.skip("verilator not on PATH")
    return exe


@pytest.mark.parametrize("ebits,max_window,episodes", [(64, 6, 1500), (160, 6, 1500), (160, 3, 1000),
                                                       (1024, 6, 300)])
def test_memory_version_equals_register_version(tmp_path: Path, ebits: int, max_window: int,
                                                episodes: int) -> None:
    obj = tmp_path / "obj"
    subprocess.run([_verilator(), "--binary", "--timing", "-CFLAGS", "-std=c++20", "-Wno-fatal", "-Wno-WIDTH",
                    "-O3", "-j", "1", f"-DEBITS={ebits}", f"-DMAXWINDOW={max_window}", f"-DEPISODES={episodes}",
                    "--top-module", "pka_hscm_prog_eq_tb", "-Mdir", str(obj), "-o", "eq",
                    str(RTL / "pka_hscm_pkg.sv"), str(RTL / "pka_hscm_prog.sv"),
                    str(HERE / "pka_hscm_prog_ref.sv"), str(HERE / "pka_hscm_prog_eq_tb.sv")],
                   check=True, capture_output=True, text=True)
    for seed in (1, 2):
        run = subprocess.run([str(obj / "eq"), f"+seed={seed}"], capture_output=True, text=True)
        assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
        assert f"OK: {episodes} episodes" in run.stdout, run.stdout[-2000:]


@pytest.mark.parametrize("ebits,max_window", [(64, 6), (160, 6), (160, 3), (1024, 6)])
def test_the_simulated_configurations_lint(ebits: int, max_window: int) -> None:
    """The unit at the bench's parameters passes the strict lint (pka.sim.lint, -Wall, warnings
    fatal); linted alone, only the package's constants other units use are reported unused."""
    import re

    from pka.sim import lint
    _verilator()
    proc = lint([RTL / "pka_hscm_pkg.sv", RTL / "pka_hscm_prog.sv"], "pka_hscm_prog",
                {"EBits": ebits, "MaxWindow": max_window})
    out = proc.stdout + proc.stderr
    warnings = re.findall(r"^%Warning-(\w+): (?:\S*/)?([\w.]+):", out, re.M)
    assert warnings and all(w == ("UNUSEDPARAM", "pka_hscm_pkg.sv") for w in warnings), out


def test_the_bench_catches_a_wrong_window(tmp_path: Path) -> None:
    """The control: a memory version that forgets to move the read word into the window when the
    pointer crosses a word boundary (once, from word 3) is caught."""
    bad = tmp_path / "pka_hscm_prog.sv"
    src = (RTL / "pka_hscm_prog.sv").read_text()
    old = "      elo_d = erd_q;\n"
    assert src.count(old) == 1
    bad.write_text(src.replace(old, "      if (eu_q[EuW-1:5] != EwW'(3)) elo_d = erd_q;\n"))
    obj = tmp_path / "obj"
    subprocess.run([_verilator(), "--binary", "--timing", "-CFLAGS", "-std=c++20", "-Wno-fatal", "-Wno-WIDTH",
                    "-O3", "-j", "1", "-DEBITS=160", "-DMAXWINDOW=6", "-DEPISODES=1500",
                    "--top-module", "pka_hscm_prog_eq_tb", "-Mdir", str(obj), "-o", "eq",
                    str(RTL / "pka_hscm_pkg.sv"), str(bad),
                    str(HERE / "pka_hscm_prog_ref.sv"), str(HERE / "pka_hscm_prog_eq_tb.sv")],
                   check=True, capture_output=True, text=True)
    run = subprocess.run([str(obj / "eq"), "+seed=1"], capture_output=True, text=True)
    assert run.returncode != 0 and "MISMATCH" in run.stdout
