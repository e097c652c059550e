"""Golden model of paper 001: scalable multiple-word radix-4 Montgomery multiplication (MWR4MM).

Ibrahim, Elsimary, Nassar, "FPGA Design, Implementation and Analysis of Scalable Low Power Radix 4
Montgomery Multiplication Algorithm". The paper extends the Tenca-Koc scalable multiplier (MWR2MM)
and its high-radix form (Todorov-Tenca-Koc, radix 8) to radix 4 with two digit recodings:

  * Booth recoding of the multiplier digit qa_j from (a_{j+1}, a_j, a_{j-1})   (Table 1),
    qa in {-2, -1, 0, +1, +2}, so PP = qa*B is a shift and/or inversion of B;
  * Montgomery recoding of the quotient digit qm_j from (sp_1, sp_0, m_1)      (Table 2),
    qm in {-1, 0, +1, +2}, where sp = (S + PP) mod 4; PM = qm*M is again shift/inversion only.

The paper's algorithm (its Fig. "Scalable MWR4MM algorithm"), as reconstructed here
(the extracted text garbles lines 4-12; w-bit words, e words, S signed):

    S = 0, a_{-1} = 0
    for j = 0 .. D-1:                              one radix-2^k digit per iteration
        qa_j = Booth(a_{kj+k-1} .. a_{kj-1})
        SP   = S + qa_j*B                          word by word, carries between words
        qm_j = Montg(SP mod 2^k, M mod 2^k)        only the k low bits of word 0 are needed
        X    = SP + qm_j*M                         X = 0 mod 2^k by construction
        S    = X / 2^k                             word i-1 takes the k low bits of word i;
                                                   the top word is sign-extended (line 12)

Reconstructions and choices (checked by the asserts below and by tests/test_model_mwr4.py):

* Montgomery recoding, general form: qm = bal(-sp * M^-1 mod 2^k) with bal() mapping to the
  balanced range (-2^(k-1), 2^(k-1)]. For k = 2 that is exactly Table 2 (3 = -1 mod 4); for k = 1 it
  is the Tenca-Koc q = S_0; for k = 3 (our radix-8 choice) qm in {-3..4}, which needs the hard
  multiple 3M (formed word-serially as M + 2M in the PE, as Todorov et al. do).
* Multiplier digit: k = 1 is the plain bit a_j (Tenca-Koc MWR2MM, unsigned); k = 2 is Table 1;
  k = 3 is radix-8 Booth, qa = -4a_2 + 2a_1 + a_0 + a_{-1} in {-4..4} (needs 3B, again M+2M style).
* Loop bound: the paper loops j = 0 .. n-1 step 2 with R = 2^n. Booth digits read A as a signed
  number, so an unsigned A < 2^n with its top bit set would need one more digit. We keep the paper's
  digit count D = ceil(n/k) (padded to a multiple of NS, the pipeline length, so every pass uses all
  stages) and add the top-bit correction after the loop instead: A = sum(qa_j 4^j) + a_top*2^(kD),
  so A*B/2^(kD) = S_D + a_top*B. This saves a whole pass over the naive D+1 digits.
* Ranges (asserted): with B < M the recurrence keeps -L < S < U, L = (|qa_min|B + |qm_min|M)/(r-1),
  U = (qa_max B + qm_max M)/(r-1); radix 4: -M < S < 4M/3, radix 8: -M < S < 8M/7, radix 2:
  0 <= S < M + B < 2M (Tenca-Koc). The result T = S_D + a_top*B lies in (-M, 3M).
* Final result canonical in [0, M): the hardware never subtracts in a separate pass. While the last
  pass streams out, a post-processor turns (SS, SC) into two's complement words T and, with two
  word-serial subtractors, learns sign(T), sign(T - M), sign(T - 2M); the result is stored as T plus
  a 2-bit correction code c in {+1, 0, -1, -2} with T + c*M in [0, M). Every reader (the next
  product's multiplier digits, its multiplicand words, the final store) adds c*M on the fly with a
  digit- or word-serial adder, so the correction costs no cycles.

Carry-save form and words (bit-faithful to the RTL PE, `mont_product_words`): S is kept as two
vectors SS, SC of e w-bit words and a carry bit cl, with value

    S = cl + sum_{i<e-1} (SS_i + SC_i) 2^(w i) + signed(SS_{e-1}) 2^(w(e-1)),   SC_{e-1} = 0.

Each word of SS + SC + PP + PM goes through two carry-save adders (CSA1: SS+SC+PP, CSA2: +PM); the
top bit of each CSA's shifted carry vector is the inter-word carry Ca / Cb of the paper's lines 8-9.
The free LSB slots of word 0 take the +1 of a negative PP (two's complement of B) and cl; a negative
PM needs no +1 because qm*M is odd for odd qm (so -qm*M = ~(qm*M) | 1) and even multiples are shifts
of -M. The top word is carry-propagated (one w-bit adder) so that its sign is exact, which is what
lines 11-12 (Ca = Ca or Cb; signext) are for; the low k bits of word 0 may sum to 2^k, and that
carry cl enters the next digit's word 0 (LSB of SC). The word count e keeps the top word in range:
e = max(2, ceil((n + g_k)/w)) with g = 3, 4, 5 guard bits for k = 1, 2, 3.

Cycle model (the RTL's, asserted against cycles_o): a pipeline of NS stages, each handling one digit
per pass over all e words, 2 cycles between stages (a stage needs word 1 of its predecessor's
output before it can shift in the k low bits of its word 0). A pass starts every P = max(e, 2 NS)
cycles (stage 0 is busy e cycles; the last stage's first word returns after 2 NS cycles; with
e > 2 NS the words wait in the S memory, the "FIFO"). With D digits in D/NS passes and one issue
cycle per product:

    cycles(product) = 1 + (D/NS - 1) * max(e, 2 NS) + 2 NS + e

modexp (left-to-right binary): X' = Mont(X, R^2), h-1 squarings, popcount(E)-1 multiplications and
Mont(acc, 1): h + popcount(E) products (E = 0: Mont(R^2, 1), Mont(., 1): 2 products). modmul:
Mont(Mont(A, B), R^2): 2 products. R^2 mod N (R = 2^(kD)) is precomputed on the host (SLOT_W).

modexp_ct (OP_MODEXP_CT, constant time; not in the paper, which has no exponentiation): Montgomery's
powering ladder over all elen bits of E, leading zeros included. X = Mont(A, R^2) (buffer XB = R1),
R0 = Mont(R^2, 1) = R mod N (buffer AC), then for each bit b from the top R_(1-b) = Mont(R0, R1),
R_b = Mont(R_b, R_b) (b only selects buffers), finally Mont(R0, 1): 2 elen + 3 products, a count
that depends on elen alone; every product has the same cycles (the final correction is the code c,
read on the fly, never a conditional subtraction pass), so

    cycles(MODEXP_CT) = (2 elen + 3) * cycles(product).

The wipe (OP_ZEROIZE): every storage element of the engine is a register (operand buffers, S memory,
PE words), so one cycle clears them all: wipe_cycles() = 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from pka.errors import PkaError, Status, check_odd_modulus, check_range
from pka.model.common import OpResult, inv_mod, r2_mod

RADIX_K: dict[int, int] = {2: 1, 4: 2, 8: 3}
GUARD_BITS: dict[int, int] = {1: 3, 2: 4, 3: 5}  # bits of S above the modulus length, per k
WORD_SIZES = (4, 8, 16, 32)
MAX_NS = 64
MAX_BITS = 4096  # largest modulus / exponent the model (and the RTL driver) accepts

# ---- Table 1 of the paper: Booth recoding, (a_{j,1}, a_{j,0}, a_{j,-1}) -> qa_j --------------------
BOOTH_TABLE_R4: dict[tuple[int, int, int], int] = {
    (0, 0, 0): 0, (0, 0, 1): +1, (0, 1, 0): +1, (0, 1, 1): +2,
    (1, 0, 0): -2, (1, 0, 1): -1, (1, 1, 0): -1, (1, 1, 1): 0,
}

# ---- Table 2 of the paper: Montgomery recoding, (sp_{0,1}, sp_{0,0}, m_{0,1}) -> qm_j ---------------
MONT_TABLE_R4: dict[tuple[int, int, int], int] = {
    (0, 0, 0): 0, (0, 0, 1): 0, (0, 1, 0): -1, (0, 1, 1): +1,
    (1, 0, 0): +2, (1, 0, 1): +2, (1, 1, 0): +1, (1, 1, 1): -1,
}


@dataclass(frozen=True)
class Config:
    """Engine parameters: radix 2^k, NS pipeline stages, w-bit words."""

    radix: int = 4
    ns: int = 8
    w: int = 16

    def __post_init__(self) -> None:
        if self.radix not in RADIX_K:
            raise PkaError(Status.ERR_PARAM, f"radix {self.radix} not supported (2, 4, 8)")
        if self.w not in WORD_SIZES:
            raise PkaError(Status.ERR_PARAM, f"word size {self.w} not supported (4, 8, 16, 32)")
        if not 1 <= self.ns <= MAX_NS:
            raise PkaError(Status.ERR_PARAM, f"ns {self.ns} not supported (1..{MAX_NS})")

    @property
    def k(self) -> int:
        return RADIX_K[self.radix]


def config(params: Mapping[str, int | str]) -> Config:
    """The Config of a checked parameter dict (pka.engines.parse_params/check_params)."""
    from pka.engines import ENGINES, check_params

    p = check_params(ENGINES["mwr4"], dict(params))
    return Config(radix=int(p["radix"]), ns=int(p["ns"]), w=int(p["w"]))


@dataclass(frozen=True)
class Geometry:
    """Sizes of one Montgomery product of an n-bit modulus on a Config."""

    n: int        # modulus length in bits (the paper's operand precision)
    e: int        # words of S, B, M per digit
    digits: int   # D: multiplier digits, a multiple of ns
    passes: int   # D / ns passes through the pipeline
    period: int   # P = max(e, 2 ns): cycles between pass starts
    k: int        # bits per digit

    @property
    def r_bits(self) -> int:
        """log2 of the Montgomery constant R = 2^(k D)."""
        return self.digits * self.k


def geometry(n: int, cfg: Config) -> Geometry:
    if n < 1:
        raise PkaError(Status.ERR_LENGTH, "modulus length must be at least 1 bit")
    k = cfg.k
    e = max(2, -(-(n + GUARD_BITS[k]) // cfg.w))
    d = n if k == 1 else -(-n // k)
    passes = -(-d // cfg.ns)
    return Geometry(n=n, e=e, digits=passes * cfg.ns, passes=passes, period=max(e, 2 * cfg.ns), k=k)


# ---- digit recodings --------------------------------------------------------------------------------

def booth_digit(window: int, k: int) -> int:
    """Radix-2^k Booth digit of the (k+1)-bit window (a_{kj+k-1} .. a_{kj}, a_{kj-1}).

    k = 2 is Table 1 of the paper; k = 3 is radix-8 Booth; k = 1 is not Booth (see multiplier_digits).
    """
    if k == 2:
        return BOOTH_TABLE_R4[((window >> 2) & 1, (window >> 1) & 1, window & 1)]
    top = (window >> k) & 1
    mid = (window >> 1) & ((1 << (k - 1)) - 1)
    return -(top << (k - 1)) + mid + (window & 1)


def multiplier_digits(a: int, k: int, count: int) -> tuple[list[int], int]:
    """The multiplier digits qa_0 .. qa_{count-1} of A and the top-bit correction a_top.

    k = 1: the bits of A (Tenca-Koc), a_top = 0. k >= 2: Booth digits of the k*count-bit pattern of A,
    whose signed value is A - a_top * 2^(k count), a_top = bit k*count-1 of A.
    """
    if k == 1:
        if a >> count:
            raise ValueError("multiplier longer than the digit count")
        return [(a >> j) & 1 for j in range(count)], 0
    if a >> (k * count):
        raise ValueError("multiplier longer than the digit count")
    ext = a << 1  # a_{-1} = 0
    mask = (1 << (k + 1)) - 1
    digits = [booth_digit((ext >> (k * j)) & mask, k) for j in range(count)]
    return digits, (a >> (k * count - 1)) & 1


def mont_digit(sp: int, m_low: int, k: int) -> int:
    """Montgomery recoding: the qm with (sp + qm*M) = 0 mod 2^k, in (-2^(k-1), 2^(k-1)].

    k = 2 reads Table 2 of the paper (only m_1 is an input: M is odd).
    """
    r = 1 << k
    if k == 2:
        return MONT_TABLE_R4[((sp >> 1) & 1, sp & 1, (m_low >> 1) & 1)]
    q = (-sp * inv_mod(m_low | 1, r)) % r
    return q - r if 2 * q > r else q


def digit_ranges(k: int) -> tuple[int, int, int, int]:
    """(qa_min, qa_max, qm_min, qm_max) of the recodings for radix 2^k."""
    if k == 1:
        return 0, 1, 0, 1
    h = 1 << (k - 1)
    return -h, h, -h + 1, h


def s_bounds_ok(s: int, b: int, m: int, k: int) -> bool:
    """-L < S < U (or 0 <= S when L = 0), the invariant of the recurrence for B < M."""
    qa_min, qa_max, qm_min, qm_max = digit_ranges(k)
    r1 = (1 << k) - 1
    upper = r1 * s < qa_max * b + qm_max * m
    lo = -qa_min * b - qm_min * m
    lower = r1 * s > -lo if lo > 0 else s >= 0
    return upper and lower


# ---- one Montgomery product -------------------------------------------------------------------------

@dataclass(frozen=True)
class Product:
    """A Montgomery product as the hardware leaves it: T (two's complement) and the correction c."""

    t: int                      # S_D + a_top * B, in (-M, 3M)
    c: int                      # correction code, +1, 0, -1 or -2: T + c*M in [0, M)
    value: int                  # T + c*M = A*B*2^(-k D) mod M
    qa: tuple[int, ...] = field(default=(), repr=False)
    qm: tuple[int, ...] = field(default=(), repr=False)
    a_top: int = 0


def correction(t: int, m: int) -> int:
    """The post-processor's decision from sign(T), sign(T-M), sign(T-2M)."""
    if t < 0:
        return 1
    if t - m < 0:
        return 0
    if t - 2 * m < 0:
        return -1
    return -2


def _finish(t: int, a: int, b: int, m: int, geo: Geometry, qa: list[int], qm: list[int], a_top: int) -> Product:
    assert -m < t < 3 * m, "result T out of (-M, 3M)"
    c = correction(t, m)
    value = t + c * m
    assert 0 <= value < m, "corrected result not canonical"
    assert value == a * b * pow(2, -geo.r_bits, m) % m, "Montgomery product wrong"
    return Product(t=t, c=c, value=value, qa=tuple(qa), qm=tuple(qm), a_top=a_top)


def _check_operands(a: int, b: int, m: int) -> None:
    assert m % 2 == 1 and 0 <= a < m and 0 <= b < m, "operands must be canonical, modulus odd"


def mont_product(a: int, b: int, m: int, cfg: Config, n: int | None = None) -> Product:
    """MWR4MM at digit level: S = (S + qa*B + qm*M) / 2^k over all digits, bounds asserted.

    Integer form of the recurrence the words implement; equal in value to mont_product_words.
    """
    _check_operands(a, b, m)
    geo = geometry(n if n is not None else m.bit_length(), cfg)
    k = cfg.k
    r = 1 << k
    qa, a_top = multiplier_digits(a, k, geo.digits)
    mask = r - 1
    qm_of = [mont_digit(sp, m % r, k) for sp in range(r)]      # Table 2 (radix 4) for this M
    qa_min, qa_max, qm_min, qm_max = digit_ranges(k)
    pp_of = {d: d * b for d in range(qa_min, qa_max + 1)}      # PP = qa*B: shifts/inversions of B
    pm_of = {q: q * m for q in range(qm_min, qm_max + 1)}      # PM = qm*M
    # s_bounds_ok hoisted: -L < S < U  <=>  s_min <= S <= s_max
    hi, lo = qa_max * b + qm_max * m, -qa_min * b - qm_min * m
    s_max = (hi - 1) // mask
    s_min = -lo // mask + 1 if lo else 0
    s = 0
    qm: list[int] = []
    for d in qa:
        sp = s + pp_of[d]
        q = qm_of[sp & mask]
        x = sp + pm_of[q]
        assert x & mask == 0, "low digit of S + PP + PM not zero"
        s = x >> k
        assert s_min <= s <= s_max, "S left the range of the recurrence"
        qm.append(q)
    return _finish(s + a_top * b, a, b, m, geo, qa, qm, a_top)


# ---- the word-level, carry-save form (bit-faithful to the PE) ---------------------------------------

@dataclass(frozen=True)
class CarrySave:
    """S in the PE's carry-save form: words SS, SC (SC's top word is 0) and the pending carry cl."""

    ss: tuple[int, ...]
    sc: tuple[int, ...]
    cl: int
    w: int

    def value(self) -> int:
        e, w = len(self.ss), self.w
        assert self.sc[e - 1] == 0, "top SC word must be zero"
        low = sum((self.ss[i] + self.sc[i]) << (w * i) for i in range(e - 1))
        top = self.ss[e - 1] - ((self.ss[e - 1] >> (w - 1)) << w)  # signed top word
        return self.cl + low + (top << (w * (e - 1)))


def csa(x: int, y: int, z: int) -> tuple[int, int]:
    """Carry-save adder on words: x + y + z = sum + 2*carry."""
    return x ^ y ^ z, (x & y) | (x & z) | (y & z)


def to_words(v: int, e: int, w: int) -> tuple[int, ...]:
    """Two's complement words of v modulo 2^(e w), least significant first."""
    mask = (1 << w) - 1
    v %= 1 << (e * w)
    return tuple((v >> (w * i)) & mask for i in range(e))


def pe_digit(s: CarrySave, qa: int, b: int, m: int, k: int) -> tuple[CarrySave, int]:
    """One PE processing one digit over all words, exactly as pka_mwr4_pe does. Returns (S', qm)."""
    e, w = len(s.ss), s.w
    mask = (1 << w) - 1
    r = 1 << k
    neg_pp = 1 if qa < 0 else 0
    pp = to_words((abs(qa) * b) ^ (-neg_pp), e, w)  # ~(|qa| B) for negative qa, +1 via the carry-in
    # first section: the k low bits of S + PP (word 0) -> qm
    sp_low = (s.ss[0] + s.sc[0] + pp[0] + neg_pp + s.cl) % r
    qm = mont_digit(sp_low, m % r, k)
    pm = to_words(qm * m, e, w)  # exact two's complement, no carry-in needed
    # second section: two CSAs per word, inter-word carries ca (CSA1) and cb (CSA2)
    ssn: list[int] = []
    scn: list[int] = []
    ca, cb = neg_pp, s.cl
    for i in range(e):
        s1, c1 = csa(s.ss[i], s.sc[i], pp[i])
        c1s = ((c1 << 1) | ca) & mask
        ca = c1 >> (w - 1)
        s2, c2 = csa(s1, c1s, pm[i])
        c2s = ((c2 << 1) | cb) & mask
        cb = c2 >> (w - 1)
        if i == e - 1:  # top word: carry-propagate so the sign is exact
            ssn.append((s2 + c2s) & mask)
            scn.append(0)
        else:
            ssn.append(s2)
            scn.append(c2s)
    low = (ssn[0] & (r - 1)) + (scn[0] & (r - 1))
    assert low % r == 0, "low k bits of S + PP + PM not zero"
    cl = low >> k
    # shift right by k: word i takes the k low bits of word i+1; the top word is sign-extended
    out_ss = [((ssn[i] >> k) | ((ssn[i + 1] & (r - 1)) << (w - k))) for i in range(e - 1)]
    top = ssn[e - 1] - ((ssn[e - 1] >> (w - 1)) << w)
    out_ss.append((top >> k) & mask)
    out_sc = [((scn[i] >> k) | ((scn[i + 1] & (r - 1)) << (w - k))) for i in range(e - 1)] + [0]
    out = CarrySave(tuple(out_ss), tuple(out_sc), cl, w)
    assert out.value() * r == s.value() + qa * b + qm * m, "carry-save words lost the value (top word overflow)"
    return out, qm


def post_process(s: CarrySave, b: int, m: int, a_top: int) -> tuple[tuple[int, ...], int]:
    """The post-processor on the last pass's output words: T words and the correction code c.

    t_j = SS_j + SC_j + a_top*B_j (+ cl at j = 0) with a word carry; in parallel T - M and T - 2M
    with borrow chains; the sign bits of the top words decide c.
    """
    e, w = len(s.ss), s.w
    mask = (1 << w) - 1
    bw = to_words(b, e, w)
    mw = to_words(m, e, w)
    m2w = to_words(2 * m, e, w)
    carry, brw1, brw2 = 0, 0, 0
    tw: list[int] = []
    d1 = d2 = 0
    for j in range(e):
        tot = s.ss[j] + s.sc[j] + (bw[j] if a_top else 0) + (s.cl if j == 0 else 0) + carry
        t = tot & mask
        carry = tot >> w
        x1 = t - mw[j] - brw1
        d1, brw1 = x1 & mask, 1 if x1 < 0 else 0
        x2 = t - m2w[j] - brw2
        d2, brw2 = x2 & mask, 1 if x2 < 0 else 0
        tw.append(t)
    sign_t, sign_d1, sign_d2 = tw[-1] >> (w - 1), d1 >> (w - 1), d2 >> (w - 1)
    c = 1 if sign_t else 0 if sign_d1 else -1 if sign_d2 else -2
    return tuple(tw), c


def mont_product_words(a: int, b: int, m: int, cfg: Config, n: int | None = None) -> Product:
    """MWR4MM on w-bit words in carry-save form, the PE and post-processor of the RTL step by step."""
    _check_operands(a, b, m)
    geo = geometry(n if n is not None else m.bit_length(), cfg)
    k, w, e = cfg.k, cfg.w, geo.e
    qa, a_top = multiplier_digits(a, k, geo.digits)
    s = CarrySave((0,) * e, (0,) * e, 0, w)
    qm: list[int] = []
    for d in qa:
        s, q = pe_digit(s, d, b, m, k)
        assert s_bounds_ok(s.value(), b, m, k), "S left the range of the recurrence"
        qm.append(q)
    tw, c = post_process(s, b, m, a_top)
    t = sum(x << (w * i) for i, x in enumerate(tw))
    t -= (tw[-1] >> (w - 1)) << (w * e)
    assert t == s.value() + a_top * b, "post-processor lost the value"
    prod = _finish(t, a, b, m, geo, qa, qm, a_top)
    assert prod.c == c, "post-processor chose the wrong correction"
    return prod


# ---- cycle model ------------------------------------------------------------------------------------

def kernel_cycles(n: int, cfg: Config) -> int:
    """Cycles of one product in the kernel: (D/NS - 1) * max(e, 2 NS) + 2 NS + e."""
    g = geometry(n, cfg)
    return (g.passes - 1) * g.period + 2 * cfg.ns + g.e


def product_cycles(n: int, cfg: Config) -> int:
    """Cycles of one Montgomery product as cycles_o counts it: one issue cycle plus the kernel."""
    return 1 + kernel_cycles(n, cfg)


def modexp_products(exp: int) -> int:
    """Products of the left-to-right binary exponentiation, conversions included."""
    if exp == 0:
        return 2
    return exp.bit_length() + bin(exp).count("1")


def modexp_ct_products(elen: int) -> int:
    """Products of the ladder (OP_MODEXP_CT): conversion, R mod N, 2 per bit, back: 2 elen + 3."""
    return 2 * elen + 3


def modexp_ct_cycles(n: int, elen: int, cfg: Config) -> int:
    """cycles_o of OP_MODEXP_CT: a function of n, elen and the build only, never of E's value."""
    return modexp_ct_products(elen) * product_cycles(n, cfg)


WIPE_CYCLES = 1


def wipe_cycles() -> int:
    """cycles_o of OP_ZEROIZE: one cycle clears every register (the engine has no RAM), whatever
    the build (MaxLen, NS, w); io_cycles 0."""
    return WIPE_CYCLES


# ---- the low-power select registers (section 5) -----------------------------------------------------

def sel_pp_code(qa: int, k: int, coding: bool) -> int:
    """SEL_PP as pka_mwr4_booth encodes the multiplier digit qa.

    Radix 4 natural {neg, x2}: +B 00, +2B 01, -B 10, -2B 11; the paper's coding (SEL(+B) = ~SEL(+2B),
    SEL(-B) = ~SEL(-2B)): +B 00, +2B 11, -B 01, -2B 10; 0 -> 00. Radix 8: {neg, |qa|-1} (0 -> 011).
    Radix 2: 0.
    """
    if k == 1:
        return 0
    neg = 1 if qa < 0 else 0
    if k == 2:
        x2 = 1 if abs(qa) == 2 else 0
        return (x2 << 1) | (x2 ^ neg) if coding else (neg << 1) | x2
    return (neg << 2) | ((abs(qa) - 1) & 3)


def sel_pm_code(qm: int, k: int) -> int:
    """SEL_PM as pka_mwr4_mrec encodes the quotient digit qm: radix 4 {neg, x2} (0 -> 00),
    radix 8 {neg, |qm|-1} (0 -> 011), radix 2: 0."""
    if k == 1:
        return 0
    neg = 1 if qm < 0 else 0
    if k == 2:
        return (neg << 1) | (1 if abs(qm) == 2 else 0)
    return (neg << 2) | ((abs(qm) - 1) & 3)


def select_toggles(qa: tuple[int, ...], qm: tuple[int, ...], cfg: Config, freeze: bool,
                   coding: bool) -> dict[str, int]:
    """Bit toggles of the SEL_PP/SEL_PM and EN_PP/EN_PM registers of all stages over one product,
    from reset (all zero). Stage s takes digits s, s+NS, ...; with `freeze` a SEL register keeps its
    value while its digit is 0 (section 5). The RTL's toggle counters must give exactly these."""
    k = cfg.k
    sel = en = 0
    for s in range(cfg.ns):
        spp = spm = epp = epm = 0
        for j in range(s, len(qa), cfg.ns):
            a, q = qa[j], qm[j]
            if a != 0 or not freeze:
                new = sel_pp_code(a, k, coding)
                sel += bin(spp ^ new).count("1")
                spp = new
            if q != 0 or not freeze:
                new = sel_pm_code(q, k)
                sel += bin(spm ^ new).count("1")
                spm = new
            en += (epp ^ int(a != 0)) + (epm ^ int(q != 0))
            epp, epm = int(a != 0), int(q != 0)
    return {"sel": sel, "en": en}


# ---- the Python surface -----------------------------------------------------------------------------

def _check_inputs(mod: int, operands: tuple[tuple[int, str], ...], exp: int | None = None,
                  elen: int | None = None) -> int:
    """The engine's checks in the hardware's order; returns the modulus length n.

    Host-side first (what cannot be sent to the engine: signs), then what the engine checks when it
    takes the command (lengths), then after loading (even modulus, then the ranges). With elen
    (MODEXP_CT) the exponent is elen bits: elen is a length, exp >= 2^elen a range error."""
    if mod <= 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "modulus must be positive")
    if exp is not None and exp < 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "exponent must be non-negative")
    if any(v < 0 for v, _ in operands):
        raise PkaError(Status.ERR_OPERAND_RANGE, "operands must be non-negative")
    n = mod.bit_length()
    if n > MAX_BITS:
        raise PkaError(Status.ERR_LENGTH, f"modulus of {n} bits above the engine maximum {MAX_BITS}")
    if elen is not None and not 0 <= elen <= MAX_BITS:
        raise PkaError(Status.ERR_LENGTH, f"exponent length {elen} outside 0..{MAX_BITS}")
    if elen is None and exp is not None and exp.bit_length() > MAX_BITS:
        raise PkaError(Status.ERR_LENGTH, f"exponent of {exp.bit_length()} bits above the engine maximum {MAX_BITS}")
    check_odd_modulus(mod)
    if mod == 1:
        raise PkaError(Status.ERR_OPERAND_RANGE, "modulus must be at least 3")
    for v, name in operands:
        check_range(v, mod, name)
    if elen is not None and exp is not None and exp >> elen:
        raise PkaError(Status.ERR_OPERAND_RANGE, f"exponent out of range [0, 2^{elen})")
    return n


def _detail(n: int, cfg: Config, products: int) -> dict[str, object]:
    g = geometry(n, cfg)
    pc = product_cycles(n, cfg)
    return {"products": products, "product_cycles": pc, "kernel_cycles": pc - 1, "total_cycles": products * pc,
            "e": g.e, "digits": g.digits, "passes": g.passes, "period": g.period, "r_bits": g.r_bits}


def montmul(a: int, b: int, mod: int, params: Mapping[str, int | str]) -> OpResult:
    """One Montgomery product A*B*R^-1 mod N (R = 2^(k D)), canonical; the RTL's OP_MONTMUL."""
    cfg = config(params)
    n = _check_inputs(mod, ((a, "a"), (b, "b")))
    p = mont_product(a, b, mod, cfg, n)
    det = _detail(n, cfg, 1)
    return OpResult(p.value, product_cycles(n, cfg), None, det)


def modmul(a: int, b: int, mod: int, params: Mapping[str, int | str]) -> OpResult:
    """a*b mod N = Mont(Mont(a, b), R^2 mod N); cycles of one product, the op in detail."""
    cfg = config(params)
    n = _check_inputs(mod, ((a, "a"), (b, "b")))
    g = geometry(n, cfg)
    w2 = r2_mod(mod, g.r_bits)
    t = mont_product(a, b, mod, cfg, n).value
    res = mont_product(t, w2, mod, cfg, n).value
    assert res == a * b % mod
    return OpResult(res, product_cycles(n, cfg), None, _detail(n, cfg, 2))


def modexp(base: int, exp: int, mod: int, params: Mapping[str, int | str]) -> OpResult:
    """base^exp mod N by left-to-right binary exponentiation on Montgomery products."""
    cfg = config(params)
    n = _check_inputs(mod, ((base, "base"),), exp)
    g = geometry(n, cfg)
    w2 = r2_mod(mod, g.r_bits)
    count = 0

    def mont(x: int, y: int) -> int:
        nonlocal count
        count += 1
        return mont_product(x, y, mod, cfg, n).value

    if exp == 0:
        acc = mont(w2, 1)            # R mod N
    else:
        xb = mont(base, w2)          # base in the Montgomery domain
        acc = xb
        for bit in bin(exp)[3:]:
            acc = mont(acc, acc)
            if bit == "1":
                acc = mont(acc, xb)
    res = mont(acc, 1)
    assert res == pow(base, exp, mod)
    assert count == modexp_products(exp)
    det = _detail(n, cfg, count)
    return OpResult(res, count * product_cycles(n, cfg), None, det)


def ladder(base: int, exp: int, elen: int, mod: int, cfg: Config, n: int) -> tuple[int, list[tuple[str, str, str]]]:
    """The RTL's MODEXP_CT product by product: the result and the schedule of (A, B, destination)
    buffers (XA = A, WW = R^2, ONE = 1, AC = R0, XB = R1), which the bits of E only permute.

    Invariant after step i (asserted): R0 = X^(E >> i) R, R1 = R0 X (Montgomery domain)."""
    g = geometry(n, cfg)
    w2 = r2_mod(mod, g.r_bits)
    r = pow(2, g.r_bits, mod)
    buf = {"XA": base, "WW": w2, "ONE": 1, "AC": 0, "XB": 0}
    sched: list[tuple[str, str, str]] = []

    def mont(a: str, b: str, dst: str) -> None:
        buf[dst] = mont_product(buf[a], buf[b], mod, cfg, n).value
        sched.append((a, b, dst))

    mont("XA", "WW", "XB")                         # R1 = X = A R
    mont("WW", "ONE", "AC")                        # R0 = R mod N
    for i in range(elen - 1, -1, -1):
        bit = (exp >> i) & 1
        mont("AC", "XB", "AC" if bit else "XB")    # R_(1-b) = R0 R1
        sq = "XB" if bit else "AC"
        mont(sq, sq, sq)                           # R_b = R_b^2
        assert buf["AC"] == pow(base, exp >> i, mod) * r % mod
        assert buf["XB"] == buf["AC"] * base % mod
    mont("AC", "ONE", "AC")                        # out of the Montgomery domain
    return buf["AC"], sched


def modexp_ct(base: int, exp: int, mod: int, params: Mapping[str, int | str], elen: int | None = None) -> OpResult:
    """base^exp mod N by OP_MODEXP_CT: the powering ladder over exactly `elen` bits of exp (default:
    the modulus length), so the cycle count is modexp_ct_cycles(n, elen) whatever exp's value.

    Errors in the hardware's order: signs (host), lengths (elen outside 0..MAX_BITS: ERR_LENGTH),
    even modulus, N = 1, base >= N, exp >= 2^elen (ERR_OPERAND_RANGE)."""
    cfg = config(params)
    if elen is None:
        elen = max(mod, 0).bit_length()
    n = _check_inputs(mod, ((base, "base"),), exp, elen)
    res, sched = ladder(base, exp, elen, mod, cfg, n)
    assert res == pow(base, exp, mod)
    assert len(sched) == modexp_ct_products(elen)
    det = _detail(n, cfg, len(sched))
    det["elen"] = elen
    return OpResult(res, modexp_ct_cycles(n, elen, cfg), None, det)
