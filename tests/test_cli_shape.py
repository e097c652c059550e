"""One shape for every command: JSON errors on stdout under --json (exit 2), 0x-hex, tables instead
of Python reprs, curve aliases, `pka engines` with operations, the help listing bench and demo."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import SEED
from pka.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        main(list(argv))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv,code", [
    (["modexp", "--base", "3", "--exp", "5", "--mod", "10"], "ERR_EVEN_MODULUS"),   # parity before length
    (["modexp", "--engine", "hscm", "--base", "3", "--exp", "5", "--mod", "101"], "ERR_LENGTH"),
    (["modexp", "--engine", "hscm", "--base", "0x1z", "--exp", "5", "--mod", "101"], "ERR_OPERAND_RANGE"),
    (["modexp", "--engine", "victor", "--param", "k=9", "--base", "3", "--exp", "5", "--mod", "101"], "ERR_PARAM"),
    (["modexp", "--engine", "hscm", "--base", "3", "--exp", "5"], "ERR_USAGE"),       # click's missing option
    (["ecc", "--curve", "P-256", "--scalar", "0"], "ERR_OPERAND_RANGE"),
    (["ecc", "--curve", "brainpool", "--scalar", "5"], "ERR_PARAM"),
    (["ecdh", "--scalar", "5", "--peer-x", "1", "--peer-y", "1"], "ERR_NOT_ON_CURVE"),
    (["rsa", "sign", "--key", "/nonexistent.pem"], "ERR_KEY"),
    (["rsa", "sign", "--bits", "512", "--in", "/nonexistent.txt"], "ERR_INPUT"),
    (["op", "modinv", "--a", "3", "--mod", "15"], "ERR_NO_INVERSE"),
    (["op", "modadd", "--a", "11", "--b", "1", "--mod", "11"], "ERR_OPERAND_RANGE"),
    (["x25519", "--scalar", "00" * 31, "--u", "09" + "00" * 31], "ERR_LENGTH"),
])
def test_errors_are_json_on_stdout_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], code: str) -> None:
    rc, out, err = run(capsys, *argv, "--json")
    assert rc == 2, (out, err)
    data = json.loads(out)
    assert set(data) == {"error"} and data["error"]["code"] == code, data
    assert data["error"]["message"]
    rc, out, err = run(capsys, *argv)
    lines = err.strip().splitlines()
    assert rc == 2 and out == "" and len(lines) == 1 and lines[0].startswith("pka: error:"), err


def test_success_shapes_and_hex(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "modexp", "--engine", "victor", "--base", "3", "--exp", "5", "--mod", "0xfff1", "--json")
    assert rc == 0 and json.loads(out)["result"] == hex(pow(3, 5, 0xFFF1))
    rc, out, _ = run(capsys, "ecc", "--curve", "prime256v1", "--scalar", "7", "--json")
    d = json.loads(out)
    assert rc == 0 and d["x"].startswith("0x") and d["curve"] == "p256" and d["verified"] is True
    rc, out, _ = run(capsys, "rsa", "sign", "--bits", "512", "--seed", str(SEED), "--engine", "victor", "--json")
    d = json.loads(out)
    assert rc == 0 and d["signature"].startswith("0x") and d["public_key"]["n"].startswith("0x")


@pytest.mark.parametrize("alias", ["P-256", "p256", "secp256r1", "prime256v1", "P_256", "NIST-P256"])
def test_curve_aliases_p256(capsys: pytest.CaptureFixture[str], alias: str) -> None:
    rc, out, err = run(capsys, "ecc", "--curve", alias, "--scalar", "3", "--json")
    assert rc == 0, err
    assert json.loads(out)["curve"] == "p256"


def test_curve_aliases_p384() -> None:
    from pka.proto.keys import curve_name
    assert {curve_name(a) for a in ("P-384", "p384", "secp384r1", "nistp384")} == {"p384"}


def test_human_output_is_a_table_not_a_repr(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["modexp", "--engine", "csa2", "--base", "3", "--exp", "5", "--mod", "0xfff1"],
                 ["ecc", "--scalar", "5"], ["engines"], ["op", "mont-params", "--mod", "0xfff1"]):
        rc, out, err = run(capsys, *argv)
        assert rc == 0, err
        assert "{'" not in out and "':" not in out and "[" not in out, out
    rc, out, _ = run(capsys, "modexp", "--engine", "csa2", "--base", "3", "--exp", "5", "--mod", "0xfff1")
    assert "variant=paper" in out and hex(pow(3, 5, 0xFFF1)) in out


def test_engines_lists_operations(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "engines", "--json")
    d = json.loads(out)
    assert rc == 0
    assert "RSA_CRT" in d["hscm"]["ops"] and "ECC_MUL" in d["rns"]["ops"] and "ECC_MUL" not in d["hscm"]["ops"]
    assert any("X25519" in p for p in d["rns"]["protocols"])
    assert "MONT_PARAMS" in d["sequencer"]["ops"]


def test_help_reaches_bench_and_demo_and_backend_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "--help")
    assert rc == 0
    for cmd in ("bench", "demo", "op", "ecdsa", "x25519", "keygen", "rsa"):
        assert f"  {cmd} " in out
    rc, out, _ = run(capsys, "explore", "--help")
    assert "--backend" in out and "  --cycles" not in out    # the old name is a hidden alias
    rc, out, _ = run(capsys, "bench")
    assert rc == 0 and "rns" in out and "top" in out


def test_explore_old_cycles_flag_still_parses() -> None:
    from click.testing import CliRunner

    from pka.cli import cli
    r = CliRunner().invoke(cli, ["explore", "--engine", "example", "--grid", "nope=1", "--cycles", "model"])
    assert "no such option" not in r.output.lower()


def test_operands_from_file_and_stdin(tmp_path: Path) -> None:
    (tmp_path / "n.txt").write_text("0xfff1\n")
    proc = subprocess.run([sys.executable, "-m", "pka.cli", "modmul", "--engine", "victor", "--a", "-", "--b", "7",
                           "--mod", f"@{tmp_path / 'n.txt'}", "--json"], input="12345", capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["result"] == hex(12345 * 7 % 0xFFF1)


def test_build_lines_show_time_and_first_run_only(capsys: pytest.CaptureFixture[str]) -> None:
    """What a fresh Verilator build prints (no repr of its parameters): the build, that only the first
    run builds, and the elapsed time once the simulation starts."""
    import logging

    from pka.cli import progress_display
    with progress_display(True, "test") as tick:
        logging.getLogger("pka.sim").info("building %s %s with Verilator", "pka_top", {"MaxLen": 256, "EnRns": 1})
        logging.getLogger("pka.top").info("pka_top %s %s", ("rns",), {"MaxLen": 256})
        assert tick is not None
        tick(1000)
    err = capsys.readouterr().err
    assert "building pka_top MaxLen=256 EnRns=1 with Verilator" in err and "only the first run builds" in err
    assert "pka: built pka_top in " in err and "{" not in err and "(" in err


def test_demo_model(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(capsys, "demo", "--backend", "model", "--json")
    d = json.loads(out)
    assert rc == 0, err
    assert d["rsa"]["verified"] and d["ecdh"]["verified"] and d["ecdh"]["cycles"] == 136_244
    assert d["rsa"]["cycles"] == 371_790        # constant time: the same for every key (model backend: the engine alone)


def test_unverified_signature_is_withheld(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`pka rsa sign` never prints a signature that failed verification: one error line (or the JSON
    error) naming ERR_FAULT, exit 2, no signature anywhere in the output."""
    from pka.proto import rsa as proto_rsa

    real = proto_rsa.sign

    def faulty(*args, **kw):  # type: ignore[no-untyped-def]
        sig = real(*args, **kw)
        bad = bytes([sig.signature[0] ^ 1]) + sig.signature[1:]
        return type(sig)(**{**sig.__dict__, "signature": bad, "verified": False})

    monkeypatch.setattr(proto_rsa, "sign", faulty)
    for json_flag in ((), ("--json",)):
        rc, out, err = run(capsys, "rsa", "sign", "--bits", "512", "--seed", "3", *json_flag)
        assert rc == 2, (out, err)
        if json_flag:
            assert json.loads(out)["error"]["code"] == "ERR_FAULT" and "signature\"" not in out
        else:
            assert out == "" and "ERR_FAULT" in err and len(err.strip().splitlines()) == 1


def _corrupt_ecdsa(monkeypatch: pytest.MonkeyPatch) -> None:
    from pka.proto import ecdsa
    real = ecdsa.sign

    def bad(be, name, *args, **kw):  # type: ignore[no-untyped-def]
        sig = real(be, name, *args, **kw)
        return type(sig)(**{**sig.__dict__, "s": sig.s % (ecdsa.curve(name).order - 1) + 1})
    monkeypatch.setattr(ecdsa, "sign", bad)


def _corrupt_x(module: str, fn: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A backend result one off in x (ecdh: PointResult-less results: OpResult)."""
    import importlib
    mod = importlib.import_module(module)
    real = getattr(mod, fn)

    def bad(*args, **kw):  # type: ignore[no-untyped-def]
        res = real(*args, **kw)
        if isinstance(res, tuple):              # x25519: (bytes, OpResult)
            out, op = res
            return bytes([out[0] ^ 1]) + out[1:], op
        return type(res)(**{**res.__dict__, "result": res.result + 1})
    monkeypatch.setattr(mod, fn, bad)


@pytest.mark.parametrize("case", ["ecc", "ecdh", "x25519", "ecdsa"])
def test_failed_cross_check_is_err_fault_and_withheld(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch, case: str) -> None:
    """A result that `cryptography` does not confirm (here: a corrupted backend result) is an error,
    as in `pka rsa sign`: ERR_FAULT, exit 2, the JSON error shape, the value nowhere in the output,
    nothing written to --out."""
    from pka.model.rns import P256
    argv = {"ecc": ["ecc", "--scalar", "5"],
            "ecdh": ["ecdh", "--scalar", "5", "--peer-x", hex(P256.gx), "--peer-y", hex(P256.gy)],
            "x25519": ["x25519", "--scalar", "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4"],
            "ecdsa": ["ecdsa", "sign", "--seed", "1", "--nonce", "rfc6979", "--out", str(tmp_path / "s.der")]}[case]
    rc, good, err = run(capsys, *argv, "--json")
    assert rc == 0, err
    value = {"ecc": "x", "ecdh": "x", "x25519": "result", "ecdsa": "s"}[case]
    good_value = json.loads(good)[value]
    (tmp_path / "s.der").unlink(missing_ok=True)
    if case == "ecdsa":
        _corrupt_ecdsa(monkeypatch)
    elif case == "x25519":
        _corrupt_x("pka.proto.x25519", "x25519", monkeypatch)
    else:
        _corrupt_x("pka.proto.ecdh", "scalar_mult" if case == "ecc" else "ecdh", monkeypatch)
    rc, out, err = run(capsys, *argv, "--json")
    assert rc == 2, (out, err)
    assert json.loads(out) == {"error": {"code": "ERR_FAULT", "message": json.loads(out)["error"]["message"]}}
    assert "withheld" in out and "cryptography" in out
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and out == "" and "ERR_FAULT" in err and len(err.strip().splitlines()) == 1, err
    assert good_value[2:12] not in err
    assert not (tmp_path / "s.der").exists()


def test_demo_failed_check_is_err_fault(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from pka.proto import ecdh
    monkeypatch.setattr(ecdh, "reference_x", lambda *a, **k: 1)   # cryptography "disagrees" with the ECDH
    rc, out, _ = run(capsys, "demo", "--backend", "model", "--json")
    assert rc == 2 and json.loads(out)["error"]["code"] == "ERR_FAULT" and "ECDH" in out


def test_engines_names_ecdsa_sign_and_the_sequencers_operations(capsys: pytest.CaptureFixture[str]) -> None:
    """ECDSA_SIGN is the sequencer's, with rns and hscm; each binary engine serves MODINV and
    ECC_CHECK with the sequencer; the table says so too."""
    rc, out, _ = run(capsys, "engines", "--json")
    d = json.loads(out)
    assert rc == 0
    seq = d["sequencer"]
    assert {"MODADD", "MODSUB", "MONT_PARAMS", "ZEROIZE", "MODINV", "ECC_CHECK", "ECDSA_SIGN"} <= set(seq["ops"])
    assert any(p.startswith("ECDSA_SIGN") and "rns" in p and "hscm" in p for p in seq["protocols"])
    assert "ECDSA_SIGN" in d["rns"]["with_sequencer"] and "ECDSA_SIGN" in d["hscm"]["with_sequencer"]
    assert "ECDSA_SIGN" not in d["victor"]["with_sequencer"]
    for e in ("hscm", "victor", "mwr4", "csa2"):
        assert {"MODINV", "ECC_CHECK"} <= set(d[e]["with_sequencer"]), e
    assert any("ECDSA_SIGN" in p for p in d["rns"]["protocols"])
    assert not any("(host-composed)" == p[-len("(host-composed)"):] for p in d["rns"]["protocols"])
    rc, out, _ = run(capsys, "engines")
    assert rc == 0 and "ECDSA_SIGN" in out and "with the sequencer" in out


def _ints(v: object, path: str = "") -> list[tuple[str, int]]:
    if isinstance(v, dict):
        return [i for k, x in v.items() for i in _ints(x, f"{path}.{k}")]
    if isinstance(v, list):
        return [i for x in v for i in _ints(x, f"{path}[]")]
    return [(path, v)] if isinstance(v, int) and not isinstance(v, bool) else []


def test_numbers_are_0x_hex_everywhere_in_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Every coordinate, operand or modulus in the JSON is 0x-hex, nested details included (the
    ladder's y, the RNS bases); the integers left are counts and settings."""
    from cryptography.hazmat.primitives.asymmetric import ec
    from pka.model.rns import P256
    cmds = [["ecc", "--scalar", "5"], ["ecc", "--curve", "P-384", "--scalar", "7"],
            ["ecdh", "--scalar", "5", "--peer-x", hex(P256.gx), "--peer-y", hex(P256.gy)],
            ["keygen", "ec", "--curve", "P-256", "--seed", "1", "--out", str(tmp_path / "k.pem")],
            ["ecdsa", "sign", "--seed", "1"], ["x25519", "--seed", "1"],
            ["modexp", "--engine", "rns", "--base", "3", "--exp", "5", "--mod", "0xfff1"],
            ["op", "mont-params", "--mod", "0xfff1"], ["op", "modadd", "--a", "1", "--b", "2", "--mod", "0xfff1"]]
    outs = {}
    for argv in cmds:
        rc, out, err = run(capsys, *argv, "--json")
        assert rc == 0, (argv, err)
        d = outs[argv[0] + argv[1]] = json.loads(out)
        for path, v in _ints(d):
            assert path.rsplit(".", 1)[-1].rstrip("[]") not in ("x", "y", "s", "mu", "result", "base_b", "base_bp"), \
                (argv, path, v)
            assert v < 1 << 32, (argv, path, v)
    pub = ec.derive_private_key(5, ec.SECP256R1()).public_key().public_numbers()
    assert outs["ecc--scalar"]["detail"]["y"] == hex(pub.y)
    assert outs["ecdsasign"]["detail"]["kG_detail"]["y"].startswith("0x")
    assert all(b.startswith("0x") for b in outs["ecc--scalar"]["detail"]["base_b"])


def test_synth_and_explore_human_lines_have_no_repr(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """`pka synth`'s summary names the parameters as k=v (pka.synth prints the dicts); the flow's
    log lines and explore's progress lines too. The flow itself is faked (tests/test_synth.py runs it)."""
    import logging

    import pka.cli.synth as cs
    record = {"engine": "hscm", "params": {"pes": 2, "w": 16}, "bits": 256, "target": "ecp5-85k",
              "device": "LFE5U-85F", "area": {"lut4": 1234}, "flow": {"freq": 100.0, "seed": 1, "no_tmdriv": False},
              "rtl": {"top": "pka_hscm", "params": {"Pes": 2, "W": 16}, "mem_aw": 5}, "time": {"yosys_s": 1.0}}

    def fake(*a, **k):  # type: ignore[no-untyped-def]
        logging.getLogger("pka.synth").info("yosys %s", {"Pes": 2})
        return record
    monkeypatch.setattr(cs, "synth_design", fake)
    rc, out, err = run(capsys, "synth", "--engine", "hscm", "--param", "pes=2", "--bits", "256")
    assert rc == 0, err
    assert "pes=2 w=16" in out and "Pes=2 W=16" in out and "{" not in out + err and "Pes=2" in err, out + err


def test_human_verified_is_yes_not_a_python_bool(capsys: pytest.CaptureFixture[str]) -> None:
    from pka.model.rns import P256
    for argv in (["ecc", "--scalar", "5"], ["ecdh", "--scalar", "5", "--peer-x", hex(P256.gx), "--peer-y", hex(P256.gy)],
                 ["x25519", "--seed", "1"], ["ecdsa", "sign", "--seed", "1"], ["rsa", "sign", "--bits", "512", "--seed", "1"],
                 ["demo", "--backend", "model"]):
        rc, out, err = run(capsys, *argv)
        assert rc == 0, err
        assert "True" not in out and "False" not in out and "None" not in out, (argv, out)
        assert "yes (by cryptography)" in out or "verified (cryptography)" in out, (argv, out)
