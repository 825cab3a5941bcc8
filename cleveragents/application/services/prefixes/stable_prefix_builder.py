"""Stable prompt prefixes: built, fingerprinted, compared.

The builder refuses what would make the prefix differ between runs or leak: anything classified
other than a stable instruction, credentials (the secret scanner), dates, times and
random identifiers (`cleveragents.domain.volatile_content`). It checks the text exactly as it
will be rendered, so a fact's key gives its value meaning (`password: ...`, `created_at: ...`).
A built prefix can be recorded for a project: its fingerprints become a `stable_prefix_built`
event, which the metrics report lists.
"""

from __future__ import annotations

from collections.abc import Callable

from cleveragents.application.ports.events import EventSink
from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.services.projects.project_service import ProjectService
from cleveragents.domain.classification import (
    ClassificationError,
    DataClass,
    Destination,
    require_allowed,
)
from cleveragents.domain.event import STABLE_PREFIX_BUILT, RecordedEvent
from cleveragents.domain.stable_prefix.diff import PrefixDiff, diff_prefixes
from cleveragents.domain.stable_prefix.fields import PrefixField, classified_places, prefix_fields
from cleveragents.domain.stable_prefix.problems import PrefixProblem, UnstablePrefixError
from cleveragents.domain.stable_prefix.rendering import BuiltPrefix, render_prefix
from cleveragents.domain.stable_prefix.spec import PrefixSpec
from cleveragents.domain.volatile_content import find_volatile

CLASSIFICATION = "classification"
CREDENTIAL = "credential"


class StablePrefixBuilder:
    """Builds a stable prefix from a `PrefixSpec`, or says why it cannot.

    The same spec (whatever order its tools and facts were given in) always gives the same text
    and SHA-256 fingerprints, in any process. Building and comparing need only the scanner;
    `record` needs `projects` and `events`. The event sink comes as a factory, called only when
    a prefix is recorded: building one opens no database.
    """

    def __init__(
        self,
        secret_scanner: SecretScanner,
        projects: ProjectService | None = None,
        events: Callable[[], EventSink] | None = None,
    ) -> None:
        self._scanner = secret_scanner
        self._projects = projects
        self._events = events

    def problems(self, spec: PrefixSpec) -> list[PrefixProblem]:
        """Everything in `spec` that may not enter a prefix: classification first, then one
        problem per field in rendering order (the first credential or volatile value found)."""
        found: list[PrefixProblem] = []
        refused: set[str] = set()
        for place, data_class in classified_places(spec):
            problem = _classification_problem(place, data_class)
            if problem is not None:
                found.append(problem)
                refused.add(place)
        for field in prefix_fields(spec):
            if field.section.value in refused or field.owner in refused:
                continue  # already refused as a whole; its content is not looked at
            problem = self._credential_problem(field) or _volatile_problem(field)
            if problem is not None:
                found.append(problem)
        return found

    def build(self, spec: PrefixSpec) -> BuiltPrefix:
        """The prefix text with its fingerprints; `UnstablePrefixError` when `problems` finds
        anything (its message is the first problem, naming the place)."""
        found = self.problems(spec)
        if found:
            raise UnstablePrefixError(tuple(found))
        return render_prefix(spec)

    def diff(self, a: BuiltPrefix, b: BuiltPrefix) -> PrefixDiff:
        """Where B stops matching A (the section that breaks the cache) and which sections
        differ: ``builder.diff(builder.build(old), builder.build(new))``."""
        return diff_prefixes(a, b)

    def record(self, built: BuiltPrefix, project: str) -> RecordedEvent:
        """Record the fingerprints of `built` (whole and per section) for the project named
        `project`, as a `stable_prefix_built` event; `ProjectNotFoundError` when there is no
        such project (then nothing is recorded)."""
        if self._projects is None or self._events is None:
            raise RuntimeError("this StablePrefixBuilder was built without projects and events")
        project_id = self._projects.get(project).id
        sections = {section.name.value: section.sha256 for section in built.sections}
        payload = {"project_id": project_id, "sha256": built.sha256, "sections": sections}
        return self._events().emit(STABLE_PREFIX_BUILT, payload)

    def _credential_problem(self, field: PrefixField) -> PrefixProblem | None:
        findings = self._scanner.scan_text(field.text)
        if not findings:
            return None
        first = findings[0]  # kind and line only: a finding never holds the secret
        where = field.where(first.line)
        return PrefixProblem(
            place=field.place,
            kind=CREDENTIAL,
            message=f"{where}: a credential ({first.kind}) cannot be in a stable prefix: "
            "credentials belong nowhere",
        )


def _classification_problem(place: str, data_class: DataClass) -> PrefixProblem | None:
    try:
        require_allowed(data_class, Destination.PROMPT_PREFIX)
    except ClassificationError as error:
        return PrefixProblem(place=place, kind=CLASSIFICATION, message=f"{place}: {error}")
    return None


def _volatile_problem(field: PrefixField) -> PrefixProblem | None:
    findings = find_volatile(field.text, context=field.context)
    if not findings:
        return None
    first = findings[0]
    return PrefixProblem(
        place=field.place,
        kind=first.kind.value,
        message=f"{field.where(first.line)}: {first.describe()}",
    )
