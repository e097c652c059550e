"""One generated region of a document: the text between a BEGIN and an END marker line, both kept
(the benches' `--doc` modes write their measured tables this way)."""

from __future__ import annotations

from pathlib import Path


def replace_region(path: Path, begin: str, end: str, region: str) -> None:
    """Replace path's text from `begin` to `end` (markers included) by `region`, which starts with
    `begin` and ends with `end`; a document without both markers is an error."""
    text = path.read_text()
    if begin not in text or end not in text:
        raise SystemExit(f"{path} has no {begin} ... {end} region")
    i, j = text.index(begin), text.index(end) + len(end)
    path.write_text(text[:i] + region + text[j:])
