// SPDX-License-Identifier: Apache-2.0
// pka_mwr4_booth: recoder of the multiplier digit qa_j (paper 001, Table 1) into EN_PP and SEL_PP.
//
// Radix 4 (K = 2): modified Booth, Table 1 literally: (a_{j,1}, a_{j,0}, a_{j,-1}) -> qa in
// {-2..+2}. Radix 8 (K = 3): radix-8 Booth, qa = -4 a_2 + 2 a_1 + a_0 + a_{-1} in {-4..+4}.
// Radix 2 (K = 1): no recoding, qa = a_j in {0, 1} (Tenca-Koc), the window's low bit is ignored.
// Outputs: en_o = (qa != 0) and sel_o, the SEL_PP code of the PP generator:
//   radix 4, natural code  {neg, x2}: +B 00, +2B 01, -B 10, -2B 11;
//   radix 4, paper code (section 5, coding_en_i = 1 and Coding = 1): SEL(+B) = ~SEL(+2B) and
//            SEL(-B) = ~SEL(-2B): +B 00, +2B 11, -B 01, -2B 10 (decoded by pka_mwr4_ppgen);
//   radix 8, {neg, |qa|-1}; radix 2, a constant 0.
// Combinational, no latency.
`default_nettype none

module pka_mwr4_booth #(
  parameter int unsigned Radix  = 4,  // 2, 4 or 8
  parameter int unsigned Coding = 1,  // 1: the paper's SEL_PP coding is built (radix 4 only)
  localparam int unsigned K     = Radix == 8 ? 3 : Radix == 4 ? 2 : 1,
  localparam int unsigned SelW  = Radix == 8 ? 3 : Radix == 4 ? 2 : 1
) (
  input  logic [K:0]      win_i,        // {a_{kj+k-1} .. a_{kj}, a_{kj-1}}
  input  logic            coding_en_i,  // runtime enable of the paper's coding
  output logic            en_o,
  output logic [SelW-1:0] sel_o
);
  initial begin
    if (Radix != 2 && Radix != 4 && Radix != 8) $fatal(1, "Radix must be 2, 4 or 8");
    if (Coding > 1) $fatal(1, "Coding must be 0 or 1");
  end

  if (Radix == 4) begin : g_r4
    logic neg, x2;
    always_comb begin
      // Table 1 of the paper
      unique case (win_i)
        3'b000: begin en_o = 1'b0; neg = 1'b0; x2 = 1'b0; end  //  0
        3'b001: begin en_o = 1'b1; neg = 1'b0; x2 = 1'b0; end  // +1
        3'b010: begin en_o = 1'b1; neg = 1'b0; x2 = 1'b0; end  // +1
        3'b011: begin en_o = 1'b1; neg = 1'b0; x2 = 1'b1; end  // +2
        3'b100: begin en_o = 1'b1; neg = 1'b1; x2 = 1'b1; end  // -2
        3'b101: begin en_o = 1'b1; neg = 1'b1; x2 = 1'b0; end  // -1
        3'b110: begin en_o = 1'b1; neg = 1'b1; x2 = 1'b0; end  // -1
        default: begin en_o = 1'b0; neg = 1'b0; x2 = 1'b0; end //  0 (3'b111)
      endcase
      if (Coding == 1 && coding_en_i) sel_o = {x2, x2 ^ neg};  // +B 00, +2B 11, -B 01, -2B 10
      else                            sel_o = {neg, x2};        // +B 00, +2B 01, -B 10, -2B 11
    end
  end else if (Radix == 8) begin : g_r8
    int         qa;
    logic [2:0] mag;
    always_comb begin
      qa    = -4 * int'(win_i[3]) + 2 * int'(win_i[2]) + int'(win_i[1]) + int'(win_i[0]);
      mag   = 3'(qa < 0 ? -qa : qa);
      en_o  = (qa != 0);
      sel_o = {qa < 0, 2'(mag - 3'd1)};
    end
    logic unused_r8;
    assign unused_r8 = coding_en_i;
  end else begin : g_r2
    assign en_o  = win_i[1];
    assign sel_o = 1'b0;
    logic unused_r2;
    assign unused_r2 = ^{win_i[0], coding_en_i};
  end
endmodule
