"""A second scanner over Yelp's detect-secrets (optional: the `secrets` extra).

It runs detect-secrets' default plugins and filters line by line, as `detect-secrets scan` does
for a file (not the noisier "eager" search of its ad-hoc `scan_line`), over a stream: the input is
decoded incrementally (invalid UTF-8 becomes U+FFFD), the unfinished last line is carried over to
the next `feed()`, and a line longer than `MAX_LINE_CHARS` is scanned in overlapping windows so
time and memory stay bounded (its plugins' regexes are not all linear in a line's length).

detect-secrets keeps its configuration in a process-wide singleton. The plugins and filters are
built once, under a lock, inside its `default_settings()` (which restores the previous settings
on exit); scanning then uses those objects only. Its plugins verify a secret over the network only
when the verification filter is configured; every scan removes that filter from the global
settings first, so this adapter never contacts a service.

Inline allowances are honoured only by a scan started with `honour_allow_markers=True`: then a
line holding `cleveragents:allow-secret` anywhere (detect-secrets says only which line a secret is
on) or detect-secrets' own `pragma: allowlist secret` comment reports nothing. Every other scan
drops detect-secrets' allowlist filter, since a tool can print that comment as easily as ours.

Its secret types map to our kinds where the meaning is the same; the rest are `SecretKind.OTHER`.
Findings hold no part of the secret: the matched value is read only to tell an AWS key id from a
secret key and a Slack token from a webhook, and is dropped.
"""

from __future__ import annotations

import codecs
import threading
from collections.abc import Callable
from typing import Any

from cleveragents.application.ports.secret_scanner import (
    ALLOW_MARKER,
    SecretMatch,
    SecretScan,
    SecretScanner,
    findings_of,
    fingerprint,
)
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.secrets import SecretFinding, SecretKind

MAX_LINE_CHARS = 16 * 1024
# Longer than any match of detect-secrets' plugins that we map to a kind.
WINDOW_OVERLAP_CHARS = 1024
# Only the line is scanned; the name is what file-type-dependent plugins and filters see.
_VIRTUAL_FILENAME = "tool-output.txt"
_VERIFICATION_FILTER = "detect_secrets.filters.common.is_ignored_due_to_verification_policies"
# `pragma: allowlist secret` on the line (or `allowlist nextline` before it): an inline marker.
_ALLOWLIST_FILTER = "detect_secrets.filters.allowlist.is_line_allowlisted"
_SETTINGS_LOCK = threading.Lock()

_KIND_BY_TYPE = {
    "AWS Access Key": SecretKind.AWS_ACCESS_KEY_ID,
    "GitHub Token": SecretKind.GITHUB_TOKEN,
    "OpenAI Token": SecretKind.OPENAI_API_KEY,
    "Private Key": SecretKind.PRIVATE_KEY,
    "JSON Web Token": SecretKind.JWT,
    "Slack Token": SecretKind.SLACK_TOKEN,
    "Stripe Access Key": SecretKind.STRIPE_KEY,
    "Basic Auth Credentials": SecretKind.PASSWORD_IN_URL,
    "Secret Keyword": SecretKind.GENERIC_SECRET,
}


class DetectSecretsUnavailableError(InvalidInputError):
    """detect-secrets is not installed."""

    def __init__(self) -> None:
        super().__init__(
            "the detect-secrets scanner needs the detect-secrets package: "
            "pip install -e '.[secrets]' in a checkout, or "
            "'dist/cleveragents-VERSION-py3-none-any.whl[secrets]'"
        )


def _kind_of(secret_type: str, value: str | None) -> SecretKind:
    kind = _KIND_BY_TYPE.get(secret_type, SecretKind.OTHER)
    # detect-secrets reports both AWS key ids and secret keys as "AWS Access Key", and Slack
    # tokens and webhooks as "Slack Token".
    if kind is SecretKind.AWS_ACCESS_KEY_ID and value is not None and len(value) == 40:
        return SecretKind.AWS_SECRET_ACCESS_KEY
    if kind is SecretKind.SLACK_TOKEN and value is not None and "hooks.slack.com" in value.lower():
        return SecretKind.SLACK_WEBHOOK
    return kind


class _Engine:
    """detect-secrets' default plugins and per-line filters, built once."""

    def __init__(self) -> None:
        try:
            import detect_secrets  # noqa: F401
        except ModuleNotFoundError as error:
            raise DetectSecretsUnavailableError() from error
        from detect_secrets.settings import (
            default_settings,
            get_filters,
            get_plugins,
            get_settings,
        )
        from detect_secrets.util.code_snippet import get_code_snippet
        from detect_secrets.util.inject import call_function_with_arguments

        self._get_settings = get_settings
        self._get_code_snippet = get_code_snippet
        self._call: Callable[..., Any] = call_function_with_arguments
        with _SETTINGS_LOCK, default_settings():
            self._plugins = list(get_plugins())
            # Filters on the file name alone (`is_invalid_file` checks that it exists) make no
            # sense for a stream; the verification filter would contact services.
            filters = [
                function
                for function in get_filters()
                if function.injectable_variables - {"filename"}
                and function.path != _VERIFICATION_FILTER
            ]
        line_filters = [
            f
            for f in filters
            if "secret" not in f.injectable_variables and "line" in f.injectable_variables
        ]
        self._line_filters = [f for f in line_filters if f.path != _ALLOWLIST_FILTER]
        self._allowlist_filters = [f for f in line_filters if f.path == _ALLOWLIST_FILTER]
        self._secret_filters = [f for f in filters if "secret" in f.injectable_variables]

    def scan_lines(
        self, lines: list[tuple[int, str]], honour_allow_markers: bool
    ) -> set[SecretMatch]:
        found: set[SecretMatch] = set()
        with _SETTINGS_LOCK:
            settings = self._get_settings()
            if _VERIFICATION_FILTER in settings.filters:
                settings.disable_filters(_VERIFICATION_FILTER)
            for number, line in lines:
                found.update(self._scan_line(number, line.rstrip(), honour_allow_markers))
        return found

    def _scan_line(self, number: int, line: str, honour_allow_markers: bool) -> set[SecretMatch]:
        if honour_allow_markers and ALLOW_MARKER in line:
            return set()
        context = self._get_code_snippet(lines=[line], line_number=1)
        arguments: dict[str, Any] = {
            "filename": _VIRTUAL_FILENAME,
            "line": line,
            "context": context,
        }
        if any(self._passes(f, arguments) for f in self._line_filters):
            return set()
        if honour_allow_markers and any(
            self._passes(f, arguments) for f in self._allowlist_filters
        ):
            return set()
        found: set[SecretMatch] = set()
        for plugin in self._plugins:
            secrets = self._call(
                plugin.analyze_line,
                filename=_VIRTUAL_FILENAME,
                line=line,
                line_number=number,
                context=context,
            )
            for secret in secrets or ():
                with_secret = {**arguments, "secret": secret.secret_value, "plugin": plugin}
                if any(self._passes(f, with_secret) for f in self._secret_filters):
                    continue
                kind = _kind_of(secret.type, secret.secret_value)
                value = (secret.secret_value or "").encode("utf-8", "surrogatepass")
                # No span: detect-secrets says which line, so a redaction replaces the line.
                found.add(SecretMatch(number, kind, kind.value, fingerprint(kind.value, value)))
        return found

    def _passes(self, function: Any, arguments: dict[str, Any]) -> bool:
        """Whether a filter drops the candidate (a filter missing an argument keeps it)."""
        try:
            return bool(self._call(function, **arguments))
        except TypeError:
            return False


class DetectSecretsScanner(SecretScanner):
    """detect-secrets' default plugins and filters behind our port; raises
    `DetectSecretsUnavailableError` when the package is not installed."""

    def __init__(self) -> None:
        self._engine = _Engine()

    @property
    def name(self) -> str:
        return "detect-secrets"

    def start(self, *, honour_allow_markers: bool = False) -> SecretScan:
        return _DetectSecretsScan(self._engine, honour_allow_markers)


class _DetectSecretsScan(SecretScan):
    def __init__(self, engine: _Engine, honour_allow_markers: bool) -> None:
        self._engine = engine
        self._honour_markers = honour_allow_markers
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._carry = ""  # the unfinished last line, or the unscanned tail of a long one
        self._line = 1
        self._found: set[SecretMatch] = set()

    def feed(self, data: bytes) -> None:
        self._take(self._decoder.decode(data))

    def finish(self) -> list[SecretFinding]:
        return findings_of(self.finish_matches())

    def finish_matches(self) -> list[SecretMatch]:
        self._take(self._decoder.decode(b"", final=True))
        if self._carry:
            self._found |= self._engine.scan_lines(
                [(self._line, self._carry)], self._honour_markers
            )
            self._carry = ""
        return sorted(self._found)

    def _take(self, text: str) -> None:
        if not text:
            return
        *complete, rest = (self._carry + text).split("\n")
        lines: list[tuple[int, str]] = []
        for line in complete:
            lines.extend((self._line, window) for window in _windows(line))
            self._line += 1
        if len(rest) > MAX_LINE_CHARS:
            # Scan what we have of a long line; keep an overlap so a match across the cut is found.
            lines.extend((self._line, window) for window in _windows(rest))
            rest = rest[-WINDOW_OVERLAP_CHARS:]
        self._carry = rest
        if lines:
            self._found |= self._engine.scan_lines(lines, self._honour_markers)


def _windows(line: str) -> list[str]:
    """A line cut into pieces of at most `MAX_LINE_CHARS` that overlap by `WINDOW_OVERLAP_CHARS`."""
    if len(line) <= MAX_LINE_CHARS:
        return [line]
    step = MAX_LINE_CHARS - WINDOW_OVERLAP_CHARS
    return [line[i : i + MAX_LINE_CHARS] for i in range(0, len(line) - WINDOW_OVERLAP_CHARS, step)]
