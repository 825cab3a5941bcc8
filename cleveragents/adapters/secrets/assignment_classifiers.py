"""The classifiers of generic assignments: `password=`, `"token": ...`, `client_secret: ...`.

A name says a credential may follow; only the value says one does. What the value must be:
- whole and not a placeholder, a mask or the name itself (`secret_values.py`): a quoted value is
  the whole quoted string (`"password": "Wrong password"` is a message), an unquoted one ends
  at punctuation that ends values in code and query strings, and before a `.` or `:` that ends
  a sentence (`stream/token: com.apple.xpc.activity/4505: 132: ...`);
- judged without its template or format fields (`unknown_12_%d` is judged as `unknown_12__`);
- long enough (8 bytes, 6 for a password) and varied enough (3.0 bits of entropy per byte, 2.0
  for a password, which people choose);
- of no known shape of text: not a URL, a path, a number, a timestamp, a version or a dotted
  reference made of names; and not a call (`token = mint(...)`);
- for a token, a secret or an API key, random: at least `MIN_RANDOM_BYTES` in runs that mix
  letters and digits as no name or number does (`Xk9mQ2vL`, `3f9a0b1c`). Names with numbers
  (`unknown_12`, `sha256`, `oauth2Client`), words and pure numbers have none;
- for a password, which a person may make of words and digits (`hunter2x`): a digit or a
  character no name has (random, as above, when it held template fields). A bare name is a
  password only when assigned with `=` at the end of its word (`password=hunter`, a .env
  line), not as a keyword argument (`f(password=hashed)`).
Names that hold a keyword without naming a credential (type paths, ARNs, pagination tokens) are
in `assignment_names.py`.
"""

from __future__ import annotations

import re

from cleveragents.adapters.secrets.assignment_names import (
    is_not_a_credential_name,
    is_the_name_itself,
)
from cleveragents.adapters.secrets.pattern_model import Classifier, Hit
from cleveragents.adapters.secrets.secret_values import (
    AWS_SECRET_VALUE,
    CALL,
    IDENTIFIER,
    MIN_ENTROPY_BITS,
    MIN_PASSWORD_BYTES,
    MIN_PASSWORD_ENTROPY_BITS,
    MIN_RANDOM_BYTES,
    MIN_VALUE_BYTES,
    WORDS,
    after_word,
    has_digit,
    is_placeholder,
    is_random,
    random_material,
    shannon_entropy,
    shape_of_text,
    without_template_fields,
)
from cleveragents.domain.secrets import SecretKind

# Where an unquoted value ends (the regex takes what a quoted one may hold: one class, fast).
_UNQUOTED_END = re.compile(rb"[`,;&<>(){}\[\]]")
# A password's may hold `& ; , (` (a .env line, a YAML value).
_UNQUOTED_PASSWORD_END = re.compile(rb"[`<>{}\[\]]")
_QUERY_NEXT = re.compile(rb"&[A-Za-z_][A-Za-z0-9_]*=")


# What ends a sentence, not a value: `stream/token: com.apple.xpc.activity/4505: 132: ...`.
_SENTENCE_END = b".:"


# A quoted value longer than the regex takes (256 bytes: a long session token, a 1Password
# service account token) runs on to its closing quote, read up to this many bytes from the
# value's start: inside the scanner's window overlap (MAX_MATCH_BYTES), so what is found
# never depends on where the windows fall.
MAX_QUOTED_VALUE_BYTES = 4096
_QUOTED_VALUE_REST = re.compile(
    rb"[^\x00-\x20\x7f-\xff\"'\\]{0,%d}" % (MAX_QUOTED_VALUE_BYTES - 256)
)


def _value_span(
    original: bytes, match: re.Match[bytes], ends: re.Pattern[bytes]
) -> tuple[int, int]:
    start, end = match.span("value")
    if match.start("quote") == -1:
        cut = ends.search(original, start, end)
        if cut is not None:
            end = cut.start()
    elif end - start == 256:
        rest = _QUOTED_VALUE_REST.match(original, end)
        if rest is not None:
            end = rest.end()
    return start, end


def _without_sentence_end(original: bytes, start: int, end: int) -> int:
    while end > start and original[end - 1] in _SENTENCE_END:
        end -= 1
    return end


def _is_generic_secret(
    original: bytes, match: re.Match[bytes], start: int, end: int, *, password: bool
) -> bool:
    """Whether `original[start:end]`, the value assigned in `match`, is a credential.

    Each test below only rejects, so their order changes no answer: the cheapest come first
    (most assignments in code are calls, `token = make_token(...)`, and a scan meets many)."""
    value = original[start:end]
    after = original[end : end + 2]
    quoted = match.start("quote") != -1
    if quoted:
        # The whole quoted string is the value: `"password": "Wrong password"` is a message.
        if not (after[:1] in (b'"', b"'") or after in (b'\\"', b"\\'")):
            return False
    elif after[:1] == b"(" or CALL.match(value):
        return False  # a call: `token = make_token(...)`
    if after_word(original, match.start()):
        return False  # `mypassword=`: the keyword ends a longer word
    if is_not_a_credential_name(original, match.start()):
        return False  # `AWS::ApiGateway::ApiKey`, `arn:aws:...:secret:Name`, `next_token`
    if is_placeholder(value) or is_the_name_itself(original, match.start(), value):
        return False  # `${TOKEN}`, `<redacted>`, `passphrase=passphrase`
    judged = without_template_fields(value)  # `unknown_12_%d` is `unknown_12__`
    # A value cut at a brace is the fixed part of a template (`name_{}`, `name_${HOME}`).
    templated = judged != value or original[end : end + 1] == b"{"
    if templated and judged.endswith((b"$", b"#")):
        judged = judged[:-1] + b"_"
    minimum_bytes = MIN_PASSWORD_BYTES if password else MIN_VALUE_BYTES
    minimum_bits = MIN_PASSWORD_ENTROPY_BITS if password else MIN_ENTROPY_BITS
    if len(judged) < minimum_bytes or shannon_entropy(judged) < minimum_bits:
        return False
    if (templated and is_placeholder(judged)) or shape_of_text(judged) is not None:
        return False  # a URL, a path, a number, a timestamp, a version, a dotted reference
    if not password or templated:
        # Keys and tokens are random; names, words and numbers are not (`unknown_12`). Nor is
        # what a template or a format string fixes around its fields, even for a password.
        return random_material(judged) >= MIN_RANDOM_BYTES
    if has_digit(judged) or not (IDENTIFIER.fullmatch(judged) or WORDS.fullmatch(judged)):
        return True
    if quoted:
        return False  # `"password": "from_env"`: a name
    # Bare words: code or configuration (`password: str`, `password: app-tls`), unless assigned
    # as an environment variable or an option is (`password=hunter`, at the end of its word).
    separator = original[start - 1 : start]
    return (
        separator == b"="
        and WORDS.fullmatch(value) is not None
        and after[:1] in (b"", b"\n", b"\r", b" ", b"\t", b"&", b";", b"\\")
    )


def generic_assignment(rule: str) -> Classifier:
    """The classifier of a `rule` assignment (`secret`, `token`, `api-key`)."""

    def classify(original: bytes, match: re.Match[bytes]) -> Hit | None:
        start, end = _value_span(original, match, _UNQUOTED_END)
        if match.start("quote") == -1:
            end = _without_sentence_end(original, start, end)
        if not _is_generic_secret(original, match, start, end, password=False):
            return None
        return Hit(SecretKind.GENERIC_SECRET, rule, start, end)

    return classify


_generic_secret = generic_assignment("secret")


def classify_password(original: bytes, match: re.Match[bytes]) -> Hit | None:
    """An unquoted password may hold `& ; , (`: it ends before a trailing one, or before the
    next `&name=` of a query string."""
    start, end = _value_span(original, match, _UNQUOTED_PASSWORD_END)
    if match.start("quote") == -1:
        query = _QUERY_NEXT.search(original, start, end)
        if query is not None:
            end = query.start()
        while end > start and original[end - 1 : end] in (b",", b";", b"&", b"(", b")", b":", b"."):
            end -= 1
    if not _is_generic_secret(original, match, start, end, password=True):
        return None
    return Hit(SecretKind.GENERIC_SECRET, "password", start, end)


def classify_secret(original: bytes, match: re.Match[bytes]) -> Hit | None:
    """An AWS secret access key when it is named so and shaped so, else a generic secret."""
    start = match.start()
    value_start, value_end = _value_span(original, match, _UNQUOTED_END)
    value = original[value_start:value_end]
    named_aws = match.start("access") != -1 or original[max(0, start - 4) : start].lower() in (
        b"aws_",
        b"aws-",
    )
    if (
        named_aws
        and not after_word(original, start)
        and AWS_SECRET_VALUE.fullmatch(value)
        and is_random(value, digit=False)
    ):
        return Hit(
            SecretKind.AWS_SECRET_ACCESS_KEY, "aws-secret-access-key", value_start, value_end
        )
    return _generic_secret(original, match)
