"""The limits of stored text, checked in the domain: one line naming the field and the limit."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.fragment import ContextFragment
from cleveragents.domain.plan import Plan
from cleveragents.domain.stored_text import check_optional_text, check_stored_text, refuse_nul
from cleveragents.domain.usage import TokenUsage, UsageFormat, UsageRecord
from cleveragents.domain.validation import build

DECISION = "01HX3Z8Q9V6W2Y4K5M7N8P0R1S"


def test_a_value_at_the_limit_is_kept_and_one_past_it_refused() -> None:
    assert check_stored_text("ü" * 200, "model", 200) == "ü" * 200
    with pytest.raises(InvalidInputError) as refused:
        check_stored_text("ü" * 201, "model", 200)
    assert str(refused.value) == "model is 201 characters long; at most 200 are allowed"


def test_a_nul_is_refused_saying_where() -> None:
    with pytest.raises(InvalidInputError) as refused:
        refuse_nul("ab\0c", "title")
    message = str(refused.value)
    assert message.startswith("title contains a NUL character (at character 2);")
    assert "\n" not in message


def test_an_absent_value_passes() -> None:
    assert check_optional_text(None, "message id", 200) is None


def test_the_models_refuse_nul_in_their_text() -> None:
    with pytest.raises(InvalidInputError, match=r"^title contains a NUL"):
        build(Plan, project_id=DECISION, title="a\0")
    with pytest.raises(InvalidInputError, match=r"^content contains a NUL"):
        build(
            ContextFragment,
            fragment_id="f",
            decision_id=DECISION,
            relevance=0.5,
            token_count=1,
            content="x\0",
        )


def test_a_usage_record_refuses_names_its_columns_cannot_hold() -> None:
    usage = TokenUsage(usage_format=UsageFormat.OPENAI_CHAT, output_tokens=1)
    fields = {
        "project_id": DECISION,
        "model": "m" * 201,
        "usage": usage,
        "request_key": "k",
        "recorded_at": "2026-12-01T00:00:00Z",
        "source": "log.json",
    }
    # (`build` takes the model class as `model`: validated directly, a ValidationError says it.)
    with pytest.raises(ValidationError, match="model is 201 characters long; at most 200"):
        UsageRecord.model_validate(fields)
    with pytest.raises(ValidationError, match="request_id is 201 characters long"):
        UsageRecord.model_validate({**fields, "model": "m", "request_id": "r" * 201})
    with pytest.raises(InvalidInputError, match=r"^service_tier is 51 characters long"):
        build(
            TokenUsage, usage_format=UsageFormat.OPENAI_CHAT, output_tokens=1, service_tier="t" * 51
        )
