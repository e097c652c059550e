"""`pka fault`: a fault-injection campaign on the simulated pka_top (pka.analysis.fault, doc/fault.md)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from pka.cli import JSON_OPT, PARAM_OPT, cli, emit_table, engine_params, fmt_params
from pka.errors import PkaError, Status

OUTCOME_COLUMNS = ("detected", "masked", "released_wrong", "hangs", "other")


@cli.command()
@click.option("--op", "op_name", type=click.Choice(["rsa-crt", "ecc-mul"]), required=True,
              help="rsa-crt: RSA_CRT with a seeded key (--bits); ecc-mul: x(k G) with a seeded scalar (--curve)")
@click.option("--engine", "engine_name", default=None, help="engine (default: hscm for rsa-crt, rns for ecc-mul)")
@click.option("--bits", type=int, default=None, help="RSA modulus bits (rsa-crt)")
@click.option("--curve", default=None, help="curve (ecc-mul): P-256, P-384, ...")
@click.option("--injections", type=int, default=100, show_default=True, help="single-bit flips, one per run")
@click.option("--seed", type=int, default=1, show_default=True,
              help="key/scalar, message, injection cycles and targets all follow from it")
@click.option("--no-check", is_flag=True,
              help="the build without the result check (EnResultCheck=0, when pka_top has the parameter)")
@click.option("--targets", default=",".join(("pe", "eram", "eng", "seq", "ram", "ctrl")), show_default=True,
              help="state groups to inject into (comma-separated)")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="write one JSON line per injection (cycle, target, bit, outcome, status)")
@PARAM_OPT
@JSON_OPT
def fault(op_name: str, engine_name: str | None, bits: int | None, curve: str | None, injections: int, seed: int,
          no_check: bool, targets: str, log_path: Path | None, param_items: tuple[str, ...], as_json: bool) -> None:
    """Fault-injection campaign: each run flips one random bit of a random state element (PE, engine
    and sequencer registers, counters, engine memories, the RAM words the operation has used) at a
    random cycle of the operation, through the Verilator harness, and classifies it: detected
    (ERR_FAULT), masked (right result), released_wrong (wrong result, status OK), hang (no done within
    twice the operation's cycles), other (another error status)."""
    from pka.analysis.fault import TARGET_GROUPS, campaign

    if injections < 1:
        raise PkaError(Status.ERR_PARAM, "--injections must be at least 1")
    engine_name = engine_name or ("hscm" if op_name == "rsa-crt" else "rns")
    if op_name == "rsa-crt" and (bits is None or curve is not None):
        raise PkaError(Status.ERR_PARAM, "rsa-crt takes --bits (not --curve)")
    if op_name == "ecc-mul" and (curve is None or bits is not None):
        raise PkaError(Status.ERR_PARAM, "ecc-mul takes --curve (not --bits)")
    _, params = engine_params(engine_name, param_items)
    groups = [g.strip() for g in targets.split(",") if g.strip()]
    bad = [g for g in groups if g not in TARGET_GROUPS]
    if bad or not groups:
        raise PkaError(Status.ERR_PARAM, f"--targets: unknown group(s) {', '.join(bad) or '(none)'} "
                                         f"(of {', '.join(TARGET_GROUPS)})")

    def progress(msg: str) -> None:
        click.echo(f"pka: {msg}", err=True)

    camp = campaign(op_name, engine_name, injections, seed, bits=bits, curve=curve, params=params,
                    check=not no_check, groups=groups, progress=None if as_json and not sys.stderr.isatty() else progress,
                    log=log_path)
    data = camp.as_json()
    if as_json:
        import json
        click.echo(json.dumps(data, indent=2))
        return
    _table(data)


def _table(data: dict[str, Any]) -> None:
    head = ["target", "injections", *OUTCOME_COLUMNS]
    body = [[g, f"{c['injections']:,}", *(f"{c[k]:,}" for k in OUTCOME_COLUMNS)]
            for g, c in sorted(data["by_target"].items())]
    body.append(["all", f"{data['injections']:,}", *(f"{data[k]:,}" for k in OUTCOME_COLUMNS)])
    check = {True: "on", False: "off (--no-check)", None: "as the RTL is (pka_top has no EnResultCheck)"}[
        data["result_check"]]
    emit_table(head, body, title=f"{data['op']} on {data['engine']} ({data['size']}, {fmt_params(data['params'])})")
    click.echo(f"result check: {check}")
    other = ", ".join(f"{k} {v}" for k, v in data["other_codes"].items()) or "none"
    click.echo(f"other: {other}; operation {data['op_cycles']:,} cycles; {data['state_elements']} state "
               f"elements, {data['state_bits']:,} bits; {data['seconds']} s ({data['injections_per_minute']} "
               "injections/min)")
