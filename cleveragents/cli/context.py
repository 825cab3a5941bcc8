"""`agents context ...`: conversation transcripts compacted and validated."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from cleveragents.cli import context_budget, context_prefix
from cleveragents.cli.command_classes import AgentsTyper
from cleveragents.cli.inputs import read_transcript_file
from cleveragents.cli.models import ModelOption, count_label, model_settings
from cleveragents.cli.output import EncodingOption, JsonFlag, console, emit_json, print_table
from cleveragents.cli.output_files import check_output, report_stream, write_output
from cleveragents.cli.plots import check_plotting_available, plot_strategies
from cleveragents.cli.progress import progress_line
from cleveragents.cli.state import state
from cleveragents.container import build_container
from cleveragents.domain.vocabulary import (
    DEFAULT_ENCODING,
    DETECTED_FORMAT,
    FORMAT_CHOICES,
    TranscriptFormat,
)

if TYPE_CHECKING:
    from cleveragents.application.services.compaction.outcome import CompactionReport
    from cleveragents.container import Container
    from cleveragents.domain.policy import ContextPolicyChanges
    from cleveragents.domain.transcript import Transcript

    FormatChoice = str
else:
    FormatChoice = Literal[FORMAT_CHOICES]  # auto, then each format of the vocabulary

app = AgentsTyper(
    help="Conversation context: compact a transcript without losing the task, validate it.",
    no_args_is_help=True,
)
app.add_typer(context_prefix.app, name="prefix")
app.add_typer(context_budget.app, name="budget")


TranscriptArgument = Annotated[
    str,
    typer.Argument(
        metavar="TRANSCRIPT",
        help="Anthropic Messages JSON, OpenAI Chat Completions JSON or a Claude Code session "
        "JSONL file; - reads standard input.",
    ),
]
FormatOption = Annotated[
    FormatChoice, typer.Option("--format", help="The transcript's format (auto: detected).")
]
WindowOption = Annotated[
    int | None,
    typer.Option("--context-window", metavar="N", min=1, help="Default: the policy's."),
]
ReserveOption = Annotated[
    int | None,
    typer.Option(
        "--reserve-tokens",
        metavar="N",
        min=0,
        help="Kept free for the response; compaction starts above window - reserve.",
    ),
]
KeepRecentOption = Annotated[
    int | None,
    typer.Option(
        "--keep-recent-tokens",
        metavar="N",
        min=1,
        help="Recent complete turns kept verbatim, up to this many tokens.",
    ),
]
SummaryTokensOption = Annotated[
    int | None,
    typer.Option(
        "--summary-tokens",
        metavar="N",
        min=100,
        help="The summary's own budget; it keeps what ranks highest. Default: the policy's.",
    ),
]
ProjectOption = Annotated[
    str | None,
    typer.Option("--project", metavar="NAME", help="Take the defaults from this project."),
]


def _read(path: str, choice: FormatChoice, container: Container) -> tuple[Transcript, Any]:
    text = read_transcript_file(path)
    codec = container.transcript_codec()
    transcript_format = named_format(choice) or codec.detect(text)
    return codec.read(text, transcript_format), transcript_format


def named_format(choice: FormatChoice) -> TranscriptFormat | None:
    """The format a `--format` choice names; None for auto (detect it)."""
    return None if choice == DETECTED_FORMAT else TranscriptFormat(choice)


def _overrides(
    context_window: int | None,
    reserve_tokens: int | None,
    keep_recent_tokens: int | None,
    summary_tokens: int | None = None,
) -> ContextPolicyChanges:
    """The flags as policy changes; a bad value is one line and exit 2."""
    # Here, not at the top: pydantic models: ~130 ms of CPU on `agents --help`.
    from cleveragents.domain.policy import ContextPolicyChanges
    from cleveragents.domain.validation import build

    return build(
        ContextPolicyChanges,
        context_window=context_window,
        reserve_tokens=reserve_tokens,
        keep_recent_tokens=keep_recent_tokens,
        summary_tokens=summary_tokens,
    )


@app.command("compact")
def compact(
    ctx: typer.Context,
    transcript: TranscriptArgument,
    transcript_format: FormatOption = DETECTED_FORMAT,
    context_window: WindowOption = None,
    reserve_tokens: ReserveOption = None,
    keep_recent_tokens: KeepRecentOption = None,
    summary_tokens: SummaryTokensOption = None,
    project: ProjectOption = None,
    force: Annotated[
        bool, typer.Option("--force", help="Compact even under the threshold.")
    ] = False,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            metavar="FILE",
            help="Write the messages to send (compacted, or unchanged when not needed; "
            "credentials redacted) here, in the input's format; - writes them to standard "
            "output (the report then goes to standard error). When nothing was compacted or "
            "redacted, the input's exact bytes. Never an input file: refused, exit 2.",
        ),
    ] = None,
    keep_credentials: Annotated[
        bool,
        typer.Option(
            "--keep-credentials",
            help="Keep credentials in the messages written back as they are (the system "
            "prompt, the messages kept verbatim); the summary is redacted all the same.",
        ),
    ] = False,
    encoding: EncodingOption = DEFAULT_ENCODING,
    model: ModelOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Compact a transcript: older messages folded into a deterministic summary (within its
    own budget), recent messages kept verbatim, never a tool result without its call. A long
    turn (one request, hundreds of tool calls) is cut inside, at an assistant message; its
    request is quoted in the summary.

    The result fits context window - reserve tokens, counted with the tokenizer: oversized
    tool results in the kept part are shrunk first (their full output kept in the artifact
    store; the marker says how to read it back), then more is folded. Prints a report: tokens
    before and after, messages folded and kept, the summary's tokens, sections and SHA-256. A
    compaction that fails (it cannot fit, would not be smaller, or would break a provider
    rule) keeps the original messages, is recorded as a context_compaction_failed event with
    the reason, writes nothing and exits 1.

    Credentials are redacted from every message written back, whatever the outcome: the
    system prompt, texts, tool calls' arguments, tool results and the session's record
    fields; the report says how many and where (--keep-credentials keeps them). The input
    file is never changed.

    Example: agents context compact session.jsonl --force --out compacted.jsonl
    """
    # Here, not at the top: the compaction service: ~280 ms of CPU on `agents --help`.
    from cleveragents.application.services.compaction.transcript_compaction import (
        NoConversationError,
    )

    cli_state = state(ctx)
    inputs = check_output(out, [transcript]) if out is not None else frozenset()
    text = read_transcript_file(transcript)
    # --model, else the request's own "model" (not over a project's policy).
    request = None if project else text
    chosen = model_settings(model, encoding, context_window, reserve_tokens, request=request)
    encoding = chosen.encoding or encoding
    context_window, reserve_tokens = chosen.context_window, chosen.reserve_tokens
    container = cli_state.container()
    if encoding != DEFAULT_ENCODING:
        container = build_container(cli_state.database_url, encoding=encoding)
    overrides = _overrides(context_window, reserve_tokens, keep_recent_tokens, summary_tokens)
    with progress_line(f"compacting {transcript}", enabled=not as_json):
        try:
            compaction = container.transcript_compactor().compact(
                text,
                transcript_format=named_format(transcript_format),
                project=project or None,  # `--project ""` has always meant no project here
                overrides=overrides,
                force=force,
                unrecorded=_warn,  # a read-only store still gets the compaction, not its event
                what=transcript,
                keep_credentials=keep_credentials,
            )
        except NoConversationError as error:
            raise typer.BadParameter(str(error)) from None  # printed as a bad value, as ever
    if out is not None and compaction.outcome.status != "failed":
        write_output(out, compaction.output(), inputs)  # the input's own bytes if unchanged
    report = compaction.report()
    with report_stream(out):
        if as_json:
            emit_json({**report.as_json(), **count_label(chosen)})
        else:
            _print_report(report)
            if chosen.profile is not None:
                profile = chosen.profile
                console().print(f"counted for {profile.name}: {profile.count_method}")
    if report.status == "failed":
        raise typer.Exit(1)


def _warn(note: str) -> None:
    typer.echo(f"warning: {note}", err=True)


def _print_report(report: CompactionReport) -> None:
    out = console()
    out.print(
        f"[bold]{report.status}[/bold]: {report.tokens_before} -> "
        f"{report.tokens_after} tokens (threshold {report.threshold})"
    )
    if report.reason:
        out.print(f"reason: {report.reason}")
    redacted = _redacted_line(report)
    if redacted:
        out.print(redacted)
    if report.summary_sections is not None:
        split = " (cut inside a turn)" if report.split_turn else ""
        out.print(
            f"folded {report.folded_messages} messages, kept {report.kept_messages}"
            f"{split}; summary {report.summary_tokens} of {report.summary_budget} tokens, "
            f"summary sha256 {report.summary_sha256}"
        )
        for shrunk in report.shrunk_tool_results:
            kept = shrunk.artifact_id or "not kept"
            out.print(
                f"tool result {shrunk.call_id} shrunk {shrunk.tokens_before} -> "
                f"{shrunk.tokens_after} tokens (full output: {kept})"
            )
        print_table(
            "Summary sections",
            ("section", "items"),
            [(name, count) for name, count in report.summary_sections.items()],
        )


_PLACES = {
    "system": "system prompt",
    "folded": "folded into the summary",
    "kept": "messages kept verbatim",
    "request": "request fields",
}


def _redacted_line(report: CompactionReport) -> str | None:
    """Where credentials were redacted, or that they were kept; None when there were none."""
    places = ", ".join(
        f"{_PLACES[place]} {count}" for place, count in report.redacted_in.items() if count
    )
    count = report.redacted_secrets
    if report.keep_credentials:
        kept = "credentials kept as they are (--keep-credentials)"
        return f"{kept}; redacted from the summary: {count}" if count else kept
    return f"credentials redacted: {count} ({places})" if count else None


@app.command("validate")
def validate(
    ctx: typer.Context,
    transcript: TranscriptArgument,
    transcript_format: FormatOption = DETECTED_FORMAT,
    as_json: JsonFlag = False,
) -> None:
    """Check a transcript against the providers' structural rules: the first non-system
    message is a user message, every tool result answers a call of the immediately preceding
    assistant message, every call is answered before the next user text, ids are unique.

    Exits 0 when valid, 2 when a rule is broken (every violation is listed).

    Example: agents context validate conversation.json --format openai
    """
    # Here, not at the top: pydantic models: ~130 ms of CPU on `agents --help`.
    from cleveragents.domain.transcript_rules import violations

    container = state(ctx).container(auto_migrate=False)
    parsed, used = _read(transcript, transcript_format, container)
    found = violations(parsed.messages)
    if as_json:
        emit_json(
            {
                "format": used.value,
                "messages": len(parsed.messages),
                "valid": not found,
                "violations": [
                    {"message": v.index, "rule": v.rule, "detail": v.message} for v in found
                ],
            }
        )
    elif not found:
        console().print(f"valid: {len(parsed.messages)} messages ({used.value})")
    else:
        print_table(
            f"{len(found)} violations in {len(parsed.messages)} messages ({used.value})",
            ("message", "rule", "detail"),
            [(v.index, v.rule, v.message) for v in found],
        )
    if found:
        raise typer.Exit(2)


@app.command("compare")
def compare(
    ctx: typer.Context,
    transcript: TranscriptArgument,
    transcript_format: FormatOption = DETECTED_FORMAT,
    context_window: WindowOption = None,
    reserve_tokens: ReserveOption = None,
    keep_recent_tokens: KeepRecentOption = None,
    project: ProjectOption = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            metavar="FILE",
            help="Also draw tokens against recovery per strategy as a PNG (needs the "
            "'plot' extra: pip install -e '.[plot]' in a checkout).",
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Run every context strategy on the same transcript and compare them side by side: no
    compaction, the deterministic compaction (the default) and observation masking (old tool
    outputs replaced by placeholders). Per strategy: tokens after, whether that fits the
    window, structural validity, recovery of the facts a resumed agent needs (per category),
    latency. A dry run: nothing is recorded.

    Example: agents context compare session.jsonl --plot strategies.png
    """
    # Here, not at the top: the compaction services: ~340 ms of CPU on `agents --help`.
    from cleveragents.application.services.compaction.recall import message_workspace
    from cleveragents.application.services.compaction.settings import compaction_settings

    if plot is not None:
        check_plotting_available()
        inputs = check_output(str(plot), [transcript], "--plot")
    container = state(ctx).container()
    parsed, _ = _read(transcript, transcript_format, container)
    settings = compaction_settings(
        container.project_service(),
        project or None,
        _overrides(context_window, reserve_tokens, keep_recent_tokens),
    ).settings
    workspace = message_workspace(parsed.messages)
    with progress_line(f"comparing strategies on {transcript}", enabled=not as_json):
        results = container.strategy_comparison().compare(
            parsed.messages, settings, workspace=workspace
        )
    rows = [result.as_dict() for result in results]
    if plot is not None:
        # Rendered in memory, then written like every --out: a device is never replaced.
        write_output(str(plot), plot_strategies(rows, title=Path(transcript).name), inputs)
    with report_stream(None if plot is None else str(plot)):
        _print_comparison(rows, settings.threshold, transcript, as_json)


def _print_comparison(
    rows: list[dict[str, Any]], threshold: int, transcript: str, as_json: bool
) -> None:
    if as_json:
        emit_json({"threshold": threshold, "strategies": rows})
        return
    print_table(
        f"{Path(transcript).name}: {rows[0]['tokens_before']} tokens, window threshold "
        f"{threshold}; recovery = facts kept / facts",
        ("strategy", "tokens after", "fits", "valid", *_CATEGORY_LABELS.values(), "ms"),
        [
            (
                row["strategy"],
                row["tokens_after"],
                "yes" if row["fits_window"] else "no",
                "yes" if row["valid"] else "NO",
                *(_recovered(row["recovery"][name]) for name in _CATEGORY_LABELS),
                f"{row['latency_s'] * 1000:.0f}",
            )
            for row in rows
        ],
    )


_CATEGORY_LABELS = {
    "latest_request": "request",
    "user_requests": "requests",
    "files_modified": "modified",
    "files_read": "read",
    "commands": "commands",
    "errors": "errors",
    "unfinished": "unfinished",
    "decisions": "decisions",
    "next_step": "next",
    "uncertain_effects": "uncertain",
}


def _recovered(entry: dict[str, Any]) -> str:
    return f"{entry['recovered']}/{entry['total']}" if entry["total"] else "-"
