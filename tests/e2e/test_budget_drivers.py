"""The budget planner is one use case that every driver renders: `agents context budget`, the
Python API's `plan_context_budget` and the MCP tool `plan_context_budget` give the same report
for the same files (the CLI's markdown and JSON, byte for byte).

The story is the real public text of tests/data/budget-story, laid out in a temporary
workspace; the overflowing log is the real Hadoop excerpt, repeated.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from mcp.client.session import ClientSession

import cleveragents
from cleveragents.domain.errors import InvalidInputError
from tests.conftest import TEST_DATA
from tests.e2e.cli_runner import run
from tests.e2e.test_mcp_server import call, refused, serve

SPEC = "rfc-2394-async_await.md"
TEST_PLAN = "rfc-3392-leadership-council.md"
MODULE_DOC = "rfc-2094-nll.md"
CHANGED = ("click-types.py", "github-paginate-issues.json", "hadoop.log")


@pytest.fixture(autouse=True)
def story(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "story"
    shutil.copytree(TEST_DATA / "budget-story", folder)
    for source in folder.glob("*.py.txt"):
        source.rename(source.with_suffix(""))
    excerpt = (TEST_DATA / "Hadoop_lines640-1060.log").read_text(encoding="utf-8")
    (folder / "hadoop.log").write_text(excerpt * 12, encoding="utf-8")  # past 200,000 tokens
    (folder / "weights.toml").write_text("[tiers]\nred = 0.9\n", encoding="utf-8")
    monkeypatch.chdir(folder)
    monkeypatch.setenv("CLEVERAGENTS_HOME", str(tmp_path / "home"))
    return folder


def cli(capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[str, str]:
    arguments = ["--spec", SPEC, "--test-plan", TEST_PLAN, "--module-doc", MODULE_DOC]
    for path in CHANGED:
        arguments += ["--changed", path]
    result = run(capsys, "context", "budget", *arguments, "--weights", "weights.toml", *flags)
    assert result.exit_code == 0, result.stderr
    return result.stdout, result.stderr


def test_the_cli_the_python_api_and_the_mcp_tool_give_the_same_report(
    capsys: pytest.CaptureFixture[str], story: Path
) -> None:
    markdown, warned = cli(capsys)
    as_json, _ = cli(capsys, "--json")
    plan = cleveragents.plan_context_budget(
        SPEC,
        test_plan=TEST_PLAN,
        module_docs=[MODULE_DOC],
        changed=[Path(path) for path in CHANGED],  # str or os.PathLike
        weights="weights.toml",
    )
    assert plan.as_json()["tier"] == "red"
    assert plan.overcommits_default_window
    assert json.loads(as_json) == plan.as_json()
    assert plan.markdown() == markdown
    assert "exceeds the default window of 200,000 tokens" in warned

    answers: dict[str, Any] = {}

    async def scenario(client: ClientSession) -> None:
        answers["plan"] = await call(
            client,
            "plan_context_budget",
            spec=SPEC,
            test_plan=TEST_PLAN,
            module_docs=[MODULE_DOC],
            changed=list(CHANGED),
            weights="weights.toml",
        )
        answers["outside"] = await refused(client, "plan_context_budget", spec="../outside.md")
        answers["twice"] = await refused(
            client, "plan_context_budget", spec=SPEC, changed=["./" + SPEC]
        )

    (story.parent / "outside.md").write_text("# not in the workspace\n", encoding="utf-8")
    serve(story / "home", scenario)
    assert answers["plan"]["markdown"] == markdown
    assert answers["plan"]["plan"] == json.loads(as_json)
    [warning] = answers["plan"]["warnings"]
    assert "exceeds the default window of 200,000 tokens" in warning
    assert "outside.md" in answers["outside"]
    assert "is given twice (spec and changed)" in answers["twice"]


def test_the_python_api_refuses_bad_arguments_in_one_line() -> None:
    with pytest.raises(InvalidInputError, match="a list of paths"):
        cleveragents.plan_context_budget(SPEC, changed=CHANGED[0])
    with pytest.raises(InvalidInputError, match="give store= as well"):
        cleveragents.plan_context_budget(SPEC, project="shop")
    with pytest.raises(InvalidInputError, match="at least 1 token"):
        cleveragents.plan_context_budget(SPEC, available=0)
    Path("binary.md").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(InvalidInputError, match="not UTF-8"):
        cleveragents.plan_context_budget("binary.md")
