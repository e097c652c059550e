"""pka_top in simulation: the generated artefacts of the register map, and the Verilator build of
the top with its own C++ harness (tb/pka_top/top_harness.cpp), which drives the AXI4-Lite port.

    python -m pka.rtl.top gen      # regenerate rtl/top/gen/, sw/pka_regs.h, pka_pkg's definitions, pka.regs,
                                   # sw/pka_defs.h and doc/top.md's tables from data/pka.rdl
    python -m pka.rtl.top html     # the HTML register reference in build/doc/regs/

The driver on top of this (operations, operands, status codes) is `pka.driver`.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from pka.regs import Engine
from pka.sim import HARNESS_H, REPO, Design, SimProcess, SimTimeout, fileset, param_defaults
from pka.sim import build as sim_build

log = logging.getLogger("pka.top")

RDL = REPO / "data" / "pka.rdl"
GEN_DIR = REPO / "rtl" / "top" / "gen"
HEADER = REPO / "sw" / "pka_regs.h"
HTML_DIR = REPO / "build" / "doc" / "regs"   # generated on demand (`python -m pka.rtl.top html`), not committed
TOP_HARNESS = REPO / "tb" / "pka_top" / "top_harness.cpp"
SW_DIR = REPO / "sw"
# the C driver and example, compiled into the harness (as C++) for its `sw` verb
SW_SOURCES = [SW_DIR / "pka.c", SW_DIR / "example.c"]

# ---- generated artefacts --------------------------------------------------------------------------


def _peakrdl() -> str:
    exe = Path(sys.executable).parent / "peakrdl"
    return str(exe) if exe.exists() else "peakrdl"


def gen_regblock(out: Path) -> None:
    """PeakRDL regblock: AXI4-Lite (flat ports), asynchronous active-low reset, SLVERR on holes."""
    subprocess.run([_peakrdl(), "regblock", str(RDL), "-o", str(out), "--cpuif", "axi4-lite-flat",
                    "--default-reset", "arst_n", "--err-if-bad-addr"], check=True, capture_output=True, text=True)


def gen_header(out: Path) -> None:
    subprocess.run([_peakrdl(), "c-header", str(RDL), "-o", str(out)], check=True, capture_output=True, text=True)


def gen_html(out: Path) -> None:
    subprocess.run([_peakrdl(), "html", str(RDL), "-o", str(out), "--title", "pka registers"],
                   check=True, capture_output=True, text=True)


def gen_html_doc() -> Path:
    """The HTML register reference (peakrdl-html) in build/doc/regs/: a build artefact, not committed."""
    if HTML_DIR.exists():
        shutil.rmtree(HTML_DIR)
    HTML_DIR.parent.mkdir(parents=True, exist_ok=True)
    gen_html(HTML_DIR)
    return HTML_DIR / "index.html"


def gen_all() -> None:
    """Every committed artefact of data/pka.rdl: the register block, the C header, the interface
    definitions (pka_pkg's generated region, pka.regs, sw/pka_defs.h, doc/top.md's tables) and the
    FuseSoC cores."""
    from pka.rtl import defs

    GEN_DIR.mkdir(parents=True, exist_ok=True)
    gen_regblock(GEN_DIR)
    HEADER.parent.mkdir(parents=True, exist_ok=True)
    gen_header(HEADER)
    defs.write_all()
    gen_cores()


# ---- builds of the top ------------------------------------------------------------------------------

# Engines a top build can hold: name -> (pka_top_pkg engine id, pka_top enable parameter).
ENGINE_IDS = {e.name.lower(): int(e) for e in Engine if e != Engine.AUTO}
TOP_ENGINES = ("example", "csa2", "mwr4", "victor", "rns", "hscm")   # engines pka_top can instantiate (an En<Name> parameter each)
TOP_FILES = ["rtl/common/pka_pkg.sv", "rtl/top/pka_top_pkg.sv", "rtl/top/gen/pka_regs_pkg.sv",
             "rtl/top/gen/pka_regs.sv", "rtl/top/pka_top_ram.sv", "rtl/top/pka_top_seq.sv"]
MAX_LENS = (256, 512, 1024, 2048, 4096)
PHYS_SLOTS = 32   # pka_top_pkg::PhysSlots: the RAM's slots (17 bus windows, the rest internal)   # the builds the driver picks from (smallest >= operand)


def engine_sources(name: str) -> list[Path]:
    """An engine's sources without pka_pkg (the top lists it once)."""
    srcs = fileset(name) if name != "example" else [REPO / "tb" / "common" / "pka_example_engine.sv"]
    return [s for s in srcs if s.name != "pka_pkg.sv"]


@dataclass(frozen=True)
class TopConfig:
    """One build of pka_top: the maximum length, the engines and the engines' RTL parameters."""

    max_len: int = 256
    engines: tuple[str, ...] = ("example",)
    params: tuple[tuple[str, int], ...] = ()   # extra pka_top parameters (engine configuration)

    def verilog_params(self) -> dict[str, int]:
        p: dict[str, int] = {"MaxLen": self.max_len}
        for name in self.engines:
            if name not in TOP_ENGINES:
                raise ValueError(f"pka_top cannot hold engine {name!r} (yet): {', '.join(TOP_ENGINES)}")
        for name in TOP_ENGINES:
            p["En" + name.capitalize()] = int(name in self.engines)
        p.update(dict(self.params))
        return p

    def sources(self) -> list[Path]:
        srcs = [REPO / f for f in TOP_FILES]
        for name in self.engines:
            srcs += engine_sources(name)
        return srcs + [REPO / "rtl" / "top" / "pka_top.sv"]

    @property
    def slot_words(self) -> int:
        return 1 << max(0, (self.max_len // 32 - 1).bit_length())


def design(cfg: TopConfig, harness: Sequence[Path] | None = None, name: str = "pka_top") -> Design:
    """pka_top with our AXI4-Lite harness (and the C driver compiled in for its `sw` verb)."""
    return Design("pka_top", cfg.sources(), cfg.verilog_params(),
                  harness=list(harness or [TOP_HARNESS] + SW_SOURCES),
                  key_files=[TOP_HARNESS.parent / "top_axil.h", SW_DIR / "pka.h", SW_DIR / "pka_regs.h", SW_DIR / "pka_defs.h"],
                  cflags=[f"-I{TOP_HARNESS.parent}", f"-I{SW_DIR}"], name=name)


def build(cfg: TopConfig, trace: bool = False, harness: Sequence[Path] | None = None,
          name: str = "pka_top") -> Path:
    """Verilate pka_top (cached by pka.sim.build); returns the executable."""
    log.info("pka_top %s %s", cfg.engines, cfg.verilog_params())
    return sim_build(design(cfg, harness, name), trace=trace)


@dataclass(frozen=True)
class FuzzResult:
    reads: int
    writes: int
    errors: int
    commands: int
    max_latency: int


class TopSim(SimProcess):
    """A running pka_top simulation, spoken to through its AXI4-Lite port (one process)."""

    def __init__(self, cfg: TopConfig, trace_vcd: str | Path | None = None) -> None:
        self.cfg = cfg
        super().__init__(build(cfg, trace=trace_vcd is not None), trace_vcd)
        self.bus_cycles = 0   # cycles spent in bus transactions since the start

    def __enter__(self) -> "TopSim":
        return self

    def _ask(self, line: str) -> list[str]:  # type: ignore[override]
        return super()._ask(line).split()

    # -- bus ------------------------------------------------------------------------------------
    def write32(self, addr: int, value: int, strb: int = 0xF) -> int:
        """One AXI4-Lite write; returns BRESP."""
        parts = self._ask(f"wr {addr:x} {value & 0xFFFFFFFF:x} {strb:x}")
        self.bus_cycles += int(parts[2])
        return int(parts[1])

    def read32(self, addr: int) -> int:
        parts = self._ask(f"rd {addr:x}")
        self.bus_cycles += int(parts[3])
        if int(parts[2]) != 0:
            raise RuntimeError(f"SLVERR reading {addr:#x}")
        return int(parts[1], 16)

    def read32_resp(self, addr: int) -> tuple[int, int]:
        parts = self._ask(f"rd {addr:x}")
        self.bus_cycles += int(parts[3])
        return int(parts[1], 16), int(parts[2])

    def write_words(self, addr: int, words: Sequence[int]) -> int:
        """Consecutive 32-bit writes from addr; returns the bus cycles they took."""
        total = 0
        for i in range(0, len(words), 128):
            chunk = words[i:i + 128]
            parts = self._ask(f"wrn {addr + 4 * i:x} " + " ".join(f"{w & 0xFFFFFFFF:x}" for w in chunk))
            if int(parts[2]):
                raise RuntimeError(f"SLVERR writing at {addr + 4 * i:#x}")
            total += int(parts[1])
        self.bus_cycles += total
        return total

    def read_words(self, addr: int, n: int) -> list[int]:
        out: list[int] = []
        for i in range(0, n, 128):
            k = min(128, n - i)
            parts = self._ask(f"rdn {addr + 4 * i:x} {k}")
            self.bus_cycles += int(parts[1])
            if int(parts[2]):
                raise RuntimeError(f"SLVERR reading at {addr + 4 * i:#x}")
            out += [int(p, 16) for p in parts[3:]]
        return out

    def wait_irq(self, max_cycles: int, progress: Callable[[int], None] | None = None,
                 progress_every: int = 1 << 18) -> int:
        """Clock until irq_o; returns the cycles waited. Raises SimTimeout."""
        if progress is not None:
            self._ask(f"progress {progress_every}")
        self._send(f"wait {max_cycles}")
        parts = self._until(progress)
        if progress is not None:
            self._ask("progress 0")
        if parts[0] != "irq":
            raise SimTimeout(f"pka_top: no interrupt within {parts[1]} cycles")
        return int(parts[1])

    def idle(self, n: int) -> None:
        self._ask(f"idle {n}")

    def reset(self) -> None:
        self._ask("reset")

    def delay(self, permille: int, seed: int = 1) -> None:
        """Random valid/ready holdback on the master side (bus back-pressure)."""
        self._ask(f"delay {permille} {seed}")

    def sw_example(self, r_bits: int = 0) -> tuple[int, int, list[str]]:
        """Run the C example (sw/example.c) in the harness: (return code, bus cycles, its lines)."""
        self._send(f"sw {r_bits}")
        lines: list[str] = []
        while True:
            line = self._recv()
            if line.startswith("sw "):
                _, rc, cyc = line.split()
                return int(rc), int(cyc), lines
            lines.append(line)

    def cycles(self) -> int:
        return int(self._ask("cycles")[1])

    def entropy(self, seed: int, delay_permille: int = 0) -> None:
        """Seed the harness's entropy source (the EDN-like port that feeds blinding); words are
        acknowledged at once or held back with probability delay_permille/1000."""
        self._ask(f"entropy {seed & (2**64 - 1)} {delay_permille}")

    def entropy_words(self) -> int:
        return int(self._ask("entropy_words")[1])

    def fuzz(self, n: int, seed: int, watchdog: int) -> FuzzResult:
        parts = self._ask(f"fuzz {n} {seed} {watchdog}")
        if parts[0] == "hang":
            raise SimTimeout(f"pka_top: bus transaction {parts[1]} of the fuzz run hung (watchdog {watchdog})")
        return FuzzResult(*(int(p) for p in parts[1:6]))


# ---- the sequencer's cycle model ------------------------------------------------------------------

# pka_top_seq's FnMac (dst = s0 + s1 r + carry, r of 64 bits): cycles per word (reads of s1 and s0,
# the two 32 x 32-bit products from registers, the write; doc/top.md)
FNMAC_CYCLES = 4


def seq_cycles(op: int, bits: int, n: int = 0, r: int = 0, fix: bool = False,
               mem_words: int = 0, wipe_cycles: int = 0) -> tuple[int, int]:
    """(COMPUTE, CYCLES) of an operation the sequencer runs itself (rtl/top/pka_top_seq.sv).

    W = ceil(bits/32). CYCLES counts from the cycle after the CMD write to done: one decode cycle,
    one cycle per step of the micro-program, the passes, and the done cycle.
      NOP          (0, 3)
      ZEROIZE      (M, M + 12 + wipes)               M = RAM words (PHYS_SLOTS slots), wipes = the
                   cycles of the engine wipes (per engine: its command cycle + its wipe to done);
                   the 12: decode, two steps, one step per engine id 1..7, the last step, done
      MODADD/SUB   (8W, 8W + 5)                      two passes of 4 cycles per word
      MONT_PARAMS  (3W + 63 + 3Wk [+3W], 3W + 3Wk + k + 69 [+3W+1])   k = 2r - b + 1, b = bits of N,
                   [..] when the last doubling leaves x < 0 (`fix`)
    """
    w = max(1, (bits + 31) // 32)
    if op == 0:
        return 0, 3
    if op == 15:
        return mem_words, mem_words + 12 + wipe_cycles
    if op in (8, 9):
        return 8 * w, 8 * w + 5
    if op == 13:
        k = 2 * r - n.bit_length() + 1
        compute = 3 * w + 63 + 3 * w * k + (3 * w if fix else 0)
        wall = 3 * w + 3 * w * k + k + 69 + (3 * w + 1 if fix else 0)
        return compute, wall
    raise ValueError(f"opcode {op} is not run by the sequencer alone")


def hscm_r(bits: int, w: int) -> int:
    """hscm's Montgomery exponent r = k ceil((n + 2k + 2)/k) (pka_top_seq's hscm_r, k = w)."""
    return w * -(-(bits + 2 * w + 2) // w)


def mont_internal(mod: int, bits: int, r: int) -> int:
    """COMPUTE cycles of the sequencer's MONT program called from another program: no MU (63 fewer),
    and the final +N pass always runs (it writes x back when x >= 0), so the count does not depend
    on the (secret) modulus."""
    return seq_cycles(13, bits, n=mod, r=r, fix=True)[0] - 63


def crt_compute(m: int, key: "object", params: dict[str, object], key_setup: bool, n_setup: bool,
                blind: bool = False, blind_setup: bool = False) -> int:
    """COMPUTE of RSA_CRT through pka_top (pka_top_seq's KCrt, KBlk and KSign programs), from the hscm
    model. key_setup (the first signature with a key): R_p mod p, R_p^2 mod p by the sequencer, R_p^3
    by the engine's MODMUL, the same for q, p mod q by MODRED (after zeroing its A_HI: W_q cycles),
    q - 2 (2 W_q), p^-1 mod q by MODEXP_CT; n_setup (a new N): R_N^2 mod N by the sequencer.
    blind_setup (the first blinded signature with a key): u (W_n words from the entropy port, the
    last zero), p - 2 and q - 2 (2 W each), u^-1 mod N by the engine's RSA_CRT with those exponents,
    u^e mod N by MODEXP, a copy (2 W_n). Every signature: unblinded, the engine's RSA_CRT; blinded,
    m u^e (MODMUL), dp + r (p - 1) and dq + r (q - 1) (FnMac, FNMAC_CYCLES a word, W + 3 words each), the
    engine's RSA_CRT with 64 more exponent bits, s' u^-1 (MODMUL), both factors squared (MODMUL and
    a copy of 2 W_n each); then the check s^e mod N by MODEXP (binary) and the compare (3 W_n). The
    engine cycles of these operations do not depend on the values (constant time), only on lengths."""
    from pka.model import hscm
    from pka.model.common import CrtKey
    assert isinstance(key, CrtKey)
    w = int(params.get("w", 16))  # type: ignore[call-overload]
    prm = dict(params, ladder=0)
    total = 0
    bp, bq, bn = key.p.bit_length(), key.q.bit_length(), key.n.bit_length()
    wp, wq, wn = -(-bp // 32), -(-bq // 32), -(-bn // 32)

    def modmul_n() -> int:
        return int(hscm.modmul(m % key.n, (m + 1) % key.n, key.n, prm).detail["total_cycles"])

    if key_setup:
        for prime, bits in ((key.p, bp), (key.q, bq)):
            r = hscm_r(bits, w)
            total += mont_internal(prime, bits, r // 2) + mont_internal(prime, bits, r)
            rr = (1 << r) % prime
            total += int(hscm.modmul(rr * rr % prime, rr, prime, prm).detail["total_cycles"])
        total += wq + int(hscm.modred(key.p, key.q, prm).cycles or 0) + 2 * wq
        total += int(hscm.modexp(key.p % key.q, key.q - 2, key.q, dict(prm, ladder=1)).cycles or 0)
    if n_setup:
        total += mont_internal(key.n, bn, hscm_r(bn, w))
    s = pow(m, key.d, key.n)
    if blind and blind_setup:
        u = 3
        inv = CrtKey(key.n, key.e, key.d, key.p, key.q, key.p - 2, key.q - 2, key.qinv, key.pinv)
        total += wn + 2 * wp + 2 * wq + int(hscm.rsa_crt(u, inv, dict(params, window=0)).cycles or 0)
        total += int(hscm.modexp(u, key.e, key.n, dict(prm, window=0)).cycles or 0) + 2 * wn
    if blind:
        total += 4 * modmul_n() + FNMAC_CYCLES * (wp + 3 + wq + 3) + 2 * (2 * wn)
        total += int(hscm.rsa_crt(m, key, params, xbits=64).cycles or 0)
    else:
        total += int(hscm.rsa_crt(m, key, params).cycles or 0)
    total += int(hscm.modexp(s, key.e, key.n, dict(prm, window=0)).cycles or 0)
    return total + 3 * wn


def ecc_compute(curve: str, w: int, blind: bool, order_given: bool = True, checked: bool = True) -> int:
    """COMPUTE of ECC_MUL on rns through pka_top (pka_top_seq's KEcc program): blinded, the random Z
    (2n words from the entropy port, one cycle each) and, with the order given (A_HI), the scalar
    k + r n with r of the curve's length (pka.model.rns.blind_bits, the driver's ARG[5:4]): one
    FnMac round per 64 bits of r, each FNMAC_CYCLES a word over W + 2 rounds + 1 words of the scalar,
    and that many more ladder steps; then the engine's count (pka.model.rns.ecc_cycles). The scan
    of A_HI and the entropy fetches of r are overhead."""
    from pka.model import rns
    c = rns.CURVES[curve]
    elen = c.order.bit_length()
    if not blind:
        return rns.ecc_cycles(curve, w, elen, checked, False)
    zwords = 2 * rns.channels_mm(c.p.bit_length(), w)
    r_bits = rns.blind_bits(c) if order_given else 0
    rounds = r_bits // 64
    extra = rounds * FNMAC_CYCLES * (-(-elen // 32) + 2 * rounds + 1)
    return zwords + extra + rns.ecc_cycles(curve, w, elen + r_bits, checked, True)


ECDSA_HSCM = {"pes": 8, "w": 32}    # the hscm of ecdsa_config's builds (bench/ecdsa.py, pka ecdsa sign --backend rtl)


def ecdsa_config(bits: int, hscm: dict[str, int] | None = None, rns_w: int = 32) -> TopConfig:
    """A build that serves ECDSA_SIGN for a curve of `bits` bits: rns (MM, w-bit channels) and hscm
    (ECDSA_HSCM unless `hscm` says otherwise: 8 PEs of w = 32. k^(n-2) mod n and the products of s
    are chains of dependent products, bound by latency, not by PEs: at 256 bits k^(n-2) takes 8,750
    cycles on 8 PEs of 32 bits, as on 16 of 32, against 13,790 on 16 PEs of 16 bits), MaxLen the smallest power of two >= bits (at least 256),
    the slots wide enough for rns's constant table (pka.driver's rules for each engine)."""
    from pka.driver import _hscm_top, _rns_top
    size = max(256, 1 << (bits - 1).bit_length())
    hs = _hscm_top(dict(hscm or ECDSA_HSCM), size)
    rn = _rns_top({"w": rns_w}, size)
    params = dict(hs, RnsW=rn["RnsW"], MinSlotAw=max(hs["MinSlotAw"], rn["MinSlotAw"]))
    return TopConfig(max_len=size, engines=("hscm", "rns"), params=tuple(sorted(params.items())))


def hscm_rns_config(bits: int = 512, pes: int = 2, curve_bits: int = 256) -> TopConfig:
    """hscm and rns in one pka_top, the build an SoC needs (soc/run.py, the ULX3S board): hscm (w = 16,
    `pes` PEs) as pka.driver's hscm profile builds it for `bits`-bit operands, rns (w = 32) built for
    `curve_bits`-bit curves (RnsMaxLen: 9 rowers and P-256's constant table at 256, whatever hscm's
    MaxLen), as pka.driver's rns profile builds it."""
    from pka.driver import profile

    hp, rp = profile("hscm"), profile("rns")
    max_len = max(hp.max_len({"pes": pes}, bits), rp.max_len({}, curve_bits))
    hparams = hp.top_params({"pes": pes}, bits)
    rparams = rp.top_params({}, curve_bits)
    params = {**hparams, **rparams, "MinSlotAw": max(hparams["MinSlotAw"], rparams["MinSlotAw"])}
    if max_len > curve_bits:
        params["RnsMaxLen"] = curve_bits
    return TopConfig(max_len=max_len, engines=("hscm", "rns"), params=tuple(sorted(params.items())))


def engine_config(engine: str, params: dict[str, Any], bits: int,
                  extra: Sequence[tuple[str, int]] = ()) -> TopConfig:
    """pka_top holding `engine` alone, as pka.driver.session builds it for `bits`-bit operands, plus
    extra pka_top parameters."""
    from pka.driver import profile

    prof = profile(engine)
    tp = dict(prof.top_params(params, bits))
    tp.update(dict(extra))
    return TopConfig(max_len=prof.max_len(params, bits), engines=(engine,), params=tuple(sorted(tp.items())))


INV_WINDOW = 4                      # pka_top_seq's InvWindow: hscm's MODEXP window for k^(n-2)


def ecdsa_compute(curve: str, w: int, hscm_params: dict[str, object], blind: bool, w_setup: bool,
                  given_k: bool = False) -> int:
    """COMPUTE of ECDSA_SIGN through pka_top (pka_top_seq's KEcd and KEcs programs), W = ceil(bits/32)
    words, c = rns channels per base, Wc = ceil(c w / 32) + 1 words of the CRT's sums:
    the checks 0 < d < n (3 W) and h < n (4 W); when A_HI changed since the last (w_setup), W_n =
    R^2 mod n by the sequencer (its internal MONT program, R = 2^r, r = hscm's); the nonce (W words
    from the entropy port, one cycle each; a given nonce: its copy from SLOT_P, 2 W), k < n? (3 W),
    n - 2 (2 W), k^(n-2) mod n by hscm's MODEXP (window 4); k G by KEcc (ecc_compute: blinded or not); x from the B' half: P = 1, A = 0 (Wc each),
    per channel two loads of m'_j and one of xi'_j (2 cycles each) and three MAC passes (FNMAC_CYCLES
    Wc each), alpha M' (FNMAC_CYCLES Wc), A - alpha M' (4 Wc), x' mod p (two passes of 4 (W + 1)),
    all of it twice, the first x copied (2 W) and compared with the second (3 W); mod n (two passes
    of 4 W), r != 0 (3 W);
    t = r d, s = k^-1 (h + t), t2 = r d again and k s by hscm's MODMUL (4 products), h + t and
    h + t2 (8 W each), s != 0 (3 W), k s == h + t2 (3 W), d's check word again (3 W). The clears of R
    and R_HI and the copies of r and s are overhead.
    Every count depends on lengths only (k < n at the first draw: a redraw has probability < 2^-32
    on the curves here)."""
    return sum(ecdsa_parts(curve, w, hscm_params, blind, w_setup, given_k).values())


def ecdsa_parts(curve: str, w: int, hscm_params: dict[str, object], blind: bool, w_setup: bool,
                given_k: bool = False) -> dict[str, int]:
    """ecdsa_compute's terms: "ladder" (k G, ecc_compute), "inverse" (hscm's MODEXP, window 4),
    "w_setup" (the MONT program, 0 when W_n is kept), "conversion" (one RNS -> binary conversion of x
    with x mod p), "checks" (what the fault checks add: the second conversion, the copy and compare
    of x, r d again with h + r d, d's check word), "rest" (everything else: the checks of the inputs,
    the nonce, r mod n, t, u, s, k s, the compares)."""
    from pka.model import hscm, rns
    c = rns.CURVES[curve]
    bits = c.p.bit_length()
    nw = -(-bits // 32)
    ch = rns.channels_mm(bits, w)
    wc = -(-ch * w // 32) + 1
    prm = dict(hscm_params, window=0, ladder=0)
    hw = int(prm.get("w", 16))  # type: ignore[call-overload]
    n = c.order
    mul = int(hscm.modmul(2, 3, n, prm).detail["total_cycles"])
    mac = FNMAC_CYCLES * wc                # one FnMac pass over the CRT's Wc words
    conversion = 6 * wc + mac + ch * (6 + 3 * mac) + 8 * nw + 8
    checks = conversion + 2 * nw + 3 * nw + mul + 8 * nw + 3 * nw
    parts = {
        "ladder": ecc_compute(curve, w, blind),
        "inverse": int(hscm.modexp(2, n - 2, n, dict(prm, window=INV_WINDOW)).cycles or 0),
        "w_setup": mont_internal(n, bits, hscm_r(bits, hw)) if w_setup else 0,
        "conversion": conversion,
        "checks": checks,
    }
    # 70 W + 16 + 2 (10 Wc + c (6 + 12 Wc)) [+ W] + 4 MODMULs in all (doc/top.md)
    parts["rest"] = (70 * nw + 16 + 2 * (6 * wc + mac + ch * (6 + 3 * mac)) + (nw if given_k else 0) + 4 * mul
                     - conversion - checks)
    return parts


# ---- FuseSoC cores -------------------------------------------------------------------------------

CORE_VERSION = "0.1.0"
YOSYS_TEMPLATE = REPO / "rtl" / "top" / "syn" / "pka_yosys_slang.tcl"


def _fset(path: Path) -> tuple[str, list[Path], list[dict[str, int]]]:
    """(top, sources, lint configurations) of a .f fileset."""
    import re
    text = path.read_text()
    top = re.search(r"//\s*top:\s*(\S+)", text)
    assert top, path
    params = [dict((kv.split("=")[0], int(kv.split("=")[1], 0)) for kv in m.split())
              for m in re.findall(r"//\s*lint-params:\s*(.*)", text)] or [{}]
    srcs = [REPO / line.split("//", 1)[0].strip() for line in text.splitlines() if line.split("//", 1)[0].strip()]
    return top.group(1), srcs, params


_CORE_ABS = False   # core_files(absolute=True): absolute file names (cores rendered elsewhere)


def _rel(f: Path, base: Path) -> str:
    return str(f) if _CORE_ABS else os.path.relpath(f, base)


def _core(name: str, desc: str, base: Path, files: list[Path], depends: list[str], top: str,
          params: dict[str, int], sim_files: list[tuple[str, str]], sim_cflags: list[str],
          test_files: Sequence[Path] = ()) -> str:
    """A core: fileset rtl (files, depends), waivers, sim (the C++ harness, and `test_files`: RTL that
    only tests build, in its own fileset `test_rtl` of the sim target), syn; targets lint, sim, syn."""
    rel = [_rel(f, base) for f in files]
    waivers = _rel(REPO / "lint" / "verilator_waivers.vlt", base)
    tmpl = _rel(YOSYS_TEMPLATE, base)
    lines = ["CAPI=2:", f"# generated by `python -m pka.rtl.top gen` from the fileset; do not edit",
             f"name: {name}:{CORE_VERSION}", f"description: \"{desc}\"", "", "filesets:", "  rtl:"]
    if depends:
        lines += ["    depend:"] + [f"      - {d}" for d in depends]
    if rel:
        lines += ["    files:"] + [f"      - {r}" for r in rel] + ["    file_type: systemVerilogSource"]
    lines += ["  waivers:", "    files:", f"      - {waivers}", "    file_type: vlt"]
    if test_files:
        lines += ["  test_rtl:", "    files:"] + [f"      - {_rel(f, base)}" for f in test_files]
        lines += ["    file_type: systemVerilogSource"]
    if sim_files:
        lines += ["  sim:", "    files:"]
        lines += [f"      - {f}: {{file_type: {t}}}" for f, t in sim_files]
    lines += ["  syn:", "    files:", f"      - {tmpl}: {{file_type: user, copyto: pka_yosys_slang.tcl}}"]
    if params:
        lines += ["", "parameters:"]
    for k, v in params.items():
        lines += [f"  {k}:", "    datatype: int", "    paramtype: vlogparam", f"    default: {v}"]
    plist = "[" + ", ".join(params) + "]"
    if not params:
        return "\n".join(lines + ["", "targets:", "  default:", "    filesets: [rtl]", ""])
    lines += ["", "targets:",
              "  default: &default",
              "    filesets: [rtl]",
              f"    toplevel: {top}",
              "  lint:",
              "    <<: *default",
              "    description: verilator --lint-only -Wall with the project's waivers",
              "    filesets: [rtl, waivers]",
              "    default_tool: verilator",
              f"    parameters: {plist}",
              "    tools:",
              "      verilator:",
              "        mode: lint-only",
              "        verilator_options: [-Wall]"]
    if sim_files:
        lines += ["  sim:",
                  "    <<: *default",
                  "    description: Verilator build with the project's C++ harness (line protocol on stdin/stdout)",
                  f"    filesets: [rtl{', test_rtl' if test_files else ''}, sim]",
                  "    default_tool: verilator",
                  f"    parameters: {plist}",
                  "    tools:",
                  "      verilator:",
                  "        mode: cc",
                  "        verilator_options: [--prefix, Vtop, -Wno-fatal, -Wno-lint, -Wno-style"
                  + "".join(f", -CFLAGS, {c}" for c in sim_cflags) + "]"]
    lines += ["  syn:",
              "    <<: *default",
              "    description: Yosys (native, with TCL and the yosys-slang plugin) for ECP5; see doc/top.md",
              "    filesets: [rtl, syn]",
              "    default_tool: yosys",
              f"    parameters: {plist}",
              "    tools:",
              "      yosys:",
              "        arch: ecp5",
              "        output_format: json",
              "        yosys_template: pka_yosys_slang.tcl",
              ""]
    return "\n".join(lines)


def core_files(absolute: bool = False) -> dict[Path, str]:
    """The FuseSoC .core files: one per engine (from its .f), pka_pkg, and the top. absolute: with
    absolute file names, to render the cores of the current filesets outside the tree (tests)."""
    global _CORE_ABS
    _CORE_ABS = absolute
    try:
        return _core_files()
    finally:
        _CORE_ABS = False


def _core_files() -> dict[Path, str]:
    out: dict[Path, str] = {}
    common = REPO / "rtl" / "top" / "pka_common.core"
    out[common] = _core("pka:pka:common", "pka_pkg: status codes, opcodes and the slot map shared by all units",
                        common.parent, [REPO / "rtl" / "common" / "pka_pkg.sv"], [], "pka_pkg", {}, [], [])
    for f in sorted((REPO / "rtl" / "engines").glob("*/*.f")):
        e = f.stem
        top, srcs, params = _fset(f)
        srcs = [x for x in srcs if x.name != "pka_pkg.sv"]
        core = f.parent / f"pka_{e}.core"
        p = params[0]
        # no sim target: an engine simulates inside the flat test top that pka.sim generates for its
        # parameter set (pka.sim.engine_wrapper) around the harness tb/common/harness.cpp
        out[core] = _core(f"pka:engine:{e}", f"pka engine {e} ({top}, the common engine boundary)", core.parent,
                          srcs, ["pka:pka:common"], top, p, [], [])
    topf = REPO / "rtl" / "top" / "pka_top.core"
    deps = ["pka:pka:common"] + [f"pka:engine:{f.stem}" for f in sorted((REPO / "rtl" / "engines").glob("*/*.f"))
                                 if f.stem in TOP_ENGINES]
    own = [REPO / x for x in TOP_FILES[1:]] + [REPO / "rtl" / "top" / "pka_top.sv"]
    # every parameter of pka_top with the RTL's default (a FuseSoC run of the core as the top level
    # builds what pka_top.sv declares); the test-only example engine only in the sim target
    top_sv = REPO / "rtl" / "top" / "pka_top.sv"
    out[topf] = _core("pka:pka:top", "pka_top: AXI4-Lite register block (PeakRDL), operand RAM, sequencer, engines",
                      topf.parent, own, deps, "pka_top", param_defaults([top_sv], "pka_top"),
                      [(_rel(TOP_HARNESS, topf.parent), "cppSource"),
                       (_rel(TOP_HARNESS.parent / "top_axil.h", topf.parent), "cppSource, is_include_file: true"),
                       (_rel(HARNESS_H, topf.parent), "cppSource, is_include_file: true"),
                       (_rel(SW_DIR / "pka.c", topf.parent), "cSource"),
                       (_rel(SW_DIR / "example.c", topf.parent), "cSource"),
                       (_rel(SW_DIR / "pka.h", topf.parent), "cSource, is_include_file: true"),
                       (_rel(SW_DIR / "pka_regs.h", topf.parent), "cSource, is_include_file: true"),
                       (_rel(SW_DIR / "pka_defs.h", topf.parent), "cSource, is_include_file: true")],
                      [f"-I{_rel(TOP_HARNESS.parent, topf.parent)}", f"-I{_rel(HARNESS_H.parent, topf.parent)}",
                       f"-I{_rel(SW_DIR, topf.parent)}"],
                      test_files=[REPO / "tb" / "common" / "pka_example_engine.sv"])
    return out


TOP_LINT = [
    "MaxLen=256 EnExample=1 EnHscm=0",
    "MaxLen=4096 EnExample=1 EnHscm=0",
    "MaxLen=256 EnExample=1 EnCsa2=1 Csa2ChunkW=1 EnMwr4=1 EnVictor=1 EnRns=1 MinSlotAw=9 EnHscm=0",
    "MaxLen=4096 EnExample=0 EnHscm=1 HscmPes=16 HscmW=16 MinSlotAw=8",
    "MaxLen=64 EnExample=0 EnHscm=1 HscmMaxWindow=6 HscmPes=2 HscmW=16 EnRns=1 RnsW=16 MinSlotAw=7",   # ECDSA_SIGN
    "MaxLen=2048 EnExample=0 EnHscm=1 HscmPes=16 EnRns=1 RnsW=32 RnsMaxLen=256 MinSlotAw=9",   # make soc-demo's
    "MaxLen=4096",   # pka_top's defaults (hscm alone, the slot width derived): the FuseSoC core's
]


def topf_text() -> str:
    """rtl/top/top.f: the top's files and every engine's (from their .f, pka_pkg once)."""
    lines = ["// top: pka_top",
             "// the accelerator: register block (generated from data/pka.rdl), operand RAM, sequencer, engines",
             "// generated by `python -m pka.rtl.top gen` (the engines' files come from their .f)"]
    lines += [f"// lint-params: {p}" for p in TOP_LINT]
    lines += TOP_FILES + ["tb/common/pka_example_engine.sv"]
    for name in TOP_ENGINES:
        if name == "example":
            continue
        f = REPO / "rtl" / "engines" / name / f"{name}.f"
        if f.exists():
            lines += [str(x.relative_to(REPO)) for x in engine_sources(name)]
    return "\n".join(lines + ["rtl/top/pka_top.sv", ""])


def gen_cores() -> None:
    for path, text in core_files().items():
        path.write_text(text)
    (REPO / "rtl" / "top" / "top.f").write_text(topf_text())


def main(argv: list[str]) -> int:
    if argv[:1] == ["gen"]:
        gen_all()
        print(f"wrote {GEN_DIR.relative_to(REPO)}/, {HEADER.relative_to(REPO)}, rtl/common/pka_pkg.sv, "
              "src/pka/regs.py, sw/pka_defs.h, doc/top.md (tables), the FuseSoC cores")
        return 0
    if argv[:1] == ["html"]:
        print(f"wrote {gen_html_doc().relative_to(REPO)}")
        return 0
    print("usage: python -m pka.rtl.top gen|html", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
