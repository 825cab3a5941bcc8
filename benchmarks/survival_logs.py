"""The survival benchmark's logs: what matters in a log, read by this benchmark's own rules.

Each file's format is recognised from its first lines by this benchmark's own line patterns,
and each line's level read where that format writes it (logcat's one letter, a level column,
nginx's and Apache's ``[warn]``, a JSON or logfmt ``level`` field, a Kubernetes event's type),
or, for formats without one (syslog, tool output, access logs), from a trouble or warning word
in the message (`TROUBLE`: error, failed, denied, timeout, ...). A template is a line's level
class, component and message with every token holding a digit and every ``key=value``'s value
masked, and a word masked where three or more distinct words were seen with the rest of the
template the same (user names: `merged_templates`); a template is represented when an output
line has it.

The figures: error and warning templates kept, severity lines kept, the last error line (of
an error level) kept, and the last trouble line kept: the last line holding a trouble word as
a whole word, whatever its level (``INFO ... HTTP exception thrown``, ``instruction cache
parity error corrected``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from statistics import mean

from benchmarks.survival_core import (
    NONE,
    Count,
    Figure,
    Measure,
    Metric,
    Outcome,
    kept,
    lines_of,
    misses,
    names,
    ratio_label,
    select,
    term_lines,
)

# A word that says something went wrong, as a whole word in any case.
_TROUBLE = (
    r"\b(?:errors?|exceptions?|fail(?:s|ed|ure|ures|ing)?|fatal|critical|panic(?:ked)?"
    r"|err|denied|refused|timeout|timed out|traceback|abort(?:s|ed)?|segfault|oom|killed)\b"
)
_WARNING = r"\bwarn(?:ing|ings)?\b"
TROUBLE = re.compile(_TROUBLE, re.IGNORECASE)
_WARNING_WORD = re.compile(_WARNING, re.IGNORECASE)
# The level of a line whose format writes none: its first trouble or warning word.
LEVEL_WORD = re.compile(rf"(?P<level>{_TROUBLE}|{_WARNING})", re.IGNORECASE)

ERROR_LEVELS = frozenset(
    {"e", "f", "a", "error", "err", "fatal", "severe", "critical", "crit", "alert", "emerg"}
    | {"failure", "panic"}
)
WARNING_LEVELS = frozenset({"w", "warn", "warning"})
_LEVELS = r"TRACE|DEBUG|INFO|NOTICE|WARN(?:ING)?|ERROR|FATAL|SEVERE|CRITICAL|FAILURE"
# A token holding a digit, or a run of 8+ hex letters (an id that happens to have no digit);
# and the value of a ``key=value`` pair.
_DIGIT_TOKEN = re.compile(r"\S*\d\S*|\S*\b[0-9a-fA-F]{8,}\b\S*|(?<==)[^\s,;]+")
# A word is a variable once this many distinct words were seen in its place, every other word
# of the template the same (user names, hosts without digits).
VARYING = 3


def _mask(text: str) -> str:
    return _DIGIT_TOKEN.sub("<*>", text.strip())


Template = tuple[str | None, str, str]


def merged_templates(templates: set[Template]) -> dict[Template, Template]:
    """Each template with its words that vary masked: a word whose place, the rest of the
    template the same, holds `VARYING` or more distinct words becomes ``<*>``."""
    merged = {template: template for template in templates}
    words_of = {template: template[2].split(" ") for template in templates}
    longest = max((len(words) for words in words_of.values()), default=0)
    for place in range(longest):
        around: dict[tuple[object, ...], set[Template]] = {}
        for template, words in words_of.items():
            if place < len(words) and words[place] != "<*>":
                rest = (*template[:2], *words[:place], *words[place + 1 :], len(words))
                around.setdefault(rest, set()).add(template)
        for group in around.values():
            if len({words_of[template][place] for template in group}) >= VARYING:
                for template in group:
                    words_of[template][place] = "<*>"
    for template, words in words_of.items():
        merged[template] = (*template[:2], " ".join(words))
    return merged


@dataclass(frozen=True)
class Entry:
    """A log line as this benchmark reads it: level class (or None), component, message."""

    severity: str | None
    component: str
    message: str

    @property
    def template(self) -> tuple[str | None, str, str]:
        return self.severity, _mask(self.component), _mask(self.message)


def _severity(level: str) -> str | None:
    word = level.lower()
    if word in ERROR_LEVELS or TROUBLE.fullmatch(word):
        return "error"
    return "warning" if word in WARNING_LEVELS or _WARNING_WORD.fullmatch(word) else None


# Java-style lines after their level: ``[thread] logger: msg``, ``[thread] logger - msg``,
# Zookeeper's ``[thread:Class@line] - msg`` and Spark's or HDFS's ``logger: msg``.
_ZOOKEEPER_REST = re.compile(r"^\[(?P<thread>[^\]]*)\]\s+-\s+(?P<msg>.*)$")
_ZOOKEEPER_CLASS = re.compile(r"([A-Za-z]\w*)(?:\$\w+)?@\d+")
_LOGGER_REST = re.compile(r"^(?:\[[^\]]*\]\s+)?(?P<component>[\w.$\[\]/]+?)(?::| -)\s+(?P<msg>.*)$")


def _java_rest(rest: str) -> tuple[str, str]:
    if match := _ZOOKEEPER_REST.match(rest):
        found = _ZOOKEEPER_CLASS.findall(match["thread"])
        return (found[-1] if found else match["thread"]), match["msg"]
    if match := _LOGGER_REST.match(rest):
        return match["component"], match["msg"]
    return "", rest


@dataclass(frozen=True)
class LogRule:
    """One log format as this benchmark reads it.

    `line` matches the format's lines, with ``level`` (where the format has a level field),
    ``component`` and ``msg`` groups, or ``rest`` for Java-style lines; `keyword` finds the
    level word in the message of a format that has no level field.
    """

    name: str
    line: re.Pattern[str]
    keyword: re.Pattern[str] | None = None

    def parse(self, line: str) -> Entry | None:
        match = self.line.match(line)
        if match is None:
            return None
        groups = match.groupdict()
        if groups.get("rest") is not None:
            component, message = _java_rest(groups["rest"])
        else:
            component, message = groups.get("component") or "", groups["msg"]
        if self.keyword is None:
            return Entry(_severity(groups["level"]), component, message)
        found = self.keyword.search(message)
        return Entry(_severity(found["level"]) if found else None, component, message)


LOG_RULES = (
    LogRule(
        "logcat",
        re.compile(
            r"^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\s+\d+\s+\d+ (?P<level>[VDIWEFA]) "
            r"(?P<component>[^:]*?)\s*: (?P<msg>.*)$"
        ),
    ),
    LogRule(
        "openstack",
        re.compile(
            rf"^\S+\.log\S* \d{{4}}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ \d+ (?P<level>{_LEVELS}) "
            r"(?P<component>\S+) (?P<msg>.*)$"
        ),
    ),
    LogRule(
        "python-logging",
        re.compile(
            r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} - (?P<component>\S+) - "
            rf"(?P<level>{_LEVELS}) - (?P<msg>.*)$"
        ),
    ),
    LogRule(
        "windows-cbs",
        re.compile(
            r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d, (?P<level>Info|Warning|Error|Fatal)\s+"
            r"(?P<component>\S+)\s+(?P<msg>.*)$"
        ),
    ),
    LogRule(
        "bgl",
        re.compile(
            r"^\S+ \d+ \d{4}\.\d\d\.\d\d \S+ \d{4}-\d\d-\d\d-\d\d\.\d\d\.\d\d\.\d+ \S+ RAS "
            rf"(?P<component>\S+) (?P<level>{_LEVELS}) (?P<msg>.*)$"
        ),
    ),
    LogRule(
        "nginx",
        re.compile(
            r"^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d \[(?P<level>\w+)\] \d+#\d+: (?:\*\d+ )?(?P<msg>.*)$"
        ),
    ),
    LogRule(
        "apache",
        re.compile(
            r"^\[\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)? \d{4}\] "
            r"\[(?:[\w.-]+:)?(?P<level>\w+)\] (?P<msg>.*)$"
        ),
    ),
    LogRule(
        "hpc",
        re.compile(r"^\d+ \S+ (?P<component>\S+) \S+ \d{9,10} \d+ (?P<msg>.*)$"),
        re.compile(r"\b(?P<level>error|warning)\s*:"),
    ),
    LogRule(
        "proxifier",
        re.compile(r"^\[\d\d\.\d\d \d\d:\d\d:\d\d\] (?P<component>\S+) - (?P<msg>.*)$"),
        re.compile(r"(?<!\S)(?P<level>error|warning) : "),
    ),
    LogRule(
        "java",
        re.compile(
            r"^(?:\d{4}-\d\d-\d\d[ T]|\d\d/\d\d/\d\d |\d{6} )[\d:,. ]*?(?:- )?"
            rf"(?P<level>{_LEVELS})\s+(?P<rest>.*)$"
        ),
    ),
    LogRule(
        "json-lines",
        re.compile(
            r'^\{.*?"(?:level|lvl|severity)"\s*:\s*"(?P<level>\w+)"'
            r'.*?"(?:logger|component|name)"\s*:\s*"(?P<component>[^"]*)"'
            r'.*?"(?:msg|message)"\s*:\s*"(?P<msg>(?:[^"\\]|\\.)*)"'
        ),
    ),
    LogRule("logfmt", re.compile(r"^(?=.*?\blevel=(?P<level>\w+)).*?\bmsg=(?P<msg>.*)$")),
    LogRule(
        "kubernetes-events",
        re.compile(r"^\S+\s+(?P<level>Normal|Warning)\s+(?P<component>\S+)\s+\S+\s+(?P<msg>.*)$"),
    ),
    LogRule(
        "syslog",
        re.compile(
            r"^[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \S+ (?P<component>[^\s\[:]+)(?:\[\d+\])?: "
            r"(?P<msg>.*)$"
        ),
        LEVEL_WORD,
    ),
)
# Any line, its level a trouble or warning word: tool output and formats the rules above lack.
PLAIN = LogRule("plain", re.compile(r"^(?P<msg>.*\S.*)$"), LEVEL_WORD)
SNIFF_LINES = 200


def log_rule(text: str) -> LogRule:
    """The rule that matches most of the first lines (the first listed on a tie), or `PLAIN`
    when none matches half of them."""
    head = text.splitlines()[:SNIFF_LINES]
    scores = [(sum(rule.line.match(line) is not None for line in head), rule) for rule in LOG_RULES]
    best, rule = max(scores, key=lambda pair: pair[0])
    return rule if 2 * best >= len(head) else PLAIN


_WORD = re.compile(r"[A-Za-z_][\w.$-]*[A-Za-z]")
_GENERIC = frozenset(
    {"error", "errors", "warning", "failed", "failure", "fatal", "exception", "from", "with"}
    | {"while", "when", "that", "this", "into", "there", "could", "cannot", "unable", "after"}
)


def log_task_term(lines: list[str], entries: list[Entry | None]) -> str:
    """The component named in the last error (the last warning if no error): or, when it names
    more than a tenth of the lines (or none but its own), the word of that line's message that
    names the most lines within a tenth."""
    severe = [e for e in entries if e is not None and e.severity is not None]
    errors = [e for e in severe if e.severity == "error"]
    last = errors[-1] if errors else (severe[-1] if severe else None)
    if last is None:
        return ""

    def naming(term: str) -> int:
        pattern = names(term)
        return sum(1 for line in lines if pattern.search(line))

    limit = max(len(lines) // 10, 2)
    if last.component and 2 <= naming(last.component) <= limit:
        return last.component
    words = [
        str(w) for w in _WORD.findall(last.message) if len(w) >= 4 and w.lower() not in _GENERIC
    ]
    counted = [(naming(word), word) for word in dict.fromkeys(words)]
    eligible = [(n, word) for n, word in counted if 2 <= n <= limit]
    if eligible:
        return max(eligible, key=lambda pair: pair[0])[1]
    return last.component or (words[0] if words else "")


class LogMatters:
    """Error and warning templates, severity lines, the last error and the last trouble line
    of one log."""

    metrics: tuple[Metric, ...] = (
        Metric("templates", "error+warning templates %"),
        Metric("severity", "severity lines kept %"),
        Metric("last_error", "last error kept", summed=True),
        Metric("trouble", "last trouble line kept", summed=True),
        Metric("task", "task lines kept %"),
    )
    tiers: tuple[tuple[str, ...], ...] = ()

    def __init__(self, text: str) -> None:
        self.rule = log_rule(text)
        lines = [line.rstrip("\r") for line in text.splitlines()]
        entries = [self.rule.parse(line) for line in lines]
        severe = [(line, e) for line, e in zip(lines, entries, strict=True) if e and e.severity]
        self.severity_lines = [line for line, _ in severe]
        self.merged = merged_templates({e.template for _, e in severe})
        self.templates = set(self.merged.values())
        errors = [line for line, e in severe if e.severity == "error"]
        self.last_error = errors[-1] if errors else None
        troubled = [line for line in lines if TROUBLE.search(line)]
        self.last_trouble = troubled[-1] if troubled else None
        self.term = log_task_term(lines, entries)
        self.task = f"why does {self.term} fail"
        self.term_lines = term_lines(text, self.term) if self.term else []

    def holds(self, budget: int) -> bool:
        return False

    def score(self, content: str) -> dict[str, Count]:
        found = lines_of(content)
        seen = set()
        for line in found:
            entry = self.rule.parse(line)
            if entry is not None and entry.severity:
                seen.add(self.merged.get(entry.template, entry.template))
        return {
            "templates": Count(len(self.templates & seen), len(self.templates)),
            "severity": kept(self.severity_lines, found),
            "last_error": _one(self.last_error, found),
            "trouble": _one(self.last_trouble, found),
            "task": kept(self.term_lines, found),
        }


def _one(line: str | None, found: set[str]) -> Count:
    return NONE if line is None else Count(int(line in found), 1)


# --- the measures -------------------------------------------------------------------------

TEMPLATE_TARGET = 90.0
TEMPLATE_RATIO = 20.0


def _kept_everywhere(key: str, ratio: float | None) -> Callable[[list[Outcome]], Figure | None]:
    """Smart mode keeps the one `key` item of every log (that has one), at `ratio` or at every
    ratio; tiered mode is the baseline."""

    def figure(outcomes: list[Outcome]) -> Figure | None:
        logs = [o for o in select(outcomes, kind="log") if ratio is None or o.ratio == ratio]
        counted = {
            method: [o for o in select(logs, method=method) if o.scores[key].total]
            for method in ("smart", "tiered")
        }
        if not counted["smart"]:
            return None
        missed = [o for o in counted["smart"] if not o.scores[key].kept]
        total = len(counted["smart"])
        return Figure(
            total - len(missed),
            sum(o.scores[key].kept for o in counted["tiered"]),
            not missed,
            {"missed": misses(missed)},
            out_of=total,
        )

    return figure


def _templates(worst: bool) -> Callable[[list[Outcome]], Figure | None]:
    """Error and warning templates kept at `TEMPLATE_RATIO` by smart mode: the worst log's
    share, or the mean over the logs; tiered mode is the baseline."""

    def figure(outcomes: list[Outcome]) -> Figure | None:
        at = select(outcomes, kind="log", ratio=TEMPLATE_RATIO)
        shares = {
            method: {
                o.name: o.scores["templates"].pct or 0.0
                for o in select(at, method=method)
                if o.scores["templates"].total
            }
            for method in ("smart", "tiered")
        }
        smart, tiered = shares["smart"], shares["tiered"]
        if not smart:
            return None
        if worst:
            measured, baseline = min(smart.values()), min(tiered.values())
        else:
            measured, baseline = mean(smart.values()), mean(tiered.values())
        per_file = {name: round(pct, 1) for name, pct in sorted(smart.items())}
        return Figure(measured, baseline, measured >= TEMPLATE_TARGET, {"per_file_pct": per_file})

    return figure


LOG_MEASURES = (
    Measure(
        "survival log last error kept, smart (every log, every ratio)",
        "every log",
        "tiered",
        _kept_everywhere("last_error", None),
        unit="outputs",
    ),
    *(
        Measure(
            f"survival log last trouble line kept at {ratio_label(ratio)}, smart (any level)",
            "every log",
            "tiered",
            _kept_everywhere("trouble", ratio),
            unit="outputs",
        )
        for ratio in (5.0, 20.0)
    ),
    Measure(
        f"survival log error+warning templates at {ratio_label(TEMPLATE_RATIO)}, smart (worst log)",
        f">= {TEMPLATE_TARGET:.0f}% in every log",
        "tiered, worst log",
        _templates(worst=True),
    ),
    Measure(
        f"survival log error+warning templates at {ratio_label(TEMPLATE_RATIO)}, smart (mean)",
        f">= {TEMPLATE_TARGET:.0f}%",
        "tiered, mean",
        _templates(worst=False),
    ),
)
