"""Run the `agents` CLI in-process, as its entry point does, and capture what it printed."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from cleveragents.cli.main import main


@dataclass(frozen=True)
class Result:
    exit_code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> Result:
    capsys.readouterr()  # drop anything printed before
    try:
        main(list(args))
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    else:  # pragma: no cover - main always exits
        code = 0
    captured = capsys.readouterr()
    return Result(code, captured.out, captured.err)
