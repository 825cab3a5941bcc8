"""`agents docs [TOPIC]`: the documentation pages, printed from the installed package.

A wheel carries the repository's docs/ inside the package (`_docs`, see pyproject.toml), so the
help texts can point to a page (`agents docs mcp`) that every installed user has; a checkout or
an editable install reads docs/ beside the package.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cleveragents.cli.output import JsonFlag, emit_json, print_table
from cleveragents.domain.errors import OperationalError

INDEX = "README"
"""The docs' own table of contents: the listing stands for it."""


def docs(
    topic: Annotated[
        str | None,
        typer.Argument(
            metavar="[TOPIC]",
            help="A page's name, as listed (e.g. mcp, or mcp.md).",
            show_default=False,
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """List the documentation pages, or print one (markdown) to read or pipe.

    The pages ship inside the package: what `agents --help` and the commands' help refer to
    is here, offline, for the installed version.

    Example: agents docs mcp | less
    """
    pages = _pages()
    if topic is None:
        rows = [(name, _title(page)) for name, page in pages.items()]
        if as_json:
            emit_json([{"topic": name, "title": title} for name, title in rows])
        else:
            print_table("Documentation (agents docs TOPIC prints one)", ("topic", "title"), rows)
        return
    name = topic.removesuffix(".md")
    if name not in pages:
        raise typer.BadParameter(
            f"no page named {topic!r}; `agents docs` lists them", param_hint="TOPIC"
        )
    text = pages[name].read_text(encoding="utf-8")
    if as_json:
        emit_json({"topic": name, "title": _title(pages[name]), "text": text})
    else:
        typer.echo(text, nl=False)


def docs_dir() -> Path:
    """The folder of the pages: inside the package when installed from a wheel, else the
    repository's docs/ (a checkout, an editable install)."""
    package = Path(__file__).resolve().parents[1]
    bundled = package / "_docs"
    return bundled if bundled.is_dir() else package.parent / "docs"


def _pages() -> dict[str, Path]:
    folder = docs_dir()
    found = sorted(folder.glob("*.md")) if folder.is_dir() else []
    if not found:
        raise OperationalError(
            f"no documentation pages at {folder}: the installation is incomplete"
        )
    return {page.stem: page for page in found if page.stem != INDEX}


def _title(page: Path) -> str:
    with page.open(encoding="utf-8") as text:
        first = text.readline().strip()
    return first.lstrip("#").strip()
