"""Log lines equal but for their digits: one key for a message repeated with other numbers.

Most lines of a log repeat a few hundred messages with another timestamp, counter or id.
Where a rule reads digits only as a class (any digit, a hex digit, a word character), a line
with every ASCII digit made a 1 gives what the line gives, so the rule runs once per key, not
once per line. A rule that reads a digit's value (a syslog priority, a numeric level, the 0 of
``0 failed`` or ``0x``) says where its keys cannot stand for their lines.
"""

from __future__ import annotations

__all__ = ["DIGITS_AS_ONE", "digits_as_one"]

DIGITS_AS_ONE = str.maketrans("0123456789", "1111111111")


def digits_as_one(text: str) -> str:
    """`text` with every ASCII digit made a 1."""
    return text.translate(DIGITS_AS_ONE)
