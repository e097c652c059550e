"""The register map: data/pka.rdl compiles, the checked-in generated files (register block, C header)
are what PeakRDL makes of it today, and pka.driver's offsets agree with it."""

from __future__ import annotations

from pathlib import Path

from systemrdl import RDLCompiler  # type: ignore[import-untyped]
from systemrdl.node import AddrmapNode, MemNode, RegNode  # type: ignore[import-untyped]

from pka.driver import SLOT_BASE, SLOT_STRIDE, SLOT_WINDOW_WORDS, Reg, SECRET_SLOTS
from pka.rtl.top import GEN_DIR, HEADER, RDL, gen_header, gen_regblock
from pka.sim import Slot


def _root() -> AddrmapNode:
    rdlc = RDLCompiler()
    rdlc.compile_file(str(RDL))
    return rdlc.elaborate().top


def test_driver_offsets_match_the_rdl() -> None:
    top = _root()
    regs = {n.inst_name: n.absolute_address for n in top.children() if isinstance(n, RegNode)}
    assert regs == {r.name: int(r) for r in Reg}
    mems = {n.inst_name: n for n in top.children() if isinstance(n, MemNode)}
    for s in Slot:
        m = mems[f"SLOT_{s.name}"]
        assert m.absolute_address == SLOT_BASE + int(s) * SLOT_STRIDE
        assert m.get_property("mementries") == SLOT_WINDOW_WORDS
        writable_only = not m.is_sw_readable
        assert writable_only == (s in SECRET_SLOTS), s


def test_generated_files_are_current(tmp_path: Path) -> None:
    gen_regblock(tmp_path)
    for f in ("pka_regs.sv", "pka_regs_pkg.sv"):
        assert (tmp_path / f).read_text() == (GEN_DIR / f).read_text(), f"rtl/top/gen/{f} is stale: python -m pka.rtl.top gen"
    gen_header(tmp_path / "pka_regs.h")
    assert (tmp_path / "pka_regs.h").read_text() == HEADER.read_text(), "sw/pka_regs.h is stale"
