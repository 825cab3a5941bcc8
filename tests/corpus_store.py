"""A store built from the corpus, and `agents verify` run on it: the last step of `make verify`.

``python -m tests.corpus_store [CORPUS_DIR]`` builds a fresh SQLite store in a temporary
directory from the shared corpus (``../shared/corpus``; the tests' copy in ``tests/data`` when
it is not there), through the `agents` CLI as a user would: a project, a plan with decisions,
every log, diff and JSON document imported as an artifact of the plan, a transcript compacted
and recorded (the compacted session imported as an artifact too), and the token usage of a
Claude Code session imported. Then it runs ``agents --db URL verify`` on that store and exits
with its status, so a gate that fires on what the real commands record fails the build.

The commands run in this process through the CLI's entry point (one interpreter start instead
of twenty); the verification runs as its own ``agents`` process, as CI would call it.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cleveragents.cli.main import main as agents_main

REPO_ROOT = Path(__file__).resolve().parent.parent
CORPUS = REPO_ROOT.parent / "shared" / "corpus"
TEST_DATA = REPO_ROOT / "tests" / "data"

PROJECT = "corpus"
PLAN_TITLE = "Deliver context built from the corpus"
DECISIONS = (
    ("Keep the tail of every log: the failure is at the end", "0.9"),
    ("Import tool output through the store, never paste it into the prompt", "0.7"),
    ("Compact the session before it reaches the context window", "0.5"),
)
COMPACTED_NAME = "compacted-session.jsonl"
# Variables that would send the store, or its blobs, somewhere else than the temporary home.
FOREIGN_SETTINGS = ("CLEVERAGENTS_DATABASE_URL", "CLEVERAGENTS_BLOB_STORE")


@dataclass(frozen=True)
class CorpusLayout:
    """Where a corpus keeps what the store is built from (relative to its root)."""

    artifacts: tuple[str, ...]  # glob patterns of the files imported as artifacts
    compacted: str  # the transcript compacted and recorded
    metered: str  # the Claude Code session whose token usage is imported


SHARED_LAYOUT = CorpusLayout(
    artifacts=("logs/*.log", "diffs/*.diff", "json/*.json"),
    compacted="transcripts/claude-code-258c7280-ae70-4798-800f-63464d01a85d.jsonl",
    metered="transcripts/claude-code-258c7280-ae70-4798-800f-63464d01a85d.jsonl",
)
# tests/data holds copies of corpus files (its README says which), in a flatter layout.
TEST_DATA_LAYOUT = CorpusLayout(
    artifacts=("*.log", "*.diff", "*.json"),
    compacted="usage/claude-code-short.jsonl",
    metered="usage/claude-code-short.jsonl",
)


@dataclass(frozen=True)
class CorpusSource:
    root: Path
    layout: CorpusLayout

    def artifact_files(self) -> list[Path]:
        return sorted(path for pattern in self.layout.artifacts for path in self.root.glob(pattern))


def corpus_source(corpus: Path | None = None) -> CorpusSource:
    """The corpus given, else the shared one if present, else the tests' copy of it."""
    if corpus is not None:
        corpus = corpus.resolve()  # the CLI reads a relative path from the workspace
        if not corpus.is_dir():
            raise ValueError(f"no corpus at {corpus}")
        layout = SHARED_LAYOUT if (corpus / "logs").is_dir() else TEST_DATA_LAYOUT
        return CorpusSource(corpus, layout)
    if CORPUS.is_dir():
        return CorpusSource(CORPUS, SHARED_LAYOUT)
    return CorpusSource(TEST_DATA, TEST_DATA_LAYOUT)


@dataclass(frozen=True)
class CorpusStore:
    """What was built: the store's URL and home, and the ids the commands printed."""

    database_url: str
    home: Path
    source: CorpusSource
    plan_id: str
    decision_ids: tuple[str, ...]
    artifact_ids: dict[str, str]  # workspace path (relative to the corpus root) -> artifact id
    summary_sha256: str
    compacted_session_id: str  # the compacted transcript, imported as an artifact
    metered_requests: int

    def environment(self) -> dict[str, str]:
        return store_environment(self.home)


def store_environment(home: Path) -> dict[str, str]:
    """The environment a command on the store runs in: its own home, nothing foreign."""
    env = {name: value for name, value in os.environ.items() if name not in FOREIGN_SETTINGS}
    env["CLEVERAGENTS_HOME"] = str(home)
    return env


class AgentsCommandError(RuntimeError):
    """An `agents` command exited non-zero while the store was being built."""


@contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(values)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def agents_json(database_url: str, env: dict[str, str], *args: str) -> Any:
    """Run `agents --db URL ARGS --json` through the CLI's entry point; its JSON output."""
    argv = ["--db", database_url, *args, "--json"]
    out, err = io.StringIO(), io.StringIO()
    with _environment(env), redirect_stdout(out), redirect_stderr(err):
        try:
            agents_main(argv)
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
        else:  # pragma: no cover - main always exits
            code = 0
    if code != 0:
        raise AgentsCommandError(f"agents {' '.join(args)} exited {code}: {err.getvalue().strip()}")
    return json.loads(out.getvalue())


def build_corpus_store(directory: Path, source: CorpusSource | None = None) -> CorpusStore:
    """Build a store in `directory` (empty or new) from the corpus (default: `corpus_source()`)."""
    source = source or corpus_source()
    home = directory / "home"
    home.mkdir(parents=True)
    database_url = f"sqlite:///{directory / 'corpus.db'}"
    env = store_environment(home)

    def agents(*args: str) -> Any:
        return agents_json(database_url, env, *args)

    agents("project", "create", PROJECT)
    plan_id = agents("plan", "create", "--project", PROJECT, "--title", PLAN_TITLE)["id"]
    decision_ids = tuple(
        agents("plan", "decide", plan_id, "--content", text, "--relevance", weight)["decision_id"]
        for text, weight in DECISIONS
    )
    artifact_ids: dict[str, str] = {}
    for path in source.artifact_files():
        imported = agents(
            "artifact", "import", str(path), "--workspace", str(source.root),
            "--plan", plan_id, "--secrets", "redact",
        )  # fmt: skip
        artifact_ids[imported["artifact"]["workspace_path"]] = imported["artifact"]["id"]
    compacted = directory / "session" / COMPACTED_NAME
    compacted.parent.mkdir()
    compaction = agents(
        "context", "compact", str(source.root / source.layout.compacted),
        "--project", PROJECT, "--force", "--out", str(compacted),
    )  # fmt: skip
    if compaction["status"] != "compacted":
        status = compaction["status"]
        raise AgentsCommandError(f"compacting {source.layout.compacted} gave {status}")
    # The session to send next, stored as an orchestrator would: its summary is checked too.
    stored_session = agents(
        "artifact", "import", str(compacted), "--workspace", str(compacted.parent),
        "--plan", plan_id, "--secrets", "redact",
    )["artifact"]["id"]  # fmt: skip
    metered = agents(
        "metrics", "import", str(source.root / source.layout.metered), "--plan", plan_id
    )
    return CorpusStore(
        database_url=database_url,
        home=home,
        source=source,
        plan_id=plan_id,
        decision_ids=decision_ids,
        artifact_ids=artifact_ids,
        summary_sha256=compaction["summary_sha256"],
        compacted_session_id=stored_session,
        metered_requests=metered["recorded"],
    )


def _agents_process(store: CorpusStore, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cleveragents.cli", "--db", store.database_url, *args],
        env=store.environment(),
        capture_output=True,
        text=True,
        check=False,
    )


def verify_unavailable(store: CorpusStore) -> str | None:
    """Why this checkout cannot run `agents verify` (`agents verify --help` fails), else None."""
    completed = _agents_process(store, "verify", "--help")
    if completed.returncode == 0:
        return None
    said = (completed.stderr or completed.stdout).strip().splitlines()
    return f"`agents verify --help` exited {completed.returncode}" + (
        f": {said[-1]}" if said else ""
    )


def verify(store: CorpusStore) -> subprocess.CompletedProcess[str]:
    """`agents --db URL verify` on the store: exit 0 when no gate fires."""
    return _agents_process(store, "verify")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) > 1 or any(arg.startswith("-") for arg in args):
        print("usage: python -m tests.corpus_store [CORPUS_DIR]", file=sys.stderr)
        return 2
    try:
        source = corpus_source(Path(args[0]) if args else None)
    except ValueError as bad_corpus:
        print(f"error: {bad_corpus}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="corpus-store-") as directory:
        try:
            store = build_corpus_store(Path(directory), source)
        except AgentsCommandError as failure:
            print(f"error: building the corpus store: {failure}", file=sys.stderr)
            return 1
        print(
            f"corpus store from {store.source.root}: plan {store.plan_id}, "
            f"{len(store.decision_ids)} decisions, {len(store.artifact_ids)} artifacts, "
            f"1 compaction (its session stored), {store.metered_requests} metered requests"
        )
        unavailable = verify_unavailable(store)
        if unavailable is not None:
            print(f"agents verify SKIPPED, not run on the corpus store: {unavailable}")
            return 0
        completed = verify(store)
        sys.stdout.write(completed.stdout)
        sys.stderr.write(completed.stderr)
        verdict = "passed" if completed.returncode == 0 else f"failed ({completed.returncode})"
        print(f"agents verify on the corpus store: {verdict}")
        return completed.returncode


if __name__ == "__main__":
    sys.exit(main())
