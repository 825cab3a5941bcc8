"""Models by name: the pinned table's figures joined with the locked catalog's window and
cache rules, and what a driver's settings become when a model is named."""

from __future__ import annotations

from dataclasses import dataclass

from cleveragents.application.ports.clock import Clock
from cleveragents.application.ports.model_catalog import ModelCatalog
from cleveragents.domain.errors import CatalogIntegrityError
from cleveragents.domain.models import (
    MODEL_FAMILIES,
    ModelFamily,
    ModelProfile,
    model_family,
    profile_of,
    unknown_model,
)


@dataclass(frozen=True, slots=True)
class ModelSettings:
    """What a driver counts and budgets with once the model (if any) is resolved: the
    explicit values as given, the model's for the others (its window and reserve within the
    safety margin where counts are estimates), None where neither says (the policy decides)."""

    profile: ModelProfile | None
    encoding: str | None
    context_window: int | None
    reserve_tokens: int | None


class ModelProfiles:
    """Resolves model names through the pinned table (`cleveragents.domain.models`) and the
    locked price catalog (context window, cache support). Container name: ``model_profiles``."""

    def __init__(self, catalog: ModelCatalog, clock: Clock) -> None:
        self._catalog = catalog
        self._clock = clock

    def profile(self, model: str) -> ModelProfile:
        """The profile of `model`; `UnknownModelError` when the table does not describe it."""
        family = model_family(model) if isinstance(model, str) else None
        if family is None:
            raise unknown_model(str(model))
        return self._profile(family)

    def find(self, model: object) -> ModelProfile | None:
        """The profile of `model`, or None when it is not a model the table describes (a
        request document's own ``model`` field may name any model)."""
        if not isinstance(model, str):
            return None
        family = model_family(model)
        return self._profile(family) if family is not None else None

    def all(self) -> tuple[ModelProfile, ...]:
        """Every model the table describes, in its order (providers, then generations)."""
        return tuple(self._profile(family) for family in MODEL_FAMILIES)

    def settings(
        self,
        model: str | None,
        *,
        encoding: str | None = None,
        context_window: int | None = None,
        reserve_tokens: int | None = None,
    ) -> ModelSettings:
        """The settings for `model` under the explicit values given, which win."""
        if model is None:
            return ModelSettings(None, encoding, context_window, reserve_tokens)
        profile = self.profile(model)
        return ModelSettings(
            profile=profile,
            encoding=encoding or profile.encoding.value,
            context_window=context_window or profile.budget_window,
            reserve_tokens=reserve_tokens
            if reserve_tokens is not None
            else (profile.budget_reserve if context_window is None else None),
        )

    def _profile(self, family: ModelFamily) -> ModelProfile:
        entry = self._catalog.entry(family.name, family.provider.value, self._clock.now())
        if entry is None or entry.context_window is None:
            # Every name in the table is in the pinned catalog (a test holds them together).
            raise CatalogIntegrityError(
                f"the model catalog ({self._catalog.description}) gives no context window "
                f"for {family.name}"
            )
        return profile_of(family, entry.context_window, entry.cache_support.value)
