"""RSA protocol and key files: seeded keys, PKCS#1 v1.5 and PSS signing and verification on an
engine, checked by `cryptography` both ways; PEM/DER in and out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from conftest import SEED
from pka.cli import main
from pka.proto import keys
from pka.proto import rsa as prsa
from pka.proto.backend import get


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    try:
        main(list(argv))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, _ = capsys.readouterr()
    return code, out


def test_seeded_keys_reproducible_and_valid() -> None:
    a, b, c = keys.rsa_key(1024, SEED), keys.rsa_key(1024, SEED), keys.rsa_key(1024, SEED + 1)
    na, nb, nc = (k.private_numbers() for k in (a, b, c))
    assert na.p == nb.p and na.q == nb.q and na.p != nc.p
    assert a.key_size == 1024 and na.public_numbers.e == 65537
    assert keys.ec_key("p256", 3).private_numbers().private_value == keys.ec_key("p256", 3).private_numbers().private_value


@pytest.mark.parametrize("fmt", ["pem", "der"])
def test_key_files_round_trip(tmp_path: Path, fmt: str) -> None:
    for key in (keys.rsa_key(512, SEED), keys.ec_key("p384", SEED)):
        keys.save_key(key, tmp_path / f"k.{fmt}")
        keys.save_key(key.public_key(), tmp_path / f"p.{fmt}")
        back = keys.load_key(tmp_path / f"k.{fmt}")
        assert keys.public_json(back) == keys.public_json(key)
        assert keys.public_json(keys.load_key(tmp_path / f"p.{fmt}")) == keys.public_json(key)
    (tmp_path / "junk").write_bytes(b"\x30\x03\x02\x01\x01")
    with pytest.raises(keys.KeyFileError):
        keys.load_key(tmp_path / "junk")


@pytest.mark.parametrize("pss,hash_name", [(False, "sha256"), (False, "sha384"), (True, "sha256"), (True, "sha512")])
def test_sign_verify_both_ways(pss: bool, hash_name: str) -> None:
    be = get("victor", "model")
    params = {"k": 5, "delta": 10, "eps": 11}
    key = keys.rsa_key(1536, SEED)
    sig = prsa.sign(key, b"msg", be, params, True, pss=pss, hash_name=hash_name, salt=bytes(64)[:48])
    assert sig.verified
    h = prsa.CRYPTO_HASH[hash_name]()
    pad = padding.PSS(padding.MGF1(h), padding.PSS.AUTO) if pss else padding.PKCS1v15()
    key.public_key().verify(sig.signature, b"msg", pad, h)                      # cryptography checks ours
    # cryptography's PSS salt comes from OpenSSL's generator, which no seed reaches: the signature is
    # in the message, so a failure can be replayed
    theirs = key.sign(b"msg2", pad if not pss else padding.PSS(padding.MGF1(h), 20), h)
    v = prsa.verify(key.public_key(), b"msg2", theirs, be, params, pss, hash_name)
    assert v.valid and v.cryptography, theirs.hex()                             # ours checks cryptography's
    bad = bytearray(theirs)
    bad[-1] ^= 1
    v = prsa.verify(key.public_key(), b"msg2", bytes(bad), be, params, pss, hash_name)
    assert not v.valid and not v.cryptography
    assert not prsa.verify(key.public_key(), b"msg2", theirs[1:], be, params, pss, hash_name).valid
    n = key.public_key().public_numbers().n
    assert not prsa.verify(key.public_key(), b"msg2", n.to_bytes(192, "big"), be, params, pss, hash_name).valid


def test_cli_sign_verify_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out = run(capsys, "keygen", "rsa", "--bits", "1024", "--seed", str(SEED), "--out", str(tmp_path / "k.pem"),
                    "--pub", str(tmp_path / "pub.der"), "--json")
    assert code == 0
    (tmp_path / "m").write_bytes(b"hello")
    code, out = run(capsys, "rsa", "sign", "--key", str(tmp_path / "k.pem"), "--in", str(tmp_path / "m"), "--engine",
                    "mwr4", "--out", str(tmp_path / "s"), "--json")
    d = json.loads(out)
    assert code == 0 and d["verified"] and d["public_key"]["bits"] == 1024
    pub = keys.load_key(tmp_path / "pub.der")
    assert isinstance(pub, rsa.RSAPublicKey)
    pub.verify((tmp_path / "s").read_bytes(), b"hello", padding.PKCS1v15(), hashes.SHA256())
    for sig in ("s",):
        code, out = run(capsys, "rsa", "verify", "--key", str(tmp_path / "pub.der"), "--in", str(tmp_path / "m"),
                        "--sig", str(tmp_path / sig), "--json")
        assert code == 0 and json.loads(out)["valid"] is True
    (tmp_path / "hex").write_text(d["signature"])       # the printed 0x-hex is accepted as a signature file
    code, out = run(capsys, "rsa", "verify", "--key", str(tmp_path / "k.pem"), "--in", str(tmp_path / "m"),
                    "--sig", str(tmp_path / "hex"), "--json")
    assert code == 0 and json.loads(out)["valid"] is True
    (tmp_path / "m").write_bytes(b"hellO")
    code, out = run(capsys, "rsa", "verify", "--key", str(tmp_path / "k.pem"), "--in", str(tmp_path / "m"),
                    "--sig", str(tmp_path / "s"), "--json")
    assert code == 0 and json.loads(out)["valid"] is False
    code, out = run(capsys, "rsa", "sign", "--bits", "1024", "--seed", "1", "--pss", "--json")
    d1 = json.loads(out)
    code, out = run(capsys, "rsa", "sign", "--bits", "1024", "--seed", "1", "--pss", "--json")
    assert d1["verified"] and json.loads(out)["signature"] == d1["signature"]   # --seed: key and salt reproducible
