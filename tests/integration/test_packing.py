"""Smart mode's packer: what it keeps first, that it uses the budget, and that its markers
name exactly the lines they stand for."""

from __future__ import annotations

import re
from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st

from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    Handles,
    Priority,
    ShortForm,
)
from cleveragents.application.services.artifact_compression.packing.packer import pack, pack_lines
from cleveragents.application.services.artifact_compression.packing.request import (
    Line,
    PackRequest,
    line_costs_from_starts,
    line_offsets,
    repeat_runs,
)

COUNTER = TiktokenCounter("cl100k_base")
RANGE = re.compile(r"lines? (\d+)(?:-(\d+))?")


def marker(inner: str) -> str:
    return f"[… {inner}]"


def request(
    texts: list[str],
    ranks: Sequence[int],
    short_forms: dict[int, ShortForm] | None = None,
    templates: list[int] | None = None,
) -> tuple[PackRequest, int]:
    joined = "\n".join(texts) + "\n"
    starts = COUNTER.token_starts(joined)
    offsets = line_offsets(texts)
    built = PackRequest(
        positions=range(len(texts)),
        texts=texts,
        ranks=ranks,
        costs=line_costs_from_starts(offsets, starts),
        total_lines=len(texts),
        short_forms=short_forms or {},
        run_ends=repeat_runs(templates) if templates is not None else {},
        offsets=offsets,
        source_starts=starts,
    )
    return built, len(starts)


def packed(texts: list[str], ranks: Sequence[int], budget: int, **extra: object) -> str:
    built, raw = request(texts, ranks, **extra)  # type: ignore[arg-type]
    result = pack(built, budget, raw, COUNTER, marker, Handles())
    assert result.tokens == COUNTER.count(result.content) <= budget
    return result.content


def reassembled(content: str, texts: list[str]) -> list[str]:
    """The content with each marker replaced by the lines it names (what `agents artifact read
    ID --lines A-B` returns), the final line dropped."""
    out: list[str] = []
    for line in content.split("\n")[:-1]:
        if line.startswith("[… ") or " [… rest of line" in line:
            found = RANGE.search(line[line.index("[… ") :])
            assert found is not None, line
            first = int(found.group(1))
            last = int(found.group(2) or first)
            out.extend(texts[first - 1 : last])
        else:
            out.append(line)
    return out


def test_within_a_rank_the_ends_come_first() -> None:
    texts = [f"step {index} finished" for index in range(20)]
    assert all(text in packed(texts, [0] * 20, 10_000) for text in texts)
    budget = 1
    while "step 19 finished" not in (content := packed(texts, [0] * 20, budget)):
        budget += 1
    assert "step 0 finished" in content
    assert sum(f"{text}\n" in content + "\n" for text in texts) == 2


def test_rank_comes_before_position() -> None:
    texts = [f"line {index} of routine output" for index in range(60)]
    ranks = [Priority.CONTEXT] * 60
    ranks[37] = Priority.CRITICAL
    texts[37] = "ERROR disk full"
    content = packed(texts, list(ranks), 60)
    assert "ERROR disk full" in content


def test_the_budget_is_used() -> None:
    """Whatever the ranks, the packer keeps taking lines until nothing more fits."""
    texts = [
        f"2024-01-01 12:00:{index % 60:02d} worker {index} did its step" for index in range(500)
    ]
    ranks = [index % 6 for index in range(500)]
    raw = COUNTER.count("\n".join(texts) + "\n")
    for budget in (raw // 20, raw // 5, raw // 2, raw * 5 // 6):
        content = packed(texts, ranks, budget)
        assert COUNTER.count(content) >= 0.85 * budget


def test_context_is_taken_around_what_matters() -> None:
    """Context lines are offered nearest the important lines first."""
    texts = [f"routine line number {index}" for index in range(200)]
    ranks = [Priority.CONTEXT] * 200
    ranks[100] = Priority.CRITICAL
    texts[100] = "ERROR the thing broke"
    content = packed(texts, ranks, 80)
    assert "ERROR the thing broke" in content
    assert "routine line number 99\n" in content
    assert "routine line number 101\n" in content
    assert "routine line number 0\n" not in content


def test_markers_name_the_lines_they_stand_for() -> None:
    texts = [f"entry {index}: value {index * 7}" for index in range(300)]
    ranks = [(index * 37) % 7 for index in range(300)]
    raw = COUNTER.count("\n".join(texts) + "\n")
    for budget in (raw // 20, raw // 3, raw - 10):
        assert reassembled(packed(texts, ranks, budget), texts) == texts


def test_a_short_form_comes_first_and_the_whole_line_later() -> None:
    long_line = "The service MUST retry. " + "Filler sentence about nothing much. " * 60
    texts = ["# Title", long_line, *[f"other paragraph {i} here" for i in range(30)]]
    ranks = [0, 4, *([3] * 30)]
    shorts = {1: ShortForm("The service MUST retry.", 1)}
    tight = packed(texts, ranks, 60, short_forms=shorts)
    assert "The service MUST retry. [… rest of line 2]" in tight
    assert "Filler sentence" not in tight
    roomy = packed(texts, ranks, 2_000, short_forms=shorts)
    assert long_line in roomy
    for content in (tight, roomy):
        assert reassembled(content, texts) == texts


def test_an_overlong_line_is_kept_as_its_head() -> None:
    texts = ["start", "x" * 40 + " ".join(f"word{i}" for i in range(3000)), "end", "done"]
    content = packed(texts, [3, 1, 3, 3], 300)
    assert "word1 " in content
    assert "word2999" not in content
    assert "[… rest of line 2]" in content
    assert COUNTER.count(content) >= 0.5 * 300


def test_repeats_of_the_line_above_are_counted() -> None:
    texts = ["start", *["WARN retrying connection to db-1"] * 16, "ERROR gave up", "end"]
    templates = [0, *[1] * 16, 2, 3]
    ranks = [3, 2, *([5] * 15), 0, 3]
    content = packed(texts, ranks, 56, templates=templates)
    found = re.search(r"×(\d+) like the line above: lines (\d+)-17\]", content)
    assert found is not None, content
    assert int(found.group(1)) == 17 - int(found.group(2)) + 2  # the kept one counts too
    assert reassembled(content, texts) == texts


def test_stored_handles_carry_the_artifact_id() -> None:
    texts = [f"line {index}" for index in range(100)]
    built, raw = request(texts, [index % 3 for index in range(100)])
    result = pack(built, 60, raw, COUNTER, marker, Handles("01ARTIFACT"))
    assert re.search(r"\[… lines \d+-\d+ of 01ARTIFACT\]", result.content)


def test_sparse_lines_name_the_whole_artifact() -> None:
    lines = [Line(5, "ERROR first", 1), Line(500, "ERROR last", 0)]
    result = pack_lines(lines, 1000, 100, 20_000, COUNTER, marker)
    assert result.content.split("\n")[:-1] == [
        "[… lines 1-5]",
        "ERROR first",
        "[… lines 7-500]",
        "ERROR last",
        "[… lines 502-1000]",
    ]


def test_a_budget_below_the_markers_gets_a_marker_or_nothing() -> None:
    texts = [f"line {index}" for index in range(50)]
    for budget in range(1, 12):
        content = packed(texts, [0] * 50, budget)
        assert content == "" or content.startswith("[TRUNCATED")


@given(
    st.lists(st.text(alphabet="ab \t:=x1é", max_size=30), min_size=3, max_size=40),
    st.integers(min_value=1, max_value=400),
    st.randoms(use_true_random=False),
)
def test_any_lines_any_budget(texts: list[str], budget: int, rng: object) -> None:
    ranks = [rng.randrange(7) for _ in texts]  # type: ignore[attr-defined]
    content = packed(texts, ranks, budget)
    if COUNTER.count(content) > 20:
        assert reassembled(content, texts) == texts


def test_no_line_of_a_worse_rank_is_taken_once_a_better_one_did_not_fit() -> None:
    """Ranks are tiers: a small context line never takes the place of a better-ranked line
    that did not fit; the room left goes to that line's head instead."""
    texts = [f"heading {i}" for i in range(5)] + ["x " * 400] + ["tiny"] * 5
    ranks = [0] * 5 + [1] + [5] * 5
    content = packed(texts, ranks, 120)
    assert "tiny" not in content
    assert "[… rest of line 6]" in content
