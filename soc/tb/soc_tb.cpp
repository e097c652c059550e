// SPDX-License-Identifier: Apache-2.0
// soc_tb: the Verilator main of pka_soc (soc/rtl/pka_soc.sv, built with --prefix Vtop by pka.sim).
//
//   Vtop +firmware=<image.hex> [+max_cycles=<n>]
//
// Clocks the SoC from reset until the firmware writes sysctl EXIT, the CPU traps, or max_cycles
// pass (default 200,000,000). Console characters go to stdout as they come; the last line, on
// stderr, is "soc: exit <code> cycles <n>" (or "soc: trap ..." / "soc: timeout ...").
// Exit status: the firmware's exit code (0 = success; codes above 125 give 125), 126 on a trap, 127 on a
// timeout. With a traced build (pka.sim.build(design, trace=True)) and PKA_VCD set, writes a VCD.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "Vtop.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_vcd_c.h"
#endif
#if VM_COVERAGE
#include <string>
#include <unistd.h>
#include "verilated_cov.h"
#endif

int main(int argc, char** argv) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  auto top = std::make_unique<Vtop>(ctx.get());

  uint64_t max_cycles = 200000000ull;
  if (const char* arg = ctx->commandArgsPlusMatch("max_cycles=")) {
    if (*arg) max_cycles = std::strtoull(arg + std::char_traits<char>::length("+max_cycles="), nullptr, 10);
  }

#if VM_TRACE
  std::unique_ptr<VerilatedVcdC> vcd;
  uint64_t time = 0;
  if (const char* path = std::getenv("PKA_VCD")) {
    ctx->traceEverOn(true);
    vcd = std::make_unique<VerilatedVcdC>();
    top->trace(vcd.get(), 99);
    vcd->open(path);
  }
#define DUMP() \
  do {                        \
    if (vcd) vcd->dump(time++); \
  } while (0)
#else
#define DUMP() \
  do {         \
  } while (0)
#endif

  top->console_ready_i = 1;
  top->clk_i = 0;
  top->rst_ni = 0;
  top->eval();
  for (int i = 0; i < 8; i++) {  // reset: a few clock edges with rst_ni low
    top->clk_i = 1;
    top->eval();
    DUMP();
    top->clk_i = 0;
    top->eval();
    DUMP();
  }
  top->rst_ni = 1;
  top->eval();

  uint64_t cycle = 0;
  int status = 127;
  for (; cycle < max_cycles; cycle++) {
    top->clk_i = 1;
    top->eval();
    DUMP();
    top->clk_i = 0;
    top->eval();
    DUMP();
    if (top->console_valid_o) std::putchar(top->console_data_o);
    if (top->exit_valid_o) {
      std::fflush(stdout);
      std::fprintf(stderr, "soc: exit %" PRIu32 " cycles %" PRIu64 "\n", uint32_t(top->exit_code_o), cycle + 1);
      const uint32_t code = top->exit_code_o;
      status = code < 126u ? int(code) : 125;
      break;
    }
    if (top->trap_o) {
      std::fflush(stdout);
      std::fprintf(stderr, "soc: trap cycles %" PRIu64 "\n", cycle + 1);
      status = 126;
      break;
    }
  }
  if (cycle == max_cycles) {
    std::fflush(stdout);
    std::fprintf(stderr, "soc: timeout cycles %" PRIu64 "\n", cycle);
  }
  std::fflush(stdout);
#if VM_TRACE
  if (vcd) vcd->close();
#endif
  top->final();
#if VM_COVERAGE
  // a coverage build (pka.sim with $PKA_COVERAGE): the counts to a file of its own there (pka.analysis.coverage)
  if (const char* dir = std::getenv("PKA_COVERAGE")) {
    ctx->coveragep()->write(std::string(dir) + "/soc-" + std::to_string(getpid()) + ".dat");
  }
#endif
  return status;
}
