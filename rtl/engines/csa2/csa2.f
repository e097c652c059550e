// top: pka_csa2_core
// lint-params: MaxLen=32 MemAw=8 ChunkW=1
// lint-params: MaxLen=128 MemAw=8 ChunkW=32
// lint-params: MaxLen=64 MemAw=8 ChunkW=4
rtl/common/pka_pkg.sv
rtl/engines/csa2/pka_csa2_slice.sv
rtl/engines/csa2/pka_csa2_array.sv
rtl/engines/csa2/pka_csa2_core.sv
