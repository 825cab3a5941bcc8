"""The prefix-spec-reader port: a declarative prefix file as a `PrefixSpec`."""

from __future__ import annotations

from abc import ABC, abstractmethod

from cleveragents.domain.stable_prefix.spec import PrefixSpec


class PrefixSpecReader(ABC):
    """Reads the declarative file a stable prefix is built from (see docs/stable-prefix.md)."""

    @abstractmethod
    def parse(self, text: str, *, source: str) -> PrefixSpec:
        """The spec written in `text`. `source` names the file: its suffix chooses the syntax
        (``.yaml``, ``.yml`` or ``.toml``) and every error starts with it.

        Raises `InvalidInputError` for malformed text, an unknown key or a wrong type, naming
        the place (``prefix.yaml: tools[1].name: must be a string``).
        """
