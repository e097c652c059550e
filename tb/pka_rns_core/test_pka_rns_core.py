"""cocotb tests of pka_rns_core (MM build, MaxLen = 64, W = 16, the small curve): what the wipe
(OP_ZEROIZE) leaves in the core, and a fault injected into a rower register during a checked
ECC_MUL (issue 13, items 3 and 6).

wipe_leaves_nothing_behind: a secret ECC_MUL, then a walk over every signal under the core
(registers, register files, constant memories of every rower, the Cox, the sequencer): data is left
behind (the scalar, ladder state in the register files, the constants); then OP_ZEROIZE and the same
walk finds every register and memory word zero except ALLOW (each with its reason).

abort_then_wipe: rst_ni held low in the middle of a secret ECC_MUL (pka_top's abort) leaves the
scalar and ladder state; the wipe that follows clears them.

random_z_randomises_the_ladder (issue 14): the same k twice without a random Z leaves the same
ladder registers in every rower's register files; with ARG[1] (random words in SLOT_P) and a blinded
scalar k + r n of 128 bits (ELEN = MaxLen + 64) two runs leave different ladder registers and the
same released point; the wipe then clears RZ and the ladder registers.

fault_is_detected: during a checked ECC_MUL, at the start of a ladder step, one bit of a ladder
register's residue in rower 0 is flipped through VPI: the engine ends with ST_ERR_FAULT and writes
zeros to R and R_HI; without the flip the same command returns the right point. On a build with
FaultCheck = 0 (the output check removed, for fault campaigns) the same flip releases a wrong point
with ST_OK: the evidence that the flip is a real fault and that the check is what catches it.

x25519_entry_loops_and_inverse_check: ECC_MUL with ARG[2] (X25519's ladder, its inversion chain in
fixed-count loops) on this 64-bit build ends with ST_ERR_UNSUPPORTED from its inverse check (the
chain inverts modulo 2^255 - 19 only), cycles and status equal to the model's, on both FaultCheck
builds.
"""

from __future__ import annotations

import os
import random
import re
import sys
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import ReadOnly, RisingEdge, Timer

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common.cocotb_env import EngineEnv  # noqa: E402

from pka.regs import Op, Slot, Status  # noqa: E402

MAX_LEN, W, MEM_AW = 64, 16, 14
SEED = int(os.environ.get("PKA_SEED", "20261122"))

RTL = Path(__file__).resolve().parents[2] / "rtl" / "engines" / "rns"
SBMM = int(os.environ.get("PKA_RNS_SBMM", "0"))     # which build this run is (the pytest below sets it)
FAULT_CHECK = int(os.environ.get("PKA_RNS_FAULT_CHECK", "1"))   # the build's FaultCheck parameter

#: registers allowed to be non-zero after the wipe, each with its reason (all others must be 0)
ALLOW = {
    "op_q": "the command register holds the wipe's own opcode (OP_ZEROIZE = 15, public)",
    "cyc_q": "the wipe's cycle count, reported on the port as its cycles (public)",
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
    """module -> every name assigned with <= in its always_ff blocks (rtl/engines/rns/*.sv)."""
    regs: dict[str, set[str]] = {}
    for f in sorted(RTL.glob("pka_rns_*.sv")):
        text = f.read_text()
        mod = re.search(r"^module\s+(\w+)", text, re.M)
        assert mod is not None
        names: set[str] = set()
        for body in _always_ff_blocks(text):
            names |= set(re.findall(r"(\w+)\s*(?:\[[^\]]*\]\s*)*<=", body))
        regs[mod.group(1)] = names
    return regs


def rtl_instances() -> dict[tuple[str, str], str]:
    """(parent module, instance name) -> module, from the instantiations in the rns sources."""
    inst: dict[tuple[str, str], str] = {}
    for f in RTL.glob("pka_rns_*.sv"):
        text = f.read_text()
        parent = re.search(r"^module\s+(\w+)", text, re.M)
        assert parent is not None
        for mod, name in re.findall(r"^\s*(pka_rns_\w+)\s+(?:#\(.*?\)\s+)?(u_\w+)\s*\(", text, re.M | re.S):
            inst[(parent.group(1), name)] = mod
    return inst


def _ctx_words(env: EngineEnv, k: int, x: int, y: int, z_words: list[int] | None = None) -> None:
    """What pka.rtl.rns.write_context writes, into the cocotb memory (z_words: SLOT_P's random words)."""
    from pka.model import rns as model

    c = model.CURVES["small"]
    ctx = model.mm_context(c.p, W)

    def vec(v: int) -> list[int]:
        b, bp = ctx.to_rns(v)
        return list(b) + list(bp)

    def put(slot: int, words: list[int]) -> None:
        for i, w in enumerate(words):
            env.mem[env.slot_addr(slot) + i] = w

    regs = model.ecc_inputs(c, x, ctx.m, y)
    put(Slot.N, [c.p & 0xFFFFFFFF])
    put(Slot.X0, [v for row in ctx.table for v in row])
    put(Slot.A, vec(regs[model.IN_A]))
    put(Slot.B, vec(regs[model.IN_B]))
    put(Slot.W, vec(ctx.m * ctx.m % c.p))
    put(Slot.X1, vec(1) + vec(regs[model.CA]) + vec(regs[model.CB2]) + vec(regs[model.CM4B]))
    env.write_int(env.slot_addr(Slot.E), k, 4)
    env.write_int(env.slot_addr(Slot.X2), c.p - 2, 4)
    if z_words is not None:
        put(Slot.P, z_words)


def _ctx_words_sb(env: EngineEnv, k: int, x: int) -> None:
    """What pka.rtl.rns.sb_run writes for ECC_MUL on the SBMM build (the small curve's P = Ma^2 - 2)."""
    from pka.model import rns as model
    from pka.rtl import rns as rtl

    c = model.CURVES["small"]
    ctx = model.sbmm_context(c.p, W)

    def put(slot: int, words: list[int]) -> None:
        for i, w in enumerate(words):
            env.mem[env.slot_addr(slot) + i] = w

    regs = model.sb_ecc_inputs(c, x)
    put(Slot.N, [c.p & 0xFFFFFFFF])
    put(Slot.X0, rtl.sb_table(ctx))
    put(Slot.A, rtl.sb_image(ctx, model.sbmm_to(ctx, regs[model.IN_A])))
    put(Slot.B, rtl.sb_image(ctx, model.sbmm_to(ctx, 0)))
    x1: list[int] = []
    for r in (model.ONE, model.CA, model.CB2, model.CM4B):
        x1 += rtl.sb_image(ctx, model.sbmm_to(ctx, regs[r]))
    put(Slot.X1, x1)
    env.write_int(env.slot_addr(Slot.E), k, 4)
    env.write_int(env.slot_addr(Slot.X2), c.p - 2, 4)


def _read_x_sb(env: EngineEnv) -> int:
    from pka.model import rns as model

    c = model.CURVES["small"]
    ctx = model.sbmm_context(c.p, W)
    m = ctx.na + ctx.nb + 1
    words = env.mem[env.slot_addr(Slot.R):env.slot_addr(Slot.R) + 2 * m]
    return model.sbmm_from(ctx, (tuple(words[:m]), tuple(words[m:])))


def _read_point(env: EngineEnv) -> tuple[int, int]:
    from pka.model import rns as model

    c = model.CURVES["small"]
    ctx = model.mm_context(c.p, W)
    out = []
    for slot in (Slot.R, Slot.R_HI):
        words = env.mem[env.slot_addr(slot):env.slot_addr(slot) + 2 * ctx.n]
        out.append(ctx.from_rns((tuple(words[:ctx.n]), tuple(words[ctx.n:]))) % c.p)
    return out[0], out[1]


def _walk(handle, out: dict[str, int]) -> None:
    """Every value under `handle` (depth first): signals, arrays element by element (unpacked
    register files), generate scopes and submodules; parameters are skipped (constants)."""
    from cocotb.handle import ArrayObject, HierarchyArrayObject, HierarchyObject

    for child in handle:
        if isinstance(child, (HierarchyObject, HierarchyArrayObject)):
            _walk(child, out)
        elif isinstance(child, ArrayObject):
            _walk(child, out)
        else:
            if child._handle.get_const():
                continue
            try:
                out[child._path] = int(child.value)
            except (ValueError, TypeError):
                out[child._path] = -1      # X or Z: not expected in a 2-state simulator


def read_registers(core) -> dict[str, int]:
    """Every register (always_ff target) of every instance under the core: path -> value (register
    files and constant memories word by word). Fails if a register of an instantiated module is not
    found in the walk, so a new register cannot escape the check."""
    regs, insts = rtl_registers(), rtl_instances()
    vals: dict[str, int] = {}
    _walk(core, vals)
    out: dict[str, int] = {}
    seen: set[tuple[str, str]] = set()
    present: set[str] = set()
    for path, v in vals.items():
        parts = path[len(core._path) + 1:].split(".")
        mod = "pka_rns_core"
        for q in parts[:-1]:
            if q.startswith("u_"):
                mod = insts[(mod, re.sub(r"\[\d+\]$", "", q))]
        if mod != "pka_rns_core" or parts[0] == "g_mm":     # the core's own registers live in g_mm
            present.add(mod)
        name = re.sub(r"\[.*$", "", parts[-1])
        if name in regs[mod]:
            out[path] = v
            seen.add((mod, name))
    missing = {(m, r) for m in present for r in regs[m]} - seen
    assert not missing, f"registers of the RTL not found in the walk: {sorted(missing)}"
    assert len(out) > 300, f"the walk found only {len(out)} register words"
    return out


def _leaf(path: str) -> str:
    return re.sub(r"\[.*$", "", path.split(".")[-1])


@cocotb.test(skip=not FAULT_CHECK)
async def wipe_leaves_nothing_behind(dut):
    from pka.model import rns as model

    c = model.CURVES["small"]
    env = EngineEnv(dut, mem_aw=MEM_AW, stall_permille=200, seed=3)
    await env.start()
    k = random.Random(SEED).randrange(1, c.order)
    ref = model.affine_mul(c, k, (c.gx, c.gy))
    assert ref is not None
    if SBMM:
        _ctx_words_sb(env, k, c.gx)
    else:
        _ctx_words(env, k, c.gx, c.gy)
    st, cyc, io, _ = await env.command(Op.ECC_MUL, c.p.bit_length(), c.order.bit_length())
    assert st == Status.OK
    assert cyc == model.ecc_mul("small", k, {"w": W, "alg": "sbmm" if SBMM else "mm"}).cycles
    if SBMM:
        assert _read_x_sb(env) == ref[0]
    else:
        assert _read_point(env) == ref
    await ReadOnly()
    left = {p: v for p, v in read_registers(dut.u_core).items() if v}
    # without the wipe, secret-derived data stays inside: the scalar, the ladder state in the register
    # files, the pipeline; this is what the check below would find without OP_ZEROIZE
    assert any(_leaf(p) == "scal_q" and v == k for p, v in left.items()), "the scalar is not in scal_q"
    assert sum(_leaf(p) in ("rf_b_q", "rf_p_q", "rf_a_q", "rf_q") for p in left) > 100
    assert {_leaf(p) for p in left} - set(ALLOW), "nothing left behind: the check below could not fail"
    dut._log.info("after ECC_MUL, without a wipe: %d non-zero register words", len(left))
    await RisingEdge(dut.clk_i)

    mem = list(env.mem)
    st, cyc, io, wall = await env.command(Op.ZEROIZE, 0)
    assert (st, cyc, io) == (Status.OK, model.wipe_cycles(MAX_LEN, W, bool(SBMM)), 0)
    assert env.mem == mem                                     # no port access
    await ReadOnly()
    state = read_registers(dut.u_core)
    left = {p: v for p, v in state.items() if v and _leaf(p) not in ALLOW}
    assert not left, f"the wipe left {len(left)} words: " + ", ".join(
        f"{p} = {v:#x}" for p, v in sorted(left.items())[:12])
    dut._log.info("after the wipe: %d register words, all 0 but %s", len(state),
                  sorted({_leaf(p) for p, v in state.items() if v}))


@cocotb.test(skip=not FAULT_CHECK)
async def abort_then_wipe(dut):
    """Abort as pka_top does it: rst_ni held low in the middle of a secret ECC_MUL, then the wipe:
    the reset alone leaves the ladder state and the scalar (datapath registers have no reset); the
    wipe then clears every register but ALLOW."""
    from pka.model import rns as model

    c = model.CURVES["small"]
    env = EngineEnv(dut, mem_aw=MEM_AW)
    await env.start()
    k = random.Random(SEED + 2).randrange(1, c.order)
    if SBMM:
        _ctx_words_sb(env, k, c.gx)
    else:
        _ctx_words(env, k, c.gx, c.gy)
    d = dut
    d.cmd_op_i.value = int(Op.ECC_MUL)
    d.cmd_len_i.value = c.p.bit_length()
    d.cmd_elen_i.value = c.order.bit_length()
    d.cmd_arg_i.value = 0
    d.cmd_valid_i.value = 1
    await RisingEdge(d.clk_i)
    d.cmd_valid_i.value = 0
    for _ in range(6000):                     # well inside the ladder
        await RisingEdge(d.clk_i)
        assert not int(d.done_o.value)
    d.rst_ni.value = 0
    for _ in range(3):
        await RisingEdge(d.clk_i)
    d.rst_ni.value = 1
    await RisingEdge(d.clk_i)
    await ReadOnly()
    assert int(d.cmd_ready_o.value)
    left = {p: v for p, v in read_registers(dut.u_core).items() if v and _leaf(p) not in ALLOW}
    assert any(_leaf(p) == "scal_q" for p in left), "the reset alone should leave the scalar"
    await RisingEdge(d.clk_i)
    st, cyc, io, _ = await env.command(Op.ZEROIZE, 0)
    assert (st, cyc, io) == (Status.OK, model.wipe_cycles(MAX_LEN, W, bool(SBMM)), 0)
    await ReadOnly()
    left = {p: v for p, v in read_registers(dut.u_core).items() if v and _leaf(p) not in ALLOW}
    assert not left, f"the wipe after an abort left {len(left)} words: {sorted(left.items())[:12]}"


@cocotb.test(skip=bool(SBMM))     # the SBMM build's ECC_MUL is the unchecked x-only ladder
async def fault_is_detected(dut):
    from pka.model import rns as model

    c = model.CURVES["small"]
    env = EngineEnv(dut, mem_aw=MEM_AW)
    await env.start()
    words, entry = model.rom()
    ladder_map = entry["ecc"] + next(i for i, it in enumerate(model.PROGRAMS["ecc"]) if it.op == model.UOp.MAP)
    core = dut.u_core.g_mm
    rng = random.Random(SEED + 1)
    k = rng.randrange(1, c.order)
    ref = model.affine_mul(c, k, (c.gx, c.gy))
    for inject in (False, True):
        _ctx_words(env, k, c.gx, c.gy)
        state = {"done": False}

        async def injector() -> None:
            steps = 0
            while True:
                await RisingEdge(dut.clk_i)
                await ReadOnly()
                if int(core.pc_q.value) == ladder_map:
                    steps += 1
                    if steps == 20:       # the 20th ladder step: flip bit 3 of L1X's residue in rower 0
                        await RisingEdge(dut.clk_i)
                        reg = core.g_rower[0].u_rower.rf_b_q[model.L1X]
                        reg.value = int(reg.value) ^ 8
                        state["done"] = True
                        return

        if inject:
            cocotb.start_soon(injector())
        st, cyc, io, _ = await env.command(Op.ECC_MUL, c.p.bit_length(), c.order.bit_length())
        assert cyc == model.ecc_mul("small", k, {"w": W}).cycles
        if inject and FAULT_CHECK:
            assert state["done"] and st == Status.ERR_FAULT
            assert _read_point(env) == (0, 0)
        elif inject:                                 # the check removed: a wrong point is released
            x, y = _read_point(env)
            assert state["done"] and st == Status.OK and (x, y) != ref
            assert (y * y - x ** 3 - c.a * x - c.b) % c.p != 0
        else:
            assert st == Status.OK and _read_point(env) == ref


@cocotb.test(skip=bool(SBMM) or not FAULT_CHECK)     # the random Z is on the MM build
async def random_z_randomises_the_ladder(dut):
    from pka.model import rns as model

    c = model.CURVES["small"]
    ctx = model.mm_context(c.p, W)
    env = EngineEnv(dut, mem_aw=MEM_AW, stall_permille=100, seed=5)
    await env.start()
    rng = random.Random(SEED + 3)
    k = rng.randrange(1, c.order)
    ref = model.affine_mul(c, k, (c.gx, c.gy))
    kb, elen = model.blind_scalar(c, k, rng.getrandbits(64) | (1 << 63))
    assert elen == MAX_LEN + 64 and kb.bit_length() == elen
    ladder = (model.L0X, model.L0Z, model.L1X, model.L1Z)

    def ladder_state() -> tuple[int, ...]:
        core = dut.u_core.g_mm
        return tuple(int(core.g_rower[j].u_rower.rf_b_q[r].value) for j in range(ctx.n) for r in ladder) + \
            tuple(int(core.g_rower[j].u_rower.rf_p_q[r].value) for j in range(ctx.n) for r in ladder)

    states = []
    for z in (None, None, [rng.getrandbits(32) for _ in range(2 * ctx.n)],
              [rng.getrandbits(32) for _ in range(2 * ctx.n)]):
        _ctx_words(env, kb if z else k, c.gx, c.gy, z)
        st, cyc, io, _ = await env.command(Op.ECC_MUL, c.p.bit_length(), elen if z else c.order.bit_length(),
                                           model.ECC_RZ_ARG if z else 0)
        assert st == Status.OK and _read_point(env) == ref
        assert cyc == model.ecc_cycles(c, W, elen if z else None, random_z=z is not None)
        await ReadOnly()
        states.append(ladder_state())
        await RisingEdge(dut.clk_i)
    assert states[0] == states[1], "without the random Z the ladder state is a function of k"
    assert states[2] != states[3] and states[2] != states[0], "the random Z did not change the ladder state"
    st, cyc, io, _ = await env.command(Op.ZEROIZE, 0)
    assert st == Status.OK
    await ReadOnly()
    core = dut.u_core.g_mm
    for j in range(ctx.n):
        for r in ladder + (model.RZ,):
            assert int(core.g_rower[j].u_rower.rf_b_q[r].value) == int(core.g_rower[j].u_rower.rf_p_q[r].value) == 0


def _x25519_words(env: EngineEnv, ctx, k: int, u: int, z: list[int] | None) -> None:
    """The operand RAM of X25519's entry on the small curve: the scalar and u (`_ctx_words`), then
    ONE, CA, CB2, CM4B as residue vectors in SLOT_X1 (pka.model.rns.x25519_inputs)."""
    from pka.model import rns as model

    _ctx_words(env, k, u, 0, z)
    regs = model.x25519_inputs(u, ctx.m, model.CURVES["small"].p)
    for i, r in enumerate((model.ONE, model.CA, model.CB2, model.CM4B)):
        b, bp = ctx.to_rns(1 if r == model.ONE else regs[r])
        for j, v in enumerate(list(b) + list(bp)):
            env.mem[env.slot_addr(Slot.X1) + 2 * ctx.n * i + j] = v


@cocotb.test(skip=bool(SBMM))     # X25519's entry (ECC_MUL ARG[2]) is on the MM build
async def x25519_entry_loops_and_inverse_check(dut):
    """ECC_MUL with ARG[2] on this 64-bit build: the Montgomery ladder, the inversion chain's
    fixed-count loops, and the inverse check, which fails (ERR_UNSUPPORTED, zeros) since the chain
    inverts modulo 2^255 - 19 only; cycles and status equal the model's on both FaultCheck builds
    (the check is part of the program). ARG = 5 (x-only bit set: ecc_m) and 7 (ecc_mrz, the random Z)
    cover the other arms of the entry decode."""
    from pka.model import rns as model

    c = model.CURVES["small"]
    ctx = model.mm_context(c.p, W)
    env = EngineEnv(dut, mem_aw=MEM_AW)
    await env.start()
    rng = random.Random(SEED + 4)
    k, u, elen = rng.getrandbits(16) | 1 << 15, rng.randrange(2, c.p), 16
    for arg in (model.ECC_M_ARG, model.ECC_M_ARG | model.ECC_X_ARG,
                model.ECC_M_ARG | model.ECC_X_ARG | model.ECC_RZ_ARG):
        z = [rng.getrandbits(32) for _ in range(2 * ctx.n)] if arg & model.ECC_RZ_ARG else None
        _x25519_words(env, ctx, k, u, z)
        st, cyc, io, _ = await env.command(Op.ECC_MUL, c.p.bit_length(), elen, arg)
        _, mach = model.x25519_machine(k, u, W, elen, p=c.p, fault_check=bool(FAULT_CHECK), z_words=z)
        assert mach.status == Status.ERR_UNSUPPORTED and (st, cyc) == (mach.status, mach.cycles)
        assert _read_point(env) == (0, 0)
        await RisingEdge(dut.clk_i)


@cocotb.test(skip=bool(SBMM))     # X25519's entry (ECC_MUL ARG[2]) is on the MM build
async def fail_code_flip_is_caught(dut):
    """A FAIL's status lives one cycle in fcode_q, the one it decides in. X25519's inverse check ends
    this 64-bit build's ECC_MUL with ERR_UNSUPPORTED (code 8, one bit set); that bit flipped in its
    cycle would end the command with OK. With FaultCheck = 1 the sequencer takes an OK code there for a fault
    (ERR_FAULT, zeros); on the FaultCheck = 0 build the same flip ends with OK: the flip is real."""
    from pka.model import rns as model

    c = model.CURVES["small"]
    ctx = model.mm_context(c.p, W)
    env = EngineEnv(dut, mem_aw=MEM_AW)
    await env.start()
    _, entry = model.rom()
    fail_pc = entry["ecc_m"] + next(i for i, it in enumerate(model.PROGRAMS["ecc_m"])
                                    if it.op == model.UOp.FAIL and it.code == Status.ERR_UNSUPPORTED)
    core = dut.u_core.g_mm
    rng = random.Random(SEED + 6)
    k, u, elen = rng.getrandbits(16) | 1 << 15, rng.randrange(2, c.p), 16
    for inject in (False, True):
        _x25519_words(env, ctx, k, u, None)
        state = {"flipped": False}

        async def injector() -> None:
            while True:
                await RisingEdge(dut.clk_i)
                await ReadOnly()
                if int(core.state_q.value) == 0b010101 and int(core.pc_q.value) == fail_pc:   # Exec
                    await RisingEdge(dut.clk_i)
                    await Timer(1, "ns")                 # the FAIL decides now: its code in fcode_q
                    assert int(core.pend_q.value) == 3 and int(core.fcode_q.value) == Status.ERR_UNSUPPORTED
                    core.fcode_q.value = 0
                    state["flipped"] = True
                    return

        if inject:
            cocotb.start_soon(injector())
        st, cyc, io, _ = await env.command(Op.ECC_MUL, c.p.bit_length(), elen, model.ECC_M_ARG)
        _, mach = model.x25519_machine(k, u, W, elen, p=c.p, fault_check=bool(FAULT_CHECK))
        assert mach.status == Status.ERR_UNSUPPORTED and cyc == mach.cycles
        if not inject:
            assert st == Status.ERR_UNSUPPORTED and _read_point(env) == (0, 0)
        elif FAULT_CHECK:
            assert state["flipped"] and st == Status.ERR_FAULT and _read_point(env) == (0, 0)
        else:                                        # the check removed: the flip ends with OK
            assert state["flipped"] and st == Status.OK
        await RisingEdge(dut.clk_i)


@pytest.mark.rtl
@pytest.mark.parametrize("sbmm,fault_check", [(0, 1), (1, 1), (0, 0)])
def test_pka_rns_core(sbmm: int, fault_check: int) -> None:
    from pka.sim import fileset, run_cocotb
    # the tests each build skips (their skip= conditions above), asserted by run_cocotb
    skipped = {(0, 1): [], (1, 1): ["fault_is_detected", "random_z_randomises_the_ladder",
                                    "x25519_entry_loops_and_inverse_check", "fail_code_flip_is_caught"],
               (0, 0): ["wipe_leaves_nothing_behind", "abort_then_wipe", "random_z_randomises_the_ladder"]}
    run_cocotb("pka_rns_core", fileset("rns"), "test_pka_rns_core", Path(__file__).parent,
               params={"MaxLen": MAX_LEN, "W": W, "MemAw": MEM_AW, "Sbmm": sbmm, "FaultCheck": fault_check},
               engine=True, extra_env={"PKA_RNS_SBMM": str(sbmm), "PKA_RNS_FAULT_CHECK": str(fault_check)},
               skipped=skipped[(sbmm, fault_check)])
