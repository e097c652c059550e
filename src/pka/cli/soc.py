"""`pka soc --board ulx3s` and `pka soc verify-log`: the SoC of soc/ on an FPGA board (pka.soc_board,
soc/README.md "On the board")."""

from __future__ import annotations

import json
from pathlib import Path

import click

from pka.cli import JSON_OPT, cli, emit, read_input
from pka.cli.synth import _status
from pka.errors import PkaError, Status
from pka.soc_board import BOARDS


class LogMismatch(PkaError):
    """A serial log that does not verify (JSON code ERR_VERIFY, exit 2)."""

    code = "ERR_VERIFY"

    def __init__(self, message: str) -> None:
        super().__init__(Status.ERR_PARAM, message)


@cli.group(invoke_without_command=True)
@click.option("--board", type=click.Choice(sorted(BOARDS)), default=None,
              help="build the bitstream for this board (ulx3s: ECP5 LFE5U-85F, 25 MHz)")
@click.option("--bits", type=int, default=512, show_default=True, help="RSA key of the baked job (the build's MaxLen follows)")
@click.option("--pes", type=int, default=2, show_default=True, help="hscm processing elements")
@click.option("--seed", type=int, default=19, show_default=True, help="seed of the baked job's key and scalar (as soc/run.py)")
@click.option("--no-ecc", is_flag=True, help="hscm alone (no rns, no P-256 k*G)")
@click.option("--pnr-seed", type=int, default=1, show_default=True, help="nextpnr placer seed")
@click.option("--no-tmdriv", is_flag=True, help="nextpnr without timing-driven placement (faster, lower fmax)")
@click.option("--router", type=click.Choice(["router1", "router2"]), default="router1", show_default=True,
              help="nextpnr router")
@click.option("--timeout", type=float, default=None, help="seconds per tool run")
@click.option("--out", "out_dir", type=click.Path(path_type=Path), default=None,
              help="output directory (default build/soc/BOARD): pka_soc.bit, report.json, the RAM image")
@click.option("--force", is_flag=True, help="re-run every step (otherwise finished steps with the same inputs are reused)")
@JSON_OPT
@click.pass_context
def soc(ctx: click.Context, board: str | None, bits: int, pes: int, seed: int, no_ecc: bool, pnr_seed: int,
        no_tmdriv: bool, router: str, timeout: float | None, out_dir: Path | None, force: bool, as_json: bool) -> None:
    """The RISC-V SoC (PicoRV32 + pka_top) on an FPGA board: --board BOARD builds the firmware with a
    fixed job in its RAM, synthesises (Yosys), places and routes (nextpnr) and packs (ecppack) it into
    a bitstream, and reports area and fmax against the board clock. The serial log the board
    prints is checked by `pka soc verify-log`. The whole flow takes about an hour here."""
    if ctx.invoked_subcommand is not None:
        return
    if board is None:
        click.echo(ctx.get_help())
        return
    from pka import soc_board

    opts = soc_board.Options(seed=pnr_seed, no_tmdriv=no_tmdriv, router=router, timeout=timeout)
    with _status(not as_json, f"pka_soc on {board}"):
        rep = soc_board.build(board, bits, pes, seed, not no_ecc, out_dir, opts, force)
    emit(rep, as_json, soc_board.table_rows(rep), f"pka_soc on {board}")


@soc.command("verify-log")
@click.argument("log_file", metavar="LOG")
@click.option("--bits", type=int, default=512, show_default=True, help="RSA key size of the baked job")
@click.option("--seed", type=int, default=19, show_default=True, help="seed of the baked job")
@click.option("--no-ecc", is_flag=True, help="the build without rns (no k*G in the log)")
@click.option("--report", "report_path", type=click.Path(path_type=Path), default=None,
              help="take --bits/--seed/--no-ecc from a build's report.json")
@JSON_OPT
def verify_log(log_file: str, bits: int, seed: int, no_ecc: bool, report_path: Path | None, as_json: bool) -> None:
    """Check the board's serial log (LOG, '-' for stdin: what the firmware printed at 115,200 baud)
    against the job baked into its RAM: every signature and k*G with `cryptography`."""
    from pka import soc_board

    if report_path is not None:
        job = json.loads(report_path.read_text())["job"]
        bits, seed, no_ecc = job["rsa_bits"], job["seed"], not job["ecc"]
    text = read_input(log_file, "log").decode(errors="replace")
    try:
        verified = soc_board.verify_log(text, bits, seed, not no_ecc)
    except AssertionError as exc:
        raise LogMismatch(f"the log does not verify: {str(exc).splitlines()[0]}") from None
    emit({"verified": verified, "bits": bits, "seed": seed}, as_json,
         [(f"{i + 1}", v) for i, v in enumerate(verified)], "serial log")
