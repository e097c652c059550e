// top: pka_top
// the accelerator: register block (generated from data/pka.rdl), operand RAM, sequencer, engines
// lint-params: MaxLen=256 EnExample=1
// lint-params: MaxLen=4096 EnExample=1
rtl/common/pka_pkg.sv
rtl/top/pka_top_pkg.sv
rtl/top/gen/pka_regs_pkg.sv
rtl/top/gen/pka_regs.sv
rtl/top/pka_top_ram.sv
rtl/top/pka_top_seq.sv
tb/common/pka_example_engine.sv
rtl/top/pka_top.sv
