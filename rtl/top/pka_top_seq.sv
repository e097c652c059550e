// SPDX-License-Identifier: Apache-2.0
// pka_top_seq: the command sequencer of pka_top. It decodes a command, checks it, runs the top's
// own word-serial operations on the operand RAM, hands the other opcodes to an engine over the
// common boundary (giving that engine the RAM's word port, its 16 slots mapped onto the RAM's
// physical slots), and enforces the key-handling rules of doc/security.md.
//
// Own operations (one 32-bit word per RAM access, W = ceil(len/32) words, all counts exact):
//   NOP          done at once.
//   ZEROIZE      write 0 to every RAM word (also run after reset), clear MU, the taint, the key
//                binding and the key constants, then wipe every engine (OP_ZEROIZE to each; the
//                wipes are overhead, not compute): 2^PAw compute cycles.
//   MODADD       R = (A + B) mod N, MODSUB R = (A - B) mod N, for A, B < N (else ERR_OPERAND_RANGE):
//                a check pass (reads N, A, B: carries of A-N, B-N, A+B (A-B) and A+B-N (A-B+N)),
//                then a pass that writes the selected sum: 2 passes x 4 cycles per word = 8W.
//   MONT_PARAMS  W = 2^(2r) mod N into SLOT_W (r = ELEN, or 32W when ELEN = 0, b <= 2r, r <= MaxLen+256)
//                and MU = -N^-1 mod 2^64: a scan of N (bit length b, odd?; 2W cycles), the Hensel
//                lifting of N^-1 bit by bit (63 cycles), x = 2^(b-1) (W cycles), 2r-b+1 non-
//                restoring doublings x <- 2x - N (x >= 0) or 2x + N (x < 0), x kept in [-N, N) as W
//                words plus a sign flag (3W cycles each: read N, read x, write x), and a final
//                x + N if x < 0 (3W cycles). Total 2W + 63 + W + 3W(2r-b+1) [+ 3W].
//                The same program (without MU) makes the internal Montgomery constants of RSA_CRT.
//   MODINV       A^-1 mod N for prime N by Fermat on the engine: check pass (N odd, 0 < A < N;
//                3W), N - 2 (2W), engine MODEXP, copy R (2W), engine MODMUL (A*B), check R == 1
//                (2W; else ERR_NO_INVERSE, so a composite N is caught), copy to R (2W). Its scratch
//                is internal (slots T0, T1), so the host's slots other than R are left as they were.
//   ECC_CHECK    y^2 == x^3 + a x + b (mod p)? with N = p, A = x, B = y, X0 = a, X1 = b: range pass
//                (x, y < p; 4W), three engine MODMULs (y^2, x^2, x (x^2 + a)), two modular additions
//                (8W each, also checking a, b < p), copies (2W each) and a compare pass (3W);
//                ERR_NOT_ON_CURVE if not. Uses B, R, R_HI and X2 as scratch.
//   RSA_CRT      (on hscm) the engine's RSA_CRT with its constants made here, in internal slots:
//                R_p^3 mod p, R_q^3 mod q, p^-1 mod q (once per key; kept with the key and cleared
//                with it) and R_N^2 mod N (once per N); then the result is checked before release:
//                s^e mod N == m with the public exponent of SLOT_EPUB (engine MODEXP), else
//                ERR_FAULT with the result zeroized.
//   MODEXP, MODEXP_CT on a binary engine: the engine's operation, then, when SLOT_EPUB holds a
//                public exponent e, the same check R^e mod N == A before release.
// Key handling (doc/security.md): every RAM access while busy is watched. An operation that reads a
// secret slot (E, P, Q, DP, DQ, QINV, the key constants) or a tainted slot becomes secret; every slot
// it writes is then tainted and, at its end, zeroed, except its result (R, R_HI for two-word results)
// when it ends OK; the engine it used is wiped. Bus reads of tainted slots return 0 (pka_top). A
// bus write to E, DP, DQ or QINV binds them to the moduli present; a modulus write while bound first
// zeroizes the secret slots and the key constants (keyclr_i, no done pulse).
// ABORT (abort_i) holds the engines in reset, zeroizes everything (as ZEROIZE) and ends with
// ERR_ABORTED. The watchdog ends an engine command running past ((elen + 8) (W + 4)^2 << WdShift[e])
// + 2^16 cycles with ERR_TIMEOUT, the same way (reset, wipe, zeroize what the operation wrote).
// Every other opcode goes to the engine chosen by CMD.ENGINE (0: the first engine of the build in
// pka_top_pkg::EnginePrio order that serves it). Counters: cycles_o = cycles from the command to
// done, compute_o = engine cycles plus the sequencer's own pass cycles (clean-up passes, the EPUB
// scan and engine wipes are not compute), io_o = engine io_cycles.
`default_nettype none

module pka_top_seq
  import pka_pkg::*;
  import pka_top_pkg::*;
#(
  parameter int unsigned MaxLen = 4096,                // build maximum modulus bits, 32..4096
  parameter int unsigned SlotAw = 7,                   // words per slot = 2^SlotAw
  parameter logic [NumEng-1:0] EngMask = '0,           // engines present in the build (bit = id)
  parameter int unsigned MontK  = 0,                   // hscm's word k (its r = k ceil((n+2k+2)/k)); 0: none
  parameter int unsigned RnsW   = 0,                   // rns channel width (the size of its random Z); 0: none
  parameter int unsigned RnsLen = 0,                   // rns's longest modulus (<= MaxLen); 0: none
  parameter int unsigned InvWindow = 0,                // ECDSA_SIGN: hscm's MODEXP window for k^(n-2)
  parameter int unsigned Mwr4K  = 0,                   // mwr4's bits per digit (1, 2, 3); 0: none
  parameter int unsigned Mwr4Ns = 1,                   // mwr4's pipeline stages
  parameter bit          HasCsa2 = 1'b0,               // csa2 in the build (its r = n + 2)
  parameter bit          CrtBlind = 1'b0,              // hscm's RSA_CRT takes blinded exponents (ARG[31:24])
  parameter bit          EccBlind = 1'b0,              // rns's ECC_MUL takes a blinded scalar and a random Z
  parameter int unsigned WdShift [NumEng] = '{default: 5},  // watchdog bound scale per engine
  parameter bit          EnResultCheck = 1'b1,         // 0: release RSA_CRT/MODEXP results unchecked (the
                                                       // fault campaign's evidence build, never a product)
  parameter bit          TestExposeInternals = 1'b0,   // 1: tests only: the key constants in bus slots
                                                       // (X0..X2, W, B, A_HI, R_HI), no taint, no clean-up
  localparam int unsigned PAw   = SlotAw + PhysBits    // RAM word address width
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
  input  logic                      abort_i,        // CTRL.ABORT
  input  logic                      blind_off_i,    // CFG.BLIND_OFF
  // entropy (EDN-like: the request is held until an acknowledge brings one 32-bit word)
  output logic                      edn_req_o,
  input  logic                      edn_ack_i,
  input  logic [31:0]               edn_data_i,
  // bus events (while idle): a write to a slot window, a modulus write waiting for the key clear
  input  logic                      bw_valid_i,
  input  pslot_t                    bw_slot_i,
  input  logic                      keyclr_i,
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
  output logic                      bound_o,        // secret exponents held, bound to the moduli
  output logic [NumSlots-1:0]       taint_o,        // bus slots whose reads return 0
  // engines (common boundary, command side)
  output logic [NumEng-1:0]         ecmd_valid_o,
  input  logic [NumEng-1:0]         ecmd_ready_i,
  output eng_cmd_t                  ecmd_o,         // op, len, elen, arg (pka_pkg)
  input  eng_res_t [NumEng-1:0]     eres_i,         // done, status, cycles, io_cycles
  output logic                      eng_own_o,      // the RAM port belongs to engine eng_sel_o
  output logic [2:0]                eng_sel_o,
  output pslot_t [15:0]             map_o,          // engine slot -> physical slot
  output logic                      eng_rst_o,      // hold the engines in reset (registered)
  // every RAM access while busy (the sequencer's own and the engines')
  input  logic                      acc_req_i,
  input  logic                      acc_we_i,
  input  pslot_t                    acc_slot_i,
  // the sequencer's own RAM port (read data one cycle after a read)
  output logic                      mem_req_o,
  output logic                      mem_we_o,
  output logic [PAw-1:0]            mem_addr_o,
  output logic [31:0]               mem_wdata_o,
  input  logic [31:0]               mem_rdata_i
);
  localparam int unsigned MaxWords = MaxLen / 32;
  localparam int unsigned CntW     = PAw + 1;            // pass word counter (ZEROIZE: all words)
  localparam int unsigned MaxR     = MaxLen + 256;       // largest Montgomery exponent r accepted
  localparam int unsigned IterW    = $clog2(2 * MaxR + 2);
  localparam int unsigned WdW      = 48;                 // watchdog counter bits
  localparam int unsigned RstCycles = 4;                 // engine reset hold on abort / timeout
  // ECDSA_SIGN's RNS -> binary conversion of x (the Cox fraction of pka_rns_cox: q = 8 top bits)
  localparam int unsigned CoxQ  = 8;
  localparam int unsigned CoxSh = (RnsW >= CoxQ) ? RnsW - CoxQ : 0;
  localparam logic [32:0] ModTop = 33'd1 << RnsW;                  // 2^w: a channel modulus is 2^w - c
  localparam bit          EcdsaOk = (RnsW != 0) && (MontK != 0);   // rns and hscm in the build
  // the sequencer's watchdog over a whole command: four times the largest engine bound's scale
  function automatic int unsigned max_shift();
    int unsigned m;
    m = 0;
    for (int i = 0; i < int'(NumEng); i++) if (WdShift[i] > m) m = WdShift[i];
    return m;
  endfunction
  localparam int unsigned GwdShift = max_shift() + 2;
  // slots whose contents are secret by definition: the host's secret slots and the key constants
  localparam pmask_t SecretPhys = pmask_t'(SecretSlotMask) | KeyConstMask;
  localparam pmask_t SecretBus  = pmask_t'((1 << SLOT_E) | (1 << SLOT_P) | (1 << SLOT_Q) | (1 << SLOT_DP)
                                           | (1 << SLOT_DQ) | (1 << SLOT_QINV));
  localparam pmask_t BusSlots   = pmask_t'((1 << NumSlots) - 1);
  localparam pmask_t BoundSlots = pmask_t'((1 << SLOT_E) | (1 << SLOT_DP) | (1 << SLOT_DQ) | (1 << SLOT_QINV));

  // where the programs keep their internal values (TestExposeInternals: bus slots, for the test that
  // shows the factoring attack the internal slots prevent)
  localparam pslot_t SRp3  = TestExposeInternals ? pslot_t'(SLOT_X0)   : HsRp3;
  localparam pslot_t SRq3  = TestExposeInternals ? pslot_t'(SLOT_X1)   : HsRq3;
  localparam pslot_t SPinv = TestExposeInternals ? pslot_t'(SLOT_X2)   : HsPinv;
  localparam pslot_t SWp   = TestExposeInternals ? pslot_t'(SLOT_W)    : HsWp;
  localparam pslot_t SWq   = TestExposeInternals ? pslot_t'(SLOT_B)    : HsWq;
  localparam pslot_t ST0   = TestExposeInternals ? pslot_t'(SLOT_A_HI) : HsT0;
  localparam pslot_t ST2   = TestExposeInternals ? pslot_t'(SLOT_R_HI) : HsT2;

  initial begin
    if (MaxLen < 32 || MaxLen > 4096 || MaxLen % 32 != 0) $fatal(1, "MaxLen must be 32..4096, a multiple of 32");
    if ((1 << SlotAw) < MaxWords) $fatal(1, "SlotAw too small for MaxLen");
    if (NumSlots > int'(HsRp3)) $fatal(1, "the internal slots overlap the bus windows");
  end

  // ---- what the command does ------------------------------------------------------------------
  typedef enum logic [4:0] {KReset, KNop, KZero, KEng, KAdd, KSub, KMont, KInv, KChk, KCrt, KExp, KKeyClr,
                            KAbort, KBlk, KSign, KEcc, KEcd, KEcs} kind_e;
  typedef enum logic [4:0] {
    FnZero, FnScanN, FnAddChk, FnAdd, FnSubChk, FnSub, FnInitX, FnDbl, FnFix, FnInvChk, FnNm2,
    FnCopy, FnIsOne, FnEq, FnClr, FnRand, FnMac, FnLd
  } fn_e;
  typedef enum logic [3:0] {SPass, SIdle, SDecode, SNext, SMu, SEngCmd, SEngWait, SDone, SClean, SRst, SEnt} state_e;

  state_e            state_q, state_d;
  kind_e             kind_q, kind_d;
  // copies of the control registers a fault could use to skip a check or stall the command: the
  // program kind, the kind a MONT call returns to, the engine id, the engine reset; while a command
  // runs, a copy that differs ends it with ERR_FAULT (a program switched by a fault could skip its
  // checks; a flipped engine id or reset would wait for a done that never comes)
  kind_e             kindc_q, rkindc_q;
  logic [2:0]        engc_q;
  logic              erstc_q;
  logic [7:0]        cwordsc_q;             // the fault copy of cwords_q (a pass's length)
  logic [7:0]        op_q, op_d;
  logic [2:0]        eng_q, eng_d;          // engine of the command (0: none)
  logic              badeng_q, badeng_d;    // CMD.ENGINE names an engine not in the build
  logic [15:0]       len_q, len_d, elen_q, elen_d;
  logic [31:0]       arg_q, arg_d;
  logic [7:0]        words_q, words_d;      // W = ceil(len/32)
  logic [7:0]        cwords_q, cwords_d;    // words of the current pass's modulus
  logic [4:0]        step_q, step_d;
  logic [7:0]        code_q, code_d;
  logic              fin_q, fin_d;
  logic [31:0]       cyc_q, cyc_d, comp_q, comp_d, io_q, io_d;
  logic [63:0]       mu_q, mu_d;
  // engine command
  logic [7:0]        eop_q, eop_d;
  logic [15:0]       clen_q, clen_d, eelen_q, eelen_d;
  logic [31:0]       earg_q, earg_d;
  pslot_t [15:0]     map_q, map_d;
  logic              ewipe_q, ewipe_d;      // the engine command is a wipe (overhead, status ignored)
  logic              wmid_q, wmid_d;        // wipe the engine after this command and go on (RSA_CRT's
                                            // message blinding: no remnant of m in the engine)
  logic              eused_q, eused_d;      // the command ran an engine operation
  logic [WdW-1:0]    wd_q, wd_d, wdb_q, wdb_d;
  // the watchdog bounds (elen + 8)(words + 4)^2 2^shift + c, each over two registered products (no
  // path through two multipliers, nor from the bus through one): the command's from its lengths,
  // captured at the start (ga, gb); the engine command's from eelen and cwords, tracked each cycle
  // (wp, wc -> wdp) and taken into wdb in the engine's second waiting cycle. Until then a bound holds
  // all ones or an earlier value, which is at least its constant c (2^20, 2^16): never a few cycles
  logic [16:0]       ga_q, ga_d;            // elen + 8
  logic [8:0]        gb_q, gb_d;            // words + 4
  logic [25:0]       gp_q;                  // ga gb
  logic [25:0]       wp_q;                  // (eelen + 8)(cwords + 4)
  logic [8:0]        wc_q;                  // cwords + 4
  logic [WdW-1:0]    wdp_q;                 // the engine command's bound
  // a call of the MONT program from another program
  logic              ret_q, ret_d;
  kind_e             rkind_q, rkind_d;
  logic [4:0]        rstep_q, rstep_d;
  pslot_t            msrc_q, msrc_d, mdst_q, mdst_d;
  logic [16:0]       mr_q, mr_d;
  logic [15:0]       mlen_q, mlen_d;
  // word-serial pass
  fn_e               fn_q, fn_d;
  logic              ovh_q, ovh_d;          // the pass is overhead (clean-up, EPUB scan), not compute
  logic [CntW-1:0]   pidx_q, pidx_d, pwords_q, pwords_d;
  logic [1:0]        pph_q, pph_d;          // phase within a word: reads, then compute/write
  pslot_t            s0_q, s0_d, s1_q, s1_d, s2_q, s2_d, dst_q, dst_d;  // slots of the pass
  logic [31:0]       w0_q, w0_d, w1_q, w1_d;
  // the pass's write is posted: a word's result is registered and written in the next word's write
  // cycle (or in the cycle after the pass, which never touches the RAM), so no path runs from the
  // RAM's read port through the arithmetic into its write port; reads of the next word never name
  // the posted address (they read index pidx + 1, or pidx + 1 - 2 rnd for FnMac's multiplier)
  logic              wb_v_q, wb_v_d;
  logic [PAw-1:0]    wb_a_q, wb_a_d;
  logic [31:0]       wb_w_q, wb_w_d;
  logic [31:0]       m1_q, m1_d;            // FnMac: the multiplier's word (s1's, read first)
  logic [63:0]       pl_q, pl_d, ph_q, ph_d;  // FnMac: its products with r's low and high 32 bits
  logic              c1_q, c1_d, c2_q, c2_d, c3_q, c3_d, c4_q, c4_d;
  logic              sh_q, sh_d, neg_q, neg_d, sign_q, sign_d, sel_q, sel_d;
  logic              odd_q, odd_d, nz_q, nz_d, one_q, one_d;
  logic [7:0]        topw_q, topw_d;        // highest non-zero word of the scanned number
  logic [4:0]        toplz_q, toplz_d;      // its leading zeros
  logic [15:0]       ebits_q, ebits_d;      // bits of the public exponent in SLOT_EPUB
  logic [IterW-1:0]  iter_q, iter_d;
  // Hensel lifting of N^-1 mod 2^64
  logic [63:0]       n0_q, n0_d, y_q, y_d, t_q, t_d;
  logic [5:0]        mi_q, mi_d;
  // key handling
  pmask_t            taint_q, taint_d;      // slots written by secret operations
  pmask_t            wrm_q, wrm_d;          // slots written by the running command
  logic              osec_q, osec_d;        // the running command has read a secret
  logic              bound_q, bound_d;      // secret exponents written since the last clear
  logic              kc_q, kc_d;            // the key constants (HsRp3, HsRq3, HsPinv) are valid
  logic              wn_q, wn_d;            // HsWn is valid for the N in SLOT_N
  pmask_t            zm_q, zm_d;            // clean-up: slots still to zero
  logic [2:0]        cst_q, cst_d;          // clean-up step
  logic [1:0]        rcp_q, rcp_d;          // copies of the checked result: bit 0 R in HsRc0, bit 1 R_HI in HsRc1
  logic [15:0]       rcw_q, rcw_d;          // their words
  logic              inprog_q, inprog_d;    // a command is in progress (set at start, cleared at done)
  logic [WdW-1:0]    gwd_q, gwd_d;          // the command's own bound (the sequencer's watchdog)
  logic [2:0]        ze_q, ze_d;            // ZEROIZE: the next engine id to wipe
  logic [2:0]        rcnt_q, rcnt_d;        // engine reset hold
  logic              erst_q, erst_d;
  // blinding (doc/security.md, side channels)
  logic              blind_q, blind_d;      // blinding for this command (not CFG.BLIND_OFF)
  logic              bk_q, bk_d;            // the key's blinding pair (HsBa = u^e, HsBb = u^-1 mod N) is valid
  logic [63:0]       r64_q, r64_d;          // a 64-bit random from the entropy port
  logic              ecnt_q, ecnt_d;        // SEnt: words still to fetch - 1
  logic [64:0]       mc_q, mc_d;            // FnMac carry
  logic              msub_q, msub_d;        // FnMac: the multiplier is s1 - 1 (p - 1 from p)
  logic [1:0]        rnd_q, rnd_d;          // FnMac round (ECC_MUL's r of 64 (rnd + 1) bits): s1 at word 2 rnd, s0 whole
  logic [7:0]        rw_q, rw_d;            // FnRand: random words (above: zeros)
  logic              sbl_q, sbl_d;          // ECC_MUL: the scalar is blinded
  // ECDSA_SIGN (programs KEcd, KEcs; doc/top.md)
  pslot_t            ksrc_q, ksrc_d;        // KEcc: the slot of the scalar (SLOT_E; ECDSA_SIGN: its nonce k)
  logic              wo_q, wo_d;            // HsWn holds W = R^2 mod n for the order n in A_HI (not SLOT_N's)
  logic              mz_q, mz_d;            // FnMac: s0 reads as zero (dst = s1 r)
  logic [CntW-1:0]   zlim_q, zlim_d;        // add/sub passes: N and B words from zlim on read as zero
  logic              rmk_q, rmk_d;          // FnRand: the last random word keeps ELEN mod 32 bits
  logic [SlotAw-1:0] poff_q, poff_d;        // FnLd: the word of s0 it loads
  logic              ldsub_q, ldsub_d;      // FnLd: r64 = 2^RnsW - word (a channel modulus from its c)
  logic              ldcox_q, ldcox_d;      // FnLd: add the word's top CoxQ bits to cox
  logic [23:0]       cox_q, cox_d;          // the Cox sum of the B' half's xi' (alpha of the CRT)
  logic [7:0]        ch_q, ch_d;            // the CRT's channel
  logic              cv2_q, cv2_d;          // the conversion of x runs twice: this is the second
  logic [31:0]       dck_q, dck_d;          // FnInvChk: XOR of A's words (ECDSA_SIGN: d's check word)
  logic [31:0]       dref_q, dref_d;        // d's check word at the start

  // ---- helpers ------------------------------------------------------------------------------------
  function automatic logic [PAw-1:0] slot_addr(pslot_t slot, logic [SlotAw-1:0] word);
    return {slot, word};
  endfunction

  function automatic logic [1:0] fn_nsrc(fn_e fn);
    unique case (fn)
      FnZero, FnInitX, FnClr, FnRand:         return 2'd0;
      FnScanN, FnNm2, FnCopy, FnIsOne, FnLd:  return 2'd1;
      FnDbl, FnFix, FnInvChk, FnEq:           return 2'd2;
      default:                                return 2'd3;   // the add/sub passes: N, A, B; FnMac
    endcase
  endfunction

  // {carry, sum} of (x + y + ci) mod 2^32 + z + cj, the second addition of two chained ones, computed
  // beside the first: x + y + z + ci + cj in one carry chain after a 3:2 compressor, whose carries
  // out (0..2) are the first addition's carry cx plus the second's
  function automatic logic [32:0] add3(logic [31:0] x, logic [31:0] y, logic [31:0] z, logic ci,
                                       logic cj, logic cx);
    logic [31:0] sv, kv;
    logic [33:0] t;
    sv = x ^ y ^ z;
    kv = (x & y) | (x & z) | (y & z);
    t  = {2'b00, sv} + {1'b0, kv, cj} + 34'(ci);
    return {1'(t[33:32] - {1'b0, cx}), t[31:0]};
  endfunction

  function automatic logic [4:0] lzc32(logic [31:0] x);
    logic [4:0] n;
    n = 5'd0;
    for (int i = 0; i < 32; i++) begin
      if (x[i]) n = 5'(31 - i);
    end
    return n;
  endfunction

  function automatic logic [7:0] wordsof(logic [15:0] bits);
    return 8'((32'(bits) + 31) / 32);
  endfunction

  // hscm's Montgomery exponent for an n-bit modulus: r = k f, f = ceil((n + 2k + 2)/k)
  function automatic logic [16:0] hscm_r(logic [15:0] n);
    if (MontK == 0) return '0;
    return 17'(MontK * ((32'(n) + 2 * MontK + 2 + MontK - 1) / MontK));
  endfunction

  // rns: words of a residue vector over both bases (2 n channels, n = ceil((len + 8) / w))
  function automatic logic [15:0] rns_zwords(logic [15:0] len);
    if (RnsW == 0) return '0;
    return 16'(2 * ((32'(len) + 8 + RnsW - 1) / RnsW));
  endfunction

  // The Montgomery exponent r of engine e for an n-bit modulus (doc/top.md, pka.driver's profiles):
  // MONT_PARAMS with ELEN = 0xFFFF makes W = 2^(2r) mod N with it. 0: e takes no W (victor, rns).
  function automatic logic [16:0] engine_r(logic [2:0] e, logic [15:0] n);
    logic [31:0] dig;
    if (e == 3'(EngHscm) && MontK != 0) return hscm_r(n);
    if (e == 3'(EngCsa2) && HasCsa2) return 17'(n) + 17'd2;
    if (e == 3'(EngMwr4) && Mwr4K != 0) begin
      dig = (Mwr4K == 1) ? 32'(n) : (32'(n) + Mwr4K - 1) / Mwr4K;
      return 17'(Mwr4K * Mwr4Ns * ((dig + Mwr4Ns - 1) / Mwr4Ns));
    end
    return '0;
  endfunction

  // rns: channels per base and words of the per-rower table row (pka.model.rns.mm_context)
  function automatic logic [7:0] rns_ch(logic [15:0] len);
    return 8'(rns_zwords(len) >> 1);
  endfunction
  // ECDSA_SIGN: words of the CRT's sums (below n_ch 2^(n_ch w)), ceil(n_ch w / 32) + 1
  function automatic logic [7:0] crt_words(logic [15:0] len);
    return 8'((32'(rns_ch(len)) * RnsW + 31) / 32 + 1);
  endfunction

  function automatic pslot_t [15:0] map_identity();
    pslot_t [15:0] m;
    for (int i = 0; i < 16; i++) m[i] = pslot_t'(i);
    return m;
  endfunction

  // the lowest set bit of a slot mask
  function automatic pslot_t lowest(pmask_t m);
    pslot_t s;
    s = '0;
    for (int i = PhysSlots - 1; i >= 0; i--) begin
      if (m[i]) s = pslot_t'(i);
    end
    return s;
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

  // the result slots an operation makes readable when it ends OK
  function automatic pmask_t result_slots(logic [7:0] op);
    if (op == 8'(OP_MUL) || op == 8'(OP_ECC_MUL) || op == 8'(OP_ECDSA_SIGN)) return pmask_t'((1 << SLOT_R) | (1 << SLOT_R_HI));
    return pmask_t'(1 << SLOT_R);
  endfunction

  // ---- the watch on every RAM access of the command: secret reads, written slots ----------------
  // (merged into wrm_q / osec_q at the clock edge, so the state machine never waits on the RAM port)
  pmask_t acc_wr;
  logic   acc_sec;
  always_comb begin
    acc_wr = '0;
    acc_sec = 1'b0;
    if (state_q != SIdle && acc_req_i) begin
      if (acc_we_i) acc_wr[acc_slot_i] = 1'b1;
      else acc_sec = SecretPhys[acc_slot_i] || taint_q[acc_slot_i];
    end
  end

  // ---- the state machine --------------------------------------------------------------------------
  logic [1:0]  nsrc;
  logic        last_ph;
  logic [31:0] n_w, a_w, b_w;
  logic [32:0] s1, s2, s3, s4, v;
  logic [16:0] r_bits, b_bits;
  logic [2:0]  e_pick, e_exp, e_mul;
  state_e      fin_st;                 // where a program ends: the clean-up if it read a secret
  logic [15:0] lp, lq;                 // RSA_CRT: bits of p and q
  logic        stall;                // FnRand waits for an entropy word
  logic [96:0] mac;                  // FnMac: s0 + s1 * r + carry
  logic [CntW-1:0] midx;             // FnMac: the multiplier's word index, pidx - 2 rnd (s1's read address)

  always_comb begin
    state_d = state_q; kind_d = kind_q; op_d = op_q; eng_d = eng_q; badeng_d = badeng_q; len_d = len_q; elen_d = elen_q;
    arg_d = arg_q; words_d = words_q; cwords_d = cwords_q; step_d = step_q; code_d = code_q; fin_d = fin_q;
    cyc_d = cyc_q; comp_d = comp_q; io_d = io_q; mu_d = mu_q; eop_d = eop_q; clen_d = clen_q; eelen_d = eelen_q;
    earg_d = earg_q; map_d = map_q; ewipe_d = ewipe_q; wmid_d = wmid_q; eused_d = eused_q; wd_d = wd_q; wdb_d = wdb_q;
    ret_d = ret_q; rkind_d = rkind_q; rstep_d = rstep_q; msrc_d = msrc_q; mdst_d = mdst_q; mr_d = mr_q; mlen_d = mlen_q;
    fn_d = fn_q; ovh_d = ovh_q; pidx_d = pidx_q; pwords_d = pwords_q; pph_d = pph_q; s0_d = s0_q; s1_d = s1_q;
    s2_d = s2_q; dst_d = dst_q; w0_d = w0_q; w1_d = w1_q; wb_v_d = wb_v_q; wb_a_d = wb_a_q; wb_w_d = wb_w_q;
    m1_d = '0; pl_d = '0; ph_d = '0;     // FnMac's word and products live one cycle (secret words)
    c1_d = c1_q; c2_d = c2_q; c3_d = c3_q; c4_d = c4_q;
    sh_d = sh_q; neg_d = neg_q; sign_d = sign_q; sel_d = sel_q; odd_d = odd_q; nz_d = nz_q;
    one_d = one_q; topw_d = topw_q; toplz_d = toplz_q; ebits_d = ebits_q; iter_d = iter_q; n0_d = n0_q; y_d = y_q;
    t_d = t_q; mi_d = mi_q;
    taint_d = taint_q; wrm_d = wrm_q; osec_d = osec_q; bound_d = bound_q; kc_d = kc_q; wn_d = wn_q;
    zm_d = zm_q; cst_d = cst_q; ze_d = ze_q; rcnt_d = rcnt_q; erst_d = 1'b0;
    blind_d = blind_q; bk_d = bk_q; r64_d = r64_q; ecnt_d = ecnt_q; mc_d = mc_q; msub_d = msub_q; rnd_d = rnd_q; rw_d = rw_q;
    sbl_d = sbl_q; ksrc_d = ksrc_q; wo_d = wo_q; mz_d = mz_q; zlim_d = zlim_q; rmk_d = rmk_q; poff_d = poff_q;
    ldsub_d = ldsub_q; ldcox_d = ldcox_q; cox_d = cox_q; ch_d = ch_q; cv2_d = cv2_q; dck_d = dck_q; dref_d = dref_q;
    edn_req_o = 1'b0; stall = 1'b0; mac = '0;
    rcp_d = rcp_q; rcw_d = rcw_q; inprog_d = inprog_q; gwd_d = gwd_q; ga_d = ga_q; gb_d = gb_q;
    mem_req_o = 1'b0; mem_we_o = 1'b0; mem_addr_o = '0; mem_wdata_o = '0;
    done_o = 1'b0;
    nsrc = fn_nsrc(fn_q);
    last_ph = (pph_q == nsrc);
    n_w = '0; a_w = '0; b_w = '0; s1 = '0; s2 = '0; s3 = '0; s4 = '0; v = '0;
    midx = pidx_q - CntW'({rnd_q, 1'b0});
    r_bits = '0; b_bits = '0;
    e_pick = pick(op_q[3:0], {1'b0, eng_q}, 1'b0);
    e_exp = pick(4'(OP_MODEXP), {1'b0, eng_q}, 1'b1);
    e_mul = pick(4'(OP_MODMUL), {1'b0, eng_q}, 1'b1);
    fin_st = osec_q ? SClean : SDone;
    lp = elen_q;
    lq = arg_q[15:0];
    if (state_q != SIdle) gwd_d = (WdW'(35'(gp_q) * 35'(gb_q)) << GwdShift) + WdW'(1 << 20);

    if (state_q != SIdle) cyc_d = cyc_q + 1;

    // ---- bus writes while idle: binding, invalidation of constants, untaint ------------------------
    if (state_q == SIdle && bw_valid_i) begin
      taint_d[bw_slot_i] = 1'b0;
      if (BoundSlots[bw_slot_i]) bound_d = 1'b1;
      if (bw_slot_i == pslot_t'(SLOT_P) || bw_slot_i == pslot_t'(SLOT_Q)) begin
        kc_d = 1'b0; bk_d = 1'b0;
      end
      if (bw_slot_i == pslot_t'(SLOT_N)) wn_d = 1'b0;
      if (bw_slot_i == pslot_t'(SLOT_A_HI)) wo_d = 1'b0;
    end

    unique case (state_q)
      SIdle: begin
        if (inprog_q) begin
          // idle with a command in progress and no done given: the state was corrupted (a fault);
          // end it as an abort does, with ERR_FAULT
          kind_d = KAbort; code_d = ST_ERR_FAULT; rcnt_d = 3'(RstCycles); state_d = SRst; ret_d = 1'b0; wmid_d = 1'b0;
          cst_d = '0; fin_d = 1'b0;
        end else if (keyclr_i) begin
          // a modulus write while secrets are bound: zeroize the secret slots and key constants first
          kind_d = KKeyClr; step_d = '0; cyc_d = '0; state_d = SNext;
          zm_d = SecretBus | KeyConstMask;
        end else if (start_i) begin
          op_d = op_i; len_d = len_i; elen_d = elen_i; arg_d = arg_i;
          eng_d = (eng_i < 4'(NumEng)) ? eng_i[2:0] : 3'd0;
          words_d = wordsof(len_i); cwords_d = wordsof(len_i);
          kind_d = KNop; step_d = '0; fin_d = 1'b0; cyc_d = '0; comp_d = '0; io_d = '0; code_d = ST_OK;
          wrm_d = '0; osec_d = 1'b0; eused_d = 1'b0; ret_d = 1'b0; ovh_d = 1'b0; wmid_d = 1'b0;
          blind_d = !blind_off_i; sbl_d = 1'b0; rcp_d = '0; inprog_d = 1'b1; ksrc_d = pslot_t'(SLOT_E);
          ga_d = 17'(elen_i) + 17'd8; gb_d = 9'(wordsof(len_i)) + 9'd4; gwd_d = '1;
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
        end else if ((eng_q == 3'd0 && OpsNative[op_q[3:0]])
                     || (op_q == 8'(OP_MONT_PARAMS) && elen_q == 16'hFFFF)) begin   // (an engine's r)
          unique case (op_q)
            8'(OP_NOP):         kind_d = KNop;
            8'(OP_ZEROIZE):     kind_d = KZero;
            8'(OP_MODADD):      kind_d = KAdd;
            8'(OP_MODSUB):      kind_d = KSub;
            default: begin
              // ELEN = 0xFFFF: the r of the engine named, or of the one MODMUL's dispatch picks
              kind_d = KMont; msrc_d = pslot_t'(SLOT_N); mdst_d = pslot_t'(SLOT_W); mlen_d = len_q;
              mr_d = (elen_q == 16'hFFFF) ? engine_r(e_mul, len_q)
                   : (elen_q != 16'd0) ? {1'b0, elen_q} : 17'(32 * 32'(words_q));
              if (elen_q == 16'hFFFF && engine_r(e_mul, len_q) == '0) begin
                code_d = ST_ERR_UNSUPPORTED; state_d = SDone;
              end
            end
          endcase
        end else if (e_pick != 3'd0) begin
          eng_d = e_pick;
          if (op_q == 8'(OP_RSA_CRT) && e_pick == 3'(EngHscm) && MontK != 0) kind_d = KCrt;
          else if (op_q == 8'(OP_ECC_MUL) && e_pick == 3'(EngRns) && RnsW != 0) kind_d = KEcc;
          else if ((op_q == 8'(OP_MODEXP) || op_q == 8'(OP_MODEXP_CT)) && engine_binary(int'(e_pick))) kind_d = KExp;
          else kind_d = KEng;
        end else if (op_q == 8'(OP_ECDSA_SIGN) && eng_q == 3'd0 && EcdsaOk) begin
          kind_d = KEcd; eng_d = 3'(EngHscm);
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
              || (op_q != 8'(OP_MONT_PARAMS) && 32'(elen_q) > 32 * (1 << SlotAw))
              // rns may be built shorter than the others (pka_top's RnsMaxLen): its operations and
              // ECDSA_SIGN's k G are refused before anything runs
              || ((eng_d == 3'(EngRns) || kind_d == KEcd) && 32'(len_q) > RnsLen)) begin
            code_d = ST_ERR_LENGTH; state_d = SDone;
          end
        end
      end

      SNext: begin
        step_d = step_q + 1;
        // defaults for a new pass: sources N, A, B, destination R; the identity slot map
        pidx_d = '0; pph_d = '0; pwords_d = CntW'(cwords_q); ovh_d = 1'b0;
        s0_d = pslot_t'(SLOT_N); s1_d = pslot_t'(SLOT_A); s2_d = pslot_t'(SLOT_B); dst_d = pslot_t'(SLOT_R);
        c1_d = 1'b1; c2_d = 1'b1; c3_d = 1'b0; c4_d = 1'b1; sh_d = 1'b0;
        map_d = map_identity(); ewipe_d = 1'b0;
        clen_d = len_q; eelen_d = elen_q; earg_d = arg_q;
        mz_d = 1'b0; zlim_d = '1; rmk_d = 1'b0;
        unique case (kind_q)
          KReset: state_d = SIdle;            // the clear after reset is over
          KNop: state_d = SDone;
          KZero, KAbort: begin
            // ZEROIZE (and the end of an abort): the whole RAM, the key state, then every engine
            if (step_q == 5'd0) begin
              fn_d = FnZero; pwords_d = CntW'(1 << PAw); state_d = SPass;
              ovh_d = (kind_q == KAbort);
            end else if (step_q == 5'd1) begin
              mu_d = '0; taint_d = '0; bound_d = 1'b0; kc_d = 1'b0; bk_d = 1'b0; wn_d = 1'b0; wo_d = 1'b0; ze_d = 3'd1;
            end else if (ze_q != 3'd0) begin
              // wipe the engines one by one (ids 1..NumEng-1), then done
              step_d = step_q;
              ze_d = ze_q + 1;
              if (EngMask[ze_q]) begin
                eng_d = ze_q; eop_d = 8'(OP_ZEROIZE); eelen_d = '0; ewipe_d = 1'b1; state_d = SEngCmd;
              end
            end else begin
              state_d = SDone;            // (an abort's code is set when it starts)
            end
          end
          KKeyClr: begin
            // zero the secret slots and the key constants, one slot at a time (no done pulse)
            if (zm_q != '0) begin
              step_d = step_q;
              dst_d = lowest(zm_q); zm_d[lowest(zm_q)] = 1'b0;
              fn_d = FnClr; pwords_d = CntW'(1 << SlotAw); ovh_d = 1'b1; state_d = SPass;
            end else begin
              bound_d = 1'b0; kc_d = 1'b0; bk_d = 1'b0;
              taint_d = taint_q & ~(SecretBus | KeyConstMask);
              state_d = SIdle;
            end
          end
          KEng: begin
            if (step_q == 5'd0) begin
              eop_d = op_q; state_d = SEngCmd;
            end else state_d = fin_st;
          end
          KExp: begin
            // MODEXP / MODEXP_CT on a binary engine, then the check against SLOT_EPUB when it holds e
            unique case (step_q)
              5'd0: begin
                fn_d = FnScanN; s0_d = pslot_t'(SLOT_EPUB); nz_d = 1'b0; topw_d = '0; toplz_d = '0;
                ovh_d = 1'b1; state_d = SPass;
              end
              5'd1: begin
                ebits_d = nz_q ? 16'(32 * 32'(topw_q) + 32 - 32'(toplz_q)) : 16'd0;
                if (blind_q && op_q == 8'(OP_MODEXP_CT) && arg_q[31]) begin
                  // exponent blinding with the group order in B: E + r ord, 64 bits longer
                  ecnt_d = 1'b1; state_d = SEnt; step_d = 5'd6;
                end else begin
                  eop_d = op_q; state_d = SEngCmd; earg_d = {1'b0, arg_q[30:0]};
                end
              end
              5'd2: begin
                if (ebits_q == 16'd0 || !EnResultCheck) state_d = fin_st;   // nothing to check with
                else begin
                  fn_d = FnCopy; s0_d = pslot_t'(SLOT_R); dst_d = HsRc0; state_d = SPass; ovh_d = 1'b1;
                  rcp_d = 2'b01; rcw_d = 16'(words_q);
                end
              end
              5'd3: begin
                eop_d = 8'(OP_MODEXP); eelen_d = ebits_q; earg_d = '0; state_d = SEngCmd;
                map_d[SLOT_A] = pslot_t'(SLOT_R); map_d[SLOT_E] = pslot_t'(SLOT_EPUB); map_d[SLOT_R] = HsT4;
              end
              5'd4: begin
                fn_d = FnEq; s0_d = HsT4; s1_d = pslot_t'(SLOT_A); one_d = 1'b1; state_d = SPass;
              end
              5'd5: begin
                if (!one_q) code_d = ST_ERR_FAULT;
                state_d = fin_st;
              end
              5'd6: begin
                cwords_d = wordsof(elen_q);
                fn_d = FnMac; s0_d = pslot_t'(SLOT_E); s1_d = pslot_t'(SLOT_B); dst_d = HsT0; msub_d = 1'b0;
                mc_d = '0; pwords_d = CntW'(wordsof(elen_q)) + CntW'(3); state_d = SPass;
              end
              5'd7: begin
                cwords_d = words_q;
                eop_d = op_q; eelen_d = elen_q + 16'd64; earg_d = {1'b0, arg_q[30:0]}; state_d = SEngCmd;
                map_d[SLOT_E] = HsT0; step_d = 5'd2;
              end
              default: state_d = fin_st;
            endcase
          end
          KAdd, KSub: begin
            unique case (step_q)
              5'd0: begin
                fn_d = (kind_q == KAdd) ? FnAddChk : FnSubChk; state_d = SPass;
                c3_d = (kind_q == KSub); c4_d = (kind_q == KAdd);
              end
              5'd1: begin
                if (c1_q || c2_q) begin
                  code_d = ST_ERR_OPERAND_RANGE; state_d = fin_st;
                end else begin
                  sel_d = (kind_q == KAdd) ? (c3_q | c4_q) : !c3_q;
                  fn_d = (kind_q == KAdd) ? FnAdd : FnSub; state_d = SPass;
                  c3_d = (kind_q == KSub); c4_d = (kind_q == KAdd);
                end
              end
              default: state_d = fin_st;
            endcase
          end
          KMont: begin
            // W = 2^(2 mr) mod M into mdst for the modulus M in msrc (mlen bits); MU only for the
            // MONT_PARAMS command itself (ret = 0), never for the internal constants of a secret key
            pwords_d = CntW'(cwords_q); s0_d = msrc_q;
            unique case (step_q)
              5'd0: begin
                fn_d = FnScanN; odd_d = 1'b0; nz_d = 1'b0; topw_d = '0; toplz_d = '0; n0_d = '0;
                state_d = SPass;
              end
              5'd1: begin
                b_bits = 17'(32 * 32'(topw_q) + 32 - 32'(toplz_q));
                r_bits = mr_q;
                if (!odd_q) begin
                  code_d = ST_ERR_EVEN_MODULUS; state_d = fin_st;
                end else if (b_bits <= 17'd1 || b_bits > {1'b0, mlen_q}) begin
                  code_d = ST_ERR_OPERAND_RANGE; state_d = fin_st;
                end else if (2 * 32'(r_bits) < 32'(b_bits) || 32'(r_bits) > MaxR) begin
                  code_d = ST_ERR_LENGTH; state_d = fin_st;
                end else begin
                  iter_d = IterW'(2 * 32'(r_bits) - 32'(b_bits) + 1);
                  y_d = 64'd1; t_d = n0_q >> 1; mi_d = 6'd1;
                  state_d = ret_q ? SNext : SMu;
                end
              end
              5'd2: begin
                fn_d = FnInitX; sign_d = 1'b0; dst_d = mdst_q; state_d = SPass;
              end
              5'd3: begin
                if (iter_q != '0) begin
                  fn_d = FnDbl; neg_d = !sign_q; c3_d = !sign_q; state_d = SPass;
                  s1_d = mdst_q; dst_d = mdst_q;
                  iter_d = iter_q - 1; step_d = step_q;   // stay here until all doublings are done
                end else if (sign_q || ret_q) begin
                  // x + N when x < 0; for a secret modulus (a call from another program) the pass runs
                  // always and writes x back unchanged when x >= 0: a constant count
                  fn_d = FnFix; c3_d = 1'b0; state_d = SPass;
                  s1_d = mdst_q; dst_d = mdst_q;
                end else state_d = fin_st;
              end
              default: begin
                if (ret_q) begin
                  kind_d = rkind_q; step_d = rstep_q; ret_d = 1'b0;
                end else state_d = fin_st;
              end
            endcase
          end
          KCrt: begin
            // RSA_CRT on hscm with its constants made here (doc/security.md): once per key R_p^3 mod p,
            // R_q^3 mod q, p^-1 mod q, once per N R_N^2 mod N; the engine's RSA_CRT; s^e == m? with e
            // from SLOT_EPUB; R released only if so.
            unique case (step_q)
              5'd0: begin
                fn_d = FnScanN; s0_d = pslot_t'(SLOT_EPUB); nz_d = 1'b0; topw_d = '0; toplz_d = '0;
                ovh_d = 1'b1; state_d = SPass;
              end
              5'd1: begin
                ebits_d = 16'(32 * 32'(topw_q) + 32 - 32'(toplz_q));
                if (!nz_q) begin
                  code_d = ST_ERR_OPERAND_RANGE; state_d = fin_st;    // no public exponent to check with
                end else if (lp == 16'd0 || lq == 16'd0 || wordsof(lp) != wordsof(lq)
                             || 32'(lp) > MaxLen / 2 || 32'(lq) > MaxLen / 2) begin
                  code_d = ST_ERR_LENGTH; state_d = fin_st;
                end else if (kc_q) begin
                  step_d = 5'd10;                                     // the key's constants are there
                end
              end
              // ---- key constants of p: R mod p, R^2 mod p, R^3 = MODMUL(R^2, R) mod p
              5'd2: begin
                cwords_d = wordsof(lp);
                kind_d = KMont; step_d = '0; ret_d = 1'b1; rkind_d = KCrt; rstep_d = 5'd3;
                msrc_d = pslot_t'(SLOT_P); mdst_d = ST0; mlen_d = lp; mr_d = hscm_r(lp) >> 1;
              end
              5'd3: begin
                kind_d = KMont; step_d = '0; ret_d = 1'b1; rkind_d = KCrt; rstep_d = 5'd4;
                msrc_d = pslot_t'(SLOT_P); mdst_d = SWp; mlen_d = lp; mr_d = hscm_r(lp);
              end
              5'd4: begin
                eop_d = 8'(OP_MODMUL); clen_d = lp; eelen_d = '0; earg_d = '0; state_d = SEngCmd;
                map_d[SLOT_N] = pslot_t'(SLOT_P); map_d[SLOT_A] = SWp; map_d[SLOT_B] = ST0;
                map_d[SLOT_W] = SWp; map_d[SLOT_R] = SRp3;
              end
              // ---- the same for q
              5'd5: begin
                cwords_d = wordsof(lq);
                kind_d = KMont; step_d = '0; ret_d = 1'b1; rkind_d = KCrt; rstep_d = 5'd6;
                msrc_d = pslot_t'(SLOT_Q); mdst_d = ST0; mlen_d = lq; mr_d = hscm_r(lq) >> 1;
              end
              5'd6: begin
                kind_d = KMont; step_d = '0; ret_d = 1'b1; rkind_d = KCrt; rstep_d = 5'd7;
                msrc_d = pslot_t'(SLOT_Q); mdst_d = SWq; mlen_d = lq; mr_d = hscm_r(lq);
              end
              5'd7: begin
                eop_d = 8'(OP_MODMUL); clen_d = lq; eelen_d = '0; earg_d = '0; state_d = SEngCmd;
                map_d[SLOT_N] = pslot_t'(SLOT_Q); map_d[SLOT_A] = SWq; map_d[SLOT_B] = ST0;
                map_d[SLOT_W] = SWq; map_d[SLOT_R] = SRq3;
              end
              // ---- p^-1 mod q = (p mod q)^(q-2) mod q (MODRED, then the constant-time ladder)
              5'd8: begin
                fn_d = FnClr; dst_d = HsT1; state_d = SPass;                   // A_HI = 0
              end
              5'd9: begin
                eop_d = 8'(OP_MODRED); clen_d = lq; eelen_d = '0; earg_d = '0; state_d = SEngCmd;
                map_d[SLOT_N] = pslot_t'(SLOT_Q); map_d[SLOT_A] = pslot_t'(SLOT_P); map_d[SLOT_A_HI] = HsT1;
                map_d[SLOT_W] = SWq; map_d[SLOT_R] = ST2;
              end
              5'd10: begin
                if (kc_q) begin
                  step_d = 5'd14;
                end else begin
                  fn_d = FnNm2; s0_d = pslot_t'(SLOT_Q); dst_d = HsT3; c3_d = 1'b1; state_d = SPass;
                end
              end
              5'd11: begin
                eop_d = 8'(OP_MODEXP_CT); clen_d = lq; eelen_d = lq; earg_d = '0; state_d = SEngCmd;
                map_d[SLOT_N] = pslot_t'(SLOT_Q); map_d[SLOT_A] = ST2; map_d[SLOT_E] = HsT3;
                map_d[SLOT_W] = SWq; map_d[SLOT_R] = SPinv;
              end
              5'd12: begin
                kc_d = 1'b1; cwords_d = words_q;
              end
              5'd13: ;
              // ---- R_N^2 mod N (public, kept while N is)
              5'd14: begin
                cwords_d = words_q;
                if (!wn_q) begin
                  kind_d = KMont; step_d = '0; ret_d = 1'b1; rkind_d = KCrt; rstep_d = 5'd15;
                  msrc_d = pslot_t'(SLOT_N); mdst_d = HsWn; mlen_d = len_q; mr_d = hscm_r(len_q);
                end
              end
              5'd15: begin
                wn_d = 1'b1; wo_d = 1'b0;
                kind_d = (blind_q && CrtBlind && !bk_q) ? KBlk : KSign; step_d = '0;
              end
              default: state_d = fin_st;
            endcase
          end
          KBlk: begin
            // the key's blinding pair (Kocher): u random (W - 1 words, so u < N), HsBb = u^-1 mod N by
            // the engine's RSA_CRT with the exponents p - 2 and q - 2 (Fermat in each half, CRT), HsBa =
            // u^e mod N; kept with the key, squared after every signature
            unique case (step_q)
              5'd0: begin
                fn_d = FnRand; dst_d = HsBa; rw_d = words_q - 8'd1; state_d = SPass;
              end
              5'd1: begin
                cwords_d = wordsof(lp);
                fn_d = FnNm2; s0_d = pslot_t'(SLOT_P); dst_d = HsT0; c3_d = 1'b1; pwords_d = CntW'(wordsof(lp));
                state_d = SPass;
              end
              5'd2: begin
                cwords_d = wordsof(lq);
                fn_d = FnNm2; s0_d = pslot_t'(SLOT_Q); dst_d = HsT1; c3_d = 1'b1; pwords_d = CntW'(wordsof(lq));
                state_d = SPass;
              end
              5'd3: begin
                cwords_d = words_q;
                eop_d = 8'(OP_RSA_CRT); earg_d = {16'd0, lq}; state_d = SEngCmd;
                map_d[SLOT_A] = HsBa; map_d[SLOT_DP] = HsT0; map_d[SLOT_DQ] = HsT1;
                map_d[SLOT_X0] = SRp3; map_d[SLOT_X1] = SRq3; map_d[SLOT_X2] = SPinv; map_d[SLOT_R] = HsBb;
              end
              5'd4: begin
                eop_d = 8'(OP_MODEXP); eelen_d = ebits_q; earg_d = '0; state_d = SEngCmd;
                map_d[SLOT_A] = HsBa; map_d[SLOT_E] = pslot_t'(SLOT_EPUB); map_d[SLOT_W] = HsWn;
                map_d[SLOT_R] = HsT2;
              end
              5'd5: begin
                fn_d = FnCopy; s0_d = HsT2; dst_d = HsBa; state_d = SPass;
              end
              default: begin
                bk_d = 1'b1; kind_d = KSign; step_d = '0;
              end
            endcase
          end
          KSign: begin
            // the signature: unblinded, the engine's RSA_CRT on A; blinded, m' = m u^e, exponents
            // dp + r_p (p - 1), dq + r_q (q - 1) with fresh 64-bit r, s = s' u^-1, the pair squared;
            // then the check s^e mod N == m before R is released
            unique case (step_q)
              5'd0: begin
                if (!blind_q || !CrtBlind) begin
                  eop_d = 8'(OP_RSA_CRT); state_d = SEngCmd; step_d = 5'd11; earg_d = {8'd0, arg_q[23:0]};
                  map_d[SLOT_X0] = SRp3; map_d[SLOT_X1] = SRq3; map_d[SLOT_X2] = SPinv;
                end else begin
                  eop_d = 8'(OP_MODMUL); eelen_d = '0; earg_d = '0; state_d = SEngCmd;
                  map_d[SLOT_B] = HsBa; map_d[SLOT_W] = HsWn; map_d[SLOT_R] = HsT0;
                  // the engine is wiped after m u^e: the unblinded (public) message and its Montgomery
                  // forms stay in its registers and RAM otherwise, and the RSA_CRT that follows
                  // overwrites them, a Hamming distance that depends on m (the TVLA finds it,
                  // doc/security.md); the wipe is overhead, not COMPUTE
                  wmid_d = 1'b1;
                end
              end
              5'd1: begin
                ecnt_d = 1'b1; state_d = SEnt;
              end
              5'd2: begin
                cwords_d = wordsof(lp);
                fn_d = FnMac; s0_d = pslot_t'(SLOT_DP); s1_d = pslot_t'(SLOT_P); dst_d = HsT1; msub_d = 1'b1;
                mc_d = '0; pwords_d = CntW'(wordsof(lp)) + CntW'(3); state_d = SPass;
              end
              5'd3: begin
                ecnt_d = 1'b1; state_d = SEnt;
              end
              5'd4: begin
                cwords_d = wordsof(lq);
                fn_d = FnMac; s0_d = pslot_t'(SLOT_DQ); s1_d = pslot_t'(SLOT_Q); dst_d = HsT2; msub_d = 1'b1;
                mc_d = '0; pwords_d = CntW'(wordsof(lq)) + CntW'(3); state_d = SPass;
              end
              5'd5: begin
                cwords_d = words_q;
                eop_d = 8'(OP_RSA_CRT); earg_d = {8'd64, arg_q[23:0]}; state_d = SEngCmd;
                map_d[SLOT_A] = HsT0; map_d[SLOT_DP] = HsT1; map_d[SLOT_DQ] = HsT2;
                map_d[SLOT_X0] = SRp3; map_d[SLOT_X1] = SRq3; map_d[SLOT_X2] = SPinv; map_d[SLOT_R] = HsT3;
              end
              5'd6: begin
                eop_d = 8'(OP_MODMUL); eelen_d = '0; earg_d = '0; state_d = SEngCmd;
                map_d[SLOT_A] = HsT3; map_d[SLOT_B] = HsBb; map_d[SLOT_W] = HsWn;
              end
              5'd7: begin
                eop_d = 8'(OP_MODMUL); eelen_d = '0; earg_d = '0; state_d = SEngCmd;
                map_d[SLOT_A] = HsBa; map_d[SLOT_B] = HsBa; map_d[SLOT_W] = HsWn; map_d[SLOT_R] = HsT4;
              end
              5'd8: begin
                fn_d = FnCopy; s0_d = HsT4; dst_d = HsBa; state_d = SPass;
              end
              5'd9: begin
                eop_d = 8'(OP_MODMUL); eelen_d = '0; earg_d = '0; state_d = SEngCmd;
                map_d[SLOT_A] = HsBb; map_d[SLOT_B] = HsBb; map_d[SLOT_W] = HsWn; map_d[SLOT_R] = HsT4;
              end
              5'd10: begin
                fn_d = FnCopy; s0_d = HsT4; dst_d = HsBb; state_d = SPass;
              end
              5'd11: begin
                // a copy of the result before its check, compared with R at the very end
                fn_d = FnCopy; s0_d = pslot_t'(SLOT_R); dst_d = HsRc0; state_d = SPass; ovh_d = 1'b1;
                rcp_d = 2'b01; rcw_d = 16'(words_q);
              end
              // ---- the check: s^e mod N == m?
              5'd12: begin
                if (!EnResultCheck) state_d = fin_st;
                else begin
                  eop_d = 8'(OP_MODEXP); eelen_d = ebits_q; earg_d = '0; state_d = SEngCmd;
                  map_d[SLOT_A] = pslot_t'(SLOT_R); map_d[SLOT_E] = pslot_t'(SLOT_EPUB);
                  map_d[SLOT_W] = HsWn; map_d[SLOT_R] = HsT4;
                end
              end
              5'd13: begin
                fn_d = FnEq; s0_d = HsT4; s1_d = pslot_t'(SLOT_A); one_d = 1'b1; state_d = SPass;
              end
              default: begin
                if (!one_q) code_d = ST_ERR_FAULT;
                state_d = fin_st;
              end
            endcase
          end
          KEcc: begin
            // ECC_MUL on rns: blinded, the scalar k + r n (r of 64 (ARG[5:4] + 1) bits, one 64-bit
            // FnMac round per 64 bits, round j adding n r_j 2^(64 j); n the group order in A_HI;
            // none when A_HI = 0, e.g. X25519, whose twist points have another order) and a random Z
            // (the engine reads its random words from its slot P, ARG[1]). Called from ECDSA_SIGN (ret):
            // the scalar from ksrc, the checked ladder (ARG[5:4] kept, the other bits 0), the engine
            // wiped after it, no result copies; then back to the caller.
            unique case (step_q)
              5'd0: begin
                rnd_d = '0;
                if (!blind_q || !EccBlind) begin
                  eop_d = 8'(OP_ECC_MUL); state_d = SEngCmd; step_d = 5'd9; map_d[SLOT_E] = ksrc_q;
                  if (ret_q) begin
                    earg_d = {26'd0, arg_q[5:4], 4'd0}; wmid_d = 1'b1;
                  end
                end else begin
                  fn_d = FnScanN; s0_d = pslot_t'(SLOT_A_HI); nz_d = 1'b0; topw_d = '0; toplz_d = '0;
                  ovh_d = 1'b1; state_d = SPass;
                end
              end
              5'd1: begin
                if (nz_q) begin
                  ecnt_d = 1'b1; state_d = SEnt; sbl_d = 1'b1;
                end else step_d = 5'd3;
              end
              5'd2: begin
                // every round writes the final length, W + 2 (rounds) + 1 words (zeros above the sum)
                cwords_d = wordsof(elen_q);
                fn_d = FnMac; s0_d = (rnd_q == '0) ? ksrc_q : HsT0; s1_d = pslot_t'(SLOT_A_HI);
                dst_d = HsT0; msub_d = 1'b0;
                mc_d = '0; pwords_d = CntW'(wordsof(elen_q)) + CntW'({arg_q[5:4], 1'b0}) + CntW'(3); state_d = SPass;
              end
              5'd3: begin
                if (sbl_q && rnd_q != arg_q[5:4]) begin
                  // the next 64 bits of r: a fresh random, then the next round
                  rnd_d = rnd_q + 2'd1; ecnt_d = 1'b1; state_d = SEnt; step_d = 5'd2;
                end else begin
                  cwords_d = words_q;
                  fn_d = FnRand; dst_d = HsT1; rw_d = 8'(rns_zwords(len_q)); pwords_d = CntW'(rns_zwords(len_q));
                  state_d = SPass;
                end
              end
              5'd4: begin
                rnd_d = '0;
                eop_d = 8'(OP_ECC_MUL); state_d = SEngCmd; earg_d = (ret_q ? {26'd0, arg_q[5:4], 4'd0} : arg_q) | 32'd2;
                eelen_d = sbl_q ? elen_q + 16'd64 + 16'({arg_q[5:4], 6'd0}) : elen_q;
                map_d[SLOT_P] = HsT1;
                map_d[SLOT_E] = sbl_q ? HsT0 : ksrc_q;
                wmid_d = ret_q;
              end
              // the engine checked its point before the store: copies of R and R_HI, compared with
              // them at the very end (a fault that changes them afterwards is caught)
              5'd9, 5'd5: begin
                if (ret_q) begin
                  kind_d = rkind_q; step_d = rstep_q; ret_d = 1'b0;
                end else if (!EnResultCheck) state_d = fin_st;
                else begin
                  fn_d = FnCopy; s0_d = pslot_t'(SLOT_R); dst_d = HsRc0; state_d = SPass; ovh_d = 1'b1; step_d = 5'd6;
                  rcp_d = 2'b11; rcw_d = rns_zwords(len_q); pwords_d = CntW'(rns_zwords(len_q));
                end
              end
              5'd6: begin
                fn_d = FnCopy; s0_d = pslot_t'(SLOT_R_HI); dst_d = HsRc1; state_d = SPass; ovh_d = 1'b1;
                pwords_d = CntW'(rns_zwords(len_q));
              end
              default: state_d = fin_st;
            endcase
          end
          KEcd: begin
            // ECDSA_SIGN, part 1 (doc/top.md): checks, W = R^2 mod n (kept while A_HI is), the nonce
            // k by rejection (1 <= k < n), k^-1 = k^(n-2) mod n (hscm), k G (KEcc, rns), then x from
            // the B' half of R (RNS -> binary: A = sum xi'_j M'_j by prefix products over the channels,
            // minus alpha M' with alpha from the Cox sum), x mod p (twice, compared), r = x mod n into R.
            // N = p (whole, binary), A_HI = n, E = d, EPUB = h; ELEN = LEN = bits(n). ARG[8]: the nonce
            // is the host's, in SLOT_P (write-only; an RFC 6979 nonce), checked 1 <= k < n.
            unique case (step_q)
              5'd0: begin
                if (elen_q != len_q) begin
                  code_d = ST_ERR_LENGTH; state_d = fin_st;
                end else begin
                  fn_d = FnInvChk; s0_d = pslot_t'(SLOT_A_HI); s1_d = pslot_t'(SLOT_E); odd_d = 1'b0; nz_d = 1'b0;
                  dck_d = '0; state_d = SPass;                                     // n odd, 0 < d < n
                end
              end
              5'd1: begin
                dref_d = dck_q;                                                      // d's check word
                if (!odd_q) begin
                  code_d = ST_ERR_EVEN_MODULUS; state_d = fin_st;
                end else if (c1_q || !nz_q) begin
                  code_d = ST_ERR_OPERAND_RANGE; state_d = fin_st;
                end else begin
                  fn_d = FnAddChk; s0_d = pslot_t'(SLOT_A_HI); s1_d = pslot_t'(SLOT_EPUB); s2_d = pslot_t'(SLOT_EPUB);
                  c3_d = 1'b0; c4_d = 1'b1; state_d = SPass;                         // h < n
                end
              end
              5'd2: begin
                if (c1_q) begin
                  code_d = ST_ERR_OPERAND_RANGE; state_d = fin_st;
                end else if (!wo_q) begin
                  wn_d = 1'b0;
                  kind_d = KMont; step_d = '0; ret_d = 1'b1; rkind_d = KEcd; rstep_d = 5'd3;
                  msrc_d = pslot_t'(SLOT_A_HI); mdst_d = HsWn; mlen_d = len_q; mr_d = hscm_r(len_q);
                end
              end
              5'd3: begin
                wo_d = 1'b1;
                if (arg_q[8]) begin
                  fn_d = FnCopy; s0_d = pslot_t'(SLOT_P); dst_d = HsT2; state_d = SPass;   // the host's nonce
                end else begin
                  fn_d = FnRand; dst_d = HsT2; rw_d = words_q; rmk_d = 1'b1; state_d = SPass;
                end
              end
              5'd4: begin
                fn_d = FnInvChk; s0_d = pslot_t'(SLOT_A_HI); s1_d = HsT2; nz_d = 1'b0; state_d = SPass;
              end
              5'd5: begin
                if ((c1_q || !nz_q) && arg_q[8]) begin
                  code_d = ST_ERR_OPERAND_RANGE; state_d = fin_st;                     // a given k out of range
                end else if (c1_q || !nz_q) step_d = 5'd3;                           // k >= n or 0: again
                else begin
                  fn_d = FnNm2; s0_d = pslot_t'(SLOT_A_HI); dst_d = HsT3; c3_d = 1'b1; state_d = SPass;
                end
              end
              5'd6: begin
                // k^-1 = k^(n-2) mod n (a public exponent; the engine is wiped after it)
                eop_d = 8'(OP_MODEXP); earg_d = 32'(InvWindow); state_d = SEngCmd; wmid_d = 1'b1;
                map_d[SLOT_N] = pslot_t'(SLOT_A_HI); map_d[SLOT_A] = HsT2; map_d[SLOT_E] = HsT3;
                map_d[SLOT_W] = HsWn; map_d[SLOT_R] = HsT4;
              end
              5'd7: begin
                eng_d = 3'(EngRns); ksrc_d = HsT2; cv2_d = 1'b0;
                kind_d = KEcc; step_d = '0; ret_d = 1'b1; rkind_d = KEcd; rstep_d = 5'd8;
              end
              // ---- x from the B' half of R: P = 1, A = 0; per channel j: A = A m'_j + xi'_j P, P = P m'_j
              5'd8: begin
                eng_d = 3'(EngHscm); cwords_d = crt_words(len_q); ch_d = '0; cox_d = '0;
                fn_d = FnInitX; dst_d = HsT1; topw_d = '0; toplz_d = 5'd31; pwords_d = CntW'(crt_words(len_q));
                state_d = SPass;
              end
              5'd9: begin
                fn_d = FnClr; dst_d = HsT0; state_d = SPass;
              end
              5'd10, 5'd14: begin
                fn_d = FnLd; pwords_d = CntW'(1); s0_d = pslot_t'(SLOT_X0); poff_d = SlotAw'(32'(ch_q) * (12 + 2 * 32'(rns_ch(len_q))) + 1);
                ldsub_d = 1'b1; ldcox_d = 1'b0; state_d = SPass;                     // r64 = m'_j
              end
              5'd11: begin
                fn_d = FnMac; mz_d = 1'b1; s1_d = HsT0; dst_d = HsT0; msub_d = 1'b0; mc_d = '0; state_d = SPass;
              end
              5'd12: begin
                fn_d = FnLd; pwords_d = CntW'(1); s0_d = pslot_t'(SLOT_R); poff_d = SlotAw'(32'(rns_ch(len_q)) + 32'(ch_q));
                ldsub_d = 1'b0; ldcox_d = 1'b1; state_d = SPass;                     // r64 = xi'_j
              end
              5'd13: begin
                fn_d = FnMac; s0_d = HsT0; s1_d = HsT1; dst_d = HsT0; msub_d = 1'b0; mc_d = '0; state_d = SPass;
              end
              5'd15: begin
                fn_d = FnMac; mz_d = 1'b1; s1_d = HsT1; dst_d = HsT1; msub_d = 1'b0; mc_d = '0; state_d = SPass;
              end
              5'd16: begin
                ch_d = ch_q + 8'd1;
                if (ch_q + 8'd1 != rns_ch(len_q)) step_d = 5'd10;
                else begin
                  // alpha = floor(1/2 + sum trunc_q(xi'_j) / 2^q): T = alpha M'
                  r64_d = {40'd0, 24'((cox_q + 24'(1 << (CoxQ - 1))) >> CoxQ)};
                  fn_d = FnMac; mz_d = 1'b1; s1_d = HsT1; dst_d = HsT3; msub_d = 1'b0; mc_d = '0; state_d = SPass;
                end
              end
              5'd17: begin
                fn_d = FnSub; s0_d = HsT0; s1_d = HsT0; s2_d = HsT3; dst_d = HsT0; sel_d = 1'b0;
                c3_d = 1'b1; c4_d = 1'b0; state_d = SPass;                            // x' = A - alpha M' < 2p
              end
              // ---- x = x' mod p (W + 1 words, p's words above W read as 0), then r = x mod n
              5'd18: begin
                cwords_d = words_q;
                fn_d = FnSubChk; s0_d = pslot_t'(SLOT_N); s1_d = HsT0; s2_d = pslot_t'(SLOT_N);
                c3_d = 1'b1; c4_d = 1'b0; pwords_d = CntW'(words_q) + 1; zlim_d = CntW'(words_q); state_d = SPass;
              end
              5'd19: begin
                fn_d = FnSub; s0_d = pslot_t'(SLOT_N); s1_d = HsT0; s2_d = pslot_t'(SLOT_N); dst_d = HsT0;
                sel_d = !c3_q; c3_d = 1'b1; c4_d = 1'b0; pwords_d = CntW'(words_q) + 1; zlim_d = CntW'(words_q);
                state_d = SPass;
              end
              // ---- the conversion runs twice (a fault in one run gives another x): x of the first run
              // in HsRc1 (free until the end), compared with the second's
              5'd20: begin
                if (!cv2_q) begin
                  fn_d = FnCopy; s0_d = HsT0; dst_d = HsRc1; state_d = SPass;
                end else begin
                  fn_d = FnEq; s0_d = HsT0; s1_d = HsRc1; one_d = 1'b1; state_d = SPass;
                end
              end
              5'd21: begin
                if (!cv2_q) begin
                  cv2_d = 1'b1; step_d = 5'd8;
                end else if (!one_q && EnResultCheck) begin
                  code_d = ST_ERR_FAULT; state_d = fin_st;
                end else begin
                  // the residues of k G leave R and R_HI before r and s go there
                  fn_d = FnClr; dst_d = pslot_t'(SLOT_R); pwords_d = CntW'(1 << SlotAw); ovh_d = 1'b1; state_d = SPass;
                end
              end
              5'd22: begin
                fn_d = FnClr; dst_d = pslot_t'(SLOT_R_HI); pwords_d = CntW'(1 << SlotAw); ovh_d = 1'b1; state_d = SPass;
              end
              5'd23: begin
                fn_d = FnSubChk; s0_d = pslot_t'(SLOT_A_HI); s1_d = HsT0; s2_d = pslot_t'(SLOT_A_HI);
                c3_d = 1'b1; c4_d = 1'b0; state_d = SPass;
              end
              5'd24: begin
                fn_d = FnSub; s0_d = pslot_t'(SLOT_A_HI); s1_d = HsT0; s2_d = pslot_t'(SLOT_A_HI);
                dst_d = pslot_t'(SLOT_R); sel_d = !c3_q; c3_d = 1'b1; c4_d = 1'b0; state_d = SPass;
              end
              5'd25: begin
                // r's copy before its first use: a later change of R is caught by the final compare
                fn_d = FnCopy; s0_d = pslot_t'(SLOT_R); dst_d = HsRc0; ovh_d = 1'b1; state_d = SPass;
                if (EnResultCheck) begin
                  rcp_d = 2'b01; rcw_d = 16'(words_q);
                end
              end
              5'd26: begin
                fn_d = FnInvChk; s0_d = pslot_t'(SLOT_A_HI); s1_d = pslot_t'(SLOT_R); nz_d = 1'b0; state_d = SPass;
              end
              default: begin
                if (!nz_q && arg_q[8]) begin
                  code_d = ST_ERR_OPERAND_RANGE; state_d = fin_st;                     // r = 0: the host's next k
                end else if (!nz_q) step_d = 5'd3;                                   // r = 0: a new k
                else begin
                  kind_d = KEcs; step_d = '0;
                end
              end
            endcase
          end
          KEcs: begin
            // ECDSA_SIGN, part 2, on hscm: t = r d, u = h + t, s = k^-1 u into R_HI (s = 0: a new k);
            // the check before release: k s == u2 = h + r d recomputed, d's check word unchanged since
            // the start; then s's copy for the final compare (r's was taken when r was made)
            unique case (step_q)
              5'd0: begin
                eop_d = 8'(OP_MODMUL); eelen_d = '0; earg_d = '0; state_d = SEngCmd;
                map_d[SLOT_N] = pslot_t'(SLOT_A_HI); map_d[SLOT_A] = pslot_t'(SLOT_R); map_d[SLOT_B] = pslot_t'(SLOT_E);
                map_d[SLOT_W] = HsWn; map_d[SLOT_R] = HsT0;
              end
              5'd1: begin
                fn_d = FnAddChk; s0_d = pslot_t'(SLOT_A_HI); s1_d = pslot_t'(SLOT_EPUB); s2_d = HsT0;
                c3_d = 1'b0; c4_d = 1'b1; state_d = SPass;
              end
              5'd2: begin
                sel_d = c3_q | c4_q; fn_d = FnAdd; s0_d = pslot_t'(SLOT_A_HI); s1_d = pslot_t'(SLOT_EPUB); s2_d = HsT0;
                dst_d = HsT1; c3_d = 1'b0; c4_d = 1'b1; state_d = SPass;
              end
              5'd3: begin
                eop_d = 8'(OP_MODMUL); eelen_d = '0; earg_d = '0; state_d = SEngCmd;
                map_d[SLOT_N] = pslot_t'(SLOT_A_HI); map_d[SLOT_A] = HsT4; map_d[SLOT_B] = HsT1;
                map_d[SLOT_W] = HsWn; map_d[SLOT_R] = pslot_t'(SLOT_R_HI);
              end
              5'd4: begin
                fn_d = FnInvChk; s0_d = pslot_t'(SLOT_A_HI); s1_d = pslot_t'(SLOT_R_HI); nz_d = 1'b0; state_d = SPass;
              end
              5'd5: begin
                if (!nz_q && arg_q[8]) begin
                  code_d = ST_ERR_OPERAND_RANGE; state_d = fin_st;                     // s = 0: the host's next k
                end else if (!nz_q) begin
                  kind_d = KEcd; step_d = 5'd3;                                        // s = 0: a new k
                end else begin
                  // the check recomputes u from r, d and h: u2 = h + r d (a fault in t or u, or in d
                  // after its first read, makes k s != u2)
                  eop_d = 8'(OP_MODMUL); eelen_d = '0; earg_d = '0; state_d = SEngCmd;
                  map_d[SLOT_N] = pslot_t'(SLOT_A_HI); map_d[SLOT_A] = pslot_t'(SLOT_R); map_d[SLOT_B] = pslot_t'(SLOT_E);
                  map_d[SLOT_W] = HsWn; map_d[SLOT_R] = HsT3;
                end
              end
              5'd6: begin
                fn_d = FnAddChk; s0_d = pslot_t'(SLOT_A_HI); s1_d = pslot_t'(SLOT_EPUB); s2_d = HsT3;
                c3_d = 1'b0; c4_d = 1'b1; state_d = SPass;
              end
              5'd7: begin
                sel_d = c3_q | c4_q; fn_d = FnAdd; s0_d = pslot_t'(SLOT_A_HI); s1_d = pslot_t'(SLOT_EPUB); s2_d = HsT3;
                dst_d = HsT3; c3_d = 1'b0; c4_d = 1'b1; state_d = SPass;
              end
              5'd8: begin
                eop_d = 8'(OP_MODMUL); eelen_d = '0; earg_d = '0; state_d = SEngCmd;
                map_d[SLOT_N] = pslot_t'(SLOT_A_HI); map_d[SLOT_A] = HsT2; map_d[SLOT_B] = pslot_t'(SLOT_R_HI);
                map_d[SLOT_W] = HsWn; map_d[SLOT_R] = HsT0;
              end
              5'd9: begin
                fn_d = FnEq; s0_d = HsT0; s1_d = HsT3; one_d = 1'b1; state_d = SPass;
              end
              5'd10: begin
                if (!one_q && EnResultCheck) begin
                  code_d = ST_ERR_FAULT; state_d = fin_st;
                end else begin
                  // d's check word again: a flip of d anywhere since the start is caught
                  fn_d = FnInvChk; s0_d = pslot_t'(SLOT_A_HI); s1_d = pslot_t'(SLOT_E); dck_d = '0; state_d = SPass;
                end
              end
              5'd11: begin
                if (dck_q != dref_q && EnResultCheck) begin
                  code_d = ST_ERR_FAULT; state_d = fin_st;
                end else begin
                  fn_d = FnCopy; s0_d = pslot_t'(SLOT_R_HI); dst_d = HsRc1; state_d = SPass; ovh_d = 1'b1;
                  if (EnResultCheck) begin
                    rcp_d = 2'b11; rcw_d = 16'(words_q);
                  end
                end
              end
              default: state_d = fin_st;
            endcase
          end
          KInv: begin
            // scratch in internal slots: T0 = N - 2 (the exponent), T1 = A^(N-2)
            unique case (step_q)
              5'd0: begin
                fn_d = FnInvChk; odd_d = 1'b0; nz_d = 1'b0; state_d = SPass;
              end
              5'd1: begin
                if (!odd_q) begin
                  code_d = ST_ERR_EVEN_MODULUS; state_d = fin_st;
                end else if (c1_q) begin
                  code_d = ST_ERR_OPERAND_RANGE; state_d = fin_st;
                end else if (!nz_q) begin
                  code_d = ST_ERR_NO_INVERSE; state_d = fin_st;
                end else begin
                  fn_d = FnNm2; dst_d = HsT0; state_d = SPass;   // c3 = 1: N + ~2 + 1
                  c3_d = 1'b1;
                end
              end
              5'd2: begin
                eop_d = 8'(OP_MODEXP); eelen_d = len_q; state_d = SEngCmd;
                map_d[SLOT_E] = HsT0; map_d[SLOT_R] = HsT1;
              end
              5'd3: begin
                eop_d = 8'(OP_MODMUL); eelen_d = '0; state_d = SEngCmd;
                map_d[SLOT_B] = HsT1;
              end
              5'd4: begin
                fn_d = FnIsOne; one_d = 1'b1; s0_d = pslot_t'(SLOT_R); state_d = SPass;
              end
              5'd5: begin
                if (!one_q) begin
                  code_d = ST_ERR_NO_INVERSE; state_d = fin_st;
                end else begin
                  fn_d = FnCopy; s0_d = HsT1; dst_d = pslot_t'(SLOT_R); state_d = SPass;
                end
              end
              default: state_d = fin_st;
            endcase
          end
          KChk: begin
            // ECC_CHECK: y^2 == x^3 + a x + b (mod p) with N = p, A = x, B = y, X0 = a, X1 = b;
            // the engine's MODMUL makes the products, the sequencer the sums and the compare.
            // Leaves A = x; uses B, R, R_HI, X2.
            unique case (step_q)
              5'd0: begin
                fn_d = FnAddChk; c3_d = 1'b0; c4_d = 1'b1; state_d = SPass;        // x, y < p
              end
              5'd1: begin
                if (c1_q || c2_q) begin
                  code_d = ST_ERR_OPERAND_RANGE; state_d = fin_st;
                end else begin
                  fn_d = FnCopy; s0_d = pslot_t'(SLOT_A); dst_d = pslot_t'(SLOT_X2); state_d = SPass;  // X2 = x
                end
              end
              5'd2: begin
                fn_d = FnCopy; s0_d = pslot_t'(SLOT_B); dst_d = pslot_t'(SLOT_A); state_d = SPass;   // A = y
              end
              5'd3: begin
                eop_d = 8'(OP_MODMUL); eelen_d = '0; state_d = SEngCmd;                           // R = y^2
              end
              5'd4: begin
                fn_d = FnCopy; s0_d = pslot_t'(SLOT_R); dst_d = pslot_t'(SLOT_R_HI); state_d = SPass; // R_HI = y^2
              end
              5'd5: begin
                fn_d = FnCopy; s0_d = pslot_t'(SLOT_X2); dst_d = pslot_t'(SLOT_A); state_d = SPass;  // A = x
              end
              5'd6: begin
                fn_d = FnCopy; s0_d = pslot_t'(SLOT_X2); dst_d = pslot_t'(SLOT_B); state_d = SPass;  // B = x
              end
              5'd7: begin
                eop_d = 8'(OP_MODMUL); eelen_d = '0; state_d = SEngCmd;                           // R = x^2
              end
              5'd8: begin
                fn_d = FnAddChk; s1_d = pslot_t'(SLOT_R); s2_d = pslot_t'(SLOT_X0); c3_d = 1'b0; c4_d = 1'b1;
                state_d = SPass;                                                                 // a < p?
              end
              5'd9: begin
                if (c1_q || c2_q) begin
                  code_d = ST_ERR_OPERAND_RANGE; state_d = fin_st;
                end else begin
                  sel_d = c3_q | c4_q; fn_d = FnAdd; s1_d = pslot_t'(SLOT_R); s2_d = pslot_t'(SLOT_X0);
                  dst_d = pslot_t'(SLOT_B); c3_d = 1'b0; c4_d = 1'b1; state_d = SPass;             // B = x^2 + a
                end
              end
              5'd10: begin
                eop_d = 8'(OP_MODMUL); eelen_d = '0; state_d = SEngCmd;                          // R = x^3 + a x
              end
              5'd11: begin
                fn_d = FnAddChk; s1_d = pslot_t'(SLOT_R); s2_d = pslot_t'(SLOT_X1); c3_d = 1'b0; c4_d = 1'b1;
                state_d = SPass;                                                                 // b < p?
              end
              5'd12: begin
                if (c1_q || c2_q) begin
                  code_d = ST_ERR_OPERAND_RANGE; state_d = fin_st;
                end else begin
                  sel_d = c3_q | c4_q; fn_d = FnAdd; s1_d = pslot_t'(SLOT_R); s2_d = pslot_t'(SLOT_X1);
                  c3_d = 1'b0; c4_d = 1'b1; state_d = SPass;                                     // R = .. + b
                end
              end
              5'd13: begin
                fn_d = FnEq; s0_d = pslot_t'(SLOT_R); s1_d = pslot_t'(SLOT_R_HI); one_d = 1'b1; state_d = SPass;
              end
              default: begin
                if (!one_q) code_d = ST_ERR_NOT_ON_CURVE;
                state_d = fin_st;
              end
            endcase
          end
          default: state_d = fin_st;
        endcase
      end

      SPass: begin
        if (kind_q != KReset && !ovh_q) comp_d = comp_q + 1;
        if (!last_ph) begin
          mem_req_o  = 1'b1;
          if (fn_q == FnMac) begin
            // four cycles a word: the multiplier's word first, then the addend's, a cycle without a
            // RAM access for the products, the write
            mem_addr_o = (pph_q == 2'd0) ? slot_addr(s1_q, midx[SlotAw-1:0]) : slot_addr(s0_q, pidx_q[SlotAw-1:0]);
            mem_req_o  = (pph_q != 2'd2);
          end else
            mem_addr_o = slot_addr((pph_q == 2'd0) ? s0_q : (pph_q == 2'd1) ? s1_q : s2_q,
                                   (fn_q == FnLd) ? poff_q : (pph_q == 2'd1) ? midx[SlotAw-1:0] : pidx_q[SlotAw-1:0]);
          pph_d = pph_q + 1;
          if (pph_q == 2'd1) w0_d = mem_rdata_i;
          if (pph_q == 2'd2) w1_d = mem_rdata_i;
          // FnMac: s1's word (bit 0 cleared for s1 - 1; zero outside the multiplier's words) into m1
          // as it arrives (s0's follows into w1); then its two 32 x 32-bit products with r, each from
          // registers into a register, so no path holds a multiplier and the adders of the write cycle
          if (fn_q == FnMac && pph_q == 2'd1)
            m1_d = (pidx_q < CntW'({rnd_q, 1'b0}) || midx >= CntW'(cwords_q)) ? 32'd0
                 : (msub_q && midx == '0) ? (mem_rdata_i & ~32'd1) : mem_rdata_i;
          if (fn_q == FnMac && pph_q == 2'd2) begin
            pl_d = 64'(m1_q) * 64'(r64_q[31:0]);
            ph_d = 64'(m1_q) * 64'(r64_q[63:32]);
          end
        end else begin
          // the operand words of this index: N first, then A (or x), then B
          n_w = (nsrc == 2'd1) ? mem_rdata_i : w0_q;
          a_w = (nsrc == 2'd2) ? mem_rdata_i : w1_q;
          b_w = mem_rdata_i;
          if (pidx_q >= zlim_q) begin
            n_w = '0; b_w = '0;
          end
          s1 = {1'b0, a_w} + {1'b0, ~n_w} + 33'(c1_q);        // A - N (range check)
          s2 = {1'b0, b_w} + {1'b0, ~n_w} + 33'(c2_q);        // B - N
          mem_we_o = 1'b1;
          unique case (fn_q)
            FnZero: begin
              mem_req_o = 1'b1; mem_addr_o = PAw'(pidx_q); mem_wdata_o = '0;
            end
            FnClr: begin
              mem_req_o = 1'b1; mem_addr_o = slot_addr(dst_q, pidx_q[SlotAw-1:0]); mem_wdata_o = '0;
            end
            FnRand: begin
              // a word from the entropy port (zeros from word rw on); waits for the acknowledge
              mem_addr_o = slot_addr(dst_q, pidx_q[SlotAw-1:0]);
              if (pidx_q >= CntW'(rw_q)) begin
                mem_req_o = 1'b1; mem_wdata_o = '0;
              end else begin
                edn_req_o = 1'b1; mem_wdata_o = edn_data_i;
                if (rmk_q && pidx_q + 1 == CntW'(rw_q) && elen_q[4:0] != 5'd0)
                  mem_wdata_o = edn_data_i & ((32'd1 << elen_q[4:0]) - 32'd1);
                mem_req_o = edn_ack_i; stall = !edn_ack_i;
              end
            end
            FnMac: begin
              // dst = s0 + (s1 [- 1]) r 2^(64 rnd) + carry, word by word; source words from cwords on
              // are zero (s0's only in round 0: later rounds add into the whole running sum); s1's
              // products are in pl_q and ph_q, s0's word in w1_q
              mac = 97'((mz_q || (rnd_q == '0 && pidx_q >= CntW'(cwords_q))) ? 32'd0 : w1_q) + 97'(pl_q)
                  + {1'b0, ph_q, 32'd0} + 97'(mc_q);
              mc_d = mac[96:32];
              mem_req_o = 1'b1; mem_addr_o = slot_addr(dst_q, pidx_q[SlotAw-1:0]); mem_wdata_o = mac[31:0];
            end
            FnLd: begin
              // r64 = the word at poff of s0, or 2^RnsW minus it; its top CoxQ bits into cox
              r64_d = ldsub_q ? {31'd0, 33'(ModTop - 33'(n_w))} : {32'd0, n_w};
              if (ldcox_q) cox_d = cox_q + 24'(n_w >> CoxSh);
              mem_we_o = 1'b0;
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
              s4 = add3(a_w, b_w, ~n_w, c3_q, c4_q, s3[32]);    // A + B - N, beside A + B (not after it)
              c1_d = s1[32]; c2_d = s2[32]; c3_d = s3[32]; c4_d = s4[32];
              mem_req_o = (fn_q == FnAdd); mem_addr_o = slot_addr(dst_q, pidx_q[SlotAw-1:0]);
              mem_wdata_o = sel_q ? s4[31:0] : s3[31:0];
            end
            FnSubChk, FnSub: begin
              s3 = {1'b0, a_w} + {1'b0, ~b_w} + 33'(c3_q);     // A - B
              s4 = add3(a_w, ~b_w, n_w, c3_q, c4_q, s3[32]);    // A - B + N, beside A - B
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
              mem_req_o = 1'b1; mem_addr_o = slot_addr(dst_q, pidx_q[SlotAw-1:0]);
              mem_wdata_o = sign_q ? v[31:0] : a_w;
            end
            FnInvChk: begin
              c1_d = s1[32];
              dck_d = dck_q ^ a_w;
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
          if (!stall) begin
            pph_d = '0;
            pidx_d = pidx_q + 1;
          end
          if (!stall && pidx_q + 1 == pwords_q) begin
            state_d = (kind_q != KKeyClr && cst_q != '0) ? SClean : SNext;
            if (fn_q == FnDbl) sign_d = a_w[31] ^ neg_q ^ v[32];   // bit 32W of 2x -+ N
          end
        end
      end

      SEnt: begin
        // a 64-bit random into r64: two words from the entropy port
        edn_req_o = 1'b1;
        if (edn_ack_i) begin
          r64_d = {edn_data_i, r64_q[63:32]};
          ecnt_d = 1'b0;
          if (!ecnt_q) state_d = SNext;
        end
      end

      SMu: begin
        // Hensel lifting: y = N^-1 mod 2^(i+1) from y mod 2^i. t holds (N * y) >> i, so bit i
        // of N * y is t[0] and adding N * 2^i is a plain addition: t = (t + N) >> 1, or t >> 1
        // (the bits of t above 63 - i are never looked at). y is odd, so -y = {~y[63:1], 1}.
        comp_d = comp_q + 1;
        t_d = (t_q + (t_q[0] ? n0_q : 64'd0)) >> 1;
        if (t_q[0]) y_d = y_q | (64'd1 << mi_q);
        mi_d = mi_q + 1;
        if (mi_q == 6'd63) begin
          mu_d = {~y_d[63:1], 1'b1};
          state_d = SNext;
        end
      end

      SEngCmd: begin
        wd_d = '0; wdb_d = '1;
        if (ecmd_ready_i[eng_q]) begin
          state_d = SEngWait;
          if (!ewipe_q) eused_d = 1'b1;
        end
      end

      SEngWait: begin
        wd_d = wd_q + 1;
        if (wd_q == WdW'(1)) wdb_d = wdp_q;   // the bound of this command (wdp two cycles behind SEngCmd)
        if (eres_i[eng_q].done) begin
          if (ewipe_q && wmid_q) begin
            // the wipe after a command (wmid): overhead, then the program goes on
            ewipe_d = 1'b0; wmid_d = 1'b0; state_d = SNext;
          end else if (ewipe_q) begin
            // a wipe: overhead; its status does not change the command's
            state_d = (kind_q == KZero || kind_q == KAbort) ? SNext : SClean;
          end else begin
            comp_d = comp_q + eres_i[eng_q].cycles;
            io_d = io_q + eres_i[eng_q].io_cycles;
            if (eres_i[eng_q].status != ST_OK) begin
              code_d = eres_i[eng_q].status; state_d = fin_st; wmid_d = 1'b0;
            end else if (wmid_q) begin
              eop_d = 8'(OP_ZEROIZE); eelen_d = '0; ewipe_d = 1'b1; state_d = SEngCmd;
            end else state_d = SNext;
          end
        end else if (wd_q >= wdb_q) begin
          // the watchdog: reset the engine, then clean up as after a secret operation
          if (!ewipe_q) code_d = ST_ERR_TIMEOUT;
          wmid_d = 1'b0;
          osec_d = 1'b1; rcnt_d = 3'(RstCycles); state_d = SRst;
          if (ewipe_q) eused_d = 1'b0;     // a wipe that hangs is not retried
        end
      end

      SRst: begin
        // hold the engines in reset, then zeroize (abort) or clean up (timeout)
        erst_d = 1'b1;
        rcnt_d = rcnt_q - 1;
        if (rcnt_q == 3'd1) begin
          erst_d = 1'b0;
          if (kind_q == KAbort) begin
            step_d = '0; state_d = SNext;
          end else begin
            state_d = SClean; cst_d = '0;
          end
        end
      end

      SClean: begin
        // the end of a secret operation: taint what it wrote, zero it (but its result when OK and the
        // kept constants), wipe its engine
        unique case (cst_q)
          3'd0: begin
            // bus slots stay tainted (their reads return 0) until written by the host; internal
            // scratch is zeroed here and so untainted
            taint_d = (taint_q | wrm_q) & BusSlots;
            if (code_q == ST_OK) taint_d = taint_d & ~result_slots(op_q);
            zm_d = wrm_q & ~(KeyConstMask | NConstMask) & ~((code_q == ST_OK) ? result_slots(op_q) : '0);
            // the copies of a checked result stay until the final compare (they hold the public result)
            if (code_q == ST_OK) zm_d = zm_d & ~RcopyMask;
            if (TestExposeInternals) begin
              taint_d = taint_q; zm_d = '0;
            end
            cst_d = 3'd1;
          end
          3'd1: begin
            if (zm_q != '0) begin
              dst_d = lowest(zm_q); zm_d[lowest(zm_q)] = 1'b0;
              fn_d = FnClr; pwords_d = CntW'(1 << SlotAw); pidx_d = '0; pph_d = '0; ovh_d = 1'b1;
              state_d = SPass;
            end else cst_d = 3'd2;
          end
          3'd2: begin
            cst_d = 3'd3;
            if (eused_q && eng_q != 3'd0) begin
              eop_d = 8'(OP_ZEROIZE); eelen_d = '0; ewipe_d = 1'b1; eused_d = 1'b0; state_d = SEngCmd;
              map_d = map_identity();
            end
          end
          // the last passes: a checked result still equals the copy taken before its check
          3'd3: begin
            cst_d = 3'd4;
            if (rcp_q[0] && code_q == ST_OK) begin
              fn_d = FnEq; s0_d = pslot_t'(SLOT_R); s1_d = HsRc0; one_d = 1'b1; pwords_d = CntW'(rcw_q);
              pidx_d = '0; pph_d = '0; ovh_d = 1'b1; state_d = SPass;
            end
          end
          3'd4: begin
            cst_d = 3'd5;
            if (rcp_q[1] && code_q == ST_OK && one_q) begin
              fn_d = FnEq; s0_d = pslot_t'(SLOT_R_HI); s1_d = HsRc1; pwords_d = CntW'(rcw_q);
              pidx_d = '0; pph_d = '0; ovh_d = 1'b1; state_d = SPass;
            end
          end
          3'd5: begin
            if (rcp_q != '0 && code_q == ST_OK && !one_q) begin
              // changed after its check: withhold it (zero and taint R, R_HI and the copies)
              code_d = ST_ERR_FAULT;
              zm_d = result_slots(op_q) | RcopyMask;
              taint_d = taint_q | (result_slots(op_q) & BusSlots);
              cst_d = 3'd6;
            end else cst_d = 3'd7;
          end
          3'd6: begin
            if (zm_q != '0) begin
              dst_d = lowest(zm_q); zm_d[lowest(zm_q)] = 1'b0;
              fn_d = FnClr; pwords_d = CntW'(1 << SlotAw); pidx_d = '0; pph_d = '0; ovh_d = 1'b1;
              state_d = SPass;
            end else cst_d = 3'd7;
          end
          default: begin
            cst_d = '0; state_d = SDone;
          end
        endcase
      end

      SDone: begin
        done_o = 1'b1; fin_d = 1'b1; cst_d = '0; inprog_d = 1'b0;
        // an operation that read no secret untaints what it wrote (tainted slots were zero, and now
        // hold its public result)
        if (!osec_q) taint_d = taint_q & ~wrm_q;
        state_d = SIdle;
      end

      default: state_d = SIdle;
    endcase

    // the posted write: a pass's write cycle registers its word and writes the one posted before;
    // the last word goes in the cycle after the pass (SNext, SClean or SRst: the sequencer's port,
    // not touched by those states)
    if (state_q == SPass && last_ph) begin
      wb_v_d = mem_req_o && mem_we_o;
      wb_a_d = mem_addr_o;
      wb_w_d = mem_wdata_o;
      mem_req_o = wb_v_q; mem_we_o = wb_v_q; mem_addr_o = wb_a_q; mem_wdata_o = wb_w_q;
    end else if (state_q != SPass && wb_v_q) begin
      wb_v_d = 1'b0; wb_a_d = '0; wb_w_d = '0;
      mem_req_o = 1'b1; mem_we_o = 1'b1; mem_addr_o = wb_a_q; mem_wdata_o = wb_w_q;
    end

    // the command's own bound (the sequencer's watchdog: a program or pass that runs away)
    if (state_q != SIdle && state_q != SDone && kind_q != KReset && kind_q != KAbort && kind_q != KKeyClr
        && WdW'(cyc_q) >= gwd_q) begin
      kind_d = KAbort; code_d = ST_ERR_TIMEOUT; rcnt_d = 3'(RstCycles); state_d = SRst; ret_d = 1'b0; wmid_d = 1'b0;
      cst_d = '0;
    end
    // a control register and its copy differ while a command runs: a fault; end it as an abort does,
    // with ERR_FAULT (both registers of a pair take the same next value, so the abort resynchronises them)
    if (inprog_q && state_q != SDone && (kind_q != kindc_q || rkind_q != rkindc_q || eng_q != engc_q
                                         || erst_q != erstc_q || cwords_q != cwordsc_q)) begin
      kind_d = KAbort; code_d = ST_ERR_FAULT; rcnt_d = 3'(RstCycles); state_d = SRst; ret_d = 1'b0; wmid_d = 1'b0;
      cst_d = '0; fin_d = 1'b0;
    end
    // ABORT: from any command (not the clear after reset), within RstCycles + 1 cycles
    // (not in SDone: the command has ended with its own status and done pulse)
    if (abort_i && state_q != SIdle && state_q != SDone && kind_q != KReset && kind_q != KAbort) begin
      kind_d = KAbort; code_d = ST_ERR_ABORTED; rcnt_d = 3'(RstCycles); state_d = SRst; ret_d = 1'b0; wmid_d = 1'b0;
      cst_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // after reset: clear the whole RAM (a ZEROIZE pass that ends in idle without `done`)
      state_q <= SPass; kind_q <= KReset; kindc_q <= KReset; rkindc_q <= KNop; engc_q <= '0; erstc_q <= 1'b0; cwordsc_q <= '0; fn_q <= FnZero;
      pidx_q <= '0; pph_q <= '0; pwords_q <= CntW'(1 << PAw);
      op_q <= '0; eng_q <= '0; badeng_q <= 1'b0; len_q <= '0; elen_q <= '0; arg_q <= '0; words_q <= '0;
      cwords_q <= '0; step_q <= '0; code_q <= '0; fin_q <= 1'b0; cyc_q <= '0; comp_q <= '0; io_q <= '0;
      mu_q <= '0; eop_q <= '0; clen_q <= '0; eelen_q <= '0; earg_q <= '0; map_q <= '0; ewipe_q <= 1'b0; wmid_q <= 1'b0;
      eused_q <= 1'b0; wd_q <= '0; wdb_q <= '0; ret_q <= 1'b0; rkind_q <= KNop; rstep_q <= '0;
      msrc_q <= '0; mdst_q <= '0; mr_q <= '0; mlen_q <= '0; ovh_q <= 1'b0;
      s0_q <= '0; s1_q <= '0; s2_q <= '0; dst_q <= '0;
      c1_q <= 1'b0; c2_q <= 1'b0; c3_q <= 1'b0; c4_q <= 1'b0; sh_q <= 1'b0; neg_q <= 1'b0;
      sign_q <= 1'b0; sel_q <= 1'b0; odd_q <= 1'b0; nz_q <= 1'b0; one_q <= 1'b0;
      topw_q <= '0; toplz_q <= '0; ebits_q <= '0; iter_q <= '0; mi_q <= '0;
      taint_q <= '0; wrm_q <= '0; osec_q <= 1'b0; bound_q <= 1'b0; kc_q <= 1'b0; wn_q <= 1'b0;
      zm_q <= '0; cst_q <= '0; ze_q <= '0; rcnt_q <= '0; erst_q <= 1'b0;
      blind_q <= 1'b0; bk_q <= 1'b0; ecnt_q <= 1'b0; mc_q <= '0; msub_q <= 1'b0; rnd_q <= '0; rw_q <= '0; sbl_q <= 1'b0;
      rcp_q <= '0; rcw_q <= '0; inprog_q <= 1'b0; gwd_q <= '0; ga_q <= '0; gb_q <= '0;
      ksrc_q <= pslot_t'(SLOT_E); wo_q <= 1'b0; mz_q <= 1'b0; zlim_q <= '1; rmk_q <= 1'b0; poff_q <= '0;
      ldsub_q <= 1'b0; ldcox_q <= 1'b0; cox_q <= '0; ch_q <= '0; cv2_q <= 1'b0; dck_q <= '0; dref_q <= '0;
      wb_v_q <= 1'b0;
    end else begin
      state_q <= state_d; kind_q <= kind_d; kindc_q <= kind_d; rkindc_q <= rkind_d; engc_q <= eng_d; erstc_q <= erst_d; cwordsc_q <= cwords_d;
      fn_q <= fn_d;
      pidx_q <= pidx_d; pph_q <= pph_d; pwords_q <= pwords_d;
      op_q <= op_d; eng_q <= eng_d; badeng_q <= badeng_d; len_q <= len_d; elen_q <= elen_d; arg_q <= arg_d; words_q <= words_d;
      cwords_q <= cwords_d; step_q <= step_d; code_q <= code_d; fin_q <= fin_d; cyc_q <= cyc_d; comp_q <= comp_d; io_q <= io_d;
      mu_q <= mu_d; eop_q <= eop_d; clen_q <= clen_d; eelen_q <= eelen_d; earg_q <= earg_d; map_q <= map_d;
      ewipe_q <= ewipe_d; wmid_q <= wmid_d; eused_q <= eused_d; wd_q <= wd_d; wdb_q <= wdb_d; ret_q <= ret_d; rkind_q <= rkind_d;
      rstep_q <= rstep_d; msrc_q <= msrc_d; mdst_q <= mdst_d; mr_q <= mr_d; mlen_q <= mlen_d; ovh_q <= ovh_d;
      s0_q <= s0_d; s1_q <= s1_d; s2_q <= s2_d; dst_q <= dst_d;
      c1_q <= c1_d; c2_q <= c2_d; c3_q <= c3_d; c4_q <= c4_d; sh_q <= sh_d; neg_q <= neg_d;
      sign_q <= sign_d; sel_q <= sel_d; odd_q <= odd_d; nz_q <= nz_d; one_q <= one_d;
      topw_q <= topw_d; toplz_q <= toplz_d; ebits_q <= ebits_d; iter_q <= iter_d; mi_q <= mi_d;
      taint_q <= taint_d; wrm_q <= wrm_d | acc_wr; osec_q <= osec_d || acc_sec; bound_q <= bound_d; kc_q <= kc_d; wn_q <= wn_d;
      zm_q <= zm_d; cst_q <= cst_d; ze_q <= ze_d; rcnt_q <= rcnt_d; erst_q <= erst_d;
      blind_q <= blind_d; bk_q <= bk_d; ecnt_q <= ecnt_d; mc_q <= mc_d; msub_q <= msub_d; rnd_q <= rnd_d; rw_q <= rw_d;
      sbl_q <= sbl_d; rcp_q <= rcp_d; rcw_q <= rcw_d; inprog_q <= inprog_d; gwd_q <= gwd_d; ga_q <= ga_d; gb_q <= gb_d;
      ksrc_q <= ksrc_d; wo_q <= wo_d; mz_q <= mz_d; zlim_q <= zlim_d; rmk_q <= rmk_d; poff_q <= poff_d;
      ldsub_q <= ldsub_d; ldcox_q <= ldcox_d; cox_q <= cox_d; ch_q <= ch_d; cv2_q <= cv2_d; dck_q <= dck_d;
      dref_q <= dref_d; wb_v_q <= wb_v_d;
    end
  end
  // the watchdog bounds' products (see ga_q): one multiplication per register
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      gp_q <= '0; wp_q <= '0; wc_q <= '0; wdp_q <= '0;
    end else begin
      gp_q  <= 26'(ga_q) * 26'(gb_q);
      wp_q  <= (26'(eelen_q) + 26'd8) * (26'(cwords_q) + 26'd4);
      wc_q  <= 9'(cwords_q) + 9'd4;
      wdp_q <= (WdW'(35'(wp_q) * 35'(wc_q)) << WdShift[eng_q]) + WdW'(1 << 16);
    end
  end

  // datapath registers (no reset needed)
  always_ff @(posedge clk_i) begin
    w0_q <= w0_d; w1_q <= w1_d; n0_q <= n0_d; y_q <= y_d; t_q <= t_d; r64_q <= r64_d;
    wb_a_q <= wb_a_d; wb_w_q <= wb_w_d; m1_q <= m1_d; pl_q <= pl_d; ph_q <= ph_d;
  end

  // the command valid depends on the state only (no path from an engine's outputs back into it)
  always_comb begin
    ecmd_valid_o = '0;
    ecmd_valid_o[eng_q] = (state_q == SEngCmd);
  end

  logic unused;
  assign unused = ^{s1[31:0], s2[31:0]};

  assign busy_o      = (state_q != SIdle);
  // a CMD the sequencer cannot take: busy, a key clear starting in the same cycle (it wins), or an
  // idle state with a command still in progress (a fault, ended at once with ERR_FAULT)
  assign reject_o    = start_i && (state_q != SIdle || keyclr_i || inprog_q);
  assign finished_o  = fin_q;
  assign code_o      = code_q;
  assign last_op_o   = op_q;
  assign cycles_o    = cyc_q;
  assign compute_o   = comp_q;
  assign io_o        = io_q;
  assign mu_o        = mu_q;
  assign bound_o     = bound_q;
  assign taint_o     = taint_q[NumSlots-1:0];
  assign ecmd_o      = '{op: eop_q, len: clen_q, elen: eelen_q, arg: earg_q};
  assign eng_own_o   = (state_q == SEngCmd) || (state_q == SEngWait);
  assign eng_sel_o   = eng_q;
  assign map_o       = map_q;
  assign eng_rst_o   = erst_q;
endmodule
