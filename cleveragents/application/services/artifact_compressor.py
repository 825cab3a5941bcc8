"""Artifact-type-tailored compression within an exact token budget (seeds/artifact-type-
tailored-context.md, SPEC C4).

`seed` mode is the seed's three tiers: the artifact whole when it fits (Tier 1); the type's
strategy when it is at most 1.5 times the budget and the result fits and is valid (Tier 2);
otherwise a head cut at a paragraph boundary with a ``[TRUNCATED: ...]`` marker (Tier 3). Unlike
the seed's ``budget * 4`` characters, every tier's `content` is counted with the real tokenizer
and fits the budget, and `compacted_tokens` is that count.

`smart` mode keeps structure at any size: the type's strategy, then stronger structural levels
(shorter JSON arrays, collapsed diff context), then the lines that matter most (errors before
info lines, signatures before bodies, headings before prose), packed to the exact budget.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import closing
from dataclasses import dataclass
from typing import TypeVar

from cleveragents.application.ports.artifact_files import ArtifactFile, ArtifactFiles
from cleveragents.application.ports.source_skeleton import SourceSkeletonizer
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.detection import detect
from cleveragents.application.services.artifact_compression.heuristic_counter import (
    HEURISTIC_WARNING,
    HeuristicTokenCounter,
)
from cleveragents.application.services.artifact_compression.packing import (
    pack_columns,
    pack_lines,
)
from cleveragents.application.services.artifact_compression.packing_preparation import (
    PACKABLE_MIN_LINES,
    PreparedPacking,
    prepare_packing,
)
from cleveragents.application.services.artifact_compression.split_counting import (
    SplitCounter,
    as_tokenized,
    begin,
)
from cleveragents.application.services.artifact_compression.strategies import strategy_for
from cleveragents.application.services.artifact_compression.strategy import (
    ArtifactStrategy,
)
from cleveragents.application.services.artifact_compression.streaming_logs import (
    collect_log_candidates,
)
from cleveragents.application.services.artifact_compression.structural_forms import (
    StructuralForms,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.application.services.artifact_compression.truncation import (
    HEURISTIC_CHARS_PER_TOKEN,
    truncate_to_budget,
)
from cleveragents.domain.artifact import ArtifactKind, CompressedArtifact, CompressionMode
from cleveragents.domain.errors import (
    ArtifactNotFoundError,
    InvalidInputError,
    TokenCountingError,
)

_Counted = TypeVar("_Counted")

LARGE_ARTIFACT_BYTES = 32 << 20
"""Above this size an artifact is streamed: counted in chunks, and only what the output needs
is held (a head for Tier 3; bounded candidate buffers for smart-mode logs)."""

SNIFF_CHARS = 16_384
ESTIMATE_MARGIN = 1.03
"""A form estimated more than 3% over the budget is not encoded: it would not fit."""
GUESS_SAMPLE_CHARS = 3 * 16_384  # three slices: the start, the middle and the end
GUESS_MARGIN = 1.1


@dataclass(frozen=True, slots=True)
class CompressionOutcome:
    """The seed's JSON result, and for a missing or binary artifact the error it reports (the
    result then is the seed's error response)."""

    result: CompressedArtifact
    error: str | None = None


class ArtifactCompressorService:
    """Compresses one artifact to a token budget for a judge or an agent."""

    def __init__(
        self,
        files: ArtifactFiles,
        token_counter: TokenCounter,
        skeletonizer: SourceSkeletonizer,
        large_artifact_bytes: int | None = None,
    ) -> None:
        self._files = files
        self._counter = token_counter
        self._skeletonizer = skeletonizer
        self._large_bytes = large_artifact_bytes

    def compress(
        self,
        artifact_path: str,
        budget: int,
        *,
        workdir: str,
        task: str | None = None,
        mode: CompressionMode = CompressionMode.SEED,
    ) -> CompressionOutcome:
        """Compress the artifact at `artifact_path` (relative to `workdir`) to `budget` tokens.

        A missing artifact, or a path that escapes the work directory, gives the seed's
        not-found response with `error` set; so does a binary file. Invalid UTF-8 is decoded
        with replacement characters (U+FFFD).
        """
        _check_budget(budget)
        try:
            artifact = self._files.open(workdir, artifact_path)
        except ArtifactNotFoundError as missing:
            content = f"[ERROR: artifact not found at {missing.location}]"
            return CompressionOutcome(_error_result(artifact_path, content), str(missing))
        if artifact.is_binary():
            message = f"{artifact.location} is a binary file, not text"
            content = f"[ERROR: artifact is binary, not compressed: {artifact.location}]"
            return CompressionOutcome(_error_result(artifact_path, content), message)
        if artifact.size_bytes > (self._large_bytes or LARGE_ARTIFACT_BYTES):
            return CompressionOutcome(
                self._compress_large(artifact_path, artifact, budget, task, mode)
            )
        return CompressionOutcome(
            self.compress_text(artifact_path, artifact.read_text(), budget, task=task, mode=mode)
        )

    def compress_text(
        self,
        name: str,
        text: str,
        budget: int,
        *,
        task: str | None = None,
        mode: CompressionMode = CompressionMode.SEED,
    ) -> CompressedArtifact:
        """Compress `text`, whose file name `name` helps detect its kind.

        The raw count (one encode of the whole text) runs on a worker thread while this one
        prepares the structural forms the tier will probably need, and in smart mode makes the
        strongest form ready to pack: the tokenizer releases the GIL, so the two overlap. When
        nothing needs preparing, this thread counts half of the text and a worker the other
        half. What is prepared is decided by a guess, but only exact counts decide: a wrong
        guess costs time, never a different result.
        """
        _check_budget(budget)
        text = as_tokenized(text)
        strategy = strategy_for(detect(name, text[:SNIFF_CHARS]), self._skeletonizer)
        forms = StructuralForms(strategy, TaskTerms.from_task(task), text)
        plan = _plan(forms, budget, mode, self._counter)
        pool = _counting_pool()
        early = None
        if plan.prepares_nothing:  # this thread is free to count half of the text
            counted = self._count_raw(text, plan.raw_starts, SplitCounter(self._counter, pool))
        else:
            counting = begin(pool, self._count_raw, text, plan.raw_starts, None)
            _prepare(forms, plan)
            early = _prepare_early_packing(forms, plan, budget, SplitCounter(self._counter, pool))
            counted = counting.result()
        try:
            return self._compress_counted(name, forms, budget, mode, counted, pool, early)
        except TokenCountingError:
            if counted[0] is not self._counter:
                raise  # the heuristic never fails: a bug, let it show
        # The real tokenizer counted the raw text (or its halves) but failed on a later text:
        # the seed's fallback applies to the whole compression, as if the raw count had failed.
        heuristic = HeuristicTokenCounter()
        fallback = (heuristic, HEURISTIC_WARNING, heuristic.count(text), None)
        return self._compress_counted(name, forms, budget, mode, fallback, pool, None)

    def _compress_counted(
        self,
        name: str,
        forms: StructuralForms,
        budget: int,
        mode: CompressionMode,
        counted: tuple[TokenCounter, str, int, list[int] | None],
        pool: ThreadPoolExecutor,
        early: PreparedPacking | None,
    ) -> CompressedArtifact:
        """The tiers, once the raw text is counted (`counted`: the counter that counted it, the
        fallback's preamble, the raw count and, when computed, the raw token starts)."""
        text = forms.text
        counter, preamble, raw_tokens, raw_starts = counted
        body_budget = budget - (counter.count(preamble) if preamble else 0)
        split = SplitCounter(counter, pool)
        early = early if counter is self._counter else None  # counted by the real tokenizer
        run = _Run(counter, forms.strategy, forms, raw_tokens, len(text), split, raw_starts, early)
        if body_budget <= 0:
            outcome = _Outcome("", True, 0)
        elif mode is CompressionMode.SMART:
            outcome = run.smart(text, body_budget)
        else:
            outcome = run.seed(text, body_budget)
        content = _with_preamble(preamble, outcome.content, budget, counter)
        return CompressedArtifact(
            artifact_name=name,
            raw_tokens=raw_tokens,
            compacted_tokens=counter.count(content) if preamble else outcome.tokens,
            truncated=outcome.truncated,
            content=content,
        )

    def _count_raw(
        self, text: str, with_starts: bool, halves: SplitCounter | None
    ) -> tuple[TokenCounter, str, int, list[int] | None]:
        """The raw count, and the byte offsets where its tokens start when `with_starts` (the
        same encode: Tier 3 and line packing estimate from them); in two halves at once with
        `halves`, which counts with the real tokenizer."""

        def raw(counter: TokenCounter) -> tuple[int, list[int] | None]:
            split = halves if halves is not None and counter is halves.counter else None
            if with_starts:
                starts = split.token_starts(text) if split else counter.token_starts(text)
                return len(starts), starts
            return (split.count(text) if split else counter.count(text)), None

        counter, preamble, (tokens, starts) = self._with_fallback(raw)
        return counter, preamble, tokens, starts

    def _with_fallback(
        self, count: Callable[[TokenCounter], _Counted]
    ) -> tuple[TokenCounter, str, _Counted]:
        """`count` with the real tokenizer; when it fails, with the seed's heuristic, which then
        serves every later count, and the warning preamble that says so."""
        try:
            return self._counter, "", count(self._counter)
        except TokenCountingError:
            heuristic = HeuristicTokenCounter()
            return heuristic, HEURISTIC_WARNING, count(heuristic)

    def _compress_large(
        self,
        name: str,
        artifact: ArtifactFile,
        budget: int,
        task: str | None,
        mode: CompressionMode,
    ) -> CompressedArtifact:
        counter, preamble, raw_tokens = self._with_fallback(
            lambda c: c.count_stream(artifact.iter_text())
        )
        if raw_tokens * 2 <= budget * 3:  # Tier 1 or 2: the output may be the whole artifact
            return self.compress_text(name, artifact.read_text(), budget, task=task, mode=mode)
        body_budget = budget - (counter.count(preamble) if preamble else 0)
        strategy = strategy_for(detect(name, _head(artifact, SNIFF_CHARS)), self._skeletonizer)
        if body_budget <= 0:
            content = ""
        elif mode is CompressionMode.SMART and strategy.kind is ArtifactKind.LOG:
            terms = TaskTerms.from_task(task)
            candidates = collect_log_candidates(
                artifact.iter_lines(), strategy, terms, body_budget, counter
            )
            content = pack_lines(
                candidates.lines,
                candidates.total_lines,
                body_budget,
                raw_tokens,
                counter,
                strategy.gap_marker,
            ).content
        else:
            # Tier 3 needs only a head: the seed's cut point plus room to find a boundary.
            head = _head(artifact, body_budget * HEURISTIC_CHARS_PER_TOKEN)
            content = truncate_to_budget(head, body_budget, raw_tokens, counter).content
        content = _with_preamble(preamble, content, budget, counter)
        return CompressedArtifact(
            artifact_name=name,
            raw_tokens=raw_tokens,
            compacted_tokens=counter.count(content),
            truncated=True,
            content=content,
        )


@dataclass(frozen=True, slots=True)
class _Outcome:
    content: str
    truncated: bool
    tokens: int  # the real count of `content`, so it is never encoded twice


@dataclass(frozen=True, slots=True)
class _Run:
    counter: TokenCounter
    strategy: ArtifactStrategy
    forms: StructuralForms
    raw_tokens: int
    raw_chars: int
    split: SplitCounter
    raw_starts: list[int] | None  # where the raw text's tokens start, when computed
    early: PreparedPacking | None = None  # prepared while the raw count ran

    def estimate(self, text: str) -> float:
        """Tokens of `text` at the artifact's own characters per token. (An exact count of a
        sample of the form was tried: on diffs it was further off than this ratio.)"""
        return len(text) * self.raw_tokens / max(self.raw_chars, 1)

    def counted_in_pairs(self, texts: list[str]) -> Iterator[tuple[str, int]]:
        """Each text with its real count, in order; two are encoded at once (one on the worker
        thread), so the second is usually ready when the first does not fit; a last one
        alone is counted in two halves at once."""
        for index in range(0, len(texts), 2):
            if index + 1 == len(texts):
                yield texts[index], self.split.count(texts[index])
                return
            first = self.split.count_later(texts[index])
            second_tokens = self.counter.count(texts[index + 1])
            yield texts[index], first.result()
            yield texts[index + 1], second_tokens

    def seed(self, text: str, budget: int) -> _Outcome:
        if self.raw_tokens <= budget:
            return _Outcome(text, False, self.raw_tokens)  # Tier 1
        if self.raw_tokens * 2 <= budget * 3:  # Tier 2: budget < raw <= 1.5 * budget
            compressed = self.forms.tier2()
            if compressed is not None:
                tokens = self.split.count(compressed)
                if tokens <= budget:
                    return _Outcome(compressed, False, tokens)
        return self.truncate(text, budget)  # Tier 3

    def smart(self, text: str, budget: int) -> _Outcome:
        if self.raw_tokens <= budget:
            return _Outcome(text, False, self.raw_tokens)
        if self.strategy.strongest_level is not None:
            ordered = self.smart_ordered(budget)
            if ordered is not None:
                return ordered
        candidates = self.forms.candidates()
        # The candidate that keeps the most (the longest) and fits is the summary. A candidate
        # whose length says it is far over budget is not encoded at all; the others are
        # counted two at a time, one on the worker thread.
        longest_first = sorted(candidates, key=len, reverse=True)
        may_fit = [c for c in longest_first if self.estimate(c) <= budget * ESTIMATE_MARGIN]
        for candidate, tokens in self.counted_in_pairs(may_fit):
            if tokens <= budget:
                return _Outcome(candidate, False, tokens)
        # Logs and plain text lose only lines in Tier 2: packing the original keeps the gap
        # markers' counts true. Other kinds pack their most compressed structural form.
        if self.strategy.kind in (ArtifactKind.LOG, ArtifactKind.TEXT):
            return self.pack(text, budget)
        return self.pack(_packing_base(candidates, text), budget)

    def smart_ordered(self, budget: int) -> _Outcome | None:
        """Smart mode for a strategy whose forms shorten level by level (Tier 2, 1, 2, ...);
        None when it has no strongest form after all.

        The rule: when the strongest form's estimate is over the budget, the strongest form
        is packed (whole if its exact count fits); otherwise the summary is the gentlest form
        whose estimate is within `ESTIMATE_MARGIN` of the budget and whose exact count fits,
        and packing the strongest when none does. It is evaluated lazily: a Tier 2 already
        rendered (the plan forecast it would fit) whose estimate is within the budget implies
        that the strongest's is too, so when Tier 2's count fits, no other form is rendered.
        Otherwise the strongest form comes first, counted while its lines are ranked when it
        looks over budget, and the others are tried from the gentlest, each counted on the
        worker thread while the next is rendered."""
        tier2 = self.forms.prepared_tier2()
        tier2_counted = tier2 is not None and self.estimate(tier2) <= budget
        if tier2 is not None and tier2_counted and (tokens := self.split.count(tier2)) <= budget:
            return _Outcome(tier2, False, tokens)
        strongest = self.forms.strongest()
        if strongest is None:
            return None
        if self.estimate(strongest) > budget:
            prepared = self.prepare_packing(strongest)
            if prepared is None:
                return self.truncate(strongest, budget)
            if prepared.tokens > budget:
                return self.pack_prepared(prepared, budget)
            return _Outcome(strongest, False, prepared.tokens)
        limit = budget * ESTIMATE_MARGIN
        counting: tuple[str, Future[int]] | None = None
        for form in self.forms.gentlest_first():
            if form is tier2 and tier2_counted:
                continue  # counted above: it does not fit
            if counting is not None:
                tokens = counting[1].result()
                if tokens <= budget:
                    return _Outcome(counting[0], False, tokens)
            counting = None
            if self.estimate(form) <= limit:
                counting = (form, self.split.count_later(form))
        if counting is not None and (tokens := counting[1].result()) <= budget:
            return _Outcome(counting[0], False, tokens)
        return self.pack(strongest, budget)

    def pack(self, text: str, budget: int) -> _Outcome:
        prepared = self.prepare_packing(text)
        if prepared is None:
            return self.truncate(text, budget)
        return self.pack_prepared(prepared, budget)

    def prepare_packing(self, text: str) -> PreparedPacking | None:
        """`text` ready to pack: the one prepared early when it is that text, else prepared
        now, from the raw count's token starts when it is the artifact itself."""
        if self.early is not None and self.early.text is text:
            return self.early
        known = self.raw_starts if text is self.forms.text else None
        return prepare_packing(text, self.strategy, self.forms.terms, self.split, known)

    def pack_prepared(self, prepared: PreparedPacking, budget: int) -> _Outcome:
        packed = pack_columns(
            range(len(prepared.lines)),
            prepared.lines,
            prepared.priorities,
            len(prepared.lines),
            budget,
            self.raw_tokens,
            self.counter,
            self.strategy.gap_marker,
            prepared.costs,
            prepared.source,
        )
        return _Outcome(packed.content, True, packed.tokens)

    def truncate(self, text: str, budget: int) -> _Outcome:
        starts = self.raw_starts if text is self.forms.text else None
        cut = truncate_to_budget(text, budget, self.raw_tokens, self.counter, starts)
        return _Outcome(cut.content, True, cut.tokens)


@dataclass(frozen=True, slots=True)
class _Plan:
    """What to prepare while the raw count runs, from a guess of that count."""

    raw_starts: bool = False  # have the raw encode return token starts, not only a count
    tier2: bool = False
    candidates: bool = False
    guess: float = 0.0  # the guessed raw count

    @property
    def prepares_nothing(self) -> bool:
        return not (self.tier2 or self.candidates)


def _plan(
    forms: StructuralForms, budget: int, mode: CompressionMode, counter: TokenCounter
) -> _Plan:
    """The guess is the exact count of a sample (`GUESS_SAMPLE_CHARS` from the start, the
    middle and the end: one file of many may be denser than the rest), scaled to
    the whole text. Nothing when the text surely fits (a token is at least one byte) or
    probably fits; seed mode: Tier 2 when the guess is near its band (budget < raw <= 1.5 x
    budget), else token starts for Tier 3; smart mode: the structural forms, and token starts
    for logs and plain text, whose original lines are packed. For forms that shorten level
    by level, Tier 2 rendered on the sample's start forecasts whether Tier 2 fits: then only
    Tier 2 is prepared, else the strongest form. A wrong guess costs time, never a different result:
    only exact counts decide."""
    text = forms.text
    kind = forms.kind
    if _utf8_length(text) <= budget:
        return _Plan()
    try:
        sample = _sample(text)
        guess = counter.count(sample) * len(text) / max(len(sample), 1)
    except TokenCountingError:
        return _Plan()
    if guess * GUESS_MARGIN <= budget:
        return _Plan()
    if mode is CompressionMode.SMART:
        if forms.ordered:
            share = forms.tier2_share(sample[: GUESS_SAMPLE_CHARS // 3])  # its start: cheap
            if share is not None and guess * share <= budget:
                return _Plan(tier2=True, guess=guess)
        packs_original = kind in (ArtifactKind.LOG, ArtifactKind.TEXT)
        return _Plan(raw_starts=packs_original, candidates=True, guess=guess)
    if guess <= budget * 1.5 * GUESS_MARGIN:
        return _Plan(tier2=True)
    return _Plan(raw_starts=True)


def _utf8_length(text: str) -> int:
    """The UTF-8 length of a text without surrogates (`as_tokenized`); ASCII costs nothing."""
    return len(text) if text.isascii() else len(text.encode("utf-8"))


def _sample(text: str) -> str:
    """`GUESS_SAMPLE_CHARS` of `text`, a third each from its start, middle and end."""
    third = GUESS_SAMPLE_CHARS // 3
    if len(text) <= GUESS_SAMPLE_CHARS:
        return text
    middle = len(text) // 2
    return "\n".join((text[:third], text[middle : middle + third], text[-third:]))


def _prepare(forms: StructuralForms, plan: _Plan) -> None:
    if plan.candidates:
        if forms.strongest() is None:
            forms.candidates()
    elif plan.tier2:
        forms.tier2()


def _prepare_early_packing(
    forms: StructuralForms, plan: _Plan, budget: int, split: SplitCounter
) -> PreparedPacking | None:
    """The strongest form made ready to pack while the raw count still runs, when the plan
    prepared it and it may be over budget by the guess (smart mode then packs it). Its token
    starts are encoded on the one worker the raw count leaves free. A wrong guess only wastes
    the work: the run uses it only for the text it was prepared for."""
    if not (plan.candidates and forms.ordered):
        return None
    strongest = forms.strongest()
    guessed_tokens = len(strongest or "") * plan.guess / max(len(forms.text), 1)
    if strongest is None or guessed_tokens * GUESS_MARGIN <= budget:
        return None
    try:
        return prepare_packing(strongest, forms.strategy, forms.terms, split, one_worker_busy=True)
    except TokenCountingError:
        return None  # the raw count will fail too, and the heuristic fallback takes over


def _packing_base(candidates: list[str], original: str) -> str:
    """The most compressed structural candidate that still has lines to pack (compact JSON is
    one line: packing the pretty Tier 2 text keeps more keys)."""
    multi_line = [c for c in candidates if c.count("\n") + 1 >= PACKABLE_MIN_LINES]
    return multi_line[-1] if multi_line else original


def _with_preamble(preamble: str, content: str, budget: int, counter: TokenCounter) -> str:
    """The heuristic warning before the content; a budget smaller than the warning itself gets
    as much of the warning as fits (the budget is never exceeded)."""
    if not preamble:
        return content
    if counter.count(preamble) > budget:
        return counter.prefix_within(preamble, budget)
    return preamble + content


_pools: dict[str, ThreadPoolExecutor] = {}
_pools_lock = threading.Lock()


def _counting_pool() -> ThreadPoolExecutor:
    """The threads that count while the caller parses, kept for the life of the process: a
    tokenizer's regex caches are per thread, and a fresh thread encodes about half as fast
    until they are warm (measured: 184 ms against 120 ms for 1 MB). Two threads, so that two
    compressions running at once do not wait for each other's counts."""
    with _pools_lock:
        if "count" not in _pools:
            _pools["count"] = ThreadPoolExecutor(max_workers=2, thread_name_prefix="token-count")
        return _pools["count"]


def _check_budget(budget: int) -> None:
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise InvalidInputError(f"the token budget must be a whole number >= 1, got {budget!r}")


def _error_result(name: str, content: str) -> CompressedArtifact:
    return CompressedArtifact(
        artifact_name=name, raw_tokens=0, compacted_tokens=0, truncated=True, content=content
    )


def _head(artifact: ArtifactFile, characters: int) -> str:
    parts: list[str] = []
    held = 0
    with closing(artifact.iter_text(min(max(characters, 1), 1 << 20))) as chunks:
        for chunk in chunks:
            parts.append(chunk)
            held += len(chunk)
            if held >= characters:
                break
    return "".join(parts)[:characters]
