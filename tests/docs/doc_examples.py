"""The examples of README.md and docs/*.md, read by the convention docs/README.md describes.

- A ```console block holds commands (``$ `` lines; a line ending in ``\\`` goes on) and, after
  each, its expected output: stdout and stderr together, as a terminal shows them.
- ```python blocks are run (they must not fail); their output is not compared.
- ``<!-- docs-audit: file PATH -->`` before a block: its text is written to PATH before the
  page's examples run, instead of being run.
- ``<!-- docs-audit: run`` ... ``-->``: hidden shell set-up, run where it stands.
- ``<!-- docs-audit: skip REASON -->`` before a block: not run (the test lists every skip).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

FENCE = re.compile(r"^```(\w*)\s*$")
MARKER = re.compile(r"^<!-- docs-audit: (file|skip|run)\b ?(.*?)\s*(-->)?$")


@dataclass(frozen=True)
class Command:
    line: int
    text: str
    expected: str


@dataclass
class Step:
    """One thing a page's session does, in page order."""

    kind: str  # "console", "python", "run"
    line: int
    commands: list[Command] = field(default_factory=list)
    code: str = ""


@dataclass
class Page:
    path: Path
    steps: list[Step] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)


def read_page(path: Path, root: Path) -> Page:
    page = Page(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    pending: tuple[str, str] | None = None
    index = 0
    while index < len(lines):
        marker = MARKER.match(lines[index])
        if marker and marker.group(1) == "run":
            end = index + 1
            while lines[end].strip() != "-->":
                end += 1
            code = "\n".join(lines[index + 1 : end])
            page.steps.append(Step("run", index + 1, code=code))
            index = end + 1
            continue
        if marker:
            pending = (marker.group(1), marker.group(2))
            index += 1
            continue
        fence = FENCE.match(lines[index])
        if not fence or not fence.group(1):
            index += 1
            continue
        start = index + 1
        end = start
        while not lines[end].startswith("```"):
            end += 1
        body = lines[start:end]
        where = f"{path.relative_to(root)}:{index + 1}"
        if pending and pending[0] == "file":
            page.files[pending[1]] = "\n".join(body) + "\n"
        elif pending and pending[0] == "skip":
            page.skipped.append(f"{where} ({pending[1]})")
        elif fence.group(1) == "console":
            page.steps.append(Step("console", index + 1, commands=_commands(body, start + 1)))
        elif fence.group(1) == "python":
            page.steps.append(Step("python", index + 1, code="\n".join(body) + "\n"))
        pending = None
        index = end + 1
    return page


def _commands(body: list[str], first_line: int) -> list[Command]:
    commands: list[Command] = []
    index = 0
    while index < len(body):
        if not body[index].startswith("$ "):
            raise ValueError(f"line {first_line + index}: output before any `$ ` command")
        line = first_line + index
        text = body[index][2:]
        while text.endswith("\\") and index + 1 < len(body):
            index += 1
            text += "\n" + body[index]
        index += 1
        output: list[str] = []
        while index < len(body) and not body[index].startswith("$ "):
            output.append(body[index])
            index += 1
        commands.append(Command(line, text, "\n".join(output)))
    return commands


# Volatile parts, replaced on both sides before comparing.
ULID = re.compile(r"\b[0-7][0-9A-HJKMNP-TV-Z]{25}\b")
TIMESTAMP = re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(\+00:00|Z)?")
MKTEMP = re.compile(r"\btmp\.[A-Za-z0-9]{10}\b")
TEMP_REFERENCE = re.compile(r"\btmpref_[0-9a-f]{16}\.[A-Za-z0-9_-]+")
TEMP_OUTPUT_DIR = re.compile(r"/temp/[0-9a-f]{16}/")


def normalise(text: str) -> str:
    text = ULID.sub("<ULID>", text)
    text = TIMESTAMP.sub("<TIME>", text)
    text = MKTEMP.sub("tmp.XXXXXXXXXX", text)
    text = TEMP_REFERENCE.sub("tmpref_<REF>", text)
    text = TEMP_OUTPUT_DIR.sub("/temp/<DIR>/", text)
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def matches(expected: str, actual: str) -> bool:
    """`actual` is `expected`, where each ``…`` of `expected` stands for any text (lines too)."""
    parts = [re.escape(part) for part in normalise(expected).split("…")]
    return re.fullmatch(".*?".join(parts), normalise(actual), re.DOTALL) is not None
