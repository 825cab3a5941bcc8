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

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain

from cleveragents.application.ports.token_counter import TextPiece, TokenCounter
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    Handles,
    ShortForm,
)
from cleveragents.application.services.artifact_compression.packing.kept_lines import (
    DROPPED,
    SHORT,
    WHOLE,
    LineStates,
    kept_stretches,
    lone_gaps,
    new_states,
    nothing_kept,
)
from cleveragents.application.services.artifact_compression.packing.order import RankGroups
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


# A line taken, as one int (there is one per line taken, and ints cost the garbage collector
# nothing): ``position * 4 + whole * 2 + upgraded``, where whole says it was taken whole (else
# as its short form) and upgraded that it replaced the line's short form (so giving it back
# restores the short form).
_WHOLE = 2
_UPGRADED = 1


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
        kept = new_states(request.total_lines, isinstance(request.positions, range))
        taken: list[int] = []  # the lines taken, in order (see `_WHOLE`)
        # A marker at its longest: a range (not one line) of the largest line numbers.
        last = max(request.total_lines - 1, 1)
        gap_cost = self.counter.count(self._gap_text(last - 1, last) + "\n")
        trailer = self.counter.count("\n" + truncation_marker(self.raw_tokens))
        estimate = trailer + (gap_cost if request.total_lines else 0)
        groups = RankGroups(request, shorts)
        estimate, rest = self._take(
            groups.unit_lists(), kept, taken, estimate, gap_cost, short_costs
        )
        # A dropped line between two kept ones that costs no more than its marker is kept
        # for free; the room that frees goes to the next lines in order.
        freed = self._close_small_gaps(kept, gap_cost)
        if freed:
            estimate, _ = self._take(rest, kept, taken, estimate - freed, gap_cost, short_costs)
        self._fill_rest(groups, kept, taken, estimate, gap_cost, shorts, short_costs)
        return self._fitted(kept, taken, shorts, short_costs)

    def _take(
        self,
        groups: Iterator[list[int]],
        kept: LineStates,
        taken: list[int],
        estimate: int,
        gap_cost: int,
        short_costs: Mapping[int, int],
    ) -> tuple[int, Iterator[list[int]]]:
        """Each unit in order that still fits, by the estimate (`groups`: each rank's units,
        best rank first). Once a unit does not fit, no unit of a worse rank is taken (smaller
        ones of the same rank still are): what ranks better always comes first, and the room
        left goes to that unit's head (`_fill_rest`). Returns the estimate, updated, and the
        units still to offer (those that did not fit, then the ranks not reached): a later
        pass with more room offers only these, as every unit taken stays taken."""
        budget = self.budget
        not_taken: list[list[int]] = []  # each rank's units that did not fit
        for units in groups:
            estimate, missed = self._take_group(
                units, kept, taken, estimate, budget, gap_cost, short_costs
            )
            not_taken.append(missed)
            if missed:
                break  # `groups` goes on with the ranks not reached
        return estimate, chain(not_taken, groups)

    def _take_group(
        self,
        units: list[int],
        kept: LineStates,
        taken: list[int],
        estimate: int,
        budget: int,
        gap_cost: int,
        short_costs: Mapping[int, int],
    ) -> tuple[int, list[int]]:
        """The units of one rank that fit, taken in order; returns the estimate and the units
        that did not fit. (The loop runs once per line of the artifact: it is kept lean.)"""
        costs = self.request.costs
        take = taken.append
        missed: list[int] = []
        miss = missed.append
        for unit in units:
            position = unit >> 1
            slot = position + 1
            held = kept[slot]
            if unit & 1:  # the whole line
                if held == WHOLE:
                    continue
                if held:  # short now: the difference
                    cost = costs[position] - short_costs[position]
                    if estimate + cost <= budget:
                        kept[slot] = WHOLE
                        take(position * 4 + _WHOLE + _UPGRADED)
                        estimate += cost
                    else:
                        miss(unit)
                    continue
                cost = costs[position]
                state = WHOLE
                choice = position * 4 + _WHOLE
            else:
                if held:
                    continue  # already short or whole
                cost = short_costs[position]
                state = SHORT
                choice = position * 4
            # A kept line splits the gap around it: one marker more or less.
            cost += ((not kept[slot - 1]) + (not kept[slot + 1]) - 1) * gap_cost
            if estimate + cost <= budget:
                kept[slot] = state
                take(choice)
                estimate += cost
            else:
                miss(unit)
        return estimate, missed

    def _close_small_gaps(self, kept: LineStates, gap_cost: int) -> int:
        """Keep every candidate line alone between two kept lines whose cost is at most a
        marker's (a blank line, a brace): the marker would cost more. Returns the tokens
        saved. These lines are never given back alone: that would cost a marker again."""
        costs = self.request.costs
        known = costs.__contains__ if isinstance(costs, Mapping) else range(len(costs)).__contains__
        saved = 0
        for gap in lone_gaps(kept):
            if not known(gap) or gap in self.request.heads_only:
                continue  # not a candidate, or only its head is known: it cannot stand whole
            if costs[gap] <= gap_cost:
                kept[gap + 1] = WHOLE
                saved += gap_cost - costs[gap]
        return saved

    def _fill_rest(
        self,
        groups: RankGroups,
        kept: LineStates,
        taken: list[int],
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
        costs = self.request.costs
        for unit in chain.from_iterable(groups.unit_lists()):
            position = unit >> 1
            slot = position + 1
            if kept[slot] == WHOLE:
                continue
            current = short_costs[position] if kept[slot] else 0
            gaps = 0
            if not kept[slot]:
                gaps = ((not kept[slot - 1]) + (not kept[slot + 1]) - 1) * gap_cost
            allowance = room + current - gaps - self._short_overhead
            if allowance < worth or costs[position] <= allowance:
                continue  # no room for a head worth a line, or no cut needed
            short = self._head_within(position, allowance, room + current - gaps, worth)
            if short is not None:
                if not kept[slot]:
                    taken.append(position * 4)
                kept[slot] = SHORT
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
        kept: LineStates,
        taken: list[int],
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
            if nothing_kept(kept):
                return _markers_only(self.raw_tokens, self.budget, self.counter)
            freed = 0
            while taken and freed < excess:
                choice = taken.pop()
                position = choice >> 2
                if choice & _UPGRADED:
                    kept[position + 1] = SHORT
                    freed += costs[position] - short_costs[position]
                else:
                    kept[position + 1] = DROPPED
                    freed += costs[position] if choice & _WHOLE else short_costs[position]

    def _count(self, pieces: list[TextPiece], content: str) -> int:
        """The exact count of the packed text: from the artifact's token starts where it
        copies the artifact's lines, when they are known."""
        starts = self.request.source_starts
        if starts is None or self.request.offsets is None:
            return self.counter.count(content)
        return self.counter.count_pieces(pieces, starts)

    def _render(self, kept: LineStates, shorts: Mapping[int, ShortForm]) -> list[TextPiece]:
        """The packed text in pieces: each run of lines kept whole, as copied from the
        artifact (from the byte offset of its first line, when known), and the new text
        between them (markers, short forms, newlines) in one piece each.

        A run's piece holds the newline before it, as the artifact does, and not the one
        after it: the counter cuts the copy after that first newline and inside its last
        line (before a space, or where that line starts), and the new text it encodes from
        there ("word\n[… lines 5-9]\n") meets the next copy at a cut, so all of it is
        encoded in a few long texts. (Were the newline after a run copied too, the text
        encoded after a line ending in a letter would start with it, and two such texts do
        not meet at a cut: a newline followed by a newline is one token.)"""
        request = self.request
        offsets = request.offsets
        texts = request.texts
        listed = texts if isinstance(texts, Sequence) else None  # sliced when a list
        costs = request.costs
        costs_listed = costs if isinstance(costs, Sequence) else None
        pieces: list[TextPiece] = []
        new: list[str] = []  # the new text since the last copied piece
        kept_tokens = 0
        previous = -1
        for first, last, whole in kept_stretches(kept):
            if first - previous > 1:
                _add(new, pieces, self._gap_text(previous + 1, first - 1, previous))
            previous = last
            if not whole:
                _add(new, pieces, self._short_text(first, shorts[first]))
                continue
            lines = (
                listed[first : last + 1]
                if listed is not None
                else [texts[position] for position in range(first, last + 1)]
            )
            kept_tokens += (
                sum(costs_listed[first : last + 1])
                if costs_listed is not None
                else sum(costs[position] for position in range(first, last + 1))
            )
            if offsets is None:
                _add(new, pieces, "\n".join(lines))
                continue
            lead = "\n" if new or pieces else ""
            if new:
                pieces.append(TextPiece("".join(new)))
                new.clear()
            pieces.append(TextPiece(lead + "\n".join(lines), offsets[first] - len(lead)))
        if request.total_lines - previous > 1:
            _add(new, pieces, self._gap_text(previous + 1, request.total_lines - 1, previous))
        # The omitted figure: the raw count minus the artifact's own lines kept whole.
        _add(new, pieces, truncation_marker(max(self.raw_tokens - kept_tokens, 0)))
        pieces.append(TextPiece("".join(new)))
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
        costs = request.costs
        if max(costs.values() if isinstance(costs, Mapping) else costs, default=0) <= limit:
            return heads  # the common case, found in C
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


def _add(new: list[str], pieces: list[TextPiece], text: str) -> None:
    """`text` added to the new text, on a line of its own."""
    if new or pieces:
        new.append("\n")
    new.append(text)


def _markers_only(raw_tokens: int, budget: int, counter: TokenCounter) -> Packed:
    """No line fits: the longest marker that does, whole (never a number cut in two)."""
    for marker in MARKERS:
        content = marker(raw_tokens)
        tokens = counter.count(content)
        if tokens <= budget:
            return Packed(content, tokens)
    return Packed("", 0)
