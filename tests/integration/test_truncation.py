"""Tier 3's cut (`truncation.py`): exact, honest, and at a paragraph boundary only when that
keeps at least half the budget, else at a line boundary.

Real data: `tests/data/click-*.diff` (pallets/click, BSD-3-Clause) and the shared corpus's
diffs and Rust RFCs when present; the other texts are generated here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.application.services.artifact_compression.truncation import (
    SEPARATOR,
    truncate_to_budget,
    truncation_marker,
)
from cleveragents.application.services.counting.heuristic_counter import (
    HeuristicTokenCounter,
)
from tests.conftest import corpus_cases, corpus_files

DATA = Path(__file__).resolve().parents[1] / "data"
COUNTER = TiktokenCounter("cl100k_base")
RATIOS = (2, 5, 20)


def _diffs() -> list[Path]:
    by_name = {path.name: path for path in sorted(DATA.glob("click-*.diff"))}
    by_name.update({path.name: path for path in corpus_files("diffs", "*.diff")})
    return [by_name[name] for name in sorted(by_name)]


def _generated_diff(files: int = 6, lines_per_file: int = 40) -> str:
    """A `git format-patch` of several files: its one blank line follows the subject."""
    parts = ["From 0123456789abcdef Mon Sep 17 00:00:00 2001\nSubject: [PATCH] Rework\n\n---\n"]
    for number in range(files):
        path = f"src/module_{number}.py"
        body = "".join(
            f"+    value_{index} = compute({index}, {number})\n" for index in range(lines_per_file)
        )
        parts.append(
            f"diff --git a/{path} b/{path}\nindex 1111111..2222222 100644\n--- a/{path}\n"
            f"+++ b/{path}\n@@ -1,1 +1,{lines_per_file + 1} @@\n def run():\n{body}"
        )
    return "".join(parts)


def _kept_and_marker(content: str) -> tuple[str, str]:
    kept, _, marker = content.rpartition(SEPARATOR)
    return kept, marker


def _check_exact_and_honest(text: str, budget: int) -> str:
    """Tier 3 of `text` at `budget`; asserts the invariants every cut has, returns the kept
    text."""
    raw = COUNTER.count(text)
    cut = truncate_to_budget(text, budget, raw, COUNTER)
    assert cut.tokens == COUNTER.count(cut.content) <= budget
    kept, marker = _kept_and_marker(cut.content)
    assert kept == cut.kept_text
    assert text.startswith(kept)
    assert marker == truncation_marker(raw - len(COUNTER.token_starts(kept)))
    return kept


@pytest.mark.parametrize("path", _diffs(), ids=lambda path: path.name)
@pytest.mark.parametrize("ratio", RATIOS)
def test_a_diff_keeps_most_of_the_budget_cut_at_a_line(path: Path, ratio: int) -> None:
    """A git diff's only paragraph break follows its subject: the cut used to stop there
    (about 50 tokens at any budget). It now goes to the last line that fits."""
    text = path.read_text(encoding="utf-8")
    budget = COUNTER.count(text) // ratio
    kept = _check_exact_and_honest(text, budget)
    assert COUNTER.count(kept) * 2 >= budget
    assert text[len(kept)] == "\n"  # a line boundary
    subject = text.split("\n\n", 1)[0]
    if COUNTER.count(subject) * 2 < budget:  # else the subject is itself half the budget
        assert len(kept) > len(subject) + 2


@pytest.mark.parametrize("ratio", RATIOS)
def test_a_generated_patch_of_several_files(ratio: int) -> None:
    text = _generated_diff()
    budget = COUNTER.count(text) // ratio
    kept = _check_exact_and_honest(text, budget)
    assert COUNTER.count(kept) * 2 >= budget
    assert text[len(kept)] == "\n"
    assert "diff --git a/src/module_0.py" in kept


def test_a_late_paragraph_break_is_still_the_cut() -> None:
    """Prose whose paragraphs are short: the tiered cut (the last paragraph break before
    budget * 4 characters) keeps more than half the budget, and is taken as before."""
    paragraph = "\n".join(
        f"Sentence {index} of a short paragraph about caching." for index in range(4)
    )
    text = "\n\n".join(f"{paragraph} Part {number}." for number in range(40))
    budget = 400
    kept = _check_exact_and_honest(text, budget)
    assert text[len(kept) : len(kept) + 2] == "\n\n"
    assert COUNTER.count(kept) * 2 >= budget


def test_an_early_paragraph_break_gives_way_to_a_line_break() -> None:
    """One blank line near the start, then a long run of lines: cut at the last line that
    fits, not after the first paragraph."""
    text = "Title\n\n" + "".join(f"line {index} of a long list of items\n" for index in range(400))
    budget = 300
    kept = _check_exact_and_honest(text, budget)
    assert text[len(kept)] == "\n"
    assert text[len(kept) + 1] != "\n"
    assert COUNTER.count(kept) * 2 >= budget


@pytest.mark.parametrize("path", corpus_cases("markdown", "*.md"), ids=lambda path: path.name)
@pytest.mark.parametrize("ratio", RATIOS)
def test_real_prose_is_exact_and_keeps_half(path: Path, ratio: int) -> None:
    text = path.read_text(encoding="utf-8")
    budget = COUNTER.count(text) // ratio
    kept = _check_exact_and_honest(text, budget)
    assert COUNTER.count(kept) * 2 >= budget
    assert text[len(kept)] == "\n"


# With the heuristic counter a token is 4 characters, so the threshold can be hit exactly. The
# budget is 60, so half is 30 tokens (120 characters); the marker takes 17, which leaves room
# for 43 tokens of kept text.
HEURISTIC = HeuristicTokenCounter()
HALF_BUDGET = 60


def _heuristic_text(paragraph_at: int) -> str:
    """Lines of 8 characters (2 tokens) with one paragraph break after `paragraph_at`
    characters, far more text than the budget."""
    lines = ["abcdefg"] * 200
    text = "\n".join(lines)
    return text[:paragraph_at] + "\n" + text[paragraph_at:]


def _heuristic_cut(text: str) -> str:
    raw = HEURISTIC.count(text)
    cut = truncate_to_budget(text, HALF_BUDGET, raw, HEURISTIC)
    assert cut.tokens == HEURISTIC.count(cut.content) <= HALF_BUDGET
    return cut.kept_text


def test_a_paragraph_cut_keeping_exactly_half_is_taken() -> None:
    text = _heuristic_text(119)  # the break follows the 15th line: 119 characters + "\n"
    assert text[119:121] == "\n\n"
    assert _heuristic_cut(text) == text[:119]  # 30 tokens: half the budget


def test_a_paragraph_cut_keeping_less_than_half_gives_way() -> None:
    text = _heuristic_text(111)  # after the 14th line: 28 tokens, under half
    assert text[111:113] == "\n\n"
    kept = _heuristic_cut(text)
    assert len(kept) > 119
    assert text[len(kept)] == "\n"


def test_tiny_budgets_still_fit() -> None:
    text = _generated_diff()
    raw = COUNTER.count(text)
    for budget in range(1, 40):
        cut = truncate_to_budget(text, budget, raw, COUNTER)
        assert cut.tokens == COUNTER.count(cut.content) <= budget


def test_given_token_starts_give_the_same_cut() -> None:
    text = _generated_diff()
    raw = COUNTER.count(text)
    starts = COUNTER.token_starts(text)
    for budget in (50, 200, 700):
        assert truncate_to_budget(text, budget, raw, COUNTER, starts) == truncate_to_budget(
            text, budget, raw, COUNTER
        )
