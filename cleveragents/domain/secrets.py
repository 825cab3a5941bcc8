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
    DATADOG_API_KEY = "datadog-api-key"
    DATADOG_APP_KEY = "datadog-app-key"
    VAULT_TOKEN = "vault-token"  # HashiCorp Vault: hvs., hvb., and s. where named so
    AGE_SECRET_KEY = "age-secret-key"
    SHOPIFY_TOKEN = "shopify-token"
    TWILIO_API_KEY = "twilio-api-key"
    MAILGUN_API_KEY = "mailgun-api-key"
    MAILCHIMP_API_KEY = "mailchimp-api-key"
    SQUARE_TOKEN = "square-token"
    DIGITALOCEAN_TOKEN = "digitalocean-token"
    HEROKU_API_KEY = "heroku-api-key"
    PYPI_TOKEN = "pypi-token"
    DOPPLER_TOKEN = "doppler-token"
    DYNATRACE_TOKEN = "dynatrace-token"
    LINEAR_API_KEY = "linear-api-key"
    POSTMAN_API_KEY = "postman-api-key"
    PULUMI_TOKEN = "pulumi-token"
    GRAFANA_TOKEN = "grafana-token"
    NEW_RELIC_KEY = "new-relic-key"
    SENTRY_TOKEN = "sentry-token"
    ATLASSIAN_API_TOKEN = "atlassian-api-token"
    TELEGRAM_BOT_TOKEN = "telegram-bot-token"
    DISCORD_TOKEN = "discord-token"
    DATABRICKS_TOKEN = "databricks-token"
    FLYIO_TOKEN = "flyio-token"
    TERRAFORM_CLOUD_TOKEN = "terraform-cloud-token"
    ONEPASSWORD_SECRET = "1password-secret"  # a service account token or an account's secret key
    ALIBABA_ACCESS_KEY_ID = "alibaba-access-key-id"
    AZURE_AD_CLIENT_SECRET = "azure-ad-client-secret"
    CLOUDFLARE_API_KEY = "cloudflare-api-key"
    OKTA_API_TOKEN = "okta-api-token"
    CONFLUENT_API_KEY = "confluent-api-key"
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
