"""Log lines equal but for their digits share their work (severity, masked form) only where no
rule reads a digit's value: the shared result must be what each line gives on its own."""

from __future__ import annotations

import pytest

from cleveragents.application.services.artifact_compression.kinds.logs.digits import (
    digits_as_one,
)
from cleveragents.application.services.artifact_compression.kinds.logs.severity import (
    Severity,
    describe,
    line_severity,
)
from cleveragents.application.services.artifact_compression.kinds.logs.templates import (
    masked_lines,
    template_of,
)

# Pairs of lines with one digits-as-one key whose severities differ by a digit's value.
VALUE_PAIRS = [
    ("<11>sshd: session opened", "<14>sshd: session opened"),  # priority 11 % 8 = 3: error
    ('{"level":50,"msg":"write failed"}', '{"level":30,"msg":"write failed"}'),
    ("lvl=40 msg=retrying", "lvl=20 msg=retrying"),
    ("batch 7: 3 failed", "batch 7: 0 failed"),
    ("Type: 50 source=disk", "Type: 10 source=disk"),
]


@pytest.mark.parametrize(("first", "second"), VALUE_PAIRS)
def test_lines_equal_but_for_digit_values_keep_their_own_severity(first: str, second: str) -> None:
    assert digits_as_one(first) == digits_as_one(second)
    assert line_severity(first) != line_severity(second)
    lines = [first, second, first, second]
    described = [line.severity for line in describe(lines)]
    assert described == [line_severity(line) for line in lines]


def test_lines_equal_but_for_digits_share_a_severity_that_reads_digits_as_a_class() -> None:
    lines = [f"2024-05-0{day} 10:1{day}:00 ERROR disk {day} full" for day in range(1, 8)]
    lines += [f"2024-05-0{day} 10:1{day}:00 INFO disk {day} ok" for day in range(1, 8)]
    described = [line.severity for line in describe(lines)]
    assert described == [Severity.ERROR] * 7 + [Severity.INFO] * 7


def test_masked_lines_are_each_lines_own_template_with_hex_prefixes() -> None:
    # `0x1f` is one hex value, `1x1f` two numbers: their lines share a digits-as-one key only
    # if the 0 is lost, so they must not share a masked form.
    lines = ["fault at 0x1f in task 3", "fault at 1x1f in task 4", "fault at 0x2e in task 5"]
    lines += [f"request {n} took {n * 7}ms" for n in range(50)]
    assert masked_lines(lines) == [template_of(line) for line in lines]
    assert masked_lines(lines)[0] != masked_lines(lines)[1]
