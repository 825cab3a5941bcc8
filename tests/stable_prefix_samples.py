"""What the stable-prefix tests of tests/unit and tests/properties both use."""

from __future__ import annotations

import hashlib


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
