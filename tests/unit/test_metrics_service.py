"""MetricsService against in-memory fakes: the ledger, the catalog and the transcript codec
(tests/fake_metrics.py, tests/fake_transcripts.py), the unit of work, events and clock
(tests/fakes.py). What docs/metrics.md promises for `agents metrics import` and `show`: each
request recorded once, figures by kind and scope, costs from the catalog at the time of the
request, "unavailable" with its reason and never 0, fingerprints, artifact figures.

The SQL ledger, the pinned genai-prices catalog and the real codec are tested with the service
in tests/integration/test_usage_ledger.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest

from cleveragents.application.services.metrics.metrics_report import ModelUsage, UsageReport
from cleveragents.application.services.metrics.metrics_service import MetricsService
from cleveragents.application.services.metrics.usage_normalization import (
    ANTHROPIC_EXTRA,
    ANTHROPIC_REQUEST_EXTRA,
    CLAUDE_CODE_EXTRA,
    OPENAI_EXTRA,
    SYNTHETIC_MODEL,
)
from cleveragents.application.services.metrics.usage_totals import totals_of
from cleveragents.domain.errors import (
    InvalidIdError,
    InvalidInputError,
    PlanNotFoundError,
    ProjectNotFoundError,
)
from cleveragents.domain.event import CONTEXT_COMPACTED, STABLE_PREFIX_BUILT
from cleveragents.domain.ids import new_ulid
from cleveragents.domain.model_catalog import CacheSupport
from cleveragents.domain.plan import Plan
from cleveragents.domain.project import Project
from cleveragents.domain.stored_artifact import ArtifactStatus, StoredArtifact
from cleveragents.domain.transcript import Message, Role, TextBlock, Transcript, TranscriptFormat
from cleveragents.domain.usage import UNKNOWN_MODEL, TokenUsage, UsageFormat, UsageRecord
from tests.fake_metrics import FakeModelCatalog, FakeUsageLedger, catalog_entry
from tests.fake_transcripts import FakeTranscriptCodec
from tests.fakes import FakeEventSink, FakeUnitOfWorkFactory, FixedClock

CLAUDE = catalog_entry(
    "anthropic",
    "claude-test",
    input_price="3",
    output_price="15",
    cache_read_price="0.3",
    cache_write_price="3.75",
    context_window=200_000,
)
GPT = catalog_entry("openai", "gpt-test", input_price="2", output_price="8", cache_read_price="1")
NO_CACHE = catalog_entry("openai", "gpt-plain", input_price="1", output_price="1")


# -- the world -----------------------------------------------------------------------------------


@dataclass
class World:
    ledger: FakeUsageLedger = field(default_factory=FakeUsageLedger)
    catalog: FakeModelCatalog = field(
        default_factory=lambda: FakeModelCatalog([CLAUDE, GPT, NO_CACHE], "test catalog v1")
    )
    events: FakeEventSink = field(default_factory=FakeEventSink)
    codec: FakeTranscriptCodec = field(default_factory=FakeTranscriptCodec)
    clock: FixedClock = field(default_factory=FixedClock)

    def __post_init__(self) -> None:
        self.uow_factory = FakeUnitOfWorkFactory()
        self.service = MetricsService(
            self.uow_factory, self.ledger, self.catalog, self.events, self.codec, self.clock
        )

    def project(self, name: str) -> Project:
        project = Project(name=name)
        with self.uow_factory() as uow:
            uow.projects.add(project)
            uow.commit()
        return project

    def artifact(self, artifact: StoredArtifact) -> None:
        with self.uow_factory() as uow:
            uow.artifacts.add(artifact)
            uow.commit()

    def plan(self, project: Project) -> Plan:
        plan = Plan(project_id=project.id, title="a plan")
        with self.uow_factory() as uow:
            uow.plans.add(plan)
            uow.commit()
        return plan

    def record(
        self,
        project: Project,
        model: str,
        usage: TokenUsage,
        *,
        plan: Plan | None = None,
        requested_at: datetime | None = None,
    ) -> UsageRecord:
        """A request recorded directly in the ledger, as an earlier import would have."""
        record = UsageRecord(
            project_id=project.id,
            plan_id=plan.id if plan else None,
            model=model,
            usage=usage,
            request_key=f"test:{new_ulid()}",
            requested_at=requested_at,
            recorded_at=self.clock.now(),
            source="earlier.json",
        )
        assert self.ledger.record([record]) == [record]
        return record

    def import_text(self, transcript: Transcript, fmt: TranscriptFormat, **scope: Any) -> Any:
        return self.service.import_transcript(self.codec.write(transcript, fmt), "log", **scope)


@pytest.fixture
def world() -> World:
    return World()


# -- transcripts as the readers of each format leave them ---------------------------------------


def user(text: str = "go on") -> Message:
    return Message(role=Role.USER, content=(TextBlock(text=text),))


def anthropic_reply(message_id: str | None, usage: dict[str, Any], model: str | None) -> Message:
    keys: dict[str, Any] = {"id": message_id} if message_id else {}
    if model:
        keys["model"] = model
    return Message(
        role=Role.ASSISTANT,
        content=(TextBlock(text="done"),),
        usage=usage,
        extra={ANTHROPIC_EXTRA: keys},
    )


def anthropic_transcript(*replies: Message, request_model: str | None = None) -> Transcript:
    messages = [message for reply in replies for message in (user(), reply)]
    extra = {ANTHROPIC_REQUEST_EXTRA: {"model": request_model}} if request_model else {}
    return Transcript(messages=tuple(messages), extra=extra)


def openai_reply(message_id: str, usage: dict[str, Any], model: str, created: int) -> Message:
    keys = {"id": message_id, "model": model, "created": created, "usage": usage}
    return Message(
        role=Role.ASSISTANT, content=(TextBlock(text="done"),), extra={OPENAI_EXTRA: {"keys": keys}}
    )


def claude_code_reply(
    message_id: str, usage: dict[str, Any], model: str = "claude-test", at: str | None = None
) -> Message:
    record = {"requestId": f"req_{message_id}", "timestamp": at or "2026-11-01T10:00:00Z"}
    return Message(
        role=Role.ASSISTANT,
        content=(TextBlock(text="done"),),
        usage=usage,
        extra={
            CLAUDE_CODE_EXTRA: {"message": {"id": message_id, "model": model}, "record": record}
        },
    )


ANTHROPIC_USAGE = {
    "input_tokens": 1000,
    "cache_read_input_tokens": 2000,
    "cache_creation_input_tokens": 400,
    "output_tokens": 300,
}
OPENAI_USAGE = {
    "prompt_tokens": 1000,
    "completion_tokens": 100,
    "prompt_tokens_details": {"cached_tokens": 600},
}


def anthropic_usage(**figures: Any) -> TokenUsage:
    return TokenUsage(usage_format=UsageFormat.ANTHROPIC_MESSAGES, **figures)


def uncached_million(service_tier: str | None = None) -> TokenUsage:
    """A million input tokens, none from or to the cache, and no output."""
    return anthropic_usage(
        input_tokens=1_000_000,
        cache_read_tokens=0,
        cache_write_tokens=0,
        total_input_tokens=1_000_000,
        output_tokens=0,
        service_tier=service_tier,
    )


def only(report: UsageReport) -> ModelUsage:
    assert len(report.models) == 1
    return report.models[0]


def values(model: ModelUsage) -> dict[str, int | None]:
    return {name: figure.value for name, figure in model.summary.tokens.items()}


# -- import: each format -------------------------------------------------------------------------


def test_an_anthropic_log_is_recorded_into_the_default_project_each_kind_apart(
    world: World,
) -> None:
    transcript = anthropic_transcript(anthropic_reply("msg_1", ANTHROPIC_USAGE, "claude-test"))

    result = world.import_text(transcript, TranscriptFormat.ANTHROPIC)

    assert result.transcript_format is TranscriptFormat.ANTHROPIC
    assert (result.requests, result.recorded, result.already_recorded) == (1, 1, 0)
    assert result.scope.project is not None
    assert result.scope.project.name == "default"
    assert result.catalog == "test catalog v1"
    assert values(only(result.usage)) == {
        "input_tokens": 1000,
        "cache_read_tokens": 2000,
        "cache_write_tokens": 400,
        "total_input_tokens": 3400,
        "output_tokens": 300,
        "reasoning_tokens": None,
    }
    [stored] = world.ledger.stored
    assert stored.project_id == result.scope.project.id
    assert (stored.model, stored.message_id, stored.source) == ("claude-test", "msg_1", "log")
    assert stored.recorded_at == world.clock.now()
    assert stored.raw_usage == ANTHROPIC_USAGE


def test_an_openai_log_splits_the_cached_input_and_has_no_cache_write_figure(
    world: World,
) -> None:
    served = datetime(2026, 10, 1, 8, 0, tzinfo=UTC)
    transcript = Transcript(
        messages=(
            user(),
            openai_reply("chatcmpl-1", OPENAI_USAGE, "gpt-test", int(served.timestamp())),
        )
    )

    result = world.import_text(transcript, TranscriptFormat.OPENAI)

    model = only(result.usage)
    assert (model.provider, model.model, model.catalog_model) == ("openai", "gpt-test", "gpt-test")
    assert values(model)["input_tokens"] == 400
    assert values(model)["cache_read_tokens"] == 600
    assert values(model)["total_input_tokens"] == 1000
    write = model.summary.tokens["cache_write_tokens"]
    assert write.value is None
    assert write.unavailable == (
        "the locked catalog declares no cache-write price for gpt-test: cache support unavailable"
    )
    # Priced as of when the provider served it, not when it was imported.
    assert world.ledger.stored[0].requested_at == served
    assert world.catalog.lookups[-1].at == served


def test_a_claude_code_log_counts_a_message_once_and_skips_its_own_synthetic_messages(
    world: World,
) -> None:
    first = claude_code_reply("msg_a", {"input_tokens": 5, "output_tokens": 1})
    final = claude_code_reply("msg_a", {"input_tokens": 5, "output_tokens": 7})
    synthetic = claude_code_reply("msg_s", {"input_tokens": 0, "output_tokens": 0}, SYNTHETIC_MODEL)
    other = claude_code_reply("msg_b", {"input_tokens": 3, "output_tokens": 2})
    transcript = Transcript(messages=(user(), first, user(), final, synthetic, user(), other))

    result = world.import_text(transcript, TranscriptFormat.CLAUDE_CODE)

    assert (result.requests, result.recorded, result.synthetic) == (2, 2, 1)
    by_id = {record.message_id: record for record in world.ledger.stored}
    assert set(by_id) == {"msg_a", "msg_b"}
    assert by_id["msg_a"].usage.output_tokens == 7  # the last usage: the final one
    assert by_id["msg_a"].request_id == "req_msg_a"
    assert by_id["msg_a"].requested_at == datetime(2026, 11, 1, 10, 0, tzinfo=UTC)


def test_the_format_given_is_the_one_read(world: World) -> None:
    text = world.codec.write(
        anthropic_transcript(anthropic_reply("msg_1", ANTHROPIC_USAGE, "claude-test")),
        TranscriptFormat.ANTHROPIC,
    )

    with pytest.raises(InvalidInputError, match="not openai"):
        world.service.import_transcript(text, "log", transcript_format=TranscriptFormat.OPENAI)
    result = world.service.import_transcript(
        text, "log", transcript_format=TranscriptFormat.ANTHROPIC
    )
    assert result.transcript_format is TranscriptFormat.ANTHROPIC


# -- import: duplicates --------------------------------------------------------------------------


def test_importing_a_log_again_records_nothing_and_a_longer_one_only_what_is_new(
    world: World,
) -> None:
    one = anthropic_reply("msg_1", ANTHROPIC_USAGE, "claude-test")
    two = anthropic_reply("msg_2", {"input_tokens": 10, "output_tokens": 1}, "claude-test")

    world.import_text(anthropic_transcript(one), TranscriptFormat.ANTHROPIC)
    again = world.import_text(anthropic_transcript(one), TranscriptFormat.ANTHROPIC)
    longer = world.import_text(anthropic_transcript(one, two), TranscriptFormat.ANTHROPIC)

    assert (again.requests, again.recorded, again.already_recorded) == (1, 0, 1)
    assert (longer.requests, longer.recorded, longer.already_recorded) == (2, 1, 1)
    assert [record.message_id for record in world.ledger.stored] == ["msg_1", "msg_2"]
    # The breakdown covers every request found, recorded now or before.
    assert longer.usage.totals.requests == 2


def test_messages_without_ids_are_told_apart_by_content_and_occurrence(world: World) -> None:
    same = anthropic_reply(None, {"input_tokens": 10, "output_tokens": 1}, "claude-test")
    transcript = anthropic_transcript(same, same)

    first = world.import_text(transcript, TranscriptFormat.ANTHROPIC)
    again = world.import_text(transcript, TranscriptFormat.ANTHROPIC)

    assert (first.requests, first.recorded) == (2, 2)
    assert (again.requests, again.recorded) == (2, 0)


# -- import: bad input ---------------------------------------------------------------------------


def test_text_that_is_no_transcript_is_refused_and_nothing_is_written(world: World) -> None:
    with pytest.raises(InvalidInputError, match="transcript"):
        world.service.import_transcript("{not json", "log")

    assert world.ledger.record_calls == 0
    assert world.uow_factory.state.projects == {}  # not even the default project


def test_a_malformed_usage_is_refused_naming_the_message_and_nothing_is_written(
    world: World,
) -> None:
    good = anthropic_reply("msg_1", ANTHROPIC_USAGE, "claude-test")
    bad = anthropic_reply("msg_2", {"input_tokens": -1, "output_tokens": 1}, "claude-test")

    with pytest.raises(InvalidInputError, match=r"^transcript message 3: .*input_tokens"):
        world.import_text(anthropic_transcript(good, bad), TranscriptFormat.ANTHROPIC)

    assert world.ledger.stored == []
    assert world.ledger.record_calls == 0


def test_a_source_name_the_store_cannot_keep_is_refused_before_reading(world: World) -> None:
    text = world.codec.write(anthropic_transcript(), TranscriptFormat.ANTHROPIC)

    with pytest.raises(InvalidInputError, match="source"):
        world.service.import_transcript(text, "log\0.json")

    assert world.codec.reads == 0


def test_the_scope_of_an_import_must_exist_and_agree(world: World) -> None:
    text = world.codec.write(
        anthropic_transcript(anthropic_reply("msg_1", ANTHROPIC_USAGE, "claude-test")),
        TranscriptFormat.ANTHROPIC,
    )
    alpha, beta = world.project("alpha"), world.project("beta")
    plan = world.plan(alpha)

    with pytest.raises(ProjectNotFoundError):
        world.service.import_transcript(text, "log", project="gamma")
    with pytest.raises(InvalidInputError, match="belongs to project 'alpha', not 'beta'"):
        world.service.import_transcript(text, "log", project=beta.name, plan_id=plan.id)
    with pytest.raises(InvalidIdError):
        world.service.import_transcript(text, "log", plan_id="not-a-plan")
    with pytest.raises(PlanNotFoundError):
        world.service.import_transcript(text, "log", plan_id=new_ulid())
    assert world.ledger.stored == []

    result = world.service.import_transcript(text, "log", plan_id=plan.id.lower())
    assert result.scope.project == alpha
    assert result.scope.plan_id == plan.id
    assert world.ledger.stored[0].plan_id == plan.id


# -- show: scopes and models ---------------------------------------------------------------------


def test_show_sums_per_scope_and_a_plan_counts_for_its_project(world: World) -> None:
    alpha, beta = world.project("alpha"), world.project("beta")
    plan = world.plan(alpha)
    world.record(alpha, "claude-test", anthropic_usage(input_tokens=1, output_tokens=10))
    world.record(alpha, "claude-test", anthropic_usage(input_tokens=2, output_tokens=20), plan=plan)
    world.record(beta, "claude-test", anthropic_usage(input_tokens=4, output_tokens=40))

    everything = world.service.show()
    of_alpha = world.service.show(project="alpha")
    of_plan = world.service.show(plan_id=plan.id)

    assert everything.scope.kind == "all"
    assert (of_alpha.scope.kind, of_plan.scope.kind) == ("project", "plan")
    assert everything.usage.totals.tokens["output_tokens"].value == 70
    assert of_alpha.usage.totals.tokens["output_tokens"].value == 30
    assert of_plan.usage.totals.tokens["output_tokens"].value == 20
    assert of_plan.scope.project == alpha
    with pytest.raises(ProjectNotFoundError):
        world.service.show(project="gamma")
    assert world.uow_factory.state.projects.keys() == {alpha.id, beta.id}  # show creates none


def test_each_model_is_reported_apart_in_provider_and_model_order_and_summed(
    world: World,
) -> None:
    alpha = world.project("alpha")
    gpt = TokenUsage(
        usage_format=UsageFormat.OPENAI_CHAT,
        input_tokens=400,
        cache_read_tokens=600,
        total_input_tokens=1000,
        output_tokens=100,
    )
    world.record(alpha, "gpt-test", gpt)
    claude = anthropic_usage(
        input_tokens=10,
        cache_read_tokens=0,
        cache_write_tokens=0,
        total_input_tokens=10,
        output_tokens=5,
    )
    world.record(alpha, "claude-test", claude)
    world.record(alpha, "claude-test", claude)

    report = world.service.show(project="alpha").usage

    assert [(m.provider, m.model, m.summary.requests) for m in report.models] == [
        ("anthropic", "claude-test", 2),
        ("openai", "gpt-test", 1),
    ]
    assert report.totals.requests == 3
    assert report.totals.tokens["output_tokens"].value == 110
    assert report.totals.tokens["total_input_tokens"].value == 1020
    # One model without a figure leaves the total without it, with that model's reason.
    write = report.totals.tokens["cache_write_tokens"]
    assert write.value is None
    assert write.unavailable is not None
    assert write.unavailable.startswith("gpt-test: ")


def test_a_figure_some_requests_did_not_report_is_unavailable_not_summed(world: World) -> None:
    alpha = world.project("alpha")
    world.record(alpha, "claude-test", anthropic_usage(input_tokens=1, output_tokens=9))
    world.record(
        alpha, "claude-test", anthropic_usage(input_tokens=1, output_tokens=9, reasoning_tokens=4)
    )

    reasoning = only(world.service.show().usage).summary.tokens["reasoning_tokens"]

    assert reasoning.value is None
    assert reasoning.unavailable == "not reported by 1 of 2 requests"


def test_nothing_recorded_is_a_true_zero(world: World) -> None:
    report = world.service.show()

    assert report.usage.models == ()
    assert report.usage.totals.requests == 0
    assert all(figure.value == 0 for figure in report.usage.totals.tokens.values())
    assert report.usage.totals.cost.total.usd == 0


# -- show: costs from the catalog ----------------------------------------------------------------


def test_costs_come_from_the_catalog_part_by_part(world: World) -> None:
    world.import_text(
        anthropic_transcript(anthropic_reply("msg_1", ANTHROPIC_USAGE, "claude-test")),
        TranscriptFormat.ANTHROPIC,
    )

    model = only(world.service.show().usage)
    cost = model.summary.cost

    assert (model.catalog_model, model.context_window.value) == ("claude-test", 200_000)
    assert model.cache_support is CacheSupport.AVAILABLE
    # Per million tokens: input 1000 x $3, reads 2000 x $0.30, writes 400 x $3.75, output 300 x $15.
    assert cost.input.usd == Decimal("0.003")
    assert cost.cache_read.usd == Decimal("0.0006")
    assert cost.cache_write.usd == Decimal("0.0015")
    assert cost.output.usd == Decimal("0.0045")
    assert cost.total.usd == Decimal("0.0096")
    assert cost.total_excludes == ()
    assert cost.cache_read_savings.usd == Decimal("0.006") - Decimal("0.0006")
    assert cost.cache_write_premium.usd == Decimal("0.0015") - Decimal("0.0012")


def test_prices_are_those_in_force_when_the_request_was_served(world: World) -> None:
    change = datetime(2026, 6, 1, tzinfo=UTC)
    world.catalog.add(catalog_entry("anthropic", "claude-test", input_price="30"), since=change)
    alpha = world.project("alpha")
    usage = uncached_million()
    world.record(alpha, "claude-test", usage, requested_at=change - timedelta(days=1))
    world.record(alpha, "claude-test", usage, requested_at=change + timedelta(days=1))

    cost = only(world.service.show().usage).summary.cost

    assert cost.input.usd == Decimal(3) + Decimal(30)


def test_a_service_tier_with_its_own_prices_is_priced_at_them(world: World) -> None:
    world.catalog.add(
        catalog_entry("anthropic", "claude-test", input_price="6"), service_tier="priority"
    )
    alpha = world.project("alpha")
    world.record(alpha, "claude-test", uncached_million(service_tier="priority"))
    world.record(alpha, "claude-test", uncached_million(service_tier="batch"))

    cost = only(world.service.show().usage).summary.cost

    assert cost.input.usd == Decimal(6) + Decimal(3)  # an unlisted tier: the standard prices


def test_a_model_the_catalog_does_not_list_has_every_cost_unavailable_with_the_reason(
    world: World,
) -> None:
    world.import_text(
        anthropic_transcript(anthropic_reply("msg_1", ANTHROPIC_USAGE, "claude-unlisted")),
        TranscriptFormat.ANTHROPIC,
    )

    model = only(world.service.show().usage)

    reason = "model 'claude-unlisted' is not in the locked catalog (test catalog v1)"
    assert model.catalog_model is None
    assert model.cache_support is CacheSupport.UNAVAILABLE
    assert model.context_window.unavailable == reason
    assert model.summary.cost.total.usd is None
    assert model.summary.cost.total.unavailable == reason
    assert model.summary.tokens["cache_read_tokens"].unavailable == (
        f"{reason}: cache support unavailable"
    )
    assert model.summary.tokens["input_tokens"].value == 1000  # what is known stays known


def test_a_request_that_names_no_model_cannot_be_priced(world: World) -> None:
    world.import_text(
        anthropic_transcript(anthropic_reply("msg_1", ANTHROPIC_USAGE, None)),
        TranscriptFormat.ANTHROPIC,
    )

    model = only(world.service.show().usage)

    assert model.model == UNKNOWN_MODEL
    assert model.summary.cost.total.unavailable == "the source does not name the model"


def test_the_request_body_names_the_model_when_the_reply_does_not(world: World) -> None:
    transcript = anthropic_transcript(
        anthropic_reply("msg_1", ANTHROPIC_USAGE, None), request_model="claude-test"
    )

    result = world.import_text(transcript, TranscriptFormat.ANTHROPIC)

    assert only(result.usage).catalog_model == "claude-test"


def test_without_a_cache_price_cache_figures_are_unavailable_even_when_reported_zero(
    world: World,
) -> None:
    usage = {
        "prompt_tokens": 50,
        "completion_tokens": 5,
        "prompt_tokens_details": {"cached_tokens": 0},
    }
    transcript = Transcript(messages=(user(), openai_reply("chatcmpl-1", usage, "gpt-plain", 0)))

    world.import_text(transcript, TranscriptFormat.OPENAI)
    model = only(world.service.show().usage)

    assert model.cache_support is CacheSupport.UNAVAILABLE
    read = model.summary.tokens["cache_read_tokens"]
    assert read.value is None
    assert read.unavailable == (
        "the locked catalog declares no cache-read price for gpt-plain: cache support unavailable"
    )
    assert model.summary.cost.cache_read.usd is None
    assert model.summary.cost.total.usd == Decimal(55) / Decimal(1_000_000)


def test_a_catalog_entry_without_a_context_window_says_so(world: World) -> None:
    world.catalog.add(catalog_entry("anthropic", "claude-nowindow", context_window=None))
    world.record(world.project("alpha"), "claude-nowindow", anthropic_usage(output_tokens=1))

    model = only(world.service.show().usage)

    assert model.context_window.unavailable == "the catalog gives no context window"


# -- show: compaction and stable-prefix fingerprints ---------------------------------------------


def test_fingerprints_are_distinct_oldest_first_and_scoped_by_the_events_payload(
    world: World,
) -> None:
    alpha, beta = world.project("alpha"), world.project("beta")
    plan = world.plan(alpha)
    world.events.emit(CONTEXT_COMPACTED, {"project_id": alpha.id, "summary_sha256": "s1"})
    world.events.emit(CONTEXT_COMPACTED, {"plan_id": plan.id, "summary_sha256": "s2"})
    world.events.emit(CONTEXT_COMPACTED, {"project_id": alpha.id, "summary_sha256": "s1"})
    world.events.emit(CONTEXT_COMPACTED, {"project_id": beta.id, "summary_sha256": "s3"})
    world.events.emit(CONTEXT_COMPACTED, {"summary_sha256": "s4"})  # names no project or plan
    world.events.emit(STABLE_PREFIX_BUILT, {"sha256": "p1"})

    everything = world.service.show()
    of_alpha = world.service.show(project="alpha")
    of_plan = world.service.show(plan_id=plan.id)

    assert everything.compaction.kind == CONTEXT_COMPACTED
    assert (everything.compaction.count, everything.compaction.unattributed) == (5, None)
    assert everything.compaction.fingerprints == ("s1", "s2", "s3", "s4")
    assert (of_alpha.compaction.count, of_alpha.compaction.fingerprints) == (3, ("s1", "s2"))
    assert of_alpha.compaction.unattributed == 1  # reported, not guessed into the project
    assert (of_plan.compaction.count, of_plan.compaction.fingerprints) == (1, ("s2",))
    assert (everything.stable_prefix.count, everything.stable_prefix.fingerprints) == (1, ("p1",))
    assert (of_alpha.stable_prefix.count, of_alpha.stable_prefix.unattributed) == (0, 1)


# -- show: artifact figures ----------------------------------------------------------------------


def artifact(
    project: Project, status: ArtifactStatus, size: int, plan: Plan | None = None
) -> StoredArtifact:
    return StoredArtifact(
        id=new_ulid(),
        project_id=project.id,
        plan_id=plan.id if plan else None,
        sha256=None if status is ArtifactStatus.BLOCKED else "0" * 64,
        byte_count=size,
        media_type="text/plain",
        workspace_path="out.log",
        status=status,
        source="workspace",
        created_by="test",
        created_at=datetime(2026, 11, 1, tzinfo=UTC),
    )


def test_artifacts_are_counted_and_sized_per_status_in_scope(world: World) -> None:
    alpha, beta = world.project("alpha"), world.project("beta")
    plan = world.plan(alpha)
    for item in (
        artifact(alpha, ArtifactStatus.STORED, 100),
        artifact(alpha, ArtifactStatus.STORED, 20, plan),
        artifact(alpha, ArtifactStatus.BLOCKED, 7),
        artifact(beta, ArtifactStatus.EXPIRED, 1000),
    ):
        world.artifact(item)

    def figures(statuses: Sequence[Any]) -> dict[str, tuple[int, int]]:
        return {f.status.value: (f.count, f.bytes) for f in statuses}

    assert figures(world.service.show().artifacts) == {
        "stored": (2, 120),
        "blocked": (1, 7),
        "expired": (1, 1000),
    }
    assert figures(world.service.show(project="alpha").artifacts) == {
        "stored": (2, 120),
        "blocked": (1, 7),
        "expired": (0, 0),  # every status, a real zero
    }
    assert figures(world.service.show(plan_id=plan.id).artifacts) == {
        "stored": (1, 20),
        "blocked": (0, 0),
        "expired": (0, 0),
    }


# -- the fakes keep their ports' contracts -------------------------------------------------------


def test_the_fake_ledger_records_a_key_once_and_sums_as_the_sql_ledger_does(world: World) -> None:
    alpha, beta = world.project("alpha"), world.project("beta")
    plan = world.plan(alpha)
    world.record(alpha, "claude-test", anthropic_usage(input_tokens=1, output_tokens=2), plan=plan)
    world.record(
        alpha, "gpt-test", TokenUsage(usage_format=UsageFormat.OPENAI_CHAT, output_tokens=3)
    )
    world.record(beta, "claude-test", anthropic_usage(output_tokens=4, reasoning_tokens=1))
    duplicate = world.ledger.stored[0].model_copy(update={"id": new_ulid()})

    assert world.ledger.record([duplicate, duplicate]) == []
    for scope in ({}, {"project_id": alpha.id}, {"plan_id": plan.id}, {"project_id": beta.id}):
        assert world.ledger.totals(**scope) == totals_of(world.ledger.records(**scope))
    assert len(world.ledger.records(project_id=alpha.id)) == 2


def test_the_fake_codec_reads_back_what_it_wrote_and_shares_nothing_with_a_document() -> None:
    codec = FakeTranscriptCodec()
    transcript = anthropic_transcript(anthropic_reply("msg_\ud800", ANTHROPIC_USAGE, "claude-test"))

    for fmt in TranscriptFormat:
        assert codec.read(codec.write(transcript, fmt)) == transcript
        assert codec.detect(codec.write(transcript, fmt)) is fmt
        assert codec.write_bytes(transcript, fmt).decode("utf-8") == codec.write(transcript, fmt)
    document = codec.write_native(transcript, TranscriptFormat.ANTHROPIC)
    read = codec.read_native(document)
    assert isinstance(document, dict)
    document["transcript"]["messages"][1]["usage"]["output_tokens"] = 0
    assert read == transcript
    not_json = codec.write_native(transcript, TranscriptFormat.OPENAI)
    assert isinstance(not_json, dict)
    not_json["x"] = {1, 2}
    with pytest.raises(InvalidInputError, match=r"transcript\.x: set is not a JSON value"):
        codec.read_native(not_json)


def test_the_fake_catalog_lists_only_what_it_was_given() -> None:
    catalog = FakeModelCatalog([CLAUDE])
    now = datetime(2026, 11, 30, tzinfo=UTC)

    assert catalog.entry("claude-test", "anthropic", now) == CLAUDE
    assert catalog.entry("claude-test", None, now) == CLAUDE
    assert catalog.entry("claude-test", "openai", now) is None
    assert catalog.entry("gpt-test", "openai", now) is None
