"""The stable prompt prefix.

A provider's prompt cache pays only when the prefix of a request is byte-identical to an earlier
one. The prefix is therefore rendered from fixed sections in a fixed order (core rules, project
instructions, tool contract, stable facts, professional skills), with tools sorted by name, facts
sorted by key and tool schemas as canonical JSON, so the same content always gives the same bytes
whatever order it was written or loaded in. Texts are normalised on the way in (NFC, LF line
endings, no trailing spaces, no blank lines at the ends): an editor's line endings do not break
the cache either.

What may not enter a prefix (volatile content, credentials, data of another class) is decided by
`StablePrefixBuilder`; this module only holds the models, the rendering and the comparison.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from itertools import pairwise
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    ValidationError,
    field_validator,
    model_validator,
)

from cleveragents.domain.classification import DataClass
from cleveragents.domain.errors import InvalidInputError


class PrefixSection(StrEnum):
    """The sections, in the order they are rendered (the file's keys have the same names)."""

    CORE_RULES = "core_rules"
    PROJECT_INSTRUCTIONS = "project_instructions"
    TOOLS = "tools"
    STABLE_FACTS = "stable_facts"
    PROFESSIONAL_SKILLS = "professional_skills"


SECTION_TITLES: dict[PrefixSection, str] = {
    PrefixSection.CORE_RULES: "Core rules",
    PrefixSection.PROJECT_INSTRUCTIONS: "Project instructions",
    PrefixSection.TOOLS: "Tool contract",
    PrefixSection.STABLE_FACTS: "Stable facts",
    PrefixSection.PROFESSIONAL_SKILLS: "Professional skills",
}


def normalize_text(text: str) -> str:
    """NFC, LF line endings, no trailing whitespace on a line, no blank lines at either end."""
    text = unicodedata.normalize("NFC", text).replace("\r\n", "\n").replace("\r", "\n")
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


def canonical_json(value: JsonValue) -> str:
    """Sorted keys, no spaces, UTF-8 kept as is: one text per value (NaN and infinity refused)."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _single_line_name(value: str, what: str) -> str:
    value = unicodedata.normalize("NFC", value)
    if not value.strip():
        raise ValueError(f"a {what} cannot be empty")
    if value != value.strip() or "\n" in value or "\r" in value:
        raise ValueError(f"the {what} {value!r} must be one line without spaces at its ends")
    return value


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
        return _single_line_name(value, "tool name")

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
        keyed = [(_single_line_name(key, "fact key"), fact) for key, fact in facts.items()]
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


def parse_prefix_spec(data: Mapping[str, Any]) -> PrefixSpec:
    """A spec from plain data (a loaded YAML or TOML document, a dict written in Python).

    Raises `InvalidInputError` naming the place of the first problem, e.g.
    ``tools[1].name: must be a string``.
    """
    try:
        return PrefixSpec.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        more = len(errors) - 1
        suffix = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        raise InvalidInputError(_describe(errors[0]) + suffix) from None


_FIELDS_BY_SECTION: dict[str, type[BaseModel]] = {
    PrefixSection.TOOLS: PrefixTool,
    PrefixSection.STABLE_FACTS: PrefixFact,
    PrefixSection.PROFESSIONAL_SKILLS: PrefixSkill,
}


def _place(loc: tuple[int | str, ...]) -> str:
    place = ""
    for part in loc:
        place += f"[{part}]" if isinstance(part, int) else f".{part}" if place else str(part)
    return place


_TYPE_NAMES = {"tuple_type": "a list", "dict_type": "a mapping", "model_type": "a mapping"}
_QUOTE_HINT = "in YAML, quote values such as 3.10, yes or 2026"


def _describe(error: Mapping[str, Any]) -> str:
    loc, kind, given = error["loc"], error["type"], error["input"]
    if loc and loc[-1] == "[key]":  # a mapping key of the wrong type: `3: x`, `yes: x`
        place = f"{_place(loc[:-2])} key {loc[-2]!r}"
    else:
        place = _place(loc) or "the prefix"
    if kind == "extra_forbidden":
        model = PrefixSpec if len(loc) == 1 else _FIELDS_BY_SECTION.get(str(loc[0]), PrefixSpec)
        return f"{place}: unknown key (allowed: {', '.join(model.model_fields)})"
    if given is None:
        return f"{place}: empty; give a value or leave the key out"
    if kind == "string_type":
        return f"{place}: must be a string, not {type(given).__name__} ({_QUOTE_HINT})"
    if kind in _TYPE_NAMES:
        return f"{place}: must be {_TYPE_NAMES[kind]}, not {type(given).__name__}"
    return f"{place}: {str(error['msg']).removeprefix('Value error, ')}"


@dataclass(frozen=True, slots=True)
class PrefixField:
    """One piece of text exactly as it will be rendered, with where it comes from.

    `owner` is the section or item whose classification governs it (``tools.deploy``);
    `context` holds the words that give a number a date meaning (a fact's key).
    """

    section: PrefixSection
    owner: str
    place: str
    text: str
    context: str = ""

    def where(self, line: int) -> str:
        """The place, with the line when the text has several."""
        return f"{self.place}, line {line}" if "\n" in self.text else self.place


def _fact_line(key: str, fact: PrefixFact) -> str:
    return f"- {key}: " + fact.value.replace("\n", "\n  ")


def _tool_block(tool: PrefixTool) -> str:
    parts = [
        f"## {tool.name}",
        tool.description,
        f"Input schema: {canonical_json(tool.input_schema)}",
    ]
    return "\n\n".join(part for part in parts if part)


def classified_places(spec: PrefixSpec) -> list[tuple[str, DataClass]]:
    """Every section and item that declares a class, sections first, in rendering order."""
    places: list[tuple[str, DataClass]] = [
        (section.value, data_class) for section, data_class in spec.classification.items()
    ]
    places += [(f"tools.{tool.name}", tool.classification) for tool in spec.tools]
    places += [
        (f"stable_facts.{key}", fact.classification) for key, fact in spec.stable_facts.items()
    ]
    places += [
        (f"professional_skills[{index}]", skill.classification)
        for index, skill in enumerate(spec.professional_skills)
    ]
    return places


def prefix_fields(spec: PrefixSpec) -> list[PrefixField]:
    """Every text that goes into the prefix, in rendering order."""
    fields: list[PrefixField] = []
    for section in (PrefixSection.CORE_RULES, PrefixSection.PROJECT_INSTRUCTIONS):
        text = getattr(spec, section.value)
        if text:
            fields.append(PrefixField(section, section.value, section.value, text))
    for tool in spec.tools:
        owner = f"tools.{tool.name}"
        fields += [
            PrefixField(PrefixSection.TOOLS, owner, f"{owner}.name", tool.name),
            PrefixField(PrefixSection.TOOLS, owner, f"{owner}.description", tool.description),
            PrefixField(
                PrefixSection.TOOLS,
                owner,
                f"{owner}.input_schema",
                canonical_json(tool.input_schema),
            ),
        ]
    for key, fact in spec.stable_facts.items():
        owner = f"stable_facts.{key}"
        text = _fact_line(key, fact).removeprefix("- ")
        fields.append(PrefixField(PrefixSection.STABLE_FACTS, owner, owner, text, context=key))
    for index, skill in enumerate(spec.professional_skills):
        owner = f"professional_skills[{index}]"
        fields.append(PrefixField(PrefixSection.PROFESSIONAL_SKILLS, owner, owner, skill.text))
    return [field for field in fields if field.text]


class BuiltSection(BaseModel):
    """One section as rendered (empty text when the section has no content) and its SHA-256."""

    model_config = ConfigDict(frozen=True)

    name: PrefixSection
    title: str
    text: str
    sha256: str


class BuiltPrefix(BaseModel):
    """The prefix text, its SHA-256 and every section in order (all five, empty or not)."""

    model_config = ConfigDict(frozen=True)

    text: str
    sha256: str
    sections: tuple[BuiltSection, ...]

    def section(self, name: PrefixSection) -> BuiltSection:
        return next(section for section in self.sections if section.name is name)


def _section_body(spec: PrefixSpec, section: PrefixSection) -> str:
    if section is PrefixSection.TOOLS:
        return "\n\n".join(_tool_block(tool) for tool in spec.tools)
    if section is PrefixSection.STABLE_FACTS:
        return "\n".join(_fact_line(key, fact) for key, fact in spec.stable_facts.items())
    if section is PrefixSection.PROFESSIONAL_SKILLS:
        return "\n\n".join(skill.text for skill in spec.professional_skills)
    text: str = getattr(spec, section.value)
    return text


def render_prefix(spec: PrefixSpec) -> BuiltPrefix:
    """The prefix of `spec`: a ``# Title`` block per non-empty section, a blank line between.

    Pure rendering: it does not check the content; `StablePrefixBuilder.build` does.
    """
    sections = []
    for name in PrefixSection:
        body = _section_body(spec, name)
        text = f"# {SECTION_TITLES[name]}\n\n{body}\n" if body else ""
        sections.append(
            BuiltSection(name=name, title=SECTION_TITLES[name], text=text, sha256=sha256_hex(text))
        )
    text = "\n".join(section.text for section in sections if section.text)
    return BuiltPrefix(text=text, sha256=sha256_hex(text), sections=tuple(sections))


@dataclass(frozen=True, slots=True)
class PrefixProblem:
    """Why part of a spec may not enter a prefix: the place, the kind and a one-line message."""

    place: str
    kind: str
    message: str


class UnstablePrefixError(InvalidInputError):
    """The spec holds content that may not enter a stable prefix; `problems` lists all of it."""

    def __init__(self, problems: tuple[PrefixProblem, ...]) -> None:
        more = len(problems) - 1
        suffix = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        super().__init__(problems[0].message + suffix)
        self.problems = problems


class SectionChange(StrEnum):
    SAME = "same"
    CHANGED = "changed"
    ADDED = "added"
    REMOVED = "removed"


class SectionComparison(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: PrefixSection
    change: SectionChange
    a_sha256: str
    b_sha256: str


class PrefixDiff(BaseModel):
    """How two prefixes differ, as a cache sees it.

    `first_changed` is where the cache breaks: a request with prefix B reuses A's cached prefix
    at most up to that section (`common_prefix_bytes` counts the identical leading bytes).
    """

    model_config = ConfigDict(frozen=True)

    identical: bool
    a_sha256: str
    b_sha256: str
    first_changed: PrefixSection | None
    changed: tuple[PrefixSection, ...]
    common_prefix_bytes: int
    sections: tuple[SectionComparison, ...]


def _change(a: BuiltSection, b: BuiltSection) -> SectionChange:
    if a.text == b.text:
        return SectionChange.SAME
    if not a.text:
        return SectionChange.ADDED
    return SectionChange.REMOVED if not b.text else SectionChange.CHANGED


def _common_prefix_bytes(a: bytes, b: bytes) -> int:
    return next(
        (index for index, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
        min(len(a), len(b)),
    )


def diff_prefixes(a: BuiltPrefix, b: BuiltPrefix) -> PrefixDiff:
    comparisons = tuple(
        SectionComparison(
            name=left.name, change=_change(left, right), a_sha256=left.sha256, b_sha256=right.sha256
        )
        for left, right in zip(a.sections, b.sections, strict=True)
    )
    changed = tuple(item.name for item in comparisons if item.change is not SectionChange.SAME)
    return PrefixDiff(
        identical=a.text == b.text,
        a_sha256=a.sha256,
        b_sha256=b.sha256,
        first_changed=changed[0] if changed else None,
        changed=changed,
        common_prefix_bytes=_common_prefix_bytes(a.text.encode(), b.text.encode()),
        sections=comparisons,
    )
