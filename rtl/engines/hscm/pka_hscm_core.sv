// SPDX-License-Identifier: Apache-2.0
// pka_hscm_core: quotient-pipelined high-radix scalable Montgomery engine (paper 004, Wu, Li,
// Liu: HSCM, Algorithm 3; MRDC eq. 5; MULT Algorithm 4; Algorithm A1; Montgomery ladder; CRT-RSA
// eq. 4; final reduction by approximation, Appendix B), with the common pka boundary.
//
//             +------------------- pka_hscm_array: Pes PEs -------------------+
//   FIFO0 -> PE 0 -> PE 1 -> ... -> PE L-1 -+ (joined: one HSCM of Pes PEs)    |
//     ^                                     | (split: two HSCMs of Pes/2 PEs)  |
//     +-------------------------------------+ -> FIFO1 -> PE Pes/2 -> ...      |
//   per HSCM r: pka_hscm_seq (chains products, CPA of the results, inject), pka_hscm_prog
//   (descriptors: Algorithm A1, ladder, MRDC, MULT), pka_hscm_redc (mu/N, final reduction),
//   operand RAM (2R1W, entries of e_max words) and N RAM; pka_hscm_alu (range checks, CRT
//   compare/add), pka_hscm_io (word port: loads with checks, store).
//
// Digits: k = K bits on PEs of w = W bits, K = W (the paper's tables) or K = 2W (each digit two PE
// passes, doc/hscm.md "Digits of k = 2w bits": the PEs take the quotient from two passes back, A
// and N enter one word up; f, R, mu, N, t are the k-bit algorithm's, operands have m f words of
// W bits, m = K / W).
// Operations (n = eng_i.cmd.len; results canonical unless stated; slots per pka_pkg):
//   OP_MONTMUL  R = A B R^-1 mod N in [0, 2^(n+2k+1)), R = 2^(k f), f = ceil((n+2k+2)/k);
//               A, B < N; N = (mu N + 1)/2^2k precomputed by the host in X0 (the paper's
//               HSCM of Table 2, whose N is an input).  ceil((n+2k+1)/32) words to R.
//   OP_MODMUL   R = A B mod N            (W = R^2 mod N)
//   OP_MODEXP   R = A^E mod N            (W = R^2 mod N; eng_i.cmd.elen exponent bits;
//                                         eng_i.cmd.arg[3:0] = window k of Algorithm A1, 0|1 binary)
//   OP_MODEXP_CT  the same by the Montgomery ladder on two HSCMs of Pes/2 PEs: exactly
//               eng_i.cmd.elen steps, cycles independent of E's value (constant time)
//   OP_MODRED   R = (A_HI:A) mod N, A_HI:A = A_HI 2^(32 ceil(n/32)) + A < 2^(2n) (MRDC, W = R^2)
//   OP_MUL      R_HI:R = A B for A, B < 2^n (MULT mode; R, R_HI: ceil(n/32) words each)
//   OP_RSA_CRT  R = A^d mod N by CRT on two HSCMs: eng_i.cmd.len = bits of N, eng_i.cmd.elen = bits of
//               P, eng_i.cmd.arg[15:0] = bits of Q, [19:16] = window, [31:24] = X extra exponent
//               bits (0..MaxXBits = 64, for blinded exponents d_p + r_p (p-1), d_q + r_q (q-1));
//               P, Q, N, A (< N), DP (< 2^(bits(P)+X)), DQ (< 2^(bits(Q)+X)),
//               QINV = q^-1 mod p; host constants X0 = R_p^3 mod p, X1 = R_q^3 mod q,
//               X2 = p^-1 mod q.  Checks u q + v p = N + 1 (two MULTs), then per HSCM: MRDC,
//               a fixed window over all bits(p) + X (bits(q) + X) bits of DP (DQ) with digits of
//               window - 1 bits (at least 1) and one multiplication per digit, C^0 included,
//               HSCM(S, u|v), final reduction; then y_p q and y_q p (MULT), their sum, final
//               reduction mod N (eq. 4 with t in {0, 1}).  Constant time: the cycles depend on
//               the lengths, X and the window only (no skipped zeros, no data-dependent step).
//   OP_ZEROIZE  the wipe: both operand RAMs and N RAMs zeroed one word per cycle (Depth cycles),
//               every register of every unit (PEs, FIFOs, sequencers, program generators with
//               the exponent registers, redc, ALU, I/O) held at 0 meanwhile and until the next
//               command; no port access; done with ST_OK, cycles = Depth, io_cycles = 0.
// Cycles (cycles; pka.model.hscm is the exact model): a chain of K products on a ring of L PEs
// takes 3 + s_G + m f cycles, s_G = (G // L) max(e, 2L) + 2 (G % L), G = K m (f+2) - 1,
// e = m (f+2) - 1 (f + 1 for k = w);
// mu/N 2k + e + 5, final reduction 2k + 2f + 13 (k = w; k = 2w: pka.model.hscm); CRT compare/add
// 2 max(f_p, f_q) + 1 (m f words);
// OP_ZEROIZE Depth = (15 + 2^(MaxWindow-1)) (f_max + 1) (pka.model.hscm.wipe_cycles).
// io_cycles: operand loads (with zero fill of the RAM entries), exponent alignment, the range
// checks (one compare pass per operand) and the result store.
// Errors (status, done within a bounded time): unknown op ST_ERR_OPCODE; window > MaxWindow, RSA_CRT's
// X > MaxXBits or a two-HSCM op with Pes odd ST_ERR_UNSUPPORTED; n < 2k+4, n > MaxLen (CRT: p, q > MaxLen/2,
// |bits(p) - bits(q)| > 2k), elen > MaxLen, or a modulus without exactly its given length
// ST_ERR_LENGTH; even N, P or Q ST_ERR_EVEN_MODULUS; A, B >= N (message >= N, MUL operands
// >= 2^n, A_HI:A >= 2^(2n), DP >= 2^(bits(P)+X), DQ >= 2^(bits(Q)+X)) ST_ERR_OPERAND_RANGE; u q + v p != N + 1 (p, q not coprime, wrong
// inverses or N != p q) ST_ERR_NO_INVERSE.
// Fault: no progress for StallMax cycles while running (the progress watchdog below: a stalled
// array or unit) ST_ERR_FAULT, after the wipe (Depth cycles; every unit held at 0).
`default_nettype none

module pka_hscm_core
  import pka_pkg::*;
  import pka_hscm_pkg::*;
#(
  parameter int unsigned MaxLen    = 512,  // largest modulus bits (multiple of 32, 64..4096)
  parameter int unsigned MemAw     = 10,   // word address width: 16 slots of 2^(MemAw-4) words
  parameter int unsigned W         = 16,   // word bits w: 16, 32, 64
  parameter int unsigned K         = W,    // digit bits k: W, or 2W (doc/hscm.md, "Digits of k = 2w bits")
  parameter int unsigned Pes       = 4,    // processing elements L, 1..128 (two HSCMs: even)
  parameter int unsigned MaxWindow = 6,    // largest A1 window (table of 2^(MaxWindow-1)), 1..8
  parameter bit          FaultCheck = 1'b1 // the progress watchdog (0: the fault campaign's evidence build)
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

  // ---- sizes ----------------------------------------------------------------------------------
  localparam int unsigned Lk        = $clog2(K);
  localparam int unsigned Mk        = K / W;                   // PE passes per digit
  localparam int unsigned FMax      = (MaxLen + 3 * K + 1) / K;
  localparam int unsigned EMax      = Mk * (FMax + 2) - 1;     // words of a stream (f_max + 1 for K = W)
  localparam int unsigned Ew        = EMax;                    // words per RAM entry
  localparam int unsigned TblN      = 1 << (MaxWindow - 1);
  localparam int unsigned NumEnt    = NumFixedEnt + TblN;
  localparam int unsigned Depth     = NumEnt * Ew;
  localparam int unsigned Aw        = $clog2(Depth);
  localparam int unsigned TagW      = $clog2(Mk * (FMax + 2)) + 1;
  localparam int unsigned NAw       = $clog2(EMax);
  localparam int unsigned SlotWords = 1 << (MemAw - 4);
  localparam int unsigned MinLen    = 2 * K + 4;
  // exponent register bits: MODEXP's elen <= MaxLen; RSA_CRT's bits(p) + X <= MaxLen/2 + MaxXBits,
  // loaded as whole 32-bit port words
  localparam int unsigned CrtEBits  = (MaxLen / 2 + MaxXBits + 31) / 32 * 32;
  localparam int unsigned EBits     = (CrtEBits > MaxLen) ? CrtEBits : MaxLen;

  initial begin
    if (MaxLen % 32 != 0 || MaxLen < 64 || MaxLen > 4096) $fatal(1, "MaxLen: multiple of 32, 64..4096");
    if (W != 16 && W != 32 && W != 64) $fatal(1, "W must be 16, 32 or 64");
    if (K != W && K != 2 * W) $fatal(1, "K must be W or 2W");
    if (Pes < 1 || Pes > 128) $fatal(1, "Pes must be 1..128");
    if (MaxWindow < 1 || MaxWindow > 8) $fatal(1, "MaxWindow must be 1..8");
    if (SlotWords * 32 < MaxLen + 2 * K + 1) $fatal(1, "MemAw too small: a slot must hold MaxLen+2K+1 bits");
    // (implied by the line above for every legal MaxLen: a blinded d_p' of MaxLen/2 + MaxXBits bits)
    if (SlotWords * 32 < MaxLen / 2 + MaxXBits) $fatal(1, "MemAw too small for MaxLen/2+MaxXBits exponent bits");
    if (MinLen > MaxLen) $fatal(1, "MaxLen below the engine minimum 2K+4");
    // the wipe (Depth cycles) clears the exponent memories one word per cycle
    if (Depth < EBits / 32) $fatal(1, "pka_hscm_core: the wipe is shorter than the exponent memory");
  end

  localparam logic [3:0] PG_MONTMUL = 4'd0, PG_MODMUL = 4'd1, PG_MODRED = 4'd2, PG_MUL = 4'd3,
                         PG_CHECK = 4'd4, PG_RECOMB = 4'd5, PG_EXP = 4'd6, PG_CRT = 4'd7,
                         PG_LADDER = 4'd8;
  localparam logic [1:0] ALU_CMP = 2'd0, ALU_CHECK = 2'd1, ALU_ADD = 2'd2;

  typedef enum logic [3:0] {
    S_IDLE, S_LOAD, S_ALIGN, S_RCHK, S_PREP, S_CHKMUL, S_CHKALU, S_RUN, S_RECMUL, S_RECADD,
    S_RECRED, S_STORE, S_DONE, S_WIPE
  } state_e;

  // per-HSCM phase progress
  typedef enum logic [2:0] {RC_IDLE, RC_PREP, RC_CHAIN, RC_REDGO, RC_RED, RC_DONE} rc_e;

  // ---- registers ------------------------------------------------------------------------------
  state_e      st_q, st_d;
  logic        first_q;              // first cycle of a state
  op_e         op_q, op_d;
  logic [15:0] len_q, len_d, elen_q, elen_d, lenq_q, lenq_d;
  logic [15:0] lpx_q, lpx_d, lqx_q, lqx_d;   // RSA_CRT: exponent bits bits(p) + X, bits(q) + X
  logic [3:0]  win_q, win_d;
  logic [7:0]  status_q, status_d;
  logic [31:0] cyc_q, cyc_d, io_q, io_d;
  rc_e         rs_q [2], rs_d [2];
  logic        al_q [2], al_d [2];   // exponent alignment finished
  logic [1:0]  rk_q, rk_d;           // range check index
  logic        rkw_q, rkw_d;         // range check running
  logic        wiped_q, wiped_d;     // idle after OP_ZEROIZE: every unit held at 0
  logic        wipe;                 // OP_ZEROIZE running, or idle after it
  logic        stall;                // the progress watchdog fired (below)

  // ---- per-HSCM signals -----------------------------------------------------------------------
  logic [Aw-1:0]   ra [2], rb [2], wa [2];
  logic [W-1:0]    rda [2], rdb [2], wd [2];
  logic            we [2];
  logic [NAw-1:0]  nra [2], nwa [2];
  logic [W-1:0]    nrd [2], nwd [2], nrd_unused [2];
  logic            nwe [2];
  logic            sq_start [2], sq_take [2], sq_done [2], sq_we [2];
  logic [Aw-1:0]   sq_ra [2], sq_rb [2], sq_wa [2];
  logic [W-1:0]    sq_wd [2], sq_cpa [2];
  logic [TagW-1:0] sq_nra [2];
  desc_t           sq_desc [2];
  logic            rc_prep [2], rc_red [2], rc_done [2], rc_we [2], rc_nwe [2], rc_own [2];
  logic [Aw-1:0]   rc_ra [2], rc_rb [2], rc_wa [2];
  logic [W-1:0]    rc_wd [2], rc_nwd [2];
  logic [TagW-1:0] rc_nwa [2];
  logic [15:0]     rc_n [2];
  logic [7:0]      rc_x [2], rc_m [2];
  logic            pg_init [2], pg_take [2], pg_align [2], pg_adone [2], pg_norm [2];
  logic            pg_clear [2], pg_push [2];
  logic [3:0]      pg_mode [2], pg_k;
  desc_t           pg_desc [2], pg_desc1 [2];
  logic [15:0]     pg_elen [2], pg_eload [2];
  logic [TagW-1:0] f_r [2], em1_r [2], fp1_r [2], fm1_r [2];
  logic            inj_valid [2], dinj_valid [2], dinj_first [2];
  logic [W-1:0]    inj_a [2], inj_b [2], inj_n [2], dinj_a [2], dinj_b [2], dinj_n [2];
  logic            a_lstart [2], a_res [2], a_qv [2];
  logic [W-1:0]    a_s1 [2], a_s2 [2], a_q [2];
  logic [TagW-1:0] a_tag [2];
  // io and alu
  logic            io_load, io_store, io_ldone, io_sdone, io_we [2], io_nwe, io_eclr [2], io_epush [2];
  logic [7:0]      io_err;
  logic [Aw-1:0]   io_wa [2], io_ra;
  logic [W-1:0]    io_wd;
  logic [TagW-1:0] io_nwa;
  logic [31:0]     io_eword;
  logic [15:0]     store_words;
  logic [7:0]      store_ent;
  logic            alu_start, alu_busy, alu_done, alu_flag, alu_we;
  logic [1:0]      alu_mode;
  logic [7:0]      alu_x, alu_ref;
  logic [15:0]     alu_words;
  logic [Aw-1:0]   alu_ra0, alu_rb0, alu_ra1, alu_wa;
  logic [W-1:0]    alu_wd;

  // ---- operation geometry -------------------------------------------------------------------------
  logic        is_crt, is_ct, split, has_exp, reduce_run;
  logic [15:0] n_r [2], f0n, f1n, fN;
  // registered (stable from the second cycle of an operation): f, f + 1, f - 1 per HSCM, the CRT
  // word counts and the store geometry, so that no comparator downstream starts at an adder
  logic [TagW-1:0] f_q [2], f_d [2], fp1_q [2], fp1_d [2], fm1_q [2], fm1_d [2], em1_q [2], em1_d [2];
  logic [15:0]     f0n_q, f0n_d, f1n_q, f1n_d, fN_q, fN_d, sw_q, sw_d;
  logic [7:0]      se_q, se_d;

  // W-bit words of an operand or result: m f, f = ceil((n + 2k + 2) / k) digits of k bits
  function automatic logic [15:0] fwords(logic [15:0] n);
    return 16'(Mk) * ((n + 16'(3 * K + 1)) >> Lk);
  endfunction

  function automatic logic [15:0] pw(logic [15:0] bits);
    return (bits + 16'd31) >> 5;
  endfunction

  // the operation's decoded flags, registered with op_q (they fan out to the whole ring)
  logic crt_q, crt_d, ct_q, ct_d, spl_q, spl_d, hex_q, hex_d, rrun_q, rrun_d;

  always_comb begin
    crt_d  = op_d == OP_RSA_CRT;
    ct_d   = op_d == OP_MODEXP_CT;
    spl_d  = crt_d || ct_d;
    hex_d  = op_d == OP_MODEXP || ct_d || crt_d;
    rrun_d = !(op_d == OP_MONTMUL || op_d == OP_MUL || op_d == OP_ZEROIZE);
  end

  always_comb begin
    is_crt  = crt_q;
    is_ct   = ct_q;
    split   = spl_q;
    has_exp = hex_q;
    reduce_run = rrun_q;
    n_r[0]  = is_crt ? elen_q : len_q;
    n_r[1]  = is_crt ? lenq_q : len_q;
    f0n_d   = fwords(n_r[0]);
    f1n_d   = fwords(n_r[1]);
    fN_d    = fwords(len_q);
    f0n     = f0n_q;
    f1n     = f1n_q;
    fN      = fN_q;
    for (int r = 0; r < 2; r++) begin
      // a product: m (f+2) passes (the last one's index fp1) of e = m (f+2) - 1 words
      f_d[r]   = TagW'(fwords(n_r[r]));
      fp1_d[r] = f_d[r] + TagW'(2 * Mk - 1);
      em1_d[r] = f_d[r] + TagW'(2 * Mk - 2);
      fm1_d[r] = f_d[r] - TagW'(1);
      if (wipe) {f_d[r], fp1_d[r], fm1_d[r], em1_d[r]} = '0;
      f_r[r]   = f_q[r];
      em1_r[r] = em1_q[r];
      fp1_r[r] = fp1_q[r];
      fm1_r[r] = fm1_q[r];
    end
    unique case (op_q)
      OP_MONTMUL: begin
        sw_d = pw(len_q + 16'(2 * K + 1));
        se_d = ENT_RES;
      end
      OP_MUL: begin
        sw_d = 16'd2 * pw(len_q);
        se_d = ENT_PR;
      end
      default: begin
        sw_d = pw(len_q);
        se_d = ENT_Y;
      end
    endcase
    if (wipe) {f0n_d, f1n_d, fN_d, sw_d, se_d} = '0;
    store_words = sw_q;
    store_ent   = se_q;
  end

  // ---- command decode ---------------------------------------------------------------------------
  logic       cmd_err;
  logic [7:0] cmd_st;
  op_e        cop;

  always_comb begin
    cop     = op_e'(eng_i.cmd.op);
    cmd_err = 1'b0;
    cmd_st  = ST_OK;
    unique case (cop)
      OP_MONTMUL, OP_MODMUL, OP_MODEXP, OP_MODEXP_CT, OP_MODRED, OP_MUL, OP_RSA_CRT, OP_ZEROIZE: ;
      default: begin
        cmd_err = 1'b1;
        cmd_st  = ST_ERR_OPCODE;
      end
    endcase
    if (!cmd_err && cop != OP_ZEROIZE
        && (((cop == OP_MODEXP_CT || cop == OP_RSA_CRT) && (Pes < 2 || Pes % 2 != 0))
                     || (cop == OP_MODEXP && 32'(eng_i.cmd.arg[3:0]) > MaxWindow)
                     || (cop == OP_RSA_CRT && 32'(eng_i.cmd.arg[19:16]) > MaxWindow)
                     || (cop == OP_RSA_CRT && 32'(eng_i.cmd.arg[31:24]) > MaxXBits))) begin
      cmd_err = 1'b1;
      cmd_st  = ST_ERR_UNSUPPORTED;
    end
    if (!cmd_err && cop != OP_ZEROIZE && (32'(eng_i.cmd.len) < MinLen || 32'(eng_i.cmd.len) > MaxLen
                     || ((cop == OP_MODEXP || cop == OP_MODEXP_CT) && 32'(eng_i.cmd.elen) > MaxLen))) begin
      cmd_err = 1'b1;
      cmd_st  = ST_ERR_LENGTH;
    end
    if (!cmd_err && cop == OP_RSA_CRT) begin
      logic [15:0] a, b;
      a = eng_i.cmd.elen;
      b = eng_i.cmd.arg[15:0];
      if (32'(a) < MinLen || 32'(b) < MinLen || 32'(a) > MaxLen / 2 || 32'(b) > MaxLen / 2
          || ((a > b) ? a - b : b - a) > 16'(2 * K)) begin
        cmd_err = 1'b1;
        cmd_st  = ST_ERR_LENGTH;
      end
    end
  end

  // ---- phase control of the two HSCMs -----------------------------------------------------------
  logic [1:0] act;           // HSCMs taking part in the current phase
  logic       rdone [2];     // HSCM r has finished its part (this cycle included)
  logic       ph_done;

  always_comb begin
    unique case (st_q)
      S_RECRED: act = 2'b01;
      default:  act = split ? 2'b11 : 2'b01;
    endcase
    ph_done = 1'b1;
    for (int r = 0; r < 2; r++) begin
      rs_d[r]     = rs_q[r];
      sq_start[r] = 1'b0;
      rc_prep[r]  = 1'b0;
      rc_red[r]   = 1'b0;
      rc_n[r]     = n_r[r];
      rc_x[r]     = ENT_RES;
      rc_m[r]     = ENT_MOD;
      if (first_q && act[r]) begin
        unique case (st_q)
          S_PREP: begin
            rc_prep[r] = 1'b1;
            rs_d[r] = RC_PREP;
          end
          S_CHKMUL, S_RUN, S_RECMUL: begin
            sq_start[r] = 1'b1;
            rs_d[r] = RC_CHAIN;
          end
          S_RECRED: begin
            rc_red[r] = 1'b1;
            rs_d[r] = RC_RED;
          end
          default: ;
        endcase
      end
      unique case (rs_q[r])
        RC_PREP, RC_RED: if (rc_done[r]) rs_d[r] = RC_DONE;
        RC_CHAIN: if (sq_done[r]) begin
          rs_d[r] = (st_q == S_RUN && reduce_run && (r == 0 || is_crt)) ? RC_REDGO : RC_DONE;
        end
        RC_REDGO: begin
          rc_red[r] = 1'b1;
          rs_d[r] = RC_RED;
        end
        default: ;
      endcase
      rdone[r] = rs_d[r] == RC_DONE;
      if (act[r] && !rdone[r]) ph_done = 1'b0;
    end
    if (st_q == S_RECRED) begin
      rc_x[0] = ENT_X;
      rc_m[0] = ENT_NMOD;
      rc_n[0] = len_q;
    end
  end

  // ---- main state machine -----------------------------------------------------------------------
  logic        to_chain;
  logic [16:0] c;            // current range check

  assign c = range_chk(op_q, rk_q);
  // a chain state is entered in the next cycle (the program generators load their first
  // descriptor now): the transitions into S_CHKMUL, S_RUN, S_RECMUL below, written out so that
  // the ALU's data-dependent flag is not on this path (after S_CHKALU an error ends the operation
  // instead; the loaded descriptor is then unused)
  always_comb begin
    unique case (st_q)
      S_RCHK:   to_chain = !first_q && !rkw_q && !c[16] && (op_q == OP_MONTMUL || op_q == OP_MUL);
      S_PREP:   to_chain = ph_done;
      S_CHKALU: to_chain = alu_done;
      S_RUN:    to_chain = ph_done && is_crt;
      default:  to_chain = 1'b0;
    endcase
  end

  always_comb begin
    st_d     = st_q;
    op_d     = op_q;
    len_d    = len_q;
    elen_d   = elen_q;
    lenq_d   = lenq_q;
    lpx_d    = lpx_q;
    lqx_d    = lqx_q;
    win_d    = win_q;
    status_d = status_q;
    cyc_d    = cyc_q;
    io_d     = io_q;
    rk_d     = rk_q;
    rkw_d    = rkw_q;
    wiped_d  = wiped_q;
    done   = 1'b0;
    io_load  = 1'b0;
    io_store = 1'b0;
    alu_start = 1'b0;
    alu_mode  = ALU_CMP;
    alu_x     = ENT_A;
    alu_ref   = ENT_MOD;
    alu_words = 16'(Ew);
    for (int r = 0; r < 2; r++) begin
      al_d[r]     = al_q[r] || pg_adone[r];
      pg_align[r] = 1'b0;
    end

    unique case (st_q)
      S_IDLE: if (eng_i.cmd_valid) begin
        op_d     = cop;
        len_d    = eng_i.cmd.len;
        elen_d   = eng_i.cmd.elen;
        lenq_d   = eng_i.cmd.arg[15:0];
        lpx_d    = eng_i.cmd.elen + ((cop == OP_RSA_CRT) ? 16'(eng_i.cmd.arg[31:24]) : 16'd0);
        lqx_d    = eng_i.cmd.arg[15:0] + ((cop == OP_RSA_CRT) ? 16'(eng_i.cmd.arg[31:24]) : 16'd0);
        win_d    = (cop == OP_RSA_CRT) ? eng_i.cmd.arg[19:16] : eng_i.cmd.arg[3:0];
        cyc_d    = '0;
        io_d     = '0;
        status_d = cmd_st;
        wiped_d  = 1'b0;
        st_d     = cmd_err ? S_DONE : S_LOAD;
        if (cop == OP_ZEROIZE) begin   // the wipe keeps no length or argument either
          len_d  = '0;
          elen_d = '0;
          lenq_d = '0;
          lpx_d  = '0;
          lqx_d  = '0;
          win_d  = '0;
          st_d   = S_WIPE;
        end
      end
      S_WIPE: begin   // one RAM word per cycle (the RAM ports below), every unit held at 0
        cyc_d = cyc_q + 32'd1;
        if (cyc_q == 32'(Depth - 1)) begin
          wiped_d = 1'b1;
          st_d    = S_DONE;
        end
      end
      S_LOAD: begin
        io_d    = io_q + 32'd1;
        io_load = first_q;
        if (io_ldone) begin
          if (io_err != ST_OK) begin
            status_d = io_err;
            st_d = S_DONE;
          end else begin
            st_d = has_exp ? S_ALIGN : S_RCHK;
          end
        end
      end
      S_ALIGN: begin
        io_d = io_q + 32'd1;
        pg_align[0] = first_q;
        pg_align[1] = first_q && is_crt;
        al_d[0] = !first_q && (al_q[0] || pg_adone[0]);
        al_d[1] = !first_q && (al_q[1] || pg_adone[1] || !is_crt);
        if (al_d[0] && al_d[1]) st_d = S_RCHK;
      end
      S_RCHK: begin
        io_d = io_q + 32'd1;
        if (first_q) begin
          rk_d  = '0;
          rkw_d = 1'b0;
        end else if (!rkw_q) begin
          if (c[16]) begin
            alu_start = 1'b1;
            alu_mode  = ALU_CMP;
            alu_x     = c[15:8];
            alu_ref   = c[7:0];
            rkw_d     = 1'b1;
          end else begin
            st_d = (op_q == OP_MONTMUL || op_q == OP_MUL) ? S_RUN : S_PREP;
          end
        end else if (alu_done) begin
          rkw_d = 1'b0;
          rk_d  = rk_q + 2'd1;
          if (alu_flag) begin
            status_d = ST_ERR_OPERAND_RANGE;
            st_d = S_DONE;
          end
        end
      end
      S_PREP: begin
        cyc_d = cyc_q + 32'd1;
        if (ph_done) st_d = is_crt ? S_CHKMUL : S_RUN;
      end
      S_CHKMUL: begin
        cyc_d = cyc_q + 32'd1;
        if (ph_done) begin     // the ALU starts now: its first read is in the chain's last cycle
          st_d      = S_CHKALU;
          alu_start = 1'b1;
          alu_mode  = ALU_CHECK;
          alu_words = 16'd2 * ((f0n > f1n) ? f0n : f1n);
        end
      end
      S_CHKALU: begin
        cyc_d     = cyc_q + 32'd1;
        if (alu_done) begin
          if (alu_flag) begin
            status_d = ST_ERR_NO_INVERSE;
            st_d = S_DONE;
          end else begin
            st_d = S_RUN;
          end
        end
      end
      S_RUN: begin
        cyc_d = cyc_q + 32'd1;
        if (ph_done) st_d = is_crt ? S_RECMUL : S_STORE;
      end
      S_RECMUL: begin
        cyc_d = cyc_q + 32'd1;
        if (ph_done) begin     // the ALU starts now (see S_CHKMUL)
          st_d      = S_RECADD;
          alu_start = 1'b1;
          alu_mode  = ALU_ADD;
          alu_words = 16'd2 * ((f0n > f1n) ? f0n : f1n);
        end
      end
      S_RECADD: begin
        cyc_d     = cyc_q + 32'd1;
        if (alu_done) st_d = S_RECRED;
      end
      S_RECRED: begin
        cyc_d = cyc_q + 32'd1;
        if (ph_done) st_d = S_STORE;
      end
      S_STORE: begin
        io_d     = io_q + 32'd1;
        io_store = first_q;
        if (io_sdone) st_d = S_DONE;
      end
      default: begin  // S_DONE
        done = 1'b1;
        st_d   = S_IDLE;
      end
    endcase
    // the progress watchdog: a stalled unit (a flipped PE, FIFO or sequencer control bit: a
    // product that never completes) ends the operation with ERR_FAULT and the wipe
    if (stall) begin
      status_d = ST_ERR_FAULT;
      cyc_d    = '0;
      st_d     = S_WIPE;
    end
    if (wipe) begin
      rk_d  = '0;
      rkw_d = 1'b0;
      for (int r = 0; r < 2; r++) al_d[r] = 1'b0;
    end
  end

  assign wipe = st_q == S_WIPE || wiped_q;

  // ---- progress watchdog (fault countermeasure, doc/security.md) --------------------------------
  // Every wait of a running operation ends within StallMax cycles of the previous event: a state
  // change, a product's last iteration starting in either ring (a boundary), a chain, a reduction,
  // an ALU pass or an exponent alignment finishing. A product on a ring of L PEs takes at most
  // ceil((f+2)/L) max(e, 2L) + 2L cycles <= (Ew+2)(Ew+2 Pes+6); the loads (every operand with its
  // zero fill), the alignment (1 bit per cycle) and the store fit in the rest. A flipped control
  // bit that stalls the array (a dropped product, a FIFO pointer, a chain's valid bit) would
  // otherwise leave the engine waiting for ever (pka_top's watchdog bound is far above the
  // operation's cycles). No cycle of a fault-free operation changes.
  // The product budget: a flip that keeps the rings busy without end (a program generator's digit
  // size or state: products go on, the exponent never runs out) is caught by counting each ring's
  // products against a bound taken from the command when it is accepted (not from the registers the
  // program runs on): 2 per exponent bit (a squaring and a multiplication, the most any method
  // takes), the window table, and 32 for the conversions, checks and the CRT recombination.
  localparam int unsigned StallMax = (Ew + 2) * (Ew + 2 * Pes + 6) + 2 * EBits + 32 * Ew + 512;
  localparam int unsigned StW      = $clog2(StallMax + 1);
  logic [StW-1:0] stl_q, stl_d;
  logic [15:0]    pb_q, pb_d, pn_q [2], pn_d [2];   // product budget; products per ring
  logic [15:0]    eb;
  logic           progress, active, over;

  always_comb begin
    active   = !(st_q == S_IDLE || st_q == S_DONE || st_q == S_WIPE);
    progress = first_q || a_lstart[0] || a_lstart[1] || sq_done[0] || sq_done[1] || rc_done[0]
               || rc_done[1] || alu_done || pg_adone[0] || pg_adone[1];
    stl_d    = (!active || progress) ? '0 : stl_q + StW'(1);
    // the budget, from the accepted command (lengths were range-checked: eb <= MaxLen/2 + MaxXBits
    // for RSA_CRT, elen <= MaxLen for MODEXP, MODEXP_CT)
    unique case (cop)
      OP_RSA_CRT: eb = ((eng_i.cmd.elen > eng_i.cmd.arg[15:0]) ? eng_i.cmd.elen : eng_i.cmd.arg[15:0])
                       + 16'(eng_i.cmd.arg[31:24]);
      OP_MODEXP, OP_MODEXP_CT: eb = eng_i.cmd.elen;
      default: eb = '0;
    endcase
    pb_d = pb_q;
    if (st_q == S_IDLE && eng_i.cmd_valid) pb_d = (eb << 1) + 16'(TblN + 32);
    over = 1'b0;
    for (int r = 0; r < 2; r++) begin
      pn_d[r] = (st_q == S_IDLE || st_q == S_WIPE) ? '0 : pn_q[r] + 16'(a_lstart[r]);
      if (pn_q[r] > pb_q) over = 1'b1;
    end
    if (st_q == S_WIPE) pb_d = '0;   // the wipe leaves no register set (tb: wipe_after_secret_operations)
    stall    = FaultCheck && active && (stl_q >= StW'(StallMax) || over);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stl_q    <= '0;
      pb_q     <= '0;
      pn_q[0]  <= '0;
      pn_q[1]  <= '0;
    end else begin
      stl_q    <= stl_d;
      pb_q     <= pb_d;
      pn_q[0]  <= pn_d[0];
      pn_q[1]  <= pn_d[1];
    end
  end

  // range checks after loading: {valid, X, REF} (X < REF, HSCM 0)
  function automatic logic [16:0] range_chk(op_e op, logic [1:0] idx);
    logic [16:0] x;
    x = '0;
    unique case (op)
      OP_MONTMUL, OP_MODMUL: begin
        if (idx == 2'd0) x = {1'b1, ENT_A, ENT_MOD};
        if (idx == 2'd1) x = {1'b1, ENT_B, ENT_MOD};
      end
      OP_MODEXP, OP_MODEXP_CT: if (idx == 2'd0) x = {1'b1, ENT_A, ENT_MOD};
      OP_RSA_CRT: if (idx == 2'd0) x = {1'b1, ENT_MSG, ENT_NMOD};
      default: ;
    endcase
    return x;
  endfunction

  // ---- program generators ------------------------------------------------------------------------
  always_comb begin
    // A1 digit size = window (0: binary); RSA_CRT's fixed window: window - 1 bits (at least 1),
    // so that window w uses the same 2^(w-1)-entry table in both (pka.model.hscm.crt_window_k)
    if (is_crt) pg_k = (win_q <= 4'd2) ? 4'd1 : win_q - 4'd1;
    else pg_k = (win_q == '0) ? 4'd1 : win_q;
    for (int r = 0; r < 2; r++) begin
      pg_init[r] = to_chain;
      if (st_q == S_PREP && is_crt) pg_mode[r] = PG_CHECK;         // the chain after st_q
      else if (st_q == S_RUN) pg_mode[r] = PG_RECOMB;
      else begin
        unique case (op_q)
          OP_MONTMUL:   pg_mode[r] = PG_MONTMUL;
          OP_MODMUL:    pg_mode[r] = PG_MODMUL;
          OP_MODEXP:    pg_mode[r] = PG_EXP;
          OP_MODEXP_CT: pg_mode[r] = PG_LADDER;
          OP_MODRED:    pg_mode[r] = PG_MODRED;
          OP_MUL:       pg_mode[r] = PG_MUL;
          default:      pg_mode[r] = PG_CRT;
        endcase
      end
      pg_elen[r]  = is_crt ? ((r == 0) ? lpx_q : lqx_q) : elen_q;   // CRT: bits(p|q) + X
      pg_eload[r] = pw(pg_elen[r]) << 5;
      pg_norm[r]  = !is_ct && !is_crt;   // leading zeros skipped for MODEXP (public E) only
      pg_clear[r] = io_eclr[r];
      pg_push[r]  = io_epush[r];
      pg_take[r]  = sq_take[r];
    end
    sq_desc[0] = pg_desc[0];
    sq_desc[1] = is_ct ? pg_desc1[0] : pg_desc[1];
  end

  // ---- RAM port ownership ---------------------------------------------------------------------
  // Reads: the unit that owns the phase.  Writes: every unit writes only while it runs its own
  // phase (the sequencer's registered port also in the cycle after its chain's last word), so
  // the write ports are the OR of the units' ports, with no phase decoding in front of the RAM.
  always_comb begin
    for (int r = 0; r < 2; r++) begin
      rc_own[r] = rc_prep[r] || rc_red[r] || rs_q[r] == RC_PREP || rs_q[r] == RC_RED;
      if (rc_own[r]) begin
        ra[r] = rc_ra[r];
        rb[r] = rc_rb[r];
      end else begin
        ra[r] = sq_ra[r];
        rb[r] = sq_rb[r];
      end
      if (alu_start || st_q == S_RCHK || st_q == S_CHKALU || st_q == S_RECADD) begin
        ra[r] = (r == 0) ? alu_ra0 : alu_ra1;
        rb[r] = alu_rb0;
      end
      if (st_q == S_STORE) ra[r] = io_ra;
      we[r] = sq_we[r] || rc_we[r] || io_we[r] || ((r == 0) && alu_we);
      if (sq_we[r]) begin
        wa[r] = sq_wa[r];
        wd[r] = sq_wd[r];
      end else if (rc_we[r]) begin
        wa[r] = rc_wa[r];
        wd[r] = rc_wd[r];
      end else if (io_we[r]) begin
        wa[r] = io_wa[r];
        wd[r] = io_wd;
      end else begin
        wa[r] = alu_wa;
        wd[r] = alu_wd;
      end
      nra[r] = NAw'(sq_nra[r]);
      nwe[r] = rc_nwe[r] || ((r == 0) && io_nwe);
      nwa[r] = rc_nwe[r] ? NAw'(rc_nwa[r]) : NAw'(io_nwa);
      nwd[r] = rc_nwe[r] ? rc_nwd[r] : io_wd;
      if (st_q == S_WIPE) begin   // OP_ZEROIZE: word cyc_q of both RAMs (the N RAMs wrap round)
        we[r]  = 1'b1;
        wa[r]  = Aw'(cyc_q);
        wd[r]  = '0;
        nwe[r] = 1'b1;
        nwa[r] = NAw'(cyc_q);
        nwd[r] = '0;
      end
    end
  end

  // ---- registers ------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q     <= S_IDLE;
      first_q  <= 1'b0;
      status_q <= ST_OK;
      cyc_q    <= '0;
      io_q     <= '0;
      rs_q[0]  <= RC_IDLE;
      rs_q[1]  <= RC_IDLE;
      al_q[0]  <= 1'b0;
      al_q[1]  <= 1'b0;
      rkw_q    <= 1'b0;
      wiped_q  <= 1'b0;
    end else begin
      st_q     <= st_d;
      first_q  <= st_d != st_q;
      status_q <= status_d;
      cyc_q    <= cyc_d;
      io_q     <= io_d;
      for (int r = 0; r < 2; r++) begin
        rs_q[r] <= (st_d != st_q) ? RC_IDLE : rs_d[r];
        al_q[r] <= al_d[r];
      end
      rkw_q    <= rkw_d;
      wiped_q  <= wiped_d;
    end
  end

  always_ff @(posedge clk_i) begin
    for (int r = 0; r < 2; r++) begin
      f_q[r]   <= f_d[r];
      fp1_q[r] <= fp1_d[r];
      fm1_q[r] <= fm1_d[r];
      em1_q[r] <= em1_d[r];
    end
    f0n_q  <= f0n_d;
    f1n_q  <= f1n_d;
    fN_q   <= fN_d;
    sw_q   <= sw_d;
    se_q   <= se_d;
    op_q   <= op_d;
    crt_q  <= crt_d;
    ct_q   <= ct_d;
    spl_q  <= spl_d;
    hex_q  <= hex_d;
    rrun_q <= rrun_d;
    len_q  <= len_d;
    elen_q <= elen_d;
    lenq_q <= lenq_d;
    lpx_q  <= lpx_d;
    lqx_q  <= lqx_d;
    win_q  <= win_d;
    rk_q   <= rk_d;
  end

  assign cmd_ready = st_q == S_IDLE;
  assign status    = status_q;
  assign cycles    = cyc_q;
  assign io_cycles = io_q;

  // ---- instances ------------------------------------------------------------------------------
  pka_hscm_array #(
    .W     (W),
    .Pes   (Pes),
    .TagW  (TagW),
    .Depth (EMax),
    .Dq    (Mk)
  ) u_array (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .wipe_i       (wipe),
    .split_i      (split),
    .flush_i      (st_q == S_IDLE),
    .em1_i        (em1_r),
    .fp1_i        (fp1_r),
    .inj_valid_i  (inj_valid),
    .inj_a_i      (inj_a),
    .inj_b_i      (inj_b),
    .inj_n_i      (inj_n),
    .dinj_valid_i (dinj_valid),
    .dinj_first_i (dinj_first),
    .dinj_a_i     (dinj_a),
    .dinj_b_i     (dinj_b),
    .dinj_n_i     (dinj_n),
    .last_start_o (a_lstart),
    .res_valid_o  (a_res),
    .res_s1_o     (a_s1),
    .res_s2_o     (a_s2),
    .qv_o         (a_qv),
    .q_o          (a_q),
    .tag_o        (a_tag)
  );

  for (genvar r = 0; r < 2; r++) begin : g_hscm
    pka_hscm_seq #(
      .W    (W),
      .TagW (TagW),
      .Aw   (Aw),
      .Ew   (Ew),
      .Dq   (Mk)
    ) u_seq (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .wipe_i       (wipe),
      .start_i      (sq_start[r]),
      .f_i          (f_r[r]),
      .em1_i        (em1_r[r]),
      .fm1_i        (fm1_r[r]),
      .desc_i       (sq_desc[r]),
      .desc_take_o  (sq_take[r]),
      .last_start_i (a_lstart[r]),
      .res_s1_i     (a_s1[r]),
      .res_s2_i     (a_s2[r]),
      .qv_i         (a_qv[r]),
      .q_i          (a_q[r]),
      .tag_i        (a_tag[r]),
      .other_i      (sq_cpa[1 - r]),
      .cpa_o        (sq_cpa[r]),
      .ra_o         (sq_ra[r]),
      .rb_o         (sq_rb[r]),
      .rda_i        (rda[r]),
      .rdb_i        (rdb[r]),
      .nra_o        (sq_nra[r]),
      .nrd_i        (nrd[r]),
      .we_o         (sq_we[r]),
      .wa_o         (sq_wa[r]),
      .wd_o         (sq_wd[r]),
      .inj_valid_o  (inj_valid[r]),
      .inj_a_o      (inj_a[r]),
      .inj_b_o      (inj_b[r]),
      .inj_n_o      (inj_n[r]),
      .dinj_valid_o (dinj_valid[r]),
      .dinj_first_o (dinj_first[r]),
      .dinj_a_o     (dinj_a[r]),
      .dinj_b_o     (dinj_b[r]),
      .dinj_n_o     (dinj_n[r]),
      .done_o       (sq_done[r])
    );

    pka_hscm_prog #(
      .EBits     (EBits),
      .MaxWindow (MaxWindow)
    ) u_prog (
      .clk_i         (clk_i),
      .rst_ni        (rst_ni),
      .wipe_i        (wipe),
      .e_clear_i     (pg_clear[r]),
      .e_push_i      (pg_push[r]),
      .e_word_i      (io_eword),
      .align_start_i (pg_align[r]),
      .elen_i        (pg_elen[r]),
      .eload_i       (pg_eload[r]),
      .norm_i        (pg_norm[r]),
      .k_i           (pg_k),
      .align_done_o  (pg_adone[r]),
      .init_i        (pg_init[r]),
      .mode_i        (pg_mode[r]),
      .desc_o        (pg_desc[r]),
      .desc1_o       (pg_desc1[r]),
      .take_i        (pg_take[r])
    );

    pka_hscm_redc #(
      .W    (W),
      .TagW (TagW),
      .Aw   (Aw),
      .Ew   (Ew),
      .K    (K)
    ) u_redc (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .wipe_i  (wipe),
      .prep_i  (rc_prep[r]),
      .red_i   (rc_red[r]),
      .n_i     (rc_n[r]),
      .x_ent_i (rc_x[r]),
      .m_ent_i (rc_m[r]),
      .t_ent_i (ENT_Y),
      .ra_o    (rc_ra[r]),
      .rb_o    (rc_rb[r]),
      .rda_i   (rda[r]),
      .rdb_i   (rdb[r]),
      .we_o    (rc_we[r]),
      .wa_o    (rc_wa[r]),
      .wd_o    (rc_wd[r]),
      .nwe_o   (rc_nwe[r]),
      .nwa_o   (rc_nwa[r]),
      .nwd_o   (rc_nwd[r]),
      .done_o  (rc_done[r])
    );

    pka_hscm_ram #(
      .W     (W),
      .Depth (Depth),
      .Aw    (Aw)
    ) u_ram (
      .clk_i (clk_i),
      .ra_i  (ra[r]),
      .rda_o (rda[r]),
      .rb_i  (rb[r]),
      .rdb_o (rdb[r]),
      .we_i  (we[r]),
      .wa_i  (wa[r]),
      .wd_i  (wd[r])
    );

    pka_hscm_ram #(
      .W     (W),
      .Depth (EMax),
      .Aw    (NAw)
    ) u_nram (
      .clk_i (clk_i),
      .ra_i  (nra[r]),
      .rda_o (nrd[r]),
      .rb_i  ('0),
      .rdb_o (nrd_unused[r]),
      .we_i  (nwe[r]),
      .wa_i  (nwa[r]),
      .wd_i  (nwd[r])
    );
  end

  pka_hscm_io #(
    .W     (W),
    .MemAw (MemAw),
    .Aw    (Aw),
    .Ew    (Ew),
    .TagW  (TagW),
    .K     (K)
  ) u_io (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .wipe_i        (wipe),
    .load_i        (io_load),
    .store_i       (io_store),
    .op_i          (op_q),
    .len_i         (len_q),
    .elen_i        (elen_q),
    .lenq_i        (lenq_q),
    .dpl_i         (lpx_q),
    .dql_i         (lqx_q),
    .store_words_i (store_words),
    .store_ent_i   (store_ent),
    .load_done_o   (io_ldone),
    .load_err_o    (io_err),
    .store_done_o  (io_sdone),
    .mem_req_o     (mem_req),
    .mem_gnt_i     (eng_i.mem.gnt),
    .mem_we_o      (mem_we),
    .mem_addr_o    (mem_addr),
    .mem_wdata_o   (mem_wdata),
    .mem_rvalid_i  (eng_i.mem.rvalid),
    .mem_rdata_i   (eng_i.mem.rdata),
    .we_o          (io_we),
    .wa_o          (io_wa),
    .wd_o          (io_wd),
    .nwe_o         (io_nwe),
    .nwa_o         (io_nwa),
    .e_clear_o     (io_eclr),
    .e_push_o      (io_epush),
    .e_word_o      (io_eword),
    .ra_o          (io_ra),
    .rd_i          (rda[0])
  );

  pka_hscm_alu #(
    .W  (W),
    .Aw (Aw),
    .Ew (Ew)
  ) u_alu (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .wipe_i    (wipe),
    .start_i   (alu_start),
    .mode_i    (alu_mode),
    .x_ent_i   (alu_x),
    .ref_ent_i (alu_ref),
    .words_i   (alu_words),
    .lim0_i    (16'd2 * f0n),
    .lim1_i    (16'd2 * f1n),
    .limn_i    (fN),
    .ra0_o     (alu_ra0),
    .rb0_o     (alu_rb0),
    .ra1_o     (alu_ra1),
    .rda0_i    (rda[0]),
    .rdb0_i    (rdb[0]),
    .rda1_i    (rda[1]),
    .we0_o     (alu_we),
    .wa0_o     (alu_wa),
    .wd0_o     (alu_wd),
    .busy_o    (alu_busy),
    .done_o    (alu_done),
    .flag_o    (alu_flag)
  );

  logic unused;
  assign unused = ^{nrd_unused[0], nrd_unused[1], alu_busy, a_res[0], a_res[1], eng_i.cmd.arg[23:20],
                    io_nwa};
endmodule
