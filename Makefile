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
	$(BIN)/python tools/oldest_mypy.py
	@# make test runs jax_dataclasses' own tests on jaxdc (a slice of make test-downstream).
	$(BIN)/python downstream/run.py fetch jax_dataclasses
	@touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python examples/demo.py

# --durations=10: the ten slowest tests, printed after every run (where suite time goes).
test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 --durations=10

# The quality gate CI runs before the tests (settings in pyproject.toml; the same hooks
# in .pre-commit-config.yaml): lint, formatting, and mypy --strict on the project's code.
check: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The generated tests in full (make test runs a bounded slice of each): the plugin fuzz
# (400 modules), every static-field spelling with every inner type, every bad input, and
# the rules' differential test over every generated type.
test-full: $(STAMP)
	JAXDC_TEST_FULL=1 $(BIN)/python -m pytest -q -n 2 tests/test_plugin_fuzz.py \
	  tests/test_static_spellings.py tests/test_bad_input.py tests/test_rules_differential.py

# Slow (about an hour), so not part of `make test`: the whole suite on Python 3.10-3.13
# with the newest jax and mypy each takes, then on Python 3.10 with the oldest supported
# jax (tools/constraints-oldest.txt; the oldest mypy runs the plugin's cases in every leg),
# each leg in its own venv under .venv-matrix/
# (reused while pyproject.toml and the constraints are unchanged). It prints and writes
# a summary table beside the legs: each leg's versions, counts and times.
# Choose legs with `make test-matrix LEGS="py3.13 oldest"`.
LEGS ?=
test-matrix:
	$(PYTHON) tools/test_matrix.py $(LEGS)

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

# Every benchmark side by side; rewrites docs/benchmarks.md and its plots. 11 to 26 minutes
# on the shared 2-core VM, as other work loaded it (most of it the plugin part, which runs
# a reduced list of project sizes: see the page).
bench: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[dev,bench]'
	$(BIN)/python benchmarks/run.py --page docs/benchmarks.md --only micro,nested,floor,shapes,imports,plugin

clean:
	rm -rf $(VENV) .venv-matrix $(DS_VENV) downstream/.sdists downstream/.work build dist .mypy_cache .pytest_cache
