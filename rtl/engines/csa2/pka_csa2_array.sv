// SPDX-License-Identifier: Apache-2.0
// pka_csa2_array: the L+4 bit-slices of the csa2 datapath (paper 000, Figure 1) with the wave tokens
// of the carry-propagate additions, the chunk adders of the fast variant and the operand load lanes.
//
// Data signals are local: slice i reads S and A of slice i+1, the carry of slice i-1 and the wave
// sum of slice i-2 (for 4B = 4U). The controls from pka_csa2_core are registered here, one copy per
// group of 32 slices, so that no control net spans the array through logic (the core asserts each
// one a cycle ahead). The look-ahead selection vsel (Algorithm 2 steps 4-5: q from the low slices'
// S and C, the A bit from slice 0, one cycle from those flip-flops to every V register) is computed
// here once per group, from the low slices and the group's own init and wipe copies: each copy
// drives its RepW slices, where one selection computed in the core drove all L+4.
//
// The carry-propagate additions run as a wave of one chunk (ChunkW slices) per cycle, LSB first:
// per chunk, the token tok_uz (tok_up) marks the Z (P) section adding S/2 + C, tok_bn the Z adder
// adding 4B + N (one chunk behind, because it needs 4B = 4U and shares the C flip-flops). A token
// starts at chunk 0 and moves one chunk a cycle while the core's run flag says so. A wave over K+4
// slices takes ceil((K+4)/ChunkW) cycles, the 4B + N wave one more. With ChunkW > 1 each chunk and
// section has one ChunkW-bit adder (a single `+`, mapped onto the FPGA carry chain) whose carry-in
// is the C flip-flop of the previous chunk's top slice and whose carry out goes to its own.
// Storing: on st_shift A^P and N move down one word (32 slices), so the controller reads the
// result and the N word it is compared with at fixed positions (words 0 and 1: the shift control
// is registered here, so the controller sees the array one shift behind for a cycle); on
// stz_shift A^Z moves down a word the same way (OP_MODEXP_CT stores the result from A^Z).
// OP_MODEXP_CT's ladder: swap / azp choose which wave sum loads A^Z, A^P and 4B (pka_csa2_slice).
// Load data is registered only with a load (ld_data_q is 0 otherwise), so no register here keeps
// a word of the port: with the slices' clear (clr + init) the wipe leaves every register 0.
`default_nettype none

module pka_csa2_array #(
  parameter int unsigned MaxLen = 64,  // L: largest modulus in bits, multiple of 32, 32..4096
  parameter int unsigned ChunkW = 1,   // carry-propagate chunk: 1 (paper) or 2..64 (fast)
  localparam int unsigned Words = MaxLen / 32,
  localparam int unsigned WiW   = $clog2(Words + 1),
  localparam int unsigned Ns    = MaxLen + 4,                  // number of slices
  localparam int unsigned Nch   = (Ns + ChunkW - 1) / ChunkW,  // number of chunks
  localparam int unsigned RepW  = 32,                          // slices per control copy
  localparam int unsigned Ng    = (Ns + RepW - 1) / RepW       // number of control copies
) (
  input  logic clk_i,
  input  logic rst_ni,
  // controls of the next cycle, registered here (see pka_csa2_slice)
  input  logic init_i,
  input  logic loop_z_i,
  input  logic loop_p_i,
  input  logic shift_z_i,
  input  logic shift_p_i,
  input  logic one_i,
  input  logic run_u_i,        // the S/2 + C tokens move on (else they vanish)
  input  logic run_bn_i,       // the 4B + N token moves on (else it vanishes)
  input  logic st_shift_i,     // A^P and N shift down 32 slices (storing the result)
  input  logic stz_shift_i,    // A^Z shifts down 32 slices (OP_MODEXP_CT's store)
  input  logic swap_i,         // ladder: A^P := U^Z, 4B := 4 U^P (secret: an exponent bit change)
  input  logic azp_i,          // ladder: A^Z := U^P
  input  logic wipe_i,         // the wipe runs next cycle: A_0 does not select (V := 0 with init)
  // wave starts: the token is at chunk 0 next cycle (the 4B + N token also follows tok_uz)
  input  logic u_z_start_i,
  input  logic u_p_start_i,
  input  logic bn_start_i,
  // operand loading, registered here: word ld_word_i of operand ld_tgt_i := ld_data_i next cycle
  input  logic clr_i,          // clear the operand registers (A^P := ap_one_i) next cycle
  input  logic ap_one_i,
  input  logic ld_valid_i,
  input  logic [2:0] ld_tgt_i, // 0 N, 1 4B (as 4 * word), 2 A^Z, 3 A^P
  input  logic [WiW-1:0] ld_word_i,
  input  logic [31:0] ld_data_i,
  // state seen by the controller
  output logic [63:0] ap_lo_o,  // words 0 and 1 of A^P (the result after the final round) ...
  output logic [63:0] n_lo_o,   // ... and of N (zeros above slice L+3)
  output logic [63:0] az_lo_o   // words 0 and 1 of A^Z (OP_MODEXP_CT's copy of the result)
);
  initial begin
    if (MaxLen % 32 != 0 || MaxLen < 32 || MaxLen > 4096) $fatal(1, "MaxLen: multiple of 32 in 32..4096");
    if (ChunkW < 1 || ChunkW > 64) $fatal(1, "ChunkW: 1..64");
  end

  logic [Ns-1:0] sz, cz, sp, cp, az, ap, n, b4, uz, up;
  logic [Ns-1:0] wz, wp, wcz, wcp;   // chunk adders (ChunkW > 1): sum bits, the chunk's carry out

  // ---- registered controls, one copy per group of RepW slices --------------------------------
  typedef struct packed {
    logic init, wipe, loop_z, loop_p, shift_z, shift_p, one, run_u, run_bn, clr, st, stz, swap, azp;
  } ctl_t;
  ctl_t ctl_d;
  ctl_t [Ng-1:0] ctl_q;
  assign ctl_d = '{init: init_i, wipe: wipe_i, loop_z: loop_z_i, loop_p: loop_p_i, shift_z: shift_z_i,
                   shift_p: shift_p_i, one: one_i, run_u: run_u_i, run_bn: run_bn_i, clr: clr_i,
                   st: st_shift_i, stz: stz_shift_i, swap: swap_i, azp: azp_i};
  for (genvar g = 0; g < Ng; g++) begin : g_ctl
    // keep: the copies are identical on purpose (Yosys would merge them back into one flip-flop)
    (* keep *) always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) ctl_q[g] <= '0;
      else ctl_q[g] <= ctl_d;
    end
  end

  // ---- the look-ahead selection, one per control copy -------------------------------------------
  // vsel = {A_0, q}. Algorithm 2 step 4: q = f(S2, S1, C1, C0, N1), the LSB of U = S/2 + C one
  // iteration ahead; 0 while the array initialises (init). In the wipe V is loaded with the
  // selection 0: q by init, A_0 by the wipe copy.
  function automatic logic q_lookahead(logic [2:1] s, logic [1:0] c, logic n_1);
    logic x;
    x = s[2] ^ c[1];
    if (!s[1] && !c[0]) return x;
    if (s[1] ^ c[0]) return ~x ^ n_1;
    return ~x;
  endfunction

  logic [Ng-1:0][1:0] vsel_z, vsel_p;
  for (genvar g = 0; g < Ng; g++) begin : g_vsel
    assign vsel_z[g] = {az[0] & ~ctl_q[g].wipe, ctl_q[g].init ? 1'b0 : q_lookahead(sz[2:1], cz[1:0], n[1])};
    assign vsel_p[g] = {ap[0] & ~ctl_q[g].wipe, ctl_q[g].init ? 1'b0 : q_lookahead(sp[2:1], cp[1:0], n[1])};
  end

  // ---- wave tokens, one per chunk -------------------------------------------------------------
  logic [Nch-1:0] tok_uz_q, tok_uz_d, tok_up_q, tok_up_d, tok_bn_q, tok_bn_d;
  always_comb begin
    tok_uz_d[0] = u_z_start_i;
    tok_up_d[0] = u_p_start_i;
    tok_bn_d[0] = bn_start_i | tok_uz_q[0];
    for (int unsigned c = 1; c < Nch; c++) begin
      tok_uz_d[c] = tok_uz_q[c - 1] & ctl_q[c * ChunkW / RepW].run_u;
      tok_up_d[c] = tok_up_q[c - 1] & ctl_q[c * ChunkW / RepW].run_u;
      tok_bn_d[c] = tok_bn_q[c - 1] & ctl_q[c * ChunkW / RepW].run_bn;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tok_uz_q <= '0; tok_up_q <= '0; tok_bn_q <= '0;
    end else begin
      tok_uz_q <= tok_uz_d; tok_up_q <= tok_up_d; tok_bn_q <= tok_bn_d;
    end
  end

  // ---- chunk adders (fast variant) -------------------------------------------------------------
  if (ChunkW > 1) begin : g_cpa
    logic [Ns-1:0] sz_up, sp_up;
    assign sz_up = {1'b0, sz[Ns-1:1]};
    assign sp_up = {1'b0, sp[Ns-1:1]};
    for (genvar c = 0; c < Nch; c++) begin : g_chunk
      localparam int unsigned Lo = c * ChunkW;
      localparam int unsigned Wc = (Ns - Lo < ChunkW) ? Ns - Lo : ChunkW;
      logic [Wc-1:0] xz, yz;
      logic [Wc:0] sumz, sump;
      logic ciz, cip;
      // Z: S/2 + C, or 4B + N on the 4B + N token (the mux in front of the carry chain)
      assign xz   = tok_bn_q[c] ? b4[Lo +: Wc] : sz_up[Lo +: Wc];
      assign yz   = tok_bn_q[c] ? n[Lo +: Wc]  : cz[Lo +: Wc];
      assign ciz  = (c == 0) ? 1'b0 : cz[(c == 0) ? 0 : Lo - 1];
      assign cip  = (c == 0) ? 1'b0 : cp[(c == 0) ? 0 : Lo - 1];
      assign sumz = {1'b0, xz} + {1'b0, yz} + {{Wc{1'b0}}, ciz};
      assign sump = {1'b0, sp_up[Lo +: Wc]} + {1'b0, cp[Lo +: Wc]} + {{Wc{1'b0}}, cip};
      assign wz[Lo +: Wc]  = sumz[Wc-1:0];
      assign wp[Lo +: Wc]  = sump[Wc-1:0];
      assign wcz[Lo +: Wc] = {Wc{sumz[Wc]}};
      assign wcp[Lo +: Wc] = {Wc{sump[Wc]}};
    end
  end else begin : g_no_cpa
    assign wz = '0;
    assign wp = '0;
    assign wcz = '0;
    assign wcp = '0;
  end

  // ---- load lanes (registered) ----------------------------------------------------------------
  logic [Words-1:0] hit_n_q, hit_n_d, hit_b4_q, hit_b4_d, hit_az_q, hit_az_d, hit_ap_q, hit_ap_d;
  logic [31:0] ld_data_q;
  logic ap_one_q;
  always_comb begin
    for (int unsigned w = 0; w < Words; w++) begin
      hit_n_d[w]  = ld_valid_i && ld_tgt_i == 3'd0 && 32'(ld_word_i) == w;
      hit_b4_d[w] = ld_valid_i && ld_tgt_i == 3'd1 && 32'(ld_word_i) == w;
      hit_az_d[w] = ld_valid_i && ld_tgt_i == 3'd2 && 32'(ld_word_i) == w;
      hit_ap_d[w] = ld_valid_i && ld_tgt_i == 3'd3 && 32'(ld_word_i) == w;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hit_n_q <= '0; hit_b4_q <= '0; hit_az_q <= '0; hit_ap_q <= '0;
    end else begin
      hit_n_q <= hit_n_d; hit_b4_q <= hit_b4_d; hit_az_q <= hit_az_d; hit_ap_q <= hit_ap_d;
    end
  end

  always_ff @(posedge clk_i) begin
    ld_data_q <= ld_valid_i ? ld_data_i : '0;   // (a load's word, else 0: nothing of the port kept)
    ap_one_q  <= clr_i & ap_one_i;
  end

  // ---- the slices -----------------------------------------------------------------------------
  for (genvar i = 0; i < Ns; i++) begin : g_slice
    localparam int unsigned Wd  = i / 32;         // word of bit i (N, A)
    localparam int unsigned Wd4 = (i - 2) / 32;   // word of bit i-2 (4B = 4W), i >= 2
    localparam int unsigned G   = i / RepW;       // control copy
    localparam int unsigned Ch  = i / ChunkW;     // chunk
    localparam int unsigned Ch2 = (i >= 2) ? (i - 2) / ChunkW : 0;  // chunk of slice i-2
    localparam bit          Top = (i % ChunkW == ChunkW - 1) || (i == Ns - 1);
    logic ld_n, ld_b4, ld_az, ld_ap, d;
    if (i < MaxLen) begin : g_op
      assign ld_n  = hit_n_q[Wd];
      assign ld_az = hit_az_q[Wd];
      assign ld_ap = hit_ap_q[Wd];
    end else begin : g_no_op
      assign ld_n  = 1'b0;
      assign ld_az = 1'b0;
      assign ld_ap = 1'b0;
    end
    if (i >= 2 && i < MaxLen + 2) begin : g_b4
      assign ld_b4 = hit_b4_q[Wd4];
      assign d = ld_b4 ? ld_data_q[(i - 2) % 32] : ld_data_q[i % 32];
    end else begin : g_no_b4
      assign ld_b4 = 1'b0;
      assign d = ld_data_q[i % 32];
    end

    pka_csa2_slice #(.Index(i), .ChunkW(ChunkW), .Top(Top)) u_slice (
      .clk_i      (clk_i),
      .init_i     (ctl_q[G].init),
      .loop_z_i   (ctl_q[G].loop_z),
      .loop_p_i   (ctl_q[G].loop_p),
      .vsel_z_i   (vsel_z[G]),
      .vsel_p_i   (vsel_p[G]),
      .shift_z_i  (ctl_q[G].shift_z),
      .shift_p_i  (ctl_q[G].shift_p),
      .st_i       (ctl_q[G].st),
      .stz_i      (ctl_q[G].stz),
      .swap_i     (ctl_q[G].swap),
      .azp_i      (ctl_q[G].azp),
      .one_i      (ctl_q[G].one),
      .u_z_i      (tok_uz_q[Ch]),
      .u_p_i      (tok_up_q[Ch]),
      .bn_i       (tok_bn_q[Ch]),
      .b4_i       (i >= 2 ? tok_uz_q[Ch2] : 1'b0),
      .clr_i      (ctl_q[G].clr),
      .ap_one_i   (ap_one_q),
      .ld_n_i     (ld_n),
      .ld_b4_i    (ld_b4),
      .ld_az_i    (ld_az),
      .ld_ap_i    (ld_ap),
      .ld_d_i     (d),
      .sz_up_i    (i + 1 < Ns ? sz[i + 1 < Ns ? i + 1 : i] : 1'b0),
      .sp_up_i    (i + 1 < Ns ? sp[i + 1 < Ns ? i + 1 : i] : 1'b0),
      .az_up_i    (i + 1 < Ns ? az[i + 1 < Ns ? i + 1 : i] : 1'b0),
      .ap_up_i    (i + 1 < Ns ? ap[i + 1 < Ns ? i + 1 : i] : 1'b0),
      .ap_st_i    (i + 32 < Ns ? ap[i + 32 < Ns ? i + 32 : i] : 1'b0),
      .az_st_i    (i + 32 < Ns ? az[i + 32 < Ns ? i + 32 : i] : 1'b0),
      .n_st_i     (i + 32 < Ns ? n[i + 32 < Ns ? i + 32 : i] : 1'b0),
      .cz_dn_i    (i >= 1 ? cz[i >= 1 ? i - 1 : 0] : 1'b0),
      .cp_dn_i    (i >= 1 ? cp[i >= 1 ? i - 1 : 0] : 1'b0),
      .uz_m2_i    (i >= 2 ? uz[i >= 2 ? i - 2 : 0] : 1'b0),
      .up_m2_i    (i >= 2 ? up[i >= 2 ? i - 2 : 0] : 1'b0),
      .wz_i       (wz[i]),
      .wp_i       (wp[i]),
      .wcz_i      (wcz[i]),
      .wcp_i      (wcp[i]),
      .sz_o       (sz[i]),
      .cz_o       (cz[i]),
      .sp_o       (sp[i]),
      .cp_o       (cp[i]),
      .az_o       (az[i]),
      .ap_o       (ap[i]),
      .n_o        (n[i]),
      .b4_o       (b4[i]),
      .uz_o       (uz[i]),
      .up_o       (up[i])
    );
  end

  if (Ns >= 64) begin : g_lo
    assign ap_lo_o = ap[63:0];
    assign n_lo_o  = n[63:0];
    assign az_lo_o = az[63:0];
  end else begin : g_lo_pad
    assign ap_lo_o = {{(64 - Ns){1'b0}}, ap};
    assign n_lo_o  = {{(64 - Ns){1'b0}}, n};
    assign az_lo_o = {{(64 - Ns){1'b0}}, az};
  end

  // Bits the controller does not need (the words above 1 reach it by the store shift; the top
  // slices of A^P and N hold zeros: A^P < 2N <= 2^(L+1) is checked by the model, N < 2^L by the
  // core, and the result < N; S, C of the upper slices only feed neighbours;
  // 4B only feeds the chunk adders; a control copy whose group starts no chunk > 0 has no token to
  // move).
  logic unused;
  assign unused = ^{sz[0], sp[0], uz[Ns-1:Ns-2], up[Ns-1:Ns-2], sz[Ns-1:3], cz[Ns-1:2], sp[Ns-1:3],
                    cp[Ns-1:2], b4, ctl_q};
endmodule
