"""`pka bench NAME [ARGS...]` (the scripts in bench/) and `pka demo` (the main job)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path
from typing import Any

import click

from pka.cli import (BACKEND_OPT, JSON_OPT, InputError, cli, emit, engine_params, fmt_params, hexs, progress_display,
                     withhold)

BENCH_DIR = Path(__file__).resolve().parents[3] / "bench"


def bench_names() -> list[str]:
    return sorted(p.stem for p in BENCH_DIR.glob("*.py")) if BENCH_DIR.is_dir() else []


@cli.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True,
                               "help_option_names": []})
@click.argument("name", required=False)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def bench(name: str | None, args: tuple[str, ...]) -> None:
    """Run a benchmark script of bench/ (NAME: csa2, mwr4, rns, victor, hscm, top, synth); its own
    options follow (`pka bench NAME --help`). Each prints a table and writes bench/results/NAME.json."""
    names = bench_names()
    if not name or name in ("-h", "--help"):
        click.echo("usage: pka bench NAME [ARGS]...   (the benchmark's own options: pka bench NAME --help)")
        click.echo(f"benchmarks: {', '.join(names) if names else '(bench/ not found: run from a source checkout)'}")
        return
    if name not in names:
        raise InputError(f"no benchmark {name!r} (have: {', '.join(names) or 'none, bench/ not found'})")
    old = sys.argv
    sys.argv = [str(BENCH_DIR / f"{name}.py"), *args]
    try:
        runpy.run_path(sys.argv[0], run_name="__main__")
    finally:
        sys.argv = old


# ---- the main job --------------------------------------------------------------------------------------

DEMO_SEED = 2026
DEMO_SCALAR = 0x5EED0F1E2D3C4B5A69788796A5B4C3D2E1F00112233445566778899AABBCCDD
DEMO_PEER = (0xd360332fad9bc83afaff4a740de8a516bf1b8fb3fde360ff1d03979c1f943ee2,
             0xe8a66007fd276b0271265c6db092c4a0c5eb8c45fdc436502c8a095f5d5745f2)


@cli.command()
@click.option("--backend", type=click.Choice(["model", "rtl"]), default="rtl", show_default=True,
              help="rtl: through pka_top's bus on the Verilated RTL (the first run builds); model: golden models")
@JSON_OPT
def demo(backend: str, as_json: bool) -> None:
    """The main job: an RSA-2048 CRT signature (hscm, 2 x 16 PEs, window 6; key from --seed 2026) and
    a P-256 ECDH (rns), both checked by `cryptography`, with their cycle counts (a failed check:
    ERR_FAULT, exit 2)."""
    from pka.proto import ecdh, keys
    from pka.proto import rsa as proto_rsa
    from pka.proto.backend import get

    key = keys.rsa_key(2048, DEMO_SEED)
    _, hp = engine_params("hscm", ("pes=32", "window=6"))
    with progress_display(backend == "rtl", f"RSA-2048 CRT on hscm ({backend})") as tick:
        sig = proto_rsa.sign(key, b"pka: open public-key accelerator", get("hscm", backend), hp, True, tick)
    _, rp = engine_params("rns", ())
    with progress_display(backend == "rtl", f"P-256 ECDH on rns ({backend})") as tick:
        res = ecdh.ecdh(get("rns", backend), "p256", DEMO_SCALAR, DEMO_PEER, rp, tick)
    ok = ecdh.reference_x("p256", DEMO_SCALAR, DEMO_PEER) == res.result
    # a result that fails its check is withheld, as in `pka rsa sign` and `pka ecdh` (ERR_FAULT, exit 2)
    if not sig.verified:
        raise withhold("pka demo: the RSA-2048 signature")
    if not ok:
        raise withhold("pka demo: the P-256 ECDH shared secret")
    data: dict[str, Any] = {
        "rsa": {"signature": hexs(int.from_bytes(sig.signature, "big")), "verified": sig.verified,
                "public_key": keys.public_json(key), "seed": DEMO_SEED, "cycles": sig.cycles,
                "engine": "hscm", "params": hp, "detail": sig.detail},
        "ecdh": {"x": hexs(res.result), "verified": ok, "cycles": res.cycles, "engine": "rns", "params": rp,
                 "detail": res.detail},
        "backend": backend}
    emit(data, as_json, [
        ("RSA-2048 CRT", "verified (cryptography)" + (f", {sig.cycles:,} cycles" if sig.cycles else "")),
        ("  on", f"hscm {fmt_params(hp)} ({backend})" + (", first use of the key (constants made inside)" if sig.detail.get("key_setup") else "")),
        ("P-256 ECDH", f"verified (cryptography), {res.cycles:,} cycles"),
        ("  on", f"rns {fmt_params(rp)} ({backend})"),
    ], "pka demo: the main job" + (" through pka_top's AXI4-Lite bus" if backend == "rtl" else ""))
