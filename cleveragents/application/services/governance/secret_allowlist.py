"""The project's secret allowlist: findings that are meant to be there.

A TOML file, by default `.cleveragents/secrets-allow.toml` in the workspace (another file can be
named on the import). It allows findings by fingerprint (one credential, wherever it shows up:
`agents artifact import` prints the fingerprints of what it blocked), or by rule (kinds, paths
or both):

    fingerprints = ["npm-token:3f9a1c2b4d5e6f70"]

    [[rules]]
    reason = "the fixtures hold fake keys"
    kinds = ["jwt", "private-key"]   # a rule (npm-token) or a kind (generic-secret)
    paths = ["tests/fixtures/*"]     # shell patterns on the workspace-relative path

A rule needs at least one of `kinds` and `paths` (an empty rule would allow everything), and
every key is checked: a misspelt one is an error, not a silently ignored line.
"""

from __future__ import annotations

import fnmatch
import re
import tomllib
from dataclasses import dataclass

from cleveragents.application.ports.secret_scanner import FINGERPRINT_HEX, SecretMatch
from cleveragents.domain.errors import InvalidInputError

DEFAULT_ALLOWLIST_PATH = ".cleveragents/secrets-allow.toml"
MAX_ALLOWLIST_BYTES = 1 << 20
_FINGERPRINT = re.compile(rf"[a-z0-9-]{{1,64}}:[0-9a-f]{{{FINGERPRINT_HEX}}}")
_TOP_KEYS = frozenset({"fingerprints", "rules"})
_RULE_KEYS = frozenset({"kinds", "paths", "reason"})


class AllowlistError(InvalidInputError):
    """An allowlist file that cannot be read as one."""


@dataclass(frozen=True, slots=True)
class AllowRule:
    kinds: frozenset[str]
    paths: tuple[str, ...]
    reason: str = ""

    def allows(self, match: SecretMatch, path: str) -> bool:
        if self.kinds and match.rule not in self.kinds and match.kind.value not in self.kinds:
            return False
        return not self.paths or any(fnmatch.fnmatchcase(path, p) for p in self.paths)


@dataclass(frozen=True, slots=True)
class SecretAllowlist:
    fingerprints: frozenset[str] = frozenset()
    rules: tuple[AllowRule, ...] = ()

    def allows(self, match: SecretMatch, path: str) -> bool:
        return match.fingerprint in self.fingerprints or any(
            rule.allows(match, path) for rule in self.rules
        )

    def keep(self, matches: list[SecretMatch], path: str) -> list[SecretMatch]:
        """The matches this allowlist does not allow."""
        return [match for match in matches if not self.allows(match, path)]


EMPTY_ALLOWLIST = SecretAllowlist()


def parse_allowlist(data: bytes, source: str) -> SecretAllowlist:
    """The allowlist in `data`; `source` names the file in errors."""
    if len(data) > MAX_ALLOWLIST_BYTES:
        raise AllowlistError(f"{source}: an allowlist is at most {MAX_ALLOWLIST_BYTES} bytes")
    try:
        document = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise AllowlistError(f"{source}: not a TOML allowlist ({error})") from None
    _only(document, _TOP_KEYS, source)
    fingerprints = _strings(document.get("fingerprints", []), f"{source}: fingerprints")
    for value in fingerprints:
        if not _FINGERPRINT.fullmatch(value):
            raise AllowlistError(
                f"{source}: {value!r} is not a fingerprint (RULE:{FINGERPRINT_HEX} hex digits, "
                "as `agents artifact import` prints them)"
            )
    raw_rules = document.get("rules", [])
    if not isinstance(raw_rules, list):
        raise AllowlistError(f"{source}: rules must be an array of tables ([[rules]])")
    rules = tuple(_rule(raw, f"{source}: rules[{i}]") for i, raw in enumerate(raw_rules))
    return SecretAllowlist(frozenset(fingerprints), rules)


def _rule(raw: object, where: str) -> AllowRule:
    if not isinstance(raw, dict):
        raise AllowlistError(f"{where} must be a table")
    _only(raw, _RULE_KEYS, where)
    kinds = _strings(raw.get("kinds", []), f"{where}.kinds")
    paths = _strings(raw.get("paths", []), f"{where}.paths")
    reason = raw.get("reason", "")
    if not isinstance(reason, str):
        raise AllowlistError(f"{where}.reason must be a string")
    if not kinds and not paths:
        raise AllowlistError(f"{where} needs kinds or paths: an empty rule would allow everything")
    return AllowRule(frozenset(kinds), tuple(paths), reason)


def _only(table: dict[str, object], keys: frozenset[str], where: str) -> None:
    unknown = sorted(set(table) - keys)
    if unknown:
        raise AllowlistError(
            f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(keys))})"
        )


def _strings(value: object, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise AllowlistError(f"{where} must be an array of strings")
    return list(value)
