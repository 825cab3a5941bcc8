"""Rules that find decisions and statements of intent in prose, for the recovery measurement.

They read sentences, not meaning, so they are deliberately plain and general (any session,
any project):

* a decision is an assistant sentence that states a choice or a conclusion: it contains
  "instead of", "rather than", "decided"/"decide to"/"decision", "going with"/"go with",
  "opted"/"opt for", "chose"/"choose"/"choosing", "switch(ed) to", "prefer", "root cause",
  or a conclusion such as "the fix is", "the cause was", "the problem is", "the solution is",
  "the approach is", "the best/simplest/cleanest/right way (fix, approach, option)"; or the
  agent commits to a means ("I'll use", "I need to rewrite", "let me switch", "we should
  avoid": a first-person intent followed by use, switch, rewrite, replace, keep, avoid, skip,
  drop, revert, stick with); or a statement of intent gives its reason ("to avoid", "so
  that", "because", "since", "in order to"). A question or a "let me know" is never one;
* a statement of intent is an assistant sentence that starts (after "now", "next", "then",
  "first", "ok", "great"...) with "let me", "let's", "I'll", "I will", "I'm going to",
  "I need to", "we need to", "I should", "the next step is", or with "next," itself;
  "let me know" and questions are not intents;
* the user's answers to the agent's multiple-choice questions are read from the tool result
  ``User has answered your questions: "question"="answer", ...``;
* a plan is named by its first line (its title), without markdown markers.

Code blocks are left out before sentences are cut; a sentence is at least 20 characters.
"""

from __future__ import annotations

import re

from cleveragents.application.services.compaction.recall.text import normalise

_FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
_LINE_MARKER = re.compile(r"^\s*(?:[-*+>]|\d+[.)]|#+)\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(\[*])")
_MIN_SENTENCE = 20

_DECISION = re.compile(
    r"\b(?:instead of|rather than|decided|decide to|decision|going with|go with|opted|"
    r"opt for|opting|chose|choose|choosing|switch(?:ed|ing)? to|prefer(?:red|s)?|root cause)\b"
    r"|\bthe (?:fix|cause|problem|solution|approach|culprit) (?:is|was|here is)\b"
    r"|\bthe (?:best|simplest|cleanest|right|safest) (?:way|fix|approach|option)\b",
    re.IGNORECASE,
)
_LEAD = r"(?:(?:now|next|then|first|so|ok|okay|great|good|alright|all right|finally)[,:]?\s+)*"
_SUBJECT = (
    r"(?:let me|let's|i'll|i will|we'll|we will|i'm going to|i am going to|i need to|"
    r"we need to|i should|we should)"
)
_INTENT = re.compile(_LEAD + rf"(?:{_SUBJECT}|(?:the )?next step is|next[,:])", re.IGNORECASE)
# Narration before the choice, after a short fragment and a dash at most ("Expected — I'll").
_NARRATION = re.compile(
    rf"^(?:[^.!?]{{0,30}}?\s[\u2014-]\s)?{_LEAD}{_SUBJECT}\s+(?:(?:also|just|now)\s+)?",
    re.IGNORECASE,
)
_NOT_INTENT = re.compile(r"\blet me know\b", re.IGNORECASE)
_COMMITMENT = re.compile(
    rf"\b{_SUBJECT}\s+(?:(?:also|just|instead|first|now)\s+)?"
    r"(?:use|switch|rewrite|replace|keep|avoid|skip|drop|revert|stick with)\b",
    re.IGNORECASE,
)
_REASON = re.compile(r"\b(?:to avoid|so that|because|since|in order to)\b", re.IGNORECASE)

ANSWERS_PREFIX = "User has answered your questions:"
_ANSWER = re.compile(r'"((?:[^"\\]|\\.)*)"\s*=\s*"((?:[^"\\]|\\.)*)"')
_PLAN_TITLE_LIMIT = 300


def sentences(text: str) -> list[str]:
    """The sentences of prose `text`: code blocks dropped, one line (a list item, a heading)
    never continuing into the next, list markers removed, whitespace normalised."""
    found: list[str] = []
    for raw_line in _FENCE.sub("\n", text).splitlines():
        line = _LINE_MARKER.sub("", raw_line).strip()
        for piece in _SENTENCE_END.split(line):
            sentence = normalise(piece)
            if len(sentence) >= _MIN_SENTENCE:
                found.append(sentence)
    return found


def is_decision(sentence: str) -> bool:
    if sentence.rstrip().endswith("?") or _NOT_INTENT.search(sentence):
        return False
    return bool(
        _DECISION.search(sentence)
        or _COMMITMENT.search(sentence)
        or (_REASON.search(sentence) and re.search(rf"\b{_SUBJECT}\b", sentence, re.I))
    )


def without_narration(sentence: str) -> str | None:
    """The choice a decision states, without the narration it opens with ("I need to use
    `:auto` mode." gives "Use `:auto` mode."): an equivalent spelling a summary may write.
    None when the sentence does not open with narration or little is left."""
    match = _NARRATION.match(sentence)
    if match is None:
        return None
    rest = sentence[match.end() :].strip()
    return rest[0].upper() + rest[1:] if len(rest) >= _MIN_SENTENCE // 2 else None


def is_intent(sentence: str) -> bool:
    if sentence.rstrip().endswith("?") or _NOT_INTENT.search(sentence):
        return False
    return _INTENT.match(sentence) is not None


def question_answers(result_text: str) -> list[tuple[str, str]]:
    """The (question, answer) pairs of an answered multiple-choice question; the whole answer
    text as one pair with an empty question when it is not in the usual quoted form."""
    text = result_text.strip()
    if not text.startswith(ANSWERS_PREFIX):
        return []
    pairs = [(normalise(q), normalise(a)) for q, a in _ANSWER.findall(text) if a.strip()]
    if pairs:
        return pairs
    rest = normalise(text[len(ANSWERS_PREFIX) :])
    return [("", rest)] if rest else []


def plan_title(plan: str) -> str:
    """The title of a plan: its first non-empty line without markdown markers, followed by
    the next lines while it is shorter than a sentence (up to 300 characters)."""
    parts: list[str] = []
    for raw in _FENCE.sub("\n", plan).splitlines():
        line = normalise(_LINE_MARKER.sub("", raw).replace("**", ""))
        if not line:
            continue
        parts.append(line)
        if sum(len(part) for part in parts) >= 2 * _MIN_SENTENCE:
            break
    return " ".join(parts)[:_PLAN_TITLE_LIMIT]
