// SPDX-License-Identifier: Apache-2.0
// pka_victor_fa_row: one row of full adders (a 3:2 carry-save compressor), Width bits.
//
// x + y + z = s + c (mod 2^Width): s_i = x_i ^ y_i ^ z_i, c_(i+1) = maj(x_i, y_i, z_i), c_0 = 0.
// The carry out of the top bit is dropped: every carry-save word of the victor datapath is kept
// mod 2^Width (paper 003, Figures 5 and 6). Combinational, one full-adder delay.
`default_nettype none

module pka_victor_fa_row #(
  parameter int unsigned Width = 64  // word width, >= 2
) (
  input  logic [Width-1:0] x_i,
  input  logic [Width-1:0] y_i,
  input  logic [Width-1:0] z_i,
  output logic [Width-1:0] s_o,
  output logic [Width-1:0] c_o
);
  // parameter legality, checked at elaboration
  if (Width < 2) begin : g_bad_param0
    $fatal(1, "pka_victor_fa_row: Width must be >= 2");
  end

  logic [Width-1:0] maj;
  assign maj = (x_i & y_i) | (x_i & z_i) | (y_i & z_i);
  assign s_o = x_i ^ y_i ^ z_i;
  assign c_o = {maj[Width-2:0], 1'b0};

  logic unused_maj_top;
  assign unused_maj_top = maj[Width-1];
endmodule
