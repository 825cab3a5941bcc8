"""Fuzz tests of every parser of user input: whatever text or bytes they are given, they either
parse it or raise the project's bad-input error (a `CleverAgentsError`, one line), never another
exception, which the CLI would print as a traceback with exit 1.

The inputs are built from each format's own vocabulary (roles, block types, record types, usage
keys, section names), with the numbers Python reads badly (integers past 2^63 and past 4,300
digits, NaN, infinities, negatives), then written out whole, truncated, or with a character
changed, so that most examples get past the first check of the parser. Each test runs a bounded
number of examples, derandomized: the same examples in every run, a few seconds per parser.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cleveragents.adapters.budget_weights.heuristics_file import load_heuristics
from cleveragents.adapters.prefix_files.prefix_file_reader import PrefixFileReader
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.adapters.transcripts import JsonTranscriptCodec
from cleveragents.adapters.transcripts.claude_code_resume import resume_problems
from cleveragents.application.services.budget.context_budget_planner import (
    ContextBudgetPlanner,
    PlannedArtifact,
)
from cleveragents.application.services.metrics.usage_normalization import (
    normalize_usage,
    transcript_usage,
)
from cleveragents.cli.inputs import read_text_file, read_transcript_file
from cleveragents.container import Container
from cleveragents.domain.context_budget import BudgetKind
from cleveragents.domain.context_budget_contract import check_contract, render_markdown
from cleveragents.domain.errors import CleverAgentsError
from cleveragents.domain.transcript import TranscriptFormat
from tests.e2e.cli_runner import run

T = TypeVar("T")

FUZZ = settings(
    max_examples=250,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
CODEC = JsonTranscriptCodec()
_COUNTER = TiktokenCounter()  # the real tokenizer; the planner counts only with exact=True
BIG = "BIG-INTEGER"  # a string value replaced, once written, by an integer of 4,301 digits


def parsed_or_refused(parse: Callable[[], T]) -> T | None:
    """What `parse` returns, or None when it refuses the input the way the CLI expects."""
    try:
        return parse()
    except CleverAgentsError as error:
        message = str(error)
        assert message.strip(), "a refusal must say what is wrong"
        assert "\n" not in message, f"a refusal must be one line: {message!r}"
        return None


# -- values ------------------------------------------------------------------------------------

_awkward_integers = st.sampled_from(
    [0, -1, 1, 2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**12, 10**12 + 1]
)
_integers = st.integers(-5, 50) | _awkward_integers | st.integers()
_floats = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([0.5, 1e308, -0.0])
_rarely_big = st.integers(0, 30).flatmap(lambda n: st.just(BIG) if n == 0 else _integers)


def _json_values(words: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    scalars = st.none() | st.booleans() | _rarely_big | _floats | words | st.text(max_size=8)
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(words, inner, max_size=5),
        max_leaves=20,
    )


def _written(value: object) -> str:
    """`value` as JSON text as Python writes it: NaN and Infinity as literals, `BIG` as an
    integer too long for Python to read back."""
    return json.dumps(value).replace(json.dumps(BIG), "9" * 4301)


@st.composite
def _damaged(draw: st.DrawFn, text: str) -> str:
    """`text` whole (most often), cut short, or with one character replaced or inserted."""
    how = draw(st.sampled_from(["whole", "whole", "whole", "cut", "replace", "insert"]))
    if how == "whole" or not text:
        return text
    at = draw(st.integers(0, len(text) - 1))
    if how == "cut":
        return text[:at]
    char = draw(st.sampled_from(['"', "{", "}", "[", "]", ",", ":", "\n", "\\", "\x00", "é", "9"]))
    return text[:at] + char + text[at + (how == "replace") :]


def _texts_of(values: st.SearchStrategy[Any]) -> st.SearchStrategy[str]:
    return values.map(_written).flatmap(_damaged)


# -- transcripts -------------------------------------------------------------------------------

_TRANSCRIPT_WORDS = st.sampled_from(
    [
        "role", "content", "type", "text", "messages", "system", "user", "assistant", "tool",
        "developer", "tool_use", "tool_result", "thinking", "redacted_thinking", "image",
        "image_url", "refusal", "id", "name", "input", "tool_use_id", "is_error", "tool_calls",
        "tool_call_id", "function", "arguments", "usage", "model", "signature", "data",
        "input_tokens", "output_tokens", "cache_read_input_tokens", "prompt_tokens",
        "completion_tokens", "prompt_tokens_details", "cached_tokens", "created", "message",
        "uuid", "parentUuid", "sessionId", "timestamp", "isMeta", "isCompactSummary", "subtype",
        "compact_boundary", "queue-operation", "operation", "enqueue", "remove",
        "sourceToolAssistantUUID", "requestId", "<synthetic>", "instructions", "call_id",
        "function_call", "function_call_output", "custom_tool_call", "custom_tool_call_output",
        "reasoning", "summary", "summary_text", "encrypted_content", "output", "input_text",
        "output_text", "input_image", "web_search_call", "item_reference", "status",
    ]
)  # fmt: skip
_values = _json_values(_TRANSCRIPT_WORDS)


def _or_odd(good: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly `good`, one time in six any JSON value."""
    return st.integers(0, 5).flatmap(lambda n: _values if n == 0 else good)


_usage_keys = st.sampled_from(
    [
        "input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens",
        "cache_creation", "ephemeral_5m_input_tokens", "ephemeral_1h_input_tokens",
        "prompt_tokens", "completion_tokens", "prompt_tokens_details", "cached_tokens",
        "completion_tokens_details", "reasoning_tokens", "input_tokens_details",
        "output_tokens_details", "total_tokens", "service_tier", "server_tool_use",
    ]
)  # fmt: skip
_figures = st.integers(0, 2000) | _awkward_integers | _rarely_big | _floats | st.none()
_usage = (
    st.fixed_dictionaries(
        {"input_tokens": _figures, "output_tokens": _figures},
        optional={
            "cache_read_input_tokens": _figures,
            "cache_creation_input_tokens": _figures,
            "cache_creation": st.fixed_dictionaries(
                {}, optional={"ephemeral_5m_input_tokens": _figures}
            ),
            "service_tier": st.just("standard"),
        },
    )
    | st.fixed_dictionaries(
        {"prompt_tokens": _figures, "completion_tokens": _figures},
        optional={
            "prompt_tokens_details": st.fixed_dictionaries({"cached_tokens": _figures}),
            "completion_tokens_details": st.fixed_dictionaries({"reasoning_tokens": _figures}),
        },
    )
    | st.recursive(
        st.none() | st.booleans() | _figures | st.just("standard"),
        lambda inner: st.dictionaries(_usage_keys, inner, max_size=6),
        max_leaves=12,
    )
)
_blocks = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "tool_use", "tool_result", "thinking", "image_url", "x"])},
    optional={
        "text": _or_odd(st.text(max_size=8)),
        "id": _or_odd(st.sampled_from(["t1", "t2", ""])),
        "name": _or_odd(st.just("f")),
        "input": _or_odd(st.dictionaries(st.text(max_size=3), _values, max_size=2)),
        "tool_use_id": _or_odd(st.sampled_from(["t1", "t2"])),
        "content": _or_odd(st.text(max_size=8)),
        "is_error": _or_odd(st.booleans()),
    },
)
_content = _or_odd(st.text(max_size=10) | st.lists(_blocks, max_size=3) | st.none())
_messages = st.fixed_dictionaries(
    {
        "role": _or_odd(st.sampled_from(["user", "assistant", "system", "tool", "developer"])),
        "content": _content,
    },
    optional={
        "usage": _usage,
        "model": st.sampled_from(["claude-sonnet-4-5-20250929", "gpt-4o", "<synthetic>"]),
        "id": st.sampled_from(["m1", "m2"]),
        "created": _integers | _floats,
        "tool_call_id": _or_odd(st.sampled_from(["t1", ""])),
        "tool_calls": st.lists(
            st.fixed_dictionaries(
                {"id": st.sampled_from(["t1", "t2"]), "type": st.just("function")},
                optional={
                    "function": _or_odd(
                        st.fixed_dictionaries(
                            {"name": st.just("f"), "arguments": st.sampled_from(["{}", "[", "NaN"])}
                        )
                    )
                },
            ),
            max_size=2,
        )
        | _values,
    },
)
_response_parts = st.fixed_dictionaries(
    {"type": _or_odd(st.sampled_from(["input_text", "output_text", "input_image", "refusal"]))},
    optional={"text": _or_odd(st.text(max_size=8)), "annotations": _values},
)
_response_items = st.fixed_dictionaries(
    {
        "type": _or_odd(
            st.sampled_from(
                [
                    "message", "function_call", "function_call_output", "custom_tool_call",
                    "custom_tool_call_output", "reasoning", "web_search_call", "item_reference",
                ]
            )
        )
    },
    optional={
        "role": _or_odd(st.sampled_from(["user", "assistant", "system", "developer", "tool"])),
        "content": _or_odd(st.text(max_size=8) | st.lists(_response_parts, max_size=3)),
        "call_id": _or_odd(st.sampled_from(["c1", "c2", ""])),
        "name": _or_odd(st.just("f")),
        "arguments": _or_odd(st.sampled_from(["{}", '{"a": 1}', "[", "NaN"])),
        "input": _or_odd(st.text(max_size=5)),
        "output": _or_odd(st.text(max_size=8) | st.lists(_response_parts, max_size=2)),
        "summary": _or_odd(
            st.lists(st.fixed_dictionaries({"type": st.just("summary_text"), "text": _values}))
        ),
        "encrypted_content": _or_odd(st.text(max_size=8)),
        "id": st.sampled_from(["rs_1", "fc_1", "msg_1"]),
    },
)  # fmt: skip
_documents = _or_odd(
    st.lists(_messages, max_size=4)
    | st.fixed_dictionaries(
        {"messages": st.lists(_messages, max_size=4)},
        optional={"system": _or_odd(st.text(max_size=5)), "model": st.just("gpt-4o")},
    )
    | st.lists(_response_items, max_size=4)
    | st.fixed_dictionaries(
        {"input": _or_odd(st.lists(_response_items | _messages, max_size=4))},
        optional={"instructions": _or_odd(st.text(max_size=5)), "model": st.just("gpt-5")},
    )
)
_records = st.fixed_dictionaries(
    {"type": st.sampled_from(["user", "assistant", "system", "queue-operation", "summary"])},
    optional={
        "uuid": st.sampled_from(["u1", "u2", "u3"]),
        "parentUuid": st.sampled_from(["u1", "u2"]) | st.none(),
        "sessionId": st.just("s"),
        "timestamp": st.sampled_from(["2025-01-01T00:00:00Z", "yesterday"]) | _integers,
        "message": _or_odd(_messages),
        "subtype": st.just("compact_boundary"),
        "operation": st.sampled_from(["enqueue", "remove"]),
        "content": st.text(max_size=8),
        "isMeta": st.booleans(),
        "requestId": st.just("r1"),
    },
)
_jsonl = st.lists(_or_odd(_records), min_size=1, max_size=5).map(
    lambda records: "".join(_written(record) + "\n" for record in records)
)
_transcript_texts = st.integers(0, 9).flatmap(
    lambda n: (
        _texts_of(_documents)
        if n < 5
        else _jsonl.flatmap(_damaged)
        if n < 9
        else st.text(max_size=40) | _texts_of(_values)
    )
)


@FUZZ
@given(_transcript_texts, st.sampled_from([None, *TranscriptFormat]))
def test_transcripts_read_or_are_refused(text: str, named: TranscriptFormat | None) -> None:
    parsed_or_refused(lambda: CODEC.detect(text))
    transcript = parsed_or_refused(lambda: CODEC.read(text, named))
    if transcript is None:
        return
    used = named or CODEC.detect(text)
    parsed_or_refused(lambda: transcript_usage(transcript, used, CODEC.provider(used)))
    # Written back in its own format it reads the same (compaction writes in the input's
    # format); written in another it converts or is refused.
    assert CODEC.read(CODEC.write(transcript, used), used) == transcript
    for target in TranscriptFormat:
        parsed_or_refused(functools.partial(CODEC.write, transcript, target))


@FUZZ
@given(_transcript_texts)
def test_resume_checks_report_problems_and_never_raise(text: str) -> None:
    assert all("\n" not in problem for problem in resume_problems(text))


@FUZZ
@given(_usage, st.sampled_from([None, "anthropic", "openai"]))
def test_usage_payloads_normalize_or_are_refused(payload: Any, provider: str | None) -> None:
    usage = parsed_or_refused(lambda: normalize_usage(payload, provider=provider))
    if usage is not None:
        figures = usage.model_dump(exclude={"usage_format", "service_tier"}).values()
        assert all(0 <= figure <= 10**12 for figure in figures if figure is not None)


_assistant_turns = st.fixed_dictionaries(
    {"role": st.just("assistant"), "content": st.just("ok"), "usage": _usage},
    optional={
        "id": st.sampled_from(["m1", "m2"]),
        "model": st.sampled_from(["claude-sonnet-4-5-20250929", "gpt-4o", "<synthetic>", ""]),
        "created": _integers | _floats | st.text(max_size=5),
        "created_at": st.sampled_from(["2025-01-01T00:00:00", "2025-13-01", ""]),
        "request_id": st.just("r1"),
    },
)
_usage_documents = st.lists(
    st.tuples(st.just({"role": "user", "content": "q"}), _assistant_turns), max_size=4
).map(lambda pairs: [message for pair in pairs for message in pair])
_usage_sessions = st.lists(
    st.fixed_dictionaries(
        {
            "type": st.just("assistant"),
            "uuid": st.sampled_from(["u1", "u2"]),
            "sessionId": st.just("s"),
            "message": st.fixed_dictionaries(
                {"role": st.just("assistant"), "content": st.just("ok"), "usage": _usage},
                optional={"id": st.sampled_from(["m1", "m2"]), "model": st.just("<synthetic>")},
            ),
        },
        optional={
            "timestamp": st.sampled_from(["2025-01-01T00:00:00Z", "2025-01-01", "no"]) | _integers,
            "requestId": st.just("r1"),
        },
    ),
    min_size=1,
    max_size=4,
).map(lambda records: "".join(_written(record) + "\n" for record in records))


@FUZZ
@given(
    st.tuples(_usage_documents.map(_written), st.sampled_from([None, *TranscriptFormat]))
    | st.tuples(_usage_sessions, st.sampled_from([None, TranscriptFormat.CLAUDE_CODE]))
)
def test_the_usage_of_transcripts_is_read_or_refused(
    case: tuple[str, TranscriptFormat | None],
) -> None:
    text, named = case
    transcript = parsed_or_refused(lambda: CODEC.read(text, named))
    if transcript is not None:
        used = named or CODEC.detect(text)
        found = parsed_or_refused(lambda: transcript_usage(transcript, used, CODEC.provider(used)))
        for request in found.requests if found else ():
            assert len(request.request_key) <= 200


# -- CLI inputs ----------------------------------------------------------------------------------


@FUZZ
@given(
    st.binary(max_size=64)
    | _transcript_texts.map(lambda text: text.encode("utf-8", "surrogatepass"))
)
def test_input_files_decode_or_are_refused(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "input"
    path.write_bytes(data)
    for read in (read_text_file, read_transcript_file):
        text = _read_or_usage_error(read, str(path))
        if isinstance(text, typer.BadParameter):  # the CLI's usage error: exit 2
            assert "\n" not in text.message
            continue
        parsed_or_refused(functools.partial(CODEC.read, text))


def _read_or_usage_error(read: Callable[[str], str], path: str) -> str | typer.BadParameter:
    try:
        return read(path)
    except typer.BadParameter as error:
        return error


@settings(FUZZ, max_examples=40)
@given(
    st.sampled_from(
        [
            ("context", "validate"),
            ("context", "compact"),
            ("metrics", "import"),
            ("context", "compare"),
        ]
    ),
    _transcript_texts,
)
def test_the_cli_answers_bad_transcripts_with_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    tmp_path: Path,
    command: tuple[str, str],
    text: str,
) -> None:
    path = tmp_path / "transcript.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    result = run(capsys, *command, str(path))
    assert result.exit_code in (0, 2), result.stderr
    if result.exit_code == 2:
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert result.stderr.startswith("error: ")


# -- stable prefix files -------------------------------------------------------------------------

_PREFIX_WORDS = st.sampled_from(
    [
        "core_rules", "project_instructions", "tools", "stable_facts", "professional_skills",
        "name", "description", "schema", "input_schema", "key", "value", "text", "title",
        "classification", "data_class", "stable_instruction", "credential", "type", "object",
        "properties", "required",
    ]
)  # fmt: skip
_prefix_values = _json_values(_PREFIX_WORDS)
_prefix_documents = st.fixed_dictionaries(
    {},
    optional={
        "core_rules": st.text(max_size=12) | _prefix_values,
        "project_instructions": st.text(max_size=12) | _prefix_values,
        "tools": st.lists(
            st.fixed_dictionaries(
                {"name": st.sampled_from(["read", "write", ""]) | _prefix_values},
                optional={"description": st.text(max_size=8), "input_schema": _prefix_values},
            ),
            max_size=3,
        )
        | _prefix_values,
        "stable_facts": st.dictionaries(st.text(max_size=4), _prefix_values, max_size=3)
        | st.lists(st.fixed_dictionaries({"key": _prefix_values, "value": _prefix_values}))
        | _prefix_values,
        "professional_skills": _prefix_values,
    },
)
_yaml_snippets = st.sampled_from(
    [
        "core_rules: |\n  Be exact.\n",
        "stable_facts:\n  python: 3.10\n  released: 2026-11-30\n",
        "tools:\n  - name: read\n    input_schema: {type: object}\n",
        "a: &x [1]\nb: *x\n<<: {c: 1}\n",
        "key: !!python/object:os.system ls\n",
        "x: .nan\ny: -.inf\nz: 0x1F\nw: 1_000\n",
        "dup: 1\ndup: 2\n",
        "? [a, b]\n: c\n",
        "- just\n- a list\n",
        "\t tabbed: value\n",
        "'unterminated\n",
        "stable_facts:\n  n: " + "9" * 5000 + "\n",
        "%YAML 1.1\n---\na: 1\n...\n---\nb: 2\n",
        "tools:\n  - name: r\n    input_schema: {x: .nan, y: .inf}\n",
        "tools:\n  - name: r\n    input_schema: {n: " + "9" * 4000 + "}\n",
        "tools:\n  - name: r\n    input_schema: " + "[" * 3000 + "\n",
        'stable_facts:\n  k: "\\ud800"\n',
        'core_rules: "\\U0001F600 \\x00 \\0"\n',
        "project_instructions: !!binary aGVsbG8=\n",
        "stable_facts:\n  ? !!set {a, b}\n  : 1\n",
    ]
)
_toml_snippets = st.sampled_from(
    [
        'core_rules = "Be exact."\n',
        "[stable_facts]\nreleased = 2026-11-30\nat = 13:45:02\nn = nan\nm = -inf\n",
        '[[tools]]\nname = "read"\n[tools.input_schema]\ntype = "object"\n',
        "a = 1\na = 2\n",
        "n = " + "9" * 5000 + "\n",
        "x = 1e999\n",
        "[a.b.c]\n[a]\nb = 1\n",
    ]
)


@FUZZ
@given(
    st.sampled_from(["prefix.yaml", "prefix.yml", "prefix.toml", "prefix.json"]),
    _texts_of(_prefix_documents)
    | _yaml_snippets.flatmap(_damaged)
    | _toml_snippets.flatmap(_damaged)
    | st.text(max_size=40),
)
def test_prefix_files_parse_and_build_or_are_refused(
    container: Container, source: str, text: str
) -> None:
    # JSON is a subset of YAML: the JSON-written documents exercise the YAML reader too.
    spec = parsed_or_refused(lambda: PrefixFileReader().parse(text, source=source))
    if spec is not None:
        builder = container.stable_prefix_builder()
        parsed_or_refused(lambda: builder.build(spec))


# -- context budget --------------------------------------------------------------------------------

_weight_numbers = st.sampled_from(
    [
        "0",
        "-1",
        "12.5",
        "1e999",
        "inf",
        "nan",
        "-inf",
        "0.0000001",
        "9" * 40,
        "9" * 5000,
        "1e-99",
        '"x"',
    ]
)
_weights_files = st.builds(
    lambda section, key, number: f"[{section}]\n{key} = {number}\n",
    st.sampled_from(["weights", "tiers", "compaction", "other"]),
    st.sampled_from(["spec", "log", "json", "yellow", "amber", "red", "nope"]),
    _weight_numbers,
).flatmap(_damaged)


@FUZZ
@given(
    _weights_files | st.text(max_size=30),
    st.lists(
        st.tuples(st.sampled_from(list(BudgetKind)), st.text(max_size=30)),
        min_size=1,
        max_size=3,
    ),
    # The CLI takes --available from 1 and --committed from 0, with no upper bound.
    st.integers(1, 10**6) | _awkward_integers.filter(lambda number: number >= 1),
    st.integers(0, 10**6) | _awkward_integers.filter(lambda number: number >= 0),
)
def test_budget_weights_and_plans_parse_or_are_refused(
    weights: str, artifacts: list[tuple[BudgetKind, str]], available: int, committed: int
) -> None:
    heuristics = parsed_or_refused(lambda: load_heuristics(weights, source="weights.toml"))
    if heuristics is None:
        return
    planner = ContextBudgetPlanner(_COUNTER)
    planned = [
        PlannedArtifact(path=f"a{index}", kind=kind, text=text)
        for index, (kind, text) in enumerate(artifacts)
    ]
    report = parsed_or_refused(
        lambda: planner.plan(planned, heuristics, available=available, committed=committed)
    )
    if report is not None:  # the planner's own output follows its contract
        check_contract(render_markdown(report))


_CONTRACT_LINES = st.sampled_from(
    [
        "# Context Budget Report",
        "## Summary",
        "## Artifacts",
        "## Recommended Compactions",
        "- Available: 200,000 tokens",
        "| Artifact | Kind | Lines | Weight | Estimated Tokens | Exact Tokens |",
        "|---|---|---|---|---|---|",
        "| spec.md | spec | 10 | 12.5 | 125 | - |",
        "| x | log | 99999999999999999999999 | 1e999 | NaN | -1 |",
        "none",
        "1. Compress log.txt",
        "",
    ]
)


@FUZZ
@given(
    st.lists(_CONTRACT_LINES | st.text(max_size=12), max_size=12).map("\n".join).flatmap(_damaged)
)
def test_budget_contracts_lint_or_are_refused(text: str) -> None:
    parsed_or_refused(lambda: check_contract(text))


def test_a_weights_file_with_a_huge_integer_is_refused() -> None:
    parsed_or_refused(lambda: load_heuristics(f"[weights]\nspec = {'9' * 5000}\n", "w.toml"))
