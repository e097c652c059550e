// SPDX-License-Identifier: Apache-2.0
// pka_rns_cox: the Cox unit of Kawamura et al.'s base extension (EUROCRYPT 2000).
//
// The base extension x = sum xi_i*Mi - k*M needs k = floor(sum xi_i/m_i). With m_i = 2^W - c_i
// ~ 2^W, the Cox approximates it by the top Q bits of each xi_i, one per cycle as the xi are
// broadcast:  frac := frac + trunc_Q(xi_i);  k_i := carry out;  frac := frac mod 2^Q.
// Starting from frac = alpha*2^Q (alpha = 0 or 1/2), sum k_i = floor(alpha + sum trunc_Q(xi_i)/2^Q).
// Error of the fraction < sum c_i/2^W + n*2^-Q (pka.model.rns.cox_error, asserted < 1/2 in the
// model): alpha = 0 gives x or x + M; alpha = 1/2 gives x exactly when x < M/2.
// k_o is combinational (this cycle's carry); the core aligns it with the rowers' products.
`default_nettype none

module pka_rns_cox #(
  parameter int unsigned W = 32,  // channel width
  parameter int unsigned Q = 8    // fraction bits, 1..W
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         clr_i,     // frac := alpha
  input  logic         half_i,    // alpha = 1/2 (else 0), with clr_i
  input  logic         en_i,      // accumulate xi_i
  input  logic [W-1:0] xi_i,
  output logic         k_o        // carry k_i of this step (0 when !en_i)
);
  initial if (Q < 1 || Q > W) $fatal(1, "Q must be in 1..W");

  logic [Q-1:0] frac_q, frac_d;
  logic [Q:0]   sum;

  assign sum = {1'b0, frac_q} + {1'b0, xi_i[W-1 -: Q]};
  assign k_o = en_i & sum[Q];

  always_comb begin
    frac_d = frac_q;
    if (clr_i) frac_d = half_i ? Q'(1 << (Q - 1)) : '0;
    else if (en_i) frac_d = sum[Q-1:0];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) frac_q <= '0;
    else frac_q <= frac_d;
  end

  if (Q < W) begin : g_unused
    logic unused;
    assign unused = ^xi_i[W-Q-1:0];   // the Cox reads only the top Q bits
  end
endmodule
