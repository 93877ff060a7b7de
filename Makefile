# Two commands do all set-up: `make run` and `make test`. Both create .venv and install pinned requirements.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8501

.PHONY: run test lint lint-all venv test-venv bench clean

$(BIN)/python:
	@$(PY) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "Python 3.11 or newer is needed ($(PY) is $$($(PY) --version 2>&1)); use: make PY=python3.11 ..."; exit 1; }
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# Stamp files make re-runs cheap; they are rebuilt when a requirements file changes.
$(VENV)/.stamp-run: requirements.txt constraints.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements.txt
	touch $@

$(VENV)/.stamp-test: requirements.txt requirements-test.txt constraints.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements-test.txt
	touch $@

venv: $(VENV)/.stamp-run
test-venv: $(VENV)/.stamp-test

run: $(VENV)/.stamp-run
	$(BIN)/streamlit run app.py --server.port $(PORT) --server.address localhost --browser.gatherUsageStats false

# `make test` lints the files that are already clean (ruff, rules in pyproject.toml), then runs the suite.
# `make lint-all` lints the whole tree; LINT_PATHS becomes "." once the tree is clean.
LINT_PATHS ?= explainer/cli scripts bench/bench_cli.py bench/run_all.py tests/conftest.py tests/chapter.py \
	tests/bleu_cases.py tests/test_cli_io.py tests/test_cli_bleu.py tests/test_cli_rouge.py tests/test_packaging.py \
	tests/test_examples.py tests/test_bleu_edge.py tests/test_bleu_seeds.py tests/test_bleu_parity.py \
	tests/test_bleu_nltk_params.py tests/browser/conftest.py

lint: $(VENV)/.stamp-test
	$(BIN)/ruff check $(LINT_PATHS)

lint-all: $(VENV)/.stamp-test
	$(BIN)/ruff check .

test: lint
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

bench: $(VENV)/.stamp-test
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache
