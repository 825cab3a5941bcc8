"""Deterministic benign logs in many formats, for the secret scanner's wrongful blocks.

No line here holds a credential, yet many name one: OAuth and HTTP libraries log the words
token, secret, password, key and api_key beside expiry times, masks (`***`, `<redacted>`),
secret references (`projects/x/secrets/y/versions/3`), key ids, format strings, dotted
identifiers, paths, versions, numbers and commit hashes. A scanner that blocks any of these
logs blocks a user's ordinary tool output.

Each format writes records the way its program would (syslog in BSD and RFC 5424 form and the
macOS unified log's, journald's export format, nginx and Apache access and error logs, logfmt
and JSON lines as Kubernetes components write them, Java stack traces, Python logging and
tracebacks, Go panics, cargo, npm, pip, pytest and GitHub Actions output, Windows event text,
PostgreSQL and MySQL logs, sshd and sudo auth logs, and OAuth client logs). The lines are
written for this benchmark from the formats' published shapes; none is taken from a real log.

Every log is a pure function of its format, its record count and the seed: a `random.Random`
seeded with both draws every choice, and times count on from a fixed start, so two runs and two
machines get the same bytes. Random-looking fields (request ids, commit hashes, boot ids) come
from the same generator: they are what real logs hold next to the words, and never assigned to a
credential's name.
"""

from __future__ import annotations

import json
import string
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from random import Random

SEED = 20240605
RECORDS = 400
_START = datetime(2024, 6, 5, 9, 0, 0, tzinfo=UTC)
_HEX = "0123456789abcdef"
_B64 = string.ascii_letters + string.digits + "+/"


class _Fields:
    """The values a record is made of, all drawn from one seeded generator."""

    def __init__(self, rng: Random) -> None:
        self.rng = rng
        self.now = _START

    def tick(self) -> datetime:
        self.now += timedelta(milliseconds=self.rng.randint(1, 4000))
        return self.now

    def pick(self, *choices: str) -> str:
        return self.rng.choice(choices)

    def hex(self, length: int) -> str:
        return "".join(self.rng.choice(_HEX) for _ in range(length))

    def b64(self, length: int) -> str:
        return "".join(self.rng.choice(_B64) for _ in range(length))

    def uuid(self) -> str:
        h = self.hex(32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"

    def number(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def ip(self) -> str:
        return f"10.{self.number(0, 255)}.{self.number(0, 255)}.{self.number(1, 254)}"

    def host(self) -> str:
        return self.pick("web-01", "api-2", "worker-7", "db-primary", "ip-10-0-3-17", "mbp-ana")

    def user(self) -> str:
        return self.pick("deploy", "ana", "ci-runner", "postgres", "www-data", "svc-orders")

    def service(self) -> str:
        return self.pick("orders", "billing", "auth", "gateway", "catalog", "notifier")

    def secret_name(self) -> str:
        return self.pick("db-password", "stripe-api-key", "oauth-client-secret", "tls-cert")

    def env(self) -> str:
        return self.pick("API_KEY", "DB_PASSWORD", "OAUTH_CLIENT_SECRET", "GITHUB_TOKEN")

    def version(self) -> str:
        return f"{self.number(0, 9)}.{self.number(0, 30)}.{self.number(0, 20)}"

    def duration(self) -> str:
        return self.pick(f"{self.number(1, 900)}ms", f"{self.number(1, 59)}s", "1m30s", "0.25s")

    def path(self) -> str:
        return self.pick(
            f"/var/lib/{self.service()}/cache/{self.number(1, 99)}.bin",
            "/var/run/secrets/kubernetes.io/serviceaccount/token",
            f"/home/{self.user()}/.config/{self.service()}/credentials.json",
            f"/etc/{self.service()}/secrets.d/{self.secret_name()}.yaml",
            f"/srv/app/releases/{self.version()}/config/keys/",
        )

    def iso(self) -> str:
        return self.now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.now.microsecond // 1000:03d}Z"

    def fill(self, text: str) -> str:
        """`text` with each `{name}` replaced by a fresh value of that field."""
        makers: dict[str, Callable[[], object]] = {
            "sha": lambda: self.hex(40),
            "short_sha": lambda: self.hex(7),
            "uuid": self.uuid,
            "ip": self.ip,
            "host": self.host,
            "user": self.user,
            "service": self.service,
            "secret_name": self.secret_name,
            "env": self.env,
            "version": self.version,
            "duration": self.duration,
            "path": self.path,
            "iso": self.iso,
            "n": lambda: self.number(1, 9999),
            "secs": lambda: self.pick("30", "60", "300", "900", "3600"),
            "expires": lambda: self.pick("3599", "3600", "86399", "1799"),
            "port": lambda: self.number(1024, 65535),
            "pid": lambda: self.number(100, 65000),
            "project": lambda: self.pick("acme-prod", "orders-staging", "my-project-123456"),
            "client": lambda: self.pick("web-app", "cli", "1234567890-abc.apps.example.com"),
            "scope": lambda: self.pick("openid email", "read:orders write:orders", "repo"),
            "kid": lambda: self.hex(16),
            "mask": lambda: self.pick("***", "********", "<redacted>", "[REDACTED]", "[FILTERED]"),
            "subsystem": lambda: self.pick("xpc.activity", "notifyd.matching", "alarm"),
        }
        out = text
        for name, make in makers.items():
            marker = "{" + name + "}"
            while marker in out:
                out = out.replace(marker, str(make()), 1)
        return out


# Messages that name a credential without holding one, as libraries and services write them.
# `{name}` fields are filled by `_Fields.fill`; other braces are the text's own.
CREDENTIAL_WORD_MESSAGES = (
    "token refresh scheduled in {secs}s",
    'refreshing access token for client_id={client} scope="{scope}"',
    'token_type=Bearer expires_in={expires} scope="{scope}"',
    "received token: type=Bearer expires_in={expires}s refresh=true",
    "password: {mask}",
    "password={mask} user={user}",
    "api_key={mask}",
    "api_key: {mask} (from environment)",
    "token: {mask}",
    "client_secret={mask} client_id={client}",
    "secret_ref=projects/{project}/secrets/{secret_name}/versions/{n}",
    "secret: projects/{project}/secrets/{secret_name}/versions/latest",
    "loaded secret {secret_name} version {n} sha={sha}",
    "keyId=abc-{n} alg=RS256 kid={kid}",
    "signing key rotated: keyId=key-{n} previous=key-{n}",
    "api_key=env:{env}",
    "api_key: ${{env}}",
    "token=$GITHUB_TOKEN (unset)",
    "password: %(password)s",
    "password: {{ .Values.db.password }}",
    "secret: {path}",
    "token: https://oauth2.googleapis.com/token",
    "token: /oauth/token (POST)",
    "token: {n} ms",
    "token: 1717{n}",
    "secret: v{version} (rotated {iso})",
    "token: {iso}",
    "api_key: none configured, using anonymous access",
    "password: hidden (length {n})",
    "token: com.apple.{subsystem}/{n}: {n}: Request for stale data",
    "secret: com.example.{service}.SecretStore@{short_sha}",
    'token = "unknown_{n}_%d" % byteord(data[0])',
    "api_key = settings.{env}",
    "token = self._token_cache.get(key)",
    "deploy token rotated by ci sha={sha}",
    "secret scan: 0 findings commit={short_sha} token_count=0",
    "session token expired {duration} ago; re-authenticating",
    'password authentication failed for user "{user}"',
    "Could not find secret {secret_name} in {path}",
    "passphrase: not required for key {path}",
    'token: Some("***"), api_key: None',
    "PWD=/home/{user}/src/{service}",
)


@dataclass(frozen=True)
class BenignFormat:
    """One log format: its name, the suffix its files have, and how it writes one record."""

    name: str
    suffix: str
    record: Callable[[_Fields, str], str]


def _message(f: _Fields) -> str:
    """A credential-word message half the time, else an ordinary one."""
    if f.rng.random() < 0.5:
        return f.fill(f.rng.choice(CREDENTIAL_WORD_MESSAGES))
    return f.fill(
        f.pick(
            "request {uuid} served in {duration}",
            "connection from {ip} port {port} closed",
            "cache hit ratio 0.{n} over {n} keys",
            "worker {n} started, version {version}",
            "GET /api/v1/orders/{n} completed status=200 bytes={n}",
            "deployed commit {sha} to {service}",
        )
    )


def _bsd_syslog(f: _Fields, message: str) -> str:
    when = f.tick().strftime("%b %e %H:%M:%S")
    return f"{when} {f.host()} {f.service()}[{f.number(100, 65000)}]: {message}"


def _rfc5424(f: _Fields, message: str) -> str:
    f.tick()
    return (
        f"<{f.number(0, 191)}>1 {f.iso()} {f.host()} {f.service()} {f.number(100, 65000)} "
        f'ID{f.number(1, 99)} [meta sequenceId="{f.number(1, 9999)}"] {message}'
    )


def _macos(f: _Fields, message: str) -> str:
    when = f.tick().strftime("%Y-%m-%d %H:%M:%S.%f")
    process = f.pick("runningboardd", "com.apple.xpc.launchd", "trustd", "akd", "CalendarAgent")
    stale = f.fill(
        "Could not get event name for stream/token: com.apple.{subsystem}/{n}: {n}: "
        "Request for stale data"
    )
    text = f.pick(message, stale, stale)
    return f"{when}-0700  0x{f.hex(5)}  Default  0x0  {f.number(100, 999)}  0  {process}: {text}"


def _journald_export(f: _Fields, message: str) -> str:
    f.tick()
    micros = int(f.now.timestamp() * 1_000_000)
    unit = f.pick("gnome-keyring-daemon.service", "sshd.service", "vault.service")
    return "\n".join(
        (
            f"__CURSOR=s={f.hex(32)};i={f.hex(4)};b={f.hex(32)};m={f.hex(8)};t={f.hex(13)};"
            f"x={f.hex(16)}",
            f"__REALTIME_TIMESTAMP={micros}",
            f"__MONOTONIC_TIMESTAMP={f.number(10**6, 10**10)}",
            f"_BOOT_ID={f.hex(32)}",
            f"_MACHINE_ID={f.hex(32)}",
            f"_HOSTNAME={f.host()}",
            f"PRIORITY={f.number(2, 7)}",
            "_TRANSPORT=journal",
            f"_SYSTEMD_UNIT={unit}",
            "_CMDLINE=/usr/bin/gnome-keyring-daemon --start --components=secrets,ssh,pkcs11",
            f"INVOCATION_ID={f.hex(32)}",
            f"CODE_FILE=src/{f.pick('token', 'secret', 'keyring')}.c",
            f"CODE_LINE={f.number(1, 900)}",
            f"MESSAGE={message}",
            "",
        )
    )


def _nginx_access(f: _Fields, message: str) -> str:
    when = f.tick().strftime("%d/%b/%Y:%H:%M:%S +0000")
    path = f.fill(
        f.pick(
            "/oauth/token",
            "/api/v1/secrets/{secret_name}/versions/{n}",
            "/api/v1/users?page={n}&token_type=refresh",
            "/static/js/token-refresh.{short_sha}.js",
            "/reset-password?sent=1",
            "/api/v2/keys/{kid}",
        )
    )
    method = f.pick("GET", "POST", "PUT")
    return (
        f'{f.ip()} - - [{when}] "{method} {path} HTTP/1.1" {f.pick("200", "401", "404")} '
        f'{f.number(0, 99999)} "-" "python-requests/2.31.0" rt={f.number(1, 999) / 1000}'
    )


def _nginx_error(f: _Fields, message: str) -> str:
    when = f.tick().strftime("%Y/%m/%d %H:%M:%S")
    return (
        f"{when} [{f.pick('error', 'warn')}] {f.number(100, 9999)}#0: *{f.number(1, 99999)} "
        f"upstream timed out (110: Connection timed out) while reading response header from "
        f'upstream, client: {f.ip()}, server: auth.example.com, request: "POST /oauth/token '
        f'HTTP/1.1", upstream: "http://{f.ip()}:8080/oauth/token", host: "auth.example.com"'
    )


def _apache_error(f: _Fields, message: str) -> str:
    when = f.tick().strftime("%a %b %d %H:%M:%S.%f %Y")
    text = f.fill(
        f.pick(
            'AH01617: user {user}: authentication failure for "/admin": Password Mismatch',
            "AH01618: user {user} not found: /private",
            "AH01909: auth.example.com:443:0 server certificate does NOT include an ID",
            "AH02572: Failed to configure at least one certificate and key for auth:443",
        )
    )
    return (
        f"[{when}] [{f.pick('auth_basic:error', 'ssl:warn')}] [pid {f.number(100, 9999)}] "
        f"[client {f.ip()}:{f.number(1024, 65535)}] {text}"
    )


def _logfmt(f: _Fields, message: str) -> str:
    f.tick()
    escaped = message.replace("\\", "\\\\").replace('"', '\\"')
    return (
        f"time={f.iso()} level={f.pick('info', 'debug', 'warn')} "
        f"component={f.pick('token-refresher', 'secret-store', 'kubelet')} "
        f'msg="{escaped}" request_id={f.uuid()} duration={f.duration()}'
    )


def _json_line(f: _Fields, message: str) -> str:
    f.tick()
    record: dict[str, object] = {
        "level": f.pick("info", "debug", "error"),
        "ts": round(f.now.timestamp(), 3),
        "logger": f.pick("controller.secret", "oauth2.client", "apiserver"),
        "msg": message,
        "namespace": "default",
        "name": f.pick("app-db-credentials", "app-tls", "default-token-x7k2p"),
        "reconcileID": f.uuid(),
    }
    extra = f.rng.randrange(6)
    if extra == 0:
        record.update(token="[REDACTED]", token_type="Bearer", expires_in=3599)
    elif extra == 1:
        record.update(secret=f"default/{f.secret_name()}", resourceVersion=str(f.number(1, 10**7)))
    elif extra == 2:
        record.update(apiKey=f"env:{f.env()}", keyId=f"abc-{f.number(1, 9)}")
    elif extra == 3:
        record.update(password="", passwordSet=True, commit=f.hex(40))
    return json.dumps(record, separators=(",", ":"))


def _java(f: _Fields, message: str) -> str:
    when = f.tick().strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]
    head = (
        f"{when} ERROR [http-nio-8080-exec-{f.number(1, 20)}] "
        f"o.s.s.o.p.token.DefaultTokenServices - {message}"
    )
    if f.rng.random() < 0.6:
        return head
    trace = (
        "org.springframework.security.oauth2.common.exceptions.InvalidTokenException: "
        "Invalid refresh token (expired)",
        "\tat org.springframework.security.oauth2.provider.token.DefaultTokenServices"
        f".refreshAccessToken(DefaultTokenServices.java:{f.number(100, 300)})",
        "\tat com.example.auth.TokenController.refresh(TokenController.java:88)",
        "\tat com.example.auth.SecretKeyProvider.load(SecretKeyProvider.java:42)",
        "\tat java.base/java.lang.Thread.run(Thread.java:840)",
        "Caused by: java.lang.IllegalStateException: token: null",
        "\t... 42 common frames omitted",
    )
    return "\n".join((head, *trace))


def _python(f: _Fields, message: str) -> str:
    when = f.tick().strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]
    logger = f.pick(
        "oauthlib.oauth2.rfc6749.clients.base",
        "urllib3.connectionpool",
        "botocore.credentials",
        "google.auth.transport.requests",
    )
    head = f"{when} {f.pick('INFO', 'DEBUG', 'WARNING')} {logger} {message}"
    if f.rng.random() < 0.7:
        return head
    trace = (
        "Traceback (most recent call last):",
        f'  File "/srv/app/.venv/lib/python3.11/site-packages/requests/auth.py", line '
        f"{f.number(50, 300)}, in __call__",
        "    token = self._get_token(scope)",
        '  File "/srv/app/auth/tokens.py", line 57, in _get_token',
        '    password = os.environ["DB_PASSWORD"]',
        '  File "<frozen os>", line 679, in __getitem__',
        "KeyError: 'DB_PASSWORD'",
    )
    return "\n".join((head, *trace))


def _go_panic(f: _Fields, message: str) -> str:
    if f.rng.random() < 0.6:
        return f"{f.tick().strftime('%Y/%m/%d %H:%M:%S')} oauth2: {message}"
    return "\n".join(
        (
            "panic: runtime error: invalid memory address or nil pointer dereference",
            f"[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x{f.hex(6)}]",
            "",
            f"goroutine {f.number(1, 999)} [running]:",
            f"main.(*TokenSource).Token(0xc000{f.hex(6)})",
            f"\t/home/build/go/src/app/auth/token.go:{f.number(10, 200)} +0x{f.hex(2)}",
            f"golang.org/x/oauth2.(*reuseTokenSource).Token(0xc000{f.hex(6)})",
            f"\t/root/go/pkg/mod/golang.org/x/oauth2@v0.{f.number(10, 30)}.0/oauth2.go:304 +0x7a",
            "exit status 2",
        )
    )


def _cargo(f: _Fields, message: str) -> str:
    if f.rng.random() < 0.3:
        return f"[{f.iso()} INFO  auth_client] {message}"  # what `cargo run` prints
    return f.fill(
        f.pick(
            "   Compiling secrecy v0.8.0",
            "   Compiling jsonwebtoken v{version}",
            "warning: unused variable: `api_key`",
            "  --> src/client.rs:{n}:9",
            "error[E0425]: cannot find value `token` in this scope",
            "thread 'main' panicked at src/main.rs:{n}:5:",
            "    Finished `release` profile [optimized] target(s) in {duration}",
            'Config { api_key: None, token: Some("***"), endpoint: "https://api.example.com" }',
            "     Running `target/debug/deps/auth_tests-{kid}`",
        )
    )


def _npm(f: _Fields, message: str) -> str:
    if f.rng.random() < 0.3:
        return f"npm verb {message}"
    return f.fill(
        f.pick(
            "npm WARN config //registry.npmjs.org/:_authToken Use of the authToken is deprecated",
            "npm ERR! code E401",
            "npm ERR! Unable to authenticate, your authentication token seems to be invalid.",
            "npm http fetch GET 200 https://registry.npmjs.org/lodash {n}ms (cache hit)",
            "npm notice package: @acme/secret-store@{version}",
            "npm notice shasum: {sha}",
            "npm notice integrity: sha512-{kid}[...]{kid}==",
            "added {n} packages, and audited {n} packages in {duration}",
        )
    )


def _pip(f: _Fields, message: str) -> str:
    return f.fill(
        f.pick(
            "Looking in indexes: https://pypi.org/simple, https://__token__:****@pypi.example.com/simple",
            "Collecting keyring>=23.0",
            "Requirement already satisfied: secretstorage>=3.2 in ./venv/lib/python3.11/"
            "site-packages (from keyring) (3.3.3)",
            "Downloading cryptography-42.0.5-cp39-abi3-manylinux_2_28_x86_64.whl (4.6 MB)",
            "Successfully installed api-key-client-{version} tokenizers-0.19.1",
        )
    )


def _pytest(f: _Fields, message: str) -> str:
    if f.rng.random() < 0.3:
        return f"INFO     auth.tokens:tokens.py:{f.number(10, 300)} {message}"  # captured log
    return f.fill(
        f.pick(
            "tests/test_tokens.py::test_refresh_token_expires PASSED                  [ {n}%]",
            "tests/test_auth.py::test_login[api_key=None] PASSED",
            "FAILED tests/test_auth.py::test_password_reset - AssertionError: assert 401 == 200",
            "E       KeyError: 'api_key'",
            "E       assert token == expected",
            "tests/test_secrets.py::test_secret_ref[projects/x/secrets/y/versions/3] PASSED",
            "========= {n} passed, 2 skipped in {duration} =========",
        )
    )


def _github_actions(f: _Fields, message: str) -> str:
    f.tick()
    stamp = f.iso()
    if f.rng.random() < 0.3:
        return f"{stamp} {message}"
    line = f.fill(
        f.pick(
            "##[group]Run actions/checkout@v4",
            "  token: ***",
            "  ssh-strict: true",
            "  persist-credentials: true",
            "  NODE_AUTH_TOKEN: XXXXX-XXXXX-XXXXX-XXXXX-XXXXX",
            "  API_KEY: ***",
            "HEAD is now at {short_sha} Merge pull request #{n} from acme/token-refresh",
            '[command]/usr/bin/git -c http.extraheader="AUTHORIZATION: basic ***" fetch',
            "Secret source: Actions",
            "GITHUB_SHA={sha}",
        )
    )
    return f"{stamp} {line}"


def _windows_event(f: _Fields, message: str) -> str:
    when = f.tick().strftime("%m/%d/%Y %I:%M:%S %p")
    return "\n".join(
        (
            "Log Name:      Security",
            f"Date:          {when}",
            f"Event ID:      {f.pick('4624', '4648', '4688')}",
            "Task Category: Logon",
            "An account was successfully logged on.",
            f"\tSecurity ID:\t\tS-1-5-21-{f.number(10**9, 4 * 10**9)}-{f.number(10**9, 4 * 10**9)}"
            f"-{f.number(10**7, 10**8)}-{f.number(1000, 1200)}",
            f"\tLogon ID:\t\t0x{f.hex(6).upper()}",
            "\tElevated Token:\t\t%%1842",
            "\tToken Elevation Type:\t%%1936",
            "\tKey Length:\t\t0",
            "\tProcess Name:\t\tC:\\Windows\\System32\\lsass.exe",
            f"\tLogon GUID:\t\t{{{f.uuid()}}}",
            "",
        )
    )


def _postgres(f: _Fields, message: str) -> str:
    when = f.tick().strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]
    text = f.fill(
        f.pick(
            'FATAL:  password authentication failed for user "{user}"',
            'DETAIL:  Connection matched pg_hba.conf line 95: "host all all 0.0.0.0/0 '
            'scram-sha-256"',
            "LOG:  connection authorized: user={user} database=orders SSL enabled "
            "(protocol=TLSv1.3, cipher=TLS_AES_256_GCM_SHA384, bits=256)",
            "LOG:  statement: SELECT id FROM api_keys WHERE key_hash = $1 AND revoked = false",
            "LOG:  duration: {n}.{n} ms  execute <unnamed>: UPDATE sessions SET token = $1",
            'ERROR:  column "password" does not exist at character {n}',
        )
    )
    return f"{when} UTC [{f.number(100, 65000)}] {text}"


def _mysql(f: _Fields, message: str) -> str:
    f.tick()
    text = f.fill(
        f.pick(
            "[Note] [MY-010926] [Server] Access denied for user '{user}'@'{ip}' "
            "(using password: YES)",
            "[Note] [MY-010926] [Server] Access denied for user 'root'@'localhost' "
            "(using password: NO)",
            "[Warning] [MY-010068] [Server] CA certificate ca.pem is self signed.",
            "[System] [MY-010931] [Server] /usr/sbin/mysqld: ready for connections. "
            "Version: '8.0.{n}'  socket: '/var/run/mysqld/mysqld.sock'  port: 3306",
        )
    )
    return f"{f.iso()} {f.number(0, 99)} {text}"


def _auth_log(f: _Fields, message: str) -> str:
    when = f.tick().strftime("%b %e %H:%M:%S")
    if f.rng.random() < 0.3:
        return f"{when} {f.host()} {f.service()}[{f.number(100, 65000)}]: {message}"
    text = f.fill(
        f.pick(
            "sshd[{pid}]: Accepted publickey for {user} from {ip} port {port} ssh2: "
            f"ED25519 SHA256:{f.b64(43)}",
            "sshd[{pid}]: pam_unix(sshd:session): session opened for user {user}(uid=1001) "
            "by (uid=0)",
            "sshd[{pid}]: Failed password for invalid user admin from {ip} port {port} ssh2",
            "sudo: {user} : TTY=pts/0 ; PWD=/home/{user} ; USER=root ; "
            "COMMAND=/usr/bin/systemctl restart {service}",
            "gkr-pam: unlocked login keyring",
            "polkitd[{pid}]: Registered Authentication Agent for unix-session:3",
        )
    )
    return f"{when} {f.host()} {text}"


def _oauth_client(f: _Fields, message: str) -> str:
    f.tick()
    return f"{f.iso()} {f.pick('DEBUG', 'INFO')} [{f.service()}] {message}"


FORMATS: tuple[BenignFormat, ...] = (
    BenignFormat("syslog-bsd", ".log", _bsd_syslog),
    BenignFormat("syslog-rfc5424", ".log", _rfc5424),
    BenignFormat("macos-unified", ".log", _macos),
    BenignFormat("journald-export", ".txt", _journald_export),
    BenignFormat("nginx-access", ".log", _nginx_access),
    BenignFormat("nginx-error", ".log", _nginx_error),
    BenignFormat("apache-error", ".log", _apache_error),
    BenignFormat("logfmt", ".log", _logfmt),
    BenignFormat("json-lines", ".jsonl", _json_line),
    BenignFormat("java", ".log", _java),
    BenignFormat("python", ".log", _python),
    BenignFormat("go-panic", ".log", _go_panic),
    BenignFormat("cargo", ".txt", _cargo),
    BenignFormat("npm", ".txt", _npm),
    BenignFormat("pip", ".txt", _pip),
    BenignFormat("pytest", ".txt", _pytest),
    BenignFormat("github-actions", ".txt", _github_actions),
    BenignFormat("windows-event", ".txt", _windows_event),
    BenignFormat("postgresql", ".log", _postgres),
    BenignFormat("mysql", ".log", _mysql),
    BenignFormat("auth-log", ".log", _auth_log),
    BenignFormat("oauth-client", ".log", _oauth_client),
)


def generate(fmt: BenignFormat, records: int = RECORDS, seed: int = SEED) -> str:
    """`records` records of `fmt`, one or more lines each, ending with a newline."""
    fields = _Fields(Random(f"{seed}:{fmt.name}"))
    return "".join(fmt.record(fields, _message(fields)) + "\n" for _ in range(records))


def generate_all(records: int = RECORDS, seed: int = SEED) -> dict[str, str]:
    """Every format's log, by format name."""
    return {fmt.name: generate(fmt, records, seed) for fmt in FORMATS}
