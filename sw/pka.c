/* SPDX-License-Identifier: Apache-2.0
 * pka.c: the C driver of pka_top (see pka.h). Register offsets come from the generated map. */
#include "pka.h"

#include "pka_regs.h"

#define REG(name) ((uint32_t)offsetof(pka_regs_t, name))
#define SLOT_OFFSET(slot) (REG(SLOT_N) + (uint32_t)(slot) * (uint32_t)sizeof(pka_regs__SLOT_N_t))

static uint32_t rd(pka_dev_t *d, uint32_t off) { return d->bus.read32(d->bus.ctx, off); }
static void wr(pka_dev_t *d, uint32_t off, uint32_t v) { d->bus.write32(d->bus.ctx, off, v); }

static uint32_t mmio_read32(void *ctx, uint32_t off) {
  return *(volatile uint32_t *)((volatile uint8_t *)ctx + off);
}
static void mmio_write32(void *ctx, uint32_t off, uint32_t v) {
  *(volatile uint32_t *)((volatile uint8_t *)ctx + off) = v;
}

void pka_mmio_bus(pka_bus_t *bus, volatile void *base) {
  bus->read32 = mmio_read32;
  bus->write32 = mmio_write32;
  bus->wait_irq = 0;
  bus->ctx = (void *)base;
}

static unsigned words_for(unsigned bits) { return bits ? (bits + 31u) / 32u : 1u; }

int pka_init(pka_dev_t *dev, const pka_bus_t *bus) {
  uint32_t hw;
  dev->bus = *bus;
  if (rd(dev, REG(ID)) != PKA_REGS__ID__MAGIC_reset) return PKA_ERR_NO_DEVICE;
  hw = rd(dev, REG(HWCFG));
  dev->max_len = (hw & PKA_REGS__HWCFG__MAX_LEN_bm) >> PKA_REGS__HWCFG__MAX_LEN_bp;
  dev->engines = (hw & PKA_REGS__HWCFG__ENGINES_bm) >> PKA_REGS__HWCFG__ENGINES_bp;
  dev->slot_words = 1u << ((hw & PKA_REGS__HWCFG__SLOT_AW_bm) >> PKA_REGS__HWCFG__SLOT_AW_bp);
  dev->ops = rd(dev, REG(OPS));
  dev->cycles = dev->compute = dev->io = 0;
  wr(dev, REG(INTR_ENABLE), PKA_REGS__INTR_ENABLE__DONE_bm);
  while (rd(dev, REG(STATUS)) & PKA_REGS__STATUS__BUSY_bm) {
    /* the RAM is being cleared after reset, or an earlier user's command is running */
  }
  /* a DONE or REJECT left pending by an earlier user would end the first pka_run's wait early */
  wr(dev, REG(INTR_STATE), PKA_REGS__INTR_STATE__DONE_bm | PKA_REGS__INTR_STATE__REJECT_bm);
  return PKA_OK;
}

int pka_serves(const pka_dev_t *dev, unsigned op) { return op < 32u && ((dev->ops >> op) & 1u); }

int pka_write_operand(pka_dev_t *dev, unsigned slot, const uint32_t *words, unsigned nwords) {
  unsigned i;
  if (nwords > dev->slot_words) return PKA_ERR_TOO_BIG;
  for (i = 0; i < nwords; i++) wr(dev, SLOT_OFFSET(slot) + 4u * i, words[i]);
  return PKA_OK;
}

int pka_read_operand(pka_dev_t *dev, unsigned slot, uint32_t *words, unsigned nwords) {
  unsigned i;
  if (nwords > dev->slot_words) return PKA_ERR_TOO_BIG;
  for (i = 0; i < nwords; i++) words[i] = rd(dev, SLOT_OFFSET(slot) + 4u * i);
  return PKA_OK;
}

int pka_run(pka_dev_t *dev, unsigned op, unsigned len, unsigned elen, uint32_t arg, unsigned engine) {
  uint32_t st;
  wr(dev, REG(LEN), (len & 0xFFFFu) | (elen & 0xFFFFu) << PKA_REGS__LEN__ELEN_bp);
  wr(dev, REG(ARG), arg);
  wr(dev, REG(CMD), (op & 0xFFu) | (engine & 0xFu) << PKA_REGS__CMD__ENGINE_bp);
  if (dev->bus.wait_irq) {
    dev->bus.wait_irq(dev->bus.ctx);
  } else {
    while (!(rd(dev, REG(INTR_STATE)) & PKA_REGS__INTR_STATE__DONE_bm)) {
    }
  }
  st = rd(dev, REG(STATUS));
  dev->cycles = rd(dev, REG(CYCLES));
  dev->compute = rd(dev, REG(COMPUTE));
  dev->io = rd(dev, REG(IO));
  wr(dev, REG(INTR_STATE), PKA_REGS__INTR_STATE__DONE_bm);
  return (int)((st & PKA_REGS__STATUS__CODE_bm) >> PKA_REGS__STATUS__CODE_bp);
}

int pka_mont_params(pka_dev_t *dev, uint32_t *r2, uint64_t *mu, const uint32_t *n, unsigned nbits,
                    unsigned r_bits) {
  unsigned nw = words_for(nbits);
  int st = pka_write_operand(dev, PKA_SLOT_N, n, nw);
  if (st) return st;
  st = pka_run(dev, PKA_OP_MONT_PARAMS, nbits, r_bits, 0, 0);
  if (st) return st;
  if (mu) *mu = (uint64_t)rd(dev, REG(MU_LO)) | (uint64_t)rd(dev, REG(MU_HI)) << 32;
  return r2 ? pka_read_operand(dev, PKA_SLOT_W, r2, nw) : PKA_OK;
}

static int binary(pka_dev_t *dev, unsigned op, uint32_t *r, const uint32_t *a, const uint32_t *b,
                  const uint32_t *n, unsigned nbits) {
  unsigned nw = words_for(nbits);
  int st;
  if ((st = pka_write_operand(dev, PKA_SLOT_N, n, nw)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_A, a, nw)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_B, b, nw)) != 0) return st;
  if ((st = pka_run(dev, op, nbits, 0, 0, 0)) != 0) return st;
  return pka_read_operand(dev, PKA_SLOT_R, r, nw);
}

int pka_modadd(pka_dev_t *dev, uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *n,
               unsigned nbits) {
  return binary(dev, PKA_OP_MODADD, r, a, b, n, nbits);
}

int pka_modsub(pka_dev_t *dev, uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *n,
               unsigned nbits) {
  return binary(dev, PKA_OP_MODSUB, r, a, b, n, nbits);
}

int pka_modexp(pka_dev_t *dev, uint32_t *r, const uint32_t *base, const uint32_t *exp, unsigned ebits,
               const uint32_t *n, unsigned nbits, unsigned r_bits) {
  unsigned nw = words_for(nbits);
  int st;
  if (r_bits && (st = pka_mont_params(dev, 0, 0, n, nbits, r_bits)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_N, n, nw)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_A, base, nw)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_E, exp, words_for(ebits))) != 0) return st;
  if ((st = pka_run(dev, PKA_OP_MODEXP, nbits, ebits, 0, 0)) != 0) return st;
  return pka_read_operand(dev, PKA_SLOT_R, r, nw);
}

int pka_zeroize(pka_dev_t *dev) { return pka_run(dev, PKA_OP_ZEROIZE, 0, 0, 0, 0); }
