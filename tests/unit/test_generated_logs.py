"""The survival benchmark's generated logs: the same bytes every run, each format's own levels."""

from __future__ import annotations

import re

import pytest

from benchmarks.generated_logs import (
    ERROR_COUNTS,
    FORMATS,
    LINES,
    WARNING_COUNTS,
    GeneratedLog,
    generate,
    generate_all,
)

# A warning line and an error line as each format writes them (written here, apart from the
# benchmark's own rules, so that the two can disagree).
LEVELS = {
    "android-logcat": (r"^\d\d-\d\d [\d:.]+ +\d+ +\d+ W ", r"^\d\d-\d\d [\d:.]+ +\d+ +\d+ [EF] "),
    "hpc": (r" \d warning : ", r" \d error : "),
    "proxifier": (r" warning : ", r" error : "),
    "openstack-nova": (
        r"^nova-\S+ [\d-]+ [\d:.]+ \d+ WARNING ",
        r"^nova-\S+ [\d-]+ [\d:.]+ \d+ ERROR ",
    ),
    "windows-cbs": (r"^[\d-]+ [\d:]+, Warning {15}\w", r"^[\d-]+ [\d:]+, Error {17}\w"),
    "bgl": (r" RAS \w+ WARNING ", r" RAS \w+ (?:FATAL|SEVERE|FAILURE) "),
    "linux-syslog": (r"\]: [Ww]arning: ", r"EXT4-fs error|\]: error: |\]: segfault |\[ERROR\]"),
    "nginx-error": (r"^[\d/]+ [\d:]+ \[warn\] ", r"^[\d/]+ [\d:]+ \[(?:error|crit)\] "),
    "log4j-java": (r"^[\d-]+ [\d:,]+ WARN  \[", r"^[\d-]+ [\d:,]+ ERROR \["),
    "python-logging": (r" - WARNING - ", r" - (?:ERROR|CRITICAL) - "),
}


@pytest.fixture(scope="module")
def logs() -> dict[str, GeneratedLog]:
    return {log.format: log for log in generate_all()}


def test_every_format_is_generated(logs: dict[str, GeneratedLog]) -> None:
    assert set(logs) == set(LEVELS) == {fmt.name for fmt in FORMATS}
    assert len({log.name for log in logs.values()}) == len(FORMATS)


def test_the_same_bytes_every_run(logs: dict[str, GeneratedLog]) -> None:
    assert [log.text for log in generate_all()] == [log.text for log in logs.values()]


@pytest.mark.parametrize("name", sorted(LEVELS))
def test_a_format_writes_its_own_warnings_and_errors(
    logs: dict[str, GeneratedLog], name: str
) -> None:
    lines = logs[name].text.splitlines()
    warning, error = (re.compile(pattern) for pattern in LEVELS[name])
    errors = [i for i, line in enumerate(lines) if error.search(line)]
    assert sum(1 for line in lines if warning.search(line)) == sum(WARNING_COUNTS)
    assert len(errors) == sum(ERROR_COUNTS) + 1
    # The last error is late, but not the last line: something follows it.
    assert 0.8 * len(lines) < errors[-1] < 0.95 * len(lines)
    assert LINES <= len(lines) <= LINES * 1.1


def test_the_repeated_warning_and_the_rare_one() -> None:
    fmt = FORMATS[0]
    text = generate(fmt).text
    first, rare = fmt.warnings[0].message, fmt.warnings[-1].message
    assert text.count(first.split("{", 1)[0]) == WARNING_COUNTS[0] == 16
    assert text.count(rare.split("{", 1)[0]) == WARNING_COUNTS[-1] == 1
