"""`agents --help` starts fast because heavy libraries are imported inside commands only, and a
command loads only the adapters it uses (what is imported is tested, not how long it takes)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

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


def _modules_loaded_by(args: list[str], prefixes: tuple[str, ...], tmp_path: Path) -> list[str]:
    """The modules under `prefixes` that running `agents ARGS` in a fresh interpreter loads."""
    probe = (
        "import sys\n"
        "from cleveragents.cli.main import main\n"
        "try:\n"
        f"    main({args!r})\n"
        "except SystemExit as exit_:\n"
        "    assert exit_.code in (0, None), exit_.code\n"
        f"print(sorted(m for m in sys.modules if m.startswith({prefixes!r})))\n"
    )
    env = dict(os.environ, CLEVERAGENTS_HOME=str(tmp_path / "home"))
    env.pop("CLEVERAGENTS_DATABASE_URL", None)
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=env
    )
    loaded: list[str] = ast.literal_eval(result.stdout.strip().splitlines()[-1])
    return loaded


# What `tokens count` must not load: the store, the grammars, the secret scanners.
NOT_FOR_COUNTING = (
    "sqlalchemy",
    "alembic",
    "tree_sitter",
    "detect_secrets",
    "cleveragents.adapters.persistence",
    "cleveragents.adapters.secrets",
    "cleveragents.adapters.source",
)
# Where the store would live is decided without SQLAlchemy, by these (the package's __init__ is
# a docstring): the tokenizer's cache sits under the home.
STORE_LOCATION = (
    "cleveragents.adapters.persistence",
    "cleveragents.adapters.persistence.locations",
)


def test_tokens_count_loads_only_the_tokenizer(tmp_path: Path) -> None:
    small = tmp_path / "small.txt"
    small.write_text("hello world\n")
    loaded = _modules_loaded_by(
        ["tokens", "count", str(small)], (*NOT_FOR_COUNTING, "tiktoken"), tmp_path
    )
    unwanted = [m for m in loaded if m.startswith(NOT_FOR_COUNTING) and m not in STORE_LOCATION]
    assert unwanted == []
    assert "tiktoken" in loaded  # the probe sees what the command does load


def test_project_list_loads_no_grammar_and_no_secret_scanner(tmp_path: Path) -> None:
    unused = ("tree_sitter", "detect_secrets", "cleveragents.adapters.secrets", "tiktoken")
    loaded = _modules_loaded_by(["project", "list"], (*unused, "sqlalchemy"), tmp_path)
    assert [m for m in loaded if m.startswith(unused)] == []
    assert "sqlalchemy" in loaded


def test_project_list_on_an_up_to_date_store_loads_no_alembic(tmp_path: Path) -> None:
    assert "alembic" in _modules_loaded_by(["db", "upgrade"], ("alembic",), tmp_path)
    loaded = _modules_loaded_by(["project", "list"], ("alembic", "sqlalchemy"), tmp_path)
    # A SQLite store at head is listed with the standard library's sqlite3 alone.
    assert [m for m in loaded if m.startswith(("alembic", "sqlalchemy"))] == []


def test_tokens_count_loads_neither_pydantic_nor_dependency_injector(tmp_path: Path) -> None:
    small = tmp_path / "small.txt"
    small.write_text("hello world\n")
    heavy = ("pydantic", "dependency_injector", "typer._adapters", "rich", "asyncio", "yaml")
    loaded = _modules_loaded_by(["tokens", "count", str(small)], (*heavy, "tiktoken"), tmp_path)
    assert "tiktoken" in loaded
    assert [m for m in loaded if m.startswith(heavy)] == []
