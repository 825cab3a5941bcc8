"""The vocabulary is importable at the CLI's startup: a fresh interpreter that imports it (and
the transcript limit) loads neither pydantic nor typer."""

from __future__ import annotations

import subprocess
import sys


def test_the_vocabulary_loads_no_pydantic() -> None:
    probe = (
        "import sys, cleveragents.domain.vocabulary, cleveragents.domain.transcript_limits; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'typer')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert loaded.strip() == "[]"
