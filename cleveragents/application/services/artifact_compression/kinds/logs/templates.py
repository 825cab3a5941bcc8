"""Log message templates: the same message with other variables gets the same template.

A template is the line with its variable parts masked as ``<*>``: numbers in any notation
(timestamps, counters, durations and sizes with their unit: ``12ms``, ``1.5GiB``), hex values
and hashes, IP addresses and ports, UUIDs, block and job ids (``blk_-123``, ``job_2015_0001``),
paths and URLs, quoted and backquoted strings, and the values of ``key=value`` pairs and of JSON
fields. Runs of spaces count as one, so columns aligned for numbers of other widths do not split
a message.
The level and the words of the message stay, so ``INFO`` and ``WARN`` lines never share a
template, nor do two messages with other words.

Masking runs over the whole text with one regular expression and a constant replacement, so the
regex engine does all the work in C: no Python runs per line, token or match (a 10 MB log of
76k lines takes 0.35 s of CPU on a slow, busy machine where ``sum(range(10**7))`` takes 0.17 s).
Lines equal but for their digits are masked once (`masked_lines`): most lines of a log repeat a
message with other numbers, so only a fraction of the text goes through the regex.
The rarer rules run on the distinct masked forms only (hundreds, not the lines): the month and
weekday names of dates go, and so does what masking leaves of a hex id that starts with a
letter (``a<*>``). Templates get ids in order of first appearance: deterministic, and stable
when lines are appended.

What masking cannot see, a Drain-like last step merges: a word that varies where the rest of
the message does not (``Invalid user admin from <*>``, ``Invalid user oracle from <*>``), once
three different words were seen in its place, and only with at least three other words around
it (so two words, ``Starting``/``Stopping``, or a stack frame ``at X`` stay apart). It too
looks at each distinct form once, so it costs nothing on a big log.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate

from cleveragents.application.services.artifact_compression.kinds.logs.digits import (
    digits_as_one,
)
from cleveragents.application.services.artifact_compression.kinds.logs.joined_lines import (
    lines_holding,
)

__all__ = ["TemplateIndex", "template_ids", "template_of"]

WILDCARD = "<*>"

_MONTHS = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec"
_WEEKDAYS = "Mon|Tue|Wed|Thu|Fri|Sat|Sun"
_HEX = "[0-9a-fA-F]"
# Keys whose value *is* the message or its level: masking them would merge every line of a
# structured log into one template (``msg="..."``, ``"level": "warn"``).
_KEPT_KEYS = ("msg", "message", "level", "lvl", "severity", "event", "error", "err")


def _not_after_kept_key(quote: str) -> str:
    """Look-behinds that fail right after a kept key and `quote` (the character just read)."""
    return "".join(f"(?<!{key}{sep}{quote})" for key in _KEPT_KEYS for sep in ("=", '":', '": '))


# One pattern, built for speed: it starts with a character set, so the regex engine skips in C
# every position where no variable can start (letters and spaces, most of a log); the first
# character is consumed there and each alternative checks it with a look-behind (`(?<!\w.)`
# looks at the character before it). Possessive quantifiers keep every alternative linear.
_VARIABLE = re.compile(
    "[0-9\"'`=/\\\\:-]"
    "(?:"
    # Numbers in any notation, hex values, IPs and ports, dates and times, UUIDs: from a digit
    # (or the minus before one, so `blk_-12` and `blk_34` agree) over hex digits and single
    # separators followed by a digit, then a unit (`12ms`, `1.5GiB`, `80%`). Digits inside a
    # word are masked too (`dn228`, `jk2_init`): the word around them stays.
    rf"(?:(?<=-)\d|(?<=\d))(?:(?<=0)[xX])?{_HEX}*+"
    rf"(?:[.:,_-](?={_HEX}*?\d){_HEX}++)*+"
    r"(?:[a-zA-Z\u00b5%]{1,3}(?![A-Za-z0-9]))?"
    # Quoted strings (not JSON keys, which a colon follows, nor the message itself).
    rf"|(?<=\")(?<![\w\"\\].){_not_after_kept_key(chr(34))}(?:[^\"\\\n]++|\\.)*+\"(?![ \t]*+:)"
    rf"|(?<=')(?<![\w'].){_not_after_kept_key(chr(39))}[^'\n]*+'(?!\w)"
    r"|(?<=`)(?<![\w`].)[^`\n]{1,200}+`"  # a name in backquotes (`user`, `Foo::bar`)
    # The value of key=value (the key stays: it is part of the message).
    rf"|(?<==){_not_after_kept_key('')}[^\s,;&()\[\]{{}}<>\"'=]++"
    # Paths (Unix and Windows; `and/or` is none) and the rest of a URL after its scheme.
    r"|(?<=[/\\])(?<![\w.~$-].)[\w.@%+~$/\\-]++"
    r"|(?<=:)(?<=[A-Za-z].)//[^\s\"'<>()\[\]]++"
    ")"
)

# Removed from the distinct masked forms before ids are assigned (cheaper there than in every
# line): what the masking leaves of a hex id that starts with a letter (its letters before the
# first digit: `a<*>` for a91f0c), masks side by side (`<*><*>`), and the names in dates (`Sun
# Dec <*>`, `<*>-Oct-<*>`, `Mon, <*> Jan <*>`).
#
# Written for speed like `_VARIABLE`: every alternative starts with a literal character (each
# rule split by the letter its words start with, the look-behind then checking the character
# before it), so the regex engine skips in C every position where none can start; a rule that
# starts with a look-behind would be tried at every position of every form.
_HEX_ID_HEAD = "".join(
    rf"|{letter}(?<![A-Za-z0-9].)[a-fA-F]*+(?=<\*>)" for letter in "abcdefABCDEF"
)
_MASK_RUN = r"|<(?<=<\*><)\*>(?:<\*>)*+"


def _names_by_initial(names: str, rest: str) -> str:
    """``|M(?<![A-Za-z].)(?:on)<rest>|T...``: `names` (``Mon|Tue|...``) as one alternative
    per initial, each a whole word (no letter before it), followed by `rest`."""
    initials: dict[str, list[str]] = {}
    for name in names.split("|"):
        initials.setdefault(name[0], []).append(name[1:])
    return "".join(
        f"|{initial}(?<![A-Za-z].)(?:{'|'.join(tails)}){rest}"
        for initial, tails in initials.items()
    )


_CANONICAL = re.compile(
    (
        _HEX_ID_HEAD
        + _MASK_RUN
        + _names_by_initial(_WEEKDAYS, rf"[a-z]*+,?(?= (?:{_MONTHS}|<\*>))")
        + _names_by_initial(_MONTHS, r"[a-z]*+\.?(?= <\*>|[-/]?<\*>)")  # the minus may be masked
    )[1:]
)

# The Drain-like step: a word is taken for a variable once this many distinct words were seen
# in its place with the rest of the form the same (two could be `Starting` and `Stopping`;
# three or more are names). Forms longer than `MERGE_WORDS` words are not compared, and the
# tables stop growing at their limits, so memory stays bounded whatever the log.
VARIANTS = 3  # two at least: a place's first word alone never makes a variable
MERGE_WORDS = 32
FIXED_WORDS = 3  # other words (with a letter) that must stay around a varying one
FORM_LIMIT = 50_000
PLACE_LIMIT = 200_000
_PLACE = "\x00"  # stands for the word that varies in a place key


_SPACES = re.compile(" {2,}")


def _mask(text: str) -> str:
    masked = _VARIABLE.sub(WILDCARD, text)
    if "  " in masked:  # columns aligned for values of other widths: `Jun  4`, `Jun 14`
        masked = _SPACES.sub(" ", masked)
    return masked


def template_of(line: str) -> str:
    """`line` with its variable parts masked: the first step only (date names, a hex id's
    first letters and varying words are taken care of by `TemplateIndex`)."""
    return _mask(line)


# Lines that differ only in their digits (a timestamp, a counter) mask alike: masking treats
# digits as one class and masks every one of them, except where it reads a 0 (the `0x` of a
# hex value), which a key of 1s would lose.
_HEX_PREFIXES = ("0x", "0X")


def masked_lines(lines: Sequence[str], keys: Sequence[str] | None = None) -> list[str]:
    """`template_of` of every line. The lines are masked in one call over their joined text
    (the regex engine's loop, not Python's), and each distinct line once: lines equal but for
    their digits (`digits_as_one`) share their masked form, so a log whose lines repeat a few
    hundred messages with other numbers masks a fraction of its text. `keys`: the lines'
    digits-as-one keys when the caller has them already."""
    if not lines:
        return []
    joined = "\n".join(lines)
    if keys is None:
        keys = digits_as_one(joined).split("\n")
    if len(keys) != len(lines):
        return [_mask(line) for line in lines]  # a line held a newline of its own
    hex_lines = lines_holding(lines, _HEX_PREFIXES, joined)
    if hex_lines:
        # The digits of these lines are kept: a key of 1s would not tell `0x1f` from `1x1f`.
        keys = list(keys)
        for index in hex_lines:
            keys[index] = lines[index]
    distinct = list(dict.fromkeys(keys))
    masked = _mask("\n".join(distinct)).split("\n")
    if len(masked) != len(distinct):
        return [_mask(line) for line in lines]
    by_key = dict(zip(distinct, masked, strict=True))
    return list(map(by_key.__getitem__, keys))


@dataclass
class TemplateIndex:
    """Template ids for a stream of lines, stable in order of first appearance.

    Feeding the same lines in the same order, in one call or many, gives the same ids, so a
    streaming pass and an in-memory one agree. Past `FORM_LIMIT` distinct masked forms a new
    form is no longer remembered (each of its lines then gets an id of its own): memory stays
    bounded on a log whose masking fails to find its variables.
    """

    _forms: dict[str, tuple[int, int]] = field(default_factory=dict)  # template id, variant
    # Each place of a form whose other words are fixed: the template and the word it was first
    # seen with; and the words seen there (up to `VARIANTS`), once there are two (most places
    # never see another word: a set for each would cost more than the rest of a template).
    _places: dict[str, tuple[int, str]] = field(default_factory=dict)
    _words: dict[str, set[str]] = field(default_factory=dict)
    _count: int = 0
    _variants: int = 0

    @property
    def size(self) -> int:
        """How many distinct templates were seen."""
        return self._count

    def ids(self, lines: Sequence[str]) -> list[int]:
        """The template id of each line."""
        return [template for template, _ in self.assign(lines)]

    def assign(
        self, lines: Sequence[str], keys: Sequence[str] | None = None
    ) -> list[tuple[int, int]]:
        """The template id of each line, and its variant: lines of one template whose varying
        word (see the module docstring) differs are variants of it, numbered like templates.
        `keys`: the lines' digits-as-one keys when the caller has them already."""
        known = self._forms
        return [known.get(form) or self._new_form(form) for form in masked_lines(lines, keys)]

    def _new_form(self, form: str) -> tuple[int, int]:
        canonical = _CANONICAL.sub("", form)
        found = self._forms.get(canonical)
        if found is None:
            found = (self._new_template(canonical), self._variants)
            self._variants += 1
            self._remember(canonical, found)
        self._remember(form, found)
        return found

    def _remember(self, form: str, found: tuple[int, int]) -> None:
        if len(self._forms) < FORM_LIMIT:
            self._forms[form] = found

    def _new_template(self, form: str) -> int:
        places = _places(form)
        ident = self._variant_of(places)
        if ident is None:
            ident = self._count
            self._count += 1
            known = self._places
            for key, word in places:
                if key not in known and len(known) < PLACE_LIMIT:
                    known[key] = (ident, word)
        return ident

    def _variant_of(self, places: list[tuple[str, str]]) -> int | None:
        """The template that a form with these places varies from in one word, once that place
        has seen `VARIANTS` distinct words; None if there is none (yet)."""
        for key, word in places:
            place = self._places.get(key)
            if place is None:
                continue
            ident, first_word = place
            words = self._words.get(key)
            if words is None:
                if word == first_word:
                    continue  # one word still: fewer than `VARIANTS`
                words = self._words[key] = {first_word, word}
            elif len(words) < VARIANTS:
                words.add(word)
            if len(words) >= VARIANTS:
                return ident
        return None


def _places(form: str) -> list[tuple[str, str]]:
    """Each real word of `form` with the form around it (the word replaced by `_PLACE`); none
    when the form is too long to compare or has too few words to tell a variable from the
    message itself."""
    words = form.split(" ")
    if len(words) > MERGE_WORDS:
        return []
    lettered = 0
    for word in words:
        if word != WILDCARD and _has_letter(word):
            lettered += 1
            if lettered > FIXED_WORDS:
                break
    else:
        return []
    # Where each word starts: after the words before it and a space after each.
    starts = accumulate((len(word) + 1 for word in words[:-1]), initial=0)
    return [
        (f"{form[:start]}{_PLACE}{form[start + len(word) :]}", word)
        for start, word in zip(starts, words, strict=True)
        if word != WILDCARD
    ]


def _has_letter(word: str) -> bool:
    return any(map(str.isalpha, word))


def template_ids(lines: Sequence[str]) -> list[int]:
    """The template id of each line, in order of first appearance (0, 1, 2, ...)."""
    return TemplateIndex().ids(lines)
