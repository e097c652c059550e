// SPDX-License-Identifier: Apache-2.0
// pka_csa2_slice: one bit-slice of the csa2 array (paper 000, Figure 2).
//
// Slice i holds bit i of the shared operands N, 4B and 4B+N, and of the Z and P sections' carry-save
// pair (S, C), pending addend V and left operand A (a shift register through the slices).
//   loop (carry-save):  S_i, C_i := FA(S_(i+1), C_i, V_i)             Algorithm 2 step 6
//   wave (carry-prop.): U_i := S_(i+1) + C_i + cin                     U = S/2 + C, LSB first
//   bn wave (Z only):   4BN_i := 4B_i + N_i + cin                      4B + N, one chunk behind
// V_i := one of {0, N_i, 4B_i, 4BN_i} by the controller's broadcast (A_h, q) (steps 4-5, pipelined
// against the addition); V is loaded every cycle (it is read only by the loop). The wave result bit
// also loads A (the next left operand) and, on the Z side, 4B of slice i+2 (4B = 4 * U is a wired
// shift).
//
// ChunkW = 1 (paper): each section has one dual-mode full adder, FA(S_(i+1), C_i, V_i) in the loop
// and FA(S_(i+1), C_i, C_(i-1)) in the wave, the carry held in the C flip-flop (one slice a cycle).
// ChunkW > 1 (fast): the loop adder is a plain full adder and the wave sums come from the array's
// chunk adders (one `+` of ChunkW bits per chunk and section, on the FPGA carry chain); the top
// slice of a chunk keeps the chunk's carry out in its C flip-flop for the next chunk.
// Storing the result, A^P and N shift down 32 slices per stored word (st_i); A^Z alone on stz_i
// (OP_MODEXP_CT stores its copy of the result from A^Z).
// OP_MODEXP_CT (Montgomery's powering ladder): at the end of a round the wave sums may cross over,
// swap_i: A^P := U^Z and 4B := 4 U^P (the next round's B = R_b is the P product's result), and
// azp_i: A^Z := U^P. Same cycles whichever way: a secret-dependent choice of source, no more.
// OP_ZEROIZE: clr_i with init_i (and the array's vsel = 0) clears every register in one cycle.
// The controls arrive registered (pka_csa2_array), so each is a flip-flop output here; vsel is
// computed in the array from the low slices (one copy per group of 32 slices).
`default_nettype none

module pka_csa2_slice #(
  parameter int unsigned Index  = 0,   // slice position 0..L+3
  parameter int unsigned ChunkW = 1,   // carry-propagate chunk: 1 (paper) or 2..64 (fast)
  parameter bit          Top    = 1'b1 // the top slice of its chunk (keeps the chunk's carry out)
) (
  input  logic clk_i,
  // broadcast control (registered copies of this slice's group)
  input  logic init_i,        // clear S and C of both sections (Algorithm 2 step 1)
  input  logic loop_z_i,      // carry-save step, Z section
  input  logic loop_p_i,      // carry-save step, P section
  input  logic [1:0] vsel_z_i,  // {A^Z_h, q^Z}: 0, N, 4B, 4B+N
  input  logic [1:0] vsel_p_i,  // {A^P_h, q^P}
  input  logic shift_z_i,     // A^Z shifts one slice down
  input  logic shift_p_i,     // A^P shifts one slice down
  input  logic st_i,          // A^P and N shift 32 slices down (store)
  input  logic stz_i,         // A^Z shifts 32 slices down (OP_MODEXP_CT's store)
  input  logic swap_i,        // the wave crosses over: A^P := U^Z, 4B := 4 U^P (ladder, secret)
  input  logic azp_i,         // A^Z := U^P instead of U^Z (ladder, secret)
  input  logic one_i,         // 4B := 4 (B = 1 for the final MonProd(P, 1)) instead of 4 * U^Z
  // wave tokens of this slice's chunk
  input  logic u_z_i,         // the S/2 + C wave is at this chunk, Z section (loads A^Z)
  input  logic u_p_i,         // the S/2 + C wave is at this chunk, P section (loads A^P)
  input  logic bn_i,          // the 4B + N wave is at this chunk
  input  logic b4_i,          // the Z wave is at slice i-2's chunk: 4B_i := 4 * U (or 4)
  // operand loading (from the word port)
  input  logic clr_i,         // clear N, 4B, 4B+N, A^Z, A^P (command start) ...
  input  logic ap_one_i,      // ... with A^P := 1 (modexp: P := MonProd(1, W) in round 0)
  input  logic ld_n_i,
  input  logic ld_b4_i,
  input  logic ld_az_i,
  input  logic ld_ap_i,
  input  logic ld_d_i,        // the data bit for whichever load is enabled
  // neighbours
  input  logic sz_up_i,       // S^Z_(i+1)
  input  logic sp_up_i,       // S^P_(i+1)
  input  logic az_up_i,       // A^Z_(i+1)
  input  logic ap_up_i,       // A^P_(i+1)
  input  logic ap_st_i,       // A^P_(i+32)
  input  logic az_st_i,       // A^Z_(i+32)
  input  logic n_st_i,        // N_(i+32)
  input  logic cz_dn_i,       // C^Z_(i-1) flip-flop (ChunkW = 1)
  input  logic cp_dn_i,       // C^P_(i-1) flip-flop (ChunkW = 1)
  input  logic uz_m2_i,       // wave sum of slice i-2, Z section (this cycle)
  input  logic up_m2_i,       // wave sum of slice i-2, P section (this cycle)
  // chunk adders (ChunkW > 1): this slice's sum bits and the chunk's carry out
  input  logic wz_i,
  input  logic wp_i,
  input  logic wcz_i,
  input  logic wcp_i,
  // state and wave sum
  output logic sz_o,
  output logic cz_o,
  output logic sp_o,
  output logic cp_o,
  output logic az_o,
  output logic ap_o,
  output logic n_o,
  output logic b4_o,
  output logic uz_o,
  output logic up_o
);
  localparam bit HasB4 = (Index >= 2);   // 4B_0 = 4B_1 = 0
  localparam bit IsTwo = (Index == 2);   // 4 * 1 = bit 2

  logic n_q, n_d, b4_q, b4_d, bn_q, bn_d;
  logic sz_q, sz_d, cz_q, cz_d, vz_q, vz_d, az_q, az_d;
  logic sp_q, sp_d, cp_q, cp_d, vp_q, vp_d, ap_q, ap_d;

  // Adders: loop sums/carries (lsz, lcz, lsp, lcp), wave sums (wsz, wsp) and the carries the wave
  // leaves in C (wcz, wcp).
  logic lsz, lcz, lsp, lcp, wsz, wsp, wcz, wcp;

  if (ChunkW == 1) begin : g_dual
    // The paper's dual-mode adders: one full adder per section, its third input V (loop) or the
    // carry of slice i-1 (wave); the Z adder also adds 4B + N.
    logic xz, yz, zz, sumz, carz, zp, sump, carp;
    assign xz   = bn_i ? b4_q : sz_up_i;
    assign yz   = bn_i ? n_q  : cz_q;
    assign zz   = (bn_i | u_z_i) ? cz_dn_i : vz_q;
    assign sumz = xz ^ yz ^ zz;
    assign carz = (xz & yz) | (xz & zz) | (yz & zz);
    assign zp   = u_p_i ? cp_dn_i : vp_q;
    assign sump = sp_up_i ^ cp_q ^ zp;
    assign carp = (sp_up_i & cp_q) | (sp_up_i & zp) | (cp_q & zp);
    assign lsz = sumz;  assign lcz = carz;  assign wsz = sumz;  assign wcz = carz;
    assign lsp = sump;  assign lcp = carp;  assign wsp = sump;  assign wcp = carp;
    logic unused;
    assign unused = ^{wz_i, wp_i, wcz_i, wcp_i};
  end else begin : g_chunk
    // Loop: plain full adders. Wave: the chunk adders' sum bits and carry outs.
    assign lsz = sz_up_i ^ cz_q ^ vz_q;
    assign lcz = (sz_up_i & cz_q) | (sz_up_i & vz_q) | (cz_q & vz_q);
    assign lsp = sp_up_i ^ cp_q ^ vp_q;
    assign lcp = (sp_up_i & cp_q) | (sp_up_i & vp_q) | (cp_q & vp_q);
    assign wsz = wz_i;  assign wcz = wcz_i;
    assign wsp = wp_i;  assign wcp = wcp_i;
    logic unused;
    assign unused = ^{cz_dn_i, cp_dn_i};
  end

  function automatic logic vsel(logic [1:0] sel, logic n, logic b4, logic bn);
    unique case (sel)
      2'b00:   return 1'b0;
      2'b01:   return n;
      2'b10:   return b4;
      default: return bn;
    endcase
  endfunction

  always_comb begin
    sz_d = sz_q; cz_d = cz_q; az_d = az_q;
    sp_d = sp_q; cp_d = cp_q; ap_d = ap_q;
    n_d = n_q; b4_d = b4_q; bn_d = bn_q;
    // V: the selection, every cycle (only the loop reads it)
    vz_d = vsel(vsel_z_i, n_q, b4_q, bn_q);
    vp_d = vsel(vsel_p_i, n_q, b4_q, bn_q);
    // Z section
    if (loop_z_i) begin
      sz_d = lsz;
      cz_d = lcz;
    end else if ((u_z_i || bn_i) && Top) begin
      cz_d = wcz;
    end
    if (ChunkW == 1 && u_z_i) sz_d = wsz;      // (the paper's adder writes S; dead after the wave)
    if (bn_i) bn_d = wsz;
    if (shift_z_i) az_d = az_up_i;
    else if (u_z_i) az_d = azp_i ? wsp : wsz;
    else if (stz_i) az_d = az_st_i;
    if (HasB4 && b4_i) b4_d = one_i ? IsTwo : (swap_i ? up_m2_i : uz_m2_i);
    // P section
    if (loop_p_i) begin
      sp_d = lsp;
      cp_d = lcp;
    end else if (u_p_i && Top) begin
      cp_d = wcp;
    end
    if (ChunkW == 1 && u_p_i) sp_d = wsp;
    if (shift_p_i) ap_d = ap_up_i;
    else if (u_p_i) ap_d = swap_i ? wsz : wsp;
    else if (st_i) ap_d = ap_st_i;
    if (st_i) n_d = n_st_i;
    // Algorithm 2 step 1, and operand loading
    if (init_i) begin
      sz_d = 1'b0; cz_d = 1'b0; sp_d = 1'b0; cp_d = 1'b0;
    end
    if (clr_i) begin
      n_d = 1'b0; b4_d = 1'b0; bn_d = 1'b0; az_d = 1'b0; ap_d = (Index == 0) && ap_one_i;
    end
    if (ld_n_i) n_d = ld_d_i;
    if (ld_b4_i && HasB4) b4_d = ld_d_i;
    if (ld_az_i) az_d = ld_d_i;
    if (ld_ap_i) ap_d = ld_d_i;
  end

  always_ff @(posedge clk_i) begin
    n_q <= n_d; b4_q <= b4_d; bn_q <= bn_d;
    sz_q <= sz_d; cz_q <= cz_d; vz_q <= vz_d; az_q <= az_d;
    sp_q <= sp_d; cp_q <= cp_d; vp_q <= vp_d; ap_q <= ap_d;
  end

  assign sz_o = sz_q;
  assign cz_o = cz_q;
  assign sp_o = sp_q;
  assign cp_o = cp_q;
  assign az_o = az_q;
  assign ap_o = ap_q;
  assign n_o  = n_q;
  assign b4_o = b4_q;
  assign uz_o = wsz;
  assign up_o = wsp;
endmodule
