"""Whether a matched value looks like a credential: entropy, placeholders, shapes of code.

Placeholders are not credentials: values starting with `$`, `%`, `{`, `<`, `[` or `(` (`$VAR`,
`${VAR}`, `%s`, `{password}`, `<token>`), masks made only of `*x.#-_`, values of fewer than four
distinct bytes (`ghp_000...`, `AKIAXXXX...`), the words in `PLACEHOLDER_WORDS` and values
containing a word of `_PLACEHOLDER_MARKERS` (`example`, which also covers AWS's documented example
keys, `changeme`, `your-`, `your_`, `xxxx`...) or naming what they stand for (`my_token`).
"""

from __future__ import annotations

import math
import re
from collections import Counter

MIN_ENTROPY_BITS = 3.0
MIN_PASSWORD_ENTROPY_BITS = 2.0
MIN_VALUE_BYTES = 8
MIN_PASSWORD_BYTES = 6
MIN_BEARER_BYTES = 16


def shannon_entropy(value: bytes) -> float:
    """Bits per byte of `value` (0.0 for an empty value)."""
    if not value:
        return 0.0
    length = len(value)
    return -sum(n / length * math.log2(n / length) for n in Counter(value).values())


PLACEHOLDER_WORDS = frozenset(
    {
        b"password",
        b"passwd",
        b"pass",
        b"secret",
        b"token",
        b"none",
        b"null",
        b"nil",
        b"true",
        b"false",
        b"undefined",
        b"string",
        b"required",
        b"optional",
        b"hidden",
        b"prompt",
        b"default",
        b"unknown",
        b"tiger",  # Oracle's demo account, scott/tiger: every SQLAlchemy URL example
        b"foobar",
    }
)
_PLACEHOLDER_MARKERS = (
    b"example",
    b"placeholder",
    b"changeme",
    b"change_me",
    b"change-me",
    b"redacted",
    b"your_",
    b"your-",
    b"yourapi",
    b"yourtoken",
    b"yoursecret",
    b"xxxx",
    b"dummy",
    b"not-a-real",
    b"fake",
)
# A value that names what it stands for, as a word of its own: `password1`, `my_token`,
# `not-a-real-secret`, and the word spelt with look-alike symbols, `P@55w0rd!` (not
# `hunter2Secret9x`).
_NAMING_WORD = re.compile(
    rb"(?:^|[^a-z0-9])(?:p[a@4][s$5]{2}w[o0]rd|passwd|secret|token)(?:[^a-z]|$)"
)
_PLACEHOLDER_STARTS = (b"$", b"%", b"{", b"<", b"[", b"(")
_MASK_BYTES = frozenset(b"*x.#-_")
_MIN_DISTINCT_BYTES = 4

# A dotted reference, optionally with what a runtime prints after it: `os.environ`,
# `android.os.BinderProxy@2bd79ce`, `com.apple.xpc.activity/4505`.
REFERENCE = re.compile(
    rb"[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+(?:[@/#:][A-Za-z0-9_./-]*)?"
)
IDENTIFIER = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
LETTERS = re.compile(rb"[A-Za-z]+")
CALL = re.compile(rb"[A-Za-z_][A-Za-z0-9_.]*\(")
AWS_SECRET_VALUE = re.compile(rb"[A-Za-z0-9/+]{40}")
# An upper-case name: `YOUR_API_TOKEN` names a variable.
VARIABLE_NAME = re.compile(rb"[A-Z][A-Z_]*")


def is_placeholder(value: bytes) -> bool:
    """A template variable, a mask or a word standing in for a credential."""
    lowered = value.lower()
    return (
        not value
        or value.startswith(_PLACEHOLDER_STARTS)
        or set(lowered) <= _MASK_BYTES
        or len(set(lowered)) < _MIN_DISTINCT_BYTES
        or lowered in PLACEHOLDER_WORDS
        or any(marker in lowered for marker in _PLACEHOLDER_MARKERS)
        or _NAMING_WORD.search(lowered) is not None
    )


def has_digit(value: bytes) -> bool:
    return any(48 <= byte <= 57 for byte in value)


def is_random(value: bytes, *, digit: bool = True) -> bool:
    """A key body: >= `MIN_ENTROPY_BITS` per byte, not a placeholder and, unless `digit` is
    off, with a digit (prose or identifiers shaped like `sk-...` never pass, real keys
    practically always do)."""
    return (
        (has_digit(value) or not digit)
        and shannon_entropy(value) >= MIN_ENTROPY_BITS
        and not is_placeholder(value)
    )


def after_word(original: bytes, position: int) -> bool:
    """Whether the byte before `position` is an ASCII letter or digit, and not the letter of
    an escape (`\\npassword=`: JSON-escaped output, where a line starts after `\\n`)."""
    before = original[max(0, position - 2) : position]
    if before in (b"\\n", b"\\r", b"\\t"):
        return False
    return before[-1:].isalnum()
