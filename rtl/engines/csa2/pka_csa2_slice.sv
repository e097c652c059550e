// SPDX-License-Identifier: Apache-2.0
// pka_csa2_slice: one bit-slice of the csa2 array (paper 000, Figure 2).
//
// Slice i holds bit i of the shared operands N, 4B and 4B+N, and of the Z and P sections' carry-save
// pair (S, C), pending addend V and left operand A (a shift register through the slices). Each
// section has one dual-mode full adder:
//   loop (carry-save):  S_i, C_i := FA(S_(i+1), C_i, V_i)             Algorithm 2 step 6
//   wave (carry-prop.): S_i, C_i := FA(S_(i+1), C_i, cin_i)           U = S/2 + C, LSB first
//   bn wave (Z only):   4BN_i, C_i := FA(4B_i, N_i, cin_i)            4B + N, one step behind
// V_i := one of {0, N_i, 4B_i, 4BN_i} by the controller's broadcast (A_h, q) (steps 4-5, pipelined
// against the addition). cin_i is the carry of slice i-1: its C flip-flop (registered: one slice
// per cycle, the paper's wave) or, inside a chunk of ChunkW slices, its full adder's carry output
// (combinational: one chunk per cycle). The wave result bit also loads A (the next left operand)
// and, on the Z side, 4B of slice i+2 (4B = 4 * U is a wired shift).
`default_nettype none

module pka_csa2_slice #(
  parameter int unsigned Index  = 0,   // slice position 0..L+3
  parameter int unsigned ChunkW = 1    // carry-propagate chunk: 1 (paper) or 2..64 (fast)
) (
  input  logic clk_i,
  // broadcast control
  input  logic init_i,        // clear S and C of both sections (Algorithm 2 step 1)
  input  logic loop_z_i,      // carry-save step, Z section
  input  logic loop_p_i,      // carry-save step, P section
  input  logic vload_z_i,     // V^Z := selection
  input  logic vload_p_i,     // V^P := selection
  input  logic [1:0] vsel_z_i,  // {A^Z_h, q^Z}: 0, N, 4B, 4B+N
  input  logic [1:0] vsel_p_i,  // {A^P_h, q^P}
  input  logic shift_z_i,     // A^Z shifts one slice down
  input  logic shift_p_i,     // A^P shifts one slice down
  input  logic u_z_i,         // S/2 + C wave enabled, Z section (with tok_u_i)
  input  logic u_p_i,         // S/2 + C wave enabled, P section (with tok_u_i); loads A^P
  input  logic b4_i,          // 4B := 4 * U^Z (with tok_u of slice i-2)
  input  logic one_i,         // ... or 4B := 4 (B = 1 for the final MonProd(P, 1))
  input  logic bn_i,          // 4B + N wave enabled (with tok_bn_i)
  input  logic tok_u_i,       // the S/2 + C wave is at this slice's chunk
  input  logic tok_bn_i,      // the 4B + N wave is at this slice's chunk
  input  logic tok_u_m2_i,    // the S/2 + C wave is at slice i-2's chunk
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
  input  logic cz_dn_i,       // C^Z_(i-1) flip-flop
  input  logic cp_dn_i,       // C^P_(i-1) flip-flop
  input  logic coz_dn_i,      // carry output of slice i-1's Z adder (this cycle)
  input  logic cop_dn_i,      // carry output of slice i-1's P adder (this cycle)
  input  logic uz_m2_i,       // wave sum of slice i-2's Z adder (this cycle)
  // state and adder outputs
  output logic sz_o,
  output logic cz_o,
  output logic sp_o,
  output logic cp_o,
  output logic az_o,
  output logic ap_o,
  output logic n_o,
  output logic coz_o,
  output logic cop_o,
  output logic uz_o
);
  localparam bit ChainIn = (ChunkW > 1) && (Index % ChunkW != 0);  // carry-in from the chunk chain
  localparam bit HasB4   = (Index >= 2);                           // 4B_0 = 4B_1 = 0
  localparam bit IsTwo   = (Index == 2);                           // 4 * 1 = bit 2

  logic n_q, n_d, b4_q, b4_d, bn_q, bn_d;
  logic sz_q, sz_d, cz_q, cz_d, vz_q, vz_d, az_q, az_d;
  logic sp_q, sp_d, cp_q, cp_d, vp_q, vp_d, ap_q, ap_d;

  // ---- Z section dual-mode adder ----------------------------------------------------------------
  logic act_uz, act_bn, xz, yz, zz, cinz, sumz, carz;
  assign act_uz = u_z_i & tok_u_i;
  assign act_bn = bn_i & tok_bn_i;
  assign cinz   = ChainIn ? coz_dn_i : cz_dn_i;
  assign xz     = act_bn ? b4_q : sz_up_i;
  assign yz     = act_bn ? n_q  : cz_q;
  assign zz     = (act_bn | act_uz) ? cinz : vz_q;
  assign sumz   = xz ^ yz ^ zz;
  assign carz   = (xz & yz) | (xz & zz) | (yz & zz);

  // ---- P section dual-mode adder ----------------------------------------------------------------
  logic act_up, xp, yp, zp, cinp, sump, carp;
  assign act_up = u_p_i & tok_u_i;
  assign cinp   = ChainIn ? cop_dn_i : cp_dn_i;
  assign xp     = sp_up_i;
  assign yp     = cp_q;
  assign zp     = act_up ? cinp : vp_q;
  assign sump   = xp ^ yp ^ zp;
  assign carp   = (xp & yp) | (xp & zp) | (yp & zp);

  function automatic logic vsel(logic [1:0] sel, logic n, logic b4, logic bn);
    unique case (sel)
      2'b00:   return 1'b0;
      2'b01:   return n;
      2'b10:   return b4;
      default: return bn;
    endcase
  endfunction

  always_comb begin
    sz_d = sz_q; cz_d = cz_q; vz_d = vz_q; az_d = az_q;
    sp_d = sp_q; cp_d = cp_q; vp_d = vp_q; ap_d = ap_q;
    n_d = n_q; b4_d = b4_q; bn_d = bn_q;
    // Z section
    if (loop_z_i || act_uz) sz_d = sumz;
    if (loop_z_i || act_uz || act_bn) cz_d = carz;
    if (vload_z_i) vz_d = vsel(vsel_z_i, n_q, b4_q, bn_q);
    if (act_bn) bn_d = sumz;
    if (shift_z_i) az_d = az_up_i;
    else if (act_uz) az_d = sumz;
    if (HasB4 && b4_i && tok_u_m2_i) b4_d = one_i ? IsTwo : uz_m2_i;
    // P section
    if (loop_p_i || act_up) begin
      sp_d = sump;
      cp_d = carp;
    end
    if (vload_p_i) vp_d = vsel(vsel_p_i, n_q, b4_q, bn_q);
    if (shift_p_i) ap_d = ap_up_i;
    else if (act_up) ap_d = sump;
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

  assign sz_o  = sz_q;
  assign cz_o  = cz_q;
  assign sp_o  = sp_q;
  assign cp_o  = cp_q;
  assign az_o  = az_q;
  assign ap_o  = ap_q;
  assign n_o   = n_q;
  assign coz_o = carz;
  assign cop_o = carp;
  assign uz_o  = sumz;
endmodule
