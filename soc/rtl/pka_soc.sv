// SPDX-License-Identifier: Apache-2.0
// pka_soc: a small RISC-V SoC around the accelerator: a PicoRV32 (AXI4-Lite master), on-chip RAM
// for code and data, a console/exit block and pka_top on one AXI4-Lite address map.
//
//   picorv32_axi --AXI4-Lite--> pka_soc_axil_demux --+--> 0x0000_0000 pka_soc_ram     (RAM, 2^RamAw words)
//        ^ irq[PkaIrq]                               +--> 0x1000_0000 pka_soc_sysctl  (console, exit, 4 KiB)
//        |                                           +--> 0x2000_0000 pka_top         (128 KiB window,
//        +------------------------------------------------------------- irq_o         the map is 68 KiB)
//   anything else: DECERR (counted in sysctl BUSERR)
//
// The CPU starts at 0x0 (crt0 in soc/fw/), its interrupt vector is 0x10. pka_top's irq_o is wired to
// irq[PkaIrq] as a level (not latched) line: the firmware waits for a command with PicoRV32's
// `waitirq`, which returns as soon as the line is high even with every interrupt masked (the reset
// state), so no handler is needed; the driver clears INTR_STATE.DONE, which drops the line.
// PicoRV32: RV32IM, barrel shifter, single-cycle multiplier, 64-bit cycle counter (rdcycle[h]),
// no compressed instructions. The pka_top parameters are passed through unchanged (doc/top.md).
`default_nettype none

module pka_soc #(
  // ---- the SoC
  parameter int unsigned RamAw     = 14,  // RAM word address width: 2^RamAw words (14: 64 KiB), 8..18
  parameter string       RamInit   = "",  // $readmemh image of the RAM ("" = none; simulation: +firmware=)
  // ---- pka_top (same names, meanings and legal values as rtl/top/pka_top.sv, doc/top.md)
  parameter int unsigned MaxLen    = 4096,  // maximum modulus bits, multiple of 32, 32..4096
  parameter bit          EnExample = 1'b0,  // example engine (MODADD): tests only, 0 in a product
  parameter bit          EnCsa2    = 1'b0,  // csa2 engine
  parameter int unsigned Csa2ChunkW = 32,   // csa2 carry-propagate chunk: 1 (paper) or 2..64
  parameter bit          EnMwr4    = 1'b0,  // mwr4 engine
  parameter int unsigned Mwr4Radix = 4,     // mwr4 radix: 2, 4, 8
  parameter int unsigned Mwr4Ns    = 8,     // mwr4 pipeline stages: 1..64
  parameter int unsigned Mwr4W     = 16,    // mwr4 word size: 4, 8, 16, 32
  parameter bit          EnVictor  = 1'b0,  // victor engine
  parameter int unsigned VictorK   = 5,     // victor scan factor: 3..5
  parameter int unsigned VictorDelta = 10,  // victor estimator bits of S: K+4..32
  parameter int unsigned VictorEps = 11,    // victor estimator bits of 1/N: K+1..32
  parameter bit          EnHscm    = 1'b1,  // hscm engine
  parameter int unsigned HscmW     = 16,    // hscm word = digit bits: 16, 32, 64
  parameter int unsigned HscmPes   = 16,    // hscm processing elements: 1..128 (two HSCMs: even)
  parameter int unsigned HscmMaxWindow = 6, // hscm largest sliding window: 1..8
  parameter bit          EnRns     = 1'b0,  // rns engine
  parameter int unsigned RnsW      = 32,    // rns channel width: 16, 32
  parameter int unsigned RnsMaxLen = 0,     // longest rns modulus, 0: MaxLen
  parameter int unsigned MinSlotAw = 0      // at least 2^MinSlotAw words per operand slot (hscm's derived), 0..10
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // console (sysctl CONSOLE): one character per pulse; a board puts a UART here
  output logic        console_valid_o,
  output logic [7:0]  console_data_o,
  input  logic        console_ready_i,
  // end of program (sysctl EXIT)
  output logic        exit_valid_o,
  output logic [31:0] exit_code_o,
  // the CPU stopped on a trap (illegal instruction, misaligned access, EBREAK)
  output logic        trap_o
);
  localparam int unsigned NumSlaves = 3;
  localparam int unsigned PkaIrq    = 4;   // PicoRV32 irq line of pka_top (0..2 are the CPU's own)
  localparam int unsigned PkaBusAw  = 17;  // pka_top's AXI address width (its map is 68 KiB)
  localparam logic [31:0] RamBase    = 32'h0000_0000;
  localparam logic [31:0] SysctlBase = 32'h1000_0000;
  localparam logic [31:0] PkaBase    = 32'h2000_0000;
  localparam logic [NumSlaves-1:0][31:0] SlaveBase = {PkaBase, SysctlBase, RamBase};
  localparam logic [NumSlaves-1:0][31:0] SlaveMask = {
    ~((32'd1 << PkaBusAw) - 32'd1),   // pka_top: 128 KiB
    ~32'h0000_0FFF,                   // sysctl: 4 KiB
    ~((32'd1 << (RamAw + 2)) - 32'd1) // RAM
  };

  // ---- reset ---------------------------------------------------------------------------------------
  // rst_ni asserts asynchronously and is released on the clock (two flops) for the SoC's blocks; the
  // PicoRV32, whose reset is synchronous, leaves reset one cycle after them.
  logic rst_meta_q, rst_sync_q, rst_n, cpu_rst_nq;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rst_meta_q <= 1'b0;
      rst_sync_q <= 1'b0;
    end else begin
      rst_meta_q <= 1'b1;
      rst_sync_q <= rst_meta_q;
    end
  end
  assign rst_n = rst_sync_q;

  always_ff @(posedge clk_i or negedge rst_n) begin
    if (!rst_n) cpu_rst_nq <= 1'b0;
    else        cpu_rst_nq <= 1'b1;
  end

  // ---- CPU ----------------------------------------------------------------------------------------
  logic        cpu_awvalid, cpu_awready, cpu_wvalid, cpu_wready, cpu_bvalid, cpu_bready;
  logic        cpu_arvalid, cpu_arready, cpu_rvalid, cpu_rready;
  logic [31:0] cpu_awaddr, cpu_wdata, cpu_araddr, cpu_rdata;
  logic [2:0]  cpu_awprot, cpu_arprot;
  logic [3:0]  cpu_wstrb;
  logic [1:0]  cpu_bresp, cpu_rresp;
  logic [31:0] cpu_irq, cpu_eoi;
  logic        pka_irq;
  logic        cpu_pcpi_valid, cpu_trace_valid;
  logic [31:0] cpu_pcpi_insn, cpu_pcpi_rs1, cpu_pcpi_rs2;
  logic [35:0] cpu_trace_data;

  always_comb begin
    cpu_irq         = '0;
    cpu_irq[PkaIrq] = pka_irq;
  end

  picorv32_axi #(
    .ENABLE_COUNTERS      (1'b1),
    .ENABLE_COUNTERS64    (1'b1),
    .ENABLE_REGS_16_31    (1'b1),
    .ENABLE_REGS_DUALPORT (1'b1),
    .BARREL_SHIFTER       (1'b1),
    .COMPRESSED_ISA       (1'b0),
    .CATCH_MISALIGN       (1'b1),
    .CATCH_ILLINSN        (1'b1),
    .ENABLE_PCPI          (1'b0),
    .ENABLE_MUL           (1'b0),
    .ENABLE_FAST_MUL      (1'b1),
    .ENABLE_DIV           (1'b1),
    .ENABLE_IRQ           (1'b1),
    .ENABLE_IRQ_QREGS     (1'b0),
    .ENABLE_IRQ_TIMER     (1'b0),
    .MASKED_IRQ           (32'h0000_0000),
    .LATCHED_IRQ          (~(32'd1 << PkaIrq)),   // pka_top's line is a level
    .PROGADDR_RESET       (RamBase),
    .PROGADDR_IRQ         (RamBase + 32'h10)
  ) u_cpu (
    .clk             (clk_i),
    .resetn          (cpu_rst_nq),
    .trap            (trap_o),
    .mem_axi_awvalid (cpu_awvalid),
    .mem_axi_awready (cpu_awready),
    .mem_axi_awaddr  (cpu_awaddr),
    .mem_axi_awprot  (cpu_awprot),
    .mem_axi_wvalid  (cpu_wvalid),
    .mem_axi_wready  (cpu_wready),
    .mem_axi_wdata   (cpu_wdata),
    .mem_axi_wstrb   (cpu_wstrb),
    .mem_axi_bvalid  (cpu_bvalid),
    .mem_axi_bready  (cpu_bready),
    .mem_axi_arvalid (cpu_arvalid),
    .mem_axi_arready (cpu_arready),
    .mem_axi_araddr  (cpu_araddr),
    .mem_axi_arprot  (cpu_arprot),
    .mem_axi_rvalid  (cpu_rvalid),
    .mem_axi_rready  (cpu_rready),
    .mem_axi_rdata   (cpu_rdata),
    .pcpi_valid      (cpu_pcpi_valid),
    .pcpi_insn       (cpu_pcpi_insn),
    .pcpi_rs1        (cpu_pcpi_rs1),
    .pcpi_rs2        (cpu_pcpi_rs2),
    .pcpi_wr         (1'b0),
    .pcpi_rd         (32'h0),
    .pcpi_wait       (1'b0),
    .pcpi_ready      (1'b0),
    .irq             (cpu_irq),
    .eoi             (cpu_eoi),
    .trace_valid     (cpu_trace_valid),
    .trace_data      (cpu_trace_data)
  );

  // ---- interconnect -------------------------------------------------------------------------------
  logic [NumSlaves-1:0]       m_awvalid, m_awready, m_wvalid, m_wready, m_bvalid, m_bready;
  logic [NumSlaves-1:0]       m_arvalid, m_arready, m_rvalid, m_rready;
  logic [NumSlaves-1:0][1:0]  m_bresp, m_rresp;
  logic [NumSlaves-1:0][31:0] m_rdata;
  logic [31:0]                m_awaddr, m_wdata, m_araddr;
  logic [2:0]                 m_awprot, m_arprot;
  logic [3:0]                 m_wstrb;
  logic                       bus_err;

  pka_soc_axil_demux #(
    .NumSlaves (NumSlaves),
    .SlaveBase (SlaveBase),
    .SlaveMask (SlaveMask)
  ) u_demux (
    .clk_i          (clk_i),
    .rst_ni         (rst_n),
    .s_axil_awvalid (cpu_awvalid),
    .s_axil_awready (cpu_awready),
    .s_axil_awaddr  (cpu_awaddr),
    .s_axil_awprot  (cpu_awprot),
    .s_axil_wvalid  (cpu_wvalid),
    .s_axil_wready  (cpu_wready),
    .s_axil_wdata   (cpu_wdata),
    .s_axil_wstrb   (cpu_wstrb),
    .s_axil_bvalid  (cpu_bvalid),
    .s_axil_bready  (cpu_bready),
    .s_axil_bresp   (cpu_bresp),
    .s_axil_arvalid (cpu_arvalid),
    .s_axil_arready (cpu_arready),
    .s_axil_araddr  (cpu_araddr),
    .s_axil_arprot  (cpu_arprot),
    .s_axil_rvalid  (cpu_rvalid),
    .s_axil_rready  (cpu_rready),
    .s_axil_rdata   (cpu_rdata),
    .s_axil_rresp   (cpu_rresp),
    .m_axil_awvalid (m_awvalid),
    .m_axil_awready (m_awready),
    .m_axil_awaddr  (m_awaddr),
    .m_axil_awprot  (m_awprot),
    .m_axil_wvalid  (m_wvalid),
    .m_axil_wready  (m_wready),
    .m_axil_wdata   (m_wdata),
    .m_axil_wstrb   (m_wstrb),
    .m_axil_bvalid  (m_bvalid),
    .m_axil_bready  (m_bready),
    .m_axil_bresp   (m_bresp),
    .m_axil_arvalid (m_arvalid),
    .m_axil_arready (m_arready),
    .m_axil_araddr  (m_araddr),
    .m_axil_arprot  (m_arprot),
    .m_axil_rvalid  (m_rvalid),
    .m_axil_rready  (m_rready),
    .m_axil_rdata   (m_rdata),
    .m_axil_rresp   (m_rresp),
    .err_o          (bus_err)
  );

  // ---- slave 0: RAM -------------------------------------------------------------------------------
  pka_soc_ram #(
    .Aw       (RamAw),
    .InitFile (RamInit)
  ) u_ram (
    .clk_i          (clk_i),
    .rst_ni         (rst_n),
    .s_axil_awvalid (m_awvalid[0]),
    .s_axil_awready (m_awready[0]),
    .s_axil_awaddr  (m_awaddr),
    .s_axil_wvalid  (m_wvalid[0]),
    .s_axil_wready  (m_wready[0]),
    .s_axil_wdata   (m_wdata),
    .s_axil_wstrb   (m_wstrb),
    .s_axil_bvalid  (m_bvalid[0]),
    .s_axil_bready  (m_bready[0]),
    .s_axil_bresp   (m_bresp[0]),
    .s_axil_arvalid (m_arvalid[0]),
    .s_axil_arready (m_arready[0]),
    .s_axil_araddr  (m_araddr),
    .s_axil_rvalid  (m_rvalid[0]),
    .s_axil_rready  (m_rready[0]),
    .s_axil_rdata   (m_rdata[0]),
    .s_axil_rresp   (m_rresp[0])
  );

  // ---- slave 1: console and simulation control ------------------------------------------------------
  pka_soc_sysctl u_sysctl (
    .clk_i           (clk_i),
    .rst_ni          (rst_n),
    .s_axil_awvalid  (m_awvalid[1]),
    .s_axil_awready  (m_awready[1]),
    .s_axil_awaddr   (m_awaddr),
    .s_axil_wvalid   (m_wvalid[1]),
    .s_axil_wready   (m_wready[1]),
    .s_axil_wdata    (m_wdata),
    .s_axil_wstrb    (m_wstrb),
    .s_axil_bvalid   (m_bvalid[1]),
    .s_axil_bready   (m_bready[1]),
    .s_axil_bresp    (m_bresp[1]),
    .s_axil_arvalid  (m_arvalid[1]),
    .s_axil_arready  (m_arready[1]),
    .s_axil_araddr   (m_araddr),
    .s_axil_rvalid   (m_rvalid[1]),
    .s_axil_rready   (m_rready[1]),
    .s_axil_rdata    (m_rdata[1]),
    .s_axil_rresp    (m_rresp[1]),
    .console_valid_o (console_valid_o),
    .console_data_o  (console_data_o),
    .console_ready_i (console_ready_i),
    .exit_valid_o    (exit_valid_o),
    .exit_code_o     (exit_code_o),
    .err_i           (bus_err)
  );

  // ---- slave 2: the accelerator -------------------------------------------------------------------
  logic        edn_req, edn_ack;
  logic [31:0] edn_data;

  pka_top #(
    .MaxLen        (MaxLen),
    .EnExample     (EnExample),
    .EnCsa2        (EnCsa2),
    .Csa2ChunkW    (Csa2ChunkW),
    .EnMwr4        (EnMwr4),
    .Mwr4Radix     (Mwr4Radix),
    .Mwr4Ns        (Mwr4Ns),
    .Mwr4W         (Mwr4W),
    .EnVictor      (EnVictor),
    .VictorK       (VictorK),
    .VictorDelta   (VictorDelta),
    .VictorEps     (VictorEps),
    .EnHscm        (EnHscm),
    .HscmW         (HscmW),
    .HscmPes       (HscmPes),
    .HscmMaxWindow (HscmMaxWindow),
    .EnRns         (EnRns),
    .RnsW          (RnsW),
    .RnsMaxLen     (RnsMaxLen),
    .MinSlotAw     (MinSlotAw),
    .BusAw         (PkaBusAw)
  ) u_pka (
    .clk_i          (clk_i),
    .rst_ni         (rst_n),
    .s_axil_awvalid (m_awvalid[2]),
    .s_axil_awready (m_awready[2]),
    .s_axil_awaddr  (m_awaddr[PkaBusAw-1:0]),
    .s_axil_awprot  (m_awprot),
    .s_axil_wvalid  (m_wvalid[2]),
    .s_axil_wready  (m_wready[2]),
    .s_axil_wdata   (m_wdata),
    .s_axil_wstrb   (m_wstrb),
    .s_axil_bvalid  (m_bvalid[2]),
    .s_axil_bready  (m_bready[2]),
    .s_axil_bresp   (m_bresp[2]),
    .s_axil_arvalid (m_arvalid[2]),
    .s_axil_arready (m_arready[2]),
    .s_axil_araddr  (m_araddr[PkaBusAw-1:0]),
    .s_axil_arprot  (m_arprot),
    .s_axil_rvalid  (m_rvalid[2]),
    .s_axil_rready  (m_rready[2]),
    .s_axil_rdata   (m_rdata[2]),
    .s_axil_rresp   (m_rresp[2]),
    .irq_o          (pka_irq),
    .edn_req_o      (edn_req),
    .edn_ack_i      (edn_ack),
    .edn_data_i     (edn_data)
  );

  // ---- entropy for pka_top's blinding: a deterministic generator for simulation and bring-up only
  // (pka_soc_entropy); a product connects a real entropy source (an EDN / TRNG) to the three wires
  // edn_* (declared above pka_top: Yosys' slang frontend wants declarations before use).
  pka_soc_entropy u_entropy (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .req_i  (edn_req),
    .ack_o  (edn_ack),
    .data_o (edn_data)
  );

  // Unused: the address bits above pka_top's window (decoded), PicoRV32's co-processor, trace and
  // end-of-interrupt outputs (no PCPI, no trace, no handler), the bus error responses the CPU cannot
  // take (sysctl counts them through bus_err).
  logic unused_sink;
  assign unused_sink = ^{m_awaddr[31:PkaBusAw], m_araddr[31:PkaBusAw], cpu_pcpi_valid, cpu_pcpi_insn,
                         cpu_pcpi_rs1, cpu_pcpi_rs2, cpu_trace_valid, cpu_trace_data, cpu_eoi,
                         cpu_bresp, cpu_rresp};
endmodule
