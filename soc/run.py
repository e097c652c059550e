"""pka_soc in simulation: a PicoRV32 running C firmware that drives pka_top through the C driver.

    python soc/run.py                 # the small demo: RSA-512 (no CRT, CRT) + MODADD on hscm (2 PEs), P-256 ECDH on rns
    python soc/run.py --poll --json build/soc/out.json

Steps (each cached where it can be):
  1. the firmware (soc/fw/*.c, crt0.S, link.ld, the C driver sw/pka.c unchanged) with `zig cc` from
     the `ziglang` wheel, for riscv32 (RV32IM, no compressed instructions): build/soc/fw-<hash>/;
  2. the SoC (soc/rtl/, PicoRV32 from `pythondata-cpu-picorv32`, pka_top's fileset from
     pka.rtl.top.TopConfig) with Verilator through pka.sim (cached under build/sim/pka_soc-<hash>/),
     its main soc/tb/soc_tb.cpp;
  3. a deterministic RSA key (primes from a seeded RNG and gmpy2.next_prime) and two P-256 scalars
     from the same seed (ours, k, and the peer's, d, whose public point Q = d G is the ECDH input), the operands written into the job block of the RAM image (soc/fw/job.h: the
     firmware is built once for any key): for rns's ECC_MUL the curve's constants and the point Q
     as residue vectors in the engine's MM bases (public values, converted here as pka.driver does);
     the firmware gets x and y of k Q back as residue vectors, converted back here;
  4. the simulation: the console goes to stdout, parsed here; every result is checked (signatures
     and the ECDH secret with `cryptography`, the rest with pow/mod) and reported "verified".

The report gives, per operation, the CPU's cycles for the whole driver call (rdcycle around it)
against pka_top's COMPUTE (the engine's own count) and CYCLES (the command from the CMD write to
done): cpu - compute is the overhead of driver, bus and waiting.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

SOC_DIR = Path(__file__).resolve().parent
REPO = SOC_DIR.parent
if str(REPO / "src") not in sys.path:   # run from a checkout without `pip install -e`
    sys.path.insert(0, str(REPO / "src"))

from pka.rtl.top import TopConfig, engine_config, hscm_rns_config  # noqa: E402
from pka.sim import Design  # noqa: E402
from pka.sim import build as sim_build  # noqa: E402

FW_DIR = SOC_DIR / "fw"
SW_DIR = REPO / "sw"
RTL_DIR = SOC_DIR / "rtl"
TB_MAIN = SOC_DIR / "tb" / "soc_tb.cpp"
BUILD_DIR = REPO / "build" / "soc"

# SoC RTL in dependency order (the top last); pka_soc.f lists the same files
SOC_RTL = [RTL_DIR / "pka_soc_axil_demux.sv", RTL_DIR / "pka_soc_ram.sv", RTL_DIR / "pka_soc_sysctl.sv",
           RTL_DIR / "pka_soc_entropy.sv",
           RTL_DIR / "pka_soc.sv"]

RAM_AW = 14                     # pka_soc RamAw: 2^14 words = 64 KiB
JOB_ADDR = 0xC000               # soc/fw/job.h SOC_JOB_ADDR (link.ld __job)
JOB_MAGIC = 0x32424F4A          # "JOB2"
JOB_WORDS = 128                 # words per operand
JOB_HEADER = 18                 # header words before the operand arrays
JOB_HALF = 64                   # words per CRT half and per scalar (SOC_JOB_HALF)
JOB_RNS = 64                    # words per rns residue vector (SOC_JOB_RNS)
JOB_TABLE = 512                 # words of the rns constant table (SOC_JOB_TABLE)
JOB_POLL = 1
JOB_CRT = 2
JOB_ECC = 4
JOB_RSA = 8

# ---- firmware -------------------------------------------------------------------------------------

FW_SOURCES = [FW_DIR / "crt0.S", FW_DIR / "main.c", FW_DIR / "print.c", SW_DIR / "pka.c"]
FW_HEADERS = [FW_DIR / "soc.h", FW_DIR / "job.h", FW_DIR / "print.h", FW_DIR / "include" / "assert.h",
              FW_DIR / "link.ld"]
# RV32IM (PicoRV32 with ENABLE_FAST_MUL/ENABLE_DIV, no compressed instructions), freestanding
FW_TARGET = ["-target", "riscv32-freestanding-none", "-mcpu=generic_rv32+m"]
FW_CFLAGS = ["-O2", "-g0", "-std=c11", "-Wall", "-Wextra", "-Werror", "-fno-sanitize=all",
             "-fomit-frame-pointer", "-fno-unwind-tables", "-fno-asynchronous-unwind-tables",
             "-ffunction-sections", "-fdata-sections"]


def zig() -> list[str]:
    """The C cross compiler: `zig` from the pinned `ziglang` wheel (python -m ziglang)."""
    return [sys.executable, "-m", "ziglang"]


def _zig_version() -> str:
    try:
        from importlib.metadata import version
        return version("ziglang")
    except Exception:   # noqa: BLE001 - not installed: the build below says so
        return "?"


def _zig_env() -> dict[str, str]:
    env = dict(os.environ)
    cache = BUILD_DIR / "zig-cache"
    env.setdefault("ZIG_GLOBAL_CACHE_DIR", str(cache))
    env.setdefault("ZIG_LOCAL_CACHE_DIR", str(cache))
    return env


def sw_headers() -> list[Path]:
    return sorted(SW_DIR.glob("*.h"))


def build_firmware() -> Path:
    """Compile and link the firmware; returns the flat binary (loaded at 0x0). Cached by content."""
    h = hashlib.sha256()
    for f in (*FW_SOURCES, *FW_HEADERS, *sw_headers()):
        h.update(str(f.relative_to(REPO)).encode())
        h.update(f.read_bytes())
    h.update(repr((FW_TARGET, FW_CFLAGS, _zig_version())).encode())
    out = BUILD_DIR / f"fw-{h.hexdigest()[:16]}"
    binary = out / "fw.bin"
    if binary.exists():
        return binary
    BUILD_DIR.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".fw-", dir=BUILD_DIR))
    elf = tmp / "fw.elf"
    cmd = [*zig(), "cc", *FW_TARGET, *FW_CFLAGS, f"-I{FW_DIR / 'include'}", f"-I{FW_DIR}", f"-I{SW_DIR}",
           "-T", str(FW_DIR / "link.ld"), "-Wl,--gc-sections", *map(str, FW_SOURCES), "-o", str(elf)]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=_zig_env())
    if proc.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise RuntimeError(f"firmware build failed:\n{' '.join(cmd)}\n{proc.stdout}{proc.stderr}")
    subprocess.run([*zig(), "objcopy", "-O", "binary", str(elf), str(tmp / "fw.bin")], check=True,
                   capture_output=True, text=True, env=_zig_env())
    size = (tmp / "fw.bin").stat().st_size
    if size > JOB_ADDR:
        raise RuntimeError(f"firmware image of {size} bytes overlaps the job block at {JOB_ADDR:#x}")
    if out.exists():
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        tmp.rename(out)
    return binary


# ---- the SoC build --------------------------------------------------------------------------------


def picorv32_source() -> Path:
    """picorv32.v from the pinned `pythondata-cpu-picorv32` wheel (picorv32_axi is in it)."""
    try:
        import pythondata_cpu_picorv32 as p  # type: ignore[import-untyped]
    except ImportError:
        raise RuntimeError("pythondata-cpu-picorv32 is not installed: run `make venv` (the `soc` extra)") from None
    return Path(p.data_location) / "picorv32.v"


def small_config(bits: int = 512, pes: int = 2) -> TopConfig:
    """The CI-sized build: hscm only (w = 16, `pes` PEs), MaxLen and MinSlotAw as pka.driver picks
    them for `bits`-bit operands (its hscm profile: room for MONTMUL's n + 2k + 1-bit results)."""
    return engine_config("hscm", {"pes": pes}, bits)


def ecc_config(bits: int = 512, pes: int = 2) -> TopConfig:
    """hscm (as small_config) and rns in one pka_top: rns with w = 32 built for 256-bit curves
    (pka.rtl.top.hscm_rns_config)."""
    return hscm_rns_config(bits, pes, 256)


def rns_config(curve_bits: int = 256) -> TopConfig:
    """rns alone (w = 32), as pka.driver builds it for `curve_bits`-bit curves: the ECC build when
    hscm's MaxLen is too large to share a pka_top with rns (ecc_config)."""
    return engine_config("rns", {}, curve_bits)


def soc_design(cfg: TopConfig) -> Design:
    params = dict(cfg.verilog_params())
    params["RamAw"] = RAM_AW
    return Design("pka_soc", [picorv32_source(), *cfg.sources(), *SOC_RTL], params,
                  harness=[TB_MAIN], name="pka_soc")


def build_soc(cfg: TopConfig, trace: bool = False) -> Path:
    """Verilate pka_soc for `cfg` (cached by pka.sim.build); returns the executable."""
    return sim_build(soc_design(cfg), trace=trace)


# ---- the job: key, operands, RAM image -------------------------------------------------------------


@dataclass(frozen=True)
class RsaKey:
    n: int
    e: int
    d: int
    p: int
    q: int

    @property
    def bits(self) -> int:
        return self.n.bit_length()

    def crypto(self) -> Any:
        """The same key as a `cryptography` private key."""
        import gmpy2
        from cryptography.hazmat.primitives.asymmetric import rsa

        pub = rsa.RSAPublicNumbers(self.e, self.n)
        return rsa.RSAPrivateNumbers(self.p, self.q, self.d, self.d % (self.p - 1), self.d % (self.q - 1),
                                     int(gmpy2.invert(self.q, self.p)), pub).private_key()


def make_key(bits: int = 512, seed: int = 19, e: int = 65537) -> RsaKey:
    """A deterministic RSA key: p, q = next primes after seeded random bits/2-bit numbers (top two
    bits set, so n has exactly `bits` bits), gcd(e, p-1) = gcd(e, q-1) = 1."""
    import gmpy2

    rng = random.Random(seed)
    half = bits // 2

    def prime() -> int:
        while True:
            c = int(gmpy2.next_prime(rng.getrandbits(half) | (3 << (half - 2))))
            if c.bit_length() == half and gmpy2.gcd(e, c - 1) == 1:
                return c

    p = prime()
    q = prime()
    while q == p:
        q = prime()
    d = int(gmpy2.invert(e, (p - 1) * (q - 1)))
    return RsaKey(p * q, e, d, p, q)


@dataclass(frozen=True)
class EccJob:
    """P-256 ECDH with rns's ECC_MUL: k Q for our private scalar k and the peer's public point Q = d G
    (d: the peer's private scalar, kept so that the host can check the whole point; None: Q = G,
    the public key of k). The slot contents pka.driver's Pka.rns_run writes (residue vectors of
    public values in the MM bases, the constant table), made on the host; k plain."""
    curve: str
    k: int
    ctx: Any        # pka.model.rns.MmCtx
    regs: dict[int, int]
    peer: int | None = None

    @staticmethod
    def make(k: int, curve: str = "p256", w: int = 32, peer: int | None = None) -> "EccJob":
        from cryptography.hazmat.primitives.asymmetric import ec

        from pka.model import rns as model

        c = model._curve(curve)
        model.check_scalar(c, k)
        ctx = model.mm_context(c.p, w)
        qx, qy = c.gx, c.gy
        if peer is not None:
            assert curve == "p256"
            model.check_scalar(c, peer)
            q = ec.derive_private_key(peer, ec.SECP256R1()).public_key().public_numbers()
            qx, qy = q.x, q.y
        regs = {model.RW: (ctx.m * ctx.m) % c.p, model.ONE: 1,
                **model.ecc_inputs(c, qx, ctx.m, qy)}
        return EccJob(curve, k, ctx, regs, peer)

    def vec(self, reg: int) -> list[int]:
        b, bp = self.ctx.to_rns(self.regs.get(reg, 0))
        return [*b, *bp]

    def value(self, residues: int) -> int:
        """A residue vector printed by the firmware (2n words as one number) -> the integer mod p."""
        n = self.ctx.n
        words = [(residues >> (32 * i)) & 0xFFFFFFFF for i in range(2 * n)]
        return int(self.ctx.from_rns((tuple(words[:n]), tuple(words[n:]))) % self.ctx.p)


@dataclass(frozen=True)
class Job:
    key: RsaKey
    message: bytes
    m: int          # EMSA-PKCS1-v1_5(SHA-256) encoding of the message
    a: int          # MODADD operands
    b: int
    r_bits: int     # hscm's Montgomery exponent for MONT_PARAMS
    window: int
    poll: bool
    crt: bool = False           # RSA_CRT signature (hscm)
    ecc: EccJob | None = None   # ECC_MUL k Q, ECDH (rns)
    rsa: bool = True            # MONT_PARAMS, MODEXP (three ways), MODADD and the bus benchmark (hscm)


def make_job(key: RsaKey, message: bytes = b"pka_soc: a RISC-V CPU drives the accelerator", window: int = 4,
             poll: bool = False, w: int = 16, seed: int = 19, crt: bool = False, ecc: bool = False) -> Job:
    from pka.model.hscm import Geometry
    from pka.rsa import emsa_pkcs1_v15

    rng = random.Random(seed + 1)
    m = emsa_pkcs1_v15(message, (key.bits + 7) // 8)
    a, b = rng.randrange(key.n), rng.randrange(key.n)
    ecc_job = None
    if ecc:
        from pka.model import rns as model
        # the scalar from the same seeded generator (tests forbid unseeded randomness)
        order = model._curve("p256").order
        # ECDH: our scalar and the peer's (its public point is the input)
        ecc_job = EccJob.make(rng.randrange(1, order), peer=rng.randrange(1, order))
    return Job(key, message, m, a, b, Geometry(key.bits, w).r_bits, window, poll, crt, ecc_job)


def _words(value: int, n: int = JOB_WORDS) -> list[int]:
    if value >> (32 * n):
        raise ValueError(f"operand of {value.bit_length()} bits does not fit the job block")
    return [(value >> (32 * i)) & 0xFFFFFFFF for i in range(n)]


def job_words(job: Job) -> list[int]:
    """The job block (soc/fw/job.h soc_job_t), word by word."""
    from pka.model import rns as model

    key = job.key
    flags = ((JOB_POLL if job.poll else 0) | (JOB_CRT if job.crt else 0) | (JOB_ECC if job.ecc else 0)
             | (JOB_RSA if job.rsa else 0))
    e = job.ecc
    c = model._curve(e.curve) if e else None
    table = [v for row in e.ctx.table for v in row] if e else []
    if len(table) > JOB_TABLE:
        raise ValueError(f"rns constant table of {len(table)} words does not fit the job block")
    header = [JOB_MAGIC, key.bits, key.d.bit_length(), job.r_bits, job.window, flags,
              key.p.bit_length(), key.q.bit_length(),
              c.p.bit_length() if c else 0, c.order.bit_length() if c else 0, e.ctx.n if e else 0,
              (c.p & 0xFFFFFFFF) if c else 0, len(table), model.blind_bits(c) if c else 0, 0, 0, 0, 0]
    assert len(header) == JOB_HEADER
    words = header
    for v in (key.n, job.m, key.d, job.a, job.b):
        words += _words(v)
    dp, dq = key.d % (key.p - 1), key.d % (key.q - 1)
    qinv = pow(key.q, -1, key.p)
    for v in (key.e, key.p, key.q, dp, dq, qinv, e.k if e else 0):
        words += _words(v, JOB_HALF)

    def vec(reg: int) -> list[int]:
        v = e.vec(reg) if e else []
        if len(v) > JOB_RNS:
            raise ValueError("residue vector does not fit the job block")
        return v + [0] * (JOB_RNS - len(v))

    words += vec(model.IN_A) + vec(model.IN_B) + vec(model.RW)
    consts = [x for r in (model.ONE, model.CA, model.CB2, model.CM4B) for x in (e.vec(r) if e else [])]
    words += consts + [0] * (4 * JOB_RNS - len(consts))
    words += _words(c.p - 2 if c else 0, JOB_HALF) + _words(c.order if c else 0, JOB_HALF)
    words += table + [0] * (JOB_TABLE - len(table))
    return words


def ram_image(firmware: Path, job: Job) -> list[int]:
    """The whole RAM: the firmware at 0x0, the job block at JOB_ADDR, zeros elsewhere."""
    data = firmware.read_bytes()
    data += b"\0" * (-len(data) % 4)
    ram = [0] * (1 << RAM_AW)
    for i, (w,) in enumerate(struct.iter_unpack("<I", data)):
        ram[i] = w
    jw = job_words(job)
    base = JOB_ADDR // 4
    if base + len(jw) > len(ram):
        raise ValueError("job block beyond the RAM")
    ram[base:base + len(jw)] = jw
    return ram


# ---- run and check --------------------------------------------------------------------------------


@dataclass
class OpLine:
    name: str
    status: int
    cpu: int
    cycles: int
    compute: int
    io: int

    @property
    def overhead(self) -> int:
        """CPU cycles of the call beyond the engine's compute cycles."""
        return self.cpu - self.compute


@dataclass
class SocRun:
    console: str
    exit_code: int
    sim_cycles: int
    ops: dict[str, OpLine] = field(default_factory=dict)
    results: dict[str, int] = field(default_factory=dict)
    info: dict[str, str] = field(default_factory=dict)
    bench: dict[str, tuple[int, int]] = field(default_factory=dict)   # name -> (words, CPU cycles)


_OP = re.compile(r"^op (\S+) status=(\d+) cpu=(\d+) cycles=(\d+) compute=(\d+) io=(\d+)$")
_RESULT = re.compile(r"^result (\S+) 0x([0-9a-f]+)$")
_BENCH = re.compile(r"^bench (\S+) words=(\d+) cpu=(\d+)$")


def parse_console(text: str) -> SocRun:
    """What the firmware printed (exit code and cycles are filled in by run_soc)."""
    run = SocRun(text, -1, 0)
    ops, results, info, bench = run.ops, run.results, run.info, run.bench
    for line in text.splitlines():
        if m := _OP.match(line):
            st, cpu, cyc, comp, io = (int(x) for x in m.groups()[1:])
            ops[m.group(1)] = OpLine(m.group(1), st, cpu, cyc, comp, io)
        elif m := _RESULT.match(line):
            results[m.group(1)] = int(m.group(2), 16)
        elif m := _BENCH.match(line):
            bench[m.group(1)] = (int(m.group(2)), int(m.group(3)))
        elif line.startswith("info "):
            for kv in line[5:].split():
                k, _, v = kv.partition("=")
                info[k] = v
    return run


def run_soc(exe: Path, image: Sequence[int], max_cycles: int = 50_000_000, timeout: float = 600,
            echo: bool = False) -> SocRun:
    """Run the simulation on a RAM image; returns the console and what it printed."""
    BUILD_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="run-", dir=BUILD_DIR) as tmp:
        hexfile = Path(tmp) / "ram.hex"
        hexfile.write_text("".join(f"{w:08x}\n" for w in image))
        proc = subprocess.run([str(exe), f"+firmware={hexfile}", f"+max_cycles={max_cycles}"],
                              capture_output=True, text=True, timeout=timeout)
    if echo:
        sys.stdout.write(proc.stdout)
    tail = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
    m = re.match(r"soc: (exit (\d+)|trap|timeout) cycles (\d+)", tail)
    if not m:
        raise RuntimeError(f"simulation ended without a summary (status {proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    if m.group(1) in ("trap", "timeout"):
        raise RuntimeError(f"simulation: {tail}\n{proc.stdout}")
    run = parse_console(proc.stdout)
    run.exit_code, run.sim_cycles = int(m.group(2)), int(m.group(3))
    return run


def check(run: SocRun, job: Job) -> list[str]:
    """Check every printed result; returns the 'verified' lines, raises AssertionError on a mismatch."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding

    key = job.key
    k = (key.bits + 7) // 8
    out = []
    assert run.exit_code == 0, f"firmware exit code {run.exit_code}:\n{run.console}"
    for name, op in run.ops.items():
        assert op.status == 0, f"{name}: status {op.status}"
    expect_s = pow(job.m, key.d, key.n)
    for name in () if not job.rsa else ("modexp", "modexp_mmio", "modexp_window") if job.window else ("modexp", "modexp_mmio"):
        s = run.results.get(name)
        assert s is not None, f"no result for {name}:\n{run.console}"
        assert s == expect_s, f"{name}: {s:#x} != m^d mod n {expect_s:#x}"
        # the signature itself, checked by `cryptography` (raises InvalidSignature otherwise)
        key.crypto().public_key().verify(s.to_bytes(k, "big"), job.message, padding.PKCS1v15(), hashes.SHA256())
        label = {"modexp": "modexp", "modexp_mmio": "modexp, operands by plain MMIO"}.get(
            name, f"modexp window {job.window}")
        out.append(f"RSA-{key.bits} signature (m^d mod n, no CRT, {label}): verified")
    if job.rsa:
        r = run.results.get("modadd")
        assert r is not None, f"no MODADD result:\n{run.console}"
        assert r == (job.a + job.b) % key.n, f"modadd: {r:#x} != {(job.a + job.b) % key.n:#x}"
        out.append(f"MODADD {key.bits} bits: verified")
    if job.crt:
        for name in ("rsa_crt_first", "rsa_crt"):
            s = run.results.get(name)
            assert s is not None, f"no result for {name}:\n{run.console}"
            assert s == expect_s, f"{name}: {s:#x} != m^d mod n {expect_s:#x}"
            key.crypto().public_key().verify(s.to_bytes(k, "big"), job.message, padding.PKCS1v15(), hashes.SHA256())
            label = "RSA_CRT, first with the key" if name == "rsa_crt_first" else "RSA_CRT"
            out.append(f"RSA-{key.bits} CRT signature ({label}): verified")
    if job.ecc:
        out.append(check_ecc(run, job.ecc))
    assert run.info.get("decerr_count") == "1", f"unmapped read not counted: {run.info}"
    assert run.info.get("buserr") == "0", f"bus errors: {run.info.get('buserr')}"
    return out


def check_ecc(run: SocRun, ecc: EccJob) -> str:
    """ECDH: x of k Q from the firmware (residue vectors of x and y) = `cryptography`'s shared secret of
    our private key k and the peer's public key Q, and (x, y) = the public key of k d (d the peer's
    scalar); without a peer, (x, y) = the public key of k."""
    from cryptography.hazmat.primitives.asymmetric import ec

    assert ecc.curve == "p256"
    rx, ry = run.results.get("ecc_mul_x"), run.results.get("ecc_mul_y")
    assert rx is not None and ry is not None, f"no ECC_MUL result:\n{run.console}"
    x, y = ecc.value(rx), ecc.value(ry)
    ours = ec.derive_private_key(ecc.k, ec.SECP256R1())
    if ecc.peer is None:
        pub = ours.public_key().public_numbers()
        assert (x, y) == (pub.x, pub.y), f"k G: ({x:#x}, {y:#x}) != cryptography's ({pub.x:#x}, {pub.y:#x})"
        return "P-256 k*G (ECC_MUL on rns): verified"
    peer = ec.derive_private_key(ecc.peer, ec.SECP256R1())
    shared = int.from_bytes(ours.exchange(ec.ECDH(), peer.public_key()), "big")
    assert x == shared, f"ECDH k Q: x {x:#x} != cryptography's shared secret {shared:#x}"
    from pka.model import rns as model

    kd = ecc.k * ecc.peer % model._curve("p256").order
    kq = ec.derive_private_key(kd, ec.SECP256R1()).public_key().public_numbers()
    assert (x, y) == (kq.x, kq.y), f"ECDH k Q: ({x:#x}, {y:#x}) != ({kq.x:#x}, {kq.y:#x})"
    return "P-256 ECDH (ECC_MUL on rns, the peer's point): verified"


def summary(run: SocRun) -> dict[str, Any]:
    """The measured cycles as a JSON-able dict."""
    return {
        "sim_cycles": run.sim_cycles,
        "wait": run.info.get("wait"),
        "ops": {name: {"status": o.status, "cpu_cycles": o.cpu, "cycles": o.cycles, "compute": o.compute,
                       "io": o.io, "overhead": o.overhead,
                       "overhead_pct": round(100.0 * o.overhead / o.cpu, 3) if o.cpu else None}
                for name, o in run.ops.items()},
        "bus": {name: {"words": words, "cpu_cycles": cpu} for name, (words, cpu) in run.bench.items()},
    }


def table(run: SocRun) -> str:
    rows = [f"{'op':<14}{'CPU cycles':>12}{'CYCLES':>11}{'COMPUTE':>11}{'IO':>6}{'CPU-COMPUTE':>13}{'overhead':>10}"]
    for o in run.ops.values():
        pct = f"{100.0 * o.overhead / o.cpu:.2f} %" if o.cpu else "-"
        rows.append(f"{o.name:<14}{o.cpu:>12,}{o.cycles:>11,}{o.compute:>11,}{o.io:>6}{o.overhead:>13,}{pct:>10}")
    if run.bench:
        rdc = run.bench.get("rdcycle", (0, 0))[1]
        parts = [f"{name} {(cpu - rdc) / words:.1f}" for name, (words, cpu) in run.bench.items() if words]
        rows.append("CPU cycles per 32-bit word moved: " + ", ".join(parts))
    return "\n".join(rows)


def demo(bits: int = 512, pes: int = 2, window: int = 4, poll: bool = False, seed: int = 19,
         echo: bool = True, crt: bool = True, ecc: bool = True) -> tuple[SocRun, list[str], Job]:
    """Build everything (cached), run the demo job, check it. Returns the run, the verified lines, the job.
    ecc: the build holds rns beside hscm (ecc_config) and the firmware runs one P-256 ECDH (k Q)."""
    fw = build_firmware()
    job = make_job(make_key(bits, seed), window=window, poll=poll, seed=seed, crt=crt, ecc=ecc)
    cfg = ecc_config(bits, pes) if ecc else small_config(bits, pes)
    run = run_soc(build_soc(cfg), ram_image(fw, job), echo=echo)
    return run, check(run, job), job


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bits", type=int, default=512, help="RSA modulus bits (the build: MaxLen = max(512, bits))")
    ap.add_argument("--pes", type=int, default=2, help="hscm processing elements")
    ap.add_argument("--window", type=int, default=4, help="window of the second MODEXP (0: none)")
    ap.add_argument("--poll", action="store_true", help="the driver polls INTR_STATE instead of waitirq")
    ap.add_argument("--seed", type=int, default=19, help="seed of the key and operands")
    ap.add_argument("--no-crt", action="store_true", help="skip the RSA CRT signature (RSA_CRT on hscm)")
    ap.add_argument("--no-ecc", action="store_true", help="skip P-256 ECDH (ECC_MUL on rns; the build without rns)")
    ap.add_argument("--json", type=Path, help="write the measured cycles here")
    ap.add_argument("--quiet", action="store_true", help="do not echo the console")
    args = ap.parse_args(argv)
    engines = "hscm" if args.no_ecc else "hscm + rns (256-bit) in one pka_top"
    print(f"pka_soc: building firmware and SoC ({engines}, hscm {args.pes} PEs, {args.bits}-bit key) ...", flush=True)
    run, verified, job = demo(args.bits, args.pes, args.window, args.poll, args.seed, echo=not args.quiet,
                              crt=not args.no_crt, ecc=not args.no_ecc)
    print()
    print(table(run))
    print(f"(simulated {run.sim_cycles:,} cycles; overhead = CPU cycles of the driver call - COMPUTE)")
    for line in verified:
        print(line)
    if args.json:
        data = {"bits": job.key.bits, "pes": args.pes, "window": args.window, "crt": job.crt,
                "ecc": job.ecc.curve if job.ecc else None, **summary(run)}
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(data, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
