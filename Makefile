# Two entry points for a fresh machine: `make run` and `make test`.
# Both create a local virtual environment in .venv and install into it.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint demo bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

run: $(VENV)/.installed
	$(BIN)/python bot.py

test: $(VENV)/.installed
	$(BIN)/python -m pytest -q

lint: $(VENV)/.installed
	$(BIN)/python -m ruff check . && $(BIN)/python -m ruff format --check .

demo: $(VENV)/.installed
	$(BIN)/python bot.py demo

bench: $(VENV)/.installed
	for script in bench/bench_*.py; do $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) demo-output .pytest_cache .hypothesis
