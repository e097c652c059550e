// top: pka_top
// the accelerator: register block (generated from data/pka.rdl), operand RAM, sequencer, engines
// lint-params: MaxLen=256 EnExample=1
// lint-params: MaxLen=4096 EnExample=1
// lint-params: MaxLen=256 EnExample=0 EnCsa2=1 Csa2ChunkW=32
// lint-params: MaxLen=256 EnExample=1 EnCsa2=1 Csa2ChunkW=1 EnMwr4=1 EnVictor=1 EnRns=1 MinSlotAw=9
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
rtl/engines/mwr4/pka_mwr4_booth.sv
rtl/engines/mwr4/pka_mwr4_mrec.sv
rtl/engines/mwr4/pka_mwr4_ppgen.sv
rtl/engines/mwr4/pka_mwr4_pmgen.sv
rtl/engines/mwr4/pka_mwr4_pe.sv
rtl/engines/mwr4/pka_mwr4_kernel.sv
rtl/engines/mwr4/pka_mwr4_post.sv
rtl/engines/mwr4/pka_mwr4_core.sv
rtl/engines/victor/pka_victor_fa_row.sv
rtl/engines/victor/pka_victor_sdgen.sv
rtl/engines/victor/pka_victor_qest.sv
rtl/engines/victor/pka_victor_acc.sv
rtl/engines/victor/pka_victor_core.sv
rtl/engines/rns/pka_rns_ucode.sv
rtl/engines/rns/pka_rns_cox.sv
rtl/engines/rns/pka_rns_rower.sv
rtl/engines/rns/pka_rns_core.sv
rtl/top/pka_top.sv
