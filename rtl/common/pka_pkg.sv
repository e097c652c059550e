// SPDX-License-Identifier: Apache-2.0
// pka_pkg: status codes, engine opcodes and the operand-slot map shared by every engine and the top.
//
// Every engine has the same boundary (doc/architecture.md, "One boundary"):
//   command   cmd_valid_i/cmd_ready_o with cmd_op_i (op_e), cmd_len_i (modulus bits),
//             cmd_elen_i (exponent bits), cmd_arg_i (engine-specific);
//   memory    a 32-bit word port, req/gnt handshake, read data one cycle after the grant
//             (mem_rvalid_i), operands at slot_base(slot) + word;
//   done      done_o pulse with status_o (status_e), cycles_o (compute cycles as the paper counts)
//             and io_cycles_o (cycles spent moving operands through the word port).
`default_nettype none

package pka_pkg;

  // ---- status codes (identical to pka.errors.Status) -------------------------------------------
  typedef enum logic [7:0] {
    ST_OK               = 8'd0,
    ST_ERR_EVEN_MODULUS = 8'd1,
    ST_ERR_LENGTH       = 8'd2,
    ST_ERR_OPERAND_RANGE= 8'd3,
    ST_ERR_OPCODE       = 8'd4,
    ST_ERR_BUSY         = 8'd5,
    ST_ERR_NOT_ON_CURVE = 8'd6,
    ST_ERR_NO_INVERSE   = 8'd7,
    ST_ERR_UNSUPPORTED  = 8'd8
  } status_e;

  // ---- engine opcodes (identical to pka.sim.Op) --------------------------------------------------
  typedef enum logic [7:0] {
    OP_NOP         = 8'd0,
    OP_MONTMUL     = 8'd1,   // R = A * B * 2^-r mod N, in the engine's output range
    OP_MODMUL      = 8'd2,   // R = A * B mod N, canonical
    OP_MODEXP      = 8'd3,   // R = A ^ E mod N, canonical
    OP_MODEXP_CT   = 8'd4,   // as MODEXP, constant time (ladder)
    OP_MODRED      = 8'd5,   // R = (A_HI:A) mod N
    OP_MUL         = 8'd6,   // R_HI:R = A * B
    OP_RSA_CRT     = 8'd7,   // R = (A_HI:A) ^ d mod pq from P, Q, DP, DQ, QINV
    OP_MODADD      = 8'd8,
    OP_MODSUB      = 8'd9,
    OP_MODINV      = 8'd10,
    OP_ECC_MUL     = 8'd11,
    OP_ECC_CHECK   = 8'd12,
    OP_MONT_PARAMS = 8'd13
  } op_e;

  // ---- operand slots: word address = slot * SlotWords + word ------------------------------------
  localparam int unsigned NumSlots  = 16;
  localparam int unsigned SlotBits  = 4;
  localparam int unsigned SLOT_N    = 0;   // modulus
  localparam int unsigned SLOT_A    = 1;   // a, base, message (low half of a 2n-bit value)
  localparam int unsigned SLOT_A_HI = 2;   // high half of a 2n-bit operand
  localparam int unsigned SLOT_B    = 3;   // b
  localparam int unsigned SLOT_E    = 4;   // exponent or scalar
  localparam int unsigned SLOT_R    = 5;   // result (low half)
  localparam int unsigned SLOT_R_HI = 6;   // high half of a 2n-bit result
  localparam int unsigned SLOT_W    = 7;   // R^2 mod N (Montgomery conversion constant)
  localparam int unsigned SLOT_P    = 8;
  localparam int unsigned SLOT_Q    = 9;
  localparam int unsigned SLOT_DP   = 10;
  localparam int unsigned SLOT_DQ   = 11;
  localparam int unsigned SLOT_QINV = 12;
  localparam int unsigned SLOT_X0   = 13;  // engine-specific constants (documented per engine)
  localparam int unsigned SLOT_X1   = 14;
  localparam int unsigned SLOT_X2   = 15;

  localparam int unsigned MemDw = 32;      // word port width

endpackage
