// SPDX-License-Identifier: Apache-2.0
// pka_mwr4_post: post-processor of the last pass: carry-save words -> two's complement result T and
// the correction code c that makes T + c*M canonical (doc/mwr4.md, "final result").
//
// Per word j (one per cycle, least significant first):
//   t_j = SS_j + SC_j + (a_top ? B_j : 0) + (j == 0 ? cl : carry)      (2-bit word carry)
//   d1_j = t_j - M_j - borrow1,  d2_j = t_j - 2M_j - borrow2           (2M_j from the previous M word)
// a_top*B is the Booth top-bit correction (A = sum qa_j 4^j + a_top 2^(kD)). With the top word,
// sign(T), sign(T - M), sign(T - 2M) give c = +1 (T < 0), 0 (T < M), -1 (T < 2M) or -2, as a 2-bit
// two's complement number, valid in the cycle of the last word. T is in (-M, 3M) by the model's
// range argument, so T + c*M is in [0, M). Latency: combinational, word carries registered.
// wipe_i (OP_ZEROIZE) clears the word carries and borrows.
`default_nettype none

module pka_mwr4_post #(
  parameter int unsigned W = 16  // word size
) (
  input  logic         clk_i,
  input  logic         wipe_i,   // clear the state (OP_ZEROIZE)
  input  logic         valid_i,
  input  logic         first_i,
  input  logic [W-1:0] ss_i,
  input  logic [W-1:0] sc_i,
  input  logic         cl_i,
  input  logic [W-1:0] b_i,
  input  logic [W-1:0] m_i,
  input  logic         a_top_i,
  output logic [W-1:0] t_o,
  output logic [1:0]   c_o
);
  logic [1:0]   carry_q, carry_d;
  logic         br1_q, br1_d, br2_q, br2_d, mprev_q, mprev_d;
  logic [W+1:0] sum;
  logic [W:0]   d1, d2;
  logic [W-1:0] m2;

  always_comb begin
    sum = (W+2)'(ss_i) + (W+2)'(sc_i) + (W+2)'(a_top_i ? b_i : '0)
        + (W+2)'(first_i ? {1'b0, cl_i} : carry_q);
    t_o = sum[W-1:0];
    m2  = {m_i[W-2:0], first_i ? 1'b0 : mprev_q};
    d1  = {1'b0, t_o} - {1'b0, m_i} - (W+1)'(first_i ? 1'b0 : br1_q);
    d2  = {1'b0, t_o} - {1'b0, m2} - (W+1)'(first_i ? 1'b0 : br2_q);
    if (t_o[W-1])       c_o = 2'b01;  // T < 0: +M
    else if (d1[W-1])   c_o = 2'b00;  // 0 <= T < M
    else if (d2[W-1])   c_o = 2'b11;  // M <= T < 2M: -M
    else                c_o = 2'b10;  // 2M <= T: -2M
    carry_d = valid_i ? sum[W+1:W] : carry_q;
    br1_d   = valid_i ? d1[W] : br1_q;
    br2_d   = valid_i ? d2[W] : br2_q;
    mprev_d = valid_i ? m_i[W-1] : mprev_q;
    if (wipe_i) begin
      carry_d = '0;
      br1_d   = 1'b0;
      br2_d   = 1'b0;
      mprev_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    carry_q <= carry_d;
    br1_q   <= br1_d;
    br2_q   <= br2_d;
    mprev_q <= mprev_d;
  end

endmodule
