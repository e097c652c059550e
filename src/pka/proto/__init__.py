"""Protocols one layer above the backends (house style, "Where new work goes").

  backend   the one small interface every protocol calls: `get(engine, "model"|"rtl")`
  rsa       RSA keys (seeded or from files), PKCS#1 v1.5 and PSS signatures, verification
  ecdh      k*G and ECDH on the curves of the rns engine (P-256, P-384, the SBMM curves)
  x25519    RFC 7748 X25519 on the rns engine's Montgomery ladder (ECC_MUL ARG[2])
  ecdsa     ECDSA P-256/P-384: keys, signing (seeded DRBG or RFC 6979 nonces), verification
  keys      PEM/DER in and out through `cryptography`, curve names and their aliases
  ops       host references of the accelerator's own operations (doc/top.md op table)

A protocol never imports an engine: it gets a backend object and calls its functions
(modexp, modmul, rsa_crt, ecc_mul, ecc_mul_x), so the same code runs on a golden model and,
through pka.driver, on the simulated accelerator.
"""
