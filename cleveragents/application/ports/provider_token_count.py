"""The port of a provider's own token count: exact, but over the network and with the user's
credentials, so used only when asked for."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any


class ProviderTokenCount(ABC):
    """Counts a request's input tokens with the provider's counting endpoint. Adapters raise
    `TokenCountingError` when the count cannot be had (no credentials, no connection, a
    refusal), saying which."""

    @property
    @abstractmethod
    def method(self) -> str:
        """How the count is made, as reports say it."""

    @abstractmethod
    def count_request(self, model: str, request: Mapping[str, Any]) -> int:
        """The input tokens of `request` (``messages`` and, when present, ``system`` and
        ``tools`` in the provider's format) for `model`."""
