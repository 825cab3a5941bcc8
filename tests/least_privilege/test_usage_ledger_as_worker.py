"""tests/integration/test_usage_ledger.py, as the worker role (see conftest)."""

from tests.integration.test_usage_ledger import *  # noqa: F403
