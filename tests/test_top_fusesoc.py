"""FuseSoC: the .core files are what `python -m pka.rtl.top gen` makes of the filesets, every core
parses, and the lint target of the top and of an engine passes through FuseSoC/Edalize; the sim and
syn targets set up (syn needs a native Yosys with TCL and yosys-slang, which this machine lacks)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pka.rtl.top import core_files
from pka.sim import REPO


def _fusesoc(tmp: Path, *args: str, root: Path | None = None) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).parent / "fusesoc"
    if not exe.exists():
        pytest.skip("fusesoc not installed")
    return subprocess.run([str(exe), "--cores-root", str(root or REPO / "rtl"), *args], cwd=tmp,
                          capture_output=True, text=True, timeout=600)


def _current_cores(tmp: Path) -> Path:
    """The cores of the filesets as they are now (absolute file names), under tmp/cores: so an
    engine owner editing a .f does not break these tests before the checked-in cores are regenerated."""
    root = tmp / "cores"
    for path, text in core_files(absolute=True).items():
        dst = root / path.relative_to(REPO)
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_text(text)
    return root


def test_cores_are_current() -> None:
    """The top's own cores. (An engine core goes stale when its owner edits the .f; regenerate with
    `python -m pka.rtl.top gen` — its lint target below catches a stale list that matters.)"""
    for path, text in core_files().items():
        if path.parent.name == "top":
            assert path.exists() and path.read_text() == text, f"{path} is stale: python -m pka.rtl.top gen"


def test_cores_parse(tmp_path: Path) -> None:
    proc = _fusesoc(tmp_path, "core", "list")
    assert proc.returncode == 0, proc.stderr
    for name in ["pka:pka:common", "pka:pka:top"] + [f"pka:engine:{f.stem}" for f in (REPO / "rtl" / "engines").glob("*/*.f")]:
        assert name in proc.stdout, name
    assert "Parse error" not in proc.stderr + proc.stdout


@pytest.mark.rtl
@pytest.mark.parametrize("core", ["pka:pka:top", "pka:engine:csa2"])
def test_lint_target(tmp_path: Path, core: str) -> None:
    proc = _fusesoc(tmp_path, "run", "--no-export", "--target", "lint", core, root=_current_cores(tmp_path))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]


@pytest.mark.parametrize("target", ["sim", "syn"])
def test_targets_set_up(tmp_path: Path, target: str) -> None:
    proc = _fusesoc(tmp_path, "run", "--no-export", "--setup", "--target", target, "pka:pka:top",
                    root=_current_cores(tmp_path))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    work = next((tmp_path / "build").glob(f"pka_pka_top_*/{target}-*"))
    if target == "syn":
        assert (work / "pka_yosys_slang.tcl").exists() and (work / "edalize_yosys_procs.tcl").exists()
        assert "pka_top.sv" in (work / "edalize_yosys_procs.tcl").read_text()
    else:
        assert list(work.glob("*.vc"))
    shutil.rmtree(tmp_path / "build", ignore_errors=True)
