/* SPDX-License-Identifier: Apache-2.0
 * assert.h for the freestanding firmware: a freestanding C toolchain (zig cc for
 * riscv32-freestanding-none) has no <assert.h>, but the generated sw/pka_regs.h includes it for its
 * static_assert. This gives static_assert and an assert that stops the CPU (EBREAK traps: the
 * simulation reports "soc: trap"). */
#ifndef SOC_ASSERT_H
#define SOC_ASSERT_H

#if !defined(__cplusplus) && (!defined(__STDC_VERSION__) || __STDC_VERSION__ < 202311L)
#define static_assert _Static_assert
#endif

#ifdef NDEBUG
#define assert(x) ((void)0)
#else
#define assert(x) ((x) ? (void)0 : __builtin_trap())
#endif

#endif /* SOC_ASSERT_H */
