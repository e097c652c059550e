// SPDX-License-Identifier: Apache-2.0
// pka_syn_ram512 for ECP5: one DP16KD in 512 x 36 pseudo-dual-port mode (port A writes, port B
// reads) with the output registers on (REGMODE OUTREG on both sides: in 36-bit mode half of the
// read word leaves through the A-side outputs), so the EBR's clock-to-output (~1 ns instead of
// ~5.6 ns at speed grade 6) does not limit the engine's clock. Same ports and timing as syn/pka_syn_ram512.sv
// (read latency 2 cycles). The connection scheme is the one Yosys' own ECP5 RAM mapping uses for
// PDPW16KD (share/lattice/brams_map_16kd.v): 36-bit data split over the DIA/DIB and DOA/DOB pins,
// ADA0..3 as byte enables. Plain Verilog-2005, read with read_verilog (DP16KD takes parameters,
// which read_slang cannot see on a library blackbox).
`default_nettype none

module pka_syn_ram512 (
  input  wire        clk_i,
  input  wire        re_i,
  input  wire        we_i,
  input  wire [8:0]  addr_i,
  input  wire [31:0] wdata_i,
  output wire [31:0] rdata_o
);
  wire [35:0] di = {4'b0000, wdata_i};
  wire [35:0] do_w;
  assign rdata_o = do_w[31:0];

  DP16KD #(
    .DATA_WIDTH_A(36),
    .DATA_WIDTH_B(36),
    .REGMODE_A("OUTREG"),
    .REGMODE_B("OUTREG"),
    .RESETMODE("SYNC"),
    .ASYNC_RESET_RELEASE("SYNC"),
    .CSDECODE_A("0b000"),
    .CSDECODE_B("0b000"),
    .WRITEMODE_A("NORMAL"),
    .WRITEMODE_B("NORMAL"),
    .GSR("DISABLED")
  ) u_ebr (
    .CLKA(clk_i), .CEA(we_i), .WEA(1'b1), .OCEA(1'b1), .RSTA(1'b0),
    .CSA0(1'b0), .CSA1(1'b0), .CSA2(1'b0),
    .ADA0(1'b1), .ADA1(1'b1), .ADA2(1'b1), .ADA3(1'b1), .ADA4(1'b0),
    .ADA5(addr_i[0]), .ADA6(addr_i[1]), .ADA7(addr_i[2]), .ADA8(addr_i[3]), .ADA9(addr_i[4]), .ADA10(addr_i[5]), .ADA11(addr_i[6]), .ADA12(addr_i[7]), .ADA13(addr_i[8]),
    .DIA0(di[0]), .DIA1(di[1]), .DIA2(di[2]), .DIA3(di[3]), .DIA4(di[4]), .DIA5(di[5]),
    .DIA6(di[6]), .DIA7(di[7]), .DIA8(di[8]), .DIA9(di[9]), .DIA10(di[10]), .DIA11(di[11]),
    .DIA12(di[12]), .DIA13(di[13]), .DIA14(di[14]), .DIA15(di[15]), .DIA16(di[16]), .DIA17(di[17]),
    .DIB0(di[18]), .DIB1(di[19]), .DIB2(di[20]), .DIB3(di[21]), .DIB4(di[22]), .DIB5(di[23]),
    .DIB6(di[24]), .DIB7(di[25]), .DIB8(di[26]), .DIB9(di[27]), .DIB10(di[28]), .DIB11(di[29]),
    .DIB12(di[30]), .DIB13(di[31]), .DIB14(di[32]), .DIB15(di[33]), .DIB16(di[34]), .DIB17(di[35]),
    .CLKB(clk_i), .CEB(re_i), .WEB(1'b0), .OCEB(1'b1), .RSTB(1'b0),
    .CSB0(1'b0), .CSB1(1'b0), .CSB2(1'b0),
    .ADB0(1'b0), .ADB1(1'b0), .ADB2(1'b0), .ADB3(1'b0), .ADB4(1'b0),
    .ADB5(addr_i[0]), .ADB6(addr_i[1]), .ADB7(addr_i[2]), .ADB8(addr_i[3]), .ADB9(addr_i[4]), .ADB10(addr_i[5]), .ADB11(addr_i[6]), .ADB12(addr_i[7]), .ADB13(addr_i[8]),
    .DOA0(do_w[0]), .DOA1(do_w[1]), .DOA2(do_w[2]), .DOA3(do_w[3]), .DOA4(do_w[4]), .DOA5(do_w[5]),
    .DOA6(do_w[6]), .DOA7(do_w[7]), .DOA8(do_w[8]), .DOA9(do_w[9]), .DOA10(do_w[10]), .DOA11(do_w[11]),
    .DOA12(do_w[12]), .DOA13(do_w[13]), .DOA14(do_w[14]), .DOA15(do_w[15]), .DOA16(do_w[16]), .DOA17(do_w[17]),
    .DOB0(do_w[18]), .DOB1(do_w[19]), .DOB2(do_w[20]), .DOB3(do_w[21]), .DOB4(do_w[22]), .DOB5(do_w[23]),
    .DOB6(do_w[24]), .DOB7(do_w[25]), .DOB8(do_w[26]), .DOB9(do_w[27]), .DOB10(do_w[28]), .DOB11(do_w[29]),
    .DOB12(do_w[30]), .DOB13(do_w[31]), .DOB14(do_w[32]), .DOB15(do_w[33]), .DOB16(do_w[34]), .DOB17(do_w[35])
  );
endmodule
