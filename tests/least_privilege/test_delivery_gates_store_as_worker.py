"""tests/integration/test_delivery_gates_store.py, as the worker role (see conftest)."""

from tests.integration.test_delivery_gates_store import *  # noqa: F403
