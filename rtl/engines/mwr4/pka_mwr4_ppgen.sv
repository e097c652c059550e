// SPDX-License-Identifier: Apache-2.0
// pka_mwr4_ppgen: partial-product generator PP = qa_j * B, one w-bit word per cycle (paper 001, Fig. 4).
//
// The multiple |qa|*B is formed word-serially by shifting B (2B, 4B take the top bits of the
// previous B word) and, for radix 8 only, by the word-serial adder 3B = B + 2B (a 2-bit carry between
// words: the "extra adder" of the high-radix design). A negative qa gives the inverted word; the +1
// of the two's complement is the carry-in neg_o of word 0 (it enters the PE's first CSA). EN_PP = 0
// forces PP = 0 whatever SEL_PP is, which is why SEL_PP may stay frozen then (section 5).
// net_o is the word before the enable gate (observed by the toggle counters only).
// wipe_i (OP_ZEROIZE) clears the previous-word state (it holds bits of B).
// Latency: combinational, with the previous-word state updated when valid_i.
`default_nettype none

module pka_mwr4_ppgen #(
  parameter int unsigned Radix  = 4,   // 2, 4 or 8
  parameter int unsigned W      = 16,  // word size: 4, 8, 16, 32
  parameter int unsigned Coding = 1,   // 1: the paper's SEL_PP coding is built (see pka_mwr4_booth)
  localparam int unsigned SelW  = Radix == 8 ? 3 : Radix == 4 ? 2 : 1
) (
  input  logic            clk_i,
  input  logic            wipe_i,       // clear the state (OP_ZEROIZE)
  input  logic            valid_i,      // a word is consumed this cycle
  input  logic            first_i,      // word 0
  input  logic [W-1:0]    b_i,
  input  logic            en_i,         // EN_PP
  input  logic [SelW-1:0] sel_i,        // SEL_PP
  input  logic            coding_en_i,
  output logic [W-1:0]    pp_o,
  output logic            neg_o,        // +1 carry-in of word 0 for a negative PP
  output logic [W-1:0]    net_o
);
  logic       neg;
  logic [2:0] mag;  // |qa| in 1..4
  logic [1:0] prev;                  // top bits of the previous B word
  logic [1:0] prev_q, prev_d;
  logic [1:0] c3_q, c3_d;            // carry of the 3B adder (radix 8)
  logic [W+1:0] b3;
  logic [W-1:0] b2, b4, mag_w;

  // SEL_PP decode (inverse of pka_mwr4_booth)
  if (Radix == 8) begin : g_dec8
    assign neg = sel_i[2];
    assign mag = {1'b0, sel_i[1:0]} + 3'd1;
    logic unused_dec;
    assign unused_dec = coding_en_i;
  end else if (Radix == 4) begin : g_dec4
    logic paper;
    assign paper = (Coding == 1) && coding_en_i;
    assign neg   = paper ? sel_i[1] ^ sel_i[0] : sel_i[1];
    assign mag   = (paper ? sel_i[1] : sel_i[0]) ? 3'd2 : 3'd1;
  end else begin : g_dec2
    assign neg = 1'b0;
    assign mag = 3'd1;
    logic unused_dec;
    assign unused_dec = ^{sel_i, coding_en_i};
  end

  always_comb begin
    prev  = first_i ? 2'b00 : prev_q;
    b2    = {b_i[W-2:0], prev[1]};
    b4    = {b_i[W-3:0], prev};
    b3    = (W+2)'(b_i) + (W+2)'(b2) + (W+2)'(first_i ? 2'b00 : c3_q);
    unique case (mag)
      3'd2:    mag_w = b2;
      3'd3:    mag_w = b3[W-1:0];
      3'd4:    mag_w = b4;
      default: mag_w = b_i;
    endcase
    net_o  = mag_w ^ {W{neg}};
    pp_o   = en_i ? net_o : '0;
    neg_o  = en_i & neg;
    prev_d = valid_i ? b_i[W-1:W-2] : prev_q;
    c3_d   = valid_i ? b3[W+1:W] : c3_q;
    if (wipe_i) begin
      prev_d = '0;
      c3_d   = '0;
    end
  end

  always_ff @(posedge clk_i) begin
    prev_q <= prev_d;
    c3_q   <= c3_d;
  end
endmodule
