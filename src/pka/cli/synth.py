"""`pka synth` and `pka explore`: the open FPGA flow and the design-space sweep (doc/synth.md)."""

from __future__ import annotations

import json
import logging
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import click

from pka.cli import _fmt_record, cli, fmt_params
from pka.errors import PkaError, Status
from pka.synth import TARGETS, FlowOptions, design_for, parse_param_items, summary_lines, synth_design, unit_design

TARGET_OPT = click.option("--target", type=click.Choice(sorted(TARGETS)), default="ecp5-85k", show_default=True,
                          help="ECP5-85 (speed 6, CABGA381) or iCE40 UP5K (SG48) with place and route; "
                               "xc7-cells: Xilinx 7 cell counts only")
FREQ_OPT = click.option("--freq", type=float, default=None,
                        help="clock constraint for nextpnr in MHz (default: 100 ECP5, 24 iCE40); fmax is measured either way")
SEED_OPT = click.option("--seed", type=int, default=1, show_default=True, help="nextpnr placer seed")
TMDRIV_OPT = click.option("--no-tmdriv", is_flag=True,
                          help="nextpnr without timing-driven placement: about half the time, usually a lower fmax")
TIMEOUT_OPT = click.option("--timeout", type=float, default=None, help="seconds per tool run")
ROUTER_OPT = click.option("--router", type=click.Choice(["router1", "router2"]), default="router1", show_default=True,
                          help="nextpnr router (router2 is much faster on large, congested designs)")


class _PlainFormatter(logging.Formatter):
    """A log line without Python reprs (dict arguments as k=v: pka.cli._fmt_record)."""

    def format(self, record: logging.LogRecord) -> str:
        return f"pka: {_fmt_record(record)}"


def _plain_lines(lines: list[str], res: dict[str, Any]) -> list[str]:
    """pka.synth's summary lines with the parameter dicts (printed as Python dicts there) as k=v."""
    dicts = [res.get("params"), (res.get("rtl") or {}).get("params")]
    subs = [(repr(d), fmt_params(d)) for d in dicts if isinstance(d, dict)]
    out = []
    for line in lines:
        for old, new in subs:
            line = line.replace(old, new)
        out.append(line)
    return out


@contextmanager
def _status(enabled: bool, label: str) -> Iterator[None]:
    """A rich spinner with the current flow step on a terminal; log lines otherwise."""
    logger = logging.getLogger("pka")
    if enabled and sys.stderr.isatty():
        from rich.console import Console
        console = Console(stderr=True)
        with console.status(label) as status:
            class _H(logging.Handler):
                def emit(self, record: logging.LogRecord) -> None:
                    status.update(f"{label}: {_fmt_record(record)}")
            h: logging.Handler = _H()
            logger.addHandler(h)
            logger.setLevel(logging.INFO)
            try:
                yield
            finally:
                logger.removeHandler(h)
        return
    h = logging.StreamHandler(sys.stderr)
    h.setFormatter(_PlainFormatter())
    logger.addHandler(h)
    logger.setLevel(logging.INFO if enabled else logging.WARNING)
    try:
        yield
    finally:
        logger.removeHandler(h)


@cli.command()
@click.option("--engine", "engine_name", default=None, help="csa2, mwr4, rns, victor, hscm (or example)")
@click.option("--param", "param_items", multiple=True, metavar="NAME=VALUE", help="engine parameter (repeatable)")
@click.option("--bits", type=int, default=1024, show_default=True, help="operand (modulus) size the build supports")
@click.option("--unit", default=None, metavar="MODULE",
              help="instead of an engine: one design unit (e.g. pka_hscm_pe) in a scan-register wrapper")
@click.option("--fileset", "fileset_name", default=None, help="with --unit: the fileset holding it (default: "
                                                                "the engine name in the module name)")
@click.option("--rtl-param", "rtl_items", multiple=True, metavar="NAME=VALUE",
              help="with --unit: an RTL parameter of the module (repeatable)")
@TARGET_OPT
@FREQ_OPT
@SEED_OPT
@TMDRIV_OPT
@TIMEOUT_OPT
@ROUTER_OPT
@click.option("--breakdown", is_flag=True,
              help="per-module area instead: the engine core synthesised without flattening (ECP5, Yosys only)")
@click.option("--force", is_flag=True, help="run the tools even if the result is cached")
@click.option("--keep", is_flag=True, help="keep the working directory (netlist, logs, reports)")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="also write the JSON record to this file")
@click.option("--json", "as_json", is_flag=True, help="machine-readable output")
def synth(engine_name: str | None, param_items: tuple[str, ...], bits: int, unit: str | None,
          fileset_name: str | None, rtl_items: tuple[str, ...], target: str, freq: float | None, seed: int,
          no_tmdriv: bool, timeout: float | None, router: str, breakdown: bool, force: bool, keep: bool,
          out_path: Path | None, as_json: bool) -> None:
    """Synthesise and place-and-route one engine in its narrow-I/O shell: area, routed fmax, tool time.

    With --unit, one design unit of an engine on its own, every port behind scan registers. With
    --breakdown, the area of each module of the engine core (Yosys, no place and route)."""
    if breakdown:
        from pka.synth import breakdown as run_breakdown, breakdown_lines
        if unit or not engine_name:
            raise PkaError(Status.ERR_PARAM, "--breakdown needs --engine (not --unit)")
        d = design_for(engine_name, parse_param_items(engine_name, param_items), bits)
        with _status(not as_json, f"{engine_name} per module"):
            res = run_breakdown(d, force=force, timeout=timeout)
        _emit(res, out_path, as_json, breakdown_lines)
        return
    if unit:
        rtl: dict[str, int | str] = {}
        for item in rtl_items:
            name, sep, text = item.partition("=")
            if not sep:
                raise PkaError(Status.ERR_PARAM, f"--rtl-param {item!r} is not NAME=VALUE")
            try:
                rtl[name] = int(text, 0)
            except ValueError:
                rtl[name] = text
        parts = unit.split("_")
        fs = fileset_name or engine_name or (parts[1] if len(parts) > 2 and parts[0] == "pka" else "")
        if not fs:
            raise PkaError(Status.ERR_PARAM, "--unit needs --fileset")
        design = unit_design(unit, fs, rtl)
    else:
        if not engine_name:
            raise PkaError(Status.ERR_PARAM, "give --engine (or --unit)")
        params = parse_param_items(engine_name, param_items)
        design = design_for(engine_name, params, bits)
    opts = FlowOptions(freq=freq, seed=seed, no_tmdriv=no_tmdriv, timeout=timeout, router=router)
    with _status(not as_json, f"{engine_name or unit} on {target}"):
        res = synth_design(design, target, opts, force=force, keep=keep)
    _emit(res, out_path, as_json, summary_lines)


def _emit(res: dict[str, Any], out_path: Path | None, as_json: bool,
          lines: Callable[[dict[str, Any]], list[str]]) -> None:
    """A record to --out (if given), then to stdout as JSON or as the human lines."""
    if out_path is not None:
        out_path.parent.mkdir(parents=True, exist_ok=True)
        out_path.write_text(json.dumps(res, indent=1))
    if as_json:
        click.echo(json.dumps(res, indent=2))
    else:
        for line in _plain_lines(lines(res), res):
            click.echo(line)


@cli.command()
@click.option("--engine", "engine_name", required=True, help="csa2, mwr4, rns, victor, hscm (or example)")
@click.option("--grid", default="", help="parameter grid, e.g. 'pes=4,8,16;w=16,32' (axes ';', values ',')")
@click.option("--bits", type=int, default=1024, show_default=True, help="operand size")
@click.option("--op", type=click.Choice(["modexp", "modmul"]), default="modexp", show_default=True,
              help="modexp with a 1/2-weight full-length exponent, or one Montgomery product")
@click.option("--backend", "cycles_from", type=click.Choice(["model", "rtl"]), default="model", show_default=True,
              help="cycle counts from the golden model (exact, fast) or from RTL simulation")
@click.option("--cycles", "cycles_old", type=click.Choice(["model", "rtl"]), default=None, hidden=True,
              help="old name of --backend")
@TARGET_OPT
@FREQ_OPT
@SEED_OPT
@TMDRIV_OPT
@TIMEOUT_OPT
@ROUTER_OPT
@click.option("--area", "area_key", default=None, help="area metric for the plot (default lut4; xc7: lut)")
@click.option("--jobs", type=int, default=1, show_default=True, help="local worker processes")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT", help="run the points on a Dask cluster")
@click.option("--out", "out_prefix", type=click.Path(path_type=Path), default=None,
              help="output prefix: writes PREFIX.json, PREFIX.png, PREFIX.html (default build/explore/E-BITS-TARGET)")
@click.option("--json", "as_json", is_flag=True, help="machine-readable output")
def explore(engine_name: str, grid: str, bits: int, op: str, cycles_from: str, cycles_old: str | None, target: str,
            freq: float | None, seed: int, no_tmdriv: bool, timeout: float | None, router: str, area_key: str | None,
            jobs: int, scheduler: str | None, out_prefix: Path | None, as_json: bool) -> None:
    """Sweep an engine's parameters: cycles x fmax = time against area, Pareto plot and HTML report.

    --backend model|rtl: where the cycle counts come from (--cycles is its old name)."""
    cycles_from = cycles_old or cycles_from
    from pka import explore as ex
    if jobs < 1:
        raise PkaError(Status.ERR_PARAM, "--jobs must be at least 1")
    points = ex.parse_grid(grid, engine_name)
    opts = FlowOptions(freq=freq, seed=seed, no_tmdriv=no_tmdriv, timeout=timeout, router=router)
    show = not as_json and sys.stderr.isatty()
    if show:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
        prog = Progress(TextColumn("[bold]explore[/] {task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=Console(stderr=True))
        task = prog.add_task(f"{engine_name} {bits}-bit on {target}", total=len(points))

        def tick(n: int, total: int, r: dict[str, Any]) -> None:
            label = ",".join(f"{k}={v}" for k, v in r["params"].items())
            prog.update(task, completed=n, description=f"{engine_name}: done {label}")
        with prog:
            report = ex.explore(engine_name, grid, bits, target, op, cycles_from, jobs, scheduler, opts,
                                area_key, out_prefix, progress=tick)
    else:
        def note(n: int, total: int, r: dict[str, Any]) -> None:
            if not as_json:
                click.echo(f"pka: explore {n}/{total} {fmt_params(r['params'])}"
                           + (f" error: {r['error']}" if "error" in r else ""), err=True)
        report = ex.explore(engine_name, grid, bits, target, op, cycles_from, jobs, scheduler, opts,
                            area_key, out_prefix, progress=note)
    if as_json:
        click.echo(json.dumps(report, indent=2, default=str))
        return
    from pka.cli import emit_table
    head = [h for _, h in ex.COLUMNS]
    head[4] = f"area ({report['area_metric']})"
    rows = ex.table_rows(report["results"])
    emit_table(head, [[str(c) for c in row] for row in rows],
               f"{engine_name} {bits}-bit {op} on {report['device']}; cycles: {report['cycles_from']}")
    for kind, path in report["files"].items():
        if path:
            click.echo(f"{kind:5s} {path}")

