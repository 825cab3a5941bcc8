"""Projects own plans and the context policy their plans start from."""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cleveragents.domain.ids import new_ulid
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.stored_text import PROJECT_NAME_LENGTH

_NAME_PATTERN = re.compile(rf"[A-Za-z0-9][A-Za-z0-9._-]{{0,{PROJECT_NAME_LENGTH - 1}}}")


def validate_project_name(name: str) -> str:
    """Project names are used on command lines: letters, digits, '.', '_', '-'; 1-100 chars."""
    if not _NAME_PATTERN.fullmatch(name):
        raise ValueError(
            f"invalid project name {name!r}: use 1-100 letters, digits, '.', '_' or '-', "
            "starting with a letter or digit"
        )
    return name


class Project(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(default_factory=new_ulid)
    name: str
    policy: ContextPolicy = ContextPolicy()

    @field_validator("name")
    @classmethod
    def _valid_name(cls, value: str) -> str:
        return validate_project_name(value)
