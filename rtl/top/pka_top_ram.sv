// SPDX-License-Identifier: Apache-2.0
// pka_top_ram: the operand RAM of pka_top, one port, 2^Aw words of 32 bits.
//
// A synchronous single-port RAM: a write stores wdata_i at the edge; a read returns mem[addr_i] in
// rdata_o during the next cycle (one cycle of latency, as the engines' word port expects). This is
// the inferable template FPGA tools map to block RAM and an ASIC flow replaces by an SRAM macro; it
// has no reset (the top clears it with a zeroization pass after reset).
`default_nettype none

module pka_top_ram #(
  parameter int unsigned Aw = 11   // word address width, 4..16 (16 slots of 2^(Aw-4) words)
) (
  input  logic          clk_i,
  input  logic          req_i,
  input  logic          we_i,
  input  logic [Aw-1:0] addr_i,
  input  logic [31:0]   wdata_i,
  output logic [31:0]   rdata_o
);
  initial begin
    if (Aw < 4 || Aw > 16) $fatal(1, "pka_top_ram: Aw must be 4..16");
  end

  logic [31:0] mem_q [2**Aw];
  logic [31:0] rdata_q;

  // The RAM template: a memory array is written in a clocked block (no reset by design).
  always_ff @(posedge clk_i) begin
    if (req_i && we_i) mem_q[addr_i] <= wdata_i;
  end
  always_ff @(posedge clk_i) begin
    if (req_i && !we_i) rdata_q <= mem_q[addr_i];
  end
  assign rdata_o = rdata_q;
endmodule
