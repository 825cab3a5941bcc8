"""TOML's nesting is measured on the text before `tomllib` reads it: refused past the limit at
the line where it goes past, whatever spells the depth (dotted keys, table headers, arrays of
tables, inline tables, arrays); what strings and comments hold never counts."""

from __future__ import annotations

import json
import re
import tomllib
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.adapters.budget_weights.heuristics_file import (
    default_weights_text,
    parse_heuristics,
)
from cleveragents.adapters.input_files.toml_nesting import (
    MAX_TOML_DEPTH,
    TomlNestingError,
    check_toml_nesting,
)
from cleveragents.adapters.prefix_files.prefix_file_reader import PrefixFileReader
from cleveragents.domain.context_budget import InvalidHeuristicsError
from cleveragents.domain.errors import InvalidInputError

DATA = Path(__file__).resolve().parents[1] / "data" / "prefix"


def _refused_at(text: str, limit: int) -> int | None:
    """The line the text is refused at, or None when it is accepted."""
    try:
        check_toml_nesting(text, limit)
    except TomlNestingError as error:
        refusal = error
    else:
        return None
    assert str(refusal) == f"nested too deeply (more than {limit} levels at line {refusal.line})"
    return refusal.line


def test_the_documented_limit() -> None:
    assert MAX_TOML_DEPTH == 100


@pytest.mark.parametrize(
    ("deepest", "text"),
    [
        (3, "a.b.c = 1\n"),
        (3, "a . b . c = 1\n"),  # spaces around the dots
        (3, '"a".\'b\'."c.d" = 1\n'),  # quoted parts; the dot inside a quoted part is not one
        (3, "[x.y]\nz = 1\n"),
        (3, "[[x.y]]\nz = 1\n"),
        (4, "[x]\ny.z = {w = 1}\n"),
        (3, "a = [[1]]\n"),
        (4, "a = {b = [{c = 1}]}\n"),
        (3, "a = [1, [2], 3]\n"),
        (4, "a = [\n  [1],\n  [[2]],\n]\n"),  # an array spans lines
        (2, "a = {b = 1.5, c = 1979-05-27T07:32:00.999}\n"),  # dots of values are no keys
        (1, "a = \"x.y.z[[[{{{\"  # .[{ in a comment\nb = '.[.{'\n"),
        (1, "s = \"\"\"\n[a.b.c.d]\nx.y.z = [[[[\n\"\"\"\nt = '''\n[[q.r.s]]\n'''\n"),
        (1, 's = """a\\"""b.c.d = [[["""\n'),  # an escaped quote inside a multi-line string
    ],
)
def test_the_depth_counted_is_the_depth_tomllib_builds(deepest: int, text: str) -> None:
    tomllib.loads(text)  # a valid document
    assert _refused_at(text, deepest) is None
    assert _refused_at(text, deepest - 1) is not None


def test_the_line_named_is_where_the_depth_goes_past() -> None:
    text = 'title = "x"\ns = """\none\ntwo\n"""\n# a comment\n[a.b]\nc.d = 1\n'
    assert _refused_at(text, 3) == 8
    assert _refused_at(text, 1) == 7


@pytest.mark.parametrize(
    "text",
    [
        "a" + ".a" * 20_000 + " = 1\n",
        "[" + "a." * 20_000 + "a]\n",
        "[[" + "a." * 20_000 + "a]]\n",
        "a = " + "{a = " * 20_000 + "1" + "}" * 20_000 + "\n",
        "a = " + "[" * 50_000 + "]" * 50_000 + "\n",
        "a = {" + "b." * 20_000 + "c = 1}\n",
        "x = 1\n[t]\n" + "k" + ".k" * 99 + " = 1\n",  # 1 for [t] + 100 parts
    ],
)
def test_hostile_depths_are_refused_at_their_line(text: str) -> None:
    assert _refused_at(text, MAX_TOML_DEPTH) == text.count("\n")


def test_the_deepest_accepted_key_and_one_part_more() -> None:
    assert _refused_at("k" + ".k" * 99 + " = 1\n", MAX_TOML_DEPTH) is None
    assert _refused_at("k" + ".k" * 100 + " = 1\n", MAX_TOML_DEPTH) == 1


def test_malformed_text_is_left_to_the_parser() -> None:
    for text in ('a = "unclosed\nb.c = 1\n', "a = [1,\n", "[a.b\nc = 1\n", 's = """ never closed'):
        assert _refused_at(text, 2) is None


def test_the_shipped_files_pass() -> None:
    for text in (default_weights_text(), (DATA / "prefix.toml").read_text(encoding="utf-8")):
        check_toml_nesting(text)


def test_both_readers_refuse_before_parsing() -> None:
    dotted = "a" + ".a" * 20_000 + " = 1\n"
    with pytest.raises(InvalidInputError, match=r"^p\.toml: malformed TOML: nested too deeply"):
        PrefixFileReader().parse(dotted, source="p.toml")
    with pytest.raises(InvalidHeuristicsError, match=r"^w\.toml is not valid TOML: nested too"):
        parse_heuristics(dotted, source="w.toml")


# -- the count agrees with what tomllib builds, on generated documents ---------------------------

_KEYS = st.sampled_from(["a", "b_1", "c-d", "1", "x.y", "with space", "q'uote"])
_STRINGS = st.text(alphabet=st.sampled_from(list("ab .[]{}#=,\"'\\\n")), max_size=6)
_SCALARS = st.integers(-5, 5) | _STRINGS | st.booleans() | st.sampled_from([1.5, -0.25])
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=3),
    max_leaves=12,
)
_DOCUMENTS = st.dictionaries(_KEYS, _VALUES, max_size=4)


def _depth(value: Any) -> int:
    """How deep `value` nests below the key that holds it (a scalar: 0)."""
    if isinstance(value, dict):
        return max((1 + _depth(item) for item in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(item) for item in value), default=0)
    return 0


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def _string(text: str, style: int) -> str:
    if style == 1 and "'" not in text and "\n" not in text:
        return f"'{text}'"
    # A newline right after a multi-line string's opening quotes is not part of it.
    if style == 2 and "'''" not in text and not text.endswith("'") and text[:1] != "\n":
        return f"'''{text}'''"
    return json.dumps(text, ensure_ascii=False)


def _inline(value: Any, draw: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _string(value, draw(st.integers(0, 2)))
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_inline(item, draw) for item in value) + "]"
    items = (f"{_key(key)} = {_inline(item, draw)}" for key, item in value.items())
    return "{" + ", ".join(items) + "}"


def _table(path: list[str], table: dict[str, Any], draw: Any) -> list[str]:
    """`table` as TOML lines: each sub-table as a header of its own, or inline, as drawn."""
    lines = [f"[{'.'.join(map(_key, path))}]"] if path else []
    headed = []
    for key, value in table.items():
        if isinstance(value, dict) and draw(st.booleans()):
            headed.append((key, value))
        else:
            lines.append(f"{_key(key)} = {_inline(value, draw)}  # [a.b.c] {{d}}")
    for key, value in headed:
        lines += _table([*path, key], value, draw)
    return lines


def _exact(value: Any) -> Any:
    """`value` as tomllib reads it with Decimal floats (1.5 and -0.25 are exact)."""
    if isinstance(value, dict):
        return {key: _exact(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_exact(item) for item in value]
    if isinstance(value, float):
        return Decimal(str(value))
    return value


@settings(max_examples=300, deadline=None, derandomize=True)
@given(_DOCUMENTS, st.integers(1, 6), st.data())
def test_a_document_is_refused_exactly_when_it_nests_past_the_limit(
    document: dict[str, Any], limit: int, data: st.DataObject
) -> None:
    text = "\n".join(_table([], document, data.draw)) + "\n"
    assert tomllib.loads(text, parse_float=Decimal) == _exact(document)  # the text is right
    refused = _refused_at(text, limit) is not None
    assert refused == (_depth(document) > limit), text
