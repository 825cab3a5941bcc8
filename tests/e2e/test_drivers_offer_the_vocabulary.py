"""Every driver offers exactly the names of the domain's vocabulary: the CLI's choices, the MCP
tools' schemas, the Python API's checks and the lists written in its docs. A name added to or
taken from an enum in `domain.vocabulary` changes them all, or one of these fails."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.server.mcpserver.exceptions import ToolError

import cleveragents
from cleveragents.api import formats
from cleveragents.cli.reference import iter_commands
from cleveragents.container import build_container
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.vocabulary import (
    FORMAT_CHOICES,
    PLAIN_TEXT,
    ArtifactKind,
    CompressionMode,
    Encoding,
    SecretHandling,
    TranscriptFormat,
)
from cleveragents.mcp.server import build_server

ROOT = Path(__file__).resolve().parents[2]
KINDS = [kind.value for kind in ArtifactKind]
MODES = [mode.value for mode in CompressionMode]
FORMATS = [transcript_format.value for transcript_format in TranscriptFormat]
ENCODINGS = [encoding.value for encoding in Encoding]


def _help(path: str) -> str:
    """The --help of `path`, its lines joined: an option's text flows over several."""
    entry = next(entry for entry in iter_commands() if entry.path == path)
    return " ".join(entry.help.split())


def _choices(path: str, option: str) -> list[str]:
    found = re.search(rf"{option} [A-Z]+ .*? One of: ([^.]+)\.", _help(path))
    assert found is not None, f"{path} {option} lists no choices"
    return found.group(1).split(", ")


def test_the_cli_offers_the_vocabulary() -> None:
    assert _choices("agents artifact compress", "--kind") == KINDS
    assert _choices("agents artifact compress", "--mode") == MODES
    for command in ("compact", "validate", "compare"):
        assert _choices(f"agents context {command}", "--format") == list(FORMAT_CHOICES)
    assert _choices("agents metrics import", "--format") == list(FORMAT_CHOICES)
    assert list(FORMAT_CHOICES) == ["auto", *FORMATS]
    secrets = re.search(r"--secrets (\S+\|\S+)", _help("agents artifact import"))
    assert secrets is not None
    assert secrets.group(1).split("|") == [mode.value for mode in SecretHandling]


def test_every_encoding_option_names_every_encoding_and_the_default() -> None:
    helps = [entry.help for entry in iter_commands() if "--encoding" in entry.help]
    assert len(helps) >= 5
    for text in helps:
        flowing = " ".join(text.split())
        assert all(encoding in flowing for encoding in ENCODINGS), flowing
        assert "[default: cl100k_base]" in flowing, flowing


@pytest.fixture(scope="module")
def schemas(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    server = build_server(build_container(home=tmp_path_factory.mktemp("home")))
    return {tool.name: tool.input_schema for tool in anyio.run(server.list_tools)}


def test_the_mcp_schemas_offer_the_vocabulary(schemas: dict[str, dict[str, Any]]) -> None:
    compress = schemas["compress"]
    assert compress["$defs"]["ArtifactKind"]["enum"] == KINDS
    assert compress["$defs"]["CompressionMode"]["enum"] == MODES
    assert schemas["count_tokens"]["properties"]["encoding"]["enum"] == ENCODINGS
    compact = schemas["compact_transcript"]["properties"]["format"]
    assert compact["enum"] == list(FORMAT_CHOICES)
    assert schemas["gate"]["properties"]["format"]["enum"] == [*FORMAT_CHOICES, PLAIN_TEXT]
    store_output = schemas["store_output"]["$defs"]["SecretHandling"]["enum"]
    assert store_output == [mode.value for mode in SecretHandling]


@pytest.mark.parametrize(
    ("check", "names", "what"),
    [
        (formats.artifact_kind, KINDS, "artifact kind"),
        (formats.compression_mode, MODES, "compression mode"),
        (formats.transcript_format, FORMATS, "transcript format"),
        (formats.secret_handling, [mode.value for mode in SecretHandling], "secret handling"),
    ],
)
def test_the_python_api_accepts_each_name_and_lists_them_when_refusing(
    check: Any, names: list[str], what: str
) -> None:
    for name in names:
        assert check(name) == name
    with pytest.raises(InvalidInputError) as refused:
        check("nonsense")
    listed = ", ".join(repr(name) for name in names)
    assert str(refused.value) == f"unknown {what} 'nonsense'; one of {listed}"


def _listed(text: str, pattern: str) -> list[str]:
    found = re.search(pattern, " ".join(text.split()))
    assert found is not None, pattern
    return re.findall(r"`+\"?([\w-]+)\"?`+", found.group(1))


def test_the_python_apis_docs_list_the_vocabulary() -> None:
    page = (ROOT / "docs" / "python-api.md").read_text(encoding="utf-8")
    assert _listed(page, r"`kind` \(([^)]*)\)") == KINDS
    assert _listed(page, r"`format` \(([^)]*)\)") == FORMATS
    assert _listed(cleveragents.compress.__doc__ or "", r"`kind` \(([^)]*)\)") == KINDS
    assert _listed(cleveragents.compact.__doc__ or "", r"`format` \(([^)]*)\)") == FORMATS


@pytest.mark.parametrize("value", ["lots", "0", "-5", "1.5"])
def test_a_bad_transcript_limit_is_refused_by_the_mcp_tool_as_by_the_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    (tmp_path / "session.json").write_text('{"messages": []}', encoding="utf-8")
    monkeypatch.setenv("CLEVERAGENTS_MAX_TRANSCRIPT_BYTES", value)
    server = build_server(build_container(home=tmp_path / "home"), workspace=str(tmp_path))
    expected = (
        f"CLEVERAGENTS_MAX_TRANSCRIPT_BYTES must be a positive number of bytes, got {value!r}"
    )
    with pytest.raises(ToolError, match=re.escape(expected)):
        anyio.run(server.call_tool, "compact_transcript", {"path": "session.json"})
