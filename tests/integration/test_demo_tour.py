"""The demo tour service with the real parts (SQLite file, tokenizer, scanner, store) on the
samples the package ships."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from cleveragents.application.services.demo_tour import (
    CompactionStep,
    DemoTour,
    ImportStep,
    LogStep,
    MetricsStep,
    SkeletonStep,
    TourSamples,
    TourStep,
)
from cleveragents.application.services.demo_tour.tour import fake_aws_key_id, leaked_diff
from cleveragents.container import Container, build_container
from cleveragents.samples import API_RESPONSE, DIFF, LOG, SESSION, read_sample

SAMPLE_NAMES = (LOG, DIFF, API_RESPONSE, SESSION)


def _samples() -> TourSamples:
    return TourSamples(
        log=read_sample(LOG),
        diff=read_sample(DIFF),
        api_response=read_sample(API_RESPONSE),
        session=read_sample(SESSION),
    )


def _tour(container: Container) -> DemoTour:
    tour: DemoTour = container.demo_tour()  # the container is untyped: say what it gives
    return tour


@pytest.fixture
def steps(container: Container) -> tuple[TourStep, ...]:
    return _tour(container).run(_samples())


def test_every_sample_ships_with_its_source_named() -> None:
    readme = read_sample("README.md")
    for name in SAMPLE_NAMES:
        assert read_sample(name).strip(), name
        assert f"`{name}`" in readme, name
    assert " ERROR " in read_sample(LOG)


def test_no_sample_holds_a_credential_but_the_leak_made_at_run_time_does(
    container: Container,
) -> None:
    scanner = container.secret_scanner()
    for name in (*SAMPLE_NAMES, "README.md"):
        assert scanner.match_bytes(read_sample(name).encode()) == [], name
    leaked = leaked_diff(read_sample(DIFF)).encode()
    assert [match.kind.value for match in scanner.match_bytes(leaked)] == ["aws-access-key-id"]
    assert fake_aws_key_id() == fake_aws_key_id()  # the same on every run


def test_the_steps_are_typed_and_each_saves_tokens(steps: tuple[TourStep, ...]) -> None:
    kinds = [type(step) for step in steps]
    assert kinds == [SkeletonStep, LogStep, ImportStep, CompactionStep, MetricsStep]
    assert [step.number for step in steps] == [1, 2, 3, 4, 5]
    for step in steps:
        assert 0 < step.tokens_after < step.tokens_before, step.name


def test_the_child_plan_is_in_the_store_with_its_skeleton(
    container: Container, steps: tuple[TourStep, ...]
) -> None:
    skeleton = steps[0]
    assert isinstance(skeleton, SkeletonStep)
    child = container.plan_service().status(skeleton.child_id).plan
    assert child.parent_id == skeleton.parent_id
    assert child.skeleton_metadata is not None
    assert child.skeleton_metadata.compressed_tokens == skeleton.tokens_after
    assert [f.fragment_id for f in child.inherited_fragments] == ["click-diff", "github-response"]
    # The counts are the tokenizer's, of the samples themselves.
    counter = container.token_counter()
    tokens = {f.fragment_id: f.tokens for f in skeleton.fragments}
    assert tokens["hadoop-log"] == counter.count(read_sample(LOG))


def test_the_stored_output_reads_back_and_the_blocked_one_is_only_an_audit_row(
    container: Container, steps: tuple[TourStep, ...]
) -> None:
    imports = steps[2]
    assert isinstance(imports, ImportStep)
    store = container.artifact_store()
    stored = imports.stored
    assert (
        store.read(stored.artifact_id, 0, stored.byte_count) == read_sample(API_RESPONSE).encode()
    )
    assert store.get(imports.blocked.audit_row).status.value == "blocked"
    assert imports.blocked.lines == (leaked_diff(read_sample(DIFF)).count("\n"),)


def test_the_compaction_recovers_every_fact_of_the_session(steps: tuple[TourStep, ...]) -> None:
    compaction = steps[3]
    assert isinstance(compaction, CompactionStep)
    assert compaction.status == "compacted"
    assert compaction.folded_messages + compaction.kept_messages == compaction.messages
    assert {entry.category for entry in compaction.recovery} >= {
        "latest_request",
        "files_modified",
        "errors",
    }
    missed = [e.category for e in compaction.recovery if e.recovered != e.total]
    assert missed == []


def test_the_figures_are_the_same_on_every_run(tmp_path: Path, steps: tuple[TourStep, ...]) -> None:
    again = build_container(f"sqlite:///{tmp_path / 'again.db'}", home=tmp_path / "again")
    try:
        second = _tour(again).run(_samples())
    finally:
        again.store().dispose()
    assert [_figures(step) for step in second] == [_figures(step) for step in steps]


def _figures(step: TourStep) -> dict[str, Any]:
    """The step without its ids (ULIDs and hashes of ids differ from run to run)."""
    data = step.as_dict()
    for key in ("parent_id", "child_id", "source_decision_ids"):
        data.pop(key, None)
    for part in ("blocked", "stored"):
        if part in data:
            data[part] = {
                k: v
                for k, v in data[part].items()
                if k not in ("audit_row", "artifact_id", "notice")
            }
    return data


def test_the_records_serialise_as_json(steps: tuple[TourStep, ...]) -> None:
    decoded = json.loads(json.dumps([step.as_dict() for step in steps]))
    assert [entry["name"] for entry in decoded] == [step.name for step in steps]
    compaction = steps[3]
    assert isinstance(compaction, CompactionStep)
    assert decoded[3]["recovery"][0] == dataclasses.asdict(compaction.recovery[0])
