"""Smart mode for JSON: the sizes `json.dumps` writes, from the survey's recorded figures, so a
level of detail is measured without being serialised: a container's frame, a value written
whole, runs of array items (an object's members: `member_sizes`), and whether a run of
omitted items or members takes no more room than its marker (`pruner` keeps it then)."""

from __future__ import annotations

from collections.abc import Sequence

from cleveragents.application.services.artifact_compression.kinds.json.facts import (
    Facts,
    scalar_text,
)
from cleveragents.application.services.artifact_compression.kinds.json.survey import Survey

SMALL_RUN = 16  # a run this short is measured: kept when it is no longer than its marker


class RenderedSizes:
    """The characters of a document's parts as written in one layout (pretty or compact),
    with the running sums of array items computed once per array."""

    def __init__(self, survey: Survey, *, pretty: bool) -> None:
        self.survey = survey
        self.pretty = pretty
        self._item_runs: dict[int, tuple[list[int], list[int], list[int]]] = {}

    def whole_value(self, value: object, depth: int) -> int:
        if isinstance(value, dict | list):
            return self.whole(self.survey.of(value), depth)
        return len(scalar_text(value))

    def whole(self, facts: Facts, depth: int) -> int:
        return facts.pretty + 2 * depth * facts.newlines if self.pretty else facts.compact

    def container_chars(self, member_chars: int, count: int, depth: int) -> int:
        """Characters of a container whose members (keys, ': ' and values included) take
        `member_chars`."""
        if not count:
            return 2
        if self.pretty:
            return member_chars + count * (2 * depth + 3) + count - 1 + 2 * depth + 3
        return member_chars + count - 1 + 2

    def run_chars(self, value: list[object], first: int, last: int, depth: int) -> int:
        """Characters of items `first`..`last` written whole at `depth`."""
        compact, pretty, newlines = self.item_sizes(value)
        if not self.pretty:
            return compact[last + 1] - compact[first]
        lines = newlines[last + 1] - newlines[first]
        return pretty[last + 1] - pretty[first] + 2 * depth * lines

    def item_sizes(self, value: list[object]) -> tuple[list[int], list[int], list[int]]:
        """Running sums of the items' whole sizes (compact, pretty at depth 0, newlines),
        computed once per array."""
        sizes = self._item_runs.get(id(value))
        if sizes is None:
            compact, pretty, newlines = [0], [0], [0]
            for item in value:
                if isinstance(item, dict | list):
                    facts = self.survey.of(item)
                    c, p, n = facts.compact, facts.pretty, facts.newlines
                else:
                    c = p = len(scalar_text(item))
                    n = 0
                compact.append(compact[-1] + c)
                pretty.append(pretty[-1] + p)
                newlines.append(newlines[-1] + n)
            sizes = self._item_runs[id(value)] = (compact, pretty, newlines)
        return sizes

    def short_run(self, value: Sequence[object], first: int, last: int, marker_chars: int) -> bool:
        """Whether items `first`..`last` written whole take no more room than their marker."""
        if last - first >= SMALL_RUN:
            return False
        total = 0
        for index in range(first, last + 1):
            item = value[index]
            if isinstance(item, dict | list):
                total += self.survey.of(item).compact
            else:
                total += len(scalar_text(item))
            if total > marker_chars:
                return False
        return True

    def short_members(
        self, members: list[tuple[str, object]], omitted: list[int], room: int
    ) -> bool:
        """Whether the omitted members written whole take no more room than the marker."""
        if len(omitted) >= SMALL_RUN:
            return False
        total = 0
        for index in omitted:
            key, item = members[index]
            total += self.survey.key_length(key) + 1
            total += (
                self.survey.of(item).compact
                if isinstance(item, dict | list)
                else len(scalar_text(item))
            )
            if total > room:
                return False
        return True
