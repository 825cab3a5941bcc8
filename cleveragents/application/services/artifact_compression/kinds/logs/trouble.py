"""Log files: the last lines that mention trouble, whatever their level.

The last line of a log that says something went wrong is often not at ERROR level: ``INFO
nova.api.openstack.wsgi [...] HTTP exception thrown: No instances found``, ``RAS KERNEL INFO
instruction cache parity error corrected``, a syslog line with no level at all (``sshd(pam_unix)
[123]: authentication failure; ...``), a test run's ``12 failed, 393 passed``. Smart mode keeps
the last line holding a trouble word (`TROUBLE_WORDS`, as a whole word in any case: ``error``,
``ERR``, ``Failed``, ``timed out``; not ``ErrImagePull`` or ``NullPointerException``, whose
lines the trace rules see) beside the last error, and the last line of each other trouble word
with the last occurrences of errors and warnings.

Found from the end backwards with `str.rfind` on the lower-cased text, one search per word
stem, each candidate checked by an anchored match: the regex engine never walks the whole log,
which keeps a 10 MB log with no trouble at all within milliseconds of C.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["TROUBLE_WORDS", "last_trouble_lines", "mentions_trouble"]

# Each stem and the forms that follow it (the whole word must end there).
_FORMS: dict[str, str] = {
    "err": r"err(?:ors?)?",
    "exception": r"exceptions?",
    "fail": r"fail(?:s|ed|ures?|ing)?",
    "fatal": r"fatal",
    "critical": r"critical",
    "panic": r"panic(?:s|ked)?",
    "denied": r"denied",
    "refused": r"refused",
    "timeout": r"timeouts?",
    "timed out": r"timed out",
    "traceback": r"traceback",
    "abort": r"abort(?:s|ed|ing)?",
    "segfault": r"segfault",
    "oom": r"oom",
    "killed": r"killed",
}
TROUBLE_WORDS = tuple(_FORMS)
_WORD_AT = {stem: re.compile(rf"{forms}(?![\w])") for stem, forms in _FORMS.items()}
_WHOLE = {stem: re.compile(rf"(?<![\w]){forms}(?![\w])") for stem, forms in _FORMS.items()}
MISSES = 1000
_ANY = re.compile(rf"(?<![\w])(?:{'|'.join(_FORMS.values())})(?![\w])", re.IGNORECASE)


def mentions_trouble(line: str) -> bool:
    """Whether `line` holds a trouble word (see the module docstring)."""
    return _ANY.search(line) is not None


def _last_at(lowered: str, stem: str) -> int:
    """Where the last whole trouble word of `stem` starts in `lowered`, or -1.

    After `MISSES` candidates inside other words (``interrupt``, ``room``; a hostile text can
    hold millions) the rest is searched by one regex pass instead, linear and in C.
    """
    word = _WORD_AT[stem]
    end = len(lowered)
    for _ in range(MISSES):
        at = lowered.rfind(stem, 0, end)
        if at < 0:
            return -1
        before = lowered[at - 1] if at else " "
        if not (before.isalnum() or before == "_") and word.match(lowered, at):
            return at
        end = at + len(stem) - 1
    last = -1
    for match in _WHOLE[stem].finditer(lowered, 0, end):
        last = match.start()
    return last


def last_trouble_lines(lines: Sequence[str]) -> dict[str, int]:
    """The index of the last line holding each trouble word that `lines` hold (by stem)."""
    if not lines:
        return {}
    lowered = "\n".join(lines).lower()
    starts = {stem: at for stem in TROUBLE_WORDS if (at := _last_at(lowered, stem)) >= 0}
    # One pass of newline counts up to the last of them (in order), not one per word.
    found: dict[str, int] = {}
    line = counted = 0
    for stem, at in sorted(starts.items(), key=lambda item: item[1]):
        line += lowered.count("\n", counted, at)
        counted = at
        found[stem] = line
    return found
