"""Models by name: the pinned table against the locked catalog, the settings a model gives,
honest labels on counts, and counting what is sent (texts, message lists, whole requests), in
the Python API and the CLI, on the real tokenizers and the real catalog."""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import cleveragents
from cleveragents.cli.app import app
from cleveragents.container.models import build_model_profiles
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.models import (
    CLAUDE_2026_MARGIN,
    CLAUDE_MARGIN,
    MODEL_FAMILIES,
    RESERVE_CAP,
    Provider,
    UnknownModelError,
    model_family,
)
from cleveragents.domain.vocabulary import Encoding

runner = CliRunner()


def test_every_model_of_the_table_has_a_window_in_the_locked_catalog() -> None:
    profiles = build_model_profiles().all()
    assert [profile.name for profile in profiles] == [family.name for family in MODEL_FAMILIES]
    for profile in profiles:
        assert profile.context_window > 0
        assert 0 < profile.reserve_tokens <= min(RESERVE_CAP, profile.context_window // 4)


@pytest.mark.parametrize(
    ("name", "family", "encoding"),
    [
        ("gpt-4o", "gpt-4o", Encoding.O200K_BASE),
        ("gpt-4o-2024-08-06", "gpt-4o", Encoding.O200K_BASE),
        ("GPT-4o-mini", "gpt-4o-mini", Encoding.O200K_BASE),
        ("openai/gpt-4.1-nano", "gpt-4.1-nano", Encoding.O200K_BASE),
        ("gpt-5", "gpt-5", Encoding.O200K_BASE),
        ("o3-mini-2025-01-31", "o3-mini", Encoding.O200K_BASE),
        ("gpt-4-0613", "gpt-4", Encoding.CL100K_BASE),
        ("gpt-4-turbo-2024-04-09", "gpt-4-turbo", Encoding.CL100K_BASE),
        ("gpt-3.5-turbo", "gpt-3.5-turbo", Encoding.CL100K_BASE),
        ("claude-sonnet-4-5-20250929", "claude-sonnet-4-5", Encoding.CL100K_BASE),
        ("claude-sonnet-4-20250514", "claude-sonnet-4-0", Encoding.CL100K_BASE),
        ("claude-3-5-sonnet@20240620", "claude-3-5-sonnet", Encoding.CL100K_BASE),
        ("anthropic/claude-opus-4-7", "claude-opus-4-7", Encoding.CL100K_BASE),
    ],
)
def test_names_and_snapshots_resolve_to_their_family(
    name: str, family: str, encoding: Encoding
) -> None:
    found = model_family(name)
    assert found is not None
    assert found.name == family
    assert found.encoding is encoding


@pytest.mark.parametrize(
    "name", ["gpt-4o-audio-preview", "claude-sonnet-4-7", "llama-3-70b", "gpt-4o-mini-x", ""]
)
def test_other_names_are_unknown(name: str) -> None:
    assert model_family(name) is None


def test_claude_budgets_keep_the_margin_and_openai_ones_do_not() -> None:
    profiles = build_model_profiles()
    gpt = profiles.profile("gpt-4o")
    assert gpt.exact
    assert gpt.budget_window == gpt.context_window == 128_000
    assert gpt.reserve_tokens == 16_384 == gpt.budget_reserve
    sonnet = profiles.profile("claude-sonnet-4-5")
    assert not sonnet.exact
    assert sonnet.margin == CLAUDE_MARGIN
    assert sonnet.budget_window == int(Decimal(sonnet.context_window) / CLAUDE_MARGIN)
    assert sonnet.budget_window < sonnet.context_window
    assert profiles.profile("claude-opus-4-7").margin == CLAUDE_2026_MARGIN
    assert sonnet.count_method == "cl100k_base estimate"
    assert sonnet.provider is Provider.ANTHROPIC


def test_explicit_values_win_over_the_model() -> None:
    profiles = build_model_profiles()
    settings = profiles.settings(
        "gpt-4o", encoding="cl100k_base", context_window=30_000, reserve_tokens=None
    )
    assert (settings.encoding, settings.context_window) == ("cl100k_base", 30_000)
    assert settings.reserve_tokens is None  # derived from the given window by the policy
    both = profiles.settings("gpt-4o", context_window=30_000, reserve_tokens=500)
    assert both.reserve_tokens == 500


def test_an_unknown_model_says_how_to_give_window_and_encoding() -> None:
    with pytest.raises(UnknownModelError) as raised:
        cleveragents.count_tokens("hi", model="llama-3-70b")
    message = str(raised.value)
    assert "context_window" in message
    assert "encoding" in message
    assert "\n" not in message


# -- honest counts -------------------------------------------------------------------------------


def test_a_text_is_exact_for_openai_and_an_estimate_for_claude() -> None:
    text = "The quick brown fox jumps over the lazy dog."
    gpt = cleveragents.count_tokens(text, model="gpt-4o")
    assert gpt == cleveragents.count_tokens(text, encoding="o200k_base")
    assert gpt.exact
    assert gpt.encoding == "o200k_base"
    assert gpt.method == "o200k_base"
    claude = cleveragents.count_tokens(text, model="claude-sonnet-4-5")
    assert claude == cleveragents.count_tokens(text)
    assert claude.estimated
    assert claude.method == "cl100k_base estimate"
    assert claude.report()["estimated"] is True


def test_openai_chat_messages_count_with_the_documented_framing() -> None:
    messages = [
        {"role": "system", "content": "You are terse."},
        {"role": "user", "content": "Say hi to Ann.", "name": "bob"},
    ]
    counted = cleveragents.count_tokens(messages, model="gpt-4o-mini")
    plain = cleveragents.count_tokens
    content = sum(
        plain(value, encoding="o200k_base") for message in messages for value in message.values()
    )
    # 3 a message, 1 for the name, 3 priming the reply (OpenAI's cookbook)
    assert counted == content + 3 * 2 + 1 + 3
    assert counted.exact
    assert "3 tokens a message" in counted.method


def test_a_request_with_tools_is_an_estimate_that_counts_them() -> None:
    messages = [{"role": "user", "content": "What is the weather?"}]
    tools = [
        {
            "type": "function",
            "function": {
                "name": "weather",
                "description": "The weather in a city, today and for the next ten days.",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
            },
        }
    ]
    bare = cleveragents.count_tokens({"messages": messages}, model="gpt-4o")
    with_tools = cleveragents.count_tokens({"messages": messages, "tools": tools}, model="gpt-4o")
    assert bare.exact
    assert with_tools.estimated
    assert with_tools > bare + 20


def test_a_request_names_its_own_model() -> None:
    request = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hello world"}]}
    counted = cleveragents.count_tokens(request)
    assert counted.model == "gpt-4o"
    assert counted.encoding == "o200k_base"
    assert counted == 9
    anthropic = {
        "model": "claude-haiku-4-5",
        "system": "Be brief.",
        "messages": [{"role": "user", "content": "hello world"}],
    }
    estimate = cleveragents.count_tokens(anthropic)
    assert estimate.model == "claude-haiku-4-5"
    assert estimate.estimated
    assert estimate > cleveragents.count_tokens("Be brief.hello world")


# -- compaction ----------------------------------------------------------------------------------


def _conversation() -> list[dict[str, str]]:
    return [
        {"role": "user", "content": "Read the build log and fix the failing test. " * 400},
        {"role": "assistant", "content": "The failure is in parse_config. " * 400},
        {"role": "user", "content": "Now run the tests again."},
        {"role": "assistant", "content": "All tests pass."},
    ]


@pytest.mark.parametrize("model", ["gpt-4o-mini", "claude-sonnet-4-5"])
def test_compact_with_a_model_uses_its_window_and_says_how_it_counted(model: str) -> None:
    profile = build_model_profiles().profile(model)
    result = cleveragents.compact(_conversation(), model=model, force=True)
    assert result.status == "compacted"
    assert result.threshold == profile.budget_window - profile.budget_reserve
    assert result.estimated is (not profile.exact)
    assert result.count_method == profile.count_method
    assert result.report()["estimated"] is (not profile.exact)


def test_a_small_model_window_compacts_without_other_numbers() -> None:
    result = cleveragents.compact({"model": "gpt-4", "messages": _conversation()})
    assert result.status == "compacted"
    assert result.threshold == 8_192 - 2_048
    assert result.tokens_after <= result.threshold


def test_a_request_model_the_catalog_does_not_know_is_a_warning() -> None:
    result = cleveragents.compact({"model": "in-house-7b", "messages": _conversation()})
    assert result.status == "not-needed"
    assert any("in-house-7b" in warning for warning in result.warnings)


def test_compact_refuses_an_unknown_model_named_by_the_caller() -> None:
    with pytest.raises(UnknownModelError):
        cleveragents.compact(_conversation(), model="in-house-7b")


# -- the command line ----------------------------------------------------------------------------


def test_agents_models_lists_the_catalog() -> None:
    result = runner.invoke(app, ["models", "--json"])
    assert result.exit_code == 0, result.output
    rows = {row["name"]: row for row in json.loads(result.stdout)["models"]}
    assert rows["gpt-4o"]["exact"] is True
    assert rows["gpt-4o"]["encoding"] == "o200k_base"
    claude = rows["claude-sonnet-4-5"]
    assert claude["exact"] is False
    assert claude["margin"] == "1.30"
    assert claude["count_method"] == "cl100k_base estimate"
    table = runner.invoke(app, ["models"])
    assert "claude-sonnet-4-5" in table.stdout
    assert "estimated" in table.stdout


def test_tokens_count_messages_for_a_model(tmp_path: Path) -> None:
    request = tmp_path / "request.json"
    request.write_text(json.dumps([{"role": "user", "content": "hello world"}]))
    result = runner.invoke(
        app, ["tokens", "count", "--messages", str(request), "--model", "gpt-4o"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "input_tokens": 9,
        "estimated": False,
        "method": "o200k_base, with OpenAI's chat framing: 3 tokens a message, 1 a name, "
        "3 for the reply",
        "encoding": "o200k_base",
        "model": "gpt-4o",
    }


def test_tokens_count_of_a_text_for_claude_is_labelled(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello world")
    result = runner.invoke(app, ["tokens", "count", str(text), "--model", "claude-opus-4-7"])
    assert json.loads(result.stdout)["estimated"] is True
    plain = runner.invoke(app, ["tokens", "count", str(text)])
    assert json.loads(plain.stdout) == {"input_tokens": 2}  # the contract without --model


def test_cli_refuses_an_unknown_model_with_one_line(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    result = subprocess.run(
        [sys.executable, "-m", "cleveragents", "tokens", "count", str(text), "--model", "nope-1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "unknown model 'nope-1'" in result.stderr


def test_context_compact_with_a_model(tmp_path: Path) -> None:
    conversation = tmp_path / "conversation.json"
    conversation.write_text(json.dumps(_conversation()))
    result = runner.invoke(
        app,
        ["--db", f"sqlite:///{tmp_path / 'store.db'}", "context", "compact", str(conversation),
         "--model", "claude-sonnet-4-5", "--force", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    profile = build_model_profiles().profile("claude-sonnet-4-5")
    assert report["threshold"] == profile.budget_window - profile.budget_reserve
    assert report["estimated"] is True
    assert report["model"] == "claude-sonnet-4-5"


def test_context_compact_takes_a_request_files_own_model(tmp_path: Path) -> None:
    known = tmp_path / "request.json"
    known.write_text(json.dumps({"model": "gpt-4", "messages": _conversation()}))
    database = f"sqlite:///{tmp_path / 'store.db'}"
    result = runner.invoke(app, ["--db", database, "context", "compact", str(known), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["threshold"] == 8_192 - 2_048
    assert report["model"] == "gpt-4"
    unknown = tmp_path / "other.json"
    unknown.write_text(json.dumps({"model": "in-house-7b", "messages": _conversation()}))
    other = runner.invoke(app, ["--db", database, "context", "compact", str(unknown), "--json"])
    assert other.exit_code == 0, other.output
    assert json.loads(other.stdout)["threshold"] == 200_000 - 16_384  # the defaults
    assert "in-house-7b" in other.stderr


@given(st.text(max_size=60))
@settings(max_examples=300, deadline=None)
def test_any_name_resolves_or_is_unknown_never_raises_otherwise(name: str) -> None:
    found = model_family(name)
    if found is not None:
        assert (
            name.strip()
            .lower()
            .removeprefix(f"{found.provider.value}/")
            .startswith((found.name, *found.aliases))
        )


def test_a_huge_model_name_is_refused_in_one_short_line() -> None:
    with pytest.raises(UnknownModelError) as raised:
        cleveragents.count_tokens("hi", model="x" * 1_000_000)
    assert len(str(raised.value)) < 400


def test_a_hostile_request_model_field_is_ignored_or_refused() -> None:
    text = json.dumps({"model": "gpt-4o", "messages": _conversation()})
    assert cleveragents.compact(text).threshold == 128_000 - 16_384  # a request as text
    not_a_name = {"model": 42, "messages": _conversation()}
    assert cleveragents.compact(not_a_name).threshold == 200_000 - 16_384
    deep = '{"model": ' + "[" * 100_000 + "]" * 100_000 + ', "messages": []}'
    with pytest.raises(InvalidInputError):  # the reader's one line, never a RecursionError
        cleveragents.compact(deep)
