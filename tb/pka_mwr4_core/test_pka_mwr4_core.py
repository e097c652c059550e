"""cocotb test of pka_mwr4_core's wipe (OP_ZEROIZE): after a secret operation (MODEXP, MODEXP_CT)
and the wipe, every register inside the core is 0, except the allowlist below (issue 13, item 6).

Which signals are registers is read from the RTL itself: every target of a non-blocking assignment
in an always_ff block of rtl/engines/mwr4/*.sv, per module. The walk visits every signal under the
core through cocotb handles (the kernel's generate scopes g_stage[s], each PE's generators, the
post-processor, unpacked arrays element by element); each instance's module is known from the
instantiations in the same sources, and every register of every instantiated module must be found
(so a new register cannot escape the check). The build has ToggleCnt = 1, so the toggle-counter
registers (core and PEs) exist and are checked too. The engine has no RAM: its operand buffers,
S memory and exponent are registers, and the wipe clears them all in one cycle.

wipe_after_secret_operations: MODEXP with a secret exponent, then the walk: data is left behind
(E in ee_q, the base's Montgomery form in xb_q, PE words) - the control, so the check can fail;
then OP_ZEROIZE (ST_OK, cycles = the model's wipe_cycles(), io_cycles 0, no port request, memory
untouched) and the walk finds nothing but ALLOW. The same for MODEXP_CT; then a MODMUL works again.

abort_then_wipe: rst_ni held low in the middle of a MODEXP_CT (pka_top's abort) leaves E and the
ladder state (datapath registers have no reset); the wipe that follows clears them.

Small build: MaxLen 64, radix 4, NS 2, w 8 (e = 9 > 2 NS: the S memory is used)."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import ReadOnly, RisingEdge

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common.cocotb_env import EngineEnv  # noqa: E402

from pka.regs import Op, Slot, Status  # noqa: E402  (generated from data/pka.rdl)

RTL = Path(__file__).resolve().parents[2] / "rtl" / "engines" / "mwr4"
MAX_LEN, MEM_AW, RADIX, NS, W = 64, 7, 4, 2, 8
PARAMS = {"MaxLen": MAX_LEN, "MemAw": MEM_AW, "Radix": RADIX, "NS": NS, "W": W, "ToggleCnt": 1}
MODEL_PARAMS = {"radix": RADIX, "ns": NS, "w": W}
NBITS = 48            # operand length of the tests (runtime; a few thousand cycles per op)

#: registers allowed to be non-zero after the wipe, each with its reason (all others must be 0)
ALLOW = {
    "cyc_q": "the wipe's own cycle count (1), reported on the port as its cycles (public)",
}


# ---- which signals are registers: read from the RTL itself -----------------------------------------

def _always_ff_blocks(text: str) -> list[str]:
    """Bodies of the always_ff blocks (begin/end nesting), comments removed."""
    text = re.sub(r"//[^\n]*", "", text)
    out = []
    for m in re.finditer(r"\balways_ff\b", text):
        i = text.index("begin", m.end())
        depth, j = 0, i
        for t in re.finditer(r"\b(begin|end)\b", text[i:]):
            depth += 1 if t.group(1) == "begin" else -1
            if depth == 0:
                j = i + t.end()
                break
        out.append(text[i:j])
    return out


def rtl_registers() -> dict[str, set[str]]:
    """module -> every name assigned with <= in its always_ff blocks (rtl/engines/mwr4/*.sv)."""
    regs: dict[str, set[str]] = {}
    for f in sorted(RTL.glob("pka_mwr4_*.sv")):
        text = f.read_text()
        mod = re.search(r"^module\s+(\w+)", text, re.M)
        assert mod is not None
        names: set[str] = set()
        for body in _always_ff_blocks(text):
            names |= set(re.findall(r"(\w+)\s*(?:\[[^\]]*\]\s*)*<=", body))
        regs[mod.group(1)] = names
    return regs


def rtl_instances() -> dict[tuple[str, str], str]:
    """(parent module, instance name) -> module, from the instantiations in the mwr4 sources."""
    inst: dict[tuple[str, str], str] = {}
    for f in RTL.glob("pka_mwr4_*.sv"):
        text = f.read_text()
        parent = re.search(r"^module\s+(\w+)", text, re.M)
        assert parent is not None
        for mod, name in re.findall(r"^\s*(pka_mwr4_\w+)\s+(?:#\(.*?\)\s+)?(u_\w+)\s*\(", text, re.M | re.S):
            inst[(parent.group(1), name)] = mod
    return inst


def _walk(handle, out: dict[str, int]) -> None:
    """Every value under `handle` (depth first): signals, arrays element by element, generate
    scopes and submodules; parameters are skipped (constants)."""
    from cocotb.handle import ArrayObject, HierarchyArrayObject, HierarchyObject

    for child in handle:
        if isinstance(child, (HierarchyObject, HierarchyArrayObject, ArrayObject)):
            _walk(child, out)
        else:
            if child._handle.get_const():
                continue
            try:
                out[child._path] = int(child.value)
            except (ValueError, TypeError):
                out[child._path] = -1      # X or Z: not expected in a 2-state simulator


def read_registers(core) -> dict[str, int]:
    """Every register (always_ff target) of every instance under the core: path -> value. Fails if
    a register of an instantiated module is not found in the walk."""
    regs, insts = rtl_registers(), rtl_instances()
    vals: dict[str, int] = {}
    _walk(core, vals)
    out: dict[str, int] = {}
    seen: set[tuple[str, str]] = set()
    present: set[str] = {"pka_mwr4_core"}
    for path, v in vals.items():
        parts = path[len(core._path) + 1:].split(".")
        mod = "pka_mwr4_core"
        for q in parts[:-1]:
            if q.startswith("u_"):
                mod = insts[(mod, re.sub(r"\[\d+\]$", "", q))]
                present.add(mod)
        name = re.sub(r"\[.*$", "", parts[-1])
        if name in regs[mod]:
            out[path] = v
            seen.add((mod, name))
    missing = {(m, r) for m in present for r in regs[m]} - seen
    assert not missing, f"registers of the RTL not found in the walk: {sorted(missing)}"
    want = {"pka_mwr4_core", "pka_mwr4_kernel", "pka_mwr4_pe", "pka_mwr4_ppgen", "pka_mwr4_pmgen",
            "pka_mwr4_post", "pka_mwr4_booth", "pka_mwr4_mrec"}
    assert present == want, f"instances found: {sorted(present)}"
    return out


def _leaf(path: str) -> str:
    return re.sub(r"\[.*$", "", path.split(".")[-1])


def left_behind(state: dict[str, int]) -> dict[str, int]:
    return {p: v for p, v in state.items() if v and _leaf(p) not in ALLOW}


def _modulus(rng: random.Random, n: int) -> int:
    return rng.getrandbits(n) | 1 | (1 << (n - 1))


# ---- operations ----------------------------------------------------------------------------------

async def modexp(env: EngineEnv, base: int, e: int, mod: int, ct: bool) -> None:
    """MODEXP (elen = bits of e) or MODEXP_CT (elen = bits of N), result and cycles = the model's."""
    from pka.model import mwr4 as model
    from pka.model.common import r2_mod

    n = mod.bit_length()
    w2 = r2_mod(mod, model.geometry(n, model.config(MODEL_PARAMS)).r_bits)
    for slot, v in ((Slot.N, mod), (Slot.A, base), (Slot.W, w2), (Slot.E, e)):
        env.write_int(env.slot_addr(slot), v, MAX_LEN // 32)
    if ct:
        st, cyc, _io, _ = await env.command(Op.MODEXP_CT, n, n)
        ref = model.modexp_ct(base, e, mod, MODEL_PARAMS, n)
    else:
        st, cyc, _io, _ = await env.command(Op.MODEXP, n, e.bit_length())
        ref = model.modexp(base, e, mod, MODEL_PARAMS)
    assert st == Status.OK
    assert env.read_int(env.slot_addr(Slot.R), -(-n // 32)) == pow(base, e, mod) == ref.result
    assert cyc == ref.cycles


async def wipe(env: EngineEnv) -> None:
    """OP_ZEROIZE: done with ST_OK, cycles = the model's, io_cycles = 0, no port request, the
    memory untouched."""
    from pka.model import mwr4 as model

    dut = env.dut
    requests = 0
    running = True

    async def watch() -> None:
        nonlocal requests
        while running:
            await ReadOnly()
            requests += int(dut.mem_req_o.value)
            await RisingEdge(dut.clk_i)

    mem = list(env.mem)
    mon = cocotb.start_soon(watch())
    st, cyc, io, _ = await env.command(Op.ZEROIZE, 0)
    running = False
    await RisingEdge(dut.clk_i)
    mon.cancel()
    assert (st, cyc, io, requests) == (Status.OK, model.wipe_cycles(), 0, 0)
    assert env.mem == mem
    for _ in range(4):                     # a few idle cycles: nothing may come back
        await RisingEdge(dut.clk_i)
    await ReadOnly()


def assert_wiped(core, what: str) -> int:
    state = read_registers(core)
    left = left_behind(state)
    assert not left, f"left behind after {what} + OP_ZEROIZE: " + ", ".join(
        f"{p} = {v:#x}" for p, v in sorted(left.items())[:12]) + (" ..." if len(left) > 12 else "")
    return len(state)


def assert_secret_inside(core, e: int, what: str) -> None:
    """The control: without the wipe the exponent is read back from ee_q, and more is left."""
    state = read_registers(core)
    ee = [v for p, v in state.items() if _leaf(p) == "ee_q"]
    assert ee == [e], f"after {what}: E not in ee_q"
    left = left_behind(state)
    assert len(left) > 50, f"after {what}: only {len(left)} non-zero registers"
    pe_words = [p for p in left if ".u_pe." in p and _leaf(p) in ("oss_q", "osc_q", "hs_q", "b1_q", "m1_q")]
    assert pe_words, f"after {what}: no PE word left (the walk does not see the kernel?)"
    cocotb.log.info("after %s, without a wipe: %d of %d registers non-zero, E in ee_q", what, len(left),
                    len(state))


# ---- the tests -----------------------------------------------------------------------------------

@cocotb.test()
async def wipe_after_secret_operations(dut):
    rng = random.Random(14)
    core = dut.u_core
    env = EngineEnv(dut, mem_aw=MEM_AW, stall_permille=200, seed=5)
    await env.start()

    for ct in (False, True):
        what = "MODEXP_CT" if ct else "MODEXP"
        mod = _modulus(rng, NBITS)
        e = rng.getrandbits(NBITS) | 1 << (NBITS - 1)
        await modexp(env, rng.randrange(mod), e, mod, ct)
        await ReadOnly()
        assert_secret_inside(core, e, what)
        await RisingEdge(dut.clk_i)
        await wipe(env)
        checked = assert_wiped(core, what)
        cocotb.log.info("after %s + OP_ZEROIZE: %d registers checked, all 0 but %s", what, checked,
                        sorted(ALLOW))
        await RisingEdge(dut.clk_i)

    # the engine works after a wipe, and the next command ends the hold
    from pka.model import mwr4 as model
    from pka.model.common import r2_mod
    mod = _modulus(rng, NBITS)
    a, b = rng.randrange(mod), rng.randrange(mod)
    w2 = r2_mod(mod, model.geometry(NBITS, model.config(MODEL_PARAMS)).r_bits)
    for slot, v in ((Slot.N, mod), (Slot.A, a), (Slot.B, b), (Slot.W, w2)):
        env.write_int(env.slot_addr(slot), v, MAX_LEN // 32)
    st, cyc, _io, _ = await env.command(Op.MODMUL, NBITS)
    assert (st, cyc) == (Status.OK, model.modmul(a, b, mod, MODEL_PARAMS).detail["total_cycles"])
    assert env.read_int(env.slot_addr(Slot.R), 2) == a * b % mod
    await ReadOnly()
    assert left_behind(read_registers(core))


@cocotb.test()
async def abort_then_wipe(dut):
    """Abort as pka_top does it: rst_ni held low in the middle of a secret MODEXP_CT, then the wipe."""
    from pka.model import mwr4 as model
    from pka.model.common import r2_mod

    rng = random.Random(15)
    core = dut.u_core
    env = EngineEnv(dut, mem_aw=MEM_AW)
    await env.start()
    mod = _modulus(rng, NBITS)
    e = rng.getrandbits(NBITS)
    w2 = r2_mod(mod, model.geometry(NBITS, model.config(MODEL_PARAMS)).r_bits)
    for slot, v in ((Slot.N, mod), (Slot.A, rng.randrange(mod)), (Slot.W, w2), (Slot.E, e)):
        env.write_int(env.slot_addr(slot), v, MAX_LEN // 32)
    d = dut
    d.cmd_op_i.value = int(Op.MODEXP_CT)
    d.cmd_len_i.value = NBITS
    d.cmd_elen_i.value = NBITS
    d.cmd_arg_i.value = 0
    d.cmd_valid_i.value = 1
    await RisingEdge(d.clk_i)
    d.cmd_valid_i.value = 0
    for _ in range(model.modexp_ct_cycles(NBITS, NBITS, model.config(MODEL_PARAMS)) // 2):  # mid-ladder
        await RisingEdge(d.clk_i)
        assert not int(d.done_o.value)
    d.rst_ni.value = 0
    for _ in range(3):
        await RisingEdge(d.clk_i)
    d.rst_ni.value = 1
    await RisingEdge(d.clk_i)
    await ReadOnly()
    assert int(d.cmd_ready_o.value)
    state = read_registers(core)
    assert [v for p, v in state.items() if _leaf(p) == "ee_q"] == [e], "the reset alone should leave E"
    assert len(left_behind(state)) > 50
    await RisingEdge(d.clk_i)
    await wipe(env)
    assert_wiped(core, "an abort")


def test_register_parse_sees_the_datapath() -> None:
    """The parse of the RTL finds the registers that hold secrets (no cocotb needed)."""
    regs = rtl_registers()
    assert {"ee_q", "ac_q", "xb_q", "ash_q", "ssm_q", "lbit_q", "ebit_q", "dig_q"} <= regs["pka_mwr4_core"]
    assert {"oss_q", "osc_q", "hs_q", "b1_q", "m2_q", "sel_pp_q", "ppn_q"} <= regs["pka_mwr4_pe"]
    assert {"prev_q", "c3_q"} <= regs["pka_mwr4_ppgen"]
    assert {"bprev_q", "mprev_q", "c3_q"} <= regs["pka_mwr4_pmgen"]
    assert {"carry_q", "br1_q"} <= regs["pka_mwr4_post"]
    assert set(ALLOW) <= regs["pka_mwr4_core"]
    assert set(rtl_instances().values()) == set(regs) - {"pka_mwr4_core"}


@pytest.mark.rtl
def test_pka_mwr4_core() -> None:
    from pka.sim import fileset, run_cocotb
    run_cocotb("pka_mwr4_core", fileset("mwr4"), "test_pka_mwr4_core", Path(__file__).parent,
               params=PARAMS, engine=True)
