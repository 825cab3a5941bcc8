"""Artifact-type-tailored compression within an exact token budget.

`tiered` mode is three tiers: the artifact whole when it fits (Tier 1); the kind's compressor when
the artifact is at most 1.5 times the budget and the result fits and is valid (Tier 2);
otherwise a head cut with a ``[TRUNCATED: ...]`` marker (Tier 3). Every tier's `content` is
counted with the real tokenizer and fits the budget, and `compacted_tokens` is that count.

`smart` mode fills the budget by value at any ratio: the artifact whole when it fits; else the
type's own fit (JSON, which must still parse), or the artifact's own lines packed by the
type's ranks (structure first, then what matters for the type and the task, then context),
each run of dropped lines replaced by a marker naming its line range, so nothing is lost: when
the artifact is in the store, `agents artifact read ID --lines A-B` gives the range back.

Before anything, credentials in the artifact are redacted (kind named, value never), so a
judge never sees a key.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from functools import partial

from cleveragents.application.ports.contained_files import ContainedFiles
from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.ports.source_skeleton import SourceSkeletonizer
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.artifact_reading import (
    ReadableArtifact,
    artifact_from_bytes,
    binary_refusal,
    open_artifact,
)
from cleveragents.application.services.artifact_compression.detection import detect_as
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    FittedText,
    Handles,
    KindCompressor,
    LinePlan,
    MalformedCompressionError,
)
from cleveragents.application.services.artifact_compression.kinds.logs.streaming import (
    collect_log_candidates,
)
from cleveragents.application.services.artifact_compression.kinds.registry import compressor_for
from cleveragents.application.services.artifact_compression.packing import (
    PackRequest,
    line_costs_from_starts,
    pack,
    pack_lines,
    repeat_runs,
)
from cleveragents.application.services.artifact_compression.redaction import (
    redact_artifact,
    without_key_bodies,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.application.services.artifact_compression.truncation import (
    HEURISTIC_CHARS_PER_TOKEN,
    truncate_to_budget,
)
from cleveragents.application.services.artifact_store.artifact_store import ArtifactStore
from cleveragents.application.services.counting.heuristic_counter import (
    HEURISTIC_WARNING,
    HeuristicTokenCounter,
)
from cleveragents.domain.artifact import ArtifactKind, CompressedArtifact, CompressionMode
from cleveragents.domain.errors import (
    ArtifactNotFoundError,
    InvalidInputError,
    TokenCountingError,
)

LARGE_ARTIFACT_BYTES = 32 << 20
"""Above this size an artifact is streamed: counted in chunks, and only what the output needs
is held (a head for Tier 3; bounded candidate buffers for smart-mode logs)."""
SNIFF_CHARS = 16_384
LIKELY_CHARS_PER_TOKEN = 4
REFIT_MARGIN = 8
"""Tokens a fit is given back below the budget when its redacted rendering overflowed."""
HEAD_LINE_LIMIT = 1 << 16
"""How far a streamed head may run past its cut to end its last line."""
PACKABLE_MIN_LINES = 3
"""Fewer lines than this are cut like Tier 3: there is nothing to choose between."""


@dataclass(frozen=True, slots=True)
class CompressionOutcome:
    """The five-field result, and for a missing or binary artifact the error it reports (the
    result then is the error response)."""

    result: CompressedArtifact
    error: str | None = None
    notice: str | None = None  # something the user should know (e.g. the store refused it)


@dataclass(frozen=True, slots=True)
class _Counted:
    """The raw text counted: by which counter (the heuristic after a tokenizer failure, with
    the warning that says so), how many tokens, and where they start when asked for."""

    counter: TokenCounter
    preamble: str
    tokens: int
    starts: list[int] | None


@dataclass(frozen=True, slots=True)
class _Body:
    content: str
    truncated: bool
    tokens: int  # the real count of `content`


class ArtifactCompressorService:
    """Compresses one artifact to a token budget for a judge or an agent."""

    def __init__(
        self,
        files: ContainedFiles,
        token_counter: TokenCounter,
        skeletonizer: SourceSkeletonizer,
        scanner: SecretScanner,
        store: Callable[[], ArtifactStore] | None = None,
        large_artifact_bytes: int | None = None,
    ) -> None:
        self._files = files
        self._counter = token_counter
        self._skeletonizer = skeletonizer
        self._scanner = scanner
        self._store = store
        self._large_bytes = large_artifact_bytes or LARGE_ARTIFACT_BYTES

    # -- entry points ----------------------------------------------------------------------------

    def compress(
        self,
        artifact_path: str,
        budget: int,
        *,
        workdir: str,
        task: str | None = None,
        mode: CompressionMode = CompressionMode.TIERED,
        store: bool = False,
        kind: ArtifactKind | None = None,
    ) -> CompressionOutcome:
        """Compress the file at `artifact_path` (relative to `workdir`, or absolute inside it).

        A missing file, or a path that escapes the work directory, gives the not-found
        response with `error` set; so does a binary file. Invalid UTF-8 is decoded with
        replacement characters (U+FFFD). With `store`, the file is imported into the artifact
        store first and every omission marker names the stored artifact. `kind` overrides
        the kind told from the name and the first lines.
        """
        _check_budget(budget)
        try:
            artifact = open_artifact(self._files, workdir, artifact_path)
        except ArtifactNotFoundError as missing:
            content = f"[ERROR: artifact not found at {missing.location}]"
            return CompressionOutcome(_error_result(artifact_path, content), str(missing))
        if store:
            with artifact:
                if artifact.is_binary():
                    return _binary(artifact_path, artifact.location)
            return self._import_and_compress(artifact_path, budget, workdir, task, mode, kind)
        return self._compress_readable(artifact_path, artifact, budget, task, mode, None, kind)

    def compress_input(
        self,
        name: str,
        data: bytes,
        budget: int,
        *,
        task: str | None = None,
        mode: CompressionMode = CompressionMode.TIERED,
        kind: ArtifactKind | None = None,
    ) -> CompressionOutcome:
        """Compress bytes already read (standard input) by the rules of a file: binary data
        refused, invalid UTF-8 as U+FFFD, large input streamed."""
        _check_budget(budget)
        artifact = artifact_from_bytes(data)
        return self._compress_readable(name, artifact, budget, task, mode, None, kind)

    def compress_stored(
        self,
        artifact_id: str,
        budget: int,
        *,
        task: str | None = None,
        mode: CompressionMode = CompressionMode.TIERED,
        kind: ArtifactKind | None = None,
    ) -> CompressionOutcome:
        """Compress an artifact already in the store; its markers name it."""
        _check_budget(budget)
        return self._compress_stored(artifact_id, None, budget, task, mode, kind)

    def _compress_stored(
        self,
        artifact_id: str,
        name: str | None,
        budget: int,
        task: str | None,
        mode: CompressionMode,
        kind: ArtifactKind | None,
    ) -> CompressionOutcome:
        store = self._require_store()
        stored = store.get(artifact_id)
        data = store.read(stored.id, 0, stored.byte_count)
        artifact = artifact_from_bytes(data, f"artifact {stored.id}")
        name = name or stored.workspace_path or stored.id
        return self._compress_readable(name, artifact, budget, task, mode, Handles(stored.id), kind)

    def _import_and_compress(
        self,
        artifact_path: str,
        budget: int,
        workdir: str,
        task: str | None,
        mode: CompressionMode,
        kind: ArtifactKind | None,
    ) -> CompressionOutcome:
        """The file imported into the store, then compressed from there (so the markers' line
        ranges are those of the stored bytes). A file the store refuses (it holds a
        credential) is compressed from the file, without handles, with a notice saying why."""
        imported = self._require_store().import_file(workdir, artifact_path)
        if not imported.blocked:
            return self._compress_stored(
                imported.artifact.id, artifact_path, budget, task, mode, kind
            )
        artifact = open_artifact(self._files, workdir, artifact_path)
        outcome = self._compress_readable(artifact_path, artifact, budget, task, mode, None, kind)
        return CompressionOutcome(outcome.result, outcome.error, f"not stored: {imported.notice}")

    def _compress_readable(
        self,
        name: str,
        artifact: ReadableArtifact,
        budget: int,
        task: str | None,
        mode: CompressionMode,
        handles: Handles | None,
        kind: ArtifactKind | None = None,
    ) -> CompressionOutcome:
        """One open artifact, closed after: refused when binary, streamed when large, else
        read whole and compressed."""
        with artifact:
            if artifact.is_binary():
                return _binary(name, artifact.location)
            if artifact.size_bytes > self._large_bytes:
                result = self._compress_large(name, artifact, budget, task, mode, handles, kind)
                return CompressionOutcome(result)
            text = artifact.read_text()
        return CompressionOutcome(
            self.compress_text(name, text, budget, task=task, mode=mode, handles=handles, kind=kind)
        )

    def compress_text(
        self,
        name: str,
        text: str,
        budget: int,
        *,
        task: str | None = None,
        mode: CompressionMode = CompressionMode.TIERED,
        handles: Handles | None = None,
        kind: ArtifactKind | None = None,
    ) -> CompressedArtifact:
        """Compress `text`, whose file name `name` helps detect its kind (unless `kind` says
        it)."""
        _check_budget(budget)
        text = redact_artifact(_as_tokenized(text), self._scanner)
        compressor = compressor_for(detect_as(name, text[:SNIFF_CHARS], kind), self._skeletonizer)
        terms = TaskTerms.from_task(task)
        if mode is CompressionMode.SMART:
            # The lines are ranked while the tokenizer counts (on its own threads when it has
            # them), when the text is probably over the budget; otherwise only once the count
            # says so. Either way only the count decides.
            counting = self._count_later(text)
            ahead = _probably_over(text, budget)
            ranked = _ranked_lines(text, compressor, terms) if ahead else None
            counted = counting()
        else:
            ranked = None
            counted = self._count(text)
        smart = mode is CompressionMode.SMART
        redact = partial(redact_artifact, scanner=self._scanner)
        run = _Run(text, compressor, terms, handles or Handles(), smart, ranked, redact)
        try:
            return self._tiers(name, budget, run, counted)
        except TokenCountingError:
            if isinstance(counted.counter, HeuristicTokenCounter):
                raise  # the heuristic never fails: a bug, let it show
        # The tokenizer counted the raw text but failed on a later one: the fallback applies to
        # the whole compression, as if the raw count had failed.
        heuristic = HeuristicTokenCounter()
        fallback = _Counted(heuristic, HEURISTIC_WARNING, heuristic.count(text), None)
        return self._tiers(name, budget, run, fallback)

    # -- the tiers -------------------------------------------------------------------------------

    def _tiers(self, name: str, budget: int, run: _Run, counted: _Counted) -> CompressedArtifact:
        counter = counted.counter
        text = run.text
        body_budget = budget - (counter.count(counted.preamble) if counted.preamble else 0)
        if body_budget <= 0:
            body = _Body("", True, 0)
        elif counted.tokens <= body_budget:
            body = _Body(text, False, counted.tokens)  # Tier 1: the whole artifact
        elif run.smart:
            body = _smart(run, body_budget, counted)
        else:
            body = _tier2(run, body_budget, counted) or _tier3(text, body_budget, counted)
        content = _with_preamble(counted.preamble, body.content, budget, counter)
        return CompressedArtifact(
            artifact_name=name,
            raw_tokens=counted.tokens,
            compacted_tokens=counter.count(content) if counted.preamble else body.tokens,
            truncated=body.truncated,
            content=content,
        )

    def _count(self, text: str) -> _Counted:
        """The raw count with the real tokenizer; after a tokenizer failure, the
        heuristic's, with the warning."""
        try:
            return _Counted(self._counter, "", self._counter.count(text), None)
        except TokenCountingError:
            heuristic = HeuristicTokenCounter()
            return _Counted(heuristic, HEURISTIC_WARNING, heuristic.count(text), None)

    def _count_later(self, text: str) -> Callable[[], _Counted]:
        """The raw count and where its tokens start (one encode), begun now; after a
        tokenizer failure, the heuristic's, with the warning."""
        pending = self._counter.token_starts_later(text)

        def counted() -> _Counted:
            try:
                starts = pending()
            except TokenCountingError:
                heuristic = HeuristicTokenCounter()
                return _Counted(
                    heuristic,
                    HEURISTIC_WARNING,
                    heuristic.count(text),
                    heuristic.token_starts(text),
                )
            return _Counted(self._counter, "", len(starts), starts)

        return counted

    # -- large files and the store ---------------------------------------------------------------

    def _compress_large(
        self,
        name: str,
        artifact: ReadableArtifact,
        budget: int,
        task: str | None,
        mode: CompressionMode,
        handles: Handles | None,
        kind: ArtifactKind | None,
    ) -> CompressedArtifact:
        """A file too large to hold: counted in chunks, and only a head (Tier 3) or the
        candidate lines of a log (smart) are held."""
        try:
            counter, preamble = self._counter, ""
            raw_tokens = counter.count_stream(artifact.iter_text())
        except TokenCountingError:
            counter, preamble = HeuristicTokenCounter(), HEURISTIC_WARNING
            raw_tokens = counter.count_stream(artifact.iter_text())
        if raw_tokens * 2 <= budget * 3:  # Tier 1 or 2: the output may be the whole artifact
            text = artifact.read_text()
            return self.compress_text(
                name, text, budget, task=task, mode=mode, handles=handles, kind=kind
            )
        body_budget = budget - (counter.count(preamble) if preamble else 0)
        detected = detect_as(name, _head(artifact, SNIFF_CHARS), kind)
        compressor = compressor_for(detected, self._skeletonizer)
        if body_budget <= 0:
            content = ""
        elif mode is CompressionMode.SMART and compressor.kind is ArtifactKind.LOG:
            candidates = collect_log_candidates(
                without_key_bodies(artifact.iter_lines()), TaskTerms.from_task(task), body_budget
            )
            lines = [
                line._replace(text=redact_artifact(line.text, self._scanner))
                for line in candidates.lines
            ]
            packed = pack_lines(
                lines,
                candidates.total_lines,
                body_budget,
                raw_tokens,
                counter,
                compressor.marker,
                handles,
                short_forms=candidates.short_forms,
                run_ends=candidates.run_ends,
                heads_only=candidates.heads_only,
            )
            content = packed.content
        else:
            # The head runs on to the end of its last line before it is redacted: a
            # credential cut in two by the head's end would no longer be recognised.
            head = _head(artifact, body_budget * HEURISTIC_CHARS_PER_TOKEN, whole_lines=True)
            head = redact_artifact(head, self._scanner)
            content = truncate_to_budget(head, body_budget, raw_tokens, counter).content
        content = _with_preamble(preamble, content, budget, counter)
        return CompressedArtifact(
            artifact_name=name,
            raw_tokens=raw_tokens,
            compacted_tokens=counter.count(content),
            truncated=True,
            content=content,
        )

    def _require_store(self) -> ArtifactStore:
        if self._store is None:
            raise InvalidInputError("no artifact store is configured")
        return self._store()


def _tier2(run: _Run, budget: int, counted: _Counted) -> _Body | None:
    """Tier 2, when the artifact is at most 1.5 times the budget (in integers: no rounding at
    the edge) and the type's result is well-formed and fits."""
    if counted.tokens * 2 > budget * 3:
        return None
    try:
        compressed = run.compressor.tier2(run.text, run.terms)
    except MalformedCompressionError:
        return None
    if run.compressor.kind is ArtifactKind.JSON:  # re-serialised: escapes are decoded
        compressed = run.redact(compressed)
    tokens = counted.counter.count(compressed)
    return _Body(compressed, False, tokens) if tokens <= budget else None


def _tier3(text: str, budget: int, counted: _Counted) -> _Body:
    cut = truncate_to_budget(text, budget, counted.tokens, counted.counter, counted.starts)
    return _Body(cut.content, True, cut.tokens)


@dataclass(frozen=True, slots=True)
class _Ranked:
    """The artifact's lines (without the final newline's empty one) and their ranks."""

    lines: list[str]
    plan: LinePlan


@dataclass(frozen=True, slots=True)
class _Run:
    """One compression's input: the text, its kind's compressor, the task, the markers'
    handles and, in smart mode, its ranked lines (None for a text that surely fits, and for
    a type that fits itself)."""

    text: str
    compressor: KindCompressor
    terms: TaskTerms
    handles: Handles
    smart: bool
    ranked: _Ranked | None
    redact: Callable[[str], str]  # credentials out of a text that was rewritten (JSON)


def _probably_over(text: str, budget: int) -> bool:
    """Whether `text` is probably more than `budget` tokens: text rarely holds fewer than
    `LIKELY_CHARS_PER_TOKEN` characters a token. A wrong guess costs time, not the result."""
    return len(text) > budget * LIKELY_CHARS_PER_TOKEN


def _ranked_lines(
    text: str, compressor: KindCompressor, terms: TaskTerms, *, json_too: bool = False
) -> _Ranked | None:
    """The lines smart mode packs, ranked; None for texts too short to pack, and for JSON
    unless `json_too` (it fits itself; a document that does not parse is ranked when that
    turns out)."""
    if compressor.kind is ArtifactKind.JSON and not json_too:
        return None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the final newline ends the last line; it starts no other
    if len(lines) < PACKABLE_MIN_LINES:
        return None
    return _Ranked(lines, compressor.line_plan([line.removesuffix("\r") for line in lines], terms))


def _fit_redacted(run: _Run, budget: int, counter: TokenCounter) -> FittedText | None:
    """The type's own fit, with the credentials its rendering revealed redacted: a JSON
    string written with escapes (``AKIA\\u0051...``) is decoded when the document is
    rendered again, and only then recognisable. When the placeholders make it longer than
    the budget, it is fitted again to a smaller one."""
    room = budget
    for _ in range(3):
        fitted = run.compressor.fit(run.text, run.terms, room, counter, run.handles)
        if fitted is None:
            return None
        clean = run.redact(fitted.text)
        if clean == fitted.text:
            return fitted
        tokens = counter.count(clean)
        if tokens <= budget:
            return FittedText(clean, tokens)
        room -= tokens - budget + REFIT_MARGIN
        if room < 1:
            return None
    return None


def _smart(run: _Run, budget: int, counted: _Counted) -> _Body:
    """The type's own fit when it has one and it fits; else the lines packed by rank."""
    counter = counted.counter
    text = run.text
    fitted = _fit_redacted(run, budget, counter)
    if fitted is not None and fitted.tokens <= budget:
        # Every omission the fit makes leaves a marker with an ellipsis; a document that
        # only changed its layout (compacted to fit) lost nothing.
        omitted = fitted.text.count("…") > text.count("…")
        return _Body(fitted.text, omitted, fitted.tokens)
    ranked = run.ranked or _ranked_lines(text, run.compressor, run.terms, json_too=True)
    if ranked is None:
        return _tier3(text, budget, counted)
    lines, plan = ranked.lines, ranked.plan
    starts = counted.starts if counted.starts is not None else counter.token_starts(text)
    request = PackRequest(
        positions=range(len(lines)),
        texts=lines,
        ranks=plan.priorities,
        costs=line_costs_from_starts(lines, starts),
        total_lines=len(lines),
        short_forms=plan.short_forms,
        run_ends=repeat_runs(plan.templates) if plan.templates is not None else {},
    )
    packed = pack(request, budget, counted.tokens, counter, run.compressor.marker, run.handles)
    return _Body(packed.content, True, packed.tokens)


def _with_preamble(preamble: str, content: str, budget: int, counter: TokenCounter) -> str:
    """The heuristic warning before the content; a budget smaller than the warning itself gets
    as much of the warning as fits (the budget is never exceeded)."""
    if not preamble:
        return content
    if counter.count(preamble) > budget:
        return counter.prefix_within(preamble, budget)
    return preamble + content


def _as_tokenized(text: str) -> str:
    """`text` as the tokenizer encodes it. A Python string can hold surrogates, which UTF-8
    cannot: tiktoken then joins each surrogate pair into the character it stands for and turns
    a lone surrogate into U+FFFD before encoding. Byte offsets of tokens (line costs, Tier 3
    cuts) are only right for that text, so the service works on it throughout. `isascii` is
    O(1) in CPython, so ordinary text pays nothing."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def _check_budget(budget: int) -> None:
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise InvalidInputError(f"the token budget must be a whole number >= 1, got {budget!r}")


def _error_result(name: str, content: str) -> CompressedArtifact:
    return CompressedArtifact(
        artifact_name=name, raw_tokens=0, compacted_tokens=0, truncated=True, content=content
    )


def _binary(name: str, location: str) -> CompressionOutcome:
    refusal, message = binary_refusal(name, location)
    return CompressionOutcome(refusal, message)


def _head(artifact: ReadableArtifact, characters: int, *, whole_lines: bool = False) -> str:
    """The first `characters` of the artifact; with `whole_lines`, on to the end of the last
    line begun (up to `HEAD_LINE_LIMIT` more)."""
    parts: list[str] = []
    held = 0
    limit = characters + (HEAD_LINE_LIMIT if whole_lines else 0)
    with closing(artifact.iter_text(min(max(characters, 1), 1 << 20))) as chunks:
        for chunk in chunks:
            parts.append(chunk)
            held += len(chunk)
            if held >= limit or (held >= characters and not whole_lines):
                break
            if held >= characters and "".join(parts).find("\n", characters) >= 0:
                break
    head = "".join(parts)
    if not whole_lines:
        return head[:characters]
    end = head.find("\n", characters)
    return head[: end + 1] if end >= 0 else head[:limit]
