// SPDX-License-Identifier: Apache-2.0
// pka_hscm_array: Pes PEs in a ring (one HSCM) or in two rings of Pes/2 (two HSCMs: Montgomery
// ladder, CRT), with the feedback FIFOs, the inject ports of the two sequencers and the buses
// that collect the results.
//
//   joined (split_i = 0):  FIFO0 -> PE 0 -> PE 1 -> ... -> PE Pes-1 -> FIFO0
//   split  (split_i = 1):  FIFO0 -> PE 0 -> ... -> PE Pes/2-1 -> FIFO0     (ring 0)
//                          FIFO1 -> PE Pes/2 -> ... -> PE Pes-1 -> FIFO1   (ring 1)
//
// A ring's sequencer injects a new product's stream (S = 0, A, B, N) into the PE after the one
// that runs the previous product's last iteration (through the FIFO when that is the ring's
// first PE, which may still be busy), in place of that PE's output, which goes to the ring's
// result bus (res_*): the finishing PE itself puts the stream into its output registers
// (pka_hscm_pe), so a PE's input is the previous PE's output registers with no multiplexer, and
// the FIFO's input is the ring's last PE.  A chain's first product goes straight into the
// (idle) first PE from the sequencer's registers (dinj_*), so that the FIFO stays free for the
// ring's feedback: a ring's first PE selects between the two.  Every
// PE reports the q_i of the iteration it started in the previous cycle on the ring's q bus (one
// start per ring per cycle at most: starts are two cycles apart), used for q_(f+1) and for the
// low words of a MULT product (Figure 6).
// A ring's first PE starts an iteration from its FIFO exactly D = max(0, e - 2L) cycles after the
// iteration's first word entered the FIFO (L: the ring's PEs), not as soon as it is free: in an
// unbroken chain the two are the same cycle (a PE is busy e cycles, a round of L PEs takes 2L),
// and when the sequencer's bubble between two products has moved the PEs after the finishing one
// a cycle later, the first PE follows them, so the bubble goes round the whole ring and no PE
// receives a word while still busy (pka.model.hscm.iteration_start).  At most one first word is
// in a FIFO at a time (D < e), so one counter per ring measures its age.
// last_start_o is registered: a cycle ahead, every PE's start of a last iteration is known from
// registers - the previous PE's stage 2 holds the first word it will output (with "next is last"),
// and a ring's first PE's next input is the FIFO's next head register or, when that is empty,
// the ring's last PE's output, known the same way - so the sequencers' boundary logic and RAM
// reads start from flip-flops, not from the PE inputs' multiplexers.
// wipe_i (OP_ZEROIZE, at least Depth cycles) zeroes every PE register and the FIFOs' storage.
// Dq = 2 (digits of k = 2w bits): each PE passes the quotient it received beside its own
// (pka_hscm_pe), one more word through the ring and its FIFO.
`default_nettype none

module pka_hscm_array #(
  parameter int unsigned W     = 16,  // word bits
  parameter int unsigned Pes   = 4,   // number of PEs (two rings need an even number)
  parameter int unsigned TagW  = 9,   // iteration index bits
  parameter int unsigned Depth = 8,   // FIFO entries, >= e_max
  parameter int unsigned Dq    = 1    // quotient delay in passes: k / w (1 or 2)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            split_i,
  input  logic            flush_i,
  input  logic            wipe_i,        // OP_ZEROIZE: PEs, FIFOs and look-ahead to 0
  input  logic [TagW-1:0] em1_i [2],     // e - 1 per ring
  input  logic [TagW-1:0] fp1_i [2],     // f + 1 per ring
  // inject ports (one per ring): the next product's stream for the PE finishing a product
  // (combinational, see above), and a chain's first product for the ring's first PE (registers)
  input  logic            inj_valid_i [2],
  input  logic [W-1:0]    inj_a_i [2],
  input  logic [W-1:0]    inj_b_i [2],
  input  logic [W-1:0]    inj_n_i [2],
  input  logic            dinj_valid_i [2],
  input  logic            dinj_first_i [2],
  input  logic [W-1:0]    dinj_a_i [2],
  input  logic [W-1:0]    dinj_b_i [2],
  input  logic [W-1:0]    dinj_n_i [2],
  // per ring: a PE starts a product's last iteration (registered, see above)
  output logic            last_start_o [2],
  // per ring: words of S_(f+2) from the PE running a last iteration
  output logic            res_valid_o [2],
  output logic [W-1:0]    res_s1_o [2],
  output logic [W-1:0]    res_s2_o [2],
  // per ring: q bus (q_i and i of the iteration started in the previous cycle)
  output logic            qv_o [2],
  output logic [W-1:0]    q_o [2],
  output logic [TagW-1:0] tag_o [2]
);
  localparam int unsigned Half = Pes / 2;
  localparam int unsigned Q2w  = (Dq == 2) ? W : 1;  // the second quotient field (1 unused bit)
  localparam int unsigned Fw   = 6 * W + Q2w + TagW + 2;  // FIFO word: s1 s2 a b n q q2 tag first last

  initial begin
    if (Pes < 1 || Pes > 128) $fatal(1, "pka_hscm_array: Pes must be 1..128");
  end

  // PE inputs and outputs
  logic            i_valid [Pes], i_first [Pes], i_last [Pes];
  logic [W-1:0]    i_s1 [Pes], i_s2 [Pes], i_a [Pes], i_b [Pes], i_n [Pes], i_q [Pes], i_q2 [Pes];
  logic [TagW-1:0] i_tag [Pes];
  logic            o_valid [Pes], o_first [Pes], o_last [Pes], o_res [Pes];
  logic [W-1:0]    o_s1 [Pes], o_s2 [Pes], o_a [Pes], o_b [Pes], o_n [Pes], o_q [Pes], o_q2 [Pes];
  logic [W-1:0]    r_s1 [Pes], r_s2 [Pes];   // a PE's result words (S_(f+2))
  logic [TagW-1:0] o_tag [Pes];
  logic            p_free [Pes], p_take [Pes], p_lstart [Pes], p_qv [Pes];
  logic            p_busyn [Pes], p_lastn [Pes], p_lsn [Pes];
  logic            ls_q [2], ls_d [2];
  logic            p_iv [Pes];
  logic [W-1:0]    p_ia [Pes], p_ib [Pes], p_in [Pes];
  logic [W-1:0]    p_q [Pes];
  logic [TagW-1:0] p_tag [Pes], p_em1 [Pes], p_fp1 [Pes];
  logic            ring1 [Pes];
  // split_i registered here: it is the operation's (set with the command, many cycles before the
  // rings run), and every PE's input select hangs on it, so it starts from a flip-flop of the array
  logic            split_q;
  // the FIFO head's wait (see above): D != 0, the age of the last first word written (saturating),
  // and "the head's first word may start" for the next cycle
  logic            dnz_q [2], dnz_d [2], ok_q [2], ok_d [2], wfirst [2], gate [2], okn [2];
  logic [TagW:0]   dly_q [2], dly_d [2], age_q [2], age_d [2];

  // FIFOs
  logic            f_wv [2], f_rv [2], f_pop [2], f_nv [2];
  logic [Fw-1:0]   f_wd [2], f_rd [2], f_nd [2];

  function automatic logic [Fw-1:0] pack(logic [W-1:0] s1, logic [W-1:0] s2, logic [W-1:0] a,
                                          logic [W-1:0] b, logic [W-1:0] n, logic [W-1:0] q,
                                          logic [Q2w-1:0] q2, logic [TagW-1:0] tag, logic first,
                                          logic last);
    return {last, first, tag, q2, q, n, b, a, s2, s1};
  endfunction

  localparam int unsigned Last0 = Pes - 1;
  localparam int unsigned LastH = (Half > 0) ? Half - 1 : 0;

  // ring membership and per-PE geometry
  always_comb begin
    for (int p = 0; p < Pes; p++) begin
      ring1[p] = split_q && (p >= int'(Half));
      p_em1[p] = ring1[p] ? em1_i[1] : em1_i[0];
      p_fp1[p] = ring1[p] ? fp1_i[1] : fp1_i[0];
    end
  end

  // FIFO inputs: the ring's last PE (which carries the injected stream when it finishes a product)
  always_comb begin
    if (split_q) begin
      f_wv[0] = o_valid[LastH];
      f_wd[0] = pack(o_s1[LastH], o_s2[LastH], o_a[LastH], o_b[LastH], o_n[LastH], o_q[LastH],
                     o_q2[LastH][Q2w-1:0], o_tag[LastH], o_first[LastH], o_last[LastH]);
    end else begin
      f_wv[0] = o_valid[Last0];
      f_wd[0] = pack(o_s1[Last0], o_s2[Last0], o_a[Last0], o_b[Last0], o_n[Last0], o_q[Last0],
                     o_q2[Last0][Q2w-1:0], o_tag[Last0], o_first[Last0], o_last[Last0]);
    end
    f_wv[1] = split_q && o_valid[Last0];
    f_wd[1] = pack(o_s1[Last0], o_s2[Last0], o_a[Last0], o_b[Last0], o_n[Last0], o_q[Last0],
                   o_q2[Last0][Q2w-1:0], o_tag[Last0], o_first[Last0], o_last[Last0]);
  end

  // each PE's injection stream: its ring's
  always_comb begin
    for (int p = 0; p < Pes; p++) begin
      p_iv[p] = ring1[p] ? inj_valid_i[1] : inj_valid_i[0];
      p_ia[p] = ring1[p] ? inj_a_i[1] : inj_a_i[0];
      p_ib[p] = ring1[p] ? inj_b_i[1] : inj_b_i[0];
      p_in[p] = ring1[p] ? inj_n_i[1] : inj_n_i[0];
    end
  end

  // the FIFO head's wait: D from the ring's geometry (registers), the age counter
  always_comb begin
    for (int r = 0; r < 2; r++) begin
      logic [15:0] e, l2;
      e  = 16'(em1_i[r]) + 16'd1;
      l2 = (r == 0 && !split_q) ? 16'(2 * Pes) : 16'(2 * Half);
      dnz_d[r] = e > l2;
      dly_d[r] = (TagW+1)'(e - l2);
      wfirst[r] = f_wv[r] && f_wd[r][Fw-2];
      age_d[r]  = wfirst[r] ? (TagW+1)'(1) : (&age_q[r]) ? age_q[r] : age_q[r] + (TagW+1)'(1);
      okn[r]    = age_d[r] >= dly_q[r];
      ok_d[r]   = okn[r];
      // this cycle: a first word written now is the head's (the FIFO held none), of age 0
      gate[r]   = !dnz_q[r] || (ok_q[r] && !wfirst[r]);
      if (wipe_i) begin
        dnz_d[r] = 1'b0;
        dly_d[r] = '0;
        age_d[r] = '0;
        ok_d[r]  = 1'b0;
      end
    end
  end

  // PE inputs: a ring's first PE its FIFO or the chain-start stream, the others the previous PE
  always_comb begin
    for (int p = 0; p < Pes; p++) begin
      logic first_pe, r1;
      r1 = ring1[p];
      first_pe = (p == 0) || (split_q && p == int'(Half));
      if (first_pe && dinj_valid_i[r1]) begin
        i_valid[p] = 1'b1;
        i_first[p] = dinj_first_i[r1];
        i_last[p]  = 1'b0;
        i_tag[p]   = '0;
        i_q[p]     = '0;
        i_q2[p]    = '0;
        i_s1[p]    = '0;
        i_s2[p]    = '0;
        i_a[p]     = dinj_a_i[r1];
        i_b[p]     = dinj_b_i[r1];
        i_n[p]     = dinj_n_i[r1];
      end else if (first_pe) begin
        // a first word waits for its cycle (gate); the words after it are never held
        i_valid[p] = f_rv[r1] && (gate[r1] || !f_rd[r1][Fw-2]);
        {i_last[p], i_first[p], i_tag[p]} = f_rd[r1][Fw-1 -: TagW+2];
        {i_q[p], i_n[p], i_b[p], i_a[p], i_s2[p], i_s1[p]} = f_rd[r1][6*W-1:0];
        i_q2[p]    = W'(f_rd[r1][6*W +: Q2w]);
      end else begin
        i_valid[p] = o_valid[p-1];
        i_first[p] = o_first[p-1];
        i_last[p]  = o_last[p-1];
        i_tag[p]   = o_tag[p-1];
        i_q[p]     = o_q[p-1];
        i_q2[p]    = o_q2[p-1];
        i_s1[p]    = o_s1[p-1];
        i_s2[p]    = o_s2[p-1];
        i_a[p]     = o_a[p-1];
        i_b[p]     = o_b[p-1];
        i_n[p]     = o_n[p-1];
      end
    end
  end

  always_comb begin   // the ring's first PE takes from its FIFO unless fed directly
    f_pop[0] = p_take[0] && !dinj_valid_i[0];
    f_pop[1] = split_q && p_take[Half] && !dinj_valid_i[1];
  end

  // per-ring buses (AND-OR: at most one driver per ring and cycle)
  always_comb begin
    for (int r = 0; r < 2; r++) begin
      last_start_o[r] = 1'b0;
      res_valid_o[r]  = 1'b0;
      res_s1_o[r]     = '0;
      res_s2_o[r]     = '0;
      qv_o[r]         = 1'b0;
      q_o[r]          = '0;
      tag_o[r]        = '0;
    end
    for (int r = 0; r < 2; r++) last_start_o[r] = ls_q[r];
    // each ring's terms selected with a constant index (ring r takes PE p when ring1[p] == r): a
    // flat AND-OR the tools balance into a tree (an index that depends on split_i made a chain of
    // Pes multiplexers, the engine's worst path)
    for (int r = 0; r < 2; r++) begin
      for (int p = 0; p < Pes; p++) begin
        logic mine;
        mine = (ring1[p] == 1'(r));
        res_valid_o[r] = res_valid_o[r] | (mine & o_res[p]);
        res_s1_o[r]    = res_s1_o[r] | ({W{mine & o_res[p]}} & r_s1[p]);
        res_s2_o[r]    = res_s2_o[r] | ({W{mine & o_res[p]}} & r_s2[p]);
        qv_o[r]        = qv_o[r] | (mine & p_qv[p]);
        q_o[r]         = q_o[r] | ({W{mine & p_qv[p]}} & p_q[p]);
        tag_o[r]       = tag_o[r] | ({TagW{mine & p_qv[p]}} & p_tag[p]);
      end
    end
  end

  // look-ahead of the last-iteration starts (exactly p_lstart one cycle later)
  always_comb begin
    for (int p = 0; p < Pes; p++) begin
      logic r1;
      r1 = ring1[p];
      if ((p == 0) || (split_q && p == int'(Half))) begin
        // the FIFO's head register, or (FIFO empty) the ring's last PE through it
        // a FIFO head next cycle that is a first word was written before: its gate is okn;
        // an empty FIFO passes the ring's last PE's word straight on only when D = 0
        p_lsn[p] = !p_busyn[p] && (f_nv[r1] ? (f_nd[r1][Fw-1] && f_nd[r1][Fw-2] &&
                                               (!dnz_q[r1] || okn[r1]))
                                            : (p_lastn[(r1 || !split_q) ? Last0 : LastH] &&
                                               !dnz_q[r1]));
      end else begin
        p_lsn[p] = p_lastn[p-1];
      end
    end
    for (int r = 0; r < 2; r++) ls_d[r] = 1'b0;
    for (int r = 0; r < 2; r++) begin
      for (int p = 0; p < Pes; p++) ls_d[r] = ls_d[r] | (p_lsn[p] && (ring1[p] == 1'(r)));
    end
    if (wipe_i) begin
      for (int r = 0; r < 2; r++) ls_d[r] = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ls_q[0]  <= 1'b0;
      ls_q[1]  <= 1'b0;
      split_q  <= 1'b0;
      for (int r = 0; r < 2; r++) begin
        dnz_q[r] <= 1'b0;
        dly_q[r] <= '0;
        age_q[r] <= '0;
        ok_q[r]  <= 1'b0;
      end
    end else begin
      for (int r = 0; r < 2; r++) begin
        dnz_q[r] <= dnz_d[r];
        dly_q[r] <= dly_d[r];
        age_q[r] <= age_d[r];
        ok_q[r]  <= ok_d[r];
      end
      split_q  <= split_i;
      ls_q[0]  <= ls_d[0];
      ls_q[1]  <= ls_d[1];
    end
  end

  for (genvar r = 0; r < 2; r++) begin : g_fifo
    pka_hscm_fifo #(
      .Width (Fw),
      .Depth (Depth)
    ) u_fifo (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .flush_i    (flush_i),
      .wipe_i     (wipe_i),
      .wr_valid_i (f_wv[r]),
      .wr_data_i  (f_wd[r]),
      .rd_valid_o (f_rv[r]),
      .rd_data_o  (f_rd[r]),
      .rd_pop_i   (f_pop[r]),
      .nxt_valid_o(f_nv[r]),
      .nxt_data_o (f_nd[r])
    );
  end

  for (genvar p = 0; p < Pes; p++) begin : g_pe
    pka_hscm_pe #(
      .W    (W),
      .TagW (TagW),
      .Dq   (Dq)
    ) u_pe (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .wipe_i       (wipe_i),
      .em1_i        (p_em1[p]),
      .fp1_i        (p_fp1[p]),
      .in_valid_i   (i_valid[p]),
      .in_first_i   (i_first[p]),
      .in_s1_i      (i_s1[p]),
      .in_s2_i      (i_s2[p]),
      .in_a_i       (i_a[p]),
      .in_b_i       (i_b[p]),
      .in_n_i       (i_n[p]),
      .in_q_i       (i_q[p]),
      .in_q2_i      (i_q2[p]),
      .in_tag_i     (i_tag[p]),
      .in_last_i    (i_last[p]),
      .out_valid_o  (o_valid[p]),
      .out_first_o  (o_first[p]),
      .out_s1_o     (o_s1[p]),
      .out_s2_o     (o_s2[p]),
      .out_a_o      (o_a[p]),
      .out_b_o      (o_b[p]),
      .out_n_o      (o_n[p]),
      .out_q_o      (o_q[p]),
      .out_q2_o     (o_q2[p]),
      .out_tag_o    (o_tag[p]),
      .out_last_o   (o_last[p]),
      .res_valid_o  (o_res[p]),
      .res_s1_o     (r_s1[p]),
      .res_s2_o     (r_s2[p]),
      .free_o       (p_free[p]),
      .take_o       (p_take[p]),
      .last_start_o (p_lstart[p]),
      .busy_next_o  (p_busyn[p]),
      .last_next_o  (p_lastn[p]),
      .qv_o         (p_qv[p]),
      .q_o          (p_q[p]),
      .tag_o        (p_tag[p]),
      .inj_valid_i  (p_iv[p]),
      .inj_a_i      (p_ia[p]),
      .inj_b_i      (p_ib[p]),
      .inj_n_i      (p_in[p])
    );
  end

  logic unused;
  always_comb begin
    unused = 1'b0;
    for (int p = 0; p < Pes; p++) unused = unused ^ p_free[p] ^ p_lstart[p] ^ (^o_q2[p]);
  end
endmodule
