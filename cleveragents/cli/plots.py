"""Plots, drawn with matplotlib when the optional 'plot' extra is installed."""

from __future__ import annotations

import importlib.util
import io
from typing import Any

import typer


def check_plotting_available() -> None:
    """A usage error before any work when matplotlib is missing."""
    if importlib.util.find_spec("matplotlib") is None:
        raise typer.BadParameter(
            "--plot needs matplotlib: pip install -e '.[plot]' in a checkout, or "
            "'dist/cleveragents-VERSION-py3-none-any.whl[plot]'",
            param_hint="--plot",
        )


def mean_recovery(recovery: dict[str, dict[str, Any]]) -> float | None:
    """The mean share over the categories that have facts (None when none has any)."""
    shares = [entry["share"] for entry in recovery.values() if entry["share"] is not None]
    return sum(shares) / len(shares) if shares else None


def plot_strategies(rows: list[dict[str, Any]], *, title: str) -> bytes:
    """Tokens after (x) against mean recovery (y), one labelled point per strategy, as PNG."""
    # Here, not at the top: the optional `plot` extra: absent unless installed.
    import matplotlib

    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6.4, 4.2))
    for row in rows:
        recovery = mean_recovery(row["recovery"])
        y = 1.0 if recovery is None else recovery
        axes.scatter(row["tokens_after"], y)
        axes.annotate(
            row["strategy"], (row["tokens_after"], y), textcoords="offset points", xytext=(5, 5)
        )
    axes.set_xlabel("tokens after")
    axes.set_ylabel("recovery (mean share of facts kept)")
    axes.set_ylim(-0.05, 1.1)
    axes.set_title(title)
    axes.grid(True, alpha=0.3)
    figure.tight_layout()
    png = io.BytesIO()
    try:
        figure.savefig(png, format="png", metadata={"Software": None})
    finally:
        plt.close(figure)
    return png.getvalue()
