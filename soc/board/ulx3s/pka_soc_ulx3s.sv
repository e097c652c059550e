// SPDX-License-Identifier: Apache-2.0
// pka_soc_ulx3s: pka_soc on the ULX3S board (Lattice ECP5 LFE5U-85F-6BG381C), the SoC clocked from
// the board's 25 MHz oscillator (ClkDiv = 1) or from the ECP5's PLL at 25 / ClkDiv MHz (ClkDiv = 2..4:
// the build whose worst path is longer than 40 ns), its console on the FTDI USB serial port.
//
//   clk_25mhz (G2) --> [EHXPLLL: 25 / ClkDiv MHz] --> clk_soc --> pka_soc (PicoRV32 + RAM with the firmware and its job + sysctl + pka_top)
//   btn_pwr_n (D6) --> power-on/button reset --> rst_ni      console --> pka_soc_uart_tx --> ftdi_rxd (L4)
//   led[7:0]       <-- status: running, passed, failed, trap, UART active, heartbeat
//
// The firmware is in the RAM from configuration on (RamInit: a $readmemh image made by `pka soc
// --board ulx3s`: the program and its job block); it runs once after configuration and after each
// press of the power button (BTN_PWR, which pulls low when pressed, released = high), and prints
// on the serial port (115,200 baud, 8N1) what the simulation prints on its console (soc/README.md).
// The console's writes wait for the UART (sysctl's console_ready_i), so nothing is lost.
//
// Port names follow the board's reference constraints (the ULX3S constraint file ulx3s_v20.lpf of
// github.com/emard/ulx3s, doc/constraints/; this board's copy: ulx3s.lpf beside this file), not the
// _i/_o convention: they are the board's net names. ftdi_rxd is the FTDI chip's RXD, i.e. the
// FPGA's transmit line.
//
// The PLL (ClkDiv > 1): CLKI_DIV = ClkDiv, CLKFB_DIV = 1 with feedback from CLKOP, so CLKOP = 25 MHz /
// ClkDiv, and CLKOP_DIV = 24 ClkDiv, so the VCO runs at 600 MHz for every ClkDiv (its range is 400 to
// 800 MHz; the phase detector sees 25 / ClkDiv >= 6.25 MHz). nextpnr derives the SoC clock's
// constraint from these parameters and the oscillator's 25 MHz (ulx3s.lpf). The SoC's reset is held
// until the PLL reports lock.
//
// LEDs (led[0] is the one at B2):
//   0 running (the program has not ended)    1 ended with code 0 (every result printed, no failed step)
//   2 ended with a non-zero code             3 the CPU stopped on a trap
//   4 the UART is sending                    7 heartbeat (2^24 cycles: 1.5 Hz at 25 MHz)
`default_nettype none

module pka_soc_ulx3s #(
  parameter int unsigned ClkHz     = 25_000_000,  // the board oscillator: 25 MHz on the ULX3S
  parameter int unsigned ClkDiv    = 1,           // the SoC clock = ClkHz / ClkDiv: 1 (no PLL), 2..4 (PLL)
  parameter int unsigned Baud      = 115_200,     // console bit rate, 8N1
  parameter int unsigned RamAw     = 14,          // as pka_soc: 2^RamAw words of RAM, 8..18
  parameter string       RamInit   = "",          // $readmemh image of the RAM: firmware + job block
  // ---- pka_top: the engines this board build holds (the others keep pka_soc's defaults, off)
  parameter int unsigned MaxLen    = 512,   // maximum modulus bits, multiple of 32, 32..4096
  parameter bit          EnHscm    = 1'b1,  // hscm engine (RSA: MODEXP, RSA_CRT)
  parameter int unsigned HscmW     = 16,    // hscm word = digit bits: 16, 32, 64
  parameter int unsigned HscmPes   = 2,     // hscm processing elements: 1..128 (two HSCMs: even)
  parameter int unsigned HscmMaxWindow = 6, // hscm largest sliding window: 1..8
  parameter bit          EnRns     = 1'b1,  // rns engine (ECC_MUL)
  parameter int unsigned RnsW      = 32,    // rns channel width: 16, 32
  parameter int unsigned RnsMaxLen = 256,   // longest rns modulus (P-256), 0: MaxLen
  parameter int unsigned MinSlotAw = 9      // at least 2^MinSlotAw words per operand slot, 0..10
) (
  input  logic       clk_25mhz,
  input  logic       btn_pwr_n,
  output logic       ftdi_rxd,
  output logic [7:0] led
);
  // ---- the SoC clock: the oscillator, or the PLL's CLKOP ------------------------------------------------
  localparam int unsigned SocHz = ClkHz / ClkDiv;
  logic clk_soc, locked;

  if (ClkDiv == 1) begin : g_osc
    assign clk_soc = clk_25mhz;
    assign locked = 1'b1;
  end else begin : g_pll
    if (ClkDiv > 4) begin : g_bad_div
      $fatal(1, "ClkDiv: 1..4");
    end
    (* FREQUENCY_PIN_CLKI = "25" *)
    EHXPLLL #(
      .CLKI_DIV     (ClkDiv),
      .CLKFB_DIV    (1),
      .CLKOP_DIV    (24 * ClkDiv),
      .CLKOP_CPHASE (24 * ClkDiv - 1),
      .CLKOP_FPHASE (0),
      .CLKOP_ENABLE ("ENABLED"),
      .FEEDBK_PATH  ("CLKOP")
    ) u_pll (
      .CLKI         (clk_25mhz),
      .CLKFB        (clk_soc),
      .RST          (1'b0),
      .STDBY        (1'b0),
      .PHASESEL0    (1'b0),
      .PHASESEL1    (1'b0),
      .PHASEDIR     (1'b0),
      .PHASESTEP    (1'b0),
      .PHASELOADREG (1'b0),
      .PLLWAKESYNC  (1'b0),
      .ENCLKOP      (1'b0),
      .ENCLKOS      (1'b0),
      .ENCLKOS2     (1'b0),
      .ENCLKOS3     (1'b0),
      .CLKOP        (clk_soc),
      .LOCK         (locked)
    );
  end

  // ---- reset: held for 2^PorW cycles after configuration and lock, and while the button is pressed --
  // (the ECP5 clears every flip-flop at configuration, so por_q starts at 0 on the board)
  localparam int unsigned PorW = 8;
  // rst_n is a flip-flop (no combinational glitch reaches pka_soc's asynchronous reset input).
  logic [PorW-1:0] por_q;
  logic            rst_n;

  always_ff @(posedge clk_soc) begin
    if (!btn_pwr_n || !locked) por_q <= '0;
    else if (!(&por_q))        por_q <= por_q + 1'b1;
    rst_n <= btn_pwr_n && locked && (&por_q);
  end

  // ---- the SoC ---------------------------------------------------------------------------------------
  logic        con_valid, con_ready, exit_valid, trap;
  logic [7:0]  con_data;
  logic [31:0] exit_code;

  pka_soc #(
    .RamAw         (RamAw),
    .RamInit       (RamInit),
    .MaxLen        (MaxLen),
    .EnHscm        (EnHscm),
    .HscmW         (HscmW),
    .HscmPes       (HscmPes),
    .HscmMaxWindow (HscmMaxWindow),
    .EnRns         (EnRns),
    .RnsW          (RnsW),
    .RnsMaxLen     (RnsMaxLen),
    .MinSlotAw     (MinSlotAw)
  ) u_soc (
    .clk_i           (clk_soc),
    .rst_ni          (rst_n),
    .console_valid_o (con_valid),
    .console_data_o  (con_data),
    .console_ready_i (con_ready),
    .exit_valid_o    (exit_valid),
    .exit_code_o     (exit_code),
    .trap_o          (trap)
  );

  pka_soc_uart_tx #(
    .ClkHz (SocHz),
    .Baud  (Baud)
  ) u_uart (
    .clk_i   (clk_soc),
    .rst_ni  (rst_n),
    .valid_i (con_valid),
    .data_i  (con_data),
    .ready_o (con_ready),
    .tx_o    (ftdi_rxd)
  );

  // ---- status LEDs -----------------------------------------------------------------------------------
  logic        ended_q, pass_q, trap_q;
  logic [23:0] beat_q;

  always_ff @(posedge clk_soc or negedge rst_n) begin
    if (!rst_n) begin
      ended_q <= 1'b0;
      pass_q  <= 1'b0;
      trap_q  <= 1'b0;
      beat_q  <= '0;
    end else begin
      beat_q <= beat_q + 1'b1;
      if (exit_valid && !ended_q) begin
        ended_q <= 1'b1;
        pass_q  <= exit_code == '0;
      end
      if (trap) trap_q <= 1'b1;
    end
  end

  assign led = {beat_q[23], 2'b00, !con_ready, trap_q, ended_q && !pass_q, ended_q && pass_q, !ended_q};
endmodule
