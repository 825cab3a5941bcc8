"""The credential patterns of the built-in scanner.

Patterns work on raw bytes: every credential format we look for is ASCII, so invalid UTF-8 in
tool output is just bytes that match nothing, and positions stay exact. Every quantifier is
bounded and none is nested, so no match is longer than `MAX_MATCH_BYTES` (the scanner's window
overlap depends on it; a unit test checks it) and no start costs more than that much work.
Nothing matches across a newline.

Speed: each regex begins with a literal (`sk-`, `eyJ`, `://`, `token`...), which lets the regex
engine jump from one occurrence of the literal to the next at memory-search speed instead of
trying every position. That is why left word boundaries are lookbehinds placed after the literal
(`sk-(?<![A-Za-z0-9_-]sk-)`) or checks in the classifier, and why several kinds that share a
literal share one regex (`A`: AWS key ids and Google API keys; `sk-`: Anthropic and OpenAI).
Case-insensitive patterns (header and assignment names) are written in lower case and run over
the lower-cased bytes (`bytes.lower` keeps positions, and is far faster than `re.IGNORECASE`,
which disables that jump); their classifiers read the original bytes.

Exclusions, each needed to keep the benign corpus (logs, diffs, JSON, markdown, code,
transcripts) and ordinary program text free of false findings:
- Placeholders are not credentials: values starting with `$`, `%`, `{`, `<` or `[` (`$VAR`,
  `${VAR}`, `$(cmd)`, `%s`, `{password}`, `<token>`), masks made only of `*x.#-_`, the words in
  `_PLACEHOLDER_WORDS` and values containing a word of `_PLACEHOLDER_MARKERS` (`example`, which
  also covers AWS's documented example keys, `changeme`, `your_`, `xxxx`...).
- Generic assignments (`password=`, `"token": ...`): the value needs >= 3.0 bits of entropy per
  byte; a quoted value must be the whole quoted string (`"password": "Wrong password"` is a
  message); an unquoted value that is a bare identifier without a digit (`token: csrfToken`), a
  dotted reference (`document.querySelector`, `os.environ`), a call (`token = mint(...)`) or a
  path (`PWD=/home/x`) is code or configuration, not a credential. All four occur in the corpus.
- OpenAI, Slack and Stripe key bodies must contain a digit and have >= 3.0 bits per byte: prose
  or identifiers shaped like `sk-...` never pass, real keys practically always do.
- Bearer tokens that are upper-case identifiers (`Bearer YOUR_API_TOKEN`) name a variable.
- Stripe publishable keys (`pk_live_`, `pk_test_`) are public by design and are not reported.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from cleveragents.domain.secrets import SecretKind

# No pattern matches more than this many bytes (a unit test checks every pattern).
MAX_MATCH_BYTES = 4608

MIN_ENTROPY_BITS = 3.0

Classifier = Callable[[bytes, "re.Match[bytes]"], SecretKind | None]


@dataclass(frozen=True, slots=True)
class SecretPattern:
    """One regex and how to read its matches.

    `regex` runs over the original bytes, or over the lower-cased bytes when `lower` is set (then
    it is written in lower case). `classify(original, match)` reads the original bytes and returns
    the kind of a match, or `None` for a placeholder, a reference or a near miss. `kinds` lists
    what it can return.
    """

    kinds: tuple[SecretKind, ...]
    regex: re.Pattern[bytes]
    classify: Classifier
    lower: bool = False


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
        b"none",
        b"null",
        b"nil",
        b"true",
        b"false",
        b"undefined",
        b"string",
    }
)
_PLACEHOLDER_MARKERS = (b"example", b"placeholder", b"changeme", b"redacted", b"your_", b"xxxx")
_PLACEHOLDER_STARTS = (b"$", b"%", b"{", b"<", b"[")
_MASK_BYTES = frozenset(b"*x.#-_")
_REFERENCE = re.compile(rb"[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+")
_IDENTIFIER = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_AWS_SECRET_VALUE = re.compile(rb"[A-Za-z0-9/+]{40}")


def is_placeholder(value: bytes) -> bool:
    """A template variable, a mask or a word standing in for a credential."""
    lowered = value.lower()
    return (
        not value
        or value.startswith(_PLACEHOLDER_STARTS)
        or set(lowered) <= _MASK_BYTES
        or lowered in _PLACEHOLDER_WORDS
        or any(marker in lowered for marker in _PLACEHOLDER_MARKERS)
    )


def _has_digit(value: bytes) -> bool:
    return any(48 <= byte <= 57 for byte in value)


def _is_random(value: bytes) -> bool:
    return _has_digit(value) and shannon_entropy(value) >= MIN_ENTROPY_BITS


def _group(original: bytes, match: re.Match[bytes], group: int | str) -> bytes:
    start, end = match.span(group)
    return original[start:end]


def _after_word(original: bytes, position: int) -> bool:
    """Whether the byte before `position` is an ASCII letter or digit."""
    return position > 0 and original[position - 1 : position].isalnum()


def _always(kind: SecretKind) -> Classifier:
    def classify(original: bytes, match: re.Match[bytes]) -> SecretKind | None:
        return kind

    return classify


def _aws_or_google(original: bytes, match: re.Match[bytes]) -> SecretKind | None:
    if match.start("google") != -1:
        return SecretKind.GOOGLE_API_KEY
    if b"example" in _group(original, match, 0).lower():
        return None
    return SecretKind.AWS_ACCESS_KEY_ID


def _after_dash(original: bytes, match: re.Match[bytes]) -> SecretKind | None:
    if match.start("openai") != -1:
        if match.start("anthropic") != -1:
            return SecretKind.ANTHROPIC_API_KEY
        return SecretKind.OPENAI_API_KEY if _is_random(_group(original, match, "openai")) else None
    if match.start("slack") != -1:
        return SecretKind.SLACK_TOKEN if _is_random(_group(original, match, "slack")) else None
    return SecretKind.PRIVATE_KEY


def _after_underscore(original: bytes, match: re.Match[bytes]) -> SecretKind | None:
    if match.start("stripe") != -1:
        return SecretKind.STRIPE_KEY if _is_random(_group(original, match, "stripe")) else None
    return SecretKind.GITHUB_TOKEN


def _url_password(original: bytes, match: re.Match[bytes]) -> SecretKind | None:
    return (
        None if is_placeholder(_group(original, match, "password")) else SecretKind.PASSWORD_IN_URL
    )


def _bearer(original: bytes, match: re.Match[bytes]) -> SecretKind | None:
    token = _group(original, match, "token")
    if is_placeholder(token) or token.isupper():
        return None
    return SecretKind.BEARER_TOKEN


def _is_generic_secret(original: bytes, match: re.Match[bytes]) -> bool:
    if _after_word(original, match.start()):
        return False  # `mypassword=`: the keyword ends a longer word
    value = _group(original, match, "value")
    if is_placeholder(value) or shannon_entropy(value) < MIN_ENTROPY_BITS:
        return False
    if value.startswith((b"/", b"~", b".")) or _REFERENCE.fullmatch(value):
        return False  # a path (`PWD=/home/x`) or a dotted reference (`os.environ`)
    after = original[match.end("value") : match.end("value") + 2]
    if match.start("quote") != -1:
        # The whole quoted string is the value: `"password": "Wrong password"` is a message.
        return after[:1] in (b'"', b"'") or after in (b'\\"', b"\\'")
    if after[:1] == b"(":
        return False  # a call: `token = make_token(...)`
    return _has_digit(value) or not _IDENTIFIER.fullmatch(value)


def _generic(original: bytes, match: re.Match[bytes]) -> SecretKind | None:
    return SecretKind.GENERIC_SECRET if _is_generic_secret(original, match) else None


def _aws_secret_or_generic(original: bytes, match: re.Match[bytes]) -> SecretKind | None:
    start = match.start()
    value = _group(original, match, "value")
    named_aws = match.start("access") != -1 or original[max(0, start - 4) : start].lower() in (
        b"aws_",
        b"aws-",
    )
    if (
        named_aws
        and not _after_word(original, start)
        and _AWS_SECRET_VALUE.fullmatch(value)
        and not is_placeholder(value)
        and shannon_entropy(value) >= MIN_ENTROPY_BITS
    ):
        return SecretKind.AWS_SECRET_ACCESS_KEY
    return _generic(original, match)


_B64URL = rb"[A-Za-z0-9_-]"
# After a key: an optional quote, possibly JSON-escaped (`\"password\": \"...\"` inside a
# transcript), then `:` or `=`; then the value, optionally quoted.
_ASSIGNED_VALUE = (
    rb"\\{0,2}[\"']?[ \t]{0,8}[:=][ \t]{0,8}"
    rb"(?P<quote>\\{0,2}[\"'])?(?P<value>[^\s\"'`,;&<>(){}\[\]\\]{8,256})"
)


def _assignment(keyword: bytes) -> re.Pattern[bytes]:
    return re.compile(keyword + _ASSIGNED_VALUE)


PATTERNS: tuple[SecretPattern, ...] = (
    SecretPattern(
        (
            SecretKind.PRIVATE_KEY,
            SecretKind.ANTHROPIC_API_KEY,
            SecretKind.OPENAI_API_KEY,
            SecretKind.SLACK_TOKEN,
        ),
        # Everything found at a `-`: the PEM header, `sk-` keys (`sk-ant-` is Anthropic's, any
        # other OpenAI's: one alternative, so a key has one kind) and Slack tokens.
        re.compile(
            rb"-(?:"
            rb"----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP |SSH2 ENCRYPTED )?"
            rb"PRIVATE KEY(?: BLOCK)?-----"
            rb"|(?<=sk-)(?<![A-Za-z0-9_-]sk-)(?P<openai>(?P<anthropic>ant-)?"
            + _B64URL
            + rb"{20,250})"
            rb"|(?<=xox[abposr]-)(?<![A-Za-z0-9_-]xox[abposr]-)(?P<slack>[A-Za-z0-9-]{10,250})"
            rb")"
        ),
        _after_dash,
    ),
    SecretPattern(
        (SecretKind.GITHUB_TOKEN, SecretKind.STRIPE_KEY),
        # Everything found at a `_`: GitHub's ghp_/gho_/ghu_/ghs_/ghr_ and github_pat_ tokens,
        # Stripe secret and restricted keys (publishable pk_ keys are public: not matched).
        re.compile(
            rb"_(?:"
            rb"(?<=gh[pousr]_)(?<![A-Za-z0-9_]gh[pousr]_)[A-Za-z0-9]{36,251}(?![A-Za-z0-9_])"
            rb"|(?<=github_pat_)(?<![A-Za-z0-9_]github_pat_)[A-Za-z0-9_]{22,255}(?![A-Za-z0-9_])"
            rb"|(?<=[sr]k_)(?<![A-Za-z0-9_][sr]k_)(?:live|test)_(?P<stripe>[A-Za-z0-9]{16,250})"
            rb")"
        ),
        _after_underscore,
    ),
    SecretPattern(
        (SecretKind.AWS_ACCESS_KEY_ID, SecretKind.GOOGLE_API_KEY),
        re.compile(
            rb"A(?<![A-Za-z0-9]A)(?:"
            rb"(?:KIA|SIA|BIA|CCA|3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])"
            rb"|(?P<google>Iza)" + _B64URL + rb"{35}(?!" + _B64URL + rb"))"
        ),
        _aws_or_google,
    ),
    SecretPattern(
        (SecretKind.SLACK_WEBHOOK,),
        re.compile(
            rb"hooks\.slack\.com/services/T[A-Za-z0-9_]{6,40}/B[A-Za-z0-9_]{6,40}/[A-Za-z0-9_]{8,100}"
        ),
        _always(SecretKind.SLACK_WEBHOOK),
    ),
    SecretPattern(
        (SecretKind.JWT,),
        # Header and payload are base64url JSON objects (`{"` encodes as `eyJ`), then a signature.
        re.compile(
            rb"eyJ(?<![A-Za-z0-9_-]eyJ)"
            + _B64URL
            + rb"{4,500}\.eyJ"
            + _B64URL
            + rb"{4,4000}\."
            + _B64URL
            + rb"{8}"
        ),
        _always(SecretKind.JWT),
    ),
    SecretPattern(
        (SecretKind.PASSWORD_IN_URL,),
        # scheme://user:password@host (the user may be empty: redis://:password@host).
        re.compile(
            rb"://[^\s:/?#@\"'<>\\]{0,128}:(?P<password>[^\s/?#@\"'<>\\]{1,256})@[A-Za-z0-9\[_]"
        ),
        _url_password,
    ),
    SecretPattern(
        (SecretKind.BEARER_TOKEN,),
        re.compile(
            rb"authorization(?<![a-z0-9_-]authorization)\\{0,2}[\"']?[ \t]{0,8}[:=][ \t]{0,8}"
            rb"\\{0,2}[\"']?[ \t]{0,8}bearer[ \t]{1,8}(?P<token>[a-z0-9._~+/=-]{8,1024})"
        ),
        _bearer,
        lower=True,
    ),
    SecretPattern(
        (SecretKind.AWS_SECRET_ACCESS_KEY, SecretKind.GENERIC_SECRET),
        # secret, secret_key, client_secret, aws_secret_access_key, secretAccessKey...
        _assignment(rb"secret(?:(?P<access>[_-]?access)?[_-]?key)?"),
        _aws_secret_or_generic,
        lower=True,
    ),
    SecretPattern(
        (SecretKind.GENERIC_SECRET,),
        _assignment(rb"p(?:ass(?:word|wd|phrase)|wd)"),
        _generic,
        lower=True,
    ),
    # token, access_token, auth_token, refresh_token, github_token...
    SecretPattern((SecretKind.GENERIC_SECRET,), _assignment(rb"token"), _generic, lower=True),
    SecretPattern((SecretKind.GENERIC_SECRET,), _assignment(rb"api[_-]?key"), _generic, lower=True),
)
