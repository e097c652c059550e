// top: pka_top
// the accelerator: register block (generated from data/pka.rdl), operand RAM, sequencer, engines
// lint-params: MaxLen=256 EnExample=1
// lint-params: MaxLen=4096 EnExample=1
// lint-params: MaxLen=256 EnExample=0 EnCsa2=1 Csa2ChunkW=32
// lint-params: MaxLen=512 EnExample=1 EnCsa2=1 Csa2ChunkW=1
rtl/common/pka_pkg.sv
rtl/top/pka_top_pkg.sv
rtl/top/gen/pka_regs_pkg.sv
rtl/top/gen/pka_regs.sv
rtl/top/pka_top_ram.sv
rtl/top/pka_top_seq.sv
tb/common/pka_example_engine.sv
rtl/engines/csa2/pka_csa2_slice.sv
rtl/engines/csa2/pka_csa2_array.sv
rtl/engines/csa2/pka_csa2_core.sv
rtl/top/pka_top.sv
