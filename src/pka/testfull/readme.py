"""The README's cycle figures: the "ours" column of "Results: cycles, ours beside the papers'" and
the "cycles" column (plus the cycle counts in the "rtl (pka_top)" column) of "What runs where".

A figure is (row, text): row names the table and the row ("results: <engine> | <operation>" or
"where: <operation>"), text is the number exactly as the README writes it ("370,533", "43",
"3.846"). Ratios ("0.515x"), bit sizes ("512-bit") and parameters ("window 6") are not figures; in
the rtl column only numbers with a thousands separator are (the cycle counts in its parentheses).
A table that is missing, or a column that is not where it was, raises ReadmeError: the check is
strict on purpose, a README edit must come with an edit of the registry.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

README = Path(__file__).resolve().parents[3] / "README.md"

RESULTS_HEADING = "## Results: cycles, ours beside the papers'"
WHERE_INTRO = "What runs where"

# a number: 1,234,567 or 43 or 3.846, not glued to a letter, a dot, a hyphen or a percent sign
_NUM = re.compile(r"(?<![\w.,-])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?![\w%-]|[.,]\d)")
_SEP = re.compile(r"^\d{1,3}(?:,\d{3})+$")
_PARAM_WORDS = ("window", "l =", "k =", "w =", "NS =", "K =", "H =")


class ReadmeError(ValueError):
    pass


def _cells(line: str) -> list[str]:
    s = line.strip()
    if not (s.startswith("|") and s.endswith("|")):
        raise ReadmeError(f"not a table row: {line!r}")
    return [c.strip() for c in s[1:-1].split("|")]


def _table_after(lines: list[str], start: int) -> tuple[list[str], list[list[str]]]:
    """The first Markdown table at or after line `start`: its header cells and its body rows."""
    i = start
    while i < len(lines) and not lines[i].lstrip().startswith("|"):
        i += 1
    if i + 1 >= len(lines):
        raise ReadmeError(f"no table after line {start + 1}")
    header = _cells(lines[i])
    if not set(lines[i + 1].replace("|", "").strip()) <= set("-: "):
        raise ReadmeError(f"line {i + 2}: not a table separator")
    rows = []
    j = i + 2
    while j < len(lines) and lines[j].lstrip().startswith("|"):
        row = _cells(lines[j])
        if len(row) != len(header):
            raise ReadmeError(f"line {j + 1}: {len(row)} cells, the header has {len(header)}")
        rows.append(row)
        j += 1
    if not rows:
        raise ReadmeError(f"line {i + 1}: a table without rows")
    return header, rows


def numbers(cell: str, separated_only: bool = False) -> list[str]:
    """The figures of one cell, in order, as written."""
    out = []
    for m in _NUM.finditer(cell):
        before = cell[:m.start()].rstrip()
        if any(before.endswith(w) for w in _PARAM_WORDS):
            continue                                  # a parameter ("window 6"), not a figure
        after = cell[m.end():]
        if after.startswith("x") or after.lstrip().startswith("%"):
            continue                                  # a ratio ("0.515x", "+22.3 %")
        if separated_only and not _SEP.match(m.group(1)):
            continue
        out.append(m.group(1))
    return out


def _column(header: list[str], name: str) -> int:
    if name not in header:
        raise ReadmeError(f"no column {name!r} in {header}")
    return header.index(name)


def figures(text: str | None = None) -> list[tuple[str, str]]:
    """Every (row, figure) of the two tables, in README order (a figure written twice in one row, as
    in "43 / 43 / 51", appears twice)."""
    if text is None:
        text = README.read_text()
    lines = text.splitlines()
    starts = [i for i, ln in enumerate(lines) if ln.strip() == RESULTS_HEADING]
    if len(starts) != 1:
        raise ReadmeError(f"heading {RESULTS_HEADING!r} found {len(starts)} times")
    header, rows = _table_after(lines, starts[0])
    eng, op, ours = _column(header, "engine"), _column(header, "operation"), _column(header, "ours")
    out: list[tuple[str, str]] = []
    for r in rows:
        found = numbers(r[ours])
        if not found:
            raise ReadmeError(f"results row {r[eng]} | {r[op]}: no figure in {r[ours]!r}")
        out += [(f"results: {r[eng]} | {r[op]}", f) for f in found]
    starts = [i for i, ln in enumerate(lines) if ln.startswith(WHERE_INTRO)]
    if len(starts) != 1:
        raise ReadmeError(f"{WHERE_INTRO!r} found {len(starts)} times")
    header, rows = _table_after(lines, starts[0])
    op, rtl, cyc = _column(header, "operation"), _column(header, "rtl (pka_top)"), _column(header, "cycles")
    for r in rows:
        found = numbers(r[cyc])
        if len(found) != 1:
            raise ReadmeError(f"where row {r[op]}: {len(found)} figures in the cycles cell {r[cyc]!r}")
        out += [(f"where: {r[op]}", f) for f in found + numbers(r[rtl], separated_only=True)]
    return out


def figure_counts(text: str | None = None) -> Counter[tuple[str, str]]:
    return Counter(figures(text))


def value(figure: str) -> float:
    """The number a figure writes ("370,533" -> 370533, "3.846" -> 3.846)."""
    return float(figure.replace(",", ""))
