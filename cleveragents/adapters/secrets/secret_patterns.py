"""The credential patterns of the built-in scanner, one `SecretKind` each.

Patterns work on raw bytes: every credential format we look for is ASCII, so invalid UTF-8 in
tool output is just bytes that match nothing, and positions stay exact. Every quantifier is
bounded and none is nested, so a pattern never backtracks more than `MAX_MATCH_BYTES` from a
start, and no match is longer than that (the scanner's window overlap depends on it; a unit test
checks it). Nothing matches across a newline.

Case-insensitive patterns (header and assignment names) are written in lower case and run over
the lower-cased bytes (`bytes.lower` keeps positions); their validators read the original bytes.

Before running a pattern over a window the scanner checks its `triggers`, plain substrings of
which at least one must occur for a match to be possible: most output has none of them, and a
substring search is far cheaper than a regular expression.

Exclusions, each needed to keep the benign corpus (logs, diffs, JSON, markdown, code,
transcripts) and ordinary program text free of false findings:
- Placeholders are not credentials: `$VAR`, `${VAR}`, `$(cmd)`, `%s`, `{name}`, `<name>`, `[...]`,
  runs of `*`/`x`/`.`, and the words in `_PLACEHOLDER_WORDS` (`password`, `changeme`, `null`...).
- AWS's documented example keys contain `EXAMPLE`; values that contain `example` are skipped.
- Generic assignments: an unquoted value that is a bare identifier without a digit (`csrfToken`),
  a dotted reference (`os.environ`, `ReviewTokenStore.mint`) or a path (`PWD=/home/x`) is code or
  configuration, not a credential; the value must have >= 3.0 bits of entropy per character.
- OpenAI, Slack and Stripe bodies must contain a digit: English text such as `sk-learn-...`
  shaped like a key never does, while real keys practically always do.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from cleveragents.domain.secrets import SecretKind

# No pattern matches more than this many bytes; the scanner's windows overlap by more.
MAX_MATCH_BYTES = 4608

MIN_ENTROPY_BITS = 3.0

Validator = Callable[[bytes, "re.Match[bytes]"], bool]


@dataclass(frozen=True, slots=True)
class SecretPattern:
    """One credential format.

    `regex` runs over the original bytes, or over the lower-cased bytes when `lower` is set (then
    the regex is written in lower case). `triggers` are substrings, at least one of which occurs
    in any match (lower case when `lower` is set). `validate(original, match)` rejects matches
    that are placeholders or references; `None` accepts every match.
    """

    kind: SecretKind
    regex: re.Pattern[bytes]
    triggers: tuple[bytes, ...]
    lower: bool = False
    validate: Validator | None = None


def shannon_entropy(value: bytes) -> float:
    """Bits per byte of `value` (0.0 for an empty value)."""
    if not value:
        return 0.0
    length = len(value)
    return -sum(n / length * math.log2(n / length) for n in Counter(value).values())


_PLACEHOLDER_WORDS = frozenset(
    {
        b"password",
        b"passwd",
        b"pass",
        b"secret",
        b"token",
        b"changeme",
        b"redacted",
        b"none",
        b"null",
        b"nil",
        b"true",
        b"false",
        b"undefined",
        b"string",
        b"your_password",
        b"yourpassword",
    }
)
_PLACEHOLDER_MARKERS = (b"example", b"placeholder", b"changeme", b"redacted", b"your_", b"xxxx")
_MASK_BYTES = frozenset(b"*x.#-_")
_REFERENCE = re.compile(rb"[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+")
_IDENTIFIER = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_DIGIT = re.compile(rb"[0-9]")


def is_placeholder(value: bytes) -> bool:
    """A template variable, a mask or a word standing in for a credential."""
    lowered = value.lower()
    return (
        not value
        or value[:1] in (b"$", b"%", b"{", b"<", b"[")
        or set(lowered) <= _MASK_BYTES
        or lowered in _PLACEHOLDER_WORDS
        or any(marker in lowered for marker in _PLACEHOLDER_MARKERS)
    )


def _has_digit(value: bytes) -> bool:
    return _DIGIT.search(value) is not None


def _group(original: bytes, match: re.Match[bytes], group: int) -> bytes:
    start, end = match.span(group)
    return original[start:end]


def _not_example(original: bytes, match: re.Match[bytes]) -> bool:
    return b"example" not in _group(original, match, 0).lower()


def _random_body(original: bytes, match: re.Match[bytes]) -> bool:
    body = _group(original, match, 1)
    return _has_digit(body) and shannon_entropy(body) >= MIN_ENTROPY_BITS


def _aws_secret(original: bytes, match: re.Match[bytes]) -> bool:
    value = _group(original, match, 1)
    return not is_placeholder(value) and shannon_entropy(value) >= MIN_ENTROPY_BITS


def _url_password(original: bytes, match: re.Match[bytes]) -> bool:
    return not is_placeholder(_group(original, match, 1))


def _bearer_token(original: bytes, match: re.Match[bytes]) -> bool:
    token = _group(original, match, 1)
    # An upper-case identifier (`YOUR_TOKEN`, `API_TOKEN`) names a variable.
    return not is_placeholder(token) and not token.isupper()


def _generic_secret(original: bytes, match: re.Match[bytes]) -> bool:
    start = match.start()
    if start and original[start - 1 : start].isalnum():
        return False  # `mypassword=`: the keyword is the tail of a longer word
    value = _group(original, match, 2)
    quoted = match.start(1) != -1
    if is_placeholder(value) or shannon_entropy(value) < MIN_ENTROPY_BITS:
        return False
    if value[:1] in (b"/", b"~", b".") or _REFERENCE.fullmatch(value):
        return False  # a path (`PWD=/home/x`) or a dotted reference (`os.environ`)
    after = original[match.end(2) : match.end(2) + 2]
    if quoted:
        # The whole quoted string is the value: `"password": "Wrong password"` is a message.
        return after[:1] in (b'"', b"'") or after in (b'\\"', b"\\'")
    if after[:1] == b"(":
        return False  # a call: `token = make_token(...)`
    return _has_digit(value) or not _IDENTIFIER.fullmatch(value)


_B64URL = rb"[A-Za-z0-9_-]"
# An optional quote after a key, possibly JSON-escaped (`\"password\": \"...\"` in a transcript).
_KEY_END = rb"\\{0,2}[\"']?[ \t]{0,8}[:=][ \t]{0,8}"

PATTERNS: tuple[SecretPattern, ...] = (
    SecretPattern(
        SecretKind.PRIVATE_KEY,
        re.compile(
            rb"-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP |SSH2 ENCRYPTED )?"
            rb"PRIVATE KEY(?: BLOCK)?-----"
        ),
        (b"PRIVATE KEY",),
    ),
    SecretPattern(
        SecretKind.AWS_ACCESS_KEY_ID,
        re.compile(
            rb"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])"
        ),
        (b"AKIA", b"ASIA", b"ABIA", b"ACCA", b"A3T"),
        validate=_not_example,
    ),
    SecretPattern(
        SecretKind.AWS_SECRET_ACCESS_KEY,
        re.compile(
            rb"(?<![a-z0-9])(?:aws_?secret_?access_?key|aws_?secret_?key|secretaccesskey)"
            + _KEY_END
            + rb"\\{0,2}[\"']?([a-z0-9/+]{40})(?![a-z0-9/+=])"
        ),
        (b"secret",),
        lower=True,
        validate=_aws_secret,
    ),
    SecretPattern(
        SecretKind.GITHUB_TOKEN,
        re.compile(
            rb"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,255})"
            rb"(?![A-Za-z0-9_])"
        ),
        (b"ghp_", b"gho_", b"ghu_", b"ghs_", b"ghr_", b"github_pat_"),
    ),
    # Anthropic before OpenAI: `sk-ant-` is excluded from the OpenAI pattern, so a key has one kind.
    SecretPattern(
        SecretKind.ANTHROPIC_API_KEY,
        re.compile(rb"(?<![A-Za-z0-9_-])sk-ant-" + _B64URL + rb"{20,250}"),
        (b"sk-ant-",),
    ),
    SecretPattern(
        SecretKind.OPENAI_API_KEY,
        re.compile(rb"(?<![A-Za-z0-9_-])sk-(?!ant-)(" + _B64URL + rb"{20,250})"),
        (b"sk-",),
        validate=_random_body,
    ),
    SecretPattern(
        SecretKind.JWT,
        re.compile(
            rb"(?<![A-Za-z0-9_-])eyJ"
            + _B64URL
            + rb"{4,500}\.eyJ"
            + _B64URL
            + rb"{4,4000}\."
            + _B64URL
            + rb"{8}"
        ),
        (b"eyJ",),
    ),
    SecretPattern(
        SecretKind.SLACK_TOKEN,
        re.compile(rb"(?<![A-Za-z0-9_-])xox[abposr]-([A-Za-z0-9-]{10,250})"),
        (b"xox",),
        validate=_random_body,
    ),
    SecretPattern(
        SecretKind.SLACK_WEBHOOK,
        re.compile(
            rb"hooks\.slack\.com/services/T[A-Za-z0-9_]{6,40}/B[A-Za-z0-9_]{6,40}/[A-Za-z0-9_]{8,100}"
        ),
        (b"hooks.slack.com",),
    ),
    SecretPattern(
        SecretKind.STRIPE_KEY,
        # Publishable keys (pk_live_, pk_test_) are meant to be public and are not matched.
        re.compile(rb"(?<![A-Za-z0-9_])[sr]k_(?:live|test)_([A-Za-z0-9]{16,250})"),
        (b"k_live_", b"k_test_"),
        validate=_random_body,
    ),
    SecretPattern(
        SecretKind.GOOGLE_API_KEY,
        re.compile(rb"(?<![A-Za-z0-9_-])AIza" + _B64URL + rb"{35}(?!" + _B64URL + rb")"),
        (b"AIza",),
    ),
    SecretPattern(
        SecretKind.PASSWORD_IN_URL,
        # scheme://user:password@host; starts with the literal so the regex engine can skip to it.
        re.compile(rb"://[^\s:/?#@\"'<>\\]{0,128}:([^\s/?#@\"'<>\\]{1,256})@[A-Za-z0-9\[_]"),
        (b"://",),
        validate=_url_password,
    ),
    SecretPattern(
        SecretKind.BEARER_TOKEN,
        re.compile(
            rb"(?<![a-z0-9_-])authorization"
            + _KEY_END
            + rb"\\{0,2}[\"']?[ \t]{0,8}bearer[ \t]{1,8}([a-z0-9._~+/=-]{8,1024})"
        ),
        (b"bearer",),
        lower=True,
        validate=_bearer_token,
    ),
    SecretPattern(
        SecretKind.GENERIC_SECRET,
        # The keyword comes first (no lookbehind) so the regex engine skips ahead by its first
        # letters; the left word boundary is checked by the validator.
        re.compile(
            rb"(?:password|passwd|passphrase|pwd|client[_-]?secret|secret[_-]?key|secret"
            rb"|api[_-]?key|access[_-]?token|auth[_-]?token|refresh[_-]?token|token"
            rb"|private[_-]?key)" + _KEY_END + rb"(\\{0,2}[\"'])?([^\s\"'`,;&<>(){}\[\]\\]{8,256})"
        ),
        (b"pass", b"pwd", b"secret", b"key", b"token"),
        lower=True,
        validate=_generic_secret,
    ),
)
