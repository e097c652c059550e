"""Leakage assessment (TVLA) on the simulated pka_top: a fixed-versus-random Welch t-test on power
traces made of the engine's register toggles (issue 14, item 3; ISO 17825, Goodwill et al. 2011).

The power model. One sample per clock cycle: the Hamming distance between the engine's state after
two consecutive rising edges (pka.analysis.state: StateSim.hd_on over the engine's hierarchy, i.e.
every register *_q / *_q2 and every memory mem_q of `pka_top.gen_eng[i].gen_<engine>`, the state
groups pe, eng and eram). Not counted: pka_top's sequencer, its operand RAM, its bus-side
registers and register block, combinational logic (the multipliers' and adders' own power,
glitches).

The partitions (one set fixed, one random, in a seeded random interleaving so that drift cannot
look like leakage; the entropy port reseeded per trace with a seed from the same generator):
  modexp-ct  fixed vs random exponent, base and modulus fixed: a prime p of `bits` bits, ELEN =
             bits (the modulus length); blinding on: exponent blinding by the accelerator with the
             group order p - 1 (Pka.modexp(ct=True, order=p - 1)).
  rsa-crt    fixed vs random message under one key (seeded); blinding on: exponents d_p + r_p (p-1),
             d_q + r_q (q-1) and the message blinding pair, by the accelerator.
  ecc-mul    fixed vs random scalar, the point fixed (the generator); blinding on: k + r n and a
             random projective Z, by the accelerator.

The window. Of the whole operation only the engine command that computes the secret operation
(MODEXP_CT, RSA_CRT, ECC_MUL on the engine) is assessed, and of it only the cycles after the
engine's load state and before its store state (the exponentiation or ladder, with the steps
around it inside the engine: exponent alignment, range checks, the CRT key check, MRDC,
recombination). Where those cycles are is found once, from the engine's own state register (a
trace of its toggles, then peeks at each change), and checked on every trace: the engine must be
in the same state at the window's edges, and the command's CYCLES/COMPUTE/IO must equal the
reference run's (every secret operation is constant time; anything else fails loudly).
The excluded cycles (the driver's bus transfers, the sequencer before and after the engine command
with the other engine commands it runs, the engine's load and store) are named in the result; the
engine's load and store are recorded too and their own max |t| reported beside the window's.

Welch's t per sample: (mean_F - mean_R) / sqrt(var_F / n_F + var_R / n_R) with the unbiased
variances, accumulated online (Welford); a sample with zero variance in both sets counts as t = 0.
"""

from __future__ import annotations

import math
import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from pka.analysis.state import CmdHookBus, StateElem, StateSim, top_config
from pka.errors import PkaError, Status
from pka.regs import Op, Reg
from pka.sim import REPO

THRESHOLD = 4.5
OPS = ("modexp-ct", "rsa-crt", "ecc-mul")
COUNTED_GROUPS = ("pe", "eng", "eram")
# the engines whose phases this module knows (where the ladder ends: ladder_last below)
ENGINE_OPS = {"modexp-ct": ("hscm",), "rsa-crt": ("hscm",), "ecc-mul": ("rns",)}
BLIND_BITS = 64     # what blinding adds to an exponent or scalar (pka_top's sequencer)


class AlignmentError(RuntimeError):
    """A trace whose window is not where the reference run put it (an operation that is not constant
    time, or a changed design): the t-test would compare unaligned samples."""


# ---- Welch's t ------------------------------------------------------------------------------------

class Moments:
    """Per-sample count, mean and sum of squared deviations of one set of traces (Welford), in
    float64 (numpy). A sample that never changes keeps m2 exactly 0."""

    def __init__(self, length: int) -> None:
        import numpy as np

        self.n = 0
        self.mean = np.zeros(length)
        self.m2 = np.zeros(length)

    def add(self, trace: Sequence[int] | Any) -> None:
        import numpy as np

        x = np.asarray(trace, dtype=np.float64)
        if x.shape != self.mean.shape:
            raise AlignmentError(f"a trace of {x.size} samples, expected {self.mean.size}")
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (x - self.mean)

    def merged(self, other: "Moments") -> "Moments":
        """The moments of both sets of traces together (Chan, Golub, LeVeque's pairwise update)."""
        out = Moments(self.mean.size)
        out.n = self.n + other.n
        if out.n:
            delta = other.mean - self.mean
            out.mean = self.mean + delta * (other.n / out.n)
            out.m2 = self.m2 + other.m2 + delta * delta * (self.n * other.n / out.n)
        return out

    def var(self) -> Any:
        """Unbiased variance per sample (n - 1 in the denominator)."""
        if self.n < 2:
            raise ValueError("a variance needs at least two traces per set")
        return self.m2 / (self.n - 1)


def welch_t(a: Moments, b: Moments) -> Any:
    """Welch's t per sample, (mean_a - mean_b) / sqrt(var_a / n_a + var_b / n_b); 0 where both sets
    have zero variance (numpy array)."""
    import numpy as np

    den2 = a.var() / a.n + b.var() / b.n
    t = np.zeros_like(den2)
    ok = den2 > 0
    t[ok] = (a.mean[ok] - b.mean[ok]) / np.sqrt(den2[ok])
    return t


def t_tail(x: float, df: float) -> float:
    """P(|T| > x) for Student's t with df degrees of freedom (numerical integration of the density;
    scipy is not a dependency)."""
    if df > 1e4:
        return math.erfc(x / math.sqrt(2))
    c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)

    def pdf(t: float) -> float:
        return math.exp(c - (df + 1) / 2 * math.log1p(t * t / df))

    # substitute t = x / u, u in (0, 1]: integral of pdf(x/u) x / u^2 du, Simpson's rule
    n = 4000
    h = 1.0 / n
    total = 0.0
    for i in range(n + 1):
        u = max(i * h, 1e-12)
        f = pdf(x / u) * x / (u * u)
        total += f * (1 if i in (0, n) else 4 if i % 2 else 2)
    return 2 * total * h / 3


def welch_t_of(fixed: Sequence[Sequence[int]], rnd: Sequence[Sequence[int]]) -> Any:
    """Welch's t of two lists of equal-length traces (a convenience for small data and tests)."""
    length = len(fixed[0])
    a, b = Moments(length), Moments(length)
    for tr in fixed:
        a.add(tr)
    for tr in rnd:
        b.add(tr)
    return welch_t(a, b)


def degenerate(a: Moments, b: Moments) -> int:
    """Samples constant in both sets but at different values (t is 0 there by the rule, yet the
    sample separates the sets perfectly): reported, expected 0."""
    import numpy as np

    return int(np.count_nonzero((a.m2 == 0) & (b.m2 == 0) & (a.mean != b.mean)))


# ---- the engine's phases, from its RTL ------------------------------------------------------------

def _core_source(engine: str) -> tuple[Path, str]:
    path = REPO / "rtl" / "engines" / engine / f"pka_{engine}_core.sv"
    return path, re.sub(r"//[^\n]*", "", path.read_text())


def _sv_literal(text: str) -> int | None:
    """The value of a plain SystemVerilog integer literal (12, 6'b001011, 'h3F, 8'd7), else None."""
    m = re.fullmatch(r"(?:\d+)?'([bBdDhHoO])([0-9a-fA-F_]+)|(\d[\d_]*)", text.strip())
    if m is None:
        return None
    if m.group(3) is not None:
        return int(m.group(3).replace("_", ""))
    return int(m.group(2).replace("_", ""), {"b": 2, "d": 10, "h": 16, "o": 8}[m.group(1).lower()])


def enum_codes(engine: str, type_name: str) -> dict[int, str]:
    """`typedef enum logic [..] {...} <type_name>;` in the engine's core: encoding -> name. Implicit
    encodings count up from 0 (or from the previous explicit one); explicit ones must be plain
    literals (a state code such as rns's distance-3 one: `Load = 6'b001011`)."""
    path, text = _core_source(engine)
    m = re.search(r"typedef\s+enum\s+logic\s*\[[^\]]*\]\s*\{([^}]*)\}\s*" + re.escape(type_name) + r"\s*;", text)
    if m is None:
        raise PkaError(Status.ERR_UNSUPPORTED, f"{path.name}: no enum {type_name}")
    out: dict[int, str] = {}
    nxt = 0
    for item in (x.strip() for x in m.group(1).split(",")):
        if not item:
            continue
        name, eq, lit = item.partition("=")
        value = nxt
        if eq:
            v = _sv_literal(lit)
            if v is None:
                raise PkaError(Status.ERR_UNSUPPORTED, f"{path.name}: {type_name}.{name.strip()} = {lit.strip()} "
                               "is not a plain literal (not read here)")
            value = v
        if value in out:
            raise PkaError(Status.ERR_UNSUPPORTED, f"{path.name}: {type_name} encodes {value} twice")
        out[value] = name.strip()
        nxt = value + 1
    return out


def enum_names(engine: str, type_name: str) -> tuple[str, ...]:
    """The names of `typedef enum ... {...} <type_name>;` in the engine's core, by encoding: for
    enums with the dense encodings 0, 1, ... (names[value])."""
    path, _ = _core_source(engine)
    codes = enum_codes(engine, type_name)
    if sorted(codes) != list(range(len(codes))):
        raise PkaError(Status.ERR_UNSUPPORTED, f"{path.name}: {type_name} is not encoded 0, 1, ... (enum_codes)")
    return tuple(codes[i] for i in range(len(codes)))


@dataclass(frozen=True)
class Phases:
    """An engine core's top state machine: its register's leaf name and state names by value."""

    register: str                   # e.g. st_q
    codes: dict[int, str]           # encoding -> state name (dense for hscm; rns: a distance-3 code)

    @property
    def names(self) -> tuple[str, ...]:
        """The state names in the order of their encodings."""
        return tuple(self.codes[v] for v in sorted(self.codes))

    def name(self, value: int) -> str:
        """The state's name; a value no state has (a flipped state register) as state_<value>."""
        return self.codes.get(value, f"state_{value}")

    def kind(self, value: int) -> str:
        """load, store, idle (idle, done, wipe) or compute."""
        n = self.name(value).lower().removeprefix("s_")
        if "load" in n:
            return "load"
        if "store" in n:
            return "store"
        if n in ("idle", "done", "wipe"):
            return "idle"
        return "compute"


def engine_phases(engine: str) -> Phases:
    """The `state_e` enum of rtl/engines/<engine>/pka_<engine>_core.sv and the register declared with it."""
    path, text = _core_source(engine)
    r = re.search(r"\bstate_e\s+(\w+_q)\b", text)
    if r is None:
        raise PkaError(Status.ERR_UNSUPPORTED, f"{path.name}: no state_e register to find the phases by")
    return Phases(r.group(1), enum_codes(engine, "state_e"))


# ---- the operations -------------------------------------------------------------------------------

@dataclass
class Target:
    """One partition: what runs, the fixed value, how a random one is drawn, how a result is checked."""

    op: str
    engine: str
    size: str
    bits: int                                   # the build's operand size
    params: dict[str, Any]
    opcode: int                                 # the CMD the driver writes = the engine command assessed
    run: Callable[[Any, int], int]              # (Pka, value) -> result
    expect: Callable[[int], int]                # value -> the right result
    fixed: int
    draw: Callable[[random.Random], int]
    varies: str                                 # what the partition varies
    info: dict[str, Any] = field(default_factory=dict)
    blind_bits: int = 0                         # bits the accelerator adds to the secret when blinding


def v2(x: int) -> int:
    """The 2-adic valuation of x > 0 (factors of two)."""
    return (x & -x).bit_length() - 1


def modexp_ct_target(engine: str, bits: int, params: dict[str, Any], seed: int, blinding: bool) -> Target:
    """A prime modulus p of `bits` bits, a fixed base, ELEN = bits; exponents in [1, p - 1). The build
    is sized for bits + 64 (the blinded exponent E + r (p - 1) has 64 bits more: hscm refuses an ELEN
    above MaxLen)."""
    import gmpy2

    if bits < 64 or bits > 4096:
        raise PkaError(Status.ERR_LENGTH, "modexp-ct: --bits 64..4096")
    rng = random.Random(f"tvla modexp-ct {seed}")
    p = int(gmpy2.next_prime(rng.getrandbits(bits) | (3 << (bits - 2))))
    while p.bit_length() != bits:
        p = int(gmpy2.next_prime(rng.getrandbits(bits) | (3 << (bits - 2))))
    base = rng.randrange(2, p - 1)
    fixed = rng.randrange(1, p - 1)
    order = p - 1 if blinding else 0

    def run(pka: Any, e: int) -> int:
        return int(pka.modexp(base, e, p, engine, ct=True, params=params, elen=bits, order=order).result)

    # the build holds the blinded exponent (bits + 64) in both settings: on and off run on the same RTL
    return Target("modexp-ct", engine, f"{bits} bits", bits + BLIND_BITS, params, int(Op.MODEXP_CT), run,
                  lambda e: pow(base, e, p), fixed, lambda r: r.randrange(1, p - 1), "exponent",
                  {"modulus": hex(p), "base": hex(base), "fixed_exponent": hex(fixed), "elen": bits,
                   "order": "p - 1" if blinding else None, "order_2adic_valuation": v2(p - 1)},
                  64 if blinding else 0)


def rsa_crt_target(engine: str, bits: int, params: dict[str, Any], seed: int, blinding: bool) -> Target:
    """A seeded key (the primes of pka.proto.keys' seeded keys), messages in [2, n)."""
    from pka.model.common import CrtKey
    from pka.proto.keys import seeded_prime

    if bits < 64 or bits % 2:
        raise PkaError(Status.ERR_LENGTH, "rsa-crt: --bits even, at least 64")
    rng = random.Random(f"tvla rsa-crt {seed}")
    p = seeded_prime(rng, bits // 2, 65537)
    q = seeded_prime(rng, bits // 2, 65537)
    while q == p:
        q = seeded_prime(rng, bits // 2, 65537)
    key = CrtKey.from_pq(max(p, q), min(p, q))
    fixed = rng.randrange(2, key.n)

    def run(pka: Any, m: int) -> int:
        return int(pka.rsa_crt(m, key, engine, params=params).result)

    return Target("rsa-crt", engine, f"{bits} bits", bits, params, int(Op.RSA_CRT), run,
                  lambda m: pow(m, key.d, key.n), fixed, lambda r: r.randrange(2, key.n), "message",
                  {"n": hex(key.n), "e": key.e, "fixed_message": hex(fixed),
                   "p_minus_1_2adic_valuation": v2(key.p - 1), "q_minus_1_2adic_valuation": v2(key.q - 1)},
                  64 if blinding else 0)


def ecc_mul_target(engine: str, curve: str, params: dict[str, Any], seed: int, blinding: bool) -> Target:
    """x(k G): the point fixed (the generator), scalars in [1, order)."""
    from pka.model import rns
    from pka.proto.keys import curve_name

    name = curve_name(curve)
    c = rns._curve(name)
    rng = random.Random(f"tvla ecc-mul {seed}")
    fixed = rng.randrange(1, c.order)

    def expect(k: int) -> int:
        pt = rns.affine_mul(c, k, (c.gx, c.gy))
        assert pt is not None
        return int(pt[0])

    def run(pka: Any, k: int) -> int:
        return int(pka.ecc_mul_rns(name, k, params).result)

    return Target("ecc-mul", engine, name, c.p.bit_length(), params, int(Op.ECC_MUL), run, expect, fixed,
                  lambda r: r.randrange(1, c.order), "scalar",
                  {"curve": name, "point": "G", "fixed_scalar": hex(fixed)}, 64 if blinding else 0)


def make_target(op: str, engine: str, seed: int, blinding: bool, bits: int | None = None, curve: str | None = None,
                params: dict[str, Any] | None = None) -> Target:
    from pka.engines import get_engine, parse_params

    if op not in OPS:
        raise PkaError(Status.ERR_PARAM, f"unknown operation {op!r} ({', '.join(OPS)})")
    if engine not in ENGINE_OPS[op]:
        raise PkaError(Status.ERR_UNSUPPORTED, f"{op} on {engine}: tvla runs {op} on {', '.join(ENGINE_OPS[op])}")
    full = parse_params(get_engine(engine), ())
    full.update(params or {})
    if op == "ecc-mul":
        if curve is None or bits is not None:
            raise PkaError(Status.ERR_PARAM, "ecc-mul takes --curve (not --bits)")
        return ecc_mul_target(engine, curve, full, seed, blinding)
    if bits is None or curve is not None:
        raise PkaError(Status.ERR_PARAM, f"{op} takes --bits (not --curve)")
    if op == "modexp-ct":
        return modexp_ct_target(engine, bits, full, seed, blinding)
    return rsa_crt_target(engine, bits, full, seed, blinding)


# ---- the campaign ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Segment:
    """A named run of cycles of the recorded engine command (cycles from the CMD write)."""

    name: str
    first: int
    last: int
    what: str

    @property
    def size(self) -> int:
        return self.last - self.first + 1


@dataclass
class Layout:
    """Where the assessed engine command is, in cycles from the CMD write (0: the cycle in which the
    driver's CMD write completed), from the reference runs; the same in every trace (checked)."""

    load: int                   # first cycle of the engine's load state
    first: int                  # the window: first ...
    last: int                   # ... and last cycle (the end of the ladder / exponentiation)
    compute_last: int           # last cycle before the engine's store state
    store_last: int             # last cycle of the store state (the next one is the engine's done)
    done: int                   # the command's CYCLES (CMD write to pka_top's done)
    changes: list[tuple[int, int, int]]        # (cycle, engine state, op_q) at every state change
    phases: Phases
    checkpoints: list[tuple[int, str, int, int]] = field(default_factory=list)  # (cycle, element, entry, value)
    ladder: dict[str, Any] = field(default_factory=dict)     # how the window's end was found

    def state_at(self, cycle: int) -> int:
        s = self.changes[0][1]
        for c, v, _ in self.changes:
            if c > cycle:
                break
            s = v
        return s

    @property
    def span(self) -> int:
        """Samples recorded per trace: the engine command from its load to the end of its store."""
        return self.store_last - self.load + 1

    def segments(self) -> list[Segment]:
        out = [Segment("engine load", self.load, self.first - 1,
                       "operands from pka_top's RAM into the engine (the secret's load included)"),
               Segment("window", self.first, self.last, "the computation on the secret")]
        if self.compute_last > self.last:
            out.append(Segment("result", self.last + 1, self.compute_last,
                               "after the ladder: the result computed from its last state (" + self.ladder.get("tail", "")
                               + "): the output itself, which the fixed set fixes whatever the blinding"))
        out.append(Segment("engine store", self.compute_last + 1, self.store_last, "the result into pka_top's RAM"))
        return out

    def states_in(self, first: int, last: int) -> list[dict[str, Any]]:
        out = []
        for i, (c, v, _) in enumerate(self.changes):
            end = self.changes[i + 1][0] - 1 if i + 1 < len(self.changes) else self.done
            a, b = max(c, first), min(end, last)
            if a <= b:
                out.append({"state": self.phases.name(v), "cycles": [a, b]})
        return out


@dataclass
class Result:
    op: str
    engine: str
    size: str
    params: dict[str, Any]
    blinding: bool
    seed: int
    traces: int                 # per set
    layout: Layout
    t: Any                      # numpy array over the recorded span [load, store_last]
    scope: str
    elements: int
    bits: int
    info: dict[str, Any]
    completion: dict[str, int]
    other_commands: list[dict[str, Any]]
    degenerate: int
    halves: tuple[Any, Any] | None = None     # t of two independent halves of the traces (confirmation)
    constant: Any = None                      # samples constant in both sets (t = 0 by the rule)
    seconds: float = 0.0
    png: str | None = None

    def part(self, first: int, last: int) -> Any:
        lo = first - self.layout.load
        return self.t[lo:last - self.layout.load + 1]

    @property
    def window_t(self) -> Any:
        return self.part(self.layout.first, self.layout.last)

    def over(self, first: int, last: int) -> list[tuple[int, float, str]]:
        """(cycle, t, engine state) of every cycle in [first, last] with |t| > 4.5."""
        import numpy as np

        w = self.part(first, last)
        idx = np.nonzero(np.abs(w) > THRESHOLD)[0]
        lay = self.layout
        return [(first + int(i), float(w[i]), lay.phases.name(lay.state_at(first + int(i)))) for i in idx]

    def as_json(self) -> dict[str, Any]:
        import numpy as np

        lay = self.layout
        w = self.window_t
        amax = int(np.argmax(np.abs(w)))
        over = self.over(lay.first, lay.last)

        def seg_json(s: Segment) -> dict[str, Any]:
            t = self.part(s.first, s.last)
            return {"name": s.name, "cycles": [s.first, s.last], "what": s.what,
                    "max_abs_t": round(float(np.max(np.abs(t))), 3),
                    "cycles_over_4_5": int(np.count_nonzero(np.abs(t) > THRESHOLD))}

        before = [c for c in self.other_commands if c["cycles"][1] < lay.load]
        after = [c for c in self.other_commands if c["cycles"][0] > lay.store_last]
        excluded: list[dict[str, Any]] = [
            {"name": "driver bus transfers", "cycles": None,
             "what": "operands written before the CMD write; STATUS, the counters and the result read after the interrupt"},
            {"name": "sequencer before the engine command", "cycles": [0, lay.load - 1],
             "what": "dispatch" + (", entropy and blinding" if self.blinding else ""),
             "engine_commands": before},
            *[seg_json(s) for s in lay.segments() if s.name != "window"],
            {"name": "sequencer after the engine command", "cycles": [lay.store_last + 1, lay.done],
             "what": "the engine's done, the sequencer's own passes (check, clean-up) and engine wipe",
             "engine_commands": after},
        ]
        tail = [s for s in lay.segments() if s.name == "result"]
        lo, hi = lay.first - lay.load, lay.last - lay.load + 1
        live = int(w.size - np.count_nonzero(self.constant[lo:hi])) if self.constant is not None else int(w.size)
        halves: dict[str, Any] | None = None
        if self.halves is not None:
            h0, h1 = (np.abs(h[lo:hi]) for h in self.halves)
            both = np.nonzero((h0 > THRESHOLD) & (h1 > THRESHOLD))[0]
            halves = {"traces_per_set": [(self.traces + 1) // 2, self.traces // 2],
                      "max_abs_t": [round(float(np.max(h0)), 3), round(float(np.max(h1)), 3)],
                      "cycles_over_4_5_in_both": int(both.size),
                      "cycles": [lay.first + int(i) for i in both[:200]]}
        return {
            "traces": self.traces,
            "samples": int(w.size),
            "window": [lay.first, lay.last],
            "excluded": excluded,
            "max_abs_t": round(float(abs(w[amax])), 3),
            "cycles_over_4_5": len(over),
            "png": self.png,
            "op": self.op, "engine": self.engine, "size": self.size, "params": self.params,
            "blinding": "on" if self.blinding else "off", "seed": self.seed,
            "traces_per_set": {"fixed": self.traces, "random": self.traces},
            "max_abs_t_at": lay.first + amax,
            "window_states": lay.states_in(lay.first, lay.last),
            "ladder": lay.ladder,
            "over_4_5": [{"cycle": c, "t": round(t, 2), "state": s} for c, t, s in over[:200]],
            "result_tail_max_abs_t": seg_json(tail[0])["max_abs_t"] if tail else None,
            # under no leakage: the window's samples that vary times P(|t| > 4.5), df = 2N - 2
            "expected_over_4_5_if_no_leak": round(live * t_tail(THRESHOLD, 2 * self.traces - 2), 2),
            "varying_samples": live,
            "halves": halves,
            "degenerate_samples": self.degenerate,
            "registers": {"scope": self.scope + "*", "elements": self.elements, "bits": self.bits,
                          "groups": list(COUNTED_GROUPS)},
            "command": {"op": Op(self._opcode()).name, **self.completion},
            "info": self.info,
            "seconds": round(self.seconds, 1),
            "traces_per_minute": round(60 * 2 * self.traces / self.seconds, 1) if self.seconds else None,
        }

    def _opcode(self) -> int:
        return {"modexp-ct": Op.MODEXP_CT, "rsa-crt": Op.RSA_CRT, "ecc-mul": Op.ECC_MUL}[self.op]


class Tvla:
    """One simulation set up for a partition: the reference layout, then the traces."""

    def __init__(self, target: Target, blinding: bool, seed: int,
                 progress: Callable[[str], None] | None = None) -> None:
        from pka.driver import Pka

        self.target = target
        self.blinding = blinding
        self.seed = seed
        self.cfg = top_config(target.engine, target.params, target.bits)
        self.phases = engine_phases(target.engine)
        if progress:
            progress(f"pka_top with its state public: {target.engine} {dict(self.cfg.params)}, MaxLen "
                     f"{self.cfg.max_len} (the first run builds it)")
        self.sim = StateSim(self.cfg)
        self.bus = CmdHookBus(self.sim, target.opcode)
        self.pka = Pka(self.bus, blinding=blinding)
        self.rng = random.Random(f"tvla entropy {target.op} {seed}")
        self.scope, self.core = self._scope()
        self.completion: dict[str, int] = {}

    def _scope(self) -> tuple[str, str]:
        """The engine's hierarchy (the scope, a name prefix) and its core's prefix; checks that the
        hierarchy is exactly the state groups pe, eng and eram."""
        table = self.sim.table
        tag = f".gen_{self.target.engine}."
        inside = [e for e in table if tag in e.name]
        if not inside:
            raise PkaError(Status.ERR_UNSUPPORTED, f"no {self.target.engine} engine in the state table")
        name = inside[0].name
        prefix = name[:name.index(tag) + len(tag)]
        counted = {e.name for e in table if e.group in COUNTED_GROUPS}
        if counted != {e.name for e in inside}:
            raise RuntimeError(f"the engine's hierarchy {prefix} is not exactly the groups {COUNTED_GROUPS}")
        core = self.reg(self.phases.register, prefix).name.rsplit(".", 1)[0] + "."
        return prefix, core

    def reg(self, leaf: str, prefix: str | None = None) -> StateElem:
        """The engine core's register `leaf` (the shallowest of that name under the core)."""
        pre = prefix or self.core
        cands = [e for e in self.sim.table if e.name.startswith(pre) and e.name.endswith("." + leaf)
                 and ".u_core." in e.name]
        if not cands:
            raise PkaError(Status.ERR_UNSUPPORTED, f"no register {leaf} in the engine's core")
        return min(cands, key=lambda e: len(e.name))

    def _reseed(self) -> None:
        self.sim.entropy(self.rng.getrandbits(64))

    def _run(self, value: int, hook: Callable[[], None] | None) -> int:
        self.bus.on_cmd = hook
        got = self.target.run(self.pka, value)
        if self.bus.on_cmd is not None:
            self.bus.on_cmd = None
            raise RuntimeError(f"{self.target.op}: the driver wrote no CMD {Op(self.target.opcode).name}")
        if got != self.target.expect(value):
            raise RuntimeError(f"{self.target.op}: wrong result for {self.target.varies} {value:#x}")
        return got

    def _completion(self) -> dict[str, int]:
        last = self.pka.last
        assert last is not None
        return {"cycles": last.cycles, "compute": last.compute, "io": last.io}

    def warm_up(self, runs: int = 2) -> None:
        """Per-key and per-modulus set-up (the accelerator's key constants, SLOT_W, the blinding pair)
        happens on the first operations; the traces start from the steady state."""
        for _ in range(runs):
            self._reseed()
            self._run(self.target.fixed, None)

    def changes(self, watch: StateElem, also: Sequence[StateElem] = ()) -> list[tuple[int, list[list[int]]]]:
        """Two reference runs with the fixed value: a trace of `watch`'s toggles gives the cycles (from
        the CMD write) at which it changes; the second run peeks `watch` and `also` (every entry) at
        cycle 0 and at each of them."""
        sim = self.sim
        self._reseed()
        self._run(self.target.fixed, lambda: sim.hd_on(watch.name) and None)
        sim.hd_off()
        samples = sim.hd_samples()
        cycles = [0] + [j + 1 for j, v in enumerate(samples) if v]
        seen: list[tuple[int, list[list[int]]]] = []

        def peek() -> None:
            now = 0
            for c in cycles:
                if c > now:
                    sim.idle(c - now)
                    now = c
                seen.append((c, [[sim.peek(e, k) for k in range(e.depth)] for e in (watch, *also)]))

        self._reseed()
        self._run(self.target.fixed, peek)
        return seen

    def layout(self) -> tuple[Layout, list[dict[str, Any]]]:
        """The assessed engine command, its load, computation, store, and where its ladder ends."""
        st, opr = self.reg(self.phases.register), self.reg("op_q")
        ph = self.phases
        seen = self.changes(st, [opr])
        self.completion = self._completion()
        changes = [(c, v[0][0], v[1][0]) for c, v in seen]
        if any(a[1] == b[1] for a, b in zip(changes, changes[1:])):
            raise AlignmentError("the engine's state trace and its peeks disagree")
        # the engine commands: from a load state to the next idle one
        commands: list[tuple[int, int, int]] = []   # (index of the load change, index of its end, op)
        i = 0
        while i < len(changes):
            if ph.kind(changes[i][1]) == "load":
                j = i
                while j < len(changes) and ph.kind(changes[j][1]) != "idle":
                    j += 1
                commands.append((i, j, changes[i][2]))
                i = j
            i += 1
        mine = [c for c in commands if c[2] == self.target.opcode]
        if len(mine) != 1:
            raise AlignmentError(f"{len(mine)} engine commands {Op(self.target.opcode).name} in one operation (want 1)")
        i0, j0, _ = mine[0]
        if j0 >= len(changes):
            raise AlignmentError("the engine command did not end within the operation")
        kinds = [ph.kind(changes[k][1]) for k in range(i0, j0)]
        k1 = next(k for k, x in enumerate(kinds) if x != "load")
        k2 = next((k for k, x in enumerate(kinds) if x == "store"), None)
        if k2 is None or k2 <= k1 or any(x != "compute" for x in kinds[k1:k2]) or any(x != "store" for x in kinds[k2:]):
            raise AlignmentError("engine states not load, compute, store: "
                                 f"{[ph.name(changes[k][1]) for k in range(i0, j0)]}")
        first, compute_last = changes[i0 + k1][0], changes[i0 + k2][0] - 1
        store_last = changes[j0][0] - 1
        lay = Layout(changes[i0][0], first, compute_last, compute_last, store_last, self.completion["cycles"],
                     changes, ph)
        for c in sorted({first - 1, first, compute_last, compute_last + 1, store_last, store_last + 1}):
            lay.checkpoints.append((c, st.name, 0, lay.state_at(c)))
        self._ladder_end(lay)
        others = []
        for i, j, op in commands:
            if (i, j) != (i0, j0):
                end = changes[j][0] - 1 if j < len(changes) else lay.done
                name = Op(op).name if op in Op._value2member_map_ else str(op)
                others.append({"op": name, "cycles": [changes[i][0], end]})
        return lay, others

    def _ladder_end(self, lay: Layout) -> None:
        """The window ends with the ladder: after it the engine computes only the result from the
        ladder's last state (the output, fixed in the fixed set whatever the blinding: a^(E + r(p-1))
        = a^E, x(k G) whatever k + r n and Z). RSA_CRT's computation after its exponentiations
        (HSCM(S, U), final reductions, recombination) works on the blinded message's values, so its
        window is the whole computation."""
        eng, op = self.target.engine, self.target.opcode
        if (eng, op) == ("hscm", Op.MODEXP_CT):
            # the ladder runs on both HSCMs, one product each per step; HSCM 1's chain ends with the
            # ladder, HSCM 0 then converts R0 out of the Montgomery domain and reduces it
            rs = self.reg("rs_q")
            chain = enum_names("hscm", "rc_e").index("RC_CHAIN")
            seen = [(c, v[0]) for c, v in self.changes(rs) if lay.first <= c <= lay.compute_last]
            ends = [c for (c0, v0), (c, v) in zip(seen, seen[1:]) if v0[1] == chain and v[1] != chain]
            starts = [c for c, v in seen if v[1] == chain]
            if len(ends) != 1 or not starts:
                raise AlignmentError(f"hscm MODEXP_CT: HSCM 1's chain not found once ({seen})")
            lay.last = ends[0] - 1
            lay.checkpoints += [(lay.last, rs.name, 1, chain), (lay.last + 1, rs.name, 1, lay_value(seen, lay.last + 1, 1))]
            lay.ladder = {"rule": "HSCM 1's chain (rs_q[1] = RC_CHAIN) ends with the ladder's last step",
                          "ladder": [starts[0], lay.last],
                          "tail": "HSCM(R0, 1) out of the Montgomery domain on HSCM 0, final reduction"}
        elif (eng, op) == ("rns", Op.ECC_MUL):
            # the ladder is the microprogram's first loop: idx_q = elen - 1 down to 0, one ladder step
            # per value; the last step runs with idx_q = 0 and ends in the ENDLOOP that falls through
            idx = self.reg("idx_q")
            counts = [(c, v[0][0]) for c, v in self.changes(idx) if lay.first <= c <= lay.compute_last]
            if not counts:
                raise AlignmentError("rns ECC_MUL: no ladder loop (idx_q never changes)")
            top = counts[0][1]
            run = counts[:top + 1]
            if [v for _, v in run] != list(range(top, -1, -1)):
                raise AlignmentError(f"rns ECC_MUL: idx_q does not count the ladder down ({run[:5]} ...)")
            steps = [b[0] - a[0] for a, b in zip(run[1:], run[2:])]
            if len(set(steps)) != 1:
                raise AlignmentError(f"rns ECC_MUL: ladder steps of different lengths {sorted(set(steps))}")
            step = steps[0]
            c0 = run[-1][0]
            lay.last = c0 + step - 1
            if len(counts) > top + 1 and counts[top + 1][0] <= lay.last:
                raise AlignmentError("rns ECC_MUL: the loop after the ladder starts inside its last step")
            lay.checkpoints += [(c0 - 1, idx.name, 0, 1), (c0, idx.name, 0, 0)]
            lay.ladder = {"rule": "the microprogram's first loop (idx_q from elen - 1 down to 0) is the ladder",
                          "ladder": [run[0][0], lay.last], "steps": top + 1, "step_cycles": step,
                          "tail": "y recovery, the inversion by Fermat (public exponent p - 2), the affine "
                                  "x and y out of the Montgomery domain, the check on the curve"}
        else:
            lay.ladder = {"rule": "the whole computation (the exponentiations and the CRT recombination "
                                  "work on the blinded message)", "ladder": [lay.first, lay.last]}

    def trace(self, value: int, lay: Layout) -> Any:
        """One trace of the recorded span [load, store_last]; every checkpoint of the layout checked."""
        sim = self.sim
        points = sorted(lay.checkpoints)
        out: dict[str, Any] = {}
        bad: list[str] = []
        now = 0

        def goto(c: int) -> None:
            nonlocal now
            if c > now:
                sim.idle(c - now)
                now = c

        def check(upto: int) -> None:
            while points and points[0][0] <= upto:
                c, name, entry, want = points.pop(0)
                goto(c)
                got = sim.peek(name, entry)
                if got != want:
                    bad.append(f"cycle {c}: {name}[{entry}] = {got}, the reference run had {want}")

        def record() -> None:
            check(lay.load - 1)
            goto(lay.load - 1)
            sim.hd_on(self.scope)           # sample i: the edge into cycle load + i
            check(lay.store_last)
            goto(lay.store_last)
            sim.hd_off()
            out["samples"] = sim.hd_samples()
            check(1 << 62)

        self._reseed()
        self._run(value, record)
        if bad:
            raise AlignmentError("a trace is not aligned with the reference run (not constant time?): " + "; ".join(bad))
        if self._completion() != self.completion:
            raise AlignmentError(f"CYCLES/COMPUTE/IO {self._completion()} differ from the reference {self.completion}")
        samples = out["samples"]
        if len(samples) != lay.span:
            raise AlignmentError(f"a trace of {len(samples)} samples, expected {lay.span}")
        return samples

    def close(self) -> None:
        self.sim.close()


def lay_value(seen: list[tuple[int, list[int]]], cycle: int, entry: int) -> int:
    """The value of a register's entry at `cycle` from its (cycle, entries) changes."""
    v = seen[0][1][entry]
    for c, vals in seen:
        if c > cycle:
            break
        v = vals[entry]
    return v


def run_tvla(target: Target, traces: int, seed: int, blinding: bool,
             progress: Callable[[str], None] | None = None) -> Result:
    """`traces` fixed and `traces` random traces in a seeded random order; Welch's t per cycle."""
    import numpy as np

    if traces < 2:
        raise PkaError(Status.ERR_PARAM, "--traces must be at least 2 (per set)")
    t0 = time.monotonic()
    tv = Tvla(target, blinding, seed, progress)
    try:
        tv.warm_up()
        lay, others = tv.layout()
        elements, bits = tv.sim.hd_on(tv.scope)
        tv.sim.hd_off()
        tv.sim.hd_samples()
        # per set (fixed, random) two independent halves: a point over 4.5 in both is confirmed
        # (TVLA's repeated test); the full test merges them
        halves = [[Moments(lay.span), Moments(lay.span)] for _ in range(2)]
        count = [0, 0]
        order = [0] * traces + [1] * traces
        random.Random(f"tvla order {target.op} {seed}").shuffle(order)
        draw = random.Random(f"tvla values {target.op} {seed}")
        if progress:
            progress(f"window: cycles {lay.first}..{lay.last} of {lay.done} from the CMD write; "
                     f"{elements} elements, {bits:,} bits counted")
        shown = time.monotonic()
        w0, w1 = lay.first - lay.load, lay.last - lay.load + 1

        def full() -> tuple[Moments, Moments]:
            return halves[0][0].merged(halves[1][0]), halves[0][1].merged(halves[1][1])

        for i, s in enumerate(order):
            value = target.fixed if s == 0 else target.draw(draw)
            h = 0 if count[s] < (traces + 1) // 2 else 1
            count[s] += 1
            halves[h][s].add(tv.trace(value, lay))
            if progress and (time.monotonic() - shown > 30 or i + 1 == len(order)):
                shown = time.monotonic()
                part = ""
                f, r = full()
                if f.n > 1 and r.n > 1:
                    part = f", max |t| so far {float(np.max(np.abs(welch_t(f, r)[w0:w1]))):.2f}"
                rate = 60 * (i + 1) / (time.monotonic() - t0)
                progress(f"{i + 1}/{len(order)} traces ({rate:.0f}/min){part}")
        f, r = full()
        split = (welch_t(*halves[0]), welch_t(*halves[1])) if traces >= 4 else None
        res = Result(target.op, target.engine, target.size, dict(target.params), blinding, seed, traces, lay,
                     welch_t(f, r), tv.scope, elements, bits, target.info, tv.completion, others, degenerate(f, r),
                     split, (f.m2 == 0) & (r.m2 == 0))
    finally:
        tv.close()
    res.seconds = time.monotonic() - t0
    return res


def plot(res: Result, path: Path) -> Path:
    """t against the cycle over the recorded engine command, the excluded parts shaded, the +-4.5
    lines (matplotlib, Agg). Long traces are drawn as an envelope (min and max per bin)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    lay = res.layout
    t = res.t
    x0 = lay.load
    fig, ax = plt.subplots(figsize=(11, 4))
    if t.size > 20000:
        k = math.ceil(t.size / 8000)
        nb = math.ceil(t.size / k)
        pad = np.full(nb * k, np.nan)
        pad[:t.size] = t
        blocks = pad.reshape(nb, k)
        xs = x0 + np.arange(nb) * k + k / 2
        ax.fill_between(xs, np.nanmin(blocks, axis=1), np.nanmax(blocks, axis=1), color="tab:blue", lw=0.4,
                        step="mid")
    else:
        ax.plot(x0 + np.arange(t.size), t, lw=0.5, color="tab:blue")
    for y in (THRESHOLD, -THRESHOLD):
        ax.axhline(y, color="tab:red", lw=0.8, ls="--")
    for s in lay.segments():
        if s.name != "window":
            ax.axvspan(s.first - 0.5, s.last + 0.5, color="0.85", zorder=0)
    j = res.as_json()
    ax.set_xlim(lay.load, lay.store_last)
    ax.set_xlabel("cycle from the CMD write (grey: excluded: engine load, result, store; the window between)")
    ax.set_ylabel("Welch t")
    params = " ".join(f"{k}={v}" for k, v in res.params.items() if not (k in ("window", "ladder") and not v))
    ax.set_title(f"TVLA {res.op} on {res.engine} ({res.size}, {params}), blinding {'on' if res.blinding else 'off'}: "
                 f"{res.traces} fixed + {res.traces} random traces; window max |t| {j['max_abs_t']:.2f}, "
                 f"{j['cycles_over_4_5']} cycles over 4.5", fontsize=9)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def tvla(op: str, engine: str, traces: int, seed: int, blinding: bool, bits: int | None = None,
         curve: str | None = None, params: dict[str, Any] | None = None, png: Path | None = None,
         progress: Callable[[str], None] | None = None) -> Result:
    """The assessment of `pka tvla`: the partition of `op`, `traces` per set; writes the PNG if asked."""
    target = make_target(op, engine, seed, blinding, bits, curve, params)
    res = run_tvla(target, traces, seed, blinding, progress)
    if png is not None:
        res.png = str(plot(res, png))
    return res
