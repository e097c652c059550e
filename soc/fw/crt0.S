/* SPDX-License-Identifier: Apache-2.0
 * crt0.S: reset and interrupt vectors of the pka_soc firmware.
 * The PicoRV32 starts at 0x0 (PROGADDR_RESET); its interrupt vector is 0x10 (PROGADDR_IRQ). Every
 * interrupt stays masked (the reset state), so the vector is reached only if software unmasks one:
 * it reports exit code 0xdead0010. Reset: stack, global pointer, clear .bss, main(), then the
 * return value of main goes to sysctl EXIT (the simulation ends; a board spins). .data needs no copy:
 * the RAM image holds it at its run address. */
  .section .text.start, "ax"
  .globl _start
_start:
  j reset

  .balign 16
irq_vector:
  li t0, 0x10000000
  li t1, 0xdead0010
  sw t1, 4(t0)
1:
  j 1b

reset:
  la sp, __stack_top
  .option push
  .option norelax
  la gp, __global_pointer$
  .option pop
  la a0, __bss_start
  la a1, __bss_end
2:
  bgeu a0, a1, 3f
  sw zero, 0(a0)
  addi a0, a0, 4
  j 2b
3:
  call main
  li t0, 0x10000000
  sw a0, 4(t0)
4:
  j 4b
