# SPDX-License-Identifier: Apache-2.0
# Yosys script template for the FuseSoC `syn` targets (Edalize's yosys tool sources it after its
# generated procs). The pka RTL uses SystemVerilog packages and the PeakRDL register block, which
# Yosys' own read_verilog does not read: the files are collected from Edalize's read_files proc and
# read with the yosys-slang frontend instead. Needs a native Yosys with TCL and the slang plugin
# (YoWASP has no TCL: the project's own synthesis flow is `pka synth`, see doc/top.md).
source edalize_yosys_procs.tcl
set ::pka_files {}
proc read_verilog {args} { lappend ::pka_files [lindex $args end] }
read_files
rename read_verilog {}
catch { yosys plugin -i slang }
yosys read_slang -j 1 {*}$::pka_files --top $top
set_params
synth $top
yosys write_json $name.json
