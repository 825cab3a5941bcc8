"""The vocabulary's kinds added at run time, and the transcript limit read one way for every
driver."""

from __future__ import annotations

import pytest

from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.transcript_limits import (
    MAX_TRANSCRIPT_BYTES,
    MAX_TRANSCRIPT_ENV,
    max_transcript_bytes,
)
from cleveragents.domain.vocabulary import (
    ArtifactKind,
    CompressionMode,
    add_artifact_kind,
    artifact_kind,
    artifact_kind_choices,
    remove_artifact_kind,
)


def test_the_drivers_enum_is_the_domains_until_a_kind_is_added() -> None:
    assert artifact_kind_choices() is ArtifactKind
    add_artifact_kind("table-data", (".tbl",))
    try:
        choices = artifact_kind_choices()
        assert [member.value for member in choices] == [*ArtifactKind, "table-data"]
        assert choices.__name__ == "ArtifactKind"
        assert choices.__doc__ == ArtifactKind.__doc__  # what an MCP client reads
    finally:
        remove_artifact_kind("table-data")
    assert artifact_kind_choices() is ArtifactKind


@pytest.mark.parametrize("name", ["CSV", "", "has space", "x" * 33, "-lead"])
def test_a_kind_name_is_lower_case_and_short(name: str) -> None:
    with pytest.raises(InvalidInputError, match="a kind's name is lower-case"):
        add_artifact_kind(name)


@pytest.mark.parametrize("value", [[1], 3, b"json", None])
def test_a_kind_that_is_no_string_is_refused_as_unknown(value: object) -> None:
    with pytest.raises(InvalidInputError, match="unknown artifact kind"):
        artifact_kind(value)  # type: ignore[arg-type]


def test_the_tiered_modes_former_name_still_reads() -> None:
    assert CompressionMode("seed") is CompressionMode.TIERED


@pytest.mark.parametrize(
    ("configured", "limit"),
    [(None, MAX_TRANSCRIPT_BYTES), ("", MAX_TRANSCRIPT_BYTES), (" 4096 ", 4096), ("1", 1)],
)
def test_the_transcript_limit_is_the_default_or_the_override(
    configured: str | None, limit: int
) -> None:
    environ = {} if configured is None else {MAX_TRANSCRIPT_ENV: configured}
    assert max_transcript_bytes(environ) == limit


@pytest.mark.parametrize("configured", ["lots", "0", "-5", "1.5"])
def test_a_bad_transcript_limit_is_an_error_not_the_default(configured: str) -> None:
    with pytest.raises(InvalidInputError, match=f"got {configured!r}"):
        max_transcript_bytes({MAX_TRANSCRIPT_ENV: configured})
