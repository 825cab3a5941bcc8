"""The domain error hierarchy.

Every expected error is a `CleverAgentsError`, and the CLI prints its message as one line. Two
branches, told apart by base class alone:

* bad input (`InvalidInputError`, `NotFoundError`, `ConflictError`): what the user typed or
  referred to is wrong; exit 2, and nothing was changed;
* `OperationalError`: the machine, not the input (the store cannot be reached, a vocabulary or
  the price catalog is missing or corrupt); exit 1, and the same command may work later.

Adapters translate their libraries' errors into these, so callers (services, the CLI) never see
SQLAlchemy's, tiktoken's or genai-prices' own types. An `OSError` that escapes (a full disk, an
unreadable file) counts as operational too.
"""

from __future__ import annotations


class CleverAgentsError(Exception):
    """Base of every expected, user-facing error: bad input, unless an `OperationalError`."""


class InvalidInputError(CleverAgentsError, ValueError):
    """A value is malformed or out of range (a ratio of 1.5, an empty fragment id, ...)."""


class InvalidRatioError(InvalidInputError):
    """A skeleton ratio outside the closed interval [0.0, 1.0], NaN or infinite."""


class InvalidIdError(InvalidInputError):
    """A string that is not a well-formed ULID."""


class UnknownEncodingError(InvalidInputError):
    """A tokenizer encoding that is not available offline."""


class InvalidPolicyError(InvalidInputError):
    """A context policy whose settings contradict each other."""


class NotFoundError(CleverAgentsError, LookupError):
    """A referenced entity does not exist."""


class ProjectNotFoundError(NotFoundError):
    def __init__(self, name: str) -> None:
        super().__init__(f"unknown project {name!r}; `agents project list` shows the projects")
        self.name = name


class PlanNotFoundError(NotFoundError):
    def __init__(self, plan_id: str) -> None:
        super().__init__(f"unknown plan {plan_id}; `agents plan list` shows the plans")
        self.plan_id = plan_id


class ArtifactNotFoundError(NotFoundError):
    """No readable file at that path inside the work directory (also: a path that escapes it)."""

    def __init__(self, artifact_path: str, location: str) -> None:
        super().__init__(f"artifact not found at {location}")
        self.artifact_path = artifact_path
        self.location = location


class WorkspaceEscapeError(InvalidInputError):
    """A path that would read outside the workspace root, or a file that is not a plain,
    singly linked regular file inside it."""


class WorkdirNotFoundError(InvalidInputError):
    """The work directory (or the folder a named file is in) does not exist."""

    def __init__(self, root: str) -> None:
        super().__init__(f"work directory not found: {root}")
        self.root = root


class ConflictError(CleverAgentsError):
    """The change contradicts what is stored (a duplicate name, a duplicate fragment id)."""


class ProjectAlreadyExistsError(ConflictError):
    def __init__(self, name: str) -> None:
        super().__init__(f"project {name!r} already exists")
        self.name = name


class DuplicateFragmentError(ConflictError):
    def __init__(self, plan_id: str, fragment_id: str) -> None:
        super().__init__(
            f"plan {plan_id} already has a context fragment {fragment_id!r}; "
            "choose another fragment_id"
        )
        self.plan_id = plan_id
        self.fragment_id = fragment_id


class OperationalError(CleverAgentsError):
    """Base of the failures that are not the input's fault (exit 1)."""


class StoreUnavailableError(OperationalError, RuntimeError):
    """The database could not be reached, migrated, read or written."""


class CatalogIntegrityError(OperationalError, RuntimeError):
    """The installed model price catalog is not the pinned one, or cannot be read."""


class TokenCountingError(OperationalError):
    """The tokenizer could not count (its vocabulary is missing or corrupt, or it failed on
    this text)."""
