"""The tree is self-contained: the docs' relative links resolve inside the repository, no tracked
file points at the papers' or the toolchain notes' location outside it, and doc/references.md cites
the five papers in full (issue 17, item 7). Pure Python, no tools, well under a second."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "doc"
# generated, not hand-written (and not part of the docs' link graph)
SKIP_DIRS = ("doc/regs/", "build/")
# Markdown inline links and images: [text](target) / ![alt](target "title")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")
# where the papers and the toolchain notes lived outside the repository (spelt in two parts so
# that this file does not match itself)
OUTSIDE = ("../" + "shared", "/work/" + "shared")


def _skipped(rel: str) -> bool:
    return any(rel.startswith(d) or f"/{d}" in rel for d in SKIP_DIRS)


def markdown_files() -> list[Path]:
    files = [REPO / "README.md"]
    files += sorted(p for p in DOC.rglob("*.md") if not _skipped(p.relative_to(REPO).as_posix()))
    return [f for f in files if f.exists()]


def links(text: str) -> list[tuple[int, str]]:
    """(line number, target) of every inline link outside fenced code blocks and inline code."""
    out = []
    fenced = False
    for n, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        line = re.sub(r"`[^`]*`", "", line)
        out += [(n, m.group(1)) for m in LINK.finditer(line)]
    return out


def broken_links(md: Path, root: Path = REPO) -> list[str]:
    bad = []
    for n, target in links(md.read_text(encoding="utf-8")):
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):   # http:, https:, mailto:, ...
            continue
        path = target.split("#", 1)[0]
        if not path:                                          # an anchor in the same file
            continue
        rel = md.relative_to(root).as_posix()
        if path.startswith("/"):
            bad.append(f"{rel}:{n}: absolute path {target}")
            continue
        dest = (md.parent / path).resolve()
        if not dest.is_relative_to(root.resolve()):
            bad.append(f"{rel}:{n}: {target} points outside the repository")
        elif not dest.exists():
            bad.append(f"{rel}:{n}: {target} does not exist")
    return bad


@pytest.mark.parametrize("md", markdown_files(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_relative_links_resolve(md: Path) -> None:
    bad = broken_links(md)
    assert not bad, "\n".join(bad)


def test_link_checker_catches_bad_links(tmp_path: Path) -> None:
    """The checker itself: a missing file, a path out of the repository and an absolute path are
    reported; a good link, an anchor, a web link and a link inside a code span are not."""
    (tmp_path / "doc").mkdir()
    (tmp_path / "doc" / "architecture.md").write_text("# a\n")
    (tmp_path / "outside.md").write_text("# o\n")
    md = tmp_path / "doc" / "probe.md"
    md.write_text("[ok](architecture.md#one) [a](#x) [w](https://example.org) `[c](nowhere.md)`\n"
                  "[up](../outside.md)\n```\n[fenced](nowhere.md)\n```\n"
                  "[missing](no_such_file.md) [out](../../outside.md) [abs](/etc/passwd)\n")
    bad = broken_links(md, root=tmp_path)
    assert len(bad) == 3, bad
    assert any("no_such_file.md" in b for b in bad)
    assert any("outside the repository" in b for b in bad)
    assert any("absolute path" in b for b in bad)


def tracked_text_files() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    files = []
    for name in out.decode().split("\0"):
        if not name or _skipped(name):
            continue
        path = REPO / name
        if not path.is_file():          # deleted in the working tree
            continue
        data = path.read_bytes()
        if b"\0" in data[:8192]:        # binary
            continue
        files.append(path)
    return files


def test_no_tracked_file_points_outside_the_repository() -> None:
    hits = []
    for path in tracked_text_files():
        text = path.read_bytes().decode("utf-8", errors="replace")
        for n, line in enumerate(text.splitlines(), 1):
            if any(s in line for s in OUTSIDE):
                hits.append(f"{path.relative_to(REPO)}:{n}: {line.strip()[:100]}")
    assert not hits, "\n".join(hits)


# (number, an author's name, words of the title): each must appear in its section with a year.
PAPERS = [
    ("000", "Cilardo", "Carry-Save Montgomery Modular Exponentiation on Reconfigurable Hardware"),
    ("001", "Ibrahim", "Scalable Low Power Radix 4 Montgomery Multiplication Algorithm"),
    ("002", "Bigou", "Single Base Modular Multiplication for Efficient Hardware RNS Implementations of ECC"),
    ("003", "Orup", "VICTOR an efficient RSA hardware implementation"),
    ("004", "Wu", "Fast RSA decryption through high-radix scalable Montgomery modular multipliers"),
]


def reference_sections() -> dict[str, str]:
    text = (DOC / "references.md").read_text(encoding="utf-8")
    parts = re.split(r"^## \[(\d{3})\]", text, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


@pytest.mark.parametrize("num,author,title", PAPERS, ids=[p[0] for p in PAPERS])
def test_references_cite_each_paper_with_a_year(num: str, author: str, title: str) -> None:
    sections = reference_sections()
    assert num in sections, f"doc/references.md has no section [{num}]"
    body = " ".join(sections[num].split())
    assert author in body
    assert title.lower() in body.lower()
    assert re.search(r"\b(19[5-9]\d|20[0-4]\d)\b", body), f"[{num}] gives no year"


def test_references_are_linked_from_readme() -> None:
    assert "(doc/references.md)" in (REPO / "README.md").read_text(encoding="utf-8")
    assert "(doc/toolchain.md)" in (REPO / "README.md").read_text(encoding="utf-8")


def _bench(name: str) -> Any:
    """bench/<name>.py as a module (the benches are scripts, not a package)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"pka_bench_{name}", REPO / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


@pytest.mark.parametrize("name, doc", [("ecdsa", "doc/top.md"), ("hscm", "doc/hscm.md"), ("top", "doc/top.md"),
                                       ("soc", "soc/README.md")])
def test_measured_tables_are_generated_from_the_bench_json(name: str, doc: str) -> None:
    """The measured tables of doc/top.md (ECDSA_SIGN; cycles through the bus), doc/hscm.md (results)
    and soc/README.md (CPU and accelerator cycles) are what `python bench/<name>.py --doc` writes
    from bench/results/<name>.json (a number typed into the doc, or a JSON re-measured without
    --doc, fails here)."""
    import json
    bench = _bench(name)
    data = json.loads(bench.OUT.read_text())
    assert bench.doc_region(data) in (REPO / doc).read_text()


def test_ecdsa_parts_add_up() -> None:
    """bench/results/ecdsa.json's parts add up to its measured COMPUTE and the formula."""
    import json
    for r in json.loads(_bench("ecdsa").OUT.read_text())["rows"]:
        assert sum(r["parts"].values()) == r["cycles"] == r["formula"], r


def test_hscm_results_are_rtl_rows() -> None:
    """doc/hscm.md's results table holds RTL rows only (every count there checked against the model)."""
    import json
    rows = json.loads(_bench("hscm").OUT.read_text())["rows"]
    assert all(r["backend"] == "rtl" for r in rows if r["group"] in ("mm", "exp", "ladder", "crt", "blind"))


def test_hscm_k_2w_table_is_the_bench_json() -> None:
    """doc/hscm.md's k = 2w cycle table (typed) holds bench/results/hscm.json's `kw` rows: every
    k = 32 count and the k = w count beside it (fails on a one-cycle change of either)."""
    import json
    rows = [r for r in json.loads((REPO / "bench/results/hscm.json").read_text())["rows"] if r["group"] == "kw"]
    text = (REPO / "doc/hscm.md").read_text()
    assert len(rows) == 3
    for r in rows:
        label = r["name"].replace(f", k = {r['k']}", "")
        line = re.search(rf"^\| {re.escape(label)} \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \|$", text, re.M)
        assert line, f"doc/hscm.md has no k = 2w row for {label!r}"
        assert [int(x.replace(",", "")) for x in line.groups()] == \
            [r["cycles"], r["k_eq_w_cycles"], r["paper_cycles"]], label
