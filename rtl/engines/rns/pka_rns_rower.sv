// SPDX-License-Identifier: Apache-2.0
// pka_rns_rower: one Rower of the Cox-Rower array: a w-bit modular multiply-accumulate channel.
//
// The rower serves channel j of base B (modulus m_j = 2^W - c_j) and channel j of base B'
// (m'_j = 2^W - c'_j). It holds the register file of both halves (B residues and the scaled B'
// residues of every register), its CONST_WORDS per-channel constants and its two base-extension
// columns (BE1: |Mi P M^-1 mu_j|_m'j, BE2: |M'_i|_mj, i = 0..n-1), all host-precomputed and
// loaded by the core. Datapath, all rowers in lock-step under the core's sequencer:
//   opa/opb  <- RF (product), r2 (x*cxi, y'*cy) or broadcast bus * BE column (base extension)
//   prod     <- opa * opb                               (2W bits, one EMM per cycle)
//   acc      <- (clr ? 0 : acc) + prod + k_i*corr       (lazy: 2W+AccExtra bits, no reduction)
//   r1       <- fold(acc or prod), r2 <- fold + conditional subtraction  (x mod m, 2 stages)
// Reduction (pka.model.rns.rower_reduce): x = H*2^W + L == H*c + L, N_FOLDS[W] times, then one
// conditional subtraction; W = 16: 3 folds (2 in stage 1), W = 32: 2 folds.
// Linear ops (ADD d = a + b, SUB d = a - b + kP) work on both halves in one cycle.
// TEST: the ADD unit's a + b (a = b) compared with 0 and with |2P|_mj, registered in the TEST's
// cycle (tst_i; z0_o, z2_o in the next; the core ANDs them over the rowers). Wipe (OP_ZEROIZE): RF word wd_i of both halves and constant ld_idx_i are
// written with 0 through the ordinary write ports (one word a cycle, so the files stay RAMs), and
// every pipeline register (operands, product, accumulator, reducer, xi) is cleared.
`default_nettype none

module pka_rns_rower #(
  parameter int unsigned W        = 32,  // channel width, 16 or 32
  parameter int unsigned MaxN     = 9,   // largest number of channels n (BE column length)
  parameter int unsigned NumRegs  = 32,  // registers per half
  parameter int unsigned AccExtra = 7    // accumulator = 2W + AccExtra bits
) (
  input  logic                        clk_i,
  // operand selection for the multiplier
  input  logic [2:0]                  mul_sel_i,   // 0 none, 1 RF B, 2 RF B', 3 r2*cxi, 4 r2*cy, 5 bus*column
  input  logic [4:0]                  ra_i,        // RF read address a (products, linear ops, store)
  input  logic [4:0]                  rb_i,        // RF read address b
  input  logic [$clog2(2*MaxN)-1:0]   col_i,       // BE column index
  input  logic [W-1:0]                bus_i,       // broadcast xi (base extension)
  // accumulator
  input  logic [1:0]                  acc_op_i,    // 0 hold, 1 clear+add, 2 add
  input  logic                        corr_en_i,   // add the Cox correction constant
  input  logic                        corr_sel_i,  // 0: BE1 |-P mu_j|, 1: BE2 |-M'|
  // reduction and write-back
  input  logic [1:0]                  red_op_i,    // 0 none, 1 reduce acc, 2 reduce prod
  input  logic                        red_half_i,  // 0: modulus m_j (B), 1: m'_j (B')
  input  logic                        we_b_i,      // RF B[wd] <= reduced value
  input  logic                        we_p_i,      // RF B'[wd] <= reduced value
  input  logic                        xi_we_i,     // xi <= reduced value
  input  logic [4:0]                  wd_i,
  // linear ops on both halves
  input  logic                        lin_en_i,
  input  logic                        lin_sub_i,
  input  logic [1:0]                  lin_kp_i,    // SUB: + 2P, 4P, 8P
  input  logic                        wipe_i,      // OP_ZEROIZE: RF[wd], constant[ld_idx] and the pipeline := 0
  input  logic                        tst_i,       // TEST: register the compares (z0_o, z2_o next cycle)
  // loading
  input  logic                        ld_rf_i,     // RF[half][wd] <= ld_data
  input  logic                        ld_half_i,
  input  logic                        ld_cst_i,    // constant[ld_idx] <= ld_data
  input  logic [$clog2(12+2*MaxN)-1:0] ld_idx_i,
  input  logic [W-1:0]                ld_data_i,
  // outputs
  output logic [W-1:0]                xi_o,
  output logic [W-1:0]                rd_b_o,      // RF B[ra] (store)
  output logic [W-1:0]                rd_p_o,      // RF B'[ra]
  output logic [W-1:0]                c_b_o,       // c_j  (m_j  = 2^W - c_j)
  output logic [W-1:0]                c_p_o,       // c'_j (m'_j = 2^W - c'_j)
  output logic                        z0_o,        // TEST: a + b (ADD unit, B half) == 0, a cycle on
  output logic                        z2_o         // TEST: a + b == |2P|_mj, a cycle on
);
  localparam int unsigned AccW = 2 * W + AccExtra;
  localparam int unsigned CstW = 12;
  localparam int unsigned ColN = 2 * MaxN;
  localparam int unsigned CBits = (W == 16) ? 8 : 10;      // c < 2^CBits (pka.model.rns.C_LIMIT)
  localparam int unsigned R1W = (W == 16) ? 23 : 50;        // stage-1 output width (see header)

  initial begin
    if (W != 16 && W != 32) $fatal(1, "W must be 16 or 32");
    if (AccExtra != ((W == 16) ? 5 : 7)) $fatal(1, "AccExtra must be 5 (W=16) or 7 (W=32)");
  end

  // ---- storage ------------------------------------------------------------------------------
  logic [W-1:0] rf_b_q [NumRegs];
  logic [W-1:0] rf_p_q [NumRegs];
  logic [W-1:0] cst_q  [CstW];
  logic [W-1:0] col_q  [ColN];

  logic [W-1:0] a_b, b_b, a_p, b_p;
  assign a_b = (ra_i == 5'd0) ? '0 : rf_b_q[ra_i];   // register 0 reads as zero
  assign b_b = (rb_i == 5'd0) ? '0 : rf_b_q[rb_i];
  assign a_p = (ra_i == 5'd0) ? '0 : rf_p_q[ra_i];
  assign b_p = (rb_i == 5'd0) ? '0 : rf_p_q[rb_i];
  assign rd_b_o = a_b;
  assign rd_p_o = a_p;
  assign c_b_o = cst_q[0];
  assign c_p_o = cst_q[1];

  // ---- multiplier, accumulator ------------------------------------------------------------------
  logic [W-1:0]    opa_q, opa_d, opb_q, opb_d, r2_q, r2_d;
  logic [2*W-1:0]  prod_q;
  logic [AccW-1:0] acc_q, acc_d;
  logic [R1W-1:0]  r1_q, r1_d;
  logic [W-1:0]    xi_q;

  always_comb begin
    opa_d = '0;
    opb_d = '0;
    unique case (mul_sel_i)
      3'd1: begin opa_d = a_b;  opb_d = b_b; end
      3'd2: begin opa_d = a_p;  opb_d = b_p; end
      3'd3: begin opa_d = r2_q; opb_d = cst_q[2]; end
      3'd4: begin opa_d = r2_q; opb_d = cst_q[3]; end
      3'd5: begin opa_d = bus_i; opb_d = col_q[col_i]; end
      default: ;
    endcase
  end

  always_comb begin
    logic [AccW-1:0] base, corr;
    base = (acc_op_i == 2'd1) ? '0 : acc_q;
    corr = corr_en_i ? AccW'(corr_sel_i ? cst_q[5] : cst_q[4]) : '0;
    acc_d = (acc_op_i == 2'd0) ? acc_q : base + AccW'(prod_q) + corr;
  end

  // ---- reduction: stage 1 folds, stage 2 fold + conditional subtraction -------------------------
  logic [W-1:0] c_red, c1_q;
  assign c_red = red_half_i ? cst_q[1] : cst_q[0];

  logic [AccW-1:0] red_x;
  assign red_x = (red_op_i == 2'd2) ? AccW'(prod_q) : acc_q;

  if (W == 16) begin : g_red16
    // stage 1: two folds (21-bit H, then 14-bit H), stage 2: one fold (7-bit H) + subtraction
    logic [29:0] f1;
    logic [16:0] f3;
    assign f1   = 30'(red_x[AccW-1:16]) * 30'(c_red[CBits-1:0]) + 30'(red_x[15:0]);
    assign r1_d = 23'(f1[29:16]) * 23'(c_red[CBits-1:0]) + 23'(f1[15:0]);
    assign f3   = 17'(r1_q[22:16]) * 17'(c1_q[CBits-1:0]) + 17'(r1_q[15:0]);
    assign r2_d = (f3 >= 17'h10000 - 17'(c1_q)) ? 16'(f3 - (17'h10000 - 17'(c1_q))) : f3[15:0];
  end else begin : g_red32
    // stage 1: one fold (39-bit H), stage 2: one fold (18-bit H) + subtraction
    logic [32:0] f2;
    assign r1_d = 50'(red_x[AccW-1:32]) * 50'(c_red[CBits-1:0]) + 50'(red_x[31:0]);
    assign f2   = 33'(r1_q[49:32]) * 33'(c1_q[CBits-1:0]) + 33'(r1_q[31:0]);
    assign r2_d = (f2 >= 33'h1_0000_0000 - 33'(c1_q)) ? 32'(f2 - (33'h1_0000_0000 - 33'(c1_q))) : f2[31:0];
  end

  // ---- linear ops (both halves, one cycle) ----------------------------------------------------
  function automatic logic [W-1:0] lin(logic [W-1:0] a, logic [W-1:0] b, logic [W-1:0] kp,
                                       logic [W-1:0] c, logic sub);
    logic signed [W+2:0] s, m;
    m = $signed({3'b001, {W{1'b0}}}) - $signed({3'b000, c});
    s = sub ? $signed({3'b000, a}) + $signed({3'b000, kp}) - $signed({3'b000, b})
            : $signed({3'b000, a}) + $signed({3'b000, b});
    if (s < 0) s = s + m;
    else if (s >= m) s = s - m;
    return W'(s);
  endfunction

  logic [W-1:0] lin_b, lin_p;
  assign lin_b = lin(a_b, b_b, cst_q[6 + 32'(lin_kp_i)], cst_q[0], lin_sub_i);
  assign lin_p = lin(a_p, b_p, cst_q[9 + 32'(lin_kp_i)], cst_q[1], lin_sub_i);
  logic z0_q, z2_q;
  assign z0_o  = z0_q;
  assign z2_o  = z2_q;

  // ---- registers --------------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (wipe_i) begin
      opa_q  <= '0;
      opb_q  <= '0;
      prod_q <= '0;
      acc_q  <= '0;
      r1_q   <= '0;
      c1_q   <= '0;
      r2_q   <= '0;
      xi_q   <= '0;
      z0_q   <= 1'b0;
      z2_q   <= 1'b0;
    end else begin
      opa_q  <= opa_d;
      opb_q  <= opb_d;
      prod_q <= opa_q * opb_q;
      acc_q  <= acc_d;
      r1_q   <= r1_d;
      c1_q   <= c_red;
      r2_q   <= r2_d;
      if (xi_we_i) xi_q <= r2_d;
      if (tst_i) begin
        z0_q <= (lin_b == '0);
        z2_q <= (lin_b == cst_q[6]);
      end
    end
    if (wipe_i) rf_b_q[wd_i] <= '0;
    else if (ld_rf_i && !ld_half_i) rf_b_q[wd_i] <= ld_data_i;
    else if (lin_en_i) rf_b_q[wd_i] <= lin_b;
    else if (we_b_i) rf_b_q[wd_i] <= r2_d;
    if (wipe_i) rf_p_q[wd_i] <= '0;
    else if (ld_rf_i && ld_half_i) rf_p_q[wd_i] <= ld_data_i;
    else if (lin_en_i) rf_p_q[wd_i] <= lin_p;
    else if (we_p_i) rf_p_q[wd_i] <= r2_d;
    if (ld_cst_i || wipe_i) begin
      if (32'(ld_idx_i) < CstW) cst_q[4'(ld_idx_i)] <= wipe_i ? '0 : ld_data_i;
      else if (32'(ld_idx_i) < CstW + ColN) col_q[32'(ld_idx_i) - CstW] <= wipe_i ? '0 : ld_data_i;
    end
  end

  assign xi_o = xi_q;

  logic unused;
  assign unused = ^{c_red[W-1:CBits], c1_q[W-1:CBits]};
endmodule
