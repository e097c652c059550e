/* SPDX-License-Identifier: Apache-2.0
 * soc.h: the address map of pka_soc (soc/rtl/pka_soc.sv) and the CPU helpers the firmware uses. */
#ifndef SOC_H
#define SOC_H

#include <stdint.h>

#define SOC_RAM_BASE    0x00000000u /* code, data, stack; the job block at SOC_JOB_ADDR (job.h) */
#define SOC_SYSCTL_BASE 0x10000000u /* pka_soc_sysctl */
#define SOC_PKA_BASE    0x20000000u /* pka_top's register map (doc/top.md) */

/* pka_soc_sysctl registers */
#define SOC_CONSOLE (*(volatile uint32_t *)(SOC_SYSCTL_BASE + 0x0u)) /* W: one character */
#define SOC_EXIT    (*(volatile uint32_t *)(SOC_SYSCTL_BASE + 0x4u)) /* W: end, with a code */
#define SOC_BUSERR  (*(volatile uint32_t *)(SOC_SYSCTL_BASE + 0x8u)) /* R: error responses; W: clear */
#define SOC_ID      (*(volatile uint32_t *)(SOC_SYSCTL_BASE + 0xCu)) /* R: 0x534f4301 */

/* the CPU's cycle counter (low 32 bits: differences are exact below 2^32 cycles) */
static inline uint32_t soc_rdcycle(void) {
  uint32_t c;
  __asm__ volatile("rdcycle %0" : "=r"(c));
  return c;
}

/* PicoRV32's `waitirq rd`: stall until an interrupt line is pending (even a masked one) and
 * return the pending lines. Encoding: custom-0 opcode, funct3 4, funct7 4. */
static inline uint32_t soc_waitirq(void) {
  uint32_t pending;
  __asm__ volatile(".insn r 0x0B, 4, 4, %0, x0, x0" : "=r"(pending));
  return pending;
}

#define SOC_PKA_IRQ 4u /* pka_top's irq_o on the CPU's irq[4] (a level) */

#endif /* SOC_H */
