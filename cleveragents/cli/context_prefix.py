"""`agents context prefix ...`: stable prompt prefixes built from a declarative file, compared."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cleveragents.cli.command_classes import AgentsTyper
from cleveragents.cli.inputs import read_settings_file
from cleveragents.cli.output import EncodingOption, JsonFlag, emit_json
from cleveragents.cli.output_files import check_output, report_stream, write_output
from cleveragents.cli.state import state
from cleveragents.container import build_container
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.vocabulary import DEFAULT_ENCODING

if TYPE_CHECKING:
    from cleveragents.container import Container
    from cleveragents.domain.stable_prefix.diff import PrefixDiff
    from cleveragents.domain.stable_prefix.rendering import BuiltPrefix

app = AgentsTyper(
    help="Stable prompt prefixes: build one from a YAML or TOML file, compare two.",
    no_args_is_help=True,
)

_FILE_HELP = "A prefix file: .yaml, .yml or .toml (the schema: agents docs stable-prefix)."
FileArgument = Annotated[str, typer.Argument(metavar="FILE", help=_FILE_HELP)]


def _build(container: Container, path: str) -> BuiltPrefix:
    """The prefix of the file at `path`; every error names the file."""
    text = read_settings_file(path, what="prefix files")
    spec = container.prefix_spec_reader().parse(text, source=path)
    try:
        built: BuiltPrefix = container.stable_prefix_builder().build(spec)
    except InvalidInputError as error:
        raise InvalidInputError(f"{path}: {error}") from None
    return built


@app.command("build")
def build(
    ctx: typer.Context,
    file: FileArgument,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            metavar="FILE",
            help="Write the prefix text here, byte for byte; only the fingerprints are printed "
            "(- writes the text to standard output, the fingerprints to standard error). "
            "Never FILE itself: refused, exit 2.",
        ),
    ] = None,
    project: Annotated[
        str | None,
        typer.Option(
            "--project",
            metavar="NAME",
            help="Record the fingerprints for this project (a stable_prefix_built event that "
            "`agents metrics show` lists).",
        ),
    ] = None,
    encoding: EncodingOption = DEFAULT_ENCODING,
    as_json: JsonFlag = False,
) -> None:
    """Build the stable prompt prefix of FILE; print it with its SHA-256 fingerprints.

    Sections in a fixed order (core rules, project instructions, tool contract, stable facts,
    professional skills), tools and facts sorted, tool schemas as canonical JSON: the same
    content always gives the same bytes. Refused with exit 2, naming the place: dates, times,
    epoch timestamps, UUIDs, ULIDs, long hex ids, random-looking tokens, credentials, and
    anything classified other than stable-instruction.

    Example: agents context prefix build prefix.yaml --json
    """
    inputs = check_output(out, [file]) if out is not None else frozenset()
    cli_state = state(ctx)
    container = cli_state.container(auto_migrate=project is None)
    built = _build(container, file)
    if project is not None:
        container.stable_prefix_builder().record(built, project)
    if out is not None:
        write_output(out, built.text.encode("utf-8"), inputs)  # as `context compact` writes
    if encoding != DEFAULT_ENCODING:
        container = build_container(cli_state.database_url, encoding=encoding)
    report = _build_report(built, container)
    with report_stream(out):
        if as_json:
            emit_json(report)
            return
        if out is None:
            sys.stdout.write(built.text + "---\n")
        _print_fingerprints(report)


def _build_report(built: BuiltPrefix, container: Container) -> dict[str, Any]:
    counter = container.token_counter()
    return {
        "sha256": built.sha256,
        "bytes": len(built.text.encode("utf-8")),
        "tokens": counter.count(built.text),
        "encoding": counter.encoding_name,
        "sections": [
            {
                "name": section.name.value,
                "sha256": section.sha256,
                "bytes": len(section.text.encode("utf-8")),
                "tokens": counter.count(section.text),
            }
            for section in built.sections
        ],
        "text": built.text,
    }


def _print_fingerprints(report: dict[str, Any]) -> None:
    lines = [
        f"sha256 {report['sha256']}  {report['bytes']} bytes, "
        f"{report['tokens']} tokens ({report['encoding']})"
    ]
    for section in report["sections"]:
        size = (
            f"{section['bytes']} bytes, {section['tokens']} tokens" if section["bytes"] else "empty"
        )
        lines.append(f"  {section['name']:<21} {section['sha256']}  {size}")
    sys.stdout.write("\n".join(lines) + "\n")


@app.command("diff")
def diff(
    ctx: typer.Context,
    a: Annotated[str, typer.Argument(metavar="A", help="The prefix file in use (cached).")],
    b: Annotated[str, typer.Argument(metavar="B", help="The prefix file to compare with it.")],
    as_json: JsonFlag = False,
) -> None:
    """Compare the prefixes of two files: where the cache breaks, which sections differ.

    The first section that differs is where a cached prefix of A stops serving B; everything
    before it is byte-identical. Every section is listed as same, changed, added or removed.

    Exits 0 whether the prefixes differ or not (the output says which); exits 2 when either
    file cannot be built, naming it.

    Example: agents context prefix diff prefix.yaml prefix.next.yaml
    """
    container = state(ctx).container(auto_migrate=False)
    built_a, built_b = _build(container, a), _build(container, b)
    result = container.stable_prefix_builder().diff(built_a, built_b)
    report = _diff_report(result, a, b)
    if as_json:
        emit_json(report)
    else:
        _print_diff(report)


def _diff_report(result: PrefixDiff, a: str, b: str) -> dict[str, Any]:
    return {
        "identical": result.identical,
        "first_changed": result.first_changed.value if result.first_changed else None,
        "changed": [name.value for name in result.changed],
        "common_prefix_bytes": result.common_prefix_bytes,
        "a": {"file": a, "sha256": result.a_sha256},
        "b": {"file": b, "sha256": result.b_sha256},
        "sections": [
            {
                "name": item.name.value,
                "change": item.change.value,
                "a_sha256": item.a_sha256,
                "b_sha256": item.b_sha256,
            }
            for item in result.sections
        ],
    }


def _print_diff(report: dict[str, Any]) -> None:
    if report["identical"]:
        lines = [f"identical: sha256 {report['a']['sha256']} (the cache is reused whole)"]
    else:
        lines = [
            f"first change: {report['first_changed']} (the cache breaks there; the first "
            f"{report['common_prefix_bytes']} bytes are identical)",
            f"changed: {', '.join(report['changed'])}",
        ]
    lines += [f"  {item['name']:<21} {item['change']}" for item in report["sections"]]
    sys.stdout.write("\n".join(lines) + "\n")
