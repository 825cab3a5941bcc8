"""The compressor, the names of the ranks of a diff's lines and the plan of a text, for the unit,
property and corpus tests of the diff line plan."""

from __future__ import annotations

from cleveragents.application.services.artifact_compression.kinds.diff.compressor import (
    DiffCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import LinePlan
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

NO_TASK = TaskTerms()
COMPRESSOR = DiffCompressor()

# Names of the ranks, as the module docstring of diff.py gives them.
NAMES, SHAPE, ALERT, OPENING, CHANGE, CONTEXT, NOISE = range(7)


def plan_of(text: str, terms: TaskTerms = NO_TASK) -> tuple[list[str], LinePlan]:
    lines = text.split("\n")
    plan = COMPRESSOR.line_plan(lines, terms)
    assert len(plan.priorities) == len(lines)
    return lines, plan
