// SPDX-License-Identifier: Apache-2.0
// pka_victor_core: VICTOR modular multiplication and exponentiation (paper 003, Orup et al.).
//
// Algorithm 4 (radix 2^K, quotient estimation, carry-save accumulation) computes
//   R = A*B - Q*N in [0, 2N), R = A*B mod N  (no Montgomery factor, no domain conversion)
// in n' + 1 loop iterations, n' = ceil((n+1)/K): S := 2^K S + a_i B - 2^(2K) q N, the paper's
// first two iterations merged into one (S = 0 there, so the idle -qN generator adds a_(n'-2) B
// while the a_i*B generator adds 2^K a_(n'-1) B; pka_victor_acc, first_i). One iteration is
// two pipeline stages (stage 1: the estimator pka_victor_qest; stage 2: the generators and the
// four rows of full adders, pka_victor_acc). Two independent products share the pipeline, one in
// each stage (section 3.1: one B register, two A registers, two accumulators in a ring):
//   cycle t of a step: stage 2 runs context t[0] (0: M := M*M, 1: X := X*M), stage 1 the other.
// Algorithm 1 (right to left): per exponent bit one step of 2(n'+1) cycles, the square and the
// multiply interleaved; the multiply context is idle when e_i = 0, and X := 1*M is a copy.
// The merge needs floor(A / 2^(K(n'-2))) B < q_max 2^K N: true for every operand the engine
// multiplies (checked a, b, base < N; results < 1.27 N), not for A = B = 2N-1 (see the model).
//
// Operations (eng_i.cmd.len = n = bit length of N, 2 <= n <= MaxLen):
//   OP_MODEXP     R = A^E mod N, canonical. Reads N, A (< N), E (eng_i.cmd.elen bits, <= MaxLen).
//   OP_MODEXP_CT  the same in constant time: right to left over exactly elen bits, the multiply
//                 context always running on one of two accumulators, X_b := X_b * M (b = e_i),
//                 X_0 = X_1 = 1 at the start (a real product, no copy). The accumulator not in
//                 use waits in the division remainder register (idle in the loop); at each
//                 multiply's conversion it is swapped with A1 when the next bit differs (and
//                 before the final subtraction when the last bit is 0): same cycles as MODEXP.
//   OP_MODMUL     R = A*B mod N, canonical. Reads N, A (< N), B (< N).
//   OP_ZEROIZE    the wipe (pka_pkg): every register 0 after one cycle, no port access.
// Slots: SLOT_N, SLOT_A, SLOT_B, SLOT_E in, SLOT_R out (ceil(n/32) words). No host constants:
// the eps+1 bits of 1/N the estimator needs, Y = floor(2^(n+Eps)/N), are computed here by Eps+1
// restoring-division steps. Errors: ST_ERR_OPCODE, ST_ERR_LENGTH (n < 2, n > MaxLen,
// elen > MaxLen, or N's top bit not at n-1), ST_ERR_EVEN_MODULUS, ST_ERR_OPERAND_RANGE (A or B >= N).
//
// Datapath frame: N and B are left-aligned, N' = 2^s N with s = MaxLen - n, so the estimator reads
// fixed bit positions; all arithmetic scales by 2^s (the model's `shift`). Widths: S words
// MaxLen+2K+1, A registers MaxLen+K (digit window at MaxLen+pad, pad = K n' - n - 1).
//
// cycles (compute; loads/stores are io_cycles):
//   MODEXP: 1 + (Eps+1) + h*2(n'+1) + 2        (base check, Y, h steps, convert X, final -N)
//   MODMUL: 2 + (Eps+1) + 2(n'+1) + 1
// The carry-propagate conversion of a result (one MaxLen+2K+1 bit adder, shared with the checks,
// the division and the final subtraction) takes the stage-1 cycle before a new product's merged
// first iteration (S = 0 needs no estimate), so a step costs 2(n'+1) cycles, the paper 2(n'+2).
`default_nettype none

module pka_victor_core
  import pka_pkg::*;
#(
  parameter int unsigned MaxLen = 128,  // maximum modulus and exponent bits, multiple of 32, 32..4096
  parameter int unsigned MemAw  = 8,    // word address width: 16 slots of 2^(MemAw-4) words
  parameter int unsigned K      = 5,    // scan factor (radix 2^K), 3..5
  parameter int unsigned Delta  = 10,   // top bits of S for the estimate, K+4..32
  parameter int unsigned Eps    = 11,   // bits of 1/N after its leading one, K+1..32
  parameter int unsigned AddSeg = 64    // carry-select segment of the wide adder (its longest carry chain)
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
  localparam int unsigned W         = MaxLen + 2 * K + 1;  // accumulator words
  localparam int unsigned BW        = MaxLen + 1;          // B, results: < 2N'
  localparam int unsigned AW        = MaxLen + K;          // A registers (digit window at the top)
  localparam int unsigned QW        = K + 2;               // quotient estimate
  // n' = floor(n/K) + 1 by a serial division of n, DivBits quotient bits per cycle, started when
  // the command is accepted: DivSteps steps and one cycle to form 2n' and pad, done in Load,
  // Check and Recip (>= 1 + 1 + Eps+1 cycles) before the loop, off the command path
  localparam int unsigned LW        = $clog2(MaxLen + 1);  // bits of n <= MaxLen
  localparam int unsigned DivBits   = 4;
  localparam int unsigned DivSteps  = (LW + DivBits - 1) / DivBits;
  localparam int unsigned DQW       = DivSteps * DivBits;  // dividend / quotient shift register
  localparam int unsigned DCW       = $clog2(DivSteps + 2);

  // q_max < limit <=> 2^K (2^(K+3-Delta) + 1 + 2^(1-K)) < limit (1 - 2^(K-Eps)), times 2^(Delta+Eps)
  function automatic bit qmax_below(int unsigned limit);
    logic [127:0] lhs, rhs;
    lhs = (128'(1) << (2 * K + 3 + Eps)) + (128'(1) << (K + Delta + Eps)) + (128'(1) << (1 + Delta + Eps));
    rhs = 128'(limit) * ((128'(1) << (Delta + Eps)) - (128'(1) << (K + Delta)));
    return lhs < rhs;
  endfunction
  // result bound <= 2: 2^K (2^(K+3) + 2^Delta + 2^(1-K+Delta)) <= (2^Delta - 2^(K+3)) (2^Eps - 2^K)
  function automatic bit result_below_2n();
    logic [127:0] lhs, rhs;
    lhs = (128'(1) << (2 * K + 3)) + (128'(1) << (K + Delta)) + (128'(1) << (1 + Delta));
    rhs = ((128'(1) << Delta) - (128'(1) << (K + 3))) * ((128'(1) << Eps) - (128'(1) << K));
    return lhs <= rhs;
  endfunction

  // parameter legality, checked at elaboration
  if (MaxLen % 32 != 0 || MaxLen < 32 || MaxLen > 4096) begin : g_bad_maxlen
    $fatal(1, "MaxLen: multiple of 32 in 32..4096");
  end
  if (Words > SlotWords) begin : g_bad_memaw
    $fatal(1, "MemAw too small for MaxLen");
  end
  if (K < 3 || K > 5) begin : g_bad_k
    $fatal(1, "K must be 3, 4 or 5");
  end
  if (Delta <= K + 3 || Delta > 32 || Eps <= K || Eps > 32) begin : g_bad_delta_eps
    $fatal(1, "need K+3 < Delta <= 32 and K < Eps <= 32");
  end
  if (!qmax_below(43)) begin : g_bad_qmax_table2
    $fatal(1, "q_max exceeds Table 2's 42 for this K, Delta, Eps");
  end
  if (!qmax_below((1 << (K + 1)) - 1)) begin : g_bad_qmax_width
    $fatal(1, "q_max too large for the n+2K+1 bit accumulator");
  end
  if (!result_below_2n()) begin : g_bad_result
    $fatal(1, "Delta, Eps do not keep the result below 2N");
  end
  if (AddSeg < 1) begin : g_bad_addseg
    $fatal(1, "AddSeg must be at least 1");
  end
  if (DivSteps + 1 > Eps + 3) begin : g_bad_div
    $fatal(1, "the serial n / K would not finish before the loop");
  end

  typedef enum logic [3:0] {Idle, Load, Check, Recip, Loop, Drain, Reduce, Store, Done, Wipe} state_e;
  state_e state_q, state_d;

  // ---- registers ----------------------------------------------------------------------------
  // control (reset)
  logic [7:0]  status_q, status_d;
  logic [31:0] cyc_q, cyc_d, io_q, io_d;
  logic        is_exp_q, is_exp_d;        // OP_MODEXP or OP_MODEXP_CT (else OP_MODMUL)
  logic        ct_q, ct_d;                // OP_MODEXP_CT
  logic        xb_q, xb_d;                // CT: the bit whose accumulator X_b is in A1 (secret)
  logic [1:0]  opnd_q, opnd_d;            // operand being loaded: 0 N, 1 A, 2 B or E
  logic [WiW-1:0] req_q, req_d, rsp_q, rsp_d;
  logic        n_odd_q, n_odd_d;
  logic        wide_q, wide_d;            // A or B has bits at or above n (so >= N)
  logic [15:0] t_q, t_d;                  // cycle within a step, 0 .. 2n'+1
  logic [15:0] steps_q, steps_d;          // steps left (exponent bits)
  logic [4:0]  cnt_q, cnt_d;              // Check / Recip counter
  logic        first_q, first_d;          // first step: no multiply to drain
  logic        mul_act_q, mul_act_d;      // context 1 (X := X*M) runs in this step
  logic        x_one_q, x_one_d;          // X is still 1
  // command geometry (set when the command is accepted)
  logic [15:0] elen_q, elen_d, tpen_q, tpen_d;  // tpen = 2n': the cycle before a step's last
  logic [WiW-1:0] nw_q, nw_d, nwe_q, nwe_d;
  logic [4:0]  f_q, f_d;                  // 32*nw - n: bit part of the alignment shift s
  logic [2:0]  pad_q, pad_d;              // K*n' - n - 1: digit window offset
  logic [DQW-1:0] dq_q, dq_d;             // serial n / K: dividend bits out on top, quotient in
  logic [2:0]  dr_q, dr_d;                // ... its remainder (< K)
  logic [DCW-1:0] dcnt_q, dcnt_d;         // ... cycles left (the last forms tpen and pad)
  logic        t_zero_q, t_zero_d;        // t_q == 0       (registered flags: no compare
  logic        t_last_q, t_last_d;        // t_q == 2n'+1    between t and the ring's muxes)
  logic        last_step_q, last_step_d;  // steps_q == 1
  // datapath (no reset)
  logic [MaxLen-1:0] n_q, n_d;            // N' = 2^s N
  logic [BW-1:0]     b_q, b_d;            // B' (shared operand: M)
  logic [AW-1:0]     a0_q, a0_d, a1_q, a1_d;  // A registers: context 0 (M), context 1 (X)
  logic [MaxLen-1:0] e_q, e_d;            // exponent, LSB first
  logic [MaxLen-1:0] ld_q, ld_d;          // load / store buffer
  logic [31:0]       ldc_q, ldc_d;        // load: the previous word's bits shifted above its word
  logic [MaxLen+1:0] rem_q, rem_d;        // restoring-division remainder
  logic [Eps:0]      y_q, y_d;            // Y = floor(2^(n+Eps) / N)
  logic [W-1:0]      sa1_q, sa1_d, sc1_q, sc1_d;  // ring: input of stage 1
  logic [W-1:0]      sa2_q, sa2_d, sc2_q, sc2_d;  // ring: input of stage 2 ...
  logic [QW-1:0]     q2_q, q2_d;                  // ... with its quotient estimate
  logic              first2_q, first2_d;          // ... or the merged first iteration (S = 0)

  // ---- helpers ------------------------------------------------------------------------------
  function automatic logic [MemAw-1:0] addr(int unsigned slot, logic [WiW-1:0] w);
    return MemAw'(slot * SlotWords) + MemAw'(w);
  endfunction

  // the current digit: the K bits at MaxLen+pad down (pad = K n' - n - 1 < K); below = K: the
  // next digit (the merged first iteration's a_(n'-2))
  function automatic logic [K-1:0] top_digit(logic [AW-1:0] a, logic [2:0] pad, int unsigned below);
    logic [K-1:0] d;
    d = '0;
    for (int unsigned p = 0; p < K; p++) begin
      if (32'(pad) == p) d = a[MaxLen + p - below -: K];
    end
    return d;
  endfunction

  // ---- the shared wide adder: x + y + cin, carry out at bit W ---------------------------------
  // (carry-select in segments of AddSeg bits: the word-wide carry chain was the engine's worst path)
  logic [W-1:0] add_x, add_y;
  logic         add_cin;
  logic [W:0]   add_sum;
  pka_victor_cadd #(.Width(W), .Seg(AddSeg)) u_add (
    .x_i(add_x), .y_i(add_y), .cin_i(add_cin), .sum_o(add_sum)
  );

  // x - N' (x < 2^W): difference in add_sum[W-1:0], add_sum[W] = (x >= N')
  function automatic logic [W-1:0] minus_n(logic [MaxLen-1:0] n);
    return ~W'(n);
  endfunction

  // operands: x - N' in Check (A', B'), Recip (remainder), Reduce (X'); S_a + S_c otherwise. The
  // choice is decoded a cycle ahead (asel_q, one-hot, from state_d and cnt_d): an AND-OR of registered
  // selects in front of the adder instead of the state decode
  logic [3:0] asel_q, asel_d;   // x: 0 A' (Check, cnt 0), 1 B' (Check), 2 remainder (Recip), 3 X' (Reduce)
  logic       asub_q, asub_d;   // one of them: x - N' (else S_a + S_c)
  always_comb begin
    add_x = ({W{asel_q[0]}} & W'(a0_q)) | ({W{asel_q[1]}} & W'(b_q)) | ({W{asel_q[2]}} & W'(rem_q)) |
            ({W{asel_q[3]}} & W'(a1_q[BW-1:0])) | ({W{!asub_q}} & sa1_q);
    add_y = asub_q ? minus_n(n_q) : sc1_q;
    add_cin = asub_q;
  end

  // ---- datapath instances -----------------------------------------------------------------------
  logic [K-1:0]  digit, digit_lo;
  logic [W-1:0]  acc_sa, acc_sc;
  logic [QW-1:0] q_est;

  pka_victor_qest #(.K(K), .Delta(Delta), .Eps(Eps)) u_qest (
    .sa_top_i(sa1_q[W-1 -: Delta]), .sc_top_i(sc1_q[W-1 -: Delta]), .y_i(y_q), .q_o(q_est)
  );

  pka_victor_acc #(.K(K), .NW(MaxLen), .Width(W)) u_acc (
    .sa_i(sa2_q), .sc_i(sc2_q), .a_i(digit), .q_i(q2_q), .first_i(first2_q), .alo_i(digit_lo),
    .b_i(b_q), .n_i(n_q),
    .sa_o(acc_sa), .sc_o(acc_sc)
  );

  // ---- load bookkeeping ------------------------------------------------------------------------
  logic [WiW-1:0]  opnd_words;
  logic [3:0]      opnd_slot;
  logic [MaxLen-1:0] ld_aligned;
  logic [63:0]     ld_wsh;
  // checked when N, A or B completes, i.e. on its top word, which is the one arriving: 32 bits
  logic            ld_lost;    // the alignment shifts out set bits: the operand has > n bits
  logic            ld_top;     // the operand's bit n-1 (N: must be set)
  logic            is_e;
  logic [BW-1:0]   conv;       // the carry-propagated result (S_a + S_c) / 2^(2K)
  logic [MaxLen-1:0] one_s;    // 1 in the frame, 2^s (s = MaxLen - n): the CT accumulators' start
  logic [WiW-1:0]  st_index;   // the store: word st_index of X' >> f, from X' words st_index and st_index + 1
  logic [63:0]     st_pair;
  logic [31:0]     st_word;

  always_comb begin
    is_e       = is_exp_q && opnd_q == 2'd2;
    opnd_words = is_e ? nwe_q : nw_q;
    unique case (opnd_q)
      2'd0:    opnd_slot = 4'(SLOT_N);
      2'd1:    opnd_slot = 4'(SLOT_A);
      default: opnd_slot = is_exp_q ? 4'(SLOT_E) : 4'(SLOT_B);
    endcase
    // N, A, B go to the top words, shifted left by f (the alignment s = 32 (Words - nw) + f): the
    // words arrive least significant first and enter at the top of ld, which shifts down a word per
    // arrival, so after nw words the first is at word Words - nw. The arriving word, shifted on 64
    // bits, fills the top word with the previous word's bits above its own (ldc); its own bits above
    // go to ldc (the top word's: ld_lost). The memory's read data drives the top word only, not a
    // word chosen by an index (E enters e the same way at the bottom, read most significant first).
    ld_wsh = {32'b0, eng_i.mem.rdata} << f_q;
    ld_aligned = (ld_q >> 32) | (MaxLen'(ld_wsh[31:0] | ldc_q) << (MaxLen - 32));
    ld_lost = |(eng_i.mem.rdata & ~(32'hffff_ffff >> f_q));
    ld_top = eng_i.mem.rdata[5'd31 - f_q];
    conv = add_sum[W-1:2*K];
    one_s = MaxLen'(1) << {WiW'(Words) - nw_q, f_q};   // s = 32 (Words - nw) + (32 nw - n)
    st_index = WiW'(Words) - nw_q + req_q;
    st_pair = '0;
    for (int unsigned j = 0; j < Words; j++) begin
      if (st_index == WiW'(j)) st_pair[31:0] = ld_q[32 * j +: 32];
      if (j > 0 && st_index == WiW'(j - 1)) st_pair[63:32] = ld_q[32 * j +: 32];
    end
    st_word = 32'(st_pair >> f_q);
    digit    = t_q[0] ? (mul_act_q ? top_digit(a1_q, pad_q, 0) : '0) : top_digit(a0_q, pad_q, 0);
    digit_lo = t_q[0] ? (mul_act_q ? top_digit(a1_q, pad_q, K) : '0) : top_digit(a0_q, pad_q, K);
  end

  // ---- n' = ceil((n+1)/K) = floor(n/K) + 1, pad = K n' - n - 1 = K - 1 - (n mod K) --------------
  // radix-2 restoring division by the constant K, DivBits steps a cycle (each step: a 4-input
  // function of the 3-bit remainder and one dividend bit)
  always_comb begin
    logic [3:0] r2;
    dq_d = dq_q; dr_d = dr_q; dcnt_d = dcnt_q; tpen_d = tpen_q; pad_d = pad_q;
    r2 = '0;
    if (dcnt_q > DCW'(1)) begin
      for (int unsigned i = 0; i < DivBits; i++) begin
        r2 = {dr_d, dq_d[DQW-1]};
        dq_d = {dq_d[DQW-2:0], r2 >= 4'(K)};
        dr_d = 3'(r2 >= 4'(K) ? r2 - 4'(K) : r2);
      end
    end
    if (dcnt_q == DCW'(1)) begin
      tpen_d = {15'(dq_q) + 15'd1, 1'b0};   // 2n'
      pad_d  = 3'(K - 1) - dr_q;
    end
    if (dcnt_q != '0) dcnt_d = dcnt_q - 1;
    if (state_q == Idle && eng_i.cmd_valid && op_e'(eng_i.cmd.op) != OP_ZEROIZE) begin
      dq_d = DQW'(eng_i.cmd.len[LW-1:0]); dr_d = '0; dcnt_d = DCW'(DivSteps + 1);  // (its length)
    end
    if (state_q == Wipe) {dq_d, dr_d, dcnt_d, tpen_d, pad_d} = '0;
  end

  // ---- the controller --------------------------------------------------------------------------
  always_comb begin
    state_d = state_q;
    status_d = status_q; cyc_d = cyc_q; io_d = io_q;
    is_exp_d = is_exp_q; opnd_d = opnd_q; req_d = req_q; rsp_d = rsp_q; n_odd_d = n_odd_q;
    wide_d = wide_q;
    t_d = t_q; steps_d = steps_q; cnt_d = cnt_q; first_d = first_q;
    mul_act_d = mul_act_q; x_one_d = x_one_q; ct_d = ct_q; xb_d = xb_q;
    elen_d = elen_q; nw_d = nw_q; nwe_d = nwe_q; f_d = f_q;
    t_zero_d = t_zero_q; t_last_d = t_last_q; last_step_d = last_step_q;
    n_d = n_q; b_d = b_q; a0_d = a0_q; a1_d = a1_q; e_d = e_q; ld_d = ld_q; ldc_d = ldc_q; y_d = y_q;
    sa1_d = sa1_q; sc1_d = sc1_q; sa2_d = sa2_q; sc2_d = sc2_q; q2_d = q2_q; first2_d = first2_q;
    mem_req = 1'b0; mem_we = 1'b0; mem_addr = '0; mem_wdata = '0;
    done = 1'b0;

    unique case (state_q)
      Idle: if (eng_i.cmd_valid) begin
        cyc_d = '0; io_d = '0; opnd_d = '0; req_d = '0; rsp_d = '0; ld_d = '0; ldc_d = '0;
        is_exp_d = op_e'(eng_i.cmd.op) == OP_MODEXP || op_e'(eng_i.cmd.op) == OP_MODEXP_CT;
        ct_d = op_e'(eng_i.cmd.op) == OP_MODEXP_CT;
        elen_d = is_exp_d ? eng_i.cmd.elen : 16'd0;
        nw_d = WiW'((32'(eng_i.cmd.len) + 31) / 32);
        nwe_d = WiW'((32'(eng_i.cmd.elen) + 31) / 32);
        f_d = 5'(-eng_i.cmd.len);               // 32 nw - n
        x_one_d = 1'b1; mul_act_d = 1'b0; first_d = 1'b1; wide_d = 1'b0;
        if (op_e'(eng_i.cmd.op) == OP_ZEROIZE) begin
          status_d = ST_OK; state_d = Wipe;
        end else if (!is_exp_d && op_e'(eng_i.cmd.op) != OP_MODMUL) begin
          status_d = ST_ERR_OPCODE; state_d = Done;
        end else if (eng_i.cmd.len < 16'd2 || 32'(eng_i.cmd.len) > MaxLen ||
                     (is_exp_d && 32'(eng_i.cmd.elen) > MaxLen)) begin
          status_d = ST_ERR_LENGTH; state_d = Done;
        end else begin
          status_d = ST_OK; state_d = Load;
        end
      end

      Load: begin
        io_d = io_q + 1;
        begin
          if (req_q != opnd_words) begin
            mem_req  = 1'b1;
            // E most significant word first (it enters e at the bottom), N, A, B least first
            mem_addr = addr(32'(opnd_slot), is_e ? nwe_q - WiW'(1) - req_q : req_q);
            if (eng_i.mem.gnt) req_d = req_q + 1;
          end
          if (eng_i.mem.rvalid) begin
            if (is_e) e_d = (e_q << 32) | MaxLen'(eng_i.mem.rdata);
            else begin
              ld_d  = ld_aligned;
              ldc_d = ld_wsh[63:32];
            end
            rsp_d = rsp_q + 1;
            if (opnd_q == 2'd0 && rsp_q == '0) n_odd_d = eng_i.mem.rdata[0];
            if (rsp_q + 1 == opnd_words) begin  // operand complete
              req_d = '0; rsp_d = '0; ld_d = '0; ldc_d = '0; opnd_d = opnd_q + 1;
              unique case (opnd_q)
                2'd0: begin
                  n_d = ld_aligned;
                  if (!n_odd_d) begin
                    status_d = ST_ERR_EVEN_MODULUS; state_d = Done;
                  end else if (!ld_top || ld_lost) begin
                    status_d = ST_ERR_LENGTH; state_d = Done;   // N is not cmd_len bits long
                  end
                end
                2'd1: begin
                  a0_d = AW'(ld_aligned);
                  b_d  = BW'(ld_aligned);
                  wide_d = ld_lost;
                  e_d = '0;                           // E enters at the bottom from here
                  if (is_exp_q && nwe_q == '0) begin  // a zero-length exponent: no E to load
                    state_d = Check; cnt_d = '0;
                  end
                end
                default: begin
                  if (!is_exp_q) begin
                    b_d = BW'(ld_aligned);
                    wide_d = wide_q || ld_lost;
                  end
                  state_d = Check; cnt_d = '0;
                end
              endcase
            end
          end
        end
      end

      // A' < N' (and B' < N' for MODMUL), one cycle each on the wide adder
      Check: begin
        cyc_d = cyc_q + 1;
        if (add_sum[W] || wide_q) begin
          status_d = ST_ERR_OPERAND_RANGE; state_d = Done;
        end else if (is_exp_q || cnt_q == 5'd1) begin
          state_d = Recip; cnt_d = '0;   // (the remainder := 2^MaxLen: its own block below)
          y_d = '0;
        end else begin
          cnt_d = cnt_q + 1;
        end
      end

      // Y = floor(2^(MaxLen+Eps) / N') = floor(2^(n+Eps) / N): Eps+1 restoring-division steps
      Recip: begin
        cyc_d = cyc_q + 1;
        y_d = {y_q[Eps-1:0], add_sum[W]};       // (the remainder's step: its own block below)
        cnt_d = cnt_q + 1;
        if (32'(cnt_q) == Eps) begin
          t_d = '0; t_zero_d = 1'b1; t_last_d = 1'b0;
          sa2_d = '0; sc2_d = '0; q2_d = '0; first2_d = 1'b1;
          steps_d = is_exp_q ? elen_q : 16'd1;
          last_step_d = !is_exp_q || elen_q == 16'd1;
          state_d = (steps_d == '0) ? Drain : Loop;
        end
      end

      // one step: stage 2 on context t[0], stage 1 on the other; conversions at t = 0 and 2n'+1
      Loop: begin
        cyc_d = cyc_q + 1;
        // stage 2: the accumulator, its output to the ring's stage-1 input
        sa1_d = acc_sa;
        sc1_d = acc_sc;
        // (the merged first iteration consumes two digits)
        if (!t_q[0]) a0_d = first2_q ? a0_q << (2 * K) : a0_q << K;
        else if (mul_act_q) a1_d = first2_q ? a1_q << (2 * K) : a1_q << K;
        // stage 1: the estimate of the other context; a fresh S = 0 for a context about to start
        if (t_zero_q || t_last_q) begin
          sa2_d = '0; sc2_d = '0; q2_d = '0; first2_d = 1'b1;
        end else begin
          sa2_d = sa1_q; sc2_d = sc1_q; q2_d = q_est; first2_d = 1'b0;
        end
        // the wide adder converts the context that just finished (add_x/y = S_a, S_c of stage 1)
        if (t_zero_q && ct_q) begin
          // CT: A1 := X_(e_i) for this step's multiply; the other accumulator waits in rem
          // (rem := X_1 = 1 or the conversion: the remainder's own block below)
          if (first_q) begin
            a1_d = AW'(one_s);                                 // X_0 = X_1 = 1
          end else if (xb_q ^ e_q[0]) begin
            a1_d = AW'(rem_q);                                 // the bit changes: swap
          end else begin
            a1_d = AW'(conv);
          end
          xb_d = e_q[0]; mul_act_d = 1'b1; x_one_d = 1'b0;
        end else if (t_zero_q) begin
          if (!first_q && mul_act_q) a1_d = AW'(conv);     // X of the previous step
          mul_act_d = is_exp_q && e_q[0] && !x_one_q;
          if (is_exp_q && e_q[0] && x_one_q) begin         // X := 1 * M is M
            a1_d = a0_q; x_one_d = 1'b0;
          end
        end
        if (t_last_q) begin
          if (is_exp_q) begin                              // M := M*M
            b_d = conv; a0_d = AW'(conv);
          end else begin                                   // the MODMUL product
            a1_d = AW'(conv); x_one_d = 1'b0;
          end
          if (!last_step_q) begin
            t_d = '0; t_zero_d = 1'b1; t_last_d = 1'b0;
            steps_d = steps_q - 1; last_step_d = steps_q == 16'd2;
            e_d = e_q >> 1; first_d = 1'b0;
          end else begin
            state_d = is_exp_q ? Drain : Reduce;
          end
        end else begin
          t_d = t_q + 1; t_zero_d = 1'b0; t_last_d = t_q == tpen_q;
        end
      end

      // convert the last step's multiply
      Drain: begin
        cyc_d = cyc_q + 1;
        if (mul_act_q) begin
          a1_d = AW'(conv);
          if (ct_q && !xb_q) a1_d = AW'(rem_q);             // CT: the result is X_1 (rem := conv)
        end
        state_d = Reduce;
      end

      // X < 2N': subtract N' if X >= N' (the store undoes the alignment)
      Reduce: begin
        cyc_d = cyc_q + 1;
        // X' as it is (the store undoes the alignment); X = 1: 1 in the frame
        if (x_one_q) ld_d = one_s;
        else ld_d = add_sum[W] ? MaxLen'(add_sum) : MaxLen'(a1_q);
        req_d = '0;
        state_d = Store;
      end

      Store: begin
        io_d = io_q + 1;
        mem_req = 1'b1; mem_we = 1'b1;
        mem_addr  = addr(SLOT_R, req_q);
        mem_wdata = st_word;
        if (eng_i.mem.gnt) begin
          req_d = req_q + 1;
          if (req_q + 1 == nw_q) state_d = Done;
        end
      end

      Done: begin
        done = 1'b1;
        state_d = Idle;
      end

      // OP_ZEROIZE: every register 0 (the division's in its own block above), one cycle
      Wipe: begin
        cyc_d = cyc_q + 1;
        state_d = Done;
        status_d = ST_OK; io_d = '0;
        is_exp_d = 1'b0; opnd_d = '0; req_d = '0; rsp_d = '0; n_odd_d = 1'b0; wide_d = 1'b0;
        t_d = '0; steps_d = '0; cnt_d = '0; first_d = 1'b0; mul_act_d = 1'b0; x_one_d = 1'b0;
        ct_d = 1'b0; xb_d = 1'b0;
        elen_d = '0; nw_d = '0; nwe_d = '0; f_d = '0;
        t_zero_d = 1'b0; t_last_d = 1'b0; last_step_d = 1'b0;
        n_d = '0; b_d = '0; a0_d = '0; a1_d = '0; e_d = '0; ld_d = '0; ldc_d = '0; y_d = '0;
        sa1_d = '0; sc1_d = '0; sa2_d = '0; sc2_d = '0; q2_d = '0; first2_d = 1'b0;
      end

      default: state_d = Idle;
    endcase
  end

  // ---- the remainder register, its mode decoded a cycle ahead -------------------------------------
  // One-hot, from the next cycle's state: 2^MaxLen in every Check cycle (the division's start; a
  // constant, harmless when the check fails or a second check follows), a restoring-division step
  // in Recip, OP_MODEXP_CT's X_1 = 1 at the first step's t = 0 and the swap (X_(1-b) := the
  // conversion) at a later step's t = 0 when the bit changes or in Drain when the result is X_1,
  // 0 in the wipe; else hold. So the adder's carry out meets only the step's choice (sum or hold).
  logic rm_init_q, rm_init_d, rm_div_q, rm_div_d, rm_one_q, rm_one_d;
  logic rm_conv_q, rm_conv_d, rm_zero_q, rm_zero_d;
  always_comb begin
    rm_init_d = state_d == Check;
    rm_div_d  = state_d == Recip;
    rm_one_d  = state_d == Loop && t_zero_d && ct_d && first_d;
    rm_conv_d = (state_d == Loop && t_zero_d && ct_d && !first_d && (xb_d ^ e_d[0])) ||
                (state_d == Drain && mul_act_d && ct_d && !xb_d);
    rm_zero_d = state_d == Wipe;
    if (rm_zero_q)      rem_d = '0;
    else if (rm_init_q) rem_d = (MaxLen + 2)'(1) << MaxLen;
    else if (rm_div_q)  rem_d = (add_sum[W] ? (MaxLen + 2)'(add_sum) : rem_q) << 1;
    else if (rm_one_q)  rem_d = (MaxLen + 2)'(one_s);
    else if (rm_conv_q) rem_d = (MaxLen + 2)'(conv);
    else                rem_d = rem_q;
  end

  always_comb begin
    asel_d[0] = state_d == Check && cnt_d == '0;
    asel_d[1] = state_d == Check && cnt_d != '0;
    asel_d[2] = state_d == Recip;
    asel_d[3] = state_d == Reduce;
    asub_d = |asel_d;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      asel_q <= '0; asub_q <= 1'b0;
      rm_init_q <= 1'b0; rm_div_q <= 1'b0; rm_one_q <= 1'b0; rm_conv_q <= 1'b0; rm_zero_q <= 1'b0;
      state_q <= Idle; status_q <= ST_OK; cyc_q <= '0; io_q <= '0;
      is_exp_q <= 1'b0; opnd_q <= '0; req_q <= '0; rsp_q <= '0; n_odd_q <= 1'b0; wide_q <= 1'b0;
      t_q <= '0; steps_q <= '0; cnt_q <= '0; first_q <= 1'b0; mul_act_q <= 1'b0; x_one_q <= 1'b0;
      elen_q <= '0; tpen_q <= '0; nw_q <= '0; nwe_q <= '0; f_q <= '0; pad_q <= '0;
      dq_q <= '0; dr_q <= '0; dcnt_q <= '0; t_zero_q <= 1'b0; t_last_q <= 1'b0; last_step_q <= 1'b0;
    end else begin
      asel_q <= asel_d; asub_q <= asub_d;
      rm_init_q <= rm_init_d; rm_div_q <= rm_div_d; rm_one_q <= rm_one_d; rm_conv_q <= rm_conv_d;
      rm_zero_q <= rm_zero_d;
      state_q <= state_d; status_q <= status_d; cyc_q <= cyc_d; io_q <= io_d;
      is_exp_q <= is_exp_d; opnd_q <= opnd_d; req_q <= req_d; rsp_q <= rsp_d; n_odd_q <= n_odd_d;
      wide_q <= wide_d;
      t_q <= t_d; steps_q <= steps_d; cnt_q <= cnt_d; first_q <= first_d; mul_act_q <= mul_act_d;
      x_one_q <= x_one_d;
      elen_q <= elen_d; tpen_q <= tpen_d; nw_q <= nw_d; nwe_q <= nwe_d; f_q <= f_d;
      pad_q <= pad_d;
      dq_q <= dq_d; dr_q <= dr_d; dcnt_q <= dcnt_d; t_zero_q <= t_zero_d; t_last_q <= t_last_d;
      last_step_q <= last_step_d;
    end
  end
  always_ff @(posedge clk_i) begin
    n_q <= n_d; b_q <= b_d; a0_q <= a0_d; a1_q <= a1_d; e_q <= e_d; ld_q <= ld_d; ldc_q <= ldc_d;
    ct_q <= ct_d; xb_q <= xb_d;
    rem_q <= rem_d; y_q <= y_d;
    sa1_q <= sa1_d; sc1_q <= sc1_d; sa2_q <= sa2_d; sc2_q <= sc2_d; q2_q <= q2_d;
    first2_q <= first2_d;
  end

  assign cmd_ready = (state_q == Idle);
  assign status    = status_q;
  assign cycles    = cyc_q;
  assign io_cycles = io_q;

  logic unused;
  assign unused = ^{eng_i.cmd.arg, add_sum[2*K-1:0]};
endmodule
