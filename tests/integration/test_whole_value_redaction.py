"""A credential is redacted whole, in every field compress prints, from a bounded number of scans.

The values are generated at run time (seeded); each case is one a word-by-word redaction got
wrong: a value holding ``=`` (the part before it was taken for a variable's name), ``:``,
``/``, ``+``, a quote or base64 padding, one longer than a pattern takes, a private key longer
than the scanner's window, a wrapped base64 block, a URL password holding ``@``, a token in a
file name.
"""

from __future__ import annotations

import base64
import json
import random
import re
from pathlib import Path

import pytest

import cleveragents
from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.adapters.source.tree_sitter_skeletonizer import TreeSitterSkeletonizer
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.adapters.workspace.contained_files import FdContainedFiles
from cleveragents.application.ports.secret_scanner import SecretScan, SecretScanner
from cleveragents.application.services.artifact_compression.artifact_compressor import (
    ArtifactCompressorService,
)
from cleveragents.application.services.artifact_compression.redaction import redact_artifact
from cleveragents.application.services.artifact_store.results import SecretHandling
from cleveragents.container import build_container
from cleveragents.domain.artifact import CompressionMode
from cleveragents.domain.errors import NotFoundError
from tests.secret_recall_set import ALNUM, DIGITS, HEX_UPPER, UPPER, random_key

SCANNER = PatternSecretScanner()
PLACEHOLDER = r"\[REDACTED:[a-z0-9-]+\]"
"""Any kind's: which kind a value is taken for is the scanner's business, not redaction's."""
RNG = random.Random(20261206)
GITHUB = "ghp_" + random_key(RNG, ALNUM, 36)
AWS = "AKIA" + random_key(RNG, UPPER + DIGITS, 16)

# name -> (a document holding the value, the value)
VALUES = {
    "atlassian token with = inside": "ATATT3xFfGF0"
    + random_key(RNG, ALNUM + "-_", 171)
    + "="
    + random_key(RNG, HEX_UPPER, 8),
    "password after its own =": "pre=" + random_key(RNG, ALNUM + "#", 12),
    "colon": random_key(RNG, ALNUM, 9) + ":" + random_key(RNG, ALNUM, 9),
    "slash and plus": random_key(RNG, ALNUM + "/+", 28),
    "base64 padding": base64.b64encode(RNG.randbytes(16)).decode(),
}
LONG_VALUE = random_key(RNG, ALNUM, 400)


def _service(large_bytes: int | None = None) -> ArtifactCompressorService:
    return ArtifactCompressorService(
        FdContainedFiles(),
        TiktokenCounter("cl100k_base"),
        TreeSitterSkeletonizer(),
        SCANNER,
        large_artifact_bytes=large_bytes,
    )


SERVICE = _service()


def _printed(text: str) -> list[str]:
    """Every field compress prints for `text`, in both modes."""
    fields = []
    for mode in CompressionMode:
        result = SERVICE.compress_text("config.json", text, 2000, mode=mode)
        fields += [result.artifact_name, result.content]
    return fields


@pytest.mark.parametrize("name", sorted(VALUES))
def test_a_json_value_is_redacted_whole_and_the_document_still_parses(name: str) -> None:
    value = VALUES[name]
    text = json.dumps({"jira": {"api_token": value}, "db": {"password": value}})
    for field in _printed(text):
        assert value not in field
        assert value[-6:] not in field
    redacted = json.loads(redact_artifact(text, SCANNER))
    assert re.fullmatch(PLACEHOLDER, redacted["jira"]["api_token"])
    assert re.fullmatch(PLACEHOLDER, redacted["db"]["password"])


@pytest.mark.parametrize("name", sorted(VALUES))
@pytest.mark.parametrize(
    "template", ["PASSWORD={}", "  password: {}", "export API_KEY={} && make deploy"]
)
def test_an_assigned_value_is_redacted_whole_and_its_name_kept(name: str, template: str) -> None:
    value = VALUES[name]
    line = template.format(value)
    redacted = redact_artifact(line, SCANNER)
    assert re.fullmatch(re.escape(template).replace(r"\{\}", PLACEHOLDER), redacted)


def test_a_value_holding_a_quote_is_redacted_whole() -> None:
    value = random_key(RNG, ALNUM, 10) + "'" + random_key(RNG, ALNUM, 6)
    assert redact_artifact(f"password={value}", SCANNER) == "password=[REDACTED:generic-secret]"


def test_a_value_longer_than_a_pattern_takes_is_redacted_to_its_end() -> None:
    redacted = redact_artifact(f"api_key={LONG_VALUE} --verbose", SCANNER)
    assert redacted == "api_key=[REDACTED:generic-secret] --verbose"


def test_a_url_password_holding_an_at_sign_is_redacted_whole() -> None:
    password = random_key(RNG, ALNUM, 8) + "@" + random_key(RNG, ALNUM, 8)
    line = f"DATABASE_URL=postgres://orders:{password}@db.internal:5432/orders"
    redacted = redact_artifact(line, SCANNER)
    assert (
        redacted
        == "DATABASE_URL=postgres://orders:[REDACTED:password-in-url]@db.internal:5432/orders"
    )


def test_a_long_private_key_loses_its_whole_body_and_keeps_its_line_numbers() -> None:
    body = base64.b64encode(RNG.randbytes(6000)).decode()  # past the scanner's 4 KiB window
    rows = [body[i : i + 64] for i in range(0, len(body), 64)]
    kind = "RSA PRIVATE" + " KEY"
    lines = ["before", f"-----BEGIN {kind}-----", *rows, f"-----END {kind}-----", "after"]
    redacted = redact_artifact("\n".join(lines), SCANNER).split("\n")
    assert len(redacted) == len(lines)
    assert redacted[0] == "before"
    assert redacted[-1] == "after"
    assert redacted[1] == "[REDACTED:private-key]"
    assert set(redacted[2:-1]) == {""}


def test_a_wrapped_base64_block_goes_whole_line_numbers_kept() -> None:
    password = random_key(RNG, ALNUM, 40)
    secret_text = f"GITHUB_TOKEN={GITHUB}\nDB_PASSWORD={password}\nREGION=eu-west-1\n"
    wrapped = base64.b64encode(secret_text.encode()).decode()
    rows = [wrapped[i : i + 76] for i in range(0, len(wrapped), 76)]
    lines = ["$ kubectl get secret app -o jsonpath='{.data.env}' | fold -w 76", *rows, "done"]
    redacted = redact_artifact("\n".join(lines), SCANNER).split("\n")
    assert len(redacted) == len(lines)
    assert redacted[0] == lines[0]
    assert redacted[-1] == "done"
    assert redacted[1].startswith("[REDACTED:")
    assert set(redacted[2:-1]) == {""}


@pytest.mark.parametrize("prefix", ["build-", "build.", "logs "])
def test_a_token_in_a_file_name_is_redacted_in_every_field(tmp_path: Path, prefix: str) -> None:
    name = f"{prefix}{GITHUB}.log"
    if not SCANNER.match_bytes(name.encode()):
        pytest.skip(f"the scanner does not take a token after {prefix!r} for one")
    (tmp_path / name).write_text("step 1\nstep 2\n")
    shown = f"{prefix}[REDACTED:github-token].log"
    outcome = SERVICE.compress(name, 100, workdir=str(tmp_path))
    assert outcome.result.artifact_name == shown
    piped = SERVICE.compress_input(name, b"step 1\n", 100)  # the MCP tool's and stdin's path
    assert piped.result.artifact_name == shown
    api = cleveragents.compress("step 1\n", 100, name=name)
    assert api.name == shown
    assert api.artifact.artifact_name == shown


def test_a_token_in_a_missing_file_name_is_redacted_in_the_error(tmp_path: Path) -> None:
    outcome = SERVICE.compress(f"gone.{GITHUB}.log", 100, workdir=str(tmp_path))
    assert outcome.error is not None
    printed = outcome.error + outcome.result.content + outcome.result.artifact_name
    assert GITHUB[4:] not in printed
    assert "gone.[REDACTED:github-token].log" in outcome.error
    with pytest.raises(NotFoundError) as raised:
        cleveragents.compress(tmp_path / f"gone.{GITHUB}.log", 100)
    assert GITHUB[4:] not in str(raised.value)


def test_a_large_streamed_file_keeps_no_part_of_a_long_value(tmp_path: Path) -> None:
    lines = [f"config api_key={LONG_VALUE} region=eu\n"]
    lines += [f"2026-12-06 INFO worker {i} done\n" for i in range(3000)]
    (tmp_path / "big.log").write_text("".join(lines))
    service = _service(large_bytes=1024)
    for mode in CompressionMode:
        content = service.compress("big.log", 300, workdir=str(tmp_path), mode=mode).result.content
        assert LONG_VALUE[-12:] not in content
        assert "[REDACTED:generic-secret]" in content


class CountingScanner(SecretScanner):
    """The real scanner, counting the scans it starts."""

    def __init__(self) -> None:
        self.scans = 0

    @property
    def name(self) -> str:
        return SCANNER.name

    def start(self, *, honour_allow_markers: bool = False) -> SecretScan:
        self.scans += 1
        return SCANNER.start(honour_allow_markers=honour_allow_markers)


@pytest.mark.parametrize("keys", [1, 40])
def test_a_long_line_is_scanned_twice_whatever_its_words_and_credentials(keys: int) -> None:
    rng = random.Random(keys)
    records = [{"id": i, "name": f"item{i}", "tags": ["a", "b"]} for i in range(4000)]
    for index in range(keys):
        records[index * 97]["aws_access_key_id"] = "AKIA" + random_key(rng, UPPER + DIGITS, 16)
    line = json.dumps(records, separators=(",", ":"))
    scanner = CountingScanner()
    redacted = redact_artifact(line, scanner)
    assert scanner.scans == 2
    assert redacted.count("[REDACTED:aws-access-key-id]") == keys
    assert json.loads(redacted)[0]["id"] == 0


def test_an_import_that_redacts_stores_no_part_of_a_long_value(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    lines = [f"line {i}\n" for i in range(2000)]
    lines[1500] = f"api_key={LONG_VALUE} region=eu\n"
    (workspace / "run.log").write_text("".join(lines))
    container = build_container(f"sqlite:///{tmp_path}/store.db", home=tmp_path)
    try:
        store = container.artifact_store()
        imported = store.import_file(str(workspace), "run.log", secrets=SecretHandling.REDACT)
        assert not imported.blocked
        stored = store.read(imported.artifact.id, 0, imported.artifact.byte_count).decode()
    finally:
        container.store().dispose()
    assert LONG_VALUE[-12:] not in stored
    assert "api_key=[REDACTED:" in stored
    assert stored.split("\n")[1500].endswith("] region=eu")
