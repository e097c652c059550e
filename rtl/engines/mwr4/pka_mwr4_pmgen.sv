// SPDX-License-Identifier: Apache-2.0
// pka_mwr4_pmgen: modulus-multiple generator PM = qm_j * M, one w-bit word per cycle (paper 001, Fig. 4).
//
// -M needs no carry-in: M is odd, so ~M + 1 = ~M with bit 0 set (word 0 only). Even multiples are
// shifts of +-M (2M, 4M take the top bits of the previous +-M word), so -2M, -4M are exact too. Radix
// 8 adds the word-serial adder 3M = M + 2M (2-bit carry), and -3M = ~3M with bit 0 set (3M is odd).
// EN_PM = 0 forces PM = 0 (SEL_PM may stay frozen). net_o: the word before the enable gate.
// wipe_i (OP_ZEROIZE) clears the previous-word state (it holds bits of M).
// Latency: combinational, with the previous-word state updated when valid_i.
`default_nettype none

module pka_mwr4_pmgen #(
  parameter int unsigned Radix = 4,   // 2, 4 or 8
  parameter int unsigned W     = 16,  // word size: 4, 8, 16, 32
  localparam int unsigned SelW = Radix == 8 ? 3 : Radix == 4 ? 2 : 1
) (
  input  logic            clk_i,
  input  logic            wipe_i,  // clear the state (OP_ZEROIZE)
  input  logic            valid_i,
  input  logic            first_i,
  input  logic [W-1:0]    m_i,
  input  logic            en_i,    // EN_PM
  input  logic [SelW-1:0] sel_i,   // SEL_PM = {neg, |qm|-1}
  output logic [W-1:0]    pm_o,
  output logic [W-1:0]    net_o
);
  logic       neg;
  logic [2:0] mag;
  logic [W-1:0] base, b2, b4, m3n, mag_w;
  logic [1:0] bprev, bprev_q, bprev_d;   // top bits of the previous +-M word
  logic       mprev, mprev_q, mprev_d;   // top bit of the previous M word (3M adder)
  logic [1:0] c3_q, c3_d;
  logic [W+1:0] m3;

  // SEL_PM decode: {neg, |qm|-1}
  if (Radix == 8) begin : g_dec8
    assign neg = sel_i[2];
    assign mag = {1'b0, sel_i[1:0]} + 3'd1;
  end else if (Radix == 4) begin : g_dec4
    assign neg = sel_i[1];
    assign mag = sel_i[0] ? 3'd2 : 3'd1;
  end else begin : g_dec2
    assign neg = 1'b0;
    assign mag = 3'd1;
    logic unused_dec;
    assign unused_dec = ^sel_i;
  end

  always_comb begin
    base  = neg ? (~m_i | W'(first_i)) : m_i;
    bprev = first_i ? 2'b00 : bprev_q;
    mprev = first_i ? 1'b0 : mprev_q;
    b2    = {base[W-2:0], bprev[1]};
    b4    = {base[W-3:0], bprev};
    m3    = (W+2)'(m_i) + (W+2)'({m_i[W-2:0], mprev}) + (W+2)'(first_i ? 2'b00 : c3_q);
    m3n   = neg ? (~m3[W-1:0] | W'(first_i)) : m3[W-1:0];
    unique case (mag)
      3'd2:    mag_w = b2;
      3'd3:    mag_w = m3n;
      3'd4:    mag_w = b4;
      default: mag_w = base;
    endcase
    net_o   = mag_w;
    pm_o    = en_i ? mag_w : '0;
    bprev_d = valid_i ? base[W-1:W-2] : bprev_q;
    mprev_d = valid_i ? m_i[W-1] : mprev_q;
    c3_d    = valid_i ? m3[W+1:W] : c3_q;
    if (wipe_i) begin
      bprev_d = '0;
      mprev_d = 1'b0;
      c3_d    = '0;
    end
  end

  always_ff @(posedge clk_i) begin
    bprev_q <= bprev_d;
    mprev_q <= mprev_d;
    c3_q    <= c3_d;
  end
endmodule
