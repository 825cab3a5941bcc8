"""The model catalog port: context windows and prices from a locked, offline source."""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime

from cleveragents.domain.model_catalog import CatalogEntry


class ModelCatalog(ABC):
    """Models and their prices as a pinned catalog declares them; never fetched at run time.
    Container name: ``model_catalog``."""

    @property
    @abstractmethod
    def description(self) -> str:
        """What the catalog is and its pin, for reports (e.g. the package, version and hash)."""

    @abstractmethod
    def entry(
        self,
        model: str,
        provider: str | None,
        at: datetime,
        service_tier: str | None = None,
    ) -> CatalogEntry | None:
        """The model with the prices in force `at` (for `service_tier` when the catalog has
        tier prices), or None when the catalog does not list it."""
