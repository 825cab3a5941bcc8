"""tests/integration/test_artifact_store.py, as the worker role (see conftest)."""

from tests.integration.test_artifact_store import *  # noqa: F403
