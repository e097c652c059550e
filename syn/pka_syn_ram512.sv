// SPDX-License-Identifier: Apache-2.0
// pka_syn_ram512: one 512 x 32 RAM bank with a registered output (read latency 2 cycles).
//
// Behavioural model, used in simulation and for the iCE40 and Xilinx-7 targets (Yosys infers the
// block RAM and keeps the second register as flip-flops or the RAM's output register). For ECP5 the
// flow reads syn/ecp5/pka_syn_ram512.v instead: the same module on a DP16KD with REGMODE OUTREG,
// because the EBR's clock-to-output without that register (5.6 ns at speed grade 6) would cap the
// clock of every engine below ~140 MHz.
//   cycle t:   re_i/we_i with addr_i (and wdata_i)   -> the write takes place at the edge ending t
//   cycle t+2: rdata_o = RAM[addr_i] as read at t   (no read and write in the same cycle)
`default_nettype none

module pka_syn_ram512 (
  input  logic        clk_i,
  input  logic        re_i,
  input  logic        we_i,
  input  logic [8:0]  addr_i,
  input  logic [31:0] wdata_i,
  output logic [31:0] rdata_o
);
  logic [31:0] mem_q [512];
  logic [31:0] rd1_q, rd2_q;

  // The standard RAM pattern for inference: the one exception to "always_ff holds only q <= d".
  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[addr_i] <= wdata_i;
    if (re_i) rd1_q <= mem_q[addr_i];
    rd2_q <= rd1_q;
  end

  assign rdata_o = rd2_q;
endmodule
