"""Models by name for the Python API's functions: what `model=`, or a request's own
``"model"``, makes of the window, reserve and encoding given beside it."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING

from cleveragents.container.models import build_model_profiles

if TYPE_CHECKING:
    from cleveragents.application.services.counting.model_profiles import ModelSettings

__all__ = ["model_settings"]


def model_settings(
    messages: object,
    model: str | None,
    *,
    encoding: str | None,
    context_window: int | None,
    reserve_tokens: int | None,
    request_model: bool = True,
) -> tuple[ModelSettings, tuple[str, ...]]:
    """The settings for `model` (an unknown one raises `UnknownModelError`); when None and
    `request_model`, for the ``"model"`` of a request (a dict, or the text of a JSON object)
    the catalog knows (one it does not know is named in the warnings, and the defaults apply).
    Explicit values win."""
    profiles = build_model_profiles()
    warnings: tuple[str, ...] = ()
    request = _request(messages) if model is None and request_model else None
    if request is not None:
        named = request.get("model")
        if isinstance(named, str) and named:
            if profiles.find(named) is not None:
                model = named
            else:
                shown = named if len(named) <= 80 else named[:77] + "..."
                warnings = (
                    f"the request's model {shown!r} is not in the model catalog: the default "
                    "window and encoding apply (name a model, or give the window and the "
                    "encoding)",
                )
    settings = profiles.settings(
        model, encoding=encoding, context_window=context_window, reserve_tokens=reserve_tokens
    )
    return settings, warnings


def _request(messages: object) -> Mapping[str, object] | None:
    """`messages` as a request object, when it is one (a dict, or a JSON object's text)."""
    if isinstance(messages, Mapping):
        return messages
    if isinstance(messages, str) and messages.lstrip().startswith("{"):
        try:
            document = json.loads(messages)
        except (ValueError, RecursionError):  # JSONL, or malformed: the reader says so
            return None
        return document if isinstance(document, dict) else None
    return None
