"""Small excerpts of real public data that ship with the package: the demo's input, and files to
try every command on (`agents samples --copy DIR` writes them out; `path(name)` finds one).

README.md beside this file names each file's source and licence.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from cleveragents.domain.errors import NotFoundError

LOG = "hadoop-mapreduce.log"
DIFF = "click-4ffa1ef3.diff"
API_RESPONSE = "github-repository.json"
SESSION = "claude-code-session.jsonl"
PLAN = "rust-rfc-2394-async-await.md"
SOURCE = "click-types.py"

SAMPLES: dict[str, str] = {
    LOG: "a Hadoop MapReduce log, 53 lines ending in ERROR and FATAL (logpai/loghub)",
    DIFF: "a commit of pallets/click as git format-patch prints it (BSD-3-Clause)",
    API_RESPONSE: "a GitHub API response: one repository (octokit/fixtures, MIT)",
    SESSION: "a Claude Code session of 45 messages, agent work on a task (marot/spotter, MIT)",
    PLAN: "a plan in markdown: Rust RFC 2394, async/await (rust-lang/rfcs, MIT or Apache-2.0)",
    SOURCE: "Python source: click's types.py, 1,422 lines (pallets/click, BSD-3-Clause)",
}
"""Each sample's file name and what it is, in the order they are listed."""


def path(name: str) -> Path:
    """The file of the packaged sample `name` (a key of `SAMPLES`), to open or copy.

    >>> import cleveragents.samples
    >>> cleveragents.samples.path("hadoop-mapreduce.log").read_text().count("ERROR") > 0
    True

    Raises `NotFoundError` for a name that is not a sample.
    """
    if name not in SAMPLES:
        raise NotFoundError(f"no sample named {name!r}; the samples: {', '.join(SAMPLES)}")
    found = resources.files(__name__).joinpath(name)
    # Installed from a wheel or a checkout, the package is a folder of plain files; only a
    # package imported from a zip archive has none, and none is needed for `read_sample`.
    if not isinstance(found, Path):
        raise NotFoundError(f"the samples are inside an archive ({found}), not on disk")
    return found


def read_sample(name: str) -> str:
    """The text of the packaged file `name` (a sample, or README.md), read from the installed
    package, wheel or source tree alike."""
    return resources.files(__name__).joinpath(name).read_text(encoding="utf-8")
