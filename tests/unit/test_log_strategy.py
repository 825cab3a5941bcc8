"""Unit tests of the log strategy (SPEC C4, seeds/artifact-type-tailored-context.md).

Real data from the loghub collection (logpai/loghub, for research use; Zhu et al., "Loghub: A
Large Collection of System Log Datasets for AI-driven Log Analytics", ISSRE 2023), copied from
`shared/corpus/logs/`: `tests/data/{Apache,OpenSSH,Spark,Zookeeper}_head.log` are the first 200
lines of `<name>_2k.log`, `HDFS_head.log` the first 300 of `HDFS_2k.log`, and
`Hadoop_lines640-1060.log` lines 640 to 1060 of `Hadoop_2k.log` (its first errors and FATAL
lines). The whole shared corpus is also used when it is present. Tracebacks are synthetic.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.logs import (
    LogStrategy,
    Severity,
    classify,
    info_marker,
    is_important,
    line_severity,
)
from cleveragents.application.services.artifact_compression.strategy import Priority
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind

DATA = Path(__file__).resolve().parents[1] / "data"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "logs"
NO_TASK = TaskTerms()
STRATEGY = LogStrategy()
MARKER = re.compile(r"\.\.\. \((\d+) info lines omitted\)")

# One simple, independent pattern per format for the lines the seed must keep.
MUST_KEEP = {
    "Apache": re.compile(r"^\[[^]]+\] \[(?:error|warn|crit|alert|emerg)\]"),
    "HDFS": re.compile(r"^\d{6} \d{6} \d+ (?:WARN|ERROR|FATAL) "),
    "Hadoop": re.compile(r"^\S+ \S+ (?:WARN|ERROR|FATAL) "),
    "OpenSSH": re.compile(r": error: |: fatal: |Failed password|Invalid user"),
    "Spark": re.compile(r"^\S+ \S+ (?:WARN|ERROR|FATAL) "),
    "Zookeeper": re.compile(r" - (?:WARN|ERROR|FATAL) "),
}


def _corpus() -> list[Path]:
    paths = sorted(DATA.glob("*.log"))
    if SHARED.is_dir():
        paths += sorted(SHARED.glob("*.log"))
    return paths


CORPUS = _corpus()


def _format(path: Path) -> str:
    return path.name.split("_", 1)[0]


def _lines(text: str) -> list[str]:
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def test_kind_and_gap_marker() -> None:
    assert STRATEGY.kind is ArtifactKind.LOG
    assert STRATEGY.gap_marker(12) == "... (12 lines omitted)"
    assert info_marker(12) == "... (12 info lines omitted)"


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus(path: Path) -> None:
    text = path.read_text()
    lines = _lines(text)
    out = STRATEGY.tier2(text, NO_TASK)
    out_lines = _lines(out)
    must_keep = Counter(line for line in lines if MUST_KEEP[_format(path)].search(line))
    assert not must_keep - Counter(out_lines)  # every one of them, as often as it occurs
    if _format(path) == "Spark":
        assert not must_keep  # the Spark sample has no warnings: it collapses to almost nothing
        assert len(out_lines) < 30
    else:
        assert must_keep
    assert out_lines[:10] == lines[:10]
    assert out_lines[-10:] == lines[-10:]
    represented = 0
    for line in out_lines:
        match = MARKER.fullmatch(line)
        represented += int(match.group(1)) if match else 1
    assert represented == len(lines)
    assert len(out) < len(text)
    assert out.endswith("\n") == text.endswith("\n")
    assert STRATEGY.tier2(text, NO_TASK) == out


def test_corpus_markers_replace_only_routine_lines() -> None:
    text = (DATA / "HDFS_head.log").read_text()
    lines = _lines(text)
    out_lines = _lines(STRATEGY.tier2(text, NO_TASK))
    position = 0
    for line in out_lines:
        match = MARKER.fullmatch(line)
        if match is None:
            assert lines[position] == line
            position += 1
            continue
        omitted = lines[position : position + int(match.group(1))]
        assert all(" INFO " in routine for routine in omitted)
        position += len(omitted)
    assert position == len(lines)


def routine(count: int, start: int = 0) -> list[str]:
    return [
        f"2024-01-01 10:00:{i % 60:02d} INFO worker: processed job{start + i:04d} of the queue"
        for i in range(count)
    ]


PYTHON_TRACEBACK = [
    "2024-01-01 10:01:00 ERROR worker: batch failed",
    "Traceback (most recent call last):",
    '  File "/app/worker.py", line 12, in run',
    "    result = process(batch)",
    '  File "/app/worker.py", line 30, in process',
    "    raise ValueError(f'bad batch {batch.id}')",
    "ValueError: bad batch 17",
    "",
    "During handling of the above exception, another exception occurred:",
    "",
    "Traceback (most recent call last):",
    '  File "/app/main.py", line 5, in <module>',
    "    main()",
    "RuntimeError: worker crashed",
]
JAVA_STACK = [
    "2024-01-01 10:02:00 ERROR [main] com.acme.Server: request failed",
    "com.acme.RequestFailure: upstream returned 503",
    "\tat com.acme.Client.call(Client.java:88)",
    "\tat com.acme.Server.handle(Server.java:42)",
    "Caused by: java.net.SocketTimeoutException: Read timed out",
    "\tat java.base/java.net.SocketInputStream.read(SocketInputStream.java:168)",
    "\t... 12 more",
]


@pytest.mark.parametrize("trace", [PYTHON_TRACEBACK, JAVA_STACK], ids=["python", "java"])
def test_traces_are_kept_whole(trace: list[str]) -> None:
    lines = routine(30) + trace + routine(30, start=30)
    out_lines = _lines(STRATEGY.tier2("\n".join(lines) + "\n", NO_TASK))
    assert out_lines[11 : 11 + len(trace)] == trace
    assert out_lines[10] == "... (20 info lines omitted)"
    assert out_lines[11 + len(trace)] == "... (20 info lines omitted)"
    # Even the header line of an unlevelled stack trace, found only by what follows it.
    assert all(severity <= Severity.ERROR for _, severity in list(classify(trace))[1:] if _)


def test_task_terms_keep_routine_lines() -> None:
    text = (DATA / "HDFS_head.log").read_text()
    lines = _lines(text)
    line = lines[150]
    block = re.search(r"blk_-?\d+", line)
    assert block is not None
    assert " INFO " in line
    assert line not in _lines(STRATEGY.tier2(text, NO_TASK))
    kept = _lines(STRATEGY.tier2(text, TaskTerms.from_task(block.group(0))))
    assert line in kept
    assert all(block.group(0) in kept_line for kept_line in kept[10:-10] if " INFO " in kept_line)


def test_single_routine_line_is_kept_when_shorter_than_a_marker() -> None:
    head = [f"WARN {i}" for i in range(10)]
    lines = [*head, "ok", "WARN x", "INFO " + "a long routine line" * 3, "WARN y", *head]
    out = _lines(STRATEGY.tier2("\n".join(lines), NO_TASK))
    assert out == [*head, "ok", "WARN x", "... (1 info lines omitted)", "WARN y", *head]


def test_compressing_twice_keeps_the_counts() -> None:
    text = (DATA / "Zookeeper_head.log").read_text()
    once = STRATEGY.tier2(text, NO_TASK)
    twice = STRATEGY.tier2(once, NO_TASK)
    total = sum(int(m.group(1)) if (m := MARKER.fullmatch(line)) else 1 for line in _lines(twice))
    assert total == len(_lines(text))


def test_priorities() -> None:
    lines = [*routine(15), "2024 WARN disk almost full", *JAVA_STACK]
    lines += ["... (7 info lines omitted)", *routine(15, start=15)]
    priorities = STRATEGY.priorities(lines, TaskTerms.from_task("job0017"))
    assert len(priorities) == len(lines)
    assert priorities[:10] == [Priority.USEFUL] * 10
    assert priorities[10:15] == [Priority.CONTEXT] * 5
    assert priorities[15] is Priority.IMPORTANT
    assert priorities[16 : 16 + len(JAVA_STACK)] == [Priority.CRITICAL] * len(JAVA_STACK)
    assert priorities[16 + len(JAVA_STACK)] is Priority.CONTEXT
    assert priorities[-10:] == [Priority.USEFUL] * 10
    term_index = lines.index(routine(15, start=15)[2])  # "processed job0017"
    assert priorities[term_index] is Priority.IMPORTANT


@pytest.mark.parametrize(
    ("line", "severity"),
    [
        ("081109 203615 148 INFO dfs.DataNode$PacketResponder: terminating", Severity.INFO),
        ("081109 203615 148 WARN dfs.FSDataset: Unexpected error", Severity.WARNING),
        ("[Sun Dec 04 04:47:44 2005] [error] mod_jk child workerEnv", Severity.ERROR),
        ("[Sun Dec 04 04:47:44 2005] [notice] jk2_init() Found child 6725", Severity.INFO),
        ("2015-07-29 19:04:29,071 - WARN  [SendWorker:1889] - Send worker", Severity.WARNING),
        ("2015-10-18 18:06:26,029 FATAL [IPC Server handler 13] Task:", Severity.FATAL),
        ("17/06/09 20:10:40 INFO spark.SecurityManager: Changing view acls", Severity.INFO),
        ("Dec 10 07:51:15 LabSZ sshd[24324]: error: Received disconnect", Severity.ERROR),
        ("Dec 10 11:03:53 LabSZ sshd[25457]: fatal: Write failed", Severity.FATAL),
        ("Dec 10 06:55:48 LabSZ sshd[24200]: Failed password for invalid user", Severity.WARNING),
        ("Dec 10 06:55:46 LabSZ sshd[24200]: Invalid user webmaster", Severity.WARNING),
        ("Dec 10 09:32:20 LabSZ sshd[24680]: Received disconnect: 11: Bye", Severity.OTHER),
        ("ERROR:root:something broke", Severity.ERROR),
        ("WARNING:py.warnings:deprecated", Severity.WARNING),
        ("[ERROR] Failed to execute goal", Severity.ERROR),
        ('ts=1 level=error msg="db down"', Severity.ERROR),
        ('{"level": "warn", "msg": "slow"}', Severity.WARNING),
        ("2024 INFO job reported an error: retrying", Severity.INFO),
        ("ValueError: bad batch", Severity.ERROR),
        ("KeyboardInterrupt", Severity.ERROR),
        ("\tat com.acme.Client.call(Client.java:88)", Severity.ERROR),
        ("    at Object.<anonymous> (/app/index.js:3:9)", Severity.ERROR),
        ("Caused by: java.io.IOException: closed", Severity.ERROR),
        ("\t... 12 more", Severity.ERROR),
        ("CRITICAL: out of memory", Severity.FATAL),
        ("the INFORMATION desk", Severity.OTHER),
        ("", Severity.OTHER),
    ],
)
def test_line_severity(line: str, severity: Severity) -> None:
    assert line_severity(line) is severity
    assert is_important(line) == (severity <= Severity.WARNING)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(
                [*PYTHON_TRACEBACK, *JAVA_STACK, "INFO x", "... (3 info lines omitted)", "\r"]
            ),
            st.text(max_size=40),
        ),
        max_size=60,
    ),
    st.booleans(),
)
def test_arbitrary_text(parts: list[str], final_newline: bool) -> None:
    text = "\n".join(parts) + ("\n" if final_newline and parts else "")
    terms = TaskTerms.from_task("job0007 worker")
    out = STRATEGY.tier2(text, terms)
    assert out.endswith("\n") == text.endswith("\n")
    assert out.count("\n") <= text.count("\n")
    assert len(out) <= len(text)
    assert len(STRATEGY.priorities(_lines(out), terms)) == len(_lines(out))
    assert STRATEGY.shrink(text, terms, 1) is None
