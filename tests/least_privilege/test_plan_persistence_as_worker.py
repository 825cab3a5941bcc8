"""tests/integration/test_plan_persistence.py, as the worker role (see conftest)."""

from tests.integration.test_plan_persistence import *  # noqa: F403
