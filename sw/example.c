/* SPDX-License-Identifier: Apache-2.0
 * example.c: using the pka C driver: Montgomery parameters, modular addition and subtraction modulo
 * p = 2^255 - 19, a modular exponentiation when the build has an engine for it, and ZEROIZE.
 * Prints one line per result ("name value", value in hex, most significant word first).
 *
 * On a CPU with the accelerator mapped at PKA_BASE: cc -DPKA_BASE=0x40000000 example.c pka.c
 * Against the simulated RTL: tb/pka_top/top_harness.cpp links it (tests/test_top_sw.py).
 */
#include <stdio.h>

#include "pka.h"

#define NW 8

static void show(const char *name, const uint32_t *w, unsigned n) {
  printf("%s ", name);
  while (n--) printf("%08x", (unsigned)w[n]);
  printf("\n");
}

/* r_bits: the Montgomery exponent of the engine that serves MODEXP (doc/top.md), 0 if none needed */
int pka_example_run(const pka_bus_t *bus, unsigned r_bits) {
  static const uint32_t p[NW] = {0xffffffed, 0xffffffff, 0xffffffff, 0xffffffff,
                                 0xffffffff, 0xffffffff, 0xffffffff, 0x7fffffff};
  static const uint32_t a[NW] = {0x01234567, 0x89abcdef, 0xdeadbeef, 0x00c0ffee,
                                 0x13579bdf, 0x2468ace0, 0xfedcba98, 0x76543210};
  static const uint32_t b[NW] = {0xffffffec, 0xffffffff, 0xffffffff, 0xffffffff,
                                 0xffffffff, 0xffffffff, 0xffffffff, 0x7fffffff}; /* p - 1 */
  static const uint32_t e[1] = {65537};
  uint32_t r[NW];
  uint64_t mu;
  pka_dev_t dev;
  int st = pka_init(&dev, bus);
  if (st) {
    printf("error init %d\n", st);
    return 1;
  }
  printf("max_len %u\n", (unsigned)dev.max_len);
  if ((st = pka_mont_params(&dev, r, &mu, p, 255, 256)) != 0) return printf("error mont_params %d\n", st), 1;
  show("r2", r, NW);
  printf("mu %016llx\n", (unsigned long long)mu);
  printf("cycles %u\n", (unsigned)dev.cycles);
  if ((st = pka_modadd(&dev, r, a, b, p, 255)) != 0) return printf("error modadd %d\n", st), 1;
  show("add", r, NW);
  if ((st = pka_modsub(&dev, r, a, b, p, 255)) != 0) return printf("error modsub %d\n", st), 1;
  show("sub", r, NW);
  /* an error on purpose: a + b with b >= p */
  st = pka_modadd(&dev, r, a, p, p, 255);
  printf("range_status %d\n", st);
  if (pka_serves(&dev, PKA_OP_MODEXP)) {
    if ((st = pka_modexp(&dev, r, a, e, 17, p, 255, r_bits)) != 0) return printf("error modexp %d\n", st), 1;
    show("exp", r, NW);
  }
  if (pka_serves(&dev, PKA_OP_RSA_CRT) && dev.max_len >= 512) {
    /* an RSA-512 CRT signature with a fixed test key (made by pka.model.common.CrtKey.from_pq from
       seeded primes; public test data, never a real key): the key's constants are made inside the
       accelerator, the signature is checked with e before it is released */
    static const uint32_t rsa_n[16] = {
      0xdde89945, 0x8cf998b3, 0xd89ffebf, 0x74cf9470, 0xe2310722, 0x879588a3, 0x05a63492, 0x5b212bd8,
      0xa98a5b93, 0x1d950eaa, 0xf8546fa7, 0xee6a1a16, 0x2accc854, 0xe33e764f, 0xc7d7f949, 0xe096c55f};
    static const uint32_t rsa_p[8] = {0x1e7ea4c5, 0x51c9bc70, 0x80a4df5a, 0xf38b2ffc,
                                      0x8306d03b, 0xa5aec797, 0xdc28ff90, 0xf3f49249};
    static const uint32_t rsa_q[8] = {0x1a466a81, 0xe255accb, 0x39292d22, 0xe5121482,
                                      0x99dd251d, 0x9f199504, 0x8e7aa6e9, 0xebad6be2};
    static const uint32_t rsa_dp[8] = {0x54c83321, 0x6488c705, 0xc075c3c6, 0x29235650,
                                       0x10fc86b6, 0xe41e0758, 0x3b212f39, 0x626ba139};
    static const uint32_t rsa_dq[8] = {0x08a56981, 0x9bc1a1e9, 0xe552f0ad, 0x83ac80f1,
                                       0xd7a90e0a, 0x507eeee7, 0xbda6d721, 0x23edb93f};
    static const uint32_t rsa_qinv[8] = {0x34d0348c, 0x52f90ceb, 0xc1c18290, 0x10d9ab66,
                                         0xa55cdda0, 0x0b61ab1a, 0xba24db98, 0xdc576e1e};
    static const uint32_t rsa_m[16] = {
      0xc88b2875, 0x9293de8f, 0x8c3d5f16, 0xd7a7a3cc, 0xbb049a79, 0xc6cd75e9, 0xc4a334bf, 0x7dabe929,
      0xc0433cbd, 0xc5e818fa, 0x96263ae6, 0x70eb9a0a, 0x3d6c51e3, 0x00a61f93, 0x9d3c7dec, 0x14aa4e71};
    static const uint32_t rsa_e[1] = {65537};
    static const uint32_t bad_e[1] = {3};
    const pka_rsa_key_t key = {rsa_n, 512, rsa_p, 256, rsa_q, 256, rsa_dp, rsa_dq, rsa_qinv, rsa_e, 17};
    pka_rsa_key_t wrong = key;
    uint32_t s[16];
    if ((st = pka_rsa_load_key(&dev, &key)) != 0) return printf("error rsa_load_key %d\n", st), 1;
    if ((st = pka_rsa_crt(&dev, s, rsa_m, &key, 0)) != 0) return printf("error rsa_crt %d\n", st), 1;
    show("crt", s, 16);
    printf("crt_compute %u\n", (unsigned)dev.compute);
    if ((st = pka_rsa_crt(&dev, s, rsa_m, &key, 0)) != 0) return printf("error rsa_crt %d\n", st), 1;
    printf("crt_again %u\n", (unsigned)dev.compute);
    /* the result check can fail: with a wrong e the signature is withheld (ERR_FAULT, reads 0) */
    wrong.e = bad_e;
    wrong.ebits = 2;
    if ((st = pka_rsa_load_key(&dev, &wrong)) != 0) return printf("error rsa_load_key %d\n", st), 1;
    st = pka_rsa_crt(&dev, s, rsa_m, &wrong, 0);
    printf("crt_fault_status %d\n", st);
  }
  if ((st = pka_zeroize(&dev)) != 0) return printf("error zeroize %d\n", st), 1;
  pka_read_operand(&dev, PKA_SLOT_A, r, NW);
  show("zeroized", r, NW);
  return 0;
}

#ifdef PKA_BASE
int main(void) {
  pka_bus_t bus;
  pka_mmio_bus(&bus, (volatile void *)(uintptr_t)PKA_BASE);
  return pka_example_run(&bus, 0);
}
#endif
