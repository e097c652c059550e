"""cocotb tests of pka_top through its AXI4-Lite port (cocotbext-axi master): registers, the slot
windows, write-only secret slots and their zeroization (checked inside the RAM), a command with the
interrupt, and concurrent random bus traffic followed by correct results."""

from __future__ import annotations

import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, with_timeout
from cocotbext.axi import AxiLiteBus, AxiLiteMaster

from pka.regs import ID_MAGIC, SECRET_SLOTS, SLOT_BASE, SLOT_STRIDE, Op, Reg, Slot  # generated from data/pka.rdl

ID, HWCFG, CMD, LEN, STATUS, INTR_STATE, INTR_ENABLE, CYCLES = (
    Reg.ID, Reg.HWCFG, Reg.CMD, Reg.LEN, Reg.STATUS, Reg.INTR_STATE, Reg.INTR_ENABLE, Reg.CYCLES)
SLOT_N, SLOT_A, SLOT_B, SLOT_E, SLOT_R, SLOT_P, SLOT_QINV = (
    Slot.N, Slot.A, Slot.B, Slot.E, Slot.R, Slot.P, Slot.QINV)
SECRET = {int(s) for s in SECRET_SLOTS}
OP_MODADD, OP_ZEROIZE = Op.MODADD, Op.ZEROIZE
MAX_LEN = 256
SLOT_WORDS = MAX_LEN // 32


def slot(s: int, w: int = 0) -> int:
    return SLOT_BASE + s * SLOT_STRIDE + 4 * w


class Top:
    def __init__(self, dut) -> None:
        self.dut = dut
        self.axi = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk_i, dut.rst_ni, reset_active_level=False)

    async def start(self) -> None:
        # the entropy port idles (these tests run no blinded operation)
        self.dut.edn_ack_i.value = 0
        self.dut.edn_data_i.value = 0
        cocotb.start_soon(Clock(self.dut.clk_i, 10, unit="ns").start())
        await self.reset()

    async def reset(self) -> None:
        self.dut.rst_ni.value = 0
        await ClockCycles(self.dut.clk_i, 3)
        self.dut.rst_ni.value = 1
        await RisingEdge(self.dut.clk_i)

    async def rd(self, addr: int) -> int:
        return int.from_bytes((await self.axi.read(addr, 4)).data, "little")

    async def wr(self, addr: int, value: int) -> None:
        await self.axi.write(addr, (value & 0xFFFFFFFF).to_bytes(4, "little"))

    async def wait_idle(self) -> None:
        for _ in range(10000):
            if not await self.rd(STATUS) & 1:
                return
        raise AssertionError("stays busy")

    async def write_int(self, s: int, value: int, n: int = SLOT_WORDS) -> None:
        for i in range(n):
            await self.wr(slot(s, i), value >> (32 * i))

    async def read_int(self, s: int, n: int = SLOT_WORDS) -> int:
        value = 0
        for i in range(n):
            value |= await self.rd(slot(s, i)) << (32 * i)
        return value

    def ram_word(self, s: int, w: int) -> int:
        return int(self.dut.u_ram.mem_q[s * SLOT_WORDS + w].value)

    async def command(self, op: int, length: int) -> int:
        await self.wr(INTR_ENABLE, 1)
        await self.wr(LEN, length)
        await self.wr(CMD, op)
        if not int(self.dut.irq_o.value):
            await with_timeout(RisingEdge(self.dut.irq_o), 100, "us")
        st = await self.rd(STATUS)
        await self.wr(INTR_STATE, 1)
        return st >> 8 & 0xFF


@cocotb.test()
async def registers_slots_and_secrets(dut) -> None:
    t = Top(dut)
    await t.start()
    assert await t.rd(STATUS) & 1            # clearing the RAM after reset
    await t.wait_idle()
    assert await t.rd(ID) == ID_MAGIC
    assert await t.rd(HWCFG) & 0xFFFF == MAX_LEN
    rng = random.Random(1)
    # the moduli first: secret exponents are bound to the moduli present when they are written
    order = [int(Slot.N), int(Slot.P), int(Slot.Q)] + [s for s in range(len(Slot)) if s not in (Slot.N, Slot.P, Slot.Q)]
    vals = {s: rng.getrandbits(32 * SLOT_WORDS) for s in order}
    for s, v in vals.items():
        await t.write_int(s, v)
    assert await t.rd(STATUS) >> 2 & 1      # STATUS.BOUND
    for s, v in vals.items():
        assert await t.read_int(s) == (0 if s in SECRET else v), s
        # the secret is in the RAM all the same
        assert t.ram_word(s, 0) == v & 0xFFFFFFFF
    # key binding: a modulus write now zeroizes every secret slot first, then lands
    await t.wr(slot(SLOT_N), 0x1234567)
    for s in SECRET:
        assert all(t.ram_word(s, w) == 0 for w in range(SLOT_WORDS)), s
    assert t.ram_word(SLOT_N, 0) == 0x1234567
    assert not await t.rd(STATUS) >> 2 & 1
    for s in vals:
        if s not in SECRET and s != SLOT_N:
            assert t.ram_word(s, 0) == vals[s] & 0xFFFFFFFF, s
    # an unmapped address answers SLVERR, a backed-out slot word reads 0
    resp = await t.axi.read(0x3C, 4)   # between IO (0x038) and MU_LO (0x040)
    assert int(resp.resp) == 2
    assert await t.rd(slot(SLOT_N, SLOT_WORDS)) == 0
    assert await t.command(OP_ZEROIZE, 0) == 0
    for s in range(32):
        for w in range(SLOT_WORDS):
            assert t.ram_word(s, w) == 0, (s, w)
    # reset clears the RAM as well
    await t.write_int(SLOT_P, (1 << (32 * SLOT_WORDS)) - 1)
    await t.reset()
    await t.wait_idle()
    assert all(t.ram_word(s, w) == 0 for s in range(32) for w in range(SLOT_WORDS))


@cocotb.test()
async def random_traffic_then_results(dut) -> None:
    t = Top(dut)
    await t.start()
    await t.wait_idle()
    rng = random.Random(2)
    n_tx = int(os.environ.get("PKA_COCOTB_TX", "600"))

    async def traffic(seed: int) -> None:
        r = random.Random(seed)
        for _ in range(n_tx // 2):
            addr = r.choice([r.randrange(0, 0x50, 4), slot(r.randrange(16), r.randrange(SLOT_WORDS + 2)),
                             r.randrange(0, 0x20000, 4)])
            if addr == CMD and r.random() < 0.5:
                addr = LEN
            if r.random() < 0.5:
                await t.axi.write(addr, r.getrandbits(32).to_bytes(4, "little"))
            else:
                await t.axi.read(addr, 4)

    # two concurrent masters' worth of transactions through the one port
    await with_timeout(cocotb.start_soon(traffic(3)).join(), 2, "ms")
    await with_timeout(cocotb.start_soon(traffic(4)).join(), 2, "ms")
    await t.wait_idle()
    await t.wr(INTR_STATE, 3)
    for _ in range(4):
        n = rng.getrandbits(200) | 1 | 1 << 199
        a, b = rng.randrange(n), rng.randrange(n)
        await t.write_int(SLOT_N, n)
        await t.write_int(SLOT_A, a)
        await t.write_int(SLOT_B, b)
        assert await t.command(OP_MODADD, 200) == 0
        assert await t.read_int(SLOT_R, 7) == (a + b) % n     # the result is ceil(200/32) words


@pytest.mark.rtl
def test_pka_top() -> None:
    from pka.rtl.top import TopConfig
    from pka.sim import run_cocotb
    cfg = TopConfig(MAX_LEN, ("example",))
    run_cocotb("pka_top", cfg.sources(), "test_pka_top", Path(__file__).parent, params=cfg.verilog_params())
