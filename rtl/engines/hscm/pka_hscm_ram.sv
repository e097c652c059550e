// SPDX-License-Identifier: Apache-2.0
// pka_hscm_ram: word-addressed operand memory of one HSCM: two synchronous read ports (data one
// cycle after the address) and one write port (a read of the word being written returns the old
// word).  On an FPGA this is two block RAMs written in parallel; in an ASIC a 2R1W register file.
`default_nettype none

module pka_hscm_ram #(
  parameter int unsigned W     = 16,   // word bits
  parameter int unsigned Depth = 64,   // words
  parameter int unsigned Aw    = 6     // address bits, >= clog2(Depth)
) (
  input  logic          clk_i,
  input  logic [Aw-1:0] ra_i,     // read port a
  output logic [W-1:0]  rda_o,
  input  logic [Aw-1:0] rb_i,     // read port b
  output logic [W-1:0]  rdb_o,
  input  logic          we_i,
  input  logic [Aw-1:0] wa_i,
  input  logic [W-1:0]  wd_i
);
  initial begin
    if ((1 << Aw) < Depth) $fatal(1, "pka_hscm_ram: Aw too small for Depth");
  end

  logic [W-1:0] mem_q [Depth];
  logic [W-1:0] rda_q, rdb_q;

  // A read outside the memory (a sequencer's read address runs on while it idles) returns an
  // undefined word: no unit uses one. There is no range check on the read path (its comparator
  // was the end of the engine's worst path); the hscm tests pass with such reads returning all
  // ones instead of 0 (checked 2026-11-28), so nothing depends on their value.
  always_ff @(posedge clk_i) begin
    if (we_i && 32'(wa_i) < Depth) mem_q[wa_i] <= wd_i;
    rda_q <= mem_q[ra_i];
    rdb_q <= mem_q[rb_i];
  end

  assign rda_o = rda_q;
  assign rdb_o = rdb_q;
endmodule
