"""The prefix text of a spec, section by section, and the fingerprints of each."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from cleveragents.domain.stable_prefix.canonical_text import canonical_json, sha256_hex
from cleveragents.domain.stable_prefix.spec import PrefixFact, PrefixSection, PrefixSpec, PrefixTool

SECTION_TITLES: dict[PrefixSection, str] = {
    PrefixSection.CORE_RULES: "Core rules",
    PrefixSection.PROJECT_INSTRUCTIONS: "Project instructions",
    PrefixSection.TOOLS: "Tool contract",
    PrefixSection.STABLE_FACTS: "Stable facts",
    PrefixSection.PROFESSIONAL_SKILLS: "Professional skills",
}


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


def fact_line(key: str, fact: PrefixFact) -> str:
    """A fact as its line of the stable-facts section (continuation lines indented)."""
    return f"- {key}: " + fact.value.replace("\n", "\n  ")


def _tool_block(tool: PrefixTool) -> str:
    parts = [
        f"## {tool.name}",
        tool.description,
        f"Input schema: {canonical_json(tool.input_schema)}",
    ]
    return "\n\n".join(part for part in parts if part)


def _section_body(spec: PrefixSpec, section: PrefixSection) -> str:
    if section is PrefixSection.TOOLS:
        return "\n\n".join(_tool_block(tool) for tool in spec.tools)
    if section is PrefixSection.STABLE_FACTS:
        return "\n".join(fact_line(key, fact) for key, fact in spec.stable_facts.items())
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
