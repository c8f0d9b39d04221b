"""Assignments mypy calls read-only outside the runtime's windows keep that error and gain
a note naming the fix (notes are not errors, so the cases' markers do not hold them)."""

from __future__ import annotations

from checkers import Diagnostic, Project


def test_read_only_note_names_replace_and_copy_and_mutate(project: Project) -> None:
    project.copy_cases("copy_and_mutate_checked.py")
    run = project.mypy()
    assert not project.problems(run), "\n".join(project.problems(run))
    note = (
        "'Outer' is a frozen jaxdc class: its fields can be set only on `self` in "
        "__init__/__post_init__, or on the copy inside `with jaxdc.copy_and_mutate(...)`. "
        "Fix: jaxdc.replace(obj, name=...), or `with jaxdc.copy_and_mutate(obj) as new: "
        "new.name = ...`."
    )
    # The original inside the block, and the copy after it; nothing inside the windows.
    assert run.notes == [
        Diagnostic("copy_and_mutate_checked.py", 28, "misc", note),
        Diagnostic("copy_and_mutate_checked.py", 29, "misc", note),
    ]
