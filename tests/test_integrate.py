"""doc/integrate.md (issue 19, item 4): its instantiation template compiles, and its parameter table
is pka_top's.

The template is the first ```systemverilog block after the heading "Instantiation template". The
test wraps it in a small module whose ports are the signals the template connects (directions and
widths from pka_top elaborated by pyslang with the template's parameters), and lints that module
with `verilator --lint-only -Wall` (pka.sim.lint, the project's waivers) against pka_top's fileset
(rtl/top/top.f) without the test-only example engine. A parameter or port that pka_top does not
have fails the lint (Verilator: pin not found); one the template leaves out fails the name check.

The tests at the end hold the default build and the FuseSoC core to what the guide states
(section Parameters, section FuseSoC): no test engine by default, none in the core's RTL fileset,
every parameter of pka_top a parameter of the core with the RTL's default.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pka.sim import REPO, fileset, lint

GUIDE = REPO / "doc" / "integrate.md"
TOP_SV = REPO / "rtl" / "top" / "pka_top.sv"
TOP_CORE = REPO / "rtl" / "top" / "pka_top.core"
EXAMPLE_SV = "pka_example_engine.sv"
WRAPPER = "pka_integrate_top"


# ---- the guide -------------------------------------------------------------------------------------

def template(text: str | None = None) -> str:
    """The first ```systemverilog block after the heading "Instantiation template"."""
    text = GUIDE.read_text(encoding="utf-8") if text is None else text
    head = re.search(r"^#+\s*Instantiation template\s*$", text, re.M)
    assert head, "doc/integrate.md has no heading 'Instantiation template'"
    block = re.compile(r"^```systemverilog\s*\n(.*?)^```\s*$", re.M | re.S).search(text, head.end())
    assert block, "no ```systemverilog block after 'Instantiation template'"
    return block.group(1)


def _strip_comments(sv: str) -> str:
    return re.sub(r"/\*.*?\*/", "", re.sub(r"//[^\n]*", "", sv), flags=re.S)


def instance(block: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(parameter overrides, port connections) of the pka_top instance in `block`, in order."""
    m = re.search(r"\bpka_top\s*#\s*\((.*?)\)\s*\w+\s*\((.*)\)\s*;", _strip_comments(block), re.S)
    assert m, "the template is not a `pka_top #(...) name (...);` instance"
    named = re.compile(r"\.(\w+)\s*\(\s*([^()]*?)\s*\)")
    return named.findall(m.group(1)), named.findall(m.group(2))


def parameter_table(text: str | None = None) -> dict[str, str]:
    """parameter -> default column of the table under the heading "Parameters"."""
    text = GUIDE.read_text(encoding="utf-8") if text is None else text
    sec = re.search(r"^## Parameters\s*$(.*?)(?=^## )", text, re.M | re.S)
    assert sec, "doc/integrate.md has no section 'Parameters'"
    rows = re.findall(r"^\|\s*`(\w+)`\s*\|\s*([^|]*?)\s*\|", sec.group(1), re.M)
    return dict(rows)


# ---- pka_top's own lists ----------------------------------------------------------------------------

def _top_header() -> str:
    text = _strip_comments(TOP_SV.read_text())
    m = re.search(r"\bmodule\s+pka_top\b(.*?\))\s*;", text, re.S)
    assert m, "module pka_top not found"
    return m.group(1)


def top_params() -> dict[str, str]:
    """pka_top's parameters with their default text, in source order."""
    return dict(re.findall(r"parameter\s+(?:int\s+unsigned|int|bit|logic)?\s*(\w+)\s*=\s*([^,)]+?)\s*(?=,|\)\s*\()",
                           _top_header()))


def top_ports() -> list[str]:
    return re.findall(r"\b(?:input|output)\s+logic\s*(?:\[[^\]]*\])?\s*(\w+)", _top_header())


def _sv_value(text: str) -> int:
    m = re.fullmatch(r"(?:\d+)?'([bdh])([0-9a-fA-F_]+)|(\d+)", text.strip())
    assert m, f"not a plain SystemVerilog number: {text!r}"
    if m.group(3):
        return int(m.group(3))
    return int(m.group(2).replace("_", ""), {"b": 2, "d": 10, "h": 16}[m.group(1)])


def top_sources() -> list[Path]:
    """pka_top's RTL fileset (rtl/top/top.f) without the test-only example engine."""
    return [s for s in fileset("top") if s.name != EXAMPLE_SV]


# ---- the wrapper ------------------------------------------------------------------------------------

def wrapper(block: str) -> str:
    """A module whose ports are the signals the template connects, the template as its body."""
    from pka.synth import unit_ports

    params, conns = instance(block)
    known = set(top_params())
    ports = {name: (d, w) for name, d, w in
             unit_ports(top_sources(), "pka_top", {k: _sv_value(v) for k, v in params if k in known})}
    decls = []
    for port, sig in conns:
        if port not in ports:
            continue                      # not pka_top's: the lint reports it (pin not found)
        assert re.fullmatch(r"[A-Za-z_]\w*", sig), f".{port} ({sig}): connect a plain signal name"
        direction, width = ports[port]
        rng = f"[{width - 1}:0] " if width > 1 else ""
        decls.append(f"  {'input ' if direction == 'in' else 'output'} logic {rng}{sig}")
    return ("// generated by tests/test_integrate.py from doc/integrate.md\n`default_nettype none\n\n"
            f"module {WRAPPER} (\n" + ",\n".join(decls) + "\n);\n" + block + "endmodule\n")


def lint_template(block: str, tmp: Path) -> tuple[int, str]:
    f = tmp / f"{WRAPPER}.sv"
    f.write_text(wrapper(block))
    proc = lint([*top_sources(), f], WRAPPER)
    return proc.returncode, proc.stdout + proc.stderr


# ---- tests ------------------------------------------------------------------------------------------

def test_template_names_every_parameter_and_port_of_pka_top() -> None:
    params, conns = instance(template())
    names = [p for p, _ in params]
    assert len(names) == len(set(names)), f"a parameter named twice: {names}"
    assert set(names) == set(top_params()), (
        f"missing: {sorted(set(top_params()) - set(names))}, not pka_top's: {sorted(set(names) - set(top_params()))}")
    ports = [p for p, _ in conns]
    assert len(ports) == len(set(ports)), f"a port connected twice: {ports}"
    assert set(ports) == set(top_ports()), (
        f"missing: {sorted(set(top_ports()) - set(ports))}, not pka_top's: {sorted(set(ports) - set(top_ports()))}")


def test_template_is_a_product_build() -> None:
    """No test-only setting, at least one engine, the legal bus width."""
    values = {k: _sv_value(v) for k, v in instance(template())[0]}
    assert values["EnExample"] == 0 and values["TestExposeInternals"] == 0
    assert values["EnResultCheck"] == 1 and values["EnKeyBinding"] == 1
    assert any(values[k] for k in values if k.startswith("En") and k not in ("EnExample", "EnResultCheck", "EnKeyBinding"))
    assert values["BusAw"] == 17


@pytest.mark.rtl
def test_template_lints(tmp_path: Path) -> None:
    rc, out = lint_template(template(), tmp_path)
    assert rc == 0, out


@pytest.mark.rtl
@pytest.mark.parametrize("where,line", [("params", ".NoSuchParam (1),"), ("ports", ".no_such_port_i (clk),")])
def test_lint_rejects_a_name_pka_top_lacks(tmp_path: Path, where: str, line: str) -> None:
    """The lint itself fails on a parameter or port pka_top does not have (not only the name check)."""
    block = template()
    anchor = "pka_top #(\n" if where == "params" else ") u_pka (\n"
    assert anchor in block
    bad = block.replace(anchor, anchor + "    " + line + "\n", 1)
    rc, out = lint_template(bad, tmp_path)
    name = re.search(r"\.(\w+)", line)
    assert rc != 0 and name and name.group(1) in out, out


def test_parameter_table_is_pka_top_s() -> None:
    """Every parameter of pka_top in the guide's table, with the default of the source."""
    table = parameter_table()
    params = top_params()
    assert list(table) == list(params), f"table {list(table)} != pka_top {list(params)} (names and order)"
    for name, default in params.items():
        assert int(table[name]) == _sv_value(default), f"{name}: guide {table[name]}, pka_top.sv {default}"


def test_the_parsers_see_what_they_should() -> None:
    """The helpers on a made-up guide: heading, first block after it, table rows."""
    text = ("# g\n```systemverilog\nnot this\n```\n## Instantiation template\n\ntext\n"
            "```systemverilog\n  pka_top #(\n    .A (1), // c\n    .B (2'b10)\n  ) u (\n    .x (y)\n  );\n```\n"
            "```systemverilog\nnor this\n```\n## Parameters\n\n| parameter | default |\n|---|---|\n"
            "| `A` | 1 | x |\n| `B` | 0 | y |\n\n## Next\n| `C` | 3 | z |\n")
    params, conns = instance(template(text))
    assert params == [("A", "1"), ("B", "2'b10")] and conns == [("x", "y")]
    assert parameter_table(text) == {"A": "1", "B": "0"}
    assert _sv_value("2'b10") == 2 and _sv_value("17") == 17 and _sv_value("32'h10") == 16
    assert "MaxLen" in top_params() and "clk_i" in top_ports() and "edn_data_i" in top_ports()


# ---- the default build and the FuseSoC core (issue 19, item 4) --------------------------------------

def _core_rtl_files() -> list[str]:
    text = TOP_CORE.read_text()
    rtl = re.search(r"^  rtl:\n(.*?)^  \w+:\n", text, re.M | re.S)
    assert rtl
    return re.findall(r"^\s+- (\S+\.sv)\s*$", rtl.group(1), re.M)


def _core_params() -> dict[str, int]:
    """The core's parameters with their defaults."""
    text = TOP_CORE.read_text()
    sec = re.search(r"^parameters:\n(.*?)(?=^\S)", text, re.M | re.S)
    assert sec, "pka_top.core declares no parameters"
    return {k: int(v) for k, v in re.findall(r"^  (\w+):\s*\n(?:    .*\n)*?    default:\s*(\S+)\s*$", sec.group(1), re.M)}


def _core_target(name: str) -> str:
    m = re.search(rf"^  {name}:\n(.*?)(?=^  \w+:|\Z)", TOP_CORE.read_text().split("\ntargets:\n", 1)[1], re.M | re.S)
    assert m, f"pka_top.core has no target {name}"
    return m.group(1)


def test_default_build_has_no_test_engine() -> None:
    """The default pka_top is a product build: no example engine, hscm on."""
    params = top_params()
    assert _sv_value(params["EnExample"]) == 0
    assert _sv_value(params["EnHscm"]) == 1


def test_core_rtl_fileset_has_no_test_code() -> None:
    """The example engine is not in the rtl fileset; only the sim target adds it."""
    assert [f for f in _core_rtl_files() if f.endswith(EXAMPLE_SV)] == []
    assert EXAMPLE_SV in TOP_CORE.read_text()
    assert "test_rtl" in _core_target("sim")
    for target in ("lint", "syn"):
        assert "test_rtl" not in _core_target(target), target


def test_core_exposes_every_parameter() -> None:
    """Every parameter of pka_top, with the RTL's default, set by the lint, sim and syn targets."""
    core = _core_params()
    assert core == {k: _sv_value(v) for k, v in top_params().items()}
    for target in ("lint", "sim", "syn"):
        listed = re.search(r"^    parameters:\s*\[(.*?)\]", _core_target(target), re.M)
        assert listed and [p.strip() for p in listed.group(1).split(",")] == list(top_params()), target
