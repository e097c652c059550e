// SPDX-License-Identifier: Apache-2.0
// pka_hscm_fifo: the feedback path of a PE ring (Figure 1's FIFO): a fall-through FIFO that holds
// the stream leaving the ring's last PE until the first PE is free for the next round.
//
// When empty, the head is the input itself (no added latency: a ring of L PEs has a round trip
// of 2L cycles when e <= 2L); otherwise the oldest word.  The consumer pops one word per cycle
// while its stage 1 runs.  Occupancy never exceeds e words (a round delivers e words every
// max(e, 2L) cycles and the first PE takes e words in e cycles), so Depth = e_max suffices.
`default_nettype none

module pka_hscm_fifo #(
  parameter int unsigned Width = 16,  // bits of one stream word (data and side information)
  parameter int unsigned Depth = 8    // entries, >= e_max
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             flush_i,   // empty the FIFO (between operations)
  input  logic             wr_valid_i,
  input  logic [Width-1:0] wr_data_i,
  output logic             rd_valid_o,
  output logic [Width-1:0] rd_data_o,
  input  logic             rd_pop_i
);
  localparam int unsigned Aw = (Depth > 1) ? $clog2(Depth) : 1;

  logic [Width-1:0] mem_q [Depth];
  logic [Aw-1:0]    wp_q, wp_d, rp_q, rp_d;
  logic [Aw:0]      cnt_q, cnt_d;
  logic             push, pop_mem, empty;

  function automatic logic [Aw-1:0] inc(logic [Aw-1:0] p);
    return (32'(p) == Depth - 1) ? '0 : p + Aw'(1);
  endfunction

  always_comb begin
    empty      = cnt_q == '0;
    rd_valid_o = !empty || wr_valid_i;
    rd_data_o  = empty ? wr_data_i : mem_q[rp_q];
  end

  always_comb begin
    pop_mem    = rd_pop_i && !empty;
    push       = wr_valid_i && !(empty && rd_pop_i);   // bypass: straight through when empty
    wp_d  = push ? inc(wp_q) : wp_q;
    rp_d  = pop_mem ? inc(rp_q) : rp_q;
    cnt_d = cnt_q + (Aw+1)'(push) - (Aw+1)'(pop_mem);
    if (flush_i) begin
      wp_d  = '0;
      rp_d  = '0;
      cnt_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wp_q  <= '0;
      rp_q  <= '0;
      cnt_q <= '0;
    end else begin
      wp_q  <= wp_d;
      rp_q  <= rp_d;
      cnt_q <= cnt_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (push) mem_q[wp_q] <= wr_data_i;
  end
endmodule
