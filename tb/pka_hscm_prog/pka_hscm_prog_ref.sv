// SPDX-License-Identifier: Apache-2.0
// pka_hscm_prog_ref: the reference for tb/pka_hscm_prog: pka_hscm_prog as it was before the
// exponent moved to a memory (git b7989a3), with the whole exponent in a shift register e_q, renamed.
// The equivalence bench runs it next to the memory version and compares them every cycle.
//
// (original header) pka_hscm_prog: exponentiation control of one HSCM: the program of products its sequencer runs,
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
// wipe_i (OP_ZEROIZE) clears every register, the exponent register included.
//
// The exponent register: words shifted in from the top by the loader (e_push_i), then aligned
// (align_start_i): bits above elen_i dropped, and for A1 (norm_i) leading zeros skipped and the
// top digit's length h = ((bits - 1) mod k) + 1 found by a 16-step division; 1 bit per cycle
// (counted as operand-loading time, io_cycles).  A new descriptor is ready within 3 cycles of
// a take (5 after the top digit when it is odd); boundaries are at least 2 (f+2) cycles apart.
// Timing: the program's shifts of the exponent register (by h, k or 1 bit) are decided in one
// cycle and applied in the next (sh_q), and the digit (dig, its trailing zeros tz and odd part)
// is decoded into registers from the stable exponent register (dok_q: decoded from the current
// one), so the wide register's multiplexer sees no control logic deeper than a register.
`default_nettype none

module pka_hscm_prog_ref
  import pka_hscm_pkg::*;
#(
  parameter int unsigned EBits     = 64,  // exponent register bits (>= 16; the core's
                                         // max(MaxLen, MaxLen/2 + MaxXBits rounded up to 32))
  parameter int unsigned MaxWindow = 6    // largest A1 digit size, 1..8
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        wipe_i,        // OP_ZEROIZE: every register to 0 (exponent, program, digits)
  // exponent register
  input  logic        e_clear_i,
  input  logic        e_push_i,
  input  logic [31:0] e_word_i,
  input  logic        align_start_i,
  input  logic [15:0] elen_i,        // exponent bits to use
  input  logic [15:0] eload_i,       // bits shifted in (32 x words)
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
    if (MaxWindow < 1 || MaxWindow > 8) $fatal(1, "pka_hscm_prog_ref: MaxWindow must be 1..8");
    if (EBits < 16) $fatal(1, "pka_hscm_prog_ref: EBits too small");
  end

  // H_*: a descriptor is held for the sequencer; C_*: computing the next one
  typedef enum logic [4:0] {
    G_IDLE, H_END, H_MODMUL1, H_MODRED1, H_MRDC1, H_CONV, H_SQ, H_ODD, H_LASTPRE, H_MAIN,
    H_Z1, H_LAD, C_FIRST, C_MAIN, H_F1, H_F2, H_F3, H_FPOW
  } gst_e;

  typedef enum logic [1:0] {A_IDLE, A_DROP, A_NORM, A_MOD} ast_e;

  gst_e         st_q, st_d;
  ast_e         ast_q, ast_d;
  desc_t        d_q, d_d, d1_q, d1_d;
  logic [EBits-1:0] e_q, e_d;
  logic [15:0]  rem_q, rem_d;        // exponent bits not yet consumed
  logic [15:0]  cnt_q, cnt_d;        // alignment counter
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
  logic         dok_q, dok_d;        // dig_q .. decoded from the current e_q

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

  always_comb begin
    st_d = st_q;
    ast_d = ast_q;
    d_d = d_q;
    d1_d = d1_q;
    e_d = e_q;
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
    top8 = e_q[EBits-1 -: 8];
    if (crt_q) nb = (rem_q < {12'd0, k_q}) ? rem_q[3:0] : k_q;   // fixed window: k, the last b
    else nb = (st_q == C_FIRST || st_q == H_LASTPRE || st_q == H_CONV) ? h_q : k_q;
    dig  = top8 >> (4'd8 - nb);
    tz   = ctz8(dig);
    dig_d = dig;
    tz_d  = tz;
    odd_d = dig >> tz;
    fin  = mk(src_ram_q ? SRC_RAM : SRC_CPA, src_ent_q, crt_q ? SRC_RAM : SRC_ONE, ENT_U,
              1'b1, ENT_RES, 1'b0, 1'b1);

    // ---- exponent register and alignment ----------------------------------------------------
    if (sh_q != '0) e_d = e_q << sh_q;   // the program's shift decided in the previous cycle
    if (e_clear_i) e_d = '0;
    if (e_push_i) e_d = {e_word_i, e_q[EBits-1:32]};
    unique case (ast_q)
      A_IDLE: if (align_start_i) begin
        ast_d = A_DROP;
        cnt_d = eload_i - elen_i;
        rem_d = elen_i;
      end
      A_DROP: begin
        if (cnt_q != '0) begin
          e_d = e_q << 1;
          cnt_d = cnt_q - 16'd1;
        end else if (!norm_i) begin
          ast_d = A_IDLE;
          align_done_o = 1'b1;
        end else begin
          ast_d = A_NORM;
        end
      end
      A_NORM: begin
        if (rem_q != '0 && !e_q[EBits-1]) begin
          e_d = e_q << 1;
          rem_d = rem_q - 16'd1;
        end else begin
          ast_d = A_MOD;
          dv_d = {8'd15, 8'd0};
        end
      end
      default: begin  // A_MOD: (rem - 1) mod k, one dividend bit per step
        logic [4:0]  r;
        logic [15:0] x;
        x = rem_q - 16'd1;
        r = {dv_q[3:0], x[dv_q[11:8]]};
        if (r >= {1'b0, k_q}) r = r - {1'b0, k_q};
        dv_d = {dv_q[15:8] - 8'd1, 4'd0, r[3:0]};
        if (dv_q[11:8] == 4'd0) begin
          ast_d = A_IDLE;
          align_done_o = 1'b1;
          h_d = r[3:0] + 4'd1;
        end
      end
    endcase
    if (align_start_i) k_d = k_i;

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
            st_d = H_Z1;     // as pka_hscm_prog: RSA_CRT's exponent is never zero-length
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
            d_d  = mk(SRC_CPA, '0, e_q[EBits-1] ? SRC_OTHER : SRC_CPA, '0, 1'b0, '0, 1'b0, 1'b0);
            d1_d = mk(SRC_CPA, '0, e_q[EBits-1] ? SRC_CPA : SRC_OTHER, '0, 1'b0, '0, 1'b0,
                      rem_q == 16'd1);
            sh_d  = 4'd1;
            rem_d = rem_q - 16'd1;
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
          rem_d = rem_q - {12'd0, h_q};
          src_ram_d = tbl(odd_q) != last_dst_q;   // still being written: take it from the chain
          src_ent_d = tbl(odd_q);
          sq_d   = tz_q;
          mulv_d = 1'b0;
          st_d   = C_MAIN;
          if (crt_q) begin   // fixed window: top digit d of k bits: S = C^d
            sh_d  = k_q;
            rem_d = rem_q - {12'd0, k_q};
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
              rem_d  = rem_q - {12'd0, nb};
              sq_d   = nb;
              mul_d  = dig_q;
              mulv_d = 1'b1;
              post_d = '0;
            end else if (dok_q) begin
              sh_d  = k_q;
              rem_d = rem_q - {12'd0, k_q};
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
      e_d        = '0;
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

  // the decoded digit is current unless the exponent register or the digit size changes
  always_comb begin
    e_chg = e_clear_i || e_push_i || sh_q != '0 || sh_d != '0 || ast_q != A_IDLE
            || st_q == C_FIRST;
    dok_d = !e_chg && !wipe_i;
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
    e_q        <= e_d;
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
