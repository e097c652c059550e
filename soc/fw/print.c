/* SPDX-License-Identifier: Apache-2.0
 * print.c: console output through pka_soc_sysctl's CONSOLE register (each store is one character;
 * the store waits in the bus while the console is not ready, so nothing here polls). */
#include "print.h"

#include "soc.h"

void print_char(char c) { SOC_CONSOLE = (uint32_t)(unsigned char)c; }

void print_str(const char *s) {
  while (*s) print_char(*s++);
}

void print_dec(uint32_t v) {
  char buf[10];
  unsigned n = 0;
  do {
    buf[n++] = (char)('0' + v % 10u);
    v /= 10u;
  } while (v);
  while (n) print_char(buf[--n]);
}

void print_hex32(uint32_t v) {
  for (int shift = 28; shift >= 0; shift -= 4) print_char("0123456789abcdef"[(v >> shift) & 0xFu]);
}

void print_big(const uint32_t *words, unsigned nwords) {
  print_str("0x");
  for (unsigned i = nwords; i-- > 0;) print_hex32(words[i]);
}
