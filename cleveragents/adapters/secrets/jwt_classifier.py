"""JSON Web Tokens, except those signed with a key anyone has.

A token whose HMAC signature verifies with a placeholder key (`secret`, `your-256-bit-secret`)
is the example of a library's documentation: anyone can make it, so it proves nothing and hides
nothing. The keys tried are the placeholder words and the quoted placeholders shortly before
the token, where an example writes the key it signs with (`jwt.encode(claims, "secret")`). A key
that is not a placeholder is judged on its own by the other rules; a token signed otherwise, or
that cannot be read, is reported.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re

from cleveragents.adapters.secrets.pattern_model import Hit, group_bytes
from cleveragents.adapters.secrets.secret_values import PLACEHOLDER_WORDS, is_placeholder, is_random
from cleveragents.domain.secrets import SecretKind

_HMAC_DIGESTS = {"HS256": hashlib.sha256, "HS384": hashlib.sha384, "HS512": hashlib.sha512}
# How far before the token an example's key is looked for, and how many quoted strings there.
_KEY_WINDOW_BYTES = 2_000
_MAX_KEYS = 32
_QUOTED = re.compile(rb"""(?P<q>["'])(?P<key>[^"'\\\r\n]{1,100})(?P=q)""")


def classify_jwt(original: bytes, match: re.Match[bytes]) -> Hit | None:
    """A JSON Web Token, or a Grafana API key (base64 JSON that starts `{"k":`)."""
    if match.start("grafana") != -1:
        if not is_random(group_bytes(original, match, "grafana"), digit=False):
            return None
        return Hit(SecretKind.GRAFANA_TOKEN, SecretKind.GRAFANA_TOKEN.value, *match.span())
    token = group_bytes(original, match, 0)
    before = original[max(match.start() - _KEY_WINDOW_BYTES, 0) : match.start()]
    if _signed_with_a_placeholder_key(token, before):
        return None
    return Hit(SecretKind.JWT, SecretKind.JWT.value, match.start(), match.end())


def _signed_with_a_placeholder_key(token: bytes, before: bytes) -> bool:
    header, payload, signature = token.split(b".", 2)
    try:
        algorithm = json.loads(_b64url(header)).get("alg")
        expected = _b64url(signature)
    except (ValueError, AttributeError, binascii.Error):
        return False  # unreadable: reported, as a token
    digest = _HMAC_DIGESTS.get(algorithm) if isinstance(algorithm, str) else None
    if digest is None:
        return False  # RS256, ES256...: their keys are never in the text
    signing_input = header + b"." + payload
    return any(
        hmac.compare_digest(hmac.new(key, signing_input, digest).digest(), expected)
        for key in _candidate_keys(before)
    )


def _candidate_keys(before: bytes) -> list[bytes]:
    quoted = [found.group("key") for found in _QUOTED.finditer(before)][-_MAX_KEYS:]
    return [*PLACEHOLDER_WORDS, *(key for key in quoted if is_placeholder(key))]


def _b64url(segment: bytes) -> bytes:
    return base64.urlsafe_b64decode(segment + b"=" * (-len(segment) % 4))
