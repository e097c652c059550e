// SPDX-License-Identifier: Apache-2.0
// pka_mwr4_core: scalable multiple-word radix-2^k Montgomery engine (paper 001, MWR4MM; radix 2 is
// Tenca-Koc MWR2MM, radix 8 Todorov-Tenca-Koc style) with left-to-right binary exponentiation.
//
// Operations (eng_i.cmd.op), operands in the slots of pka_pkg, n = eng_i.cmd.len bits (runtime, any length
// up to MaxLen, independent of NS: more digits than stages simply take more passes):
//   OP_MONTMUL  R = A*B*2^(-kD) mod N          reads N, A, B                 1 product
//   OP_MODMUL   R = A*B mod N                  reads N, A, B, W = R^2 mod N   2 products
//   OP_MODEXP   R = A^E mod N, E of eng_i.cmd.elen bits; reads N, A, W, E       h + popcount(E) products
//   OP_MODEXP_CT  the same by Montgomery's powering ladder over all elen bits of E (leading zeros
//               included): X = Mont(A, W) -> XB, R0 = Mont(W, 1) = R mod N -> AC, then per bit b
//               from the top R_(1-b) = Mont(R0, R1), R_b = Mont(R_b, R_b) (R0 in AC, R1 in XB; b
//               only steers the buffer selects), R = Mont(R0, 1): 2 elen + 3 products whatever
//               E's value (constant time: every product has the same cycles, the final correction
//               is the code c read on the fly, never a conditional pass)
//   OP_ZEROIZE  the wipe: every register of the core, the kernel's PEs and the post-processor
//               (operand buffers N A B W E, XB/AC, S memory, shift registers, PE words, select
//               registers) is cleared in one cycle and held at 0 until the next command; no port
//               access; done with ST_OK, cycles = 1, io_cycles = 0 (pka.model.mwr4.wipe_cycles)
// with A, B, W < N, N odd and > 1, R = 2^(kD) (D = NS*ceil(ceil(n/k)/NS) digits; radix 2: D over n),
// W precomputed by the host. Results are canonical, in [0, N), written as ceil(n/32) words to SLOT_R.
// eng_i.cmd.arg[0] = 1 disables the SEL freeze, eng_i.cmd.arg[1] = 1 the SEL_PP coding (when built), so one
// build measures all four low-power variants. With ToggleCnt = 1 the toggle counters of the op are
// written to SLOT_X2 words 0..4 after the result: SEL, EN, generator nets, datapath registers, kernel
// cycles.
// Errors -> done with status: unknown op (ST_ERR_OPCODE); n = 0, n > MaxLen, elen > MaxLen (MODEXP,
// MODEXP_CT) (ST_ERR_LENGTH); even N (ST_ERR_EVEN_MODULUS); N = 1, N >= 2^n, A/B/W >= N, E >= 2^elen
// (ST_ERR_OPERAND_RANGE).
//
// Blocks: IO (loads the operands word-serially into internal word memories, stores the result),
// kernel control (feeds stage 0 one word per cycle: S from 0 / the last stage / the S memory, B with
// its correction, M; puts each stage's Booth window on the digit bus), the kernel (NS PEs), the
// post-processor (last pass: T and the correction code c), and the exponentiation sequencer.
// A product's result stays in its buffer as T with c (T + c*M canonical); every reader adds c*M on
// the fly (digit-serially for the multiplier, word-serially for the multiplicand and the store).
// Cycles per product (cycles counts products only; loads, checks and stores go to io_cycles):
//   1 + (passes - 1) * max(e, 2 NS) + 2 NS + e,  e = max(2, ceil((n + g)/w)), g = 3/4/5 (k = 1/2/3),
//   passes = ceil(D0 / NS), D0 = n (radix 2) or ceil(n/k).
`default_nettype none

module pka_mwr4_core
  import pka_pkg::*;
#(
  parameter int unsigned MaxLen    = 256,  // maximum modulus/exponent bits, multiple of 32, 32..4096
  parameter int unsigned MemAw     = 8,    // word address width: 16 slots of 2^(MemAw-4) words
  parameter int unsigned Radix     = 4,    // 2, 4 or 8
  parameter int unsigned NS        = 8,    // pipeline stages (PEs): 1..64
  parameter int unsigned W         = 16,   // word size: 4, 8, 16, 32
  parameter int unsigned LpCoding  = 1,    // 1: build the paper's SEL_PP coding
  parameter int unsigned LpFreeze  = 1,    // 1: build the SEL_PP/SEL_PM freeze
  parameter int unsigned LpGlitch  = 0,    // 1: build the glitch blockers (latches; doc/mwr4.md)
  parameter int unsigned LpIsolate = 0,    // 1: operand isolation of the PEs' first/last-word adders
  parameter int unsigned ToggleCnt = 0     // 1: toggle counters, written to SLOT_X2 after each op
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

  localparam int unsigned K         = Radix == 8 ? 3 : Radix == 4 ? 2 : 1;
  localparam int unsigned G         = K + 2;                       // guard bits of S
  localparam int unsigned LogW      = $clog2(W);
  localparam int unsigned EMaxRaw   = (MaxLen + G + W - 1) / W;
  localparam int unsigned EMax      = EMaxRaw < 2 ? 2 : EMaxRaw;   // words of S at n = MaxLen
  localparam int unsigned VW        = EMax * W;                    // bits of an operand buffer
  localparam int unsigned SlotWords = 1 << (MemAw - 4);
  localparam int unsigned NTog      = 5;
  localparam int unsigned TW        = 16;                          // width of the pass cycle counter
  localparam int unsigned EIW       = $clog2(MaxLen);              // bit index into the exponent
  localparam int unsigned RIW       = $clog2(EMax);                // w-bit word index of a buffer
  localparam int unsigned NW32      = MaxLen / 32;                 // 32-bit words of a loaded operand
  localparam int unsigned LIW       = NW32 > 1 ? $clog2(NW32) : 1; // 32-bit word index

  initial begin
    if (MaxLen % 32 != 0 || MaxLen < 32 || MaxLen > 4096) $fatal(1, "MaxLen: multiple of 32, 32..4096");
    if (MaxLen / 32 > SlotWords) $fatal(1, "MemAw too small for MaxLen");
    if (ToggleCnt == 1 && SlotWords < NTog) $fatal(1, "MemAw too small for the toggle counters");
    if (Radix != 2 && Radix != 4 && Radix != 8) $fatal(1, "Radix must be 2, 4 or 8");
    if (W != 4 && W != 8 && W != 16 && W != 32) $fatal(1, "W must be 4, 8, 16 or 32");
    if (NS < 1 || NS > 64) $fatal(1, "NS must be 1..64");
    if (LpCoding > 1 || LpFreeze > 1 || LpGlitch > 1 || LpIsolate > 1 || ToggleCnt > 1)
      $fatal(1, "LpCoding, LpFreeze, LpGlitch, LpIsolate, ToggleCnt: 0 or 1");
  end

  typedef enum logic [3:0] {Idle, Load, Drain, Check, PSetup, PRun, Store, TogStore, Done, Wipe} state_e;
  typedef enum logic [1:0] {OpMontmul, OpModmul, OpModexp, OpModexpCt} kind_e;
  // StOne: R0 = Mont(W, 1); StLadMul / StLadSq: the two products of a ladder step (MODEXP_CT)
  typedef enum logic [2:0] {StFirst, StSecond, StSquare, StMult, StFinal, StOne, StLadMul, StLadSq} step_e;
  // operand buffers a product can read: A from XA/WW/AC, B from those, YB, XB or the constant 1
  typedef enum logic [2:0] {SrcXa, SrcYb, SrcWw, SrcAc, SrcXb, SrcOne} src_e;

  state_e state_q, state_d;
  kind_e  kind_q, kind_d;
  step_e  step_q, step_d;
  logic [7:0]  status_q, status_d;
  logic [31:0] cyc_q, cyc_d, io_q, io_d;
  logic [15:0] len_q, len_d, elen_q, elen_d;
  logic [1:0]  arg_q, arg_d;
  // 1 while the core may hold operand data (after reset or a command); 0 after OP_ZEROIZE, which
  // holds every register at 0 until the next command
  logic        dirty_q, dirty_d;
  logic        wipe;                               // the kernel's registers are cleared

  // ---- operand buffers (word memories of the IO block) -------------------------------------------
  // Read only at fixed word positions through registered word selects (B, M, S: the word of the next
  // cycle; N, AC: the 32-bit word of the load check / store), or copied whole into the A shift
  // registers; written one word per cycle with a decoded (one-hot) enable.
  logic [VW-1:0]     nm_q, nm_d, xa_q, xa_d, yb_q, yb_d, ww_q, ww_d, ac_q, ac_d, xb_q, xb_d;
  logic [MaxLen-1:0] ee_q, ee_d;
  logic [VW-1:0]     ssm_q, ssm_d, scm_q, scm_d;   // S memory: words of the last stage, next pass
  logic              clm_q, clm_d;
  logic [1:0]        cac_q, cac_d, cxb_q, cxb_d;   // correction codes of AC and XB

  // ---- geometry of the op: functions of len_q, registered (settled long before the first product)
  logic [15:0]     e_q, e_d, em2_q, em2_d, pm2_q, pm2_d, fm2_q, fm2_d, nw32_q, nw32_d, nwe32_q, nwe32_d;
  logic            direct_q, direct_d;             // e <= 2 NS: stage 0 reads the last stage directly
  logic            byp_q, byp_d;                   // e = 2 NS + 1: S word written as it is read
  logic            byp2_q, byp2_d;                 // e = 2 NS + 2: S word written the cycle before
  logic            lastp0_q, lastp0_d;             // the first pass is the last
  logic [EMax-1:0] hi_q, hi_d;                     // word j >= e (sign fill of a result)

  // ---- load (one pipeline register between the memory port and the buffers / checks) ------------
  logic [1:0]     ld_q, ld_d;                      // index in the op's list of slots to load
  logic [15:0]    req_q, req_d, rsp_q, rsp_d;
  logic [15:0]    ld_words;
  logic [3:0]     ld_slot;
  logic           lv_q, lv_d, lfst_q, lfst_d, llst_q, llst_d;
  logic [31:0]    lw_q, lw_d;
  logic [LIW-1:0] li_q, li_d;
  logic [3:0]     ls_q, ls_d;
  logic           neven_q, neven_d, ngt1_q, ngt1_d, nhi_q, nhi_d, ehi_q, ehi_d;   // N, E checks
  logic           ge_q, ge_d, rng_q, rng_d;        // word-serial X >= N, any X >= N
  logic           enz_q, enz_d;                    // E != 0
  logic [15:0]    etop_q, etop_d;                  // top set bit of E
  logic [32:0]    ge_sum;
  logic [31:0]    n32;                             // 32-bit word of N (load check / store)
  logic [LIW-1:0] n32i;

  // ---- store: the next word is computed into a register while the current one waits for gnt ----
  logic           stv_q, stv_d, st_car_q, st_car_d, smp_q, smp_d;
  logic [31:0]    stw_q, stw_d;
  logic [15:0]    sa_q, sa_d;
  logic [32:0]    st_sum;

  // ---- product control ---------------------------------------------------------------------------
  src_e          asel_q, asel_d, bsel_q, bsel_d;
  logic          dac_q, dac_d, dxb_q, dxb_d;       // destinations of the product
  logic [1:0]    ca, cb;                           // correction codes of the product's A and B
  logic [15:0]   ib_q, ib_d;                       // exponent bit index
  logic          ebit_q, ebit_d;                   // E[ib], registered
  logic          lbit_q, lbit_d;                   // MODEXP_CT: the bit of the current ladder step
  logic          lend_q, lend_d;                   // MODEXP_CT: the current step is the last
  logic [TW-1:0] t_q, t_d;                         // cycle within the pass
  logic [TW-1:0] rd_q, rd_d;                       // word on the kernel inputs next cycle (= next t)
  logic [RIW-1:0] rdn_q, rdn_d;                    // rd + 1: the word B and M are pre-selected for
  logic          rd0_q, rd0_d;                     // rd = 0
  logic          rs;                               // t restarts at 0 next cycle
  // flags of t, registered one cycle early: t = 0, t < e, t = e - 1, t = P - 1, t >= 2NS,
  // t = 2NS + e - 1, t odd and < 2NS - 1 (a digit for stage (t+1)/2 is prepared)
  logic          first_q, first_d, kv_q, kv_d, klast_q, klast_d, wrap_q, wrap_d, pv_q, pv_d;
  logic          fin_q, fin_d, advo_q, advo_d;
  logic [17:0]   cov_q, cov_d;                     // bits of A covered up to the end of this pass
  logic          last_q, last_d, nlast_q, nlast_d, p0_q, p0_d;   // last pass, next is last, first
  logic          dcar_q, dcar_d, aprev_q, aprev_d; // digit unit: carry of A + c*M, window bit
  logic [K:0]    dig_q, dig_d;                     // the Booth window on the digit bus
  logic [VW-1:0] ash_q, ash_d, cmsh_q, cmsh_d;     // A and c*M, shifted K bits per digit
  logic [K:0]    a_sum;
  logic [VW-1:0] a_vec, a_cm;
  logic [W-1:0]  kb_q, kb_d, km_q, km_d, kss_q, kss_d, ksc_q, ksc_d;   // next words of stage 0
  logic          bcar_q, bcar_d, bmp_q, bmp_d;     // B + c*M word carry, top bit of the last M word
  logic [W-1:0]  nmw, bw;
  logic [W-1:0]  bwn_q, bwn_d, nmn_q, nmn_d;       // B's and M's word rd, selected a cycle ahead
  logic [W-1:0]  bw0;                              // B's word 0 (a fixed position)
  logic [W-1:0]  ssn_q, ssn_d, scn_q, scn_d;       // the S memory's word rd, selected a cycle ahead
  logic [W:0]    b_sum;
  logic          rd0;
  logic [EMax-1:0] ohw_q, ohw_d;                   // one-hot: word of the last stage's next output

  // ---- kernel ports ------------------------------------------------------------------------------
  logic         k_valid, k_first, k_last, k_cl;
  logic [W-1:0] k_ss, k_sc, k_b, k_m;
  logic [K:0]   k_digit;
  logic         o_valid, o_first, o_last, o_cl;
  logic [W-1:0] o_ss, o_sc, o_b, o_m;
  logic [15:0]  tg_sel, tg_en, tg_net, tg_reg;
  logic [31:0]  tog_q [NTog];
  logic [31:0]  tog_d [NTog];

  logic [W-1:0] p_t;
  logic [1:0]   p_c;
  logic         post_valid;

  // ---- helpers -----------------------------------------------------------------------------------
  // c*M as a VW-bit two's complement pattern (c = +1, 0, -1, -2); -M = ~M | 1 as M is odd
  function automatic logic [VW-1:0] cm_pattern(logic [1:0] c, logic [VW-1:0] m);
    unique case (c)
      2'b01:   return m;
      2'b11:   return ~m | VW'(1);
      2'b10:   return {~m[VW-2:0] | (VW-1)'(1), 1'b0};
      default: return '0;
    endcase
  endfunction

  // one word of that pattern from M's word, the top bit of M's previous word and "word 0"
  function automatic logic [31:0] cm_word(logic [1:0] c, logic [31:0] m, logic mprev, logic first);
    unique case (c)
      2'b01:   return m;
      2'b11:   return ~m | {31'b0, first};
      2'b10:   return {~m[30:0], ~mprev & ~first} | {30'b0, first, 1'b0};
      default: return '0;
    endcase
  endfunction

  function automatic logic [W-1:0] wsel(logic [VW-1:0] v, logic [RIW-1:0] i);
    return v[i*W +: W];
  endfunction

  function automatic logic [31:0] wsel32(logic [VW-1:0] v, logic [LIW-1:0] i);
    return v[i*32 +: 32];
  endfunction

  // bits below l of a 32-bit word (l = 0: all)
  function automatic logic [31:0] low_mask(logic [4:0] l);
    return l == 5'd0 ? '1 : (32'd1 << l) - 32'd1;
  endfunction

  function automatic logic [1:0] code_of(src_e s, logic [1:0] cac, logic [1:0] cxb);
    return s == SrcAc ? cac : s == SrcXb ? cxb : 2'b00;
  endfunction

  always_comb begin
    // A of the product (XA, WW or AC; AC and XB hold sign-extended values, XA and WW are < N)
    a_vec = asel_q == SrcXa ? xa_q : asel_q == SrcWw ? ww_q : asel_q == SrcXb ? xb_q : ac_q;
    ca    = code_of(asel_q, cac_q, cxb_q);
    cb    = code_of(bsel_q, cac_q, cxb_q);
    a_cm  = cm_pattern(ca, nm_q);
    // stage-0 words of the next cycle: B + c*M (word-serial carry), M, S from the S memory.
    // B's and M's word rd was selected into a register in the cycle before (word rd + 1 of the
    // cycle before, rdn), so the word select and the B + c*M adder are in different cycles; word 0
    // (a pass's first cycle, after a restart) is a fixed position and taken directly. No buffer
    // word is written in the cycle before it is read: the last pass writes result word j about
    // 2 NS cycles after stage 0 has read B's word j, and PSetup (where B's source changes) reads
    // word 0.
    rd0 = rd0_q;
    unique case (bsel_q)
      SrcXa:   bw0 = xa_q[W-1:0];
      SrcYb:   bw0 = yb_q[W-1:0];
      SrcWw:   bw0 = ww_q[W-1:0];
      SrcAc:   bw0 = ac_q[W-1:0];
      SrcXb:   bw0 = xb_q[W-1:0];
      default: bw0 = W'(1);
    endcase
    nmw = rd0 ? nm_q[W-1:0] : nmn_q;
    bw  = rd0 ? bw0 : bwn_q;
    nmn_d = wsel(nm_q, RIW'(rdn_q));
    unique case (bsel_q)
      SrcXa:   bwn_d = wsel(xa_q, RIW'(rdn_q));
      SrcYb:   bwn_d = wsel(yb_q, RIW'(rdn_q));
      SrcWw:   bwn_d = wsel(ww_q, RIW'(rdn_q));
      SrcAc:   bwn_d = wsel(ac_q, RIW'(rdn_q));
      SrcXb:   bwn_d = wsel(xb_q, RIW'(rdn_q));
      default: bwn_d = '0;   // the constant 1: only its word 0 is set
    endcase
    // the S memory's word likewise; at e = 2 NS + 2 that word is the one the last stage writes in
    // this cycle (at e = 2 NS + 1 in the cycle it is read: byp, below)
    ssn_d = byp2_q ? o_ss : wsel(ssm_q, rdn_q);
    scn_d = byp2_q ? o_sc : wsel(scm_q, rdn_q);
    if (wipe) begin   // cleared with the kernel (OP_ZEROIZE)
      bwn_d = '0;
      nmn_d = '0;
      ssn_d = '0;
      scn_d = '0;
    end
    b_sum = (W+1)'(bw) + (W+1)'(W'(cm_word(cb, 32'(nmw), bmp_q, rd0))) + (W+1)'(!rd0 && bcar_q);
    // 32-bit word of N for the load check (index of the word in the load register) or the store
    n32i = state_q == Store ? LIW'(req_q) : li_q;
    n32  = wsel32(nm_q, n32i);
  end

  // slots loaded per op: MONTMUL N A B, MODMUL N A B W, MODEXP and MODEXP_CT N A W E
  always_comb begin
    unique case (ld_q)
      2'd0: ld_slot = 4'(SLOT_N);
      2'd1: ld_slot = 4'(SLOT_A);
      2'd2: ld_slot = (kind_q == OpModexp || kind_q == OpModexpCt) ? 4'(SLOT_W) : 4'(SLOT_B);
      default: ld_slot = (kind_q == OpModexp || kind_q == OpModexpCt) ? 4'(SLOT_E) : 4'(SLOT_W);
    endcase
    ld_words = ld_slot == 4'(SLOT_E) ? nwe32_q : nw32_q;
  end

  // ---- geometry ----------------------------------------------------------------------------------
  always_comb begin
    e_d = (len_q + 16'(G + W - 1)) >> LogW;
    if (e_d < 16'd2) e_d = 16'd2;
    direct_d = e_q <= 16'(2 * NS);
    byp_d    = e_q == 16'(2 * NS + 1);
    byp2_d   = e_q == 16'(2 * NS + 2);
    em2_d    = e_q - 16'd2;
    pm2_d    = (e_q <= 16'(2 * NS) ? 16'(2 * NS) : e_q) - 16'd2;
    fm2_d    = e_q + 16'(2 * NS) - 16'd2;
    for (int j = 0; j < EMax; j++) hi_d[j] = 16'(j) >= e_q;
    lastp0_d = 18'(K * NS) >= 18'(len_q);
    if (!dirty_d) begin   // OP_ZEROIZE (see the end of the control block)
      e_d = '0; em2_d = '0; pm2_d = '0; fm2_d = '0;
      direct_d = 1'b0; byp_d = 1'b0; byp2_d = 1'b0; lastp0_d = 1'b0; hi_d = '0;
    end
  end

  // ---- kernel feed: registers only (the S words of e <= 2NS come from the last stage's register) --
  always_comb begin
    k_valid = kv_q;
    k_first = first_q;
    k_last  = klast_q;
    if (p0_q) begin
      k_ss = '0;
      k_sc = '0;
      k_cl = 1'b0;
    end else if (direct_q) begin
      k_ss = o_ss;
      k_sc = o_sc;
      k_cl = o_cl;
    end else begin
      k_ss = kss_q;
      k_sc = ksc_q;
      k_cl = clm_q;
    end
    k_b = kb_q;
    k_m = km_q;
    k_digit = dig_q;
  end

  pka_mwr4_kernel #(
    .Radix(Radix), .W(W), .NS(NS), .Coding(LpCoding), .Freeze(LpFreeze), .ToggleCnt(ToggleCnt),
    .GlitchBlock(LpGlitch), .Isolate(LpIsolate)
  ) u_kernel (
    .clk_i(clk_i), .rst_ni(rst_ni), .wipe_i(wipe),
    .in_valid_i(k_valid), .in_first_i(k_first), .in_last_i(k_last),
    .in_ss_i(k_ss), .in_sc_i(k_sc), .in_cl_i(k_cl), .in_b_i(k_b), .in_m_i(k_m),
    .digit_i(k_digit), .freeze_en_i(!arg_q[0]), .coding_en_i(!arg_q[1]),
    .out_valid_o(o_valid), .out_first_o(o_first), .out_last_o(o_last),
    .out_ss_o(o_ss), .out_sc_o(o_sc), .out_cl_o(o_cl), .out_b_o(o_b), .out_m_o(o_m),
    .tog_sel_o(tg_sel), .tog_en_o(tg_en), .tog_net_o(tg_net), .tog_reg_o(tg_reg)
  );

  assign post_valid = (state_q == PRun) && last_q && pv_q && o_valid;

  pka_mwr4_post #(.W(W)) u_post (
    .clk_i(clk_i), .wipe_i(wipe), .valid_i(post_valid), .first_i(o_first), .ss_i(o_ss), .sc_i(o_sc), .cl_i(o_cl),
    .b_i(o_b), .m_i(o_m), .a_top_i(K > 1 && aprev_q), .t_o(p_t), .c_o(p_c)
  );

  // ---- control -----------------------------------------------------------------------------------
  always_comb begin
    state_d = state_q; kind_d = kind_q; step_d = step_q; status_d = status_q;
    cyc_d = cyc_q; io_d = io_q; len_d = len_q; elen_d = elen_q; arg_d = arg_q;
    nm_d = nm_q; xa_d = xa_q; yb_d = yb_q; ww_d = ww_q; ac_d = ac_q; xb_d = xb_q; ee_d = ee_q;
    ssm_d = ssm_q; scm_d = scm_q; clm_d = clm_q; cac_d = cac_q; cxb_d = cxb_q;
    ld_d = ld_q; req_d = req_q; rsp_d = rsp_q;
    lv_d = 1'b0; lfst_d = lfst_q; llst_d = llst_q; lw_d = lw_q; li_d = li_q; ls_d = ls_q;
    neven_d = neven_q; ngt1_d = ngt1_q; nhi_d = nhi_q; ehi_d = ehi_q; ge_d = ge_q; rng_d = rng_q;
    enz_d = enz_q; etop_d = etop_q;
    stv_d = stv_q; st_car_d = st_car_q; smp_d = smp_q; stw_d = stw_q; sa_d = sa_q;
    asel_d = asel_q; bsel_d = bsel_q; dac_d = dac_q; dxb_d = dxb_q;
    ib_d = ib_q; ebit_d = ee_q[EIW'(ib_q)]; lbit_d = lbit_q; lend_d = lend_q; dirty_d = dirty_q;
    cov_d = cov_q; last_d = last_q; p0_d = p0_q;
    dcar_d = dcar_q; aprev_d = aprev_q; dig_d = dig_q; ash_d = ash_q; cmsh_d = cmsh_q;
    ohw_d = ohw_q;
    for (int i = 0; i < NTog; i++) tog_d[i] = tog_q[i];
    mem_req = 1'b0; mem_we = 1'b0; mem_addr = '0; mem_wdata = '0;
    done = 1'b0;
    st_sum = '0;
    a_sum  = '0;

    if (ToggleCnt == 1) begin
      tog_d[0] = tog_q[0] + 32'(tg_sel);
      tog_d[1] = tog_q[1] + 32'(tg_en);
      tog_d[2] = tog_q[2] + 32'(tg_net);
      tog_d[3] = tog_q[3] + 32'(tg_reg);
      tog_d[4] = tog_q[4] + 32'(state_q == PRun);
    end

    // stage-0 words of the next cycle (read every cycle; used while t < e)
    kb_d   = b_sum[W-1:0];
    bcar_d = b_sum[W];
    km_d   = nmw;
    bmp_d  = nmw[W-1];
    kss_d  = byp_q ? o_ss : rd0 ? ssm_q[W-1:0] : ssn_q;
    ksc_d  = byp_q ? o_sc : rd0 ? scm_q[W-1:0] : scn_q;

    // t and its flags for the next cycle
    rs       = state_q == PSetup || (state_q == PRun && wrap_q && !last_q);
    t_d      = rs ? '0 : t_q + 1;
    first_d  = rs;
    kv_d     = rs || (kv_q && !klast_q);
    klast_d  = !rs && kv_q && t_q == em2_q;
    wrap_d   = !rs && t_q == pm2_q;
    pv_d     = !rs && (pv_q || t_q == TW'(2 * NS - 1));
    fin_d    = !rs && t_q == fm2_q;
    advo_d   = !rs && !t_q[0] && 32'(t_q) + 32'd2 < 32'(2 * NS);
    nlast_d  = cov_q + 18'(K * NS) >= 18'(len_q);

    // load register -> buffers and the word-serial operand checks
    ge_sum = {1'b0, lw_q} + {1'b0, ~n32} + 33'(lfst_q || ge_q);   // carry = lw >= n32 (+ lower words)
    if (lv_q) begin
      for (int j = 0; j < NW32; j++) begin
        if (li_q == LIW'(j)) begin
          unique case (ls_q)
            4'(SLOT_N): nm_d[32*j +: 32] = lw_q;
            4'(SLOT_A): xa_d[32*j +: 32] = lw_q;
            4'(SLOT_B): yb_d[32*j +: 32] = lw_q;
            4'(SLOT_W): ww_d[32*j +: 32] = lw_q;
            default:    ee_d[32*j +: 32] = lw_q;
          endcase
        end
      end
      unique case (ls_q)
        4'(SLOT_N): begin
          if (lfst_q) neven_d = !lw_q[0];
          if (lfst_q ? lw_q[31:1] != '0 : lw_q != '0) ngt1_d = 1'b1;
          if (llst_q && (lw_q & ~low_mask(len_q[4:0])) != '0) nhi_d = 1'b1;
        end
        4'(SLOT_E): begin
          for (int i = 0; i < 32; i++) begin
            if (lw_q[i]) begin
              enz_d  = 1'b1;
              etop_d = 16'({li_q, 5'(i)});
            end
          end
          if (llst_q && (lw_q & ~low_mask(elen_q[4:0])) != '0) ehi_d = 1'b1;
        end
        default: begin   // A, B, W: X >= N, least significant word first
          ge_d = ge_sum[32];
          if (llst_q && ge_sum[32]) rng_d = 1'b1;
        end
      endcase
    end

    unique case (state_q)
      Idle: if (eng_i.cmd_valid) begin
        cyc_d = '0; io_d = '0; ld_d = '0; req_d = '0; rsp_d = '0;
        len_d = eng_i.cmd.len; elen_d = eng_i.cmd.elen; arg_d = eng_i.cmd.arg[1:0];
        dirty_d = 1'b1;
        lend_d = 1'b0;
        for (int i = 0; i < NTog; i++) tog_d[i] = '0;
        nm_d = '0; xa_d = '0; yb_d = '0; ww_d = '0; ee_d = '0;
        neven_d = 1'b0; ngt1_d = 1'b0; nhi_d = 1'b0; ehi_d = 1'b0; rng_d = 1'b0;
        enz_d = 1'b0; etop_d = '0;
        status_d = ST_OK;
        state_d  = Load;
        unique case (op_e'(eng_i.cmd.op))
          OP_MONTMUL: kind_d = OpMontmul;
          OP_MODMUL:  kind_d = OpModmul;
          OP_MODEXP:  kind_d = OpModexp;
          OP_MODEXP_CT: kind_d = OpModexpCt;
          OP_ZEROIZE: state_d = Wipe;
          default: begin
            status_d = ST_ERR_OPCODE;
            state_d  = Done;
          end
        endcase
        if (status_d == ST_OK && state_d == Load && (eng_i.cmd.len == 0 || 32'(eng_i.cmd.len) > MaxLen
            || ((op_e'(eng_i.cmd.op) == OP_MODEXP || op_e'(eng_i.cmd.op) == OP_MODEXP_CT) && 32'(eng_i.cmd.elen) > MaxLen))) begin
          status_d = ST_ERR_LENGTH;
          state_d  = Done;
        end
      end

      Load: begin
        io_d = io_q + 1;
        if (req_q < ld_words) begin
          mem_req  = 1'b1;
          mem_addr = MemAw'(32'(ld_slot) * SlotWords + 32'(req_q));
          if (eng_i.mem.gnt) req_d = req_q + 1;
        end
        if (eng_i.mem.rvalid) begin
          lv_d   = 1'b1;
          lw_d   = eng_i.mem.rdata;
          li_d   = LIW'(rsp_q);
          ls_d   = ld_slot;
          lfst_d = rsp_q == '0;
          llst_d = rsp_q == ld_words - 16'd1;
          rsp_d  = rsp_q + 1;
        end
        if (rsp_d == ld_words && req_d == ld_words) begin  // this slot complete (or empty)
          req_d = '0;
          rsp_d = '0;
          ld_d  = ld_q + 1;
          if (ld_q == 2'd3 || (kind_q == OpMontmul && ld_q == 2'd2)) state_d = Drain;
        end
      end

      Drain: begin   // the last loaded word passes the load register
        io_d = io_q + 1;
        state_d = Check;
      end

      Check: begin
        io_d = io_q + 1;
        step_d  = StFirst;
        state_d = PSetup;
        if (neven_q) begin
          status_d = ST_ERR_EVEN_MODULUS;
        end else if (nhi_q || !ngt1_q || rng_q || ehi_q) begin
          status_d = ST_ERR_OPERAND_RANGE;
        end
        if (status_d != ST_OK) state_d = Done;
      end

      PSetup: begin
        cyc_d = cyc_q + 1;
        p0_d   = 1'b1;
        cov_d  = 18'(K * NS);
        last_d = lastp0_q;
        // the digit unit: A and c*M into the shift registers, stage 0's window from bits 0..K-1
        ash_d   = a_vec;
        cmsh_d  = a_cm;
        a_sum   = (K+1)'(a_vec[K-1:0]) + (K+1)'(a_cm[K-1:0]);
        dig_d   = {a_sum[K-1:0], 1'b0};
        dcar_d  = a_sum[K];
        aprev_d = a_sum[K-1];
        state_d = PRun;
      end

      PRun: begin
        cyc_d = cyc_q + 1;
        // the digit bus: stage s takes its window at t = 2s; it is prepared a cycle before (stage 0
        // of the next pass: in the pass's last cycle)
        if (advo_q || (wrap_q && !last_q)) begin
          a_sum   = (K+1)'(ash_q[2*K-1:K]) + (K+1)'(cmsh_q[2*K-1:K]) + (K+1)'(dcar_q);
          dig_d   = {a_sum[K-1:0], aprev_q};
          dcar_d  = a_sum[K];
          aprev_d = a_sum[K-1];
          ash_d   = {{K{ash_q[VW-1]}}, ash_q[VW-1:K]};
          cmsh_d  = {{K{cmsh_q[VW-1]}}, cmsh_q[VW-1:K]};
        end
        // the last stage's output: to the S memory, or (last pass) through the post-processor into
        // AC / XB, the top word's sign copied into the words above e
        if (o_valid) begin
          ohw_d = o_first ? EMax'(2) : ohw_q << 1;
          for (int j = 0; j < EMax; j++) begin
            if (post_valid) begin
              if ((o_first ? j == 0 : ohw_q[j]) || (o_last && hi_q[j])) begin
                if (dac_q) ac_d[j*W +: W] = (o_last && hi_q[j]) ? {W{p_t[W-1]}} : p_t;
                if (dxb_q) xb_d[j*W +: W] = (o_last && hi_q[j]) ? {W{p_t[W-1]}} : p_t;
              end
            end else if (o_first ? j == 0 : ohw_q[j]) begin
              ssm_d[j*W +: W] = o_ss;
              scm_d[j*W +: W] = o_sc;
            end
          end
          if (!post_valid && o_first) clm_d = o_cl;
        end
        if (wrap_q && !last_q) begin   // next pass
          p0_d   = 1'b0;
          cov_d  = cov_q + 18'(K * NS);
          last_d = nlast_q;
        end
        if (last_q && fin_q) begin  // the last word is post-processed
          if (dac_q) cac_d = p_c;
          if (dxb_q) cxb_d = p_c;
          state_d = PSetup;
          unique case (step_q)
            StFirst: begin
              if (kind_q == OpMontmul) state_d = Store;
              else if (kind_q == OpModmul) step_d = StSecond;
              else if (kind_q == OpModexpCt) begin
                step_d = StOne;
                ib_d   = elen_q == 16'd0 ? '0 : elen_q - 16'd1;   // E[ib] registered long before step 1
              end else if (enz_q && etop_q != 0) begin
                step_d = StSquare;
                ib_d   = etop_q - 16'd1;
              end else step_d = StFinal;
            end
            StSquare: begin
              if (ebit_q) step_d = StMult;
              else if (ib_q == 0) step_d = StFinal;
              else ib_d = ib_q - 16'd1;
            end
            StMult: begin
              if (ib_q == 0) step_d = StFinal;
              else begin
                step_d = StSquare;
                ib_d   = ib_q - 16'd1;
              end
            end
            // the ladder: elen steps whatever E's value; the bit of a step is latched (lbit) as
            // its multiplication is issued, the index moves to the next bit as its squaring is
            StOne:    step_d = elen_q == 16'd0 ? StFinal : StLadMul;
            StLadMul: begin
              step_d = StLadSq;
              if (ib_q == 0) lend_d = 1'b1;
              else ib_d = ib_q - 16'd1;
            end
            StLadSq:  step_d = lend_q ? StFinal : StLadMul;
            default: state_d = Store;   // StSecond, StFinal
          endcase
          // the store's registers start at 0 (unused while the products run; cleared here whatever
          // comes next, not decoded from the next state)
          req_d    = '0;
          stv_d    = 1'b0;
          st_car_d = 1'b0;
        end
      end

      Store: begin   // R = AC + c*M, 32-bit words; the word in stw_q waits for gnt
        io_d = io_q + 1;
        mem_req   = stv_q;
        mem_we    = 1'b1;
        mem_addr  = MemAw'(SLOT_R * SlotWords + 32'(sa_q));
        mem_wdata = stw_q;
        if (stv_q && eng_i.mem.gnt) stv_d = 1'b0;
        if ((!stv_q || eng_i.mem.gnt) && req_q != nw32_q) begin
          st_sum   = 33'(wsel32(ac_q, LIW'(req_q))) + 33'(cm_word(cac_q, n32, smp_q, req_q == '0))
                   + 33'(st_car_q);
          stw_d    = st_sum[31:0];
          st_car_d = st_sum[32];
          smp_d    = n32[31];
          stv_d    = 1'b1;
          sa_d     = req_q;
          req_d    = req_q + 1;
        end
        if (stv_q && eng_i.mem.gnt && sa_q == nw32_q - 16'd1) begin
          req_d   = '0;
          state_d = ToggleCnt == 1 ? TogStore : Done;
        end
      end

      TogStore: begin
        io_d = io_q + 1;
        mem_req   = 1'b1;
        mem_we    = 1'b1;
        mem_addr  = MemAw'(SLOT_X2 * SlotWords + 32'(req_q));
        mem_wdata = tog_q[req_q[2:0]];
        if (eng_i.mem.gnt) begin
          req_d = req_q + 1;
          if (req_q + 1 == 16'(NTog)) state_d = Done;
        end
      end

      Done: begin
        done  = 1'b1;
        state_d = Idle;
      end

      Wipe: begin   // OP_ZEROIZE: one cycle; every register is cleared below, the kernel by wipe
        cyc_d   = cyc_q + 1;
        dirty_d = 1'b0;
        state_d = Done;
      end

      default: state_d = Idle;
    endcase

    // operands of the next product, chosen as it is issued (the shift registers load in PSetup)
    if (state_d == PSetup) begin
      dac_d = 1'b1;
      dxb_d = 1'b0;
      unique case (step_d)
        StFirst: begin
          if (kind_q == OpModexpCt) begin   // X = Mont(A, W) -> XB (R1)
            asel_d = SrcXa;
            bsel_d = SrcWw;
            dac_d  = 1'b0;
            dxb_d  = 1'b1;
          end else if (kind_q == OpModexp) begin
            asel_d = enz_q ? SrcXa : SrcWw;
            bsel_d = enz_q ? SrcWw : SrcOne;
            dxb_d  = enz_q;
          end else begin
            asel_d = SrcXa;
            bsel_d = SrcYb;
          end
        end
        StSecond: begin asel_d = SrcAc; bsel_d = SrcWw; end
        StSquare: begin asel_d = SrcAc; bsel_d = SrcAc; end
        StMult:   begin asel_d = SrcAc; bsel_d = SrcXb; end
        StOne:    begin asel_d = SrcWw; bsel_d = SrcOne; end   // R0 = R mod N -> AC
        // ladder step of bit b (ebit_q, latched in lbit): R_(1-b) = R0 R1, then R_b = R_b^2
        StLadMul: begin
          asel_d = SrcAc;
          bsel_d = SrcXb;
          dac_d  = ebit_q;
          dxb_d  = !ebit_q;
          lbit_d = ebit_q;
        end
        StLadSq:  begin
          asel_d = lbit_q ? SrcXb : SrcAc;
          bsel_d = lbit_q ? SrcXb : SrcAc;
          dac_d  = !lbit_q;
          dxb_d  = lbit_q;
        end
        default:  begin asel_d = SrcAc; bsel_d = SrcOne; end
      endcase
    end

    // the word read for the next cycle's t (0 in PSetup and in a pass's last cycle)
    // words of the loaded operands, with the lengths (the load starts in the next cycle)
    nw32_d  = (len_d + 16'd31) >> 5;
    nwe32_d = (elen_d + 16'd31) >> 5;

    // rd restarts at 0 for PSetup (which reads word 0 for the first cycle of PRun) and for a pass's
    // first cycle; decoded from registers, not from the next state: from PRun, the last word of
    // the last pass (next PSetup or Store) or a pass's end; from Check, Idle, Load, Drain and the
    // store states always (rd is read only in PSetup and PRun); from PSetup never (its next cycle
    // reads word 1)
    rd0_d = state_q == PRun ? (last_q && fin_q) || (wrap_d && !last_d) : state_q != PSetup;
    rd_d  = rd0_d ? '0 : rd_q + 1;
    rdn_d = rd0_d ? RIW'(1) : RIW'(rd_q + 2);

    // OP_ZEROIZE: every register at 0 in the wipe's cycle and until the next command (the counter
    // cyc holds the wipe's cycles for the port; state, status, kind, step are 0 = Idle, OK, ...)
    if (!dirty_d) begin
      kind_d = OpMontmul; step_d = StFirst; status_d = ST_OK; io_d = '0;
      len_d = '0; elen_d = '0; arg_d = '0;
      nm_d = '0; xa_d = '0; yb_d = '0; ww_d = '0; ac_d = '0; xb_d = '0; ee_d = '0;
      ssm_d = '0; scm_d = '0; clm_d = 1'b0; cac_d = '0; cxb_d = '0;
      nw32_d = '0; nwe32_d = '0;
      ld_d = '0; req_d = '0; rsp_d = '0;
      lv_d = 1'b0; lfst_d = 1'b0; llst_d = 1'b0; lw_d = '0; li_d = '0; ls_d = '0;
      neven_d = 1'b0; ngt1_d = 1'b0; nhi_d = 1'b0; ehi_d = 1'b0; ge_d = 1'b0; rng_d = 1'b0;
      enz_d = 1'b0; etop_d = '0;
      stv_d = 1'b0; st_car_d = 1'b0; smp_d = 1'b0; stw_d = '0; sa_d = '0;
      asel_d = SrcXa; bsel_d = SrcXa; dac_d = 1'b0; dxb_d = 1'b0;
      ib_d = '0; ebit_d = 1'b0; lbit_d = 1'b0; lend_d = 1'b0;
      t_d = '0; rd_d = '0; rdn_d = '0; rd0_d = 1'b0; first_d = 1'b0; kv_d = 1'b0; klast_d = 1'b0; wrap_d = 1'b0; pv_d = 1'b0;
      fin_d = 1'b0; advo_d = 1'b0; cov_d = '0; last_d = 1'b0; nlast_d = 1'b0; p0_d = 1'b0;
      dcar_d = 1'b0; aprev_d = 1'b0; dig_d = '0; ash_d = '0; cmsh_d = '0;
      kb_d = '0; km_d = '0; kss_d = '0; ksc_d = '0; bcar_d = 1'b0; bmp_d = 1'b0;
      ohw_d = '0;
      for (int i = 0; i < NTog; i++) tog_d[i] = '0;
    end
  end

  // the kernel and the post-processor are cleared in the wipe's cycle and held at 0 after it
  assign wipe = state_q == Wipe || !dirty_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= Idle; kind_q <= OpMontmul; step_q <= StFirst; status_q <= ST_OK;
      cyc_q <= '0; io_q <= '0; ld_q <= '0; req_q <= '0; rsp_q <= '0;
      cac_q <= '0; cxb_q <= '0;
      lv_q <= 1'b0; stv_q <= 1'b0;
      first_q <= 1'b0; kv_q <= 1'b0; klast_q <= 1'b0; wrap_q <= 1'b0; pv_q <= 1'b0;
      fin_q <= 1'b0; advo_q <= 1'b0;
      dirty_q <= 1'b1;
    end else begin
      state_q <= state_d; kind_q <= kind_d; step_q <= step_d; status_q <= status_d;
      cyc_q <= cyc_d; io_q <= io_d; ld_q <= ld_d; req_q <= req_d; rsp_q <= rsp_d;
      cac_q <= cac_d; cxb_q <= cxb_d;
      lv_q <= lv_d; stv_q <= stv_d;
      first_q <= first_d; kv_q <= kv_d; klast_q <= klast_d; wrap_q <= wrap_d; pv_q <= pv_d;
      fin_q <= fin_d; advo_q <= advo_d;
      dirty_q <= dirty_d;
    end
  end

  always_ff @(posedge clk_i) begin
    len_q <= len_d; elen_q <= elen_d; arg_q <= arg_d;
    nm_q <= nm_d; xa_q <= xa_d; yb_q <= yb_d; ww_q <= ww_d; ac_q <= ac_d; xb_q <= xb_d; ee_q <= ee_d;
    ssm_q <= ssm_d; scm_q <= scm_d; clm_q <= clm_d;
    e_q <= e_d; em2_q <= em2_d; pm2_q <= pm2_d; fm2_q <= fm2_d; nw32_q <= nw32_d; nwe32_q <= nwe32_d;
    direct_q <= direct_d; byp_q <= byp_d; byp2_q <= byp2_d; lastp0_q <= lastp0_d; hi_q <= hi_d;
    lfst_q <= lfst_d; llst_q <= llst_d; lw_q <= lw_d; li_q <= li_d; ls_q <= ls_d;
    neven_q <= neven_d; ngt1_q <= ngt1_d; nhi_q <= nhi_d; ehi_q <= ehi_d; ge_q <= ge_d;
    rng_q <= rng_d; enz_q <= enz_d; etop_q <= etop_d;
    st_car_q <= st_car_d; smp_q <= smp_d; stw_q <= stw_d; sa_q <= sa_d;
    asel_q <= asel_d; bsel_q <= bsel_d; dac_q <= dac_d; dxb_q <= dxb_d;
    ib_q <= ib_d; ebit_q <= ebit_d; lbit_q <= lbit_d; lend_q <= lend_d;
    t_q <= t_d; rd_q <= rd_d; rdn_q <= rdn_d; rd0_q <= rd0_d; cov_q <= cov_d; last_q <= last_d; nlast_q <= nlast_d; p0_q <= p0_d;
    dcar_q <= dcar_d; aprev_q <= aprev_d; dig_q <= dig_d; ash_q <= ash_d; cmsh_q <= cmsh_d;
    kb_q <= kb_d; km_q <= km_d; kss_q <= kss_d; ksc_q <= ksc_d; bcar_q <= bcar_d; bmp_q <= bmp_d;
    bwn_q <= bwn_d; nmn_q <= nmn_d; ssn_q <= ssn_d; scn_q <= scn_d;
    ohw_q <= ohw_d;
    tog_q <= tog_d;
  end

  assign cmd_ready = (state_q == Idle);
  assign status    = status_q;
  assign cycles    = cyc_q;
  assign io_cycles = io_q;

  logic unused;
  assign unused = ^{eng_i.cmd.arg[31:2], ge_sum[31:0]};
endmodule
