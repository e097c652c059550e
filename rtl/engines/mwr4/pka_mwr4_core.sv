// SPDX-License-Identifier: Apache-2.0
// pka_mwr4_core: scalable multiple-word radix-2^k Montgomery engine (paper 001, MWR4MM; radix 2 is
// Tenca-Koc MWR2MM, radix 8 Todorov-Tenca-Koc style) with left-to-right binary exponentiation.
//
// Operations (cmd_op_i), operands in the slots of pka_pkg, n = cmd_len_i bits (runtime, any length
// up to MaxLen, independent of NS: more digits than stages simply take more passes):
//   OP_MONTMUL  R = A*B*2^(-kD) mod N          reads N, A, B                 1 product
//   OP_MODMUL   R = A*B mod N                  reads N, A, B, W = R^2 mod N   2 products
//   OP_MODEXP   R = A^E mod N, E of cmd_elen_i bits; reads N, A, W, E       h + popcount(E) products
// with A, B, W < N, N odd and > 1, R = 2^(kD) (D = NS*ceil(ceil(n/k)/NS) digits; radix 2: D over n),
// W precomputed by the host. Results are canonical, in [0, N), written as ceil(n/32) words to SLOT_R.
// cmd_arg_i[0] = 1 disables the SEL freeze, cmd_arg_i[1] = 1 the SEL_PP coding (when built), so one
// build measures all four low-power variants. With ToggleCnt = 1 the toggle counters of the op are
// written to SLOT_X2 words 0..4 after the result: SEL, EN, generator nets, datapath registers, kernel
// cycles.
// Errors -> done with status: unknown op (ST_ERR_OPCODE); n = 0, n > MaxLen, elen > MaxLen
// (ST_ERR_LENGTH); even N (ST_ERR_EVEN_MODULUS); N = 1, N >= 2^n, A/B/W >= N, E >= 2^elen
// (ST_ERR_OPERAND_RANGE).
//
// Blocks: IO (loads the operands word-serially into internal word memories, stores the result),
// kernel control (feeds stage 0 one word per cycle: S from 0 / the last stage / the S memory, B with
// its correction, M; puts each stage's Booth window on the digit bus), the kernel (NS PEs), the
// post-processor (last pass: T and the correction code c), and the exponentiation sequencer.
// A product's result stays in its buffer as T with c (T + c*M canonical); every reader adds c*M on
// the fly (digit-serially for the multiplier, word-serially for the multiplicand and the store).
// Cycles per product (cycles_o counts products only; loads, checks and stores go to io_cycles_o):
//   1 + (passes - 1) * max(e, 2 NS) + 2 NS + e,  e = max(2, ceil((n + g)/w)), g = 3/4/5 (k = 1/2/3),
//   passes = ceil(D0 / NS), D0 = n (radix 2) or ceil(n/k).
`default_nettype none

module pka_mwr4_core
  import pka_pkg::*;
#(
  parameter int unsigned MaxLen    = 256,  // maximum modulus/exponent bits, multiple of 32, 32..4096
  parameter int unsigned MemAw     = 8,    // word address width: 16 slots of 2^(MemAw-4) words
  parameter int unsigned Radix     = 4,    // 2, 4 or 8
  parameter int unsigned NS        = 8,    // pipeline stages (PEs): 1..64
  parameter int unsigned W         = 16,   // word size: 4, 8, 16, 32
  parameter int unsigned LpCoding  = 1,    // 1: build the paper's SEL_PP coding
  parameter int unsigned LpFreeze  = 1,    // 1: build the SEL_PP/SEL_PM freeze
  parameter int unsigned ToggleCnt = 0     // 1: toggle counters, written to SLOT_X2 after each op
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               cmd_valid_i,
  output logic               cmd_ready_o,
  input  logic [7:0]         cmd_op_i,
  input  logic [15:0]        cmd_len_i,
  input  logic [15:0]        cmd_elen_i,
  input  logic [31:0]        cmd_arg_i,
  output logic               mem_req_o,
  input  logic               mem_gnt_i,
  output logic               mem_we_o,
  output logic [MemAw-1:0]   mem_addr_o,
  output logic [31:0]        mem_wdata_o,
  input  logic               mem_rvalid_i,
  input  logic [31:0]        mem_rdata_i,
  output logic               done_o,
  output logic [7:0]         status_o,
  output logic [31:0]        cycles_o,
  output logic [31:0]        io_cycles_o
);
  localparam int unsigned K         = Radix == 8 ? 3 : Radix == 4 ? 2 : 1;
  localparam int unsigned G         = K + 2;                       // guard bits of S
  localparam int unsigned LogW      = $clog2(W);
  localparam int unsigned EMaxRaw   = (MaxLen + G + W - 1) / W;
  localparam int unsigned EMax      = EMaxRaw < 2 ? 2 : EMaxRaw;   // words of S at n = MaxLen
  localparam int unsigned VW        = EMax * W;                    // bits of an operand buffer
  localparam int unsigned SlotWords = 1 << (MemAw - 4);
  localparam int unsigned NTog      = 5;
  localparam int unsigned TW        = 16;                          // width of the pass cycle counter
  localparam int unsigned VIW       = $clog2(VW);                  // bit index into a buffer
  localparam int unsigned EIW       = $clog2(MaxLen);              // bit index into the exponent

  initial begin
    if (MaxLen % 32 != 0 || MaxLen < 32 || MaxLen > 4096) $fatal(1, "MaxLen: multiple of 32, 32..4096");
    if (MaxLen / 32 > SlotWords) $fatal(1, "MemAw too small for MaxLen");
    if (ToggleCnt == 1 && SlotWords < NTog) $fatal(1, "MemAw too small for the toggle counters");
    if (Radix != 2 && Radix != 4 && Radix != 8) $fatal(1, "Radix must be 2, 4 or 8");
    if (W != 4 && W != 8 && W != 16 && W != 32) $fatal(1, "W must be 4, 8, 16 or 32");
    if (NS < 1 || NS > 64) $fatal(1, "NS must be 1..64");
    if (LpCoding > 1 || LpFreeze > 1 || ToggleCnt > 1) $fatal(1, "LpCoding, LpFreeze, ToggleCnt: 0 or 1");
  end

  typedef enum logic [2:0] {Idle, Load, Check, PSetup, PRun, Store, TogStore, Done} state_e;
  typedef enum logic [1:0] {OpMontmul, OpModmul, OpModexp} kind_e;
  typedef enum logic [2:0] {StFirst, StSecond, StSquare, StMult, StFinal} step_e;
  // operand buffers a product can read: A from XA/WW/AC/XB, B from those, YB or the constant 1
  typedef enum logic [2:0] {SrcXa, SrcYb, SrcWw, SrcAc, SrcXb, SrcOne} src_e;

  state_e state_q, state_d;
  kind_e  kind_q, kind_d;
  step_e  step_q, step_d;
  logic [7:0]  status_q, status_d;
  logic [31:0] cyc_q, cyc_d, io_q, io_d;
  logic [15:0] len_q, len_d, elen_q, elen_d;
  logic [1:0]  arg_q, arg_d;

  // ---- operand buffers (word memories of the IO block) -------------------------------------------
  logic [VW-1:0]     nm_q, nm_d, xa_q, xa_d, yb_q, yb_d, ww_q, ww_d, ac_q, ac_d, xb_q, xb_d;
  logic [MaxLen-1:0] ee_q, ee_d;
  logic [VW-1:0]     ssm_q, ssm_d, scm_q, scm_d;   // S memory: words of the last stage, next pass
  logic              clm_q, clm_d;
  logic [1:0]        cac_q, cac_d, cxb_q, cxb_d;   // correction codes of AC and XB

  // ---- load / store ------------------------------------------------------------------------------
  logic [1:0]  ld_q, ld_d;            // index in the op's list of slots to load
  logic [15:0] req_q, req_d, rsp_q, rsp_d;
  logic [15:0] nw32, nwe32, ld_words;
  logic [3:0]  ld_slot;
  logic        st_car_q, st_car_d;
  logic [32:0] st_sum;

  // ---- product control ---------------------------------------------------------------------------
  src_e        asel_q, asel_d, bsel_q, bsel_d;
  logic        dac_q, dac_d, dxb_q, dxb_d;     // destinations of the product
  logic [1:0]  ca_q, ca_d, cb_q, cb_d;         // correction codes of the product's A and B
  logic [15:0] ib_q, ib_d;                     // exponent bit index
  logic [15:0] e_q, e_d, per_q, per_d, ewb_q, ewb_d;
  logic        direct_q, direct_d;             // P = 2 NS: stage 0 reads the last stage directly
  logic [TW-1:0] t_q, t_d;                     // cycle within the pass
  logic [17:0] cov_q, cov_d;                   // bits of A covered up to the end of this pass
  logic        last_q, last_d, p0_q, p0_d;     // last pass, first pass
  logic [15:0] apos_q, apos_d;                 // bit position of the next digit
  logic        dcar_q, dcar_d, aprev_q, aprev_d, atop_q, atop_d, bcar_q, bcar_d;
  logic [15:0] oidx_q, oidx_d;                 // word index of the last stage's output

  // ---- kernel ports ------------------------------------------------------------------------------
  logic         k_valid, k_first, k_last, k_cl;
  logic [W-1:0] k_ss, k_sc, k_b, k_m;
  logic [K:0]   k_digit;
  logic         o_valid, o_first, o_last, o_cl;
  logic [W-1:0] o_ss, o_sc, o_b, o_m;
  logic [15:0]  tg_sel, tg_en, tg_net, tg_reg;
  logic [31:0]  tog_q [NTog];
  logic [31:0]  tog_d [NTog];

  logic [W-1:0] p_t;
  logic [1:0]   p_c;
  logic         post_valid;

  // ---- helpers -----------------------------------------------------------------------------------
  // c*M as a VW-bit two's complement pattern (c = +1, 0, -1, -2); -M = ~M | 1 as M is odd
  function automatic logic [VW-1:0] cm_pattern(logic [1:0] c, logic [VW-1:0] m);
    unique case (c)
      2'b01:   return m;
      2'b11:   return ~m | VW'(1);
      2'b10:   return {~m[VW-2:0] | (VW-1)'(1), 1'b0};
      default: return '0;
    endcase
  endfunction

  // bit pos of a value stored in the low ewb bits of v, sign-extended above
  function automatic logic vbit(logic [VW-1:0] v, logic [15:0] pos, logic [15:0] ewb);
    return pos < ewb ? v[VIW'(pos)] : v[VIW'(ewb - 16'd1)];
  endfunction

  // v with the bits above ewb replaced by copies of bit ewb-1 (a product result is e words)
  function automatic logic [VW-1:0] sext(logic [VW-1:0] v, logic [15:0] ewb);
    logic [VW-1:0] hi;
    hi = ~VW'(0) << ewb;
    return v[VIW'(ewb - 16'd1)] ? (v | hi) : (v & ~hi);
  endfunction

  function automatic logic [VW-1:0] src_vec(src_e s, logic [VW-1:0] xa, logic [VW-1:0] yb,
                                            logic [VW-1:0] ww, logic [VW-1:0] ac, logic [VW-1:0] xb);
    unique case (s)
      SrcXa:   return xa;
      SrcYb:   return yb;
      SrcWw:   return ww;
      SrcAc:   return ac;
      SrcXb:   return xb;
      default: return VW'(1);
    endcase
  endfunction

  logic [VW-1:0] a_vec, b_vec, cma, cmb, cmac, ac_ext;
  logic [K-1:0]  a_raw, a_cm;
  logic [K:0]    a_sum;
  logic [W:0]    b_sum;
  logic [15:0]   top_bit;
  logic          e_zero;

  always_comb begin
    a_vec = src_vec(asel_q, xa_q, yb_q, ww_q, ac_q, xb_q);
    b_vec = src_vec(bsel_q, xa_q, yb_q, ww_q, ac_q, xb_q);
    cma   = cm_pattern(ca_q, nm_q);
    cmb   = cm_pattern(cb_q, nm_q);
    cmac  = cm_pattern(cac_q, nm_q);
    ac_ext = sext(ac_q, ewb_q);
    for (int i = 0; i < K; i++) begin
      a_raw[i] = vbit(a_vec, apos_q + 16'(i), ewb_q);
      a_cm[i]  = vbit(cma, apos_q + 16'(i), ewb_q);
    end
    a_sum = (K+1)'(a_raw) + (K+1)'(a_cm) + (K+1)'(dcar_q);      // digit-serial A + c*M
    b_sum = (W+1)'(b_vec[t_q*W +: W]) + (W+1)'(cmb[t_q*W +: W]) + (W+1)'(t_q == 0 ? 1'b0 : bcar_q);
    nw32  = (len_q + 16'd31) >> 5;
    nwe32 = (elen_q + 16'd31) >> 5;
    top_bit = '0;
    e_zero  = 1'b1;
    for (int i = 0; i < MaxLen; i++) begin
      if (ee_q[i]) begin
        top_bit = 16'(i);
        e_zero  = 1'b0;
      end
    end
  end

  // slots loaded per op: MONTMUL N A B, MODMUL N A B W, MODEXP N A W E
  always_comb begin
    unique case (ld_q)
      2'd0: ld_slot = 4'(SLOT_N);
      2'd1: ld_slot = 4'(SLOT_A);
      2'd2: ld_slot = kind_q == OpModexp ? 4'(SLOT_W) : 4'(SLOT_B);
      default: ld_slot = kind_q == OpModexp ? 4'(SLOT_E) : 4'(SLOT_W);
    endcase
    ld_words = ld_slot == 4'(SLOT_E) ? nwe32 : nw32;
  end

  // ---- kernel feed -------------------------------------------------------------------------------
  always_comb begin
    k_valid = (state_q == PRun) && (t_q < TW'(e_q));
    k_first = k_valid && (t_q == 0);
    k_last  = k_valid && (t_q == TW'(e_q - 16'd1));
    if (p0_q) begin
      k_ss = '0;
      k_sc = '0;
      k_cl = 1'b0;
    end else if (direct_q) begin
      k_ss = o_ss;
      k_sc = o_sc;
      k_cl = o_cl;
    end else begin
      k_ss = ssm_q[t_q*W +: W];
      k_sc = scm_q[t_q*W +: W];
      k_cl = clm_q;
    end
    k_b = b_sum[W-1:0];
    k_m = nm_q[t_q*W +: W];
    k_digit = {a_sum[K-1:0], aprev_q};
  end

  pka_mwr4_kernel #(
    .Radix(Radix), .W(W), .NS(NS), .Coding(LpCoding), .Freeze(LpFreeze), .ToggleCnt(ToggleCnt)
  ) u_kernel (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .in_valid_i(k_valid), .in_first_i(k_first), .in_last_i(k_last),
    .in_ss_i(k_ss), .in_sc_i(k_sc), .in_cl_i(k_cl), .in_b_i(k_b), .in_m_i(k_m),
    .digit_i(k_digit), .freeze_en_i(!arg_q[0]), .coding_en_i(!arg_q[1]),
    .out_valid_o(o_valid), .out_first_o(o_first), .out_last_o(o_last),
    .out_ss_o(o_ss), .out_sc_o(o_sc), .out_cl_o(o_cl), .out_b_o(o_b), .out_m_o(o_m),
    .tog_sel_o(tg_sel), .tog_en_o(tg_en), .tog_net_o(tg_net), .tog_reg_o(tg_reg)
  );

  assign post_valid = (state_q == PRun) && last_q && (t_q >= TW'(2 * NS)) && o_valid;

  pka_mwr4_post #(.W(W)) u_post (
    .clk_i(clk_i), .valid_i(post_valid), .first_i(o_first), .ss_i(o_ss), .sc_i(o_sc), .cl_i(o_cl),
    .b_i(o_b), .m_i(o_m), .a_top_i(K > 1 && atop_q), .t_o(p_t), .c_o(p_c)
  );

  // ---- control -----------------------------------------------------------------------------------
  always_comb begin
    state_d = state_q; kind_d = kind_q; step_d = step_q; status_d = status_q;
    cyc_d = cyc_q; io_d = io_q; len_d = len_q; elen_d = elen_q; arg_d = arg_q;
    nm_d = nm_q; xa_d = xa_q; yb_d = yb_q; ww_d = ww_q; ac_d = ac_q; xb_d = xb_q; ee_d = ee_q;
    ssm_d = ssm_q; scm_d = scm_q; clm_d = clm_q; cac_d = cac_q; cxb_d = cxb_q;
    ld_d = ld_q; req_d = req_q; rsp_d = rsp_q; st_car_d = st_car_q;
    asel_d = asel_q; bsel_d = bsel_q; dac_d = dac_q; dxb_d = dxb_q; ca_d = ca_q; cb_d = cb_q;
    ib_d = ib_q; e_d = e_q; per_d = per_q; ewb_d = ewb_q; direct_d = direct_q;
    t_d = t_q; cov_d = cov_q; last_d = last_q; p0_d = p0_q;
    apos_d = apos_q; dcar_d = dcar_q; aprev_d = aprev_q; atop_d = atop_q; bcar_d = bcar_q;
    oidx_d = oidx_q;
    for (int i = 0; i < NTog; i++) tog_d[i] = tog_q[i];
    mem_req_o = 1'b0; mem_we_o = 1'b0; mem_addr_o = '0; mem_wdata_o = '0;
    done_o = 1'b0;
    st_sum = '0;

    if (ToggleCnt == 1) begin
      tog_d[0] = tog_q[0] + 32'(tg_sel);
      tog_d[1] = tog_q[1] + 32'(tg_en);
      tog_d[2] = tog_q[2] + 32'(tg_net);
      tog_d[3] = tog_q[3] + 32'(tg_reg);
      tog_d[4] = tog_q[4] + 32'(state_q == PRun);
    end

    unique case (state_q)
      Idle: if (cmd_valid_i) begin
        cyc_d = '0; io_d = '0; ld_d = '0; req_d = '0; rsp_d = '0;
        len_d = cmd_len_i; elen_d = cmd_elen_i; arg_d = cmd_arg_i[1:0];
        for (int i = 0; i < NTog; i++) tog_d[i] = '0;
        nm_d = '0; xa_d = '0; yb_d = '0; ww_d = '0; ee_d = '0;
        status_d = ST_OK;
        state_d  = Load;
        unique case (op_e'(cmd_op_i))
          OP_MONTMUL: kind_d = OpMontmul;
          OP_MODMUL:  kind_d = OpModmul;
          OP_MODEXP:  kind_d = OpModexp;
          default: begin
            status_d = ST_ERR_OPCODE;
            state_d  = Done;
          end
        endcase
        if (status_d == ST_OK && (cmd_len_i == 0 || 32'(cmd_len_i) > MaxLen
            || (op_e'(cmd_op_i) == OP_MODEXP && 32'(cmd_elen_i) > MaxLen))) begin
          status_d = ST_ERR_LENGTH;
          state_d  = Done;
        end
      end

      Load: begin
        io_d = io_q + 1;
        if (req_q < ld_words) begin
          mem_req_o  = 1'b1;
          mem_addr_o = MemAw'(32'(ld_slot) * SlotWords + 32'(req_q));
          if (mem_gnt_i) req_d = req_q + 1;
        end
        if (mem_rvalid_i) begin
          unique case (ld_slot)
            4'(SLOT_N): nm_d[32*rsp_q +: 32] = mem_rdata_i;
            4'(SLOT_A): xa_d[32*rsp_q +: 32] = mem_rdata_i;
            4'(SLOT_B): yb_d[32*rsp_q +: 32] = mem_rdata_i;
            4'(SLOT_W): ww_d[32*rsp_q +: 32] = mem_rdata_i;
            default:    ee_d[32*rsp_q +: 32] = mem_rdata_i;
          endcase
          rsp_d = rsp_q + 1;
        end
        if (rsp_d == ld_words && req_d == ld_words) begin  // this slot complete (or empty)
          req_d = '0;
          rsp_d = '0;
          ld_d  = ld_q + 1;
          if (ld_q == 2'd3 || (kind_q == OpMontmul && ld_q == 2'd2)) state_d = Check;
        end
      end

      Check: begin
        io_d = io_q + 1;
        e_d   = (len_q + 16'(G + W - 1)) >> LogW;
        if (e_d < 16'd2) e_d = 16'd2;
        ewb_d = e_d << LogW;
        direct_d = e_d <= 16'(2 * NS);
        per_d = direct_d ? 16'(2 * NS) : e_d;
        step_d = StFirst;
        state_d = PSetup;
        if (!nm_q[0]) begin
          status_d = ST_ERR_EVEN_MODULUS;
        end else if ((nm_q >> len_q) != '0 || nm_q == VW'(1) || xa_q >= nm_q
                     || (kind_q != OpModexp && yb_q >= nm_q) || (kind_q != OpMontmul && ww_q >= nm_q)
                     || (kind_q == OpModexp && (ee_q >> elen_q) != '0)) begin
          status_d = ST_ERR_OPERAND_RANGE;
        end
        if (status_d != ST_OK) state_d = Done;
      end

      PSetup: begin
        cyc_d = cyc_q + 1;
        // operands of this product
        dac_d = 1'b1;
        dxb_d = 1'b0;
        unique case (step_q)
          StFirst: begin
            if (kind_q == OpModexp) begin
              asel_d = e_zero ? SrcWw : SrcXa;
              bsel_d = e_zero ? SrcOne : SrcWw;
              dxb_d  = !e_zero;
            end else begin
              asel_d = SrcXa;
              bsel_d = SrcYb;
            end
          end
          StSecond: begin asel_d = SrcAc; bsel_d = SrcWw; end
          StSquare: begin asel_d = SrcAc; bsel_d = SrcAc; end
          StMult:   begin asel_d = SrcAc; bsel_d = SrcXb; end
          default:  begin asel_d = SrcAc; bsel_d = SrcOne; end
        endcase
        ca_d = asel_d == SrcAc ? cac_q : asel_d == SrcXb ? cxb_q : 2'b00;
        cb_d = bsel_d == SrcAc ? cac_q : bsel_d == SrcXb ? cxb_q : 2'b00;
        t_d = '0; p0_d = 1'b1;
        cov_d  = 18'(K * NS);
        last_d = 18'(K * NS) >= 18'(len_q);
        apos_d = '0; dcar_d = 1'b0; aprev_d = 1'b0; atop_d = 1'b0; bcar_d = 1'b0;
        state_d = PRun;
      end

      PRun: begin
        cyc_d = cyc_q + 1;
        // stage 0: B word with its correction carry
        if (k_valid) bcar_d = b_sum[W];
        // the digit bus: stage s takes its window at t = 2s
        if (t_q < TW'(2 * NS) && !t_q[0]) begin
          apos_d  = apos_q + 16'(K);
          dcar_d  = a_sum[K];
          aprev_d = a_sum[K-1];
          atop_d  = a_sum[K-1];
        end
        // the last stage's output: to the S memory, or (last pass) through the post-processor
        if (o_valid) begin
          oidx_d = o_first ? '0 : oidx_q + 1;
          if (post_valid) begin
            if (dac_q) ac_d[oidx_d*W +: W] = p_t;
            if (dxb_q) xb_d[oidx_d*W +: W] = p_t;
          end else begin
            ssm_d[oidx_d*W +: W] = o_ss;
            scm_d[oidx_d*W +: W] = o_sc;
            if (o_first) clm_d = o_cl;
          end
        end
        t_d = t_q + 1;
        if (!last_q && t_q == TW'(per_q - 16'd1)) begin   // next pass
          t_d    = '0;
          p0_d   = 1'b0;
          cov_d  = cov_q + 18'(K * NS);
          last_d = cov_d >= 18'(len_q);
        end
        if (last_q && t_q == TW'(16'(2 * NS) + e_q - 16'd1)) begin  // the last word is post-processed
          if (dac_q) cac_d = p_c;
          if (dxb_q) cxb_d = p_c;
          state_d = PSetup;
          unique case (step_q)
            StFirst: begin
              if (kind_q == OpMontmul) state_d = Store;
              else if (kind_q == OpModmul) step_d = StSecond;
              else if (!e_zero && top_bit != 0) begin
                step_d = StSquare;
                ib_d   = top_bit - 16'd1;
              end else step_d = StFinal;
            end
            StSquare: begin
              if (ee_q[EIW'(ib_q)]) step_d = StMult;
              else if (ib_q == 0) step_d = StFinal;
              else ib_d = ib_q - 16'd1;
            end
            StMult: begin
              if (ib_q == 0) step_d = StFinal;
              else begin
                step_d = StSquare;
                ib_d   = ib_q - 16'd1;
              end
            end
            default: state_d = Store;   // StSecond, StFinal
          endcase
          if (state_d == Store) begin
            req_d = '0;
            st_car_d = 1'b0;
          end
        end
      end

      Store: begin
        io_d = io_q + 1;
        st_sum = 33'(ac_ext[32*req_q +: 32]) + 33'(cmac[32*req_q +: 32]) + 33'(st_car_q);
        mem_req_o   = 1'b1;
        mem_we_o    = 1'b1;
        mem_addr_o  = MemAw'(SLOT_R * SlotWords + 32'(req_q));
        mem_wdata_o = st_sum[31:0];
        if (mem_gnt_i) begin
          st_car_d = st_sum[32];
          req_d    = req_q + 1;
          if (req_q + 1 == nw32) begin
            req_d   = '0;
            state_d = ToggleCnt == 1 ? TogStore : Done;
          end
        end
      end

      TogStore: begin
        io_d = io_q + 1;
        mem_req_o   = 1'b1;
        mem_we_o    = 1'b1;
        mem_addr_o  = MemAw'(SLOT_X2 * SlotWords + 32'(req_q));
        mem_wdata_o = tog_q[req_q[2:0]];
        if (mem_gnt_i) begin
          req_d = req_q + 1;
          if (req_q + 1 == 16'(NTog)) state_d = Done;
        end
      end

      Done: begin
        done_o  = 1'b1;
        state_d = Idle;
      end

      default: state_d = Idle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= Idle; kind_q <= OpMontmul; step_q <= StFirst; status_q <= ST_OK;
      cyc_q <= '0; io_q <= '0; ld_q <= '0; req_q <= '0; rsp_q <= '0;
      cac_q <= '0; cxb_q <= '0;
    end else begin
      state_q <= state_d; kind_q <= kind_d; step_q <= step_d; status_q <= status_d;
      cyc_q <= cyc_d; io_q <= io_d; ld_q <= ld_d; req_q <= req_d; rsp_q <= rsp_d;
      cac_q <= cac_d; cxb_q <= cxb_d;
    end
  end

  always_ff @(posedge clk_i) begin
    len_q <= len_d; elen_q <= elen_d; arg_q <= arg_d;
    nm_q <= nm_d; xa_q <= xa_d; yb_q <= yb_d; ww_q <= ww_d; ac_q <= ac_d; xb_q <= xb_d; ee_q <= ee_d;
    ssm_q <= ssm_d; scm_q <= scm_d; clm_q <= clm_d;
    st_car_q <= st_car_d;
    asel_q <= asel_d; bsel_q <= bsel_d; dac_q <= dac_d; dxb_q <= dxb_d; ca_q <= ca_d; cb_q <= cb_d;
    ib_q <= ib_d; e_q <= e_d; per_q <= per_d; ewb_q <= ewb_d; direct_q <= direct_d;
    t_q <= t_d; cov_q <= cov_d; last_q <= last_d; p0_q <= p0_d;
    apos_q <= apos_d; dcar_q <= dcar_d; aprev_q <= aprev_d; atop_q <= atop_d; bcar_q <= bcar_d;
    oidx_q <= oidx_d;
    tog_q <= tog_d;
  end

  assign cmd_ready_o = (state_q == Idle);
  assign status_o    = status_q;
  assign cycles_o    = cyc_q;
  assign io_cycles_o = io_q;

  logic unused;
  assign unused = ^{cmd_arg_i[31:2], o_last};
endmodule
