// SPDX-License-Identifier: Apache-2.0
// pka_rns_sb_rower: one rower of the SBMM build: channel j of the half base a (m_a = 2^W - c_a,
// j < n_a) and channel j of the half base b (m_b = 2^W - c_b, j < n_b), one W x W multiplier.
//
// Holds the K and R residues of every register for both halves, its constants (host table:
// c_a, c_b, |Ma_j^-1|_ma, |Ma^-1|_mb, |Mb_j^-1|_mb, |Ma|_mb, |-Ma|_mb, |-Mb|_ma, the zero
// representation (3Ma - 3, 3Ma - 6) mod m_a and mod m_b, then the BE columns |Ma_i|_mb (i < n_a)
// and |Mb_i|_ma (i < n_b)) and the scratch values of one SB
// (pka.model.rns.sbmm + compress): u, v (Karatsuba U = 2KxKy + RxRy, V = (Kx+Rx)(Ky+Ry) - KxKy - RxRy,
// lazily accumulated, V from a multiple of m so it never goes negative), the Split results R^ and K
// on b, K on a, the broadcast xi, the outputs Kz = Ku + Rv, Rz = 2Kv + Ru.
// Compress tail (runs beside the next instruction): at the handoff Kz, Rz are copied to tail
// registers; the xi of Kz_a and Rz_a arrive from the reducer (only their top 8 and low 6 bits, which
// the gamma channel's one-cycle BE a -> gamma reads); Q*|Ma|_mb by a 6 x W shift-and-add, one fold
// and one conditional subtraction (Q < 64: Q*Ma < 2^(W+6), H*c + L < 2 m_b); then the K and R
// results are written to the register file.
// The core (pka_rns_sb) drives every field each cycle (schedule in its header).
// Shared modular adders (issue 16 item 1; each adder serves steps that pka_rns_sb's schedule never
// puts in one cycle):
//   sum_x, sum_y (mod the half rhalf_i): Karatsuba's Kx + Rx, Ky + Ry (opa_sel 1, opb_sel 1: an SB's
//     products) and ADD / SUB's Kz, Rz = x + y or x + (zero rep. - y) (lin_en_i: only in an ADD / SUB,
//     half a at t = 0, half b at t = 1, so also the two halves share them).
//   kza_s (mod m_a), kzb_s (mod m_b): mkz's Ku + Rv (at T4), opa_sel 5 (Ku_a + Rv_a at T4 - 3) and the
//     Compress tail's write-back (wk_i, wr_i at c = 4, 5; K's, then R's, so they share too).
//   fix_s (mod m_b): the K = -1 corrections (fix_u_i at T1 + 4, fix_v_i at T2 + 4; T2 - T1 =
//     min(3, n_a) >= 1), opa_sel 4's (u_b - R^u), (v_b - R^v) (at T1 and T2) and the tail's
//     Kz_b - Q_K Ma, Rz_b - Q_R Ma (wk_i, wr_i).
//   The tail's c counts from the last handoff, as the running instruction's t does (t stalls, so
//   t <= c): during wk_i / wr_i an SB is at t <= 5, before its T1 >= 15 (T4 - 3 >= 29).
// The adders take c for m = 2^W - c (s >= m iff s + c >= 2^W; m_b - 1 = ~c_b), so no m is formed.
// Only the codes the core issues are decoded: sa_i[2:0] (scratch 0-3, 6, 7, 12, 13 differ there),
// sb_i[0] (4 or 5), cidx_i 2..4, av_idx_i[1] (V in accumulator 1 or 3), opa_sel 5 reads scratch 8
// and 1 (the core's only s1, s2 for it); the others read what these name.
// Register files: per half, the K parts and the R parts of the 32 registers are two 32-word RAMs
// (g_part[0], g_part[1]), each with read ports x and y and the store port. The K RAM's x reads
// ra_i[0]'s register; the R RAM's x reads ra_i[0]'s if ra_i[0] names an R part, else ra_i[1]'s; y
// the same with ra_i[2], ra_i[3]. This serves the core's reads: ra_i[0..3] name x.K x.R y.K y.R of
// one x and one y (or are all register 0), and in the RxRy step ra_i[0] = ra_i[1], ra_i[2] = ra_i[3].
// Wipe (OP_ZEROIZE, wipe_i): register-file word ld_addr_i of both halves and constant ld_idx_i are
// written with 0 through the write ports (the files stay RAMs); the scratch, the accumulators, the
// tail and every pipeline register are cleared at once.
`default_nettype none

module pka_rns_sb_rower #(
  parameter int unsigned W        = 32,  // channel width, 16 or 32
  parameter int unsigned MaxN     = 9,   // largest n_b (constant table size)
  parameter int unsigned AccExtra = 7
) (
  input  logic                       clk_i,
  // register file reads (products): half, x.K x.R y.K y.R addresses {reg, part} (RxRy: x.R x.R y.R y.R)
  input  logic                       rhalf_i,
  input  logic [5:0]                 ra_i [4],
  // multiplier operands
  input  logic [2:0]                 opa_sel_i,   // 0 RF[ra0], 1 RF[ra0]+RF[ra1], 2 scratch, 3 bus, 4 (s1 - s2) mod mb, 5 (s8 + s1) mod ma
  input  logic [1:0]                 opb_sel_i,   // 0 RF[ra2], 1 RF[ra2]+RF[ra3], 2 constant, 3 column
  input  logic [3:0]                 sa_i,        // scratch index (opa 2: 0, 1, 6, 7, 12, 13) / s1 (opa 4: 2, 3)
  input  logic [3:0]                 sb_i,        // s2 (opa 4: 4, 5)
  input  logic [2:0]                 cidx_i,      // constant index (2, 3, 4)
  input  logic [$clog2(2*MaxN)-1:0]  col_i,
  input  logic [W-1:0]               bus_i,
  // accumulators: port U and port V, each: enable, index, clear, init with Vinit, subtract, double
  input  logic                       au_en_i, au_clr_i, au_dbl_i, au_corr_i,
  input  logic [1:0]                 au_idx_i,
  input  logic                       av_en_i, av_clr_i, av_sub_i,
  input  logic [1:0]                 av_idx_i,    // 1 (a) or 3 (b)
  input  logic                       corr_en_i,   // Cox carry aligned with the product
  input  logic                       corr_sel_i,  // 0 |-Ma|_mb (BE a->b), 1 |-Mb|_ma (BE b->a)
  // reduction: source (0 none, 1 acc[idx], 2 prod), modulus half (0 a, 1 b); write scratch
  input  logic [1:0]                 red_src_i,
  input  logic [1:0]                 red_idx_i,
  input  logic                       red_half_i,
  input  logic                       sc_we_i,
  input  logic [3:0]                 sc_wi_i,
  // special steps
  input  logic                       fix_u_i,     // K_u = -1: K_u := 0, R_u := R_u - Ma on b
  input  logic                       fix_v_i,
  input  logic                       mkz_i,       // Kz = Ku + Rv, Rz = 2Kv + Ru (both halves)
  input  logic                       lin_en_i,    // ADD/SUB: Kz, Rz (half rhalf) = x +- y (+ zero rep.)
  input  logic                       lin_sub_i,
  // Compress tail
  input  logic                       tcopy_i,     // handoff: tail Kz, Rz := scratch Kz, Rz
  input  logic                       txk_we_i,    // tail xi of Kz_a := reducer output
  input  logic                       txr_we_i,    // tail xi of Rz_a := reducer output
  input  logic                       qm_en_i,     // qm := |Q Ma|_mb, Q = qsel ? Q_R : Q_K
  input  logic                       qm_sel_i,
  input  logic                       wk_i,        // RF[d.K] := Kz + Q_R (a), Kz - Q_K Ma + Q_R (b)
  input  logic                       wr_i,        // RF[d.R] := Rz + 2Q_K (a), Rz - Q_R Ma + 2Q_K (b)
  input  logic [5:0]                 qk_i, qr_i,
  input  logic [4:0]                 wd_i,
  // loading and storing
  input  logic                       ld_rf_i,
  input  logic                       ld_half_i,
  input  logic [5:0]                 ld_addr_i,
  input  logic                       ld_cst_i,
  input  logic [$clog2(12+2*MaxN)-1:0] ld_idx_i,
  input  logic [W-1:0]               ld_data_i,
  input  logic                       wipe_i,      // OP_ZEROIZE: RF[ld_addr], constant[ld_idx], all the rest := 0
  input  logic                       st_half_i,
  input  logic [5:0]                 st_addr_i,
  output logic [W-1:0]               st_data_o,
  output logic [W-1:0]               xiu_o,
  output logic [W-1:0]               xiv_o,
  output logic [13:0]                txk_o,       // {top 8, low 6} bits of the tail's xi(Kz_a), xi(Rz_a)
  output logic [13:0]                txr_o,
  output logic                       kbu_m1_o,    // K_u on b == m_b - 1 (i.e. -1)
  output logic                       kbv_m1_o,
  output logic [W-1:0]               c_a_o,
  output logic [W-1:0]               c_b_o
);
  localparam int unsigned AccW  = 2 * W + AccExtra;
  localparam int unsigned CBits = (W == 16) ? 8 : 10;
  localparam int unsigned R1W   = (W == 16) ? 23 : 50;
  localparam int unsigned ColN  = 2 * MaxN;

  // scratch indices (pka_rns_sb)
  // 2: u_b, 3: v_b (addressed by the core through sa/sb)
  localparam int unsigned SUa = 0, SVa = 1, SRu = 4, SRv = 5, SKbu = 6, SKbv = 7,
                          SKau = 8, SKav = 9, SXu = 10, SXv = 11, SKza = 12, SRza = 13, SKzb = 14,
                          SRzb = 15;
  localparam int unsigned NSc = 16;

  initial if (W != 16 && W != 32) $fatal(1, "W must be 16 or 32");

  logic [W-1:0] cst_q  [12];
  logic [W-1:0] col_q  [ColN];
  logic [W-1:0] sc_q   [NSc];

  logic [W-1:0] ca, cb;   // m_a = 2^W - c_a, m_b = 2^W - c_b
  assign ca = cst_q[0];
  assign cb = cst_q[1];
  assign c_a_o = ca;
  assign c_b_o = cb;

  // modular add, double and subtract for m = 2^W - c, given c: s >= m iff s + c >= 2^W, and then
  // s - m = (s + c) mod 2^W; a - b + m = a - b - c (mod 2^W). One carry chain for the sum or the
  // difference, one for the correction, one W-bit select each.
  function automatic logic [W-1:0] mred(logic [W:0] s, logic [W-1:0] c);   // s mod m for s < 2m
    logic [W+1:0] d;
    d = {1'b0, s} + {2'b0, c};
    return (d[W+1:W] != 2'b00) ? W'(d) : W'(s);
  endfunction
  function automatic logic [W-1:0] madd(logic [W-1:0] a, logic [W-1:0] b, logic [W-1:0] c);
    return mred({1'b0, a} + {1'b0, b}, c);
  endfunction
  function automatic logic [W-1:0] mdbl(logic [W-1:0] a, logic [W-1:0] c);
    return mred({a, 1'b0}, c);
  endfunction
  function automatic logic [W-1:0] msub(logic [W-1:0] a, logic [W-1:0] b, logic [W-1:0] c);
    logic [W:0] d;
    d = {1'b0, a} - {1'b0, b};
    return d[W] ? W'(d) - c : W'(d);
  endfunction

  // ---- operands ---------------------------------------------------------------------------------
  // register files: per half, the K parts and the R parts of the 32 registers in two RAMs (g_part[0],
  // g_part[1]), each read at x (ra0, or ra1 for R) and y (ra2, or ra3 for R) and at the store address
  logic [W-1:0] rx_a [2], rx_b [2], ry_a [2], ry_b [2], rs_a [2], rs_b [2];
  logic [W-1:0] rd [4];
  logic [W-1:0] ch;   // c of the half rhalf_i
  logic [3:0]   rz;   // register 0 reads as zero
  always_comb begin
    for (int i = 0; i < 4; i++) rz[i] = (ra_i[i][5:1] == '0);
    rd[0] = rz[0] ? '0 : rhalf_i ? rx_b[ra_i[0][0]] : rx_a[ra_i[0][0]];
    rd[1] = rz[1] ? '0 : rhalf_i ? rx_b[1] : rx_a[1];
    rd[2] = rz[2] ? '0 : rhalf_i ? ry_b[ra_i[2][0]] : ry_a[ra_i[2][0]];
    rd[3] = rz[3] ? '0 : rhalf_i ? ry_b[1] : ry_a[1];
    ch = rhalf_i ? cb : ca;
  end

  // scratch read for opa 2 and opa 4's s1: the core's indices 0-3, 6, 7, 12, 13 differ in bits [2:0]
  logic [W-1:0] sc_rd;
  always_comb begin
    unique case (sa_i[2:0])
      3'd0: sc_rd = sc_q[0];
      3'd1: sc_rd = sc_q[1];
      3'd2: sc_rd = sc_q[2];
      3'd3: sc_rd = sc_q[3];
      3'd4: sc_rd = sc_q[12];
      3'd5: sc_rd = sc_q[13];
      3'd6: sc_rd = sc_q[6];
      default: sc_rd = sc_q[7];
    endcase
  end
  // ---- shared modular adders (header: which steps use each, and why never in one cycle) --------
  logic [W-1:0] tka_q, tra_q, tkb_q, trb_q, qm_q;   // Compress tail (below)
  logic [W-1:0] tq;       // tail: Q_R (d.K, wk_i) or 2 Q_K (d.R, wr_i)
  logic         tw, fix_uv;
  logic [W-1:0] lin_k, lin_r, sum_x, sum_y, kza_s, rza_s, kzb_s, rzb_s, fix_s;
  assign tw     = wk_i || wr_i;
  assign tq     = wk_i ? W'(qr_i) : W'({qk_i, 1'b0});
  assign fix_uv = fix_u_i || fix_v_i;
  // ADD / SUB on half rhalf: Kz = x.K + y.K or x.K + (zero rep. - y.K), the same for R
  assign lin_k = lin_sub_i ? msub(rhalf_i ? cst_q[10] : cst_q[8], rd[2], ch) : rd[2];
  assign lin_r = lin_sub_i ? msub(rhalf_i ? cst_q[11] : cst_q[9], rd[3], ch) : rd[3];
  // opa 1 / opb 1 (Kx + Rx, Ky + Ry) or ADD / SUB's Kz, Rz
  assign sum_x = madd(rd[0], lin_en_i ? lin_k : rd[1], ch);
  assign sum_y = madd(lin_en_i ? rd[1] : rd[2], lin_en_i ? lin_r : rd[3], ch);
  // mkz (and opa 5: Kz_a): Kz = Ku + Rv, Rz = 2Kv + Ru (Ru = U, Rv = V on a); tail: d.K := Kz + Q_R
  // (a), Kz - Q_K Ma + Q_R (b), d.R := Rz + 2Q_K (a), Rz - Q_R Ma + 2Q_K (b)
  assign kza_s = madd(tw ? (wk_i ? tka_q : tra_q) : sc_q[SKau], tw ? tq : sc_q[SVa], ca);
  assign rza_s = madd(mdbl(sc_q[SKav], ca), sc_q[SUa], ca);
  assign kzb_s = madd(tw ? fix_s : sc_q[SKbu], tw ? tq : sc_q[SRv], cb);
  assign rzb_s = madd(mdbl(sc_q[SKbv], cb), sc_q[SRu], cb);
  // K = -1 correction (R := R - Ma on b), opa 4 (u_b - R^u, v_b - R^v) or the tail's Kz_b - Q_K Ma,
  // Rz_b - Q_R Ma
  assign fix_s = msub(tw ? (wk_i ? tkb_q : trb_q) : fix_uv ? (fix_u_i ? sc_q[SRu] : sc_q[SRv]) : sc_rd,
                       tw ? qm_q : fix_uv ? cst_q[5] : sc_q[{3'b010, sb_i[0]}], cb);

  logic [W-1:0] opa_q, opa_d, opb_q, opb_d, r2_q, r2_d;
  logic [2*W-1:0] prod_q;
  always_comb begin
    unique case (opa_sel_i)
      3'd0: opa_d = rd[0];
      3'd1: opa_d = sum_x;
      3'd2: opa_d = sc_rd;
      3'd3: opa_d = bus_i;
      3'd4: opa_d = fix_s;
      3'd5: opa_d = kza_s;
      default: opa_d = '0;
    endcase
    unique case (opb_sel_i)
      2'd0: opb_d = rd[2];
      2'd1: opb_d = sum_y;
      2'd2: opb_d = cidx_i[2] ? cst_q[4] : cidx_i[0] ? cst_q[3] : cst_q[2];
      default: opb_d = col_q[col_i];
    endcase
  end

  // ---- accumulators -----------------------------------------------------------------------------
  // V starts from 4 m 2^W (> 2 (2^W)^2 >= P1 + P2), a multiple of the product's half modulus
  logic [AccW-1:0] acc_q [4];
  logic [W-1:0] ch_q, ch_q2;   // c of the product's half, aligned with it (two cycles after issue)

  // port V: acc +- P in one carry chain (subtract: + ~P with a carry in through the extra low bit)
  logic [AccW:0] av_sum;
  assign av_sum = {(av_clr_i ? (AccW'(W'(-ch_q2)) << (W + 2)) : acc_q[{av_idx_i[1], 1'b1}]), 1'b1}
                  + {AccW'(prod_q) ^ {AccW{av_sub_i}}, av_sub_i};
  logic [AccW-1:0] corr;
  assign corr = corr_en_i ? AccW'(corr_sel_i ? cst_q[7] : cst_q[6]) : '0;

  // ---- reduction ------------------------------------------------------------------------------------
  logic [W-1:0] c_red, c1_q;
  logic [R1W-1:0] r1_q, r1_d;
  logic [AccW-1:0] red_x;
  assign c_red = red_half_i ? cst_q[1] : cst_q[0];
  assign red_x = (red_src_i == 2'd2) ? AccW'(prod_q) : acc_q[red_idx_i];

  if (W == 16) begin : g_red16
    logic [29:0] f1;
    logic [16:0] f3;
    assign f1   = 30'(red_x[AccW-1:16]) * 30'(c_red[CBits-1:0]) + 30'(red_x[15:0]);
    assign r1_d = 23'(f1[29:16]) * 23'(c_red[CBits-1:0]) + 23'(f1[15:0]);
    assign f3   = 17'(r1_q[22:16]) * 17'(c1_q[CBits-1:0]) + 17'(r1_q[15:0]);
    assign r2_d = (f3 >= 17'h10000 - 17'(c1_q)) ? 16'(f3 - (17'h10000 - 17'(c1_q))) : f3[15:0];
  end else begin : g_red32
    logic [32:0] f2;
    assign r1_d = 50'(red_x[AccW-1:32]) * 50'(c_red[CBits-1:0]) + 50'(red_x[31:0]);
    assign f2   = 33'(r1_q[49:32]) * 33'(c1_q[CBits-1:0]) + 33'(r1_q[31:0]);
    assign r2_d = (f2 >= 33'h1_0000_0000 - 33'(c1_q)) ? 32'(f2 - (33'h1_0000_0000 - 33'(c1_q))) : f2[31:0];
  end

  // ---- outputs of Split and Compress ------------------------------------------------------------
  assign kbu_m1_o = (sc_q[SKbu] == ~cb) && (cb != '0);   // == m_b - 1 (= ~c_b when c_b > 0)
  assign kbv_m1_o = (sc_q[SKbv] == ~cb) && (cb != '0);
  assign xiu_o = sc_q[SXu];
  assign xiv_o = sc_q[SXv];

  // ---- Compress tail ----------------------------------------------------------------------------
  logic [W-1:0] qm_d;
  logic [13:0]  txk_q, txr_q, tx_d;
  assign tx_d  = {r2_d[W-1 -: 8], r2_d[5:0]};
  assign txk_o = txk_q;
  assign txr_o = txr_q;

  // |Q Ma|_mb: Q Ma < 2^(W+6); one fold H c + L < 2^W + 2^(6+CBits) < 2 m_b; one subtraction.
  // Q has 6 bits: shift-and-add (LUTs), so the tail adds no DSP block to the rower.
  function automatic logic [W+5:0] mul6(logic [5:0] q, logic [W-1:0] x);
    logic [W+5:0] acc;
    acc = '0;
    for (int k = 0; k < 6; k++) if (q[k]) acc = acc + ((W+6)'(x) << k);
    return acc;
  endfunction
  logic [5:0]    qsel;
  logic [W+5:0]  qma, qhc;
  logic [W:0]    qf;
  assign qsel = qm_sel_i ? qr_i : qk_i;
  assign qma  = mul6(qsel, cst_q[5]);
  assign qhc  = mul6(qma[W+5:W], W'(cst_q[1][CBits-1:0]));
  assign qf   = (W+1)'(qhc[CBits+5:0]) + (W+1)'(qma[W-1:0]);
  assign qm_d = mred(qf, cb);


  // one write port per half (loads, then the SB's K and R results), so the files map to LUT RAM;
  // the tail's results come from kza_s (a) and kzb_s (b)
  logic         wa_en, wb_en;
  logic [5:0]   wa_addr, wb_addr;
  logic [W-1:0] wa_data, wb_data;
  always_comb begin
    wa_en = 1'b0; wa_addr = ld_addr_i; wa_data = ld_data_i;
    wb_en = 1'b0; wb_addr = ld_addr_i; wb_data = ld_data_i;
    if (wipe_i) begin
      wa_en = 1'b1; wa_data = '0;
      wb_en = 1'b1; wb_data = '0;
    end else if (ld_rf_i) begin
      wa_en = !ld_half_i;
      wb_en = ld_half_i;
    end else if (wk_i || wr_i) begin
      wa_en = 1'b1; wa_addr = {wd_i, !wk_i}; wa_data = kza_s;
      wb_en = 1'b1; wb_addr = {wd_i, !wk_i}; wb_data = kzb_s;
    end
  end

  always_ff @(posedge clk_i) begin
    opa_q  <= opa_d;
    opb_q  <= opb_d;
    prod_q <= opa_q * opb_q;
    ch_q   <= ch;
    ch_q2  <= ch_q;
    r1_q   <= r1_d;
    c1_q   <= c_red;
    r2_q   <= r2_d;
    // accumulator port U
    if (au_en_i)
      acc_q[au_idx_i] <= (au_clr_i ? '0 : acc_q[au_idx_i])
                         + (au_dbl_i ? AccW'(prod_q) << 1 : AccW'(prod_q)) + (au_corr_i ? corr : '0);
    // accumulator port V (Karatsuba's V: from 4 m 2^W, minus P1 and P2, plus P3)
    if (av_en_i)
      acc_q[{av_idx_i[1], 1'b1}] <= av_sum[AccW:1];
    if (sc_we_i) sc_q[sc_wi_i] <= r2_d;
    if (fix_u_i) begin sc_q[SKbu] <= '0; sc_q[SRu] <= fix_s; end
    if (fix_v_i) begin sc_q[SKbv] <= '0; sc_q[SRv] <= fix_s; end
    if (mkz_i) begin
      sc_q[SKza] <= kza_s;
      sc_q[SRza] <= rza_s;
      sc_q[SKzb] <= kzb_s;
      sc_q[SRzb] <= rzb_s;
    end
    if (tcopy_i) begin
      tka_q <= sc_q[SKza];
      tra_q <= sc_q[SRza];
      tkb_q <= sc_q[SKzb];
      trb_q <= sc_q[SRzb];
    end
    if (txk_we_i) txk_q <= tx_d;
    if (txr_we_i) txr_q <= tx_d;
    if (qm_en_i) qm_q <= qm_d;
    if (lin_en_i && !rhalf_i) begin sc_q[SKza] <= sum_x; sc_q[SRza] <= sum_y; end
    if (lin_en_i && rhalf_i) begin sc_q[SKzb] <= sum_x; sc_q[SRzb] <= sum_y; end
    if (ld_cst_i || wipe_i) begin
      if (32'(ld_idx_i) < 12) cst_q[4'(ld_idx_i)] <= wipe_i ? '0 : ld_data_i;
      else if (32'(ld_idx_i) < 12 + ColN) col_q[32'(ld_idx_i) - 12] <= wipe_i ? '0 : ld_data_i;
    end
    if (wipe_i) begin   // last: overrides every update above
      opa_q  <= '0;
      opb_q  <= '0;
      prod_q <= '0;
      ch_q   <= '0;
      ch_q2  <= '0;
      r1_q   <= '0;
      c1_q   <= '0;
      r2_q   <= '0;
      for (int i = 0; i < 4; i++) acc_q[i] <= '0;
      for (int i = 0; i < NSc; i++) sc_q[i] <= '0;
      tka_q <= '0; tra_q <= '0; tkb_q <= '0; trb_q <= '0;
      txk_q <= '0; txr_q <= '0; qm_q <= '0;
    end
  end

  logic [4:0] wa_reg, wb_reg, st_reg;
  assign wa_reg = wa_addr[5:1];
  assign wb_reg = wb_addr[5:1];
  assign st_reg = st_addr_i[5:1];
  for (genvar p = 0; p < 2; p++) begin : g_part   // 0: K parts, 1: R parts
    logic [W-1:0] rf_a_q [32];
    logic [W-1:0] rf_b_q [32];
    logic [4:0]   ax, ay;
    // R: ra1 (ra3) unless ra0 (ra2) names an R part itself (the core's RxRy step, where ra1 = ra0)
    assign ax = (p == 0 || ra_i[0][0]) ? ra_i[0][5:1] : ra_i[1][5:1];
    assign ay = (p == 0 || ra_i[2][0]) ? ra_i[2][5:1] : ra_i[3][5:1];
    assign rx_a[p] = rf_a_q[ax];
    assign rx_b[p] = rf_b_q[ax];
    assign ry_a[p] = rf_a_q[ay];
    assign ry_b[p] = rf_b_q[ay];
    assign rs_a[p] = rf_a_q[st_reg];
    assign rs_b[p] = rf_b_q[st_reg];
    always_ff @(posedge clk_i) begin
      if (wa_en && wa_addr[0] == 1'(p)) rf_a_q[wa_reg] <= wa_data;
      if (wb_en && wb_addr[0] == 1'(p)) rf_b_q[wb_reg] <= wb_data;
    end
  end
  assign st_data_o = st_half_i ? rs_b[st_addr_i[0]] : rs_a[st_addr_i[0]];

  logic unused;
  assign unused = ^{ra_i[1][0], ra_i[3][0], sa_i[3], sb_i[3:1], cidx_i[1], av_idx_i[0], av_sum[0], c_red[W-1:CBits], c1_q[W-1:CBits], r2_q, qhc[W+5:CBits+6]};
endmodule
