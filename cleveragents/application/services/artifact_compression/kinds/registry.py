"""Which kinds of artifact there are, and which compressor compresses each.

`SHIPPED_KINDS` is the one list: detection tries the kinds' recognisers in its order and the
compressor is chosen from it. Each kind declares itself beside its compressor; its name and
file suffixes are in `domain.vocabulary`, which the drivers' choices are built from. A kind
that does not ship (a plugin's, a test's) joins with `register_kind`, before the drivers are
built, and is then offered by every driver like the others.
"""

from __future__ import annotations

from cleveragents.application.ports.source_skeleton import SourceSkeletonizer
from cleveragents.application.services.artifact_compression.kinds.diff.declaration import (
    DIFF_KIND,
)
from cleveragents.application.services.artifact_compression.kinds.json.declaration import (
    JSON_KIND,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    KindCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.kind_declaration import (
    Detected,
    KindDeclaration,
)
from cleveragents.application.services.artifact_compression.kinds.logs.declaration import (
    LOG_KIND,
)
from cleveragents.application.services.artifact_compression.kinds.markdown.declaration import (
    MARKDOWN_KIND,
)
from cleveragents.application.services.artifact_compression.kinds.plain_text_declaration import (
    TEXT_KIND,
)
from cleveragents.application.services.artifact_compression.kinds.source_declaration import (
    SOURCE_KIND,
)
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.vocabulary import (
    add_artifact_kind,
    artifact_kind_names,
    remove_artifact_kind,
)

SHIPPED_KINDS: tuple[KindDeclaration, ...] = (
    DIFF_KIND,
    JSON_KIND,
    LOG_KIND,
    MARKDOWN_KIND,
    SOURCE_KIND,
    TEXT_KIND,
)
"""The kinds that ship, in the order their content is tried and drivers list them; text, which
recognises nothing, is what is left."""

_registered: list[KindDeclaration] = []


def declared_kinds() -> tuple[KindDeclaration, ...]:
    """Every kind: the shipped ones, then the registered ones in the order they came."""
    return (*SHIPPED_KINDS, *_registered)


def register_kind(declaration: KindDeclaration) -> None:
    """Add a kind that does not ship: its name (its compressor's ``kind``) and `suffixes` join
    the vocabulary, so the drivers built from then on offer it and its files are told by
    name; its recogniser is tried after the shipped kinds'. `InvalidInputError` when its name
    or a suffix is taken or malformed."""
    add_artifact_kind(declaration.name, declaration.suffixes)
    _registered.append(declaration)


def unregister_kind(name: str) -> None:
    """Remove a kind `register_kind` added (a test's, when it ends); a shipped kind stays."""
    for declaration in _registered:
        if declaration.name == name:
            remove_artifact_kind(name)
            _registered.remove(declaration)
            return


def declaration_of(kind: str) -> KindDeclaration:
    """The declaration of the kind named `kind`; `InvalidInputError` for a name no kind has."""
    for declaration in declared_kinds():
        if declaration.name == kind:
            return declaration
    known = ", ".join(repr(name) for name in artifact_kind_names())
    raise InvalidInputError(f"unknown artifact kind {kind!r}; one of {known}")


def compressor_for(detected: Detected, skeletonizer: SourceSkeletonizer) -> KindCompressor:
    """The compressor of a detected artifact, from its kind's declaration."""
    return declaration_of(detected.kind).compressor_for(detected, skeletonizer)
