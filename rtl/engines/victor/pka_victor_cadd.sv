// SPDX-License-Identifier: Apache-2.0
// pka_victor_cadd: the core's shared wide adder, sum = x + y + cin (Width + 1 bits, the carry out
// on top), as a carry-select adder: segment 0 (the low Seg bits) is one carry chain; every further
// segment is computed twice in parallel, for a carry in of 0 and of 1, and the carry coming from
// below picks one (the segments' carries from a second, short carry chain, below). The longest
// carry chain is Seg bits instead of Width, for about one more chain per segment and a mux per bit.
// Same function, same cycle: the conversion, the checks, the division and the final subtraction
// keep their one cycle.
`default_nettype none

module pka_victor_cadd #(
  parameter int unsigned Width = 523,
  parameter int unsigned Seg   = 64     // bits per segment (the longest carry chain)
) (
  input  logic [Width-1:0] x_i,
  input  logic [Width-1:0] y_i,
  input  logic             cin_i,
  output logic [Width:0]   sum_o
);
  localparam int unsigned NSeg = (Seg == 0) ? 1 : (Width + Seg - 1) / Seg;   // (Seg = 0: the $fatal below)

  if (Seg == 0) begin : g_bad_seg
    $fatal(1, "Seg must be at least 1");
  end

  // c[i]: the carry into segment i (c[NSeg]: the carry out). Every segment but the first gives two
  // carry outs, g_i with a carry in of 0 and p_i with 1 (g_i implies p_i), and c_(i+1) = g_i | p_i c_i
  // is the carry of the sum G + P + c_1 (a = g, b = p: a b = g, a ^ b = p & ~g): a second, short
  // carry chain of NSeg - 1 bits instead of one LUT per segment in series
  logic [NSeg:0]   c;
  logic [NSeg-1:0] gs, ps;   // per segment: carry out with a carry in of 0 (g) and of 1 (p)
  assign c[0] = cin_i;

  for (genvar i = 0; i < NSeg; i++) begin : g_seg
    localparam int unsigned Lo = i * Seg;
    localparam int unsigned Bw = (Width - Lo < Seg) ? Width - Lo : Seg;
    if (i == 0) begin : g_first
      logic [Bw:0] s;
      assign s = {1'b0, x_i[Lo +: Bw]} + {1'b0, y_i[Lo +: Bw]} + {{Bw{1'b0}}, c[0]};
      assign sum_o[Lo +: Bw] = s[Bw-1:0];
      assign c[1] = s[Bw];
      assign gs[0] = 1'b0;
      assign ps[0] = 1'b0;
    end else begin : g_sel
      logic [Bw:0] s0, s1;
      assign s0 = {1'b0, x_i[Lo +: Bw]} + {1'b0, y_i[Lo +: Bw]};
      assign s1 = {1'b0, x_i[Lo +: Bw]} + {1'b0, y_i[Lo +: Bw]} + {{Bw{1'b0}}, 1'b1};
      assign sum_o[Lo +: Bw] = c[i] ? s1[Bw-1:0] : s0[Bw-1:0];
      assign gs[i] = s0[Bw];
      assign ps[i] = s1[Bw];
    end
  end

  if (NSeg > 1) begin : g_carries
    logic [NSeg-1:0] cs;
    assign cs = {1'b0, gs[NSeg-1:1]} + {1'b0, ps[NSeg-1:1]} + {{(NSeg-1){1'b0}}, c[1]};
    // the carry into position k of G + P is the carry into segment k + 1
    for (genvar i = 2; i < NSeg; i++) begin : g_c
      assign c[i] = cs[i-1] ^ gs[i] ^ ps[i];
    end
    assign c[NSeg] = cs[NSeg-1];
  end
  assign sum_o[Width] = c[NSeg];

  logic unused;
  if (NSeg > 1) begin : g_unused
    assign unused = ^{gs[0], ps[0], g_carries.cs[0]};   // (cs[0] recomputes c[1])
  end else begin : g_unused1
    assign unused = ^{gs[0], ps[0]};
  end
endmodule
