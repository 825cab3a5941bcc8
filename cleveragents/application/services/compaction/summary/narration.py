"""Decisions told apart from narration, and the work an agent announces, in its own sentences.

An agent narrates as it goes ("Let me read the file.", "I'll work on all of them in
parallel.", "Right, I need to add the missing functions."): that is what it was about to do,
not what it chose, and a resumed agent learns nothing from it. A decision states a choice
("use the generated identity instead of the manual one"), a conclusion ("the root cause is a
missing None check") or an action with its reason ("inline the full module path to satisfy
the compiler"). The rules read the wording of choices, never the project, so they hold for any
session:

* a sentence opening with narration ("let me", "I'll", "now let's", "I need to", after
  "now", "ok", "right"...) is a decision only when what follows states a choice (the means
  chosen: "I'll use X", "I need to switch to Y"; a choice or a conclusion as below) or gives a
  reason; the decision is then written without the narration ("Use X instead of Y.");
* any other sentence is a decision when it states a choice or a conclusion;
* questions, "let me know" and sentences that only introduce code (ending with ":") never are.

An announcement of work ("Now let's move to the tail adapter.", "Next, the CLI.", "Moving on
to X") names the work taken up next; the last one is the work in progress at the cut.
"""

from __future__ import annotations

import re

_APOSTROPHE = "['\u2019]"
# Words an agent starts a sentence with before the narration itself ("Now, let me...").
_DISCOURSE = (
    r"(?:(?:now|ok|okay|right|so|good|great|alright|all right|perfect|excellent|first|then"
    r"|finally|also|actually|next|done|got it|understood|expected|hmm|well)\b[\s,.:;!\u2014-]*)*"
)
_NARRATOR = (
    rf"(?:let me|let{_APOSTROPHE}s|let us|I{_APOSTROPHE}ll|I will|I{_APOSTROPHE}m going to"
    r"|I am going to|I need to|I have to|I must|I should|I want to|I{_APOSTROPHE}d like to"
    rf"|we need to|we{_APOSTROPHE}ll|we will|we should|we have to|now I|time to)"
)
_LEADING_DISCOURSE = re.compile(_DISCOURSE, re.IGNORECASE)
_NARRATION_HEAD = re.compile(rf"^{_DISCOURSE}{_NARRATOR}\b\s*(?:also\s+|just\s+|now\s+)?", re.I)

# The wording of a choice or a conclusion.
_CHOICE = re.compile(
    r"\b(?:instead|rather than|in favou?r of|decided|decide to|decision|going with|go with"
    r"|opted|opt for|chose|choose|choosing|switch(?:ed|ing)? (?:to|from|back)|prefer(?:red|s)?"
    r"|stick(?:ing)? with|keep(?:ing)? (?:it|them|the|this|that)\b.{0,40}\bas"
    r"|root cause|the culprit|(?:the|this|that) (?:fix|cause|problem|issue|bug|solution|approach)"
    r" (?:is|was|here is)|(?:the )?(?:best|simplest|cleanest|safest|right|correct) (?:way|fix"
    r"|approach|option|choice)|(?:is|are|would be) (?:better|safer|simpler|cleaner) than"
    r"|no need to|not worth|won['\u2019]t work|doesn['\u2019]t work)\b",
    re.IGNORECASE,
)
# A reason given for an action.
_REASON = re.compile(
    r"\b(?:to avoid|so that|so it|because|since|in order to|to satisfy|to prevent|otherwise"
    r"|to keep (?:the|it|them|compat|backward)|which (?:avoids|keeps|fixes|means))\b",
    re.IGNORECASE,
)
# How an action is done, when the means is the choice ("rewrite it with a table copy").
_MEANS = re.compile(
    r"\b(?:rewrite|replace|swap|migrate|convert|revert|pin|downgrade|upgrade|inline|wrap"
    r"|disable|skip|drop|avoid|restructure|split|merge)\b.{1,80}?\b(?:with|using|via|by|as)\b",
    re.IGNORECASE,
)
# "I'll use the staging bucket", "I need to use `:auto` mode": the means chosen for the work.
_CHOSEN_MEANS = re.compile(r"(?:use|switch to|stick with|go with|keep using)\b", re.IGNORECASE)
_NOT_DECISION = re.compile(rf"\blet me know\b|^(?:here{_APOSTROPHE}s|here is|this is)\b", re.I)
_MIN_DECISION = 12  # shorter bodies ("Use it.") name no choice a resumed agent can act on

# Taking up a piece of work: "move to X", "start on X", "work on X", "next up: X".
_TAKE_UP = re.compile(
    r"^(?:(?:move|moving|go|going|turn|turning|proceed|proceeding|continue|continuing)"
    r"\s+(?:on\s+)?(?:to|onto|with)|(?:start|starting|begin|beginning|work|working|tackle"
    r"|tackling|focus|focusing)\s+(?:on|with)?)\s+(?P<work>.+)",
    re.IGNORECASE,
)
_NEXT_FIRST = re.compile(r"^\W*next\b", re.IGNORECASE)
_ANNOUNCED = re.compile(
    rf"^{_DISCOURSE}(?:next(?: up)?\s*[,:\u2014-]\s*(?P<next>.+)"
    r"|(?:moving on|on to|onto|now for|up next)\s*(?:to|:|,|\u2014)?\s*(?P<on>.+))",
    re.IGNORECASE,
)


def is_question(sentence: str) -> bool:
    return sentence.rstrip().endswith("?")


def narration_head(sentence: str) -> str:
    """The narration a sentence opens with ("Now, let me "), or "" when it opens otherwise.

    A short fragment before a dash ("Expected — I'll use it") does not hide the narration."""
    match = _NARRATION_HEAD.match(sentence)
    if match is None:
        before, dash, after = sentence.partition(" \u2014 ")
        if dash and len(before) <= 30:
            inner = _NARRATION_HEAD.match(after)
            if inner is not None:
                return before + dash + inner.group(0)
        return ""
    return match.group(0)


def is_narration(sentence: str) -> bool:
    """Whether `sentence` opens with narration (what the agent is about to do)."""
    return narration_head(sentence) != ""


def decision(sentence: str) -> str | None:
    """The decision `sentence` states, written without its narration; None when it states
    none (narration, a question, a look around, an introduction to code)."""
    sentence = sentence.strip()
    if is_question(sentence) or sentence.endswith(":") or _NOT_DECISION.search(sentence):
        return None
    head = narration_head(sentence) or _leading_discourse(sentence)
    body = sentence[len(head) :].strip()
    if len(body) < _MIN_DECISION:
        return None
    chosen_means = head != "" and _CHOSEN_MEANS.match(body) is not None
    if not (chosen_means or _CHOICE.search(body) or _REASON.search(body) or _MEANS.search(body)):
        return None
    return body[0].upper() + body[1:] if head else body


def _leading_discourse(sentence: str) -> str:
    match = _LEADING_DISCOURSE.match(sentence)
    return match.group(0) if match is not None else ""


def announced_work(sentence: str) -> str | None:
    """The work `sentence` announces taking up ("Now let's move to the parser." gives "the
    parser", "Next, I'll wire the CLI." gives "wire the CLI"), or None when it announces none."""
    if is_question(sentence):
        return None
    match = _ANNOUNCED.match(sentence)
    if match is not None:
        work = match.group("next") or match.group("on") or ""
        return _work(work[len(narration_head(work)) :])
    head = narration_head(sentence)
    if not head:
        return None
    body = sentence[len(head) :]
    if _NEXT_FIRST.match(head):
        return _work(body)
    taken = _TAKE_UP.match(body)
    return _work(taken.group("work")) if taken is not None else None


def _work(text: str) -> str | None:
    work = text.strip().rstrip(".:!").strip()
    return work or None
