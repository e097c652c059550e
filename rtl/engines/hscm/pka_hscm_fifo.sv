// SPDX-License-Identifier: Apache-2.0
// pka_hscm_fifo: the feedback path of a PE ring (Figure 1's FIFO): a fall-through FIFO that holds
// the stream leaving the ring's last PE until the first PE is free for the next round.
//
// When empty, the head is the input itself (no added latency: a ring of L PEs has a round trip
// of 2L cycles when e <= 2L); otherwise the oldest word, which is always held in a head register
// (the storage behind it is read only into that register), so the consumer sees a register or
// the input, never the storage's read path.  The consumer pops one word per cycle while its
// stage 1 runs.  Occupancy never exceeds e words (a round delivers e words every max(e, 2L)
// cycles and the first PE takes e words in e cycles), so Depth = e_max suffices.
// wipe_i (OP_ZEROIZE, held for at least Depth cycles): zeros are written through the write port,
// one word per cycle, and the head register and pointers are held at 0.
// nxt_valid_o / nxt_data_o: the head register of the next cycle (valid: the next cycle's head is
// that register, not the input), for the ring's look-ahead of its last-iteration starts.
// The storage is read synchronously (a block RAM on an FPGA, not LUTs: a stream word is 6-7
// words wide): every cycle it reads the word the next cycle's read pointer names, so the oldest
// stored word is the RAM's output in every cycle; a word written in the cycle it is read (the
// queue behind the head was empty or held one word being popped) is taken from a bypass register.
`default_nettype none

module pka_hscm_fifo #(
  parameter int unsigned Width = 16,  // bits of one stream word (data and side information)
  parameter int unsigned Depth = 8    // entries, >= e_max
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             flush_i,   // empty the FIFO (between operations)
  input  logic             wipe_i,    // OP_ZEROIZE: zero one storage word per cycle (at wp,
                                      //   which steps round), head and pointers to 0
  input  logic             wr_valid_i,
  input  logic [Width-1:0] wr_data_i,
  output logic             rd_valid_o,
  output logic [Width-1:0] rd_data_o,
  input  logic             rd_pop_i,
  output logic             nxt_valid_o,
  output logic [Width-1:0] nxt_data_o
);
  localparam int unsigned Aw = (Depth > 1) ? $clog2(Depth) : 1;

  (* ram_style = "block", no_rw_check *) logic [Width-1:0] mem_q [Depth];
  logic [Width-1:0] rdq_q;           // the RAM's output: mem_q[rp_q] as read a cycle ago
  logic [Width-1:0] byd_q;           // bypass: the word written at rp_q in the previous cycle
  logic             byp_q;
  logic [Width-1:0] mh;              // the oldest stored word (valid when cnt_q != 0)
  logic [Width-1:0] hd_q, hd_d;      // head register: the oldest word when hv_q
  logic             hv_q, hv_d;
  logic [Aw-1:0]    wp_q, wp_d, rp_q, rp_d;
  logic [Aw:0]      cnt_q, cnt_d;    // words behind the head register (never without a head)
  logic             push, pop_mem, qempty;

  function automatic logic [Aw-1:0] inc(logic [Aw-1:0] p);
    return (32'(p) == Depth - 1) ? '0 : p + Aw'(1);
  endfunction

  always_comb begin
    qempty     = cnt_q == '0;
    mh         = byp_q ? byd_q : rdq_q;
    rd_valid_o = hv_q || wr_valid_i;
    rd_data_o  = hv_q ? hd_q : wr_data_i;
  end

  always_comb begin
    hv_d    = hv_q;
    hd_d    = hd_q;
    push    = 1'b0;
    pop_mem = 1'b0;
    if (hv_q) begin
      if (rd_pop_i) begin            // the head leaves: the next oldest word moves up
        if (!qempty) begin
          hd_d    = mh;
          pop_mem = 1'b1;
          push    = wr_valid_i;
        end else begin
          hv_d = wr_valid_i;
          hd_d = wr_data_i;
        end
      end else begin
        push = wr_valid_i;
      end
    end else if (!rd_pop_i) begin     // empty and not consumed: the input becomes the head
      hv_d = wr_valid_i;
      hd_d = wr_data_i;
    end
    wp_d  = push ? inc(wp_q) : wp_q;
    rp_d  = pop_mem ? inc(rp_q) : rp_q;
    cnt_d = cnt_q + (Aw+1)'(push) - (Aw+1)'(pop_mem);
    if (wipe_i) begin      // Depth cycles of wipe_i zero the whole storage
      hv_d  = 1'b0;
      hd_d  = '0;
      push  = 1'b0;
      wp_d  = inc(wp_q);
      rp_d  = '0;
      cnt_d = '0;
    end
    if (flush_i) begin
      hv_d  = 1'b0;
      wp_d  = '0;
      rp_d  = '0;
      cnt_d = '0;
    end
    nxt_valid_o = hv_d;
    nxt_data_o  = hd_d;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      byp_q <= 1'b0;
      hv_q  <= 1'b0;
      wp_q  <= '0;
      rp_q  <= '0;
      cnt_q <= '0;
    end else begin
      // the word written now is the one read next cycle (read-before-write: take the input)
      byp_q <= push && (wp_q == rp_d) && !wipe_i && !flush_i;
      hv_q  <= hv_d;
      wp_q  <= wp_d;
      rp_q  <= rp_d;
      cnt_q <= cnt_d;
    end
  end

  always_ff @(posedge clk_i) begin
    hd_q  <= hd_d;
    byd_q <= wipe_i ? '0 : wr_data_i;
  end

  // the storage's write and read ports in blocks of their own: a read of the word being written
  // is never used (byp_q), so the RAM needs no read-before-write logic of its own
  always_ff @(posedge clk_i) begin
    if (push || wipe_i) mem_q[wp_q] <= wipe_i ? '0 : wr_data_i;
  end

  always_ff @(posedge clk_i) begin
    rdq_q <= mem_q[rp_d];
  end
endmodule
