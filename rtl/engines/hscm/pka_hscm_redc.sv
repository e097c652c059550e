// SPDX-License-Identifier: Apache-2.0
// pka_hscm_redc: the word-serial side unit of one HSCM (Figure 7): the Montgomery constants of a
// modulus (PREP) and the final reduction by approximation (REDUCE, section 4 and Appendix B).
//
// PREP: mu = -M^-1 mod 2^(2k) one bit per cycle (keep t = M mu mod 2^2k, set bit i of mu when
//   bit i of t is 0), then N = (mu M + 1) / 2^2k word-serially (mu M + 1 = 0 mod 2^2k: words 0
//   and 1 are dropped), written to the N RAM (e words).  2k + e + 5 cycles.
// REDUCE: X < 2^(n+2k+1) -> X mod M, canonical.  t = 2k + 4, h = 3, n0 = n - t:
//   x1 = floor(X / 2^n0) and y1 = floor(M / 2^n0) from six words of each at word floor(n0/k);
//   q1 = floor((x1 - 1)/(y1 + 1)) by Algorithm B1 (2k + 2 restoring steps; x1 = 0 gives q1 = 0);
//   pass 1: R1 = X - q1 M (q1 M word by word, q1 = 2^k q_h + q_l in two w x w multipliers), and
//           the borrow of R1 - M on the fly (R1 in [0, 2M) by B7);
//   pass 2: R = R1 - M if R1 >= M else R1: in [0, M) (the paper keeps R1 = M: range (0, M]).
//   2k + 2f + 12 cycles.  X, M and the result T are entries of the operand RAM.
// wipe_i (OP_ZEROIZE) holds every register at 0.
// Pipeline of the word passes (PREP's N, REDUCE's passes 1 and 2): read (address registers),
// D (RAM data registered: the block RAM's output drives nothing but flip-flops), M (the
// w x (2k+2) product), A (carry add, subtraction, write), and in pass 1 B (the borrow of R1 - M).
// The reads of a pass start two cycles before its state (in the last-but-one step of the mu loop
// or of the division, or while pass 1's last word is in stage M), and mu / q1 are final when
// the first word reaches M, so the two extra stages cost no cycle: the cycle counts are those of
// a read-then-process pass.
// Digits of k = K = 2W bits (doc/hscm.md): the constants and the reduction are those of the k-bit
// algorithm (mu over 2K bits, N = (mu M + 1) / 2^2K drops 2K/W words, t = 2K + 4, q1 of 2K + 2
// bits, x1 from Nx words), on W-bit words: X, M and T have m f words, N has the ring's e.
`default_nettype none

module pka_hscm_redc
  import pka_hscm_pkg::*;
#(
  parameter int unsigned W    = 16,   // word bits
  parameter int unsigned TagW = 9,    // word index bits of the N RAM
  parameter int unsigned Aw   = 12,   // operand RAM address bits
  parameter int unsigned Ew   = 68,   // words per RAM entry
  parameter int unsigned K    = W     // digit bits k: W or 2W
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            wipe_i,     // OP_ZEROIZE: every register to 0
  input  logic            prep_i,     // start PREP (modulus in entry m_ent_i)
  input  logic            red_i,      // start REDUCE (X in x_ent_i, M in m_ent_i, R to t_ent_i)
  input  logic [15:0]     n_i,        // modulus bits
  input  logic [7:0]      x_ent_i,
  input  logic [7:0]      m_ent_i,
  input  logic [7:0]      t_ent_i,
  output logic [Aw-1:0]   ra_o,
  output logic [Aw-1:0]   rb_o,
  input  logic [W-1:0]    rda_i,
  input  logic [W-1:0]    rdb_i,
  output logic            we_o,
  output logic [Aw-1:0]   wa_o,
  output logic [W-1:0]    wd_o,
  output logic            nwe_o,
  output logic [TagW-1:0] nwa_o,
  output logic [W-1:0]    nwd_o,
  output logic            done_o
);
  localparam int unsigned Lw = $clog2(W);
  localparam int unsigned Lk = $clog2(K);
  localparam int unsigned Mk = K / W;           // w-bit words per digit
  localparam int unsigned T  = 2 * K + 4;       // Appendix B: t = 2k + 4
  localparam int unsigned Qw = 2 * K + 2;       // quotient bits t - h + 1
  localparam int unsigned Uw = 4 * K + 5;       // x1 bits 2t - h
  localparam int unsigned Nx = (Uw + 2 * (W - 1)) / W;   // words holding x1 at any bit offset
  localparam int unsigned PrW = W + Qw + 2;     // opnd x M_j plus the carry
  localparam int unsigned McW = PrW - W;        // the carry of q1 M (or mu M)

  typedef enum logic [3:0] {
    R_IDLE, P_RD, P_MU, P_PASS, X_RD, X_EXT, X_DIV, X_PASS1, X_PASS2
  } rst_e;

  typedef enum logic [1:0] {K_P, K_X1, K_X2} kind_e;   // pass of a word in the pipeline

  rst_e            st_q, st_d;
  logic [15:0]     i_q, i_d;            // step / word counter (mu loop, X_RD, division)
  logic            pv_q, pv_d;          // X_RD: a read was issued last cycle
  logic [15:0]     pj_q, pj_d;          // X_RD: word index being processed
  logic [2*K-1:0]  mu_q, mu_d, tt_q, tt_d, ml_q, ml_d;
  logic [2*K-1:0]  mlx;                 // P_RD: M mod 2^(2k) with the word read last
  logic [Nx*W-1:0] xw_q, xw_d, mw_q, mw_d;
  logic [Uw-1:0]   u_q, u_d;
  logic [T:0]      p_q, p_d, rem_q, rem_d;
  logic [Qw-1:0]   q1_q, q1_d;
  logic [McW-1:0]  mc_q, mc_d;          // carry of q1 M (or mu M)
  logic            b1_q, b1_d, b2_q, b2_d, b3_q, b3_d, ge_q, ge_d;
  logic [7:0]      x_ent_q, x_ent_d, m_ent_q, m_ent_d, t_ent_q, t_ent_d;
  logic [15:0]     n_q, n_d, f_q, f_d, e_q, e_d, fm1_q, fm1_d, ep1_q, ep1_d;
  logic [Aw-1:0]   xb_q, xb_d, mb_q, mb_d, tb_q, tb_d;   // entry bases (word 0)
  logic [Aw-1:0]   x0_q, x0_d, m0a_q, m0a_d;             // X_RD: words j0 of X and M
  logic [Aw-1:0]   ra_q, ra_d, rb_q, rb_d;               // pass reads: next addresses
  // pass pipeline: read (rr_*), M (rv_* -> m*_q), A (m*_q), B (pass 1's borrow)
  logic            rr_q, rr_d;          // pass reads running
  logic [15:0]     ri_q, ri_d, rn_q, rn_d;   // next word to read, words to read
  kind_e           rk_q, rk_d;
  logic            rv_q, rv_d;          // RAM data of word rj_q valid
  logic [15:0]     rj_q, rj_d;
  kind_e           rvk_q, rvk_d;
  logic            dv_q, dv_d;          // stage D: RAM data of word dj_q registered
  logic [15:0]     dj_q, dj_d;
  kind_e           dk_q, dk_d;
  logic [W-1:0]    dx_q, dx_d, dm_q, dm_d;   // X_j (T_j), M_j (0 past word f - 1)
  logic            dfm1_q, dfm1_d;      // dj_q == f - 1
  // a pass's reads start in the next cycle (registered: no counter compare before the RAM address)
  logic            pgo_q, pgo_d, xgo_q, xgo_d;
  logic            mv_q, mv_d;          // stage A: the word rj_q of the previous cycle
  kind_e           mk_q, mk_d;
  // stage A's word index compares and addresses, registered from rj_q a cycle ahead (stages A
  // and B keep no word index), so that the RAM ports and the core's phase logic start from FFs
  logic            mfm1_q, mfm1_d, mep1_q, mep1_d, mge2_q, mge2_d, bfm1_q, bfm1_d;
  logic [Aw-1:0]   mwa_q, mwa_d;        // tb + j: stage A's T address
  logic [TagW-1:0] mnwa_q, mnwa_d;      // j - 2: stage A's N RAM address (PREP)
  logic [PrW-1:0]  pr_q, pr_d;          // opnd x M_j
  logic [W-1:0]    xm_q, xm_d, mm_q, mm_d;   // X_j (T_j), M_j
  logic            bv_q, bv_d;          // stage B: pass 1, stage A's word of the previous cycle
  logic [W-1:0]    bd_q, bd_d, bm_q, bm_d;   // R1_j, M_j

  logic [15:0]     n0, j0;
  logic [Lw-1:0]   off;

  function automatic logic [Aw-1:0] addr(logic [7:0] ent, logic [15:0] x);
    return Aw'(ent_base(ent, Ew) + 32'(x));
  endfunction

  always_comb begin
    n0  = n_q - 16'(T);
    j0  = n0 >> Lw;
    off = n0[Lw-1:0];
  end

  logic [PrW-1:0]  prod;
  logic [Qw-1:0]   opnd;
  logic [W:0]      d1, d2, d3;
  logic [W-1:0]    mj, xj;
  logic [T+1:0]    cc, cc2;
  logic [Nx*W-1:0] xs, ms;
  logic            unused_xs;
  logic            rstart, x2go;
  kind_e           rkind;
  logic [15:0]     rwords;

  // the last word of PREP's pass or of pass 2 (its own block: the core's phase logic reads it)
  always_comb begin
    done_o = mv_q && ((mk_q == K_P && mep1_q) || (mk_q == K_X2 && mfm1_q));
  end

  always_comb begin
    st_d = st_q;
    i_d  = i_q;
    pv_d = 1'b0;
    pj_d = pj_q;
    mu_d = mu_q;
    tt_d = tt_q;
    ml_d = ml_q;
    xw_d = xw_q;
    mw_d = mw_q;
    u_d  = u_q;
    p_d  = p_q;
    rem_d = rem_q;
    q1_d = q1_q;
    mc_d = mc_q;
    b1_d = b1_q;
    b2_d = b2_q;
    b3_d = b3_q;
    ge_d = ge_q;
    x_ent_d = x_ent_q;
    m_ent_d = m_ent_q;
    t_ent_d = t_ent_q;
    n_d  = n_q;
    f_d  = f_q;
    e_d  = e_q;
    fm1_d = fm1_q;
    ep1_d = ep1_q;
    xb_d = xb_q;
    mb_d = mb_q;
    tb_d = tb_q;
    x0_d = x0_q;
    m0a_d = m0a_q;
    ra_o = '0;
    rb_o = '0;
    we_o = 1'b0;
    wa_o = '0;
    wd_o = '0;
    nwe_o = 1'b0;
    nwa_o = '0;
    nwd_o = '0;
    rstart = 1'b0;
    rkind  = K_P;
    rwords = '0;

    // ---- stage A (two cycles after the read) --------------------------------------------------
    prod = pr_q + PrW'(mc_q);
    d1   = {1'b0, xm_q} - {1'b0, prod[W-1:0]} - (W+1)'(b1_q);   // R1 = X - q1 M
    d3   = {1'b0, xm_q} - {1'b0, mm_q} - (W+1)'(b3_q);           // pass 2: R1 - M
    bv_d = 1'b0;
    bd_d = d1[W-1:0];
    bm_d = mm_q;
    if (mv_q) begin
      unique case (mk_q)
        K_P: begin
          mc_d = prod[PrW-1:W];
          if (mge2_q) begin
            nwe_o = 1'b1;
            nwa_o = mnwa_q;
            nwd_o = prod[W-1:0];
          end
          if (done_o) st_d = R_IDLE;
        end
        K_X1: begin   // R1 = X - q1 M -> T
          mc_d = prod[PrW-1:W];
          b1_d = d1[W];
          bv_d = 1'b1;
          we_o = 1'b1;
          wa_o = mwa_q;
          wd_o = d1[W-1:0];
          if (mfm1_q) st_d = X_PASS2;   // its reads started a cycle ago (x2go)
        end
        default: begin   // K_X2: R = R1 - M if R1 >= M
          b3_d = d3[W];
          we_o = 1'b1;
          wa_o = mwa_q;
          wd_o = ge_q ? d3[W-1:0] : xm_q;
          if (done_o) st_d = R_IDLE;
        end
      endcase
    end

    // pass 2's reads start while pass 1's last word is in stage M
    x2go = dv_q && dk_q == K_X1 && dfm1_q;
    if (x2go) begin
      rstart = 1'b1;
      rkind  = K_X2;
      rwords = f_q;
      b3_d   = 1'b0;
    end

    // ---- stage B: pass 1's borrow of R1 - M ---------------------------------------------------
    d2 = {1'b0, bd_q} - {1'b0, bm_q} - (W+1)'(b2_q);
    if (bv_q) begin
      b2_d = d2[W];
      if (bfm1_q) ge_d = !d2[W];
    end

    // word processing of X_RD (one cycle after the read)
    mj   = (pj_q < f_q) ? rdb_i : '0;
    xj   = (pj_q < f_q) ? rda_i : '0;
    xs   = xw_q >> off;
    ms   = mw_q >> off;
    cc   = {rem_q, u_q[Qw-1]};   // the division's next bit: u is shifted left per step
    cc2  = cc - {1'b0, p_q};
    unused_xs = ^{xs[Nx*W-1:Uw], ms[Nx*W-1:T]};
    mlx  = {rdb_i, ml_q[2*K-1:W]};

    unique case (st_q)
      R_IDLE: begin
        n_d = n_i;
        // m f words of X and M, e = m (f+2) - 1 words of N, the PREP pass's last word e + 2m - 1
        f_d = 16'(Mk) * ((n_i + 16'(3 * K + 1)) >> Lk);
        e_d = 16'(Mk) * (((n_i + 16'(3 * K + 1)) >> Lk) + 16'd2) - 16'd1;
        fm1_d = 16'(Mk) * ((n_i + 16'(3 * K + 1)) >> Lk) - 16'd1;
        ep1_d = 16'(Mk) * (((n_i + 16'(3 * K + 1)) >> Lk) + 16'd2) + 16'(2 * Mk - 2);
        x_ent_d = x_ent_i;
        m_ent_d = m_ent_i;
        t_ent_d = t_ent_i;
        xb_d = addr(x_ent_i, '0);
        mb_d = addr(m_ent_i, '0);
        tb_d = addr(t_ent_i, '0);
        x0_d  = addr(x_ent_i, (n_i - 16'(T)) >> Lw);
        m0a_d = addr(m_ent_i, (n_i - 16'(T)) >> Lw);
        i_d = '0;
        if (prep_i) begin
          st_d = P_RD;
          rb_o = addr(m_ent_i, 16'd0);
        end else if (red_i) begin
          st_d = X_RD;
        end
      end
      // ---- PREP: mu bit by bit, then N = (mu M + 1) >> 2k --------------------------------
      P_RD: begin
        // words 0 .. 2m-1 of M into ml (M mod 2^(2k)), one a cycle
        i_d  = i_q + 16'd1;
        ml_d = mlx;
        if (i_q != 16'(2 * Mk - 1)) begin
          rb_o = mb_q + Aw'(i_q + 16'd1);
        end else begin
          // bit 0 of mu is 1 (M odd), t = M; from here on t is kept shifted right by the
          // bits already decided, and mu fills from the top (no indexed bit select, no
          // shifter on the loop's path)
          tt_d = mlx >> 1;
          mu_d = {1'b1, (2*K-1)'(0)};
          i_d  = 16'd1;
          st_d = P_MU;
        end
      end
      P_MU: begin
        // t = (M mu mod 2^2k) >> i: bit i of mu is 1 when bit 0 of t is 0
        tt_d = (tt_q[0] ? tt_q : tt_q + ml_q) >> 1;
        mu_d = {!tt_q[0], mu_q[2*K-1:1]};
        i_d = i_q + 16'd1;
        if (pgo_q) begin   // i = 2k - 2: the pass's reads start now
          rstart = 1'b1;
          rkind  = K_P;
          rwords = e_q + 16'(2 * Mk);
          mc_d   = McW'(1);   // the + 1
        end
        if (i_q == 16'(2 * K - 1)) st_d = P_PASS;
      end
      // ---- REDUCE ---------------------------------------------------------------------------
      X_RD: begin   // words j0 .. j0+Nx-1 of X and M
        if (i_q < 16'(Nx)) begin
          ra_o = x0_q + Aw'(i_q);
          rb_o = m0a_q + Aw'(i_q);
          pv_d = 1'b1;
          pj_d = j0 + i_q;
          i_d  = i_q + 16'd1;
        end
        if (pv_q) begin
          xw_d = {xj, xw_q[Nx*W-1:W]};
          mw_d = {mj, mw_q[Nx*W-1:W]};
          if (i_q == 16'(Nx)) st_d = X_EXT;
        end
      end
      X_EXT: begin
        u_d   = (xs[Uw-1:0] == '0) ? '0 : xs[Uw-1:0] - Uw'(1);
        p_d   = (T+1)'(ms[T-1:0]) + (T+1)'(1);
        rem_d = (T+1)'((xs[Uw-1:0] == '0 ? '0 : xs[Uw-1:0] - Uw'(1)) >> Qw);
        q1_d  = '0;
        i_d   = 16'(Qw - 1);
        st_d  = X_DIV;
      end
      X_DIV: begin  // Algorithm B1: C = 2T + u_i, C' = C - P
        rem_d = cc2[T+1] ? cc[T:0] : cc2[T:0];
        q1_d  = {q1_q[Qw-2:0], !cc2[T+1]};   // q1 fills from the bottom, top bit first
        u_d   = u_q << 1;
        i_d = i_q - 16'd1;
        if (xgo_q) begin   // i = 1: pass 1's reads start now
          rstart = 1'b1;
          rkind  = K_X1;
          rwords = f_q;
          mc_d = '0;
          b1_d = 1'b0;
          b2_d = 1'b0;
        end
        if (i_q == '0) st_d = X_PASS1;
      end
      default: ;   // P_PASS, X_PASS1, X_PASS2: the pipeline above
    endcase

    // ---- pass reads: X (T in pass 2) on port a, M on port b --------------------------------
    rr_d = rr_q;
    ri_d = ri_q;
    rn_d = rn_q;
    rk_d = rk_q;
    ra_d = ra_q;
    rb_d = rb_q;
    rv_d = 1'b0;
    rj_d = ri_q;
    rvk_d = rk_q;
    if (rstart) begin     // word 0 now
      ra_o  = (rkind == K_X2) ? tb_q : xb_q;
      rb_o  = mb_q;
      ra_d  = ra_o + Aw'(1);
      rb_d  = rb_o + Aw'(1);
      rv_d  = 1'b1;
      rj_d  = '0;
      rvk_d = rkind;
      rr_d  = 1'b1;
      ri_d  = 16'd1;
      rn_d  = rwords;
      rk_d  = rkind;
    end else if (rr_q) begin
      ra_o = ra_q;
      rb_o = rb_q;
      ra_d = ra_q + Aw'(1);
      rb_d = rb_q + Aw'(1);
      ri_d = ri_q + 16'd1;
      rv_d = 1'b1;
      rr_d = (ri_q + 16'd1) != rn_q;
    end

    pgo_d = st_q == P_MU && i_q == 16'(2 * K - 3);
    xgo_d = st_q == X_DIV && i_q == 16'd2;

    // ---- stage D: the RAM data of the word read in the previous cycle -------------------------
    dv_d = rv_q;
    dk_d = rvk_q;
    dj_d = rj_q;
    dfm1_d = rj_q == fm1_q;
    dm_d = (rj_q < f_q) ? rdb_i : '0;
    dx_d = (rj_q < f_q) ? rda_i : '0;

    // ---- stage M: the product of the word registered by stage D --------------------------------
    opnd = (dk_q == K_P) ? Qw'(mu_q) : q1_q;   // mu (2k bits) or q1 = 2^k q_h + q_l
    mv_d = dv_q;
    mk_d = dk_q;
    mfm1_d = dfm1_q;
    mep1_d = dj_q == ep1_q;
    mge2_d = dj_q >= 16'(2 * Mk);
    mwa_d  = tb_q + Aw'(dj_q);
    mnwa_d = TagW'(dj_q - 16'(2 * Mk));
    bfm1_d = mfm1_q;
    mm_d = dm_q;
    xm_d = dx_q;
    pr_d = PrW'(opnd) * PrW'(dm_q);

    if (wipe_i) begin   // OP_ZEROIZE: mu, the top words of X and M, q1, the pass pipeline, ...
      {st_d, i_d, pv_d, pj_d, mu_d, tt_d, ml_d, xw_d, mw_d, u_d, p_d, rem_d, q1_d, mc_d,
       b1_d, b2_d, b3_d, ge_d, x_ent_d, m_ent_d, t_ent_d, n_d, f_d, e_d, fm1_d, ep1_d, xb_d, mb_d,
       tb_d, x0_d, m0a_d, rr_d, ri_d, rn_d, rk_d, ra_d, rb_d, rv_d, rj_d, rvk_d, dv_d, dj_d, dk_d,
       dx_d, dm_d, dfm1_d, pgo_d, xgo_d, mv_d, mk_d,
       mfm1_d, mep1_d, mge2_d, mwa_d, mnwa_d, bfm1_d, pr_d, xm_d, mm_d, bv_d, bd_d, bm_d} = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= R_IDLE;
      pv_q <= 1'b0;
      rr_q <= 1'b0;
      rv_q <= 1'b0;
      dv_q <= 1'b0;
      pgo_q <= 1'b0;
      xgo_q <= 1'b0;
      mv_q <= 1'b0;
      bv_q <= 1'b0;
    end else begin
      st_q <= st_d;
      pv_q <= pv_d;
      rr_q <= rr_d;
      rv_q <= rv_d;
      dv_q <= dv_d;
      pgo_q <= pgo_d;
      xgo_q <= xgo_d;
      mv_q <= mv_d;
      bv_q <= bv_d;
    end
  end

  always_ff @(posedge clk_i) begin
    i_q     <= i_d;
    pj_q    <= pj_d;
    mu_q    <= mu_d;
    tt_q    <= tt_d;
    ml_q    <= ml_d;
    xw_q    <= xw_d;
    mw_q    <= mw_d;
    u_q     <= u_d;
    p_q     <= p_d;
    rem_q   <= rem_d;
    q1_q    <= q1_d;
    mc_q    <= mc_d;
    b1_q    <= b1_d;
    b2_q    <= b2_d;
    b3_q    <= b3_d;
    ge_q    <= ge_d;
    x_ent_q <= x_ent_d;
    m_ent_q <= m_ent_d;
    t_ent_q <= t_ent_d;
    n_q     <= n_d;
    f_q     <= f_d;
    e_q     <= e_d;
    fm1_q   <= fm1_d;
    ep1_q   <= ep1_d;
    xb_q    <= xb_d;
    mb_q    <= mb_d;
    tb_q    <= tb_d;
    x0_q    <= x0_d;
    m0a_q   <= m0a_d;
    ra_q    <= ra_d;
    rb_q    <= rb_d;
    ri_q    <= ri_d;
    rn_q    <= rn_d;
    rk_q    <= rk_d;
    rj_q    <= rj_d;
    rvk_q   <= rvk_d;
    dj_q    <= dj_d;
    dk_q    <= dk_d;
    dx_q    <= dx_d;
    dm_q    <= dm_d;
    dfm1_q  <= dfm1_d;
    mk_q    <= mk_d;
    mfm1_q  <= mfm1_d;
    mep1_q  <= mep1_d;
    mge2_q  <= mge2_d;
    mwa_q   <= mwa_d;
    mnwa_q  <= mnwa_d;
    bfm1_q  <= bfm1_d;
    pr_q    <= pr_d;
    xm_q    <= xm_d;
    mm_q    <= mm_d;
    bd_q    <= bd_d;
    bm_q    <= bm_d;
  end
endmodule
