// SPDX-License-Identifier: Apache-2.0
// pka_top: the pka accelerator: an AXI4-Lite slave, an operand RAM, a command sequencer and the
// engines chosen by parameters, all behind one register map (data/pka.rdl, doc/top.md).
//
//   AXI4-Lite --> pka_regs (PeakRDL regblock) --+-- registers: CMD, LEN, ARG, STATUS, INTR_*, ...
//                                               +-- 16 slot windows --> bus port --+
//                                                                                  v
//   pka_top_seq (decode, checks, own word-serial ops, dispatch) --> RAM port mux --> pka_top_ram
//        | cmd valid/ready, done/status/cycles                          ^
//        v                                                              |
//   engine cores (common boundary, rtl/engines/<e>) -- word port -------+
//
// The RAM has one port. While the sequencer is idle the bus owns it (a read answers one cycle
// later); while busy it belongs to the sequencer or to the engine it runs, and a bus access to a
// slot is answered at once without touching the RAM (reads 0, writes dropped, INTR_STATE.REJECT).
// Slot s, word i is RAM word s * 2^SlotAw + i; the bus windows are 1024 words each, words at or
// above 2^SlotAw are not backed (read 0, writes dropped). Secret slots (E, P, Q, DP, DQ, QINV) are
// write-only (sw = w in the RDL; their read data is tied to 0 here as well). Reset clears the RAM
// (busy for 2^MemAw cycles), so does OP_ZEROIZE.
`default_nettype none

module pka_top
  import pka_pkg::*;
  import pka_top_pkg::*;
#(
  parameter int unsigned MaxLen    = 4096,  // maximum modulus bits, multiple of 32, 32..4096
  parameter bit          EnExample = 1'b0,  // tb/common/pka_example_engine (MODADD): tests only, 0 in a product
  parameter bit          EnCsa2    = 1'b0,  // csa2: carry-save radix-2 Montgomery (MODEXP, MODMUL)
  parameter int unsigned Csa2ChunkW = 32,   // csa2 carry-propagate chunk: 1 (paper) or 2..64
  parameter bit          EnMwr4    = 1'b0,  // mwr4: multiple-word radix-2^k Montgomery (MODEXP, MODMUL)
  parameter int unsigned Mwr4Radix = 4,     // mwr4 radix: 2, 4, 8
  parameter int unsigned Mwr4Ns    = 8,     // mwr4 pipeline stages: 1..64
  parameter int unsigned Mwr4W     = 16,    // mwr4 word size: 4, 8, 16, 32
  parameter bit          EnVictor  = 1'b0,  // victor: radix-2^K quotient estimation (MODEXP, MODMUL)
  parameter int unsigned VictorK   = 5,     // victor scan factor: 3..5
  parameter int unsigned VictorDelta = 10,  // victor estimator bits of S: K+4..32
  parameter int unsigned VictorEps = 11,    // victor estimator bits of 1/N: K+1..32
  parameter bit          EnHscm    = 1'b1,  // hscm: high-radix scalable Montgomery (RSA_CRT, MODEXP, ...)
  parameter int unsigned HscmW     = 16,    // hscm word = digit bits: 16, 32, 64
  parameter int unsigned HscmPes   = 16,    // hscm processing elements: 1..128 (two HSCMs: even)
  parameter int unsigned HscmMaxWindow = 6, // hscm largest sliding window: 1..8
  parameter bit          EnRns     = 1'b0,  // rns: Cox-Rower RNS Montgomery (ECC_MUL, MODEXP, ...)
  parameter int unsigned RnsW      = 32,    // rns channel width: 16, 32
  parameter int unsigned RnsMaxLen = 0,     // longest rns modulus, 0: MaxLen (a 256-bit rns beside a 2048-bit hscm)
  parameter int unsigned MinSlotAw = 0,     // at least 2^MinSlotAw words per slot (rns tables; hscm's derived), 0..10
  parameter bit          EnResultCheck = 1'b1, // check results before release, engines' fault checks (0: tests only)
  parameter bit          EnKeyBinding = 1'b1,  // zeroize bound secrets on a modulus write (0: tests only)
  parameter bit          TestExposeInternals = 1'b0, // key constants in bus slots, no taint (1: tests only)
  parameter int unsigned BusAw     = 17     // AXI address width, 17 (the register map is 72 KiB)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // AXI4-Lite slave
  input  logic             s_axil_awvalid,
  output logic             s_axil_awready,
  input  logic [BusAw-1:0] s_axil_awaddr,
  input  logic [2:0]       s_axil_awprot,
  input  logic             s_axil_wvalid,
  output logic             s_axil_wready,
  input  logic [31:0]      s_axil_wdata,
  input  logic [3:0]       s_axil_wstrb,
  output logic             s_axil_bvalid,
  input  logic             s_axil_bready,
  output logic [1:0]       s_axil_bresp,
  input  logic             s_axil_arvalid,
  output logic             s_axil_arready,
  input  logic [BusAw-1:0] s_axil_araddr,
  input  logic [2:0]       s_axil_arprot,
  output logic             s_axil_rvalid,
  input  logic             s_axil_rready,
  output logic [31:0]      s_axil_rdata,
  output logic [1:0]       s_axil_rresp,
  // interrupt: |(INTR_STATE & INTR_ENABLE)
  output logic             irq_o,
  // entropy for blinding (modelled on OpenTitan's EDN: edn_req_o held until edn_ack_i, which brings
  // one 32-bit word in edn_data_i)
  output logic             edn_req_o,
  input  logic             edn_ack_i,
  input  logic [31:0]      edn_data_i
);
  // words per slot: MaxLen bits; with hscm a MONTMUL result of MaxLen + 2 HscmW + 1 bits (else
  // pka_hscm_core stops: "MemAw too small"); at least 2^MinSlotAw (rns's constant table)
  localparam int unsigned LenAw  = $clog2(MaxLen / 32);
  localparam int unsigned HscmAw = EnHscm ? $clog2((MaxLen + 2 * HscmW + 1 + 31) / 32) : 0;
  localparam int unsigned SlotAw = (LenAw > MinSlotAw && LenAw > HscmAw) ? LenAw
                                 : (HscmAw > MinSlotAw) ? HscmAw : MinSlotAw;
  localparam int unsigned MemAw  = SlotAw + 4;           // an engine's word address: 16 slots
  localparam int unsigned PAw    = SlotAw + PhysBits;    // the RAM's: PhysSlots slots (pka_top_pkg)
  localparam logic [NumEng-1:0] EngMask = NumEng'({EnExample, 1'b0, EnHscm, EnVictor, EnRns, EnMwr4, EnCsa2, 1'b0});
  // rns's own length bound (its rowers, its constant table): MaxLen unless the build limits it
  localparam int unsigned RnsLen = !EnRns ? 0 : (RnsMaxLen == 0) ? MaxLen : RnsMaxLen;

  // the watchdog's scale per engine id (pka_top_seq: bound = ((elen + 8)(W + 4)^2 << shift) + 2^16,
  // W = words of the modulus): 5 fits every engine but a slow mwr4 (few stages, narrow words, radix 2)
  localparam int unsigned Mwr4Bits = (Mwr4Radix == 8) ? 3 : (Mwr4Radix == 4) ? 2 : 1;
  localparam int unsigned Mwr4Wd   = 5 + $clog2((256 + Mwr4Bits * Mwr4W * Mwr4Ns - 1) / (Mwr4Bits * Mwr4W * Mwr4Ns));
  localparam int unsigned WdShift [NumEng] = '{5, 5, Mwr4Wd, 5, 5, 5, 5, 5};

  initial begin
    if (MaxLen < 32 || MaxLen > 4096 || MaxLen % 32 != 0) $fatal(1, "MaxLen must be 32..4096, a multiple of 32");
    if (BusAw != 17) $fatal(1, "BusAw must be 17 (the map generated from data/pka.rdl)");
    if (SlotAw > 10) $fatal(1, "at most 1024 words per slot (the slot windows of data/pka.rdl)");
    if (EngMask == '0) $fatal(1, "a build needs at least one engine");
    if (EnRns && (RnsLen < 32 || RnsLen > MaxLen || RnsLen % 32 != 0))
      $fatal(1, "RnsMaxLen must be 0 or 32..MaxLen, a multiple of 32");
  end

  // Opcodes this build executes: the sequencer's own, every engine's, and MODINV when an engine
  // serves both MODEXP and MODMUL.
  function automatic opmask_t build_ops();
    opmask_t m;
    m = OpsNative;
    for (int e = 1; e < int'(NumEng); e++) begin
      if (EngMask[e]) begin
        m |= engine_ops(e);
        if (engine_binary(e) && engine_ops(e)[4'(OP_MODEXP)] && engine_ops(e)[4'(OP_MODMUL)]) m[4'(OP_MODINV)] = 1'b1;
        if (engine_binary(e) && engine_ops(e)[4'(OP_MODMUL)]) m[4'(OP_ECC_CHECK)] = 1'b1;
      end
    end
    // ECDSA_SIGN: k G on rns, the arithmetic mod n on hscm (the sequencer knows hscm's r)
    if (EngMask[EngRns] && EngMask[EngHscm]) m[4'(OP_ECDSA_SIGN)] = 1'b1;
    return m;
  endfunction

  // ---- register block ---------------------------------------------------------------------------
  pka_regs_pkg::pka_regs__in_t  hwif_in;
  pka_regs_pkg::pka_regs__out_t hwif_out;

  pka_regs u_regs (
    .clk            (clk_i),
    .arst_n         (rst_ni),
    .s_axil_awready (s_axil_awready),
    .s_axil_awvalid (s_axil_awvalid),
    .s_axil_awaddr  (s_axil_awaddr),
    .s_axil_awprot  (s_axil_awprot),
    .s_axil_wready  (s_axil_wready),
    .s_axil_wvalid  (s_axil_wvalid),
    .s_axil_wdata   (s_axil_wdata),
    .s_axil_wstrb   (s_axil_wstrb),
    .s_axil_bready  (s_axil_bready),
    .s_axil_bvalid  (s_axil_bvalid),
    .s_axil_bresp   (s_axil_bresp),
    .s_axil_arready (s_axil_arready),
    .s_axil_arvalid (s_axil_arvalid),
    .s_axil_araddr  (s_axil_araddr),
    .s_axil_arprot  (s_axil_arprot),
    .s_axil_rready  (s_axil_rready),
    .s_axil_rvalid  (s_axil_rvalid),
    .s_axil_rdata   (s_axil_rdata),
    .s_axil_rresp   (s_axil_rresp),
    .hwif_in        (hwif_in),
    .hwif_out       (hwif_out)
  );

  // ---- sequencer --------------------------------------------------------------------------------
  // swmod pulses in the cycle of the CMD write, when the field still holds its old value: the
  // sequencer starts one cycle later, from the stored CMD (LEN and ARG are stable by then too).
  logic cmd_written_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cmd_written_q <= 1'b0;
    else         cmd_written_q <= hwif_out.CMD.OP.swmod;
  end

  logic                      busy, done, reject, finished, bound;
  logic [7:0]                code, last_op;
  logic [31:0]               cycles, compute, io;
  logic [63:0]               mu;
  logic [NumSlots-1:0]       taint;
  logic [NumEng-1:0]         ecmd_valid, ecmd_ready;
  eng_cmd_t                  ecmd;
  eng_res_t [NumEng-1:0]     eres;
  logic                      eng_own, eng_rst;
  logic [2:0]                eng_sel;
  pslot_t [15:0]             emap;
  logic                      seq_req, seq_we;
  logic [PAw-1:0]            seq_addr;
  logic [31:0]               seq_wdata, ram_rdata;
  logic                      bw_valid, keyclr;
  pslot_t                    bw_slot;
  logic                      ram_req, ram_we;
  logic [PAw-1:0]            ram_addr;
  logic [31:0]               ram_wdata;

  pka_top_seq #(
    .MaxLen  (MaxLen),
    .SlotAw  (SlotAw),
    .EngMask (EngMask),
    .MontK   (EnHscm ? HscmW : 0),
    .RnsW    (EnRns ? RnsW : 0),
    .RnsLen  (RnsLen),
    .InvWindow (EnHscm ? ((HscmMaxWindow < 4) ? HscmMaxWindow : 4) : 0),
    .Mwr4K   (EnMwr4 ? Mwr4Bits : 0),
    .Mwr4Ns  (Mwr4Ns),
    .HasCsa2 (EnCsa2),
    .CrtBlind(EnHscm),                    // hscm's RSA_CRT takes blinded exponents (ARG[31:24])
    .EccBlind(EnRns),                     // rns's ECC_MUL takes a blinded scalar and a random Z (ARG[1])
    .WdShift (WdShift),
    .EnResultCheck (EnResultCheck),
    .TestExposeInternals (TestExposeInternals)
  ) u_seq (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .start_i      (cmd_written_q),
    .op_i         (hwif_out.CMD.OP.value),
    .eng_i        (hwif_out.CMD.ENGINE.value),
    .len_i        (hwif_out.LEN.LEN.value),
    .elen_i       (hwif_out.LEN.ELEN.value),
    .arg_i        (hwif_out.ARG.ARG.value),
    .abort_i      (hwif_out.CTRL.ABORT.value),
    .blind_off_i  (hwif_out.CFG.BLIND_OFF.value),
    .edn_req_o    (edn_req_o),
    .edn_ack_i    (edn_ack_i),
    .edn_data_i   (edn_data_i),
    .bw_valid_i   (bw_valid),
    .bw_slot_i    (bw_slot),
    .keyclr_i     (keyclr),
    .busy_o       (busy),
    .done_o       (done),
    .reject_o     (reject),
    .finished_o   (finished),
    .code_o       (code),
    .last_op_o    (last_op),
    .cycles_o     (cycles),
    .compute_o    (compute),
    .io_o         (io),
    .mu_o         (mu),
    .bound_o      (bound),
    .taint_o      (taint),
    .ecmd_valid_o (ecmd_valid),
    .ecmd_ready_i (ecmd_ready),
    .ecmd_o       (ecmd),
    .eres_i       (eres),
    .eng_own_o    (eng_own),
    .eng_sel_o    (eng_sel),
    .map_o        (emap),
    .eng_rst_o    (eng_rst),
    .acc_req_i    (ram_req && busy),
    .acc_we_i     (ram_we),
    .acc_slot_i   (pslot_t'(ram_addr[PAw-1:SlotAw])),
    .mem_req_o    (seq_req),
    .mem_we_o     (seq_we),
    .mem_addr_o   (seq_addr),
    .mem_wdata_o  (seq_wdata),
    .mem_rdata_i  (ram_rdata)
  );

  // ---- bus side of the operand RAM --------------------------------------------------------------
  // The slot windows of the register block as arrays indexed by slot. A read of a secret slot (write-
  // only in the RDL) or of a tainted slot returns 0; the latter sets INTR_STATE.TAINT.
  logic [NumSlots-1:0]       win_req, win_is_wr;
  logic [NumSlots-1:0][11:0] win_addr;
  logic [NumSlots-1:0][31:0] win_wdata;
  logic [NumSlots-1:0][31:0] win_biten;

  `define PKA_WIN(S, NAME) \
    assign win_req[S]   = hwif_out.NAME.req; \
    assign win_is_wr[S] = hwif_out.NAME.req_is_wr; \
    assign win_addr[S]  = hwif_out.NAME.addr; \
    assign win_wdata[S] = hwif_out.NAME.wr_data; \
    assign win_biten[S] = hwif_out.NAME.wr_biten; \
    assign hwif_in.NAME.rd_ack  = bus_rd_ack_q; \
    assign hwif_in.NAME.rd_data = SecretSlotMask[S] ? 32'd0 : bus_rd_data; \
    assign hwif_in.NAME.wr_ack  = bus_wr_ack;

  logic        bus_req, bus_we, bus_backed, bus_wr_ack, bus_rd_ack_q, bus_rd_ack_d;
  logic        bus_ram_q, bus_ram_d;      // the pending read went to the RAM
  logic        bus_tread;                 // a read of a tainted slot
  pslot_t      bus_slot;
  logic [11:0] bus_addr;
  logic [31:0] bus_wdata, bus_biten, bus_rd_data;
  // a modulus write while secrets are bound waits (unacknowledged) for the key clear
  logic        pend_q, pend_d, bus_modw, bus_apply;
  pslot_t      pslot_q;
  logic [11:0] paddr_q;
  logic [31:0] pwdata_q, pbiten_q;

  `PKA_WIN(SLOT_N, SLOT_N)
  `PKA_WIN(SLOT_A, SLOT_A)
  `PKA_WIN(SLOT_A_HI, SLOT_A_HI)
  `PKA_WIN(SLOT_B, SLOT_B)
  `PKA_WIN(SLOT_E, SLOT_E)
  `PKA_WIN(SLOT_R, SLOT_R)
  `PKA_WIN(SLOT_R_HI, SLOT_R_HI)
  `PKA_WIN(SLOT_W, SLOT_W)
  `PKA_WIN(SLOT_P, SLOT_P)
  `PKA_WIN(SLOT_Q, SLOT_Q)
  `PKA_WIN(SLOT_DP, SLOT_DP)
  `PKA_WIN(SLOT_DQ, SLOT_DQ)
  `PKA_WIN(SLOT_QINV, SLOT_QINV)
  `PKA_WIN(SLOT_X0, SLOT_X0)
  `PKA_WIN(SLOT_X1, SLOT_X1)
  `PKA_WIN(SLOT_X2, SLOT_X2)
  `PKA_WIN(SLOT_EPUB, SLOT_EPUB)
  `undef PKA_WIN

  always_comb begin
    bus_slot = '0; bus_addr = '0; bus_wdata = '0; bus_biten = '0; bus_we = 1'b0;
    for (int s = 0; s < int'(NumSlots); s++) begin
      if (win_req[s]) begin
        bus_slot = pslot_t'(s); bus_addr = win_addr[s]; bus_wdata = win_wdata[s];
        bus_biten = win_biten[s]; bus_we = win_is_wr[s];
      end
    end
    bus_req = |win_req;
    // word bus_addr[11:2] of the slot is backed by RAM when below 2^SlotAw
    bus_backed = (32'(bus_addr[11:2]) < (1 << SlotAw));
    // key binding: a write to N, P or Q while secret exponents are bound first clears the secrets
    bus_modw = EnKeyBinding && bus_req && bus_we && !busy && bound
               && (bus_slot == pslot_t'(SLOT_N) || bus_slot == pslot_t'(SLOT_P) || bus_slot == pslot_t'(SLOT_Q));
    keyclr = bus_modw;
    pend_d = pend_q;
    if (bus_modw) pend_d = 1'b1;
    bus_apply = pend_q && !busy;          // the key clear is over: the waiting write goes in now
    if (bus_apply) pend_d = 1'b0;
    bus_wr_ack = (bus_req && bus_we && !bus_modw) || bus_apply;
    bus_rd_ack_d = bus_req && !bus_we;
    bus_tread = bus_req && !bus_we && !busy && taint[bus_slot[SlotBits-1:0]];
    bus_ram_d = bus_req && !bus_we && !busy && bus_backed && !bus_tread;
    // what the sequencer hears of the bus: a write applied to a slot (binding, untaint, constants)
    bw_valid = (bus_req && bus_we && !busy && !bus_modw) || bus_apply;
    bw_slot  = bus_apply ? pslot_q : bus_slot;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bus_rd_ack_q <= 1'b0;
      bus_ram_q    <= 1'b0;
      pend_q       <= 1'b0;
    end else begin
      bus_rd_ack_q <= bus_rd_ack_d;
      bus_ram_q    <= bus_ram_d;
      pend_q       <= pend_d;
    end
  end
  always_ff @(posedge clk_i) begin
    if (bus_modw) begin
      pslot_q <= bus_slot; paddr_q <= bus_addr; pwdata_q <= bus_wdata; pbiten_q <= bus_biten;
    end
  end
  assign bus_rd_data = bus_ram_q ? ram_rdata : 32'd0;

  // ---- RAM port: bus when idle, else the sequencer or the engine it runs ----------------------
  // An engine addresses 16 slots; the sequencer's map sends each to a physical slot of the RAM.
  eng_h2d_t [NumEng-1:0]         eng_h2d;   // the common boundary of every engine id (pka_pkg)
  eng_d2h_t [NumEng-1:0]         eng_d2h;
  eng_mem_req_t                  emem;      // the request of the engine that owns the port
  logic [NumEng-1:0]             emem_gnt;
  logic                          eng_rvalid_q, eng_rvalid_d;
  logic [2:0]                    rvalid_eng_q;
  logic                          erst_n;

  assign emem = eng_d2h[eng_sel].mem;

  always_comb begin
    ram_req = 1'b0; ram_we = 1'b0; ram_addr = '0; ram_wdata = '0;
    emem_gnt = '0;
    if (bus_apply) begin
      // the modulus write that waited for the key clear (whole words only, as any bus write)
      ram_req   = (32'(paddr_q[11:2]) < (1 << SlotAw)) && (pbiten_q == '1);
      ram_we    = 1'b1;
      ram_addr  = {pslot_q, paddr_q[SlotAw+1:2]};
      ram_wdata = pwdata_q;
    end else if (!busy) begin
      // bus access: a write needs all byte lanes (the slots hold whole words)
      ram_req  = bus_req && bus_backed && (!bus_we || bus_biten == '1) && !bus_modw && !bus_tread;
      ram_we   = bus_we;
      ram_addr = {bus_slot, bus_addr[SlotAw+1:2]};
      ram_wdata = bus_wdata;
    end else if (eng_own) begin
      // the engine owns the port: its requests are granted at once (the grant does not depend on
      // the request, so there is no combinational path from an engine's request to its grant)
      emem_gnt[eng_sel] = 1'b1;
      ram_req   = emem.req;
      ram_we    = emem.we;
      ram_addr  = {emap[emem.addr[MemAw-1:SlotAw]], emem.addr[SlotAw-1:0]};
      ram_wdata = emem.wdata;
    end else begin
      ram_req = seq_req; ram_we = seq_we; ram_addr = seq_addr; ram_wdata = seq_wdata;
    end
    eng_rvalid_d = busy && eng_own && ram_req && !ram_we;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      eng_rvalid_q <= 1'b0;
      rvalid_eng_q <= '0;
    end else begin
      eng_rvalid_q <= eng_rvalid_d;
      rvalid_eng_q <= eng_sel;
    end
  end

  // the engines' reset: the top's, and the sequencer's hold on abort and timeout (from a flip-flop)
  assign erst_n = rst_ni && !eng_rst;

  pka_top_ram #(.Aw(PAw)) u_ram (
    .clk_i   (clk_i),
    .req_i   (ram_req),
    .we_i    (ram_we),
    .addr_i  (ram_addr),
    .wdata_i (ram_wdata),
    .rdata_o (ram_rdata)
  );

  // ---- engines ----------------------------------------------------------------------------------
  // Each engine present gets the shared command, its own valid, and the RAM port while the
  // sequencer runs it. Absent engine ids are tied off.
  for (genvar e = 0; e < int'(NumEng); e++) begin : gen_eng
    assign eng_h2d[e] = '{cmd_valid: ecmd_valid[e], cmd: ecmd,
                          mem: '{gnt: emem_gnt[e], rvalid: eng_rvalid_q && (rvalid_eng_q == 3'(e)),
                                 rdata: ram_rdata}};
    assign ecmd_ready[e] = eng_d2h[e].cmd_ready;
    assign eres[e]       = eng_d2h[e].res;
    if (e == int'(EngExample) && EnExample) begin : gen_example
      pka_example_engine #(.MaxLen(MaxLen), .MemAw(MemAw)) u_core (
        .clk_i(clk_i), .rst_ni(erst_n), .eng_i(eng_h2d[e]), .eng_o(eng_d2h[e]));
    end else if (e == int'(EngCsa2) && EnCsa2) begin : gen_csa2
      pka_csa2_core #(.MaxLen(MaxLen), .MemAw(MemAw), .ChunkW(Csa2ChunkW)) u_core (
        .clk_i(clk_i), .rst_ni(erst_n), .eng_i(eng_h2d[e]), .eng_o(eng_d2h[e]));
    end else if (e == int'(EngMwr4) && EnMwr4) begin : gen_mwr4
      pka_mwr4_core #(.MaxLen(MaxLen), .MemAw(MemAw), .Radix(Mwr4Radix), .NS(Mwr4Ns), .W(Mwr4W)) u_core (
        .clk_i(clk_i), .rst_ni(erst_n), .eng_i(eng_h2d[e]), .eng_o(eng_d2h[e]));
    end else if (e == int'(EngVictor) && EnVictor) begin : gen_victor
      pka_victor_core #(.MaxLen(MaxLen), .MemAw(MemAw), .K(VictorK), .Delta(VictorDelta), .Eps(VictorEps)) u_core (
        .clk_i(clk_i), .rst_ni(erst_n), .eng_i(eng_h2d[e]), .eng_o(eng_d2h[e]));
    end else if (e == int'(EngRns) && EnRns) begin : gen_rns
      pka_rns_core #(.MaxLen(RnsLen), .MemAw(MemAw), .W(RnsW), .FaultCheck(int'(EnResultCheck))) u_core (
        .clk_i(clk_i), .rst_ni(erst_n), .eng_i(eng_h2d[e]), .eng_o(eng_d2h[e]));
    end else if (e == int'(EngHscm) && EnHscm) begin : gen_hscm
      pka_hscm_core #(.MaxLen(MaxLen), .MemAw(MemAw), .W(HscmW), .Pes(HscmPes), .MaxWindow(HscmMaxWindow),
                      .FaultCheck(EnResultCheck)) u_core (
        .clk_i(clk_i), .rst_ni(erst_n), .eng_i(eng_h2d[e]), .eng_o(eng_d2h[e]));
    end else begin : gen_absent
      assign eng_d2h[e] = EngD2hIdle;
      logic unused_absent;
      assign unused_absent = ^eng_h2d[e];
    end
  end

  // ---- status, configuration and interrupts ---------------------------------------------------
  assign hwif_in.HWCFG.MAX_LEN.next  = 16'(MaxLen);
  assign hwif_in.ENGCFG.RNS_MAX_LEN.next = 16'(RnsLen);
  assign hwif_in.ENGCFG.HSCM_W.next      = EnHscm ? 8'(HscmW) : 8'd0;
  assign hwif_in.HWCFG.ENGINES.next  = 8'(EngMask);
  assign hwif_in.HWCFG.SLOT_AW.next  = 4'(SlotAw);
  assign hwif_in.OPS.OPS.next        = 32'(build_ops());
  assign hwif_in.STATUS.BUSY.next    = busy;
  assign hwif_in.STATUS.DONE.next    = finished;
  assign hwif_in.STATUS.CODE.next    = code;
  assign hwif_in.STATUS.REJECT.next  = hwif_out.INTR_STATE.REJECT.value ? 8'(ST_ERR_BUSY) : 8'd0;
  assign hwif_in.STATUS.LAST_OP.next = last_op;
  assign hwif_in.STATUS.BOUND.next   = bound;
  assign hwif_in.STATUS.TAINT.next   = |taint;
  assign hwif_in.CYCLES.CYCLES.next  = cycles;
  assign hwif_in.COMPUTE.COMPUTE.next = compute;
  assign hwif_in.IO.IO.next          = io;
  assign hwif_in.MU_LO.MU.next       = mu[31:0];
  assign hwif_in.MU_HI.MU.next       = mu[63:32];
  assign hwif_in.INTR_STATE.DONE.hwset   = done || hwif_out.INTR_TEST.DONE.value;
  assign hwif_in.INTR_STATE.TAINT.hwset  = bus_tread || hwif_out.INTR_TEST.TAINT.value;
  assign hwif_in.INTR_STATE.REJECT.hwset = reject || (bus_req && busy)
                                         || hwif_out.INTR_TEST.REJECT.value;

  assign irq_o = (hwif_out.INTR_STATE.DONE.value && hwif_out.INTR_ENABLE.DONE.value)
              || (hwif_out.INTR_STATE.REJECT.value && hwif_out.INTR_ENABLE.REJECT.value)
              || (hwif_out.INTR_STATE.TAINT.value && hwif_out.INTR_ENABLE.TAINT.value);

  logic unused;
  assign unused = ^{s_axil_awprot, s_axil_arprot, bus_addr[1:0], paddr_q[1:0], ecmd_valid[0], emem.addr};
endmodule
