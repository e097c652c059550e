// SPDX-License-Identifier: Apache-2.0
// pka_example_engine: the smallest engine with the common boundary, used to test the harness.
//
// OP_MODADD: R = (A + B) mod N for A, B < N, word-serially (one 32-bit word per cycle), which is
// enough to exercise the command handshake, the req/gnt word port with stalls, status codes and the
// cycle counters. Errors: even N -> ST_ERR_EVEN_MODULUS, len = 0 or len > MaxLen -> ST_ERR_LENGTH,
// any other op -> ST_ERR_OPCODE. cycles counts the add/subtract passes, io_cycles the port time.
// OP_ZEROIZE (the wipe of pka_pkg): every operand register cleared, 1 cycle, done with ST_OK.
// Test hook: MODADD with arg = HangArg never finishes (a hung engine, for pka_top's watchdog test).
`default_nettype none

module pka_example_engine
  import pka_pkg::*;
#(
  parameter int unsigned MaxLen = 128,  // maximum operand bits, multiple of 32, 32..4096
  parameter int unsigned MemAw  = 8     // word address width: 16 slots of 2^(MemAw-4) words
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  eng_h2d_t eng_i,   // command, memory response (pka_pkg)
  output eng_d2h_t eng_o    // command ready, memory request, result
);

  // ---- the common boundary (pka_pkg::eng_h2d_t in, eng_d2h_t out) ------------------------------
  logic             cmd_ready, mem_req, mem_we, done;
  logic [MemAw-1:0] mem_addr;
  logic [31:0]      mem_wdata, cycles, io_cycles;
  logic [7:0]       status;
  assign eng_o = '{cmd_ready: cmd_ready,
                   mem: '{req: mem_req, we: mem_we, addr: MemAwMax'(mem_addr), wdata: mem_wdata},
                   res: '{done: done, status: status, cycles: cycles, io_cycles: io_cycles}};

  localparam int unsigned Words     = MaxLen / 32;
  localparam logic [31:0] HangArg   = 32'hDEAD_BEEF;   // test hook: a command that never ends
  localparam int unsigned SlotWords = 1 << (MemAw - 4);
  localparam int unsigned WiW       = $clog2(Words + 1);

  initial begin
    if (MaxLen % 32 != 0 || MaxLen < 32) $fatal(1, "MaxLen must be a positive multiple of 32");
    if (Words > SlotWords) $fatal(1, "MemAw too small for MaxLen");
  end

  typedef enum logic [2:0] {Idle, Load, Add, Sub, Store, Done, Hang} state_e;
  state_e state_q, state_d;

  logic [MaxLen-1:0] n_q, n_d, a_q, a_d, b_q, b_d;
  logic [MaxLen:0]   s_q, s_d;
  logic [1:0]        slot_q, slot_d;      // 0: N, 1: A, 2: B while loading
  logic [WiW-1:0]    req_q, req_d, rsp_q, rsp_d, nw_q, nw_d;
  logic [7:0]        status_q, status_d;
  logic [31:0]       cyc_q, cyc_d, io_q, io_d;

  function automatic logic [MemAw-1:0] addr(int unsigned slot, logic [WiW-1:0] w);
    return MemAw'(slot * SlotWords) + MemAw'(w);
  endfunction

  always_comb begin
    state_d  = state_q;
    n_d = n_q; a_d = a_q; b_d = b_q; s_d = s_q;
    slot_d = slot_q; req_d = req_q; rsp_d = rsp_q; nw_d = nw_q;
    status_d = status_q; cyc_d = cyc_q; io_d = io_q;
    mem_req = 1'b0; mem_we = 1'b0; mem_addr = '0; mem_wdata = '0;
    done = 1'b0;
    unique case (state_q)
      Idle: if (eng_i.cmd_valid) begin
        cyc_d = '0; io_d = '0; slot_d = '0; req_d = '0; rsp_d = '0;
        nw_d = WiW'((32'(eng_i.cmd.len) + 31) / 32);
        if (op_e'(eng_i.cmd.op) == OP_ZEROIZE) begin
          // the wipe: every operand register to zero in one cycle
          n_d = '0; a_d = '0; b_d = '0; s_d = '0; status_d = ST_OK; cyc_d = 32'd1; state_d = Done;
        end else if (op_e'(eng_i.cmd.op) != OP_MODADD) begin
          status_d = ST_ERR_OPCODE; state_d = Done;
        end else if (eng_i.cmd.arg == HangArg) begin
          state_d = Hang;
        end else if (eng_i.cmd.len == 0 || 32'(eng_i.cmd.len) > MaxLen) begin
          status_d = ST_ERR_LENGTH; state_d = Done;
        end else begin
          status_d = ST_OK; state_d = Load;
          n_d = '0; a_d = '0; b_d = '0;
        end
      end
      Load: begin
        io_d = io_q + 1;
        if (req_q != nw_q) begin
          mem_req  = 1'b1;
          mem_addr = addr(slot_q == 0 ? SLOT_N : slot_q == 1 ? SLOT_A : SLOT_B, req_q);
          if (eng_i.mem.gnt) req_d = req_q + 1;
        end
        if (eng_i.mem.rvalid) begin
          unique case (slot_q)
            2'd0: n_d = {eng_i.mem.rdata, n_q[MaxLen-1:32]};
            2'd1: a_d = {eng_i.mem.rdata, a_q[MaxLen-1:32]};
            default: b_d = {eng_i.mem.rdata, b_q[MaxLen-1:32]};
          endcase
          rsp_d = rsp_q + 1;
          if (rsp_q + 1 == nw_q) begin
            req_d = '0; rsp_d = '0; slot_d = slot_q + 1;
            if (slot_q == 2'd2) state_d = Add;
          end
        end
      end
      Add: begin
        // right-align the loaded words (they were shifted in from the top)
        n_d = n_q >> (32 * (Words - 32'(nw_q)));
        a_d = a_q >> (32 * (Words - 32'(nw_q)));
        b_d = b_q >> (32 * (Words - 32'(nw_q)));
        if (!n_d[0]) begin
          status_d = ST_ERR_EVEN_MODULUS; state_d = Done;
        end else if (a_d >= n_d || b_d >= n_d) begin
          status_d = ST_ERR_OPERAND_RANGE; state_d = Done;
        end else begin
          s_d = {1'b0, a_d} + {1'b0, b_d};
          cyc_d = cyc_q + 1;
          state_d = Sub;
        end
      end
      Sub: begin
        if (s_q >= {1'b0, n_q}) s_d = s_q - {1'b0, n_q};
        cyc_d = cyc_q + 1;
        state_d = Store;
      end
      Store: begin
        io_d = io_q + 1;
        mem_req = 1'b1; mem_we = 1'b1;
        mem_addr  = addr(SLOT_R, req_q);
        mem_wdata = s_q[31:0];
        if (eng_i.mem.gnt) begin
          s_d = s_q >> 32;
          req_d = req_q + 1;
          if (req_q + 1 == nw_q) state_d = Done;
        end
      end
      Done: begin
        done = 1'b1;
        state_d = Idle;
      end
      Hang: ;
      default: state_d = Idle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= Idle; status_q <= ST_OK; cyc_q <= '0; io_q <= '0;
      slot_q <= '0; req_q <= '0; rsp_q <= '0; nw_q <= '0;
    end else begin
      state_q <= state_d; status_q <= status_d; cyc_q <= cyc_d; io_q <= io_d;
      slot_q <= slot_d; req_q <= req_d; rsp_q <= rsp_d; nw_q <= nw_d;
    end
  end
  always_ff @(posedge clk_i) begin
    n_q <= n_d; a_q <= a_d; b_q <= b_d; s_q <= s_d;
  end

  assign cmd_ready = (state_q == Idle);
  assign status    = status_q;
  assign cycles    = cyc_q;
  assign io_cycles = io_q;

  logic unused;
  assign unused = ^{eng_i.cmd.elen};
endmodule
