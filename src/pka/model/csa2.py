"""Golden model of csa2: carry-save radix-2 Montgomery exponentiation (paper 000, Cilardo et al.).

Bit-faithful to the paper's Algorithms 2 and 3; the cycle model is the RTL's (rtl/engines/csa2/).

Montgomery product, Algorithm 2 (K = bits of N, R = 2^(K+2), A, B < 2N):

    S := 0, C := 0, V := 0
    for h := 0 to K+4:
        q      := f(S2, S1, C1, C0, N1)          # look-ahead: LSB of U = S/2 + C one step ahead
        V_NEXT := A_h * 4B + q * N               # one of {0, N, 4B, 4B+N}, selected, not added
        S := S/2; (S, C) := S + C + V            # bitwise carry-save addition
        V := V_NEXT
    return S/2 + C                               # in [0, 2N), congruent to A*B*2^-(K+2)

The carry-save pair represents T = S + 2C (C_i is the carry out of position i, weight 2^(i+1));
the "partial product" of the paper is U = T/2 = S/2 + C. With q_h the selection made at iteration
h, U_(h+1) = (U_h + q_h*N)/2 + 2*A_h*B, so the loop is Algorithm 1 on 4B with the division by two
delayed one step. The look-ahead function f (garbled in the extracted text) reconstructed:

    q = S2 xor C1                   when S1 = 0 and C0 = 0
    q = not(S2 xor C1) xor N1       when S1 xor C0 = 1
    q = not(S2 xor C1)              when S1 = 1 and C0 = 1

Derivation (checked numerically by `monprod`'s asserts and tests/test_model_csa2.py): the pending V
has V_0 = q_prev and V_1 = q_prev*N1 (4B has bits 0 and 1 zero), and q_prev = S1 xor C0 (the
invariant that keeps S even). The next U has LSB S'_1 xor C'_0 with C'_0 = maj(S1, C0, q_prev) and
S'_1 = S2 xor C1 xor q_prev*N1; the three cases of (S1, C0) give the three lines above.

Bounds asserted inside `monprod` (the paper's, plus the invariants that make them hold):
  A, B < 2N in; 4B + N < 2^(K+4) (V fits the K+4 bit-slices); S, C < 2^(K+4) (the widths of the
  slices: S_i, C_i for i = 0..K+3); S even after every addition (so S/2 is exact); q equals the
  LSB of the next U; U = S/2 + C < 4B + N in the loop; the result < 2N.

Exponentiation, Algorithm 3 (right-to-left, the Z and P products of one step in parallel, sharing
the right operand B = Z):

    Z := MonProd(X, W);  P := MonProd(1, W)      # W = (2^(K+2))^2 mod N, host-precomputed
    for j := 0 to H-1: Z' := MonProd(Z, Z); if E_j: P := MonProd(P, Z); Z := Z'
    return MonProd(P, 1)

Walter (the paper's ref. [8]): the last MonProd(P, 1) with P < 2N is <= N, and equals N only when
P = N, i.e. when X^E = 0 mod N (possible only for a non-square-free N, e.g. N = 9, X = 3, E = 2);
asserted here. The hardware maps that single value N to 0 while storing the result.

H (exponent bits) is exp.bit_length(): H = 0 for exp = 0 (the loop is empty, the result is
MonProd(MonProd(1, W), 1) = 1). modmul(a, b) is the same schedule with H = 1, E = 1 and A^P = b:
Z := MonProd(a, W) and P := MonProd(b, W) in parallel, P := MonProd(P, Z), MonProd(P, 1).

Cycle model (what the RTL's cycles_o reports; operand load/store is io, not counted):
  paper: (2K+14)(H+2) + K + 7                          exactly the paper's count
  fast:  (Nc+1) + (H+2)(K+5+Nc), Nc = ceil((K+4)/32)   32-bit chunked carry-propagate waves
The fast variant changes only the two carry-propagate additions of each round (S/2 + C, and the
4B + N of the next round), from K+4 one-bit steps to Nc 32-bit chunk steps; see doc/csa2.md.

OP_MODEXP_CT (constant time, not in the paper): Algorithm 3 skips the P product when E_j = 0 (the P
section is frozen: the same cycles, but the work depends on E's bits) and runs H = the exponent's
bit length rounds. The CT op is Montgomery's powering ladder on the same two sections, MSB first
over exactly H = cmd elen bits (leading zeros included), both products in every round:

    R1 := MonProd(X, W) || R0 := MonProd(1, W)                    # round 0, as Algorithm 3
    for j := H-1 downto 0:  b := E_j                              # rounds 1..H
        R_b := MonProd(R_b, R_b) || R_(1-b) := MonProd(R_(1-b), R_b)   # B = R_b shared
    return MonProd(R0, 1)                                         # round H+1, in both sections

Both products of a round share B = R_b, as the sections require (Z: A^Z = R_b, P: A^P = R_(1-b));
the only data-dependent step is which wave sum loads which register at the end of a round (a
swap when E_j != E_(j-1), the same cycles either way). cycles_o = exp_cycles(K, H): the same count
as MODEXP with the same H. The result = N case (Walter) is stored as 0 without a data-dependent
pass: both sections compute MonProd(R0, 1) in round H+1, one copy is compared with N (a pass of
ceil(K/32) cycles, no port access, counted in io_cycles), the other is stored, masked to 0 if equal.

OP_ZEROIZE (the wipe, pka_pkg): every slice register, the controller's registers and the E
register are cleared in WIPE_CYCLES = 1 cycle (one clear of the whole array; V is loaded with the
selection 0 in the same cycle), whatever L.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from pka.errors import PkaError, Status
from pka.model.common import OpResult, r2_mod

MIN_K = 3                # the smallest modulus the engine accepts (bits)
MAX_L = 4096             # the largest array (RTL MaxLen) the driver builds
CHUNK_W = 32             # chunk width of the fast variant's carry-propagate waves (RTL ChunkW)
VARIANTS = ("paper", "fast")
WIPE_CYCLES = 1          # OP_ZEROIZE: one cycle clears the whole array (a build constant)


# ---- configuration and errors ----------------------------------------------------------------

@dataclass(frozen=True)
class Config:
    """K modulus bits, H exponent bits, L array size (RTL MaxLen), variant."""

    k: int
    h: int
    l: int
    variant: str


def array_len(k: int, h: int, l_param: int) -> int:
    """The array size L: the `l` parameter, or the smallest power of two >= max(K, H, 32)."""
    if l_param:
        if l_param % 32 or not 32 <= l_param <= MAX_L:
            raise PkaError(Status.ERR_PARAM, f"csa2: l={l_param} must be 0 or a multiple of 32 in [32, {MAX_L}]")
        return l_param
    need = max(k, h, 32)
    size = 32
    while size < need:
        size *= 2
    return size if size <= MAX_L else need  # need > MAX_L: rejected by check_config


def check_config(mod: int, exp_bits: int, params: Mapping[str, Any]) -> Config:
    """The hardware's checks, in the hardware's order: length, then even modulus."""
    variant = str(params.get("variant", "paper"))
    if variant not in VARIANTS:
        raise PkaError(Status.ERR_PARAM, f"csa2: variant={variant} not supported (paper, fast)")
    if mod < 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "modulus must be positive")
    k = mod.bit_length()
    l_param = int(params.get("l", 0))
    l = array_len(k, exp_bits, l_param)
    if k < MIN_K:
        raise PkaError(Status.ERR_LENGTH, f"csa2: modulus of {k} bits, the engine needs at least {MIN_K}")
    if k > l or k > MAX_L:
        raise PkaError(Status.ERR_LENGTH, f"csa2: modulus of {k} bits exceeds the array (L = {min(l, MAX_L)})")
    if exp_bits > l or exp_bits > MAX_L:
        raise PkaError(Status.ERR_LENGTH, f"csa2: exponent of {exp_bits} bits exceeds the array (L = {l})")
    if mod % 2 == 0:
        raise PkaError(Status.ERR_EVEN_MODULUS, "modulus must be odd")
    return Config(k, exp_bits, l, variant)


def check_operand(x: int, mod: int, what: str) -> None:
    if x < 0 or x >= mod:
        raise PkaError(Status.ERR_OPERAND_RANGE, f"{what} out of range [0, N)")


# ---- Algorithm 2: carry-save Montgomery product -----------------------------------------------

def q_lookahead(s2: int, s1: int, c1: int, c0: int, n1: int) -> int:
    """f(S2, S1, C1, C0, N1): the LSB of U = S/2 + C after the pending addition (see module doc)."""
    x = s2 ^ c1
    if s1 == 0 and c0 == 0:
        return x
    if s1 ^ c0:
        return (x ^ 1) ^ n1
    return x ^ 1


def csa(x: int, y: int, z: int) -> tuple[int, int]:
    """Bitwise carry-save addition: x + y + z = s + 2c with s_i = x_i^y_i^z_i, c_i = maj."""
    return x ^ y ^ z, (x & y) | (x & z) | (y & z)


def monprod(a: int, b: int, n: int, k: int) -> int:
    """Algorithm 2, bit for bit: MonProd(A, B) in [0, 2N), = A*B*2^-(K+2) mod N."""
    assert n & 1 and n.bit_length() <= k, "N odd, N < 2^K"
    assert 0 <= a < 2 * n and 0 <= b < 2 * n, "A, B < 2N"
    width = 1 << (k + 4)                          # K+4 bit-slices hold S, C, V
    b4 = 4 * b
    b4n = b4 + n
    assert b4n < width, "4B + N fits the K+4 slices"
    choices = (0, n, b4, b4n)                     # V_NEXT by (A_h, q)
    n1 = (n >> 1) & 1
    s = c = v = 0
    for h in range(k + 5):
        q = q_lookahead((s >> 2) & 1, (s >> 1) & 1, (c >> 1) & 1, c & 1, n1)
        v_next = choices[2 * ((a >> h) & 1) + q]
        assert s & 1 == 0, "S even: S/2 is exact"
        s, c = csa(s >> 1, c, v)
        v = v_next
        assert s < width and c < width, "S, C fit the K+4 slices"
        assert ((s >> 1) ^ c) & 1 == q, "q is the LSB of the next U = S/2 + C"
        assert (s >> 1) + c < b4n, "U < 4B + N in the loop"
    u = (s >> 1) + c                              # the carry-propagate post-processing
    assert u < 2 * n, "MonProd result < 2N"
    return u


def monprod_ref(a: int, b: int, n: int, k: int) -> int:
    """Algorithm 2 at the word level (U recursion without the carry-save pair), for cross-checks."""
    u = 0
    for h in range(k + 4):                        # V from iterations 0..K+3 reach the result
        u = u + ((a >> h) & 1) * 4 * b + (u & 1) * n
        u >>= 1
    return u


# ---- Algorithm 3: right-to-left exponentiation -------------------------------------------------

def exp_right_to_left(x: int, e: int, n: int, k: int, h: int) -> tuple[int, int]:
    """Algorithm 3 with W = (2^(K+2))^2 mod N. Returns (X^E mod N canonical, MonProds executed)."""
    w = r2_mod(n, k + 2)
    z = monprod(x, w, n, k)                       # Z product  } one round, in parallel,
    p = monprod(1, w, n, k)                       # P product  } right operand B = W shared
    products = 2
    for j in range(h):
        z_next = monprod(z, z, n, k)
        products += 1
        if (e >> j) & 1:
            p = monprod(p, z, n, k)               # uses the old Z (parallel with the Z product)
            products += 1
        z = z_next
    return final_conversion(p, n, k), products + 1


def final_conversion(p: int, n: int, k: int) -> int:
    """MonProd(P, 1) with Walter's bound asserted; N itself (P = N, X^E = 0) maps to 0."""
    r = monprod(p, 1, n, k)
    assert r <= n, "Walter: MonProd(P, 1) <= N"
    assert r < n or p == n, "Walter: MonProd(P, 1) = N only when P = N"
    return 0 if r == n else r


def exp_ladder(x: int, e: int, n: int, k: int, h: int) -> tuple[int, int]:
    """OP_MODEXP_CT: the powering ladder over exactly h bits of e, MSB first, on the two sections.

    Round 0 is Algorithm 3's (R1 = MonProd(X, W) in Z, R0 = MonProd(1, W) in P); each of the h
    ladder rounds runs both products with B = R_b; round h+1 runs MonProd(R0, 1) in both sections.
    Returns (X^e mod N canonical, MonProds executed = 2h + 4, whatever e's bits).
    """
    assert 0 <= e < 1 << h or h == e == 0, "e has at most h bits"
    w = r2_mod(n, k + 2)
    r_mont = (1 << (k + 2)) % n
    r1 = monprod(x, w, n, k)                      # Z section: A^Z = X, B = W
    r0 = monprod(1, w, n, k)                      # P section: A^P = 1, B = W
    products = 2
    for j in range(h - 1, -1, -1):
        b = (e >> j) & 1
        rb, ro = (r1, r0) if b else (r0, r1)
        sq = monprod(rb, rb, n, k)                # Z: A^Z = R_b,     B = R_b
        mu = monprod(ro, rb, n, k)                # P: A^P = R_(1-b), B = R_b
        products += 2
        r0, r1 = (mu, sq) if b else (sq, mu)
        assert r0 % n == pow(x, e >> j, n) * r_mont % n, "R0 = X^(E >> j) in the Montgomery domain"
        assert r1 % n == r0 * x % n, "R1 = R0 X (the ladder's invariant)"
    final_conversion(r0, n, k)                    # the Z section's copy (compared with N)
    return final_conversion(r0, n, k), products + 2


# ---- cycle model --------------------------------------------------------------------------------

def chunks(k: int) -> int:
    """Steps of one fast carry-propagate wave over the K+4 slices."""
    return -(-(k + 4) // CHUNK_W)


def product_cycles(k: int, variant: str) -> int:
    """One round: a Montgomery product (the Z and P products of a step run in parallel)."""
    if variant == "paper":
        return 2 * k + 14
    return k + 5 + chunks(k)


def pre_cycles(k: int, variant: str) -> int:
    """The 4W + N pre-computation before the first round."""
    if variant == "paper":
        return k + 7
    return chunks(k) + 1


def exp_cycles(k: int, h: int, variant: str) -> int:
    """Whole exponentiation: pre + (H + 2) rounds. paper: (2K+14)(H+2) + K + 7."""
    return pre_cycles(k, variant) + (h + 2) * product_cycles(k, variant)


# ---- the engine surface -------------------------------------------------------------------------

def _detail(cfg: Config, products: int, total: int) -> dict[str, Any]:
    return {"k": cfg.k, "h": cfg.h, "l": cfg.l, "variant": cfg.variant, "rounds": cfg.h + 2,
            "products": products, "product_cycles": product_cycles(cfg.k, cfg.variant),
            "pre_cycles": pre_cycles(cfg.k, cfg.variant), "total_cycles": total}


def modexp(base: int, exp: int, mod: int, params: Mapping[str, Any]) -> OpResult:
    """base^exp mod mod on the csa2 engine (Algorithm 3); cycles = the RTL's cycles_o."""
    if exp < 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "exponent must be >= 0")
    cfg = check_config(mod, exp.bit_length(), params)
    check_operand(base, mod, "base")
    result, products = exp_right_to_left(base, exp, mod, cfg.k, cfg.h)
    total = exp_cycles(cfg.k, cfg.h, cfg.variant)
    return OpResult(result, total, None, _detail(cfg, products, total))


def modexp_ct(base: int, exp: int, mod: int, params: Mapping[str, Any], elen: int | None = None) -> OpResult:
    """base^exp mod N by OP_MODEXP_CT: the ladder over exactly `elen` bits of exp (default: the
    modulus length, the length to give a secret exponent); cycles = exp_cycles(K, elen) whatever
    exp's value. Errors in the hardware's order (lengths with elen as H, even modulus, base >= N),
    then exp >= 2^elen (ERR_OPERAND_RANGE, a host check: the engine drops those bits)."""
    if exp < 0:
        raise PkaError(Status.ERR_OPERAND_RANGE, "exponent must be >= 0")
    if elen is None:
        elen = max(mod, 0).bit_length()
    if elen < 0:
        raise PkaError(Status.ERR_LENGTH, "exponent length must be >= 0")
    cfg = check_config(mod, elen, params)
    check_operand(base, mod, "base")
    if exp >> elen:
        raise PkaError(Status.ERR_OPERAND_RANGE, f"exponent out of range [0, 2^{elen})")
    result, products = exp_ladder(base, exp, mod, cfg.k, cfg.h)
    total = exp_cycles(cfg.k, cfg.h, cfg.variant)
    detail = _detail(cfg, products, total)
    detail["elen"] = elen
    return OpResult(result, total, None, detail)


def wipe_cycles() -> int:
    """OP_ZEROIZE's cycles_o on any build (L, variant): one cycle clears every register."""
    return WIPE_CYCLES


def modmul(a: int, b: int, mod: int, params: Mapping[str, Any]) -> OpResult:
    """a*b mod N canonical: Z=MonProd(a,W) || P=MonProd(b,W); P=MonProd(P,Z); MonProd(P,1).

    cycles = one product (a round), detail["total_cycles"] = the whole operation (= cycles_o).
    """
    cfg = check_config(mod, 1, params)
    check_operand(a, mod, "a")
    check_operand(b, mod, "b")
    k, n = cfg.k, mod
    w = r2_mod(n, k + 2)
    z = monprod(a, w, n, k)
    p = monprod(b, w, n, k)
    p = monprod(p, z, n, k)
    result = final_conversion(p, n, k)
    total = exp_cycles(k, 1, cfg.variant)
    return OpResult(result, product_cycles(k, cfg.variant), None, _detail(cfg, 4, total))
