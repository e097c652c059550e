"""Verilator -Wall lint of every design unit, warnings fatal (waivers only in lint/).

Every fileset (*.f under rtl/ and tb/common/) names its top with a `// top: NAME` line and may add
`// lint-params: NAME=VALUE ...` lines; each line of lint-params is one configuration to lint.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pka.sim import REPO, lint

FILESETS = sorted(list((REPO / "rtl").rglob("*.f")) + list((REPO / "tb" / "common").glob("*.f")))


def _configs(f: Path) -> list[tuple[str, dict[str, int]]]:
    text = f.read_text()
    top = re.search(r"//\s*top:\s*(\S+)", text)
    assert top, f"{f} has no `// top: NAME` line"
    params = [dict((kv.split("=")[0], int(kv.split("=")[1], 0)) for kv in m.split())
              for m in re.findall(r"//\s*lint-params:\s*(.*)", text)] or [{}]
    return [(top.group(1), p) for p in params]


CASES = [(f, top, p) for f in FILESETS for top, p in _configs(f)]


@pytest.mark.rtl
@pytest.mark.parametrize("f,top,params", CASES, ids=[f"{c[1]}-{'-'.join(f'{k}{v}' for k, v in c[2].items())}" for c in CASES])
def test_lint(f: Path, top: str, params: dict[str, int]) -> None:
    from pka.sim import fileset
    name = f.stem
    sources = fileset(name)
    proc = lint(sources, top, params)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_every_rtl_file_is_in_a_fileset() -> None:
    listed = set()
    for f in FILESETS:
        for line in f.read_text().splitlines():
            line = line.split("//", 1)[0].strip()
            if line:
                listed.add((REPO / line).resolve())
    rtl = {p.resolve() for p in (REPO / "rtl").rglob("*.sv")}
    missing = sorted(str(p.relative_to(REPO)) for p in rtl - listed)
    assert not missing, f"RTL files in no fileset (so never linted): {missing}"
