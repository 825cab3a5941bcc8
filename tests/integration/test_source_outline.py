"""A source file at a tight budget becomes an outline: its declaration names in file order
under one marker, with no marker between them, whenever that names more declarations than a
marker for every gap does. Real tokenizer, real grammars, generated files of random size."""

from __future__ import annotations

import ast
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.application.services.artifact_compression.artifact_compressor import (
    ArtifactCompressorService,
)
from cleveragents.container import build_container
from cleveragents.domain.artifact import CompressionMode

SERVICE: ArtifactCompressorService = build_container(
    encoding="cl100k_base"
).artifact_compressor_service()
HEADER = re.compile(
    r"(?P<comment>#|//) … outline: (?P<kept>\d+) of (?P<total>\d+) declarations in file order, "
    r"every other line omitted: lines 1-(?P<last>\d+)"
)
COUNTER = TiktokenCounter("cl100k_base")
WORDS = ["load", "parse", "render", "merge", "cache", "token", "queue", "route", "index", "scan"]


def _python(classes: int, seed: int) -> str:
    """Classes of a few methods each, with bodies of a few lines: declarations are about one
    line in ten, as in real modules."""
    rng = random.Random(seed)
    out = ['"""A generated module."""', "", "import os", ""]
    for c in range(classes):
        out += ["", f"class {rng.choice(WORDS).title()}{c}:", f'    """The {c}th."""', ""]
        for m in range(rng.randint(1, 5)):
            name = f"{rng.choice(WORDS)}_{rng.choice(WORDS)}_{m}"
            out.append(f"    def {name}(self, value: int, label: str = 'x') -> int:")
            for line in range(rng.randint(3, 12)):
                out.append(f"        value = value * {line + 2} + len(label) - {rng.randrange(99)}")
            out += ["        return value", ""]
    return "\n".join(out) + "\n"


def _go(types: int, seed: int) -> str:
    rng = random.Random(seed)
    out = ["package generated", "", 'import "fmt"', ""]
    for t in range(types):
        kind = f"{rng.choice(WORDS).title()}{t}"
        out += [f"type {kind} struct {{", "\tcount int", "}", ""]
        for m in range(rng.randint(1, 4)):
            method = f"{rng.choice(WORDS).title()}{m}"
            out.append(f"func (s *{kind}) {method}(limit int) (int, error) {{")
            for line in range(rng.randint(4, 14)):
                out.append(f'\tfmt.Println("step", {line}, s.count+{rng.randrange(99)})')
            out += ["\treturn s.count, nil", "}", ""]
    return "\n".join(out)


def _python_names(source: str) -> list[int]:
    return sorted(
        node.lineno - 1
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    )


def _compress(name: str, source: str, ratio: float) -> tuple[str, int, int]:
    raw = SERVICE.compress_text(name, source, 10**9).raw_tokens
    budget = max(int(raw / ratio), 1)
    result = SERVICE.compress_text(name, source, budget, mode=CompressionMode.SMART)
    return result.content, result.compacted_tokens, budget


def _in_file_order(kept: list[str], original: list[str]) -> bool:
    rest = iter(original)
    return all(any(line == other for other in rest) for line in kept)


def test_a_twentieth_of_a_module_is_an_outline_of_its_declarations() -> None:
    source = _python(60, seed=3)
    lines = source.split("\n")
    names = _python_names(source)
    content, tokens, budget = _compress("module.py", source, 20)
    header, *body, trailer = content.split("\n")
    found = HEADER.fullmatch(header)
    assert found is not None, header
    assert tokens <= budget
    assert trailer.startswith("[TRUNCATED")
    assert int(found["total"]) == len(names)
    assert int(found["last"]) == len(lines) - 1  # the final newline starts no line
    assert _in_file_order(body, lines)
    # Only declaration names, and the count the marker gives.
    name_texts = {lines[index] for index in names}
    assert all(line in name_texts for line in body)
    assert int(found["kept"]) == len(body)
    # Nearly every name the budget could hold without any marker: the shortest first.
    room = budget - COUNTER.count(f"{header}\n\n{trailer}")
    costs = sorted(COUNTER.count(lines[index] + "\n") for index in names)
    reach = max(k for k in range(len(costs) + 1) if sum(costs[:k]) <= room)
    assert len(body) >= 0.95 * reach
    # A marker per gap would hold at most half as many: each costs about what a name does.
    marker = COUNTER.count("    # … lines 100-120\n")
    assert len(body) * (costs[len(costs) // 2] + marker) > 1.5 * room


def test_when_every_name_fits_with_its_markers_there_is_no_outline() -> None:
    source = _python(20, seed=5)
    lines = source.split("\n")
    content, tokens, budget = _compress("module.py", source, 3)
    assert tokens <= budget
    assert HEADER.match(content) is None
    kept = set(content.split("\n"))
    assert all(lines[index] in kept for index in _python_names(source))
    assert "# … lines" in content  # the usual markers name each gap


def test_other_languages_outline_in_their_comment_syntax() -> None:
    source = _go(40, seed=7)
    lines = source.split("\n")
    content, tokens, budget = _compress("server.go", source, 20)
    header, *body, _trailer = content.split("\n")
    found = HEADER.fullmatch(header)
    assert found is not None, header
    assert found["comment"] == "//"
    assert tokens <= budget
    assert _in_file_order(body, lines)
    assert all(line.startswith(("type ", "func ")) for line in body)


@settings(max_examples=25, deadline=None)
@given(
    classes=st.integers(min_value=2, max_value=80),
    seed=st.integers(min_value=0, max_value=10_000),
    ratio=st.sampled_from([1.5, 3.0, 5.0, 10.0, 20.0, 40.0]),
)
def test_names_come_before_any_other_line_at_any_size_and_ratio(
    classes: int, seed: int, ratio: float
) -> None:
    source = _python(classes, seed)
    lines = source.split("\n")
    names = _python_names(source)
    content, tokens, budget = _compress("module.py", source, ratio)
    assert tokens <= budget
    kept = content.split("\n")
    found = HEADER.fullmatch(kept[0])
    name_texts = {lines[index] for index in names}
    if found is not None:
        assert int(found["kept"]) == sum(line in name_texts for line in kept[1:-1])
        assert _in_file_order(kept[1:-1], lines)
    kept_names = {line for line in kept if line in name_texts}
    others = [
        line
        for line in kept
        if line.strip() and line not in name_texts and not line.lstrip().startswith(("#", "["))
    ]
    if others and found is None:
        # A line other than a name is kept only once every name is.
        assert kept_names == name_texts
