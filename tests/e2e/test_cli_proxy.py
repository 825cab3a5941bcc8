"""`agents proxy run|serve|stats` as a user types them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cleveragents.application.services.proxy.provider_api import ProviderApi
from cleveragents.application.services.proxy.proxy_exchanges import ProxyExchanges
from cleveragents.application.services.proxy.proxy_requests import ForwardedRequest
from cleveragents.container import build_container
from cleveragents.domain.usage import TokenUsage, UsageFormat
from tests.e2e.cli_runner import run

CHILD = """
import os, sys, urllib.request
base = os.environ["ANTHROPIC_BASE_URL"]
assert os.environ["OPENAI_BASE_URL"] == base + "/v1"
print(urllib.request.urlopen(base + "/healthz").read().decode())
sys.exit(3)
"""


def test_run_points_the_command_at_the_proxy_and_passes_on_its_exit_code(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    database = f"sqlite:///{tmp_path / 'proxy.db'}"
    code = None
    try:
        from cleveragents.cli.main import main

        main(["--db", database, "proxy", "run", "--", sys.executable, "-c", CHILD])
    except SystemExit as exit_:
        code = exit_.code
    printed = capfd.readouterr()
    assert code == 3, printed.err
    assert '{"status":"ok"}' in printed.out


def test_run_names_a_missing_command_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = f"sqlite:///{tmp_path / 'proxy.db'}"
    result = run(capsys, "--db", database, "proxy", "run", "--", "no-such-command-here")
    assert result.exit_code == 2
    assert result.stderr == "error: no such command: no-such-command-here\n"


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (("--host", "0.0.0.0"), "pass --allow-remote"),
        (("--host", "0.0.0.0", "--allow-remote"), "needs an access token"),
        (("--compress-over", "10", "--tool-budget", "100"), "--compress-over (10) must be"),
        (("--context-window", "1000", "--reserve-tokens", "2000"), "reserve_tokens (2000)"),
        (("--anthropic-upstream", "ftp://example.invalid"), "is not an http:// or https://"),
        (("--openai-upstream", "http://"), "--openai-upstream 'http://' is not"),
    ],
)
def test_serve_refuses_bad_settings_in_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    arguments: tuple[str, ...],
    expected: str,
) -> None:
    monkeypatch.delenv("CLEVERAGENTS_PROXY_TOKEN", raising=False)
    database = f"sqlite:///{tmp_path / 'proxy.db'}"
    result = run(capsys, "--db", database, "proxy", "serve", *arguments)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert expected in result.stderr
    assert not (tmp_path / "proxy.db").exists()


def test_a_missing_proxy_extra_says_how_to_install_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn now fails
    result = run(capsys, "--db", f"sqlite:///{tmp_path / 'p.db'}", "proxy", "serve")
    assert result.exit_code == 2
    assert "the proxy needs the proxy extra (uvicorn is missing)" in result.stderr
    assert "pip install -e '.[proxy]'" in result.stderr


def test_stats_shows_each_conversation_and_the_total(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = f"sqlite:///{tmp_path / 'proxy.db'}"
    container = build_container(database, home=tmp_path / "home")
    exchanges = ProxyExchanges(container.event_sink())
    for conversation, cached in (("aaaa", 100), ("aaaa", 900), ("bbbb", None)):
        request = ForwardedRequest(
            api=ProviderApi.ANTHROPIC_MESSAGES,
            body=b"{}",
            model="claude-sonnet-4-5",
            stream=False,
            conversation=conversation,
            tokens_received=5_000,
            tokens_forwarded=1_200,
            tool_outputs_stored=1,
            credentials_redacted=2,
            compacted=False,
            client_compaction=False,
        )
        usage = None
        if cached is not None:
            usage = TokenUsage(
                usage_format=UsageFormat.ANTHROPIC_MESSAGES,
                input_tokens=10,
                cache_read_tokens=cached,
                cache_write_tokens=50,
                total_input_tokens=60 + cached,
                output_tokens=7,
            )
        exchanges.record(request, 200, usage)
    container.store().dispose()
    result = run(capsys, "--db", database, "proxy", "stats", "--json")
    assert result.exit_code == 0, result.stderr
    figures = result.json()
    first, second = figures["conversations"]
    assert first["conversation"] == "aaaa"
    assert first["requests"] == 2
    assert first["cache_read_tokens"] == 1_000
    assert second["cache_read_tokens"] is None  # never reported: not zero
    total = figures["total"]
    assert total["requests"] == 3
    assert total["tokens_received"] == 15_000
    assert total["tokens_forwarded"] == 3_600
    assert total["credentials_redacted"] == 6
    assert total["cache_write_tokens"] == 100
    table = run(capsys, "--db", database, "proxy", "stats")
    assert table.exit_code == 0
    assert "aaaa" in table.stdout
    assert "total" in table.stdout
