"""tests/integration/test_plan_credentials.py, as the worker role (see conftest)."""

from tests.integration.test_plan_credentials import *  # noqa: F403
