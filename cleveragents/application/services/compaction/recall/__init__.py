"""Recall of a compaction: the share of the facts a resumed agent needs that a compaction kept
(the package measures; it never compacts).

The measurement is independent of any summarizer: `recovery_facts` extracts the facts from
the full transcript by fixed rules, and `presence` looks for them as text in the compacted
transcript (or in a summary given as a string, such as Claude Code's LLM summary). It never
calls the summarizer it measures.

Rules, in short (details in the modules named):

* latest_request: the newest user text that is a real request, not harness noise
  (`recall.requests`, past the harness noise of `domain.harness_noise`).
* user_requests: every distinct real request, in order (the latest included).
* files_modified: paths written by write/edit tools whose result is not an error
  (`recall.tools`); needle: the path (or its workspace-relative form).
* files_read: paths whose content a read tool (Read, NotebookRead, view, the editor's view)
  returned successfully; searches and listings are not reads. Needle: the path.
* commands: each distinct shell command with the outcome of its latest answered run; needle:
  the command (or its core without ``cd dir &&`` / ``2>&1 | tail``); a failed run also needs
  "fail" or "error" nearby. A successful run needs no outcome word.
* errors: each tool and target (its command or path) whose call failed (an error result, or a
  command's non-zero exit), kept even when a later call on it succeeded; needle: the target
  with an error word ("fail", "error", "not found", "rejected"...) nearby.
* unfinished: pending and in-progress items of the last TodoWrite.
* decisions: the user's answers to the agent's questions, a plan the user approved, and
  assistant sentences stating a choice or a conclusion (`recall.decisions`,
  `recall.prose`).
* next_step: the in-progress todo item, else the last statement of intent in the last
  assistant text after the latest request.
* uncertain_effects: calls that are not read-only whose result is missing, an error or an
  interruption, unless a later call on the same target succeeded; needle: its command or path.

Prose facts (requests, unfinished items, decisions, the next step) are recovered as written or
by their key terms: most of their rarest distinctive terms within a few hundred characters
(`recall.text`), since summaries paraphrase and cut prose.

Beside recall, `summary_checks` checks what a summary of ours says: decisions that are only
narration, uncertain effects a later call had settled, the work in progress at the cut.

Example::

    facts = recovery_facts(original.messages)
    report = presence(facts, compacted.messages)
    report[FactCategory.FILES_MODIFIED].share  # 1.0 when every modified file is named
"""

from __future__ import annotations

from cleveragents.application.services.compaction.recall.claude_code import (
    claude_code_compaction_cuts,
    claude_code_compaction_point,
    claude_code_compaction_points,
    claude_code_workspace,
    llm_summary_text,
    message_workspace,
)
from cleveragents.application.services.compaction.recall.facts import recovery_facts
from cleveragents.application.services.compaction.recall.model import (
    TARGET_CATEGORIES,
    CategoryRecovery,
    Fact,
    FactCategory,
    RecoveryReport,
)
from cleveragents.application.services.compaction.recall.presence import (
    NEEDLE_PREFIX,
    OUTCOME_WINDOW,
    is_recovered,
    presence,
)
from cleveragents.application.services.compaction.recall.requests import request_text
from cleveragents.application.services.compaction.recall.text import (
    TERM_SHARE,
    TERM_WINDOW,
    key_terms,
    searchable_text,
    terms_recovered,
)
from cleveragents.domain.transcript import CONTINUATION_PREFIX

__all__ = [
    "CONTINUATION_PREFIX",
    "NEEDLE_PREFIX",
    "OUTCOME_WINDOW",
    "TARGET_CATEGORIES",
    "TERM_SHARE",
    "TERM_WINDOW",
    "CategoryRecovery",
    "Fact",
    "FactCategory",
    "RecoveryReport",
    "claude_code_compaction_cuts",
    "claude_code_compaction_point",
    "claude_code_compaction_points",
    "claude_code_workspace",
    "is_recovered",
    "key_terms",
    "llm_summary_text",
    "message_workspace",
    "presence",
    "recovery_facts",
    "request_text",
    "searchable_text",
    "terms_recovered",
]
