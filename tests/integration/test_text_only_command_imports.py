"""A command that takes only text needs no pydantic adapter of Typer's (checked in a fresh
process, whose imports are its own)."""

from __future__ import annotations

import subprocess
import sys


def test_a_text_only_command_loads_no_pydantic_adapter() -> None:
    probe = (
        "import sys\n"
        "from cleveragents.cli.main import main\n"
        "try:\n"
        "    main(['tokens', 'count', '-', '--encoding', 'cl100k_base'])\n"
        "except SystemExit as exit_:\n"
        "    assert exit_.code in (0, None), exit_.code\n"
        "print('typer._adapters' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], input="hello\n", capture_output=True, text=True, check=True
    )
    assert result.stdout.strip().splitlines()[-1] == "False"
    assert '"input_tokens": 2' in result.stdout
