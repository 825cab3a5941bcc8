"""Recovery correctness: the share of the facts a resumed agent needs that a compaction kept.

The measurement is independent of any summarizer: `recovery_facts` extracts the facts from
the full transcript by fixed rules, and `presence` looks for them as text in the compacted
transcript (or in a summary given as a string, such as Claude Code's LLM summary). It never
calls the summarizer it measures.

Rules, in short (details in the modules named):

* latest_request: the newest user text that is a real request, not harness noise
  (`recovery_facts`); needle: that text.
* files_modified: paths written by write/edit tools whose result is not an error
  (`recovery_tools`); needle: the path (or its workspace-relative form).
* commands: each distinct shell command with the outcome of its latest answered run; needle:
  the command (or its core without ``cd dir &&`` / ``2>&1 | tail``); a failed run also needs
  "fail" or "error" nearby. A successful run needs no outcome word.
* unfinished: pending and in-progress items of the last TodoWrite; needle: the item text.
* uncertain_effects: calls that are not read-only whose result is missing, an error or an
  interruption, unless a later call on the same target succeeded; needle: its command or path.

Example::

    facts = recovery_facts(original.messages)
    report = presence(facts, compacted.messages)
    report[FactCategory.FILES_MODIFIED].share  # 1.0 when every modified file is named
"""

from __future__ import annotations

from cleveragents.application.services.compaction.recovery_claude_code import (
    CONTINUATION_PREFIX,
    claude_code_compaction_cuts,
    claude_code_compaction_point,
    claude_code_compaction_points,
    claude_code_workspace,
    llm_summary_text,
    message_workspace,
)
from cleveragents.application.services.compaction.recovery_facts import (
    recovery_facts,
    request_text,
)
from cleveragents.application.services.compaction.recovery_model import (
    TARGET_CATEGORIES,
    CategoryRecovery,
    Fact,
    FactCategory,
    RecoveryReport,
)
from cleveragents.application.services.compaction.recovery_presence import (
    NEEDLE_PREFIX,
    OUTCOME_WINDOW,
    is_recovered,
    presence,
    searchable_text,
)

__all__ = [
    "CONTINUATION_PREFIX",
    "NEEDLE_PREFIX",
    "OUTCOME_WINDOW",
    "TARGET_CATEGORIES",
    "CategoryRecovery",
    "Fact",
    "FactCategory",
    "RecoveryReport",
    "claude_code_compaction_cuts",
    "claude_code_compaction_point",
    "claude_code_compaction_points",
    "claude_code_workspace",
    "is_recovered",
    "llm_summary_text",
    "message_workspace",
    "presence",
    "recovery_facts",
    "request_text",
    "searchable_text",
]
