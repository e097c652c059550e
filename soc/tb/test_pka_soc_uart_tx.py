"""cocotb test of the board console's UART transmitter (soc/rtl/pka_soc_uart_tx.sv) at the board's
rate: 25 MHz, 115,200 baud, 8N1, so Div = 217 clock cycles per bit.

The line and ready_o are recorded every cycle; each character sent must appear as a frame that
starts the cycle after the handshake: a start bit 0, the eight data bits LSB first and a stop bit 1,
each held for exactly Div cycles, ready_o low for the whole frame and high again right after it;
the line is high everywhere else. Characters go back to back (valid as soon as ready) and with
random gaps. Run from tests/test_soc_board.py (pka.sim.run_cocotb) with ClkHz and Baud as
parameters.
"""

from __future__ import annotations

import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge
from cocotb.utils import get_sim_time

PERIOD_NS = 40
CLK_HZ = int(os.environ.get("PKA_UART_CLK_HZ", "25000000"))
BAUD = int(os.environ.get("PKA_UART_BAUD", "115200"))
DIV = (CLK_HZ + BAUD // 2) // BAUD


class Line:
    """Samples tx_o and ready_o at every falling edge (the values of the cycle)."""

    def __init__(self, dut) -> None:
        self.dut = dut
        self.t0 = 0
        self.tx: list[int] = []
        self.ready: list[int] = []

    async def record(self) -> None:
        await FallingEdge(self.dut.clk_i)
        self.t0 = get_sim_time("ns")
        while True:
            self.tx.append(int(self.dut.tx_o.value))
            self.ready.append(int(self.dut.ready_o.value))
            await FallingEdge(self.dut.clk_i)

    def index(self) -> int:
        """The sample index of the current cycle (by simulated time, whichever coroutine runs first)."""
        return int(round(get_sim_time("ns") - self.t0)) // PERIOD_NS


async def send(dut, line: Line, data: int) -> int:
    """Offer one character at the first cycle ready_o is high; returns that cycle's index."""
    while True:
        await FallingEdge(dut.clk_i)
        if int(dut.ready_o.value):
            break
    dut.valid_i.value = 1
    dut.data_i.value = data
    start = line.index()
    await FallingEdge(dut.clk_i)
    dut.valid_i.value = 0
    return start


def check_frames(line: Line, sent: list[tuple[int, int]]) -> None:
    inside = [False] * len(line.tx)
    for data, c in sent:
        s = c + 1               # the frame starts the cycle after the handshake
        bits = [0] + [(data >> i) & 1 for i in range(8)] + [1]
        for k, bit in enumerate(bits):
            window = line.tx[s + k * DIV: s + (k + 1) * DIV]
            assert len(window) == DIV, f"{data:#04x}: the recording ends inside bit {k}"
            assert all(v == bit for v in window), \
                f"{data:#04x}: bit {k} should be {bit} for {DIV} cycles from cycle {s + k * DIV}: {window}"
        frame = range(s, s + 10 * DIV)
        assert all(line.ready[i] == 0 for i in frame), f"{data:#04x}: ready_o high during the frame"
        assert line.ready[s + 10 * DIV] == 1, f"{data:#04x}: ready_o not back after the stop bit"
        for i in frame:
            inside[i] = True
    idle = [i for i, v in enumerate(line.tx) if not inside[i] and v != 1]
    assert not idle, f"the line is low outside every frame at cycles {idle[:8]}"


@cocotb.test()
async def test_uart_frames(dut) -> None:
    """Known patterns and random bytes, back to back and with gaps, bit by bit at Div cycles per bit."""
    assert DIV == 217 or (CLK_HZ, BAUD) != (25_000_000, 115_200)
    cocotb.start_soon(Clock(dut.clk_i, PERIOD_NS, unit="ns").start())
    dut.valid_i.value = 0
    dut.data_i.value = 0
    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, 3)
    dut.rst_ni.value = 1
    line = Line(dut)
    cocotb.start_soon(line.record())
    await ClockCycles(dut.clk_i, 5)
    rng = random.Random()       # seeded by COCOTB_RANDOM_SEED through PKA_SEED
    payload = [0x55, 0x00, 0xFF, 0x80, 0x01, 0xA5] + [rng.randrange(256) for _ in range(6)]
    sent = []
    for i, data in enumerate(payload):
        if i % 3 == 2:
            await ClockCycles(dut.clk_i, rng.randrange(1, 3 * DIV))   # a gap between characters
        sent.append((data, await send(dut, line, data)))
    await ClockCycles(dut.clk_i, 11 * DIV)
    check_frames(line, sent)
    dut._log.info("%d characters, %d cycles per bit, %d cycles recorded", len(sent), DIV, len(line.tx))
