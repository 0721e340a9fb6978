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

# The web site's browser test drives Debian's Chromium (never a downloaded browser): installed here
# when missing and this machine can (as root, with apt); otherwise say what to install.
CHROMIUM ?= /usr/bin/chromium

$(CHROMIUM):
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get install -y -q --no-install-recommends chromium >/dev/null || \
		{ apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends chromium >/dev/null; }; \
	fi; \
	[ -x "$@" ] || { echo "the browser test needs Chromium at $@: install Debian's package" \
		"(sudo apt-get install chromium), or point CHROMIUM=/path/to/chromium at one"; exit 1; }

test: $(VENV)/.installed $(CHROMIUM)
	CHROMIUM=$(CHROMIUM) $(BIN)/python -m pytest -q

lint: $(VENV)/.installed
	$(BIN)/python -m ruff check . && $(BIN)/python -m ruff format --check . && $(BIN)/python -m mypy

demo: $(VENV)/.installed
	$(BIN)/python bot.py demo

# Every bench at sizes that fit in about ten minutes together; run a script alone for its full size
# (bench_fairness and bench_ladder play 200 games per count or pair by default).
bench: $(VENV)/.installed
	$(BIN)/python bench/bench_resolve.py
	$(BIN)/python bench/bench_render.py
	$(BIN)/python bench/bench_draw_bound.py
	$(BIN)/python bench/bench_palette.py
	$(BIN)/python bench/bench_legibility.py
	$(BIN)/python bench/bench_replay.py --turns 60
	$(BIN)/python bench/bench_storage.py
	$(BIN)/python bench/bench_startup.py
	$(BIN)/python bench/bench_outbox.py
	$(BIN)/python bench/bench_stores.py
	$(BIN)/python bench/bench_reads.py
	$(BIN)/python bench/bench_web.py --games 2000 --visits 500
	$(BIN)/python bench/bench_autocomplete.py --players 30 --rounds 10
	$(BIN)/python bench/bench_map_fuzz.py --files 2000
	$(BIN)/python bench/bench_map_fairness.py --games 10
	$(BIN)/python bench/bench_verdict_load.py --rounds 2
	$(BIN)/python bench/bench_processes.py --quick
	$(BIN)/python bench/soak.py --quick
	$(BIN)/python bench/bench_discord.py
	$(BIN)/python bench/bench_ranks_ai.py
	$(BIN)/python bench/bench_fairness.py --games 40
	$(BIN)/python bench/bench_ladder.py --quick

clean:
	rm -rf $(VENV) demo-output .pytest_cache .hypothesis
