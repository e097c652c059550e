// SPDX-License-Identifier: Apache-2.0
// pka_soc_ram: on-chip RAM for the SoC's code and data, an AXI4-Lite slave with byte strobes.
//
// 2^Aw words of 32 bits at the word address addr[Aw+1:2] (the decoder in front of it checks the
// upper bits). A write is accepted when AW and W are both valid and answers OKAY the cycle after;
// a read answers the cycle after AR with the registered word (a block-RAM read port), so the CPU's
// fetch costs two bus cycles. Contents at start: InitFile (Yosys and simulators: $readmemh at
// elaboration), overridden in simulation by the plusarg +firmware=<file.hex> so that one Verilated
// model runs any firmware. No reset of the array (it holds the program).
`default_nettype none

module pka_soc_ram #(
  parameter int unsigned Aw       = 14,  // word address width, 8..18 (1 KiB .. 1 MiB)
  parameter string       InitFile = ""   // $readmemh image loaded at elaboration ("" = none)
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        s_axil_awvalid,
  output logic        s_axil_awready,
  input  logic [31:0] s_axil_awaddr,
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
  output logic        s_axil_rvalid,
  input  logic        s_axil_rready,
  output logic [31:0] s_axil_rdata,
  output logic [1:0]  s_axil_rresp
);
  initial begin
    if (Aw < 8 || Aw > 18) $fatal(1, "pka_soc_ram: Aw must be 8..18");
  end

  logic [31:0] mem_q [2**Aw];

  initial begin
    if (InitFile != "") $readmemh(InitFile, mem_q);
`ifndef SYNTHESIS
    begin
      string fw;
      if ($value$plusargs("firmware=%s", fw)) $readmemh(fw, mem_q);
    end
`endif
  end

  // ---- write: AW and W together, B the cycle after ------------------------------------------------
  logic          bvalid_q, bvalid_d, we;
  logic [Aw-1:0] waddr;

  always_comb begin
    s_axil_awready = s_axil_awvalid && s_axil_wvalid && !bvalid_q;
    s_axil_wready  = s_axil_awready;
    we             = s_axil_awready;
    waddr          = s_axil_awaddr[Aw+1:2];
    bvalid_d       = bvalid_q;
    if (s_axil_bready) bvalid_d = 1'b0;
    if (we)            bvalid_d = 1'b1;
  end

  // The RAM template: the array is written in a clocked block, byte lanes by strobe (no reset).
  always_ff @(posedge clk_i) begin
    for (int b = 0; b < 4; b++) begin
      if (we && s_axil_wstrb[b]) mem_q[waddr][8*b +: 8] <= s_axil_wdata[8*b +: 8];
    end
  end

  // ---- read: R the cycle after AR -----------------------------------------------------------------
  logic        rvalid_q, rvalid_d, re;
  logic [31:0] rdata_q;

  always_comb begin
    s_axil_arready = !rvalid_q || s_axil_rready;
    re             = s_axil_arvalid && s_axil_arready;
    rvalid_d       = rvalid_q;
    if (s_axil_rready) rvalid_d = 1'b0;
    if (re)            rvalid_d = 1'b1;
  end

  always_ff @(posedge clk_i) begin
    if (re) rdata_q <= mem_q[s_axil_araddr[Aw+1:2]];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bvalid_q <= 1'b0;
      rvalid_q <= 1'b0;
    end else begin
      bvalid_q <= bvalid_d;
      rvalid_q <= rvalid_d;
    end
  end

  assign s_axil_bvalid = bvalid_q;
  assign s_axil_bresp  = 2'b00;
  assign s_axil_rvalid = rvalid_q;
  assign s_axil_rdata  = rdata_q;
  assign s_axil_rresp  = 2'b00;

  // address bits above the RAM and the byte offset are the decoder's business
  logic unused_addr;
  assign unused_addr = ^{s_axil_awaddr[31:Aw+2], s_axil_awaddr[1:0], s_axil_araddr[31:Aw+2],
                         s_axil_araddr[1:0]};
endmodule
