"""Generated Plan/PRD markdown of any size, for the benchmarks and the tests that must not need
the shared corpus.

Deterministic for a given size: the same bytes on every machine. A document holds what plans and
RFCs hold, in proportions close to theirs: headings at three levels (ATX, and now and then
setext), a table of contents of links to the headings, prose written a paragraph per line and
hard-wrapped at 80 columns, requirement sentences (``MUST``, "must", "should"), inline code,
links, numbers, abbreviations, filler words and wordy phrases, "for example" paragraphs, bullet
and numbered lists (nested, task lists), block quotes, tables with an alignment row, fenced and
indented code, HTML comments, thematic breaks and front matter.
"""

from __future__ import annotations

import textwrap
import zlib
from random import Random

_WORDS = tuple(
    " ".join(
        (
            "scheduler request budget token judge artifact session cache policy worker queue",
            "plan migration index schema runtime compiler borrow lifetime future executor region",
            "query replica shard lease snapshot manifest payload handler window reader writer",
            "buffer channel stream record segment ledger council team member decision process",
            "review proposal",
        )
    ).split()
)
_VERBS = ("keeps", "returns", "rejects", "writes", "reads", "stores", "drops", "merges")
_FILLERS = ("the", "a", "very", "really", "just", "basically", "quite", "rather")
_PHRASES = ("in order to", "due to the fact that", "it is important to note that", "is able to")
_OBLIGATIONS = ("MUST", "MUST NOT", "SHOULD", "must", "should", "shall", "is required to")
_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.")
_LANGUAGES = ("rust", "python", "toml", "sh")


def _word(rng: Random) -> str:
    return rng.choice(_WORDS)


def _code_name(rng: Random) -> str:
    return f"{_word(rng)}_{_word(rng)}"


def _sentence(rng: Random, *, requirement: bool = False) -> str:
    """One sentence: a subject, a verb, objects, and now and then inline code, a number, a
    link, an abbreviation, filler words or a wordy phrase."""
    words = [rng.choice(_FILLERS).capitalize() if rng.random() < 0.3 else "The", _word(rng)]
    if requirement:
        words.append(rng.choice(_OBLIGATIONS))
        words.append(rng.choice(("keep", "return", "reject", "write", "count", "check")))
    else:
        words.append(rng.choice(_VERBS))
    for _ in range(rng.randint(4, 18)):
        roll = rng.random()
        if roll < 0.06:
            words.append(f"`{_code_name(rng)}()`")
        elif roll < 0.09:
            words.append(str(rng.randint(2, 5000)))
        elif roll < 0.11:
            words.append(f"[{_word(rng)}](https://example.org/{_word(rng)}/{rng.randint(1, 99)})")
        elif roll < 0.13:
            words.append(rng.choice(_ABBREVIATIONS))
        elif roll < 0.2:
            words.append(rng.choice(_FILLERS))
        elif roll < 0.23:
            words.append(rng.choice(_PHRASES))
        elif roll < 0.28:
            words.append(_word(rng) + ",")
        else:
            words.append(_word(rng))
    return " ".join(words) + rng.choice((".", ".", ".", ".", "!", "?", ":"))[:1]


def _paragraph(rng: Random) -> list[str]:
    """A paragraph: one long line, or hard-wrapped at 80 columns; now and then an example."""
    count = rng.randint(1, 7)
    sentences = [_sentence(rng, requirement=rng.random() < 0.15) for _ in range(count)]
    if rng.random() < 0.05:
        sentences[0] = "For example, " + sentences[0][0].lower() + sentences[0][1:]
    text = " ".join(sentences)
    if rng.random() < 0.5:
        return [text]
    return textwrap.wrap(text, 80, break_on_hyphens=False, break_long_words=False)


def _list(rng: Random) -> list[str]:
    lines = []
    numbered = rng.random() < 0.4
    for index in range(1, rng.randint(2, 9)):
        marker = f"{index}." if numbered else rng.choice(("-", "*", "- [ ]", "- [x]"))
        lines.append(f"{marker} {_sentence(rng, requirement=rng.random() < 0.2)}")
        if rng.random() < 0.2:
            lines.append(f"    - {_sentence(rng)}")
        if rng.random() < 0.1:
            lines.append(f"  {_sentence(rng)}")  # a lazy continuation line
    return lines


def _table(rng: Random) -> list[str]:
    columns = rng.randint(2, 5)
    header = [_word(rng).title() for _ in range(columns)]
    rows = ["| " + " | ".join(header) + " |", "|" + "|".join([":---"] * columns) + "|"]
    for _ in range(rng.randint(2, 12)):
        cells = [
            (
                rng.choice(_OBLIGATIONS) + " " + _word(rng)
                if rng.random() < 0.1
                else f"`{_code_name(rng)}`"
                if rng.random() < 0.2
                else " ".join(_word(rng) for _ in range(rng.randint(1, 4)))
            )
            for _ in range(columns)
        ]
        rows.append("| " + " | ".join(cells) + " |")
    return rows


def _code(rng: Random) -> list[str]:
    language = rng.choice(_LANGUAGES)
    body = []
    for _ in range(rng.randint(3, 25)):
        indent = "    " * rng.randint(0, 2)
        body.append(f"{indent}let {_code_name(rng)} = {_code_name(rng)}({rng.randint(0, 99)});")
    if rng.random() < 0.2:  # indented code, after a blank line
        return [f"    {line}" for line in body]
    return [f"```{language}", *body, "```"]


def _quote(rng: Random) -> list[str]:
    lines = [f"> **Note:** {_sentence(rng)}"]
    lines += [f"> {_sentence(rng)}" for _ in range(rng.randint(0, 3))]
    return lines


def _block(rng: Random) -> list[str]:
    roll = rng.random()
    if roll < 0.55:
        return _paragraph(rng)
    if roll < 0.72:
        return _list(rng)
    if roll < 0.8:
        return _table(rng)
    if roll < 0.9:
        return _code(rng)
    if roll < 0.95:
        return _quote(rng)
    if roll < 0.97:
        return [f"<!-- {_sentence(rng)} -->"]
    return ["---"]


def _title(rng: Random) -> str:
    return " ".join(_word(rng) for _ in range(rng.randint(2, 5))).capitalize()


def generated_markdown(size: int) -> str:
    """About `size` bytes (at least one section) of plan markdown, cut after a whole block."""
    rng = Random(zlib.crc32(f"markdown:{size}".encode()))
    out = ["---", f"title: {_title(rng)}", "status: draft", "---", "", f"# {_title(rng)}", ""]
    sections = [_title(rng) for _ in range(max(size // 6000, 3))]
    out += [f"- [{name}](#{name.lower().replace(' ', '-')})" for name in sections[:40]]
    total = sum(len(line) + 1 for line in out)
    number = 0
    while total < size:
        name = sections[number % len(sections)]
        number += 1
        heading = f"## {number}. {name}"
        lines = ["", heading, ""] if rng.random() < 0.9 else ["", name, "-" * len(name), ""]
        for _ in range(rng.randint(2, 6)):
            if rng.random() < 0.3:
                lines += [f"### {number}.{rng.randint(1, 9)} {_title(rng)}", ""]
            for _ in range(rng.randint(1, 5)):
                lines += [*_block(rng), ""]
        out += lines
        total += sum(len(line) + 1 for line in lines)
    return "\n".join(out).rstrip("\n") + "\n"
