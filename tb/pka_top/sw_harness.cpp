// SPDX-License-Identifier: Apache-2.0
// Runs the C example (sw/example.c with the driver sw/pka.c) against the Verilated pka_top: the
// driver's bus callbacks become AXI4-Lite transactions of top_axil.h, wait_irq clocks until irq_o.
// Usage: Vtop [r_bits]
#include <cstdio>
#include <cstdlib>

#include "top_axil.h"

extern "C" {
#include "pka.h"
int pka_example_run(const pka_bus_t* bus, unsigned r_bits);
}

namespace {

uint32_t bus_read(void* ctx, uint32_t off) {
  uint32_t v = 0;
  if (static_cast<AxilMaster*>(ctx)->read(off, &v) != 0) std::fprintf(stderr, "SLVERR read %x\n", off);
  return v;
}

void bus_write(void* ctx, uint32_t off, uint32_t value) {
  if (static_cast<AxilMaster*>(ctx)->write(off, value) != 0) std::fprintf(stderr, "SLVERR write %x\n", off);
}

void bus_wait_irq(void* ctx) {
  auto* m = static_cast<AxilMaster*>(ctx);
  for (uint64_t i = 0; i < 100000000ull; i++) {
    m->settle();
    if (m->top->irq_o) return;
    m->edge();
  }
  std::fprintf(stderr, "no interrupt\n");
  std::exit(3);
}

}  // namespace

int main(int argc, char** argv) {
  AxilMaster m;
  m.ctx.commandArgs(argc, argv);
  m.reset();
  pka_bus_t bus = {bus_read, bus_write, bus_wait_irq, &m};
  unsigned r_bits = argc > 1 ? unsigned(std::atoi(argv[1])) : 0;
  int rc = pka_example_run(&bus, r_bits);
  std::printf("bus_cycles %llu\n", (unsigned long long)m.cycles);
  return rc;
}
