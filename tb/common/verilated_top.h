// SPDX-License-Identifier: Apache-2.0
// verilated_top.h: what every pka Verilator harness needs around its model (compiled with --prefix
// Vtop): the context, the model, an optional VCD trace (file name in $PKA_VCD, when built with
// --trace) and the time stamps of the trace. Used by tb/common/harness.cpp (the engine boundary) and
// tb/pka_top/top_axil.h (the accelerator's AXI4-Lite port).
// A coverage build (verilator --coverage-*, VM_COVERAGE; pka.sim with $PKA_COVERAGE set) writes its
// counts at exit to a file of its own in the directory $PKA_COVERAGE (pka.analysis.coverage merges them).
#pragma once

#include <cstdint>
#include <cstdlib>

#include "Vtop.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_vcd_c.h"
#endif
#if VM_COVERAGE
#include <atomic>
#include <string>
#include <unistd.h>
#include "verilated_cov.h"
#endif

struct VerilatedTop {
  VerilatedContext ctx;
  Vtop* top;
  uint64_t time = 0;  // trace time stamps (two per clock cycle)
  // An observer called after every evaluation with the clock level (tb/common/state_access.h:
  // per-cycle Hamming distance, RAM port tracking); none by default.
  void (*on_eval)(void* ctx, bool clk) = nullptr;
  void* on_eval_ctx = nullptr;
#if VM_TRACE
  VerilatedVcdC* vcd = nullptr;
#endif

  VerilatedTop() {
    top = new Vtop{&ctx};
#if VM_TRACE
    if (const char* path = std::getenv("PKA_VCD")) {
      ctx.traceEverOn(true);
      vcd = new VerilatedVcdC;
      top->trace(vcd, 99);
      vcd->open(path);
    }
#endif
  }
  ~VerilatedTop() {
#if VM_TRACE
    if (vcd) vcd->close();
#endif
    top->final();
#if VM_COVERAGE
    if (const char* dir = std::getenv("PKA_COVERAGE")) {
      static std::atomic<unsigned> seq{0};
      ctx.coveragep()->write(std::string(dir) + "/sim-" + std::to_string(getpid()) + "-" +
                             std::to_string(seq++) + ".dat");
    }
#endif
    delete top;
  }
  VerilatedTop(const VerilatedTop&) = delete;
  VerilatedTop& operator=(const VerilatedTop&) = delete;

  // evaluate the model and record a trace sample
  void eval_dump() {
    top->eval();
    if (on_eval) on_eval(on_eval_ctx, top->clk_i);
#if VM_TRACE
    if (vcd) vcd->dump(time);
#endif
    time++;
  }
};
