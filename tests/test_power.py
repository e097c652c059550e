"""The gate-level power simulation (pka.analysis.power) and the mwr4 glitch blockers it measures.

The simulator's delay model on hand-made netlists (a hazard counted as two glitch transitions, a
latch open in the low phase blocking it, one open in the high phase passing it), and on the real
kernel: the netlist replayed on traced RTL products gives the RTL's outputs in every cycle, a
corrupted stimulus is caught, and the counts are consistent (functional <= every transition).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pka.analysis import power as P
from pka.model import mwr4 as model


def _netlist(tmp_path: Path, cells: dict[str, tuple[str, dict[str, int]]], outs: dict[str, int]) -> Path:
    """A one-module Yosys JSON netlist: inputs clk_i (net 2) and a (net 3), the given cells."""
    ports = {"clk_i": {"direction": "input", "bits": [2]}, "a": {"direction": "input", "bits": [3]}}
    ports.update({k: {"direction": "output", "bits": [v]} for k, v in outs.items()})
    mod = {"ports": ports,
           "cells": {n: {"type": t, "connections": {pin: [b] for pin, b in con.items()}, "attributes": {}}
                     for n, (t, con) in cells.items()},
           "netnames": {}}
    path = tmp_path / "n.json"
    path.write_text(json.dumps({"modules": {"t": mod}}))
    return path


# y = a XOR NOT(NOT(a)): constant 0, but the direct input arrives two gate delays before the other
HAZARD = {"n1": ("$_NOT_", {"A": 3, "Y": 4}), "n2": ("$_NOT_", {"A": 4, "Y": 5}),
          "x": ("$_XOR_", {"A": 3, "B": 5, "Y": 6})}


def test_unit_delay_counts_a_hazard(tmp_path: Path) -> None:
    sim = P.GateSim(_netlist(tmp_path, HAZARD, {"y": 6}), top="t")
    sim.cycle({"a": 0})
    before = int(sim.per_net[sim.index[6]])
    c = sim.cycle({"a": 1})
    assert sim.get_port("y") == 0
    # a, n1, n2 change once each (functional); y goes 0 -> 1 -> 0 (two glitch transitions)
    assert (c.total, c.functional, c.glitches) == (5, 3, 2)
    assert int(sim.per_net[sim.index[6]]) - before == 2
    # loads: a drives n1 and x (1 + 2), n1 and n2 one gate each (2), y nothing (1)
    assert c.weighted == 3 + 2 + 2 + 2 * 1
    assert c.clock == 0                      # no flip-flop or latch


@pytest.mark.parametrize("kind, passes", [("$_DLATCH_N_", False), ("$_DLATCH_P_", True)])
def test_latch_blocks_the_glitch_only_when_closed(tmp_path: Path, kind: str, passes: bool) -> None:
    """The hazard through a latch on the clock: open in the low phase (a glitch blocker) it sees only
    the settled 0; open in the high phase (when the inputs move) it passes the glitch."""
    cells = dict(HAZARD, lat=(kind, {"D": 6, "E": 2, "Q": 7}))
    sim = P.GateSim(_netlist(tmp_path, cells, {"z": 7}), top="t")
    sim.cycle({"a": 0})
    z = sim.index[7]
    before = int(sim.per_net[z])
    sim.cycle({"a": 1})
    assert sim.get_port("z") == 0
    assert int(sim.per_net[z]) - before == (2 if passes else 0)
    assert sim.clock_pins == 1


def test_flip_flop_samples_before_the_edge(tmp_path: Path) -> None:
    """A flip-flop takes the value its D had settled to before the edge (one cycle of delay)."""
    cells = {"f": ("$_DFF_P_", {"C": 2, "D": 3, "Q": 4})}
    sim = P.GateSim(_netlist(tmp_path, cells, {"q": 4}), top="t")
    seen = []
    for a in (1, 0, 1, 1):
        c = sim.cycle({"a": a})
        seen.append(sim.get_port("q"))
        assert c.clock == 2
    assert seen == [0, 1, 0, 1]


def test_unsupported_cells_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a generic gate"):
        P.GateSim(_netlist(tmp_path, {"m": ("$mul", {"A": 3, "B": 3, "Y": 4})}, {"y": 4}), top="t")


BUILDS = [P.Build(4, 2, 8), P.Build(4, 2, 8, glitch=1), P.Build(2, 3, 4, coding=0, freeze=0, isolate=1),
          P.Build(8, 2, 8)]


@pytest.mark.rtl
@pytest.mark.parametrize("build", BUILDS, ids=lambda b: b.name)
def test_kernel_netlist_equals_the_rtl(build: P.Build) -> None:
    """The kernel's gate netlist replayed on two traced 64-bit products: every output equal to the
    RTL's in every cycle (measure raises otherwise); the counts are consistent."""
    r = P.measure(build, n=64, count=2, seed=5)
    d = r.as_dict()
    assert r.cycles == model.product_cycles(64, build.cfg)
    assert r.window_cycles > r.cycles
    assert 0 < d["functional"] < d["transitions"]          # the datapath glitches
    assert d["energy_zero_delay"] < d["energy"]
    assert d["cells"]["latch"] == (6 * 2 if build.glitch else 0)   # radix 4: EN + 2 SEL bits, x2, per PE
    assert d["cells"]["dff"] > 0 and d["transistors"] > 0
    assert sum(d["by_group"].values()) == pytest.approx(d["energy_data"])


@pytest.mark.rtl
def test_a_corrupted_stimulus_is_caught() -> None:
    """The per-cycle comparison can fail: one input bit flipped in one busy cycle of the trace makes
    the netlist's outputs differ from the RTL's."""
    b = P.Build(4, 2, 8)
    stim = P.stimulus(b, 64, 1, 5)
    start, end = stim.windows[0]
    i = next(k for k in range(start, end) if stim.inputs[k]["in_valid_i"] and not stim.inputs[k]["in_first_i"])
    stim.inputs[i] = dict(stim.inputs[i], in_b_i=stim.inputs[i]["in_b_i"] ^ 1)
    with pytest.raises(P.Mismatch, match="the RTL trace has"):
        P.replay(P.GateSim(P.netlist(b)), stim)
