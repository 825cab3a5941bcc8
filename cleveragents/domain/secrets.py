"""Credentials found in tool output: what kind, on which line. Never the secret itself."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class SecretKind(StrEnum):
    AWS_ACCESS_KEY_ID = "aws-access-key-id"
    AWS_SECRET_ACCESS_KEY = "aws-secret-access-key"
    GITHUB_TOKEN = "github-token"
    OPENAI_API_KEY = "openai-api-key"
    ANTHROPIC_API_KEY = "anthropic-api-key"
    PRIVATE_KEY = "private-key"
    JWT = "jwt"
    SLACK_TOKEN = "slack-token"
    SLACK_WEBHOOK = "slack-webhook"
    STRIPE_KEY = "stripe-key"
    GOOGLE_API_KEY = "google-api-key"
    PASSWORD_IN_URL = "password-in-url"
    BEARER_TOKEN = "bearer-token"
    AZURE_STORAGE_KEY = "azure-storage-key"
    GITLAB_TOKEN = "gitlab-token"
    NPM_TOKEN = "npm-token"  # an npm_ token, or an .npmrc's _authToken/_password/_auth
    SENDGRID_API_KEY = "sendgrid-api-key"
    HUGGINGFACE_TOKEN = "huggingface-token"
    GENERIC_SECRET = "generic-secret"
    OTHER = "other"  # a finding of a second scanner that has no kind of ours


@dataclass(frozen=True, slots=True, order=True)
class SecretFinding:
    """A suspected credential: its 1-based line number and kind. Holds no part of the secret,
    nor a hash of it, so findings can be stored and shown."""

    line: int
    kind: SecretKind


def redaction_placeholder(rule: str) -> str:
    """What stands in for a secret wherever output is redacted: the rule's name, never the
    value (``[REDACTED:npm-token]``)."""
    return f"[REDACTED:{rule}]"
