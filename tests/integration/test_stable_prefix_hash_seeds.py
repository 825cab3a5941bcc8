"""A stable prefix is the same bytes in any process, whatever its hash seed (child processes,
so not a unit test)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from cleveragents.adapters.prefix_files.prefix_file_reader import PrefixFileReader
from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.application.services.prefixes.stable_prefix_builder import StablePrefixBuilder
from tests.conftest import REPO_ROOT, TEST_DATA

PREFIX_DATA = TEST_DATA / "prefix"


@pytest.fixture
def builder() -> StablePrefixBuilder:
    return StablePrefixBuilder(PatternSecretScanner())


_BUILD_IN_A_CHILD = """
import json, sys
from cleveragents.adapters.prefix_files.prefix_file_reader import PrefixFileReader
from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.application.services.prefixes.stable_prefix_builder import StablePrefixBuilder
path = sys.argv[1]
with open(path, encoding="utf-8") as handle:
    spec = PrefixFileReader().parse(handle.read(), source=path)
built = StablePrefixBuilder(PatternSecretScanner()).build(spec)
print(json.dumps({"sha256": built.sha256, "sections": [s.sha256 for s in built.sections],
                  "text": built.text}))
"""


@pytest.mark.slow
@pytest.mark.parametrize("name", ["prefix.yaml", "prefix.toml"])
def test_other_processes_with_other_hash_seeds_build_the_same_bytes(
    builder: StablePrefixBuilder, name: str
) -> None:
    path = PREFIX_DATA / name
    here = builder.build(
        PrefixFileReader().parse(path.read_text(encoding="utf-8"), source=str(path))
    )
    expected = {
        "sha256": here.sha256,
        "sections": [section.sha256 for section in here.sections],
        "text": here.text,
    }
    for seed in ("0", "1", "4242", "random"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        child = subprocess.run(
            [sys.executable, "-c", _BUILD_IN_A_CHILD, str(path)],
            capture_output=True,
            check=True,
            cwd=REPO_ROOT,
            env=env,
            text=True,
        )
        assert json.loads(child.stdout) == expected, f"PYTHONHASHSEED={seed}"
