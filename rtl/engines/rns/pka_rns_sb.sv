// SPDX-License-Identifier: Apache-2.0
// pka_rns_sb: the SBMM build of the rns engine: Single Base Modular Multiplication for
// P = Ma^2 - 2 on n_b = n_a + 1 rowers (half of MM's 2n channels) plus the m_gamma = 2^6 channel.
//
// len = 2 n_a W bits exactly (P = Ma^2 - 2); a register holds x == K Ma + R (mod P), K and R as
// residues on a (rower j < n_a), b (rower j < n_b) and gamma. One instruction SB d, (x, y):
// d = Compress(SBMM(x*y)) (pka.model.rns.sbmm, compress), results K, R < 3 Ma. Schedule (t from the
// SB's first cycle; T1 = max(11 + 2n_a, 14 + n_a), T2 = 14 + 2n_a, T3 = T1 + 9, T4 = T3 + 4 + 2n_b;
// = pka.model.rns.sb_times):
//   t 0..5     Karatsuba products, a then b: KxKy, RxRy, (Kx+Rx)(Ky+Ry) -> U, V accumulators
//   6, 7       xi_a = u_a |Ma_j^-1|, v_a |Ma_j^-1|
//   10..       BE a -> b|gamma of U then V (2 n_a broadcast steps, Cox alpha = 0) -> R^u, R^v
//   T1, T2     K_b = (u_b - R^u) Ma^-1, (v_b - R^v) Ma^-1;  T1+4, T2+4: K = -1 correction
//   T1+5, T2+5 xi_b = K_b |Mb_j^-1|;  T3..: BE b -> a of K_u then K_v (2 n_b steps, alpha = 1/2)
//   T4-3       Compress's xi of Kz_a = Ku_a + Rv_a (a free multiplier slot), into the tail at T4
//   T4         Kz = Ku + Rv, Rz = 2Kv + Ru (SBMM done: T4 + 1 cycles)
//   T4+1       Compress's xi of Rz_a; handoff: Kz, Rz copied to the Compress tail, next instruction
// SB of K = 1..3 pairs (sum of products): the products take 6K cycles and every later event is
// delayed by D = 6(K-1). The SB holds the sequencer T4 + 2 (+ D) cycles. ADD / SUB d, x, y:
// Kz, Rz = x + y (or x - y + (3Ma - 3, 3Ma - 6), a representation of 3P) on a (t = 0, and gamma)
// and b (t = 1); xi of Kz_a, Rz_a at t = 1, 2; handoff at t = 2: 3 cycles.
// Compress tail (c from the cycle after the handoff; 6 cycles, beside the next instruction):
//   c 0, 1     (ADD/SUB: xi(Kz_a) reduced, into the tail at c = 1) xi(Rz_a) reduced, in at c = 2
//   c 2        gamma: R_K = BE(Kz_a, a -> gamma) in one cycle (n_a GMMs, Cox sum), Q_K (63 -> 0)
//   c 3        rowers: |Q_K Ma|_mb (6 x W shift-and-add); gamma: R_R, Q_R
//   c 4        d.K := Kz - Q_K Ma + Q_R written (a: Kz + Q_R);  |Q_R Ma|_mb
//   c 5        d.R := Rz - Q_R Ma + 2 Q_K written
// Issue rule (= pka.model.rns.SbTiming): an SB / ADD / SUB waits at t = 0 while the tail is busy
// and either writes a register it reads or would still run after its handoff. So an SB after an
// independent instruction starts at once (T4 + 2 cycles per SB), a dependent one 6 cycles later
// (T4 + 8: 58 cycles at n_a = 6, 66 at n_a = 8). LOOP / ENDLOOP / IFBIT / MAP / UNMAP 1 cycle;
// HALT waits for the tail. Ops: MODMUL (SB RES = A*B), MODEXP (left-to-right from 1), ECC_MUL (the
// (X,Z) ladder of pka.model.rns.PROGRAMS["sb_ecc"]); others ST_ERR_OPCODE. Slots (host step, doc/rns.md):
//   SLOT_N word 0 (parity); SLOT_X0: per rower j, 12 + n_a + n_b constants, then the gamma block
//   (5 + n_a words); SLOT_A, SLOT_B, SLOT_X1 (ONE, a, 2b, -4b): register images of
//   2(n_a + n_b + 1) words [K_a, K_b, K_gamma, R_a, R_b, R_gamma]; SLOT_E scalar/exponent;
//   SLOT_X2 Fermat exponent P - 2; result images RES in SLOT_R, RES_HI in SLOT_R_HI.
// MODEXP_CT: Montgomery's powering ladder of exactly elen steps (program sb_modexp_ct).
// OP_ZEROIZE (the wipe, pka_pkg): WipeCyc = max(64, 12 + 2 n_b) cycles, no port access: each cycle
// register-file word t (of 64: K and R of 32 registers) of every rower and of the gamma channel and
// constant word t of every rower are written with 0; the scratch, accumulators, tails, pipelines,
// the gamma constants, the scalar, the exponent, the ladder map and the Cox are cleared. ST_OK,
// cycles = WipeCyc, io_cycles = 0 (pka.model.rns.sb_wipe_cycles).
// Errors: len not a multiple of 2W or above MaxLen, elen > MaxLen, ECC with elen = 0 ->
// ST_ERR_LENGTH; even modulus -> ST_ERR_EVEN_MODULUS; a residue >= its modulus or an ECC scalar 0
// -> ST_ERR_OPERAND_RANGE; ECC_MUL with ARG[1] (random projective Z, MM build only) ->
// ST_ERR_UNSUPPORTED. ARG[0] is ignored (the ladder is x-only) and ELEN stays <= MaxLen.
`default_nettype none

module pka_rns_sb
  import pka_pkg::*;
#(
  parameter int unsigned MaxLen    = 192,  // 2 n_a W for the largest n_a
  parameter int unsigned MemAw     = 14,
  parameter int unsigned W         = 16,
  parameter int unsigned NumRowers = MaxLen / (2 * W) + 1,   // n_b
  parameter int unsigned CoxQ      = 8
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  eng_h2d_t eng_i,   // command, memory response (pka_pkg)
  output eng_d2h_t eng_o    // command ready, memory request, result
);

  // ---- the common boundary (pka_pkg::eng_h2d_t in, eng_d2h_t out) ------------------------------
  logic             cmd_ready, mem_req, mem_we, done;
  logic [MemAw-1:0] mem_addr;
  logic [31:0]      mem_wdata, cycles, io_cycles;
  logic [7:0]       status;
  assign eng_o = '{cmd_ready: cmd_ready,
                   mem: '{req: mem_req, we: mem_we, addr: MemAwMax'(mem_addr), wdata: mem_wdata},
                   res: '{done: done, status: status, cycles: cycles, io_cycles: io_cycles}};

  localparam int unsigned NB       = NumRowers;
  localparam int unsigned NAMax    = NumRowers - 1;
  localparam int unsigned SlotW    = 1 << (MemAw - 4);
  localparam int unsigned AccExtra = (W == 16) ? 5 : 7;
  localparam int unsigned NW       = $clog2(2 * NB + 2);
  localparam int unsigned IdxW     = $clog2(12 + 2 * NB);
  localparam int unsigned GIdxW    = $clog2(NAMax + 5);
  localparam int unsigned ColW     = $clog2(2 * NB);
  localparam int unsigned LenW     = $clog2(MaxLen + 1);
  localparam int unsigned EWords   = (MaxLen + 31) / 32;
  localparam int unsigned BitW     = $clog2(EWords * 32);
  localparam int unsigned CntW     = 16;
  localparam int unsigned PcW      = 9;
  localparam int unsigned WipeCyc  = (12 + 2 * NB > 64) ? 12 + 2 * NB : 64;

  initial begin
    if (W != 16 && W != 32) $fatal(1, "W must be 16 or 32");
    if (MaxLen % (2 * W) != 0 || NumRowers < 2) $fatal(1, "MaxLen must be a positive multiple of 2W");
    if (NB * (12 + 2 * NB) + NB + 5 > SlotW) $fatal(1, "MemAw too small for the constant table");
  end

  localparam logic [4:0] RegInA = 5'd5, RegInB = 5'd6, RegOne = 5'd8, RegRes = 5'd13, RegResHi = 5'd14;

  typedef enum logic [3:0] {
    UHalt = 4'd0, UAdd = 4'd2, USub = 4'd3, ULoop = 4'd4, UEndLoop = 4'd5, UIfBit = 4'd6, UMap = 4'd7,
    UUnmap = 4'd8, USb = 4'd9
  } uop_e;
  typedef enum logic [2:0] {Idle, Load, Exec, Store, Done, Wipe} state_e;
  state_e state_q, state_d;

  logic [7:0]      op_q, op_d;
  logic [LenW-1:0] elen_q, elen_d, len_q, len_d;
  logic [NW-1:0]   na_q, na_d, nb_q, nb_d;
  logic [7:0]      status_q, status_d;
  logic [31:0]     cyc_q, cyc_d, io_q, io_d;
  logic [PcW-1:0]  entry, pc_q, pc_d;
  logic            entry_valid;
  logic [63:0]     uword;

  // the exact-length check (slot counter) is the MM build's (pka_rns_core); unused here
  logic [9:0] sb_slots_a;
  logic [5:0] sb_slots_e, sb_slots_l;
  logic       sb_checked;

  pka_rns_ucode u_ucode (
    .addr_i (pc_q),
    .data_o (uword),
    .op_i   (eng_i.cmd.op),
    .xonly_i(1'b0),
    .rz_i   (1'b0),
    .mont_i (1'b0),
    .sb_i   (1'b1),
    .entry_o(entry),
    .valid_o(entry_valid),
    .slots_a_o(sb_slots_a),
    .slots_e_o(sb_slots_e),
    .slots_l_o(sb_slots_l),
    .checked_o(sb_checked)
  );
  logic [15:0] na_cmd;
  assign na_cmd = eng_i.cmd.len / 16'(2 * W);

  // ---- load / store -----------------------------------------------------------------------------
  // phases: 0 N word, 1 constants (rowers, then gamma), 2 IN_A, 3 IN_B, 4 X1 (4 images), 5 scalar,
  // 6 Fermat exponent, 7 done
  logic [2:0]      ph_q, ph_d;
  logic [CntW-1:0] req_q, req_d, rsp_q, rsp_d, cnt;
  logic [NW-1:0]   rj_q, rj_d;       // rower (constants) or channel index within a part (images)
  logic [IdxW-1:0] rt_q, rt_d;       // constant index
  logic            rp_q, rp_d;       // image part: 0 K, 1 R
  logic            rg_q, rg_d;       // constants: gamma block
  logic [EWords*32-1:0] scal_q, scal_d, expo_q, expo_d;
  logic [1:0]      rr_q, rr_d;       // image number within SLOT_X1 / store: RES, RES_HI
  logic            err_q, err_d;

  logic [CntW-1:0] cw, img;
  assign cw  = CntW'(12) + CntW'(na_q) + CntW'(nb_q);
  assign img = (CntW'(na_q) + CntW'(nb_q) + 1) << 1;

  always_comb begin
    unique case (ph_q)
      3'd0: cnt = CntW'(1);
      3'd1: cnt = CntW'(nb_q) * cw + CntW'(na_q) + 5;
      3'd2, 3'd3: cnt = img;
      3'd4: cnt = img << 2;
      3'd5: cnt = CntW'((32'(elen_q) + 31) / 32);
      3'd6: cnt = CntW'((32'(len_q) + 31) / 32);
      default: cnt = '0;
    endcase
  end

  function automatic logic [MemAw-1:0] slot_addr(int unsigned slot, logic [MemAw-1:0] w);
    return MemAw'(slot * SlotW) + w;
  endfunction

  logic [MemAw-1:0] ld_addr;
  always_comb begin
    unique case (ph_q)
      3'd0: ld_addr = slot_addr(SLOT_N, MemAw'(req_q));
      3'd1: ld_addr = slot_addr(SLOT_X0, MemAw'(req_q));
      3'd2: ld_addr = slot_addr(SLOT_A, MemAw'(req_q));
      3'd3: ld_addr = slot_addr(SLOT_B, MemAw'(req_q));
      3'd4: ld_addr = slot_addr(SLOT_X1, MemAw'(req_q));
      3'd5: ld_addr = slot_addr(SLOT_E, MemAw'(req_q));
      default: ld_addr = slot_addr(SLOT_X2, MemAw'(req_q));
    endcase
  end

  // ---- datapath --------------------------------------------------------------------------------------
  logic            rhalf;
  logic [5:0]      ra [4];
  logic [2:0]      opa_sel;
  logic [1:0]      opb_sel;
  logic [3:0]      sa, sb2;
  logic [2:0]      cidx;
  logic [ColW-1:0] col;
  logic [W-1:0]    bus;
  logic            au_en, au_clr, au_dbl, au_corr, av_en, av_clr, av_sub;
  logic [1:0]      au_idx, av_idx, red_src, red_idx;
  logic            red_half, sc_we, fix_u, fix_v, mkz, wk, wr, lin_en, lin_sub;
  logic [3:0]      sc_wi;
  logic            ld_rf, ld_half, ld_cst, wipe;
  logic [5:0]      ld_addr6;
  logic [IdxW-1:0] ld_idx;
  logic [W-1:0]    ld_data;
  logic [NB-1:0]   ld_sel;
  logic            st_half;
  logic [5:0]      st_addr;
  logic [W-1:0]    st_data [NB];
  logic [W-1:0]    xiu [NB];
  logic [W-1:0]    xiv [NB];
  logic [NB-1:0]   kbu_m1, kbv_m1;
  logic [13:0]     txk [NB];
  logic [13:0]     txr [NB];
  // Compress tail: busy, cycle c, destination register, started by an ADD/SUB
  logic            tb_q, tb_d, tlin_q, tlin_d;
  logic [2:0]      tc_q, tc_d;
  logic [4:0]      td_q, td_d;
  logic            tcopy, txk_we, txr_we, qm_en, qm_sel, g_mkqk, g_mkqr;
  logic [W-1:0]    c_a [NB];
  logic [W-1:0]    c_b [NB];
  logic [5:0]      qk, qr;
  logic            k1_q, k1_d, k2_q;
  logic            red_half_be;        // accumulator correction: 0 BE a -> b, 1 BE b -> a
  logic            cox_clr, cox_half, cox_en, cox_k;

  for (genvar j = 0; j < NB; j++) begin : g_rower
    pka_rns_sb_rower #(
      .W       (W),
      .MaxN    (NB),
      .AccExtra(AccExtra)
    ) u_rower (
      .clk_i     (clk_i),
      .rhalf_i   (rhalf),
      .ra_i      (ra),
      .opa_sel_i (opa_sel),
      .opb_sel_i (opb_sel),
      .sa_i      (sa),
      .sb_i      (sb2),
      .cidx_i    (cidx),
      .col_i     (col),
      .bus_i     (bus),
      .au_en_i   (au_en),
      .au_clr_i  (au_clr),
      .au_dbl_i  (au_dbl),
      .au_corr_i (au_corr),
      .au_idx_i  (au_idx),
      .av_en_i   (av_en),
      .av_clr_i  (av_clr),
      .av_sub_i  (av_sub),
      .av_idx_i  (av_idx),
      .corr_en_i (k2_q),
      .corr_sel_i(red_half_be),
      .red_src_i (red_src),
      .red_idx_i (red_idx),
      .red_half_i(red_half),
      .sc_we_i   (sc_we),
      .sc_wi_i   (sc_wi),
      .fix_u_i   (fix_u),
      .fix_v_i   (fix_v),
      .mkz_i     (mkz),
      .lin_en_i  (lin_en),
      .lin_sub_i (lin_sub),
      .tcopy_i   (tcopy),
      .txk_we_i  (txk_we),
      .txr_we_i  (txr_we),
      .qm_en_i   (qm_en),
      .qm_sel_i  (qm_sel),
      .wk_i      (wk),
      .wr_i      (wr),
      .qk_i      (qk),
      .qr_i      (qr),
      .wd_i      (td_q),
      .ld_rf_i   (ld_rf & ld_sel[j]),
      .ld_half_i (ld_half),
      .ld_addr_i (ld_addr6),
      .ld_cst_i  (ld_cst & ld_sel[j]),
      .ld_idx_i  (ld_idx),
      .ld_data_i (ld_data),
      .wipe_i    (wipe),
      .st_half_i (st_half),
      .st_addr_i (st_addr),
      .st_data_o (st_data[j]),
      .xiu_o     (xiu[j]),
      .xiv_o     (xiv[j]),
      .txk_o     (txk[j]),
      .txr_o     (txr[j]),
      .kbu_m1_o  (kbu_m1[j]),
      .kbv_m1_o  (kbv_m1[j]),
      .c_a_o     (c_a[j]),
      .c_b_o     (c_b[j])
    );
  end

  // gamma channel
  logic            g_start, g_first, g_be_en, g_be_clr, g_ku, g_kv, g_ld_rf, g_ld_cst;
  logic            g_tgt;
  logic [NAMax-1:0] g_act;
  logic [13:0]     g_txk [NAMax];
  logic [13:0]     g_txr [NAMax];
  always_comb begin
    for (int unsigned j = 0; j < NAMax; j++) begin
      g_act[j] = (NW'(j) < na_q);
      g_txk[j] = txk[j];
      g_txr[j] = txr[j];
    end
  end
  logic [$clog2(NAMax)-1:0] g_col;
  logic [GIdxW-1:0] g_ld_idx;
  logic [5:0]      g_st;
  logic            g_ku_m1, g_kv_m1;
  logic [4:0]      sx, sy;

  pka_rns_gamma #(.W(W), .MaxN(NAMax)) u_gamma (
    .clk_i    (clk_i),
    .start_i  (g_start),
    .first_i  (g_first),
    .lin_en_i (lin_en),
    .lin_sub_i(lin_sub),
    .x_i      (sx),
    .y_i      (sy),
    .be_en_i  (g_be_en),
    .be_clr_i (g_be_clr),
    .be_tgt_i (g_tgt),
    .be_col_i (g_col),
    .bus_i    (bus[5:0]),
    .k_i      (cox_k),
    .ku_i     (g_ku),
    .kv_i     (g_kv),
    .fix_u_i  (fix_u),
    .fix_v_i  (fix_v),
    .mkz_i    (mkz),
    .tcopy_i  (tcopy),
    .act_i    (g_act),
    .txk_i    (g_txk),
    .txr_i    (g_txr),
    .mkqk_i   (g_mkqk),
    .mkqr_i   (g_mkqr),
    .wk_i     (wk),
    .wr_i     (wr),
    .wd_i     (td_q),
    .ld_rf_i  (g_ld_rf),
    .ld_addr_i(ld_addr6),
    .ld_cst_i (g_ld_cst),
    .ld_idx_i (g_ld_idx),
    .ld_data_i(eng_i.mem.rdata[5:0]),
    .wipe_i   (wipe),
    .st_addr_i(st_addr),
    .st_data_o(g_st),
    .ku_m1_o  (g_ku_m1),
    .kv_m1_o  (g_kv_m1),
    .qk_o     (qk),
    .qr_o     (qr)
  );

  pka_rns_cox #(.W(W), .Q(CoxQ)) u_cox (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .clr_i (cox_clr),
    .half_i(cox_half),
    .en_i  (cox_en),
    .xi_i  (bus),
    .k_o   (cox_k)
  );

  // ---- microprogram --------------------------------------------------------------------------------
  uop_e            uop;
  logic [4:0]      ud, ua [3], ub [3];
  logic [1:0]      uk;
  logic            usrc;
  logic [PcW-1:0]  utgt;
  logic            map_q, map_d, src_q, src_d;
  assign uop  = uop_e'(uword[3:0]);
  assign uk   = uword[10:9];
  assign usrc = uword[43];
  assign utgt = uword[44 +: PcW];

  function automatic logic [4:0] map_reg(logic [4:0] r, logic m);
    return (r >= 5'd1 && r <= 5'd4) ? (((r - 5'd1) ^ {3'b000, m, 1'b0}) + 5'd1) : r;
  endfunction

  always_comb begin   // registers through the ladder map
    ud = map_reg(uword[8:4], map_q);
    for (int i = 0; i < 3; i++) begin
      ua[i] = map_reg(uword[11 + 10 * i +: 5], map_q);
      ub[i] = map_reg(uword[16 + 10 * i +: 5], map_q);
    end
  end

  logic [CntW-1:0] t_q, t_d;
  logic [LenW-1:0] idx_q, idx_d;
  logic [CntW-1:0] na_, nb_, k_, dlt, ts, t1, t2, t3, t4;
  logic            sbp, linp;
  assign sbp  = (uop == USb);
  assign linp = (uop == UAdd) || (uop == USub);
  assign na_ = CntW'(na_q);
  assign nb_ = CntW'(nb_q);
  assign k_  = CntW'(uk);
  assign dlt = sbp ? (k_ - 16'd1) * 16'd6 : '0;
  assign ts  = t_q - dlt;            // the K = 1 schedule's time (wraps high during the products)
  assign t1 = (na_ >= 16'd3) ? 16'd11 + (na_ << 1) : 16'd14 + na_;
  assign t2 = 16'd14 + (na_ << 1);
  assign t3 = t1 + 16'd9;
  assign t4 = t3 + 16'd4 + (nb_ << 1);

  // issue rule: wait at t = 0 while the busy tail writes a register read here (RAW) or would not be
  // done by this instruction's handoff (it has 6 - c cycles left; SB holds T4 + 2 + D, ADD/SUB 3)
  logic            raw, stall;
  logic [CntW-1:0] hold;
  always_comb begin
    raw = 1'b0;
    for (int unsigned i = 0; i < 3; i++)
      if (CntW'(i) < k_ && (ua[i] == td_q || ub[i] == td_q)) raw = 1'b1;
    hold = sbp ? t4 + 16'd2 + dlt : 16'd3;
    stall = tb_q && (raw || 16'd6 - CntW'(tc_q) > hold);
  end

  // product phase: issue t < 6K, a half then b half, pair p, step r (P1, P2, P3)
  logic [CntW-1:0] pt, pp, pr, qt, qp;
  logic [1:0]      qr2;
  logic            ph_b, qh_b, q_in;
  always_comb begin
    ph_b = (t_q >= 3 * k_);
    pt = ph_b ? t_q - 3 * k_ : t_q;
    pp = (pt >= 16'd6) ? 16'd2 : (pt >= 16'd3) ? 16'd1 : 16'd0;
    pr = pt - 3 * pp;
    // the product issued two cycles ago
    q_in = (t_q >= 16'd2) && (t_q < 6 * k_ + 16'd2);
    qt = t_q - 16'd2;
    qh_b = (qt >= 3 * k_);
    if (qh_b) qt = qt - 3 * k_;
    qp = (qt >= 16'd6) ? 16'd2 : (qt >= 16'd3) ? 16'd1 : 16'd0;
    qr2 = 2'(qt - 3 * qp);
  end

  // broadcast: which rower and which xi (u or v) in the current BE step
  logic            be_ab, be_ba, be_v;
  logic [CntW-1:0] be_s;
  always_comb begin
    be_ab = sbp && (ts >= 16'd10) && (ts < 16'd10 + (na_ << 1));
    be_ba = sbp && (ts >= t3) && (ts < t3 + (nb_ << 1));
    be_s = '0;
    be_v = 1'b0;
    if (be_ab) begin
      be_v = (ts >= 16'd10 + na_);
      be_s = be_v ? ts - 16'd10 - na_ : ts - 16'd10;
    end else if (be_ba) begin
      be_v = (ts >= t3 + nb_);
      be_s = be_v ? ts - t3 - nb_ : ts - t3;
    end
  end

  always_comb begin
    bus = '0;
    for (int unsigned j = 0; j < NB; j++) if (be_s == CntW'(j)) bus = be_v ? xiv[j] : xiu[j];
  end

  logic cur_bit;
  assign cur_bit = src_q ? expo_q[BitW'(idx_q)] : scal_q[BitW'(idx_q)];

  logic [NB-1:0] active_b;
  always_comb for (int unsigned j = 0; j < NB; j++) active_b[j] = (NW'(j) < nb_q);

  // load routing: image index -> (half, rower) or gamma
  logic [NB-1:0] onehot_rj, onehot_img;
  logic          img_g, img_b;
  logic [NW-1:0] img_j;
  always_comb begin
    img_g = (rj_q == na_q + nb_q);
    img_b = (rj_q >= na_q) && !img_g;
    img_j = img_b ? rj_q - na_q : rj_q;
    for (int unsigned j = 0; j < NB; j++) begin
      onehot_rj[j] = (rj_q == NW'(j));
      onehot_img[j] = !img_g && (img_j == NW'(j));
    end
  end

  logic [W-1:0] cmod;
  always_comb begin
    cmod = '0;
    for (int unsigned j = 0; j < NB; j++) if (img_j == NW'(j)) cmod = img_b ? c_b[j] : c_a[j];
  end

  logic hi_zero;
  if (W < 32) begin : g_hi
    assign hi_zero = (eng_i.mem.rdata[31:W] == '0);
  end else begin : g_nohi
    assign hi_zero = 1'b1;
  end

  assign st_half = img_b;
  assign st_addr = {rr_q[0] ? RegResHi : RegRes, rp_q};

  logic [W-1:0] st_w;
  always_comb begin
    st_w = '0;
    for (int unsigned j = 0; j < NB; j++) if (img_j == NW'(j)) st_w = st_data[j];
  end

  logic scal_zero;
  assign scal_zero = (scal_q == '0);

  always_comb begin
    state_d = state_q;
    op_d = op_q; elen_d = elen_q; len_d = len_q; na_d = na_q; nb_d = nb_q;
    status_d = status_q; cyc_d = cyc_q; io_d = io_q;
    ph_d = ph_q; req_d = req_q; rsp_d = rsp_q; rj_d = rj_q; rt_d = rt_q; rp_d = rp_q; rg_d = rg_q;
    rr_d = rr_q; scal_d = scal_q; expo_d = expo_q; err_d = err_q;
    pc_d = pc_q; t_d = t_q; idx_d = idx_q; map_d = map_q; src_d = src_q;
    mem_req = 1'b0; mem_we = 1'b0; mem_addr = '0; mem_wdata = '0;
    done = 1'b0;
    rhalf = 1'b0; opa_sel = 3'd0; opb_sel = 2'd0; sa = '0; sb2 = '0; cidx = '0; col = '0;
    for (int i = 0; i < 4; i++) ra[i] = '0;
    au_en = 1'b0; au_clr = 1'b0; au_dbl = 1'b0; au_corr = 1'b0; au_idx = '0;
    av_en = 1'b0; av_clr = 1'b0; av_sub = 1'b0; av_idx = '0;
    red_src = '0; red_idx = '0; red_half = 1'b0; red_half_be = 1'b0; sc_we = 1'b0; sc_wi = '0;
    fix_u = 1'b0; fix_v = 1'b0; mkz = 1'b0; wk = 1'b0; wr = 1'b0; lin_en = 1'b0; lin_sub = 1'b0;
    tb_d = tb_q; tc_d = tc_q; td_d = td_q; tlin_d = tlin_q;
    tcopy = 1'b0; txk_we = 1'b0; txr_we = 1'b0; qm_en = 1'b0; qm_sel = 1'b0; g_mkqk = 1'b0; g_mkqr = 1'b0;
    ld_rf = 1'b0; ld_half = 1'b0; ld_cst = 1'b0; ld_idx = '0; ld_data = '0; ld_sel = '0; ld_addr6 = '0;
    wipe = 1'b0;
    g_start = 1'b0; g_first = 1'b0; g_be_en = 1'b0; g_be_clr = 1'b0; g_tgt = '0; g_col = '0;
    g_ku = 1'b0; g_kv = 1'b0; g_ld_rf = 1'b0; g_ld_cst = 1'b0; g_ld_idx = '0;
    sx = ua[0]; sy = ub[0];
    cox_clr = 1'b0; cox_half = 1'b0; cox_en = 1'b0;

    // ---- Compress tail (c = tc_q), beside whatever the sequencer runs; a handoff below restarts it
    if (tb_q) begin
      tc_d = tc_q + 3'd1;
      if (tc_q == 3'd5) tb_d = 1'b0;
      unique case (tc_q)
        3'd0: if (tlin_q) red_src = 2'd2;                  // ADD/SUB: xi(Kz_a) product
        3'd1: begin red_src = 2'd2; txk_we = tlin_q; end   // xi(Rz_a) product
        3'd2: begin txr_we = 1'b1; g_mkqk = 1'b1; end
        3'd3: begin qm_en = 1'b1; g_mkqr = 1'b1; end
        3'd4: begin wk = 1'b1; qm_en = 1'b1; qm_sel = 1'b1; end
        default: wr = 1'b1;
      endcase
    end

    unique case (state_q)
      Idle: if (eng_i.cmd_valid) begin
        op_d = eng_i.cmd.op;
        elen_d = LenW'(eng_i.cmd.elen);
        len_d = LenW'(eng_i.cmd.len);
        na_d = NW'(na_cmd);
        nb_d = NW'(na_cmd + 1);
        cyc_d = '0; io_d = '0; ph_d = '0; req_d = '0; rsp_d = '0; rj_d = '0; rt_d = '0;
        rp_d = 1'b0; rg_d = 1'b0; rr_d = '0; err_d = 1'b0; scal_d = '0; expo_d = '0; t_d = '0;
        map_d = 1'b0;
        pc_d = entry;
        status_d = ST_OK;
        if (eng_i.cmd.op == OP_ZEROIZE) begin
          pc_d = '0; len_d = '0; elen_d = '0; na_d = '0; nb_d = '0; state_d = Wipe;
        end else if (!entry_valid) begin
          status_d = ST_ERR_OPCODE; state_d = Done;
        end else if (eng_i.cmd.op == OP_ECC_MUL && (eng_i.cmd.arg[1] || eng_i.cmd.arg[2])) begin
          status_d = ST_ERR_UNSUPPORTED; state_d = Done;     // no random projective Z, no X25519 ladder here
        end else if (eng_i.cmd.len == 0 || eng_i.cmd.len % 16'(2 * W) != 0 || 32'(eng_i.cmd.len) > MaxLen ||
                     32'(eng_i.cmd.elen) > MaxLen || (eng_i.cmd.op == OP_ECC_MUL && eng_i.cmd.elen == 0)) begin
          status_d = ST_ERR_LENGTH; state_d = Done;
        end else state_d = Load;
      end

      Load: begin
        io_d = io_q + 1;
        if (req_q != cnt) begin
          mem_req = 1'b1;
          mem_addr = ld_addr;
          if (eng_i.mem.gnt) req_d = req_q + 1;
        end
        if (eng_i.mem.rvalid) begin
          rsp_d = rsp_q + 1;
          ld_data = W'(eng_i.mem.rdata);
          unique case (ph_q)
            3'd0: if (!eng_i.mem.rdata[0]) status_d = ST_ERR_EVEN_MODULUS;
            3'd1: begin
              if (!rg_q) begin
                ld_cst = 1'b1;
                ld_sel = onehot_rj;
                ld_idx = rt_q;
                if (CntW'(rt_q) + 1 == cw) begin
                  rt_d = '0;
                  rj_d = rj_q + 1;
                  if (rj_q + 1 == nb_q) rg_d = 1'b1;
                end else rt_d = rt_q + 1;
              end else begin
                g_ld_cst = 1'b1;
                g_ld_idx = GIdxW'(rt_q);
                rt_d = rt_q + 1;
              end
            end
            3'd2, 3'd3, 3'd4: begin
              ld_addr6 = {(ph_q == 3'd2) ? RegInA : (ph_q == 3'd3) ? RegInB : RegOne + 5'(rr_q), rp_q};
              if (img_g) begin
                g_ld_rf = 1'b1;
                if (eng_i.mem.rdata[31:6] != '0) err_d = 1'b1;
              end else begin
                ld_rf = 1'b1;
                ld_half = img_b;
                ld_sel = onehot_img;
                if (!hi_zero || W'(eng_i.mem.rdata) >= W'((33'd1 << W) - 33'(cmod))) err_d = 1'b1;
              end
              if (img_g) begin
                rj_d = '0;
                rp_d = ~rp_q;
                if (rp_q) rr_d = rr_q + 1;
              end else rj_d = rj_q + 1;
            end
            3'd5: scal_d[32 * rsp_q[$clog2(EWords+1)-1:0] +: 32] = eng_i.mem.rdata;
            default: expo_d[32 * rsp_q[$clog2(EWords+1)-1:0] +: 32] = eng_i.mem.rdata;
          endcase
        end
        if (req_q == cnt && rsp_q == cnt) begin
          req_d = '0; rsp_d = '0; rj_d = '0; rt_d = '0; rp_d = 1'b0; rg_d = 1'b0; rr_d = '0;
          ph_d = ph_q + 1;
          if (ph_q == 3'd6) begin
            if (status_q != ST_OK) state_d = Done;
            else if (err_q || (op_q == OP_ECC_MUL && scal_zero)) begin
              status_d = ST_ERR_OPERAND_RANGE; state_d = Done;
            end else state_d = Exec;
          end
        end
      end

      Exec: begin
        if (uop != UHalt || tb_q) cyc_d = cyc_q + 1;
        unique case (uop)
          UHalt: if (!tb_q) begin state_d = Store; rj_d = '0; rp_d = 1'b0; rr_d = '0; req_d = '0; end
          USb, UAdd, USub: if (!(t_q == '0 && stall)) begin
            t_d = t_q + 1;
            // ---- SB products (Karatsuba), K pairs, a half then b half
            if (sbp && t_q < 6 * k_) begin
              rhalf = ph_b;
              sx = ua[pp[1:0]];
              sy = ub[pp[1:0]];
              ra[0] = {ua[pp[1:0]], 1'b0}; ra[1] = {ua[pp[1:0]], 1'b1};
              ra[2] = {ub[pp[1:0]], 1'b0}; ra[3] = {ub[pp[1:0]], 1'b1};
              if (pr == 16'd1) begin ra[0] = {ua[pp[1:0]], 1'b1}; ra[2] = {ub[pp[1:0]], 1'b1}; end
              if (pr == 16'd2) begin opa_sel = 3'd1; opb_sel = 2'd1; end
            end
            if (sbp && t_q < k_) begin
              g_start = 1'b1; g_first = (t_q == 16'd0);
              sx = ua[t_q[1:0]]; sy = ub[t_q[1:0]];
            end
            // U = sum 2 P1 + P2 on port U, V = sum P3 - P1 - P2 on port V (two cycles after issue)
            if (sbp && q_in) begin
              unique case (qr2)
                2'd0: begin
                  au_en = 1'b1; au_dbl = 1'b1; au_clr = (qp == 16'd0); au_idx = qh_b ? 2'd2 : 2'd0;
                  av_en = 1'b1; av_sub = 1'b1; av_clr = (qp == 16'd0); av_idx = qh_b ? 2'd3 : 2'd1;
                end
                2'd1: begin
                  au_en = 1'b1; au_idx = qh_b ? 2'd2 : 2'd0;
                  av_en = 1'b1; av_sub = 1'b1; av_idx = qh_b ? 2'd3 : 2'd1;
                end
                default: begin av_en = 1'b1; av_idx = qh_b ? 2'd3 : 2'd1; end
              endcase
            end
            // ---- ADD / SUB: the sum on a (t = 0, and gamma) and b (t = 1)
            if (linp && t_q < 16'd2) begin
              lin_en = 1'b1;
              lin_sub = (uop == USub);
              rhalf = (t_q == 16'd1);
              ra[0] = {ua[0], 1'b0}; ra[1] = {ua[0], 1'b1}; ra[2] = {ub[0], 1'b0}; ra[3] = {ub[0], 1'b1};
            end
            if (linp && (t_q == 16'd1 || t_q == 16'd2)) begin   // xi of Kz_a, Rz_a for the tail
              opa_sel = 3'd2; sa = (t_q == 16'd1) ? 4'd12 : 4'd13; opb_sel = 2'd2; cidx = 3'd2;
            end
            // ---- multiplier: xi_a, BE steps, K_b, xi_b, Compress
            if (sbp && (ts == 16'd6 || ts == 16'd7)) begin
              opa_sel = 3'd2; sa = (ts == 16'd6) ? 4'd0 : 4'd1; opb_sel = 2'd2; cidx = 3'd2;
            end
            if (be_ab) begin opa_sel = 3'd3; opb_sel = 2'd3; col = ColW'(be_s); end
            if (be_ba) begin opa_sel = 3'd3; opb_sel = 2'd3; col = ColW'(na_ + be_s); end
            if (sbp && ts == t1) begin opa_sel = 3'd4; sa = 4'd2; sb2 = 4'd4; opb_sel = 2'd2; cidx = 3'd3; end
            if (sbp && ts == t2) begin opa_sel = 3'd4; sa = 4'd3; sb2 = 4'd5; opb_sel = 2'd2; cidx = 3'd3; end
            if (sbp && ts == t1 + 16'd5) begin opa_sel = 3'd2; sa = 4'd6; opb_sel = 2'd2; cidx = 3'd4; end
            if (sbp && ts == t2 + 16'd5) begin opa_sel = 3'd2; sa = 4'd7; opb_sel = 2'd2; cidx = 3'd4; end
            // Compress's xi: Kz_a = Ku_a + Rv_a at T4 - 3, Rz_a (formed at T4) at T4 + 1
            if (sbp && ts == t4 - 16'd3) begin opa_sel = 3'd5; sa = 4'd8; sb2 = 4'd1; opb_sel = 2'd2; cidx = 3'd2; end
            if (sbp && ts == t4 + 16'd1) begin opa_sel = 3'd2; sa = 4'd13; opb_sel = 2'd2; cidx = 3'd2; end
            // ---- BE accumulators (products two cycles after the step)
            if (sbp && ts >= 16'd12 && ts < 16'd12 + (na_ << 1)) begin
              au_en = 1'b1; au_corr = 1'b1;
              au_idx = (ts >= 16'd12 + na_) ? 2'd3 : 2'd2;
              au_clr = (ts == 16'd12) || (ts == 16'd12 + na_);
            end
            if (sbp && ts >= t3 + 16'd2 && ts < t3 + 16'd2 + (nb_ << 1)) begin
              au_en = 1'b1; au_corr = 1'b1; red_half_be = 1'b1;
              au_idx = (ts >= t3 + 16'd2 + nb_) ? 2'd1 : 2'd0;
              au_clr = (ts == t3 + 16'd2) || (ts == t3 + 16'd2 + nb_);
            end
            // ---- reductions -> scratch (written one cycle later)
            if (sbp) begin
              if (ts == 16'd4)  begin red_src = 2'd1; red_idx = 2'd0; end
              if (ts == 16'd5)  begin red_src = 2'd1; red_idx = 2'd1; end
              if (ts == 16'd8 || ts == 16'd9) red_src = 2'd2;
              if (ts == 16'd10) begin red_src = 2'd1; red_idx = 2'd2; red_half = 1'b1; end
              if (ts == 16'd11) begin red_src = 2'd1; red_idx = 2'd3; red_half = 1'b1; end
              if (ts == 16'd12 + na_) begin red_src = 2'd1; red_idx = 2'd2; red_half = 1'b1; end
              if (ts == 16'd12 + (na_ << 1)) begin red_src = 2'd1; red_idx = 2'd3; red_half = 1'b1; end
              if (ts == t1 + 16'd2 || ts == t2 + 16'd2 || ts == t1 + 16'd7 || ts == t2 + 16'd7) begin
                red_src = 2'd2; red_half = 1'b1;
              end
              if (ts == t3 + 16'd2 + nb_) begin red_src = 2'd1; red_idx = 2'd0; end
              if (ts == t3 + 16'd2 + (nb_ << 1)) begin red_src = 2'd1; red_idx = 2'd1; end
              if (ts == t4 - 16'd1) red_src = 2'd2;     // xi(Kz_a), into the tail at T4
              if (ts == t4) txk_we = 1'b1;
            end
            sc_we = 1'b1;
            if (sbp && ts == 16'd5) sc_wi = 4'd0;
            else if (sbp && ts == 16'd6) sc_wi = 4'd1;
            else if (sbp && ts == 16'd9) sc_wi = 4'd10;
            else if (sbp && ts == 16'd10) sc_wi = 4'd11;
            else if (sbp && ts == 16'd11) sc_wi = 4'd2;
            else if (sbp && ts == 16'd12) sc_wi = 4'd3;
            else if (sbp && ts == 16'd13 + na_) sc_wi = 4'd4;
            else if (sbp && ts == 16'd13 + (na_ << 1)) sc_wi = 4'd5;
            else if (sbp && ts == t1 + 16'd3) sc_wi = 4'd6;
            else if (sbp && ts == t2 + 16'd3) sc_wi = 4'd7;
            else if (sbp && ts == t1 + 16'd8) sc_wi = 4'd10;
            else if (sbp && ts == t2 + 16'd8) sc_wi = 4'd11;
            else if (sbp && ts == t3 + 16'd3 + nb_) sc_wi = 4'd8;
            else if (sbp && ts == t3 + 16'd3 + (nb_ << 1)) sc_wi = 4'd9;
            else sc_we = 1'b0;
            // ---- Cox
            if (be_ab || be_ba) cox_en = 1'b1;
            if (sbp && (ts == 16'd9 || ts == 16'd9 + na_)) cox_clr = 1'b1;
            if (sbp && (ts == t3 - 16'd1 || ts == t3 - 16'd1 + nb_)) begin cox_clr = 1'b1; cox_half = 1'b1; end
            // ---- gamma channel
            if (be_ab) begin
              g_be_en = 1'b1;
              g_col = $clog2(NAMax)'(be_s);
              g_tgt = be_v;
              g_be_clr = (be_s == '0);
            end
            if (sbp && ts == t1 + 16'd3) g_ku = 1'b1;
            if (sbp && ts == t2 + 16'd3) g_kv = 1'b1;
            // ---- K = -1 corrections, Kz / Rz, handoff to the Compress tail
            if (sbp && ts == t1 + 16'd4) fix_u = &(kbu_m1 | ~active_b) & g_ku_m1;
            if (sbp && ts == t2 + 16'd4) fix_v = &(kbv_m1 | ~active_b) & g_kv_m1;
            if (sbp && ts == t4) mkz = 1'b1;
            if (sbp ? ts == t4 + 16'd1 : t_q == 16'd2) begin
              tcopy = 1'b1;
              tb_d = 1'b1; tc_d = '0; td_d = ud; tlin_d = linp;
              t_d = '0; pc_d = pc_q + 1;
            end
          end
          ULoop: begin
            src_d = usrc;
            if ((usrc ? len_q : elen_q) == '0) pc_d = utgt;
            else begin idx_d = (usrc ? len_q : elen_q) - 1; pc_d = pc_q + 1; end
          end
          UEndLoop: begin
            if (idx_q == '0) pc_d = pc_q + 1;
            else begin idx_d = idx_q - 1; pc_d = utgt; end
          end
          UIfBit: pc_d = cur_bit ? pc_q + 1 : pc_q + 2;
          UMap: begin map_d = cur_bit; pc_d = pc_q + 1; end
          UUnmap: begin map_d = 1'b0; pc_d = pc_q + 1; end
          default: state_d = Store;
        endcase
      end

      Store: begin
        // RES -> SLOT_R, RES_HI -> SLOT_R_HI (images of 2(n_a + n_b + 1) words)
        io_d = io_q + 1;
        mem_req = 1'b1;
        mem_we = 1'b1;
        mem_addr = slot_addr(rr_q[0] ? SLOT_R_HI : SLOT_R, MemAw'(req_q));
        mem_wdata = img_g ? 32'(g_st) : 32'(st_w);
        if (eng_i.mem.gnt) begin
          req_d = req_q + 1;
          if (img_g) begin
            rj_d = '0;
            rp_d = ~rp_q;
            if (rp_q) begin
              rr_d = rr_q + 1;
              req_d = '0;
              if (rr_q[0]) state_d = Done;
            end
          end else rj_d = rj_q + 1;
        end
      end

      Wipe: begin
        // t = 0 .. WipeCyc-1: register-file word t[5:0] and constant word t of every rower
        wipe = 1'b1;
        ld_addr6 = t_q[5:0];
        ld_idx = IdxW'(t_q);
        cox_clr = 1'b1;
        scal_d = '0; expo_d = '0; map_d = 1'b0; idx_d = '0; src_d = 1'b0;
        tb_d = 1'b0; tc_d = '0; td_d = '0; tlin_d = 1'b0;
        cyc_d = cyc_q + 1;
        t_d = t_q + 1;
        if (t_q == CntW'(WipeCyc - 1)) begin t_d = '0; state_d = Done; end
      end

      Done: begin
        done = 1'b1;
        state_d = Idle;
      end
      default: state_d = Idle;
    endcase
  end
  assign k1_d = cox_en & cox_k;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= Idle; op_q <= '0; elen_q <= '0; len_q <= '0; na_q <= '0; nb_q <= '0;
      status_q <= ST_OK; cyc_q <= '0; io_q <= '0; ph_q <= '0; req_q <= '0; rsp_q <= '0;
      rj_q <= '0; rt_q <= '0; rp_q <= 1'b0; rg_q <= 1'b0; rr_q <= '0; err_q <= 1'b0;
      pc_q <= '0; t_q <= '0; idx_q <= '0; k1_q <= 1'b0; k2_q <= 1'b0; map_q <= 1'b0; src_q <= 1'b0;
      tb_q <= 1'b0; tc_q <= '0; td_q <= '0; tlin_q <= 1'b0;
    end else begin
      state_q <= state_d; op_q <= op_d; elen_q <= elen_d; len_q <= len_d; na_q <= na_d; nb_q <= nb_d;
      status_q <= status_d; cyc_q <= cyc_d; io_q <= io_d; ph_q <= ph_d; req_q <= req_d; rsp_q <= rsp_d;
      rj_q <= rj_d; rt_q <= rt_d; rp_q <= rp_d; rg_q <= rg_d; rr_q <= rr_d; err_q <= err_d;
      pc_q <= pc_d; t_q <= t_d; idx_q <= idx_d; k1_q <= k1_d; k2_q <= k1_q; map_q <= map_d; src_q <= src_d;
      tb_q <= tb_d; tc_q <= tc_d; td_q <= td_d; tlin_q <= tlin_d;
    end
  end
  always_ff @(posedge clk_i) begin
    scal_q <= scal_d;
    expo_q <= expo_d;
  end

  assign cmd_ready = (state_q == Idle);
  assign status    = status_q;
  assign cycles    = cyc_q;
  assign io_cycles = io_q;

  logic unused;
  assign unused = ^{eng_i.cmd.arg, uword[63:53], uword[42:41], uword[40:36] & 5'd0, sb_slots_a, sb_slots_e,
                    sb_slots_l, sb_checked};
endmodule
