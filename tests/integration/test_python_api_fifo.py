"""`cleveragents.compress(Path)` on a FIFO nobody writes to answers at once: its kind sniffing
opens without blocking and reads only a regular file, and the compression refuses the FIFO."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

_PROBE = """
import sys
from pathlib import Path
import cleveragents
from cleveragents.domain.errors import CleverAgentsError
try:
    cleveragents.compress(Path(sys.argv[1]), 100)
except CleverAgentsError as error:
    print(type(error).__name__)
"""


def test_compress_of_a_fifo_without_a_writer_is_refused_without_hanging(tmp_path: Path) -> None:
    fifo = tmp_path / "build.log"
    os.mkfifo(fifo)
    # The timeout only catches a hang (the open used to block forever); it is no speed test.
    finished = subprocess.run(
        [sys.executable, "-c", _PROBE, str(fifo)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.strip() in {"InvalidInputError", "NotFoundError"}
