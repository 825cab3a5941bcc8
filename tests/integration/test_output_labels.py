"""A stored output's label is a name, not a path: normalised the same way whoever hands the
output over (the store's service is the one place), and the MCP schema states the same bound
the service checks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cleveragents.container import Container, build_container
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.output_labels import MAX_LABEL_CHARS, normalised_label


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("pytest-run", "pytest-run"),
        ("a/../../b", "a/b"),
        ("../../etc/passwd", "etc/passwd"),
        ("/abs/./path//x/", "abs/path/x"),
        ("  spaced name  ", "spaced name"),
    ],
)
def test_labels_are_names(given: str, stored: str) -> None:
    assert normalised_label(given) == stored


@pytest.mark.parametrize("bad", ["", "..", "/./../", "line\nbreak", "nul\x00", "x" * 190])
def test_a_label_that_names_nothing_or_holds_control_characters_is_refused(bad: str) -> None:
    with pytest.raises(InvalidInputError):
        normalised_label(bad)


@pytest.fixture
def container(database_url: str, home: Path) -> Iterator[Container]:
    built = build_container(database_url, home=home)
    yield built
    built.store().dispose()


def test_the_store_keeps_the_normalised_label_up_to_the_bound(container: Container) -> None:
    store = container.artifact_store()
    stored = store.import_output(b"ok\n", "a/../../b")
    assert (stored.artifact.workspace_path, stored.artifact.source) == (
        "tool-output/a/b",
        "tool-output:a/b",
    )
    longest = "x" * MAX_LABEL_CHARS
    assert store.import_output(b"longest\n", longest).artifact.source.endswith(longest)
    with pytest.raises(InvalidInputError, match=f"at most {MAX_LABEL_CHARS}"):
        store.import_output(b"longer\n", longest + "x")


def test_the_mcp_schema_states_the_bound_the_store_checks() -> None:
    import anyio

    from cleveragents.mcp.server import build_server

    async def schema() -> dict[str, object]:
        server = build_server(build_container("sqlite://"))
        tools = {tool.name: tool for tool in await server.list_tools()}
        label: dict[str, object] = tools["store_output"].input_schema["properties"]["label"]
        return label

    assert anyio.run(schema)["maxLength"] == MAX_LABEL_CHARS
