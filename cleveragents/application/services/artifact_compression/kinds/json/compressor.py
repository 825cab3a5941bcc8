"""JSON artifacts: Tier 2 (all keys and structure, long arrays and strings cut), and
smart mode's `fit`, a valid JSON document that uses most of any budget.

Decisions the design leaves open, documented here because they are visible in the output:

- Parsing is Python's `json.loads`: `NaN`/`Infinity` literals are accepted and written back as
  they were; for duplicate keys the last value wins (so the output has one key where the input
  had two); numbers are re-serialised by Python (`1.0e5` becomes `100000.0`).
- Nesting deeper than Python's recursion limit is treated as malformed (Tier 3 then
  takes over) instead of crashing.
- `--task` guidance: an omitted array item is kept after all when one of its keys or scalar
  values mentions a task term. The match is computed bottom-up in the same pass that transforms
  the item, so the whole transformation stays linear in the size of the document.
- Omitted items are announced by one marker `{"_truncated": "N items omitted"}` per array, at the
  place of the first omitted item; N counts only the items really omitted.

Smart mode (`fit`) never packs the lines of a JSON document, which would not parse: it picks
the richest level of detail (`ladder`) whose rendering (`pruner`) fits, counted
with the real tokenizer, and uses most of the budget. What its output shows:

- arrays keep their first and last items, the items that mention the task, those that show a
  key path or a kind of value not seen before, then more from both ends inwards; each run of
  omitted items is one string item, ``"… 35 items omitted (lines 120-340)"`` (the lines of
  the original that hold them, ``of ID`` after them when the artifact is stored);
- a long string keeps its head: ``"the first part… (1234 chars omitted)"``, down to a bare
  ``"…"`` (a word is kept) before any key path is lost: the schema before the values;
- then arrays drop their last item and keep the first and every item that shows a new shape,
  each of those by what is new in it (its other members one ``"…"`` marker): every key path
  still appears once, the union of the items' keys; then the new-shape items go, the last
  found first;
- object members go last (after arrays are down to their first item), breadth-first from
  the root, the task's first; the rest of an object is one member,
  ``"…": "12 keys omitted (lines 40-90)"``, and an object or array with nothing left is that
  marker alone;
- the layout is the input's (pretty with 2 spaces when it spans lines, else compact); a pretty
  document that fits whole once compact is returned compact, and compact output is also
  chosen when it keeps more once key paths may be lost (or pretty steps are too coarse); a
  compact rendering of a pretty document that leaves room opens its outer containers
  breadth-first (`layered`), so the budget buys readability when there is nothing more to show.
"""

from __future__ import annotations

import re

from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.kinds.json.fitter import (
    Fitter,
    UnreadableDocumentError,
    read_document,
    root_marker,
)
from cleveragents.application.services.artifact_compression.kinds.json.tier2 import (
    TIER2,
    parse_document,
    render_tier2,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    FittedText,
    Handles,
    KindCompressor,
    LinePlan,
    Priority,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind

# A line of pretty-printed JSON that starts with an object key.
_KEY_LINE = re.compile(r'\s*"(?:[^"\\]|\\.)*"\s*:')


class JsonCompressor(KindCompressor):
    """The design's JSON compressor (every key and the structure kept, long arrays and strings cut)
    and a smart fit that keeps the output valid JSON at any budget."""

    kind = ArtifactKind.JSON
    streams = False
    rewrites_text = True  # re-serialised: an escaped credential comes out decoded
    fits_itself = True

    def tier2(self, text: str, terms: TaskTerms) -> str:
        """Keep the layout the author chose: pretty when the input spans lines, else compact."""
        return render_tier2(parse_document(text), TIER2, terms, pretty="\n" in text)

    def line_plan(self, lines: list[str], terms: TaskTerms) -> LinePlan:
        """Only for text that is not valid JSON (`fit` gave up): keys are the structure, task
        lines next, braces and items last."""
        ranks: list[int] = []
        for line in lines:
            if _KEY_LINE.match(line):
                ranks.append(Priority.ESSENTIAL)
            elif terms.matches(line):
                ranks.append(Priority.IMPORTANT)
            else:
                ranks.append(Priority.CONTEXT)
        return LinePlan(ranks)

    def marker(self, inner: str) -> str:
        return f"... ({inner})"

    def fit(
        self,
        text: str,
        terms: TaskTerms,
        budget: int,
        counter: TokenCounter,
        handles: Handles,
    ) -> FittedText | None:
        """The richest valid rendering of the document within `budget` (`Fitter`), with its
        exact count; None when
        `text` is not valid JSON or not even the root's marker fits (the lines are then
        packed). A document too deep to walk level by level gets its root's marker."""
        try:
            document = read_document(text, terms)
            if document is None:
                return None
            return Fitter(text, document, budget, counter, handles).fit()
        except UnreadableDocumentError:
            return None
        except RecursionError:
            marker = root_marker(text, budget, counter, handles)
            return FittedText(marker, counter.count(marker)) if marker is not None else None
