"""A labelled recall set for secret scanners: 78 kinds of credential in 8 forms.

Every value is generated from a seeded random generator in the shape of the real thing: fake,
never a real credential, and never written as a literal (push protection and other scanners
would rightly flag a real-looking literal). The same set serves the tests
(`tests/integration/test_secret_recall.py`) and the benchmark (`benchmarks/secret_scanning.py`,
which also runs gitleaks on it). The kinds are the 32 of the first set and 46 more that
gitleaks' default rules also know (Datadog, Vault, age, Shopify, Twilio, Mailgun...), so that
the comparison is fair.

Forms, each a document holding one credential at a known line:
- plain: a shell transcript, `\\n` line endings;
- json: that transcript JSON-escaped inside a JSON document (a tool result in a transcript);
- log-line: the credential's line inside a timestamped log line;
- base64: the credential's line base64-encoded (`kubectl get secret -o yaml`, `| base64`);
- base64-labelled: the same under a label that says nothing of secrets (`data: <base64>`);
- utf16le: plain, written as UTF-16LE (a Windows tool's log);
- chunk-split: plain, handed to the scanner in two reads cut inside the credential;
- crlf: plain with `\\r\\n` line endings.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable
from dataclasses import dataclass

UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
ALNUM = UPPER + LOWER + DIGITS
HEX_UPPER = "0123456789ABCDEF"
SEED = 20261201
FORMS = (
    "plain",
    "json",
    "log-line",
    "base64",
    "base64-labelled",
    "utf16le",
    "chunk-split",
    "crlf",
)
# The forms every kind must be found in (the others are extra).
REQUIRED_FORMS = ("plain", "json", "log-line", "base64", "base64-labelled", "utf16le")
HEX = "0123456789abcdef"
BECH32_UPPER = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"


@dataclass(frozen=True)
class Credential:
    """`text` holds the credential as output shows it (one line, or a PEM block); `secret`
    is the value that must never show in findings; the chunk-split form cuts inside it."""

    name: str
    text: str
    secret: str


@dataclass(frozen=True)
class Case:
    credential: Credential
    form: str
    chunks: tuple[bytes, ...]  # what a scanner is fed, in order
    line: int  # where the credential is (its first line)

    @property
    def data(self) -> bytes:
        return b"".join(self.chunks)

    @property
    def id(self) -> str:
        return f"{self.credential.name}-{self.form}"


def random_key(rng: random.Random, alphabet: str, length: int) -> str:
    """Random text with a digit, an upper- and a lower-case letter when the alphabet has
    them (as real keys do)."""
    wanted = [chars for chars in (UPPER, LOWER, DIGITS) if set(chars) & set(alphabet)]
    while True:
        text = "".join(rng.choice(alphabet) for _ in range(length))
        if all(set(text) & set(chars) for chars in wanted):
            return text


def b64url(document: dict[str, object]) -> str:
    raw = json.dumps(document, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def credentials(seed: int = SEED) -> tuple[Credential, ...]:
    rng = random.Random(seed)
    r: Callable[[str, int], str] = lambda alphabet, length: random_key(rng, alphabet, length)  # noqa: E731

    def token(name: str, template: str, secret: str) -> Credential:
        return Credential(name, template.format(secret), secret)

    pem_body = "\n".join(r(ALNUM + "+/", 64) for _ in range(4))
    pem = f"-----BEGIN RSA PRIVATE KEY-----\n{pem_body}\n-----END RSA PRIVATE KEY-----"
    jwt = ".".join(
        (
            b64url({"alg": "HS256", "typ": "JWT"}),
            b64url({"sub": r(DIGITS, 10), "name": "Test User", "iat": 1700000000}),
            r(ALNUM + "-_", 43),
        )
    )
    azure_key = base64.b64encode(bytes(rng.randrange(256) for _ in range(64))).decode()
    url_password = r(ALNUM, 16)
    return (
        token("aws-access-key-id", "export AWS_ACCESS_KEY_ID={}", "AKIA" + r(UPPER + DIGITS, 16)),
        token("aws-secret-access-key", 'aws_secret_access_key = "{}"', r(ALNUM + "/+", 40)),
        token("github-classic", "GITHUB_TOKEN={}", "ghp_" + r(ALNUM, 36)),
        token("github-oauth", "oauth: {}", "gho_" + r(ALNUM, 36)),
        token(
            "github-fine-grained",
            "using {}",
            "github_pat_" + r(ALNUM, 22) + "_" + r(ALNUM, 59),
        ),
        token("gitlab-token", "GITLAB_TOKEN={}", "glpat-" + r(ALNUM + "-_", 20)),
        token("gitlab-any-name", "CI_DEPLOY_CREDENTIAL={}", "glpat-" + r(ALNUM, 20)),
        token("openai-project", "OPENAI_API_KEY={}", "sk-proj-" + r(ALNUM + "-_", 120)),
        token("anthropic", "ANTHROPIC_API_KEY={}", "sk-ant-api03-" + r(ALNUM + "-_", 93) + "AA"),
        token(
            "slack-bot-token",
            "slack: {}",
            "-".join(("xoxb", r(DIGITS, 11), r(DIGITS, 13), r(ALNUM, 24))),
        ),
        token(
            "slack-user-token",
            "SLACK={}",
            "-".join(
                ("xoxp", r(DIGITS, 11), r(DIGITS, 12), r(DIGITS, 13), r("abcdef" + DIGITS, 32))
            ),
        ),
        token(
            "slack-webhook",
            "POST https://{}",
            "hooks.slack.com/services/T"
            + r(UPPER + DIGITS, 8)
            + "/B"
            + r(UPPER + DIGITS, 10)
            + "/"
            + r(ALNUM, 24),
        ),
        token("stripe-secret", "stripe.api_key = '{}'", "sk_live_" + r(ALNUM, 24)),
        token("stripe-restricted", "STRIPE_KEY={}", "rk_test_" + r(ALNUM, 24)),
        token("google-api-key", "maps key: {}", "AIza" + r(ALNUM + "-_", 35)),
        Credential("private-key", pem, pem_body.split("\n")[1]),
        token("jwt", "id_token: {}", jwt),
        Credential(
            "password-in-url",
            f"DATABASE_URL=postgres://orders:{url_password}@db.internal:5432/orders",
            url_password,
        ),
        token("bearer-token", "Authorization: Bearer {}", r(ALNUM + "._-", 40)),
        token("bearer-upper-hex", "Authorization: Bearer {}", r(HEX_UPPER, 32)),
        token("password-quoted", 'DB_PASSWORD="{}"', r(ALNUM + "!#%^*", 18)),
        token(
            "password-punctuation",
            "PASSWORD='{}'",
            r(LOWER, 4) + "&;" + r(ALNUM, 5) + ",(" + r(ALNUM, 4),
        ),
        token("password-letters", "password={}", r(LOWER, 9)),
        token("password-yaml", "  password: {}", r(ALNUM + "@!", 14)),
        token("api-key-assignment", 'api_key = "{}"', r(LOWER + DIGITS, 32)),
        token("access-token-query", "GET /v1/items?access_token={}&page=2", r(ALNUM, 40)),
        token("client-secret", "client_secret: {}", r(ALNUM + "~_", 34)),
        Credential(
            "azure-storage-key",
            "DefaultEndpointsProtocol=https;AccountName=ordersprod;"
            f"AccountKey={azure_key};EndpointSuffix=core.windows.net",
            azure_key,
        ),
        token("npm-token", "NPM_TOKEN={}", "npm_" + r(ALNUM, 36)),
        token("npmrc-auth-token", "//registry.npmjs.org/:_authToken={}", "npm_" + r(ALNUM, 36)),
        token(
            "sendgrid-api-key",
            "SENDGRID_API_KEY={}",
            "SG." + r(ALNUM + "-_", 22) + "." + r(ALNUM + "-_", 43),
        ),
        token("huggingface-token", "HF_TOKEN={}", "hf_" + r(UPPER + LOWER, 34)),
        *_vendor_credentials(r),
    )


def _vendor_credentials(r: Callable[[str, int], str]) -> tuple[Credential, ...]:
    """The kinds that gitleaks' default rules know too, beyond the first 32."""

    def token(name: str, template: str, secret: str) -> Credential:
        return Credential(name, template.format(secret), secret)

    uuid = "-".join(r(HEX, size) for size in (8, 4, 4, 4, 12))
    upper_digits = UPPER + DIGITS
    return (
        token("datadog-api-key", "DD_API_KEY={}", r(HEX, 32)),
        token("datadog-app-key", "DD_APP_KEY={}", r(HEX, 40)),
        token("datadog-api-key-header", "dd-api-key: {}", r(HEX, 32)),
        token("datadog-app-key-named", 'datadog_app_key: "{}"', r(HEX, 40)),
        token("vault-service-token", "$ vault login {}", "hvs." + r(ALNUM + "_-", 95)),
        token("vault-batch-token", "X-Vault-Token: {}", "hvb." + r(ALNUM + "_-", 150)),
        token("vault-legacy-token", "export VAULT_TOKEN={}", "s." + r(ALNUM, 24)),
        token("age-secret-key", "{}", "AGE-SECRET-KEY-1" + r(BECH32_UPPER, 58)),
        token("shopify-access-token", "SHOPIFY_ACCESS_TOKEN={}", "shpat_" + r(HEX, 32)),
        token("shopify-shared-secret", "shopify: {}", "shpss_" + r(HEX, 32)),
        token("twilio-api-key", "TWILIO_API_KEY={}", "SK" + r(HEX, 32)),
        token("mailgun-api-key", "MAILGUN_API_KEY={}", "key-" + r(HEX, 32)),
        token("mailchimp-api-key", "MAILCHIMP_API_KEY={}", r(HEX, 32) + "-us21"),
        token("square-access-token", "SQUARE_ACCESS_TOKEN={}", "EAAA" + r(ALNUM + "-_", 60)),
        token("square-oauth-token", "square: {}", "sq0atp-" + r(ALNUM + "-_", 22)),
        token("digitalocean-token", "DIGITALOCEAN_TOKEN={}", "dop_v1_" + r(HEX, 64)),
        token("heroku-api-key", "HEROKU_API_KEY={}", uuid),
        token("heroku-api-key-v2", "heroku auth: {}", "HRKU-AA" + r(ALNUM + "_-", 58)),
        token("pypi-token", "password = {}", "pypi-AgEIcHlwaS5vcmc" + r(ALNUM + "-_", 70)),
        token("doppler-token", "DOPPLER_TOKEN={}", "dp.pt." + r(ALNUM, 43)),
        token(
            "dynatrace-token",
            "DT_API_TOKEN={}",
            "dt0c01." + r(upper_digits, 24) + "." + r(upper_digits, 64),
        ),
        token("linear-api-key", "LINEAR_API_KEY={}", "lin_api_" + r(ALNUM, 40)),
        token("postman-api-key", "POSTMAN_API_KEY={}", "PMAK-" + r(HEX, 24) + "-" + r(HEX, 34)),
        token("pulumi-token", "PULUMI_ACCESS_TOKEN={}", "pul-" + r(HEX, 40)),
        token(
            "grafana-service-account-token",
            "GRAFANA_TOKEN={}",
            "glsa_" + r(ALNUM, 32) + "_" + r(HEX, 8),
        ),
        token("grafana-cloud-token", "grafana cloud: {}", "glc_" + r(ALNUM, 80)),
        token("new-relic-user-key", "NEW_RELIC_API_KEY={}", "NRAK-" + r(upper_digits, 27)),
        token("sentry-user-token", "SENTRY_AUTH_TOKEN={}", "sntryu_" + r(HEX, 64)),
        token("atlassian-api-token", "JIRA_API_TOKEN={}", "ATATT3" + r(ALNUM + "_-", 186)),
        token(
            "telegram-bot-token",
            "TELEGRAM_BOT_TOKEN={}",
            r(DIGITS, 10) + ":AA" + r(ALNUM + "_-", 33),
        ),
        token("databricks-token", "DATABRICKS_TOKEN={}", "dapi" + r(HEX, 32)),
        token("flyio-token", "FLY_API_TOKEN={}", "fo1_" + r(ALNUM + "_-", 43)),
        token(
            "terraform-cloud-token",
            "TF_TOKEN_app_terraform_io={}",
            r(ALNUM, 14) + ".atlasv1." + r(ALNUM + "_-", 67),
        ),
        token(
            "1password-service-account-token",
            "OP_SERVICE_ACCOUNT_TOKEN={}",
            "ops_eyJ" + r(ALNUM, 300),
        ),
        token("alibaba-access-key-id", "ALIBABA_CLOUD_ACCESS_KEY_ID={}", "LTAI" + r(ALNUM, 20)),
        token(
            "azure-ad-client-secret",
            "AZURE_CLIENT_SECRET={}",
            r(ALNUM, 3) + r(DIGITS, 1) + "Q~" + r(ALNUM + "_~.-", 34),
        ),
        token("github-app-token", "installation token: {}", "ghs_" + r(ALNUM, 36)),
        token("github-refresh-token", "refresh with {}", "ghr_" + r(ALNUM, 36)),
        token("gitlab-deploy-token", "deploy with {}", "gldt-" + r(ALNUM, 20)),
        token("gitlab-runner-token", "runner registered: {}", "glrt-" + r(ALNUM, 20)),
        token("gitlab-trigger-token", "trigger with {}", "glptt-" + r(HEX, 40)),
        token("cloudflare-api-token", "CLOUDFLARE_API_TOKEN={}", r(ALNUM + "_-", 40)),
        token(
            "cloudflare-origin-ca-key",
            "origin CA key: {}",
            "v1.0-" + r(HEX, 24) + "-" + r(HEX, 146),
        ),
        token("okta-api-token", "OKTA_API_TOKEN={}", "00" + r(ALNUM + "_-", 40)),
        token("confluent-api-secret", "CONFLUENT_API_SECRET={}", r(ALNUM, 64)),
        token(
            "discord-bot-token",
            "DISCORD_BOT_TOKEN={}",
            "M" + r(ALNUM, 25) + "." + r(ALNUM, 6) + "." + r(ALNUM + "_-", 38),
        ),
    )


def _plain(text: str) -> tuple[str, int]:
    lines = ["$ ./deploy.sh --verbose", "starting worker 3", text, "done in 3.2 s", ""]
    return "\n".join(lines), 3


def _split_inside(data: bytes, secret: bytes) -> tuple[bytes, ...]:
    middle = data.index(secret) + len(secret) // 2
    return data[:middle], data[middle:]


def case(credential: Credential, form: str) -> Case:
    plain, line = _plain(credential.text)
    if form == "plain":
        return Case(credential, form, (plain.encode(),), line)
    if form == "log-line":
        logged, _ = _plain(f"2026-11-30T10:12:01.123Z INFO deploy[4121]: {credential.text}")
        return Case(credential, form, (logged.encode(),), line)
    if form == "base64-labelled":
        wrapped = base64.b64encode(credential.text.encode()).decode()
        document = f"name: deploy-payload\nversion: 3\ndata: {wrapped}\nsize: 4096\n"
        return Case(credential, form, (document.encode(),), 3)
    if form == "crlf":
        return Case(credential, form, (plain.replace("\n", "\r\n").encode(),), line)
    if form == "utf16le":
        return Case(credential, form, (plain.encode("utf-16-le"),), line)
    if form == "chunk-split":
        data = plain.encode()
        return Case(credential, form, _split_inside(data, credential.secret.encode()), line)
    if form == "json":
        document = json.dumps({"tool": "shell", "exit_code": 0, "output": plain}, indent=2)
        found = next(i for i, row in enumerate(document.split("\n"), 1) if '"output"' in row)
        return Case(credential, form, (document.encode(),), found)
    if form == "base64":
        wrapped = base64.b64encode(credential.text.encode()).decode()
        listing = f"$ kubectl get secret app -o jsonpath='{{.data.env}}'\n{wrapped}\ndone\n"
        return Case(credential, form, (listing.encode(),), 2)
    raise ValueError(f"unknown form {form!r}")


def cases(seed: int = SEED) -> tuple[Case, ...]:
    return tuple(case(credential, form) for credential in credentials(seed) for form in FORMS)


# Ordinary lines that name a token, a key or a password without holding one: what a scanner
# must not block (from Android and macOS logs, docs and .env templates).
BENIGN_LINES = (
    "11-30 10:12:01.123 W ActivityManager: Bad activity token: android.os.BinderProxy@2bd79ce",
    "2026-11-30 10:12:01.5 Df runningboardd: stream/token: com.apple.xpc.activity/4505",
    'api_key="your-api-key"',
    "GITHUB_TOKEN=ghp_" + "x" * 36,
    "GITHUB_TOKEN=ghp_xxxx\u2026",
    "NPM_TOKEN=npm_" + "0" * 36,
    "export AWS_ACCESS_KEY_ID=AKIA" + "X" * 16,
    "password=changeme",
    'DB_PASSWORD="<your password>"',
    "token: <TOKEN>",
    "api_key = example-key-1234",
    "secret=aaaaaaaaaaaaaaaa",
    "Authorization: Bearer YOUR_API_TOKEN",
    "Authorization: Bearer ${TOKEN}",
    "password: str",
    "def connect(user, password=None):",
    "f(password=hashed)",
    'REVISION_SCRIPT_TOKEN = "REVISION_SCRIPT_FILENAME"',
    'engine = create_engine("postgresql://scott:tiger@localhost/test")',
    "//registry.npmjs.org/:_authToken=${NPM_TOKEN}",
    "AccountKey=<storage-account-key>",
    "hf_hub_download(repo_id='gpt2', filename='config.json')",
)
