"""`agents models`: the models known by name, with how their tokens are counted."""

from __future__ import annotations

from typing import Any

from cleveragents.cli.output import JsonFlag, emit_json, print_table


def models(as_json: JsonFlag = False) -> None:
    """List the models that --model names: provider, encoding, context window, output
    reserve, and whether their counts are exact or estimated.

    The window and cache support come from the locked price catalog, the encoding and output
    limit from a pinned table. Counts for OpenAI models are exact (their tokenizer is public);
    counts for Claude models are estimates, so their budgets keep a safety margin (budget
    window = window / margin). A model not listed: give --context-window and --encoding.

    Example: agents models --json
    """
    from cleveragents.container.models import build_model_profiles

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
