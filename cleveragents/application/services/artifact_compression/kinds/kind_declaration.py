"""How a kind of artifact describes itself to the registry: the compressor that names it and
compresses it, how its content is recognised, and how the compressor is built.

Each kind declares itself beside its compressor (``kinds/diff/declaration.py``, ...); the
registry lists the declarations in one tuple, and detection, the drivers' choices and the
compressor's choice all follow from that tuple and the domain's vocabulary.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cleveragents.domain.vocabulary import ArtifactKind

if TYPE_CHECKING:
    from cleveragents.application.ports.source_skeleton import SourceSkeletonizer
    from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
        KindCompressor,
    )


@dataclass(frozen=True, slots=True)
class Detected:
    """The kind an artifact was told to be, and its language (a source file's, from its name)."""

    kind: ArtifactKind
    language: str | None = None  # for SOURCE, and the language of a diff's first file


@dataclass(frozen=True, slots=True)
class Sniffed:
    """What content recognition sees of an artifact whose name said no kind: the words of its
    file name (``git_diff`` -> ``git``, ``diff``), its first characters and its first lines
    (at least one)."""

    name_words: frozenset[str]
    head: str
    lines: Sequence[str]


@dataclass(frozen=True, slots=True)
class KindDeclaration:
    """One kind of artifact, as the registry knows it.

    `compressor` is the kind's `KindCompressor`; its ``kind`` attribute is the kind's name in
    every driver. `recognises` tells the kind from an artifact's first lines when its name has
    no suffix of any kind (None: never told from content, only by name or when asked for);
    kinds are tried in the registry's order. `build` makes the compressor for a detected
    artifact (default: the class called without arguments). `suffixes` name a kind added at run
    time by its files' names; a shipped kind's suffixes are in `domain.vocabulary`, where the
    budget planner reads them too.
    """

    compressor: type[KindCompressor]
    recognises: Callable[[Sniffed], bool] | None = None
    build: Callable[[Detected, SourceSkeletonizer], KindCompressor] | None = None
    suffixes: tuple[str, ...] = ()

    @property
    def name(self) -> ArtifactKind:
        return self.compressor.kind

    def compressor_for(
        self, detected: Detected, skeletonizer: SourceSkeletonizer
    ) -> KindCompressor:
        """The compressor of `detected`, an artifact of this kind."""
        if self.build is not None:
            return self.build(detected, skeletonizer)
        return self.compressor()
