// SPDX-License-Identifier: Apache-2.0
// pka_rns_core: the rns engine (paper 002, Bigou-Tisserand CHES 2015), one of two builds:
//   Sbmm = 0: classical RNS Montgomery (MM) on NumRowers = n rowers, bases B and B' (below);
//   Sbmm = 1: SBMM for P = Ma^2 - 2 on n_a + 1 rowers plus the m_gamma channel (pka_rns_sb.sv).
//
// MM build: RNS Montgomery on a Cox-Rower array.
//
// n = ceil((len + 8) / W) channels in each of the bases B and B' (n <= NumRowers); rower j serves
// channel j of both. A microprogram (pka_rns_ucode, generated from pka.model.rns.PROGRAMS) runs:
//   MR d, (a0,b0)..(aK-1,bK-1)   d = (sum a_k b_k + Q^P) / M  in [0, 2P), K = 1..3, 2n+K+16 cycles:
//       products in B then B' (2K cycles), x = red(sum), xi = red(x * |-P^-1 Mi^-1|), y' = red(sum'),
//       BE1: n broadcast steps of xi_i * |Mi P M^-1 mu_j| + Cox (alpha = 0) -> omega~' (B', scaled),
//       BE2: n broadcast steps of xi'_i * |M'_i|_mj + Cox (alpha = 1/2) -> omega (B).
//   ADD / SUB (d = a + b, d = a - b + kP), LOOP / ENDLOOP / IFBIT / MAP / UNMAP / JMP: 1 cycle each.
//   TEST a (a < 2P): flag := a == 0 mod P, i.e. every rower's 2 a_j (its ADD unit) is 0 or |2P|_mj;
//   FAIL code, sense: flag == sense ? end with status code, R and R_HI stored as zeros : go on;
//   CMOV d, a: flag ? d := a (the ADD unit, write enabled by the flag). 1 cycle each.
// The rowers' controls are registered (decoded a cycle ahead, "the rowers' controls" below): the
// rowers run this schedule one cycle after the sequencer decodes it. TEST's compare is therefore
// made in the cycle after TEST (the FAIL's) and registered in each rower; the core ANDs the rowers'
// registered compares in the cycle after that. A FAIL registers its sense and status code and
// decides in its next cycle: when it fires, that cycle ends the program, is not counted, and the
// instruction decoded in it is dropped (its controls reach the rowers, which only the zeros of the
// store follow; done one cycle later than a FAIL that decided at once; pka.rtl.rns.overhead). A CMOV
// writes in the cycle after its decode with the write enable gated by the flag of that cycle, so a
// CMOV right after TEST takes the compare as its flag.
// Schedule of one MR (t = cycle from its start; prod/acc/r1/r2 are the rower pipeline registers):
//   t < K: B products, t < 2K: B' products; acc clears at t = 2, K+2 (B'), 2K+6 (y'*cy), K+14+n;
//   r1 <- acc at K+2 (x), prod at K+6 (xi), acc at 2K+2 (y'), K+10+n (omega~'), K+14+2n (omega);
//   XI multiply at K+4, YC at 2K+4, BE1 steps at K+8+i, BE2 steps at K+12+n+i (i < n);
//   writes: xi at K+7, B'[d] and xi' at K+11+n, B[d] at K+15+2n (the MR's last cycle).
// Operands are residue vectors written by the host (binary <-> RNS is a host step, doc/rns.md):
//   SLOT_N word 0: the modulus' low word (parity check only)
//   SLOT_X0: per rower j, 12 + 2n constants (pka.model.rns.MmCtx.table), word j*(12+2n) + t
//   SLOT_A, SLOT_B, SLOT_W: registers IN_A, IN_B, W (2n words: B residues, then scaled B')
//   SLOT_X1: registers ONE, CA, CB2, CM4B (2n words each);  SLOT_E: scalar/exponent (elen bits);
//   SLOT_X2: Fermat exponent P-2 (len bits).  Results: SLOT_R = RES, SLOT_R_HI = RES_HI (2n words).
//   SLOT_P (ECC_MUL with ARG[1] only): 2n random words in the layout of a residue vector (B, then
//   B'), loaded into register RZ = T1, each masked to W bits and reduced once mod its channel's
//   modulus (any word is accepted).
// ECC_MUL, ARG[0] = 0 (checked): SLOT_A = x, SLOT_B = y of the point; checks y^2 = x^3 + ax + b
//   (else ST_ERR_NOT_ON_CURVE before the ladder), runs the (X,Z) ladder of elen steps, recovers y
//   (Okeya-Sakurai) and writes the affine x to SLOT_R, y to SLOT_R_HI after checking them on the
//   curve (else ST_ERR_FAULT); k P = O -> ST_ERR_INFINITY. Failures store zeros in R and R_HI.
// ECC_MUL, ARG[0] = 1 (x-only): SLOT_A = x; SLOT_R = x(k P), SLOT_R_HI = 0;
//   k P = O -> ST_ERR_INFINITY. MODEXP_CT: Montgomery's powering ladder of exactly elen steps.
// ECC_MUL, ARG[2] = 1 (X25519, P = 2^255 - 19 only): SLOT_A = u; RFC 7748's Montgomery ladder (10 MRs a
//   step), u = X Z^(P-2) by an addition chain (runs of squarings in fixed-count loops: LOOP with
//   uword[62], count uword[60:53]), the inverse checked (another P -> ST_ERR_UNSUPPORTED, zeros);
//   SLOT_R = u(k P), SLOT_R_HI = 0; k P = O -> ST_ERR_INFINITY.
// ECC_MUL blinding (pka_top's sequencer): elen up to MaxLen + 256 (a scalar k + r n, r of 64 to 256 bits;
//   the ladder runs elen steps); ARG[1] = 1: random projective Z, the ladder starts from
//   (x lambda : lambda), lambda from SLOT_P's random words by two MRs with 1 (programs ecc_rz,
//   ecc_xrz, ecc_mrz: 3 MRs + JMP for the two ADDs of the plain start, 3 (2n + 17) - 1 cycles more);
//   lambda = 0 mod P (all-zero words) ends with ST_ERR_INFINITY.
// OP_ZEROIZE (the wipe, pka_pkg): WipeCyc = max(32, 12 + 2 NumRowers) cycles, no port access; each
//   cycle every rower clears register-file word t of both halves and constant word t through its
//   write ports, and all pipeline registers; the core clears the scalar, the exponent, the ladder map,
//   the flag and the Cox. Ends with ST_OK, cycles = WipeCyc, io_cycles = 0.
// Fault countermeasures of the MM build (FaultCheck = 1; doc/rns.md, "Fault countermeasures"): each
// ends the command with ST_ERR_FAULT and zeros in R and R_HI, never a result with ST_OK:
//   exact length: the program's length in instruction slots (an IFBIT 2, HALT 0) is a + e elen + l len,
//     a, e, l per entry from pka_rns_ucode (pka.model.rns.slot_coeffs); ic_q counts the slots, icend_q
//     holds the sum from the command; a slot past icend_q ends at once (no runaway), HALT needs
//     ic_q == icend_q (a skipped or repeated instruction, a loop of another length: pc_q, idx_q, elen_q,
//     len_q flips);
//   check token tok_q: PEND at a command whose program runs the output check, PASS when its FAIL
//     (ERR_FAULT) passes; HALT releases only from NONE (no check in the program) or PASS;
//   the bit IFBIT / MAP reads comes from the source its own word names (no src register), and the
//     32-bit word it is read from must match its parity (spar_q / xpar_q, set as the load writes
//     scal_q / expo_q): a flipped scalar bit is caught before the ladder uses it;
//   TEST's flag, its strobes, a decoded FAIL and its sense, and the ladder map in two bits each (00 / 11;
//     01, 10: a flip), n_q == ceil((len_q + 8)
//     / W), an MR's t_q <= its last cycle, an opcode the MM build executes (checked every Exec cycle);
//   a fired FAIL's status fcode_q is never OK (a FAIL ends with an error; ERR_UNSUPPORTED is one bit);
//   the FSM state in a distance-3 code: a flipped bit is decoded to the nearest state; Idle, Done and
//     Wipe go on, Load, Exec and Store end with ST_ERR_FAULT;
//   the load: at most LoadBound cycles (a flipped request/response counter stalls it otherwise);
//   the store: req_q == (rh_q ? n : 0) + rj_q, rj_q < n, rr_q < 2 each cycle, else zeros from word 0.
// None adds a cycle to a fault-free command; a check that fires counts its Exec cycle (HALT's too).
// FaultCheck = 0 (campaigns only) removes them all: an invalid state code goes to Idle, the bit source
// is set by LOOP (src_q), the counters and codes are not checked, and the output check's FAIL never
// fires.
// cycles counts the microprogram's cycles (as pka.model.rns.run_machine); io_cycles the loads
// and stores. Errors: unknown op -> ST_ERR_OPCODE; len < 16, len > MaxLen or n > NumRowers,
// elen > MaxLen (ECC_MUL: elen > MaxLen + 256), ECC with elen = 0 -> ST_ERR_LENGTH; even modulus -> ST_ERR_EVEN_MODULUS; a residue
// >= its channel modulus, or an ECC scalar of 0 -> ST_ERR_OPERAND_RANGE.
`default_nettype none

module pka_rns_core
  import pka_pkg::*;
#(
  parameter int unsigned MaxLen    = 256,  // largest modulus in bits, 16..(NumRowers*W - 8)
  parameter int unsigned MemAw     = 14,   // word address width: 16 slots of 2^(MemAw-4) words
  parameter int unsigned W         = 32,   // channel width, 16 or 32
  parameter int unsigned NumRowers = (MaxLen + 8 + W - 1) / W,  // rowers = largest n
  parameter int unsigned CoxQ      = 8,    // Cox fraction bits (pka.model.rns.COX_Q)
  parameter int unsigned Sbmm      = 0,    // 0: MM build, 1: SBMM build (pka_rns_sb)
  parameter int unsigned FaultCheck = 1    // 1; 0 only for fault campaigns: no output check, no integrity checks
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  eng_h2d_t eng_i,   // command, memory response (pka_pkg)
  output eng_d2h_t eng_o    // command ready, memory request, result
);
  initial if (Sbmm > 1 || FaultCheck > 1) $fatal(1, "Sbmm and FaultCheck must be 0 or 1");

  if (Sbmm != 0) begin : g_sb
    pka_rns_sb #(.MaxLen(MaxLen), .MemAw(MemAw), .W(W), .CoxQ(CoxQ)) u_sb (
      .clk_i  (clk_i),
      .rst_ni (rst_ni),
      .eng_i  (eng_i),
      .eng_o  (eng_o)
    );
  end else begin : g_mm

      // ---- the common boundary (pka_pkg::eng_h2d_t in, eng_d2h_t out) --------------------------
      logic             cmd_ready, mem_req, mem_we, done;
      logic [MemAw-1:0] mem_addr;
      logic [31:0]      mem_wdata, cycles, io_cycles;
      logic [7:0]       status;
      assign eng_o = '{cmd_ready: cmd_ready,
                       mem: '{req: mem_req, we: mem_we, addr: MemAwMax'(mem_addr), wdata: mem_wdata},
                       res: '{done: done, status: status, cycles: cycles, io_cycles: io_cycles}};
      localparam int unsigned N        = NumRowers;
      localparam int unsigned SlotW    = 1 << (MemAw - 4);
      localparam int unsigned AccExtra = (W == 16) ? 5 : 7;
      localparam int unsigned CstN     = 12 + 2 * N;
      localparam int unsigned NW       = $clog2(N + 1);
      localparam int unsigned IdxW     = $clog2(CstN);
      localparam int unsigned ColW     = $clog2(2 * N);
      localparam int unsigned LenW     = $clog2(MaxLen + 1);
      localparam int unsigned EccBlind = 256;                 // ECC_MUL: elen <= MaxLen + 256 (k + r n, r <= 256 bits)
      localparam int unsigned MaxElen  = MaxLen + EccBlind;   // pka.model.rns.ecc_max_elen
      localparam int unsigned ELenW    = $clog2(MaxElen + 1);
      localparam int unsigned EWords   = (MaxLen + 31) / 32;  // the Fermat exponent (len bits)
      localparam int unsigned SWords   = (MaxElen + 31) / 32; // the scalar / exponent of SLOT_E
      localparam int unsigned CntW     = 16;
      localparam int unsigned PcW      = 9;
      localparam int unsigned MinLen   = 16;
      localparam int unsigned WipeCyc  = (CstN > 32) ? CstN : 32;   // pka.model.rns.wipe_cycles
      localparam bit          Fc       = (FaultCheck != 0);
      // the load's words at most (N word, table, A B W (2n each), X1 (8n), P (2n), E, X2) and its bound
      // in cycles: 8 per word leaves room for a memory that stalls 7 grants in 8
      localparam int unsigned LoadWords = 1 + N * CstN + 16 * N + SWords + EWords;
      localparam int unsigned LoadBound = 8 * LoadWords + 64;
      // instruction slots of the longest program: a < 2^10, e and l < 2^6 (pka.model.rns.ISLOTS_*_BITS)
      localparam int unsigned IcW      = $clog2(1024 + 64 * (MaxElen + MaxLen) + 1);
      localparam int unsigned WSelW    = ELenW - 5;            // the word of a bit index
      localparam int unsigned SPW      = (SWords > 1) ? $clog2(SWords) : 1;   // index of a word of scal_q
      localparam int unsigned XPW      = (EWords > 1) ? $clog2(EWords) : 1;   // index of a word of expo_q

      initial begin
        if (W != 16 && W != 32) $fatal(1, "W must be 16 or 32");
        if (MaxLen < MinLen || MaxLen + 8 > NumRowers * W) $fatal(1, "MaxLen must be in 16..NumRowers*W-8");
        if ((W == 16 && NumRowers > 17) || NumRowers > 65) $fatal(1, "too many rowers for the Cox error bound");
        if (NumRowers * (12 + 2 * NumRowers) > SlotW) $fatal(1, "MemAw too small for the constant table");
        if (EWords > SlotW) $fatal(1, "MemAw too small for the exponent");
        if (SWords > SlotW) $fatal(1, "MemAw too small for a blinded scalar of MaxLen + 256 bits in SLOT_E");
      end

      // ---- registers of the microprogram (pka.model.rns) --------------------------------------------
      localparam logic [4:0] RegInA = 5'd5, RegRes = 5'd13, RegResHi = 5'd14;
      localparam logic [4:0] RegRz = 5'd21;   // pka.model.rns.RZ: SLOT_P's random words

      typedef enum logic [3:0] {
        UHalt = 4'd0, UMr = 4'd1, UAdd = 4'd2, USub = 4'd3, ULoop = 4'd4, UEndLoop = 4'd5,
        UIfBit = 4'd6, UMap = 4'd7, UUnmap = 4'd8, UTest = 4'd10, UFail = 4'd11, UCmov = 4'd12,
        UJmp = 4'd13
      } uop_e;

      // a distance-3 code (the [6,3,3] shortened Hamming code): one flipped bit is an invalid code
      // that names the state it came from (FaultCheck = 0: an invalid code goes to Idle, as before)
      typedef enum logic [5:0] {
        Idle  = 6'b000000,
        Load  = 6'b001011,
        Exec  = 6'b010101,
        Store = 6'b011110,
        Done  = 6'b100110,
        Wipe  = 6'b101101
      } state_e;
      state_e state_q, state_d;

      function automatic logic near(logic [5:0] s, state_e c);
        return $countones(s ^ c) == 1;
      endfunction

      // ---- command ----------------------------------------------------------------------------------
      logic [7:0]       op_q, op_d;
      logic [LenW-1:0]  len_q, len_d;
      logic [ELenW-1:0] elen_q, elen_d;
      logic             rz_q, rz_d;          // ECC_MUL with ARG[1]: load SLOT_P's random words
      logic [NW-1:0]    n_q, n_d;
      logic [7:0]       status_q, status_d;
      logic [31:0]      cyc_q, cyc_d, io_q, io_d;
      logic [PcW-1:0]   entry;
      logic             entry_valid;
      logic [63:0]      uword;
      logic [PcW-1:0]   pc_q, pc_d;
      logic [9:0]       slots_a;
      logic [5:0]       slots_e, slots_l;
      logic             checked;
      // integrity (FaultCheck = 1): instruction slots run and the program's exact count, the check token
      localparam logic [7:0] TokNone = 8'h00, TokPend = 8'h3C, TokPass = 8'hC3, TokBad = 8'hFF;
      logic [IcW-1:0]   ic_q, ic_d, icend_q, icend_d;
      logic [7:0]       tok_q, tok_d;

      pka_rns_ucode u_ucode (
        .addr_i (pc_q),
        .data_o (uword),
        .op_i   (eng_i.cmd.op),
        .xonly_i(eng_i.cmd.arg[0]),
        .rz_i   (eng_i.cmd.arg[1]),
        .mont_i (eng_i.cmd.arg[2]),
        .sb_i   (1'b0),
        .entry_o(entry),
        .valid_o(entry_valid),
        .slots_a_o(slots_a),
        .slots_e_o(slots_e),
        .slots_l_o(slots_l),
        .checked_o(checked)
      );

      // n = ceil((len + 8) / W)
      logic [16:0] len_plus;
      logic [NW:0] n_cmd;
      assign len_plus = 17'(eng_i.cmd.len) + 17'd8 + 17'(W - 1);
      assign n_cmd = (NW + 1)'(len_plus / 17'(W));

      // ---- load / store sequencing ------------------------------------------------------------------
      // phases: 0 N word, 1 constants, 2 IN_A, 3 IN_B, 4 W, 5 X1 (4 regs), 6 scalar, 7 expo,
      //         8 random words (RZ, only with rz_q)
      logic [3:0]       ph_q, ph_d;
      logic [CntW-1:0]  req_q, req_d, rsp_q, rsp_d, cnt;
      logic [NW-1:0]    rj_q, rj_d;          // response: rower
      logic [IdxW-1:0]  rt_q, rt_d;          // response: constant index
      logic             rh_q, rh_d;          // response: half (B / B')
      logic [4:0]       rr_q, rr_d;          // response: register
      logic [SWords*32-1:0] scal_q, scal_d;   // secret: the scalar (blinded: MaxLen + 256 bits)
      logic [EWords*32-1:0] expo_q, expo_d;
      logic [SWords-1:0] spar_q, spar_d;     // parity of each word of scal_q, as loaded
      logic [EWords-1:0] xpar_q, xpar_d;     // parity of each word of expo_q, as loaded
      logic             err_range_q, err_range_d;

      logic [CntW-1:0] n2, cst_words, ewords, lwords;
      assign n2        = CntW'(n_q) << 1;
      // the constant table's length n (12 + 2n), registered: n_q is set at the command's accept and the
      // table (phase 1) is loaded at least two cycles later
      always_ff @(posedge clk_i) begin
        cst_words <= CntW'(n_q) * (CntW'(12) + n2);
      end
      assign ewords    = CntW'((32'(elen_q) + 31) / 32);
      assign lwords    = CntW'((32'(len_q) + 31) / 32);

      always_comb begin
        unique case (ph_q)
          4'd0: cnt = CntW'(1);
          4'd1: cnt = cst_words;
          4'd2, 4'd3, 4'd4, 4'd8: cnt = n2;
          4'd5: cnt = n2 << 2;
          4'd6: cnt = ewords;
          4'd7: cnt = lwords;
          default: cnt = '0;
        endcase
      end

      function automatic logic [MemAw-1:0] slot_addr(int unsigned slot, logic [MemAw-1:0] w);
        return MemAw'(slot * SlotW) + w;
      endfunction

      logic [MemAw-1:0] ld_addr;
      always_comb begin
        unique case (ph_q)
          4'd0: ld_addr = slot_addr(SLOT_N, MemAw'(req_q));
          4'd1: ld_addr = slot_addr(SLOT_X0, MemAw'(req_q));
          4'd2: ld_addr = slot_addr(SLOT_A, MemAw'(req_q));
          4'd3: ld_addr = slot_addr(SLOT_B, MemAw'(req_q));
          4'd4: ld_addr = slot_addr(SLOT_W, MemAw'(req_q));
          4'd5: ld_addr = slot_addr(SLOT_X1, MemAw'(req_q));
          4'd6: ld_addr = slot_addr(SLOT_E, MemAw'(req_q));
          4'd8: ld_addr = slot_addr(SLOT_P, MemAw'(req_q));
          default: ld_addr = slot_addr(SLOT_X2, MemAw'(req_q));
        endcase
      end

      // ---- rower array ----------------------------------------------------------------------------
      logic [2:0]      mul_sel;
      logic [4:0]      ra, rb, wd;
      logic [ColW-1:0] col;
      logic [W-1:0]    bus;
      logic [1:0]      acc_op, red_op;
      logic            corr_sel, red_half, we_b, we_p, xi_we, lin_en, lin_sub, wipe;
      logic [1:0]      lin_kp;
      logic            ld_rf, ld_half, ld_cst;
      logic [IdxW-1:0] ld_idx;
      logic [W-1:0]    ld_data;
      logic [N-1:0]    ld_sel;
      logic [W-1:0]    xi_w [N];
      logic [W-1:0]    rd_b [N];
      logic [W-1:0]    rd_p [N];
      logic [W-1:0]    c_b [N];
      logic [W-1:0]    c_p [N];
      logic [N-1:0]    z0, z2;        // TEST: per rower, 2 a_j == 0, 2 a_j == |2P|_mj
      logic [N-1:0]    bus_oh;        // the rower whose xi the bus carries (one-hot; BE steps)
      logic            test_c;        // TEST: its rowers' compare is read in the next cycle
      logic            is_zero;       // TEST: a == 0 mod P (the rowers' compares, ANDed)
      logic            k1_q, k1_d, k2_q;   // the Cox's carry, aligned with the products it corrects

      // The rowers' controls, decoded a cycle ahead: the sequencer below computes them from its state
      // (microword, MR cycle t) and these registers hand them to the rowers and the Cox in the next
      // cycle, so no path runs from the microprogram into a rower. Every control moves by the same
      // cycle, so the rowers see the schedule of the header unchanged, one cycle later; what the
      // sequencer reads back from the rowers is aligned with it: TEST's compare (test_q: flag forwarded
      // to the next instruction), the Cox's carry (k1_q from the registered enable) and the store's read
      // (its register address, fixed per half, goes to the rowers directly). The wipe, too, addresses
      // the files directly (t_q), so its last word is cleared with its last cycle. No cycle is added.
      logic [2:0]      mul_sel_q;
      logic [4:0]      ra_q, rb_q, wd_q;
      logic [ColW-1:0] col_q;
      logic [1:0]      acc_op_q, red_op_q, lin_kp_q;
      logic            corr_sel_q, red_half_q, we_b_q, we_p_q, xi_we_q, lin_en_q, lin_sub_q, ld_half_q;
      logic [N-1:0]    ld_rf_q, ld_cst_q, bus_oh_q;
      logic [IdxW-1:0] ld_idx_q;
      logic [W-1:0]    ld_data_q;
      logic            cox_clr_q, cox_half_q, cox_en_q;
      // TEST's strobe a cycle on (the rowers compare then and register it: tst_i) and two cycles on
      // (the core reads the registered compares: test2_q); a FAIL decoded (pend_q, its sense sense_q,
      // its status code fcode_q), deciding in the next cycle from that cycle's flag; each in two bits
      // (00 / 11; 01, 10: a flip) but the code (a fired FAIL never ends with OK: a comparator)
      logic [1:0]      test_q, test_d, test2_q, pend_q, pend_d, sense_q, sense_d;
      logic [7:0]      fcode_q, fcode_d;
      logic            cmov, cmov_q;    // CMOV: its write enable (lin_en_q) gated by the flag a cycle on
      logic            lin_en_rw;
      logic [4:0]      ra_rw, wd_rw;
      logic [IdxW-1:0] idx_rw;

      for (genvar j = 0; j < N; j++) begin : g_rower
        pka_rns_rower #(
          .W       (W),
          .MaxN    (N),
          .NumRegs (32),
          .AccExtra(AccExtra)
        ) u_rower (
          .clk_i     (clk_i),
          .mul_sel_i (mul_sel_q),
          .ra_i      (ra_rw),
          .rb_i      (rb_q),
          .col_i     (col_q),
          .bus_i     (bus),
          .acc_op_i  (acc_op_q),
          .corr_en_i (k2_q),
          .corr_sel_i(corr_sel_q),
          .red_op_i  (red_op_q),
          .red_half_i(red_half_q),
          .we_b_i    (we_b_q),
          .we_p_i    (we_p_q),
          .xi_we_i   (xi_we_q),
          .wd_i      (wd_rw),
          .lin_en_i  (lin_en_rw),
          .lin_sub_i (lin_sub_q),
          .lin_kp_i  (lin_kp_q),
          .wipe_i    (wipe),
          .tst_i     (test_q[0]),
          .ld_rf_i   (ld_rf_q[j]),
          .ld_half_i (ld_half_q),
          .ld_cst_i  (ld_cst_q[j]),
          .ld_idx_i  (idx_rw),
          .ld_data_i (ld_data_q),
          .xi_o      (xi_w[j]),
          .rd_b_o    (rd_b[j]),
          .rd_p_o    (rd_p[j]),
          .c_b_o     (c_b[j]),
          .c_p_o     (c_p[j]),
          .z0_o      (z0[j]),
          .z2_o      (z2[j])
        );
      end

      // ---- Cox unit ---------------------------------------------------------------------------------
      logic cox_clr, cox_half, cox_en, cox_k;
      pka_rns_cox #(.W(W), .Q(CoxQ)) u_cox (
        .clk_i (clk_i),
        .rst_ni(rst_ni),
        .clr_i (cox_clr_q),
        .half_i(cox_half_q),
        .en_i  (cox_en_q),
        .xi_i  (bus),
        .k_o   (cox_k)
      );

      // ---- microprogram decode ------------------------------------------------------------------------
      uop_e          uop;
      logic [4:0]    ud, ua0, ub0, ua1, ub1, ua2, ub2;
      logic [1:0]    uk, ukp;
      logic          usrc, usense, uimm;
      logic [PcW-1:0] utgt;
      logic [7:0]    ucode_st;
      assign uop  = uop_e'(uword[3:0]);
      assign ud   = uword[8:4];
      assign uk   = uword[10:9];
      assign ua0  = uword[15:11];
      assign ub0  = uword[20:16];
      assign ua1  = uword[25:21];
      assign ub1  = uword[30:26];
      assign ua2  = uword[35:31];
      assign ub2  = uword[40:36];
      assign ukp  = uword[42:41];
      assign usrc = uword[43];
      assign utgt = uword[44 +: PcW];
      assign ucode_st = uword[60:53];
      assign usense = uword[61];
      assign uimm = uword[62];                  // LOOP: a fixed count, ucode_st

      logic [CntW-1:0] t_q, t_d;                 // cycle within an MR
      logic [ELenW-1:0] idx_q, idx_d;            // loop bit index
      logic            src_q, src_d;                  // the bit source LOOP set (FaultCheck = 0 only)
      logic [1:0]      map_q, map_d;                  // the ladder map, 00 or 11 (01 / 10: a flip)
      logic [1:0]      flag_q, flag_d;                // TEST's result, 00 or 11 (FAIL, CMOV; 01 / 10: a flip)
      logic            map_bit, flag;
      assign map_bit = map_q[0];
      assign flag = test2_q[0] ? is_zero : flag_q[0]; // a TEST two cycles before: its compare, now

      function automatic logic [4:0] map_reg(logic [4:0] r, logic m);
        return (r >= 5'd1 && r <= 5'd4) ? (((r - 5'd1) ^ {3'b000, m, 1'b0}) + 5'd1) : r;
      endfunction

      // the bit IFBIT / MAP reads: bit idx of the scalar (source 0) or of the Fermat exponent (1), the
      // source named by the instruction (FaultCheck = 0: by src_q); with the parity of its word
      logic             bsrc, cur_bit, par_bad;
      logic [WSelW-1:0] wsel;
      logic [31:0]      sword, xword;
      logic             spar_sel, xpar_sel;
      assign bsrc = Fc ? usrc : src_q;
      assign wsel = idx_q[ELenW-1:5];
      always_comb begin
        sword = '0; spar_sel = 1'b0; xword = '0; xpar_sel = 1'b0;    // past the words: 0, parity 0
        for (int unsigned i = 0; i < SWords; i++)
          if (32'(wsel) == i) begin sword = scal_q[32 * i +: 32]; spar_sel = spar_q[i]; end
        for (int unsigned i = 0; i < EWords; i++)
          if (32'(wsel) == i) begin xword = expo_q[32 * i +: 32]; xpar_sel = xpar_q[i]; end
      end
      assign cur_bit = bsrc ? xword[idx_q[4:0]] : sword[idx_q[4:0]];
      assign par_bad = bsrc ? (^xword != xpar_sel) : (^sword != spar_sel);

      // n as the command's length gives it (a flipped n_q shifts every residue vector), clamped to N
      logic [16:0] lenq_plus, n_len;
      logic [NW-1:0] n_fix;
      logic          n_bad;
      assign lenq_plus = 17'(len_q) + 17'd8 + 17'(W - 1);
      assign n_len     = lenq_plus / 17'(W);
      assign n_fix     = (n_len > 17'(N)) ? NW'(N) : NW'(n_len);
      assign n_bad     = (17'(n_q) != n_len);

      // MR schedule (see header), all relative to t and K
      logic [CntW-1:0] k_, n_, t_be1, t_be2, t_end;
      assign k_    = CntW'(uk);
      assign n_    = CntW'(n_q);
      assign t_be1 = k_ + 16'd8;
      assign t_be2 = k_ + 16'd12 + n_;
      assign t_end = k_ + 16'd15 + (n_ << 1);

      logic [1:0]      pair_i;
      logic [CntW-1:0] bus_i;
      logic [4:0] pa, pb;
      always_comb begin
        pair_i = 2'((t_q < k_) ? t_q : t_q - k_);
        unique case (pair_i)
          2'd0: begin pa = ua0; pb = ub0; end
          2'd1: begin pa = ua1; pb = ub1; end
          default: begin pa = ua2; pb = ub2; end
        endcase
        bus_i = (t_q < t_be2) ? t_q - t_be1 : t_q - t_be2;
      end

      always_comb for (int unsigned j = 0; j < N; j++) bus_oh[j] = (bus_i == CntW'(j));
      always_comb begin
        bus = '0;
        for (int unsigned j = 0; j < N; j++) bus |= bus_oh_q[j] ? xi_w[j] : '0;
      end

      // ---- main FSM -----------------------------------------------------------------------------------
      logic [N-1:0] onehot_rj;
      always_comb begin
        onehot_rj = '0;
        for (int unsigned j = 0; j < N; j++) onehot_rj[j] = (rj_q == NW'(j));
      end

      logic [W-1:0] rmod;       // modulus of the channel a loaded residue belongs to
      logic [W-1:0] cj;
      always_comb begin
        cj = '0;
        for (int unsigned j = 0; j < N; j++) if (rj_q == NW'(j)) cj = rh_q ? c_p[j] : c_b[j];
      end
      assign rmod = W'((33'd1 << W) - 33'(cj));

      logic [W-1:0] st_b, st_p;
      always_comb begin
        st_b = '0;
        st_p = '0;
        for (int unsigned j = 0; j < N; j++) if (rj_q == NW'(j)) begin st_b = rd_b[j]; st_p = rd_p[j]; end
      end

      logic hi_zero;     // the upper 32-W bits of a loaded residue word are zero
      if (W < 32) begin : g_hi
        assign hi_zero = (eng_i.mem.rdata[31:W] == '0);
      end else begin : g_nohi
        assign hi_zero = 1'b1;
      end

      // a random word of SLOT_P (phase 8): its low W bits reduced once mod the channel's modulus
      // (a W-bit value is below 2 m): pka.model.rns.rz_residues
      logic [W-1:0] rz_word, rz_red;
      assign rz_word = W'(eng_i.mem.rdata);
      assign rz_red  = (rz_word >= rmod) ? rz_word - rmod : rz_word;

      logic scal_zero;
      assign scal_zero = (scal_q == '0);

      // TEST: a == 0 mod P on the active rowers (j < n)
      logic [N-1:0] act;
      always_comb for (int unsigned j = 0; j < N; j++) act[j] = (NW'(j) < n_q);
      assign is_zero = &(z0 | ~act) | &(z2 | ~act);

      // Store's word counters agree (req = rh n + rj, rj < n, two registers)
      logic st_bad;
      assign st_bad = (req_q != (rh_q ? CntW'(n_q) : CntW'(0)) + CntW'(rj_q)) || (rj_q >= n_q) || (rr_q > 5'd1);

      logic [IcW-1:0] icend_cmd;     // the command's exact slot count: a + e elen + l len
      assign icend_cmd = IcW'(slots_a) + IcW'(slots_e) * IcW'(ELenW'(eng_i.cmd.elen)) +
                         IcW'(slots_l) * IcW'(LenW'(eng_i.cmd.len));

      logic       flt;               // an integrity check fired this Exec cycle (FaultCheck = 1)
      logic [1:0] slot_inc;          // instruction slots completed this Exec cycle

      always_comb begin
        state_d = state_q;
        op_d = op_q; len_d = len_q; elen_d = elen_q; n_d = n_q; rz_d = rz_q;
        status_d = status_q; cyc_d = cyc_q; io_d = io_q;
        ph_d = ph_q; req_d = req_q; rsp_d = rsp_q;
        rj_d = rj_q; rt_d = rt_q; rh_d = rh_q; rr_d = rr_q;
        scal_d = scal_q; expo_d = expo_q; err_range_d = err_range_q;
        pc_d = pc_q; t_d = t_q; idx_d = idx_q; src_d = src_q; map_d = map_q;
        flag_d = test2_q[0] ? {2{is_zero}} : flag_q;  // TEST's compare, two cycles after its decode
        test_c = 1'b0; pend_d = 2'b00; sense_d = 2'b00; fcode_d = '0; cmov = 1'b0;
        ic_d = ic_q; icend_d = icend_q; tok_d = tok_q; spar_d = spar_q; xpar_d = xpar_q;
        flt = 1'b0; slot_inc = 2'd0;
        wipe = 1'b0;
        mem_req = 1'b0; mem_we = 1'b0; mem_addr = '0; mem_wdata = '0;
        done = 1'b0;
        // rower controls (defaults: idle)
        mul_sel = 3'd0; ra = '0; rb = '0; wd = '0; col = '0;
        acc_op = 2'd0; corr_sel = 1'b0; red_op = 2'd0; red_half = 1'b0;
        we_b = 1'b0; we_p = 1'b0; xi_we = 1'b0; lin_en = 1'b0; lin_sub = 1'b0; lin_kp = '0;
        ld_rf = 1'b0; ld_half = 1'b0; ld_cst = 1'b0; ld_idx = '0; ld_data = '0; ld_sel = '0;
        cox_clr = 1'b0; cox_half = 1'b0; cox_en = 1'b0;

        unique case (state_q)
          Idle: if (eng_i.cmd_valid) begin
            ic_d = '0; icend_d = icend_cmd; tok_d = checked ? TokPend : TokNone;
            spar_d = '0; xpar_d = '0;
            op_d = eng_i.cmd.op;
            len_d = LenW'(eng_i.cmd.len);
            elen_d = ELenW'(eng_i.cmd.elen);
            rz_d = (eng_i.cmd.op == OP_ECC_MUL) && eng_i.cmd.arg[1];
            n_d = NW'(n_cmd);
            cyc_d = '0; io_d = '0; ph_d = '0; req_d = '0; rsp_d = '0;
            rj_d = '0; rt_d = '0; rh_d = 1'b0; rr_d = '0; err_range_d = 1'b0;
            scal_d = '0; expo_d = '0; map_d = 2'b00; t_d = '0; flag_d = 2'b00;
            pc_d = entry;
            status_d = ST_OK;
            if (eng_i.cmd.op == OP_ZEROIZE) begin
              pc_d = '0; len_d = '0; elen_d = '0; n_d = '0; rz_d = 1'b0; state_d = Wipe; icend_d = '0; tok_d = TokNone;
            end else if (!entry_valid) begin
              status_d = ST_ERR_OPCODE; state_d = Done;
            end else if (32'(eng_i.cmd.len) < MinLen || 32'(eng_i.cmd.len) > MaxLen || 32'(n_cmd) > N ||
                         32'(eng_i.cmd.elen) > ((eng_i.cmd.op == OP_ECC_MUL) ? MaxElen : MaxLen) ||
                         (eng_i.cmd.op == OP_ECC_MUL && eng_i.cmd.elen == 0)) begin
              status_d = ST_ERR_LENGTH; state_d = Done;
            end else begin
              state_d = Load;
            end
          end

          Load: begin
            io_d = io_q + 1;
            if (req_q != cnt) begin
              mem_req = 1'b1;
              mem_addr = ld_addr;
              if (eng_i.mem.gnt) req_d = req_q + 1;
            end
            if (eng_i.mem.rvalid) begin
              rsp_d = rsp_q + 1;
              ld_sel = onehot_rj;
              unique case (ph_q)
                4'd0: if (!eng_i.mem.rdata[0]) status_d = ST_ERR_EVEN_MODULUS;
                4'd1: begin
                  ld_cst = 1'b1;
                  ld_data = W'(eng_i.mem.rdata);
                  ld_idx = rt_q;
                  if (32'(rt_q) + 1 == 12 + 2 * 32'(n_q)) begin rt_d = '0; rj_d = rj_q + 1; end
                  else rt_d = rt_q + 1;
                end
                4'd2, 4'd3, 4'd4, 4'd5, 4'd8: begin
                  ld_rf = 1'b1;
                  ld_half = rh_q;
                  ld_data = W'(eng_i.mem.rdata);
                  if (ph_q == 4'd8) begin
                    wd = RegRz;
                    ld_data = rz_red;            // raw random words: reduced, never refused
                  end else begin
                    wd = (ph_q == 4'd5) ? 5'd8 + rr_q : RegInA + 5'(ph_q - 4'd2);
                    if (!hi_zero || W'(eng_i.mem.rdata) >= rmod) err_range_d = 1'b1;
                  end
                  if (rj_q + 1 == n_q) begin
                    rj_d = '0;
                    rh_d = ~rh_q;
                    if (rh_q) rr_d = rr_q + 1;
                  end else rj_d = rj_q + 1;
                end
                4'd6: begin
                  scal_d[32 * rsp_q[$clog2(SWords+1)-1:0] +: 32] = eng_i.mem.rdata;
                  spar_d[rsp_q[SPW-1:0]] = ^eng_i.mem.rdata;
                end
                default: begin
                  expo_d[32 * rsp_q[$clog2(EWords+1)-1:0] +: 32] = eng_i.mem.rdata;
                  xpar_d[rsp_q[XPW-1:0]] = ^eng_i.mem.rdata;
                end
              endcase
            end
            if (req_q == cnt && rsp_q == cnt) begin
              req_d = '0; rsp_d = '0; rj_d = '0; rt_d = '0; rh_d = 1'b0; rr_d = '0;
              ph_d = ph_q + 1;
              if (ph_q == 4'd8 || (ph_q == 4'd7 && !rz_q)) begin
                if (status_q != ST_OK) state_d = Done;
                else if (err_range_q || (op_q == OP_ECC_MUL && scal_zero)) begin
                  status_d = ST_ERR_OPERAND_RANGE; state_d = Done;
                end else state_d = Exec;
              end
            end
            if (Fc && io_q >= 32'(LoadBound)) begin
              // a load that does not end (a flipped request / response counter): zeros, ERR_FAULT
              status_d = ST_ERR_FAULT; state_d = Store;
              req_d = '0; rsp_d = '0; rj_d = '0; rt_d = '0; rh_d = 1'b0; rr_d = '0;
            end
          end

          Exec: begin
            if (uop != UHalt) cyc_d = cyc_q + 1;
            unique case (uop)
              UHalt: begin
                state_d = Store; rj_d = '0; rh_d = 1'b0; rr_d = '0; req_d = '0;
                // the exact length, and the output check passed if the program has one
                if (ic_q != icend_q || !(tok_q == TokNone || tok_q == TokPass)) flt = 1'b1;
              end
              UMr: begin
                t_d = t_q + 1;
                // multiplier operands
                if (t_q < (k_ << 1)) begin
                  mul_sel = (t_q < k_) ? 3'd1 : 3'd2;
                  ra = map_reg(pa, map_bit);
                  rb = map_reg(pb, map_bit);
                end else if (t_q == k_ + 16'd4) mul_sel = 3'd3;
                else if (t_q == (k_ << 1) + 16'd4) mul_sel = 3'd4;
                else if (t_q >= t_be1 && t_q < t_be1 + n_) begin
                  mul_sel = 3'd5; col = ColW'(t_q - t_be1); cox_en = 1'b1;
                end else if (t_q >= t_be2 && t_q < t_be2 + n_) begin
                  mul_sel = 3'd5; col = ColW'(n_ + t_q - t_be2); cox_en = 1'b1;
                end
                // accumulator (products arrive two cycles after their issue)
                if (t_q == 16'd2 || t_q == k_ + 16'd2 || t_q == (k_ << 1) + 16'd6 || t_q == t_be2 + 16'd2)
                  acc_op = 2'd1;
                else if ((t_q > 16'd2 && t_q <= k_ + 16'd1) || (t_q > k_ + 16'd2 && t_q <= (k_ << 1) + 16'd1) ||
                         (t_q >= t_be1 + 16'd2 && t_q < t_be1 + 16'd2 + n_) ||
                         (t_q > t_be2 + 16'd2 && t_q < t_be2 + 16'd2 + n_))
                  acc_op = 2'd2;
                corr_sel = (t_q >= t_be2);
                // reductions
                if (t_q == k_ + 16'd2) begin red_op = 2'd1; red_half = 1'b0; end
                else if (t_q == k_ + 16'd6) begin red_op = 2'd2; red_half = 1'b0; end
                else if (t_q == (k_ << 1) + 16'd2) begin red_op = 2'd1; red_half = 1'b1; end
                else if (t_q == t_be1 + 16'd2 + n_) begin red_op = 2'd1; red_half = 1'b1; end
                else if (t_q == t_be2 + 16'd2 + n_) begin red_op = 2'd1; red_half = 1'b0; end
                // Cox clears, write-backs
                wd = map_reg(ud, map_bit);
                if (t_q == k_ + 16'd7) begin xi_we = 1'b1; cox_clr = 1'b1; end
                if (t_q == t_be2 - 16'd1) begin xi_we = 1'b1; we_p = 1'b1; cox_clr = 1'b1; cox_half = 1'b1; end
                if (t_q == t_end) begin we_b = 1'b1; t_d = '0; pc_d = pc_q + 1; slot_inc = 2'd1; end
                if (t_q > t_end) flt = 1'b1;        // past the MR's last cycle: a flipped t_q
              end
              UAdd, USub: begin
                lin_en = 1'b1;
                lin_sub = (uop == USub);
                lin_kp = ukp;
                ra = map_reg(ua0, map_bit);
                rb = map_reg(ub0, map_bit);
                wd = map_reg(ud, map_bit);
                pc_d = pc_q + 1;
                slot_inc = 2'd1;
              end
              ULoop: begin
                src_d = usrc;
                if (uimm) begin idx_d = ELenW'(ucode_st) - 1; pc_d = pc_q + 1; end   // 1..255
                else if ((usrc ? ELenW'(len_q) : elen_q) == '0) pc_d = utgt;
                else begin idx_d = (usrc ? ELenW'(len_q) : elen_q) - 1; pc_d = pc_q + 1; end
                slot_inc = 2'd1;
              end
              UEndLoop: begin
                if (idx_q == '0) pc_d = pc_q + 1;
                else begin idx_d = idx_q - 1; pc_d = utgt; end
                slot_inc = 2'd1;
              end
              UIfBit: begin
                pc_d = cur_bit ? pc_q + 1 : pc_q + 2;
                slot_inc = cur_bit ? 2'd1 : 2'd2;      // a skip passes two slots: the count is the bit's either way
                if (par_bad) flt = 1'b1;
              end
              UMap: begin
                map_d = {2{cur_bit}}; pc_d = pc_q + 1; slot_inc = 2'd1;
                if (par_bad) flt = 1'b1;
              end
              UUnmap: begin map_d = 2'b00; pc_d = pc_q + 1; slot_inc = 2'd1; end
              UJmp: begin pc_d = utgt; slot_inc = 2'd1; end
              UTest: begin
                ra = map_reg(ua0, map_bit);
                rb = map_reg(ub0, map_bit);
                test_c = 1'b1;                    // flag_d in the next cycle, from the rowers' compare
                pc_d = pc_q + 1;
                slot_inc = 2'd1;
              end
              UFail: begin
                // FaultCheck = 0 (campaigns only) disables the output check: its FAIL never fires.
                // It decides in the next cycle (below), from that cycle's flag
                if (Fc || ucode_st != ST_ERR_FAULT) begin
                  pend_d = 2'b11; sense_d = {2{usense}}; fcode_d = ucode_st;
                end
                pc_d = pc_q + 1;
                slot_inc = 2'd1;
                // the output check's token (only from PEND); when the check fires, the status ends the
                // command in the next cycle, whatever the token
                if (ucode_st == ST_ERR_FAULT) tok_d = (tok_q == TokPend) ? TokPass : TokBad;
              end
              UCmov: begin
                lin_en = 1'b1;                    // gated by the flag in the next cycle (lin_en_rw)
                cmov = 1'b1;
                ra = map_reg(ua0, map_bit);
                rb = map_reg(ub0, map_bit);
                wd = map_reg(ud, map_bit);
                pc_d = pc_q + 1;
                slot_inc = 2'd1;
              end
              default: begin state_d = Store; flt = 1'b1; end   // FaultCheck = 0: stores RES with ST_OK
            endcase
            ic_d = ic_q + IcW'(slot_inc);
            if (ic_d > icend_q) flt = 1'b1;           // past the program's exact length: end now
            if (flag_q[0] != flag_q[1] || map_q[0] != map_q[1] || n_bad) flt = 1'b1;
            if (test_q[0] != test_q[1] || test2_q[0] != test2_q[1] || pend_q[0] != pend_q[1]) flt = 1'b1;
            if (pend_q[0] && sense_q[0] != sense_q[1]) flt = 1'b1;
            if (Fc && flt) begin
              status_d = ST_ERR_FAULT; state_d = Store; rj_d = '0; rh_d = 1'b0; rr_d = '0; req_d = '0;
              t_d = '0; cyc_d = cyc_q + 1;             // this Exec cycle counts (HALT's too)
            end
            if (pend_q[0] && flag == sense_q[0]) begin
              // the FAIL decoded in the cycle before fires: end with its status; this cycle is not
              // counted (the FAIL's was) and its instruction is dropped. A FAIL never ends with OK, so
              // an OK code here is a flipped fcode_q (ERR_UNSUPPORTED is one bit)
              status_d = (Fc && (flt || fcode_q == ST_OK)) ? ST_ERR_FAULT : fcode_q;
              state_d = Store; rj_d = '0; rh_d = 1'b0; rr_d = '0; req_d = '0; t_d = '0; cyc_d = cyc_q;
            end
          end

          Wipe: begin
            // t = 0 .. WipeCyc-1: register-file word t[4:0] and constant word t of every rower
            wipe = 1'b1;                        // the rowers' files addressed by t_q directly (wd_rw, idx_rw)
            cox_clr = 1'b1;
            scal_d = '0; expo_d = '0; map_d = 2'b00; flag_d = 2'b00; idx_d = '0; src_d = 1'b0;
            spar_d = '0; xpar_d = '0; ic_d = '0; icend_d = '0; tok_d = TokNone;
            cyc_d = cyc_q + 1;
            t_d = t_q + 1;
            if (t_q == CntW'(WipeCyc - 1)) begin t_d = '0; state_d = Done; end
          end

          Store: begin
            // RES -> SLOT_R, RES_HI -> SLOT_R_HI: n words of B residues, then n of scaled B'
            io_d = io_q + 1;
            mem_req = 1'b1;
            mem_we = 1'b1;
            mem_addr = slot_addr(rr_q[0] ? SLOT_R_HI : SLOT_R, MemAw'(req_q));
            mem_wdata = (status_q == ST_OK) ? 32'(rh_q ? st_p : st_b) : '0;   // after a FAIL: zeros
            if (eng_i.mem.gnt) begin
              req_d = req_q + 1;
              if (rj_q + 1 == n_q) begin
                rj_d = '0;
                rh_d = ~rh_q;
                if (rh_q) begin
                  rr_d = rr_q + 1;
                  req_d = '0;
                  if (rr_q[0]) state_d = Done;
                end
              end else rj_d = rj_q + 1;
            end
            if (Fc && (st_bad || n_bad)) begin
              // the counters disagree (a flipped bit): ERR_FAULT, and the zeros written again from word 0
              // (once: a second disagreement, e.g. a flipped len_q, goes on with zeros and a repaired n)
              status_d = ST_ERR_FAULT; n_d = n_fix;
              if (status_q == ST_OK) begin req_d = '0; rj_d = '0; rh_d = 1'b0; rr_d = '0; end
            end
          end

          Done: begin
            done = 1'b1;
            state_d = Idle;
          end
          default: begin
            // an invalid state code (FaultCheck = 1: a flipped bit; decoded to the state it came from)
            state_d = Idle;
            if (Fc) begin
              if (near(state_q, Done)) done = 1'b1;    // the result is stored
              else if (near(state_q, Wipe)) begin state_d = Wipe; cyc_d = cyc_q + 1; end
              else if (!near(state_q, Idle)) begin
                // Load, Exec or Store (or two bits): end with ERR_FAULT, zeros stored
                status_d = ST_ERR_FAULT; state_d = Store; rj_d = '0; rh_d = 1'b0; rr_d = '0; req_d = '0;
                t_d = '0;
                if (near(state_q, Exec)) cyc_d = cyc_q + 1;
                else io_d = io_q + 1;
              end
            end
          end
        endcase
      end
      // outside the block above: the Cox's carry depends on cox_en combinationally
      assign k1_d = cox_en_q & cox_k;
      assign test_d = {2{test_c}};
      assign lin_en_rw = lin_en_q & (~cmov_q | flag);     // a CMOV writes when its flag is set

      // the rowers' addresses that bypass the control registers: the store's read (one register a
      // half, the result word of rower rj_q read in the same cycle) and the wipe's walk (t_q)
      assign ra_rw  = (state_q == Store) ? (rr_q[0] ? RegResHi : RegRes) : ra_q;
      assign wd_rw  = wipe ? t_q[4:0] : wd_q;
      assign idx_rw = wipe ? IdxW'(t_q) : ld_idx_q;

      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          mul_sel_q <= '0; ra_q <= '0; rb_q <= '0; wd_q <= '0; col_q <= '0; acc_op_q <= '0; red_op_q <= '0;
          lin_kp_q <= '0; corr_sel_q <= 1'b0; red_half_q <= 1'b0; we_b_q <= 1'b0; we_p_q <= 1'b0;
          xi_we_q <= 1'b0; lin_en_q <= 1'b0; lin_sub_q <= 1'b0; ld_half_q <= 1'b0; ld_rf_q <= '0;
          ld_cst_q <= '0; bus_oh_q <= '0; ld_idx_q <= '0; ld_data_q <= '0; cox_clr_q <= 1'b0;
          cox_half_q <= 1'b0; cox_en_q <= 1'b0; test_q <= 2'b00; test2_q <= 2'b00; pend_q <= 2'b00;
          sense_q <= 2'b00; fcode_q <= '0; cmov_q <= 1'b0;
        end else begin
          mul_sel_q <= mul_sel; ra_q <= ra; rb_q <= rb; wd_q <= wd; col_q <= col; acc_op_q <= acc_op;
          red_op_q <= red_op; lin_kp_q <= lin_kp; corr_sel_q <= corr_sel; red_half_q <= red_half;
          we_b_q <= we_b; we_p_q <= we_p; xi_we_q <= xi_we; lin_en_q <= lin_en; lin_sub_q <= lin_sub;
          ld_half_q <= ld_half; ld_rf_q <= ld_rf ? ld_sel : '0; ld_cst_q <= ld_cst ? ld_sel : '0;
          bus_oh_q <= bus_oh; ld_idx_q <= ld_idx; ld_data_q <= ld_data; cox_clr_q <= cox_clr;
          cox_half_q <= cox_half; cox_en_q <= cox_en; test_q <= test_d; test2_q <= test_q; pend_q <= pend_d;
          sense_q <= sense_d; fcode_q <= fcode_d; cmov_q <= cmov;
        end
      end

      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          state_q <= Idle; op_q <= '0; len_q <= '0; elen_q <= '0; n_q <= '0; rz_q <= 1'b0;
          status_q <= ST_OK; cyc_q <= '0; io_q <= '0; ph_q <= '0; req_q <= '0; rsp_q <= '0;
          rj_q <= '0; rt_q <= '0; rh_q <= 1'b0; rr_q <= '0; err_range_q <= 1'b0;
          pc_q <= '0; t_q <= '0; idx_q <= '0; src_q <= 1'b0; map_q <= 2'b00; k1_q <= 1'b0; k2_q <= 1'b0;
          flag_q <= 2'b00; ic_q <= '0; icend_q <= '0; tok_q <= TokNone;
        end else begin
          state_q <= state_d; op_q <= op_d; len_q <= len_d; elen_q <= elen_d; n_q <= n_d; rz_q <= rz_d;
          status_q <= status_d; cyc_q <= cyc_d; io_q <= io_d; ph_q <= ph_d; req_q <= req_d; rsp_q <= rsp_d;
          rj_q <= rj_d; rt_q <= rt_d; rh_q <= rh_d; rr_q <= rr_d; err_range_q <= err_range_d;
          pc_q <= pc_d; t_q <= t_d; idx_q <= idx_d; src_q <= src_d; map_q <= map_d;
          k1_q <= k1_d; k2_q <= k1_q; flag_q <= flag_d; ic_q <= ic_d; icend_q <= icend_d; tok_q <= tok_d;
        end
      end
      always_ff @(posedge clk_i) begin
        scal_q <= scal_d;
        expo_q <= expo_d;
        spar_q <= spar_d;
        xpar_q <= xpar_d;
      end

      assign cmd_ready = (state_q == Idle);
      assign status    = status_q;
      assign cycles    = cyc_q;
      assign io_cycles = io_q;

      logic unused;
      assign unused = ^{eng_i.cmd.arg[31:3], uword[63]};
  end
endmodule
