"""`pka keygen rsa|ec`: keys into PEM or DER files (through `cryptography`), reproducible with --seed."""

from __future__ import annotations

from typing import Any

import click

from pka.cli import BACKEND_OPT, JSON_OPT, PARAM_OPT, SEED_OPT, cli, emit, engine_params, fmt_params, progress_display
from pka.proto import keys

FORMAT_OPT = click.option("--format", "fmt", type=click.Choice(["pem", "der"]), default=None,
                          help="file format (default: from the extension, .der = DER, else PEM)")


@cli.group()
def keygen() -> None:
    """Make a key pair and write it (private key PKCS#8, public key SubjectPublicKeyInfo)."""


@keygen.command("rsa")
@click.option("--bits", type=int, default=2048, show_default=True, help="modulus size (even, 512..8192)")
@SEED_OPT
@click.option("--e", "e", type=int, default=65537, show_default=True, help="public exponent")
@click.option("--out", "out_path", required=True, help="private key file")
@click.option("--pub", "pub_path", default=None, help="also write the public key to this file")
@FORMAT_OPT
@JSON_OPT
def keygen_rsa(bits: int, seed: int | None, e: int, out_path: str, pub_path: str | None, fmt: str | None,
               as_json: bool) -> None:
    """RSA: primes from random.Random(seed) + gmpy2.next_prime with --seed, else fresh."""
    key = keys.rsa_key(bits, seed, e)
    f = keys.save_key(key, out_path, fmt)
    if pub_path:
        keys.save_key(key.public_key(), pub_path, fmt)
    data: dict[str, Any] = {"public_key": keys.public_json(key), "out": out_path, "pub": pub_path, "format": f,
                            "seed": seed}
    emit(data, as_json, [("key", f"RSA-{key.key_size}, e = {e}"), ("n", data["public_key"]["n"]),
                         ("written", f"{out_path} ({f})" + (f", {pub_path}" if pub_path else ""))], "RSA key")


@keygen.command("ec")
@click.option("--curve", "curve_text", required=True, help="P-256 (secp256r1, prime256v1) or P-384 (secp384r1)")
@SEED_OPT
@click.option("--out", "out_path", required=True, help="private key file")
@click.option("--pub", "pub_path", default=None, help="also write the public key to this file")
@FORMAT_OPT
@PARAM_OPT
@BACKEND_OPT
@JSON_OPT
def keygen_ec(curve_text: str, seed: int | None, out_path: str, pub_path: str | None, fmt: str | None,
              param_items: tuple[str, ...], backend: str, as_json: bool) -> None:
    """EC: d from random.Random(seed) with --seed, else fresh; Q = d G on the rns engine (two
    ladders and y recovery), checked by `cryptography`."""
    from cryptography.hazmat.primitives.asymmetric import ec

    from pka.proto import ecdsa
    from pka.proto.backend import get

    name = keys.curve_name(curve_text)
    ecdsa.check_curve(name)
    _, params = engine_params("rns", param_items, ("w=32",))
    with progress_display(backend == "rtl", f"{name} key pair on rns ({backend})") as tick:
        kp = ecdsa.keygen(get("rns", backend), name, params, seed, tick)
    key = ec.derive_private_key(kp.d, keys.crypto_curve(name))
    f = keys.save_key(key, out_path, fmt)
    if pub_path:
        keys.save_key(key.public_key(), pub_path, fmt)
    data: dict[str, Any] = {"public_key": keys.public_json(key), "out": out_path, "pub": pub_path, "format": f,
                            "seed": seed, "engine": "rns", "params": params, "backend": backend, "cycles": kp.cycles,
                            "detail": kp.detail}
    emit(data, as_json, [("curve", name), ("x", data["public_key"]["x"]), ("y", data["public_key"]["y"]),
                         ("cycles", kp.cycles), ("engine", f"rns {fmt_params(params)} ({backend})"),
                         ("written", f"{out_path} ({f})" + (f", {pub_path}" if pub_path else ""))], f"{name} key pair")
