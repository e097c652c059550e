// SPDX-License-Identifier: Apache-2.0
// pka_csa2_core: carry-save radix-2 Montgomery exponentiator (paper 000, Cilardo et al.), the
// controller of Figure 1 around the L+4 bit-slices of pka_csa2_array, with the common boundary.
//
// OP_MODEXP     R = A^E mod N   (K = eng_i.cmd.len modulus bits, H = eng_i.cmd.elen exponent bits)
// OP_MODEXP_CT  R = A^E mod N   by Montgomery's powering ladder over exactly H bits (constant time)
// OP_MODMUL     R = A * B mod N
// OP_ZEROIZE    the wipe (pka_pkg): every register cleared in one cycle, no port access
// Slots: N, A, B (modmul), E (modexp), W = (2^(K+2))^2 mod N (host-precomputed) -> R.
// Operands A, B, W < N, N odd with N < 2^K; 3 <= K <= MaxLen, H <= MaxLen (H = 0: R = 1).
//
// Algorithm 3 (right-to-left) in H+2 rounds of Algorithm 2, each round a Z product and a P product
// in parallel sharing B: round 0 Z = MonProd(A, W), P = MonProd(1, W) (modmul: P = MonProd(B, W));
// rounds 1..H Z = MonProd(Z, Z) and, if E_(j) = 1, P = MonProd(P, Z); round H+1 MonProd(P, 1),
// which is <= N by Walter's result (= N only when A^E = 0 mod N: stored as 0). A round is the loop
// h = 0..K+4 (V_NEXT selected in the array from A_h and the look-ahead q while the slices add
// the V selected one cycle earlier), then the carry-propagate waves U = S/2 + C (Z and P) and
// 4B + N for the next round (B = the new Z, or 1 before the final round).
//
// OP_MODEXP_CT: round 0 as above (R1 = MonProd(A, W) in Z, R0 = MonProd(1, W) in P); rounds
// 1..H the ladder, MSB first, both products with B = R_b (Z: R_b := MonProd(R_b, R_b), P:
// R_(1-b) := MonProd(R_(1-b), R_b)); round H+1 MonProd(R0, 1) in both sections. E is loaded
// bit-reversed (word w at word ne-1-w) and aligned by 32 ne - H bits (five shift stages in round
// 0), then read at e_q[0] and shifted once a round. At the end of a round the wave sums cross
// over when the next bit differs (swap, azp: the choice of source, same cycles). The result is
// compared with N from A^P (a pass without port access) and stored from A^Z's copy, 0 if it
// equals N: no data-dependent pass. cycles as MODEXP with the same H.
// Cycles (cycles, compute only; operand load/store in io_cycles), Nc = ceil((K+4)/ChunkW):
//   pre-computation 4W + N: Nc + 1; a round: (K+4) loop + (Nc+1) waves (+ the loop's first step
//   overlapped with the previous wave's last cycle).
//   ChunkW = 1 (paper): padded to exactly the paper's (2K+14)(H+2) + K + 7.
//   ChunkW > 1 (fast):  (Nc+1) + (H+2)(K+5+Nc); ChunkW = 32, K = H = 1024: 0.52x the paper.
// Timing: every control of the array is registered in pka_csa2_array (a copy per 32 slices), so
// the controller computes each one for the next cycle, from registered phase flags (rem = 0, 1, 2
// of a down-counter) rather than from wide compares; only the look-ahead selection q goes straight
// from the low slices through the q function to the V registers. Nothing selects a word out of a
// wide register: the result is stored from words 0/1 of A^P while the array shifts A^P and N down
// a word per stored word; E words are written through registered word hits (as the array's load
// lanes) and E shifts on a registered enable; the word counters carry registered "last" flags.
// Errors (status, then done within a bounded number of cycles): unknown op ST_ERR_OPCODE; K < 3,
// K > MaxLen, H > MaxLen ST_ERR_LENGTH; even N ST_ERR_EVEN_MODULUS; N >= 2^K or A, B, W >= N
// ST_ERR_OPERAND_RANGE. eng_i.cmd.arg is unused. OP_ZEROIZE: after the wipe every register is 0
// but cyc_q (the wipe's cycle count) and wiped_q (holds the length-derived flags at 0 until the
// next command).
`default_nettype none

module pka_csa2_core
  import pka_pkg::*;
#(
  parameter int unsigned MaxLen = 64,  // L: largest modulus in bits, multiple of 32, 32..4096
  parameter int unsigned MemAw  = 8,   // word address width: 16 slots of 2^(MemAw-4) words
  parameter int unsigned ChunkW = 1    // 1: the paper's bit-serial waves and cycle count;
                                       // 2..64 (power of two): chunked waves (fast variant)
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

  localparam int unsigned Words     = MaxLen / 32;
  localparam int unsigned SlotWords = 1 << (MemAw - 4);
  localparam int unsigned WiW       = $clog2(Words + 1);
  localparam int unsigned ChunkLog  = $clog2(ChunkW);
  localparam bit          Paper     = (ChunkW == 1);
  localparam logic [15:0] PadPre    = 16'd7;  // paper schedule: (K+5) + 2 = K+7 before round 0
  localparam logic [15:0] PadRound  = 16'd5;  // paper schedule: 5 + (K+4) + (K+5) = 2K+14 a round

  initial begin
    if (MaxLen % 32 != 0 || MaxLen < 32 || MaxLen > 4096) $fatal(1, "MaxLen: multiple of 32 in 32..4096");
    if (Words > SlotWords) $fatal(1, "MemAw too small for MaxLen");
    if (ChunkW < 1 || ChunkW > 64 || (1 << ChunkLog) != ChunkW) $fatal(1, "ChunkW: power of two 1..64");
  end

  typedef enum logic [3:0] {Idle, Load, Check, Pre, Pad, Loop, Cpa, Store, Zero, Done, Wipe, Cmp} state_e;
  state_e state_q, state_d;

  logic        mul_q, mul_d;                 // OP_MODMUL
  logic        ct_q, ct_d;                   // OP_MODEXP_CT (the ladder)
  logic        wiped_q, wiped_d;             // idle after OP_ZEROIZE: derived registers held at 0
  logic        cb_q, cb_d;                   // ladder: the bit of this round (secret), 1 in round 0
  logic [4:0]  fe_q, fe_d;                   // ladder: E alignment, 32 ne - H
  logic [4:0]  ast_q, ast_d;                 // ladder: alignment stage (one-hot: >> 16, 8, 4, 2, 1)
  logic        pendz_q;                      // A^Z shifts this cycle (OP_MODEXP_CT's store)
  logic [15:0] k_q, k_d, h_q, h_d;           // K, H (modmul: 1)
  logic [7:0]  status_q, status_d;
  logic [31:0] cyc_q, cyc_d, io_q, io_d;
  // load sequencer: per word index the items N, A, (B,) W, then the words of E
  logic [WiW-1:0] rq_word_q, rq_word_d, rs_word_q, rs_word_d;
  logic [WiW-1:0] nwm1_q, nwm1_d, nem1_q, nem1_d;  // words of N (and A, B, W), of E: minus 1
  logic        rq_last_q, rq_last_d, rs_last_q, rs_last_d;  // the counter is at its last word
  logic        ne0_q, ne0_d;                 // no words of E (modmul, H = 0)
  logic [31:0] top_mask_q, top_mask_d;       // the bits of N's top word below 2^K
  logic [1:0]  rq_item_q, rq_item_d, rs_item_q, rs_item_d;
  logic        rq_e_q, rq_e_d, rs_e_q, rs_e_d, rq_done_q, rq_done_d;
  logic [31:0] nword_q, nword_d;             // the last word of N (compared with A, B, W)
  logic [3:1]  lt_q, lt_d;                   // item < N so far (LSB-first comparison)
  logic        even_q, even_d, wide_q, wide_d;
  logic [MaxLen-1:0] e_q, e_d;
  logic [Words-1:0] hit_e_q, hit_e_d;        // E word loads, registered (E written a cycle later)
  logic [31:0] e_ld_q;
  logic        esh_q, esh_d;                 // E shifts this cycle (the last wave cycle, round > 0)
  logic        rnz_q, rnz_d;                 // round != 0
  // exponentiation control
  logic [15:0] rem_q, rem_d;                 // cycles left in the phase after this one
  logic        last_q, last_d, pen_q, pen_d, rem2_q, rem2_d;  // rem = 0, 1, 2
  logic [15:0] round_q, round_d;
  logic        enp_q, enp_d;                 // the P product runs this round
  logic        eq_q, eq_d;                   // stored result equals N so far
  logic [15:0] nc_q, nc_d, kp3_q, kp3_d;     // wave steps over the K+4 slices; K+3
  logic        nc1_q, nc1_d, nc2_q, nc2_d;   // nc = 1, nc = 2
  logic        init_q, init_d;               // the array's init (Algorithm 2 step 1) this cycle
  // Round flags, registered from round_q: the round changes in a wave's last cycle and they are
  // read in waves (and the init cycle after one) only, K+4 or more cycles later.
  logic [15:0] hp1_q, hp1_d;                 // H+1
  logic        final_q, final_d;             // round H+1 (the final MonProd(P, 1))
  logic        oner_q, oner_d;               // round H (B := 1 for the final round)
  logic        enpn_q, enpn_d;               // the P product runs in the next round
  logic        pre0_q, pre0_d;               // first cycle of Pre
  logic        pend_q;                       // A^P, N shift this cycle (the array's view lags one word)

  // ---- the datapath ---------------------------------------------------------------------------
  // controls of the next cycle (registered in the array)
  logic loop_z_d, loop_p_d, shift_z_d, shift_p_d, one_d, run_u_d, run_bn_d, st_shift_d;
  logic stz_shift_d, swap_d, azp_d;
  // wave starts (the token is at chunk 0 next cycle), loading
  logic u_z_start, u_p_start, clr, ld_valid;
  logic [2:0] ld_tgt;
  logic [63:0] ap_lo, n_lo, az_lo;

  pka_csa2_array #(.MaxLen(MaxLen), .ChunkW(ChunkW)) u_array (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .init_i       (init_d),
    .loop_z_i     (loop_z_d),
    .loop_p_i     (loop_p_d),
    .shift_z_i    (shift_z_d),
    .shift_p_i    (shift_p_d),
    .one_i        (one_d),
    .run_u_i      (run_u_d),
    .run_bn_i     (run_bn_d),
    .st_shift_i   (st_shift_d),
    .stz_shift_i  (stz_shift_d),
    .swap_i       (swap_d),
    .azp_i        (azp_d),
    .wipe_i       (state_d == Wipe),
    .u_z_start_i  (u_z_start),
    .u_p_start_i  (u_p_start),
    .bn_start_i   (pre0_q),
    .clr_i        (clr),
    .ap_one_i     (op_e'(eng_i.cmd.op) == OP_MODEXP || op_e'(eng_i.cmd.op) == OP_MODEXP_CT),
    .ld_valid_i   (ld_valid),
    .ld_tgt_i     (ld_tgt),
    .ld_word_i    (rs_word_q),
    .ld_data_i    (eng_i.mem.rdata),
    .ap_lo_o      (ap_lo),
    .n_lo_o       (n_lo),
    .az_lo_o      (az_lo)
  );

  // ---- helpers ----------------------------------------------------------------------------------
  function automatic logic [3:0] item_slot(logic mul, logic [1:0] item);
    unique case (item)
      2'd0:    return 4'(SLOT_N);
      2'd1:    return 4'(SLOT_A);
      2'd2:    return mul ? 4'(SLOT_B) : 4'(SLOT_W);
      default: return 4'(SLOT_W);
    endcase
  endfunction

  function automatic logic [2:0] item_tgt(logic mul, logic [1:0] item);  // pka_csa2_array ld_tgt
    unique case (item)
      2'd0:    return 3'd0;                  // N
      2'd1:    return 3'd2;                  // A -> A^Z
      2'd2:    return mul ? 3'd3 : 3'd1;     // B -> A^P, or W -> 4B
      default: return 3'd1;                  // W -> 4B
    endcase
  endfunction

  function automatic logic [MemAw-1:0] addr(logic [3:0] slot, logic [WiW-1:0] w);
    return MemAw'(32'(slot) * SlotWords + 32'(w));
  endfunction

  function automatic logic [31:0] bitrev(logic [31:0] x);
    for (int unsigned i = 0; i < 32; i++) bitrev[i] = x[31 - i];
  endfunction

  logic [1:0]  last_item;
  logic        hold0;                        // the wipe: every register's next value is 0
  logic        ebit_next, st_eq, nbit;
  logic [31:0] st_word, stz_word;

  always_comb begin
    last_item   = mul_q ? 2'd3 : 2'd2;
    nc_d        = Paper ? k_q + 16'd4 : (k_q + 16'd4 + 16'(ChunkW - 1)) >> ChunkLog;
    kp3_d       = k_q + 16'd3;
    nc1_d       = (nc_d == 16'd1);
    nc2_d       = (nc_d == 16'd2);
    hp1_d       = h_q + 16'd1;
    final_d     = (round_q == hp1_q);
    oner_d      = (round_q == h_q);
    ebit_next   = rnz_q ? e_q[1] : e_q[0];
    enpn_d      = oner_q | mul_q | ct_q | ebit_next;
    nbit        = oner_q | e_q[0];           // the ladder's next bit (1: the final round's R0)
    // the word being stored: word 0 of A^P, or word 1 while the array applies a shift
    st_word     = pend_q ? ap_lo[63:32] : ap_lo[31:0];
    st_eq       = pend_q ? (ap_lo[63:32] == n_lo[63:32]) : (ap_lo[31:0] == n_lo[31:0]);
    stz_word    = pendz_q ? az_lo[63:32] : az_lo[31:0];
    if (hold0) {nc_d, kp3_d, nc1_d, nc2_d, hp1_d, final_d, oner_d, enpn_d} = '0;   // the wipe
  end

  // ---- controller -------------------------------------------------------------------------------
  logic rem_ld, rem_nc;   // rem_d is loaded (with nc)
  logic nx_pre, nx_pad, nx_loop, nx_cpa;   // the phase of the next cycle
  always_comb begin
    state_d = state_q;
    mul_d = mul_q; k_d = k_q; h_d = h_q;
    status_d = status_q; cyc_d = cyc_q; io_d = io_q;
    rq_word_d = rq_word_q; rq_item_d = rq_item_q; rq_e_d = rq_e_q; rq_done_d = rq_done_q;
    rs_word_d = rs_word_q; rs_item_d = rs_item_q; rs_e_d = rs_e_q;
    nword_d = nword_q; lt_d = lt_q; even_d = even_q; wide_d = wide_q; e_d = e_q;
    rem_d = rem_q; round_d = round_q; enp_d = enp_q; eq_d = eq_q;
    nwm1_d = nwm1_q; nem1_d = nem1_q; ne0_d = ne0_q; top_mask_d = top_mask_q; rnz_d = rnz_q;
    ct_d = ct_q; wiped_d = wiped_q; cb_d = cb_q; fe_d = fe_q; ast_d = ast_q >> 1;
    hit_e_d = '0; st_shift_d = 1'b0; stz_shift_d = 1'b0;
    rem_ld = 1'b0; rem_nc = 1'b0; pre0_d = 1'b0;
    mem_req = 1'b0; mem_we = 1'b0; mem_addr = '0; mem_wdata = '0;
    done = 1'b0;
    clr = 1'b0; ld_valid = 1'b0; ld_tgt = '0;

    unique case (state_q)
      Idle: if (eng_i.cmd_valid) begin
        cyc_d = '0; io_d = '0; status_d = ST_OK; wiped_d = 1'b0;
        mul_d = (op_e'(eng_i.cmd.op) == OP_MODMUL);
        ct_d  = (op_e'(eng_i.cmd.op) == OP_MODEXP_CT);
        fe_d  = 5'(-eng_i.cmd.elen);            // 32 ne - H: E's leading bits in its top word
        k_d   = eng_i.cmd.len;
        h_d   = (op_e'(eng_i.cmd.op) == OP_MODMUL) ? 16'd1 : eng_i.cmd.elen;
        nwm1_d = WiW'((32'(eng_i.cmd.len) - 1) / 32);
        nem1_d = WiW'((32'(eng_i.cmd.elen) - 1) / 32);   // (used only if E has words)
        ne0_d  = (op_e'(eng_i.cmd.op) == OP_MODMUL) || (eng_i.cmd.elen == 16'd0);
        top_mask_d = (eng_i.cmd.len[4:0] == 5'd0) ? 32'hFFFF_FFFF : (32'd1 << eng_i.cmd.len[4:0]) - 32'd1;
        rq_word_d = '0; rq_item_d = '0; rq_e_d = 1'b0; rq_done_d = 1'b0;
        rs_word_d = '0; rs_item_d = '0; rs_e_d = 1'b0;
        lt_d = '0; even_d = 1'b0; wide_d = 1'b0; nword_d = '0;
        e_d = '0; clr = 1'b1;
        state_d = Load;
        if (op_e'(eng_i.cmd.op) == OP_ZEROIZE) begin
          state_d = Wipe;    // the array clears on clr (this cycle's) and init (below)
        end else if (op_e'(eng_i.cmd.op) != OP_MODEXP && op_e'(eng_i.cmd.op) != OP_MODMUL &&
                     op_e'(eng_i.cmd.op) != OP_MODEXP_CT) begin
          status_d = ST_ERR_OPCODE; state_d = Done;
        end else if (eng_i.cmd.len < 16'd3 || 32'(eng_i.cmd.len) > MaxLen ||
                     (op_e'(eng_i.cmd.op) != OP_MODMUL && 32'(eng_i.cmd.elen) > MaxLen)) begin
          status_d = ST_ERR_LENGTH; state_d = Done;
        end
      end

      // Reads, in order: for each word i: N[i], A[i], (B[i],) W[i]; then E[0..ne-1]. Several reads
      // may be in flight; responses come back in order one cycle after each grant.
      Load: begin
        io_d = io_q + 1;
        if (!rq_done_q) begin
          mem_req  = 1'b1;
          mem_addr = rq_e_q ? addr(4'(SLOT_E), rq_word_q) : addr(item_slot(mul_q, rq_item_q), rq_word_q);
          if (eng_i.mem.gnt) begin
            if (rq_e_q) begin
              rq_word_d = rq_word_q + 1;
              if (rq_last_q) rq_done_d = 1'b1;
            end else if (rq_item_q != last_item) begin
              rq_item_d = rq_item_q + 1;
            end else begin
              rq_item_d = '0;
              rq_word_d = rq_word_q + 1;
              if (rq_last_q) begin
                rq_word_d = '0;
                if (ne0_q) rq_done_d = 1'b1;
                else rq_e_d = 1'b1;
              end
            end
          end
        end
        if (eng_i.mem.rvalid) begin
          if (rs_e_q) begin
            for (int unsigned w = 0; w < Words; w++) begin   // E[rs_word] := the data, next cycle
              if (32'(ct_q ? WiW'(nem1_q - rs_word_q) : rs_word_q) == w) hit_e_d[w] = 1'b1;
            end
            rs_word_d = rs_word_q + 1;
            if (rs_last_q) state_d = Check;
          end else begin
            ld_valid = 1'b1;
            ld_tgt   = item_tgt(mul_q, rs_item_q);
            if (rs_item_q == 2'd0) begin
              nword_d = eng_i.mem.rdata;
              if (rs_word_q == 0) even_d = ~eng_i.mem.rdata[0];
              if (rs_last_q) wide_d = |(eng_i.mem.rdata & ~top_mask_q);
            end else begin
              lt_d[rs_item_q] = (eng_i.mem.rdata < nword_q) | ((eng_i.mem.rdata == nword_q) & lt_q[rs_item_q]);
            end
            if (rs_item_q != last_item) begin
              rs_item_d = rs_item_q + 1;
            end else begin
              rs_item_d = '0;
              rs_word_d = rs_word_q + 1;
              if (rs_last_q) begin
                rs_word_d = '0;
                if (ne0_q) state_d = Check;
                else rs_e_d = 1'b1;
              end
            end
          end
        end
      end

      Check: begin
        io_d = io_q + 1;
        if (even_q) begin
          status_d = ST_ERR_EVEN_MODULUS; state_d = Done;
        end else if (wide_q || !lt_q[1] || !lt_q[2] || (mul_q && !lt_q[3])) begin
          status_d = ST_ERR_OPERAND_RANGE; state_d = Done;
        end else begin
          state_d = Pre; round_d = '0; rnz_d = 1'b0; enp_d = 1'b1; pre0_d = 1'b1;
          cb_d = 1'b1; ast_d = ct_q ? 5'b10000 : 5'b00000;   // round 0: A^Z = R1, A^P = R0
          rem_d = nc_q; rem_ld = 1'b1; rem_nc = 1'b1;
        end
      end

      // 4W + N (W was loaded as 4B) for round 0: nc + 1 cycles, the 4B + N token at chunk 0 in the
      // second.
      Pre: begin
        cyc_d = cyc_q + 1;
        rem_d = rem_q - 1;
        if (last_q) begin
          rem_ld = 1'b1;
          if (Paper) begin
            state_d = Pad; rem_d = PadPre - 16'd1;
          end else begin
            state_d = Loop; rem_d = kp3_q;
          end
        end
      end

      // Paper schedule only: the cycles the paper's count has beyond our loop and waves.
      Pad: begin
        cyc_d = cyc_q + 1;
        rem_d = rem_q - 1;
        if (last_q) begin
          state_d = Loop; rem_d = kp3_q; rem_ld = 1'b1;
        end
      end

      // Algorithm 2, iterations h = 1..K+4 (h = 0 is the init step in the cycle before).
      Loop: begin
        cyc_d = cyc_q + 1;
        rem_d = rem_q - 1;
        if (last_q) begin
          state_d = Cpa; rem_d = nc_q; rem_ld = 1'b1; rem_nc = 1'b1;
        end
      end

      // U = S/2 + C in both sections (A^Z, 4B := new Z; A^P := new P), then 4B + N one chunk
      // behind: nc + 1 cycles.
      Cpa: begin
        cyc_d = cyc_q + 1;
        rem_d = rem_q - 1;
        if (last_q) begin
          if (final_q) begin
            state_d = ct_q ? Cmp : Store; rq_word_d = '0; rq_e_d = 1'b0; eq_d = 1'b1;
          end else begin
            if (ct_q) cb_d = nbit;            // the ladder's bit of the next round
            round_d = round_q + 1; rnz_d = 1'b1;
            enp_d = enpn_q;
            rem_ld = 1'b1;
            if (Paper) begin
              state_d = Pad; rem_d = PadRound - 16'd1;
            end else begin
              state_d = Loop; rem_d = kp3_q;
            end
          end
        end
      end

      // R := A^P word by word (each granted word shifts A^P and N down a word); if it equals N
      // (only when the result is 0 mod N), write zeros.
      // OP_MODEXP_CT: compare A^P with N word by word (A^P, N shift), no port access; then Store
      // writes A^Z's copy, or 0 if it equals N: the same passes whatever the result.
      Cmp: begin
        io_d = io_q + 1;
        st_shift_d = 1'b1;
        eq_d = eq_q & st_eq;
        rq_word_d = rq_word_q + 1;
        if (rq_last_q) begin
          rq_word_d = '0; state_d = Store;
        end
      end

      Store: begin
        io_d = io_q + 1;
        mem_req = 1'b1; mem_we = 1'b1;
        mem_addr = addr(4'(SLOT_R), rq_word_q);
        mem_wdata = ct_q ? (eq_q ? '0 : stz_word) : st_word;
        if (eng_i.mem.gnt) begin
          if (ct_q) stz_shift_d = 1'b1;
          else begin
            st_shift_d = 1'b1;
            eq_d = eq_q & st_eq;
          end
          rq_word_d = rq_word_q + 1;
          if (rq_last_q) begin
            rq_word_d = '0;
            state_d = (eq_d && !ct_q) ? Zero : Done;
          end
        end
      end

      // OP_ZEROIZE: the array clears this cycle (clr, init from the accept; V := 0), every
      // register of the controller too (hold0 below)
      Wipe: begin
        cyc_d = cyc_q + 1;
        wiped_d = 1'b1;
        state_d = Done;
      end

      Zero: begin
        io_d = io_q + 1;
        mem_req = 1'b1; mem_we = 1'b1;
        mem_addr = addr(4'(SLOT_R), rq_word_q);
        if (eng_i.mem.gnt) begin
          rq_word_d = rq_word_q + 1;
          if (rq_last_q) state_d = Done;
        end
      end

      Done: begin
        done = 1'b1;
        state_d = Idle;
      end

      default: state_d = Idle;
    endcase

    // E: the registered word loads, and the shift by one bit per round after round 0
    // (OP_MODEXP_CT: bit-reversed at word ne-1-w, then aligned: e_q[0] = E_(H-1))
    for (int unsigned w = 0; w < Words; w++) begin
      if (hit_e_q[w]) e_d[32 * w +: 32] = ct_q ? bitrev(e_ld_q) : e_ld_q;
    end
    for (int unsigned j = 0; j < 5; j++) begin
      if (ast_q[j] && fe_q[j]) e_d = e_q >> (1 << j);
    end
    if (esh_q) e_d = e_q >> 1;
    // the word counters' "last word" flags for the next cycle
    rq_last_d = (rq_word_d == (rq_e_d ? nem1_d : nwm1_d));
    rs_last_d = (rs_word_d == (rs_e_d ? nem1_d : nwm1_d));

    // The phase flags of the next cycle: rem_d = 0, 1, 2 (shallow: no compare on rem_d).
    if (rem_ld) begin
      last_d = 1'b0; pen_d = rem_nc & nc1_q; rem2_d = rem_nc & nc2_q;   // phases are >= 2 cycles
    end else if (state_q == Pre || state_q == Pad || state_q == Loop || state_q == Cpa) begin
      last_d = pen_q; pen_d = rem2_q; rem2_d = (rem_q == 16'd3);
    end else begin
      last_d = last_q; pen_d = pen_q; rem2_d = rem2_q;
    end

    // The wipe (OP_ZEROIZE) and the idle after it: every register of the controller 0 but the
    // state, the cycle count and the wiped flag (the array clears on clr + init, see Wipe).
    hold0 = (state_q == Wipe) || wiped_d;
    if (hold0) begin
      mul_d = 1'b0; k_d = '0; h_d = '0; status_d = ST_OK; io_d = '0;
      rq_word_d = '0; rq_item_d = '0; rs_word_d = '0; rs_item_d = '0;
      rq_e_d = 1'b0; rs_e_d = 1'b0; rq_done_d = 1'b0;
      nword_d = '0; lt_d = '0; even_d = 1'b0; wide_d = 1'b0; e_d = '0; hit_e_d = '0;
      nwm1_d = '0; nem1_d = '0; ne0_d = 1'b0; top_mask_d = '0; rq_last_d = 1'b0; rs_last_d = 1'b0;
      rnz_d = 1'b0; eq_d = 1'b0; rem_d = '0; last_d = 1'b0; pen_d = 1'b0; rem2_d = 1'b0;
      round_d = '0; enp_d = 1'b0; pre0_d = 1'b0; ct_d = 1'b0; cb_d = 1'b0; fe_d = '0; ast_d = '0;
      st_shift_d = 1'b0; stz_shift_d = 1'b0;
    end

    // The array's controls for the next cycle, from the phase of the next cycle (the same
    // transitions as the state machine above, written out so that they depend on flags only).
    nx_pre  = (state_q == Pre && !last_q) || pre0_d;
    nx_pad  = Paper && ((state_q == Pad && !last_q) ||
                        (last_q && (state_q == Pre || (state_q == Cpa && !final_q))));
    nx_loop = (state_q == Loop && !last_q) || init_q;
    nx_cpa  = (state_q == Cpa && !last_q) || (state_q == Loop && last_q);
    // Algorithm 2 step 1 and the h = 0 iteration (V := A_0 * 4B, q = 0, A shifts), in the cycle
    // before the loop: the last cycle of the previous wave (fast) or of the padding (paper).
    init_d    = last_d && ((nx_pre && !Paper) || nx_pad || (nx_cpa && !final_q && !Paper));
    loop_z_d  = nx_loop;
    loop_p_d  = nx_loop && enp_d;
    shift_z_d = nx_loop || init_d;
    // the P section shifts in the init cycle if it runs in the round that follows: enpn_q when
    // that init ends a wave (the round changes with it), else enp_d
    shift_p_d = (nx_loop && enp_d) || (init_d && (nx_cpa ? enpn_q : enp_d));
    one_d     = oner_q;           // B := 1 before the final round (read in waves only)
    run_u_d   = nx_cpa && !last_d && !pen_d;     // the U token is not yet at chunk nc-1
    run_bn_d  = (nx_pre || nx_cpa) && !last_d;   // the 4B + N token is not yet at chunk nc-1
    u_z_start = (state_q == Loop) && last_q;
    // E shifts in the last cycle of a wave that ends a round > 0 before the final one (the
    // ladder: every round before the final one, round 0 included)
    esh_d     = nx_cpa && last_d && !final_q && (rnz_q || ct_q);
    u_p_start = u_z_start && enp_q;
    // The ladder's crossing at the end of a round (its waves): the next round's bit nbit differs
    // from this round's cb: A^P := U^Z, B := U^P; before the final round A^Z := R0 as well.
    swap_d    = nx_cpa && ct_q && !final_q && (cb_q ^ nbit);
    azp_d     = nx_cpa && ct_q && !final_q && (cb_q ^ nbit ^ oner_q);
    if (hold0) begin
      init_d = 1'b0; loop_z_d = 1'b0; loop_p_d = 1'b0; shift_z_d = 1'b0; shift_p_d = 1'b0;
      one_d = 1'b0; run_u_d = 1'b0; run_bn_d = 1'b0; esh_d = 1'b0; swap_d = 1'b0; azp_d = 1'b0;
    end
    // OP_ZEROIZE accepted: clear the slices' S, C next cycle (with clr, which every accept sends)
    if (state_q == Idle && eng_i.cmd_valid && op_e'(eng_i.cmd.op) == OP_ZEROIZE) init_d = 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= Idle; status_q <= ST_OK; cyc_q <= '0; io_q <= '0;
      rq_done_q <= 1'b0; rq_e_q <= 1'b0; rs_e_q <= 1'b0;
      rem_q <= '0; last_q <= 1'b0; pen_q <= 1'b0; rem2_q <= 1'b0;
      round_q <= '0; enp_q <= 1'b0; init_q <= 1'b0; pre0_q <= 1'b0;
      hit_e_q <= '0; esh_q <= 1'b0; pend_q <= 1'b0;
      wiped_q <= 1'b0; ast_q <= '0; pendz_q <= 1'b0;
    end else begin
      state_q <= state_d; status_q <= status_d; cyc_q <= cyc_d; io_q <= io_d;
      rq_done_q <= rq_done_d; rq_e_q <= rq_e_d; rs_e_q <= rs_e_d;
      rem_q <= rem_d; last_q <= last_d; pen_q <= pen_d; rem2_q <= rem2_d;
      round_q <= round_d; enp_q <= enp_d; init_q <= init_d; pre0_q <= pre0_d;
      hit_e_q <= hit_e_d; esh_q <= esh_d; pend_q <= st_shift_d;
      wiped_q <= wiped_d; ast_q <= ast_d; pendz_q <= stz_shift_d;
    end
  end

  always_ff @(posedge clk_i) begin
    mul_q <= mul_d; k_q <= k_d; h_q <= h_d;
    rq_word_q <= rq_word_d; rq_item_q <= rq_item_d; rs_word_q <= rs_word_d; rs_item_q <= rs_item_d;
    nword_q <= nword_d; lt_q <= lt_d; even_q <= even_d; wide_q <= wide_d; e_q <= e_d;
    nwm1_q <= nwm1_d; nem1_q <= nem1_d; ne0_q <= ne0_d; top_mask_q <= top_mask_d;
    rq_last_q <= rq_last_d; rs_last_q <= rs_last_d; rnz_q <= rnz_d;
    e_ld_q <= eng_i.mem.rvalid ? eng_i.mem.rdata : '0;   // (nothing of the port kept otherwise)
    ct_q <= ct_d; cb_q <= cb_d; fe_q <= fe_d;
    eq_q <= eq_d;
    nc_q <= nc_d; kp3_q <= kp3_d; nc1_q <= nc1_d; nc2_q <= nc2_d;
    hp1_q <= hp1_d; final_q <= final_d; oner_q <= oner_d; enpn_q <= enpn_d;
  end

  assign cmd_ready = (state_q == Idle);
  assign status    = status_q;
  assign cycles    = cyc_q;
  assign io_cycles = io_q;

  logic unused;
  assign unused = ^{eng_i.cmd.arg};
endmodule
