// SPDX-License-Identifier: Apache-2.0
// pka_hscm_alu: word-serial passes over the two HSCMs' operand RAMs, one word per cycle.
//   CMP    flag = (X >= REF), X and REF entries of HSCM 0 (operand range checks after loading);
//   CHECK  flag = (P0 + P1 != N + 1): P0 = u q (HSCM 0, product entry), P1 = v p (HSCM 1),
//          N (HSCM 0): holds iff p, q coprime, u, v their inverses and N = p q (CRT);
//   ADD    X = P0 + P1 -> HSCM 0 (CRT: y_p q + y_q p of eq. 4).
// Word j is read in cycle start + j, its operands registered one cycle later and processed two
// cycles later: words + 2 cycles (the core starts CHECK and ADD in the cycle before their
// state, so that these phases keep words + 1 cycles of their own).  Reads of
// P0 beyond lim0_i words, P1 beyond lim1_i and N beyond limn_i are taken as 0.
// wipe_i (OP_ZEROIZE) holds every register at 0.
`default_nettype none

module pka_hscm_alu
  import pka_hscm_pkg::*;
#(
  parameter int unsigned W  = 16,
  parameter int unsigned Aw = 12,
  parameter int unsigned Ew = 68
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          wipe_i,      // OP_ZEROIZE: every register to 0
  input  logic          start_i,
  input  logic [1:0]    mode_i,      // 0 CMP, 1 CHECK, 2 ADD
  input  logic [7:0]    x_ent_i,     // CMP: X, REF
  input  logic [7:0]    ref_ent_i,
  input  logic [15:0]   words_i,
  input  logic [15:0]   lim0_i,
  input  logic [15:0]   lim1_i,
  input  logic [15:0]   limn_i,
  output logic [Aw-1:0] ra0_o,
  output logic [Aw-1:0] rb0_o,
  output logic [Aw-1:0] ra1_o,
  input  logic [W-1:0]  rda0_i,
  input  logic [W-1:0]  rdb0_i,
  input  logic [W-1:0]  rda1_i,
  output logic          we0_o,
  output logic [Aw-1:0] wa0_o,
  output logic [W-1:0]  wd0_o,
  output logic          busy_o,
  output logic          done_o,
  output logic          flag_o
);
  localparam logic [1:0] M_CMP = 2'd0, M_CHECK = 2'd1, M_ADD = 2'd2;

  logic        act_q, act_d;       // issuing reads
  logic [15:0] j_q, j_d;           // next word to read
  logic        pv_q, pv_d;         // processing word pj_q
  logic [15:0] pj_q, pj_d;
  logic [1:0]  mode_q, mode_d;
  logic [7:0]  x_q, x_d, r_q, r_d;
  logic [15:0] n_q, n_d, l0_q, l0_d, l1_q, l1_d, ln_q, ln_d;
  logic [2:0]  cy_q, cy_d;         // carry / borrow (signed for CHECK)
  logic        fl_q, fl_d;

  function automatic logic [Aw-1:0] addr(logic [7:0] ent, logic [15:0] x);
    return Aw'(ent_base(ent, Ew) + 32'(x));
  endfunction

  logic [15:0]  j;
  logic         issue;
  logic [7:0]   xe, re;
  logic [1:0]   md;
  logic [W+2:0] s;
  logic [W-1:0] p0, p1, nn;

  // read side (word 0 in the start cycle) and operation registers
  always_comb begin
    act_d  = act_q;
    j_d    = j_q;
    mode_d = mode_q;
    x_d = x_q;
    r_d = r_q;
    n_d = n_q;
    l0_d = l0_q;
    l1_d = l1_q;
    ln_d = ln_q;

    md    = start_i ? mode_i : mode_q;
    xe    = start_i ? x_ent_i : x_q;
    re    = start_i ? ref_ent_i : r_q;
    j     = start_i ? '0 : j_q;
    issue = start_i || act_q;
    if (start_i) begin
      mode_d = mode_i;
      x_d = x_ent_i;
      r_d = ref_ent_i;
      n_d = words_i;
      l0_d = lim0_i;
      l1_d = lim1_i;
      ln_d = limn_i;
    end
    if (md == M_CMP) begin
      ra0_o = addr(xe, j);
      rb0_o = addr(re, j);
    end else begin
      ra0_o = addr(ENT_PR, j);
      rb0_o = addr(ENT_NMOD, j);
    end
    ra1_o = addr(ENT_PR, j);
    pv_d  = issue;
    pj_d  = j;
    if (issue) begin
      j_d   = j + 16'd1;
      act_d = (j + 16'd1) != (start_i ? words_i : n_q);
    end
    if (wipe_i) {act_d, j_d, mode_d, x_d, r_d, n_d, l0_d, l1_d, ln_d, pv_d, pj_d} = '0;
  end

  // stage 1: word pj_q, read in the previous cycle: operands registered (P0 + P1 and N + 1 for
  // CHECK, P0 + P1 for ADD, X and REF for CMP), so that no adder follows the RAM
  logic            v2_q, v2_d, l2_q, l2_d;   // stage 2 valid, last word
  logic [15:0]     j2_q, j2_d;
  logic [W:0]      pp_q, pp_d, nq_q, nq_d;

  always_comb begin
    p0 = (pj_q < l0_q) ? rda0_i : '0;
    p1 = (pj_q < l1_q) ? rda1_i : '0;
    nn = (pj_q < ln_q) ? rdb0_i : '0;
    v2_d = pv_q;
    l2_d = !act_q;     // the last word: no read was issued after it
    j2_d = pj_q;
    unique case (mode_q)
      M_CMP: begin
        pp_d = (W+1)'(rda0_i);
        nq_d = (W+1)'(rdb0_i);
      end
      M_CHECK: begin
        pp_d = (W+1)'(p0) + (W+1)'(p1);
        nq_d = (W+1)'(nn) + (W+1)'(pj_q == '0);
      end
      default: begin
        pp_d = (W+1)'(p0) + (W+1)'(p1);
        nq_d = '0;
      end
    endcase
    if (wipe_i) {v2_d, l2_d, j2_d, pp_d, nq_d} = '0;
  end

  // stage 2: the carry chain over the words, the flag and the ADD write
  always_comb begin
    cy_d = cy_q;
    fl_d = fl_q;
    done_o = 1'b0;
    we0_o  = 1'b0;
    wa0_o  = '0;
    wd0_o  = '0;
    unique case (mode_q)
      M_CMP:   s = (W+3)'(pp_q) - (W+3)'(nq_q) - (W+3)'(cy_q[0]);          // X - REF
      M_CHECK: s = (W+3)'(pp_q) + {{W{cy_q[2]}}, cy_q} - (W+3)'(nq_q);     // P0 + P1 - N - 1
      default: s = (W+3)'(pp_q) + (W+3)'(cy_q);                            // P0 + P1
    endcase
    if (v2_q) begin
      cy_d = (mode_q == M_CMP) ? {2'b00, s[W+2]} : s[W+2:W];
      if (mode_q == M_CHECK && s[W-1:0] != '0) fl_d = 1'b1;
      if (mode_q == M_ADD) begin
        we0_o = 1'b1;
        wa0_o = addr(ENT_X, j2_q);
        wd0_o = s[W-1:0];
      end
      if (l2_q) begin
        done_o = 1'b1;
        if (mode_q == M_CMP) fl_d = !s[W+2];                          // no borrow: X >= REF
        if (mode_q == M_CHECK && s[W+2:W] != '0) fl_d = 1'b1;
      end
    end
    if (start_i || wipe_i) begin
      cy_d = '0;
      fl_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      act_q <= 1'b0;
      pv_q  <= 1'b0;
      v2_q  <= 1'b0;
    end else begin
      act_q <= act_d;
      pv_q  <= pv_d;
      v2_q  <= v2_d;
    end
  end

  always_ff @(posedge clk_i) begin
    j_q    <= j_d;
    pj_q   <= pj_d;
    mode_q <= mode_d;
    x_q    <= x_d;
    r_q    <= r_d;
    n_q    <= n_d;
    l0_q   <= l0_d;
    l1_q   <= l1_d;
    ln_q   <= ln_d;
    cy_q   <= cy_d;
    fl_q   <= fl_d;
    l2_q   <= l2_d;
    j2_q   <= j2_d;
    pp_q   <= pp_d;
    nq_q   <= nq_d;
  end

  assign busy_o = act_q || pv_q || v2_q;
  assign flag_o = fl_d;   // valid with done_o
endmodule
