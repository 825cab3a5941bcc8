"""Reads say what they return. `agents artifact read ID` gives every byte (streamed), open-ended
ranges (`--lines A-`, `--offset N`) run to the end; MCP's read_artifact and the Python
`Store.read_slice` are bounded and say the artifact's size, what remains and where to read on;
`Store.read` and `Store.read_lines` give everything by default."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import TextContent

import cleveragents
from cleveragents.api.store import Store
from tests.e2e.test_cli_artifact_read_lines import run_binary

LINES = 60_000
MIB = 1 << 20


def big_log() -> bytes:
    """About 2.6 MB, over every bound (64 KiB, 1 MiB read pieces), lines of varied length."""
    generator = random.Random(595119)
    lines = [
        f"{number:06d} INFO worker-{generator.randrange(9)} " + "x" * generator.randrange(60)
        for number in range(1, LINES + 1)
    ]
    lines[-1] = f"{LINES:06d} FATAL the last line, no newline"
    return ("\n".join(lines)).encode()


DATA = big_log()
ENDINGS = [index for index, byte in enumerate(DATA) if byte == 0x0A]


def line_offset(line: int) -> int:
    """Where 1-based line `line` starts in DATA."""
    return 0 if line == 1 else ENDINGS[line - 2] + 1


@pytest.fixture
def artifact_id(capsysbinary: pytest.CaptureFixture[bytes], home: Path, tmp_path: Path) -> str:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "build.log").write_bytes(DATA)
    imported = run_binary(
        capsysbinary, "artifact", "import", "build.log", "--workspace", str(workspace), "--json"
    )
    assert imported.exit_code == 0, imported.stderr
    identifier: str = json.loads(imported.stdout)["artifact"]["id"]
    return identifier


def read(capsysbinary: pytest.CaptureFixture[bytes], artifact_id: str, *args: str) -> bytes:
    result = run_binary(capsysbinary, "artifact", "read", artifact_id, *args)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return result.stdout


# -- the CLI -------------------------------------------------------------------------------


def test_cli_read_without_a_range_is_every_byte(
    capsysbinary: pytest.CaptureFixture[bytes], artifact_id: str
) -> None:
    assert len(DATA) > 2 * MIB
    assert read(capsysbinary, artifact_id) == DATA


@pytest.mark.parametrize("first", [1, 2, 49_999, LINES])
def test_cli_open_ended_lines_run_to_the_end(
    capsysbinary: pytest.CaptureFixture[bytes], artifact_id: str, first: int
) -> None:
    assert read(capsysbinary, artifact_id, "--lines", f"{first}-") == DATA[line_offset(first) :]


def test_cli_open_ended_lines_past_the_end_are_empty(
    capsysbinary: pytest.CaptureFixture[bytes], artifact_id: str
) -> None:
    assert read(capsysbinary, artifact_id, "--lines", f"{LINES + 1}-") == b""


@pytest.mark.parametrize("offset", [0, 65_536, MIB + 3, len(DATA) - 1, len(DATA), len(DATA) + 9])
def test_cli_offset_alone_runs_to_the_end(
    capsysbinary: pytest.CaptureFixture[bytes], artifact_id: str, offset: int
) -> None:
    assert read(capsysbinary, artifact_id, "--offset", str(offset)) == DATA[offset:]


def test_cli_length_alone_starts_at_zero_and_crosses_pieces(
    capsysbinary: pytest.CaptureFixture[bytes], artifact_id: str
) -> None:
    length = MIB + 12_345
    assert read(capsysbinary, artifact_id, "--length", str(length)) == DATA[:length]
    assert read(capsysbinary, artifact_id, "--offset", "10", "--length", "0") == b""


@pytest.mark.parametrize(
    ("span", "says"),
    [("-5", "expected A-B"), ("0-", "line range"), ("3--", "expected A-B"), ("9-2", "range")],
)
def test_cli_bad_ranges_are_one_line_and_exit_2(
    capsysbinary: pytest.CaptureFixture[bytes], artifact_id: str, span: str, says: str
) -> None:
    result = run_binary(capsysbinary, "artifact", "read", artifact_id, "--lines", span)
    assert result.exit_code == 2
    assert result.stdout == b""
    assert says in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_cli_a_negative_offset_is_one_line_and_exit_2(
    capsysbinary: pytest.CaptureFixture[bytes], artifact_id: str
) -> None:
    result = run_binary(capsysbinary, "artifact", "read", artifact_id, "--offset", "-1")
    assert result.exit_code == 2
    assert result.stdout == b""
    assert len(result.stderr.strip().splitlines()) == 1


# -- the Python API ------------------------------------------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> Any:
    with cleveragents.open_store(tmp_path / "agents.db", home=tmp_path / "home") as opened:
        yield opened


@pytest.fixture
def stored_id(store: Store) -> str:
    imported = store.import_output(DATA, "build-log")
    assert not imported.blocked
    return imported.artifact.id


def test_python_read_and_read_lines_give_everything_by_default(
    store: Store, stored_id: str
) -> None:
    assert store.read(stored_id) == DATA
    assert store.read(stored_id, MIB) == DATA[MIB:]
    assert store.read_lines(stored_id, 49_999) == DATA[line_offset(49_999) :]
    assert b"".join(store.stream(stored_id)) == DATA
    assert all(len(piece) <= MIB for piece in store.stream(stored_id))
    assert b"".join(store.stream_lines(stored_id, 3)) == DATA[line_offset(3) :]


def test_python_read_slice_says_what_remains(store: Store, stored_id: str) -> None:
    first = store.read_slice(stored_id, limit=65_536)
    assert (first.offset, first.returned, first.total_bytes) == (0, 65_536, len(DATA))
    assert first.data == DATA[:65_536]
    assert first.remaining == len(DATA) - 65_536
    assert first.next_offset == 65_536
    assert first.truncated
    parts = [first.data]
    offset: int | None = first.next_offset
    while offset is not None:
        part = store.read_slice(stored_id, offset)
        assert part.returned <= MIB
        parts.append(part.data)
        offset = part.next_offset
    assert b"".join(parts) == DATA
    assert not part.truncated
    assert part.remaining == 0
    asked = store.read_slice(stored_id, 100, 50, limit=65_536)
    assert (asked.data, asked.truncated, asked.next_offset) == (DATA[100:150], False, 150)


def test_python_read_lines_slice_says_where_the_rest_starts(store: Store, stored_id: str) -> None:
    whole_tail = store.read_lines_slice(stored_id, 59_990)
    assert whole_tail.data == DATA[line_offset(59_990) :]
    assert whole_tail.offset == line_offset(59_990)
    assert (whole_tail.remaining, whole_tail.next_offset, whole_tail.truncated) == (0, None, False)
    cut = store.read_lines_slice(stored_id, 10, limit=1000)
    assert cut.data == DATA[line_offset(10) : line_offset(10) + 1000]
    assert cut.truncated
    assert cut.next_offset == line_offset(10) + 1000
    assert cut.remaining == len(DATA) - cut.next_offset
    past = store.read_lines_slice(stored_id, LINES + 5)
    assert (past.data, past.offset, past.remaining, past.next_offset) == (b"", len(DATA), 0, None)


@pytest.mark.parametrize(
    "call",
    [
        lambda s, i: s.read_lines(i, 0),
        lambda s, i: s.read_lines(i, 5, 4),
        lambda s, i: s.read(i, -1),
        lambda s, i: s.read_slice(i, limit=0),
        lambda s, i: s.stream_lines(i, 0),
    ],
)
def test_python_bad_ranges_raise_invalid_input(store: Store, stored_id: str, call: Any) -> None:
    with pytest.raises(cleveragents.InvalidInputError):
        call(store, stored_id)


# -- MCP, through the SDK's own client -----------------------------------------------------


@pytest.mark.slow
def test_mcp_read_artifact_says_what_remains(home: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "cleveragents.cli", "mcp", "serve"],
        env={"CLEVERAGENTS_HOME": str(home)},
    )
    text = DATA.decode()

    async def call(client: ClientSession, **arguments: Any) -> dict[str, Any]:
        result = await client.call_tool("read_artifact", arguments)
        [block] = result.content
        assert isinstance(block, TextContent)
        assert not result.is_error, block.text
        assert result.structured_content is not None
        structured: dict[str, Any] = result.structured_content
        return structured

    async def refused(client: ClientSession, **arguments: Any) -> str:
        result = await client.call_tool("read_artifact", arguments)
        [block] = result.content
        assert isinstance(block, TextContent)
        assert result.is_error
        return block.text

    async def session() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            stored = await client.call_tool("store_output", {"text": text, "label": "build"})
            assert stored.structured_content is not None
            artifact = stored.structured_content["artifact_id"]

            first = await call(client, artifact_id=artifact)
            assert first["text"] == text[:65_536]
            assert (first["offset"], first["byte_count"]) == (0, 65_536)
            assert first["artifact_bytes"] == len(DATA)
            assert first["remaining"] == len(DATA) - 65_536
            assert (first["next_offset"], first["truncated"]) == (65_536, True)

            # Reading on from next_offset gives the rest, and says when it is done.
            parts, offset = [first["text"]], first["next_offset"]
            while offset is not None:
                part = await call(client, artifact_id=artifact, offset=offset, length=1 << 20)
                parts.append(part["text"])
                offset = part["next_offset"]
            assert "".join(parts) == text
            assert (part["remaining"], part["truncated"]) == (0, False)

            tail = await call(client, artifact_id=artifact, first_line=59_000, last_line="end")
            assert tail["text"] == DATA[line_offset(59_000) :].decode()
            assert tail["offset"] == line_offset(59_000)
            assert (tail["remaining"], tail["next_offset"], tail["truncated"]) == (0, None, False)

            cut = await call(client, artifact_id=artifact, first_line=1, last_line="end")
            assert cut["byte_count"] == 1 << 20
            assert cut["truncated"] is True
            assert cut["next_offset"] == 1 << 20

            one = await call(client, artifact_id=artifact, first_line=2)
            assert one["text"] == DATA[line_offset(2) : line_offset(3)].decode()

            assert "before first_line" in await refused(
                client, artifact_id=artifact, first_line=5, last_line=4
            )
            assert await refused(client, artifact_id=artifact, first_line=5, last_line="all")

    anyio.run(session)
