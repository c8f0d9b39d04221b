# Two commands a newcomer runs: `make demo` and `make test`. Each bootstraps .venv on
# first run (needs only Python 3.10+ and network for that first run); afterwards offline.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.jaxdc-installed

.PHONY: demo test test-full check test-matrix test-downstream bench venv clean

venv: $(STAMP)

# The installed metadata carries the version, which is written in the rules package.
$(STAMP): pyproject.toml rules/_jaxdc_rules/__init__.py
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	@# pyright fetches its node package on first use: do it now, so later runs are offline.
	$(BIN)/pyright --version
	@# The plugin is also tested against the oldest supported mypy, in its own venv.
	PYTHONPATH=tests $(BIN)/python -c "from test_plugin_oldest_mypy import _ensure_venv; _ensure_venv()"
	@# make test runs jax_dataclasses' own tests on jaxdc (a slice of make test-downstream).
	$(BIN)/python downstream/run.py fetch jax_dataclasses
	@touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python examples/demo.py

test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2

# Generated suites in full (`make test` runs a bounded slice of each).
test-full: $(STAMP)
	JAXDC_FULL=1 $(BIN)/python -m pytest -q -n 2 tests/test_rules_differential.py

# The quality gate CI runs before the tests (settings in pyproject.toml; the same hooks
# in .pre-commit-config.yaml): lint, formatting, and mypy --strict on the project's code.
check: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# Slow, so not part of `make test`: the whole suite on other interpreters, each in its
# own venv (.venv-matrix/<python>), e.g. `make test-matrix PYTHONS="python3.10 python3.13"`.
PYTHONS ?= python3.10 python3.12 python3.13
test-matrix:
	@set -e; for py in $(PYTHONS); do \
	  v=.venv-matrix/$$py; \
	  test -x $$v/bin/python || { $$py -m venv $$v && $$v/bin/python -m pip install -q -e '.[dev]'; }; \
	  echo "== $$py"; $$v/bin/python -m pytest -q -n 2 -p no:cacheprovider; \
	done

# Real projects' own tests and type checks, as published and migrated to jaxdc; writes
# docs/downstream.md (downstream/README.md). Its own venv; the first run downloads the pinned
# packages (network), later runs are offline. Takes ~15 minutes on 2 cores.
DS_VENV  := .venv-downstream
DS_STAMP := $(DS_VENV)/.jaxdc-downstream-installed

$(DS_STAMP): downstream/requirements.txt downstream/packages.py pyproject.toml
	@test -x $(DS_VENV)/bin/python || $(PYTHON) -m venv $(DS_VENV)
	$(DS_VENV)/bin/python -m pip install -q --upgrade pip
	$(DS_VENV)/bin/python -m pip install -q -r downstream/requirements.txt -e .
	$(DS_VENV)/bin/pyright --version
	$(DS_VENV)/bin/python downstream/run.py fetch
	@touch $(DS_STAMP)

test-downstream: $(DS_STAMP)
	$(DS_VENV)/bin/python downstream/run.py run

bench: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[dev,bench]'
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) .venv-matrix $(DS_VENV) downstream/.sdists downstream/.work build dist .mypy_cache .pytest_cache
