"""The container's prefix builder records through the real store, and only when asked to."""

from __future__ import annotations

from pathlib import Path

from cleveragents.container import Container, build_container
from cleveragents.domain.event import STABLE_PREFIX_BUILT
from cleveragents.domain.stable_prefix.spec_parsing import parse_prefix_spec

SPEC = parse_prefix_spec({"core_rules": "Be careful.", "stable_facts": {"python": "3.11"}})


def test_a_recorded_prefix_is_an_event_in_the_database(container: Container) -> None:
    shop = container.project_service().create("shop")
    builder = container.stable_prefix_builder()
    built = builder.build(SPEC)
    recorded = builder.record(built, "shop")
    stored = container.event_sink().recorded(STABLE_PREFIX_BUILT)
    assert stored == [recorded]
    assert stored[0].payload["project_id"] == shop.id
    assert stored[0].payload["sha256"] == built.sha256


def test_building_and_comparing_open_no_database(tmp_path: Path, home: Path) -> None:
    database = tmp_path / "never.db"
    container = build_container(f"sqlite:///{database}", home=home)
    builder = container.stable_prefix_builder()
    built = builder.build(SPEC)
    assert builder.diff(built, built).identical
    assert not database.exists()
    container.shutdown_resources()
