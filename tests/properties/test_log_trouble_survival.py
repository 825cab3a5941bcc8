"""Smart mode keeps a log's last trouble line and its last error at every ratio, on generated
logs and tool output of random size (the formats of the survival benchmark's generated set)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.generated_logs import FORMATS, generate
from benchmarks.generated_tool_logs import LINE_FORMATS, TOOL_OUTPUTS, tool_output
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.artifact_compressor import (
    ArtifactCompressorService,
)
from cleveragents.container import Container, build_container
from cleveragents.domain.artifact import CompressionMode

# Written here apart from the product's list, as the promise reads: a trouble word, whole, in
# any case, at any level.
TROUBLE = re.compile(
    r"(?<![\w])(?:err(?:ors?)?|exceptions?|fail(?:s|ed|ures?|ing)?|fatal|critical"
    r"|panic(?:s|ked)?|denied|refused|timeouts?|timed out|traceback|abort(?:s|ed|ing)?"
    r"|segfault|oom|killed)(?![\w])",
    re.IGNORECASE,
)
# A line at an error level, in the formats whose level is a plain field.
ERROR_LEVEL = re.compile(
    r"(?:^|\s)(?:ERROR|FATAL|CRITICAL)(?:\s|$)|\[(?:error|crit)\]"
    r'|"level":"(?:error|fatal)"|\blevel=(?:error|fatal)\b'
)
LEVELLED = {"log4j-java", "python-logging", "openstack-nova", "nginx-error", "json-lines", "logfmt"}
# Room left for the omission markers around the kept lines.
MARKER_ROOM = 64
ALL_FORMATS = {fmt.name: fmt for fmt in (*FORMATS, *LINE_FORMATS)}


@pytest.fixture(scope="module")
def container(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Container]:
    home = tmp_path_factory.mktemp("trouble")
    built = build_container(f"sqlite:///{home / 'unused.db'}", home=Path(home))
    yield built
    built.store().dispose()


def _last(pattern: re.Pattern[str], text: str) -> str | None:
    found = [line for line in text.splitlines() if pattern.search(line)]
    return found[-1] if found else None


def _check(
    service: ArtifactCompressorService,
    counter: TokenCounter,
    text: str,
    ratio: float,
    levelled: bool,
) -> None:
    budget = max(int(counter.count(text) / ratio), 1)
    out = service.compress_text("run.log", text, budget, mode=CompressionMode.SMART).content
    kept = set(out.splitlines())
    wanted = [_last(TROUBLE, text)] + ([_last(ERROR_LEVEL, text)] if levelled else [])
    lines = [line for line in wanted if line is not None]
    if sum(counter.count(line) for line in set(lines)) + MARKER_ROOM <= budget:
        for line in lines:
            assert line in kept, (line, ratio)
    assert counter.count(out) <= budget


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.sampled_from(sorted(ALL_FORMATS)),
    st.integers(min_value=30, max_value=600),
    st.integers(min_value=0, max_value=10**6),
    st.floats(min_value=1.2, max_value=20.0),
)
def test_generated_logs_keep_their_last_trouble_line_and_last_error(
    container: Container, name: str, lines: int, seed: int, ratio: float
) -> None:
    text = generate(ALL_FORMATS[name], lines, seed=seed).text
    service, counter = container.artifact_compressor_service(), container.token_counter()
    _check(service, counter, text, ratio, name in LEVELLED)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.sampled_from(sorted(TOOL_OUTPUTS)),
    st.integers(min_value=20, max_value=400),
    st.integers(min_value=0, max_value=10**6),
    st.floats(min_value=1.2, max_value=20.0),
)
def test_tool_output_keeps_its_last_trouble_line(
    container: Container, tool: str, lines: int, seed: int, ratio: float
) -> None:
    text = tool_output(tool, lines, seed)
    service, counter = container.artifact_compressor_service(), container.token_counter()
    _check(service, counter, text, ratio, levelled=False)
