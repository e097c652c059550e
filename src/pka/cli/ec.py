"""`pka ecc`, `pka ecdh`, `pka ecdsa sign|verify`, `pka x25519`: elliptic curves on the rns engine."""

from __future__ import annotations

import random
from typing import Any

import click
from cryptography.hazmat.primitives.asymmetric import ec as cec

from pka.cli import (BACKEND_OPT, JSON_OPT, PARAM_OPT, SEED_OPT, cli, emit, engine_params, fmt_params, hexs,
                     operand_text, parse_int, progress_display, read_input, withhold, write_output)
from pka.errors import PkaError, Status
from pka.proto import ecdh as proto_ecdh
from pka.proto import ecdsa as proto_ecdsa
from pka.proto import keys
from pka.proto import x25519 as proto_x25519
from pka.proto.backend import Backend, get

CURVE_HELP = f"curve: {keys.CURVE_SPELLINGS}"
EC_ENGINE_OPT = click.option("--engine", "engine_name", default="rns", show_default=True,
                             help="engine (curves run on rns only)")
DEFAULT_MESSAGE = b"pka: open public-key accelerator"


def _ec_backend(engine_name: str, param_items: tuple[str, ...], curve: str | None, backend: str
                ) -> tuple[Backend, dict[str, Any]]:
    if engine_name != "rns":
        raise PkaError(Status.ERR_UNSUPPORTED, f"elliptic curves run on the rns engine, not {engine_name}")
    w = proto_ecdh.curve(curve).w if curve else 32   # the channel width the curve was generated for
    _, params = engine_params("rns", param_items, (f"w={w}",))
    return get("rns", backend), params


def _curve_of_key(key: Any, curve_text: str | None, what: str) -> str:
    name = keys.key_curve(key)
    if curve_text is not None and keys.curve_name(curve_text) != name:
        raise PkaError(Status.ERR_PARAM, f"--curve {curve_text} disagrees with {what} ({name})")
    return name


def _scalar(scalar_text: str | None, seed: int | None, order: int) -> int:
    if scalar_text is not None:
        return parse_int(scalar_text, "scalar")
    if seed is None:
        raise PkaError(Status.ERR_PARAM, "give --scalar K (or --seed S to make one up)")
    return random.Random(seed).randrange(1, order)


def _common_json(engine: str, params: dict[str, Any], backend: str, cycles: Any, detail: Any) -> dict[str, Any]:
    return {"engine": engine, "params": params, "backend": backend, "cycles": cycles, "detail": detail}


@cli.command()
@click.option("--curve", "curve_text", default="P-256", show_default=True, help=CURVE_HELP)
@click.option("--scalar", "scalar_text", default=None, help="scalar k in [1, order)")
@SEED_OPT
@EC_ENGINE_OPT
@PARAM_OPT
@BACKEND_OPT
@JSON_OPT
def ecc(curve_text: str, scalar_text: str | None, seed: int | None, engine_name: str, param_items: tuple[str, ...],
        backend: str, as_json: bool) -> None:
    """x-coordinate of k*G by the (X,Z) Montgomery ladder (rns)."""
    name = keys.curve_name(curve_text)
    be, params = _ec_backend(engine_name, param_items, name, backend)
    k = _scalar(scalar_text, seed, proto_ecdh.curve(name).order)
    with progress_display(backend == "rtl", f"{name} k*G on rns ({backend})") as tick:
        res = proto_ecdh.scalar_mult(be, name, k, params, None, tick)
    ref = proto_ecdh.reference_x(name, k)
    if ref is not None and ref != res.result:
        raise withhold(f"{name} k*G")
    data: dict[str, Any] = {"curve": name, "x": hexs(res.result)}
    if ref is not None:
        data["verified"] = True
    data.update(_common_json("rns", params, backend, res.cycles, res.detail))
    emit(data, as_json, [("x", data["x"]), ("cycles", res.cycles),
                         ("verified", "yes (by cryptography)" if ref is not None else "n/a"),
                         ("engine", f"rns {fmt_params(params)} ({backend})")], f"{name} k*G")


@cli.command()
@click.option("--curve", "curve_text", default=None, help=CURVE_HELP + " (default: the key's, else P-256)")
@click.option("--scalar", "scalar_text", default=None, help="our private scalar k")
@click.option("--key", "key_path", default=None, help="our private key file (instead of --scalar)")
@click.option("--peer-x", "peer_x", default=None, help="peer public point x")
@click.option("--peer-y", "peer_y", default=None, help="peer public point y")
@click.option("--peer", "peer_path", default=None, help="peer public (or private) key file")
@EC_ENGINE_OPT
@PARAM_OPT
@BACKEND_OPT
@JSON_OPT
def ecdh(curve_text: str | None, scalar_text: str | None, key_path: str | None, peer_x: str | None,
         peer_y: str | None, peer_path: str | None, engine_name: str, param_items: tuple[str, ...], backend: str,
         as_json: bool) -> None:
    """ECDH: validate the peer's point, then the shared x = x(k * peer)."""
    our_pub: dict[str, Any] | None = None
    name = keys.curve_name(curve_text) if curve_text else None
    if key_path is not None:
        key = keys.load_key(key_path)
        if not isinstance(key, cec.EllipticCurvePrivateKey):
            raise keys.KeyFileError(f"{key_path}: not an EC private key")
        name = _curve_of_key(key, curve_text, key_path)
        k = key.private_numbers().private_value
        our_pub = keys.public_json(key)
    elif scalar_text is not None:
        k = parse_int(scalar_text, "scalar")
    else:
        raise PkaError(Status.ERR_PARAM, "give --scalar K or --key FILE")
    if peer_path is not None:
        pkey = keys.public_of(keys.load_key(peer_path))
        if not isinstance(pkey, cec.EllipticCurvePublicKey):
            raise keys.KeyFileError(f"{peer_path}: not an EC key")
        pname = keys.key_curve(pkey)
        if name is not None and pname != name:
            raise PkaError(Status.ERR_PARAM, f"the peer's key is on {pname}, ours on {name}")
        name = pname
        pn = pkey.public_numbers()
        peer = (pn.x, pn.y)
    elif peer_x is not None and peer_y is not None:
        peer = (parse_int(peer_x, "peer-x"), parse_int(peer_y, "peer-y"))
    else:
        raise PkaError(Status.ERR_PARAM, "give --peer FILE or --peer-x X --peer-y Y")
    name = name or "p256"
    c = proto_ecdh.curve(name)
    if not 1 <= k < c.order:
        raise PkaError(Status.ERR_OPERAND_RANGE, "scalar must be in [1, order)")
    be, params = _ec_backend(engine_name, param_items, name, backend)
    with progress_display(backend == "rtl", f"{name} ECDH on rns ({backend})") as tick:
        res = proto_ecdh.ecdh(be, name, k, peer, params, tick)
    ref = proto_ecdh.reference_x(name, k, peer)
    if ref is not None and ref != res.result:
        raise withhold(f"{name} ECDH shared secret")
    data: dict[str, Any] = {"curve": name, "x": hexs(res.result)}
    if ref is not None:
        data["verified"] = True
    data["peer"] = {"x": hexs(peer[0]), "y": hexs(peer[1])}
    if our_pub is not None:
        data["public_key"] = our_pub
    data.update(_common_json("rns", params, backend, res.cycles, res.detail))
    emit(data, as_json, [("shared x", data["x"]), ("cycles", res.cycles),
                         ("verified", "yes (by cryptography)" if ref is not None else "n/a"),
                         ("engine", f"rns {fmt_params(params)} ({backend})")], f"{name} ECDH")


# ---- ECDSA ----------------------------------------------------------------------------------------------

@cli.group()
def ecdsa() -> None:
    """ECDSA P-256/P-384: k*G (and verification's ladders) on the rns engine; signing with --backend rtl
    and a random nonce is the accelerator's ECDSA_SIGN (nonce, k^-1 and d stay inside)."""


@ecdsa.command("sign")
@click.option("--key", "key_path", default=None, help="EC private key file (PEM or DER); the curve comes from it")
@click.option("--curve", "curve_text", default=None, help=CURVE_HELP + " (must agree with the key; "
                                                                       "with --seed and no key: the made-up key's)")
@SEED_OPT
@click.option("--in", "in_path", default=None, help="message file ('-': stdin; default: a fixed text)")
@click.option("--hash", "hash_name", type=click.Choice(list(proto_ecdsa.HASHES)), default=None,
              help="default: SHA-256 for P-256, SHA-384 for P-384")
@click.option("--nonce", type=click.Choice(["random", "rfc6979"]), default="random", show_default=True,
              help="random (HMAC-DRBG from the OS entropy, or --seed; with --backend rtl: the accelerator's "
                   "ECDSA_SIGN, its entropy port seeded by --seed in simulation) or RFC 6979 deterministic (on the host)")
@click.option("--out", "out_path", default=None, help="write the DER signature to this file")
@EC_ENGINE_OPT
@PARAM_OPT
@BACKEND_OPT
@JSON_OPT
def ecdsa_sign(key_path: str | None, curve_text: str | None, seed: int | None, in_path: str | None,
               hash_name: str | None, nonce: str, out_path: str | None, engine_name: str, param_items: tuple[str, ...],
               backend: str, as_json: bool) -> None:
    """Sign; `cryptography` checks the signature: a failed check prints and writes no signature and
    exits 2 (ERR_FAULT)."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes

    if key_path is not None:
        key = keys.load_key(key_path)
        if not isinstance(key, cec.EllipticCurvePrivateKey):
            raise keys.KeyFileError(f"{key_path}: not an EC private key")
        name = _curve_of_key(key, curve_text, key_path)
    elif seed is not None:
        name = keys.curve_name(curve_text or "P-256")
        key = keys.ec_key(name, seed)
    else:
        raise PkaError(Status.ERR_PARAM, "give --key FILE (or --seed S to make up a key)")
    proto_ecdsa.check_curve(name)
    h = hash_name or proto_ecdsa.DEFAULT_HASH[name]
    message = read_input(in_path, "--in") if in_path else DEFAULT_MESSAGE
    be, params = _ec_backend(engine_name, param_items, name, backend)
    d = key.private_numbers().private_value
    where = "ECDSA_SIGN on rns + hscm" if backend == "rtl" else "ECDSA sign on rns"
    with progress_display(backend == "rtl", f"{name} {where} ({backend})") as tick:
        sig = proto_ecdsa.sign(be, name, d, message, params, nonce, seed, h, tick)
    der = sig.der
    try:
        key.public_key().verify(der, message, cec.ECDSA(getattr(hashes, h.upper())()))
    except InvalidSignature:
        # never print or write an unverified signature (as `pka rsa sign`): the error path, exit 2
        raise withhold(f"{name} ECDSA signature") from None
    if out_path:
        write_output(out_path, der, "--out")
    data: dict[str, Any] = {"r": hexs(sig.r), "s": hexs(sig.s), "der": "0x" + der.hex(), "verified": True,
                            "curve": name, "hash": h, "nonce": nonce, "public_key": keys.public_json(key)}
    data.update(_common_json("rns", params, backend, sig.cycles, sig.detail))
    emit(data, as_json, [("r", data["r"]), ("s", data["s"]), ("der", data["der"]),
                         ("verified", "yes (by cryptography)"), ("cycles", sig.cycles),
                         ("path", sig.detail["path"]), ("engine", f"rns {fmt_params(params)} ({backend})")],
         f"{name} ECDSA signature ({h}, {nonce} nonce)")


@ecdsa.command("verify")
@click.option("--key", "key_path", required=True, help="EC public or private key file (PEM or DER)")
@click.option("--curve", "curve_text", default=None, help=CURVE_HELP + " (must agree with the key)")
@click.option("--in", "in_path", required=True, help="message file ('-': stdin)")
@click.option("--sig", "sig_path", required=True, help="DER signature file")
@click.option("--hash", "hash_name", type=click.Choice(list(proto_ecdsa.HASHES)), default=None,
              help="default: SHA-256 for P-256, SHA-384 for P-384")
@EC_ENGINE_OPT
@PARAM_OPT
@BACKEND_OPT
@JSON_OPT
def ecdsa_verify(key_path: str, curve_text: str | None, in_path: str, sig_path: str, hash_name: str | None,
                 engine_name: str, param_items: tuple[str, ...], backend: str, as_json: bool) -> None:
    """Verify (u1 G + u2 Q from the engine's ladders); prints valid, exit 0 either way (a malformed
    signature encoding is invalid, not an error)."""
    key = keys.public_of(keys.load_key(key_path))
    if not isinstance(key, cec.EllipticCurvePublicKey):
        raise keys.KeyFileError(f"{key_path}: not an EC key")
    name = _curve_of_key(key, curve_text, key_path)
    proto_ecdsa.check_curve(name)
    h = hash_name or proto_ecdsa.DEFAULT_HASH[name]
    message = read_input(in_path, "--in")
    der = read_input(sig_path, "--sig")
    pn = key.public_numbers()
    rs = proto_ecdsa.der_decode(der)
    be, params = _ec_backend(engine_name, param_items, name, backend)
    if rs is None:
        v = proto_ecdsa.VerifyResult(False, 0, "malformed DER signature")
    else:
        with progress_display(backend == "rtl", f"{name} ECDSA verify on rns ({backend})") as tick:
            v = proto_ecdsa.verify(be, name, (pn.x, pn.y), message, rs[0], rs[1], params, h, tick)
    data: dict[str, Any] = {"valid": v.valid, "reason": v.reason, "curve": name, "hash": h,
                            "public_key": keys.public_json(key)}
    data.update(_common_json("rns", params, backend, v.cycles, v.detail))
    emit(data, as_json, [("valid", v.valid), ("reason", v.reason or "-"), ("cycles", v.cycles),
                         ("engine", f"rns {fmt_params(params)} ({backend})")], f"{name} ECDSA verification")


# ---- X25519 ----------------------------------------------------------------------------------------------

@cli.command()
@click.option("--scalar", "scalar_text", default=None,
              help="32-byte scalar, hex as in RFC 7748 (little-endian); @FILE, - for stdin")
@click.option("--u", "u_text", default=None,
              help="32-byte u-coordinate, RFC 7748 hex (default: the base point 9); @FILE, - for stdin")
@SEED_OPT
@click.option("--iterations", type=int, default=1, show_default=True,
              help="RFC 7748 5.2's iteration: k, u <- X25519(k, u), k (for its 1 and 1,000 vectors)")
@EC_ENGINE_OPT
@PARAM_OPT
@BACKEND_OPT
@JSON_OPT
def x25519(scalar_text: str | None, u_text: str | None, seed: int | None, iterations: int, engine_name: str,
           param_items: tuple[str, ...], backend: str, as_json: bool) -> None:
    """X25519 (RFC 7748) on the rns ladder; an all-zero result (low-order u) is an error (RFC 7748 6.1)."""
    if scalar_text is not None:
        k = proto_x25519.parse32(operand_text(scalar_text, "scalar"), "scalar")
    elif seed is not None:
        k = random.Random(seed).randbytes(32)
    else:
        raise PkaError(Status.ERR_PARAM, "give --scalar HEX (or --seed S to make one up)")
    u = proto_x25519.parse32(operand_text(u_text, "u"), "u") if u_text is not None else proto_x25519.BASE_U
    if iterations < 1:
        raise PkaError(Status.ERR_PARAM, "--iterations must be at least 1")
    be, params = _ec_backend(engine_name, param_items, None, backend)
    k0, u0 = k, u
    cycles = 0
    with progress_display(backend == "rtl", f"X25519 on rns ({backend})") as tick:
        for _ in range(iterations):
            out, res = proto_x25519.x25519(be, k, u, params, tick)
            cycles += res.cycles or 0
            if iterations > 1:
                k, u = out, k
    result = k if iterations > 1 else out
    proto_x25519.check_shared(result)
    data: dict[str, Any] = {"result": result.hex(), "scalar": k0.hex(), "u": u0.hex(), "iterations": iterations}
    if iterations == 1:
        from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
        theirs = X25519PrivateKey.from_private_bytes(k).exchange(X25519PublicKey.from_public_bytes(u))
        if theirs != out:
            raise withhold("X25519")
        data["verified"] = True
    data.update(_common_json("rns", params, backend, res.cycles, res.detail))
    if iterations > 1:
        data["total_cycles"] = cycles
    emit(data, as_json, [("result", data["result"]), ("cycles", res.cycles),
                         ("verified", "yes (by cryptography)" if "verified" in data else "n/a"),
                         ("engine", f"rns {fmt_params(params)} ({backend})")], "X25519 (RFC 7748)")
