"""The vendor credential rules (Datadog, Vault, age, Shopify, Twilio...): each found in every
form, and its near misses (placeholders, too short, a prefix glued to a longer word, another
prefix) not found.

Key-shaped values are generated at run time from a seeded generator: the repository holds no
real-looking credential.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable

import pytest

from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.adapters.secrets.secret_patterns import PATTERNS
from cleveragents.domain.secrets import SecretKind
from tests.secret_recall_set import BECH32_UPPER, HEX, random_key

ALNUM = string.ascii_letters + string.digits
UPPER_DIGITS = string.ascii_uppercase + string.digits
_rng = random.Random(2026)


def r(alphabet: str, length: int) -> str:
    return random_key(_rng, alphabet, length)


# (kind, line holding the credential, the credential as a redaction replaces it)
Example = tuple[SecretKind, str, str]


def _example(kind: SecretKind, template: str, secret: str) -> Example:
    return kind, template.format(secret), secret


UUID = "-".join(r(HEX, size) for size in (8, 4, 4, 4, 12))
EXAMPLES: dict[str, Example] = {
    "datadog-api-key": _example(SecretKind.DATADOG_API_KEY, "DD_API_KEY={}", r(HEX, 32)),
    "datadog-api-key-named": _example(
        SecretKind.DATADOG_API_KEY, "datadog_api_key: '{}'", r(HEX, 32)
    ),
    "datadog-api-key-header": _example(SecretKind.DATADOG_API_KEY, "DD-API-KEY: {}", r(HEX, 32)),
    "datadog-app-key": _example(SecretKind.DATADOG_APP_KEY, "DD_APP_KEY={}", r(HEX, 40)),
    "datadog-app-key-long-name": _example(
        SecretKind.DATADOG_APP_KEY, "DATADOG_APP_KEY = {}", r(HEX, 40)
    ),
    "datadog-app-key-header": _example(
        SecretKind.DATADOG_APP_KEY, "-H 'DD-APPLICATION-KEY: {}'", r(HEX, 40)
    ),
    "vault-service": _example(SecretKind.VAULT_TOKEN, "vault login {}", "hvs." + r(ALNUM, 95)),
    "vault-batch": _example(SecretKind.VAULT_TOKEN, "token {}", "hvb." + r(ALNUM + "_-", 140)),
    "vault-legacy": _example(SecretKind.VAULT_TOKEN, "VAULT_TOKEN={}", "s." + r(ALNUM, 24)),
    "vault-legacy-header": _example(
        SecretKind.VAULT_TOKEN, "X-Vault-Token: {}", "s." + r(ALNUM, 24)
    ),
    "age": _example(SecretKind.AGE_SECRET_KEY, "{}", "AGE-SECRET-KEY-1" + r(BECH32_UPPER, 58)),
    "shopify": _example(SecretKind.SHOPIFY_TOKEN, "key {}", "shpat_" + r(HEX, 32)),
    "shopify-custom": _example(SecretKind.SHOPIFY_TOKEN, "key {}", "shpca_" + r(HEX, 32)),
    "twilio": _example(SecretKind.TWILIO_API_KEY, "sid {}", "SK" + r(HEX, 32)),
    "mailgun": _example(SecretKind.MAILGUN_API_KEY, "mg {}", "key-" + r(HEX, 32)),
    "mailchimp": _example(SecretKind.MAILCHIMP_API_KEY, "mc {}", r(HEX, 32) + "-us6"),
    "square": _example(SecretKind.SQUARE_TOKEN, "sq {}", "EAAA" + r(ALNUM + "-_", 60)),
    "square-oauth": _example(SecretKind.SQUARE_TOKEN, "sq {}", "sq0csp-" + r(ALNUM, 43)),
    "digitalocean": _example(SecretKind.DIGITALOCEAN_TOKEN, "do {}", "dor_v1_" + r(HEX, 64)),
    "heroku": _example(SecretKind.HEROKU_API_KEY, "h {}", "HRKU-AA" + r(ALNUM + "_-", 58)),
    "heroku-uuid": _example(SecretKind.HEROKU_API_KEY, "HEROKU_API_KEY={}", UUID),
    "pypi": _example(SecretKind.PYPI_TOKEN, "pw {}", "pypi-AgEIcHlwaS5vcmc" + r(ALNUM, 80)),
    "doppler": _example(SecretKind.DOPPLER_TOKEN, "d {}", "dp.pt." + r(ALNUM, 43)),
    "dynatrace": _example(
        SecretKind.DYNATRACE_TOKEN,
        "dt {}",
        "dt0c01." + r(UPPER_DIGITS, 24) + "." + r(UPPER_DIGITS, 64),
    ),
    "linear": _example(SecretKind.LINEAR_API_KEY, "l {}", "lin_api_" + r(ALNUM, 40)),
    "postman": _example(
        SecretKind.POSTMAN_API_KEY, "p {}", "PMAK-" + r(HEX, 24) + "-" + r(HEX, 34)
    ),
    "pulumi": _example(SecretKind.PULUMI_TOKEN, "p {}", "pul-" + r(HEX, 40)),
    "grafana-service-account": _example(
        SecretKind.GRAFANA_TOKEN, "g {}", "glsa_" + r(ALNUM, 32) + "_" + r(HEX, 8)
    ),
    "grafana-cloud": _example(SecretKind.GRAFANA_TOKEN, "g {}", "glc_" + r(ALNUM + "+/", 60)),
    "grafana-api-key": _example(SecretKind.GRAFANA_TOKEN, "g {}", "eyJrIjoi" + r(ALNUM, 80)),
    "new-relic": _example(SecretKind.NEW_RELIC_KEY, "nr {}", "NRAK-" + r(UPPER_DIGITS, 27)),
    "new-relic-insert": _example(SecretKind.NEW_RELIC_KEY, "nr {}", "NRII-" + r(ALNUM, 32)),
    "sentry-user": _example(SecretKind.SENTRY_TOKEN, "s {}", "sntryu_" + r(HEX, 64)),
    "sentry-org": _example(SecretKind.SENTRY_TOKEN, "s {}", "sntrys_eyJ" + r(ALNUM, 120)),
    "atlassian": _example(SecretKind.ATLASSIAN_API_TOKEN, "a {}", "ATATT3" + r(ALNUM + "_-", 186)),
    "telegram": _example(
        SecretKind.TELEGRAM_BOT_TOKEN, "bot {}", r("123456789", 9) + ":AA" + r(ALNUM + "_-", 33)
    ),
    "databricks": _example(SecretKind.DATABRICKS_TOKEN, "db {}", "dapi" + r(HEX, 32)),
    "databricks-suffixed": _example(
        SecretKind.DATABRICKS_TOKEN, "db {}", "dapi" + r(HEX, 32) + "-2"
    ),
    "flyio": _example(SecretKind.FLYIO_TOKEN, "f {}", "fo1_" + r(ALNUM + "_-", 43)),
    "flyio-macaroon": _example(SecretKind.FLYIO_TOKEN, "FlyV1 {}", "fm2_" + r(ALNUM + "+/", 120)),
    "terraform": _example(
        SecretKind.TERRAFORM_CLOUD_TOKEN, "t {}", r(ALNUM, 14) + ".atlasv1." + r(ALNUM, 67)
    ),
    "1password-token": _example(
        SecretKind.ONEPASSWORD_SECRET, "op {}", "ops_eyJ" + r(ALNUM + "+/", 400)
    ),
    "1password-secret-key": _example(
        SecretKind.ONEPASSWORD_SECRET,
        "sk {}",
        "A3-" + "-".join(r(UPPER_DIGITS, size) for size in (6, 11, 5, 5, 5)),
    ),
    "alibaba": _example(SecretKind.ALIBABA_ACCESS_KEY_ID, "ak {}", "LTAI" + r(ALNUM, 20)),
    "azure-ad": _example(
        SecretKind.AZURE_AD_CLIENT_SECRET, "cs {}", "a1b" + "8Q~" + r(ALNUM + "_~.-", 34)
    ),
    "gitlab-deploy": _example(SecretKind.GITLAB_TOKEN, "gl {}", "gldt-" + r(ALNUM, 20)),
    "gitlab-agent": _example(SecretKind.GITLAB_TOKEN, "gl {}", "glagent-" + r(ALNUM, 50)),
    "cloudflare": _example(
        SecretKind.CLOUDFLARE_API_KEY, "CLOUDFLARE_API_TOKEN={}", r(ALNUM + "_-", 40)
    ),
    "cloudflare-global": _example(
        SecretKind.CLOUDFLARE_API_KEY, "cloudflare_api_key: {}", r(HEX, 37)
    ),
    "cloudflare-origin-ca": _example(
        SecretKind.CLOUDFLARE_API_KEY, "ca {}", "v1.0-" + r(HEX, 24) + "-" + r(HEX, 146)
    ),
    "okta": _example(SecretKind.OKTA_API_TOKEN, "okta_token: {}", "00" + r(ALNUM + "_-", 40)),
    "confluent-key": _example(
        SecretKind.CONFLUENT_API_KEY, "CONFLUENT_API_KEY={}", r(UPPER_DIGITS, 16)
    ),
    "confluent-secret": _example(
        SecretKind.CONFLUENT_API_KEY, "confluent_secret: {}", r(ALNUM, 64)
    ),
    "discord-bot": _example(
        SecretKind.DISCORD_TOKEN,
        "DISCORD_TOKEN={}",
        "N" + r(ALNUM, 25) + "." + r(ALNUM, 6) + "." + r(ALNUM + "_-", 38),
    ),
    "huggingface-org": _example(
        SecretKind.HUGGINGFACE_TOKEN, "hf {}", "api_org_" + r(string.ascii_letters, 34)
    ),
}

FORMS: dict[str, Callable[[str], bytes]] = {
    "plain": lambda line: f"before\n{line}\nafter\n".encode(),
    "json": lambda line: json.dumps({"output": f"before\n{line}\nafter\n"}).encode(),
    "log-line": lambda line: f"2026-11-30T10:12:01Z INFO worker: {line}\n".encode(),
    "base64": lambda line: base64.b64encode(line.encode()) + b"\n",
    "base64-labelled": lambda line: b"data: " + base64.b64encode(line.encode()) + b"\n",
    "utf16le": lambda line: f"before\n{line}\nafter\n".encode("utf-16-le"),
}


def _named(line: str, secret: str) -> bool:
    """Whether the credential is known by the name it is assigned to (not found alone)."""
    before = line[: line.index(secret)].rstrip(" '\"")
    return before.endswith(("=", ":"))


@pytest.fixture(scope="module")
def scanner() -> PatternSecretScanner:
    return PatternSecretScanner()


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", EXAMPLES)
def test_each_vendor_credential_is_found_in_each_form(
    scanner: PatternSecretScanner, name: str, form: str
) -> None:
    kind, line, _ = EXAMPLES[name]
    found = scanner.match_bytes(FORMS[form](line))
    assert [match.kind for match in found] == [kind]


@pytest.mark.parametrize("name", EXAMPLES)
def test_a_credential_of_a_format_of_its_own_is_found_alone_at_a_line_start(
    scanner: PatternSecretScanner, name: str
) -> None:
    kind, line, secret = EXAMPLES[name]
    if _named(line, secret):
        pytest.skip("known by its name")
    for text in (f"{secret}\n", json.dumps({"output": f"x\n{secret}\n"})):
        assert [match.kind for match in scanner.match_bytes(text.encode())] == [kind]


@pytest.mark.parametrize("name", EXAMPLES)
def test_a_match_spans_the_whole_credential(scanner: PatternSecretScanner, name: str) -> None:
    kind, line, secret = EXAMPLES[name]
    data = f"x\n{line}\n".encode()
    [match] = scanner.match_bytes(data)
    assert data[match.start : match.end] == secret.encode()
    assert match.rule == kind.value


def test_every_vendor_kind_has_an_example() -> None:
    covered = {kind for kind, _, _ in EXAMPLES.values()}
    vendor_kinds = {kind for pattern in PATTERNS for kind in pattern.kinds}
    first_kinds = set(list(SecretKind)[: list(SecretKind).index(SecretKind.DATADOG_API_KEY)])
    generic = {SecretKind.GENERIC_SECRET, SecretKind.OTHER}
    assert vendor_kinds - first_kinds - generic <= covered


def _near_misses() -> list[tuple[str, str]]:
    hex32, hex40 = r(HEX, 32), r(HEX, 40)
    return [
        # Placeholders and masks.
        ("shopify-zeros", "shpat_" + "0" * 32),
        ("digitalocean-x", "dop_v1_" + "x" * 64),
        ("age-repeated", "AGE-SECRET-KEY-1" + "Q" * 58),
        ("vault-template", "VAULT_TOKEN=${VAULT_TOKEN}"),
        ("vault-placeholder", "VAULT_TOKEN=s.xxxxxxxxxxxxxxxxxxxxxxxx"),
        ("datadog-placeholder", "DD_API_KEY=<your-datadog-api-key>"),
        ("datadog-app-template", "DD_APP_KEY=${DD_APP_KEY}"),
        ("mailchimp-zeros", "0" * 32 + "-us21"),
        ("twilio-zeros", "SK" + "0" * 32),
        # Too short.
        ("shopify-short", "shpat_" + hex32[:24]),
        ("twilio-short", "SK" + hex32[:30]),
        ("vault-short", "hvs." + r(ALNUM, 40)),
        ("linear-short", "lin_api_" + r(ALNUM, 30)),
        ("pulumi-short", "pul-" + hex40[:30]),
        ("age-short", "AGE-SECRET-KEY-1" + r(BECH32_UPPER, 40)),
        ("databricks-short", "dapi" + hex32[:20]),
        ("telegram-short-id", "123:AA" + r(ALNUM, 33)),
        ("datadog-app-short", "DD_APP_KEY=" + hex40[:30]),
        # A prefix glued to a longer word.
        ("shopify-glued", "xshpat_" + hex32),
        ("twilio-glued", "TASK" + hex32),
        ("twilio-in-hex", hex32 + "SK" + hex32),
        ("mailgun-glued", "monkey-" + hex32),
        ("pulumi-glued", "rpul-" + hex40),
        ("vault-glued", "hhvs." + r(ALNUM, 95)),
        ("alibaba-glued", "XLTAI" + r(ALNUM, 20)),
        ("square-glued", "SEAAA" + r(ALNUM, 40)),
        ("square-in-base64", "EAAA" + r(ALNUM, 30) + "+" + r(ALNUM, 8) + "=="),
        ("databricks-glued", "sdapi" + hex32),
        ("datadog-glued", "ADD_APP_KEY=" + hex40),
        ("gitlab-glued", "xgldt-" + r(ALNUM, 20)),
        # Another prefix, or the body of another shape.
        ("gitlab-unknown-prefix", "glxyz-" + r(ALNUM, 20)),
        ("vault-other-letter", "hvx." + r(ALNUM, 95)),
        ("mailchimp-not-hex", r(ALNUM.replace("a", ""), 32) + "-us21"),
        ("twilio-not-hex", "SK" + r("ghijklmnopqrstuvwxyz", 32)),
        ("datadog-other-name", "ADDRESS_KEY=" + hex40),
        ("vault-legacy-unnamed", "see s." + r(ALNUM, 24)),
        ("okta-wrong-shape", "OKTA_ORG_URL=https://example.okta.com"),
        ("discord-wrong-shape", "DISCORD_CHANNEL=general"),
        ("azure-ad-no-digit", "abcdQ~" + r(ALNUM, 34)),
        ("sentry-not-hex", "sntryu_" + r("ghijklmnop", 64)),
    ]


@pytest.mark.parametrize(("name", "line"), _near_misses(), ids=lambda value: value[:24])
def test_near_misses_are_not_found(scanner: PatternSecretScanner, name: str, line: str) -> None:
    assert scanner.match_bytes(f"before\n{line}\nafter\n".encode()) == [], name
