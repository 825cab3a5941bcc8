"""Smart mode's packer: the lines that matter most, within an exact token budget, using it.

The artifact's own lines are taken by rank (the compressor's `LinePlan`), each only if it still
fits, and written back in their original order. Within a rank the order is from both ends
inwards (the first error says where trouble began, the last one how it ended); for context
ranks it is by distance to the nearest important line, so what is added last is the
surroundings of what matters. A line may first be kept as its short form (a first sentence, a
head) and later whole. Every run of dropped lines becomes one marker naming the line range it
stands for (`Handles`), so that the kept lines and the ranges read back reassemble the
original; a run that only repeats the message of the kept line above it says so with a count.
A final line says how many of the artifact's tokens are not in the content.

Token figures: each line's cost comes from one encode of the artifact (the tokens that start in
it); the assembled text is counted exactly, and while it is over the budget the least important
lines are given back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from cleveragents.application.ports.token_counter import TextPiece, TokenCounter
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    Handles,
    ShortForm,
)
from cleveragents.application.services.artifact_compression.packing.order import ordered_units
from cleveragents.application.services.artifact_compression.packing.request import (
    Line,
    Packed,
    PackRequest,
)
from cleveragents.application.services.artifact_compression.truncation import (
    MARKERS,
    truncation_marker,
)

LONG_LINE_SHARE = 10
"""A line costing more than a tenth of the budget gets a short form (its head) if the compressor
gave it none: one huge line must not take the budget, nor be lost whole."""
MIN_SHORT_TOKENS = 48
"""A head shorter than this (or than an eighth of a small budget) is not worth its line."""


_Choice = tuple[int, bool, bool]
"""A line taken: its position, whether whole (else as its short form), and whether it replaced
the line's short form (so giving it back restores the short form). A plain tuple: there is one
per line taken, and a named tuple costs a Python call to make."""


@dataclass(slots=True)
class _Packer:
    request: PackRequest
    budget: int
    raw_tokens: int
    counter: TokenCounter
    marker: Callable[[str], str]
    handles: Handles
    _short_overhead: int = 0  # the tokens a short form's marker and newline add
    _shorts: dict[int, ShortForm] = field(default_factory=dict)  # every line's short form

    def run(self) -> Packed:
        request = self.request
        self._short_overhead = self.counter.count(
            self._short_text(request.total_lines, ShortForm("", 0)) + "\n"
        )
        shorts = self._shorts = dict(request.short_forms)
        shorts.update(self._heads_of_long_lines(shorts))
        short_costs = {position: self._short_cost(position, s) for position, s in shorts.items()}
        kept: dict[int, bool] = {}  # position -> kept whole (else as its short form)
        taken: list[_Choice] = []
        # A marker at its longest: a range (not one line) of the largest line numbers.
        last = max(request.total_lines - 1, 1)
        gap_cost = self.counter.count(self._gap_text(last - 1, last) + "\n")
        trailer = self.counter.count("\n" + truncation_marker(self.raw_tokens))
        estimate = trailer + (gap_cost if request.total_lines else 0)
        units = ordered_units(request, shorts)
        estimate = self._take(units, kept, taken, estimate, gap_cost, short_costs)
        # A dropped line between two kept ones that costs no more than its marker is kept
        # for free; the room that frees goes to the next lines in order.
        freed = self._close_small_gaps(kept, gap_cost)
        if freed:
            estimate = self._take(units, kept, taken, estimate - freed, gap_cost, short_costs)
        self._fill_rest(units, kept, taken, estimate, gap_cost, shorts, short_costs)
        return self._fitted(kept, taken, shorts, short_costs)

    def _take(
        self,
        units: list[int],
        kept: dict[int, bool],
        taken: list[_Choice],
        estimate: int,
        gap_cost: int,
        short_costs: Mapping[int, int],
    ) -> int:
        """Each unit in order that still fits, by the estimate (returned, updated). Once a
        unit does not fit, no unit of a worse rank is taken (smaller ones of the same rank
        still are): what ranks better always comes first, and the room left goes to that
        unit's head (`_fill_rest`)."""
        request = self.request
        costs = request.costs
        ranks = request.ranks
        total = request.total_lines
        budget = self.budget
        shorts = self._shorts
        append = taken.append
        stop_after: int | None = None
        for unit in units:
            position = unit >> 1
            whole = unit & 1 == 1
            held = kept.get(position)
            if held is not None and (held or not whole):
                continue  # already whole, or already short and offered short again
            rank = ranks[position] if whole else shorts[position].priority
            if stop_after is not None and rank > stop_after:
                break
            if held is not None:  # short now, offered whole: the difference
                cost = costs[position] - short_costs[position]
            else:
                # A kept line splits the gap around it: one marker more or less.
                gaps = -1
                if position > 0 and position - 1 not in kept:
                    gaps += 1
                if position + 1 < total and position + 1 not in kept:
                    gaps += 1
                cost = (costs[position] if whole else short_costs[position]) + gaps * gap_cost
            if estimate + cost <= budget:
                kept[position] = whole
                append((position, whole, held is not None))
                estimate += cost
            elif stop_after is None:
                stop_after = rank
        return estimate

    def _close_small_gaps(self, kept: dict[int, bool], gap_cost: int) -> int:
        """Keep every candidate line alone between two kept lines whose cost is at most a
        marker's (a blank line, a brace): the marker would cost more. Returns the tokens
        saved. These lines are never given back alone: that would cost a marker again."""
        costs = self.request.costs
        known = costs.__contains__ if isinstance(costs, Mapping) else range(len(costs)).__contains__
        saved = 0
        for position in list(kept):
            gap = position + 1
            if gap in kept or gap + 1 not in kept or not known(gap):
                continue
            if gap in self.request.heads_only:
                continue  # only its head is known: it cannot stand whole
            if costs[gap] <= gap_cost:
                kept[gap] = True
                saved += gap_cost - costs[gap]
        return saved

    def _fill_rest(
        self,
        units: list[int],
        kept: dict[int, bool],
        taken: list[_Choice],
        estimate: int,
        gap_cost: int,
        shorts: dict[int, ShortForm],
        short_costs: dict[int, int],
    ) -> None:
        """The room left, given to the most important line not kept whole, as its head: a
        few long lines (a stack dump, a minified file) must not leave most of the budget
        unused because none of them fits whole."""
        room = self.budget - estimate
        worth = min(MIN_SHORT_TOKENS, max(self.budget // 8, 8))
        if room < worth:
            return
        total = self.request.total_lines
        costs = self.request.costs
        for unit in units:
            position = unit >> 1
            if kept.get(position):
                continue
            current = short_costs[position] if position in kept else 0
            gaps = 0
            if position not in kept:
                left = position > 0 and position - 1 not in kept
                right = position + 1 < total and position + 1 not in kept
                gaps = (int(left) + int(right) - 1) * gap_cost
            allowance = room + current - gaps - self._short_overhead
            if allowance < worth or costs[position] <= allowance:
                continue  # no room for a head worth a line, or no cut needed
            short = self._head_within(position, allowance, room + current - gaps, worth)
            if short is not None:
                if position not in kept:
                    taken.append((position, False, False))
                kept[position] = False
                shorts[position] = short[0]
                short_costs[position] = short[1]
            return  # one line at most: the most important one that lacked room

    def _head_within(
        self, position: int, allowance: int, limit: int, worth: int
    ) -> tuple[ShortForm, int] | None:
        """Line `position`'s longest head whose short form costs at most `limit` tokens
        (`allowance`: the first guess of its length), with that cost; None when it is too
        small to be worth a line or the line is not cut at all."""
        text = self.request.texts[position]
        for _ in range(3):
            if allowance < worth:
                return None
            head = self.counter.prefix_within(text, allowance)
            if not head.strip() or len(head) >= len(text):
                return None
            short = ShortForm(head.rstrip() + " …", self.request.ranks[position])
            cost = self.counter.count(self._short_text(position, short) + "\n")
            if cost <= limit:
                return short, cost
            allowance -= cost - limit
        return None

    def _fitted(
        self,
        kept: dict[int, bool],
        taken: list[_Choice],
        shorts: Mapping[int, ShortForm],
        short_costs: Mapping[int, int],
    ) -> Packed:
        """The kept lines rendered and counted exactly; while over the budget, the lines taken
        last are given back (a line upgraded from its short form goes back to it)."""
        costs = self.request.costs
        while True:
            # Repeat counts cost a few tokens more than the plain markers the estimate priced;
            # they are worth more than the least important lines, which go first.
            pieces = self._render(kept, shorts)
            content = "".join(piece.text for piece in pieces)
            tokens = self._count(pieces, content)
            excess = tokens - self.budget
            if excess <= 0:
                return Packed(content, tokens)
            if not kept:
                return _markers_only(self.raw_tokens, self.budget, self.counter)
            freed = 0
            while taken and freed < excess:
                position, whole, upgraded = taken.pop()
                if upgraded:
                    kept[position] = False
                    freed += costs[position] - short_costs[position]
                else:
                    del kept[position]
                    freed += costs[position] if whole else short_costs[position]

    def _count(self, pieces: list[TextPiece], content: str) -> int:
        """The exact count of the packed text: from the artifact's token starts where it
        copies the artifact's lines, when they are known."""
        starts = self.request.source_starts
        if starts is None or self.request.offsets is None:
            return self.counter.count(content)
        return self.counter.count_pieces(pieces, starts)

    def _render(self, kept: Mapping[int, bool], shorts: Mapping[int, ShortForm]) -> list[TextPiece]:
        """The packed text in pieces: each run of lines kept whole, as copied from the
        artifact (from the byte offset of its first line, when known), and the text around
        them (markers, short forms, newlines).

        A run's piece holds the newlines around it too, as the artifact does (the last line's
        only when another line follows it there): the counter then finds the cuts no token
        crosses at the run's very edges (after the newline before it, before the newline after
        it), and encodes little more than the markers between runs."""
        request = self.request
        texts = request.texts
        offsets = request.offsets
        last_line = request.total_lines - 1
        pieces: list[TextPiece] = []
        run: list[str] = []  # the lines kept whole since the last piece of new text
        run_start = 0
        kept_tokens = 0
        previous = -1

        def new_text(text: str) -> None:
            if run:
                pieces.extend(_run_pieces(run, run_start, previous, last_line, offsets, pieces))
                run.clear()
            elif pieces:
                pieces.append(TextPiece("\n"))
            pieces.append(TextPiece(text))

        for position in sorted(kept):
            if position - previous > 1:
                new_text(self._gap_text(previous + 1, position - 1, previous))
            if kept[position]:
                if not run:
                    run_start = position
                run.append(texts[position])
                kept_tokens += request.costs[position]
            else:
                new_text(self._short_text(position, shorts[position]))
            previous = position
        if request.total_lines - previous > 1:
            new_text(self._gap_text(previous + 1, request.total_lines - 1, previous))
        # The omitted figure: the raw count minus the artifact's own lines kept whole.
        new_text(truncation_marker(max(self.raw_tokens - kept_tokens, 0)))
        return pieces

    def _gap_text(self, first: int, last: int, above: int = -1) -> str:
        """The marker of dropped lines `first`..`last` (0-based); `above` is the kept line
        before them, whose repeats it counts when they are all it holds."""
        span = self.handles.lines(first + 1, last + 1)
        run_end = self.request.run_ends.get(above, -1) if above >= 0 else -1
        if run_end >= last:
            return self.marker(f"×{last - first + 2} like the line above: {span}")
        return self.marker(span)

    def _short_text(self, position: int, short: ShortForm) -> str:
        span = self.handles.lines(position + 1, position + 1)
        return f"{short.text} {self.marker(f'rest of {span}')}"

    def _short_cost(self, position: int, short: ShortForm) -> int:
        """An estimate: the line's tokens per character over the short text, plus the
        marker's tokens. (Counting every short form would cost an encode each; the exact
        count of the packed text corrects any error.)"""
        request = self.request
        line = request.texts[position]
        share = len(short.text) * request.costs[position] / max(len(line), 1)
        return self._short_overhead + -(-int(share * 100) // 100)

    def _heads_of_long_lines(self, shorts: Mapping[int, ShortForm]) -> dict[int, ShortForm]:
        """A head for each line too long for its share of the budget that has no short form."""
        limit = max(self.budget // LONG_LINE_SHARE, MIN_SHORT_TOKENS)
        request = self.request
        heads: dict[int, ShortForm] = {}
        for position in request.positions:
            if request.costs[position] > limit and position not in shorts:
                head = self.counter.prefix_within(request.texts[position], limit)
                if head:
                    heads[position] = ShortForm(head.rstrip() + " …", request.ranks[position])
        return heads


def pack(
    request: PackRequest,
    budget: int,
    raw_tokens: int,
    counter: TokenCounter,
    marker: Callable[[str], str],
    handles: Handles | None = None,
) -> Packed:
    """The most important lines of `request` that fit in `budget` tokens, with their markers."""
    return _Packer(request, budget, raw_tokens, counter, marker, handles or Handles()).run()


def pack_lines(
    lines: Sequence[Line],
    total_lines: int,
    budget: int,
    raw_tokens: int,
    counter: TokenCounter,
    marker: Callable[[str], str],
    handles: Handles | None = None,
    *,
    short_forms: Mapping[int, ShortForm] | None = None,
    run_ends: Mapping[int, int] | None = None,
    heads_only: frozenset[int] = frozenset(),
) -> Packed:
    """`pack` for a sparse selection of lines (a streaming pass kept only its candidates;
    positions between them count as dropped lines). Each candidate is counted on its own."""
    ordered = sorted(lines, key=lambda line: line.position)
    request = PackRequest(
        positions=[line.position for line in ordered],
        texts={line.position: line.text for line in ordered},
        ranks={line.position: line.priority for line in ordered},
        costs={line.position: counter.count(line.text + "\n") for line in ordered},
        total_lines=total_lines,
        short_forms=short_forms or {},
        run_ends=run_ends or {},
        heads_only=heads_only,
    )
    return pack(request, budget, raw_tokens, counter, marker, handles)


def _run_pieces(
    run: list[str],
    first: int,
    last: int,
    last_line: int,
    offsets: Sequence[int] | None,
    before: list[TextPiece],
) -> list[TextPiece]:
    """The pieces of a run of lines `first`..`last` kept whole, with the newline before it
    (when text precedes it) and the one after it (new text always follows a run). The
    newlines go into the copied piece where the artifact has them at the same places: before
    any line but the first, after any line but the last (whose newline the artifact may
    lack)."""
    lead = "\n" if before else ""
    body = lead + "\n".join(run)
    if offsets is None:
        return [TextPiece(body + "\n")]
    origin = offsets[first] - len(lead)
    if last < last_line:
        return [TextPiece(body + "\n", origin)]
    return [TextPiece(body, origin), TextPiece("\n")]


def _markers_only(raw_tokens: int, budget: int, counter: TokenCounter) -> Packed:
    """No line fits: the longest marker that does, whole (never a number cut in two)."""
    for marker in MARKERS:
        content = marker(raw_tokens)
        tokens = counter.count(content)
        if tokens <= budget:
            return Packed(content, tokens)
    return Packed("", 0)
