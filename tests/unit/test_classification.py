"""Data classification: credentials go nowhere, complete output only to the store."""

from __future__ import annotations

import pytest

from cleveragents.domain.classification import (
    ClassificationError,
    DataClass,
    Destination,
    is_allowed,
    require_allowed,
)


@pytest.mark.parametrize("destination", list(Destination))
def test_credentials_go_nowhere(destination: Destination) -> None:
    assert not is_allowed(DataClass.CREDENTIAL, destination)
    with pytest.raises(ClassificationError, match="nowhere"):
        require_allowed(DataClass.CREDENTIAL, destination)


def test_each_class_has_its_place() -> None:
    assert is_allowed(DataClass.STABLE_INSTRUCTION, Destination.PROMPT_PREFIX)
    assert not is_allowed(DataClass.DYNAMIC_MESSAGE, Destination.PROMPT_PREFIX)
    assert is_allowed(DataClass.DYNAMIC_MESSAGE, Destination.COMPACTION)
    assert is_allowed(DataClass.COMPLETE_OUTPUT, Destination.ARTIFACT_STORE)
    assert not is_allowed(DataClass.COMPLETE_OUTPUT, Destination.PROMPT_PREFIX)
    assert not is_allowed(DataClass.COMPLETE_OUTPUT, Destination.MODEL_PREVIEW)
    assert is_allowed(DataClass.TOOL_PREVIEW, Destination.MODEL_PREVIEW)
    assert not is_allowed(DataClass.EXTERNAL_BUSINESS_DATA, Destination.PROMPT_PREFIX)
