"""Provider usage payloads to `TokenUsage` (truthful metrics).

* Anthropic Messages: ``input_tokens`` excludes the cache; ``cache_read_input_tokens`` and
  ``cache_creation_input_tokens`` (with its ``cache_creation`` split into five-minute and
  one-hour writes) come apart, and the total input is the sum of the three.
* OpenAI Chat Completions: ``prompt_tokens`` includes ``prompt_tokens_details.cached_tokens``;
  the uncached input is the difference. ``completion_tokens`` is the output, with
  ``completion_tokens_details.reasoning_tokens`` inside it. There is no cache-write figure.
* OpenAI Responses: the same with ``input_tokens``, ``input_tokens_details.cached_tokens``,
  ``output_tokens`` and ``output_tokens_details.reasoning_tokens``.

The format is detected from the payload's keys unless given. A figure the payload does not
carry is None (unknown), never 0; a malformed one is an `InvalidInputError` naming the key.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.stored_text import (
    MODEL_NAME_LENGTH,
    PROVIDER_ID_LENGTH,
    REQUEST_KEY_LENGTH,
    check_optional_text,
)
from cleveragents.domain.tokens import MAX_TOKEN_COUNT
from cleveragents.domain.transcript import Message, Role, Transcript, TranscriptFormat
from cleveragents.domain.usage import UNKNOWN_MODEL, TokenUsage, UsageFormat
from cleveragents.domain.validation import describe

_ANTHROPIC_KEYS = frozenset(
    {"cache_creation_input_tokens", "cache_read_input_tokens", "cache_creation", "server_tool_use"}
)
_CHAT_KEYS = frozenset({"prompt_tokens", "completion_tokens", "prompt_tokens_details"})
_RESPONSES_KEYS = frozenset({"input_tokens_details", "output_tokens_details"})


def detect_usage_format(payload: Mapping[str, Any], provider: str | None = None) -> UsageFormat:
    """The API that wrote `payload`, from its keys. `provider` ("anthropic" or "openai"), when
    known, settles a payload that either could have written (``input_tokens`` and
    ``output_tokens`` alone) and must agree with the keys."""
    keys = set(payload)
    signs = {
        UsageFormat.ANTHROPIC_MESSAGES: bool(keys & _ANTHROPIC_KEYS),
        UsageFormat.OPENAI_CHAT: bool(keys & _CHAT_KEYS),
        UsageFormat.OPENAI_RESPONSES: bool(keys & _RESPONSES_KEYS)
        or {"input_tokens", "total_tokens"} <= keys,
    }
    found = [usage_format for usage_format, seen in signs.items() if seen]
    if provider is not None:
        fitting = [usage_format for usage_format in found if usage_format.provider == provider]
        if found and not fitting:
            raise InvalidInputError(
                f"usage: the payload is {found[0].value} usage, not {provider}'s"
            )
        found = fitting or _bare(keys, provider)
    if len(found) == 1:
        return found[0]
    if not found:
        raise InvalidInputError(
            "usage: not an Anthropic or OpenAI usage payload (keys: "
            f"{', '.join(sorted(keys)) or 'none'}); name the provider if it is one"
        )
    names = " and ".join(usage_format.value for usage_format in found)
    raise InvalidInputError(f"usage: the payload has keys of both {names}")


def _bare(keys: set[str], provider: str) -> list[UsageFormat]:
    """``input_tokens`` and ``output_tokens`` alone: Anthropic's, or OpenAI Responses'."""
    if "input_tokens" not in keys:
        return []
    if provider == "anthropic":
        return [UsageFormat.ANTHROPIC_MESSAGES]
    return [UsageFormat.OPENAI_RESPONSES] if provider == "openai" else []


def normalize_usage(
    payload: Mapping[str, Any],
    usage_format: UsageFormat | None = None,
    *,
    provider: str | None = None,
) -> TokenUsage:
    """`payload` as `TokenUsage`; see the module docstring."""
    if not isinstance(payload, Mapping):
        raise InvalidInputError(f"usage: expected an object, not {type(payload).__name__}")
    usage_format = usage_format or detect_usage_format(payload, provider)
    if usage_format is UsageFormat.ANTHROPIC_MESSAGES:
        return _anthropic(payload)
    if usage_format is UsageFormat.OPENAI_CHAT:
        return _openai(
            payload,
            usage_format,
            "prompt_tokens",
            "completion_tokens",
            "prompt_tokens_details",
            "completion_tokens_details",
        )
    return _openai(
        payload,
        usage_format,
        "input_tokens",
        "output_tokens",
        "input_tokens_details",
        "output_tokens_details",
    )


def _anthropic(payload: Mapping[str, Any]) -> TokenUsage:
    uncached = _required(payload, "input_tokens")
    read = _optional(payload, "cache_read_input_tokens")
    write = _optional(payload, "cache_creation_input_tokens")
    split = _object(payload, "cache_creation")
    parts = (uncached, read, write)
    total = None if None in parts else sum(p for p in parts if p is not None)
    if total is not None and total > MAX_TOKEN_COUNT:
        raise InvalidInputError(
            f"usage: the input tokens add up to {total:,}, more than the {MAX_TOKEN_COUNT:,} "
            "tokens any request can report"
        )
    return _build(
        usage_format=UsageFormat.ANTHROPIC_MESSAGES,
        input_tokens=uncached,
        cache_read_tokens=read,
        cache_write_tokens=write,
        cache_write_5m_tokens=_optional(split, "ephemeral_5m_input_tokens", "cache_creation."),
        cache_write_1h_tokens=_optional(split, "ephemeral_1h_input_tokens", "cache_creation."),
        total_input_tokens=total,
        output_tokens=_required(payload, "output_tokens"),
        service_tier=_text(payload, "service_tier"),
    )


def _openai(
    payload: Mapping[str, Any],
    usage_format: UsageFormat,
    input_key: str,
    output_key: str,
    input_details_key: str,
    output_details_key: str,
) -> TokenUsage:
    total_input = _required(payload, input_key)
    details = _object(payload, input_details_key)
    cached = _optional(details, "cached_tokens", f"{input_details_key}.")
    if cached is not None and cached > total_input:
        raise InvalidInputError(
            f"usage: {input_details_key}.cached_tokens ({cached}) exceeds {input_key} "
            f"({total_input})"
        )
    return _build(
        usage_format=usage_format,
        input_tokens=None if cached is None else total_input - cached,
        cache_read_tokens=cached,
        total_input_tokens=total_input,
        output_tokens=_required(payload, output_key),
        reasoning_tokens=_optional(
            _object(payload, output_details_key), "reasoning_tokens", f"{output_details_key}."
        ),
        service_tier=_text(payload, "service_tier"),
    )


def _build(**fields: Any) -> TokenUsage:
    try:
        return TokenUsage(**fields)
    except ValidationError as error:
        original = error.errors()[0].get("ctx", {}).get("error")
        if isinstance(original, InvalidInputError):  # a text the store cannot keep as it is
            raise InvalidInputError(f"usage: {original}") from error
        raise InvalidInputError(f"usage: inconsistent figures: {describe(error)}") from error


def _required(payload: Mapping[str, Any], key: str) -> int:
    value = _optional(payload, key)
    if value is None:
        raise InvalidInputError(f"usage: {key!r} is missing")
    return value


def _optional(payload: Mapping[str, Any], key: str, prefix: str = "") -> int | None:
    value = payload.get(key)
    if value is None:
        return None
    # bool is an int in Python, never a token count.
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInputError(
            f"usage: {prefix}{key} must be a non-negative integer, not {_shown(value)}"
        )
    if value > MAX_TOKEN_COUNT:
        raise InvalidInputError(
            f"usage: {prefix}{key} is {_shown(value)}, more than the {MAX_TOKEN_COUNT:,} tokens "
            "any request can report"
        )
    return value


def _shown(value: object) -> str:
    """`value` as written, shortened when it is long (a figure of thousands of digits)."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:20]}...{text[-10:]} ({len(text):,} characters)"


def _object(payload: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = payload.get(key)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidInputError(f"usage: {key} must be an object, not {_shown(value)}")
    return value


def _text(payload: Mapping[str, Any], key: str) -> str | None:
    value = payload.get(key)
    return value if isinstance(value, str) and value else None


# -- transcripts ---------------------------------------------------------------------------------

# Where the transcript readers keep what a format carries beyond the neutral model (the
# constants of the same names in `cleveragents.adapters.transcripts`; a test holds them equal).
CLAUDE_CODE_EXTRA = "claude_code"
ANTHROPIC_EXTRA = "anthropic"
ANTHROPIC_REQUEST_EXTRA = "anthropic_request"
OPENAI_EXTRA = "openai"
OPENAI_REQUEST_EXTRA = "openai_request"
SYNTHETIC_MODEL = "<synthetic>"
"""Claude Code's model name for messages it wrote itself (no provider request was made)."""


@dataclass(frozen=True, slots=True)
class RequestUsage:
    """The usage of one provider request found in a transcript."""

    position: int  # the message's index in the transcript
    model: str
    usage: TokenUsage
    raw_usage: dict[str, Any]
    request_key: str
    message_id: str | None
    request_id: str | None
    requested_at: datetime | None


@dataclass(frozen=True, slots=True)
class TranscriptUsage:
    requests: tuple[RequestUsage, ...]
    synthetic: int  # Claude Code's own messages, which cost nothing and are not recorded


@dataclass(frozen=True, slots=True)
class _Facts:
    usage: Mapping[str, Any] | None
    model: str | None
    message_id: str | None
    request_id: str | None
    requested_at: datetime | None


def transcript_usage(
    transcript: Transcript, transcript_format: TranscriptFormat, provider: str
) -> TranscriptUsage:
    """Each provider request of `transcript` once, with its usage normalized.

    Claude Code writes one record per content block of an API message, each repeating the
    usage; the reader has merged them into one message, and a message id seen again anyway
    counts once (with its last usage, the final one). Every usage is checked before anything
    is returned: a malformed one is an `InvalidInputError` naming the message. `provider` is
    whose payloads they are (the codec's `provider` of the format)."""
    found: dict[str, RequestUsage] = {}
    occurrences: dict[str, int] = {}
    synthetic = 0
    for position, message in enumerate(transcript.messages):
        if message.role is not Role.ASSISTANT:
            continue
        facts = _facts(message, transcript, transcript_format)
        if facts.usage is None:
            continue
        if facts.model == SYNTHETIC_MODEL:
            synthetic += 1
            continue
        try:
            usage = normalize_usage(facts.usage, provider=provider)
            _check_names(facts)
        except InvalidInputError as error:
            raise InvalidInputError(f"transcript message {position}: {error}") from error
        key = _request_key(provider, facts, message, occurrences)
        first = found.get(key)
        found[key] = RequestUsage(
            position=position if first is None else first.position,
            model=facts.model or UNKNOWN_MODEL,
            usage=usage,
            raw_usage=dict(facts.usage),
            request_key=key,
            message_id=facts.message_id,
            request_id=facts.request_id,
            requested_at=facts.requested_at if first is None else first.requested_at,
        )
    return TranscriptUsage(requests=tuple(found.values()), synthetic=synthetic)


def _check_names(facts: _Facts) -> None:
    """The names a usage record keeps as they are: refused here, naming the message, when the
    store could not keep them (too long, or a NUL), rather than once the import is recorded."""
    check_optional_text(facts.model, "model", MODEL_NAME_LENGTH)
    check_optional_text(facts.message_id, "message id", PROVIDER_ID_LENGTH)
    check_optional_text(facts.request_id, "request id", PROVIDER_ID_LENGTH)


def _facts(message: Message, transcript: Transcript, transcript_format: TranscriptFormat) -> _Facts:
    if transcript_format is TranscriptFormat.CLAUDE_CODE:
        stored = _mapping(message.extra.get(CLAUDE_CODE_EXTRA))
        api, record = _mapping(stored.get("message")), _mapping(stored.get("record"))
        return _Facts(
            usage=message.usage,
            model=_string(api.get("model")),
            message_id=_string(api.get("id")),
            request_id=_string(record.get("requestId")),
            requested_at=_moment(record.get("timestamp")),
        )
    usage: Mapping[str, Any] | None = message.usage
    if transcript_format is TranscriptFormat.ANTHROPIC:
        keys = _mapping(message.extra.get(ANTHROPIC_EXTRA))
        request = _mapping(transcript.extra.get(ANTHROPIC_REQUEST_EXTRA))
    else:
        keys = _mapping(_mapping(message.extra.get(OPENAI_EXTRA)).get("keys"))
        request = _mapping(transcript.extra.get(OPENAI_REQUEST_EXTRA))
        # The OpenAI reader keeps a message's usage among its other keys.
        usage = usage or _mapping(keys.get("usage")) or None
    return _Facts(
        usage=usage,
        model=_string(keys.get("model")) or _string(request.get("model")),
        message_id=_string(keys.get("id")),
        request_id=_string(keys.get("request_id")),
        requested_at=_moment(keys.get("created_at", keys.get("created"))),
    )


def _request_key(
    provider: str, facts: _Facts, message: Message, occurrences: dict[str, int]
) -> str:
    """The message id, else the request id, else a fingerprint of the message (numbered when
    the same message occurs twice): the same request gets the same key in every import."""
    if facts.message_id is not None:
        key = f"{provider}:message:{facts.message_id}"
    elif facts.request_id is not None:
        key = f"{provider}:request:{facts.request_id}"
    else:
        canonical = json.dumps(
            message.model_dump(mode="json"), sort_keys=True, separators=(",", ":")
        )
        digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
        occurrences[digest] = occurrences.get(digest, 0) + 1
        key = f"{provider}:content:{digest}:{occurrences[digest]}"
    if len(key) > REQUEST_KEY_LENGTH:
        key = f"{provider}:sha256:{hashlib.sha256(key.encode('utf-8')).hexdigest()}"
    return key


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _string(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _moment(value: object) -> datetime | None:
    """An ISO 8601 timestamp (Claude Code) or Unix seconds (OpenAI's ``created``), in UTC."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        try:
            return datetime.fromtimestamp(value, UTC)
        except (OverflowError, OSError, ValueError):
            return None
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
