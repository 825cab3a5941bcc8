"""The names users choose from: artifact kinds, compression modes, transcript formats,
tokenizer encodings, what an import does with a credential.

Each list is written here once; the CLI's choices, the MCP tools' schemas and the Python API's
checks are built from it, so a driver cannot offer a name the others refuse. The module imports
only the standard library: the CLI builds its options from it at startup without loading
pydantic.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import StrEnum
from typing import TypeVar, cast

from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.languages import LANGUAGE_BY_EXTENSION


# The kinds that ship; a kind added at run time (`add_artifact_kind`) is offered beside them by
# name. The docstring is what MCP clients read in the schema.
class ArtifactKind(StrEnum):
    """What an artifact is, which decides how it is compressed."""

    DIFF = "diff"
    JSON = "json"
    LOG = "log"
    MARKDOWN = "markdown"
    SOURCE = "source"
    TEXT = "text"


class CompressionMode(StrEnum):
    """`smart`: fills the budget by value (the default, `DEFAULT_COMPRESSION_MODE`);
    `tiered`: three tiers, whole / the kind's compressor / a head cut. `seed`, the tiered mode's
    former name, still reads as `tiered`."""

    TIERED = "tiered"
    SMART = "smart"

    @classmethod
    def _missing_(cls, value: object) -> CompressionMode | None:
        return cls.TIERED if value == "seed" else None


DEFAULT_COMPRESSION_MODE = CompressionMode.SMART
"""The mode every driver uses when none is asked for: smart keeps a log's last error, a source
file's signatures and a JSON document's validity at any size; the tiers are one flag away."""


class TranscriptFormat(StrEnum):
    """The conversation formats read and written (one codec each in `adapters.transcripts`)."""

    ANTHROPIC = "anthropic"
    OPENAI = "openai"
    OPENAI_RESPONSES = "openai-responses"
    CLAUDE_CODE = "claude-code"


DETECTED_FORMAT = "auto"
"""The choice, beside the formats, that lets the format be told from the transcript."""

PLAIN_TEXT = "text"
"""The delivery gate's choice, beside the formats, that reads the context as plain text."""

FORMAT_CHOICES = (
    DETECTED_FORMAT,
    *(transcript_format.value for transcript_format in TranscriptFormat),
)
"""What a driver offers for a transcript's format, in this order: detected, then each format."""


class Encoding(StrEnum):
    """The tokenizer encodings counted offline (no download)."""

    CL100K_BASE = "cl100k_base"
    O200K_BASE = "o200k_base"


DEFAULT_ENCODING = Encoding.CL100K_BASE
"""The encoding every driver counts with when none is asked for (the budget planner's weights
were measured with it)."""


class SecretHandling(StrEnum):
    """What an import does with output in which a credential was found."""

    BLOCK = "block"  # nothing is stored; an audit row says what was found where
    REDACT = "redact"  # stored with each credential replaced by `[REDACTED:<rule>]`


# -- what a file's name says it is ----------------------------------------------------------------

_KIND_SUFFIXES: dict[str, tuple[str, ...]] = {
    ArtifactKind.DIFF: (".diff", ".patch"),
    ArtifactKind.JSON: (".json",),
    # One record a line: line-oriented like a log, not one document.
    ArtifactKind.LOG: (".log", ".jsonl", ".ndjson"),
    ArtifactKind.MARKDOWN: (".md", ".markdown", ".mdx"),
    ArtifactKind.SOURCE: tuple(LANGUAGE_BY_EXTENSION),
}
"""The one suffix map: a file whose name ends with one of these is of that kind, whatever its
content (the compressor's detection and the budget planner both read it). Kinds are tried in
the order drivers list them; a name without any of these is told by its content."""


def kind_named_by(name: str) -> str | None:
    """The kind a file name's suffix says (``build.LOG``: log; ``app.py``: source), or None
    when it says none (``git_diff``, ``notes.txt``). A shipped kind comes back as its
    `ArtifactKind` member."""
    lowered = name.lower()
    for kind, suffixes in _KIND_SUFFIXES.items():
        if lowered.endswith(suffixes):
            return kind
    return None


# -- kinds added at run time ----------------------------------------------------------------------

_ADDED_KINDS: dict[str, None] = {}  # insertion-ordered: drivers list them in the order added
_KIND_NAME = re.compile(r"[a-z][a-z0-9-]{0,31}")
_SUFFIX = re.compile(r"\.[a-z0-9][a-z0-9._-]{0,31}")


def add_artifact_kind(name: str, suffixes: tuple[str, ...] = ()) -> None:
    """Offer the kind `name` in every driver built afterwards (after the shipped kinds), and
    tell it from the file names that end with one of `suffixes` (lower case, with the dot).

    The kind registry calls it when a kind that does not ship registers itself (a plugin, a
    test). A suffix another kind already claims is refused: one name, one kind."""
    if name in ArtifactKind.__members__.values() or name in _ADDED_KINDS:
        raise InvalidInputError(f"the artifact kind {str(name)!r} exists already")
    if not _KIND_NAME.fullmatch(name):
        raise InvalidInputError(
            f"a kind's name is lower-case letters, digits and dashes (at most 32), got {name!r}"
        )
    for suffix in suffixes:
        if not _SUFFIX.fullmatch(suffix):
            raise InvalidInputError(f"a kind's suffix is like '.csv' (lower case), got {suffix!r}")
        if (claimed := kind_named_by(f"x{suffix}")) is not None:
            raise InvalidInputError(
                f"the suffix {suffix!r} names the kind {str(claimed)!r} already"
            )
    _ADDED_KINDS[name] = None
    _KIND_SUFFIXES[name] = suffixes


def remove_artifact_kind(name: str) -> None:
    """Stop offering a kind `add_artifact_kind` added (a test's own kind, when it ends)."""
    if name in _ADDED_KINDS:
        del _ADDED_KINDS[name]
        _KIND_SUFFIXES.pop(name, None)


def artifact_kind_names() -> tuple[str, ...]:
    """Every kind a driver offers, in the order its help lists them: the shipped kinds, then
    the added ones."""
    return (*(kind.value for kind in ArtifactKind), *_ADDED_KINDS)


def artifact_kind_choices() -> type[StrEnum]:
    """The kinds as the enum a driver's options and schemas are built from: `ArtifactKind`
    itself, or, once a kind was added, an enum of the same name that holds it too."""
    if not _ADDED_KINDS:
        return ArtifactKind
    members = [(name.upper().replace("-", "_"), name) for name in artifact_kind_names()]
    # The functional API, through a name mypy does not read as a class body it must check.
    functional: Callable[..., type[StrEnum]] = cast("Callable[..., type[StrEnum]]", StrEnum)
    choices = functional("ArtifactKind", members)
    choices.__doc__ = ArtifactKind.__doc__
    return choices


def artifact_kind(value: str) -> ArtifactKind:
    """The kind named `value` (a shipped kind's member, or an added kind's name, which travels
    as its plain string: both compare equal by value); `InvalidInputError` naming the kinds
    for any other."""
    if value in ArtifactKind.__members__.values():
        return ArtifactKind(value)
    if isinstance(value, str) and value in _ADDED_KINDS:  # a list is no kind, nor a key
        # An added kind has no member; its name stands in for one (a StrEnum is a str).
        return value  # type: ignore[return-value]
    raise _unknown("artifact kind", value, artifact_kind_names())


_Enum = TypeVar("_Enum", bound=StrEnum)


def member(enum: type[_Enum], value: str, what: str) -> _Enum:
    """`enum(value)`, or an `InvalidInputError` that names the values `enum` accepts."""
    try:
        return enum(value)
    except ValueError:
        raise _unknown(what, value, tuple(item.value for item in enum)) from None


def _unknown(what: str, value: str, known: tuple[str, ...]) -> InvalidInputError:
    listed = ", ".join(repr(name) for name in known)
    return InvalidInputError(f"unknown {what} {value!r}; one of {listed}")
