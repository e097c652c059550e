// SPDX-License-Identifier: Apache-2.0
// pka_hscm_prog_eq_tb: pka_hscm_prog (the exponent in a memory, read a word at a time) against
// pka_hscm_prog_ref (the exponent in a shift register, the unit before), cycle for cycle.
// Random episodes as the core drives the unit: sometimes a wipe, then clear, n <= EBits/32 words
// pushed (least significant first, random gaps, random/zero/all-ones words, leading zeros),
// alignment (elen in 32n-31 .. 32n, eload = 32n; norm for EXP; k 1..MaxWindow), a program of a
// random mode with random takes.  Every cycle: align_done, both descriptors, and the decoded digit
// registers, the remaining bit count, the program state and the top 8 exponent bits must agree;
// a difference ends the run with $fatal (non-zero exit).  Defines: EBITS, MAXWINDOW, EPISODES; +seed=N.
`default_nettype none
module pka_hscm_prog_eq_tb;
  import pka_hscm_pkg::*;
  localparam int unsigned EBits = `EBITS;
  localparam int unsigned MaxWindow = `MAXWINDOW;
  localparam int unsigned EW = EBits / 32;
  logic clk = 0, rst_n = 0;
  logic wipe, clr, push, al, norm, init, take;
  logic [31:0] word;
  logic [15:0] elen, eload;
  logic [3:0] k, mode;
  logic adone_r, adone_n;
  desc_t d_r, d1_r, d_n, d1_n;
  int unsigned seed;
  longint cycles = 0, checks = 0, episodes = 0, dones = 0;

  pka_hscm_prog_ref #(.EBits(EBits), .MaxWindow(MaxWindow)) u_ref (
    .clk_i(clk), .rst_ni(rst_n), .wipe_i(wipe), .e_clear_i(clr), .e_push_i(push), .e_word_i(word),
    .align_start_i(al), .elen_i(elen), .eload_i(eload), .norm_i(norm), .k_i(k),
    .align_done_o(adone_r), .init_i(init), .mode_i(mode), .desc_o(d_r), .desc1_o(d1_r), .take_i(take));
  pka_hscm_prog #(.EBits(EBits), .MaxWindow(MaxWindow)) u_new (
    .clk_i(clk), .rst_ni(rst_n), .wipe_i(wipe), .e_clear_i(clr), .e_push_i(push), .e_word_i(word),
    .align_start_i(al), .elen_i(elen), .eload_i(eload), .norm_i(norm), .k_i(k),
    .align_done_o(adone_n), .init_i(init), .mode_i(mode), .desc_o(d_n), .desc1_o(d1_n), .take_i(take));

  always #5 clk = ~clk;

  // every cycle: the outputs and the decoded digit registers agree
  always @(negedge clk) if (rst_n) begin
    cycles++;
    if (adone_r !== adone_n || d_r !== d_n || d1_r !== d1_n) begin
      $display("MISMATCH at %0d: adone %b/%b d %h/%h d1 %h/%h", cycles, adone_r, adone_n, d_r, d_n, d1_r, d1_n);
      $fatal(1, "outputs differ");
    end
    if (u_ref.dig_q !== u_new.dig_q || u_ref.tz_q !== u_new.tz_q || u_ref.odd_q !== u_new.odd_q
        || u_ref.rem_q !== u_new.rem_q || u_ref.st_q !== u_new.st_q) begin
      $display("INTERNAL MISMATCH at %0d: dig %h/%h tz %h/%h odd %h/%h top %b/%b", cycles,
               u_ref.dig_q, u_new.dig_q, u_ref.tz_q, u_new.tz_q, u_ref.odd_q, u_new.odd_q,
               u_ref.e_q[EBits-1], u_new.etop);
      $fatal(1, "internal state differs");
    end
    if (u_ref.e_q[EBits-1 -: 8] !== u_new.top8 ) begin
      $display("TOP8 MISMATCH at %0d: %h/%h", cycles, u_ref.e_q[EBits-1 -: 8], u_new.top8);
      $fatal(1, "top8 differs");
    end
    checks++;
  end

  task automatic idle();
    wipe = 0; clr = 0; push = 0; al = 0; init = 0; take = 0;
  endtask

  task automatic step(int n = 1);
    repeat (n) @(posedge clk);
    #1;
  endtask

  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    void'($urandom(seed));
    idle(); word = 0; elen = 0; eload = 0; norm = 0; k = 1; mode = 0;
    step(3);
    rst_n = 1;
    step(2);
    for (int ep = 0; ep < `EPISODES; ep++) begin
      int n, words, lz, timeout;
      logic [3:0] m;
      episodes++;
      if ($urandom_range(9) == 0) begin   // a wipe of EW+ cycles
        wipe = 1; step($urandom_range(EW + 8, 1)); idle();
        step(1);
      end
      // load: clear, n words (least significant first), random gaps
      n = $urandom_range(EW, 0);
      lz = $urandom_range(3) == 0 ? $urandom_range(n * 32, 0) : 0;   // leading zero bits
      clr = 1; step(1); idle(); step($urandom_range(2));
      for (int i = 0; i < n; i++) begin
        logic [31:0] w;
        w = $urandom;
        if ($urandom_range(5) == 0) w = 0;
        if ($urandom_range(5) == 0) w = '1;
        for (int b = 0; b < 32; b++) if (32 * i + b >= 32 * n - lz) w[b] = 1'b0;
        word = w; push = 1; step(1); idle(); word = $urandom;
        step($urandom_range(3, 1));
      end
      m = 4'($urandom_range(8));
      eload = 16'(32 * n);
      elen = (n == 0) ? 16'd0 : 16'(32 * (n - 1) + $urandom_range(32, 1));
      // the core: eload = 32 ceil(elen / 32)
      norm = (m == 4'd6);
      k = 4'($urandom_range(MaxWindow, 1));
      if (m == 4'd7 && elen < 16'(k)) elen = (n == 0) ? 16'd0 : 16'(k);  // CRT: elen >= k
      if (m == 4'd7 && n == 0) m = 4'd6;
      al = 1; step(1); idle();
      timeout = 0;
      while (!adone_r && timeout < 100000) begin step(1); timeout++; end
      if (!adone_r) $fatal(1, "no align done");
      step($urandom_range(3, 1));
      mode = m; init = 1; step(1); idle();
      // run the program: takes at random, until the last descriptor is taken or long enough
      timeout = 0;
      while (timeout < 20 * EBits + 200) begin
        logic last, t;
        last = d_r.last;
        t = $urandom_range(2) == 0;
        take = t;
        step(1);
        take = 0;
        timeout++;
        if (last && t) break;
      end
      idle();
      step($urandom_range(4));
    end
    $display("OK: %0d episodes, %0d cycles checked", episodes, checks);
    $finish;
  end
endmodule
