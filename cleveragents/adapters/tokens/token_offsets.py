"""Where a text's tokens start and end, in UTF-8 bytes, from their ids and the length in bytes
of each id: the running sum of the lengths.

A long text's offsets are one array of 64-bit ints (numpy), looked up and summed in C, and
handed out read-only through a `memoryview`, whose items are plain ints and which `bisect`
reads as fast as a list. A list of Python ints cost some 0.2 of an encode more to build, and
five times the memory: about 80 MB for the 2 million tokens of 10 MB of text, where the array
takes 16 MB. A short text's offsets stay a list: importing numpy costs some 0.1 s of CPU once
per process (and its BLAS threads spin for about 50 ms after), which a one-shot command on a
small file would pay for nothing.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate, repeat
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    LengthArray = Callable[[], NDArray[np.int64]]

ARRAY_FROM_TOKENS = 1 << 14
"""Fewer tokens than this: their offsets are computed in a list."""


def token_starts(
    ids: Sequence[int], lengths: list[int], length_array: LengthArray, offset: int = 0
) -> Sequence[int]:
    """Where each of the tokens `ids` starts, `offset` added (`lengths`: each id's length in
    bytes; `length_array()`: the same as an array)."""
    if len(ids) < ARRAY_FROM_TOKENS or not len(ids):
        starts = list(accumulate(map(lengths.__getitem__, ids), initial=offset))
        starts.pop()  # the end of the last token
        return starts
    import numpy as np

    array = np.empty(len(ids), dtype=np.int64)
    array[0] = 0
    np.cumsum(length_array()[_id_array(ids)[:-1]], out=array[1:])
    if offset:
        array += offset
    return _read_only(array)


def joined(parts: list[Sequence[int]]) -> Sequence[int]:
    """The offsets of a long text's pieces, each already moved by the pieces before it, as
    one sequence."""
    if len(parts) == 1:
        return parts[0]
    if sum(map(len, parts)) < ARRAY_FROM_TOKENS:
        return [start for part in parts for start in part]
    import numpy as np

    return _read_only(np.concatenate([np.asarray(part, dtype=np.int64) for part in parts]))


def tokens_up_to(
    ids: Sequence[int], lengths: list[int], length_array: LengthArray, ends: Iterable[int]
) -> list[int]:
    """For each of `ends` (byte offsets, in order), how many of the tokens `ids` end at or
    before it: the running sum of their lengths, searched for every offset (in C either
    way: `map` over `bisect`, or one numpy search)."""
    if len(ids) < ARRAY_FROM_TOKENS:
        token_ends = list(accumulate(map(lengths.__getitem__, ids)))
        return list(map(bisect_right, repeat(token_ends), ends))
    import numpy as np

    token_ends_array = np.cumsum(length_array()[_id_array(ids)])
    offsets = np.fromiter(ends, dtype=np.int64)
    found: list[int] = np.searchsorted(token_ends_array, offsets, side="right").tolist()
    return found


def _id_array(ids: Sequence[int]) -> NDArray[np.uint32]:
    """The ids as an array: over tiktoken's buffer when they are in it, else copied."""
    import numpy as np

    if isinstance(ids, memoryview):
        return np.frombuffer(ids, dtype=np.uint32)
    return np.fromiter(ids, dtype=np.uint32, count=len(ids))


def _read_only(array: NDArray[np.int64]) -> Sequence[int]:
    array.flags.writeable = False
    return array.data
