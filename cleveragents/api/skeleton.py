"""The skeleton compressor without a store: what a child plan would inherit of some fragments."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from cleveragents.api.tokens import count_tokens
from cleveragents.container.factories import skeleton_compressor_service
from cleveragents.domain.fragment import ContextFragment
from cleveragents.domain.ids import new_ulid
from cleveragents.domain.validation import build
from cleveragents.domain.vocabulary import DEFAULT_ENCODING

if TYPE_CHECKING:
    from cleveragents.application.services.plans.skeleton_compressor import SkeletonResult

DEFAULT_RELEVANCE = 0.5


def compress_skeleton(
    fragments: Iterable[ContextFragment], ratio: float | None = None
) -> SkeletonResult:
    """The fragments a child keeps: the most relevant within ``original_tokens * (1 -
    ratio)`` tokens (ratio None: 0.3), ranked by ``(-relevance, fragment_id)``; the top one
    is always kept. `result.metadata` is the audit record (ratio, tokens before and after, the
    kept decisions). Raises `InvalidRatioError` (a `ValueError`) for a ratio outside [0, 1]
    and `InvalidInputError` for duplicate fragment ids. Pure: no store, no tokenizer."""
    return skeleton_compressor_service().compress(fragments, ratio)


def make_fragment(
    content: str,
    *,
    relevance: float = DEFAULT_RELEVANCE,
    fragment_id: str | None = None,
    token_count: int | None = None,
    encoding: str = DEFAULT_ENCODING,
) -> ContextFragment:
    """A context fragment of `content` with a new decision id (a ULID; also the fragment id
    when none is given); its tokens counted with the real tokenizer when `token_count` is
    None. Raises `InvalidInputError` for a relevance outside [0, 1] or a blank id."""
    decision_id = new_ulid()
    return build(
        ContextFragment,
        fragment_id=decision_id if fragment_id is None else fragment_id,
        decision_id=decision_id,
        relevance=relevance,
        token_count=count_tokens(content, encoding=encoding)
        if token_count is None
        else token_count,
        content=content,
    )
