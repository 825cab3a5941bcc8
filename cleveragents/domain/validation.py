"""Turn pydantic validation failures into one-line domain errors."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from cleveragents.domain.errors import CleverAgentsError, InvalidInputError

ModelT = TypeVar("ModelT", bound=BaseModel)


def build(model: type[ModelT], **data: Any) -> ModelT:
    """Construct `model` from `data`, raising `InvalidInputError` with the first problem."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        original = exc.errors()[0].get("ctx", {}).get("error")
        if isinstance(original, CleverAgentsError):  # already says what is wrong, in full
            raise original from exc
        raise InvalidInputError(describe(exc)) from exc


def describe(exc: ValidationError) -> str:
    """One line: which field, what is wrong with it."""
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or exc.title
    message = str(first["msg"]).removeprefix("Value error, ")
    return f"invalid {where}: {message}"
