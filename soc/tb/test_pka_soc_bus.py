"""cocotb tests of the SoC's bus (soc/tb/pka_soc_bus_tb.sv): pka_soc_axil_demux in front of two
pka_soc_ram and the pka_soc_sysctl block, driven by a cocotbext-axi AXI4-Lite master with random
valid/ready pauses on all five channels and a console that is randomly not ready.

Checked against a Python model: RAM contents under byte strobes, DECERR for unmapped addresses
(reads return 0), SLVERR for holes in sysctl, the BUSERR counter of error responses, the console's
characters in order, EXIT, and reads and writes in flight at the same time. Run from
tests/test_soc.py (pka.sim.run_cocotb).
"""

from __future__ import annotations

import os
import random
from typing import Iterator

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiResp

RAM0, SYSCTL, RAM2 = 0x0000_0000, 0x1000_0000, 0x2000_0000
RAM_WORDS = 256
CONSOLE, EXIT, BUSERR, ID = SYSCTL + 0x0, SYSCTL + 0x4, SYSCTL + 0x8, SYSCTL + 0xC
SOC_ID = 0x534F4301
UNMAPPED = [0x3000_0000, RAM0 + 4 * RAM_WORDS, RAM2 + 4 * RAM_WORDS + 0x100, SYSCTL + 0x1000, 0xFFFF_FFFC]
PERMILLE = int(os.environ.get("PKA_SOC_PAUSE", "300"))


def _pauses(rng: random.Random, permille: int) -> Iterator[bool]:
    while True:
        yield rng.randrange(1000) < permille


class Bus:
    def __init__(self, dut, seed: int, permille: int) -> None:
        self.dut = dut
        self.axi = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk_i, dut.rst_ni,
                                 reset_active_level=False)
        rng = random.Random(seed)
        if permille:
            for ch in (self.axi.write_if.aw_channel, self.axi.write_if.w_channel, self.axi.write_if.b_channel,
                       self.axi.read_if.ar_channel, self.axi.read_if.r_channel):
                ch.set_pause_generator(_pauses(random.Random(rng.random()), permille))
        self.rng = rng
        self.permille = permille
        self.console: list[int] = []
        self.exits: list[int] = []
        self.errors = 0   # error responses so far (the model of BUSERR)

    async def start(self) -> None:
        cocotb.start_soon(Clock(self.dut.clk_i, 10, unit="ns").start())
        self.dut.console_ready_i.value = 1
        self.dut.rst_ni.value = 0
        await ClockCycles(self.dut.clk_i, 3)
        self.dut.rst_ni.value = 1
        await RisingEdge(self.dut.clk_i)
        cocotb.start_soon(self._monitor())
        if self.permille:
            cocotb.start_soon(self._console_stalls())

    async def _monitor(self) -> None:
        while True:
            await RisingEdge(self.dut.clk_i)
            if int(self.dut.console_valid_o.value):
                self.console.append(int(self.dut.console_data_o.value))
            if int(self.dut.exit_valid_o.value):
                self.exits.append(int(self.dut.exit_code_o.value))

    async def _console_stalls(self) -> None:
        rng = random.Random(self.rng.random())
        while True:
            self.dut.console_ready_i.value = int(rng.randrange(1000) >= self.permille)
            await RisingEdge(self.dut.clk_i)

    async def wr(self, addr: int, data: bytes, expect: AxiResp = AxiResp.OKAY) -> None:
        resp = (await self.axi.write(addr, data)).resp
        assert resp == expect, f"write {addr:#x}: {resp!r}, expected {expect!r}"
        if expect != AxiResp.OKAY:
            self.errors += 1

    async def rd(self, addr: int, expect: AxiResp = AxiResp.OKAY) -> int:
        r = await self.axi.read(addr, 4)
        assert r.resp == expect, f"read {addr:#x}: {r.resp!r}, expected {expect!r}"
        if expect != AxiResp.OKAY:
            self.errors += 1
            assert r.data == bytes(4), f"read {addr:#x} answered {r.data.hex()} with an error"
        return int.from_bytes(r.data, "little")


async def _random_traffic(dut, seed: int, permille: int, count: int) -> None:
    bus = Bus(dut, seed, permille)
    await bus.start()
    rng = bus.rng
    rams = {RAM0: bytearray(4 * RAM_WORDS), RAM2: bytearray(4 * RAM_WORDS)}
    known = {RAM0: [False] * (4 * RAM_WORDS), RAM2: [False] * (4 * RAM_WORDS)}
    sent: list[int] = []
    assert await bus.rd(ID) == SOC_ID
    for _ in range(count):
        kind = rng.randrange(100)
        base = rng.choice((RAM0, RAM2))
        if kind < 35:        # RAM write: a word, a half word or a byte (byte strobes)
            size = rng.choice((4, 4, 2, 1))
            off = rng.randrange(0, 4 * RAM_WORDS, size)
            data = rng.randbytes(size)
            await bus.wr(base + off, data)
            rams[base][off:off + size] = data
            for i in range(off, off + size):
                known[base][i] = True
        elif kind < 65:      # RAM read
            off = 4 * rng.randrange(RAM_WORDS)
            value = (await bus.rd(base + off)).to_bytes(4, "little")
            for i in range(4):
                if known[base][off + i]:
                    assert value[i] == rams[base][off + i], f"RAM {base:#x}+{off + i:#x}"
        elif kind < 75:      # unmapped: DECERR
            addr = rng.choice(UNMAPPED)
            if rng.randrange(2):
                await bus.wr(addr, rng.randbytes(4), AxiResp.DECERR)
            else:
                await bus.rd(addr, AxiResp.DECERR)
        elif kind < 85:      # console character (a byte store)
            c = rng.randrange(32, 127)
            await bus.wr(CONSOLE, bytes([c]))
            sent.append(c)
        elif kind < 90:      # sysctl hole or a partial write to a word register: SLVERR
            if rng.randrange(2):
                await bus.wr(SYSCTL + 0x10 + 4 * rng.randrange(16), rng.randbytes(4), AxiResp.SLVERR)
            else:
                await bus.wr(EXIT + 1, rng.randbytes(1), AxiResp.SLVERR)
        else:                # the error counter as the model counts it
            assert await bus.rd(BUSERR) == bus.errors
    assert await bus.rd(BUSERR) == bus.errors
    await bus.wr(BUSERR, bytes(4))
    bus.errors = 0
    assert await bus.rd(BUSERR) == 0
    await bus.wr(EXIT, (0x1234).to_bytes(4, "little"))
    await ClockCycles(dut.clk_i, 2)
    assert bus.exits == [0x1234]
    assert await bus.rd(EXIT) == 0x1234
    assert bus.console == sent


@cocotb.test()
async def random_traffic(dut) -> None:
    """Random single transactions with random pauses on every channel and a stalling console."""
    await _random_traffic(dut, seed=1, permille=PERMILLE, count=600)


@cocotb.test()
async def random_traffic_no_pauses(dut) -> None:
    """The same at full speed (back-to-back transactions)."""
    await _random_traffic(dut, seed=2, permille=0, count=300)


@cocotb.test()
async def reads_and_writes_in_flight(dut) -> None:
    """A writer and a reader at once (the master issues both; each channel pair is locked to its slave
    until its response), errors among them, then every word written is read back."""
    bus = Bus(dut, seed=3, permille=PERMILLE)
    await bus.start()
    rng = bus.rng
    ram0 = [rng.getrandbits(32) for _ in range(64)]
    for i, w in enumerate(ram0):
        await bus.wr(RAM0 + 4 * i, w.to_bytes(4, "little"))
    ram2 = [rng.getrandbits(32) for _ in range(64)]

    async def writer() -> None:
        for i, w in enumerate(ram2):
            await bus.wr(RAM2 + 4 * i, w.to_bytes(4, "little"))
            if i % 16 == 5:
                await bus.wr(UNMAPPED[0], bytes(4), AxiResp.DECERR)

    async def reader() -> None:
        for k in range(200):
            i = k % 64
            assert await bus.rd(RAM0 + 4 * i) == ram0[i]
            if k % 50 == 7:
                await bus.rd(UNMAPPED[1], AxiResp.DECERR)

    w = cocotb.start_soon(writer())
    r = cocotb.start_soon(reader())
    await w
    await r
    for i, v in enumerate(ram2):
        assert await bus.rd(RAM2 + 4 * i) == v
    assert await bus.rd(BUSERR) == bus.errors == 4 + 4
