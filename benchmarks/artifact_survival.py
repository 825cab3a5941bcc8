"""Benchmark: what matters in an artifact that survives compression (SPEC C4, issue 13).

Every corpus file (logs, diffs, JSON, markdown, code; transcripts are not artifacts) and ten
generated logs in the formats the corpus lacks (benchmarks/generated_logs.py) are compressed
to 1/1.2, 1/2, 1/5 and 1/20 of their raw token count by four methods, side by side on the same
input in the same run:

* ``tiered``: the service in tiered mode;
* ``smart``: the service in smart mode;
* ``smart+task``: smart mode with a task written by a rule of this benchmark from the file's own
  content (for a log the component named in its last error, for a diff a function it changes,
  for JSON a key, for markdown a heading word, for code a function name);
* ``head+tail``: this benchmark's baseline, the first and last whole lines of the file that fit
  the budget, half of it each (the tail takes what the head leaves), counted with the same
  tokenizer.

"What matters" is found in the original by rules of this benchmark's own, independent of the
product's classifiers, and an item survives when it is in the output verbatim:

* logs: each file's format is recognised from its first lines by this benchmark's own line
  patterns, and each line's level read where that format writes it (logcat's one letter, a
  level column, nginx's and Apache's ``[warn]``, or, for formats without one, a level word in
  the message: syslog's ``error:``, Proxifier's and HPC's ``error :``). A template is a line's
  level class, component and message with every token holding a digit masked; a template is
  represented when an output line has it. Also: the severity lines kept, and the last error
  line kept;
* diffs: every changed file's path named, hunk headers and changed ``def``/``class`` lines of
  Python files as whole lines;
* JSON: whether the output parses, and the key paths (``[].owner.login``) seen in it by a
  lenient scanner (so a cut document still shows the paths it kept);
* markdown: headings (outside code fences), requirement sentences (RFC 2119's words; the corpus
  RFCs write them lower-case; a contents entry, a link alone, is none), and the first sentence
  of every plain paragraph, as whitespace-normalised text (sentences under 12 characters stand
  for nothing and are left out);
* code: every ``class``/``def`` line at any depth, from ``ast``, modulo surrounding whitespace;
* every type: the task items, lines that name the task's term (for JSON, the term's key).

Priority is checked as order: a diff keeps every file and hunk header before any changed
def/class line, and those before any other changed line; markdown keeps headings before
requirement sentences before first sentences before other sentences; code keeps every signature
before any body line. An output holds the order when, for each tier, it keeps the tier whole or
nothing of the tiers after it. Diff headers and code signatures must be kept whole wherever they
take at most 90% of the budget (the rest is room for the marks of what was left out); JSON must
parse wherever the budget holds its skeleton (every key path once, leaves null, compact).

Each output is counted with the real tokenizer and checked against its budget; the share of the
budget it uses is shown beside the survival. (Encode time per type at 1 MB and 10 MB is the
``artifacts`` benchmark's.)
"""

from __future__ import annotations

import ast
import json
import re
import tempfile
import time
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path
from statistics import mean
from typing import Any, Protocol

from benchmarks.generated_logs import generate_all
from benchmarks.report import Result, print_line, print_section
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.artifact_compressor import (
    ArtifactCompressorService,
)
from cleveragents.container import build_container
from cleveragents.domain.artifact import CompressionMode

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
CORPUS_TYPES = (
    ("log", "logs", "*.log"),
    ("diff", "diffs", "*.diff"),
    ("json", "json", "*.json"),
    ("markdown", "markdown", "*.md"),
    ("code", "code", "*.py"),
)
RATIOS = (1.2, 2.0, 5.0, 20.0)
METHODS = ("tiered", "smart", "smart+task", "head+tail")
SMART_METHODS = ("smart", "smart+task")

BUDGET_USE_TARGET = 0.85
TEMPLATE_TARGET = 90.0
TEMPLATE_RATIO = 20.0
# Headers or signatures must be kept whole when they take at most this share of the budget
# (the rest leaves room for the marks that say what was left out).
FIT_SHARE = 0.9


# --- counting -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Count:
    """How many of an input's items an output kept."""

    kept: int
    total: int

    @property
    def pct(self) -> float | None:
        return 100 * self.kept / self.total if self.total else None

    @property
    def whole(self) -> bool:
        return self.kept == self.total


def _kept(items: Iterable[str], found: set[str]) -> Count:
    distinct = set(items)
    return Count(len(distinct & found), len(distinct))


def _lines(text: str) -> set[str]:
    return {line.rstrip("\r") for line in text.splitlines()}


def _stripped(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines()}


def _names(term: str) -> re.Pattern[str]:
    """The term as a whole word (a dotted name counts whole: ``a.b`` is not in ``a.bc``)."""
    return re.compile(rf"(?<![\w.$]){re.escape(term)}(?![\w$])")


def _term_lines(text: str, term: str, strip: bool = False) -> list[str]:
    pattern = _names(term)
    lines = (line.strip() if strip else line.rstrip("\r") for line in text.splitlines())
    return [line for line in lines if line and pattern.search(line)]


@dataclass(frozen=True)
class Metric:
    """A figure of the table: `key` in the scores, how its files add up (mean % or n/N)."""

    key: str
    label: str
    summed: bool = False


class Matters(Protocol):
    """What matters in one input, by this benchmark's rules, and how much an output kept."""

    metrics: tuple[Metric, ...]
    tiers: tuple[tuple[str, ...], ...]
    term: str
    task: str

    def score(self, content: str) -> dict[str, Count]: ...

    def holds(self, budget: int) -> bool:
        """Whether `budget` holds what must then be kept whole (see the targets)."""
        ...


def _order_held(tiers: tuple[tuple[str, ...], ...], scores: dict[str, Count]) -> bool | None:
    """Whether each tier is kept whole, or nothing of the tiers after it is kept."""
    if len(tiers) < 2:
        return None
    for index, tier in enumerate(tiers[:-1]):
        whole = all(scores[key].whole for key in tier)
        later = any(scores[key].kept for rest in tiers[index + 1 :] for key in rest)
        if not whole and later:
            return False
    return True


# --- logs ---------------------------------------------------------------------------------

ERROR_LEVELS = frozenset(
    {"e", "f", "a", "error", "err", "fatal", "severe", "critical", "crit", "alert", "emerg"}
    | {"failure", "panic"}
)
WARNING_LEVELS = frozenset({"w", "warn", "warning"})
_LEVELS = r"TRACE|DEBUG|INFO|NOTICE|WARN(?:ING)?|ERROR|FATAL|SEVERE|CRITICAL|FAILURE"
# A token holding a digit, or a run of 8+ hex letters (an id that happens to have no digit).
_DIGIT_TOKEN = re.compile(r"\S*\d\S*|\S*\b[0-9a-fA-F]{8,}\b\S*")


def _mask(text: str) -> str:
    return _DIGIT_TOKEN.sub("<*>", text.strip())


@dataclass(frozen=True)
class Entry:
    """A log line as this benchmark reads it: level class (or None), component, message."""

    severity: str | None
    component: str
    message: str

    @property
    def template(self) -> tuple[str | None, str, str]:
        return self.severity, _mask(self.component), _mask(self.message)


def _severity(level: str) -> str | None:
    word = level.lower()
    if word in ERROR_LEVELS:
        return "error"
    return "warning" if word in WARNING_LEVELS else None


# Java-style lines after their level: ``[thread] logger: msg``, ``[thread] logger - msg``,
# Zookeeper's ``[thread:Class@line] - msg`` and Spark's or HDFS's ``logger: msg``.
_ZOOKEEPER_REST = re.compile(r"^\[(?P<thread>[^\]]*)\]\s+-\s+(?P<msg>.*)$")
_ZOOKEEPER_CLASS = re.compile(r"([A-Za-z]\w*)(?:\$\w+)?@\d+")
_LOGGER_REST = re.compile(r"^(?:\[[^\]]*\]\s+)?(?P<component>[\w.$\[\]/]+?)(?::| -)\s+(?P<msg>.*)$")


def _java_rest(rest: str) -> tuple[str, str]:
    if match := _ZOOKEEPER_REST.match(rest):
        found = _ZOOKEEPER_CLASS.findall(match["thread"])
        return (found[-1] if found else match["thread"]), match["msg"]
    if match := _LOGGER_REST.match(rest):
        return match["component"], match["msg"]
    return "", rest


@dataclass(frozen=True)
class LogRule:
    """One log format as this benchmark reads it.

    `line` matches the format's lines, with ``level`` (where the format has a level field),
    ``component`` and ``msg`` groups, or ``rest`` for Java-style lines; `keyword` finds the
    level word in the message of a format that has no level field.
    """

    name: str
    line: re.Pattern[str]
    keyword: re.Pattern[str] | None = None

    def parse(self, line: str) -> Entry | None:
        match = self.line.match(line)
        if match is None:
            return None
        groups = match.groupdict()
        if groups.get("rest") is not None:
            component, message = _java_rest(groups["rest"])
        else:
            component, message = groups.get("component") or "", groups["msg"]
        if self.keyword is None:
            return Entry(_severity(groups["level"]), component, message)
        found = self.keyword.search(message)
        return Entry(_severity(found["level"]) if found else None, component, message)


LOG_RULES = (
    LogRule(
        "logcat",
        re.compile(
            r"^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\s+\d+\s+\d+ (?P<level>[VDIWEFA]) "
            r"(?P<component>[^:]*?)\s*: (?P<msg>.*)$"
        ),
    ),
    LogRule(
        "openstack",
        re.compile(
            rf"^\S+\.log\S* \d{{4}}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ \d+ (?P<level>{_LEVELS}) "
            r"(?P<component>\S+) (?P<msg>.*)$"
        ),
    ),
    LogRule(
        "python-logging",
        re.compile(
            r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} - (?P<component>\S+) - "
            rf"(?P<level>{_LEVELS}) - (?P<msg>.*)$"
        ),
    ),
    LogRule(
        "windows-cbs",
        re.compile(
            r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d, (?P<level>Info|Warning|Error|Fatal)\s+"
            r"(?P<component>\S+)\s+(?P<msg>.*)$"
        ),
    ),
    LogRule(
        "bgl",
        re.compile(
            r"^\S+ \d+ \d{4}\.\d\d\.\d\d \S+ \d{4}-\d\d-\d\d-\d\d\.\d\d\.\d\d\.\d+ \S+ RAS "
            rf"(?P<component>\S+) (?P<level>{_LEVELS}) (?P<msg>.*)$"
        ),
    ),
    LogRule(
        "nginx",
        re.compile(
            r"^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d \[(?P<level>\w+)\] \d+#\d+: (?:\*\d+ )?(?P<msg>.*)$"
        ),
    ),
    LogRule(
        "apache",
        re.compile(
            r"^\[\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)? \d{4}\] "
            r"\[(?:[\w.-]+:)?(?P<level>\w+)\] (?P<msg>.*)$"
        ),
    ),
    LogRule(
        "hpc",
        re.compile(r"^\d+ \S+ (?P<component>\S+) \S+ \d{9,10} \d+ (?P<msg>.*)$"),
        re.compile(r"\b(?P<level>error|warning)\s*:"),
    ),
    LogRule(
        "proxifier",
        re.compile(r"^\[\d\d\.\d\d \d\d:\d\d:\d\d\] (?P<component>\S+) - (?P<msg>.*)$"),
        re.compile(r"(?<!\S)(?P<level>error|warning) : "),
    ),
    LogRule(
        "java",
        re.compile(
            r"^(?:\d{4}-\d\d-\d\d[ T]|\d\d/\d\d/\d\d |\d{6} )[\d:,. ]*?(?:- )?"
            rf"(?P<level>{_LEVELS})\s+(?P<rest>.*)$"
        ),
    ),
    LogRule(
        "syslog",
        re.compile(
            r"^[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \S+ (?P<component>[^\s\[:]+)(?:\[\d+\])?: "
            r"(?P<msg>.*)$"
        ),
        re.compile(r"(?i)\b(?P<level>error|fatal|warning|critical|panic)\b"),
    ),
)
SNIFF_LINES = 200


def log_rule(text: str) -> LogRule | None:
    """The rule that matches most of the first lines (the first listed on a tie)."""
    head = text.splitlines()[:SNIFF_LINES]
    scores = [(sum(rule.line.match(line) is not None for line in head), rule) for rule in LOG_RULES]
    best, rule = max(scores, key=lambda pair: pair[0])
    return rule if best else None


_WORD = re.compile(r"[A-Za-z_][\w.$-]*[A-Za-z]")
_GENERIC = frozenset(
    {"error", "errors", "warning", "failed", "failure", "fatal", "exception", "from", "with"}
    | {"while", "when", "that", "this", "into", "there", "could", "cannot", "unable", "after"}
)


def log_task_term(lines: list[str], entries: list[Entry | None]) -> str:
    """The component named in the last error (the last warning if no error): or, when it names
    more than a tenth of the lines (or none but its own), the word of that line's message that
    names the most lines within a tenth."""
    severe = [e for e in entries if e is not None and e.severity is not None]
    errors = [e for e in severe if e.severity == "error"]
    last = errors[-1] if errors else (severe[-1] if severe else None)
    if last is None:
        return ""

    def naming(term: str) -> int:
        pattern = _names(term)
        return sum(1 for line in lines if pattern.search(line))

    limit = max(len(lines) // 10, 2)
    if last.component and 2 <= naming(last.component) <= limit:
        return last.component
    words = [
        str(w) for w in _WORD.findall(last.message) if len(w) >= 4 and w.lower() not in _GENERIC
    ]
    counted = [(naming(word), word) for word in dict.fromkeys(words)]
    eligible = [(n, word) for n, word in counted if 2 <= n <= limit]
    if eligible:
        return max(eligible, key=lambda pair: pair[0])[1]
    return last.component or (words[0] if words else "")


class LogMatters:
    """Error and warning templates, severity lines and the last error of one log."""

    metrics: tuple[Metric, ...] = (
        Metric("templates", "error+warning templates %"),
        Metric("severity", "severity lines kept %"),
        Metric("last_error", "last error kept", summed=True),
        Metric("task", "task lines kept %"),
    )
    tiers: tuple[tuple[str, ...], ...] = ()

    def __init__(self, text: str) -> None:
        self.rule = log_rule(text)
        lines = [line.rstrip("\r") for line in text.splitlines()]
        entries = [self.rule.parse(line) if self.rule else None for line in lines]
        severe = [(line, e) for line, e in zip(lines, entries, strict=True) if e and e.severity]
        self.severity_lines = [line for line, _ in severe]
        self.templates = {e.template for _, e in severe}
        errors = [line for line, e in severe if e.severity == "error"]
        self.last_error = errors[-1] if errors else None
        self.term = log_task_term(lines, entries)
        self.task = f"why does {self.term} fail"
        self.term_lines = _term_lines(text, self.term) if self.term else []

    def holds(self, budget: int) -> bool:
        return False

    def score(self, content: str) -> dict[str, Count]:
        kept = _lines(content)
        seen = set()
        if self.rule is not None:
            for line in kept:
                entry = self.rule.parse(line)
                if entry is not None and entry.severity:
                    seen.add(entry.template)
        last = Count(int(self.last_error in kept), 1) if self.last_error else Count(0, 0)
        return {
            "templates": Count(len(self.templates & seen), len(self.templates)),
            "severity": _kept(self.severity_lines, kept),
            "last_error": last,
            "task": _kept(self.term_lines, kept),
        }


# --- diffs --------------------------------------------------------------------------------

_DIFF_PATH = re.compile(r"^diff --git a/\S+ b/(\S+)")
_CHANGED_DEF = re.compile(r"^[+-]\s*(?:async\s+def|def|class)\s+(\w+)")
_HUNK_CONTEXT_DEF = re.compile(r"^@@ [^@]* @@\s*(?:async\s+def|def|class)\s+(\w+)")
DISTINCT_BODY = 12


class DiffMatters:
    """Changed files, hunk headers and changed def/class lines of one diff."""

    metrics: tuple[Metric, ...] = (
        Metric("files", "files named %"),
        Metric("hunks", "hunk headers %"),
        Metric("defs", "changed def/class %"),
        Metric("task", "task lines kept %"),
    )
    tiers: tuple[tuple[str, ...], ...] = (("files", "hunks"), ("defs",), ("body",))

    def __init__(self, text: str, counter: TokenCounter) -> None:
        self.paths: list[str] = []
        self.hunks: list[str] = []
        headers: list[str] = []
        self.defs: list[str] = []
        body: list[str] = []
        python = False
        for raw in text.splitlines():
            line = raw.rstrip("\r")
            if match := _DIFF_PATH.match(line):
                self.paths.append(match[1])
                headers.append(line)
                python = match[1].endswith((".py", ".pyi"))
            elif line.startswith("@@"):
                self.hunks.append(line)
            elif line.startswith(("+++ ", "--- ")):
                continue
            elif python and _CHANGED_DEF.match(line):
                self.defs.append(line)
            elif line[:1] in "+-" and len(line.strip("+- \t")) >= DISTINCT_BODY:
                body.append(line)
        # Only lines found once stand for themselves (a "+    return x" may be anywhere).
        counts = Counter(body)
        self.body = [line for line in body if counts[line] == 1]
        self.header_tokens = counter.count("\n".join(headers + self.hunks))
        self.term = self._term(text)
        self.task = f"review the change to {self.term}"
        self.term_lines = _term_lines(text, self.term)

    def holds(self, budget: int) -> bool:
        """Whether the file headers and hunk headers fit the budget."""
        return self.header_tokens <= FIT_SHARE * budget

    def _term(self, text: str) -> str:
        """The first def/class a changed line names, else one a hunk header names, else the
        first file's name."""
        for match in map(_CHANGED_DEF.match, self.defs):
            if match:
                return match[1]
        for match in map(_HUNK_CONTEXT_DEF.match, self.hunks):
            if match:
                return match[1]
        return Path(self.paths[0]).stem if self.paths else text.split(maxsplit=1)[0]

    def score(self, content: str) -> dict[str, Count]:
        kept = _lines(content)
        named = {path for path in self.paths if path in content}
        return {
            "files": _kept(self.paths, named),
            "hunks": _kept(self.hunks, kept),
            "defs": _kept(self.defs, kept),
            "body": _kept(self.body, kept),
            "task": _kept(self.term_lines, kept),
        }


# --- JSON ---------------------------------------------------------------------------------

_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]')


def json_key_paths(text: str) -> list[str]:
    """Every key path in `text`, in document order (``[]`` for an array), read leniently: a
    cut or annotated document still yields the paths it holds."""
    paths: list[str] = []
    stack: list[list[str | None]] = []  # [opener, current key]
    last_string: str | None = None
    for match in _JSON_TOKEN.finditer(text):
        token = match.group()
        if token in "{[":
            stack.append([token, None])
        elif token in "}]":
            if stack:
                stack.pop()
        elif token == ":":
            if last_string is not None and stack and stack[-1][0] == "{":
                stack[-1][1] = last_string
                paths.append(".".join("[]" if s[0] == "[" else str(s[1]) for s in stack))
        elif token == ",":
            if stack and stack[-1][0] == "{":
                stack[-1][1] = None
        else:
            try:
                last_string = str(json.loads(token))
            except ValueError:
                last_string = None
            continue
        last_string = None
    return paths


def json_skeleton(value: Any) -> Any:
    """Every key path once, leaves null: the least a budget must hold to keep the document's
    shape (the items of an array merged into one)."""
    if isinstance(value, dict):
        return {key: json_skeleton(item) for key, item in value.items()}
    if isinstance(value, list):
        merged: Any = None
        for item in value:
            merged = _merge(merged, json_skeleton(item))
        return [] if merged is None else [merged]
    return None


def _merge(left: Any, right: Any) -> Any:
    if isinstance(left, dict) and isinstance(right, dict):
        out = dict(left)
        for key, item in right.items():
            out[key] = _merge(out.get(key), item)
        return out
    if isinstance(left, list) and isinstance(right, list):
        return [_merge(left[0] if left else None, right[0] if right else None)]
    return right if left is None else left


def _parses(content: str) -> bool:
    try:
        json.loads(content)
    except ValueError:
        return False
    return True


class JsonMatters:
    """Whether an output of one JSON document parses, and the key paths it keeps."""

    metrics: tuple[Metric, ...] = (
        Metric("parses", "parses", summed=True),
        Metric("paths", "key paths kept %"),
        Metric("task", "task key kept %"),
    )
    tiers: tuple[tuple[str, ...], ...] = ()

    def __init__(self, text: str, counter: TokenCounter) -> None:
        ordered = json_key_paths(text)
        self.paths = set(ordered)
        skeleton = json.dumps(json_skeleton(json.loads(text)), separators=(",", ":"))
        self.skeleton_tokens = counter.count(skeleton)
        # The key at the deepest path, first in document order.
        self.term = max(ordered, key=lambda path: path.count(".")).rsplit(".", 1)[-1]
        self.task = f"what is the {self.term} of each item"
        self.term_key = re.compile(rf"{re.escape(json.dumps(self.term))}\s*:")
        self.term_total = len(self.term_key.findall(text))

    def holds(self, budget: int) -> bool:
        """Whether the budget holds the document's skeleton (then the output must parse)."""
        return budget >= self.skeleton_tokens

    def score(self, content: str) -> dict[str, Count]:
        found = len(self.term_key.findall(content))
        return {
            "parses": Count(int(_parses(content)), 1),
            "paths": _kept(self.paths, set(json_key_paths(content))),
            "task": Count(min(found, self.term_total), self.term_total),
        }


# --- markdown -----------------------------------------------------------------------------

_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}(\s+\S|\s*$)")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_NOT_PROSE = re.compile(r"^\s*(?:\||>|<|    |\t|\[[^\]]*\]:)")
# The end of a sentence: . ! or ? with any closing marks and footnote reference (``.[^1]``).
_SENTENCE_END = re.compile(r"[.!?][)\]\"'*_]*(?:\[\^[^\]\s]+\])?\s+(?=[A-Z0-9`*_\[(\"'])")
_LINK_ONLY = re.compile(r"^\[[^\]]*\]\([^)]*\)$")
_REQUIREMENT = re.compile(r"(?i)\b(?:must|shall|should|required|recommended)\b")
_HEADING_WORD = re.compile(r"[A-Za-z][a-z]{5,}")
_HEADING_STOP = frozenset({"summary", "motivation", "alternatives", "drawbacks", "questions"})


def _normal(text: str) -> str:
    return " ".join(text.split())


Block = list[tuple[int, str]]  # (line number, text) of each source line


def sentences(block: Block) -> list[tuple[str, frozenset[int]]]:
    """The sentences of a block, whitespace-normalised, each with the source lines it spans: a
    sentence ends at . ! or ? (and a closing bracket, quote or footnote reference) before a
    capital, a digit or an opening mark."""
    parts = [_normal(text) for _, text in block]
    starts = list(accumulate((len(part) + 1 for part in parts[:-1]), initial=0))
    joined = " ".join(parts)
    cuts = [match.end() for match in _SENTENCE_END.finditer(joined)]
    found = []
    for begin, end in zip([0, *cuts], [*cuts, len(joined)], strict=True):
        sentence = joined[begin:end].strip()
        if sentence:
            first = bisect_right(starts, begin) - 1
            last = bisect_right(starts, max(begin, end - 2)) - 1
            found.append((sentence, frozenset(block[i][0] for i in range(first, last + 1))))
    return found


def markdown_blocks(text: str) -> Iterator[tuple[str, Block]]:
    """(kind, lines) of each heading, plain paragraph and list item outside code fences."""
    fenced = False
    block: Block = []
    kind = ""

    def flush() -> Iterator[tuple[str, Block]]:
        if block:
            yield kind, list(block)
        block.clear()

    for number, raw in enumerate(text.splitlines()):
        line = raw.rstrip("\r")
        if _FENCE.match(line):
            yield from flush()
            fenced = not fenced
        elif fenced:
            continue
        elif not line.strip() or _NOT_PROSE.match(line):
            yield from flush()
        elif _HEADING.match(line):
            yield from flush()
            yield "heading", [(number, line)]
        elif match := _LIST_ITEM.match(line):
            yield from flush()
            kind = "item"
            block.append((number, line[match.end() :]))
        else:
            if not block:
                kind = "paragraph"
            block.append((number, line))
    yield from flush()


def _apart(items: list[tuple[str, frozenset[int]]], taken: set[int]) -> list[str]:
    """The items on no line of `taken` (one kept with such a line may have come with it). A
    sentence written twice ("For example:") is found by its text, which cannot tell the two
    apart: it is left out when either is on such a line."""
    shared = {sentence for sentence, lines in items if lines & taken}
    return [sentence for sentence, lines in items if not lines & taken and sentence not in shared]


class MarkdownMatters:
    """Headings, requirement sentences and first sentences of one markdown document.

    The order is checked on sentences that share no source line with a sentence of an earlier
    tier: keeping a whole line keeps all its sentences, and that breaks no order.
    """

    metrics: tuple[Metric, ...] = (
        Metric("headings", "headings %"),
        Metric("requirements", "requirement sentences %"),
        Metric("first", "first sentences %"),
        Metric("task", "task lines kept %"),
    )
    tiers: tuple[tuple[str, ...], ...] = (
        ("headings",),
        ("requirements",),
        ("first_apart",),
        ("rest_apart",),
    )

    def __init__(self, text: str) -> None:
        self.headings: list[str] = []
        requirements: list[tuple[str, frozenset[int]]] = []
        first: list[tuple[str, frozenset[int]]] = []
        rest: list[tuple[str, frozenset[int]]] = []
        for kind, block in markdown_blocks(text):
            if kind == "heading":
                self.headings.append(block[0][1])
                continue
            for index, item in enumerate(sentences(block)):
                if len(item[0]) < DISTINCT_BODY or _LINK_ONLY.match(item[0]):
                    continue  # "See below." may be anywhere; a contents entry is a link
                if _REQUIREMENT.search(item[0]):
                    requirements.append(item)
                elif index == 0:  # of a paragraph or of a list item
                    first.append(item)
                else:
                    rest.append(item)
        self.requirements = [sentence for sentence, _ in requirements]
        self.first = [sentence for sentence, _ in first]
        required_lines = {n for _, lines in requirements for n in lines}
        first_lines = {n for _, lines in first for n in lines}
        self.first_apart = _apart(first, required_lines)
        self.rest_apart = _apart(rest, required_lines | first_lines)
        self.term = self._term()
        self.task = f"what does it say about {self.term}"
        self.term_lines = _term_lines(text, self.term)

    def holds(self, budget: int) -> bool:
        return False

    def _term(self) -> str:
        """The word (6+ letters) in most headings, the first seen on a tie."""
        counts: Counter[str] = Counter()
        for heading in self.headings:
            words = {w.lower() for w in _HEADING_WORD.findall(heading)} - _HEADING_STOP
            counts.update(words)
        return counts.most_common(1)[0][0] if counts else "the"

    def score(self, content: str) -> dict[str, Count]:
        kept = _lines(content)
        # A sentence is looked for in the prose: "Decisions made internally" as a list item is
        # not kept by its heading's "### Decisions made internally".
        prose = (line for line in content.splitlines() if not _HEADING.match(line))
        normal = _normal("\n".join(prose))

        def found(sentences: list[str]) -> Count:
            return _kept(sentences, {s for s in set(sentences) if s in normal})

        return {
            "headings": _kept(self.headings, kept),
            "requirements": found(self.requirements),
            "first": found(self.first),
            "first_apart": found(self.first_apart),
            "rest_apart": found(self.rest_apart),
            "task": _kept(self.term_lines, kept),
        }


# --- code ---------------------------------------------------------------------------------

_SIGNATURE = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _docstring_lines(node: ast.AST) -> range:
    body = getattr(node, "body", [])
    first = body[0] if body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return range(first.lineno, (first.end_lineno or first.lineno) + 1)
    return range(0)


class CodeMatters:
    """Every class and def line of one Python module, nested ones included."""

    metrics: tuple[Metric, ...] = (
        Metric("signatures", "signatures % (nested incl.)"),
        Metric("task", "task lines kept %"),
    )
    tiers: tuple[tuple[str, ...], ...] = (("signatures",), ("body",))

    def __init__(self, text: str, counter: TokenCounter) -> None:
        lines = text.splitlines()
        nodes = [node for node in ast.walk(ast.parse(text)) if isinstance(node, _SIGNATURE)]
        self.signatures = [lines[node.lineno - 1].strip() for node in nodes]
        headers: set[int] = set()
        inside: set[int] = set()
        for node in nodes:
            first = node.body[0]
            # A body on the signature's own last line (``def f(self) -> int: ...``) is the
            # signature's: the line is a header.
            shares = lines[first.lineno - 1][: first.col_offset].strip() != ""
            body_start = first.lineno + 1 if shares else first.lineno
            headers.update(range(node.lineno, body_start))
            headers.update(d.lineno for d in node.decorator_list)
            headers.update(_docstring_lines(node))
            if not isinstance(node, ast.ClassDef):
                inside.update(range(body_start, (node.end_lineno or body_start) + 1))
        body = [
            lines[number - 1].strip()
            for number in sorted(inside - headers)
            if len(lines[number - 1].strip()) >= DISTINCT_BODY
            and not lines[number - 1].strip().startswith("#")
        ]
        counts = Counter(body)
        self.body = [line for line in body if counts[line] == 1]
        self.signature_tokens = counter.count("\n".join(self.signatures))
        self.term = self._term(text, nodes)
        self.task = f"how does {self.term} work"
        self.term_lines = _term_lines(text, self.term, strip=True)

    def holds(self, budget: int) -> bool:
        """Whether every signature line fits the budget."""
        return self.signature_tokens <= FIT_SHARE * budget

    @staticmethod
    def _term(text: str, nodes: list[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef]) -> str:
        """The public function named on most lines, the first defined on a tie."""
        names = [
            node.name
            for node in nodes
            if not isinstance(node, ast.ClassDef) and not node.name.startswith("_")
        ]
        counted = [(len(_term_lines(text, name)), name) for name in dict.fromkeys(names)]
        return max(counted, key=lambda pair: pair[0])[1] if counted else "def"

    def score(self, content: str) -> dict[str, Count]:
        kept = _stripped(content)
        return {
            "signatures": _kept(self.signatures, kept),
            "body": _kept(self.body, kept),
            "task": _kept(self.term_lines, kept),
        }


# --- the head+tail baseline ---------------------------------------------------------------


def _take(costs: Iterable[int], budget: int) -> int:
    taken = total = 0
    for cost in costs:
        if total + cost > budget:
            break
        total += cost
        taken += 1
    return taken


def head_tail(lines: list[str], costs: list[int], budget: int, counter: TokenCounter) -> str:
    """The first whole lines within half the budget, then the last within what is left; a line
    is dropped (from the longer side) while the exact count of the join is over."""
    head = _take(costs, budget // 2)
    tail = _take(reversed(costs[head:]), budget - sum(costs[:head]))
    while True:
        content = "".join(lines[:head] + lines[len(lines) - tail :])
        if head + tail == 0 or counter.count(content) <= budget:
            return content
        if tail >= head:
            tail -= 1
        else:
            head -= 1


# --- running ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Input:
    kind: str
    name: str
    text: str
    generated: bool


@dataclass(frozen=True)
class Outcome:
    """One method's output of one input at one ratio, scored."""

    kind: str
    name: str
    ratio: float
    method: str
    raw_tokens: int
    budget: int
    tokens: int
    scores: dict[str, Count]
    order: bool | None
    holds: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def fits(self) -> bool:
        return self.tokens <= self.budget

    @property
    def share(self) -> float:
        return self.tokens / self.budget


def inputs() -> list[Input]:
    found = []
    for kind, directory, pattern in CORPUS_TYPES:
        files = sorted((CORPUS / directory).glob(pattern))
        if not files:
            raise FileNotFoundError(f"no {pattern} files in {CORPUS / directory}")
        found += [
            Input(kind, path.name, path.read_text(encoding="utf-8", errors="replace"), False)
            for path in files
        ]
        if kind == "log":
            found += [Input("log", log.name, log.text, True) for log in generate_all()]
    return found


METRICS: dict[str, tuple[Metric, ...]] = {
    "log": LogMatters.metrics,
    "diff": DiffMatters.metrics,
    "json": JsonMatters.metrics,
    "markdown": MarkdownMatters.metrics,
    "code": CodeMatters.metrics,
}


def matters_of(item: Input, counter: TokenCounter) -> Matters:
    if item.kind == "log":
        return LogMatters(item.text)
    if item.kind == "diff":
        return DiffMatters(item.text, counter)
    if item.kind == "json":
        return JsonMatters(item.text, counter)
    if item.kind == "markdown":
        return MarkdownMatters(item.text)
    return CodeMatters(item.text, counter)


def _compressor(
    service: ArtifactCompressorService, item: Input, matters: Matters, method: str
) -> Callable[[int], str]:
    mode = CompressionMode.TIERED if method == "tiered" else CompressionMode.SMART
    task = matters.task if method == "smart+task" else None
    return lambda budget: (
        service.compress_text(item.name, item.text, budget, task=task, mode=mode).content
    )


def measure(
    service: ArtifactCompressorService, counter: TokenCounter, item: Input
) -> list[Outcome]:
    matters = matters_of(item, counter)
    raw_tokens = counter.count(item.text)
    lines = item.text.splitlines(keepends=True)
    costs = [counter.count(line) for line in lines]
    outcomes = []
    for ratio in RATIOS:
        budget = max(int(raw_tokens / ratio), 1)
        for method in METHODS:
            if method == "head+tail":
                content = head_tail(lines, costs, budget, counter)
            else:
                content = _compressor(service, item, matters, method)(budget)
            scores = matters.score(content)
            outcomes.append(
                Outcome(
                    kind=item.kind,
                    name=item.name,
                    ratio=ratio,
                    method=method,
                    raw_tokens=raw_tokens,
                    budget=budget,
                    tokens=counter.count(content),
                    scores=scores,
                    order=_order_held(matters.tiers, scores),
                    holds=matters.holds(budget),
                    extra={"term": matters.term, "generated": item.generated},
                )
            )
    return outcomes


# --- the tables ---------------------------------------------------------------------------


def _figure(outcomes: list[Outcome], metric: Metric) -> tuple[float | None, str]:
    """The metric over the files: mean % (of files that have such items) or n/N."""
    counts = [o.scores[metric.key] for o in outcomes if o.scores[metric.key].total]
    if not counts:
        return None, "-"
    if metric.summed:
        kept, total = sum(c.kept for c in counts), sum(c.total for c in counts)
        return 100 * kept / total, f"{kept}/{total}"
    value = mean(c.pct for c in counts if c.pct is not None)
    return value, f"{value:.1f}"


def _select(outcomes: list[Outcome], **where: Any) -> list[Outcome]:
    return [o for o in outcomes if all(getattr(o, k) == v for k, v in where.items())]


def _row(label: str, cells: list[str]) -> None:
    print_line(f"  {label:<30}" + "".join(f"{cell:>13}" for cell in cells))


def _ratio_label(ratio: float) -> str:
    return f"raw/{ratio:g}"


def print_type(kind: str, metrics: tuple[Metric, ...], outcomes: list[Outcome]) -> None:
    files = sorted({o.name for o in outcomes})
    generated = len({o.name for o in outcomes if o.extra["generated"]})
    note = f" ({len(files) - generated} corpus + {generated} generated)" if generated else ""
    print_line("")
    print_line(f"{kind}: {len(files)} files{note}")
    _row("", list(METHODS))
    has_order = any(o.order is not None for o in outcomes)
    for ratio in RATIOS:
        print_line(f"  {_ratio_label(ratio)}")
        at_ratio = _select(outcomes, ratio=ratio)
        for metric in metrics:
            cells = [_figure(_select(at_ratio, method=m), metric)[1] for m in METHODS]
            _row(metric.label, cells)
        if has_order:
            cells = []
            for method in METHODS:
                group = _select(at_ratio, method=method)
                cells.append(f"{sum(bool(o.order) for o in group)}/{len(group)}")
            _row("priority order held", cells)
        cells = []
        for method in METHODS:
            shares = [o.share for o in _select(at_ratio, method=method)]
            cells.append(f"{100 * mean(shares):.0f}/{100 * min(shares):.0f}")
        _row("budget used % mean/min", cells)
        over = [o for o in at_ratio if not o.fits]
        if over:
            _row("OVER BUDGET", [str(len(_select(over, method=m))) for m in METHODS])


def print_log_files(outcomes: list[Outcome]) -> None:
    at = _select(outcomes, kind="log", ratio=TEMPLATE_RATIO, method="smart")
    print_line("")
    print_line(
        f"log files at {_ratio_label(TEMPLATE_RATIO)}, smart: templates kept/all, "
        "last error kept, task term"
    )
    for o in sorted(at, key=lambda o: o.name):
        templates, last = o.scores["templates"], o.scores["last_error"]
        last_text = "-" if not last.total else ("yes" if last.kept else "NO")
        print_line(
            f"  {o.name:<28} {templates.kept:>3}/{templates.total:<3} last error {last_text:<3}"
            f"  task {o.extra['term']!r}"
        )


# --- the targets --------------------------------------------------------------------------


def _result(
    name: str,
    measured: float,
    baseline: float,
    target: str,
    met: bool,
    baseline_label: str,
    unit: str = "%",
    details: dict[str, Any] | None = None,
) -> Result:
    return Result(
        name=name,
        measured=measured,
        baseline=baseline,
        ratio=measured / baseline if baseline else measured,
        unit=unit,
        target=target,
        met=met,
        baseline_label=baseline_label,
        details=details or {},
    )


def _misses(outcomes: list[Outcome]) -> list[str]:
    return [f"{o.name} {_ratio_label(o.ratio)} {o.method}" for o in outcomes]


def budget_results(outcomes: list[Outcome]) -> list[Result]:
    results = []
    baseline = min(o.share for o in _select(outcomes, method="head+tail"))
    for method in SMART_METHODS:
        group = _select(outcomes, method=method)
        low = min(o.share for o in group)
        results.append(
            _result(
                f"survival budget use, {method} (least output/budget)",
                100 * low,
                100 * baseline,
                f">= {100 * BUDGET_USE_TARGET:.0f}% of the budget",
                low >= BUDGET_USE_TARGET,
                "head+tail, least %",
                details={
                    "under": _misses([o for o in group if o.share < BUDGET_USE_TARGET]),
                    "mean_pct": 100 * mean(o.share for o in group),
                },
            )
        )
    over = [o for o in outcomes if not o.fits]
    results.append(
        _result(
            "survival: every output within its budget (all methods)",
            len(outcomes) - len(over),
            len(outcomes),
            "all",
            not over,
            "outputs",
            unit="outputs",
            details={"over": _misses(over)},
        )
    )
    return results


def _min_pct(outcomes: list[Outcome], key: str) -> tuple[float, list[Outcome]]:
    counted = [o for o in outcomes if o.scores[key].total]
    values = [o.scores[key].pct or 0.0 for o in counted]
    return (min(values) if values else 100.0), counted


def log_results(outcomes: list[Outcome]) -> list[Result]:
    at = _select(outcomes, kind="log", ratio=TEMPLATE_RATIO)
    smart, _ = _min_pct(_select(at, method="smart"), "templates")
    tiered, _ = _min_pct(_select(at, method="tiered"), "templates")
    per_file = {
        o.name: o.scores["templates"].pct
        for o in _select(at, method="smart")
        if o.scores["templates"].total
    }
    results = [
        _result(
            f"survival log templates at {_ratio_label(TEMPLATE_RATIO)}, smart (worst log)",
            smart,
            tiered,
            f">= {TEMPLATE_TARGET:.0f}% in every log",
            smart >= TEMPLATE_TARGET,
            "tiered, worst log",
            details={"per_file_pct": per_file},
        )
    ]
    logs = _select(outcomes, kind="log")
    figures = {}
    for method in ("smart", "tiered"):
        group = [o for o in _select(logs, method=method) if o.scores["last_error"].total]
        missed = [o for o in group if not o.scores["last_error"].kept]
        figures[method] = (len(group) - len(missed), len(group), missed)
    kept, total, missed = figures["smart"]
    results.append(
        _result(
            "survival log last error kept, smart (every log, every ratio)",
            kept,
            figures["tiered"][0],
            f"all {total}",
            kept == total,
            "tiered",
            unit="outputs",
            details={"missed": _misses(missed)},
        )
    )
    return results


def json_results(outcomes: list[Outcome]) -> list[Result]:
    results = []
    required = [o for o in _select(outcomes, kind="json") if o.holds]
    tiered = _select(required, method="tiered")
    seed_parsed = sum(o.scores["parses"].kept for o in tiered)
    for method in SMART_METHODS:
        group = _select(required, method=method)
        failed = [o for o in group if not o.scores["parses"].kept]
        results.append(
            _result(
                f"survival JSON parses, {method} (every ratio whose budget holds the skeleton)",
                len(group) - len(failed),
                seed_parsed,
                f"all {len(group)}",
                not failed,
                "tiered",
                unit="outputs",
                details={"failed": _misses(failed)},
            )
        )
    return results


def order_results(outcomes: list[Outcome]) -> list[Result]:
    results = []
    for kind, what in (
        ("diff", "headers, then def/class, then body"),
        ("markdown", "headings, requirements, first sentences"),
        ("code", "signatures before body"),
    ):
        group = _select(outcomes, kind=kind, method="smart")
        tiered = _select(outcomes, kind=kind, method="tiered")
        broken = [o for o in group if o.order is False]
        results.append(
            _result(
                f"survival {kind} priority order held, smart ({what})",
                len(group) - len(broken),
                sum(bool(o.order) for o in tiered),
                f"all {len(group)}",
                not broken,
                "tiered",
                unit="outputs",
                details={"broken": _misses(broken)},
            )
        )
    for kind, key, label in (
        ("diff", "files", "files named"),
        ("diff", "hunks", "hunk headers"),
        ("code", "signatures", "signatures"),
    ):
        results.append(whole_result(outcomes, kind, key, label))
    return results


def whole_result(outcomes: list[Outcome], kind: str, key: str, label: str) -> Result:
    """`key` kept whole by smart mode wherever the budget holds it (every ratio)."""
    held = [o for o in _select(outcomes, kind=kind) if o.holds]
    smart, counted = _min_pct(_select(held, method="smart"), key)
    tiered = _min_pct(_select(held, method="tiered"), key)[0]
    short = [o for o in counted if not o.scores[key].whole]
    return _result(
        f"survival {kind} {label}, smart (least, where they fit {FIT_SHARE:.0%} of the budget)",
        smart,
        tiered,
        "100%",
        smart >= 100.0,
        "tiered, least",
        details={"outputs": len(counted), "short": _misses(short)},
    )


def comparison_results(outcomes: list[Outcome]) -> list[Result]:
    """Smart against tiered on each type's first figure, at the tightest ratio."""
    results = []
    ratio = RATIOS[-1]
    for kind, kind_metrics in METRICS.items():
        metric = kind_metrics[0]
        label = metric.label.replace(" %", "")
        at = _select(outcomes, kind=kind, ratio=ratio)
        smart = _figure(_select(at, method="smart"), metric)[0] or 0.0
        tiered = _figure(_select(at, method="tiered"), metric)[0] or 0.0
        results.append(
            _result(
                f"survival {kind} {label} at {_ratio_label(ratio)} (smart %)",
                smart,
                tiered,
                "smart >= tiered",
                smart >= tiered,
                "tiered %",
            )
        )
    task = _select(outcomes, ratio=ratio)
    with_task = _figure(_select(task, method="smart+task"), Metric("task", ""))[0] or 0.0
    without = _figure(_select(task, method="smart"), Metric("task", ""))[0] or 0.0
    results.append(
        _result(
            f"survival task items at {_ratio_label(ratio)}, smart+task (mean % of all files)",
            with_task,
            without,
            "smart+task >= smart",
            with_task >= without,
            "smart %",
        )
    )
    return results


def run() -> list[Result]:
    print_section(
        "what matters that survives compression to raw/1.2, /2, /5 and /20: tiered, smart, "
        "smart with a task, and a head+tail baseline (mean % of each file's items)"
    )
    started = time.perf_counter()
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="cleveragents-bench-") as tmp:
        directory = Path(tmp)
        container = build_container(f"sqlite:///{directory}/bench.db", home=directory)
        try:
            service = container.artifact_compressor_service()
            counter = container.token_counter()
            items = inputs()
            for kind, _, _ in CORPUS_TYPES:
                kind_outcomes = [
                    outcome
                    for item in items
                    if item.kind == kind
                    for outcome in measure(service, counter, item)
                ]
                print_type(kind, METRICS[kind], kind_outcomes)
                outcomes += kind_outcomes
        finally:
            container.store().dispose()
    print_log_files(outcomes)
    print_line("")
    print_line(
        f"{len(outcomes)} outputs in {time.perf_counter() - started:.1f} s; "
        f"within budget (real count): {sum(o.fits for o in outcomes)}/{len(outcomes)}"
    )
    return [
        *budget_results(outcomes),
        *log_results(outcomes),
        *json_results(outcomes),
        *order_results(outcomes),
        *comparison_results(outcomes),
    ]
