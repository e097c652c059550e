/* SPDX-License-Identifier: Apache-2.0
 * print.h: console output without printf: strings, unsigned decimals, hex words and big numbers. */
#ifndef SOC_PRINT_H
#define SOC_PRINT_H

#include <stdint.h>

void print_char(char c);
void print_str(const char *s);
void print_dec(uint32_t v);
void print_hex32(uint32_t v);                         /* 8 hex digits */
void print_big(const uint32_t *words, unsigned nwords); /* 0x..., most significant word first */

#endif /* SOC_PRINT_H */
