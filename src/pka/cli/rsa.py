"""`pka rsa sign` and `pka rsa verify`: keys from files or seeds, the private-key operation on an engine."""

from __future__ import annotations

import random
from typing import Any

import click
from cryptography.hazmat.primitives.asymmetric import rsa as crsa

from pka.cli import (BACKEND_OPT, ENGINE_OPT, JSON_OPT, PARAM_OPT, SEED_OPT, cli, emit, engine_params, fmt_params,
                     hexs, progress_display, read_input, withhold, write_output)
from pka.errors import PkaError, Status
from pka.proto import keys
from pka.proto import rsa as proto_rsa
from pka.proto.backend import get

DEFAULT_MESSAGE = b"pka: open public-key accelerator"
HASH_OPT = click.option("--hash", "hash_name", type=click.Choice(list(proto_rsa.HASHES)), default="sha256",
                        show_default=True)


def parse_signature(data: bytes) -> bytes:
    """A signature file: raw bytes, or the hex text `pka rsa sign` prints (0x-hex or bare)."""
    text = data.strip()
    try:
        t = text.decode("ascii")
        if t.lower().startswith("0x"):
            t = t[2:]
        if t and all(ch in "0123456789abcdefABCDEF" for ch in t) and len(t) % 2 == 0:
            return bytes.fromhex(t)
    except UnicodeDecodeError:
        pass
    return data


@cli.group()
def rsa() -> None:
    """RSA signatures (PKCS#1 v1.5 or PSS) with the private-key operation on an engine."""


@rsa.command("sign")
@click.option("--key", "key_path", default=None, help="private key file (PEM or DER)")
@click.option("--bits", type=int, default=None, help="make up a key of this size instead (reproducible with --seed)")
@SEED_OPT
@click.option("--in", "in_path", default=None, help="message file ('-': stdin; default: a fixed text)")
@click.option("--crt/--no-crt", default=True, show_default=True, help="CRT (p, q halves) or one exponentiation mod n")
@click.option("--pss", is_flag=True, help="RSASSA-PSS (salt = hash length, MGF1 with the same hash)")
@HASH_OPT
@ENGINE_OPT
@PARAM_OPT
@BACKEND_OPT
@click.option("--out", "out_path", default=None, help="write the signature bytes to this file")
@click.option("--save-key", "save_key", default=None, help="write the (made-up) private key to this file")
@JSON_OPT
def rsa_sign(key_path: str | None, bits: int | None, seed: int | None, in_path: str | None, crt: bool, pss: bool,
             hash_name: str, engine_name: str, param_items: tuple[str, ...], backend: str, out_path: str | None,
             save_key: str | None, as_json: bool) -> None:
    """Sign on an engine; `cryptography` checks the signature: a failed check (or the hardware's own
    check, ERR_FAULT) prints no signature and exits 2 with the error."""
    if (key_path is None) == (bits is None):
        raise PkaError(Status.ERR_PARAM, "give --key FILE or --bits B (with --seed S to make it reproducible)")
    if key_path is not None:
        key = keys.load_key(key_path)
        if not isinstance(key, crsa.RSAPrivateKey):
            raise keys.KeyFileError(f"{key_path}: not an RSA private key")
    else:
        assert bits is not None
        key = keys.rsa_key(bits, seed)
    if save_key:
        keys.save_key(key, save_key)
    engine, params = engine_params(engine_name, param_items)
    message = read_input(in_path, "--in") if in_path else DEFAULT_MESSAGE
    salt = None
    if pss and seed is not None:
        import hashlib
        salt = random.Random(seed).randbytes(hashlib.new(hash_name).digest_size)
    impl = get(engine.name, backend)
    nbits = key.key_size
    with progress_display(backend == "rtl", f"RSA-{nbits} on {engine.name} ({backend})") as tick:
        sig = proto_rsa.sign(key, message, impl, params, crt, progress=tick, pss=pss, hash_name=hash_name, salt=salt)
    if not sig.verified:
        # never print or write an unverified signature (issue 13): the error path, exit 2
        raise withhold(f"RSA-{nbits} signature")
    if out_path:
        write_output(out_path, sig.signature, "--out")
    data: dict[str, Any] = {
        "signature": hexs(int.from_bytes(sig.signature, "big")), "verified": sig.verified,
        "public_key": keys.public_json(key), "bits": nbits, "padding": "pss" if pss else "pkcs1v15",
        "hash": hash_name, "crt": crt, "engine": engine.name, "params": params, "backend": backend,
        "cycles": sig.cycles, "detail": sig.detail}
    emit(data, as_json, [
        ("signature", data["signature"]),
        ("verified", "yes (by cryptography)"),
        ("cycles", sig.cycles),
        ("key", f"RSA-{nbits}, e = {key.public_key().public_numbers().e}"),
        ("scheme", f"{data['padding']} {hash_name}{', CRT' if crt else ''} ({sig.detail.get('path', '')})"),
        ("engine", f"{engine.name} {fmt_params(params)} ({backend})"),
    ], f"RSA-{nbits} signature")


@rsa.command("verify")
@click.option("--key", "key_path", required=True, help="RSA public or private key file (PEM or DER)")
@click.option("--in", "in_path", required=True, help="message file ('-': stdin)")
@click.option("--sig", "sig_path", required=True, help="signature file (raw bytes or hex)")
@click.option("--pss", is_flag=True, help="RSASSA-PSS")
@HASH_OPT
@ENGINE_OPT
@PARAM_OPT
@BACKEND_OPT
@JSON_OPT
def rsa_verify(key_path: str, in_path: str, sig_path: str, pss: bool, hash_name: str, engine_name: str,
               param_items: tuple[str, ...], backend: str, as_json: bool) -> None:
    """s^e mod n on an engine and the encoding on the host; prints valid (exit 0 either way)."""
    key = keys.load_key(key_path)
    pub = keys.public_of(key)
    if not isinstance(pub, crsa.RSAPublicKey):
        raise keys.KeyFileError(f"{key_path}: not an RSA key")
    message = read_input(in_path, "--in")
    sig = parse_signature(read_input(sig_path, "--sig"))
    engine, params = engine_params(engine_name, param_items)
    impl = get(engine.name, backend)
    with progress_display(backend == "rtl", f"RSA verify on {engine.name} ({backend})") as tick:
        v = proto_rsa.verify(pub, message, sig, impl, params, pss, hash_name, tick)
    data = {"valid": v.valid, "cryptography": v.cryptography, "public_key": keys.public_json(pub),
            "padding": "pss" if pss else "pkcs1v15", "hash": hash_name, "engine": engine.name, "params": params,
            "backend": backend, "cycles": v.cycles, "detail": v.detail}
    emit(data, as_json, [("valid", v.valid), ("cryptography agrees", v.cryptography == v.valid),
                         ("cycles", v.cycles), ("engine", f"{engine.name} {fmt_params(params)} ({backend})")],
         "RSA verification")
