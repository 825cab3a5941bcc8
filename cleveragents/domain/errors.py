"""The domain error hierarchy.

Every error a user can cause by what they typed is a `CleverAgentsError`; the CLI prints its message
as one line and exits 2. Anything else is an operational failure (exit 1).
"""

from __future__ import annotations


class CleverAgentsError(Exception):
    """Base of every expected, user-facing error."""


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
            "choose another --fragment-id"
        )
        self.plan_id = plan_id
        self.fragment_id = fragment_id


class TokenCountingError(CleverAgentsError):
    """The tokenizer could not count (its vocabulary is missing or corrupt): exit 1."""
