"""What kind of artifact a file is: by its name first, then by its first lines.

The name decides when it ends with a suffix of the vocabulary's (``.diff``, ``.json``,
``.log``, ``.md``, a source extension: `vocabulary.kind_named_by`); names such as ``git_diff``
or ``outcomes.log.1`` and unknown suffixes are told by the kinds' recognisers, tried in the
registry's order (a unified diff, JSON, log lines with levels or timestamps, markdown
headings). Anything else is plain text.
"""

from __future__ import annotations

import re

from cleveragents.application.services.artifact_compression.kinds.kind_declaration import (
    Detected,
    Sniffed,
)
from cleveragents.application.services.artifact_compression.kinds.registry import (
    declared_kinds,
)
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.languages import language_for_path
from cleveragents.domain.vocabulary import ArtifactKind, artifact_kind, kind_named_by

__all__ = ["SNIFF_LINES", "Detected", "detect", "detect_as"]

SNIFF_LINES = 50


def detect(name: str, head: str) -> Detected:
    """The kind of artifact `name` whose text starts with `head`: the kind its name's suffix
    says, else the first whose recogniser knows `head`, else text."""
    lowered = name.lower()
    named = kind_named_by(lowered)
    if named == ArtifactKind.SOURCE:
        return Detected(ArtifactKind.SOURCE, language_for_path(lowered))
    if named is not None:
        return Detected(artifact_kind(named))
    return Detected(_recognised(lowered, head))


def detect_as(name: str, head: str, kind: ArtifactKind | None) -> Detected:
    """`detect`, unless the caller says the kind. Source needs its language, which only the
    name tells: a name without a known source extension is refused for it."""
    detected = detect(name, head)
    if kind is None or kind == detected.kind:
        return detected
    if kind == ArtifactKind.SOURCE:
        raise InvalidInputError(
            f"kind source needs a file name with a known source extension (app.py, main.go); "
            f"got {name!r}"
        )
    return Detected(kind)


def _recognised(name: str, head: str) -> ArtifactKind:
    lines = head.splitlines()[:SNIFF_LINES]
    if not lines:
        return ArtifactKind.TEXT
    words = frozenset(re.split(r"[^a-z0-9]+", name.rsplit("/", 1)[-1]))
    sniffed = Sniffed(name_words=words, head=head, lines=lines)
    for declaration in declared_kinds():
        if declaration.recognises is not None and declaration.recognises(sniffed):
            return declaration.name
    return ArtifactKind.TEXT
