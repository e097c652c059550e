// SPDX-License-Identifier: Apache-2.0
// pka_hscm_pe: one processing element of the quotient-pipelined HSCM (paper 004, Algorithm 3,
// Figure 2): one iteration i of S_(i+1) = floor(S_i / 2^k) + q_(i-1) N + b_i A on e words.
//
// The PE receives the stream S_i (carry-save words S', S''), A, B (shifted so that word 0 is the
// digit b_i), N, and with the first word q_(i-1), the index i and a flag "i is the product's last
// iteration".  It starts when the first word arrives (the ring's schedule guarantees it is free;
// the ring's first PE is fed through a FIFO that waits for it) and then takes one word per cycle:
//   stage 1 (cycle t + x):   q_(i-1) * N_x and b_i * A_x in two w x w multipliers (registered);
//                            at x = 0 also q_i = (S'_0 + S''_0) mod 2^k and its carry c_i;
//   stage 2 (cycle t + x+1): FA1 = S'_(x+1) + S''_(x+1) + c1, FA2 = lo(qN_x) + hi(qN_(x-1)) + c2,
//                            FA3 = lo(bA_x) + hi(bA_(x-1)) + c3, 3:2 CSA -> S'_x (sum),
//                            S''_x = (majority << 1) | c4; the carries (C_i)_x = (c1..c4) are
//                            buffered one cycle for word x+1 ((C_i)_(-1) = (c_i, 0, 0, 0)).
// Output word x (S_(i+1), A, N, and B shifted down one digit) is registered at t + x + 2, so the
// next PE starts two cycles after this one; q_i, i + 1 and "i+1 is last" go with its first word.
// The PE is busy for e cycles: it can start the next iteration in cycle t + e.
// The words of a product's last iteration (i = f+1, S_(f+2)) are flagged res_* and not passed
// on: the ring's sequencer collects them (and q_(f+1)) from the result bus and injects the next
// product in their place, into this PE's own output registers: while the output registers hold
// result word x (cycle t + x + 2), its A, B, N outputs take word x of the ring's injection stream
// (inj_*, the sequencer's registers: its result adder's word of the cycle before), so they hold
// it at t + x + 3, and the S, q, tag and last outputs read as 0 (S_0 = 0, q_(-1) = 0, i = 0);
// the stream is valid for the next PE if inj_valid_i (the chain has a next product).  The
// injection thus enters every PE through a register of the PE before it, with no multiplexer in
// front of the next PE's multipliers (only a ring's first PE selects, between its FIFO and the
// sequencer's chain-start stream), and from a register of the sequencer: the next product's
// first iteration starts three cycles after the last one (one cycle of bubble per product).
// Latency 2 cycles per PE; words per iteration e = em1_i + 1 (runtime).
// Digits of k = 2w bits (Dq = 2, doc/hscm.md "Digits of k = 2w bits"): a k-bit iteration is two
// passes of this w-bit PE, and the quotient a pass multiplies N by is the one from two passes
// back: the PE takes it from in_q2_i and passes on the one it received (in_q_i) as out_q2_o
// beside its own; the datapath is unchanged.  Dq = 1 (k = w): in_q2_i unused, out_q2_o = 0.
// wipe_i (OP_ZEROIZE) holds every register at 0.
`default_nettype none

module pka_hscm_pe #(
  parameter int unsigned W    = 16,  // word = digit bits k = w: 16, 32 or 64
  parameter int unsigned TagW = 9,   // bits of an iteration (pass) index (>= clog2(m (f_max + 2)))
  parameter int unsigned Dq   = 1    // quotient delay in passes: k / w (1 or 2)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            wipe_i,      // OP_ZEROIZE: every register to 0
  input  logic [TagW-1:0] em1_i,       // e - 1
  input  logic [TagW-1:0] fp1_i,       // f + 1: index of a product's last iteration
  // input stream (registered outputs of the previous PE, the FIFO or the sequencer)
  input  logic            in_valid_i,
  input  logic            in_first_i,
  input  logic [W-1:0]    in_s1_i,
  input  logic [W-1:0]    in_s2_i,
  input  logic [W-1:0]    in_a_i,
  input  logic [W-1:0]    in_b_i,
  input  logic [W-1:0]    in_n_i,
  input  logic [W-1:0]    in_q_i,      // q_(i-1), with the first word
  input  logic [W-1:0]    in_q2_i,     // q_(i-2), with the first word (Dq = 2)
  input  logic [TagW-1:0] in_tag_i,    // i, with the first word
  input  logic            in_last_i,   // i = f+1, with the first word
  // output stream
  output logic            out_valid_o, // a word for the next PE
  output logic            out_first_o,
  output logic [W-1:0]    out_s1_o,
  output logic [W-1:0]    out_s2_o,
  output logic [W-1:0]    out_a_o,
  output logic [W-1:0]    out_b_o,
  output logic [W-1:0]    out_n_o,
  output logic [W-1:0]    out_q_o,     // q_i
  output logic [W-1:0]    out_q2_o,    // q_(i-1) (Dq = 2; 0 for Dq = 1)
  output logic [TagW-1:0] out_tag_o,   // i + 1
  output logic            out_last_o,  // i + 1 = f + 1
  output logic            res_valid_o, // a word of S_(f+2)
  output logic [W-1:0]    res_s1_o,
  output logic [W-1:0]    res_s2_o,
  // status
  output logic            free_o,       // can start an iteration in this cycle
  output logic            take_o,       // stage 1 consumes an input word in this cycle
  output logic            last_start_o, // starts a last iteration in this cycle (comb.)
  output logic            busy_next_o,  // stage 1 busy with words 1 .. e-1 in the next cycle
  output logic            last_next_o,  // the next cycle's output word is the first of an
                                        //   iteration flagged last (from registers only)
  output logic            qv_o,         // started an iteration in the previous cycle:
  output logic [W-1:0]    q_o,          //   its q_i
  output logic [TagW-1:0] tag_o,        //   and its index i
  // the ring's injection stream (used while stage 2 holds result words, see above)
  input  logic            inj_valid_i,
  input  logic [W-1:0]    inj_a_i,
  input  logic [W-1:0]    inj_b_i,
  input  logic [W-1:0]    inj_n_i
);
  initial begin
    if (W != 16 && W != 32 && W != 64) $fatal(1, "pka_hscm_pe: W must be 16, 32 or 64");
    if (Dq != 1 && Dq != 2) $fatal(1, "pka_hscm_pe: Dq must be 1 or 2");
  end

  // ---- state ------------------------------------------------------------------------------
  logic            run_q, run_d;          // stage 1 busy with words 1 .. e-1
  logic [TagW-1:0] cnt_q, cnt_d;          // stage-1 word index while run_q
  logic [W-1:0]    b_q, b_d, qm_q, qm_d;  // b_i and q_(i-1) of the current iteration
  logic            last_q, last_d;        // current iteration is a product's last
  logic [2*W-1:0]  pn_q, pn_d, pa_q, pa_d;  // stage-1 products of word x
  logic [W-1:0]    hn_q, hn_d, ha_q, ha_d;  // high halves of the products of word x-1
  logic [3:0]      c_q, c_d;              // (C_i)_(x-1): FA1, FA2, FA3, CSA carries
  logic            s2_q, s2_first_q, s2_top_q, s2_res_q;  // stage 2 valid / word 0 / word e-1 / last
  logic            s2_d, s2_first_d, s2_top_d, s2_res_d;
  logic [W-1:0]    a1_q, a1_d, n1_q, n1_d;  // A, N one cycle after the input
  logic            ov_q, ov_d, of_q, of_d, or_q, or_d;
  logic            oj_q, oj_d;            // the output word is an injected one
  logic            ofj_q, ofj_d;          //   and its first
  logic [W-1:0]    o1_q, o1_d, o2_q, o2_d, ob_q, ob_d, oa_q, oa_d, on_q, on_d;
  logic [W-1:0]    qi_q, qi_d;            // q_i
  logic [W-1:0]    qp_q, qp_d;            // q_(i-1) as received (Dq = 2: passed on as out_q2_o)
  logic [TagW-1:0] tag_q, tag_d;          // i
  logic            olast_q, olast_d;      // i + 1 = f + 1
  logic            qv_q, qv_d;

  // ---- stage 1 ----------------------------------------------------------------------------
  logic         start, s1;
  logic [W:0]   w0;                        // S'_0 + S''_0 of the input: q_i and c_i
  logic [W-1:0] qm, bb, qin;

  always_comb begin
    start = in_valid_i && in_first_i && !run_q;
    s1    = start || run_q;
    w0    = {1'b0, in_s1_i} + {1'b0, in_s2_i};
    qin   = (Dq == 2) ? in_q2_i : in_q_i;   // the quotient this pass multiplies N by
    // operands of the multipliers: the input's q_(i-1) and b_i unless an iteration runs (the
    // products are only used when stage 1 is busy: no start condition in front of the DSPs)
    qm    = run_q ? qm_q : qin;
    bb    = run_q ? b_q : in_b_i;

    run_d  = run_q;
    cnt_d  = cnt_q;
    b_d    = b_q;
    qm_d   = qm_q;
    last_d = last_q;
    qi_d   = qi_q;
    qp_d   = qp_q;
    tag_d  = tag_q;
    olast_d = olast_q;
    if (start) begin
      run_d   = 1'b1;
      cnt_d   = TagW'(1);
      b_d     = in_b_i;
      qm_d    = qin;
      qp_d    = (Dq == 2) ? in_q_i : '0;
      last_d  = in_last_i;
      qi_d    = w0[W-1:0];
      tag_d   = in_tag_i;
      olast_d = (in_tag_i + TagW'(1)) == fp1_i;
    end else if (run_q) begin
      cnt_d = cnt_q + TagW'(1);
      run_d = cnt_q != em1_i;
    end
    qv_d = start;

    pn_d = (2*W)'(qm) * (2*W)'(in_n_i);
    pa_d = (2*W)'(bb) * (2*W)'(in_a_i);
    s2_d       = s1;
    s2_first_d = start;
    s2_top_d   = run_q && (cnt_q == em1_i);
    s2_res_d   = s1 && (start ? in_last_i : last_q);
    if (wipe_i) begin   // OP_ZEROIZE: stage 1 to 0
      run_d      = 1'b0;
      cnt_d      = '0;
      b_d        = '0;
      qm_d       = '0;
      last_d     = 1'b0;
      qi_d       = '0;
      qp_d       = '0;
      tag_d      = '0;
      olast_d    = 1'b0;
      qv_d       = 1'b0;
      pn_d       = '0;
      pa_d       = '0;
      s2_d       = 1'b0;
      s2_first_d = 1'b0;
      s2_top_d   = 1'b0;
      s2_res_d   = 1'b0;
    end
  end

  // ---- stage 2: FA1, FA2, FA3 and the 3:2 CSA ----------------------------------------------
  logic [W:0]   fa1, fa2, fa3;
  logic [W-1:0] x1, x2, x3, maj, hn0, ha0;
  logic [W-1:0] sin1, sin2;

  always_comb begin
    sin1 = s2_top_q ? '0 : in_s1_i;   // S_i word x+1 (none after word e-1)
    sin2 = s2_top_q ? '0 : in_s2_i;
    hn0  = s2_first_q ? '0 : hn_q;    // no high half before word 0
    ha0  = s2_first_q ? '0 : ha_q;
    fa1  = {1'b0, sin1} + {1'b0, sin2} + (W+1)'(c_q[0]);
    fa2  = {1'b0, pn_q[W-1:0]} + {1'b0, hn0} + (W+1)'(c_q[1]);
    fa3  = {1'b0, pa_q[W-1:0]} + {1'b0, ha0} + (W+1)'(c_q[2]);
    x1   = fa1[W-1:0];
    x2   = fa2[W-1:0];
    x3   = fa3[W-1:0];
    maj  = (x1 & x2) | (x1 & x3) | (x2 & x3);

    o1_d = s2_q ? x1 ^ x2 ^ x3 : o1_q;
    o2_d = s2_q ? {maj[W-2:0], c_q[3]} : o2_q;
    ob_d = s2_top_q ? '0 : in_b_i;    // B shifted down one digit
    a1_d = in_a_i;
    n1_d = in_n_i;
    oa_d = a1_q;
    on_d = n1_q;
    oj_d  = 1'b0;
    ofj_d = 1'b0;
    if (or_q) begin                   // a result word leaves: the next product's word follows it
      oa_d  = inj_a_i;
      ob_d  = inj_b_i;
      on_d  = inj_n_i;
      oj_d  = inj_valid_i;
      ofj_d = inj_valid_i && of_q;
    end
    hn_d = pn_q[2*W-1:W];
    ha_d = pa_q[2*W-1:W];
    c_d  = {maj[W-1], fa3[W], fa2[W], fa1[W]};
    if (start) begin                  // (C_i)_(-1): the carry of S'_0 + S''_0
      c_d = {3'b000, w0[W]};
    end
    ov_d = s2_q;
    of_d = s2_q && s2_first_q;
    or_d = s2_q && s2_res_q;
    if (wipe_i) begin   // OP_ZEROIZE: stage 2 and the output registers to 0
      o1_d = '0;
      o2_d = '0;
      ob_d = '0;
      hn_d = '0;
      ha_d = '0;
      c_d  = '0;
      ov_d = 1'b0;
      of_d = 1'b0;
      or_d = 1'b0;
      oj_d = 1'b0;
      ofj_d = 1'b0;
      a1_d = '0;
      n1_d = '0;
      oa_d = '0;
      on_d = '0;
    end
  end

  // ---- registers ----------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q <= 1'b0;
      cnt_q <= '0;
      s2_q  <= 1'b0;
      ov_q  <= 1'b0;
      of_q  <= 1'b0;
      or_q  <= 1'b0;
      oj_q  <= 1'b0;
      ofj_q <= 1'b0;
      qv_q  <= 1'b0;
    end else begin
      run_q <= run_d;
      cnt_q <= cnt_d;
      s2_q  <= s2_d;
      ov_q  <= ov_d;
      of_q  <= of_d;
      or_q  <= or_d;
      oj_q  <= oj_d;
      ofj_q <= ofj_d;
      qv_q  <= qv_d;
    end
  end

  always_ff @(posedge clk_i) begin
    b_q        <= b_d;
    qm_q       <= qm_d;
    last_q     <= last_d;
    qi_q       <= qi_d;
    qp_q       <= qp_d;
    tag_q      <= tag_d;
    olast_q    <= olast_d;
    pn_q       <= pn_d;
    pa_q       <= pa_d;
    hn_q       <= hn_d;
    ha_q       <= ha_d;
    c_q        <= c_d;
    s2_first_q <= s2_first_d;
    s2_top_q   <= s2_top_d;
    s2_res_q   <= s2_res_d;
    o1_q       <= o1_d;
    o2_q       <= o2_d;
    ob_q       <= ob_d;
    a1_q       <= a1_d;
    n1_q       <= n1_d;
    oa_q       <= oa_d;
    on_q       <= on_d;
  end

  // a result word (or_q) is not passed on; an injected word (oj_q, the cycle after a result
  // word): S = 0, q = 0, i = 0, not last.  The two never meet the PE's own next iteration's
  // words: it starts at t + e + 1 at the earliest (the next product's round trip)
  logic inj_out;
  assign inj_out      = or_q || oj_q;
  assign out_valid_o  = (ov_q && !or_q) || oj_q;
  assign out_first_o  = (of_q && !or_q && !oj_q) || ofj_q;
  assign out_s1_o     = inj_out ? '0 : o1_q;
  assign out_s2_o     = inj_out ? '0 : o2_q;
  assign out_a_o      = oa_q;
  assign out_b_o      = ob_q;
  assign out_n_o      = on_q;
  assign out_q_o      = inj_out ? '0 : qi_q;
  assign out_q2_o     = inj_out ? '0 : qp_q;
  assign out_tag_o    = inj_out ? '0 : tag_q + TagW'(1);
  assign out_last_o   = olast_q && !inj_out;
  assign res_valid_o  = ov_q && or_q;
  assign res_s1_o     = o1_q;
  assign res_s2_o     = o2_q;
  assign free_o       = !run_q;
  assign take_o       = s1;
  assign last_start_o = start && in_last_i;
  assign busy_next_o  = run_d;
  assign last_next_o  = s2_q && s2_first_q && !s2_res_q && olast_q;
  assign qv_o         = qv_q;
  assign q_o          = qi_q;
  assign tag_o        = tag_q;
endmodule
