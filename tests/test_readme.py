"""The README's generated tables (pka.readme, `make readme`) are what the generator writes from
bench/results/*.json: a typed or stale number fails here. Plus: the generator reads its figures
from the JSON (a changed copy changes the README), finds its markers, and marks a synthesis row
measured on an earlier RTL. Pure Python: no simulation, no synthesis."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pka import readme as G

ALL_CURRENT = lambda row: True   # noqa: E731  (a stand-in for the design-key check)


def test_readme_tables_are_generated() -> None:
    """README.md equals the generator's output; on failure, `make readme` (and review the diff)."""
    text = G.README.read_text()
    for name in G.TABLES:
        assert text.count(G.begin_marker(name)) == 1, name
    assert G.generate() == text, "README.md differs from `python -m pka.readme --write`: run `make readme`"


def test_check_exits_1_with_a_diff_on_a_typed_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(G.generate())
    assert G.main(["--check", "--readme", str(readme)]) == 0
    readme.write_text(readme.read_text().replace("| 374,017 / 359,610 |", "| 372,000 / 359,610 |", 1))
    assert G.main(["--check", "--readme", str(readme)]) == 1
    out = capsys.readouterr().out
    assert "-| hscm | 1024-bit modexp" in out and "372,000" in out and "+| hscm | 1024-bit modexp" in out
    assert G.main(["--write", "--readme", str(readme)]) == 0
    assert "| 374,017 / 359,610 |" in readme.read_text()


def _results_copy(tmp_path: Path) -> Path:
    res = tmp_path / "results"
    res.mkdir()
    for f in G.RESULTS.glob("*.json"):
        shutil.copy(f, res / f.name)
    return res


def test_figures_come_from_the_json(tmp_path: Path) -> None:
    """A cycle count, a table size and an fmax changed in copies of the JSON change the tables."""
    res = _results_copy(tmp_path)
    before = G.tables(G.load(res), ALL_CURRENT)
    hscm = json.loads((res / "hscm.json").read_text())
    for r in hscm["rows"]:
        if r["group"] == "exp" and r["params"]["window"] == 4 and r["pes"] == 16:
            r["cycles"] = 123_456
        if r["group"] == "table" and r["op"] == "modexp" and r["window"] == 6:
            r["bits"] = 77_777
    (res / "hscm.json").write_text(json.dumps(hscm))
    synth = json.loads((res / "synth.json").read_text())
    for r in synth["rows"]:
        if r["id"] == "rns-256-w32-mm":
            r["fmax_mhz"] = 43.0                       # 43 cycles at 43 MHz: 1.00 us
    (res / "synth.json").write_text(json.dumps(synth))
    after = G.tables(G.load(res), ALL_CURRENT)
    assert "123,456 / 359,610" in after["cycles"] and "123,456" not in before["cycles"]
    assert "8,704 / 77,777 bits" in after["cycles"]
    assert "ours 1.00 / 1.00 /" in after["cycles"] and "| 43.0 MHz |" in after["clock"]
    assert after["where"] == before["where"]


def test_missing_json_row_is_an_error(tmp_path: Path) -> None:
    res = _results_copy(tmp_path)
    hscm = json.loads((res / "hscm.json").read_text())
    hscm["rows"] = [r for r in hscm["rows"] if r["group"] != "table"]
    (res / "hscm.json").write_text(json.dumps(hscm))
    with pytest.raises(G.ReadmeGenError, match="hscm table"):
        G.tables(G.load(res), ALL_CURRENT)


def test_earlier_rtl_is_marked() -> None:
    """The provenance of an fmax follows the design-key check, row by row."""
    data = G.load()
    current = G.tables(data, ALL_CURRENT)["clock"]
    stale = G.tables(data, lambda row: False)["clock"]
    mixed = G.tables(data, lambda row: row["id"] != "csa2-1024-paper")["clock"]
    rns, paper, fast = (G.mhz(G.synth_row(data, i)) for i in ("rns-256-w32-mm", "csa2-1024-paper", "csa2-1024-fast"))
    assert "earlier RTL" not in current
    assert f"| {rns} MHz (an earlier RTL) |" in stale and f"| {paper} / {fast} MHz (each on an earlier RTL) |" in stale
    assert f"| {paper} / {fast} MHz (an earlier RTL / the current RTL) |" in mixed


def test_markers_are_required() -> None:
    text = G.README.read_text().replace(G.begin_marker("clock"), "")
    with pytest.raises(G.ReadmeGenError, match="clock"):
        G.render(text, G.tables(G.load(), ALL_CURRENT))


@pytest.mark.parametrize("us, text", [(12084.17, "12.1 ms"), (3.7989, "3.80 us"), (49366.5, "49.4 ms"),
                                      (1.4603, "1.46 us"), (0.192, "192 ns"), (4627.0, "4.63 ms")])
def test_duration(us: float, text: str) -> None:
    assert G.duration(us) == text
