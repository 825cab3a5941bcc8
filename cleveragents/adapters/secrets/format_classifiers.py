"""The classifiers of credentials that have a format of their own: a fixed prefix (`AKIA`, `sk-`,
`ghp_`...), a PEM header, a URL's password, a bearer token.

- A PEM header is a private key only with a base64 body after it (`has_key_body`): the header
  alone is a constant in every library that parses keys. A header that ends the text scanned
  (blanks aside) still counts: its body, if any, is beyond what the scan was given (a line
  scanned alone, as a redaction does, or an output cut after the header).

- Key bodies after a fixed prefix (OpenAI, Slack, Stripe, GitLab) need >= 3.0 bits per byte and
  (but GitLab's) a digit: prose or identifiers shaped like `sk-...` never pass, real keys
  practically always do.
- Bearer tokens that are upper-case identifiers (`Bearer YOUR_API_TOKEN`) name a variable;
  upper-case hexadecimal (`Bearer 9F86D081...`) is a token.
- Stripe publishable keys (`pk_live_`, `pk_test_`) are public by design and are not matched.
"""

from __future__ import annotations

import re
import urllib.parse

from cleveragents.adapters.secrets.named_classifiers import classify_datadog_app_key
from cleveragents.adapters.secrets.pattern_model import Classifier, Hit, group_bytes
from cleveragents.adapters.secrets.secret_values import (
    LETTERS,
    MIN_BEARER_BYTES,
    MIN_ENTROPY_BITS,
    MIN_PASSWORD_BYTES,
    VARIABLE_NAME,
    after_word,
    has_digit,
    is_placeholder,
    is_random,
    shannon_entropy,
)
from cleveragents.adapters.secrets.vendor_formats import (
    A_FORMATS,
    AZURE_AD,
    DASH_FORMATS,
    DOT_FORMATS,
    MAILCHIMP,
    TWILIO,
    UNDERSCORE_FORMATS,
    classify_prefixed,
    starts_word,
)
from cleveragents.domain.secrets import SecretKind

# The smallest private key, Ed25519 in PKCS#8, is 64 base64 characters on one line.
MIN_PEM_BODY_CHARS = 40
MIN_PEM_LINE_CHARS = 16
_DASH_VENDOR_FORMATS = (*DASH_FORMATS, MAILCHIMP)
_BASE64_RUN = re.compile(rb"[A-Za-z0-9+/=]{%d,}" % MIN_PEM_LINE_CHARS)


def classify_a_literal(original: bytes, match: re.Match[bytes]) -> Hit | None:
    """AWS key ids, Google API keys, Azure storage account keys and `A_FORMATS` (all found at
    an `A`)."""
    vendor, hit = classify_prefixed(original, match, A_FORMATS)
    if vendor:
        return hit
    if match.start("google") != -1:
        body = group_bytes(original, match, 0)
        if is_placeholder(body[4:]):
            return None
        return Hit(SecretKind.GOOGLE_API_KEY, "google-api-key", *match.span())
    if match.start("azure") != -1:
        value = group_bytes(original, match, "azure")
        if not is_random(value, digit=False):
            return None
        return Hit(SecretKind.AZURE_STORAGE_KEY, "azure-storage-key", *match.span("azure"))
    body = group_bytes(original, match, 0)
    if b"example" in body.lower() or is_placeholder(body[4:]):
        return None
    return Hit(SecretKind.AWS_ACCESS_KEY_ID, "aws-access-key-id", *match.span())


def classify_after_dash(original: bytes, match: re.Match[bytes]) -> Hit | None:
    """PEM private keys, `sk-` keys, Slack tokens, `DASH_FORMATS`, Mailchimp keys and Datadog's
    `DD-APPLICATION-KEY` header (all found at a `-`)."""
    vendor, hit = classify_prefixed(original, match, _DASH_VENDOR_FORMATS)
    if vendor:
        return hit
    if match.start("valuedd_header") != -1:
        return classify_datadog_app_key(original, match, "valuedd_header")
    start, end = match.span()
    if match.start("openai") != -1:
        if match.start("anthropic") != -1:
            return Hit(SecretKind.ANTHROPIC_API_KEY, "anthropic-api-key", start - 2, end)
        if not is_random(group_bytes(original, match, "openai")):
            return None
        return Hit(SecretKind.OPENAI_API_KEY, "openai-api-key", start - 2, end)
    if match.start("slack") != -1:
        if not is_random(group_bytes(original, match, "slack")):
            return None
        return Hit(SecretKind.SLACK_TOKEN, "slack-token", start - 4, end)
    after_header = original[match.start("pem") : end]
    cut_off = end == len(original) and not after_header.strip()
    if not cut_off and not has_key_body(after_header):
        return None  # `_START = b"-----BEGIN OPENSSH PRIVATE KEY-----"`: a parser's constant
    return Hit(SecretKind.PRIVATE_KEY, "private-key", start, end)


def has_key_body(after_header: bytes) -> bool:
    """Whether what follows a PEM header (to its END line, if any) holds a key's base64 body:
    `MIN_PEM_BODY_CHARS` base64 characters in runs of `MIN_PEM_LINE_CHARS` or more (a PEM
    body's lines are 64 wide; words of prose, `<a very long private key>`, are shorter)."""
    body = after_header.split(b"-----END", 1)[0]
    runs = (len(run) for run in _BASE64_RUN.findall(body))
    return sum(runs) >= MIN_PEM_BODY_CHARS


def classify_after_underscore(original: bytes, match: re.Match[bytes]) -> Hit | None:
    """GitHub, Stripe, npm and Hugging Face tokens, `.npmrc` credentials, `UNDERSCORE_FORMATS`
    and Datadog's `DD_APP_KEY=` (found at a `_`)."""
    vendor, hit = classify_prefixed(original, match, UNDERSCORE_FORMATS)
    if vendor:
        return hit
    if match.start("valuedd") != -1:
        return classify_datadog_app_key(original, match, "valuedd")
    start, end = match.span()
    if match.start("stripe") != -1:
        if not is_random(group_bytes(original, match, "stripe")):
            return None
        return Hit(SecretKind.STRIPE_KEY, "stripe-key", start - 2, end)
    if match.start("npm") != -1:
        if not is_random(group_bytes(original, match, "npm"), digit=False):
            return None
        return Hit(SecretKind.NPM_TOKEN, "npm-token", start - 3, end)
    if match.start("hf") != -1:
        if not is_random(group_bytes(original, match, "hf"), digit=False):
            return None
        return Hit(SecretKind.HUGGINGFACE_TOKEN, "huggingface-token", start - 2, end)
    if match.start("npmrc") != -1:
        value = group_bytes(original, match, "npmrc")
        if is_placeholder(value) or shannon_entropy(value) < MIN_ENTROPY_BITS:
            return None
        return Hit(SecretKind.NPM_TOKEN, "npm-auth-token", *match.span("npmrc"))
    if match.start("pat") != -1:
        body = group_bytes(original, match, "pat")
        return (
            Hit(SecretKind.GITHUB_TOKEN, "github-token", start - 10, end)
            if is_random(body, digit=False)
            else None
        )
    body = group_bytes(original, match, 0)
    if not is_random(body, digit=False):
        return None
    return Hit(SecretKind.GITHUB_TOKEN, "github-token", start - 3, end)


def classify_after_dot(original: bytes, match: re.Match[bytes]) -> Hit | None:
    """`DOT_FORMATS`: SendGrid, Vault, Doppler, Dynatrace, Terraform Cloud (found at a `.`)."""
    return classify_prefixed(original, match, DOT_FORMATS)[1]


def classify_tilde(original: bytes, match: re.Match[bytes]) -> Hit | None:
    """Azure AD client secrets (found at their `~`)."""
    return classify_prefixed(original, match, (AZURE_AD,))[1]


def classify_twilio(original: bytes, match: re.Match[bytes]) -> Hit | None:
    """Twilio API key SIDs, `SK<32 hex>`."""
    return classify_prefixed(original, match, (TWILIO,))[1]


def classify_api(assignment: Classifier) -> Classifier:
    """Databricks' `dapi<32 hex>`, else `assignment` (the `api_key = ...` classifier): the
    match ran over the lower-cased bytes; a token is lower-case."""

    def classify(original: bytes, match: re.Match[bytes]) -> Hit | None:
        if match.start("databricks") == -1:
            return assignment(original, match)
        start = match.start() - 1
        token = original[start : match.end()]
        body = group_bytes(original, match, "databricks")
        if not token.startswith(b"dapi") or token != token.lower():
            return None
        if not starts_word(original, start) or not is_random(body, digit=False):
            return None
        return Hit(
            SecretKind.DATABRICKS_TOKEN, SecretKind.DATABRICKS_TOKEN.value, start, match.end()
        )

    return classify


def classify_url_password(original: bytes, match: re.Match[bytes]) -> Hit | None:
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
    if len(password) < MIN_PASSWORD_BYTES and LETTERS.fullmatch(password):
        return None  # `foo:bar@`
    return Hit(SecretKind.PASSWORD_IN_URL, "password-in-url", start, end)


def classify_bearer(original: bytes, match: re.Match[bytes]) -> Hit | None:
    token = group_bytes(original, match, "token")
    if after_word(original, match.start()) or original[match.start() - 1 : match.start()] in (
        b"_",
        b"-",
    ):
        return None  # `proxy_authorization`, `x-authorization`: another header
    if len(token) < MIN_BEARER_BYTES or not has_digit(token):
        return None  # `Bearer account-b`: a word in a sentence, not a token
    if is_placeholder(token) or VARIABLE_NAME.fullmatch(token):
        return None  # `Bearer YOUR_API_TOKEN` names a variable; `Bearer 9F86D0...` is a token
    return Hit(SecretKind.BEARER_TOKEN, "bearer-token", *match.span("token"))
