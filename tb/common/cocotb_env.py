"""cocotb side of the common engine boundary: a word memory with random stalls and a command driver.

Use from a cocotb test module:

    env = EngineEnv(dut, mem_aw=8, stall_permille=300, seed=1)
    await env.start()                       # clock + reset + memory server
    env.write_int(env.slot_addr(SLOT_N), n, words)
    done = await env.command(op, length, elen)   # -> (status, cycles, io_cycles, wall)

The memory answers the req/gnt port exactly like tb/common/harness.cpp (read data one cycle after
the grant), so a design that passes one passes the other. Python runs on every clock edge here, so
keep operations small (the C++ harness in pka.sim is for long runs).

Independent cycle count, as pka.sim.Harness.command: `wall` is counted here, the clock edges from
the one that accepts the command to the one after which done is high (the harness's definition),
and every command asserts wall = cycles_o + io_cycles_o + the engine's overhead (pka.rtl.<e>.overhead).
The engine is the core pka.sim.run_cocotb(engine=True) wraps (PKA_ENGINE_TOP, PKA_ENGINE_PARAMS in
the environment it gives the test), or an explicit `overhead`.
"""

from __future__ import annotations

import json
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge, Timer

WORD_MASK = 0xFFFF_FFFF


class EngineEnv:
    def __init__(self, dut, mem_aw: int, stall_permille: int = 0, seed: int = 1, overhead=None) -> None:
        self.dut = dut
        self.mem_aw = mem_aw
        self.mem = [0] * (1 << mem_aw)
        self.stall = stall_permille
        self.rng = random.Random(seed)
        self.cycle = 0
        self.top = os.environ.get("PKA_ENGINE_TOP", "")
        self.params = json.loads(os.environ.get("PKA_ENGINE_PARAMS", "{}"))
        if overhead is None:
            from pka.sim import overhead_for
            if not self.top:
                raise RuntimeError("EngineEnv: no engine named (run through pka.sim.run_cocotb(engine=True), "
                                   "or give overhead=)")
            overhead = overhead_for(self.top)
        self.overhead = overhead

    def slot_addr(self, slot: int) -> int:
        return int(slot) << (self.mem_aw - 4)

    def write_int(self, addr: int, value: int, nwords: int) -> None:
        for i in range(nwords):
            self.mem[addr + i] = (value >> (32 * i)) & WORD_MASK

    def read_int(self, addr: int, nwords: int) -> int:
        return sum(self.mem[addr + i] << (32 * i) for i in range(nwords))

    async def start(self) -> None:
        d = self.dut
        cocotb.start_soon(Clock(d.clk_i, 10, unit="ns").start())
        d.rst_ni.value = 0
        d.cmd_valid_i.value = 0
        d.mem_gnt_i.value = 0
        d.mem_rvalid_i.value = 0
        d.mem_rdata_i.value = 0
        for _ in range(3):
            await RisingEdge(d.clk_i)
        d.rst_ni.value = 1
        cocotb.start_soon(self._serve())
        await RisingEdge(d.clk_i)

    async def _serve(self) -> None:
        d = self.dut
        rvalid, rdata = 0, 0
        while True:
            # drive this cycle's inputs just after the edge, decide the grant from the settled request
            d.mem_rvalid_i.value = rvalid
            d.mem_rdata_i.value = rdata
            gnt = 0
            await Timer(1, unit="ns")
            if int(d.mem_req_o.value):
                gnt = 0 if (self.stall and self.rng.randrange(1000) < self.stall) else 1
            d.mem_gnt_i.value = gnt
            await ReadOnly()
            rvalid, rdata = 0, 0
            if gnt:
                addr = int(d.mem_addr_o.value) & ((1 << self.mem_aw) - 1)
                if int(d.mem_we_o.value):
                    self.mem[addr] = int(d.mem_wdata_o.value)
                else:
                    rvalid, rdata = 1, self.mem[addr]
            await RisingEdge(d.clk_i)
            self.cycle += 1

    async def command(self, op: int, length: int, elen: int = 0, arg: int = 0,
                      max_cycles: int = 1_000_000) -> tuple[int, int, int, int]:
        d = self.dut
        d.cmd_op_i.value = int(op)
        d.cmd_len_i.value = length
        d.cmd_elen_i.value = elen
        d.cmd_arg_i.value = arg
        d.cmd_valid_i.value = 1
        while True:
            await ReadOnly()
            ready = int(d.cmd_ready_o.value)
            await RisingEdge(d.clk_i)
            if ready:
                break
        d.cmd_valid_i.value = 0
        wall = 1                     # the accepting edge
        while True:
            await ReadOnly()
            if int(d.done_o.value):
                break
            await RisingEdge(d.clk_i)
            wall += 1
            assert wall <= max_cycles, f"no done within {max_cycles} cycles"
        res = (int(d.status_o.value), int(d.cycles_o.value), int(d.io_cycles_o.value), wall)
        await RisingEdge(d.clk_i)    # done is a pulse: step past it (also before a failed check)
        from pka.sim import check_cycles
        check_cycles(self.top or "engine", self.overhead, op, length, elen, arg, self.params, res[0], res[1],
                     res[2], wall)
        return res
