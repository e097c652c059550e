"""RTL driver of the rns engine (rtl/engines/rns/, classical RNS Montgomery on a Cox-Rower array).

The host step of the engine (doc/rns.md): the binary <-> RNS conversions (residues; the B' half
scaled by mu_j) and the constants that depend only on P and the bases (per-rower table, W = M^2 mod
P, curve constants in Montgomery form) are computed here with pka.model.rns and written to the
slots; the engine runs the microprogram and writes residue vectors back, which are converted
(CRT) and reduced mod P here.

Builds: MaxLen is the smallest of BUILDS[w] >= the modulus bits (so builds are shared); one
Harness per design is cached in the module dict `_HARNESS`.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from pka.errors import PkaError, Status
from pka.model import rns as model
from pka.model.common import OpResult
from pka.sim import Design, Harness, Op, Slot, fileset

BUILDS = {16: (64, 192, 256), 32: (64, 256, 512)}
SB_BUILDS = {16: (64, 128, 192), 32: (128, 384, 512)}   # SBMM builds: MaxLen = 2 n_a w
MEM_AW = 14
_HARNESS: dict[tuple[int, int, int], Harness] = {}


def overhead(op: int, length: int, elen: int, arg: int, status: int, params: Mapping[str, int]) -> int:
    """Cycles from the command's acceptance to done that neither cycles_o nor io_cycles_o counts:
    wall = cycles + io_cycles + overhead, checked on every command by pka.sim.Harness.command.

    1: the accepting cycle (Idle with cmd_valid: the decode, the length checks, the counters
    cleared), for every op and status; + 1 when the microprogram ran to its HALT (status OK, any op
    but OP_ZEROIZE): Exec counts every micro-op's cycle in cycles but HALT's (cycles is the
    microprogram as pka.model.rns.run_machine counts it), and HALT takes one cycle to move to Store.
    Load and Store count every cycle in io_cycles (stalled grants included), Wipe in cycles; a FAIL
    that fires (ERR_NOT_ON_CURVE, ERR_INFINITY, ERR_FAULT) is a counted Exec cycle and goes to
    Store without HALT; load-time errors (ERR_EVEN_MODULUS, ERR_OPERAND_RANGE) and decode errors
    never enter Exec. Done (done_o high) is after the count.

    MM build (Sbmm = 0) only: + 1 when a FAIL fired (ERR_NOT_ON_CURVE, ERR_INFINITY, ERR_UNSUPPORTED,
    and ERR_FAULT from the output check): the rowers compare TEST's operand a cycle after its decode
    (the registered rower controls) and register the compare, so a FAIL decides in the cycle after
    its own, from the registered compares; when it fires, that cycle ends the program and is not
    counted (its instruction is dropped). An integrity check (ERR_FAULT from an injected fault,
    never on a fault-free run) ends at once, without that cycle."""
    fired = (not params.get("Sbmm", 0) and
             status in (Status.ERR_NOT_ON_CURVE, Status.ERR_INFINITY, Status.ERR_UNSUPPORTED, Status.ERR_FAULT))
    return 1 + int(status == Status.OK and op != Op.ZEROIZE) + int(fired)


def design(w: int, max_len: int, sbmm: int = 0) -> Design:
    return Design("pka_rns_core", fileset("rns"), {"MaxLen": max_len, "W": w, "MemAw": MEM_AW, "Sbmm": sbmm},
                  mem_aw=MEM_AW)


def build_for(bits: int, w: int) -> int:
    for size in BUILDS[w]:
        if bits <= size:
            return size
    raise PkaError(Status.ERR_LENGTH, f"rns: no RTL build for {bits} bits at w={w} (largest {BUILDS[w][-1]})")


def sb_build_for(bits: int, w: int) -> int:
    for size in SB_BUILDS[w]:
        if bits <= size:
            return size
    raise PkaError(Status.ERR_LENGTH, f"rns: no SBMM RTL build for {bits} bits at w={w} (largest {SB_BUILDS[w][-1]})")


def harness(w: int, max_len: int, sbmm: int = 0) -> Harness:
    h = _HARNESS.get((w, max_len, sbmm))
    if h is None or h.proc.poll() is not None:
        h = Harness(design(w, max_len, sbmm))
        _HARNESS[(w, max_len, sbmm)] = h
    return h


def close_all() -> None:
    for h in _HARNESS.values():
        h.close()
    _HARNESS.clear()


def _vec(ctx: model.MmCtx, x: int) -> list[int]:
    b, bp = ctx.to_rns(x)
    return list(b) + list(bp)


def write_context(h: Harness, ctx: model.MmCtx, regs: Mapping[int, int], scalar: int = 0, expo: int = 0,
                  z_words: Sequence[int] | None = None) -> None:
    """Everything the engine loads: N's low word, the constant table, register images, exponents;
    z_words: the random words of SLOT_P (2n, raw 32-bit values) for ECC_MUL with ARG[1]."""
    sw = h.design.slot_words
    h.write(h.design.slot_addr(Slot.N), [ctx.p & 0xFFFFFFFF])
    h.write(h.design.slot_addr(Slot.X0), [v for row in ctx.table for v in row])
    full = {model.IN_A: 0, model.IN_B: 0, model.RW: (ctx.m * ctx.m) % ctx.p, model.ONE: 1,
            model.CA: 0, model.CB2: 0, model.CM4B: 0}
    full.update(regs)
    h.write(h.design.slot_addr(Slot.A), _vec(ctx, full[model.IN_A]))
    h.write(h.design.slot_addr(Slot.B), _vec(ctx, full[model.IN_B]))
    h.write(h.design.slot_addr(Slot.W), _vec(ctx, full[model.RW]))
    x1: list[int] = []
    for r in (model.ONE, model.CA, model.CB2, model.CM4B):
        x1 += _vec(ctx, full[r])
    h.write(h.design.slot_addr(Slot.X1), x1)
    h.write_int(h.design.slot_addr(Slot.E), scalar, sw)
    h.write_int(h.design.slot_addr(Slot.X2), expo, sw)
    if z_words is not None:
        assert len(z_words) == model.rz_words(ctx)
        h.write(h.design.slot_addr(Slot.P), list(z_words))


def read_reg(h: Harness, ctx: model.MmCtx, slot: int) -> int:
    words = h.read(h.design.slot_addr(slot), 2 * ctx.n)
    return ctx.from_rns((tuple(words[:ctx.n]), tuple(words[ctx.n:])))


def run(op: int, ctx: model.MmCtx, regs: Mapping[int, int], scalar: int = 0, elen: int = 0, expo: int = 0,
        progress: Callable[[int], None] | None = None, h: Harness | None = None, arg: int = 0,
        check: bool = True, z_words: Sequence[int] | None = None) -> tuple[Harness, Any]:
    """Write, run one command, check its status (PkaError with the hardware's status) unless
    check is False (then the caller reads res.status). z_words: SLOT_P's random words, and ARG[1]."""
    if h is None:
        h = harness(ctx.w, build_for(ctx.p.bit_length(), ctx.w))
    write_context(h, ctx, regs, scalar, expo, z_words)
    if z_words is not None:
        arg |= model.ECC_RZ_ARG
    res = h.command(op, ctx.p.bit_length(), elen, arg, progress=progress)
    if check and res.status != 0:
        raise PkaError(Status(res.status), f"rns RTL: status {Status(res.status).name}")
    return h, res


def _params(params: Mapping[str, Any]) -> tuple[int, str]:
    return model._w(params), model._alg(params)


# ---- the SBMM build ------------------------------------------------------------------------------

def sb_table(ctx: model.SbmmCtx) -> list[int]:
    """Constants of the SBMM build: per rower j (12 + n_a + n_b words), then the gamma block."""
    a, b, ma, mb, w = ctx.a, ctx.b, ctx.ma, ctx.mb, ctx.w
    out: list[int] = []
    for j in range(ctx.nb):
        has_a = j < ctx.na
        aj = a[j] if has_a else (1 << w) - 1
        z0k, z0r = 3 * ma - 3, 3 * ma - 6          # (3Ma - 3) Ma + 3Ma - 6 = 3P: zero for SUB
        row = [(1 << w) - aj, (1 << w) - b[j],
               model.inv(ma // aj, aj) if has_a else 0, model.inv(ma, b[j]), model.inv(mb // b[j], b[j]),
               ma % b[j], (-ma) % b[j], (-mb) % aj if has_a else 0,
               z0k % aj, z0r % aj, z0k % b[j], z0r % b[j]]
        row += [(ma // a[i]) % b[j] for i in range(ctx.na)]
        row += [(mb // b[i]) % aj if has_a else 0 for i in range(ctx.nb)]
        out += row
    g = model.M_GAMMA
    out += [(-ma) % g, model.inv(ma, g), ma % g, (3 * ma - 3) % g, (3 * ma - 6) % g]
    out += [(ma // a[i]) % g for i in range(ctx.na)]
    return out


def sb_image(ctx: model.SbmmCtx, v: model.Kr) -> list[int]:
    k, r = v
    return list(k) + list(r)      # residues over a | b | gamma, K then R


def sb_run(op: int, ctx: model.SbmmCtx, regs: Mapping[int, int], scalar: int = 0, elen: int = 0,
           progress: Callable[[int], None] | None = None, expo: int = 0) -> tuple[Harness, Any]:
    h = harness(ctx.w, sb_build_for(ctx.p.bit_length(), ctx.w), 1)
    h.write(h.design.slot_addr(Slot.N), [ctx.p & 0xFFFFFFFF])
    h.write(h.design.slot_addr(Slot.X0), sb_table(ctx))
    full = {model.IN_A: 0, model.IN_B: 0, model.ONE: 1, model.CA: 0, model.CB2: 0, model.CM4B: 0}
    full.update(regs)
    h.write(h.design.slot_addr(Slot.A), sb_image(ctx, model.sbmm_to(ctx, full[model.IN_A])))
    h.write(h.design.slot_addr(Slot.B), sb_image(ctx, model.sbmm_to(ctx, full[model.IN_B])))
    x1: list[int] = []
    for r in (model.ONE, model.CA, model.CB2, model.CM4B):
        x1 += sb_image(ctx, model.sbmm_to(ctx, full[r]))
    h.write(h.design.slot_addr(Slot.X1), x1)
    h.write_int(h.design.slot_addr(Slot.E), scalar, h.design.slot_words)
    h.write_int(h.design.slot_addr(Slot.X2), expo, h.design.slot_words)
    res = h.command(op, ctx.p.bit_length(), elen, 0, progress=progress)
    if res.status != 0:
        raise PkaError(Status(res.status), f"rns RTL: status {Status(res.status).name}")
    return h, res


def sb_read(h: Harness, ctx: model.SbmmCtx, slot: int = Slot.R) -> model.Kr:
    m = ctx.na + ctx.nb + 1
    words = h.read(h.design.slot_addr(slot), 2 * m)
    return tuple(words[:m]), tuple(words[m:])


def sb_modmul(a: int, b: int, ctx: model.SbmmCtx) -> OpResult:
    h, res = sb_run(Op.MODMUL, ctx, {model.IN_A: a, model.IN_B: b})
    out = sb_read(h, ctx)
    return OpResult(model.sbmm_from(ctx, out), res.cycles, res.io_cycles,
                    {"alg": "sbmm", "w": ctx.w, "n_a": ctx.na, "n_b": ctx.nb, "total_cycles": res.cycles,
                     "residues": out})


def sb_modexp(base: int, exp: int, ctx: model.SbmmCtx, progress: Callable[[int], None] | None = None) -> OpResult:
    h, res = sb_run(Op.MODEXP, ctx, {model.IN_A: base}, exp, exp.bit_length(), progress)
    out = sb_read(h, ctx)
    return OpResult(model.sbmm_from(ctx, out), res.cycles, res.io_cycles,
                    {"alg": "sbmm", "w": ctx.w, "n_a": ctx.na, "n_b": ctx.nb, "total_cycles": res.cycles})


def modmul(a: int, b: int, mod: int, params: Mapping[str, Any], progress: Callable[[int], None] | None = None) -> OpResult:
    w, alg = _params(params)
    model.check_modulus(mod, w)
    model._check_operand(a, mod, "a")
    model._check_operand(b, mod, "b")
    if alg == "sbmm":
        return sb_modmul(a, b, model.sbmm_context(mod, w))   # ERR_UNSUPPORTED unless P = Ma^2 - 2
    ctx = model.mm_context(mod, w)
    h, res = run(Op.MODMUL, ctx, {model.IN_A: a, model.IN_B: b})
    out = read_reg(h, ctx, Slot.R) % mod
    # `cycles` is one modular multiplication as the slides count it: one MR, measured by running
    # MONTMUL (a single MR of A*B) on the operands already in memory; MODMUL's two MRs are in detail
    one = h.command(Op.MONTMUL, ctx.p.bit_length(), 0, 0)
    if one.status != 0:
        raise PkaError(Status(one.status), f"rns RTL: status {Status(one.status).name}")
    return OpResult(out, one.cycles, res.io_cycles,
                    {"total_cycles": res.cycles, "n": ctx.n, "w": w, "alg": "mm"})


def montmul(a: int, b: int, mod: int, w: int) -> tuple[int, OpResult]:
    """One MR of a*b (the raw engine output in [0, 2P), before the host's mod P)."""
    ctx = model.mm_context(mod, w)
    h, res = run(Op.MONTMUL, ctx, {model.IN_A: a, model.IN_B: b})
    raw = read_reg(h, ctx, Slot.R)
    return raw, OpResult(raw % mod, res.cycles, res.io_cycles, {"n": ctx.n})


def linop(op: str, a: int, b: int, mod: int, w: int) -> OpResult:
    ctx = model.mm_context(mod, w)
    h, res = run(Op.MODADD if op == "modadd" else Op.MODSUB, ctx, {model.IN_A: a, model.IN_B: b})
    return OpResult(read_reg(h, ctx, Slot.R) % mod, res.cycles, res.io_cycles, {"n": ctx.n})


def modexp(base: int, exp: int, mod: int, params: Mapping[str, Any],
           progress: Callable[[int], None] | None = None) -> OpResult:
    w, alg = _params(params)
    model.check_modulus(mod, w)
    if exp < 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "exponent must be >= 0")
    model._check_operand(base, mod, "base")
    if alg == "sbmm":
        sctx = model.sbmm_context(mod, w)
        if exp.bit_length() > sb_build_for(mod.bit_length(), w):
            raise PkaError(Status.ERR_LENGTH, "rns RTL: exponent longer than the SBMM build")
        return sb_modexp(base, exp, sctx, progress)
    size = build_for(mod.bit_length(), w)
    if exp.bit_length() > size:
        raise PkaError(Status.ERR_LENGTH, f"rns RTL: exponent of {exp.bit_length()} bits exceeds the build ({size})")
    ctx = model.mm_context(mod, w)
    h, res = run(Op.MODEXP, ctx, {model.IN_A: base}, scalar=exp, elen=exp.bit_length(), progress=progress)
    out = read_reg(h, ctx, Slot.R) % mod
    return OpResult(out, res.cycles, res.io_cycles, {"total_cycles": res.cycles, "n": ctx.n, "w": w, "alg": "mm"})


def ecc_mul(curve: str, k: int, params: Mapping[str, Any], point: tuple[int, int] | None = None,
            progress: Callable[[int], None] | None = None, r: int | None = None,
            z_words: Sequence[int] | None = None) -> OpResult:
    """k * point by the (X,Z) ladder on the engine; elen = bits of the curve's order bound.

    MM build: the checked ECC_MUL (ARG = 0): x in SLOT_A, y in SLOT_B; the engine checks the point,
    recovers y and checks the result; result = x (SLOT_R), detail["y"] = y (SLOT_R_HI). Errors are
    the engine's status (ERR_NOT_ON_CURVE, ERR_INFINITY, ERR_FAULT). SBMM build: x only.
    Blinding as pka_top's sequencer does it (model.ecc_mul): r runs k + r n over bits(n) + 64
    steps; z_words go to SLOT_P with ARG[1] (the random projective Z)."""
    c = model._curve(curve)
    w, alg = _params(params)
    model.check_scalar(c, k)
    px, py = point if point is not None else (c.gx, c.gy)
    if alg == "sbmm" and (r is not None or z_words is not None):
        raise PkaError(Status.ERR_UNSUPPORTED, "rns: blinding runs on the MM build (alg=mm)")
    if alg == "sbmm":
        model.check_point(curve, px, py)
        sctx = model.sbmm_context(c.p, w)
        elen = c.order.bit_length()
        h, res = sb_run(Op.ECC_MUL, sctx, model.sb_ecc_inputs(c, px), k, elen, progress, expo=c.p - 2)
        if model.sbmm_from(sctx, sb_read(h, sctx, Slot.R_HI)) == 0:
            raise PkaError(Status.ERR_NO_INVERSE, "result is the point at infinity")
        return OpResult(model.sbmm_from(sctx, sb_read(h, sctx)), res.cycles, res.io_cycles,
                        {"curve": curve, "n_a": sctx.na, "n_b": sctx.nb, "w": w, "alg": "sbmm", "elen": elen,
                         "total_cycles": res.cycles})
    if c.p.bit_length() > model.MAX_BITS[w]:
        raise PkaError(Status.ERR_LENGTH, f"rns: {curve} needs a wider channel than w={w}")
    if not (0 <= px < c.p and 0 <= py < c.p):
        raise PkaError(Status.ERR_NOT_ON_CURVE, "coordinate out of range")
    ctx = model.mm_context(c.p, w)
    kb, elen = model.blind_scalar(c, k, r) if r is not None else (k, c.order.bit_length())
    h, res = run(Op.ECC_MUL, ctx, model.ecc_inputs(c, px, ctx.m, py), scalar=kb, elen=elen, expo=c.p - 2,
                 progress=progress, z_words=z_words)
    x = read_reg(h, ctx, Slot.R) % c.p
    y = read_reg(h, ctx, Slot.R_HI) % c.p
    return OpResult(x, res.cycles, res.io_cycles, {"curve": curve, "n": ctx.n, "w": w, "alg": "mm", "elen": elen,
                                                   "total_cycles": res.cycles, "y": y,
                                                   "random_z": z_words is not None})


def ecc_raw(c: model.Curve, k: int, x: int, y: int | None, w: int, elen: int | None = None,
            h: Harness | None = None, z_words: Sequence[int] | None = None) -> tuple[Harness, Any, tuple[int, int]]:
    """ECC_MUL on the MM build as the engine sees it, any status: checked (y given, ARG = 0) or
    x-only (y None, ARG = 1); z_words: the random projective Z (SLOT_P, ARG[1]); k any scalar below
    2^elen (a blinded one). Returns the harness, the command's result and the raw (R, R_HI)
    values (< 2P, not reduced: zeros after a failure)."""
    ctx = model.mm_context(c.p, w)
    elen = c.order.bit_length() if elen is None else elen
    h, res = run(Op.ECC_MUL, ctx, model.ecc_inputs(c, x, ctx.m, y), scalar=k, elen=elen, expo=c.p - 2,
                 h=h, arg=0 if y is not None else model.ECC_X_ARG, check=False, z_words=z_words)
    return h, res, (read_reg(h, ctx, Slot.R), read_reg(h, ctx, Slot.R_HI))


def ecc_mul_x(curve: str, k: int, x: int, params: Mapping[str, Any], elen: int,
              z_words: Sequence[int] | None = None) -> OpResult:
    """x(k P) from x alone (ECC_MUL, ARG[0] = 1), like pka.model.rns.ecc_mul_x: at infinity the
    engine ends with ERR_INFINITY (R = 0), returned as result 0, detail["infinity"] True.
    z_words: the random projective Z (SLOT_P, ARG[1])."""
    c = model._curve(curve)
    w, _ = _params(params)
    h, res, (r, r_hi) = ecc_raw(c, k, x, None, w, elen, z_words=z_words)
    if res.status not in (Status.OK, Status.ERR_INFINITY):
        raise PkaError(Status(res.status), f"rns RTL: status {Status(res.status).name}")
    return OpResult(r % c.p, res.cycles, res.io_cycles,
                    {"curve": curve, "elen": elen, "infinity": res.status == Status.ERR_INFINITY,
                     "status": res.status, "r_hi": r_hi})


def x25519_raw(k: int, u: int, w: int, elen: int = model.X25519_LADDER, h: Harness | None = None,
               z_words: Sequence[int] | None = None, p: int = model.X25519_P) -> tuple[Harness, Any, int]:
    """ECC_MUL with ARG[2] (X25519's ladder) as the engine sees it, any status: the harness, the
    command's result and R (< 2P, zeros after a failure). p: the modulus given (tests only)."""
    ctx = model.mm_context(p, w)
    regs = model.x25519_inputs(u, ctx.m, p)
    h, res = run(Op.ECC_MUL, ctx, regs, scalar=k, elen=elen, expo=p - 2, h=h, arg=model.ECC_M_ARG,
                 check=False, z_words=z_words)
    return h, res, read_reg(h, ctx, Slot.R)


def x25519_mul(k: int, u: int, params: Mapping[str, Any], elen: int = model.X25519_LADDER,
               z_words: Sequence[int] | None = None) -> OpResult:
    """u(k P) on Curve25519 (ECC_MUL, ARG[2]), like pka.model.rns.x25519_mul: at infinity the engine
    ends with ERR_INFINITY (R = 0), returned as result 0, detail["infinity"] True."""
    w, _ = _params(params)
    h, res, r = x25519_raw(k, u, w, elen, z_words=z_words)
    if res.status not in (Status.OK, Status.ERR_INFINITY):
        raise PkaError(Status(res.status), f"rns RTL: status {Status(res.status).name}")
    return OpResult(r % model.X25519_P, res.cycles, res.io_cycles,
                    {"curve": "curve25519", "elen": elen, "infinity": res.status == Status.ERR_INFINITY,
                     "status": res.status})


def modexp_ct(base: int, exp: int, mod: int, params: Mapping[str, Any], elen: int | None = None) -> OpResult:
    """OP_MODEXP_CT: the powering ladder of exactly elen steps (default: the modulus' bits)."""
    w, alg = _params(params)
    model.check_modulus(mod, w)
    model._check_operand(base, mod, "base")
    elen = mod.bit_length() if elen is None else elen
    if not 0 <= exp < 1 << elen:
        raise PkaError(Status.ERR_OPERAND_RANGE, f"exponent out of range [0, 2^{elen})")
    if alg == "sbmm":
        sctx = model.sbmm_context(mod, w)
        h, res = sb_run(Op.MODEXP_CT, sctx, {model.IN_A: base}, exp, elen)
        return OpResult(model.sbmm_from(sctx, sb_read(h, sctx)), res.cycles, res.io_cycles,
                        {"alg": "sbmm", "elen": elen, "total_cycles": res.cycles})
    ctx = model.mm_context(mod, w)
    h, res = run(Op.MODEXP_CT, ctx, {model.IN_A: base}, scalar=exp, elen=elen)
    return OpResult(read_reg(h, ctx, Slot.R) % mod, res.cycles, res.io_cycles,
                    {"n": ctx.n, "w": w, "alg": "mm", "elen": elen, "total_cycles": res.cycles})


def zeroize(h: Harness) -> Any:
    """OP_ZEROIZE to the engine (the wipe): no port access, ST_OK, cycles = model.wipe_cycles."""
    return h.command(Op.ZEROIZE, 0, 0, 0, max_cycles=10_000)
