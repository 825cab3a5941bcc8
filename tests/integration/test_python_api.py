"""The Python API (`import cleveragents`) on real parts: the real tokenizer, a real SQLite file
in tmp_path, the corpus's logs and Claude Code sessions, and generated conversations."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import cleveragents
from cleveragents import ContextPolicy, InvalidInputError, NotFoundError, TranscriptFormat
from tests.conftest import CORPUS, TEST_DATA, needs_corpus

LOGS = CORPUS / "logs"
SESSIONS = CORPUS / "transcripts"
WINDOW = {"context_window": 12_000, "reserve_tokens": 2_000, "keep_recent_tokens": 4_000}
POLICY = ContextPolicy(context_window=12_000, reserve_tokens=2_000, keep_recent_tokens=4_000)


def _log() -> str:
    return (LOGS / "Hadoop_2k.log").read_text(encoding="utf-8")


def _openai(output: str) -> list[dict[str, Any]]:
    """A generated agent loop: a request, a tool call with a large output, an answer, a
    second request and one more call."""
    call = {"name": "read_log", "arguments": '{"path":"hadoop.log"}'}
    return [
        {"role": "system", "content": "You are a careful release engineer."},
        {"role": "user", "content": "Find why the job failed and fix conf/yarn-site.xml."},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "call_1", "type": "function", "function": call}],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": output},
        {"role": "assistant", "content": "The RM is unreachable; next: edit the config."},
        {"role": "user", "content": "Do it, then run the tests."},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "call_2", "type": "function", "function": call}],
        },
        {"role": "tool", "tool_call_id": "call_2", "content": output},
    ]


# -- count_tokens ----------------------------------------------------------------------------


def test_count_tokens_is_the_tokenizers_count() -> None:
    from cleveragents.container import build_token_counter

    text = (TEST_DATA / "click-core.py.txt").read_text(encoding="utf-8")
    assert cleveragents.count_tokens(text) == build_token_counter().count(text)
    assert cleveragents.count_tokens("hello world") == 2
    assert cleveragents.count_tokens("hello world", encoding="o200k_base") == 2


def test_count_tokens_refuses_an_unknown_encoding() -> None:
    with pytest.raises(InvalidInputError, match="unknown encoding 'p50k'"):
        cleveragents.count_tokens("x", encoding="p50k")


# -- compact ---------------------------------------------------------------------------------


@needs_corpus
def test_compact_gives_openai_messages_back_as_openai_messages_within_the_window() -> None:
    messages = _openai(_log())
    before = copy.deepcopy(messages)
    result = cleveragents.compact(messages, policy=POLICY)
    assert messages == before  # the caller's list is not touched
    assert result.status == "compacted"
    assert result.compacted
    assert result.format is TranscriptFormat.OPENAI
    assert result.tokens_after <= result.threshold == 10_000 < result.tokens_before
    assert result.messages[0] == before[0]  # the system prompt stays first
    assert result.messages[1]["role"] == "user"
    assert result.messages[1]["content"].startswith("[cleveragents context summary v1]")
    assert result.messages[-1]["role"] == "tool"  # the last call and its result are kept
    assert result.messages[-1]["tool_call_id"] == "call_2"
    # The messages are what the tokenizer says they are.
    assert cleveragents.count_tokens(json.dumps(result.messages)) < result.tokens_before
    report = result.report()
    assert report["status"] == "compacted"
    assert report["format"] == "openai"
    assert report["summary_sha256"] == result.summary_sha256
    assert len(report["summary_sha256"]) == 64


@needs_corpus
def test_without_a_store_a_shrunk_output_comes_back_whole_in_the_result() -> None:
    log = _log()
    result = cleveragents.compact(_openai(log), policy=POLICY)
    assert result.shrunk_tool_results
    for shrunk in result.shrunk_tool_results:
        assert shrunk.artifact_id is None
        assert shrunk.full_output == log
        assert shrunk.tokens_after < shrunk.tokens_before
    kept = result.messages[-1]["content"]
    assert kept.endswith("are not kept]")
    assert len(kept) < len(log)


@needs_corpus
def test_compact_opens_no_database_and_writes_no_file_without_a_store(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "messages.json").write_text(json.dumps(_openai(_log())), encoding="utf-8")
    home, user = tmp_path / "home", tmp_path / "user"
    program = (
        "import json, sys\n"
        "import cleveragents\n"
        "messages = json.load(open(sys.argv[1]))\n"
        f"window = {WINDOW!r}\n"
        "result = cleveragents.compact(messages, **window)\n"
        "assert result.status == 'compacted' and result.shrunk_tool_results\n"
        "records = [json.loads(line) for line in open(sys.argv[2])]\n"
        "assert cleveragents.compact(records, force=True).status == 'compacted'\n"
        "cleveragents.compress(messages[3]['content'], 200)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sqlalchemy', 'alembic')))\n"
    )
    completed = subprocess.run(
        [
            sys.executable,
            "-c",
            program,
            str(data / "messages.json"),
            str(SESSIONS / "claude-code-short.jsonl"),
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        env={"CLEVERAGENTS_HOME": str(home), "HOME": str(user), "PATH": "/usr/bin:/bin"},
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == "[]"  # SQLAlchemy was never even imported
    assert sorted(path.name for path in tmp_path.iterdir()) == ["data"]  # no home, no file


def test_compact_creates_no_engine_in_process(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cleveragents.adapters.persistence import database

    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("an engine was created")

    monkeypatch.setattr(database, "make_engine", refuse)
    messages = json.loads((TEST_DATA / "transcripts" / "anthropic-messages.json").read_text())
    result = cleveragents.compact(messages, force=True, keep_recent_tokens=200)
    assert result.status == "compacted"
    assert not home.exists()


@needs_corpus
def test_with_a_store_the_event_and_the_full_outputs_go_there(tmp_path: Path) -> None:
    log = _log()
    with cleveragents.open_store(tmp_path / "agents.db", home=tmp_path / "home") as store:
        result = cleveragents.compact(_openai(log), store=store, policy=POLICY)
        assert result.status == "compacted"
        ids = {shrunk.artifact_id for shrunk in result.shrunk_tool_results}
        assert len(ids) == 1
        assert None not in ids
        (artifact_id,) = ids
        assert artifact_id is not None
        assert store.read(artifact_id, 0, 1 << 20) == log.encode("utf-8")
        assert all(shrunk.full_output is None for shrunk in result.shrunk_tool_results)
        events = store.container_for().event_sink().recorded("context_compacted")
        assert [event.payload["summary_sha256"] for event in events] == [result.summary_sha256]
    assert (tmp_path / "agents.db").is_file()


@needs_corpus
def test_a_claude_code_session_comes_back_as_records_that_resume() -> None:
    from cleveragents.adapters.transcripts.claude_code_jsonl import resume_problems

    path = SESSIONS / "claude-code-subagent.jsonl"
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line]
    result = cleveragents.compact(records, force=True, keep_recent_tokens=4_000)
    assert result.status == "compacted", result.reason
    assert result.format is TranscriptFormat.CLAUDE_CODE
    assert isinstance(result.messages, list)
    assert len(result.messages) < len(records)
    text = "".join(json.dumps(record) + "\n" for record in result.messages)
    assert resume_problems(text) == []
    as_text = cleveragents.compact(
        path.read_text(encoding="utf-8"), force=True, keep_recent_tokens=4_000
    )
    assert as_text.tokens_after == result.tokens_after
    assert isinstance(as_text.messages, str)


def test_an_anthropic_request_comes_back_a_request() -> None:
    request = json.loads((TEST_DATA / "transcripts" / "anthropic-messages.json").read_text())
    result = cleveragents.compact(request, force=True, keep_recent_tokens=200)
    assert result.status == "compacted"
    assert isinstance(result.messages, dict)
    assert result.messages["system"] == request["system"]
    assert result.messages["tools"] == request["tools"]
    assert len(result.messages["messages"]) < len(request["messages"])


def test_not_needed_gives_the_messages_back_equal_and_unshared() -> None:
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    result = cleveragents.compact(messages)
    assert result.status == "not-needed"
    assert result.messages == messages
    assert result.messages is not messages
    result.messages[0]["content"] = "changed"
    assert messages[0]["content"] == "hi"


def test_a_failed_compaction_keeps_the_originals_and_says_why() -> None:
    messages = [{"role": "user", "content": "word " * 3000}]
    result = cleveragents.compact(
        messages, context_window=2000, reserve_tokens=500, keep_recent_tokens=1000, force=True
    )
    assert result.status == "failed"
    assert result.reason
    assert result.messages == messages
    assert result.tokens_after == result.tokens_before


def test_the_policy_and_the_keywords_decide_the_window() -> None:
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    policy = ContextPolicy(context_window=50_000, reserve_tokens=10_000)
    assert cleveragents.compact(messages, policy=policy).threshold == 40_000
    assert cleveragents.compact(messages, policy=policy, reserve_tokens=5_000).threshold == 45_000


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: cleveragents.compact([{"role": "user"}]), "without content"),
        (lambda: cleveragents.compact("not json"), "not JSON"),
        (
            lambda: cleveragents.compact([{"role": "system", "content": "x"}], format="openai"),
            "no conversation",
        ),
        (
            lambda: cleveragents.compact([], format="yaml"),
            "unknown transcript format 'yaml'",
        ),
        (lambda: cleveragents.compact([], reserve_tokens=-1), "reserve_tokens"),
        (lambda: cleveragents.compact([], reserve_tokens=300_000), "must be less than"),
        (lambda: cleveragents.compact([], project="p"), "give store= as well"),
        (lambda: cleveragents.compact([{"role": "user", "content": {1}}]), "set is not a JSON"),
    ],
)
def test_bad_input_is_one_error_that_says_what_is_wrong(call: Any, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message) as raised:
        call()
    assert "\n" not in str(raised.value)


def test_a_project_of_the_store_gives_its_policy(tmp_path: Path) -> None:
    from cleveragents.domain.policy import ContextPolicyChanges

    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    with cleveragents.open_store(tmp_path / "agents.db", home=tmp_path / "home") as store:
        store.create_project("small")
        store.projects.set_context(
            "small", ContextPolicyChanges(context_window=30_000, reserve_tokens=5_000)
        )
        assert cleveragents.compact(messages, store=store, project="small").threshold == 25_000


# -- compress --------------------------------------------------------------------------------


@needs_corpus
def test_compress_text_fits_the_budget_and_keeps_the_last_error() -> None:
    log = (LOGS / "HDFS_2k.log").read_text(encoding="utf-8")
    lines = log.splitlines()
    text = "\n".join([*lines, "2024-01-01 00:00:00 ERROR final failure: disk quota exceeded"])
    result = cleveragents.compress(text, 400, task="why did it fail")
    assert result.kind is cleveragents.ArtifactKind.LOG
    assert result.mode is cleveragents.CompressionMode.SMART
    assert result.tokens == cleveragents.count_tokens(result.text) <= 400
    assert result.raw_tokens == cleveragents.count_tokens(text)
    assert result.truncated
    assert "disk quota exceeded" in result.text
    assert result.artifact.model_dump()["compacted_tokens"] == result.tokens


@needs_corpus
def test_compress_a_path_reads_the_file() -> None:
    path = CORPUS / "diffs"
    diff = sorted(path.glob("*"))[0]
    result = cleveragents.compress(diff, 500)
    assert result.kind is cleveragents.ArtifactKind.DIFF
    assert result.tokens <= 500
    assert result.name == str(diff)
    same = cleveragents.compress(diff.read_text(encoding="utf-8"), 500, name=diff.name)
    assert same.text == result.text


def test_a_str_is_text_even_when_it_names_a_file(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text("# Notes\n\nkeep this\n", encoding="utf-8")
    result = cleveragents.compress(str(path), 100)
    assert result.text == str(path)


def test_kind_decides_for_text_and_for_a_file(tmp_path: Path) -> None:
    text = '{"name": "cleveragents", "tags": ["a", "b"]}'
    assert cleveragents.compress(text, 50, kind="json").kind is cleveragents.ArtifactKind.JSON
    assert cleveragents.compress("just words", 50).kind is cleveragents.ArtifactKind.TEXT
    source = "def main():\n    return 1\n"
    assert cleveragents.compress(source, 50, name="app.py").kind.value == "source"
    with pytest.raises(InvalidInputError, match="needs a file name with a known source"):
        cleveragents.compress(source, 50, kind="source")
    # A log saved under a markdown name, said to be a log: the ERROR at the end is kept.
    log = "".join(f"2024-05-01 12:00:{i % 60:02d} INFO step {i} done\n" for i in range(300))
    log += "2024-05-01 12:07:00 ERROR test_login failed: 401 from /auth\n"
    path = tmp_path / "report.md"
    path.write_text(log, encoding="utf-8")
    as_log = cleveragents.compress(path, 80, kind="log")
    assert as_log.kind is cleveragents.ArtifactKind.LOG
    assert "ERROR test_login failed" in as_log.text
    assert cleveragents.compress(path, 80).kind is cleveragents.ArtifactKind.MARKDOWN


def test_compress_refuses_what_it_cannot_compress(tmp_path: Path) -> None:
    with pytest.raises(NotFoundError, match="not found"):
        cleveragents.compress(tmp_path / "missing.log", 100)
    binary = tmp_path / "image.bin"
    binary.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(InvalidInputError, match="binary"):
        cleveragents.compress(binary, 100)
    inside = tmp_path / "inside"
    inside.mkdir()
    (tmp_path / "outside.log").write_text("ERROR x\n", encoding="utf-8")
    with pytest.raises(InvalidInputError):
        cleveragents.compress(tmp_path / "outside.log", 100, workdir=inside)
    with pytest.raises(InvalidInputError, match="budget"):
        cleveragents.compress("text", 0)
    with pytest.raises(InvalidInputError, match="unknown compression mode"):
        cleveragents.compress("text", 10, mode="fast")
    with pytest.raises(InvalidInputError, match="not bytes"):
        cleveragents.compress(b"text", 10)  # type: ignore[arg-type]


@needs_corpus
def test_compress_with_a_store_names_the_stored_artifact(tmp_path: Path) -> None:
    with cleveragents.open_store(tmp_path / "agents.db", home=tmp_path / "home") as store:
        result = cleveragents.compress(LOGS / "Zookeeper_2k.log", 300, store=store)
        (stored,) = store.list_artifacts()
        assert stored.id in result.text
        again = store.compress(stored.id, 300)
        assert again.text == result.text
        assert again.kind is cleveragents.ArtifactKind.LOG


# -- the store -------------------------------------------------------------------------------


@needs_corpus
def test_imported_output_is_previewed_and_read_back(tmp_path: Path) -> None:
    log = (LOGS / "OpenSSH_2k.log").read_bytes()
    with cleveragents.open_store(tmp_path / "agents.db", home=tmp_path / "home") as store:
        imported = store.import_output(log, "ssh/1")
        assert not imported.blocked
        assert imported.preview is not None
        preview = store.preview(imported.artifact.id)
        assert preview.byte_count == len(log)
        assert preview.omitted_bytes > 0
        assert preview.head.encode() == log[: len(preview.head.encode())]
        omitted = store.read(imported.artifact.id, preview.omitted_offset, preview.omitted_bytes)
        assert omitted == log[preview.omitted_offset : preview.omitted_offset + len(omitted)]
        assert store.read_lines(imported.artifact.id, 2, 3) == b"".join(
            log.splitlines(keepends=True)[1:3]
        )
        assert store.get(f"sha256:{imported.artifact.sha256}").id == imported.artifact.id


def test_a_credential_blocks_the_import_and_the_result_says_so(tmp_path: Path) -> None:
    key = "AKIA" + "ZXCVBNMASDFGHJKL"
    with cleveragents.open_store(tmp_path / "agents.db", home=tmp_path / "home") as store:
        blocked = store.import_output(f"ok\naws_access_key_id={key}\n", "deploy")
        assert blocked.blocked
        assert blocked.preview is None
        assert "aws-access-key-id" in blocked.notice
        assert "line(s) 2" in blocked.notice
        assert key not in blocked.notice
        with pytest.raises(NotFoundError):
            store.read(blocked.artifact.id)
        kept = store.import_output(f"ok\naws_access_key_id={key}\n", "deploy", secrets="redact")
        assert kept.redacted
        assert store.read(kept.artifact.id).startswith(b"ok\naws_access_key_id=[REDACTED:")
        workspace = tmp_path / "ws"
        workspace.mkdir()
        (workspace / "env.txt").write_text(f"key={key}\n", encoding="utf-8")
        redacted = store.import_file("env.txt", workspace=workspace, secrets="redact")
        assert redacted.redacted
        assert key.encode() not in store.read(redacted.artifact.id)


def test_plans_spawn_a_child_with_its_skeleton(tmp_path: Path) -> None:
    with cleveragents.open_store(tmp_path / "agents.db", home=tmp_path / "home") as store:
        store.create_project("p")
        parent = store.create_plan("p", "parent")
        for index in range(10):
            store.decide(parent.id, f"fact {index} " * 20, relevance=index / 10)
        child = store.spawn_child(parent.id, "child", skeleton_ratio=0.7)
        skeleton = child.skeleton_metadata
        assert skeleton is not None
        assert skeleton.ratio == 0.7
        assert skeleton.compressed_tokens <= skeleton.original_tokens * 0.3
        status = store.plan_status(child.id)
        assert status.plan.parent_id == parent.id
        assert status.inherited_tokens == skeleton.compressed_tokens
    with cleveragents.open_store(tmp_path / "agents.db", home=tmp_path / "home") as again:
        assert again.plan_status(parent.id).children == (child.id,)


def test_a_closed_store_is_refused(tmp_path: Path) -> None:
    store = cleveragents.open_store(tmp_path / "agents.db", home=tmp_path / "home")
    store.close()
    with pytest.raises(InvalidInputError, match="closed"):
        store.create_project("p")
    assert not (tmp_path / "agents.db").exists()  # never used: never opened


# -- the skeleton without a store ------------------------------------------------------------


def test_the_skeleton_compressor_needs_no_store() -> None:
    fragments = [
        cleveragents.make_fragment(f"decision {index}", relevance=index / 10) for index in range(5)
    ]
    assert [f.token_count for f in fragments] == [cleveragents.count_tokens("decision 0")] * 5
    result = cleveragents.compress_skeleton(reversed(fragments), 0.5)
    assert result.fragments[0].content == "decision 4"  # the most relevant first
    assert result.metadata.original_tokens == sum(f.token_count for f in fragments)
    assert result.metadata.compressed_tokens <= result.metadata.original_tokens / 2
    with pytest.raises(ValueError, match=r"\[0.0, 1.0\]"):
        cleveragents.compress_skeleton(fragments, 1.5)
    with pytest.raises(InvalidInputError, match="relevance"):
        cleveragents.make_fragment("x", relevance=2.0)


# -- the package -----------------------------------------------------------------------------


def test_importing_the_package_loads_none_of_the_engine() -> None:
    program = (
        "import sys, cleveragents\n"
        "heavy = ('pydantic', 'sqlalchemy', 'tiktoken', 'dependency_injector',"
        " 'cleveragents.api')\n"
        "print([name for name in heavy if name in sys.modules], cleveragents.__version__)\n"
        "cleveragents.compact\n"
        "print('cleveragents.api.compaction' in sys.modules)\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True
    )
    assert completed.stdout.split("\n")[:2] == ["[] 0.1.0", "True"]


def test_every_exported_name_resolves() -> None:
    for name in cleveragents.__all__:
        assert getattr(cleveragents, name) is not None
    assert set(cleveragents.__all__) <= set(dir(cleveragents))
    with pytest.raises(AttributeError):
        cleveragents.no_such_name  # noqa: B018
