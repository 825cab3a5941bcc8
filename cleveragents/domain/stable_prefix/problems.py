"""Why part of a spec may not enter a stable prefix (the builder decides; this is the report)."""

from __future__ import annotations

from dataclasses import dataclass

from cleveragents.domain.errors import InvalidInputError


@dataclass(frozen=True, slots=True)
class PrefixProblem:
    """Why part of a spec may not enter a prefix: the place, the kind and a one-line message."""

    place: str
    kind: str
    message: str


class UnstablePrefixError(InvalidInputError):
    """The spec holds content that may not enter a stable prefix; `problems` lists all of it."""

    def __init__(self, problems: tuple[PrefixProblem, ...]) -> None:
        more = len(problems) - 1
        suffix = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        super().__init__(problems[0].message + suffix)
        self.problems = problems
