"""Content that changes from run to run and so must never enter a stable prompt prefix.

A provider's prompt cache matches a prefix byte for byte: one timestamp or request id in the
prefix makes every request a cache miss. `find_volatile` finds dates, times, epoch timestamps and
random identifiers in a text; credentials are the secret scanner's business, not this module's.

The rules, chosen so that ordinary instructions are not refused (docs/stable-prefix.md has the
table of examples):
- ISO 8601 dates and date-times (`2026-11-30`, `2026-11-30T13:45:02Z`, `20261130T134502Z`);
  numeric dates with a four-digit year (`2026/11/30`, `11/30/2026`, `30.11.2026`, `30-11-2026`),
  month and day in range. Not refused: year-first dotted forms, which are CalVer versions
  (`2024.8.30`); versions such as `3.11.2`; a date glued to a name by `-` or `_`, which is part
  of that name and does not change (`gpt-4o-2024-08-06`, `release-2026-11-30`).
- Written dates with a year, optionally with a weekday and a time (`Nov 30, 2026`, `30 November
  2026`, `November 2026`, RFC 2822 `Mon, 30 Nov 2026 13:45:02 +0000`). A month and day without a
  year (`Dec 15`) names a recurring day and is allowed; so is a year alone (`since 2019`).
- Times of day with seconds (`13:45:02`), or with minutes and an am/pm marker or a zone
  (`9:30 pm`, `13:45 UTC`). A bare `13:45` is allowed (ratios, `host:8080`-like pairs), and so
  are colon groups inside longer colon-separated runs (IPv6 and MAC addresses).
- Epoch timestamps: a 10, 13, 16 or 19 digit number (seconds, milli-, micro-, nanoseconds)
  between 2001 and 2100, only in a date context: a word such as `created`, `timestamp`,
  `expires` or `built` in the key it belongs to or just before it on the same line. Without that
  context a large number is just a number (a byte limit, a phone number).
- UUIDs in 8-4-4-4-12 form; ULIDs (26 Crockford base-32 characters, first one 0-7, letters and
  digits mixed, one case); hex strings of 32 or more characters (hashes, trace and request ids).
- Random-looking tokens (session and request ids, nonces, JWT parts): see `_random_token`.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from itertools import pairwise


class VolatileKind(StrEnum):
    DATE = "date"
    TIMESTAMP = "timestamp"
    TIME = "time"
    EPOCH_TIMESTAMP = "epoch-timestamp"
    UUID = "uuid"
    ULID = "ulid"
    HEX_ID = "hex-id"
    RANDOM_TOKEN = "random-token"


_NOUNS: dict[VolatileKind, str] = {
    VolatileKind.DATE: "a date",
    VolatileKind.TIMESTAMP: "a timestamp",
    VolatileKind.TIME: "a time of day",
    VolatileKind.EPOCH_TIMESTAMP: "an epoch timestamp",
    VolatileKind.UUID: "a UUID",
    VolatileKind.ULID: "a ULID",
    VolatileKind.HEX_ID: "a long hex identifier",
    VolatileKind.RANDOM_TOKEN: "a random-looking token",
}
_IDENTIFIERS = frozenset(
    {VolatileKind.UUID, VolatileKind.ULID, VolatileKind.HEX_ID, VolatileKind.RANDOM_TOKEN}
)
# Identifiers are shown shortened: some services use UUIDs or random tokens as credentials.
_SHOWN_ID_CHARS = 8


@dataclass(frozen=True, slots=True)
class VolatileFinding:
    """One piece of volatile content: its kind, where it starts (1-based line) and the text."""

    kind: VolatileKind
    line: int
    value: str

    @property
    def excerpt(self) -> str:
        """The value as it may be shown: identifiers cut to their first characters."""
        if self.kind in _IDENTIFIERS and len(self.value) > _SHOWN_ID_CHARS:
            return self.value[:_SHOWN_ID_CHARS] + "…"
        return self.value

    def describe(self) -> str:
        """E.g. ``a date ('2026-11-30') cannot be in a stable prefix: it changes and breaks the
        cache``."""
        why = (
            "it differs from run to run and breaks the cache"
            if self.kind in _IDENTIFIERS
            else "it changes and breaks the cache"
        )
        return f"{_NOUNS[self.kind]} ({self.excerpt!r}) cannot be in a stable prefix: {why}"


# Decides what a regex alone cannot (ranges, context, randomness): the kind, or None.
_Classify = Callable[["re.Match[str]", str, str], "VolatileKind | None"]


@dataclass(frozen=True, slots=True)
class _Rule:
    regex: re.Pattern[str]
    classify: _Classify


def _in_range(value: str | None, low: int, high: int) -> bool:
    return value is not None and low <= int(value) <= high


def _plausible_date(year: str | None, month: str | None, day: str | None) -> bool:
    return (
        _in_range(year, 1900, 2199)
        and _in_range(month, 1, 12)
        and (day is None or _in_range(day, 1, 31))
    )


def _iso(match: re.Match[str], text: str, context: str) -> VolatileKind | None:
    if not _plausible_date(match["y"], match["m"], match["d"]):
        return None
    if match["h"] is None:
        return VolatileKind.DATE
    valid_time = _in_range(match["h"], 0, 24) and _in_range(match["i"], 0, 59)
    return VolatileKind.TIMESTAMP if valid_time else VolatileKind.DATE


def _year_first(match: re.Match[str], text: str, context: str) -> VolatileKind | None:
    return VolatileKind.DATE if _plausible_date(match["y"], match["m"], match["d"]) else None


def _day_month_year(match: re.Match[str], text: str, context: str) -> VolatileKind | None:
    first, second, year = match["a"], match["b"], match["y"]
    plausible = _plausible_date(year, first, second) or _plausible_date(year, second, first)
    return VolatileKind.DATE if plausible else None


def _written(match: re.Match[str], text: str, context: str) -> VolatileKind | None:
    day = match["d1"] or match["d2"]
    if not _in_range(match["y1"] or match["y2"], 1900, 2199) or (
        day is not None and not _in_range(day, 1, 31)
    ):
        return None
    return VolatileKind.TIMESTAMP if match["clock"] else VolatileKind.DATE


def _time(match: re.Match[str], text: str, context: str) -> VolatileKind | None:
    return VolatileKind.TIME


def _uuid(match: re.Match[str], text: str, context: str) -> VolatileKind | None:
    return VolatileKind.UUID


def _hex(match: re.Match[str], text: str, context: str) -> VolatileKind | None:
    return VolatileKind.HEX_ID


_MONTHS = (
    "January|February|March|April|May|June|July|August|September|October|November|December|"
    "Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec"
)
_WEEKDAYS = (
    "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|"
    "Mon|Tues|Tue|Wed|Thurs|Thur|Thu|Fri|Sat|Sun"
)


def _either_case(words: str) -> str:
    """Capitalised (`Nov`) or upper case (`NOV`): lower-case `may` and `sun` are words."""
    return "|".join(w for word in words.split("|") for w in (word, word.upper()))


_MONTH = rf"(?:{_either_case(_MONTHS)})\.?"
_WEEKDAY = rf"(?:(?:{_either_case(_WEEKDAYS)})\.?,?\s)?"
_ORDINAL = r"(?:st|nd|rd|th)?"
_AM_PM = r"\s?[AaPp]\.?[Mm]\.?"
_CLOCK = (
    rf",?\s(?:at\s)?\d{{1,2}}:\d{{2}}(?::\d{{2}})?(?:{_AM_PM})?"
    r"(?:\s?(?:Z|UTC|GMT|[+-]\d{2}:?\d{2}|[A-Z]{3}))?"
)
# Words that make a bare 10-19 digit number an epoch timestamp when they name or precede it.
_DATE_CONTEXT = (
    "time timestamp ts date datetime epoch unix created updated modified generated built build "
    "released expires expire expiry expiration exp iat nbf since until deadline started finished "
    "last now when"
)
_DATE_CONTEXT_WORDS = frozenset(_DATE_CONTEXT.split())
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_EPOCH_CONTEXT_CHARS = 40
_EPOCH_LOW = 1_000_000_000  # 2001-09-09, in seconds
_EPOCH_HIGH = 4_102_444_800  # 2100-01-01


def _words(text: str) -> set[str]:
    """`createdAt`, `created_at` and `Created at` all give {"created", "at"}."""
    return {word.lower() for word in _WORD.findall(text)}


def _epoch(match: re.Match[str], text: str, context: str) -> VolatileKind | None:
    digits = match["n"]
    seconds = int(digits) // 10 ** (len(digits) - 10)
    if not _EPOCH_LOW <= seconds < _EPOCH_HIGH:
        return None
    line_start = text.rfind("\n", 0, match.start()) + 1
    before = text[max(line_start, match.start() - _EPOCH_CONTEXT_CHARS) : match.start()]
    dated = _words(context + " " + before) & _DATE_CONTEXT_WORDS
    return VolatileKind.EPOCH_TIMESTAMP if dated else None


def _ulid(match: re.Match[str], text: str, context: str) -> VolatileKind | None:
    value = match[0]
    one_case = value.isupper() or value.islower()
    mixed = any(c.isalpha() for c in value) and sum(c.isdigit() for c in value) >= 2
    return VolatileKind.ULID if one_case and mixed else None


def _entropy(value: str) -> float:
    length = len(value)
    return -sum(n / length * math.log2(n / length) for n in Counter(value).values())


def _char_class(char: str) -> int:
    return 0 if char.isdigit() else 1 if char.isupper() else 2


# Calibrated on random base64url tokens against the identifiers, model names and base64 data in
# the shared corpus and the installed packages' sources: random tokens change character class at
# about 60% of positions, identifiers much less; words of three letters or more cover most of an
# identifier (`DeepSeekDistillLlama`) and about a third of a random token; names made of several
# separated parts (`Qwen3-Next-80B-A3B-Instruct`) are structured, not random. About one random
# 24-character token in eleven passes unnoticed; a false refusal would be worse.
_MIN_TOKEN_CHARS = 16
_MIN_CLASS_CHANGES = 0.4
_MIN_TOKEN_ENTROPY = 3.5
_MAX_WORD_COVERAGE = 0.65
_MAX_SEPARATORS = 3
_TOKEN_SEPARATORS = re.compile(r"[-_/+]+")
_TOKEN_WORD = re.compile(r"[A-Z][a-z]{2,}|[a-z]{3,}|[A-Z]{3,}(?![a-z])")


def _random_token(match: re.Match[str], text: str, context: str) -> VolatileKind | None:
    value = match[0].rstrip("=")
    if len(_TOKEN_SEPARATORS.findall(value)) > _MAX_SEPARATORS:
        return None
    chars = _TOKEN_SEPARATORS.sub("", value)
    if len(chars) < _MIN_TOKEN_CHARS:
        return None
    classes = [_char_class(c) for c in chars]
    if len(set(classes)) < 3:
        return None
    changes = sum(a != b for a, b in pairwise(classes)) / (len(chars) - 1)
    words = sum(len(word) for word in _TOKEN_WORD.findall(chars)) / len(chars)
    random = (
        changes >= _MIN_CLASS_CHANGES
        and words < _MAX_WORD_COVERAGE
        and _entropy(chars) >= _MIN_TOKEN_ENTROPY
    )
    return VolatileKind.RANDOM_TOKEN if random else None


_HEX = "[0-9a-fA-F]"
_NOT_ALNUM_BEFORE = r"(?<![0-9A-Za-z])"
_NOT_ALNUM_AFTER = r"(?![0-9A-Za-z])"

# In priority order: where matches overlap, the earlier rule wins (a timestamp, not its time).
_RULES: tuple[_Rule, ...] = (
    _Rule(  # ISO 8601 extended: 2026-11-30, 2026-11-30T13:45:02.123+01:00, 2026-11-30 13:45
        re.compile(
            r"(?<![\w.-])(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})"
            r"(?:[T ](?P<h>\d{2}):(?P<i>\d{2})(?::\d{2}(?:[.,]\d+)?)?"
            r"(?:Z|[+-]\d{2}:?\d{2}|\s?UTC)?)?(?!\d)"
        ),
        _iso,
    ),
    _Rule(  # ISO 8601 basic, only with its T: 20261130T134502Z
        re.compile(
            r"(?<!\d)(?P<y>\d{4})(?P<m>\d{2})(?P<d>\d{2})T(?P<h>\d{2})(?P<i>\d{2})"
            r"(?:\d{2})?(?:Z|[+-]\d{4})?(?!\d)"
        ),
        _iso,
    ),
    _Rule(  # Written: Nov 30, 2026; 30 November 2026; November 2026; RFC 2822
        re.compile(
            rf"(?<!\w){_WEEKDAY}(?:(?P<d1>\d{{1,2}}){_ORDINAL}\s{_MONTH},?\s(?P<y1>\d{{4}})"
            rf"|{_MONTH}\s(?:(?P<d2>\d{{1,2}}){_ORDINAL},?\s)?(?P<y2>\d{{4}}))"
            rf"(?P<clock>{_CLOCK})?(?![\w:])"
        ),
        _written,
    ),
    _Rule(  # 2026/11/30 (year first, slashes: dotted year-first forms are CalVer versions)
        re.compile(r"(?<!\d)(?P<y>\d{4})/(?P<m>\d{1,2})/(?P<d>\d{1,2})(?!\d)"),
        _year_first,
    ),
    _Rule(  # 11/30/2026, 30/11/2026, 30.11.2026, 30-11-2026
        re.compile(
            r"(?<![\d.])(?P<a>\d{1,2})(?P<sep>[-/.])(?P<b>\d{1,2})(?P=sep)(?P<y>\d{4})"
            r"(?!\d|\.\d)"
        ),
        _day_month_year,
    ),
    _Rule(  # 13:45:02, 1:45:02 pm, 13:45:02.5Z
        re.compile(
            r"(?<![\w:.])(?:[01]?\d|2[0-3]):[0-5]\d:[0-5]\d(?:[.,]\d{1,9})?"
            rf"(?:{_AM_PM})?(?:Z|[+-]\d{{2}}:?\d{{2}}|\s?(?:UTC|GMT))?(?![\w:])"
        ),
        _time,
    ),
    _Rule(  # 9:30 pm, 13:45 UTC (a bare 13:45 is allowed)
        re.compile(
            r"(?<![\w:.])(?:[01]?\d|2[0-3]):[0-5]\d"
            rf"(?:{_AM_PM}|Z|[+-]\d{{2}}:\d{{2}}|\s?(?:UTC|GMT))(?![\w:])"
        ),
        _time,
    ),
    _Rule(
        re.compile(
            rf"{_NOT_ALNUM_BEFORE}{_HEX}{{8}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{12}}"
            rf"{_NOT_ALNUM_AFTER}"
        ),
        _uuid,
    ),
    _Rule(re.compile(rf"{_NOT_ALNUM_BEFORE}(?:0x)?{_HEX}{{32,}}{_NOT_ALNUM_AFTER}"), _hex),
    _Rule(
        re.compile(
            rf"{_NOT_ALNUM_BEFORE}[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{{25}}{_NOT_ALNUM_AFTER}"
        ),
        _ulid,
    ),
    _Rule(
        re.compile(r"(?<![\w.])(?P<n>\d{10}|\d{13}|\d{16}|\d{19})(?:\.\d{1,9})?(?!\w|\.\d)"),
        _epoch,
    ),
    _Rule(re.compile(r"(?<![\w+/=-])[\w+/-]{20,}={0,2}(?![\w+/=-])", re.ASCII), _random_token),
)


def _matches(text: str, context: str) -> Iterator[tuple[int, int, VolatileKind]]:
    for rule in _RULES:
        for match in rule.regex.finditer(text):
            kind = rule.classify(match, text, context)
            if kind is not None:
                yield match.start(), match.end(), kind


def find_volatile(text: str, *, context: str = "") -> list[VolatileFinding]:
    """Every piece of volatile content in `text`, in order of position.

    `context` names where the text comes from (a fact's key, a schema's path): words such as
    `created_at` there make a bare epoch number count as a timestamp.
    """
    taken: list[tuple[int, int, VolatileKind]] = []
    for start, end, kind in _matches(text, context):
        if all(end <= other_start or start >= other_end for other_start, other_end, _ in taken):
            taken.append((start, end, kind))
    return [
        VolatileFinding(kind=kind, line=text.count("\n", 0, start) + 1, value=text[start:end])
        for start, end, kind in sorted(taken)
    ]
