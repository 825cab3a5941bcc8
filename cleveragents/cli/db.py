"""`agents db ...`: the schema, owned by Alembic."""

from __future__ import annotations

import typer

from cleveragents.cli.command_classes import AgentsTyper
from cleveragents.cli.output import JsonFlag, emit_json
from cleveragents.cli.state import state

app = AgentsTyper(help="The database schema (Alembic migrations).", no_args_is_help=True)


@app.command("upgrade")
def upgrade(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """Bring the database to the newest schema (other commands do it on first use).

    Example: agents --db postgresql+psycopg://u@host/agents db upgrade
    """
    store = state(ctx).container(auto_migrate=False).store()
    revision = store.upgrade()
    url = store.display_url()
    if as_json:
        emit_json({"url": url, "revision": revision})
    else:
        typer.echo(f"{url} is at revision {revision}")


@app.command("current")
def current(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """Show the database's schema revision and whether it is the newest (changes nothing).

    Example: agents db current --json
    """
    store = state(ctx).container(auto_migrate=False).store()
    revision = store.current_revision()
    head = store.head_revision()
    url = store.display_url()
    if as_json:
        emit_json({"url": url, "current": revision, "head": head, "up_to_date": revision == head})
        return
    where = "up to date" if revision == head else f"behind head {head}; run `agents db upgrade`"
    # (an absent SQLite file reads as an empty database and is not created)
    typer.echo(f"{url}: revision {revision or 'none (empty database)'} ({where})")
