"""The tiktoken adapter of the `TokenCounter` port, loading vocabularies offline."""

from __future__ import annotations

import re
import threading
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import tiktoken

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

from cleveragents.adapters.tokens import record_chunks, repeated_words, token_offsets
from cleveragents.adapters.tokens.offline_encodings import (
    DEFAULT_ENCODING,
    OFFLINE_ENCODINGS,
    read_ranks,
)
from cleveragents.adapters.tokens.utf8 import chars_within, encodable, utf8_length
from cleveragents.application.ports.token_counter import TextPiece, TokenCounter
from cleveragents.domain.errors import TokenCountingError, UnknownEncodingError

_cache: dict[str, tiktoken.Encoding] = {}
_cache_lock = threading.Lock()


def load_encoding(name: str, cache_dir: Path | None = None) -> tiktoken.Encoding:
    """The named encoding, built from an installed vocabulary that tiktoken hash-checks.

    Loaded once per process (building the 100k-200k entry rank table takes a few hundred ms).
    """
    spec = OFFLINE_ENCODINGS.get(name)
    if spec is None:
        known = ", ".join(sorted(OFFLINE_ENCODINGS))
        raise UnknownEncodingError(f"unknown encoding {name!r}; available offline: {known}")
    with _cache_lock:
        if name not in _cache:
            try:
                ranks = read_ranks(spec.vocabulary_path(cache_dir), spec.sha256)
            except (OSError, ValueError, ModuleNotFoundError) as exc:
                raise TokenCountingError(
                    f"cannot load the {name} vocabulary from the {spec.package!r} package: {exc}"
                ) from exc
            _cache[name] = tiktoken.Encoding(
                name=name,
                pat_str=spec.pattern,
                mergeable_ranks=ranks,
                special_tokens=spec.special_tokens,
            )
        return _cache[name]


_lengths: dict[str, list[int]] = {}
_length_arrays: dict[str, NDArray[np.int64]] = {}


def token_byte_lengths(encoding: tiktoken.Encoding) -> list[int]:
    """The UTF-8 length of every token id, computed once per encoding: turning a token list
    into offsets is then one C-level map, not a Python call per token."""
    with _cache_lock:
        if encoding.name not in _lengths:
            table = [0] * encoding.n_vocab
            for token in range(encoding.n_vocab):
                try:
                    table[token] = len(encoding.decode_single_token_bytes(token))
                except KeyError:
                    continue  # ids between the ranks and the special tokens
            _lengths[encoding.name] = table
        return _lengths[encoding.name]


class TiktokenCounter(TokenCounter):
    """Exact counts with a tiktoken encoding (default ``cl100k_base``)."""

    def __init__(self, encoding_name: str = DEFAULT_ENCODING, cache_dir: Path | None = None):
        self._encoding_name = encoding_name
        self._cache_dir = cache_dir

    @property
    def encoding_name(self) -> str:
        return self._encoding_name

    def count(self, text: str) -> int:
        encoding = load_encoding(self._encoding_name, self._cache_dir)
        # A long text is counted in pieces cut where the count does not change: the token
        # list of the whole (some 40 bytes a token) is never built.
        by_encoding = _remembered.get()
        if by_encoding is None:
            return _count_long(encoding, text, remember=True)
        # In a block, the first text counted (a compression's raw text, which later steps
        # may count again whole) is kept with its count; a text is only referenced, not
        # copied.
        first = by_encoding.setdefault(f"{encoding.name} first text", {})
        counted = first.get(text)
        if counted is None:
            counted = _count_long(encoding, text, remember=True)
            if not first:
                first[text] = counted
        return counted

    @contextmanager
    def remembering(self) -> Iterator[None]:
        """Inside the block the first count that goes by its words (as outside: long, and its
        words repeating) remembers the count of each word it encodes; once it has, every
        count of 1 Ki characters or more goes by its words, never declined, looks up those it
        met and remembers the others (in this thread or task only; a block inside another
        shares the outer one's)."""
        if _remembered.get() is not None:
            yield
            return
        token = _remembered.set({})
        try:
            yield
        finally:
            _remembered.reset(token)

    def count_stream(self, chunks: Iterable[str]) -> int:
        encoding = load_encoding(self._encoding_name, self._cache_dir)
        total = 0
        pending = ""
        searched = 0  # split points before this offset of `pending` were already looked for
        for chunk in chunks:
            pending += chunk
            if len(pending) < STREAM_WINDOW_CHARS:
                continue
            cut = safe_split_point(pending, searched)
            if cut is None:
                if len(pending) < STREAM_WINDOW_LIMIT_CHARS:
                    searched = max(len(pending) - 1, 0)
                    continue
                cut = len(pending)  # one enormous line: split anyway (off by at most a token)
            # Each window alone (by its distinct words when it repeats): what is held stays
            # bounded however long the stream.
            total += _count_long(encoding, pending[:cut])
            pending = pending[cut:]
            searched = 0
        if pending:
            total += _count_long(encoding, pending)
        return total

    def token_starts(self, text: str) -> Sequence[int]:
        """A long text is encoded in pieces cut where no token crosses (see `count`); each
        piece's offsets are moved by the length in bytes of the pieces before it
        (`token_offsets`: a long text's are one read-only array)."""
        encoding = load_encoding(self._encoding_name, self._cache_dir)
        parts = []
        offset = 0
        for piece in exact_pieces(text):
            parts.append(_starts(encoding, piece, offset))
            offset += len(piece.encode("utf-8", errors="surrogatepass"))
        with _tokenizer_failures():
            return token_offsets.joined(parts) if parts else []

    def count_pieces(self, pieces: Sequence[TextPiece], source_starts: Sequence[int]) -> int:
        """A copied piece is counted from `source_starts` between its first and its last cut
        inside it (`first_cut_inside`, `last_cut_inside`: the same characters stand on both
        sides of such a cut in the source and in the joined text, so no token crosses it in
        either); the text between those stretches (the pieces' edges and the new text) is
        encoded, its runs glued together where they meet at a safe cut too (`_meet_at_cut`),
        so that a text of many short copies costs a few encodes, not one per copy."""
        encoding = load_encoding(self._encoding_name, self._cache_dir)
        total = 0
        runs: list[str] = []  # the text between the stretches counted from the starts
        pending: list[str] = []
        for piece in pieces:
            text = piece.text
            origin = piece.origin
            first = first_cut_inside(text) if origin is not None else None
            last = last_cut_inside(text) if first is not None else None
            if origin is None or first is None or last is None or last <= first:
                pending.append(text)
                continue
            head = text[:first]
            pending.append(head)
            runs.append("".join(pending))
            if text.isascii():
                begin, end = origin + first, origin + last
            else:
                begin = origin + utf8_length(head)
                end = begin + utf8_length(text[first:last])
            total += bisect_left(source_starts, end) - bisect_left(source_starts, begin)
            pending = [text[last:]]
        runs.append("".join(pending))
        return total + _count_runs(encoding, runs)

    def prefix_within(self, text: str, max_tokens: int, starts: Sequence[int] | None = None) -> str:
        """The prefix ends at the last cut no token crosses (`last_cut_at_or_before`) at or
        before the start of token `max_tokens`: it holds exactly the tokens before it, known
        from `starts` or from one encode, never encoded again. A text with no such cut in
        reach (a long run of letters, a base64 blob) is cut at a token boundary and encoded
        again, stepping back until the prefix fits."""
        if max_tokens <= 0 or not text:
            return ""
        encoding = load_encoding(self._encoding_name, self._cache_dir)
        tokens: list[int] | None = None
        if encodable(text):  # else the tokenizer mends it, and byte offsets differ
            limit = _start_from(starts, text, max_tokens)
            if limit is None:
                # One encode, kept for the token-boundary cut below if no cut is in reach.
                tokens = _encode(encoding, text)
                if len(tokens) <= max_tokens:
                    return text  # it fits whole
                lengths = token_byte_lengths(encoding)
                limit = sum(map(lengths.__getitem__, tokens[:max_tokens]))
            cut = last_cut_at_or_before(text, chars_within(text, limit))
            if cut is not None:
                return text[:cut]
        if tokens is None:
            tokens = _encode(encoding, text)
        keep = min(max_tokens, len(tokens))
        while keep > 0:
            # A token prefix can end inside a multi-byte character: drop the partial bytes.
            with _tokenizer_failures():
                prefix = encoding.decode_bytes(tokens[:keep]).decode("utf-8", errors="ignore")
            # Re-encoding a prefix can merge differently; step back until it really fits.
            if len(_token_ids(encoding, prefix)) <= max_tokens:
                return prefix
            keep -= 1
        return ""


def _start_from(starts: Sequence[int] | None, text: str, max_tokens: int) -> int | None:
    """Where token `max_tokens` of `text` starts, in bytes, by `starts` (the token starts of
    `text` or of a text it begins); None without them, or when they put it past `text`'s end
    (a text cut from a longer one may count otherwise than its share of the starts)."""
    if starts is None or max_tokens >= len(starts):
        return None
    limit = starts[max_tokens]
    return limit if limit < utf8_length(text) else None


def _starts(encoding: tiktoken.Encoding, text: str, offset: int = 0) -> Sequence[int]:
    """Where each token of `text` starts, in bytes, `offset` added."""
    tokens = _token_ids(encoding, text)
    with _tokenizer_failures():  # a huge text's offsets may not fit in memory either
        return token_offsets.token_starts(
            tokens, token_byte_lengths(encoding), partial(_length_array, encoding), offset
        )


def _tokens_up_to(encoding: tiktoken.Encoding, text: str, ends: Iterable[int]) -> list[int]:
    """For each of `ends` (byte offsets in `text`, in order), how many of the tokens of
    `text` end at or before it."""
    tokens = _token_ids(encoding, text)
    with _tokenizer_failures():
        return token_offsets.tokens_up_to(
            tokens, token_byte_lengths(encoding), partial(_length_array, encoding), ends
        )


def _length_array(encoding: tiktoken.Encoding) -> NDArray[np.int64]:
    """`token_byte_lengths` as an array, made once per encoding."""
    import numpy as np

    with _cache_lock:
        found = _length_arrays.get(encoding.name)
    if found is None:
        found = np.array(token_byte_lengths(encoding), dtype=np.int64)
        with _cache_lock:
            _length_arrays[encoding.name] = found
    return found


def _count_runs(encoding: tiktoken.Encoding, runs: list[str]) -> int:
    """The count of each of `runs` (each starts and ends at a safe cut of the text it came
    from), summed: consecutive runs that meet at a safe cut are encoded as one text, of about
    `STREAM_WINDOW_CHARS` at most (a long run alone is cut as `count` cuts a text). (Counting
    all of them by their distinct words was tried: each run's two ends must then be encoded
    alone, and a packing's many short runs made that slower than encoding them.)"""
    total = 0
    group: list[str] = []
    size = 0
    for run in runs:
        if not run:
            continue
        if group and (size > STREAM_WINDOW_CHARS or not _meet_at_cut(group[-1], run)):
            total += _count_long(encoding, "".join(group))
            group = []
            size = 0
        group.append(run)
        size += len(run)
    if group:
        total += _count_long(encoding, "".join(group))
    return total


# The counts of the words met in a `remembering` block, by encoding (and of the records of
# compact JSON, under the encoding's name followed by " records", and the block's first text
# with its count, followed by " first text").
_remembered: ContextVar[dict[str, dict[str, int]] | None] = ContextVar(
    "remembered_word_counts", default=None
)
REMEMBERING_MIN_CHARS = 1 << 10


def _count_long(encoding: tiktoken.Encoding, text: str, *, remember: bool = False) -> int:
    """The count of `text`: with `remember`, inside a `remembering` block, by its records
    when it is JSON written compact (`record_chunks`); by its distinct words
    (`repeated_words`) when it is long and repeats enough, or, with `remember`, inside a
    block that already kept words, else encoded in the pieces of `exact_pieces` (the token
    list of a long text is never built whole). (A count of copied pieces' runs does not
    remember: each run's two ends would be encoded alone.)"""
    counted = None
    by_encoding = _remembered.get() if remember else None
    if by_encoding is not None and len(text) >= REMEMBERING_MIN_CHARS and encodable(text):
        # JSON written compact: its candidates share its records, not its words.
        counted = record_chunks.count_by_records(
            text,
            by_encoding.setdefault(f"{encoding.name} records", {}),
            partial(_tokens_up_to, encoding),
            partial(_count_whole, encoding),
        )
        if counted is not None:
            return counted
    remembered = None if by_encoding is None else by_encoding.setdefault(encoding.name, {})
    if remembered and len(text) >= REMEMBERING_MIN_CHARS:
        # An earlier count of the block kept words: this one shares them, never declined.
        counted = repeated_words.count_by_repeated_words(
            exact_pieces(text),
            partial(_count_whole, encoding),
            remembered,
            partial(_word_counts, encoding),
            may_decline=False,
        )
    elif len(text) >= repeated_words.MIN_CHARS:
        # As outside a block, declined when its words barely repeat (splitting all of them
        # costs up to three encodes); in a block, the words of one not declined are kept. One
        # piece's words are held at a time.
        counted = repeated_words.count_by_repeated_words(
            exact_pieces(text),
            partial(_count_whole, encoding),
            remembered,
            None if remembered is None else partial(_word_counts, encoding),
        )
    return _count_whole(encoding, text) if counted is None else counted


def _word_counts(encoding: tiktoken.Encoding, words: list[str]) -> list[int]:
    return repeated_words.counts_of_words(words, partial(_tokens_up_to, encoding))


def _count_whole(encoding: tiktoken.Encoding, text: str) -> int:
    return sum(len(_token_ids(encoding, piece)) for piece in exact_pieces(text))


def _meet_at_cut(left: str, right: str) -> bool:
    """Whether `left + right` can be cut between the two without changing its count, by the
    rules of `safe_split_point` and `first_cut_inside` (each reads only the characters around
    the cut)."""
    before = left[-1]
    after = right[0]
    if before == "\n" and _starts_after_a_cut(right):
        return True
    if after == " ":
        return not before.isspace()
    return after == "\n" and before.isalnum()


def _starts_after_a_cut(text: str) -> bool:
    """Whether the offset after a line break is a safe cut when `text` follows it: `_cuts_after`
    read on `text` alone (its spaces and tabs, then the character after them), without
    building the joined text."""
    first = text[0]
    if first not in " \t":
        return first != "/" and not first.isspace()
    blanks = len(text) - len(text.lstrip(" \t"))
    return blanks < len(text) and not text[blanks].isspace()


def _token_ids(encoding: tiktoken.Encoding, text: str) -> Sequence[int]:
    """The tokens of `text`, as `_encode` gives them, in the buffer tiktoken fills for its
    `encode_to_numpy` (unsigned 32-bit ids), read through a memoryview: a count or a walk over
    the ids then builds no list of Python ints, which is some 7% of an encode. A tiktoken
    without that buffer, and a text holding surrogates (which `encode` mends before encoding),
    go through `_encode`. (The buffer is reached through private names: looked up, never
    assumed, so another layout of tiktoken only costs the list.)"""
    core = getattr(encoding, "_core_bpe", None)
    encode_to_buffer = getattr(core, "encode_to_tiktoken_buffer", None)
    if encode_to_buffer is None:
        return _encode(encoding, text)
    with _tokenizer_failures():
        try:
            buffer = encode_to_buffer(text, set())
        except UnicodeEncodeError:
            return _encode(encoding, text)
    # Viewed as bytes first: the buffer's declared shape is not its length in ids.
    return memoryview(buffer).cast("B").cast("I")


def _encode(encoding: tiktoken.Encoding, text: str) -> list[int]:
    """The tokens of `text`; text that looks like a special token ("<|endoftext|>") is encoded
    as the plain text it is: content is data, never a control sequence. (Not
    `encode_ordinary`, a little faster but which panics, printing a Rust backtrace, on a text
    its regex gives up on, where `encode` raises a ValueError.)"""
    with _tokenizer_failures():
        return encoding.encode(text, disallowed_special=())


@contextmanager
def _tokenizer_failures() -> Iterator[None]:
    """The ways tiktoken fails on a text, as the port's `TokenCountingError` (callers that may
    fall back to the heuristic then do): its regex giving up (a long run of spaces followed by
    a letter exceeds its backtracking stack), memory running out, and a panic in its Rust code
    (pyo3 raises those as ``pyo3_runtime.PanicException``, a BaseException, e.g. when building
    the token list of a huge text fails)."""
    try:
        yield
    except (ValueError, MemoryError) as exc:
        raise TokenCountingError(
            f"the tokenizer cannot count this text: {_described(exc)}"
        ) from exc
    except BaseException as exc:
        if not is_rust_panic(exc):
            raise
        raise TokenCountingError(f"the tokenizer failed on this text: {_described(exc)}") from exc


def is_rust_panic(error: BaseException) -> bool:
    """Whether `error` is a panic of a Rust extension. pyo3 creates its exception type at run
    time, importable from nowhere: it is recognised by its name."""
    kind = type(error)
    return kind.__name__ == "PanicException" and kind.__module__ == "pyo3_runtime"


def _described(error: BaseException) -> str:
    detail = " ".join(str(error).split())[:200]
    return f"{type(error).__name__}: {detail}" if detail else type(error).__name__


STREAM_WINDOW_CHARS = 1 << 20
# A line longer than this with no safe cut (a copy of /dev/zero, one minified line) is cut
# anyway: tiktoken needs about 16 bytes per character of one piece, so 4M characters stay
# near 64 MB where 64M characters asked for a gigabyte.
STREAM_WINDOW_LIMIT_CHARS = 1 << 22


def safe_split_point(text: str, start: int = 0) -> int | None:
    """The last offset at or after `start` where `text` can be cut without changing its count.

    The pre-tokenizer patterns of cl100k_base and o200k_base keep a newline out of every
    pre-token that goes on past it, except three: a run of whitespace that ends in newlines,
    and (o200k_base) punctuation followed by newlines and slashes. So two kinds of cut end a
    pre-token both in the whole text and in its two sides, and the counts of the sides add up:
    - before a newline that follows a letter or digit (no letter or digit run takes one);
    - after a newline followed by spaces or tabs, if any, and then by a character that is not
      whitespace nor a slash right after the newline (no newline-ending run can go on there).
    The rule reads nothing past that first character, so it holds for a cut inside a piece
    copied into another text.
    """
    position = len(text)
    while (newline := text.rfind("\n", start, position)) >= 0:
        if _cuts_after(text, newline):
            return newline + 1
        if newline > 0 and text[newline - 1].isalnum():
            return newline
        position = newline
    return None


def next_safe_split_point(text: str, start: int) -> int | None:
    """The first offset at or after `start` where `text` can be cut without changing its count
    (the rule of `safe_split_point`, searched forwards)."""
    newline = text.find("\n", max(start - 1, 0))  # a cut after it may still be at `start`
    while newline >= 0:
        if newline >= max(start, 1) and text[newline - 1].isalnum():
            return newline
        if _cuts_after(text, newline):
            return newline + 1
        newline = text.find("\n", newline + 1)
    return None


def _cuts_after(text: str, newline: int) -> bool:
    """Whether the offset after the newline at `newline` is a safe cut (see `safe_split_point`)."""
    after = newline + 1
    if after >= len(text):
        return False  # what follows is not known yet
    first = text[after]
    if first not in " \t":
        return first != "/" and not first.isspace()
    end = len(text)
    position = after + 1
    while position < end and text[position] in " \t":
        position += 1
    return position < end and not text[position].isspace()


# A space that follows a character other than whitespace (Python's `\S` is `not isspace()`,
# which every character of Unicode's White_Space, the tokenizers' `\s`, fails).
_SPACE_CUT = re.compile(r"(?<=\S) ")
_LAST_SPACE_CUT = re.compile(r".*\S( )", re.DOTALL)
# An ASCII punctuation character other than the apostrophe, after an ASCII letter or digit.
_PUNCTUATION_CUT = re.compile(r"(?<=[A-Za-z0-9])[!-&(-/:-@\[-`{-~]")


def first_cut_inside(text: str) -> int | None:
    r"""The first offset strictly inside `text` where it can be cut without changing its count,
    in `text` and in any text it is copied into: a cut of `safe_split_point`'s rule, or one
    before a space that follows a character other than whitespace.

    Why the space cut is safe, in cl100k_base and in o200k_base alike: a pre-token can hold a
    space only as its first character (the optional space or other leading character before
    a word or punctuation) or inside a run of whitespace; so a space after a character that is
    not whitespace starts a pre-token. And nothing that a pre-token before the cut tests at the
    cut's place behaves differently whether it finds that space or the end of the text:
    letters and marks (of a word, a contraction's `'s`), digits, punctuation and the line
    breaks (or o200k_base's slashes) after it reject both, and the patterns that look past a
    run of whitespace (`\s+(?!\S)`, `\s++$`) never reach the cut, which a character other
    than whitespace precedes. So the text before the cut splits into the same pre-tokens
    alone as in the whole, and the text after it starts a pre-token in both: the counts add
    up. The rule reads the two characters around the cut only.

    A text with neither kind of cut (one line of minified data or code) is cut by a third
    rule: before an ASCII punctuation character other than the apostrophe that follows an
    ASCII letter or digit (`{"id":7,"name":"x"}` between `id` and `"`, `7` and `,`). The
    pre-token holding that letter or digit is a run of letters (o200k_base's with marks and
    a contraction's `'s` after it) or of up to three digits, and each stops at such a
    character as at the end of the text; the character starts the next pre-token in both, as
    punctuation or as the one character allowed before a word. (The apostrophe is left out:
    a contraction may follow the letters.)
    """
    # The common cases first: a copy of whole lines that starts with its line break, cut
    # right after it (the first offset inside); the first space, after a character other than
    # whitespace, with no line break before it (where no line cut can be), found in C.
    if text[:1] == "\n" and _cuts_after(text, 0):
        return 1
    space = text.find(" ", 1)
    if space > 0 and not text[space - 1].isspace() and text.find("\n", 0, space) < 0:
        return space
    line_cut = next_safe_split_point(text, 1)
    end = len(text) if line_cut is None else line_cut
    found = _SPACE_CUT.search(text, 1, end)
    if found is not None:
        return found.start()
    if line_cut is not None:
        return line_cut
    # No space nor line cut (one line of minified data or code): the punctuation rule.
    found = _PUNCTUATION_CUT.search(text, 1)
    return None if found is None else found.start()


def last_cut_inside(text: str) -> int | None:
    """The last offset strictly inside `text` where it can be cut as `first_cut_inside` says."""
    # The common case first, in C: the last space, after a character other than whitespace,
    # with no line break after it (every line cut comes before it).
    space = text.rfind(" ")
    if space > 0 and not text[space - 1].isspace() and text.find("\n", space) < 0:
        return space
    line_cut = safe_split_point(text)
    start = 1 if line_cut is None else line_cut + 1
    space = text.rfind(" ", start)
    if space > 0 and not text[space - 1].isspace():
        return space  # the common case: a space after a word
    if space > start:  # a run of whitespace before it: the last space after a non-blank
        found = _LAST_SPACE_CUT.match(text, start - 1, space)
        if found is not None:
            return found.start(1)
    if line_cut is not None:
        return line_cut
    return _last_punctuation_cut(text, 1)  # no space nor line cut: the punctuation rule


def last_cut_at_or_before(text: str, limit: int) -> int | None:
    """The last offset in 1..`limit` where `text` can be cut without changing its count, by
    any of the rules of `first_cut_inside` (the latest of the space and line rules' last
    cut and the punctuation rule's after it: minified data has a space only here and there,
    in a string)."""
    if limit < 1:
        return None
    window = text[: limit + 1]  # a cut at `limit` reads the character after it
    by_words = last_cut_inside(window)
    after = _last_punctuation_cut(window, 1 if by_words is None else by_words + 1)
    return by_words if after is None else after


def _last_punctuation_cut(text: str, start: int) -> int | None:
    """The last cut of the punctuation rule at or after `start`, looked for in a window at the
    end of `text` that widens until one is found or it reaches `start`."""
    width = 256
    while True:
        begin = max(len(text) - width, start)
        found = None
        for found in _PUNCTUATION_CUT.finditer(text, begin):  # noqa: B007 -- the last one
            pass
        if found is not None:
            return found.start()
        if begin == start:
            return None
        width *= 8


def exact_pieces(text: str, window: int | None = None) -> Iterator[str]:
    """`text` in consecutive pieces of at least `window` characters (the last one shorter),
    each cut at the first `safe_split_point`-kind offset past the window, so that the counts of
    the pieces add up to the count of the whole. A stretch with no such offset stays whole."""
    window = STREAM_WINDOW_CHARS if window is None else window
    start = 0
    while len(text) - start > 2 * window:
        cut = next_safe_split_point(text, start + window)
        if cut is None:
            break
        yield text[start:cut]
        start = cut
    yield text[start:]
