"""The YAML loader of prefix files counts what aliases expand to, and refuses past its bounds
before anything is built; honest anchors, aliases and merge keys keep working."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
import yaml  # type: ignore[import-untyped, unused-ignore]

from cleveragents.adapters.prefix_files.bounded_yaml import (
    MAX_YAML_DEPTH,
    MAX_YAML_NODES,
    MAX_YAML_TEXT_CHARS,
    BoundedSafeLoader,
    TooDeepError,
    TooLargeError,
)
from cleveragents.adapters.prefix_files.prefix_file_reader import PrefixFileReader
from cleveragents.domain.errors import InvalidInputError


class _Small(BoundedSafeLoader):  # type: ignore[misc, unused-ignore]
    """The same loader with bounds small enough to reach exactly."""

    max_nodes: ClassVar[int] = 10
    max_text_chars: ClassVar[int] = 20


class _Shallow(BoundedSafeLoader):  # type: ignore[misc, unused-ignore]
    max_depth: ClassVar[int] = 3


def _load(text: str, loader: type[BoundedSafeLoader] = _Small) -> Any:
    return yaml.load(text, Loader=loader)


def _refusal(text: str, loader: type[BoundedSafeLoader] = _Small) -> str:
    with pytest.raises(yaml.YAMLError) as caught:
        _load(text, loader)
    return str(caught.value)


def test_the_documented_bounds() -> None:
    assert (MAX_YAML_NODES, MAX_YAML_TEXT_CHARS, MAX_YAML_DEPTH) == (50_000, 4_000_000, 100)


def test_a_document_at_the_node_bound_loads_and_one_more_value_is_refused() -> None:
    # A mapping, its key, a list and its items: 1 + 1 + 1 + items values.
    assert _load("a: [1, 2, 3, 4, 5, 6, 7]") == {"a": [1, 2, 3, 4, 5, 6, 7]}  # 10 values
    with pytest.raises(TooLargeError, match=r"more than 10 values .* at line 1, column 26"):
        _load("a: [1, 2, 3, 4, 5, 6, 7, 8]")


def test_each_use_of_an_alias_counts_everything_it_names() -> None:
    # {a: &x [1, 2], b: *x}: mapping, a, list, 1, 2, b, then *x counts its 3 again = 9.
    assert _load("a: &x [1, 2]\nb: *x\n") == {"a": [1, 2], "b": [1, 2]}
    # One more use of *x is 12 values, though the file holds one more node only.
    line = _refusal("a: &x [1, 2]\nb: *x\nc: *x\n")
    assert line.startswith("more than 10 values once YAML aliases are expanded at line 3")


def test_aliases_inside_anchors_multiply_as_they_would_expand() -> None:
    # 5 values for a's line; b's list counts 1 + 2 * 3 = 7 more: 12, past 10 at b's second *a.
    text = "a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n"
    assert _refusal(text).startswith("more than 10 values once YAML aliases are expanded at line 2")
    assert _load(text, BoundedSafeLoader)["c"] == [[["x", "x"]] * 2] * 2


def test_scalar_text_counts_once_per_use() -> None:
    assert _load("a: &s '0123456789'\n") == {"a": "0123456789"}  # 'a' + 10 characters
    line = _refusal("a: &s '0123456789'\nb: *s\n")  # 1 + 10 + 1 + 10 = 22 characters
    assert line.startswith("more than 20 characters of text once YAML aliases are expanded")


def test_nesting_is_bounded_and_an_alias_sits_as_deep_as_where_it_is_used() -> None:
    assert _load("a: {b: c}", _Shallow) == {"a": {"b": "c"}}  # mapping, mapping, scalar
    with pytest.raises(TooDeepError, match="nested too deeply \\(more than 3 levels\\)"):
        _load("a: {b: [c]}", _Shallow)
    # The anchored node is two levels high: at levels 2-3 where it is defined, 3-4 where used.
    assert _load("x: &n {k: v}\n", _Shallow) == {"x": {"k": "v"}}
    with pytest.raises(TooDeepError, match="at line 2, column 8"):
        _load("x: &n {k: v}\ny: {z: *n}\n", _Shallow)


def test_an_alias_inside_the_node_it_names_is_refused() -> None:
    for text in ("a: &a [*a]\n", "a: &a {b: *a}\n", "a: &a {b: [c, {d: *a}]}\n"):
        assert "a recursive structure" in _refusal(text, BoundedSafeLoader)


def test_a_billion_laughs_is_refused_at_the_alias_that_passes_the_bound() -> None:
    levels = ['l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    levels += [f"l{n}: &l{n} [{','.join([f'*l{n - 1}'] * 10)}]" for n in range(1, 9)]
    with pytest.raises(TooLargeError, match="at line 5, column"):  # past 10**5 values at l4
        _load("\n".join(levels), BoundedSafeLoader)


def test_each_document_is_counted_alone() -> None:
    loader = _Small("a: [1, 2, 3, 4, 5, 6]\n")
    try:
        assert loader.get_single_data() == {"a": [1, 2, 3, 4, 5, 6]}
    finally:
        loader.dispose()


# -- through the prefix file reader -------------------------------------------------------------

READER = PrefixFileReader()


def test_anchors_aliases_and_merge_keys_keep_working_in_a_prefix_file() -> None:
    spec = READER.parse(
        "stable_facts:\n"
        "  branch: &branch main\n"
        "  release_branch: *branch\n"
        "tools:\n"
        "  - name: read\n"
        "    input_schema: &schema {type: object, properties: {path: {type: string}}}\n"
        "  - name: write\n"
        "    input_schema: {<<: *schema, required: [path]}\n",
        source="p.yaml",
    )
    assert spec.stable_facts["release_branch"].value == "main"
    read, write = spec.tools
    assert write.input_schema == {**read.input_schema, "required": ["path"]}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "stable_facts:\n"
            + "".join(
                f"  l{n}: &l{n} [{','.join([f'*l{n - 1}' if n else 'lol'] * 10)}]\n"
                for n in range(9)
            ),
            "p.yaml: more than 50,000 values once YAML aliases are expanded at line 6, column 24",
        ),
        (
            f"core_rules: &r '{'x' * 1_000_000}'\nstable_facts: {{a: *r, b: *r, c: *r, d: *r}}\n",
            "p.yaml: more than 4,000,000 characters of text once YAML aliases are expanded at "
            "line 2, column 33",  # the third use of *r
        ),
        ("stable_facts: " + "[" * 101 + "]" * 101, "p.yaml: malformed YAML: nested too deeply"),
        ("stable_facts: &a {x: *a}\n", "p.yaml: malformed YAML at line 1, column 22: found the"),
    ],
)
def test_the_reader_refuses_in_one_line_naming_the_file_and_the_place(
    text: str, message: str
) -> None:
    with pytest.raises(InvalidInputError) as caught:
        READER.parse(text, source="p.yaml")
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)
