"""The summary and the recall measurement read the user's requests past the same harness
noise: one list of tags and block prefixes, and each reader drops every one of them."""

from __future__ import annotations

import pytest

from cleveragents.application.services.compaction.recall.requests import (
    request_text as recall_request_text,
)
from cleveragents.application.services.compaction.summary.extract_requests import (
    request_text as summary_request_text,
)
from cleveragents.domain.harness_noise import (
    COMMAND_ARGS_TAG,
    HARNESS_BLOCK_PREFIXES,
    HARNESS_FLAGS,
    NOISE_TAGS,
)
from cleveragents.domain.transcript import Message, Role, TextBlock

READERS = (summary_request_text, recall_request_text)


def user(*texts: str, **extra: object) -> Message:
    return Message(
        role=Role.USER, content=tuple(TextBlock(text=text) for text in texts), extra=extra
    )


# A slash command's arguments are what the user typed: the one tag whose words are kept.
@pytest.mark.parametrize("tag", [tag for tag in NOISE_TAGS if tag != COMMAND_ARGS_TAG])
def test_every_noise_tag_is_dropped_by_both_readers(tag: str) -> None:
    message = user(f"<{tag}>harness words</{tag}>", "rename the parser module")
    for read in READERS:
        assert read(message) == "rename the parser module", (read.__module__, tag)


@pytest.mark.parametrize("prefix", HARNESS_BLOCK_PREFIXES)
def test_a_block_the_harness_wrote_whole_is_no_request_for_either_reader(prefix: str) -> None:
    message = user(prefix + " and then its own instructions to the model.")
    for read in READERS:
        assert read(message) is None, (read.__module__, prefix)


@pytest.mark.parametrize("flag", HARNESS_FLAGS)
def test_a_record_flagged_by_the_harness_is_no_request_for_either_reader(flag: str) -> None:
    message = user("Base directory for this skill: /srv/app", **{flag: True})
    for read in READERS:
        assert read(message) is None, (read.__module__, flag)


def test_a_slash_command_keeps_what_the_user_typed_after_it_in_both_readers() -> None:
    echo = (
        "<command-message>review</command-message><command-name>/review</command-name>"
        "<command-args>src/app.py</command-args>"
    )
    for read in READERS:
        assert "src/app.py" in (read(user(echo)) or ""), read.__module__
