"""RTL driver of victor (rtl/engines/victor/): the same modexp/modexp_ct/modmul as pka.model.victor, on
Verilator, and the wipe (OP_ZEROIZE).

Build parameters: MaxLen = the smallest power of two >= max(n, h, 128) (pka.model.victor.build_len,
so a 64-bit and a 128-bit operation share one build), K, Delta, Eps from the engine parameters
k, delta, eps (checked by the model's rules first: an illegal combination never reaches a build).
One Harness per build is kept for the process.

The host writes only N, A, B / E: the engine computes the bits of 1/N it needs (Y) itself, and
checks the modulus, the length and the operand ranges (status codes as the model's).
"""

from __future__ import annotations

import atexit
from typing import Any, Callable, Mapping

from pka.errors import PkaError, Status
from pka.model import victor as model
from pka.model.common import OpResult
from pka.sim import CmdResult, Design, Harness, Op, Slot, fileset
from pka.sim import build

Progress = Callable[[int], None] | None

_HARNESSES: dict[tuple[int, int, int, int], Harness] = {}


def overhead(op: int, length: int, elen: int, arg: int, status: int, params: Mapping[str, int]) -> int:
    """Cycles from the command's acceptance to done that neither cycles_o nor io_cycles_o counts:
    wall = cycles + io_cycles + overhead, checked on every command by pka.sim.Harness.command.

    1 for every op, length and status: the accepting cycle (Idle with cmd_valid: the decode and
    the length checks, the counters cleared, the division for n' started). After it Load and
    Store count each cycle in io_cycles (stalled grants included), Check, Recip, Loop, Drain,
    Reduce and Wipe in cycles (the paper counts the range check and the reciprocal as compute);
    errors in Load and Check leave from a counted cycle. Done (done_o high) is after the count."""
    return 1


def mem_aw(max_len: int) -> int:
    """Address width for 16 slots of at least max(4, MaxLen/32) words."""
    words = max(4, max_len // 32)
    return 4 + (words - 1).bit_length()


def design(max_len: int, cfg: model.Config) -> Design:
    aw = mem_aw(max_len)
    return Design("pka_victor_core", fileset("victor"),
                  {"MaxLen": max_len, "MemAw": aw, "K": cfg.k, "Delta": cfg.delta, "Eps": cfg.eps}, mem_aw=aw)


def harness(max_len: int, cfg: model.Config) -> Harness:
    key = (max_len, cfg.k, cfg.delta, cfg.eps)
    h = _HARNESSES.get(key)
    if h is None or h.proc.poll() is not None:
        d = design(max_len, cfg)
        build(d)
        h = Harness(d)
        _HARNESSES[key] = h
    return h


@atexit.register
def close_all() -> None:
    for h in _HARNESSES.values():
        h.close()
    _HARNESSES.clear()


def command(op: int, length: int, elen: int, slots: Mapping[Slot, int], max_len: int, cfg: model.Config,
            progress: Progress = None) -> tuple[CmdResult, Harness]:
    """Write the slots, run one raw command (no host checks) and return the hardware's answer."""
    h = harness(max_len, cfg)
    sw = h.design.slot_words
    for slot, value in slots.items():
        h.write_slot(slot, value, sw)
    budget = 64 + 4 * sw + (max(elen, 1) + 1) * model.step_cycles(min(max(length, 2), max_len), cfg.k) \
        + model.recip_cycles(cfg.eps) + 8 * sw
    res = h.command(op, length, elen, 0, max_cycles=budget, progress=progress)
    return res, h


def _fits(value: int, n_bits: int, what: str) -> None:
    """The engine reads ceil(n/32) words of an operand; wider values are >= N anyway."""
    if value < 0 or value.bit_length() > n_bits:
        raise PkaError(Status.ERR_OPERAND_RANGE, f"{what} out of range [0, N)")


def _run(op: Op, n_bits: int, elen: int, slots: Mapping[Slot, int], cfg: model.Config,
         progress: Progress) -> tuple[int, CmdResult, int]:
    max_len = model.build_len(n_bits, elen)
    res, h = command(op, n_bits, elen, slots, max_len, cfg, progress)
    if res.status != Status.OK:
        raise PkaError(Status(res.status), f"victor engine: {Status(res.status).name}")
    return h.read_slot(Slot.R, model.words(n_bits)), res, max_len


def _host_checks(mod: int, elen: int) -> int:
    """What cannot reach the hardware: negative numbers and sizes beyond the largest build."""
    if mod < 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "modulus must be positive")
    n_bits = mod.bit_length()
    if n_bits > model.MAX_LEN or elen > model.MAX_LEN:
        raise PkaError(Status.ERR_LENGTH, f"victor: operands above {model.MAX_LEN} bits")
    return n_bits


def modexp(base: int, exp: int, mod: int, params: Mapping[str, Any], progress: Progress = None) -> OpResult:
    """base^exp mod N on the RTL; cycles = the engine's cycles_o."""
    cfg = model.config_from_params(params)
    if exp < 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "exponent must be >= 0")
    elen = exp.bit_length()
    n_bits = _host_checks(mod, elen)
    if n_bits >= model.MIN_BITS:
        _fits(base, max(n_bits, 1), "base")
    result, res, max_len = _run(Op.MODEXP, n_bits, elen, {Slot.N: mod, Slot.A: base, Slot.E: exp}, cfg, progress)
    detail = {"n": n_bits, "h": elen, "k": cfg.k, "delta": cfg.delta, "eps": cfg.eps, "max_len": max_len,
              "digits": model.digits(n_bits, cfg.k), "step_cycles": model.step_cycles(n_bits, cfg.k),
              "total_cycles": res.cycles, "wall": res.wall,
              "efficiency": model.efficiency(n_bits, res.cycles) if elen else None}
    return OpResult(result, res.cycles, res.io_cycles, detail)


def modexp_ct(base: int, exp: int, mod: int, params: Mapping[str, Any], elen: int | None = None,
              progress: Progress = None) -> OpResult:
    """base^exp mod N by OP_MODEXP_CT over exactly `elen` bits of exp (default: the modulus length,
    the length to give a secret exponent); cycles = cycles_o, a function of (n, elen) only."""
    cfg = model.config_from_params(params)
    if elen is None:
        elen = max(mod, 0).bit_length()
    if exp < 0 or elen < 0 or exp >> elen:
        return model.modexp_ct(base, exp, mod, params, elen)      # raises the model's error
    n_bits = _host_checks(mod, elen)
    if n_bits >= model.MIN_BITS:
        _fits(base, max(n_bits, 1), "base")
    result, res, max_len = _run(Op.MODEXP_CT, n_bits, elen, {Slot.N: mod, Slot.A: base, Slot.E: exp}, cfg,
                                progress)
    detail = {"n": n_bits, "h": elen, "elen": elen, "k": cfg.k, "delta": cfg.delta, "eps": cfg.eps,
              "max_len": max_len, "digits": model.digits(n_bits, cfg.k),
              "step_cycles": model.step_cycles(n_bits, cfg.k), "total_cycles": res.cycles, "wall": res.wall}
    return OpResult(result, res.cycles, res.io_cycles, detail)


def wipe(params: Mapping[str, Any], max_len: int = model.MIN_LEN) -> OpResult:
    """OP_ZEROIZE on the build of `max_len` bits (and params' k, delta, eps): every register
    cleared; cycles = pka.model.victor.wipe_cycles(), io_cycles = 0."""
    cfg = model.config_from_params(params)
    res, _ = command(Op.ZEROIZE, 0, 0, {}, max_len, cfg)
    if res.status != Status.OK:
        raise PkaError(Status(res.status), f"victor engine: {Status(res.status).name}")
    return OpResult(0, res.cycles, res.io_cycles, {"total_cycles": res.cycles})


def modmul(a: int, b: int, mod: int, params: Mapping[str, Any], progress: Progress = None) -> OpResult:
    """a*b mod N on the RTL. cycles = the product, derived from cycles_o minus the fixed checks,
    division and final subtraction (2 + eps+1 + 1); detail["total_cycles"] = cycles_o."""
    cfg = model.config_from_params(params)
    n_bits = _host_checks(mod, 0)
    if n_bits >= model.MIN_BITS:
        _fits(a, n_bits, "a")
        _fits(b, n_bits, "b")
    result, res, max_len = _run(Op.MODMUL, n_bits, 0, {Slot.N: mod, Slot.A: a, Slot.B: b}, cfg, progress)
    product = res.cycles - (model.mul_cycles(n_bits, cfg) - model.step_cycles(n_bits, cfg.k))
    detail = {"n": n_bits, "k": cfg.k, "delta": cfg.delta, "eps": cfg.eps, "max_len": max_len,
              "digits": model.digits(n_bits, cfg.k), "total_cycles": res.cycles, "wall": res.wall}
    return OpResult(result, product, res.io_cycles, detail)
