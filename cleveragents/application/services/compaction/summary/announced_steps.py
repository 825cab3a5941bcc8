"""Steps the agent announced in the folded messages and never reached: open items of the work.

An agent announces steps as it goes ("Next, I'll add the migration in `db/users.sql`.",
"Then I will update docs/api.md.", "After that: run `make e2e`.", "Now let's move to
spotter-a0y.3.") and writes numbered plans ("Plan: 1. ... 2. ... 3. ..."). A step still
open at the cut is work a resumed agent must not lose; one it reached is history. Whether a
step was reached is read from evidence, never guessed:

* the identifiable things the step names: file paths and file names, backquoted names,
  task ids (``spotter-a0y.3``, ``#12``, ``PROJ-7``), identifiers (``snake_case``,
  ``camelCase``, ``dotted.names``). A step naming none of them is not listed: nothing
  tells whether it was done;
* the evidence in the messages after it: the words of every later tool call's file paths,
  command and arguments, and of every later assistant sentence stating something done
  ("`parse_users` is in place", "Updated docs/api.md."). A step is reached when one thing
  it names appears there;
* an announcement that closes its message and is followed at once by a tool call narrates
  that call, and is reached by it.

The evidence is indexed once (each word mapped to the last message it appears in), so a
session of thousands of announcements and calls costs one pass over each, not a pass over
the later messages per announcement. A step a task tracker already lists (it names the
task's id or title words) is left to the tracker, which knows its state.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from cleveragents.application.services.compaction.summary.extract_outcomes import ToolActivity
from cleveragents.application.services.compaction.summary.extract_text import clip, sentences
from cleveragents.application.services.compaction.summary.extract_tools import (
    files_modified,
    files_read,
    shell_command,
)
from cleveragents.application.services.compaction.summary.narration import (
    announced_work,
    is_question,
    narration_head,
)
from cleveragents.application.services.compaction.summary.task_tracking import TrackedTask
from cleveragents.domain.transcript import Message, Role, ToolCall

NOT_REACHED = "announced, not reached: "
"""How an unfinished item names a step announced and not reached (a merge recognises it)."""

MAX_STEPS = 8
"""The newest steps not reached that are listed: older ones in a long session were mostly
superseded, and the open tasks and failing tests outrank them for the budget."""

STEP_CHARS = 200
EVIDENCE_CHARS = 16_000
"""What is read of one call's arguments: a step names a path or a name a call states near
its start; a 10 MB write must not cost a regex pass over all of it."""

_APOSTROPHE = "['\u2019]"
# A sentence that sequences work to come ("Then I'll...", "After that: ...", "Finally, ...").
_SEQUENCED = re.compile(
    r"^(?:then|after that|afterwards|after this|once (?:that|this)(?: is|"
    rf"{_APOSTROPHE}s) (?:done|in place)|finally|later|next)\b(?P<mark>\s*[,:\u2014-]?)\s*"
    r"(?P<rest>.+)",
    re.IGNORECASE,
)
_PLAN_ITEM = re.compile(r"^\s*(\d{1,3})[.)]\s+(?P<item>\S.*)$")
# The line before a numbered list that makes it a plan (work to do, not a report of work done).
_PLAN_CUE = re.compile(
    r"\b(?:plan|steps?|todo|to do|remaining|next|following|will|going to|I{_A}ll|we{_A}ll"
    r"|here{_A}s how|in order)\b".replace("{_A}", _APOSTROPHE),
    re.IGNORECASE,
)
# A plan item written as done ("Added X", "~~Fix Y~~", "✓ Z") is a report, not a step.
_REPORTED = re.compile(r"^[*_]*(?:~~|[\u2713\u2714\u2705]|\[x\]|\w+ed\b)", re.IGNORECASE)
# A sentence stating something done.
_DONE = re.compile(
    r"\b(?:done|finished|completed?|in place|implemented|updated|added|fixed|created|wrote"
    r"|written|migrated|removed|renamed|passes|passing|pushed|merged|closed)\b|[\u2713\u2705]",
    re.IGNORECASE,
)
_NEGATED = re.compile(rf"\b(?:not|never|yet|still)\b|n{_APOSTROPHE}t\b", re.IGNORECASE)
_FENCE = "```"

_WORD = re.compile(r"#?\w[\w./@-]*")
_BACKQUOTED = re.compile(r"`([^`\n]{1,200})`")
# "#12", "PROJ-7", "spotter-a0y.3", and "gqc.4" or "v1.2" (a task's or a release's short name).
_TASK_ID = re.compile(r"^(?:#\d+|[a-z]\w*-[\w.]*\d[\w.]*|[a-z]\w*\.\d[\w.]*)$", re.I)
_CAMEL = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]")
_DOTTED = re.compile(r"^[a-z_][\w-]*(?:\.[a-z_][\w-]*)+$", re.IGNORECASE)
_SEPARATOR = re.compile(r"[/-]")
_TAILED_WORD = 300
_TAILS = 8
_NOT_NAMES = frozenset({"e.g", "i.e", "etc", "vs", "and/or", "either/or", "i/o", "n/a", "w/o"})


@dataclass(frozen=True, slots=True)
class Step:
    """An announced step: the message it was announced in, its words, what it names."""

    index: int
    text: str
    targets: frozenset[str]
    narrates_next_call: bool


def unreached_steps(
    messages: Sequence[Message],
    activities: Sequence[ToolActivity],
    tasks: Sequence[TrackedTask],
    listed: Iterable[str] = (),
) -> tuple[str, ...]:
    """The newest announced steps (at most `MAX_STEPS`, oldest first) that name something
    identifiable and that no later call or statement reached, each as an unfinished item;
    a step whose sentence is `listed` already (as a next step, say) is left there."""
    steps = announced_steps(messages)
    if not steps:
        return ()
    calls_seen = _last_seen_in_calls(activities)
    done_seen = _last_seen_in_statements(messages)
    tracked = _task_words(tasks)
    elsewhere = frozenset(listed)
    found: list[str] = []
    for step in reversed(steps):
        if len(found) == MAX_STEPS:
            break
        if step.narrates_next_call or step.targets & tracked or clip(step.text) in elsewhere:
            continue
        if any(
            calls_seen.get(target, -1) >= step.index or done_seen.get(target, -1) > step.index
            for target in step.targets
        ):
            continue
        found.append(NOT_REACHED + clip(step.text, STEP_CHARS))
    return tuple(dict.fromkeys(reversed(found)))


def announced_steps(messages: Sequence[Message]) -> list[Step]:
    """Every step the assistant announced that names something identifiable, in order."""
    steps: list[Step] = []
    for index, message in enumerate(messages):
        if message.role is not Role.ASSISTANT or not message.text.strip():
            continue
        followed_by_call = bool(message.tool_calls) or _next_is_a_call(messages, index)
        written = sentences(message.text)
        said = [sentence for sentence in written if _is_announcement(sentence)]
        last_sentence = written[-1] if written else ""
        for sentence in said:
            targets = targets_of(sentence)
            if targets:
                narrates = followed_by_call and sentence == last_sentence
                steps.append(Step(index, sentence, targets, narrates))
        for item in _plan_items(message.text):
            targets = targets_of(item)
            if targets:
                steps.append(Step(index, item, targets, False))
    return steps


def targets_of(text: str) -> frozenset[str]:
    """What `text` names that evidence can be checked against: paths and file names,
    backquoted names, task ids and identifiers, lower-cased."""
    found: set[str] = set()
    for quoted in _BACKQUOTED.findall(text):
        found.update(word for word in _words(quoted) if len(word) > 1)
    for word in _words(text):
        if _is_name(word):
            found.add(word)
    return frozenset(word.lower() for word in found if word.lower() not in _NOT_NAMES)


def words_seen(texts: Iterable[str]) -> frozenset[str]:
    """The words of `texts` (items of a later summary: commands run, files touched, tasks
    completed) as `step_reached` checks them, path tails included."""
    index: dict[str, int] = {}
    for text in texts:
        _index(index, text, 0)
    return frozenset(index)


def step_reached(item: str, seen: frozenset[str]) -> bool:
    """Whether unfinished `item` is an announced step naming something among `seen`."""
    if not item.startswith(NOT_REACHED):
        return False
    return not targets_of(item[len(NOT_REACHED) :]).isdisjoint(seen)


def _is_announcement(sentence: str) -> bool:
    if is_question(sentence):
        return False
    if announced_work(sentence) is not None:
        return True
    sequenced = _SEQUENCED.match(sentence)
    if sequenced is None:
        return False
    # Work to come ("Then I'll...", "After that: run...", "Finally, Bump...") is narration,
    # or follows a colon or a dash; "Then it failed." is a remark.
    rest = sequenced.group("rest")
    return narration_head(rest) != "" or sequenced.group("mark").strip() in (":", "\u2014", "-")


def _plan_items(text: str) -> list[str]:
    """The items of numbered lists in `text` that a plan cue introduces and that are not
    written as done."""
    items: list[str] = []
    previous = ""
    in_plan = False
    fenced = False
    for line in text.split("\n"):
        if line.lstrip().startswith(_FENCE):
            fenced = not fenced
            continue
        if fenced or not line.strip():
            continue
        numbered = _PLAN_ITEM.match(line)
        if numbered is None and line[:1].isspace():
            continue  # an item's own details, indented under it
        if numbered is None:
            in_plan = False
            previous = line
            continue
        if numbered.group(1) == "1":
            in_plan = _PLAN_CUE.search(previous) is not None
        item = numbered.group("item").strip()
        if in_plan and not _REPORTED.match(item):
            items.append(item)
    return items


def _next_is_a_call(messages: Sequence[Message], index: int) -> bool:
    """Whether the assistant's next message, past any holding only thinking, is a tool call
    without text (Claude Code records a text and the call after it as two messages). Each
    message is passed over for one announcement at most: the loop stops at any text."""
    for position in range(index + 1, len(messages)):  # no slice: a copy per message is quadratic
        following = messages[position]
        if following.role is not Role.ASSISTANT:
            return False
        if following.text.strip():
            return False
        if following.tool_calls:
            return True
    return False


def _words(text: str) -> list[str]:
    return [word.rstrip(".-/@") for word in _WORD.findall(text)]


def _is_name(word: str) -> bool:
    """Whether `word` names something a call or a statement can be checked against."""
    if _TASK_ID.match(word):
        return True
    if len(word) < 3:
        return False
    if "/" in word or "_" in word or _CAMEL.search(word):
        return True
    return _DOTTED.match(word) is not None


def _index(index: dict[str, int], text: str, position: int) -> None:
    """Records that the words of `text` were seen at `position`, with the tails of a path or
    of a task id among them (a call's ``/home/me/shop/docs/api.md`` is the step's
    ``docs/api.md`` and ``api.md``; ``bd close spotter-gqc.4`` closes ``gqc.4``)."""
    for word in _words(text.lower()):
        index[word] = position
        if word.isdigit():
            index["#" + word] = position  # `gh issue close 12` closes the step's "#12"
        if len(word) > _TAILED_WORD:
            continue  # a hostile 16 kB "a/a/a/..." would cost its length squared
        for separator in [*_SEPARATOR.finditer(word)][-_TAILS:]:
            index[word[separator.end() :]] = position


def _last_seen_in_calls(activities: Sequence[ToolActivity]) -> dict[str, int]:
    index: dict[str, int] = {}
    for activity in activities:  # in message order, so the last write of a word is its latest
        for text in _call_texts(activity.call):
            _index(index, text, activity.index)
    return index


def _call_texts(call: ToolCall) -> list[str]:
    texts = [*files_modified(call), *files_read(call)]
    command = shell_command(call)
    if command is not None:
        texts.append(command[:EVIDENCE_CHARS])
    budget = EVIDENCE_CHARS
    for value in _strings(call.input):
        if budget <= 0:
            break
        texts.append(value[:budget])
        budget -= len(value)
    return texts


def _strings(value: Any, depth: int = 0) -> list[str]:
    """The string values of a call's arguments, nested ones too (a bounded depth: arguments
    are the model's JSON, and a hostile one can nest deeply)."""
    if isinstance(value, str):
        return [value]
    if depth > 4:
        return []
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item, depth + 1)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item, depth + 1)]
    return []


def _last_seen_in_statements(messages: Sequence[Message]) -> dict[str, int]:
    index: dict[str, int] = {}
    for position, message in enumerate(messages):
        if message.role is not Role.ASSISTANT:
            continue
        for sentence in sentences(message.text):
            if _is_statement_of_done(sentence):
                _index(index, sentence, position)
    return index


def _is_statement_of_done(sentence: str) -> bool:
    return (
        _DONE.search(sentence) is not None
        and _NEGATED.search(sentence) is None
        and not is_question(sentence)
        and narration_head(sentence) == ""
        and not _is_announcement(sentence)
    )


def _task_words(tasks: Sequence[TrackedTask]) -> frozenset[str]:
    words: set[str] = set()
    for task in tasks:
        words.update(targets_of(f"{task.key} {task.title}"))
        words.add(task.key.lower())
    return frozenset(words)
