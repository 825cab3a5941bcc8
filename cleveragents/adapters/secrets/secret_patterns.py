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

A classifier returns a `Hit` (`pattern_model.py`): the kind, the rule and the credential's span.

What a match must also be to count (placeholders, entropy, shapes of code) is in
`secret_values.py`; the classifiers are in `format_classifiers.py` (credentials with a format of
their own) and `assignment_classifiers.py` (`password=`, `token: ...`). Each exclusion there is
needed to keep the benign corpus (logs, diffs, JSON, markdown, code, transcripts) and ordinary
program text (an installed site-packages) free of false findings.
"""

from __future__ import annotations

import re

from cleveragents.adapters.secrets.assignment_classifiers import (
    classify_password,
    classify_secret,
    generic_assignment,
)
from cleveragents.adapters.secrets.format_classifiers import (
    classify_a_literal,
    classify_after_dash,
    classify_after_underscore,
    classify_bearer,
    classify_sendgrid,
    classify_url_password,
)
from cleveragents.adapters.secrets.jwt_classifier import classify_jwt
from cleveragents.adapters.secrets.pattern_model import SecretPattern, whole_match
from cleveragents.domain.secrets import SecretKind

# No pattern matches more than this many bytes (a unit test checks every pattern).
MAX_MATCH_BYTES = 4608


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
            rb"PRIVATE KEY(?: BLOCK)?-----(?P<pem>)"
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
        classify_after_dash,
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
        classify_after_underscore,
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
        classify_a_literal,
        rules=("aws-access-key-id", "google-api-key", "azure-storage-key"),
    ),
    SecretPattern(
        (SecretKind.SLACK_WEBHOOK,),
        re.compile(
            rb"hooks\.slack\.com/services/T[A-Za-z0-9_]{6,40}/B[A-Za-z0-9_]{6,40}/[A-Za-z0-9_]{8,100}"
        ),
        whole_match(SecretKind.SLACK_WEBHOOK),
        rules=("slack-webhook",),
        anchor=b"hooks.slack.com/services/T",
    ),
    SecretPattern(
        (SecretKind.SENDGRID_API_KEY,),
        # SendGrid: SG.<22>.<43>, base64url.
        re.compile(
            rb"SG\.(?<![A-Za-z0-9_-]SG\.)" + _B64URL + rb"{16,32}\." + _B64URL + rb"{30,60}"
        ),
        classify_sendgrid,
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
        classify_jwt,
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
        classify_url_password,
        rules=("password-in-url",),
        anchor=b"://",
    ),
    SecretPattern(
        (SecretKind.BEARER_TOKEN,),
        re.compile(
            rb"authorization\\{0,2}[\"']?[ \t]{0,8}[:=][ \t]{0,8}"
            rb"\\{0,2}[\"']?[ \t]{0,8}bearer[ \t]{1,8}(?P<token>[a-z0-9._~+/=-]{8,1024})"
        ),
        classify_bearer,
        lower=True,
        rules=("bearer-token",),
        anchor=b"authorization",
    ),
    SecretPattern(
        (SecretKind.AWS_SECRET_ACCESS_KEY, SecretKind.GENERIC_SECRET),
        # secret, secret_key, client_secret, aws_secret_access_key, secretAccessKey...
        _assignment(rb"secret(?:(?P<access>[_-]?access)?[_-]?key)?"),
        classify_secret,
        lower=True,
        rules=("aws-secret-access-key", "secret"),
        anchor=b"secret",
    ),
    SecretPattern(
        (SecretKind.GENERIC_SECRET,),
        re.compile(_PASSWORD_KEYWORD + _ASSIGNED_VALUE),
        classify_password,
        lower=True,
        rules=("password",),
    ),
    # token, access_token, auth_token, refresh_token, github_token...
    SecretPattern(
        (SecretKind.GENERIC_SECRET,),
        _assignment(rb"token"),
        generic_assignment("token"),
        lower=True,
        rules=("token",),
        anchor=b"token",
    ),
    SecretPattern(
        (SecretKind.GENERIC_SECRET,),
        _assignment(rb"api[_-]?key"),
        generic_assignment("api-key"),
        lower=True,
        rules=("api-key",),
        anchor=b"api",
    ),
)
