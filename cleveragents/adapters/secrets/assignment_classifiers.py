"""The classifiers of generic assignments: `password=`, `"token": ...`, `client_secret: ...`.

The value needs >= 3.0 bits of entropy per byte (2.0 for a password, which people choose); a
quoted value must be the whole quoted string (`"password": "Wrong password"` is a message); an
unquoted value that is a bare identifier without a digit (`token: csrfToken`), a dotted reference
(`document.querySelector`, and with a suffix `android.os.BinderProxy@2bd79ce`,
`com.apple.xpc.activity/4505`), a call (`token = mint(...)`) or a path (`PWD=/home/x`) is code or
configuration, not a credential. A letter-only password (`password=hunter`) is reported when it
is assigned with `=` and ends its line or word, not when it is a keyword argument
(`f(password=hashed)`) nor when it is the name itself (`passphrase=passphrase`). Names that hold
a keyword without naming a credential (type paths, ARNs, pagination tokens) are in
`assignment_names.py`.
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
    LETTERS,
    MIN_ENTROPY_BITS,
    MIN_PASSWORD_BYTES,
    MIN_PASSWORD_ENTROPY_BITS,
    MIN_VALUE_BYTES,
    REFERENCE,
    after_word,
    has_digit,
    is_placeholder,
    is_random,
    shannon_entropy,
)
from cleveragents.domain.secrets import SecretKind

# Where an unquoted value ends (the regex takes what a quoted one may hold: one class, fast).
_UNQUOTED_END = re.compile(rb"[`,;&<>(){}\[\]]")
# A password's may hold `& ; , (` (a .env line, a YAML value).
_UNQUOTED_PASSWORD_END = re.compile(rb"[`<>{}\[\]]")
_QUERY_NEXT = re.compile(rb"&[A-Za-z_][A-Za-z0-9_]*=")


def _value_span(
    original: bytes, match: re.Match[bytes], ends: re.Pattern[bytes]
) -> tuple[int, int]:
    start, end = match.span("value")
    if match.start("quote") == -1:
        cut = ends.search(original, start, end)
        if cut is not None:
            end = cut.start()
    return start, end


def _is_generic_secret(
    original: bytes, match: re.Match[bytes], start: int, end: int, *, password: bool
) -> bool:
    """Whether `original[start:end]`, the value assigned in `match`, is a credential."""
    if after_word(original, match.start()):
        return False  # `mypassword=`: the keyword ends a longer word
    if is_not_a_credential_name(original, match.start()):
        return False  # `AWS::ApiGateway::ApiKey`, `arn:aws:...:secret:Name`, `next_token`
    value = original[start:end]
    minimum_bytes = MIN_PASSWORD_BYTES if password else MIN_VALUE_BYTES
    minimum_bits = MIN_PASSWORD_ENTROPY_BITS if password else MIN_ENTROPY_BITS
    if len(value) < minimum_bytes or is_placeholder(value):
        return False
    if shannon_entropy(value) < minimum_bits:
        return False
    if value.startswith((b"/", b"~", b".")) or REFERENCE.fullmatch(value):
        return False  # a path (`PWD=/home/x`) or a dotted reference (`os.environ`)
    if is_the_name_itself(original, match.start(), value):
        return False  # `passphrase=passphrase`: a variable passed on
    after = original[end : end + 2]
    if not password and not has_digit(value):
        # Keys and tokens are random: practically always with a digit. Without one, a value is
        # a name (`"OPENAI_API_KEY"`, `"upgrades"`) or prose (`api_key: Explicitly-provided`).
        return False
    if match.start("quote") != -1:
        # The whole quoted string is the value: `"password": "Wrong password"` is a message.
        whole = after[:1] in (b'"', b"'") or after in (b'\\"', b"\\'")
        return whole and (has_digit(value) or not IDENTIFIER.fullmatch(value))
    if after[:1] == b"(" or CALL.match(value):
        return False  # a call: `token = make_token(...)`
    if has_digit(value) or not IDENTIFIER.fullmatch(value):
        return True
    # A bare word: code (`token: csrfToken`), unless it is a password assigned as an
    # environment variable or an option is (`password=hunter`, at the end of its word).
    separator = original[start - 1 : start]
    return (
        password
        and separator == b"="
        and LETTERS.fullmatch(value) is not None
        and after[:1] in (b"", b"\n", b"\r", b" ", b"\t", b"&", b";", b"\\")
    )


def generic_assignment(rule: str) -> Classifier:
    """The classifier of a `rule` assignment (`secret`, `token`, `api-key`)."""

    def classify(original: bytes, match: re.Match[bytes]) -> Hit | None:
        start, end = _value_span(original, match, _UNQUOTED_END)
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
        while end > start and original[end - 1 : end] in (b",", b";", b"&", b"(", b")", b":"):
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
