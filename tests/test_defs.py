"""One source for the interface's numbers (issue 17, item 6).

data/pka.rdl defines opcodes, status codes, engine ids, slots and registers; `python -m pka.rtl.top gen`
writes them into rtl/common/pka_pkg.sv, src/pka/regs.py, sw/pka_defs.h and doc/top.md. These tests
check (1) that the generated files are current and (2), independently of the generator, that the three
languages agree value by value: the SystemVerilog package is elaborated by pyslang, the C header is
compiled and run by the host compiler, and both are compared with the RDL read by systemrdl-compiler.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pka import regs
from pka.rtl import defs
from pka.sim import REPO


def test_generated_files_are_current() -> None:
    stale = defs.stale()
    assert not stale, f"stale: {[str(p.relative_to(REPO)) for p in stale]} (run python -m pka.rtl.top gen)"


def _rdl() -> defs.Defs:
    return defs.load()


def test_python_matches_the_rdl() -> None:
    d = _rdl()
    assert {m.name: m.value for m in d.ops} == {m.name: int(m) for m in regs.Op}
    assert {m.name: m.value for m in d.status} == {m.name: int(m) for m in regs.Status}
    assert {m.name: m.value for m in d.engines} == {m.name: int(m) for m in regs.Engine}
    assert {s.name: s.index for s in d.slots} == {m.name: int(m) for m in regs.Slot}
    assert {r.name: r.offset for r in d.regs} == {m.name: int(m) for m in regs.Reg}
    assert {s.name for s in d.slots if s.secret} == {m.name for m in regs.SECRET_SLOTS}
    # the names the rest of the package uses are the generated ones
    from pka.errors import Status
    from pka.sim import Op, Slot
    assert Status is regs.Status and Op is regs.Op and Slot is regs.Slot


def _svint(v: object) -> int:
    """An SVInt as pyslang prints it (0, 32'd7, 16'h1f10) as a Python int."""
    s = str(v)
    if "'" not in s:
        return int(s)
    digits = s.split("'", 1)[1].lstrip("s")
    return int(digits[1:], {"d": 10, "h": 16, "b": 2, "o": 8}[digits[0].lower()])


def _sv_values() -> dict[str, int]:
    """Every enum member and parameter of pka_pkg, as pyslang elaborates them."""
    from pyslang import ast, syntax

    comp = ast.Compilation()
    comp.addSyntaxTree(syntax.SyntaxTree.fromFile(str(defs.PKG)))
    errors = [d for d in comp.getAllDiagnostics() if d.isError()]
    assert not errors, errors
    out: dict[str, int] = {}
    for sym in comp.getPackage("pka_pkg"):
        if sym.kind.name == "Parameter" and sym.value.value is not None:
            out[sym.name] = _svint(sym.value.value)
        elif sym.kind.name == "TypeAlias" and sym.targetType.type.isEnum:
            for m in sym.targetType.type:
                if m.kind.name == "EnumValue":
                    out[m.name] = _svint(m.value.value)
    return out


def test_systemverilog_matches_the_rdl() -> None:
    d = _rdl()
    sv = _sv_values()
    for m in d.ops:
        assert sv[f"OP_{m.name}"] == m.value, m.name
    for m in d.status:
        assert sv[f"ST_{m.name}"] == m.value, m.name
    for m in d.engines:
        assert sv["Eng" + "".join(p.capitalize() for p in m.name.lower().split("_"))] == m.value, m.name
    for s in d.slots:
        assert sv[f"SLOT_{s.name}"] == s.index, s.name
    assert sv["NumSlots"] == len(d.slots)
    assert sv["SecretSlotMask"] == sum(1 << s.index for s in d.slots if s.secret)


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="no C compiler")
def test_c_header_matches_the_rdl(tmp_path: Path) -> None:
    d = _rdl()
    names = ([(f"PKA_OP_{m.name}", m.value) for m in d.ops] + [(f"PKA_{m.name}", m.value) for m in d.status]
             + [(f"PKA_ENGINE_{m.name}", m.value) for m in d.engines] + [(f"PKA_SLOT_{s.name}", s.index) for s in d.slots]
             + [("PKA_SECRET_SLOTS", sum(1 << s.index for s in d.slots if s.secret))])
    src = tmp_path / "t.c"
    body = "\n".join(f'  printf("%s %ld\\n", "{n}", (long){n});' for n, _ in names)
    src.write_text(f'#include <stdio.h>\n#include "pka.h"\nint main(void) {{\n{body}\n  return 0;\n}}\n')
    cc = shutil.which("cc") or shutil.which("gcc")
    assert cc
    exe = tmp_path / "t"
    subprocess.run([cc, "-std=c99", "-Wall", "-Werror", f"-I{REPO / 'sw'}", str(src), "-o", str(exe)], check=True)
    got = dict(line.split() for line in subprocess.run([str(exe)], check=True, capture_output=True,
                                                        text=True).stdout.splitlines())
    assert {k: int(v) for k, v in got.items()} == dict(names)


def test_no_hand_copies_of_the_numbers() -> None:
    """The numbers live in the generated files only: no hand-written opcode enum or slot table elsewhere."""
    pats = {
        # Python: OP_X = 3, SLOT_A, SLOT_B = 1, 3
        ".py":
        re.compile(r"^\s*(OP|SLOT|ST)_[A-Z][A-Z_0-9]*(\s*,\s*(OP|SLOT|ST)_\w+)*\s*=\s*\(?\s*\d", re.M),
        # C: PKA_OP_X = 3, PKA_SLOT_X = 1, PKA_ERR_X = 2 (hardware codes are below 0x100)
        ".c": re.compile(r"\bPKA_(OP_|SLOT_|OK\b|ERR_)\w*\s*=\s*(?!0x1)\d"),
        # SystemVerilog: SLOT_X = 1, OP_X = 8'd3, ST_X = 8'd1
        ".sv": re.compile(r"^\s*(localparam\s.*\bSLOT_\w+\s*=\s*\d|(OP|ST)_\w+\s*=\s*\d+'d)", re.M),
    }
    pats[".h"] = pats[".c"]
    offenders = []
    for path in [*REPO.glob("src/pka/**/*.py"), *REPO.glob("tb/**/*.py"), *REPO.glob("sw/*.[ch]"),
                 *REPO.glob("rtl/**/*.sv"), *REPO.glob("tests/*.py")]:
        if path in (defs.PY, defs.C_DEFS, defs.PKG) or path.name in ("pka_regs_pkg.sv", "test_defs.py"):
            continue
        if pats[path.suffix].search(path.read_text()):
            offenders.append(str(path.relative_to(REPO)))
    assert not offenders, offenders
