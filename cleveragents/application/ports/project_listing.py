"""Listing projects without a unit of work: what a read-only store can answer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from cleveragents.domain.project import Project


class ProjectListing(Protocol):
    """All projects of a store, read in one snapshot.

    A read-only adapter may decline (`ListingUnavailableError`) a store it cannot read as it
    is, e.g. one whose schema needs migrating: the caller then lists through the full store,
    which migrates it or says why it cannot. `ProjectService` is itself a listing.
    """

    def list(self) -> list[Project]:
        """All projects, by name."""
        ...


class ListingUnavailableError(Exception):
    """This listing cannot read its store as it is; nothing was read and nothing written.

    Never shown to a user: the composition root catches it and lists the other way.
    """
