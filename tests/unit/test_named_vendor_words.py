"""The one search that says whether a name holds a vendor's word agrees with the word tests of
every named format, on names built from those words, their neighbours and separators."""

from __future__ import annotations

import random

from cleveragents.adapters.secrets.named_classifiers import (
    _ANY_VENDOR_WORD,
    NAMED_FORMATS,
    _names_vendor,
)

_PIECES = (
    *(each.word for each in NAMED_FORMATS),
    b"dd_",
    b"dd-",
    b"ddx",
    b"xdd_",
    b"d",
    b"vaul",
    b"token",
    b"api",
    b"key",
    b"_",
    b"-",
)


def test_the_vendor_search_agrees_with_every_formats_word_test() -> None:
    rng = random.Random(11)
    agreed = 0
    for _ in range(20_000):
        name = b"".join(rng.choice(_PIECES) for _ in range(rng.randrange(0, 5)))
        expected = any(_names_vendor(name, each.word) for each in NAMED_FORMATS)
        assert (_ANY_VENDOR_WORD.search(name) is not None) == expected, name
        agreed += expected
    assert agreed > 1_000  # both answers were tried many times
