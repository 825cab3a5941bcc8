"""The same limits on SQLite and PostgreSQL: figures past 2**31 are stored and read back, text
too long for its column or holding a NUL is refused before anything is stored, with one line
naming the field and the limit (SQLite enforces no length and keeps NUL; PostgreSQL refuses
both, with errors of its own)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cleveragents.container import Container
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.tokens import MAX_TOKEN_COUNT
from tests.e2e.cli_runner import Result, run

BEYOND_INT32 = 3_000_000_000


@pytest.fixture
def database_url(empty_database_url: str) -> str:
    """An empty database on each backend: the commands below create the schema themselves."""
    return empty_database_url


def _agents(capsys: pytest.CaptureFixture[str], database_url: str, *args: str) -> Result:
    return run(capsys, "--db", database_url, *args)


def _refused(result: Result, *fragments: str) -> str:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def _transcript(
    tmp_path: Path, model: str, message_id: str = "msg_1", usage: dict[str, int] | None = None
) -> Path:
    path = tmp_path / "anthropic.json"
    figures = usage or {"input_tokens": 3, "output_tokens": 1}
    message = {"role": "assistant", "content": "ok", "id": message_id, "usage": figures}
    path.write_text(
        json.dumps({"model": model, "messages": [{"role": "user", "content": "hi"}, message]})
    )
    return path


def _requests(capsys: pytest.CaptureFixture[str], database_url: str) -> Any:
    shown = _agents(capsys, database_url, "metrics", "show", "--json")
    assert shown.exit_code == 0, shown.stderr
    return shown.json()["usage"]["totals"]


# -- figures past 2**31 -----------------------------------------------------------------------


def test_a_context_window_past_2_31_is_stored_and_read_back(
    capsys: pytest.CaptureFixture[str], home: Path, database_url: str
) -> None:
    assert _agents(capsys, database_url, "project", "create", "p").exit_code == 0
    changed = _agents(
        capsys,
        database_url,
        *("project", "context", "set", "p"),
        *("--context-window", str(BEYOND_INT32), "--reserve-tokens", str(BEYOND_INT32 - 200)),
        *("--keep-recent-tokens", "100", "--summary-tokens", "100"),
    )
    assert changed.exit_code == 0, changed.stderr
    policy = _agents(capsys, database_url, "project", "context", "show", "p", "--json").json()
    assert policy["policy"]["context_window"] == {"value": BEYOND_INT32, "source": "project"}
    assert policy["policy"]["reserve_tokens"]["value"] == BEYOND_INT32 - 200


def test_the_largest_figures_the_domain_accepts_are_stored(
    container: Container, tmp_path: Path
) -> None:
    container.project_service().create("p")
    plan = container.plan_service().create("p", "t")
    big = ContextPolicy(
        context_window=MAX_TOKEN_COUNT,
        reserve_tokens=MAX_TOKEN_COUNT - 3,
        keep_recent_tokens=2,
        summary_tokens=MAX_TOKEN_COUNT // 4,
    )
    with container.unit_of_work() as uow:
        uow.plans.save_policy(plan.id, big)
        uow.commit()
    with container.unit_of_work() as uow:
        stored = uow.plans.get(plan.id)
    assert stored is not None
    assert stored.policy == big


def test_a_token_count_of_10_12_is_stored_and_summed(
    capsys: pytest.CaptureFixture[str], home: Path, database_url: str
) -> None:
    assert _agents(capsys, database_url, "project", "create", "p").exit_code == 0
    plan = _agents(capsys, database_url, "plan", "create", "--project", "p", "--title", "t")
    plan_id = plan.stdout.strip()
    for fragment in ("a", "b"):
        decided = _agents(
            capsys,
            database_url,
            *("plan", "decide", plan_id, "--content", fragment),
            *("--tokens", str(MAX_TOKEN_COUNT), "--fragment-id", fragment),
        )
        assert decided.exit_code == 0, decided.stderr
    status = _agents(capsys, database_url, "plan", "status", plan_id, "--json").json()
    assert status["own_tokens"] == 2 * MAX_TOKEN_COUNT
    child = _agents(
        capsys, database_url, "plan", "spawn", plan_id, "--title", "c", "--skeleton-ratio", "0.5"
    )
    assert child.exit_code == 0, child.stderr
    skeleton = _agents(capsys, database_url, "plan", "status", child.stdout.strip(), "--json")
    assert skeleton.json()["skeleton"]["original_tokens"] == 2 * MAX_TOKEN_COUNT


def test_usage_of_10_12_tokens_is_recorded_and_totalled(
    capsys: pytest.CaptureFixture[str], home: Path, database_url: str, tmp_path: Path
) -> None:
    usage = {"input_tokens": MAX_TOKEN_COUNT, "output_tokens": MAX_TOKEN_COUNT}
    imported = _agents(
        capsys,
        database_url,
        "metrics",
        "import",
        str(_transcript(tmp_path, "claude-x", usage=usage)),
    )
    assert imported.exit_code == 0, imported.stderr
    totals = _requests(capsys, database_url)
    assert totals["requests"] == 1
    assert totals["tokens"]["output_tokens"] == MAX_TOKEN_COUNT
    assert totals["tokens"]["input_tokens"] == MAX_TOKEN_COUNT


# -- lengths ----------------------------------------------------------------------------------


def test_a_201_character_model_name_is_refused_with_one_line(
    capsys: pytest.CaptureFixture[str], home: Path, database_url: str, tmp_path: Path
) -> None:
    transcript = _transcript(tmp_path, "m" * 201)
    _refused(
        _agents(capsys, database_url, "metrics", "import", str(transcript)),
        "transcript message 1",
        "model is 201 characters long; at most 200",
    )
    assert _requests(capsys, database_url)["requests"] == 0


def test_a_200_character_model_name_of_any_script_is_kept(
    capsys: pytest.CaptureFixture[str], home: Path, database_url: str, tmp_path: Path
) -> None:
    # Characters, not bytes: 200 two-byte characters fit PostgreSQL's VARCHAR(200) too.
    model = "é" * 200
    transcript = _transcript(tmp_path, model)
    assert _agents(capsys, database_url, "metrics", "import", str(transcript)).exit_code == 0
    shown = _agents(capsys, database_url, "metrics", "show", "--json").json()
    assert [usage["model"] for usage in shown["usage"]["models"]] == [model]


def test_a_201_character_message_id_is_refused(
    capsys: pytest.CaptureFixture[str], home: Path, database_url: str, tmp_path: Path
) -> None:
    transcript = _transcript(tmp_path, "claude-x", message_id="i" * 201)
    _refused(
        _agents(capsys, database_url, "metrics", "import", str(transcript)),
        "message id is 201 characters long; at most 200",
    )
    assert _requests(capsys, database_url)["requests"] == 0


def test_a_long_service_tier_is_refused(
    capsys: pytest.CaptureFixture[str], home: Path, database_url: str, tmp_path: Path
) -> None:
    path = tmp_path / "tier.json"
    message = {
        "role": "assistant",
        "content": "ok",
        "id": "msg_1",
        "usage": {"input_tokens": 3, "output_tokens": 1, "service_tier": "t" * 51},
    }
    path.write_text(json.dumps({"model": "claude-x", "messages": [message]}))
    _refused(
        _agents(capsys, database_url, "metrics", "import", str(path)),
        "service_tier is 51 characters long; at most 50",
    )


def test_a_501_character_title_is_refused_and_500_kept(
    capsys: pytest.CaptureFixture[str], home: Path, database_url: str
) -> None:
    assert _agents(capsys, database_url, "project", "create", "p").exit_code == 0
    create = ("plan", "create", "--project", "p", "--title")
    _refused(_agents(capsys, database_url, *create, "ü" * 501), "title", "500")
    kept = _agents(capsys, database_url, *create, "ü" * 500)
    assert kept.exit_code == 0, kept.stderr
    listed = _agents(capsys, database_url, "plan", "list", "--json").json()
    assert [plan["title"] for plan in listed] == ["ü" * 500]


def test_a_201_character_fragment_id_is_refused(container: Container) -> None:
    container.project_service().create("p")
    plan = container.plan_service().create("p", "t")
    with pytest.raises(InvalidInputError, match=r"fragment_id.*at most 200 characters"):
        container.plan_service().decide(plan.id, "x", fragment_id="f" * 201)
    kept = container.plan_service().decide(plan.id, "x", fragment_id="f" * 200)
    assert kept.fragment.fragment_id == "f" * 200


def test_a_tool_output_label_too_long_for_the_source_column_is_refused(
    container: Container,
) -> None:
    store = container.artifact_store()
    with pytest.raises(InvalidInputError, match="label is 189 characters long; at most 188"):
        store.import_output(b"build ok\n", "l" * 189)
    kept = store.import_output(b"build ok\n", "l" * 188)
    assert kept.artifact.source == "tool-output:" + "l" * 188


# -- NUL --------------------------------------------------------------------------------------


def test_a_nul_in_a_title_is_refused_with_one_line(
    capsys: pytest.CaptureFixture[str], home: Path, database_url: str
) -> None:
    assert _agents(capsys, database_url, "project", "create", "p").exit_code == 0
    _refused(
        _agents(capsys, database_url, "plan", "create", "--project", "p", "--title", "a\0b"),
        "title contains a NUL character (at character 1)",
    )
    assert _agents(capsys, database_url, "plan", "list", "--json").json() == []


def test_a_nul_in_decision_content_is_refused_and_nothing_recorded(
    capsys: pytest.CaptureFixture[str], home: Path, database_url: str, tmp_path: Path
) -> None:
    assert _agents(capsys, database_url, "project", "create", "p").exit_code == 0
    plan_id = _agents(
        capsys, database_url, "plan", "create", "--project", "p", "--title", "t"
    ).stdout.strip()
    binary = tmp_path / "decision.txt"
    binary.write_bytes(b"use stripe\x00webhooks")
    _refused(
        _agents(capsys, database_url, "plan", "decide", plan_id, "--file", str(binary)),
        "content contains a NUL character (at character 10)",
        "import binary data as an artifact",
    )
    assert (
        _agents(capsys, database_url, "plan", "status", plan_id, "--json").json()["decisions"] == 0
    )


def test_binary_bytes_are_kept_whole_as_an_artifact(container: Container) -> None:
    # The place for a NUL: an artifact's blob keeps every byte.
    data = b"\x00\x01binary\x00output\xff"
    imported = container.artifact_store().import_output(data, "binary-tool")
    assert imported.artifact.byte_count == len(data)
    assert container.artifact_store().read(imported.artifact.id) == data


@pytest.mark.parametrize(
    ("model", "message_id", "field"),
    [("claude\0x", "msg_1", "model"), ("claude-x", "msg_\0", "message id")],
)
def test_a_nul_in_usage_names_is_refused(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    database_url: str,
    tmp_path: Path,
    model: str,
    message_id: str,
    field: str,
) -> None:
    transcript = _transcript(tmp_path, model, message_id=message_id)
    _refused(
        _agents(capsys, database_url, "metrics", "import", str(transcript)),
        f"{field} contains a NUL character",
    )
    assert _requests(capsys, database_url)["requests"] == 0


def test_a_nul_in_other_names_is_refused(container: Container) -> None:
    container.project_service().create("p")
    plan = container.plan_service().create("p", "t")
    with pytest.raises(InvalidInputError, match="fragment_id contains a NUL"):
        container.plan_service().decide(plan.id, "x", fragment_id="f\0")
    with pytest.raises(InvalidInputError, match="label contains a NUL"):
        container.artifact_store().import_output(b"ok\n", "tool\0")
    with pytest.raises(InvalidInputError, match="tool name contains a NUL"):
        container.artifact_store().create_temp_output("tool\0")
    with pytest.raises(InvalidInputError, match="source contains a NUL"):
        container.metrics_service().import_transcript("[]", "log\0.json")
