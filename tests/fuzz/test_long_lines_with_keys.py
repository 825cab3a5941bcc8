"""Long lines holding credentials, through every command that prints or stores text: one
minified 300 KB line with keys at generated places (one key, many keys, a key cut by the
scanner's window edge, a key longer than a pattern takes), compressed in every mode and kind
and imported, each in its own capped process (`tests/fuzz/test_hostile_inputs.py`'s runner).

The process ends cleanly (exit 0, or 2 with one line), and no key reaches stdout or stderr: a
redaction that rescanned the line once per word used to take minutes here, and one that cut a
value at the first `=` or `:` printed the rest of it.
"""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

import pytest

from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from tests.fuzz.test_hostile_inputs import agents, assert_clean
from tests.secret_recall_set import credentials

pytestmark = pytest.mark.slow  # every case spawns the CLI

LINE_BYTES = 300_000
_ALPHABET = string.ascii_letters + string.digits


def _standalone_secrets() -> list[str]:
    """Credentials recognised by their format alone (no name needed), one line each, that
    JSON writes as they are (no escapes)."""
    scanner = PatternSecretScanner()
    return [
        c.secret
        for c in credentials()
        if "\n" not in c.secret
        and json.dumps(c.secret)[1:-1] == c.secret
        and scanner.match_bytes(c.secret.encode())
    ]


def _long_line(seed: int, keys: list[str], long_value: str | None) -> str:
    """A minified JSON array of records about `LINE_BYTES` long, with `keys` planted at
    generated records (as `"key": ...` values) and `long_value` under `"token"`."""
    rng = random.Random(seed)
    records: list[dict[str, object]] = []
    size = 0
    while size < LINE_BYTES:
        record: dict[str, object] = {
            "id": len(records),
            "name": "".join(rng.choice(_ALPHABET) for _ in range(12)),
            "note": "build step ok" if rng.random() < 0.9 else "retry=3 path=/var/tmp/x:1",
        }
        records.append(record)
        size += 60
    for key in keys:
        records[rng.randrange(len(records))]["key"] = key
    if long_value is not None:
        records[len(records) // 2]["token"] = long_value
    return json.dumps(records, separators=(",", ":"))


CASES = {
    "one key": (1, 1, None),
    "many keys": (2, 40, None),
    "a token longer than a pattern takes": (3, 0, 600),
}


@pytest.fixture(scope="module")
def secrets_pool() -> list[str]:
    pool = _standalone_secrets()
    assert len(pool) >= 20
    return pool


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("mode", ["smart", "tiered"])
def test_compress_of_a_long_line_ends_cleanly_and_prints_no_key(
    tmp_path: Path, secrets_pool: list[str], case: str, mode: str
) -> None:
    seed, count, long_length = CASES[case]
    rng = random.Random(seed)
    keys = [rng.choice(secrets_pool) for _ in range(count)]
    long_value = (
        None if long_length is None else "".join(rng.choice(_ALPHABET) for _ in range(long_length))
    )
    (tmp_path / "records.json").write_text(_long_line(seed, keys, long_value), encoding="utf-8")
    outcome = agents(
        tmp_path,
        "artifact",
        "compress",
        "records.json",
        "--budget",
        "2000",
        "--mode",
        mode,
        "--workdir",
        tmp_path,
    )
    assert_clean(outcome)
    assert outcome.exit_code == 0, outcome.stderr
    shown = outcome.stdout + outcome.stderr
    for key in [*keys, *([long_value] if long_value else [])]:
        assert key not in shown
        assert key[-12:] not in shown  # no tail of a value left behind


def test_import_of_a_long_line_with_a_key_is_blocked_in_one_line(
    tmp_path: Path, secrets_pool: list[str]
) -> None:
    (tmp_path / "records.json").write_text(_long_line(4, [secrets_pool[0]], None), encoding="utf-8")
    outcome = agents(tmp_path, "artifact", "import", "records.json", "--workspace", tmp_path)
    assert_clean(outcome)
    assert outcome.exit_code == 2
    assert "blocked" in outcome.stderr
    assert secrets_pool[0] not in outcome.stdout + outcome.stderr
