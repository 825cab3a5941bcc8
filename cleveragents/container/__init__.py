"""The composition root: the one place that knows every concrete class.

Three parts: `factories` builds each piece (importing its class on first use, so a command loads
only the adapters it uses: `agents tokens count` loads neither SQLAlchemy nor tree-sitter nor the
secret scanner), `wiring` declares the dependency-injector containers (per concern, composed
into `Container`) that say which piece gets which others, and this module configures them.
Nothing runs at import; the engine, the tokenizer and the schema check happen on first use.
Tests override providers with fakes (``with container.token_counter.override(fake): ...``).

`build_token_counter` builds the tokenizer alone, as the container's `token_counter` provider
does, without importing dependency_injector (which loads asyncio, pydantic and yaml): for a
command that needs nothing else. `project_listing.read_only_project_listing` likewise builds
what `agents project list` reads an existing SQLite store with (sqlite3, no SQLAlchemy).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cleveragents.adapters.persistence.locations import default_home
from cleveragents.adapters.tokens.offline_encodings import DEFAULT_ENCODING
from cleveragents.container.factories import artifacts_dir, token_counter

if TYPE_CHECKING:
    from cleveragents.application.ports.token_counter import TokenCounter
    from cleveragents.container.wiring import AdaptersContainer, Container, ServicesContainer

__all__ = [
    "AdaptersContainer",
    "Container",
    "ServicesContainer",
    "artifacts_dir",
    "build_container",
    "build_token_counter",
    "json_copy",
]


def _configuration(
    database_url: str | None, home: Path | None, encoding: str, auto_migrate: bool
) -> dict[str, Any]:
    resolved_home = home or default_home()
    return {
        "database_url": database_url,
        "home": resolved_home,
        "create_home": home is not None,
        "auto_migrate": auto_migrate,
        "encoding": encoding,
        "tokenizer_cache_dir": resolved_home / "cache" / "tiktoken",
        "secret_scanner": os.environ.get("CLEVERAGENTS_SECRET_SCANNER", "builtin"),
    }


def build_container(
    database_url: str | None = None,
    *,
    home: Path | None = None,
    encoding: str = DEFAULT_ENCODING,
    auto_migrate: bool = True,
) -> Container:
    """A container configured from arguments, then the environment, then defaults.

    The database URL is resolved (``--db``, else ``$CLEVERAGENTS_DATABASE_URL``, else the file
    under the home) when the store or the blob storage is first used. A `home` given here is
    created then, 0700, if the store is its file; the default one (``$CLEVERAGENTS_HOME``, else
    ``~/.cleveragents``) when the store is first written. The directory of a database named
    explicitly is never created.
    """
    from cleveragents.container.wiring import Container

    container = Container()
    container.config.from_dict(_configuration(database_url, home, encoding, auto_migrate))
    return container


def build_token_counter(
    encoding: str = DEFAULT_ENCODING, *, home: Path | None = None
) -> TokenCounter:
    """The tokenizer, configured as `build_container(...).token_counter()` gives it, built
    without the container."""
    configuration = _configuration(None, home, encoding, auto_migrate=False)
    return token_counter(
        encoding_name=configuration["encoding"], cache_dir=configuration["tokenizer_cache_dir"]
    )


def json_copy(document: object, where: str) -> Any:
    """A copy of a parsed document made of dicts, lists and JSON scalars, checked as the
    transcript codec checks what it reads (`InvalidInputError` naming `where` otherwise): for
    a driver that hands a caller's own document back, sharing no object with it."""
    # Here, not at the top: the transcript codec costs ~160 ms that `tokens count` never needs.
    from cleveragents.adapters.transcripts.native_documents import json_copy as copied

    return copied(document, where)


def __getattr__(name: str) -> Any:
    # The containers' classes, imported with dependency_injector when first named: importing
    # `wiring` costs some 410 ms of CPU (dependency_injector, asyncio, pydantic, every port),
    # which `agents tokens count` and `agents project list` never need.
    if name in ("AdaptersContainer", "Container", "ServicesContainer"):
        from cleveragents.container import wiring

        return getattr(wiring, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
