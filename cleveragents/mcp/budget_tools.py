"""The tool that predicts an implementation phase's token footprint before it starts."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

from cleveragents.application.services.budget.budget_planning import (
    MAX_DOCUMENT_BYTES,
    MAX_WEIGHTS_BYTES,
    BudgetDocuments,
)
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.tokens import MAX_TOKEN_COUNT
from cleveragents.mcp.engine import Engine

PATH_NOTE = "relative to the server's workspace, or absolute; inside the workspace"


class ContextBudget(BaseModel):
    markdown: str = Field(
        description="The report as `agents context budget` prints it: ## Context Budget, a "
        "Summary line, the per-artifact table and the recommended compactions (the format "
        "`agents context budget lint` checks)."
    )
    plan: dict[str, Any] = Field(
        description="The same data structured, as `agents context budget --json` prints it: "
        "tier (green, yellow, amber, red), available, committed, estimated and exact tokens, "
        "projected share, each artifact's row, the compactions (with the `agents artifact "
        "compress` command of each), the tier after them, split_into_smaller_stories."
    )
    warnings: list[str] = Field(
        description="What the caller should know, e.g. that the estimate alone exceeds the "
        "default window because none was declared."
    )


def register(server: MCPServer, engine: Engine) -> None:
    @server.tool(name="plan_context_budget", annotations=ToolAnnotations(read_only_hint=True))
    async def plan_context_budget(
        spec: Annotated[
            str, Field(description=f"The active spec's file ({PATH_NOTE}); never compacted.")
        ],
        test_plan: Annotated[str | None, Field(description="The test plan's file.")] = None,
        module_docs: Annotated[
            list[str] | None, Field(description="The affected module docs' files.")
        ] = None,
        changed: Annotated[
            list[str] | None,
            Field(description="The files the work will change; each one's kind by extension."),
        ] = None,
        available: Annotated[
            int | None,
            Field(
                ge=1,
                le=MAX_TOKEN_COUNT,
                description="The context window in tokens (default: the project's, else 200000).",
            ),
        ] = None,
        committed: Annotated[
            int | None,
            Field(
                ge=0,
                le=MAX_TOKEN_COUNT,
                description="Tokens the session already holds (default 30000).",
            ),
        ] = None,
        weights: Annotated[
            str | None,
            Field(
                description="A weights file (TOML) read over the shipped defaults: per-line "
                "weights, tier boundaries, compaction targets."
            ),
        ] = None,
        project: Annotated[
            str | None,
            Field(description="Take the window from this project (an unknown one is an error)."),
        ] = None,
        exact: Annotated[
            bool,
            Field(description="Count with the real tokenizer too; the estimate's error beside."),
        ] = False,
        encoding: Annotated[
            str | None,
            Field(
                description="The tokenizer of exact: cl100k_base (default; the weights were "
                "measured with it) or o200k_base."
            ),
        ] = None,
    ) -> ContextBudget:
        """Predict the implementation phase's token footprint before it starts: the spec,
        test plan, module docs and changed files as lines x the measured per-line weight of
        each kind, and the tier of committed + estimate over the window (green, yellow,
        amber, red). Amber and red come with compactions in priority order (never of the
        active spec); red that no compaction cures recommends splitting the work. Reads the
        files; records nothing."""

        def work() -> ContextBudget:
            container = engine.container
            plan = container.budget_planning().plan(
                BudgetDocuments(spec, test_plan, tuple(module_docs or ()), tuple(changed or ())),
                _WorkspaceFiles(engine),
                weights=weights,
                available=available,
                committed=committed,
                project=project,
                exact=exact,
                encoding=encoding,
            )
            note = plan.overcommit_note()
            warnings = [] if note is None else [f"{note}; give available, or a project's"]
            return ContextBudget(markdown=plan.markdown(), plan=plan.as_json(), warnings=warnings)

        return await engine.run(work)


class _WorkspaceFiles:
    """The files a budget is planned from, beneath the server's workspace (opened race-free:
    a path that ends outside it, a symbolic link, a device or a FIFO is refused), each
    bounded."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def document(self, path: str) -> str:
        return self._text(path, MAX_DOCUMENT_BYTES, "documents")

    def weights_file(self, path: str) -> str:
        return self._text(path, MAX_WEIGHTS_BYTES, "weights files")

    def _text(self, path: str, limit: int, what: str) -> str:
        engine = self._engine
        data: bytes = engine.container.contained_files().read_beneath(
            engine.workspace, path, limit, what=what, advice=""
        )
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise InvalidInputError(
                f"{path} is not UTF-8 text (bad byte at offset {error.start})"
            ) from None
