/* SPDX-License-Identifier: Apache-2.0
 * job.h: the block of operands the host puts into the RAM image beside the firmware (soc/run.py
 * writes it at SOC_JOB_ADDR with the same layout), so one firmware binary runs any key. */
#ifndef SOC_JOB_H
#define SOC_JOB_H

#include <stdint.h>

#define SOC_JOB_ADDR  0x0000C000u /* = __job in link.ld; the firmware's own RAM ends below it */
#define SOC_JOB_MAGIC 0x32424f4au /* "JOB2" */
#define SOC_JOB_WORDS 128u        /* words per operand: up to 4096 bits */
#define SOC_JOB_HALF  64u         /* words per CRT half (p, q, dp, dq, qinv) */
#define SOC_JOB_RNS   64u         /* words per rns residue vector (2n channels) */
#define SOC_JOB_TABLE 512u        /* words of the rns constant table (SLOT_X0) */
#define SOC_JOB_POLL  1u          /* flags: the driver polls (pka_bus_t.wait_irq = NULL) */
#define SOC_JOB_CRT   2u          /* flags: run the RSA CRT signature (p..qinv below) */
#define SOC_JOB_ECC   4u          /* flags: run ECC_MUL on rns (ecc_* below) */
#define SOC_JOB_RSA   8u          /* flags: run MONT_PARAMS, MODEXP (n, m, d), MODADD (a, b) on hscm */

typedef struct soc_job {
  uint32_t magic;    /* SOC_JOB_MAGIC */
  uint32_t nbits;    /* modulus bits */
  uint32_t ebits;    /* bits of the private exponent d */
  uint32_t r_bits;   /* the engine's Montgomery exponent for MONT_PARAMS (hscm: Geometry(n, 16).r_bits) */
  uint32_t window;   /* sliding window of a second MODEXP (hscm ARG), 0 = none */
  uint32_t flags;    /* SOC_JOB_POLL: wait by polling INTR_STATE instead of waitirq; SOC_JOB_RSA, _CRT, _ECC: what to run */
  uint32_t pbits;    /* CRT: bits of p and q */
  uint32_t qbits;
  uint32_t ecc_pbits;    /* ECC_MUL: bits of the curve's prime (LEN) */
  uint32_t ecc_elen;     /* bits of the group order (ELEN) */
  uint32_t ecc_channels; /* rns channels n per base: residue vectors of 2n words */
  uint32_t ecc_p_lo;     /* p mod 2^32 */
  uint32_t ecc_table_words;
  uint32_t ecc_blind_bits; /* r's length in k + r n (pka_rns_curve_t.blind_bits) */
  uint32_t reserved[4];
  uint32_t n[SOC_JOB_WORDS]; /* modulus */
  uint32_t m[SOC_JOB_WORDS]; /* message representative, < n */
  uint32_t d[SOC_JOB_WORDS]; /* private exponent */
  uint32_t a[SOC_JOB_WORDS]; /* MODADD operands, < n */
  uint32_t b[SOC_JOB_WORDS];
  uint32_t e[SOC_JOB_HALF];     /* public exponent (SLOT_EPUB: the CRT result is checked with it) */
  uint32_t p[SOC_JOB_HALF];     /* the CRT key */
  uint32_t q[SOC_JOB_HALF];
  uint32_t dp[SOC_JOB_HALF];
  uint32_t dq[SOC_JOB_HALF];
  uint32_t qinv[SOC_JOB_HALF];
  uint32_t ecc_k[SOC_JOB_HALF];      /* the scalar */
  uint32_t ecc_x[SOC_JOB_RNS];       /* the point (G), residue vectors */
  uint32_t ecc_y[SOC_JOB_RNS];
  uint32_t ecc_w[SOC_JOB_RNS];       /* M^2 mod p */
  uint32_t ecc_consts[4 * SOC_JOB_RNS]; /* 1, a M, 2 b M, -4 b M: 2n words each, packed */
  uint32_t ecc_expo[SOC_JOB_HALF];   /* p - 2 */
  uint32_t ecc_order[SOC_JOB_HALF];  /* group order */
  uint32_t ecc_table[SOC_JOB_TABLE];
} soc_job_t;

#endif /* SOC_JOB_H */
