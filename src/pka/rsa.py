"""Compatibility shim: RSA moved to pka.proto.rsa (pka.driver's demo and older tests import pka.rsa)."""

from pka.proto.rsa import *  # noqa: F401,F403
from pka.proto.rsa import SHA256_DIGESTINFO, Signature, call, crt_key, emsa_pkcs1_v15, generate_key, sign  # noqa: F401
