"""Unit tests of the log compressor, `LogCompressor`: its Tier 2, streaming and line plan.

Real data from the loghub collection (logpai/loghub, for research use; Zhu et al., "Loghub: A
Large Collection of System Log Datasets for AI-driven Log Analytics", ISSRE 2023), copied from
`shared/corpus/logs/`: `tests/data/{Apache,OpenSSH,Spark,Zookeeper}_head.log` are the first 200
lines of `<name>_2k.log`, `HDFS_head.log` the first 300 of `HDFS_2k.log`, and
`Hadoop_lines640-1060.log` lines 640 to 1060 of `Hadoop_2k.log` (its first errors and FATAL
lines). The whole shared corpus: tests/integration/test_log_compressor_corpus.py. Tracebacks and
the sample lines of the other formats are written for these tests in the formats' real layouts.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cleveragents.application.services.artifact_compression.kinds.logs.compressor import info_marker
from cleveragents.application.services.artifact_compression.kinds.logs.line_plan import (
    ERROR_REPEAT,
    FIRST_ERROR,
    FIRST_ROUTINE,
    FIRST_WARNING,
    LAST_ERROR,
    LAST_REPEAT,
    LONG_LINE_CHARS,
    ROUTINE_REPEAT,
    WARNING_REPEAT,
    short_form,
)
from cleveragents.application.services.artifact_compression.kinds.logs.severity import (
    LineKind,
    Severity,
    classify,
    describe,
    is_important,
    line_severity,
)
from cleveragents.application.services.artifact_compression.kinds.logs.streaming import (
    CHARS_PER_TOKEN,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind
from tests.log_samples import (
    COMPRESSOR,
    JAVA_STACK,
    MARKER,
    PYTHON_TRACEBACK,
    info_lines,
    lines_of,
    plan_of,
    stream_of,
)

DATA = Path(__file__).resolve().parents[1] / "data"
NO_TASK = TaskTerms()


def test_kind_and_markers() -> None:
    assert COMPRESSOR.kind is ArtifactKind.LOG
    assert COMPRESSOR.marker("lines 120-340") == "[… lines 120-340]"
    assert info_marker(12) == "... (12 info lines omitted)"


def test_corpus_markers_replace_only_routine_lines() -> None:
    text = (DATA / "HDFS_head.log").read_text()
    lines = lines_of(text)
    out_lines = lines_of(COMPRESSOR.tier2(text, NO_TASK))
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


@pytest.mark.parametrize("trace", [PYTHON_TRACEBACK, JAVA_STACK], ids=["python", "java"])
def test_traces_are_kept_whole(trace: list[str]) -> None:
    lines = routine(30) + trace + routine(30, start=30)
    out_lines = lines_of(COMPRESSOR.tier2("\n".join(lines) + "\n", NO_TASK))
    assert out_lines[11 : 11 + len(trace)] == trace
    assert out_lines[10] == "... (20 info lines omitted)"
    assert out_lines[11 + len(trace)] == "... (20 info lines omitted)"
    # Even the header line of an unlevelled stack trace, found only by what follows it.
    assert all(severity <= Severity.ERROR for _, severity in list(classify(trace))[1:] if _)


def test_task_terms_keep_routine_lines() -> None:
    text = (DATA / "HDFS_head.log").read_text()
    lines = lines_of(text)
    line = lines[150]
    block = re.search(r"blk_-?\d+", line)
    assert block is not None
    assert " INFO " in line
    assert line not in lines_of(COMPRESSOR.tier2(text, NO_TASK))
    kept = lines_of(COMPRESSOR.tier2(text, TaskTerms.from_task(block.group(0))))
    assert line in kept
    assert all(block.group(0) in kept_line for kept_line in kept[10:-10] if " INFO " in kept_line)


def test_single_routine_line_is_kept_when_shorter_than_a_marker() -> None:
    head = [f"WARN {i}" for i in range(10)]
    lines = [*head, "ok", "WARN x", "INFO " + "a long routine line" * 3, "WARN y", *head]
    out = lines_of(COMPRESSOR.tier2("\n".join(lines), NO_TASK))
    assert out == [*head, "ok", "WARN x", "... (1 info lines omitted)", "WARN y", *head]


def test_compressing_twice_keeps_the_counts() -> None:
    text = (DATA / "Zookeeper_head.log").read_text()
    once = COMPRESSOR.tier2(text, NO_TASK)
    twice = COMPRESSOR.tier2(once, NO_TASK)
    total = sum(int(m.group(1)) if (m := MARKER.fullmatch(line)) else 1 for line in lines_of(twice))
    assert total == len(lines_of(text))


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


# --- Levels in the common formats (smart mode and Tier 2 alike) ------------------------------

FORMAT_LINES: dict[str, list[tuple[str, Severity]]] = {
    "android logcat": [
        ("03-17 16:13:38.811  1702  2395 D WindowManager: printFreezingDisplayLogs", Severity.INFO),
        (
            "03-17 16:13:38.866  1702  8671 I PowerManagerService: Waking up from sleep",
            Severity.INFO,
        ),
        ("03-17 16:13:39.001  1702  1702 V ActivityManager: Bringing down service", Severity.INFO),
        (
            "03-17 16:14:02.034   702 12395 W ActivityManager: Slow operation: 52ms",
            Severity.WARNING,
        ),
        ("03-17 16:15:11.120  2120  2120 E AndroidRuntime: FATAL EXCEPTION: main", Severity.ERROR),
        ("03-17 16:15:11.121  2120  2120 F libc    : Fatal signal 11 (SIGSEGV)", Severity.FATAL),
        ("03-17 16:15:11.122  2120  2120 A DEBUG   : Abort message: 'assertion'", Severity.FATAL),
        ("E/AndroidRuntime( 2120): java.lang.NullPointerException", Severity.ERROR),
        ("W/InputMethodManager(  585): Ignoring onBind: cur seq=42", Severity.WARNING),
        ("I/ActivityManager(  585): Start proc com.android.mms for broadcast", Severity.INFO),
    ],
    "syslog": [
        ("Jun 14 15:16:01 combo sshd(pam_unix)[19939]: check pass; user unknown", Severity.OTHER),
        ("Jun 14 15:16:02 combo sshd[19939]: error: PAM: authentication error", Severity.ERROR),
        ("<34>Oct 11 22:14:15 mymachine su: 'su root' failed for lonvick", Severity.FATAL),
        ("<13>Feb  5 17:32:18 10.0.0.99 myapp: use the BFG!", Severity.INFO),
        (
            "<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog - ID47 - event",
            Severity.INFO,
        ),
        ("<11>1 2003-10-11T22:14:15.003Z host app 4211 - - disk quota exceeded", Severity.ERROR),
        ("<12>1 2003-10-11T22:14:15.003Z host app 4211 - - disk almost full", Severity.WARNING),
    ],
    "log4j and java": [
        (
            "2015-10-18 18:01:47,978 INFO [main] org.apache.hadoop.App: Created MRAppMaster",
            Severity.INFO,
        ),
        (
            "2015-10-18 18:05:12,004 WARN [LeaseRenewer] org.apache.hadoop.Client: retry",
            Severity.WARNING,
        ),
        (
            "2015-10-18 18:06:26,029 ERROR [IPC Server handler 13] org.apache.Task: lost",
            Severity.ERROR,
        ),
        (
            "18-Oct-2015 18:01:47.978 SEVERE [main] org.apache.catalina.Startup: failed",
            Severity.FATAL,
        ),
        ("SEVERE: Error listenerStart", Severity.FATAL),
        ("WARNING: An illegal reflective access operation has occurred", Severity.WARNING),
    ],
    "python logging": [
        ("ERROR:root:something broke", Severity.ERROR),
        ("WARNING:py.warnings:deprecated", Severity.WARNING),
        ("INFO:uvicorn.access:127.0.0.1 - GET / 200", Severity.INFO),
        ("2024-01-01 12:00:00,123 - ingest.db - WARNING - Slow query (3.4s)", Severity.WARNING),
        ("2024-01-01 12:00:00,123 - ingest.http - CRITICAL - Unhandled exception", Severity.FATAL),
        (
            "2024-01-01 12:00:00,123 - ingest.pipeline - ERROR - Failed to parse record 42",
            Severity.ERROR,
        ),
    ],
    "windows cbs": [
        (
            "2016-09-28 04:30:30, Info                  CBS    Loaded Servicing Stack v6.1.7601",
            Severity.INFO,
        ),
        (
            "2016-09-28 04:30:31, Info                  CSI    00000001@2016/9/28:20:30:31.455",
            Severity.INFO,
        ),
        (
            "2016-09-28 04:30:32, Warning               CBS    Failed to get next element",
            Severity.WARNING,
        ),
        (
            "2016-09-28 04:30:33, Error                 CBS    Failed to process package",
            Severity.ERROR,
        ),
    ],
    "windows events": [
        ("Level: Error", Severity.ERROR),
        ("  Level: Information", Severity.INFO),
        ("Type: Warning", Severity.WARNING),
        ("EntryType          : Error", Severity.ERROR),
        (
            "Error,9/28/2016 4:30:30 AM,Service Control Manager,7000,None,The service failed",
            Severity.ERROR,
        ),
        (
            "Information,9/28/2016 4:30:30 AM,Service Control Manager,7036,None,Started",
            Severity.INFO,
        ),
        ("Warning\t9/28/2016 4:30:30 AM\tDisk\t51\tNone\tAn error was detected", Severity.WARNING),
        (
            "9/28/2016 4:30:30 AM          7000 Error            The Spooler service stopped",
            Severity.ERROR,
        ),
    ],
    "hadoop family": [
        ("081109 203615 148 INFO dfs.DataNode$PacketResponder: terminating", Severity.INFO),
        ("081109 203615 148 WARN dfs.FSDataset: Unexpected error", Severity.WARNING),
        ("17/06/09 20:10:40 INFO spark.SecurityManager: Changing view acls", Severity.INFO),
        ("17/06/09 20:11:02 ERROR executor.Executor: Exception in task 0.0", Severity.ERROR),
        ("2015-07-29 19:04:29,071 - WARN  [SendWorker:1889] - Send worker", Severity.WARNING),
        ("2015-10-18 18:06:26,029 FATAL [IPC Server handler 13] Task:", Severity.FATAL),
    ],
    "lower-case word and colon": [
        (
            "[10.30 16:49:07] chrome.exe - proxy.cse.cuhk.edu.hk:5070 error : Could not connect "
            "through proxy proxy.cse.cuhk.edu.hk:5070",
            Severity.ERROR,
        ),
        (
            "[10.30 16:49:06] chrome.exe - proxy.cse.cuhk.edu.hk:5070 open through proxy "
            "proxy.cse.cuhk.edu.hk:5070 HTTPS",
            Severity.OTHER,
        ),
        (
            "[10.30 17:02:11] Dropbox.exe - block.dropbox.com:443 warning : slow handshake",
            Severity.WARNING,
        ),
        ("460810 node-230 node boot 1084266961 0 error : boot (command 5) failed", Severity.ERROR),
        (
            "460811 node-246 node temperature 1084266962 0 warning : ambient=41 above 40",
            Severity.WARNING,
        ),
        ("460812 node-246 node status 1084266963 1 running", Severity.OTHER),
        ("src/parser.c:12:5: error: expected ';' before '}' token", Severity.ERROR),
    ],
    "nginx and apache": [
        (
            '2023/01/01 12:00:00 [error] 123#0: *1 open() "/usr/share/nginx/html/x" failed',
            Severity.ERROR,
        ),
        ("2023/01/01 12:00:01 [crit] 123#0: *2 SSL_do_handshake() failed", Severity.FATAL),
        ("2023/01/01 12:00:02 [alert] 123#0: worker process 99 exited on signal 9", Severity.FATAL),
        ("2023/01/01 12:00:03 [emerg] 123#0: bind() to 0.0.0.0:80 failed", Severity.FATAL),
        ("2023/01/01 12:00:04 [warn] 123#0: *3 an upstream response is buffered", Severity.WARNING),
        ("2023/01/01 12:00:05 [notice] 123#0: signal process started", Severity.INFO),
        (
            "[Sun Dec 04 04:47:44 2005] [error] mod_jk child workerEnv in error state 6",
            Severity.ERROR,
        ),
        ("[Sun Dec 04 04:47:44 2005] [notice] jk2_init() Found child 6725", Severity.INFO),
        (
            "[Wed Oct 11 14:32:52.123456 2000] [core:error] [pid 35708:tid 4328636416] [client "
            "72.15.99.187] File does not exist",
            Severity.ERROR,
        ),
        (
            "[Wed Oct 11 14:32:52.123456 2000] [proxy:warn] [pid 1] AH01144: No protocol handler",
            Severity.WARNING,
        ),
        ("[Wed Oct 11 14:32:52.123456 2000] [ssl:trace3] [pid 1] handshake done", Severity.INFO),
    ],
    "bgl and thunderbird": [
        (
            "- 1117838570 2005.06.03 R02-M1-N0-C:J12-U11 2005-06-03-15.42.50.675872 "
            "R02-M1-N0-C:J12-U11 RAS KERNEL INFO instruction cache parity error corrected",
            Severity.INFO,
        ),
        (
            "KERNDTLB 1118536327 2005.06.11 R30-M0-N9-C:J16-U01 2005-06-11-15.32.07.123 "
            "R30-M0-N9-C:J16-U01 RAS KERNEL FATAL data TLB error interrupt",
            Severity.FATAL,
        ),
        (
            "- 1131566461 2005.11.09 dn228 Nov 9 12:01:01 dn228/dn228 crond(pam_unix)[2915]: "
            "session closed for user root",
            Severity.OTHER,
        ),
    ],
    "no level": [
        ("20171223-22:15:29:606|Step_LSC|30002312|onStandStepChanged 3579", Severity.OTHER),
        (
            "Jul  1 09:00:55 calvisitor-10-105-160-95 kernel[0]: IOThunderboltSwitch<0>(0x0)::"
            "listenerCallback - Thunderbolt HPD packet for route = 0x0 port = 11",
            Severity.OTHER,
        ),
    ],
    "others": [
        ("E0101 12:00:00.123456    1234 controller.go:123] sync failed", Severity.ERROR),
        ("I0101 12:00:00.123456    1234 controller.go:123] synced", Severity.INFO),
        ("E: Unable to locate package foo", Severity.ERROR),
        ("PHP Warning:  Undefined variable $x in /var/www/a.php on line 3", Severity.WARNING),
        ("PHP Fatal error:  Uncaught Error: Call to undefined function", Severity.FATAL),
        ('{"level":50,"time":1,"msg":"db down"}', Severity.ERROR),
        ('{"level":30,"time":1,"msg":"ok"}', Severity.INFO),
        ("time=2024-01-01 lvl=eror msg=boom", Severity.ERROR),
        ("Jul  1 09:01:05 host Safari[123] <Error>: CGContextRestoreGState", Severity.ERROR),
        (
            "2024-01-01T12:00:00.1Z 0 [Warning] [MY-010068] [Server] CA certificate is self signed",
            Severity.WARNING,
        ),
        ("[2024-01-01T12:00:00Z ERROR my_crate] failed", Severity.ERROR),
        ("2024-01-01T12:00:00.000Z  WARN my_crate::db: slow", Severity.WARNING),
    ],
    "false alarms": [
        ("2024-01-01 12:00:00,123 - error_handler - INFO - request handled", Severity.INFO),
        ("INFO:error_handler:request done", Severity.INFO),
        ("2024-01-01 10:00:00 INFO [error_handler] handled", Severity.INFO),
        ("Dec  1 10:00:00 host make: Build finished: 0 errors, 3 warnings", Severity.OTHER),
        ("Dec  1 10:00:00 host ci: 10 passed, 0 failed", Severity.OTHER),
        ("Dec  1 10:00:00 host ci: no failures", Severity.OTHER),
        ("Dec  1 10:00:00 host app: Information: the disk is fine", Severity.INFO),
        ("Dec  1 10:00:00 host app: more Information in the manual", Severity.OTHER),
        ("Dec  1 10:00:00 host app: a Warning, or a Notice, is shown", Severity.OTHER),
        ("the INFORMATION desk", Severity.OTHER),
        ("content-type: text/html", Severity.OTHER),
        ("2024 INFO job reported an error: retrying", Severity.INFO),
    ],
}


@pytest.mark.parametrize(
    ("line", "severity"),
    [
        pytest.param(line, severity, id=f"{name}: {line[:40]}")
        for name, cases in FORMAT_LINES.items()
        for line, severity in cases
    ],
)
def test_levels_of_the_common_formats(line: str, severity: Severity) -> None:
    assert line_severity(line) is severity


def test_an_unlevelled_failure_report_is_a_warning() -> None:
    assert line_severity("Mar  3 10:34:49 web01 kernel: EXT4-fs error (device sda4)") is (
        Severity.WARNING
    )
    assert line_severity("Dec  1 10:00:00 host ci: 10 passed, 1 failed") is Severity.WARNING


def test_kinds_of_trace_lines() -> None:
    kinds = [line.kind for line in describe(PYTHON_TRACEBACK[:7])]
    assert kinds == [
        LineKind.ENTRY,  # the levelled error heads its traceback
        LineKind.DETAIL,
        LineKind.DETAIL,
        LineKind.DETAIL,
        LineKind.DETAIL,
        LineKind.DETAIL,
        LineKind.EXCEPTION,
    ]
    java = [line.kind for line in describe(JAVA_STACK)]
    assert java == [
        LineKind.ENTRY,
        LineKind.EXCEPTION,  # the unlevelled line above the first frame
        LineKind.DETAIL,
        LineKind.DETAIL,
        LineKind.EXCEPTION,  # Caused by: ...
        LineKind.DETAIL,
        LineKind.DETAIL,
    ]


# --- Smart mode's ranks -----------------------------------------------------------------------


def test_templates_before_repeats() -> None:
    noisy = [
        f"2024-01-01 11:{i:02d}:00 WARN pool: connection {i} slow, 40{i} ms" for i in range(16)
    ]
    rare = "2024-01-01 11:30:00 WARN cache: eviction storm on shard 3"
    lines = [*info_lines(20), *noisy[:8], rare, *noisy[8:], *info_lines(20, start=20)]
    plan = plan_of(lines)
    ranks = plan.priorities
    first_noisy, rare_at = 20, 28
    repeats = [index for index in range(20, 37) if index not in (first_noisy, rare_at)]
    assert ranks[first_noisy] == ranks[rare_at] == FIRST_WARNING
    assert all(ranks[index] > FIRST_ROUTINE for index in repeats)
    assert ranks[repeats[-1]] == LAST_REPEAT  # the last time it showed
    assert all(ranks[index] == WARNING_REPEAT for index in repeats[:-1])
    assert ranks[10] == ROUTINE_REPEAT  # a repeated routine line ranks after all of them
    assert plan.templates is not None
    assert len({plan.templates[index] for index in (first_noisy, *repeats)}) == 1
    assert plan.templates[rare_at] != plan.templates[first_noisy]
    assert plan.templates[0] == plan.templates[15]  # routine lines: one message too
    assert plan.templates[0] != plan.templates[first_noisy]


def test_routine_lines_rank_after_every_first_occurrence() -> None:
    lines = [
        *info_lines(30),
        "2024-01-01 10:31:00 INFO api: cache warmed in 12 ms",
        *info_lines(30, 30),
    ]
    ranks = plan_of(lines).priorities
    assert ranks[:10] == [FIRST_ROUTINE] * 10  # the first lines
    assert ranks[10:30] == [ROUTINE_REPEAT] * 20
    assert ranks[30] == FIRST_ROUTINE  # another message
    assert ranks[-10:] == [FIRST_ROUTINE] * 10  # the last lines


def test_the_last_error_is_always_kept() -> None:
    error = "2024-01-01 10:40:00 ERROR db: connection lost to 10.0.0.5:5432"
    later = "2024-01-01 10:50:00 ERROR db: connection lost to 10.0.0.6:5432"
    lines = [*info_lines(20), error, *info_lines(20, 20), later, *info_lines(30, 40)]
    ranks = plan_of(lines).priorities
    assert ranks[20] == FIRST_ERROR
    assert ranks[41] == LAST_ERROR  # a repeat, but the last error of the log
    assert ranks.count(LAST_ERROR) == 1


def test_a_traceback_follows_its_error() -> None:
    other = [
        "2024-01-01 10:05:00 ERROR worker: batch failed",
        "Traceback (most recent call last):",
        '  File "/app/worker.py", line 44, in run',
        "    result = process(batch)",
        "ValueError: bad batch 23",
    ]
    lines = [*info_lines(15), *PYTHON_TRACEBACK, *info_lines(15, 15), *other, *info_lines(15, 30)]
    ranks = plan_of(lines).priorities
    first = ranks[15 : 15 + len(PYTHON_TRACEBACK)]
    assert first[0] == FIRST_ERROR  # the error
    assert first[1] == FIRST_ERROR  # where its traceback starts
    assert first[6] == FIRST_ERROR  # what went wrong
    assert set(first[2:6]) == {FIRST_WARNING}  # the frames, right after
    assert first[-1] == FIRST_ERROR  # the chained exception
    again = ranks[15 + len(PYTHON_TRACEBACK) + 15 :][: len(other)]
    assert again[0] == LAST_ERROR  # the same message: but the last levelled error
    assert again[4] == LAST_ERROR  # ... and the last exception of the log
    assert again[1] == LAST_ERROR  # its header is the last line that names trouble
    assert again[2:4] == [ERROR_REPEAT] * 2  # the rest of a repeated traceback is context


def test_task_lines_rank_with_warnings_once_per_template() -> None:
    lines = info_lines(50)
    for index in (20, 25, 30):
        lines[index] = f"2024-01-01 10:{index}:00 INFO cache: evicted key user{index}"
    ranks = plan_of(lines, "why is the cache slow").priorities
    assert ranks[20] == FIRST_WARNING  # the first line naming the task
    assert ranks[25] == ranks[30] == ERROR_REPEAT  # the others, with the errors' repeats
    assert plan_of(lines).priorities[25] == ROUTINE_REPEAT


def test_a_long_line_is_kept_as_its_head_first() -> None:
    huge = "2024-01-01 10:30:00 ERROR api: payload rejected " + "x" * 20_000
    lines = [*info_lines(15), huge, *info_lines(15, 15)]
    plan = plan_of(lines)
    short = plan.short_forms[15]
    assert short.text == short_form(huge)
    assert short.text.endswith(" …")
    assert len(short.text) < 310
    assert short.priority == LAST_ERROR
    assert plan.priorities[15] > LAST_ERROR  # the whole line only later
    assert all(len(lines[index]) > LONG_LINE_CHARS for index in plan.short_forms)


def test_earlier_markers_rank_last() -> None:
    lines = [
        *info_lines(12),
        "... (7 info lines omitted)",
        "... (lines 20-30 omitted)",
        *info_lines(12),
    ]
    ranks = plan_of(lines).priorities
    assert ranks[12] == ranks[13] == ROUTINE_REPEAT


# --- The streaming collector for logs too large to hold --------------------------------------


def test_streaming_keeps_the_last_error_of_a_long_log_in_bounded_memory() -> None:
    noisy = [f"2024-01-01 11:{i % 60:02d}:00 WARN pool: connection {i} slow" for i in range(500)]
    lines = [*info_lines(20_000), *noisy, *info_lines(20_000, 20_000)]
    lines.append("2024-01-01 12:00:00 ERROR db: the very last error")
    lines += info_lines(5)
    streamed = stream_of(lines, budget=50)
    assert streamed.total_lines == len(lines)
    last = [line for line in streamed.lines if line.priority == LAST_ERROR]
    assert [line.text for line in last] == ["2024-01-01 12:00:00 ERROR db: the very last error"]
    ranks = {line.priority for line in streamed.lines}
    # Each rank holds the first and the last of its lines up to the budget's worth of
    # characters; the ends of the log and the last errors come on top.
    limit = 50 * CHARS_PER_TOKEN
    assert sum(len(line.text) for line in streamed.lines) <= (2 * len(ranks) + 3) * limit + 4000
    assert streamed.lines == sorted(streamed.lines)
    first_warning = [line for line in streamed.lines if line.priority == FIRST_WARNING]
    assert [line.position for line in first_warning] == [20_000]


def test_streaming_tells_how_far_a_run_of_repeats_reaches() -> None:
    repeated = [f"2024-01-01 11:00:{i:02d} WARN pool: connection {i} slow" for i in range(30)]
    lines = [*info_lines(12), *repeated, *info_lines(12, 12)]
    run_ends = stream_of(lines, budget=10**5).run_ends
    assert run_ends[12] == 12 + 29  # the whole run of the same message
    assert run_ends[20] == 12 + 29
    assert run_ends[42] == 42 + 11  # the routine lines after it: one run too
    assert run_ends[0] == 11


def test_streaming_long_lines() -> None:
    long_line = "2024-01-01 10:30:00 ERROR api: payload rejected " + "y" * 2_000
    huge = "2024-01-01 10:31:00 ERROR api: dump " + "z" * 20_000
    lines = [*info_lines(15), long_line, *info_lines(5, 15), huge, *info_lines(15, 20)]
    candidates = stream_of(lines, budget=1_000)
    streamed = {line.position: line for line in candidates.lines}
    assert candidates.short_forms[15].text == short_form(long_line)
    assert candidates.short_forms[15].priority == FIRST_ERROR
    assert streamed[15].text == long_line
    assert streamed[15].priority == FIRST_ERROR + 3
    assert streamed[21].text == short_form(huge)  # never fits whole: its head only
    assert candidates.heads_only == {21}
    assert streamed[21].priority == LAST_ERROR
