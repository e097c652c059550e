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
    (["rsa", "--bits", "100"], "RSA size"),
])
def test_bad_input_one_line_exit_2(argv: list[str], needle: str) -> None:
    proc = pka_proc(*argv)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pka: error:"), proc.stderr
    assert needle in lines[0]
    assert "Traceback" not in proc.stderr


def test_rsa_model_crt(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rsa", "--bits", "1024", "--engine", "hscm", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["verified"] is True and data["bits"] == 1024 and data["engine"] == "hscm"
    assert isinstance(data["cycles"], int)


@pytest.mark.parametrize("engine", list(ENGINES))
def test_many_random_vectors_every_engine(engine: str) -> None:
    """`pka modexp --backend model` on random vectors of 64..1024 bits (PKA_VECTORS=1000 for the long run)."""
    rng = random.Random(SEED + 7)
    model = ENGINES[engine].model()
    params = ENGINES[engine].defaults()
    for i in range(vectors(4)):
        bits = rng.randrange(64, 1025) if i % 4 else rng.choice((64, 1024))
        n = rng.getrandbits(bits) | 1 | (1 << (bits - 1))
        x = rng.randrange(n)
        e = rng.getrandbits(rng.choice((1, 17, bits)))
        assert model.modexp(x, e, n, params).result == powmod(x, e, n), (engine, bits)
