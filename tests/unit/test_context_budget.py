"""The context budget's domain rules and its weights files."""

from __future__ import annotations

from decimal import Decimal

import pytest
from pydantic import ValidationError

from cleveragents.adapters.budget_weights.heuristics_file import (
    default_heuristics,
    load_heuristics,
    parse_heuristics,
)
from cleveragents.domain.context_budget import (
    PROTECTED_KINDS,
    ArtifactEstimate,
    BudgetKind,
    InvalidHeuristicsError,
    Tier,
    TierBoundaries,
    changed_file_kind,
    count_lines,
    estimate_tokens,
)


@pytest.mark.parametrize(
    ("text", "lines"),
    [("", 0), ("a", 1), ("a\n", 1), ("a\nb", 2), ("\n\n", 2), ("a\r\nb\r\n", 2), ("a\u2028b", 1)],
)
def test_lines_are_counted_like_wc_plus_a_last_unterminated_line(text: str, lines: int) -> None:
    assert count_lines(text) == lines


def test_estimates_are_exact_on_the_weight_as_written_and_round_up() -> None:
    # In binary floating point 3 * 11.7 is 35.099999999999994 and 10 * 0.1 * 3 is not 3.
    assert estimate_tokens(3, Decimal("11.7")) == 36
    assert estimate_tokens(10, Decimal("3.5")) == 35
    assert estimate_tokens(10, Decimal("3.51")) == 36
    assert estimate_tokens(0, Decimal("46.5")) == 0


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("src/app.py", BudgetKind.SOURCE),
        ("src/App.TSX", BudgetKind.SOURCE),
        ("Makefile", BudgetKind.SOURCE),
        ("fix.diff", BudgetKind.DIFF),
        ("fix.patch", BudgetKind.DIFF),
        ("logs/build.LOG", BudgetKind.LOG),
        ("fixtures/a.json", BudgetKind.JSON),
        ("events.jsonl", BudgetKind.LOG),
        ("events.ndjson", BudgetKind.LOG),
        ("page.mdx", BudgetKind.DOC),
        ("docs/guide.md", BudgetKind.DOC),
        ("README.rst", BudgetKind.DOC),
        ("notes.txt", BudgetKind.DOC),
        ("C:\\work\\src\\main.rs", BudgetKind.SOURCE),
        ("dir.md/file", BudgetKind.SOURCE),
    ],
)
def test_changed_files_take_their_kind_from_the_extension(path: str, kind: BudgetKind) -> None:
    assert changed_file_kind(path) is kind


BOUNDARIES = TierBoundaries(yellow=Decimal("0.5"), amber=Decimal("0.7"), red=Decimal("0.85"))


@pytest.mark.parametrize(
    ("projected", "tier"),
    [
        (0, Tier.GREEN),
        (499_999, Tier.GREEN),
        (500_000, Tier.YELLOW),
        (699_999, Tier.YELLOW),
        (700_000, Tier.AMBER),
        (849_999, Tier.AMBER),
        (850_000, Tier.RED),
        (5_000_000, Tier.RED),
    ],
)
def test_a_tier_starts_exactly_at_its_boundary(projected: int, tier: Tier) -> None:
    assert BOUNDARIES.tier_of(projected, 1_000_000) is tier


@pytest.mark.parametrize(
    "values",
    [
        {"yellow": "0.7", "amber": "0.5", "red": "0.85"},
        {"yellow": "0.5", "amber": "0.5", "red": "0.85"},
        {"yellow": "0", "amber": "0.5", "red": "0.85"},
        {"yellow": "0.5", "amber": "0.7", "red": "1.5"},
    ],
)
def test_tier_boundaries_must_increase_within_the_window(values: dict[str, str]) -> None:
    with pytest.raises(ValidationError):
        TierBoundaries.model_validate(values)


def test_the_error_is_relative_to_the_exact_count() -> None:
    row = ArtifactEstimate(
        path="a.py",
        kind=BudgetKind.SOURCE,
        lines=10,
        weight=Decimal("8.2"),
        estimated_tokens=82,
        exact_tokens=80,
    )
    assert row.tokens == 80
    assert float(row.error or 0) == pytest.approx(0.025)
    assert row.model_copy(update={"exact_tokens": None}).error is None
    assert row.model_copy(update={"exact_tokens": 0}).error is None


# --- weights files --------------------------------------------------------------------------


def test_the_shipped_defaults_cover_every_kind_and_protect_the_spec() -> None:
    heuristics = default_heuristics()
    assert set(heuristics.weights) == set(BudgetKind)
    assert set(heuristics.retained) == set(BudgetKind) - PROTECTED_KINDS
    assert heuristics.tiers == BOUNDARIES
    assert heuristics.weights[BudgetKind.LOG] == Decimal("46.5")


def test_a_weights_file_overrides_only_what_it_sets() -> None:
    heuristics = load_heuristics("[tiers]\nred = 0.9\n\n[weights]\nsource = 7\n", "team.toml")
    defaults = default_heuristics()
    assert heuristics.tiers.red == Decimal("0.9")
    assert heuristics.tiers.amber == defaults.tiers.amber
    assert heuristics.weights[BudgetKind.SOURCE] == Decimal(7)
    assert heuristics.weights[BudgetKind.SPEC] == defaults.weights[BudgetKind.SPEC]
    assert heuristics.source == "team.toml"


def test_numbers_are_read_exactly_as_written() -> None:
    heuristics = load_heuristics("[weights]\nspec = 11.7\n", "w.toml")
    assert heuristics.weights[BudgetKind.SPEC] == Decimal("11.7")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[weights\nspec = 1", "w.toml is not valid TOML"),
        ("[budget]\nx = 1", "unknown section [budget]"),
        ("[weights]\nspecs = 1", "unknown key 'specs' in [weights]"),
        ("[tiers]\norange = 0.6", "unknown key 'orange' in [tiers]"),
        ("[weights]\nspec = 'ten'", "[weights] spec must be a number"),
        ("[weights]\nspec = true", "[weights] spec must be a number"),
        ("[weights]\nspec = 0", "weight of spec must be a positive number"),
        ("[weights]\nlog = -1.5", "weight of log must be a positive number"),
        ("[tiers]\nyellow = 0.9", "tier boundaries must increase"),
        ("[compaction]\nspec = 0.5", "spec is protected"),
        ("[compaction]\nlog = 1", "compaction target of log must be in (0, 1)"),
        ("weights = 3", "[weights] must be a table"),
    ],
)
def test_a_bad_weights_file_is_refused_with_its_name(text: str, message: str) -> None:
    with pytest.raises(InvalidHeuristicsError) as caught:
        load_heuristics(text, "w.toml")
    assert message in str(caught.value)
    assert str(caught.value).startswith("w.toml")


def test_a_complete_file_needs_every_kind_without_defaults_under_it() -> None:
    with pytest.raises(InvalidHeuristicsError, match="weights missing for"):
        parse_heuristics("[weights]\nspec = 1\n[tiers]\nyellow=0.1\namber=0.2\nred=0.3", "x")
