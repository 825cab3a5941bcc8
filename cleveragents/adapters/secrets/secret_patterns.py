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
literal share one regex (`-`: PEM keys, `sk-`, `xox?-`, GitLab's and the other `DASH_FORMATS`;
`_`: GitHub, Stripe, npm and Hugging Face tokens, `.npmrc` credentials, `UNDERSCORE_FORMATS`;
`A`: AWS key ids, Google API keys, Azure account keys, `A_FORMATS`; `.`: `DOT_FORMATS`, SendGrid
and Vault among them; the vendor formats are in `vendor_formats.py`). `-` and `_` are common in
text: after them a `gate` lets only the last two bytes of a prefix found there go on (`sk`,
`at` of glpat-, `pa` of shppa_...), one class then one set of pairs, each pair an alternative
that starts with a literal byte, which the engine skips without entering it; an alternative
that starts by reading ahead (`us` of Mailchimp's `-us21`) costs one byte compare. Adding a
format to a pass costs about nothing where its prefix's last two bytes are rare before that
literal. Case-insensitive patterns (header and assignment names) are written in lower case and run
over the lower-cased bytes (`bytes.lower` keeps positions, and is far faster than
`re.IGNORECASE`, which disables that jump); their classifiers read the original bytes.

That jump still reads every byte, one at a time, once per pattern. A pattern may name a piece of
its literal as its `anchor`: the scanner then hops from one occurrence to the next with
`bytes.find`, which skips ahead by up to the anchor's length (`authorization`, `secret`) or, for
one byte, uses `memchr`, and tries the regex only there. A literal holding a byte that text
seldom has anchors on that byte (`J` of `eyJ`, `K` of Twilio's `SK`, `~` of Azure AD client
secrets); the one-byte literals (`-`, `_`, `A`, `.`) are too common in text for hopping to
pay, and so is `api` (its short needle of common letters is found no faster than the engine
finds it). A pattern whose matches all hold a rarer byte soon after the anchor names it as its
`companion` (the `@` of a password in a URL): anchors too far before the next one are passed
over by `bytes.find` too, not tried one by one. Every match also holds at least three
printable ASCII characters in a row (its literal): the UTF-16LE pass looks only where a window
has three.

A classifier returns a `Hit` (`pattern_model.py`): the kind, the rule and the credential's span.

What a match must also be to count (placeholders, entropy, shapes of code) is in
`secret_values.py`; the classifiers are in `format_classifiers.py` and `vendor_formats.py`
(credentials with a format of their own), `named_classifiers.py` (vendors' values known by the
name they are assigned to: `DD_API_KEY=`, `VAULT_TOKEN=`) and `assignment_classifiers.py`
(`password=`, `token: ...`). Each exclusion there is
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
    classify_after_dot,
    classify_after_underscore,
    classify_api,
    classify_bearer,
    classify_tilde,
    classify_twilio,
    classify_url_password,
)
from cleveragents.adapters.secrets.jwt_classifier import classify_jwt
from cleveragents.adapters.secrets.named_classifiers import (
    DATADOG_APP_KEY_PREFIXES,
    NAMED_FORMATS,
    datadog_app_key_names,
    named,
)
from cleveragents.adapters.secrets.pattern_model import (
    Classifier,
    Hit,
    SecretPattern,
    rare_byte_finder,
    whole_match,
)
from cleveragents.adapters.secrets.vendor_formats import (
    A_FORMATS,
    A_GLUED_FORMATS,
    A_WORD_FORMATS,
    AZURE_AD,
    DASH_FORMATS,
    DOT_FORMATS,
    MAILCHIMP,
    TWILIO,
    UNDERSCORE_FORMATS,
    alternatives,
    endings,
    gate,
)
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
# How far after its `://` the `@` of a password in a URL may be: the user and the password are
# at most 128 and 256 bytes, with a `:` between them.
_URL_AT_REACH = 3 + 128 + 1 + 256


def _assignment(keyword: bytes) -> re.Pattern[bytes]:
    return re.compile(keyword + _ASSIGNED_VALUE)


# GitHub, npm and Hugging Face tokens may follow a `-` (`build-ghp_....log`, a file name a tool
# made from a token): only a letter, digit or `_` glued before them makes them part of a word.
_GLUED_NO_DASH = b"A-Za-z0-9_"


def _word_start(literal: bytes, glued: bytes = b"A-Za-z0-9_-") -> bytes:
    """A lookbehind: the `literal` just read starts a word (no byte of `glued` before it), or
    a line of JSON-escaped text (`\\n` before it: a tool result inside a transcript)."""
    return b"(?:(?<![" + glued + b"]" + literal + b")|(?<=\\\\[nrt]" + literal + b"))"


def _assigned(name: str) -> bytes:
    """`_ASSIGNED_VALUE` with its groups named `quote<name>` and `value<name>` (a regex that
    reads two assignments in two alternatives needs two names)."""
    suffix = name.encode() + b">"
    return _ASSIGNED_VALUE.replace(b"<quote>", b"<quote" + suffix).replace(
        b"<value>", b"<value" + suffix
    )


def _datadog_app_key(separator: bytes, name: str) -> bytes:
    """`DD_APP_KEY=...`, `DD-APPLICATION-KEY: ...`, found at the separator after `DD`."""
    behind = b"|".join(
        b"(?<=" + prefix + re.escape(separator) + b")" for prefix in DATADOG_APP_KEY_PREFIXES
    )
    return b"(?:" + behind + b")" + datadog_app_key_names(separator) + _assigned(name)


# What may stand before the `-` and the `_` of a credential (the last two bytes of a prefix).
_DATADOG_ENDINGS = {prefix[-2:] for prefix in DATADOG_APP_KEY_PREFIXES}
_DASH_GATE = gate(
    b"-",
    {b"sk", *(b"x" + bytes([c]) for c in b"abposr")} | endings(DASH_FORMATS) | _DATADOG_ENDINGS,
)
# Terraform's `atlasv1.` is a shape, `v1` before its `.`.
_DOT_GATE = gate(b".", endings(DOT_FORMATS) | {b"v1"})
_UNDERSCORE_GATE = gate(
    b"_",
    {*(b"h" + bytes([c]) for c in b"pousr"), b"at", b"pm", b"hf"}
    | endings(UNDERSCORE_FORMATS)
    | _DATADOG_ENDINGS,
)


def _left_to_formats(classify: Classifier) -> Classifier:
    """`classify` (a generic assignment's), except where the value starts with a credential
    of a format of its own: that format's pattern reports it, over its whole length (an
    unquoted assigned value is read up to 256 bytes; a 1Password service account token is
    longer), and one credential is one finding."""

    def wrapped(original: bytes, match: re.Match[bytes]) -> Hit | None:
        hit = classify(original, match)
        if hit is None or hit.kind is not SecretKind.GENERIC_SECRET:
            return hit
        for pattern in _FORMAT_PATTERNS:
            found = pattern.regex.search(original, hit.start, hit.start + MAX_MATCH_BYTES)
            specific = None if found is None else pattern.classify(original, found)
            if specific is not None and specific.start == hit.start:
                return None
        return hit

    return wrapped


# What follows `secret` in a name: secret_key, client_secret, aws_secret_access_key...
_SECRET_REST = rb"(?:(?P<access>[_-]?access)?[_-]?key)?" + _ASSIGNED_VALUE
# What follows `api`: Databricks' `dapi<32 hex>`, or an api-key assignment.
_API_REST = (
    rb"(?:(?<=dapi)(?P<databricks>[0-9a-f]{32}(?:-[0-9])?)(?![a-z0-9])|[_-]?key"
    + _ASSIGNED_VALUE
    + rb")"
)
_NAMED_KINDS = tuple(dict.fromkeys(each.kind for each in NAMED_FORMATS))
_NAMED_RULES = tuple(kind.value for kind in _NAMED_KINDS)

PATTERNS: tuple[SecretPattern, ...] = (
    SecretPattern(
        (
            SecretKind.PRIVATE_KEY,
            SecretKind.ANTHROPIC_API_KEY,
            SecretKind.OPENAI_API_KEY,
            SecretKind.SLACK_TOKEN,
            *(each.kind for each in DASH_FORMATS),
            SecretKind.MAILCHIMP_API_KEY,
            SecretKind.DATADOG_APP_KEY,
        ),
        # Everything found at a `-`: the PEM header with its body (to the END line, or as much
        # of it as there is), `sk-` keys (`sk-ant-` is Anthropic's, any other OpenAI's: one
        # alternative, so a key has one kind), Slack tokens, Mailchimp's `-us21` after its hex,
        # the vendor formats of `DASH_FORMATS` (GitLab, Postman, age, Square...) and Datadog's
        # `DD-APPLICATION-KEY` header.
        re.compile(
            rb"-(?:"
            rb"----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP |SSH2 ENCRYPTED )?"
            rb"PRIVATE KEY(?: BLOCK)?-----(?P<pem>)"
            rb"(?:[A-Za-z0-9+/=\s\\:,-]{0,4096}?-----END [A-Z0-9 ]{0,24}PRIVATE KEY(?: BLOCK)?-----"
            rb"|[A-Za-z0-9+/=\s\\:,]{0,4096})"
            rb"|"
            + MAILCHIMP.body
            +
            # A look at the bytes before first (`sk` of sk-, `xb` of xoxb-, `at` of glpat-...):
            # most `-` in text (dates, words) stop there.
            rb"|"
            + _DASH_GATE
            + rb"(?:"
            rb"(?<=sk-)"
            + _word_start(rb"sk-")
            + rb"(?P<openai>(?P<anthropic>ant-)?"
            + _B64URL
            + rb"{20,250})"
            rb"|(?<=xox[abposr]-)"
            + _word_start(rb"xox[abposr]-")
            + rb"(?P<slack>[A-Za-z0-9-]{10,250})"
            rb"|"
            + alternatives(b"-", DASH_FORMATS)
            + rb"|"
            + _datadog_app_key(b"-", "dd_header")
            + rb"))"
        ),
        classify_after_dash,
        rules=(
            "private-key",
            "anthropic-api-key",
            "openai-api-key",
            "slack-token",
            *(each.rule for each in DASH_FORMATS),
            "mailchimp-api-key",
            "datadog-app-key",
        ),
    ),
    SecretPattern(
        (
            SecretKind.GITHUB_TOKEN,
            SecretKind.STRIPE_KEY,
            SecretKind.NPM_TOKEN,
            SecretKind.HUGGINGFACE_TOKEN,
            *(each.kind for each in UNDERSCORE_FORMATS),
            SecretKind.DATADOG_APP_KEY,
        ),
        # Everything found at a `_`: GitHub's ghp_/gho_/ghu_/ghs_/ghr_ and github_pat_ tokens,
        # Stripe secret and restricted keys (publishable pk_ keys are public: not matched), npm
        # and Hugging Face tokens, an `.npmrc`'s `:_authToken=` and `:_password=`, the vendor
        # formats of `UNDERSCORE_FORMATS` (Shopify, DigitalOcean, Linear...) and Datadog's
        # `DD_APP_KEY=`.
        # `_` is common (snake_case): the alternatives that can start by reading the byte after
        # it (`l`/`t` of Stripe's live_/test_, `a`/`p` of .npmrc's names) do, which the regex
        # engine checks without entering them, and the others share one look at the byte before.
        re.compile(
            rb"_(?:"
            rb"[lt](?<=[sr]k_[lt])(?<![A-Za-z0-9_][sr]k_[lt])(?:(?<=l)ive|(?<=t)est)_"
            rb"(?P<stripe>[A-Za-z0-9]{16,250})"
            rb"|[ap](?<=:_[ap])(?:(?<=a)uthToken|(?<=p)assword|(?<=a)uth)[ \t]{0,8}=[ \t]{0,8}\"?"
            rb"(?P<npmrc>[A-Za-z0-9+/=_.-]{8,512})(?![^\s\"'#])"
            rb"|" + _UNDERSCORE_GATE + rb"(?:"
            rb"(?<=gh[pousr]_)"
            + _word_start(rb"gh[pousr]_", _GLUED_NO_DASH)
            + rb"[A-Za-z0-9]{36,251}(?![A-Za-z0-9_])"
            rb"|(?<=github_pat_)"
            + _word_start(rb"github_pat_", _GLUED_NO_DASH)
            + rb"(?P<pat>[A-Za-z0-9_]{22,255})(?![A-Za-z0-9_])"
            rb"|(?<=npm_)"
            + _word_start(rb"npm_", _GLUED_NO_DASH)
            + rb"(?P<npm>[A-Za-z0-9]{36})(?![A-Za-z0-9_])"
            rb"|(?<=hf_)"
            + _word_start(rb"hf_", _GLUED_NO_DASH)
            + rb"(?P<hf>[A-Za-z0-9]{30,40})(?![A-Za-z0-9_])"
            rb"|"
            + alternatives(b"_", UNDERSCORE_FORMATS)
            + rb"|"
            + _datadog_app_key(b"_", "dd")
            + rb"))"
        ),
        classify_after_underscore,
        rules=(
            "github-token",
            "stripe-key",
            "npm-token",
            "huggingface-token",
            "npm-auth-token",
            *(each.rule for each in UNDERSCORE_FORMATS),
            "datadog-app-key",
        ),
    ),
    SecretPattern(
        (
            SecretKind.AWS_ACCESS_KEY_ID,
            SecretKind.GOOGLE_API_KEY,
            SecretKind.AZURE_STORAGE_KEY,
            *(each.kind for each in A_FORMATS),
        ),
        # Everything found at an `A`: AWS key ids, Google API keys, Azure storage account keys,
        # and the vendor formats of `A_FORMATS`: those whose `A` starts a word (Atlassian's
        # ATATT3, Telegram's `<bot id>:A...`), then those whose `A` follows a letter (Alibaba's
        # LTAI, Square's EAAA).
        re.compile(
            rb"A(?:" + _word_start(b"A", b"A-Za-z0-9") + rb"(?:"
            rb"(?:KIA|SIA|BIA|CCA|3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])"
            rb"|(?P<google>Iza)" + _B64URL + rb"{35}(?!" + _B64URL + rb")"
            # An Azure storage connection string's key: 64 bytes in base64.
            rb"|ccountKey[ \t]{0,4}=[ \t]{0,4}(?P<azure>[A-Za-z0-9+/]{40,100}={0,2})"
            rb"|"
            + alternatives(b"A", A_WORD_FORMATS)
            + rb")|"
            + alternatives(b"A", A_GLUED_FORMATS)
            + rb")"
        ),
        classify_a_literal,
        rules=(
            "aws-access-key-id",
            "google-api-key",
            "azure-storage-key",
            *(each.rule for each in A_FORMATS),
        ),
        # Upper-case `A` is rare in prose, code and JSON (265 in 1 MB of generated markdown):
        # hopping to it skips the engine's scan; where it is common (some logs), the scanner
        # leaves the rest to the engine after a few hops.
        anchor=b"A",
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
        tuple(each.kind for each in DOT_FORMATS),
        # Everything found at a `.`: SendGrid's SG.<22>.<43>, Vault's hvs. and hvb., Doppler's
        # dp.pt., Dynatrace's dt0c01., Terraform Cloud's <14>.atlasv1.<60+>. `.` is common: the
        # byte before it is looked at first, one class for all.
        re.compile(rb"\." + _DOT_GATE + rb"(?:" + alternatives(b".", DOT_FORMATS) + rb")"),
        classify_after_dot,
        rules=tuple(each.rule for each in DOT_FORMATS),
    ),
    SecretPattern(
        (SecretKind.AZURE_AD_CLIENT_SECRET,),
        # Azure AD (Entra ID) client secrets: `<3><digit>Q~<31 to 34>`, found at their `~`.
        re.compile(b"~" + alternatives(b"~", (AZURE_AD,))),
        classify_tilde,
        rules=(AZURE_AD.rule,),
        anchor=b"~",
    ),
    SecretPattern(
        (SecretKind.TWILIO_API_KEY,),
        re.compile(rb"SK" + TWILIO.body),
        classify_twilio,
        rules=(TWILIO.rule,),
        anchor=b"K",
        anchor_offset=1,
    ),
    SecretPattern(
        (SecretKind.JWT, SecretKind.GRAFANA_TOKEN),
        # Header and payload are base64url JSON objects (`{"` encodes as `eyJ`), then a signature.
        # A Grafana API key is base64 JSON too, of its own shape: `{"k":` (`eyJrIjoi`).
        re.compile(
            rb"eyJ" + _word_start(b"eyJ") + rb"(?:rIjoi(?P<grafana>[A-Za-z0-9+/]{70,400}={0,3})"
            rb"(?![A-Za-z0-9+/=_.-])|"
            + _B64URL
            + rb"{4,500}\.eyJ"
            + _B64URL
            + rb"{4,3500}\."
            + _B64URL
            + rb"{8,600})"
        ),
        classify_jwt,
        rules=("jwt", "grafana-token"),
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
        # Most URLs hold no `@`, and prose and logs have few: hopping from `@` to `@` passes
        # thousands of URLs with no password without a step in Python for each.
        companion=b"@",
        companion_reach=_URL_AT_REACH,
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
        (SecretKind.AWS_SECRET_ACCESS_KEY, SecretKind.GENERIC_SECRET, *_NAMED_KINDS),
        # secret, secret_key, client_secret, aws_secret_access_key, secretAccessKey...
        re.compile(rb"secret" + _SECRET_REST),
        _left_to_formats(named(classify_secret)),
        lower=True,
        rules=("aws-secret-access-key", "secret", *_NAMED_RULES),
        # Found from its `c`: `bytes.find` of `secret` read 1 MB of generated text in 0.7-0.85 ms,
        # the engine's scan for `cret` in 0.5-0.6 ms.
        finder=rare_byte_finder(b"secret", _SECRET_REST, 2),
        finder_offset=2,
    ),
    SecretPattern(
        (SecretKind.GENERIC_SECRET,),
        re.compile(_PASSWORD_KEYWORD + _ASSIGNED_VALUE),
        _left_to_formats(classify_password),
        lower=True,
        rules=("password",),
    ),
    # token, access_token, auth_token, refresh_token, github_token...
    SecretPattern(
        (SecretKind.GENERIC_SECRET, *_NAMED_KINDS),
        _assignment(rb"token"),
        _left_to_formats(named(generic_assignment("token"))),
        lower=True,
        rules=("token", *_NAMED_RULES),
        # Found from its `k`: `bytes.find` of `token` (or the engine's scan for its `t`) stops at
        # every `t`; `token` itself is common in prose and code about tokens, and a hop to each
        # one costs more than the engine's scan over a kilobyte.
        finder=rare_byte_finder(b"token", _ASSIGNED_VALUE, 2),
        finder_offset=2,
    ),
    SecretPattern(
        (SecretKind.GENERIC_SECRET, SecretKind.DATABRICKS_TOKEN, *_NAMED_KINDS),
        # api_key, apikey, api-key; and Databricks' `dapi<32 hex>`, which holds `api` too.
        re.compile(rb"api" + _API_REST),
        classify_api(_left_to_formats(named(generic_assignment("api-key")))),
        lower=True,
        rules=("api-key", "databricks-token", *_NAMED_RULES),
        # No anchor: `bytes.find` of a short needle of common letters reads text no faster than
        # the regex engine's own search for the literal `api` (measured 10% to 40% slower on
        # markdown, logs and JSON). Found from its `p` (`a` is far more common).
        finder=rare_byte_finder(b"api", _API_REST, 1),
        finder_offset=1,
    ),
)

# The patterns of credentials with a format of their own (not case-insensitive assignments).
_FORMAT_PATTERNS = tuple(pattern for pattern in PATTERNS if not pattern.lower)
