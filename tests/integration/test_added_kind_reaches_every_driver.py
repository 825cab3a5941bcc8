"""A kind declared in one module and registered reaches every driver with no other edit: the
CLI's --kind choices and its detection by name, the MCP compress schema and tool, the Python
API's check. The test-only CSV kind (`tests.csv_kind`) is registered in a fresh interpreter
before the drivers are built, as a plugin would be; nothing else names it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cleveragents.domain.vocabulary import ArtifactKind, artifact_kind_names
from tests.csv_kind import CSV, HEADER_MARK

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import contextlib, io, json, sys
from pathlib import Path

from cleveragents.application.services.artifact_compression.kinds.registry import register_kind
from tests.csv_kind import CSV_KIND

register_kind(CSV_KIND)

import anyio

import cleveragents
from cleveragents.cli.main import main
from cleveragents.cli.reference import iter_commands
from cleveragents.container import build_container
from cleveragents.mcp.server import build_server

work = Path(sys.argv[1])
table = "name,team\n" + "".join(
    f"user{index},{'infra' if index % 9 == 0 else 'core'}\n" for index in range(60)
)
(work / "people.csv").write_text(table, encoding="utf-8")
found = {}

found["cli_help"] = next(e.help for e in iter_commands() if e.path == "agents artifact compress")
printed = io.StringIO()
with contextlib.redirect_stdout(printed), contextlib.suppress(SystemExit):
    main(["artifact", "compress", "people.csv", "--budget", "220", "--mode", "tiered",
          "--task", "infra", "--workspace", str(work)])
found["cli_content"] = json.loads(printed.getvalue())["content"]

server = build_server(build_container(home=work / "home"))
tools = {tool.name: tool for tool in anyio.run(server.list_tools)}
found["mcp_kinds"] = tools["compress"].input_schema["$defs"]["ArtifactKind"]["enum"]
called = anyio.run(
    server.call_tool,
    "compress",
    {"text": table, "budget": 220, "kind": "csv", "mode": "tiered", "task": "infra"},
)
found["mcp_content"] = json.dumps(called.model_dump(mode="json"))

result = cleveragents.compress(table, 220, kind="csv", mode="tiered", task="infra")
found["api_kind"], found["api_text"] = str(result.kind), result.text
found["api_detected"] = str(cleveragents.compress(table, 60, name="people.csv").kind)
try:
    cleveragents.compress(table, 60, kind="tsv")
except cleveragents.InvalidInputError as error:
    found["api_refusal"] = str(error)
print(json.dumps(found))
"""


@pytest.fixture(scope="module")
def probed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    work = tmp_path_factory.mktemp("added-kind")
    completed = subprocess.run(
        [sys.executable, "-c", PROBE, str(work)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    found: dict[str, Any] = json.loads(completed.stdout.splitlines()[-1])
    return found


def test_the_cli_offers_it_after_the_shipped_kinds(probed: dict[str, Any]) -> None:
    flowing = " ".join(probed["cli_help"].split())
    offered = re.search(r"--kind KIND .*? One of: ([^.]+)\.", flowing)
    assert offered is not None
    assert offered.group(1).split(", ") == [*ArtifactKind, CSV]


def test_the_cli_tells_it_by_its_suffix_and_compresses_it_with_its_compressor(
    probed: dict[str, Any],
) -> None:
    assert probed["cli_content"].startswith(HEADER_MARK)
    assert "user9,infra" in probed["cli_content"]


def test_the_mcp_schema_lists_it_and_the_tool_accepts_it(probed: dict[str, Any]) -> None:
    assert probed["mcp_kinds"] == [*ArtifactKind, CSV]
    assert HEADER_MARK in probed["mcp_content"]


def test_the_python_api_accepts_it_and_names_it_among_the_kinds(probed: dict[str, Any]) -> None:
    assert probed["api_kind"] == CSV
    assert probed["api_text"].startswith(HEADER_MARK)
    assert probed["api_detected"] == CSV
    assert probed["api_refusal"] == (
        "unknown artifact kind 'tsv'; one of "
        + ", ".join(repr(name) for name in [*(kind.value for kind in ArtifactKind), CSV])
    )


def test_this_process_never_offered_it() -> None:
    # The probe ran in its own interpreter: the kinds here are the shipped ones.
    assert artifact_kind_names() == tuple(ArtifactKind)
