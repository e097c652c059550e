// top: pka_example_engine
// the example engine used to test the harness and the RTL flow
rtl/common/pka_pkg.sv
tb/common/pka_example_engine.sv
