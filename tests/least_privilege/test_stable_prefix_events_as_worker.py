"""tests/integration/test_stable_prefix_events.py, as the worker role (see conftest)."""

from tests.integration.test_stable_prefix_events import *  # noqa: F403
