"""RTL driver of hscm (rtl/engines/hscm/): the operations of pka.model.hscm on the Verilated core.

Build parameters: MaxLen = the smallest of 512, 1024, 2048, 4096 bits that holds the modulus
(CRT: n = p q), W = the `w` parameter, K = the `k` parameter (digit bits, when it is 2w; k = w
sets no K), Pes = `pes`, MaxWindow = max(6, window); MemAw such that a slot holds MaxLen + 2k + 1
bits.  Operations that use two HSCMs (the ladder, CRT) split the
`pes` PEs into two rings of pes/2 at run time, so one build serves every operation.  One Harness
per build is kept for the process.

Host constants (documented in doc/hscm.md): W = R^2 mod N (SLOT_W) for the conversion into the
Montgomery domain; CRT: X0 = R_p^3 mod p, X1 = R_q^3 mod q (MRDC, eq. 5), X2 = p^-1 mod q (eq. 4);
OP_MONTMUL (the paper's bare HSCM) takes N = (mu N + 1)/2^2k in X0.  mu and N are computed in
hardware for every other operation.  The engine checks the modulus, the operand ranges and the
key itself and reports status codes; the driver raises PkaError with that status.
"""

from __future__ import annotations

import atexit
import os
from typing import Any, Callable, Mapping

from pka.errors import PkaError, Status
from pka.model import hscm as model
from pka.model.common import CrtKey, OpResult
from pka.sim import Design, Harness, Op, Slot, fileset
from pka.sim import build

Progress = Callable[[int], None] | None

MAXLENS = (512, 1024, 2048, 4096)
_HARNESSES: dict[tuple[int, int, int, int, int], Harness] = {}


def overhead(op: int, length: int, elen: int, arg: int, status: int, params: Mapping[str, int]) -> int:
    """Cycles from the command's acceptance to done that neither cycles_o nor io_cycles_o counts:
    wall = cycles + io_cycles + overhead, checked on every command by pka.sim.Harness.command.

    1 for every op, length and status: the accepting cycle (S_IDLE with cmd_valid: the decode and
    the length/window checks, the counters cleared). After it S_LOAD, S_ALIGN, S_RCHK and S_STORE
    count each cycle in io_cycles (stalled grants included), S_PREP, S_CHKMUL, S_CHKALU, S_RUN,
    S_RECMUL, S_RECADD, S_RECRED and S_WIPE in cycles; every error leaves from a counted cycle.
    S_DONE (done_o high) is after the count."""
    return 1


def max_len_for(bits: int) -> int:
    for m in MAXLENS:
        if bits <= m:
            return m
    raise PkaError(Status.ERR_LENGTH, f"{bits} bits above the largest build ({MAXLENS[-1]})")


def mem_aw(max_len: int, k: int) -> int:
    """Port-word address bits: a slot holds MaxLen + 2k + 1 bits (k the digit bits)."""
    words = -(-(max_len + 2 * k + 1) // 32)
    return 4 + (words - 1).bit_length()


def design(max_len: int, w: int, pes: int, max_window: int, k: int = 0) -> Design:
    """The core's build: W = w, K = k (digit bits; 0: k = w, and no K parameter is set)."""
    aw = mem_aw(max_len, k or w)
    params = {"MaxLen": max_len, "MemAw": aw, "W": w, "Pes": pes, "MaxWindow": max_window}
    if k and k != w:
        params["K"] = k
    return Design("pka_hscm_core", fileset("hscm"), params, mem_aw=aw)


def harness(max_len: int, w: int, pes: int, window: int = 0, k: int = 0) -> Harness:
    max_window = max(6, window)
    k = k or w
    key = (max_len, w, pes, max_window, k)
    h = _HARNESSES.get(key)
    if h is None or h.proc.poll() is not None:
        d = design(max_len, w, pes, max_window, k)
        build(d)
        h = Harness(d)
        _HARNESSES[key] = h
    return h


@atexit.register
def close_all() -> None:
    for h in _HARNESSES.values():
        h.close()
    _HARNESSES.clear()


def _params(params: Mapping[str, Any]) -> tuple[int, int, int, int]:
    """(pes, k, window, ladder), k the digit bits (model._params)."""
    return model._params(params)


def _words(bits: int) -> int:
    return max(1, -(-bits // 32))


def _fits(bits: int, values: tuple[int, ...], model_op: Callable[[], object]) -> None:
    """The engine loads ceil(bits/32) words of an operand.  A value that does not fit cannot reach
    the hardware; the model's checks (the RTL's order) then give the status."""
    if all(0 <= v and not v >> (32 * _words(bits)) for v in values):
        return
    model_op()
    raise PkaError(Status.ERR_OPERAND_RANGE, "operand out of range")


#: simulation cycle limit of one command (a hang is reported as pka.sim.SimTimeout)
MAX_CYCLES = int(os.environ.get("PKA_HSCM_MAX_CYCLES", "40000000"))


def _run(h: Harness, op: int, length: int, elen: int = 0, arg: int = 0,
         progress: Progress = None) -> tuple[int, int]:
    r = h.command(op, length, elen, arg, max_cycles=MAX_CYCLES, progress=progress)
    if r.status != 0:
        raise PkaError(Status(r.status), f"hscm RTL: {Status(r.status).name}")
    return r.cycles, r.io_cycles


def _modulus_len(mod: int, k: int) -> int:
    """Build-independent host checks the hardware cannot make (value must be writable)."""
    if mod <= 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "modulus must be positive")
    n = mod.bit_length()
    if n > model.MAX_BITS:
        raise PkaError(Status.ERR_LENGTH, f"modulus above {model.MAX_BITS} bits")
    return n


def _h_for(n: int, params: Mapping[str, Any], window: int = 0) -> Harness:
    pes, k, _, _ = _params(params)
    return harness(max_len_for(max(n, 64)), model.word_bits(params), pes, window, k)


def montmul(a: int, b: int, mod: int, params: Mapping[str, Any], progress: Progress = None) -> OpResult:
    """OP_MONTMUL: HSCM(a, b) = a b R^-1 mod N in [0, 2^(n+2k+1)) (N from the host)."""
    pes, k, _, _ = _params(params)
    n = _modulus_len(mod, k)
    h = _h_for(n, params)
    _fits(n, (a, b), lambda: model.montmul_op(a, b, mod, params))
    nt = model.modulus(mod, k, w=model.word_bits(params)).nt if mod % 2 and n >= model.min_bits(k) else 0
    h.write_slot(Slot.N, mod)
    h.write_slot(Slot.A, a)
    h.write_slot(Slot.B, b)
    h.write_slot(Slot.X0, nt)
    cyc, io = _run(h, Op.MONTMUL, n, progress=progress)
    res = h.read_slot(Slot.R, _words(n + 2 * k + 1))
    return OpResult(res, cyc, io, {"products": 1})


def modmul(a: int, b: int, mod: int, params: Mapping[str, Any], progress: Progress = None) -> OpResult:
    """a b mod N (OP_MODMUL); cycles = one Montgomery product (OP_MONTMUL on the same operands),
    detail["total_cycles"] = the whole OP_MODMUL."""
    pes, k, _, _ = _params(params)
    n = _modulus_len(mod, k)
    h = _h_for(n, params)
    _fits(n, (a, b), lambda: model.modmul(a, b, mod, params))
    h.write_slot(Slot.N, mod)
    h.write_slot(Slot.A, a)
    h.write_slot(Slot.B, b)
    h.write_slot(Slot.W, model.r2(mod, k) if mod % 2 else 0)
    total, io = _run(h, Op.MODMUL, n, progress=progress)
    res = h.read_slot(Slot.R, _words(n))
    single = montmul(a, b, mod, params).cycles
    return OpResult(res, single, io, {"total_cycles": total, "products": 2})


def modexp(base: int, exp: int, mod: int, params: Mapping[str, Any], progress: Progress = None,
           elen: int | None = None) -> OpResult:
    """base^exp mod N: OP_MODEXP (Algorithm A1, window = k) or OP_MODEXP_CT (ladder = 1).

    elen: the exponent's public length (cmd elen), default exp.bit_length(); a secret exponent
    should be given the length of its range (e.g. the modulus length), since the ladder's cycles
    depend on elen only."""
    pes, k, window, ladder = _params(params)
    if ladder and (pes < 2 or pes % 2):
        raise PkaError(Status.ERR_UNSUPPORTED, f"two HSCMs need an even number of PEs (pes = {pes})")
    if exp < 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "exponent must be >= 0")
    n = _modulus_len(mod, k)
    if elen is None:
        elen = exp.bit_length()
    exp &= (1 << elen) - 1     # the engine drops the bits from elen up
    if elen > model.MAX_BITS:
        raise PkaError(Status.ERR_LENGTH, f"exponent longer than {model.MAX_BITS} bits")
    h = _h_for(max(n, elen), params, window)
    _fits(n, (base,), lambda: model.modexp(base, exp, mod, params, elen))
    h.write_slot(Slot.N, mod)
    h.write_slot(Slot.A, base)
    h.write_slot(Slot.W, model.r2(mod, k) if mod % 2 and n >= 1 else 0)
    h.write_slot(Slot.E, exp)
    op = Op.MODEXP_CT if ladder else Op.MODEXP
    cyc, io = _run(h, op, n, elen, 0 if ladder else window, progress=progress)
    res = h.read_slot(Slot.R, _words(n))
    return OpResult(res, cyc, io, {})


def wipe(max_len: int, params: Mapping[str, Any]) -> OpResult:
    """OP_ZEROIZE on the build of `max_len` bits (and params' w, k, pes, window): every RAM word and
    register inside the core cleared; cycles = pka.model.hscm.wipe_cycles, io_cycles = 0."""
    pes, k, window, _ = _params(params)
    h = harness(max_len, model.word_bits(params), pes, window, k)
    cyc, io = _run(h, Op.ZEROIZE, 0)
    return OpResult(0, cyc, io, {})


def modred(omega: int, mod: int, params: Mapping[str, Any], progress: Progress = None) -> OpResult:
    """OP_MODRED: omega mod N for omega < 2^(2n) (MRDC)."""
    pes, k, _, _ = _params(params)
    n = _modulus_len(mod, k)
    h = _h_for(n, params)
    nw = _words(n)
    lo, hi = omega & ((1 << (32 * nw)) - 1), omega >> (32 * nw)
    _fits(n, (lo, hi), lambda: model.modred(omega, mod, params))
    h.write_slot(Slot.N, mod)
    h.write_slot(Slot.A, lo)
    h.write_slot(Slot.A_HI, hi)
    h.write_slot(Slot.W, model.r2(mod, k) if mod % 2 else 0)
    cyc, io = _run(h, Op.MODRED, n, progress=progress)
    return OpResult(h.read_slot(Slot.R, nw), cyc, io, {})


def mul(a: int, b: int, n: int, params: Mapping[str, Any], progress: Progress = None) -> OpResult:
    """OP_MUL: the 2n-bit product a b (MULT mode, Algorithm 4)."""
    pes, k, _, _ = _params(params)
    h = _h_for(n, params)
    _fits(n, (a, b), lambda: model.mul(a, b, n, params))
    h.write_slot(Slot.A, a)
    h.write_slot(Slot.B, b)
    cyc, io = _run(h, Op.MUL, n, progress=progress)
    nw = _words(n)
    lo = h.read_slot(Slot.R, nw)
    hi = h.read_slot(Slot.R_HI, nw)
    return OpResult(lo | (hi << (32 * nw)), cyc, io, {})


def rsa_crt(m: int, key: CrtKey, params: Mapping[str, Any], progress: Progress = None,
            xbits: int = 0) -> OpResult:
    """m^d mod n by CRT on two HSCMs of pes/2 PEs (OP_RSA_CRT), canonical.

    xbits: extra exponent bits X (cmd arg[31:24]) for blinded exponents key.dp = d_p + r_p (p-1),
    key.dq = d_q + r_q (q-1): the engine processes bits(p) + X and bits(q) + X exponent bits
    (pka.model.hscm.rsa_crt).  0..255 fits the field; the engine serves 0..64."""
    pes, k, window, _ = _params(params)
    if pes < 2 or pes % 2:
        raise PkaError(Status.ERR_UNSUPPORTED, f"two HSCMs need an even number of PEs (pes = {pes})")
    if not 0 <= xbits <= model.XBITS_FIELD:
        model.check_xbits(xbits)
    p, q, n = key.p, key.q, key.n
    if min(p, q, n) <= 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "p, q and n must be positive")
    nb = _modulus_len(n, k)
    h = _h_for(max(nb, 2 * max(p.bit_length(), q.bit_length())), params, window)
    np_, nq = p.bit_length(), q.bit_length()
    check = lambda: model.crt_checks(m, key, params, xbits)  # noqa: E731
    _fits(nb, (m,), check)
    _fits(np_, (p, key.qinv), check)
    _fits(nq, (q, key.pinv), check)
    _fits(np_ + xbits, (key.dp,), check)
    _fits(nq + xbits, (key.dq,), check)
    for slot, v in ((Slot.N, n), (Slot.A, m), (Slot.P, p), (Slot.Q, q), (Slot.DP, key.dp),
                    (Slot.DQ, key.dq), (Slot.QINV, key.qinv), (Slot.X2, key.pinv)):
        h.write_slot(slot, v)
    h.write_slot(Slot.X0, model.r3(p, k) if p % 2 else 0)
    h.write_slot(Slot.X1, model.r3(q, k) if q % 2 else 0)
    cyc, io = _run(h, Op.RSA_CRT, nb, np_, (nq & 0xFFFF) | (window << 16) | (xbits << 24),
                   progress=progress)
    return OpResult(h.read_slot(Slot.R, _words(nb)), cyc, io, {"ring": pes // 2, "xbits": xbits})
