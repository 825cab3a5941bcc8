"""Context fragments: the unit of context that plans accumulate and children inherit."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cleveragents.domain.ids import parse_ulid
from cleveragents.domain.stored_text import FRAGMENT_ID_LENGTH, refuse_nul
from cleveragents.domain.tokens import MAX_TOKEN_COUNT


class ContextFragment(BaseModel):
    """One piece of context, carried by exactly one decision.

    `relevance` ranks fragments for skeleton compression; `token_count` is what the fragment costs
    in a prompt (the real tokenizer's count of `content` unless the caller states it).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    fragment_id: str = Field(min_length=1, max_length=FRAGMENT_ID_LENGTH)
    decision_id: str
    relevance: float = Field(ge=0.0, le=1.0, allow_inf_nan=False)
    token_count: int = Field(ge=0, le=MAX_TOKEN_COUNT)
    content: str = ""

    @field_validator("fragment_id")
    @classmethod
    def _fragment_id_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("fragment_id must not be blank")
        return refuse_nul(value, "fragment_id")

    @field_validator("content")
    @classmethod
    def _content_without_nul(cls, value: str) -> str:
        return refuse_nul(value, "content")

    @field_validator("decision_id")
    @classmethod
    def _decision_id_is_ulid(cls, value: str) -> str:
        return parse_ulid(value, "decision id")
