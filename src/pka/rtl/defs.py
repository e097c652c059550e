"""The one source of the interface's numbers: data/pka.rdl.

Opcodes, status codes and engine ids are SystemRDL enums there (the encodings of CMD.OP, STATUS.CODE
and CMD.ENGINE); the slots are its external memories (secret slots are write-only, `sw = w`); the
registers and their fields are its registers. From it this module writes:

  rtl/common/pka_pkg.sv   the region between the GENERATED markers: status_e, op_e, the engine ids,
                          the slot numbers and the secret-slot mask
  src/pka/regs.py         Python enums and constants (Op, Status, Slot, Engine, Reg, FIELDS, ...)
  sw/pka_defs.h           the same as C enums
  doc/top.md              the register, opcode and status tables (between GENERATED markers)

`python -m pka.rtl.top gen` runs it (with the PeakRDL outputs); tests/test_defs.py checks the files are
current and, independently of this generator, that the SystemVerilog (elaborated by pyslang), the C
(compiled by the host compiler) and the Python views agree value by value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pka.sim import REPO

RDL = REPO / "data" / "pka.rdl"
PKG = REPO / "rtl" / "common" / "pka_pkg.sv"
PY = REPO / "src" / "pka" / "regs.py"
C_DEFS = REPO / "sw" / "pka_defs.h"
DOC = REPO / "doc" / "top.md"

BEGIN = "BEGIN GENERATED"
END = "END GENERATED"
NOTE = "by `python -m pka.rtl.top gen` from data/pka.rdl: do not edit"


@dataclass(frozen=True)
class Member:
    name: str
    value: int
    desc: str


@dataclass(frozen=True)
class SlotDef:
    name: str        # "N", "A_HI", ...
    index: int
    secret: bool     # write-only from the bus
    desc: str


@dataclass(frozen=True)
class FieldDef:
    name: str
    lsb: int
    width: int
    sw: str
    desc: str


@dataclass(frozen=True)
class RegDef:
    name: str
    offset: int
    fields: tuple[FieldDef, ...]
    desc: str


@dataclass(frozen=True)
class Defs:
    ops: tuple[Member, ...]
    status: tuple[Member, ...]
    engines: tuple[Member, ...]
    slots: tuple[SlotDef, ...]
    regs: tuple[RegDef, ...]
    slot_base: int
    slot_stride: int
    slot_window_words: int
    id_magic: int


def _clean(text: str | None) -> str:
    return " ".join((text or "").split())


def load(rdl: Path = RDL) -> Defs:
    from systemrdl import RDLCompiler  # type: ignore[import-untyped]
    from systemrdl.node import FieldNode, MemNode, RegNode  # type: ignore[import-untyped]

    rdlc = RDLCompiler()
    rdlc.compile_file(str(rdl))
    top = rdlc.elaborate().top
    enums: dict[str, tuple[Member, ...]] = {}
    regs: list[RegDef] = []
    mems: list[MemNode] = []
    id_magic = 0
    for node in top.children():
        if isinstance(node, RegNode):
            fields = []
            for f in node.fields():
                assert isinstance(f, FieldNode)
                enc = f.get_property("encode")
                if enc is not None:
                    enums[enc.type_name] = tuple(Member(m.name, int(m.value), _clean(m.rdl_desc)) for m in enc)
                sw = ("r" if f.is_sw_readable else "") + ("w" if f.is_sw_writable else "")
                fields.append(FieldDef(f.inst_name, f.low, f.width, sw, _clean(f.get_property("desc"))))
                if node.inst_name == "ID" and f.inst_name == "MAGIC":
                    id_magic = int(f.get_property("reset"))
            regs.append(RegDef(node.inst_name, node.absolute_address, tuple(fields),
                               _clean(node.get_property("desc") or node.get_property("name"))))
        elif isinstance(node, MemNode):
            mems.append(node)
    mems.sort(key=lambda m: m.absolute_address)
    base = mems[0].absolute_address
    stride = mems[1].absolute_address - base
    slots = []
    for i, m in enumerate(mems):
        assert m.absolute_address == base + i * stride, f"{m.inst_name}: slot windows must be evenly spaced"
        assert m.inst_name.startswith("SLOT_"), m.inst_name
        slots.append(SlotDef(m.inst_name[5:], i, not m.is_sw_readable, _clean(m.get_property("name"))))
    return Defs(enums["pka_op"], enums["pka_status"], enums["pka_engine"], tuple(slots), tuple(regs),
                base, stride, int(mems[0].get_property("mementries")), id_magic)


# ---- SystemVerilog: the generated region of rtl/common/pka_pkg.sv ------------------------------------

def _camel(name: str) -> str:
    return "".join(p.capitalize() for p in name.lower().split("_"))


def _sv_item(name: str, width: int, value: int, last: bool, desc: str) -> str:
    val = f"8'd{value}" + ("" if last else ",")
    return f"    {name.ljust(width)} = {val.ljust(6)}  // {desc}"


def sv_region(d: Defs) -> str:
    out = [f"  // ---- {BEGIN} {NOTE} ----"]
    w = max(len(m.name) for m in d.status) + 3
    out.append("  // status codes (STATUS.CODE, the engines' status)")
    out.append("  typedef enum logic [7:0] {")
    out += [_sv_item("ST_" + m.name, w, m.value, i == len(d.status) - 1, m.desc) for i, m in enumerate(d.status)]
    out.append("  } status_e;")
    out.append("")
    w = max(len(m.name) for m in d.ops) + 3
    out.append("  // opcodes (CMD.OP; the engines receive the ones they serve)")
    out.append("  typedef enum logic [7:0] {")
    out += [_sv_item("OP_" + m.name, w, m.value, i == len(d.ops) - 1, m.desc) for i, m in enumerate(d.ops)]
    out.append("  } op_e;")
    out.append("")
    out.append("  // engine ids (CMD.ENGINE, the bits of HWCFG.ENGINES)")
    w = max(len(_camel(m.name)) for m in d.engines) + 3
    out += [f"  localparam int unsigned {('Eng' + _camel(m.name)).ljust(w)} = {m.value};  // {m.desc}"
            for m in d.engines]
    out.append(f"  localparam int unsigned {'NumEng'.ljust(w)} = {max(m.value for m in d.engines) + 1};  // engine ids 0..NumEng-1")
    out.append("")
    out.append("  // operand slots: RAM word address = slot * 2^SlotAw + word")
    out.append(f"  localparam int unsigned NumSlots  = {len(d.slots)};")
    out.append(f"  localparam int unsigned SlotBits  = {max(1, (len(d.slots) - 1).bit_length())};")
    w = max(len(s.name) for s in d.slots) + 5
    out += [f"  localparam int unsigned {('SLOT_' + s.name).ljust(w)} = {s.index};  // {s.desc}" for s in d.slots]
    mask = sum(1 << s.index for s in d.slots if s.secret)
    out.append(f"  // slots the bus can only write (secrets): {', '.join(s.name for s in d.slots if s.secret)}")
    out.append(f"  localparam logic [NumSlots-1:0] SecretSlotMask = {len(d.slots)}'h{mask:0{(len(d.slots) + 3) // 4}x};")
    out.append(f"  // ---- {END} ----")
    return "\n".join(out)


def _replace_region(text: str, region: str, path: Path, tag: str = "") -> str:
    b = re.search(rf"^.*{BEGIN}{re.escape(tag)}\b.*$", text, re.M)
    e = re.search(rf"^.*{END}{re.escape(tag)}\b.*$", text, re.M)
    if not b or not e or e.start() < b.start():
        raise RuntimeError(f"{path}: no {BEGIN}{tag} / {END}{tag} markers")
    return text[:b.start()] + region + text[e.end():]


def pkg_text(d: Defs) -> str:
    return _replace_region(PKG.read_text(), sv_region(d), PKG)


# ---- Python: src/pka/regs.py -----------------------------------------------------------------------

def py_text(d: Defs) -> str:
    def enum(name: str, doc: str, members: list[tuple[str, int, str]]) -> list[str]:
        lines = ["", "", f"class {name}(IntEnum):", f'    """{doc}"""', ""]
        for n, v, desc in members:
            lines.append(f"    {n} = {v}" + (f"  # {desc}" if desc else ""))
        return lines

    out = [f'"""Generated {NOTE}.', "",
           "The interface's numbers (opcodes, status codes, engine ids, slots, registers) for Python;",
           "the same values are in rtl/common/pka_pkg.sv and sw/pka_defs.h (tests/test_defs.py).", '"""',
           "", "from __future__ import annotations", "", "from enum import IntEnum"]
    out += enum("Op", "Opcodes (CMD.OP, pka_pkg::op_e).", [(m.name, m.value, m.desc) for m in d.ops])
    out += enum("Status", "Status codes (STATUS.CODE, pka_pkg::status_e).",
                [(m.name, m.value, m.desc) for m in d.status])
    out += enum("Engine", "Engine ids (CMD.ENGINE, HWCFG.ENGINES bits).", [(m.name, m.value, m.desc) for m in d.engines])
    out += enum("Slot", "Operand slots (pka_pkg::SLOT_*).", [(s.name, s.index, s.desc) for s in d.slots])
    out += enum("Reg", "Register offsets.", [(r.name, r.offset, "") for r in d.regs])
    out += ["", "",
            "# register fields: FIELDS[reg][field] = (lsb, width)",
            "FIELDS: dict[str, dict[str, tuple[int, int]]] = {"]
    for r in d.regs:
        inner = ", ".join(f'"{f.name}": ({f.lsb}, {f.width})' for f in r.fields)
        out.append(f'    "{r.name}": {{{inner}}},')
    out.append("}")
    secret = ", ".join(f"Slot.{s.name}" for s in d.slots if s.secret)
    out += ["", f"SECRET_SLOTS = frozenset({{{secret}}})   # write-only from the bus",
            f"SLOT_BASE = {d.slot_base:#x}", f"SLOT_STRIDE = {d.slot_stride:#x}",
            f"SLOT_WINDOW_WORDS = {d.slot_window_words}", f"ID_MAGIC = {d.id_magic:#010x}", ""]
    return "\n".join(out)


# ---- C: sw/pka_defs.h ------------------------------------------------------------------------------

def c_text(d: Defs) -> str:
    def enum(name: str, items: list[tuple[str, int, str]]) -> list[str]:
        lines = [f"enum {name} {{"]
        for i, (n, v, desc) in enumerate(items):
            lines.append(f"  {n} = {v}{',' if i < len(items) - 1 else ''}" + (f"  /* {desc} */" if desc else ""))
        return lines + ["};", ""]

    out = ["/* SPDX-License-Identifier: Apache-2.0", f" * pka_defs.h: generated {NOTE}.",
           " * Opcodes, status codes, engine ids and operand slots of pka_top (register offsets: pka_regs.h). */",
           "#ifndef PKA_DEFS_H", "#define PKA_DEFS_H", ""]
    out += enum("pka_op", [(f"PKA_OP_{m.name}", m.value, m.desc) for m in d.ops])
    out += enum("pka_status", [(f"PKA_{m.name}", m.value, m.desc) for m in d.status])
    out += enum("pka_engine", [(f"PKA_ENGINE_{m.name}", m.value, m.desc) for m in d.engines])
    out += enum("pka_slot", [(f"PKA_SLOT_{s.name}", s.index, s.desc) for s in d.slots])
    mask = sum(1 << s.index for s in d.slots if s.secret)
    out += [f"#define PKA_SECRET_SLOTS 0x{mask:04x}u  /* write-only slots (bit = slot) */",
            f"#define PKA_NUM_SLOTS {len(d.slots)}u", "", "#endif /* PKA_DEFS_H */", ""]
    return "\n".join(out)


# ---- doc/top.md tables -------------------------------------------------------------------------------

def doc_tables(d: Defs) -> dict[str, str]:
    regs = ["| offset | register | fields | |", "|---|---|---|---|"]
    for r in d.regs:
        fields = ", ".join(f"{f.name}[{f.lsb + f.width - 1}:{f.lsb}]" if f.width > 1 else f"{f.name}[{f.lsb}]"
                           for f in r.fields)
        regs.append(f"| {r.offset:#05x} | {r.name} | {fields} | {r.desc} |")
    slots = ", ".join(s.name + (" (secret)" if s.secret else "") for s in d.slots)
    regs.append(f"| {d.slot_base:#x} + s * {d.slot_stride:#x} | SLOT_&lt;s&gt; | slot s of {d.slot_window_words} "
                f"words: {slots} | operand slot windows |")
    ops = ["| op | name | does |", "|---|---|---|"] + [f"| {m.value} | {m.name} | {m.desc} |" for m in d.ops]
    st = ["| code | name | meaning |", "|---|---|---|"] + [f"| {m.value} | {m.name} | {m.desc} |" for m in d.status]
    return {"registers": "\n".join(regs), "opcodes": "\n".join(ops), "status": "\n".join(st)}


def doc_text(d: Defs) -> str:
    text = DOC.read_text()
    for tag, table in doc_tables(d).items():
        region = f"<!-- {BEGIN}:{tag} {NOTE} -->\n{table}\n<!-- {END}:{tag} -->"
        text = _replace_region(text, region, DOC, f":{tag}")
    return text


# ---- all of them ---------------------------------------------------------------------------------------

def outputs(d: Defs | None = None) -> dict[Path, str]:
    d = d or load()
    return {PKG: pkg_text(d), PY: py_text(d), C_DEFS: c_text(d), DOC: doc_text(d)}


def write_all() -> list[Path]:
    written = []
    for path, text in outputs().items():
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            written.append(path)
    return written


def stale() -> list[Path]:
    return [p for p, t in outputs().items() if not p.exists() or p.read_text() != t]
