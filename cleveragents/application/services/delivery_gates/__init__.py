"""Delivery gates: the five conditions that stop delivery, one module each.

`StoreVerifier` checks what the store holds (`agents verify`); `DeliveryGate` checks context
in flight (`cleveragents.gate`, the MCP tool ``gate``). Both report `Violation`s, one line
each. The gates: `workspace_escape`, `secrets_shown`, `preview_tails` (with `shown_previews`),
`unfinished_work`, `cache_metrics`.
"""

from cleveragents.application.services.delivery_gates.delivery_gate import (
    DeliveryGate,
    GateDecision,
)
from cleveragents.application.services.delivery_gates.store_verifier import (
    StoreVerification,
    StoreVerifier,
)
from cleveragents.application.services.delivery_gates.violations import StopCondition, Violation

__all__ = [
    "DeliveryGate",
    "GateDecision",
    "StopCondition",
    "StoreVerification",
    "StoreVerifier",
    "Violation",
]
