"""tests/integration/test_temp_output_cleanup.py, as the worker role (see conftest)."""

from tests.integration.test_temp_output_cleanup import *  # noqa: F403
