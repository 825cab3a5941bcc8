"""A context budget planned, as every driver asks for it: the documents the implementation
phase will read, named by their role, read through the driver's reader (each reads files its
own way: the CLI standard input too, with its usage errors), the weights file read over the
shipped heuristics, the window taken from the option, the project or the default, and the
plan counted with the encoding asked for.

One use case for `agents context budget`, the Python API's `plan_context_budget` and the MCP
server's `plan_context_budget`, which keep only what is theirs: where the files come from,
how errors and the `BudgetPlan` are shown.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from cleveragents.application.ports.budget_weights import BudgetWeightsReader
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.budget.budget_plan import BudgetPlan
from cleveragents.application.services.budget.context_budget_planner import (
    ContextBudgetPlanner,
    PlannedArtifact,
)
from cleveragents.application.services.projects.project_service import ProjectService
from cleveragents.domain.context_budget import (
    DEFAULT_COMMITTED_TOKENS,
    BudgetKind,
    changed_file_kind,
)
from cleveragents.domain.errors import InvalidInputError

MAX_DOCUMENT_BYTES = 16 * 1024 * 1024
"""The largest document a reader should take (16 MiB, as `agents context budget` reads them):
some four million tokens, past any context window; an exact count of a hostile one costs the
tokenizer about a gigabyte."""

MAX_WEIGHTS_BYTES = 1024 * 1024
"""The largest weights file a reader should take (1 MiB); one is a few hundred bytes."""

MAX_PLANNED_CHARS = 256 * 1024 * 1024
"""The most text one plan reads, all documents together (some 60 million tokens, hundreds of
context windows): past it the plan is refused while the documents are read, so a list of
thousands of large files cannot hold the machine's memory."""


class BudgetFileReader(Protocol):
    """How a driver reads the files a budget is planned from (each bounded, UTF-8)."""

    def document(self, path: str) -> str:
        """The text of a document the implementation phase will read."""
        ...

    def weights_file(self, path: str) -> str:
        """The text of a weights file (TOML)."""
        ...


class DocumentRoles(NamedTuple):
    """What each role is called in the driver's messages: its option, or its argument."""

    spec: str = "spec"
    test_plan: str = "test_plan"
    module_doc: str = "module_docs"
    changed: str = "changed"


API_ROLES = DocumentRoles()
"""The roles named by the Python API's and the MCP tool's arguments."""


@dataclass(frozen=True, slots=True)
class BudgetDocuments:
    """The files the implementation phase will read, by role: the active spec (never
    compacted), the test plan, the affected module docs, and the files the work will change
    (each one's kind told by its extension)."""

    spec: str
    test_plan: str | None = None
    module_docs: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()

    def roles(self, names: DocumentRoles) -> list[tuple[str, str, BudgetKind]]:
        """Each file with the name of its role and its kind, in the report's order;
        `DuplicateDocumentError` when a file is given twice."""
        roles = [(names.spec, self.spec, BudgetKind.SPEC)]
        if self.test_plan is not None:
            roles.append((names.test_plan, self.test_plan, BudgetKind.TEST_PLAN))
        roles += [(names.module_doc, path, BudgetKind.MODULE_DOC) for path in self.module_docs]
        roles += [(names.changed, path, changed_file_kind(path)) for path in self.changed]
        seen: dict[str, str] = {}
        for role, path, _ in roles:
            key = path if path == "-" else os.path.normpath(path)
            if key in seen:
                raise DuplicateDocumentError(path, seen[key], role)
            seen[key] = role
        return roles


class DuplicateDocumentError(InvalidInputError):
    """One file given twice: it would be counted twice."""

    def __init__(self, path: str, first: str, second: str) -> None:
        super().__init__(f"{path} is given twice ({first} and {second}); give each file once")


class BudgetPlanning:
    """Plans the context budget of an implementation phase (docs/context-budget.md).

    `counters` gives the tokenizer of an encoding (None: the configured one); `projects`
    builds the project service when a project is named, so no store is opened otherwise."""

    def __init__(
        self,
        weights: BudgetWeightsReader,
        counters: Callable[[str | None], TokenCounter],
        projects: Callable[[], ProjectService],
    ) -> None:
        self._weights = weights
        self._counters = counters
        self._projects = projects

    def plan(
        self,
        documents: BudgetDocuments,
        files: BudgetFileReader,
        *,
        weights: str | None = None,
        available: int | None = None,
        committed: int | None = None,
        project: str | None = None,
        exact: bool = False,
        encoding: str | None = None,
        roles: DocumentRoles = API_ROLES,
    ) -> BudgetPlan:
        """The budget of reading `documents` on top of `committed` tokens (default 30,000)
        already held, in a window of `available` tokens, else the one the `project`
        declares, else 200,000. `weights` is a weights file read over the shipped
        heuristics; `exact` counts every document with the `encoding`'s tokenizer too.

        Every file is read through `files` before anything is planned, so a missing one fails
        the whole plan; a file given twice is refused first (`DuplicateDocumentError`, naming
        the two `roles`). A malformed weights file raises `InvalidHeuristicsError`, an
        unknown project `ProjectNotFoundError` (even when `available` is given); a window under
        one token or a negative `committed`, `InvalidInputError`."""
        if available is not None and available < 1:
            raise InvalidInputError(f"the window is at least 1 token, not {available}")
        if committed is not None and committed < 0:
            raise InvalidInputError(f"the tokens committed are at least 0, not {committed}")
        artifacts: list[PlannedArtifact] = []
        held = 0
        for _, path, kind in documents.roles(roles):
            text = files.document(path)
            held += len(text)
            if held > MAX_PLANNED_CHARS:
                raise InvalidInputError(
                    f"the documents hold more than {MAX_PLANNED_CHARS:,} characters together "
                    f"(at {path}); plan the work in smaller stories"
                )
            artifacts.append(PlannedArtifact(path=path, kind=kind, text=text))
        heuristics = self._weights.heuristics(
            files.weights_file(weights) if weights is not None else None,
            source=weights or "default",
        )
        projects = self._projects() if project is not None else None
        planner = ContextBudgetPlanner(self._counters(encoding), projects)
        window = planner.available_window(available, project)
        report = planner.plan(
            artifacts,
            heuristics,
            available=window.tokens,
            committed=DEFAULT_COMMITTED_TOKENS if committed is None else committed,
            available_source=window.source,
            exact=exact,
        )
        return BudgetPlan(report, weights_file=heuristics.source)
