// SPDX-License-Identifier: Apache-2.0
// pka_soc_bus_tb: the SoC's bus without the CPU and pka_top, for the cocotb test
// soc/tb/test_pka_soc_bus.py: pka_soc_axil_demux with two RAMs and the sysctl block behind it,
// driven by a cocotbext-axi master with random valid/ready pauses.
//
//   0x0000_0000  pka_soc_ram (256 words)     0x1000_0000  pka_soc_sysctl     0x2000_0000  pka_soc_ram
//   anything else: DECERR
`default_nettype none

module pka_soc_bus_tb (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        s_axil_awvalid,
  output logic        s_axil_awready,
  input  logic [31:0] s_axil_awaddr,
  input  logic [2:0]  s_axil_awprot,
  input  logic        s_axil_wvalid,
  output logic        s_axil_wready,
  input  logic [31:0] s_axil_wdata,
  input  logic [3:0]  s_axil_wstrb,
  output logic        s_axil_bvalid,
  input  logic        s_axil_bready,
  output logic [1:0]  s_axil_bresp,
  input  logic        s_axil_arvalid,
  output logic        s_axil_arready,
  input  logic [31:0] s_axil_araddr,
  input  logic [2:0]  s_axil_arprot,
  output logic        s_axil_rvalid,
  input  logic        s_axil_rready,
  output logic [31:0] s_axil_rdata,
  output logic [1:0]  s_axil_rresp,
  output logic        console_valid_o,
  output logic [7:0]  console_data_o,
  input  logic        console_ready_i,
  output logic        exit_valid_o,
  output logic [31:0] exit_code_o
);
  localparam int unsigned N = 3;
  localparam int unsigned RamAw = 8;
  localparam logic [N-1:0][31:0] Base = {32'h2000_0000, 32'h1000_0000, 32'h0000_0000};
  localparam logic [N-1:0][31:0] Mask = {~32'h0000_03FF, ~32'h0000_0FFF, ~32'h0000_03FF};

  logic [N-1:0]       awvalid, awready, wvalid, wready, bvalid, bready, arvalid, arready, rvalid, rready;
  logic [N-1:0][1:0]  bresp, rresp;
  logic [N-1:0][31:0] rdata;
  logic [31:0]        awaddr, wdata, araddr;
  logic [2:0]         awprot, arprot;
  logic [3:0]         wstrb;
  logic               err;

  pka_soc_axil_demux #(
    .NumSlaves (N),
    .SlaveBase (Base),
    .SlaveMask (Mask)
  ) u_demux (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .s_axil_awvalid (s_axil_awvalid),
    .s_axil_awready (s_axil_awready),
    .s_axil_awaddr  (s_axil_awaddr),
    .s_axil_awprot  (s_axil_awprot),
    .s_axil_wvalid  (s_axil_wvalid),
    .s_axil_wready  (s_axil_wready),
    .s_axil_wdata   (s_axil_wdata),
    .s_axil_wstrb   (s_axil_wstrb),
    .s_axil_bvalid  (s_axil_bvalid),
    .s_axil_bready  (s_axil_bready),
    .s_axil_bresp   (s_axil_bresp),
    .s_axil_arvalid (s_axil_arvalid),
    .s_axil_arready (s_axil_arready),
    .s_axil_araddr  (s_axil_araddr),
    .s_axil_arprot  (s_axil_arprot),
    .s_axil_rvalid  (s_axil_rvalid),
    .s_axil_rready  (s_axil_rready),
    .s_axil_rdata   (s_axil_rdata),
    .s_axil_rresp   (s_axil_rresp),
    .m_axil_awvalid (awvalid),
    .m_axil_awready (awready),
    .m_axil_awaddr  (awaddr),
    .m_axil_awprot  (awprot),
    .m_axil_wvalid  (wvalid),
    .m_axil_wready  (wready),
    .m_axil_wdata   (wdata),
    .m_axil_wstrb   (wstrb),
    .m_axil_bvalid  (bvalid),
    .m_axil_bready  (bready),
    .m_axil_bresp   (bresp),
    .m_axil_arvalid (arvalid),
    .m_axil_arready (arready),
    .m_axil_araddr  (araddr),
    .m_axil_arprot  (arprot),
    .m_axil_rvalid  (rvalid),
    .m_axil_rready  (rready),
    .m_axil_rdata   (rdata),
    .m_axil_rresp   (rresp),
    .err_o          (err)
  );

  for (genvar i = 0; i < N; i += 2) begin : gen_ram
    pka_soc_ram #(
      .Aw (RamAw)
    ) u_ram (
      .clk_i          (clk_i),
      .rst_ni         (rst_ni),
      .s_axil_awvalid (awvalid[i]),
      .s_axil_awready (awready[i]),
      .s_axil_awaddr  (awaddr),
      .s_axil_wvalid  (wvalid[i]),
      .s_axil_wready  (wready[i]),
      .s_axil_wdata   (wdata),
      .s_axil_wstrb   (wstrb),
      .s_axil_bvalid  (bvalid[i]),
      .s_axil_bready  (bready[i]),
      .s_axil_bresp   (bresp[i]),
      .s_axil_arvalid (arvalid[i]),
      .s_axil_arready (arready[i]),
      .s_axil_araddr  (araddr),
      .s_axil_rvalid  (rvalid[i]),
      .s_axil_rready  (rready[i]),
      .s_axil_rdata   (rdata[i]),
      .s_axil_rresp   (rresp[i])
    );
  end

  pka_soc_sysctl u_sysctl (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .s_axil_awvalid  (awvalid[1]),
    .s_axil_awready  (awready[1]),
    .s_axil_awaddr   (awaddr),
    .s_axil_wvalid   (wvalid[1]),
    .s_axil_wready   (wready[1]),
    .s_axil_wdata    (wdata),
    .s_axil_wstrb    (wstrb),
    .s_axil_bvalid   (bvalid[1]),
    .s_axil_bready   (bready[1]),
    .s_axil_bresp    (bresp[1]),
    .s_axil_arvalid  (arvalid[1]),
    .s_axil_arready  (arready[1]),
    .s_axil_araddr   (araddr),
    .s_axil_rvalid   (rvalid[1]),
    .s_axil_rready   (rready[1]),
    .s_axil_rdata    (rdata[1]),
    .s_axil_rresp    (rresp[1]),
    .console_valid_o (console_valid_o),
    .console_data_o  (console_data_o),
    .console_ready_i (console_ready_i),
    .exit_valid_o    (exit_valid_o),
    .exit_code_o     (exit_code_o),
    .err_i           (err)
  );

  logic unused_prot;
  assign unused_prot = ^{awprot, arprot};
endmodule
