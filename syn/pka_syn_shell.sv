// SPDX-License-Identifier: Apache-2.0
// pka_syn_shell: narrow-I/O shell around one engine core, for place and route on a real package.
//
// The common engine boundary has ~250 ports; a CABGA381 or an SG48 has far fewer pins. This shell
// is the engine's host and memory in one: a serial frame interface on the pins, an operand RAM of
// 2^MemAw x 32 bits (block RAM) on the engine's word port, and the command/status registers. Every
// engine input comes from a register or the RAM, every engine output reaches a pin through the
// status frame or the RAM, so synthesis keeps the whole core and the timing paths are realistic.
//
// Pins (all synchronous to clk_i): ser_shift_i, ser_di_i, ser_load_i, ser_do_o, irq_o.
//   While ser_shift_i = 1 the 74-bit frame register shifts in ser_di_i (bit 0 of a frame first)
//   and the 74-bit reply register shifts out on ser_do_o (bit 0 first). A ser_load_i pulse executes
//   the frame; the reply is ready 3 cycles later.
//   frame[1:0] kind: 0 STATUS  reply {io_cycles, cycles, status, done, busy} (bits 42, 10, 2, 1, 0);
//                                clears the done flag (irq_o)
//                    1 WRITE   RAM[frame[17:2]] = frame[49:18]
//                    2 READ    reply[31:0] = RAM[frame[17:2]]
//                    3 COMMAND op = frame[9:2], len = frame[25:10], elen = frame[41:26],
//                              arg = frame[73:42]; held on cmd_valid until the engine is ready
//   The engine has priority on the RAM: host WRITE/READ wait while the engine requests the port.
//   irq_o is the sticky done flag (set by eng_i.res.done, cleared by a STATUS frame).
// RAM: banks of pka_syn_ram512 (512 x 32, registered output, read latency 2), so the block RAM's
// slow clock-to-output never sits on an engine path. Towards the engine (doc/architecture.md) the
// grant is a flip-flop, set one cycle after the request: the RAM performs the access in the request
// cycle (a write is repeated, harmlessly, in the grant cycle), and read data arrives one cycle after
// the grant as the protocol requires. One access per two cycles (the protocol allows withheld
// grants); no combinational path runs from the engine's request back into the engine.
`default_nettype none

module pka_syn_shell #(
  parameter int unsigned MemAw = 9  // operand RAM word address width, 5..16 (16 slots)
) (
  input  logic             clk_i,
  input  logic             rst_ni,        // asynchronous, active low (synchronised here)
  // pins
  input  logic             ser_shift_i,
  input  logic             ser_di_i,
  input  logic             ser_load_i,
  output logic             ser_do_o,
  output logic             irq_o,
  output logic             rst_sync_no,   // synchronised reset for the engine
  // engine side: the common boundary (pka_pkg), seen from the host
  output pka_pkg::eng_h2d_t eng_o,       // command and memory response to the engine
  input  pka_pkg::eng_d2h_t eng_i        // command ready, memory request, result from the engine
);
  localparam int unsigned FrameW = 74;

  initial begin
    if (MemAw < 5 || MemAw > 16) $fatal(1, "MemAw must be in 5..16");
  end

  typedef enum logic [1:0] {KindStatus = 2'd0, KindWrite = 2'd1, KindRead = 2'd2, KindCmd = 2'd3} kind_e;

  // ---- reset synchroniser: asynchronous assert, synchronous release ---------------------------
  logic rst_q1, rst_q2;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rst_q1 <= 1'b0; rst_q2 <= 1'b0;
    end else begin
      rst_q1 <= 1'b1; rst_q2 <= rst_q1;
    end
  end
  assign rst_sync_no = rst_q2;

  // ---- serial frame in, reply out ---------------------------------------------------------------
  logic [FrameW-1:0] frame_q, frame_d, reply_q, reply_d;
  logic              load_q;              // registered ser_load_i (pins are registered once)
  logic              shift_q, di_q;
  kind_e             kind;
  assign kind = kind_e'(frame_q[1:0]);

  // ---- command and status registers ---------------------------------------------------------------
  logic        cmd_valid_q, cmd_valid_d;
  logic [7:0]  op_q, op_d;
  logic [15:0] len_q, len_d, elen_q, elen_d;
  logic [31:0] arg_q, arg_d;
  logic        done_q, done_d;            // sticky done (irq)
  logic [7:0]  st_q, st_d;
  logic [31:0] cyc_q, cyc_d, io_q, io_d;

  // ---- host access to the RAM ---------------------------------------------------------------------
  logic             hreq_q, hreq_d, hwe_q, hwe_d;
  logic [MemAw-1:0] haddr_q, haddr_d;
  logic [31:0]      hwdata_q, hwdata_d;

  // ---- RAM port ------------------------------------------------------------------------------------
  localparam int unsigned BankAw = MemAw > 9 ? MemAw - 9 : 1;
  localparam int unsigned Banks  = MemAw > 9 ? 1 << (MemAw - 9) : 1;
  logic                 ram_re, ram_we;
  logic [MemAw-1:0]     ram_addr;
  logic [31:0]          ram_wdata, ram_rdata;
  logic [BankAw+8:0]    ram_addr_ext;
  logic [BankAw-1:0]    bank, bank_q, bank_q2;
  logic [31:0]          bank_rdata [Banks];
  logic                 gnt_q, gnt_d, ervalid_q, ervalid_d;
  logic                 hrd_q, hrd_q2;    // host read in flight (2-cycle RAM latency)

  always_comb begin
    // the engine has priority; a host access runs in a cycle without an engine request
    ram_re    = eng_i.mem.req ? !eng_i.mem.we : hreq_q && !hwe_q;
    ram_we    = eng_i.mem.req ? eng_i.mem.we : hreq_q && hwe_q;
    ram_addr  = eng_i.mem.req ? MemAw'(eng_i.mem.addr) : haddr_q;
    ram_wdata = eng_i.mem.req ? eng_i.mem.wdata : hwdata_q;
    // request seen (the RAM acts on it now), granted in the next cycle
    gnt_d     = eng_i.mem.req && !gnt_q;
    ervalid_d = gnt_q && !eng_i.mem.we;
  end
  assign ram_addr_ext = (BankAw + 9)'(ram_addr);
  assign bank         = ram_addr_ext[9 +: BankAw];

  for (genvar b = 0; b < Banks; b++) begin : g_bank
    pka_syn_ram512 u_ram (
      .clk_i   (clk_i),
      .re_i    (ram_re && bank == BankAw'(b)),
      .we_i    (ram_we && bank == BankAw'(b)),
      .addr_i  (ram_addr_ext[8:0]),
      .wdata_i (ram_wdata),
      .rdata_o (bank_rdata[b])
    );
  end
  assign ram_rdata    = bank_rdata[bank_q2];

  always_comb begin
    frame_d = frame_q; reply_d = reply_q;
    cmd_valid_d = cmd_valid_q; op_d = op_q; len_d = len_q; elen_d = elen_q; arg_d = arg_q;
    done_d = done_q; st_d = st_q; cyc_d = cyc_q; io_d = io_q;
    hreq_d = hreq_q; hwe_d = hwe_q; haddr_d = haddr_q; hwdata_d = hwdata_q;

    if (shift_q) begin
      frame_d = {di_q, frame_q[FrameW-1:1]};
      reply_d = {1'b0, reply_q[FrameW-1:1]};
    end
    if (cmd_valid_q && eng_i.cmd_ready) cmd_valid_d = 1'b0;
    if (hreq_q && !eng_i.mem.req) hreq_d = 1'b0;
    if (hrd_q2) reply_d = FrameW'(ram_rdata);
    if (eng_i.res.done) begin
      done_d = 1'b1; st_d = eng_i.res.status; cyc_d = eng_i.res.cycles; io_d = eng_i.res.io_cycles;
    end

    if (load_q) begin
      unique case (kind)
        KindStatus: begin
          reply_d = {io_q, cyc_q, st_q, done_q, !eng_i.cmd_ready || cmd_valid_q};
          done_d  = eng_i.res.done;
        end
        KindWrite: begin
          hreq_d = 1'b1; hwe_d = 1'b1;
          haddr_d = frame_q[2 +: MemAw]; hwdata_d = frame_q[18 +: 32];
        end
        KindRead: begin
          hreq_d = 1'b1; hwe_d = 1'b0; haddr_d = frame_q[2 +: MemAw];
        end
        KindCmd: begin
          cmd_valid_d = 1'b1;
          op_d = frame_q[2 +: 8]; len_d = frame_q[10 +: 16]; elen_d = frame_q[26 +: 16];
          arg_d = frame_q[42 +: 32];
        end
        default: ;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_sync_no) begin
    if (!rst_sync_no) begin
      load_q <= 1'b0; shift_q <= 1'b0; di_q <= 1'b0;
      cmd_valid_q <= 1'b0; done_q <= 1'b0; hreq_q <= 1'b0; hrd_q <= 1'b0; hrd_q2 <= 1'b0;
      gnt_q <= 1'b0; ervalid_q <= 1'b0;
      st_q <= '0; cyc_q <= '0; io_q <= '0;
    end else begin
      load_q <= ser_load_i; shift_q <= ser_shift_i; di_q <= ser_di_i;
      cmd_valid_q <= cmd_valid_d; done_q <= done_d; hreq_q <= hreq_d;
      hrd_q <= hreq_q && !hwe_q && !eng_i.mem.req; hrd_q2 <= hrd_q;
      gnt_q <= gnt_d; ervalid_q <= ervalid_d;
      st_q <= st_d; cyc_q <= cyc_d; io_q <= io_d;
    end
  end
  always_ff @(posedge clk_i) begin
    frame_q <= frame_d; reply_q <= reply_d;
    op_q <= op_d; len_q <= len_d; elen_q <= elen_d; arg_q <= arg_d;
    hwe_q <= hwe_d; haddr_q <= haddr_d; hwdata_q <= hwdata_d;
    bank_q <= bank; bank_q2 <= bank_q;
  end

  assign ser_do_o    = reply_q[0];
  assign irq_o       = done_q;
  assign eng_o = '{cmd_valid: cmd_valid_q, cmd: '{op: op_q, len: len_q, elen: elen_q, arg: arg_q},
                   mem: '{gnt: gnt_q, rvalid: ervalid_q, rdata: ram_rdata}};
endmodule
