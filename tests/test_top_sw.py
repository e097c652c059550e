"""The C side of pka_top: the PeakRDL header is up to date, the C driver and example compile with
the system gcc (warnings fatal, as a bare-metal MMIO program too), and the example runs against the
Verilated pka_top through AXI4-Lite with results checked here in Python."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest

from pka.model.common import neg_inv_pow2, r2_mod
from pka.rtl.top import TOP_HARNESS, TopConfig, build
from pka.sim import REPO, cache_root

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


def _objects() -> list[Path]:
    gcc = _gcc()
    h = hashlib.sha256()
    for f in sorted(SW.glob("*.[ch]")):
        h.update(f.read_bytes())
    out = cache_root() / f"sw-{h.hexdigest()[:16]}"
    out.mkdir(parents=True, exist_ok=True)
    objs = []
    for src in ("pka.c", "example.c"):
        obj = out / (src + ".o")
        if not obj.exists():
            subprocess.run([gcc, *CFLAGS, "-c", str(SW / src), "-o", str(obj)], check=True)
        objs.append(obj)
    return objs


@pytest.mark.rtl
def test_c_example_on_the_rtl() -> None:
    objs = _objects()
    exe = build(TopConfig(256, ("example",)), harness=[TOP_HARNESS.parent / "sw_harness.cpp"],
                extra_args=["-CFLAGS", f"-I{SW}", "-LDFLAGS", " ".join(str(o) for o in objs)], name="pka_top_sw")
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = dict(line.split(" ", 1) for line in proc.stdout.splitlines())
    assert int(out["max_len"]) == 256
    assert int(out["r2"], 16) == r2_mod(P, 256)
    assert int(out["mu"], 16) == neg_inv_pow2(P, 64)
    assert int(out["add"], 16) == (A + P - 1) % P
    assert int(out["sub"], 16) == (A - (P - 1)) % P
    assert int(out["range_status"]) == 3          # ERR_OPERAND_RANGE
    assert int(out["zeroized"], 16) == 0
    assert "exp" not in out                       # this build has no MODEXP engine
    assert int(out["cycles"]) > 0 and int(out["bus_cycles"]) > 0
