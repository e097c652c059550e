"""The C side of pka_top: the PeakRDL header is up to date, the C driver and example compile with
the system gcc (warnings fatal, as a bare-metal MMIO program too), and the example runs against the
Verilated pka_top through AXI4-Lite (inside the pka_top harness) with results checked here."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from pka.model.common import neg_inv_pow2, r2_mod
from pka.rtl.top import TopConfig, TopSim
from pka.sim import REPO

SW = REPO / "sw"
CFLAGS = ["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-pedantic", f"-I{SW}"]
P = (1 << 255) - 19
A = int("76543210fedcba982468ace013579bdf00c0ffeedeadbeef89abcdef01234567", 16)


def _gcc() -> str:
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("no system gcc")
    return gcc


def test_c_driver_compiles_for_mmio(tmp_path: Path) -> None:
    gcc = _gcc()
    for src in ("pka.c", "example.c"):
        subprocess.run([gcc, *CFLAGS, "-DPKA_BASE=0x40000000", "-c", str(SW / src), "-o", str(tmp_path / (src + ".o"))],
                       check=True)
    subprocess.run([gcc, "-o", str(tmp_path / "example"), str(tmp_path / "pka.c.o"), str(tmp_path / "example.c.o")],
                   check=True)


@pytest.mark.rtl
def test_c_example_on_the_rtl() -> None:
    """The harness of pka.rtl.top links sw/pka.c and sw/example.c; its `sw` verb runs the example
    with the driver's bus callbacks as AXI4-Lite transactions."""
    with TopSim(TopConfig(256, ("example",))) as sim:
        rc, bus_cycles, lines = sim.sw_example()
    assert rc == 0, lines
    out = dict(line.split(" ", 1) for line in lines)
    assert int(out["max_len"]) == 256
    assert int(out["r2"], 16) == r2_mod(P, 256)
    assert int(out["mu"], 16) == neg_inv_pow2(P, 64)
    assert int(out["add"], 16) == (A + P - 1) % P
    assert int(out["sub"], 16) == (A - (P - 1)) % P
    assert int(out["range_status"]) == 3          # ERR_OPERAND_RANGE
    assert int(out["zeroized"], 16) == 0
    assert "exp" not in out                       # this build has no MODEXP engine
    assert int(out["cycles"]) > 0 and bus_cycles > 0
