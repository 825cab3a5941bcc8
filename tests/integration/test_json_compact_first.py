"""A pretty JSON document whose key paths only fit once written compact: no pretty level that
keeps them all fits, so the compact answer is found without searching the pretty levels that
lose some (the breadth-first ones, a walk of the document each), and it is the answer the full
search gives. Real tokenizer, real parser."""

from __future__ import annotations

import json
import random

import pytest

from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.application.services.artifact_compression.kinds.json import fitter, pruner
from cleveragents.application.services.artifact_compression.kinds.json.compressor import (
    JsonCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.json.token_ratios import (
    sample_ratio,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    FittedText,
    Handles,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

COUNTER = TiktokenCounter("cl100k_base")
WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "zeta",
    "theta",
    "kappa",
    "lambda",
    "sigma",
    "omega",
]


def _api_spec(seed: int) -> str:
    """An OpenAPI-like document, deeply nested and indented: its paths are unique, each with
    operations whose parameters and response schemas nest objects in objects."""
    rng = random.Random(seed)

    def name() -> str:
        return rng.choice(WORDS) + str(rng.randint(0, 999))

    def schema(depth: int) -> dict[str, object]:
        if depth > 2 or rng.random() < 0.3:
            return {"type": "string", "description": " ".join(rng.choices(WORDS, k=8))}
        properties = {name(): schema(depth + 1) for _ in range(rng.randint(1, 4))}
        return {"type": "object", "properties": properties}

    paths = {
        f"/{name()}/{name()}": {
            method: {
                "operationId": name(),
                "summary": " ".join(rng.choices(WORDS, k=6)),
                "responses": {"200": {"content": {"application/json": {"schema": schema(0)}}}},
            }
            for method in rng.sample(["get", "post", "put"], rng.randint(1, 2))
        }
        for _ in range(150)
    }
    return json.dumps({"openapi": "3.0.0", "paths": paths}, indent=2)


def _key_paths(value: object, path: str = "") -> set[str]:
    if isinstance(value, dict):
        return {
            key_path
            for key, member in value.items()
            if key != "…"
            for key_path in {f"{path}/{key}"} | _key_paths(member, f"{path}/{key}")
        }
    if isinstance(value, list):
        return set().union(*(_key_paths(item, path) for item in value))
    return set()


def _fit(text: str, budget: int) -> FittedText:
    fitted = JsonCompressor().fit(text, TaskTerms(), budget, COUNTER, Handles())
    assert fitted is not None
    return fitted


def _breadth_first_measures(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """The layout (pretty or not) of every breadth-first level measured."""
    seen: list[bool] = []
    measure = pruner.Pruner.measure

    def watched(self: pruner.Pruner, detail: object, cap: float = float("inf")) -> int:
        if getattr(detail, "members", None) is not None:
            seen.append(self.pretty)
        return measure(self, detail, cap)  # type: ignore[arg-type]

    monkeypatch.setattr(pruner.Pruner, "measure", watched)
    return seen


@pytest.mark.parametrize("seed", [1, 2])
def test_the_compact_answer_is_found_without_the_pretty_breadth_first_levels(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    text = _api_spec(seed)
    budget = COUNTER.count(text) // 2
    measured = _breadth_first_measures(monkeypatch)
    fitted = _fit(text, budget)
    assert fitted.tokens == COUNTER.count(fitted.text) <= budget
    assert _key_paths(json.loads(fitted.text)) == _key_paths(json.loads(text))
    assert True not in measured  # no pretty breadth-first level was walked

    # The full search, pretty levels first, comes to the same answer after walking them.
    measured.clear()
    monkeypatch.setattr(fitter.Fitter, "_pretty_keeps_no_key_paths", lambda _: False)
    assert _fit(text, budget) == fitted
    assert True in measured


def test_a_pretty_document_whose_key_paths_fit_pretty_is_not_written_compact() -> None:
    """Where a pretty level keeps every key path, the pretty search runs as before."""
    text = _api_spec(3)
    fitted = _fit(text, COUNTER.count(text) * 4 // 5)
    assert fitted.text.startswith("{\n  ")
    assert _key_paths(json.loads(fitted.text)) == _key_paths(json.loads(text))


def _lock_file(packages: int = 400) -> str:
    """A package lock file: its hashes make it dense in tokens, its key paths are few."""
    rng = random.Random(5)
    packages_found = {
        f"node_modules/{rng.choice(WORDS)}-{index}": {
            "version": f"{rng.randint(0, 9)}.{rng.randint(0, 30)}.0",
            "resolved": f"https://registry.example.org/{rng.choice(WORDS)}/-/{index}.tgz",
            "integrity": "sha512-" + "".join(rng.choices("abcdefABCDEF0123456789+/", k=86)),
            "dependencies": {rng.choice(WORDS): f"^{rng.randint(0, 9)}.0.0" for _ in range(3)},
        }
        for index in range(packages)
    }
    return json.dumps({"lockfileVersion": 3, "packages": packages_found}, indent=2)


def test_a_document_dense_only_in_its_values_is_not_written_to_be_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A lock file's hashes make it dense, but the levels that keep its key paths leave them
    bare: at the ratio of its values made bare, the poorest such level may fit, and is left to
    the pretty search instead of being written for the check."""
    text = _lock_file()
    checked: list[str] = []

    def watched(counter: TiktokenCounter, written: str) -> float:
        checked.append(written)
        return sample_ratio(counter, written)

    monkeypatch.setattr(fitter, "sample_ratio", watched)
    budget = COUNTER.count(text) // 2
    fitted = _fit(text, budget)
    assert not checked
    assert _key_paths(json.loads(fitted.text)) == _key_paths(json.loads(text))
    # The answer of the search without the check at all.
    monkeypatch.setattr(fitter.Fitter, "_pretty_keeps_no_key_paths", lambda _: False)
    assert _fit(text, budget) == fitted


def test_a_dense_documents_bare_key_paths_level_is_tried_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before any count, a level whose strings are bare is sized at the ratio of the input's
    samples made bare: the level that keeps a lock file's key paths fits at 0.55x raw, and is
    the first candidate, where the input's own ratio (its hashes) sent the search through the
    levels that lose key paths first. The answer is the same; no such level is measured."""
    text = _lock_file()
    budget = COUNTER.count(text) * 11 // 20
    measured = _breadth_first_measures(monkeypatch)
    fitted = _fit(text, budget)
    assert fitted.tokens == COUNTER.count(fitted.text) <= budget
    assert _key_paths(json.loads(fitted.text)) == _key_paths(json.loads(text))
    assert True not in measured  # no pretty breadth-first level

    measured.clear()
    monkeypatch.setattr(fitter.Fitter, "bare_ratio", lambda *_, **__: None)
    assert _fit(text, budget) == fitted
    assert True in measured  # the premise: at the input's ratio, the search went through them


@pytest.mark.parametrize("share", [0.7, 0.8])
def test_a_dense_documents_first_candidate_is_sized_at_its_own_string_limit(
    monkeypatch: pytest.MonkeyPatch, share: float
) -> None:
    """A lock file whose values are far denser than the rest: before any count, a level is
    sized at the ratio of the input's samples cut at its own string limit, so the first
    candidate is the answer (counted once). At the input's ratio, the first candidate used
    far less of the budget, and more were counted."""
    text = _lock_file()
    budget = int(COUNTER.count(text) * share)
    counted: list[int] = []
    count = fitter.Fitter.count

    def watched(self: fitter.Fitter, written: str) -> int:
        counted.append(len(written))
        return count(self, written)

    monkeypatch.setattr(fitter.Fitter, "count", watched)
    fitted = _fit(text, budget)
    assert len(counted) == 1
    assert 0.9 * budget <= fitted.tokens == COUNTER.count(fitted.text) <= budget

    counted.clear()
    monkeypatch.setattr(fitter, "_DENSE_VALUES", 0.0)  # sized at the input's ratio
    _fit(text, budget)
    assert len(counted) > 1


@pytest.mark.parametrize("share", [0.4, 0.5])
def test_a_level_far_over_at_the_bare_ratio_is_not_written_to_be_checked(
    monkeypatch: pytest.MonkeyPatch, share: float
) -> None:
    """An API description's pretty level that keeps its key paths is over the budget by half
    again at the ratio of its values made bare: it is known to be over without writing it
    and sampling it, and the answer is the one the check that writes it gives."""
    text = _api_spec(1)
    budget = int(COUNTER.count(text) * share)
    checked: list[str] = []

    def watched(counter: TiktokenCounter, written: str) -> float:
        checked.append(written)
        return sample_ratio(counter, written)

    monkeypatch.setattr(fitter, "sample_ratio", watched)
    fitted = _fit(text, budget)
    assert not checked
    assert fitted.tokens == COUNTER.count(fitted.text) <= budget

    monkeypatch.setattr(fitter, "_FAR_OVER", float("inf"))
    assert _fit(text, budget) == fitted
    assert checked  # the premise: without the margin, the level was written and sampled


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The tokens of every candidate the search counts, in order."""
    counts: list[int] = []
    count = fitter.Fitter.count

    def watched(self: fitter.Fitter, text: str) -> int:
        counts.append(count(self, text))
        return counts[-1]

    monkeypatch.setattr(fitter.Fitter, "count", watched)
    return counts


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_first_compact_candidate_is_sized_at_its_own_strings_ratio(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    """Cut strings make an API description denser (its values are common words, its keys and
    brackets are not): sized at the input's compact ratio, the first candidate was over the
    budget and was written and counted for nothing. Sized at the ratio of the input's
    windows written compact with their strings cut as the level cuts them, it fits."""
    text = _api_spec(seed)
    budget = COUNTER.count(text) // 2
    counts = _counted(monkeypatch)
    fitted = _fit(text, budget)
    assert fitted.tokens == COUNTER.count(fitted.text) <= budget
    assert counts, "a candidate is counted"
    assert counts[0] <= budget


def _compact_search(text: str) -> fitter._LayoutSearch:
    document = fitter.read_document(text, TaskTerms())
    assert document is not None
    fitting = fitter.Fitter(text, document, COUNTER.count(text) // 5, COUNTER, Handles())
    return fitting._layout_search(document.lines, pretty=False)


def test_compact_levels_are_sized_up_for_words_and_never_down_for_hashes() -> None:
    """Before a count, a compact level whose strings are cut is sized at the ratio of the
    input's samples cut alike when that is denser (an API description: common words cut,
    its keys and brackets stay), never when it is less dense (a lock file: its hashes cut)."""
    spec = _compact_search(_api_spec(1))
    assert spec._first_scale(0) > 1.05
    assert spec._first_scale(40) >= 1.0
    assert spec._first_scale(None) == 1.0  # strings whole: the input's own ratio

    lock = _compact_search(_lock_file(3000))
    asked: list[int] = []
    ratio = lock._fitter.compact_cut_ratio

    def watched(limit: int) -> float:
        asked.append(limit)
        return ratio(limit)

    lock._fitter.compact_cut_ratio = watched  # type: ignore[method-assign]
    assert lock._first_scale(0) == 1.0
    assert lock._first_scale(40) == lock._first_scale(160) == 1.0
    assert asked == [0]  # bare values no denser: the other limits are not sampled
