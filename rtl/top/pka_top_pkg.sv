// SPDX-License-Identifier: Apache-2.0
// pka_top_pkg: what the accelerator top adds to pka_pkg: which opcodes each engine (and the top's
// own sequencer) executes, and the order of automatic dispatch.
//
// Opcodes (pka_pkg::op_e) and engine ids (pka_pkg::Eng*, the values of CMD.ENGINE and the bits of
// HWCFG.ENGINES) are generated from data/pka.rdl. An engine "serves" an opcode when its core accepts that op on the common
// boundary; the sequencer dispatches an opcode to the first engine of the build (in EnginePrio
// order) that serves it, or to the engine named in CMD.ENGINE.
`default_nettype none

package pka_top_pkg;
  import pka_pkg::*;

  localparam int unsigned NumOps = 16;          // opcodes 0..15 (pka_pkg::op_e); others are ERR_OPCODE
  typedef logic [NumOps-1:0] opmask_t;

  // Opcodes the top knows (anything else is ERR_OPCODE).
  localparam opmask_t OpsKnown = opmask_t'(16'h3FFF) | (opmask_t'(1) << OP_ECDSA_SIGN) | (opmask_t'(1) << OP_ZEROIZE);

  // Opcodes the sequencer executes by itself (word-serial, no engine).
  localparam opmask_t OpsNative = (opmask_t'(1) << OP_NOP) | (opmask_t'(1) << OP_ZEROIZE)
                                | (opmask_t'(1) << OP_MONT_PARAMS)
                                | (opmask_t'(1) << OP_MODADD) | (opmask_t'(1) << OP_MODSUB);

  // ---- engines (ids: pka_pkg::Eng*) ----------------------------------------------------------------
  // Automatic dispatch order (CMD.ENGINE = 0): the first engine of the build serving the op. The
  // engines on plain binary operands come first; rns (residue-vector operands, written by the host)
  // is picked automatically only for an op no binary engine of the build serves (ECC_MUL), so a
  // MODEXP or MODMUL with binary operands never lands on it unless CMD.ENGINE names it.
  localparam int unsigned NumPrio = 6;
  localparam int unsigned EnginePrio [NumPrio] = '{EngHscm, EngVictor, EngMwr4, EngCsa2, EngRns, EngExample};

  // Opcodes each engine core accepts (from doc/<engine>.md).
  function automatic opmask_t engine_ops(int unsigned eng);
    unique case (eng)
      EngExample: return opmask_t'(1) << OP_MODADD;
      // doc/csa2.md: W = (2^(K+2))^2 mod N in SLOT_W (MONT_PARAMS with ELEN = LEN + 2)
      EngCsa2:    return (opmask_t'(1) << OP_MODEXP) | (opmask_t'(1) << OP_MODMUL) | (opmask_t'(1) << OP_MODEXP_CT);
      // doc/mwr4.md: W = 2^(2kD) mod N in SLOT_W (D digits, see pka.driver); MONTMUL too
      EngMwr4:    return (opmask_t'(1) << OP_MODEXP) | (opmask_t'(1) << OP_MODMUL) | (opmask_t'(1) << OP_MONTMUL)
                       | (opmask_t'(1) << OP_MODEXP_CT);
      // doc/victor.md: no host constants
      EngVictor:  return (opmask_t'(1) << OP_MODEXP) | (opmask_t'(1) << OP_MODMUL) | (opmask_t'(1) << OP_MODEXP_CT);
      // doc/hscm.md: W = R^2 mod N (R = 2^(k f)); RSA_CRT: X0 = R_p^3 mod p, X1 = R_q^3 mod q,
      // X2 = p^-1 mod q; MONTMUL: X0 = (mu N + 1)/2^2k
      EngHscm:    return (opmask_t'(1) << OP_MODEXP) | (opmask_t'(1) << OP_MODMUL) | (opmask_t'(1) << OP_MONTMUL)
                       | (opmask_t'(1) << OP_MODEXP_CT) | (opmask_t'(1) << OP_MODRED) | (opmask_t'(1) << OP_MUL)
                       | (opmask_t'(1) << OP_RSA_CRT);
      // doc/rns.md: operands are residue vectors and constant tables written by the host
      EngRns:     return (opmask_t'(1) << OP_MODEXP) | (opmask_t'(1) << OP_MODMUL) | (opmask_t'(1) << OP_MONTMUL)
                       | (opmask_t'(1) << OP_ECC_MUL) | (opmask_t'(1) << OP_MODEXP_CT);
      default:    return '0;
    endcase
  endfunction

  // Engines whose operands are plain binary numbers in the slots (rns works on residue vectors):
  // the sequencer's composite operations (MODINV, ECC_CHECK) use only these.
  function automatic logic engine_binary(int unsigned eng);
    return eng != EngRns;
  endfunction

  // ---- the RAM's slots -----------------------------------------------------------------------------
  // The operand RAM holds PhysSlots slots of 2^SlotAw words: slots 0..NumSlots-1 are the bus windows
  // (pka_pkg::SLOT_*), the others are internal: never mapped to the bus, used by the sequencer's
  // programs for values derived from secrets (doc/security.md). An engine addresses 16 slots; the
  // sequencer maps each of them to a physical slot for every engine command (identity by default).
  localparam int unsigned PhysSlots = 32;
  localparam int unsigned PhysBits  = 5;
  typedef logic [PhysBits-1:0] pslot_t;
  typedef logic [PhysSlots-1:0] pmask_t;
  // key constants of the CRT key in P, Q (kept while the key is, cleared with it)
  localparam pslot_t HsRp3  = 5'd17;   // R_p^3 mod p   (hscm RSA_CRT's X0)
  localparam pslot_t HsRq3  = 5'd18;   // R_q^3 mod q   (X1)
  localparam pslot_t HsPinv = 5'd19;   // p^-1 mod q    (X2)
  localparam pslot_t HsWp   = 5'd20;   // R_p^2 mod p
  localparam pslot_t HsWq   = 5'd21;   // R_q^2 mod q
  localparam pslot_t HsWn   = 5'd22;   // R_N^2 mod N   (for the check of RSA_CRT; kept while N is)
  // scratch of one operation (zeroed at its end when it held secret-derived data)
  localparam pslot_t HsT0   = 5'd23;
  localparam pslot_t HsT1   = 5'd24;
  localparam pslot_t HsT2   = 5'd25;
  localparam pslot_t HsT3   = 5'd26;
  localparam pslot_t HsT4   = 5'd27;
  // the key's blinding pair (Kocher): u^e mod N and u^-1 mod N, squared after each signature
  localparam pslot_t HsBa   = 5'd28;
  localparam pslot_t HsBb   = 5'd29;
  localparam pmask_t KeyConstMask = pmask_t'((1 << 17) | (1 << 18) | (1 << 19) | (1 << 20) | (1 << 21)
                                             | (1 << 28) | (1 << 29));
  localparam pmask_t NConstMask   = pmask_t'(1 << 22);
  // copies of a checked result (R, R_HI), compared with the slots at the very end: a fault that
  // changes R after its check is caught before the release
  localparam pslot_t HsRc0  = 5'd30;
  localparam pslot_t HsRc1  = 5'd31;
  localparam pmask_t RcopyMask    = pmask_t'((1 << 30) | (1 << 31));

endpackage
