// SPDX-License-Identifier: Apache-2.0
// pka_mwr4_mrec: Montgomery recoder of the quotient digit qm_j (paper 001, Table 2) into EN_PM/SEL_PM.
//
// qm is the digit with (SP + qm*M) = 0 mod 2^K, SP = S + qa*B, taken in the balanced range
// (-2^(K-1), 2^(K-1)]:
//   radix 4: Table 2 literally, inputs (sp_1, sp_0, m_1) -> qm in {-1, 0, +1, +2} (3 = -1 mod 4);
//   radix 8: qm = bal(-sp * M mod 8) in {-3..+4} (M^-1 = M mod 8 for every odd M);
//   radix 2: qm = sp_0 (Tenca-Koc).
// Outputs en_o = (qm != 0) and sel_o = {neg, |qm|-1} (radix 4: {neg, x2}; radix 2: constant 0).
// Combinational, no latency.
`default_nettype none

module pka_mwr4_mrec #(
  parameter int unsigned Radix = 4,  // 2, 4 or 8
  localparam int unsigned K    = Radix == 8 ? 3 : Radix == 4 ? 2 : 1,
  localparam int unsigned SelW = Radix == 8 ? 3 : Radix == 4 ? 2 : 1
) (
  input  logic [K-1:0]    sp_i,  // (S + PP) mod 2^K: the first section's result
  input  logic [K-1:0]    m_i,   // M mod 2^K (bit 0 is 1)
  output logic            en_o,
  output logic [SelW-1:0] sel_o
);
  initial begin
    if (Radix != 2 && Radix != 4 && Radix != 8) $fatal(1, "Radix must be 2, 4 or 8");
  end

  if (Radix == 4) begin : g_r4
    logic neg, x2;
    always_comb begin
      // Table 2 of the paper
      unique case ({sp_i, m_i[1]})
        3'b000: begin en_o = 1'b0; neg = 1'b0; x2 = 1'b0; end  //  0
        3'b001: begin en_o = 1'b0; neg = 1'b0; x2 = 1'b0; end  //  0
        3'b010: begin en_o = 1'b1; neg = 1'b1; x2 = 1'b0; end  // -M
        3'b011: begin en_o = 1'b1; neg = 1'b0; x2 = 1'b0; end  // +M
        3'b100: begin en_o = 1'b1; neg = 1'b0; x2 = 1'b1; end  // +2M
        3'b101: begin en_o = 1'b1; neg = 1'b0; x2 = 1'b1; end  // +2M
        3'b110: begin en_o = 1'b1; neg = 1'b0; x2 = 1'b0; end  // +M
        default: begin en_o = 1'b1; neg = 1'b1; x2 = 1'b0; end // -M (3'b111)
      endcase
      sel_o = {neg, x2};
    end
    logic unused_r4;
    assign unused_r4 = m_i[0];
  end else if (Radix == 8) begin : g_r8
    logic [2:0] q;  // -sp * M mod 8
    always_comb begin
      q     = 3'(-(sp_i * m_i));
      en_o  = (q != 3'd0);
      // 1..4 -> +1..+4, 5..7 -> -3..-1
      sel_o = q > 3'd4 ? {1'b1, 2'(3'd7 - q)} : {1'b0, 2'(q - 3'd1)};
    end
  end else begin : g_r2
    assign en_o  = sp_i[0];
    assign sel_o = 1'b0;
    logic unused_r2;
    assign unused_r2 = m_i[0];
  end
endmodule
