"""State access of the simulated pka_top (tb/common/state_access.h, pka.analysis.state): the table,
peek/poke/flip against the bus's view, snapshots, Hamming-distance traces, RAM use tracking, the
nonzero listing, and flips with a settle (the default build) against Verilator's own semantics for
external writes (the _rw build). One small build: pka_top with the example engine, MaxLen 256."""

from __future__ import annotations

import random

import pytest

from pka.analysis.state import GROUPS, RAM, StateSim, nonzero_state, scope_match, top_config
from pka.driver import Pka, slot_addr
from pka.sim import Slot

pytestmark = pytest.mark.rtl

CFG = top_config("example", {}, 256)


@pytest.fixture(scope="module")
def sim() -> StateSim:
    s = StateSim(CFG)
    yield s
    s.close()


def test_table(sim: StateSim) -> None:
    table = sim.table
    names = [e.name for e in table]
    assert len(names) == len(set(names)) and names == sorted(names)
    assert [e.index for e in table] == list(range(len(table)))
    assert sim.skipped == 0
    assert {e.group for e in table} <= set(GROUPS)
    assert all(e.width > 0 and e.depth > 0 for e in table)
    ram = sim.elem(RAM)
    assert (ram.group, ram.width) == ("ram", 32)
    assert ram.depth % CFG.slot_words == 0 and ram.depth >= 16 * CFG.slot_words   # bus slots (+ internal ones)
    for name in ("pka_top.u_seq.state_q", "pka_top.cmd_written_q", "pka_top.u_ram.rdata_q"):
        assert name in {e.name for e in table}
    assert {e.group for e in table} >= {"ram", "seq", "ctrl", "eng"}
    # the example engine's registers sit under its core: group eng
    assert all(e.group == "eng" for e in table if ".u_core." in e.name)


def test_peek_poke_flip_vs_bus(sim: StateSim) -> None:
    sim.reset()
    Pka(sim)   # waits for the zeroization after reset
    words = CFG.slot_words
    # a bus write lands in the RAM word the table points at, and back
    sim.write32(slot_addr(Slot.A, 3), 0x12345678)
    assert sim.peek(RAM, Slot.A * words + 3) == 0x12345678
    sim.poke(RAM, 0xCAFEF00D, Slot.B * words + 1)
    assert sim.read32(slot_addr(Slot.B, 1)) == 0xCAFEF00D
    old, new = sim.flip(RAM, 31, Slot.B * words + 1)
    assert (old, new) == (0xCAFEF00D, 0x4AFEF00D)
    assert sim.read32(slot_addr(Slot.B, 1)) == 0x4AFEF00D
    # a register
    e = sim.elem("pka_top.u_seq.mu_q")
    sim.poke(e, (1 << e.width) - 1)
    assert sim.peek(e) == (1 << e.width) - 1
    sim.flip(e, e.width - 1)
    assert sim.peek(e) == (1 << (e.width - 1)) - 1
    with pytest.raises(RuntimeError):
        sim.flip(e, e.width)
    sim.asserts(True)


def test_snapshot_and_nonzero(sim: StateSim) -> None:
    sim.reset()
    Pka(sim)
    assert RAM not in nonzero_state(sim, "ram")
    sim.snap_save()
    sim.write_words(slot_addr(Slot.X1), [1, 0, 7])
    assert nonzero_state(sim, "ram")[RAM] == 2
    assert set(nonzero_state(sim, "pka_top.u_ram.")) <= {RAM, "pka_top.u_ram.rdata_q"}   # (not reset)
    sim.snap_load()
    sim.asserts(True)
    assert RAM not in nonzero_state(sim, "ram")
    assert sim.read32(slot_addr(Slot.X1, 2)) == 0


def test_hamming_distance(sim: StateSim) -> None:
    sim.reset()
    pka = Pka(sim)
    elems, bits = sim.hd_on("ram")
    assert elems == len(sim.select("ram")) and bits == sum(e.bits for e in sim.select("ram"))
    sim.hd_off()
    # the RAM alone: 8 bits set in a zero word, 1 more, 9 back to zero
    assert sim.hd_on(RAM) == (1, sim.elem(RAM).bits)
    c0 = sim.cycles()
    for v in (0xF0F0, 0xF0F1, 0):
        sim.write32(slot_addr(Slot.A, 0), v)
    sim.idle(5)
    n = sim.hd_off()
    samples = sim.hd_samples()
    assert len(samples) == n == sim.cycles() - c0          # one sample per clock cycle
    assert sum(samples) == 18 and sorted(v for v in samples if v) == [1, 8, 9]
    assert len(sim.hd_samples()) == 0                      # dumped: cleared
    # during an operation
    sim.hd_on("seq,eng")
    res = pka.modadd(5, 7, 11)
    assert res.result == 1
    sim.hd_off()
    trace = sim.hd_samples()
    assert len(trace) >= res.detail["wall_cycles"] and max(trace) > 0


def test_tracking(sim: StateSim) -> None:
    sim.reset()
    pka = Pka(sim)
    words = CFG.slot_words
    sim.track(True)
    pka.modadd(5, 7, 11)                   # 32-bit operands: one word each of N, A, B read, R written
    sim.track(False)
    touched = set(sim.touched())
    for slot in (Slot.N, Slot.A, Slot.B, Slot.R):
        assert slot * words in touched
    assert Slot.X2 * words not in touched


def test_scope_rule(sim: StateSim) -> None:
    e = sim.elem("pka_top.u_seq.state_q")
    assert scope_match(e, "seq") and scope_match(e, "all") and scope_match(e, "pe,pka_top.u_seq")
    assert not scope_match(e, "ram") and not scope_match(e, "pka_top.u_ram")
    assert {x.name for x in sim.select("seq")} == {x.name for x in sim.table if x.group == "seq"}


def test_flip_settle_equals_verilator_rw() -> None:
    """The default build writes into the state and then runs the model's settle region; the _rw
    build leaves it to Verilator (logic reading a public writable variable re-evaluated at every
    evaluation). Random flips at random cycles of MODADD on the example engine end the same way on
    both: status, result and cycles."""
    from pka.analysis.fault import Injector, Operation

    rng = random.Random(13)
    n = (1 << 255) + 95
    a, b = rng.randrange(n), rng.randrange(n)
    op = Operation("modadd", "example", "256 bits", 256, {},
                   lambda pka: pka.modadd(a, b, n, engine=pka.engine_id("example")).result, (a + b) % n)
    runs = []
    for writable in (False, True):
        inj = Injector(op, groups=("eng", "seq", "ram", "ctrl"), writable=writable)
        try:
            r = random.Random(5)
            runs.append([inj.inject(i, r) for i in range(40)])
        finally:
            inj.close()
    assert runs[0] == runs[1]
    assert {i.outcome for i in runs[0]} - {"masked"}      # some flips change something
