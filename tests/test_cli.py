"""The `pka` command: JSON shape, results against gmpy2, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from conftest import SEED, vectors
from pka.cli import main
from pka.engines import ENGINES
from pka.model.common import powmod


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        main(list(argv))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def pka_proc(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pka.cli", *argv], capture_output=True, text=True)


@pytest.mark.parametrize("engine", list(ENGINES))
def test_modexp_json(capsys: pytest.CaptureFixture[str], engine: str) -> None:
    rng = random.Random(SEED)
    for bits in (64, 96, 160):
        n = rng.getrandbits(bits) | 1 | (1 << (bits - 1))
        if engine == "rns":  # RNS MM needs no special form; SBMM does (tested in its own tests)
            pass
        x, e = rng.randrange(n), rng.getrandbits(bits)
        code, out, err = run(capsys, "modexp", "--engine", engine, "--base", hex(x), "--exp", str(e),
                             "--mod", hex(n), "--json")
        assert code == 0, err
        data = json.loads(out)
        assert int(data["result"], 16) == powmod(x, e, n)
        assert data["engine"] == engine and data["backend"] == "model"
        assert isinstance(data["cycles"], int) and data["cycles"] > 0
        assert set(data["params"]) == {p.name for p in ENGINES[engine].params}


@pytest.mark.parametrize("engine", list(ENGINES))
def test_modmul_json(capsys: pytest.CaptureFixture[str], engine: str) -> None:
    rng = random.Random(SEED + 1)
    n = rng.getrandbits(128) | 1 | (1 << 127)
    for a, b in [(0, 5), (1, 1), (n - 1, n - 1), (rng.randrange(n), rng.randrange(n))]:
        code, out, err = run(capsys, "modmul", "--engine", engine, "--a", str(a), "--b", str(b),
                             "--mod", str(n), "--json")
        assert code == 0, err
        data = json.loads(out)
        assert int(data["result"], 16) == a * b % n
        assert isinstance(data["cycles"], int)


@pytest.mark.parametrize("argv,needle", [
    (["modexp", "--engine", "csa2", "--base", "3", "--exp", "5", "--mod", "100"], "odd"),
    (["modexp", "--engine", "hscm", "--base", "0x" + "f" * 40, "--exp", "5", "--mod", "0x" + "f" * 39 + "1"], "range"),
    (["modexp", "--engine", "hscm", "--base", "3", "--exp", "5", "--mod", "101"], "outside"),
    (["modexp", "--engine", "hscm", "--base", "0x1z", "--exp", "5", "--mod", "101"], "malformed"),
    (["modexp", "--engine", "hscm", "--base", "3", "--exp", "-5", "--mod", "101"], "exponent"),
    (["modexp", "--engine", "nope", "--base", "3", "--exp", "5", "--mod", "101"], "unknown engine"),
    (["modexp", "--engine", "mwr4", "--param", "w=7", "--base", "3", "--exp", "5", "--mod", "101"], "w=7"),
    (["modexp", "--engine", "victor", "--param", "k=9", "--base", "3", "--exp", "5", "--mod", "101"], "k=9"),
    (["modexp", "--engine", "hscm", "--param", "pes", "--base", "3", "--exp", "5", "--mod", "101"], "NAME=VALUE"),
    (["modexp", "--engine", "hscm", "--base", "3", "--exp", "5"], "--mod"),
    (["rsa", "sign", "--bits", "100"], "RSA size"),
    (["rsa", "sign", "--bits", "1023"], "RSA size"),
    (["modexp", "--base", "3", "--exp", "5", "--mod", "10"], "odd"),   # parity before the length check
    *([["modexp", "--engine", e, "--base", "3", "--exp", "5", "--mod", "0x" + "f" * 31 + "e"], "odd"]
      for e in ("hscm", "mwr4", "victor", "rns")),
    (["modmul", "--engine", "hscm", "--a", "3", "--b", "5", "--mod", "0x" + "f" * 31 + "e"], "odd"),
    (["modmul", "--engine", "victor", "--a", "0x" + "f" * 33, "--b", "5", "--mod", "0x" + "f" * 32], "range"),
    (["ecc", "--curve", "p256", "--scalar", "0"], "scalar"),
    (["ecc", "--curve", "p256", "--scalar", "5", "--engine", "hscm"], "rns"),
    (["ecdh", "--curve", "p256", "--scalar", "5", "--peer-x", "1", "--peer-y", "1"], "point not on curve"),
    (["ecdh", "--curve", "p256", "--scalar", "5", "--peer-x", "0", "--peer-y", "0"], "point at infinity"),
    (["ecdh", "--curve", "p256", "--scalar", "5", "--peer-x", "-1", "--peer-y", "1"], "out of range"),
    (["ecdh", "--curve", "p256", "--scalar", "5", "--peer-x", "0x" + "f" * 64, "--peer-y", "1"], "out of range"),
])
def test_bad_input_one_line_exit_2(argv: list[str], needle: str) -> None:
    proc = pka_proc(*argv)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pka: error:"), proc.stderr
    assert needle in lines[0]
    assert "Traceback" not in proc.stderr


def test_rsa_model_crt(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rsa", "sign", "--bits", "1024", "--seed", str(SEED), "--engine", "hscm", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["verified"] is True and data["bits"] == 1024 and data["engine"] == "hscm"
    assert isinstance(data["cycles"], int)
    # the JSON carries the public key: anyone can check the signature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding, rsa
    pub = rsa.RSAPublicNumbers(int(data["public_key"]["e"], 16), int(data["public_key"]["n"], 16)).public_key()
    sig = int(data["signature"], 16).to_bytes(128, "big")
    pub.verify(sig, b"pka: open public-key accelerator", padding.PKCS1v15(), hashes.SHA256())


# Legal parameter values the long run draws from (rns alg=sbmm needs a prime P = Ma^2 - 2: its own tests).
RANDOM_PARAMS: dict[str, dict[str, tuple[object, ...]]] = {
    "csa2": {"variant": ("paper", "fast")},
    "mwr4": {"radix": (2, 4, 8), "ns": (1, 3, 8), "w": (4, 8, 16, 32)},
    "rns": {"w": (16, 32), "alg": ("mm",)},  # w first (see below)
    "victor": {"k": (4, 5)},
    "hscm": {"pes": (2, 3, 16), "w": (16, 32, 64), "window": (0, 1, 4), "ladder": (0, 1)},
}


def test_rsa_small_key_every_engine(capsys: pytest.CaptureFixture[str]) -> None:
    """Below 1024 bits `cryptography` does not generate keys; ours are built from our own primes."""
    for engine in ENGINES:
        code, out, err = run(capsys, "rsa", "sign", "--bits", "512", "--seed", str(SEED), "--engine", engine, "--json")
        assert code == 0, (engine, err)
        data = json.loads(out)
        assert data["verified"] is True and data["bits"] == 512, engine
        assert int(data["signature"], 16).bit_length() <= 512


def test_ecc_and_ecdh_p256_against_cryptography(capsys: pytest.CaptureFixture[str]) -> None:
    from cryptography.hazmat.primitives.asymmetric import ec

    k = random.Random(SEED + 3).randrange(1, 1 << 255)
    code, out, err = run(capsys, "ecc", "--curve", "p256", "--scalar", hex(k), "--json")
    assert code == 0, err
    data = json.loads(out)
    pub = ec.derive_private_key(k, ec.SECP256R1()).public_key().public_numbers()
    assert int(data["x"], 16) == pub.x and data["verified"] is True
    assert isinstance(data["cycles"], int) and data["cycles"] > 0
    peer = ec.derive_private_key(random.Random(SEED + 4).randrange(1, 1 << 255), ec.SECP256R1())
    pn = peer.public_key().public_numbers()
    code, out, err = run(capsys, "ecdh", "--curve", "p256", "--scalar", hex(k), "--peer-x", hex(pn.x),
                         "--peer-y", hex(pn.y), "--json")
    assert code == 0, err
    data = json.loads(out)
    shared = peer.exchange(ec.ECDH(), ec.derive_private_key(k, ec.SECP256R1()).public_key())
    assert int(data["x"], 16) == int.from_bytes(shared, "big")


@pytest.mark.parametrize("engine", list(ENGINES))
def test_many_random_vectors_every_engine(capsys: pytest.CaptureFixture[str], engine: str) -> None:
    """`pka modexp --backend model --json` on random vectors of 64..1024 bits with random legal
    parameters, against gmpy2 (PKA_VECTORS=1000 for the long run of the foundation issue)."""
    rng = random.Random(SEED + 7)
    for i in range(vectors(4)):
        bits = rng.randrange(64, 1025) if i % 4 else rng.choice((64, 1024))
        n = rng.getrandbits(bits) | 1 | (1 << (bits - 1))
        x = rng.randrange(n)
        e = rng.getrandbits(rng.choice((1, 17, bits)))
        params = [f"{k}={rng.choice(v)}" for k, v in RANDOM_PARAMS[engine].items()]
        if engine == "rns" and bits > 256:
            params[0] = "w=32"  # w = 16 channels cover moduli up to 256 bits (an error above: tested elsewhere)
        if engine == "hscm":
            params[1] = f"w={rng.choice([w for w in (16, 32, 64) if 2 * w + 4 <= bits])}"  # n >= 2w + 4
            if params[3] == "ladder=1" and params[0] == "pes=3":
                params[0] = "pes=4"  # the ladder's two HSCMs split an even number of PEs
        argv = ["modexp", "--engine", engine, "--base", hex(x), "--exp", hex(e), "--mod", hex(n), "--json"]
        for item in params:
            argv += ["--param", item]
        code, out, err = run(capsys, *argv)
        assert code == 0, (engine, bits, params, err)
        data = json.loads(out)
        assert int(data["result"], 16) == powmod(x, e, n), (engine, bits, params)
        assert isinstance(data["cycles"], int) and data["cycles"] > 0


@pytest.mark.rtl
def test_cli_rtl_backend(capsys: pytest.CaptureFixture[str]) -> None:
    """The commands of the issues with --backend rtl: one engine run directly (csa2, a 64-bit
    array), an RSA-512 CRT signature through pka_top's bus (hscm, 2 PEs), and a core error status
    turned into the one-line exit-2 error."""
    rng = random.Random(SEED + 11)
    n = rng.getrandbits(64) | 1 | (1 << 63)
    x, e = rng.randrange(n), rng.getrandbits(64)
    code, out, err = run(capsys, "modexp", "--engine", "csa2", "--param", "variant=fast", "--base", hex(x),
                         "--exp", hex(e), "--mod", hex(n), "--backend", "rtl", "--json")
    assert code == 0, err
    data = json.loads(out)
    model = ENGINES["csa2"].model().modexp(x, e, n, {"variant": "fast", "l": 0})
    assert int(data["result"], 16) == powmod(x, e, n) and data["cycles"] == model.cycles
    assert data["backend"] == "rtl"
    code, out, err = run(capsys, "rsa", "sign", "--bits", "512", "--seed", str(SEED), "--engine", "hscm",
                         "--param", "pes=2", "--crt", "--backend", "rtl", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["verified"] is True and data["bits"] == 512 and data["cycles"] > 0
    code, out, err = run(capsys, "modexp", "--engine", "csa2", "--base", "3", "--exp", "5", "--mod", str(n + 1),
                         "--backend", "rtl")
    # progress lines ("pka: building ... with Verilator", "pka: built ..." on a fresh cache) may come first
    lines = [ln for ln in err.strip().splitlines() if not ln.startswith(("pka: building ", "pka: built "))]
    assert code == 2 and len(lines) == 1, err
    assert lines[0].startswith("pka: error:") and "EVEN_MODULUS" in lines[0]  # parity first, as the core
    code, out, err = run(capsys, "modexp", "--engine", "csa2", "--base", "3", "--exp", "5", "--mod", str(n + 1),
                         "--backend", "rtl", "--json")
    assert code == 2 and json.loads(out)["error"]["code"] == "ERR_EVEN_MODULUS"
