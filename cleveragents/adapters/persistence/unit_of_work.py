"""The SQLAlchemy unit of work: one session, one transaction, rolled back unless committed."""

from __future__ import annotations

from types import TracebackType

from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from cleveragents.adapters.persistence.artifact_repositories import (
    SqlaArtifactRepository,
    SqlaTempOutputRepository,
)
from cleveragents.adapters.persistence.errors import StoreUnavailableError
from cleveragents.adapters.persistence.repositories import (
    SqlaPlanRepository,
    SqlaProjectRepository,
)
from cleveragents.application.ports.unit_of_work import UnitOfWork
from cleveragents.domain.errors import ConflictError


class SqlaUnitOfWork(UnitOfWork):
    def __init__(self, session_factory: sessionmaker[Session]) -> None:
        self._session_factory = session_factory
        self._session: Session | None = None

    def __enter__(self) -> SqlaUnitOfWork:
        self._session = self._session_factory()
        self.projects = SqlaProjectRepository(self._session)
        self.plans = SqlaPlanRepository(self._session)
        self.artifacts = SqlaArtifactRepository(self._session)
        self.temp_outputs = SqlaTempOutputRepository(self._session)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            self.rollback()
        finally:
            if self._session is not None:
                self._session.close()
                self._session = None
        _translate(exc)

    def commit(self) -> None:
        if self._session is None:
            raise RuntimeError("commit() outside a `with` block")
        try:
            self._session.commit()
        except IntegrityError as error:
            raise ConflictError(f"the change conflicts with stored data: {error.orig}") from error

    def rollback(self) -> None:
        if self._session is not None:
            self._session.rollback()


def _translate(exc: BaseException | None) -> None:
    """Adapters re-raise library errors as their own: callers never see SQLAlchemy types."""
    if isinstance(exc, IntegrityError):
        raise ConflictError(f"the change conflicts with stored data: {exc.orig}") from exc
    if isinstance(exc, DBAPIError):  # any error the database reports: a missing table too
        hint = _READ_ONLY_HINT if "readonly database" in str(exc.orig) else ""
        raise StoreUnavailableError(f"database error: {exc.orig}{hint}") from exc


_READ_ONLY_HINT = (
    " (it is opened read-only: a file this process may not write, or a URL with ?mode=ro; "
    "reading commands work, changes need a writable database)"
)
