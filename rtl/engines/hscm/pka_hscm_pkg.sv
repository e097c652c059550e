// SPDX-License-Identifier: Apache-2.0
// pka_hscm_pkg: the product descriptor shared by the program generator and the sequencers of the
// HSCM engine, and the entry map of the per-HSCM operand RAM.
//
// A chain is a sequence of Montgomery (or MULT) products run back to back on one ring of PEs;
// each product is described by where its operands come from and where its result goes:
//   A source: the previous product's result (CPA, chained through the ring), the constant 1, or
//             an entry of the operand RAM;
//   B source: the same, or the other HSCM's previous result (OTHER, Montgomery ladder);
//   dst:      entry written with the result (f words; MULT: words f..2f-1, the low words
//             0..f-1 come from the q bus);
//   add:      entry whose words f .. 2f-1 are added to the result (MRDC: floor(w / R));
//   mult:     MULT mode (N = 0, Algorithm 4);  last: the chain ends with this product.
// RAM entries are e_max words long (e_max = f_max + 1); MSG and PR take two consecutive entries.
`default_nettype none

package pka_hscm_pkg;

  typedef enum logic [1:0] {
    SRC_CPA   = 2'd0,
    SRC_ONE   = 2'd1,
    SRC_RAM   = 2'd2,
    SRC_OTHER = 2'd3
  } src_e;

  typedef struct packed {
    src_e       a_src;
    logic [7:0] a_ent;
    src_e       b_src;
    logic [7:0] b_ent;
    logic       dst_en;
    logic [7:0] dst_ent;
    logic       add_en;
    logic [7:0] add_ent;
    logic       mult;
    logic       last;
  } desc_t;

  // entries of the operand RAM of one HSCM
  localparam logic [7:0] ENT_SQ   = 8'd0;   // C^2 (A1 precomputation)
  localparam logic [7:0] ENT_W    = 8'd1;   // R^2 mod M (SLOT_W) or R^3 mod p|q (SLOT_X0|X1)
  localparam logic [7:0] ENT_A    = 8'd2;   // A (base, operand a)
  localparam logic [7:0] ENT_B    = 8'd3;   // B (operand b)
  localparam logic [7:0] ENT_MOD  = 8'd4;   // the modulus M (p, q)
  localparam logic [7:0] ENT_RES  = 8'd5;   // last product's result
  localparam logic [7:0] ENT_Y    = 8'd6;   // final reduction output
  localparam logic [7:0] ENT_U    = 8'd7;   // u = q^-1 mod p (ring 0) or v = p^-1 mod q (ring 1)
  localparam logic [7:0] ENT_QQ   = 8'd8;   // the other prime (q on ring 0, p on ring 1)
  localparam logic [7:0] ENT_NMOD = 8'd9;   // N = p q (ring 0)
  localparam logic [7:0] ENT_X    = 8'd10;  // y_p q + y_q p (ring 0)
  localparam logic [7:0] ENT_MSG  = 8'd11;  // message / 2n-bit value, two entries
  localparam logic [7:0] ENT_PR   = 8'd13;  // MULT product, two entries
  localparam logic [7:0] ENT_T0   = 8'd15;  // C_1, C_3, ..., C_(2^k - 1): T0 + j = C_(2j+1)
  localparam int unsigned NumFixedEnt = 15;

  // RSA_CRT's exponent blinding: the command's arg[31:24] = X extra exponent bits, 0..MaxXBits
  // (any value; above it ST_ERR_UNSUPPORTED).  The exponents are then bits(p) + X and
  // bits(q) + X bits long (d_p + r_p (p - 1) with r_p < 2^X); the exponent registers hold
  // max(MaxLen, MaxLen/2 + MaxXBits rounded up to 32) bits (pka_hscm_core's EBits).
  localparam int unsigned MaxXBits = 64;

  // word address of entry ent: ent * ew as shifts and adds of the constant ew's bits (a product
  // would be mapped to a DSP block, slow in front of a RAM address)
  function automatic logic [31:0] ent_base(logic [7:0] ent, int unsigned ew);
    logic [31:0] acc;
    acc = '0;
    for (int b = 0; b < 16; b++) begin
      if (((ew >> b) & 1) != 0) acc = acc + (32'(ent) << b);
    end
    return acc;
  endfunction

endpackage
