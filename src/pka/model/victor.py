"""Golden model of victor: radix-2^k modular multiplication with quotient estimation (paper 003).

Orup, Svendsen, Andreasen, "VICTOR an efficient RSA hardware implementation". Bit-faithful to the
paper's Algorithm 4 (multiplication), Table 2 (q as alpha + beta + gamma), section 3.3 (quotient
estimation), Table 3 / the q_max formula (asserted), and Algorithm 1 (right-to-left
exponentiation, the square and the multiply of one step in parallel). The cycle model is the
RTL's (rtl/engines/victor/).

What the engine computes (Algorithm 4, r = k, n' = ceil((n+1)/k), A < 2N, B < 2N, N in ]2^(n-1), 2^n[):

    S := 0
    for i := n'-1 downto -2:                 # n' digits, then two extra iterations with a_i = 0
        q := estimate(S div 2^k, N)          # section 3.3, below
        S := 2^k S + a_i B - 2^(2k) q N      # six words into a carry-save pair (Figure 5)
    R := S div 2^(2k)                         # the low 2k bits of S are zero

Unrolled, S = sum_i (a_i B - 2^(2k) q_i N) 2^(k(i+2)) = 2^(2k) (A B - Q N), so R = A B - Q N
EXACTLY: R = A*B mod N up to a multiple of N, with no 2^-r factor. It is a Barrett-style
interleaved multiplication, not Montgomery: no R^2 mod N, no conversion into or out of a
Montgomery domain; modexp feeds the base in as it is and only the final result needs one
conditional subtraction of N (R < 2N). The two extra iterations are the paper's "final
corrections": they bring R from [0, 43*2^k N) down to [0, 2N) and make the division exact.

Our change to the paper: the first two iterations are merged (n'+1 iterations, not n'+2).
On the first iteration S = 0, so q = 0 and the -qN generator is idle; we let it produce the
second digit's a_(n'-2) B (input switched from 2^(2k) N to B, sign +) while the a_i*B generator
produces a_(n'-1) B 2^k (input B shifted by k), and A shifts by 2k:

    S := 2^k a_(n'-1) B + a_(n'-2) B          # merged: the paper's q for iteration n'-2 is taken as 0
    for i := n'-3 downto -2: (as above)

Any quotient digit keeps S = A*B mod N; q = 0 there is safe iff the invariant of the proof below
holds at the merged S: S_1 = floor(A / 2^(k(n'-2))) B < q_max 2^k N (`merged_start_ok`, asserted).
Since k n' >= n+1, floor(A / 2^(k(n'-2))) <= A 2^(2k-n-1) < A 2^(2k-1) / N, so
A B < q_max 2^(1-k) N^2 suffices for every n (2.67 N^2 for k = 5, delta = 10, eps = 11). This is
tighter than the paper's A, B < 2N: A = B = 2N-1 fails when (n+1) mod k = 0 (the top digit then
has all k bits) and N is near 2^n (S_1 near 64 2^k N, q would reach 63). The engine never
multiplies such operands: MODMUL's a, b < N are checked; MODEXP's base < N is checked and every
other operand is a result, R < result_bound N (1.27 N), and result_bound^2 2^(k-1) < q_max is
a legality rule (`operands_fit_merge`; true for every legal k, delta, eps <= 32). The result
bound itself is unchanged (it depends on the last two iterations only). A step (the square and
the multiply) costs 2(n'+1) cycles instead of the paper's 2(n'+2): 208 instead of 210 at n = 512,
k = 5, which lifts the efficiency from 4.76 to 4.81 bits per 1000 cycles.

Quotient estimation (section 3.3; the extracted text is partly garbled, reconstructed here):

    W     = n + 2k + 1                        # width of S_a, S_c (carry-save words, mod 2^W)
    T     = (S_a div 2^(W-delta) + S_c div 2^(W-delta)) mod 2^delta     # delta top bits added
    T     = 0 if T = 2^delta - 1              # the one wrapped value: true top field 0, sum -1
    Y     = floor(2^(n+eps) / N)              # eps bits of 1/N after its leading one (eps+1 bits)
    q     = (T * Y) div 2^(delta+eps-k-1)     # the top k+2 bits of the (delta+eps+1)-bit product

The paper says "discard delta + eps - (k+2) bits"; that count is for a delta-bit times eps-bit
product. 1/N in ]2^-n, 2^(1-n)[ always has its leading one at 2^-n, so "the eps most significant
bits" are the eps bits after that hard-wired one, Y has eps+1 bits, the product delta+eps+1, and
keeping its top k+2 bits discards delta+eps-(k+1). This reading is the only one consistent with
the q_max formula: the formula's denominator 1 - 2^(k-eps) needs a relative error of Y below
2^-eps (an eps-bit Y with its leading one inside gives 2^(1-eps), i.e. 1 - 2^(k+1-eps), which
yields 29 instead of Table 3's 27 for k=4, delta=8, eps=8), and its 2^(k+3-delta) term is the
error of two truncated delta-bit fields (< 2 units of 2^(W-delta)) with W = n + 2k + 1.
With this estimator (proved below, asserted in `multiply`):

    q <= S / (2^k N)                              (an underestimate: S stays >= 0)
    S/(2^k N) - q < (S/(2^k N)) 2^-eps + 2^(k+3-delta) + 1
    S < Q_max 2^k N,  q < Q_max,  Q_max = 2^k (2^(k+3-delta) + 1 + 2^(1-k)) / (1 - 2^(k-eps))
    R = S_final / 2^(2k) < (Q_max 2^-eps + 2^(k+3-delta) + 1) N  <  2N

Proof sketch: T > S/2^(W-delta) - 2 and Y > 2^(n+eps)/N - 1 give the second line; with
a_i B <= (2^k - 1) 2N the next S/(2^k N) is below 2^k (Q 2^-eps + 2^(k+3-delta) + 1 + 2^(1-k)),
whose fixed point is Q_max. q_max for (k, delta, eps) = (5, 10, 11) is 42.67: q <= 42, the range
Table 2 covers, which is why k = 5 needs delta = 10, eps = 11. The formula reproduces 6 of the 8
rows of Table 3; the two k = 5, delta = 9 rows print 51 and 50 where the formula gives 53 and 51
(they match a denominator 1 - 2^(k-1-eps) instead, which the k = 4, delta = 8, eps = 8 row
contradicts): Table 3 is not self-consistent there, and we assert the formula, which we prove.

Carry-save datapath, exactly as the RTL wires it (Figures 5 and 6):
  * -qN = alpha N + beta N + gamma N (Table 2, alpha in {0,-8,-16,-32}, beta in {0,+-4,+-8},
    gamma in {0,+-1,+-2}) from three selection networks into one row of full adders (two words);
    a_i B likewise from the negated Table-2 entry of a_i (a_i <= 31 <= 42). A negative term
    is the one's complement of the selected multiple; its "+1" goes into the k free low bits of
    2^k S_a (at most 5 < 2^k of them).
  * four rows of full adders in a chain: (2^k S_a + corr, 2^k S_c, aB_s), then aB_c, -qN_s,
    -qN_c: the -qN words enter last, so the critical path is estimate -> -qN -> two full adders,
    the path the paper names.
  * the merged first iteration (`accumulate_first`): the -qN generator's digit, input and sign
    are muxed by a registered "first" flag (digit a_(n'-2) instead of q, B instead of 2^(2k) N,
    + instead of -), the a_i*B generator's input is B 2^k instead of B; its "+1"s (<= 5) as before.
  * words are mod 2^W: S_a + S_c = S mod 2^W and 0 <= S < 2^W.
The RTL keeps N and B left-aligned in its MaxLen-bit registers (N' = 2^s N, s = MaxLen - n) so the
estimator reads fixed bit positions; `shift` reproduces that frame bit for bit (W = n + s + 2k + 1,
the same q's, Y unchanged) and s = 0 is the paper's frame.

Exponentiation (Algorithm 1, right to left; section 3.1: one B register, two A registers):
    X := 1; M := base
    for i := 0 to h-1:                 # h = exp.bit_length()
        M' := M*M  ||  (if e_i: X := X*M)      # two products, interleaved in one pipeline
        M := M'
    result := X - N if X >= N else X           # X < 2N: one conditional subtraction
The first multiply with X = 1 is a copy (X := M), as the hardware does it (same cycles).

Cycle model (what the RTL's cycles_o reports; loads/stores are io_cycles):
    one loop iteration of one product = 2 cycles (estimator stage, accumulator stage), the two
    products of a step interleaved, so a step is 2(n'+1) cycles (n'+1 iterations with the merge);
    the carry-propagate conversion of the square's result fills the stage-1 cycle the next square
    needs no estimate in (the merged first iteration starts from S = 0).
    modexp: 1 (base < N) + (eps+1) (Y = floor(2^(n+eps)/N), restoring division) + h*2(n'+1)
            + 1 (convert the last X) + 1 (final subtraction)
    modmul: 2 (a, b < N) + (eps+1) + 2(n'+1) + 1
The paper counts 2 n (n'+2) for an n-bit exponent (section 4); ours is 2h cycles fewer, plus
eps + 4 once (ours - paper = eps + 4 - 2n for h = n: -1009 at n = 512).

OP_MODEXP_CT (constant time, not in the paper): Algorithm 1 leaves context 1 idle when e_i = 0
(same cycles, but the work depends on E's bits) and copies X := M at the first set bit. The CT
op is a right-to-left square-and-always-multiply over exactly h = cmd elen bits with two
accumulators, so that the multiply of every step is a real product:

    M := base; X_0 := 1; X_1 := 1
    for i := 0 to h-1:  b := e_i
        M' := M*M  ||  X_b := X_b*M          # context 1 always runs, A1 = X_b
        M := M'
    result := X_1 - N if X_1 >= N else X_1

X_1 = base^e; X_0 = base^(2^h - 1 - e) (a dummy, discarded). The engine keeps the accumulator
not in use in the restoring-division remainder register (idle during the loop); at the
conversion of each multiply it swaps it with A1 when e_(i+1) != e_i (and before the final
subtraction when e_(h-1) = 0): the same cycles either way, so cycles_o = exp_cycles(n, h).
Why not Montgomery's ladder (no dummy product): its two products share B = R_b; when the next bit
differs, B must be the multiply's result, which is converted one cycle after the next square
has to start (schedule above) - a stall per step.

OP_ZEROIZE (the wipe, pka_pkg): every register cleared in WIPE_CYCLES = 1 cycle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping

from pka.errors import PkaError, Status
from pka.model.common import OpResult

K_CHOICES = (3, 4, 5)    # scan factors the engine supports (radix 2^k)
Q_HW_MAX = 42            # Table 2: q in [0, 42] as a sum of three signed powers of two
MIN_BITS = 2             # N in ]2^(n-1), 2^n[ with N odd needs n >= 2
MIN_LEN = 128            # smallest RTL build (MaxLen) the driver uses
WIPE_CYCLES = 1          # OP_ZEROIZE: one cycle clears every register (a build constant)
MAX_LEN = 4096           # largest RTL build
WORD = 32

# Table 2 of the paper: q -> (alpha, beta, gamma) with alpha + beta + gamma = -q.
TABLE2: dict[int, tuple[int, int, int]] = {
    0: (0, 0, 0), 1: (0, 0, -1), 2: (0, -4, 2), 3: (0, -4, 1), 4: (0, -4, 0), 5: (0, -4, -1),
    6: (-8, 0, 2), 7: (-8, 0, 1), 8: (-8, 0, 0), 9: (-8, 0, -1),
    10: (-16, 4, 2), 11: (-16, 4, 1), 12: (-16, 4, 0), 13: (-16, 4, -1),
    14: (-16, 0, 2), 15: (-16, 0, 1), 16: (-16, 0, 0), 17: (-16, 0, -1),
    18: (-16, -4, 2), 19: (-16, -4, 1), 20: (-16, -4, 0), 21: (-16, -4, -1),
    22: (-32, 8, 2), 23: (-32, 8, 1), 24: (-32, 8, 0), 25: (-32, 8, -1),
    26: (-32, 4, 2), 27: (-32, 4, 1), 28: (-32, 4, 0), 29: (-32, 4, -1),
    30: (-32, 0, 2), 31: (-32, 0, 1), 32: (-32, 0, 0), 33: (-32, 0, -1), 34: (-32, 0, -2),
    35: (-32, -4, 1), 36: (-32, -4, 0), 37: (-32, -4, -1), 38: (-32, -4, -2),
    39: (-32, -8, 1), 40: (-32, -8, 0), 41: (-32, -8, -1), 42: (-32, -8, -2),
}
ALPHAS = (0, -8, -16, -32)
BETAS = (-8, -4, 0, 4, 8)
GAMMAS = (-2, -1, 0, 1, 2)

# Table 3 of the paper: (k, delta, eps) -> floor(q_max) as printed.
TABLE3: dict[tuple[int, int, int], int] = {
    (4, 8, 8): 27, (4, 8, 9): 26, (4, 9, 9): 22, (4, 9, 10): 22,
    (5, 9, 9): 51, (5, 9, 10): 50, (5, 10, 10): 43, (5, 10, 11): 42,
}


# ---- parameters and bounds ----------------------------------------------------------------------

@dataclass(frozen=True)
class Config:
    """Scan factor k, delta top bits of S, eps bits of 1/N; hw = stay inside Table 2 (q <= 42)."""

    k: int
    delta: int
    eps: int
    hw: bool = True

    @property
    def qmax(self) -> Fraction:
        return qmax_bound(self.k, self.delta, self.eps)

    @property
    def shift_q(self) -> int:
        """Bits of T*Y discarded: delta + eps - (k+1) (the paper's delta + eps - (k+2), see doc)."""
        return self.delta + self.eps - self.k - 1


def qmax_bound(k: int, delta: int, eps: int) -> Fraction:
    """q_max = 2^k (2^(k+3-delta) + 1 + 2^(1-k)) / (1 - 2^(k-eps)) (section 3.3), exactly."""
    two = Fraction(2)
    den = 1 - two ** (k - eps)
    if den <= 0:
        raise PkaError(Status.ERR_PARAM, f"victor: eps={eps} must exceed k={k}")
    return two ** k * (two ** (k + 3 - delta) + 1 + two ** (1 - k)) / den


def result_bound(cfg: Config) -> Fraction:
    """R < result_bound * N for the result R of Algorithm 4 (must be <= 2 for B < 2N to hold)."""
    two = Fraction(2)
    return cfg.qmax * two ** (-cfg.eps) + two ** (cfg.k + 3 - cfg.delta) + 1


def make_config(k: int, delta: int, eps: int, hw: bool = True) -> Config:
    """Check a parameter combination; hw=False allows q beyond Table 2 (Table 3 exploration only)."""
    if k not in K_CHOICES:
        raise PkaError(Status.ERR_PARAM, f"victor: k={k} not supported (3, 4, 5)")
    if delta < 1 or eps < 1:
        raise PkaError(Status.ERR_PARAM, "victor: delta and eps must be positive")
    if delta <= k + 3:
        raise PkaError(Status.ERR_PARAM, f"victor: delta={delta} must exceed k+3={k + 3} (result < 2N)")
    cfg = Config(k, delta, eps, hw)
    qm = cfg.qmax
    if qm >= 2 ** (k + 1) - 1:
        raise PkaError(Status.ERR_PARAM, f"victor: q_max={float(qm):.2f} too large for k={k} (S must fit n+2k+1 bits)")
    if hw and qm > Q_HW_MAX + 1:
        raise PkaError(Status.ERR_PARAM,
                       f"victor: q_max={float(qm):.2f} exceeds Table 2's 42 (k={k}, delta={delta}, eps={eps})")
    if result_bound(cfg) > 2:
        raise PkaError(Status.ERR_PARAM, f"victor: delta={delta}, eps={eps} do not keep the result below 2N")
    if not operands_fit_merge(cfg):  # never for delta, eps <= 32 (the RTL's range; tested exhaustively)
        raise PkaError(Status.ERR_PARAM, f"victor: results up to {float(result_bound(cfg)):.3f} N "
                       "are too large for the merged first iteration")
    return cfg


def operands_fit_merge(cfg: Config) -> bool:
    """Operands below result_bound * N (every A, B the engine multiplies) meet `merged_start_ok`.

    Sufficient: A B < q_max 2^(1-k) N^2, i.e. result_bound^2 2^(k-1) < q_max (2.67 > 1.61 for the
    defaults k = 5, delta = 10, eps = 11).
    """
    rho = result_bound(cfg)
    return rho * rho * (1 << (cfg.k - 1)) < cfg.qmax


def config_from_params(params: Mapping[str, Any]) -> Config:
    return make_config(int(params.get("k", 5)), int(params.get("delta", 10)), int(params.get("eps", 11)))


def digits(n_bits: int, k: int) -> int:
    """n' = ceil((n+1)/k): digits of a multiplier A < 2N < 2^(n+1)."""
    return -(-(n_bits + 1) // k)


def reciprocal(mod: int, n_bits: int, eps: int) -> int:
    """Y = floor(2^(n+eps) / N): the eps bits of 1/N after its leading one, plus that one."""
    y = (1 << (n_bits + eps)) // mod
    assert 1 << eps <= y < 1 << (eps + 1), "Y has eps+1 bits, its top bit set"
    return y


def reciprocal_restoring(mod: int, n_bits: int, eps: int) -> tuple[int, int]:
    """Y by eps+1 restoring-division steps, as the hardware does it: (Y, steps)."""
    r, y = 1 << n_bits, 0
    for _ in range(eps + 1):
        ge = r >= mod
        if ge:
            r -= mod
        y = 2 * y + int(ge)
        r <<= 1
        assert r < 2 * mod
    return y, eps + 1


# ---- Table 2 and the carry-save pieces ----------------------------------------------------------

def table2(q: int) -> tuple[int, int, int]:
    """(alpha, beta, gamma) with alpha + beta + gamma = -q (Table 2)."""
    try:
        return TABLE2[q]
    except KeyError:
        raise AssertionError(f"q={q} outside Table 2 [0, 42]") from None


def signed_terms(coefs: tuple[int, ...], x: int, shift: int, width: int) -> tuple[list[int], int]:
    """The selection networks: coefficient c (0 or +-2^j) -> the word c*x*2^shift mod 2^width.

    A negative multiple is its one's complement; the count of such terms (the pending +1's) is
    returned. Sum of words + count = sum(c) * x * 2^shift (mod 2^width).
    """
    mask = (1 << width) - 1
    words, neg = [], 0
    for c in coefs:
        if c == 0:
            words.append(0)
            continue
        assert abs(c) & (abs(c) - 1) == 0, "selection of a shifted copy"
        t = (x * abs(c) << shift) & mask
        if c > 0:
            words.append(t)
        else:
            words.append(~t & mask)
            neg += 1
    return words, neg


def fa_row(x: int, y: int, z: int, width: int) -> tuple[int, int]:
    """One row of full adders: x + y + z = s + c (mod 2^width), c = the carries shifted by one."""
    mask = (1 << width) - 1
    return x ^ y ^ z, (((x & y) | (x & z) | (y & z)) << 1) & mask


def multiple(coefs: tuple[int, ...], x: int, shift: int, width: int) -> tuple[int, int, int]:
    """Figure 6: three selected terms through a row of full adders -> (s, c, pending +1's)."""
    words, neg = signed_terms(coefs, x, shift, width)
    s, c = fa_row(words[0], words[1], words[2], width)
    return s, c, neg


def ab_coefs(a: int) -> tuple[int, int, int]:
    """a_i B = (-alpha) B + (-beta) B + (-gamma) B with the Table-2 entry of q = a_i."""
    al, be, ga = table2(a)
    return -al, -be, -ga


def estimate(sa: int, sc: int, width: int, y: int, cfg: Config) -> tuple[int, int]:
    """Section 3.3: add the delta top bits of S_a and S_c, times Y, keep the top k+2 bits. -> (q, T)."""
    d = cfg.delta
    if width >= d:
        t = ((sa >> (width - d)) + (sc >> (width - d))) & ((1 << d) - 1)
    else:
        t = ((sa << (d - width)) + (sc << (d - width))) & ((1 << d) - 1)
    if t == (1 << d) - 1:
        t = 0  # the carry-save pair wrapped: the true top field is 0
    return (t * y) >> cfg.shift_q, t


def _four_rows(sa: int, sc: int, ab: tuple[int, int, int], qn: tuple[int, int, int], k: int,
               width: int) -> tuple[int, int]:
    """Figure 5's four rows of full adders: (2^k S_a + corr, 2^k S_c, ab_s), ab_c, qn_s, qn_c."""
    mask = (1 << width) - 1
    corr = ab[2] + qn[2]
    assert corr < 1 << k, "the +1's fit the free low bits of 2^k S_a"
    w1 = ((sa << k) & mask) | corr
    w2 = (sc << k) & mask
    x, y = fa_row(w1, w2, ab[0], width)
    x, y = fa_row(x, y, ab[1], width)
    x, y = fa_row(x, y, qn[0], width)
    return fa_row(x, y, qn[1], width)


def accumulate(sa: int, sc: int, a_digit: int, q: int, b: int, n: int, cfg: Config,
               width: int) -> tuple[int, int]:
    """Figure 5: S := 2^k S + a_i B - 2^(2k) q N as six words through four rows of full adders."""
    k, mask = cfg.k, (1 << width) - 1
    ab = multiple(ab_coefs(a_digit), b, 0, width)
    if q <= Q_HW_MAX:
        qn = multiple(table2(q), n, 2 * k, width)                     # -qN = alpha N + beta N + gamma N
    else:  # exploration of Table 3 rows beyond Table 2 only (hw=False): -qN as one word
        assert not cfg.hw, "q in Table 2's range"
        qn = ((-q * n << 2 * k) & mask, 0, 0)
    return _four_rows(sa, sc, ab, qn, k, width)


def accumulate_first(sa: int, sc: int, a_hi: int, a_lo: int, b: int, cfg: Config,
                     width: int) -> tuple[int, int]:
    """The merged first iteration: S := 2^k S + 2^k a_hi B + a_lo B (the engine passes S = 0).

    The a_i*B generator takes a_hi with its input B shifted by k; the -qN generator, idle while
    S = 0 (q = 0), takes a_lo with its input switched from 2^(2k) N to B and its sign to +.
    The same four rows of full adders follow, in the same order.
    """
    ab = multiple(ab_coefs(a_hi), b, cfg.k, width)
    lo = multiple(ab_coefs(a_lo), b, 0, width)
    return _four_rows(sa, sc, ab, lo, cfg.k, width)


# ---- Algorithm 4 --------------------------------------------------------------------------------

@dataclass
class MulTrace:
    """One product: the raw result R in [0, 2N) and the quotient digits of its iterations."""

    result: int
    qs: list[int] = field(default_factory=list)
    iterations: int = 0
    s_max: int = 0          # the largest S seen (in the frame; compare with 2^k N' q_max)


def merged_start_ok(a: int, b: int, mod: int, cfg: Config) -> bool:
    """The merged first iteration's precondition: S_1 = (a_(n'-1) 2^k + a_(n'-2)) B < q_max 2^k N.

    S_1 is the first S the estimator sees; below q_max 2^k N the invariant of the proof holds from
    there on. (a_(n'-1) 2^k + a_(n'-2)) = floor(A / 2^(k(n'-2))) <= A 2^(2k-n-1) (k n' >= n+1), so
    A B < q_max 2^(1-k) N^2 is sufficient for every n (A, B < 1.63 N for k = 5; the engine feeds
    A, B < result_bound N = 1.27 N). A = B = 2N-1 fails it when (n+1) mod k = 0 and N is near 2^n.
    """
    k, n_bits = cfg.k, mod.bit_length()
    sh = k * (digits(n_bits, k) - 2)
    top2 = a >> sh if sh >= 0 else a << -sh            # the top two digits (a_(n'-2) = 0 if n' = 1)
    qm = cfg.qmax
    return top2 * b * qm.denominator < qm.numerator * (mod << k)


def multiply(a: int, b: int, mod: int, cfg: Config, shift: int = 0) -> MulTrace:
    """Algorithm 4 with the first two iterations merged, bit for bit, in the frame N' = 2^shift N.

    (shift = 0: the paper's frame.) Requires A, B in [0, 2N) and `merged_start_ok` (which A, B <
    sqrt(q_max 2^(1-k)) N, and so every operand the engine produces, satisfies).
    Returns R = A*B - Q*N in [0, 2N) (strictly below result_bound * N), R = A*B mod N up to N.
    """
    k, n_bits = cfg.k, mod.bit_length()
    assert mod & 1 and n_bits >= MIN_BITS, "N odd, N in ]2^(n-1), 2^n["
    assert 0 <= a < 2 * mod and 0 <= b < 2 * mod, "A, B in [0, 2N["
    assert merged_start_ok(a, b, mod, cfg), \
        "merged first iteration: floor(A / 2^(k(n'-2))) B < q_max 2^k N (A B < q_max 2^(1-k) N^2 suffices)"
    width = n_bits + shift + 2 * k + 1
    nn, bb = mod << shift, b << shift
    y = reciprocal(nn, n_bits + shift, cfg.eps)
    assert y == reciprocal(mod, n_bits, cfg.eps), "Y is the same in every frame"
    nd = digits(n_bits, k)
    qm = cfg.qmax
    big_m = nn << k                                    # 2^k N: S / big_m is the true quotient
    e_sh, d_sh = cfg.eps, cfg.delta
    err_c = (1 << (k + 3 + e_sh)) + (1 << (e_sh + d_sh))  # (2^(k+3-delta) + 1) * 2^(eps+delta)
    tr = MulTrace(0)

    def digit(i: int) -> int:
        return (a >> (k * i)) & ((1 << k) - 1) if i >= 0 else 0

    # iterations n'-1 and n'-2 merged (S = 0 and q = 0 on the first; the second's q is taken as 0)
    a_hi, a_lo = digit(nd - 1), digit(nd - 2)
    sa, sc = accumulate_first(0, 0, a_hi, a_lo, bb, cfg, width)
    s_ref = ((a_hi << k) + a_lo) * bb                  # S as a plain integer, for the asserts
    tr.qs.append(0)
    tr.iterations = 1
    for i in range(nd - 3, -3, -1):
        a_i = digit(i)
        s = (sa + sc) & ((1 << width) - 1)
        assert s == s_ref, "the carry-save pair represents S"
        assert 0 <= s and s * qm.denominator < qm.numerator * (nn << k), "S < q_max 2^k N"
        q, t = estimate(sa, sc, width, y, cfg)
        t_true = s >> (width - cfg.delta) if width >= cfg.delta else s << (cfg.delta - width)
        assert t in (t_true, t_true - 1) or (t == 0 and t_true == 0), "T within one unit of S's top"
        # with Q = S / (2^k N): q <= Q, and Q - q < Q 2^-eps + 2^(k+3-delta) + 1 (scaled to integers)
        assert q * big_m <= s, "q underestimates S div 2^k div N (S stays >= 0)"
        assert (s - q * big_m) << (e_sh + d_sh) < (s << d_sh) + err_c * big_m, "estimate error bound"
        assert q * qm.denominator < qm.numerator, "q < q_max (Table 3)"
        assert not cfg.hw or q <= Q_HW_MAX, "q in Table 2's range"
        tr.qs.append(q)
        tr.s_max = max(tr.s_max, s)
        sa, sc = accumulate(sa, sc, a_i, q, bb, nn, cfg, width)
        s_ref = (s_ref << k) + a_i * bb - (q * nn << 2 * k)
        assert 0 <= s_ref < 1 << width, "S fits the carry-save words"
        tr.iterations += 1
    s = (sa + sc) & ((1 << width) - 1)
    assert s == s_ref
    assert s & ((1 << (2 * k + shift)) - 1) == 0, "the low 2k bits of S are zero: S div 2^2k is exact"
    r = s >> (2 * k + shift)
    assert r * 1 < result_bound(cfg) * mod, "R < (q_max 2^-eps + 2^(k+3-delta) + 1) N < 2N"
    assert (r - a * b) % mod == 0, "R = A*B mod N"
    tr.result = r
    return tr


# ---- cycle model ----------------------------------------------------------------------------------

def step_cycles(n_bits: int, k: int) -> int:
    """One step (the square and the multiply interleaved), also one product alone: 2(n'+1)."""
    return 2 * (digits(n_bits, k) + 1)


def recip_cycles(eps: int) -> int:
    return eps + 1


def exp_cycles(n_bits: int, h: int, cfg: Config) -> int:
    """modexp: base check, Y, h steps, convert the last X, final subtraction."""
    return 1 + recip_cycles(cfg.eps) + h * step_cycles(n_bits, cfg.k) + 2


def mul_cycles(n_bits: int, cfg: Config) -> int:
    """modmul (whole op): two range checks, Y, one product, final subtraction."""
    return 2 + recip_cycles(cfg.eps) + step_cycles(n_bits, cfg.k) + 1


def paper_exp_cycles(n_bits: int, k: int) -> int:
    """Section 4: T[Exp, n] = n T[Mult, n], T[Mult] = (ceil((n+1)/k) + 2) loops of two cycles."""
    return 2 * n_bits * (digits(n_bits, k) + 2)


def efficiency(n_bits: int, cycles: int) -> float:
    """The paper's efficiency: bits produced per 1000 clock cycles (an n-bit exponentiation)."""
    return 1000.0 * n_bits / cycles


def words(bits: int) -> int:
    return -(-bits // WORD)


def exp_io_cycles(n_bits: int, h: int) -> int:
    """Port cycles without stalls: N, base (w+1 each), E (w_e+1 if h > 0), result (w)."""
    w = words(n_bits)
    return 3 * w + 2 + (words(h) + 1 if h else 0)


def mul_io_cycles(n_bits: int) -> int:
    """Port cycles without stalls: N, A, B (w+1 each), result (w)."""
    w = words(n_bits)
    return 4 * w + 3


def build_len(n_bits: int, h: int = 0) -> int:
    """The RTL build (MaxLen) for an operation: the smallest power of two >= max(n, h, MIN_LEN)."""
    size = MIN_LEN
    while size < max(n_bits, h):
        size *= 2
    return size


# ---- checks (the hardware's order) --------------------------------------------------------------

def check_lengths(mod: int, h: int) -> int:
    """Length checks, then the even modulus, as the hardware orders them. Returns n."""
    if mod < 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "modulus must be positive")
    n_bits = mod.bit_length()
    if n_bits < MIN_BITS:
        raise PkaError(Status.ERR_LENGTH, f"victor: modulus of {n_bits} bits, the engine needs at least {MIN_BITS}")
    if n_bits > MAX_LEN:
        raise PkaError(Status.ERR_LENGTH, f"victor: modulus of {n_bits} bits exceeds {MAX_LEN}")
    if h > MAX_LEN:
        raise PkaError(Status.ERR_LENGTH, f"victor: exponent of {h} bits exceeds {MAX_LEN}")
    if mod % 2 == 0:
        raise PkaError(Status.ERR_EVEN_MODULUS, "modulus must be odd")
    return n_bits


def check_operand(x: int, mod: int, what: str) -> None:
    if x < 0 or x >= mod:
        raise PkaError(Status.ERR_OPERAND_RANGE, f"{what} out of range [0, N)")


# ---- Algorithm 1 and the engine surface ---------------------------------------------------------

@dataclass
class ExpTrace:
    result: int
    products: int
    qmax_seen: int


def exp_right_to_left(base: int, exp: int, mod: int, cfg: Config, shift: int = 0) -> ExpTrace:
    """Algorithm 1 with Algorithm 4 products; the square and the multiply of a step share B = M."""
    x, x_one, m = 1, True, base
    products, qmax_seen = 0, 0
    for i in range(exp.bit_length()):
        sq = multiply(m, m, mod, cfg, shift)                 # context 0: A0 = M, B = M
        products += 1
        qmax_seen = max(qmax_seen, *sq.qs)
        if (exp >> i) & 1:
            if x_one:
                x, x_one = m, False                          # X = 1 * M: a copy
            else:
                mu = multiply(x, m, mod, cfg, shift)         # context 1: A1 = X, B = M
                products += 1
                qmax_seen = max(qmax_seen, *mu.qs)
                x = mu.result
        m = sq.result
    if x_one:
        return ExpTrace(1, products, qmax_seen)
    assert 0 <= x < 2 * mod
    return ExpTrace(x - mod if x >= mod else x, products, qmax_seen)


def exp_always_multiply(base: int, exp: int, mod: int, cfg: Config, elen: int, shift: int = 0) -> ExpTrace:
    """OP_MODEXP_CT: right to left over exactly elen bits, the multiply context always running on
    one of two accumulators (X_b := X_b * M), X_0 a dummy; both start at 1 (a real product)."""
    assert 0 <= exp < 1 << elen or elen == exp == 0
    acc, m = [1, 1], base
    products, qmax_seen = 0, 0
    for i in range(elen):
        b = (exp >> i) & 1
        sq = multiply(m, m, mod, cfg, shift)                 # context 0: A0 = M, B = M
        mu = multiply(acc[b], m, mod, cfg, shift)            # context 1: A1 = X_b, B = M
        products += 2
        qmax_seen = max(qmax_seen, *sq.qs, *mu.qs)
        acc[b], m = mu.result, sq.result
        assert acc[1] % mod == pow(base, exp & ((2 << i) - 1), mod), "X_1 = base^(e mod 2^(i+1))"
    x = acc[1]
    if elen == 0:
        return ExpTrace(1, 0, 0)
    assert 0 <= x < 2 * mod
    assert (acc[0] * x - pow(base, (1 << elen) - 1, mod)) % mod == 0, "X_0 X_1 = base^(2^h - 1)"
    return ExpTrace(x - mod if x >= mod else x, products, qmax_seen)


def modexp_ct(base: int, exp: int, mod: int, params: Mapping[str, Any], elen: int | None = None) -> OpResult:
    """base^exp mod N by OP_MODEXP_CT over exactly `elen` bits of exp (default: the modulus length,
    the length to give a secret exponent); cycles = exp_cycles(n, elen) whatever exp's value.
    Errors in the hardware's order (lengths with elen, even modulus, base >= N), then
    exp >= 2^elen (ERR_OPERAND_RANGE, a host check: the engine reads only elen bits)."""
    cfg = config_from_params(params)
    if exp < 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "exponent must be >= 0")
    if elen is None:
        elen = max(mod, 0).bit_length()
    if elen < 0:
        raise PkaError(Status.ERR_LENGTH, "exponent length must be >= 0")
    n_bits = check_lengths(mod, elen)
    check_operand(base, mod, "base")
    if exp >> elen:
        raise PkaError(Status.ERR_OPERAND_RANGE, f"exponent out of range [0, 2^{elen})")
    shift = build_len(n_bits, elen) - n_bits
    tr = exp_always_multiply(base, exp, mod, cfg, elen, shift)
    total = exp_cycles(n_bits, elen, cfg)
    detail = {"n": n_bits, "h": elen, "elen": elen, "k": cfg.k, "delta": cfg.delta, "eps": cfg.eps,
              "digits": digits(n_bits, cfg.k), "step_cycles": step_cycles(n_bits, cfg.k),
              "products": tr.products, "q_max_seen": tr.qmax_seen, "q_max_bound": float(cfg.qmax),
              "total_cycles": total, "efficiency": efficiency(n_bits, total) if elen else None}
    return OpResult(tr.result, total, exp_io_cycles(n_bits, elen), detail)


def wipe_cycles() -> int:
    """OP_ZEROIZE's cycles_o on any build: one cycle clears every register."""
    return WIPE_CYCLES


def modexp(base: int, exp: int, mod: int, params: Mapping[str, Any]) -> OpResult:
    """base^exp mod N on the victor engine; cycles = the RTL's cycles_o."""
    cfg = config_from_params(params)
    if exp < 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "exponent must be >= 0")
    h = exp.bit_length()
    n_bits = check_lengths(mod, h)
    check_operand(base, mod, "base")
    shift = build_len(n_bits, h) - n_bits                     # the RTL's left-aligned frame
    tr = exp_right_to_left(base, exp, mod, cfg, shift)
    total = exp_cycles(n_bits, h, cfg)
    detail = {"n": n_bits, "h": h, "k": cfg.k, "delta": cfg.delta, "eps": cfg.eps,
              "digits": digits(n_bits, cfg.k), "step_cycles": step_cycles(n_bits, cfg.k),
              "products": tr.products, "q_max_seen": tr.qmax_seen, "q_max_bound": float(cfg.qmax),
              "total_cycles": total, "efficiency": efficiency(n_bits, total) if h else None}
    return OpResult(tr.result, total, exp_io_cycles(n_bits, h), detail)


def modmul(a: int, b: int, mod: int, params: Mapping[str, Any]) -> OpResult:
    """a*b mod N canonical: one Algorithm-4 product (no domain conversion) and one subtraction.

    cycles = the product (2(n'+1)); detail["total_cycles"] = the whole operation (= cycles_o).
    """
    cfg = config_from_params(params)
    n_bits = check_lengths(mod, 0)
    check_operand(a, mod, "a")
    check_operand(b, mod, "b")
    shift = build_len(n_bits) - n_bits
    tr = multiply(a, b, mod, cfg, shift)
    r = tr.result - mod if tr.result >= mod else tr.result
    total = mul_cycles(n_bits, cfg)
    detail = {"n": n_bits, "k": cfg.k, "delta": cfg.delta, "eps": cfg.eps,
              "digits": digits(n_bits, cfg.k), "raw": tr.result, "q_max_seen": max(tr.qs),
              "total_cycles": total}
    return OpResult(r, step_cycles(n_bits, cfg.k), mul_io_cycles(n_bits), detail)
