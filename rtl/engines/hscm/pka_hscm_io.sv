// SPDX-License-Identifier: Apache-2.0
// pka_hscm_io: the word port side of the HSCM engine: loads the operands of an operation from
// their slots into the HSCMs' operand RAMs (W-bit words, entries zero-filled), the N RAM or the
// exponent registers, checking moduli and operand lengths on the way, and stores the result.
//
// Load program per operation (slot -> destination, check), in this order:
//   MONTMUL  N -> MOD (odd, exactly n bits), A -> A, B -> B, X0 -> N RAM (host N)
//   MODMUL   N -> MOD, A -> A, B -> B, W -> W
//   MODEXP   N -> MOD, A -> A, W -> W, E -> exponent (elen bits)     (MODEXP_CT: to both HSCMs)
//   MODRED   N -> MOD, A -> MSG words 0.., A_HI -> MSG after A (A_HI:A < 2^(2n)), W -> W
//   MUL      A -> A, B -> B (both < 2^n)
//   RSA_CRT  P -> MOD0/QQ1 (odd, n_p bits), Q -> MOD1/QQ0 (odd, n_q bits), N -> NMOD0 (n bits),
//            A -> MSG0/MSG1, DP -> exponent 0 (< 2^(n_p+X)), DQ -> exponent 1 (< 2^(n_q+X)),
//            QINV -> U0, X2 -> U1,
//            X0 -> W0 (R_p^3 mod p), X1 -> W1 (R_q^3 mod q)
// A port word is split into W-bit words (W = 16: two; W = 64: two port words make one); then the
// rest of the entry is written with zeros, so that every operand read beyond its length is 0.
// The first failed check ends the load: even modulus ST_ERR_EVEN_MODULUS, a modulus without
// exactly its given length ST_ERR_LENGTH, an operand too long ST_ERR_OPERAND_RANGE.
// Store: ceil(bits/32) port words of an entry of HSCM 0 to SLOT_R (MUL: then SLOT_R_HI); MONTMUL's
// bits from n + 2K + 1 up are stored as 0 (the entry's words above the result hold older data).
// One port access at a time: about 3 cycles per port word plus stalls (io_cycles).
// Timing: the load item, the RAM write addresses, the port address and the length masks are
// registers (computed one cycle ahead), so the RAM and the port see flip-flops, not the item
// table's decoding. The item and port word counters move in three ways only (to 0, held, + 1):
// the state machine picks one (lis, lps) and each registered value takes the matching one of
// three candidates made from registers (the next item is itself a register, nitem_q, made a
// cycle ahead: the item never advances in two cycles in a row), so no path runs from the state
// machine's conditions through the item table, a length compare or an address adder.
// wipe_i (OP_ZEROIZE) holds every register at 0 (no port access).
`default_nettype none

module pka_hscm_io
  import pka_pkg::*;
  import pka_hscm_pkg::*;
#(
  parameter int unsigned W     = 16,
  parameter int unsigned MemAw = 10,
  parameter int unsigned Aw    = 12,
  parameter int unsigned Ew    = 68,   // words per RAM entry
  parameter int unsigned TagW  = 9,
  parameter int unsigned K     = W      // digit bits (the result's n + 2K + 1 bits)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             wipe_i,        // OP_ZEROIZE: every register to 0
  input  logic             load_i,        // start loading (op/len/elen/lenq stable)
  input  logic             store_i,       // start storing
  input  op_e              op_i,
  input  logic [15:0]      len_i,
  input  logic [15:0]      elen_i,
  input  logic [15:0]      lenq_i,
  input  logic [15:0]      dpl_i,         // RSA_CRT: bits of DP and DQ (bits(p|q) + X)
  input  logic [15:0]      dql_i,
  input  logic [15:0]      store_words_i, // port words to store
  input  logic [7:0]       store_ent_i,
  output logic             load_done_o,   // pulse; status in load_err_o
  output logic [7:0]       load_err_o,
  output logic             store_done_o,
  // memory port
  output logic             mem_req_o,
  input  logic             mem_gnt_i,
  output logic             mem_we_o,
  output logic [MemAw-1:0] mem_addr_o,
  output logic [31:0]      mem_wdata_o,
  input  logic             mem_rvalid_i,
  input  logic [31:0]      mem_rdata_i,
  // RAM writes (both HSCMs), N RAM write (HSCM 0), exponent registers
  output logic             we_o [2],
  output logic [Aw-1:0]    wa_o [2],
  output logic [W-1:0]     wd_o,
  output logic             nwe_o,
  output logic [TagW-1:0]  nwa_o,
  output logic             e_clear_o [2],
  output logic             e_push_o [2],
  output logic [31:0]      e_word_o,
  // store reads (HSCM 0, port a)
  output logic [Aw-1:0]    ra_o,
  input  logic [W-1:0]     rd_i
);
  localparam int unsigned Lw        = $clog2(W);
  localparam int unsigned SlotWords = 1 << (MemAw - 4);

  typedef enum logic [1:0] {DST_RAM, DST_NRAM, DST_EXP} dst_e;
  typedef enum logic [1:0] {MV_ZERO, MV_HOLD, MV_INC} mv_e;   // a counter's next value
  typedef enum logic [1:0] {CHK_NONE, CHK_MOD, CHK_LEN, CHK_LIM} chk_e;
  typedef struct packed {
    logic        valid;
    logic [3:0]  slot;
    logic [15:0] bits;        // bits to load: ceil(bits/32) port words
    dst_e        dst;
    logic        en0, en1;    // HSCMs written
    logic [7:0]  ent0, ent1;
    logic [15:0] off;         // first W-word in the entry
    logic [15:0] fill;        // zero-fill up to this W-word
    chk_e        chk;
    logic [16:0] lim;         // CHK_MOD/CHK_LEN: exact bit length; CHK_LIM: value < 2^lim
  } item_t;

  function automatic logic [15:0] pw(logic [15:0] bits);
    return (bits + 16'd31) >> 5;
  endfunction

  function automatic item_t it(logic [3:0] slot, logic [15:0] bits, dst_e dst, logic en0,
                               logic [7:0] ent0, logic en1, logic [7:0] ent1, chk_e chk,
                               logic [16:0] lim);
    item_t x;
    x.valid = 1'b1;
    x.slot  = slot;
    x.bits  = bits;
    x.dst   = dst;
    x.en0   = en0;
    x.en1   = en1;
    x.ent0  = ent0;
    x.ent1  = ent1;
    x.off   = '0;
    x.fill  = 16'(Ew);
    x.chk   = chk;
    x.lim   = lim;
    return x;
  endfunction

  function automatic item_t load_item(op_e op, logic [3:0] idx, logic [15:0] n, logic [15:0] el,
                                      logic [15:0] nq, logic [15:0] dpl, logic [15:0] dql);
    item_t x;
    logic  two;
    x = '0;
    two = op == OP_MODEXP_CT;
    unique case (op)
      OP_MONTMUL, OP_MODMUL: unique case (idx)
        4'd0: x = it(4'(SLOT_N), n, DST_RAM, 1'b1, ENT_MOD, 1'b0, '0, CHK_MOD, 17'(n));
        4'd1: x = it(4'(SLOT_A), n, DST_RAM, 1'b1, ENT_A, 1'b0, '0, CHK_NONE, '0);
        4'd2: x = it(4'(SLOT_B), n, DST_RAM, 1'b1, ENT_B, 1'b0, '0, CHK_NONE, '0);
        4'd3: begin
          if (op == OP_MONTMUL) x = it(4'(SLOT_X0), n, DST_NRAM, 1'b1, '0, 1'b0, '0, CHK_NONE, '0);
          else x = it(4'(SLOT_W), n, DST_RAM, 1'b1, ENT_W, 1'b0, '0, CHK_NONE, '0);
        end
        default: ;
      endcase
      OP_MODEXP, OP_MODEXP_CT: unique case (idx)
        4'd0: x = it(4'(SLOT_N), n, DST_RAM, 1'b1, ENT_MOD, two, ENT_MOD, CHK_MOD, 17'(n));
        4'd1: x = it(4'(SLOT_A), n, DST_RAM, 1'b1, ENT_A, two, ENT_A, CHK_NONE, '0);
        4'd2: x = it(4'(SLOT_W), n, DST_RAM, 1'b1, ENT_W, two, ENT_W, CHK_NONE, '0);
        4'd3: x = it(4'(SLOT_E), el, DST_EXP, 1'b1, '0, 1'b0, '0, CHK_NONE, '0);
        default: ;
      endcase
      OP_MODRED: unique case (idx)
        4'd0: x = it(4'(SLOT_N), n, DST_RAM, 1'b1, ENT_MOD, 1'b0, '0, CHK_MOD, 17'(n));
        4'd1: begin
          x = it(4'(SLOT_A), n, DST_RAM, 1'b1, ENT_MSG, 1'b0, '0, CHK_NONE, '0);
          x.fill = '0;
        end
        4'd2: begin
          x = it(4'(SLOT_A_HI), n, DST_RAM, 1'b1, ENT_MSG, 1'b0, '0, CHK_LIM,
                 17'({n, 1'b0}) - 17'({pw(n), 5'd0}));
          x.off  = 16'((32'(pw(n)) * 32) >> Lw);
          x.fill = 16'(2 * Ew);
        end
        4'd3: x = it(4'(SLOT_W), n, DST_RAM, 1'b1, ENT_W, 1'b0, '0, CHK_NONE, '0);
        default: ;
      endcase
      OP_MUL: unique case (idx)
        4'd0: x = it(4'(SLOT_A), n, DST_RAM, 1'b1, ENT_A, 1'b0, '0, CHK_LIM, 17'(n));
        4'd1: x = it(4'(SLOT_B), n, DST_RAM, 1'b1, ENT_B, 1'b0, '0, CHK_LIM, 17'(n));
        default: ;
      endcase
      OP_RSA_CRT: unique case (idx)
        4'd0: x = it(4'(SLOT_P), el, DST_RAM, 1'b1, ENT_MOD, 1'b1, ENT_QQ, CHK_MOD, 17'(el));
        4'd1: x = it(4'(SLOT_Q), nq, DST_RAM, 1'b1, ENT_QQ, 1'b1, ENT_MOD, CHK_MOD, 17'(nq));
        4'd2: x = it(4'(SLOT_N), n, DST_RAM, 1'b1, ENT_NMOD, 1'b0, '0, CHK_LEN, 17'(n));
        4'd3: begin
          x = it(4'(SLOT_A), n, DST_RAM, 1'b1, ENT_MSG, 1'b1, ENT_MSG, CHK_NONE, '0);
          x.fill = 16'(2 * Ew);
        end
        4'd4: x = it(4'(SLOT_DP), dpl, DST_EXP, 1'b1, '0, 1'b0, '0, CHK_LIM, 17'(dpl));
        4'd5: x = it(4'(SLOT_DQ), dql, DST_EXP, 1'b0, '0, 1'b1, '0, CHK_LIM, 17'(dql));
        4'd6: x = it(4'(SLOT_QINV), el, DST_RAM, 1'b1, ENT_U, 1'b0, '0, CHK_NONE, '0);
        4'd7: x = it(4'(SLOT_X2), nq, DST_RAM, 1'b0, '0, 1'b1, ENT_U, CHK_NONE, '0);
        4'd8: x = it(4'(SLOT_X0), el, DST_RAM, 1'b1, ENT_W, 1'b0, '0, CHK_NONE, '0);
        4'd9: x = it(4'(SLOT_X1), nq, DST_RAM, 1'b0, '0, 1'b1, ENT_W, CHK_NONE, '0);
        default: ;
      endcase
      default: ;
    endcase
    return x;
  endfunction

  function automatic logic [Aw-1:0] addr(logic [7:0] ent, logic [15:0] x);
    return Aw'(ent_base(ent, Ew) + 32'(x));
  endfunction

  typedef enum logic [3:0] {
    IO_IDLE, L_ITEM, L_REQ, L_RSP, L_WR, L_FILL, L_END, S_RD0, S_RD1, S_ASM, S_REQ
  } ist_e;

  ist_e        st_q, st_d;
  logic [3:0]  li_q, li_d;       // item
  logic [15:0] lp_q, lp_d;       // port word
  logic [15:0] lw_q, lw_d;       // W-word
  logic [63:0] buf_q, buf_d;
  logic [1:0]  lh_q, lh_d;       // W-words of buf_q still to write
  logic [7:0]  err_q, err_d;
  logic [31:0] sw_q, sw_d;       // store: assembled port word

  item_t       item, item_d;     // item_q: the current load item (of li_q)
  item_t       item_q;
  item_t       nitem_q, nitem_d; // the item after it (of li_q + 1)
  logic [15:0] npw_q, npw_d, nnpw_q, nnpw_d;   // port words of item_q, of nitem_q
  mv_e         lis, lps;         // how li and lp move this cycle
  logic [15:0] lpn;              // lp_q + 1
  logic [Aw-1:0] wa_q [2], wa_d [2];   // RAM write addresses (entry base + lw)
  logic [Aw-1:0] sa_q, sa_d;     // store: RAM read address
  logic [MemAw-1:0] pa_q, pa_d;  // port address of port word lp
  logic [31:0] lmask_q, lmask_d; // bits of port word lp that the item's length allows
  logic [31:0] smask_q, smask_d; // store: bits of port word lp inside the result (MONTMUL)
  logic        top_q, top_d;     // port word lp holds the top bit (CHK_MOD/LEN)
  logic [31:0] topm_q, topm_d;   //   at this bit
  logic        storing;
  logic [15:0] topw;             // port word holding the top bit (CHK_MOD/LEN)
  logic [15:0] npw;
  logic [63:0] rd64;
  logic [15:0] half;             // MUL: port words of R (then R_HI)
  logic [7:0]  err_w;            // error found in this port word

  // the bits of port word p that a value of `lim` bits may have set
  function automatic logic [31:0] lmask_of(logic [16:0] lim, logic [15:0] p);
    logic signed [17:0] rel;
    rel = $signed({1'b0, lim}) - $signed(18'({p, 5'd0}));
    if (rel <= 0) return '0;
    if (rel >= 32) return '1;
    return (32'd1 << rel[4:0]) - 32'd1;
  endfunction

  // store: the bits of port word p inside the result (MONTMUL's has n + 2K + 1 bits; the RES
  // entry's words above it are stale)
  function automatic logic [31:0] smask_of(op_e op, logic [15:0] n, logic [15:0] p);
    logic signed [22:0] srel;
    srel = $signed(23'(n) + 23'(2 * K + 1)) - $signed(23'({p, 5'd0}));
    if (op != OP_MONTMUL || srel >= 32) return '1;
    if (srel <= 0) return '0;
    return (32'd1 << srel[4:0]) - 32'd1;
  endfunction

  // the port address of port word p (store: R, MUL's second half R_HI; load: the item's slot)
  function automatic logic [MemAw-1:0] pa_of(logic st, op_e op, logic [15:0] hw, logic [3:0] slot,
                                             logic [15:0] p);
    if (!st) return MemAw'(32'(slot) * SlotWords + 32'(p));
    if (op == OP_MUL && p >= hw) return MemAw'(32'(SLOT_R_HI) * SlotWords + 32'(p - hw));
    return MemAw'(32'(SLOT_R) * SlotWords + 32'(p));
  endfunction

  // ---- one cycle ahead: the next item, masks and addresses of port word lp_d -----------------
  assign lpn = lp_q + 16'd1;

  always_comb begin
    item_t i0;
    i0  = load_item(op_i, '0, len_i, elen_i, lenq_i, dpl_i, dql_i);
    nitem_d = load_item(op_i, li_q + 4'd1, len_i, elen_i, lenq_i, dpl_i, dql_i);
    nnpw_d  = pw(nitem_d.bits);
    storing = store_i || st_q == S_RD0 || st_q == S_RD1 || st_q == S_ASM || st_q == S_REQ;
    unique case (lis)
      MV_ZERO: begin item_d = i0;      npw_d = pw(i0.bits); end
      MV_INC:  begin item_d = nitem_q; npw_d = nnpw_q;      end
      default: begin item_d = item_q;  npw_d = npw_q;       end
    endcase
    // the masks, the top-bit flag and the port address of port word lp_d (with item_q: a new item
    // starts from port word 0 in L_ITEM, a cycle after it became item_q)
    unique case (lps)
      MV_ZERO: begin
        lmask_d = lmask_of(item.lim, '0);
        smask_d = smask_of(op_i, len_i, '0);
        top_d   = topw == '0;
        pa_d    = pa_of(storing, op_i, half, item.slot, '0);
      end
      MV_INC: begin
        lmask_d = lmask_of(item.lim, lpn);
        smask_d = smask_of(op_i, len_i, lpn);
        top_d   = topw == lpn;
        pa_d    = pa_of(storing, op_i, half, item.slot, lpn);
      end
      default: begin
        lmask_d = lmask_q;
        smask_d = smask_q;
        top_d   = top_q;
        pa_d    = pa_q;
      end
    endcase
    topm_d = 32'd1 << 5'(item.lim[4:0] - 5'd1);
    if (wipe_i) {item_d, nitem_d, npw_d, nnpw_d, lmask_d, smask_d, top_d, topm_d, pa_d} = '0;
  end

  always_comb begin
    item = item_q;
    npw  = npw_q;
    topw = (item.lim[15:0] - 16'd1) >> 5;
    rd64 = 64'(rd_i);
    half = store_words_i >> 1;

    st_d  = st_q;
    lis   = MV_HOLD;
    lps   = MV_HOLD;
    lw_d  = lw_q;
    buf_d = buf_q;
    lh_d  = lh_q;
    err_d = err_q;
    sw_d  = sw_q;
    load_done_o  = 1'b0;
    store_done_o = 1'b0;
    mem_req_o   = 1'b0;
    mem_we_o    = 1'b0;
    mem_addr_o  = '0;
    mem_wdata_o = '0;
    for (int r = 0; r < 2; r++) begin
      we_o[r]      = 1'b0;
      e_clear_o[r] = 1'b0;
      e_push_o[r]  = 1'b0;
    end
    wa_o[0]  = wa_q[0];
    wa_o[1]  = wa_q[1];
    wa_d[0]  = wa_q[0];
    wa_d[1]  = wa_q[1];
    sa_d     = sa_q;
    wd_o     = buf_q[W-1:0];
    nwe_o    = 1'b0;
    nwa_o    = TagW'(lw_q);
    e_word_o = mem_rdata_i;
    ra_o     = '0;
    err_w    = ST_OK;

    unique case (st_q)
      IO_IDLE: begin
        lis   = MV_ZERO;
        lps   = MV_ZERO;
        err_d = ST_OK;
        sa_d  = addr(store_ent_i, '0);
        if (load_i) st_d = L_ITEM;
        if (store_i) st_d = S_RD0;
      end
      L_ITEM: begin
        lps = MV_ZERO;
        lw_d = item.off;
        wa_d[0] = addr(item.ent0, item.off);
        wa_d[1] = addr(item.ent1, item.off);
        lh_d = '0;
        if (!item.valid || err_q != ST_OK) begin
          st_d = L_END;
        end else begin
          if (item.dst == DST_EXP) begin
            e_clear_o[0] = item.en0;
            e_clear_o[1] = item.en1;
          end
          st_d = (npw == '0) ? L_FILL : L_REQ;
        end
      end
      L_REQ: begin
        mem_req_o  = 1'b1;
        mem_addr_o = pa_q;
        if (mem_gnt_i) st_d = L_RSP;
      end
      L_RSP: if (mem_rvalid_i) begin
        err_w = ST_OK;
        if (item.chk == CHK_LIM && (mem_rdata_i & ~lmask_q) != '0) err_w = ST_ERR_OPERAND_RANGE;
        if ((item.chk == CHK_MOD || item.chk == CHK_LEN)
            && ((mem_rdata_i & ~lmask_q) != '0
                || (top_q && (mem_rdata_i & topm_q) == '0))) begin
          err_w = ST_ERR_LENGTH;
        end
        if (item.chk == CHK_MOD && lp_q == '0 && !mem_rdata_i[0]) err_w = ST_ERR_EVEN_MODULUS;
        if (err_q == ST_OK) err_d = err_w;   // the first error wins
        lps = MV_INC;
        if (item.dst == DST_EXP) begin
          e_push_o[0] = item.en0;
          e_push_o[1] = item.en1;
          if (lpn == npw) begin
            lis  = MV_INC;
            st_d = L_ITEM;
          end else begin
            st_d = L_REQ;
          end
        end else if (W == 64 && !lp_q[0]) begin
          buf_d = {32'd0, mem_rdata_i};
          if (lpn == npw) begin
            lh_d = 2'd1;
            st_d = L_WR;
          end else begin
            st_d = L_REQ;
          end
        end else begin
          buf_d = (W == 64) ? {mem_rdata_i, buf_q[31:0]} : {32'd0, mem_rdata_i};
          lh_d  = (W == 16) ? 2'd2 : 2'd1;
          st_d  = L_WR;
        end
      end
      L_WR: begin
        we_o[0] = item.en0 && item.dst == DST_RAM;
        we_o[1] = item.en1 && item.dst == DST_RAM;
        nwe_o   = item.dst == DST_NRAM;
        buf_d = buf_q >> W;
        lw_d  = lw_q + 16'd1;
        wa_d[0] = wa_q[0] + Aw'(1);
        wa_d[1] = wa_q[1] + Aw'(1);
        lh_d  = lh_q - 2'd1;
        if (lh_q == 2'd1) st_d = (lp_q == npw) ? L_FILL : L_REQ;
      end
      L_FILL: begin   // zero the rest of the entry
        wd_o = '0;
        if (lw_q < item.fill) begin
          we_o[0] = item.en0 && item.dst == DST_RAM;
          we_o[1] = item.en1 && item.dst == DST_RAM;
          nwe_o   = item.dst == DST_NRAM;
          lw_d = lw_q + 16'd1;
          wa_d[0] = wa_q[0] + Aw'(1);
          wa_d[1] = wa_q[1] + Aw'(1);
        end else begin
          lis  = MV_INC;
          st_d = L_ITEM;
        end
      end
      L_END: begin
        load_done_o = 1'b1;
        st_d = IO_IDLE;
      end
      // ---- store -------------------------------------------------------------------------------
      S_RD0: begin
        ra_o = sa_q;
        if (W != 64 || lp_q[0]) sa_d = sa_q + Aw'(1);
        st_d = (W == 16) ? S_RD1 : S_ASM;
      end
      S_RD1: begin
        ra_o = sa_q;
        sa_d = sa_q + Aw'(1);
        sw_d = {16'd0, rd64[15:0]};
        st_d = S_ASM;
      end
      S_ASM: begin
        if (W == 16) sw_d = {rd64[15:0], sw_q[15:0]};
        else if (W == 32) sw_d = rd64[31:0];
        else sw_d = lp_q[0] ? rd64[63:32] : rd64[31:0];
        st_d = S_REQ;
      end
      S_REQ: begin
        mem_req_o   = 1'b1;
        mem_we_o    = 1'b1;
        mem_wdata_o = sw_q & smask_q;
        mem_addr_o  = pa_q;
        if (mem_gnt_i) begin
          lps = MV_INC;
          if (lpn == store_words_i) begin
            store_done_o = 1'b1;
            st_d = IO_IDLE;
          end else begin
            st_d = S_RD0;
          end
        end
      end
      default: st_d = IO_IDLE;
    endcase
    if (wipe_i) begin   // OP_ZEROIZE: the word buffers (operand and result words) and the rest
      {st_d, lw_d, buf_d, lh_d, err_d, sw_d, sa_d} = '0;
      lis = MV_ZERO;
      lps = MV_ZERO;
      wa_d[0] = '0;
      wa_d[1] = '0;
    end
    li_d = (lis == MV_ZERO) ? '0 : (lis == MV_INC) ? li_q + 4'd1 : li_q;
    lp_d = (lps == MV_ZERO) ? '0 : (lps == MV_INC) ? lpn : lp_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q  <= IO_IDLE;
      err_q <= ST_OK;
    end else begin
      st_q  <= st_d;
      err_q <= err_d;
    end
  end

  always_ff @(posedge clk_i) begin
    li_q  <= li_d;
    lp_q  <= lp_d;
    lw_q  <= lw_d;
    buf_q <= buf_d;
    lh_q  <= lh_d;
    sw_q  <= sw_d;
    item_q  <= item_d;
    nitem_q <= nitem_d;
    npw_q   <= npw_d;
    nnpw_q  <= nnpw_d;
    wa_q[0] <= wa_d[0];
    wa_q[1] <= wa_d[1];
    sa_q    <= sa_d;
    pa_q    <= pa_d;
    lmask_q <= lmask_d;
    smask_q <= smask_d;
    top_q   <= top_d;
    topm_q  <= topm_d;
  end

  assign load_err_o = err_q;

  // the current item's length is only needed a cycle ahead (npw_q is made beside item_q)
  logic unused;
  assign unused = ^item.bits;
endmodule
