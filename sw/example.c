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
