// top: pka_hscm_core
// lint-params: MaxLen=512 MemAw=9 W=16 Pes=4 MaxWindow=6
// lint-params: MaxLen=256 MemAw=9 W=32 Pes=3 MaxWindow=4
// lint-params: MaxLen=512 MemAw=10 W=64 Pes=2 MaxWindow=8
// lint-params: MaxLen=64 MemAw=8 W=16 Pes=1 MaxWindow=1
// lint-params: MaxLen=512 MemAw=9 W=16 Pes=8 MaxWindow=6
// lint-params: MaxLen=1024 MemAw=10 W=16 Pes=16 MaxWindow=6
// lint-params: MaxLen=2048 MemAw=11 W=16 Pes=32 MaxWindow=6
// lint-params: MaxLen=512 MemAw=9 W=16 K=32 Pes=2 MaxWindow=6
// lint-params: MaxLen=512 MemAw=9 W=16 K=32 Pes=4 MaxWindow=6
// lint-params: MaxLen=1024 MemAw=10 W=16 K=32 Pes=16 MaxWindow=6
// lint-params: MaxLen=512 MemAw=9 W=32 K=64 Pes=4 MaxWindow=6
// lint-params: MaxLen=512 MemAw=9 W=16 K=32 Pes=16 MaxWindow=6
// lint-params: MaxLen=512 MemAw=9 W=16 K=32 Pes=3 MaxWindow=6
// lint-params: MaxLen=256 MemAw=8 W=16 K=32 Pes=2 MaxWindow=3
rtl/common/pka_pkg.sv
rtl/engines/hscm/pka_hscm_pkg.sv
rtl/engines/hscm/pka_hscm_pe.sv
rtl/engines/hscm/pka_hscm_fifo.sv
rtl/engines/hscm/pka_hscm_array.sv
rtl/engines/hscm/pka_hscm_ram.sv
rtl/engines/hscm/pka_hscm_seq.sv
rtl/engines/hscm/pka_hscm_prog.sv
rtl/engines/hscm/pka_hscm_redc.sv
rtl/engines/hscm/pka_hscm_io.sv
rtl/engines/hscm/pka_hscm_alu.sv
rtl/engines/hscm/pka_hscm_core.sv
