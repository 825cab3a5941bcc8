"""Models by name over MCP, with the official SDK client over stdio: count_tokens,
compact_transcript and compress take a model, say when their counts are estimates, and refuse
an unknown model with one line."""

from __future__ import annotations

from pathlib import Path

from mcp.client.session import ClientSession

from cleveragents.container.models import build_model_profiles
from tests.e2e.test_mcp_server import call, conversation, refused, serve


def test_models_by_name_over_mcp(tmp_path: Path) -> None:
    home = tmp_path / "home"
    sonnet = build_model_profiles().profile("claude-sonnet-4-5")
    gpt = build_model_profiles().profile("gpt-4o-mini")
    log = "".join(f"INFO step {number} done\n" for number in range(3000))

    async def scenario(client: ClientSession) -> None:
        counted = await call(client, "count_tokens", text="hello world", model="gpt-4o")
        assert counted == {
            "input_tokens": 2,
            "encoding": "o200k_base",
            "estimated": False,
            "method": "o200k_base (the model's own tokenizer)",
            "model": "gpt-4o",
        }
        estimate = await call(client, "count_tokens", text="hello world", model="claude-opus-4-7")
        assert estimate["estimated"] is True
        assert estimate["method"] == "cl100k_base estimate"

        compacted = await call(
            client, "compact_transcript", transcript=conversation(30), model="gpt-4o-mini",
            force=True,
        )  # fmt: skip
        assert compacted["report"]["threshold"] == gpt.budget_window - gpt.budget_reserve
        claude = await call(
            client, "compact_transcript", transcript=conversation(30),
            model="claude-sonnet-4-5", force=True,
        )  # fmt: skip
        assert claude["report"]["threshold"] == sonnet.budget_window - sonnet.budget_reserve
        assert claude["estimated"] is True
        assert claude["model"] == "claude-sonnet-4-5"
        assert compacted["estimated"] is False

        own = await call(client, "compact_transcript", transcript=conversation(30), force=True)
        # the request's own "model" (claude-sonnet-4-5) when none is given
        assert own["report"]["threshold"] == sonnet.budget_window - sonnet.budget_reserve

        shrunk = await call(
            client, "compress", text=log, name="run.log", budget=400, model="claude-sonnet-4-5"
        )
        assert shrunk["result"]["compacted_tokens"] <= 400 * 100 // 130
        assert "estimate" in shrunk["notice"]

        message = await refused(client, "count_tokens", text="hi", model="in-house-7b")
        assert "unknown model 'in-house-7b'" in message
        assert "context_window" in message

    serve(home, scenario)
