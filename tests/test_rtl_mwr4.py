"""mwr4 RTL vs the golden model: results AND cycles, random stalls, recirculation, errors, toggles,
MODEXP_CT (constant time: one cycle count over many exponents of one elen) and the wipe.

Three small builds (MaxLen = 64) cover radix 4 (the paper), radix 2 (Tenca-Koc) and radix 8, with
NS and w chosen so that both S paths of the kernel are used (e > 2 NS: words wait in the S memory;
e <= 2 NS: stage 0 reads the last stage directly) and operands need many passes (n > NS digits).
A fourth build has the toggle counters; its SEL/EN counts must equal the model's prediction.
"""

from __future__ import annotations

import os
import random

import pytest

from pka.errors import PkaError, Status
from pka.model import mwr4 as model
from pka.rtl import mwr4 as rtl
from pka.sim import Op, Slot

pytestmark = pytest.mark.rtl

VECTORS = int(os.environ.get("PKA_VECTORS", "20"))
CONFIGS = [{"radix": 4, "ns": 2, "w": 8}, {"radix": 2, "ns": 3, "w": 4}, {"radix": 8, "ns": 4, "w": 16}]
IDS = ["r4-ns2-w8", "r2-ns3-w4", "r8-ns4-w16"]
STALLS = (0, 300, 700)


def _modulus(rng: random.Random, n: int) -> int:
    return rng.getrandbits(n) | 1 | (1 << (n - 1))


def test_sizes_exercise_both_s_paths_and_recirculation() -> None:
    """The sizes used below: many passes, words through the S memory and the direct path."""
    g = model.geometry(64, model.config(CONFIGS[0]))
    assert g.passes == 16 and g.e > 2 * 2           # radix 4: S memory ("FIFO") path
    g = model.geometry(8, model.config(CONFIGS[0]))
    assert g.passes == 2 and g.e <= 2 * 2           # radix 4: direct path
    g = model.geometry(64, model.config(CONFIGS[1]))
    assert g.passes == 22 and g.e > 2 * 3           # radix 2
    g = model.geometry(64, model.config(CONFIGS[2]))
    assert g.passes == 6 and g.e <= 2 * 4           # radix 8: direct


# the radix-8 build (w = 16) has at most e = 5 words at 64 bits, never the bypass cases of 2 NS = 8
@pytest.mark.parametrize("params", CONFIGS[:2], ids=IDS[:2])
def test_s_memory_boundaries(params: dict[str, int]) -> None:
    """Every word count e around 2 NS, where stage 0's S word changes source: e <= 2 NS (the last
    stage directly), e = 2 NS + 1 (the word written as it is read: bypass), e = 2 NS + 2 (written
    the cycle before it is read: the S word pre-selected a cycle ahead takes the written word),
    e = 2 NS + 3 (the memory). MONTMUL and MODEXP_CT on random operands, with and without stalls."""
    cfg = model.config(params)
    rng = random.Random(31 + sum(params.values()))
    by_e: dict[int, list[int]] = {}
    for n in range(2, 65):
        by_e.setdefault(model.geometry(n, cfg).e, []).append(n)
    targets = list(range(2 * cfg.ns - 1, 2 * cfg.ns + 4))
    assert set(targets) <= set(by_e), (targets, by_e)   # every boundary case is reached
    for e in targets:
        for n in (min(by_e[e]), max(by_e[e])):
            m = _modulus(rng, n)
            for stall in (0, 300):
                a, b = rng.randrange(m), rng.randrange(m)
                r, ref = rtl.montmul(a, b, m, params, stall=stall), model.montmul(a, b, m, params)
                assert (r.result, r.cycles) == (ref.result, ref.cycles), (e, n, m, a, b)
            x, k = rng.randrange(m), rng.getrandbits(n)
            r, ref = rtl.modexp_ct(x, k, m, params, elen=n), model.modexp_ct(x, k, m, params, elen=n)
            assert (r.result, r.cycles) == (pow(x, k, m), ref.cycles), (e, n, m, x, k)


@pytest.mark.parametrize("params", CONFIGS, ids=IDS)
def test_montmul_modmul_random_with_stalls(params: dict[str, int]) -> None:
    rng = random.Random(sum(params.values()))
    for i in range(VECTORS):
        n = rng.choice([2, 3, 8, 17, 31, 32, 33, rng.randrange(2, 65), 64])
        m = _modulus(rng, n)
        a, b = rng.randrange(m), rng.randrange(m)
        stall = STALLS[i % 3]
        r, ref = rtl.montmul(a, b, m, params, stall=stall), model.montmul(a, b, m, params)
        assert (r.result, r.cycles) == (ref.result, ref.cycles), (n, m, a, b)
        r, ref = rtl.modmul(a, b, m, params, stall=stall), model.modmul(a, b, m, params)
        assert (r.result, r.cycles) == (a * b % m, ref.cycles), (n, m, a, b)
        assert r.detail["total_cycles"] == ref.detail["total_cycles"] == 2 * ref.cycles
        assert r.io_cycles and r.io_cycles > 0


@pytest.mark.parametrize("params", CONFIGS, ids=IDS)
def test_modexp_random_with_stalls(params: dict[str, int]) -> None:
    rng = random.Random(7 + sum(params.values()))
    for i in range(max(4, VECTORS // 2)):
        n = rng.choice([3, 16, 33, rng.randrange(2, 65), 64])
        m = _modulus(rng, n)
        x = rng.randrange(m)
        e = rng.choice([0, 1, 2, rng.getrandbits(8), rng.getrandbits(n), (1 << n) - 1])
        r, ref = rtl.modexp(x, e, m, params, stall=STALLS[i % 3]), model.modexp(x, e, m, params)
        assert (r.result, r.cycles) == (pow(x, e, m), ref.cycles), (n, m, x, e)


@pytest.mark.parametrize("params", CONFIGS[:1], ids=IDS[:1])
def test_edge_operands(params: dict[str, int]) -> None:
    for n in (2, 33, 64):
        for m in {(1 << (n - 1)) + 1, (1 << n) - 1}:
            for x in {0, 1, m - 1}:
                assert rtl.modmul(x, m - 1, m, params).result == x * (m - 1) % m
                for e in (0, 1, (1 << n) - 1):
                    r = rtl.modexp(x, e, m, params)
                    assert (r.result, r.cycles) == (pow(x, e, m), model.modexp(x, e, m, params).cycles)


@pytest.mark.parametrize("params", CONFIGS, ids=IDS)
def test_modexp_ct_random_with_stalls(params: dict[str, int]) -> None:
    """OP_MODEXP_CT against the model: results and cycles, elen = n, longer, shorter than n, 0."""
    rng = random.Random(11 + sum(params.values()))
    for i in range(max(4, VECTORS // 2)):
        n = rng.choice([3, 16, 33, rng.randrange(2, 65), 64])
        m = _modulus(rng, n)
        elen = rng.choice([n, n, 0, 1, rng.randrange(1, 65)])
        x, e = rng.randrange(m), rng.getrandbits(elen) >> rng.choice([0, 0, 3])
        r, ref = rtl.modexp_ct(x, e, m, params, stall=STALLS[i % 3], elen=elen), model.modexp_ct(x, e, m, params, elen)
        assert (r.result, r.cycles) == (pow(x, e, m), ref.cycles), (n, m, x, e, elen)
        assert r.io_cycles and r.io_cycles > 0


@pytest.mark.parametrize("params", CONFIGS[:1], ids=IDS[:1])
def test_modexp_ct_edge_operands(params: dict[str, int]) -> None:
    """Smallest/largest modulus of a size, base 0, 1, N-1, exponents 0, 1, top bit only, all ones."""
    for n in (2, 33, 64):
        cyc = model.modexp_ct_cycles(n, n, model.config(params))
        for m in {(1 << (n - 1)) + 1, (1 << n) - 1}:
            for x in {0, 1, m - 1}:
                for e in (0, 1, 1 << (n - 1), (1 << n) - 1):
                    r = rtl.modexp_ct(x, e, m, params, elen=n)
                    assert (r.result, r.cycles) == (pow(x, e, m), cyc), (n, m, x, e)


def test_modexp_ct_constant_time() -> None:
    """100 random exponents (and bases, moduli) of one elen give exactly one (cycles, io_cycles) on
    the RTL, the model's; the control: plain MODEXP's cycles over the same exponents vary."""
    p = CONFIGS[0]
    n = elen = 64
    rng = random.Random(2026)
    exps = [0, 1, 1 << (elen - 1), (1 << elen) - 1] + [rng.getrandbits(elen) for _ in range(100)]
    ct: set[tuple[int, int | None]] = set()
    plain: set[int] = set()
    for e in exps:
        m = _modulus(rng, n)
        x = rng.randrange(m)
        r = rtl.modexp_ct(x, e, m, p, elen=elen)
        assert r.result == pow(x, e, m)
        ct.add((r.cycles, r.io_cycles))
        rp = rtl.modexp(x, e, m, p)
        assert rp.result == pow(x, e, m)
        plain.add(rp.cycles)
    assert len(ct) == 1, sorted(ct)
    assert next(iter(ct))[0] == model.modexp_ct_cycles(n, elen, model.config(p))
    assert len(plain) > 10, sorted(plain)        # the test can tell a leak


@pytest.mark.parametrize("params", CONFIGS, ids=IDS)
def test_wipe(params: dict[str, int]) -> None:
    """OP_ZEROIZE: ST_OK, cycles = the model's wipe_cycles(), io_cycles 0; after a secret op, twice in
    a row, and the engine computes right after it."""
    rng = random.Random(3 + sum(params.values()))
    m = _modulus(rng, 64)
    x, e = rng.randrange(m), rng.getrandbits(64)
    for _ in range(2):
        assert rtl.modexp_ct(x, e, m, params, elen=64).result == pow(x, e, m)
        for _ in range(2):
            w = rtl.wipe(params)
            assert (w.cycles, w.io_cycles) == (model.wipe_cycles(), 0)
        r = rtl.modexp(x, e, m, params)
        assert (r.result, r.cycles) == (pow(x, e, m), model.modexp(x, e, m, params).cycles)


def test_error_codes_and_return_to_idle() -> None:
    """Every status the engine produces, each within a few cycles, then a good op again."""
    cfg = model.config(CONFIGS[0])
    d = rtl.design(cfg, 64)
    h = rtl.harness(d)
    h.stall(0)
    m, a, b = 0xC5, 0x17, 0x42

    def fill(n: int = m, x: int = a, y: int = b, w: int = 1, e: int = 5) -> None:
        for slot, v in ((Slot.N, n), (Slot.A, x), (Slot.B, y), (Slot.W, w), (Slot.E, e)):
            h.write_slot(slot, v, d.slot_words)

    def status(op: int, n: int = 8, elen: int = 3) -> int:
        return h.command(op, n, elen, 0, max_cycles=200).status

    def good() -> None:
        fill()
        r = h.command(Op.MONTMUL, 8, 0, 0, max_cycles=10_000)
        assert r.status == Status.OK
        assert h.read_slot(Slot.R, 1) == model.montmul(a, b, m, CONFIGS[0]).result

    cases = [
        (dict(), Op.MODADD, 8, 3, Status.ERR_OPCODE),
        (dict(), Op.NOP, 8, 3, Status.ERR_OPCODE),
        (dict(), Op.MONTMUL, 0, 0, Status.ERR_LENGTH),
        (dict(), Op.MODMUL, 65, 0, Status.ERR_LENGTH),
        (dict(), Op.MODEXP, 8, 65, Status.ERR_LENGTH),
        (dict(), Op.MODEXP_CT, 8, 65, Status.ERR_LENGTH),
        (dict(), Op.MODEXP_CT, 0, 3, Status.ERR_LENGTH),
        (dict(n=0xC4), Op.MODEXP_CT, 8, 3, Status.ERR_EVEN_MODULUS),
        (dict(n=0xC4), Op.MONTMUL, 8, 0, Status.ERR_EVEN_MODULUS),
        (dict(n=0xC4, x=0xFF), Op.MODEXP, 8, 3, Status.ERR_EVEN_MODULUS),
        (dict(n=1), Op.MONTMUL, 8, 0, Status.ERR_OPERAND_RANGE),
        (dict(n=0x1C5), Op.MONTMUL, 8, 0, Status.ERR_OPERAND_RANGE),   # N >= 2^len
        (dict(x=m), Op.MONTMUL, 8, 0, Status.ERR_OPERAND_RANGE),
        (dict(y=m + 2), Op.MODMUL, 8, 0, Status.ERR_OPERAND_RANGE),
        (dict(w=m), Op.MODMUL, 8, 0, Status.ERR_OPERAND_RANGE),
        (dict(w=m), Op.MODEXP, 8, 3, Status.ERR_OPERAND_RANGE),
        (dict(e=9), Op.MODEXP, 8, 3, Status.ERR_OPERAND_RANGE),         # E >= 2^elen
        (dict(e=9), Op.MODEXP_CT, 8, 3, Status.ERR_OPERAND_RANGE),
        (dict(x=m), Op.MODEXP_CT, 8, 8, Status.ERR_OPERAND_RANGE),
        (dict(), Op.ZEROIZE, 0, 0, Status.OK),
    ]
    for fills, op, n, elen, st in cases:
        fill(**fills)
        assert status(op, n, elen) == st, (fills, op, n, elen)
        good()


def test_api_errors_match_model() -> None:
    p = CONFIGS[0]
    bad = [
        ("modexp", (2, 3, 10)), ("modexp", (11, 3, 11)), ("modexp", (2, -1, 11)), ("modexp", (2, 3, 1)),
        ("modexp", (2, 3, 0)), ("modexp", (-1, 3, 11)), ("modexp", (2, 1 << 5000, 11)),
        ("modexp", (1 << 40, 3, 10)), ("modexp", (1 << 40, 3, 11)),
        ("modmul", (11, 1, 11)), ("modmul", (1, 12, 11)), ("modmul", (1, 1, 12)), ("modmul", (1, -1, 9)),
        ("montmul", (3, 1, 1)),
    ]
    for fn, args in bad:
        with pytest.raises(PkaError) as want:
            getattr(model, fn)(*args, p)
        with pytest.raises(PkaError) as got:
            getattr(rtl, fn)(*args, p)
        assert got.value.status == want.value.status, (fn, args, got.value, want.value)
    with pytest.raises(PkaError) as exc:
        rtl.modexp(2, 3, 11, {"radix": 16})
    assert exc.value.status == Status.ERR_PARAM
    bad_ct = [(2, 3, 10, 8), (11, 3, 11, 8), (2, -1, 11, 8), (2, 3, 1, 8), (2, 3, 0, 8), (-1, 3, 11, 8),
              (2, 8, 11, 3), (2, 1, 11, 0), (2, 1 << 5000, 11, 8), (2, 1 << 40, 10, 8), (2, 3, 11, 4097),
              (2, 3, 10, 5000), (1 << 40, 3, 11, 8)]
    for base, e, mod, elen in bad_ct:
        with pytest.raises(PkaError) as want:
            model.modexp_ct(base, e, mod, p, elen)
        with pytest.raises(PkaError) as got:
            rtl.modexp_ct(base, e, mod, p, elen=elen)
        assert got.value.status == want.value.status, (base, e, mod, elen, got.value, want.value)


def test_select_toggles_equal_model() -> None:
    """Toggle-counter build: SEL/EN register toggles equal the model's, the freeze cuts SEL toggles."""
    p = CONFIGS[0]
    cfg = model.config(p)
    h = rtl.harness(rtl.design(cfg, 64, toggle=True))
    rng = random.Random(17)
    sel = {True: 0, False: 0}
    for _ in range(max(4, VECTORS // 4)):
        m = _modulus(rng, 64)
        a, b = rng.randrange(m), rng.randrange(m)
        prod = model.mont_product(a, b, m, cfg)
        for freeze in (True, False):
            for coding in (True, False):
                h.reset()
                t = rtl.toggles(a, b, m, p, freeze=freeze, coding=coding)
                want = model.select_toggles(prod.qa, prod.qm, cfg, freeze, coding)
                assert (t["sel"], t["en"]) == (want["sel"], want["en"]), (freeze, coding)
                assert t["kernel_cycles"] == model.kernel_cycles(64, cfg)
                assert t["reg"] > 0 and t["net"] > 0
                sel[freeze] += t["sel"]
    assert sel[True] < sel[False]


@pytest.mark.parametrize("lp", [(1, 0), (0, 1), (1, 1)], ids=["blockers", "isolation", "both"])
@pytest.mark.parametrize("p", CONFIGS, ids=lambda p: f"r{p['radix']}-ns{p['ns']}-w{p['w']}")
def test_low_power_builds_transparent(p: dict[str, int], lp: tuple[int, int]) -> None:
    """The glitch blockers' build (LpGlitch = 1: latches open while the clock is low), the operand
    isolation's (LpIsolate = 1) and both (the default build has neither) give the same products in
    the same cycles as the model, random operands and the edge operands 0, 1, M - 1."""
    cfg = model.config(p)
    rng = random.Random(31 + p["radix"])
    n = 64
    for i in range(max(4, VECTORS // 4)):
        m = _modulus(rng, n)
        a, b = [(0, m - 1), (1, m - 1), (m - 1, m - 1)][i] if i < 3 else (rng.randrange(m), rng.randrange(m))
        r = rtl.run(Op.MONTMUL, n, {Slot.N: m, Slot.A: a, Slot.B: b}, cfg, glitch=lp[0], isolate=lp[1], maxlen=n)
        want = model.mont_product(a, b, m, cfg)
        assert r.result == want.value, (a, b, m)
        assert r.cmd.cycles == model.product_cycles(n, cfg)


@pytest.mark.slow
@pytest.mark.parametrize("radix", [2, 4, 8])
def test_large_operands(radix: int) -> None:
    """Benchmark sizes (slow tier): 256- and 1024-bit products and a 256-bit modexp with stalls."""
    p = {"radix": radix, "ns": 8, "w": 16}
    rng = random.Random(radix)
    for n in (256, 1024):
        m = _modulus(rng, n)
        a, b = rng.randrange(m), rng.randrange(m)
        r, ref = rtl.modmul(a, b, m, p, stall=200), model.modmul(a, b, m, p)
        assert (r.result, r.cycles, r.detail["total_cycles"]) == (a * b % m, ref.cycles, ref.detail["total_cycles"])
    m = _modulus(rng, 256)
    x, e = rng.randrange(m), rng.getrandbits(256)
    r = rtl.modexp(x, e, m, p, stall=300)
    assert (r.result, r.cycles) == (pow(x, e, m), model.modexp(x, e, m, p).cycles)


@pytest.mark.slow
def test_modexp_ct_constant_time_256() -> None:
    """Slow tier, the benchmark build (radix 4, NS 8, w 16): 100 random 256-bit exponents (elen 256)
    give one MODEXP_CT (cycles, io_cycles), the model's; MODEXP over the same exponents varies."""
    p = {"radix": 4, "ns": 8, "w": 16}
    rng = random.Random(256)
    m = _modulus(rng, 256)
    ct: set[tuple[int, int | None]] = set()
    plain: set[int] = set()
    for e in [0, (1 << 256) - 1] + [rng.getrandbits(256) for _ in range(100)]:
        x = rng.randrange(m)
        r = rtl.modexp_ct(x, e, m, p, elen=256, stall=0)
        assert r.result == pow(x, e, m)
        ct.add((r.cycles, r.io_cycles))
        plain.add(rtl.modexp(x, e, m, p).cycles)
    assert len(ct) == 1 and next(iter(ct))[0] == model.modexp_ct_cycles(256, 256, model.config(p)) == 148_835
    assert len(plain) > 10
    r = rtl.modexp_ct(3, rng.getrandbits(256), m, p, elen=256, stall=300)
    assert r.cycles == 148_835
