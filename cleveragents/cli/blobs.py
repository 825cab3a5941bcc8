"""`agents blobs ...`: where the store's artifact blobs are kept."""

from __future__ import annotations

import typer

from cleveragents.cli.command_classes import AgentsTyper
from cleveragents.cli.output import JsonFlag, emit_json
from cleveragents.cli.state import state
from cleveragents.container.blob_store_setup import prepare_blob_store

app = AgentsTyper(
    help="Where the artifact blobs are kept: a folder, or an S3 bucket.", no_args_is_help=True
)


@app.command("init")
def init(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """Create the blob store's S3 bucket if it is missing; running it again changes nothing.

    The blob store is $CLEVERAGENTS_BLOB_STORE (a folder, or s3://BUCKET/PREFIX), else the one
    the database recorded, else a folder beside the database; the database records it now if it
    had none. A new bucket goes in the region of boto3's usual settings (AWS_REGION, the
    profile). A folder needs nothing. See `agents docs deployment`.

    Example: CLEVERAGENTS_BLOB_STORE=s3://my-bucket/agents agents blobs init
    """
    setup = prepare_blob_store(state(ctx).container())
    if as_json:
        emit_json(
            {
                "blob_store": setup.location,
                "kind": setup.kind,
                "created": setup.created,
                "region": setup.region,
            }
        )
    elif setup.kind == "folder":
        typer.echo(f"blobs are kept in the folder {setup.location}: nothing to create")
    elif setup.created:
        typer.echo(f"{setup.location}: created the bucket (region {setup.region})")
    else:
        typer.echo(f"{setup.location}: the bucket is there; nothing changed")
