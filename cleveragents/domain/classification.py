"""Data classification: what may go where.

Stable instructions may enter the prompt prefix; dynamic messages take part in compaction;
tool previews may be shown to the model; complete output belongs in the artifact store;
credentials belong nowhere; external business data only in the store, never in a prefix.
"""

from __future__ import annotations

from enum import StrEnum

from cleveragents.domain.errors import InvalidInputError


class DataClass(StrEnum):
    STABLE_INSTRUCTION = "stable-instruction"
    DYNAMIC_MESSAGE = "dynamic-message"
    TOOL_PREVIEW = "tool-preview"
    COMPLETE_OUTPUT = "complete-output"
    CREDENTIAL = "credential"
    EXTERNAL_BUSINESS_DATA = "external-business-data"


class Destination(StrEnum):
    PROMPT_PREFIX = "prompt-prefix"
    COMPACTION = "compaction"
    MODEL_PREVIEW = "model-preview"
    ARTIFACT_STORE = "artifact-store"


ALLOWED: dict[DataClass, frozenset[Destination]] = {
    DataClass.STABLE_INSTRUCTION: frozenset({Destination.PROMPT_PREFIX}),
    DataClass.DYNAMIC_MESSAGE: frozenset({Destination.COMPACTION}),
    DataClass.TOOL_PREVIEW: frozenset({Destination.MODEL_PREVIEW, Destination.COMPACTION}),
    DataClass.COMPLETE_OUTPUT: frozenset({Destination.ARTIFACT_STORE}),
    DataClass.CREDENTIAL: frozenset(),
    DataClass.EXTERNAL_BUSINESS_DATA: frozenset({Destination.ARTIFACT_STORE}),
}


class ClassificationError(InvalidInputError):
    """Data of a class sent where that class may not go."""


def is_allowed(data_class: DataClass, destination: Destination) -> bool:
    return destination in ALLOWED[data_class]


def require_allowed(data_class: DataClass, destination: Destination) -> None:
    if not is_allowed(data_class, destination):
        allowed = ", ".join(sorted(ALLOWED[data_class])) or "nowhere"
        raise ClassificationError(
            f"{data_class} data may not go to the {destination} (allowed: {allowed})"
        )
