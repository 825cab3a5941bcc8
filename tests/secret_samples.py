"""Fake credentials that match the scanners' patterns, built at run time.

Built, never written as literals: the repository must not contain strings that look like real
credentials (push protection and other scanners would flag them, rightly).
"""

from __future__ import annotations

import random
import string


def fake_aws_access_key_id(seed: int = 7) -> str:
    rng = random.Random(seed)
    return "AKIA" + "".join(rng.choice(string.ascii_uppercase + string.digits) for _ in range(16))
