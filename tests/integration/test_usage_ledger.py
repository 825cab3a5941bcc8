"""The usage ledger in a real SQLite file, the locked catalog over the real genai-prices data,
and the metrics service over both."""

from __future__ import annotations

import json
import shutil
import socket
import threading
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import genai_prices
import pytest
from genai_prices.data_snapshot import DataSnapshot, set_custom_snapshot

from cleveragents.adapters.model_catalog.genai_prices_catalog import (
    PINNED_DATA_SHA256,
    CatalogIntegrityError,
    GenaiPricesCatalog,
)
from cleveragents.adapters.persistence.usage_repository import SqlUsageLedger
from cleveragents.application.services.metrics.metrics_service import MetricsService
from cleveragents.application.services.metrics.usage_normalization import normalize_usage
from cleveragents.application.services.metrics.usage_totals import totals_of
from cleveragents.container import Container
from cleveragents.domain.errors import ConflictError, InvalidInputError, ProjectNotFoundError
from cleveragents.domain.event import CONTEXT_COMPACTED, STABLE_PREFIX_BUILT
from cleveragents.domain.model_catalog import CacheSupport, request_cost
from cleveragents.domain.project import Project
from cleveragents.domain.stored_artifact import ArtifactStatus
from cleveragents.domain.usage import UsageRecord
from tests.conftest import TEST_DATA
from tests.fakes import FixedClock

USAGE_DATA = TEST_DATA / "usage"
GOLDEN: dict[str, Any] = json.loads((USAGE_DATA / "golden.json").read_text())
PAYLOADS = sorted(name for name in GOLDEN if not name.startswith("_"))
PRICED_AT = datetime(2026, 11, 30, tzinfo=UTC)
SHORT_SESSION = USAGE_DATA / "claude-code-short.jsonl"


def _payload(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((USAGE_DATA / name).read_text())
    return document


@pytest.fixture(scope="module")
def catalog() -> GenaiPricesCatalog:
    return GenaiPricesCatalog()


@pytest.fixture
def ledger(container: Container) -> SqlUsageLedger:
    return SqlUsageLedger(container.store().sessions)


@pytest.fixture
def project(container: Container) -> Project:
    created: Project = container.project_service().create("metrics")
    return created


def _records(project_id: str, plan_id: str | None = None, batch: str = "a") -> list[UsageRecord]:
    records = []
    for index, name in enumerate(PAYLOADS):
        payload = _payload(name)
        records.append(
            UsageRecord(
                project_id=project_id,
                plan_id=plan_id,
                model=payload["model"],
                usage=normalize_usage(payload["usage"]),
                request_key=f"{batch}:{payload['id']}",
                message_id=payload["id"],
                requested_at=PRICED_AT + timedelta(minutes=index),
                recorded_at=PRICED_AT + timedelta(hours=1),
                source=name,
                raw_usage=payload["usage"],
            )
        )
    return records


# -- the ledger ----------------------------------------------------------------------------------


def test_records_round_trip_with_unknown_figures_kept_unknown(
    ledger: SqlUsageLedger, project: Project
) -> None:
    records = _records(project.id)
    assert ledger.record(records) == records
    assert ledger.records(project_id=project.id) == records
    stored = {record.source: record for record in ledger.records()}
    no_details = stored["openai-chat-no-details.json"].usage
    assert no_details.cache_read_tokens is None  # NULL, not 0
    assert no_details.input_tokens is None
    assert stored["openai-response.json"].usage.cache_write_tokens is None


def test_recording_a_request_again_changes_nothing(
    ledger: SqlUsageLedger, project: Project
) -> None:
    records = _records(project.id)
    ledger.record(records[:3])
    again = [
        record.model_copy(update={"id": f"01J0000000000000000000000{i}"})
        for i, record in enumerate(records)
    ]
    fresh = ledger.record(again + again[-1:])  # the last one twice in one call
    assert [record.request_key for record in fresh] == [r.request_key for r in records[3:]]
    assert len(ledger.records()) == len(records)
    assert ledger.record([]) == []


def test_a_request_stored_by_a_concurrent_import_is_skipped_on_retry(
    ledger: SqlUsageLedger, project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under read committed (PostgreSQL), another import can store a request between this
    import's lookup and its insert; the unique key refuses the batch, and the lookup is made
    again instead of failing the import. The first lookup here misses what is stored."""
    records = _records(project.id)
    ledger.record(records[:2])  # "the other import"
    real_lookup = SqlUsageLedger._known_keys
    lookups: list[int] = []

    def stale_then_real(session: Any, keys: list[str]) -> set[str]:
        lookups.append(len(keys))
        return set() if len(lookups) == 1 else real_lookup(session, keys)

    monkeypatch.setattr(SqlUsageLedger, "_known_keys", staticmethod(stale_then_real))
    fresh = ledger.record(records)
    assert len(lookups) == 2
    assert [record.request_key for record in fresh] == [r.request_key for r in records[2:]]
    assert len(ledger.records()) == len(records)


def test_a_conflict_that_persists_is_reported(
    ledger: SqlUsageLedger, project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = _records(project.id)
    ledger.record(records[:1])
    monkeypatch.setattr(SqlUsageLedger, "_known_keys", staticmethod(lambda *_: set()))
    with pytest.raises(ConflictError, match="conflicts with stored data"):
        ledger.record(records)
    assert len(ledger.records()) == 1  # nothing of the refused batch was stored


def test_sql_totals_equal_the_in_memory_totals_per_scope(
    container: Container, ledger: SqlUsageLedger, project: Project
) -> None:
    plan = container.plan_service().create("metrics", "a plan")
    other = container.project_service().create("other")
    ledger.record(
        _records(project.id)
        + _records(project.id, plan.id, batch="b")
        + _records(other.id, batch="c")
    )

    for scope in ({}, {"project_id": project.id}, {"plan_id": plan.id}, {"project_id": other.id}):
        assert ledger.totals(**scope) == totals_of(ledger.records(**scope))
    by_model = {t.model: t for t in ledger.totals(plan_id=plan.id)}
    no_details = by_model["gpt-4o-mini"]
    assert (no_details.cache_read_tokens.total, no_details.cache_read_tokens.reported) == (0, 0)
    assert no_details.total_input_tokens.total == 57
    assert sum(t.requests for t in ledger.totals(project_id=project.id)) == 2 * len(PAYLOADS)


# -- the locked catalog --------------------------------------------------------------------------


@pytest.mark.parametrize("name", PAYLOADS)
def test_golden_costs_from_the_pinned_prices(name: str, catalog: GenaiPricesCatalog) -> None:
    payload = _payload(name)
    usage = normalize_usage(payload["usage"])
    entry = catalog.entry(payload["model"], usage.provider, PRICED_AT, usage.service_tier)
    assert entry is not None
    cost = request_cost(usage, entry)
    expected = GOLDEN[name]["cost"]
    for part, amount in expected.items():
        figure = cost.total if part == "total" else getattr(cost, part)
        assert figure.usd == (None if amount is None else Decimal(amount)), part
        assert (figure.unavailable is None) == (amount is not None), part


@pytest.mark.parametrize("name", [n for n in PAYLOADS if n != "openai-chat-no-details.json"])
def test_the_breakdown_adds_up_to_genai_prices_own_total(
    name: str, catalog: GenaiPricesCatalog
) -> None:
    payload = _payload(name)
    usage = normalize_usage(payload["usage"])
    entry = catalog.entry(payload["model"], usage.provider, PRICED_AT, usage.service_tier)
    assert entry is not None
    theirs = genai_prices.calc_price(
        genai_prices.Usage(
            input_tokens=usage.total_input_tokens,
            cache_read_tokens=usage.cache_read_tokens,
            cache_write_tokens=usage.cache_write_tokens,
            cache_write_1h_tokens=usage.cache_write_1h_tokens,
            output_tokens=usage.output_tokens,
        ),
        payload["model"],
        provider_id=usage.provider,
        genai_request_timestamp=PRICED_AT,
    )
    assert request_cost(usage, entry).total.usd == theirs.total_price


def test_entries_carry_context_windows_and_cache_support(catalog: GenaiPricesCatalog) -> None:
    sonnet = catalog.entry("claude-sonnet-4-5-20250929", "anthropic", PRICED_AT)
    assert sonnet is not None
    assert (sonnet.model_id, sonnet.context_window) == ("claude-sonnet-4-5", 200_000)
    assert sonnet.cache_support is CacheSupport.AVAILABLE
    turbo = catalog.entry("gpt-4-turbo", "openai", PRICED_AT)
    assert turbo is not None
    assert turbo.cache_support is CacheSupport.UNAVAILABLE
    assert catalog.entry("no-such-model-x", "openai", PRICED_AT) is None
    assert catalog.entry("gpt-4o", "anthropic", PRICED_AT) is None  # not under that provider
    assert "genai-prices 0.2.3" in catalog.description


def test_prices_are_those_in_force_when_the_request_was_served(
    catalog: GenaiPricesCatalog,
) -> None:
    before = catalog.entry("claude-opus-4-6", "anthropic", datetime(2026, 2, 10, tzinfo=UTC))
    after = catalog.entry("claude-opus-4-6", "anthropic", datetime(2026, 3, 13, tzinfo=UTC))
    assert before is not None
    assert after is not None
    assert before.pricing.input is not None
    assert before.pricing.input.tiers
    assert after.pricing.input is not None
    assert not after.pricing.input.tiers


def test_the_catalog_refuses_another_version(tmp_path: Path) -> None:
    with pytest.raises(CatalogIntegrityError, match=r"locked to genai-prices==0\.2\.3"):
        GenaiPricesCatalog(version="0.2.4").entry("gpt-4o", "openai", PRICED_AT)


def test_the_catalog_refuses_changed_data(tmp_path: Path) -> None:
    from genai_prices import data

    changed = tmp_path / "data.py"
    shutil.copyfile(data.__file__, changed)
    with changed.open("a") as handle:
        handle.write("\n# a price edited by hand\n")
    with pytest.raises(CatalogIntegrityError, match=PINNED_DATA_SHA256):
        GenaiPricesCatalog(data_path=changed).entry("gpt-4o", "openai", PRICED_AT)


def test_the_catalog_never_touches_the_network(monkeypatch: pytest.MonkeyPatch) -> None:
    attempts: list[object] = []

    def refuse(*args: object, **kwargs: object) -> None:
        attempts.append(args)
        raise OSError("network access in a test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    threads_before = {thread.name for thread in threading.enumerate()}

    fresh = GenaiPricesCatalog()
    entry = fresh.entry("gpt-4o", "openai", PRICED_AT)
    assert entry is not None
    assert entry.context_window == 128_000
    assert attempts == []
    started = {thread.name for thread in threading.enumerate()} - threads_before
    assert not any(name.startswith("genai_prices") for name in started)


def test_prices_fetched_into_genai_prices_at_run_time_are_ignored() -> None:
    # What an `UpdatePrices` thread would install: the catalog must keep the bundled data.
    set_custom_snapshot(DataSnapshot(providers=[], from_auto_update=True))
    try:
        entry = GenaiPricesCatalog().entry("gpt-4o", "openai", PRICED_AT)
    finally:
        set_custom_snapshot(None)
    assert entry is not None
    assert entry.pricing.input is not None


# -- the metrics service -------------------------------------------------------------------------


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock()


@pytest.fixture
def metrics(container: Container, catalog: GenaiPricesCatalog, clock: FixedClock) -> MetricsService:
    return MetricsService(
        uow_factory=container.unit_of_work,
        ledger=SqlUsageLedger(container.store().sessions),
        catalog=catalog,
        events=container.event_sink(),
        codec=container.transcript_codec(),
        clock=clock,
    )


def test_import_records_each_request_once_into_the_default_project(
    metrics: MetricsService, container: Container
) -> None:
    text = SHORT_SESSION.read_text()
    first = metrics.import_transcript(text, "short.jsonl")
    assert first.scope.project is not None
    assert first.scope.project.name == "default"
    assert (first.requests, first.recorded, first.already_recorded) == (1, 1, 0)
    again = metrics.import_transcript(text, "short.jsonl")
    assert (again.requests, again.recorded, again.already_recorded) == (1, 0, 1)
    assert [p.name for p in container.project_service().list()] == ["default"]

    report = metrics.show(project="default")
    (model,) = report.usage.models
    assert model.model == "claude-opus-4-6"
    assert model.summary.requests == 1
    tokens = {name: figure.value for name, figure in model.summary.tokens.items()}
    assert tokens == {
        "input_tokens": 3,
        "cache_read_tokens": 11515,
        "cache_write_tokens": 13835,
        "total_input_tokens": 25353,
        "output_tokens": 13,
        "reasoning_tokens": None,
    }
    assert model.summary.tokens["reasoning_tokens"].unavailable == "not reported by 1 of 1 requests"
    # Priced on 2026-02-10, when claude-opus-4-6 cost 5/0.5/10 (1h writes)/25 per MTok.
    assert model.summary.cost.total.usd == Decimal("0.1444475")
    assert model.summary.cost.cache_write.usd == Decimal("0.13835")
    assert report.usage.totals.cost.total.usd == Decimal("0.1444475")


def test_a_malformed_transcript_writes_nothing(
    metrics: MetricsService, container: Container
) -> None:
    bad = SHORT_SESSION.read_text().replace('"output_tokens":13', '"output_tokens":-13')
    with pytest.raises(InvalidInputError, match="output_tokens"):
        metrics.import_transcript(bad, "bad.jsonl")
    assert container.project_service().list() == []
    assert metrics.show().usage.models == ()


def test_unknown_models_and_uncached_models_report_unavailable_never_zero(
    metrics: MetricsService, ledger: SqlUsageLedger, project: Project
) -> None:
    records = _records(project.id)
    unknown = records[0].model_copy(
        update={
            "model": "claude-imaginary-9",
            "request_key": "k",
            "id": "01J00000000000000000000009",
        }
    )
    ledger.record([*records, unknown])
    report = metrics.show(project="metrics")
    models = {model.model: model for model in report.usage.models}

    imaginary = models["claude-imaginary-9"]
    assert imaginary.catalog_model is None
    assert imaginary.cache_support is CacheSupport.UNAVAILABLE
    assert imaginary.summary.cost.total.usd is None
    assert "not in the locked catalog" in (imaginary.summary.cost.total.unavailable or "")
    assert imaginary.summary.tokens["cache_read_tokens"].value is None

    turbo = models["gpt-4-turbo-2024-04-09"]
    assert turbo.cache_support is CacheSupport.UNAVAILABLE
    read = turbo.summary.tokens["cache_read_tokens"]
    assert read.value is None  # the payload said 0; the catalog declares no cache price
    assert "declares no cache-read price" in (read.unavailable or "")

    gpt4o = models["gpt-4o-2024-08-06"]
    assert gpt4o.summary.tokens["cache_read_tokens"].value == 1920
    assert gpt4o.summary.tokens["cache_write_tokens"].value is None
    assert report.usage.totals.tokens["cache_write_tokens"].value is None
    assert (
        report.usage.totals.tokens["output_tokens"].value
        == sum(record.usage.output_tokens for record in records) + unknown.usage.output_tokens
    )


def test_show_reports_compactions_prefixes_and_artifacts_in_scope(
    metrics: MetricsService, container: Container, project: Project, tmp_path: Path
) -> None:
    plan = container.plan_service().create("metrics", "a plan")
    events = container.event_sink()
    events.emit(CONTEXT_COMPACTED, {"summary_sha256": "a" * 64, "project_id": project.id})
    events.emit(CONTEXT_COMPACTED, {"summary_sha256": "b" * 64, "plan_id": plan.id})
    events.emit(CONTEXT_COMPACTED, {"summary_sha256": "a" * 64, "project_id": project.id})
    events.emit(CONTEXT_COMPACTED, {"summary_sha256": "c" * 64})  # names no scope
    events.emit(STABLE_PREFIX_BUILT, {"sha256": "d" * 64, "plan_id": plan.id})
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "out.log").write_bytes(b"x" * 1000)
    store = container.artifact_store()
    store.import_file(str(workspace), "out.log", project="metrics")
    store.import_file(str(workspace), "out.log", plan_id=plan.id)

    everything = metrics.show()
    assert everything.compaction.count == 4
    assert everything.compaction.unattributed is None
    assert everything.compaction.fingerprints == ("a" * 64, "b" * 64, "c" * 64)

    in_project = metrics.show(project="metrics")
    assert in_project.compaction.count == 3
    assert in_project.compaction.unattributed == 1
    assert in_project.compaction.fingerprints == ("a" * 64, "b" * 64)
    assert in_project.stable_prefix.fingerprints == ("d" * 64,)
    stored = {f.status: f for f in in_project.artifacts}[ArtifactStatus.STORED]
    assert (stored.count, stored.bytes) == (2, 2000)

    in_plan = metrics.show(plan_id=plan.id)
    assert in_plan.scope.kind == "plan"
    assert in_plan.compaction.fingerprints == ("b" * 64,)
    stored = {f.status: f for f in in_plan.artifacts}[ArtifactStatus.STORED]
    assert (stored.count, stored.bytes) == (1, 1000)
    assert in_plan.usage.totals.requests == 0
    assert in_plan.usage.totals.cost.total.usd == Decimal(0)  # nothing recorded costs nothing


def test_show_refuses_unknown_scopes(metrics: MetricsService) -> None:
    with pytest.raises(ProjectNotFoundError):
        metrics.show(project="nope")
    with pytest.raises(InvalidInputError, match="malformed plan id"):
        metrics.show(plan_id="nope")
