"""tests/integration/test_artifact_store_lines.py, as the worker role (see conftest)."""

from tests.integration.test_artifact_store_lines import *  # noqa: F403
