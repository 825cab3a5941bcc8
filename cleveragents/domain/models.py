"""Models by name: which tokenizer counts for a model, how honest that count is, and how much
of its window a budget may use.

The context window of a model and its prices come from the locked price catalog
(genai-prices, `ModelCatalog`); the catalog has no output limit and no tokenizer, so this
module pins them per model, with the safety margin a budget keeps where no offline count is
exact. Sources (see docs/models.md):

* Encodings: OpenAI's tiktoken maps the GPT-4o, GPT-4.1, GPT-5 and o-series models to
  ``o200k_base`` and GPT-4 / GPT-3.5 to ``cl100k_base``; their counts are exact.
* Output limits: each provider's model pages (OpenAI's model reference; Anthropic's models
  overview and per-model pages, e.g. Opus 4.6 and 4.8: 128K).
* Claude: no tokenizer is public. Counts are ``cl100k_base`` estimates. Measured on the same
  texts, Claude 3.5 Sonnet's tokenizer gave 16% (English), 21% (math) and 30% (Python) more
  tokens than GPT-4o's ``o200k_base`` (VentureBeat, May 2025), and ``cl100k_base`` never gives
  fewer tokens than ``o200k_base`` on such text, so 1.30 bounds Claude's count over ours for
  the models before Opus 4.7. Anthropic says the tokenizer of Opus 4.7 and later may use up
  to 1.35x the tokens of the earlier one; independent counts through Anthropic's own endpoint
  found up to 1.47x on English and technical text, hence 1.30 x 1.47 = 1.91, rounded up to
  1.95 for those models.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.vocabulary import Encoding

RESERVE_CAP = 32_768
"""The most a model's output reserve takes, whatever its output limit: a 128K-output model
keeps room for a long answer, not for its longest possible one, which would take a third of
a 400K window from the conversation."""
RESERVE_WINDOW_DIVISOR = 4
"""Nor more than a quarter of the window (the rule unset reserves follow in the policy)."""

CLAUDE_MARGIN = Decimal("1.30")
"""Claude models before Opus 4.7: budgets use 1/1.30 of the window (see the module doc)."""
CLAUDE_2026_MARGIN = Decimal("1.95")
"""Claude Opus 4.7 and later (a new tokenizer): budgets use 1/1.95 of the window."""


class Provider(StrEnum):
    OPENAI = "openai"
    ANTHROPIC = "anthropic"


class UnknownModelError(InvalidInputError):
    """A model the pinned table does not describe."""


@dataclass(frozen=True, slots=True)
class ModelFamily:
    """A model as the pinned table describes it: `name` is the catalog's id (its window and
    prices are looked up by it); `aliases` are other ids the provider gives it. `margin` is
    None where the offline count is the provider's own (a public tokenizer)."""

    name: str
    provider: Provider
    encoding: Encoding
    max_output: int
    margin: Decimal | None = None
    aliases: tuple[str, ...] = ()

    @property
    def exact(self) -> bool:
        return self.margin is None


def _openai(name: str, encoding: Encoding, max_output: int) -> ModelFamily:
    return ModelFamily(name, Provider.OPENAI, encoding, max_output)


def _claude(
    name: str, max_output: int, margin: Decimal = CLAUDE_MARGIN, aliases: tuple[str, ...] = ()
) -> ModelFamily:
    return ModelFamily(name, Provider.ANTHROPIC, Encoding.CL100K_BASE, max_output, margin, aliases)


_O200K = Encoding.O200K_BASE
_CL100K = Encoding.CL100K_BASE

MODEL_FAMILIES: tuple[ModelFamily, ...] = (
    _openai("gpt-3.5-turbo", _CL100K, 4_096),
    _openai("gpt-4", _CL100K, 8_192),
    _openai("gpt-4-turbo", _CL100K, 4_096),
    _openai("gpt-4o", _O200K, 16_384),
    _openai("gpt-4o-mini", _O200K, 16_384),
    _openai("chatgpt-4o-latest", _O200K, 16_384),
    _openai("gpt-4.1", _O200K, 32_768),
    _openai("gpt-4.1-mini", _O200K, 32_768),
    _openai("gpt-4.1-nano", _O200K, 32_768),
    _openai("gpt-5", _O200K, 128_000),
    _openai("gpt-5-mini", _O200K, 128_000),
    _openai("gpt-5-nano", _O200K, 128_000),
    _openai("o1", _O200K, 100_000),
    _openai("o1-mini", _O200K, 65_536),
    _openai("o3", _O200K, 100_000),
    _openai("o3-mini", _O200K, 100_000),
    _openai("o4-mini", _O200K, 100_000),
    _claude("claude-3-haiku", 4_096),
    _claude("claude-3-opus-latest", 4_096, aliases=("claude-3-opus",)),
    _claude("claude-3-5-haiku-latest", 8_192, aliases=("claude-3-5-haiku",)),
    _claude("claude-3-5-sonnet", 8_192),
    _claude("claude-3-7-sonnet-latest", 64_000, aliases=("claude-3-7-sonnet",)),
    _claude("claude-opus-4-0", 32_000, aliases=("claude-opus-4",)),
    _claude("claude-sonnet-4-0", 64_000, aliases=("claude-sonnet-4",)),
    _claude("claude-opus-4-1", 32_000),
    _claude("claude-sonnet-4-5", 64_000),
    _claude("claude-haiku-4-5", 64_000),
    _claude("claude-opus-4-5", 64_000),
    _claude("claude-opus-4-6", 128_000),
    _claude("claude-sonnet-4-6", 128_000),
    _claude("claude-opus-4-7", 128_000, CLAUDE_2026_MARGIN),
    _claude("claude-opus-4-8", 128_000, CLAUDE_2026_MARGIN),
)
"""The models resolved by name. A model missing here is refused with how to give its window
and encoding instead; adding one is a line here (its window comes from the catalog)."""

# A snapshot of a model keeps its family's figures: `gpt-4o-2024-08-06`, `gpt-4-0613`,
# `claude-sonnet-4-5-20250929`, `claude-3-5-sonnet@20240620` (Vertex), `...-latest`.
_SNAPSHOT = re.compile(r"(?:[-@](?:\d{8}|\d{4}-\d{2}-\d{2}|\d{4}|latest))?")


def model_family(model: str) -> ModelFamily | None:
    """The family of `model` (case and a ``provider/`` prefix ignored), the longest name that
    it is, or is a dated snapshot of; None when the table has none."""
    wanted = model.strip().lower()
    provider, slash, rest = wanted.partition("/")
    if slash and provider in {member.value for member in Provider}:
        wanted = rest
    best: ModelFamily | None = None
    best_length = -1
    for family in MODEL_FAMILIES:
        for name in (family.name, *family.aliases):
            if (
                len(name) > best_length
                and wanted.startswith(name)
                and _SNAPSHOT.fullmatch(wanted[len(name) :])
            ):
                best, best_length = family, len(name)
    return best


def unknown_model(model: str) -> UnknownModelError:
    """The one error for a model the table does not describe, saying what to give instead."""
    shown = model if len(model) <= 80 else model[:77] + "..."
    return UnknownModelError(
        f"unknown model {shown!r}: give the context window and the encoding instead "
        f"(context_window=N and encoding=cl100k_base|o200k_base in Python and MCP, "
        f"--context-window N --encoding ... on the command line); `agents models` lists "
        f"the models known by name"
    )


@dataclass(frozen=True, slots=True)
class ModelProfile:
    """What a model name stands for: the tokenizer that counts for it, whether that count is
    the provider's (`exact`) or an estimate, its window and output reserve as the provider
    states them, and the budget figures that keep the safety margin (`budget_window`,
    `budget_reserve`: what a compaction or a token budget uses, in the tokens counted here)."""

    name: str
    provider: Provider
    encoding: Encoding
    context_window: int
    max_output: int
    reserve_tokens: int
    margin: Decimal | None
    cache_support: str

    @property
    def exact(self) -> bool:
        return self.margin is None

    @property
    def count_method(self) -> str:
        """How a count for this model is made, as reports say it."""
        if self.exact:
            return f"{self.encoding.value} (the model's own tokenizer)"
        return f"{self.encoding.value} estimate"

    @property
    def budget_window(self) -> int:
        return within_margin(self.context_window, self.margin)

    @property
    def budget_reserve(self) -> int:
        if self.margin is None:
            return self.reserve_tokens
        return math.ceil(Decimal(self.reserve_tokens) / self.margin)


def output_reserve(max_output: int, context_window: int) -> int:
    """The output a compaction keeps room for: the model's limit, at most `RESERVE_CAP` and a
    quarter of the window."""
    return max(0, min(max_output, RESERVE_CAP, context_window // RESERVE_WINDOW_DIVISOR))


def within_margin(tokens: int, margin: Decimal | None) -> int:
    """`tokens` of the model as our count may reach them: divided by the margin, rounded down
    (at least 1 for a positive figure)."""
    if margin is None or tokens <= 0:
        return tokens
    return max(1, int(Decimal(tokens) / margin))


def profile_of(family: ModelFamily, context_window: int, cache_support: str) -> ModelProfile:
    """The profile of `family` under the catalog's window and cache support."""
    return ModelProfile(
        name=family.name,
        provider=family.provider,
        encoding=family.encoding,
        context_window=context_window,
        max_output=family.max_output,
        reserve_tokens=output_reserve(family.max_output, context_window),
        margin=family.margin,
        cache_support=cache_support,
    )
