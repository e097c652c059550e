"""`make test-full`'s registry against the README (issue 17, item 1), without simulation: every cycle
figure of the README's two tables has a case, and every case's figure is in the README, row by row
(a README edit without a registry edit fails here). Plus the parser's strictness on made-up tables."""

from __future__ import annotations

from collections import Counter

import pytest

from pka.testfull import cases, readme
from pka.testfull.__main__ import main


def test_every_readme_figure_has_a_case() -> None:
    want = readme.figure_counts()
    have = Counter(cases.covered())
    assert not want - have, f"README cycle figures without a test-full case: {sorted(want - have)}"


def test_every_case_figure_is_in_the_readme() -> None:
    want = readme.figure_counts()
    have = Counter(cases.covered())
    assert not have - want, f"test-full cases whose figure is not in the README: {sorted(have - want)}"


def test_the_readme_tables_are_found() -> None:
    figs = readme.figures()
    rows = {r for r, _ in figs}
    assert sum(r.startswith("results: ") for r in rows) >= 10
    assert sum(r.startswith("where: ") for r in rows) >= 5
    assert ("results: hscm | CRT-RSA-2048, 32 PEs (2 x 16), constant time, fixed window 4 / 6", "371,790") in figs
    assert ("results: hscm | 1024-bit modexp, sliding window 4 / 6, 16 PEs", "374,017") in figs
    assert ("where: X25519", "101,619") in figs


def test_each_figure_is_proven_once() -> None:
    """A number in several rows (136,244: P-256 k*G, ECDH, ECDSA sign) has one case; a number twice
    in one row ("43 / 43 / 51") has one case each."""
    assert len({c.name for c in cases.CASES}) == len(cases.CASES)
    for c in cases.CASES:
        assert len(set(c.rows)) == len(c.rows), c.name
        assert c.path in ("pka_top", "engine", "engine + pka_top"), c.name


@pytest.mark.parametrize("cell, figs", [
    ("2,116,643", ["2,116,643"]),
    ("1,089,646 (0.515x)", ["1,089,646"]),
    ("4,177 vs 8,337 (0.50x)", ["4,177", "8,337"]),
    ("43 / 43 / 51", ["43", "43", "51"]),
    ("58 / 58 / 66 (a product in a chain of squarings; 52 / 52 / 60 for independent products)",
     ["58", "58", "66", "52", "52", "60"]),
    ("136,244 (blinded: 197,020)", ["136,244", "197,020"]),
    ("3.846 / 4.807", ["3.846", "4.807"]),
    ("358,390 (window 6)", ["358,390"]),
    ("12.5 %", []),
])
def test_numbers_of_a_cell(cell: str, figs: list[str]) -> None:
    assert readme.numbers(cell) == figs


def test_rtl_column_takes_cycle_counts_only() -> None:
    assert readme.numbers("ECC_MUL (512-bit build; blinded 402,158)", separated_only=True) == ["402,158"]
    assert readme.numbers("RSA_CRT", separated_only=True) == []


RESULTS = """## Results: cycles, ours beside the papers'

| engine | operation | paper | ours | how |
|---|---|---:|---:|---|
| hscm | one product | 354 | 350 | |
"""
WHERE = """What runs where (cycles):

| operation | model | rtl (pka_top) | cycles | goal |
|---|---|---|---:|---:|
| X25519 | rns | ECC_MUL (random Z: 139,416) | 139,312 | 110,000 |
"""


def test_parser_reads_a_minimal_readme() -> None:
    assert readme.figures(RESULTS + "\n" + WHERE) == [
        ("results: hscm | one product", "350"), ("where: X25519", "139,312"), ("where: X25519", "139,416")]


@pytest.mark.parametrize("text", [
    WHERE,                                                   # no results table
    RESULTS,                                                 # no "What runs where" table
    RESULTS.replace("| ours |", "| mine |") + WHERE,         # the column renamed
    RESULTS.replace("| 350 |", "| n/a |") + WHERE,           # a row without a figure
    RESULTS + WHERE.replace("| 139,312 |", "| 139,312 / 1 |"),   # two figures in a cycles cell
    RESULTS.replace("| 350 | |", "| 350 |") + WHERE,         # a short row
])
def test_parser_is_strict(text: str) -> None:
    with pytest.raises(readme.ReadmeError):
        readme.figures(text)


def test_case_check_compares_model_and_readme() -> None:
    c = cases.BY_NAME["hscm-mm-1024-16pe"]
    c.check(cases.Outcome(350, 350))
    with pytest.raises(AssertionError):
        c.check(cases.Outcome(350, 351))
    with pytest.raises(AssertionError):
        c.check(cases.Outcome(351, 351))
    v = cases.BY_NAME["victor-modexp-512-k5"]
    v.check(cases.Outcome(106_511, 106_511))                 # 512 / 106.511 = 4.807 bits per 1000 cycles
    with pytest.raises(AssertionError):
        v.check(cases.Outcome(107_520, 107_520))             # the paper formula's count: 4.762


def test_select_and_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert [c.name for c in cases.select("rns-mm-192,hscm-mm-2048")] == ["rns-mm-192", "hscm-mm-2048-32pe"]
    assert len(cases.select("rns-sbmm")) == 6
    with pytest.raises(KeyError):
        cases.select("no-such-case")
    assert main(["--list", "-k", "rns-mm"]) == 0
    assert "3 of 38 cases" in capsys.readouterr().out
    assert main(["-k", "no-such-case"]) == 2
