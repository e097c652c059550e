// SPDX-License-Identifier: Apache-2.0
// pka_soc_entropy: a stand-in entropy source for pka_top's EDN-style port in the simulated SoC and
// for bring-up: a 64-bit xorshift generator from a fixed seed, one word per request, acknowledged
// the cycle after the request. NOT a random number generator for keys: its output is predictable.
// A product replaces it with a true entropy source (OpenTitan's EDN/CSRNG, an FPGA ring-oscillator
// TRNG behind a DRBG); pka_top's blinding is only as good as this input (doc/security.md).
`default_nettype none

module pka_soc_entropy #(
  parameter logic [63:0] Seed = 64'h5EED_0F1E_2D3C_4B5A  // any non-zero value
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        req_i,
  output logic        ack_o,
  output logic [31:0] data_o
);
  logic [63:0] s_q, s_d;
  logic        ack_q;

  always_comb begin
    s_d = s_q;
    if (req_i && !ack_q) begin
      s_d = s_d ^ (s_d << 13);
      s_d = s_d ^ (s_d >> 7);
      s_d = s_d ^ (s_d << 17);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s_q <= Seed; ack_q <= 1'b0;
    end else begin
      s_q <= s_d; ack_q <= req_i && !ack_q;
    end
  end

  assign ack_o  = ack_q;
  assign data_o = s_q[63:32];
endmodule
