"""`pka soc --board ulx3s` and `pka soc verify-log`: the SoC of soc/ on an FPGA board (pka.soc_board,
soc/README.md "On the board")."""

from __future__ import annotations

import json
from pathlib import Path

import click

from pka.cli import JSON_OPT, cli, emit, read_input
from pka.cli.synth import _status
from pka.errors import PkaError, Status
from pka.soc_board import BOARDS, DEFAULT_VARIANTS, VARIANTS


class LogMismatch(PkaError):
    """A serial log that does not verify (JSON code ERR_VERIFY, exit 2)."""

    code = "ERR_VERIFY"

    def __init__(self, message: str) -> None:
        super().__init__(Status.ERR_PARAM, message)


@cli.group(invoke_without_command=True)
@click.option("--board", type=click.Choice(sorted(BOARDS)), default=None,
              help="build the bitstream for this board (ulx3s: ECP5 LFE5U-85F, 25 MHz)")
@click.option("--build", "variants", type=click.Choice(sorted(VARIANTS)), multiple=True,
              help="rsa: hscm alone (RSA-512); ecc: rns alone (P-256 k*G; does not route yet); both: the two in "
                   "one pka_top, rns built for 256 bits (RnsMaxLen), the whole job; repeatable  [default: rsa, both]")
@click.option("--bits", type=int, default=512, show_default=True, help="RSA key of the baked job (the build's MaxLen follows)")
@click.option("--pes", type=int, default=2, show_default=True, help="hscm processing elements")
@click.option("--seed", type=int, default=19, show_default=True, help="seed of the baked job's key and scalar (as soc/run.py)")
@click.option("--pnr-seed", type=int, default=1, show_default=True, help="nextpnr placer seed")
@click.option("--no-tmdriv", is_flag=True, help="nextpnr without timing-driven placement (faster, lower fmax)")
@click.option("--router", type=click.Choice(["router1", "router2"]), default="router1", show_default=True,
              help="nextpnr router")
@click.option("--lut-muls", "lut_muls", multiple=True, type=click.Choice(["seq", "hscm-pe", "rns-core", "rns-fold"]),
              help="move these products from DSP blocks to LUTs (Yosys booth); repeatable")
@click.option("--pnr-arg", "pnr_args", multiple=True, metavar="ARG",
              help="an extra nextpnr argument, e.g. --pnr-arg=--placer-heap-beta=0.7; repeatable")
@click.option("--timeout", type=float, default=None, help="seconds per tool run")
@click.option("--out", "out_dir", type=click.Path(path_type=Path), default=None,
              help="output directory (default build/soc/BOARD): pka_soc.bit, report.json, the RAM image")
@click.option("--force", is_flag=True, help="re-run every step (otherwise finished steps with the same inputs are reused)")
@JSON_OPT
@click.pass_context
def soc(ctx: click.Context, board: str | None, variants: tuple[str, ...], bits: int, pes: int, seed: int, pnr_seed: int,
        no_tmdriv: bool, router: str, lut_muls: tuple[str, ...], pnr_args: tuple[str, ...], timeout: float | None,
        out_dir: Path | None, force: bool, as_json: bool) -> None:
    """The RISC-V SoC (PicoRV32 + pka_top) on an FPGA board: --board BOARD builds the firmware with a
    fixed job in its RAM, synthesises (Yosys), places and routes (nextpnr) and packs (ecppack) it into
    a bitstream, and reports area and fmax against the board clock: two bitstreams by default,
    hscm for RSA and rns for P-256 (build/soc/BOARD/rsa, .../ecc; --build picks). The serial log
    the board prints is checked by `pka soc verify-log`. Tens of minutes per build here."""
    if ctx.invoked_subcommand is not None:
        return
    if board is None:
        click.echo(ctx.get_help())
        return
    from pka import soc_board

    opts = soc_board.Options(seed=pnr_seed, no_tmdriv=no_tmdriv, router=router, timeout=timeout,
                               pnr_args=pnr_args, lut_muls=lut_muls)
    reports = []
    for v in variants or DEFAULT_VARIANTS:
        with _status(not as_json, f"pka_soc ({v}) on {board}"):
            rep = soc_board.build(board, v, bits, pes, seed,
                                  (out_dir / v) if out_dir is not None else None, opts, force)
        reports.append(rep)
        if not as_json:
            emit(rep, False, soc_board.table_rows(rep), f"pka_soc ({v}) on {board}")
    if as_json:
        emit({"board": board, "builds": reports}, True)


@soc.command("verify-log")
@click.argument("log_file", metavar="LOG")
@click.option("--build", "variant", type=click.Choice(sorted(VARIANTS)), default=None,
              help="the build that printed it (default: from the log: MODEXP lines -> rsa, else ecc)")
@click.option("--bits", type=int, default=512, show_default=True, help="RSA key size of the baked job")
@click.option("--seed", type=int, default=19, show_default=True, help="seed of the baked job")
@click.option("--report", "report_path", type=click.Path(path_type=Path), default=None,
              help="take --build/--bits/--seed from a build's report.json")
@JSON_OPT
def verify_log(log_file: str, variant: str | None, bits: int, seed: int, report_path: Path | None,
               as_json: bool) -> None:
    """Check the board's serial log (LOG, '-' for stdin: what the firmware printed at 115,200 baud)
    against the job baked into its RAM: every signature and k*G with `cryptography`."""
    from pka import soc_board

    if report_path is not None:
        rep = json.loads(report_path.read_text())
        variant, seed = rep["variant"], rep["job"]["seed"]
        bits = rep["job"]["rsa_bits"] or bits
    text = read_input(log_file, "log").decode(errors="replace")
    if variant is None:
        rsa, ecc = "op modexp " in text, "op ecc_mul " in text
        variant = "both" if rsa and ecc else "ecc" if ecc else "rsa"
    try:
        verified = soc_board.verify_log(text, variant, bits, seed)
    except AssertionError as exc:
        raise LogMismatch(f"the log does not verify: {str(exc).splitlines()[0]}") from None
    emit({"verified": verified, "build": variant, "bits": bits, "seed": seed}, as_json,
         [(f"{i + 1}", v) for i, v in enumerate(verified)], f"serial log ({variant} build)")
