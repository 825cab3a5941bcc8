"""Where the work stands at the cut: the work in progress, the open items, the completed ones,
and the next steps.

* Current work: the tasks in progress in the agent's own trackers (`task_tracking`), the
  last work it announced taking up ("Now let's move to X"), the file it last edited and the
  test it last ran, all in the current turn (after the latest request) but the tasks.
* Unfinished work: open items only, never the request (which the summary quotes anyway):
  steps the agent announced and never reached (`announced_steps`), tasks opened or started
  and not closed, tests whose last run failed and no later run fixed, pushes and deploys
  whose last attempt was not confirmed.
* Completed work: tasks closed.
* Next steps: the first task still open, and what the last assistant message said comes next.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cleveragents.application.services.compaction.summary.announced_steps import (
    unreached_steps,
)
from cleveragents.application.services.compaction.summary.command_resolution import (
    Settlements,
    core_command,
    is_delivery,
)
from cleveragents.application.services.compaction.summary.extract_assistant import (
    announced_next_steps,
    last_announcement,
)
from cleveragents.application.services.compaction.summary.extract_commands import (
    command_item,
    is_test_command,
)
from cleveragents.application.services.compaction.summary.extract_outcomes import (
    Outcome,
    ToolActivity,
)
from cleveragents.application.services.compaction.summary.extract_requests import UserRequest
from cleveragents.application.services.compaction.summary.extract_text import clip, unique
from cleveragents.application.services.compaction.summary.extract_tools import (
    files_modified,
    shell_command,
)
from cleveragents.application.services.compaction.summary.paths import LAST_EDITED
from cleveragents.application.services.compaction.summary.task_tracking import (
    TODO_LIST,
    TaskState,
    TrackedTask,
    tracked_tasks,
)
from cleveragents.domain.transcript import Message

FAILING_TEST = "failing at the cut"
_ANNOUNCED = "announced: "
NOT_CONFIRMED = "not confirmed"

# A refused run did not happen by the user's choice: nothing to confirm, nothing to retry.
_SETTLED = (Outcome.OK, Outcome.REFUSED)


@dataclass(frozen=True, slots=True)
class Progress:
    current_work: tuple[str, ...]
    unfinished: tuple[str, ...]
    completed: tuple[str, ...]
    next_steps: tuple[str, ...]


def progress(
    messages: Sequence[Message],
    activities: Sequence[ToolActivity],
    latest: UserRequest | None,
    settled: Settlements,
) -> Progress:
    turn_start = latest.index if latest is not None else -1
    current_turn = messages[turn_start + 1 :]
    turn_activities = [activity for activity in activities if activity.index > turn_start]
    tasks = tracked_tasks(activities)
    open_tasks = [task for task in tasks if task.state is not TaskState.DONE]
    first_open = [task.label for task in open_tasks if task.state is TaskState.OPEN][:1]
    current_work = _current_work(tasks, messages, turn_start + 1, turn_activities)
    next_steps = unique([*first_open, *announced_next_steps(current_turn)])
    # Listed first, so the budget (newest items first) ranks the tasks and commands above them.
    steps = unreached_steps(
        messages,
        activities,
        tasks,
        listed=[*next_steps, *(item.removeprefix(_ANNOUNCED) for item in current_work)],
    )
    return Progress(
        current_work=current_work,
        unfinished=unique(
            [*steps, *(task.label for task in open_tasks), *_open_commands(activities, settled)]
        ),
        completed=unique(task.label for task in tasks if task.state is TaskState.DONE),
        next_steps=next_steps,
    )


def _current_work(
    tasks: Sequence[TrackedTask],
    messages: Sequence[Message],
    turn_start: int,
    turn_activities: Sequence[ToolActivity],
) -> tuple[str, ...]:
    found = [
        f"in progress ({TODO_LIST}): {task.label}"
        if task.tracker == TODO_LIST
        else f"in progress: {task.label}"
        for task in tasks
        if task.state is TaskState.IN_PROGRESS
    ]
    announced = last_announcement(messages, turn_start)
    last_change = max((task.changed for task in tasks), default=-1)
    # A task closed or started since the announcement says more than it (it may be done).
    if announced is not None and announced[0] > last_change:
        found.append(_ANNOUNCED + announced[1])
    edited = [
        path
        for activity in turn_activities
        if activity.outcome is Outcome.OK
        for path in files_modified(activity.call)
    ]
    if edited:
        found.append(LAST_EDITED + clip(edited[-1]))
    tests = [
        activity
        for activity in turn_activities
        if (command := shell_command(activity.call)) is not None and is_test_command(command)
    ]
    if tests:
        found.append(f"last test run: {command_item(tests[-1])}")
    return unique(found)


def _open_commands(activities: Sequence[ToolActivity], settled: Settlements) -> list[str]:
    """Tests failing at the cut and deliveries not confirmed: the last run of each command
    (by its core) that did not succeed and that no later run settled."""
    last_runs: dict[str, int] = {}
    for position, activity in enumerate(activities):
        command = shell_command(activity.call)
        if command is not None and (is_test_command(command) or is_delivery(command)):
            last_runs[core_command(command)] = position
    found: list[tuple[int, str]] = []
    for position in last_runs.values():
        activity = activities[position]
        if activity.outcome in _SETTLED or position in settled:
            continue
        command = shell_command(activity.call) or ""
        label = FAILING_TEST if is_test_command(command) else NOT_CONFIRMED
        found.append((position, f"{label}: {command_item(activity)}"))
    return [item for _, item in sorted(found)]
