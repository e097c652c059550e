// top: pka_mwr4_core
// lint-params: MaxLen=128 MemAw=7 Radix=4 NS=2 W=8
// lint-params: MaxLen=64 MemAw=7 Radix=2 NS=3 W=4 LpCoding=0 LpFreeze=0
// lint-params: MaxLen=256 MemAw=8 Radix=8 NS=4 W=32 ToggleCnt=1
// lint-params: MaxLen=96 MemAw=7 Radix=4 NS=1 W=16 ToggleCnt=1
// lint-params: MaxLen=128 MemAw=7 Radix=4 NS=2 W=8 LpGlitch=1 LpIsolate=1
rtl/common/pka_pkg.sv
rtl/engines/mwr4/pka_mwr4_booth.sv
rtl/engines/mwr4/pka_mwr4_mrec.sv
rtl/engines/mwr4/pka_mwr4_ppgen.sv
rtl/engines/mwr4/pka_mwr4_pmgen.sv
rtl/engines/mwr4/pka_mwr4_pe.sv
rtl/engines/mwr4/pka_mwr4_kernel.sv
rtl/engines/mwr4/pka_mwr4_post.sv
rtl/engines/mwr4/pka_mwr4_core.sv
