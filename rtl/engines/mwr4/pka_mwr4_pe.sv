// SPDX-License-Identifier: Apache-2.0
// pka_mwr4_pe: processing element of the MWR4MM kernel (paper 001, Fig. 4): one multiplier digit per
// pass, one w-bit word of S, B, M per cycle, S in carry-save form (SS, SC).
//
// For digit qa_j (recoded from the Booth window latched with word 0) the PE computes, word by word,
//   X = SS + SC + PP + PM,  PP = qa_j*B,  PM = qm_j*M,   and outputs S' = X / 2^K (carry-save).
// First section: the K low bits of word 0 of S + PP (a K-bit adder of SS, SC, PP, the +1 of a
//   negative PP and the carry cl of the previous digit) feed the Montgomery recoder -> qm_j.
// Second section: two CSAs per word (CSA1: SS+SC+PP, CSA2: +PM); the top bit of each CSA's carry
//   vector is the inter-word carry (Ca, Cb of the paper). Word 0's free carry-in slots take the +1 of
//   a negative PP (CSA1) and cl (CSA2). The top word (last_i) is carry-propagated (one W-bit adder)
//   so its sign is exact, SC's top word is 0. The low K bits of word 0 of SS'+SC' are 0 mod 2^K;
//   their carry cl goes to the next stage with word 0.
// Shift: output word i-1 = {K low bits of word i, word i-1 >> K}, emitted while word i is consumed;
//   the top word, sign-extended, one cycle after the last input word (the next digit's word 0 may be
//   consumed in that cycle: it produces no output).
// Latency: output word i is registered 2 cycles after input word i enters (so the next stage starts
//   2 cycles later, paper section 3.1); B, M and the word flags go through two registers.
// Low power (section 5): SEL_PP / SEL_PM are registers; with Freeze (and freeze_en_i) they keep their
//   value while EN_PP / EN_PM is 0. The SEL_PP coding lives in pka_mwr4_booth / pka_mwr4_ppgen.
//   GlitchBlock = 1 builds the paper's glitch blockers: latches, transparent while the clock is low,
//   between the select logic (recoders, SEL/EN registers and their multiplexers) and the PP / PM
//   generators, so that the generators and the CSAs see one change of their selects per cycle, after
//   the falling edge, instead of the recoders' glitches. Functionally transparent (the registers
//   sample at the rising edge, after the low phase); the selects must settle within the high phase.
//   Their effect is measured on the gate netlist with a unit-delay simulation (pka.analysis.power,
//   doc/mwr4.md): a cycle simulator sees no glitches.
//   Isolate = 1 (ours, not the paper's) holds the operands of the logic that only the first word
//   uses (the K-bit adder in front of the Montgomery recoder, the low-bits carry adder) and of the
//   last word's carry-propagate adder at 0 in the other cycles: those adders otherwise switch, and
//   glitch, on every word. 13-15 % less switching energy per product on the gate netlist, for 5 %
//   more LUT4 on the ECP5 (doc/mwr4.md); off by default, for an ASIC or a power-bound build.
// ToggleCnt = 1 adds per-cycle toggle counts of the SEL/EN registers, the generator nets and the
//   datapath registers (measurement only).
// wipe_i (OP_ZEROIZE): every register of the PE and its generators is cleared (held at 0 while
//   wipe_i is high): they hold words of S, B, M and the recoded digits, all operand-derived.
`default_nettype none

module pka_mwr4_pe #(
  parameter int unsigned Radix     = 4,   // 2, 4 or 8
  parameter int unsigned W         = 16,  // word size: 4, 8, 16, 32
  parameter int unsigned Coding    = 1,   // 1: the paper's SEL_PP coding is built
  parameter int unsigned Freeze    = 1,   // 1: SEL_PP/SEL_PM freeze while EN = 0 is built
  parameter int unsigned ToggleCnt = 0,   // 1: toggle counters for the low-power measurements
  parameter int unsigned GlitchBlock = 0, // 1: latches on the generators' selects (glitch blockers)
  parameter int unsigned Isolate   = 0,   // 1: operand isolation of the first-word and last-word adders
  localparam int unsigned K        = Radix == 8 ? 3 : Radix == 4 ? 2 : 1,
  localparam int unsigned SelW     = Radix == 8 ? 3 : Radix == 4 ? 2 : 1
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         wipe_i,      // clear every register (OP_ZEROIZE)
  input  logic         in_valid_i,
  input  logic         in_first_i,
  input  logic         in_last_i,
  input  logic [W-1:0] in_ss_i,
  input  logic [W-1:0] in_sc_i,
  input  logic         in_cl_i,     // carry of the previous digit's low bits, with word 0
  input  logic [W-1:0] in_b_i,
  input  logic [W-1:0] in_m_i,
  input  logic [K:0]   digit_i,     // Booth window of this stage's digit, sampled with word 0
  input  logic         freeze_en_i,
  input  logic         coding_en_i,
  output logic         out_valid_o,
  output logic         out_first_o,
  output logic         out_last_o,
  output logic [W-1:0] out_ss_o,
  output logic [W-1:0] out_sc_o,
  output logic         out_cl_o,
  output logic [W-1:0] out_b_o,
  output logic [W-1:0] out_m_o,
  output logic [7:0]   tog_sel_o,   // toggles this cycle: SEL_PP + SEL_PM registers
  output logic [7:0]   tog_en_o,    //   EN_PP + EN_PM registers
  output logic [7:0]   tog_net_o,   //   PP and PM generator words before the enable gate
  output logic [7:0]   tog_reg_o    //   SS/SC output and B/M pipeline registers
);
  initial begin
    if (W < 4 || W > 32 || (W & (W - 1)) != 0) $fatal(1, "W must be 4, 8, 16 or 32");
    if (Freeze > 1 || ToggleCnt > 1 || GlitchBlock > 1 || Isolate > 1)
      $fatal(1, "Freeze, ToggleCnt, GlitchBlock, Isolate: 0 or 1");
  end

  // ---- recoders and the frozen select registers --------------------------------------------------
  logic            en_pp_new, en_pm_new, en_pp, en_pm;
  logic [SelW-1:0] sel_pp_new, sel_pm_new, sel_pp, sel_pm;
  logic            en_pp_q, en_pm_q, en_pp_d, en_pm_d;
  logic [SelW-1:0] sel_pp_q, sel_pm_q, sel_pp_d, sel_pm_d;
  logic            freeze;
  logic            en_pp_g, en_pm_g;      // the generators' selects (after the glitch blockers)
  logic [SelW-1:0] sel_pp_g, sel_pm_g;

  pka_mwr4_booth #(.Radix(Radix), .Coding(Coding)) u_booth (
    .win_i(digit_i), .coding_en_i(coding_en_i), .en_o(en_pp_new), .sel_o(sel_pp_new)
  );

  // ---- generators and the first section ----------------------------------------------------------
  logic [W-1:0] pp, pm, pp_net, pm_net;
  logic         neg_pp;
  logic [K-1:0] sp_low;

  pka_mwr4_ppgen #(.Radix(Radix), .W(W), .Coding(Coding)) u_ppgen (
    .clk_i(clk_i), .wipe_i(wipe_i), .valid_i(in_valid_i), .first_i(in_first_i), .b_i(in_b_i), .en_i(en_pp_g),
    .sel_i(sel_pp_g), .coding_en_i(coding_en_i), .pp_o(pp), .neg_o(neg_pp), .net_o(pp_net)
  );

  logic iso_f, iso_l;     // the first-word / last-word logic's operands pass (else held at 0)
  assign iso_f = (Isolate == 0) || in_first_i;
  assign iso_l = (Isolate == 0) || in_last_i;
  assign sp_low = K'((in_ss_i[K-1:0] & {K{iso_f}}) + (in_sc_i[K-1:0] & {K{iso_f}}) + (pp[K-1:0] & {K{iso_f}})
                  + K'(neg_pp & iso_f) + K'(in_cl_i & iso_f));

  pka_mwr4_mrec #(.Radix(Radix)) u_mrec (
    .sp_i(sp_low), .m_i(in_m_i[K-1:0]), .en_o(en_pm_new), .sel_o(sel_pm_new)
  );

  pka_mwr4_pmgen #(.Radix(Radix), .W(W)) u_pmgen (
    .clk_i(clk_i), .wipe_i(wipe_i), .valid_i(in_valid_i), .first_i(in_first_i), .m_i(in_m_i), .en_i(en_pm_g),
    .sel_i(sel_pm_g), .pm_o(pm), .net_o(pm_net)
  );

  always_comb begin
    freeze = (Freeze == 1) && freeze_en_i;
    en_pp  = in_first_i ? en_pp_new : en_pp_q;
    en_pm  = in_first_i ? en_pm_new : en_pm_q;
    sel_pp = (in_first_i && (en_pp_new || !freeze)) ? sel_pp_new : sel_pp_q;
    sel_pm = (in_first_i && (en_pm_new || !freeze)) ? sel_pm_new : sel_pm_q;
    en_pp_d  = in_valid_i ? en_pp : en_pp_q;
    en_pm_d  = in_valid_i ? en_pm : en_pm_q;
    sel_pp_d = in_valid_i ? sel_pp : sel_pp_q;
    sel_pm_d = in_valid_i ? sel_pm : sel_pm_q;
    if (wipe_i) begin
      en_pp_d  = 1'b0;
      en_pm_d  = 1'b0;
      sel_pp_d = '0;
      sel_pm_d = '0;
    end
  end

  // ---- glitch blockers ---------------------------------------------------------------------------
  if (GlitchBlock == 1) begin : g_gb
    always_latch begin
      if (!clk_i) begin
        en_pp_g  = en_pp;
        sel_pp_g = sel_pp;
        en_pm_g  = en_pm;
        sel_pm_g = sel_pm;
      end
    end
  end else begin : g_no_gb
    assign en_pp_g  = en_pp;
    assign sel_pp_g = sel_pp;
    assign en_pm_g  = en_pm;
    assign sel_pm_g = sel_pm;
  end

  // ---- second section: two CSAs per word, the top word carry-propagated ---------------------------
  logic         ca_q, ca_d, cb_q, cb_d;       // inter-word carries of CSA1 / CSA2
  logic [W-1:0] s1, c1, c1s, s2, c2, c2s, top, new_ss, new_sc;
  logic [W-K-1:0] hs_q, hs_d, hc_q, hc_d;     // word i-1 >> K, waiting for word i's low bits
  logic [K:0]   low;
  logic         cl_q, cl_d;                   // carry of word 0's low K bits -> next stage
  logic         flush_q, flush_d;             // the top word is emitted this cycle

  always_comb begin
    s1  = in_ss_i ^ in_sc_i ^ pp;
    c1  = (in_ss_i & in_sc_i) | (in_ss_i & pp) | (in_sc_i & pp);
    c1s = {c1[W-2:0], in_first_i ? neg_pp : ca_q};
    s2  = s1 ^ c1s ^ pm;
    c2  = (s1 & c1s) | (s1 & pm) | (c1s & pm);
    c2s = {c2[W-2:0], in_first_i ? in_cl_i : cb_q};
    top = (s2 & {W{iso_l}}) + (c2s & {W{iso_l}});
    new_ss = in_last_i ? top : s2;
    new_sc = in_last_i ? '0 : c2s;
    low  = (K+1)'(new_ss[K-1:0] & {K{iso_f}}) + (K+1)'(new_sc[K-1:0] & {K{iso_f}});
    ca_d = in_valid_i ? c1[W-1] : ca_q;
    cb_d = in_valid_i ? c2[W-1] : cb_q;
    hs_d = in_valid_i ? new_ss[W-1:K] : hs_q;
    hc_d = in_valid_i ? new_sc[W-1:K] : hc_q;
    cl_d = (in_valid_i && in_first_i) ? low[K] : cl_q;
    flush_d = in_valid_i && in_last_i;
    if (wipe_i) begin
      ca_d    = 1'b0;
      cb_d    = 1'b0;
      hs_d    = '0;
      hc_d    = '0;
      cl_d    = 1'b0;
      flush_d = 1'b0;
    end
  end

  // ---- output registers (the register between stages of Fig. 3) ----------------------------------
  logic [W-1:0] oss_q, oss_d, osc_q, osc_d, b1_q, b1_d, b2_q, b2_d, m1_q, m1_d, m2_q, m2_d;
  logic         ocl_q, ocl_d;
  logic [2:0]   f1_q, f1_d, f2_q, f2_d;   // {valid, first, last}, delayed twice

  always_comb begin
    oss_d = oss_q;
    osc_d = osc_q;
    ocl_d = ocl_q;
    if (in_valid_i && !in_first_i) begin
      oss_d = {new_ss[K-1:0], hs_q};
      osc_d = {new_sc[K-1:0], hc_q};
      ocl_d = cl_q;
    end else if (flush_q) begin
      oss_d = {{K{hs_q[W-K-1]}}, hs_q};  // the top word, sign-extended
      osc_d = {K'(0), hc_q};
    end
    f1_d = {in_valid_i, in_first_i & in_valid_i, in_last_i & in_valid_i};
    f2_d = f1_q;
    b1_d = in_b_i;
    b2_d = b1_q;
    m1_d = in_m_i;
    m2_d = m1_q;
    if (wipe_i) begin
      {oss_d, osc_d, ocl_d, f1_d, f2_d, b1_d, b2_d, m1_d, m2_d} = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      en_pp_q <= 1'b0; en_pm_q <= 1'b0; sel_pp_q <= '0; sel_pm_q <= '0;
      f1_q <= '0; f2_q <= '0; flush_q <= 1'b0;
    end else begin
      en_pp_q <= en_pp_d; en_pm_q <= en_pm_d; sel_pp_q <= sel_pp_d; sel_pm_q <= sel_pm_d;
      f1_q <= f1_d; f2_q <= f2_d; flush_q <= flush_d;
    end
  end

  always_ff @(posedge clk_i) begin
    ca_q <= ca_d; cb_q <= cb_d; hs_q <= hs_d; hc_q <= hc_d; cl_q <= cl_d;
    oss_q <= oss_d; osc_q <= osc_d; ocl_q <= ocl_d;
    b1_q <= b1_d; b2_q <= b2_d; m1_q <= m1_d; m2_q <= m2_d;
  end

  assign out_valid_o = f2_q[2];
  assign out_first_o = f2_q[1];
  assign out_last_o  = f2_q[0];
  assign out_ss_o    = oss_q;
  assign out_sc_o    = osc_q;
  assign out_cl_o    = ocl_q;
  assign out_b_o     = b2_q;
  assign out_m_o     = m2_q;

  // ---- toggle counters (measurement only) ---------------------------------------------------------
  if (ToggleCnt == 1) begin : g_tog
    logic [W-1:0] ppn_q, pmn_q, ppn_d, pmn_d;
    assign ppn_d = wipe_i ? '0 : pp_net;
    assign pmn_d = wipe_i ? '0 : pm_net;
    always_ff @(posedge clk_i) begin
      ppn_q <= ppn_d;
      pmn_q <= pmn_d;
    end
    always_comb begin
      tog_sel_o = 8'($countones(sel_pp_d ^ sel_pp_q)) + 8'($countones(sel_pm_d ^ sel_pm_q));
      tog_en_o  = 8'($countones({en_pp_d, en_pm_d} ^ {en_pp_q, en_pm_q}));
      tog_net_o = 8'($countones(pp_net ^ ppn_q)) + 8'($countones(pm_net ^ pmn_q));
      tog_reg_o = 8'($countones(oss_d ^ oss_q)) + 8'($countones(osc_d ^ osc_q))
                + 8'($countones(in_b_i ^ b1_q)) + 8'($countones(b1_q ^ b2_q))
                + 8'($countones(in_m_i ^ m1_q)) + 8'($countones(m1_q ^ m2_q));
    end
  end else begin : g_no_tog
    assign tog_sel_o = '0;
    assign tog_en_o  = '0;
    assign tog_net_o = '0;
    assign tog_reg_o = '0;
    logic unused_tog;
    assign unused_tog = ^{pp_net, pm_net};
  end
endmodule
