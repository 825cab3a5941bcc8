"""Smart mode for JSON leaves no cycles behind: what a fit surveyed and measured is freed when it
returns, by reference counting, not left to Python's cyclic collector (which a compression
pauses: tens of thousands of objects a megabyte piled up until it ran again)."""

from __future__ import annotations

import gc
import json
import random
from collections.abc import Iterator

import pytest

from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.application.services.artifact_compression.kinds.json.compressor import (
    JsonCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.json.facts import Facts
from cleveragents.application.services.artifact_compression.kinds.json.fitter import Fitter
from cleveragents.application.services.artifact_compression.kinds.json.pruner import Pruner
from cleveragents.application.services.artifact_compression.kinds.json.survey import Survey
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import Handles
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

COUNTER = TiktokenCounter("cl100k_base")


def _records(pretty: bool) -> str:
    rng = random.Random(5)
    records = [
        {
            "id": index,
            "name": "".join(rng.choice("abcdefgh") for _ in range(rng.randint(3, 40))),
            "tags": [rng.randint(0, 99) for _ in range(rng.randint(0, 6))],
            "owner": {"login": f"user{rng.randint(0, 50)}", "site_admin": rng.random() < 0.1},
            **({f"rare{index}": None} if rng.random() < 0.05 else {}),
        }
        for index in range(400)
    ]
    if pretty:
        return json.dumps({"data": records}, indent=2)
    return json.dumps({"data": records}, separators=(",", ":"))


@pytest.fixture
def collector_saving_all() -> Iterator[None]:
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


@pytest.mark.usefixtures("collector_saving_all")
@pytest.mark.parametrize("pretty", [True, False])
@pytest.mark.parametrize("share", [0.05, 0.3, 0.7, 0.95])
def test_a_fit_leaves_no_survey_or_measurements_to_the_cyclic_collector(
    pretty: bool, share: float
) -> None:
    text = _records(pretty)
    budget = int(COUNTER.count(text) * share)
    fitted = JsonCompressor().fit(text, TaskTerms(), budget, COUNTER, Handles())
    assert fitted is not None
    gc.collect()
    left = [
        type(found).__name__
        for found in gc.garbage
        if isinstance(found, Facts | Survey | Pruner | Fitter)
    ]
    assert left == []
