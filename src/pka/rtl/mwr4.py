"""RTL driver of mwr4 (rtl/engines/mwr4/): the same montmul/modmul/modexp/modexp_ct as pka.model.mwr4,
on Verilator, and the wipe (OP_ZEROIZE).

Build parameters: Radix, NS, W from the engine parameters; MaxLen = the smallest of 64, 128, ...,
4096 bits that holds the modulus and the exponent (so operations of similar size share a build);
MemAw for 16 slots of max(8, MaxLen/32) words. One Harness per build is kept for the process.

The host writes N, A (B), E and W = R^2 mod N (R = 2^(k D), pka.model.mwr4.geometry) into their
slots; the engine checks the modulus and operand ranges itself (same status codes as the model).
`toggles()` runs a product on a build with the toggle counters (ToggleCnt = 1) and returns them.
"""

from __future__ import annotations

import atexit
from dataclasses import dataclass
from typing import Callable, Mapping

from pka.errors import PkaError, Status
from pka.model import mwr4 as model
from pka.model.common import OpResult, r2_mod
from pka.sim import CmdResult, Design, Harness, Op, Slot, fileset
from pka.sim import build

Progress = Callable[[int], None] | None
MAX_LENS = (64, 128, 256, 512, 1024, 2048, 4096)
TOGGLE_NAMES = ("sel", "en", "net", "reg", "kernel_cycles")

_HARNESSES: dict[tuple[tuple[str, int], ...], Harness] = {}


def overhead(op: int, length: int, elen: int, arg: int, status: int, params: Mapping[str, int]) -> int:
    """Cycles from the command's acceptance to done that neither cycles_o nor io_cycles_o counts:
    wall = cycles + io_cycles + overhead, checked on every command by pka.sim.Harness.command.

    1 for every op, length and status: the accepting cycle (Idle with cmd_valid: the decode and
    the length checks, the counters cleared). After it Load, Drain, Check, Store and TogStore
    count each cycle in io_cycles (stalled grants included), PSetup, PRun and Wipe in cycles; a
    status found in Check leaves from that counted cycle. Done (done_o high) is after the count."""
    return 1


def max_len(bits: int) -> int:
    """The build size for operands of `bits` bits."""
    for m in MAX_LENS:
        if bits <= m:
            return m
    raise PkaError(Status.ERR_LENGTH, f"mwr4: {bits} bits above the largest build ({MAX_LENS[-1]})")


def mem_aw(maxlen: int) -> int:
    words = max(8, maxlen // 32)
    return 4 + (words - 1).bit_length()


def design(cfg: model.Config, maxlen: int, toggle: bool = False, lp_coding: int = 1,
           lp_freeze: int = 1, lp_glitch: int = 0, lp_isolate: int = 0) -> Design:
    aw = mem_aw(maxlen)
    params = {"MaxLen": maxlen, "MemAw": aw, "Radix": cfg.radix, "NS": cfg.ns, "W": cfg.w,
              "LpCoding": lp_coding, "LpFreeze": lp_freeze, "ToggleCnt": int(toggle)}
    if lp_glitch:       # the glitch blockers' build (latches; the default build has none)
        params["LpGlitch"] = lp_glitch
    if lp_isolate:      # operand isolation (the default build has none)
        params["LpIsolate"] = lp_isolate
    return Design("pka_mwr4_core", fileset("mwr4"), params, mem_aw=aw)


def harness(d: Design) -> Harness:
    key = tuple(sorted(d.params.items()))
    h = _HARNESSES.get(key)
    if h is None or h.proc.poll() is not None:
        build(d)
        h = Harness(d)
        _HARNESSES[key] = h
    return h


@atexit.register
def close_all() -> None:
    for h in _HARNESSES.values():
        h.close()
    _HARNESSES.clear()


@dataclass(frozen=True)
class Run:
    result: int
    cmd: CmdResult
    toggles: dict[str, int] | None


def _host_checks(mod: int, operands: tuple[int, ...], exp: int | None) -> int:
    """What cannot reach the hardware, in the model's order; returns the modulus length."""
    if mod <= 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "modulus must be positive")
    if exp is not None and exp < 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "exponent must be non-negative")
    if any(v < 0 for v in operands):
        raise PkaError(Status.ERR_OPERAND_RANGE, "operands must be non-negative")
    n = mod.bit_length()
    if n > model.MAX_BITS or (exp is not None and exp.bit_length() > model.MAX_BITS):
        raise PkaError(Status.ERR_LENGTH, f"mwr4: operands above the engine maximum {model.MAX_BITS} bits")
    words = -(-n // 32)
    if any(v >> (32 * words) for v in operands):  # would not fit the words the engine reads
        if mod % 2 == 0:
            raise PkaError(Status.ERR_EVEN_MODULUS, "modulus must be odd")
        raise PkaError(Status.ERR_OPERAND_RANGE, "operand out of range [0, modulus)")
    return n


def run(op: Op, n: int, slots: dict[Slot, int], cfg: model.Config, elen: int = 0, arg: int = 0,
        toggle: bool = False, lp: tuple[int, int] = (1, 1), stall: int = 0, budget: int = 0,
        progress: Progress = None, maxlen: int = 0, glitch: int = 0, isolate: int = 0) -> Run:
    """One command on the build for (cfg, size) (or a larger build `maxlen`: n is a runtime input);
    raises PkaError with the engine's status."""
    d = design(cfg, maxlen or max_len(max(n, elen, 1)), toggle, lp_coding=lp[0], lp_freeze=lp[1], lp_glitch=glitch,
               lp_isolate=isolate)
    h = harness(d)
    h.stall(stall, seed=stall + 1)
    sw = d.slot_words
    for slot, value in slots.items():
        h.write_slot(slot, value, sw)
    res = h.command(op, n, elen, arg, max_cycles=budget or 50_000_000, progress=progress)
    if res.status != Status.OK:
        raise PkaError(Status(res.status), f"mwr4 engine: {Status(res.status).name}")
    result = h.read_slot(Slot.R, -(-n // 32))
    tog = None
    if toggle:
        words = h.read(d.slot_addr(Slot.X2), len(TOGGLE_NAMES))
        tog = dict(zip(TOGGLE_NAMES, words))
    return Run(result, res, tog)


def _budget(n: int, cfg: model.Config, products: int) -> int:
    return products * model.product_cycles(n, cfg) + 64 * (n // 8 + 8) + 10_000


def montmul(a: int, b: int, mod: int, params: Mapping[str, int | str], progress: Progress = None,
            stall: int = 0) -> OpResult:
    """A*B*R^-1 mod N (R = 2^(k D)) by OP_MONTMUL; cycles = cycles_o."""
    cfg = model.config(params)
    n = _host_checks(mod, (a, b), None)
    r = run(Op.MONTMUL, n, {Slot.N: mod, Slot.A: a, Slot.B: b}, cfg, stall=stall,
            budget=_budget(n, cfg, 1), progress=progress)
    return OpResult(r.result, r.cmd.cycles, r.cmd.io_cycles, {"total_cycles": r.cmd.cycles})


def modmul(a: int, b: int, mod: int, params: Mapping[str, int | str], progress: Progress = None,
           stall: int = 0) -> OpResult:
    """a*b mod N by OP_MODMUL; cycles = one product (measured with OP_MONTMUL on the same operands),
    detail["total_cycles"] = cycles_o of OP_MODMUL."""
    cfg = model.config(params)
    n = _host_checks(mod, (a, b), None)
    w2 = r2_mod(mod, model.geometry(n, cfg).r_bits) if mod % 2 and mod > 1 else 0
    r = run(Op.MODMUL, n, {Slot.N: mod, Slot.A: a, Slot.B: b, Slot.W: w2}, cfg, stall=stall,
            budget=_budget(n, cfg, 2), progress=progress)
    one = run(Op.MONTMUL, n, {Slot.N: mod, Slot.A: a, Slot.B: b}, cfg, budget=_budget(n, cfg, 1))
    detail = {"total_cycles": r.cmd.cycles, "product_cycles": one.cmd.cycles, "products": 2}
    return OpResult(r.result, one.cmd.cycles, r.cmd.io_cycles, detail)


def modexp(base: int, exp: int, mod: int, params: Mapping[str, int | str], progress: Progress = None,
           stall: int = 0) -> OpResult:
    """base^exp mod N by OP_MODEXP; cycles = cycles_o (all products)."""
    cfg = model.config(params)
    n = _host_checks(mod, (base,), exp)
    w2 = r2_mod(mod, model.geometry(n, cfg).r_bits) if mod % 2 and mod > 1 else 0
    elen = exp.bit_length()
    products = model.modexp_products(exp)
    r = run(Op.MODEXP, n, {Slot.N: mod, Slot.A: base, Slot.W: w2, Slot.E: exp}, cfg, elen=elen,
            stall=stall, budget=_budget(n, cfg, products), progress=progress)
    detail = {"total_cycles": r.cmd.cycles, "products": products,
              "product_cycles": r.cmd.cycles // products}
    return OpResult(r.result, r.cmd.cycles, r.cmd.io_cycles, detail)


def modexp_ct(base: int, exp: int, mod: int, params: Mapping[str, int | str], progress: Progress = None,
              stall: int = 0, elen: int | None = None, maxlen: int = 0) -> OpResult:
    """base^exp mod N by OP_MODEXP_CT: the ladder over exactly `elen` bits of exp (default: the
    modulus length, the length to give a secret exponent); cycles = cycles_o, a function of
    (n, elen) only. `maxlen` runs it on a larger build (n and elen are runtime inputs)."""
    cfg = model.config(params)
    if elen is None:
        elen = max(mod, 0).bit_length()
    if mod <= 0 or exp < 0 or base < 0:
        return model.modexp_ct(base, exp, mod, params, elen)    # raises the model's error
    n = mod.bit_length()
    if n > model.MAX_BITS or not 0 <= elen <= model.MAX_BITS:
        raise PkaError(Status.ERR_LENGTH, f"mwr4: lengths ({n}, {elen}) above the engine maximum {model.MAX_BITS}")
    if base >> (32 * -(-n // 32)) or exp >> (32 * -(-elen // 32)):   # beyond the words the engine reads
        if mod % 2 == 0:
            raise PkaError(Status.ERR_EVEN_MODULUS, "modulus must be odd")
        raise PkaError(Status.ERR_OPERAND_RANGE, "operand out of range")
    w2 = r2_mod(mod, model.geometry(n, cfg).r_bits) if mod % 2 and mod > 1 else 0
    products = model.modexp_ct_products(elen)
    r = run(Op.MODEXP_CT, n, {Slot.N: mod, Slot.A: base, Slot.W: w2, Slot.E: exp}, cfg, elen=elen,
            stall=stall, budget=_budget(n, cfg, products), progress=progress, maxlen=maxlen)
    detail = {"total_cycles": r.cmd.cycles, "products": products, "elen": elen,
              "product_cycles": r.cmd.cycles // products}
    return OpResult(r.result, r.cmd.cycles, r.cmd.io_cycles, detail)


def wipe(params: Mapping[str, int | str], maxlen: int = 64) -> OpResult:
    """OP_ZEROIZE on the build of `maxlen` bits (and params' radix, ns, w): every register of the
    engine cleared; result 0, cycles = cycles_o (pka.model.mwr4.wipe_cycles()), io_cycles."""
    cfg = model.config(params)
    h = harness(design(cfg, maxlen))
    res = h.command(Op.ZEROIZE, 0, 0, 0, max_cycles=1000)
    if res.status != Status.OK:
        raise PkaError(Status(res.status), f"mwr4 engine: {Status(res.status).name}")
    return OpResult(0, res.cycles, res.io_cycles, {"total_cycles": res.cycles})


def toggles(a: int, b: int, mod: int, params: Mapping[str, int | str], freeze: bool = True,
            coding: bool = True, maxlen: int = 0) -> dict[str, int]:
    """Toggle counts of one OP_MONTMUL on the ToggleCnt build, with each technique on or off
    (runtime bits of cmd_arg on a build that has both techniques)."""
    cfg = model.config(params)
    n = _host_checks(mod, (a, b), None)
    arg = (0 if freeze else 1) | (0 if coding else 2)
    r = run(Op.MONTMUL, n, {Slot.N: mod, Slot.A: a, Slot.B: b}, cfg, arg=arg, toggle=True,
            budget=_budget(n, cfg, 1), maxlen=maxlen)
    assert r.toggles is not None
    return r.toggles
