"""Smart mode for JSON: a pretty document likely to fit whole once compact is written compact
before it is surveyed, and surveyed only when that is not the answer (the survey costs about a
third of an encode of the text)."""

from __future__ import annotations

import json
import random

import pytest

from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.application.services.artifact_compression.kinds.json import fitter
from cleveragents.application.services.artifact_compression.kinds.json.compressor import (
    JsonCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.json.survey import Survey
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import Handles
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

COUNTER = TiktokenCounter("cl100k_base")


def _events() -> str:
    rng = random.Random(11)
    events = [
        {
            "id": str(rng.getrandbits(40)),
            "actor": {"login": f"user{rng.randint(0, 99)}", "site_admin": False},
            "body": " ".join(rng.choice(["merge", "route", "cache", "token"]) for _ in range(30)),
            "labels": [{"name": rng.choice(["bug", "docs"]), "color": "d72601"}],
        }
        for _ in range(300)
    ]
    return json.dumps({"data": events}, indent=2)


class _Surveys:
    def __init__(self) -> None:
        self.made = 0

    def __call__(self, root: object, terms: TaskTerms) -> Survey:
        self.made += 1
        return Survey(root, terms)


@pytest.fixture
def surveys(monkeypatch: pytest.MonkeyPatch) -> _Surveys:
    counting = _Surveys()
    monkeypatch.setattr(fitter, "Survey", counting)
    return counting


def test_a_document_that_fits_whole_once_compact_is_not_surveyed(surveys: _Surveys) -> None:
    text = _events()
    compact = json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":"))
    budget = int(COUNTER.count(compact) * 1.02)  # fits, using over 90% of the budget
    fitted = JsonCompressor().fit(text, TaskTerms(), budget, COUNTER, Handles())
    assert fitted is not None
    assert fitted.text == compact
    assert surveys.made == 0


def test_a_document_that_does_not_fit_whole_is_surveyed_and_cut(surveys: _Surveys) -> None:
    text = _events()
    budget = COUNTER.count(text) // 2
    fitted = JsonCompressor().fit(text, TaskTerms(), budget, COUNTER, Handles())
    assert fitted is not None
    assert fitted.tokens <= budget
    assert "items omitted" in fitted.text
    assert surveys.made >= 1


def test_a_document_with_room_to_open_its_containers_is_not_surveyed(surveys: _Surveys) -> None:
    # How many lines the room buys is judged from the whole document's pretty length and
    # newlines, which follow from its containers alone (`layout_sizes`), not from a survey.
    text = _events()
    compact = json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":"))
    budget = int(COUNTER.count(compact) * 1.3)
    fitted = JsonCompressor().fit(text, TaskTerms(), budget, COUNTER, Handles())
    assert fitted is not None
    assert fitted.tokens == COUNTER.count(fitted.text) <= budget
    assert json.loads(fitted.text) == json.loads(text)
    assert "\n" in fitted.text  # the outer containers opened
    assert surveys.made == 0
