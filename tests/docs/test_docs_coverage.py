"""The docs audit's coverage: every CLI command and every public service is documented.

- Every command of the `agents` app (as `cleveragents.cli.reference` walks it) has its section
  in docs/cli.md, and is named (``agents plan decide``, global options such as ``--db URL``
  allowed after ``agents``) on at least one other page: README.md or a page of docs/. The
  generated reference alone does not say what a command is for.
- Every class of cleveragents/application/services/ that the container builds (the return type
  of a provider's builder, at the top level or in a sub-container) is named in
  docs/architecture.md or a capability page, so a reader meeting it in the container finds the
  page that explains it.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from dependency_injector import providers

from tests.conftest import REPO_ROOT

CLI_REFERENCE = REPO_ROOT / "docs" / "cli.md"
DOC_PAGES = sorted(path for path in (REPO_ROOT / "docs").glob("*.md") if path != CLI_REFERENCE)
PROSE_PAGES = [REPO_ROOT / "README.md", *DOC_PAGES]
SERVICES_PACKAGE = "cleveragents.application.services"

# `agents --db "sqlite:///x.db" plan decide` names `agents plan decide`.
GLOBAL_OPTION = re.compile(r"""\bagents(?: --db(?:=| )(?:"[^"]*"|'[^']*'|\S+)| --version)+""")


def _commands() -> list[str]:
    from cleveragents.cli.reference import iter_commands

    return [entry.path for entry in iter_commands()]


@cache
def _prose(path: Path) -> str:
    return GLOBAL_OPTION.sub("agents", path.read_text(encoding="utf-8"))


def _names(text: str, name: str) -> bool:
    # Prose wraps a name across lines; `agents artifact read` is not `agents artifact reader`.
    words = r"\s+".join(re.escape(word) for word in name.split())
    return re.search(words + r"(?![\w-])", text) is not None


COMMANDS = _commands()


@pytest.mark.parametrize("command", COMMANDS)
def test_the_command_is_in_the_cli_reference(command: str) -> None:
    reference = CLI_REFERENCE.read_text(encoding="utf-8")
    assert f"\n## {command}\n" in reference, f"{command}: not in docs/cli.md (run make docs)"


@pytest.mark.parametrize("command", COMMANDS)
def test_the_command_is_named_beyond_the_cli_reference(command: str) -> None:
    pages = [path for path in PROSE_PAGES if _names(_prose(path), command)]
    assert pages, f"{command}: named on no page but docs/cli.md (say what it is for in one)"


def _service_classes() -> dict[str, type]:
    """The public classes defined in the services package's modules, by name."""
    package = importlib.import_module(SERVICES_PACKAGE)
    classes: dict[str, type] = {}
    for module_info in pkgutil.walk_packages(package.__path__, f"{SERVICES_PACKAGE}."):
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            defined_here = inspect.isclass(value) and value.__module__ == module.__name__
            if defined_here and not name.startswith("_"):
                classes[name] = value
    return classes


def _built_type_names(providers_by_name: Mapping[str, Any]) -> dict[str, str]:
    """Provider path -> the name of the type its builder returns, through sub-containers."""
    built: dict[str, str] = {}
    for name, provider in providers_by_name.items():
        if isinstance(provider, providers.Container):
            for sub_name, type_name in _built_type_names(provider.container.providers).items():
                built[f"{name}.{sub_name}"] = type_name
            continue
        builder = getattr(provider, "provides", None)
        returned = getattr(builder, "__annotations__", {}).get("return")
        if isinstance(returned, str):  # the builders' module postpones its annotations
            built[name] = returned
        elif isinstance(returned, type):
            built[name] = returned.__name__
    return built


def _exposed_services() -> dict[str, list[str]]:
    """Each service class the container builds -> the providers that build it."""
    from cleveragents.container.wiring import Container

    classes = _service_classes()
    exposed: dict[str, list[str]] = {}
    for provider_path, type_name in _built_type_names(Container.providers).items():
        if type_name in classes:
            exposed.setdefault(type_name, []).append(provider_path)
    return exposed


SERVICES = _exposed_services()


def test_the_services_are_found_where_the_container_builds_them() -> None:
    # The check below is only as good as this lookup: if builders stopped declaring their
    # return type, it would pass on nothing.
    assert {"ProjectService", "ArtifactStore", "MetricsService"} <= set(SERVICES)
    assert "services.project_service" in SERVICES["ProjectService"]


@pytest.mark.parametrize("service", sorted(SERVICES))
def test_the_service_is_named_in_the_architecture_or_a_capability_page(service: str) -> None:
    pages = [path.name for path in DOC_PAGES if re.search(rf"\b{service}\b", _prose(path))]
    assert pages, (
        f"{service} (container: {', '.join(SERVICES[service])}): named in no page of docs/; "
        "say in docs/architecture.md or its capability page what it does"
    )


def test_the_rules_find_what_they_should() -> None:
    assert _names("run `agents plan decide $PLAN`", "agents plan decide")
    assert not _names("run `agents artifact reader`", "agents artifact read")
    assert not _names("`agents temp-output`", "agents temp")
    assert _names("`agents project context\nshow NAME`", "agents project context show")
    prose = GLOBAL_OPTION.sub("agents", 'agents --db "sqlite:///a b.db" --version plan list')
    assert _names(prose, "agents plan list")
