// SPDX-License-Identifier: Apache-2.0
// pka_victor_qest: the quotient estimator of paper 003, section 3.3.
//
// q = estimate(S div 2^k, N) from the carry-save accumulator (S_a, S_c) of width W = n+2k+1:
//   T = (S_a[W-1 -: Delta] + S_c[W-1 -: Delta]) mod 2^Delta, forced to 0 when all ones (the pair
//       wrapped around 2^W while the true top field is 0; S < q_max 2^k N keeps T < 2^Delta - 1);
//   q = (T * Y) >> (Delta + Eps - K - 1), the top K+2 bits of the product, with
//   Y = floor(2^(n+Eps) / N) in [2^Eps, 2^(Eps+1)): the Eps bits of 1/N after its leading one.
// q <= S / (2^k N) and q < q_max (Table 3); see src/pka/model/victor.py for the proof.
// Combinational: a Delta-bit adder and a Delta x (Eps+1) multiplier.
`default_nettype none

module pka_victor_qest #(
  parameter int unsigned K     = 5,   // scan factor, 3..5
  parameter int unsigned Delta = 10,  // top bits of S added, > K+3
  parameter int unsigned Eps   = 11   // bits of 1/N after the leading one, > K
) (
  input  logic [Delta-1:0] sa_top_i,
  input  logic [Delta-1:0] sc_top_i,
  input  logic [Eps:0]     y_i,
  output logic [K+1:0]     q_o
);
  localparam int unsigned PW = Delta + Eps + 1;  // product width

  // parameter legality, checked at elaboration
  if (K < 3 || K > 5) begin : g_bad_param0
    $fatal(1, "pka_victor_qest: K must be 3..5");
  end
  if (Delta <= K + 3 || Eps <= K) begin : g_bad_param1
    $fatal(1, "pka_victor_qest: need Delta > K+3, Eps > K");
  end

  logic [Delta-1:0] t_sum, t;
  logic [PW-1:0]    prod;

  always_comb begin
    t_sum = sa_top_i + sc_top_i;
    t     = (&t_sum) ? '0 : t_sum;
    prod  = PW'(t) * PW'(y_i);
  end

  assign q_o = prod[PW-1 -: K+2];

  logic unused_prod_low;
  assign unused_prod_low = ^prod[PW-K-3:0];
endmodule
