// SPDX-License-Identifier: Apache-2.0
// Verilator harness for pka_top: an AXI4-Lite master (top_axil.h) driven by a line protocol on
// stdin/stdout, so pka.driver can run the accelerator through its bus (pka.rtl.top.TopSim):
//
//   reset                         -> ok
//   wr <addr> <data> [<strb>]     -> ok <bresp> <cycles>
//   rd <addr>                     -> data <value> <rresp> <cycles>
//   wrn <addr> <w0> <w1> ...      -> ok <cycles> <errors>   (writes to addr, addr+4, ...)
//   rdn <addr> <n>                -> data <cycles> <errors> <w0> ... <wn-1>
//   wait <max_cycles>             -> irq <cycles> | timeout <cycles>   (clock until irq_o)
//   idle <n>                      -> ok                                (n clock cycles)
//   delay <permille> <seed>       -> ok   (random valid/ready holdback on the master side)
//   progress <every>              -> ok   (print "progress <cycles>" every N cycles in wait)
//   fuzz <n> <seed> <watchdog>    -> ok <reads> <writes> <errors> <cmds> <max_latency>
//                                    | hang <transaction>
//      n random transactions: random address (biased to the registers and slot windows), random
//      data, random commands (CMD/LEN/ARG with random opcodes, engines and lengths), random byte
//      strobes, with the master's random delays; each must end within <watchdog> cycles.
//   cycles                        -> cycles <total>
//   entropy <seed> <permille>     -> ok   (the entropy port's generator: seed, delay probability)
//   entropy_words                 -> words <delivered so far>
//   sw <r_bits>                   -> the output lines of the C example (sw/example.c through the C
//                                    driver sw/pka.c, its bus callbacks as AXI transactions here),
//                                    then "sw <rc> <bus_cycles>"
//   state, peek, poke, flip, snap, hd, track, touched, nonzero
//                                 -> the state access of tb/common/state_access.h (every register and
//                                    memory of the design by name: a build with state_public_*.vlt)
//   quit
// All numbers are hex except cycle counts, counts and permille/seed/watchdog (decimal).
#include <cinttypes>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include "state_access.h"
#include "top_axil.h"

#include "pka.h"  // the C driver (sw/), C linkage

namespace {

// the C driver's bus: AXI4-Lite transactions of the master, wait_irq clocks until irq_o
uint32_t sw_read(void* ctx, uint32_t off) {
  uint32_t v = 0;
  static_cast<AxilMaster*>(ctx)->read(off, &v);
  return v;
}

void sw_write(void* ctx, uint32_t off, uint32_t value) { static_cast<AxilMaster*>(ctx)->write(off, value); }

void sw_wait_irq(void* ctx) {
  auto* m = static_cast<AxilMaster*>(ctx);
  for (uint64_t i = 0; i < 100000000ull; i++) {
    m->settle();
    if (m->top->irq_o) return;
    m->edge();
  }
}

uint32_t hex(const std::string& s) { return uint32_t(std::stoul(s, nullptr, 16)); }

// Addresses the fuzzer favours: registers (incl. holes), the slot windows, beyond.
uint32_t fuzz_addr(std::mt19937& rng) {
  static const uint32_t regs[] = {0x000, 0x004, 0x008, 0x010, 0x014, 0x018, 0x020, 0x024,
                                  0x028, 0x02C, 0x030, 0x034, 0x038, 0x040, 0x044, 0x048};
  unsigned k = rng() % 100;
  if (k < 35) return regs[rng() % 16];
  if (k < 70) return 0x1000 * (1 + rng() % 16) + (rng() % 0x400);  // backed part of slot windows
  if (k < 85) return 0x1000 + (rng() % 0x10000);                    // anywhere in the windows
  return rng() % 0x20000;
}

}  // namespace

int main(int argc, char** argv) {
  AxilMaster m;
  m.ctx.commandArgs(argc, argv);
  StateTable state(m.ctx, m.top);  // empty unless the build marks the state public (tb/common/state_public_*.vlt)
  m.on_eval = StateTable::on_eval_cb;
  m.on_eval_ctx = &state;
  m.reset();
  uint64_t progress_every = 0;
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string verb;
    in >> verb;
    if (verb == "quit") break;
    if (verb == "reset") {
      m.reset();
      std::printf("ok\n");
    } else if (verb == "wr") {
      std::string a, d, s = "f";
      in >> a >> d;
      if (!(in >> s)) s = "f";
      uint64_t n = 0;
      unsigned r = m.write(hex(a), hex(d), hex(s), &n);
      std::printf("ok %u %" PRIu64 "\n", r, n);
    } else if (verb == "rd") {
      std::string a;
      in >> a;
      uint32_t v = 0;
      uint64_t n = 0;
      unsigned r = m.read(hex(a), &v, &n);
      std::printf("data %x %u %" PRIu64 "\n", v, r, n);
    } else if (verb == "wrn") {
      std::string a, w;
      in >> a;
      uint32_t addr = hex(a);
      uint64_t start = m.cycles;
      unsigned errs = 0;
      while (in >> w) {
        errs += m.write(addr, hex(w)) != 0;
        addr += 4;
      }
      std::printf("ok %" PRIu64 " %u\n", m.cycles - start, errs);
    } else if (verb == "rdn") {
      std::string a;
      unsigned long n = 0;
      in >> a >> n;
      uint32_t addr = hex(a);
      uint64_t start = m.cycles;
      unsigned errs = 0;
      std::string out;
      char buf[16];
      for (unsigned long i = 0; i < n; i++) {
        uint32_t v = 0;
        errs += m.read(addr + 4 * uint32_t(i), &v) != 0;
        std::snprintf(buf, sizeof buf, " %x", v);
        out += buf;
      }
      std::printf("data %" PRIu64 " %u%s\n", m.cycles - start, errs, out.c_str());
    } else if (verb == "wait") {
      unsigned long long maxc = 0;
      in >> maxc;
      uint64_t start = m.cycles;
      bool irq = false;
      for (;;) {
        m.settle();
        if (m.top->irq_o) {
          irq = true;
          break;
        }
        if (m.cycles - start >= maxc) break;
        m.edge();
        if (progress_every && (m.cycles - start) % progress_every == 0) {
          std::printf("progress %" PRIu64 "\n", m.cycles - start);
          std::fflush(stdout);
        }
      }
      std::printf("%s %" PRIu64 "\n", irq ? "irq" : "timeout", m.cycles - start);
    } else if (verb == "idle") {
      unsigned long long n = 0;
      in >> n;
      for (unsigned long long i = 0; i < n; i++) m.tick();
      std::printf("ok\n");
    } else if (verb == "delay") {
      unsigned p = 0, seed = 1;
      in >> p >> seed;
      m.delay_permille = p;
      m.rng.seed(seed);
      std::printf("ok\n");
    } else if (verb == "progress") {
      unsigned long long every = 0;
      in >> every;
      progress_every = every;
      std::printf("ok\n");
    } else if (verb == "sw") {
      unsigned r_bits = 0;
      in >> r_bits;
      pka_bus_t bus = {sw_read, sw_write, sw_wait_irq, &m};
      uint64_t start = m.cycles;
      std::fflush(stdout);
      int rc = pka_example_run(&bus, r_bits);
      std::fflush(stdout);
      std::printf("sw %d %" PRIu64 "\n", rc, m.cycles - start);
    } else if (verb == "entropy") {
      unsigned long long seed = 0;
      unsigned p = 0;
      in >> seed >> p;
      m.edn_state = seed;
      m.edn_delay_permille = p;
      m.edn_rng.seed(unsigned(seed));
      std::printf("ok\n");
    } else if (verb == "entropy_words") {
      std::printf("words %" PRIu64 "\n", m.edn_words);
    } else if (verb == "cycles") {
      std::printf("cycles %" PRIu64 "\n", m.cycles);
    } else if (verb == "fuzz") {
      unsigned long n = 0, seed = 1, wd = 100000;
      in >> n >> seed >> wd;
      std::mt19937 rng(seed);
      uint64_t saved_wd = m.watchdog;
      m.watchdog = wd;
      unsigned long reads = 0, writes = 0, errs = 0, cmds = 0;
      uint64_t max_lat = 0;
      bool hang = false;
      unsigned long i = 0;
      for (; i < n; i++) {
        uint64_t lat = 0;
        unsigned r;
        unsigned k = rng() % 100;
        if (k < 8) {
          // a command: LEN (random, mostly small), sometimes ARG, then CMD with a random opcode
          uint32_t len = (rng() % 4) ? rng() % 300 : rng();
          r = m.write(0x014, len, 0xF, &lat);
          errs += r != 0;
          uint32_t op = (rng() % 8) ? rng() % 17 : rng();
          uint32_t eng = (rng() % 4) ? 0 : rng() % 16;
          r = m.write(0x010, op | (eng << 8), 0xF, &lat);
          writes += 2;
          cmds++;
        } else if (k < 50) {
          uint32_t addr = fuzz_addr(rng);
          uint32_t strb = (rng() % 8) ? 0xF : rng() % 16;
          uint32_t data = rng();
          // CMD is written only by the command branch above, so the opcode mix stays controlled
          if ((addr & ~3u) == 0x010) addr = 0x018;
          r = m.write(addr, data, strb, &lat);
          writes++;
        } else {
          uint32_t v;
          r = m.read(fuzz_addr(rng), &v, &lat);
          reads++;
        }
        if (lat > max_lat) max_lat = lat;
        if (m.hung || r == 4) {
          hang = true;
          break;
        }
        errs += r != 0;
        if (rng() % 16 == 0) {
          unsigned gap = rng() % 64;
          for (unsigned g = 0; g < gap; g++) m.tick();
        }
      }
      m.watchdog = saved_wd;
      if (hang) {
        std::printf("hang %lu\n", i);
      } else {
        std::printf("ok %lu %lu %lu %lu %" PRIu64 "\n", reads, writes, errs, cmds, max_lat);
      }
    } else if (state.command(verb, in)) {
      // handled by the state table
    } else {
      std::printf("error unknown verb %s\n", verb.c_str());
    }
    std::fflush(stdout);
  }
  return 0;
}
