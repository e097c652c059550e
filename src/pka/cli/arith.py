"""`pka engines`, `pka modexp`, `pka modmul` and `pka op NAME` (the accelerator's whole op set)."""

from __future__ import annotations

from typing import Any

import click

from pka.cli import (BACKEND_OPT, ENGINE_OPT, JSON_OPT, PARAM_OPT, check_modulus_first, cli, emit, emit_table,
                     engine_params, fmt_params, hexs, parse_int, progress_display)
from pka.engines import ENGINES, Engine
from pka.errors import PkaError, Status
from pka.model.common import OpResult
from pka.proto.backend import call

# what each engine serves beyond its own opcodes (pka_top: doc/top.md's "served by" table; the
# protocols of pka.proto on top of them)
PROTOCOLS = {
    "csa2": ["RSA (two MODEXP + host Garner)", "MONT_PARAMS with its own r (ELEN = 0xFFFF)"],
    "mwr4": ["RSA (two MODEXP + host Garner)", "MONT_PARAMS with its own r (ELEN = 0xFFFF)"],
    "victor": ["RSA (two MODEXP + host Garner)"],
    "hscm": ["RSA (RSA_CRT: key setup, blinding and check in the sequencer)",
             "MONT_PARAMS with its own r (ELEN = 0xFFFF)",
             "ECDSA_SIGN's k^-1 mod n and s, beside rns (--backend rtl)"],
    "rns": ["k*G, ECDH: P-256, P-384, sbmm192/384/512 (ECC_MUL)",
            "ECDSA P-256/P-384 sign: --backend rtl ECDSA_SIGN (k*G here, k^-1 and s on hscm, the nonce inside); "
            "--backend model host-composed (k*G here, s on the host)",
            "ECDSA verify (host-composed: two ECC_MUL ladders + one host point addition)",
            "X25519 (ECC_MUL's RFC 7748 Montgomery-ladder mode)"],
}
# the sequencer's operations: its own, and those it composes from engines' commands
SEQ_OWN = ["NOP", "MODADD", "MODSUB", "MONT_PARAMS", "ZEROIZE"]
SEQ_COMPOSED = {
    "MODINV": ("a binary engine's MODEXP and MODMUL (Fermat, checked)", ("hscm", "victor", "mwr4", "csa2")),
    "ECC_CHECK": ("a binary engine's MODMUL", ("hscm", "victor", "mwr4", "csa2")),
    "ECDSA_SIGN": ("rns (k*G) and hscm (k^-1, s mod n): a build with both (pka.rtl.top.ecdsa_config)",
                   ("rns", "hscm")),
}


def engine_ops(name: str) -> list[str]:
    from pka.driver import PROFILES
    from pka.sim import Op

    prof = PROFILES.get(name)
    return sorted((Op(o).name for o in prof.ops), key=lambda s: Op[s].value) if prof else []


def engines_json() -> dict[str, Any]:
    data: dict[str, Any] = {
        e.name: {"paper": e.paper, "title": e.title, "ops": engine_ops(e.name),
                 "with_sequencer": [op for op, (_, engs) in SEQ_COMPOSED.items() if e.name in engs],
                 "protocols": PROTOCOLS.get(e.name, []),
                 "params": {p.name: {"default": p.default, "choices": p.choices, "min": p.lo, "max": p.hi,
                                     "help": p.help} for p in e.params}} for e in ENGINES.values()}
    data["sequencer"] = {
        "paper": "", "title": "pka_top's sequencer (rtl/top/pka_top_seq.sv)", "params": {},
        "ops": SEQ_OWN + list(SEQ_COMPOSED), "with_sequencer": [],
        "protocols": [f"{op}: with {how}" for op, (how, _) in SEQ_COMPOSED.items()]}
    return data


@cli.command()
@JSON_OPT
def engines(as_json: bool) -> None:
    """The engines: papers, parameters, and the operations each serves (its own opcodes, those the
    sequencer runs with it, the protocols on top)."""
    data = engines_json()
    if as_json:
        emit(data, True)
        return
    body = []
    for name, d in data.items():
        params = ", ".join(f"{k}={v['default']} ({_legal(v)})" for k, v in d["params"].items())
        ops = ", ".join(d["ops"]) or "-"
        if d["with_sequencer"]:
            ops += "; with the sequencer: " + ", ".join(d["with_sequencer"])
        body.append([name, d["paper"], d["title"], params or "-", ops, "; ".join(d["protocols"]) or "-"])
    emit_table(["engine", "paper", "architecture", "parameters (default, legal)", "opcodes (pka_top)",
                "serves"], body, "pka engines")


def _legal(v: dict[str, Any]) -> str:
    return "|".join(map(str, v["choices"])) if v["choices"] else f"{v['min']}..{v['max']}"


def op_json(res: OpResult, engine: Engine | str, params: dict[str, Any], backend: str, **extra: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"result": hexs(res.result)}
    d.update(extra)
    d.update({"engine": engine if isinstance(engine, str) else engine.name, "params": params, "backend": backend,
              "cycles": res.cycles, "io_cycles": res.io_cycles, "detail": res.detail})
    return d


def op_rows(data: dict[str, Any]) -> list[tuple[str, Any]]:
    rows: list[tuple[str, Any]] = [(k, v) for k, v in data.items()
                                   if k not in ("engine", "params", "backend", "detail", "io_cycles", "build")]
    if "build" in data:     # the sequencer's own operation, on a pka_top build holding some engine
        rows.append(("engine", f"{data['engine']} (pka_top with {data['build']} {fmt_params(data['params'])}; "
                               f"{data['backend']})"))
    else:
        rows.append(("engine", f"{data['engine']} {fmt_params(data['params'])} ({data['backend']})"))
    return rows


def _binary_impl(engine: Engine, backend: str) -> Any:
    return engine.backend(backend)


@cli.command()
@ENGINE_OPT
@PARAM_OPT
@click.option("--base", required=True, help="base X (decimal or 0x-hex, @FILE, -)")
@click.option("--exp", "exp_text", required=True, help="exponent E >= 0")
@click.option("--mod", "mod_text", required=True, help="odd modulus N")
@click.option("--ct", is_flag=True, help="constant time (MODEXP_CT): E is secret, processed as max(bits(N), "
              "bits(E)) bits whatever its value")
@BACKEND_OPT
@JSON_OPT
def modexp(engine_name: str, param_items: tuple[str, ...], base: str, exp_text: str, mod_text: str,
           ct: bool, backend: str, as_json: bool) -> None:
    """X^E mod N on one engine (--backend rtl: through pka_top; --ct: MODEXP_CT)."""
    engine, params = engine_params(engine_name, param_items)
    x, e, n = parse_int(base, "base"), parse_int(exp_text, "exp"), parse_int(mod_text, "mod")
    check_modulus_first(n)
    if e < 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "exponent must be >= 0")
    impl = _binary_impl(engine, backend)
    elen = max(n.bit_length(), e.bit_length())
    with progress_display(backend == "rtl", f"{engine.name} modexp{' (constant time)' if ct else ''}") as tick:
        if not ct:
            res: OpResult = call(impl.modexp, x, e, n, params, progress=tick)
        elif backend == "model" and hasattr(impl, "modexp_ct"):
            res = call(impl.modexp_ct, x, e, n, params, elen=elen)
        elif backend == "model":
            res = call(impl.modexp, x, e, n, dict(params, ladder=1), elen=elen)   # hscm: the ladder
        else:
            res = call(impl.modexp, x, e, n, dict(params, ladder=1), progress=tick)
    data = op_json(res, engine, params, backend, constant_time=ct, elen=elen if ct else e.bit_length())
    emit(data, as_json, op_rows(data))


@cli.command()
@ENGINE_OPT
@PARAM_OPT
@click.option("--a", "a_text", required=True, help="operand a")
@click.option("--b", "b_text", required=True, help="operand b")
@click.option("--mod", "mod_text", required=True, help="odd modulus N")
@BACKEND_OPT
@JSON_OPT
def modmul(engine_name: str, param_items: tuple[str, ...], a_text: str, b_text: str, mod_text: str,
           backend: str, as_json: bool) -> None:
    """a*b mod N (normal domain); cycles = one Montgomery product of the engine."""
    engine, params = engine_params(engine_name, param_items)
    a, b, n = parse_int(a_text, "a"), parse_int(b_text, "b"), parse_int(mod_text, "mod")
    check_modulus_first(n)
    impl = _binary_impl(engine, backend)
    with progress_display(backend == "rtl", f"{engine.name} modmul") as tick:
        res: OpResult = call(impl.modmul, a, b, n, params, progress=tick)
    data = op_json(res, engine, params, backend)
    emit(data, as_json, op_rows(data))


# ---- pka op NAME ----------------------------------------------------------------------------------------

@cli.group()
def op() -> None:
    """The accelerator's op set one by one (doc/top.md): modadd, modsub, modred, mul, montmul,
    modinv, mont-params, point-check. --backend model: host reference / golden model; rtl: pka_top."""


def _op_engine(name: str, engine_name: str | None, param_items: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
    from pka.proto import ops

    eng = engine_name or ops.DEFAULT_ENGINE[name]
    if eng == "example":        # the sequencer's own ops: the smallest pka_top build (example engine)
        if param_items:
            raise PkaError(Status.ERR_PARAM, f"{name} runs in the sequencer: no engine parameters")
        return eng, {}
    _, params = engine_params(eng, param_items)
    return eng, params


def _run_op(name: str, engine_name: str | None, param_items: tuple[str, ...], backend: str, as_json: bool,
            operands: dict[str, int], **extra_json: Any) -> None:
    from pka.proto import ops

    eng, params = _op_engine(name, engine_name, param_items)
    with progress_display(backend == "rtl", f"{name} on pka_top") as tick:
        res = ops.run(name, backend, eng, params, operands, tick)
    data = op_json(res, eng, params, backend, **extra_json)
    if not ops.OP_ENGINES[name]:
        # MODADD, MODSUB, MONT_PARAMS run in pka_top's sequencer whatever the build (CMD.ENGINE = 0,
        # pka_top_pkg::OpsNative); the engine only picks the build (and, with --r engine, whose r)
        data["engine"] = "sequencer"
        data["build"] = eng
    if name == "mont-params":
        mu = res.detail.get("mu")
        data["mu"] = mu if isinstance(mu, str) else hexs(int(mu))
        data["r"] = res.detail["r"]
    emit(data, as_json, op_rows(data), f"{name.upper()} ({backend})")


def _op_options(*names: str) -> Any:
    helps = {"a": "operand A", "b": "operand B", "mod": "modulus N"}

    def deco(f: Any) -> Any:
        f = JSON_OPT(f)
        f = BACKEND_OPT(f)
        f = PARAM_OPT(f)
        f = click.option("--engine", "engine_name", default=None,
                         help="the op's engine (default: doc/top.md's); for the sequencer's own ops "
                              "(modadd, modsub) the pka_top build they run on")(f)
        for n in reversed(names):
            f = click.option(f"--{n}", f"{n}_text", required=True, help=helps.get(n, n))(f)
        return f
    return deco


@op.command("modadd")
@_op_options("a", "b", "mod")
def op_modadd(a_text: str, b_text: str, mod_text: str, engine_name: str | None, param_items: tuple[str, ...],
              backend: str, as_json: bool) -> None:
    """(A + B) mod N, A, B < N (sequencer)."""
    _run_op("modadd", engine_name, param_items, backend, as_json,
            {"a": parse_int(a_text, "a"), "b": parse_int(b_text, "b"), "n": parse_int(mod_text, "mod")})


@op.command("modsub")
@_op_options("a", "b", "mod")
def op_modsub(a_text: str, b_text: str, mod_text: str, engine_name: str | None, param_items: tuple[str, ...],
              backend: str, as_json: bool) -> None:
    """(A - B) mod N, A, B < N (sequencer)."""
    _run_op("modsub", engine_name, param_items, backend, as_json,
            {"a": parse_int(a_text, "a"), "b": parse_int(b_text, "b"), "n": parse_int(mod_text, "mod")})


@op.command("modred")
@_op_options("a", "mod")
def op_modred(a_text: str, mod_text: str, engine_name: str | None, param_items: tuple[str, ...],
              backend: str, as_json: bool) -> None:
    """A mod N for A < 2^(2 LEN) (hscm; the slots A_HI:A)."""
    n = parse_int(mod_text, "mod")
    check_modulus_first(n)
    _run_op("modred", engine_name, param_items, backend, as_json, {"a": parse_int(a_text, "a"), "n": n})


@op.command("mul")
@_op_options("a", "b")
@click.option("--bits", type=int, default=None, help="LEN (default: the larger operand's bits, at least 64)")
def op_mul(a_text: str, b_text: str, engine_name: str | None, param_items: tuple[str, ...], backend: str,
           as_json: bool, bits: int | None) -> None:
    """The 2 LEN-bit product A B (hscm)."""
    a, b = parse_int(a_text, "a"), parse_int(b_text, "b")
    length = bits or max(64, a.bit_length(), b.bit_length())
    _run_op("mul", engine_name, param_items, backend, as_json, {"a": a, "b": b, "length": length}, bits=length)


@op.command("montmul")
@_op_options("a", "b", "mod")
def op_montmul(a_text: str, b_text: str, mod_text: str, engine_name: str | None, param_items: tuple[str, ...],
               backend: str, as_json: bool) -> None:
    """A B R^-1 mod N in the engine's Montgomery domain and output range (hscm, mwr4)."""
    n = parse_int(mod_text, "mod")
    check_modulus_first(n)
    _run_op("montmul", engine_name, param_items, backend, as_json,
            {"a": parse_int(a_text, "a"), "b": parse_int(b_text, "b"), "n": n})


@op.command("modinv")
@_op_options("a", "mod")
def op_modinv(a_text: str, mod_text: str, engine_name: str | None, param_items: tuple[str, ...], backend: str,
              as_json: bool) -> None:
    """A^-1 mod N, N prime (Fermat on a binary engine's MODEXP, checked by its MODMUL)."""
    _run_op("modinv", engine_name, param_items, backend, as_json,
            {"a": parse_int(a_text, "a"), "n": parse_int(mod_text, "mod")})


@op.command("mont-params")
@click.option("--mod", "mod_text", required=True, help="odd modulus N")
@click.option("--r", "r_text", default="0", show_default=True,
              help="r of W = 2^(2r) mod N: a number (0: 32 ceil(LEN/32)), or 'engine': the Montgomery exponent "
                   "the hardware knows for the engine named by --engine (hscm, csa2, mwr4; ELEN = 0xFFFF)")
@click.option("--engine", "engine_name", default=None,
              help="pka_top build (default: the sequencer alone); with --r engine, whose r")
@PARAM_OPT
@BACKEND_OPT
@JSON_OPT
def op_mont_params(mod_text: str, r_text: str, engine_name: str | None, param_items: tuple[str, ...], backend: str,
                   as_json: bool) -> None:
    """W = 2^(2r) mod N and MU = -N^-1 mod 2^64 (sequencer)."""
    from pka.proto.ops import R_ENGINE

    if r_text.strip().lower() == "engine":
        r = R_ENGINE
    else:
        r = parse_int(r_text, "r")
        if not 0 <= r < R_ENGINE:
            raise PkaError(Status.ERR_LENGTH, f"--r {r} outside 0..{R_ENGINE - 1} (or 'engine')")
    _run_op("mont-params", engine_name, param_items, backend, as_json, {"n": parse_int(mod_text, "mod"), "r": r},
            r_mode="engine" if r == R_ENGINE else "given" if r else "default")


@op.command("point-check")
@click.option("--x", "x_text", required=True, help="x")
@click.option("--y", "y_text", required=True, help="y")
@click.option("--curve", "curve_text", default=None, help="a named curve (P-256, P-384, ...) for a, b, p")
@click.option("--a", "a_text", default=None, help="curve a (without --curve)")
@click.option("--b", "b_text", default=None, help="curve b (without --curve)")
@click.option("--mod", "mod_text", default=None, help="field prime p (without --curve)")
@click.option("--engine", "engine_name", default=None, help="binary engine for the MODMULs")
@PARAM_OPT
@BACKEND_OPT
@JSON_OPT
def op_point_check(x_text: str, y_text: str, curve_text: str | None, a_text: str | None, b_text: str | None,
                   mod_text: str | None, engine_name: str | None, param_items: tuple[str, ...], backend: str,
                   as_json: bool) -> None:
    """Is (x, y) on y^2 = x^3 + a x + b mod p? Prints valid true/false (exit 0); bad ranges exit 2."""
    from pka.proto import ops
    from pka.proto.ecdh import curve
    from pka.proto.keys import curve_name

    if curve_text:
        c = curve(curve_name(curve_text))
        a, b, p = c.a, c.b, c.p
    elif a_text is not None and b_text is not None and mod_text is not None:
        a, b, p = parse_int(a_text, "a"), parse_int(b_text, "b"), parse_int(mod_text, "mod")
    else:
        raise PkaError(Status.ERR_PARAM, "point-check needs --curve, or --a, --b and --mod")
    x, y = parse_int(x_text, "x"), parse_int(y_text, "y")
    eng, params = _op_engine("point-check", engine_name, param_items)
    valid, status = True, "OK"
    with progress_display(backend == "rtl", "point-check on pka_top") as tick:
        try:
            res = ops.run("point-check", backend, eng, params, {"x": x, "y": y, "curve_a": a, "curve_b": b, "n": p},
                          tick)
            cycles, detail = res.cycles, res.detail
        except PkaError as exc:
            if exc.status != Status.ERR_NOT_ON_CURVE:
                raise
            valid, status, cycles, detail = False, exc.status.name, None, {}
    data = {"valid": valid, "status": status, "engine": eng, "params": params, "backend": backend,
            "cycles": cycles, "detail": detail}
    emit(data, as_json, [("valid", valid), ("status", status), ("cycles", cycles),
                         ("engine", f"{eng} {fmt_params(params)} ({backend})")], f"ECC_CHECK ({backend})")
