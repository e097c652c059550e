// SPDX-License-Identifier: Apache-2.0
// pka_soc_axil_demux: an AXI4-Lite 1-to-N address decoder (one master, NumSlaves slaves).
//
// Each transaction goes to the first slave i (lowest index) with (addr & SlaveMask[i]) ==
// SlaveBase[i]; an address no slave claims is answered here with DECERR (reads return 0). One write
// and one read may be outstanding at a time (each channel pair is locked to its slave from the
// first handshake of a transaction to its response), which is all a PicoRV32 issues and keeps the
// decoder free of ID or ordering bookkeeping. Zero added latency: in idle the AW/W/AR channels are
// routed combinationally from the address the master presents (AXI holds it stable until the
// handshake), responses are muxed from the locked slave.
//
// Address, data, strobe and prot are broadcast to every slave (only the valids are per slave); the
// slaves see the full 32-bit address. err_o pulses for every B or R handshake whose response is not
// OKAY (a PicoRV32 has no response inputs: pka_soc counts these in a register instead).
`default_nettype none

module pka_soc_axil_demux #(
  parameter int unsigned NumSlaves = 3,                   // slaves, 1..15
  parameter logic [NumSlaves-1:0][31:0] SlaveBase = '0,   // base address of slave i (aligned to its mask)
  parameter logic [NumSlaves-1:0][31:0] SlaveMask = '0    // address bits that select slave i
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  // from the master
  input  logic                       s_axil_awvalid,
  output logic                       s_axil_awready,
  input  logic [31:0]                s_axil_awaddr,
  input  logic [2:0]                 s_axil_awprot,
  input  logic                       s_axil_wvalid,
  output logic                       s_axil_wready,
  input  logic [31:0]                s_axil_wdata,
  input  logic [3:0]                 s_axil_wstrb,
  output logic                       s_axil_bvalid,
  input  logic                       s_axil_bready,
  output logic [1:0]                 s_axil_bresp,
  input  logic                       s_axil_arvalid,
  output logic                       s_axil_arready,
  input  logic [31:0]                s_axil_araddr,
  input  logic [2:0]                 s_axil_arprot,
  output logic                       s_axil_rvalid,
  input  logic                       s_axil_rready,
  output logic [31:0]                s_axil_rdata,
  output logic [1:0]                 s_axil_rresp,
  // to the slaves (shared address/data, one valid/ready pair per slave)
  output logic [NumSlaves-1:0]       m_axil_awvalid,
  input  logic [NumSlaves-1:0]       m_axil_awready,
  output logic [31:0]                m_axil_awaddr,
  output logic [2:0]                 m_axil_awprot,
  output logic [NumSlaves-1:0]       m_axil_wvalid,
  input  logic [NumSlaves-1:0]       m_axil_wready,
  output logic [31:0]                m_axil_wdata,
  output logic [3:0]                 m_axil_wstrb,
  input  logic [NumSlaves-1:0]       m_axil_bvalid,
  output logic [NumSlaves-1:0]       m_axil_bready,
  input  logic [NumSlaves-1:0][1:0]  m_axil_bresp,
  output logic [NumSlaves-1:0]       m_axil_arvalid,
  input  logic [NumSlaves-1:0]       m_axil_arready,
  output logic [31:0]                m_axil_araddr,
  output logic [2:0]                 m_axil_arprot,
  input  logic [NumSlaves-1:0]       m_axil_rvalid,
  output logic [NumSlaves-1:0]       m_axil_rready,
  input  logic [NumSlaves-1:0][31:0] m_axil_rdata,
  input  logic [NumSlaves-1:0][1:0]  m_axil_rresp,
  // a response other than OKAY was handed to the master (one pulse per response)
  output logic                       err_o
);
  localparam int unsigned SelW = $clog2(NumSlaves + 1);
  localparam logic [SelW-1:0] NoSlave = SelW'(NumSlaves);  // the decode-error responder
  localparam logic [1:0] RespDecerr = 2'b11;

  initial begin
    if (NumSlaves < 1 || NumSlaves > 15) $fatal(1, "pka_soc_axil_demux: NumSlaves must be 1..15");
    for (int unsigned i = 0; i < NumSlaves; i++) begin
      if ((SlaveBase[i] & ~SlaveMask[i]) != 0) $fatal(1, "pka_soc_axil_demux: SlaveBase[%0d] has bits outside its mask", i);
    end
  end

  function automatic logic [SelW-1:0] decode(logic [31:0] addr);
    logic [SelW-1:0] sel;
    sel = NoSlave;
    for (int i = int'(NumSlaves) - 1; i >= 0; i--) begin
      if ((addr & SlaveMask[i]) == SlaveBase[i]) sel = SelW'(i);
    end
    return sel;
  endfunction

  // ---- write channels: AW and W in any order, then B ---------------------------------------------
  logic            wr_active_q, wr_active_d;   // a write is under way (locked to wr_sel_q)
  logic            aw_done_q, aw_done_d;       // its AW handshake has happened
  logic            w_done_q, w_done_d;         // its W handshake has happened
  logic [SelW-1:0] wr_sel_q, wr_sel_d, wr_sel;
  logic            aw_go, w_go, aw_hs, w_hs, b_hs;

  always_comb begin
    wr_sel = wr_active_q ? wr_sel_q : decode(s_axil_awaddr);
    aw_go  = s_axil_awvalid && !aw_done_q;
    // W is routed only once the address is known (AXI lets a slave wait for AWVALID before WREADY)
    w_go   = s_axil_wvalid && !w_done_q && (wr_active_q || s_axil_awvalid);

    m_axil_awvalid = '0;
    m_axil_wvalid  = '0;
    m_axil_bready  = '0;
    s_axil_awready = 1'b0;
    s_axil_wready  = 1'b0;
    s_axil_bvalid  = 1'b0;
    s_axil_bresp   = 2'b00;
    if (wr_sel == NoSlave) begin
      s_axil_awready = !aw_done_q;
      s_axil_wready  = !w_done_q && (wr_active_q || s_axil_awvalid);
      s_axil_bvalid  = wr_active_q && aw_done_q && w_done_q;
      s_axil_bresp   = RespDecerr;
    end else begin
      for (int unsigned i = 0; i < NumSlaves; i++) begin
        if (wr_sel == SelW'(i)) begin
          m_axil_awvalid[i] = aw_go;
          m_axil_wvalid[i]  = w_go;
          m_axil_bready[i]  = s_axil_bready && wr_active_q;
          s_axil_awready    = m_axil_awready[i] && !aw_done_q;
          s_axil_wready     = m_axil_wready[i] && !w_done_q && (wr_active_q || s_axil_awvalid);
          s_axil_bvalid     = m_axil_bvalid[i] && wr_active_q;
          s_axil_bresp      = m_axil_bresp[i];
        end
      end
    end

    aw_hs = s_axil_awvalid && s_axil_awready;
    w_hs  = s_axil_wvalid && s_axil_wready;
    b_hs  = s_axil_bvalid && s_axil_bready;

    wr_active_d = wr_active_q;
    aw_done_d   = aw_done_q;
    w_done_d    = w_done_q;
    wr_sel_d    = wr_sel_q;
    if (b_hs) begin
      wr_active_d = 1'b0;
      aw_done_d   = 1'b0;
      w_done_d    = 1'b0;
    end else begin
      if (aw_hs || w_hs) begin
        wr_active_d = 1'b1;
        wr_sel_d    = wr_sel;
      end
      if (aw_hs) aw_done_d = 1'b1;
      if (w_hs)  w_done_d  = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_active_q <= 1'b0;
      aw_done_q   <= 1'b0;
      w_done_q    <= 1'b0;
      wr_sel_q    <= NoSlave;
    end else begin
      wr_active_q <= wr_active_d;
      aw_done_q   <= aw_done_d;
      w_done_q    <= w_done_d;
      wr_sel_q    <= wr_sel_d;
    end
  end

  assign m_axil_awaddr = s_axil_awaddr;
  assign m_axil_awprot = s_axil_awprot;
  assign m_axil_wdata  = s_axil_wdata;
  assign m_axil_wstrb  = s_axil_wstrb;

  // ---- read channels: AR, then R ------------------------------------------------------------------
  logic            rd_active_q, rd_active_d;   // a read is under way (locked to rd_sel_q)
  logic [SelW-1:0] rd_sel_q, rd_sel_d, rd_sel;
  logic            ar_hs, r_hs;

  always_comb begin
    rd_sel = rd_active_q ? rd_sel_q : decode(s_axil_araddr);

    m_axil_arvalid = '0;
    m_axil_rready  = '0;
    s_axil_arready = 1'b0;
    s_axil_rvalid  = 1'b0;
    s_axil_rdata   = '0;
    s_axil_rresp   = 2'b00;
    if (rd_sel == NoSlave) begin
      s_axil_arready = !rd_active_q;
      s_axil_rvalid  = rd_active_q;
      s_axil_rresp   = RespDecerr;
    end else begin
      for (int unsigned i = 0; i < NumSlaves; i++) begin
        if (rd_sel == SelW'(i)) begin
          m_axil_arvalid[i] = s_axil_arvalid && !rd_active_q;
          m_axil_rready[i]  = s_axil_rready && rd_active_q;
          s_axil_arready    = m_axil_arready[i] && !rd_active_q;
          s_axil_rvalid     = m_axil_rvalid[i] && rd_active_q;
          s_axil_rdata      = m_axil_rdata[i];
          s_axil_rresp      = m_axil_rresp[i];
        end
      end
    end

    ar_hs = s_axil_arvalid && s_axil_arready;
    r_hs  = s_axil_rvalid && s_axil_rready;

    rd_active_d = rd_active_q;
    rd_sel_d    = rd_sel_q;
    if (r_hs) begin
      rd_active_d = 1'b0;
    end else if (ar_hs) begin
      rd_active_d = 1'b1;
      rd_sel_d    = rd_sel;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_active_q <= 1'b0;
      rd_sel_q    <= NoSlave;
    end else begin
      rd_active_q <= rd_active_d;
      rd_sel_q    <= rd_sel_d;
    end
  end

  assign m_axil_araddr = s_axil_araddr;
  assign m_axil_arprot = s_axil_arprot;

  assign err_o = (b_hs && s_axil_bresp != 2'b00) || (r_hs && s_axil_rresp != 2'b00);
endmodule
