// SPDX-License-Identifier: Apache-2.0
// pka_victor_acc: the accumulator stage of paper 003 (Figure 5): one loop of Algorithm 4,
//
//   S' := 2^K S + a_i B - 2^(2K) q N        (carry-save in, carry-save out, mod 2^Width)
//
// The a_i*B and -q*N generators (Table 2 through selection networks and a row of full adders
// each, Figure 6) give two words each; with 2^K S_a and 2^K S_c that is six words, added by four
// rows of full adders in a chain. The -qN words enter the last two rows, so the path from q is
// the -qN generator plus two full adders, the critical path the paper names. The one's-complement
// "+1"s of the negative terms (at most 5) go into the K free low bits of 2^K S_a.
// Width = MaxLen + 2K + 1; B < 2N and N are left-aligned (times 2^(MaxLen-n)) by the core.
//
// first_i = 1 (a product's merged first iteration, core drives S = 0): the -qN generator is idle
// there (q = 0), so it makes the second digit's product instead, and the first two iterations
// of Algorithm 4 take one loop:
//   S' := 2^K S + 2^K a_i B + alo_i B         (a_i = a_(n'-1), alo_i = a_(n'-2))
// a_i*B generator: input B 2^K instead of B; -qN generator: digit alo_i instead of q, input B
// instead of 2^(2K) N, sign + instead of -. first_i is a register, so the muxes on the generators'
// X inputs sit beside the Table-2 decoding, and the digit mux adds one select level before the
// -qN generator's decoding (src/pka/model/victor.py: accumulate_first, the precondition).
`default_nettype none

module pka_victor_acc #(
  parameter int unsigned K     = 5,    // scan factor, 3..5
  parameter int unsigned NW    = 64,   // width of N (MaxLen)
  parameter int unsigned Width = 75    // accumulator words, NW + 2K + 1
) (
  input  logic [Width-1:0] sa_i,
  input  logic [Width-1:0] sc_i,
  input  logic [K-1:0]     a_i,   // multiplier digit a_i (first_i: a_(n'-1))
  input  logic [K+1:0]     q_i,   // quotient estimate, <= 42 (ignored when first_i)
  input  logic             first_i,  // merged first iteration of a product
  input  logic [K-1:0]     alo_i, // first_i: the second digit a_(n'-2)
  input  logic [NW:0]      b_i,   // multiplicand B < 2N
  input  logic [NW-1:0]    n_i,   // modulus N
  output logic [Width-1:0] sa_o,
  output logic [Width-1:0] sc_o
);
  // parameter legality, checked at elaboration
  if (Width != NW + 2 * K + 1) begin : g_bad_param0
    $fatal(1, "pka_victor_acc: Width must be NW + 2K + 1");
  end

  logic [Width-1:0] ab_s, ab_c, qn_s, qn_c, w1, w2, x1, y1, x2, y2, x3, y3;
  logic [1:0] ab_neg, qn_neg;
  logic [2:0] corr;
  logic [NW+K:0]   ab_x;   // B, or B 2^K in the merged iteration
  logic [NW+2*K-1:0] qn_x; // 2^(2K) N, or B in the merged iteration
  logic [K+1:0]    qn_d;   // q, or a_(n'-2) in the merged iteration

  always_comb begin
    ab_x = first_i ? {b_i, {K{1'b0}}} : {{K{1'b0}}, b_i};
    qn_x = first_i ? {{(2 * K - 1){1'b0}}, b_i} : {n_i, {(2 * K){1'b0}}};
    qn_d = first_i ? {2'b00, alo_i} : q_i;
  end

  pka_victor_sdgen #(.Width(Width), .XW(NW + K + 1), .Shift(0), .DW(K + 2)) u_ab (
    .d_i({2'b00, a_i}), .negate_i(1'b0), .x_i(ab_x), .s_o(ab_s), .c_o(ab_c), .neg_o(ab_neg)
  );
  pka_victor_sdgen #(.Width(Width), .XW(NW + 2 * K), .Shift(0), .DW(K + 2)) u_qn (
    .d_i(qn_d), .negate_i(!first_i), .x_i(qn_x), .s_o(qn_s), .c_o(qn_c), .neg_o(qn_neg)
  );

  always_comb begin
    corr = 3'(ab_neg) + 3'(qn_neg);
    w1   = {sa_i[Width-K-1:0], K'(corr)};
    w2   = {sc_i[Width-K-1:0], {K{1'b0}}};
  end

  pka_victor_fa_row #(.Width(Width)) u_row1 (.x_i(w1), .y_i(w2), .z_i(ab_s), .s_o(x1), .c_o(y1));
  pka_victor_fa_row #(.Width(Width)) u_row2 (.x_i(x1), .y_i(y1), .z_i(ab_c), .s_o(x2), .c_o(y2));
  pka_victor_fa_row #(.Width(Width)) u_row3 (.x_i(x2), .y_i(y2), .z_i(qn_s), .s_o(x3), .c_o(y3));
  pka_victor_fa_row #(.Width(Width)) u_row4 (.x_i(x3), .y_i(y3), .z_i(qn_c), .s_o(sa_o), .c_o(sc_o));

  logic unused_top;
  assign unused_top = ^{sa_i[Width-1 -: K], sc_i[Width-1 -: K]};
endmodule
