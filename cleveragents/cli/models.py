"""`agents models`: the models known by name, with how their tokens are counted."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from cleveragents.api.models import model_settings as settings_for
from cleveragents.cli.output import JsonFlag, emit_json, print_table
from cleveragents.container.models import build_model_profiles
from cleveragents.domain.models import within_margin
from cleveragents.domain.vocabulary import DEFAULT_ENCODING

if TYPE_CHECKING:
    from cleveragents.application.services.counting.model_profiles import ModelSettings


def models(as_json: JsonFlag = False) -> None:
    """List the models that --model names: provider, encoding, context window, output
    reserve, and whether their counts are exact or estimated.

    The window and cache support come from the locked price catalog, the encoding and output
    limit from a pinned table. Counts for OpenAI models are exact (their tokenizer is public);
    counts for Claude models are estimates, so their budgets keep a safety margin (budget
    window = window / margin). A model not listed: give its context window and encoding
    instead.

    Example: agents models --json
    """
    profiles = build_model_profiles().all()
    rows = [_row(profile) for profile in profiles]
    if as_json:
        emit_json({"models": rows})
        return
    print_table(
        None,
        ["model", "provider", "encoding", "window", "reserve", "counts"],
        [
            [
                row["name"],
                row["provider"],
                row["encoding"],
                f"{row['context_window']:,}",
                f"{row['reserve_tokens']:,}",
                "exact" if row["exact"] else f"estimated, x{row['margin']}",
            ]
            for row in rows
        ],
    )


def _row(profile: Any) -> dict[str, Any]:
    return {
        "name": profile.name,
        "provider": profile.provider.value,
        "encoding": profile.encoding.value,
        "context_window": profile.context_window,
        "max_output": profile.max_output,
        "reserve_tokens": profile.reserve_tokens,
        "exact": profile.exact,
        "count_method": profile.count_method,
        "margin": str(profile.margin) if profile.margin is not None else None,
        "budget_window": profile.budget_window,
        "budget_reserve": profile.budget_reserve,
        "cache_support": profile.cache_support,
    }


ModelOption = Annotated[
    str | None,
    typer.Option(
        "--model",
        metavar="NAME",
        help="The model the context is for (see `agents models`): its encoding, window and "
        "output reserve, explicit options winning; Claude budgets keep a safety margin.",
    ),
]


def model_settings(
    model: str | None,
    encoding: str,
    context_window: int | None,
    reserve_tokens: int | None,
    *,
    request: str | None = None,
) -> ModelSettings:
    """What --model makes of the options beside it: an --encoding other than the default, a
    --context-window and a --reserve-tokens win; an unknown model is one line, exit 2. Without
    --model, a `request`'s own "model" (the text of a JSON request object) is taken when the
    catalog knows it; one it does not know is a warning on standard error."""
    explicit = encoding if encoding != DEFAULT_ENCODING else None
    settings, warnings = settings_for(
        request,
        model,
        encoding=explicit,
        context_window=context_window,
        reserve_tokens=reserve_tokens,
        request_model=request is not None,
    )
    for warning in warnings:
        typer.echo(f"warning: {warning}", err=True)
    return settings


def count_label(settings: ModelSettings) -> dict[str, Any]:
    """The --json fields that say how a command's token figures were counted for --model
    (none without it: the output is as it always was)."""
    profile = settings.profile
    if profile is None:
        return {}
    return {
        "model": profile.name,
        "estimated": not profile.exact,
        "count_method": profile.count_method,
    }


def model_budget(model: str | None, encoding: str, budget: int) -> tuple[str, int]:
    """The encoding and token budget --model makes of those given: the model's encoding (an
    --encoding other than the default wins) and, for a model whose counts are estimates, the
    budget divided by its safety margin, said on standard error (the JSON stays as it is)."""
    settings = model_settings(model, encoding, None, None)
    profile = settings.profile
    if profile is None:
        return encoding, budget
    scaled = within_margin(budget, profile.margin)
    if not profile.exact:
        typer.echo(
            f"note: counts for {profile.name} are {profile.count_method}s; the budget "
            f"{budget} is divided by the safety margin {profile.margin}: {scaled} tokens",
            err=True,
        )
    return settings.encoding or encoding, scaled
