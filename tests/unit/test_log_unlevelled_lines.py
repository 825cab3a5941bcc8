"""Lines without a level column: trouble words, compilers' coded levels, backquoted names."""

from __future__ import annotations

import pytest

from cleveragents.application.services.artifact_compression.kinds.logs.severity import (
    Severity,
    line_severity,
)
from cleveragents.application.services.artifact_compression.kinds.logs.templates import (
    template_ids,
)


@pytest.mark.parametrize(
    ("line", "severity"),
    [
        ("error[E0308]: mismatched types", Severity.ERROR),
        ("warning[unused_imports]: unused import: `std::io`", Severity.WARNING),
        (
            "Jun 14 15:16:01 combo kernel: Out of memory: Killed process 4242 (httpd).",
            Severity.WARNING,
        ),
        ("Jun 14 15:16:01 combo nfslock: rpc.statd startup failed", Severity.WARNING),
        ("Jun 14 15:16:01 combo kernel: nginx[12]: segfault at 0 ip 0 error 4", Severity.WARNING),
        ("Jun 14 15:16:01 combo app[3]: request timed out after 30s", Severity.WARNING),
        ("Jun 14 15:16:01 combo app[3]: no timeout set", Severity.OTHER),
        ("Jun 14 15:16:01 combo app[3]: error[x] is a name, not a level", Severity.WARNING),
        ("panic[3]: is not a coded level", Severity.WARNING),
    ],
)
def test_levels_of_unlevelled_lines(line: str, severity: Severity) -> None:
    assert line_severity(line) is severity


def test_a_backquoted_name_is_a_variable() -> None:
    ids = template_ids(
        [
            "warning: unused variable: `user`",
            "warning: unused variable: `state`",
            "warning: unused import: `state`",
        ]
    )
    assert ids == [0, 0, 1]
