// SPDX-License-Identifier: Apache-2.0
// state_access.h: every state element of a Verilated pka design, by name, from a Verilator harness:
// a table of the registers (*_q, *_q2, arrays of them included) and the memories (mem_q), each
// with its hierarchical name, width, depth, group and a pointer into the model, built once at
// start-up from the model's symbol table; peek, poke and flip one bit; a
// snapshot of the whole table; the per-cycle Hamming distance between consecutive states of a
// chosen scope (power-like traces for a leakage assessment); which RAM words the accelerator's
// port touched (fault campaigns); which elements are not zero (wipe checks).
//
// How the table is made: the build adds tb/common/state_public_rd.vlt (or _rw.vlt), a Verilator
// configuration file that marks the convention's names public (`public_flat_rd` / `public_flat_rw`);
// Verilator then registers each of them in the model's scope map (VerilatedContext::scopeNameMap(),
// no VPI needed), with its data pointer, type and ranges. A build without the .vlt has an empty
// table. A write (poke, flip, snapshot load) is followed by the model's settle region, which
// re-evaluates every combinational process from the new state, so a flipped register reaches its
// fan-out before the next clock edge as a real upset would. In the _rw build Verilator itself
// re-evaluates the logic that reads a public writable variable at every evaluation (its reference
// semantics for external writes, about twice as slow): campaigns on both builds give identical
// outcomes (doc/fault.md), so the _rd build serves faults, traces and wipe checks alike.
//
// Not in the table: the register block (PeakRDL keeps its fields in an unpacked struct, which the
// symbol table cannot describe; the sequencer copies what an operation uses into its own registers
// at the start) and the Verilated model's own bookkeeping.
//
// Groups (state_group below): ram (pka_top's operand RAM and its read register), seq (the command
// sequencer), ctrl (pka_top's own registers), regs (a register block's registers, should one follow
// the convention), and in an engine (any scope under u_core): pe (the datapath array: PEs, rowers,
// Cox, gamma, kernels, slices), eram (engine memories mem_q: operand RAMs, FIFOs), eng (the rest:
// the engine's sequencers, program, I/O, reduction and ALU registers, counters).
//
// The line protocol (StateTable::command, used by tb/pka_top/top_harness.cpp); <j> is the entry of a
// memory (default 0), values are hex, scopes are comma-separated terms, each `all`, a group name or
// a prefix of the hierarchical name:
//   state                      -> state <n> <skipped>, then n lines "<i> <name> <width> <depth> <group> <rw>"
//   peek <i> [<j>]             -> data <hex>
//   poke <i> <hex> [<j>]       -> ok
//   flip <i> <bit> [<j>]       -> ok <old hex> <new hex>
//   snap save|load             -> ok <bytes> | ok <elements>
//   hd on <scope>              -> ok <elements> <bits>     (from the next clock edge on, one sample a cycle)
//   hd off                     -> hd <samples>
//   hd dump <path>             -> ok <samples>             (uint32 little-endian, one per cycle; clears)
//   track on|off               -> ok                       (on: clears and records RAM port accesses)
//   touched                    -> touched <n> <a>[-<b>] ... (RAM words read or written while tracking)
//   nonzero <scope>            -> nonzero <n> <i>:<entries not zero> ...
//   asserts on|off             -> ok   (the RTL's assertions; poke, flip and snap load turn them off)
#pragma once

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "Vtop.h"
#include "verilated.h"
#include "verilated_syms.h"

// The model's settle region (Verilator-generated, --prefix Vtop): evaluates every combinational
// process from the present state, as at time 0. Called after a write into the state so that the
// combinational fan-out of the written register sees the new value before the next clock edge.
void Vtop___024root___eval_settle(Vtop___024root* vlSelf);

// The per-cycle Hamming distance counts bits with the CPU's popcount instruction where there is one
// (without it GCC calls a library routine, several times slower).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__POPCNT__)
#pragma GCC push_options
#pragma GCC target("popcnt")
#define PKA_STATE_POP_OPTIONS 1
#endif

struct StateElem {
  std::string name;   // hierarchical, without Verilator's "TOP." prefix
  std::string group;
  uint32_t width = 0;  // packed bits of one entry
  uint32_t depth = 1;  // entries (1 for a register)
  uint32_t esize = 0;  // bytes of one entry in the model: 1, 2, 4, 8 or 4 * words
  uint8_t* data = nullptr;
  bool rw = false;
  bool mem = false;

  uint32_t words() const { return (width + 31) / 32; }
  uint32_t bytes() const { return esize * depth; }
  uint8_t* entry(uint32_t j) const { return data + size_t(esize) * j; }
  // mask of 32-bit word w of an entry
  uint32_t mask(uint32_t w) const {
    uint32_t top = width - 32 * w;
    return top >= 32 ? 0xFFFFFFFFu : ((1u << top) - 1u);
  }
  uint32_t word(uint32_t j, uint32_t w) const {
    const uint8_t* p = entry(j);
    uint32_t v;
    switch (esize) {
      case 1: v = *p; break;
      case 2: v = *reinterpret_cast<const uint16_t*>(p); break;
      case 4: v = *reinterpret_cast<const uint32_t*>(p); break;
      case 8: v = uint32_t(*reinterpret_cast<const uint64_t*>(p) >> (32 * w)); break;
      default: v = reinterpret_cast<const uint32_t*>(p)[w]; break;
    }
    return v & mask(w);
  }
  void set_word(uint32_t j, uint32_t w, uint32_t v) {
    uint8_t* p = entry(j);
    v &= mask(w);
    switch (esize) {
      case 1: *p = uint8_t(v); break;
      case 2: *reinterpret_cast<uint16_t*>(p) = uint16_t(v); break;
      case 4: *reinterpret_cast<uint32_t*>(p) = v; break;
      case 8: {
        uint64_t& q = *reinterpret_cast<uint64_t*>(p);
        q = (q & ~(uint64_t(0xFFFFFFFFu) << (32 * w))) | (uint64_t(v) << (32 * w));
        break;
      }
      default: reinterpret_cast<uint32_t*>(p)[w] = v; break;
    }
  }
  bool nonzero(uint32_t j) const {
    for (uint32_t w = 0; w < words(); w++)
      if (word(j, w)) return true;
    return false;
  }
};

// The group of a state element, by its place in the hierarchy (documented in doc/fault.md).
inline std::string state_group(const std::string& name, bool mem) {
  auto has = [&](const char* part) { return name.find(part) != std::string::npos; };
  if (has(".u_core.")) {
    if (mem) return "eram";
    static const char* const pe[] = {".u_array.", ".u_pe.", ".u_rower.", ".u_cox.", ".u_gamma.",
                                     ".u_kernel.", ".u_slice.", ".gen_pe[", ".gen_rower["};
    for (const char* p : pe)
      if (has(p)) return "pe";
    return "eng";
  }
  size_t dot = name.find('.');
  std::string rest = dot == std::string::npos ? name : name.substr(dot + 1);
  if (rest.rfind("u_ram.", 0) == 0) return "ram";
  if (rest.rfind("u_seq.", 0) == 0) return "seq";
  if (rest.rfind("u_regs.", 0) == 0) return "regs";
  return "ctrl";
}

// A variable name of the convention: registers *_q, *_q2 (memories are mem_q).
inline bool state_name(const char* n) {
  size_t l = std::strlen(n);
  if (l > 2 && std::strcmp(n + l - 2, "_q") == 0) return true;
  return l > 3 && std::strcmp(n + l - 3, "_q2") == 0;
}

class StateTable {
 public:
  std::vector<StateElem> elems;
  unsigned skipped = 0;  // public variables of a type the table does not hold (strings, reals)

  StateTable(VerilatedContext& ctx, Vtop* top) : ctx_(ctx), top_(top) {
    const VerilatedScopeNameMap* scopes = ctx.scopeNameMap();
    if (!scopes) return;
    for (const auto& sc : *scopes) {
      const VerilatedScope* scope = sc.second;
      std::string sname = scope->name();
      if (sname.rfind("TOP.", 0) == 0) sname = sname.substr(4);
      VerilatedVarNameMap* vars = scope->varsp();
      if (!vars) continue;
      for (auto& v : *vars) {
        VerilatedVar& var = v.second;
        if (var.isParam()) continue;
        if (!state_name(v.first)) {
          port_var(sname, v.first, var);
          continue;
        }
        StateElem e;
        e.name = sname + "." + v.first;
        e.width = var.entBits();
        switch (var.vltype()) {
          case VLVT_UINT8: e.esize = 1; break;
          case VLVT_UINT16: e.esize = 2; break;
          case VLVT_UINT32: e.esize = 4; break;
          case VLVT_UINT64: e.esize = 8; break;
          case VLVT_WDATA: e.esize = 4 * ((e.width + 31) / 32); break;
          default: skipped++; continue;
        }
        e.depth = 1;
        for (const auto& r : var.unpackedRanges()) e.depth *= uint32_t(r.elements());
        e.mem = std::strcmp(v.first, "mem_q") == 0;  // the convention's memories; other arrays are registers
        e.data = static_cast<uint8_t*>(var.datap());
        e.rw = var.isPublicRW();
        e.group = state_group(e.name, e.mem);
        elems.push_back(e);
      }
    }
    std::sort(elems.begin(), elems.end(), [](const StateElem& a, const StateElem& b) { return a.name < b.name; });
    // the RAM whose port is public (pka_top_ram's req_i/we_i/addr_i in the .vlt): its accesses can be tracked
    for (size_t i = 0; i < elems.size(); i++)
      if (elems[i].mem && elems[i].name == port_scope_ + ".mem_q") tracked_ = int(i);
  }

  size_t size() const { return elems.size(); }

  // After a write into the state: re-evaluate the combinational logic (see eval_settle above), and
  // turn the design's assertions off (a flipped state may break invariants the RTL asserts, e.g. the
  // register block's on its bus handshakes; silicon has no assertions): `asserts on` turns them back on.
  void settle() {
    ctx_.assertOn(false);
    Vtop___024root___eval_settle(top_->rootp);
  }

  // ---- observing the clock (VerilatedTop::on_eval) ------------------------------------------------
  // Called after every evaluation of the model with the clock level: samples the Hamming distance at
  // each rising edge, and the RAM port in the settled phase before it.
  void on_eval(bool clk) {
    if (clk && !last_clk_) {
      if (hd_on_) hd_sample();
    } else if (!clk && tracking_ && tracked_ >= 0 && port_req_ && *port_req_) {
      uint32_t a = port_addr_value();
      if (a < touched_.size()) touched_[a] = 1;
    }
    last_clk_ = clk;
  }
  static void on_eval_cb(void* self, bool clk) { static_cast<StateTable*>(self)->on_eval(clk); }

  // ---- scopes ------------------------------------------------------------------------------------
  std::vector<size_t> select(const std::string& scope) const {
    std::vector<std::string> terms;
    std::stringstream ss(scope);
    std::string t;
    while (std::getline(ss, t, ','))
      if (!t.empty()) terms.push_back(t);
    std::vector<size_t> out;
    for (size_t i = 0; i < elems.size(); i++) {
      for (const auto& term : terms) {
        if (term == "all" || term == elems[i].group || elems[i].name.rfind(term, 0) == 0) {
          out.push_back(i);
          break;
        }
      }
    }
    return out;
  }

  // ---- values ------------------------------------------------------------------------------------
  std::string hex(const StateElem& e, uint32_t j) const {
    std::string s;
    char buf[16];
    bool lead = true;
    for (int w = int(e.words()) - 1; w >= 0; w--) {
      uint32_t v = e.word(j, uint32_t(w));
      if (lead) {
        if (v == 0 && w > 0) continue;
        std::snprintf(buf, sizeof buf, "%x", v);
        lead = false;
      } else {
        std::snprintf(buf, sizeof buf, "%08x", v);
      }
      s += buf;
    }
    return s;
  }
  static bool set_hex(StateElem& e, uint32_t j, const std::string& text) {
    std::string h = text;
    if (h.rfind("0x", 0) == 0) h = h.substr(2);
    if (h.empty() || h.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) return false;
    for (uint32_t w = 0; w < e.words(); w++) {
      long end = long(h.size()) - 8 * long(w);
      uint32_t v = 0;
      if (end > 0) {
        long start = std::max(0L, end - 8);
        v = uint32_t(std::stoul(h.substr(size_t(start), size_t(end - start)), nullptr, 16));
      }
      e.set_word(j, w, v);
    }
    return true;
  }

  // ---- snapshot ----------------------------------------------------------------------------------
  size_t snap_save() {
    snap_.assign(elems.size(), {});
    size_t n = 0;
    for (size_t i = 0; i < elems.size(); i++) {
      snap_[i].assign(elems[i].data, elems[i].data + elems[i].bytes());
      n += elems[i].bytes();
    }
    return n;
  }
  bool snap_load() {
    if (snap_.size() != elems.size()) return false;
    size_t n = 0;
    for (size_t i = 0; i < elems.size(); i++) {
      std::memcpy(elems[i].data, snap_[i].data(), elems[i].bytes());
      n += elems[i].bytes();
    }
    return true;
  }

  // ---- Hamming distance between consecutive states -------------------------------------------
  // hd_start sorts the scope's entries by their storage type into flat lists (pointer, previous
  // value, mask), plus byte runs for memories of full-width entries; hd_sample XORs, masks and counts
  // each list in a tight loop.
  void hd_start(const std::vector<size_t>& sel) {
    for (auto& l : lists_) l.clear();
    runs_.clear();
    for (size_t i : sel) {
      const StateElem& e = elems[i];
      if (e.mem && e.esize <= 8 && e.width == 8 * e.esize) {
        Run r{e.data, e.bytes(), std::vector<uint8_t>(e.data, e.data + e.bytes())};
        runs_.push_back(std::move(r));
        continue;
      }
      for (uint32_t j = 0; j < e.depth; j++) {
        if (e.esize <= 8) {
          const uint64_t m = e.width >= 64 ? ~uint64_t(0) : ((uint64_t(1) << e.width) - 1);
          const int k = e.esize == 1 ? 0 : e.esize == 2 ? 1 : e.esize == 4 ? 2 : 3;
          lists_[k].add(e.entry(j), m, load(k, e.entry(j)) & m);
        } else {
          const uint32_t nw = e.esize / 4;
          for (uint32_t w = 0; w < nw; w++)
            lists_[2].add(e.entry(j) + 4 * w, e.mask(w), load(2, e.entry(j) + 4 * w) & e.mask(w));
        }
      }
    }
    hd_on_ = true;
  }
  void hd_sample() {
    uint32_t hd = lists_[0].sample<uint8_t>() + lists_[1].sample<uint16_t>() + lists_[2].sample<uint32_t>()
                + lists_[3].sample<uint64_t>();
    for (Run& r : runs_) hd += xor_popcount(r.data, r.prev.data(), r.bytes);
    hd_samples_.push_back(hd);
  }

  // ---- the line protocol ---------------------------------------------------------------------------
  // Handles one of the verbs above (true), or returns false for a verb it does not know.
  bool command(const std::string& verb, std::istringstream& in) {
    if (verb == "state") {
      std::printf("state %zu %u\n", elems.size(), skipped);
      for (size_t i = 0; i < elems.size(); i++) {
        const StateElem& e = elems[i];
        std::printf("%zu %s %u %u %s %d\n", i, e.name.c_str(), e.width, e.depth, e.group.c_str(), int(e.rw));
      }
    } else if (verb == "peek") {
      size_t i;
      uint32_t j = 0;
      if (!(in >> i) || i >= elems.size()) return bad("peek: no such element");
      in >> j;
      if (j >= elems[i].depth) return bad("peek: entry out of range");
      std::printf("data %s\n", hex(elems[i], j).c_str());
    } else if (verb == "poke") {
      size_t i;
      std::string v;
      uint32_t j = 0;
      if (!(in >> i >> v) || i >= elems.size()) return bad("poke: no such element");
      in >> j;
      if (j >= elems[i].depth) return bad("poke: entry out of range");
      if (!set_hex(elems[i], j, v)) return bad("poke: malformed value");
      settle();
      std::printf("ok\n");
    } else if (verb == "flip") {
      size_t i;
      uint32_t bit, j = 0;
      if (!(in >> i >> bit) || i >= elems.size()) return bad("flip: no such element");
      in >> j;
      StateElem& e = elems[i];
      if (j >= e.depth || bit >= e.width) return bad("flip: bit or entry out of range");
      std::string old = hex(e, j);
      e.set_word(j, bit / 32, e.word(j, bit / 32) ^ (1u << (bit % 32)));
      settle();
      std::printf("ok %s %s\n", old.c_str(), hex(e, j).c_str());
    } else if (verb == "snap") {
      std::string what;
      in >> what;
      if (what == "save") {
        std::printf("ok %zu\n", snap_save());
      } else if (what == "load") {
        if (!snap_load()) return bad("snap load: no snapshot");
        settle();
        std::printf("ok %zu\n", snap_.size());
      } else {
        return bad("snap save|load");
      }
    } else if (verb == "hd") {
      std::string what;
      in >> what;
      if (what == "on") {
        std::string scope;
        in >> scope;
        auto sel = select(scope);
        uint64_t bits = 0;
        for (size_t i : sel) bits += uint64_t(elems[i].width) * elems[i].depth;
        hd_samples_.clear();
        hd_start(sel);
        std::printf("ok %zu %" PRIu64 "\n", sel.size(), bits);
      } else if (what == "off") {
        hd_on_ = false;
        std::printf("hd %zu\n", hd_samples_.size());
      } else if (what == "dump") {
        std::string path;
        in >> path;
        FILE* f = std::fopen(path.c_str(), "wb");
        if (!f) return bad("hd dump: cannot write the file");
        std::fwrite(hd_samples_.data(), sizeof(uint32_t), hd_samples_.size(), f);
        std::fclose(f);
        std::printf("ok %zu\n", hd_samples_.size());
        hd_samples_.clear();
      } else {
        return bad("hd on <scope>|off|dump <path>");
      }
    } else if (verb == "track") {
      std::string what;
      in >> what;
      if (tracked_ < 0) return bad("track: no RAM with a public port in this build");
      tracking_ = what == "on";
      if (tracking_) touched_.assign(elems[size_t(tracked_)].depth, 0);
      std::printf("ok\n");
    } else if (verb == "touched") {
      std::string out;
      size_t n = 0;
      char buf[40];
      for (size_t a = 0; a < touched_.size(); a++) {
        if (!touched_[a]) continue;
        size_t b = a;
        while (b + 1 < touched_.size() && touched_[b + 1]) b++;
        n += b - a + 1;
        if (b > a) std::snprintf(buf, sizeof buf, " %zx-%zx", a, b);
        else std::snprintf(buf, sizeof buf, " %zx", a);
        out += buf;
        a = b;
      }
      std::printf("touched %zu%s\n", n, out.c_str());
    } else if (verb == "asserts") {
      std::string what;
      in >> what;
      ctx_.assertOn(what == "on");
      std::printf("ok\n");
    } else if (verb == "nonzero") {
      std::string scope;
      in >> scope;
      auto sel = select(scope);
      std::string out;
      size_t n = 0;
      char buf[40];
      for (size_t i : sel) {
        uint32_t c = 0;
        for (uint32_t j = 0; j < elems[i].depth; j++) c += elems[i].nonzero(j);
        if (c) {
          std::snprintf(buf, sizeof buf, " %zu:%u", i, c);
          out += buf;
          n++;
        }
      }
      std::printf("nonzero %zu%s\n", n, out.c_str());
    } else {
      return false;
    }
    return true;
  }

 private:
  VerilatedContext& ctx_;
  Vtop* top_;
  bool hd_on_ = false;
  std::vector<uint32_t> hd_samples_;
  // one storage type's entries in scope: where each lives, its mask and its previous value
  struct List {
    std::vector<const uint8_t*> ptr;
    std::vector<uint64_t> mask, prev;
    void clear() {
      ptr.clear();
      mask.clear();
      prev.clear();
    }
    void add(const uint8_t* p, uint64_t m, uint64_t v) {
      ptr.push_back(p);
      mask.push_back(m);
      prev.push_back(v);
    }
    template <typename T>
    uint32_t sample() {
      uint32_t hd = 0;
      const size_t n = ptr.size();
      for (size_t i = 0; i < n; i++) {
        T raw;
        std::memcpy(&raw, ptr[i], sizeof(T));
        const uint64_t v = uint64_t(raw) & mask[i];
        hd += uint32_t(__builtin_popcountll(v ^ prev[i]));
        prev[i] = v;
      }
      return hd;
    }
  };
  struct Run {   // a memory of full-width entries: its bytes and their previous values
    const uint8_t* data;
    uint32_t bytes;
    std::vector<uint8_t> prev;
  };
  List lists_[4];   // uint8, uint16, uint32 (and the words of wide entries), uint64
  std::vector<Run> runs_;
  std::vector<std::vector<uint8_t>> snap_;
  bool last_clk_ = false;
  // the tracked RAM port
  std::string port_scope_;
  const uint8_t* port_req_ = nullptr;
  const uint8_t* port_addr_ = nullptr;
  uint32_t port_addr_size_ = 0;
  int tracked_ = -1;
  bool tracking_ = false;
  std::vector<uint8_t> touched_;

  static bool bad(const char* msg) {
    std::printf("error %s\n", msg);
    return true;
  }
  static uint64_t load(int kind, const uint8_t* p) {
    switch (kind) {
      case 0: return *p;
      case 1: return *reinterpret_cast<const uint16_t*>(p);
      case 2: return *reinterpret_cast<const uint32_t*>(p);
      default: return *reinterpret_cast<const uint64_t*>(p);
    }
  }
  static uint32_t xor_popcount(const uint8_t* cur, uint8_t* prev, size_t n) {
    uint32_t hd = 0;
    size_t k = 0;
    for (; k + 8 <= n; k += 8) {
      uint64_t c, p;
      std::memcpy(&c, cur + k, 8);
      std::memcpy(&p, prev + k, 8);
      hd += uint32_t(__builtin_popcountll(c ^ p));
    }
    for (; k < n; k++) hd += uint32_t(__builtin_popcount(unsigned(cur[k] ^ prev[k])));
    std::memcpy(prev, cur, n);
    return hd;
  }
  // pka_top_ram's port (made public by the .vlt): req_i and addr_i of the scope that holds mem_q
  void port_var(const std::string& scope, const char* name, VerilatedVar& var) {
    bool req = std::strcmp(name, "req_i") == 0, addr = std::strcmp(name, "addr_i") == 0;
    if (!req && !addr) return;
    if (!port_scope_.empty() && port_scope_ != scope) return;
    port_scope_ = scope;
    if (req && var.vltype() == VLVT_UINT8) port_req_ = static_cast<const uint8_t*>(var.datap());
    if (addr && var.vltype() <= VLVT_UINT32 && var.vltype() >= VLVT_UINT8) {
      port_addr_ = static_cast<const uint8_t*>(var.datap());
      port_addr_size_ = var.vltype() == VLVT_UINT8 ? 1 : var.vltype() == VLVT_UINT16 ? 2 : 4;
    }
  }
  uint32_t port_addr_value() const {
    if (!port_addr_) return ~0u;
    switch (port_addr_size_) {
      case 1: return *port_addr_;
      case 2: return *reinterpret_cast<const uint16_t*>(port_addr_);
      default: return *reinterpret_cast<const uint32_t*>(port_addr_);
    }
  }
};

#ifdef PKA_STATE_POP_OPTIONS
#pragma GCC pop_options
#undef PKA_STATE_POP_OPTIONS
#endif
