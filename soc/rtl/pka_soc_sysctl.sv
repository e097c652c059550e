// SPDX-License-Identifier: Apache-2.0
// pka_soc_sysctl: the SoC's console and simulation control, an AXI4-Lite slave of four registers.
//
//   0x0 CONSOLE  W: data[7:0] is one character out (console_valid_o pulses with it; the write
//                   waits while console_ready_i is low, so software never polls); R: 0
//   0x4 EXIT     W: end of the program, exit_valid_o pulses with exit_code_o = data (0 = success);
//                   the simulation stops on it, a board ignores it; R: the last code written
//   0x8 BUSERR   R: number of bus responses other than OKAY seen by the CPU (err_i pulses,
//                   saturating); W: clears it (the PicoRV32 has no response inputs)
//   0xC ID       R: 0x534f4301 ("SOC", version 1)
// Other offsets answer SLVERR. Writes need all four byte strobes except to CONSOLE (a byte store).
// Each access answers the cycle after it is accepted.
`default_nettype none

module pka_soc_sysctl (
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
  output logic [1:0]  s_axil_rresp,
  // console: one character per pulse
  output logic        console_valid_o,
  output logic [7:0]  console_data_o,
  input  logic        console_ready_i,
  // end of program
  output logic        exit_valid_o,
  output logic [31:0] exit_code_o,
  // an error response went to the CPU
  input  logic        err_i
);
  localparam logic [31:0] Id = 32'h534f_4301;
  localparam logic [1:0] RespOkay = 2'b00, RespSlverr = 2'b10;
  typedef enum logic [1:0] {RegConsole = 2'd0, RegExit = 2'd1, RegBuserr = 2'd2, RegId = 2'd3} reg_e;

  // ---- write --------------------------------------------------------------------------------------
  logic        bvalid_q, bvalid_d, wr_go, wr_ok;
  logic [1:0]  bresp_q, bresp_d;
  logic        console_valid_q, console_valid_d;
  logic [7:0]  console_data_q, console_data_d;
  logic        exit_valid_q, exit_valid_d;
  logic [31:0] exit_code_q, exit_code_d;
  logic [31:0] buserr_q, buserr_d;
  reg_e        wreg, rreg;

  always_comb begin
    wreg  = reg_e'(s_axil_awaddr[3:2]);
    // accept AW and W together; a console write waits for the console
    wr_go = s_axil_awvalid && s_axil_wvalid && !bvalid_q && (wreg != RegConsole || console_ready_i);
    s_axil_awready = wr_go;
    s_axil_wready  = wr_go;
    wr_ok = (s_axil_awaddr[11:4] == '0) && (wreg == RegConsole ? s_axil_wstrb[0] : s_axil_wstrb == 4'hF)
            && wreg != RegId;

    bvalid_d        = bvalid_q;
    bresp_d         = bresp_q;
    console_valid_d = 1'b0;
    console_data_d  = console_data_q;
    exit_valid_d    = 1'b0;
    exit_code_d     = exit_code_q;
    buserr_d        = buserr_q;
    if (err_i && buserr_q != '1) buserr_d = buserr_q + 32'd1;
    if (s_axil_bready) bvalid_d = 1'b0;
    if (wr_go) begin
      bvalid_d = 1'b1;
      bresp_d  = wr_ok ? RespOkay : RespSlverr;
      if (wr_ok) begin
        unique case (wreg)
          RegConsole: begin
            console_valid_d = 1'b1;
            console_data_d  = s_axil_wdata[7:0];
          end
          RegExit: begin
            exit_valid_d = 1'b1;
            exit_code_d  = s_axil_wdata;
          end
          RegBuserr: buserr_d = '0;
          default: ;
        endcase
      end
    end
  end

  // ---- read ---------------------------------------------------------------------------------------
  logic        rvalid_q, rvalid_d, rd_go;
  logic [31:0] rdata_q, rdata_d;
  logic [1:0]  rresp_q, rresp_d;

  always_comb begin
    rreg  = reg_e'(s_axil_araddr[3:2]);
    s_axil_arready = !rvalid_q;
    rd_go    = s_axil_arvalid && s_axil_arready;
    rvalid_d = rvalid_q;
    rdata_d  = rdata_q;
    rresp_d  = rresp_q;
    if (s_axil_rready) rvalid_d = 1'b0;
    if (rd_go) begin
      rvalid_d = 1'b1;
      rresp_d  = (s_axil_araddr[11:4] == '0) ? RespOkay : RespSlverr;
      unique case (rreg)
        RegConsole: rdata_d = '0;
        RegExit:    rdata_d = exit_code_q;
        RegBuserr:  rdata_d = buserr_q;
        RegId:      rdata_d = Id;
        default:    rdata_d = '0;
      endcase
      if (s_axil_araddr[11:4] != '0) rdata_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bvalid_q        <= 1'b0;
      bresp_q         <= RespOkay;
      console_valid_q <= 1'b0;
      console_data_q  <= '0;
      exit_valid_q    <= 1'b0;
      exit_code_q     <= '0;
      buserr_q        <= '0;
      rvalid_q        <= 1'b0;
      rdata_q         <= '0;
      rresp_q         <= RespOkay;
    end else begin
      bvalid_q        <= bvalid_d;
      bresp_q         <= bresp_d;
      console_valid_q <= console_valid_d;
      console_data_q  <= console_data_d;
      exit_valid_q    <= exit_valid_d;
      exit_code_q     <= exit_code_d;
      buserr_q        <= buserr_d;
      rvalid_q        <= rvalid_d;
      rdata_q         <= rdata_d;
      rresp_q         <= rresp_d;
    end
  end

  assign s_axil_bvalid   = bvalid_q;
  assign s_axil_bresp    = bresp_q;
  assign s_axil_rvalid   = rvalid_q;
  assign s_axil_rdata    = rdata_q;
  assign s_axil_rresp    = rresp_q;
  assign console_valid_o = console_valid_q;
  assign console_data_o  = console_data_q;
  assign exit_valid_o    = exit_valid_q;
  assign exit_code_o     = exit_code_q;

  // the window is 4 KiB (the decoder checks the bits above); byte offsets are ignored
  logic unused_addr;
  assign unused_addr = ^{s_axil_awaddr[31:12], s_axil_awaddr[1:0], s_axil_araddr[31:12], s_axil_araddr[1:0]};
endmodule
