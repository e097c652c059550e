// SPDX-License-Identifier: Apache-2.0
// pka_rns_core: the rns engine (paper 002, Bigou-Tisserand CHES 2015), one of two builds:
//   Sbmm = 0: classical RNS Montgomery (MM) on n = ceil((MaxLen + 8)/W) rowers, bases B and B'
//             (pka_rns_mm: MR, modmul, modexp, modadd/modsub, ECC (X,Z) ladder);
//   Sbmm = 1: SBMM for P = Ma^2 - 2 on n_b = MaxLen/(2W) + 1 rowers plus the m_gamma = 2^6
//             channel (pka_rns_sb: SBMM + Compress, modmul, modexp).
// Both have the common engine boundary; the slots and schedules are in the two builds' headers
// and in doc/rns.md.
`default_nettype none

module pka_rns_core
  import pka_pkg::*;
#(
  parameter int unsigned MaxLen = 256,  // largest modulus bits (Sbmm = 1: a multiple of 2W)
  parameter int unsigned MemAw  = 14,   // word address width: 16 slots of 2^(MemAw-4) words
  parameter int unsigned W      = 32,   // channel width, 16 or 32
  parameter int unsigned Sbmm   = 0     // 0: MM build, 1: SBMM build
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               cmd_valid_i,
  output logic               cmd_ready_o,
  input  logic [7:0]         cmd_op_i,
  input  logic [15:0]        cmd_len_i,
  input  logic [15:0]        cmd_elen_i,
  input  logic [31:0]        cmd_arg_i,
  output logic               mem_req_o,
  input  logic               mem_gnt_i,
  output logic               mem_we_o,
  output logic [MemAw-1:0]   mem_addr_o,
  output logic [31:0]        mem_wdata_o,
  input  logic               mem_rvalid_i,
  input  logic [31:0]        mem_rdata_i,
  output logic               done_o,
  output logic [7:0]         status_o,
  output logic [31:0]        cycles_o,
  output logic [31:0]        io_cycles_o
);
  initial if (Sbmm > 1) $fatal(1, "Sbmm must be 0 or 1");

  if (Sbmm == 0) begin : g_mm
    pka_rns_mm #(.MaxLen(MaxLen), .MemAw(MemAw), .W(W)) u_mm (
      .clk_i, .rst_ni, .cmd_valid_i, .cmd_ready_o, .cmd_op_i, .cmd_len_i, .cmd_elen_i, .cmd_arg_i,
      .mem_req_o, .mem_gnt_i, .mem_we_o, .mem_addr_o, .mem_wdata_o, .mem_rvalid_i, .mem_rdata_i,
      .done_o, .status_o, .cycles_o, .io_cycles_o
    );
  end else begin : g_sb
    pka_rns_sb #(.MaxLen(MaxLen), .MemAw(MemAw), .W(W)) u_sb (
      .clk_i, .rst_ni, .cmd_valid_i, .cmd_ready_o, .cmd_op_i, .cmd_len_i, .cmd_elen_i, .cmd_arg_i,
      .mem_req_o, .mem_gnt_i, .mem_we_o, .mem_addr_o, .mem_wdata_o, .mem_rvalid_i, .mem_rdata_i,
      .done_o, .status_o, .cycles_o, .io_cycles_o
    );
  end
endmodule
