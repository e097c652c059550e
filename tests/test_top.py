"""pka_top through its AXI4-Lite bus (pka.driver on pka.rtl.top.TopSim): the sequencer's own
operations against Python integers and the closed-form cycle model, every status code the build
can produce, interrupts, back-to-back commands, a command while busy, the write-only slots,
ZEROIZE and reset, and random bus traffic with a watchdog."""

from __future__ import annotations

import os
import random

import pytest

from pka.driver import INTR_DONE, INTR_REJECT, INTR_TAINT, OP_ZEROIZE, Pka, Reg, slot_addr, words_for
from pka.errors import PkaError, Status
from pka.model.common import neg_inv_pow2, r2_mod
from pka.rtl.top import PHYS_SLOTS, TopConfig, TopSim, seq_cycles
from pka.sim import Op, Slot

pytestmark = pytest.mark.rtl

VECTORS = int(os.environ.get("PKA_VECTORS", "20"))
CFG = TopConfig(max_len=256, engines=("example",))


@pytest.fixture(scope="module")
def sim() -> TopSim:
    with TopSim(CFG) as s:
        yield s


@pytest.fixture
def pka(sim: TopSim) -> Pka:
    sim.delay(0)
    p = Pka(sim)
    sim.write32(Reg.INTR_STATE, INTR_DONE | INTR_REJECT | INTR_TAINT)
    return p


def _modulus(rng: random.Random, bits: int) -> int:
    return rng.getrandbits(bits) | 1 | (1 << (bits - 1)) if bits > 1 else 1


# ---- own operations: results and cycles ------------------------------------------------------------

@pytest.mark.parametrize("bits", [2, 31, 32, 33, 95, 160, 255, 256])
def test_modadd_modsub_random(pka: Pka, bits: int) -> None:
    rng = random.Random(bits)
    for _ in range(max(2, VECTORS // 4)):
        n = _modulus(rng, bits)
        for a, b in ((rng.randrange(n), rng.randrange(n)), (0, 0), (n - 1, n - 1), (0, n - 1), (n - 1, 1)):
            r = pka.modadd(a, b, n)
            assert r.result == (a + b) % n
            assert (r.cycles, r.detail["wall_cycles"]) == seq_cycles(Op.MODADD, bits)
            r = pka.modsub(a, b, n)
            assert r.result == (a - b) % n
            assert (r.cycles, r.detail["wall_cycles"]) == seq_cycles(Op.MODSUB, bits)


def test_modadd_even_modulus_and_leading_zeros(pka: Pka) -> None:
    """MODADD/MODSUB need no odd modulus; the length may exceed N's bit length."""
    assert pka.modadd(7, 8, 10).result == 5
    assert pka.modsub(3, 8, 10).result == 5
    assert pka.modadd(5, 6, 7, length=200).result == 4


@pytest.mark.parametrize("bits", [2, 3, 31, 32, 33, 64, 127, 200, 256])
def test_mont_params(pka: Pka, bits: int) -> None:
    rng = random.Random(bits)
    for i in range(max(2, VECTORS // 5)):
        n = _modulus(rng, bits) if i else (1 << bits) - 1 if bits > 1 else 3
        w = words_for(bits)
        for r in (0, 32 * w, bits, min(bits + 17, 256 + 256), 3 * bits // 2, (bits + 1) // 2):
            res = pka.mont_params(n, bits, r)
            rr = r or 32 * w
            assert res.result == r2_mod(n, rr)
            assert res.detail["mu"] == neg_inv_pow2(n, 64)
            fix = _mont_fix(n, rr)
            assert (res.cycles, res.detail["wall_cycles"]) == seq_cycles(Op.MONT_PARAMS, bits, n=n, r=rr, fix=fix)


def _mont_fix(n: int, r: int) -> bool:
    """Whether the non-restoring doubling ends negative (the final +N pass runs)."""
    b = n.bit_length()
    x = 1 << (b - 1)
    for _ in range(2 * r - b + 1):
        x = 2 * x - n if x >= 0 else 2 * x + n
    return x < 0


def test_mont_params_length_bigger_than_modulus(pka: Pka) -> None:
    n = 0xF123_4567_89AB_CDEF
    res = pka.mont_params(n, 200)
    assert res.result == r2_mod(n, 224)


def test_nop_and_zeroize_cycles(pka: Pka) -> None:
    c = pka.run(Op.NOP, 0)
    assert (c.compute, c.cycles) == seq_cycles(Op.NOP, 0)
    c = pka.zeroize()
    # the example engine's wipe: its command cycle and one cycle to done
    assert (c.compute, c.cycles) == seq_cycles(OP_ZEROIZE, 0, mem_words=PHYS_SLOTS * pka.cfg.slot_words,
                                               wipe_cycles=2)


def test_example_engine_through_the_top(pka: Pka) -> None:
    """CMD.ENGINE = 7 sends MODADD to the example engine over the common boundary."""
    rng = random.Random(5)
    for bits in (32, 100, 256):
        n = _modulus(rng, bits)
        a, b = rng.randrange(n), rng.randrange(n)
        r = pka.modadd(a, b, n, engine=7)
        assert r.result == (a + b) % n
        w = words_for(bits)
        assert (r.cycles, r.io_cycles) == (2, 3 * w + 1 + w + 2)   # the example engine's counts
    with pytest.raises(PkaError) as e:
        pka.modadd(1, 1, 10, engine=7)
    assert e.value.status == Status.ERR_EVEN_MODULUS   # the engine's own status comes through


# ---- status codes ------------------------------------------------------------------------------------

def _code(p: Pka, op: int, length: int, elen: int = 0, engine: int = 0) -> int:
    return p.command(op, length, elen, engine=engine).status


def test_error_codes(pka: Pka, sim: TopSim) -> None:
    nw = 8
    pka.write_slot(Slot.N, 10, nw)
    assert _code(pka, Op.MONT_PARAMS, 8) == Status.ERR_EVEN_MODULUS
    assert _code(pka, Op.MONT_PARAMS, 0) == Status.ERR_LENGTH
    assert _code(pka, Op.MODADD, 257) == Status.ERR_LENGTH
    assert _code(pka, Op.MODADD, 0xFFFF) == Status.ERR_LENGTH
    pka.write_slot(Slot.N, 0xFFF1, nw)
    assert _code(pka, Op.MONT_PARAMS, 16, elen=7) == Status.ERR_LENGTH       # 2^(2r) < N: no doubling
    assert _code(pka, Op.MONT_PARAMS, 16, elen=256 + 257) == Status.ERR_LENGTH
    assert _code(pka, Op.MONT_PARAMS, 8) == Status.ERR_OPERAND_RANGE           # N wider than len
    pka.write_slot(Slot.N, 1, nw)
    assert _code(pka, Op.MONT_PARAMS, 8) == Status.ERR_OPERAND_RANGE           # N = 1
    pka.write_slot(Slot.N, 11, nw)
    pka.write_slot(Slot.A, 11, nw)
    pka.write_slot(Slot.B, 3, nw)
    assert _code(pka, Op.MODADD, 8) == Status.ERR_OPERAND_RANGE
    assert _code(pka, Op.MODSUB, 8) == Status.ERR_OPERAND_RANGE
    assert _code(pka, 0x10, 8) == Status.ERR_OPCODE
    assert _code(pka, 0x20, 8) == Status.ERR_OPCODE
    assert _code(pka, 0xFF, 8) == Status.ERR_OPCODE
    for op in (Op.MODEXP, Op.MODMUL, Op.RSA_CRT, Op.ECC_MUL, Op.ECC_CHECK, Op.MODINV, Op.MUL, Op.MODRED,
               Op.ECDSA_SIGN):
        if not pka.cfg.serves(op):
            assert _code(pka, op, 8) == Status.ERR_UNSUPPORTED
    assert _code(pka, Op.MODADD, 8, engine=5) == Status.ERR_UNSUPPORTED       # engine not in the build
    assert _code(pka, Op.MODADD, 8, engine=15) == Status.ERR_UNSUPPORTED
    assert _code(pka, Op.MONT_PARAMS, 8, engine=7) == Status.ERR_UNSUPPORTED  # engine lacks the op
    # the block returns to idle and works after every error
    pka.write_slot(Slot.A, 5, nw)
    assert pka.modadd(5, 9, 11).result == 3
    assert pka.status() >> 24 == Op.MODADD      # STATUS.LAST_OP


def test_command_while_busy(pka: Pka, sim: TopSim) -> None:
    """A command (and a slot access) while busy is dropped with ERR_BUSY; the running one finishes."""
    n = _modulus(random.Random(9), 256)
    pka.write_slot(Slot.N, n, 8)
    pka.write_slot(Slot.R, 0x1234, 8)
    sim.write32(Reg.INTR_ENABLE, INTR_DONE | INTR_REJECT)
    pka.start(Op.MONT_PARAMS, 256)
    assert pka.status() & 1                               # busy
    pka.start(Op.MODADD, 256)                              # rejected
    st = pka.status()
    assert st & 1 and (st >> 16 & 0xFF) == Status.ERR_BUSY
    assert sim.read32(Reg.INTR_STATE) & INTR_REJECT
    assert sim.read32(slot_addr(Slot.N)) == 0              # RAM hidden while busy
    sim.write32(slot_addr(Slot.R), 0xDEAD)                 # dropped
    sim.write32(Reg.INTR_STATE, INTR_REJECT)
    sim.write32(Reg.INTR_ENABLE, INTR_DONE)
    assert (pka.status() >> 16 & 0xFF) == 0
    res = pka.finish()
    assert res.status == Status.OK and pka.status() >> 24 == Op.MONT_PARAMS
    assert pka.read_slot(Slot.W, 8) == r2_mod(n, 256)
    assert pka.read_slot(Slot.R, 8) == 0x1234
    assert sim.read32(slot_addr(Slot.N)) == n & 0xFFFFFFFF


def test_back_to_back(pka: Pka, sim: TopSim) -> None:
    """Commands issued one after another, each right at the previous one's interrupt."""
    rng = random.Random(3)
    for i in range(3 * VECTORS):
        bits = rng.randrange(2, 257)
        n = _modulus(rng, bits)
        a, b = rng.randrange(n), rng.randrange(n)
        op = (Op.MODADD, Op.MODSUB, Op.MONT_PARAMS)[i % 3]
        if op == Op.MONT_PARAMS:
            assert pka.mont_params(n, bits).result == r2_mod(n, 32 * words_for(bits))
        elif op == Op.MODADD:
            assert pka.modadd(a, b, n, bits).result == (a + b) % n
        else:
            assert pka.modsub(a, b, n, bits).result == (a - b) % n


def test_with_bus_backpressure(pka: Pka, sim: TopSim) -> None:
    sim.delay(400, seed=11)
    try:
        rng = random.Random(4)
        for _ in range(VECTORS):
            n = _modulus(rng, 200)
            a, b = rng.randrange(n), rng.randrange(n)
            assert pka.modadd(a, b, n).result == (a + b) % n
    finally:
        sim.delay(0)


# ---- interrupts --------------------------------------------------------------------------------------

def test_interrupt_enable_clear_and_test(pka: Pka, sim: TopSim) -> None:
    sim.write32(Reg.INTR_ENABLE, 0)
    pka.start(Op.NOP, 0)
    sim.idle(10)
    assert sim.read32(Reg.INTR_STATE) == INTR_DONE          # state set, but no irq:
    with pytest.raises(Exception):
        sim.wait_irq(50)
    sim.write32(Reg.INTR_ENABLE, INTR_DONE)                 # enabling raises irq at once
    assert sim.wait_irq(10) == 0
    sim.write32(Reg.INTR_STATE, INTR_DONE)                  # write 1 to clear
    assert sim.read32(Reg.INTR_STATE) == 0
    sim.write32(Reg.INTR_TEST, INTR_REJECT)                 # test register sets the state
    assert sim.read32(Reg.INTR_STATE) == INTR_REJECT
    assert (pka.status() >> 16 & 0xFF) == Status.ERR_BUSY
    sim.write32(Reg.INTR_ENABLE, INTR_REJECT)
    assert sim.wait_irq(10) == 0
    sim.write32(Reg.INTR_STATE, INTR_REJECT)
    sim.write32(Reg.INTR_ENABLE, INTR_DONE)
    assert sim.read32(Reg.INTR_STATE) == 0


# ---- security basics ----------------------------------------------------------------------------------

def test_secret_slots_are_write_only_and_zeroize_clears(pka: Pka, sim: TopSim) -> None:
    words = pka.cfg.slot_words
    for s in Slot:
        pka.write_slot(s, (1 << (32 * words)) - 1 - s, words)
    for s in Slot:
        got = pka.read_slot(s, words)
        assert got == (0 if s in {Slot.E, Slot.P, Slot.Q, Slot.DP, Slot.DQ, Slot.QINV} else (1 << (32 * words)) - 1 - s)
    # above the build's slot size the windows are not backed
    assert sim.read32(slot_addr(Slot.N, words)) == 0
    pka.zeroize()
    for s in Slot:
        assert pka.read_slot(s, words) == 0
    # (that the write-only slots were cleared too is checked inside the RAM by the cocotb test)


def test_reset_clears_the_ram(pka: Pka, sim: TopSim) -> None:
    words = pka.cfg.slot_words
    for s in (Slot.N, Slot.A, Slot.R, Slot.W):
        pka.write_slot(s, 0x5555_0000 + s, words)
    pka.mont_params(0xFFFF_FFFB, 32)
    sim.reset()
    assert sim.read32(Reg.STATUS) & 1                       # busy: clearing the RAM
    p = Pka(sim)                                            # waits for the clear
    for s in Slot:
        assert p.read_slot(s, words) == 0
    assert sim.read32(Reg.MU_LO) == 0 and sim.read32(Reg.MU_HI) == 0
    assert p.status() & 0xFF00 == 0


# ---- random bus traffic -------------------------------------------------------------------------------

def test_random_bus_traffic_then_correct_results(sim: TopSim) -> None:
    n_tx = int(os.environ.get("PKA_FUZZ", "30000"))
    for seed in (1, 2):
        sim.delay(200 * seed, seed=seed)
        res = sim.fuzz(n_tx // 2, seed=seed, watchdog=2000)
        assert res.reads + res.writes >= n_tx // 2 and res.commands > 0
        assert res.max_latency < 2000
    sim.delay(0)
    p = Pka(sim)                                            # whatever the fuzz started has ended
    sim.write32(Reg.INTR_STATE, INTR_DONE | INTR_REJECT | INTR_TAINT)
    rng = random.Random(8)
    for _ in range(VECTORS // 2 + 1):
        n = _modulus(rng, 256)
        a, b = rng.randrange(n), rng.randrange(n)
        assert p.modadd(a, b, n).result == (a + b) % n
        assert p.mont_params(n).result == r2_mod(n, 256)
