// SPDX-License-Identifier: Apache-2.0
// pka_example_engine (formal abstraction): an engine that does anything the common boundary allows.
//
// Formal-only stand-in for tb/common/pka_example_engine.sv (same module name, parameters and ports;
// formal/pka.sby picks this file instead of the real one for the proofs that use it). It accepts
// every command when idle (cmd_ready = idle) and then, each cycle, may issue any memory request
// (read or write, any slot and word, any data: the boundary's port, granted at once by pka_top) and
// may finish: done with any status, cycles and io_cycles. It finishes at the latest DoneWithin
// cycles after accepting the command. It over-approximates every engine core that keeps the
// boundary's contract (pka_pkg): a wipe (OP_ZEROIZE) makes no memory access, done pulses once per
// accepted command, a reset (rst_ni low: abort, watchdog) returns it to idle.
// `PKA_FORMAL_BUG_HANG: the engine never finishes (the mutant that shows property 4 can fail).
`default_nettype none

module pka_example_engine
  import pka_pkg::*;
#(
  parameter int unsigned MaxLen = 128,  // unused here (the real engine's operand bits)
  parameter int unsigned MemAw  = 8     // word address width: 16 slots of 2^(MemAw-4) words
) (
  input  logic     clk_i,
  input  logic     rst_ni,
  input  eng_h2d_t eng_i,
  output eng_d2h_t eng_o
);
`ifdef PKA_FORMAL_ENGINE_K
  localparam int unsigned DoneWithin = `PKA_FORMAL_ENGINE_K;
`else
  localparam int unsigned DoneWithin = 4;   // the engine's done comes at most this many cycles after the accept
`endif

  // free inputs of the abstraction: a new value every cycle
  (* anyseq *) logic             any_fin;
  (* anyseq *) logic [7:0]       any_status;
  (* anyseq *) logic [31:0]      any_cycles, any_io;
  (* anyseq *) logic             any_req, any_we;
  (* anyseq *) logic [MemAw-1:0] any_addr;
  (* anyseq *) logic [31:0]      any_wdata;

  // Every output comes from a flip-flop (the choices are made a cycle ahead): the harness reads
  // them through hierarchical references, which see a flip-flop's value as it is.
  logic        busy_q, wipe_q, done_q, mreq_q, mwe_q;
  logic [7:0]  cnt_q, status_q;
  logic [31:0] cycles_q, io_q, mwdata_q;
  logic [MemAw-1:0] maddr_q;
  logic        fin;

  always_comb begin
`ifdef PKA_FORMAL_BUG_HANG
    fin = 1'b0;
`else
    // finish now (done next cycle) by choice, or when the bound is reached
    fin = busy_q && !done_q && (any_fin || 32'(cnt_q) + 2 >= DoneWithin);
`endif
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0; wipe_q <= 1'b0; cnt_q <= '0; done_q <= 1'b0; mreq_q <= 1'b0; mwe_q <= 1'b0;
    end else begin
      done_q <= fin;
      mreq_q <= 1'b0; mwe_q <= 1'b0;
      if (!busy_q) begin
        if (eng_i.cmd_valid) begin
          busy_q <= 1'b1; cnt_q <= '0; wipe_q <= (op_e'(eng_i.cmd.op) == OP_ZEROIZE);
        end
      end else begin
        cnt_q <= cnt_q + 8'd1;
        if (done_q) busy_q <= 1'b0;
        // a memory request in the next cycle (granted at once while the engine owns the port)
        else if (!fin && !wipe_q && any_req) begin
          mreq_q <= 1'b1; mwe_q <= any_we;
        end
      end
    end
  end
  always_ff @(posedge clk_i) begin
    status_q <= any_status; cycles_q <= any_cycles; io_q <= any_io;
    maddr_q <= any_addr; mwdata_q <= any_wdata;
  end

  assign eng_o = '{cmd_ready: !busy_q,
                   mem: '{req: mreq_q, we: mwe_q, addr: MemAwMax'(maddr_q), wdata: mwdata_q},
                   res: '{done: done_q, status: status_q, cycles: cycles_q, io_cycles: io_q}};

  logic unused;
  assign unused = ^{eng_i.cmd, eng_i.mem};
endmodule
