"""The source-skeleton port: language-aware outlines of whole source files, and the roles of
their lines."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SourceLines:
    """What the lines of a source file are, as 0-based indexes of its ORIGINAL lines (split on
    ``\\n``). A line may be in several sets; the reader decides which role wins.

    `names`: the line that names each declaration below (its ``def``, ``class``, ``fn``,
    ``func`` line; for a C function its declarator's; for an anonymous function the variable's
    it is assigned to): what an outline shows first.
    `signatures`: every declaration header at any depth (module level, class members, nested
    functions and closures, methods of nested classes): the whole multi-line signature with its
    decorators, attributes or annotations, up to the line that opens its body; class, struct,
    interface, enum, impl and trait declaration lines; bodiless signatures (prototypes, trait
    and interface methods); import and package lines; the first line of a module docstring
    (as for `docstrings`).
    `docstrings`: the first line of each function's and class's docstring (Python; with the
    line of its opening quotes when they stand alone), or of the doc comment right above its
    declaration (other languages).
    `errors`: the lines of error statements (``raise``, ``throw``, ``panic!``...).
    `closers`: the line that closes the body of a function or declaration (``}``, ``};``).
    `members`: the first line of every other statement at module level or directly in a
    class-like body (constants, fields, enum members).
    `comments`: lines holding nothing but comments.
    """

    names: frozenset[int] = frozenset()
    signatures: frozenset[int] = frozenset()
    docstrings: frozenset[int] = frozenset()
    errors: frozenset[int] = frozenset()
    closers: frozenset[int] = frozenset()
    members: frozenset[int] = frozenset()
    comments: frozenset[int] = frozenset()


class SourceSkeletonizer(ABC):
    """Outlines a source file: signatures, class/struct/interface declarations and error
    messages kept, function bodies elided with the language's comment and
    ``... (implementation omitted for brevity)``."""

    @property
    @abstractmethod
    def languages(self) -> frozenset[str]:
        """The languages this adapter can outline (names as in `domain.languages`)."""

    @abstractmethod
    def skeleton(self, source: str, language: str) -> str | None:
        """The outline, or None when the language is not supported or the source does not
        parse cleanly (callers then fall back to text). Never raises for bad input."""

    def signature_lines(self, source: str, language: str) -> SourceLines | None:
        """The roles of the original lines of `source`, or None when the language is not
        supported or the source does not parse cleanly (callers then find the lines their own
        way). Never raises for bad input. The default knows no language."""
        return None
