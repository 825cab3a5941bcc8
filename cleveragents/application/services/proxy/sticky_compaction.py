"""Compaction that sticks: one cut per conversation, reused until the next one is needed.

When the forwarded conversation would exceed the model's window minus its reserve (the window
from the model catalog, else the policy's; the reserve from the policy), the conversation is
compacted by the compaction service (a deterministic summary of the folded messages, the
recent ones kept). The cut is remembered per conversation, and stored: how many of the
client's messages the summary stands for, and the summary messages themselves. Every later
request of the conversation is forwarded as that summary followed by the client's messages
after the cut (each transformed as always), so its prefix stays the same and the provider's
prompt cache keeps matching, until that too would not fit and the next cut is made.

A cut is stored as an event (`proxy_compaction_cut`): it survives the proxy's process and
holds no credential (the summary is redacted by the compaction).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cleveragents.application.ports.clock import Clock
from cleveragents.application.ports.events import EventSink
from cleveragents.application.ports.model_catalog import ModelCatalog
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.compaction.outcome import CompactionSettings
from cleveragents.application.services.compaction.transcript_compaction import (
    TranscriptCompactor,
)
from cleveragents.application.services.proxy.message_transform import (
    TransformedMessage,
    canonical_json,
)
from cleveragents.application.services.proxy.provider_api import ProviderApi
from cleveragents.domain.policy import ContextPolicy, ContextPolicyChanges

PROXY_COMPACTION_CUT = "proxy_compaction_cut"
"""The event a cut is stored as: its conversation, how many messages it folds, its summary."""


@dataclass(frozen=True, slots=True)
class CompactionCut:
    """A conversation's cut: the summary messages stand for its first `folded` messages."""

    conversation: str
    folded: int
    summary: tuple[Any, ...]
    summary_tokens: int


@dataclass(frozen=True, slots=True)
class CompactedConversation:
    """What to forward: the summary (none when the conversation was never cut), then the
    client's messages from `folded` on. `compacted_now` when this request made a new cut."""

    folded: int = 0
    summary: tuple[Any, ...] = ()
    summary_texts: tuple[str, ...] = ()
    summary_tokens: int = 0
    compacted_now: bool = False

    @classmethod
    def of(cls, cut: CompactionCut | None, *, compacted_now: bool = False) -> CompactedConversation:
        if cut is None:
            return cls()
        return cls(
            cut.folded,
            cut.summary,
            tuple(canonical_json(message) for message in cut.summary),
            cut.summary_tokens,
            compacted_now,
        )


class StickyCompaction:
    """See the module docstring. `policy` holds the window settings; its `context_window`,
    when set, overrides the catalog's window for every model (a proxy for one model)."""

    def __init__(
        self,
        compactor: TranscriptCompactor,
        catalog: ModelCatalog,
        clock: Clock,
        counter: TokenCounter,
        events: EventSink,
        *,
        policy: ContextPolicy | None = None,
    ) -> None:
        self._compactor = compactor
        self._catalog = catalog
        self._clock = clock
        self._counter = counter
        self._events = events
        self._policy = policy or ContextPolicy()
        self._cuts: dict[str, CompactionCut] | None = None
        self._settings: dict[tuple[ProviderApi, str | None], CompactionSettings] = {}
        self._lock = threading.Lock()

    def settings(self, api: ProviderApi, model: str | None) -> CompactionSettings:
        """The window settings for `model`: the catalog's window unless overridden."""
        key = (api, model)
        found = self._settings.get(key)
        if found is not None:
            return found
        window = self._policy.context_window
        if window is None and model is not None:
            entry = self._catalog.entry(model, api.provider, self._clock.now())
            window = entry.context_window if entry is not None else None
        changes = ContextPolicyChanges(context_window=window) if window is not None else None
        found = CompactionSettings.from_policy(self._policy, changes)
        with self._lock:
            self._settings[key] = found
        return found

    def apply(
        self,
        api: ProviderApi,
        conversation: str,
        model: str | None,
        prefix: Mapping[str, Any],
        prefix_tokens: int,
        messages: Sequence[TransformedMessage],
    ) -> CompactedConversation:
        """The conversation's cut for `messages` (transformed), a new one made when what
        would be forwarded does not fit. `prefix` holds the fields sent before the
        conversation, by name, and `prefix_tokens` their tokens."""
        if api.transcript_format is None:  # an API whose conversation is not a transcript
            return CompactedConversation()
        settings = self.settings(api, model)
        cut = self._cut(conversation)
        if cut is not None and cut.folded >= len(messages):
            cut = None  # the client went back before the cut (an edit): start again
        folded = cut.folded if cut is not None else 0
        summary = list(cut.summary) if cut is not None else []
        tokens = prefix_tokens + (cut.summary_tokens if cut is not None else 0)
        tokens += sum(message.tokens_forwarded for message in messages[folded:])
        if tokens <= settings.threshold:
            return CompactedConversation.of(cut)
        candidate = summary + [message.data for message in messages[folded:]]
        new_cut = self._compacted(
            api, settings, conversation, prefix, candidate, folded, len(summary)
        )
        if new_cut is None:
            return CompactedConversation.of(cut)
        self._store(new_cut)
        return CompactedConversation.of(new_cut, compacted_now=True)

    def _compacted(
        self,
        api: ProviderApi,
        settings: CompactionSettings,
        conversation: str,
        prefix: Mapping[str, Any],
        candidate: list[Any],
        folded: int,
        summary_count: int,
    ) -> CompactionCut | None:
        field = api.conversation_field  # "messages", or the Responses API's "input" items
        document: dict[str, Any] = {field: candidate}
        # Anthropic's system prompt is a field of its own (OpenAI's is the first message, kept
        # by the compaction and so part of what is stored as the summary's head).
        system = prefix.get("system")
        if api is ProviderApi.ANTHROPIC_MESSAGES and isinstance(system, str | list):
            document["system"] = system
        compaction = self._compactor.compact(
            document,
            transcript_format=api.transcript_format,
            policy=self._policy,
            overrides=ContextPolicyChanges(context_window=settings.context_window),
            force=True,
            unrecorded=lambda _reason: None,
        )
        outcome = compaction.outcome
        if not outcome.compacted or outcome.kept_messages <= 0:
            return None
        written = compaction.native()
        assert isinstance(written, dict)
        messages = written.get(field, [])
        kept = (
            _kept_items(messages, candidate)
            if api is ProviderApi.OPENAI_RESPONSES
            else outcome.kept_messages
        )
        if kept <= 0:
            return None
        summary = tuple(messages[: len(messages) - kept])
        kept_from = len(candidate) - kept  # index in the candidate
        if kept_from < summary_count:
            return None  # the cut fell inside the earlier summary: nothing more to fold
        return CompactionCut(
            conversation,
            folded + kept_from - summary_count,
            summary,
            sum(self._counter.count(canonical_json(message)) for message in summary),
        )

    def _cut(self, conversation: str) -> CompactionCut | None:
        with self._lock:
            if self._cuts is None:
                self._cuts = {}
                for event in self._events.recorded(PROXY_COMPACTION_CUT):
                    cut = _cut_of(event.payload)
                    if cut is not None:
                        self._cuts[cut.conversation] = cut
            return self._cuts.get(conversation)

    def _store(self, cut: CompactionCut) -> None:
        self._events.emit(
            PROXY_COMPACTION_CUT,
            {
                "conversation": cut.conversation,
                "folded": cut.folded,
                # As text: the store may reorder an object's keys, and the summary's bytes
                # must be the same after a restart (the provider's cache compares them).
                "summary": canonical_json(list(cut.summary)),
                "summary_tokens": cut.summary_tokens,
            },
        )
        with self._lock:
            if self._cuts is not None:
                self._cuts[cut.conversation] = cut


def _cut_of(payload: dict[str, Any]) -> CompactionCut | None:
    conversation, folded = payload.get("conversation"), payload.get("folded")
    text, tokens = payload.get("summary"), payload.get("summary_tokens")
    if not (
        isinstance(conversation, str)
        and isinstance(folded, int)
        and isinstance(text, str)
        and isinstance(tokens, int)
    ):
        return None
    try:
        summary = json.loads(text)
    except ValueError:
        return None
    if not isinstance(summary, list):
        return None
    return CompactionCut(conversation, folded, tuple(summary), tokens)


def _kept_items(written: list[Any], candidate: list[Any]) -> int:
    """How many of the candidate's last items the compaction wrote back as they were: the
    Responses codec counts kept *messages* (a run of items each), while the cut is kept in
    items. The kept items are written back unchanged, keys in their order, so they are the
    longest common tail of the two lists (never the whole written list: the summary leads)."""
    kept = 0
    while (
        kept < len(candidate)
        and kept < len(written) - 1
        and written[-1 - kept] == candidate[-1 - kept]
    ):
        kept += 1
    return kept
