"""The credential patterns of the built-in scanner.

Patterns work on raw bytes: every credential format we look for is ASCII, so invalid UTF-8 in
tool output is just bytes that match nothing, and positions stay exact. Every quantifier is
bounded and none is nested, so no match is longer than `MAX_MATCH_BYTES` (the scanner's window
overlap depends on it; a unit test checks it) and no start costs more than that much work.
Nothing matches across a newline, except a PEM private key's body (to its END line, so that a
redaction removes the key, not only its header).

Speed: each regex begins with a literal (`-`, `_`, `A`, `eyJ`, `://`, `token`...), which lets the
regex engine jump from one occurrence of the literal to the next instead of trying every
position. That is why left word boundaries are lookbehinds placed after the literal
(`sk-(?<![A-Za-z0-9_-]sk-)`) or checks in the classifier, and why several kinds that share a
literal share one regex (`-`: PEM keys, `sk-`, `xox?-`, `glpat-`; `_`: GitHub, Stripe, npm and
Hugging Face tokens, `.npmrc` credentials; `A`: AWS key ids, Google API keys, Azure account
keys). Case-insensitive patterns (header and assignment names) are written in lower case and run
over the lower-cased bytes (`bytes.lower` keeps positions, and is far faster than
`re.IGNORECASE`, which disables that jump); their classifiers read the original bytes.

That jump still reads every byte, one at a time, once per pattern. A pattern may name a piece of
its literal as its `anchor`: the scanner then hops from one occurrence to the next with
`bytes.find`, which skips ahead by up to the anchor's length (`authorization`, `secret`) or, for
one byte, uses `memchr`, and tries the regex only there. A literal holding a byte that text
seldom has anchors on that byte (`J` of `eyJ`, `G` of `SG.`); the one-byte literals (`-`, `_`,
`A`) are too common in text for hopping to pay. Every match also holds at least three printable
ASCII characters in a row (its literal): the UTF-16LE pass looks only where a window has three.

A classifier returns a `Hit`: the kind (a `SecretKind`), the rule (the detailed kind, e.g.
``password`` where the kind is ``generic-secret``), and the span of the credential itself, which
a redaction replaces and a fingerprint hashes.

Exclusions, each needed to keep the benign corpus (logs, diffs, JSON, markdown, code,
transcripts) and ordinary program text (an installed site-packages) free of false findings:
- Placeholders are not credentials: values starting with `$`, `%`, `{`, `<` or `[` (`$VAR`,
  `${VAR}`, `%s`, `{password}`, `<token>`), masks made only of `*x.#-_`, values of fewer than
  four distinct bytes (`ghp_000...`, `AKIAXXXX...`), the words in `_PLACEHOLDER_WORDS` and values
  containing a word of `_PLACEHOLDER_MARKERS` (`example`, which also covers AWS's documented
  example keys, `changeme`, `your-`, `your_`, `xxxx`...).
- Generic assignments (`password=`, `"token": ...`): the value needs >= 3.0 bits of entropy per
  byte (2.0 for a password, which people choose); a quoted value must be the whole quoted string
  (`"password": "Wrong password"` is a message); an unquoted value that is a bare identifier
  without a digit (`token: csrfToken`), a dotted reference (`document.querySelector`, and with a
  suffix `android.os.BinderProxy@2bd79ce`, `com.apple.xpc.activity/4505`), a call (`token =
  mint(...)`) or a path (`PWD=/home/x`) is code or configuration, not a credential. A
  letter-only password (`password=hunter`) is reported when it is assigned with `=` and ends its
  line or word, not when it is a keyword argument (`f(password=hashed)`).
- Key bodies after a fixed prefix (OpenAI, Slack, Stripe, GitLab) need >= 3.0 bits per byte and
  (but GitLab's) a digit: prose or identifiers shaped like `sk-...` never pass, real keys
  practically always do.
- Bearer tokens that are upper-case identifiers (`Bearer YOUR_API_TOKEN`) name a variable;
  upper-case hexadecimal (`Bearer 9F86D081...`) is a token.
- Stripe publishable keys (`pk_live_`, `pk_test_`) are public by design and are not reported.
"""

from __future__ import annotations

import math
import re
import urllib.parse
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from cleveragents.domain.secrets import SecretKind

# No pattern matches more than this many bytes (a unit test checks every pattern).
MAX_MATCH_BYTES = 4608

MIN_ENTROPY_BITS = 3.0
MIN_PASSWORD_ENTROPY_BITS = 2.0
MIN_VALUE_BYTES = 8
MIN_PASSWORD_BYTES = 6
MIN_BEARER_BYTES = 16


@dataclass(frozen=True, slots=True)
class Hit:
    """What a match is: its kind, its detailed rule and the span of the credential."""

    kind: SecretKind
    rule: str
    start: int
    end: int


Classifier = Callable[[bytes, "re.Match[bytes]"], Hit | None]


@dataclass(frozen=True, slots=True)
class SecretPattern:
    """One regex and how to read its matches.

    `regex` runs over the original bytes, or over the lower-cased bytes when `lower` is set (then
    it is written in lower case). `classify(original, match)` reads the original bytes and returns
    a `Hit`, or `None` for a placeholder, a reference or a near miss. `kinds` lists the kinds it
    can return and `rules` its rules. `anchor`, when set, is a piece of the regex's leading
    literal, at `anchor_offset` in it: every match has it there, so the scanner tries the regex
    only where `bytes.find` finds it.
    """

    kinds: tuple[SecretKind, ...]
    regex: re.Pattern[bytes]
    classify: Classifier
    lower: bool = False
    rules: tuple[str, ...] = ()
    anchor: bytes = b""
    anchor_offset: int = 0


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
# `not-a-real-secret` (not `hunter2Secret9x`).
_NAMING_WORD = re.compile(rb"(?:^|[^a-z0-9])(?:password|passwd|secret|token)(?:[^a-z]|$)")
_PLACEHOLDER_STARTS = (b"$", b"%", b"{", b"<", b"[", b"(")
_MASK_BYTES = frozenset(b"*x.#-_")
_MIN_DISTINCT_BYTES = 4
# A dotted reference, optionally with what a runtime prints after it: `os.environ`,
# `android.os.BinderProxy@2bd79ce`, `com.apple.xpc.activity/4505`.
_REFERENCE = re.compile(
    rb"[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+(?:[@/#:][A-Za-z0-9_./-]*)?"
)
_IDENTIFIER = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_LETTERS = re.compile(rb"[A-Za-z]+")
_CALL = re.compile(rb"[A-Za-z_][A-Za-z0-9_.]*\(")
_AWS_SECRET_VALUE = re.compile(rb"[A-Za-z0-9/+]{40}")
_VARIABLE_NAME = re.compile(rb"[A-Z][A-Z_]*")


def is_placeholder(value: bytes) -> bool:
    """A template variable, a mask or a word standing in for a credential."""
    lowered = value.lower()
    return (
        not value
        or value.startswith(_PLACEHOLDER_STARTS)
        or set(lowered) <= _MASK_BYTES
        or len(set(lowered)) < _MIN_DISTINCT_BYTES
        or lowered in _PLACEHOLDER_WORDS
        or any(marker in lowered for marker in _PLACEHOLDER_MARKERS)
        or _NAMING_WORD.search(lowered) is not None
    )


def _has_digit(value: bytes) -> bool:
    return any(48 <= byte <= 57 for byte in value)


def _is_random(value: bytes, *, digit: bool = True) -> bool:
    return (
        (_has_digit(value) or not digit)
        and shannon_entropy(value) >= MIN_ENTROPY_BITS
        and not is_placeholder(value)
    )


def _group(original: bytes, match: re.Match[bytes], group: int | str) -> bytes:
    start, end = match.span(group)
    return original[start:end]


def _after_word(original: bytes, position: int) -> bool:
    """Whether the byte before `position` is an ASCII letter or digit, and not the letter of
    an escape (`\\npassword=`: JSON-escaped output, where a line starts after `\\n`)."""
    before = original[max(0, position - 2) : position]
    if before in (b"\\n", b"\\r", b"\\t"):
        return False
    return before[-1:].isalnum()


def _hit(kind: SecretKind, rule: str, start: int, end: int) -> Hit:
    return Hit(kind, rule, start, end)


def _whole(kind: SecretKind) -> Classifier:
    def classify(original: bytes, match: re.Match[bytes]) -> Hit | None:
        return _hit(kind, kind.value, match.start(), match.end())

    return classify


def _a_literal(original: bytes, match: re.Match[bytes]) -> Hit | None:
    if match.start("google") != -1:
        body = _group(original, match, 0)
        if is_placeholder(body[4:]):
            return None
        return _hit(SecretKind.GOOGLE_API_KEY, "google-api-key", *match.span())
    if match.start("azure") != -1:
        value = _group(original, match, "azure")
        if not _is_random(value, digit=False):
            return None
        return _hit(SecretKind.AZURE_STORAGE_KEY, "azure-storage-key", *match.span("azure"))
    body = _group(original, match, 0)
    if b"example" in body.lower() or is_placeholder(body[4:]):
        return None
    return _hit(SecretKind.AWS_ACCESS_KEY_ID, "aws-access-key-id", *match.span())


def _after_dash(original: bytes, match: re.Match[bytes]) -> Hit | None:
    start, end = match.span()
    if match.start("openai") != -1:
        if match.start("anthropic") != -1:
            return _hit(SecretKind.ANTHROPIC_API_KEY, "anthropic-api-key", start - 2, end)
        if not _is_random(_group(original, match, "openai")):
            return None
        return _hit(SecretKind.OPENAI_API_KEY, "openai-api-key", start - 2, end)
    if match.start("slack") != -1:
        if not _is_random(_group(original, match, "slack")):
            return None
        return _hit(SecretKind.SLACK_TOKEN, "slack-token", start - 4, end)
    if match.start("gitlab") != -1:
        if not _is_random(_group(original, match, "gitlab"), digit=False):
            return None
        return _hit(SecretKind.GITLAB_TOKEN, "gitlab-token", start - 5, end)
    return _hit(SecretKind.PRIVATE_KEY, "private-key", start, end)


def _after_underscore(original: bytes, match: re.Match[bytes]) -> Hit | None:
    start, end = match.span()
    if match.start("stripe") != -1:
        if not _is_random(_group(original, match, "stripe")):
            return None
        return _hit(SecretKind.STRIPE_KEY, "stripe-key", start - 2, end)
    if match.start("npm") != -1:
        if not _is_random(_group(original, match, "npm"), digit=False):
            return None
        return _hit(SecretKind.NPM_TOKEN, "npm-token", start - 3, end)
    if match.start("hf") != -1:
        if not _is_random(_group(original, match, "hf"), digit=False):
            return None
        return _hit(SecretKind.HUGGINGFACE_TOKEN, "huggingface-token", start - 2, end)
    if match.start("npmrc") != -1:
        value = _group(original, match, "npmrc")
        if is_placeholder(value) or shannon_entropy(value) < MIN_ENTROPY_BITS:
            return None
        return _hit(SecretKind.NPM_TOKEN, "npm-auth-token", *match.span("npmrc"))
    if match.start("pat") != -1:
        body = _group(original, match, "pat")
        return (
            _hit(SecretKind.GITHUB_TOKEN, "github-token", start - 10, end)
            if _is_random(body, digit=False)
            else None
        )
    body = _group(original, match, 0)
    if not _is_random(body, digit=False):
        return None
    return _hit(SecretKind.GITHUB_TOKEN, "github-token", start - 3, end)


def _url_password(original: bytes, match: re.Match[bytes]) -> Hit | None:
    start, end = match.span("password")
    password = original[start:end]
    if b":" in password:
        # `host:port,user:pass@host` (a multi-host URL): the password follows the last colon.
        start += password.rindex(b":") + 1
        password = original[start:end]
    user = original[match.start() + 3 : match.start("password") - 1].lower()
    # scott/tiger: Oracle's demo account, in every SQLAlchemy URL example.
    if is_placeholder(urllib.parse.unquote_to_bytes(password)) or user == b"scott":
        return None
    if len(password) < MIN_PASSWORD_BYTES and _LETTERS.fullmatch(password):
        return None  # `foo:bar@`
    return _hit(SecretKind.PASSWORD_IN_URL, "password-in-url", start, end)


def _bearer(original: bytes, match: re.Match[bytes]) -> Hit | None:
    token = _group(original, match, "token")
    if _after_word(original, match.start()) or original[match.start() - 1 : match.start()] in (
        b"_",
        b"-",
    ):
        return None  # `proxy_authorization`, `x-authorization`: another header
    if len(token) < MIN_BEARER_BYTES or not _has_digit(token):
        return None  # `Bearer account-b`: a word in a sentence, not a token
    if is_placeholder(token) or _VARIABLE_NAME.fullmatch(token):
        return None  # `Bearer YOUR_API_TOKEN` names a variable; `Bearer 9F86D0...` is a token
    return _hit(SecretKind.BEARER_TOKEN, "bearer-token", *match.span("token"))


# Where an unquoted value ends (the regex takes what a quoted one may hold: one class, fast).
_UNQUOTED_END = re.compile(rb"[`,;&<>(){}\[\]]")
# A password's may hold `& ; , (` (a .env line, a YAML value).
_UNQUOTED_PASSWORD_END = re.compile(rb"[`<>{}\[\]]")


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
    if _after_word(original, match.start()):
        return False  # `mypassword=`: the keyword ends a longer word
    value = original[start:end]
    minimum_bytes = MIN_PASSWORD_BYTES if password else MIN_VALUE_BYTES
    minimum_bits = MIN_PASSWORD_ENTROPY_BITS if password else MIN_ENTROPY_BITS
    if len(value) < minimum_bytes or is_placeholder(value):
        return False
    if shannon_entropy(value) < minimum_bits:
        return False
    if value.startswith((b"/", b"~", b".")) or _REFERENCE.fullmatch(value):
        return False  # a path (`PWD=/home/x`) or a dotted reference (`os.environ`)
    after = original[end : end + 2]
    if not password and not _has_digit(value):
        # Keys and tokens are random: practically always with a digit. Without one, a value is
        # a name (`"OPENAI_API_KEY"`, `"upgrades"`) or prose (`api_key: Explicitly-provided`).
        return False
    if match.start("quote") != -1:
        # The whole quoted string is the value: `"password": "Wrong password"` is a message.
        whole = after[:1] in (b'"', b"'") or after in (b'\\"', b"\\'")
        return whole and (_has_digit(value) or not _IDENTIFIER.fullmatch(value))
    if after[:1] == b"(" or _CALL.match(value):
        return False  # a call: `token = make_token(...)`
    if _has_digit(value) or not _IDENTIFIER.fullmatch(value):
        return True
    # A bare word: code (`token: csrfToken`), unless it is a password assigned as an
    # environment variable or an option is (`password=hunter`, at the end of its word).
    separator = original[start - 1 : start]
    return (
        password
        and separator == b"="
        and _LETTERS.fullmatch(value) is not None
        and after[:1] in (b"", b"\n", b"\r", b" ", b"\t", b"&", b";", b"\\")
    )


def _generic(rule: str) -> Classifier:
    def classify(original: bytes, match: re.Match[bytes]) -> Hit | None:
        start, end = _value_span(original, match, _UNQUOTED_END)
        if not _is_generic_secret(original, match, start, end, password=False):
            return None
        return _hit(SecretKind.GENERIC_SECRET, rule, start, end)

    return classify


_QUERY_NEXT = re.compile(rb"&[A-Za-z_][A-Za-z0-9_]*=")


def _password_hit(original: bytes, match: re.Match[bytes]) -> Hit | None:
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
    return _hit(SecretKind.GENERIC_SECRET, "password", start, end)


def _aws_secret_or_generic(original: bytes, match: re.Match[bytes]) -> Hit | None:
    start = match.start()
    value_start, value_end = _value_span(original, match, _UNQUOTED_END)
    value = original[value_start:value_end]
    named_aws = match.start("access") != -1 or original[max(0, start - 4) : start].lower() in (
        b"aws_",
        b"aws-",
    )
    if (
        named_aws
        and not _after_word(original, start)
        and _AWS_SECRET_VALUE.fullmatch(value)
        and _is_random(value, digit=False)
    ):
        return _hit(
            SecretKind.AWS_SECRET_ACCESS_KEY, "aws-secret-access-key", value_start, value_end
        )
    return _generic("secret")(original, match)


_B64URL = rb"[A-Za-z0-9_-]"
# After a key: an optional quote, possibly JSON-escaped (`\"password\": \"...\"` inside a
# transcript), then `:` or `=`; then the value, optionally quoted: printable ASCII but blanks,
# quotes and backslashes (in a binary, a .pyc, `Password: T)\x05r...` holds no value). An
# unquoted value ends earlier, at punctuation that ends a value in code or a query string
# (`_UNQUOTED_END`): cut by the classifier, so that the regex is one optional group and one
# class, as fast as the literal search before it.
_ASSIGNED_VALUE = (
    rb"\\{0,2}[\"']?[ \t]{0,8}[:=][ \t]{0,8}"
    rb"(?P<quote>\\{0,2}[\"'])?(?P<value>[^\x00-\x20\x7f-\xff\"'\\]{6,256})"
)
_PASSWORD_KEYWORD = rb"p(?:ass(?:word|wd|phrase)|wd)"


def _assignment(keyword: bytes) -> re.Pattern[bytes]:
    return re.compile(keyword + _ASSIGNED_VALUE)


PATTERNS: tuple[SecretPattern, ...] = (
    SecretPattern(
        (
            SecretKind.PRIVATE_KEY,
            SecretKind.ANTHROPIC_API_KEY,
            SecretKind.OPENAI_API_KEY,
            SecretKind.SLACK_TOKEN,
            SecretKind.GITLAB_TOKEN,
        ),
        # Everything found at a `-`: the PEM header with its body (to the END line, or as much
        # of it as there is), `sk-` keys (`sk-ant-` is Anthropic's, any other OpenAI's: one
        # alternative, so a key has one kind), Slack tokens and GitLab tokens.
        re.compile(
            rb"-(?:"
            rb"----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP |SSH2 ENCRYPTED )?"
            rb"PRIVATE KEY(?: BLOCK)?-----"
            rb"(?:[A-Za-z0-9+/=\s\\:,-]{0,4096}?-----END [A-Z0-9 ]{0,24}PRIVATE KEY(?: BLOCK)?-----"
            rb"|[A-Za-z0-9+/=\s\\:,]{0,4096})"
            # One look at the byte before first (`k` of sk-, `b` of xoxb-, `t` of glpat-...):
            # most `-` in text (dates, words) stop there.
            rb"|(?<=[abkoprst]-)(?:"
            rb"(?<=sk-)(?<![A-Za-z0-9_-]sk-)(?P<openai>(?P<anthropic>ant-)?"
            + _B64URL
            + rb"{20,250})"
            rb"|(?<=xox[abposr]-)(?<![A-Za-z0-9_-]xox[abposr]-)(?P<slack>[A-Za-z0-9-]{10,250})"
            rb"|(?<=glpat-)(?<![A-Za-z0-9_-]glpat-)(?P<gitlab>[A-Za-z0-9_.-]{20,80})"
            rb"))"
        ),
        _after_dash,
        rules=("private-key", "anthropic-api-key", "openai-api-key", "slack-token", "gitlab-token"),
    ),
    SecretPattern(
        (
            SecretKind.GITHUB_TOKEN,
            SecretKind.STRIPE_KEY,
            SecretKind.NPM_TOKEN,
            SecretKind.HUGGINGFACE_TOKEN,
        ),
        # Everything found at a `_`: GitHub's ghp_/gho_/ghu_/ghs_/ghr_ and github_pat_ tokens,
        # Stripe secret and restricted keys (publishable pk_ keys are public: not matched), npm
        # and Hugging Face tokens, and an `.npmrc`'s `:_authToken=` and `:_password=`.
        # `_` is common (snake_case): the alternatives that can start by reading the byte after
        # it (`l`/`t` of Stripe's live_/test_, `a`/`p` of .npmrc's names) do, which the regex
        # engine checks without entering them, and the others share one look at the byte before.
        re.compile(
            rb"_(?:"
            rb"[lt](?<=[sr]k_[lt])(?<![A-Za-z0-9_][sr]k_[lt])(?:(?<=l)ive|(?<=t)est)_"
            rb"(?P<stripe>[A-Za-z0-9]{16,250})"
            rb"|[ap](?<=:_[ap])(?:(?<=a)uthToken|(?<=p)assword|(?<=a)uth)[ \t]{0,8}=[ \t]{0,8}\"?"
            rb"(?P<npmrc>[A-Za-z0-9+/=_.-]{8,512})(?![^\s\"'#])"
            rb"|(?<=[pousrtmf]_)(?:"
            rb"(?<=gh[pousr]_)(?<![A-Za-z0-9_]gh[pousr]_)[A-Za-z0-9]{36,251}(?![A-Za-z0-9_])"
            rb"|(?<=github_pat_)(?<![A-Za-z0-9_]github_pat_)(?P<pat>[A-Za-z0-9_]{22,255})"
            rb"(?![A-Za-z0-9_])"
            rb"|(?<=npm_)(?<![A-Za-z0-9_]npm_)(?P<npm>[A-Za-z0-9]{36})(?![A-Za-z0-9_])"
            rb"|(?<=hf_)(?<![A-Za-z0-9_]hf_)(?P<hf>[A-Za-z0-9]{30,40})(?![A-Za-z0-9_])"
            rb"))"
        ),
        _after_underscore,
        rules=(
            "github-token",
            "stripe-key",
            "npm-token",
            "huggingface-token",
            "npm-auth-token",
        ),
    ),
    SecretPattern(
        (SecretKind.AWS_ACCESS_KEY_ID, SecretKind.GOOGLE_API_KEY, SecretKind.AZURE_STORAGE_KEY),
        re.compile(
            rb"A(?<![A-Za-z0-9]A)(?:"
            rb"(?:KIA|SIA|BIA|CCA|3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])"
            rb"|(?P<google>Iza)" + _B64URL + rb"{35}(?!" + _B64URL + rb")"
            # An Azure storage connection string's key: 64 bytes in base64.
            rb"|ccountKey[ \t]{0,4}=[ \t]{0,4}(?P<azure>[A-Za-z0-9+/]{40,100}={0,2})"
            rb")"
        ),
        _a_literal,
        rules=("aws-access-key-id", "google-api-key", "azure-storage-key"),
    ),
    SecretPattern(
        (SecretKind.SLACK_WEBHOOK,),
        re.compile(
            rb"hooks\.slack\.com/services/T[A-Za-z0-9_]{6,40}/B[A-Za-z0-9_]{6,40}/[A-Za-z0-9_]{8,100}"
        ),
        _whole(SecretKind.SLACK_WEBHOOK),
        rules=("slack-webhook",),
        anchor=b"hooks.slack.com/services/T",
    ),
    SecretPattern(
        (SecretKind.SENDGRID_API_KEY,),
        # SendGrid: SG.<22>.<43>, base64url.
        re.compile(
            rb"SG\.(?<![A-Za-z0-9_-]SG\.)" + _B64URL + rb"{16,32}\." + _B64URL + rb"{30,60}"
        ),
        lambda original, match: (
            _hit(SecretKind.SENDGRID_API_KEY, "sendgrid-api-key", *match.span())
            if _is_random(_group(original, match, 0)[3:], digit=False)
            else None
        ),
        rules=("sendgrid-api-key",),
        anchor=b"G",
        anchor_offset=1,
    ),
    SecretPattern(
        (SecretKind.JWT,),
        # Header and payload are base64url JSON objects (`{"` encodes as `eyJ`), then a signature.
        re.compile(
            rb"eyJ(?<![A-Za-z0-9_-]eyJ)"
            + _B64URL
            + rb"{4,500}\.eyJ"
            + _B64URL
            + rb"{4,3500}\."
            + _B64URL
            + rb"{8,600}"
        ),
        _whole(SecretKind.JWT),
        rules=("jwt",),
        anchor=b"J",
        anchor_offset=2,
    ),
    SecretPattern(
        (SecretKind.PASSWORD_IN_URL,),
        # scheme://user:password@host (the user may be empty: redis://:password@host).
        re.compile(
            rb"://[^\s:/?#@\"'<>\\]{0,128}:(?P<password>[^\s/?#@\"'<>\\]{1,256})@[A-Za-z0-9\[_]"
        ),
        _url_password,
        rules=("password-in-url",),
        anchor=b"://",
    ),
    SecretPattern(
        (SecretKind.BEARER_TOKEN,),
        re.compile(
            rb"authorization\\{0,2}[\"']?[ \t]{0,8}[:=][ \t]{0,8}"
            rb"\\{0,2}[\"']?[ \t]{0,8}bearer[ \t]{1,8}(?P<token>[a-z0-9._~+/=-]{8,1024})"
        ),
        _bearer,
        lower=True,
        rules=("bearer-token",),
        anchor=b"authorization",
    ),
    SecretPattern(
        (SecretKind.AWS_SECRET_ACCESS_KEY, SecretKind.GENERIC_SECRET),
        # secret, secret_key, client_secret, aws_secret_access_key, secretAccessKey...
        _assignment(rb"secret(?:(?P<access>[_-]?access)?[_-]?key)?"),
        _aws_secret_or_generic,
        lower=True,
        rules=("aws-secret-access-key", "secret"),
        anchor=b"secret",
    ),
    SecretPattern(
        (SecretKind.GENERIC_SECRET,),
        re.compile(_PASSWORD_KEYWORD + _ASSIGNED_VALUE),
        _password_hit,
        lower=True,
        rules=("password",),
    ),
    # token, access_token, auth_token, refresh_token, github_token...
    SecretPattern(
        (SecretKind.GENERIC_SECRET,),
        _assignment(rb"token"),
        _generic("token"),
        lower=True,
        rules=("token",),
        anchor=b"token",
    ),
    SecretPattern(
        (SecretKind.GENERIC_SECRET,),
        _assignment(rb"api[_-]?key"),
        _generic("api-key"),
        lower=True,
        rules=("api-key",),
        anchor=b"api",
    ),
)
