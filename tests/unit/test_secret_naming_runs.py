"""What reads as a name in a value (`secret_values._NAMING_RUN`): the same runs as camel-case
words written one by one, and in time linear in the run, however long an upper-case run is."""

from __future__ import annotations

import itertools
import random
import re

from cleveragents.adapters.secrets import secret_values
from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner

# The definition word by word: a first word (lower-case, capitalised or an acronym), more
# capitalised words and acronyms, numbers each before a capitalised word, a number with a short
# lower-case word at the end. Its nested repetition backtracks exponentially: short runs only.
_WORD_BY_WORD = re.compile(
    rb"(?:[a-z]+|[A-Z][a-z]+|[A-Z]+(?![a-z]))(?:[A-Z][a-z]+|[A-Z]+(?![a-z]))*"
    rb"(?:[0-9]+[A-Z][a-z]+(?:[A-Z][a-z]+|[A-Z]+(?![a-z]))*)*"
    rb"(?:[0-9]+(?:[a-z]{1,3})?)?"
)


def _same(run: bytes) -> bool:
    expected = _WORD_BY_WORD.fullmatch(run) is not None
    return (secret_values._NAMING_RUN.fullmatch(run) is not None) == expected


def test_every_short_run_reads_as_a_name_exactly_when_its_words_do() -> None:
    # A lower-case letter, two upper-case letters and two digits: every class and every
    # change between classes, in every run of up to seven.
    for length in range(8):
        for run in itertools.product(b"aAB01", repeat=length):
            assert _same(bytes(run)), bytes(run)


def test_random_runs_read_as_names_exactly_when_their_words_do() -> None:
    rng = random.Random(17)
    for _ in range(20_000):
        run = bytes(rng.choice(b"abzABZ0129") for _ in range(rng.randrange(0, 16)))
        assert _same(run), run


def test_a_long_upper_case_token_assigned_to_a_name_is_judged() -> None:
    # An upper-cased JWT assigned to a token name: its runs of 75 upper-case letters and digits
    # took the word-by-word regex seconds each (and twice as long per letter more); judged now.
    rng = random.Random(3)
    token = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") for _ in range(200))
    data = f"ID_TOKEN: {token}.{token}\n".encode()
    assert secret_values.random_material(token.encode()) == len(token)
    found = PatternSecretScanner().match_bytes(data)
    assert [(match.rule, match.start) for match in found] == [("token", len("ID_TOKEN: "))]
