// top: pka_victor_core
// lint-params: MaxLen=128 MemAw=8 K=5 Delta=10 Eps=11
// lint-params: MaxLen=64 MemAw=6 K=4 Delta=9 Eps=9
// lint-params: MaxLen=256 MemAw=8 K=3 Delta=10 Eps=11
// lint-params: MaxLen=512 MemAw=8 K=5 Delta=10 Eps=11
// VICTOR engine (paper 003): radix-2^K multiplication with quotient estimation, two products in
// one pipeline, right-to-left exponentiation. See doc/victor.md.
rtl/common/pka_pkg.sv
rtl/engines/victor/pka_victor_fa_row.sv
rtl/engines/victor/pka_victor_sdgen.sv
rtl/engines/victor/pka_victor_qest.sv
rtl/engines/victor/pka_victor_cadd.sv
rtl/engines/victor/pka_victor_acc.sv
rtl/engines/victor/pka_victor_core.sv
