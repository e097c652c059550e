// SPDX-License-Identifier: Apache-2.0
// Generic Verilator harness for every pka engine (the common boundary of rtl/common/pka_pkg.sv).
//
// The engine is compiled with --prefix Vtop. The harness owns the operand memory (2^MEM_AW 32-bit
// words), answers the engine's req/gnt word port with optional random stalls (grant withheld with a
// given probability), and speaks a line protocol on stdin/stdout so pka.sim can drive it:
//
//   reset                        -> ok
//   stall <permille> <seed>      -> ok               (probability of withholding a grant)
//   write <addr> <w0> <w1> ...   -> ok               (hex words, addr hex)
//   read <addr> <n>              -> data <w0> ...
//   cmd <op> <len> <elen> <arg> <max_cycles>
//                                -> done <status> <cycles> <io_cycles> <wall> <wait>
//                                   or timeout <wall>
//      (wall = cycles from the command's acceptance to done, wait = cycles until cmd_ready)
//   progress <every>             -> ok               (print "progress <wall>" every N cycles during cmd)
//   quit
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "verilated_top.h"

#ifndef MEM_AW
#error "MEM_AW must be defined"
#endif

namespace {

struct Harness : VerilatedTop {
  std::vector<uint32_t> mem;
  std::mt19937 rng{1};
  unsigned stall_permille = 0;
  bool rvalid_q = false;
  uint32_t rdata_q = 0;
  uint64_t progress_every = 0;

  Harness() : mem(size_t(1) << MEM_AW, 0) {
    top->clk_i = 0;
    top->cmd_valid_i = 0;
    top->mem_gnt_i = 0;
    top->mem_rvalid_i = 0;
    top->mem_rdata_i = 0;
  }

  // One clock cycle: settle, answer the memory port, rising edge.
  void tick() {
    top->clk_i = 0;
    top->mem_rvalid_i = rvalid_q;
    top->mem_rdata_i = rdata_q;
    top->mem_gnt_i = 0;
    top->eval();
    bool gnt = false;
    if (top->mem_req_o) {
      gnt = stall_permille == 0 || (rng() % 1000) >= stall_permille;
    }
    top->mem_gnt_i = gnt;
    eval_dump();
    bool next_rvalid = false;
    uint32_t next_rdata = 0;
    if (gnt) {
      uint64_t addr = uint64_t(top->mem_addr_o) & (mem.size() - 1);
      if (top->mem_we_o) {
        mem[addr] = uint32_t(top->mem_wdata_o);
      } else {
        next_rvalid = true;
        next_rdata = mem[addr];
      }
    }
    top->clk_i = 1;
    eval_dump();
    rvalid_q = next_rvalid;
    rdata_q = next_rdata;
  }

  void reset() {
    top->rst_ni = 0;
    top->cmd_valid_i = 0;
    rvalid_q = false;
    for (int i = 0; i < 4; i++) tick();
    top->rst_ni = 1;
    tick();
  }

  void cmd(unsigned op, unsigned len, unsigned elen, uint32_t arg, uint64_t max_cycles) {
    top->cmd_op_i = op;
    top->cmd_len_i = len;
    top->cmd_elen_i = elen;
    top->cmd_arg_i = arg;
    top->cmd_valid_i = 1;
    uint64_t wait = 0;
    // Hold valid until the engine takes the command (ready sampled before the edge).
    for (;;) {
      top->clk_i = 0;
      top->eval();
      bool ready = top->cmd_ready_o;
      tick();
      if (ready) break;
      if (++wait > max_cycles) {
        top->cmd_valid_i = 0;
        std::printf("timeout %llu\n", (unsigned long long)wait);
        return;
      }
    }
    top->cmd_valid_i = 0;
    uint64_t wall = 1;
    while (!top->done_o) {
      tick();
      wall++;
      if (progress_every && wall % progress_every == 0) {
        std::printf("progress %llu\n", (unsigned long long)wall);
        std::fflush(stdout);
      }
      if (wall > max_cycles) {
        std::printf("timeout %llu\n", (unsigned long long)wall);
        return;
      }
    }
    std::printf("done %u %llu %llu %llu %llu\n", unsigned(top->status_o),
                (unsigned long long)top->cycles_o, (unsigned long long)top->io_cycles_o,
                (unsigned long long)wall, (unsigned long long)wait);
    tick();  // done is a pulse: step past it
  }
};

}  // namespace

int main(int argc, char** argv) {
  Harness h;
  h.ctx.commandArgs(argc, argv);
  h.reset();
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string verb;
    in >> verb;
    if (verb == "quit") break;
    if (verb == "reset") {
      h.reset();
      std::printf("ok\n");
    } else if (verb == "stall") {
      unsigned p = 0, seed = 1;
      in >> p >> seed;
      h.stall_permille = p;
      h.rng.seed(seed);
      std::printf("ok\n");
    } else if (verb == "progress") {
      unsigned long long every = 0;
      in >> every;
      h.progress_every = every;
      std::printf("ok\n");
    } else if (verb == "write") {
      std::string a, w;
      in >> a;
      uint64_t addr = std::stoull(a, nullptr, 16);
      while (in >> w) h.mem[(addr++) & (h.mem.size() - 1)] = uint32_t(std::stoul(w, nullptr, 16));
      std::printf("ok\n");
    } else if (verb == "read") {
      std::string a;
      unsigned long n = 0;
      in >> a >> n;
      uint64_t addr = std::stoull(a, nullptr, 16);
      std::string out = "data";
      char buf[16];
      for (unsigned long i = 0; i < n; i++) {
        std::snprintf(buf, sizeof buf, " %x", h.mem[(addr + i) & (h.mem.size() - 1)]);
        out += buf;
      }
      std::printf("%s\n", out.c_str());
    } else if (verb == "cmd") {
      unsigned op = 0, len = 0, elen = 0;
      unsigned long arg = 0;
      unsigned long long maxc = 0;
      in >> op >> len >> elen >> arg >> maxc;
      h.cmd(op, len, elen, uint32_t(arg), maxc);
    } else {
      std::printf("error unknown verb %s\n", verb.c_str());
    }
    std::fflush(stdout);
  }
  return 0;
}
