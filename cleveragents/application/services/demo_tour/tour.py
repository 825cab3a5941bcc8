"""The product's whole job on small real samples: the use case behind `agents demo`.

Five steps, each with the tokens before and after, on one project of the store it is given:

1. a child plan spawned with a skeleton of its parent's decisions (the samples, their real
   token counts);
2. a log compressed to a budget by smart mode, which keeps its last ERROR line where the
   tiered mode's head cut loses it;
3. tool output imported: with a credential it is blocked (only an audit row remains); clean,
   it is stored whole and the model gets a bounded preview and the handle;
4. a Claude Code session compacted under the project's window, with the facts a resumed agent
   needs that it recovered, per category (the measure `agents context compare` reports);
5. the project's metrics: the session's provider usage, the compaction, the artifacts.

The credential of step 3 is made here, at run time, so that no file of the package or the
repository holds one (secret scanners would flag it, rightly).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.ports.transcript_codec import TranscriptCodec
from cleveragents.application.services.artifact_compression.artifact_compressor import (
    ArtifactCompressorService,
)
from cleveragents.application.services.artifact_store.artifact_store import ArtifactStore
from cleveragents.application.services.compaction.context_compactor import ContextCompactor
from cleveragents.application.services.compaction.outcome import CompactionSettings
from cleveragents.application.services.compaction.recall import (
    FactCategory,
    message_workspace,
    presence,
    recovery_facts,
)
from cleveragents.application.services.demo_tour.steps import (
    BlockedImport,
    CategoryRecovery,
    CompactionStep,
    ImportStep,
    LogStep,
    MetricsStep,
    RankedFragment,
    SkeletonStep,
    StoredImport,
    TourStep,
)
from cleveragents.application.services.metrics.metrics_service import MetricsService
from cleveragents.application.services.plans.child_plans import ChildPlanSpawner
from cleveragents.application.services.plans.plan_service import PlanService
from cleveragents.application.services.projects.project_service import ProjectService
from cleveragents.domain.artifact import CompressionMode
from cleveragents.domain.policy import ContextPolicyChanges
from cleveragents.domain.project import Project
from cleveragents.domain.ratio import skeleton_budget
from cleveragents.domain.stored_artifact import ArtifactStatus
from cleveragents.domain.transcript import TranscriptFormat

PROJECT = "demo"
SKELETON_RATIO = 0.5
LOG_BUDGET = 600
"""About a sixth of the sample log: a head cut of it ends long before the last error."""
PREVIEW_BYTES = 1024
"""The demo project's preview head and tail (4096 each by default): small enough that a
sample of a few KB shows the bound."""
CONTEXT_WINDOW = 8192
RESERVE_TOKENS = 1024
KEEP_RECENT_TOKENS = 2000
"""A window the sample session (about 9,300 tokens) no longer fits, as a long session outgrows
a real one."""
ERROR_MARK = " ERROR "


@dataclass(frozen=True, slots=True)
class TourSamples:
    """The texts the tour runs on, and the names they go by (which also tell their kinds)."""

    log: str
    diff: str
    api_response: str
    session: str
    log_name: str = "hadoop-mapreduce.log"
    diff_name: str = "click.diff"
    api_response_name: str = "github-repository.json"
    session_name: str = "claude-code-session.jsonl"


def fake_aws_key_id() -> str:
    """An AWS access key id that matches the scanner's rule and belongs to no one: AKIA and
    16 characters derived from a fixed phrase, the same on every run."""
    return "AKIA" + hashlib.sha256(b"cleveragents demo").hexdigest()[:16].upper()


def leaked_diff(diff: str) -> str:
    """`diff` with one more file: an ``.env`` that commits an AWS key id."""
    return (
        diff.rstrip("\n")
        + "\ndiff --git a/.env b/.env\nnew file mode 100644\n--- /dev/null\n+++ b/.env\n"
        + f"@@ -0,0 +1 @@\n+AWS_ACCESS_KEY_ID={fake_aws_key_id()}\n"
    )


class DemoTour:
    """Runs the tour with the services it is given; `run` returns one record per step."""

    def __init__(
        self,
        projects: ProjectService,
        plans: PlanService,
        spawner: ChildPlanSpawner,
        compressor: ArtifactCompressorService,
        store: ArtifactStore,
        compactor: ContextCompactor,
        metrics: MetricsService,
        codec: TranscriptCodec,
        counter: TokenCounter,
    ) -> None:
        self._projects = projects
        self._plans = plans
        self._spawner = spawner
        self._compressor = compressor
        self._store = store
        self._compactor = compactor
        self._metrics = metrics
        self._codec = codec
        self._counter = counter

    def run(self, samples: TourSamples) -> tuple[TourStep, ...]:
        """The five steps, in order, on a new project named `PROJECT`."""
        self._projects.create(PROJECT)
        project = self._projects.set_context(
            PROJECT,
            ContextPolicyChanges(
                preview_head_bytes=PREVIEW_BYTES,
                preview_tail_bytes=PREVIEW_BYTES,
                context_window=CONTEXT_WINDOW,
                reserve_tokens=RESERVE_TOKENS,
                keep_recent_tokens=KEEP_RECENT_TOKENS,
            ),
        )
        steps: list[TourStep] = [
            self._skeleton(samples),
            self._log(samples),
            self._imports(samples),
            self._compaction(samples, project),
        ]
        steps.append(self._metrics_step(samples, steps))
        return tuple(steps)

    # -- 1. skeleton --------------------------------------------------------------------------

    def _skeleton(self, samples: TourSamples) -> SkeletonStep:
        parent = self._plans.create(PROJECT, "Review the sample outputs")
        # Relevance as a planner would give it; the token counts are the tokenizer's.
        decided = (
            ("click-diff", 0.9, samples.diff),
            ("hadoop-log", 0.6, samples.log),
            ("github-response", 0.3, samples.api_response),
        )
        for fragment_id, relevance, content in decided:
            self._plans.decide(parent.id, content, relevance=relevance, fragment_id=fragment_id)
        child = self._spawner.spawn_child(
            parent.id, "Act on the review", skeleton_ratio=SKELETON_RATIO
        )
        metadata = child.skeleton_metadata
        assert metadata is not None  # a spawned child always has one
        kept = {fragment.fragment_id for fragment in child.inherited_fragments}
        parent_fragments = self._plans.status(parent.id).plan.fragments
        ranked = sorted(parent_fragments, key=lambda f: (-f.relevance, f.fragment_id))
        return SkeletonStep(
            number=1,
            name="skeleton",
            tokens_before=metadata.original_tokens,
            tokens_after=metadata.compressed_tokens,
            parent_id=parent.id,
            child_id=child.id,
            ratio=metadata.ratio,
            budget=skeleton_budget(metadata.original_tokens, metadata.ratio),
            fragments=tuple(
                RankedFragment(f.fragment_id, f.relevance, f.token_count, f.fragment_id in kept)
                for f in ranked
            ),
            source_decision_ids=metadata.source_decision_ids,
        )

    # -- 2. log -------------------------------------------------------------------------------

    def _log(self, samples: TourSamples) -> LogStep:
        errors = [line for line in samples.log.splitlines() if ERROR_MARK in line]
        last_error = errors[-1] if errors else ""
        smart = self._compressor.compress_text(
            samples.log_name, samples.log, LOG_BUDGET, mode=CompressionMode.SMART
        )
        head_cut = self._compressor.compress_text(
            samples.log_name, samples.log, LOG_BUDGET, mode=CompressionMode.TIERED
        )
        return LogStep(
            number=2,
            name="log",
            tokens_before=smart.raw_tokens,
            tokens_after=smart.compacted_tokens,
            artifact_name=samples.log_name,
            budget=LOG_BUDGET,
            last_error_line=last_error,
            last_error_kept=bool(last_error) and last_error in smart.content,
            head_cut_keeps_last_error=bool(last_error) and last_error in head_cut.content,
        )

    # -- 3. imports ---------------------------------------------------------------------------

    def _imports(self, samples: TourSamples) -> ImportStep:
        leaked = leaked_diff(samples.diff)
        refused = self._store.import_output(leaked.encode(), samples.diff_name, project=PROJECT)
        findings = refused.artifact.findings
        blocked = BlockedImport(
            workspace_path=refused.artifact.workspace_path,
            audit_row=refused.artifact.id,
            kinds=tuple(sorted({finding.kind.value for finding in findings})),
            lines=tuple(sorted({finding.line for finding in findings})),
            notice=refused.notice,
            tokens=self._counter.count(leaked),
        )
        clean = self._store.import_output(
            samples.api_response.encode(), samples.api_response_name, project=PROJECT
        )
        preview = clean.preview
        assert preview is not None  # stored, so previewed
        stored = StoredImport(
            artifact_id=preview.artifact_id,
            workspace_path=preview.workspace_path,
            media_type=preview.media_type,
            byte_count=preview.byte_count,
            sha256=preview.sha256,
            head_bytes=len(preview.head.encode()),
            tail_bytes=len(preview.tail.encode()),
            omitted_bytes=preview.omitted_bytes,
            omitted_offset=preview.omitted_offset,
            tokens=self._counter.count(samples.api_response),
            preview_tokens=self._counter.count(preview.head) + self._counter.count(preview.tail),
        )
        return ImportStep(
            number=3,
            name="imports",
            tokens_before=blocked.tokens + stored.tokens,
            tokens_after=stored.preview_tokens,  # nothing of the blocked output
            blocked=blocked,
            stored=stored,
        )

    # -- 4. compaction ------------------------------------------------------------------------

    def _compaction(self, samples: TourSamples, project: Project) -> CompactionStep:
        messages = self._codec.read(samples.session, TranscriptFormat.CLAUDE_CODE).messages
        settings = CompactionSettings.from_policy(project.policy.check_coherent())
        outcome = self._compactor.compact(
            messages, settings, scope={"project_id": project.id}, project=PROJECT
        )
        facts = recovery_facts(messages, workspace=message_workspace(messages))
        report = presence(facts, outcome.messages)
        latest = facts.get(FactCategory.LATEST_REQUEST, ())
        return CompactionStep(
            number=4,
            name="compaction",
            tokens_before=outcome.tokens_before,
            tokens_after=outcome.tokens_after,
            status=outcome.status,
            messages=len(messages),
            threshold=settings.threshold,
            folded_messages=outcome.folded_messages,
            kept_messages=outcome.kept_messages,
            summary_tokens=outcome.summary_tokens,
            summary_sha256=outcome.summary_sha256,
            latest_request=latest[0].needles[0] if latest else None,
            recovery=tuple(
                CategoryRecovery(category.value, report[category].recovered, report[category].total)
                for category in FactCategory
                if report[category].total
            ),
        )

    # -- 5. metrics ---------------------------------------------------------------------------

    def _metrics_step(self, samples: TourSamples, steps: list[TourStep]) -> MetricsStep:
        self._metrics.import_transcript(
            samples.session,
            samples.session_name,
            project=PROJECT,
            transcript_format=TranscriptFormat.CLAUDE_CODE,
        )
        report = self._metrics.show(project=PROJECT)
        totals = report.usage.totals
        figures = {name: figure.value for name, figure in totals.tokens.items()}
        total_cost = totals.cost.total
        artifacts = {figure.status: figure for figure in report.artifacts}
        stored = artifacts.get(ArtifactStatus.STORED)
        blocked = artifacts.get(ArtifactStatus.BLOCKED)
        return MetricsStep(
            number=5,
            name="metrics",
            tokens_before=sum(step.tokens_before for step in steps),
            tokens_after=sum(step.tokens_after for step in steps),
            requests=totals.requests,
            input_tokens=figures.get("input_tokens"),
            cache_read_tokens=figures.get("cache_read_tokens"),
            cache_write_tokens=figures.get("cache_write_tokens"),
            output_tokens=figures.get("output_tokens"),
            cost_usd=None if total_cost.usd is None else format(total_cost.usd.normalize(), "f"),
            cost_unavailable=total_cost.unavailable,
            compactions=report.compaction.count,
            artifacts_stored=stored.count if stored else 0,
            artifact_bytes_stored=stored.bytes if stored else 0,
            artifacts_blocked=blocked.count if blocked else 0,
        )
