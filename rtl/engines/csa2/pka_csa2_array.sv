// SPDX-License-Identifier: Apache-2.0
// pka_csa2_array: the L+4 bit-slices of the csa2 datapath (paper 000, Figure 1) with the wave tokens
// of the carry-propagate additions and the operand load lanes.
//
// Every slice sees the same broadcast controls (from pka_csa2_core); data signals are local: slice i
// reads S and A of slice i+1, the carry of slice i-1 and the wave sum of slice i-2 (for 4B = 4U).
// The carry-propagate additions run as a wave of one chunk (ChunkW slices) per cycle, LSB first:
// tok_u marks the chunk adding S/2 + C this cycle, tok_bn the chunk adding 4B + N (one chunk
// behind, because it needs 4B = 4U and shares the C flip-flops). A wave over K+4 slices takes
// ceil((K+4)/ChunkW) cycles, the 4B + N wave one more.
`default_nettype none

module pka_csa2_array #(
  parameter int unsigned MaxLen = 64,  // L: largest modulus in bits, multiple of 32, 32..4096
  parameter int unsigned ChunkW = 1,   // carry-propagate chunk: 1 (paper) or 2..64 (fast)
  localparam int unsigned Words = MaxLen / 32,
  localparam int unsigned WiW   = $clog2(Words + 1),
  localparam int unsigned Ns    = MaxLen + 4   // number of slices
) (
  input  logic clk_i,
  // broadcast control (see pka_csa2_slice)
  input  logic init_i,
  input  logic loop_z_i,
  input  logic loop_p_i,
  input  logic vload_z_i,
  input  logic vload_p_i,
  input  logic [1:0] vsel_z_i,
  input  logic [1:0] vsel_p_i,
  input  logic shift_z_i,
  input  logic shift_p_i,
  input  logic u_z_i,
  input  logic u_p_i,
  input  logic b4_i,
  input  logic one_i,
  input  logic bn_i,
  // waves
  input  logic wave_start_i,   // the wave tokens start at chunk 0 next cycle
  input  logic wave_run_i,     // the tokens advance one chunk (else they clear)
  // operand loading: word ld_word_i of operand ld_tgt_i := ld_data_i
  input  logic clr_i,          // clear the operand registers (A^P := ap_one_i)
  input  logic ap_one_i,
  input  logic ld_valid_i,
  input  logic [2:0] ld_tgt_i, // 0 N, 1 4B (as 4 * word), 2 A^Z, 3 A^P
  input  logic [WiW-1:0] ld_word_i,
  input  logic [31:0] ld_data_i,
  // state seen by the controller
  output logic [2:1] sz_lo_o,   // S^Z_2, S^Z_1 (S^Z_0 is 0 between steps)
  output logic [1:0] cz_lo_o,
  output logic [2:1] sp_lo_o,
  output logic [1:0] cp_lo_o,
  output logic n1_o,
  output logic az0_o,
  output logic ap0_o,
  output logic [MaxLen-1:0] ap_o,  // A^P: the result after the final round
  output logic [MaxLen-1:0] n_o
);
  initial begin
    if (MaxLen % 32 != 0 || MaxLen < 32 || MaxLen > 4096) $fatal(1, "MaxLen: multiple of 32 in 32..4096");
    if (ChunkW < 1 || ChunkW > 64) $fatal(1, "ChunkW: 1..64");
  end

  logic [Ns-1:0] sz, cz, sp, cp, az, ap, n;
  // carry outputs chain through the slices inside a chunk: split for Verilator's scheduler
  logic [Ns-1:0] coz /* verilator split_var */;
  logic [Ns-1:0] cop /* verilator split_var */;
  logic [Ns-1:0] uz;
  logic [Ns-1:0] tok_u_q, tok_u_d, tok_bn_q, tok_bn_d;

  // ---- wave tokens: slice i is in chunk i / ChunkW --------------------------------------------
  always_comb begin
    for (int unsigned i = 0; i < Ns; i++) begin
      if (wave_start_i) tok_u_d[i] = (i < ChunkW);
      else if (wave_run_i) tok_u_d[i] = (i >= ChunkW) ? tok_u_q[i - ChunkW] : 1'b0;
      else tok_u_d[i] = 1'b0;
    end
    tok_bn_d = wave_run_i ? tok_u_q : '0;
  end

  always_ff @(posedge clk_i) begin
    tok_u_q  <= tok_u_d;
    tok_bn_q <= tok_bn_d;
  end

  // ---- load lanes ---------------------------------------------------------------------------------
  logic [Words-1:0] hit_n, hit_b4, hit_az, hit_ap;
  always_comb begin
    for (int unsigned w = 0; w < Words; w++) begin
      hit_n[w]  = ld_valid_i && ld_tgt_i == 3'd0 && 32'(ld_word_i) == w;
      hit_b4[w] = ld_valid_i && ld_tgt_i == 3'd1 && 32'(ld_word_i) == w;
      hit_az[w] = ld_valid_i && ld_tgt_i == 3'd2 && 32'(ld_word_i) == w;
      hit_ap[w] = ld_valid_i && ld_tgt_i == 3'd3 && 32'(ld_word_i) == w;
    end
  end

  // ---- the slices -----------------------------------------------------------------------------
  for (genvar i = 0; i < Ns; i++) begin : g_slice
    localparam int unsigned Wd  = i / 32;         // word of bit i (N, A)
    localparam int unsigned Wd4 = (i - 2) / 32;   // word of bit i-2 (4B = 4W), i >= 2
    logic ld_n, ld_b4, ld_az, ld_ap, d;
    if (i < MaxLen) begin : g_op
      assign ld_n  = hit_n[Wd];
      assign ld_az = hit_az[Wd];
      assign ld_ap = hit_ap[Wd];
    end else begin : g_no_op
      assign ld_n  = 1'b0;
      assign ld_az = 1'b0;
      assign ld_ap = 1'b0;
    end
    if (i >= 2 && i < MaxLen + 2) begin : g_b4
      assign ld_b4 = hit_b4[Wd4];
      assign d = ld_b4 ? ld_data_i[(i - 2) % 32] : ld_data_i[i % 32];
    end else begin : g_no_b4
      assign ld_b4 = 1'b0;
      assign d = ld_data_i[i % 32];
    end

    pka_csa2_slice #(.Index(i), .ChunkW(ChunkW)) u_slice (
      .clk_i      (clk_i),
      .init_i     (init_i),
      .loop_z_i   (loop_z_i),
      .loop_p_i   (loop_p_i),
      .vload_z_i  (vload_z_i),
      .vload_p_i  (vload_p_i),
      .vsel_z_i   (vsel_z_i),
      .vsel_p_i   (vsel_p_i),
      .shift_z_i  (shift_z_i),
      .shift_p_i  (shift_p_i),
      .u_z_i      (u_z_i),
      .u_p_i      (u_p_i),
      .b4_i       (b4_i),
      .one_i      (one_i),
      .bn_i       (bn_i),
      .tok_u_i    (tok_u_q[i]),
      .tok_bn_i   (tok_bn_q[i]),
      .tok_u_m2_i (i >= 2 ? tok_u_q[i >= 2 ? i - 2 : 0] : 1'b0),
      .clr_i      (clr_i),
      .ap_one_i   (ap_one_i),
      .ld_n_i     (ld_n),
      .ld_b4_i    (ld_b4),
      .ld_az_i    (ld_az),
      .ld_ap_i    (ld_ap),
      .ld_d_i     (d),
      .sz_up_i    (i + 1 < Ns ? sz[i + 1 < Ns ? i + 1 : i] : 1'b0),
      .sp_up_i    (i + 1 < Ns ? sp[i + 1 < Ns ? i + 1 : i] : 1'b0),
      .az_up_i    (i + 1 < Ns ? az[i + 1 < Ns ? i + 1 : i] : 1'b0),
      .ap_up_i    (i + 1 < Ns ? ap[i + 1 < Ns ? i + 1 : i] : 1'b0),
      .cz_dn_i    (i >= 1 ? cz[i >= 1 ? i - 1 : 0] : 1'b0),
      .cp_dn_i    (i >= 1 ? cp[i >= 1 ? i - 1 : 0] : 1'b0),
      .coz_dn_i   (i >= 1 ? coz[i >= 1 ? i - 1 : 0] : 1'b0),
      .cop_dn_i   (i >= 1 ? cop[i >= 1 ? i - 1 : 0] : 1'b0),
      .uz_m2_i    (i >= 2 ? uz[i >= 2 ? i - 2 : 0] : 1'b0),
      .sz_o       (sz[i]),
      .cz_o       (cz[i]),
      .sp_o       (sp[i]),
      .cp_o       (cp[i]),
      .az_o       (az[i]),
      .ap_o       (ap[i]),
      .n_o        (n[i]),
      .coz_o      (coz[i]),
      .cop_o      (cop[i]),
      .uz_o       (uz[i])
    );
  end

  assign sz_lo_o = sz[2:1];
  assign cz_lo_o = cz[1:0];
  assign sp_lo_o = sp[2:1];
  assign cp_lo_o = cp[1:0];
  assign n1_o    = n[1];
  assign az0_o   = az[0];
  assign ap0_o   = ap[0];
  assign ap_o    = ap[MaxLen-1:0];
  assign n_o     = n[MaxLen-1:0];

  // Bits the controller does not need (the top slices of A^P and N hold zeros: A^P < 2N <= 2^(L+1)
  // is checked by the model, N < 2^L by the core; S, C of the upper slices only feed neighbours).
  logic unused;
  assign unused = ^{sz[0], sp[0], uz[Ns-1:Ns-2], sz[Ns-1:3], cz[Ns-1:2], sp[Ns-1:3], cp[Ns-1:2], az[Ns-1:1], ap[Ns-1:MaxLen],
                    n[Ns-1:MaxLen], n[0], coz[Ns-1], cop[Ns-1]};
endmodule
