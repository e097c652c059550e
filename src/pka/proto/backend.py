"""The one interface protocols call: a backend object for one engine, model or accelerator.

    be = get("rns", "model")      # pka.model.rns: golden model, exact cycle prediction
    be = get("rns", "rtl")        # pka.driver.backend("rns"): pka_top on Verilator, through its bus

Both carry the model backend's functions (each takes `params` and returns OpResult):

    modexp(base, exp, mod, params)         modmul(a, b, mod, params)
    rsa_crt(m, key, params)                (engines that have one; pka.proto.rsa checks)
    ecc_mul(curve, k, params, point=None)  x(k P), P checked on the curve, 1 <= k < order
    ecc_mul_x(curve, k, x, params, elen)   x(k P) from x alone, `elen` ladder steps, 0 at infinity
    x25519_mul(k, u, params, elen)         u(k P) on Curve25519 (RFC 7748's ladder), 0 at infinity

and `progress=` where the engine reports progress (`call` passes it only where accepted).

`ecc_mul_x` on the RTL is composed here from the driver's public API (Pka.rns_run, the bus, the
model's residue conversion) because pka.driver's ECC_MUL entry checks a full (x, y) point and
the group order, which X25519 (any u, 255-bit scalars) cannot give it.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

from pka.errors import PkaError, Status
from pka.model.common import OpResult

BACKENDS = ("model", "rtl")


def call(fn: Callable[..., Any], *args: Any, progress: Callable[[int], None] | None = None, **kw: Any) -> Any:
    """Call a backend function, passing `progress` only to functions that take it."""
    if progress is not None and "progress" in inspect.signature(fn).parameters:
        return fn(*args, progress=progress, **kw)
    return fn(*args, **kw)


class Backend:
    """An engine's functions on one backend; unknown attributes fall through to the wrapped object."""

    def __init__(self, engine: str, kind: str, impl: Any) -> None:
        self.engine = engine
        self.kind = kind
        self.impl = impl

    def __getattr__(self, name: str) -> Any:
        return getattr(self.impl, name)

    def has(self, name: str) -> bool:
        return hasattr(self.impl, name)

    def ecc_mul_x(self, curve: str, k: int, x: int, params: dict[str, Any], elen: int,
                  progress: Callable[[int], None] | None = None) -> OpResult:
        if self.engine != "rns":
            raise PkaError(Status.ERR_UNSUPPORTED, f"elliptic curves run on the rns engine, not {self.engine}")
        from pka.model import rns

        if self.kind == "model":
            return rns.ecc_mul_x(curve, k, x, params, elen, progress)
        c = rns.CURVES.get(curve)
        if c is None:
            raise PkaError(Status.ERR_PARAM, f"unknown curve {curve!r}")
        # the x-only ladder (ARG[0] = ECC_X_ARG), as pka.driver.Pka.ecc_mul_rns minus its point check
        return _x_only_rtl(curve, c.p, lambda m: rns.ecc_inputs(c, x, m), k, x, params, elen, rns.ECC_X_ARG,
                           progress)

    def x25519_mul(self, k: int, u: int, params: dict[str, Any], elen: int,
                   progress: Callable[[int], None] | None = None) -> OpResult:
        """u(k P) on Curve25519 (ECC_MUL with ARG[2], RFC 7748's ladder): 0 with detail["infinity"]
        at the point at infinity, as ecc_mul_x."""
        if self.engine != "rns":
            raise PkaError(Status.ERR_UNSUPPORTED, f"elliptic curves run on the rns engine, not {self.engine}")
        from pka.model import rns

        if self.kind == "model":
            return rns.x25519_mul(k, u, params, elen, progress)
        return _x_only_rtl("curve25519", rns.X25519_P, lambda m: rns.x25519_inputs(u, m), k, u, params, elen,
                           rns.ECC_M_ARG, progress)


def _x_only_rtl(curve: str, p: int, inputs: Callable[[int], dict[int, int]], k: int, x: int,
                params: dict[str, Any], elen: int, arg: int,
                progress: Callable[[int], None] | None) -> OpResult:
    """An x-only ECC_MUL entry (ARG = arg) through pka_top's bus: the model's range checks first
    (nothing touches the hardware before they pass), then R = x(k P), or 0 with detail["infinity"]
    when the engine ends with ERR_INFINITY. inputs(m): the engine's registers for the context's M."""
    from pka import driver
    from pka.model import rns
    from pka.sim import Op, Slot

    if str(params.get("alg", "mm")) != "mm":
        raise PkaError(Status.ERR_UNSUPPORTED, "rns RTL: the SBMM datapath is not in pka_top (use alg=mm)")
    if not 1 <= elen <= p.bit_length() + 1:
        raise PkaError(Status.ERR_LENGTH, f"ladder length {elen} outside 1..{p.bit_length() + 1}")
    if not 1 <= k < 1 << elen:
        raise PkaError(Status.ERR_OPERAND_RANGE, f"scalar out of range [1, 2^{elen})")
    if not 0 <= x < p:
        raise PkaError(Status.ERR_OPERAND_RANGE, "x out of range [0, p)")
    w = int(params.get("w", 32))
    rns.check_modulus(p, w)
    pka = driver.session("rns", params, p.bit_length())
    ctx = rns.mm_context(p, w)
    b0 = pka.bus.bus_cycles
    try:
        res = pka.rns_run(Op.ECC_MUL, ctx, inputs(ctx.m), scalar=k, elen=elen, expo=p - 2, progress=progress,
                          arg=arg)
    except PkaError as err:
        if err.status != Status.ERR_INFINITY or pka.last is None:
            raise
        return pka.result(pka.last, 0, b0, curve=curve, n=ctx.n, w=w, elen=elen, infinity=True,
                          total_cycles=pka.last.compute)
    words = pka.bus.read_words(driver.slot_addr(Slot.R), 2 * ctx.n)
    xr = int(ctx.from_rns((tuple(words[:ctx.n]), tuple(words[ctx.n:])))) % p
    return pka.result(res, xr, b0, curve=curve, n=ctx.n, w=w, elen=elen, infinity=False, total_cycles=res.compute)


def get(engine: str, kind: str) -> Backend:
    """The backend of `engine`: "model" (pka.model.<engine>) or "rtl" (pka_top through pka.driver)."""
    from pka.engines import get_engine

    e = get_engine(engine)
    if kind == "model":
        return Backend(e.name, kind, e.model())
    if kind == "rtl":
        from pka import driver
        return Backend(e.name, kind, driver.backend(e.name))
    raise PkaError(Status.ERR_PARAM, f"unknown backend {kind!r} (model|rtl)")
