"""Stable prompt prefixes: rendering, fingerprints, determinism, refusals, files and diffs."""

from __future__ import annotations

import hashlib
import random
import string
from typing import Any

import pytest

from cleveragents.adapters.prefix_files.prefix_file_reader import PrefixFileReader
from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.application.services.prefixes.stable_prefix_builder import StablePrefixBuilder
from cleveragents.domain.classification import ClassificationError, DataClass
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.stable_prefix.diff import SectionChange
from cleveragents.domain.stable_prefix.problems import UnstablePrefixError
from cleveragents.domain.stable_prefix.rendering import render_prefix
from cleveragents.domain.stable_prefix.spec import PrefixSection, PrefixSpec, PrefixTool
from cleveragents.domain.stable_prefix.spec_parsing import parse_prefix_spec
from tests.conftest import TEST_DATA
from tests.secret_samples import fake_aws_access_key_id
from tests.stable_prefix_samples import sha256

PREFIX_DATA = TEST_DATA / "prefix"


@pytest.fixture
def builder() -> StablePrefixBuilder:
    return StablePrefixBuilder(PatternSecretScanner())


SMALL: dict[str, Any] = {
    "core_rules": "Be careful.\nNever guess.",
    "tools": [
        {"name": "zeta", "description": "Last tool.", "input_schema": {"type": "object"}},
        {
            "name": "alpha",
            "description": "First tool.",
            "input_schema": {"type": "object", "properties": {"b": {}, "a": {"title": "é"}}},
        },
    ],
    "stable_facts": {"python": "3.11", "branch": "main"},
    "professional_skills": ["Review diffs whole.", "Test first."],
}

SMALL_TEXT = """\
# Core rules

Be careful.
Never guess.

# Tool contract

## alpha

First tool.

Input schema: {"properties":{"a":{"title":"é"},"b":{}},"type":"object"}

## zeta

Last tool.

Input schema: {"type":"object"}

# Stable facts

- branch: main
- python: 3.11

# Professional skills

Review diffs whole.

Test first.
"""


# Rendering and fingerprints


def test_the_prefix_text_is_exact(builder: StablePrefixBuilder) -> None:
    built = builder.build(parse_prefix_spec(SMALL))
    assert built.text == SMALL_TEXT
    assert built.sha256 == sha256(SMALL_TEXT)


def test_every_section_is_listed_in_order_with_its_own_fingerprint(
    builder: StablePrefixBuilder,
) -> None:
    built = builder.build(parse_prefix_spec(SMALL))
    assert [section.name for section in built.sections] == list(PrefixSection)
    assert [section.title for section in built.sections] == [
        "Core rules",
        "Project instructions",
        "Tool contract",
        "Stable facts",
        "Professional skills",
    ]
    for section in built.sections:
        assert section.sha256 == sha256(section.text)
    empty = built.section(PrefixSection.PROJECT_INSTRUCTIONS)
    assert empty.text == ""
    assert empty.sha256 == hashlib.sha256(b"").hexdigest()
    assert built.text == "\n".join(section.text for section in built.sections if section.text)


def test_sections_keep_their_order_whatever_the_input_order() -> None:
    spec = parse_prefix_spec(
        {"professional_skills": "S", "stable_facts": {"k": "v"}, "core_rules": "R"}
    )
    text = render_prefix(spec).text
    assert text.index("# Core rules") < text.index("# Stable facts")
    assert text.index("# Stable facts") < text.index("# Professional skills")


def test_line_endings_trailing_spaces_and_unicode_forms_do_not_change_the_bytes() -> None:
    plain = render_prefix(parse_prefix_spec({"core_rules": "Caf\u00e9 rules\nline two"}))
    messy = render_prefix(
        parse_prefix_spec({"core_rules": "\n\nCafe\u0301 rules  \r\nline two\t\r\n\n"})
    )
    assert messy.text == plain.text
    assert messy.sha256 == plain.sha256


def test_specs_built_from_python_objects_equal_specs_from_data() -> None:
    from_objects = PrefixSpec(
        core_rules="Be careful.",
        tools=(PrefixTool(name="b"), PrefixTool(name="a", input_schema={"x": [1, 2]})),
    )
    from_data = parse_prefix_spec(
        {
            "core_rules": "Be careful.",
            "tools": [{"name": "a", "input_schema": {"x": [1, 2]}}, {"name": "b"}],
        }
    )
    assert from_objects == from_data
    assert [tool.name for tool in from_objects.tools] == ["a", "b"]


def test_building_twice_gives_the_same_bytes(builder: StablePrefixBuilder) -> None:
    spec = parse_prefix_spec(SMALL)
    first, second = builder.build(spec), builder.build(parse_prefix_spec(SMALL))
    assert first.text.encode() == second.text.encode()
    assert first == second


def test_the_yaml_toml_and_reordered_examples_build_the_same_prefix(
    builder: StablePrefixBuilder,
) -> None:
    reader = PrefixFileReader()
    built = {
        name: builder.build(
            reader.parse((PREFIX_DATA / name).read_text(encoding="utf-8"), source=name)
        )
        for name in ("prefix.yaml", "prefix.toml", "prefix-reordered.yaml")
    }
    assert len({prefix.text for prefix in built.values()}) == 1
    assert len({prefix.sha256 for prefix in built.values()}) == 1


# Refusals


def refused(builder: StablePrefixBuilder, data: dict[str, Any]) -> UnstablePrefixError:
    with pytest.raises(UnstablePrefixError) as caught:
        builder.build(parse_prefix_spec(data))
    return caught.value


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"stable_facts": {"release_date": "2026-11-30"}},
            "stable_facts.release_date: a date ('2026-11-30') cannot be in a stable prefix: "
            "it changes and breaks the cache",
        ),
        (
            {"core_rules": "Be careful.\nThe time is 2026-11-30T13:45:02Z."},
            "core_rules, line 2: a timestamp ('2026-11-30T13:45:02Z') cannot be",
        ),
        (
            {"project_instructions": "Deploys happen on Nov 30, 2026."},
            "project_instructions: a date ('Nov 30, 2026')",
        ),
        (
            {"professional_skills": ["Skill.", "Generated Mon, 30 Nov 2026 13:45:02 +0000"]},
            "professional_skills[1]: a timestamp ('Mon, 30 Nov 2026 13:45:02 +0000')",
        ),
        ({"core_rules": "Started at 13:45:02."}, "core_rules: a time of day ('13:45:02')"),
        (
            {"stable_facts": {"built_at": "1764510302"}},
            "stable_facts.built_at: an epoch timestamp ('1764510302')",
        ),
        (
            {"stable_facts": {"run": "123e4567-e89b-12d3-a456-426614174000"}},
            "stable_facts.run: a UUID ('123e4567…') cannot be in a stable prefix: it differs "
            "from run to run and breaks the cache",
        ),
        (
            {"stable_facts": {"plan": "01ARZ3NDEKTSV4RRFFQ69G5FAV"}},
            "stable_facts.plan: a ULID ('01ARZ3ND…')",
        ),
        (
            {
                "tools": [
                    {"name": "fetch", "description": "Trace 4bf92f3577b34da6a3ce929d0e0e4736."}
                ]
            },
            "tools.fetch.description: a long hex identifier ('4bf92f35…')",
        ),
        (
            {"tools": [{"name": "fetch", "input_schema": {"default": "q8ZtX3vLp9Rk2WmN7sYb4HcQ"}}]},
            "tools.fetch.input_schema: a random-looking token ('q8ZtX3vL…')",
        ),
        (
            {"tools": [{"name": "fetch", "input_schema": {"properties": {"since": 1764510302}}}]},
            "tools.fetch.input_schema: an epoch timestamp ('1764510302')",
        ),
        (
            {"tools": [{"name": "job-123e4567-e89b-12d3-a456-426614174000"}]},
            "tools.job-123e4567-e89b-12d3-a456-426614174000.name: a UUID",
        ),
    ],
)
def test_volatile_content_is_refused_naming_the_place(
    builder: StablePrefixBuilder, data: dict[str, Any], message: str
) -> None:
    error = refused(builder, data)
    assert str(error).startswith(message)
    assert isinstance(error, InvalidInputError)  # the CLI's exit 2


def _github_token() -> str:
    rng = random.Random(11)
    return "ghp_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))


@pytest.mark.parametrize(
    ("data", "place", "kind"),
    [
        (
            {"stable_facts": {"aws_key": fake_aws_access_key_id()}},
            "stable_facts.aws_key",
            "aws-access-key-id",
        ),
        (
            {"core_rules": f"Rules.\nUse the token {_github_token()} for the API."},
            "core_rules, line 2",
            "github-token",
        ),
        (
            {"stable_facts": {"database": "postgres://app:Zq8vN3xLr7Kp@db.internal/app"}},
            "stable_facts.database",
            "password-in-url",
        ),
        (  # the key is scanned with the value: it is what makes this a secret
            {"stable_facts": {"db_password": "hunter2Secret9x"}},
            "stable_facts.db_password",
            "generic-secret",
        ),
    ],
)
def test_credentials_are_refused_without_showing_them(
    builder: StablePrefixBuilder, data: dict[str, Any], place: str, kind: str
) -> None:
    error = refused(builder, data)
    assert str(error) == (
        f"{place}: a credential ({kind}) cannot be in a stable prefix: credentials belong nowhere"
    )
    assert error.problems[0].kind == "credential"
    secret = next(iter(data.get("stable_facts", {}).values()), None) or _github_token()
    assert secret not in str(error)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"stable_facts": {"build": {"value": "green", "classification": "dynamic-message"}}},
            "stable_facts.build: dynamic-message data may not go to the prompt-prefix "
            "(allowed: compaction)",
        ),
        (
            {"tools": [{"name": "crm", "classification": "external-business-data"}]},
            "tools.crm: external-business-data data may not go to the prompt-prefix",
        ),
        (
            {"professional_skills": [{"text": "Output.", "classification": "complete-output"}]},
            "professional_skills[0]: complete-output data may not go to the prompt-prefix",
        ),
        (
            {"core_rules": "Rules.", "classification": {"core_rules": "credential"}},
            "core_rules: credential data may not go to the prompt-prefix (allowed: nowhere)",
        ),
        (
            {"stable_facts": {"a": "b"}, "classification": {"stable_facts": "tool-preview"}},
            "stable_facts: tool-preview data may not go to the prompt-prefix",
        ),
    ],
)
def test_anything_not_a_stable_instruction_is_refused_by_classification(
    builder: StablePrefixBuilder, data: dict[str, Any], message: str
) -> None:
    error = refused(builder, data)
    assert str(error).startswith(message)
    assert error.problems[0].kind == "classification"


def test_stable_instructions_may_be_declared_explicitly(builder: StablePrefixBuilder) -> None:
    data = {
        "core_rules": "Rules.",
        "classification": {"core_rules": "stable-instruction"},
        "stable_facts": {"a": {"value": "b", "classification": "stable-instruction"}},
    }
    assert builder.build(parse_prefix_spec(data)).text.startswith("# Core rules")


def test_every_problem_is_listed_and_the_message_counts_the_rest(
    builder: StablePrefixBuilder,
) -> None:
    data = {
        "core_rules": "Generated 2026-11-30.",
        "stable_facts": {
            "aws": fake_aws_access_key_id(),
            "run": "01ARZ3NDEKTSV4RRFFQ69G5FAV",
            "ok": "main",
            "x": {"value": "y", "classification": "dynamic-message"},
        },
    }
    spec = parse_prefix_spec(data)
    problems = builder.problems(spec)
    assert [(p.place, p.kind) for p in problems] == [
        ("stable_facts.x", "classification"),  # classification first
        ("core_rules", "date"),
        ("stable_facts.aws", "credential"),
        ("stable_facts.run", "ulid"),
    ]
    error = refused(builder, data)
    assert str(error).endswith(" (and 3 more problems)")
    assert error.problems == tuple(problems)


def test_a_refused_section_is_reported_once(builder: StablePrefixBuilder) -> None:
    data = {
        "stable_facts": {"a": "2026-11-30", "b": "2026-12-01"},
        "classification": {"stable_facts": "dynamic-message"},
    }
    assert [p.place for p in builder.problems(parse_prefix_spec(data))] == ["stable_facts"]


def test_classification_refusals_are_classification_errors_underneath() -> None:
    from cleveragents.domain.classification import Destination, require_allowed

    with pytest.raises(ClassificationError):
        require_allowed(DataClass.DYNAMIC_MESSAGE, Destination.PROMPT_PREFIX)


# Bad specs


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"colour": "blue"}, "colour: unknown key (allowed: core_rules, project_instructions, "),
        ({"tools": [{"name": "a", "schema": {}}]}, "tools[0].schema: unknown key (allowed: "),
        ({"tools": [{"name": 3}]}, "tools[0].name: must be a string, not int"),
        ({"tools": {"name": "a"}}, "tools: must be a list, not dict"),
        ({"tools": [3]}, "tools[0]: must be a mapping, not int"),
        ({"stable_facts": ["a"]}, "stable_facts: must be a mapping, not list"),
        ({"stable_facts": {3: "x"}}, "stable_facts key 3: must be a string, not int"),
        ({"core_rules": None}, "core_rules: empty; give a value or leave the key out"),
        (
            {"stable_facts": {"python": 3.1}},
            "stable_facts.python.value: must be a string, not float",
        ),
        ({"tools": [{"name": "a"}, {"name": "a"}]}, "tools: two tools are named 'a'"),
        ({"tools": [{"name": " a"}]}, "tools[0].name: the tool name ' a' must be one line"),
        ({"stable_facts": {"a\nb": "c"}}, "stable_facts: the fact key 'a\\nb' must be one line"),
        ({"professional_skills": ["  "]}, "professional_skills[0].text: a skill cannot be empty"),
        ({"classification": {"tools": "secret"}}, "classification.tools: Input should be"),
        (
            {"classification": {"rules": "credential"}},
            "classification key 'rules': Input should be 'core_rules'",
        ),
        (
            {"tools": [{"name": "a", "input_schema": {"x": float("nan")}}]},
            "tools[0].input_schema: not valid JSON",
        ),
        (
            {"colour": 1, "tools": [{"name": 2}]},
            "tools[0].name: must be a string, not int (in YAML, quote values such as 3.10, yes or "
            "2026)"
            " (and 1 more problem)",
        ),
    ],
)
def test_bad_specs_name_the_place(data: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        parse_prefix_spec(data)
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


# Files


def parse(text: str, source: str = "prefix.yaml") -> PrefixSpec:
    return PrefixFileReader().parse(text, source=source)


def test_yaml_timestamps_stay_the_text_that_was_written(builder: StablePrefixBuilder) -> None:
    spec = parse("stable_facts:\n  released: 2026-11-30 13:45:02\n")
    assert spec.stable_facts["released"].value == "2026-11-30 13:45:02"
    with pytest.raises(UnstablePrefixError, match=r"a timestamp \('2026-11-30 13:45:02'\)"):
        builder.build(spec)


def test_toml_dates_become_iso_text_and_are_refused(builder: StablePrefixBuilder) -> None:
    spec = parse("[stable_facts]\nreleased = 2026-11-30\nat = 13:45:02\n", "prefix.toml")
    assert spec.stable_facts["released"].value == "2026-11-30"
    problems = builder.problems(spec)
    assert [(p.place, p.kind) for p in problems] == [
        ("stable_facts.at", "time"),
        ("stable_facts.released", "date"),
    ]


@pytest.mark.parametrize(
    ("text", "source", "message"),
    [
        (
            "stable_facts:\n  a: x\n  a: y\n",
            "p.yaml",
            "p.yaml: malformed YAML at line 3, column 3: found duplicate key 'a'",
        ),
        ("core_rules: [unclosed\n", "p.yml", "p.yml: malformed YAML at line 2, column 1: "),
        (
            "core_rules = \n",
            "p.toml",
            "p.toml: malformed TOML: Invalid value (at line 1, column 14)",
        ),
        ("[stable_facts]\na = 'x'\na = 'y'\n", "p.toml", "p.toml: malformed TOML: "),
        ("", "p.yaml", "p.yaml: the file is empty"),
        ("# only a comment\n", "p.yaml", "p.yaml: the file is empty"),
        ("- a\n- b\n", "p.yaml", "p.yaml: the top level must be a mapping of sections, not list"),
        ("core_rules: x\n", "p.json", "p.json: unknown prefix file type; use .yaml, .yml or .toml"),
        ("tools:\n  - name: a\n    schema: {}\n", "p.yaml", "p.yaml: tools[0].schema: unknown key"),
        (
            "stable_facts:\n  python: 3.10\n",
            "p.yaml",
            "p.yaml: stable_facts.python.value: must be a string, not float",
        ),
        # What Python's parsers crash on, or read into text that cannot be written as UTF-8.
        ("core_rules: \x1f\n", "p.yaml", "p.yaml: malformed YAML: unacceptable character #x001f"),
        (f"n: {'9' * 5000}\n", "p.yaml", "p.yaml: malformed YAML: an integer has more than 4,300"),
        (f"n = {'9' * 5000}\n", "p.toml", "p.toml: malformed TOML: an integer has more than 4,300"),
        ("a: " + "[" * 50_000 + "\n", "p.yaml", "p.yaml: malformed YAML: nested too deeply"),
        ("a = " + "[" * 50_000 + "\n", "p.toml", "p.toml: malformed TOML: nested too deeply"),
        (
            'stable_facts:\n  k: "x \\ud800"\n',
            "p.yaml",
            "p.yaml: a string holds \\ud800, half of a UTF-16 surrogate pair and no character",
        ),
    ],
)
def test_bad_files_name_the_file_and_the_place(text: str, source: str, message: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        parse(text, source)
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_a_byte_order_mark_is_ignored() -> None:
    assert parse("\ufeffcore_rules: Rules.\n") == parse("core_rules: Rules.\n")


def test_the_yaml_reader_does_not_change_pyyaml_for_others() -> None:
    import yaml  # type: ignore[import-untyped, unused-ignore]

    assert str(yaml.safe_load("a: 2026-11-30")["a"]) == "2026-11-30"  # still a date object
    assert yaml.safe_load("a: 1\na: 2") == {"a": 2}


# Diffs


def test_identical_prefixes_have_no_change(builder: StablePrefixBuilder) -> None:
    a = builder.build(parse_prefix_spec(SMALL))
    result = builder.diff(a, builder.build(parse_prefix_spec(SMALL)))
    assert result.identical
    assert result.first_changed is None
    assert result.changed == ()
    assert result.common_prefix_bytes == len(a.text.encode())
    assert {item.change for item in result.sections} == {SectionChange.SAME}


def test_the_diff_names_the_first_changed_section_where_the_cache_breaks(
    builder: StablePrefixBuilder,
) -> None:
    a = builder.build(parse_prefix_spec(SMALL))
    changed = {**SMALL, "stable_facts": {"python": "3.12", "branch": "main"}}
    changed["professional_skills"] = ["Review diffs whole."]
    b = builder.build(parse_prefix_spec(changed))
    result = builder.diff(a, b)
    assert not result.identical
    assert result.first_changed is PrefixSection.STABLE_FACTS
    assert result.changed == (PrefixSection.STABLE_FACTS, PrefixSection.PROFESSIONAL_SKILLS)
    cut = result.common_prefix_bytes
    assert a.text.encode()[:cut] == b.text.encode()[:cut]
    assert a.text.encode()[cut] != b.text.encode()[cut]
    assert a.text.encode()[:cut].endswith(b"- python: 3.1")
    changes = {item.name: item.change for item in result.sections}
    assert changes[PrefixSection.TOOLS] is SectionChange.SAME
    assert changes[PrefixSection.STABLE_FACTS] is SectionChange.CHANGED


def test_added_and_removed_sections_are_named(builder: StablePrefixBuilder) -> None:
    a = builder.build(parse_prefix_spec({"core_rules": "R", "stable_facts": {"k": "v"}}))
    b = builder.build(parse_prefix_spec({"core_rules": "R", "project_instructions": "P"}))
    result = builder.diff(a, b)
    changes = {item.name: item.change for item in result.sections}
    assert changes[PrefixSection.PROJECT_INSTRUCTIONS] is SectionChange.ADDED
    assert changes[PrefixSection.STABLE_FACTS] is SectionChange.REMOVED
    assert result.first_changed is PrefixSection.PROJECT_INSTRUCTIONS


def test_skills_keep_their_order_and_a_blank_string_means_none() -> None:
    spec = parse_prefix_spec({"professional_skills": ["Zebra first.", "Alpha second."]})
    assert [skill.text for skill in spec.professional_skills] == ["Zebra first.", "Alpha second."]
    assert parse_prefix_spec({"professional_skills": "  "}).professional_skills == ()
    assert parse_prefix_spec({"professional_skills": "One."}).professional_skills[0].text == "One."
