"""The docs audit: every console example of README.md and docs/*.md is run and its output
compared; every Python snippet is run. The convention is in docs/README.md ("Examples are
tested") and tests/docs/doc_examples.py.

Each page is one session: one bash, a fresh temporary directory with HOME (so the default
database is empty), TMPDIR and the working directory in it, ``agents`` on PATH, and nothing of
the checkout: a page runs on the samples the package ships (``agents samples --copy .``) and on
the files it writes itself, as a user who installed the wheel runs it. ``/tmp/`` is rewritten to
the session's own ``tmp/`` before running (in the page's files too) and back before comparing.
Ids, times, mktemp names and temporary-output references are replaced on both sides
(`doc_examples.normalise`); ``…`` in an expected output stands for any text.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.docs.agents_server import CLIENT, PYTHON_FILE
from tests.docs.doc_examples import Page, matches, normalise, read_page

PAGES = [
    REPO_ROOT / "README.md",
    *sorted(path for path in (REPO_ROOT / "docs").glob("*.md") if path.name != "cli.md"),
]

SKIPPED = [
    "docs/architecture.md (an excerpt of a service method)",
    "docs/token-counting.md (the port's signatures, not a program)",
]
"""Blocks marked ``<!-- docs-audit: skip REASON -->``, as ``page (REASON)``; keep it short."""

PENDING: dict[str, str] = {}
"""Pages whose examples are not yet in the audit's form, and what is missing: each is audited
once its examples run (remove it here; the test then holds it to its examples)."""

MACHINE_PATHS = ("/work/", "shared/corpus", "/tmp/demo")
"""Paths of one machine (the project's own workspace and corpus, an old demo folder), which no
page may name: a user has none of them."""

MARK = "\x1e"
STATUS = re.compile(MARK + r"(\d+)" + MARK + r"\n")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    socket_path = tmp_path_factory.mktemp("docs-audit") / "agents.sock"
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.docs.agents_server", str(socket_path)],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "ready"
    yield socket_path
    process.terminate()
    process.wait()


def _forward(text: str, session: Path) -> str:
    return text.replace("/tmp/", f"{session}/tmp/")


def _backward(text: str, session: Path) -> str:
    text = text.replace(f"{session}/tmp/", "/tmp/").replace(f"{session}/tmp", "/tmp")
    text = text.replace(f"{session}/home", "/home/me")
    return text.replace(str(session), "~")


def _script(page: Page, session: Path) -> tuple[str, list[tuple[str, int, str, str]]]:
    """The bash script of a page and, for each status mark it prints, what it checks:
    (kind, line, command, expected output)."""
    checks: list[tuple[str, int, str, str]] = []
    lines = ["exec 2>&1", f"cd {session}/work"]
    mark = f"__s=$?; printf '{MARK}%d{MARK}\\n' \"$__s\"; (exit $__s)"
    for number, step in enumerate(page.steps):
        if step.kind == "console":
            for command in step.commands:
                lines += [_forward(command.text, session), mark]
                checks.append(("console", command.line, command.text, command.expected))
        elif step.kind == "run":
            lines += [_forward(step.code, session), mark]
            checks.append(("run", step.line, step.code, ""))
        else:
            block = session / "blocks" / f"{number}.py"
            block.write_text(_forward(step.code, session), encoding="utf-8")
            lines += [f"agents {PYTHON_FILE} {block}", mark]
            checks.append(("python", step.line, step.code, ""))
    return "\n".join(lines) + "\n", checks


def _session(tmp_path: Path, server: Path) -> tuple[Path, dict[str, str]]:
    session = tmp_path
    for name in ("bin", "home", "tmp", "work", "blocks"):
        (session / name).mkdir()
    client = session / "bin" / "agents"
    client.write_text(f"#!{sys.executable} -SE\n{CLIENT}", encoding="utf-8")
    client.chmod(0o755)
    env = {
        "PATH": f"{session / 'bin'}:{Path(sys.executable).parent}:/usr/bin:/bin",
        "HOME": str(session / "home"),
        "TMPDIR": str(session / "tmp"),
        "LANG": "C.UTF-8",
        "DOCS_AUDIT_SOCKET": str(server),
    }
    return session, env


@pytest.mark.parametrize("page_path", PAGES, ids=[str(p.relative_to(REPO_ROOT)) for p in PAGES])
def test_the_examples_of_the_page_print_what_it_says(
    page_path: Path, tmp_path: Path, server: Path
) -> None:
    name = str(page_path.relative_to(REPO_ROOT))
    if name in PENDING:
        pytest.skip(f"{name} is not yet in the audit's form: {PENDING[name]}")
    page = read_page(page_path, REPO_ROOT)
    if not page.steps:
        return
    session, env = _session(tmp_path, server)
    for name, text in page.files.items():
        target = Path(_forward(name, session))
        target = target if target.is_absolute() else session / "work" / target
        target.parent.mkdir(parents=True, exist_ok=True)
        # The file's text too: a script that names /tmp/demo/x means the session's copy of it.
        target.write_text(_forward(text, session), encoding="utf-8")
    script, checks = _script(page, session)
    completed = subprocess.run(
        ["bash", "-c", script], env=env, capture_output=True, timeout=120, check=False
    )
    output = completed.stdout.decode("utf-8", errors="replace")
    pieces = STATUS.split(output)  # text, status, text, status, ..., rest
    results = list(zip(pieces[0::2], pieces[1::2], strict=False))
    assert len(results) == len(checks), f"the session stopped early:\n{output[-2000:]}"
    failures = []
    for (kind, line, command, expected), (raw, status) in zip(checks, results, strict=True):
        printed = _backward(raw, session)
        where = f"{page_path.relative_to(REPO_ROOT)}:{line}"
        if kind != "console" and status != "0":
            failures.append(f"{where}: the {kind} block failed ({status}):\n{printed}")
        elif kind == "console" and not matches(expected, printed):
            failures.append(
                f"{where}: $ {command}\n--- expected\n{normalise(expected)}\n"
                f"--- printed\n{normalise(printed)}"
            )
    assert not failures, "\n\n".join(failures)


def test_no_page_names_a_path_of_one_machine() -> None:
    pages = [*PAGES, REPO_ROOT / "docs" / "cli.md"]
    named = [
        f"{path.relative_to(REPO_ROOT)}:{number}: {line.strip()}"
        for path in pages
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if any(machine_path in line for machine_path in MACHINE_PATHS)
    ]
    assert not named, "\n".join(named)


def test_the_skipped_examples_are_the_listed_ones() -> None:
    skipped = [entry for path in PAGES for entry in read_page(path, REPO_ROOT).skipped]
    # Compared without line numbers, which move whenever a page is edited above a skip.
    assert sorted(re.sub(r":\d+ \(", " (", entry) for entry in skipped) == sorted(SKIPPED), skipped


def test_every_page_is_read_by_the_convention() -> None:
    for path in PAGES:
        read_page(path, REPO_ROOT)  # a console block with output before its first `$ ` fails
    assert set(PENDING) <= {str(path.relative_to(REPO_ROOT)) for path in PAGES}


def test_yaml_examples_parse() -> None:
    import yaml  # type: ignore[import-untyped, unused-ignore]

    from cleveragents.domain.stable_prefix.spec_parsing import parse_prefix_spec

    for path in PAGES:
        text = path.read_text(encoding="utf-8")
        for block in re.findall(r"^```yaml\n(.*?)^```", text, re.MULTILINE | re.DOTALL):
            data = yaml.safe_load(block)
            if path.name == "stable-prefix.md":
                parse_prefix_spec(data)


def test_the_comparison_rule() -> None:
    assert matches(
        "artifact 01M8P6416TTDVAYMJRCQRB4QCA stored", "artifact 01M8RRY6QHCV2Z7TFWBMBS64FM stored"
    )
    assert matches("a\n…\nz", "a\nb\nc\nz  \n\n")
    assert not matches("a\nz", "a\nb\nz")
    assert not matches("raw_tokens 23", "raw_tokens 24")
