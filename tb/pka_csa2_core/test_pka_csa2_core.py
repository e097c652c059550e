"""cocotb tests of pka_csa2_core (MaxLen = 32) with the common memory environment and random stalls.

modexp_modmul_with_stalls: modexp and modmul against the golden model (results and cycle counts),
and an error status.

wipe_after_secret_operations (issue 13, item 6): after a secret MODEXP or MODEXP_CT and the wipe
(OP_ZEROIZE), every register inside the core is 0 except the allowlist ALLOW (each with its
reason). Which signals are registers is read from the RTL itself: every target of a non-blocking
assignment in an always_ff block of rtl/engines/csa2/*.sv, per module; every instance under the
core (the array, its L+4 slices) is found by walking the design hierarchy through cocotb handles,
and every register of its module must be found there, so a new register cannot escape the check.
The control: the same walk without the wipe finds the operation's data (the last square
X^(2^H) mod N in A^Z after MODEXP, the carry-save state of the last product after MODEXP_CT).

abort_then_wipe: rst_ni held low in the middle of a MODEXP_CT (pka_top's abort) leaves data in the
datapath (no reset there: the exponent's remaining bits in e_q, 4B = 4 R_b, the carry-save pairs);
the wipe that follows clears it.

ct_runs_every_product (issue 14, item 1): MODEXP skips the P product of a zero exponent bit (the
P section's loop is idle for the round: same cycles, less work); MODEXP_CT runs both products in
every round. Counted per cycle on the P section's loop control over exponents of one length:
one count for MODEXP_CT, several for MODEXP (the control).
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
SLOT_N, SLOT_A, SLOT_B, SLOT_E, SLOT_R, SLOT_W = Slot.N, Slot.A, Slot.B, Slot.E, Slot.R, Slot.W
MAX_LEN, MEM_AW = 32, 8
SEED = int(os.environ.get("PKA_SEED", "20261122"))
RTL = Path(__file__).resolve().parents[2] / "rtl" / "engines" / "csa2"

#: registers of pka_csa2_core allowed to be non-zero after the wipe, each with its reason
ALLOW = {
    "cyc_q": "the wipe's own cycle count, reported on the port as cycles (public)",
    "wiped_q": "the flag 'idle after a wipe' (1) that holds the length-derived registers at 0 "
               "until the next command",
}


def _variant(dut) -> str:
    return "paper" if int(dut.u_core.ChunkW.value) == 1 else "fast"


@cocotb.test()
async def modexp_modmul_with_stalls(dut):
    from pka.model import csa2 as model

    variant = _variant(dut)
    rng = random.Random(5)
    for stall in (0, 300):
        env = EngineEnv(dut, mem_aw=MEM_AW, stall_permille=stall, seed=stall + 3)
        await env.start()
        for _ in range(int(os.environ.get("PKA_VECTORS", "4"))):
            k = rng.randrange(3, MAX_LEN + 1)
            n = rng.getrandbits(k) | 1 | (1 << (k - 1))
            x, e, b = rng.randrange(n), rng.getrandbits(rng.randrange(0, 12)), rng.randrange(n)
            for slot, value in ((SLOT_N, n), (SLOT_A, x), (SLOT_B, b), (SLOT_E, e),
                                (SLOT_W, pow(2, 2 * (k + 2), n))):
                env.write_int(env.slot_addr(slot), value, 1)
            st, cyc, io, wall = await env.command(OP_MODEXP, k, e.bit_length())
            assert st == 0
            assert env.read_int(env.slot_addr(SLOT_R), 1) == pow(x, e, n)
            assert cyc == model.exp_cycles(k, e.bit_length(), variant)
            assert wall == cyc + io + 1      # (EngineEnv asserts it on every command: rtl.csa2.overhead)
            st, cyc, io, wall = await env.command(OP_MODMUL, k)
            assert st == 0
            assert env.read_int(env.slot_addr(SLOT_R), 1) == x * b % n
            assert cyc == model.exp_cycles(k, 1, variant)
        st, *_ = await env.command(OP_MONTMUL, 16)
        assert st == 4  # ST_ERR_OPCODE


# ---- the RTL's registers and instances ---------------------------------------------------------

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
    """module -> the names assigned with <= in its always_ff blocks."""
    regs: dict[str, set[str]] = {}
    for f in sorted(RTL.glob("pka_csa2_*.sv")):
        text = f.read_text()
        mod = re.search(r"^module\s+(\w+)", text, re.M)
        assert mod is not None
        names: set[str] = set()
        for body in _always_ff_blocks(text):
            names |= set(re.findall(r"(\w+)\s*(?:\[[^\]]*\]\s*)*<=", body))
        regs[mod.group(1)] = names
    return regs


def rtl_instances() -> dict[str, str]:
    """instance name -> module, from the instantiations in the csa2 sources."""
    inst: dict[str, str] = {}
    for f in RTL.glob("pka_csa2_*.sv"):
        for mod, name in re.findall(r"^\s*(pka_csa2_\w+)\s+#\(.*?\)\s+(u_\w+)\s*\(", f.read_text(), re.M | re.S):
            inst[name] = mod
    return inst


def _value(h) -> int:
    v = h.value
    return int(v) if hasattr(v, "__int__") else int(str(v), 2)


def _resolve(core, path: str):
    h = core
    for part in path[len(core._path) + 1:].split("."):
        m = re.fullmatch(r"(\w+)\[(\d+)\]", part)
        h = h[m.group(1)][int(m.group(2))] if m else h[part]
    return h


def read_state(core) -> tuple[dict[str, int], dict[str, str]]:
    """Every register of every instance under (and including) the core: path -> value, and
    instance path -> module. Fails if a register of the RTL is not found."""
    regs, insts = rtl_registers(), rtl_instances()
    found: dict[str, str] = {core._path: "pka_csa2_core"}

    def scopes(h) -> None:
        for c in h:
            kind = type(c).__name__
            if kind == "HierarchyArrayObject" or (kind == "HierarchyObject" and not c._name.startswith("u_")):
                scopes(c)                      # generate blocks (g_slice[i], g_ctl[g], ...)
            elif kind == "HierarchyObject":
                assert c._name in insts, f"instance {c._path} of an unknown module"
                found[c._path] = insts[c._name]
                scopes(c)

    scopes(core)
    state: dict[str, int] = {}
    for path, mod in found.items():
        scope = core if path == core._path else _resolve(core, path)
        for name in sorted(regs[mod]):
            h = scope[name]
            if type(h).__name__ == "ArrayObject":
                for i, e in enumerate(h):
                    state[f"{path}.{name}[{i}]"] = _value(e)
            else:
                state[f"{path}.{name}"] = _value(h)
    return state, found


def left_behind(state: dict[str, int], core_path: str) -> dict[str, int]:
    allowed = {f"{core_path}.{n}" for n in ALLOW}
    return {p: v for p, v in state.items() if v and p.split("[")[0] not in allowed}


def assert_wiped(core) -> int:
    state, _ = read_state(core)
    leak = left_behind(state, core._path)
    kinds: dict[str, int] = {}
    for p in leak:
        kinds[p.split(".")[-1]] = kinds.get(p.split(".")[-1], 0) + 1
    assert not leak, f"left behind after the wipe: {len(leak)} registers (" + ", ".join(
        f"{k} x{c}" for k, c in sorted(kinds.items())) + "): " + ", ".join(
        f"{p} = {v:#x}" for p, v in sorted(leak.items())[:8]) + (" ..." if len(leak) > 8 else "")
    return len(state)


def slice_bits(state: dict[str, int], core_path: str, reg: str) -> int:
    """The array-wide value of one slice register (bit i from g_slice[i].u_slice)."""
    pat = re.compile(re.escape(core_path) + r"\.u_array\.g_slice\[(\d+)\]\.u_slice\." + reg + "$")
    return sum(v << int(m.group(1)) for p, v in state.items() if (m := pat.match(p)))


# ---- operations --------------------------------------------------------------------------------

def _load(env: EngineEnv, n: int, x: int, e: int) -> int:
    k = n.bit_length()
    for slot, value in ((SLOT_N, n), (SLOT_A, x), (SLOT_E, e), (SLOT_W, pow(2, 2 * (k + 2), n))):
        env.write_int(env.slot_addr(slot), value, 1)
    return k


async def modexp(env: EngineEnv, op: int, n: int, x: int, e: int, h: int) -> int:
    """MODEXP (h = e's bits) or MODEXP_CT (h = the public length) against the model; -> cycles."""
    from pka.model import csa2 as model
    k = _load(env, n, x, e)
    params = {"variant": _variant(env.dut), "l": MAX_LEN}
    st, cyc, _io, _ = await env.command(op, k, h)
    want = model.modexp_ct(x, e, n, params, h) if op == Op.MODEXP_CT else model.modexp(x, e, n, params)
    assert st == 0
    assert env.read_int(env.slot_addr(SLOT_R), 1) == want.result == pow(x, e, n)
    assert cyc == want.cycles
    return cyc


async def wipe(env: EngineEnv) -> None:
    """OP_ZEROIZE: done with ST_OK, cycles = the model's, io_cycles = 0, no port request."""
    from pka.model import csa2 as model
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
    assert cyc == model.wipe_cycles()
    for _ in range(4):                     # a few idle cycles: nothing may come back
        await RisingEdge(dut.clk_i)


def _modulus(rng: random.Random, k: int) -> int:
    return rng.getrandbits(k) | 1 | (1 << (k - 1))


@cocotb.test()
async def wipe_after_secret_operations(dut):
    rng = random.Random(SEED + 13)
    core = dut.u_core
    env = EngineEnv(dut, mem_aw=MEM_AW, stall_permille=200, seed=3)
    await env.start()
    regs = rtl_registers()
    assert {"e_q", "cb_q", "eq_q", "wiped_q"} <= regs["pka_csa2_core"]
    assert {"ld_data_q", "ctl_q", "tok_uz_q"} <= regs["pka_csa2_array"]
    assert {"az_q", "ap_q", "sz_q", "cz_q", "vz_q", "b4_q", "bn_q", "n_q"} <= regs["pka_csa2_slice"]

    # MODEXP without the wipe: the operation's data is still inside (the control)
    n = _modulus(rng, 31)
    x, e = rng.randrange(n), rng.getrandbits(30) | (1 << 29)
    await modexp(env, Op.MODEXP, n, x, e, e.bit_length())
    for _ in range(4):
        await RisingEdge(dut.clk_i)
    state, insts = read_state(core)
    assert sorted(insts.values()).count("pka_csa2_slice") == MAX_LEN + 4
    leak = left_behind(state, core._path)
    az = slice_bits(state, core._path, "az_q")
    assert az % n == pow(x, 1 << e.bit_length(), n)         # the last square X^(2^H) in A^Z
    dut._log.info(f"without the wipe: {len(leak)} of {len(state)} registers non-zero, "
                  f"A^Z = X^(2^H) mod N = {az:#x}")

    # MODEXP, then the wipe: nothing left but the allowlist
    await wipe(env)
    checked = assert_wiped(core)
    dut._log.info(f"after MODEXP + OP_ZEROIZE: {checked} registers checked, all 0 but " + ", ".join(sorted(ALLOW)))

    # MODEXP_CT with a secret exponent of the modulus' length: data left, then the wipe
    n = _modulus(rng, 32)
    x, e = rng.randrange(n), rng.getrandbits(32)
    await modexp(env, Op.MODEXP_CT, n, x, e, 32)
    leak = left_behind(read_state(core)[0], core._path)
    assert leak, "MODEXP_CT leaves its last product's carry-save state"
    dut._log.info(f"without the wipe after MODEXP_CT: {len(leak)} registers non-zero, e.g. "
                  + ", ".join(sorted({p.split('.')[-1] for p in leak})))
    await wipe(env)
    assert_wiped(core)

    # the engine works after a wipe, and a second wipe in a row is fine
    await modexp(env, Op.MODEXP_CT, n, rng.randrange(n), rng.getrandbits(32), 32)
    await wipe(env)
    await wipe(env)
    assert_wiped(core)


@cocotb.test()
async def abort_then_wipe(dut):
    """rst_ni low in the middle of a MODEXP_CT (pka_top's abort): the reset leaves the datapath's
    data (it has no reset); the wipe then clears every register but ALLOW."""
    from pka.model import csa2 as model
    rng = random.Random(SEED + 14)
    core, d = dut.u_core, dut
    env = EngineEnv(dut, mem_aw=MEM_AW)
    await env.start()
    n = _modulus(rng, 32)
    k = _load(env, n, rng.randrange(n), rng.getrandbits(32))
    d.cmd_op_i.value = int(Op.MODEXP_CT)
    d.cmd_len_i.value = k
    d.cmd_elen_i.value = 32
    d.cmd_arg_i.value = 0
    d.cmd_valid_i.value = 1
    await RisingEdge(d.clk_i)
    d.cmd_valid_i.value = 0
    total = model.exp_cycles(k, 32, _variant(dut))
    for _ in range(total // 2):                # in the middle of the ladder
        await RisingEdge(d.clk_i)
        assert not int(d.done_o.value)
    d.rst_ni.value = 0
    for _ in range(3):
        await RisingEdge(d.clk_i)
    d.rst_ni.value = 1
    await RisingEdge(d.clk_i)
    await ReadOnly()
    assert int(d.cmd_ready_o.value)
    left = left_behind(read_state(core)[0], core._path)
    kinds = {p.split(".")[-1] for p in left}
    dut._log.info("after the reset alone: " + ", ".join(sorted(kinds)))
    assert {"e_q", "b4_q"} <= kinds, "the reset leaves the exponent's bits and 4B = 4 R_b"
    await RisingEdge(d.clk_i)
    await wipe(env)
    assert_wiped(core)


@cocotb.test()
async def ct_runs_every_product(dut):
    """Cycles with the P section's loop running, per operation, over exponents of one length:
    MODEXP_CT one count (both products in every round), MODEXP several (the control)."""
    rng = random.Random(SEED + 15)
    core = dut.u_core
    env = EngineEnv(dut, mem_aw=MEM_AW)
    await env.start()
    n = _modulus(rng, 32)
    x = rng.randrange(n)
    active = 0
    sampling = True

    async def count() -> None:
        nonlocal active
        while sampling:
            await ReadOnly()
            active += int(core.loop_p_d.value)
            await RisingEdge(dut.clk_i)

    mon = cocotb.start_soon(count())
    seen: dict[int, set[tuple[int, int]]] = {Op.MODEXP: set(), Op.MODEXP_CT: set()}
    for i in range(8):
        e = rng.getrandbits(31) | (1 << 31)          # 32 bits, random weight
        for op in (Op.MODEXP, Op.MODEXP_CT):
            active = 0
            cyc = await modexp(env, op, n, x, e, 32)
            seen[op].add((cyc, active))
    sampling = False
    await RisingEdge(dut.clk_i)
    mon.cancel()
    dut._log.info(f"(cycles, P loop cycles): MODEXP {sorted(seen[Op.MODEXP])}, MODEXP_CT {seen[Op.MODEXP_CT]}")
    assert len(seen[Op.MODEXP_CT]) == 1
    assert len({c for c, _ in seen[Op.MODEXP]}) == 1       # MODEXP's cycles depend on H only ...
    assert len(seen[Op.MODEXP]) > 1                        # ... but its P product is skipped on 0s


@pytest.mark.rtl
@pytest.mark.parametrize("chunk_w", [32, pytest.param(1, marks=pytest.mark.slow)])  # tests/ cover ChunkW = 1
def test_pka_csa2_core(chunk_w: int) -> None:
    from pka.sim import fileset, run_cocotb
    run_cocotb("pka_csa2_core", fileset("csa2"), "test_pka_csa2_core", Path(__file__).parent,
               params={"MaxLen": MAX_LEN, "MemAw": MEM_AW, "ChunkW": chunk_w}, engine=True)


def test_register_parse_sees_the_datapath() -> None:
    """The parse of the RTL finds the registers that hold secrets (no cocotb needed)."""
    regs = rtl_registers()
    assert {"e_q", "e_ld_q", "cb_q", "eq_q", "nword_q", "lt_q"} <= regs["pka_csa2_core"]
    assert {"ld_data_q", "ctl_q", "hit_n_q", "ap_one_q"} <= regs["pka_csa2_array"]
    assert {"n_q", "b4_q", "bn_q", "sz_q", "cz_q", "vz_q", "az_q", "sp_q", "cp_q", "vp_q", "ap_q"} \
        <= regs["pka_csa2_slice"]
    assert set(ALLOW) <= regs["pka_csa2_core"]
    assert set(rtl_instances().values()) == set(regs) - {"pka_csa2_core"}
