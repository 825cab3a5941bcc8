"""Benchmark: the local proxy, against going direct, in one run.

Overhead. A local provider stand-in (`tests/proxy_upstream.py`, Starlette on uvicorn, in a
process of its own) answers Anthropic Messages requests; the same requests are sent to it
directly and through the proxy (the real engine in a process of its own, as `agents proxy
serve` runs it: SQLite store, tokenizer, secret scanner, compaction on), one after the other,
with one httpx client each (connections kept alive). The conversations hold about 10k, 100k
and 500k tokens (a coding session: tool calls and their outputs, each under the threshold at
which outputs are stored); each timed request appends two new messages to the conversation,
as an agent does, after one request that warmed the proxy's memory. Printed: p50 and p99 of
each, and the proxy's added latency (p50 target at 100k tokens: at most 10 ms).

Replay. Each Claude Code session of the corpus is read back into the sequence of requests
Claude Code sent: one per assistant API call, holding every message before it. Each request
goes through the proxy's transform (the service the web app calls; no network) and is also
taken as it is (direct). Per session: tokens forwarded, simulated cost with a provider prompt
cache at the published rates (a request's longest message prefix already sent is read from
the cache at 0.1; the rest is written to it at 1.25, as Claude Code marks the end of each
request for caching), the share of requests whose forwarded messages extend the previous
request's, and credentials forwarded (the secret scanner run over every distinct message
sent). The corpus sessions hold no credential: each is replayed a second time with generated
credentials (`tests/secret_recall_set.py`) added to about one tool result in four, counted for
the credentials only. Targets: cost at most 0.7x direct summed and never above 1.0x on any
session; prefix extension in at least 95% of requests; no credential forwarded. The replay
needs the corpus (``../shared/corpus``) and is skipped without it.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import random
import socket
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Any

import httpx

from benchmarks.report import Result, print_line, print_section
from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.proxy.message_transform import canonical_json
from cleveragents.application.services.proxy.provider_api import ProviderApi
from cleveragents.application.services.proxy.proxy_engine import ProxySettings
from cleveragents.container import Container, build_container
from cleveragents.container.proxy_engine import proxy_engine
from cleveragents.domain.transcript import TranscriptFormat
from cleveragents.proxy.app import Upstreams, build_app
from cleveragents.proxy.server import bound_socket, serve_forever
from tests.proxy_upstream import ProviderStandIn
from tests.secret_recall_set import credentials

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "transcripts"
MODEL = "claude-sonnet-4-5"
SIZES = ((10_000, 60), (100_000, 60), (500_000, 25))  # conversation tokens, timed requests
ADDED_P50_TARGET_S = 0.010
CACHE_READ, CACHE_WRITE = 0.1, 1.25
API = ProviderApi.ANTHROPIC_MESSAGES


@contextmanager
def _container() -> Iterator[Container]:
    with tempfile.TemporaryDirectory(prefix="proxy-bench-") as folder:
        container = build_container(f"sqlite:///{folder}/bench.db", home=Path(folder) / "home")
        try:
            yield container
        finally:
            container.store().dispose()


# -- overhead ----------------------------------------------------------------------------------


def _turn(rng: random.Random, index: int) -> list[dict[str, Any]]:
    """One tool call and its output (~450 tokens: under the threshold, forwarded whole)."""
    call = f"toolu_{index:06d}"
    lines = "\n".join(
        f"{rng.randrange(10**6):06d} INFO worker-{rng.randrange(16)} handled request "
        f"{rng.randrange(10**9)} in {rng.randrange(1000)} ms"
        for _ in range(28)
    )
    return [
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": f"Checking step {index}."},
                {
                    "type": "tool_use",
                    "id": call,
                    "name": "bash",
                    "input": {"command": f"run {index}"},
                },
            ],
        },
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": call, "content": lines}],
        },
    ]


def _conversation(tokens: int, counter: TokenCounter) -> list[dict[str, Any]]:
    rng = random.Random(tokens)
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Find why the service is slow."}]
    total = 0
    index = 0
    while total < tokens:
        turn = _turn(rng, index)
        total += sum(counter.count(canonical_json(message)) for message in turn)
        messages.extend(turn)
        index += 1
    return messages


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def _timed_post(client: httpx.Client, body: bytes) -> float:
    headers = {"content-type": "application/json", "anthropic-version": "2023-06-01"}
    start = time.perf_counter()
    response = client.post("/v1/messages", content=body, headers=headers)
    elapsed = time.perf_counter() - start
    response.raise_for_status()
    return elapsed


def _serve_upstream(ports: Queue[int]) -> None:
    """The provider stand-in, in a process of its own."""
    sock = bound_socket("127.0.0.1", 0)
    ports.put(sock.getsockname()[1])
    serve_forever(ProviderStandIn().app(), sock)


def _serve_proxy(upstream_url: str, folder: str, ports: Queue[int]) -> None:
    """The proxy as `agents proxy serve` runs it, in a process of its own."""
    container = build_container(f"sqlite:///{folder}/bench.db", home=Path(folder) / "home")
    engine = proxy_engine(container, ProxySettings())
    app = build_app(engine, Upstreams(anthropic=upstream_url, openai=upstream_url))
    sock = bound_socket("127.0.0.1", 0)
    ports.put(sock.getsockname()[1])
    serve_forever(app, sock)


@contextmanager
def _server_process(target: Any, *args: Any) -> Iterator[str]:
    """`target(*args, ports)` run in a new process; its URL once its socket listens (a
    client that connects earlier waits in the socket's backlog)."""
    context = multiprocessing.get_context("spawn")
    ports: Queue[int] = context.Queue()
    process = context.Process(target=target, args=(*args, ports), daemon=True)
    process.start()
    try:
        yield f"http://127.0.0.1:{ports.get(timeout=120)}"
    finally:
        process.terminate()  # uvicorn stops on SIGTERM
        process.join()


def _overhead() -> list[Result]:
    print_section("proxy: added latency against the same local upstream")
    results: list[Result] = []
    nodelay = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]
    with (
        tempfile.TemporaryDirectory(prefix="proxy-bench-") as folder,
        _server_process(_serve_upstream) as upstream_url,
        _server_process(_serve_proxy, upstream_url, folder) as proxy_url,
        httpx.Client(
            base_url=upstream_url,
            timeout=120,
            transport=httpx.HTTPTransport(socket_options=nodelay),
        ) as direct_client,
        httpx.Client(
            base_url=proxy_url, timeout=120, transport=httpx.HTTPTransport(socket_options=nodelay)
        ) as proxy_client,
        _container() as container,
    ):
        counter = container.token_counter()
        for tokens, repeats in SIZES:
            results.append(_overhead_at(tokens, repeats, counter, direct_client, proxy_client))
    return results


def _overhead_at(
    tokens: int,
    repeats: int,
    counter: TokenCounter,
    direct_client: httpx.Client,
    proxy_client: httpx.Client,
) -> Result:
    messages = _conversation(tokens, counter)
    rng = random.Random(tokens + 1)
    request = {"model": MODEL, "max_tokens": 1024, "system": "You are a coding agent."}

    def body() -> bytes:
        return json.dumps({**request, "messages": messages}).encode()

    _timed_post(proxy_client, body())  # warm: the proxy remembers the conversation so far
    _timed_post(direct_client, body())
    direct: list[float] = []
    proxied: list[float] = []
    for index in range(repeats):
        messages.extend(_turn(rng, 10**6 + index))
        data = body()
        pair = [(direct_client, direct), (proxy_client, proxied)]
        for client, times in pair if index % 2 == 0 else reversed(pair):
            times.append(_timed_post(client, data))
    direct_p50, proxy_p50 = statistics.median(direct), statistics.median(proxied)
    direct_p99, proxy_p99 = _percentile(direct, 0.99), _percentile(proxied, 0.99)
    added_p50, added_p99 = proxy_p50 - direct_p50, proxy_p99 - direct_p99
    label = f"{tokens // 1000}k tokens"
    print_line(
        f"{label:>12}: direct p50 {direct_p50 * 1000:7.1f} ms p99 {direct_p99 * 1000:7.1f} ms | "
        f"proxy p50 {proxy_p50 * 1000:7.1f} ms p99 {proxy_p99 * 1000:7.1f} ms | "
        f"added p50 {added_p50 * 1000:+6.1f} ms p99 {added_p99 * 1000:+6.1f} ms"
    )
    at_target = tokens == 100_000
    return Result(
        name=f"proxy p50 latency, {label}",
        measured=proxy_p50,
        baseline=direct_p50,
        ratio=proxy_p50 / direct_p50 if direct_p50 else 0.0,
        unit="s",
        target="added p50 <= 10 ms" if at_target else "reported",
        met=added_p50 <= ADDED_P50_TARGET_S if at_target else True,
        baseline_label="direct",
        details={
            "tokens": tokens,
            "requests": repeats,
            "added_p50_ms": round(added_p50 * 1000, 2),
            "added_p99_ms": round(added_p99 * 1000, 2),
            "direct_p99_ms": round(direct_p99 * 1000, 2),
            "proxy_p99_ms": round(proxy_p99 * 1000, 2),
        },
    )


# -- replay ------------------------------------------------------------------------------------


@dataclass
class _CacheSimulation:
    """A provider's prompt cache over message prefixes: what each request costs."""

    counter: TokenCounter
    scanner: SecretScanner

    def __post_init__(self) -> None:
        self.sent: set[bytes] = set()
        self.tokens: dict[str, int] = {}
        self.scanned: dict[str, int] = {}
        self.cost = 0.0
        self.forwarded = 0
        self.credentials = 0
        self.extended = 0
        self.previous: list[bytes] = []

    def send(self, messages: list[Any]) -> None:
        texts = [canonical_json(message) for message in messages]
        chain: list[bytes] = []
        digest = hashlib.sha256()
        for text in texts:
            digest.update(hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest())
            chain.append(digest.copy().digest())
        sizes = [self._tokens(text) for text in texts]
        cached = 0
        for index in range(len(chain) - 1, -1, -1):
            if chain[index] in self.sent:
                cached = sum(sizes[: index + 1])
                break
        total = sum(sizes)
        self.cost += CACHE_READ * cached + CACHE_WRITE * (total - cached)
        self.forwarded += total
        if self.previous and chain[: len(self.previous)] == self.previous:
            self.extended += 1
        self.previous = chain
        self.sent.update(chain)
        for text in texts:
            if text not in self.scanned:
                self.scanned[text] = len(self.scanner.scan_text(text))
                self.credentials += self.scanned[text]

    def _tokens(self, text: str) -> int:
        if text not in self.tokens:
            self.tokens[text] = self.counter.count(text)
        return self.tokens[text]


def _planted(messages: list[Any], seed: str) -> list[Any]:
    """The session with a generated credential added to about one tool result in four (the
    corpus holds none): what a session that printed secrets would have sent."""
    rng = random.Random(seed)
    secrets = [credential.text for credential in credentials()]
    planted: list[Any] = []
    for message in messages:
        content = message.get("content")
        if message.get("role") != "user" or not isinstance(content, list):
            planted.append(message)
            continue
        blocks = []
        for block in content:
            if block.get("type") == "tool_result" and rng.random() < 0.25:
                inner = block.get("content")
                text = inner if isinstance(inner, str) else json.dumps(inner)
                blocks.append({**block, "content": f"{text}\n{rng.choice(secrets)}"})
            else:
                blocks.append(block)
        planted.append({**message, "content": blocks})
    return planted


def _requests(messages: list[Any]) -> list[list[Any]]:
    """What Claude Code sent: before each assistant API call, every message before it."""
    return [
        messages[:index]
        for index, message in enumerate(messages)
        if index > 0 and message.get("role") == "assistant"
    ]


def _replay() -> list[Result]:
    print_section("proxy: replay of the corpus Claude Code sessions (simulated prompt cache)")
    sessions = sorted(CORPUS.glob("claude-code-*.jsonl")) if CORPUS.is_dir() else []
    if not sessions:
        print_line("the corpus is absent: replay skipped")
        return []
    rows: list[dict[str, Any]] = []
    with _container() as container:
        codec = container.transcript_codec()
        counter = container.token_counter()
        scanner = container.secret_scanner()
        for path in sessions:
            transcript = codec.read(path.read_text(encoding="utf-8"), TranscriptFormat.CLAUDE_CODE)
            document = codec.write_native(transcript, TranscriptFormat.ANTHROPIC)
            messages = list(document["messages"] if isinstance(document, dict) else document)
            for planted in (False, True):
                session = _planted(messages, path.name) if planted else messages
                requests = _requests(session)
                if not requests:
                    continue
                engine = proxy_engine(container, ProxySettings())
                direct = _CacheSimulation(counter, scanner)
                proxied = _CacheSimulation(counter, scanner)
                for request in requests:
                    body = json.dumps({"model": MODEL, "max_tokens": 4096, "messages": request})
                    forwarded = engine.requests.forwarded(API, body.encode())
                    direct.send(request)
                    proxied.send(json.loads(forwarded.body)["messages"])
                name = f"{path.name} + planted" if planted else path.name
                rows.append(_row(name, len(requests), direct, proxied) | {"planted": planted})
    everything = rows
    rows = [row for row in everything if not row["planted"]]
    direct_cost = sum(row["direct_cost"] for row in rows)
    proxy_cost = sum(row["proxy_cost"] for row in rows)
    requests_total = sum(row["requests"] for row in rows)
    extended = sum(row["extended"] for row in rows)
    followers = sum(row["requests"] - 1 for row in rows)
    credentials = sum(row["proxy_credentials"] for row in everything)
    direct_credentials = sum(row["direct_credentials"] for row in everything)
    worst = max(row["ratio"] for row in rows)
    ratio = proxy_cost / direct_cost if direct_cost else 0.0
    share = extended / followers if followers else 1.0
    print_line(
        f"{'total':<48} {requests_total:>5} requests | cost {ratio:.2f}x direct "
        f"(worst session {worst:.2f}x) | prefix extended {share:.1%} | credentials "
        f"forwarded {credentials} (direct {direct_credentials}, with the planted ones)"
    )
    details = {"sessions": everything}
    return [
        Result(
            name="proxy replay: simulated cost",
            measured=proxy_cost,
            baseline=direct_cost,
            ratio=ratio,
            unit="token units",
            target="<= 0.70x in sum, <= 1.0x each",
            met=ratio <= 0.7 and worst <= 1.0,
            baseline_label="direct",
            details=details,
        ),
        Result(
            name="proxy replay: requests extending the previous",
            measured=share,
            baseline=1.0,
            ratio=share,
            unit="",
            target=">= 0.95",
            met=share >= 0.95,
            baseline_label="every request",
        ),
        Result(
            name="proxy replay: credentials forwarded",
            measured=float(credentials),
            baseline=float(direct_credentials),
            ratio=0.0,
            unit="",
            target="0",
            met=credentials == 0,
            baseline_label="direct",
        ),
    ]


def _row(
    name: str, requests: int, direct: _CacheSimulation, proxied: _CacheSimulation
) -> dict[str, Any]:
    ratio = proxied.cost / direct.cost if direct.cost else 0.0
    followers = max(1, requests - 1)
    print_line(
        f"{name[:48]:<48} {requests:>5} requests | tokens {direct.forwarded:>10,} -> "
        f"{proxied.forwarded:>10,} | cost {ratio:.2f}x | extended "
        f"{proxied.extended / followers:.1%} (direct {direct.extended / followers:.1%}) | "
        f"credentials {direct.credentials} -> {proxied.credentials}"
    )
    return {
        "session": name,
        "requests": requests,
        "direct_tokens": direct.forwarded,
        "proxy_tokens": proxied.forwarded,
        "direct_cost": round(direct.cost, 1),
        "proxy_cost": round(proxied.cost, 1),
        "ratio": round(ratio, 3),
        "extended": proxied.extended,
        "direct_extended": direct.extended,
        "direct_credentials": direct.credentials,
        "proxy_credentials": proxied.credentials,
    }


def run() -> list[Result]:
    return _overhead() + _replay()


if __name__ == "__main__":
    from benchmarks.report import render_table

    print(render_table(run()))
