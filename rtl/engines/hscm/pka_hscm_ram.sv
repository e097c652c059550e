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
  logic         oka_q, okb_q;

  // A read outside the memory returns 0. The range check is registered beside the read and masks
  // the data after it, so that it stays off the address path (on an FPGA it would otherwise
  // drive the block RAM's output reset from the address comparator).
  always_ff @(posedge clk_i) begin
    if (we_i && 32'(wa_i) < Depth) mem_q[wa_i] <= wd_i;
    rda_q <= mem_q[ra_i];
    rdb_q <= mem_q[rb_i];
    oka_q <= 32'(ra_i) < Depth;
    okb_q <= 32'(rb_i) < Depth;
  end

  assign rda_o = oka_q ? rda_q : '0;
  assign rdb_o = okb_q ? rdb_q : '0;
endmodule
