"""Vendor credentials known by the name they are assigned to: `DD_API_KEY=<32 hex>`,
`VAULT_TOKEN=s.<24>`, `OKTA_API_TOKEN=00<40>`, `DISCORD_BOT_TOKEN=<id>.<time>.<hmac>`.

Their values have no prefix of their own, so the generic assignment patterns (`token`,
`api-key`, `secret`) find them; `named` wraps those patterns' classifiers: where the name holds
a vendor's word and the value has that vendor's shape, the finding is the vendor's kind, not
`generic-secret`. A value of another shape is left to the generic classifier, and so is a
placeholder (`DD_API_KEY=${DD_API_KEY}`), which it rejects.

Datadog application keys are named `DD_APP_KEY`, `DATADOG_APP_KEY` or `DD-APPLICATION-KEY`
(a header): no generic keyword, so the `_` and `-` passes find those names themselves
(`DATADOG_APP_KEY_NAMES`), and `classify_datadog_app_key` reads the value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cleveragents.adapters.secrets.assignment_names import name_span
from cleveragents.adapters.secrets.pattern_model import Classifier, Hit
from cleveragents.adapters.secrets.secret_values import is_placeholder, is_random
from cleveragents.adapters.secrets.vendor_formats import starts_word
from cleveragents.domain.secrets import SecretKind

# Where an unquoted value ends (code, a query string, a header list).
_VALUE_END = frozenset(b"`,;&<>(){}[]")


@dataclass(frozen=True, slots=True)
class NamedFormat:
    """A vendor's value shape, reported as `kind` where the name holds `word`."""

    word: bytes
    kind: SecretKind
    value: re.Pattern[bytes]


_UUID = rb"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
NAMED_FORMATS: tuple[NamedFormat, ...] = (
    NamedFormat(b"datadog", SecretKind.DATADOG_API_KEY, re.compile(rb"[a-fA-F0-9]{32}")),
    NamedFormat(b"datadog", SecretKind.DATADOG_APP_KEY, re.compile(rb"[a-fA-F0-9]{40}")),
    NamedFormat(b"dd", SecretKind.DATADOG_API_KEY, re.compile(rb"[a-fA-F0-9]{32}")),
    NamedFormat(b"vault", SecretKind.VAULT_TOKEN, re.compile(rb"s\.[A-Za-z0-9]{24}")),
    NamedFormat(b"okta", SecretKind.OKTA_API_TOKEN, re.compile(rb"00[A-Za-z0-9_=-]{40}")),
    NamedFormat(
        b"discord",
        SecretKind.DISCORD_TOKEN,
        # A bot token (the bot's id in base64, a timestamp, an HMAC), or a 64-hex API token.
        re.compile(
            rb"[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}|[a-f0-9]{64}"
        ),
    ),
    NamedFormat(
        b"cloudflare",
        SecretKind.CLOUDFLARE_API_KEY,
        re.compile(rb"[A-Za-z0-9_-]{40}|[a-f0-9]{37}"),
    ),
    NamedFormat(b"heroku", SecretKind.HEROKU_API_KEY, re.compile(_UUID)),
    NamedFormat(
        b"confluent",
        SecretKind.CONFLUENT_API_KEY,
        re.compile(rb"[A-Za-z0-9]{16}|[A-Za-z0-9+/]{64}"),
    ),
)


def name_of(original: bytes, keyword_start: int) -> tuple[int, bytes]:
    """(start, lower-cased name) of the name around the keyword at `keyword_start`: `vault_token`
    in `export VAULT_TOKEN=`, `x-vault-token` in a header. A JSON `\\n` escape before it is no
    part of it."""
    start, end = name_span(original, keyword_start)
    if original[start - 1 : start] == b"\\" and original[start : start + 1] in (b"n", b"r", b"t"):
        start += 1
    return start, original[start:end].lower()


# Whether a name holds any vendor's word (as `_names_vendor` reads it): one search, not one test
# per format (most names a scan meets are no vendor's).
_ANY_VENDOR_WORD = re.compile(
    b"|".join(
        rb"\Add[_-]" if word == b"dd" else re.escape(word)
        for word in dict.fromkeys(each.word for each in NAMED_FORMATS)
    )
)


def _names_vendor(name: bytes, word: bytes) -> bool:
    if word == b"dd":  # `DD_API_KEY`, `dd-api-key`: Datadog's short form, first in the name
        return name.startswith((b"dd_", b"dd-"))
    return word in name


def value_span(original: bytes, match: re.Match[bytes], group: str) -> tuple[int, int]:
    """The span of an assigned value: a quoted one whole, an unquoted one up to punctuation
    that ends a value in code or a query string."""
    start, end = match.span(group)
    for position in range(start, end):
        if original[position] in _VALUE_END:
            return start, position
    return start, end


def named(generic: Classifier, value_group: str = "value") -> Classifier:
    """`generic`, with the vendor's kind first where the name and the value's shape say so."""

    def classify(original: bytes, match: re.Match[bytes]) -> Hit | None:
        if match.start(value_group) != -1:
            hit = _vendor_hit(original, match, value_group)
            if hit is not None:
                return hit
        return generic(original, match)

    return classify


def _vendor_hit(original: bytes, match: re.Match[bytes], value_group: str) -> Hit | None:
    _, name = name_of(original, match.start())
    if _ANY_VENDOR_WORD.search(name) is None:
        return None  # most names are no vendor's: their value need not be read
    start, end = value_span(original, match, value_group)
    value = original[start:end]
    for each in NAMED_FORMATS:
        if _names_vendor(name, each.word) and each.value.fullmatch(value):
            if is_placeholder(value) or not is_random(value, digit=False):
                return None
            return Hit(each.kind, each.kind.value, start, end)
    return None


# The names of a Datadog application key, before its separator (`DD` of `DD_APP_KEY`), and
# the rest of the name after it: for the `_` and `-` passes.
DATADOG_APP_KEY_PREFIXES = (b"DD", b"dd", b"Dd", b"DATADOG", b"datadog", b"Datadog")
_DATADOG_APP_VALUE = re.compile(rb"[a-fA-F0-9]{40}")


def datadog_app_key_names(separator: bytes) -> bytes:
    """`APP_KEY`, `application-key`...: the rest of the name after `DD` and `separator`."""
    return (
        b"(?:APPLICATION|Application|application|APP|App|app)"
        + re.escape(separator)
        + b"(?:KEY|Key|key)"
    )


def classify_datadog_app_key(
    original: bytes, match: re.Match[bytes], value_group: str
) -> Hit | None:
    literal_at = match.start()
    prefix = next((p for p in DATADOG_APP_KEY_PREFIXES if original.endswith(p, 0, literal_at)), b"")
    if not prefix or not starts_word(original, literal_at - len(prefix)):
        return None
    start, end = value_span(original, match, value_group)
    value = original[start:end]
    if not _DATADOG_APP_VALUE.fullmatch(value) or not is_random(value, digit=False):
        return None
    return Hit(SecretKind.DATADOG_APP_KEY, SecretKind.DATADOG_APP_KEY.value, start, end)
