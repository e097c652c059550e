"""Design-space exploration (pka.explore, `pka explore`): grid, workload, Pareto, and a real sweep on
a Dask LocalCluster (over TCP, as `--scheduler tcp://HOST:PORT` would run it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pka import explore as X
from pka.errors import PkaError

GRID = "maxlen=0,128"   # the example engine at 64 bits: MaxLen 64 and 128


def test_parse_grid_cartesian_product_with_defaults() -> None:
    pts = X.parse_grid("pes=4,8;w=16,32", "hscm")
    assert len(pts) == 4
    assert [(p["pes"], p["w"]) for p in pts] == [(4, 16), (4, 32), (8, 16), (8, 32)]
    assert all(p["window"] == 0 and p["ladder"] == 0 for p in pts)       # defaults filled in
    assert X.parse_grid("", "csa2") == [{"variant": "paper", "l": 0}]
    assert X.parse_grid(" variant = paper , fast ", "csa2")[1]["variant"] == "fast"


@pytest.mark.parametrize("grid,msg", [("bogus=1", "no parameter"), ("pes", "NAME=V1"), ("pes=x", "not an integer"),
                                      ("w=17", "not supported"), ("pes=0", "below")])
def test_parse_grid_rejects(grid: str, msg: str) -> None:
    with pytest.raises(PkaError, match=msg):
        X.parse_grid(grid, "hscm")


def test_workload_is_reproducible_and_half_weight() -> None:
    for bits in (64, 1024, 1023):
        x, e, n = X.workload(bits)
        assert (x, e, n) == X.workload(bits)
        assert n % 2 == 1 and n.bit_length() == bits and 0 <= x < n
        assert e.bit_length() == bits and abs(bin(e).count("1") - bits / 2) <= 1   # (2/3)(2^n - 1)


def test_pareto_front() -> None:
    pts = [(10.0, 5.0), (20.0, 2.0), (15.0, 6.0), (30.0, 2.0), (5.0, 9.0), (10.0, 5.0)]
    assert X.pareto_front(pts) == [True, True, False, False, True, True]


def test_annotate_time_area_and_front() -> None:
    res = [{"params": {"a": 1}, "cycles": 100, "fmax_mhz": 100.0, "time_us": 1.0, "area": {"lut4": 50}},
           {"params": {"a": 2}, "cycles": 100, "fmax_mhz": 50.0, "time_us": 2.0, "area": {"lut4": 60}},
           {"params": {"a": 3}, "error": "x"}]
    X.annotate(res, "lut4")
    assert res[0]["pareto"] and not res[1]["pareto"] and "pareto" not in res[2]
    assert res[0]["time_area"] == pytest.approx(50.0) and res[0]["y_label"] == "time_us"
    rows = X.table_rows(res)
    assert rows[0][0] == "a=1" and rows[0][-1] == "*" and rows[2][1].startswith("error")


def test_model_cycles_of_a_landed_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """op_cycles runs the golden model on the fixed workload and checks its result."""
    monkeypatch.setenv("PKA_SYN_CACHE", str(tmp_path))
    from pka.model import csa2
    c = X.op_cycles("csa2", {"variant": "paper", "l": 0}, 64, "modexp")
    assert c["cycles"] == (2 * 64 + 14) * (64 + 2) + 64 + 7 and c["source"] == "model"   # the paper's formula
    assert X.op_cycles("csa2", {"variant": "paper", "l": 0}, 64, "modexp") == c             # cached
    m = X.op_cycles("csa2", {"variant": "paper", "l": 0}, 64, "modmul")
    assert m["cycles"] == csa2.modmul(3, 5, X.workload(64)[2], {"variant": "paper", "l": 0}).cycles


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One synthesis cache for the sweep tests: the CLI test reuses the cluster test's P&R run."""
    return tmp_path_factory.mktemp("syncache")


@pytest.mark.rtl
def test_explore_on_a_dask_local_cluster(tmp_path: Path, shared_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from distributed import LocalCluster
    monkeypatch.setenv("PKA_SYN_CACHE", str(shared_cache))
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp", dashboard_address=None) as cl:
        assert cl.scheduler_address.startswith("tcp://")
        seen: list[int] = []
        rep = X.explore("example", GRID, 64, "ecp5-85k", flow=X.FlowOptions(no_tmdriv=True),
                        scheduler=cl.scheduler_address, out=tmp_path / "ex", progress=lambda n, t, r: seen.append(n))
    assert sorted(seen) == [1, 2]
    res = rep["results"]
    assert [r["params"]["maxlen"] for r in res] == [0, 128]
    for r in res:
        assert "error" not in r, r.get("error")
        assert r["cycles"] == 2 and r["cycles_source"] == "rtl"          # example MODADD, simulated
        assert r["fmax_mhz"] > 10 and r["time_us"] == pytest.approx(2 / r["fmax_mhz"])
        assert r["area"]["io"] == 7 and r["area_value"] == r["area"]["lut4"]
    assert res[1]["rtl"]["params"]["MaxLen"] == 128 and res[0]["rtl"]["params"]["MaxLen"] == 64
    assert res[1]["area"]["ff"] > res[0]["area"]["ff"]                    # the wider build is bigger
    assert any(r["pareto"] for r in res)
    assert json.loads((tmp_path / "ex.json").read_text())["engine"] == "example"
    assert (tmp_path / "ex.png").read_bytes()[:4] == b"\x89PNG"
    html = (tmp_path / "ex.html").read_text()
    assert "<table>" in html and "data:image/png;base64," in html and "maxlen=128" in html


@pytest.mark.rtl
def test_cli_explore_local_pool(tmp_path: Path, shared_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pka.cli import cli
    monkeypatch.setenv("PKA_SYN_CACHE", str(shared_cache))
    r = CliRunner().invoke(cli, ["explore", "--engine", "example", "--grid", "maxlen=0,128", "--bits", "64",
                                 "--no-tmdriv", "--jobs", "2", "--out", str(tmp_path / "cli")])
    assert r.exit_code == 0, r.output
    assert "Pareto" in r.output and "LFE5U-85F" in r.output and "html" in r.output
    data = json.loads((tmp_path / "cli.json").read_text())
    assert data["scheduler"] == "local pool, 2 worker(s)"
    assert all(r["fmax_mhz"] > 10 and r["cycles"] == 2 for r in data["results"])
    r = CliRunner().invoke(cli, ["explore", "--engine", "example", "--grid", "nope=1"])
    assert r.exit_code != 0
