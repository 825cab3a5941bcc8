"""The MCP tool ``gate`` end to end, through the SDK's stdio client: clean context allowed,
context with a credential or a cut preview refused with its reasons, bad input a tool error;
nothing is opened."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp.client.session import ClientSession

from tests.e2e.test_mcp_server import FAKE_KEY, call, conversation, refused, serve

pytestmark = pytest.mark.slow

ID = "01M8S3TP32YGTW80EQ7QPCH4HV"


def test_gate_allows_clean_context_and_refuses_bad_context(tmp_path: Path) -> None:
    home = tmp_path / "home"
    cut_preview = (
        f"artifact {ID}: run.log (text/plain, 9000 bytes, sha256 {'a' * 64})\nhead\n"
        f"[... 4000 bytes omitted: agents artifact read {ID} --offset 4096 --length 4000 ...]\n"
    )

    async def scenario(client: ClientSession) -> None:
        clean = await call(client, "gate", context=conversation(2))
        assert clean == {"allowed": True, "reasons": [], "format": "anthropic"}
        leaked = await call(client, "gate", context=f"export KEY={FAKE_KEY}\n", format="text")
        assert leaked == {
            "allowed": False,
            "reasons": ["secret: content: a credential (aws-access-key-id) on line(s) 1"],
            "format": None,
        }
        cut = await call(client, "gate", context=cut_preview, workspace="/work/ws")
        assert cut["reasons"] == [
            f"missing-tail: content: the preview of artifact {ID}: "
            "an omission marker claims a tail but none follows"
        ]
        unpriced = await call(
            client,
            "gate",
            context="hello",
            usage={
                "prompt_tokens": 9,
                "completion_tokens": 1,
                "prompt_tokens_details": {"cached_tokens": 4},
            },
            model="gpt-4",
        )
        assert [reason.split(":")[0] for reason in unpriced["reasons"]] == ["cache-metric"]
        message = await refused(client, "gate", context="x", usage={"prompt_tokens": 1})
        assert "model" in message
        bad = await refused(client, "gate", context=[{"role": "wizard", "content": "x"}])
        assert bad

    serve(home, scenario)
    assert not (home / "cleveragents.db").exists()  # the gate opens no database
