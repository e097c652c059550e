// SPDX-License-Identifier: Apache-2.0
// pka_victor_sdgen: a signed-digit multiple d * X * 2^Shift or -d * X * 2^Shift as two words.
//
// Paper 003, section 3.2, Table 2 and Figure 6: every d in [0, 42] is alpha + beta + gamma with
// -alpha in {0, 8, 16, 32}, beta in {0, +-4, +-8}, gamma in {0, +-1, +-2} (Table 2 lists -d).
// Three selection networks pick the shifted copies of X, a row of full adders adds them:
//   negate_i = 1:  s_o + c_o + neg_o = -d * X * 2^Shift   (mod 2^Width)   the -qN generator
//   negate_i = 0:  s_o + c_o + neg_o = +d * X * 2^Shift   (mod 2^Width)   the a_i*B generator
// negate_i is an input because the -qN generator also makes +a_(n'-2) B in the merged first
// iteration of a product (pka_victor_acc); the a_i*B generator ties it to 0.
// A negative term is the one's complement of its copy; neg_o (0..3) counts the "+1"s the
// caller adds into free low bits. d > 42 never occurs (q <= 42 is proved and asserted in the
// model, a_i <= 31); it selects nothing. Combinational: a 4-way mux and one full adder deep.
`default_nettype none

module pka_victor_sdgen #(
  parameter int unsigned Width  = 64,  // output word width (mod 2^Width)
  parameter int unsigned XW     = 32,  // operand width, XW + 5 + Shift may exceed Width (truncated)
  parameter int unsigned Shift  = 0,   // weight of the multiple, 0..Width-1
  parameter int unsigned DW     = 7    // digit width, 1..7
) (
  input  logic [DW-1:0]    d_i,
  input  logic             negate_i,  // 1: -d*X, 0: +d*X
  input  logic [XW-1:0]    x_i,
  output logic [Width-1:0] s_o,
  output logic [Width-1:0] c_o,
  output logic [1:0]       neg_o
);
  // parameter legality, checked at elaboration
  if (XW < 1 || XW > Width) begin : g_bad_param0
    $fatal(1, "pka_victor_sdgen: need 1 <= XW <= Width");
  end
  if (Shift >= Width) begin : g_bad_param1
    $fatal(1, "pka_victor_sdgen: Shift must be below Width");
  end
  if (DW < 1 || DW > 7) begin : g_bad_param2
    $fatal(1, "pka_victor_sdgen: DW must be 1..7");
  end

  // Table 2 entry of d: magnitudes as shift amounts (0 = no term) and signs of beta, gamma.
  // alpha <= 0 always; am: 0 none, 1 -> 8, 2 -> 16, 3 -> 32; bm: 0 none, 1 -> 4, 2 -> 8;
  // gm: 0 none, 1 -> 1, 2 -> 2; bp/gp: the coefficient is positive (beta, gamma > 0).
  typedef struct packed {
    logic [1:0] am;
    logic [1:0] bm;
    logic       bp;
    logic [1:0] gm;
    logic       gp;
  } entry_t;

  function automatic entry_t table2(logic [6:0] d);
    entry_t e;
    unique case (d)
      //                am    bm    bp    gm    gp        alpha beta gamma
      7'd0:  e = '{2'd0, 2'd0, 1'b0, 2'd0, 1'b0};  //   0    0    0
      7'd1:  e = '{2'd0, 2'd0, 1'b0, 2'd1, 1'b0};  //   0    0   -1
      7'd2:  e = '{2'd0, 2'd1, 1'b0, 2'd2, 1'b1};  //   0   -4    2
      7'd3:  e = '{2'd0, 2'd1, 1'b0, 2'd1, 1'b1};  //   0   -4    1
      7'd4:  e = '{2'd0, 2'd1, 1'b0, 2'd0, 1'b0};  //   0   -4    0
      7'd5:  e = '{2'd0, 2'd1, 1'b0, 2'd1, 1'b0};  //   0   -4   -1
      7'd6:  e = '{2'd1, 2'd0, 1'b0, 2'd2, 1'b1};  //  -8    0    2
      7'd7:  e = '{2'd1, 2'd0, 1'b0, 2'd1, 1'b1};  //  -8    0    1
      7'd8:  e = '{2'd1, 2'd0, 1'b0, 2'd0, 1'b0};  //  -8    0    0
      7'd9:  e = '{2'd1, 2'd0, 1'b0, 2'd1, 1'b0};  //  -8    0   -1
      7'd10: e = '{2'd2, 2'd1, 1'b1, 2'd2, 1'b1};  // -16    4    2
      7'd11: e = '{2'd2, 2'd1, 1'b1, 2'd1, 1'b1};  // -16    4    1
      7'd12: e = '{2'd2, 2'd1, 1'b1, 2'd0, 1'b0};  // -16    4    0
      7'd13: e = '{2'd2, 2'd1, 1'b1, 2'd1, 1'b0};  // -16    4   -1
      7'd14: e = '{2'd2, 2'd0, 1'b0, 2'd2, 1'b1};  // -16    0    2
      7'd15: e = '{2'd2, 2'd0, 1'b0, 2'd1, 1'b1};  // -16    0    1
      7'd16: e = '{2'd2, 2'd0, 1'b0, 2'd0, 1'b0};  // -16    0    0
      7'd17: e = '{2'd2, 2'd0, 1'b0, 2'd1, 1'b0};  // -16    0   -1
      7'd18: e = '{2'd2, 2'd1, 1'b0, 2'd2, 1'b1};  // -16   -4    2
      7'd19: e = '{2'd2, 2'd1, 1'b0, 2'd1, 1'b1};  // -16   -4    1
      7'd20: e = '{2'd2, 2'd1, 1'b0, 2'd0, 1'b0};  // -16   -4    0
      7'd21: e = '{2'd2, 2'd1, 1'b0, 2'd1, 1'b0};  // -16   -4   -1
      7'd22: e = '{2'd3, 2'd2, 1'b1, 2'd2, 1'b1};  // -32    8    2
      7'd23: e = '{2'd3, 2'd2, 1'b1, 2'd1, 1'b1};  // -32    8    1
      7'd24: e = '{2'd3, 2'd2, 1'b1, 2'd0, 1'b0};  // -32    8    0
      7'd25: e = '{2'd3, 2'd2, 1'b1, 2'd1, 1'b0};  // -32    8   -1
      7'd26: e = '{2'd3, 2'd1, 1'b1, 2'd2, 1'b1};  // -32    4    2
      7'd27: e = '{2'd3, 2'd1, 1'b1, 2'd1, 1'b1};  // -32    4    1
      7'd28: e = '{2'd3, 2'd1, 1'b1, 2'd0, 1'b0};  // -32    4    0
      7'd29: e = '{2'd3, 2'd1, 1'b1, 2'd1, 1'b0};  // -32    4   -1
      7'd30: e = '{2'd3, 2'd0, 1'b0, 2'd2, 1'b1};  // -32    0    2
      7'd31: e = '{2'd3, 2'd0, 1'b0, 2'd1, 1'b1};  // -32    0    1
      7'd32: e = '{2'd3, 2'd0, 1'b0, 2'd0, 1'b0};  // -32    0    0
      7'd33: e = '{2'd3, 2'd0, 1'b0, 2'd1, 1'b0};  // -32    0   -1
      7'd34: e = '{2'd3, 2'd0, 1'b0, 2'd2, 1'b0};  // -32    0   -2
      7'd35: e = '{2'd3, 2'd1, 1'b0, 2'd1, 1'b1};  // -32   -4    1
      7'd36: e = '{2'd3, 2'd1, 1'b0, 2'd0, 1'b0};  // -32   -4    0
      7'd37: e = '{2'd3, 2'd1, 1'b0, 2'd1, 1'b0};  // -32   -4   -1
      7'd38: e = '{2'd3, 2'd1, 1'b0, 2'd2, 1'b0};  // -32   -4   -2
      7'd39: e = '{2'd3, 2'd2, 1'b0, 2'd1, 1'b1};  // -32   -8    1
      7'd40: e = '{2'd3, 2'd2, 1'b0, 2'd0, 1'b0};  // -32   -8    0
      7'd41: e = '{2'd3, 2'd2, 1'b0, 2'd1, 1'b0};  // -32   -8   -1
      7'd42: e = '{2'd3, 2'd2, 1'b0, 2'd2, 1'b0};  // -32   -8   -2
      default: e = '0;                             // outside Table 2: never reached
    endcase
    return e;
  endfunction

  // the selected copy X * 2^(log2 m) * 2^Shift, or zero
  function automatic logic [Width-1:0] copy(logic [XW-1:0] x, int unsigned sh);
    return Width'(x) << (sh + Shift);
  endfunction

  entry_t e;
  logic [Width-1:0] a_sel, b_sel, g_sel, t_a, t_b, t_g;
  logic a_neg, b_neg, g_neg;

  always_comb begin
    e = table2(7'(d_i));
    unique case (e.am)
      2'd1:    a_sel = copy(x_i, 3);
      2'd2:    a_sel = copy(x_i, 4);
      2'd3:    a_sel = copy(x_i, 5);
      default: a_sel = '0;
    endcase
    unique case (e.bm)
      2'd1:    b_sel = copy(x_i, 2);
      2'd2:    b_sel = copy(x_i, 3);
      default: b_sel = '0;
    endcase
    unique case (e.gm)
      2'd1:    g_sel = copy(x_i, 0);
      2'd2:    g_sel = copy(x_i, 1);
      default: g_sel = '0;
    endcase
    // sign of each term in the output: Table 2's sign for -d*X, the opposite for +d*X
    a_neg = (e.am != 2'd0) && negate_i;
    b_neg = (e.bm != 2'd0) && (negate_i ? !e.bp : e.bp);
    g_neg = (e.gm != 2'd0) && (negate_i ? !e.gp : e.gp);
    t_a = a_neg ? ~a_sel : a_sel;
    t_b = b_neg ? ~b_sel : b_sel;
    t_g = g_neg ? ~g_sel : g_sel;
    neg_o = 2'(a_neg) + 2'(b_neg) + 2'(g_neg);
  end

  pka_victor_fa_row #(.Width(Width)) u_row (
    .x_i(t_a), .y_i(t_b), .z_i(t_g), .s_o(s_o), .c_o(c_o)
  );
endmodule
