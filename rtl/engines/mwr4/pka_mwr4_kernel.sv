// SPDX-License-Identifier: Apache-2.0
// pka_mwr4_kernel: the kernel datapath of paper 001 (Fig. 3): NS processing elements in a pipeline,
// each followed by its register, one w-bit word of SS, SC, B and M per cycle entering stage 0.
//
// Stage s handles digit p*NS + s of pass p and starts 2 cycles after stage s-1; the Booth window of
// its digit is on the shared digit bus when its word 0 arrives (the kernel control puts the window
// of stage s on the bus 2s cycles after a pass starts: NS*k bits of A over 2*NS cycles).
// The last stage's output words go back to stage 0 (directly, or through the S memory of the core
// when a pass is longer than the pipeline) or, in the last pass, to the post-processor.
// Toggle counts (ToggleCnt = 1) of all stages are summed per cycle.
// wipe_i (OP_ZEROIZE) clears every register of every stage.
`default_nettype none

module pka_mwr4_kernel #(
  parameter int unsigned Radix     = 4,   // 2, 4 or 8
  parameter int unsigned W         = 16,  // word size: 4, 8, 16, 32
  parameter int unsigned NS        = 8,   // pipeline stages: 1..64
  parameter int unsigned Coding    = 1,   // 1: the paper's SEL_PP coding is built
  parameter int unsigned Freeze    = 1,   // 1: the SEL freeze is built
  parameter int unsigned ToggleCnt = 0,   // 1: toggle counters
  parameter int unsigned GlitchBlock = 0, // 1: glitch blockers (latches) on the generators' selects
  parameter int unsigned Isolate   = 0,   // 1: operand isolation of the first- and last-word adders
  localparam int unsigned K        = Radix == 8 ? 3 : Radix == 4 ? 2 : 1
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         wipe_i,
  input  logic         in_valid_i,
  input  logic         in_first_i,
  input  logic         in_last_i,
  input  logic [W-1:0] in_ss_i,
  input  logic [W-1:0] in_sc_i,
  input  logic         in_cl_i,
  input  logic [W-1:0] in_b_i,
  input  logic [W-1:0] in_m_i,
  input  logic [K:0]   digit_i,
  input  logic         freeze_en_i,
  input  logic         coding_en_i,
  output logic         out_valid_o,
  output logic         out_first_o,
  output logic         out_last_o,
  output logic [W-1:0] out_ss_o,
  output logic [W-1:0] out_sc_o,
  output logic         out_cl_o,
  output logic [W-1:0] out_b_o,
  output logic [W-1:0] out_m_o,
  output logic [15:0]  tog_sel_o,
  output logic [15:0]  tog_en_o,
  output logic [15:0]  tog_net_o,
  output logic [15:0]  tog_reg_o
);
  initial begin
    if (NS < 1 || NS > 64) $fatal(1, "NS must be 1..64");
  end

  logic         v  [NS+1];
  logic         f  [NS+1];
  logic         l  [NS+1];
  logic [W-1:0] ss [NS+1];
  logic [W-1:0] sc [NS+1];
  logic         cl [NS+1];
  logic [W-1:0] b  [NS+1];
  logic [W-1:0] m  [NS+1];
  logic [7:0]   ts [NS];
  logic [7:0]   te [NS];
  logic [7:0]   tn [NS];
  logic [7:0]   tr [NS];

  assign v[0] = in_valid_i;
  assign f[0] = in_first_i;
  assign l[0] = in_last_i;
  assign ss[0] = in_ss_i;
  assign sc[0] = in_sc_i;
  assign cl[0] = in_cl_i;
  assign b[0] = in_b_i;
  assign m[0] = in_m_i;

  for (genvar s = 0; s < NS; s++) begin : g_stage
    pka_mwr4_pe #(
      .Radix(Radix), .W(W), .Coding(Coding), .Freeze(Freeze), .ToggleCnt(ToggleCnt),
      .GlitchBlock(GlitchBlock), .Isolate(Isolate)
    ) u_pe (
      .clk_i(clk_i), .rst_ni(rst_ni), .wipe_i(wipe_i),
      .in_valid_i(v[s]), .in_first_i(f[s]), .in_last_i(l[s]),
      .in_ss_i(ss[s]), .in_sc_i(sc[s]), .in_cl_i(cl[s]), .in_b_i(b[s]), .in_m_i(m[s]),
      .digit_i(digit_i), .freeze_en_i(freeze_en_i), .coding_en_i(coding_en_i),
      .out_valid_o(v[s+1]), .out_first_o(f[s+1]), .out_last_o(l[s+1]),
      .out_ss_o(ss[s+1]), .out_sc_o(sc[s+1]), .out_cl_o(cl[s+1]), .out_b_o(b[s+1]), .out_m_o(m[s+1]),
      .tog_sel_o(ts[s]), .tog_en_o(te[s]), .tog_net_o(tn[s]), .tog_reg_o(tr[s])
    );
  end

  assign out_valid_o = v[NS];
  assign out_first_o = f[NS];
  assign out_last_o  = l[NS];
  assign out_ss_o    = ss[NS];
  assign out_sc_o    = sc[NS];
  assign out_cl_o    = cl[NS];
  assign out_b_o     = b[NS];
  assign out_m_o     = m[NS];

  always_comb begin
    tog_sel_o = '0;
    tog_en_o  = '0;
    tog_net_o = '0;
    tog_reg_o = '0;
    for (int s = 0; s < NS; s++) begin
      tog_sel_o += 16'(ts[s]);
      tog_en_o  += 16'(te[s]);
      tog_net_o += 16'(tn[s]);
      tog_reg_o += 16'(tr[s]);
    end
  end
endmodule
