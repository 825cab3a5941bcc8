"""`count_tokens`: the real tokenizer's count of a text or of what is sent, for a model, said
exact or estimated, without the rest of the engine."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cleveragents.api.formats import TranscriptFormatName, transcript_format
from cleveragents.application.services.counting.token_count import TokenCountReport
from cleveragents.container import build_token_counter
from cleveragents.container.models import build_model_profiles, build_request_token_counting
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.vocabulary import DEFAULT_ENCODING

if TYPE_CHECKING:
    from cleveragents.application.ports.token_counter import TokenCounter
    from cleveragents.domain.transcript import TranscriptFormat

__all__ = ["TokenCount", "count_tokens"]

_counters: dict[str, TokenCounter] = {}
_lock = threading.Lock()


class TokenCount(int):
    """A token count (an `int`, so it adds and compares as one) that says how it was made:
    `exact` (the provider's own figure: a public tokenizer, or the provider's counting
    endpoint) or `estimated`, the `method` (``o200k_base``, ``cl100k_base estimate``, ...),
    the `encoding` counted with and the `model` counted for (None when none was named)."""

    exact: bool
    method: str
    encoding: str | None
    model: str | None

    def __new__(cls, report: TokenCountReport) -> TokenCount:
        made = super().__new__(cls, report.input_tokens)
        made.exact = report.exact
        made.method = report.method
        made.encoding = report.encoding
        made.model = report.model
        return made

    @property
    def estimated(self) -> bool:
        return not self.exact

    def report(self) -> dict[str, Any]:
        """As ``agents tokens count --json`` prints it: ``input_tokens``, ``estimated``,
        ``method``, ``encoding``, ``model``."""
        return {
            "input_tokens": int(self),
            "estimated": self.estimated,
            "method": self.method,
            "encoding": self.encoding,
            "model": self.model,
        }


def count_tokens(
    content: str | Mapping[str, Any] | Sequence[Mapping[str, Any]],
    *,
    encoding: str | None = None,
    model: str | None = None,
    format: TranscriptFormat | TranscriptFormatName | None = None,
    exact: bool = False,
) -> TokenCount:
    """The tokens of `content`: a text (a str), or what is sent to a model (a list of message
    dicts, or a request dict with ``messages`` and its ``system`` and ``tools``, in any format
    `compact` reads; `format` is detected when None).

    `model` (``"gpt-4o"``, ``"claude-sonnet-4-5"``; ``agents models`` lists them) picks the
    encoding and says whether the count is exact; a request dict's own ``"model"`` is used when
    `model` is None and the catalog knows it. `encoding` (``cl100k_base``, ``o200k_base``) wins
    over the model's. The result is an `int` that says how it was made: OpenAI models count
    exactly (messages with OpenAI's documented chat framing: 3 tokens a message, 1 a name, 3
    for the reply); Claude models, tools and formats without documented framing are labelled
    estimates (``.estimated``, ``.method``). ``exact=True`` asks the provider instead (Claude
    models: Anthropic's counting endpoint, with the ``anthropic-count`` extra and
    ``ANTHROPIC_API_KEY``; this sends the content to Anthropic).

    Raises `UnknownModelError` for a model not in the catalog (give `encoding` instead),
    `UnknownEncodingError` for another encoding, `InvalidInputError` for malformed messages and
    `TokenCountingError` when the count cannot be made. Loads only the tokenizer and the
    catalog (no database), once per process.

    >>> count_tokens("hello world")
    2
    >>> count_tokens([{"role": "user", "content": "hello world"}], model="gpt-4o").exact
    True
    """
    if isinstance(content, str) and model is None and not exact:
        return TokenCount(_plain(content, str(encoding or DEFAULT_ENCODING)))
    profiles = build_model_profiles()
    if model is None and isinstance(content, Mapping):
        profile = profiles.find(content.get("model"))
    else:
        profile = profiles.profile(model) if model is not None else None
    chosen = str(encoding or (profile.encoding if profile else DEFAULT_ENCODING))
    counting = build_request_token_counting()
    if isinstance(content, str):
        return TokenCount(counting.count_text(content, chosen, profile, exact=exact))
    if not isinstance(content, Mapping | Sequence):
        raise InvalidInputError("count_tokens takes a str, a list of messages or a request dict")
    return TokenCount(
        counting.count_messages(
            content, chosen, profile, transcript_format=transcript_format(format), exact=exact
        )
    )


def _plain(text: str, encoding: str) -> TokenCountReport:
    return TokenCountReport(_counter(encoding).count(text), True, encoding, encoding)


def _counter(encoding: str) -> TokenCounter:
    with _lock:
        if encoding not in _counters:
            _counters[encoding] = build_token_counter(encoding)
        return _counters[encoding]
