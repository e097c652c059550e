// SPDX-License-Identifier: Apache-2.0
// pka_hscm_seq: the sequencer of one HSCM ring: chains products through the ring, one cycle apart.
//
// A boundary is the cycle T in which a PE starts the last iteration (i = f+1) of the product in
// flight, or the chain's start (T = t0).  From T on, for x = 0 .. e-1:
//   cycle T+x:    read word x of the next product's A and B (RAM) and of N on the RAM's two
//                 read ports;
//   cycle T+x-1:  read word x of the addend (MRDC: word f+x of floor(w/R)'s entry) on port A,
//                 a cycle ahead, into a register (ad_q) at T+x+1: the block RAM's output (several
//                 RAMs behind a multiplexer in a large build) does not feed the result adder.
//                 Port A is free for it: a product that adds an entry is never followed by one
//                 that reads its A from the RAM (pka_hscm_prog), so the finishing product's
//                 add_en alone says which of the two port A reads; word 0 is read in every idle
//                 cycle of the read stage while such a product is in flight (the boundary is not
//                 known a cycle ahead, and boundaries are at least 2 (f+2) > e + 1 cycles apart);
//   cycle T+x+1:  result word x of the finishing product through a w-bit carry-propagate adder:
//                 x = 0: q_(f+1) (q bus), x >= 1: S'_(x-1) + S''_(x-1) of S_(f+2) (result bus),
//                 plus the addend word and the carry; written to its entry (x < f);
//                 word x of the next product (A, B, N; S = 0) is made in the same cycle, into
//                 registers (ia_q, ib_q, in_q);
//   cycle T+x+2:  those registers go out on the injection port, into the output registers of
//                 the PE that runs the last iteration (which hold result word x in this cycle,
//                 pka_hscm_pe), so word x enters the next PE (or the ring's FIFO) at T+x+3: the
//                 next product's first iteration starts at T+3, one cycle after the PE's own
//                 output word x would have arrived (one cycle of bubble per product, so that no
//                 path runs from the result bus through the adder back into the array in one
//                 cycle; the ring's FIFO passes the bubble on, pka_hscm_array).  A chain's first
//                 product (no PE is finishing one) goes from the same registers (dinj_*)
//                 straight into the ring's first PE instead, at T+x+2.
// MULT products: the q bus's q_1 .. q_f (the low words, Figure 6) are written to words 0..f-1 of
// the destination as the iterations start, the result words go to f .. 2f-1.
// The RAM write port is registered (a word reaches the RAM one cycle after it is computed): no
// product reads an entry within 2 (f+2) cycles of its last write, and the units that read the
// results after a chain start at least two cycles after done_o.
// done_o: the cycle of the chain's last result word (T_last + f).  Chain start: the first
// iteration starts at t0 + 2, so a chain of K products takes 3 + s_G + f cycles (s_G: start of
// iteration G = K (f+2) - 1 relative to the first, K - 1 bubbles included,
// pka.model.hscm.chain_cycles).
// wipe_i (OP_ZEROIZE) holds every register at 0: the descriptors too, since in the CRT's fixed
// window the table entry a multiplication reads is chosen by the secret exponent.
// Digits of k = 2w bits (Dq = 2, doc/hscm.md): the ring runs 2 (f+2) passes of e = 2 (f+2) - 1
// words per product, f_i is the operand's word count 2f (w bits; results and operands < 2^(kf)),
// and:
//   - A and N are streamed one word up (A 2^w, N 2^w): word x of the stream is word x - 1 of the
//     source, taken from a register of the previous cycle's word (word 0 is 0); B is not shifted;
//   - result words 0 and 1 are q_(f+1)'s two words: the q bus of the last pass but one (held in
//     qh_q) and of the last pass; word x >= 2 is S_(f+2)'s word x - 2 (the result bus one cycle
//     later, rs*_q);
//   - MULT's low words are the q bus's d_2 .. d_(2f+1), written to word tag - 2.
`default_nettype none

module pka_hscm_seq
  import pka_hscm_pkg::*;
#(
  parameter int unsigned W    = 16,  // word bits
  parameter int unsigned TagW = 9,   // iteration index bits
  parameter int unsigned Aw   = 12,  // operand RAM address bits
  parameter int unsigned Ew   = 68,  // words per RAM entry (e_max)
  parameter int unsigned Dq   = 1    // passes per digit: k / w (1 or 2)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            wipe_i,       // OP_ZEROIZE: every register to 0
  input  logic            start_i,      // chain start: desc_i is the first product
  input  logic [TagW-1:0] f_i,          // words of an operand or result: f (Dq f)
  input  logic [TagW-1:0] em1_i,        // e - 1 (stream words - 1)
  input  logic [TagW-1:0] fm1_i,        // f_i - 1
  input  desc_t           desc_i,       // next product (valid at every boundary)
  output logic            desc_take_o,
  // ring
  input  logic            last_start_i,
  input  logic [W-1:0]    res_s1_i,
  input  logic [W-1:0]    res_s2_i,
  input  logic            qv_i,
  input  logic [W-1:0]    q_i,
  input  logic [TagW-1:0] tag_i,
  // the other HSCM's result word (ladder)
  input  logic [W-1:0]    other_i,
  output logic [W-1:0]    cpa_o,
  // operand RAM and N RAM
  output logic [Aw-1:0]   ra_o,
  output logic [Aw-1:0]   rb_o,
  input  logic [W-1:0]    rda_i,
  input  logic [W-1:0]    rdb_i,
  output logic [TagW-1:0] nra_o,
  input  logic [W-1:0]    nrd_i,
  output logic            we_o,
  output logic [Aw-1:0]   wa_o,
  output logic [W-1:0]    wd_o,
  // inject port: the next product's word (registers), for the PE finishing a product
  output logic            inj_valid_o,
  output logic [W-1:0]    inj_a_o,
  output logic [W-1:0]    inj_b_o,
  output logic [W-1:0]    inj_n_o,
  // a chain's first product: registered, straight into the ring's first PE
  output logic            dinj_valid_o,
  output logic            dinj_first_o,
  output logic [W-1:0]    dinj_a_o,
  output logic [W-1:0]    dinj_b_o,
  output logic [W-1:0]    dinj_n_o,
  output logic            done_o
);
  // ---- state ------------------------------------------------------------------------------
  desc_t           cur_q, cur_d;     // product in flight in the ring
  logic            cur_v_q, cur_v_d;
  desc_t           res_q, res_d;     // product whose result is being collected
  logic            res_v_q, res_v_d;
  desc_t           inj_q, inj_d;     // product being injected
  logic            inj_v_q, inj_v_d;
  logic            dir_q, dir_d;         // the product being injected is a chain's first
  logic            rx_act_q, rx_act_d;   // read stage busy (words 1 .. e-1)
  logic [TagW-1:0] rx_q, rx_d;
  logic            cx_v_q, cx_v_d;       // stage C valid, word cx_q
  logic [TagW-1:0] cx_q, cx_d;
  logic [1:0]      cy_q, cy_d;           // carry of the result adder
  logic            iv_q, iv_d, if_q, if_d;   // stage C injects a word; word 0 of the stream
  logic            we_q, we_d;           // registered RAM write port
  logic [Aw-1:0]   wa_q, wa_d;
  logic [W-1:0]    wd_q, wd_d;
  logic [Aw-1:0]   ra_q, ra_d, rb_q, rb_d;  // read addresses of word rx_q (read stage busy)
  logic            done_q, done_d;
  logic [W-1:0]    ia_q, ia_d, ib_q, ib_d, in_q, in_d;
  logic [W-1:0]    ad_q, ad_d;           // addend word (port A's data of the previous cycle)
  logic [Aw-1:0]   ap_q, ap_d;           // word f of the in-flight product's addend entry
  logic            am_q, am_d;           // the in-flight product adds an entry (port A: addend)
  logic            inf_q, inf_d;         // stage C's word is below f (cx_q < f)
  logic            cz_q, cz_d;           // stage C's word is word 0
  logic            c1_q, c1_d;           // stage C's word is word 1 (Dq = 2)
  logic [W-1:0]    qh_q, qh_d;           // the q bus's last value (Dq = 2)
  logic [W-1:0]    rs1_q, rs1_d, rs2_q, rs2_d;   // the result bus a cycle later (Dq = 2)
  logic [W-1:0]    ia1_q, ia1_d, in1_q, in1_d;   // A, N word of the previous cycle (Dq = 2)

  function automatic logic [Aw-1:0] addr(logic [7:0] ent, logic [TagW-1:0] x);
    return Aw'(ent_base(ent, Ew) + 32'(x));
  endfunction

  // ---- read stage --------------------------------------------------------------------------
  logic            bnd;
  desc_t           rinj, rres;
  logic            rinj_v, rres_v;
  logic [TagW-1:0] x;
  logic [Aw-1:0]   ra0, rb0;        // word 0's read addresses at a boundary

  always_comb begin
    bnd    = start_i || (last_start_i && cur_v_q);
    rinj   = bnd ? desc_i : inj_q;
    rinj_v = bnd ? (start_i || !cur_q.last) : inj_v_q;
    rres   = bnd ? cur_q : res_q;
    rres_v = bnd ? (!start_i && cur_v_q) : res_v_q;
    x      = bnd ? '0 : rx_q;

    // word 0 at a boundary from the descriptors (registers), words 1.. from address registers:
    // the boundary only selects (reading an unused word is harmless).  Port A with an addend
    // (am_q): word 0 in every idle cycle, word 1 at the boundary (see the header)
    nra_o = x;
    ra0  = am_q ? ap_q + Aw'(1) : addr(desc_i.a_ent, '0);
    rb0  = addr(desc_i.b_ent, '0);
    ra_o = bnd ? ra0 : (am_q && !rx_act_q) ? ap_q : ra_q;
    rb_o = bnd ? rb0 : rb_q;
    ra_d = ra_o + Aw'(1);
    rb_d = rb_o + Aw'(1);

    desc_take_o = bnd && rinj_v;
    cur_d   = cur_q;
    cur_v_d = cur_v_q;
    res_d   = res_q;
    res_v_d = res_v_q;
    inj_d   = inj_q;
    inj_v_d = inj_v_q;
    dir_d   = dir_q;
    rx_act_d = rx_act_q;
    rx_d     = rx_q;
    if (bnd) begin
      res_d   = rres;
      res_v_d = rres_v;
      inj_d   = rinj;
      inj_v_d = rinj_v;
      cur_d   = rinj;
      cur_v_d = rinj_v;
      dir_d = start_i;
      rx_act_d = 1'b1;
      rx_d     = TagW'(1);
    end else if (rx_act_q) begin
      rx_d     = rx_q + TagW'(1);
      rx_act_d = rx_q != em1_i;
    end
    cx_v_d = bnd || rx_act_q;
    cx_d   = x;
    inf_d  = x < f_i;
    cz_d   = x == '0;
    c1_d   = x == TagW'(1);
    // the addend's entry and its flag follow cur_q a cycle later (used from the next idle cycle)
    am_d   = cur_v_q && cur_q.add_en;
    ap_d   = addr(cur_q.add_ent, f_i);
    ad_d   = rda_i;
  end

  // ---- stage C: result adder, result write, inject register ---------------------------------
  logic [W+1:0] sum;
  logic [W-1:0] add, cpa, op1, op2, csv, ckv;
  logic [1:0]   cyi;
  logic         in_f, wr_res, wr_q, qword;

  always_comb begin
    in_f = inf_q;
    add  = (res_v_q && res_q.add_en && in_f) ? ad_q : '0;
    // q (word 0) or S' + S'' + carry, plus the addend: a 3:2 compressor and one carry chain; the
    // carry (0..2) goes in as the compressor's free low bit (cy[1]) and the chain's carry-in
    // Dq = 2: words 0 and 1 from the q bus (held), the rest from the delayed result bus
    qword = (Dq == 2) ? (cz_q || c1_q) : cz_q;
    op1  = qword ? ((Dq == 2) ? qh_q : q_i) : ((Dq == 2) ? rs1_q : res_s1_i);
    op2  = qword ? '0 : ((Dq == 2) ? rs2_q : res_s2_i);
    cyi  = cz_q ? 2'd0 : cy_q;
    csv  = op1 ^ op2 ^ add;
    ckv  = (op1 & op2) | (op1 & add) | (op2 & add);
    sum  = (W+2)'(csv) + {1'b0, ckv, cyi[1]} + (W+2)'(cyi[1] | cyi[0]);
    cpa  = sum[W-1:0];
    cy_d = cx_v_q ? sum[W+1:W] : cy_q;

    wr_res = cx_v_q && res_v_q && res_q.dst_en && in_f;
    wr_q   = cur_v_q && cur_q.mult && qv_i && tag_i >= TagW'(Dq) && tag_i < f_i + TagW'(Dq);
    we_d = wr_res || wr_q;
    wa_d = '0;
    wd_d = '0;
    if (wr_res) begin
      wa_d = addr(res_q.dst_ent, cx_q + (res_q.mult ? f_i : '0));
      wd_d = cpa;
    end else if (wr_q) begin
      wa_d = addr(cur_q.dst_ent, tag_i - TagW'(Dq));
      wd_d = q_i;
    end

    iv_d = cx_v_q && inj_v_q;
    if_d = cx_v_q && cz_q;
    unique case (inj_q.a_src)
      SRC_CPA: ia1_d = in_f ? cpa : '0;
      SRC_ONE: ia1_d = W'(cz_q);
      default: ia1_d = in_f ? rda_i : '0;
    endcase
    unique case (inj_q.b_src)
      SRC_CPA:   ib_d = in_f ? cpa : '0;
      SRC_ONE:   ib_d = W'(cz_q);
      SRC_RAM:   ib_d = in_f ? rdb_i : '0;
      default:   ib_d = in_f ? other_i : '0;
    endcase
    in1_d = inj_q.mult ? '0 : nrd_i;
    // Dq = 2: A and N one word up (the previous cycle's word; word 0 is 0)
    ia_d = (Dq == 2) ? (cz_q ? '0 : ia1_q) : ia1_d;
    in_d = (Dq == 2) ? (cz_q ? '0 : in1_q) : in1_d;
    qh_d  = qv_i ? q_i : qh_q;
    rs1_d = res_s1_i;
    rs2_d = res_s2_i;
    // done one cycle ahead into a register: the core's phase logic starts from a flip-flop
    done_d = cx_v_d && res_v_d && res_d.last && (cx_d == fm1_i);
  end

  // ---- wipe (OP_ZEROIZE): descriptors (they name the table entries the exponent chose),
  // addresses, the adder's carry, the inject and write registers ------------------------------
  desc_t           cur_w, res_w, inj_w;
  logic            cur_v_w, res_v_w, inj_v_w, dir_w, rx_act_w, cx_v_w, iv_w, if_w, we_w, done_w;
  logic            dv_q, dv_w;           // dinj_*: a chain's first product's word
  logic            jv_w;                 // inj_*: a next product's word (a PE finishes one)
  logic [TagW-1:0] rx_w, cx_w;
  logic [1:0]      cy_w;
  logic [Aw-1:0]   wa_w, ra_w, rb_w;
  logic [W-1:0]    wd_w, ia_w, ib_w, in_w, ad_w;
  logic [Aw-1:0]   ap_w;
  logic            am_w, inf_w, cz_w, c1_w;
  logic [W-1:0]    qh_w, rs1_w, rs2_w, ia1_w, in1_w;

  always_comb begin
    {cur_w, res_w, inj_w, cur_v_w, res_v_w, inj_v_w, dir_w, rx_act_w, cx_v_w, iv_w, if_w, we_w,
     done_w, rx_w, cx_w, cy_w, wa_w, ra_w, rb_w, wd_w, ia_w, ib_w, in_w, ad_w, ap_w, am_w,
     inf_w, cz_w, c1_w, qh_w, rs1_w, rs2_w, ia1_w, in1_w} =
    {cur_d, res_d, inj_d, cur_v_d, res_v_d, inj_v_d, dir_d, rx_act_d, cx_v_d, iv_d, if_d, we_d,
     done_d, rx_d, cx_d, cy_d, wa_d, ra_d, rb_d, wd_d, ia_d, ib_d, in_d, ad_d, ap_d, am_d,
     inf_d, cz_d, c1_d, qh_d, rs1_d, rs2_d, ia1_d, in1_d};
    if (wipe_i) begin
      {cur_w, res_w, inj_w, cur_v_w, res_v_w, inj_v_w, dir_w, rx_act_w, cx_v_w, iv_w, if_w, we_w,
       done_w, rx_w, cx_w, cy_w, wa_w, ra_w, rb_w, wd_w, ia_w, ib_w, in_w, ad_w, ap_w, am_w,
       inf_w, cz_w, c1_w, qh_w, rs1_w, rs2_w, ia1_w, in1_w} = '0;
    end
    dv_w = iv_w && dir_q;   // 0 in the wipe
    jv_w = iv_w && !dir_q;
  end

  // ---- registers ----------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cur_v_q  <= 1'b0;
      res_v_q  <= 1'b0;
      inj_v_q  <= 1'b0;
      rx_act_q <= 1'b0;
      cx_v_q   <= 1'b0;
      we_q     <= 1'b0;
      done_q   <= 1'b0;
    end else begin
      cur_v_q  <= cur_v_w;
      res_v_q  <= res_v_w;
      inj_v_q  <= inj_v_w;
      rx_act_q <= rx_act_w;
      cx_v_q   <= cx_v_w;
      we_q     <= we_w;
      done_q   <= done_w;
    end
  end

  always_ff @(posedge clk_i) begin
    iv_q  <= jv_w;
    cur_q <= cur_w;
    res_q <= res_w;
    inj_q <= inj_w;
    dv_q  <= dv_w;
    dir_q <= dir_w;
    rx_q  <= rx_w;
    cx_q  <= cx_w;
    cy_q  <= cy_w;
    if_q  <= if_w;
    ia_q  <= ia_w;
    ib_q  <= ib_w;
    in_q  <= in_w;
    ra_q  <= ra_w;
    rb_q  <= rb_w;
    wa_q  <= wa_w;
    wd_q  <= wd_w;
    ad_q  <= ad_w;
    ap_q  <= ap_w;
    am_q  <= am_w;
    inf_q <= inf_w;
    cz_q  <= cz_w;
    c1_q  <= c1_w;
    qh_q  <= qh_w;
    rs1_q <= rs1_w;
    rs2_q <= rs2_w;
    ia1_q <= ia1_w;
    in1_q <= in1_w;
  end

  assign cpa_o       = cpa;
  assign we_o        = we_q;
  assign done_o      = done_q;
  assign wa_o        = wa_q;
  assign wd_o        = wd_q;
  assign inj_valid_o  = iv_q;
  assign inj_a_o      = ia_q;
  assign inj_b_o      = ib_q;
  assign inj_n_o      = in_q;
  assign dinj_valid_o = dv_q;
  assign dinj_first_o = if_q;
  assign dinj_a_o     = ia_q;
  assign dinj_b_o     = ib_q;
  assign dinj_n_o     = in_q;
endmodule
