"""RTL driver of csa2 (rtl/engines/csa2/): the same modexp/modexp_ct/modmul as pka.model.csa2, on
Verilator, and the wipe (OP_ZEROIZE).

Build parameters: MaxLen = L (the `l` parameter, or the smallest power of two >= max(K, H, 32)),
ChunkW = 1 for variant=paper (the paper's bit-serial carry-propagate waves and cycle count) or
pka.model.csa2.CHUNK_W = 32 for variant=fast. One Harness per build is kept for the process.

The host writes N, A (B), E and W = (2^(K+2))^2 mod N (the paper's precomputed constant) into
their slots; the engine checks the modulus and operand ranges itself (status codes as the model).
"""

from __future__ import annotations

import atexit
from typing import Any, Callable, Mapping

from pka.errors import PkaError, Status
from pka.model import csa2 as model
from pka.model.common import OpResult, r2_mod
from pka.sim import Design, Harness, Op, Slot, fileset
from pka.sim import build

Progress = Callable[[int], None] | None

_HARNESSES: dict[tuple[int, int], Harness] = {}


def overhead(op: int, length: int, elen: int, arg: int, status: int, params: Mapping[str, int]) -> int:
    """Cycles from the command's acceptance to done that neither cycles_o nor io_cycles_o counts:
    wall = cycles + io_cycles + overhead, checked on every command by pka.sim.Harness.command.

    1 for every op, length and status: the accepting cycle (Idle with cmd_valid: the decode, the
    counters cleared, the array's clr). Every state after it counts each of its cycles once: Load,
    Check, Cmp, Store and Zero in io_cycles (every cycle, a stalled grant or an outstanding read
    included), Pre, Pad, Loop, Cpa and Wipe in cycles; errors found at the decode go straight to
    Done, those of Check leave from a counted cycle. Done (done_o high) is after the count."""
    return 1


def mem_aw(l: int) -> int:
    """Address width for 16 slots of at least max(8, L/32) words."""
    words = max(8, l // 32)
    return 4 + (words - 1).bit_length()


def chunk_w(variant: str) -> int:
    return 1 if variant == "paper" else model.CHUNK_W


def design(l: int, variant: str) -> Design:
    aw = mem_aw(l)
    return Design("pka_csa2_core", fileset("csa2"), {"MaxLen": l, "MemAw": aw, "ChunkW": chunk_w(variant)},
                  mem_aw=aw)


def harness(l: int, variant: str) -> Harness:
    key = (l, chunk_w(variant))
    h = _HARNESSES.get(key)
    if h is None or h.proc.poll() is not None:
        d = design(l, variant)
        build(d)
        h = Harness(d)
        _HARNESSES[key] = h
    return h


@atexit.register
def close_all() -> None:
    for h in _HARNESSES.values():
        h.close()
    _HARNESSES.clear()


def _setup(mod: int, exp_bits: int, params: Mapping[str, Any]) -> tuple[str, int, int]:
    """Host-side checks for what cannot reach the hardware (sizes, parameters); returns variant, K, L."""
    variant = str(params.get("variant", "paper"))
    if variant not in model.VARIANTS:
        raise PkaError(Status.ERR_PARAM, f"csa2: variant={variant} not supported (paper, fast)")
    if mod < 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "modulus must be positive")
    k = mod.bit_length()
    l = model.array_len(k, exp_bits, int(params.get("l", 0)))
    if k > l or exp_bits > l or l > model.MAX_L:
        raise PkaError(Status.ERR_LENGTH, f"csa2: modulus of {k} bits / exponent of {exp_bits} bits exceed the array")
    return variant, k, l


def _words(bits: int) -> int:
    return max(1, -(-bits // 32))


def _run(op: Op, k: int, h_bits: int, l: int, variant: str, slots: dict[Slot, int],
         progress: Progress) -> tuple[int, int, int]:
    h = harness(l, variant)
    sw = h.design.slot_words
    for slot, value in slots.items():
        if value < 0 or value >> (32 * sw):
            raise PkaError(Status.ERR_OPERAND_RANGE, f"{slot.name} does not fit the operand slot")
        h.write_slot(slot, value, sw)
    budget = model.exp_cycles(max(k, 3), h_bits, variant) + 64 * sw + 1000
    res = h.command(op, k, h_bits, 0, max_cycles=budget, progress=progress)
    if res.status != Status.OK:
        raise PkaError(Status(res.status), f"csa2 engine: {Status(res.status).name}")
    return h.read_slot(Slot.R, _words(k)), res.cycles, res.io_cycles


def _w(mod: int, k: int) -> int:
    return r2_mod(mod, k + 2) if mod % 2 and k >= 1 else 0


def modexp(base: int, exp: int, mod: int, params: Mapping[str, Any], progress: Progress = None) -> OpResult:
    """base^exp mod mod on the RTL; cycles = cycles_o of the engine."""
    if exp < 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "exponent must be >= 0")
    hb = exp.bit_length()
    variant, k, l = _setup(mod, hb, params)
    slots = {Slot.N: mod, Slot.A: base, Slot.E: exp, Slot.W: _w(mod, k)}
    result, cycles, io = _run(Op.MODEXP, k, hb, l, variant, slots, progress)
    detail = {"k": k, "h": hb, "l": l, "variant": variant, "rounds": hb + 2, "total_cycles": cycles,
              "product_cycles": model.product_cycles(k, variant), "pre_cycles": model.pre_cycles(k, variant)}
    return OpResult(result, cycles, io, detail)


def modexp_ct(base: int, exp: int, mod: int, params: Mapping[str, Any], elen: int | None = None,
              progress: Progress = None) -> OpResult:
    """base^exp mod N by OP_MODEXP_CT (the ladder over exactly `elen` bits; default: the modulus
    length, the length to give a secret exponent); cycles = cycles_o, a function of (K, elen)."""
    if elen is None:
        elen = max(mod, 0).bit_length()
    if exp < 0 or elen < 0:
        return model.modexp_ct(base, exp, mod, params, elen)      # raises the model's error
    variant, k, l = _setup(mod, elen, params)
    if exp >> elen:                                                # the engine drops these bits
        return model.modexp_ct(base, exp, mod, params, elen)
    slots = {Slot.N: mod, Slot.A: base, Slot.E: exp, Slot.W: _w(mod, k)}
    result, cycles, io = _run(Op.MODEXP_CT, k, elen, l, variant, slots, progress)
    detail = {"k": k, "h": elen, "elen": elen, "l": l, "variant": variant, "rounds": elen + 2,
              "total_cycles": cycles, "product_cycles": model.product_cycles(k, variant),
              "pre_cycles": model.pre_cycles(k, variant)}
    return OpResult(result, cycles, io, detail)


def wipe(params: Mapping[str, Any], l: int = 32) -> OpResult:
    """OP_ZEROIZE on the build of array size `l` (and params' variant): every register cleared;
    cycles = pka.model.csa2.wipe_cycles(), io_cycles = 0."""
    variant = str(params.get("variant", "paper"))
    if variant not in model.VARIANTS:
        raise PkaError(Status.ERR_PARAM, f"csa2: variant={variant} not supported (paper, fast)")
    h = harness(l, variant)
    res = h.command(Op.ZEROIZE, 0, 0, 0, max_cycles=100)
    if res.status != Status.OK:
        raise PkaError(Status(res.status), f"csa2 engine: {Status(res.status).name}")
    return OpResult(0, res.cycles, res.io_cycles, {"total_cycles": res.cycles})


def modmul(a: int, b: int, mod: int, params: Mapping[str, Any], progress: Progress = None) -> OpResult:
    """a*b mod N on the RTL (three rounds). cycles = one round, derived from the hardware's
    cycles_o as (cycles_o - pre) / 3; detail["total_cycles"] = cycles_o."""
    variant, k, l = _setup(mod, 1, params)
    slots = {Slot.N: mod, Slot.A: a, Slot.B: b, Slot.W: _w(mod, k)}
    result, cycles, io = _run(Op.MODMUL, k, 1, l, variant, slots, progress)
    per_round, rest = divmod(cycles - model.pre_cycles(k, variant), 3)
    if rest:
        raise RuntimeError(f"csa2 modmul: {cycles} cycles is not pre + 3 equal rounds")
    detail = {"k": k, "h": 1, "l": l, "variant": variant, "rounds": 3, "total_cycles": cycles,
              "product_cycles": per_round, "pre_cycles": model.pre_cycles(k, variant)}
    return OpResult(result, per_round, io, detail)
