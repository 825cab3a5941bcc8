"""What a stored tool output is called: ``tool-output/<label>``, the label given by whoever hands
the output over (an agent through MCP, the proxy, the Python API, ``artifact import -``).

A label is a name, not a path: it is shown, searched and stored in the artifact's source, and an
agent chooses it. So it is normalised the way a name is: surrounding blanks dropped, ``.``,
``..`` and empty segments between slashes dropped (``a/../../b`` is ``a/b``: nothing climbs out
of ``tool-output/``), and refused with one line when it holds a control character, is empty once
normalised, or is longer than `MAX_LABEL_CHARS` (what the source column holds after its prefix).
"""

from __future__ import annotations

from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.stored_text import ARTIFACT_SOURCE_LENGTH, refuse_nul

TOOL_OUTPUT_SOURCE = "tool-output:"
"""The prefix of a stored tool output's source; the label follows it."""

MAX_LABEL_CHARS = ARTIFACT_SOURCE_LENGTH - len(TOOL_OUTPUT_SOURCE)
"""The longest label (after normalising): every driver's schema states this same bound."""


def normalised_label(label: str) -> str:
    """`label` as it is stored (see the module's docstring), or `InvalidInputError`."""
    refuse_nul(label, "label")  # the store's own message for a NUL in any stored name
    if any(ord(char) < 32 or ord(char) == 127 for char in label):
        raise InvalidInputError("label holds a control character; give a plain name")
    segments = [part.strip() for part in label.strip().split("/")]
    kept = "/".join(part for part in segments if part not in {"", ".", ".."})
    if not kept:
        raise InvalidInputError(f"label {label!r} names nothing; give a name such as pytest-run")
    if len(kept) > MAX_LABEL_CHARS:
        raise InvalidInputError(
            f"label is {len(kept):,} characters long; at most {MAX_LABEL_CHARS:,} are allowed"
        )
    return kept
