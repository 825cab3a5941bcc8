"""The proxy's use cases put together: transform a request, record an exchange, read stats."""

from __future__ import annotations

from dataclasses import dataclass

from cleveragents.application.ports.clock import Clock
from cleveragents.application.ports.events import EventSink
from cleveragents.application.ports.model_catalog import ModelCatalog
from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.artifact_compressor import (
    ArtifactCompressorService,
)
from cleveragents.application.services.artifact_store.artifact_store import ArtifactStore
from cleveragents.application.services.compaction.transcript_compaction import (
    TranscriptCompactor,
)
from cleveragents.application.services.proxy.message_transform import MessageTransformer
from cleveragents.application.services.proxy.proxy_exchanges import ProxyExchanges
from cleveragents.application.services.proxy.proxy_requests import ProxyRequests
from cleveragents.application.services.proxy.sticky_compaction import StickyCompaction
from cleveragents.application.services.proxy.tool_output_condensing import ToolOutputCondenser
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.validation import build

DEFAULT_COMPRESS_OVER = 2_000
DEFAULT_TOOL_BUDGET = 1_000


@dataclass(frozen=True, slots=True)
class ProxySettings:
    """How the proxy transforms: tool outputs over `compress_over` tokens become views of at
    most `tool_budget` tokens; `context_window` overrides the catalog's window (None: the
    catalog's, else the policy's); `reserve_tokens` and `keep_recent_tokens` override the
    policy's defaults; `compaction` off forwards every conversation whole. `project` names the
    project whose context policy the window settings start from (else the defaults), and
    under which tool outputs are stored."""

    compress_over: int = DEFAULT_COMPRESS_OVER
    tool_budget: int = DEFAULT_TOOL_BUDGET
    context_window: int | None = None
    reserve_tokens: int | None = None
    keep_recent_tokens: int | None = None
    compaction: bool = True
    project: str | None = None

    def __post_init__(self) -> None:
        if self.tool_budget < 1:
            raise InvalidInputError(f"--tool-budget must be at least 1, not {self.tool_budget}")
        if self.compress_over < self.tool_budget:
            raise InvalidInputError(
                f"--compress-over ({self.compress_over}) must be at least --tool-budget "
                f"({self.tool_budget}): a view is never larger than the output it stands for"
            )
        policy = self.window_policy()  # a value out of range: refused here, in one line
        if self.context_window is not None:
            policy.check_coherent()

    def window_policy(self) -> ContextPolicy:
        """The window settings given (the others are the policy's defaults)."""
        return build(
            ContextPolicy,
            context_window=self.context_window,
            reserve_tokens=self.reserve_tokens,
            keep_recent_tokens=self.keep_recent_tokens,
        )


@dataclass(frozen=True, slots=True)
class ProxyEngine:
    """What the proxy's web app and `agents proxy stats` use. Container name:
    ``proxy_engine``."""

    requests: ProxyRequests
    exchanges: ProxyExchanges
    settings: ProxySettings


def build_proxy_engine(
    settings: ProxySettings,
    *,
    store: ArtifactStore,
    compressor: ArtifactCompressorService,
    counter: TokenCounter,
    scanner: SecretScanner,
    compactor: TranscriptCompactor,
    catalog: ModelCatalog,
    clock: Clock,
    events: EventSink,
    project_policy: ContextPolicy | None = None,
) -> ProxyEngine:
    """The engine for `settings`, of the container's parts; `project_policy` is the policy
    of `settings.project`, under the settings' own window values."""
    policy = (project_policy or ContextPolicy()).overridden_by(settings.window_policy())
    if policy.context_window is not None:
        policy.check_coherent()
    condenser = ToolOutputCondenser(
        store,
        compressor,
        counter,
        scanner,
        compress_over=settings.compress_over,
        tool_budget=settings.tool_budget,
        project=settings.project,
    )
    compaction = (
        StickyCompaction(compactor, catalog, clock, counter, events, policy=policy)
        if settings.compaction
        else None
    )
    transformer = MessageTransformer(condenser, counter, scanner)
    return ProxyEngine(ProxyRequests(transformer, compaction), ProxyExchanges(events), settings)
