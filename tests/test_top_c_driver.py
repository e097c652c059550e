"""Every public function of the C driver (sw/pka.h) on the simulated pka_top: sw/pka.c compiled into a
shared library with the system gcc and called through ctypes, its bus callbacks forwarded to the
simulation. Each result is
compared with Python's own arithmetic or the golden models (pka.model.hscm, pka.model.rns), each
error path with the status the C API returns, and the cycle counts where a formula gives them.

Builds the suite already has: the 64-bit hscm + rns build of tests/test_top_ecdsa.py (hscm's
operations, the sequencer's, ECC_MUL on the 64-bit curve small_ecdsa, ECDSA_SIGN) and the 256-bit rns
build of the X25519 CLI test (tests/test_cli_rtl.py; pka.driver.session("rns", {"w": 32}, 255)).
pka_rsa_load_key + pka_rsa_crt need hscm primes of >= 36 bits (n > 64 bits: not this build): their
results are checked in tests/test_top_sw.py (512-bit hscm), their driver-side error here."""

from __future__ import annotations

import ctypes
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable, Iterator

import gmpy2
import pytest

from conftest import SEED
from pka.driver import profile, slot_addr
from pka.errors import Status
from pka.model import hscm, rns
from pka.regs import FIELDS, ID_MAGIC, Reg
from pka.rtl.top import TopConfig, TopSim, ecc_compute, hscm_r
from pka.sim import REPO, Op, Slot

pytestmark = pytest.mark.rtl

# tests/test_top_ecdsa.py's SMALL build (the same parameters, so Verilator builds it once)
SMALL = TopConfig(max_len=64, engines=("hscm", "rns"),
                  params=(("HscmMaxWindow", 6), ("HscmPes", 2), ("HscmW", 16), ("MinSlotAw", 7), ("RnsW", 16)))
HSCM = {"pes": 2, "w": 16}
CURVE = "small_ecdsa"
RNS_W = 16
# the rns build the X25519 CLI test runs on (pka.driver.session("rns", {"w": 32}, 255))
_RNS = profile("rns")
RNS256 = TopConfig(max_len=_RNS.max_len({"w": 32}, 255), engines=("rns",),
                   params=tuple(sorted(_RNS.top_params({"w": 32}, 255).items())))

PKA_ERR_NO_DEVICE, PKA_ERR_TOO_BIG, PKA_ERR_SLOT = 0x100, 0x101, 0x102
PKA_R_ENGINE = 0xFFFF
PKA_ECC_X_ONLY, PKA_ECC_RANDOM_Z, PKA_ECC_X25519 = 1, 2, 4
ENGINE_RNS, ENGINE_HSCM, ENGINE_MWR4 = 3, 5, 2
BLIND_OFF = 1 << FIELDS["CFG"]["BLIND_OFF"][0]

u32 = ctypes.c_uint32
u32p = ctypes.POINTER(u32)
UINT = ctypes.c_uint
RD = ctypes.CFUNCTYPE(u32, ctypes.c_void_p, u32)
WR = ctypes.CFUNCTYPE(None, ctypes.c_void_p, u32, u32)
IRQ = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
WRB = ctypes.CFUNCTYPE(None, ctypes.c_void_p, u32, u32p, UINT)
RDB = ctypes.CFUNCTYPE(None, ctypes.c_void_p, u32, u32p, UINT)


class Bus(ctypes.Structure):
    _fields_ = [("read32", RD), ("write32", WR), ("wait_irq", IRQ), ("ctx", ctypes.c_void_p),
                ("write_block", WRB), ("read_block", RDB)]


class Dev(ctypes.Structure):
    _fields_ = [("bus", Bus), ("max_len", u32), ("slot_words", u32), ("engines", u32), ("ops", u32),
                ("cycles", u32), ("compute", u32), ("io", u32), ("timeout", u32), ("rns_max_len", u32),
                ("hscm_w", u32)]


class Curve(ctypes.Structure):
    _fields_ = [("pbits", UINT), ("elen", UINT), ("channels", UINT), ("p_lo", u32), ("table", u32p),
                ("table_words", UINT), ("w", u32p), ("consts", u32p), ("expo", u32p), ("order", u32p),
                ("blind_bits", UINT)]


class RsaKey(ctypes.Structure):
    _fields_ = [("n", u32p), ("nbits", UINT), ("p", u32p), ("pbits", UINT), ("q", u32p), ("qbits", UINT),
                ("dp", u32p), ("dq", u32p), ("qinv", u32p), ("e", u32p), ("ebits", UINT)]


HOST_ONLY = {"pka_hscm_nprime"}            # no pka_dev_t argument
D, BP, CP, KP = ctypes.POINTER(Dev), ctypes.POINTER(Bus), ctypes.POINTER(Curve), ctypes.POINTER(RsaKey)
SIGNATURES: dict[str, list[Any]] = {
    "pka_mmio_bus": [BP, ctypes.c_void_p],
    "pka_init": [D, BP],
    "pka_write_operand": [D, UINT, u32p, UINT],
    "pka_read_operand": [D, UINT, u32p, UINT],
    "pka_run": [D, UINT, UINT, UINT, u32, UINT],
    "pka_serves": [D, UINT],
    "pka_abort": [D],
    "pka_mont_params": [D, u32p, ctypes.POINTER(ctypes.c_uint64), u32p, UINT, UINT],
    "pka_modadd": [D, u32p, u32p, u32p, u32p, UINT],
    "pka_modsub": [D, u32p, u32p, u32p, u32p, UINT],
    "pka_modmul": [D, u32p, u32p, u32p, u32p, UINT, UINT],
    "pka_modexp": [D, u32p, u32p, u32p, UINT, u32p, UINT, UINT],
    "pka_modexp_ct": [D, u32p, u32p, u32p, UINT, u32p, UINT, UINT, u32p, UINT],
    "pka_modinv": [D, u32p, u32p, u32p, UINT, UINT],
    "pka_montmul": [D, u32p, UINT, u32p, u32p, u32p, UINT, u32p, UINT],
    "pka_hscm_nprime": [u32p, u32p, UINT, UINT],
    "pka_mul": [D, u32p, u32p, u32p, u32p, UINT],
    "pka_modred": [D, u32p, u32p, u32p, u32p, UINT, UINT],
    "pka_ecc_check": [D, u32p, u32p, u32p, u32p, u32p, UINT, UINT],
    "pka_rsa_load_key": [D, KP],
    "pka_rsa_crt": [D, u32p, u32p, KP, UINT],
    "pka_ecc_mul_rns": [D, u32p, u32p, u32p, u32p, u32p, CP],
    "pka_ecc_mul_rns_ex": [D, u32p, u32p, u32p, u32p, u32p, CP, u32, u32p],
    "pka_ecdsa_sign": [D, u32p, u32p, u32p, u32p, u32p, u32p, u32p, u32p, CP],
    "pka_zeroize": [D],
}


def arr(words: list[int]) -> ctypes.Array[ctypes.c_uint32]:
    return (u32 * len(words))(*words)


def num(x: int, nw: int) -> ctypes.Array[ctypes.c_uint32]:
    """x as nw 32-bit words, least significant first."""
    return arr([(x >> (32 * i)) & 0xFFFFFFFF for i in range(nw)])


def val(words: Any) -> int:
    return sum(int(w) << (32 * i) for i, w in enumerate(words))


def nwords(bits: int) -> int:
    return max(1, -(-bits // 32))


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> ctypes.CDLL:
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("no system gcc")
    so = tmp_path_factory.mktemp("c_driver") / "libpka.so"
    subprocess.run([gcc, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-pedantic", "-shared", "-fPIC",
                    f"-I{REPO / 'sw'}", str(REPO / "sw" / "pka.c"), "-o", str(so)], check=True)
    lib = ctypes.CDLL(str(so))
    for name, args in SIGNATURES.items():
        fn = getattr(lib, name)
        fn.argtypes = args
        fn.restype = None if name == "pka_mmio_bus" else ctypes.c_int
    return lib


class CDriver:
    """One pka_dev_t on a TopSim: the driver's bus callbacks go to the simulation (block transfers
    too, unless blocks=False: then the driver's word-by-word path). A Python exception inside a
    callback cannot cross the C code: it is kept and raised after the call."""

    def __init__(self, lib: ctypes.CDLL, sim: TopSim, blocks: bool = True, irq: bool = True) -> None:
        self.lib, self.sim = lib, sim
        self.errors: list[BaseException] = []

        def guard(fn: Callable[..., Any], default: Any = None) -> Callable[..., Any]:
            def call(*args: Any) -> Any:
                try:
                    return fn(*args)
                except BaseException as exc:  # noqa: BLE001 - re-raised after the C call
                    self.errors.append(exc)
                    return default
            return call

        def write_block(_c: Any, off: int, words: Any, n: int) -> None:
            sim.write_words(off, [words[i] for i in range(n)])

        def read_block(_c: Any, off: int, words: Any, n: int) -> None:
            for i, w in enumerate(sim.read_words(off, n)):
                words[i] = w

        self._keep = (RD(guard(lambda _c, off: sim.read32(off), 0)),
                      WR(guard(lambda _c, off, v: sim.write32(off, v) and None)),
                      IRQ(guard(lambda _c: sim.wait_irq(50_000_000) and None)) if irq else IRQ(),
                      WRB(guard(write_block)) if blocks else WRB(), RDB(guard(read_block)) if blocks else RDB())
        self.bus = Bus(self._keep[0], self._keep[1], self._keep[2], None, self._keep[3], self._keep[4])
        self.dev = Dev()
        assert self("pka_init", ctypes.byref(self.bus)) == 0

    def __call__(self, name: str, *args: Any) -> int:
        dev = () if name in HOST_ONLY else (ctypes.byref(self.dev),)
        st = int(getattr(self.lib, name)(*dev, *args))
        if self.errors:
            raise self.errors[0]
        return st

    def blinding(self, on: bool) -> None:
        """CFG.BLIND_OFF (no C function writes CFG: blinding is on after reset)."""
        self.sim.write32(Reg.CFG, 0 if on else BLIND_OFF)


@pytest.fixture(scope="module")
def small() -> Iterator[TopSim]:
    with TopSim(SMALL) as sim:
        yield sim


@pytest.fixture
def c(lib: ctypes.CDLL, small: TopSim) -> CDriver:
    drv = CDriver(lib, small)
    drv.blinding(True)
    return drv


def _moduli(rng: random.Random) -> list[tuple[int, int]]:
    """(n, bits): odd moduli of hscm's lengths on this build (36..64 bits), smallest and largest of a size."""
    out = [((1 << 63) | 1, 64), ((1 << 64) - 1, 64), ((1 << 39) | 0x12345, 40), ((1 << 35) | 1, 36)]
    out += [(rng.getrandbits(64) | 1 << 63 | 1, 64) for _ in range(2)]
    return out


# ---- plumbing: pka_init, pka_serves, operands, pka_run, pka_abort, pka_zeroize, pka_mmio_bus ----------------

def test_c_plumbing(lib: ctypes.CDLL, small: TopSim) -> None:
    """pka_init reads the build's configuration; operand writes and reads (the block callbacks and the
    word-by-word path, polling instead of wait_irq); the driver's own codes; an unknown opcode, an
    abort, a zeroize."""
    for blocks, irq in ((True, True), (False, False)):
        c = CDriver(lib, small, blocks=blocks, irq=irq)
        d = c.dev
        assert (d.max_len, d.engines, d.slot_words) == (64, 1 << ENGINE_RNS | 1 << ENGINE_HSCM, 1 << 7)   # MinSlotAw
        assert d.ops == small.read32(Reg.OPS) and d.timeout == 1 << 28
        assert (d.rns_max_len, d.hscm_w) == (64, 16)                   # ENGCFG
        for op in range(33):
            assert c("pka_serves", op) == (op < 32 and d.ops >> op & 1), op
        words = [0x0123_4567, 0x89AB_CDEF, 0xFFFF_FFFF, 0]
        assert c("pka_write_operand", Slot.X2, arr(words), 4) == 0
        back = arr([0] * 4)
        assert c("pka_read_operand", Slot.X2, back, 4) == 0 and list(back) == words
        assert small.read_words(slot_addr(Slot.X2), 4) == words
        assert c("pka_write_operand", 17, arr(words), 1) == PKA_ERR_SLOT
        assert c("pka_write_operand", Slot.A, arr(words), 0) == PKA_ERR_TOO_BIG
        assert c("pka_read_operand", Slot.A, arr([0] * (d.slot_words + 1)), d.slot_words + 1) == PKA_ERR_TOO_BIG
        assert c("pka_run", Op.NOP, 0, 0, 0, 0) == 0
        assert c("pka_run", 16, 64, 0, 0, 0) == Status.ERR_OPCODE
        assert c("pka_run", Op.MODADD, 0x10000, 0, 0, 0) == Status.ERR_LENGTH      # LEN's field: the driver
        assert c("pka_run", Op.MONTMUL, 64, 0, 0, 1) == Status.ERR_UNSUPPORTED   # csa2: not in the build
        assert c("pka_run", Op.MODADD, 0, 0, 0, 0) == Status.ERR_LENGTH           # LEN = 0: the hardware
    # pka_abort: a MODEXP started by hand (64 exponent bits: thousands of cycles), then CTRL.ABORT
    n = (1 << 64) - 59
    assert c("pka_mont_params", None, None, num(n, 2), 64, PKA_R_ENGINE) == 0
    for slot, x in ((Slot.N, n), (Slot.A, 3), (Slot.E, (1 << 64) - 1)):
        assert c("pka_write_operand", slot, num(x, 2), 2) == 0
    small.write32(Reg.LEN, 64 | 64 << 16)
    small.write32(Reg.ARG, 0)
    small.write32(Reg.CMD, Op.MODEXP)
    assert c("pka_abort") == Status.ERR_ABORTED
    # pka_zeroize clears the operand RAM
    assert c("pka_write_operand", Slot.A, arr(words), 4) == 0
    assert c("pka_zeroize") == 0
    assert small.read_words(slot_addr(Slot.A), 4) == [0] * 4


def test_c_mmio_bus(lib: ctypes.CDLL) -> None:
    """pka_mmio_bus on plain memory standing in for the device: no ID -> PKA_ERR_NO_DEVICE; with the
    ID and HWCFG there, pka_init decodes them and an operand lands at its slot's address."""
    mem = (u32 * (slot_addr(Slot.EPUB, 1024) // 4))()
    bus = Bus()
    lib.pka_mmio_bus(ctypes.byref(bus), ctypes.cast(mem, ctypes.c_void_p))
    dev = Dev()
    assert lib.pka_init(ctypes.byref(dev), ctypes.byref(bus)) == PKA_ERR_NO_DEVICE
    mem[Reg.ID // 4] = ID_MAGIC
    mem[Reg.HWCFG // 4] = 256 | (1 << ENGINE_HSCM) << 16 | 3 << 24
    mem[Reg.OPS // 4] = 0x1234
    mem[Reg.ENGCFG // 4] = 32 << 16
    assert lib.pka_init(ctypes.byref(dev), ctypes.byref(bus)) == 0
    assert (dev.max_len, dev.engines, dev.slot_words, dev.ops) == (256, 1 << ENGINE_HSCM, 8, 0x1234)
    assert (dev.rns_max_len, dev.hscm_w) == (0, 32)
    assert mem[Reg.INTR_ENABLE // 4] == 1 and mem[Reg.INTR_STATE // 4] == 7      # DONE enabled, pending cleared
    mem[Reg.INTR_STATE // 4] = 0                                  # (memory does not clear on a write of 1)
    assert lib.pka_write_operand(ctypes.byref(dev), Slot.B, arr([5, 6, 7]), 3) == 0
    assert list(mem[slot_addr(Slot.B) // 4:slot_addr(Slot.B) // 4 + 3]) == [5, 6, 7]
    assert lib.pka_write_operand(ctypes.byref(dev), Slot.B, arr([0] * 9), 9) == PKA_ERR_TOO_BIG   # 8 words a slot
    back = arr([0] * 3)
    assert lib.pka_read_operand(ctypes.byref(dev), Slot.B, back, 3) == 0 and list(back) == [5, 6, 7]


# ---- the sequencer's operations: MONT_PARAMS, MODADD, MODSUB ------------------------------------------------

def test_c_mont_params_modadd_modsub(c: CDriver) -> None:
    rng = random.Random(SEED)
    for n, bits in _moduli(rng):
        nw = nwords(bits)
        for r_bits, r in ((0, 32 * nw), (hscm_r(bits, 16), hscm_r(bits, 16)), (PKA_R_ENGINE, hscm_r(bits, 16))):
            w, mu = arr([0] * nw), ctypes.c_uint64()
            assert c("pka_mont_params", w, ctypes.byref(mu), num(n, nw), bits, r_bits) == 0
            assert val(w) == pow(2, 2 * r, n), (n, r_bits)
            assert mu.value == -pow(n, -1, 1 << 64) % (1 << 64)
        for a, b in ((0, 0), (n - 1, n - 1), (0, n - 1), (n - 1, 1), (rng.randrange(n), rng.randrange(n))):
            out = arr([0] * nw)
            assert c("pka_modadd", out, num(a, nw), num(b, nw), num(n, nw), bits) == 0 and val(out) == (a + b) % n
            assert c("pka_modsub", out, num(a, nw), num(b, nw), num(n, nw), bits) == 0 and val(out) == (a - b) % n
    n = (1 << 64) - 59
    out = arr([0, 0])
    assert c("pka_modadd", out, num(n, 2), num(1, 2), num(n, 2), 64) == Status.ERR_OPERAND_RANGE    # A = N
    assert c("pka_modsub", out, num(1, 2), num(n + 2, 2), num(n, 2), 64) == Status.ERR_OPERAND_RANGE
    assert c("pka_mont_params", out, None, num(n + 1, 2), 64, 0) == Status.ERR_EVEN_MODULUS
    assert c("pka_mont_params", out, None, num(1, 2), 64, 0) == Status.ERR_OPERAND_RANGE            # N = 1


# ---- hscm: MODMUL, MODEXP, MODEXP_CT, MODINV, MUL, MODRED, ECC_CHECK, MONTMUL ------------------------------

def test_c_modmul_modexp(c: CDriver) -> None:
    rng = random.Random(SEED + 1)
    for n, bits in _moduli(rng):
        nw = nwords(bits)
        for a, b in ((0, 1), (n - 1, n - 1), (rng.randrange(n), rng.randrange(n))):
            out = arr([0] * nw)
            for r_bits in (hscm_r(bits, 16), PKA_R_ENGINE):
                assert c("pka_modmul", out, num(a, nw), num(b, nw), num(n, nw), bits, r_bits) == 0
                assert val(out) == a * b % n
        exps = (0, 1, (1 << bits) - 1, rng.getrandbits(bits))            # all < 2^bits: MODEXP_CT's length
        for base, e in zip((2, n - 1, rng.randrange(n), rng.randrange(n)), exps):
            eb = max(1, e.bit_length())
            out = arr([0] * nw)
            assert c("pka_modexp", out, num(base, nw), num(e, nwords(eb)), eb, num(n, nw), bits, PKA_R_ENGINE) == 0
            assert val(out) == pow(base, e, n), (n, base, e)
            # MODEXP_CT: the exponent as exactly `bits` bits, whatever its value
            assert c("pka_modexp_ct", out, num(base, nw), num(e, nw), bits, num(n, nw), bits, PKA_R_ENGINE, None,
                     0) == 0
            assert val(out) == pow(base, e, n)
    out = arr([0, 0])
    n = (1 << 64) - 59
    assert c("pka_modmul", out, num(3, 2), num(5, 2), num(n + 1, 2), 64, 0) == Status.ERR_EVEN_MODULUS
    assert c("pka_modexp", out, num(3, 2), num(5, 1), 3, num(n - 1, 2), 64, 0) == Status.ERR_EVEN_MODULUS
    # MONT_PARAMS with r > MaxLen + 256
    assert c("pka_modexp", out, num(3, 2), num(5, 1), 3, num(n, 2), 64, 4096) == Status.ERR_LENGTH


def test_c_modexp_ct_checked_with_e(c: CDriver) -> None:
    """MODEXP_CT with e_pub: an RSA-shaped 64-bit key (two 32-bit primes), s = m^d released after
    s^e == m; a wrong e: PKA_ERR_FAULT, nothing released."""
    rng = random.Random(SEED + 2)
    p, q = (int(gmpy2.next_prime(rng.getrandbits(32) | 3 << 30)) for _ in range(2))
    n, e = p * q, 65537
    d = pow(e, -1, (p - 1) * (q - 1) // int(gmpy2.gcd(p - 1, q - 1)))
    bits = n.bit_length()
    nw = nwords(bits)
    m = rng.randrange(n)
    out = arr([0] * nw)
    assert c("pka_modexp_ct", out, num(m, nw), num(d, nw), bits, num(n, nw), bits, PKA_R_ENGINE, num(e, 1), 17) == 0
    assert val(out) == pow(m, d, n)
    out = arr([0x5A5A5A5A] * nw)
    assert c("pka_modexp_ct", out, num(m, nw), num(d, nw), bits, num(n, nw), bits, PKA_R_ENGINE,
             num(e + 2, 1), 17) == Status.ERR_FAULT
    assert list(out) == [0x5A5A5A5A] * nw                         # the driver read nothing
    # e_pub longer than the modulus: the driver's length check
    assert c("pka_modexp_ct", out, num(m, nw), num(d, nw), bits, num(n, nw), bits, PKA_R_ENGINE,
             num(e, 3), 96) == Status.ERR_LENGTH


def test_c_modinv(c: CDriver) -> None:
    rng = random.Random(SEED + 3)
    n = rns.CURVES[CURVE].order                                   # a 64-bit prime
    p40 = int(gmpy2.next_prime((1 << 39) + 12345))
    for mod in (n, p40):
        bits = mod.bit_length()
        nw = nwords(bits)
        for a in (1, 2, mod - 1, rng.randrange(1, mod)):
            out = arr([0] * nw)
            for r_bits in (hscm_r(bits, 16), PKA_R_ENGINE):
                assert c("pka_modinv", out, num(a, nw), num(mod, nw), bits, r_bits) == 0
                assert val(out) == pow(a, -1, mod), (mod, a)
    out = arr([0, 0])
    assert c("pka_modinv", out, num(0, 2), num(n, 2), 64, PKA_R_ENGINE) == Status.ERR_NO_INVERSE
    assert c("pka_modinv", out, num(n, 2), num(n, 2), 64, PKA_R_ENGINE) == Status.ERR_OPERAND_RANGE
    composite = int(gmpy2.next_prime(1 << 32)) * int(gmpy2.next_prime(3 << 30))
    assert c("pka_modinv", out, num(5, 2), num(composite, 2), 64, PKA_R_ENGINE) == Status.ERR_NO_INVERSE
    assert c("pka_modinv", out, num(5, 2), num(n + 1, 2), 64, 0) == Status.ERR_EVEN_MODULUS


def test_c_mul_modred(c: CDriver) -> None:
    rng = random.Random(SEED + 4)
    for bits in (64, 40, 36):
        nw = nwords(bits)
        top = (1 << bits) - 1
        for a, b in ((0, top), (top, top), (1, rng.getrandbits(bits)), (rng.getrandbits(bits), rng.getrandbits(bits))):
            lo, hi = arr([0] * nw), arr([0] * nw)
            assert c("pka_mul", lo, hi, num(a, nw), num(b, nw), bits) == 0
            assert val(lo) | val(hi) << (32 * nw) == a * b, (bits, a, b)
    for n, bits in _moduli(rng):
        nw = nwords(bits)
        for omega in (0, n - 1, n * n - 1, (1 << (2 * bits)) - 1, rng.getrandbits(2 * bits)):
            out = arr([0] * nw)
            low, high = omega & ((1 << (32 * nw)) - 1), omega >> (32 * nw)
            assert c("pka_modred", out, num(low, nw), num(high, nw), num(n, nw), bits, PKA_R_ENGINE) == 0
            assert val(out) == omega % n, (n, omega)
    out = arr([0, 0])
    assert c("pka_modred", out, num(3, 2), num(0, 2), num(1 << 63, 2), 64, 0) == Status.ERR_EVEN_MODULUS
    assert c("pka_mul", out, arr([0, 0]), num(3, 2), num(5, 2), 65) == Status.ERR_LENGTH             # > MaxLen


def test_c_ecc_check(c: CDriver) -> None:
    cv = rns.CURVES[CURVE]
    p, nw = cv.p, 2
    g = (cv.gx, cv.gy)
    q = rns.affine_mul(cv, 0x1234_5678_9ABC_DEF0, g)
    assert q is not None

    def check(x: int, y: int, r_bits: int = PKA_R_ENGINE) -> int:
        return c("pka_ecc_check", num(x, nw), num(y, nw), num(cv.a % p, nw), num(cv.b, nw), num(p, nw), 64, r_bits)

    assert check(*g) == 0 and check(*q) == 0 and check(*g, hscm_r(64, 16)) == 0
    assert check(g[0], p - g[1]) == 0                             # -G
    assert check(g[0], g[1] + 1) == Status.ERR_NOT_ON_CURVE
    assert check(q[0] ^ 1, q[1]) == Status.ERR_NOT_ON_CURVE
    assert check(p, g[1]) == Status.ERR_OPERAND_RANGE             # x = p
    assert check(g[0], p) == Status.ERR_OPERAND_RANGE             # y = p


def test_c_montmul(c: CDriver) -> None:
    """MONTMUL on hscm with N' from pka_hscm_nprime (= pka.model.hscm's nt): the exact value of the model's
    Algorithm 3 (hscm's output range, nbits + 2w + 1 bits), = a b 2^-r mod n; both the engine named and
    the automatic pick. Errors: an even n, an engine the build lacks, pka_hscm_nprime's checks."""
    rng = random.Random(SEED + 5)
    for n, bits in _moduli(rng):
        nw, rw = nwords(bits), nwords(bits + 2 * 16 + 1)
        nprime = arr([0] * nw)
        assert c("pka_hscm_nprime", nprime, num(n, nw), bits, c.dev.hscm_w) == 0
        assert val(nprime) == hscm.modulus(n, 16).nt
        for engine in (ENGINE_HSCM, 0):
            for a, b in ((0, 5), (n - 1, n - 1), (1, rng.randrange(n)), (rng.randrange(n), rng.randrange(n))):
                out = arr([0] * rw)
                assert c("pka_montmul", out, rw, num(a, nw), num(b, nw), num(n, nw), bits, nprime, engine) == 0
                want = hscm.montmul_op(a, b, n, HSCM).result
                assert val(out) == want, (n, a, b)
                assert want % n == a * b * pow(2, -hscm_r(bits, 16), n) % n
    for n, bits in _moduli(rng):                                 # N' = 2^(-2w) mod n (other w: no model at 64 bits)
        nw = nwords(bits)
        for w in (16, 32, 64):
            nprime = arr([0] * nw)
            assert c("pka_hscm_nprime", nprime, num(n, nw), bits, w) == 0 and val(nprime) == pow(2, -2 * w, n)
    out = arr([0] * 4)
    n = (1 << 64) - 59
    assert c("pka_montmul", out, 4, num(3, 2), num(5, 2), num(n + 1, 2), 64, num(1, 2), ENGINE_HSCM) == \
        Status.ERR_EVEN_MODULUS
    assert c("pka_montmul", out, 4, num(3, 2), num(5, 2), num(n, 2), 64, None, ENGINE_MWR4) == Status.ERR_UNSUPPORTED
    assert c("pka_montmul", out, 4, num(3, 2), num(5, 2), num(n, 2), 64, None, 1) == Status.ERR_UNSUPPORTED   # csa2
    assert c("pka_hscm_nprime", arr([0, 0]), num(n + 1, 2), 64, 16) == Status.ERR_EVEN_MODULUS
    assert c("pka_hscm_nprime", arr([0, 0]), num(n, 2), 64, 8) == Status.ERR_PARAM


def test_c_rsa_crt_errors(c: CDriver) -> None:
    """RSA_CRT's results are checked on a 512-bit hscm build (tests/test_top_sw.py); here the errors:
    p and q of different word counts (the driver) and primes too short for hscm (the hardware)."""
    def key(n: int, p: int, q: int) -> tuple[RsaKey, list[Any]]:
        keep = [num(n, 2), num(p, nwords(p.bit_length())), num(q, nwords(q.bit_length())), num(1, 2), num(1, 2),
                num(1, 2), num(65537, 1)]
        k = RsaKey(keep[0], n.bit_length(), keep[1], p.bit_length(), keep[2], q.bit_length(), keep[3], keep[4],
                   keep[5], keep[6], 17)
        return k, keep

    k, keep = key(0xFFFF_FFFB * 0x1_0000_000F, 0x1_0000_000F, 0xFFFF_FFFB)
    assert c("pka_rsa_load_key", ctypes.byref(k)) == Status.ERR_LENGTH
    p, q = 0xFFFF_FFFB, 0xFFFF_FFBF
    k, keep = key(p * q, p, q)
    assert c("pka_rsa_load_key", ctypes.byref(k)) == 0
    s = arr([0, 0])
    assert c("pka_rsa_crt", s, num(12345, 2), ctypes.byref(k), 0) == Status.ERR_LENGTH   # 32-bit p < hscm's 36
    del keep
    assert c("pka_zeroize") == 0


# ---- rns: ECC_MUL with every ARG flag, ECDSA_SIGN ---------------------------------------------------------

class RnsCurve:
    """A pka_rns_curve_t for a curve, its tables made by pka.model.rns (the host's job by design)."""

    def __init__(self, p: int, w: int, inputs: Callable[[int], dict[int, int]], elen: int, order: int,
                 blind_bits: int) -> None:
        self.ctx = ctx = rns.mm_context(p, w)
        self.v = 2 * ctx.n
        pw = nwords(p.bit_length())
        table = arr([x for row in ctx.table for x in row])
        full = {rns.ONE: 1, rns.CA: 0, rns.CB2: 0, rns.CM4B: 0, **inputs(ctx.m)}   # inputs(M): the curve's
        consts = arr([x for r in (rns.ONE, rns.CA, rns.CB2, rns.CM4B) for x in self.vec(full[r])])
        self.keep = [table, consts, self.vec_arr(ctx.m * ctx.m % p), num(p - 2, pw), num(order, pw)]
        self.s = Curve(p.bit_length(), elen, ctx.n, p & 0xFFFFFFFF, table, len(table), self.keep[2], consts,
                       self.keep[3], self.keep[4] if order else None, blind_bits)

    def vec(self, x: int) -> list[int]:
        b, bp = self.ctx.to_rns(x)
        return list(b) + list(bp)

    def vec_arr(self, x: int) -> ctypes.Array[ctypes.c_uint32]:
        return arr(self.vec(x))

    def back(self, words: Any) -> int:
        n = self.ctx.n
        return int(self.ctx.from_rns((tuple(words[:n]), tuple(words[n:])))) % int(self.ctx.p)


def test_c_ecc_mul_rns_flags(c: CDriver) -> None:
    """ECC_MUL through pka_ecc_mul_rns (the checked ladder) and pka_ecc_mul_rns_ex with each flag, against
    the model's affine arithmetic, COMPUTE as pka.rtl.top.ecc_compute / pka.model.rns.ecc_cycles say."""
    cv = rns.CURVES[CURVE]
    rc = RnsCurve(cv.p, RNS_W, lambda m: rns.ecc_inputs(cv, cv.gx, m), 64, cv.order, rns.blind_bits(cv))
    gx, gy = rc.vec_arr(cv.gx), rc.vec_arr(cv.gy)
    rx, ry = arr([0] * rc.v), arr([0] * rc.v)
    rng = random.Random(SEED + 6)
    for i, k in enumerate((1, cv.order - 1, rng.randrange(1, cv.order))):
        want = rns.affine_mul(cv, k, (cv.gx, cv.gy))
        assert want is not None
        blind = i % 2 == 0
        c.blinding(blind)
        assert c("pka_ecc_mul_rns", rx, ry, num(k, 2), gx, gy, ctypes.byref(rc.s)) == 0
        assert (rc.back(rx), rc.back(ry)) == want, k
        assert c.dev.compute == ecc_compute(CURVE, RNS_W, blind), k
    c.blinding(False)
    k = 0x0123_4567_89AB_CDEF
    want = rns.affine_mul(cv, k, (cv.gx, cv.gy))
    assert want is not None
    # flags 0 = pka_ecc_mul_rns
    assert c("pka_ecc_mul_rns_ex", rx, ry, num(k, 2), gx, gy, ctypes.byref(rc.s), 0, None) == 0
    assert (rc.back(rx), rc.back(ry)) == want
    # ARG[0]: x only (y not written, R_HI = 0 and not read)
    assert c("pka_ecc_mul_rns_ex", rx, None, num(k, 2), gx, None, ctypes.byref(rc.s), PKA_ECC_X_ONLY, None) == 0
    assert rc.back(rx) == want[0]
    assert c.dev.compute == rns.ecc_cycles(cv, RNS_W, checked=False)
    assert c.sim.read_words(slot_addr(Slot.R_HI), rc.v) == [0] * rc.v
    # ARG[1]: a random projective Z from the caller's words (blinding off: the sequencer adds none)
    z = arr([rng.getrandbits(32) for _ in range(rc.v)])
    for flags, checked in ((PKA_ECC_RANDOM_Z, True), (PKA_ECC_RANDOM_Z | PKA_ECC_X_ONLY, False)):
        assert c("pka_ecc_mul_rns_ex", rx, ry, num(k, 2), gx, gy, ctypes.byref(rc.s), flags, z) == 0
        assert rc.back(rx) == want[0] and (not checked or rc.back(ry) == want[1])
        assert c.dev.compute == rns.ecc_cycles(cv, RNS_W, checked=checked, random_z=True), flags
    assert c("pka_ecc_mul_rns_ex", rx, ry, num(k, 2), gx, gy, ctypes.byref(rc.s), PKA_ECC_RANDOM_Z,
             arr([0] * rc.v)) == Status.ERR_INFINITY               # Z = 0
    # ARG[2] reaches the engine: X25519's ladder refuses any p but 2^255 - 19 (see test_c_x25519)
    assert c("pka_ecc_mul_rns_ex", rx, None, num(k, 2), gx, None, ctypes.byref(rc.s), PKA_ECC_X25519,
             None) == Status.ERR_UNSUPPORTED
    # errors
    off = rc.vec_arr(cv.gy + 1)
    assert c("pka_ecc_mul_rns", rx, ry, num(k, 2), gx, off, ctypes.byref(rc.s)) == Status.ERR_NOT_ON_CURVE
    assert c("pka_ecc_mul_rns_ex", rx, ry, num(k, 2), gx, gy, ctypes.byref(rc.s), 1 << 3, None) == Status.ERR_PARAM
    assert c("pka_ecc_mul_rns", rx, ry, num(cv.order, 2), gx, gy, ctypes.byref(rc.s)) == Status.ERR_INFINITY  # n G
    rc.s.blind_bits = 96
    assert c("pka_ecc_mul_rns", rx, ry, num(k, 2), gx, gy, ctypes.byref(rc.s)) == Status.ERR_UNSUPPORTED
    rc.s.blind_bits, channels = 64, rc.s.channels
    rc.s.channels = c.dev.slot_words
    assert c("pka_ecc_mul_rns", rx, ry, num(k, 2), gx, gy, ctypes.byref(rc.s)) == PKA_ERR_TOO_BIG
    rc.s.channels = channels


def test_c_ecdsa_sign(c: CDriver) -> None:
    """pka_ecdsa_sign with a given nonce (exact r and s) and with the accelerator's own nonce (nonce
    NULL: a signature that verifies, by the model's affine arithmetic); the error paths. The
    operation itself is tested in tests/test_top_ecdsa.py."""
    cv = rns.CURVES[CURVE]
    n = cv.order
    rc = RnsCurve(cv.p, RNS_W, lambda m: rns.ecc_inputs(cv, cv.gx, m), 64, n, rns.blind_bits(cv))
    gx, gy = rc.vec_arr(cv.gx), rc.vec_arr(cv.gy)
    r_out, s_out = arr([0, 0]), arr([0, 0])
    d, h, k = 0x1357_9BDF_2468_ACE0, 0x0F0F_F0F0_1234_5678, 0x7654_3210_FEDC_BA98
    assert c("pka_ecdsa_sign", r_out, s_out, num(d, 2), num(h, 2), num(k, 2), num(cv.p, 2), gx, gy,
             ctypes.byref(rc.s)) == 0
    pt = rns.affine_mul(cv, k, (cv.gx, cv.gy))
    assert pt is not None
    r = pt[0] % n
    assert (val(r_out), val(s_out)) == (r, pow(k, -1, n) * (h + r * d) % n)
    assert c("pka_ecdsa_sign", r_out, s_out, num(d, 2), num(h, 2), None, num(cv.p, 2), gx, gy,
             ctypes.byref(rc.s)) == 0                                # the entropy port's nonce
    r2, s2 = val(r_out), val(s_out)
    w = pow(s2, -1, n)
    q = rns.affine_mul(cv, d, (cv.gx, cv.gy))
    pt = rns.affine_add(cv, rns.affine_mul(cv, h * w % n, (cv.gx, cv.gy)), rns.affine_mul(cv, r2 * w % n, q))
    assert 0 < r2 < n and pt is not None and pt[0] % n == r2
    assert c("pka_ecdsa_sign", r_out, s_out, num(0, 2), num(h, 2), num(k, 2), num(cv.p, 2), gx, gy,
             ctypes.byref(rc.s)) == Status.ERR_OPERAND_RANGE       # d = 0
    rc.s.elen = 63
    assert c("pka_ecdsa_sign", r_out, s_out, num(d, 2), num(h, 2), num(k, 2), num(cv.p, 2), gx, gy,
             ctypes.byref(rc.s)) == Status.ERR_LENGTH              # the driver: elen != pbits


@pytest.fixture(scope="module")
def rns256() -> Iterator[TopSim]:
    with TopSim(RNS256) as sim:
        yield sim


def test_c_x25519(lib: ctypes.CDLL, rns256: TopSim) -> None:
    """PKA_ECC_X25519 on the 256-bit rns build: RFC 7748 section 5.2's first vector (u(k P) bytes exact,
    also checked by `cryptography`), COMPUTE = pka.model.rns.x25519_cycles; with PKA_ECC_RANDOM_Z the
    same bytes."""
    from cryptography.hazmat.primitives.asymmetric import x25519

    from pka.proto.x25519 import LADDER_STEPS, decode_scalar, decode_u
    k_hex = "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4"
    u_hex = "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c"
    out_hex = "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"
    ref = x25519.X25519PrivateKey.from_private_bytes(bytes.fromhex(k_hex)).exchange(
        x25519.X25519PublicKey.from_public_bytes(bytes.fromhex(u_hex)))
    assert ref.hex() == out_hex
    c = CDriver(lib, rns256)
    c.blinding(False)
    p = rns.X25519_P
    k, u = decode_scalar(bytes.fromhex(k_hex)), decode_u(bytes.fromhex(u_hex))
    rc = RnsCurve(p, 32, lambda m: rns.x25519_inputs(u, m), LADDER_STEPS, 0, 0)
    rx = arr([0] * rc.v)
    rng = random.Random(SEED + 7)
    for flags, z in ((PKA_ECC_X25519, None), (PKA_ECC_X25519 | PKA_ECC_RANDOM_Z,
                                              arr([rng.getrandbits(32) for _ in range(rc.v)]))):
        assert c("pka_ecc_mul_rns_ex", rx, None, num(k, 8), rc.vec_arr(u), None, ctypes.byref(rc.s), flags, z) == 0
        assert rc.back(rx).to_bytes(32, "little").hex() == out_hex, flags
        assert c.dev.compute == rns.x25519_cycles(32, random_z=z is not None)
