"""The last lines of a log that mention trouble, whatever their level."""

from __future__ import annotations

import pytest

from cleveragents.application.services.artifact_compression.kinds.logs.line_plan import (
    LAST_ERROR,
    LAST_REPEAT,
)
from cleveragents.application.services.artifact_compression.kinds.logs.streaming import (
    BATCH_LINES,
)
from cleveragents.application.services.artifact_compression.kinds.logs.trouble import (
    TROUBLE_WORDS,
    last_trouble_lines,
    mentions_trouble,
)
from tests.log_samples import info_lines, plan_of, stream_of


@pytest.mark.parametrize(
    "line",
    [
        "INFO nova.api.openstack.wsgi [req-1] HTTP exception thrown: No instances found",
        "RAS KERNEL INFO instruction cache parity error corrected",
        "kernel: Enabling unmasked SIMD FPU exception support... done.",
        "sshd(pam_unix)[123]: authentication failure; logname= uid=0",
        "npm ERR! code ERESOLVE",
        "upstream timed out (110: Connection timed out)",
        "Out of memory: Killed process 4242 (httpd)",
        "FAILED tests/test_a.py::test_b - assert 2 == 1",
        "kernel: oom-kill:constraint=CONSTRAINT_NONE",
        "panic: runtime error: index out of range",
        "Traceback (most recent call last):",
    ],
)
def test_a_trouble_word_at_any_level(line: str) -> None:
    assert mentions_trouble(line)
    assert last_trouble_lines(["INFO started", line, "INFO done"]) != {}


def test_a_word_inside_a_name_is_none_but_the_word_beside_it_is() -> None:
    # `ErrImagePull` is a name, not the word `err`; `Failed` is a word.
    assert set(last_trouble_lines(["Warning  Failed  pod/web ErrImagePull"])) == {"fail"}


@pytest.mark.parametrize(
    "line",
    [
        "java.lang.NullPointerException at Foo.bar",
        "interrupt handler registered",
        "the room is free; zoom level 3",
        "failover_group=a errand=b",
        "INFO Received block blk_123 of size 67108864",
        "",
    ],
)
def test_no_trouble_word(line: str) -> None:
    assert not mentions_trouble(line)
    assert last_trouble_lines([line]) == {}


def test_the_last_line_of_each_word_by_index() -> None:
    lines = [
        "ERROR first",
        "INFO fine",
        "request timed out",
        "Error again",
        "INFO errors: 0",
        "INFO all good",
    ]
    assert last_trouble_lines(lines) == {"err": 4, "timed out": 2}


def test_lines_that_lower_case_to_other_lengths_keep_their_index() -> None:
    # "İ" lower-cases to two characters: the index is counted in lines, not characters.
    lines = ["İİİİ start", "İ fatal here", "ok"]
    assert last_trouble_lines(lines) == {"fatal": 1}


def test_every_word_is_found() -> None:
    words = {stem: stem for stem in TROUBLE_WORDS}
    lines = [f"x {word} y" for word in words.values()]
    assert last_trouble_lines(lines) == {stem: i for i, stem in enumerate(words)}


def test_a_text_full_of_stems_inside_words_is_searched_to_the_word() -> None:
    # Thousands of `err` inside `terr` before the one whole word: the search still finds it.
    lines = ["ERROR here", *(["terr " * 200] * 50)]
    assert last_trouble_lines(lines) == {"err": 0}
    assert last_trouble_lines(["terr " * 5000]) == {}


def test_the_streaming_pass_keeps_the_last_trouble_line_of_an_earlier_batch() -> None:
    # The trouble line is in the first batch, the later batches hold none: its rank stands.
    lines = info_lines(BATCH_LINES * 2 + 10)
    lines[100] = "2024-01-01 10:00:00 INFO api: upstream timed out, serving stale data"
    lines[40] = lines[50] = "2024-01-01 10:00:00 INFO api: cache refused a write"
    streamed = stream_of(lines, budget=200)
    ranks = {line.position: line.priority for line in streamed.lines}
    assert ranks[100] == LAST_ERROR
    assert ranks[50] == LAST_REPEAT  # a repeat, but the last line of another trouble word
    assert plan_of(lines).priorities[100] == LAST_ERROR
    assert plan_of(lines).priorities[50] == LAST_REPEAT
