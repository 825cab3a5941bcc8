"""Benchmark: what matters in an artifact that survives compression (SPEC C4, issue 13).

Every corpus file (logs, diffs, JSON, markdown, code; transcripts are not artifacts) and the
generated inputs in the formats the corpus lacks (`GENERATED`: logs from
benchmarks/generated_logs.py and benchmarks/generated_tool_logs.py) are compressed to 1/1.2,
1/2, 1/5 and 1/20 of their raw token count by four methods, side by side on the same input in
the same run:

* ``tiered``: the service in tiered mode;
* ``smart``: the service in smart mode;
* ``smart+task``: smart mode with a task written by a rule of this benchmark from the file's own
  content (for a log the component named in its last error, for a diff a function it changes,
  for JSON a key, for markdown a heading word, for code a function name);
* ``head+tail``: this benchmark's baseline, the first and last whole lines of the file that fit
  the budget, half of it each (the tail takes what the head leaves), counted with the same
  tokenizer.

The corpus and the generated inputs are reported apart: each type's table once per set, and
each row of the closing report (`MEASURES`, see benchmarks/survival_core.py) computed on each set
and met only when it holds on both.

"What matters" is found in the original by rules of this benchmark's own, independent of the
product's classifiers, and an item survives when it is in the output verbatim:

* logs (benchmarks/survival_logs.py): error and warning templates (a line's level class,
  component and message with digit tokens masked; the level read where the format writes it,
  else from a trouble or warning word), severity lines, the last error line, and the last line
  holding a trouble word (error, failed, denied, timeout, ...) whatever its level;
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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from statistics import mean
from typing import Any, Protocol

from benchmarks.generated_logs import generate_all
from benchmarks.generated_tool_logs import generate_more
from benchmarks.report import Result, print_line, print_section
from benchmarks.survival_core import (
    SETS,
    Count,
    Figure,
    Measure,
    Metric,
    Outcome,
    kept,
    lines_of,
    measure_result,
    min_pct,
    misses,
    ratio_label,
    select,
    stripped_lines,
    taken_within,
    term_lines,
)
from benchmarks.survival_logs import LOG_MEASURES, TEMPLATE_RATIO, LogMatters
from benchmarks.survival_structured import (
    STRUCTURED_MEASURES,
    ListedCodeMatters,
    generated_of,
    listed_signatures,
    reach,
    signature_costs,
)
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
# Headers or signatures must be kept whole when they take at most this share of the budget
# (the rest leaves room for the marks that say what was left out).
FIT_SHARE = 0.9


# --- what matters ---------------------------------------------------------------------


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
        header_numbers: list[int] = []
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.rstrip("\r")
            if _DIFF_PATH.match(line) or line.startswith("@@"):
                header_numbers.append(number)
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
        # What showing them costs: the lines, and a marker for each gap between them (the
        # omitted lines between two headers are marked, or they would read as adjacent).
        self.header_tokens = counter.count("\n".join(headers + self.hunks)) + _markers_cost(
            header_numbers, len(text.splitlines()), counter, "[… lines 1000-1099]"
        )
        self.term = self._term(text)
        self.task = f"review the change to {self.term}"
        self.term_lines = term_lines(text, self.term)

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
        found = lines_of(content)
        named = {path for path in self.paths if path in content}
        return {
            "files": kept(self.paths, named),
            "hunks": kept(self.hunks, found),
            "defs": kept(self.defs, found),
            "body": kept(self.body, found),
            "task": kept(self.term_lines, found),
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
            "paths": kept(self.paths, set(json_key_paths(content))),
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
        self.term_lines = term_lines(text, self.term)

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
        found = lines_of(content)
        # A sentence is looked for in the prose: "Decisions made internally" as a list item is
        # not kept by its heading's "### Decisions made internally".
        prose = (line for line in content.splitlines() if not _HEADING.match(line))
        normal = _normal("\n".join(prose))

        def in_prose(sentences: list[str]) -> Count:
            return kept(sentences, {s for s in set(sentences) if s in normal})

        return {
            "headings": kept(self.headings, found),
            "requirements": in_prose(self.requirements),
            "first": in_prose(self.first),
            "first_apart": in_prose(self.first_apart),
            "rest_apart": in_prose(self.rest_apart),
            "task": kept(self.term_lines, found),
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


def _markers_cost(numbers: list[int], total: int, counter: TokenCounter, marker: str) -> int:
    """The tokens of the omission markers that showing the lines `numbers` (1-based, sorted)
    of a text of `total` lines takes: one for each gap before, between and after them."""
    gaps = 0
    previous = 0
    for number in numbers:
        gaps += number > previous + 1
        previous = number
    gaps += previous < total
    return gaps * counter.count(marker)


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
        self.signature_tokens = counter.count("\n".join(self.signatures)) + _markers_cost(
            sorted(node.lineno for node in nodes), len(lines), counter, "    # … lines 1000-1099"
        )
        self.term = self._term(text, nodes)
        self.task = f"how does {self.term} work"
        self.term_lines = term_lines(text, self.term, strip=True)

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
        counted = [(len(term_lines(text, name)), name) for name in dict.fromkeys(names)]
        return max(counted, key=lambda pair: pair[0])[1] if counted else "def"

    def score(self, content: str) -> dict[str, Count]:
        found = stripped_lines(content)
        return {
            "signatures": kept(self.signatures, found),
            "body": kept(self.body, found),
            "task": kept(self.term_lines, found),
        }


# --- the head+tail baseline ---------------------------------------------------------------


def head_tail(lines: list[str], costs: list[int], budget: int, counter: TokenCounter) -> str:
    """The first whole lines within half the budget, then the last within what is left; a line
    is dropped (from the longer side) while the exact count of the join is over."""
    head = taken_within(costs, budget // 2)
    tail = taken_within(reversed(costs[head:]), budget - sum(costs[:head]))
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


def _generated_logs() -> list[tuple[str, str]]:
    return [(log.name, log.text) for log in generate_all()] + generate_more()


# The generated inputs of each kind (name, text): formats the corpus lacks. A kind without an
# entry is measured on the corpus alone.
GENERATED: dict[str, Callable[[], list[tuple[str, str]]]] = {
    "log": _generated_logs,
    "json": generated_of("json"),
    "diff": generated_of("diff"),
    "code": generated_of("code"),
}


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
        if kind in GENERATED:
            found += [Input(kind, name, text, True) for name, text in GENERATED[kind]()]
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
    listed = listed_signatures(item.name) if item.generated else None
    if listed is not None:
        return ListedCodeMatters(item.text, listed)
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
    signatures = getattr(matters, "signatures", None) if item.kind == "code" else None
    cheapest = signature_costs(signatures, item.text, counter) if signatures else None
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
                    generated=item.generated,
                    holds=matters.holds(budget),
                    extra={"term": matters.term}
                    | ({"reach": reach(cheapest, budget)} if cheapest else {}),
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
        kept_items, total = sum(c.kept for c in counts), sum(c.total for c in counts)
        return 100 * kept_items / total, f"{kept_items}/{total}"
    value = mean(c.pct for c in counts if c.pct is not None)
    return value, f"{value:.1f}"


def _row(label: str, cells: list[str]) -> None:
    print_line(f"  {label:<30}" + "".join(f"{cell:>13}" for cell in cells))


def print_type(kind: str, metrics: tuple[Metric, ...], outcomes: list[Outcome]) -> None:
    """One table per set of inputs of `kind` (the corpus, then the generated ones)."""
    for set_name in SETS:
        in_set = [o for o in outcomes if o.set_name == set_name]
        if in_set:
            print_set(f"{kind}, {set_name}", metrics, in_set)


def print_set(title: str, metrics: tuple[Metric, ...], outcomes: list[Outcome]) -> None:
    files = sorted({o.name for o in outcomes})
    print_line("")
    print_line(f"{title}: {len(files)} files")
    _row("", list(METHODS))
    has_order = any(o.order is not None for o in outcomes)
    for ratio in RATIOS:
        print_line(f"  {ratio_label(ratio)}")
        at_ratio = select(outcomes, ratio=ratio)
        for metric in metrics:
            cells = [_figure(select(at_ratio, method=m), metric)[1] for m in METHODS]
            _row(metric.label, cells)
        if has_order:
            cells = []
            for method in METHODS:
                group = select(at_ratio, method=method)
                cells.append(f"{sum(bool(o.order) for o in group)}/{len(group)}")
            _row("priority order held", cells)
        cells = []
        for method in METHODS:
            shares = [o.share for o in select(at_ratio, method=method)]
            cells.append(f"{100 * mean(shares):.0f}/{100 * min(shares):.0f}")
        _row("budget used % mean/min", cells)
        over = [o for o in at_ratio if not o.fits]
        if over:
            _row("OVER BUDGET", [str(len(select(over, method=m))) for m in METHODS])


def print_log_files(outcomes: list[Outcome]) -> None:
    print_line("")
    print_line(
        "log files, smart: error+warning templates kept/all at "
        f"{ratio_label(TEMPLATE_RATIO)}; last error and last trouble line kept at "
        + ", ".join(ratio_label(r) for r in RATIOS)
        + "; task term"
    )
    logs = select(outcomes, kind="log", method="smart")
    for set_name in SETS:
        for name in sorted({o.name for o in logs if o.set_name == set_name}):
            at = {o.ratio: o for o in select(logs, name=name)}
            templates = at[TEMPLATE_RATIO].scores["templates"]

            def marks(key: str, at: dict[float, Outcome] = at) -> str:
                scores = [at[ratio].scores[key] for ratio in RATIOS]
                return "".join("-" if not c.total else ("y" if c.kept else "N") for c in scores)

            print_line(
                f"  {set_name:<9} {name:<28} {templates.kept:>3}/{templates.total:<3} "
                f"last error {marks('last_error')}  trouble {marks('trouble')}  "
                f"task {at[TEMPLATE_RATIO].extra['term']!r}"
            )


def print_measures(results: list[Result]) -> None:
    print_line("")
    print_line("measures, on the corpus and on the generated inputs apart (met only on both):")
    for result in results:
        print_line(f"  {'yes' if result.met else 'NO ':<4}{result.name}")


# --- the measures -------------------------------------------------------------------------


def _budget_use(method: str) -> Callable[[list[Outcome]], Figure | None]:
    def figure(outcomes: list[Outcome]) -> Figure | None:
        group = select(outcomes, method=method)
        if not group:
            return None
        low = min(o.share for o in group)
        baseline = min(o.share for o in select(outcomes, method="head+tail"))
        return Figure(
            100 * low,
            100 * baseline,
            low >= BUDGET_USE_TARGET,
            {
                "under": misses([o for o in group if o.share < BUDGET_USE_TARGET]),
                "mean_pct": 100 * mean(o.share for o in group),
            },
        )

    return figure


def _within_budget(outcomes: list[Outcome]) -> Figure | None:
    if not outcomes:
        return None
    over = [o for o in outcomes if not o.fits]
    return Figure(
        len(outcomes) - len(over), len(outcomes), not over, {"over": misses(over)}, len(outcomes)
    )


def _json_parses(method: str) -> Callable[[list[Outcome]], Figure | None]:
    """Every output parses wherever the budget holds the document's skeleton."""

    def figure(outcomes: list[Outcome]) -> Figure | None:
        required = [o for o in select(outcomes, kind="json") if o.holds]
        group = select(required, method=method)
        if not group:
            return None
        failed = [o for o in group if not o.scores["parses"].kept]
        tiered = sum(o.scores["parses"].kept for o in select(required, method="tiered"))
        return Figure(
            len(group) - len(failed), tiered, not failed, {"failed": misses(failed)}, len(group)
        )

    return figure


def _order(kind: str) -> Callable[[list[Outcome]], Figure | None]:
    def figure(outcomes: list[Outcome]) -> Figure | None:
        group = select(outcomes, kind=kind, method="smart")
        if not group:
            return None
        tiered = select(outcomes, kind=kind, method="tiered")
        broken = [o for o in group if o.order is False]
        return Figure(
            len(group) - len(broken),
            sum(bool(o.order) for o in tiered),
            not broken,
            {"broken": misses(broken)},
            len(group),
        )

    return figure


def _whole(kind: str, key: str) -> Callable[[list[Outcome]], Figure | None]:
    """`key` kept whole by smart mode wherever the budget holds it (every ratio)."""

    def figure(outcomes: list[Outcome]) -> Figure | None:
        held = [o for o in select(outcomes, kind=kind) if o.holds]
        smart, counted = min_pct(select(held, method="smart"), key)
        if not counted:
            return None
        tiered = min_pct(select(held, method="tiered"), key)[0]
        short = [o for o in counted if not o.scores[key].whole]
        return Figure(
            smart, tiered, smart >= 100.0, {"outputs": len(counted), "short": misses(short)}
        )

    return figure


def _smart_over_tiered(kind: str, metric: Metric) -> Callable[[list[Outcome]], Figure | None]:
    """Smart against tiered on `metric`, at the tightest ratio."""

    def figure(outcomes: list[Outcome]) -> Figure | None:
        at = select(outcomes, kind=kind, ratio=RATIOS[-1])
        smart = _figure(select(at, method="smart"), metric)[0]
        if smart is None:
            return None
        tiered = _figure(select(at, method="tiered"), metric)[0] or 0.0
        return Figure(smart, tiered, smart >= tiered)

    return figure


def _task_items(outcomes: list[Outcome]) -> Figure | None:
    at = select(outcomes, ratio=RATIOS[-1])
    with_task = _figure(select(at, method="smart+task"), Metric("task", ""))[0]
    if with_task is None:
        return None
    without = _figure(select(at, method="smart"), Metric("task", ""))[0] or 0.0
    return Figure(with_task, without, with_task >= without)


_FIT = f"where they fit {FIT_SHARE:.0%} of the budget"
_TIGHTEST = ratio_label(RATIOS[-1])

# Every row of the report, each computed on the corpus and on the generated inputs apart. To
# add a row, add a Measure here (its figure reads one set's outcomes; see survival_core).
MEASURES: list[Measure] = [
    *(
        Measure(
            f"survival budget use, {method} (least output/budget)",
            f">= {100 * BUDGET_USE_TARGET:.0f}% of the budget",
            "head+tail, least %",
            _budget_use(method),
        )
        for method in SMART_METHODS
    ),
    Measure(
        "survival: every output within its budget (all methods)",
        "all",
        "outputs",
        _within_budget,
        unit="outputs",
    ),
    *LOG_MEASURES,
    *STRUCTURED_MEASURES,
    *(
        Measure(
            f"survival JSON parses, {method} (every ratio whose budget holds the skeleton)",
            "all",
            "tiered",
            _json_parses(method),
            unit="outputs",
        )
        for method in SMART_METHODS
    ),
    *(
        Measure(
            f"survival {kind} priority order held, smart ({what})",
            "all",
            "tiered",
            _order(kind),
            unit="outputs",
        )
        for kind, what in (
            ("diff", "headers, then def/class, then body"),
            ("markdown", "headings, requirements, first sentences"),
            ("code", "signatures before body"),
        )
    ),
    *(
        Measure(
            f"survival {kind} {label}, smart (least, {_FIT})",
            "100%",
            "tiered, least",
            _whole(kind, key),
        )
        for kind, key, label in (
            ("diff", "files", "files named"),
            ("diff", "hunks", "hunk headers"),
            ("code", "signatures", "signatures"),
        )
    ),
    *(
        Measure(
            f"survival {kind} {metrics[0].label.replace(' %', '')} at {_TIGHTEST} (smart %)",
            "smart >= tiered",
            "tiered %",
            _smart_over_tiered(kind, metrics[0]),
        )
        for kind, metrics in METRICS.items()
    ),
    Measure(
        f"survival task items at {_TIGHTEST}, smart+task (mean % of all files)",
        "smart+task >= smart",
        "smart %",
        _task_items,
    ),
]


def run() -> list[Result]:
    print_section(
        "what matters that survives compression to raw/1.2, /2, /5 and /20: tiered, smart, "
        "smart with a task, and a head+tail baseline (mean % of each file's items), on the "
        "corpus and on generated inputs apart"
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
    results = [measure_result(m, outcomes) for m in MEASURES]
    print_measures(results)
    return results
