"""tests/integration/test_policy_persistence.py, as the worker role (see conftest)."""

from tests.integration.test_policy_persistence import *  # noqa: F403
