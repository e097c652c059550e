// SPDX-License-Identifier: Apache-2.0
// pka_rns_gamma: the extra channel m_gamma = 2^6 of the SBMM build (GMMs: products mod 64).
//
// Holds the K and R residues mod 64 of every register and the constants |-Ma|_64, |Ma^-1|_64,
// |Ma|_64, |Ma_i|_64 (i < n_a). Per SB (pka.model.rns.sbmm, _split, compress):
//   start: u = 2 KxKy + RxRy, v = (Kx+Rx)(Ky+Ry) - KxKy - RxRy      (Karatsuba, mod 64)
//   BE a -> gamma (Split's R^ of U and V): acc += xi_i*|Ma_i| + k_i*|-Ma|, one step per broadcast
//   Split: K = (x - R^) Ma^-1; K = -1 fix: K := 0, R^ := R^ - Ma
//   Kz = Ku + Rv, Rz = 2 Kv + Ru.
// Compress tail (beside the next instruction; pka_rns_sb's header): at the handoff Kz, Rz are
// copied; Compress's BE a -> gamma is one cycle, the n_a GMMs side by side:
//   R_Y = sum_i xi_i*|Ma_i| + k*|-Ma| (mod 64), k = floor(sum_i trunc_8(xi_i) / 2^8)
// (the Cox's alpha = 0 sum, so the same k as its step-by-step carries), Q_Y = (Y - R_Y) Ma^-1
// (63 -> 0); then write d.K = Kz - Q_K Ma + Q_R, d.R = Rz - Q_R Ma + 2 Q_K.
// Wipe (OP_ZEROIZE, wipe_i): register-file word ld_addr_i := 0 through the write port, every other
// register (constants, products, accumulators, tail) := 0 at once.
`default_nettype none

module pka_rns_gamma #(
  parameter int unsigned W    = 32,
  parameter int unsigned MaxN = 9
) (
  input  logic                        clk_i,
  input  logic                        start_i,    // products of registers x, y (one pair)
  input  logic                        first_i,    // first pair: start u, v (else accumulate)
  input  logic                        lin_en_i,   // ADD/SUB: Kz, Rz = x +- y (+ zero representation)
  input  logic                        lin_sub_i,
  input  logic [4:0]                  x_i, y_i,
  input  logic                        be_en_i,    // accumulate bus * |Ma_s| + k * |-Ma| into acc[tgt]
  input  logic                        be_clr_i,
  input  logic                        be_tgt_i,   // 0 R^u, 1 R^v
  input  logic [$clog2(MaxN)-1:0]     be_col_i,
  input  logic [5:0]                  bus_i,      // xi mod 64
  input  logic                        k_i,
  input  logic                        ku_i,       // K_u := (u - R^u) Ma^-1
  input  logic                        kv_i,
  input  logic                        fix_u_i,
  input  logic                        fix_v_i,
  input  logic                        mkz_i,
  // Compress tail
  input  logic                        tcopy_i,    // handoff: tail Kz, Rz := Kz, Rz
  input  logic [MaxN-1:0]             act_i,      // channel i of a is in use (i < n_a)
  input  logic [13:0]                 txk_i [MaxN],   // {trunc_8, low 6 bits} of xi(Kz_a) per channel
  input  logic [13:0]                 txr_i [MaxN],
  input  logic                        mkqk_i,     // Q_K := (Kz - R_K) Ma^-1 (63 -> 0)
  input  logic                        mkqr_i,
  input  logic                        wk_i,
  input  logic                        wr_i,
  input  logic [4:0]                  wd_i,
  input  logic                        ld_rf_i,
  input  logic [5:0]                  ld_addr_i,
  input  logic                        ld_cst_i,
  input  logic [$clog2(MaxN+5)-1:0]   ld_idx_i,
  input  logic [5:0]                  ld_data_i,
  input  logic                        wipe_i,     // OP_ZEROIZE
  input  logic [5:0]                  st_addr_i,
  output logic [5:0]                  st_data_o,
  output logic                        ku_m1_o,    // K_u == 63 (-1)
  output logic                        kv_m1_o,
  output logic [5:0]                  qk_o,
  output logic [5:0]                  qr_o
);
  logic [5:0] rf_q [64];
  logic [5:0] col_q [MaxN];
  logic [5:0] corr_q, mainv_q, ma_q, z0k_q, z0r_q;
  logic [5:0] u_q, v_q, ku_q, kv_q, kz_q, rz_q, tkz_q, trz_q, qk_q, qr_q;
  logic [5:0] acc_q [2];

  logic [5:0] xk, xr, yk, yr, p1, p2, p3;
  assign xk = (x_i == '0) ? '0 : rf_q[{x_i, 1'b0}];   // register 0 reads as zero
  assign xr = (x_i == '0) ? '0 : rf_q[{x_i, 1'b1}];
  assign yk = (y_i == '0) ? '0 : rf_q[{y_i, 1'b0}];
  assign yr = (y_i == '0) ? '0 : rf_q[{y_i, 1'b1}];
  assign p1 = xk * yk;
  assign p2 = xr * yr;
  assign p3 = (xk + xr) * (yk + yr);

  // one write port (loads, then the SB's K and R results), so the file maps to LUT RAM
  logic       we;
  logic [5:0] waddr, wdata;
  always_comb begin
    we = ld_rf_i | wk_i | wr_i | wipe_i;
    waddr = (ld_rf_i || wipe_i) ? ld_addr_i : {wd_i, wr_i};
    wdata = wipe_i ? 6'd0 : ld_rf_i ? ld_data_i
          : wk_i ? tkz_q - 6'(qk_q * ma_q) + qr_q : trz_q - 6'(qr_q * ma_q) + 6'(qk_q << 1);
  end

  // Compress's BE a -> gamma of the tail's xi(Kz_a) (mkqk) or xi(Rz_a) (mkqr), one cycle
  localparam int unsigned SumW = 8 + $clog2(MaxN + 1);
  logic [SumW-1:0] tsum;
  logic [5:0]      tacc, ty, tq;
  always_comb begin
    tsum = '0;
    tacc = '0;
    for (int unsigned i = 0; i < MaxN; i++) begin
      if (act_i[i]) begin
        tsum = tsum + SumW'(mkqr_i ? txr_i[i][13:6] : txk_i[i][13:6]);
        tacc = tacc + 6'((mkqr_i ? txr_i[i][5:0] : txk_i[i][5:0]) * col_q[i]);
      end
    end
    tacc = tacc + 6'(32'(tsum >> 8) * 32'(corr_q));
    ty = mkqr_i ? trz_q : tkz_q;
    tq = 6'((ty - tacc) * mainv_q);
  end

  always_ff @(posedge clk_i) begin
    if (start_i) begin
      u_q <= (first_i ? 6'd0 : u_q) + 6'((p1 << 1) + p2);
      v_q <= (first_i ? 6'd0 : v_q) + p3 - p1 - p2;
    end
    if (be_en_i) acc_q[be_tgt_i] <= (be_clr_i ? 6'd0 : acc_q[be_tgt_i]) + 6'(bus_i * col_q[be_col_i])
                                    + (k_i ? corr_q : 6'd0);
    if (tcopy_i) begin
      tkz_q <= kz_q;
      trz_q <= rz_q;
    end
    if (ku_i) ku_q <= 6'((u_q - acc_q[0]) * mainv_q);
    if (kv_i) kv_q <= 6'((v_q - acc_q[1]) * mainv_q);
    if (fix_u_i) begin ku_q <= '0; acc_q[0] <= acc_q[0] - ma_q; end
    if (fix_v_i) begin kv_q <= '0; acc_q[1] <= acc_q[1] - ma_q; end
    if (mkz_i) begin
      kz_q <= ku_q + acc_q[1];
      rz_q <= 6'(kv_q << 1) + acc_q[0];
    end
    if (lin_en_i) begin
      kz_q <= lin_sub_i ? xk + z0k_q - yk : xk + yk;
      rz_q <= lin_sub_i ? xr + z0r_q - yr : xr + yr;
    end
    if (mkqk_i) qk_q <= (tq == 6'd63) ? 6'd0 : tq;
    if (mkqr_i) qr_q <= (tq == 6'd63) ? 6'd0 : tq;
    if (we) rf_q[waddr] <= wdata;
    if (ld_cst_i) begin   // host block: |-Ma|, |Ma^-1|, |Ma|, 3Ma - 3, 3Ma - 6 (mod 64), |Ma_i|_64
      if (ld_idx_i == 0) corr_q <= ld_data_i;
      else if (ld_idx_i == 1) mainv_q <= ld_data_i;
      else if (ld_idx_i == 2) ma_q <= ld_data_i;
      else if (ld_idx_i == 3) z0k_q <= ld_data_i;
      else if (ld_idx_i == 4) z0r_q <= ld_data_i;
      else col_q[$clog2(MaxN)'(32'(ld_idx_i) - 5)] <= ld_data_i;
    end
    if (wipe_i) begin   // last: overrides every update above
      for (int i = 0; i < MaxN; i++) col_q[i] <= '0;
      corr_q <= '0; mainv_q <= '0; ma_q <= '0; z0k_q <= '0; z0r_q <= '0;
      u_q <= '0; v_q <= '0; ku_q <= '0; kv_q <= '0; kz_q <= '0; rz_q <= '0;
      tkz_q <= '0; trz_q <= '0; qk_q <= '0; qr_q <= '0;
      acc_q[0] <= '0; acc_q[1] <= '0;
    end
  end

  assign st_data_o = rf_q[st_addr_i];
  assign ku_m1_o = (ku_q == 6'd63);
  assign kv_m1_o = (kv_q == 6'd63);
  assign qk_o = qk_q;
  assign qr_o = qr_q;

  logic unused;
  assign unused = ^{W};
endmodule
