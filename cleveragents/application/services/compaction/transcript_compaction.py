"""A conversation transcript compacted, as every driver asks for it: read in its format (named,
else detected), refused when it holds no conversation, compacted with the project's policy
(or the defaults) under the caller's overrides, and given back in the same format with no
credential in it: not in its messages (`ContextCompactor` redacts every field of each), nor in
the fields beside them (a request's tools, metadata, ...), unless the caller keeps them.

One use case for `agents context compact`, the Python API's `compact` and the MCP server's
`compact_transcript`, which keep only what is theirs: where the transcript comes from, how
errors and the result are shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from cleveragents.application.ports.transcript_codec import TranscriptCodec
from cleveragents.application.services.compaction.context_compactor import (
    ContextCompactor,
    Unrecorded,
)
from cleveragents.application.services.compaction.credential_redaction import redact_fields
from cleveragents.application.services.compaction.outcome import (
    CompactionOutcome,
    CompactionReport,
    CompactionSettings,
)
from cleveragents.application.services.compaction.settings import compaction_settings
from cleveragents.application.services.projects.project_service import ProjectService
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.policy import ContextPolicy, ContextPolicyChanges
from cleveragents.domain.transcript import Role, Transcript, TranscriptFormat


class NoConversationError(InvalidInputError):
    """The transcript holds no user or assistant message: there is nothing to compact."""

    def __init__(self, what: str) -> None:
        super().__init__(
            f"{what} holds no conversation (no user or assistant message): nothing to compact"
        )


@dataclass(frozen=True, slots=True)
class TranscriptCompaction:
    """A transcript's compaction: the format it was read in, the transcript as read (its own
    fields beside the messages redacted unless the credentials are kept), what the
    compaction did and the settings it ran with, and the transcript to send next written
    back in that format (compacted, or the original messages when it was not needed or
    failed; either way redacted unless the credentials are kept)."""

    format: TranscriptFormat
    transcript: Transcript
    outcome: CompactionOutcome
    settings: CompactionSettings
    codec: TranscriptCodec
    verbatim: str | None = None
    """The text given, when it may be handed back as it is: nothing compacted, nothing
    redacted, and no credential anywhere in it (records the format does not model included),
    or the credentials kept. None otherwise, or when a parsed document was given."""

    @property
    def compacted_transcript(self) -> Transcript:
        """The transcript with the outcome's messages (its other fields as they were read)."""
        return self.transcript.model_copy(update={"messages": self.outcome.messages})

    def text(self) -> str:
        """The transcript to send next as the text of its format (`TranscriptCodec.write`)."""
        return self.codec.write(self.compacted_transcript, self.format)

    def data(self) -> bytes:
        """The same text as UTF-8, lone surrogates as their escapes (`write_bytes`): for a
        file, or a protocol whose strings must be UTF-8."""
        return self.codec.write_bytes(self.compacted_transcript, self.format)

    def native(self) -> object:
        """The same as the parsed document of its format (`write_native`): a dict or list."""
        return self.codec.write_native(self.compacted_transcript, self.format)

    def output(self) -> bytes:
        """The bytes to write for the transcript to send next: the text given, byte for byte,
        when it is `verbatim` (written back through the codec, a Claude Code session would
        lose the records it does not model: progress, file-history snapshots, queue
        operations), else `data`."""
        return self.verbatim.encode("utf-8") if self.verbatim is not None else self.data()

    @property
    def unchanged(self) -> bool:
        """The transcript to send next is the one given: not compacted, nothing redacted. A
        driver may then hand back the caller's own text, byte for byte."""
        return not self.outcome.compacted and self.outcome.redacted_secrets == 0

    def report(self) -> CompactionReport:
        """What the compaction did, with the settings it ran with: the report every driver
        renders (`CompactionReport.as_json` is ``agents context compact --json``)."""
        return self.outcome.report(self.settings)


class TranscriptCompactor:
    """Compacts a transcript given as text or as its parsed document.

    `compactor` is the store-recording `ContextCompactor` or the storeless one (events
    dropped, full outputs not kept); `projects` builds the project service when a project is
    named, so no store is opened otherwise."""

    def __init__(
        self,
        codec: TranscriptCodec,
        compactor: ContextCompactor,
        projects: Callable[[], ProjectService],
    ) -> None:
        self.codec = codec
        self.compactor = compactor
        self._projects = projects

    def compact(
        self,
        transcript: str | object,
        *,
        transcript_format: TranscriptFormat | None = None,
        project: str | None = None,
        policy: ContextPolicy | None = None,
        overrides: ContextPolicyChanges | None = None,
        force: bool = False,
        unrecorded: Unrecorded | None = None,
        what: str = "the transcript",
        keep_credentials: bool = False,
    ) -> TranscriptCompaction:
        """Compact `transcript`: a str is the text of its format, anything else its parsed
        document (`TranscriptCodec.read_native`). `transcript_format` is detected when None.

        The settings are the `project`'s policy (else the defaults) with the fields `policy`
        sets over it, then `overrides`; they are resolved before the transcript is read, so a
        bad setting or an unknown project is refused without parsing it
        (`InvalidPolicyError`, `ProjectNotFoundError`). Malformed input raises
        `InvalidInputError`; a transcript without a user or assistant message
        `NoConversationError`, naming it as `what`. A compaction that fails does not raise:
        the outcome says so and keeps the original messages. Its events are scoped to the
        project; one the store cannot record goes to `unrecorded`. Credentials are redacted
        from everything written back, whatever the status, unless `keep_credentials` (the
        summary's are redacted all the same); the report says how many and where."""
        resolved = compaction_settings(self._projects(), project, overrides, policy=policy)
        used, parsed = self._read(transcript, transcript_format)
        if not any(message.role is not Role.SYSTEM for message in parsed.messages):
            raise NoConversationError(what)
        outcome = self.compactor.compact(
            parsed.messages,
            resolved.settings,
            force=force,
            scope=resolved.scope,
            project=project,
            unrecorded=unrecorded,
            keep_credentials=keep_credentials,
        )
        scanner = self.compactor.scanner
        if scanner is not None and not keep_credentials and parsed.extra:
            fields, found = redact_fields(parsed.extra, scanner)
            if found.count:
                parsed = parsed.model_copy(update={"extra": fields})
                redactions = replace(outcome.redactions, request=found.count)
                outcome = replace(outcome, redactions=redactions)
        compaction = TranscriptCompaction(used, parsed, outcome, resolved.settings, self.codec)
        if isinstance(transcript, str) and self._verbatim(compaction, transcript, keep_credentials):
            compaction = replace(compaction, verbatim=transcript)
        return compaction

    def _verbatim(
        self, compaction: TranscriptCompaction, text: str, keep_credentials: bool
    ) -> bool:
        """Whether `text` may be written back as it is: unchanged, and no credential in the
        parts of it the codec does not read (those nobody has redacted)."""
        if not compaction.unchanged:
            return False
        scanner = self.compactor.scanner
        return keep_credentials or scanner is None or not scanner.scan_text(text)

    def _read(
        self, transcript: str | object, named: TranscriptFormat | None
    ) -> tuple[TranscriptFormat, Transcript]:
        if isinstance(transcript, str):
            used = named or self.codec.detect(transcript)
            return used, self.codec.read(transcript, used)
        used = named or self.codec.detect_native(transcript)
        return used, self.codec.read_native(transcript, used)
