/* SPDX-License-Identifier: Apache-2.0
 * main.c: the pka_soc program: an RSA signature without CRT (s = m^d mod n), a MODADD, an RSA CRT
 * signature (hscm RSA_CRT) and k P on P-256 (rns ECC_MUL) on pka_top, through the C driver (sw/pka.c),
 * with the CPU's cycle counts.
 *
 * The host (soc/run.py) puts the operands in the job block (job.h) and checks what is printed:
 *   info <key>=<value> ...
 *   op <name> status=<code> cpu=<CPU cycles of the whole call> cycles=<CYCLES> compute=<COMPUTE> io=<IO>
 *   result <name> 0x<hex>
 *   bench <name> words=<n> cpu=<CPU cycles>
 *   end failures=<n>
 * "cpu" is rdcycle after minus before the driver call: operand writes, the command, the wait
 * (waitirq on pka_top's interrupt line, or polling), the counters and the result read. CYCLES,
 * COMPUTE and IO are pka_top's counters of the call's last command (doc/top.md). main returns the
 * number of failed steps, which crt0 writes to sysctl EXIT. */
#include <stdint.h>

#include "job.h"
#include "pka.h"
#include "print.h"
#include "soc.h"

static pka_dev_t dev;
static uint32_t result[SOC_JOB_WORDS];

/* the driver's wait_irq: sleep in waitirq until pka_top's line is high (INTR_STATE.DONE) */
static void wait_pka_irq(void *ctx) {
  (void)ctx;
  while (!(soc_waitirq() & (1u << SOC_PKA_IRQ))) {
  }
}

static unsigned words_for(unsigned bits) { return bits ? (bits + 31u) / 32u : 1u; }

/* MODEXP with a sliding window (hscm: ARG = window); the driver's pka_modexp always passes ARG = 0.
 * Same steps as pka_modexp with r_bits = 0 (SLOT_W already holds the engine's W for n). */
static int fw_modexp_window(pka_dev_t *d, uint32_t *r, const uint32_t *base, const uint32_t *exp,
                            unsigned ebits, const uint32_t *n, unsigned nbits, unsigned window) {
  unsigned nw = words_for(nbits);
  int st;
  if ((st = pka_write_operand(d, PKA_SLOT_N, n, nw)) != 0) return st;
  if ((st = pka_write_operand(d, PKA_SLOT_A, base, nw)) != 0) return st;
  if ((st = pka_write_operand(d, PKA_SLOT_E, exp, words_for(ebits))) != 0) return st;
  if ((st = pka_run(d, PKA_OP_MODEXP, nbits, ebits, window, 0)) != 0) return st;
  return pka_read_operand(d, PKA_SLOT_R, r, nw);
}

/* The same MODEXP with the operands moved by plain volatile stores and loads to the slot windows
 * instead of the driver's per-word callback (pka_write_operand/pka_read_operand): what a block
 * transfer path in the driver would save. The command itself still goes through pka_run. */
static void mmio_copy_in(unsigned slot, const uint32_t *src, unsigned nwords) {
  volatile uint32_t *dst = (volatile uint32_t *)(SOC_PKA_BASE + 0x1000u * (1u + slot));
  for (unsigned i = 0; i < nwords; i++) dst[i] = src[i];
}

static void mmio_copy_out(unsigned slot, uint32_t *dst, unsigned nwords) {
  const volatile uint32_t *src = (const volatile uint32_t *)(SOC_PKA_BASE + 0x1000u * (1u + slot));
  for (unsigned i = 0; i < nwords; i++) dst[i] = src[i];
}

static int fw_modexp_mmio(pka_dev_t *d, uint32_t *r, const uint32_t *base, const uint32_t *exp,
                          unsigned ebits, const uint32_t *n, unsigned nbits) {
  unsigned nw = words_for(nbits);
  int st;
  if (nw > d->slot_words || words_for(ebits) > d->slot_words) return PKA_ERR_TOO_BIG;
  mmio_copy_in(PKA_SLOT_N, n, nw);
  mmio_copy_in(PKA_SLOT_A, base, nw);
  mmio_copy_in(PKA_SLOT_E, exp, words_for(ebits));
  if ((st = pka_run(d, PKA_OP_MODEXP, nbits, ebits, 0, 0)) != 0) return st;
  mmio_copy_out(PKA_SLOT_R, r, nw);
  return PKA_OK;
}

static unsigned failures;

static void bench(const char *name, unsigned words, uint32_t cpu) {
  print_str("bench ");
  print_str(name);
  print_str(" words=");
  print_dec(words);
  print_str(" cpu=");
  print_dec(cpu);
  print_char('\n');
}

/* Where the CPU's cycles go when it moves operands: the driver's calls (a callback per word) against
 * plain volatile loads and stores to the slot window, and the cost of rdcycle itself. */
static void bus_bench(const soc_job_t *job, unsigned nw) {
  volatile uint32_t *slot_a = (volatile uint32_t *)(SOC_PKA_BASE + 0x1000u * (1u + PKA_SLOT_A));
  volatile uint32_t *slot_r = (volatile uint32_t *)(SOC_PKA_BASE + 0x1000u * (1u + PKA_SLOT_R));
  uint32_t t0, t1;

  t0 = soc_rdcycle();
  t1 = soc_rdcycle();
  bench("rdcycle", 0, t1 - t0);
  t0 = soc_rdcycle();
  (void)pka_write_operand(&dev, PKA_SLOT_A, job->a, nw);
  t1 = soc_rdcycle();
  bench("driver_write", nw, t1 - t0);
  t0 = soc_rdcycle();
  (void)pka_read_operand(&dev, PKA_SLOT_R, result, nw);
  t1 = soc_rdcycle();
  bench("driver_read", nw, t1 - t0);
  t0 = soc_rdcycle();
  for (unsigned i = 0; i < nw; i++) slot_a[i] = job->a[i];
  t1 = soc_rdcycle();
  bench("mmio_store", nw, t1 - t0);
  t0 = soc_rdcycle();
  for (unsigned i = 0; i < nw; i++) result[i] = slot_r[i];
  t1 = soc_rdcycle();
  bench("mmio_load", nw, t1 - t0);
}

/* The decoder answers an address nobody claims with DECERR; sysctl counts it (the CPU cannot see
 * bus responses). Read one such address, expect the count to be 1, clear it. */
static void decerr_probe(void) {
  uint32_t before = SOC_BUSERR;
  uint32_t v = *(volatile uint32_t *)0x30000000u;
  uint32_t after = SOC_BUSERR;
  SOC_BUSERR = 0;
  print_str("info decerr_read=0x");
  print_hex32(v);
  print_str(" decerr_count=");
  print_dec(after - before);
  print_char('\n');
  if (v != 0 || after - before != 1) failures++;
}

static void report(const char *name, int st, uint32_t cpu) {
  print_str("op ");
  print_str(name);
  print_str(" status=");
  print_dec((uint32_t)st);
  print_str(" cpu=");
  print_dec(cpu);
  print_str(" cycles=");
  print_dec(dev.cycles);
  print_str(" compute=");
  print_dec(dev.compute);
  print_str(" io=");
  print_dec(dev.io);
  print_char('\n');
  if (st != PKA_OK) failures++;
}

static void show(const char *name, const uint32_t *words, unsigned nwords) {
  print_str("result ");
  print_str(name);
  print_char(' ');
  print_big(words, nwords);
  print_char('\n');
}

int main(void) {
  const soc_job_t *job = (const soc_job_t *)SOC_JOB_ADDR;
  pka_bus_t bus;
  uint32_t t0, t1;
  int st;

  print_str("pka_soc: PicoRV32 + pka_top, C driver sw/pka.c\n");
  if (job->magic != SOC_JOB_MAGIC) {
    print_str("error: no job block at 0xc000\n");
    return 1000;
  }
  const unsigned nbits = job->nbits, nw = words_for(nbits);

  pka_mmio_bus(&bus, (volatile void *)SOC_PKA_BASE);
  if (!(job->flags & SOC_JOB_POLL)) bus.wait_irq = wait_pka_irq;

  t0 = soc_rdcycle();
  st = pka_init(&dev, &bus);
  t1 = soc_rdcycle();
  report("init", st, t1 - t0);
  if (st != PKA_OK) return (int)failures;
  print_str("info max_len=");
  print_dec(dev.max_len);
  print_str(" slot_words=");
  print_dec(dev.slot_words);
  print_str(" engines=0x");
  print_hex32(dev.engines);
  print_str(" ops=0x");
  print_hex32(dev.ops);
  print_str(" nbits=");
  print_dec(nbits);
  print_str(" wait=");
  print_str(bus.wait_irq ? "irq" : "poll");
  print_char('\n');

  /* hscm: RSA without CRT (binary, by plain MMIO, windowed) and MODADD; off on a build without hscm */
  if (job->flags & SOC_JOB_RSA) {
    /* the per-key Montgomery constant W into SLOT_W (hscm: once per modulus) */
    t0 = soc_rdcycle();
    st = pka_mont_params(&dev, 0, 0, job->n, nbits, job->r_bits);
    t1 = soc_rdcycle();
    report("mont_params", st, t1 - t0);

    /* RSA signature without CRT: s = m^d mod n, W from mont_params (r_bits = 0: no second MONT_PARAMS) */
    t0 = soc_rdcycle();
    st = pka_modexp(&dev, result, job->m, job->d, job->ebits, job->n, nbits, 0);
    t1 = soc_rdcycle();
    report("modexp", st, t1 - t0);
    show("modexp", result, nw);

    t0 = soc_rdcycle();
    st = fw_modexp_mmio(&dev, result, job->m, job->d, job->ebits, job->n, nbits);
    t1 = soc_rdcycle();
    report("modexp_mmio", st, t1 - t0);
    show("modexp_mmio", result, nw);

    if (job->window) {
      t0 = soc_rdcycle();
      st = fw_modexp_window(&dev, result, job->m, job->d, job->ebits, job->n, nbits, job->window);
      t1 = soc_rdcycle();
      report("modexp_window", st, t1 - t0);
      show("modexp_window", result, nw);
    }

    t0 = soc_rdcycle();
    st = pka_modadd(&dev, result, job->a, job->b, job->n, nbits);
    t1 = soc_rdcycle();
    report("modadd", st, t1 - t0);
    show("modadd", result, nw);
  }

  /* RSA with the CRT key (hscm RSA_CRT): the key once into the write-only slots (the moduli first),
   * then two signatures: the first makes the key's constants inside the accelerator, the second
   * reuses them. Each is released only after s^e == m (SLOT_EPUB = e). */
  if (job->flags & SOC_JOB_CRT) {
    pka_rsa_key_t key = {job->n, nbits, job->p, job->pbits, job->q, job->qbits, job->dp, job->dq, job->qinv,
                         job->e, 32u * SOC_JOB_HALF};
    key.ebits = 0;
    for (unsigned i = SOC_JOB_HALF; i-- > 0 && !key.ebits;) {
      if (job->e[i]) key.ebits = 32u * i + 32u - (unsigned)__builtin_clz(job->e[i]);
    }
    t0 = soc_rdcycle();
    st = pka_rsa_load_key(&dev, &key);
    t1 = soc_rdcycle();
    report("rsa_load_key", st, t1 - t0);
    t0 = soc_rdcycle();
    st = pka_rsa_crt(&dev, result, job->m, &key, 0);
    t1 = soc_rdcycle();
    report("rsa_crt_first", st, t1 - t0);
    show("rsa_crt_first", result, nw);
    t0 = soc_rdcycle();
    st = pka_rsa_crt(&dev, result, job->m, &key, 0);
    t1 = soc_rdcycle();
    report("rsa_crt", st, t1 - t0);
    show("rsa_crt", result, nw);
  }

  /* k P on the rns engine (ECC_MUL): the curve's constants and the point as residue vectors from the
   * host's job block, the scalar plain; x and y of the result come back as residue vectors. */
  if (job->flags & SOC_JOB_ECC) {
    static uint32_t ry[SOC_JOB_RNS];
    const pka_rns_curve_t curve = {job->ecc_pbits, job->ecc_elen, job->ecc_channels, job->ecc_p_lo,
                                   job->ecc_table, job->ecc_table_words, job->ecc_w, job->ecc_consts,
                                   job->ecc_expo, job->ecc_order, job->ecc_blind_bits};
    const unsigned v = 2u * job->ecc_channels;
    t0 = soc_rdcycle();
    st = pka_ecc_mul_rns(&dev, result, ry, job->ecc_k, job->ecc_x, job->ecc_y, &curve);
    t1 = soc_rdcycle();
    report("ecc_mul", st, t1 - t0);
    show("ecc_mul_x", result, v);
    show("ecc_mul_y", ry, v);
  }

  if (job->flags & SOC_JOB_RSA) bus_bench(job, nw);
  decerr_probe();

  /* leave nothing behind: the exponent was in SLOT_E */
  t0 = soc_rdcycle();
  st = pka_zeroize(&dev);
  t1 = soc_rdcycle();
  report("zeroize", st, t1 - t0);

  print_str("info buserr=");
  print_dec(SOC_BUSERR);
  print_char('\n');
  if (SOC_BUSERR != 0) failures++;
  print_str("end failures=");
  print_dec(failures);
  print_char('\n');
  return (int)failures;
}
