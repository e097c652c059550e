"""The registry of `make test-full`: one Case per cycle figure of the README (pka.testfull.readme).

Each case runs its configuration on the simulated RTL (`rtl`) or on the golden models alone
(`model`: no simulation, to check the registry against the README in seconds), checks the result
against pow() or `cryptography`, and returns the measured cycles and the model's prediction; the
runner asserts measured == model == the README's figure.

Path: a figure is proven once, through pka_top (pka.driver, the AXI4-Lite bus) where pka_top runs
the operation and its COMPUTE register is the figure; else on the engine's harness
(pka.rtl.<engine>): SBMM is not in pka_top, and the blinded ECC and the CRT-RSA figures are the
engine's count (pka_top's COMPUTE adds the sequencer's own work: the random Z words and the
blinded scalar, or the key-independent check s^e mod n). Those cases also run the operation through
pka_top and assert its COMPUTE against pka_top's model (pka.rtl.top.ecc_compute / crt_compute).

Operands come from random.Random seeded with the case's name (reproducible); the hscm modexp row
is data dependent (sliding window) and replays bench/hscm.py's generator (seed 4) to get the
README's operands. `seconds` is an estimate of the RTL run from bench/results/*.json (sim_seconds
or wall_s, Verilator build excluded) where one is recorded.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable

from pka.testfull.readme import value

R_CSA2 = "results: csa2 | 1024-bit modexp (K = H = 1024), `paper` variant"
R_CSA2F = "results: csa2 | same, `fast` variant"
R_MWR4 = "results: mwr4 | radix 4 vs radix 2: 256-bit product at equal LUT4; 1024-bit product at NS = 8, w = 16"
R_MM = "results: rns | one modular multiplication, MM, l = 192 / 384 / 512"
R_SBMM = "results: rns | one SBMM on n/2 rowers with its Compress, l = 192 / 384 / 512"
R_P256 = "results: rns | P-256 k*G, affine x and y, result checked on the curve"
R_VICTOR = "results: victor | efficiency at n = 512, bits per 1000 cycles, k = 4 / 5"
R_HSCM_MM = "results: hscm | one 1024-bit Montgomery product, 16 / 32 PEs"
R_HSCM_MM2 = "results: hscm | one 2048-bit product, 32 PEs"
R_HSCM_KW = ("results: hscm | one 1024-bit product with k = 32-bit digits on the same 16-bit PEs (`k=32`), "
             "16 / 32 PEs")
R_HSCM_EXP = "results: hscm | 1024-bit modexp, sliding window 4 / 6, 16 PEs"
R_CRT2048 = "results: hscm | CRT-RSA-2048, 32 PEs (2 x 16), constant time, fixed window 4 / 6"
R_CRT4096 = "results: hscm | CRT-RSA-4096, 64 PEs, constant time (fixed window 6)"
W_P256 = "where: P-256 k*G / ECDH"
W_P384 = "where: P-384 k*G / ECDH"
W_X25519 = "where: X25519"
W_SIGN256 = "where: ECDSA P-256 sign"
W_VERIFY256 = "where: ECDSA P-256 verify"
W_SIGN384 = "where: ECDSA P-384 sign"
W_RSA = "where: RSA-2048 CRT sign (any key; blinding off)"


@dataclass
class Outcome:
    """What a case measured: `cycles` (the figure's count on the RTL, or the model's under
    backend "model"), `model` (the golden model's prediction), `detail` (what else was checked)."""

    cycles: int | None
    model: int | None
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Case:
    name: str
    figure: str                       # as the README writes it: "370,533", "43", "3.846"
    rows: tuple[str, ...]             # the README rows (pka.testfull.readme) the figure stands in
    path: str                         # "pka_top", "engine", or "engine + pka_top"
    run: Callable[[str], Outcome]     # backend "rtl" or "model"
    seconds: float | None = None      # RTL run time recorded by a benchmark (estimate)
    note: str = ""

    def figure_cycles(self, cycles: int) -> float:
        """The quantity the README prints for this many cycles (cycles, or victor's efficiency)."""
        if "." in self.figure:
            return round(512 * 1000 / cycles, 3)
        return cycles

    def check(self, out: Outcome) -> None:
        assert out.cycles is not None and out.model is not None, f"{self.name}: no cycle count"
        assert out.cycles == out.model, f"{self.name}: cycles {out.cycles:,} != model {out.model:,}"
        got = self.figure_cycles(out.cycles)
        assert got == value(self.figure), f"{self.name}: {got} != README {self.figure}"


class CaseError(AssertionError):
    pass


def _rng(name: str) -> random.Random:
    return random.Random(f"pka test-full {name}")


def _odd(rng: random.Random, bits: int) -> int:
    return rng.getrandbits(bits) | 1 | (1 << (bits - 1))


def _require(ok: bool, what: str) -> None:
    if not ok:
        raise CaseError(what)


def _no_blinding(engine: str, params: dict[str, Any], bits: int) -> Any:
    """The cached pka_top session of (engine, params, bits) with blinding off (the README's
    unblinded figures); the caller restores it with set_blinding(True)."""
    from pka.driver import session
    p = session(engine, params, bits)
    p.set_blinding(False)
    return p


# ---- MODEXP through pka_top: csa2, victor, hscm ---------------------------------------------------

def _modexp_top(engine: str, params: dict[str, Any], base: int, exp: int, mod: int, backend: str) -> Outcome:
    import importlib
    model = importlib.import_module(f"pka.model.{engine}")
    mdl = model.modexp(base, exp, mod, params)
    _require(mdl.result == pow(base, exp, mod), "model result != pow()")
    if backend == "model":
        return Outcome(mdl.cycles, mdl.cycles)
    from pka.driver import backend as top
    r = top(engine).modexp(base, exp, mod, params)
    _require(r.result == pow(base, exp, mod), f"{engine} MODEXP through pka_top: result != pow()")
    return Outcome(r.cycles, mdl.cycles, {"wall_cycles": r.detail.get("wall_cycles"),
                                          "mont_params_cycles": r.detail.get("mont_params_cycles")})


def csa2_modexp(variant: str) -> Callable[[str], Outcome]:
    def run(backend: str) -> Outcome:
        rng = _rng(f"csa2-{variant}")
        mod = _odd(rng, 1024)
        base, exp = rng.randrange(mod), rng.getrandbits(1024) | (1 << 1023)   # H = 1024
        return _modexp_top("csa2", {"variant": variant}, base, exp, mod, backend)
    return run


def victor_efficiency(k: int) -> Callable[[str], Outcome]:
    """n = 512, a 512-bit exponent: efficiency = 512 bits per (cycles / 1000) (bench/victor.py)."""
    def run(backend: str) -> Outcome:
        rng = _rng(f"victor-k{k}")
        mod = _odd(rng, 512)
        base, exp = rng.randrange(mod), rng.getrandbits(512) | (1 << 511)
        return _modexp_top("victor", {"k": k, "delta": 10, "eps": 11}, base, exp, mod, backend)
    return run


def hscm_modexp_window(window: int) -> Callable[[str], Outcome]:
    """bench/hscm.py's `exp` rows (16 PEs, window 4 and 6, the same operands): the sliding window's
    count depends on the exponent, so its generator is replayed (seed 4: the `mm` group's draws,
    then the modulus, base and exponent of the `exp` group)."""
    def run(backend: str) -> Outcome:
        rng = random.Random(4)
        for n in (1024, 1024, 2048):               # the mm group: a modulus and two operands each
            m = rng.getrandbits(n) | 1 | (1 << (n - 1))
            rng.randrange(m), rng.randrange(m)
        mod = rng.getrandbits(1024) | 1 | (1 << 1023)
        base = rng.randrange(mod)
        exp = rng.getrandbits(1024) | (1 << 1023)
        return _modexp_top("hscm", {"pes": 16, "w": 16, "window": window, "ladder": 0}, base, exp, mod, backend)
    return run


# ---- one Montgomery product through pka_top's MONTMUL: hscm, mwr4 --------------------------------

def hscm_product(bits: int, pes: int) -> Callable[[str], Outcome]:
    def run(backend: str) -> Outcome:
        from pka.model import hscm as M
        w = 16
        rng = _rng(f"hscm-mm-{bits}-{pes}")
        mod = _odd(rng, bits)
        a, b = rng.randrange(mod), rng.randrange(mod)
        geo = M.Geometry(bits, w)
        want = M.montmul(a, b, M.modulus(mod, w))
        _require((want << geo.r_bits) % mod == a * b % mod, "model: a b R^-1 mod N")
        cyc = M.montmul_cycles(geo, pes)
        if backend == "model":
            return Outcome(cyc, cyc)
        params = {"pes": pes, "w": w, "window": 0, "ladder": 0}
        from pka.driver import session
        r = session("hscm", params, bits).montmul(a, b, mod, "hscm", params)
        _require(r.result == want, "hscm MONTMUL through pka_top: result != the model's a b R^-1")
        _require((r.result << geo.r_bits) % mod == a * b % mod, "hscm MONTMUL: result R != a b mod N")
        return Outcome(r.cycles, cyc)
    return run


def hscm_product_kw(pes: int) -> Callable[[str], Outcome]:
    """One 1024-bit product with k = 32-bit digits on 16-bit PEs, on the engine (pka_top builds hscm
    with k = w)."""
    def run(backend: str) -> Outcome:
        from pka.model import hscm as M
        rng = _rng(f"hscm-mm-1024-{pes}-k32")
        mod = _odd(rng, 1024)
        a, b = rng.randrange(mod), rng.randrange(mod)
        params = {"pes": pes, "w": 16, "k": 32, "window": 0, "ladder": 0}
        mdl = M.montmul_op(a, b, mod, params)
        _require((mdl.result << M.Geometry(1024, 32, 16).r_bits) % mod == a * b % mod, "model: a b R^-1 mod N")
        if backend == "model":
            return Outcome(mdl.cycles, mdl.cycles)
        from pka.rtl import hscm as R
        r = R.montmul(a, b, mod, params)
        _require(r.result == mdl.result, "hscm k = 32 MONTMUL (engine): result != the model's")
        return Outcome(r.cycles, mdl.cycles)
    return run


def mwr4_product(radix: int) -> Callable[[str], Outcome]:
    def run(backend: str) -> Outcome:
        from pka.model import mwr4
        params: dict[str, Any] = {"radix": radix, "ns": 8, "w": 16}
        rng = _rng(f"mwr4-r{radix}")
        mod = _odd(rng, 1024)
        a, b = rng.randrange(mod), rng.randrange(mod)
        mdl = mwr4.montmul(a, b, mod, params)
        rbits = mwr4.geometry(1024, mwr4.config(params)).r_bits
        _require((mdl.result << rbits) % mod == a * b % mod, "model: a b R^-1 mod N")
        if backend == "model":
            return Outcome(mdl.cycles, mdl.cycles)
        from pka.driver import session
        r = session("mwr4", params, 1024).montmul(a, b, mod, "mwr4", params)
        _require((r.result << rbits) % mod == a * b % mod, "mwr4 MONTMUL through pka_top: result R != a b mod N")
        return Outcome(r.cycles, mdl.cycles)
    return run


# ---- rns: MM through pka_top, SBMM on the engine --------------------------------------------------

RNS_W = {192: 16, 384: 32, 512: 32}          # the slides' word sizes (bench/rns.py PAPER_W)


def rns_mm(l: int) -> Callable[[str], Outcome]:
    """One MM (one Montgomery reduction, as the slides count it: MONTMUL) on an l-bit prime, and the
    MODMUL of the same operands for the result, both through pka_top."""
    def run(backend: str) -> Outcome:
        import gmpy2

        from pka.model import rns
        w = RNS_W[l]
        rng = _rng(f"rns-mm-{l}")
        p = int(gmpy2.next_prime(rng.getrandbits(l) | (1 << (l - 1))))
        a, b = rng.randrange(p), rng.randrange(p)
        params = {"w": w, "alg": "mm"}
        mdl = rns.modmul(a, b, p, params)
        _require(mdl.result == a * b % p, "model result != a b mod p")
        if backend == "model":
            return Outcome(mdl.cycles, mdl.cycles)
        from pka.driver import session
        from pka.regs import Op
        pk = session("rns", params, l)
        r = pk.modmul(a, b, p, "rns", params=params)
        _require(r.result == a * b % p, "rns MODMUL through pka_top: result != a b mod p")
        ctx = rns.mm_context(p, w)
        one = pk.rns_run(Op.MONTMUL, ctx, {rns.IN_A: a, rns.IN_B: b})
        return Outcome(one.compute, mdl.cycles, {"modmul_compute": r.cycles, "rowers": ctx.n})
    return run


def _sb_ctx(l: int) -> Any:
    from pka.model import rns
    return rns.sbmm_context(rns.CURVES[f"sbmm{l}"].p, RNS_W[l])


def rns_sbmm_chain(l: int) -> Callable[[str], Outcome]:
    """A product in a chain of squarings: (cycles of a^(2^40) - cycles of a^(2^8)) / 32 on the SBMM
    build (bench/rns.py bench_chains), and a single product's latency, both the same figure."""
    def run(backend: str) -> Outcome:
        from pka.model import rns
        ctx = _sb_ctx(l)
        rng = _rng(f"rns-sbmm-chain-{l}")
        a, b = rng.randrange(ctx.p), rng.randrange(ctx.p)
        params = {"w": ctx.w, "alg": "sbmm"}
        times = rns.sb_times(ctx.na, ctx.nb)
        want = [rns.modexp(a, 1 << e, ctx.p, params) for e in (8, 40)]
        assert want[0].cycles is not None and want[1].cycles is not None
        mdl = (want[1].cycles - want[0].cycles) // 32
        _require(mdl == times["total"], "model: chained product != single product latency")
        if backend == "model":
            return Outcome(mdl, mdl)
        from pka.rtl import rns as rtl
        got = [rtl.sb_modexp(a, 1 << e, ctx) for e in (8, 40)]
        for e, g, m in zip((8, 40), got, want):
            _require(g.result == pow(a, 1 << e, ctx.p), f"SBMM a^(2^{e}): result != pow()")
            _require(g.cycles == m.cycles, f"SBMM a^(2^{e}): {g.cycles} != model {m.cycles}")
        assert got[0].cycles is not None and got[1].cycles is not None
        _require((got[1].cycles - got[0].cycles) % 32 == 0, "SBMM chain: not a whole number of cycles a product")
        one = rtl.sb_modmul(a, b, ctx)
        _require(one.result == a * b % ctx.p, "SBMM MODMUL: result != a b mod p")
        _require(one.cycles == times["total"], f"SBMM single product {one.cycles} != {times['total']}")
        return Outcome((got[1].cycles - got[0].cycles) // 32, mdl, {"single_product": one.cycles})
    return run


def rns_sbmm_independent(l: int) -> Callable[[str], Outcome]:
    """Independent products: one SBMM every `issue` cycles, its Compress overlapped with the next.
    The engine has no command that issues independent products back to back, so this figure is the
    model's issue interval: the case runs a single product on the RTL and asserts its latency is
    the model's issue + Compress tail (the measured cycles reported are that latency minus the
    model's tail)."""
    def run(backend: str) -> Outcome:
        from pka.model import rns
        ctx = _sb_ctx(l)
        rng = _rng(f"rns-sbmm-ind-{l}")
        a, b = rng.randrange(ctx.p), rng.randrange(ctx.p)
        times = rns.sb_times(ctx.na, ctx.nb)
        _require(times["issue"] + times["tail"] == times["total"], "model: issue + tail != total")
        if backend == "model":
            return Outcome(times["issue"], times["issue"])
        from pka.rtl import rns as rtl
        one = rtl.sb_modmul(a, b, ctx)
        _require(one.result == a * b % ctx.p, "SBMM MODMUL: result != a b mod p")
        assert one.cycles is not None
        return Outcome(one.cycles - times["tail"], times["issue"],
                       {"single_product": one.cycles, "tail_from_model": times["tail"]})
    return run


# ---- ECC on rns ------------------------------------------------------------------------------------

def _crypto_point(curve: str, k: int) -> tuple[int, int]:
    from cryptography.hazmat.primitives.asymmetric import ec
    c = {"p256": ec.SECP256R1(), "p384": ec.SECP384R1()}[curve]
    pub = ec.derive_private_key(k, c).public_key().public_numbers()
    return pub.x, pub.y


def ecc_top(curve: str) -> Callable[[str], Outcome]:
    """k*G with the checked ECC_MUL through pka_top, blinding off (x and y against `cryptography`)."""
    def run(backend: str) -> Outcome:
        from pka.model import rns
        from pka.rtl.top import ecc_compute
        c = rns.CURVES[curve]
        k = _rng(f"ecc-{curve}").randrange(1, c.order)
        mdl = ecc_compute(curve, 32, blind=False)
        ref = rns.ecc_mul(curve, k, {"w": 32})
        _require((ref.result, ref.detail["y"]) == _crypto_point(curve, k), "model point != cryptography's")
        _require(ref.cycles == mdl, "model: engine count != pka_top's COMPUTE unblinded")
        if backend == "model":
            return Outcome(mdl, mdl)
        from pka.driver import backend as top
        p = _no_blinding("rns", {"w": 32}, c.p.bit_length())
        try:
            r = top("rns").ecc_mul(curve, k, {"w": 32})
        finally:
            p.set_blinding(True)
        _require((r.result, r.detail["y"]) == _crypto_point(curve, k), f"{curve} ECC_MUL through pka_top != cryptography")
        return Outcome(r.cycles, mdl)
    return run


def ecc_blinded(curve: str) -> Callable[[str], Outcome]:
    """k + r n (r of the curve's length, pka.model.rns.blind_bits) and a random projective Z on the engine (bench/rns.py bench_blind):
    the README's blinded figure is the engine's count. Then the same through pka_top with blinding
    on (the sequencer draws r and Z): COMPUTE == pka.rtl.top.ecc_compute(blind=True)."""
    def run(backend: str) -> Outcome:
        from pka.model import rns
        from pka.rtl.top import ecc_compute
        c = rns.CURVES[curve]
        rng = _rng(f"ecc-blind-{curve}")
        ctx = rns.mm_context(c.p, 32)
        k, r = rng.randrange(1, c.order), rng.getrandbits(rns.blind_bits(c))
        z = [rng.getrandbits(32) for _ in range(rns.rz_words(ctx))]
        _, elen = rns.blind_scalar(c, k, r)
        mdl = rns.ecc_cycles(c, 32, elen, True, random_z=True)
        ref = rns.ecc_mul(curve, k, {"w": 32}, r=r, z_words=z)
        _require((ref.result, ref.detail["y"]) == _crypto_point(curve, k), "model point != cryptography's")
        _require(ref.cycles == mdl, "model: ecc_mul != ecc_cycles")
        if backend == "model":
            return Outcome(mdl, mdl, {"pka_top_compute_model": ecc_compute(curve, 32, blind=True)})
        from pka.driver import backend as top
        from pka.driver import session
        from pka.rtl import rns as rtl
        got = rtl.ecc_mul(curve, k, {"w": 32}, r=r, z_words=z)
        _require((got.result, got.detail["y"]) == _crypto_point(curve, k), f"{curve} blinded (engine) != cryptography")
        p = session("rns", {"w": 32}, c.p.bit_length())
        p.set_blinding(True)
        sim: Any = p.bus                          # pka.rtl.top.TopSim: the entropy port's seed
        sim.entropy(rng.getrandbits(64))
        t = top("rns").ecc_mul(curve, k, {"w": 32})
        _require((t.result, t.detail["y"]) == _crypto_point(curve, k), f"{curve} blinded ECC_MUL through pka_top")
        _require(t.cycles == ecc_compute(curve, 32, blind=True),
                 f"{curve} blinded through pka_top: COMPUTE {t.cycles} != {ecc_compute(curve, 32, blind=True)}")
        return Outcome(got.cycles, mdl, {"pka_top_compute": t.cycles})
    return run


def _x25519_ref(scalar: bytes, u: bytes) -> bytes:
    from cryptography.hazmat.primitives.asymmetric import x25519
    return x25519.X25519PrivateKey.from_private_bytes(scalar).exchange(x25519.X25519PublicKey.from_public_bytes(u))


def _x25519_inputs(name: str) -> tuple[bytes, bytes]:
    rng = _rng(name)
    scalar = rng.getrandbits(256).to_bytes(32, "little")
    u = (rng.getrandbits(254) | 1 << 253).to_bytes(32, "little")
    # a u on the curve (a public key): the base point times a scalar, as a peer would send it
    from cryptography.hazmat.primitives.asymmetric import x25519
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    u = x25519.X25519PrivateKey.from_private_bytes(u).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return scalar, u


def x25519_top(backend: str) -> Outcome:
    """X25519 (RFC 7748) through pka_top's ECC_MUL with ARG[2], blinding off, against `cryptography`."""
    from pka.model import rns
    from pka.proto import backend as pb
    from pka.proto import x25519
    scalar, u = _x25519_inputs("x25519")
    mdl = rns.x25519_cycles(32)
    out, res = x25519.x25519(pb.get("rns", "model"), scalar, u, {"w": 32})
    _require(out == _x25519_ref(scalar, u) and res.cycles == mdl, "X25519 model != cryptography or count")
    if backend == "model":
        return Outcome(mdl, mdl)
    p = _no_blinding("rns", {"w": 32}, 255)
    try:
        out, res = x25519.x25519(pb.get("rns", "rtl"), scalar, u, {"w": 32})
    finally:
        p.set_blinding(True)
    _require(out == _x25519_ref(scalar, u), "X25519 through pka_top != cryptography")
    return Outcome(res.cycles, mdl)


def x25519_random_z(backend: str) -> Outcome:
    """X25519's Montgomery ladder (ECC_MUL ARG[2], 255 steps) with a random projective Z on the engine
    (bench_blind)."""
    from pka.model import rns
    from pka.proto import x25519
    rng = _rng("x25519-rz")
    scalar, u = _x25519_inputs("x25519-rz")
    k = x25519.decode_scalar(scalar)
    z = [rng.getrandbits(32) for _ in range(rns.rz_words(rns.mm_context(rns.X25519_P, 32)))]
    mdl = rns.x25519_cycles(32, random_z=True)
    want = int.from_bytes(_x25519_ref(scalar, u), "little")
    ref = rns.x25519_mul(k, x25519.decode_u(u), {"w": 32}, z_words=z)
    _require(ref.result == want and ref.cycles == mdl, "model != cryptography or count")
    if backend == "model":
        return Outcome(mdl, mdl)
    from pka.rtl import rns as rtl
    got = rtl.x25519_mul(k, x25519.decode_u(u), {"w": 32}, z_words=z)
    _require(got.result == want, "X25519 random Z (engine) != cryptography")
    return Outcome(got.cycles, mdl)


# the README's ECDSA_SIGN rows (bench/ecdsa.py): (blinding, W_n made first) -> figure
ECDSA_FIG = {"p256": {(False, False): "149,018", (True, False): "209,916", (False, True): "159,842"},
             "p384": {(False, False): "277,942", (True, False): "426,400", (False, True): "298,786"}}


def ecdsa_sign(curve: str, blind: bool = False, first: bool = False) -> Callable[[str], Outcome]:
    """ECDSA_SIGN through pka_top (ecdsa_config: rns w = 32 and hscm 8 PEs of w = 32; the nonce from the
    entropy port; blinding off or on; W_n already made (the second signature of the session) or, with
    `first`, made by this signature after a ZEROIZE), the signature verified by `cryptography`."""
    def run(backend: str) -> Outcome:
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import ec, utils

        from pka.rtl.top import ECDSA_HSCM, ecdsa_compute
        mdl = ecdsa_compute(curve, 32, ECDSA_HSCM, blind, first)
        if backend == "model":
            return Outcome(mdl, mdl)
        from pka.driver import ecdsa_session
        from pka.model import rns
        c = rns.CURVES[curve]
        crv = {"p256": ec.SECP256R1(), "p384": ec.SECP384R1()}[curve]
        rng = _rng(f"ecdsa-{curve}")
        key = ec.derive_private_key(rng.randrange(1, c.order), crv)
        h = rng.getrandbits(c.order.bit_length())
        p = ecdsa_session(c.p.bit_length())
        p.set_blinding(blind)
        try:
            if first:
                p.zeroize()          # W_n goes: this signature makes it again
            for _ in range(1 if first else 2):
                r = p.ecdsa_sign(curve, key.private_numbers().private_value, h, {"w": 32})
        finally:
            p.set_blinding(True)
        hsh = {"p256": hashes.SHA256(), "p384": hashes.SHA384()}[curve]
        digest = h.to_bytes(c.order.bit_length() // 8, "big")
        key.public_key().verify(utils.encode_dss_signature(r.result, r.detail["s"]), digest,
                                ec.ECDSA(utils.Prehashed(hsh)))
        return Outcome(r.cycles, mdl)
    return run


def ecdsa_verify_p256(backend: str) -> Outcome:
    """ECDSA P-256 verify through pka_top (blinding off): two checked ladders and one host addition;
    the signature is made by `cryptography` and checked by it, a forged one must fail."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

    from pka.proto import backend as pb
    from pka.proto import ecdsa
    from pka.rtl.top import ecc_compute
    rng = _rng("ecdsa-verify-p256")
    d = rng.randrange(1, 2**255)
    key = ec.derive_private_key(d, ec.SECP256R1())
    msg = rng.getrandbits(256).to_bytes(32, "big")
    r, s = decode_dss_signature(key.sign(msg, ec.ECDSA(hashes.SHA256())))
    q = _crypto_point("p256", d)
    mdl = 2 * ecc_compute("p256", 32, blind=False)
    ref = ecdsa.verify(pb.get("rns", "model"), "p256", q, msg, r, s, {"w": 32})
    _require(ref.valid and ref.cycles == mdl, "model: verify invalid or count != two ladders")
    if backend == "model":
        return Outcome(mdl, mdl)
    p = _no_blinding("rns", {"w": 32}, 256)
    try:
        got = ecdsa.verify(pb.get("rns", "rtl"), "p256", q, msg, r, s, {"w": 32})
    finally:
        p.set_blinding(True)
    _require(got.valid, "ECDSA P-256 verify through pka_top: a valid signature rejected")
    assert got.cycles is not None
    return Outcome(got.cycles, mdl, {"ladders": got.detail.get("ladders")})


# ---- CRT-RSA on hscm -------------------------------------------------------------------------------

def rsa_crt(bits: int, pes: int, window: int = 6) -> Callable[[str], Outcome]:
    """RSA_CRT, constant time (fixed window of window - 1 bits: 5 for window 6), a key from pka.proto.rsa
    (seeded): the engine's count is the README's figure (on the engine harness); then two signatures
    through pka_top, blinding off, with COMPUTE == pka.rtl.top.crt_compute (the first with the key's
    setup, the second without: engine + the check s^e mod n)."""
    def run(backend: str) -> Outcome:
        from pka import rsa
        from pka.model import hscm as M
        from pka.rtl.top import crt_compute
        params: dict[str, Any] = {"pes": pes, "w": 16, "window": window, "ladder": 0}
        rng = _rng(f"rsa-crt-{bits}")
        key = rsa.crt_key(rsa.generate_key(bits, seed=rng.getrandbits(32)))
        m = rng.randrange(key.n)
        mdl = M.rsa_crt(m, key, params)
        _require(mdl.result == pow(m, key.d, key.n), "model signature != pow()")
        if backend == "model":
            return Outcome(mdl.cycles, mdl.cycles)
        from pka.driver import backend as top
        from pka.rtl import hscm as R
        got = R.rsa_crt(m, key, params)
        _require(got.result == pow(m, key.d, key.n) and pow(got.result, key.e, key.n) == m,
                 f"CRT-RSA-{bits} (engine): signature != pow()")
        p = _no_blinding("hscm", params, bits)
        p.zeroize()     # the session may hold this key's constants from another case (another window)
        tops = []
        try:
            for i, mm in enumerate((m, rng.randrange(key.n))):
                t = top("hscm").rsa_crt(mm, key, params)
                _require(t.result == pow(mm, key.d, key.n), f"CRT-RSA-{bits} through pka_top: signature != pow()")
                want = crt_compute(mm, key, params, key_setup=i == 0, n_setup=i == 0)
                _require(t.cycles == want, f"CRT-RSA-{bits} through pka_top: COMPUTE {t.cycles} != {want}")
                tops.append(t.cycles)
        finally:
            p.set_blinding(True)
        return Outcome(got.cycles, mdl.cycles, {"pka_top_compute": tops})
    return run


# ---- the registry ---------------------------------------------------------------------------------

CASES: list[Case] = [
    Case("csa2-modexp-1024-paper", "2,116,643", (R_CSA2,), "pka_top", csa2_modexp("paper"), 3495),
    Case("csa2-modexp-1024-fast", "1,089,646", (R_CSA2F,), "pka_top", csa2_modexp("fast"), 787),
    Case("mwr4-mm-1024-radix4", "4,177", (R_MWR4,), "pka_top", mwr4_product(4)),
    Case("mwr4-mm-1024-radix2", "8,337", (R_MWR4,), "pka_top", mwr4_product(2)),
    Case("rns-mm-192", "43", (R_MM,), "pka_top", rns_mm(192)),
    Case("rns-mm-384", "43", (R_MM,), "pka_top", rns_mm(384)),
    Case("rns-mm-512", "51", (R_MM,), "pka_top", rns_mm(512)),
    Case("rns-sbmm-192-chain", "58", (R_SBMM,), "engine", rns_sbmm_chain(192)),
    Case("rns-sbmm-384-chain", "58", (R_SBMM,), "engine", rns_sbmm_chain(384)),
    Case("rns-sbmm-512-chain", "66", (R_SBMM,), "engine", rns_sbmm_chain(512)),
    Case("rns-sbmm-192-independent", "52", (R_SBMM,), "engine", rns_sbmm_independent(192),
         note="the issue interval is the model's (RTL: single product = issue + tail)"),
    Case("rns-sbmm-384-independent", "52", (R_SBMM,), "engine", rns_sbmm_independent(384),
         note="the issue interval is the model's (RTL: single product = issue + tail)"),
    Case("rns-sbmm-512-independent", "60", (R_SBMM,), "engine", rns_sbmm_independent(512),
         note="the issue interval is the model's (RTL: single product = issue + tail)"),
    Case("rns-p256-kG", "136,244", (R_P256, W_P256), "pka_top", ecc_top("p256"), 0.11),
    Case("rns-p256-kG-blinded", "197,020", (R_P256, W_P256), "engine + pka_top", ecc_blinded("p256"), 1.72),
    Case("rns-p384-kG", "254,062", (W_P384,), "pka_top", ecc_top("p384")),
    Case("rns-p384-kG-blinded", "402,158", (W_P384,), "engine + pka_top", ecc_blinded("p384"), 5.03),
    Case("rns-x25519", "101,515", (W_X25519,), "pka_top", x25519_top),
    Case("rns-x25519-random-z", "101,619", (W_X25519,), "engine", x25519_random_z, 1.5),
    Case("rns-ecdsa-p256-sign", ECDSA_FIG["p256"][False, False], (W_SIGN256,), "pka_top", ecdsa_sign("p256"), 2.0),
    Case("rns-ecdsa-p256-sign-blinded", ECDSA_FIG["p256"][True, False], (W_SIGN256,), "pka_top",
         ecdsa_sign("p256", blind=True), 2.0),
    Case("rns-ecdsa-p256-sign-first", ECDSA_FIG["p256"][False, True], (W_SIGN256,), "pka_top",
         ecdsa_sign("p256", first=True), 2.0),
    Case("rns-ecdsa-p384-sign", ECDSA_FIG["p384"][False, False], (W_SIGN384,), "pka_top", ecdsa_sign("p384"), 4.0),
    Case("rns-ecdsa-p384-sign-blinded", ECDSA_FIG["p384"][True, False], (W_SIGN384,), "pka_top",
         ecdsa_sign("p384", blind=True), 4.0),
    Case("rns-ecdsa-p384-sign-first", ECDSA_FIG["p384"][False, True], (W_SIGN384,), "pka_top",
         ecdsa_sign("p384", first=True), 4.0),
    Case("rns-ecdsa-p256-verify", "272,488", (W_VERIFY256,), "pka_top", ecdsa_verify_p256),
    Case("victor-modexp-512-k4", "3.846", (R_VICTOR,), "pka_top", victor_efficiency(4), 234),
    Case("victor-modexp-512-k5", "4.807", (R_VICTOR,), "pka_top", victor_efficiency(5), 187),
    Case("hscm-mm-1024-16pe", "350", (R_HSCM_MM,), "pka_top", hscm_product(1024, 16), 65),
    Case("hscm-mm-1024-32pe", "214", (R_HSCM_MM,), "pka_top", hscm_product(1024, 32), 61),
    Case("hscm-mm-2048-32pe", "670", (R_HSCM_MM2,), "pka_top", hscm_product(2048, 32), 66),
    Case("hscm-mm-1024-16pe-k32", "383", (R_HSCM_KW,), "engine", hscm_product_kw(16)),
    Case("hscm-mm-1024-32pe-k32", "237", (R_HSCM_KW,), "engine", hscm_product_kw(32)),
    Case("hscm-modexp-1024-16pe-w4", "374,017", (R_HSCM_EXP,), "pka_top", hscm_modexp_window(4), 1.05),
    Case("hscm-modexp-1024-16pe-w6", "359,610", (R_HSCM_EXP,), "pka_top", hscm_modexp_window(6), 1.0),
    Case("hscm-rsa-crt-2048-32pe-w4", "405,631", (R_CRT2048,), "engine + pka_top", rsa_crt(2048, 32, 4)),
    Case("hscm-rsa-crt-2048-32pe", "371,790", (R_CRT2048, W_RSA), "engine + pka_top", rsa_crt(2048, 32), 1.43),
    Case("hscm-rsa-crt-4096-64pe", "1,369,913", (R_CRT4096,), "engine + pka_top", rsa_crt(4096, 64), 64.5),
]

BY_NAME = {c.name: c for c in CASES}
assert len(BY_NAME) == len(CASES), "duplicate case names"


def covered() -> list[tuple[str, str]]:
    """Every (README row, figure) the registry proves (pka.testfull.readme.figures' form)."""
    return [(row, c.figure) for c in CASES for row in c.rows]


def select(names: str | None) -> list[Case]:
    """Cases by comma-separated names or substrings (`-k rns-mm`), in registry order."""
    if not names:
        return list(CASES)
    keys = [n.strip() for n in names.split(",") if n.strip()]
    out = [c for c in CASES if any(k == c.name or k in c.name for k in keys)]
    missing = [k for k in keys if not any(k == c.name or k in c.name for c in CASES)]
    if missing:
        raise KeyError(f"no test-full case matches {missing} (--list shows them)")
    return out
