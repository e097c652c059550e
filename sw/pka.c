/* SPDX-License-Identifier: Apache-2.0
 * pka.c: the C driver of pka_top (see pka.h). Register offsets come from the generated map
 * (pka_regs.h), opcodes, status codes and slots from pka_defs.h (both generated from data/pka.rdl). */
#include "pka.h"

#include "pka_regs.h"

#define REG(name) ((uint32_t)offsetof(pka_regs_t, name))
#define SLOT_OFFSET(slot) (REG(SLOT_N) + (uint32_t)(slot) * (uint32_t)sizeof(pka_regs__SLOT_N_t))
#define DEFAULT_TIMEOUT (1u << 28)

static uint32_t rd(pka_dev_t *d, uint32_t off) { return d->bus.read32(d->bus.ctx, off); }
static void wr(pka_dev_t *d, uint32_t off, uint32_t v) { d->bus.write32(d->bus.ctx, off, v); }

static uint32_t mmio_read32(void *ctx, uint32_t off) {
  return *(volatile uint32_t *)((volatile uint8_t *)ctx + off);
}
static void mmio_write32(void *ctx, uint32_t off, uint32_t v) {
  *(volatile uint32_t *)((volatile uint8_t *)ctx + off) = v;
}
static void mmio_write_block(void *ctx, uint32_t off, const uint32_t *w, unsigned n) {
  volatile uint32_t *dst = (volatile uint32_t *)((volatile uint8_t *)ctx + off);
  unsigned i;
  for (i = 0; i < n; i++) dst[i] = w[i];
}
static void mmio_read_block(void *ctx, uint32_t off, uint32_t *w, unsigned n) {
  const volatile uint32_t *src = (const volatile uint32_t *)((volatile uint8_t *)ctx + off);
  unsigned i;
  for (i = 0; i < n; i++) w[i] = src[i];
}

void pka_mmio_bus(pka_bus_t *bus, volatile void *base) {
  bus->read32 = mmio_read32;
  bus->write32 = mmio_write32;
  bus->wait_irq = 0;
  bus->ctx = (void *)base;
  bus->write_block = mmio_write_block;
  bus->read_block = mmio_read_block;
}

static unsigned words_for(unsigned bits) { return bits ? (bits + 31u) / 32u : 1u; }

#define INTR_ALL (PKA_REGS__INTR_STATE__DONE_bm | PKA_REGS__INTR_STATE__REJECT_bm | PKA_REGS__INTR_STATE__TAINT_bm)

int pka_init(pka_dev_t *dev, const pka_bus_t *bus) {
  uint32_t hw, polls;
  dev->bus = *bus;
  dev->timeout = DEFAULT_TIMEOUT;
  if (rd(dev, REG(ID)) != PKA_REGS__ID__MAGIC_reset) return PKA_ERR_NO_DEVICE;
  hw = rd(dev, REG(HWCFG));
  dev->max_len = (hw & PKA_REGS__HWCFG__MAX_LEN_bm) >> PKA_REGS__HWCFG__MAX_LEN_bp;
  dev->engines = (hw & PKA_REGS__HWCFG__ENGINES_bm) >> PKA_REGS__HWCFG__ENGINES_bp;
  dev->slot_words = 1u << ((hw & PKA_REGS__HWCFG__SLOT_AW_bm) >> PKA_REGS__HWCFG__SLOT_AW_bp);
  dev->ops = rd(dev, REG(OPS));
  hw = rd(dev, REG(ENGCFG));
  dev->rns_max_len = (hw & PKA_REGS__ENGCFG__RNS_MAX_LEN_bm) >> PKA_REGS__ENGCFG__RNS_MAX_LEN_bp;
  dev->hscm_w = (hw & PKA_REGS__ENGCFG__HSCM_W_bm) >> PKA_REGS__ENGCFG__HSCM_W_bp;
  dev->cycles = dev->compute = dev->io = 0;
  wr(dev, REG(INTR_ENABLE), PKA_REGS__INTR_ENABLE__DONE_bm);
  /* the RAM is being cleared after reset, or an earlier user's command is running */
  for (polls = 0; rd(dev, REG(STATUS)) & PKA_REGS__STATUS__BUSY_bm; polls++) {
    if (polls >= dev->timeout) return PKA_ERR_TIMEOUT;
  }
  /* a DONE, REJECT or TAINT left pending by an earlier user would mislead the first wait */
  wr(dev, REG(INTR_STATE), INTR_ALL);
  return PKA_OK;
}

int pka_serves(const pka_dev_t *dev, unsigned op) { return op < 32u && ((dev->ops >> op) & 1u); }

/* after slot accesses: were any dropped because the block was busy (INTR_STATE.REJECT)? */
static int check_reject(pka_dev_t *dev) {
  if (rd(dev, REG(INTR_STATE)) & PKA_REGS__INTR_STATE__REJECT_bm) {
    wr(dev, REG(INTR_STATE), PKA_REGS__INTR_STATE__REJECT_bm);
    return PKA_ERR_BUSY;
  }
  return PKA_OK;
}

static int check_slot(const pka_dev_t *dev, unsigned slot, unsigned nwords) {
  if (slot >= PKA_NUM_SLOTS) return PKA_ERR_SLOT;
  if (nwords == 0u || nwords > dev->slot_words) return PKA_ERR_TOO_BIG;
  return PKA_OK;
}

int pka_write_operand(pka_dev_t *dev, unsigned slot, const uint32_t *words, unsigned nwords) {
  unsigned i;
  int st = check_slot(dev, slot, nwords);
  if (st) return st;
  if (dev->bus.write_block) {
    dev->bus.write_block(dev->bus.ctx, SLOT_OFFSET(slot), words, nwords);
  } else {
    for (i = 0; i < nwords; i++) wr(dev, SLOT_OFFSET(slot) + 4u * i, words[i]);
  }
  return check_reject(dev);
}

int pka_read_operand(pka_dev_t *dev, unsigned slot, uint32_t *words, unsigned nwords) {
  unsigned i;
  uint32_t intr;
  int st = check_slot(dev, slot, nwords);
  if (st) return st;
  if (dev->bus.read_block) {
    dev->bus.read_block(dev->bus.ctx, SLOT_OFFSET(slot), words, nwords);
  } else {
    for (i = 0; i < nwords; i++) words[i] = rd(dev, SLOT_OFFSET(slot) + 4u * i);
  }
  intr = rd(dev, REG(INTR_STATE));
  if (intr & PKA_REGS__INTR_STATE__TAINT_bm) {
    /* a tainted slot (written by an operation that read a secret) reads 0: not a value */
    wr(dev, REG(INTR_STATE), PKA_REGS__INTR_STATE__TAINT_bm);
    for (i = 0; i < nwords; i++) words[i] = 0;
    return PKA_ERR_OPERAND_RANGE;
  }
  return (intr & PKA_REGS__INTR_STATE__REJECT_bm) ? check_reject(dev) : PKA_OK;
}

/* wait for INTR_STATE.DONE; 0 when it came, nonzero when the wait gave up */
static int wait_done(pka_dev_t *dev) {
  uint32_t polls;
  if (dev->bus.wait_irq) {
    dev->bus.wait_irq(dev->bus.ctx);
    return !(rd(dev, REG(INTR_STATE)) & PKA_REGS__INTR_STATE__DONE_bm);
  }
  for (polls = 0; !(rd(dev, REG(INTR_STATE)) & PKA_REGS__INTR_STATE__DONE_bm); polls++) {
    if (polls >= dev->timeout) return 1;
  }
  return 0;
}

static int finish(pka_dev_t *dev) {
  uint32_t st = rd(dev, REG(STATUS));
  dev->cycles = rd(dev, REG(CYCLES));
  dev->compute = rd(dev, REG(COMPUTE));
  dev->io = rd(dev, REG(IO));
  wr(dev, REG(INTR_STATE), PKA_REGS__INTR_STATE__DONE_bm | PKA_REGS__INTR_STATE__TAINT_bm);
  if ((st & PKA_REGS__STATUS__REJECT_bm) >> PKA_REGS__STATUS__REJECT_bp) {
    /* this command (or an access before it) arrived while busy and was dropped */
    wr(dev, REG(INTR_STATE), PKA_REGS__INTR_STATE__REJECT_bm);
    return PKA_ERR_BUSY;
  }
  return (int)((st & PKA_REGS__STATUS__CODE_bm) >> PKA_REGS__STATUS__CODE_bp);
}

int pka_abort(pka_dev_t *dev) {
  wr(dev, REG(CTRL), PKA_REGS__CTRL__ABORT_bm);
  if (wait_done(dev)) return PKA_ERR_TIMEOUT;
  return finish(dev);
}

int pka_run(pka_dev_t *dev, unsigned op, unsigned len, unsigned elen, uint32_t arg, unsigned engine) {
  if (len > 0xFFFFu || elen > 0xFFFFu) return PKA_ERR_LENGTH;
  wr(dev, REG(LEN), (len & 0xFFFFu) | (elen & 0xFFFFu) << PKA_REGS__LEN__ELEN_bp);
  wr(dev, REG(ARG), arg);
  wr(dev, REG(CMD), (op & 0xFFu) | (engine & 0xFu) << PKA_REGS__CMD__ENGINE_bp);
  if (wait_done(dev)) {
    /* no done within the budget: stop the operation (and zeroize), report the timeout */
    (void)pka_abort(dev);
    return PKA_ERR_TIMEOUT;
  }
  return finish(dev);
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

/* N (and W by MONT_PARAMS when r_bits) */
static int load_modulus(pka_dev_t *dev, const uint32_t *n, unsigned nbits, unsigned r_bits) {
  if (r_bits) return pka_mont_params(dev, 0, 0, n, nbits, r_bits);
  return pka_write_operand(dev, PKA_SLOT_N, n, words_for(nbits));
}

static int binary(pka_dev_t *dev, unsigned op, uint32_t *r, const uint32_t *a, const uint32_t *b,
                  const uint32_t *n, unsigned nbits, unsigned r_bits) {
  unsigned nw = words_for(nbits);
  int st;
  if ((st = load_modulus(dev, n, nbits, r_bits)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_A, a, nw)) != 0) return st;
  if (b && (st = pka_write_operand(dev, PKA_SLOT_B, b, nw)) != 0) return st;
  if ((st = pka_run(dev, op, nbits, 0, 0, 0)) != 0) return st;
  return pka_read_operand(dev, PKA_SLOT_R, r, nw);
}

int pka_modadd(pka_dev_t *dev, uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *n,
               unsigned nbits) {
  return binary(dev, PKA_OP_MODADD, r, a, b, n, nbits, 0);
}

int pka_modsub(pka_dev_t *dev, uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *n,
               unsigned nbits) {
  return binary(dev, PKA_OP_MODSUB, r, a, b, n, nbits, 0);
}

int pka_modmul(pka_dev_t *dev, uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *n,
               unsigned nbits, unsigned r_bits) {
  return binary(dev, PKA_OP_MODMUL, r, a, b, n, nbits, r_bits);
}

int pka_modinv(pka_dev_t *dev, uint32_t *r, const uint32_t *a, const uint32_t *n, unsigned nbits,
               unsigned r_bits) {
  return binary(dev, PKA_OP_MODINV, r, a, 0, n, nbits, r_bits);
}

/* SLOT_EPUB = e (zero-padded to nw words); e = NULL: no public exponent (no check) */
static int set_epub(pka_dev_t *dev, const uint32_t *e, unsigned ebits, unsigned nw) {
  unsigned i, ew = e ? words_for(ebits) : 0u;
  int st;
  if (ew > nw) return PKA_ERR_LENGTH;
  if (ew && (st = pka_write_operand(dev, PKA_SLOT_EPUB, e, ew)) != 0) return st;
  for (i = ew; i < nw; i++) wr(dev, SLOT_OFFSET(PKA_SLOT_EPUB) + 4u * i, 0);
  return check_reject(dev);
}

static int exp_op(pka_dev_t *dev, unsigned op, uint32_t *r, const uint32_t *base, const uint32_t *exp,
                  unsigned ebits, const uint32_t *n, unsigned nbits, unsigned r_bits, const uint32_t *e_pub,
                  unsigned e_pub_bits) {
  unsigned nw = words_for(nbits);
  int st;
  /* the modulus first: a modulus write while a secret exponent is bound zeroizes the secrets */
  if ((st = load_modulus(dev, n, nbits, r_bits)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_A, base, nw)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_E, exp, words_for(ebits))) != 0) return st;
  if ((st = set_epub(dev, e_pub, e_pub_bits, nw)) != 0) return st;
  if ((st = pka_run(dev, op, nbits, ebits, 0, 0)) != 0) return st;
  return pka_read_operand(dev, PKA_SLOT_R, r, nw);
}

int pka_modexp(pka_dev_t *dev, uint32_t *r, const uint32_t *base, const uint32_t *exp, unsigned ebits,
               const uint32_t *n, unsigned nbits, unsigned r_bits) {
  return exp_op(dev, PKA_OP_MODEXP, r, base, exp, ebits, n, nbits, r_bits, 0, 0);
}

int pka_modexp_ct(pka_dev_t *dev, uint32_t *r, const uint32_t *base, const uint32_t *exp, unsigned elen,
                  const uint32_t *n, unsigned nbits, unsigned r_bits, const uint32_t *e_pub, unsigned e_pub_bits) {
  return exp_op(dev, PKA_OP_MODEXP_CT, r, base, exp, elen, n, nbits, r_bits, e_pub, e_pub_bits);
}

int pka_montmul(pka_dev_t *dev, uint32_t *r, unsigned rwords, const uint32_t *a, const uint32_t *b,
                const uint32_t *n, unsigned nbits, const uint32_t *nprime, unsigned engine) {
  unsigned nw = words_for(nbits);
  int st;
  /* the slots of pka.driver's Pka.montmul: N, A, B (hscm: X0 = N'), then R of the engine's width */
  if ((st = pka_write_operand(dev, PKA_SLOT_N, n, nw)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_A, a, nw)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_B, b, nw)) != 0) return st;
  if (nprime && (st = pka_write_operand(dev, PKA_SLOT_X0, nprime, nw)) != 0) return st;
  if ((st = pka_run(dev, PKA_OP_MONTMUL, nbits, 0, 0, engine)) != 0) return st;
  return pka_read_operand(dev, PKA_SLOT_R, r, rwords);
}

int pka_hscm_nprime(uint32_t *nprime, const uint32_t *n, unsigned nbits, unsigned w) {
  unsigned nw = words_for(nbits), i, j;
  if (w != 16u && w != 32u && w != 64u) return PKA_ERR_PARAM;
  if (!(n[0] & 1u)) return PKA_ERR_EVEN_MODULUS;
  /* x = 1, then 2w times x = x / 2 mod n (x odd: (x + n) / 2); x < n throughout */
  for (j = 0; j < nw; j++) nprime[j] = j == 0u;
  for (i = 0; i < 2u * w; i++) {
    uint32_t carry = 0;
    if (nprime[0] & 1u) {
      for (j = 0; j < nw; j++) {
        uint64_t t = (uint64_t)nprime[j] + n[j] + carry;
        nprime[j] = (uint32_t)t;
        carry = (uint32_t)(t >> 32);
      }
    }
    for (j = 0; j < nw; j++) {
      uint32_t hi = j + 1u < nw ? nprime[j + 1u] : carry;
      nprime[j] = nprime[j] >> 1 | hi << 31;
    }
  }
  return PKA_OK;
}

int pka_mul(pka_dev_t *dev, uint32_t *r_lo, uint32_t *r_hi, const uint32_t *a, const uint32_t *b,
            unsigned nbits) {
  unsigned nw = words_for(nbits);
  int st;
  if ((st = pka_write_operand(dev, PKA_SLOT_A, a, nw)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_B, b, nw)) != 0) return st;
  if ((st = pka_run(dev, PKA_OP_MUL, nbits, 0, 0, 0)) != 0) return st;
  if ((st = pka_read_operand(dev, PKA_SLOT_R, r_lo, nw)) != 0) return st;
  return pka_read_operand(dev, PKA_SLOT_R_HI, r_hi, nw);
}

int pka_modred(pka_dev_t *dev, uint32_t *r, const uint32_t *a_lo, const uint32_t *a_hi, const uint32_t *n,
               unsigned nbits, unsigned r_bits) {
  unsigned nw = words_for(nbits);
  int st;
  if ((st = load_modulus(dev, n, nbits, r_bits)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_A, a_lo, nw)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_A_HI, a_hi, nw)) != 0) return st;
  if ((st = pka_run(dev, PKA_OP_MODRED, nbits, 0, 0, 0)) != 0) return st;
  return pka_read_operand(dev, PKA_SLOT_R, r, nw);
}

int pka_ecc_check(pka_dev_t *dev, const uint32_t *x, const uint32_t *y, const uint32_t *a, const uint32_t *b,
                  const uint32_t *p, unsigned pbits, unsigned r_bits) {
  unsigned nw = words_for(pbits);
  int st;
  if ((st = load_modulus(dev, p, pbits, r_bits)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_A, x, nw)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_B, y, nw)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_X0, a, nw)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_X1, b, nw)) != 0) return st;
  return pka_run(dev, PKA_OP_ECC_CHECK, pbits, 0, 0, 0);
}

int pka_rsa_load_key(pka_dev_t *dev, const pka_rsa_key_t *key) {
  unsigned nw = words_for(key->nbits), hw = words_for(key->pbits);
  int st;
  if (words_for(key->qbits) != hw) return PKA_ERR_LENGTH;
  /* the moduli first: the secrets are bound to the moduli present when they are written */
  if ((st = pka_write_operand(dev, PKA_SLOT_N, key->n, nw)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_P, key->p, hw)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_Q, key->q, hw)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_DP, key->dp, hw)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_DQ, key->dq, hw)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_QINV, key->qinv, hw)) != 0) return st;
  return set_epub(dev, key->e, key->ebits, nw);
}

int pka_rsa_crt(pka_dev_t *dev, uint32_t *s, const uint32_t *m, const pka_rsa_key_t *key, unsigned window) {
  unsigned nw = words_for(key->nbits);
  int st;
  if ((st = pka_write_operand(dev, PKA_SLOT_A, m, nw)) != 0) return st;
  if ((st = pka_run(dev, PKA_OP_RSA_CRT, key->nbits, key->pbits, (key->qbits & 0xFFFFu) | (window & 0xFu) << 16,
                    0)) != 0)
    return st;
  return pka_read_operand(dev, PKA_SLOT_R, s, nw);
}

/* zero-pad: SLOT words past `nwords` up to `total` (a slot keeps old words otherwise) */
static int write_padded(pka_dev_t *dev, unsigned slot, const uint32_t *words, unsigned nwords, unsigned total) {
  unsigned i;
  int st = words ? pka_write_operand(dev, slot, words, nwords) : PKA_OK;
  if (st) return st;
  for (i = words ? nwords : 0u; i < total; i++) wr(dev, SLOT_OFFSET(slot) + 4u * i, 0);
  return check_reject(dev);
}

/* the rns engine's operands and constants (pka.driver's Pka._rns_load): N first (a modulus write
   while a secret is bound clears the secret slots), then SLOT_P (ECDSA_SIGN's given nonce, ECC_MUL's
   random Z words: pslot, pwords; a write to P, like N, clears bound secrets, so before E), the tables,
   the point (y NULL: B not written) and the scalar (E); p: all of p into N (ECDSA_SIGN), else its low
   word */
static int rns_load(pka_dev_t *dev, const pka_rns_curve_t *c, const uint32_t *x, const uint32_t *y,
                    const uint32_t *k, unsigned kwords, const uint32_t *p, const uint32_t *pslot,
                    unsigned pwords) {
  unsigned v = 2u * c->channels, pw = words_for(c->pbits), i;
  int st;
  if (c->channels == 0u || 4u * v > dev->slot_words) return PKA_ERR_TOO_BIG;
  if ((st = p ? pka_write_operand(dev, PKA_SLOT_N, p, pw) : pka_write_operand(dev, PKA_SLOT_N, &c->p_lo, 1)) != 0)
    return st;
  if (pslot && (st = pka_write_operand(dev, PKA_SLOT_P, pslot, pwords)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_X0, c->table, c->table_words)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_A, x, v)) != 0) return st;
  if (y && (st = pka_write_operand(dev, PKA_SLOT_B, y, v)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_W, c->w, v)) != 0) return st;
  for (i = 0; i < 4u; i++) {
    if (dev->bus.write_block) {
      dev->bus.write_block(dev->bus.ctx, SLOT_OFFSET(PKA_SLOT_X1) + 4u * v * i, c->consts + v * i, v);
    } else {
      unsigned j;
      for (j = 0; j < v; j++) wr(dev, SLOT_OFFSET(PKA_SLOT_X1) + 4u * (v * i + j), c->consts[v * i + j]);
    }
  }
  if ((st = check_reject(dev)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_E, k, kwords)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_X2, c->expo, pw)) != 0) return st;
  return write_padded(dev, PKA_SLOT_A_HI, c->order, pw, pw);
}

static int blind_arg(const pka_rns_curve_t *c, uint32_t *arg) {
  if (c->blind_bits > 256u || c->blind_bits % 64u != 0u) return PKA_ERR_UNSUPPORTED;
  *arg = c->blind_bits ? ((c->blind_bits / 64u - 1u) << 4) : 0u;
  return PKA_OK;
}

#define ECC_FLAGS (PKA_ECC_X_ONLY | PKA_ECC_RANDOM_Z | PKA_ECC_X25519)

int pka_ecc_mul_rns_ex(pka_dev_t *dev, uint32_t *rx, uint32_t *ry, const uint32_t *k, const uint32_t *x,
                       const uint32_t *y, const pka_rns_curve_t *c, uint32_t flags, const uint32_t *z) {
  unsigned v = 2u * c->channels;
  uint32_t arg;
  int st;
  if (flags & ~ECC_FLAGS) return PKA_ERR_PARAM;
  if ((st = blind_arg(c, &arg)) != 0) return st;
  if (flags & (PKA_ECC_X_ONLY | PKA_ECC_X25519)) y = 0;
  if (!(flags & PKA_ECC_RANDOM_Z)) z = 0;
  if ((st = rns_load(dev, c, x, y, k, words_for(c->elen), 0, z, v)) != 0) return st;
  if ((st = pka_run(dev, PKA_OP_ECC_MUL, c->pbits, c->elen, arg | flags, PKA_ENGINE_RNS)) != 0) return st;
  if ((st = pka_read_operand(dev, PKA_SLOT_R, rx, v)) != 0) return st;
  return ry ? pka_read_operand(dev, PKA_SLOT_R_HI, ry, v) : PKA_OK;
}

int pka_ecc_mul_rns(pka_dev_t *dev, uint32_t *rx, uint32_t *ry, const uint32_t *k, const uint32_t *x,
                    const uint32_t *y, const pka_rns_curve_t *c) {
  return pka_ecc_mul_rns_ex(dev, rx, ry, k, x, y, c, 0, 0);
}

int pka_ecdsa_sign(pka_dev_t *dev, uint32_t *r, uint32_t *s, const uint32_t *d, const uint32_t *h,
                   const uint32_t *nonce, const uint32_t *p, const uint32_t *gx, const uint32_t *gy,
                   const pka_rns_curve_t *c) {
  unsigned pw = words_for(c->pbits);
  uint32_t arg;
  int st;
  if (!pka_serves(dev, PKA_OP_ECDSA_SIGN)) return PKA_ERR_UNSUPPORTED;
  if (!c->order || c->elen != c->pbits) return PKA_ERR_LENGTH;
  if ((st = rns_load(dev, c, gx, gy, d, pw, p, nonce, pw)) != 0) return st;
  if ((st = pka_write_operand(dev, PKA_SLOT_EPUB, h, pw)) != 0) return st;
  if ((st = blind_arg(c, &arg)) != 0) return st;
  if (nonce) arg |= 1u << 8;
  if ((st = pka_run(dev, PKA_OP_ECDSA_SIGN, c->pbits, c->elen, arg, 0)) != 0) return st;
  if ((st = pka_read_operand(dev, PKA_SLOT_R, r, pw)) != 0) return st;
  return pka_read_operand(dev, PKA_SLOT_R_HI, s, pw);
}

int pka_zeroize(pka_dev_t *dev) { return pka_run(dev, PKA_OP_ZEROIZE, 0, 0, 0, 0); }
