"""What a stable prefix is built from: its sections, its items and the spec that holds them.

Validation normalises as it goes (texts, tool and fact order), so two specs with the same
content are equal whatever order they were written in.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from itertools import pairwise
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, JsonValue, field_validator, model_validator

from cleveragents.domain.classification import DataClass
from cleveragents.domain.stable_prefix.canonical_text import (
    canonical_json,
    normalize_text,
    single_line_name,
)


class PrefixSection(StrEnum):
    """The sections, in the order they are rendered (the file's keys have the same names)."""

    CORE_RULES = "core_rules"
    PROJECT_INSTRUCTIONS = "project_instructions"
    TOOLS = "tools"
    STABLE_FACTS = "stable_facts"
    PROFESSIONAL_SKILLS = "professional_skills"


def _wrap_scalar(data: Any, field: str) -> Any:
    """The short form of an item (a bare string) as its long form ({field: ..., ...})."""
    return data if isinstance(data, Mapping) else {field: data}


class _Item(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    classification: DataClass = DataClass.STABLE_INSTRUCTION


class PrefixTool(_Item):
    """One tool of the contract: its name, what it does and the JSON schema of its input."""

    name: str
    description: str = ""
    input_schema: dict[str, JsonValue] = Field(default_factory=dict)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return single_line_name(value, "tool name")

    @field_validator("description")
    @classmethod
    def _description(cls, value: str) -> str:
        return normalize_text(value)

    @field_validator("input_schema")
    @classmethod
    def _schema(cls, value: dict[str, JsonValue]) -> dict[str, JsonValue]:
        try:
            canonical_json(value)
        except ValueError as error:
            raise ValueError(f"not valid JSON: {error}") from None
        return value


class PrefixFact(_Item):
    """A fact that does not change (`default_branch: main`); a bare string is the value."""

    value: str

    @model_validator(mode="before")
    @classmethod
    def _short_form(cls, data: Any) -> Any:
        return _wrap_scalar(data, "value")

    @field_validator("value")
    @classmethod
    def _value(cls, value: str) -> str:
        return normalize_text(value)


class PrefixSkill(_Item):
    """One professional skill: a block of instructions; a bare string is the text."""

    text: str

    @model_validator(mode="before")
    @classmethod
    def _short_form(cls, data: Any) -> Any:
        return _wrap_scalar(data, "text")

    @field_validator("text")
    @classmethod
    def _text(cls, value: str) -> str:
        text = normalize_text(value)
        if not text:
            raise ValueError("a skill cannot be empty")
        return text


class PrefixSpec(BaseModel):
    """What a stable prefix is built from; every section is optional.

    Equal content gives an equal spec: tools are kept sorted by name and facts by key, texts are
    normalised, so two specs that differ only in order compare (and render) equal.
    `classification` classifies whole sections; items carry their own `classification`.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    core_rules: str = ""
    project_instructions: str = ""
    tools: tuple[PrefixTool, ...] = ()
    stable_facts: dict[str, PrefixFact] = Field(default_factory=dict)
    professional_skills: tuple[PrefixSkill, ...] = ()
    classification: dict[PrefixSection, DataClass] = Field(default_factory=dict)

    @field_validator("core_rules", "project_instructions")
    @classmethod
    def _text(cls, value: str) -> str:
        return normalize_text(value)

    @field_validator("tools")
    @classmethod
    def _sorted_tools(cls, tools: tuple[PrefixTool, ...]) -> tuple[PrefixTool, ...]:
        ordered = tuple(sorted(tools, key=lambda tool: tool.name))
        for before, after in pairwise(ordered):
            if before.name == after.name:
                raise ValueError(f"two tools are named {after.name!r}")
        return ordered

    @field_validator("stable_facts")
    @classmethod
    def _sorted_facts(cls, facts: dict[str, PrefixFact]) -> dict[str, PrefixFact]:
        keyed = [(single_line_name(key, "fact key"), fact) for key, fact in facts.items()]
        keyed.sort(key=lambda pair: pair[0])
        for (before, _), (after, _) in pairwise(keyed):
            if before == after:
                raise ValueError(f"two facts have the key {after!r} (after Unicode normalisation)")
        return dict(keyed)

    @field_validator("professional_skills", mode="before")
    @classmethod
    def _one_skill(cls, value: Any) -> Any:
        if isinstance(value, str):  # the short form: one skill, or none when blank
            return (value,) if value.strip() else ()
        return value

    @field_validator("classification")
    @classmethod
    def _section_order(
        cls, value: dict[PrefixSection, DataClass]
    ) -> dict[PrefixSection, DataClass]:
        return {section: value[section] for section in PrefixSection if section in value}
