"""Context policies: how much a model sees, and how much a child plan inherits.

A field left as None is *unset*: the effective value then comes from the next level (plan override
-> project policy -> product default). Keeping "unset" distinct from "set to the default" lets a
project pick up a better default later and lets `project context show` say where a value came from.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cleveragents.domain.errors import InvalidPolicyError
from cleveragents.domain.ratio import DEFAULT_SKELETON_RATIO, validate_ratio
from cleveragents.domain.tokens import MAX_TOKEN_COUNT

DEFAULT_CONTEXT_WINDOW = 200_000
DEFAULT_RESERVE_TOKENS = 16_384
DEFAULT_KEEP_RECENT_TOKENS = 20_000
DEFAULT_SUMMARY_TOKENS = 4_000
MIN_SUMMARY_TOKENS = 100
"""Below this a summary holds little more than its heading and the request it quotes."""
"""A compaction summary's own budget: Claude Code's summaries of long agent sessions are
3-4k tokens, and a summary that grows with the session would defeat compaction."""
RESERVE_SHARE_DIVISOR = 4
"""An unset reserve is at most a quarter of the window (`default_reserve_tokens`)."""
KEEP_RECENT_SHARE_PERCENT = 50
"""Unset recent turns take at most half the window less the reserve."""
DEFAULT_PREVIEW_HEAD_BYTES = 4096
DEFAULT_PREVIEW_TAIL_BYTES = 4096
MAX_RETENTION_DAYS = 100 * 366
"""A century: any longer keeps everything all the same, and a cutoff before year 1 is no date."""
MAX_RETENTION_BYTES = 2**63 - 1
"""The largest byte count the database stores (a 64-bit signed integer)."""

PolicySource = Literal["plan", "project", "default"]

_WITHOUT_DEFAULT = frozenset({"artifact_retention_days", "artifact_retention_bytes"})
"""Retention has no default: unset, artifacts are kept forever."""


class EffectiveSetting(NamedTuple):
    """A setting's effective value and the level it comes from."""

    value: float | int | None
    source: PolicySource


class _PolicyFields(BaseModel):
    """The settings of a context policy, each optional, with the range each must be in."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    skeleton_ratio: float | None = None
    context_window: int | None = Field(default=None, gt=0, le=MAX_TOKEN_COUNT)
    reserve_tokens: int | None = Field(default=None, ge=0, le=MAX_TOKEN_COUNT)
    keep_recent_tokens: int | None = Field(default=None, gt=0, le=MAX_TOKEN_COUNT)
    summary_tokens: int | None = Field(default=None, ge=MIN_SUMMARY_TOKENS, le=MAX_TOKEN_COUNT)
    artifact_retention_days: int | None = Field(default=None, gt=0, le=MAX_RETENTION_DAYS)
    artifact_retention_bytes: int | None = Field(default=None, gt=0, le=MAX_RETENTION_BYTES)
    preview_head_bytes: int | None = Field(default=None, ge=0, le=1 << 20)
    # The tail is never empty: the end of an output is where failures are reported.
    preview_tail_bytes: int | None = Field(default=None, ge=1, le=1 << 20)

    @field_validator("skeleton_ratio", mode="before")
    @classmethod
    def _ratio_in_range(cls, value: object) -> float | None:
        return None if value is None else validate_ratio(value)


class ContextPolicyChanges(_PolicyFields):
    """Changes to a context policy, given as one value: each field that is set replaces the
    policy's, None leaves it as it is. Every value is checked when the changes are made, so a
    bad one is refused before any policy (or store) is touched; whether the changed policy
    leaves room is judged once it is applied (`ContextPolicy.check_coherent`)."""

    @property
    def changes_nothing(self) -> bool:
        return not self.model_dump(exclude_none=True)


class ContextPolicy(_PolicyFields):
    """Settings of a project, or the overrides of a plan. None means unset."""

    def check_coherent(self) -> ContextPolicy:
        """Raise `InvalidPolicyError` unless the effective window budget leaves room.

        Not a model validator: a plan override is judged only once merged over its project's
        policy, never against the product defaults.
        """
        check_window_budget(
            self.effective_context_window,
            self.effective_reserve_tokens,
            self.effective_keep_recent_tokens,
            self.summary_tokens,  # the default adapts to the room left, a set value must fit
        )
        return self

    def effective_settings(self, level: PolicySource = "project") -> dict[str, EffectiveSetting]:
        """Every setting, in the order of the fields, with its effective value and where it
        comes from: `level` (the level this policy is at) when it is set here, else
        ``default``. Retention settings have no default: unset, their value is None."""
        settings: dict[str, EffectiveSetting] = {}
        for name in type(self).model_fields:
            stored = getattr(self, name)
            value = stored if name in _WITHOUT_DEFAULT else getattr(self, f"effective_{name}")
            settings[name] = EffectiveSetting(value, "default" if stored is None else level)
        return settings

    @property
    def effective_skeleton_ratio(self) -> float:
        return DEFAULT_SKELETON_RATIO if self.skeleton_ratio is None else self.skeleton_ratio

    @property
    def effective_context_window(self) -> int:
        return DEFAULT_CONTEXT_WINDOW if self.context_window is None else self.context_window

    @property
    def effective_reserve_tokens(self) -> int:
        if self.reserve_tokens is None:
            return default_reserve_tokens(self.effective_context_window)
        return self.reserve_tokens

    @property
    def effective_keep_recent_tokens(self) -> int:
        if self.keep_recent_tokens is None:
            return default_keep_recent_tokens(
                self.effective_context_window, self.effective_reserve_tokens
            )
        return self.keep_recent_tokens

    @property
    def effective_summary_tokens(self) -> int:
        if self.summary_tokens is not None:
            return self.summary_tokens
        return default_summary_tokens(
            self.effective_context_window,
            self.effective_reserve_tokens,
            self.effective_keep_recent_tokens,
        )

    @property
    def effective_preview_head_bytes(self) -> int:
        if self.preview_head_bytes is None:
            return DEFAULT_PREVIEW_HEAD_BYTES
        return self.preview_head_bytes

    @property
    def effective_preview_tail_bytes(self) -> int:
        if self.preview_tail_bytes is None:
            return DEFAULT_PREVIEW_TAIL_BYTES
        return self.preview_tail_bytes

    def updated(self, changes: ContextPolicyChanges) -> ContextPolicy:
        """A copy with every field that `changes` sets replaced, validated again."""
        values = self.model_dump()
        values.update(changes.model_dump(exclude_none=True))
        return ContextPolicy.model_validate(values)

    def overridden_by(self, override: ContextPolicy) -> ContextPolicy:
        """This policy with every field that `override` sets taking precedence."""
        values = self.model_dump()
        values.update(override.model_dump(exclude_none=True))
        return ContextPolicy.model_validate(values)


def default_reserve_tokens(context_window: int) -> int:
    """`DEFAULT_RESERVE_TOKENS`, or a quarter of a window too small for it (under 64k): the
    reply must not take the room the conversation needs."""
    return min(DEFAULT_RESERVE_TOKENS, context_window // RESERVE_SHARE_DIVISOR)


def default_keep_recent_tokens(context_window: int, reserve_tokens: int) -> int:
    """`DEFAULT_KEEP_RECENT_TOKENS`, or half of what the reserve leaves of a window too small
    for it: the other half holds the summary and lets the conversation grow before the next
    compaction."""
    usable = max(0, context_window - reserve_tokens)
    return max(1, min(DEFAULT_KEEP_RECENT_TOKENS, usable * KEEP_RECENT_SHARE_PERCENT // 100))


def default_summary_tokens(context_window: int, reserve_tokens: int, keep_recent: int) -> int:
    """`DEFAULT_SUMMARY_TOKENS`, or less when a small window leaves less room beside the
    recent turns (never under `MIN_SUMMARY_TOKENS`: a compaction that cannot fit then fails,
    and says so)."""
    room = context_window - reserve_tokens - keep_recent
    return max(MIN_SUMMARY_TOKENS, min(DEFAULT_SUMMARY_TOKENS, room))


def check_window_budget(
    context_window: int,
    reserve_tokens: int,
    keep_recent: int,
    summary_tokens: int | None = None,
) -> None:
    """Refuse a policy that leaves no room: the reserve must fit in the window, the recent
    turns kept by compaction must fit in what the reserve leaves, and so must those turns and
    the summary that replaces the older ones together (when `summary_tokens` is given).

    The messages name the settings as the policy spells them (``keep_recent_tokens``), not
    as one driver does (a CLI flag): the same words reach the CLI, Python and MCP callers."""
    if reserve_tokens >= context_window:
        raise InvalidPolicyError(
            f"reserve_tokens ({reserve_tokens}) must be less than context_window "
            f"({context_window}); lower reserve_tokens or raise context_window"
        )
    usable = context_window - reserve_tokens
    if keep_recent > usable:
        raise InvalidPolicyError(
            f"keep_recent_tokens ({keep_recent}) must not exceed context_window - reserve_tokens "
            f"({usable}); lower keep_recent_tokens"
        )
    if summary_tokens is not None and summary_tokens + keep_recent > usable:
        raise InvalidPolicyError(
            f"summary_tokens ({summary_tokens}) + keep_recent_tokens ({keep_recent}) must not "
            f"exceed context_window - reserve_tokens ({usable}); lower summary_tokens or "
            "keep_recent_tokens"
        )
