"""Decisions and the next step: the two things agents most often lose after a compaction.

* decisions, in transcript order, each once: the user's answers to the agent's
  multiple-choice questions (one fact per question: its answer with the question's key
  terms), a plan the user approved (its title: the ``plan`` argument of the approval call, or
  else the last plan file, ``*plan*.md``, written before it), and assistant sentences that
  state a choice or a conclusion (`recall.prose.is_decision`); one that opens with
  narration ("I need to use X") is also recognised without it ("Use X"), as a summary that
  keeps decisions apart from narration writes it.
* the next step, at most one: the first in-progress item of the last todo list; else the
  last statement of intent (`recall.prose.is_intent`) in the last assistant message with
  text after the latest request. Intents before that message were acted upon or superseded;
  a last message without one (a final report) means the agent had nothing left to do.

All are prose, recognised verbatim or by their key terms (`recall.text`).
"""

from __future__ import annotations

import posixpath
from collections import Counter
from collections.abc import Sequence

from cleveragents.application.services.compaction.recall.model import Fact, FactCategory
from cleveragents.application.services.compaction.recall.prose import (
    is_decision,
    is_intent,
    plan_title,
    question_answers,
    sentences,
    without_narration,
)
from cleveragents.application.services.compaction.recall.requests import request_text
from cleveragents.application.services.compaction.recall.text import (
    MAX_TERMS,
    MIN_TERMS,
    key_terms,
    normalise,
    prose_fact,
    shorten,
)
from cleveragents.application.services.compaction.recall.tools import (
    PLAN_APPROVAL_TOOL,
    TODO_TOOL,
    call_status,
    modified_paths,
)
from cleveragents.domain.transcript import Message, Role, TextBlock, ToolCall, ToolResult

_ANSWER_TERMS = 4
_ANSWER_MIN_WORD = 3  # an answer is short: "No rig", "Use Redis"
_SPECIFIC_ANSWER = 20


def decisions(
    messages: Sequence[Message], results: dict[str, ToolResult], frequencies: Counter[str]
) -> tuple[Fact, ...]:
    found: dict[str, Fact] = {}
    plan_file: str | None = None
    for message in messages:
        if message.role is not Role.ASSISTANT:
            continue
        for block in message.content:
            if isinstance(block, TextBlock):
                for sentence in filter(is_decision, sentences(block.text)):
                    label = f"decision: {shorten(sentence)}"
                    choice = without_narration(sentence)
                    spellings = (choice,) if choice else ()
                    found.setdefault(
                        sentence,
                        prose_fact(
                            FactCategory.DECISIONS,
                            label,
                            sentence,
                            frequencies,
                            spellings=spellings,
                        ),
                    )
            elif isinstance(block, ToolCall):
                result = results.get(block.id)
                plan_file = _plan_written(block, result) or plan_file
                for key, fact in _call_decisions(block, result, plan_file, frequencies):
                    found.setdefault(key, fact)
    return tuple(found.values())


def next_step(
    messages: Sequence[Message], calls: Sequence[ToolCall], frequencies: Counter[str]
) -> tuple[Fact, ...]:
    for content, status in last_todos(calls):
        if status == "in_progress":
            label = f"next step (in progress): {shorten(content)}"
            return (prose_fact(FactCategory.NEXT_STEP, label, content, frequencies),)
    for message in reversed(messages):
        if message.role is Role.USER and request_text(message) is not None:
            return ()  # no assistant text since the latest request
        if message.role is Role.ASSISTANT and message.text.strip():
            intents = [sentence for sentence in sentences(message.text) if is_intent(sentence)]
            if not intents:
                return ()
            label = f"next step: {shorten(intents[-1])}"
            return (prose_fact(FactCategory.NEXT_STEP, label, intents[-1], frequencies),)
    return ()


def last_todos(calls: Sequence[ToolCall]) -> list[tuple[str, str]]:
    """The (content, status) items of the last todo list written (whitespace-normalised)."""
    for call in reversed(calls):
        todos = call.input.get("todos") if call.name == TODO_TOOL else None
        if not isinstance(todos, list):
            continue
        items: list[tuple[str, str]] = []
        for item in todos:
            if not isinstance(item, dict):
                continue
            content, status = item.get("content"), item.get("status")
            if isinstance(content, str) and content.strip() and isinstance(status, str):
                items.append((normalise(content), status))
        return items
    return []


def _call_decisions(
    call: ToolCall, result: ToolResult | None, plan_file: str | None, frequencies: Counter[str]
) -> list[tuple[str, Fact]]:
    if result is None or call_status(call, result) != "ok":
        return []
    facts: list[tuple[str, Fact]] = []
    for question, answer in question_answers(result.content):
        text = f"{question} {answer}".strip()
        label = f"decision (the user's answer): {shorten(text)}"
        facts.append((text, _answer_fact(label, question, answer, frequencies)))
    if call.name == PLAN_APPROVAL_TOOL and "approv" in result.content.lower():
        plan = call.input.get("plan")
        title = plan_title(plan if isinstance(plan, str) and plan.strip() else plan_file or "")
        if title:
            label = f"decision (plan approved): {shorten(title)}"
            facts.append((title, prose_fact(FactCategory.DECISIONS, label, title, frequencies)))
    return facts


def _answer_fact(label: str, question: str, answer: str, frequencies: Counter[str]) -> Fact:
    # The answer's own terms first (all of them count, even short words), then the rarest of
    # the question's. A short answer alone ("Yes", "No rig") is no evidence of the decision,
    # so it is a needle only when it is long enough to be specific.
    answer_terms = key_terms(answer, frequencies, limit=_ANSWER_TERMS, min_word=_ANSWER_MIN_WORD)
    question_terms = key_terms(
        question, frequencies, limit=MAX_TERMS - len(answer_terms), exclude=answer_terms
    )
    terms = answer_terms + question_terms
    if len(terms) < MIN_TERMS or len(answer) >= _SPECIFIC_ANSWER:
        return Fact(FactCategory.DECISIONS, label, (answer,), terms=terms)
    return Fact(FactCategory.DECISIONS, label, (), terms=terms)


def _plan_written(call: ToolCall, result: ToolResult | None) -> str | None:
    """The content of a plan file this call wrote successfully, if it wrote one."""
    content = call.input.get("content")
    if not isinstance(content, str) or call_status(call, result) != "ok":
        return None
    for path in modified_paths(call):
        name = posixpath.basename(path).lower()
        if "plan" in name and name.endswith(".md"):
            return content
    return None
