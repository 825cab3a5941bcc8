"""The limits of stored text on generated values: text without a NUL within the limit is kept
unchanged, and a NUL is refused."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.stored_text import check_stored_text


@given(st.text())
def test_text_without_nul_within_the_limit_is_kept_unchanged(value: str) -> None:
    if "\0" in value:
        with pytest.raises(InvalidInputError, match="NUL"):
            check_stored_text(value, "content")
    else:
        assert check_stored_text(value, "content", max(len(value), 1)) == value
