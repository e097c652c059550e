"""`pka tvla`: a fixed-versus-random Welch t-test on simulated power traces of pka_top
(pka.analysis.tvla, doc/tvla.md)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import click

from pka.cli import JSON_OPT, PARAM_OPT, cli, emit, engine_params, fmt_params
from pka.errors import PkaError, Status

DEFAULT_ENGINE = {"modexp-ct": "hscm", "rsa-crt": "hscm", "ecc-mul": "rns"}
# hscm: 4 PEs (two HSCMs of 2) simulate 2 x 1,000 RSA-512 CRT traces in about 20 minutes on one core
ENGINE_DEFAULTS = {"hscm": ("pes=4",)}


@cli.command()
@click.option("--op", "op_name", type=click.Choice(["modexp-ct", "rsa-crt", "ecc-mul"]), required=True,
              help="modexp-ct: fixed vs random exponent (prime p of --bits, ELEN = bits); rsa-crt: fixed vs "
                   "random message under one seeded key (--bits); ecc-mul: fixed vs random scalar, the point G (--curve)")
@click.option("--engine", "engine_name", default=None, help="engine (default: hscm for modexp-ct and rsa-crt, rns for ecc-mul)")
@click.option("--bits", type=int, default=None, help="modulus bits (modexp-ct, rsa-crt)")
@click.option("--curve", default=None, help="curve (ecc-mul): P-256, P-384, ...")
@click.option("--traces", type=int, default=100, show_default=True, help="traces per set (N fixed and N random)")
@click.option("--blinding", type=click.Choice(["on", "off"]), default="on", show_default=True,
              help="the accelerator's blinding (exponent/scalar, message, random Z); off: the evidence that the test finds a leak")
@click.option("--seed", type=int, default=1, show_default=True,
              help="modulus or key, fixed value, random values, their order and the entropy all follow from it")
@click.option("--png", "png_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="the plot of t against the cycle (default: tvla-<op>-<engine>-<size>-blinding-<on|off>.png here; "
                   "'-' for none)")
@PARAM_OPT
@JSON_OPT
def tvla(op_name: str, engine_name: str | None, bits: int | None, curve: str | None, traces: int, blinding: str,
         seed: int, png_path: Path | None, param_items: tuple[str, ...], as_json: bool) -> None:
    """Leakage assessment (TVLA): Welch's t per clock cycle between N traces with a fixed secret (or
    message) and N with random ones, interleaved in a seeded random order. A trace is the Hamming
    distance between consecutive states of every register and memory of the engine; the window is
    the engine command's computation up to the end of its ladder (load, result and store are
    excluded and named). |t| > 4.5: leakage."""
    from pka.analysis.tvla import tvla as run

    if traces < 2:
        raise PkaError(Status.ERR_PARAM, "--traces must be at least 2 (per set)")
    engine_name = engine_name or DEFAULT_ENGINE[op_name]
    if op_name == "ecc-mul" and (curve is None or bits is not None):
        raise PkaError(Status.ERR_PARAM, "ecc-mul takes --curve (not --bits)")
    if op_name != "ecc-mul" and (bits is None or curve is not None):
        raise PkaError(Status.ERR_PARAM, f"{op_name} takes --bits (not --curve)")
    _, params = engine_params(engine_name, param_items, ENGINE_DEFAULTS.get(engine_name, ()))
    png: Path | None
    if png_path is not None and str(png_path) == "-":
        png = None
    else:
        size = curve if curve is not None else f"{bits}"
        png = png_path or Path(f"tvla-{op_name}-{engine_name}-{re.sub(r'[^A-Za-z0-9]+', '', size)}-blinding-{blinding}.png")
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise PkaError(Status.ERR_UNSUPPORTED, "the plot needs matplotlib (pip install 'pka[bench]'), "
                                                   "or --png - for none") from None

    def progress(msg: str) -> None:
        click.echo(f"pka: {msg}", err=True)

    res = run(op_name, engine_name, traces, seed, blinding == "on", bits=bits, curve=curve, params=params, png=png,
              progress=None if as_json and not sys.stderr.isatty() else progress)
    data = res.as_json()
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    _table(data)


def _table(d: dict[str, Any]) -> None:
    verdict = "no leak found (|t| <= 4.5)"
    if d["cycles_over_4_5"]:
        verdict = "leak (|t| > 4.5)"
        if d["halves"] and not d["halves"]["cycles_over_4_5_in_both"]:
            verdict += ", at no cycle in both halves"
    rows: list[list[str]] = [["traces", f"{d['traces']:,} fixed + {d['traces']:,} random"],
            ["window", f"cycles {d['window'][0]:,}..{d['window'][1]:,} from the CMD write ({d['samples']:,} samples)"],
            ["max |t|", f"{d['max_abs_t']:.2f} at cycle {d['max_abs_t_at']:,}: {verdict}"],
            ["cycles over 4.5", f"{d['cycles_over_4_5']:,} (about {d['expected_over_4_5_if_no_leak']} expected "
                                f"by chance without a leak)"]]
    if d["halves"]:
        h = d["halves"]
        rows.append(["two halves", f"max |t| {h['max_abs_t'][0]:.2f} and {h['max_abs_t'][1]:.2f}; "
                                   f"{h['cycles_over_4_5_in_both']} cycles over 4.5 in both"])
    for e in d["excluded"]:
        cyc = f"{e['cycles'][0]:,}..{e['cycles'][1]:,}" if e["cycles"] else "-"
        t = f", max |t| {e['max_abs_t']:.2f}" if "max_abs_t" in e else ""
        rows.append([f"excluded: {e['name']}", f"{cyc}{t}"])
    rows.append(["registers", f"{d['registers']['scope']} ({d['registers']['elements']} elements, "
                              f"{d['registers']['bits']:,} bits)"])
    rows.append(["png", d["png"] or "-"])
    rows.append(["time", f"{d['seconds']} s ({d['traces_per_minute']} traces/min)"])
    emit(d, False, [(k, v) for k, v in rows], title=f"TVLA {d['op']} on {d['engine']} ({d['size']}, "
                                                   f"{fmt_params(d['params'])}), blinding {d['blinding']}")
