"""Vendor credentials with a prefix of their own (`shpat_`, `dop_v1_`, `PMAK-`, `hvs.`...).

Each `PrefixedFormat` is one alternative of a shared pass of `secret_patterns.py`: the pass's
regex starts at a literal (`_`, `-`, `.`), and the format names what must stand just before that
literal (`shpat` before `_`) and the regex of what follows it, its random part in a named group.
The pass is built from the formats (`alternatives`), and `classify_prefixed` reads a match back:
the credential spans from the start of the prefix to the end of the match.

A format is reported when its prefix starts a word (`xshpat_...` is not Shopify's) and its random
part passes `is_random` (>= 3.0 bits per byte, no placeholder mark, four distinct bytes or more:
`shpat_000...` and `dop_v1_xxxx...` are placeholders). Some prefixes are a shape rather than a
literal (32 hex digits before Mailchimp's `-us21`, the bot's id before a Telegram token's `:A`):
`lookbehind` is then a fixed-width regex of `width` bytes, and `extend` the bytes the prefix may
go on with before that (more digits of the id).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cleveragents.adapters.secrets.pattern_model import Hit
from cleveragents.adapters.secrets.secret_values import after_word, is_random
from cleveragents.domain.secrets import SecretKind

_MAX_EXTEND_BYTES = 16


@dataclass(frozen=True, slots=True)
class PrefixedFormat:
    """One credential format found at a pass's literal.

    `prefixes`: the literal texts that stand before the literal (any one of them), or, when
    empty, `lookbehind`, a regex of exactly `width` bytes. `body`: the regex after the literal,
    with the random part in the group `group`. `extend`: bytes that may continue the prefix to
    the left (up to 16 more). `whole`: judge the randomness of the whole credential (its random
    part is before the literal) rather than of the group."""

    kind: SecretKind
    rule: str
    group: str
    body: bytes
    prefixes: tuple[bytes, ...] = ()
    lookbehind: bytes = b""
    width: int = 0
    extend: bytes = b""
    whole: bool = False


def alternatives(literal: bytes, formats: tuple[PrefixedFormat, ...]) -> bytes:
    """The regex alternatives (joined by `|`) of `formats`, for a pass starting at `literal`.

    Formats whose prefixes end with the same bytes share one look at the byte before the
    literal: a `-` after a common letter tries a dozen one-byte lookbehinds, not every prefix
    of every format."""
    by_last: dict[bytes, list[bytes]] = {}
    shapes = []
    for found in formats:
        if not found.prefixes:
            shapes.append(b"(?<=" + found.lookbehind + re.escape(literal) + b")" + found.body)
            continue
        behind = b"|".join(b"(?<=" + re.escape(p + literal) + b")" for p in found.prefixes)
        last = bytes(sorted({p[-1] for p in found.prefixes if p}))
        by_last.setdefault(last, []).append(b"(?:" + behind + b")" + found.body)
    parts = [
        (b"(?<=[" + re.escape(last) + b"]" + re.escape(literal) + b")" if last else b"")
        + b"(?:"
        + b"|".join(group)
        + b")"
        for last, group in by_last.items()
    ]
    return b"|".join(parts + shapes)


def gate(literal: bytes, endings: set[bytes]) -> bytes:
    """Lookbehinds that let an occurrence of `literal` go on only after one of `endings` (the
    last two bytes of each prefix found there): first one class of their last bytes, then the
    pairs, grouped by their first byte (`h[fopsru]`), each group an alternative that starts
    with a literal byte, which the regex engine skips without entering. Most `-` and `_` in
    text stop at the class, nearly all at the pairs."""
    last = bytes(sorted({ending[-1] for ending in endings}))
    by_first: dict[int, set[int]] = {}
    for ending in endings:
        by_first.setdefault(ending[0], set()).add(ending[1])
    pairs = b"|".join(
        re.escape(bytes([first])) + b"[" + re.escape(bytes(sorted(seconds))) + b"]"
        for first, seconds in sorted(by_first.items())
    )
    escaped = re.escape(literal)
    return b"(?<=[" + re.escape(last) + b"]" + escaped + b")(?<=(?:" + pairs + b")" + escaped + b")"


def endings(formats: tuple[PrefixedFormat, ...]) -> set[bytes]:
    """The last two bytes of the prefixes of `formats` (for `gate`)."""
    return {prefix[-2:] for each in formats for prefix in each.prefixes}


def classify_prefixed(
    original: bytes, match: re.Match[bytes], formats: tuple[PrefixedFormat, ...]
) -> tuple[bool, Hit | None]:
    """(whether the match is one of `formats`, its hit if it is a credential)."""
    for found in formats:
        if match.start(found.group) == -1:
            continue
        literal_at = match.start()
        if found.prefixes:
            prefix = next((p for p in found.prefixes if original.endswith(p, 0, literal_at)), b"")
            start = literal_at - len(prefix)
        else:
            start = literal_at - found.width
            floor = max(0, start - _MAX_EXTEND_BYTES)
            while found.extend and start > floor and original[start - 1] in found.extend:
                start -= 1
        random_part = (
            original[start : match.end()]
            if found.whole
            else original[slice(*match.span(found.group))]
        )
        if not starts_word(original, start) or not is_random(random_part, digit=False):
            return True, None
        return True, Hit(found.kind, found.rule, start, match.end())
    return False, None


def starts_word(original: bytes, start: int) -> bool:
    """Whether a credential may start at `start`: not glued to a word or a `_` before it (a
    `-` before it is a separator, as in a file name `build-<token>.log`; a line starting after
    a JSON `\\n` escape starts a word)."""
    if start > 0 and original[start - 1 : start] == b"_":
        return False
    return not after_word(original, start)


_HEX = b"[a-fA-F0-9]"
_BASE64 = b"[A-Za-z0-9+/]"
_END = b"(?![A-Za-z0-9_])"
_END_DASH = b"(?![A-Za-z0-9_-])"
_END_BASE64 = b"(?![A-Za-z0-9+/=_-])"


def _format(kind: SecretKind, group: str, body: bytes, *prefixes: bytes) -> PrefixedFormat:
    return PrefixedFormat(kind, kind.value, group, body, prefixes)


# At a `_`.
UNDERSCORE_FORMATS: tuple[PrefixedFormat, ...] = (
    _format(
        SecretKind.SHOPIFY_TOKEN,
        "shopify",
        b"(?P<shopify>" + _HEX + b"{32})" + _END,
        b"shpat",
        b"shpss",
        b"shpca",
        b"shppa",
    ),
    _format(
        SecretKind.DIGITALOCEAN_TOKEN,
        "digitalocean",
        b"v1_(?P<digitalocean>[a-f0-9]{64})" + _END,
        b"dop",
        b"doo",
        b"dor",
    ),
    _format(SecretKind.LINEAR_API_KEY, "linear", b"api_(?P<linear>[A-Za-z0-9]{40})" + _END, b"lin"),
    _format(
        SecretKind.GRAFANA_TOKEN,
        "grafana_sa",
        b"(?P<grafana_sa>[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})" + _END,
        b"glsa",
    ),
    _format(
        SecretKind.GRAFANA_TOKEN,
        "grafana_cloud",
        b"(?P<grafana_cloud>" + _BASE64 + b"{32,400}={0,3})" + _END_BASE64,
        b"glc",
    ),
    _format(
        SecretKind.SENTRY_TOKEN, "sentry_user", b"(?P<sentry_user>[a-f0-9]{64})" + _END, b"sntryu"
    ),
    _format(
        SecretKind.SENTRY_TOKEN,
        "sentry_org",
        b"(?P<sentry_org>eyJ[A-Za-z0-9+/=_]{60,600})" + _END_DASH,
        b"sntrys",
    ),
    _format(
        SecretKind.ONEPASSWORD_SECRET,
        "onepassword",
        b"(?P<onepassword>eyJ" + _BASE64 + b"{250,3000}={0,3})" + _END_BASE64,
        b"ops",
    ),
    _format(SecretKind.FLYIO_TOKEN, "flyio", b"(?P<flyio>[A-Za-z0-9_-]{43})" + _END_DASH, b"fo1"),
    _format(
        SecretKind.FLYIO_TOKEN,
        "flyio_macaroon",
        b"(?P<flyio_macaroon>" + _BASE64 + b"{100,3000}={0,3})" + _END_BASE64,
        b"fm2",
        b"fm1a",
        b"fm1r",
    ),
    PrefixedFormat(
        SecretKind.HUGGINGFACE_TOKEN,
        "huggingface-token",
        "hf_org",
        b"org_(?P<hf_org>[A-Za-z]{34})" + _END,
        (b"api",),
    ),
)

_GITLAB_PREFIXES = (
    b"glpat",  # personal, project and group access tokens
    b"glptt",  # pipeline trigger
    b"gldt",  # deploy
    b"glrt",  # runner authentication
    b"glcbt",  # CI/CD job
    b"glft",  # feed
    b"glimt",  # incoming mail
    b"glagent",  # Kubernetes agent
    b"gloas",  # OAuth application secret
    b"glsoat",  # SCIM
    b"glffct",  # feature flags client
)

# At a `-`.
DASH_FORMATS: tuple[PrefixedFormat, ...] = (
    PrefixedFormat(
        SecretKind.GITLAB_TOKEN,
        "gitlab-token",
        "gitlab",
        b"(?P<gitlab>[A-Za-z0-9_.-]{20,80})",
        _GITLAB_PREFIXES,
    ),
    _format(
        SecretKind.POSTMAN_API_KEY,
        "postman",
        b"(?P<postman>" + _HEX + b"{24}-" + _HEX + b"{34})" + _END,
        b"PMAK",
    ),
    _format(SecretKind.PULUMI_TOKEN, "pulumi", b"(?P<pulumi>[a-f0-9]{40})" + _END, b"pul"),
    _format(
        SecretKind.HEROKU_API_KEY, "heroku", b"AA(?P<heroku>[A-Za-z0-9_-]{58})" + _END_DASH, b"HRKU"
    ),
    _format(
        SecretKind.AGE_SECRET_KEY,
        "age",
        b"SECRET-KEY-1(?P<age>[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})" + _END,
        b"AGE",
    ),
    _format(
        SecretKind.SQUARE_TOKEN,
        "square",
        b"(?P<square>[A-Za-z0-9_-]{22,60})" + _END_DASH,
        b"sq0atp",
        b"sq0csp",
    ),
    _format(SecretKind.MAILGUN_API_KEY, "mailgun", b"(?P<mailgun>[a-f0-9]{32})" + _END, b"key"),
    _format(SecretKind.NEW_RELIC_KEY, "newrelic", b"(?P<newrelic>[A-Za-z0-9]{27})" + _END, b"NRAK"),
    _format(
        SecretKind.NEW_RELIC_KEY,
        "newrelic_insert",
        b"(?P<newrelic_insert>[A-Za-z0-9-]{32})" + _END,
        b"NRII",
    ),
    _format(
        SecretKind.PYPI_TOKEN,
        "pypi",
        b"AgEIcHlwaS5vcmc(?P<pypi>[A-Za-z0-9_-]{50,1000})" + _END_DASH,
        b"pypi",
    ),
    _format(
        SecretKind.CLOUDFLARE_API_KEY,
        "cloudflare_ca",
        b"(?P<cloudflare_ca>[a-f0-9]{24}-[a-f0-9]{146})" + _END,
        b"v1.0",
    ),
    _format(
        SecretKind.ONEPASSWORD_SECRET,
        "onepassword_key",
        b"(?P<onepassword_key>[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})"
        b"-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5})" + _END,
        b"A3",
    ),
)

# At a `-` too, where the prefix is a shape: Mailchimp's `<32 hex>-us21`.
MAILCHIMP = PrefixedFormat(
    SecretKind.MAILCHIMP_API_KEY,
    "mailchimp-api-key",
    "mailchimp",
    # Its lookbehind after its literal `us`, so that the regex engine skips it at any other
    # byte after a `-` without entering it.
    b"us(?<=[0-9a-f]{32}-us)(?P<mailchimp>[0-9]{1,2})(?![A-Za-z0-9])",
    width=32,
    whole=True,
)

# At a `.`.
DOT_FORMATS: tuple[PrefixedFormat, ...] = (
    _format(
        SecretKind.SENDGRID_API_KEY,
        "sendgrid",
        b"(?P<sendgrid>[A-Za-z0-9_-]{16,32}\\.[A-Za-z0-9_-]{30,60})",
        b"SG",
    ),
    _format(
        SecretKind.VAULT_TOKEN,
        "vault",
        b"(?P<vault>[A-Za-z0-9_-]{90,300})" + _END_DASH,
        b"hvs",
        b"hvb",
    ),
    _format(
        SecretKind.DOPPLER_TOKEN, "doppler", b"pt\\.(?P<doppler>[A-Za-z0-9]{43})" + _END, b"dp"
    ),
    _format(
        SecretKind.DYNATRACE_TOKEN,
        "dynatrace",
        b"(?P<dynatrace>[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64})" + _END,
        b"dt0c01",
    ),
    # Terraform Cloud / Enterprise: `<14>.atlasv1.<60 to 70>`, found at its second `.`.
    PrefixedFormat(
        SecretKind.TERRAFORM_CLOUD_TOKEN,
        "terraform-cloud-token",
        "terraform",
        b"(?P<terraform>[A-Za-z0-9_=-]{60,70})(?![A-Za-z0-9_=-])",
        lookbehind=b"[A-Za-z0-9]{14}\\.atlasv1",
        width=22,
    ),
)

# At an `A` that starts a word: Telegram's `<bot id>:A`, Atlassian's `ATATT3`.
A_WORD_FORMATS: tuple[PrefixedFormat, ...] = (
    PrefixedFormat(
        SecretKind.TELEGRAM_BOT_TOKEN,
        "telegram-bot-token",
        "telegram",
        b"(?P<telegram>[A-Za-z0-9_-]{34})" + _END_DASH,
        lookbehind=b"[0-9]{5}:",
        width=6,
        extend=b"0123456789",
    ),
    _format(
        SecretKind.ATLASSIAN_API_TOKEN,
        "atlassian",
        b"TATT3(?P<atlassian>[A-Za-z0-9_=-]{180,200})(?![A-Za-z0-9_=-])",
        b"",
    ),
)
# At an `A` after a letter: Alibaba's `LTAI`, Square's `EAAA`.
A_GLUED_FORMATS: tuple[PrefixedFormat, ...] = (
    _format(
        SecretKind.ALIBABA_ACCESS_KEY_ID, "alibaba", b"I(?P<alibaba>[A-Za-z0-9]{20})" + _END, b"LT"
    ),
    _format(
        SecretKind.SQUARE_TOKEN,
        "square_eaaa",
        # Not followed by `+`, `/` or `=` either: `EAAA` also starts base64 of binary data.
        b"AA(?P<square_eaaa>[A-Za-z0-9_-]{22,60})" + _END_BASE64,
        b"E",
    ),
)
A_FORMATS = A_WORD_FORMATS + A_GLUED_FORMATS

# At a `~`: Azure AD (Entra ID) client secrets, `<3 chars><digit>Q~<31 to 34>`.
AZURE_AD = PrefixedFormat(
    SecretKind.AZURE_AD_CLIENT_SECRET,
    "azure-ad-client-secret",
    "azure_ad",
    b"(?P<azure_ad>[A-Za-z0-9_~.-]{31,34})(?![A-Za-z0-9_~.-])",
    lookbehind=b"[A-Za-z0-9_~.]{3}[0-9]Q",
    width=5,
)

# At `SK`: Twilio API key SIDs.
TWILIO = PrefixedFormat(
    SecretKind.TWILIO_API_KEY,
    "twilio-api-key",
    "twilio",
    b"(?P<twilio>" + _HEX + b"{32})" + _END,
    (b"",),
)
