// SPDX-License-Identifier: Apache-2.0
// An AXI4-Lite master for the Verilated pka_top (compiled with --prefix Vtop): single transactions
// with optional random valid/ready delays, cycle counting, and a clock loop. Used by the line-
// protocol harness (top_harness.cpp), whose `sw` verb also runs the C driver (sw/).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <random>

#include "verilated_top.h"

struct AxilMaster : VerilatedTop {
  std::mt19937 rng{1};
  unsigned delay_permille = 0;  // probability of holding back a valid or a ready in a cycle
  uint64_t cycles = 0;          // clock cycles since the start
  uint64_t watchdog = 100000;   // a transaction taking longer than this is a hang
  bool hung = false;

  // the entropy port (EDN-like): a seeded deterministic generator (splitmix64), an acknowledge with a
  // word in the cycle the request is seen, held back with probability edn_delay_permille
  uint64_t edn_state = 0x5EED5EED5EED5EEDull;
  unsigned edn_delay_permille = 0;
  uint64_t edn_words = 0;  // words delivered
  std::mt19937 edn_rng{7};

  AxilMaster() {
    top->clk_i = 0;
    top->rst_ni = 1;
    top->edn_ack_i = 0;
    top->edn_data_i = 0;
    idle_inputs();
    top->eval();
  }

  uint32_t edn_next() {
    uint64_t z = (edn_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return uint32_t((z ^ (z >> 31)) >> 32);
  }

  void idle_inputs() {
    top->s_axil_awvalid = 0;
    top->s_axil_awaddr = 0;
    top->s_axil_awprot = 0;
    top->s_axil_wvalid = 0;
    top->s_axil_wdata = 0;
    top->s_axil_wstrb = 0;
    top->s_axil_bready = 0;
    top->s_axil_arvalid = 0;
    top->s_axil_araddr = 0;
    top->s_axil_arprot = 0;
    top->s_axil_rready = 0;
  }

  bool coin() { return delay_permille == 0 || (rng() % 1000) >= delay_permille; }

  // Settle the inputs set for this cycle (clock low).
  void settle() {
    top->clk_i = 0;
    top->edn_ack_i = 0;
    top->eval();
    if (top->edn_req_o && (edn_delay_permille == 0 || (edn_rng() % 1000) >= edn_delay_permille)) {
      top->edn_ack_i = 1;
      top->edn_data_i = edn_next();
      edn_words++;
    }
    eval_dump();
  }
  // Rising edge.
  void edge() {
    top->clk_i = 1;
    eval_dump();
    cycles++;
  }
  void tick() {
    settle();
    edge();
  }

  void reset() {
    idle_inputs();
    top->rst_ni = 0;
    for (int i = 0; i < 4; i++) tick();
    top->rst_ni = 1;
    tick();
  }

  // One write; returns BRESP (0 OKAY, 2 SLVERR), 4 on a hang. *ncyc = cycles taken.
  unsigned write(uint32_t addr, uint32_t data, uint32_t strb = 0xF, uint64_t* ncyc = nullptr) {
    uint64_t start = cycles;
    bool aw_done = false, w_done = false;
    unsigned resp = 4;
    top->s_axil_awaddr = addr;
    top->s_axil_wdata = data;
    top->s_axil_wstrb = strb;
    for (;;) {
      top->s_axil_awvalid = !aw_done && coin();
      top->s_axil_wvalid = !w_done && coin();
      top->s_axil_bready = coin();
      settle();
      bool aw_hs = top->s_axil_awvalid && top->s_axil_awready;
      bool w_hs = top->s_axil_wvalid && top->s_axil_wready;
      bool b_hs = top->s_axil_bvalid && top->s_axil_bready;
      unsigned bresp = top->s_axil_bresp;
      edge();
      aw_done |= aw_hs;
      w_done |= w_hs;
      if (b_hs) {
        resp = bresp;
        break;
      }
      if (cycles - start > watchdog) {
        hung = true;
        break;
      }
    }
    idle_inputs();
    if (ncyc) *ncyc = cycles - start;
    return resp;
  }

  // One read; returns RRESP (4 on a hang), data in *data.
  unsigned read(uint32_t addr, uint32_t* data, uint64_t* ncyc = nullptr) {
    uint64_t start = cycles;
    bool ar_done = false;
    unsigned resp = 4;
    *data = 0;
    top->s_axil_araddr = addr;
    for (;;) {
      top->s_axil_arvalid = !ar_done && coin();
      top->s_axil_rready = coin();
      settle();
      bool ar_hs = top->s_axil_arvalid && top->s_axil_arready;
      bool r_hs = top->s_axil_rvalid && top->s_axil_rready;
      uint32_t rdata = top->s_axil_rdata;
      unsigned rresp = top->s_axil_rresp;
      edge();
      ar_done |= ar_hs;
      if (r_hs) {
        *data = rdata;
        resp = rresp;
        break;
      }
      if (cycles - start > watchdog) {
        hung = true;
        break;
      }
    }
    idle_inputs();
    if (ncyc) *ncyc = cycles - start;
    return resp;
  }
};
