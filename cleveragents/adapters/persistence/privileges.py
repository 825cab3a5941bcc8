"""PostgreSQL refusing the role a privilege, told in one line: which privilege, on what, and
where the deployment guide lists the grants of a least-privilege role.

PostgreSQL says ``permission denied for schema public`` (SQLSTATE 42501) and leaves the reader
to guess what to grant. The privilege follows from what was refused and from the statement
that was refused: creating a table needs CREATE on its schema, an INSERT needs INSERT on its
table. A role without USAGE on any schema of its search path is told ``no schema has been
selected to create in`` (3F000) instead; a role without CONNECT is refused when it connects,
before any SQLSTATE is known, so that one is recognised by its words.

The error is `DatabasePrivilegeError`, bad input (exit 2): the URL names a role that was not
given what cleveragents needs; nothing was changed (the transaction is rolled back).
"""

from __future__ import annotations

import re

from sqlalchemy.exc import DBAPIError

from cleveragents.domain.errors import InvalidInputError

DOCS_SECTION = 'see "Roles and privileges" in `agents docs deployment`'
INSUFFICIENT_PRIVILEGE = "42501"
INVALID_SCHEMA_NAME = "3F000"

_DENIED = re.compile(
    r'permission denied for (schema|table|relation|view|sequence|database|function) "?([^"\s]+)"?'
)
_NOT_OWNER = re.compile(r'must be owner of (\w+) "?([^"\s]+)"?')
_NO_SCHEMA = "no schema has been selected to create in"
_WORKING_ROLE = "a working role needs SELECT, INSERT, UPDATE and DELETE on every table"
_MIGRATES = "`agents db upgrade` runs as the role that created the store's tables"
_LOCKING_READ = re.compile(r"\bFOR\s+(NO\s+KEY\s+)?(UPDATE|SHARE)\b", re.IGNORECASE)
_DEFINITION = frozenset({"CREATE", "ALTER", "DROP", "COMMENT"})


class DatabasePrivilegeError(InvalidInputError):
    """The database role lacks a privilege that cleveragents needs: the message names it and
    the section of the deployment guide that lists a least-privilege role's grants."""


def privilege_error(
    error: DBAPIError, state: str | None, failed: str
) -> DatabasePrivilegeError | None:
    """The one-line error for a refused privilege, starting with `failed`; None when `error`
    is anything else."""
    text = str(error.orig)
    refused = _first_line(error)
    verb = _verb(error.statement)
    if state == INVALID_SCHEMA_NAME and _NO_SCHEMA in text:
        need = (
            "the role may use no schema to create the store's tables in: it needs USAGE and "
            "CREATE on schema public (or on the first schema of its search_path)"
        )
        return _error(failed, refused, need)
    if state not in (INSUFFICIENT_PRIVILEGE, None):
        return None
    denied = _DENIED.search(text)
    if denied is not None:
        kind, name = denied.groups()
        return _error(failed, refused, _needed(kind, name, verb))
    not_owner = _NOT_OWNER.search(text)
    if not_owner is not None and state == INSUFFICIENT_PRIVILEGE:
        kind, name = not_owner.groups()
        need = f"changing {kind} {name} needs the role that owns it ({_MIGRATES})"
        return _error(failed, refused, need)
    if state == INSUFFICIENT_PRIVILEGE:
        return _error(failed, refused, "the role lacks a privilege")
    return None


def _needed(kind: str, name: str, verb: str | None) -> str:
    if kind == "database":
        return f"the role needs CONNECT on database {name}"
    if kind == "schema":
        if verb in _DEFINITION:
            return (
                f"the role needs USAGE and CREATE on schema {name} to create the store's "
                "tables (only the role that runs `agents db upgrade` needs CREATE)"
            )
        return f"the role needs USAGE on schema {name}"
    if kind == "sequence":
        return f"the role needs USAGE on sequence {name}"
    if kind == "function":  # the migration lock's, if EXECUTE was taken from PUBLIC
        return f"the role needs EXECUTE on function {name}"
    if verb in _DEFINITION:
        return f"changing table {name} needs the role that owns it ({_MIGRATES})"
    return f"the role needs {_table_privileges(verb)} on table {name} ({_WORKING_ROLE})"


def _table_privileges(verb: str | None) -> str:
    # An UPDATE or DELETE reads the rows its WHERE names, and a locking read (FOR UPDATE)
    # needs UPDATE as well as SELECT: either may be the one missing.
    if verb in ("UPDATE", "DELETE", "LOCKING"):
        return f"{'UPDATE' if verb == 'LOCKING' else verb} and SELECT"
    if verb in ("SELECT", "INSERT"):
        return verb
    return "SELECT, INSERT, UPDATE and DELETE"


def _verb(statement: str | None) -> str | None:
    """The statement's first keyword (``LOCKING`` for a SELECT ... FOR UPDATE)."""
    if not statement:
        return None
    words = statement.split(None, 1)
    if not words:
        return None
    verb = words[0].upper()
    if verb in ("SELECT", "WITH") and _LOCKING_READ.search(statement):
        return "LOCKING"
    return verb


def _first_line(error: DBAPIError) -> str:
    """What PostgreSQL refused, without the LINE and caret it adds under it."""
    diagnostics = getattr(error.orig, "diag", None)
    primary = getattr(diagnostics, "message_primary", None)
    if isinstance(primary, str) and primary:
        return primary
    text = str(error.orig)
    match = _DENIED.search(text) or _NOT_OWNER.search(text)
    if match is not None:
        return match.group(0)
    return " ".join(text.splitlines()[0].split()) if text else "permission denied"


def _error(failed: str, refused: str, need: str) -> DatabasePrivilegeError:
    return DatabasePrivilegeError(f"{failed}: {refused}; {need}; {DOCS_SECTION}")
