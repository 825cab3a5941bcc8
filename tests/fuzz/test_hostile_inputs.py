"""Hostile input files against every command that reads one, each run as the user runs it: the
`agents` entry point in its own process, with its address space capped and a generous timeout.

Small files that ask for huge work (YAML aliases nested nine deep, 20,000 dotted TOML keys,
brackets 100,000 deep) and huge files that take no disk (5 GiB sparse files, a character
device like ``/dev/zero``, a FIFO fed without end) must all end the same way: exit 2 with one
line on stderr naming the file, or success, never a traceback, a crash or a hang.

The timeout (60 s a case) catches a hang; it is not a speed assertion (a hostile file fails in
about the time the interpreter takes to start). The memory cap (`ADDRESS_SPACE_BYTES`) turns an
unbounded allocation into a `MemoryError` traceback, which the assertions catch: a 432-byte file
that once took 1.6 GB fails the test instead of slowing the machine.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import anyio
import pytest

pytestmark = pytest.mark.slow  # every case spawns the CLI

TIMEOUT_SECONDS = 60
ADDRESS_SPACE_BYTES = 1 << 30
"""Enough for the interpreter, the tokenizer and the largest read the commands allow (a
256 MiB transcript); far below what an unbounded read of a 5 GiB file or a billion-laughs
expansion takes."""
HUGE_BYTES = 5 << 30  # sparse: no disk is used

_ENTRY = (
    "import resource, sys\n"
    "limit = int(sys.argv[1])\n"
    "resource.setrlimit(resource.RLIMIT_AS, (limit, limit))\n"
    "from cleveragents.cli.main import main\n"
    "main(sys.argv[2:])\n"
)


@dataclass(frozen=True)
class Outcome:
    exit_code: int
    stdout: str
    stderr: str


def agents(workdir: Path, *args: str | Path, stdin: int | None = subprocess.DEVNULL) -> Outcome:
    """`agents ARGS` in `workdir`, in a process of its own with the address space capped."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("CLEVERAGENTS_DATABASE_URL", "CLEVERAGENTS_MAX_TRANSCRIPT_BYTES")
    }
    env["CLEVERAGENTS_HOME"] = str(workdir / "home")
    completed = subprocess.run(
        [sys.executable, "-c", _ENTRY, str(ADDRESS_SPACE_BYTES), *map(str, args)],
        cwd=workdir,
        env=env,
        stdin=stdin,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=TIMEOUT_SECONDS,
        check=False,
    )
    return Outcome(completed.returncode, completed.stdout, completed.stderr)


def assert_clean(outcome: Outcome) -> None:
    """No traceback, an exit code the CLI documents, and one line on stderr for bad input."""
    assert "Traceback" not in outcome.stderr, outcome.stderr[-3000:]
    assert outcome.exit_code in (0, 1, 2), (outcome.exit_code, outcome.stderr[-3000:])
    if outcome.exit_code == 2:
        lines = outcome.stderr.strip().splitlines()
        assert len(lines) == 1, outcome.stderr[-3000:]
        assert lines[0].startswith("error: "), lines[0]


def assert_refused(outcome: Outcome, *fragments: str) -> str:
    """Exit 2, one clean line holding every fragment, nothing on stdout."""
    assert_clean(outcome)
    assert outcome.exit_code == 2, (outcome.exit_code, outcome.stdout[-500:], outcome.stderr)
    assert outcome.stdout == ""
    line = outcome.stderr.strip()
    for fragment in fragments:
        assert fragment in line, line
    return line


# -- small files that ask for huge work --------------------------------------------------------


def _laughs(indent: str, levels: int) -> str:
    """Anchors ten times the one before, `levels` deep: 10**levels values from 500 bytes."""
    lines = [f'{indent}l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [
        f"{indent}l{level}: &l{level} [{','.join([f'*l{level - 1}'] * 10)}]"
        for level in range(1, levels)
    ]
    return "\n".join(lines) + "\n"


def _deep_block_yaml(levels: int) -> str:
    return "stable_facts:\n" + "".join(f"{'  ' * (level + 1)}k:\n" for level in range(levels))


EXPANSIONS = "once YAML aliases are expanded"
TOO_DEEP = "nested too deeply"

HOSTILE_PREFIX_FILES: dict[str, tuple[str, str]] = {
    # name: (text, what the one line says)
    "laughs-top.yaml": ("stable_facts:\n" + _laughs("  ", 9), EXPANSIONS),
    "laughs-schema.yaml": (
        "tools:\n  - name: t\n    input_schema:\n" + _laughs("      ", 8),
        EXPANSIONS,
    ),
    "laughs-skills.yaml": (
        "x: &s ["
        + ",".join(["lol"] * 10)
        + "]\n"
        + "".join(
            f"x{level}: &s{level} [{','.join([f'*s{level - 1}' if level > 1 else '*s'] * 10)}]\n"
            for level in range(1, 9)
        )
        + "professional_skills: *s8\n",
        EXPANSIONS,
    ),
    "long-text.yaml": (
        f"core_rules: &r '{'x' * 500_000}'\nstable_facts:\n"
        + "".join(f"  k{index}: *r\n" for index in range(20)),
        "characters of text " + EXPANSIONS,
    ),
    "recursive.yaml": ("stable_facts: &a {x: *a}\n", "recursive structure"),
    "deep-flow.yaml": ("core_rules: " + "[" * 100_000 + "\n", TOO_DEEP),
    "deep-block.yaml": (_deep_block_yaml(300), TOO_DEEP),
    "dotted-keys.toml": ("a" + ".a" * 20_000 + " = 1\n", TOO_DEEP),
    "table-header.toml": ("[" + "a." * 20_000 + "a]\nk = 1\n", TOO_DEEP),
    "array-tables.toml": ("[[" + "a." * 20_000 + "a]]\nk = 1\n", TOO_DEEP),
    "inline-tables.toml": ("a = " + "{a = " * 20_000 + "1" + " }" * 20_000 + "\n", TOO_DEEP),
    "arrays.toml": ("a = " + "[" * 50_000 + "]" * 50_000 + "\n", TOO_DEEP),
    "dotted-in-inline.toml": ("a = {" + "b." * 20_000 + "c = 1}\n", TOO_DEEP),
}


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    (tmp_path / "spec.md").write_text("# Spec\n\nDo the thing.\n", encoding="utf-8")
    (tmp_path / "prefix.yaml").write_text("core_rules: Be careful.\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("name", sorted(HOSTILE_PREFIX_FILES))
def test_a_hostile_prefix_file_is_refused_in_one_line(workdir: Path, name: str) -> None:
    text, says = HOSTILE_PREFIX_FILES[name]
    path = workdir / name
    path.write_text(text, encoding="utf-8")
    assert len(text.encode()) < 1 << 20  # small files all: the work is what they ask for
    assert_refused(agents(workdir, "context", "prefix", "build", name), f"{name}: ", says)
    assert_refused(agents(workdir, "context", "prefix", "diff", "prefix.yaml", name), says)


@pytest.mark.parametrize("name", sorted(n for n in HOSTILE_PREFIX_FILES if n.endswith(".toml")))
def test_a_hostile_weights_file_is_refused_in_one_line(workdir: Path, name: str) -> None:
    text, says = HOSTILE_PREFIX_FILES[name]
    (workdir / name).write_text(text, encoding="utf-8")
    outcome = agents(workdir, "context", "budget", "--spec", "spec.md", "--weights", name)
    assert_refused(outcome, f"{name} is not valid TOML", says)


def test_anchors_aliases_and_merge_keys_in_a_small_file_still_work(workdir: Path) -> None:
    (workdir / "anchors.yaml").write_text(
        "stable_facts:\n"
        "  branch: &branch main\n"
        "  release_branch: *branch\n"
        "tools:\n"
        "  - name: read\n"
        "    input_schema: &schema {type: object, properties: {path: {type: string}}}\n"
        "  - name: write\n"
        "    input_schema: {<<: *schema, required: [path]}\n",
        encoding="utf-8",
    )
    outcome = agents(workdir, "context", "prefix", "build", "anchors.yaml")
    assert_clean(outcome)
    assert outcome.exit_code == 0, outcome.stderr
    assert "release_branch: main" in outcome.stdout
    assert '"required":["path"]' in outcome.stdout


# -- huge files (sparse: no disk) ----------------------------------------------------------------

HUGE_FILE_COMMANDS: dict[str, tuple[tuple[str, ...], str]] = {
    # case: (arguments, with HUGE standing for the huge file, and the kind the limit names)
    "prefix build yaml": (("context", "prefix", "build", "HUGE.yaml"), "prefix files"),
    "prefix build toml": (("context", "prefix", "build", "HUGE.toml"), "prefix files"),
    "prefix diff": (("context", "prefix", "diff", "prefix.yaml", "HUGE.yaml"), "prefix files"),
    "budget --spec": (("context", "budget", "--spec", "HUGE.md"), "documents"),
    "budget --test-plan": (
        ("context", "budget", "--spec", "spec.md", "--test-plan", "HUGE.md"),
        "documents",
    ),
    "budget --module-doc": (
        ("context", "budget", "--spec", "spec.md", "--module-doc", "HUGE.md"),
        "documents",
    ),
    "budget --changed": (
        ("context", "budget", "--spec", "spec.md", "--changed", "HUGE.py"),
        "documents",
    ),
    "budget --weights": (
        ("context", "budget", "--spec", "spec.md", "--weights", "HUGE.toml"),
        "weights files",
    ),
    "budget lint": (("context", "budget", "lint", "HUGE.md"), "reports"),
    "context validate": (("context", "validate", "HUGE.jsonl"), "transcripts"),
    "context compact": (("context", "compact", "HUGE.jsonl", "--json"), "transcripts"),
    "context compare": (("context", "compare", "HUGE.jsonl"), "transcripts"),
    "metrics import": (("metrics", "import", "HUGE.jsonl"), "transcripts"),
}


def _with_source(arguments: tuple[str, ...], source: str) -> list[str]:
    """`arguments` with the HUGE placeholder replaced by `source` (its suffix kept when the
    source is a plain name, so that a prefix file is read as YAML or TOML)."""
    replaced = []
    for argument in arguments:
        if argument.startswith("HUGE"):
            suffix = argument.removeprefix("HUGE")
            replaced.append(source if source.startswith("/") else source + suffix)
        else:
            replaced.append(argument)
    return replaced


@pytest.mark.parametrize("case", sorted(HUGE_FILE_COMMANDS))
def test_a_huge_sparse_file_is_refused_by_its_size(workdir: Path, case: str) -> None:
    arguments, kind = HUGE_FILE_COMMANDS[case]
    for argument in arguments:
        if argument.startswith("HUGE"):
            os.truncate(_touch(workdir / argument.replace("HUGE", "huge")), HUGE_BYTES)
    line = assert_refused(agents(workdir, *_with_source(arguments, "huge")), "is 5.0 GiB")
    assert f"{kind} above " in line


def test_a_huge_decision_file_is_refused(workdir: Path) -> None:
    assert agents(workdir, "project", "create", "demo").exit_code == 0
    plan = agents(workdir, "plan", "create", "--project", "demo", "--title", "Hostile")
    assert plan.exit_code == 0, plan.stderr
    os.truncate(_touch(workdir / "huge.md"), HUGE_BYTES)
    outcome = agents(workdir, "plan", "decide", plan.stdout.strip(), "--file", "huge.md")
    assert_refused(outcome, "huge.md is 5.0 GiB", "documents above")


def test_a_huge_sparse_file_to_compress_ends_cleanly(workdir: Path) -> None:
    """Compression streams large files; a sparse file reads as NUL bytes: binary, refused
    (its JSON result says so on stdout as well)."""
    os.truncate(_touch(workdir / "huge.log"), HUGE_BYTES)
    outcome = agents(workdir, "artifact", "compress", "--budget", "200", "huge.log")
    assert_clean(outcome)
    assert outcome.exit_code == 2
    assert "huge.log is a binary file" in outcome.stderr


def _touch(path: Path) -> Path:
    path.touch()
    return path


# -- sources without end: a character device, a FIFO -------------------------------------------

ENDLESS_COMMANDS: dict[str, tuple[tuple[str, ...], str]] = {
    case: HUGE_FILE_COMMANDS[case]
    for case in (
        "prefix build yaml",
        "budget --spec",
        "budget --weights",
        "budget lint",
        "context validate",
        "metrics import",
    )
}


@pytest.fixture
def zero_device(tmp_path: Path) -> Path:
    """A character device of our own that reads like ``/dev/zero`` (major 1, minor 5), made
    in the test's folder: nothing is written to a real device."""
    if os.geteuid() != 0:
        pytest.skip("making a character device (mknod) needs root")
    path = tmp_path / "zero-device"
    try:
        os.mknod(path, 0o444 | stat.S_IFCHR, os.makedev(1, 5))
    except OSError as error:  # a container without CAP_MKNOD, a nodev mount
        pytest.skip(f"cannot make a character device here: {error.strerror}")
    try:
        with path.open("rb") as device:
            if device.read(4) != b"\0\0\0\0":
                pytest.skip("the device made does not read as zeros here")
    except OSError as error:  # a nodev mount refuses the open
        pytest.skip(f"cannot read a character device here: {error.strerror}")
    return path


@pytest.fixture
def fed_fifo(tmp_path: Path) -> Iterator[Path]:
    """A FIFO that a writer process feeds with NUL bytes without end (until nobody reads)."""
    path = tmp_path / "endless-fifo"
    os.mkfifo(path)
    writer = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys\n"
            "chunk = bytes(1 << 16)\n"
            "with open(sys.argv[1], 'wb') as out:\n"
            "    try:\n"
            "        while True:\n"
            "            out.write(chunk)\n"
            "    except BrokenPipeError:\n"
            "        pass\n",
            str(path),
        ],
        stderr=subprocess.DEVNULL,
    )
    try:
        yield path
    finally:
        writer.kill()
        writer.wait(timeout=TIMEOUT_SECONDS)


@pytest.mark.parametrize("case", sorted(ENDLESS_COMMANDS))
def test_a_character_device_without_end_is_refused(
    workdir: Path, zero_device: Path, case: str
) -> None:
    arguments, kind = ENDLESS_COMMANDS[case]
    line = assert_refused(agents(workdir, *_with_source(arguments, str(zero_device))))
    assert f"{zero_device} is more than " in line
    assert f"{kind} above " in line


@pytest.mark.parametrize("case", sorted(ENDLESS_COMMANDS))
def test_a_fifo_fed_without_end_is_refused(workdir: Path, fed_fifo: Path, case: str) -> None:
    arguments, kind = ENDLESS_COMMANDS[case]
    line = assert_refused(agents(workdir, *_with_source(arguments, str(fed_fifo))))
    assert f"{fed_fifo} is more than " in line
    assert f"{kind} above " in line


def test_standard_input_without_end_is_refused(workdir: Path, fed_fifo: Path) -> None:
    with fed_fifo.open("rb") as endless:
        outcome = agents(workdir, "context", "budget", "lint", "-", stdin=endless.fileno())
    assert_refused(outcome, "standard input is more than 4 MiB; reports above 4 MiB")


# -- the MCP server's transcript tool reads files too ---------------------------------------------


def test_the_mcp_transcript_tool_refuses_huge_and_endless_files(
    tmp_path: Path, fed_fifo: Path
) -> None:
    """A tool error of one line each, and the server goes on answering."""
    from mcp.client.session import ClientSession

    from tests.e2e.test_mcp_server import refused, serve

    huge = _touch(tmp_path / "huge.json")
    os.truncate(huge, HUGE_BYTES)

    async def scenario(client: ClientSession) -> None:
        with anyio.fail_after(TIMEOUT_SECONDS):  # a hang fails the test instead of holding it
            message = await refused(client, "compact_transcript", path=str(huge))
            assert "huge.json is 5.0 GiB; transcripts above 256 MiB are refused" in message
            message = await refused(client, "compact_transcript", path=str(fed_fifo))
            assert "is not a regular file (a FIFO, socket or device)" in message
            message = await refused(client, "compact_transcript", path=str(tmp_path / "gone"))
            assert "no readable file" in message

    serve(tmp_path / "home", scenario)
