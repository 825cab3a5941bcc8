"""A credential a tool put into a file name (`build-<token>.log`) is found there: a `-` or `.`
around it separates it from the rest of the name, as a blank would."""

from __future__ import annotations

import pytest

from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from tests.secret_recall_set import Credential, credentials

# Formats whose literal starts with a `-`-joined word of its own (`sk-`, `xoxb-`) or that are
# known by their name alone: a `-` glued before them may be a longer word's (`task-sk-...`).
# Azure AD client secrets may hold a `.`, so a suffix such as `.txt` runs on as their body.
_GLUED_DASH_ALLOWED_TO_MISS = (
    "openai",
    "anthropic",
    "slack-bot",
    "slack-user",
    "jwt",
    "azure-ad-client-secret",
)


def _found_alone(credential: Credential) -> bool:
    return bool(PatternSecretScanner().match_bytes(credential.secret.encode()))


STANDALONE = [
    credential
    for credential in credentials()
    if "\n" not in credential.secret
    and _found_alone(credential)
    and not credential.name.startswith(_GLUED_DASH_ALLOWED_TO_MISS)
]


def test_the_set_has_many_standalone_formats() -> None:
    assert len(STANDALONE) >= 30


@pytest.mark.parametrize("credential", STANDALONE, ids=lambda credential: credential.name)
@pytest.mark.parametrize("name", ["build-{}.log", "{}.txt", "out/{}.json", "{} run"])
def test_a_credential_in_a_file_name_is_found_whole(credential: Credential, name: str) -> None:
    text = name.format(credential.secret).encode()
    matches = PatternSecretScanner().match_bytes(text)
    assert matches, text
    start = text.index(credential.secret.encode())
    assert any(m.start <= start and m.end >= start + len(credential.secret) for m in matches)
