"""The `ModelCatalog` over genai-prices' bundled data, pinned and offline.

genai-prices (pydantic/genai-prices, MIT) ships its price data as a Python module and can also
fetch newer data in a background thread (`UpdatePrices`), which then replaces the data its
module-level functions use. This adapter never starts that thread, never calls those functions
and reads only the bundled module, so nothing here touches the network. The data is locked: the
installed version and the SHA-256 of the data module must be the pinned ones, checked before the
data is first used; anything else is refused with `CatalogIntegrityError`, so prices cannot
change under a report without a code change.
"""

from __future__ import annotations

import hashlib
import importlib.util
import threading
from datetime import datetime
from decimal import Decimal
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

from cleveragents.application.ports.model_catalog import ModelCatalog
from cleveragents.domain.errors import CatalogIntegrityError
from cleveragents.domain.model_catalog import CatalogEntry, ModelPricing, Rate, RateTier

if TYPE_CHECKING:
    from genai_prices.data_snapshot import DataSnapshot
    from genai_prices.types import ModelPrice, TieredPrices

# The lock's error is the domain's (exit 1); importable from here as it always was.
__all__ = ["CatalogIntegrityError", "GenaiPricesCatalog"]

PINNED_PACKAGE = "genai-prices"
PINNED_VERSION = "0.2.3"
DATA_MODULE = "genai_prices.data"
PINNED_DATA_SHA256 = "5f4d8e175a91cf23cac17da33a4daa60a6a6c49525109c97e93db220d5197206"

# The catalog's price keys for the parts `ModelPricing` knows.
_PRICE_KEYS = {
    "input": "input_mtok",
    "output": "output_mtok",
    "cache_read": "cache_read_mtok",
    "cache_write": "cache_write_mtok",
    "cache_write_1h": "cache_write_1h_mtok",
}


class GenaiPricesCatalog(ModelCatalog):
    """genai-prices 0.2.3's bundled data; see the module docstring. Container name:
    ``model_catalog``."""

    def __init__(self, data_path: Path | None = None, version: str | None = None) -> None:
        # Both default to what is installed; tests pass others to see the lock refuse them.
        self._data_path = data_path
        self._version = version
        self._snapshot: DataSnapshot | None = None
        self._lock = threading.Lock()

    @property
    def description(self) -> str:
        return (
            f"{PINNED_PACKAGE} {PINNED_VERSION}, bundled data only "
            f"(sha256 {PINNED_DATA_SHA256[:16]}), never updated at run time"
        )

    def entry(
        self,
        model: str,
        provider: str | None,
        at: datetime,
        service_tier: str | None = None,
    ) -> CatalogEntry | None:
        snapshot = self._loaded()
        try:
            found_provider, found = snapshot.find_provider_model(model, None, provider, None)
        except LookupError:
            return None
        # As genai-prices does: tier prices only for the provider's own models, not for models
        # it prices through a fallback provider.
        own = any(candidate is found for candidate in found_provider.models)
        context = {"service_tier": service_tier} if service_tier and own else None
        prices = found.get_prices(at, context)
        return CatalogEntry(
            provider=found_provider.id,
            model_id=found.id,
            name=found.name,
            context_window=found.context_window or None,
            pricing=_pricing(prices),
        )

    def _loaded(self) -> DataSnapshot:
        with self._lock:
            if self._snapshot is None:
                self._snapshot = self._load()
            return self._snapshot

    def _load(self) -> DataSnapshot:
        version = self._version or _installed_version()
        if version != PINNED_VERSION:
            raise CatalogIntegrityError(
                f"the model catalog is locked to {PINNED_PACKAGE}=={PINNED_VERSION}; "
                f"{version} is installed: reinstall the pinned version"
            )
        path = self._data_path or _data_module_path()
        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError as error:
            raise CatalogIntegrityError(
                f"cannot read the model catalog's data ({path}): {error.strerror or error}"
            ) from error
        if digest != PINNED_DATA_SHA256:
            raise CatalogIntegrityError(
                f"the model catalog's data ({path}) has SHA-256 {digest}, not the pinned "
                f"{PINNED_DATA_SHA256}: reinstall {PINNED_PACKAGE}=={PINNED_VERSION}"
            )
        # Here, not at the top: loaded once its file is checked (and ~270 ms).
        try:
            from genai_prices.data import providers
            from genai_prices.data_snapshot import DataSnapshot
        except ImportError as error:  # the data hashed right, yet the package does not load
            raise CatalogIntegrityError(f"cannot load {PINNED_PACKAGE}: {error}") from error

        # Our own snapshot of the bundled list: not `get_snapshot()`, which returns whatever an
        # `UpdatePrices` thread fetched last, if one ever ran in this process.
        return DataSnapshot(providers=providers, from_auto_update=False)


def _installed_version() -> str:
    try:
        return metadata.version(PINNED_PACKAGE)
    except metadata.PackageNotFoundError:
        return "nothing"


def _data_module_path() -> Path:
    try:
        spec = importlib.util.find_spec(DATA_MODULE)
    except ImportError:  # finding a submodule imports its package, which may be missing
        spec = None
    if spec is None or spec.origin is None:
        raise CatalogIntegrityError(f"{DATA_MODULE} is not installed")
    return Path(spec.origin)


def _pricing(prices: ModelPrice) -> ModelPricing:
    rates = {name: _rate(getattr(prices, key, None)) for name, key in _PRICE_KEYS.items()}
    return ModelPricing(**rates)


def _rate(price: Decimal | TieredPrices | None) -> Rate | None:
    if price is None:
        return None
    if isinstance(price, Decimal):
        return Rate(usd_per_mtok=price)
    return Rate(
        usd_per_mtok=price.base,
        tiers=tuple(RateTier(start=tier.start, usd_per_mtok=tier.price) for tier in price.tiers),
    )
