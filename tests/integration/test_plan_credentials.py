"""No credential enters a plan: its title and its decisions are redacted before they are stored
(the real scanner, a real SQLite file), so neither `plan status`, a child plan's inherited
context, nor MCP's `spawn_child_plan` can hand one to an agent."""

from __future__ import annotations

import pytest

from cleveragents.container import Container
from tests.secret_recall_set import credentials

_BY_NAME = {credential.name: credential for credential in credentials()}


@pytest.mark.parametrize("name", ["github-classic", "vault-service-token", "aws-access-key-id"])
def test_a_decision_holding_a_credential_is_stored_and_inherited_redacted(
    container: Container, name: str
) -> None:
    secret = _BY_NAME[name].secret
    container.project_service().create("shop")
    plans = container.plan_service()
    parent = plans.create("shop", f"deploy with {secret}")
    decision = plans.decide(parent.id, f"Use {secret} to push the release", relevance=0.9)
    assert secret not in decision.fragment.content
    assert "[REDACTED:" in decision.fragment.content
    assert decision.fragment.token_count == container.token_counter().count(
        decision.fragment.content
    )
    child = container.child_plan_spawner().spawn_child(parent.id, f"child of {secret}")
    stored = container.plan_service().status(child.id).plan
    assert secret not in stored.title
    assert secret not in container.plan_service().status(parent.id).plan.title
    assert [f.content for f in stored.inherited_fragments] == [decision.fragment.content]


def test_a_decision_without_a_credential_is_stored_as_written(container: Container) -> None:
    container.project_service().create("shop")
    plans = container.plan_service()
    parent = plans.create("shop", "Refactor payments")
    text = "Use Stripe webhooks; token refresh is scheduled in 300s"
    assert plans.decide(parent.id, text).fragment.content == text
