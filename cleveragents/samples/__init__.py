"""Small excerpts of real public data that ship with the package, for `agents demo`.

README.md beside this file names each file's source and licence.
"""

from __future__ import annotations

from importlib import resources

LOG = "hadoop-mapreduce.log"
DIFF = "click-4ffa1ef3.diff"
API_RESPONSE = "github-repository.json"
SESSION = "claude-code-session.jsonl"


def read_sample(name: str) -> str:
    """The text of the packaged sample `name` (one of the names above), read from the
    installed package, wheel or source tree alike."""
    return resources.files(__name__).joinpath(name).read_text(encoding="utf-8")
