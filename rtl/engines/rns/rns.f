// top: pka_rns_core
// lint-params: MaxLen=256 W=32 MemAw=14 Sbmm=0
// lint-params: MaxLen=192 W=16 MemAw=14 Sbmm=0
// lint-params: MaxLen=64 W=16 MemAw=14 Sbmm=1
// lint-params: MaxLen=512 W=32 MemAw=14 Sbmm=1
rtl/common/pka_pkg.sv
rtl/engines/rns/pka_rns_ucode.sv
rtl/engines/rns/pka_rns_cox.sv
rtl/engines/rns/pka_rns_rower.sv
rtl/engines/rns/pka_rns_gamma.sv
rtl/engines/rns/pka_rns_sb_rower.sv
rtl/engines/rns/pka_rns_sb.sv
rtl/engines/rns/pka_rns_core.sv
