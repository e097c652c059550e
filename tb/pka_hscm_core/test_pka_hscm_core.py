"""cocotb test of pka_hscm_core's wipe (OP_ZEROIZE): after a secret operation (RSA_CRT, MODEXP_CT)
and the wipe, every register and every memory word inside the core is 0, except the allowlist below.

Which signals are registers is read from the RTL itself: every target of a non-blocking assignment
in an always_ff block of rtl/engines/hscm/*.sv, per module; every instance under the core is found
by walking the design hierarchy through cocotb handles (each instance's module is known from the
instantiations in the same sources), and every register of its module must be found there (so a
new register cannot escape the check). Memories (the operand RAMs, the N RAMs, the FIFOs' storage)
are registers too (mem_q) and are read word by word.

The control: the same walk after an RSA_CRT without the wipe finds data left behind - the prime p
read back from HSCM 0's operand RAM (entry MOD) - so the check can fail.  A blinded RSA_CRT
(X = 64 extra exponent bits) is wiped the same way.
Small build: MaxLen 256, w 16, 2 PEs (two HSCMs of one PE), MaxWindow 3."""

from __future__ import annotations

import os
import random
import re
import sys
from math import gcd
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import ReadOnly, RisingEdge

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common.cocotb_env import EngineEnv  # noqa: E402

from pka.regs import Op, Slot  # noqa: E402  (generated from data/pka.rdl)

RTL = Path(__file__).resolve().parents[2] / "rtl" / "engines" / "hscm"
MAX_LEN, MEM_AW, W, PES, MAX_WINDOW = 256, 8, 16, 2, 3
PARAMS = {"MaxLen": MAX_LEN, "MemAw": MEM_AW, "W": W, "Pes": PES, "MaxWindow": MAX_WINDOW}
#: the digit bits k of the build under test (W, or 2W: the second quotient field, the sequencer's
#: k = 2w registers and the wider reduction unit hold data too); set per run by test_pka_hscm_core
K = int(os.environ.get("PKA_HSCM_WIPE_K", str(W)))
KEY_BITS = 128 if K == W else 160     # CRT primes of at least 2k + 4 bits

#: registers of pka_hscm_core allowed to be non-zero after the wipe, each with its reason
ALLOW = {
    "cyc_q": "the wipe's own cycle count, reported on the port as cycles (public)",
    "op_q": "the last command's opcode, OP_ZEROIZE (public)",
    "wiped_q": "the flag 'idle after a wipe' (1) that holds every unit at 0 until the next command",
}


# ---- the RTL's registers and instances ---------------------------------------------------------

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
    """module -> the names assigned with <= in its always_ff blocks."""
    regs: dict[str, set[str]] = {}
    for f in sorted(RTL.glob("pka_hscm_*.sv")):
        text = f.read_text()
        mod = re.search(r"^module\s+(\w+)", text, re.M)
        if not mod:
            continue
        names = set()
        for body in _always_ff_blocks(text):
            names |= set(re.findall(r"(\w+)\s*(?:\[[^\]]*\]\s*)*<=", body))
        regs[mod.group(1)] = names
    return regs


def rtl_instances() -> dict[str, str]:
    """instance name -> module, from the instantiations in the hscm sources."""
    inst: dict[str, str] = {}
    for f in RTL.glob("pka_hscm_*.sv"):
        for mod, name in re.findall(r"^\s*(pka_hscm_\w+)\s+#\(.*?\)\s+(u_\w+)\s*\(", f.read_text(),
                                    re.M | re.S):
            inst[name] = mod
    return inst


def _value(h) -> int:
    v = h.value
    return int(v) if hasattr(v, "__int__") else int(str(v), 2)


def read_state(core) -> tuple[dict[str, int], dict[str, int]]:
    """Every register of every instance under (and including) the core: path -> value (memories
    word by word), and instance path -> module.  Fails if a register of the RTL is not found."""
    regs, insts = rtl_registers(), rtl_instances()
    found: dict[str, str] = {core._path: "pka_hscm_core"}

    def scopes(h) -> None:
        for c in h:
            kind = type(c).__name__
            if kind == "HierarchyArrayObject" or (kind == "HierarchyObject" and not c._name.startswith("u_")):
                scopes(c)                      # generate blocks (g_hscm[r], g_pe[p]), unnamed blocks
            elif kind == "HierarchyObject":
                assert c._name in insts, f"instance {c._path} of an unknown module"
                found[c._path] = insts[c._name]
                scopes(c)

    scopes(core)
    state: dict[str, int] = {}
    for path, mod in found.items():
        scope = core if path == core._path else _resolve(core, path)
        for name in sorted(regs[mod]):
            h = scope._id(name, extended=False)
            if type(h).__name__ == "ArrayObject":
                for i, e in enumerate(h):
                    state[f"{path}.{name}[{i}]"] = _value(e)
            else:
                state[f"{path}.{name}"] = _value(h)
    return state, found


def _resolve(core, path: str):
    h = core
    for part in path[len(core._path) + 1:].split("."):
        m = re.fullmatch(r"(\w+)\[(\d+)\]", part)
        h = h._id(m.group(1), extended=False)[int(m.group(2))] if m else h._id(part, extended=False)
    return h


def left_behind(state: dict[str, int], core_path: str) -> dict[str, int]:
    allowed = {f"{core_path}.{n}" for n in ALLOW}
    return {p: v for p, v in state.items() if v and p.split("[")[0] not in allowed}


def assert_wiped(core) -> int:
    state, _ = read_state(core)
    leak = left_behind(state, core._path)
    assert not leak, "left behind after the wipe: " + ", ".join(
        f"{p} = {v:#x}" for p, v in sorted(leak.items())[:12]) + (" ..." if len(leak) > 12 else "")
    return len(state)


def entry_value(state: dict[str, int], ram: str, ent: int, ew: int) -> int:
    return sum(state[f"{ram}.mem_q[{ent * ew + j}]"] << (W * j) for j in range(ew))


# ---- the test ---------------------------------------------------------------------------------

def crt_key(rng: random.Random, bits: int):
    import gmpy2

    from pka.model.common import CrtKey

    def prime(b: int) -> int:
        while True:
            x = rng.getrandbits(b) | (3 << (b - 2)) | 1
            if gmpy2.is_prime(x):
                return x
    while True:
        p, q = prime(bits // 2), prime(bits // 2)
        if p != q and gmpy2.gcd(65537, (p - 1) * (q - 1)) == 1:
            return CrtKey.from_pq(p, q)


async def rsa_crt(env: EngineEnv, key, m: int, window: int, xbits: int = 0) -> None:
    """RSA_CRT; xbits > 0: blinded exponents d_p + r_p (p-1), d_q + r_q (q-1), r < 2^xbits."""
    from pka.model import hscm as M
    from pka.model.common import CrtKey
    rng = random.Random(m)
    rp, rq = rng.getrandbits(xbits) if xbits else 0, rng.getrandbits(xbits) if xbits else 0
    bk = CrtKey(key.n, key.e, key.d, key.p, key.q, key.dp + rp * (key.p - 1), key.dq + rq * (key.q - 1),
                key.qinv, key.pinv)
    for slot, v in ((Slot.N, key.n), (Slot.A, m), (Slot.P, key.p), (Slot.Q, key.q), (Slot.DP, bk.dp),
                    (Slot.DQ, bk.dq), (Slot.QINV, key.qinv), (Slot.X2, key.pinv),
                    (Slot.X0, M.r3(key.p, K)), (Slot.X1, M.r3(key.q, K))):
        env.write_int(env.slot_addr(slot), v, 8)
    np_, nq = key.p.bit_length(), key.q.bit_length()
    st, cyc, _io, _ = await env.command(Op.RSA_CRT, key.n.bit_length(), np_,
                                        nq | (window << 16) | (xbits << 24))
    ref = M.rsa_crt(m, bk, {"pes": PES, "w": W, "k": K, "window": window, "ladder": 0}, xbits=xbits)
    assert st == 0
    assert env.read_int(env.slot_addr(Slot.R), -(-key.n.bit_length() // 32)) == pow(m, key.d, key.n) == ref.result
    assert cyc == ref.cycles


async def modexp_ct(env: EngineEnv, base: int, e: int, mod: int, elen: int) -> None:
    from pka.model import hscm as M
    for slot, v in ((Slot.N, mod), (Slot.A, base), (Slot.W, M.r2(mod, K)), (Slot.E, e)):
        env.write_int(env.slot_addr(slot), v, 8)
    st, cyc, _io, _ = await env.command(Op.MODEXP_CT, mod.bit_length(), elen)
    ref = M.modexp(base, e, mod, {"pes": PES, "w": W, "k": K, "window": 0, "ladder": 1}, elen)
    assert st == 0
    assert env.read_int(env.slot_addr(Slot.R), 4) == pow(base, e, mod) == ref.result
    assert cyc == ref.cycles


async def wipe(env: EngineEnv) -> None:
    """OP_ZEROIZE: done with ST_OK, cycles = the model's, io_cycles = 0, no port request."""
    from pka.model import hscm as M
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
    assert cyc == M.wipe_cycles(MAX_LEN, W, MAX_WINDOW, K)
    for _ in range(4):                     # a few idle cycles: nothing may come back
        await RisingEdge(dut.clk_i)


@cocotb.test()
async def wipe_after_secret_operations(dut):
    rng = random.Random(13)
    core = dut.u_core
    ew = int(core.Ew.value)
    env = EngineEnv(dut, mem_aw=MEM_AW, stall_permille=200, seed=3)
    await env.start()

    # without the wipe: the RSA_CRT's data is still inside (the control)
    key = crt_key(rng, KEY_BITS)
    await rsa_crt(env, key, rng.randrange(key.n), window=3)
    for _ in range(4):
        await RisingEdge(dut.clk_i)
    state, insts = read_state(core)
    mods = sorted(insts.values())
    assert mods.count("pka_hscm_pe") == PES and mods.count("pka_hscm_fifo") == 2
    assert mods.count("pka_hscm_ram") == 4 and mods.count("pka_hscm_seq") == 2
    leak = left_behind(state, core._path)
    ram0 = f"{core._path}.g_hscm[0].u_ram"
    assert entry_value(state, ram0, 4, ew) == key.p          # ENT_MOD of HSCM 0: the prime p
    assert gcd(entry_value(state, ram0, 4, ew), key.n) == key.p
    dut._log.info(f"without the wipe: {len(leak)} of {len(state)} register bits/words non-zero, "
                  f"p in {ram0} (entry MOD)")

    # RSA_CRT, then the wipe: nothing left but the allowlist
    await wipe(env)
    checked = assert_wiped(core)
    dut._log.info(f"after RSA_CRT + OP_ZEROIZE: {checked} registers and memory words checked, "
                  "all zero but " + ", ".join(sorted(ALLOW)))

    # MODEXP_CT with a secret exponent, then the wipe
    n = 100
    mod = rng.getrandbits(n) | 1 | (1 << (n - 1))
    await modexp_ct(env, rng.randrange(mod), rng.getrandbits(n), mod, n)
    assert left_behind(read_state(core)[0], core._path) != {}
    await wipe(env)
    assert_wiped(core)

    # the engine works after a wipe (and the wiped state ends with the next command)
    key = crt_key(rng, KEY_BITS)
    await rsa_crt(env, key, rng.randrange(key.n), window=2)
    await wipe(env)
    assert_wiped(core)

    # a blinded RSA_CRT (X = 64: exponents of bits + 64 bits, the lengths in lpx_q/lqx_q), then
    # the wipe
    key = crt_key(rng, KEY_BITS)
    await rsa_crt(env, key, rng.randrange(key.n), window=3, xbits=64)
    assert left_behind(read_state(core)[0], core._path) != {}
    await wipe(env)
    assert_wiped(core)


def test_register_parse_sees_the_datapath() -> None:
    """The parse of the RTL finds the registers that hold secrets (no cocotb needed)."""
    regs = rtl_registers()
    assert {"e_q", "d_q", "dig_q"} <= regs["pka_hscm_prog"]
    assert {"mem_q", "rda_q"} <= regs["pka_hscm_ram"]
    assert {"o1_q", "pn_q", "qi_q", "b_q"} <= regs["pka_hscm_pe"]
    assert {"mu_q", "q1_q", "xw_q"} <= regs["pka_hscm_redc"]
    assert {"mem_q", "hd_q"} <= regs["pka_hscm_fifo"]
    assert {"buf_q", "sw_q"} <= regs["pka_hscm_io"]
    assert {"cur_q", "ia_q", "wd_q"} <= regs["pka_hscm_seq"]
    assert set(ALLOW) <= regs["pka_hscm_core"]
    assert set(rtl_instances().values()) == set(regs) - {"pka_hscm_core"}


@pytest.mark.rtl
@pytest.mark.parametrize("k", [W, 2 * W])
def test_pka_hscm_core(k: int) -> None:
    from pka.sim import fileset, run_cocotb
    run_cocotb("pka_hscm_core", fileset("hscm"), "test_pka_hscm_core", Path(__file__).parent,
               params={**PARAMS, **({"K": k} if k != W else {})}, engine=True,
               extra_env={"PKA_HSCM_WIPE_K": str(k)})
