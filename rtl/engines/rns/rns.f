// top: pka_rns_core
// lint-params: MaxLen=256 W=32 MemAw=14
// lint-params: MaxLen=192 W=16 MemAw=14
rtl/common/pka_pkg.sv
rtl/engines/rns/pka_rns_ucode.sv
rtl/engines/rns/pka_rns_cox.sv
rtl/engines/rns/pka_rns_rower.sv
rtl/engines/rns/pka_rns_core.sv
