"""tests/integration/test_event_log.py, as the worker role (see conftest)."""

from tests.integration.test_event_log import *  # noqa: F403
