"""cocotb test of the narrow-I/O shell around the example engine (run from tests/test_synth.py).

Drives only the seven pins, as a host on a board would: serial WRITE frames fill the operand RAM,
a COMMAND frame starts MODADD, STATUS frames poll for done, READ frames fetch the result. Checks
the results, the status codes and the engine's cycle count through the shell, so the design that
goes through place and route is known to work.
"""

from __future__ import annotations

import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

FRAME_W = 74
KIND_STATUS, KIND_WRITE, KIND_READ, KIND_CMD = 0, 1, 2, 3
OP_MODADD, OP_MODEXP = 8, 3
SLOT_N, SLOT_A, SLOT_B, SLOT_R = 0, 1, 3, 5


class SerialHost:
    def __init__(self, dut, mem_aw: int) -> None:
        self.dut = dut
        self.mem_aw = mem_aw

    async def start(self) -> None:
        d = self.dut
        cocotb.start_soon(Clock(d.clk_i, 10, unit="ns").start())
        d.rst_ni.value = 0
        d.ser_shift_i.value = 0
        d.ser_di_i.value = 0
        d.ser_load_i.value = 0
        for _ in range(3):
            await RisingEdge(d.clk_i)
        d.rst_ni.value = 1
        for _ in range(4):
            await RisingEdge(d.clk_i)

    async def exchange(self, frame: int) -> int:
        """Shift `frame` in and the pending reply out (bit 0 first), then execute the frame.
        Pins change and are sampled at falling edges (mid-cycle), as a synchronous host would."""
        d = self.dut
        reply = 0
        await FallingEdge(d.clk_i)
        d.ser_shift_i.value = 1
        d.ser_di_i.value = frame & 1
        for i in range(FRAME_W):
            await FallingEdge(d.clk_i)
            reply |= int(d.ser_do_o.value) << i
            if i + 1 < FRAME_W:
                d.ser_di_i.value = (frame >> (i + 1)) & 1
        d.ser_shift_i.value = 0
        d.ser_load_i.value = 1
        await FallingEdge(d.clk_i)
        d.ser_load_i.value = 0
        for _ in range(8):  # the reply of this frame is ready after a few cycles
            await FallingEdge(d.clk_i)
        return reply

    def slot_addr(self, slot: int) -> int:
        return slot << (self.mem_aw - 4)

    async def write_int(self, addr: int, value: int, words: int) -> None:
        for i in range(words):
            await self.exchange(KIND_WRITE | ((addr + i) << 2) | (((value >> (32 * i)) & 0xFFFF_FFFF) << 18))

    async def read_int(self, addr: int, words: int) -> int:
        value = 0
        await self.exchange(KIND_READ | (addr << 2))
        for i in range(1, words + 1):
            nxt = KIND_READ | ((addr + i) << 2) if i < words else KIND_STATUS
            value |= (await self.exchange(nxt) & 0xFFFF_FFFF) << (32 * (i - 1))
        return value

    async def command(self, op: int, length: int, elen: int = 0, arg: int = 0) -> tuple[int, int, int]:
        await self.exchange(KIND_CMD | (op << 2) | (length << 10) | (elen << 26) | (arg << 42))
        for _ in range(200):
            st = await self.exchange(KIND_STATUS)   # reply of the previous STATUS frame
            st = await self.exchange(KIND_STATUS)
            busy, done = st & 1, (st >> 1) & 1
            if done and not busy:
                return (st >> 2) & 0xFF, (st >> 10) & 0xFFFF_FFFF, (st >> 42) & 0xFFFF_FFFF
        raise AssertionError("no done through the shell")


@cocotb.test()
async def modadd_through_the_pins(dut):
    mem_aw = int(os.environ.get("PKA_MEM_AW", "5"))
    bits = int(os.environ.get("PKA_BITS", "64"))
    words = (bits + 31) // 32
    host = SerialHost(dut, mem_aw)
    await host.start()
    rng = random.Random(3)
    for _ in range(int(os.environ.get("PKA_VECTORS", "4"))):
        n = rng.getrandbits(bits) | 1 | (1 << (bits - 1))
        a, b = rng.randrange(n), rng.randrange(n)
        await host.write_int(host.slot_addr(SLOT_N), n, words)
        await host.write_int(host.slot_addr(SLOT_A), a, words)
        await host.write_int(host.slot_addr(SLOT_B), b, words)
        st, cycles, io_cycles = await host.command(OP_MODADD, bits)
        assert st == 0, st
        assert cycles == 2, cycles          # the example engine's compute cycles, unchanged by the shell
        assert io_cycles > 4 * words, io_cycles
        assert await host.read_int(host.slot_addr(SLOT_R), words) == (a + b) % n
    # the host path through every bank: a pattern in the last words of the last slot, read back
    top = (1 << mem_aw) - 4
    pattern = rng.getrandbits(128)
    await host.write_int(top, pattern, 4)
    assert await host.read_int(top, 4) == pattern
    assert await host.read_int(host.slot_addr(SLOT_R), words) == (a + b) % n   # other bank unchanged
    st, _, _ = await host.command(OP_MODEXP, bits)
    assert st == 4                           # ST_ERR_OPCODE passes through the status frame
    await host.write_int(host.slot_addr(SLOT_N), 10, 1)
    st, _, _ = await host.command(OP_MODADD, 32)
    assert st == 1                           # even modulus
