"""Stable prompt prefixes on generated specs: permuted tools, facts and schema keys give the same
prefix, and rendering any text is deterministic and fingerprinted."""

from __future__ import annotations

import random
import string
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.application.ports.secret_scanner import SecretScan, SecretScanner
from cleveragents.application.services.prefixes.stable_prefix_builder import StablePrefixBuilder
from cleveragents.domain.secrets import SecretFinding
from cleveragents.domain.stable_prefix.rendering import render_prefix
from cleveragents.domain.stable_prefix.spec_parsing import parse_prefix_spec
from tests.stable_prefix_samples import sha256


@pytest.fixture
def builder() -> StablePrefixBuilder:
    return StablePrefixBuilder(PatternSecretScanner())


class _NoFindings(SecretScan):
    def feed(self, data: bytes) -> None:
        pass

    def finish(self) -> list[SecretFinding]:
        return []


class NoSecretScanner(SecretScanner):
    """Finds nothing: for properties over arbitrary text."""

    @property
    def name(self) -> str:
        return "none"

    def start(self, *, honour_allow_markers: bool = False) -> SecretScan:
        return _NoFindings()


_NAMES = st.text(string.ascii_lowercase + "_", min_size=1, max_size=12)
_VALUES = st.text(string.ascii_letters + " .,-", max_size=30)
_SCHEMAS = st.dictionaries(
    st.text(string.ascii_lowercase, min_size=1, max_size=6),
    st.one_of(st.integers(-100, 100), st.booleans(), st.text(string.ascii_letters, max_size=8)),
    max_size=5,
)


@given(
    tools=st.dictionaries(_NAMES, st.tuples(_VALUES, _SCHEMAS), max_size=6),
    facts=st.dictionaries(_NAMES, _VALUES, max_size=8),
    seed=st.integers(0, 2**32),
)
def test_permuted_tools_facts_and_schema_keys_give_the_same_prefix(
    tools: dict[str, tuple[str, dict[str, Any]]], facts: dict[str, str], seed: int
) -> None:
    rng = random.Random(seed)

    def shuffled(items: list[Any]) -> list[Any]:
        copy = list(items)
        rng.shuffle(copy)
        return copy

    def data(tool_order: list[str], fact_order: list[str], reverse_schemas: bool) -> dict[str, Any]:
        def schema(value: dict[str, Any]) -> dict[str, Any]:
            keys = sorted(value, reverse=reverse_schemas)
            return {key: value[key] for key in keys}

        return {
            "core_rules": "Rules.",
            "tools": [
                {
                    "name": name,
                    "description": tools[name][0],
                    "input_schema": schema(tools[name][1]),
                }
                for name in tool_order
            ],
            "stable_facts": {key: facts[key] for key in fact_order},
        }

    builder = StablePrefixBuilder(NoSecretScanner())
    original = builder.build(parse_prefix_spec(data(list(tools), list(facts), False)))
    permuted = builder.build(
        parse_prefix_spec(data(shuffled(list(tools)), shuffled(list(facts)), True))
    )
    assert permuted.text == original.text
    assert permuted.sha256 == original.sha256
    assert permuted.sections == original.sections


@given(st.text(max_size=200), st.text(max_size=200))
def test_rendering_any_text_is_deterministic_and_fingerprinted(rules: str, skill: str) -> None:
    data = {"core_rules": rules, "professional_skills": [skill] if skill.strip() else []}
    first, second = render_prefix(parse_prefix_spec(data)), render_prefix(parse_prefix_spec(data))
    assert first == second
    assert first.sha256 == sha256(first.text)
