/* SPDX-License-Identifier: Apache-2.0
 * job.h: the block of operands the host puts into the RAM image beside the firmware (soc/run.py
 * writes it at SOC_JOB_ADDR with the same layout), so one firmware binary runs any key. */
#ifndef SOC_JOB_H
#define SOC_JOB_H

#include <stdint.h>

#define SOC_JOB_ADDR  0x0000C000u /* = __job in link.ld; the firmware's own RAM ends below it */
#define SOC_JOB_MAGIC 0x31424f4au /* "JOB1" */
#define SOC_JOB_WORDS 128u        /* words per operand: up to 4096 bits */
#define SOC_JOB_POLL  1u          /* flags: the driver polls (pka_bus_t.wait_irq = NULL) */

typedef struct soc_job {
  uint32_t magic;    /* SOC_JOB_MAGIC */
  uint32_t nbits;    /* modulus bits */
  uint32_t ebits;    /* bits of the private exponent d */
  uint32_t r_bits;   /* the engine's Montgomery exponent for MONT_PARAMS (hscm: Geometry(n, 16).r_bits) */
  uint32_t window;   /* sliding window of a second MODEXP (hscm ARG), 0 = none */
  uint32_t flags;    /* SOC_JOB_POLL: wait by polling INTR_STATE instead of waitirq */
  uint32_t reserved[2];
  uint32_t n[SOC_JOB_WORDS]; /* modulus */
  uint32_t m[SOC_JOB_WORDS]; /* message representative, < n */
  uint32_t d[SOC_JOB_WORDS]; /* private exponent */
  uint32_t a[SOC_JOB_WORDS]; /* MODADD operands, < n */
  uint32_t b[SOC_JOB_WORDS];
} soc_job_t;

#endif /* SOC_JOB_H */
