"""Every case in typecheck_cases/ gets exactly its expected diagnostics from every layer.

One test per layer, each running its checker once over the whole directory (so pytest-xdist
spreads the four runs over workers instead of repeating them).
"""

from __future__ import annotations

import typecheck_harness as harness

CASES = harness.load_cases()


def test_cases_exist() -> None:
    assert len(CASES) >= 20, "typecheck_cases/ went missing"


def test_pyright() -> None:
    problems = harness.compare(
        harness.PYRIGHT, harness.expected(CASES, harness.PYRIGHT), harness.run_pyright()
    )
    assert not problems, "\n".join(problems)


def test_mypy() -> None:
    problems = harness.compare(
        harness.MYPY, harness.expected(CASES, harness.MYPY), harness.run_mypy(plugin=False)
    )
    assert not problems, "\n".join(problems)


def test_mypy_with_plugin() -> None:
    # Until jaxdc_mypy defines its entry point this run is plain mypy, so it passes only
    # while no case expects a jaxdc- code: no change is needed here when the plugin lands.
    got = harness.run_mypy(plugin=harness.plugin_available())
    problems = harness.compare(harness.PLUGIN, harness.expected(CASES, harness.PLUGIN), got)
    assert not problems, "\n".join(problems)


def test_runtime() -> None:
    outcomes = harness.run_cases_in_python(CASES)
    problems = []
    for case in CASES:
        raised = outcomes[case.path.name]
        if case.raises is None and raised is not None:
            problems.append(f"{case.path.name}: raised {raised[0]} under plain Python")
        elif case.raises is not None and (raised is None or case.raises not in raised):
            problems.append(f"{case.path.name}: expected {case.raises}, got {raised}")
    assert not problems, "\n".join(problems)


def test_parity_table_is_current() -> None:
    assert harness.PARITY_DOC.read_text() == harness.render_parity(CASES), (
        "docs/checker-parity.md is stale: run `python tests/typecheck_harness.py --write-parity`"
    )
