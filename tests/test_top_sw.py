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


def _example_key() -> tuple[object, int]:
    """The fixed RSA-512 test key and message of sw/example.c (seeded primes, as generated there)."""
    import random

    import gmpy2

    from pka.model.common import CrtKey

    rng = random.Random(2026)

    def prime(b: int) -> int:
        return int(gmpy2.next_prime(rng.getrandbits(b) | 1 << (b - 1) | 1 << (b - 2)))

    key = CrtKey.from_pq(prime(256), prime(256))
    return key, rng.randrange(key.n)


@pytest.mark.rtl
def test_c_rsa_crt_on_the_hscm_build() -> None:
    """The C driver's RSA_CRT (pka_rsa_load_key + pka_rsa_crt) on an hscm build: the signature, the
    exact COMPUTE of the first (key constants made inside) and a later signature, and ERR_FAULT when
    the check fails (a wrong e)."""
    from pka.model import hscm
    from pka.model.common import CrtKey
    from pka.regs import Status
    from pka.rtl.top import crt_compute, hscm_r

    key, m = _example_key()
    assert isinstance(key, CrtKey)
    params = {"pes": 2, "w": 16, "window": 0}
    cfg = TopConfig(512, ("hscm",), (("HscmMaxWindow", 6), ("HscmPes", 2), ("HscmW", 16), ("MinSlotAw", 5)))
    with TopSim(cfg) as sim:
        rc, _, lines = sim.sw_example(hscm_r(255, 16))
    assert rc == 0, lines
    out = dict(line.split(" ", 1) for line in lines)
    assert int(out["exp"], 16) == pow(A, 65537, P) == hscm.modexp(A, 65537, P, params).result
    assert int(out["crt"], 16) == pow(m, key.d, key.n)
    # blinding is on after reset (CFG.BLIND_OFF = 0)
    assert int(out["crt_compute"]) == crt_compute(m, key, params, key_setup=True, n_setup=True, blind=True,
                                                  blind_setup=True)
    assert int(out["crt_again"]) == crt_compute(m, key, params, key_setup=False, n_setup=False, blind=True)
    assert int(out["crt_fault_status"]) == Status.ERR_FAULT
