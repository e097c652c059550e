"""X25519 (RFC 7748) on the rns ladder: the RFC's vectors (section 5.2, the iterated ones), random
vectors against `cryptography`, low-order points (an all-zero result, refused for ECDH: section 6.1)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from conftest import SEED
from pka.cli import main
from pka.model import rns
from pka.proto import x25519
from pka.proto.backend import get

P = {"w": 32, "alg": "mm"}
X25519_CYCLES = 101_515     # ECC_MUL with ARG[2]: 255 steps of 360 cycles + the inversion chain (README)
RFC_5_2 = [
    ("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
     "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
     "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"),
    ("4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
     "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
     "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957"),
]
ITERATED = {1: "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079",
            1000: "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51"}
# u of small order (0, 1, the two points of order 8, p - 1) and the non-canonical p, p + 1
LOW_ORDER = [
    "00" * 32,
    "01" + "00" * 31,
    "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
    "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
    "ec" + "ff" * 30 + "7f",
    "ed" + "ff" * 30 + "7f",
    "ee" + "ff" * 30 + "7f",
]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    try:
        main(list(argv))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, _ = capsys.readouterr()
    return code, out


@pytest.mark.parametrize("k,u,out", RFC_5_2)
def test_rfc7748_vectors(k: str, u: str, out: str) -> None:
    res, op = x25519.x25519(get("rns", "model"), bytes.fromhex(k), bytes.fromhex(u), P)
    assert res.hex() == out
    assert op.cycles == X25519_CYCLES == rns.x25519_cycles()   # 255 ladder steps + the chain, whatever the scalar


def test_cli_json_rfc_bytes(capsys: pytest.CaptureFixture[str]) -> None:
    k, u, out = RFC_5_2[0]
    code, text = run(capsys, "x25519", "--scalar", k, "--u", u, "--json")
    d = json.loads(text)
    assert code == 0 and d["result"] == out and d["verified"] is True and d["cycles"] == X25519_CYCLES


def test_cli_operands_from_file_and_stdin(tmp_path: Path) -> None:
    """--scalar @FILE and --u - (stdin), as every other command's operands; still RFC 7748 hex."""
    import subprocess
    import sys
    k, u, out = RFC_5_2[0]
    (tmp_path / "k.hex").write_text(k + "\n")
    for scalar, u_arg, stdin in ((f"@{tmp_path / 'k.hex'}", "-", u), ("-", u, k + "\n")):
        proc = subprocess.run([sys.executable, "-m", "pka.cli", "x25519", "--scalar", scalar, "--u", u_arg, "--json"],
                              input=stdin, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        d = json.loads(proc.stdout)
        assert (d["result"], d["scalar"], d["u"]) == (out, k, u)
    proc = subprocess.run([sys.executable, "-m", "pka.cli", "x25519", "--scalar", f"@{tmp_path / 'none'}", "--json"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and json.loads(proc.stdout)["error"]["code"] == "ERR_INPUT"


def test_iterated_once(capsys: pytest.CaptureFixture[str]) -> None:
    code, text = run(capsys, "x25519", "--scalar", "09" + "00" * 31, "--iterations", "1", "--json")
    assert code == 0 and json.loads(text)["result"] == ITERATED[1]


@pytest.mark.slow   # about 10 minutes
def test_iterated_1000(capsys: pytest.CaptureFixture[str]) -> None:
    code, text = run(capsys, "x25519", "--scalar", "09" + "00" * 31, "--u", "09" + "00" * 31,
                     "--iterations", "1000", "--json")
    assert code == 0 and json.loads(text)["result"] == ITERATED[1000]


def test_random_against_cryptography() -> None:
    rng = random.Random(SEED)
    be = get("rns", "model")
    for _ in range(3):
        k, peer = rng.randbytes(32), X25519PrivateKey.from_private_bytes(rng.randbytes(32)).public_key()
        u = peer.public_bytes_raw()
        res, _ = x25519.x25519(be, k, u, P)
        assert res == X25519PrivateKey.from_private_bytes(k).exchange(X25519PublicKey.from_public_bytes(u))
    # a u with its top bit set is masked (RFC 7748 5): same result as without
    k, u = bytes.fromhex(RFC_5_2[0][0]), bytearray(bytes.fromhex(RFC_5_2[0][1]))
    u[31] |= 0x80
    assert x25519.x25519(be, k, bytes(u), P)[0].hex() == RFC_5_2[0][2]


@pytest.mark.parametrize("u", LOW_ORDER)
def test_low_order_points(capsys: pytest.CaptureFixture[str], u: str) -> None:
    k = bytes.fromhex(RFC_5_2[1][0])
    res, _ = x25519.x25519(get("rns", "model"), k, bytes.fromhex(u), P)
    assert res == bytes(32)                       # X25519 itself returns zero ...
    with pytest.raises(ValueError):               # ... as `cryptography` sees it too
        X25519PrivateKey.from_private_bytes(k).exchange(X25519PublicKey.from_public_bytes(bytes.fromhex(u)))
    code, text = run(capsys, "x25519", "--scalar", k.hex(), "--u", u, "--json")
    assert code == 2 and json.loads(text)["error"]["code"] == "ERR_LOW_ORDER"   # ... refused for ECDH


def test_clamping() -> None:
    k = x25519.decode_scalar(b"\xff" * 32)
    assert k >> 254 == 1 and k % 8 == 0 and k < 1 << 255
    assert x25519.decode_scalar(bytes(32)) == 1 << 254
