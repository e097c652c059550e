"""The accelerator's whole op set on either backend (doc/top.md, "Opcodes").

`run(name, backend, engine, params, **operands)` returns an OpResult for

    modadd, modsub        (A +- B) mod N, A, B < N                          sequencer
    modred                (A_HI:A) mod N, omega < 2^(2 LEN)                 hscm
    mul                   A B, 2 LEN bits                                   hscm
    montmul               A B R^-1 mod N (the engine's R and output range)  hscm, mwr4
    modinv                A^-1 mod N, N prime (Fermat, result checked)      sequencer + binary engine
    mont-params           W = 2^(2r) mod N, MU = -N^-1 mod 2^64            sequencer (r = R_ENGINE:
                          the r of the engine named, hscm/csa2/mwr4)
    point-check           y^2 = x^3 + a x + b mod p?                        sequencer + binary engine

--backend model: the sequencer's operations are host references written from doc/top.md's
definition (same checks in the same order, same status codes, and for MODADD/MODSUB/MONT_PARAMS the
sequencer's exact COMPUTE count, pka.rtl.top.seq_cycles); the engine operations are the engine's
golden model (pka.model.hscm.modred/mul/montmul_op, pka.model.mwr4.montmul). MODINV and ECC_CHECK
run on an engine's MODEXP/MODMUL in hardware; their count is the sequencer's passes plus the
engine model's counts of those commands (modinv_compute, ecc_check_compute: = the RTL's COMPUTE).
--backend rtl: the pka.driver.Pka method of the opcode on a pka_top build holding the engine.
"""

from __future__ import annotations

from typing import Any, Callable

from pka.errors import PkaError, Status
from pka.model.common import OpResult

MAX_LEN = 4096          # pka_top's largest build (MaxLen)
OPS = ("modadd", "modsub", "modred", "mul", "montmul", "modinv", "mont-params", "point-check")
# engines each opcode runs on (None: the sequencer; the engine then only picks the pka_top build)
OP_ENGINES: dict[str, tuple[str, ...]] = {
    "modadd": (), "modsub": (), "mont-params": (),
    "modred": ("hscm",), "mul": ("hscm",), "montmul": ("hscm", "mwr4"),
    "modinv": ("hscm", "victor", "mwr4", "csa2"), "point-check": ("hscm", "victor", "mwr4", "csa2"),
}
DEFAULT_ENGINE = {"modadd": "example", "modsub": "example", "mont-params": "example", "modred": "hscm",
                  "mul": "hscm", "montmul": "hscm", "modinv": "victor", "point-check": "victor"}


def _range(x: int, n: int, what: str) -> None:
    if not 0 <= x < n:
        raise PkaError(Status.ERR_OPERAND_RANGE, f"{what} out of range [0, N)")


def _len(bits: int) -> None:
    if bits == 0 or bits > MAX_LEN:
        raise PkaError(Status.ERR_LENGTH, f"length {bits} outside 1..{MAX_LEN}")


def _seq(op: int, bits: int, **kw: Any) -> int:
    from pka.rtl.top import seq_cycles
    return seq_cycles(op, bits, **kw)[0]


# ---- host references of the sequencer's operations ----------------------------------------------

def ref_modadd(a: int, b: int, n: int, sub: bool = False) -> OpResult:
    """MODADD/MODSUB: check pass (A, B < N: ERR_OPERAND_RANGE), write pass. Any N > 0."""
    if n <= 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "modulus must be positive")
    _len(n.bit_length())
    _range(a, n, "a")
    _range(b, n, "b")
    r = (a - b) % n if sub else (a + b) % n
    return OpResult(r, _seq(9 if sub else 8, n.bit_length()), 0)


R_ENGINE = 0xFFFF      # MONT_PARAMS's ELEN for "the r of the engine named" (pka.driver.MONT_R_ENGINE)


def mont_r(n: int, r: int, engine: str, params: dict[str, Any]) -> int:
    """The r MONT_PARAMS uses: r itself, 32 ceil(bits(N)/32) for 0, or for R_ENGINE the Montgomery
    exponent of `engine` at bits(N) (pka.driver's profile, the same formula as pka_top_seq's
    engine_r); ERR_UNSUPPORTED for an engine without one (victor, rns) or none (the sequencer alone),
    as the hardware reports it at decode, before any check of N."""
    from pka.driver import PROFILES
    if r != R_ENGINE:
        return r or 32 * ((n.bit_length() + 31) // 32)
    prof = PROFILES.get(engine)
    if prof is None or prof.r is None or engine == "example":
        raise PkaError(Status.ERR_UNSUPPORTED, f"--r engine: {'the sequencer alone' if engine == 'example' else engine} "
                       "has no Montgomery exponent (engines with one: hscm, csa2, mwr4; name one with --engine)")
    return int(prof.r(max(1, n.bit_length()), params))


def ref_mont_params(n: int, r: int = 0) -> OpResult:
    """MONT_PARAMS: N even -> ERR_EVEN_MODULUS; N = 1 -> ERR_OPERAND_RANGE; 2r < bits(N) or
    r > MaxLen + 256 -> ERR_LENGTH. W = 2^(2r) mod N (r = 0: 32 ceil(bits/32)), MU = -N^-1 mod 2^64."""
    if n <= 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "modulus must be positive")
    b = n.bit_length()
    _len(b)
    if n % 2 == 0:
        raise PkaError(Status.ERR_EVEN_MODULUS, "modulus must be odd")
    if n == 1:
        raise PkaError(Status.ERR_OPERAND_RANGE, "modulus 1")
    rr = r or 32 * ((b + 31) // 32)
    if 2 * rr < b or rr > MAX_LEN + 256:
        raise PkaError(Status.ERR_LENGTH, f"r = {rr} outside bits(N)/2 .. {MAX_LEN + 256}")
    # the sequencer's non-restoring doublings from x = 2^(b-1): is the last x negative (one more pass)?
    k = 2 * rr - b + 1
    x = 1 << (b - 1)
    for _ in range(k):
        x = 2 * x - n if x >= 0 else 2 * x + n
    w = pow(2, 2 * rr, n)
    assert (x + n if x < 0 else x) == w
    mu = (-pow(n, -1, 1 << 64)) % (1 << 64)
    return OpResult(w, _seq(13, b, n=n, r=rr, fix=x < 0), 0, {"mu": hex(mu), "r": rr})


def _engine_model(engine: str) -> Any:
    from pka.engines import get_engine
    return get_engine(engine).model()


def _modmul_compute(model: Any, a: int, b: int, n: int, params: dict[str, Any]) -> int:
    """An engine's MODMUL through pka_top: its whole count (conversions included: total_cycles)."""
    mm = model.modmul(a, b, n, params)
    return int(mm.detail.get("total_cycles", mm.cycles))


def modinv_compute(a: int, n: int, engine: str, params: dict[str, Any]) -> int:
    """COMPUTE of MODINV (rtl/top/pka_top_seq.sv, KInv), W = ceil(bits(N)/32): the check pass (3 W),
    E = N - 2 (2 W), the engine's MODEXP A^(N-2) (ARG = 0: hscm's window 0), its MODMUL A A^(N-2),
    the R == 1 pass (2 W) and the copy to R (2 W). N prime, 0 < A < N (the count of a command that
    ends with an error status is not reported)."""
    model = _engine_model(engine)
    prm = dict(params, window=0, ladder=0) if engine == "hscm" else dict(params)
    w = -(-n.bit_length() // 32)
    modexp = model.modexp(a, n - 2, n, prm)
    return 9 * w + int(modexp.cycles) + _modmul_compute(model, a, modexp.result, n, prm)


def ecc_check_compute(p: int, engine: str, params: dict[str, Any]) -> int:
    """COMPUTE of ECC_CHECK (KChk), W = ceil(bits(p)/32): the x, y < p pass (4 W), five copies (2 W
    each), two checked modular additions (a check pass and an addition, 8 W each), the compare
    (3 W) and three engine MODMULs (y^2, x^2, (x^2 + a) x: their counts depend on the length only)."""
    model = _engine_model(engine)
    w = -(-p.bit_length() // 32)
    return 33 * w + 3 * _modmul_compute(model, 1, 1, p, dict(params))


def ref_modinv(a: int, n: int, engine: str | None = None, params: dict[str, Any] | None = None) -> OpResult:
    """MODINV: check pass (N odd, A < N), E = N - 2, A^E on the engine, A * A^E == 1? (Fermat).
    With the engine: the count of the command (modinv_compute)."""
    if n <= 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "modulus must be positive")
    _len(n.bit_length())
    if n % 2 == 0:
        raise PkaError(Status.ERR_EVEN_MODULUS, "modulus must be odd")
    _range(a, n, "a")
    if a == 0:
        raise PkaError(Status.ERR_NO_INVERSE, "A = 0 has no inverse")
    # the engine's commands come before the R == 1 check: their errors (e.g. ERR_LENGTH) first
    cycles = modinv_compute(a, n, engine, params or {}) if engine is not None else None
    inv = pow(a, n - 2, n)
    if a * inv % n != 1:
        raise PkaError(Status.ERR_NO_INVERSE, "A * A^(N-2) != 1 mod N (N not prime, or gcd(A, N) > 1)")
    return OpResult(inv, cycles, None, {"method": "Fermat A^(N-2), checked"})


def ref_point_check(x: int, y: int, a: int, b: int, p: int, engine: str | None = None,
                    params: dict[str, Any] | None = None) -> OpResult:
    """ECC_CHECK: range pass (x, y < p), then y^2 == x^3 + a x + b mod p with the engine's MODMUL;
    b < p is checked before the compare (the driver writes a mod p, b as given). With the engine:
    the count of the command (ecc_check_compute)."""
    if p <= 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "modulus must be positive")
    _len(p.bit_length())
    if p % 2 == 0:
        raise PkaError(Status.ERR_EVEN_MODULUS, "modulus must be odd")
    _range(x, p, "x")
    _range(y, p, "y")
    # the engine's MODMULs come before the b < p check and the compare: their errors first
    cycles = ecc_check_compute(p, engine, params or {}) if engine is not None else None
    _range(b, p, "curve b")
    if (y * y - (x * x * x + a * x + b)) % p:
        raise PkaError(Status.ERR_NOT_ON_CURVE, "point not on the curve")
    return OpResult(1, cycles, None)


# ---- dispatch --------------------------------------------------------------------------------------

def run(name: str, kind: str, engine: str, params: dict[str, Any], ops: dict[str, int],
        progress: Callable[[int], None] | None = None) -> OpResult:
    """Operation `name` on backend `kind` ("model" or "rtl") with operands `ops`
    (a, b, n, x, y, curve_a, curve_b, r, length as the operation needs)."""
    if name not in OPS:
        raise PkaError(Status.ERR_OPCODE, f"unknown operation {name!r} ({', '.join(OPS)})")
    allowed = OP_ENGINES[name]
    if allowed and engine not in allowed:
        raise PkaError(Status.ERR_UNSUPPORTED, f"{name} runs on {', '.join(allowed)}, not {engine}")
    for key, what in (("a", "a"), ("b", "b"), ("x", "x"), ("y", "y"), ("curve_b", "curve b")):
        if ops.get(key, 0) < 0:   # the slots hold unsigned numbers (curve a: the driver writes a mod p)
            raise PkaError(Status.ERR_OPERAND_RANGE, f"{what} is negative: operands are unsigned")
    if kind == "model":
        return _model(name, engine, params, ops)
    if kind == "rtl":
        return _rtl(name, engine, params, ops, progress)
    raise PkaError(Status.ERR_PARAM, f"unknown backend {kind!r} (model|rtl)")


def _model(name: str, engine: str, params: dict[str, Any], o: dict[str, int]) -> OpResult:
    from pka.engines import get_engine

    if name in ("modadd", "modsub"):
        return ref_modadd(o["a"], o["b"], o["n"], sub=name == "modsub")
    if name == "mont-params":
        return ref_mont_params(o["n"], mont_r(o["n"], o.get("r", 0), engine, params))
    if name == "modinv":
        return ref_modinv(o["a"], o["n"], engine, params)
    if name == "point-check":
        return ref_point_check(o["x"], o["y"], o["curve_a"], o["curve_b"], o["n"], engine, params)
    model = get_engine(engine).model()
    if name == "modred":
        _parity(o["n"])
        return model.modred(o["a"], o["n"], params)  # type: ignore[no-any-return]
    if name == "mul":
        return model.mul(o["a"], o["b"], o["length"], params)  # type: ignore[no-any-return]
    # montmul
    _parity(o["n"])
    fn = model.montmul_op if engine == "hscm" else model.montmul
    return fn(o["a"], o["b"], o["n"], params)  # type: ignore[no-any-return]


def _parity(n: int) -> None:
    """Engine ops: an even modulus is reported before any length limit (the hardware's order)."""
    if n > 0 and n % 2 == 0:
        raise PkaError(Status.ERR_EVEN_MODULUS, "modulus must be odd")


def _rtl(name: str, engine: str, params: dict[str, Any], o: dict[str, int],
         progress: Callable[[int], None] | None) -> OpResult:
    from pka import driver

    bits = max(o.get("n", 0).bit_length(), o.get("length", 0), 32)
    pka = driver.session(engine, params, bits)
    eng = None if engine == "example" else engine
    if name == "modadd":
        return pka.modadd(o["a"], o["b"], o["n"])
    if name == "modsub":
        return pka.modsub(o["a"], o["b"], o["n"])
    if name == "mont-params":
        # the hardware decides (ERR_UNSUPPORTED for an engine without r); then the r it used, which
        # the driver's profile knows and W confirms
        res = pka.mont_params(o["n"], None, o.get("r", 0), eng if o.get("r", 0) == R_ENGINE else None)
        rr = mont_r(o["n"], o.get("r", 0), engine, params)
        if res.result != pow(2, 2 * rr, o["n"]):
            raise PkaError(Status.ERR_FAULT, f"MONT_PARAMS: W is not 2^(2r) mod N for the r = {rr} the driver "
                                             "expects of the engine")
        res.detail["r"] = rr
        return res
    if name == "modred":
        return pka.modred(o["a"], o["n"], eng, params)
    if name == "mul":
        return pka.mul(o["a"], o["b"], o["length"], eng)
    if name == "montmul":
        return pka.montmul(o["a"], o["b"], o["n"], eng, params)
    if name == "modinv":
        return pka.modinv(o["a"], o["n"], eng, progress, params)
    return pka.ecc_check(o["x"], o["y"], o["curve_a"], o["curve_b"], o["n"], eng, params)
