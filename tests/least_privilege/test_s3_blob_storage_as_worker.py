"""tests/integration/test_s3_blob_storage.py, as the worker role (see conftest)."""

from tests.integration.test_s3_blob_storage import *  # noqa: F403
