"""Whether a matched value looks like a credential: entropy, placeholders, shapes of text.

Placeholders are not credentials: values starting with `$`, `%`, `{`, `<`, `[` or `(` (`$VAR`,
`${VAR}`, `%s`, `{password}`, `<token>`), masks made only of `*x.#-_` or holding `**` or `...`
(`sk-...a1B2`), values of fewer than four distinct bytes (`ghp_000...`, `AKIAXXXX...`), the words
in `PLACEHOLDER_WORDS` and values containing a word of `_PLACEHOLDER_MARKERS` (`example`, which
also covers AWS's documented example keys, `changeme`, `your-`, `your_`, `xxxx`...) or naming
what they stand for (`my_token`).

What a credential looks like, as opposed to the other values programs print (`shape_of_text`,
`random_material`): a key or a token is random, so its letters and digits are mixed within a
run (`Xk9mQ2vL`, `3f9a0b1c`); the runs of names and numbers are not (`unknown_12`, `sha256`,
`oauth2Client`, `4505`, `300ms`). A URL, a path, a dotted reference made of names
(`com.apple.xpc.activity/4505`), a number, a timestamp or a version is text of a known shape, and
so is what is left of a format string or a template once its fields (`%d`, `{name}`, `${VAR}`)
are taken out: `unknown_12_%d` leaves `unknown_12__`.
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
    b"masked",
    b"filtered",
    b"censored",
    b"omitted",
    b"sanitized",
    b"obfuscated",
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
# A value with some of it masked or cut short is no whole credential: `sk-...a1B2`, `ab**yz`.
_MASKED_PARTS = (b"**", b"...")
_MIN_DISTINCT_BYTES = 4

# A dotted reference or host name, optionally with what a runtime prints after it: `os.environ`,
# `api-2.example.com`,
# `android.os.BinderProxy@2bd79ce`, `com.apple.xpc.activity/4505`. Its names must be names
# (`is_reference`): `ya29.a0AfH6SMBx...` is a token with a prefix, not a reference.
REFERENCE = re.compile(
    rb"(?P<names>[A-Za-z_$][A-Za-z0-9_$-]*(?:\.[A-Za-z_$][A-Za-z0-9_$-]*)+)"
    rb"(?:[@/#:][A-Za-z0-9_./:-]*)?"
)
IDENTIFIER = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
LETTERS = re.compile(rb"[A-Za-z]+")
# Words with `-` or `_` between them: a name (`from_env`, `app-tls`), or a passphrase.
WORDS = re.compile(rb"[A-Za-z]+(?:[-_][A-Za-z]+)*")
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
        or any(part in value for part in _MASKED_PARTS)
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


# What fills a template or a format string in, and holds no secret itself: printf conversions
# (`%d`, `%(name)s`, `%-8.3f`, `%%`; Go's `%v`), brace fields (`{}`, `{0}`, `{name:>8}`, `${VAR}`,
# `#{var}`), variables in capitals (`$API_KEY`) and Windows ones (`%APPDATA%`).
_TEMPLATE_FIELD = re.compile(
    rb"%(?:\([A-Za-z_][A-Za-z0-9_]*\))?[-+ #0]*(?:[0-9]+|\*)?(?:\.[0-9]+)?[diouxXeEfFgGcrsaqvp%]"
    rb"|%[A-Za-z_][A-Za-z0-9_]*%"
    rb"|[$#]?\{[^{}\s]{0,64}\}"
    rb"|\$[A-Z_][A-Z0-9_]{2,}"
)


def without_template_fields(value: bytes) -> bytes:
    """`value` with each field of a template or a format string made a `_`, which parts names
    as the field did: `unknown_12_%d` gives `unknown_12__`, `0%dcom` gives `0_com`."""
    return _TEMPLATE_FIELD.sub(b"_", value)


# A run of letters and digits that a person or a program names things with: camel-case words
# (`oauth`, `Client`, `HTTP`), a number before a capitalised word (`oauth2Client`,
# `X509Certificate`), a number and a short lower-case word at the end (`unknown12`, `md5sum`,
# `base64url`). A number with a short unit (`4505`, `300ms`, `5xx`), a hex literal and a
# constant's name (`UNKNOWN12`) are `_NUMBER_RUN`s. Random text puts other letters right after
# digits (`Xk9mQ2`, `3f9a0b`, `A1B2`) and almost never fits.
_NUMBER_RUN = re.compile(rb"0x[0-9A-Fa-f]+|[0-9]+[A-Za-z]{0,3}|[A-Z]+[0-9]*")
# Camel-case words in any mix are any letters, so the run is letters, then numbers each before a
# capitalised word, then a number with up to three lower-case letters. (Written as a sequence of
# words, `(?:[A-Z][a-z]+|[A-Z]+)*`, the regex engine tried every split of a long upper-case run:
# a 75-character one took 1.5 s, each character more about doubled it.)
_NAMING_RUN = re.compile(rb"[A-Za-z]+(?:[0-9]+[A-Z][a-z][A-Za-z]*)*(?:[0-9]+[a-z]{0,3})?")
_CAMEL_WORD = re.compile(rb"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_ALNUM_RUN = re.compile(rb"[A-Za-z0-9]+")
# At least this many bytes of random runs: a key, a token or a generated password has them; a
# name with a short generated suffix (`default-token-4w9qz`) has fewer.
MIN_RANDOM_BYTES = 6


# Words are spoken: a word has a vowel in every six letters (`strengths`, `authentication`),
# and an acronym is short (`HTTPS` in `HTTPSConnection`). Random letters rarely are.
_UNSPOKEN = re.compile(rb"[b-df-hj-np-tv-xz]{6}|[A-Z]{6}(?![a-z])|[A-Z]{7}")


def _names_a_thing(run: bytes) -> bool:
    """Whether a run of letters and digits reads as a name or a number. Camel-case words are
    of three letters or more at least half the time (`getAccessToken`, `userIdDb`), with
    vowels; random mixed case cuts into chunks of one or two (`htDSNnytCdPp`: `ht`, `DS`,
    `Nnyt`, `Cd`, `Pp`), and random lower case runs into consonants (`fobklfnlrkkzlak`)."""
    if _NUMBER_RUN.fullmatch(run):
        return True  # `4505`, `300ms`, `0x7ffe`, `UNKNOWN12`: a number or a constant's name
    if _NAMING_RUN.fullmatch(run) is None:
        return False
    if _UNSPOKEN.search(run) is not None:
        return False
    words = _CAMEL_WORD.findall(run)
    return len(words) < 4 or 2 * sum(len(word) <= 2 for word in words) <= len(words)


# What separates the parts of names, paths, addresses and expressions, and base64's padding;
# a glob's `*` at a name's edge (`amazon-bedrock*`, `*.example.com`). Any other symbol
# (`! # $ % ^ & + ~ ?`, a `*` inside a run) is in no name: a value holding one is not made of
# names at all.
_SYMBOL = re.compile(rb"[^A-Za-z0-9._/:@=,()\[\]{}*-]|(?<=[A-Za-z0-9])\*+(?=[A-Za-z0-9])")


def random_material(value: bytes) -> int:
    """How many bytes of `value` are in runs of letters and digits that no name or number is
    made of (all of them, beside a symbol no name holds): 0 for
    `com.apple.xpc.activity/4505`, 16 for `f6b785ff8e74d121`."""
    if _SYMBOL.search(value):
        return len(value)
    return sum(len(run) for run in _ALNUM_RUN.findall(value) if not _names_a_thing(run))


_URL = re.compile(rb"[A-Za-z][A-Za-z0-9+.-]{0,16}://")
_NUMBER = re.compile(
    rb"0x[0-9A-Fa-f]+|[-+]?[0-9]+(?:[.:,/_-][0-9]+)*(?:[eE][-+]?[0-9]+)?[A-Za-z%]{0,3}"
)
_TIMESTAMP = re.compile(
    rb"[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:[.,][0-9]{1,9})?)?)?"
    rb"(?:Z|[+-][0-9]{2}:?[0-9]{2})?"
)
_VERSION = re.compile(rb"[vV]?[0-9]+(?:\.[0-9]+)+(?:[-+][0-9A-Za-z.-]+)?")


# A JSON Web Token: the JWT rule judges it (and clears a documentation example's), not the
# generic rules of the name it is assigned to.
_JWT = re.compile(rb"eyJ[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*")


def _is_path(value: bytes) -> bool:
    """`/var/lib/x/3f9a2b1c/cache`, `~/.config`, `projects/x/secrets/y/versions/3`: names
    between slashes; an absolute path may hold ids, a relative one only names (a base64 value's
    slashes stand between random runs, and it may start with one)."""
    if value.startswith((b"~", b"./", b"../")):
        return True
    segments = [segment for segment in value.split(b"/") if segment]
    named = sum(1 for segment in segments if random_material(segment) == 0)
    if value.startswith(b"/"):
        return 2 * named > len(segments) or not segments
    return len(segments) >= 2 and b"//" not in value and named == len(segments)


def is_reference(value: bytes) -> bool:
    """A dotted reference made of names, with what a runtime prints after it."""
    match = REFERENCE.fullmatch(value)
    return match is not None and random_material(match.group("names")) == 0


def shape_of_text(value: bytes) -> str | None:
    """The known shape `value` has, if any: a URL, a path, a number, a timestamp, a version, a
    dotted reference or a JSON Web Token (which its own rule judges). None for a value that
    could be a credential of no format of its own."""
    if _URL.match(value):
        return "url"
    if _is_path(value):
        return "path"
    if _NUMBER.fullmatch(value):
        return "number"
    if _TIMESTAMP.fullmatch(value):
        return "timestamp"
    if _VERSION.fullmatch(value):
        return "version"
    if is_reference(value):
        return "reference"
    if _JWT.fullmatch(value):
        return "jwt"
    return None
