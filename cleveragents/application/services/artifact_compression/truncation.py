"""Tier 3, made exact: cut at a paragraph boundary, and back off until it fits.

The design estimates the cut at ``budget * 4`` characters and cuts at the last paragraph boundary
before it. On code four characters are often more than a token, so that can overshoot. Here the
kept text plus the marker is counted with the real tokenizer and, while it is over the budget,
the cut moves back: to an earlier paragraph boundary, then to a line boundary, then to a token
boundary. The marker reports what was really omitted: raw tokens minus the tokens kept.

A paragraph boundary is only taken when it keeps at least half the budget. Text with few blank
lines would otherwise lose almost all of it: a git diff's only blank line is often the one after
its commit subject, so every diff came back as its first ~50 tokens at any budget. Below half,
the cut goes to the last line boundary instead. "Half" is measured in tokens (the estimate from
the head's token starts that picks every cut), not in characters: the budget counts tokens, and
on code a character count would misjudge how much of it a cut keeps.

Cost: the head's token starts (from the raw count's encode when the caller has them, else from
an encode of the head) estimate the count of any prefix; the chosen content is counted exactly
to verify it (and, rarely, the one before it), the kept head from those starts where the
counter knows no token crosses (`TokenCounter.count_pieces`), so only its edges and the marker
are encoded again.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cleveragents.application.ports.token_counter import TextPiece, TokenCounter

HEURISTIC_CHARS_PER_TOKEN = 4
PARAGRAPH = b"\n\n"
LINE = b"\n"
SEPARATOR = "\n\n"


def truncation_marker(omitted_tokens: int) -> str:
    return f"[TRUNCATED: content exceeds budget, remaining {omitted_tokens} tokens omitted]"


# When even the marker does not fit, shorter ones, then nothing (a budget of a few tokens).
MARKERS: tuple[Callable[[int], str], ...] = (
    truncation_marker,
    lambda omitted: f"[TRUNCATED: {omitted} tokens omitted]",
    lambda _omitted: "[TRUNCATED]",
)


@dataclass(frozen=True, slots=True)
class Truncated:
    content: str
    kept_text: str
    tokens: int  # the real count of `content`


def truncation_head(text: str, budget: int) -> str:
    """The part of `text` Tier 3 looks at: the design's cut point, ``budget * 4`` characters."""
    return text[: budget * HEURISTIC_CHARS_PER_TOKEN]


def truncate_to_budget(
    text: str,
    budget: int,
    raw_tokens: int,
    counter: TokenCounter,
    starts: Sequence[int] | None = None,
) -> Truncated:
    """The longest tiered head of `text` that, with the marker, fits `budget` tokens.
    `starts`, when given, are the token starts of `text` (or of any text that begins with the
    head): only those inside the head are used."""
    head = truncation_head(text, budget)
    data = head.encode("utf-8", errors="surrogatepass")
    if starts is None:
        head_starts = counter.token_starts(head)
    else:
        head_starts = starts[: bisect_left(starts, len(data))]

    def kept_tokens(cut: int) -> int:
        """Tokens of the head that start before byte `cut`: the original's tokens kept."""
        return bisect_left(head_starts, cut)

    def attempt(cut: int) -> Truncated | None:
        kept = data[:cut].decode("utf-8", errors="ignore")
        omitted = max(raw_tokens - kept_tokens(cut), 0)
        for marker in MARKERS:
            # The kept head is copied from the text: counted from its starts where the
            # counter can.
            pieces = [TextPiece(kept, 0), TextPiece(f"{SEPARATOR}{marker(omitted)}")]
            content = f"{kept}{SEPARATOR}{marker(omitted)}" if kept else marker(omitted)
            tokens = counter.count_pieces(pieces, head_starts) if kept else counter.count(content)
            if tokens <= budget:
                return Truncated(content, kept, tokens)
        return None

    marker_room = counter.count(SEPARATOR + truncation_marker(raw_tokens))
    room = budget - marker_room
    # The design's cut first (the last paragraph boundary before budget * 4 characters), then
    # earlier paragraph boundaries while they keep half the budget, then line boundaries, by
    # the estimate; each verified.
    for separator in (PARAGRAPH, LINE):
        cuts = _boundaries(data, separator)
        estimates = [kept_tokens(cut) for cut in cuts]
        fitting = bisect_right(estimates, room)
        enough = bisect_left(estimates, _half(budget)) if separator is PARAGRAPH else 0
        for cut in reversed(cuts[max(fitting - 2, enough) : fitting]):
            result = attempt(cut)
            if result is not None:
                return result
    # Not even the first line fits (one line of minified data, a log's huge line): cut inside
    # it, at a token boundary found from the head's starts where the counter knows a cut no
    # token crosses; each try keeps fewer tokens than the one before.
    limit = room
    while limit > 0:
        kept = counter.prefix_within(head, limit, head_starts)
        if not kept:
            break
        cut = len(kept.encode("utf-8", errors="surrogatepass"))
        result = attempt(cut)
        if result is not None:
            return result
        limit = min(limit, kept_tokens(cut)) - 1
    return attempt(0) or Truncated("", "", 0)


def _half(budget: int) -> int:
    """The fewest tokens a paragraph cut must keep: half the budget, rounded up."""
    return (budget + 1) // 2


def _boundaries(data: bytes, separator: bytes) -> list[int]:
    """Byte offsets just before each `separator` (never 0), ascending."""
    cuts = []
    position = data.find(separator)
    while position >= 0:
        if position > 0:
            cuts.append(position)
        position = data.find(separator, position + len(separator))
    return cuts
