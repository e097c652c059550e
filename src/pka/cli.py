"""The `pka` command: a thin layer over the models, the RTL drivers and the benchmarks.

Every command takes --json. Bad input gives one line on stderr and exit status 2.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import click

from pka.engines import ENGINES, Engine, get_engine, parse_params
from pka.errors import PkaError, Status
from pka.model.common import OpResult


def parse_int(text: str, what: str) -> int:
    t = text.strip().replace("_", "")
    try:
        if t.lower().startswith(("0x", "-0x")):
            return int(t, 16)
        return int(t, 10)
    except ValueError:
        raise PkaError(Status.ERR_OPERAND_RANGE, f"{what}: malformed number {text!r} (decimal or 0x-hex)") from None


def hexs(x: int) -> str:
    return hex(x)


@contextmanager
def progress_display(enabled: bool, label: str) -> Iterator[Callable[[int], None] | None]:
    """A rich status line on stderr while Verilator builds and the simulation runs."""
    if not enabled or not sys.stderr.isatty():
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("pka: %(message)s"))
        logger = logging.getLogger("pka")
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        try:
            yield None
        finally:
            logger.removeHandler(handler)
        return
    from rich.console import Console

    console = Console(stderr=True)
    with console.status(label) as status:
        class _H(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                status.update(record.getMessage())

        logger = logging.getLogger("pka")
        h = _H()
        logger.addHandler(h)
        logger.setLevel(logging.INFO)

        def tick(cycles: int) -> None:
            status.update(f"{label}: {cycles:,} cycles simulated")

        try:
            yield tick
        finally:
            logger.removeHandler(h)


def call_engine(fn: Callable[..., Any], *args: Any, progress: Callable[[int], None] | None) -> Any:
    from pka.rsa import call
    return call(fn, *args, progress=progress)


def accelerator_backend(engine: Engine, backend: str) -> Any:
    """Whole-protocol commands (rsa, ecc, ecdh) with --backend rtl run through pka_top and its
    AXI4-Lite bus (pka.driver); with --backend model they run the engine's golden model."""
    if backend == "rtl":
        from pka import driver
        return driver.backend(engine.name)
    return engine.backend(backend)


def emit(data: dict[str, Any], as_json: bool, lines: list[str]) -> None:
    if as_json:
        click.echo(json.dumps(data, indent=2, default=str))
    else:
        for line in lines:
            click.echo(line)


def op_json(res: OpResult, engine: Engine, params: dict[str, Any], backend: str) -> dict[str, Any]:
    return {
        "result": hexs(res.result),
        "engine": engine.name,
        "params": params,
        "backend": backend,
        "cycles": res.cycles,
        "io_cycles": res.io_cycles,
        "detail": res.detail,
    }


ENGINE_OPT = click.option("--engine", "engine_name", default="hscm", show_default=True,
                          help=f"engine: {', '.join(ENGINES)}")
PARAM_OPT = click.option("--param", "param_items", multiple=True, metavar="NAME=VALUE",
                         help="engine parameter (repeatable); see `pka engines`")
BACKEND_OPT = click.option("--backend", type=click.Choice(["model", "rtl"]), default="model", show_default=True,
                           help="golden model or the Verilated RTL")
JSON_OPT = click.option("--json", "as_json", is_flag=True, help="machine-readable output")


@click.group()
@click.version_option(package_name="pka")
def cli() -> None:
    """pka: an open public-key accelerator (RTL engines + golden models)."""


@cli.command()
@JSON_OPT
def engines(as_json: bool) -> None:
    """List the engines, their papers and parameters."""
    data = {e.name: {"paper": e.paper, "title": e.title,
                     "params": {p.name: {"default": p.default, "choices": p.choices, "min": p.lo, "max": p.hi,
                                         "help": p.help} for p in e.params}} for e in ENGINES.values()}
    lines = []
    for e in ENGINES.values():
        lines.append(f"{e.name:7s} paper {e.paper}: {e.title}")
        for p in e.params:
            legal = "|".join(str(c) for c in p.choices) if p.choices else f"{p.lo}..{p.hi}"
            lines.append(f"          {p.name}={p.default}  ({legal}) {p.help}")
    emit(data, as_json, lines)


@cli.command()
@ENGINE_OPT
@PARAM_OPT
@click.option("--base", required=True, help="base X (decimal or 0x-hex)")
@click.option("--exp", "exp_text", required=True, help="exponent E >= 0")
@click.option("--mod", "mod_text", required=True, help="odd modulus N")
@BACKEND_OPT
@JSON_OPT
def modexp(engine_name: str, param_items: tuple[str, ...], base: str, exp_text: str, mod_text: str,
           backend: str, as_json: bool) -> None:
    """X^E mod N on one engine."""
    engine = get_engine(engine_name)
    params = parse_params(engine, param_items)
    x, e, n = parse_int(base, "base"), parse_int(exp_text, "exp"), parse_int(mod_text, "mod")
    if e < 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "exponent must be >= 0")
    impl = engine.backend(backend)
    with progress_display(backend == "rtl", f"{engine.name} modexp") as tick:
        res: OpResult = call_engine(impl.modexp, x, e, n, params, progress=tick)
    emit(op_json(res, engine, params, backend), as_json,
         [f"result  {hexs(res.result)}", f"cycles  {res.cycles}", f"engine  {engine.name} {params} ({backend})"])


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
    engine = get_engine(engine_name)
    params = parse_params(engine, param_items)
    a, b, n = parse_int(a_text, "a"), parse_int(b_text, "b"), parse_int(mod_text, "mod")
    impl = engine.backend(backend)
    with progress_display(backend == "rtl", f"{engine.name} modmul") as tick:
        res: OpResult = call_engine(impl.modmul, a, b, n, params, progress=tick)
    emit(op_json(res, engine, params, backend), as_json,
         [f"result  {hexs(res.result)}", f"cycles  {res.cycles}", f"engine  {engine.name} {params} ({backend})"])


@cli.command()
@click.option("--bits", default=2048, show_default=True, help="RSA modulus size")
@ENGINE_OPT
@PARAM_OPT
@click.option("--crt/--no-crt", default=True, show_default=True, help="CRT (p, q halves) or one exponentiation mod n")
@BACKEND_OPT
@click.option("--message", default="pka: open public-key accelerator", show_default=True)
@JSON_OPT
def rsa(bits: int, engine_name: str, param_items: tuple[str, ...], crt: bool, backend: str, message: str,
        as_json: bool) -> None:
    """Generate a key with `cryptography`, sign (PKCS#1 v1.5, SHA-256) on our engine, verify."""
    from pka import rsa as rsa_mod

    if bits < 512 or bits > 8192 or bits % 2:
        raise PkaError(Status.ERR_LENGTH, "RSA size must be even, 512..8192 bits")
    engine = get_engine(engine_name)
    params = parse_params(engine, param_items)
    impl = accelerator_backend(engine, backend)
    key = rsa_mod.generate_key(bits)
    with progress_display(backend == "rtl", f"RSA-{bits} on {engine.name} ({backend})") as tick:
        sig = rsa_mod.sign(key, message.encode(), impl, params, crt, progress=tick)
    data = {"verified": sig.verified, "bits": bits, "engine": engine.name, "params": params, "backend": backend,
            "crt": crt, "cycles": sig.cycles, "signature": sig.signature.hex(), "detail": sig.detail}
    emit(data, as_json, [
        f"RSA-{bits} {'CRT ' if crt else ''}signature on {engine.name} ({backend}, {sig.detail.get('path', '')})",
        f"cycles    {sig.cycles:,}" if sig.cycles is not None else "cycles    n/a",
        f"verified  {sig.verified} (by cryptography)",
    ])
    if not sig.verified:
        sys.exit(1)


CURVE_CHOICES = ["p256", "sbmm192", "sbmm384", "sbmm512"]


def _p256_check(scalar: int, x: int, peer: tuple[int, int] | None) -> bool:
    """Cross-check our x against `cryptography`: k*G (public key) or ECDH with the peer point."""
    from cryptography.hazmat.primitives.asymmetric import ec

    priv = ec.derive_private_key(scalar, ec.SECP256R1())
    if peer is None:
        return priv.public_key().public_numbers().x == x
    peer_key = ec.EllipticCurvePublicNumbers(peer[0], peer[1], ec.SECP256R1()).public_key()
    return int.from_bytes(priv.exchange(ec.ECDH(), peer_key), "big") == x


def _ecc(curve: str, scalar_text: str, engine_name: str, param_items: tuple[str, ...], backend: str,
         peer: tuple[int, int] | None) -> tuple[dict[str, Any], list[str]]:
    engine = get_engine(engine_name)
    if engine.name != "rns":
        raise PkaError(Status.ERR_UNSUPPORTED, f"elliptic curves run on the rns engine, not {engine.name}")
    model = engine.model()
    spec = model.CURVES[curve]
    if not any(item.startswith("w=") for item in param_items):
        param_items = (f"w={spec.w}", *param_items)  # the channel width the curve was generated for
    params = parse_params(engine, param_items)
    k = parse_int(scalar_text, "scalar")
    if not 1 <= k < spec.order:
        raise PkaError(Status.ERR_OPERAND_RANGE, "scalar must be in [1, order)")
    if peer is not None:
        model.check_point(curve, peer[0], peer[1])
    impl = accelerator_backend(engine, backend)
    with progress_display(backend == "rtl", f"{curve} k*P on {engine.name}") as tick:
        res: OpResult = call_engine(impl.ecc_mul, curve, k, params, peer, progress=tick)
    data: dict[str, Any] = {"curve": curve, "x": hexs(res.result), "engine": engine.name, "params": params,
                            "backend": backend, "cycles": res.cycles, "detail": res.detail}
    lines = [f"x       {hexs(res.result)}", f"cycles  {res.cycles}"]
    if curve == "p256":
        data["verified"] = _p256_check(k, res.result, peer)
        lines.append(f"verified {data['verified']} (by cryptography)")
    return data, lines


@cli.command()
@click.option("--curve", type=click.Choice(CURVE_CHOICES), required=True)
@click.option("--scalar", "scalar_text", required=True, help="scalar k in [1, order)")
@click.option("--engine", "engine_name", default="rns", show_default=True)
@PARAM_OPT
@BACKEND_OPT
@JSON_OPT
def ecc(curve: str, scalar_text: str, engine_name: str, param_items: tuple[str, ...], backend: str,
        as_json: bool) -> None:
    """x-coordinate of k*G by the (X,Z) Montgomery ladder."""
    data, lines = _ecc(curve, scalar_text, engine_name, param_items, backend, None)
    emit(data, as_json, lines)
    if data.get("verified") is False:
        sys.exit(1)


@cli.command()
@click.option("--curve", type=click.Choice(CURVE_CHOICES), default="p256", show_default=True)
@click.option("--scalar", "scalar_text", required=True, help="our private scalar k")
@click.option("--peer-x", "peer_x", required=True, help="peer public point x")
@click.option("--peer-y", "peer_y", required=True, help="peer public point y")
@click.option("--engine", "engine_name", default="rns", show_default=True)
@PARAM_OPT
@BACKEND_OPT
@JSON_OPT
def ecdh(curve: str, scalar_text: str, peer_x: str, peer_y: str, engine_name: str, param_items: tuple[str, ...],
         backend: str, as_json: bool) -> None:
    """ECDH: validate the peer's point, then the shared x = x(k * peer)."""
    peer = (parse_int(peer_x, "peer-x"), parse_int(peer_y, "peer-y"))
    data, lines = _ecc(curve, scalar_text, engine_name, param_items, backend, peer)
    emit(data, as_json, lines)
    if data.get("verified") is False:
        sys.exit(1)


def _register_optional_commands() -> None:
    """Commands that live in their own modules (synthesis, exploration) register themselves here."""
    import importlib

    for name in ("pka.cli_synth",):
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        for command in mod.COMMANDS:
            cli.add_command(command)


_register_optional_commands()


def main(argv: list[str] | None = None) -> None:
    try:
        cli.main(args=argv, prog_name="pka", standalone_mode=False)
    except PkaError as exc:
        click.echo(f"pka: error: {exc}", err=True)
        sys.exit(2)
    except click.exceptions.Abort:
        click.echo("pka: aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        click.echo(f"pka: error: {exc.format_message()}", err=True)
        sys.exit(2)
    except Exception as exc:  # a bug, not bad input: one line, the traceback on request
        if os.environ.get("PKA_DEBUG"):
            raise
        first = str(exc).splitlines()[0] if str(exc) else ""
        click.echo(f"pka: internal error: {type(exc).__name__}: {first} (PKA_DEBUG=1 shows the traceback)", err=True)
        sys.exit(3)


if __name__ == "__main__":
    main()
