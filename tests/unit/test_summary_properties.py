"""Properties of the summary on generated sessions: narration never becomes a decision, tasks
end in the section their last change puts them in, an uncertain effect is never one a later
success settled, and the budget serves the work in progress before the long lists."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cleveragents.application.services.compaction.recall.summary_checks import is_narration
from cleveragents.application.services.compaction.summary.budget import fit_summary
from cleveragents.application.services.compaction.summary.narration import decision
from cleveragents.domain.compaction_summary import (
    CompactionSummary,
    SummarySection,
    render_summary,
)
from cleveragents.domain.transcript import Message
from tests.generated_sessions import assistant, bash, call, step, summarize, todo_write, user
from tests.summary_samples import count

S = SummarySection
PROPERTY = settings(max_examples=60, deadline=None)

_DISCOURSE = st.sampled_from(["", "Now ", "Now, ", "OK, ", "Right, ", "Great. ", "Alright, "])
_NARRATOR = st.sampled_from(
    ["let me", "I'll", "let's", "I need to", "I will", "I'm going to", "we need to", "I should"]
)
_ACTION = st.sampled_from(
    ["read", "check", "add", "implement", "look at", "create", "run", "write", "open", "update"]
)
# Words that name things, never the wording of a choice or a reason.
_WORD = st.sampled_from(
    [
        "parser",
        "schema",
        "config",
        "router",
        "worker",
        "cache",
        "session_live",
        "migration",
        "tests",
        "handler",
        "template",
        "adapter",
        "importer",
        "fixture",
        "module",
        "token",
    ]
)
_OBJECT = st.lists(_WORD, min_size=1, max_size=4).map(" ".join)
_ENDING = st.sampled_from([".", " first.", " now.", " in parallel.", " next.", ":"])


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


@st.composite
def narration(draw: st.DrawFn) -> str:
    lead, narrator = draw(_DISCOURSE), draw(_NARRATOR)
    opening = lead + (narrator if lead else _capital(narrator))
    return f"{opening} {draw(_ACTION)} the {draw(_OBJECT)}{draw(_ENDING)}"


@st.composite
def choice(draw: st.DrawFn) -> tuple[str, str]:
    """(sentence, the choice it states) for a choice narrated or stated plainly."""
    kept, dropped = draw(_OBJECT), draw(_OBJECT)
    body = draw(
        st.sampled_from(
            [
                f"use {kept} instead of {dropped}",
                f"keep {kept} rather than {dropped}",
                f"inline {kept} to avoid {dropped}",
                f"switch to {kept} so that {dropped} keeps working",
            ]
        )
    )
    lead, narrator = draw(_DISCOURSE), draw(_NARRATOR)
    opening = lead + (narrator if lead else _capital(narrator))
    return f"{opening} {body}.", _capital(body) + "."


@PROPERTY
@given(st.lists(narration(), min_size=1, max_size=8))
def test_narration_is_never_a_decision(sentences: list[str]) -> None:
    summary = summarize(user("do the work"), assistant(" ".join(sentences)))
    assert summary.items(S.DECISIONS) == ()
    assert all(decision(sentence) is None for sentence in sentences)


@PROPERTY
@given(st.lists(st.one_of(narration(), choice()), min_size=1, max_size=8))
def test_decisions_are_the_choices_without_their_narration(
    mixed: list[str | tuple[str, str]],
) -> None:
    text = " ".join(item if isinstance(item, str) else item[0] for item in mixed)
    summary = summarize(user("do the work"), assistant(text))
    expected = tuple(dict.fromkeys(item[1] for item in mixed if isinstance(item, tuple)))
    assert summary.items(S.DECISIONS) == expected
    # The recall measurement's own rule agrees: none of them is narration.
    assert not any(is_narration(item) for item in summary.items(S.DECISIONS))


_TASK = st.sampled_from(["shop-a1", "shop-a2", "shop-a3.1", "shop-b7"])
_OPERATION = st.sampled_from(["open", "start", "close", "reopen"])
_BEADS = {
    "open": "bd update {} --status open",
    "start": "bd update {} --status=in_progress 2>&1",
    "close": "bd close {} --reason='done'",
    "reopen": "bd reopen {}",
}


@PROPERTY
@given(st.lists(st.tuples(_OPERATION, _TASK, st.booleans()), min_size=1, max_size=12))
def test_a_shell_tracked_task_ends_where_its_last_applied_change_puts_it(
    operations: list[tuple[str, str, bool]],
) -> None:
    messages: list[Message] = [user("tackle the beads")]
    state: dict[str, str] = {}
    for operation, task, applied in operations:
        messages += bash(
            _BEADS[operation].format(task), "ok" if applied else "no", failed=not applied
        )
        if applied and (task in state or operation != "close"):
            state[task] = operation
        elif applied:
            state[task] = "close"
    summary = summarize(*messages)
    open_tasks = {f"{task} (bd)" for task, last in state.items() if last != "close"}
    closed = {f"{task} (bd)" for task, last in state.items() if last == "close"}
    started = {f"in progress: {task} (bd)" for task, last in state.items() if last == "start"}
    assert set(summary.items(S.UNFINISHED)) == open_tasks
    assert set(summary.items(S.COMPLETED)) == closed
    assert {i for i in summary.items(S.CURRENT_WORK) if i.startswith("in progress")} == started


_STATUS = st.sampled_from(["pending", "in_progress", "completed"])


@PROPERTY
@given(
    st.lists(st.lists(st.tuples(_WORD, _STATUS), min_size=1, max_size=6), min_size=1, max_size=4)
)
def test_the_last_todo_list_decides_open_and_closed_items(
    lists: list[list[tuple[str, str]]],
) -> None:
    messages: list[Message] = [user("plan it")]
    for items in lists:
        messages += step(todo_write(*items))
    summary = summarize(*messages)
    last = dict(lists[-1])  # a repeated item keeps its last status
    assert summary.items(S.UNFINISHED) == tuple(c for c, s in last.items() if s != "completed")
    assert summary.items(S.COMPLETED) == tuple(c for c, s in last.items() if s == "completed")


_COMMAND = st.sampled_from(["git push", "rm -rf build", "npm publish", "./deploy.sh prod"])
_FLAGS = st.sampled_from(["", " --force-with-lease", " --dry-run"])
_OUTCOME = st.sampled_from(["ok", "failed", "missing"])


@PROPERTY
@given(st.lists(st.tuples(_COMMAND, _FLAGS, _OUTCOME), min_size=1, max_size=10))
def test_an_uncertain_effect_is_never_one_a_later_success_settled(
    runs: list[tuple[str, str, str]],
) -> None:
    messages: list[Message] = [user("ship")]
    for command, flags, outcome in runs:
        if outcome == "missing":
            messages.append(assistant("", call("Bash", command=command + flags)))
        else:
            failed = outcome == "failed"
            messages += bash(command + flags, "error: boom" if failed else "done", failed=failed)
    uncertain = summarize(*messages).items(S.UNCERTAIN_EFFECTS)
    for position, (command, flags, outcome) in enumerate(runs):
        if outcome == "ok":
            continue
        item = f"`{command + flags}`"
        # The same command succeeded later, or it with a flag added (never a flag dropped).
        settled = any(
            later_outcome == "ok" and later_command == command and flags in ("", later_flags)
            for later_command, later_flags, later_outcome in runs[position + 1 :]
        )
        named = f"Bash {item}: " in "\n".join(f"{entry}" for entry in uncertain)
        last_attempt = all(c + f != command + flags for c, f, _ in runs[position + 1 :])
        if last_attempt:
            assert named != settled, (item, settled, uncertain)


_FILLER = st.integers(min_value=0, max_value=400)


@PROPERTY
@given(_FILLER, _FILLER, st.integers(min_value=160, max_value=1_500))
def test_the_budget_serves_the_work_in_progress_before_long_lists(
    files: int, commands: int, budget: int
) -> None:
    summary = CompactionSummary(
        latest_request="continue",
        sections={
            S.FILES_READ: tuple(f"src/package/module_{i}.py" for i in range(files)),
            S.COMMANDS: tuple(f"`pytest tests/test_{i}.py` -> ok" for i in range(commands)),
            S.CURRENT_WORK: ("in progress: shop-a1.5 (bd)", "last edited: src/review.py"),
            S.UNFINISHED: ("shop-a1.5 (bd)", "shop-a1.6 (bd)"),
            S.NEXT_STEPS: ("Create the review page.",),
        },
    )
    fitted = fit_summary(summary, budget, count)
    assert count(render_summary(fitted)) <= budget
    if fitted.items(S.FILES_READ) or fitted.items(S.COMMANDS):
        for section in (S.CURRENT_WORK, S.UNFINISHED, S.NEXT_STEPS):
            assert fitted.items(section) == summary.items(section)
