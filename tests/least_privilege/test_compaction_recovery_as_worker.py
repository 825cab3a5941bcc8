"""tests/integration/test_compaction_recovery.py, as the worker role (see conftest)."""

from tests.integration.test_compaction_recovery import *  # noqa: F403
