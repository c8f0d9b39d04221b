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

test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2

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

# Slow, so not part of `make test`: the whole suite on every supported Python with the
# newest jax and mypy, then on the oldest Python with the oldest supported jax and mypy
# (pyproject's lower bounds), each in its own venv under .venv-matrix/. An interpreter is
# taken from PATH, else from pyenv; e.g. `make test-matrix PYTHONS="python3.10 python3.13"`.
PYTHONS ?= python3.10 python3.11 python3.12 python3.13
OLDEST  ?= jax==0.4.36 jaxlib==0.4.36 mypy==1.11.0
test-matrix:
	@set -e; for p in $(PYTHONS) oldest; do \
	  if [ $$p = oldest ]; then p=$(firstword $(PYTHONS)); v=.venv-matrix/oldest; pins="$(OLDEST)"; \
	  else v=.venv-matrix/$$p; pins=; fi; \
	  py=$$($$p -c 'import sys; print(sys.executable)' 2>/dev/null || ls -d $(HOME)/.pyenv/versions/$${p#python}.*/bin/$$p | tail -1); \
	  test -x $$v/bin/python || { $$py -m venv $$v && $$v/bin/python -m pip install -q -e '.[dev]' $$pins; }; \
	  echo "== $$v: $$($$v/bin/python -c 'import sys, jax, mypy.version; print(sys.version.split()[0], "jax", jax.__version__, "mypy", mypy.version.__version__)')"; \
	  $$v/bin/python -m pytest -q -n 2 -p no:cacheprovider; \
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
