// SPDX-License-Identifier: Apache-2.0
// pka_top_seq: the command sequencer of pka_top. It decodes a command, checks it, runs the top's
// own word-serial operations on the operand RAM, and hands the other opcodes to an engine over the
// common boundary (cmd valid/ready, done/status/cycles), giving that engine the RAM's word port.
//
// Own operations (one 32-bit word per RAM access, W = ceil(len/32) words, all counts exact):
//   NOP          done at once.
//   ZEROIZE      write 0 to all 2^MemAw RAM words (also run after reset), clear MU: 2^MemAw cycles.
//   MODADD       R = (A + B) mod N, MODSUB R = (A - B) mod N, for A, B < N (else ERR_OPERAND_RANGE):
//                a check pass (reads N, A, B: carries of A-N, B-N, A+B (A-B) and A+B-N (A-B+N)),
//                then a pass that writes the selected sum: 2 passes x 4 cycles per word = 8W.
//   MONT_PARAMS  W = 2^(2r) mod N into SLOT_W (r = ELEN, or 32W when ELEN = 0, b <= 2r, r <= MaxLen+256)
//                and MU = -N^-1 mod 2^64: a scan of N (bit length b, odd?; 2W cycles), the Hensel
//                lifting of N^-1 bit by bit (63 cycles), x = 2^(b-1) (W cycles), 2r-b+1 non-
//                restoring doublings x <- 2x - N (x >= 0) or 2x + N (x < 0), x kept in [-N, N) as W
//                words plus a sign flag (3W cycles each: read N, read x, write x), and a final
//                x + N if x < 0 (3W cycles). Total 2W + 63 + W + 3W(2r-b+1) [+ 3W].
//   MODINV       A^-1 mod N for prime N by Fermat on the engine: check pass (N odd, 0 < A < N;
//                3W), E = N - 2 (2W), engine MODEXP, copy R to B (2W), engine MODMUL (A*B), check
//                R == 1 (2W; else ERR_NO_INVERSE, so a composite N is caught), copy B to R (2W).
//                Uses SLOT_E and SLOT_B as scratch; needs what the engine's MODEXP needs.
//   ECC_CHECK    y^2 == x^3 + a x + b (mod p)? with N = p, A = x, B = y, X0 = a, X1 = b: range pass
//                (x, y < p; 4W), three engine MODMULs (y^2, x^2, x (x^2 + a)), two modular additions
//                (8W each, also checking a, b < p), copies (2W each) and a compare pass (3W);
//                ERR_NOT_ON_CURVE if not. Uses B, R, R_HI and X2 as scratch.
// The composite operations (MODINV, ECC_CHECK) use engines on binary operands only (not rns).
// Every pass's slots are registers (s0, s1, s2 read in that order, dst written), so one datapath of
// four 33-bit adders serves all of them; a pass costs (reads + 1) cycles per word.
// Every other opcode goes to the engine chosen by CMD.ENGINE (0: the first engine of the build in
// pka_top_pkg::EnginePrio order that serves it). Counters: cycles_o = cycles from the command to
// done, compute_o = engine cycles_o plus the sequencer's own pass cycles, io_o = engine io_cycles_o.
`default_nettype none

module pka_top_seq
  import pka_pkg::*;
  import pka_top_pkg::*;
#(
  parameter int unsigned MaxLen = 4096,                // build maximum modulus bits, 32..4096
  parameter int unsigned MemAw  = 11,                  // RAM word address width = 4 + log2(slot words)
  parameter logic [NumEng-1:0] EngMask = '0            // engines present in the build (bit = id)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  // command, from the register block
  input  logic                      start_i,        // CMD written
  input  logic [7:0]                op_i,
  input  logic [3:0]                eng_i,
  input  logic [15:0]               len_i,
  input  logic [15:0]               elen_i,
  input  logic [31:0]               arg_i,
  // status
  output logic                      busy_o,
  output logic                      done_o,         // one-cycle pulse at the end of a command
  output logic                      reject_o,       // a command arrived while busy (dropped)
  output logic                      finished_o,     // the last command has finished
  output logic [7:0]                code_o,
  output logic [7:0]                last_op_o,
  output logic [31:0]               cycles_o,
  output logic [31:0]               compute_o,
  output logic [31:0]               io_o,
  output logic [63:0]               mu_o,
  // engines (common boundary, command side)
  output logic [NumEng-1:0]         ecmd_valid_o,
  input  logic [NumEng-1:0]         ecmd_ready_i,
  output eng_cmd_t                  ecmd_o,         // op, len, elen, arg (pka_pkg)
  input  eng_res_t [NumEng-1:0]     eres_i,         // done, status, cycles, io_cycles
  output logic                      eng_own_o,      // the RAM port belongs to engine eng_sel_o
  output logic [2:0]                eng_sel_o,
  // the sequencer's own RAM port (read data one cycle after a read)
  output logic                      mem_req_o,
  output logic                      mem_we_o,
  output logic [MemAw-1:0]          mem_addr_o,
  output logic [31:0]               mem_wdata_o,
  input  logic [31:0]               mem_rdata_i
);
  localparam int unsigned SlotAw   = MemAw - 4;
  localparam int unsigned MaxWords = MaxLen / 32;
  localparam int unsigned CntW     = MemAw + 1;          // pass word counter (ZEROIZE: all words)
  localparam int unsigned MaxR     = MaxLen + 256;       // largest Montgomery exponent r accepted
  localparam int unsigned IterW    = $clog2(2 * MaxR + 2);

  initial begin
    if (MaxLen < 32 || MaxLen > 4096 || MaxLen % 32 != 0) $fatal(1, "MaxLen must be 32..4096, a multiple of 32");
    if ((1 << SlotAw) < MaxWords) $fatal(1, "MemAw too small for MaxLen");
  end

  // ---- what the command does ------------------------------------------------------------------
  typedef enum logic [3:0] {KReset, KNop, KZero, KEng, KAdd, KSub, KMont, KInv, KChk} kind_e;
  typedef enum logic [3:0] {
    FnZero, FnScanN, FnAddChk, FnAdd, FnSubChk, FnSub, FnInitX, FnDbl, FnFix, FnInvChk, FnNm2,
    FnCopy, FnIsOne, FnEq
  } fn_e;
  typedef enum logic [3:0] {SPass, SIdle, SDecode, SNext, SMu, SEngCmd, SEngWait, SDone} state_e;

  state_e            state_q, state_d;
  kind_e             kind_q, kind_d;
  logic [7:0]        op_q, op_d;
  logic [2:0]        eng_q, eng_d;          // engine of the command (0: none)
  logic              badeng_q, badeng_d;    // CMD.ENGINE names an engine not in the build
  logic [15:0]       len_q, len_d, elen_q, elen_d;
  logic [31:0]       arg_q, arg_d;
  logic [7:0]        words_q, words_d;      // W = ceil(len/32)
  logic [3:0]        step_q, step_d;
  logic [7:0]        code_q, code_d;
  logic              fin_q, fin_d;
  logic [31:0]       cyc_q, cyc_d, comp_q, comp_d, io_q, io_d;
  logic [63:0]       mu_q, mu_d;
  // engine command
  logic [7:0]        eop_q, eop_d;
  logic [15:0]       eelen_q, eelen_d;
  // word-serial pass
  fn_e               fn_q, fn_d;
  logic [CntW-1:0]   pidx_q, pidx_d, pwords_q, pwords_d;
  logic [1:0]        pph_q, pph_d;          // phase within a word: reads, then compute/write
  logic [3:0]        s0_q, s0_d, s1_q, s1_d, s2_q, s2_d, dst_q, dst_d;  // slots of the pass
  logic [31:0]       w0_q, w0_d, w1_q, w1_d;
  logic              c1_q, c1_d, c2_q, c2_d, c3_q, c3_d, c4_q, c4_d;
  logic              sh_q, sh_d, neg_q, neg_d, sign_q, sign_d, sel_q, sel_d;
  logic              odd_q, odd_d, nz_q, nz_d, one_q, one_d;
  logic [7:0]        topw_q, topw_d;        // highest non-zero word of N
  logic [4:0]        toplz_q, toplz_d;      // its leading zeros
  logic [IterW-1:0]  iter_q, iter_d;
  // Hensel lifting of N^-1 mod 2^64
  logic [63:0]       n0_q, n0_d, y_q, y_d, t_q, t_d;
  logic [5:0]        mi_q, mi_d;

  // ---- helpers ------------------------------------------------------------------------------------
  function automatic logic [MemAw-1:0] slot_addr(logic [3:0] slot, logic [SlotAw-1:0] word);
    return {slot, word};
  endfunction

  function automatic logic [1:0] fn_nsrc(fn_e fn);
    unique case (fn)
      FnZero, FnInitX:                        return 2'd0;
      FnScanN, FnNm2, FnCopy, FnIsOne:        return 2'd1;
      FnDbl, FnFix, FnInvChk, FnEq:           return 2'd2;
      default:                                return 2'd3;   // the add/sub passes: N, A, B
    endcase
  endfunction

  function automatic logic [4:0] lzc32(logic [31:0] x);
    logic [4:0] n;
    n = 5'd0;
    for (int i = 0; i < 32; i++) begin
      if (x[i]) n = 5'(31 - i);
    end
    return n;
  endfunction

  // The engine that executes `op` (0: none in this build): the one named, or the first in EnginePrio.
  // bin: only engines whose operands are plain binary numbers (for the composite operations)
  function automatic logic [2:0] pick(logic [3:0] op, logic [3:0] sel, logic bin);
    logic [2:0] e;
    e = '0;
    if (sel != 4'd0) begin
      if (sel < 4'(NumEng) && EngMask[sel[2:0]] && engine_ops(int'(sel))[op]
          && (!bin || engine_binary(int'(sel)))) e = sel[2:0];
    end else begin
      for (int i = NumPrio - 1; i >= 0; i--) begin
        if (EngMask[EnginePrio[i]] && engine_ops(EnginePrio[i])[op]
            && (!bin || engine_binary(EnginePrio[i]))) e = 3'(EnginePrio[i]);
      end
    end
    return e;
  endfunction

  // ---- the state machine --------------------------------------------------------------------------
  logic [1:0]  nsrc;
  logic        last_ph;
  logic [31:0] n_w, a_w, b_w;
  logic [32:0] s1, s2, s3, s4, v;
  logic [16:0] r_bits, b_bits;
  logic [2:0]  e_pick, e_exp, e_mul;

  always_comb begin
    state_d = state_q; kind_d = kind_q; op_d = op_q; eng_d = eng_q; badeng_d = badeng_q; len_d = len_q; elen_d = elen_q;
    arg_d = arg_q; words_d = words_q; step_d = step_q; code_d = code_q; fin_d = fin_q;
    cyc_d = cyc_q; comp_d = comp_q; io_d = io_q; mu_d = mu_q; eop_d = eop_q; eelen_d = eelen_q;
    fn_d = fn_q; pidx_d = pidx_q; pwords_d = pwords_q; pph_d = pph_q; s0_d = s0_q; s1_d = s1_q;
    s2_d = s2_q; dst_d = dst_q; w0_d = w0_q; w1_d = w1_q; c1_d = c1_q; c2_d = c2_q; c3_d = c3_q; c4_d = c4_q;
    sh_d = sh_q; neg_d = neg_q; sign_d = sign_q; sel_d = sel_q; odd_d = odd_q; nz_d = nz_q;
    one_d = one_q; topw_d = topw_q; toplz_d = toplz_q; iter_d = iter_q; n0_d = n0_q; y_d = y_q;
    t_d = t_q; mi_d = mi_q;
    mem_req_o = 1'b0; mem_we_o = 1'b0; mem_addr_o = '0; mem_wdata_o = '0;
    done_o = 1'b0;
    nsrc = fn_nsrc(fn_q);
    last_ph = (pph_q == nsrc);
    n_w = '0; a_w = '0; b_w = '0; s1 = '0; s2 = '0; s3 = '0; s4 = '0; v = '0;
    r_bits = '0; b_bits = '0;
    e_pick = pick(op_q[3:0], {1'b0, eng_q}, 1'b0);
    e_exp = pick(4'(OP_MODEXP), {1'b0, eng_q}, 1'b1);
    e_mul = pick(4'(OP_MODMUL), {1'b0, eng_q}, 1'b1);

    if (state_q != SIdle) cyc_d = cyc_q + 1;

    unique case (state_q)
      SIdle: begin
        if (start_i) begin
          op_d = op_i; len_d = len_i; elen_d = elen_i; arg_d = arg_i;
          eng_d = (eng_i < 4'(NumEng)) ? eng_i[2:0] : 3'd0;
          words_d = 8'((32'(len_i) + 31) / 32);
          kind_d = KNop; step_d = '0; fin_d = 1'b0; cyc_d = '0; comp_d = '0; io_d = '0; code_d = ST_OK;
          state_d = SDecode;
          // an engine id that is not in the build can serve nothing (ERR_UNSUPPORTED)
          badeng_d = (eng_i != 4'd0 && (eng_i >= 4'(NumEng) || !EngMask[eng_i[2:0]]));
        end
      end

      SDecode: begin
        state_d = SNext;
        if (!OpsKnown[op_q[3:0]] || op_q[7:4] != 4'd0) begin
          code_d = ST_ERR_OPCODE; state_d = SDone;
        end else if (badeng_q) begin
          code_d = ST_ERR_UNSUPPORTED; state_d = SDone;
        end else if (eng_q == 3'd0 && OpsNative[op_q[3:0]]) begin
          unique case (op_q)
            8'(OP_NOP):         kind_d = KNop;
            8'(OP_ZEROIZE):     kind_d = KZero;
            8'(OP_MODADD):      kind_d = KAdd;
            8'(OP_MODSUB):      kind_d = KSub;
            default:            kind_d = KMont;
          endcase
        end else if (e_pick != 3'd0) begin
          kind_d = KEng; eng_d = e_pick;
        end else if (op_q == 8'(OP_MODINV) && e_exp != 3'd0 && engine_ops(int'(e_exp))[4'(OP_MODMUL)]) begin
          kind_d = KInv; eng_d = e_exp;
        end else if (op_q == 8'(OP_ECC_CHECK) && e_mul != 3'd0) begin
          kind_d = KChk; eng_d = e_mul;
        end else begin
          code_d = ST_ERR_UNSUPPORTED; state_d = SDone;
        end
        // lengths (not for NOP / ZEROIZE)
        if (state_d == SNext && op_q != 8'(OP_NOP) && op_q != 8'(OP_ZEROIZE)) begin
          // ELEN bounds the exponent/scalar slot; for MONT_PARAMS it is r, checked later
          if (len_q == 16'd0 || 32'(len_q) > MaxLen
              || (op_q != 8'(OP_MONT_PARAMS) && 32'(elen_q) > 32 * (1 << SlotAw))) begin
            code_d = ST_ERR_LENGTH; state_d = SDone;
          end
        end
      end

      SNext: begin
        step_d = step_q + 1;
        // defaults for a new pass: sources N, A, B, destination R
        pidx_d = '0; pph_d = '0; pwords_d = CntW'(words_q);
        s0_d = 4'(SLOT_N); s1_d = 4'(SLOT_A); s2_d = 4'(SLOT_B); dst_d = 4'(SLOT_R);
        c1_d = 1'b1; c2_d = 1'b1; c3_d = 1'b0; c4_d = 1'b1; sh_d = 1'b0;
        unique case (kind_q)
          KReset: state_d = SIdle;            // the clear after reset is over
          KNop: state_d = SDone;
          KZero: begin
            if (step_q == 4'd0) begin
              fn_d = FnZero; pwords_d = CntW'(1 << MemAw); state_d = SPass;
            end else begin
              mu_d = '0; state_d = SDone;
            end
          end
          KEng: begin
            if (step_q == 4'd0) begin
              eop_d = op_q; eelen_d = elen_q; state_d = SEngCmd;
            end else state_d = SDone;
          end
          KAdd, KSub: begin
            unique case (step_q)
              4'd0: begin
                fn_d = (kind_q == KAdd) ? FnAddChk : FnSubChk; state_d = SPass;
                c3_d = (kind_q == KSub); c4_d = (kind_q == KAdd);
              end
              4'd1: begin
                if (c1_q || c2_q) begin
                  code_d = ST_ERR_OPERAND_RANGE; state_d = SDone;
                end else begin
                  sel_d = (kind_q == KAdd) ? (c3_q | c4_q) : !c3_q;
                  fn_d = (kind_q == KAdd) ? FnAdd : FnSub; state_d = SPass;
                  c3_d = (kind_q == KSub); c4_d = (kind_q == KAdd);
                end
              end
              default: state_d = SDone;
            endcase
          end
          KMont: begin
            unique case (step_q)
              4'd0: begin
                fn_d = FnScanN; odd_d = 1'b0; nz_d = 1'b0; topw_d = '0; toplz_d = '0; n0_d = '0;
                state_d = SPass;
              end
              4'd1: begin
                b_bits = 17'(32 * 32'(topw_q) + 32 - 32'(toplz_q));
                r_bits = (elen_q != 16'd0) ? {1'b0, elen_q} : 17'(32 * 32'(words_q));
                if (!odd_q) begin
                  code_d = ST_ERR_EVEN_MODULUS; state_d = SDone;
                end else if (b_bits <= 17'd1 || b_bits > {1'b0, len_q}) begin
                  code_d = ST_ERR_OPERAND_RANGE; state_d = SDone;
                end else if (2 * 32'(r_bits) < 32'(b_bits) || 32'(r_bits) > MaxR) begin
                  code_d = ST_ERR_LENGTH; state_d = SDone;
                end else begin
                  iter_d = IterW'(2 * 32'(r_bits) - 32'(b_bits) + 1);
                  y_d = 64'd1; t_d = n0_q; mi_d = 6'd1; state_d = SMu;
                end
              end
              4'd2: begin
                fn_d = FnInitX; sign_d = 1'b0; dst_d = 4'(SLOT_W); state_d = SPass;
              end
              4'd3: begin
                if (iter_q != '0) begin
                  fn_d = FnDbl; neg_d = !sign_q; c3_d = !sign_q; state_d = SPass;
                  s1_d = 4'(SLOT_W); dst_d = 4'(SLOT_W);
                  iter_d = iter_q - 1; step_d = step_q;   // stay here until all doublings are done
                end else if (sign_q) begin
                  fn_d = FnFix; c3_d = 1'b0; state_d = SPass;
                  s1_d = 4'(SLOT_W); dst_d = 4'(SLOT_W);
                end else state_d = SDone;
              end
              default: state_d = SDone;
            endcase
          end
          KInv: begin
            unique case (step_q)
              4'd0: begin
                fn_d = FnInvChk; odd_d = 1'b0; nz_d = 1'b0; state_d = SPass;
              end
              4'd1: begin
                if (!odd_q) begin
                  code_d = ST_ERR_EVEN_MODULUS; state_d = SDone;
                end else if (c1_q) begin
                  code_d = ST_ERR_OPERAND_RANGE; state_d = SDone;
                end else if (!nz_q) begin
                  code_d = ST_ERR_NO_INVERSE; state_d = SDone;
                end else begin
                  fn_d = FnNm2; dst_d = 4'(SLOT_E); state_d = SPass;   // c3 = 1: N + ~2 + 1
                  c3_d = 1'b1;
                end
              end
              4'd2: begin
                eop_d = 8'(OP_MODEXP); eelen_d = len_q; state_d = SEngCmd;
              end
              4'd3: begin
                fn_d = FnCopy; s0_d = 4'(SLOT_R); dst_d = 4'(SLOT_B); state_d = SPass;
              end
              4'd4: begin
                eop_d = 8'(OP_MODMUL); eelen_d = '0; state_d = SEngCmd;
              end
              4'd5: begin
                fn_d = FnIsOne; one_d = 1'b1; s0_d = 4'(SLOT_R); state_d = SPass;
              end
              4'd6: begin
                if (!one_q) begin
                  code_d = ST_ERR_NO_INVERSE; state_d = SDone;
                end else begin
                  fn_d = FnCopy; s0_d = 4'(SLOT_B); dst_d = 4'(SLOT_R); state_d = SPass;
                end
              end
              default: state_d = SDone;
            endcase
          end
          KChk: begin
            // ECC_CHECK: y^2 == x^3 + a x + b (mod p) with N = p, A = x, B = y, X0 = a, X1 = b;
            // the engine's MODMUL makes the products, the sequencer the sums and the compare.
            // Leaves A = x; uses B, R, R_HI, X2.
            unique case (step_q)
              4'd0: begin
                fn_d = FnAddChk; c3_d = 1'b0; c4_d = 1'b1; state_d = SPass;        // x, y < p
              end
              4'd1: begin
                if (c1_q || c2_q) begin
                  code_d = ST_ERR_OPERAND_RANGE; state_d = SDone;
                end else begin
                  fn_d = FnCopy; s0_d = 4'(SLOT_A); dst_d = 4'(SLOT_X2); state_d = SPass;  // X2 = x
                end
              end
              4'd2: begin
                fn_d = FnCopy; s0_d = 4'(SLOT_B); dst_d = 4'(SLOT_A); state_d = SPass;    // A = y
              end
              4'd3: begin
                eop_d = 8'(OP_MODMUL); eelen_d = '0; state_d = SEngCmd;                   // R = y^2
              end
              4'd4: begin
                fn_d = FnCopy; s0_d = 4'(SLOT_R); dst_d = 4'(SLOT_R_HI); state_d = SPass; // R_HI = y^2
              end
              4'd5: begin
                fn_d = FnCopy; s0_d = 4'(SLOT_X2); dst_d = 4'(SLOT_A); state_d = SPass;   // A = x
              end
              4'd6: begin
                fn_d = FnCopy; s0_d = 4'(SLOT_X2); dst_d = 4'(SLOT_B); state_d = SPass;   // B = x
              end
              4'd7: begin
                eop_d = 8'(OP_MODMUL); eelen_d = '0; state_d = SEngCmd;                   // R = x^2
              end
              4'd8: begin
                fn_d = FnAddChk; s1_d = 4'(SLOT_R); s2_d = 4'(SLOT_X0); c3_d = 1'b0; c4_d = 1'b1;
                state_d = SPass;                                                         // a < p?
              end
              4'd9: begin
                if (c1_q || c2_q) begin
                  code_d = ST_ERR_OPERAND_RANGE; state_d = SDone;
                end else begin
                  sel_d = c3_q | c4_q; fn_d = FnAdd; s1_d = 4'(SLOT_R); s2_d = 4'(SLOT_X0);
                  dst_d = 4'(SLOT_B); c3_d = 1'b0; c4_d = 1'b1; state_d = SPass;         // B = x^2 + a
                end
              end
              4'd10: begin
                eop_d = 8'(OP_MODMUL); eelen_d = '0; state_d = SEngCmd;                  // R = x^3 + a x
              end
              4'd11: begin
                fn_d = FnAddChk; s1_d = 4'(SLOT_R); s2_d = 4'(SLOT_X1); c3_d = 1'b0; c4_d = 1'b1;
                state_d = SPass;                                                         // b < p?
              end
              4'd12: begin
                if (c1_q || c2_q) begin
                  code_d = ST_ERR_OPERAND_RANGE; state_d = SDone;
                end else begin
                  sel_d = c3_q | c4_q; fn_d = FnAdd; s1_d = 4'(SLOT_R); s2_d = 4'(SLOT_X1);
                  c3_d = 1'b0; c4_d = 1'b1; state_d = SPass;                             // R = .. + b
                end
              end
              4'd13: begin
                fn_d = FnEq; s0_d = 4'(SLOT_R); s1_d = 4'(SLOT_R_HI); one_d = 1'b1; state_d = SPass;
              end
              default: begin
                if (!one_q) code_d = ST_ERR_NOT_ON_CURVE;
                state_d = SDone;
              end
            endcase
          end
          default: state_d = SDone;
        endcase
      end

      SPass: begin
        if (kind_q != KReset) comp_d = comp_q + 1;
        if (!last_ph) begin
          mem_req_o  = 1'b1;
          mem_addr_o = slot_addr((pph_q == 2'd0) ? s0_q : (pph_q == 2'd1) ? s1_q : s2_q, pidx_q[SlotAw-1:0]);
          pph_d = pph_q + 1;
          if (pph_q == 2'd1) w0_d = mem_rdata_i;
          if (pph_q == 2'd2) w1_d = mem_rdata_i;
        end else begin
          // the operand words of this index: N first, then A (or x), then B
          n_w = (nsrc == 2'd1) ? mem_rdata_i : w0_q;
          a_w = (nsrc == 2'd2) ? mem_rdata_i : w1_q;
          b_w = mem_rdata_i;
          s1 = {1'b0, a_w} + {1'b0, ~n_w} + 33'(c1_q);        // A - N (range check)
          s2 = {1'b0, b_w} + {1'b0, ~n_w} + 33'(c2_q);        // B - N
          mem_we_o = 1'b1;
          unique case (fn_q)
            FnZero: begin
              mem_req_o = 1'b1; mem_addr_o = MemAw'(pidx_q); mem_wdata_o = '0;
            end
            FnScanN: begin
              if (n_w != '0) begin
                nz_d = 1'b1; topw_d = 8'(pidx_q); toplz_d = lzc32(n_w);
              end
              if (pidx_q == '0) begin
                odd_d = n_w[0]; n0_d[31:0] = n_w;
              end
              if (pidx_q == CntW'(1)) n0_d[63:32] = n_w;
              mem_we_o = 1'b0;
            end
            FnAddChk, FnAdd: begin
              s3 = {1'b0, a_w} + {1'b0, b_w} + 33'(c3_q);      // A + B
              s4 = {1'b0, s3[31:0]} + {1'b0, ~n_w} + 33'(c4_q); // A + B - N
              c1_d = s1[32]; c2_d = s2[32]; c3_d = s3[32]; c4_d = s4[32];
              mem_req_o = (fn_q == FnAdd); mem_addr_o = slot_addr(dst_q, pidx_q[SlotAw-1:0]);
              mem_wdata_o = sel_q ? s4[31:0] : s3[31:0];
            end
            FnSubChk, FnSub: begin
              s3 = {1'b0, a_w} + {1'b0, ~b_w} + 33'(c3_q);     // A - B
              s4 = {1'b0, s3[31:0]} + {1'b0, n_w} + 33'(c4_q);  // A - B + N
              c1_d = s1[32]; c2_d = s2[32]; c3_d = s3[32]; c4_d = s4[32];
              mem_req_o = (fn_q == FnSub); mem_addr_o = slot_addr(dst_q, pidx_q[SlotAw-1:0]);
              mem_wdata_o = sel_q ? s4[31:0] : s3[31:0];
            end
            FnInitX: begin
              mem_req_o = 1'b1; mem_addr_o = slot_addr(dst_q, pidx_q[SlotAw-1:0]);
              mem_wdata_o = (pidx_q == CntW'(topw_q)) ? (32'd1 << (5'd31 - toplz_q)) : 32'd0;
            end
            FnDbl: begin
              // x <- 2x - N (x >= 0) or 2x + N (x < 0); a_w is the word of x
              v = {1'b0, a_w[30:0], sh_q} + {1'b0, neg_q ? ~n_w : n_w} + 33'(c3_q);
              sh_d = a_w[31]; c3_d = v[32];
              mem_req_o = 1'b1; mem_addr_o = slot_addr(dst_q, pidx_q[SlotAw-1:0]); mem_wdata_o = v[31:0];
            end
            FnFix: begin
              v = {1'b0, a_w} + {1'b0, n_w} + 33'(c3_q);
              c3_d = v[32];
              mem_req_o = 1'b1; mem_addr_o = slot_addr(dst_q, pidx_q[SlotAw-1:0]); mem_wdata_o = v[31:0];
            end
            FnInvChk: begin
              c1_d = s1[32];
              if (a_w != '0) nz_d = 1'b1;
              if (pidx_q == '0) odd_d = n_w[0];
              mem_we_o = 1'b0;
            end
            FnNm2: begin
              v = {1'b0, n_w} + {1'b0, (pidx_q == '0) ? ~32'd2 : ~32'd0} + 33'(c3_q);
              c3_d = v[32];
              mem_req_o = 1'b1; mem_addr_o = slot_addr(dst_q, pidx_q[SlotAw-1:0]); mem_wdata_o = v[31:0];
            end
            FnCopy: begin
              mem_req_o = 1'b1; mem_addr_o = slot_addr(dst_q, pidx_q[SlotAw-1:0]); mem_wdata_o = n_w;
            end
            FnEq: begin
              if (n_w != a_w) one_d = 1'b0;
              mem_we_o = 1'b0;
            end
            FnIsOne: begin
              if (n_w != ((pidx_q == '0) ? 32'd1 : 32'd0)) one_d = 1'b0;
              mem_we_o = 1'b0;
            end
            default: mem_we_o = 1'b0;
          endcase
          if (!mem_req_o) mem_we_o = 1'b0;
          pph_d = '0;
          pidx_d = pidx_q + 1;
          if (pidx_q + 1 == pwords_q) begin
            state_d = SNext;
            if (fn_q == FnDbl) sign_d = a_w[31] ^ neg_q ^ v[32];   // bit 32W of 2x -+ N
          end
        end
      end

      SMu: begin
        // Hensel lifting: y = N^-1 mod 2^(i+1) from y mod 2^i, with t = N * y mod 2^64
        comp_d = comp_q + 1;
        if (t_q[mi_q]) begin
          y_d = y_q | (64'd1 << mi_q);
          t_d = t_q + (n0_q << mi_q);
        end
        mi_d = mi_q + 1;
        if (mi_q == 6'd63) begin
          mu_d = -y_d;
          state_d = SNext;
        end
      end

      SEngCmd: begin
        if (ecmd_ready_i[eng_q]) state_d = SEngWait;
      end

      SEngWait: begin
        if (eres_i[eng_q].done) begin
          comp_d = comp_q + eres_i[eng_q].cycles;
          io_d = io_q + eres_i[eng_q].io_cycles;
          if (eres_i[eng_q].status != ST_OK) begin
            code_d = eres_i[eng_q].status; state_d = SDone;
          end else state_d = SNext;
        end
      end

      SDone: begin
        done_o = 1'b1; fin_d = 1'b1;
        state_d = SIdle;
      end

      default: state_d = SIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // after reset: clear the whole RAM (a ZEROIZE pass that ends in idle without `done`)
      state_q <= SPass; kind_q <= KReset; fn_q <= FnZero;
      pidx_q <= '0; pph_q <= '0; pwords_q <= CntW'(1 << MemAw);
      op_q <= '0; eng_q <= '0; badeng_q <= 1'b0; len_q <= '0; elen_q <= '0; arg_q <= '0; words_q <= '0;
      step_q <= '0; code_q <= '0; fin_q <= 1'b0; cyc_q <= '0; comp_q <= '0; io_q <= '0;
      mu_q <= '0; eop_q <= '0; eelen_q <= '0; s0_q <= '0; s1_q <= '0; s2_q <= '0; dst_q <= '0;
      c1_q <= 1'b0; c2_q <= 1'b0; c3_q <= 1'b0; c4_q <= 1'b0; sh_q <= 1'b0; neg_q <= 1'b0;
      sign_q <= 1'b0; sel_q <= 1'b0; odd_q <= 1'b0; nz_q <= 1'b0; one_q <= 1'b0;
      topw_q <= '0; toplz_q <= '0; iter_q <= '0; mi_q <= '0;
    end else begin
      state_q <= state_d; kind_q <= kind_d; fn_q <= fn_d;
      pidx_q <= pidx_d; pph_q <= pph_d; pwords_q <= pwords_d;
      op_q <= op_d; eng_q <= eng_d; badeng_q <= badeng_d; len_q <= len_d; elen_q <= elen_d; arg_q <= arg_d; words_q <= words_d;
      step_q <= step_d; code_q <= code_d; fin_q <= fin_d; cyc_q <= cyc_d; comp_q <= comp_d; io_q <= io_d;
      mu_q <= mu_d; eop_q <= eop_d; eelen_q <= eelen_d; s0_q <= s0_d; s1_q <= s1_d; s2_q <= s2_d;
      dst_q <= dst_d;
      c1_q <= c1_d; c2_q <= c2_d; c3_q <= c3_d; c4_q <= c4_d; sh_q <= sh_d; neg_q <= neg_d;
      sign_q <= sign_d; sel_q <= sel_d; odd_q <= odd_d; nz_q <= nz_d; one_q <= one_d;
      topw_q <= topw_d; toplz_q <= toplz_d; iter_q <= iter_d; mi_q <= mi_d;
    end
  end
  // datapath registers (no reset needed)
  always_ff @(posedge clk_i) begin
    w0_q <= w0_d; w1_q <= w1_d; n0_q <= n0_d; y_q <= y_d; t_q <= t_d;
  end

  // the command valid depends on the state only (no path from an engine's outputs back into it)
  always_comb begin
    ecmd_valid_o = '0;
    ecmd_valid_o[eng_q] = (state_q == SEngCmd);
  end

  logic unused;
  assign unused = ^{s1[31:0], s2[31:0]};

  assign busy_o      = (state_q != SIdle);
  assign reject_o    = start_i && (state_q != SIdle);
  assign finished_o  = fin_q;
  assign code_o      = code_q;
  assign last_op_o   = op_q;
  assign cycles_o    = cyc_q;
  assign compute_o   = comp_q;
  assign io_o        = io_q;
  assign mu_o        = mu_q;
  assign ecmd_o      = '{op: eop_q, len: len_q, elen: eelen_q, arg: arg_q};
  assign eng_own_o   = (state_q == SEngCmd) || (state_q == SEngWait);
  assign eng_sel_o   = eng_q;
endmodule
