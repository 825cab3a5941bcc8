"""A JSON document whose objects share no shape (every key new) costs a walk of it at each
measurement of the search: the search stops refining after a few walks, and its answer still
fits the budget and parses. Real tokenizer, real parser."""

from __future__ import annotations

import json
import random

import pytest

from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.application.services.artifact_compression.kinds.json import fitter
from cleveragents.application.services.artifact_compression.kinds.json.compressor import (
    JsonCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    Handles,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

COUNTER = TiktokenCounter("cl100k_base")


def _spec_like(seed: int) -> str:
    """An object keyed by unique names (as an OpenAPI spec's paths or a lock file's packages),
    each holding objects and arrays whose keys are new too."""
    rng = random.Random(seed)

    def word() -> str:
        return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9)))

    paths = {}
    for number in range(300):
        paths[f"/{word()}/{number}"] = {
            word(): {
                word(): " ".join(word() for _ in range(rng.randint(2, 12))),
                word(): [{word(): word(), word(): rng.randint(0, 999)} for _ in range(3)],
            }
            for _ in range(rng.randint(1, 3))
        }
    return json.dumps({"openapi": "3.0.0", "paths": paths}, indent=2)


def _walks(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """(walked, entries) of every layout search that runs."""
    seen: list[tuple[int, int]] = []
    run = fitter._LayoutSearch.run

    def watched(search: fitter._LayoutSearch) -> object:
        try:
            return run(search)
        finally:
            seen.append((search.pruner.walked, search.pruner.survey.entries))

    monkeypatch.setattr(fitter._LayoutSearch, "run", watched)
    return seen


# Documents and budgets whose search, unlimited, walks the document more than five times (most
# walk it two to five times: the breadth-first levels are sized from one pass, and the levels
# that differ in one part share the others).
@pytest.mark.parametrize(("seed", "share"), [(6, 0.5), (8, 0.5)])
def test_the_search_of_a_document_without_repeated_shapes_is_bounded(
    monkeypatch: pytest.MonkeyPatch, seed: int, share: float
) -> None:
    # Written compact: the search of that layout walks the most.
    text = json.dumps(json.loads(_spec_like(seed)), separators=(",", ":"))
    budget = int(COUNTER.count(text) * share)

    def fit() -> int:
        fitted = JsonCompressor().fit(text, TaskTerms(), budget, COUNTER, Handles())
        assert fitted is not None
        assert fitted.tokens == COUNTER.count(fitted.text) <= budget
        json.loads(fitted.text)
        return fitted.tokens

    walks = _walks(monkeypatch)
    monkeypatch.setattr(fitter, "_WALKS_FLOOR", 0)
    monkeypatch.setattr(fitter, "_WALKS", 10**6)
    patient_tokens = fit()
    patient = [walked / entries for walked, entries in walks]
    walks.clear()
    monkeypatch.setattr(fitter, "_WALKS", 1)
    tokens = fit()
    impatient = [walked / entries for walked, entries in walks]
    # The allowance (one walk), the measurement under way when it ran out, and the few
    # measurements and candidates it takes to settle within `ENOUGH` of the budget.
    assert impatient
    assert max(impatient) <= 5 < max(patient)
    # It settles for less, but not for a marker of the root.
    assert tokens >= 0.6 * patient_tokens
