"""cocotb tests of pka_victor_core through the common boundary (memory with random stalls), MaxLen = 64.

modexp_modmul_with_stalls: MODEXP and MODMUL against the golden model (results and cycles, and io
cycles without stalls), a wrong opcode and an even modulus (n = 64 fills the datapath, n = 40 is
aligned).

wipe_after_secret_operations (issue 13, item 6): after a secret MODEXP or MODEXP_CT and the wipe
(OP_ZEROIZE), every register inside the core is 0 except ALLOW (each with its reason). Which
signals are registers is read from the RTL (every non-blocking assignment target in an always_ff
block of rtl/engines/victor/*.sv, per module); the instances under the core are found by walking
the hierarchy (they are combinational: estimator, accumulator, generators, adder rows), and every
register must be found, so a new one cannot escape the check. The control: without the wipe,
MODEXP_CT leaves its dummy accumulator X_0 = x^(2^h - 1 - e) in the remainder register and the
exponent's top bit, MODEXP the exponent's top bit and the last square.

abort_then_wipe: rst_ni low in the middle of a MODEXP_CT (pka_top's abort), then the wipe.

ct_runs_every_product (issue 14, item 1): cycles with the multiply context running, per
operation, over exponents of one length: one count for MODEXP_CT, several for MODEXP (the control:
its context 1 is idle on zero bits and until the first set bit).
"""

from __future__ import annotations

import os
import random
import re
import sys
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import ReadOnly, RisingEdge

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common.cocotb_env import EngineEnv  # noqa: E402

from pka.regs import Op, Slot  # noqa: E402  (generated from data/pka.rdl)

OP_MODMUL, OP_MODEXP, OP_MONTMUL = Op.MODMUL, Op.MODEXP, Op.MONTMUL
SLOT_N, SLOT_A, SLOT_B, SLOT_E, SLOT_R = Slot.N, Slot.A, Slot.B, Slot.E, Slot.R
PARAMS = {"k": 5, "delta": 10, "eps": 11}
MEM_AW = 6


@cocotb.test()
async def modexp_modmul_with_stalls(dut):
    from pka.model import victor as v
    rng = random.Random(int(os.environ.get("PKA_SEED", "5")))
    for stall in (0, 400):
        env = EngineEnv(dut, mem_aw=MEM_AW, stall_permille=stall, seed=stall + 3)
        await env.start()
        for i in range(max(3, int(os.environ.get("PKA_VECTORS", "") or "3") // 5)):
            nbits = (64, 40, 33)[i % 3]
            n = rng.getrandbits(nbits) | 1 | (1 << (nbits - 1))
            x, y, e = rng.randrange(n), rng.randrange(n), rng.getrandbits(rng.randrange(1, 40))
            env.write_int(env.slot_addr(SLOT_N), n, 2)
            env.write_int(env.slot_addr(SLOT_A), x, 2)
            env.write_int(env.slot_addr(SLOT_B), y, 2)
            env.write_int(env.slot_addr(SLOT_E), e, 2)
            st, cyc, io, _ = await env.command(OP_MODEXP, nbits, e.bit_length())
            want = v.modexp(x, e, n, PARAMS)
            assert st == 0 and env.read_int(env.slot_addr(SLOT_R), 2) == want.result == pow(x, e, n)
            assert cyc == want.cycles
            assert stall or io == want.io_cycles
            st, cyc, io, _ = await env.command(OP_MODMUL, nbits)
            want = v.modmul(x, y, n, PARAMS)
            assert st == 0 and env.read_int(env.slot_addr(SLOT_R), 2) == want.result == x * y % n
            assert cyc == want.detail["total_cycles"]
            assert stall or io == want.io_cycles
        st, *_ = await env.command(OP_MONTMUL, 64)
        assert st == 4  # ST_ERR_OPCODE
        env.write_int(env.slot_addr(SLOT_N), (1 << 63) + 2, 2)
        st, *_ = await env.command(OP_MODMUL, 64)
        assert st == 1  # ST_ERR_EVEN_MODULUS


# ---- the wipe ----------------------------------------------------------------------------------

MAX_LEN = 64
SEED = int(os.environ.get("PKA_SEED", "20261122"))
RTL = Path(__file__).resolve().parents[2] / "rtl" / "engines" / "victor"

#: registers of pka_victor_core allowed to be non-zero after the wipe, each with its reason
ALLOW = {
    "cyc_q": "the wipe's own cycle count, reported on the port as cycles (public)",
}


def _always_ff_blocks(text: str) -> list[str]:
    """Bodies of the always_ff blocks (begin/end nesting, or a single statement), comments removed."""
    text = re.sub(r"//[^\n]*", "", text)
    out = []
    for m in re.finditer(r"\balways_ff\b[^;]*?\)\s*", text):
        rest = text[m.end():]
        if not rest.startswith("begin"):
            out.append(rest[:rest.index(";") + 1])
            continue
        depth = 0
        for t in re.finditer(r"\b(begin|end)\b", rest):
            depth += 1 if t.group(1) == "begin" else -1
            if depth == 0:
                out.append(rest[:t.end()])
                break
    return out


def rtl_registers() -> dict[str, set[str]]:
    """module -> the names assigned with <= in its always_ff blocks (empty: combinational)."""
    regs: dict[str, set[str]] = {}
    for f in sorted(RTL.glob("pka_victor_*.sv")):
        text = f.read_text()
        mod = re.search(r"^module\s+(\w+)", text, re.M)
        assert mod is not None
        names: set[str] = set()
        for body in _always_ff_blocks(text):
            names |= set(re.findall(r"(\w+)\s*(?:\[[^\]]*\]\s*)*<=", body))
        regs[mod.group(1)] = names
    return regs


def rtl_instances() -> dict[str, str]:
    """instance name -> module, from the instantiations in the victor sources."""
    inst: dict[str, str] = {}
    for f in RTL.glob("pka_victor_*.sv"):
        for mod, name in re.findall(r"^\s*(pka_victor_\w+)\s+#\(.*?\)\s+(u_\w+)\s*\(", f.read_text(), re.M | re.S):
            inst[name] = mod
    return inst


def _value(h) -> int:
    v = h.value
    return int(v) if hasattr(v, "__int__") else int(str(v), 2)


def read_state(core) -> tuple[dict[str, int], dict[str, str]]:
    """Every register of every instance under (and including) the core: path -> value, and
    instance path -> module. Fails if a register of the RTL is not found."""
    regs, insts = rtl_registers(), rtl_instances()
    found: dict[str, object] = {core._path: (core, "pka_victor_core")}

    def scopes(h) -> None:
        for c in h:
            kind = type(c).__name__
            if kind == "HierarchyArrayObject" or (kind == "HierarchyObject" and not c._name.startswith("u_")):
                scopes(c)
            elif kind == "HierarchyObject":
                assert c._name in insts, f"instance {c._path} of an unknown module"
                found[c._path] = (c, insts[c._name])
                scopes(c)

    scopes(core)
    state: dict[str, int] = {}
    for path, (scope, mod) in found.items():  # type: ignore[misc]
        for name in sorted(regs[mod]):
            state[f"{path}.{name}"] = _value(scope[name])
    return state, {p: m for p, (_, m) in found.items()}  # type: ignore[misc]


def left_behind(state: dict[str, int], core_path: str) -> dict[str, int]:
    allowed = {f"{core_path}.{n}" for n in ALLOW}
    return {p: v for p, v in state.items() if v and p not in allowed}


def assert_wiped(core) -> int:
    state, _ = read_state(core)
    leak = left_behind(state, core._path)
    assert not leak, f"left behind after the wipe: {len(leak)} registers: " + ", ".join(
        f"{p.split('.')[-1]} = {v:#x}" for p, v in sorted(leak.items()))
    return len(state)


def _modulus(rng: random.Random, n: int) -> int:
    return rng.getrandbits(n) | 1 | (1 << (n - 1))


async def modexp(env: EngineEnv, op: int, mod: int, x: int, e: int, h: int) -> tuple[int, int]:
    """MODEXP (h = e's bits) or MODEXP_CT (h = the public length) against the model -> (cycles, io)."""
    from pka.model import victor as v
    env.write_int(env.slot_addr(SLOT_N), mod, 2)
    env.write_int(env.slot_addr(SLOT_A), x, 2)
    env.write_int(env.slot_addr(SLOT_E), e, 2)
    st, cyc, io, _ = await env.command(op, mod.bit_length(), h)
    want = v.modexp_ct(x, e, mod, PARAMS, h) if op == Op.MODEXP_CT else v.modexp(x, e, mod, PARAMS)
    assert st == 0 and env.read_int(env.slot_addr(SLOT_R), 2) == want.result == pow(x, e, mod)
    assert cyc == want.cycles
    assert env.stall or io == want.io_cycles
    return cyc, io


async def wipe(env: EngineEnv) -> None:
    """OP_ZEROIZE: done with ST_OK, cycles = the model's, io_cycles = 0, no port request."""
    from pka.model import victor as v
    dut = env.dut
    requests = 0
    running = True

    async def watch() -> None:
        nonlocal requests
        while running:
            await ReadOnly()
            requests += int(dut.mem_req_o.value)
            await RisingEdge(dut.clk_i)

    mon = cocotb.start_soon(watch())
    st, cyc, io, _ = await env.command(Op.ZEROIZE, 0)
    running = False
    await RisingEdge(dut.clk_i)
    mon.cancel()
    assert (st, io, requests) == (0, 0, 0)
    assert cyc == v.wipe_cycles()
    for _ in range(4):                     # a few idle cycles: nothing may come back
        await RisingEdge(dut.clk_i)


@cocotb.test()
async def wipe_after_secret_operations(dut):
    rng = random.Random(SEED + 23)
    core = dut.u_core
    env = EngineEnv(dut, mem_aw=MEM_AW, stall_permille=200, seed=5)
    await env.start()

    # MODEXP_CT without the wipe: the dummy accumulator and the exponent's top bit are inside
    n = 61
    mod = _modulus(rng, n)
    x, e = rng.randrange(mod), rng.getrandbits(n - 1) | (1 << (n - 1))
    await modexp(env, Op.MODEXP_CT, mod, x, e, n)
    state, insts = read_state(core)
    assert {"pka_victor_acc", "pka_victor_qest", "pka_victor_sdgen", "pka_victor_fa_row"} <= set(insts.values())
    s = MAX_LEN - n                                          # the RTL's left-aligned frame
    x0 = state[f"{core._path}.rem_q"]
    assert x0 % (1 << s) == 0 and (x0 >> s) % mod == pow(x, (1 << n) - 1 - e, mod)
    assert state[f"{core._path}.xb_q"] == 1 and state[f"{core._path}.e_q"] == 1     # e_(h-1)
    leak = left_behind(state, core._path)
    dut._log.info(f"without the wipe: {len(leak)} of {len(state)} registers non-zero "
                  f"({', '.join(sorted(p.split('.')[-1] for p in leak))}); X_0 = x^(2^h-1-e) in rem_q")
    await wipe(env)
    checked = assert_wiped(core)
    dut._log.info(f"after MODEXP_CT + OP_ZEROIZE: {checked} registers checked, all 0 but {sorted(ALLOW)}")

    # MODEXP, then the wipe
    e = rng.getrandbits(63) | (1 << 63)
    await modexp(env, Op.MODEXP, mod, x, e, 64)
    left = read_state(core)[0]
    assert left[f"{core._path}.e_q"] == 1 and left[f"{core._path}.b_q"] >> s == pow(x, 1 << 64, mod) \
        or left[f"{core._path}.b_q"] >> s == pow(x, 1 << 64, mod) + mod     # the last square M
    await wipe(env)
    assert_wiped(core)

    # the engine works after a wipe; two wipes in a row
    await modexp(env, Op.MODEXP_CT, mod, rng.randrange(mod), rng.getrandbits(n), n)
    await wipe(env)
    await wipe(env)
    assert_wiped(core)


@cocotb.test()
async def abort_then_wipe(dut):
    """rst_ni low in the middle of a MODEXP_CT (pka_top's abort): the datapath keeps its data
    (no reset there); the wipe then clears every register but ALLOW."""
    from pka.model import victor as v
    rng = random.Random(SEED + 24)
    core, d = dut.u_core, dut
    env = EngineEnv(dut, mem_aw=MEM_AW)
    await env.start()
    mod = _modulus(rng, 64)
    env.write_int(env.slot_addr(SLOT_N), mod, 2)
    env.write_int(env.slot_addr(SLOT_A), rng.randrange(mod), 2)
    env.write_int(env.slot_addr(SLOT_E), rng.getrandbits(64), 2)
    d.cmd_op_i.value = int(Op.MODEXP_CT)
    d.cmd_len_i.value = 64
    d.cmd_elen_i.value = 64
    d.cmd_arg_i.value = 0
    d.cmd_valid_i.value = 1
    await RisingEdge(d.clk_i)
    d.cmd_valid_i.value = 0
    for _ in range(v.exp_cycles(64, 64, v.config_from_params(PARAMS)) // 2):
        await RisingEdge(d.clk_i)
        assert not int(d.done_o.value)
    d.rst_ni.value = 0
    for _ in range(3):
        await RisingEdge(d.clk_i)
    d.rst_ni.value = 1
    await RisingEdge(d.clk_i)
    await ReadOnly()
    assert int(d.cmd_ready_o.value)
    kinds = {p.split(".")[-1] for p in left_behind(read_state(core)[0], core._path)}
    dut._log.info("after the reset alone: " + ", ".join(sorted(kinds)))
    assert {"e_q", "a1_q", "rem_q", "b_q"} <= kinds, "the reset leaves the exponent and the accumulators"
    await RisingEdge(d.clk_i)
    await wipe(env)
    assert_wiped(core)


@cocotb.test()
async def ct_runs_every_product(dut):
    """Cycles with the multiply context (context 1) running in the loop, per operation, over
    exponents of one length: MODEXP_CT one count, MODEXP several (the control)."""
    rng = random.Random(SEED + 25)
    core = dut.u_core
    env = EngineEnv(dut, mem_aw=MEM_AW)
    await env.start()
    mod = _modulus(rng, 64)
    x = rng.randrange(mod)
    active = 0
    sampling = True

    async def count() -> None:
        nonlocal active
        while sampling:
            await ReadOnly()
            active += int(core.mul_act_q.value)
            await RisingEdge(dut.clk_i)

    mon = cocotb.start_soon(count())
    seen: dict[int, set[tuple[int, int, int]]] = {Op.MODEXP: set(), Op.MODEXP_CT: set()}
    for _ in range(6):
        e = rng.getrandbits(63) | (1 << 63)
        for op in (Op.MODEXP, Op.MODEXP_CT):
            active = 0
            cyc, io = await modexp(env, op, mod, x, e, 64)
            seen[op].add((cyc, io, active))
    sampling = False
    await RisingEdge(dut.clk_i)
    mon.cancel()
    dut._log.info(f"(cycles, io, multiply-context cycles): MODEXP {sorted(seen[Op.MODEXP])}, "
                  f"MODEXP_CT {seen[Op.MODEXP_CT]}")
    assert len(seen[Op.MODEXP_CT]) == 1
    assert len({c for c, _, _ in seen[Op.MODEXP]}) == 1     # MODEXP's cycles depend on h only ...
    assert len(seen[Op.MODEXP]) > 1                         # ... but its multiply is skipped on 0s


def test_register_parse_sees_the_datapath() -> None:
    """The parse of the RTL finds the registers that hold secrets (no cocotb needed)."""
    regs = rtl_registers()
    assert {"e_q", "a0_q", "a1_q", "b_q", "rem_q", "y_q", "ld_q", "sa1_q", "sc2_q", "q2_q", "xb_q"} \
        <= regs["pka_victor_core"]
    assert set(ALLOW) <= regs["pka_victor_core"]
    assert all(not regs[m] for m in set(rtl_instances().values()))    # the rest is combinational
    assert set(rtl_instances().values()) == set(regs) - {"pka_victor_core"}


PARAMS_RTL = {"MaxLen": MAX_LEN, "MemAw": MEM_AW, "K": 5, "Delta": 10, "Eps": 11}


@pytest.mark.rtl
@pytest.mark.slow  # a third cocotb build; the core is covered in CI by tests/test_rtl_victor.py
def test_pka_victor_core() -> None:
    from pka.sim import fileset, run_cocotb
    run_cocotb("pka_victor_core", fileset("victor"), "test_pka_victor_core", Path(__file__).parent,
               params=PARAMS_RTL, engine=True)


@pytest.mark.rtl
def test_pka_victor_core_wipe_and_ct() -> None:
    """CI: the wipe, the abort and the constant-time tests of this module (same build)."""
    from pka.sim import fileset, run_cocotb
    run_cocotb("pka_victor_core", fileset("victor"), "test_pka_victor_core", Path(__file__).parent,
               params=PARAMS_RTL, engine=True,
               extra_env={"COCOTB_TEST_FILTER": "wipe_after_secret_operations|abort_then_wipe|ct_runs_every_product"})
