"""`plan_context_budget`: an implementation phase's token footprint, predicted before it
starts."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cleveragents.api.engines import storeless_container
from cleveragents.application.services.budget.budget_planning import BudgetDocuments
from cleveragents.domain.errors import InvalidInputError

if TYPE_CHECKING:
    from cleveragents.api.store import Store
    from cleveragents.application.services.budget.budget_plan import BudgetPlan

PathLike = str | os.PathLike[str]


def plan_context_budget(
    spec: PathLike,
    *,
    test_plan: PathLike | None = None,
    module_docs: Sequence[PathLike] = (),
    changed: Sequence[PathLike] = (),
    available: int | None = None,
    committed: int | None = None,
    weights: PathLike | None = None,
    exact: bool = False,
    encoding: str | None = None,
    store: Store | None = None,
    project: str | None = None,
) -> BudgetPlan:
    """Predict the implementation phase's token footprint; warn before starvation.

    Estimates what the phase will read, the active `spec` (never compacted), the `test_plan`,
    the affected `module_docs` and the `changed` files (each one's kind by its extension), as
    lines x the measured per-line weight of each kind, and picks the tier of `committed` (default
    30,000) + the estimate over the window: green, yellow, amber, red. Amber and red come with
    compactions in priority order; red that no compaction cures recommends splitting the work.

    The window is `available`, else the `project`'s (with `store`), else 200,000
    (`BudgetPlan.overcommits_default_window` tells when the documents alone exceed that
    default). `weights` is a weights file (TOML) read over the shipped heuristics. `exact`
    counts every document with the tokenizer too (`encoding`, default ``cl100k_base``: the
    weights were measured with it).

    Returns the `BudgetPlan`: its `report`, `markdown()` (what ``agents context budget``
    prints) and `as_json()` (what ``--json`` prints). Every file is read, bounded, before
    anything is planned; raises `InvalidInputError` for a file missing, unreadable, not UTF-8
    or given twice, a malformed weights file or an unknown encoding, `NotFoundError` for an
    unknown project. Nothing is recorded.
    """
    for name, paths in (("module_docs", module_docs), ("changed", changed)):
        if isinstance(paths, (str, os.PathLike)):  # one path would be read character by character
            raise InvalidInputError(f"{name}= takes a list of paths, not one path")
    if project is not None and store is None:
        raise InvalidInputError("project= names a project of a store: give store= as well")
    container = store.container_for() if store is not None else storeless_container()
    documents = BudgetDocuments(
        os.fspath(spec),
        None if test_plan is None else os.fspath(test_plan),
        tuple(os.fspath(path) for path in module_docs),
        tuple(os.fspath(path) for path in changed),
    )
    plan: BudgetPlan = container.budget_planning().plan(
        documents,
        container.text_files(),
        weights=None if weights is None else os.fspath(weights),
        available=available,
        committed=committed,
        project=project,
        exact=exact,
        encoding=encoding,
    )
    return plan
