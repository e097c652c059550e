"""Every state element of the simulated pka_top, from Python: a table of the registers (*_q, *_q2),
the memories (mem_q) and the register block's storage, each with its hierarchical name, width, depth
and group; peek, poke and flip one bit; snapshots; per-cycle Hamming-distance traces of a scope;
which RAM words an operation touched; which elements are not zero.

    sim = StateSim(cfg)                       # pka_top + tb/common/state_access.h
    pka = Pka(sim)                            # the driver runs on it as on any TopSim
    sim.table[:3]                             # [StateElem(index, name, width, depth, group, rw), ...]
    sim.flip("pka_top.u_seq.state_q", 0)
    sim.hd_on("pe,eng"); ...; trace = sim.hd_samples()   # one Hamming distance per clock cycle
    nonzero_state(sim, "eng,pe,eram")         # {name: entries not zero} (wipe checks)

The harness side is tb/common/state_access.h (the table is built once at start-up from Verilator's
scope map; a per-cycle observer computes the Hamming distances from a pointer table). The build adds
a Verilator configuration file that makes the state public: tb/common/state_public_rd.vlt (the
default; a write is followed by a settle of the combinational logic) or, with writable=True,
state_public_rw.vlt (Verilator's own semantics for external writes, about twice as slow: the
reference the default is checked against). Scopes are comma-separated terms, each `all`, a group
(pe, eram, eng, seq, ram, ctrl, regs) or a prefix of the hierarchical name.
"""

from __future__ import annotations

import os
import tempfile
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from pka.rtl import top
from pka.rtl.top import TopConfig, TopSim
from pka.sim import REPO, Design, SimProcess
from pka.sim import build as sim_build

STATE_H = REPO / "tb" / "common" / "state_access.h"
VLT_RW = REPO / "tb" / "common" / "state_public_rw.vlt"
VLT_RD = REPO / "tb" / "common" / "state_public_rd.vlt"
GROUPS = ("pe", "eram", "eng", "seq", "ram", "ctrl", "regs")
RAM = "pka_top.u_ram.mem_q"


@dataclass(frozen=True)
class StateElem:
    index: int
    name: str       # hierarchical, e.g. pka_top.gen_eng[6].gen_hscm.u_core.u_array.gen_pe[0].u_pe.c_q
    width: int      # bits of one entry
    depth: int      # entries (1 for a register, the words of a memory)
    group: str
    rw: bool

    @property
    def bits(self) -> int:
        return self.width * self.depth

    @property
    def is_memory(self) -> bool:
        return self.depth > 1 or self.name.endswith("mem_q")


def state_design(cfg: TopConfig, writable: bool = False) -> Design:
    """pka_top's build (pka.rtl.top.design) with its state public: the same harness, sources and
    parameters, plus the .vlt that marks the state elements public (a build of its own in the cache)."""
    base = top.design(cfg)
    vlt = VLT_RW if writable else VLT_RD
    return Design(base.top, [vlt, *base.sources], base.params, base.mem_aw, base.defines, base.harness,
                  [*base.key_files, STATE_H], base.cflags, name="pka_top_state" + ("_rw" if writable else "_rd"))


def scope_match(elem: StateElem, scope: str) -> bool:
    """The harness's scope rule: a term is `all`, a group, or a prefix of the name."""
    for term in scope.split(","):
        if term and (term == "all" or term == elem.group or elem.name.startswith(term)):
            return True
    return False


class StateSim(TopSim):
    """A TopSim whose model exposes every state element (pka.driver.Pka runs on it unchanged)."""

    def __init__(self, cfg: TopConfig, writable: bool = False, trace_vcd: str | Path | None = None) -> None:
        self.cfg = cfg
        self.writable = writable
        SimProcess.__init__(self, sim_build(state_design(cfg, writable), trace=trace_vcd is not None), trace_vcd)
        self.bus_cycles = 0
        self._table: list[StateElem] | None = None
        self._by_name: dict[str, StateElem] = {}
        self.skipped = 0

    def __enter__(self) -> "StateSim":
        return self

    # -- the table ----------------------------------------------------------------------------------
    @property
    def table(self) -> list[StateElem]:
        if self._table is None:
            head = self._ask("state")
            n, self.skipped = int(head[1]), int(head[2])
            rows = []
            for _ in range(n):
                i, name, width, depth, group, rw = self._recv().split()
                rows.append(StateElem(int(i), name, int(width), int(depth), group, rw == "1"))
            self._table = rows
            self._by_name = {e.name: e for e in rows}
        return self._table

    def elem(self, ref: int | str | StateElem) -> StateElem:
        if isinstance(ref, StateElem):
            return ref
        table = self.table
        if isinstance(ref, int):
            return table[ref]
        try:
            return self._by_name[ref]
        except KeyError:
            raise KeyError(f"no state element {ref!r}") from None

    def select(self, scope: str) -> list[StateElem]:
        return [e for e in self.table if scope_match(e, scope)]

    # -- values ---------------------------------------------------------------------------------------
    def peek(self, ref: int | str | StateElem, entry: int = 0) -> int:
        return int(self._ask(f"peek {self.elem(ref).index} {entry}")[1], 16)

    def poke(self, ref: int | str | StateElem, value: int, entry: int = 0) -> None:
        self._ask(f"poke {self.elem(ref).index} {value:x} {entry}")

    def flip(self, ref: int | str | StateElem, bit: int, entry: int = 0) -> tuple[int, int]:
        """Invert one bit; returns (old, new) value of the entry."""
        parts = self._ask(f"flip {self.elem(ref).index} {bit} {entry}")
        return int(parts[1], 16), int(parts[2], 16)

    def snap_save(self) -> int:
        """Copy every state element (registers and memories) aside; returns the bytes copied."""
        return int(self._ask("snap save")[1])

    def snap_load(self) -> None:
        """Write the snapshot back into every state element."""
        self._ask("snap load")

    def asserts(self, on: bool) -> None:
        """The RTL's assertions on or off (poke, flip and snap_load turn them off: a state written
        from outside may break invariants the RTL asserts)."""
        self._ask(f"asserts {'on' if on else 'off'}")

    # -- Hamming-distance traces ------------------------------------------------------------------------
    def hd_on(self, scope: str) -> tuple[int, int]:
        """Start one sample per clock cycle: the Hamming distance between the states of the scope's
        elements after consecutive rising edges. Returns (elements, bits) in the scope."""
        parts = self._ask(f"hd on {scope}")
        return int(parts[1]), int(parts[2])

    def hd_off(self) -> int:
        return int(self._ask("hd off")[1])

    def hd_samples(self) -> "array[int]":
        """The samples since hd_on (or the last call), as array('I'); clears them in the harness."""
        fd, path = tempfile.mkstemp(prefix="pka-hd-", suffix=".bin")
        os.close(fd)
        try:
            self._ask(f"hd dump {path}")
            out: array[int] = array("I")
            data = Path(path).read_bytes()
            out.frombytes(data)
            if out.itemsize != 4:   # pragma: no cover - exotic platforms
                raise RuntimeError("array('I') is not 32 bits here")
            return out
        finally:
            os.unlink(path)

    # -- RAM use --------------------------------------------------------------------------------------
    def track(self, on: bool = True) -> None:
        """on: forget and start recording the operand RAM words the sequencer or an engine reads or
        writes through the RAM port (bus accesses while idle count too)."""
        self._ask(f"track {'on' if on else 'off'}")

    def touched(self) -> list[int]:
        parts = self._ask("touched")
        out: list[int] = []
        for p in parts[2:]:
            a, _, b = p.partition("-")
            out.extend(range(int(a, 16), int(b or a, 16) + 1))
        return out

    def nonzero(self, scope: str) -> dict[str, int]:
        """{name: entries not zero} of the elements in `scope` that are not all zero."""
        parts = self._ask(f"nonzero {scope}")
        out = {}
        for p in parts[2:]:
            i, c = p.split(":")
            out[self.table[int(i)].name] = int(c)
        return out


def nonzero_state(sim: StateSim, scope: str = "all") -> dict[str, int]:
    """The registers and memories under `scope` that are not zero, as {name: entries not zero}
    (1 for a register). For wipe checks: after an operation that touched a secret, e.g.
    `assert not nonzero_state(sim, "eng,pe,eram")`."""
    return sim.nonzero(scope)


# ---- builds holding one engine, as pka.driver.session makes them -------------------------------------

def top_config(engine: str, params: dict[str, Any], bits: int, extra: Sequence[tuple[str, int]] = ()) -> TopConfig:
    """The TopConfig pka.driver.session(engine, params, bits) builds, plus extra pka_top parameters."""
    from pka.rtl.top import engine_config
    return engine_config(engine, params, bits, extra)


_SESSIONS: dict[Any, tuple[StateSim, Any]] = {}


def state_session(engine: str, params: dict[str, Any], bits: int, writable: bool = False,
                  extra: Sequence[tuple[str, int]] = ()) -> tuple[StateSim, Any]:
    """(StateSim, pka.driver.Pka) on a cached build holding `engine`, with its state public (one
    process per build and mode)."""
    from pka.driver import Pka

    cfg = top_config(engine, params, bits, extra)
    key = (cfg, writable)
    entry = _SESSIONS.get(key)
    if entry is None or entry[0].proc.poll() is not None:
        sim = StateSim(cfg, writable)
        entry = (sim, Pka(sim))
        _SESSIONS[key] = entry
    return entry


def close_all() -> None:
    for sim, _ in _SESSIONS.values():
        sim.close()
    _SESSIONS.clear()


import atexit  # noqa: E402

atexit.register(close_all)


def has_top_param(name: str) -> bool:
    """Whether rtl/top/pka_top.sv declares the parameter `name` (e.g. EnResultCheck, being added)."""
    import re

    text = (REPO / "rtl" / "top" / "pka_top.sv").read_text()
    return re.search(rf"\bparameter\b[^;,)]*\b{re.escape(name)}\b", text) is not None


class CmdHookBus:
    """A pka.driver Bus over a StateSim that calls `on_cmd` once, right after a CMD write (of
    `opcode` only, when given): the fault campaign injects there, the TVLA starts its trace there.
    Everything else is the simulation's."""

    def __init__(self, sim: StateSim, opcode: int | None = None) -> None:
        self.sim = sim
        self.opcode = opcode
        self.on_cmd: Callable[[], None] | None = None

    @property
    def bus_cycles(self) -> int:
        return self.sim.bus_cycles

    @bus_cycles.setter
    def bus_cycles(self, value: int) -> None:
        self.sim.bus_cycles = value

    def write32(self, addr: int, value: int, strb: int = 0xF) -> int:
        from pka.regs import Reg
        resp = self.sim.write32(addr, value, strb)
        if (addr == Reg.CMD and self.on_cmd is not None
                and (self.opcode is None or value & 0xFF == self.opcode)):
            hook, self.on_cmd = self.on_cmd, None
            hook()
        return resp

    def __getattr__(self, name: str) -> Any:   # read32, write_words, wait_irq, ...: the simulation's
        return getattr(self.sim, name)
