"""The fallback when the tokenizer fails: ``ceil(len / 4)``, labelled as an estimate."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.domain.tokens import HEURISTIC_CHARS_PER_TOKEN, heuristic_token_estimate

HEURISTIC_WARNING = (
    "[WARNING: Token count estimated via heuristic due to count_tokens.py failure]\n\n"
)


class HeuristicTokenCounter(TokenCounter):
    """Stands in for the tokenizer after it failed, so the tiers still run; every figure it
    gives is an estimate and the output says so (`HEURISTIC_WARNING`)."""

    @property
    def encoding_name(self) -> str:
        return "heuristic-chars/4"

    def count(self, text: str) -> int:
        return heuristic_token_estimate(text)

    def count_stream(self, chunks: Iterable[str]) -> int:
        characters = sum(map(len, chunks))
        return -(-characters // HEURISTIC_CHARS_PER_TOKEN)  # ceil without holding the text

    def prefix_within(self, text: str, max_tokens: int, starts: Sequence[int] | None = None) -> str:
        return text[: max(max_tokens, 0) * HEURISTIC_CHARS_PER_TOKEN]

    def token_starts(self, text: str) -> list[int]:
        """A "token" every 4 characters, as byte offsets (what `count` assumes)."""
        starts = []
        offset = 0
        for index in range(0, len(text), HEURISTIC_CHARS_PER_TOKEN):
            starts.append(offset)
            piece = text[index : index + HEURISTIC_CHARS_PER_TOKEN]
            offset += len(piece.encode("utf-8", errors="surrogatepass"))
        return starts
