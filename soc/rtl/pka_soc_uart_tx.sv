// SPDX-License-Identifier: Apache-2.0
// pka_soc_uart_tx: a UART transmitter, 8N1 (one start bit, eight data bits LSB first, one stop bit),
// for the SoC's console on a board (sysctl CONSOLE -> this -> the board's USB serial chip).
//
// A character is taken when valid_i and ready_o are both high; the line then carries
// 0, d[0] .. d[7], 1, each bit for Div = round(ClkHz / Baud) clock cycles, and ready_o rises again
// after the stop bit's Div cycles (one character every 10 Div cycles back to back). tx_o comes
// straight from a flip-flop (no glitches) and idles high. Baud error: |Div * Baud - ClkHz| / ClkHz,
// checked below to be under 2 % (25 MHz / 115,200: Div = 217, +0.006 %).
// No flow control, no receiver: the console is output only.
`default_nettype none

module pka_soc_uart_tx #(
  parameter int unsigned ClkHz = 25_000_000,  // clock frequency in Hz, >= 2 * Baud
  parameter int unsigned Baud  = 115_200      // bit rate, 300..ClkHz/2
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       valid_i,
  input  logic [7:0] data_i,
  output logic       ready_o,
  output logic       tx_o
);
  localparam int unsigned Div  = (ClkHz + Baud / 2) / Baud;   // cycles per bit
  localparam int unsigned CntW = $clog2(Div);
  localparam int unsigned Bits = 10;                          // start + 8 data + stop

  initial begin
    if (Baud < 300 || Div < 2) $fatal(1, "pka_soc_uart_tx: Baud must be 300..ClkHz/2");
    // |Div * Baud - ClkHz| < ClkHz / 50 (2 %), in 64 bits
    if (64'(Div) * 64'(Baud) * 50 > 64'(ClkHz) * 51 || 64'(Div) * 64'(Baud) * 50 < 64'(ClkHz) * 49)
      $fatal(1, "pka_soc_uart_tx: baud rate error of 2 %% or more");
  end

  logic            busy_q, busy_d;
  logic [Bits-1:0] shift_q, shift_d;    // the frame, LSB first on the line; all ones when idle
  logic [3:0]      nbit_q, nbit_d;      // bits still to send, counting the one on the line
  logic [CntW-1:0] cnt_q, cnt_d;        // cycles left of the bit on the line

  always_comb begin
    busy_d  = busy_q;
    shift_d = shift_q;
    nbit_d  = nbit_q;
    cnt_d   = cnt_q;
    if (!busy_q) begin
      if (valid_i) begin
        busy_d  = 1'b1;
        shift_d = {1'b1, data_i, 1'b0};
        nbit_d  = 4'(Bits);
        cnt_d   = CntW'(Div - 1);
      end
    end else if (cnt_q != '0) begin
      cnt_d = cnt_q - 1'b1;
    end else begin
      // the bit on the line has had its Div cycles: the next one, or idle after the stop bit
      shift_d = {1'b1, shift_q[Bits-1:1]};
      nbit_d  = nbit_q - 4'd1;
      cnt_d   = CntW'(Div - 1);
      if (nbit_q == 4'd1) busy_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      shift_q <= '1;
      nbit_q  <= '0;
      cnt_q   <= '0;
    end else begin
      busy_q  <= busy_d;
      shift_q <= shift_d;
      nbit_q  <= nbit_d;
      cnt_q   <= cnt_d;
    end
  end

  assign ready_o = !busy_q;
  assign tx_o    = shift_q[0];
endmodule
