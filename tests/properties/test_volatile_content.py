"""Volatile content on generated values: every date, timestamp and UUID is found, and ordinary
instructions are never refused."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime

from hypothesis import given
from hypothesis import strategies as st

from cleveragents.domain.volatile_content import VolatileKind, find_volatile
from tests.volatile_samples import kinds


@given(st.dates(min_value=date(1900, 1, 1), max_value=date(2199, 12, 31)))
def test_every_iso_and_written_date_is_found(day: date) -> None:
    assert kinds(f"due {day.isoformat()}.") == [(VolatileKind.DATE, day.isoformat())]
    written = f"{day:%b} {day.day}, {day.year}"
    assert kinds(f"due {written}.") == [(VolatileKind.DATE, written)]


@given(
    st.datetimes(
        min_value=datetime(1900, 1, 1), max_value=datetime(2199, 12, 31), timezones=st.just(UTC)
    )
)
def test_every_iso_datetime_is_one_timestamp(moment: datetime) -> None:
    text = moment.isoformat()
    assert kinds(f"at {text} ok") == [(VolatileKind.TIMESTAMP, text)]


@given(st.uuids())
def test_every_uuid_is_found(value: uuid.UUID) -> None:
    assert [kind for kind, _ in kinds(f"id={value}")] == [VolatileKind.UUID]


# No month names: any month next to a four-digit year is a date (`Dec 2019`), as intended.
_PROSE = (
    "the a tests run before every commit use python 3.11 port 8080 main branch trunk review "
    "never guess read files edit only what you need Keep README.md up to date v2.3.1 pytest -q "
    "ruff mypy strict SQLite WAL mode UTF-8 JSON YAML TOML API HTTP/1.1 localhost:5432 16:9 "
    "make check src/cleveragents/domain 1024 bytes 200000 tokens since 2019 x86_64 "
    "gpt-4o-2024-08-06 claude-sonnet-4-5 o200k_base cl100k_base"
)
_PROSE_WORDS = _PROSE.split()


@given(st.lists(st.sampled_from(_PROSE_WORDS), max_size=40))
def test_ordinary_instructions_are_never_refused(words: list[str]) -> None:
    assert find_volatile(" ".join(words)) == []
