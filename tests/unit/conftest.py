"""Unit tests stay fast: no real tokenizer, no child process.

A test that needs tiktoken's encoder or starts a process belongs in tests/integration; here it
fails at once, naming what it tried. The guard is an autouse fixture, so it covers every test of
tests/unit and nothing else. It stops the tiktoken adapter at its constructor and at the loading
of an encoding (how every use of the adapter reaches tiktoken, even through an instance built at
import time), and every process at `subprocess.Popen`, which `run`, `check_output` and `call`
all go through. A test that only needs counting takes `tests.fakes.FakeTokenCounter`.
"""

from __future__ import annotations

import subprocess
from typing import Any, NoReturn

import pytest

from cleveragents.adapters.tokens import tiktoken_counter

FAKE = "count with tests.fakes.FakeTokenCounter, or "


def _refuse(what: str, instead: str = "") -> Any:
    def refused(*args: object, **kwargs: object) -> NoReturn:
        pytest.fail(f"a unit test may not {what}: {instead}move the test to tests/integration")

    return refused


@pytest.fixture(autouse=True)
def _no_tokenizer_and_no_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    counter = tiktoken_counter.TiktokenCounter
    monkeypatch.setattr(counter, "__init__", _refuse("build the tiktoken counter", FAKE))
    monkeypatch.setattr(tiktoken_counter, "load_encoding", _refuse("load an encoding", FAKE))
    monkeypatch.setattr(subprocess, "Popen", _refuse("start a subprocess"))
