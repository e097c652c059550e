// SPDX-License-Identifier: Apache-2.0
// pka_formal_top: the formal harness of pka_top (SymbiYosys, formal/pka.sby, formal/README.md).
//
// A small build of the accelerator (MaxLen 64: 2-word slots, a 64-word RAM; the example engine or,
// with formal/abstract/, an engine that does anything the boundary allows), an AXI4-Lite master
// constrained by assumptions (valid held until ready, address/data stable while waiting, ready for a
// response within MasterStall cycles), and the properties, chosen per proof by a define:
//   PKA_FORMAL_AXI     1. the AXI4-Lite slave: no response without a request, none lost (bounded
//                         response time), BVALID/RVALID held with stable BRESP/RDATA/RRESP
//   PKA_FORMAL_SECRET  2. a read of a secret slot returns 0; a read of a slot tainted from the read
//                         request to the response returns 0 (and so does any slot read while busy)
//   PKA_FORMAL_BUSY    3. a command written while busy raises INTR_STATE.REJECT (STATUS.REJECT =
//                         ERR_BUSY) and leaves the running command's latched opcode, lengths,
//                         argument and engine as they were
//   PKA_FORMAL_LIVE    4. every command ends in one done pulse with a status within a bound, busy
//                         falls (with the abstract engine: done within DoneWithin cycles)
// Mutants (each must make its property fail; tests/test_formal.py checks that they do):
//   PKA_FORMAL_BUG_SECRET  the check of property 2 treats slot A (readable) as secret
//   PKA_FORMAL_BUG_TAINT   the check of property 2 treats slot R as tainted whenever it is not
// (the other mutants are edits of the RTL copies: see tests/test_formal.py).
// Internal signals are read through hierarchical references (u_dut.u_seq.*, u_dut.u_regs.*).
`default_nettype none

module pka_formal_top
  import pka_pkg::*;
#(
  parameter int unsigned MasterStall = 2,   // the master takes BVALID/RVALID within this many cycles
  parameter int unsigned RespBound   = 56   // property 1: with anything outstanding, some response
                                            // handshake within this many cycles
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        awvalid,
  input  logic [16:0] awaddr,
  input  logic        wvalid,
  input  logic [31:0] wdata,
  input  logic [3:0]  wstrb,
  input  logic        bready,
  input  logic        arvalid,
  input  logic [16:0] araddr,
  input  logic        rready,
  input  logic        edn_ack,
  input  logic [31:0] edn_data
);
  localparam int unsigned MaxLen = 64;

  logic        awready, wready, bvalid, arready, rvalid, irq, edn_req;
  logic [1:0]  bresp, rresp;
  logic [31:0] rdata;

  pka_top #(.MaxLen(MaxLen), .EnExample(1'b1), .EnHscm(1'b0)) u_dut (
    .clk_i, .rst_ni,
    .s_axil_awvalid(awvalid), .s_axil_awready(awready), .s_axil_awaddr(awaddr), .s_axil_awprot(3'b0),
    .s_axil_wvalid(wvalid), .s_axil_wready(wready), .s_axil_wdata(wdata), .s_axil_wstrb(wstrb),
    .s_axil_bvalid(bvalid), .s_axil_bready(bready), .s_axil_bresp(bresp),
    .s_axil_arvalid(arvalid), .s_axil_arready(arready), .s_axil_araddr(araddr), .s_axil_arprot(3'b0),
    .s_axil_rvalid(rvalid), .s_axil_rready(rready), .s_axil_rdata(rdata), .s_axil_rresp(rresp),
    .irq_o(irq), .edn_req_o(edn_req), .edn_ack_i(edn_ack), .edn_data_i(edn_data));

  // ---- environment ------------------------------------------------------------------------------
  // reset in the first cycle, never again
  logic f_init = 1'b1;
  logic f_past = 1'b0;            // $past is meaningful
  always_ff @(posedge clk_i) begin
    f_init <= 1'b0;
    f_past <= 1'b1;
  end
  always @* begin
    if (f_init) assume(!rst_ni);
    else        assume(rst_ni);
  end

  // the AXI4-Lite master: valid held until ready with stable payload; response ready within
  // MasterStall cycles of valid
  logic [3:0] f_bstall, f_rstall;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      f_bstall <= '0; f_rstall <= '0;
    end else begin
      f_bstall <= (bvalid && !bready) ? f_bstall + 4'd1 : '0;
      f_rstall <= (rvalid && !rready) ? f_rstall + 4'd1 : '0;
    end
  end
  always @* begin
    if (bvalid && 32'(f_bstall) >= MasterStall) assume(bready);
    if (rvalid && 32'(f_rstall) >= MasterStall) assume(rready);
  end
  always_ff @(posedge clk_i) begin
    if (f_past && rst_ni && $past(rst_ni)) begin
      if ($past(awvalid && !awready)) assume(awvalid && awaddr == $past(awaddr));
      if ($past(wvalid && !wready))   assume(wvalid && wdata == $past(wdata) && wstrb == $past(wstrb));
      if ($past(arvalid && !arready)) assume(arvalid && araddr == $past(araddr));
    end
  end

  // handshakes and outstanding requests (AW and W each counted against B, AR against R)
  logic aw_hs, w_hs, b_hs, ar_hs, r_hs;
  assign aw_hs = awvalid && awready;
  assign w_hs  = wvalid && wready;
  assign b_hs  = bvalid && bready;
  assign ar_hs = arvalid && arready;
  assign r_hs  = rvalid && rready;

  logic [2:0] f_naw, f_nw, f_nar;     // AW - B, W - B, AR - R
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      f_naw <= '0; f_nw <= '0; f_nar <= '0;
    end else begin
      f_naw <= f_naw + 3'(aw_hs) - 3'(b_hs);
      f_nw  <= f_nw + 3'(w_hs) - 3'(b_hs);
      f_nar <= f_nar + 3'(ar_hs) - 3'(r_hs);
    end
  end
  logic f_wout, f_out;                // a complete write outstanding; anything outstanding
  assign f_wout = (f_naw != 3'd0) && (f_nw != 3'd0);
  assign f_out  = f_wout || (f_nar != 3'd0);

  // ---- the sequencer, as seen from here -------------------------------------------------------------
  // pka_top_seq's enum values (its kind_e, state_e, fn_e; formal/run.py checks them against the source)
  localparam logic [4:0] KKeyClr = 5'd11;
  localparam logic [3:0] SPass = 4'd0, SIdle = 4'd1, SDecode = 4'd2, SNext = 4'd3, SEngWait = 4'd6, SDone = 4'd7;
  localparam logic [4:0] FnZero = 5'd0, FnClr = 5'd14;

  // pka_top_seq's kinds this build cannot run (no hscm, rns or binary engine with MODEXP/MODMUL)
  localparam logic [4:0] KReset = 5'd0;
  localparam logic [4:0] KEng = 5'd3, KAdd = 5'd4, KSub = 5'd5, KMont = 5'd6, KInv = 5'd7, KChk = 5'd8, KCrt = 5'd9, KExp = 5'd10, KAbort = 5'd12, KBlk = 5'd13, KSign = 5'd14,
                         KEcc = 5'd15, KEcd = 5'd16, KEcs = 5'd17;
  localparam logic [3:0] SMu = 4'd4, SEngCmd = 4'd5, SRst = 4'd9, SEnt = 4'd10;
  localparam logic [4:0] FnRand = 5'd15, FnMac = 5'd16, FnLd = 5'd17;

  logic seq_busy, seq_start, seq_done, seq_accept;
  assign seq_busy  = u_dut.busy;
  assign seq_start = u_dut.u_seq.start_i;
  assign seq_done  = u_dut.done;
  // (the hierarchical references to u_seq's input ports are the nets that drive them)
  always @* begin
    if (!f_init) begin
      a_ref_ports: assert(seq_start == u_dut.cmd_written_q && u_dut.u_seq.op_i == u_dut.hwif_out.CMD.OP.value
                          && u_dut.u_seq.len_i == u_dut.hwif_out.LEN.LEN.value
                          && u_dut.u_seq.mem_rdata_i == u_dut.ram_rdata);
    end
  end
  // the sequencer takes the command: idle, no key clear in the same cycle (a key clear wins and the
  // command is rejected) and no command in progress
  assign seq_accept = seq_start && !seq_busy && !u_dut.keyclr && !u_dut.u_seq.inprog_q;

`ifdef PKA_FORMAL_SEQ_INV
  // ---- what the sequencer of this build can be doing (invariants for the inductions) -------------
  // the programs of this build (no hscm, rns, nor a binary engine with MODEXP and MODMUL), no MONT
  // call from another program, no entropy wait, an engine command only to the example engine id,
  // and a decoded command's lengths in range
  logic [3:0] v_state;
  assign v_state = u_dut.u_seq.state_q;
  always @* begin
    if (!f_init) begin
      i_enums: assert(u_dut.u_seq.fn_q <= FnLd && v_state <= SEnt && u_dut.u_seq.kind_q <= KEcs);
      i_kinds: assert(!(u_dut.u_seq.kind_q inside {KInv, KChk, KCrt, KExp, KBlk, KSign, KEcc, KEcd, KEcs}));
      // ECDSA_SIGN's pass controls keep their defaults (only its programs change them)
      i_ecdsa: assert(u_dut.u_seq.zlim_q == '1 && !u_dut.u_seq.mz_q && !u_dut.u_seq.rmk_q);
      i_noret: assert(!u_dut.u_seq.ret_q);
      // kind_q's fault copy equals it; no wipe after a command (only RSA_CRT's blinded program sets wmid)
      i_kchk: assert(u_dut.u_seq.kindc_q == u_dut.u_seq.kind_q && u_dut.u_seq.rkindc_q == u_dut.u_seq.rkind_q
                     && u_dut.u_seq.engc_q == u_dut.u_seq.eng_q && u_dut.u_seq.erstc_q == u_dut.u_seq.erst_q
                     && u_dut.u_seq.cwordsc_q == u_dut.u_seq.cwords_q);
      i_nowmid: assert(!u_dut.u_seq.wmid_q);
      // no command in progress when idle, in the clear after reset or in a key clear
      if (v_state == SIdle || u_dut.u_seq.kind_q inside {KReset, KKeyClr}) i_inprog: assert(!u_dut.u_seq.inprog_q);
      // a command is decoded from KNop (SIdle sets it)
      if (v_state == SDecode) i_decode: assert(u_dut.u_seq.kind_q == 5'd1 && u_dut.u_seq.inprog_q
                                               && u_dut.u_seq.cwords_q == u_dut.u_seq.words_q
                                               && u_dut.u_seq.words_q == 8'((32'(u_dut.u_seq.len_q) + 31) >> 5));
      // no result copies (only RSA_CRT, MODEXP's check and ECC_MUL take them)
      i_rcp: assert(u_dut.u_seq.rcp_q == '0);
      i_noent: assert(v_state != SEnt && u_dut.u_seq.fn_q != FnRand && u_dut.u_seq.fn_q != FnMac
                      && u_dut.u_seq.fn_q != FnLd);
      if (seq_busy && u_dut.u_seq.kind_q == KEng && v_state != SDecode)
        i_engkind: assert(u_dut.u_seq.eng_q == 3'(EngExample));
      if (seq_busy && u_dut.u_seq.kind_q inside {KAdd, KSub, KMont, KEng} && !(v_state inside {SDecode, SDone}))
        i_len: assert(u_dut.u_seq.len_q != 16'd0 && 32'(u_dut.u_seq.len_q) <= MaxLen
                      && u_dut.u_seq.cwords_q == u_dut.u_seq.words_q
                      && u_dut.u_seq.words_q == 8'((32'(u_dut.u_seq.len_q) + 31) >> 5));
      if (u_dut.u_seq.eused_q) i_eused: assert(u_dut.u_seq.eng_q == 3'(EngExample));
    end
  end
`endif

`ifdef PKA_FORMAL_AXI
  // ---- property 1: the AXI4-Lite slave ---------------------------------------------------------
  logic [7:0] f_wait;                 // cycles with something outstanding and no response handshake
  always_ff @(posedge clk_i) begin
    if (!rst_ni) f_wait <= '0;
    else f_wait <= (f_out && !b_hs && !r_hs) ? f_wait + 8'd1 : '0;
  end

  always @* begin
    if (!f_init) begin
      // no response without a request (a duplicated or spurious response would need one)
      if (bvalid) a_b_has_req: assert(f_wout);
      if (rvalid) a_r_has_req: assert(f_nar != 3'd0);
      // at most one response at a time on the shared buffer, and the counts stay small
      a_not_both: assert(!(bvalid && rvalid));
      a_naw_small: assert(f_naw <= 3'd3 && f_nw <= 3'd3 && f_nar <= 3'd3);
      a_aw_w_skew: assert(f_naw <= f_nw + 3'd1 && f_nw <= f_naw + 3'd1);
    end
  end
`ifdef PKA_FORMAL_AXI_LIVE
  int unsigned f_zm_left;                // slots the key clear has still to zero
  always @* begin
    f_zm_left = 0;
    for (int i = 0; i < 32; i++) f_zm_left += 32'(u_dut.u_seq.zm_q[i]);
  end
  // no request lost: while anything is outstanding, a response handshake within RespBound cycles
  // (at most 4 requests are outstanding, so each is answered within 4 RespBound cycles). The only
  // long wait is a modulus write while a key is bound: it is held until the sequencer has cleared
  // the key (KKeyClr); the invariants below describe that program for the induction.
  always @* begin
    if (!f_init) begin
      a_progress: assert(32'(f_wait) < RespBound);
      if (u_dut.pend_q) begin
        i_pend_seq: assert(!u_dut.busy || (u_dut.u_seq.kind_q == KKeyClr
                           && (u_dut.u_seq.state_q == SNext || u_dut.u_seq.state_q == SPass)));
        i_pend_abort: assert(!u_dut.hwif_out.CTRL.ABORT.value);
        i_pend_mslot: assert(u_dut.pslot_q inside {5'(SLOT_N), 5'(SLOT_P), 5'(SLOT_Q)});
      end
      // the key clear's remaining cycles (3 a slot left, the rest of the pass, the last step) bound
      // the wait: what makes a_progress inductive
      if (u_dut.pend_q) i_pend_rank: assert(32'(f_wait) + 3 * f_zm_left
          + ((u_dut.u_seq.state_q == SPass) ? 2 - 32'(u_dut.u_seq.pidx_q) : 0) + (u_dut.busy ? 1 : 0)
          <= RespBound - 4);
      if (u_dut.busy && u_dut.u_seq.kind_q == KKeyClr) begin
        i_kc_pend: assert(u_dut.pend_q);
        i_kc_zm: assert((u_dut.u_seq.zm_q & ~u_dut.u_seq.SecretBus & ~pka_top_pkg::KeyConstMask) == '0);
        if (u_dut.u_seq.state_q == SPass)
          i_kc_pass: assert(u_dut.u_seq.fn_q == FnClr && u_dut.u_seq.pwords_q == 7'd2
                            && u_dut.u_seq.pidx_q < 7'd2 && u_dut.u_seq.pph_q == 2'd0);
      end
    end
  end
`endif
  always_ff @(posedge clk_i) begin
    if (f_past && rst_ni && $past(rst_ni)) begin
      if ($past(bvalid && !bready)) a_b_stable: assert(bvalid && bresp == $past(bresp));
      if ($past(rvalid && !rready)) a_r_stable: assert(rvalid && rdata == $past(rdata) && rresp == $past(rresp));
    end
  end

  // invariants that make the properties above inductive: the slave's state matches the counts
  logic [1:0] f_occ;                   // responses in the slave's buffer
  logic       f_e0_wr, f_e1_wr;        // the oldest / next buffered response is a write response
  logic [1:0] f_buf_w, f_buf_r;        // write / read responses in the buffer
  always @* begin
    f_occ   = u_dut.u_regs.axil_resp_wptr - u_dut.u_regs.axil_resp_rptr;
    f_e0_wr = u_dut.u_regs.axil_resp_buffer_is_wr[u_dut.u_regs.axil_resp_rptr[0]];
    f_e1_wr = u_dut.u_regs.axil_resp_buffer_is_wr[!u_dut.u_regs.axil_resp_rptr[0]];
    f_buf_w = 2'((f_occ >= 2'd1) && f_e0_wr) + 2'((f_occ >= 2'd2) && f_e1_wr);
    f_buf_r = f_occ - f_buf_w;
`ifndef PKA_FORMAL_NO_INV
    if (!f_init) begin
      i_occ: assert(f_occ <= 2'd2);
      i_ext: assert(u_dut.u_regs.external_pending == (u_dut.bus_rd_ack_q || u_dut.pend_q));
      i_ext1: assert(!(u_dut.bus_rd_ack_q && u_dut.pend_q));
      i_ram: assert(!u_dut.bus_ram_q || u_dut.bus_rd_ack_q);
      i_inflight: assert(u_dut.u_regs.axil_n_in_flight == f_occ + 2'(u_dut.u_regs.external_pending));
      i_naw: assert(f_naw == 3'(u_dut.u_regs.axil_awvalid) + 3'(u_dut.pend_q) + 3'(f_buf_w));
      i_nw:  assert(f_nw == 3'(u_dut.u_regs.axil_wvalid) + 3'(u_dut.pend_q) + 3'(f_buf_w));
      i_nar: assert(f_nar == 3'(u_dut.u_regs.axil_arvalid) + 3'(u_dut.bus_rd_ack_q) + 3'(f_buf_r));
    end
`endif
  end
`endif

`ifdef PKA_FORMAL_SECRET
  // ---- property 2: secret and tainted slots read 0 --------------------------------------------
  // A FIFO of the outstanding reads in AR order (AXI4-Lite answers reads in order): the slot of the
  // address and whether the slot was tainted / the block busy in every cycle since the AR handshake.
  localparam int unsigned FifoD = 4;
  logic [FifoD-1:0]      q_win, q_sec, q_tnt, q_bsy;
  logic [FifoD-1:0][4:0] q_slot;
  logic [2:0]            q_n;

  function automatic logic in_window(logic [16:0] a);
    return a >= 17'h1000 && a < 17'h1000 + 17'(NumSlots) * 17'h1000;
  endfunction
  function automatic logic [4:0] slot_of(logic [16:0] a);
    return 5'(a[16:12] - 5'd1);
  endfunction
  logic [NumSlots-1:0] f_secret_mask, f_taint;
  always @* begin
    f_secret_mask = SecretSlotMask;
`ifdef PKA_FORMAL_BUG_SECRET
    f_secret_mask[SLOT_A] = 1'b1;      // mutant: a readable slot checked as secret
`endif
    f_taint = u_dut.u_seq.taint_o;
`ifdef PKA_FORMAL_BUG_TAINT
    f_taint[SLOT_R] = 1'b1;            // mutant: R checked as tainted whenever it is readable
`endif
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      q_n <= '0; q_win <= '0; q_sec <= '0; q_tnt <= '0; q_bsy <= '0; q_slot <= '0;
    end else begin
      logic [FifoD-1:0]      win, sec, tnt, bsy;
      logic [FifoD-1:0][4:0] slot;
      logic [2:0]            n;
      win = q_win; sec = q_sec; tnt = q_tnt; bsy = q_bsy; slot = q_slot; n = q_n;
      // the flags hold only while the condition holds in every cycle
      for (int i = 0; i < FifoD; i++) begin
        tnt[i] = tnt[i] && f_taint[slot[i]];
        bsy[i] = bsy[i] && seq_busy;
      end
      if (r_hs && n != 3'd0) begin
        for (int i = 0; i < FifoD - 1; i++) begin
          win[i] = win[i + 1]; sec[i] = sec[i + 1]; tnt[i] = tnt[i + 1]; bsy[i] = bsy[i + 1];
          slot[i] = slot[i + 1];
        end
        n = n - 3'd1;
      end
      if (ar_hs && n < 3'(FifoD)) begin
        win[n]  = in_window(araddr);
        slot[n] = slot_of(araddr);
        sec[n]  = in_window(araddr) && f_secret_mask[slot_of(araddr)];
        tnt[n]  = in_window(araddr) && f_taint[slot_of(araddr)];
        bsy[n]  = in_window(araddr) && seq_busy;
        n = n + 3'd1;
      end
      q_win <= win; q_sec <= sec; q_tnt <= tnt; q_bsy <= bsy; q_slot <= slot; q_n <= n;
    end
  end

  logic q_tnt_now, q_bsy_now;          // the head's flags including this cycle
  assign q_tnt_now = q_tnt[0] && f_taint[q_slot[0]];
  assign q_bsy_now = q_bsy[0] && seq_busy;
  always @* begin
    if (!f_init) begin
      a_fifo: assert(q_n <= 3'(FifoD) && (!rvalid || q_n != 3'd0));
      if (rvalid && q_sec[0]) a_secret_reads_0: assert(rdata == 32'd0);
      if (rvalid && q_tnt_now) a_tainted_reads_0: assert(rdata == 32'd0);
      if (rvalid && q_bsy_now) a_busy_reads_0: assert(rdata == 32'd0);
    end
  end

`ifdef PKA_FORMAL_AXI
`ifndef PKA_FORMAL_NO_INV
  // invariants for the induction: the FIFO holds the reads the slave holds, in its order (the
  // buffered read responses first, then the external read waiting for its data, then the AR not yet
  // dispatched), and what the slave holds for a flagged read is 0 or will be
  logic [1:0] j_pend, j_ar, j_e1;
  logic [4:0] ar_slot;
  always @* begin
    j_e1   = (f_occ >= 2'd1 && !f_e0_wr) ? 2'd1 : 2'd0;      // FIFO index of buffer entry 1
    j_pend = f_buf_r;                                       // of the external read in progress
    j_ar   = f_buf_r + 2'(u_dut.bus_rd_ack_q);              // of the AR held by the slave
    ar_slot = slot_of(u_dut.u_regs.axil_araddr);
    if (!f_init) begin
      i_q_n: assert(q_n == f_nar);
      for (int i = 0; i < FifoD; i++) begin
        assert((!q_sec[i] && !q_tnt[i] && !q_bsy[i]) || q_win[i]);
        assert(!q_win[i] || q_slot[i] < 5'(NumSlots));
        assert(q_sec[i] == (q_win[i] && f_secret_mask[q_slot[i]]));
      end
      if (f_occ >= 2'd1 && !f_e0_wr && (q_sec[0] || q_tnt[0] || q_bsy[0]))
        i_buf0: assert(u_dut.u_regs.axil_resp_buffer_rdata[u_dut.u_regs.axil_resp_rptr[0]] == 32'd0);
      if (f_occ == 2'd2 && !f_e1_wr && (q_sec[j_e1] || q_tnt[j_e1] || q_bsy[j_e1]))
        i_buf1: assert(u_dut.u_regs.axil_resp_buffer_rdata[!u_dut.u_regs.axil_resp_rptr[0]] == 32'd0);
      if (u_dut.bus_rd_ack_q) begin
        i_pend_sec: assert(!q_sec[j_pend] && q_win[j_pend]);
        if (q_tnt[j_pend] || q_bsy[j_pend]) i_pend_ram: assert(!u_dut.bus_ram_q);
        i_pend_slot: assert(q_slot[j_pend] == slot_of(u_dut.u_regs.pending_rd_addr)
                            && in_window(u_dut.u_regs.pending_rd_addr));
      end
      if (u_dut.u_regs.axil_arvalid) begin
        i_ar_addr: assert(q_win[j_ar] == in_window(u_dut.u_regs.axil_araddr)
                          && (!q_win[j_ar] || q_slot[j_ar] == ar_slot)
                          && q_sec[j_ar] == (in_window(u_dut.u_regs.axil_araddr) && f_secret_mask[ar_slot]));
      end
    end
  end
`endif
`endif
`endif

`ifdef PKA_FORMAL_BUSY
  // ---- property 3: a command while busy is rejected and changes nothing ------------------------
  logic f_intr_wr;                    // a host write of INTR_STATE in this cycle
  assign f_intr_wr = u_dut.u_regs.decoded_reg_strb.INTR_STATE && u_dut.u_regs.decoded_req_is_wr;
  logic f_intr_clr_rej;               // ... that writes 1 to REJECT (clears it)
  assign f_intr_clr_rej = f_intr_wr && u_dut.u_regs.decoded_wr_data[1] && u_dut.u_regs.decoded_wr_biten[1];
  // the command as the sequencer accepted it (CMD written while idle)
  logic [7:0]  c_op;
  logic [15:0] c_len, c_elen;
  logic [31:0] c_arg;
  logic        c_valid;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) c_valid <= 1'b0;
    else if (seq_accept) begin
      c_valid <= 1'b1;
      c_op <= u_dut.u_seq.op_i; c_len <= u_dut.u_seq.len_i; c_elen <= u_dut.u_seq.elen_i;
      c_arg <= u_dut.u_seq.arg_i;
    end
  end
  // while a command runs (and after it), what it latched stays, whatever is written to CMD, LEN, ARG
  always @* begin
    if (!f_init && c_valid) begin
      a_op_kept:   assert(u_dut.u_seq.op_q == c_op && u_dut.last_op == c_op);
      a_len_kept:  assert(u_dut.u_seq.len_q == c_len && u_dut.u_seq.elen_q == c_elen);
      a_arg_kept:  assert(u_dut.u_seq.arg_q == c_arg);
    end
  end
  always_ff @(posedge clk_i) begin
    if (f_past && rst_ni && $past(rst_ni)) begin
      // a CMD write that reaches a busy sequencer: rejected and flagged
      // (whatever the host writes to INTR_STATE in that cycle: the hardware set has precedence;
      // formal finding 1, fixed)
      if ($past(seq_start && seq_busy)) begin
        a_reject_intr: assert(u_dut.hwif_out.INTR_STATE.REJECT.value);
        a_reject_status: assert(u_dut.hwif_in.STATUS.REJECT.next == 8'(ST_ERR_BUSY));
      end
      // a CMD write is either taken or rejected: a modulus write that starts a key clear in the cycle
      // the CMD write reaches the idle sequencer rejects it (formal finding 2, fixed)
      if ($past(seq_start)) a_cmd_taken_or_rejected: assert($past(u_dut.u_seq.reject_o) || $past(seq_accept));
      if ($past(seq_start && u_dut.u_seq.reject_o)) a_reject_intr_any: assert(u_dut.hwif_out.INTR_STATE.REJECT.value);
      if ($past(seq_start && seq_busy)) a_no_restart: assert(u_dut.u_seq.state_q != SDecode);
    end
  end
`endif

`ifdef PKA_FORMAL_MITER
  // ---- property 3, non-interference: a second sequencer (u_ref) gets every input of u_dut.u_seq,
  // but a CMD write only when the block is idle. Every output but reject_o and every register must
  // stay equal: a CMD write while busy changes nothing in the sequencer (k-induction). The register
  // list pka_formal_seq_eq.svh is generated from pka_top_seq.sv's always_ff blocks by formal/run.py.
  // u_ref's parameters are pka_top's for this build (MaxLen 64, only the example engine, id 7).
  logic                        r_edn_req, r_busy, r_done, r_reject, r_fin, r_bound, r_own, r_erst;
  logic                        r_mreq, r_mwe;
  logic [7:0]                  r_code, r_last_op;
  logic [31:0]                 r_cycles, r_compute, r_io, r_mwdata;
  logic [63:0]                 r_mu;
  logic [NumSlots-1:0]         r_taint;
  logic [NumEng-1:0]           r_ecmd_valid;
  eng_cmd_t                    r_ecmd;
  logic [2:0]                  r_eng_sel;
  pka_top_pkg::pslot_t [15:0]  r_map;
  logic [5:0]                  r_maddr;
  pka_top_seq #(
    .MaxLen(MaxLen), .SlotAw(1), .EngMask(8'h80), .MontK(0), .RnsW(0), .CrtBlind(1'b0), .EccBlind(1'b0),
    .EnResultCheck(1'b1), .TestExposeInternals(1'b0)
  ) u_ref (
    .clk_i, .rst_ni,
    // (inputs from pka_top's nets that drive u_dut.u_seq's ports)
    .start_i(u_dut.cmd_written_q && !u_dut.busy),
    .op_i(u_dut.hwif_out.CMD.OP.value), .eng_i(u_dut.hwif_out.CMD.ENGINE.value),
    .len_i(u_dut.hwif_out.LEN.LEN.value), .elen_i(u_dut.hwif_out.LEN.ELEN.value),
    .arg_i(u_dut.hwif_out.ARG.ARG.value), .abort_i(u_dut.hwif_out.CTRL.ABORT.value),
    .blind_off_i(u_dut.hwif_out.CFG.BLIND_OFF.value), .edn_req_o(r_edn_req), .edn_ack_i(edn_ack),
    .edn_data_i(edn_data), .bw_valid_i(u_dut.bw_valid), .bw_slot_i(u_dut.bw_slot),
    .keyclr_i(u_dut.keyclr), .busy_o(r_busy), .done_o(r_done), .reject_o(r_reject),
    .finished_o(r_fin), .code_o(r_code), .last_op_o(r_last_op), .cycles_o(r_cycles), .compute_o(r_compute),
    .io_o(r_io), .mu_o(r_mu), .bound_o(r_bound), .taint_o(r_taint), .ecmd_valid_o(r_ecmd_valid),
    .ecmd_ready_i(u_dut.ecmd_ready), .ecmd_o(r_ecmd), .eres_i(u_dut.eres),
    .eng_own_o(r_own), .eng_sel_o(r_eng_sel), .map_o(r_map), .eng_rst_o(r_erst),
    .acc_req_i(u_dut.ram_req && u_dut.busy), .acc_we_i(u_dut.ram_we),
    .acc_slot_i(pka_top_pkg::pslot_t'(u_dut.ram_addr[5:1])),
    .mem_req_o(r_mreq), .mem_we_o(r_mwe), .mem_addr_o(r_maddr), .mem_wdata_o(r_mwdata),
    .mem_rdata_i(u_dut.ram_rdata));

`define PKA_EQ(R) if (f_init) assume(u_ref.R == u_dut.u_seq.R); else assert(u_ref.R == u_dut.u_seq.R);
  always @* begin
`include "pka_formal_seq_eq.svh"
    if (!f_init) begin
      a_mi_outputs: assert(r_edn_req == u_dut.u_seq.edn_req_o && r_busy == u_dut.u_seq.busy_o
                           && r_done == u_dut.u_seq.done_o && r_fin == u_dut.u_seq.finished_o
                           && r_code == u_dut.u_seq.code_o && r_last_op == u_dut.u_seq.last_op_o
                           && r_cycles == u_dut.u_seq.cycles_o && r_compute == u_dut.u_seq.compute_o
                           && r_io == u_dut.u_seq.io_o && r_mu == u_dut.u_seq.mu_o
                           && r_bound == u_dut.u_seq.bound_o && r_taint == u_dut.u_seq.taint_o);
      a_mi_engine: assert(r_ecmd_valid == u_dut.u_seq.ecmd_valid_o && r_ecmd == u_dut.u_seq.ecmd_o
                          && r_own == u_dut.u_seq.eng_own_o && r_eng_sel == u_dut.u_seq.eng_sel_o
                          && r_map == u_dut.u_seq.map_o && r_erst == u_dut.u_seq.eng_rst_o);
      // (the RAM port's address and data count only with a request, the data only with a write)
      a_mi_mem: assert(r_mreq == u_dut.u_seq.mem_req_o && r_mwe == u_dut.u_seq.mem_we_o
                       && (!r_mreq || r_maddr == u_dut.u_seq.mem_addr_o)
                       && (!(r_mreq && r_mwe) || r_mwdata == u_dut.u_seq.mem_wdata_o));
    end
  end
`undef PKA_EQ
`endif

`ifdef PKA_FORMAL_LIVE
  // ---- property 4: every command ends in done with a status within a bound --------------------
  // With the abstract engine (done within DoneWithin = K cycles of its accept) and W <= 2 words,
  // M = 64 RAM words, the sequencer's programs take at most (formal/README.md derives them):
  //   MONT_PARAMS        BoundMont  (639 doublings of 3W + 1 cycles dominate)
  //   ZEROIZE            BoundZero  (M words, then the wipe of the one engine)
  //   anything else      BoundOther (an engine command, the clean-up of 16 slots, the wipe)
  //   an ABORT adds      BoundAbort (engine reset, M words, the wipe) counted from the abort
  localparam int unsigned BoundMont  = 4700;
  localparam int unsigned BoundZero  = 90;
  localparam int unsigned BoundOther = 72;
  localparam int unsigned BoundAbort = 90;
  localparam int unsigned EngWait    = 4;    // the abstract engine's DoneWithin
  logic        f_cmd, f_ab;
  logic [15:0] f_cnt, f_acnt, f_bcnt;
  logic [7:0]  f_op;
  logic [3:0]  f_eng;
  logic [7:0]  f_wcnt;                      // cycles in SEngWait
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      f_cmd <= 1'b0; f_ab <= 1'b0; f_cnt <= '0; f_acnt <= '0; f_bcnt <= '0; f_wcnt <= '0;
    end else begin
      f_bcnt <= seq_busy ? f_bcnt + 16'd1 : '0;
      f_wcnt <= (u_dut.u_seq.state_q == SEngWait) ? f_wcnt + 8'd1 : '0;
      if (seq_accept) begin
        f_cmd <= 1'b1; f_ab <= 1'b0; f_cnt <= '0; f_acnt <= '0;
        f_op <= u_dut.u_seq.op_i; f_eng <= u_dut.u_seq.eng_i;
      end else if (seq_done) begin
        f_cmd <= 1'b0;
      end else if (f_cmd) begin
        f_cnt <= f_cnt + 16'd1;
        if (u_dut.hwif_out.CTRL.ABORT.value) begin
          f_ab <= 1'b1; f_acnt <= '0;
        end else f_acnt <= f_acnt + 16'd1;
      end
    end
  end
  // (no environment restriction on CTRL.ABORT: an ABORT in the cycle of a done pulse is ignored, the
  // command has ended; formal finding 3, fixed)
  int unsigned f_bound;
  always @* begin
    f_bound = (f_op == 8'(OP_MONT_PARAMS) && f_eng == 4'd0) ? BoundMont
            : (f_op == 8'(OP_ZEROIZE) && f_eng == 4'd0) ? BoundZero : BoundOther;
    if (!f_init) begin
      // a done pulse ends an accepted command, never anything else
      if (seq_done) a_done_has_cmd: assert(f_cmd);
      // an accepted command runs until its done
      if (f_cmd) a_cmd_busy: assert(seq_busy);
      // ... within its bound (after an abort: within BoundAbort of the abort)
      if (f_cmd && !f_ab) a_cmd_bound: assert(32'(f_cnt) < f_bound);
      if (f_cmd && f_ab)  a_abort_bound: assert(32'(f_acnt) < BoundAbort);
      // busy never lasts longer than the longest command (the clear after reset, a key clear)
      a_busy_bound: assert(32'(f_bcnt) < BoundMont + BoundAbort);
      // a local bound: the engine's done comes within EngWait cycles
      a_eng_wait: assert(32'(f_wcnt) <= EngWait);
    end
  end
  always_ff @(posedge clk_i) begin
    if (f_past && rst_ni && $past(rst_ni)) begin
      if ($past(seq_done)) a_busy_falls: assert(!seq_busy);
    end
  end
`endif

`ifdef PKA_FORMAL_LIVE_LOCAL
  // ---- property 4, unbounded: every phase of the sequencer ends within its bound ----------------
  // (k-induction; formal/README.md composes the phases into the commands' bounds)
  //   a word-serial pass: (nsrc + 1) cycles a word, at most pwords <= M words
  //   the engine: the command is taken at once, done within EngWait cycles
  //   the Hensel lifting (SMu): 63 cycles; the engine reset hold (SRst): 4 cycles
  localparam int unsigned EngWaitL = 4;    // the abstract engine's DoneWithin
  logic [8:0] l_pcnt;                      // cycles in the current pass
  logic [7:0] l_wcnt, l_mcnt, l_rcnt, l_ccnt;
  logic [3:0] l_state;
  assign l_state = u_dut.u_seq.state_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      l_pcnt <= '0; l_wcnt <= '0; l_mcnt <= '0; l_rcnt <= '0; l_ccnt <= '0;
    end else begin
      l_pcnt <= (l_state == SPass) ? l_pcnt + 9'd1 : '0;
      l_wcnt <= (l_state == SEngWait) ? l_wcnt + 8'd1 : '0;
      l_ccnt <= (l_state == SEngCmd) ? l_ccnt + 8'd1 : '0;
      l_mcnt <= (l_state == SMu) ? l_mcnt + 8'd1 : '0;
      l_rcnt <= (l_state == SRst) ? l_rcnt + 8'd1 : '0;
    end
  end
  logic       f_eng_busy;                  // the abstract engine holds a command
  logic [7:0] f_eng_cnt;                   // its cycles since the accept
  assign f_eng_busy = u_dut.gen_eng[7].gen_example.u_core.busy_q;
  assign f_eng_cnt  = u_dut.gen_eng[7].gen_example.u_core.cnt_q;
  logic [2:0] l_nph;                       // cycles a word of this pass: nsrc + 1
  assign l_nph = 3'(u_dut.u_seq.nsrc) + 3'd1;
  always @* begin
    if (!f_init) begin
      // the bounds (each counter holds the length of its phase's last visit: cycles in a row)
      a_pass_bound: assert(32'(l_pcnt) <= 4 * 64);
      a_engcmd_bound: assert(l_ccnt <= 8'd1);
      a_engwait_bound: assert(32'(l_wcnt) <= EngWaitL);
      a_mu_bound: assert(l_mcnt <= 8'd63);
      a_rst_bound: assert(l_rcnt <= 8'd8);
      // what makes them inductive: the programs this build can run, the pass counters, the engine
      if (l_state == SPass) begin
        i_pidx: assert(u_dut.u_seq.pidx_q < u_dut.u_seq.pwords_q && 32'(u_dut.u_seq.pwords_q) <= 64);
        i_pph: assert(u_dut.u_seq.pph_q <= u_dut.u_seq.nsrc);
        i_pcnt: assert(32'(l_pcnt) == 32'(u_dut.u_seq.pidx_q) * 32'(l_nph) + 32'(u_dut.u_seq.pph_q));
      end
      if (l_state == SMu) i_mu: assert(32'(l_mcnt) + 1 == 32'(u_dut.u_seq.mi_q));
      // (an ABORT during the hold after a timeout starts the hold again: at most 4 + 4 cycles)
      if (l_state == SRst) begin
        i_rst: assert(u_dut.u_seq.rcnt_q != 3'd0 && u_dut.u_seq.rcnt_q <= 3'd4);
        if (u_dut.u_seq.kind_q != KAbort) i_rst_t: assert(32'(l_rcnt) + 32'(u_dut.u_seq.rcnt_q) == 4);
        else i_rst_a: assert(32'(l_rcnt) + 32'(u_dut.u_seq.rcnt_q) <= 8);
      end
      if (l_state == SEngWait) i_eng: assert(f_eng_busy && 32'(f_eng_cnt) == 32'(l_wcnt));
      if (l_state == SEngCmd) i_engidle: assert(!f_eng_busy);
      if (l_state == SEngCmd || l_state == SEngWait) i_engid: assert(u_dut.u_seq.eng_q == 3'(EngExample));
      if (f_eng_busy) i_engbusy: assert(l_state == SEngWait || (l_state == SRst && l_rcnt == 8'd0));
    end
  end
`endif

`ifdef PKA_FORMAL_COVER
  // ---- reachability (cover mode): the environment allows what the properties talk about ---------
  logic f_was_pend;                     // a modulus write was held for a key clear
  always_ff @(posedge clk_i) begin
    if (!rst_ni) f_was_pend <= 1'b0;
    else if (u_dut.pend_q) f_was_pend <= 1'b1;
  end
  always @* begin
    if (!f_init) begin
      c_engine_done: cover(seq_done && u_dut.u_seq.eused_q);                  // an engine command ends
      c_reject: cover(seq_start && seq_busy && !f_init);                      // a CMD while busy
      c_taint: cover(u_dut.u_seq.taint_o != '0);                              // a slot is tainted
      c_keyclr: cover(u_dut.pend_q && u_dut.busy);                            // a held modulus write
      c_b_after_keyclr: cover(b_hs && f_was_pend);                            // ... answered
      c_read_nonzero: cover(r_hs && rdata != 32'd0 && !seq_busy);            // a read returns data
    end
  end
`endif

  logic unused;
  assign unused = ^{irq, edn_req, f_out, seq_start, seq_done};
endmodule
