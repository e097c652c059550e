// SPDX-License-Identifier: Apache-2.0
// pka_hscm_prog: exponentiation control of one HSCM: the program of products its sequencer runs,
// one descriptor (pka_hscm_pkg::desc_t) per product, computed ahead of the ring.
//
// Programs (mode_i):
//   MONTMUL  HSCM(A, B) -> RES                       MODMUL  HSCM(A, W), HSCM(., B) -> RES
//   MODRED   MRDC: HSCM(1, w mod R) + floor(w/R), HSCM(., W) -> RES     (eq. 5, W = R^2)
//   MUL, CHECK, RECOMB   one MULT product (A B | U QQ | Y QQ) -> PR (Algorithm 4)
//   EXP      HSCM(A, W) -> T0 (C in the Montgomery domain), then Algorithm A1, HSCM(S, 1) -> RES
//   CRT      MRDC (two products, W = R^3) -> T0, the fixed window (below), HSCM(S, U) -> RES
//   LADDER   two HSCMs: HSCM(1, W) | HSCM(A, W), one step per exponent bit (ring 0:
//            HSCM(R0, R_bit), ring 1: HSCM(R1, R_bit), R_bit is CPA or OTHER), HSCM(R0, 1) -> RES
// Algorithm A1 (Appendix A) with k = window (1: left-to-right binary): C^2 -> SQ and the odd powers
// C_3 .. C_(2^k - 1) -> T1 .., then digits of k bits aligned at the exponent's bit 0, from the
// top: the top digit 2^t o (h bits): S = C_o, t squarings; a zero digit: k squarings; a digit
// 2^t o: k - t squarings, S C_o, t squarings.  A RAM operand that the previous product is still
// writing (C_o = the last table entry) is taken from the chain (CPA) instead.
// E = 0 (EXP): HSCM(1, W), HSCM(., 1) -> RES.
// CRT (constant time, the fixed window): MRDC -> T0 (C^1), HSCM(1, W = R^3) and HSCM(., 1) -> SQ
// (C^0 = R mod p, the Montgomery one), C^2 = C C -> T1, C^j = C^(j-1) C -> T(j-1) up to
// j = 2^k - 1; then every bit of the exponent (elen_i = bits(p|q) + X bits, X > 0 for a
// blinded exponent; leading zeros kept) in digits from the top, k bits each and the last one
// elen mod k: S = C^(top digit); per further digit d of b bits, b squarings and S C^d, also for
// d = 0 (SQ); HSCM(S, U) -> RES.  The products depend on elen_i and k only; the exponent
// chooses which table entry a multiplication reads.
// wipe_i (OP_ZEROIZE) clears every register and, one word per cycle, the exponent memory
// (EBits/32 cycles; the core's wipe lasts Depth >= EBits/32 cycles and holds wipe_i after it).
//
// The exponent: the loader's words (e_clear_i, then e_push_i per 32-bit word, least significant
// first, at most EBits/32 words) are written to a word-addressed memory e_q (one write port,
// one synchronous read port: block or LUT RAM) and read back a word at a time.  The unit sees
// the exponent as a register that is shifted left (the top bit first, zeros coming in): a bit
// pointer eu_q (32 + the exponent bit at the top) replaces the shift, the word holding that bit
// is kept in ehi_q, the word below it in elo_q, and the memory's read register erd_q holds the
// word below that (read at the current pointer every cycle).  A shift of at most 8 bits crosses
// at most one word boundary: ehi_q takes elo_q, elo_q takes erd_q.  The top digit (8 bits) is
// a window of {ehi_q, elo_q}, so the memory is not on the digit's path and its address comes
// from a register.  Bits below the exponent's bit 0 read as 0 (reads outside the
// memory return 0).  Loading, alignment and program take the cycles the register took.
// Alignment (align_start_i): bits above elen_i dropped, and for A1 (norm_i) leading zeros
// skipped and the top digit's length h = ((bits - 1) mod k) + 1 found by a 16-step division;
// 1 bit per cycle (counted as operand-loading time, io_cycles).  A new descriptor is ready
// within 3 cycles of a take (5 after the top digit when it is odd); boundaries are at least
// 2 (f+2) cycles apart.  The loader's pushes, the alignment and the program's shifts never
// overlap (the core loads, then aligns, then runs the chain).
// Timing: the program's shifts of the exponent (by h, k or 1 bit) are decided in one cycle and
// applied in the next (sh_q), and the digit (dig, its trailing zeros tz and odd part) is decoded
// into registers from the stable exponent window (dok_q: decoded from the current one).
`default_nettype none

module pka_hscm_prog
  import pka_hscm_pkg::*;
#(
  parameter int unsigned EBits     = 64,  // exponent bits, a multiple of 32, 64..65472 (the
                                         // core's max(MaxLen, MaxLen/2 + MaxXBits rounded up
                                         // to 32)); the memory holds EBits/32 words
  parameter int unsigned MaxWindow = 6    // largest A1 digit size, 1..8
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        wipe_i,        // OP_ZEROIZE: every register to 0 (exponent, program, digits)
  // exponent (loaded a word at a time into the exponent memory)
  input  logic        e_clear_i,
  input  logic        e_push_i,
  input  logic [31:0] e_word_i,
  input  logic        align_start_i,
  input  logic [15:0] elen_i,        // exponent bits to use, <= EBits
  input  logic [15:0] eload_i,       // bits shifted in (32 x words), elen_i .. elen_i + 31
  input  logic        norm_i,        // skip leading zeros (A1); 0: ladder (elen_i steps)
  input  logic [3:0]  k_i,           // A1 digit size (>= 1)
  output logic        align_done_o,
  // program
  input  logic        init_i,        // load the first descriptor of program mode_i
  input  logic [3:0]  mode_i,
  output desc_t       desc_o,        // next product of this HSCM
  output desc_t       desc1_o,       // LADDER: next product of the other HSCM
  input  logic        take_i
);
  localparam logic [3:0] PG_MONTMUL = 4'd0, PG_MODMUL = 4'd1, PG_MODRED = 4'd2, PG_MUL = 4'd3,
                         PG_CHECK = 4'd4, PG_RECOMB = 4'd5, PG_EXP = 4'd6, PG_CRT = 4'd7,
                         PG_LADDER = 4'd8;

  initial begin
    if (MaxWindow < 1 || MaxWindow > 8) $fatal(1, "pka_hscm_prog: MaxWindow must be 1..8");
    if (EBits % 32 != 0 || EBits < 64 || EBits > 65472) begin
      $fatal(1, "pka_hscm_prog: EBits must be a multiple of 32, 64..65472");
    end
  end

  // H_*: a descriptor is held for the sequencer; C_*: computing the next one
  typedef enum logic [4:0] {
    G_IDLE, H_END, H_MODMUL1, H_MODRED1, H_MRDC1, H_CONV, H_SQ, H_ODD, H_LASTPRE, H_MAIN,
    H_Z1, H_LAD, C_FIRST, C_MAIN, H_F1, H_F2, H_F3, H_FPOW
  } gst_e;

  typedef enum logic [1:0] {A_IDLE, A_DROP, A_NORM, A_MOD} ast_e;

  localparam int unsigned EWords = EBits / 32;      // exponent memory words
  localparam int unsigned EAw    = $clog2(EWords);   // its address bits
  localparam int unsigned RemW   = $clog2(EBits + 1); // exponent bit counts 0..EBits
  localparam int unsigned EuW    = $clog2(EBits + 64); // the bit pointer 0..EBits+31
  localparam int unsigned EwW    = EuW - 5;          // word pointers 0..EWords (+1)

  gst_e         st_q, st_d;
  ast_e         ast_q, ast_d;
  desc_t        d_q, d_d, d1_q, d1_d;
  // the exponent (secret): memory, pointer, window
  logic [31:0]  e_q [EWords];        // the exponent words, word 0 the least significant
  logic [31:0]  erd_q;               // e_q[era] of the previous cycle: the word below elo_q
  logic [31:0]  ehi_q, ehi_d;        // the word holding the top bit
  logic [31:0]  elo_q, elo_d;        // the word below it
  logic [EuW-1:0] eu_q, eu_d;        // 32 + the index of the top bit (bits below 0 read as 0)
  logic [EwW-1:0] ewp_q, ewp_d;      // words pushed since the clear (the write address)
  logic [EwW-1:0] ewc_q, ewc_d;      // the wipe's write address (EWords-1 down to 0)
  logic [EAw-1:0] era;               // read address: the word below elo_q's
  logic         ewe;                 // write: a pushed word, or a zero while wiping
  logic [EwW-1:0] ewa;
  logic [EAw-1:0] ewi;               // the memory's write address
  logic [EwW-1:0] erx;               // the read's word index, below word 0 wrapped
  logic         erv;                 // the read is inside the memory (else it gives 0)
  logic         ecross;              // this cycle's shift moves the top bit into the word below
  logic [31:0]  ewd;
  logic [63:0]  ewin;                // {ehi_q, elo_q}: the top bit is ewin[32 + eu_q[4:0]]
  logic [8:0]   top9;                // ewin[32 + eu_q[4:0] -: 9]: the top bit after a shift of <= 8
  logic         etop_q, etop_d;      // the top bit, ewin[32 + eu_q[4:0]], kept in a register
  logic [3:0]   esh;                 // the exponent's shift this cycle (bits)
  logic [RemW-1:0] rem_q, rem_d;     // exponent bits not yet consumed
  logic [4:0]   cnt_q, cnt_d;        // alignment counter: bits above elen (eload - elen < 32)
  logic [3:0]   h_q, h_d;            // bits of the top digit
  logic [15:0]  dv_q, dv_d;          // mod-k division: remainder in [3:0], step in [15:8]
  logic [6:0]   j_q, j_d;            // odd power index
  logic [3:0]   sq_q, sq_d, post_q, post_d;
  logic [7:0]   mul_q, mul_d;
  logic         mulv_q, mulv_d;
  logic         src_ram_q, src_ram_d;  // A = B = RAM entry src_ent_q (first A1 product)
  logic [7:0]   src_ent_q, src_ent_d;
  logic [7:0]   last_dst_q, last_dst_d;
  logic [3:0]   k_q, k_d;
  logic         crt_q, crt_d;
  logic [3:0]   sh_q, sh_d;          // exponent shift decided last cycle
  logic [7:0]   dig_q, dig_d, odd_q, odd_d;
  logic [3:0]   tz_q, tz_d;
  logic         dok_q, dok_d;        // dig_q .. decoded from the current window

  function automatic desc_t mk(src_e as, logic [7:0] ae, src_e bs, logic [7:0] be, logic dst,
                               logic [7:0] de, logic mult, logic last);
    desc_t d;
    d.a_src   = as;
    d.a_ent   = ae;
    d.b_src   = bs;
    d.b_ent   = be;
    d.dst_en  = dst;
    d.dst_ent = de;
    d.add_en  = 1'b0;
    d.add_ent = '0;
    d.mult    = mult;
    d.last    = last;
    return d;
  endfunction

  function automatic logic [3:0] ctz8(logic [7:0] v);
    logic [3:0] r;
    r = 4'd0;
    for (int i = 7; i >= 0; i--) if (v[i]) r = 4'(i);
    return r;
  endfunction

  function automatic logic [7:0] tbl(logic [7:0] odd);   // entry of C_odd (odd is odd)
    return ENT_T0 + (odd >> 1);
  endfunction

  function automatic logic [7:0] ftbl(logic [7:0] d);     // fixed window: entry of C^d
    return (d == '0) ? ENT_SQ : ENT_T0 + d - 8'd1;
  endfunction

  logic [7:0] top8, dig;
  logic [3:0] tz, nb;
  desc_t      fin;
  logic       e_chg;
  logic       etop;    // the exponent's top bit
  logic [15:0] dvx;    // the mod-k division's dividend rem - 1 ...
  logic [4:0]  dvr;    // ... and its next partial remainder

  always_comb begin
    st_d = st_q;
    ast_d = ast_q;
    d_d = d_q;
    d1_d = d1_q;
    eu_d = eu_q;
    ehi_d = ehi_q;
    elo_d = elo_q;
    ewp_d = ewp_q;
    ewc_d = EwW'(EWords - 1);
    ewe = 1'b0;
    ewa = ewp_q;
    ewd = e_word_i;
    esh = sh_q;   // the program's shift decided in the previous cycle
    rem_d = rem_q;
    cnt_d = cnt_q;
    h_d = h_q;
    dv_d = dv_q;
    j_d = j_q;
    sq_d = sq_q;
    post_d = post_q;
    mul_d = mul_q;
    mulv_d = mulv_q;
    src_ram_d = src_ram_q;
    src_ent_d = src_ent_q;
    last_dst_d = last_dst_q;
    k_d = k_q;
    crt_d = crt_q;
    align_done_o = 1'b0;
    sh_d = '0;

    // the next digit, decoded into registers (the top digit has h bits, the others k)
    ewin = {ehi_q, elo_q};
    top8 = ewin[{1'b1, eu_q[4:0]} -: 8];
    top9 = ewin[{1'b1, eu_q[4:0]} -: 9];
    // ehi_q[eu_q[4:0]] = top8[7], from a register: the alignment's one-bit-a-cycle loop and the
    // ladder decide on it, and the pointer's multiplexer stays off their path to the pointer
    etop = etop_q;
    if (crt_q) nb = (rem_q < RemW'(k_q)) ? rem_q[3:0] : k_q;   // fixed window: k, the last b
    else nb = (st_q == C_FIRST || st_q == H_LASTPRE || st_q == H_CONV) ? h_q : k_q;
    dig  = top8 >> (4'd8 - nb);
    tz   = ctz8(dig);
    dig_d = dig;
    tz_d  = tz;
    odd_d = dig >> tz;
    dvx  = 16'(rem_q) - 16'd1;
    dvr  = {dv_q[3:0], dvx[dv_q[11:8]]};
    if (dvr >= {1'b0, k_q}) dvr = dvr - {1'b0, k_q};
    fin  = mk(src_ram_q ? SRC_RAM : SRC_CPA, src_ent_q, crt_q ? SRC_RAM : SRC_ONE, ENT_U,
              1'b1, ENT_RES, 1'b0, 1'b1);

    // ---- exponent and alignment ------------------------------------------------------------
    unique case (ast_q)
      A_IDLE: if (align_start_i) begin
        ast_d = A_DROP;
        cnt_d = 5'(eload_i - elen_i);
        rem_d = RemW'(elen_i);
      end
      A_DROP: begin
        if (cnt_q != '0) begin
          esh = 4'd1;
          cnt_d = cnt_q - 5'd1;
        end else if (!norm_i) begin
          ast_d = A_IDLE;
          align_done_o = 1'b1;
        end else begin
          ast_d = A_NORM;
        end
      end
      A_NORM: begin
        if (rem_q != '0 && !etop) begin
          esh = 4'd1;
          rem_d = rem_q - RemW'(1);
        end else begin
          ast_d = A_MOD;
          dv_d = {8'd15, 8'd0};
        end
      end
      default: begin  // A_MOD: (rem - 1) mod k, one dividend bit per step
        if (dv_q[11:8] == 4'd0) begin
          ast_d = A_IDLE;
          align_done_o = 1'b1;
          h_d = dvr[3:0] + 4'd1;
        end
        dv_d = {dv_q[15:8] - 8'd1, 4'd0, dvr[3:0]};
      end
    endcase
    if (align_start_i) k_d = k_i;
    // a shift moves the pointer down; crossing into the word below (at most one: esh <= 8),
    // the window moves one word down and takes the read register's word (read at the current
    // pointer: crossings are at least 24 bits, so several cycles, apart, and the first comes 32
    // bits after the last push)
    ecross = eu_q[4:0] < {1'b0, esh};
    eu_d = eu_q - EuW'(esh);
    if (ecross) begin
      ehi_d = elo_q;
      elo_d = erd_q;
    end
    if (e_clear_i) begin   // an exponent of 0 (no word pushed)
      eu_d  = '0;
      ehi_d = '0;
      elo_d = '0;
      ewp_d = '0;
    end
    if (e_push_i) begin    // the pushed word is the new top word: its bit 31 is at the top
      ewe   = 32'(ewp_q) < EWords;
      ehi_d = e_word_i;
      elo_d = ehi_q;
      eu_d  = {ewp_q + EwW'(1), 5'd31};
      ewp_d = ewp_q + EwW'(1);
    end
    // the top bit at the next pointer: a shift by esh (<= 8) lands inside the current window
    etop_d = top9[4'd8 - esh];
    if (e_clear_i) etop_d = 1'b0;
    if (e_push_i) etop_d = e_word_i[31];

    // ---- program ---------------------------------------------------------------------------
    if (init_i) begin
      crt_d = mode_i == PG_CRT;
      last_dst_d = 8'hFF;
      unique case (mode_i)
        PG_MONTMUL: begin
          d_d = mk(SRC_RAM, ENT_A, SRC_RAM, ENT_B, 1'b1, ENT_RES, 1'b0, 1'b1);
          st_d = H_END;
        end
        PG_MODMUL: begin
          d_d = mk(SRC_RAM, ENT_A, SRC_RAM, ENT_W, 1'b0, '0, 1'b0, 1'b0);
          st_d = H_MODMUL1;
        end
        PG_MODRED: begin
          d_d = mk(SRC_ONE, '0, SRC_RAM, ENT_MSG, 1'b0, '0, 1'b0, 1'b0);
          d_d.add_en = 1'b1;
          d_d.add_ent = ENT_MSG;
          st_d = H_MODRED1;
        end
        PG_MUL: begin
          d_d = mk(SRC_RAM, ENT_A, SRC_RAM, ENT_B, 1'b1, ENT_PR, 1'b1, 1'b1);
          st_d = H_END;
        end
        PG_CHECK: begin
          d_d = mk(SRC_RAM, ENT_U, SRC_RAM, ENT_QQ, 1'b1, ENT_PR, 1'b1, 1'b1);
          st_d = H_END;
        end
        PG_RECOMB: begin
          d_d = mk(SRC_RAM, ENT_Y, SRC_RAM, ENT_QQ, 1'b1, ENT_PR, 1'b1, 1'b1);
          st_d = H_END;
        end
        PG_LADDER: begin
          d_d  = mk(SRC_ONE, '0, SRC_RAM, ENT_W, 1'b0, '0, 1'b0, 1'b0);
          d1_d = mk(SRC_RAM, ENT_A, SRC_RAM, ENT_W, 1'b0, '0, 1'b0, rem_q == '0);
          st_d = H_LAD;
        end
        PG_EXP, PG_CRT: begin
          if (rem_q == '0) begin
            d_d = mk(SRC_ONE, '0, SRC_RAM, ENT_W, 1'b0, '0, 1'b0, 1'b0);
            st_d = H_Z1;     // MODEXP's zero-length exponent (RSA_CRT's is bits(p) + X >= MinLen)
          end else if (mode_i == PG_CRT) begin
            d_d = mk(SRC_ONE, '0, SRC_RAM, ENT_MSG, 1'b0, '0, 1'b0, 1'b0);
            d_d.add_en = 1'b1;
            d_d.add_ent = ENT_MSG;
            st_d = H_MRDC1;
          end else begin
            d_d = mk(SRC_RAM, ENT_A, SRC_RAM, ENT_W, 1'b1, ENT_T0, 1'b0, 1'b0);
            last_dst_d = ENT_T0;
            st_d = H_CONV;
          end
        end
        default: st_d = G_IDLE;
      endcase
    end else if (take_i) begin
      unique case (st_q)
        H_MODMUL1: begin
          d_d = mk(SRC_CPA, '0, SRC_RAM, ENT_B, 1'b1, ENT_RES, 1'b0, 1'b1);
          st_d = H_END;
        end
        H_MODRED1: begin
          d_d = mk(SRC_CPA, '0, SRC_RAM, ENT_W, 1'b1, ENT_RES, 1'b0, 1'b1);
          st_d = H_END;
        end
        H_MRDC1: begin   // CRT: C R -> T0 (C^1), then the fixed window's table
          d_d = mk(SRC_CPA, '0, SRC_RAM, ENT_W, 1'b1, ENT_T0, 1'b0, 1'b0);
          last_dst_d = ENT_T0;
          st_d = H_F1;
        end
        H_F1: begin      // the Montgomery one: HSCM(1, R^3) = R^2 ...
          d_d = mk(SRC_ONE, '0, SRC_RAM, ENT_W, 1'b0, '0, 1'b0, 1'b0);
          st_d = H_F2;
        end
        H_F2: begin      // ... HSCM(R^2, 1) = R mod p -> SQ (C^0)
          d_d = mk(SRC_CPA, '0, SRC_ONE, '0, 1'b1, ENT_SQ, 1'b0, 1'b0);
          last_dst_d = ENT_SQ;
          st_d = H_F3;
        end
        H_F3: begin      // C^2 = C C -> T1 (k >= 2)
          if (k_q >= 4'd2) begin
            d_d = mk(SRC_RAM, ENT_T0, SRC_RAM, ENT_T0, 1'b1, ENT_T0 + 8'd1, 1'b0, 1'b0);
            last_dst_d = ENT_T0 + 8'd1;
            j_d = 7'd1;
            st_d = H_FPOW;
          end else begin
            st_d = C_FIRST;
          end
        end
        H_FPOW: begin    // C^(j+2) = C^(j+1) C -> T(j+1), up to C^(2^k - 1)
          d_d = mk(SRC_CPA, '0, SRC_RAM, ENT_T0, 1'b1, ENT_T0 + {1'b0, j_q} + 8'd1, 1'b0, 1'b0);
          last_dst_d = ENT_T0 + {1'b0, j_q} + 8'd1;
          j_d = j_q + 7'd1;
          if ((j_q + 7'd1) == 7'((1 << k_q) - 2)) st_d = H_LASTPRE;
        end
        H_CONV: begin
          if (k_q >= 4'd2) begin
            d_d = mk(SRC_CPA, '0, SRC_CPA, '0, 1'b1, ENT_SQ, 1'b0, 1'b0);
            last_dst_d = ENT_SQ;
            st_d = H_SQ;
          end else begin
            st_d = C_FIRST;
          end
        end
        H_SQ: begin   // C_3 = C^2 C_1
          d_d = mk(SRC_CPA, '0, SRC_RAM, ENT_T0, 1'b1, ENT_T0 + 8'd1, 1'b0, 1'b0);
          last_dst_d = ENT_T0 + 8'd1;
          j_d = 7'd1;
          st_d = (k_q == 4'd2) ? H_LASTPRE : H_ODD;
        end
        H_ODD: begin  // C_(2j+3) = C_(2j+1) C^2
          d_d = mk(SRC_CPA, '0, SRC_RAM, ENT_SQ, 1'b1, ENT_T0 + {1'b0, j_q} + 8'd1, 1'b0, 1'b0);
          last_dst_d = ENT_T0 + {1'b0, j_q} + 8'd1;
          j_d = j_q + 7'd1;
          if ((j_q + 7'd2) == 7'(1 << (k_q - 4'd1))) st_d = H_LASTPRE;
        end
        H_MAIN: st_d = C_MAIN;
        H_LASTPRE: st_d = C_FIRST;
        H_Z1: begin
          d_d = mk(SRC_CPA, '0, SRC_ONE, ENT_U, 1'b1, ENT_RES, 1'b0, 1'b1);
          st_d = H_END;
        end
        H_LAD: begin
          if (rem_q != '0) begin
            d_d  = mk(SRC_CPA, '0, etop ? SRC_OTHER : SRC_CPA, '0, 1'b0, '0, 1'b0, 1'b0);
            d1_d = mk(SRC_CPA, '0, etop ? SRC_CPA : SRC_OTHER, '0, 1'b0, '0, 1'b0,
                      rem_q == RemW'(1));
            sh_d  = 4'd1;
            rem_d = rem_q - RemW'(1);
          end else begin
            d_d = mk(SRC_CPA, '0, SRC_ONE, '0, 1'b1, ENT_RES, 1'b0, 1'b1);
            st_d = H_END;
          end
        end
        default: st_d = G_IDLE;   // H_END
      endcase
    end else begin
      unique case (st_q)
        C_FIRST: begin   // top digit 2^t o of h bits: S = C_o, t squarings
          sh_d  = h_q;
          rem_d = rem_q - RemW'(h_q);
          src_ram_d = tbl(odd_q) != last_dst_q;   // still being written: take it from the chain
          src_ent_d = tbl(odd_q);
          sq_d   = tz_q;
          mulv_d = 1'b0;
          st_d   = C_MAIN;
          if (crt_q) begin   // fixed window: top digit d of k bits: S = C^d
            sh_d  = k_q;
            rem_d = rem_q - RemW'(k_q);
            src_ram_d = ftbl(dig_q) != last_dst_q;
            src_ent_d = ftbl(dig_q);
            sq_d  = '0;
          end
        end
        C_MAIN: begin
          if (sq_q != '0) begin
            d_d = mk(src_ram_q ? SRC_RAM : SRC_CPA, src_ent_q, src_ram_q ? SRC_RAM : SRC_CPA,
                     src_ent_q, 1'b0, '0, 1'b0, 1'b0);
            sq_d = sq_q - 4'd1;
            src_ram_d = 1'b0;
            st_d = H_MAIN;
          end else if (mulv_q) begin
            d_d = mk(SRC_CPA, '0, SRC_RAM, crt_q ? ftbl(mul_q) : tbl(mul_q), 1'b0, '0, 1'b0, 1'b0);
            mulv_d = 1'b0;
            sq_d = post_q;
            st_d = H_MAIN;
          end else if (rem_q != '0) begin   // next k-bit digit (once decoded)
            if (dok_q && crt_q) begin         // fixed window: b = nb bits, b squarings, S C^d
              sh_d   = nb;
              rem_d  = rem_q - RemW'(nb);
              sq_d   = nb;
              mul_d  = dig_q;
              mulv_d = 1'b1;
              post_d = '0;
            end else if (dok_q) begin
              sh_d  = k_q;
              rem_d = rem_q - RemW'(k_q);
              if (dig_q == '0) begin
                sq_d = k_q;
              end else begin
                sq_d   = k_q - tz_q;
                mul_d  = odd_q;
                mulv_d = 1'b1;
                post_d = tz_q;
              end
            end
          end else begin
            d_d = fin;
            st_d = H_END;
          end
        end
        default: ;
      endcase
    end

    if (wipe_i) begin   // the exponent and everything decoded from it
      st_d       = G_IDLE;
      ast_d      = A_IDLE;
      d_d        = '0;
      d1_d       = '0;
      eu_d       = '0;      // reads outside the memory: erd_q = 0 from the next cycle
      etop_d     = 1'b0;
      ehi_d      = '0;
      elo_d      = '0;
      ewp_d      = '0;
      ewe        = 1'b1;    // one memory word per cycle, from the top, then word 0 again
      ewa        = ewc_q;
      ewd        = '0;
      ewc_d      = (ewc_q == '0) ? '0 : ewc_q - EwW'(1);
      rem_d      = '0;
      cnt_d      = '0;
      h_d        = '0;
      dv_d       = '0;
      j_d        = '0;
      sq_d       = '0;
      post_d     = '0;
      mul_d      = '0;
      mulv_d     = 1'b0;
      src_ram_d  = 1'b0;
      src_ent_d  = '0;
      last_dst_d = '0;
      k_d        = '0;
      crt_d      = 1'b0;
      sh_d       = '0;
      dig_d      = '0;
      tz_d       = '0;
      odd_d      = '0;
    end
  end

  // the decoded digit is current unless the exponent or the digit size changes
  always_comb begin
    e_chg = e_clear_i || e_push_i || sh_q != '0 || sh_d != '0 || ast_q != A_IDLE
            || st_q == C_FIRST;
    dok_d = !e_chg && !wipe_i;
    ewi   = ewa[EAw-1:0];
  end

  // the read: the word below elo_q's (word eu_q/32 - 3 of the memory), from registers only
  always_comb begin
    erx = eu_q[EuW-1:5] - EwW'(3);
    erv = eu_q[EuW-1:5] >= EwW'(3) && 32'(erx) < EWords;
    era = erx[EAw-1:0];
  end

  // the exponent memory: one write port, one synchronous read port (block or LUT RAM)
  always_ff @(posedge clk_i) begin
    if (ewe && 32'(ewa) < EWords) e_q[ewi] <= ewd;
    erd_q <= erv ? e_q[era] : '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q  <= G_IDLE;
      ast_q <= A_IDLE;
      sh_q  <= '0;
      dok_q <= 1'b0;
    end else begin
      st_q  <= st_d;
      ast_q <= ast_d;
      sh_q  <= sh_d;
      dok_q <= dok_d;
    end
  end

  always_ff @(posedge clk_i) begin
    d_q        <= d_d;
    d1_q       <= d1_d;
    eu_q       <= eu_d;
    etop_q     <= etop_d;
    ehi_q      <= ehi_d;
    elo_q      <= elo_d;
    ewp_q      <= ewp_d;
    ewc_q      <= ewc_d;
    rem_q      <= rem_d;
    cnt_q      <= cnt_d;
    h_q        <= h_d;
    dv_q       <= dv_d;
    j_q        <= j_d;
    sq_q       <= sq_d;
    post_q     <= post_d;
    mul_q      <= mul_d;
    mulv_q     <= mulv_d;
    src_ram_q  <= src_ram_d;
    src_ent_q  <= src_ent_d;
    last_dst_q <= last_dst_d;
    k_q        <= k_d;
    crt_q      <= crt_d;
    dig_q      <= dig_d;
    tz_q       <= tz_d;
    odd_q      <= odd_d;
  end

  assign desc_o  = d_q;
  assign desc1_o = d1_q;
endmodule
