"""Commands' help texts reflowed, so that the terminal wraps them at its own width.

A docstring is written hard-wrapped at the source's width (about 100 columns). Typer's Rich help
joins the lines of the first paragraph but keeps every single line break of the others, so at 80
columns each source line wraps into a long line and a stub, and a group's command list keeps the
breaks even of the first paragraph. Here each command's help is reflowed once, when the command
is built (`command_classes`): every paragraph (paragraphs are separated by blank lines) becomes
one line for Rich to wrap, except the lines that must stay lines:

- a line that starts with ``Example:`` or a list marker (``-``, ``*``, ``•``, ``1.``, ``1)``)
  starts a line of its own; unmarked lines after it join it (a long example wrapped in the
  source is still one example);
- an indented line stays as it is (a code or table block), unless it continues a list item;
- a paragraph marked with Click's ``\\b`` stays as it is (the marker is dropped: Rich would
  print it as a blank line).

The first paragraph is the command's summary (the line a group lists it by): always one line.
Anything after a ``\\f`` line (Click's "not for the help" cut) is kept untouched.

An option whose choices spelt out would make a wide metavar (``<auto|anthropic|openai|...>``) is
shown by its name instead (``FORMAT``), its help ending with the choices: Rich sizes the options
table by its longest words, and a wide metavar column squeezes the help into a few words a line,
or cuts cells short at 80 columns. Click still checks the value against the choices.

Click's plain formatter (the Markdown reference) re-joins the lines of every paragraph unless
it is marked ``\\b``: `mark_kept_lines` marks those that hold more than one line.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import typer.core

_PARAGRAPH_BREAK = re.compile(r"\n(?:[ \t]*\n)+")
_LIST_ITEM = re.compile(r"(?:[-*•]|\d+[.)])\s")
_OWN_LINE = re.compile(r"(?:Example:|(?:[-*•]|\d+[.)])\s)")
_KEEP_LINES_MARK = "\b"
_WIDEST_CHOICES_METAVAR = 12  # `<json|text>` stays; `<tiered|smart>` becomes MODE


def flow(help_text: str) -> str:
    """`help_text` (a docstring, indented or not) with each paragraph on one line, but for the
    lines that must stay lines (see the module's docstring)."""
    shown, cut, hidden = inspect.cleandoc(help_text).partition("\f")
    paragraphs = [p for p in _PARAGRAPH_BREAK.split(shown.strip("\n")) if p.strip()]
    flowed = [_flow_paragraph(p, summary=index == 0) for index, p in enumerate(paragraphs)]
    return "\n\n".join(flowed) + ("\n" + cut + hidden if cut else "")


def _flow_paragraph(paragraph: str, *, summary: bool) -> str:
    lines = paragraph.splitlines()
    if lines[0].strip() == _KEEP_LINES_MARK:
        kept = "\n".join(line.rstrip() for line in lines[1:])
        return _one_line(kept.splitlines()) if summary else kept
    if summary:
        return _one_line(lines)
    out: list[str] = []
    previous = ""  # "text", "item" or "block": what the last line of `out` is
    for line in lines:
        stripped = line.strip()
        if not stripped:
            continue
        if line[0] in " \t":
            if previous == "item" and not _LIST_ITEM.match(stripped):
                out[-1] = f"{out[-1]} {stripped}"
            else:
                out.append(line.rstrip())
                previous = "block"
            continue
        if out and previous != "block" and not _OWN_LINE.match(stripped):
            out[-1] = f"{out[-1]} {stripped}"
            continue
        out.append(stripped)
        previous = "item" if _LIST_ITEM.match(stripped) else "text"
    return "\n".join(out)


def _one_line(lines: list[str]) -> str:
    return " ".join(stripped for line in lines if (stripped := line.strip()))


def mark_kept_lines(flowed_text: str) -> str:
    """`flowed_text` (from `flow`) with each paragraph of several lines marked ``\\b``, for
    Click's plain formatter to keep its lines as they are instead of joining them."""
    shown, cut, hidden = flowed_text.partition("\f")
    paragraphs = shown.split("\n\n")
    marked = [
        f"{_KEEP_LINES_MARK}\n{p}" if "\n" in p and not p.startswith(_KEEP_LINES_MARK) else p
        for p in paragraphs
    ]
    return "\n\n".join(marked) + cut + hidden


def name_wide_choices(param: Any) -> None:
    """Show a choice option whose choices are too many to spell in the metavar by its name,
    and list the choices at the end of its help (see the module's docstring)."""
    described = getattr(param, "type_descriptor", None)
    if not isinstance(param, typer.core.TyperOption) or described is None:
        return
    if not described.is_choice or described.choices is None:
        return
    choices = [str(getattr(choice, "value", choice)) for choice in described.choices]
    if param.metavar is not None or len("|".join(choices)) + 2 <= _WIDEST_CHOICES_METAVAR:
        return
    long_names = [opt for opt in param.opts if opt.startswith("--")] or [param.name or "value"]
    param.metavar = long_names[0].lstrip("-").replace("-", "_").upper()
    listed = f"One of: {', '.join(choices)}."
    param.help = f"{param.help.rstrip()} {listed}" if param.help else listed
