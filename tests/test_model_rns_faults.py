"""Golden model of rns: the MM sequencer's integrity checks against control faults (issue 13 item 4;
doc/rns.md, "Fault countermeasures"). The fault campaign on ECC_MUL (doc/fault.md) released wrong
points with ST_OK from the sequencer's registers: the ladder index, the scalar, the bit source, the
program counter. Each class is reproduced here on the small curve by flipping one bit of the model's
control state between two instructions (`rns.control_fault`), first without the checks
(fault_check=False, the RTL's FaultCheck = 0: a valid point of another scalar, or a wrong one, with
ST_OK), then with them (ERR_FAULT, zeros, the check that fired in `fault_at`). Also: the exact slot
count of every program, and that the checks cost no cycle.
"""

from __future__ import annotations

import functools
import random

import pytest

from conftest import SEED, vectors
from pka.errors import Status
from pka.model import rns

SMALL = rns.CURVES["small"]
K = 0xC0FFEE123456789 % SMALL.order
ZEROS = (((0,) * 5,) * 2,) * 2                      # R and R_HI after a failure (n = 5 on the small curve)
SMALL_CYCLES = 27_113                                # the checked ECC_MUL on the small curve (unchanged)


def _point(c: rns.Curve, k: int) -> tuple[int, int]:
    pt = rns.affine_mul(c, k % c.order, (c.gx, c.gy))
    assert pt is not None
    return pt


def _on_curve(c: rns.Curve, x: int, y: int) -> bool:
    return (y * y - x ** 3 - c.a * x - c.b) % c.p == 0


@functools.lru_cache(maxsize=None)
def _trace(k: int = K) -> tuple[tuple[int, int, int, int], ...]:
    """(step, pc, idx, op) after each instruction of a fault-free checked ECC_MUL (pc: the next one)."""
    words, _ = rns.rom()
    out: list[tuple[int, int, int, int]] = []

    def rec(i: int, m: rns.Machine) -> None:
        out.append((i, m.pc, m.idx, int(words[m.pc].op) if m.pc < len(words) else 0))

    ctx, m = rns.ecc_machine(SMALL, k, SMALL.gx, SMALL.gy, 16, fault=rec)
    assert m.status == Status.OK and m.cycles == SMALL_CYCLES
    return tuple(out)


def _run(fault: rns.FaultHook, check: bool, k: int = K) -> tuple[rns.MmCtx, rns.Machine]:
    return rns.ecc_machine(SMALL, k, SMALL.gx, SMALL.gy, 16, fault=fault, fault_check=check)


def _released(ctx: rns.MmCtx, m: rns.Machine) -> tuple[int, int]:
    x, y = (ctx.from_rns(v) % SMALL.p for v in m.out())
    return x, y


def _assert_caught(fault: rns.FaultHook, why: str | tuple[str, ...]) -> rns.Machine:
    ctx, m = _run(fault, True)
    assert m.status == Status.ERR_FAULT, (m.status, m.fault_at)
    assert m.fault_at in ((why,) if isinstance(why, str) else why), m.fault_at
    assert m.out() == ZEROS
    return m


def _ladder_step(step: int) -> int:
    """The hook step just before the MAP of ladder step `step` (0 = the first) executes: idx is that
    step's bit index."""
    maps = [i for i, pc, idx, op in _trace() if i > 0 and _trace()[i - 1][3] == rns.UOp.MAP]
    return maps[step] - 1


def test_fault_free_cycles_and_slots_unchanged() -> None:
    """The checks add no cycle: the small curve's checked ECC_MUL keeps its count, every slot is
    counted (the exact length), the token ends PASS."""
    ctx, m = _run(None, True)   # type: ignore[arg-type]
    assert m.status == Status.OK and m.cycles == SMALL_CYCLES == rns.ecc_cycles(SMALL, 16)
    assert m.slots == m.slots_end == rns.program_slots("ecc", SMALL.order.bit_length(), SMALL.p.bit_length())
    assert m.tok == rns.TOK_PASS and m.fault_at == ""
    assert _released(ctx, m) == _point(SMALL, K)


@pytest.mark.parametrize("name", ["montmul", "modmul", "modadd", "modsub", "modexp", "modexp_ct"])
def test_slot_count_is_exact_for_every_program(name: str) -> None:
    """The slot count a + e elen + l len (pka_rns_ucode's slots_*_o) is what every program passes,
    whatever its data: a modexp over exponents of any weight and length (an IFBIT counts 2 slots
    whether it skips or not), elen 0 included."""
    rng = random.Random(SEED + 7)
    n = (1 << 61) - 1
    a, e, ln, checked = rns.slot_coeffs(rns.PROGRAMS[name])
    assert not checked
    for elen in (0, 1, 5, 64):
        for exp in {0, (1 << elen) - 1, rng.getrandbits(elen) if elen else 0}:
            ctx = rns.mm_context(n, 16)
            m = rns.run_machine(ctx, rns.PROGRAMS[name], {rns.IN_A: 12345, rns.IN_B: 678, rns.ONE: 1,
                                                         rns.RW: ctx.m * ctx.m % n}, scalar=exp, elen=elen)
            assert m.status == Status.OK and m.slots == m.slots_end == a + e * elen
            assert m.tok == rns.TOK_NONE


def test_rom_entries_give_the_generated_counts() -> None:
    """The ROM's ECC entries: the checked ones (ecc, ecc_rz) run the output check (token PEND), the
    x-only ones do not; each ladder step is 25 slots, each Fermat bit 4. X25519's (ecc_m, ecc_mrz):
    19 slots a step, no loop over len (its chain's loops have fixed counts: constant slots)."""
    words, entry = rns.rom()
    for name, checked in (("ecc", True), ("ecc_rz", True), ("ecc_x", False), ("ecc_xrz", False)):
        a, e, ln, chk = rns.slot_coeffs(words, entry[name])
        assert (e, ln, chk) == (25, 4, checked)
        assert a < 1 << rns.ISLOTS_A_BITS
    for name in ("ecc_m", "ecc_mrz"):
        a, e, ln, chk = rns.slot_coeffs(words, entry[name])
        assert (e, ln, chk) == (19, 0, False) and 512 < a < 1 << rns.ISLOTS_A_BITS
    sv = rns.ucode_sv()
    a, e, ln, _ = rns.slot_coeffs(words, entry["ecc"])
    assert (f"slots_a_o = {rns.ISLOTS_A_BITS}'d{a}; slots_e_o = 6'd{e}; slots_l_o = 6'd{ln}; "
            "checked_o = 1'b1;") in sv


# ---- the campaign's escape classes ---------------------------------------------------------------

def test_ladder_index_flip() -> None:
    """idx_q: the ladder runs more or fewer steps, a valid point of another scalar (the on-curve check
    cannot see it); the exact slot count catches it: fewer steps reach HALT early, more overrun."""
    tr = _trace()
    for step, bit in ((20, 0), (40, 3), (10, 6), (10, 1)):
        idx = tr[_ladder_step(step)][2]
        why = "halt" if idx ^ (1 << bit) < idx else "overrun"
        f = rns.control_fault(_ladder_step(step), "idx", bit)
        ctx, m = _run(f, False)
        x, y = _released(ctx, m)
        assert m.status == Status.OK and (x, y) != _point(SMALL, K) and _on_curve(SMALL, x, y)
        _assert_caught(f, why)


def test_scalar_bit_flip() -> None:
    """scal_q: a bit not yet consumed flipped gives (k xor 2^b) P with ST_OK, and tells the bit (the
    point is k P +- 2^b P); the word's parity catches it at the MAP that reads the word, whatever the
    bit's value (the same outcome and cycle count for k and k xor 2^b: no safe-error leak)."""
    step = _ladder_step(20)                  # idx = 63 - 20 = 43 at that MAP: bits 0..42 still to come
    for b in (5, 40):
        f = rns.control_fault(step, "scal", b)
        ctx, m = _run(f, False)
        assert m.status == Status.OK and _released(ctx, m) == _point(SMALL, K ^ (1 << b))
        outcomes = set()
        for k in (K | (1 << b), K & ~(1 << b)):
            ctx, m = _run(f, True, k)
            assert m.status == Status.ERR_FAULT and m.fault_at == "parity" and m.out() == ZEROS
            outcomes.add(m.cycles)
        assert len(outcomes) == 1
    # a bit already consumed in the word the ladder still reads: the word's parity fails, detected
    # (the same for either value of the bit: no safe-error leak either)
    _assert_caught(rns.control_fault(step, "scal", 60), "parity")
    # a bit of a word the ladder has finished (idx = 23 at step 40): masked, with or without the checks
    f = rns.control_fault(_ladder_step(40), "scal", 60)
    for check in (False, True):
        ctx, m = _run(f, check)
        assert m.status == Status.OK and _released(ctx, m) == _point(SMALL, K)


def test_bit_source_flip() -> None:
    """src_q: the ladder's MAP reads the Fermat exponent P - 2 instead of the scalar: a valid point
    of another scalar with ST_OK. With the checks the MAP reads the source its own word names: the
    flipped register is never read (masked)."""
    f = rns.control_fault(_ladder_step(30), "src", 0)
    ctx, m = _run(f, False)
    x, y = _released(ctx, m)
    assert m.status == Status.OK and (x, y) != _point(SMALL, K) and _on_curve(SMALL, x, y)
    ctx, m = _run(f, True)
    assert m.status == Status.OK and _released(ctx, m) == _point(SMALL, K)


def test_ladder_map_flip() -> None:
    """map_q right after a ladder step's MAP: the whole step runs with the other bit's register roles,
    i.e. for the scalar with that bit flipped: a valid point of another scalar with ST_OK (the
    campaign's map_q escapes). In two bits (00 / 11) the flip is an invalid code, caught as the next
    instruction starts, whichever bit of the code flips."""
    tr = _trace()
    step = _ladder_step(20) + 1                 # after the MAP (_ladder_step: just before it)
    idx = tr[step][2]
    f = rns.control_fault(step, "map_code", 0)
    ctx, m = _run(f, False)
    assert m.status == Status.OK and _released(ctx, m) == _point(SMALL, K ^ (1 << idx))
    for bit in (0, 1):
        _assert_caught(rns.control_fault(step, "map_code", bit), "map")


def _pc_jumps() -> list[tuple[int, int, int]]:
    """(step, bit, target) of pc flips that jump forward from the ladder or the y recovery to the
    output check or its HALT (the campaign's pc_q escapes: done shortly after, the check skipped)."""
    words, entry = rns.rom()
    base = entry["ecc"]
    halt = base + len(rns.PROGRAMS["ecc"]) - 1
    check = halt - 9                                   # _on_curve_check: 9 instructions before HALT
    out = []
    for i, pc, idx, op in _trace():
        for b in range(rns.ROM_AW):
            t = pc ^ (1 << b)
            if pc < check - 4 and check <= t <= halt:
                out.append((i, b, t))
    return out


def test_pc_flip_skips_to_the_end() -> None:
    """pc_q: a jump forward over the rest of the program into the output check or onto HALT ends
    with ST_OK and a wrong (or stale) result; the exact slot count (and the token, for a jump onto
    HALT) catches every one, or the output check itself does (fault_at "") when the jump lands
    before its FAIL."""
    jumps = _pc_jumps()
    assert jumps
    rng = random.Random(SEED + 5)
    words, entry = rns.rom()
    halt = entry["ecc"] + len(rns.PROGRAMS["ecc"]) - 1
    picked = [j for j in jumps if j[2] == halt][:1] + rng.sample([j for j in jumps if j[2] != halt], 2)
    for step, bit, target in picked:
        f = rns.control_fault(step, "pc", bit)
        ctx, m = _run(f, False)
        assert m.status == Status.OK and _released(ctx, m) != _point(SMALL, K)
        m = _assert_caught(f, ("halt", ""))
        if target == halt:
            assert m.fault_at == "halt" and m.tok == rns.TOK_PEND     # the check never ran


def test_pc_flip_backwards_overruns() -> None:
    """A jump back (from the y recovery's Fermat loop to the program's start, before the ladder)
    would run the ladder again: it ends at the first slot beyond the program's length, not after a
    second ladder."""
    tr = _trace()
    words, entry = rns.rom()
    ifbit = next(pc for i, pc, idx, op in tr if op == rns.UOp.IFBIT)
    first = next(i for i, pc, idx, op in tr if pc == ifbit) + 12           # a few Fermat steps in
    step, pc, bit = next((i, pc, b) for i, pc, idx, op in tr[first:] if ifbit - 1 <= pc <= ifbit + 2
                         for b in range(rns.ROM_AW) if entry["ecc"] < pc ^ (1 << b) < pc - 20)
    f = rns.control_fault(step, "pc", bit)
    m = _assert_caught(f, "overrun")
    assert m.slots == m.slots_end + 1


def test_flag_flip_selects_minus_p() -> None:
    """flag_q between TEST(Z1) and its CMOVs (found by reading the program, not in the campaign's
    list): the CMOVs select (x, -y) = -P, a valid point, with ST_OK; in two bits the flip is an
    invalid code, caught as the next instruction starts."""
    words, entry = rns.rom()
    tr = _trace()
    test_z1 = next(i for i, pc, idx, op in tr if op == rns.UOp.CMOV) - 2     # the TEST before the SUB, CMOVs
    f = rns.control_fault(test_z1 + 1, "flag_code", 0)
    ctx, m = _run(f, False)
    assert m.status == Status.OK and _released(ctx, m) == (SMALL.gx, (-SMALL.gy) % SMALL.p)
    _assert_caught(f, "flag")


def test_scalar_length_flip() -> None:
    """elen_q before the ladder's LOOP (a command with elen = 80, k < 2^64): a shorter ladder computes
    (k mod 2^elen') P, a valid point, with ST_OK; the exact slot count was fixed from the command's
    elen and catches it. A longer one (over zero bits) gives the right point: masked without the
    checks, a false alarm (an overrun) with them."""
    loop = next(i for i, pc, idx, op in _trace() if op == rns.UOp.LOOP)

    def run(f: rns.FaultHook, check: bool) -> tuple[rns.MmCtx, rns.Machine]:
        return rns.ecc_machine(SMALL, K, SMALL.gx, SMALL.gy, 16, elen=80, fault=f, fault_check=check)
    f = rns.control_fault(loop, "elen", 6)                     # 80 -> 16 steps
    ctx, m = run(f, False)
    assert m.status == Status.OK and _released(ctx, m) == _point(SMALL, K % (1 << 16))
    ctx, m = run(f, True)
    assert m.status == Status.ERR_FAULT and m.fault_at == "halt" and m.out() == ZEROS
    f = rns.control_fault(loop, "elen", 5)                     # 80 -> 112 steps
    ctx, m = run(f, False)
    assert m.status == Status.OK and _released(ctx, m) == _point(SMALL, K)
    ctx, m = run(f, True)
    assert m.status == Status.ERR_FAULT and m.fault_at == "overrun" and m.out() == ZEROS


def test_counters_and_token_flips_fail_safe() -> None:
    """A flip of the checks' own state is a false alarm, never a release: the slot counter, the
    expected count, the token."""
    step = _ladder_step(5)
    for name, bit in (("slots", 2), ("slots_end", 9), ("tok", 0), ("tok", 7)):
        _assert_caught(rns.control_fault(step, name, bit), ("halt", "overrun"))


def test_random_control_faults_release_nothing() -> None:
    """Seeded single-bit flips of the control state at random instructions: with the checks each is
    masked or ends with ERR_FAULT (or another error status with zeros); without them some release a
    wrong point with ST_OK (the evidence that the flips are real)."""
    tr = _trace()
    rng = random.Random(SEED + 13)
    widths = {"pc": rns.ROM_AW, "idx": 7, "src": 1, "map_code": 2, "flag_code": 2, "scal": 64, "expo": 64,
              "elen": 7, "elen2": 7, "slots": 11, "slots_end": 11, "tok": 8}
    seen = {"masked": 0, "detected": 0, "wrong_without": 0}
    for _ in range(vectors(16)):
        name = rng.choice(sorted(widths))
        f = rns.control_fault(rng.randrange(len(tr)), name, rng.randrange(widths[name]))
        ctx, m = _run(f, True)
        if m.status == Status.OK:
            assert _released(ctx, m) == _point(SMALL, K), f"{name}: a wrong point released"
            seen["masked"] += 1
        else:
            assert m.out() == ZEROS
            seen["detected"] += 1
        ctx, m = _run(f, False)
        if m.status == Status.OK and _released(ctx, m) != _point(SMALL, K):
            seen["wrong_without"] += 1
    assert seen["detected"] > 0 and seen["wrong_without"] > 0, seen


def test_random_z_entry_is_checked_alike() -> None:
    """ecc_rz (pka_top's blinded ECC_MUL: k + r n, a random Z) jumps into ecc's ladder: its own exact
    count and token; a flipped ladder index is caught the same way."""
    rng = random.Random(SEED + 21)
    ctx = rns.mm_context(SMALL.p, 16)
    z = [rng.getrandbits(32) for _ in range(rns.rz_words(ctx))]
    kb, elen = rns.blind_scalar(SMALL, K, rng.getrandbits(64))
    ctx, m = rns.ecc_machine(SMALL, kb, SMALL.gx, SMALL.gy, 16, elen=elen, z_words=z)
    assert m.status == Status.OK and m.slots == m.slots_end == rns.program_slots("ecc_rz", elen, SMALL.p.bit_length())
    f = rns.control_fault(m.steps // 3, "idx", 1)
    ctx, m = rns.ecc_machine(SMALL, kb, SMALL.gx, SMALL.gy, 16, elen=elen, z_words=z, fault=f)
    assert m.status == Status.ERR_FAULT and m.fault_at in ("halt", "overrun")
