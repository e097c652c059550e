"""The new commands with --backend rtl (pka_top through its bus): same results and compute cycles
as the model backend. Small builds only (rns 256-bit, the sequencer's example build); P-384 and the
engine ops' builds are in the slow tier."""

from __future__ import annotations

import json

import pytest

from pka.cli import main
from pka.model import rns

pytestmark = pytest.mark.rtl

X_K = "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4"
X_U = "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c"
X_OUT = "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    try:
        main([*argv, "--json"])
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, _ = capsys.readouterr()
    return code, json.loads(out)


def both(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[dict, dict]:  # type: ignore[type-arg]
    """The model and the RTL (with blinding off: the model does not blind) on the same command."""
    cm, m = run(capsys, *argv, "--backend", "model")
    cr, r = run(capsys, "--blinding", "off", *argv, "--backend", "rtl")
    assert cm == cr == 0, (m, r)
    return m, r


def test_x25519_rtl(capsys: pytest.CaptureFixture[str]) -> None:
    m, r = both(capsys, "x25519", "--scalar", X_K, "--u", X_U)
    assert m["result"] == r["result"] == X_OUT and r["verified"]
    assert m["cycles"] == r["cycles"] == 101_515
    code, d = run(capsys, "x25519", "--scalar", X_K, "--u", "00" * 32, "--backend", "rtl")
    assert code == 2 and d["error"]["code"] == "ERR_LOW_ORDER"
    # blinded (the default on the RTL): a random projective Z (no scalar blinding for X25519)
    code, b = run(capsys, "x25519", "--scalar", X_K, "--u", X_U, "--backend", "rtl")
    assert code == 0 and b["result"] == X_OUT
    zwords = 2 * rns.channels_mm(rns.X25519_P.bit_length(), 32)   # the random Z from the entropy port
    assert b["cycles"] == zwords + rns.x25519_cycles(32, random_z=True)


def test_ecdsa_p256_rtl(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    from pathlib import Path

    from cryptography.hazmat.primitives.asymmetric import ec

    from pka.proto import ecdsa, keys
    from pka.rtl.top import ECDSA_HSCM, ecdsa_compute
    d = Path(str(tmp_path))
    key = ec.derive_private_key(0xC9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721, ec.SECP256R1())
    keys.save_key(key, d / "k.pem")
    (d / "m").write_bytes(b"sample")
    m, r = both(capsys, "ecdsa", "sign", "--key", str(d / "k.pem"), "--in", str(d / "m"), "--nonce", "rfc6979")
    assert m["r"] == r["r"] == hex(0xEFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716)
    # the RFC 6979 nonce written to the accelerator (ECDSA_SIGN, ARG[8]): the RFC's r and s, and the
    # model's count of the same operation (blinding off, the first signature of the session)
    assert m["s"] == r["s"] == hex(0xF7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8)
    assert r["verified"] and m["cycles"] == r["cycles"] == ecdsa_compute("p256", 32, ECDSA_HSCM, False, True, True)
    assert r["detail"]["path"] == ecdsa.RTL_SIGN_PATH
    (d / "s.der").write_bytes(bytes.fromhex(r["der"][2:]))
    m, r = both(capsys, "ecdsa", "verify", "--key", str(d / "k.pem"), "--in", str(d / "m"), "--sig", str(d / "s.der"))
    assert m["valid"] is r["valid"] is True and m["cycles"] == r["cycles"] == 2 * 136_244


def test_ecdsa_p256_rtl_in_the_accelerator(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    """--nonce random on the RTL signs with ECDSA_SIGN (the build bench/ecdsa.py measures): the nonce
    from the accelerator's entropy port (seeded in simulation: the same seed, the same signature),
    the signature checked by `cryptography` in the command and verified by the verify command."""
    from pathlib import Path

    from cryptography.hazmat.primitives.asymmetric import ec

    from pka.proto import ecdsa, keys
    from pka.rtl.top import ECDSA_HSCM, ecdsa_compute
    d = Path(str(tmp_path))
    keys.save_key(ec.derive_private_key(0x1D2C3B4A5968778695A4B3C2D1E0F, ec.SECP256R1()), d / "k.pem")
    (d / "m").write_bytes(b"in the accelerator")
    sig = ["ecdsa", "sign", "--key", str(d / "k.pem"), "--in", str(d / "m"), "--nonce", "random", "--backend", "rtl"]
    code, r = run(capsys, "--blinding", "off", *sig, "--seed", "7")
    assert code == 0 and r["verified"] and r["detail"]["path"] == ecdsa.RTL_SIGN_PATH
    assert r["cycles"] in (ecdsa_compute("p256", 32, ECDSA_HSCM, False, w) for w in (True, False))
    code, again = run(capsys, "--blinding", "off", *sig, "--seed", "7")
    assert code == 0 and (again["r"], again["s"]) == (r["r"], r["s"])
    (d / "s.der").write_bytes(bytes.fromhex(r["der"][2:]))
    code, v = run(capsys, "ecdsa", "verify", "--key", str(d / "k.pem"), "--in", str(d / "m"), "--sig", str(d / "s.der"))
    assert code == 0 and v["valid"] is True


def test_sequencer_ops_rtl(capsys: pytest.CaptureFixture[str]) -> None:
    n = hex((1 << 255) + 0x1235)
    for argv in (["op", "modadd", "--a", "0x1234", "--b", "0x" + "f" * 63, "--mod", n],
                 ["op", "modsub", "--a", "0x1234", "--b", "0x" + "f" * 63, "--mod", n],
                 ["op", "mont-params", "--mod", n]):
        m, r = both(capsys, *argv)
        assert m["result"] == r["result"] and m["cycles"] == r["cycles"], argv
        assert m["engine"] == r["engine"] == "sequencer" and r["build"] == "example", argv
    code, d = run(capsys, "op", "modadd", "--a", n, "--b", "1", "--mod", n, "--backend", "rtl")
    assert code == 2 and d["error"]["code"] == "ERR_OPERAND_RANGE"


HSCM2 = ("--engine", "hscm", "--param", "pes=2")     # the hscm build of tests/test_top_engines.py (MaxLen 512)


def test_modinv_and_point_check_cycles_rtl(capsys: pytest.CaptureFixture[str]) -> None:
    """The model backend's count of MODINV and ECC_CHECK (the sequencer's passes + the engine model's
    MODEXP/MODMUL) is the RTL's COMPUTE."""
    from pka.model.rns import P256
    p61 = (1 << 61) - 1
    b61 = hex((7 * 7 - 5 ** 3 - 2 * 5) % p61)              # (5, 7) on y^2 = x^3 + 2 x + b mod 2^61 - 1
    curve61 = ["--a", "2", "--b", b61, "--mod", hex(p61)]
    for argv in (["op", "modinv", "--a", "0x1234", "--mod", hex(p61), *HSCM2],
                 ["op", "modinv", "--a", "1", "--mod", hex(P256.p), *HSCM2],
                 ["op", "point-check", "--curve", "p256", "--x", hex(P256.gx), "--y", hex(P256.gy), *HSCM2],
                 ["op", "point-check", *curve61, "--x", "5", "--y", "7", *HSCM2]):
        m, r = both(capsys, *argv)
        assert m.get("result") == r.get("result") and m.get("valid") is r.get("valid") is not False, argv
        assert isinstance(m["cycles"], int) and m["cycles"] == r["cycles"], (argv, m["cycles"], r["cycles"])
    m, r = both(capsys, "op", "point-check", *curve61, "--x", "5", "--y", "8", *HSCM2)
    assert m["valid"] is r["valid"] is False
    # the same errors in the same order: the engine's length limit before the curve's compare
    for argv in (["op", "point-check", "--a", "2", "--b", "3", "--mod", "97", "--x", "3", "--y", "7", *HSCM2],
                 ["op", "modinv", "--a", "3", "--mod", "97", *HSCM2],
                 ["op", "point-check", "--a", "2", "--b", hex(p61), "--mod", hex(p61), "--x", "5", "--y", "7", *HSCM2]):
        (cm, m), (cr, r) = run(capsys, *argv), run(capsys, *argv, "--backend", "rtl")
        assert cm == cr == 2 and m["error"]["code"] == r["error"]["code"], (argv, m, r)


def test_mont_params_engine_r_rtl(capsys: pytest.CaptureFixture[str]) -> None:
    """--r engine (MONT_PARAMS with ELEN = 0xFFFF): the hardware's r for hscm is the model's, and so
    are W and the count; without an engine that has an r, both say ERR_UNSUPPORTED."""
    n = hex((1 << 255) + 0x1235)
    for argv in (["op", "mont-params", "--mod", n, "--r", "engine", *HSCM2],
                 ["op", "mont-params", "--mod", hex((1 << 60) + 0x1235), "--r", "engine", *HSCM2],
                 ["op", "mont-params", "--mod", n, "--r", "300", *HSCM2]):
        m, r = both(capsys, *argv)
        assert (m["result"], m["r"], m["cycles"]) == (r["result"], r["r"], r["cycles"]), argv
    assert m["r"] == 300
    code, d = run(capsys, "op", "mont-params", "--mod", n, "--r", "engine", "--backend", "rtl")   # the sequencer alone
    assert code == 2 and d["error"]["code"] == "ERR_UNSUPPORTED"


def test_montmul_rtl(capsys: pytest.CaptureFixture[str]) -> None:
    """MONTMUL on hscm through pka_top: the engine's Montgomery domain and output range, the model's
    result and count; an even modulus is the same error on both."""
    n = (1 << 255) + 0x1235
    for a, b in ((0x1234, n - 1), (n - 1, n - 1), (0, 5)):
        m, r = both(capsys, "op", "montmul", "--a", hex(a), "--b", hex(b), "--mod", hex(n), *HSCM2)
        assert m["result"] == r["result"] and m["cycles"] == r["cycles"], (a, b)
        rb = m["detail"]["r_bits"]
        assert int(r["result"], 16) % n == a * b * pow(2, -rb, n) % n
    code, d = run(capsys, "op", "montmul", "--a", "5", "--b", "1", "--mod", hex(n + 1), *HSCM2, "--backend", "rtl")
    assert code == 2 and d["error"]["code"] == "ERR_EVEN_MODULUS"


def test_rsa_verify_rtl(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    """rsa verify with s^e mod n through pka_top (hscm 2 PEs): a good signature valid, a changed
    message and a changed signature invalid (exit 0 each), as on the model."""
    from pathlib import Path
    d = Path(str(tmp_path))
    (d / "m").write_bytes(b"verify on the RTL")
    code, _ = run(capsys, "keygen", "rsa", "--bits", "512", "--seed", "5", "--out", str(d / "k.pem"),
                  "--pub", str(d / "pub.pem"))
    assert code == 0
    code, s = run(capsys, "rsa", "sign", "--key", str(d / "k.pem"), "--in", str(d / "m"), "--out", str(d / "s.sig"))
    assert code == 0
    sig = (d / "s.sig").read_bytes()
    (d / "bad.sig").write_bytes(bytes([sig[0] ^ 1]) + sig[1:])
    (d / "m2").write_bytes(b"verify on the RTL!")
    for msg, sig_file, want in (("m", "s.sig", True), ("m2", "s.sig", False), ("m", "bad.sig", False)):
        m, r = both(capsys, "rsa", "verify", "--key", str(d / "pub.pem"), "--in", str(d / msg), "--sig",
                    str(d / sig_file), *HSCM2)
        assert m["valid"] is r["valid"] is want and r["cryptography"] is want, (msg, sig_file)
        assert m["cycles"] == r["cycles"] > 0


def test_ecdh_key_files_rtl(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    """ecdh --key/--peer (PEM files) through pka_top's ECC_MUL on rns: the shared x of both sides is
    cryptography's, model = RTL in result and cycles."""
    from pathlib import Path

    from cryptography.hazmat.primitives.asymmetric import ec

    from pka.proto import keys
    d = Path(str(tmp_path))
    ours, theirs = keys.ec_key("p256", 21), keys.ec_key("p256", 22)
    keys.save_key(ours, d / "ours.pem")
    keys.save_key(theirs.public_key(), d / "theirs-pub.pem")
    m, r = both(capsys, "ecdh", "--key", str(d / "ours.pem"), "--peer", str(d / "theirs-pub.pem"))
    want = int.from_bytes(theirs.exchange(ec.ECDH(), ours.public_key()), "big")
    assert m["x"] == r["x"] == hex(want) and r["verified"] and m["cycles"] == r["cycles"] == 136_244
    assert r["public_key"]["x"] == hex(ours.public_key().public_numbers().x)


@pytest.mark.slow
def test_engine_ops_rtl(capsys: pytest.CaptureFixture[str]) -> None:
    from pka.model.rns import P256
    p = hex(P256.p)
    for argv in (["op", "modinv", "--a", "0x1234", "--mod", p],
                 ["op", "modred", "--a", "0x" + "ab" * 60, "--mod", p],
                 ["op", "mul", "--a", "0x" + "ab" * 30, "--b", "0x" + "cd" * 31, "--bits", "256"],
                 ["op", "point-check", "--curve", "p256", "--x", hex(P256.gx), "--y", hex(P256.gy)]):
        m, r = both(capsys, *argv)
        assert m.get("result") == r.get("result") and m.get("valid") == r.get("valid"), argv
        assert m["cycles"] == r["cycles"], (argv, m["cycles"], r["cycles"])   # victor's MODINV/ECC_CHECK too


@pytest.mark.slow
def test_p384_rtl(capsys: pytest.CaptureFixture[str]) -> None:
    m, r = both(capsys, "ecc", "--curve", "P-384", "--seed", "1")
    assert m["x"] == r["x"] and r["verified"] and m["cycles"] == r["cycles"] == 254_062
