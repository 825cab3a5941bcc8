"""The compressor, tracebacks written in the real layouts, and the plan, stream and lines of a log,
for the unit, property and corpus tests of the log compressor."""

from __future__ import annotations

import re

from cleveragents.application.services.artifact_compression.kinds.kind_compressor import LinePlan
from cleveragents.application.services.artifact_compression.kinds.logs.compressor import (
    LogCompressor,
)
from cleveragents.application.services.artifact_compression.kinds.logs.streaming import (
    LogCandidates,
    collect_log_candidates,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

COMPRESSOR = LogCompressor()


def lines_of(text: str) -> list[str]:
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


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


def plan_of(lines: list[str], task: str | None = None) -> LinePlan:
    return COMPRESSOR.line_plan(lines, TaskTerms.from_task(task))


def info_lines(count: int, start: int = 0) -> list[str]:
    return [
        f"2024-01-01 10:{i % 60:02d}:00 INFO api: served request {start + i}" for i in range(count)
    ]


def stream_of(lines: list[str], budget: int, task: str | None = None) -> LogCandidates:
    return collect_log_candidates(
        iter([f"{line}\r\n" for line in lines]), TaskTerms.from_task(task), budget
    )


MARKER = re.compile(r"\.\.\. \((\d+) info lines omitted\)")
