"""`agents --help` starts fast because heavy libraries are imported inside commands only."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("sqlalchemy", "alembic", "tiktoken", "pydantic", "dependency_injector")


def test_help_imports_no_heavy_library() -> None:
    probe = (
        "import sys\n"
        "from cleveragents.cli.main import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit as exit_:\n"
        "    assert exit_.code in (0, None), exit_.code\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip().splitlines()[-1] == "[]"
    assert "Usage" in result.stdout


def test_module_entry_point_runs() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cleveragents.cli", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.startswith("agents ")
