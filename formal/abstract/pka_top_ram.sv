// SPDX-License-Identifier: Apache-2.0
// pka_top_ram (formal abstraction): an operand RAM whose reads return any value.
//
// Formal-only stand-in for rtl/top/pka_top_ram.sv (same module name, parameter and ports), picked by
// formal/pka.sby for the proofs about control (properties 3 and 4): every read returns a free value
// one cycle later, so every data-dependent branch of the sequencer (range checks, the scan of N,
// the doublings' signs) may go either way. It over-approximates the real RAM, which makes the
// control proofs hold whatever the operands are, and removes the datapath from the solver's view.
`default_nettype none

module pka_top_ram #(
  parameter int unsigned Aw = 11   // word address width, 4..16
) (
  input  logic          clk_i,
  input  logic          req_i,
  input  logic          we_i,
  input  logic [Aw-1:0] addr_i,
  input  logic [31:0]   wdata_i,
  output logic [31:0]   rdata_o
);
  // (a register, as in the real RAM: the harness reads it through hierarchical references, which
  // see a flip-flop's value as it is, while a net computed from a free value may be re-evaluated)
  (* anyseq *) logic [31:0] any_rdata;
  logic [31:0] rdata_q;
  always_ff @(posedge clk_i) rdata_q <= any_rdata;
  assign rdata_o = rdata_q;

  logic unused;
  assign unused = ^{req_i, we_i, addr_i, wdata_i};
endmodule
