"""Projects and policies from their column values: the part of the row mapping that needs no
SQLAlchemy, shared by the SQLAlchemy repositories (through `mapping`) and the read-only
`sqlite_project_listing`, so that both build the same domain objects from the same columns."""

from __future__ import annotations

from collections.abc import Mapping

from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.project import Project

POLICY_FIELDS = tuple(ContextPolicy.model_fields)
"""The policy's fields, each stored in a column of the same name (projects and plans)."""

PROJECT_COLUMNS = ("id", "name", *POLICY_FIELDS)
"""The columns of ``projects`` a project is built from."""


def policy_from_columns(columns: Mapping[str, object]) -> ContextPolicy:
    return ContextPolicy.model_validate({name: columns[name] for name in POLICY_FIELDS})


def project_from_columns(columns: Mapping[str, object]) -> Project:
    return Project.model_validate(
        {"id": columns["id"], "name": columns["name"], "policy": policy_from_columns(columns)}
    )
