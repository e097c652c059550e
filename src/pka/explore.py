"""Design-space exploration: sweep an engine's parameters, cycles x fmax against area, Pareto front.

    res = explore("hscm", "pes=4,8,16;w=16,32", bits=1024, target="ecp5-85k")

Every grid point runs
  - the cycle count of one operation (`op`): from the engine's golden model by default
    (`cycles_from="model"`: the model's cycle model is exact, the RTL tests assert that the RTL's
    cycles_o equals it) or from RTL simulation (`cycles_from="rtl"`, pka.rtl.<e> through Verilator);
  - synthesis and place and route of the engine in its narrow-I/O shell (pka.synth), for area and
    the routed fmax;
and reports time per operation = cycles / fmax and time x area.

The workload is fixed and reproducible: a `bits`-bit odd modulus with its top bit set and a base
from random.Random(bits), and for modexp the exponent E = (2/3)(2^bits - 1) = 0b1010...10, which
has Hamming weight 1/2 (paper 004's choice, Table 3). `modmul` reports the cycles of one Montgomery
product (OpResult.cycles), the figure the papers quote for a multiplication.

Points run in a local process pool (`jobs` workers) or, with `scheduler="tcp://HOST:PORT"`, on a
Dask distributed cluster (the workers must see this repository and the synthesis cache at the same
paths, e.g. a shared filesystem). Outputs: <out>.json (every point), <out>.png (time against area,
Pareto front marked) and <out>.html (table, plot, settings).
"""

from __future__ import annotations

import base64
import hashlib
import html
import itertools
import json
import logging
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from pka.errors import PkaError, Status
from pka.synth import REPO, FlowOptions, cache_root, design_for, engine_params, get_target, synth_design

log = logging.getLogger("pka.explore")

OPS = ("modexp", "modmul")


# ---- grid ------------------------------------------------------------------------------------------

def parse_grid(text: str, engine: str) -> list[dict[str, Any]]:
    """'pes=4,8,16;w=16,32' -> the cartesian product, each point a complete checked --param dict."""
    defaults = engine_params(engine, {})
    axes: list[tuple[str, list[Any]]] = []
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        name, sep, values = part.partition("=")
        name = name.strip()
        if not sep or not values.strip():
            raise PkaError(Status.ERR_PARAM, f"grid axis {part!r} is not NAME=V1,V2,...")
        if name not in defaults:
            raise PkaError(Status.ERR_PARAM, f"engine {engine} has no parameter {name!r} ({', '.join(defaults)})")
        vals: list[Any] = []
        for v in values.split(","):
            v = v.strip()
            try:
                vals.append(int(v, 0) if isinstance(defaults[name], int) else v)
            except ValueError:
                raise PkaError(Status.ERR_PARAM, f"grid axis {name}: not an integer: {v!r}") from None
        axes.append((name, vals))
    if not axes:
        return [engine_params(engine, {})]
    points = []
    for combo in itertools.product(*(vals for _, vals in axes)):
        points.append(engine_params(engine, dict(zip((n for n, _ in axes), combo))))
    return points


# ---- cycles ----------------------------------------------------------------------------------------

def workload(bits: int, engine: str = "", params: Mapping[str, Any] | None = None) -> tuple[int, int, int]:
    """(base, exponent, modulus) of the reproducible benchmark operation at `bits`.

    The modulus is random (odd, top bit set) except where an engine needs a special form: rns with
    alg=sbmm works only for P = Ma^2 - 2, taken from the model's deterministic generator."""
    rng = random.Random(bits)
    n = rng.getrandbits(bits) | 1 | (1 << (bits - 1))
    if engine == "rns" and (params or {}).get("alg") == "sbmm":
        from pka.model import rns
        n = rns.gen_sbmm_prime(bits, int((params or {}).get("w", 32))).p
    x = rng.randrange(n)
    e = (2**bits - 1) * 2 // 3
    return x, e, n


def _cycles_key(engine: str, params: Mapping[str, Any], bits: int, op: str, source: str) -> str:
    h = hashlib.sha256(json.dumps([engine, dict(params), bits, op, source], sort_keys=True).encode())
    for f in (REPO / "src" / "pka" / "model" / f"{engine}.py", REPO / "src" / "pka" / "model" / "common.py",
              REPO / "src" / "pka" / "rtl" / f"{engine}.py"):
        if f.exists():
            h.update(f.read_bytes())
    if source == "rtl":
        d = REPO / "rtl" / "engines" / engine
        for f in sorted(d.rglob("*")) if d.exists() else []:
            if f.is_file():
                h.update(f.read_bytes())
    return h.hexdigest()[:24]


def _example_cycles(bits: int, params: Mapping[str, Any]) -> dict[str, Any]:
    """The example engine has no model: simulate one MODADD through pka.sim."""
    from pka.sim import Design, Harness, Op, Slot, fileset
    d = design_for("example", params, bits)
    x, _, n = workload(bits)
    with Harness(Design(d.core, d.sources, {k: int(v) for k, v in d.rtl_params.items()}, mem_aw=d.mem_aw)) as h:
        h.write_slot(Slot.N, n)
        h.write_slot(Slot.A, x)
        h.write_slot(Slot.B, x)
        r = h.command(Op.MODADD, bits)
        if r.status != 0:
            raise PkaError(Status(r.status), "example engine returned an error")
        words = -(-bits // 32)
        assert h.read_slot(Slot.R, words) == (2 * x) % n, "example engine result wrong"
    return {"cycles": r.cycles, "io_cycles": r.io_cycles, "detail": {}}


def op_cycles(engine: str, params: Mapping[str, Any], bits: int, op: str = "modexp",
              cycles_from: str = "model") -> dict[str, Any]:
    """Cycles of one operation: {"cycles", "io_cycles", "detail", "source"} (cached)."""
    if op not in OPS:
        raise PkaError(Status.ERR_PARAM, f"unknown op {op!r} ({', '.join(OPS)})")
    if cycles_from not in ("model", "rtl"):
        raise PkaError(Status.ERR_PARAM, f"cycles come from 'model' or 'rtl', not {cycles_from!r}")
    source = "rtl" if engine == "example" else cycles_from
    key = _cycles_key(engine, params, bits, op, source)
    path = cache_root() / "cycles" / f"{engine}-{bits}-{op}-{key}.json"
    if path.exists():
        return dict(json.loads(path.read_text()))
    if engine == "example":
        out = _example_cycles(bits, params)
        out["op"] = "modadd"
    else:
        from pka.engines import get_engine
        eng = get_engine(engine)
        impl = eng.backend(source)
        x, e, n = workload(bits, engine, params)
        if op == "modexp":
            res = impl.modexp(x, e, n, dict(params))
            assert res.result == pow(x, e, n), f"{engine} {source}: modexp result wrong"
        else:
            res = impl.modmul(x, n - 1 - x // 3, n, dict(params))
            assert res.result == x * (n - 1 - x // 3) % n, f"{engine} {source}: modmul result wrong"
        if res.cycles is None:
            raise PkaError(Status.ERR_UNSUPPORTED, f"{engine} {source}: no cycle count for {dict(params)} "
                                                   "(the engine has no cycle model for it)")
        detail = {k: v for k, v in (res.detail or {}).items() if isinstance(v, (int, float, str, bool))}
        out = {"cycles": int(res.cycles), "io_cycles": int(res.io_cycles or 0), "detail": detail, "op": op}
    out["source"] = source
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out))
    return out


# ---- one point -------------------------------------------------------------------------------------

def evaluate_point(spec: Mapping[str, Any]) -> dict[str, Any]:
    """Cycles and synthesis of one grid point; never raises for a bad point (error recorded)."""
    t0 = time.perf_counter()
    engine, params, bits = spec["engine"], dict(spec["params"]), int(spec["bits"])
    out: dict[str, Any] = {"engine": engine, "params": params, "bits": bits, "target": spec["target"],
                           "op": spec["op"]}
    try:
        cyc = op_cycles(engine, params, bits, spec["op"], spec.get("cycles_from", "model"))
        out.update(cycles=cyc["cycles"], io_cycles=cyc.get("io_cycles"), cycles_source=cyc["source"],
                   cycles_detail=cyc.get("detail", {}))
        opts = FlowOptions(**spec.get("flow", {}))
        syn = synth_design(design_for(engine, params, bits), spec["target"], opts, force=bool(spec.get("force")))
        out.update(fmax_mhz=syn.get("fmax_mhz"), area=syn["area"], shell_area=syn.get("shell_area"),
                   rtl=syn["rtl"], critical_path=syn.get("critical_path"), synth_time=syn["time"],
                   synth_cached=syn.get("cached", False), synth_key=syn["key"])
        if out["fmax_mhz"]:
            out["time_us"] = out["cycles"] / out["fmax_mhz"]
    except PkaError as exc:
        out["error"] = f"{exc}"
    except Exception as exc:  # a failing tool run: keep the sweep going, record why
        out["error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    out["wall_s"] = round(time.perf_counter() - t0, 2)
    return out


# ---- Pareto ----------------------------------------------------------------------------------------

def pareto_front(points: list[tuple[float, float]]) -> list[bool]:
    """True for points not dominated (smaller-or-equal in both coordinates, smaller in one)."""
    flags = []
    for i, (a, t) in enumerate(points):
        dominated = any((a2 <= a and t2 <= t) and (a2 < a or t2 < t) for j, (a2, t2) in enumerate(points) if j != i)
        flags.append(not dominated)
    return flags


def default_area_key(target: str) -> str:
    return "lut" if get_target(target).family == "xc7" else "lut4"


def annotate(results: list[dict[str, Any]], area_key: str) -> None:
    """Add area (the chosen metric), the y value (time, or cycles without fmax), time x area and the
    Pareto flag to every successful point."""
    ok = [r for r in results if "error" not in r and r.get("area", {}).get(area_key) is not None]
    for r in ok:
        r["area_metric"] = area_key
        r["area_value"] = r["area"][area_key]
        r["y"] = r.get("time_us") if r.get("time_us") is not None else float(r["cycles"])
        r["y_label"] = "time_us" if r.get("time_us") is not None else "cycles"
        if r.get("time_us") is not None:
            r["time_area"] = r["time_us"] * r["area_value"]
    flags = pareto_front([(float(r["area_value"]), float(r["y"])) for r in ok])
    for r, f in zip(ok, flags):
        r["pareto"] = f


def point_label(params: Mapping[str, Any], varying: Iterable[str]) -> str:
    return ",".join(f"{k}={params[k]}" for k in varying) or "default"


def varying_params(results: list[dict[str, Any]]) -> list[str]:
    keys: list[str] = []
    for r in results:
        for k in r["params"]:
            if k not in keys:
                keys.append(k)
    return [k for k in keys if len({json.dumps(r["params"].get(k)) for r in results}) > 1]


def plot(results: list[dict[str, Any]], path: Path, title: str) -> Path | None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ok = [r for r in results if "area_value" in r]
    if not ok:
        return None
    vary = varying_params(results)
    fig, ax = plt.subplots(figsize=(7.5, 5))
    xs = [r["area_value"] for r in ok]
    ys = [r["y"] for r in ok]
    ax.scatter(xs, ys, c=["tab:red" if r.get("pareto") else "tab:blue" for r in ok], zorder=3)
    front = sorted((r for r in ok if r.get("pareto")), key=lambda r: r["area_value"])
    if len(front) > 1:
        ax.step([r["area_value"] for r in front], [r["y"] for r in front], where="post", color="tab:red",
                alpha=0.6, label="Pareto front")
    for r in ok:
        ax.annotate(point_label(r["params"], vary), (r["area_value"], r["y"]), fontsize=7,
                    textcoords="offset points", xytext=(4, 4))
    ylab = "time per operation (us)" if ok[0]["y_label"] == "time_us" else "cycles per operation"
    ax.set_xlabel(f"area: {ok[0]['area_metric']} (place-and-route report, incl. the I/O shell)")
    ax.set_ylabel(ylab)
    ax.set_title(title, fontsize=10)
    ax.grid(True, alpha=0.3)
    if len(front) > 1:
        ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


# ---- table / HTML ----------------------------------------------------------------------------------

COLUMNS = [("point", "point"), ("cycles", "cycles"), ("fmax_mhz", "fmax MHz"), ("time_us", "time us"),
           ("area", "area"), ("dsp", "DSP"), ("ebr", "EBR"), ("time_area", "time x area"), ("pareto", "Pareto")]


def table_rows(results: list[dict[str, Any]]) -> list[list[str]]:
    vary = varying_params(results)
    rows = []
    for r in results:
        if "error" in r:
            rows.append([point_label(r["params"], vary), "error: " + r["error"]] + [""] * (len(COLUMNS) - 2))
            continue
        a = r.get("area", {})
        rows.append([
            point_label(r["params"], vary),
            f"{r['cycles']:,}",
            f"{r['fmax_mhz']:.1f}" if r.get("fmax_mhz") else "-",
            f"{r['time_us']:.2f}" if r.get("time_us") is not None else "-",
            f"{r.get('area_value', '-')}",
            f"{a.get('dsp', a.get('dsp48e1', 0))}",
            f"{a.get('ebr', a.get('ramb18', 0))}",
            f"{r['time_area']:.4g}" if r.get("time_area") is not None else "-",
            "*" if r.get("pareto") else "",
        ])
    return rows


def write_html(report: Mapping[str, Any], png: Path | None, path: Path) -> Path:
    res = report["results"]
    head = [h for _, h in COLUMNS]
    head[4] = f"area ({report['area_metric']})"
    rows = table_rows(res)
    img = ""
    if png is not None and png.exists():
        img = f'<img alt="Pareto plot" src="data:image/png;base64,{base64.b64encode(png.read_bytes()).decode()}">'
    esc = html.escape
    trs = "\n".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows)
    settings = {k: report[k] for k in ("engine", "grid", "bits", "target", "device", "op", "cycles_from",
                                       "area_metric", "flow", "tools", "date", "wall_s")}
    text = f"""<!doctype html>
<html><head><meta charset="utf-8"><title>pka explore: {esc(report['engine'])} on {esc(report['target'])}</title>
<style>body{{font-family:sans-serif;max-width:1000px;margin:2em auto}} table{{border-collapse:collapse}}
td,th{{border:1px solid #bbb;padding:3px 8px;text-align:right}} td:first-child{{text-align:left}}
pre{{background:#f4f4f4;padding:8px}}</style></head><body>
<h1>pka explore: {esc(report['engine'])}, {report['bits']}-bit {esc(report['op'])}, {esc(report['target'])}</h1>
<p>Our measurements: cycles from the engine's {esc(report['cycles_from'])} (exact), area and routed fmax from
Yosys + nextpnr on {esc(report['device'])}, with the engine inside the narrow-I/O shell (syn/pka_syn_shell.sv,
which adds the operand RAM, the serial host interface and registers; its area is included).
time = cycles / fmax; Pareto points (*) are not beaten in both area and time. These are open-tool
figures for one seed; they are not the papers' devices or tools (see doc/results.md).</p>
{img}
<table><tr>{''.join(f'<th>{esc(h)}</th>' for h in head)}</tr>
{trs}
</table>
<h2>Settings</h2><pre>{esc(json.dumps(settings, indent=1))}</pre>
</body></html>
"""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# ---- the sweep -------------------------------------------------------------------------------------

def _run_local(specs: list[dict[str, Any]], jobs: int, done: Callable[[dict[str, Any]], None]) -> list[dict[str, Any]]:
    results: list[dict[str, Any] | None] = [None] * len(specs)
    if jobs <= 1:
        for i, s in enumerate(specs):
            results[i] = evaluate_point(s)
            done(results[i])  # type: ignore[arg-type]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futs = {pool.submit(evaluate_point, s): i for i, s in enumerate(specs)}
            for fut in as_completed(futs):
                results[futs[fut]] = fut.result()
                done(results[futs[fut]])  # type: ignore[arg-type]
    return [r for r in results if r is not None]


def _run_dask(specs: list[dict[str, Any]], scheduler: str, done: Callable[[dict[str, Any]], None]) -> list[dict[str, Any]]:
    from distributed import Client
    from distributed import as_completed as dask_completed

    with Client(scheduler, timeout="30s") as client:  # type: ignore[no-untyped-call]
        futs = [client.submit(evaluate_point, s, pure=False) for s in specs]
        index = {f.key: i for i, f in enumerate(futs)}
        results: list[dict[str, Any] | None] = [None] * len(specs)
        for fut in dask_completed(futs):  # type: ignore[no-untyped-call]
            r = fut.result()
            results[index[fut.key]] = r
            done(r)
    return [r for r in results if r is not None]


def explore(engine: str, grid: str, bits: int, target: str = "ecp5-85k", op: str = "modexp",
            cycles_from: str = "model", jobs: int = 1, scheduler: str | None = None,
            flow: FlowOptions | None = None, area_key: str | None = None, out: Path | None = None,
            progress: Callable[[int, int, dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Run the sweep and write <out>.json/.png/.html (out: a path prefix; default build/explore/...)."""
    t0 = time.perf_counter()
    tgt = get_target(target)
    if op not in OPS:
        raise PkaError(Status.ERR_PARAM, f"unknown op {op!r} ({', '.join(OPS)})")
    points = parse_grid(grid, engine)
    flow = flow or FlowOptions()
    flow_d = {"freq": flow.freq, "seed": flow.seed, "no_tmdriv": flow.no_tmdriv, "timeout": flow.timeout,
              "router": flow.router}
    specs = [{"engine": engine, "params": p, "bits": bits, "target": target, "op": op,
              "cycles_from": cycles_from, "flow": flow_d} for p in points]
    n_done = 0

    def done(r: dict[str, Any]) -> None:
        nonlocal n_done
        n_done += 1
        if progress is not None:
            progress(n_done, len(specs), r)

    if scheduler:
        results = _run_dask(specs, scheduler, done)
    else:
        results = _run_local(specs, jobs, done)
    key = area_key or default_area_key(target)
    annotate(results, key)
    from pka.synth import tool_versions
    report = {
        "engine": engine, "grid": grid, "bits": bits, "target": target, "device": tgt.device, "op": op,
        "cycles_from": "rtl (Verilator simulation)" if engine == "example" else
        ("golden model (exact cycle model)" if cycles_from == "model" else "rtl (Verilator simulation)"),
        "area_metric": key, "flow": flow.key(tgt), "tools": tool_versions(),
        "scheduler": scheduler or f"local pool, {jobs} worker(s)",
        "date": time.strftime("%Y-%m-%d %H:%M:%S"), "wall_s": round(time.perf_counter() - t0, 1),
        "results": results,
    }
    prefix = out or (REPO / "build" / "explore" / f"{engine}-{bits}-{target}")
    prefix = Path(prefix)
    prefix.parent.mkdir(parents=True, exist_ok=True)
    json_path = prefix.with_name(prefix.name + ".json")
    json_path.write_text(json.dumps(report, indent=1, default=str))
    png = plot(results, prefix.with_name(prefix.name + ".png"),
               f"{engine} {bits}-bit {op} on {tgt.device}\n(cycles: {report['cycles_from']}; one nextpnr seed)")
    html_path = write_html(report, png, prefix.with_name(prefix.name + ".html"))
    report["files"] = {"json": str(json_path), "png": str(png) if png else None, "html": str(html_path)}
    return report


def default_jobs() -> int:
    return max(1, min(2, (os.cpu_count() or 1) // 2))
