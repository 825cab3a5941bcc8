"""The context budget: what the implementation phase will read, estimated before it starts.

An artifact's footprint is estimated as ``ceil(lines * weight)``, the weight being the measured
tokens per line of its kind (docs/budget-heuristics.md). The projected use, committed tokens plus
the estimate, over the available window picks a tier; amber and red call for compactions, which
never touch the protected items. Weights and fractions are Decimals: ``3 * 11.7`` is exactly 35.1,
so an estimate never depends on binary floating point.
"""

from __future__ import annotations

import math
import posixpath
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.vocabulary import ArtifactKind, kind_named_by

DEFAULT_AVAILABLE_TOKENS = 200_000
DEFAULT_COMMITTED_TOKENS = 30_000


class InvalidHeuristicsError(InvalidInputError):
    """A weights file that cannot be used: malformed, an unknown key, a value out of range."""


class BudgetContractError(InvalidInputError):
    """A context budget document that breaks the output contract."""


class BudgetKind(StrEnum):
    """What an artifact is to the implementation phase, each with its own weight (not the
    compressor's `ArtifactKind`: a spec, a test plan and a module doc are all markdown)."""

    SPEC = "spec"
    TEST_PLAN = "test_plan"
    MODULE_DOC = "module_doc"
    SOURCE = "source"
    DOC = "doc"
    DIFF = "diff"
    LOG = "log"
    JSON = "json"


PROTECTED_ITEMS = (
    "the active spec",
    "the rules constitution",
    "the project profile",
    "the active decision packet",
)
"""Never recommended for compaction, under any tier. Of these only the spec is an input artifact;
the other three are part of the committed tokens, which the planner never proposes to compact."""

PROTECTED_KINDS = frozenset({BudgetKind.SPEC})

_BUDGET_KIND_OF: dict[str, BudgetKind] = {
    ArtifactKind.DIFF: BudgetKind.DIFF,
    ArtifactKind.JSON: BudgetKind.JSON,
    ArtifactKind.LOG: BudgetKind.LOG,
    ArtifactKind.MARKDOWN: BudgetKind.DOC,
    ArtifactKind.SOURCE: BudgetKind.SOURCE,
}

_PROSE_SUFFIXES = (".rst", ".txt")
"""Prose that the compressor tells by its content (plain text may hold a log) and the planner,
which weighs it by its name alone, counts as a doc."""


def changed_file_kind(path: str) -> BudgetKind:
    """The kind of a changed file, by the suffix the artifact compressor reads too
    (`vocabulary.kind_named_by`): diffs, logs (``.jsonl`` records too), JSON and prose have
    their own weights; anything else is source code."""
    name = posixpath.basename(path.replace("\\", "/").lower())
    named = kind_named_by(name)
    if named is None and name.endswith(_PROSE_SUFFIXES):
        return BudgetKind.DOC
    return _BUDGET_KIND_OF.get(named or "", BudgetKind.SOURCE)


def count_lines(text: str) -> int:
    """Newline-terminated lines, plus a last line without its newline (``wc -l`` would miss it);
    blank lines count: the weights were measured the same way."""
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def estimate_tokens(lines: int, weight: Decimal) -> int:
    """``ceil(lines * weight)``: exact on the weight as written, rounded toward a warning."""
    return math.ceil(lines * weight)


class Tier(StrEnum):
    GREEN = "green"
    YELLOW = "yellow"
    AMBER = "amber"
    RED = "red"

    @property
    def needs_compaction(self) -> bool:
        return self in (Tier.AMBER, Tier.RED)


_Fraction = Field(gt=0, le=1)


class TierBoundaries(BaseModel):
    """Where each tier starts, as a fraction of the available window (projected use >= it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    yellow: Decimal = _Fraction
    amber: Decimal = _Fraction
    red: Decimal = _Fraction

    @model_validator(mode="after")
    def _increasing(self) -> Self:
        if not self.yellow < self.amber < self.red:
            raise ValueError(
                f"tier boundaries must increase: yellow ({self.yellow}) < amber ({self.amber}) "
                f"< red ({self.red})"
            )
        return self

    def tier_of(self, projected: int, available: int) -> Tier:
        """The tier of `projected` tokens out of `available` (exact: no division)."""
        for tier, start in ((Tier.RED, self.red), (Tier.AMBER, self.amber)):
            if projected >= start * available:
                return tier
        return Tier.YELLOW if projected >= self.yellow * available else Tier.GREEN


class BudgetHeuristics(BaseModel):
    """Per-line weights, tier boundaries and compaction targets, from a weights file.

    `retained` is the share of an artifact's tokens that its compacted form keeps; protected
    kinds have none (they are never compacted).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    weights: dict[BudgetKind, Decimal]
    tiers: TierBoundaries
    retained: dict[BudgetKind, Decimal]
    source: str = "default"

    @model_validator(mode="after")
    def _complete(self) -> Self:
        missing = [kind.value for kind in BudgetKind if kind not in self.weights]
        if missing:
            raise ValueError(f"weights missing for {', '.join(missing)}")
        for kind, weight in self.weights.items():
            if not weight.is_finite() or not weight > 0:
                raise ValueError(f"weight of {kind.value} must be a positive number, got {weight}")
        compactable = [kind for kind in BudgetKind if kind not in PROTECTED_KINDS]
        missing = [kind.value for kind in compactable if kind not in self.retained]
        if missing:
            raise ValueError(f"compaction targets missing for {', '.join(missing)}")
        for kind, share in self.retained.items():
            if kind in PROTECTED_KINDS:
                raise ValueError(f"{kind.value} is protected: it takes no compaction target")
            if not 0 < share < 1:
                raise ValueError(
                    f"compaction target of {kind.value} must be in (0, 1), got {share}"
                )
        return self


class ArtifactEstimate(BaseModel):
    """One row of the per-artifact table."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: str
    kind: BudgetKind
    lines: int = Field(ge=0)
    weight: Decimal
    estimated_tokens: int = Field(ge=0)
    exact_tokens: int | None = Field(default=None, ge=0)

    @property
    def protected(self) -> bool:
        return self.kind in PROTECTED_KINDS

    @property
    def tokens(self) -> int:
        """What the budget uses: the exact count when there is one, else the estimate."""
        return self.estimated_tokens if self.exact_tokens is None else self.exact_tokens

    @property
    def error(self) -> Fraction | None:
        """The estimate's relative error against the exact count (None without one, or when
        the exact count is 0)."""
        return relative_error(self.estimated_tokens, self.exact_tokens)


def relative_error(estimated: int, exact: int | None) -> Fraction | None:
    if exact is None or exact == 0:
        return None
    return Fraction(estimated - exact, exact)


class Compaction(BaseModel):
    """One recommended compaction: an artifact compressed to `tokens_after`, and why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: str
    kind: BudgetKind
    tokens_before: int = Field(ge=0)
    tokens_after: int = Field(ge=0)
    reason: str

    @property
    def saving(self) -> int:
        return self.tokens_before - self.tokens_after


AvailableSource = Literal["option", "project", "default"]


class BudgetReport(BaseModel):
    """The planner's answer: per-artifact rows, the tier, and the compactions it calls for."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    available: int = Field(gt=0)
    available_source: AvailableSource
    committed: int = Field(ge=0)
    boundaries: TierBoundaries
    artifacts: tuple[ArtifactEstimate, ...]
    encoding: str | None = None
    """The tokenizer that counted exactly; None when the rows are estimates only."""
    compactions: tuple[Compaction, ...] = ()
    split_recommended: bool = False
    """Red remains after every allowed compaction: split the work into smaller stories."""

    @property
    def exact(self) -> bool:
        return self.encoding is not None

    @property
    def estimated_total(self) -> int:
        return sum(row.estimated_tokens for row in self.artifacts)

    @property
    def exact_total(self) -> int | None:
        if not self.exact:
            return None
        return sum(row.tokens for row in self.artifacts)

    @property
    def artifact_tokens(self) -> int:
        return sum(row.tokens for row in self.artifacts)

    @property
    def projected(self) -> int:
        return self.committed + self.artifact_tokens

    @property
    def tier(self) -> Tier:
        return self.boundaries.tier_of(self.projected, self.available)

    @property
    def projected_after_compactions(self) -> int:
        return self.projected - sum(c.saving for c in self.compactions)

    @property
    def tier_after_compactions(self) -> Tier:
        return self.boundaries.tier_of(self.projected_after_compactions, self.available)
