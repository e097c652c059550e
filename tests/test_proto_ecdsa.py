"""ECDSA P-256/P-384 on the rns model: RFC 6979 A.2.5 vectors, signatures checked by `cryptography`
both ways, Wycheproof-style invalid inputs (valid: false, never an error), keys in and out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

from conftest import SEED
from pka.cli import main
from pka.proto import ecdsa, keys
from pka.rtl.top import ECDSA_HSCM, ecdsa_compute
from pka.proto.backend import get

P = {"w": 32, "alg": "mm"}
# RFC 6979 A.2.5 (P-256): private key, public key, and (k, r, s) for SHA-256 over "sample" and "test"
X = 0xC9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721
UX = 0x60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6
UY = 0x7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299
A25 = {
    b"sample": (0xA6E3C57DD01ABE90086538398355DD4C3B17AA873382B0F24D6129493D8AAD60,
                0xEFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716,
                0xF7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8),
    b"test": (0xD16B6AE827F17175E040871A1C7EC3500192C4C92677336EC2537ACAEE0008E0,
              0xF1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367,
              0x019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083),
}
N256 = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    try:
        main(list(argv))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, _ = capsys.readouterr()
    return code, out


@pytest.mark.parametrize("msg", list(A25))
def test_rfc6979_a25_nonce_and_signature(msg: bytes) -> None:
    k, r, s = A25[msg]
    h = ecdsa.digest(msg, "sha256")
    assert next(ecdsa.rfc6979_nonces(X, h, N256, "sha256")) == k
    sig = ecdsa.sign(get("rns", "model"), "p256", X, msg, P, nonce="rfc6979")
    assert (sig.r, sig.s) == (r, s)
    # the count of the accelerator's ECDSA_SIGN (a given nonce, blinding off, W_n made): the k*G is
    # one P-256 ladder on the rns MM build
    assert sig.cycles == ecdsa_compute("p256", 32, ECDSA_HSCM, False, True, given_k=True)
    assert sig.detail["kG_cycles"] == 136_244
    pub = ec.EllipticCurvePublicNumbers(UX, UY, ec.SECP256R1()).public_key()
    pub.verify(sig.der, msg, ec.ECDSA(hashes.SHA256()))


def test_p384_deterministic_matches_cryptography() -> None:
    """cryptography's RFC 6979 signing (deterministic_signing) gives the same bytes on P-384/SHA-384."""
    key = keys.ec_key("p384", SEED)
    d = key.private_numbers().private_value
    sig = ecdsa.sign(get("rns", "model"), "p384", d, b"sample", P, nonce="rfc6979")
    theirs = key.sign(b"sample", ec.ECDSA(hashes.SHA384(), deterministic_signing=True))
    assert sig.der == theirs
    assert sig.detail["kG_cycles"] == 254_062  # P-384 k*G on the rns MM build (goal <= 330,000)
    assert sig.cycles == ecdsa_compute("p384", 32, ECDSA_HSCM, False, True, given_k=True)


def test_random_nonce_seeded_and_verified_both_ways() -> None:
    be = get("rns", "model")
    key = keys.ec_key("p256", SEED + 1)
    d = key.private_numbers().private_value
    a = ecdsa.sign(be, "p256", d, b"m", P, nonce="random", seed=5)
    b = ecdsa.sign(be, "p256", d, b"m", P, nonce="random", seed=5)
    c = ecdsa.sign(be, "p256", d, b"m", P, nonce="random", seed=6)
    assert (a.r, a.s) == (b.r, b.s) != (c.r, c.s)
    key.public_key().verify(c.der, b"m", ec.ECDSA(hashes.SHA256()))
    # a signature made by cryptography verifies on ours (its RFC 6979 nonce: the same bytes every run)
    pn = key.public_key().public_numbers()
    theirs = ecdsa.der_decode(key.sign(b"other", ec.ECDSA(hashes.SHA256(), deterministic_signing=True)))
    assert theirs is not None
    v = ecdsa.verify(be, "p256", (pn.x, pn.y), b"other", *theirs, P)
    assert v.valid and v.detail["ladders"] == 2 and v.cycles == 2 * 136_244


def _p384_case() -> tuple[tuple[int, int], int, int]:
    """A P-384 public key and cryptography's RFC 6979 signature (r, s) of b"sample" under it (SHA-384)."""
    key = keys.ec_key("p384", SEED + 2)
    rs = ecdsa.der_decode(key.sign(b"sample", ec.ECDSA(hashes.SHA384(), deterministic_signing=True)))
    assert rs is not None
    pn = key.public_key().public_numbers()
    return (pn.x, pn.y), rs[0], rs[1]


def _case(name: str) -> tuple[tuple[int, int], int, int]:
    if name == "p256":
        _, r, s = A25[b"sample"]
        return (UX, UY), r, s
    return _p384_case()


@pytest.mark.parametrize("name", ["p256", "p384"])
def test_invalid_signatures_are_invalid_not_errors(name: str) -> None:
    """Wycheproof-style cases on P-256 (RFC 6979 A.2.5's signature) and P-384 (cryptography's):
    r or s = 0 or >= n, negative, swapped, another message, public keys off the curve or negated."""
    be = get("rns", "model")
    q, r, s = _case(name)
    n = ecdsa.curve(name).order
    p = ecdsa.curve(name).p
    assert ecdsa.verify(be, name, q, b"sample", r, s, P).valid
    assert ecdsa.verify(be, name, q, b"sample", r, n - s, P).valid       # (r, -s): ECDSA accepts both
    for rr, ss in ((0, s), (r, 0), (n, s), (r, n), (r + n, s), (r, s + n), (-r, s), (r, -s), (0, 0)):
        v = ecdsa.verify(be, name, q, b"sample", rr, ss, P)
        assert not v.valid and "outside" in v.reason and v.cycles == 0, (rr, ss)
    assert not ecdsa.verify(be, name, q, b"samplE", r, s, P).valid
    assert not ecdsa.verify(be, name, q, b"sample", s, r, P).valid
    for bad_q in ((q[0], q[1] + 1), (0, 0), (q[0], q[1] + p), (p, q[1])):       # off the curve / not reduced
        v = ecdsa.verify(be, name, bad_q, b"sample", r, s, P)
        assert not v.valid and v.reason.startswith("public key") and v.cycles == 0, bad_q
    # wrong sign of Q: the signature does not verify under -Q (the y recovery is exact)
    assert not ecdsa.verify(be, name, (q[0], (-q[1]) % p), b"sample", r, s, P).valid


MALFORMED_DER = [
    b"", b"\x30\x00", b"junk",
    bytes.fromhex("3006020100020100"),                       # r = s = 0 (well-formed, invalid values)
    bytes.fromhex("30070201010202000101"),                   # non-minimal integer
    bytes.fromhex("3081060201010201" + "01"),                 # non-minimal length
    bytes.fromhex("300602010102010100"),                      # trailing byte
    bytes.fromhex("3006020181020101"),                        # negative r
]


@pytest.mark.parametrize("der", MALFORMED_DER)
def test_malformed_der_is_invalid(capsys: pytest.CaptureFixture[str], tmp_path: Path, der: bytes) -> None:
    pub = ec.EllipticCurvePublicNumbers(UX, UY, ec.SECP256R1()).public_key()
    keys.save_key(pub, tmp_path / "pub.pem")
    (tmp_path / "m").write_bytes(b"sample")
    (tmp_path / "s.der").write_bytes(der)
    code, out = run(capsys, "ecdsa", "verify", "--key", str(tmp_path / "pub.pem"), "--in", str(tmp_path / "m"),
                    "--sig", str(tmp_path / "s.der"), "--json")
    assert code == 0 and json.loads(out)["valid"] is False


def test_malformed_der_is_invalid_p384(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The same encodings under a P-384 key, plus P-384-sized ones: r = n (a 49-byte INTEGER),
    a signature's DER with one byte cut or one appended, and a P-256 signature (valid DER, wrong key)."""
    (qx, qy), r, s = _p384_case()
    n = ecdsa.curve("p384").order
    keys.save_key(ec.EllipticCurvePublicNumbers(qx, qy, ec.SECP384R1()).public_key(), tmp_path / "pub.pem")
    (tmp_path / "m").write_bytes(b"sample")
    good = ecdsa.der_encode(r, s)
    _, r256, s256 = A25[b"sample"]
    cases = [*MALFORMED_DER, ecdsa.der_encode(n, s), ecdsa.der_encode(r, n + 1), good[:-1], good + b"\x00",
             ecdsa.der_encode(r256, s256)]
    for i, der in enumerate([good, *cases]):
        (tmp_path / "s.der").write_bytes(der)
        code, out = run(capsys, "ecdsa", "verify", "--key", str(tmp_path / "pub.pem"), "--in", str(tmp_path / "m"),
                        "--sig", str(tmp_path / "s.der"), "--json")
        d = json.loads(out)
        assert code == 0 and d["curve"] == "p384" and d["valid"] is (i == 0), (der.hex(), d)


def test_cli_keygen_sign_verify_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """keygen ec (PEM and DER), sign with the key file, verify with the public key file; the curve
    and hash come from the key; cryptography checks the DER signature."""
    msg = tmp_path / "msg"
    msg.write_bytes(b"pka")
    code, out = run(capsys, "keygen", "ec", "--curve", "secp256r1", "--seed", str(SEED), "--out",
                    str(tmp_path / "k.der"), "--pub", str(tmp_path / "pub.pem"), "--json")
    d = json.loads(out)
    assert code == 0 and d["format"] == "der" and d["cycles"] == 136_244
    key = keys.load_key(tmp_path / "k.der")
    assert isinstance(key, ec.EllipticCurvePrivateKey)
    assert hex(key.public_key().public_numbers().x) == d["public_key"]["x"]
    code, out = run(capsys, "ecdsa", "sign", "--key", str(tmp_path / "k.der"), "--in", str(msg), "--nonce",
                    "rfc6979", "--out", str(tmp_path / "s.der"), "--json")
    s = json.loads(out)
    assert code == 0 and s["verified"] and s["curve"] == "p256" and s["hash"] == "sha256"
    assert s["r"].startswith("0x") and s["der"] == "0x" + (tmp_path / "s.der").read_bytes().hex()
    key.public_key().verify((tmp_path / "s.der").read_bytes(), b"pka", ec.ECDSA(hashes.SHA256()))
    code, out = run(capsys, "ecdsa", "verify", "--key", str(tmp_path / "pub.pem"), "--in", str(msg), "--sig",
                    str(tmp_path / "s.der"), "--json")
    assert code == 0 and json.loads(out)["valid"] is True
    msg.write_bytes(b"pkb")
    code, out = run(capsys, "ecdsa", "verify", "--key", str(tmp_path / "pub.pem"), "--in", str(msg), "--sig",
                    str(tmp_path / "s.der"), "--json")
    assert code == 0 and json.loads(out)["valid"] is False
    code, out = run(capsys, "ecdsa", "sign", "--key", str(tmp_path / "k.der"), "--curve", "P-384", "--json")
    assert code == 2 and json.loads(out)["error"]["code"] == "ERR_PARAM"       # --curve must agree
    (tmp_path / "bad.pem").write_text("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
    code, out = run(capsys, "ecdsa", "sign", "--key", str(tmp_path / "bad.pem"), "--json")
    assert code == 2 and json.loads(out)["error"]["code"] == "ERR_KEY"


def test_cli_p384_sign_default_hash(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    key = keys.ec_key("p384", SEED)
    keys.save_key(key, tmp_path / "k.pem")
    code, out = run(capsys, "ecdsa", "sign", "--key", str(tmp_path / "k.pem"), "--seed", "3", "--json")
    d = json.loads(out)
    assert code == 0 and d["hash"] == "sha384" and d["curve"] == "p384" and d["verified"] is True
    key.public_key().verify(bytes.fromhex(d["der"][2:]), b"pka: open public-key accelerator",
                            ec.ECDSA(hashes.SHA384()))


def test_keygen_is_reproducible(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outs = []
    for i in range(2):
        code, out = run(capsys, "keygen", "rsa", "--bits", "512", "--seed", "11", "--out", str(tmp_path / f"{i}.pem"),
                        "--json")
        assert code == 0
        outs.append(json.loads(out)["public_key"]["n"])
    assert outs[0] == outs[1]
    assert (tmp_path / "0.pem").read_bytes() == (tmp_path / "1.pem").read_bytes()
