"""The `pka` command: a thin layer over the protocols (pka.proto), the models, the drivers and the
benchmarks; one module per command group:

  arith   modexp, modmul, op (the accelerator's whole op set)     ec      ecc, ecdh, ecdsa, x25519
  rsa     rsa sign|verify                                         keygen  keygen rsa|ec
  synth   synth, explore                                          bench   bench NAME, demo
  soc     soc --board ulx3s (bitstream), soc verify-log

One shape everywhere: every command takes --json and --backend model|rtl where it computes; numbers
are 0x-hex (X25519's byte strings are the one exception); human output is a table. Errors: one line
on stderr, or {"error": {"code": ..., "message": ...}} on stdout under --json; exit status 2 for
every error (bad input, a hardware status, or a result `cryptography` does not confirm: ERR_FAULT,
the result withheld), 3 for an internal error (a bug).
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import click

from pka.engines import ENGINES, Engine
from pka.errors import PkaError, Status

# ---- numbers, bytes and files ----------------------------------------------------------------------


class InputError(PkaError):
    """A file that cannot be read or written (JSON code ERR_INPUT, exit 2)."""

    code = "ERR_INPUT"

    def __init__(self, message: str) -> None:
        super().__init__(Status.ERR_PARAM, message)


def read_input(src: str, what: str) -> bytes:
    """The bytes of FILE, or of standard input for '-'."""
    if src == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(src).read_bytes()
    except OSError as exc:
        raise InputError(f"{what}: cannot read {src}: {exc.strerror or exc}") from None


def write_output(dst: str, data: bytes, what: str) -> None:
    try:
        Path(dst).write_bytes(data)
    except OSError as exc:
        raise InputError(f"{what}: cannot write {dst}: {exc.strerror or exc}") from None


def operand_text(text: str, what: str) -> str:
    """An operand as given: '@FILE' reads it from FILE, '-' from standard input, else the text itself."""
    if text.startswith("@"):
        return read_input(text[1:], what).decode(errors="replace")
    if text == "-":
        return sys.stdin.read()
    return text


def parse_int(text: str, what: str) -> int:
    """Decimal or 0x-hex; '@FILE' reads the number from FILE, '-' from standard input."""
    text = operand_text(text, what)
    t = text.strip().replace("_", "")
    try:
        if t.lower().startswith(("0x", "-0x")):
            return int(t, 16)
        return int(t, 10)
    except ValueError:
        raise PkaError(Status.ERR_OPERAND_RANGE, f"{what}: malformed number {text.strip()[:40]!r} "
                                                 "(decimal or 0x-hex, @FILE, - for stdin)") from None


def hexs(x: int) -> str:
    return hex(x)


def withhold(what: str) -> PkaError:
    """The error for a result that failed its cross-check by `cryptography` (issue 13's rule): the
    result is neither printed nor written, the command ends with ERR_FAULT (exit 2)."""
    return PkaError(Status.ERR_FAULT, f"{what} failed verification by cryptography: withheld")


def fmt_value(v: Any) -> str:
    """A value for the human table: dicts as k=v, lists comma-separated, never a Python repr."""
    if isinstance(v, dict):
        return " ".join(f"{k}={fmt_value(x)}" for k, x in v.items()) or "-"
    if isinstance(v, (list, tuple)):
        return ", ".join(fmt_value(x) for x in v)
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return f"{v:,}"
    if v is None:
        return "n/a"
    return str(v)


def fmt_params(params: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in params.items()) or "defaults"


# ---- output ------------------------------------------------------------------------------------------

# keys whose integers are numbers (operands, coordinates, moduli), 0x-hex in JSON wherever they occur
# (e.g. a model's detail: the point's y, the RNS bases); every other integer is a count or a setting
NUMBER_KEYS = frozenset({"x", "y", "s", "mu", "result", "base_b", "base_bp"})


def json_numbers(v: Any, number: bool = False) -> Any:
    """`v` with the integers under NUMBER_KEYS (lists of them included) as 0x-hex strings."""
    if isinstance(v, dict):
        return {k: json_numbers(x, k in NUMBER_KEYS) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [json_numbers(x, number) for x in v]
    if number and isinstance(v, int) and not isinstance(v, bool):
        return hex(v)
    return v


def _console(err: bool = False) -> Any:
    from rich.console import Console
    f = sys.stderr if err else sys.stdout
    width = None if f.isatty() else 160   # a pipe or a file: wide rows, whole hex numbers on one line
    return Console(file=f, highlight=False, soft_wrap=False, width=width)


def emit(data: dict[str, Any], as_json: bool, rows: list[tuple[str, Any]] | None = None,
         title: str | None = None) -> None:
    """JSON (the whole `data`) or a two-column rich table of `rows` (default: data's top-level items)."""
    if as_json:
        click.echo(json.dumps(json_numbers(data), indent=2, default=str))
        return
    from rich import box
    from rich.table import Table

    table = Table(title=title, show_header=False, box=box.SIMPLE, title_justify="left")
    table.add_column("field", style="bold", no_wrap=True)
    table.add_column("value", overflow="fold")
    for k, v in (rows if rows is not None else list(data.items())):
        table.add_row(k, v if isinstance(v, str) else fmt_value(v))
    _console().print(table)


def emit_table(head: list[str], body: list[list[str]], title: str | None = None) -> None:
    from rich import box
    from rich.table import Table

    table = Table(title=title, box=box.SIMPLE, title_justify="left")
    for h in head:
        table.add_column(h, overflow="fold")
    for row in body:
        table.add_row(*row)
    _console().print(table)


def _fmt_record(rec: logging.LogRecord) -> str:
    """A log record without Python reprs: dict arguments as k=v, tuples comma-separated."""
    if isinstance(rec.args, dict) and "%(" not in str(rec.msg):
        args: tuple[Any, ...] = (rec.args,)    # logging unpacks a lone dict argument: wrap it again
    else:
        args = rec.args if isinstance(rec.args, tuple) else ()
    out = []
    for a in args:
        if isinstance(a, dict):
            out.append(" ".join(f"{k}={v}" for k, v in a.items()))
        elif isinstance(a, (tuple, list)):
            out.append(",".join(str(x) for x in a))
        else:
            out.append(a)
    try:
        return str(rec.msg) % tuple(out) if out else str(rec.msg)
    except (TypeError, ValueError):
        return rec.getMessage()


@contextmanager
def progress_display(enabled: bool, label: str) -> Iterator[Callable[[int], None] | None]:
    """While the RTL runs: Verilator builds with their elapsed time (only the first run builds; the
    cache serves later runs) and the cycles simulated. A spinner on a terminal, log lines otherwise.
    Nothing for the model backend."""
    if not enabled:
        yield None
        return
    logger = logging.getLogger("pka")
    state: dict[str, Any] = {"build": None, "what": ""}
    tty = sys.stderr.isatty()

    def built() -> None:
        if state["build"] is not None:
            click.echo(f"pka: built {state['what']} in {time.monotonic() - state['build']:.0f} s "
                       "(cached: later runs start at once)", err=True)
            state["build"] = None

    if tty:
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
        prog = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                        console=_console(err=True), transient=True)
        task = prog.add_task(label)
    else:
        prog = None
        task = None

    class _H(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            msg = _fmt_record(record)
            if not msg.startswith("building"):
                return   # configuration chatter (pka.top's build parameters): not for the user
            built()
            state["build"] = time.monotonic()
            state["what"] = msg.split(" with ")[0].removeprefix("building ").split(" ")[0]
            text = f"{msg} (only the first run builds: a few minutes; later runs reuse it)"
            if prog is not None:
                prog.update(task, description=text)
            else:
                click.echo(f"pka: {text}", err=True)

    def tick(cycles: int) -> None:
        if state["build"] is not None and prog is None:
            built()
        if prog is not None:
            prog.update(task, description=f"{label}: {cycles:,} cycles simulated")

    h = _H()
    logger.addHandler(h)
    old = logger.level
    logger.setLevel(logging.INFO)
    try:
        if prog is not None:
            with prog:
                yield tick
        else:
            yield tick
    finally:
        logger.removeHandler(h)
        logger.setLevel(old)
        built()


# ---- options shared by the groups ---------------------------------------------------------------------

def engine_opt(default: str = "hscm", help: str | None = None) -> Callable[[Any], Any]:
    return click.option("--engine", "engine_name", default=default, show_default=True,
                        help=help or f"engine: {', '.join(ENGINES)}")


ENGINE_OPT = engine_opt()
PARAM_OPT = click.option("--param", "param_items", multiple=True, metavar="NAME=VALUE",
                         help="engine parameter (repeatable); see `pka engines`")
BACKEND_OPT = click.option("--backend", type=click.Choice(["model", "rtl"]), default="model", show_default=True,
                           help="model: the golden model (exact cycle prediction); rtl: the Verilated "
                                "RTL (built once, cached)")
JSON_OPT = click.option("--json", "as_json", is_flag=True, help="machine-readable output on stdout")
SEED_OPT = click.option("--seed", type=int, default=None,
                        help="make up keys/messages/nonces reproducibly from this seed")


def engine_params(engine_name: str, param_items: tuple[str, ...], defaults: tuple[str, ...] = ()) -> tuple[Engine, dict[str, Any]]:
    from pka.engines import get_engine, parse_params

    engine = get_engine(engine_name)
    names = {i.split("=", 1)[0] for i in param_items}
    items = tuple(d for d in defaults if d.split("=", 1)[0] not in names) + tuple(param_items)
    return engine, parse_params(engine, items)


def check_modulus_first(n: int, what: str = "mod") -> None:
    """Parity before length: an even modulus is reported as such whatever its size."""
    if n <= 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, f"{what}: modulus must be positive")
    if n % 2 == 0:
        raise PkaError(Status.ERR_EVEN_MODULUS, f"{what}: modulus must be odd")


# ---- the group ---------------------------------------------------------------------------------------

@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pka")
@click.option("--blinding", type=click.Choice(["on", "off"]), default="on", show_default=True,
              help="--backend rtl: blinding from the entropy port (RSA_CRT, MODEXP_CT with an order, ECC_MUL); "
                   "off gives the papers' cycle figures (the model backend never blinds)")
def cli(blinding: str) -> None:
    """pka: an open public-key accelerator (RTL engines + golden models).

    Every command takes --json; --backend model|rtl picks the golden model or the simulated RTL."""
    from pka import driver
    driver.DEFAULT_BLINDING = blinding == "on"


def error_code(exc: PkaError) -> str:
    return str(getattr(exc, "code", None) or exc.status.name)


def _fail(as_json: bool, code: str, message: str, status: int) -> None:
    if as_json:
        click.echo(json.dumps({"error": {"code": code, "message": message}}, indent=2))
    else:
        click.echo(f"pka: error: {message}" if status == 2 else f"pka: {message}", err=True)
    sys.exit(status)


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in args
    try:
        cli.main(args=args, prog_name="pka", standalone_mode=False)
    except PkaError as exc:
        code = error_code(exc)
        msg = str(exc)
        if not as_json and code.startswith("ERR_") and code[4:] not in msg.upper().replace(" ", "_"):
            msg = f"{msg} ({code})"
        _fail(as_json, code, msg, 2)
    except click.exceptions.Abort:
        _fail(as_json, "ERR_ABORTED", "aborted", 130)
    except click.ClickException as exc:
        _fail(as_json, "ERR_USAGE", exc.format_message(), 2)
    except Exception as exc:  # a bug, not bad input: one line, the traceback on request
        if os.environ.get("PKA_DEBUG"):
            raise
        first = str(exc).splitlines()[0] if str(exc) else ""
        _fail(as_json, "ERR_INTERNAL",
              f"internal error: {type(exc).__name__}: {first} (PKA_DEBUG=1 shows the traceback)", 3)


# the command groups register themselves on `cli`
from pka.cli import arith, bench, ec, fault, keygen, rsa, synth  # noqa: E402,F401
from pka.cli import tvla  # noqa: E402,F401
from pka.cli import soc  # noqa: E402,F401
