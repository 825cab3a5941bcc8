"""Every text of a spec with where it comes from: what the prefix builder checks, place by place."""

from __future__ import annotations

from dataclasses import dataclass

from cleveragents.domain.classification import DataClass
from cleveragents.domain.stable_prefix.canonical_text import canonical_json
from cleveragents.domain.stable_prefix.rendering import fact_line
from cleveragents.domain.stable_prefix.spec import PrefixSection, PrefixSpec


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
        text = fact_line(key, fact).removeprefix("- ")
        fields.append(PrefixField(PrefixSection.STABLE_FACTS, owner, owner, text, context=key))
    for index, skill in enumerate(spec.professional_skills):
        owner = f"professional_skills[{index}]"
        fields.append(PrefixField(PrefixSection.PROFESSIONAL_SKILLS, owner, owner, skill.text))
    return [field for field in fields if field.text]
