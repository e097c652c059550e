"""X25519 on the rns model's own Montgomery ladder (ECC_MUL with ARG[2], programs ecc_m / ecc_mrz):
results against `cryptography` on random scalars and u (on the curve and on its twist), one cycle
count for every input, the step's cost, the fixed-count loops of the inversion chain, low-order u,
the random Z, and the inverse's check (another modulus, a fault in the chain), shown failing
without it."""

from __future__ import annotations

import dataclasses
import random

import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from conftest import SEED, vectors
from pka.errors import PkaError, Status
from pka.model import rns
from pka.proto import x25519

MM32 = {"w": 32, "alg": "mm"}
X25519_CYCLES = 101_515
X25519_RZ_CYCLES = 101_619
# u of small order: k P = O for every clamped k (a multiple of 8)
LOW_ORDER_U = [0, 1, 325606250916557431795983626356110631294008115727848805560023387167927233504,
               39382357235489614581723060781553021112529911719440698176882885853963445705823, rns.X25519_P - 1]


def _ref(k: int, u: int) -> int:
    """RFC 7748's X25519 by `cryptography` (k clamped already: its decoding leaves it as it is)."""
    out = X25519PrivateKey.from_private_bytes(k.to_bytes(32, "little")).exchange(
        X25519PublicKey.from_public_bytes(u.to_bytes(32, "little")))
    return int.from_bytes(out, "little")


def _ladder(k: int, u: int, p: int, elen: int = 255) -> int:
    """RFC 7748 section 5's ladder, plain integers mod p (any p: the reference for another modulus)."""
    x2, z2, x3, z3, swap = 1, 0, u, 1, 0
    for t in reversed(range(elen)):
        b = (k >> t) & 1
        if swap ^ b:
            x2, x3, z2, z3 = x3, x2, z3, z2
        swap = b
        a, aa = x2 + z2, (x2 + z2) ** 2
        bb_, bb = x2 - z2, (x2 - z2) ** 2
        e = aa - bb
        c, d = x3 + z3, x3 - z3
        da, cb = d * a, c * bb_
        x3, z3 = (da + cb) ** 2 % p, u * (da - cb) ** 2 % p
        x2, z2 = aa * bb % p, e * (aa + rns.X25519_A24 * e) % p
    if swap:
        x2, z2 = x3, z3
    return x2 * pow(z2, p - 2, p) % p


def test_random_vectors_against_cryptography() -> None:
    rng = random.Random(SEED + 2551)
    for i in range(vectors(6)):
        k = x25519.decode_scalar(rng.randbytes(32))
        # a peer's public key (on the curve), or any u (half of them on the twist)
        u = (int.from_bytes(X25519PrivateKey.from_private_bytes(rng.randbytes(32)).public_key().public_bytes_raw(),
                            "little") if i % 2 else rng.randrange(2, rns.X25519_P))
        res = rns.x25519_mul(k, u, MM32)
        assert res.result == _ref(k, u) == _ladder(k, u, rns.X25519_P)
        assert res.cycles == X25519_CYCLES == rns.x25519_cycles(32)
        assert not res.detail["infinity"]


def test_step_costs_10_mrs_and_the_chain_265() -> None:
    """A ladder step: 10 MRs (2n + K + 16 each, 11 products) + 7 ADD/SUB + MAP + ENDLOOP = 360 at
    n = 9 (the Weierstrass (X,Z) step: 474); the inversion chain: 265 MRs (bit-serial Fermat: 507)."""
    n = rns.channels_mm(rns.X25519_P.bit_length(), 32)
    step = rns.x25519_cycles(32, elen=256) - rns.x25519_cycles(32, elen=255)
    assert n == 9 and step == 10 * (2 * n + 16) + 11 + 9 == 360
    wei = rns.ecc_cycles("wei25519", 32, 256, False) - rns.ecc_cycles("wei25519", 32, 255, False)
    assert wei == 474
    _, mach = rns.x25519_machine(x25519.decode_scalar(bytes(32)), 9, 32)
    assert mach.mrs == 2 + 255 * 10 + 265 + 1 + 2             # entry, ladder, chain, check, out
    assert X25519_CYCLES < 110_000 < rns.ecc_cycles("wei25519", 32, 255, False)


def test_fixed_count_loops_encode_their_count() -> None:
    words, entry = rns.rom()
    prog = words[entry["ecc_m"]:entry["ecc_mrz"]]
    reps = [it for it in prog if it.op == rns.UOp.LOOP and it.imm]
    assert sorted(it.imm for it in reps) == sorted([1, 4, 9, 19, 9, 49, 99, 49, 4])
    assert sum(it.imm for it in reps) + 11 == 254           # + the first squaring of each of the 11 runs
    for it in reps:
        word = it.encode()
        assert word >> 62 & 1 == 1 and (word >> 53) & 0xFF == it.imm
    assert all(it.encode() >> 62 & 1 == 0 for it in words if not it.imm)
    assert len(words) <= 1 << rns.ROM_AW
    with pytest.raises(AssertionError):
        rns.Instr(rns.UOp.LOOP, imm=256).encode()


def test_the_count_does_not_depend_on_the_scalar_or_u() -> None:
    rng = random.Random(SEED + 2552)
    counts = {rns.x25519_mul(k, rng.randrange(rns.X25519_P), MM32).cycles
              for k in (1 << 254, (1 << 255) - 8, x25519.decode_scalar(rng.randbytes(32)))}
    assert counts == {X25519_CYCLES}


@pytest.mark.parametrize("u", LOW_ORDER_U)
def test_low_order_u_is_the_point_at_infinity(u: int) -> None:
    k = x25519.decode_scalar(random.Random(SEED + u % 1000).randbytes(32))
    _, mach = rns.x25519_machine(k, u, 32)
    assert mach.status == Status.ERR_INFINITY and mach.out()[0] == ((0,) * 9, (0,) * 9)
    assert mach.cycles == 91_878            # ends after the ladder's TEST/FAIL (doc/rns.md), whatever u
    res = rns.x25519_mul(k, u, MM32)
    assert res.result == 0 and res.detail["infinity"]


def test_random_z_gives_the_same_u() -> None:
    rng = random.Random(SEED + 2553)
    ctx = rns.mm_context(rns.X25519_P, 32)
    k, u = x25519.decode_scalar(rng.randbytes(32)), rng.randrange(2, rns.X25519_P)
    z = [rng.getrandbits(32) for _ in range(rns.rz_words(ctx))]
    res = rns.x25519_mul(k, u, MM32, z_words=z)
    assert res.result == _ref(k, u) and res.cycles == X25519_RZ_CYCLES == rns.x25519_cycles(32, random_z=True)
    # all-zero words: lambda = 0, the fail-safe ERR_INFINITY
    _, mach = rns.x25519_machine(k, u, 32, z_words=[0] * rns.rz_words(ctx))
    assert mach.status == Status.ERR_INFINITY


def _other_prime() -> int:
    p = rns.X25519_P - 2
    while not all(pow(a, p - 1, p) == 1 for a in (2, 3, 5, 7, 11, 13)):
        p -= 2
    return p


def _unchecked() -> list[rns.Instr]:
    """ecc_m without its inverse check (SUB, MR, TEST, FAIL before the result): the evidence build."""
    words, entry = rns.rom()
    prog = list(words[entry["ecc_m"]:entry["ecc_mrz"]])
    i = next(j for j, it in enumerate(prog) if it.op == rns.UOp.FAIL and it.code == Status.ERR_UNSUPPORTED)
    body = prog[:i - 3] + prog[i + 1:]
    # relocate the loop targets of the program (as if assembled at 0 without the four words)
    out = []
    for j, it in enumerate(body):
        if it.op in (rns.UOp.LOOP, rns.UOp.ENDLOOP):
            it = dataclasses.replace(it, target=it.target - entry["ecc_m"])
        out.append(it)
    return out


def _run_unchecked(k: int, u: int, p: int = rns.X25519_P, fault: rns.FaultHook | None = None,
                   fault_check: bool = True) -> tuple[rns.MmCtx, rns.Machine]:
    """`_unchecked` run as x25519_machine runs ecc_m. Its instructions up to the check are ecc_m's,
    so a fault hook's step index means the same instruction in both."""
    ctx = rns.mm_context(p, 32)
    full = rns.loaded_regs(ctx, rns.x25519_inputs(u, ctx.m, p))
    return ctx, rns.run_machine(ctx, _unchecked(), full, scalar=k, elen=255, expo=p - 2, elen2=p.bit_length(),
                                fault=fault, fault_check=fault_check)


def test_another_modulus_is_refused_not_answered_wrongly() -> None:
    """The chain inverts modulo 2^255 - 19 only: with another prime the unchecked program releases a
    wrong u with ST_OK; the check ends it with ERR_UNSUPPORTED and zeros."""
    p = _other_prime()
    k, u = x25519.decode_scalar(random.Random(SEED + 2554).randbytes(32)), 9
    _, mach = rns.x25519_machine(k, u, 32, p=p)
    assert mach.status == Status.ERR_UNSUPPORTED and mach.out()[0] == ((0,) * 9, (0,) * 9)
    ctx, bad = _run_unchecked(k, u, p)
    got = ctx.from_rns(bad.out()[0]) % p
    assert bad.status == Status.OK and got != _ladder(k, u, p)      # released, and wrong


def test_a_fault_in_the_chain_is_caught() -> None:
    """A value flipped in the middle of the inversion chain: released wrong without the check,
    ERR_UNSUPPORTED with it."""
    k, u = x25519.decode_scalar(random.Random(SEED + 2555).randbytes(32)), 9
    _, clean = rns.x25519_machine(k, u, 32)
    steps = clean.steps
    at = steps - 40                                             # inside the chain's run of 50 squarings
    _, mach = rns.x25519_machine(k, u, 32, fault=rns.value_fault(at, rns.TT, 1))
    assert mach.status == Status.ERR_UNSUPPORTED
    ctx, bad = _run_unchecked(k, u, fault=rns.value_fault(at, rns.TT, 1))
    assert bad.status == Status.OK and ctx.from_rns(bad.out()[0]) % rns.X25519_P != _ref(k, u)


def _trace(k: int, u: int) -> list[tuple[int, int, int]]:
    """(step, pc, idx) after every instruction of a clean ecc_m run."""
    out: list[tuple[int, int, int]] = []

    def hook(i: int, mach: rns.Machine) -> None:
        out.append((i, mach.pc, mach.idx))
    rns.x25519_machine(k, u, 32, fault=hook)
    return out


def test_a_loop_count_flip_in_the_chain() -> None:
    """idx flipped inside the chain's 100-squaring run (REP99): 8 squarings more. With the checks the
    slot count ends it (ERR_FAULT, overrun); without them (FaultCheck = 0) the inverse check does
    (ERR_UNSUPPORTED); with neither, a wrong u is released with ST_OK."""
    k, u = x25519.decode_scalar(random.Random(SEED + 2556).randbytes(32)), 9
    words, entry = rns.rom()
    rep = next(a for a in range(entry["ecc_m"], entry["ecc_mrz"]) if words[a].op == rns.UOp.LOOP
               and words[a].imm == 99)
    step = next(i for i, pc, idx in _trace(k, u) if pc == rep + 1 and idx == 50)
    flip = rns.control_fault(step, "idx", 3)
    _, mach = rns.x25519_machine(k, u, 32, fault=flip)
    assert mach.status == Status.ERR_FAULT and mach.fault_at == "overrun"
    _, mach = rns.x25519_machine(k, u, 32, fault=rns.control_fault(step, "idx", 3), fault_check=False)
    assert mach.status == Status.ERR_UNSUPPORTED
    ctx, bad = _run_unchecked(k, u, fault=rns.control_fault(step, "idx", 3), fault_check=False)
    assert bad.status == Status.OK and ctx.from_rns(bad.out()[0]) % rns.X25519_P != _ref(k, u)


def test_bad_requests_are_refused() -> None:
    with pytest.raises(PkaError) as e:
        rns.x25519_mul(0, 9, MM32)                  # k = 0: the engine's ERR_OPERAND_RANGE
    assert e.value.status == Status.ERR_OPERAND_RANGE
    with pytest.raises(PkaError) as e:                # the same for the generic x-only entry
        rns.ecc_mul_x("wei25519", 0, 9, MM32, 255)
    assert e.value.status == Status.ERR_OPERAND_RANGE
    with pytest.raises(PkaError) as e:
        rns.x25519_mul(1 << 254, rns.X25519_P, MM32)
    assert e.value.status == Status.ERR_OPERAND_RANGE
    with pytest.raises(PkaError) as e:
        rns.x25519_mul(1 << 254, 9, {"w": 32, "alg": "sbmm"})
    assert e.value.status == Status.ERR_UNSUPPORTED
    with pytest.raises(PkaError) as e:
        rns.x25519_mul(1 << 254, 9, MM32, elen=257)
    assert e.value.status == Status.ERR_LENGTH
