"""`agents artifact compress PATH --store` opens the file twice (to compress it, then to import
it). Whatever happens to the file in between, every answer is a compression or the documented
not-found answer: the not-found JSON on stdout, `error: artifact not found at WORKDIR/PATH` on
stderr, exit 2; never the store's own refusal with an empty stdout."""

from __future__ import annotations

import os
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cleveragents.application.services.artifact_store.artifact_store import ArtifactStore
from tests.e2e.cli_runner import Result, run

TEXT = "GET /health 200\nGET /login 500 timeout\n" * 40
RACE_RUNS = 120


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "real.log").write_text(TEXT)
    (folder / "build.log").write_text(TEXT)
    return folder


def _compress(capsys: pytest.CaptureFixture[str], workdir: Path) -> Result:
    return run(
        capsys,
        "artifact",
        "compress",
        "build.log",
        "--store",
        "--budget",
        "60",
        "--workdir",
        str(workdir),
    )


def _kind_of(result: Result, workdir: Path) -> str:
    """'compressed' or 'not found'; anything else fails the test with what was printed."""
    location = f"{os.path.realpath(workdir)}/build.log"
    answer: dict[str, Any] = result.json()  # stdout is JSON in every case
    if result.exit_code == 0:
        assert answer["artifact_name"] == "build.log"
        assert answer["compacted_tokens"] <= 60
        return "compressed"
    assert result.exit_code == 2, result.stderr
    assert answer == {
        "artifact_name": "build.log",
        "raw_tokens": 0,
        "compacted_tokens": 0,
        "truncated": True,
        "content": f"[ERROR: artifact not found at {location}]",
    }
    assert result.stderr.splitlines() == [f"error: artifact not found at {location}"]
    return "not found"


def _symlink_swap(workdir: Path) -> None:
    os.symlink("real.log", workdir / ".swap")
    os.replace(workdir / ".swap", workdir / "build.log")


def _fifo_swap(workdir: Path) -> None:
    os.mkfifo(workdir / ".swap")
    os.replace(workdir / ".swap", workdir / "build.log")


def _removal(workdir: Path) -> None:
    (workdir / "build.log").unlink()


@pytest.mark.parametrize(
    "swap", [_symlink_swap, _fifo_swap, _removal], ids=["symlink", "fifo", "removed"]
)
def test_a_file_changed_between_the_two_opens_gets_the_not_found_answer(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    workdir: Path,
    monkeypatch: pytest.MonkeyPatch,
    swap: Callable[[Path], None],
) -> None:
    import_file = ArtifactStore.import_file

    def swapped_first(store: ArtifactStore, *args: Any, **kwargs: Any) -> Any:
        swap(workdir)  # after the first open, before the store opens it again
        return import_file(store, *args, **kwargs)

    monkeypatch.setattr(ArtifactStore, "import_file", swapped_first)
    assert _kind_of(_compress(capsys, workdir), workdir) == "not found"


class _Swapper:
    """A thread replacing build.log by a regular file and by a symlink, in turn, atomically."""

    def __init__(self, workdir: Path) -> None:
        self._workdir = workdir
        self._stop = threading.Event()
        self.swaps = 0
        self._thread = threading.Thread(target=self._run)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            staged = self._workdir / f".staged-{self.swaps}"
            if self.swaps % 2:
                os.symlink("real.log", staged)
            else:
                staged.write_text(TEXT)
            os.replace(staged, self._workdir / "build.log")
            self.swaps += 1

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.swaps


@pytest.fixture
def swapper(workdir: Path) -> Iterator[_Swapper]:
    racing = _Swapper(workdir)
    yield racing
    racing.stop()


@pytest.mark.slow
def test_under_a_file_symlink_race_every_answer_is_a_compression_or_not_found(
    capsys: pytest.CaptureFixture[str], home: Path, workdir: Path, swapper: _Swapper
) -> None:
    kinds = Counter(_kind_of(_compress(capsys, workdir), workdir) for _ in range(RACE_RUNS))
    assert swapper.stop() > 0
    assert sum(kinds.values()) == RACE_RUNS
