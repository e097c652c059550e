"""The engine registry: names, papers, parameters and where each engine's model and RTL driver live.

Every engine exposes the same Python surface (see doc/architecture.md, "One boundary"):

  model module  pka.model.<engine>:   modexp(base, exp, mod, params) -> OpResult
                                      modmul(a, b, mod, params)      -> OpResult
  RTL driver    pka.rtl.<engine>:     the same two functions, running the Verilated engine

`params` is the dict returned by `parse_params`, already checked against the engine's spec, so an
engine never sees an unknown or illegal parameter.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Union

from pka.errors import PkaError, Status

Value = Union[int, str]


@dataclass(frozen=True)
class Param:
    name: str
    default: Value
    choices: tuple[Value, ...] | None = None  # legal values, or None for a range
    lo: int | None = None  # inclusive range for ints without choices
    hi: int | None = None
    help: str = ""

    def parse(self, text: str) -> Value:
        value: Value
        if isinstance(self.default, int):
            try:
                value = int(text, 0)
            except ValueError:
                raise PkaError(Status.ERR_PARAM, f"parameter {self.name}: not an integer: {text!r}") from None
        else:
            value = text
        self.check(value)
        return value

    def check(self, value: Value) -> None:
        if self.choices is not None and value not in self.choices:
            legal = ", ".join(str(c) for c in self.choices)
            raise PkaError(Status.ERR_PARAM, f"parameter {self.name}={value} not supported (legal: {legal})")
        if isinstance(value, int):
            if self.lo is not None and value < self.lo:
                raise PkaError(Status.ERR_PARAM, f"parameter {self.name}={value} below {self.lo}")
            if self.hi is not None and value > self.hi:
                raise PkaError(Status.ERR_PARAM, f"parameter {self.name}={value} above {self.hi}")


@dataclass(frozen=True)
class Engine:
    name: str
    paper: str
    title: str
    params: tuple[Param, ...]

    def _load(self, layer: str) -> ModuleType:
        name = f"pka.{layer}.{self.name}"
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                raise PkaError(Status.ERR_UNSUPPORTED, f"engine {self.name} has no {layer} backend yet") from None
            raise

    def model(self) -> ModuleType:
        return self._load("model")

    def rtl(self) -> ModuleType:
        return self._load("rtl")

    def backend(self, backend: str) -> ModuleType:
        if backend == "model":
            return self.model()
        if backend == "rtl":
            return self.rtl()
        raise PkaError(Status.ERR_PARAM, f"unknown backend {backend!r} (model|rtl)")

    def defaults(self) -> dict[str, Value]:
        return {p.name: p.default for p in self.params}


ENGINES: dict[str, Engine] = {
    e.name: e
    for e in (
        Engine(
            "csa2", "000", "carry-save radix-2 bit-slice Montgomery (Cilardo et al.)",
            (
                Param("variant", "paper", ("paper", "fast"), help="paper cycle schedule, or the faster CPA"),
                Param("l", 0, lo=0, hi=4096, help="RTL array size L (max modulus bits); 0 = smallest power of two >= K"),
            ),
        ),
        Engine(
            "mwr4", "001", "scalable multiple-word radix-4 Montgomery, MWR4MM (Ibrahim et al.)",
            (
                Param("radix", 4, (2, 4, 8), help="radix 2^k"),
                Param("ns", 8, lo=1, hi=64, help="number of pipeline stages (PEs)"),
                Param("w", 16, (4, 8, 16, 32), help="word size in bits"),
            ),
        ),
        Engine(
            "rns", "002", "RNS Montgomery on a Cox-Rower, and SBMM (Bigou, Tisserand)",
            (
                Param("w", 32, (16, 32), help="channel width in bits"),
                Param("alg", "mm", ("mm", "sbmm"), help="classical RNS Montgomery, or single-base SBMM"),
            ),
        ),
        Engine(
            "victor", "003", "VICTOR radix-2^k with quotient estimation (Orup et al.)",
            (
                Param("k", 5, (3, 4, 5), help="scan factor: radix 2^k"),
                Param("delta", 10, lo=4, hi=32, help="top bits of S used by the quotient estimator (legal with k, eps: see doc/victor.md)"),
                Param("eps", 11, lo=4, hi=32, help="bits of 1/N used by the quotient estimator"),
            ),
        ),
        Engine(
            "hscm", "004", "quotient-pipelined high-radix scalable Montgomery, HSCM (Wu, Li, Liu)",
            (
                Param("pes", 16, lo=1, hi=128, help="number of processing elements L"),
                Param("w", 16, (16, 32, 64), help="PE word size w (bits of each multiplier input)"),
                Param("k", 0, (0, 16, 32, 64), help="digit size k: 0 = w, or 2w (each k-bit digit is two passes of the w-bit PEs)"),
                Param("window", 0, lo=0, hi=8, help="window (digit) size of Algorithm A1 with odd powers; 0 = left-to-right binary"),
                Param("ladder", 0, (0, 1), help="1 = Montgomery ladder on two HSCMs (constant time)"),
            ),
        ),
    )
}


def get_engine(name: str) -> Engine:
    try:
        return ENGINES[name]
    except KeyError:
        raise PkaError(Status.ERR_PARAM, f"unknown engine {name!r} ({', '.join(ENGINES)})") from None


def parse_params(engine: Engine, items: list[str] | tuple[str, ...]) -> dict[str, Value]:
    """NAME=VALUE strings -> a complete, checked parameter dict (defaults filled in)."""
    specs = {p.name: p for p in engine.params}
    out = engine.defaults()
    for item in items:
        name, sep, text = item.partition("=")
        if not sep:
            raise PkaError(Status.ERR_PARAM, f"parameter {item!r} is not NAME=VALUE")
        if name not in specs:
            raise PkaError(Status.ERR_PARAM, f"engine {engine.name} has no parameter {name!r} ({', '.join(specs)})")
        out[name] = specs[name].parse(text)
    return out


def check_params(engine: Engine, params: dict[str, Value]) -> dict[str, Value]:
    """Fill defaults into a dict given from Python and check every value."""
    specs = {p.name: p for p in engine.params}
    out = engine.defaults()
    for name, value in params.items():
        if name not in specs:
            raise PkaError(Status.ERR_PARAM, f"engine {engine.name} has no parameter {name!r}")
        specs[name].check(value)
        out[name] = value
    return out
