// SPDX-License-Identifier: Apache-2.0
// pka_soc on the ULX3S: the board's own files, after picorv32.v (the pythondata-cpu-picorv32 wheel)
// and pka_top's fileset for the build's configuration (pka.rtl.top.TopConfig.sources()), which the
// flow (src/pka/soc_board.py) and the lint (tests/test_soc_board.py) put first.
// top: pka_soc_ulx3s
soc/rtl/pka_soc_axil_demux.sv
soc/rtl/pka_soc_ram.sv
soc/rtl/pka_soc_sysctl.sv
soc/rtl/pka_soc_entropy.sv
soc/rtl/pka_soc.sv
soc/rtl/pka_soc_uart_tx.sv
soc/board/ecp5/EHXPLLL.sv
soc/board/ulx3s/pka_soc_ulx3s.sv
