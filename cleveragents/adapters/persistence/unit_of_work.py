"""The SQLAlchemy unit of work: one session, one transaction, rolled back unless committed.

`run(work)` runs a whole transaction and runs it again, a few times with jittered backoff, when
PostgreSQL rolled it back for a serialization failure or a deadlock (SQLSTATE 40001, 40P01):
the transaction is gone then, so only the work as a whole can be retried, never one statement.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from types import TracebackType
from typing import TypeVar

from sqlalchemy.orm import Session, sessionmaker

from cleveragents.adapters.persistence.artifact_repositories import (
    SqlaArtifactRepository,
    SqlaTempOutputRepository,
)
from cleveragents.adapters.persistence.errors import TransientStoreError, translated
from cleveragents.adapters.persistence.repositories import (
    SqlaPlanRepository,
    SqlaProjectRepository,
)
from cleveragents.application.ports.unit_of_work import UnitOfWork

T = TypeVar("T")

TRANSACTION_ATTEMPTS = 4
# Full jitter: attempt n pauses a random time up to BASE * 2**(n-1), so that the transactions
# that deadlocked together do not meet again at the same instant.
BACKOFF_BASE_SECONDS = 0.05


class SqlaUnitOfWork(UnitOfWork):
    def __init__(
        self,
        session_factory: sessionmaker[Session],
        *,
        attempts: int = TRANSACTION_ATTEMPTS,
        pause: Callable[[float], None] = time.sleep,
    ) -> None:
        self._session_factory = session_factory
        self._session: Session | None = None
        self._attempts = attempts
        self._pause = pause

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
        except Exception as rollback_error:
            if exc is None:
                _translate(rollback_error)
                raise
            # A rollback failing after the work failed (the connection was lost): the work's
            # error says more, and is the one raised.
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
        except Exception as error:
            _translate(error)
            raise

    def rollback(self) -> None:
        if self._session is not None:
            self._session.rollback()

    def run(self, work: Callable[[SqlaUnitOfWork], T]) -> T:
        """`work` inside the unit of work (it commits what it keeps), run again from a fresh
        session while the database rolls it back as a serialization failure or a deadlock;
        after the last attempt that error is raised, saying how many attempts were made."""
        for attempt in range(1, self._attempts + 1):
            try:
                with self:
                    return work(self)
            except TransientStoreError as error:
                if attempt == self._attempts:
                    raise TransientStoreError(
                        f"{error} (the transaction was tried {attempt} times)"
                    ) from error
            self._pause(random.uniform(0, BACKOFF_BASE_SECONDS * 2 ** (attempt - 1)))
        raise AssertionError("unreachable: the last attempt returns or raises")


def _translate(exc: BaseException | None) -> None:
    """Adapters re-raise library errors as their own: callers never see SQLAlchemy types."""
    if exc is None:
        return
    domain_error = translated(exc)
    if domain_error is not None:
        raise domain_error from exc
