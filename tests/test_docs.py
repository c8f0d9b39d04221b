"""Docs that stay true: every Python block in the project's Markdown files runs, or says why not.

A ```` ```python ```` fence must be preceded (blank lines allowed) by one of:

- `<!-- runnable -->`: run the block in a fresh module;
- `<!-- runnable: continued -->`: run it in the module of the previous runnable block of
  the same file (the text says where its names come from);
- `<!-- runnable: raises TypeError -->` or `<!-- runnable: continued, raises ... -->`: the
  block must raise that exception (a name from builtins or from the block's module);
- `<!-- not runnable: <reason> -->`: a fragment or a signature listing, left alone.

An unmarked block fails `test_every_python_block_is_marked`, so a new example is a decision,
not an accident. Inside a runnable block, `print(x)  # text` asserts that the printed text
is exactly `text`. Blocks are compiled under the Markdown file's name with their real line
numbers, so a failing example's traceback points into the document.
"""

from __future__ import annotations

import builtins
import io
import os
import re
import sys
import types
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# Folders holding no documentation of ours (virtual envs, build output, downloaded code).
SKIP_DIRS = {"node_modules", "build", "dist", "__pycache__"}

MARKER = re.compile(r"^<!--\s*(runnable|not runnable)\s*(?::\s*(?P<options>.*?))?\s*-->$")
FENCE = re.compile(r"^(?P<indent>\s*)```(?P<lang>[\w+-]*)\s*$")
FENCED = re.compile(r"^\s*```.*?^\s*```", re.MULTILINE | re.DOTALL)
CHECKED_PRINT = re.compile(r"^(?P<indent>\s*)print\((?P<args>.*)\)\s+#\s?(?P<expected>.*)$")


@dataclass(frozen=True)
class Block:
    path: Path
    name: str  # the path as shown in failures
    line: int  # 1-based line of the block's first code line
    code: str
    runnable: bool
    continued: bool
    raises: str | None
    marker_error: str | None  # why the marker is missing or malformed

    @property
    def where(self) -> str:
        return f"{self.name}:{self.line}"


def markdown_files(root: Path = REPO) -> list[Path]:
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS)
        found += [Path(folder) / f for f in sorted(files) if f.endswith(".md")]
    return found


def _parse_marker(text: str) -> tuple[bool, bool, str | None, str | None]:
    """(runnable, continued, raises, error) from the line before a fence."""
    m = MARKER.match(text.strip())
    if m is None:
        return False, False, None, "no <!-- runnable ... --> or <!-- not runnable: ... --> marker"
    options = [o.strip() for o in (m["options"] or "").split(",") if o.strip()]
    if m[1] == "not runnable":
        return False, False, None, None if options else "say why it is not runnable"
    continued, raises = False, None
    for option in options:
        if option == "continued":
            continued = True
        elif option.startswith("raises "):
            raises = option.removeprefix("raises ").strip()
        else:
            return False, False, None, f"unknown option {option!r}"
    return True, continued, raises, None


def python_blocks(path: Path, root: Path = REPO) -> list[Block]:
    name = str(path.relative_to(root))
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks = []
    previous = ""  # the last non-blank line outside a fence
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if fence is None:
            if lines[i].strip():
                previous = lines[i]
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == "```"), len(lines))
        if fence["lang"] in ("python", "py"):
            indent = len(fence["indent"])
            code = "\n".join(line[indent:] for line in lines[i + 1 : end]) + "\n"
            runnable, continued, raises, error = _parse_marker(previous)
            blocks.append(Block(path, name, i + 2, code, runnable, continued, raises, error))
        previous = ""
        i = end + 1
    return blocks


def _with_checked_prints(code: str) -> str:
    """`print(x)  # text` -> a call that asserts the printed text (same line numbers)."""
    out = []
    for line in code.splitlines():
        m = CHECKED_PRINT.match(line)
        if m and m["expected"].strip():
            line = f"{m['indent']}_jaxdc_doc_print({m['expected'].strip()!r}, {m['args']})"
        out.append(line)
    return "\n".join(out) + "\n"


def _checked_print(expected: str, *args: object, **kwargs: object) -> None:
    buffer = io.StringIO()
    print(*args, file=buffer, **kwargs)  # type: ignore[call-overload]
    printed = buffer.getvalue().rstrip("\n")
    print(printed)
    assert printed == expected, f"printed {printed!r}, the comment says {expected!r}"


def _resolve(name: str, module: types.ModuleType) -> type[BaseException]:
    found = getattr(builtins, name, None) or eval(name, vars(module))  # e.g. jdc.ShapeError
    assert isinstance(found, type) and issubclass(found, BaseException), name
    return found


def run_blocks(blocks: list[Block], module_name: str) -> None:
    """Run the runnable blocks of one file in order; a block not marked `continued` starts
    a fresh module (registered in sys.modules, so dataclasses and pickling find it)."""
    module = None
    for index, block in enumerate(b for b in blocks if b.runnable):
        if module is None or not block.continued:
            module = types.ModuleType(f"{module_name}_{index}")
            module.__dict__["_jaxdc_doc_print"] = _checked_print
        source = "\n" * (block.line - 1) + _with_checked_prints(block.code)
        code = compile(source, str(block.path), "exec")
        sys.modules[module.__name__] = module
        try:
            if block.raises is None:
                exec(code, vars(module))
            else:
                try:
                    exec(code, vars(module))
                except BaseException as error:
                    if not isinstance(error, _resolve(block.raises, module)):
                        raise
                else:
                    raise AssertionError(f"{block.where}: did not raise {block.raises}")
        finally:
            sys.modules.pop(module.__name__, None)


ALL_BLOCKS = {path: python_blocks(path) for path in markdown_files()}
RUNNABLE = [path for path, blocks in ALL_BLOCKS.items() if any(b.runnable for b in blocks)]


def test_every_python_block_is_marked() -> None:
    problems = []
    for blocks in ALL_BLOCKS.values():
        first_runnable = True
        for block in blocks:
            if block.marker_error:
                problems.append(f"{block.where}: {block.marker_error}")
            elif block.runnable:
                if block.continued and first_runnable:
                    problems.append(f"{block.where}: 'continued' but no runnable block before")
                first_runnable = False
    assert not problems, "\n".join(problems)


def test_the_user_facing_docs_have_runnable_examples() -> None:
    """The README's and the runtime toolkit's examples are run, not only listed."""
    for name in ("README.md", "docs/runtime-toolkit.md"):
        assert sum(b.runnable for b in ALL_BLOCKS[REPO / name]) >= 3, name


@pytest.mark.parametrize("path", RUNNABLE, ids=lambda p: str(p.relative_to(REPO)))
def test_runnable_blocks_run(path: Path) -> None:
    stem = re.sub(r"\W", "_", str(path.relative_to(REPO)))
    run_blocks(ALL_BLOCKS[path], f"_jaxdc_doc_{stem}")


# A file named in prose or in inline code: `docs/migrating.md`, runtime/README.md, ...
REFERENCE = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.(?:md|py|pyi|toml|ini|json|txt|yaml))\b"
)
PACKAGE_ROOTS = ("runtime", "stubs", "mypy_plugin", "rules")  # folders holding import packages
URL = re.compile(r"\w+://\S+")


def test_referenced_files_exist() -> None:
    """Docs (and the build files' comments) name files that exist: a path with a folder
    from the repository root, the document's folder or a package root (`jaxdc/_jit.py`); a
    bare `*.md` name anywhere in the repository. (Bare module names such as `fields.py` are
    relative to a package and not checked.)"""
    names = {path.name for path in markdown_files()}
    sources = [*ALL_BLOCKS, REPO / "pyproject.toml", REPO / "Makefile"]
    missing = []
    for source in sources:
        text = FENCED.sub("", URL.sub("", source.read_text(encoding="utf-8")))
        for ref in sorted(set(REFERENCE.findall(text))):
            if "/" in ref:
                bases = [REPO, source.parent, *(REPO / root for root in PACKAGE_ROOTS)]
                found = any((base / ref).exists() for base in bases)
            else:
                found = not ref.endswith(".md") or ref in names
            if not found:
                missing.append(f"{source.relative_to(REPO)}: {ref}")
    assert not missing, "\n".join(missing)


def _write(tmp_path: Path, text: str) -> list[Block]:
    doc = tmp_path / "doc.md"
    doc.write_text(text)
    return python_blocks(doc, root=tmp_path)


def test_the_runner_catches_wrong_docs(tmp_path: Path) -> None:
    """The checks above can fail: a wrong printed value, a missing exception, a name that
    only exists in an unrelated block, and an unmarked block are all caught."""
    ok = "<!-- runnable -->\n```python\nx = 1\nprint(x + 1)  # 2\n```\n"
    run_blocks(_write(tmp_path, ok), "_doc_ok")
    for text, error, message in [
        (
            "<!-- runnable -->\n```python\nprint(1)  # 2\n```\n",
            AssertionError,
            r"printed '1', the comment says '2'",
        ),
        (
            "<!-- runnable: raises TypeError -->\n```python\nx = 1\n```\n",
            AssertionError,
            r"doc\.md:3: did not raise TypeError",
        ),
        (
            "<!-- runnable: raises TypeError -->\n```python\n1 / 0\n```\n",
            ZeroDivisionError,
            r"division by zero",
        ),
        (ok + "<!-- runnable -->\n```python\nprint(x)\n```\n", NameError, r"name 'x' is not"),
    ]:
        with pytest.raises(error, match=message):
            run_blocks(_write(tmp_path, text), "_doc_bad")
    continued = ok + "\n<!-- runnable: continued -->\n\n```python\nprint(x)  # 1\n```\n"
    run_blocks(_write(tmp_path, continued), "_doc_continued")
    (unmarked,) = _write(tmp_path, "Text.\n```python\nx = 1\n```\n")
    assert unmarked.marker_error and not unmarked.runnable
    (reasonless,) = _write(tmp_path, "<!-- not runnable -->\n```python\nx\n```\n")
    assert reasonless.marker_error == "say why it is not runnable"
