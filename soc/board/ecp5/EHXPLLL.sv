// SPDX-License-Identifier: Apache-2.0
// EHXPLLL: the interface of the Lattice ECP5 PLL primitive, for the board tops that use it (a black
// box: Yosys keeps the instance with its parameters, nextpnr-ecp5 places it on a PLL site and derives
// its output clocks' constraints from them). Only the ports and parameters the board tops set are
// declared (the others keep the primitive's defaults). No behaviour: the board builds are not
// simulated (the SoC's simulation runs pka_soc itself, soc/README.md); Verilator only lints them.
// Reference: Lattice FPGA-TN-02200, ECP5 and ECP5-5G sysCLOCK PLL/DLL Design and Usage Guide.
(* blackbox *)
module EHXPLLL #(
  parameter int    CLKI_DIV     = 1,
  parameter int    CLKFB_DIV    = 1,
  parameter int    CLKOP_DIV    = 8,
  parameter int    CLKOP_CPHASE = 0,
  parameter int    CLKOP_FPHASE = 0,
  parameter string CLKOP_ENABLE = "ENABLED",
  parameter string FEEDBK_PATH  = "CLKOP"
) (
  input  logic CLKI,
  input  logic CLKFB,
  input  logic RST,
  input  logic STDBY,
  input  logic PHASESEL0,
  input  logic PHASESEL1,
  input  logic PHASEDIR,
  input  logic PHASESTEP,
  input  logic PHASELOADREG,
  input  logic PLLWAKESYNC,
  input  logic ENCLKOP,
  input  logic ENCLKOS,
  input  logic ENCLKOS2,
  input  logic ENCLKOS3,
  output logic CLKOP,
  output logic LOCK
);
endmodule
