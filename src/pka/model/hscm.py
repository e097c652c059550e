"""Golden model of engine hscm: paper 004, Wu, Li, Liu, "Fast RSA decryption through high-radix
scalable Montgomery modular multipliers" (Sci China Inf Sci 58, 2015).

What the paper specifies and how it is reconstructed here
---------------------------------------------------------
Digit size k = word size w (16 by default; 32 and 64 legal), or k = 2w (the `k` parameter:
each k-bit digit is two passes of the w-bit PE, `hscm_kw` and doc/hscm.md), modulus M odd with n bits
(2^(n-1) <= M < 2^n, n >= 2k+4 because of Appendix B), quotient pipeline depth d = 1.
Sizes: f = ceil((n+2k+2)/k) digits (= floor(n/k) + 3 when k does not divide n + 1), e = f + 1 words.

* Algorithm 3 (optimized HSCM).  mu = -M^-1 mod 2^(2k), M~ = mu*M, N = (M~ + 1)/2^(2k) (called
  `nt` here to keep it apart from the RSA modulus), f = floor(n/k) + 3, e = floor(n/w) + 4 = f + 1
  (for k | n; see below for the general f).
  For i = 0 .. f+1 (f+2 iterations, "rounds", one per PE pass):
      q_i = (S'_i)_0 + (S''_i)_0 mod 2^k
      S_(i+1) = floor(S_i / 2^k) + q_(i-1) N + b_i A        (Algorithm 1, d = 1)
  computed word-serially on e words in carry-save form (S', S'') by a PE with two w x w
  multipliers, three w-bit full adders and one 3:2 CSA (Figure 2/3, reconstructed, see `pe_word`):
      FA1 = S'_(j+1) + S''_(j+1) + c1      FA2 = lo(q N_j) + hi(q N_(j-1)) + c2
      FA3 = lo(b A_j) + hi(b A_(j-1)) + c3
      CSA(FA1, FA2, FA3) -> S'_j (sum), S''_j = (majority << 1) | c4
  The four carry bits (C_i)_j = (c1..c4) of weight 2^k are buffered one cycle and used by word
  j+1 of the same PE; (C_i)_(-1) is the carry out of S'_0 + S''_0 (the word dropped by the shift,
  whose low k bits are q_i): it enters FA1 of word 0 ("non-ignorable").  The result is
  S = 2^k (S'_(f+2) + S''_(f+2)) + q_(f+1).
  Reconstruction: telescoping step 4 gives 2^(k(f+1)) S = 2^k A B + M~ Q with Q = sum q_i 2^(ki),
  so S = A B R^-1 mod M with R = 2^(k f).  The paper writes R = 2^(n+3k) (eq. 5); that is the
  same number only when k divides n.  Checked in `hscm` and the tests.
  The paper assumes k | n.  From the identity, S < mu M + A B / R < 2^(n+2k) + A B / R, which
  stays below 2^(n+2k+1) for all A, B < 2^(n+2k+1) iff R >= 2^(n+2k+2).  With f = floor(n/k) + 3
  and n = -1 mod k, R = 2^(n+2k+1) only, and a squaring of a large in-range value leaves the
  range (n = 255, k = 16: a 289-bit result, shown in the tests).  So f = ceil((n+2k+2)/k), which
  is floor(n/k) + 3 except for n = -1 mod k (one more digit), and e = f + 1 words always hold S_i
  (S_i < 2^(n+3k+1) + 2^(n+k), eq. 1).
  Eq. (2) is garbled in the text ("< 2^(n+3k) + 2^(n+k)"); its own right-hand side sums to
  2^(n+3k+1) + 2^(n+k) - 2^(k+1) + 2, i.e. the same bound as eq. (1), which is what is asserted.
  Eq. (3) (S < 2^(n+2k+1)) is asserted on every product; the exact bound used is
  S < mu M + A B / R (from the telescoped identity).
* MRDC (section 3.2.1, eq. 5): x = floor(w/R) + HSCM(1, w mod R) (= w R^-1 mod M, x < 2^(n+2k+1)),
  then HSCM(x, R^3 mod M) = w R mod M (w in the Montgomery domain).  R^3 mod M is a host constant.
* MULT (Algorithm 4) in the same PEs with N = 0: the product is
  A B = sum_(i=1..f+1) q_i 2^(k(i-1)) + 2^(k(f+1)) S_(f+2): the "quotients" q_1..q_f are the low
  words collected from the PEs in sequence (Figure 6), the rest is piped out of the last PE.
  `mult_alg4` is Algorithm 4 literally (the reference both are checked against).
* Final reduction by approximation (section 4, Appendix B): t = 2k + 4, h = 3, n0 = n - t,
  x1 = floor(X / 2^n0), y1 = floor(M / 2^n0), q1 = floor((x1 - 1)/(y1 + 1)) by Algorithm B1
  (restoring division, t-h+1 quotient bits; garbled "P := x1-1, U := y1+1, Q = U/P" read as
  U := x1 - 1 the dividend, P := y1 + 1 the divisor).  q - 1 <= q1 <= q (B7), so
  R1 = X - q1 M is in [0, 2M).  The paper then keeps R1 when R1 <= M (range (0, M]); we subtract M
  when R1 >= M, which makes the result canonical in [0, M) (R1 = M gives 0, not M).
  x1 = 0 (X < 2^n0) would make x1 - 1 negative: the dividend is clamped to 0 (q1 = 0).
* Exponentiation: Algorithm A1 of Appendix A (k-bit digits E_i from the top, odd powers
  C_1, C_3, ..., C_(2^k - 1) precomputed as C^2 and C_(2j+1) = C_(2j-1) C^2; a digit
  E_i = 2^t * odd costs k - t squarings, one multiplication by C_odd, t squarings).  The text's
  lines 1/4 (S := C; S := S^(2^(h-t))) would square C itself; the top digit is read as
  S := C_(odd), then t squarings.  window 0 (and 1) is left-to-right binary = A1 with k = 1.
  Montgomery ladder (Figure 4, Joye-Yen): two HSCMs in parallel, shared multiplier digits
  alpha = R_bit, multiplicands R0 and R1: every step is one product on each HSCM, n+2 products.
* CRT-RSA (section 3.2, Figure 5): MRDC, MEXP, MULT.  MEXP is not the paper's sliding window here
  but a constant-time fixed window (crt_program): every bit of d_p (d_q) as a bits(p)-bit
  number (bits(p) + X with X extra bits for a blinded exponent d_p + r (p - 1), ours), digits
  of k = window - 1 bits over the table C^0 .. C^(2^k - 1) (the same RAM as A1's window w),
  one multiplication per digit whatever its value (C^0 = the Montgomery one).  Eq. (4) as printed,
  S = S_p v q + S_q u p - t N with u = q^-1 mod p, v = p^-1 mod q, has u and v swapped (S_p v q is
  not = S_p mod p).  Used: y_p = S_p u mod p (the last Montgomery product of the p-exponentiation
  multiplies by u instead of 1, then the final reduction), y_q = S_q v mod q, and
  S = y_p q + y_q p - t N with canonical y's, so t in {0, 1} (the paper's t <= 3 is asserted).
  t is found by the same final-reduction unit with modulus N.

Hardware schedule (the cycle model, see doc/hscm.md): a ring of L PEs (two rings of L/2 for the
ladder and CRT).  Iteration g of a chain of chained products (G passes each) starts at
s_g = s_0 + (g // L) P + 2 (g % L) + g // G with P = max(e, 2L): the next product enters the PE
after the one that runs the previous product's last iteration, three cycles later (one cycle of
bubble per product boundary: the sequencer registers the injected word, so the result adder does
not drive the array's output registers in the cycle it adds), and the ring's first PE starts an
iteration exactly max(0, e - 2L) cycles after its first word reaches the FIFO, so the bubble
moves round the whole ring.  Every figure of the cycle model below is what the RTL's cycles_o
reports.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import gcd
from typing import Any, Mapping, Sequence

from pka.errors import PkaError, Status, check_odd_modulus
from pka.model.common import CrtKey, OpResult, powmod

# ---- engine limits ---------------------------------------------------------------------------

MAX_BITS = 4096          # largest modulus of any build (cmd_len of the biggest MaxLen)
WIDTHS = (16, 32, 64)    # legal w = k
MAX_WINDOW = 8           # largest A1 digit size (the RTL build needs MaxWindow >= window)
#: RSA_CRT's exponent blinding: at most this many extra exponent bits X (cmd arg[31:24], any value
#: 0..MAX_XBITS; pka_hscm_pkg::MaxXBits).  d_p' = d_p + r (p - 1) with r < 2^64 has at most
#: bits(p) + 64 bits.
MAX_XBITS = 64
#: the 8-bit field of X in the command argument
XBITS_FIELD = 255
#: above this many modulus bits the public functions run Algorithm 3 on whole integers (same
#: q digits and values; the word-level carry-save PE model is checked against it in the tests)
WORD_LEVEL_MAX_BITS = 520


def min_bits(k: int) -> int:
    """Smallest modulus: Appendix B needs n >= t = 2k + 4."""
    return 2 * k + 4


# ---- geometry and constants ------------------------------------------------------------------


@dataclass(frozen=True)
class Geometry:
    """Sizes of Algorithm 3 for an n-bit modulus, k-bit digits, on PEs of w-bit words (w = 0:
    w = k).  f, e, r_bits are the k-bit algorithm's; `words`, `passes`, `fw` are the ring's."""

    n: int
    k: int
    w: int = 0

    @property
    def word(self) -> int:
        """w, the PE's word bits."""
        return self.w or self.k

    @property
    def m(self) -> int:
        """w-bit steps per k-bit digit: 1 or 2."""
        return kw_ratio(self.k, self.word)

    @property
    def passes(self) -> int:
        """PE passes per product: m (f + 2) (the k-bit iterations for m = 1)."""
        return self.m * (self.f + 2)

    @property
    def words(self) -> int:
        """w-bit words of a product's stream through a PE: m (f + 2) - 1 (= e for m = 1)."""
        return self.passes - 1

    @property
    def fw(self) -> int:
        """w-bit words of an operand or a result (< 2^(k f)): m f."""
        return self.m * self.f

    @property
    def f(self) -> int:
        """ceil((n + 2k + 2) / k): the paper's floor(n/k) + 3 unless n = -1 mod k (see module doc)."""
        return (self.n + 3 * self.k + 1) // self.k

    @property
    def e(self) -> int:
        """f + 1 words of S (the paper's floor(n/w) + 4 when k divides n)."""
        return self.f + 1

    @property
    def iterations(self) -> int:
        return self.f + 2

    @property
    def r_bits(self) -> int:
        """R = 2^(k f) (the paper's 2^(n+3k) when k divides n)."""
        return self.k * self.f

    @property
    def mask(self) -> int:
        return (1 << self.k) - 1


@dataclass(frozen=True)
class Modulus:
    """M with its Algorithm 3 constants: mu = -M^-1 mod 2^2k and N = (mu M + 1) / 2^2k."""

    m: int
    g: Geometry
    mu: int
    nt: int


def mu_bitserial(m: int, k: int) -> int:
    """mu = -m^-1 mod 2^(2k), one bit per step as the hardware computes it.

    Keep t = m mu mod 2^(2k); bit i of t is made 1 by adding m << i (m is odd), so at the end
    t = 2^(2k) - 1, i.e. m mu = -1 mod 2^(2k).  2k - 1 steps (bit 0 of mu is 1).
    """
    w2 = 2 * k
    full = (1 << w2) - 1
    mu, t = 1, m & full
    for i in range(1, w2):
        if not (t >> i) & 1:
            mu |= 1 << i
            t = (t + (m << i)) & full
    assert t == full and (m * mu) & full == full
    return mu


def modulus(m: int, k: int, n: int | None = None, w: int = 0) -> Modulus:
    check_odd_modulus(m)
    n = m.bit_length() if n is None else n
    if n < min_bits(k) or m.bit_length() != n:
        raise PkaError(Status.ERR_LENGTH, f"modulus must have {n} >= {min_bits(k)} bits for k = {k}")
    g = Geometry(n, k, w)
    mu = mu_bitserial(m, k)
    t = mu * m + 1
    assert t % (1 << (2 * k)) == 0
    nt = t >> (2 * k)
    assert nt < m and nt < 1 << n  # N fits f-2 digits: sum_(j<=f-2) N_j 2^(kj)
    return Modulus(m, g, mu, nt)


def to_words(x: int, k: int, count: int) -> list[int]:
    assert 0 <= x < 1 << (k * count), "value does not fit the word count"
    mask = (1 << k) - 1
    return [(x >> (k * j)) & mask for j in range(count)]


def from_words(ws: Sequence[int], k: int) -> int:
    return sum(v << (k * j) for j, v in enumerate(ws))


# ---- the PE (Figure 2) and Algorithm 3 ---------------------------------------------------------

Carries = tuple[int, int, int, int]
NO_CARRY: Carries = (0, 0, 0, 0)


def pe_word(k: int, s1: int, s2: int, pn_lo: int, pn_hi: int, pa_lo: int, pa_hi: int,
            cin: Carries) -> tuple[int, int, Carries]:
    """One word of the PE: three w-bit full adders and a 3:2 CSA.

    Inputs are S'_(j+1), S''_(j+1) (the shifted S_i), the low half of q N_j and the high half of
    q N_(j-1), the same for b A, and the four carry bits (C_i)_(j-1).  Returns S'_j, S''_j of
    S_(i+1) and the carry bits (C_i)_j, each of weight 2^k:
        S'_j + S''_j + 2^k sum(C_j) = s1 + s2 + pn_lo + pn_hi + pa_lo + pa_hi + sum(C_(j-1)).
    """
    mask = (1 << k) - 1
    a1 = s1 + s2 + cin[0]
    a2 = pn_lo + pn_hi + cin[1]
    a3 = pa_lo + pa_hi + cin[2]
    x1, x2, x3 = a1 & mask, a2 & mask, a3 & mask
    maj = (x1 & x2) | (x1 & x3) | (x2 & x3)
    o1 = x1 ^ x2 ^ x3
    o2 = ((maj << 1) & mask) | cin[3]
    cout: Carries = (a1 >> k, a2 >> k, a3 >> k, maj >> (k - 1))
    assert all(c in (0, 1) for c in cout)
    assert o1 + o2 + (sum(cout) << k) == s1 + s2 + pn_lo + pn_hi + pa_lo + pa_hi + sum(cin)
    return o1, o2, cout


def hscm_iteration(g: Geometry, s1: Sequence[int], s2: Sequence[int], q_prev: int, b: int,
                   a: Sequence[int], nt: Sequence[int]) -> tuple[list[int], list[int], int]:
    """One iteration i (one PE pass, Algorithm 3 lines 3-7) on e words in carry-save form.

    (s1, s2) = S_i; returns (S'_(i+1), S''_(i+1), q_i).  q_prev = q_(i-1), b = b_i.
    """
    return _pe_pass(g.k, g.e, s1, s2, q_prev, b, a, nt)


def _pe_pass(k: int, e: int, s1: Sequence[int], s2: Sequence[int], q_prev: int, b: int,
             a: Sequence[int], nt: Sequence[int]) -> tuple[list[int], list[int], int]:
    """One PE pass on e words of k bits (hscm_iteration; hscm_kw's w-bit steps)."""
    mask = (1 << k) - 1
    w0 = s1[0] + s2[0]
    q, c = w0 & mask, w0 >> k
    cin: Carries = (c, 0, 0, 0)
    pn_hi = pa_hi = 0
    o1, o2 = [0] * e, [0] * e
    for j in range(e):
        pn = q_prev * nt[j]
        pa = b * a[j]
        n1 = s1[j + 1] if j + 1 < e else 0
        n2 = s2[j + 1] if j + 1 < e else 0
        o1[j], o2[j], cin = pe_word(k, n1, n2, pn & mask, pn_hi, pa & mask, pa_hi, cin)
        pn_hi, pa_hi = pn >> k, pa >> k
    assert cin == NO_CARRY and pn_hi == 0 and pa_hi == 0, "carry out of the top word"
    return o1, o2, q


@dataclass(frozen=True)
class HscmOut:
    """Result of one HSCM run: S = 2^k S_(f+2) + q_(f+1), the quotient digits, S_(f+2)."""

    s: int
    qs: tuple[int, ...]     # q_0 .. q_(f+1)
    s_last: int             # S_(f+2) (the words piped out of the last PE)


def _bound1(g: Geometry) -> int:
    return (1 << (g.n + 3 * g.k + 1)) + (1 << (g.n + g.k))


def hscm(a: int, b: int, mod: Modulus, *, mult: bool = False, word_level: bool | None = None) -> HscmOut:
    """Algorithm 3: S = A B R^-1 mod M, 0 <= S < 2^(n+2k+1) (or, mult=True, N = 0: MULT mode).

    A < 2^(kf) and B < 2^(kf) (f digits, b_f = b_(f+1) = 0).  The paper's input range is
    A, B < 2^(n+2k+1); MRDC uses A = 1 with B up to 2^(kf), which keeps every bound.
    """
    g = mod.g
    k, f, e = g.k, g.f, g.e
    assert 0 <= a < 1 << g.r_bits and 0 <= b < 1 << g.r_bits, "operand beyond f digits"
    nt = 0 if mult else mod.nt
    if word_level is None:
        word_level = g.n <= WORD_LEVEL_MAX_BITS
    digits = [(b >> (k * i)) & g.mask for i in range(f + 2)]
    bound = _bound1(g)
    qs: list[int] = []
    if word_level:
        aw, nw = to_words(a, k, e), to_words(nt, k, e)
        s1, s2 = [0] * e, [0] * e
        q_prev = 0
        for i in range(f + 2):
            s_i = from_words(s1, k) + from_words(s2, k)
            if not mult:
                assert s_i <= bound, "eq. (1) violated"
            n1, n2, q = hscm_iteration(g, s1, s2, q_prev, digits[i], aw, nw)
            s_next = from_words(n1, k) + from_words(n2, k)
            assert s_next == (s_i >> k) + q_prev * nt + digits[i] * a, "Algorithm 1 step 4"
            assert s_next < 1 << (k * e), "S does not fit e words"
            s1, s2, q_prev = n1, n2, q
            qs.append(q)
        s_last = from_words(s1, k) + from_words(s2, k)
    else:
        s_i, q_prev = 0, 0
        for i in range(f + 2):
            if not mult:
                assert s_i <= bound, "eq. (1) violated"
            q = s_i & g.mask
            s_i = (s_i >> k) + q_prev * nt + digits[i] * a
            assert s_i < 1 << (k * e), "S does not fit e words"
            q_prev = q
            qs.append(q)
        s_last = s_i
    s = (s_last << k) + q_prev
    assert qs[0] == 0  # S_0 = 0
    if not mult:
        q_all = sum(q << (k * i) for i, q in enumerate(qs[:-1]))
        m_til = mod.mu * mod.m
        # telescoped Algorithm 1: 2^(k(f+1)) S = 2^k A B + M~ Q
        assert (s << (k * (f + 1))) == (a * b << k) + m_til * q_all
        assert (s - a * b * pow(2, -g.r_bits, mod.m)) % mod.m == 0, "S != A B R^-1 mod M"
        assert s < 1 << (g.n + 2 * k + 1), "eq. (3) violated"
        assert s < 1 << (k * f)
    return HscmOut(s, tuple(qs), s_last)


# ---- digits of k = 2w bits on PEs of w-bit words (issue 16 item 4) ---------------------------


def kw_ratio(k: int, w: int) -> int:
    """m = k / w, the w-bit steps per k-bit digit: 1 (k = w) or 2 (k = 2w)."""
    if w not in WIDTHS or k not in WIDTHS or k % w or k // w not in (1, 2):
        raise PkaError(Status.ERR_UNSUPPORTED,
                       f"digit size k = {k} with word size w = {w}: k must be w or 2w, at most 64")
    return k // w


def kw_words(g: Geometry, w: int) -> int:
    """Words of w bits of a w-step stream: m (f + 2) - 1 (= e = f + 1 for m = 1).

    Every intermediate T fits: S_i < 2^(k(f+1)) (eq. 1 and f), and the sum after a step inside a
    digit is below 2^(k(f+1)) + 2^(n+3k+2-w) < 2^(k(f+1)+w); A 2^(w(m-1)) < 2^(kf+w(m-1)).
    """
    return Geometry(g.n, g.k, w).words


def hscm_kw(a: int, b: int, mod: Modulus, w: int, *, mult: bool = False) -> HscmOut:
    """Algorithm 3 with digits of k = m w bits (mod.g.k = k) run as m (f + 2) steps of the w-bit PE.

    A k-bit iteration S_(i+1) = floor(S_i / 2^k) + q_(i-1) N + b_i A is m steps of w bits,
        T_(j+1) = floor(T_j / 2^w) + 2^(w(m-1)) (d_(j-m) N + c_j A),   d_j = T_j mod 2^w,
    with T_(mi) = S_i, c_j the w-bit words of B and d_(mi+t) = the t-th w-bit word of q_i: the
    term added at step t of a digit is divided by 2^w in its m - 1 - t later steps, so it lands
    with weight 2^(wt); and T_(mi+t) mod 2^w = word t of S_i, since every term added inside the
    digit is a multiple of 2^(w(m-1)).  So it is the w-bit PE of k = w (`_pe_pass`) unchanged, with
    the quotient taken from m steps back instead of one (a ring passes the last m quotients on),
    and A and N scaled by 2^(w(m-1)) (one zero word in front of their streams for m = 2).  The
    result S = 2^k T_(m(f+2)) + q_(f+1), q_(f+1) = the last m quotient words, is exactly that of
    the k-bit algorithm (`hscm`), which is asserted together with every digit q_i.
    """
    g = mod.g
    k, f = g.k, g.f
    m = kw_ratio(k, w)
    assert 0 <= a < 1 << g.r_bits and 0 <= b < 1 << g.r_bits, "operand beyond f digits"
    nt = 0 if mult else mod.nt
    e, steps, sh = kw_words(g, w), m * (f + 2), w * (m - 1)
    aw, nw = to_words(a << sh, w, e), to_words(nt << sh, w, e)
    cw = to_words(b, w, steps)
    s1, s2 = [0] * e, [0] * e
    ds: list[int] = []
    for j in range(steps):
        d_prev = ds[j - m] if j >= m else 0
        t_j = from_words(s1, w) + from_words(s2, w)
        n1, n2, d = _pe_pass(w, e, s1, s2, d_prev, cw[j], aw, nw)
        assert d == t_j & ((1 << w) - 1)
        t_next = from_words(n1, w) + from_words(n2, w)
        assert t_next == (t_j >> w) + ((d_prev * nt + cw[j] * a) << sh), "w-bit step"
        s1, s2 = n1, n2
        ds.append(d)
    s_last = from_words(s1, w) + from_words(s2, w)
    qs = tuple(from_words(ds[m * i:m * i + m], w) for i in range(f + 2))
    s = (s_last << k) + qs[-1]
    ref = hscm(a, b, mod, mult=mult, word_level=False)
    assert (s, qs, s_last) == (ref.s, ref.qs, ref.s_last), "k = m w differs from the k-bit algorithm"
    return HscmOut(s, qs, s_last)


def montmul(a: int, b: int, mod: Modulus) -> int:
    """One Montgomery product in the engine's output range [0, 2^(n+2k+1))."""
    return hscm(a, b, mod).s


# ---- MULT: Algorithm 4 and its HSCM form (Figure 6) -----------------------------------------


def mult(a: int, b: int, g: Geometry) -> tuple[int, list[int]]:
    """A * B in MULT mode (N = 0) of the HSCM: returns the product and its 2f words.

    Low words 0..f-1 are the digits q_1..q_f taken from the PEs in sequence (Figure 6), words
    f..2f-1 are 2^k S_(f+2) + q_(f+1) piped out of the last PE.
    """
    dummy = Modulus(1, g, 0, 0)
    out = hscm(a, b, dummy, mult=True)
    low = list(out.qs[1:g.f + 1])
    high = to_words(out.s, g.k, g.f)
    words = low + high
    prod = from_words(words, g.k)
    assert prod == a * b == sum(q << (g.k * (i - 1)) for i, q in enumerate(out.qs) if i) \
        + (out.s_last << (g.k * (g.f + 1)))
    return prod, words


def mult_alg4(a: int, b: int, k: int, m: int) -> int:
    """Algorithm 4 literally: m digits b_i times the m-word A; S_i has m+1 words (carry C_j of
    weight 2^w into word j+1); the result is ((S_(m-1))_m .. (S_(m-1))_0, (S_(m-2))_0 .. (S_0)_0)."""
    mask = (1 << k) - 1
    aw = to_words(a, k, m)
    bd = to_words(b, k, m)
    low: list[int] = []
    prev = [0] * (m + 1)
    for i in range(m):
        s = [0] * (m + 1)
        c = 0
        for j in range(m):
            t = prev[j + 1] + bd[i] * aw[j] + c
            s[j], c = t & mask, t >> k
        s[m] = c
        if i < m - 1:
            low.append(s[0])
        prev = s
    return from_words(low + prev, k)


# ---- MRDC (eq. 5) ---------------------------------------------------------------------------


def mrdc(omega: int, mod: Modulus, r3: int | None = None) -> tuple[int, int]:
    """Scalable modular reduction: returns (x, w_bar) with x = w R^-1 mod M (< 2^(n+2k+1)) and
    w_bar = HSCM(x, R^3 mod M) = w R mod M (the Montgomery form of w mod M).

    omega < 2^(kf + n) (any 2n-bit message).  x = floor(w/R) + HSCM(1, w mod R): the high part
    is added to the result words of the first product (the CPA at the last PE).
    """
    g = mod.g
    assert 0 <= omega < 1 << (g.r_bits + g.n), "message too long for MRDC"
    lo, hi = omega & ((1 << g.r_bits) - 1), omega >> g.r_bits
    x = hscm(1, lo, mod).s + hi
    assert x < 1 << (g.n + 2 * g.k + 1)
    assert (x - omega * pow(2, -g.r_bits, mod.m)) % mod.m == 0
    r3 = powmod(2, 3 * g.r_bits, mod.m) if r3 is None else r3
    wb = hscm(x, r3, mod).s
    assert (wb - omega * pow(2, g.r_bits, mod.m)) % mod.m == 0
    return x, wb


# ---- final reduction by approximation (section 4, Appendix B) --------------------------------


def simple_division(u: int, p: int, t: int, h: int) -> int:
    """Algorithm B1: Q = floor(U / P) bit by bit, U < 2^(2t-h), 2^(t-1) < P <= 2^t."""
    assert 0 <= u < 1 << (2 * t - h) and (1 << (t - 1)) < p <= 1 << t
    tt = u >> (t - h + 1)            # u_(2t-h-1 .. t-h+1): t-1 bits, < P
    q = 0
    for i in range(t - h, -1, -1):
        c = 2 * tt + ((u >> i) & 1)
        c2 = c - p
        if c2 < 0:
            tt = c
        else:
            q |= 1 << i
            tt = c2
        assert 0 <= tt < p
    assert q == u // p
    return q


@dataclass(frozen=True)
class Reduction:
    r: int        # canonical X mod M
    q1: int       # approximated quotient (B2)
    r1: int       # X - q1 M, in [0, 2M)


def final_reduce(x: int, m: int, n: int, k: int, *, eq10: bool = False) -> Reduction:
    """X mod M for X < 2^(n+2k+1) by the approximation of Appendix B, canonical result.

    eq10: X is the output of the last product HSCM(1, B) of an exponentiation, so the paper's
    eqs. (8)-(10) apply: X < (2^2k - 2^-k) M - 2^(n-2) and q < 2^(2k).
    """
    t, h = 2 * k + 4, 3
    n0 = n - t
    assert n0 >= 0 and (1 << (n - 1)) <= m < 1 << n and 0 <= x < 1 << (n + 2 * k + 1)
    x1, y1 = x >> n0, m >> n0
    assert x1 < 1 << (2 * t - h) and (1 << (t - 1)) <= y1 < 1 << t
    assert y1 * y1 > 2 * x1  # (B4)
    q1 = simple_division(max(x1 - 1, 0), y1 + 1, t, h)
    q = x // m
    assert q - 1 <= q1 <= q, "(B7) violated"
    assert q < 1 << (2 * k + 2)
    if eq10:
        assert x * (1 << k) < ((1 << (3 * k)) - 1) * m - (1 << (n - 2 + k)), "eq. (8) violated"
        assert q < 1 << (2 * k), "eq. (10) violated"
    r1 = x - q1 * m
    assert 0 <= r1 < 2 * m
    r = r1 - m if r1 >= m else r1
    assert r == x % m
    return Reduction(r, q1, r1)


# ---- product programs (what the exponentiation controller feeds the HSCM) --------------------


@dataclass(frozen=True)
class Prod:
    """One product of a chain, as the RTL's descriptor: operand sources and where S goes.

    a, b: "cpa" (the previous product's result, chained through the PE ring), "one", "other"
    (b only: the other HSCM's previous result, ladder) or an entry name of the operand RAM.
    dst: entry written with the result (None: only chained).  mult: MULT mode (N = 0).
    addend: entry whose words from f on are added to the result (MRDC's floor(w/R)).
    """

    a: str
    b: str
    dst: str | None = None
    mult: bool = False
    addend: str | None = None


def a1_digits(e: int, k: int) -> list[int]:
    """E = sum E_i 2^(ki), digits from the top, E_(m-1) != 0 (Algorithm A1)."""
    assert e > 0
    m = -(-e.bit_length() // k)
    return [(e >> (k * i)) & ((1 << k) - 1) for i in range(m - 1, -1, -1)]


def _ctz(x: int) -> int:
    return (x & -x).bit_length() - 1


def a1_ops(e: int, k: int) -> tuple[int, list[int]]:
    """Algorithm A1 as (first odd power, ops): op 0 = squaring, op o (odd) = multiply by C_o.

    Top digit E_(m-1) = 2^t o: S := C_o, then t squarings.  Other digits: 0 -> k squarings,
    2^t o -> k - t squarings, multiply by C_o, t squarings.
    """
    digits = a1_digits(e, k)
    top = digits[0]
    t = _ctz(top)
    ops = [0] * t
    for d in digits[1:]:
        if d == 0:
            ops += [0] * k
        else:
            t = _ctz(d)
            ops += [0] * (k - t) + [d >> t] + [0] * t
    return top >> _ctz(top), ops


def table_name(odd: int) -> str:
    return f"T{odd // 2}"


def window_k(window: int) -> int:
    """A1 digit size: window 0 (binary) and 1 are k = 1."""
    return max(1, window)


def exp_program(e: int, window: int, first: Sequence[Prod], last_b: str, crt: bool = False) -> list[Prod]:
    """Products of an A1 exponentiation (pka_hscm_prog): `first` brings C into the Montgomery
    domain (its last product writes T0), then C^2 -> SQ and the odd powers C_(2j+1) -> Tj
    (k >= 2), the digit loop, and the last product by `last_b` ("one": back to the normal
    domain; "U": times u for CRT).  A table entry that the previous product is still writing is
    taken from the chain ("cpa").  E = 0: HSCM(1, W) [, HSCM(., 1) for CRT], HSCM(., last_b)."""
    k = window_k(window)
    if e == 0:
        return [Prod("one", "W")] + ([Prod("cpa", "one")] if crt else []) + [Prod("cpa", last_b, "RES")]
    prog = list(first)
    last_dst = "T0"
    if k >= 2:
        prog.append(Prod("cpa", "cpa", "SQ"))
        for j in range(1, 1 << (k - 1)):
            last_dst = f"T{j}"
            prog.append(Prod("cpa", "T0" if j == 1 else "SQ", last_dst))
    first_odd, ops = a1_ops(e, k)
    src = table_name(first_odd)
    if src == last_dst:
        src = "cpa"
    for op in ops:
        if op == 0:
            prog.append(Prod(src, src))
        else:
            assert src == "cpa"
            prog.append(Prod("cpa", table_name(op)))
        src = "cpa"
    prog.append(Prod(src, last_b, "RES"))
    return prog


def _source(name: str, prev: int | None, other: int | None, ram: Mapping[str, int], g: Geometry) -> int:
    """Operand source of a descriptor; RAM entries are read as f words (x < f), like the RTL."""
    if name == "cpa":
        assert prev is not None
        return prev
    if name == "one":
        return 1
    if name == "other":
        assert other is not None
        return other
    return ram[name] & ((1 << g.r_bits) - 1)


def run_chain(prog: Sequence[Prod], mod: Modulus, ram: dict[str, int]) -> list[int]:
    """Execute a chain bit-faithfully; returns every product's result (entries updated in ram)."""
    results: list[int] = []
    prev: int | None = None
    g = mod.g
    for p in prog:
        a, b = _source(p.a, prev, None, ram, g), _source(p.b, prev, None, ram, g)
        if p.mult:
            s, _ = mult(a, b, g)
        else:
            s = hscm(a, b, mod).s
        if p.addend is not None:
            s += ram[p.addend] >> g.r_bits
            assert s < 1 << (g.n + 2 * g.k + 1)
        if p.dst is not None:
            ram[p.dst] = s
        results.append(s)
        prev = s
    return results


# ---- cycle model of the RTL (rtl/engines/hscm) -----------------------------------------------
# Every constant below is a latency of the RTL, documented where the RTL implements it.

#: fixed entries of an operand RAM before the table (pka_hscm_pkg::NumFixedEnt)
NUM_FIXED_ENTRIES = 15
#: chain start: descriptor fetch, first RAM read, inject register (pka_hscm_seq)
CHAIN_HEAD = 3
#: pka_hscm_redc PREP: start (read M_0), read M_1, capture, and the cycle after the mu loop
PREP_HEAD = 4


def ring_size(pes: int, split: bool) -> int:
    return pes // 2 if split else pes


def iteration_start(g_index: int, geo: Geometry, ring: int) -> int:
    """s_g - s_0: (g // L) P + 2 (g % L) + g // G, P = max(e, 2L) (e: the stream's words,
    `words`; G: a product's passes): one cycle per product boundary before iteration g."""
    period = max(geo.words, 2 * ring)
    return (g_index // ring) * period + 2 * (g_index % ring) + g_index // geo.passes


def chain_cycles(products: int, geo: Geometry, ring: int) -> int:
    """Cycles from a chain's start to its last result word written (inclusive).

    The first iteration starts CHAIN_HEAD - 1 cycles after the start; the last product's last
    iteration (PE pass) starts at s_G, G = K (f+2) - 1 (K m (f+2) - 1 with k = m w); its f
    result words (m f of w bits) are written at s_G + 1 .. s_G + m f.
    """
    assert products >= 1
    last = products * geo.passes - 1
    return CHAIN_HEAD + iteration_start(last, geo, ring) + geo.fw


def montmul_cycles(geo: Geometry, ring: int) -> int:
    """One Montgomery product (OP_MONTMUL: N from the host), the paper's Table 2 figure."""
    return chain_cycles(1, geo, ring)


def prep_cycles(geo: Geometry) -> int:
    """mu and N in pka_hscm_redc (PREP): 2 reads of M (2k bits: 2m words of w bits, each more
    word one cycle), 2k - 1 bit steps of mu, then N = (mu M + 1) / 2^2k over the stream's words
    + 2m (the 2k dropped bits) with one cycle of read latency."""
    m = geo.m
    return PREP_HEAD + 2 * (m - 1) + (2 * geo.k - 1) + (geo.words + 2 * m)


def reduce_cycles(geo: Geometry) -> int:
    """Final reduction (pka_hscm_redc, REDUCE): start, the top words of X and M that hold
    x1 (2t - h = 4k + 5 bits from any bit offset: `reduce_top_words`, 6 for k = w) (+1 latency),
    x1/y1 extraction, Algorithm B1 (t - h + 1 = 2k + 2 steps), R1 = X - q1 M (m f words + 1),
    conditional - M (m f words + 1)."""
    return 3 + reduce_top_words(geo.k, geo.word) + (2 * geo.k + 2) + 2 * (geo.fw + 1)


def reduce_top_words(k: int, w: int) -> int:
    """w-bit words of X read for x1 (4k + 5 bits at a bit offset 0 .. w-1): pka_hscm_redc's Nx."""
    return (4 * k + 5 + 2 * (w - 1)) // w


def wipe_cycles(max_len: int, w: int, max_window: int, k: int = 0) -> int:
    """OP_ZEROIZE: one cycle per word of the operand RAM (both HSCMs' RAMs, N RAMs and FIFOs are
    cleared in parallel, every register is held at zero): (15 + 2^(MaxWindow-1)) entries of
    e_max = m (f_max + 2) - 1 words (f_max + 1 for k = w), f_max = floor((MaxLen + 3k + 1) / k).
    A build constant."""
    return (NUM_FIXED_ENTRIES + (1 << (max_window - 1))) * Geometry(max_len, k or w, w).words


def table_entries(window: int) -> int:
    """Entries of the precomputed table a build of MaxWindow = w reserves for window w
    (pka_hscm_core's TblN): 2^(w-1). MODEXP's sliding window fills them all (C_1, C_3, ...),
    RSA_CRT's fixed window all but one (C^1 .. C^(2^(w-1) - 1); C^0 lives in SQ). Binary
    (w = 0, 1): one entry."""
    return 1 << (max(window, 1) - 1)


def table_bits(max_len: int, w: int, window: int, k: int = 0) -> int:
    """Operand-RAM bits of one HSCM's table in a build of MaxLen bits: table_entries(window)
    entries of e_max words of w bits (pka_hscm_core's Ew, f_max + 1 for k = w), whatever the
    operand size of the command.  A build constant."""
    return table_entries(window) * Geometry(max_len, k or w, w).words * w


def alu_cycles(words: int) -> int:
    """Word-serial add/compare of the two HSCMs' products (pka_hscm_alu): one word per cycle,
    one cycle of read latency."""
    return words + 1


@dataclass
class Timeline:
    """Compute cycles of one operation, phase by phase (the RTL's cycles_o is the sum)."""

    phases: list[tuple[str, int]] = field(default_factory=list)

    def add(self, name: str, cycles: int) -> None:
        self.phases.append((name, cycles))

    @property
    def total(self) -> int:
        return sum(c for _, c in self.phases)


# ---- parameters and checks -------------------------------------------------------------------


def _params(params: Mapping[str, Any]) -> tuple[int, int, int, int]:
    """(pes, k, window, ladder): k the digit bits (the `k` parameter, default w); the word bits w
    are `word_bits(params)`."""
    pes = int(params.get("pes", 16))
    w = int(params.get("w", 16))
    window = int(params.get("window", 0))
    ladder = int(params.get("ladder", 0))
    if w not in WIDTHS:
        raise PkaError(Status.ERR_PARAM, f"w = {w} not supported (16, 32, 64)")
    k = int(params.get("k", 0) or w)
    kw_ratio(k, w)
    if not 1 <= pes <= 128:
        raise PkaError(Status.ERR_PARAM, f"pes = {pes} out of range 1..128")
    if not 0 <= window <= MAX_WINDOW:
        raise PkaError(Status.ERR_PARAM, f"window = {window} out of range 0..{MAX_WINDOW}")
    if ladder not in (0, 1):
        raise PkaError(Status.ERR_PARAM, "ladder must be 0 or 1")
    return pes, k, window, ladder


def word_bits(params: Mapping[str, Any]) -> int:
    """w, the PE word bits (the `w` parameter)."""
    return int(params.get("w", 16))


def _check_split(pes: int) -> None:
    if pes < 2 or pes % 2:
        raise PkaError(Status.ERR_UNSUPPORTED, f"two HSCMs need an even number of PEs (pes = {pes})")


def _check_len(n: int, k: int, max_bits: int = MAX_BITS) -> None:
    if n < min_bits(k) or n > max_bits:
        raise PkaError(Status.ERR_LENGTH, f"modulus of {n} bits outside {min_bits(k)}..{max_bits} for k = {k}")


def check_modulus(mod: int, k: int, w: int = 0) -> Modulus:
    """Host checks in the order of the RTL: length (command decode), then odd (while loading)."""
    if mod <= 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "modulus must be positive")
    _check_len(mod.bit_length(), k)
    check_odd_modulus(mod)
    return modulus(mod, k, w=w)


# ---- public operations -----------------------------------------------------------------------


def r2(mod: int, k: int) -> int:
    """Host constant R^2 mod M (SLOT_W) for R = 2^(k f)."""
    return powmod(2, 2 * Geometry(mod.bit_length(), k).r_bits, mod)


def r3(mod: int, k: int) -> int:
    """Host constant R^3 mod M (CRT: SLOT_X0 for p, SLOT_X1 for q)."""
    return powmod(2, 3 * Geometry(mod.bit_length(), k).r_bits, mod)


def montmul_op(a: int, b: int, mod: int, params: Mapping[str, Any]) -> OpResult:
    """OP_MONTMUL: A B R^-1 mod M in [0, 2^(n+2k+1)), N precomputed by the host (Table 2)."""
    pes, k, _, _ = _params(params)
    w = word_bits(params)
    m = check_modulus(mod, k, w)
    _check_operands(mod, a, b)
    s = montmul(a, b, m)
    cyc = montmul_cycles(m.g, pes)
    return OpResult(s, cyc, detail={"products": 1, "r_bits": m.g.r_bits})


def _check_operands(mod: int, *ops: int) -> None:
    for x in ops:
        if x < 0 or x >= mod:
            raise PkaError(Status.ERR_OPERAND_RANGE, f"operand out of range [0, {hex(mod)})")


def modmul(a: int, b: int, mod: int, params: Mapping[str, Any]) -> OpResult:
    """a b mod M: HSCM(a, R^2), HSCM(., b), final reduction.  cycles = one Montgomery product
    (OP_MONTMUL), detail["total_cycles"] = the whole OP_MODMUL."""
    pes, k, _, _ = _params(params)
    w = word_bits(params)
    m = check_modulus(mod, k, w)
    _check_operands(mod, a, b)
    ram = {"A": a, "B": b, "W": r2(mod, k)}
    prog = [Prod("A", "W"), Prod("cpa", "B", "RES")]
    s = run_chain(prog, m, ram)[-1]
    red = final_reduce(s, mod, m.g.n, k)
    tl = Timeline()
    tl.add("prep", prep_cycles(m.g))
    tl.add("chain", chain_cycles(len(prog), m.g, pes))
    tl.add("reduce", reduce_cycles(m.g))
    return OpResult(red.r, montmul_cycles(m.g, pes),
                    detail={"total_cycles": tl.total, "products": len(prog), "phases": tl.phases})


def modexp(base: int, exp: int, mod: int, params: Mapping[str, Any], elen: int | None = None) -> OpResult:
    """base^exp mod M: A1 window/binary on one ring of `pes` PEs (OP_MODEXP, public exponent), or
    the ladder on two of pes/2 (ladder = 1, OP_MODEXP_CT).

    elen: the exponent's public length (cmd elen; default exp.bit_length()).  The ladder runs
    exactly elen steps, so its cycles depend on elen only; A1 skips leading zeros (bits of E
    from elen up are dropped, as the RTL's alignment does)."""
    pes, k, window, ladder = _params(params)
    w = word_bits(params)
    if ladder:
        _check_split(pes)
    m = check_modulus(mod, k, w)
    if exp < 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "exponent must be >= 0")
    _check_operands(mod, base)
    if elen is None:
        elen = exp.bit_length()
    if elen > MAX_BITS or exp.bit_length() > MAX_BITS:
        raise PkaError(Status.ERR_LENGTH, f"exponent longer than {MAX_BITS} bits")
    exp &= (1 << elen) - 1
    tl = Timeline()
    tl.add("prep", prep_cycles(m.g))
    if ladder:
        res, products = ladder_exp(base, exp, elen, m)
        tl.add("chain", chain_cycles(products, m.g, pes // 2))
    else:
        ram = {"A": base, "W": r2(mod, k)}
        prog = exp_program(exp, window, [Prod("A", "W", "T0")], "one")
        res = run_chain(prog, m, ram)[-1]
        products = len(prog)
        tl.add("chain", chain_cycles(products, m.g, pes))
    red = final_reduce(res, mod, m.g.n, k, eq10=True)
    assert red.r == powmod(base, exp, mod)
    tl.add("reduce", reduce_cycles(m.g))
    return OpResult(red.r, tl.total, detail={"products": products, "phases": tl.phases,
                                             "ring": pes // 2 if ladder else pes})


def ladder_exp(base: int, exp: int, elen: int, mod: Modulus) -> tuple[int, int]:
    """Montgomery ladder on two HSCMs (Figure 4): returns (HSCM result of R0 * 1, products per
    HSCM = elen + 2).  Step: alpha = R_bit (shared digits), R0 := R0 alpha, R1 := R1 alpha."""
    w2 = r2(mod.m, mod.g.k)
    r0 = hscm(1, w2, mod).s          # R mod M (Montgomery 1)
    r1 = hscm(base, w2, mod).s       # C R mod M
    for i in range(elen - 1, -1, -1):
        alpha = r1 if (exp >> i) & 1 else r0
        r0, r1 = hscm(r0, alpha, mod).s, hscm(r1, alpha, mod).s
    out = hscm(r0, 1, mod).s
    return out, elen + 2


def crt_window_k(window: int) -> int:
    """Digit size of RSA_CRT's fixed window: window w keeps the table of MODEXP's window w
    (2^(w-1) entries of the operand RAM), which holds C^0 .. C^(2^(w-1) - 1): digits of w - 1
    bits (1 for w <= 2)."""
    return max(1, window - 1)


def fixed_digits(e: int, bits: int, k: int) -> list[int]:
    """e as a `bits`-bit number in digits from the top: k bits each, the last one bits mod k
    (when k does not divide bits).  Leading zero digits are kept: the count depends on bits and k
    only, never on e."""
    assert 0 <= e < 1 << bits and bits > k
    out: list[int] = []
    rem = bits
    while rem:
        nb = min(k, rem)
        rem -= nb
        out.append((e >> rem) & ((1 << nb) - 1))
    return out


def fixed_table_name(d: int) -> str:
    """Entry of C^d in RSA_CRT's fixed window: C^0 (the Montgomery one) in SQ, C^d in T(d-1)."""
    return "SQ" if d == 0 else f"T{d - 1}"


def crt_program(dexp: int, bits: int, window: int) -> list[Prod]:
    """One half of CRT-RSA on its HSCM, constant time (pka_hscm_prog, PG_CRT): MRDC (2 products)
    -> C R in T0, the Montgomery one HSCM(HSCM(1, R^3), 1) = R -> SQ (C^0), C^2 = C C -> T1 and
    C^j = C^(j-1) C -> T(j-1) up to j = 2^k - 1, then the fixed window over all `bits` bits of
    the exponent (fixed_digits): S = C^(top digit); per further digit d of b bits, b squarings
    and one multiplication by C^d (C^0 too); the last product by u (or v) instead of 1.
    The products depend on bits and the window only; the exponent chooses table entries."""
    k = crt_window_k(window)
    prog = [Prod("one", "MSG", None, addend="MSG"), Prod("cpa", "W", "T0"),
            Prod("one", "W"), Prod("cpa", "one", "SQ")]
    last_dst = "SQ"
    if k >= 2:
        prog.append(Prod("T0", "T0", "T1"))
        for j in range(3, 1 << k):
            prog.append(Prod("cpa", "T0", fixed_table_name(j)))
        last_dst = fixed_table_name((1 << k) - 1)
    digits = fixed_digits(dexp, bits, k)
    src = fixed_table_name(digits[0])
    if src == last_dst:          # still being written by the previous product: from the chain
        src = "cpa"
    rem = bits - k
    for d in digits[1:]:
        nb = min(k, rem)
        rem -= nb
        for _ in range(nb):
            prog.append(Prod(src, src))
            src = "cpa"
        prog.append(Prod("cpa", fixed_table_name(d)))
    prog.append(Prod(src, "U", "RES"))
    return prog


def crt_products(bits: int, window: int) -> int:
    """Products of one CRT half (closed form of crt_program): MRDC 2, the Montgomery one 2, the
    table 2^k - 2, bits - k squarings, one multiplication per digit after the first, the last
    product by u."""
    k = crt_window_k(window)
    return 2 + 2 + (1 << k) - 2 + (bits - k) + (-(-bits // k) - 1) + 1


def check_xbits(xbits: int) -> None:
    """X, RSA_CRT's extra exponent bits: an 8-bit field of the command (a value that does not fit
    is a host error, ERR_PARAM); the engine serves 0..MAX_XBITS, above that ERR_UNSUPPORTED."""
    if not 0 <= xbits <= XBITS_FIELD:
        raise PkaError(Status.ERR_PARAM, f"xbits = {xbits} does not fit arg[31:24] (0..{XBITS_FIELD})")
    if xbits > MAX_XBITS:
        raise PkaError(Status.ERR_UNSUPPORTED, f"xbits = {xbits} above the engine's {MAX_XBITS}")


def crt_checks(m: int, key: CrtKey, params: Mapping[str, Any], xbits: int = 0) -> None:
    """The checks of rsa_crt in the order the RTL makes them (PkaError on bad input)."""
    pes, k, window, _ = _params(params)
    _check_split(pes)
    check_xbits(xbits)
    p, q, n = key.p, key.q, key.n
    if min(p, q, n) <= 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "p, q and n must be positive")
    # the RTL's order: lengths (command decode), p and q odd (loading), message < n (range
    # check), then u q + v p = n + 1 (computed)
    _check_len(n.bit_length(), k)
    _check_len(p.bit_length(), k, MAX_BITS // 2)
    _check_len(q.bit_length(), k, MAX_BITS // 2)
    if p.bit_length() * 2 > MAX_BITS or q.bit_length() * 2 > MAX_BITS:
        raise PkaError(Status.ERR_LENGTH, "p and q must fit half the build maximum")
    if abs(p.bit_length() - q.bit_length()) > 2 * k:
        raise PkaError(Status.ERR_LENGTH, "p and q lengths differ by more than 2k bits")
    check_odd_modulus(p, "p")
    check_odd_modulus(q, "q")
    if not 0 <= m < n:
        raise PkaError(Status.ERR_OPERAND_RANGE, "message out of range [0, n)")
    if not 0 <= key.dp < 1 << (p.bit_length() + xbits) or not 0 <= key.dq < 1 << (q.bit_length() + xbits):
        raise PkaError(Status.ERR_OPERAND_RANGE,
                       f"d_p, d_q must have at most bits(p) + {xbits}, bits(q) + {xbits} bits")
    if gcd(p, q) != 1 or p * q != n or not 0 <= key.qinv < p or not 0 <= key.pinv < q \
            or (key.qinv * q) % p != 1 or (key.pinv * p) % q != 1:
        raise PkaError(Status.ERR_NO_INVERSE, "p and q not coprime, or the key's inverses are wrong")


def rsa_crt(m: int, key: CrtKey, params: Mapping[str, Any], xbits: int = 0) -> OpResult:
    """m^d mod n by CRT on two HSCMs of pes/2 PEs: MRDC, MEXP, MULT (eq. 4), canonical.

    Constant time: each half runs crt_program, a fixed window over all bits(p) + xbits
    (bits(q) + xbits) bits of d_p (d_q), so the cycles depend on the lengths, xbits and the
    window only.
    xbits (cmd arg[31:24], 0..MAX_XBITS): extra exponent bits for a blinded exponent
    d_p' = d_p + r_p (p - 1), d_q' = d_q + r_q (q - 1) (r of up to xbits bits); the engine then
    takes d_p < 2^(bits(p) + xbits), d_q < 2^(bits(q) + xbits).  xbits = 0 is the unblinded
    operation (same cycles as before blinding existed).
    Host constants: R^3 mod p, R^3 mod q, v = p^-1 mod q (and u = qinv from the key), N.
    The engine first checks u q + v p = N + 1 (two MULTs), which holds iff p and q are coprime,
    u and v are the inverses and N = p q.
    """
    pes, k, window, _ = _params(params)
    w = word_bits(params)
    crt_checks(m, key, params, xbits)
    p, q, n = key.p, key.q, key.n
    mp, mq = modulus(p, k, w=w), modulus(q, k, w=w)
    ring = pes // 2
    tl = Timeline()
    tl.add("prep", max(prep_cycles(mp.g), prep_cycles(mq.g)))
    # check u q + v p = N + 1 (MULT mode on both HSCMs, then one compare pass)
    uq, _ = mult(key.qinv, q, mp.g)
    vp, _ = mult(key.pinv, p, mq.g)
    assert uq + vp == n + 1
    words = 2 * max(mp.g.fw, mq.g.fw)
    tl.add("check", max(chain_cycles(1, mp.g, ring), chain_cycles(1, mq.g, ring)) + alu_cycles(words))
    # MRDC + MEXP on each HSCM
    halves = []
    for mod, dexp, u in ((mp, key.dp, key.qinv), (mq, key.dq, key.pinv)):
        ram = {"MSG": m, "W": r3(mod.m, k), "U": u}
        prog = crt_program(dexp, mod.g.n + xbits, window)
        assert len(prog) == crt_products(mod.g.n + xbits, window)
        s = run_chain(prog, mod, ram)[-1]
        red = final_reduce(s, mod.m, mod.g.n, k)
        halves.append((red.r, chain_cycles(len(prog), mod.g, ring) + reduce_cycles(mod.g), len(prog)))
    (yp, cyc_p, np_), (yq, cyc_q, nq_) = halves
    assert yp == powmod(m, key.dp, p) * key.qinv % p and yq == powmod(m, key.dq, q) * key.pinv % q
    tl.add("mexp", max(cyc_p, cyc_q))
    # MULT: y_p q and y_q p in parallel, add, final reduction mod N (eq. 4)
    a, _ = mult(yp, q, mp.g)
    b, _ = mult(yq, p, mq.g)
    x = a + b
    t = x // n
    assert t <= 3 and x < 2 * n
    gn = Geometry(n.bit_length(), k, w)
    red = final_reduce(x, n, gn.n, k)
    s = red.r
    # the CRT of m^dp mod p and m^dq mod q (= m^d mod n for a consistent key; the engine takes
    # any dp < 2^(bits(p) + xbits), dq < 2^(bits(q) + xbits))
    assert s % p == powmod(m, key.dp, p) and s % q == powmod(m, key.dq, q)
    tl.add("mult", max(chain_cycles(1, mp.g, ring), chain_cycles(1, mq.g, ring)))
    tl.add("add", alu_cycles(words))
    tl.add("reduce", reduce_cycles(gn))
    return OpResult(s, tl.total, detail={"phases": tl.phases, "products_p": np_, "products_q": nq_,
                                         "t": t, "ring": ring, "xbits": xbits})


def modred(omega: int, mod: int, params: Mapping[str, Any]) -> OpResult:
    """OP_MODRED: w mod M for w < 2^(2n) by MRDC (x = w R^-1), HSCM(x, R^2), final reduction."""
    pes, k, _, _ = _params(params)
    w = word_bits(params)
    m = check_modulus(mod, k, w)
    if not 0 <= omega < 1 << (2 * m.g.n):
        raise PkaError(Status.ERR_OPERAND_RANGE, "value out of range [0, 2^(2n))")
    ram = {"MSG": omega, "W": r2(mod, k)}
    prog = [Prod("one", "MSG", None, addend="MSG"), Prod("cpa", "W", "RES")]
    s = run_chain(prog, m, ram)[-1]
    red = final_reduce(s, mod, m.g.n, k)
    tl = Timeline()
    tl.add("prep", prep_cycles(m.g))
    tl.add("chain", chain_cycles(len(prog), m.g, pes))
    tl.add("reduce", reduce_cycles(m.g))
    return OpResult(red.r, tl.total, detail={"phases": tl.phases})


def mul(a: int, b: int, n: int, params: Mapping[str, Any]) -> OpResult:
    """OP_MUL: the 2n-bit product of two n-bit numbers in MULT mode (Algorithm 4, Figure 6)."""
    pes, k, _, _ = _params(params)
    w = word_bits(params)
    _check_len(n, k)
    if not (0 <= a < 1 << n and 0 <= b < 1 << n):
        raise PkaError(Status.ERR_OPERAND_RANGE, f"operands must be < 2^{n}")
    g = Geometry(n, k, w)
    prod, _ = mult(a, b, g)
    return OpResult(prod, chain_cycles(1, g, pes), detail={})
