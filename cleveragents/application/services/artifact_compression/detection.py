"""What kind of artifact a file is: by its name first, then by its first lines."""

from __future__ import annotations

import re
from dataclasses import dataclass

from cleveragents.domain.artifact import ArtifactKind
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.languages import language_for_path

SNIFF_LINES = 50

_BY_SUFFIX: dict[str, ArtifactKind] = {
    ".diff": ArtifactKind.DIFF,
    ".patch": ArtifactKind.DIFF,
    ".json": ArtifactKind.JSON,
    ".log": ArtifactKind.LOG,
    ".jsonl": ArtifactKind.LOG,  # one record a line: line-oriented like a log, not one document
    ".ndjson": ArtifactKind.LOG,
    ".md": ArtifactKind.MARKDOWN,
    ".markdown": ArtifactKind.MARKDOWN,
    ".mdx": ArtifactKind.MARKDOWN,
}

_DIFF_LINE = re.compile(r"^(diff --git |--- |\+\+\+ |@@ -\d+(,\d+)? \+\d+(,\d+)? @@)")
_LOG_LINE = re.compile(
    r"\b(FATAL|CRITICAL|ERROR|WARN|WARNING|INFO|DEBUG|TRACE|NOTICE)\b"
    r"|\[(error|warn|notice|info|debug)\]"
    r"|^\d{2,4}[-/]\d{2}[-/]\d{2}[ T]\d{2}:\d{2}"
    r"|^\d{6} \d{6} "
    r"|^[A-Z][a-z]{2} +\d{1,2} \d{2}:\d{2}:\d{2} "
)
_HEADING = re.compile(r"^#{1,6} \S")
# An object opening on a key or closing, or an array opening on a value: not "[Sun Dec 04 ...]".
_JSON_START = re.compile(r'\s*(\{\s*("|\}|$)|\[\s*(["{\[\]\-\d]|true|false|null|$))')


@dataclass(frozen=True, slots=True)
class Detected:
    kind: ArtifactKind
    language: str | None = None  # for SOURCE, and the language of a diff's first file


def detect(name: str, head: str) -> Detected:
    """The kind of artifact `name` whose text starts with `head`.

    The name decides when it has a known suffix (``.diff``, ``.json``, ``.log``, ``.md``, a
    source extension); names such as ``git_diff`` or ``outcomes.log.1`` and unknown suffixes are
    sniffed from the first lines: a unified diff, JSON, log lines with levels or timestamps,
    markdown headings. Anything else is plain text.
    """
    lowered = name.lower()
    for suffix, kind in _BY_SUFFIX.items():
        if lowered.endswith(suffix):
            return Detected(kind)
    language = language_for_path(lowered)
    if language is not None:
        return Detected(ArtifactKind.SOURCE, language)
    return Detected(_sniff(lowered, head))


def detect_as(name: str, head: str, kind: ArtifactKind | None) -> Detected:
    """`detect`, unless the caller says the kind. Source needs its language, which only the
    name tells: a name without a known source extension is refused for it."""
    detected = detect(name, head)
    if kind is None or kind is detected.kind:
        return detected
    if kind is ArtifactKind.SOURCE:
        raise InvalidInputError(
            f"kind source needs a file name with a known source extension (app.py, main.go); "
            f"got {name!r}"
        )
    return Detected(kind)


def _sniff(name: str, head: str) -> ArtifactKind:
    lines = head.splitlines()[:SNIFF_LINES]
    if not lines:
        return ArtifactKind.TEXT
    words = set(re.split(r"[^a-z0-9]+", name.rsplit("/", 1)[-1]))
    if words & {"diff", "patch"} or _looks_like_diff(lines):
        return ArtifactKind.DIFF
    if _JSON_START.match(head):
        return ArtifactKind.JSON
    if words & {"log", "logs"}:
        return ArtifactKind.LOG
    if sum(1 for line in lines if _LOG_LINE.search(line)) * 2 >= len(lines):
        return ArtifactKind.LOG
    if any(_HEADING.match(line) for line in lines):
        return ArtifactKind.MARKDOWN
    return ArtifactKind.TEXT


def _looks_like_diff(lines: list[str]) -> bool:
    if any(line.startswith("diff --git ") for line in lines):
        return True
    has = {prefix: any(line.startswith(prefix) for line in lines) for prefix in ("--- ", "+++ ")}
    return all(has.values()) and any(_DIFF_LINE.match(line) for line in lines if line[:2] == "@@")
