"""Usage payloads normalized (golden), transcripts' requests counted once, costs by the rules."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest

from cleveragents.adapters.transcripts import anthropic_messages, claude_code_jsonl, openai_chat
from cleveragents.adapters.transcripts.json_transcript_codec import JsonTranscriptCodec
from cleveragents.application.services.metrics import usage_normalization
from cleveragents.application.services.metrics.usage_normalization import (
    detect_usage_format,
    normalize_usage,
    transcript_usage,
)
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.model_catalog import (
    CatalogEntry,
    CostBreakdown,
    CostFigure,
    ModelPricing,
    Rate,
    RateTier,
    request_cost,
)
from cleveragents.domain.tokens import MAX_TOKEN_COUNT
from cleveragents.domain.transcript import TranscriptFormat
from cleveragents.domain.usage import TokenFigure, TokenUsage, UsageFormat
from tests.conftest import TEST_DATA

USAGE_DATA = TEST_DATA / "usage"
GOLDEN: dict[str, Any] = json.loads((USAGE_DATA / "golden.json").read_text())
PAYLOADS = sorted(name for name in GOLDEN if not name.startswith("_"))
CODEC = JsonTranscriptCodec()


def _payload(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((USAGE_DATA / name).read_text())
    return document


# -- payloads ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PAYLOADS)
def test_each_payload_normalizes_to_its_golden_figures(name: str) -> None:
    usage = normalize_usage(_payload(name)["usage"])
    assert usage.model_dump(mode="json") == GOLDEN[name]["tokens"]


@pytest.mark.parametrize("name", PAYLOADS)
def test_the_format_is_detected_from_the_keys_alone(name: str) -> None:
    expected = UsageFormat(GOLDEN[name]["tokens"]["usage_format"])
    assert detect_usage_format(_payload(name)["usage"]) is expected


def test_anthropic_input_excludes_the_cache_and_the_total_adds_it() -> None:
    usage = normalize_usage(
        {
            "input_tokens": 10,
            "cache_read_input_tokens": 300,
            "cache_creation_input_tokens": 50,
            "output_tokens": 7,
        }
    )
    assert (usage.input_tokens, usage.cache_read_tokens, usage.cache_write_tokens) == (10, 300, 50)
    assert usage.total_input_tokens == 360
    assert usage.cache_write_1h_tokens is None  # no `cache_creation` split: unknown, not 0


def test_openai_prompt_tokens_include_the_cached_ones_and_cache_writes_are_unknown() -> None:
    usage = normalize_usage(
        {
            "prompt_tokens": 1000,
            "completion_tokens": 5,
            "prompt_tokens_details": {"cached_tokens": 800},
        }
    )
    assert (usage.input_tokens, usage.cache_read_tokens, usage.total_input_tokens) == (
        200,
        800,
        1000,
    )
    assert usage.cache_write_tokens is None


def test_openai_without_cached_tokens_leaves_the_cache_split_unknown() -> None:
    usage = normalize_usage({"prompt_tokens": 40, "completion_tokens": 2})
    assert usage.total_input_tokens == 40
    assert usage.input_tokens is None
    assert usage.cache_read_tokens is None


def test_missing_anthropic_cache_figures_make_the_total_unknown() -> None:
    usage = normalize_usage({"input_tokens": 12, "output_tokens": 3}, provider="anthropic")
    assert usage.input_tokens == 12
    assert usage.cache_read_tokens is None
    assert usage.total_input_tokens is None


def test_bare_input_and_output_need_the_provider() -> None:
    bare = {"input_tokens": 12, "output_tokens": 3}
    with pytest.raises(InvalidInputError, match="name the provider"):
        detect_usage_format(bare)
    assert detect_usage_format(bare, "anthropic") is UsageFormat.ANTHROPIC_MESSAGES
    assert detect_usage_format(bare, "openai") is UsageFormat.OPENAI_RESPONSES


def test_a_provider_contradicting_the_keys_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="openai-chat usage, not anthropic"):
        detect_usage_format({"prompt_tokens": 1, "completion_tokens": 1}, "anthropic")


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"input_tokens": -1, "output_tokens": 1, "cache_read_input_tokens": 0}, "input_tokens"),
        ({"input_tokens": True, "output_tokens": 1, "cache_read_input_tokens": 0}, "input_tokens"),
        ({"input_tokens": "5", "output_tokens": 1, "cache_read_input_tokens": 0}, "input_tokens"),
        ({"cache_read_input_tokens": 0, "output_tokens": 1}, "'input_tokens' is missing"),
        ({"prompt_tokens": 5, "completion_tokens": 1, "prompt_tokens_details": 3}, "object"),
        (
            {
                "prompt_tokens": 5,
                "completion_tokens": 1,
                "prompt_tokens_details": {"cached_tokens": 9},
            },
            "exceeds prompt_tokens",
        ),
        ({"total": 3}, "not an Anthropic or OpenAI usage payload"),
    ],
)
def test_malformed_usage_is_a_clear_error(payload: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        normalize_usage(payload)


@pytest.mark.parametrize(
    "payload",
    [
        {"input_tokens": 2**63, "output_tokens": 1, "cache_read_input_tokens": 0},
        {"input_tokens": 1, "output_tokens": MAX_TOKEN_COUNT + 1, "cache_read_input_tokens": 0},
        {"prompt_tokens": 10**4000, "completion_tokens": 1},
        {"input_tokens": 5, "output_tokens": 1, "output_tokens_details": {"reasoning_tokens": -1}},
        {
            "input_tokens": 1,
            "output_tokens": 1,
            "cache_creation_input_tokens": 0,
            "cache_creation": {"ephemeral_1h_input_tokens": 2**64},
        },
    ],
)
def test_figures_past_the_bound_or_negative_are_refused_in_one_line(
    payload: dict[str, Any],
) -> None:
    with pytest.raises(InvalidInputError) as caught:
        normalize_usage(payload)
    assert "\n" not in str(caught.value)
    assert len(str(caught.value)) < 200  # a figure of thousands of digits is shortened


def test_a_total_input_past_the_bound_is_refused_in_one_line() -> None:
    payload = {
        "input_tokens": MAX_TOKEN_COUNT,
        "cache_read_input_tokens": MAX_TOKEN_COUNT,
        "cache_creation_input_tokens": 1,
        "output_tokens": 1,
    }
    with pytest.raises(InvalidInputError, match="the input tokens add up to 2,000,000,000,001"):
        normalize_usage(payload)


def test_figures_up_to_the_bound_are_kept_exactly() -> None:
    payload = {"input_tokens": MAX_TOKEN_COUNT, "output_tokens": MAX_TOKEN_COUNT}
    usage = normalize_usage(payload, provider="anthropic")
    assert (usage.input_tokens, usage.output_tokens) == (MAX_TOKEN_COUNT, MAX_TOKEN_COUNT)


def test_an_unavailable_figure_cannot_be_zero_and_unavailable_at_once() -> None:
    with pytest.raises(ValueError, match="not both"):
        TokenFigure(value=0, unavailable="unknown")
    with pytest.raises(ValueError, match="not both"):
        CostFigure(usd=Decimal(0), unavailable="unknown")
    with pytest.raises(ValueError, match="no cache-write figure"):
        TokenUsage(usage_format=UsageFormat.OPENAI_CHAT, cache_write_tokens=0, output_tokens=1)


# -- transcripts ---------------------------------------------------------------------------------


def test_the_extra_keys_match_the_transcript_readers() -> None:
    assert usage_normalization.CLAUDE_CODE_EXTRA == claude_code_jsonl.CLAUDE_CODE
    assert usage_normalization.ANTHROPIC_EXTRA == anthropic_messages.MESSAGE_KEYS
    assert usage_normalization.ANTHROPIC_REQUEST_EXTRA == anthropic_messages.REQUEST
    assert usage_normalization.OPENAI_EXTRA == openai_chat.OPENAI
    assert usage_normalization.OPENAI_REQUEST_EXTRA == openai_chat.REQUEST


def test_a_claude_code_message_split_over_five_records_counts_once() -> None:
    text = (USAGE_DATA / "claude-code-short.jsonl").read_text()
    assert text.count('"id":"msg_01MKH1ccEGrZGNPvu8pYiiQa"') == 5
    found = transcript_usage(
        CODEC.read(text), TranscriptFormat.CLAUDE_CODE, CODEC.provider(TranscriptFormat.CLAUDE_CODE)
    )
    assert len(found.requests) == 1
    request = found.requests[0]
    assert request.model == "claude-opus-4-6"
    assert request.message_id == "msg_01MKH1ccEGrZGNPvu8pYiiQa"
    assert request.request_id == "req_011CY15QS2LGwAeBxdfa6e1V"
    assert request.request_key == "anthropic:message:msg_01MKH1ccEGrZGNPvu8pYiiQa"
    assert request.requested_at == datetime(2026, 2, 10, 21, 11, 59, 186000, tzinfo=UTC)
    usage = request.usage
    assert (usage.input_tokens, usage.cache_read_tokens, usage.cache_write_tokens) == (
        3,
        11515,
        13835,
    )
    assert (usage.cache_write_5m_tokens, usage.cache_write_1h_tokens) == (0, 13835)
    assert usage.total_input_tokens == 3 + 11515 + 13835
    assert usage.output_tokens == 13


def _record(message_id: str, model: str, usage: dict[str, Any], uuid: str) -> str:
    return json.dumps(
        {
            "type": "assistant",
            "uuid": uuid,
            "sessionId": "s",
            "timestamp": "2026-02-10T21:00:00Z",
            "message": {
                "id": message_id,
                "model": model,
                "role": "assistant",
                "content": [{"type": "text", "text": uuid}],
                "usage": usage,
            },
        }
    )


def test_a_message_id_seen_again_later_counts_once_with_its_last_usage() -> None:
    early = {"input_tokens": 1, "cache_read_input_tokens": 0, "output_tokens": 2}
    final = {"input_tokens": 1, "cache_read_input_tokens": 0, "output_tokens": 90}
    other = {"input_tokens": 4, "cache_read_input_tokens": 0, "output_tokens": 5}
    user = json.dumps(
        {
            "type": "user",
            "uuid": "u",
            "sessionId": "s",
            "message": {"role": "user", "content": "hi"},
        }
    )
    lines = [
        user,
        _record("msg_a", "claude-opus-4-6", early, "1"),
        user,
        _record("msg_b", "claude-opus-4-6", other, "2"),
        user,
        _record("msg_a", "claude-opus-4-6", final, "3"),
        _record("msg_c", "<synthetic>", {"input_tokens": 0, "output_tokens": 0}, "4"),
    ]
    found = transcript_usage(
        CODEC.read("\n".join(lines)),
        TranscriptFormat.CLAUDE_CODE,
        CODEC.provider(TranscriptFormat.CLAUDE_CODE),
    )
    assert [r.message_id for r in found.requests] == ["msg_a", "msg_b"]
    assert found.requests[0].usage.output_tokens == 90
    assert found.synthetic == 1


def test_a_bad_usage_names_the_message() -> None:
    line = _record("msg_x", "claude-opus-4-6", {"input_tokens": -3, "output_tokens": 1}, "1")
    with pytest.raises(InvalidInputError, match="transcript message 0: usage: input_tokens"):
        transcript_usage(
            CODEC.read(line),
            TranscriptFormat.CLAUDE_CODE,
            CODEC.provider(TranscriptFormat.CLAUDE_CODE),
        )


def test_messages_without_ids_are_keyed_by_content_stably() -> None:
    usage = {"input_tokens": 5, "cache_read_input_tokens": 0, "output_tokens": 1}
    document = {
        "model": "claude-sonnet-4-5",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "ok", "usage": usage},
            {"role": "user", "content": "again"},
            {"role": "assistant", "content": "ok", "usage": usage},
        ],
    }
    text = json.dumps(document)
    first = transcript_usage(
        CODEC.read(text), TranscriptFormat.ANTHROPIC, CODEC.provider(TranscriptFormat.ANTHROPIC)
    )
    again = transcript_usage(
        CODEC.read(text), TranscriptFormat.ANTHROPIC, CODEC.provider(TranscriptFormat.ANTHROPIC)
    )
    keys = [request.request_key for request in first.requests]
    assert keys == [request.request_key for request in again.requests]
    assert len(set(keys)) == 2  # the same message twice: two requests
    assert keys[0].startswith("anthropic:content:")
    assert keys[1].endswith(":2")
    assert {request.model for request in first.requests} == {"claude-sonnet-4-5"}


def test_openai_transcript_usage_is_read_from_the_message_keys() -> None:
    document = {
        "model": "gpt-4o",
        "messages": [
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": "hello",
                "id": "chatcmpl-1",
                "created": 1741569952,
                "usage": _payload("openai-chat-completion.json")["usage"],
            },
        ],
    }
    found = transcript_usage(
        CODEC.read(json.dumps(document)),
        TranscriptFormat.OPENAI,
        CODEC.provider(TranscriptFormat.OPENAI),
    )
    (request,) = found.requests
    assert request.request_key == "openai:message:chatcmpl-1"
    assert request.model == "gpt-4o"
    assert request.usage.cache_read_tokens == 1920
    assert request.requested_at == datetime.fromtimestamp(1741569952, UTC)


# -- costs ---------------------------------------------------------------------------------------


def _entry(**rates: Rate | None) -> CatalogEntry:
    return CatalogEntry(provider="p", model_id="m", pricing=ModelPricing(**rates))


def _rate(usd: str, *tiers: tuple[int, str]) -> Rate:
    return Rate(
        usd_per_mtok=Decimal(usd),
        tiers=tuple(RateTier(start=start, usd_per_mtok=Decimal(p)) for start, p in tiers),
    )


ANTHROPIC = TokenUsage(
    usage_format=UsageFormat.ANTHROPIC_MESSAGES,
    input_tokens=1_000,
    cache_read_tokens=2_000_000,
    cache_write_tokens=300_000,
    cache_write_1h_tokens=100_000,
    total_input_tokens=2_301_000,
    output_tokens=10_000,
)


def test_each_part_is_priced_at_its_own_rate_and_one_hour_writes_at_theirs() -> None:
    entry = _entry(
        input=_rate("3"),
        cache_read=_rate("0.3"),
        cache_write=_rate("3.75"),
        cache_write_1h=_rate("6"),
        output=_rate("15"),
    )
    cost = request_cost(ANTHROPIC, entry)
    assert cost.input.usd == Decimal("0.003")
    assert cost.cache_read.usd == Decimal("0.6")
    assert cost.cache_write.usd == Decimal("0.75") + Decimal("0.6")  # 200k at 3.75, 100k at 6
    assert cost.output.usd == Decimal("0.15")
    assert cost.total.usd == Decimal("2.103")
    assert cost.cache_read_savings.usd == Decimal("6") - Decimal("0.6")
    assert cost.cache_write_premium.usd == Decimal("1.35") - Decimal("0.9")


def test_a_tier_applies_one_rate_to_the_whole_request_by_its_total_input() -> None:
    entry = _entry(input=_rate("3", (200_000, "6")), output=_rate("15", (200_000, "22.5")))
    small = ANTHROPIC.model_copy(
        update={
            "cache_read_tokens": 0,
            "cache_write_tokens": 0,
            "cache_write_1h_tokens": 0,
            "input_tokens": 200_000,
            "total_input_tokens": 200_000,
        }
    )
    large = small.model_copy(update={"input_tokens": 200_001, "total_input_tokens": 200_001})
    assert request_cost(small, entry).input.usd == Decimal("0.6")
    assert request_cost(large, entry).input.usd == Decimal("1.200006")
    assert request_cost(large, entry).output.usd == Decimal("0.225")


def test_a_tier_with_an_unknown_total_is_unavailable_not_guessed() -> None:
    entry = _entry(input=_rate("3", (200_000, "6")), output=_rate("15"))
    usage = TokenUsage(
        usage_format=UsageFormat.ANTHROPIC_MESSAGES, input_tokens=10, output_tokens=1
    )
    cost = request_cost(usage, entry)
    assert cost.input.usd is None
    assert "tiered" in (cost.input.unavailable or "")
    assert cost.output.usd == Decimal("0.000015")


def test_no_cache_price_means_cache_costs_unavailable_and_cache_tokens_billed_as_input() -> None:
    entry = _entry(input=_rate("10"), output=_rate("30"))
    cost = request_cost(ANTHROPIC, entry)
    assert cost.input.usd == Decimal("23.01")  # every input token at the input price
    for part in (cost.cache_read, cost.cache_write, cost.cache_read_savings):
        assert part.usd is None
        assert "cache support unavailable" in (part.unavailable or "")
    assert cost.total_excludes == ("cache_read", "cache_write")


def test_openai_cache_writes_are_unavailable_never_zero() -> None:
    entry = _entry(input=_rate("2.5"), cache_read=_rate("1.25"), output=_rate("10"))
    usage = normalize_usage(_payload("openai-chat-completion.json")["usage"])
    cost = request_cost(usage, entry)
    assert cost.cache_write.usd is None
    assert cost.cache_write.unavailable is not None
    assert cost.cache_write_premium.usd is None
    assert cost.total_excludes == ("cache_write",)


def test_sums_keep_unavailable_parts_unavailable() -> None:
    entry = _entry(input=_rate("1"), cache_read=_rate("0.1"), output=_rate("2"))
    known = request_cost(
        normalize_usage(
            {
                "prompt_tokens": 10,
                "completion_tokens": 1,
                "prompt_tokens_details": {"cached_tokens": 4},
            }
        ),
        entry,
    )
    unknown = request_cost(normalize_usage({"prompt_tokens": 10, "completion_tokens": 1}), entry)
    total = known.plus(unknown)
    assert total.input.usd is None
    assert total.cache_read.usd is None
    assert total.output.usd == Decimal("0.000004")
    assert known.plus(known).input.usd == Decimal("0.000012")
    assert CostBreakdown.zero().plus(known) == known
    everything_missing = CostBreakdown.unavailable("model 'x' is not in the catalog")
    assert everything_missing.total.usd is None
    assert everything_missing.total.unavailable == "model 'x' is not in the catalog"


def test_a_part_one_request_cannot_price_does_not_drop_the_others_amounts() -> None:
    cached = _entry(input=_rate("2.5"), cache_read=_rate("1.25"), output=_rate("10"))
    uncached = _entry(input=_rate("10"), output=_rate("30"))
    usage = normalize_usage(_payload("openai-chat-completion.json")["usage"])
    first, second = request_cost(usage, cached), request_cost(usage, uncached)
    both = first.plus(second)
    assert both.cache_read.usd is None  # the second request has no cache-read price
    assert both.total.usd == (first.total.usd or 0) + (second.total.usd or 0)
    assert both.total_excludes == ("cache_read", "cache_write")
    unpriced = CostBreakdown.unavailable("model 'x' is not in the catalog")
    assert first.plus(unpriced).total == first.total
    assert unpriced.plus(unpriced).total.usd is None
