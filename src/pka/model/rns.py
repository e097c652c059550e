"""Golden model of rns: RNS Montgomery on a Cox-Rower, SBMM for P = Ma^2 - 2, and ECC by the (X,Z) ladder.

Paper 002: K. Bigou and A. Tisserand, "Single Base Modular Multiplication for Efficient Hardware RNS
Implementations of ECC", CHES 2015 (slides). The slides are terse; what they leave out is taken from
the works they cite (Kawamura et al. EUROCRYPT 2000 for the Cox-Rower base extension, Posch & Posch
1995 for RNS Montgomery, Guillermin CHES 2010 / Gandino et al. 2012 for the MM variant, Joye-Yen 2002
for the ladder) and reconstructed here; every reconstruction is checked numerically by the asserts
below and by tests/test_model_rns.py.

RNS bases (deterministic, documented in doc/rns.md)
    Channel moduli are m = 2^w - c with odd c < C_LIMIT[w], taken in increasing c and kept when
    coprime to every modulus taken before (and to the modulus P), so a rower reduces a 2w+g bit
    accumulator by folding: x = H*2^w + L == H*c + L (mod m), a few times, then one conditional
    subtraction (`rower_reduce`). MM uses n = ceil((l + GUARD_BITS)/w) moduli in each of B and B'.

Base extension with Kawamura's correction (`cox_k`, `base_extend`)
    xi_i = |x_i * Mi^-1|_mi,  x = sum xi_i*Mi - k*M with k = floor(sum xi_i/mi).
    The Cox unit approximates k with the top q = COX_Q bits of each xi_i and m_i ~ 2^w:
        k^ = floor(alpha + sum trunc_q(xi_i) / 2^q)
    The error of the fraction is below err = sum(c_i/2^w) + n*2^-q (asserted < 1/2). With
    alpha = 0 (the first BE) the result is x or x + M; with alpha = 1/2 and x < M/2 it is exact.
    In hardware the Cox adds trunc_q(xi_i) into a q-bit register each step and emits the carry k_i,
    and the rower adds k_i * |-M|_m'j in the same step (so sum k_i = k^).

RNS Montgomery multiplication MM (slides, [PP95], with the constant folding of [GLP+12])
    Values live in B (plain residues x_i) and B' stored "scaled": x~'_j = |x * mu_j|_m'j with
    mu_j = |M'_j^-1|_m'j, which is the xi' of the second base extension, so that step costs no EMM.
    For X = sum_k u_k*v_k (K = 1..3 products, one reduction: the [BDE13] sums of products):
        B :  x_i  = sum u_i v_i;            xi_i = |x_i * (-P^-1 Mi^-1)|_mi           (K+1)n EMM
        B':  y'_j = sum u~'_j v~'_j                                                     Kn EMM
        BE1: xi'_j = |y'_j*|M'_j M^-1| + sum_i xi_i*|Mi P M^-1 mu_j| + k^*|-P mu_j| |_m'j   n+n^2
             (= omega~'_j, the B' half of the result; alpha = 0, so Q^ = Q or Q + M)
        BE2: omega_i = |sum_j xi'_j*|M'_j|_mi + k^'*|-M'|_mi|_mi    (alpha = 1/2, exact)     n^2
    Output omega = (X + Q^ P)/M == X M^-1 (mod P). EMMs = 2n^2 + 2n(K+1), i.e. 2n^2 + 4n for one
    product: the slides' MM row. Bound (asserted): X < Xmax with Xmax*P/M + err < 1 gives
    omega < 2P (both when Q^ = Q and when Q^ = Q + M, the latter only if Q < err*M).

SBMM for P = Ma^2 - 2 (slides, reconstructed; Karatsuba products)
    x == K*Ma + R (mod P); K and R live on the half bases a (n_a moduli, Ma) and b (n_b = n_a + 1),
    plus m_gamma = 2^6. Split(X): R = BE(X_a, a -> b|gamma) with alpha = 0 (R^ = R or R + Ma),
    K = (X - R)*Ma^-1 on b|gamma, "if K = -1 then K = 0, R = R - Ma" (the slides' Kawamura
    correction), K_a = BE(K_b, b -> a) (exact, alpha = 1/2). SBMM: per channel P1 = KxKy, P2 = RxRy,
    P3 = (Kx+Rx)(Ky+Ry), U = 2P1 + P2, V = P3 - P1 - P2 (Karatsuba), Split both,
    Kz = Ku + Rv, Rz = 2Kv + Ru (XY == U + V*Ma == Kz*Ma + Rz since Ma^2 == 2).
    Compress (slides): for Y in {K, R}: R_Y = BE(Y_a, a -> gamma) (alpha = 0), Q_Y = |(Y - R_Y)
    Ma^-1|_64 (if Q_Y = 63, i.e. -1, then Q_Y = 0), R_Y on b = Y_b - Q_Y*Ma_b; then
    Kc = R_K + Q_R, Rc = R_R + 2 Q_K with Kc, Rc < 3Ma (Y < 63 Ma asserted in).
    EMMs: SBMM = 3n + 2(n_a + 2 n_b) + 4 n_a n_b (= n^2 + 6n for n_a = n_b = n/2; the slides give
    n^2 + 5n, see doc/rns.md), Compress = 2n EMM + (2 n_a + 2) GMM (the slides' n + 2).

ECC: (X,Z) Montgomery ladder on y^2 = x^3 + ax + b (slides' table, [BDE13], [JY02])
    ADD (difference G = (x_G:1)): A = Z1X2 + Z2X1, B = 2X1X2, C = 2Z1Z2, D = aA + bC,
        Z3 = A^2 - BC, X3 = BA + CD - x_G Z3.
        The extracted slide reads "X3 = BA + CD + 2X_G Z3"; only "- x_G Z3" gives x(P1+P2)
        (x(P1+P2) + x(P1-P2) = (BA+CD)/Z3), checked numerically in the tests.
    DBL: E = Z1^2, F = 2X1Z1, G = X1^2, H = -4bE, I = aE, X3 = FH + (G-I)^2, Z3 = 2F(G+I) - EH.
    The ladder starts from (O, G) = ((1:0), (x_G:1)) and runs exactly `elen` bits, so its time
    depends only on the scalar's length; the affine x = X * Z^(P-2) (Fermat on the same MM).

Cycle model: the microprograms below (PROGRAMS) are the ROM of the RTL sequencers
(rtl/engines/rns/pka_rns_ucode.sv is generated from it). `run_machine` executes the MM build's
programs and `run_sb_machine` the SBMM build's (SB = Compress(SBMM(sum of 1..3 products)),
ADD/SUB followed by Compress), both with the RTL's cycle costs (`instr_cycles`; on the SBMM build
`sb_times` and `SbTiming`: each Compress runs as a 6-cycle tail beside the next instruction, which
waits only if it reads the tail's result or would hand off its own Compress before the tail ends).
"""

from __future__ import annotations

import dataclasses
import functools
import random
from fractions import Fraction
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, Callable, Mapping, Sequence

import gmpy2

from pka.errors import PkaError, Status
from pka.model.common import OpResult

# ---- engine constants ------------------------------------------------------------------------

W_CHOICES = (16, 32)
COX_Q = 8                          # Cox precision: top bits of each xi used by the fractional sum
C_LIMIT = {16: 256, 32: 1024}      # channel moduli 2^w - c with odd c < C_LIMIT[w]
GUARD_BITS = 8                     # MM: n = ceil((l + GUARD_BITS) / w)
MIN_BITS = 16                      # smallest modulus (bits) the engine accepts
MAX_BITS = {16: 256, 32: 2048}     # largest modulus (bits) per channel width (Cox error bound)
ACC_EXTRA = {16: 5, 32: 7}         # accumulator = 2w + ACC_EXTRA bits
N_FOLDS = {16: 3, 32: 2}           # folds of the rower reduction before the conditional subtraction
M_GAMMA = 64                       # SBMM's extra modulus m_gamma = 2^6
SBMM_SEED = 20150913               # seed of the P = Ma^2 - 2 and curve generation (CHES 2015 date)
# MR input modes (model annotations only: the hardware's MR is the same in every mode)
MR_CANON = 0      # the inputs are values below a static bound (units of P), the MR's usual contract
MR_RAW = 1        # a0 is an arbitrary residue vector (random words): the output is a signed value
MR_SIGNED = 2     # a0 is such a signed value, b0 the plain 1 (ONE): the output is below 2P again


# ---- RNS bases -------------------------------------------------------------------------------

def candidate_moduli(w: int) -> list[int]:
    """All m = 2^w - c, c odd in [1, C_LIMIT[w]), in increasing c."""
    return [(1 << w) - c for c in range(1, C_LIMIT[w], 2)]


def pick_coprime(cands: Sequence[int], count: int, avoid: Sequence[int] = (), coprime_to: int = 1) -> tuple[int, ...]:
    """The first `count` candidates pairwise coprime, coprime to `avoid` and to `coprime_to`."""
    out: list[int] = []
    for m in cands:
        if len(out) == count:
            break
        if gcd(m, coprime_to) != 1 or any(gcd(m, x) != 1 for x in out) or any(gcd(m, x) != 1 for x in avoid):
            continue
        out.append(m)
    if len(out) < count:
        raise PkaError(Status.ERR_LENGTH, f"not enough {len(out)}-of-{count} coprime channel moduli")
    return tuple(out)


def gcd(a: int, b: int) -> int:
    return int(gmpy2.gcd(a, b))


def inv(a: int, m: int) -> int:
    return int(gmpy2.invert(a % m, m))


def prod(xs: Sequence[int]) -> int:
    p = 1
    for x in xs:
        p *= x
    return p


@functools.lru_cache(maxsize=256)
def _crt_coeffs(moduli: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    m = prod(moduli)
    return m, tuple((m // mi) * inv(m // mi, mi) for mi in moduli)


def crt(res: Sequence[int], moduli: Sequence[int]) -> int:
    """The integer in [0, prod(moduli)) with the given residues."""
    m, coeffs = _crt_coeffs(tuple(moduli))
    return sum(r * c for r, c in zip(res, coeffs)) % m


def cox_error(moduli: Sequence[int], w: int, q: int = COX_Q) -> Fraction:
    """Upper bound of the error of Kawamura's approximate fraction: sum c_i/2^w + n 2^-q."""
    return Fraction(sum((1 << w) - m for m in moduli), 1 << w) + Fraction(len(moduli), 1 << q)


# ---- the rower and the Cox unit --------------------------------------------------------------

def rower_reduce(x: int, m: int, w: int) -> int:
    """The rower's reduction: N_FOLDS[w] folds x = H*2^w + L -> H*c + L, then x - m if x >= m."""
    c = (1 << w) - m
    assert 0 <= x < 1 << (2 * w + ACC_EXTRA[w]), "accumulator overflow"
    mask = (1 << w) - 1
    for _ in range(N_FOLDS[w]):
        x = (x >> w) * c + (x & mask)
    assert x < 2 * m, "rower reduction: folds leave x >= 2m"
    return x - m if x >= m else x


def cox_k(xis: Sequence[int], w: int, alpha_half: bool, q: int = COX_Q) -> tuple[int, list[int]]:
    """Kawamura's Cox: k^ = floor(alpha + sum trunc_q(xi_i)/2^q), and its per-step carries k_i."""
    frac = (1 << (q - 1)) if alpha_half else 0
    bits: list[int] = []
    for xi in xis:
        s = frac + (xi >> (w - q))
        bits.append(s >> q)
        frac = s & ((1 << q) - 1)
    return sum(bits), bits


def base_extend(x: Sequence[int], src: Sequence[int], dst: Sequence[int], w: int, alpha_half: bool) -> tuple[list[int], int]:
    """Kawamura base extension src -> dst (plain residues). Returns (dst residues, k^).

    Asserts the error bound (< 1/2) and the paper's guarantee: with alpha = 1/2 and
    X < M/2 the extension is exact; with alpha = 0 it gives X or X + M.
    """
    msrc = prod(src)
    assert cox_error(src, w) < 0.5, "Cox error bound >= 1/2: too many channels for this w and q"
    xis = [(xi * inv(msrc // mi, mi)) % mi for xi, mi in zip(x, src)]
    k, _ = cox_k(xis, w, alpha_half)
    out = []
    for md in dst:
        acc = sum(xi * ((msrc // mi) % md) for xi, mi in zip(xis, src)) + k * ((-msrc) % md)
        out.append(acc % md)
    X = crt(x, src)
    got = crt(out, dst) if prod(dst) > X + msrc else None
    if alpha_half and 2 * X < msrc:
        assert all(o == X % md for o, md in zip(out, dst)), "exact base extension failed"
    elif got is not None:
        assert got in (X, X + msrc), "approximate base extension off by more than M"
    return out, k


# ---- classical RNS Montgomery (MM) -----------------------------------------------------------

@dataclass(frozen=True)
class MmCtx:
    """Everything the host precomputes for MM modulo P: bases, per-rower constants, W = M^2 mod P."""

    p: int
    w: int
    n: int
    b: tuple[int, ...]       # base B
    bp: tuple[int, ...]      # base B'
    m: int                   # M = prod B
    mp: int                  # M' = prod B'
    mu: tuple[int, ...]      # |M'_j^-1|_m'j: the B' scaling
    table: tuple[tuple[int, ...], ...]   # per rower j: CONST_WORDS + 2n constants (layout in doc)

    @property
    def err(self) -> Fraction:
        return max(cox_error(self.b, self.w), cox_error(self.bp, self.w))

    def max_k_bound(self) -> Fraction:
        """Largest X/P^2 an MR accepts with output < 2P (X*P/M + err < 1)."""
        return (1 - self.err) * self.m / self.p

    def to_rns(self, x: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Host conversion: B residues and scaled B' residues."""
        return (tuple(x % mi for mi in self.b), tuple((x * u) % mj for u, mj in zip(self.mu, self.bp)))

    @functools.cached_property
    def mu_inv(self) -> tuple[int, ...]:
        return tuple(inv(u, mj) for u, mj in zip(self.mu, self.bp))

    def from_rns(self, v: tuple[tuple[int, ...], tuple[int, ...]]) -> int:
        """Host conversion back (CRT on B); asserts the B' half agrees."""
        x = crt(v[0], self.b)
        y = crt([(r * ui) % mj for r, ui, mj in zip(v[1], self.mu_inv, self.bp)], self.bp)
        assert x == y, "B and B' halves disagree"
        return x


CONST_WORDS = 12   # per-rower constants before the two BE columns


def channels_mm(bits: int, w: int) -> int:
    return -(-(bits + GUARD_BITS) // w)


def mm_context(p: int, w: int) -> MmCtx:
    """Bases and constants of MM modulo the odd p (deterministic)."""
    n = channels_mm(p.bit_length(), w)
    both = pick_coprime(candidate_moduli(w), 2 * n, coprime_to=p)
    b, bp = both[:n], both[n:]
    m, mp = prod(b), prod(bp)
    mu = tuple(inv(mp // mj, mj) for mj in bp)
    rows = []
    for j in range(n):
        mj, mpj = b[j], bp[j]
        row = [
            (1 << w) - mj,                                   # 0 c of m_j
            (1 << w) - mpj,                                  # 1 c of m'_j
            (-inv(p, mj) * inv(m // mj, mj)) % mj,           # 2 xi const |-P^-1 Mj^-1|
            ((mp // mpj) * inv(m, mpj)) % mpj,               # 3 |M'_j M^-1| (y' to BE1 acc)
            (-p * mu[j]) % mpj,                              # 4 BE1 Cox correction |-P mu_j|
            (-mp) % mj,                                      # 5 BE2 Cox correction |-M'|
            (2 * p) % mj, (4 * p) % mj, (8 * p) % mj,        # 6..8 kP in B
            (2 * p * mu[j]) % mpj, (4 * p * mu[j]) % mpj, (8 * p * mu[j]) % mpj,  # 9..11 kP in B'
        ]
        row += [((m // b[i]) * p * inv(m, mpj) * mu[j]) % mpj for i in range(n)]   # BE1 column
        row += [(mp // bp[i]) % mj for i in range(n)]                              # BE2 column
        rows.append(tuple(row))
    return MmCtx(p, w, n, b, bp, m, mp, mu, tuple(rows))


Rns = tuple[tuple[int, ...], tuple[int, ...]]


@dataclass
class MrTrace:
    """What one MR computed (for tests): the Cox k's, whether BE1 added M, EMMs."""

    k1: int = 0
    k2: int = 0
    q_plus_m: bool = False
    emm: int = 0


def signed_value(ctx: MmCtx, v: Rns) -> int:
    """The integer a register holds when its B half may be the residues of a negative value: x
    (= from_rns) when both halves agree, else y - M' when the B half holds y - M' (y = the B' half's
    value in [0, M')): the output of an MR of arbitrary residues (MR_RAW), see `mr`."""
    x = crt(v[0], ctx.b)
    y = crt([(r * ui) % mj for r, ui, mj in zip(v[1], ctx.mu_inv, ctx.bp)], ctx.bp)
    if x == y:
        return x
    assert (y - ctx.mp) % ctx.m == x, "B and B' halves encode no signed value"
    return y - ctx.mp


def mr(ctx: MmCtx, pairs: Sequence[tuple[Rns, Rns]], trace: MrTrace | None = None,
       xbound: int | None = None, mode: int = MR_CANON, invariants: bool = True) -> Rns:
    """One RNS Montgomery reduction of X = sum u*v (1..3 products), as the rowers compute it.

    The rowers compute the same residues whatever the input; `mode` says which invariants hold:
    MR_CANON: X in [0, (1 - err) P M), output omega = (X + Q^ P)/M < 2P (the slides' contract).
    MR_RAW: the input is any residue vector (random words), so X is any integer below M M' and
        (X + Q^ P)/M may exceed M'. The B' half of the output is still the residue vector of some
        V in [0, M') and BE2 (alpha = 1/2: k2 = floor(S) or floor(S) + 1 for S = sum xi'_j/m'_j,
        since 0 <= S - Cox's sum < err < 1/2) gives the B half of V or V - M': the output is the
        signed value V_s in (-M'/2, M'(1/2 + err)) (asserted), congruent to nothing in particular.
    MR_SIGNED: X = V_s * 1 with V_s such a value: -M < X < (1 - err) P M, so omega = (X + Q^ P)/M
        is an integer in (-1, 2P), i.e. in [0, 2P) again (asserted as in MR_CANON).
    invariants False (a program after a control fault, `run_machine`): the residues only, whatever
    the input, as the rowers compute them; none of the above asserted."""
    n, w, p = ctx.n, ctx.w, ctx.p
    assert 1 <= len(pairs) <= 3
    tab = ctx.table
    # B side: products, reduce, xi
    x = [rower_reduce(sum(u[0][j] * v[0][j] for u, v in pairs), ctx.b[j], w) for j in range(n)]
    xi = [rower_reduce(x[j] * tab[j][2], ctx.b[j], w) for j in range(n)]
    # B' side: products, reduce
    y = [rower_reduce(sum(u[1][j] * v[1][j] for u, v in pairs), ctx.bp[j], w) for j in range(n)]
    # BE1 (alpha = 0) straight into omega~' (scaled B')
    k1, kb1 = cox_k(xi, w, alpha_half=False)
    om_p = [rower_reduce(y[j] * tab[j][3] + sum(xi[i] * tab[j][CONST_WORDS + i] for i in range(n))
                         + k1 * tab[j][4], ctx.bp[j], w) for j in range(n)]
    # BE2 (alpha = 1/2) to B
    k2, _ = cox_k(om_p, w, alpha_half=True)
    om = [rower_reduce(sum(om_p[i] * tab[j][CONST_WORDS + n + i] for i in range(n)) + k2 * tab[j][5], ctx.b[j], w)
          for j in range(n)]
    res: Rns = (tuple(om), tuple(om_p))
    if trace is not None:
        trace.emm += 2 * n * n + 2 * n * (len(pairs) + 1)
    if not invariants:
        return res
    if mode == MR_RAW:
        vs = signed_value(ctx, res)
        assert -ctx.mp < 2 * vs < ctx.mp * (1 + 2 * cox_error(ctx.bp, w)), "MR of raw residues: V_s out of range"
        return res
    # ---- invariants (the slides' bounds) --------------------------------------------------
    if mode == MR_SIGNED:
        (u, v), = pairs
        assert ctx.from_rns(v) == 1, "MR_SIGNED multiplies by the plain 1 only"
        X = signed_value(ctx, u)
        assert -ctx.m < X, "MR input below -M: output could be negative"
    else:
        X = sum(ctx.from_rns(u) * ctx.from_rns(v) for u, v in pairs)
    if xbound is not None:
        assert X <= xbound, "MR input above its static bound"
    assert X < (1 - ctx.err) * ctx.m * p, "MR input X >= (1-err) P M: output could reach 2P"
    q = (X * (-inv(p, ctx.m))) % ctx.m
    qhat_is_q_plus_m = (X + q * p) // ctx.m != crt(om, ctx.b) and (X + (q + ctx.m) * p) // ctx.m == crt(om, ctx.b)
    omega = crt(om, ctx.b)
    assert omega in ((X + q * p) // ctx.m, (X + (q + ctx.m) * p) // ctx.m), "MR result is not (X + Q^P)/M"
    assert (omega * ctx.m - X) % p == 0
    assert 0 <= omega < 2 * p, "MR output outside [0, 2P)"
    assert ctx.from_rns(res) == omega
    if trace is not None:
        trace.k1, trace.k2, trace.q_plus_m = k1, k2, qhat_is_q_plus_m
    return res


def emm_mm(n: int, products: int = 1) -> int:
    """EMMs of one MR of a sum of `products` products (the slides' 2n^2 + 4n for one)."""
    return 2 * n * n + 2 * n * (products + 1)


# ---- the microprogram (the RTL sequencer's ROM) ----------------------------------------------

class UOp(IntEnum):
    HALT = 0
    MR = 1        # d = MR(sum_k a_k*b_k), K = 1..3 products
    ADD = 2       # d = a0 + b0 (channel-wise)
    SUB = 3       # d = a0 - b0 + kP, kP in (2P, 4P, 8P) by `kp`
    LOOP = 4      # idx = count-1 over src (0: scalar bits, elen; 1: Fermat exponent, len), or a fixed
                  # count (imm, 1..255); count 0 -> target
    ENDLOOP = 5   # idx == 0 ? fall through : idx--, pc = target
    IFBIT = 6     # skip the next instruction if bit idx of the loop source is 0
    MAP = 7       # ladder map := bit idx of the loop source (L0/L1 register swap)
    UNMAP = 8     # ladder map := 0
    SB = 9        # SBMM build: d = Compress(SBMM(a0 * b0)) on (K, R) registers
    TEST = 10     # flag := (a0 == 0 mod P), a0 < 2P (every rower: 2 a0_i in {0, |2P|_mi}, all alike)
    FAIL = 11     # flag == sense ? end with status `code` (R and R_HI written as zero) : go on
    CMOV = 12     # flag ? d := a0 : keep d (constant time: one cycle either way)
    JMP = 13      # pc := target (the ROM address of another program's instruction, `to`)



@dataclass(frozen=True)
class Instr:
    op: UOp
    d: int = 0
    pairs: tuple[tuple[int, int], ...] = ()
    kp: int = 0
    src: int = 0
    target: int = 0
    bound: int = 0         # static bound of the result, in units of P (asserted by the machine)
    code: int = 0          # FAIL: the status it ends with
    sense: int = 0         # FAIL: the flag value that fails
    to: str = ""           # JMP: the program whose instruction `target` is (rom() relocates it)
    mode: int = MR_CANON   # MR: what its input is (model only, not encoded: MR_CANON/RAW/SIGNED)
    imm: int = 0           # LOOP: a fixed count 1..255 (bit 62 set, the count in FAIL's code field)
                           # instead of the source's length; 0: the count is elen / len (src)

    def encode(self) -> int:
        word = int(self.op) | (self.d << 4) | (len(self.pairs) << 9)
        for i, (a, b) in enumerate(self.pairs):
            word |= a << (11 + 10 * i) | b << (16 + 10 * i)
        assert self.target < 1 << ROM_AW and self.code < 256 and self.sense < 2
        assert not self.imm or (self.op == UOp.LOOP and self.code == 0 and 1 <= self.imm < 256)
        code = self.imm if self.imm else self.code
        return (word | (self.kp << 41) | (self.src << 43) | (self.target << 44) | (code << 53)
                | (self.sense << 61) | (int(bool(self.imm)) << 62))


# registers (5-bit addresses); 1..4 are the ladder's L0X L0Z L1X L1Z, swapped by the map bit
ZERO, L0X, L0Z, L1X, L1Z = 0, 1, 2, 3, 4
IN_A, IN_B, RW, ONE, CA, CB2, CM4B = 5, 6, 7, 8, 9, 10, 11     # loaded from memory
R1, RES, RES_HI, XG, NXG = 12, 13, 14, 15, 16
TA, TB, TC, TD, T1, TA2, TD2, RE, RF, RG, RH, RI, TT, F2 = range(17, 31)
YG = 31                                                         # checked ECC_MUL: y of the input point
RZ = T1            # ECC_MUL with ARG[1]: the random words of SLOT_P (a ladder temporary, dead until then)
ROM_AW = 9         # microprogram ROM address bits (pka_rns_ucode; loop targets are ROM_AW bits)
ISLOTS_A_BITS = 10   # pka_rns_ucode slots_a_o: a program's slots outside its source loops (below 2^10)
ISLOTS_K_BITS = 6    # pka_rns_ucode slots_e_o / slots_l_o: slots per iteration of LOOP0 / LOOP1
NUM_REGS = 32
LOADED_REGS = (IN_A, IN_B, RW, ONE, CA, CB2, CM4B)
KP = {2: 0, 4: 1, 8: 2}


def _mr(d: int, *pairs: tuple[int, int]) -> Instr:
    return Instr(UOp.MR, d, tuple(pairs), bound=2)


def _add(d: int, a: int, b: int, bound: int) -> Instr:
    return Instr(UOp.ADD, d, ((a, b),), bound=bound)


def _sub(d: int, a: int, b: int, k: int, bound: int) -> Instr:
    return Instr(UOp.SUB, d, ((a, b),), kp=KP[k], bound=bound)


def _sb(d: int, a: int, b: int, *more: tuple[int, int]) -> Instr:
    return Instr(UOp.SB, d, ((a, b),) + tuple(more), bound=3)


def _sbl(op: UOp, d: int, a: int, b: int) -> Instr:
    """SBMM build ADD/SUB: d = Compress(a + b) or Compress(a - b + (3Ma - 3, 3Ma - 6))."""
    return Instr(op, d, ((a, b),), bound=3)


def _sb_ladder_body() -> list[Instr]:
    """The ladder step of `ladder_xz` as SBMM-build instructions (same registers as the MM one).

    The ADD and DBL halves are interleaved so that no SB, ADD or SUB reads the result of the one
    just before it: each Compress then runs beside the next instruction (`SbTiming`: no RAW wait in
    the step; the order was found by a search over the step's dependence graph).
    """
    X1, Z1, X2, Z2 = L0X, L0Z, L1X, L1Z
    add, sub = UOp.ADD, UOp.SUB
    return [
        Instr(UOp.MAP),
        _sb(TB, X1, X2), _sb(RG, X1, X1), _sb(TA, Z1, X2, (Z2, X1)), _sb(RE, Z1, Z1),
        _sb(TC, Z1, Z2), _sb(RF, X1, Z1), _sb(RH, CM4B, RE), _sb(RI, CA, RE),
        _sbl(add, F2, RF, RF), _sbl(add, T1, TC, TC),
        _sb(TD, CA, TA, (CB2, TC)),
        _sbl(sub, TT, RG, RI), _sbl(add, T1, T1, T1),
        _sb(L0X, F2, RH, (TT, TT)),
        _sbl(add, F2, F2, F2), _sbl(sub, T1, ZERO, T1), _sbl(sub, TT, ZERO, RH), _sbl(add, TA2, TA, TA),
        _sb(L1Z, TA, TA, (TB, T1)),
        _sbl(add, TD2, TD, TD), _sbl(add, TA, RG, RI),
        _sb(L1X, TB, TA2, (TC, TD2), (NXG, L1Z)),
        _sb(L0Z, F2, TA, (RE, TT)),
    ]


def _ladder_body() -> list[Instr]:
    """One ladder step on the mapped registers: L1 := ADD(L0, L1), L0 := DBL(L0)."""
    X1, Z1, X2, Z2 = L0X, L0Z, L1X, L1Z
    return [
        Instr(UOp.MAP),
        # ADD (difference G)
        _mr(TA, (Z1, X2), (Z2, X1)),            # A = Z1X2 + Z2X1
        _mr(TB, (X1, X2)),                      # B/2
        _mr(TC, (Z1, Z2)),                      # C/2
        _mr(TD, (CA, TA), (CB2, TC)),           # D = aA + 2b C/2
        _add(T1, TC, TC, 4), _add(T1, T1, T1, 8), _sub(T1, ZERO, T1, 8, 8),   # 8P - 4(C/2)
        _mr(L1Z, (TA, TA), (TB, T1)),           # Z3 = A^2 - BC
        _add(TA2, TA, TA, 4), _add(TD2, TD, TD, 4),
        _mr(L1X, (TB, TA2), (TC, TD2), (NXG, L1Z)),   # X3 = BA + CD - x_G Z3
        # DBL
        _mr(RE, (Z1, Z1)),                      # E
        _mr(RF, (X1, Z1)),                      # F/2
        _mr(RG, (X1, X1)),                      # G
        _mr(RH, (CM4B, RE)),                    # H = -4bE
        _mr(RI, (CA, RE)),                      # I = aE
        _sub(TT, RG, RI, 2, 4), _add(F2, RF, RF, 4),
        _mr(L0X, (F2, RH), (TT, TT)),           # X3 = FH + (G-I)^2
        _add(F2, F2, F2, 8), _add(TA, RG, RI, 4), _sub(TT, ZERO, RH, 2, 2),
        _mr(L0Z, (F2, TA), (RE, TT)),           # Z3 = 2F(G+I) - EH
    ]


def _test(a: int) -> Instr:
    return Instr(UOp.TEST, pairs=((a, a),))


def _fail(sense: int, code: Status) -> Instr:
    return Instr(UOp.FAIL, code=int(code), sense=sense)


def _cmov(d: int, a: int) -> Instr:
    return Instr(UOp.CMOV, d, ((a, ZERO),), bound=2)


def _on_curve_check(x: int, y: int, code: Status) -> list[Instr]:
    """Fail with `code` unless y^2 == x^3 + a x + b (x, y in the Montgomery domain, each < 2P).

    2(y^2 - x^3 - a x) - 2b is brought below 2P by an MR with Mont(1) (R1), where TEST can see
    whether it is 0 mod P. 4 MRs and 6 one-cycle instructions; uses TA TB TC TD."""
    return [
        _mr(TA, (x, x)),                        # x^2
        _sub(TB, ZERO, TA, 2, 2),               # -x^2
        _sub(TC, ZERO, x, 2, 2),                # -x
        _mr(TD, (y, y), (TB, x), (CA, TC)),     # y^2 - x^3 - a x
        _add(TD, TD, TD, 4),
        _sub(TD, TD, CB2, 2, 6),                # 2(y^2 - x^3 - a x) - 2b + 2P
        _mr(TD, (TD, R1)),                      # the same mod P, < 2P
        _test(TD), _fail(0, code),
    ]


def _ecc_entry(checked: bool) -> list[Instr | str]:
    """To the Montgomery domain (x~ = XG, y~ = YG, Mont(1) = R1, -x~ = NXG), the input check."""
    out: list[Instr | str] = [_mr(XG, (IN_A, RW))]
    if checked:
        out.append(_mr(YG, (IN_B, RW)))
    out += [_mr(R1, (ONE, RW)), _sub(NXG, ZERO, XG, 2, 2)]
    if checked:
        out += _on_curve_check(XG, YG, Status.ERR_NOT_ON_CURVE)
    return out


def _ecc_prologue(checked: bool) -> list[Instr | str]:
    """The entry, then the ladder from (O, P) = ((1:0), (x~:Mont(1)))."""
    return _ecc_entry(checked) + [
        _add(L0X, R1, ZERO, 2), _add(L0Z, ZERO, ZERO, 0), _add(L1X, XG, ZERO, 2), _add(L1Z, R1, ZERO, 2),
        "LOOP0", *_ladder_body(), "END", Instr(UOp.UNMAP),
        _test(L0Z), _fail(1, Status.ERR_INFINITY),          # k P = O: no affine point
    ]


def _random_z() -> list[Instr]:
    """ECC_MUL with ARG[1]: the ladder starts from (O, P) = ((1:0), (x lambda : lambda)).

    RZ holds the 2n random words of SLOT_P, each reduced mod its channel's modulus by the load: an
    arbitrary residue vector, i.e. some integer below M M', far above what an MR accepts. One MR
    with the plain 1 turns it into a signed value V_s in (-M'/2, M'(1/2 + err)) (its B' half is
    uniform when the words are; BE2's alpha = 1/2 makes the B half that of V or V - M', MR_RAW);
    a second MR with 1 brings V_s to lambda in [0, 2P) (-M < V_s < (1 - err) P M, MR_SIGNED):
    lambda == V_s M^-1 (mod P), the Montgomery form of V_s M^-2. The third MR is x~ lambda. Then
    L1 = (x~ lambda M^-1 : lambda) represents (x lambda' : lambda') with lambda' = lambda M^-1.
    3 MRs for the two ADDs they replace. lambda == 0 mod P (probability about 1/P; all-zero words
    give it) makes L1 = (0:0): every ladder value after the scalar's first 1 bit is 0, so the
    engine ends with ERR_INFINITY (checked and x-only entries alike), never with a wrong point."""
    return [
        Instr(UOp.MR, RZ, ((RZ, ONE),), mode=MR_RAW),        # V_s (a signed value)
        Instr(UOp.MR, L1Z, ((RZ, ONE),), bound=2, mode=MR_SIGNED),   # lambda < 2P
        _mr(L1X, (XG, L1Z)),                                 # x~ lambda
        _add(L0X, R1, ZERO, 2), _add(L0Z, ZERO, ZERO, 0),
    ]


def _fermat(d: int, x: int) -> list[Instr | str]:
    """d := x^(P-2) (Montgomery domain), left to right over the public exponent in SLOT_X2."""
    return [_add(d, R1, ZERO, 2), "LOOP1", _mr(d, (d, d)), Instr(UOp.IFBIT), _mr(d, (d, x)), "END"]


def _ecc_checked() -> list[Instr | str]:
    """Checked ECC_MUL: (x, y) of k P from the ladder's (X0:Z0) = k P, (X1:Z1) = (k+1) P and P.

    y recovery (Okeya-Sakurai; Brier-Joye's form for y^2 = x^3 + a x + b), with x0 = X0/Z0:
        y0 = (2b + (a + x x0)(x + x0) - x1 (x - x0)^2) / 2y
           = N / D,  N = 2b Z0^2 Z1 + Z1 (a Z0 + x X0)(X0 + x Z0) - X1 (X0 - x Z0)^2,  D = 2y Z0^2 Z1,
        x0 = X0 (2y Z0 Z1) / D: one inversion (Fermat) for both coordinates.
    D = 0 only when Z0 = 0 (k P = O, already refused) or Z1 = 0 ((k+1) P = O, so k P = -P): then the
    inversion gives 0 and two CMOVs select (x, -y), in the same cycles. The result leaves the
    Montgomery domain (R = x, R_HI = y, each < 2P), is converted back and checked on the curve:
    a failed check ends with ERR_FAULT and zeros in R and R_HI.
    """
    X0, Z0, X1, Z1 = L0X, L0Z, L1X, L1Z
    return [
        *_ecc_prologue(True),
        _mr(TA, (CA, Z0), (XG, X0)),            # a Z0 + x X0
        _mr(TB, (XG, Z0)),                      # x Z0
        _add(TC, X0, TB, 4),                    # X0 + x Z0
        _sub(TD, X0, TB, 2, 4),                 # X0 - x Z0 (+ 2P)
        _mr(RE, (Z0, Z0)),                      # Z0^2
        _mr(RF, (Z0, Z1)),                      # Z0 Z1
        _mr(RG, (X1, TD)),                      # X1 (X0 - x Z0)
        _mr(RH, (Z1, TA)),                      # Z1 (a Z0 + x X0)
        _mr(RI, (RE, Z1)),                      # Z0^2 Z1
        _sub(TT, ZERO, RG, 2, 2),
        _mr(T1, (CB2, RI), (RH, TC), (TT, TD)),  # N
        _add(F2, YG, YG, 4),                    # 2y
        _mr(TA2, (F2, RI)),                     # D = 2y Z0^2 Z1
        _mr(TD2, (F2, RF)),                     # 2y Z0 Z1
        _mr(RE, (TD2, X0)),                     # X0 2y Z0 Z1
        *_fermat(TB, TA2),                      # D^-1 (0 when D = 0)
        _mr(RF, (RE, TB)),                      # x0
        _mr(RG, (T1, TB)),                      # y0
        _test(Z1), _sub(TT, ZERO, YG, 2, 2),    # (k+1) P = O: k P = -P = (x, -y)
        _cmov(RF, XG), _cmov(RG, TT),
        _mr(RES, (RF, ONE)), _mr(RES_HI, (RG, ONE)),    # out of the Montgomery domain
        _mr(RF, (RES, RW)), _mr(RG, (RES_HI, RW)),      # and back: the check sees what is released
        *_on_curve_check(RF, RG, Status.ERR_FAULT),
        Instr(UOp.HALT),
    ]


def _mont_ladder_body() -> list[Instr]:
    """One step of RFC 7748's x-only Montgomery ladder on the mapped registers (Curve25519, section
    5): L1 := (X5:Z5) = L0 + L1 (difference u), L0 := (X4:Z4) = 2 L0. 10 MRs (11 products) and 7
    one-cycle ADD/SUBs, where the Weierstrass (X,Z) step takes 13 MRs (20 products) and 10:
        A = X2+Z2, B = X2-Z2, C = X3+Z3, D = X3-Z3, DA = D A, CB = C B, AA = A^2, BB = B^2,
        X5 = (DA+CB)^2, Z5 = u (DA-CB)^2, X4 = AA BB, Z4 = E (AA + a24 E) with E = AA - BB,
    the last as one MR of two products, AA + a24 E = 121666 AA - 121665 BB (CA = Mont(121666),
    CB2 = Mont(-121665), loaded from the X1 table; x25519_inputs)."""
    X2, Z2, X3, Z3 = L0X, L0Z, L1X, L1Z
    return [
        Instr(UOp.MAP),
        _add(TA, X2, Z2, 4), _sub(TB, X2, Z2, 2, 4),          # A, B (+2P)
        _add(TC, X3, Z3, 4), _sub(TD, X3, Z3, 2, 4),          # C, D (+2P)
        _mr(RE, (TD, TA)),                                    # DA
        _mr(RF, (TC, TB)),                                    # CB
        _mr(RG, (TA, TA)),                                    # AA
        _mr(RH, (TB, TB)),                                    # BB
        _add(T1, RE, RF, 4), _sub(TT, RE, RF, 2, 4),          # DA + CB, DA - CB (+2P)
        _mr(L1X, (T1, T1)),                                   # X5 = (DA + CB)^2
        _mr(RI, (TT, TT)),                                    # (DA - CB)^2
        _mr(L1Z, (XG, RI)),                                   # Z5 = u (DA - CB)^2
        _mr(L0X, (RG, RH)),                                   # X4 = AA BB
        _sub(TA2, RG, RH, 2, 4),                              # E = AA - BB (+2P)
        _mr(TD2, (CA, RG), (CB2, RH)),                        # AA + a24 E
        _mr(L0Z, (TA2, TD2)),                                 # Z4 = E (AA + a24 E)
    ]


def _inv25519(d: int, z: int) -> list[Instr | str]:
    """d := z^(p-2), p = 2^255 - 19 (Montgomery domain), by the addition chain of the Curve25519
    reference code (254 squarings, 11 multiplications; fixed-count loops, REP<n>): 265 MRs where the
    bit-serial Fermat of `_fermat` over p - 2 takes 507. Uses RE RF RG RH RI TA TB TC TT."""
    def sq(n: int, r: int, src: int) -> list[Instr | str]:
        """r := src^(2^n)"""
        out: list[Instr | str] = [_mr(r, (src, src))]
        if n > 1:
            out += [f"REP{n - 1}", _mr(r, (r, r)), "END"]
        return out
    z2, z9, z11, z5, z10, z20, z50, z100, t = RE, RF, RG, RH, RI, TA, TB, TC, TT
    return [
        *sq(1, z2, z),                   # z^2
        *sq(2, t, z2),                   # z^8
        _mr(z9, (t, z)),                 # z^9
        _mr(z11, (z9, z2)),              # z^11
        *sq(1, t, z11),                  # z^22
        _mr(z5, (t, z9)),                # z^(2^5 - 1)
        *sq(5, t, z5), _mr(z10, (t, z5)),        # z^(2^10 - 1)
        *sq(10, t, z10), _mr(z20, (t, z10)),     # z^(2^20 - 1)
        *sq(20, t, z20), _mr(t, (t, z20)),       # z^(2^40 - 1)
        *sq(10, t, t), _mr(z50, (t, z10)),       # z^(2^50 - 1)
        *sq(50, t, z50), _mr(z100, (t, z50)),    # z^(2^100 - 1)
        *sq(100, t, z100), _mr(t, (t, z100)),    # z^(2^200 - 1)
        *sq(50, t, t), _mr(t, (t, z50)),         # z^(2^250 - 1)
        *sq(5, t, t), _mr(d, (t, z11)),          # z^(2^255 - 21) = z^(p - 2)
    ]


def _x25519_entry() -> list[Instr | str]:
    """u to the Montgomery domain (XG) and Mont(1) (R1)."""
    return [_mr(XG, (IN_A, RW)), _mr(R1, (ONE, RW))]


def _x25519() -> list[Instr | str]:
    """ECC_MUL with ARG[2] (MM build): X25519's scalar multiplication, u(k P) from u(P) on Curve25519
    by RFC 7748's ladder from (O, P) = ((1:0), (u:1)), then u = X Z^(p-2) by the addition chain.
    Z = 0 (k P = O) ends with ERR_INFINITY (the caller's all-zero output). The chain's inverse is
    checked, Z Z^-1 - 1 == 0 (mod P), before the result is formed: the chain inverts modulo
    2^255 - 19 only, so another modulus, or a fault in the chain, ends with ERR_UNSUPPORTED and
    zeros, never with a wrong u."""
    return [
        *_x25519_entry(),
        _add(L0X, R1, ZERO, 2), _add(L0Z, ZERO, ZERO, 0), _add(L1X, XG, ZERO, 2), _add(L1Z, R1, ZERO, 2),
        "LOOP0", *_mont_ladder_body(), "END", Instr(UOp.UNMAP),
        _test(L0Z), _fail(1, Status.ERR_INFINITY),
        *_inv25519(TD, L0Z),
        _sub(TA2, ZERO, RW, 2, 2),                          # -M^2 (mod P)
        _mr(TA2, (L0Z, TD), (TA2, ONE)),                    # (Z Z^-1 - 1) M (mod P)
        _test(TA2), _fail(0, Status.ERR_UNSUPPORTED),
        _mr(TC, (L0X, TD)), _mr(RES, (TC, ONE)), _add(RES_HI, ZERO, ZERO, 0), Instr(UOp.HALT),
    ]


def _assemble(body: list[Instr | str]) -> list[Instr]:
    """Resolve loop targets: 'LOOP<src>' / 'END' markers around bodies. An IFBIT or MAP inside a
    loop carries that loop's source in its own word (`src`): the MM build reads the bit it branches
    on from the source the instruction names, not from a register a fault could flip (doc/rns.md,
    "Fault countermeasures")."""
    out: list[Instr] = []
    stack: list[int] = []
    for it in body:
        if isinstance(it, str):
            if it.startswith("LOOP"):
                stack.append(len(out))
                out.append(Instr(UOp.LOOP, src=int(it[4:])))
            elif it.startswith("REP"):         # a loop of a fixed count (the inversion chain's squarings)
                stack.append(len(out))
                out.append(Instr(UOp.LOOP, imm=int(it[3:])))
            else:
                start = stack.pop()
                out.append(Instr(UOp.ENDLOOP, target=start + 1))
                lp = out[start]
                out[start] = Instr(UOp.LOOP, src=lp.src, imm=lp.imm, target=len(out))
        elif it.op in (UOp.IFBIT, UOp.MAP):
            assert stack and not out[stack[-1]].imm, f"{it.op.name} outside a loop over a source"
            out.append(dataclasses.replace(it, src=out[stack[-1]].src))
        else:
            out.append(it)
    return out


def _programs() -> dict[str, list[Instr]]:
    ifbit = Instr(UOp.IFBIT)
    progs: dict[str, list[Instr | str]] = {
        "montmul": [_mr(RES, (IN_A, IN_B)), Instr(UOp.HALT)],
        "modmul": [_mr(TB, (IN_A, IN_B)), _mr(RES, (TB, RW)), Instr(UOp.HALT)],
        "modadd": [_add(RES, IN_A, IN_B, 2), Instr(UOp.HALT)],
        "modsub": [_sub(RES, IN_A, IN_B, 2, 3), Instr(UOp.HALT)],
        "modexp": [_mr(XG, (IN_A, RW)), _mr(TB, (ONE, RW)), "LOOP0", _mr(TB, (TB, TB)), ifbit,
                   _mr(TB, (TB, XG)), "END", _mr(RES, (TB, ONE)), Instr(UOp.HALT)],
        # MODEXP_CT: Montgomery's powering ladder, exactly elen steps (L0 = A^prefix, L1 = L0 A)
        "modexp_ct": [_mr(L1X, (IN_A, RW)), _mr(L0X, (ONE, RW)),
                      "LOOP0", Instr(UOp.MAP), _mr(L1X, (L0X, L1X)), _mr(L0X, (L0X, L0X)), "END",
                      Instr(UOp.UNMAP), _mr(RES, (L0X, ONE)), Instr(UOp.HALT)],
        # ECC_MUL (ARG[0] = 0): the input point checked, the affine (x, y) of k P checked
        "ecc": _ecc_checked(),
        # ECC_MUL with ARG[0] = 1: x(k P) from x(P) alone (also on the twist); R_HI = 0
        "ecc_x": [
            *_ecc_prologue(False), *_fermat(TB, L0Z),
            _mr(TC, (L0X, TB)), _mr(RES, (TC, ONE)), _add(RES_HI, ZERO, ZERO, 0), Instr(UOp.HALT),
        ],
        # the SBMM build (no Montgomery domain: SBMM computes x*y mod P directly)
        "sb_modmul": [_sb(RES, IN_A, IN_B), Instr(UOp.HALT)],
        "sb_modexp": [_sb(RES, ONE, ONE), "LOOP0", _sb(RES, RES, RES), ifbit, _sb(RES, RES, IN_A), "END",
                      Instr(UOp.HALT)],
        "sb_ecc": [
            _sbl(UOp.SUB, NXG, ZERO, IN_A),
            _sbl(UOp.ADD, L0X, ONE, ZERO), _sbl(UOp.ADD, L0Z, ZERO, ZERO),
            _sbl(UOp.ADD, L1X, IN_A, ZERO), _sbl(UOp.ADD, L1Z, ONE, ZERO),
            "LOOP0", *_sb_ladder_body(), "END", Instr(UOp.UNMAP),
            _sbl(UOp.ADD, TB, ONE, ZERO), "LOOP1", _sb(TB, TB, TB), ifbit, _sb(TB, TB, L0Z), "END",
            _sb(RES, L0X, TB), _sbl(UOp.ADD, RES_HI, L0Z, ZERO), Instr(UOp.HALT),
        ],
        "sb_modexp_ct": [
            _sbl(UOp.ADD, L0X, ONE, ZERO), _sbl(UOp.ADD, L1X, IN_A, ZERO),
            "LOOP0", Instr(UOp.MAP), _sb(L1X, L0X, L1X), _sb(L0X, L0X, L0X), "END",
            # a dummy ADD reading both ladder registers: it waits for the last SB's Compress tail
            # whichever register that wrote (the last bit), so the count does not depend on it
            _sbl(UOp.ADD, TA, L0X, L1X),
            Instr(UOp.UNMAP), _sbl(UOp.ADD, RES, L0X, ZERO), Instr(UOp.HALT),
        ],
    }
    # ECC_MUL with ARG[2] (MM build): X25519 on Curve25519's Montgomery ladder
    progs["ecc_m"] = _x25519()
    out = {k: _assemble(v) for k, v in progs.items()}
    # the SBMM sequencer (pka_rns_sb, run_sb_machine) has no fixed-count loops: its LOOPs count elen / len
    assert not any(it.imm for k, v in out.items() if k.startswith("sb_") for it in v), "REP in an sb_ program"
    # ECC_MUL with ARG[1] (random projective Z): the entry of `ecc` / `ecc_x` / `ecc_m`, the random Z,
    # then a JMP to that program's ladder (its first LOOP): the rest of the program is shared in the ROM
    for name, base, entry in (("ecc_rz", "ecc", _ecc_entry(True)), ("ecc_xrz", "ecc_x", _ecc_entry(False)),
                              ("ecc_mrz", "ecc_m", _x25519_entry())):
        ladder = next(i for i, it in enumerate(out[base]) if it.op == UOp.LOOP)
        out[name] = _assemble([*entry, *_random_z(), Instr(UOp.JMP, target=ladder, to=base)])
    return out


PROGRAMS = _programs()
PROGRAM_ORDER = ("montmul", "modmul", "modadd", "modsub", "modexp", "modexp_ct", "ecc", "ecc_x",
                 "sb_modmul", "sb_modexp", "sb_ecc", "sb_modexp_ct", "ecc_rz", "ecc_xrz", "ecc_m", "ecc_mrz")


def rom() -> tuple[list[Instr], dict[str, int]]:
    """All programs in one ROM, with their entry addresses (targets relocated)."""
    words: list[Instr] = []
    entry: dict[str, int] = {}
    for name in PROGRAM_ORDER:
        base = len(words)
        entry[name] = base
        for it in PROGRAMS[name]:
            if it.op in (UOp.LOOP, UOp.ENDLOOP):
                it = dataclasses.replace(it, target=it.target + base)
            elif it.op == UOp.JMP:
                it = dataclasses.replace(it, target=it.target + entry[it.to])
            words.append(it)
    return words, entry


# pka_pkg::op_e of each program (MM build); ECC_MUL's entry depends on ARG[0] (ECC_X_ARG)
OP_OF_PROGRAM = {"montmul": 1, "modmul": 2, "modexp": 3, "modexp_ct": 4, "modadd": 8, "modsub": 9, "ecc": 11,
                 "ecc_x": 11}
SB_OP_OF_PROGRAM = {"sb_modmul": 2, "sb_modexp": 3, "sb_modexp_ct": 4, "sb_ecc": 11}     # SBMM build
ECC_X_ARG = 1      # ECC_MUL with ARG[0] = 1 on the MM build: the x-only ladder (program ecc_x)
ECC_RZ_ARG = 2     # ECC_MUL with ARG[1] = 1 on the MM build: random projective Z from SLOT_P (ecc_rz, ecc_xrz)
ECC_M_ARG = 4      # ECC_MUL with ARG[2] = 1 on the MM build: X25519's Montgomery ladder (ecc_m, ecc_mrz; ARG[0] ignored)
ECC_BLIND_BITS = 64   # ECC_MUL's scalar blinding k + r n (pka_top): r of 64 bits unless the curve needs more
ECC_BLIND_MAX = 256   # the longest r (ARG[5:4] = 3: four 64-bit rounds); ECC_MUL's ELEN <= MaxLen + 256
ECC_BLIND_SHIFT = 4   # ECC_MUL's ARG[5:4]: r of 64 (ARG[5:4] + 1) bits
# r's length per curve (pka.analysis.blinding.min_blind_bits, rounded up to 64): the NIST orders are of
# special form, and a 64-bit r leaves bits of k + r n biased (P-256's bits 190, 191) or not masked at
# all (P-384's bits 256..383); tests/test_blinding.py checks each entry against the analysis
ECC_BLIND_CURVE = {"p256": 128, "p384": 256}


def ucode_sv() -> str:
    """rtl/engines/rns/pka_rns_ucode.sv, generated (tests check the committed file equals this)."""
    words, entry = rom()
    aw = ROM_AW
    assert len(words) <= 1 << aw
    lines = [
        "// SPDX-License-Identifier: Apache-2.0",
        "// pka_rns_ucode: the microprogram ROM of the rns sequencer and the entry point of each opcode.",
        "// GENERATED by pka.model.rns.ucode_sv() from the golden model's PROGRAMS; do not edit by hand",
        "// (tests/test_model_rns.py checks this file against the generator).",
        "//",
        "// Word: [3:0] op (HALT MR ADD SUB LOOP ENDLOOP IFBIT MAP UNMAP SB TEST FAIL CMOV JMP), [8:4] d,",
        "// [10:9] K, pair k: a at [15+10k:11+10k], b at [20+10k:16+10k]; [42:41] kP select (2P 4P 8P),",
        f"// [43] source of LOOP, IFBIT, MAP (0 scalar/elen, 1 Fermat exponent/len), [{43 + aw}:44] loop / JMP target,",
        "// [60:53] FAIL's status code (LOOP with [62]: its fixed count), [61] FAIL's sense (the flag value",
        "// that fails), [62] LOOP: the count is [60:53], not the source's length.",
        "`default_nettype none",
        "",
        "module pka_rns_ucode (",
        f"  input  logic [{aw - 1}:0] addr_i,",
        "  output logic [63:0] data_o,",
        "  input  logic [7:0]  op_i,",
        "  input  logic        xonly_i,   // ECC_MUL's ARG[0] (MM build): the x-only ladder",
        "  input  logic        rz_i,      // ECC_MUL's ARG[1] (MM build): random projective Z",
        "  input  logic        mont_i,    // ECC_MUL's ARG[2] (MM build): X25519's Montgomery ladder",
        "  input  logic        sb_i,      // 1: entry points of the SBMM build",
        f"  output logic [{aw - 1}:0] entry_o,",
        "  output logic        valid_o,",
        "  // the entry's exact length in instruction slots, slots_a + slots_e * elen + slots_l * len",
        "  // (pka.model.rns.slot_coeffs), and whether it runs the output check (ERR_FAULT)",
        f"  output logic [{ISLOTS_A_BITS - 1}:0] slots_a_o,",
        f"  output logic [{ISLOTS_K_BITS - 1}:0] slots_e_o,",
        f"  output logic [{ISLOTS_K_BITS - 1}:0] slots_l_o,",
        "  output logic        checked_o",
        ");",
        "  always_comb begin",
        "    unique case (addr_i)",
    ]
    for a, it in enumerate(words):
        lines.append(f"      {aw}'d{a}: data_o = 64'h{it.encode():016x};  // {it.op.name} d={it.d} {list(it.pairs)}")
    def ent(name: str) -> str:
        a, e, ln, chk = slot_coeffs(words, entry[name])
        assert a < 1 << ISLOTS_A_BITS and e < 1 << ISLOTS_K_BITS and ln < 1 << ISLOTS_K_BITS
        return (f"begin entry_o = {aw}'d{entry[name]}; slots_a_o = {ISLOTS_A_BITS}'d{a}; "
                f"slots_e_o = {ISLOTS_K_BITS}'d{e}; slots_l_o = {ISLOTS_K_BITS}'d{ln}; checked_o = 1'b{int(chk)}; end")

    lines += ["      default: data_o = '0;", "    endcase", "  end", "",
              "  always_comb begin", "    valid_o = 1'b1;", "    entry_o = '0;", "    slots_a_o = '0;",
              "    slots_e_o = '0;", "    slots_l_o = '0;", "    checked_o = 1'b0;", "    if (sb_i) begin",
              "      unique case (op_i)"]
    for name, op in SB_OP_OF_PROGRAM.items():
        lines.append(f"        8'd{op}: {ent(name)}  // {name}")
    lines += ["        default: valid_o = 1'b0;", "      endcase", "    end else begin", "      unique case (op_i)"]
    for name, op in OP_OF_PROGRAM.items():
        if name == "ecc":
            lines += [f"        8'd{op}: begin  // {{mont, rz, xonly}}: ecc, ecc_x, ecc_rz, ecc_xrz; ecc_m, ecc_mrz",
                      "          unique casez ({mont_i, rz_i, xonly_i})",
                      f"            3'b000: {ent('ecc')}",
                      f"            3'b001: {ent('ecc_x')}",
                      f"            3'b010: {ent('ecc_rz')}",
                      f"            3'b011: {ent('ecc_xrz')}",
                      f"            3'b10?: {ent('ecc_m')}",
                      f"            default: {ent('ecc_mrz')}",
                      "          endcase",
                      "        end"]
        elif name != "ecc_x":
            lines.append(f"        8'd{op}: {ent(name)}  // {name}")
    lines += ["        default: valid_o = 1'b0;", "      endcase", "    end", "  end", "endmodule", ""]
    return "\n".join(lines)


def entry_points() -> dict[str, int]:
    return rom()[1]


# ---- the machine (cycle model of the RTL) -----------------------------------------------------

MR_FIXED = 16      # MR cycles = 2n + K + MR_FIXED (RTL schedule, doc/rns.md)


SB_TAIL = 6        # SBMM build: cycles of the Compress tail (c = 0..5) after an instruction's handoff
SB_LIN_ISSUE = 3   # SBMM build: ADD/SUB occupy the sequencer 3 cycles (t = 0..2) before their handoff


def sb_times(na: int, nb: int, k: int = 1) -> dict[str, int]:
    """Anchors of the RTL's SB schedule (rtl/engines/rns/pka_rns_sb.sv header), from its start.

    k pairs of products take 6k cycles; everything after them is the k = 1 schedule delayed by
    D = 6(k - 1). T1: K_u on b issued; T3: first step of BE b -> a; T4: Kz, Rz formed (SBMM done,
    `sbmm` = T4 + 1 cycles); T4 - 3 and T4 + 1: the xi of Kz_a and Rz_a for Compress issued.
    `issue` = T4 + 2: the sequencer's cycles for the SB (the Compress tail then runs SB_TAIL cycles
    beside the next instruction); `total` = issue + SB_TAIL: one SB alone, result written (latency).
    """
    d = 6 * (k - 1)
    t1 = max(11 + 2 * na, 14 + na) + d
    t3 = t1 + 9
    t4 = t3 + 4 + 2 * nb
    return {"D": d, "T1": t1, "T2": 14 + 2 * na + d, "T3": t3, "T4": t4, "sbmm": t4 + 1,
            "issue": t4 + 2, "tail": SB_TAIL, "total": t4 + 2 + SB_TAIL}


def sb_lin_cycles(na: int) -> int:
    """ADD/SUB of the SBMM build alone (latency): the sum on a (t = 0) and b (t = 1), the xi of its
    K and R issued at t = 1, 2, handoff at t = 2, then the Compress tail (independent of n_a)."""
    del na
    return SB_LIN_ISSUE + SB_TAIL


def sb_issue_cycles(it: Instr, na: int, nb: int) -> int:
    """Cycles an SBMM-build SB / ADD / SUB holds the sequencer (up to and including its handoff)."""
    if it.op == UOp.SB:
        return sb_times(na, nb, len(it.pairs))["issue"]
    assert it.op in (UOp.ADD, UOp.SUB)
    return SB_LIN_ISSUE


@dataclass
class SbTiming:
    """The SBMM build's issue rule (pka_rns_sb.sv): one Compress tail runs beside the sequencer.

    An SB / ADD / SUB X starting at cycle `now` waits while the tail (busy in [tail_end - SB_TAIL,
    tail_end)) is still to write a register X reads (RAW), and while the tail would not have
    finished by X's handoff (X's issue cycles < the tail's remaining cycles). Then X holds the
    sequencer `issue` cycles, and its Compress tail runs the SB_TAIL cycles after. LOOP / ENDLOOP /
    IFBIT / MAP / UNMAP take one cycle each; HALT waits for the tail.
    """

    now: int = 0
    tail_end: int = 0
    tail_d: int = -1
    stall_raw: int = 0
    stall_tail: int = 0

    def issue(self, d: int, srcs: Sequence[int], cycles: int) -> None:
        start = self.now
        if self.tail_end > start:
            if self.tail_d in srcs:
                self.stall_raw += self.tail_end - start
                start = self.tail_end
            elif self.tail_end - start > cycles:
                self.stall_tail += self.tail_end - start - cycles
                start = self.tail_end - cycles
        self.now = start + cycles
        self.tail_end = self.now + SB_TAIL
        self.tail_d = d

    def step(self) -> None:
        self.now += 1

    def halt(self) -> int:
        self.now = max(self.now, self.tail_end)
        return self.now


def instr_cycles(it: Instr, n: int, na: int = 0, nb: int = 0) -> int:
    """RTL cycles of one instruction alone (the sequencer's schedule; the SBMM build's SB / ADD /
    SUB with their Compress tail, which `SbTiming` overlaps with the next instruction)."""
    if it.op == UOp.SB:
        return sb_times(na, nb, len(it.pairs))["total"]
    if it.op in (UOp.ADD, UOp.SUB) and na:
        return sb_lin_cycles(na)
    if it.op == UOp.MR:
        return 2 * n + len(it.pairs) + MR_FIXED
    if it.op == UOp.HALT:
        return 0
    return 1


# ---- control-flow integrity of the MM sequencer (doc/rns.md, "Fault countermeasures") ----------

# The check token (pka_rns_core tok_q): a program with the output check (a FAIL with ERR_FAULT) starts
# PEND; that FAIL, when it passes, makes it PASS (any other value: BAD); HALT releases with ST_OK only
# from NONE (a program without the check) or PASS. The codes are 4 or more bits apart, so one flipped
# bit never turns PEND into NONE or PASS.
TOK_NONE, TOK_PEND, TOK_PASS, TOK_BAD = 0x00, 0x3C, 0xC3, 0xFF
FLAG_TRUE = 0b11   # TEST's flag in two bits (pka_rns_core flag_q): 00 false, 11 true, 01 / 10 a flipped bit
MAP_TRUE = 0b11    # the ladder map likewise (pka_rns_core map_q)


def parity(x: int) -> int:
    return bin(x).count("1") & 1


def word_parities(x: int, words: int) -> list[int]:
    """Parity of each 32-bit word of x (pka_rns_core spar_q / xpar_q, set as the load writes scal_q /
    expo_q): the scalar's bits are checked against them as the ladder consumes them."""
    return [parity((x >> (32 * i)) & 0xFFFF_FFFF) for i in range(words)]


def _walk_slots(words: Sequence[Instr], entry: int, c0: int, c1: int) -> tuple[int, bool]:
    """Instruction slots from `entry` to HALT when LOOP0 runs c0 and LOOP1 c1 times: every
    instruction counts one slot (HALT none), an IFBIT two (itself and the instruction it may skip,
    so the count is the same whichever way it branches); and whether a FAIL with ERR_FAULT (the
    output check) is on the way."""
    pc, idx, slots, checked = entry, 0, 0, False
    cnt = {0: c0, 1: c1}
    for _ in range(1 << 20):
        it = words[pc] if pc < len(words) else Instr(UOp.HALT)
        if it.op == UOp.HALT:
            return slots, checked
        slots += 1
        pc += 1
        if it.op == UOp.LOOP:
            c = it.imm or cnt[it.src]
            if c == 0:
                pc = it.target
            else:
                idx = c - 1
        elif it.op == UOp.ENDLOOP and idx != 0:
            idx -= 1
            pc = it.target
        elif it.op == UOp.IFBIT:
            slots += 1
            pc += 1
        elif it.op == UOp.JMP:
            pc = it.target
        elif it.op == UOp.FAIL and it.code == Status.ERR_FAULT:
            checked = True
    raise AssertionError("program without a HALT")


@functools.lru_cache(maxsize=None)
def _slot_coeffs_cached(words: tuple[Instr, ...], entry: int) -> tuple[int, int, int, bool]:
    a, checked = _walk_slots(words, entry, 0, 0)
    e = _walk_slots(words, entry, 1, 0)[0] - a
    ln = _walk_slots(words, entry, 0, 1)[0] - a
    for c0, c1 in ((2, 3), (7, 1), (1, 9)):
        assert _walk_slots(words, entry, c0, c1)[0] == a + e * c0 + ln * c1, "slot count not linear"
    return a, e, ln, checked


def slot_coeffs(words: Sequence[Instr], entry: int = 0) -> tuple[int, int, int, bool]:
    """(a, e, l, checked): a program's exact length in instruction slots is a + e * elen + l * len
    (elen: LOOP0's count, the scalar's bits; len: LOOP1's, the Fermat exponent's), whatever its
    data; checked: it runs the output check. pka_rns_ucode gives these per entry (slots_*_o,
    checked_o); the core compares its slot counter with the sum at HALT and ends an overrun at once."""
    return _slot_coeffs_cached(tuple(words), entry)


def program_slots(name: str, elen: int, length: int) -> int:
    """The exact slot count of a program of the ROM (`slot_coeffs`) for the command's lengths."""
    words, entry = rom()
    a, e, ln, _ = slot_coeffs(words, entry[name])
    return a + e * elen + ln * length


@dataclass
class Machine:
    """Register file (per register: B residues, scaled B' residues), the sequencer's control state
    (what a fault hook may flip: pc, idx, src, map_code, flag_code, scal, spar, expo, xpar, elen,
    elen2, slots, slots_end, tok) and counters. `faulted`: a control fault has been injected; from
    then on the program may run in any order, and the model computes what the rowers compute without
    asserting the program's static bounds and the MR's invariants (they hold for the program as
    written, not for a corrupted one)."""

    ctx: MmCtx
    regs: list[Rns]
    cycles: int = 0
    mrs: int = 0
    emm: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    worst_mr_bound: int = 0   # largest static MR input bound seen, in units of P^2
    status: int = 0           # Status.OK, or the code of the FAIL (or fault check) that ended the program
    flag_code: int = 0        # TEST's result in two bits (FLAG_TRUE or 0; FAIL, CMOV)
    steps: int = 0            # instructions executed (the fault hook's clock)
    pc: int = 0
    idx: int = 0              # the loop's bit index
    src: int = 0              # the loop's source as LOOP set it (read for IFBIT / MAP only without fault_check)
    map_code: int = 0         # the ladder map (MAP) in two bits, 0 or MAP_TRUE (pka_rns_core map_q)
    scal: int = 0             # SLOT_E: the scalar / exponent (secret), its loaded words
    spar: list[int] = field(default_factory=list)   # parity of each word of scal
    expo: int = 0             # SLOT_X2: the Fermat exponent P - 2 (public)
    xpar: list[int] = field(default_factory=list)   # parity of each word of expo
    elen: int = 0             # LOOP0's count (the scalar's length)
    elen2: int = 0            # LOOP1's count (len)
    slots: int = 0            # instruction slots passed (an IFBIT: 2)
    slots_end: int = 0        # the program's exact slot count (`slot_coeffs`), fixed at the command
    tok: int = TOK_NONE       # the check token
    fault_at: str = ""        # which integrity check ended the program with ERR_FAULT ("" if none)
    faulted: bool = False     # a control fault was injected (control_fault)

    @property
    def flag(self) -> bool:
        return bool(self.flag_code & 1)

    @property
    def mp(self) -> int:
        return self.map_code & 1

    def out(self) -> tuple[Rns, Rns]:
        """What the store writes to SLOT_R and SLOT_R_HI: RES and RES_HI, or zeros after a FAIL."""
        if self.status != Status.OK:
            zero: Rns = ((0,) * self.ctx.n, (0,) * self.ctx.n)
            return zero, zero
        return self.regs[RES], self.regs[RES_HI]


FaultHook = Callable[[int, "Machine"], None]


def value_fault(step: int, reg: int, delta: int) -> FaultHook:
    """A fault model for run_machine: after the `step`-th instruction executed (0-based), register
    `reg` (physical) holds its value + delta mod P (both halves alike, so the RNS invariants hold and
    the model's asserts see a consistent but wrong intermediate)."""
    def hook(i: int, mach: Machine) -> None:
        if i == step:
            ctx = mach.ctx
            mach.regs[reg] = ctx.to_rns((ctx.from_rns(mach.regs[reg]) + delta) % ctx.p)
    return hook


CONTROL_FIELDS = ("pc", "idx", "src", "map_code", "flag_code", "scal", "expo", "elen", "elen2", "slots", "slots_end", "tok")


def control_fault(step: int, name: str, bit: int) -> FaultHook:
    """A fault model for run_machine: after the `step`-th instruction executed (0-based), one bit of
    the sequencer's control state `name` (CONTROL_FIELDS, the RTL's pc_q, idx_q, src_q, map_q,
    flag_q, scal_q, expo_q, elen_q, len_q, ic_q, icend_q, tok_q) flips, as a flipped register bit
    of pka_rns_core between two instructions."""
    assert name in CONTROL_FIELDS

    def hook(i: int, mach: Machine) -> None:
        if i == step:
            setattr(mach, name, getattr(mach, name) ^ (1 << bit))
            mach.faulted = True
    return hook


def map_reg(r: int, m: int) -> int:
    return ((r - 1) ^ (m << 1)) + 1 if 1 <= r <= 4 else r


def run_machine(ctx: MmCtx, prog: Sequence[Instr], inputs: Mapping[int, int], scalar: int = 0, elen: int = 0,
                expo: int = 0, elen2: int = 0, progress: Callable[[int], None] | None = None,
                fault: FaultHook | None = None, fault_check: bool = True,
                raw: Mapping[int, Rns] | None = None, start: int = 0) -> Machine:
    """Execute a microprogram on the RNS registers with the RTL's cycle costs.

    Ends at HALT (status OK) or at a FAIL whose test fails (status = its code, `out()` zeros).
    `fault` (tests only) is called after every instruction with its index and may corrupt state
    (`value_fault`: a register's value; `control_fault`: a bit of the sequencer's control state).
    The sequencer's integrity checks (pka_rns_core with FaultCheck = 1; doc/rns.md, "Fault
    countermeasures") end the program with ERR_FAULT (zeros) and name the check in `fault_at`:
      "flag"   TEST's two-bit flag is 01 or 10 (checked as every instruction starts; 1 cycle);
      "map"    the two-bit ladder map is 01 or 10 (likewise);
      "parity" the scalar / exponent word an IFBIT or MAP reads fails its load-time parity (1 cycle);
      "op"     an opcode the MM build does not execute (the SBMM build's SB; 1 cycle);
      "overrun" an instruction would take the slot count past the program's exact length (after it);
      "halt"   HALT with a slot count other than the exact length, or the check token neither NONE
               nor PASS (the HALT then costs 1 cycle).
    IFBIT and MAP read the source their own word names (`Instr.src`).
    fault_check False is the RTL's FaultCheck = 0 (campaigns): none of the above, a FAIL with
    ERR_FAULT never fires, and IFBIT / MAP read the source the last LOOP set (the register `src`).
    `raw`: registers loaded with arbitrary residue vectors (ECC_MUL's random words, `rz_residues`),
    which only an MR_RAW MR may read. `start`: the first pc (a program's entry in `rom()`)."""
    zero: Rns = ((0,) * ctx.n, (0,) * ctx.n)
    mach = Machine(ctx, [zero] * NUM_REGS)
    for r, v in inputs.items():
        mach.regs[r] = ctx.to_rns(v)
    bound = [1] * NUM_REGS   # static bounds in units of P (inputs are canonical)
    bound[ZERO] = 0
    # registers holding no value below a bound: "raw" residue vectors, "signed" MR_RAW outputs
    odd: dict[int, str] = {}
    for r, rv in (raw or {}).items():
        assert all(0 <= x < m for x, m in zip(rv[0] + rv[1], ctx.b + ctx.bp)), "raw residue out of range"
        mach.regs[r] = rv
        odd[r] = "raw"

    def holds(cond: bool, msg: str) -> None:
        """The program's static bounds and invariants: asserted unless a control fault was injected."""
        assert cond or mach.faulted, msg

    def canon(*regs: int) -> None:
        """Linear ops, TEST, CMOV and MR_CANON read values below their static bounds only."""
        holds(not any(r in odd for r in regs), f"a {[odd[r] for r in regs if r in odd]} register read as a value")

    # the command: what the load leaves in scal_q / expo_q (whole words) and their parities, and the
    # program's exact length and check token, fixed before the program runs
    ew, xw = (elen + 31) // 32, (elen2 + 31) // 32
    mach.scal, mach.expo = scalar & ((1 << (32 * ew)) - 1), expo & ((1 << (32 * xw)) - 1)
    mach.spar, mach.xpar = word_parities(mach.scal, ew), word_parities(mach.expo, xw)
    mach.elen, mach.elen2, mach.pc = elen, elen2, start
    sa, se, sl, checked = slot_coeffs(prog, start)
    mach.slots_end = sa + se * elen + sl * elen2
    mach.tok = TOK_PEND if checked else TOK_NONE
    p = ctx.p

    def end_fault(why: str, cycles: int) -> None:
        mach.cycles += cycles
        mach.status = Status.ERR_FAULT
        mach.fault_at = why

    def bit_of(src: int) -> int | None:
        """The bit an IFBIT / MAP reads (bit idx of the source), None when its word's parity fails."""
        val, par = (mach.scal, mach.spar) if src == 0 else (mach.expo, mach.xpar)
        w = mach.idx >> 5
        word = (val >> (32 * w)) & 0xFFFF_FFFF
        if fault_check and parity(word) != (par[w] if w < len(par) else 0):
            return None
        return (word >> (mach.idx & 31)) & 1

    while True:
        it = prog[mach.pc] if mach.pc < len(prog) else Instr(UOp.HALT)    # the ROM reads 0 (HALT) past its end
        if fault_check and mach.flag_code not in (0, FLAG_TRUE):
            end_fault("flag", 1)
            break
        if fault_check and mach.map_code not in (0, MAP_TRUE):
            end_fault("map", 1)
            break
        if it.op == UOp.HALT:
            if fault_check and (mach.slots != mach.slots_end or mach.tok not in (TOK_NONE, TOK_PASS)):
                end_fault("halt", 1)
            break
        if it.op == UOp.SB:
            if fault_check:
                end_fault("op", 1)
            else:
                mach.cycles += 1      # FaultCheck = 0: the old sequencer stores RES with status OK
            break
        bit = 0
        if it.op in (UOp.IFBIT, UOp.MAP):
            b = bit_of(it.src if fault_check else mach.src)
            if b is None:
                end_fault("parity", 1)
                break
            bit = b
        mach.cycles += instr_cycles(it, ctx.n)
        mach.counts[it.op.name] = mach.counts.get(it.op.name, 0) + 1
        mach.pc += 1
        slots = 1
        mp = mach.mp
        d = map_reg(it.d, mp)
        if it.op == UOp.MR:
            prs = [(map_reg(a, mp), map_reg(b, mp)) for a, b in it.pairs]
            tr = MrTrace()
            if it.mode == MR_CANON:
                canon(*(r for pr in prs for r in pr))
                xb = sum(bound[a] * bound[b] for a, b in prs)
                holds(xb < ctx.max_k_bound(), "static MR input bound too large for M")
                mach.worst_mr_bound = max(mach.worst_mr_bound, xb)
                mach.regs[d] = mr(ctx, [(mach.regs[a], mach.regs[b]) for a, b in prs], tr, xbound=xb * p * p,
                                  invariants=not mach.faulted)
                odd.pop(d, None)
            else:
                (a, b), = prs
                want = "raw" if it.mode == MR_RAW else "signed"
                holds(odd.get(a) == want and b not in odd, f"MR mode {it.mode} needs a {want} register")
                if it.mode == MR_RAW:       # any canonical b would do; the program uses ONE
                    holds(bound[b] <= 1, "MR_RAW multiplies by a canonical register")
                mach.regs[d] = mr(ctx, [(mach.regs[a], mach.regs[b])], tr, mode=it.mode, invariants=not mach.faulted)
                if it.mode == MR_RAW:
                    odd[d] = "signed"
                else:
                    odd.pop(d, None)
            mach.mrs += 1
            mach.emm += tr.emm
            bound[d] = 2
            if progress is not None and mach.mrs % 64 == 0:
                progress(mach.cycles)
        elif it.op in (UOp.ADD, UOp.SUB):
            a, b = (map_reg(x, mp) for x in it.pairs[0])
            canon(a, b)
            odd.pop(d, None)
            va, vb = mach.regs[a], mach.regs[b]
            if it.op == UOp.ADD:
                vb2 = vb
                bnd = bound[a] + bound[b]
                mach.regs[d] = (tuple((x + y) % m for x, y, m in zip(va[0], vb2[0], ctx.b)),
                                tuple((x + y) % m for x, y, m in zip(va[1], vb2[1], ctx.bp)))
            else:
                kpv = 2 << it.kp
                holds(bound[b] <= kpv, "SUB: subtrahend bound above kP")
                bnd = bound[a] + kpv
                tab = ctx.table
                mach.regs[d] = (tuple((x - y + tab[j][6 + it.kp]) % ctx.b[j] for j, (x, y) in enumerate(zip(va[0], vb[0]))),
                                tuple((x - y + tab[j][9 + it.kp]) % ctx.bp[j] for j, (x, y) in enumerate(zip(va[1], vb[1]))))
            holds(bnd <= it.bound, f"static bound of {it.op.name} exceeds the annotation")
            bound[d] = it.bound
            val = ctx.from_rns(mach.regs[d])
            holds(val <= it.bound * p, "linear op result above its bound")
        elif it.op == UOp.LOOP:
            mach.src = it.src
            cnt = it.imm or (mach.elen if it.src == 0 else mach.elen2)
            if cnt == 0:
                mach.pc = it.target
            else:
                mach.idx = cnt - 1
        elif it.op == UOp.ENDLOOP:
            if mach.idx != 0:
                mach.idx -= 1
                mach.pc = it.target
        elif it.op == UOp.IFBIT:
            if bit == 0:
                mach.pc += 1
                slots = 2
        elif it.op == UOp.MAP:
            mach.map_code = MAP_TRUE if bit else 0
        elif it.op == UOp.UNMAP:
            mach.map_code = 0
        elif it.op == UOp.JMP:
            mach.pc = it.target
        elif it.op == UOp.TEST:
            a = map_reg(it.pairs[0][0], mp)
            canon(a)
            holds(bound[a] <= 2, "TEST needs a value below 2P")
            # the rowers: 2 x_i mod m_i against 0 and |2P|_mi (cst 6), ANDed over the channels
            dbl = [(2 * r) % m for r, m in zip(mach.regs[a][0], ctx.b)]
            z0 = all(v == 0 for v in dbl)
            z2 = all(v == ctx.table[j][6] for j, v in enumerate(dbl))
            mach.flag_code = FLAG_TRUE if (z0 or z2) else 0
            holds(mach.flag == (ctx.from_rns(mach.regs[a]) % p == 0), "TEST: the flag is a == 0 mod P")
        elif it.op == UOp.FAIL:
            if int(mach.flag) == it.sense and (fault_check or it.code != Status.ERR_FAULT):
                mach.status = it.code
                break
            if it.code == Status.ERR_FAULT:
                mach.tok = TOK_PASS if mach.tok == TOK_PEND else TOK_BAD
        elif it.op == UOp.CMOV:
            a = map_reg(it.pairs[0][0], mp)
            canon(a, d)
            holds(max(bound[a], bound[d]) <= it.bound, "CMOV: bound above the annotation")
            if mach.flag:
                mach.regs[d] = mach.regs[a]
            bound[d] = it.bound
        mach.slots += slots
        if fault_check and mach.slots > mach.slots_end:
            end_fault("overrun", 0)
            break
        if fault is not None:
            fault(mach.steps, mach)
        mach.steps += 1
    return mach


# ---- parameter checks -------------------------------------------------------------------------

def _w(params: Mapping[str, Any]) -> int:
    w = int(params.get("w", 32))
    if w not in W_CHOICES:
        raise PkaError(Status.ERR_PARAM, f"rns: w={w} not supported (16, 32)")
    return w


def _alg(params: Mapping[str, Any]) -> str:
    alg = str(params.get("alg", "mm"))
    if alg not in ("mm", "sbmm"):
        raise PkaError(Status.ERR_PARAM, f"rns: alg={alg} not supported (mm, sbmm)")
    return alg


def check_modulus(mod: int, w: int) -> None:
    if mod <= 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "modulus must be positive")
    bits = mod.bit_length()
    if bits < MIN_BITS:
        raise PkaError(Status.ERR_LENGTH, f"rns: modulus of {bits} bits, the engine needs at least {MIN_BITS}")
    if bits > MAX_BITS[w]:
        raise PkaError(Status.ERR_LENGTH, f"rns: modulus of {bits} bits exceeds {MAX_BITS[w]} for w={w}")
    if mod % 2 == 0:
        raise PkaError(Status.ERR_EVEN_MODULUS, "modulus must be odd")


def _check_operand(x: int, mod: int, what: str) -> None:
    if not 0 <= x < mod:
        raise PkaError(Status.ERR_OPERAND_RANGE, f"{what} out of range [0, N)")


# ---- MM-path operations -----------------------------------------------------------------------

def loaded_regs(ctx: MmCtx, inputs: Mapping[int, int]) -> dict[int, int]:
    """Every register the engine loads from memory: zeros, ONE = 1, RW = M^2 mod P (SLOT_W), then
    the command's inputs (what pka.rtl.rns.write_context writes)."""
    full = {r: 0 for r in LOADED_REGS}
    full[ONE] = 1
    full[RW] = (ctx.m * ctx.m) % ctx.p
    full.update(inputs)
    return full


def _mm_run(name: str, mod: int, w: int, inputs: Mapping[int, int], scalar: int = 0, elen: int = 0,
            expo: int = 0, elen2: int = 0, progress: Callable[[int], None] | None = None) -> tuple[MmCtx, Machine]:
    ctx = mm_context(mod, w)
    mach = run_machine(ctx, PROGRAMS[name], loaded_regs(ctx, inputs), scalar, elen, expo, elen2, progress)
    return ctx, mach


def _detail(ctx: MmCtx, mach: Machine, **extra: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"n": ctx.n, "w": ctx.w, "alg": "mm", "base_b": list(ctx.b), "base_bp": list(ctx.bp),
                         "mr_count": mach.mrs, "emm": mach.emm, "total_cycles": mach.cycles,
                         "mm_cycles": 2 * ctx.n + 1 + MR_FIXED}
    d.update(extra)
    return d


def modmul_mm(a: int, b: int, mod: int, w: int) -> OpResult:
    ctx, mach = _mm_run("modmul", mod, w, {IN_A: a, IN_B: b})
    res = ctx.from_rns(mach.regs[RES]) % mod
    return OpResult(res, 2 * ctx.n + 1 + MR_FIXED, None, _detail(ctx, mach))


def modexp_mm(base: int, exp: int, mod: int, w: int) -> OpResult:
    ctx, mach = _mm_run("modexp", mod, w, {IN_A: base}, scalar=exp, elen=exp.bit_length())
    res = ctx.from_rns(mach.regs[RES]) % mod
    return OpResult(res, mach.cycles, None, _detail(ctx, mach))


def linop_mm(op: str, a: int, b: int, mod: int, w: int) -> OpResult:
    """RNS modular addition/subtraction (result < 2P/3P redundant, reduced by the host conversion)."""
    ctx, mach = _mm_run(op, mod, w, {IN_A: a, IN_B: b})
    return OpResult(ctx.from_rns(mach.regs[RES]) % mod, mach.cycles, None, _detail(ctx, mach))


# ---- SBMM: P = Ma^2 - 2 on half bases a | b | m_gamma -----------------------------------------

@dataclass(frozen=True)
class SbmmCtx:
    p: int
    w: int
    a: tuple[int, ...]
    b: tuple[int, ...]

    @property
    def ma(self) -> int:
        return prod(self.a)

    @property
    def mb(self) -> int:
        return prod(self.b)

    @property
    def na(self) -> int:
        return len(self.a)

    @property
    def nb(self) -> int:
        return len(self.b)

    @property
    def n(self) -> int:
        return self.na + self.nb

    @property
    def chans(self) -> tuple[int, ...]:
        return self.a + self.b + (M_GAMMA,)


def sbmm_b_base(a: Sequence[int], w: int) -> tuple[int, ...]:
    """Base b: the n_a + 1 smallest-c moduli coprime to a (so M_b > 6 M_a with a wide margin)."""
    return pick_coprime(candidate_moduli(w), len(a) + 1, avoid=tuple(a) + (2,))


def sbmm_context(p: int, w: int) -> SbmmCtx:
    """Recover base a from P = Ma^2 - 2 (Ma must factor into pairwise coprime 2^w - c moduli)."""
    r, exact = gmpy2.iroot(gmpy2.mpz(p + 2), 2)
    if not exact or p < 7:
        raise PkaError(Status.ERR_UNSUPPORTED, "sbmm: modulus is not of the form Ma^2 - 2")
    ma = int(r)
    a: list[int] = []
    rest = ma
    for m in candidate_moduli(w):
        if rest % m == 0 and all(gcd(m, x) == 1 for x in a):
            a.append(m)
            rest //= m
    if rest != 1 or not a:
        raise PkaError(Status.ERR_UNSUPPORTED, f"sbmm: Ma = sqrt(P+2) is not a product of coprime 2^{w}-c moduli")
    if cox_error(a, w) >= 0.5:
        raise PkaError(Status.ERR_LENGTH, "sbmm: too many channels for the Cox error bound")
    return SbmmCtx(p, w, tuple(a), sbmm_b_base(a, w))


def gen_sbmm_prime(bits: int, w: int, seed: int = SBMM_SEED) -> SbmmCtx:
    """Deterministic P = Ma^2 - 2 of `bits` bits: random n_a-subsets of the moduli until prime."""
    assert bits % (2 * w) == 0, "SBMM primes have 2 n_a w bits"
    na = bits // (2 * w)
    rng = random.Random(seed * 1000 + bits * 10 + w)
    cands = candidate_moduli(w)
    while True:
        pick = sorted(rng.sample(cands, na), reverse=True)
        if any(gcd(x, y) != 1 for i, x in enumerate(pick) for y in pick[i + 1:]):
            continue
        p = prod(pick) ** 2 - 2
        if p.bit_length() == bits and gmpy2.is_prime(p, 50):
            return SbmmCtx(p, w, tuple(pick), sbmm_b_base(pick, w))


Kr = tuple[tuple[int, ...], tuple[int, ...]]   # (K residues, R residues) over a | b | gamma


@dataclass
class SbmmCount:
    emm: int = 0
    gmm: int = 0
    split_fix: int = 0      # Split's "K = -1 -> 0" corrections
    compress_fix: int = 0   # Compress's "Q = 63 (-1) -> 0" corrections


def _split(ctx: SbmmCtx, x: Sequence[int], cnt: SbmmCount) -> tuple[list[int], list[int]]:
    """Split X (residues over a|b|gamma) into K, R with X = K Ma + R, R < 2 Ma (asserted)."""
    na, nb, w = ctx.na, ctx.nb, ctx.w
    a, b, ma, mb = ctx.a, ctx.b, ctx.ma, ctx.mb
    xa, xb, xg = list(x[:na]), list(x[na:na + nb]), x[-1]
    X = crt(list(x), ctx.chans)
    xis = [rower_reduce(xa[i] * inv(ma // a[i], a[i]), a[i], w) for i in range(na)]
    cnt.emm += na
    k, _ = cox_k(xis, w, alpha_half=False)
    rb = [rower_reduce(sum(xis[i] * ((ma // a[i]) % b[j]) for i in range(na)) + k * ((-ma) % b[j]), b[j], w)
          for j in range(nb)]
    rg = (sum(xis[i] * ((ma // a[i]) % M_GAMMA) for i in range(na)) + k * ((-ma) % M_GAMMA)) % M_GAMMA
    cnt.emm += na * nb
    cnt.gmm += na
    kb = [rower_reduce(((xb[j] - rb[j]) % b[j]) * inv(ma, b[j]), b[j], w) for j in range(nb)]
    kg = ((xg - rg) * inv(ma, M_GAMMA)) % M_GAMMA
    cnt.emm += nb
    cnt.gmm += 1
    if all(kb[j] == b[j] - 1 for j in range(nb)) and kg == M_GAMMA - 1:   # K = -1: Kawamura correction
        cnt.split_fix += 1
        kb = [0] * nb
        kg = 0
        rb = [(rb[j] - ma) % b[j] for j in range(nb)]
        rg = (rg - ma) % M_GAMMA
    xib = [rower_reduce(kb[j] * inv(mb // b[j], b[j]), b[j], w) for j in range(nb)]
    cnt.emm += nb
    k2, _ = cox_k(xib, w, alpha_half=True)
    ka = [rower_reduce(sum(xib[j] * ((mb // b[j]) % a[i]) for j in range(nb)) + k2 * ((-mb) % a[i]), a[i], w)
          for i in range(na)]
    cnt.emm += na * nb
    K = crt(ka + kb + [kg], ctx.chans)
    R = crt(xa + rb + [rg], ctx.chans)
    assert X == K * ma + R and R < 2 * ma and 2 * K < mb, "Split: X != K Ma + R with R < 2 Ma"
    return ka + kb + [kg], xa + rb + [rg]


def sbmm(ctx: SbmmCtx, pairs: Sequence[tuple[Kr, Kr]], cnt: SbmmCount) -> Kr:
    """SBMM of a sum of products: (Kz, Rz) with Kz Ma + Rz == sum x*y (mod P)."""
    chans = ctx.chans
    u, v = [], []
    for ci, m in enumerate(chans):
        su = sv = 0
        for (kx, rx), (ky, ry) in pairs:
            p1, p2, p3 = kx[ci] * ky[ci], rx[ci] * ry[ci], (kx[ci] + rx[ci]) * (ky[ci] + ry[ci])
            su += 2 * p1 + p2
            sv += p3 - p1 - p2
        u.append(su % m)
        v.append(sv % m)
    cnt.emm += 3 * ctx.n * len(pairs)
    cnt.gmm += 3 * len(pairs)
    U = sum(crt(x[0], chans) * crt(y[0], chans) * 2 + crt(x[1], chans) * crt(y[1], chans) for x, y in pairs)
    assert crt(u, chans) == U, "U does not fit the a|b|gamma range"
    ku, ru = _split(ctx, u, cnt)
    kv, rv = _split(ctx, v, cnt)
    kz = tuple((ku[i] + rv[i]) % m for i, m in enumerate(chans))
    rz = tuple((2 * kv[i] + ru[i]) % m for i, m in enumerate(chans))
    return kz, rz


def compress(ctx: SbmmCtx, x: Kr, cnt: SbmmCount) -> Kr:
    """Compress (slides): K, R < (m_gamma - 1) Ma in, Kc, Rc < 3 Ma out, same value mod P."""
    na, nb, w = ctx.na, ctx.nb, ctx.w
    a, b, ma = ctx.a, ctx.b, ctx.ma
    chans = ctx.chans
    outs: list[tuple[int, list[int]]] = []
    for y in x:
        Y = crt(list(y), chans)
        assert Y < (M_GAMMA - 1) * ma, "Compress input >= (m_gamma - 1) Ma"
        xis = [rower_reduce(y[i] * inv(ma // a[i], a[i]), a[i], w) for i in range(na)]
        cnt.emm += na
        k, _ = cox_k(xis, w, alpha_half=False)
        rg = (sum(xis[i] * ((ma // a[i]) % M_GAMMA) for i in range(na)) + k * ((-ma) % M_GAMMA)) % M_GAMMA
        cnt.gmm += na
        q = ((y[-1] - rg) * inv(ma, M_GAMMA)) % M_GAMMA
        cnt.gmm += 1
        if q == M_GAMMA - 1:
            cnt.compress_fix += 1
            q = 0
        rem = list(y[:na]) + [(y[na + j] - q * (ma % b[j])) % b[j] for j in range(nb)] + [(y[-1] - q * ma) % M_GAMMA]
        cnt.emm += nb
        R = crt(rem, chans)
        assert Y == q * ma + R and R < 2 * ma, "Compress: Y != Q Ma + R with R < 2 Ma"
        outs.append((q, rem))
    (qk, rk), (qr, rr) = outs
    kc = tuple((rk[i] + qr) % m for i, m in enumerate(chans))
    rc = tuple((rr[i] + 2 * qk) % m for i, m in enumerate(chans))
    assert crt(list(kc), chans) < 3 * ma and crt(list(rc), chans) < 3 * ma
    return kc, rc


def emm_sbmm(na: int, nb: int, products: int = 1) -> int:
    """EMMs of one SBMM: 3n per product (Karatsuba) + two Splits of n_a + 2 n_b + 2 n_a n_b each.

    With n_a = n_b = n/2 this is n^2 + 6n, one EMM per channel more than the slides' n^2 + 5n
    (our Split multiplies on b both by Ma^-1 for K and by Mb_j^-1 for the second BE's xi).
    """
    return 3 * (na + nb) * products + 2 * (na + 2 * nb) + 4 * na * nb


def emm_compress(na: int, nb: int) -> tuple[int, int]:
    """(EMM, GMM) of Compress: 2n EMM and 2 n_a + 2 GMM (the slides' n + 2 with n_a = n/2)."""
    return 2 * (na + nb), 2 * na + 2


def sbmm_to(ctx: SbmmCtx, x: int) -> Kr:
    k, r = divmod(x, ctx.ma)
    return tuple(k % m for m in ctx.chans), tuple(r % m for m in ctx.chans)


def sbmm_from(ctx: SbmmCtx, v: Kr) -> int:
    return (crt(list(v[0]), ctx.chans) * ctx.ma + crt(list(v[1]), ctx.chans)) % ctx.p


def sbmm_value(ctx: SbmmCtx, v: Kr) -> tuple[int, int]:
    return crt(list(v[0]), ctx.chans), crt(list(v[1]), ctx.chans)


@dataclass
class SbMachine:
    ctx: SbmmCtx
    regs: list[Kr]
    cycles: int = 0
    sbs: int = 0
    cnt: SbmmCount = field(default_factory=SbmmCount)
    timing: SbTiming = field(default_factory=SbTiming)


def sb_zero_rep(ctx: SbmmCtx) -> Kr:
    """(3Ma - 3, 3Ma - 6): a representation of 3P == 0, added by the SBMM build's SUB."""
    ma = ctx.ma
    assert (3 * ma - 3) * ma + 3 * ma - 6 == 3 * ctx.p
    return tuple((3 * ma - 3) % m for m in ctx.chans), tuple((3 * ma - 6) % m for m in ctx.chans)


def run_sb_machine(ctx: SbmmCtx, prog: Sequence[Instr], inputs: Mapping[int, int], scalar: int = 0,
                   elen: int = 0, expo: int = 0, elen2: int = 0,
                   progress: Callable[[int], None] | None = None) -> SbMachine:
    """Execute an SBMM-build microprogram with the RTL's cycle costs: SB = Compress(SBMM(sum of
    1..3 products)), ADD/SUB = Compress(a +- b), loops, the ladder map. Cycles: `SbTiming` (each
    Compress runs beside the next instruction unless that one reads its result)."""
    zero = sbmm_to(ctx, 0)
    mach = SbMachine(ctx, [zero] * NUM_REGS)
    for r, v in inputs.items():
        mach.regs[r] = sbmm_to(ctx, v % ctx.p)
    z0 = sb_zero_rep(ctx)
    ch = ctx.chans
    pc, idx, src, mp = 0, 0, 0, 0
    srcs = {0: (scalar, elen), 1: (expo, elen2)}
    tm = mach.timing
    while True:
        it = prog[pc]
        if it.op == UOp.HALT:
            mach.cycles = tm.halt()
            break
        if it.op in (UOp.SB, UOp.ADD, UOp.SUB):
            tm.issue(map_reg(it.d, mp), [map_reg(r, mp) for pr in it.pairs for r in pr],
                     sb_issue_cycles(it, ctx.na, ctx.nb))
        else:
            tm.step()
        pc += 1
        d = map_reg(it.d, mp)
        if it.op == UOp.SB:
            prs = [(mach.regs[map_reg(a, mp)], mach.regs[map_reg(b, mp)]) for a, b in it.pairs]
            mach.regs[d] = compress(ctx, sbmm(ctx, prs, mach.cnt), mach.cnt)
            mach.sbs += 1
            if progress is not None and mach.sbs % 64 == 0:
                progress(tm.now)
        elif it.op in (UOp.ADD, UOp.SUB):
            (a, b), = it.pairs
            x, y = mach.regs[map_reg(a, mp)], mach.regs[map_reg(b, mp)]
            lv: Kr
            if it.op == UOp.ADD:
                lv = (tuple((p + q) % m for p, q, m in zip(x[0], y[0], ch)),
                      tuple((p + q) % m for p, q, m in zip(x[1], y[1], ch)))
            else:
                yk, yr = sbmm_value(ctx, y)
                assert yk <= 3 * ctx.ma - 3 and yr <= 3 * ctx.ma - 6, "SUB: subtrahend above the zero representation"
                lv = (tuple((p + z - q) % m for p, z, q, m in zip(x[0], z0[0], y[0], ch)),
                      tuple((p + z - q) % m for p, z, q, m in zip(x[1], z0[1], y[1], ch)))
            mach.regs[d] = compress(ctx, lv, mach.cnt)
        elif it.op == UOp.LOOP:
            src = it.src
            cnt = srcs[src][1]
            if cnt == 0:
                pc = it.target
            else:
                idx = cnt - 1
        elif it.op == UOp.ENDLOOP:
            if idx != 0:
                idx -= 1
                pc = it.target
        elif it.op == UOp.IFBIT:
            if (srcs[src][0] >> idx) & 1 == 0:
                pc += 1
        elif it.op == UOp.MAP:
            mp = (srcs[src][0] >> idx) & 1
        elif it.op == UOp.UNMAP:
            mp = 0
        else:
            raise AssertionError(f"{it.op.name} is not an SBMM-build instruction")
    return mach


def _sb_detail(ctx: SbmmCtx, mach: SbMachine) -> dict[str, Any]:
    return {"alg": "sbmm", "w": ctx.w, "n_a": ctx.na, "n_b": ctx.nb, "base_a": list(ctx.a), "base_b": list(ctx.b),
            "sb_count": mach.sbs, "emm": mach.cnt.emm, "gmm": mach.cnt.gmm, "total_cycles": mach.cycles,
            "sbmm_cycles": sb_times(ctx.na, ctx.nb)["sbmm"], "sb_cycles": sb_times(ctx.na, ctx.nb)["total"],
            "sb_issue_cycles": sb_times(ctx.na, ctx.nb)["issue"], "raw_wait_cycles": mach.timing.stall_raw,
            "tail_wait_cycles": mach.timing.stall_tail}


def modmul_sbmm(a: int, b: int, mod: int, w: int) -> OpResult:
    ctx = sbmm_context(mod, w)
    mach = run_sb_machine(ctx, PROGRAMS["sb_modmul"], {IN_A: a, IN_B: b})
    return OpResult(sbmm_from(ctx, mach.regs[RES]), mach.cycles, None, _sb_detail(ctx, mach))


def modexp_sbmm(base: int, exp: int, mod: int, w: int) -> OpResult:
    ctx = sbmm_context(mod, w)
    mach = run_sb_machine(ctx, PROGRAMS["sb_modexp"], {IN_A: base, ONE: 1}, exp, exp.bit_length())
    return OpResult(sbmm_from(ctx, mach.regs[RES]), mach.cycles, None, _sb_detail(ctx, mach))


# ---- the Python surface ------------------------------------------------------------------------

def modmul(a: int, b: int, mod: int, params: Mapping[str, Any]) -> OpResult:
    """a*b mod N. cycles = one MM (RTL), detail total_cycles = the whole op (two MRs)."""
    w, alg = _w(params), _alg(params)
    check_modulus(mod, w)
    _check_operand(a, mod, "a")
    _check_operand(b, mod, "b")
    if alg == "sbmm":
        return modmul_sbmm(a, b, mod, w)
    return modmul_mm(a, b, mod, w)


def modexp(base: int, exp: int, mod: int, params: Mapping[str, Any]) -> OpResult:
    w, alg = _w(params), _alg(params)
    check_modulus(mod, w)
    if exp < 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "exponent must be >= 0")
    _check_operand(base, mod, "base")
    if exp.bit_length() > MAX_BITS[w]:
        raise PkaError(Status.ERR_LENGTH, f"rns: exponent of {exp.bit_length()} bits exceeds {MAX_BITS[w]}")
    if alg == "sbmm":
        return modexp_sbmm(base, exp, mod, w)
    return modexp_mm(base, exp, mod, w)


# ---- curves --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Curve:
    """y^2 = x^3 + a x + b over F_p, generator (gx, gy).

    order: the order of G, prime; #E = cofactor * order. The SBMM curves' orders were counted by
    tools/gen_sbmm_curves.py (PARI's SEA) and are written in SBMM_CURVES (cofactor 1). order_known
    is False only for a curve whose order was not counted: `order` is then the Hasse bound
    p + 1 + 2 sqrt(p) (a scalar range, not an order) and cofactor 0.
    """

    name: str
    p: int
    a: int
    b: int
    gx: int
    gy: int
    order: int
    cofactor: int
    order_known: bool
    w: int                 # channel width of the slides' implementation of this size


def _sqrt_mod(c: int, p: int) -> int | None:
    if c % p == 0:
        return 0
    if gmpy2.legendre(c, p) != 1:
        return None
    if p % 4 == 3:
        return int(gmpy2.powmod(c, (p + 1) // 4, p))
    # Tonelli-Shanks
    q, s = p - 1, 0
    while q % 2 == 0:
        q //= 2
        s += 1
    z = 2
    while gmpy2.legendre(z, p) != -1:
        z += 1
    mm, cc, t, r = s, pow(z, q, p), pow(c, q, p), pow(c, (q + 1) // 2, p)
    while t != 1:
        i, t2 = 0, t
        while t2 != 1:
            t2 = t2 * t2 % p
            i += 1
        bb = pow(cc, 1 << (mm - i - 1), p)
        mm, cc, t, r = i, bb * bb % p, t * bb * bb % p, r * bb % p
    return r


def affine_add(c: Curve, p1: tuple[int, int] | None, p2: tuple[int, int] | None) -> tuple[int, int] | None:
    """Reference affine group law (None = point at infinity), used for cross-checks."""
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    p = c.p
    (x1, y1), (x2, y2) = p1, p2
    if x1 == x2 and (y1 + y2) % p == 0:
        return None
    if p1 == p2:
        lam = (3 * x1 * x1 + c.a) * inv(2 * y1, p) % p
    else:
        lam = (y2 - y1) * inv(x2 - x1, p) % p
    x3 = (lam * lam - x1 - x2) % p
    return x3, (lam * (x1 - x3) - y1) % p


def affine_mul(c: Curve, k: int, pt: tuple[int, int] | None) -> tuple[int, int] | None:
    """Reference double-and-add."""
    acc: tuple[int, int] | None = None
    for bit in bin(k)[2:] if k else "":
        acc = affine_add(c, acc, acc)
        if bit == "1":
            acc = affine_add(c, acc, pt)
    return acc


def _gen_curve(name: str, ctx: SbmmCtx, seed: int) -> Curve:
    """a = -3, b and G from a seeded search (non-singular, G on the curve), order not counted.

    Used for the small test curve (whose order `_small_curve` then counts); the SBMM curves of the
    CLI come from SBMM_CURVES, whose b values were searched for a prime #E (tools/gen_sbmm_curves.py).
    """
    p = ctx.p
    rng = random.Random(seed)
    a = p - 3
    while True:
        b = rng.randrange(1, p)
        if (4 * pow(a, 3, p) + 27 * b * b) % p == 0:
            continue
        x = rng.randrange(1, p)
        y = _sqrt_mod((x * x * x + a * x + b) % p, p)
        if y is None or y == 0:
            continue
        hasse = p + 1 + 2 * int(gmpy2.isqrt(p)) + 2
        return Curve(name, p, a, b, x, min(y, p - y), hasse, 0, False, ctx.w)


SMALL_ORDER = 18276191277335891347   # order of G on the small curve: `bsgs_order` (about 3 s), recomputed by the tests


def _small_curve() -> Curve:
    """The small test curve over the 64-bit SBMM prime (w = 16), its order counted exactly.

    The order of G comes from baby-step giant-step over the Hasse interval (`bsgs_order`), once,
    and is written in SMALL_ORDER; tests/test_model_rns.py recomputes it and checks
    order * G = O with the reference double-and-add. #E = cofactor * order (unique multiple of the
    order in the Hasse interval, since order > 4 sqrt(p)).
    """
    ctx = gen_sbmm_prime(64, 16)
    c = _gen_curve("small", ctx, SBMM_SEED + 64)
    order = SMALL_ORDER
    lo, hi = c.p + 1 - 2 * int(gmpy2.isqrt(c.p)) - 2, c.p + 1 + 2 * int(gmpy2.isqrt(c.p)) + 2
    cof = [h for h in range(1, 64) if lo <= h * order <= hi] if order else []
    return Curve("small", c.p, c.a, c.b, c.gx, c.gy, order, cof[0] if len(cof) == 1 else 0, True, 16)


# The ECDSA test curve over the same 64-bit prime: a prime order of 64 bits (cofactor 1), so that
# bits(n) = bits(p) as ECDSA_SIGN requires; b and G from the seed search of `_gen_curve` (seed
# SBMM_SEED + 6500), the order by `bsgs_order` (recomputed by tests/test_model_rns.py).
SMALL_ECDSA_B = 0x2B5A8B0D59EB05D4
SMALL_ECDSA_G = (0xF0B9D04BB4B6BF00, 0x0CEC4C363D97D4E6)
SMALL_ECDSA_ORDER = 18276191280760642139


def _small_ecdsa_curve() -> Curve:
    p = gen_sbmm_prime(64, 16).p
    return Curve("small_ecdsa", p, p - 3, SMALL_ECDSA_B, *SMALL_ECDSA_G, SMALL_ECDSA_ORDER, 1, True, 16)


def bsgs_order(c: Curve) -> int:
    """Order of G by baby-step giant-step over the Hasse interval, then reduced to the exact order."""
    p = c.p
    g = (c.gx, c.gy)
    lo = p + 1 - 2 * int(gmpy2.isqrt(p)) - 2
    width = 4 * int(gmpy2.isqrt(p)) + 4
    mstep = int(gmpy2.isqrt(width)) + 1
    baby: dict[tuple[int, int] | None, int] = {}
    pt: tuple[int, int] | None = None
    for j in range(mstep):
        baby.setdefault(pt, j)
        pt = affine_add(c, pt, g)
    giant = affine_mul(c, mstep, g)
    cur = affine_mul(c, lo, g)
    for i in range(mstep + 1):
        # cur = (lo + i*mstep) G; want cur + j G = O -> j G = -cur
        target = None if cur is None else (cur[0], (-cur[1]) % p)
        if target in baby:
            nmul = lo + i * mstep + baby[target]
            # reduce to the exact order of G
            order = nmul
            for f in _factors(nmul):
                while order % f == 0 and affine_mul(c, order // f, g) is None:
                    order //= f
            return order
        cur = affine_add(c, cur, giant)
    raise AssertionError("BSGS found no order in the Hasse interval")


def _factors(n: int) -> list[int]:
    out = []
    d = 2
    while d * d <= n and d < 1 << 20:
        while n % d == 0:
            out.append(d)
            n //= d
        d += 1
    if n > 1:
        out.append(n)
    return sorted(set(out))


P256 = Curve(
    "p256",
    0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF,
    0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFC,
    0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B,
    0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
    0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
    0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551,
    1, True, 32)


P384 = Curve(
    "p384",
    0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFFFF0000000000000000FFFFFFFF,
    0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFFFF0000000000000000FFFFFFFC,
    0xB3312FA7E23EE7E4988E056BE3F82D19181D9C6EFE8141120314088F5013875AC656398D8A2ED19D2A85C8EDD3EC2AEF,
    0xAA87CA22BE8B05378EB1C71EF320AD746E1D3B628BA79B9859F741E082542A385502F25DBF55296C3A545E3872760AB7,
    0x3617DE4A96262C6F5D9E98BF9292DC29F8F41DBD289A147CE9DA3113B5F0B8C00A60B1CE1D7E819D7A431D7C90EA0E5F,
    0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF581A0DB248B0A77AECEC196ACCC52973,
    1, True, 32)

# Curve25519 (RFC 7748: v^2 = u^3 + A u^2 + u over p = 2^255 - 19, A = 486662) as the short
# Weierstrass curve "Wei25519" (draft-ietf-lwig-curve-representations): x = u + A/3,
# a = (3 - A^2)/3, b = (2A^3 - 9A)/27 mod p. The map keeps x-only arithmetic, so the generic (X,Z)
# ladder (the x-only entry) computes X25519 too (on the curve and its twist alike): that was X25519's
# path (139,312 cycles) until ECC_MUL's ARG[2] ran RFC 7748's own ladder (`ecc_m`, 101,515 cycles).
# G is the image of u = 9; its order is the prime l = 2^252 + ..., #E = 8 l.
X25519_P = (1 << 255) - 19
X25519_A = 486662
X25519_A3 = X25519_A * pow(3, -1, X25519_P) % X25519_P   # A/3 mod p: x = u + A/3
WEI25519 = Curve(
    "wei25519", X25519_P,
    (3 - X25519_A * X25519_A) * pow(3, -1, X25519_P) % X25519_P,
    (2 * X25519_A ** 3 - 9 * X25519_A) * pow(27, -1, X25519_P) % X25519_P,
    (9 + X25519_A3) % X25519_P,
    0x20AE19A1B8A086B4E01EDD2C7748D14C923D4D7E6D7C61B229E9C5A27ECED3D9,
    (1 << 252) + 27742317777372353535851937790883648493,
    8, True, 32)


@dataclass(frozen=True)
class SbmmCurveConst:
    """An SBMM curve y^2 = x^3 - 3x + b over P = Ma^2 - 2 (gen_sbmm_prime): tools/gen_sbmm_curves.py.

    b: the first value of random.Random(SBMM_SEED + l).randrange(1, p), drawn in turn, whose curve has
    a prime number of points (PARI's SEA with early abort, the order proven prime by PARI's isprime);
    tries: how many b values were drawn. G: the same generator goes on drawing x until x^3 - 3x + b is
    a non-zero square, y the smaller root. order = #E (cofactor 1), so any point but O generates E and
    ECDH needs no cofactor multiplication. tests/test_model_rns_curves.py re-checks all of it without
    PARI (prime order, order * G = O, order^2 > 16 p so #E = order) and reproduces b and G.
    """

    p: int
    b: int
    gx: int
    gy: int
    order: int
    cofactor: int
    tries: int


SBMM_CURVES: dict[int, SbmmCurveConst] = {
    192: SbmmCurveConst(
        p=0xfa1bbb3f1bd2c0e0eaffc0ea11235c4dc32443a04de269d7,
        b=0x66afda583ce9b4c7c04d8ff4765c559a674c36c4580f51e,
        gx=0x6bcd02122c8ae8201b9eea6945d72e891c36da21e25a6ffb,
        gy=0xff89c4bd04875d9171e46d53cacbeb7d17c92ae6993e128,
        order=0xfa1bbb3f1bd2c0e0eaffc0e984d8c229748a02eef5f34dd3,
        cofactor=1, tries=30),
    384: SbmmCurveConst(
        p=0xffffe1a4019eb18cdc36455c30c1f617c28947fdf2582d7ae265f9eb77c9a1eecd414a19a73a07c6222a909221a3af27,
        b=0x979bf5bdf626092561f22aed80298e96f73e3a99aade643a890879bb8029097a38bd8d44e538d631d3193fe1ccc602d8,
        gx=0x2333d95a0d8619c64021b995551b8cc723a6ec68e3b1a11e6c05b07b9df8d7694d1748841015e5a02ad0cf70fe0e3bc4,
        gy=0x3e341478072ab44abe2532bb01485e653327dc47fc8fe4e2c5979705dd3f92f667a27361c3d55337cfb05c6e97583074,
        order=0xffffe1a4019eb18cdc36455c30c1f617c28947fdf2582d7bb80a53b94d79e37668c45384f61454d8e3f12c331a30025f,
        cofactor=1, tries=493),
    512: SbmmCurveConst(
        p=0xffffeaec00ca9f43654832d66b776fed27187c9d05ce0e317de8d73511a889536a82b1223e846dae23c52c4ceabeed4e99ea9b5a73a3d6d0dea142ef429c8cb7,
        b=0xaf251ee0e570780860a58b075ad642cada95c337969101636a3ba6a1a4fef238477c35683778d8e494137469f9cbc7cd6ddf8612964dabf2a1f9438ddaa764c4,
        gx=0xdcf87f9d4ce0f89fe065d8b13169e0d3f4594609d61e3a832dcad5b4097921b53c46e832315c812432f07c2c4b29a51f0e6de8a03d671885816ae6f842110efb,
        gy=0x32615ce8c61928042cc91f262e69300e5fc8f1f459e5349d348def023f0f22fba0bfc4b09ebf6378645ecc6bdf032292b83eef7621e1c90d7a6eefb6660f7390,
        order=0xffffeaec00ca9f43654832d66b776fed27187c9d05ce0e317de8d73511a88953e9dd009f98ebc7892cbbebca586d7ca5781d0c30f3775d80ddf828d960060e3d,
        cofactor=1, tries=787),
}


def _build_curves() -> dict[str, Curve]:
    out = {"p256": P256, "p384": P384, "wei25519": WEI25519}
    for bits, w in ((192, 16), (384, 32), (512, 32)):
        if bits not in SBMM_CURVES:   # search not finished: the earlier seeded curve, order not counted
            out[f"sbmm{bits}"] = _gen_curve(f"sbmm{bits}", gen_sbmm_prime(bits, w), SBMM_SEED + bits)
            continue
        k = SBMM_CURVES[bits]
        out[f"sbmm{bits}"] = Curve(f"sbmm{bits}", k.p, k.p - 3, k.b, k.gx, k.gy, k.order, k.cofactor, True, w)
    out["small"] = _small_curve()
    out["small_ecdsa"] = _small_ecdsa_curve()
    return out


CURVES: dict[str, Curve] = _build_curves()


def check_point(curve: str, x: int, y: int) -> None:
    """Validate a peer's point: coordinates in [0, p), on the curve, not the point at infinity."""
    c = _curve(curve)
    if not (0 <= x < c.p and 0 <= y < c.p):
        raise PkaError(Status.ERR_NOT_ON_CURVE, "coordinate out of range")
    if (y * y - (x * x * x + c.a * x + c.b)) % c.p != 0:
        if x == 0 and y == 0:
            raise PkaError(Status.ERR_NOT_ON_CURVE, "point at infinity")
        raise PkaError(Status.ERR_NOT_ON_CURVE, "point not on curve")


def _curve(name: str) -> Curve:
    try:
        return CURVES[name]
    except KeyError:
        raise PkaError(Status.ERR_PARAM, f"unknown curve {name!r} ({', '.join(CURVES)})") from None


def _mont(ctx_m: int, x: int, p: int) -> int:
    return x * ctx_m % p


def ecc_inputs(c: Curve, x: int, m: int, y: int | None = None) -> dict[int, int]:
    """Host-side curve constants (Montgomery form, like W) and the point (plain): x in IN_A
    (SLOT_A) and, for the checked ECC_MUL, y in IN_B (SLOT_B)."""
    p = c.p
    out = {IN_A: x, CA: _mont(m, c.a, p), CB2: _mont(m, 2 * c.b, p), CM4B: _mont(m, -4 * c.b, p)}
    if y is not None:
        out[IN_B] = y
    return out


def check_scalar(c: Curve, k: int) -> None:
    if not 1 <= k < c.order:
        raise PkaError(Status.ERR_OPERAND_RANGE, "scalar must be in [1, order)")


def blind_bits(c: Curve | str) -> int:
    """The length of ECC_MUL's blinding factor r for this curve: ECC_BLIND_CURVE's entry, else 64."""
    return ECC_BLIND_CURVE.get(c if isinstance(c, str) else c.name, ECC_BLIND_BITS)


def blind_arg(c: Curve | str) -> int:
    """ECC_MUL's ARG bits for the curve's blinding length: ARG[5:4] = bits / 64 - 1."""
    return (blind_bits(c) // 64 - 1) << ECC_BLIND_SHIFT


def blind_scalar(c: Curve, k: int, r: int, r_bits: int | None = None) -> tuple[int, int]:
    """pka_top's scalar blinding: (k + r n, ELEN = bits(n) + r_bits) for r < 2^r_bits (r_bits: a
    multiple of 64 up to ECC_BLIND_MAX; default the curve's, blind_bits). Since n P = O the ladder
    over the longer scalar gives the same point."""
    r_bits = blind_bits(c) if r_bits is None else r_bits
    if r_bits % 64 or not 64 <= r_bits <= ECC_BLIND_MAX:
        raise PkaError(Status.ERR_PARAM, f"blinding length {r_bits}: a multiple of 64 up to {ECC_BLIND_MAX}")
    if not 0 <= r < 1 << r_bits:
        raise PkaError(Status.ERR_OPERAND_RANGE, f"blinding factor out of range [0, 2^{r_bits})")
    return k + r * c.order, c.order.bit_length() + r_bits


def ecc_max_elen(max_len: int) -> int:
    """The longest ECC_MUL ladder (ELEN) a build of MaxLen bits accepts: MaxLen + 256 (a blinded
    scalar k + r n, r up to ECC_BLIND_MAX bits); other opcodes keep ELEN <= MaxLen."""
    return max_len + ECC_BLIND_MAX


def rz_words(ctx: MmCtx) -> int:
    """Words of SLOT_P that ECC_MUL with ARG[1] reads: 2n (n channels of B, then n of B'), one
    32-bit random word per residue (pka_top's rns_zwords(len) = 2 ceil((len + 8)/w))."""
    return 2 * ctx.n


def rz_residues(ctx: MmCtx, words: Sequence[int]) -> Rns:
    """What the load makes of the 2n random words of SLOT_P (the residue-vector layout of SLOT_A):
    word j (B, then B') masked to w bits and reduced once mod its channel's modulus (w-bit value <
    2 m, so one conditional subtraction: the rower's (x >= m) ? x - m : x). Any word is accepted."""
    assert len(words) == 2 * ctx.n and all(0 <= v < 1 << 32 for v in words)
    mask = (1 << ctx.w) - 1
    red = [(v & mask) - m if (v & mask) >= m else (v & mask) for v, m in zip(words, ctx.b + ctx.bp)]
    return tuple(red[:ctx.n]), tuple(red[ctx.n:])


def ecc_machine(c: Curve, k: int, x: int, y: int | None, w: int, elen: int | None = None,
                progress: Callable[[int], None] | None = None,
                fault: FaultHook | None = None, fault_check: bool = True,
                z_words: Sequence[int] | None = None) -> tuple[MmCtx, Machine]:
    """Run ECC_MUL's microprogram on the MM build as the engine does: checked (program `ecc`, the
    point (x, y)) or, with y None, x-only (program `ecc_x`, ARG[0] = 1). elen: ladder steps
    (default: bits of the curve's order); k any scalar below 2^elen (a blinded k + r n with elen =
    bits(n) + 64). z_words: the 2n random words of SLOT_P (ARG[1] = 1: programs `ecc_rz` /
    `ecc_xrz`, the ladder from (x lambda : lambda)), run from the ROM as the RTL runs them (their
    JMP lands in the ladder of `ecc` / `ecc_x`). The machine's status is the engine's."""
    ctx = mm_context(c.p, w)
    full = loaded_regs(ctx, ecc_inputs(c, x, ctx.m, y))
    name = "ecc" if y is not None else "ecc_x"
    # from the ROM, as the RTL runs it (a flipped pc then lands where the RTL's would)
    prog, entry = rom()
    start, raw = entry[name], None
    if z_words is not None:
        start, raw = entry[{"ecc": "ecc_rz", "ecc_x": "ecc_xrz"}[name]], {RZ: rz_residues(ctx, z_words)}
    mach = run_machine(ctx, prog, full, scalar=k,
                       elen=c.order.bit_length() if elen is None else elen, expo=c.p - 2,
                       elen2=c.p.bit_length(), progress=progress, fault=fault, fault_check=fault_check,
                       raw=raw, start=start)
    return ctx, mach


STATUS_TEXT = {Status.ERR_NOT_ON_CURVE: "the input point is not on the curve",
               Status.ERR_INFINITY: "the result is the point at infinity",
               Status.ERR_FAULT: "the result failed its on-curve check (fault)"}


def ecc_mul_mm(c: Curve, k: int, x: int, y: int, w: int, progress: Callable[[int], None] | None = None,
               fault: FaultHook | None = None, elen: int | None = None,
               z_words: Sequence[int] | None = None) -> OpResult:
    ctx, mach = ecc_machine(c, k, x, y, w, elen, progress=progress, fault=fault, z_words=z_words)
    if mach.status != Status.OK:
        raise PkaError(Status(mach.status), f"rns ECC_MUL: {STATUS_TEXT[Status(mach.status)]}")
    r, r_hi = mach.out()
    xr, yr = ctx.from_rns(r) % c.p, ctx.from_rns(r_hi) % c.p
    return OpResult(xr, mach.cycles, None, _detail(ctx, mach, curve=c.name, elen=elen or c.order.bit_length(), y=yr,
                                                   random_z=z_words is not None))


def ecc_mul(curve: str, k: int, params: Mapping[str, Any], point: tuple[int, int] | None = None,
            progress: Callable[[int], None] | None = None, r: int | None = None,
            z_words: Sequence[int] | None = None) -> OpResult:
    """k * point on the named curve (point defaults to the generator): result = x, detail["y"] = y.

    MM build: the checked ECC_MUL (the engine checks the point is on the curve, recovers y and
    checks the result; ERR_NOT_ON_CURVE, ERR_INFINITY, ERR_FAULT). SBMM build: x only, the point
    checked here on the host (its ECC_MUL is the unchecked x-only ladder).
    Blinding as pka_top does it (MM build): r (< 2^64) runs the blinded scalar k + r n over
    bits(n) + 64 ladder steps (`blind_scalar`); z_words (2n words, `rz_words`) are SLOT_P's random
    words for the random projective Z (ARG[1]). The point is the same; the cycles depend on the
    curve, whether r and z_words are given, and nothing else."""
    c = _curve(curve)
    w, alg = _w(params), _alg(params)
    check_scalar(c, k)
    px, py = point if point is not None else (c.gx, c.gy)
    if c.p.bit_length() > MAX_BITS[w]:
        raise PkaError(Status.ERR_LENGTH, f"rns: {curve} needs a wider channel than w={w}")
    if alg == "sbmm":
        if r is not None or z_words is not None:
            raise PkaError(Status.ERR_UNSUPPORTED, "rns: blinding runs on the MM build (alg=mm)")
        check_point(curve, px, py)
        return ecc_mul_sbmm(c, k, px, w, progress)
    if not (0 <= px < c.p and 0 <= py < c.p):
        raise PkaError(Status.ERR_NOT_ON_CURVE, "coordinate out of range")
    kb, elen = blind_scalar(c, k, r) if r is not None else (k, c.order.bit_length())
    return ecc_mul_mm(c, kb, px, py, w, progress, elen=elen, z_words=z_words)


def ecc_mul_x(curve: str, k: int, x: int, params: Mapping[str, Any], elen: int,
              progress: Callable[[int], None] | None = None, z_words: Sequence[int] | None = None) -> OpResult:
    """x(k P) from x(P) alone: ECC_MUL with ARG[0] = 1 (program ecc_x), exactly `elen` ladder
    steps (1 <= k < 2^elen, any such k, e.g. an X25519 scalar of 255 bits), P any point with this x on
    the curve or on its quadratic twist (the (X,Z) formulas use only x, a and b). Nothing is checked
    but ranges. When k P is the point at infinity the engine ends with ERR_INFINITY (R = 0); here
    that is result 0 with detail["infinity"] True, since the caller decides whether it is an error
    (X25519 returns it, RFC 7748 section 6.1 rejects it for ECDH). z_words: the random projective Z
    (ARG[1], 2n words of SLOT_P); elen may then be up to bits(p) + 1 + 256 (a blinded scalar)."""
    c = _curve(curve)
    w, alg = _w(params), _alg(params)
    if alg != "mm":
        raise PkaError(Status.ERR_UNSUPPORTED, "rns: the x-only ladder entry runs on the MM build (alg=mm)")
    if c.p.bit_length() > MAX_BITS[w]:
        raise PkaError(Status.ERR_LENGTH, f"rns: {curve} needs a wider channel than w={w}")
    top = c.p.bit_length() + 1 + ECC_BLIND_MAX
    if not 1 <= elen <= top:
        raise PkaError(Status.ERR_LENGTH, f"ladder length {elen} outside 1..{top}")
    if not 1 <= k < 1 << elen:       # the engine refuses k = 0 (ERR_OPERAND_RANGE at the load)
        raise PkaError(Status.ERR_OPERAND_RANGE, f"scalar out of range [1, 2^{elen})")
    if not 0 <= x < c.p:
        raise PkaError(Status.ERR_OPERAND_RANGE, "x out of range [0, p)")
    ctx, mach = ecc_machine(c, k, x, None, w, elen, progress, z_words=z_words)
    assert mach.status in (Status.OK, Status.ERR_INFINITY)
    xr = ctx.from_rns(mach.out()[0]) % c.p
    return OpResult(xr, mach.cycles, None, _detail(ctx, mach, curve=c.name, elen=elen,
                                                   infinity=mach.status == Status.ERR_INFINITY,
                                                   status=mach.status, random_z=z_words is not None))


X25519_A24 = 121665          # (A - 2) / 4 (RFC 7748)
X25519_LADDER = 255          # RFC 7748's ladder: bits 254..0 of the clamped scalar


def x25519_inputs(u: int, m: int, p: int = X25519_P) -> dict[int, int]:
    """ECC_MUL with ARG[2]: u in IN_A (SLOT_A, plain); the X1 table (Montgomery form, like W) holds
    CA = 121666 = 1 + a24, CB2 = -121665 = -a24 (mod p) for Z4's AA + a24 E = CA AA + CB2 BB.
    p: the modulus of the command (2^255 - 19; tests give another one to see it refused)."""
    return {IN_A: u % p, CA: _mont(m, X25519_A24 + 1, p), CB2: _mont(m, -X25519_A24, p), CM4B: 0}


def x25519_machine(k: int, u: int, w: int, elen: int = X25519_LADDER, progress: Callable[[int], None] | None = None,
                   fault: FaultHook | None = None, fault_check: bool = True,
                   z_words: Sequence[int] | None = None, p: int = X25519_P) -> tuple[MmCtx, Machine]:
    """Run ECC_MUL's X25519 program (`ecc_m`, ARG[2]; `ecc_mrz` with z_words, ARG[1]) from the ROM as
    the engine does. p: the modulus the command gives (tests: another one ends with ERR_UNSUPPORTED)."""
    ctx = mm_context(p, w)
    full = loaded_regs(ctx, x25519_inputs(u, ctx.m, p))
    prog, entry = rom()
    start, raw = entry["ecc_m"], None
    if z_words is not None:
        start, raw = entry["ecc_mrz"], {RZ: rz_residues(ctx, z_words)}
    mach = run_machine(ctx, prog, full, scalar=k, elen=elen, expo=p - 2, elen2=p.bit_length(), progress=progress,
                       fault=fault, fault_check=fault_check, raw=raw, start=start)
    return ctx, mach


def x25519_mul(k: int, u: int, params: Mapping[str, Any], elen: int = X25519_LADDER,
               progress: Callable[[int], None] | None = None, z_words: Sequence[int] | None = None) -> OpResult:
    """u(k P) on Curve25519 from u(P) alone: ECC_MUL with ARG[2] (programs ecc_m / ecc_mrz), RFC
    7748's Montgomery ladder of exactly `elen` steps (k < 2^elen: the clamped X25519 scalar with
    elen = 255), P on the curve or on its twist. The result is 0 with detail["infinity"] True when
    k P is the point at infinity (the engine's ERR_INFINITY; X25519 returns 0 there, RFC 7748 6.1
    lets the caller refuse it). z_words: the random projective Z (ARG[1], 2n words of SLOT_P)."""
    w, alg = _w(params), _alg(params)
    p = X25519_P
    if alg != "mm":
        raise PkaError(Status.ERR_UNSUPPORTED, "rns: X25519's ladder runs on the MM build (alg=mm)")
    if p.bit_length() > MAX_BITS[w]:
        raise PkaError(Status.ERR_LENGTH, f"rns: Curve25519 needs a wider channel than w={w}")
    top = p.bit_length() + 1
    if not 1 <= elen <= top:
        raise PkaError(Status.ERR_LENGTH, f"ladder length {elen} outside 1..{top}")
    if not 1 <= k < 1 << elen:       # the engine refuses k = 0 (ERR_OPERAND_RANGE); clamped k never is
        raise PkaError(Status.ERR_OPERAND_RANGE, f"scalar out of range [1, 2^{elen})")
    if not 0 <= u < p:
        raise PkaError(Status.ERR_OPERAND_RANGE, "u out of range [0, p)")
    ctx, mach = x25519_machine(k, u, w, elen, progress, z_words=z_words)
    assert mach.status in (Status.OK, Status.ERR_INFINITY)
    ur = ctx.from_rns(mach.out()[0]) % p
    return OpResult(ur, mach.cycles, None, _detail(ctx, mach, curve="curve25519", elen=elen,
                                                   infinity=mach.status == Status.ERR_INFINITY,
                                                   status=mach.status, random_z=z_words is not None))


def x25519_cycles(w: int = 32, random_z: bool = False, elen: int = X25519_LADDER) -> int:
    """X25519's ECC_MUL (ARG[2]) cycles on the MM build, from the ROM's control flow alone: per
    ladder step 10 MRs (11 products) + 9 one-cycle ops, then the 265-MR inversion chain."""
    n = channels_mm(X25519_P.bit_length(), w)
    return _rom_cycles("ecc_mrz" if random_z else "ecc_m", n, elen, X25519_P.bit_length(), X25519_P - 2)


def _rom_cycles(name: str, n: int, elen: int, length: int, expo: int) -> int:
    """Cycles of a ROM program from its control flow (status OK): LOOP0 over elen, LOOP1 over
    length (IFBIT on the public exponent expo only), fixed-count loops, the JMP of an entry."""
    words, entry = rom()
    srcs = {0: elen, 1: length}
    pc, idx, src, cyc = entry[name], 0, 0, 0
    while True:
        it = words[pc]
        cyc += instr_cycles(it, n)
        pc += 1
        if it.op == UOp.HALT:
            return cyc
        if it.op == UOp.LOOP:
            src = it.src
            cnt = it.imm or srcs[src]
            if cnt == 0:
                pc = it.target
            else:
                idx = cnt - 1
        elif it.op == UOp.ENDLOOP and idx != 0:
            idx -= 1
            pc = it.target
        elif it.op == UOp.IFBIT:
            assert src == 1, "ECC_MUL's only data-dependent branch is on the public P - 2"
            if (expo >> idx) & 1 == 0:
                pc += 1
        elif it.op == UOp.JMP:
            pc = it.target


def ecc_cycles(curve: str | Curve, w: int, elen: int | None = None, checked: bool = True,
               random_z: bool = False) -> int:
    """ECC_MUL's cycles on the MM build (status OK), from the ROM's control flow alone (no
    arithmetic: the count depends on the curve's P, the ladder length elen (default bits(order))
    and the entry, never on the scalar, the point or the random words): what `run_machine`
    counts, for a sequencer (pka_top) to predict. ARG[1]'s random Z costs 3 MRs + JMP - 2 ADDs =
    3 (2n + 17) - 1 cycles; each ladder step 13 MRs (K = 20 products) + 12 one-cycle ops."""
    c = _curve(curve) if isinstance(curve, str) else curve
    n = channels_mm(c.p.bit_length(), w)
    elen = c.order.bit_length() if elen is None else elen
    name = {(True, False): "ecc", (False, False): "ecc_x", (True, True): "ecc_rz", (False, True): "ecc_xrz"}[
        (checked, random_z)]
    return _rom_cycles(name, n, elen, c.p.bit_length(), c.p - 2)


# ---- constant-time exponentiation and the wipe ----------------------------------------------------

def modexp_ct(base: int, exp: int, mod: int, params: Mapping[str, Any], elen: int | None = None) -> OpResult:
    """OP_MODEXP_CT: base^exp mod N by Montgomery's powering ladder of exactly `elen` steps
    (default: the modulus' bit length), so the cycles depend on elen and the modulus only.
    MM build: per step MAP, two MRs (L1 := L0 L1, L0 := L0^2 on the bit-mapped pair), ENDLOOP;
    SBMM build: the same with two SBs (the second does not read the first: its Compress overlaps)."""
    w, alg = _w(params), _alg(params)
    check_modulus(mod, w)
    _check_operand(base, mod, "base")
    elen = mod.bit_length() if elen is None else elen
    if not 0 <= exp < 1 << elen:
        raise PkaError(Status.ERR_OPERAND_RANGE, f"exponent out of range [0, 2^{elen})")
    if elen > MAX_BITS[w]:
        raise PkaError(Status.ERR_LENGTH, f"rns: exponent length {elen} exceeds {MAX_BITS[w]}")
    if alg == "sbmm":
        sctx = sbmm_context(mod, w)
        sm = run_sb_machine(sctx, PROGRAMS["sb_modexp_ct"], {IN_A: base, ONE: 1}, exp, elen)
        d = _sb_detail(sctx, sm)
        d["elen"] = elen
        return OpResult(sbmm_from(sctx, sm.regs[RES]), sm.cycles, None, d)
    ctx, mach = _mm_run("modexp_ct", mod, w, {IN_A: base}, scalar=exp, elen=elen)
    return OpResult(ctx.from_rns(mach.regs[RES]) % mod, mach.cycles, None, _detail(ctx, mach, elen=elen))


def modexp_ct_cycles(n: int, elen: int) -> int:
    """The MM build's MODEXP_CT in closed form: 3 MRs, LOOP, UNMAP, and per step MAP + 2 MRs + ENDLOOP."""
    mr1 = 2 * n + 1 + MR_FIXED
    return 3 * mr1 + 2 + elen * (2 * mr1 + 2)


NUM_RF_WORDS = NUM_REGS   # register-file words per half per rower


def wipe_cycles(max_len: int, w: int, sbmm: bool = False) -> int:
    """OP_ZEROIZE's cycles on a build (MaxLen, W): every rower clears one register-file word of each
    half and one constant word per cycle (through their write ports, so the files stay RAMs), all
    other registers at once. MM build: max(32, 12 + 2 NumRowers); SBMM build: see sb_wipe_cycles."""
    if sbmm:
        return sb_wipe_cycles(max_len, w)
    rowers = -(-(max_len + GUARD_BITS) // w)
    return max(NUM_RF_WORDS, CONST_WORDS + 2 * rowers)


def sb_wipe_cycles(max_len: int, w: int) -> int:
    """OP_ZEROIZE on the SBMM build (MaxLen = 2 n_a W): its register files hold K and R of 32
    registers (64 words a half, one write port each), the constants 12 + 2 n_b words per rower,
    the gamma channel 64 words and 5 + n_a constants: max(64, 12 + 2 n_b) cycles."""
    nb = max_len // (2 * w) + 1
    return max(2 * NUM_RF_WORDS, CONST_WORDS + 2 * nb)


# ---- ECC on SBMM (model only: the SBMM datapath is not in the RTL yet) ----------------------------

class SbmmField:
    """F_P arithmetic on (K, R) pairs: SBMM + Compress products, channel-wise add/sub + Compress.

    Every result is compressed (Kc, Rc < 3 Ma; in fact < 2 Ma + 2 m_gamma), so a sum of up to three
    products stays below Compress's (m_gamma - 1) Ma input bound (asserted in `compress`).
    Subtraction adds the representation of zero (3 Ma - 3, 3 Ma - 6): (3Ma-3) Ma + 3Ma - 6 = 3P.
    """

    def __init__(self, ctx: SbmmCtx) -> None:
        self.ctx = ctx
        self.cnt = SbmmCount()
        self.sbmms = 0
        self.compresses = 0
        ma = ctx.ma
        assert (3 * ma - 3) * ma + 3 * ma - 6 == 3 * ctx.p
        self.zero_rep = self.const(3 * ma - 3, 3 * ma - 6)

    def const(self, k: int, r: int) -> Kr:
        return tuple(k % m for m in self.ctx.chans), tuple(r % m for m in self.ctx.chans)

    def of(self, x: int) -> Kr:
        return sbmm_to(self.ctx, x % self.ctx.p)

    def _compress(self, x: Kr) -> Kr:
        self.compresses += 1
        return compress(self.ctx, x, self.cnt)

    def mul(self, *pairs: tuple[Kr, Kr]) -> Kr:
        self.sbmms += 1
        return self._compress(sbmm(self.ctx, list(pairs), self.cnt))

    def add(self, x: Kr, y: Kr) -> Kr:
        ch = self.ctx.chans
        return self._compress((tuple((a + b) % m for a, b, m in zip(x[0], y[0], ch)),
                               tuple((a + b) % m for a, b, m in zip(x[1], y[1], ch))))

    def sub(self, x: Kr, y: Kr) -> Kr:
        ch = self.ctx.chans
        kz, rz = self.zero_rep
        yk, yr = sbmm_value(self.ctx, y)
        assert yk <= 3 * self.ctx.ma - 3 and yr <= 3 * self.ctx.ma - 6, "SUB: subtrahend too large"
        return self._compress((tuple((a + z - b) % m for a, z, b, m in zip(x[0], kz, y[0], ch)),
                               tuple((a + z - b) % m for a, z, b, m in zip(x[1], rz, y[1], ch))))

    def value(self, x: Kr) -> int:
        return sbmm_from(self.ctx, x)


def ladder_xz(f: SbmmField, c: Curve, k: int, elen: int, x: int) -> tuple[Kr, Kr]:
    """The same (X,Z) ladder as the MM microprogram, on SBMM arithmetic."""
    xg, one, zero = f.of(x), f.of(1), f.of(0)
    ca, cb2, cm4b = f.of(c.a), f.of(2 * c.b), f.of(-4 * c.b)
    nxg = f.sub(zero, xg)
    r = [[one, zero], [xg, one]]
    for i in range(elen - 1, -1, -1):
        bit = (k >> i) & 1
        (x1, z1), (x2, z2) = r[bit], r[1 - bit]
        ta = f.mul((z1, x2), (z2, x1))
        tb = f.mul((x1, x2))
        tc = f.mul((z1, z2))
        td = f.mul((ca, ta), (cb2, tc))
        t1 = f.sub(zero, f.add(f.add(tc, tc), f.add(tc, tc)))
        z3 = f.mul((ta, ta), (tb, t1))
        x3 = f.mul((tb, f.add(ta, ta)), (tc, f.add(td, td)), (nxg, z3))
        e = f.mul((z1, z1))
        fh = f.mul((x1, z1))
        g = f.mul((x1, x1))
        h = f.mul((cm4b, e))
        ii = f.mul((ca, e))
        f2 = f.add(fh, fh)
        t = f.sub(g, ii)
        dx = f.mul((f2, h), (t, t))
        dz = f.mul((f.add(f2, f2), f.add(g, ii)), (e, f.sub(zero, h)))
        r[1 - bit] = [x3, z3]
        r[bit] = [dx, dz]
    return r[0][0], r[0][1]


def sb_ecc_inputs(c: Curve, x: int) -> dict[int, int]:
    """The SBMM build needs no Montgomery domain: the curve constants are plain (host mod P)."""
    return {IN_A: x, ONE: 1, CA: c.a % c.p, CB2: 2 * c.b % c.p, CM4B: -4 * c.b % c.p}


def ecc_mul_sbmm(c: Curve, k: int, x: int, w: int, progress: Callable[[int], None] | None = None) -> OpResult:
    ctx = sbmm_context(c.p, w)
    elen = c.order.bit_length()
    mach = run_sb_machine(ctx, PROGRAMS["sb_ecc"], sb_ecc_inputs(c, x), k, elen, c.p - 2, c.p.bit_length(),
                          progress)
    if sbmm_from(ctx, mach.regs[RES_HI]) == 0:
        raise PkaError(Status.ERR_NO_INVERSE, "result is the point at infinity")
    d = _sb_detail(ctx, mach)
    d.update(curve=c.name, elen=elen)
    return OpResult(sbmm_from(ctx, mach.regs[RES]), mach.cycles, None, d)
