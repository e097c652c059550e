"""`pka op NAME` on the model backend: results against plain Python/gmpy2 and the hardware's status
codes for bad input (doc/top.md), the sequencer's exact cycle formulas."""

from __future__ import annotations

import json
import random

import gmpy2
import pytest

from conftest import SEED
from pka.cli import main
from pka.proto import ops


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    try:
        main([*argv, "--json"])
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, _ = capsys.readouterr()
    return code, json.loads(out)


def _prime(rng: random.Random, bits: int) -> int:
    return int(gmpy2.next_prime(rng.getrandbits(bits) | 1 << (bits - 1)))


def test_results_against_python(capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(SEED)
    for bits in (64, 256):
        n = rng.getrandbits(bits) | 1 << (bits - 1) | 1
        p = _prime(rng, bits)
        a, b = rng.randrange(n), rng.randrange(n)
        assert run(capsys, "op", "modadd", "--a", hex(a), "--b", hex(b), "--mod", hex(n))[1]["result"] == hex((a + b) % n)
        assert run(capsys, "op", "modsub", "--a", hex(a), "--b", hex(b), "--mod", hex(n))[1]["result"] == hex((a - b) % n)
        d = run(capsys, "op", "mont-params", "--mod", hex(n))[1]
        r = 32 * ((bits + 31) // 32)
        assert d["result"] == hex(pow(2, 2 * r, n)) and int(d["mu"], 16) == (-pow(n, -1, 1 << 64)) % (1 << 64)
        assert run(capsys, "op", "modinv", "--a", hex(a % p or 1), "--mod", hex(p))[1]["result"] == hex(pow(a % p or 1, -1, p))
        w = rng.getrandbits(2 * bits)
        assert run(capsys, "op", "modred", "--a", hex(w), "--mod", hex(n))[1]["result"] == hex(w % n)
        assert run(capsys, "op", "mul", "--a", hex(a), "--b", hex(b), "--bits", str(bits))[1]["result"] == hex(a * b)
        for eng in ("hscm", "mwr4"):
            d = run(capsys, "op", "montmul", "--a", hex(a), "--b", hex(b), "--mod", hex(n), "--engine", eng)[1]
            rb = d["detail"]["r_bits"]
            assert int(d["result"], 16) % n == a * b * pow(2, -rb, n) % n, eng


def test_sequencer_cycles_exact(capsys: pytest.CaptureFixture[str]) -> None:
    # doc/top.md: MODADD 8W; MONT_PARAMS 3W + 63 + 3Wk [+3W] (bench/results/top.json: 256 bits -> 64, 6,255)
    n = (1 << 255) + 0x1235
    assert run(capsys, "op", "modadd", "--a", "1", "--b", "2", "--mod", hex(n))[1]["cycles"] == 64
    d = run(capsys, "op", "mont-params", "--mod", hex(n))[1]
    w, k = 8, 2 * 256 - 256 + 1
    assert d["cycles"] in (3 * w + 63 + 3 * w * k, 3 * w + 63 + 3 * w * k + 3 * w)


@pytest.mark.parametrize("argv,code", [
    (["modadd", "--a", "5", "--b", "11", "--mod", "11"], "ERR_OPERAND_RANGE"),
    (["modsub", "--a", "11", "--b", "1", "--mod", "11"], "ERR_OPERAND_RANGE"),
    (["modinv", "--a", "0", "--mod", "11"], "ERR_NO_INVERSE"),
    (["modinv", "--a", "3", "--mod", "12"], "ERR_EVEN_MODULUS"),
    (["modinv", "--a", "12", "--mod", "11"], "ERR_OPERAND_RANGE"),
    (["modinv", "--a", "5", "--mod", "15"], "ERR_NO_INVERSE"),            # Fermat fails for a composite N
    (["mont-params", "--mod", "0x10"], "ERR_EVEN_MODULUS"),
    (["mont-params", "--mod", "1"], "ERR_OPERAND_RANGE"),
    (["mont-params", "--mod", "0xfff1", "--r", "7"], "ERR_LENGTH"),
    (["modred", "--a", "5", "--mod", "10"], "ERR_EVEN_MODULUS"),
    (["montmul", "--a", "5", "--b", "1", "--mod", "10"], "ERR_EVEN_MODULUS"),
    (["montmul", "--a", "5", "--b", "1", "--mod", "0xfff1", "--engine", "csa2"], "ERR_UNSUPPORTED"),
    (["point-check", "--curve", "P-256", "--x", "-1", "--y", "1"], "ERR_OPERAND_RANGE"),
])
def test_status_codes(capsys: pytest.CaptureFixture[str], argv: list[str], code: str) -> None:
    rc, d = run(capsys, "op", *argv)
    assert rc == 2 and d["error"]["code"] == code, d


def test_point_check(capsys: pytest.CaptureFixture[str]) -> None:
    from pka.model.rns import P256
    rc, d = run(capsys, "op", "point-check", "--curve", "secp256r1", "--x", hex(P256.gx), "--y", hex(P256.gy))
    assert rc == 0 and d["valid"] is True
    rc, d = run(capsys, "op", "point-check", "--curve", "p256", "--x", hex(P256.gx), "--y", hex(P256.gy + 1))
    assert rc == 0 and d["valid"] is False and d["status"] == "ERR_NOT_ON_CURVE"
    rc, d = run(capsys, "op", "point-check", "--a", "2", "--b", "3", "--mod", "97", "--x", "3", "--y", "6")
    assert rc == 0 and d["valid"] is True                       # 36 = 27 + 6 + 3 mod 97


def test_every_op_named() -> None:
    assert set(ops.OPS) == {"modadd", "modsub", "modred", "mul", "montmul", "modinv", "mont-params", "point-check"}


def test_mont_params_with_the_engines_own_r(capsys: pytest.CaptureFixture[str]) -> None:
    """--r engine: the r the hardware knows for the engine named (MONT_PARAMS with ELEN = 0xFFFF),
    the same r as the engine's own Montgomery products (MONTMUL's r_bits; csa2: n + 2); reported."""
    n = (1 << 255) + 0x1235
    for eng, params in (("hscm", ()), ("hscm", ("--param", "w=32")), ("mwr4", ()), ("mwr4", ("--param", "radix=8")),
                        ("csa2", ())):
        rc, d = run(capsys, "op", "mont-params", "--mod", hex(n), "--r", "engine", "--engine", eng, *params)
        assert rc == 0, d
        if eng == "csa2":
            want = 256 + 2
        else:
            want = run(capsys, "op", "montmul", "--a", "3", "--b", "5", "--mod", hex(n), "--engine", eng,
                       *params)[1]["detail"]["r_bits"]
        assert d["r"] == want and d["result"] == hex(pow(2, 2 * want, n)), (eng, params, d)
        k = 2 * want - 256 + 1
        assert d["cycles"] in (3 * 8 + 63 + 3 * 8 * k, 3 * 8 + 63 + 3 * 8 * k + 3 * 8)
    rc, d = run(capsys, "op", "mont-params", "--mod", hex(n), "--r", "300")
    assert rc == 0 and d["r"] == 300 and d["result"] == hex(pow(2, 600, n))
    for argv in (["--r", "engine"], ["--r", "engine", "--engine", "victor"], ["--r", "engine", "--engine", "rns"],
                 ["--r", "engine", "--mod", "0x10", "--engine", "victor"]):
        rc, d = run(capsys, "op", "mont-params", "--mod", hex(n), *argv)
        assert rc == 2 and d["error"]["code"] == "ERR_UNSUPPORTED", (argv, d)   # at decode: before N's checks
    rc, d = run(capsys, "op", "mont-params", "--mod", hex(n), "--r", "65535")
    assert rc == 2 and d["error"]["code"] == "ERR_LENGTH"


def test_negative_operands_say_so(capsys: pytest.CaptureFixture[str]) -> None:
    """A negative operand is ERR_OPERAND_RANGE saying it is negative (not "must be < 2^64"), on both
    backends (the host's check, before any hardware)."""
    for backend in ("model", "rtl"):
        for argv in (["mul", "--a", "-5", "--b", "3"], ["mul", "--a", "5", "--b", "-3"],
                     ["modadd", "--a", "-1", "--b", "2", "--mod", "11"],
                     ["point-check", "--curve", "p256", "--x", "1", "--y", "-2"]):
            rc, d = run(capsys, "op", *argv, "--backend", backend)
            assert rc == 2 and d["error"]["code"] == "ERR_OPERAND_RANGE", (backend, argv, d)
            assert "negative" in d["error"]["message"] and "2^" not in d["error"]["message"], (backend, argv, d)


def test_sequencer_ops_name_the_sequencer(capsys: pytest.CaptureFixture[str]) -> None:
    """MODADD, MODSUB and MONT_PARAMS run in pka_top's sequencer (CMD.ENGINE = 0): the JSON says so
    and names the build separately."""
    for argv in (["modadd", "--a", "1", "--b", "2", "--mod", "11"], ["modsub", "--a", "1", "--b", "2", "--mod", "11"],
                 ["mont-params", "--mod", "0xfff1"], ["modadd", "--a", "1", "--b", "2", "--mod", "11", "--engine", "hscm"],
                 ["mont-params", "--mod", "0xfff1", "--r", "engine", "--engine", "mwr4"]):
        rc, d = run(capsys, "op", *argv)
        assert rc == 0 and d["engine"] == "sequencer" and d["build"] == (argv[-1] if "--engine" in argv else "example")
    rc, d = run(capsys, "op", "modred", "--a", "5", "--mod", "0xfff1fff1fff1fff1fff1")
    assert rc == 0 and d["engine"] == "hscm" and "build" not in d
